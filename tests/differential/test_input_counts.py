"""How many inputs and outputs OpenVINO's reader lets a layer have, op by op (docs §11).

One valid case of every op version the family suites build (the one with the most inputs) is
saved, then edited three ways, each read as IR v10 and as IR v11:

* one more input port, fed by the producer of input 0: IR v11 fails ('node index is out of
  range', or the op's own count check); IR v10 builds the op from its first inputs where the op
  does not count them (a Relu of two inputs is a Relu), and fails where it does (``extra_inputs``
  in the declaration: an Identity, an MVN, Add);
* the last input's edge removed, its port kept (ops with an optional last input): IR v10 builds
  the op without it; IR v11 only where the op supplies a default of its own (``default = true``:
  Slice's axes, Pad's pad_value, NonMaxSuppression-1's thresholds);
* one more output port: IR v11 fails, IR v10 ignores it (IRS307).

irshape must give OpenVINO's verdict on the layer: an error where read_model fails, no error and
OpenVINO's shapes where it reads.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

import irshape
from irshape.ops.registry import declared_versions

from .ops_harness import OpCase, openvino_reads, read_back, save_batch

SUITES = (
    "test_elementwise",
    "test_indexing",
    "test_layout",
    "test_matmul",
    "test_normalization",
    "test_pooling",
    "test_recurrent",
    "test_reduction",
    "test_resize",
    "test_unary",
    "test_deformable",
    "test_detection",
    "test_state",
    "test_generation",
    "test_search",
    "test_inverse",
    "test_signal",
    "test_priors",
    "test_roi",
    "test_proposals",
    "test_convert_promote_types",
    "test_embedding",
    "test_ctc",
    "test_colour",
    "test_fake_convert",
    "test_strings",
)


def _widest_cases() -> dict[str, tuple[OpCase, int]]:
    """Per op version, a case built with the most inputs the suites give it."""
    found: dict[str, tuple[OpCase, int]] = {}
    for suite in SUITES:
        module = importlib.import_module(f".{suite}", __package__)
        for case in [*module.CASES, *getattr(module, "GRID_CASES", [])]:
            if not hasattr(case, "build") or "-" not in getattr(case, "op", ""):
                continue
            try:
                count = case.build().get_input_size()
            except Exception:  # OpenVINO's builder refuses it: not a case
                continue
            if case.op not in found or count > found[case.op][1]:
                found[case.op] = (case, count)
    return found


def _schema(op: str) -> Any:
    name, _, version = op.rpartition("-")
    return next(s for s in declared_versions(name) if str(s.version) == version)


CASES = _widest_cases()
# Variadic ops (Concat, Einsum) take any number of inputs: no "one more". OpenVINO 2026.4's
# ScaledDotProductAttention-13 takes a sixth input (sink) that irshape does not declare yet.
NOT_BOUNDED = frozenset({"ScaledDotProductAttention-13"})
BOUNDED = sorted(
    op for op, (_, count) in CASES.items() if count == _schema(op).input_counts[1] and op not in NOT_BOUNDED
)
OPTIONAL_LAST = sorted(
    op for op in BOUNDED if _schema(op).inputs[-1].optional and CASES[op][1] > _schema(op).input_counts[0]
)


def _layer(root: Any) -> Any:
    (layer,) = root.xpath("//layer[@name='m0']")
    return layer


def _one_more_input(root: Any) -> None:
    layer = _layer(root)
    ports = layer.findall("input/port")
    (edge,) = root.xpath(f"//edge[@to-layer='{layer.get('id')}' and @to-port='{ports[0].get('id')}']")
    new_id = str(max(int(p.get("id")) for p in layer.iter("port")) + 1)
    port = etree.SubElement(
        layer.find("input"), "port", id=new_id, precision=ports[0].get("precision") or "FP32"
    )
    for dim in ports[0].findall("dim"):
        etree.SubElement(port, "dim").text = dim.text
    attributes = {"from-layer": edge.get("from-layer"), "from-port": edge.get("from-port")}
    etree.SubElement(
        root.find("edges"), "edge", {**attributes, "to-layer": layer.get("id"), "to-port": new_id}
    )


def _last_edge_removed(root: Any) -> None:
    layer = _layer(root)
    port = layer.findall("input/port")[-1]
    for edge in root.xpath(f"//edge[@to-layer='{layer.get('id')}' and @to-port='{port.get('id')}']"):
        edge.getparent().remove(edge)


def _one_more_output(root: Any) -> None:
    layer = _layer(root)
    new_id = str(max(int(p.get("id")) for p in layer.iter("port")) + 1)
    port = etree.SubElement(layer.find("output"), "port", id=new_id, precision="FP32")
    etree.SubElement(port, "dim").text = "1"


def _same_verdict(
    tmp_path: Path, op: str, case: Any, edit: Callable[[Any], None], version: int | None = None
) -> tuple[Path, Any] | None:
    """Save ``case``, edit the file (its net ``version`` set, if given) and assert that irshape
    has an error exactly where OpenVINO rejects it; the file and irshape's report where
    OpenVINO reads it."""
    source, target = tmp_path / "base.xml", tmp_path / "edited.xml"
    save_batch([OpCase("m0", op, case.build)], source)
    root = etree.fromstring(source.read_bytes())
    if version is not None:
        root.set("version", str(version))
    edit(root)
    target.write_bytes(etree.tostring(root))
    target.with_suffix(".bin").write_bytes(source.with_suffix(".bin").read_bytes())
    rejection = openvino_reads(target)
    report = irshape.check_file(target)
    errors = [d for d in report.errors if d.code not in ("IRS301", "IRS302", "IRS411")]
    if rejection is not None:
        assert errors, f"OpenVINO: {rejection}; irshape: {[d.message for d in report.diagnostics]}"
        return None
    assert not errors, [d.message for d in errors]
    return target, report


def _verdicts(tmp_path: Path, op: str, edit: Callable[[Any], None], version: int) -> None:
    read = _same_verdict(tmp_path, op, CASES[op][0], edit, version)
    if read is None:
        return
    target, report = read
    expected = read_back(target)["m0"] if version == 11 else None
    if expected is not None:  # (IR v10 renames a layer whose i64 output it converts)
        (layer,) = [layer for layer in report.layers if layer.name == "m0"]
        assert [str(s) for s in layer.outputs] == [shape for shape, _ in expected]


@pytest.mark.parametrize("version", (10, 11))
@pytest.mark.parametrize("op", BOUNDED)
def test_one_more_input_as_openvino_reads_it(tmp_path: Path, op: str, version: int) -> None:
    _verdicts(tmp_path, op, _one_more_input, version)


@pytest.mark.parametrize("version", (10, 11))
@pytest.mark.parametrize("op", OPTIONAL_LAST)
def test_an_optional_last_input_without_its_edge(tmp_path: Path, op: str, version: int) -> None:
    _verdicts(tmp_path, op, _last_edge_removed, version)


@pytest.mark.parametrize("version", (10, 11))
@pytest.mark.parametrize("op", sorted(CASES)[::3])
def test_one_more_output_port(tmp_path: Path, op: str, version: int) -> None:
    _verdicts(tmp_path, op, _one_more_output, version)


def test_the_grid_covers_the_ops() -> None:
    assert len(BOUNDED) >= 140 and len(OPTIONAL_LAST) >= 15, (len(BOUNDED), OPTIONAL_LAST)


# A layer typed 'Constant' (no value: docs §13) as a value input: OpenVINO fails where its shape
# inference reads the value itself ('ptr is Null'), reads where it reads the value's bounds
# (Reshape's target) or does not need it here (data of dynamic rank). The first case of each op
# version and value input that a Const feeds; the Const retyped.
def _value_input_cases() -> dict[tuple[str, int], Any]:
    found: dict[tuple[str, int], Any] = {}
    for suite in SUITES:
        module = importlib.import_module(f".{suite}", __package__)
        for case in [*module.CASES, *getattr(module, "GRID_CASES", [])]:
            if not hasattr(case, "build") or "-" not in getattr(case, "op", ""):
                continue
            try:
                node = case.build()
            except Exception:  # OpenVINO's builder refuses it: not a case
                continue
            for port in _schema(case.op).value_inputs:
                if (case.op, port) in found or port >= node.get_input_size():
                    continue
                if node.input_value(port).get_node().get_type_name() == "Constant":
                    found[(case.op, port)] = case
    return found


VALUE_CASES = _value_input_cases()
# OpenVINO 2026.4 crashes (a segfault) on these: no verdict to compare.
CRASHES = frozenset({("LRN-1", 1), ("ScatterUpdate-3", 3)})


def _retype_feeding_const(port: int) -> Callable[[Any], None]:
    def edit(root: Any) -> None:
        layer = _layer(root)
        port_id = layer.findall("input/port")[port].get("id")
        (edge,) = root.xpath(f"//edge[@to-layer='{layer.get('id')}' and @to-port='{port_id}']")
        (const,) = root.xpath(f"//layer[@id='{edge.get('from-layer')}']")
        const.set("type", "Constant")

    return edit


@pytest.mark.parametrize(("op", "port"), sorted(set(VALUE_CASES) - CRASHES))
def test_a_value_input_without_a_value(tmp_path: Path, op: str, port: int) -> None:
    _same_verdict(tmp_path, op, VALUE_CASES[(op, port)], _retype_feeding_const(port))
