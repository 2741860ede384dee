"""irshape.ops.opset_table, generated from OpenVINO's headers, against OpenVINO's node factory:
for every op type and every opset, the factory builds the op exactly where the table says an
opset holds it, and the op it builds is the version the table names."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

import openvino as ov
from openvino.utils.node_factory import NodeFactory
from scripts import load_script

from irshape.ops.opset_table import MAX_OPSET
from irshape.ops.opsets import op_version, table


def _first_opset_of_each_version(spans: tuple[tuple[int, int, int], ...]) -> dict[int, int]:
    first: dict[int, int] = {}
    for lo, _hi, version in spans:
        first.setdefault(version, lo)
    return first


def _factory_version_id(factory: NodeFactory, op_type: str) -> str | None:
    try:
        node = factory.create(op_type)
    except RuntimeError:
        return None
    return str(node.get_type_info().version_id)


# The node factory builds no Constant without a value; LogicalXor-1 (ov::op::v1) calls itself
# "opset2" although opset1 holds it (it is in opset1's table, and read_model reads it there).
_FACTORY_QUIRKS = {("Constant", None, "opset1"), ("LogicalXor", "opset2", "opset1")}


def test_every_type_in_every_opset_is_what_openvino_builds() -> None:
    mismatches = []
    for opset in range(1, MAX_OPSET + 1):
        factory = NodeFactory(f"opset{opset}")
        for op_type, spans in table().items():
            held = {n: v for lo, hi, v in spans for n in range(lo, hi + 1)}
            built = _factory_version_id(factory, op_type)
            if opset not in held:
                expected = None
            else:  # OpenVINO names an op version by the first opset that holds it
                expected = f"opset{_first_opset_of_each_version(spans)[held[opset]]}"
            if built != expected and (op_type, built, expected) not in _FACTORY_QUIRKS:
                mismatches.append((op_type, opset, built, expected))
    assert mismatches == [], f"OpenVINO {ov.__version__}"


def test_layer_versions_resolve_as_the_reader_does() -> None:
    assert op_version("MaxPool", "opset9") == ("MaxPool", 8)
    assert op_version("maxpool", "opset14") == ("MaxPool", 14)
    assert op_version("Const", "opset1") == ("Constant", 1)
    assert op_version("MVN", "opset1") == ("MVN", 2)  # the reader redirects opset1 MVN to opset2
    assert op_version("AvgPool", "opset16") == ("AvgPool", 16)
    assert op_version("MaxPool", "Opset1") is None  # opset names match exactly
    assert op_version("ShapeOf", "opset17") == ("ShapeOf", 3)
    assert op_version("Relu", "opset17") is None


def _make_opset_table() -> ModuleType:
    return load_script(Path(__file__).resolve().parent.parent / "tools" / "make_opset_table.py")


def test_the_table_is_the_installed_openvinos() -> None:
    """irshape/ops/opset_table.py is what tools/make_opset_table.py writes from the installed
    OpenVINO's opset tables (so tests/test_ops_doc.py's closed list is OpenVINO's), and its
    opsets are exactly the ``openvino.opsetN`` modules there are."""
    generator = _make_opset_table()
    assert generator.OUTPUT.read_text("utf-8") == generator.source(), "run python tools/make_opset_table.py"
    for number in range(1, MAX_OPSET + 1):
        importlib.import_module(f"openvino.opset{number}")
    assert importlib.util.find_spec(f"openvino.opset{MAX_OPSET + 1}") is None
