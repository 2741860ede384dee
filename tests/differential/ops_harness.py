"""The differential harness every op family's suite shares.

A family's suite draws seeded cases, each a small subgraph built with OpenVINO's Python API
around one node under test (named by the case id). The harness saves many cases per model with
``ov.save_model`` (fp32), reads the file back with ``ov.Core().read_model`` (the oracle: every
output's partial shape and element type of each case's node), runs ``irshape.check_file`` on
the same file, and hands each case its three answers. Nothing here is copied from irshape.

Three kinds of test come out of it, one per case:

* a valid case: irshape reports no error on it, and its inferred outputs are OpenVINO's
  (:func:`mismatch`);
* a mutant: the saved XML edited (an attribute, a Const's shape...) so that ``read_model``
  rejects the file; irshape must report an error on that layer (:func:`apply_mutant`);
* a declared dim changed by one on the case's output port: irshape reports IRS301 or IRS302 on
  that layer (:func:`dim_mutant`).

Usage, in ``tests/differential/test_<family>.py``::

    CASES = my_family_cases()            # list[OpCase], seeded
    BATCHES = batches(CASES)
    @pytest.mark.parametrize(("index", "case"), params(BATCHES))
    def test_valid(batch_runner, index, case):
        outcome = batch_runner.ops_batch(f"myfamily{index}", BATCHES[index]).outcome(case.cid)
        assert outcome.mismatch() is None, outcome.explain()
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov_opset1
import openvino.opset3 as ov_opset3
import pytest
from lxml import etree

import irshape

OPS_BATCH_SIZE = 60


@dataclass(frozen=True)
class OpCase:
    """One node under test. ``build`` makes its subgraph and returns the node, whose friendly
    name the harness sets to ``cid`` (keep ids unique within a suite: ``mp000123``)."""

    cid: str
    op: str  # e.g. "MaxPool-8", for ids and statistics
    build: Callable[[], ov.Node]
    tags: tuple[str, ...] = ()


@dataclass
class Outcome:
    """What OpenVINO and irshape say of one case."""

    cid: str
    expected: list[tuple[str, str]] | None  # (shape, element type) per output; None: not read
    inferred: list[str] | None  # irshape's shapes (None: the layer is not in the report)
    inferred_types: list[str | None] | None = None
    errors: list[Any] = field(default_factory=list)
    note: str = ""

    def mismatch(self) -> str | None:
        """None when irshape agrees: no error and every output's shape as OpenVINO's."""
        if self.expected is None:
            return f"OpenVINO did not read the case: {self.note}"
        if self.errors:
            return "irshape reports errors on a layer OpenVINO accepts"
        shapes = [shape for shape, _ in self.expected]
        if self.inferred != shapes:
            return f"irshape infers {self.inferred}, OpenVINO {shapes}"
        types = [element_type for _, element_type in self.expected]
        if self.inferred_types != types:
            return f"irshape infers element types {self.inferred_types}, OpenVINO {types}"
        return None

    def explain(self) -> str:
        lines = [
            f"case {self.cid}: {self.mismatch()}",
            f"  OpenVINO: {self.expected}",
            f"  irshape: {self.inferred} {self.inferred_types}",
        ]
        lines += [f"  {d.code} line {d.line}: {d.message}" for d in self.errors]
        return "\n".join(lines)


def _parameters_of(nodes: Iterable[ov.Node]) -> list[ov.Node]:
    """Every Parameter the nodes depend on, in the order first met."""
    seen: dict[int, ov.Node] = {}
    params: list[ov.Node] = []
    stack = list(nodes)
    while stack:
        node = stack.pop()
        key = hash(node)
        if key in seen:
            continue
        seen[key] = node
        if node.get_type_name() == "Parameter":
            params.append(node)
        stack.extend(value.get_node() for value in node.input_values())
    return params


def save_batch(cases: Sequence[OpCase], xml: Path) -> None:
    """Build every case, name its node by its id, and save them as one model (fp32)."""
    results = []
    for case in cases:
        node = case.build()
        node.set_friendly_name(case.cid)
        results += [ov_opset1.result(node.output(i)) for i in range(node.get_output_size())]
    nodes = [r.input_value(0).get_node() for r in results]
    model = ov.Model(results, _parameters_of(nodes), xml.stem)
    ov.save_model(model, str(xml), compress_to_fp16=False)


def read_back(xml: Path) -> dict[str, list[tuple[str, str]]]:
    """OpenVINO's reading of the file: friendly name -> (shape, element type) per output."""
    model = ov.Core().read_model(str(xml))
    return {
        node.get_friendly_name(): [
            (str(node.get_output_partial_shape(i)), node.get_output_element_type(i).get_type_name())
            for i in range(node.get_output_size())
        ]
        for node in model.get_ops()
    }


def openvino_reads(xml: Path) -> str | None:
    """None when ``read_model`` accepts the file, else its message's first line."""
    try:
        ov.Core().read_model(str(xml))
    except Exception as exc:  # OpenVINO raises RuntimeError and subclasses of its own
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return None


@dataclass
class OpsBatch:
    xml: Path
    expected: dict[str, list[tuple[str, str]]]
    report: Any  # irshape.FileReport

    def outcome(self, cid: str) -> Outcome:
        layers = {layer.name: layer for layer in self.report.layers}
        layer = layers.get(cid)
        inferred = types = None
        if layer is not None and layer.checked:
            inferred, types = [str(s) for s in layer.outputs], list(layer.element_types)
        errors = [d for d in self.report.errors if d.layer_name == cid]
        return Outcome(cid, self.expected.get(cid), inferred, types, errors)

    def layer_id(self, cid: str) -> str:
        (layer,) = [layer for layer in self.report.layers if layer.name == cid]
        return str(layer.layer_id)


class OpsBatchRunner:
    """Saves, reads back and checks each batch once per session."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.cache: dict[str, OpsBatch | str] = {}

    def ops_batch(self, key: str, cases: Sequence[OpCase]) -> OpsBatch:
        if key not in self.cache:
            try:
                xml = self.tmp / f"{key}.xml"
                save_batch(cases, xml)
                self.cache[key] = OpsBatch(xml, read_back(xml), irshape.check_file(xml))
            except Exception as exc:  # remembered: the batch is not rebuilt for every case
                self.cache[key] = f"batch {key} could not be run: {type(exc).__name__}: {exc}"
        batch = self.cache[key]
        if isinstance(batch, str):
            pytest.fail(batch)
        return batch


def batches(cases: Sequence[OpCase], size: int = OPS_BATCH_SIZE) -> list[list[OpCase]]:
    return [list(cases[i : i + size]) for i in range(0, len(cases), size)]


def params(all_batches: Sequence[Sequence[OpCase]]) -> list[Any]:
    return [
        pytest.param(index, case, id=f"{case.cid}-{case.op}")
        for index, batch in enumerate(all_batches)
        for case in batch
    ]


def buildable(case: OpCase) -> bool:
    """Does OpenVINO's builder accept the case (its own validation runs on construction)?"""
    try:
        case.build()
    except Exception:  # the builder's validation: RuntimeError and OpenVINO's own exceptions
        return False
    return True


def draw_cases(
    prefix: str,
    keys: Iterable[tuple[str, str, str]],
    per_key: int,
    seed: int,
    build: Callable[[int, str, str, str], ov.Node],
) -> list[OpCase]:
    """``per_key`` buildable cases for each (op, kind, style) key, each built by ``build(seed,
    op, kind, style)`` from a seed drawn in turn from one generator seeded ``seed`` (a draw
    OpenVINO's builder refuses is drawn again); ids ``<prefix>0000``..., tagged (kind, style)."""
    rng = random.Random(seed)
    cases: list[OpCase] = []
    for op, kind, style in keys:
        drawn = 0
        while drawn < per_key:
            made = functools.partial(build, rng.randrange(2**32), op, kind, style)
            case = OpCase(f"{prefix}{len(cases):04d}", op, made, (kind, style))
            if buildable(case):
                cases.append(case)
                drawn += 1
    return cases


def as_broadcast_target(values: ov.Node) -> ov.Node:
    """A Broadcast whose target shape is ``[1, *values]`` (read as i64): where OpenVINO's shape
    inference needs the values, so that its output shape shows what it folded."""
    sizes = ov_opset1.reshape(ov_opset1.convert(values, "i64"), constant([-1]), False)
    return ov_opset3.broadcast(
        ov_opset1.constant(np.float32(1.0)), ov_opset1.concat([constant([1]), sizes], 0)
    )


# --- mutants of saved files -----------------------------------------------------------------


def layer_element(tree: Any, name: str) -> Any:
    (layer,) = tree.xpath(f"//layer[@name='{name}']")
    return layer


def apply_mutant(source: Path, target: Path, edit: Callable[[Any], None]) -> None:
    """Copy ``source`` (and its .bin) to ``target`` with ``edit`` applied to the XML tree."""
    tree = etree.parse(str(source))
    edit(tree)
    tree.write(str(target))
    bin_path = source.with_suffix(".bin")
    if bin_path.exists():
        target.with_suffix(".bin").write_bytes(bin_path.read_bytes())


def reshape_input(tree: Any, name: str, index: int, dims: Sequence[int]) -> None:
    """Give input ``index`` of the layer named ``name``, and the Parameter that feeds it,
    the static shape ``dims`` (its ``shape`` attribute, its output port and the input port)."""
    layer = layer_element(tree, name)
    port = layer.findall("input/port")[index]
    (edge,) = tree.xpath(f"//edge[@to-layer='{layer.get('id')}' and @to-port='{port.get('id')}']")
    (source,) = tree.xpath(f"//layer[@id='{edge.get('from-layer')}']")
    assert source.get("type") == "Parameter", "the input is fed by a Parameter"
    source.find("data").set("shape", ",".join(map(str, dims)))
    for element in (source.find("output/port"), port):
        for dim in element.findall("dim"):
            element.remove(dim)
        for value in dims:
            etree.SubElement(element, "dim").text = str(value)


def input_dims(tree: Any, name: str, index: int) -> list[int]:
    """The declared dims of input ``index`` of the layer named ``name``."""
    port = layer_element(tree, name).findall("input/port")[index]
    return [int(dim.text) for dim in port.findall("dim")]


def dim_mutant(source: Path, target: Path, name: str, port: int = 0, axis: int = 0) -> bool:
    """The case's output port ``port`` with dim ``axis`` plus one; False when it has no such
    static dim (nothing to change)."""
    changed = False

    def edit(tree: Any) -> None:
        nonlocal changed
        ports = layer_element(tree, name).findall("output/port")
        dims = ports[port].findall("dim") if port < len(ports) else []
        if axis < len(dims) and dims[axis].text is not None and dims[axis].text.strip() != "-1":
            dims[axis].text = str(int(dims[axis].text) + 1)
            changed = True

    apply_mutant(source, target, edit)
    return changed


def is_static(shape: str) -> bool:
    """Is OpenVINO's printed shape static (``[1,3,2]``, not ``[?,3]``, ``[1..4]`` or ``[...]``)?"""
    return shape.startswith("[") and all(part.isdigit() for part in shape[1:-1].split(",") if part)


def assert_dim_off_by_one_is_an_error(batch: OpsBatch, cases: Sequence[OpCase], tmp_path: Path) -> None:
    """The first case of ``cases`` with a static output of rank 1 or more: its output port's
    first dim plus one (OpenVINO still reads the file: it ignores declared dims) must be an
    IRS301 on that layer, and no other error there but IRS302."""
    static = [
        c for c in cases if is_static(batch.expected[c.cid][0][0]) and batch.expected[c.cid][0][0] != "[]"
    ]
    assert static, "the batch has a case with a static output"
    case = static[0]
    target = tmp_path / "dim.xml"
    assert dim_mutant(batch.xml, target, case.cid)
    assert openvino_reads(target) is None
    report = irshape.check_file(target)
    codes = {d.code for d in errors_on(report, case.cid)}
    assert "IRS301" in codes and codes <= {"IRS301", "IRS302"}, [d.message for d in report.diagnostics]


def errors_on(report: Any, name: str) -> list[Any]:
    return [d for d in report.errors if d.layer_name == name]


# --- drawing shapes -------------------------------------------------------------------------


def random_dims(rng: random.Random, rank: int, lo: int = 1, hi: int = 9) -> list[int]:
    return [rng.randint(lo, hi) for _ in range(rank)]


def as_partial(rng: random.Random, dims: Sequence[int], style: str) -> ov.PartialShape:
    """``dims`` as a static shape, with dynamic dims (``?``), with intervals around each dim,
    or of dynamic rank: ``style`` is "static", "dynamic", "interval" or "rank"."""
    if style == "rank":
        return ov.PartialShape.dynamic()
    out = []
    for d in dims:
        if style == "dynamic" and rng.random() < 0.5:
            out.append(ov.Dimension())
        elif style == "interval" and rng.random() < 0.6:
            lo = max(0, d - rng.randint(0, 3))
            out.append(
                ov.Dimension(lo, d + rng.randint(0, 4)) if rng.random() < 0.8 else ov.Dimension(lo, -1)
            )
        else:
            out.append(ov.Dimension(d))
    return ov.PartialShape(out)


def parameter(shape: ov.PartialShape | Sequence[int], element_type: Any = np.float32) -> ov.Node:
    return ov_opset1.parameter(shape, element_type)


def constant(values: Any, element_type: Any = np.int64) -> ov.Node:
    return ov_opset1.constant(np.array(values, dtype=element_type))


_REAL_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i64": np.int64, "i32": np.int32}


def real_constant(values: Sequence[float], element_type: str) -> ov.Node:
    """A 1D Const of ``element_type`` (f16, f32, f64, bf16; i64 truncates). numpy has no bf16:
    its Const holds the upper halves of the values' f32 bits (a value bf16 cannot hold is cut
    toward zero)."""
    if element_type == "bf16":
        tensor = ov.Tensor(ov.Type.bf16, ov.Shape([len(values)]))
        tensor.data.view(np.uint16)[:] = np.array(values, dtype=np.float32).view(np.uint32) >> 16
        return ov.op.Constant(tensor)
    return ov_opset1.constant(np.array(values, dtype=np.float64).astype(_REAL_DTYPES[element_type]))
