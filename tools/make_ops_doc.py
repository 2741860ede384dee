"""Rewrite the generated table of docs/ops.md from the op declarations (irshape/schemas/*.toml).

Run after adding or changing a declaration:  python tools/make_ops_doc.py
tests/test_ops_doc.py fails, naming this command, when the page is stale.
"""

from __future__ import annotations

from pathlib import Path

from irshape.ops.registry import markdown_table

DOC = Path(__file__).resolve().parent.parent / "docs" / "ops.md"
BEGIN, END = "<!-- ops:begin (generated: python tools/make_ops_doc.py) -->\n", "<!-- ops:end -->"


def main() -> None:
    text = DOC.read_text("utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    DOC.write_text(text[:start] + markdown_table() + text[end:], "utf-8")
    print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
