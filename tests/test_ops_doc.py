"""docs/ops.md lists the op versions irshape infers, generated from their declarations."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from scripts import load_script

from irshape.ops.opsets import opsets_of
from irshape.ops.registry import all_declarations, markdown_table

DOC = Path(__file__).resolve().parent.parent / "docs" / "ops.md"
TOOLS = Path(__file__).resolve().parent.parent / "tools"


def test_the_ops_page_is_current() -> None:
    assert markdown_table() in DOC.read_text("utf-8"), (
        "docs/ops.md is stale: run python tools/make_ops_doc.py"
    )


def test_every_declaration_names_an_op_openvino_has() -> None:
    for schema in all_declarations():
        assert opsets_of(schema.op), schema.name
        assert f"| {schema.name} |" in markdown_table()


def _make_ops_doc() -> ModuleType:
    return load_script(TOOLS / "make_ops_doc.py")


def test_every_op_version_of_the_opsets_is_declared() -> None:
    """The closed list: every op version OpenVINO's opsets hold (irshape/ops/opset_table.py,
    equal to OpenVINO's own tables by tests/test_opset_table_openvino.py) has its declaration,
    but Result-1, which has no output to infer."""
    assert _make_ops_doc().undeclared() == ["Result-1"]


def test_the_coverage_sentence_is_current() -> None:
    sentence = _make_ops_doc().coverage()
    assert sentence in DOC.read_text("utf-8"), "docs/ops.md is stale: run python tools/make_ops_doc.py"
    assert "every one but Result-1 (" in sentence
