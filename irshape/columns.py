"""The column of a finding: where on its line the attribute, value or element it is about starts.

The reader records line numbers only (lxml gives no columns), and most findings are never
shown (a clean file has none; ``--select`` drops others), so columns are found afterwards, only
for the findings that are reported, from the text of their lines:

- a ``<dim>`` a finding quotes (IRS005, IRS010), or the dim of the port and axis it compares
  (IRS301: the third ``<dim>`` of the line for axis 2);
- else the first attribute of the line that the message names (``strides='0,1'``,
  ``attribute 'strides'``, ``pads_begin + pads_end``, ``Parameter shape ...``);
- else the port the finding is about (``<port id="3"``);
- else the element the line starts (``<layer``, ``<edge``, ``<net``): its first non-blank
  character. A finding without a line, or whose line is not in the text, keeps column 1.

Columns count characters from 1, as linters print them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from irshape.diagnostics import Diagnostic
from irshape.results import FileReport

# Words too common in messages to mean the attribute of that name unless quoted or written as
# NAME=: "the layer's type", "a name", "the version".
_COMMON_WORDS = frozenset({"id", "name", "type", "version"})
# Compiled once, when a run first has a finding to place (this module is imported only then).
_ATTRIBUTE = re.compile(r"(?<![\w.:-])([A-Za-z_][\w.:-]*)\s*=\s*[\"']")
_WORD = re.compile(r"[A-Za-z_][\w]*")
_QUOTED_DIM = re.compile(r"<dim> '([^']*)'")
_DIM_VALUE = re.compile(r"<dim\s*>\s*")


def source_lines(data: bytes, wanted: Iterable[int]) -> dict[int, str]:
    """The text of the lines ``wanted`` (numbered from 1) of a file's bytes.

    Only those lines are decoded: in UTF-8 a newline byte is never part of another character,
    so the bytes split at b"\\n" are the text's lines (an invalid sequence ends at the newline
    too, so each line decodes as it would in the whole text). A UTF-16 file is decoded whole."""
    numbers = {line for line in wanted if line > 0}
    if not numbers:
        return {}
    last = max(numbers)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace").split("\n", last)
        return {number: text[number - 1].rstrip("\r") for number in numbers if number <= min(len(text), last)}
    lines = data.split(b"\n", last)
    count = min(len(lines), last)  # the last piece holds the rest of the file, past the lines wanted
    found = {
        number: lines[number - 1].decode("utf-8", errors="replace").rstrip("\r")
        for number in numbers
        if number <= count
    }
    if 1 in found:  # a UTF-8 byte order mark is no part of the first line
        found[1] = found[1].removeprefix("\ufeff")
    return found


def column_of(d: Diagnostic, line: str) -> int:
    """The 1-based column on ``line`` (the text of ``d``'s line) of what ``d`` is about."""
    for find in (_dim_column, _attribute_column, _port_column):
        column = find(d, line)
        if column is not None:
            return column + 1
    stripped = len(line) - len(line.lstrip())
    return stripped + 1 if stripped < len(line) else 1


def _dim_column(d: Diagnostic, line: str) -> int | None:
    quoted = _QUOTED_DIM.search(d.message)
    if quoted is not None:
        at = line.find(f">{quoted.group(1)}<")
        if at == -1:
            at = line.find(quoted.group(1))
        return None if at == -1 else at + (line[at] == ">")
    if d.axis is None or d.port is None:
        return None
    dims = [match.end() for match in _DIM_VALUE.finditer(line)]
    if len(dims) > d.axis:
        return dims[d.axis]
    return dims[0] if len(dims) == 1 else None


def _attribute_column(d: Diagnostic, line: str) -> int | None:
    attributes: dict[str, int] = {}
    for match in _ATTRIBUTE.finditer(line):
        attributes.setdefault(match.group(1), match.start(1))
    if not attributes:
        return None
    for match in _WORD.finditer(d.message):
        word = match.group()
        if word not in attributes:
            continue
        if word in _COMMON_WORDS and not _quoted_or_assigned(d.message, match):
            continue
        return attributes[word]
    return None


def _quoted_or_assigned(message: str, match: re.Match[str]) -> bool:
    before = message[match.start() - 1 : match.start()]
    after = message[match.end() : match.end() + 1]
    return (before in "'\"" and before != "" and after == before) or after == "="


def _port_column(d: Diagnostic, line: str) -> int | None:
    if d.port is None:
        return None
    match = re.search(rf"<port\b[^>]*?\bid\s*=\s*[\"']{re.escape(d.port)}[\"']", line)
    return None if match is None else match.start()


def with_columns(diagnostics: Sequence[Diagnostic], lines: Mapping[int, str]) -> list[Diagnostic]:
    """``diagnostics`` with the column of each whose line is in ``lines`` (a finding placed
    already, such as a <dim> of a line of several, keeps its column)."""
    out = []
    for d in diagnostics:
        if d.column != 1:
            out.append(d)
            continue
        line = lines.get(d.line or 0)
        column = 1 if line is None else column_of(d, line)
        out.append(d if column == d.column else d.replace(column=column))
    return out


def add_columns(report: FileReport, data: bytes) -> None:
    """Set the columns of ``report``'s findings from the file's bytes, and sort them again.
    Only the lines of findings still at column 1 are decoded (none: none is)."""
    unplaced = [d.line or 0 for d in report.diagnostics if d.column == 1]
    placed = report.diagnostics
    if unplaced:
        placed = with_columns(placed, source_lines(data, unplaced))
    report.diagnostics = sorted(placed, key=Diagnostic.sort_key)
