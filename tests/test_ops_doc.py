"""docs/ops.md lists the op versions irshape infers, generated from their declarations."""

from __future__ import annotations

from pathlib import Path

from irshape.ops.opsets import opsets_of
from irshape.ops.registry import all_declarations, markdown_table

DOC = Path(__file__).resolve().parent.parent / "docs" / "ops.md"


def test_the_ops_page_is_current() -> None:
    assert markdown_table() in DOC.read_text("utf-8"), (
        "docs/ops.md is stale: run python tools/make_ops_doc.py"
    )


def test_every_declaration_names_an_op_openvino_has() -> None:
    for schema in all_declarations():
        assert opsets_of(schema.op), schema.name
        assert f"| {schema.name} |" in markdown_table()
