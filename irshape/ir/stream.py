"""lxml's pull parser, fed in chunks, with safe options and exact lines in files of any length.

Safety. The parser never expands entities, never loads a DTD and never touches the network;
libxml2's limits stay on (``huge_tree=False``): nesting deeper than 256 elements, or a text
node or attribute value over 10 MB, is a syntax error with its line. Only a file that nests
deeper than 256 levels is read again with libxml2's XML_PARSE_HUGE (2048 levels): OpenVINO
reads bodies nested far deeper than 256 XML levels (an If nested 192 deep).

Lines. libxml2 stops counting an element's line at 65535 (the field is 16 bits). So once the
current parser has read :data:`RESTART_LINES` lines, the reader looks for a point between two
top-level elements (before a ``<layer`` or an ``<edge``, where it has read everything before)
and the parser is replaced there by a fresh one, fed a synthetic start of the open elements
(on no line of its own) and then the rest of the file. Every line the fresh parser reports
is offset by the lines before the cut. A cut is never made inside a comment, a CDATA section
or a processing instruction, where ``<layer`` would be text: :class:`_Markup` follows them
with a few ``bytes.find`` calls a chunk.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

# Lines one parser reads before the reader looks for a cut: well below libxml2's 65535, so a
# top-level element of up to ~30,000 lines starting after this still has exact lines.
RESTART_LINES = 1 << 15


@cache
def _cut_pattern() -> re.Pattern[bytes]:
    """Where a cut may go: before the start tag of a top-level element (compiled on first use:
    a file past RESTART_LINES only)."""
    return re.compile(rb"<(?:layer|edge)[\s/>]")


_CUTS_TRIED = 16  # a chunk's cut points tried before waiting for the next chunk


def pull_parser(
    tags: Iterable[str] | None, events: tuple[str, ...], encoding: str | None = None, *, deep: bool = False
) -> Any:
    """An ``etree.XMLPullParser`` with irshape's safe options (lxml imported with the first: a
    file the scanner reads needs none)."""
    from lxml import etree

    return etree.XMLPullParser(
        events=events,
        tag=None if tags is None else tuple(tags),
        encoding=encoding,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=deep,  # see LinedParser
        remove_comments=True,
        remove_pis=True,
        # The whitespace between elements is never read, and libxml2 would make (and the pruning
        # free) a text node for each: a dim's own text, even a blank one, is kept.
        remove_blank_text=True,
        collect_ids=False,
    )


class LinedParser:
    """A pull parser over a stream of chunks, replaced by a fresh one when its lines run high.

    ``offset`` is the number of file lines before the current parser's line 1: an element's
    line in the file is its ``sourceline`` plus ``offset``.
    """

    def __init__(
        self, tags: tuple[str, ...], events: tuple[str, ...], *, restartable: bool, deep: bool = False
    ) -> None:
        self.tags = tags
        self.events = events
        # ``deep``: libxml2's XML_PARSE_HUGE, for a file whose bodies nest past 256 levels (a
        # Loop in an If in a Loop...): 2048 levels, and no 10 MB limit on a text or attribute
        self.deep = deep
        self.parser = pull_parser(tags, events, deep=deep)
        self.offset = 0
        self.lines = 0  # line ends fed to the current parser
        self.cr = False  # the bytes fed end in a "\r": a line end, with the "\n" after it if any
        self.restartable = restartable  # an ASCII-compatible file (a "\n" is a byte of its own)
        self.markup = _Markup()

    @property
    def restart_due(self) -> bool:
        return self.restartable and self.lines >= RESTART_LINES

    def feed(self, data: bytes) -> Iterator[tuple[str, Any]]:
        """Feed ``data``; the events it completes."""
        self.parser.feed(data)
        self.lines += line_ends(data, self.cr)
        self.cr = data.endswith(b"\r")
        self.markup.feed(data)
        return self.parser.read_events()  # type: ignore[no-any-return]

    def cut_points(self, chunk: bytes) -> list[int]:
        """Where in ``chunk`` a top-level element may start (the reader decides which does)."""
        return [m.start() for _, m in zip(range(_CUTS_TRIED), _cut_pattern().finditer(chunk), strict=False)]

    def restart(self, opening: bytes, encoding: str) -> bool:
        """Go on with a fresh parser that first reads ``opening`` (the open elements' start tags).

        Refused (False) inside a comment, CDATA section or processing instruction.
        """
        if self.markup.closer is not None:
            return False
        self.parser = pull_parser(self.tags, self.events, encoding, deep=self.deep)
        self.parser.feed(opening)
        self.offset += self.lines + self.cr  # a "\r" just before a "<" ends its line alone
        self.lines = 0
        self.cr = False
        return True

    def close(self) -> Iterator[tuple[str, Any]]:
        self.parser.close()
        return self.parser.read_events()  # type: ignore[no-any-return]

    def line(self, local: int | None) -> int:
        """The file line of a line the current parser reports (libxml2's 0: unknown, line 1)."""
        return (local or 1) + self.offset

    def relocate(self, message: str) -> str:
        """A parser message with the lines it quotes ("tag layer line 5") as file lines."""
        if not self.offset:
            return message
        return re.sub(r"\bline (\d+)", lambda m: f"line {int(m.group(1)) + self.offset}", message)


def line_ends(data: bytes, after_cr: bool) -> int:
    """The line ends libxml2 counts in ``data``: "\n", "\r\n" and a lone "\r" (XML's line
    ends), a "\r" at the end counted with what follows it (``after_cr``: the bytes before
    ``data`` ended in one)."""
    ends = data.count(b"\n")
    if after_cr and not data.startswith(b"\n"):
        ends += 1  # the "\r" before was alone
    if b"\r" in data:
        ends += data.count(b"\r") - data.count(b"\r\n") - data.endswith(b"\r")
    return ends


_OPENERS = ((b"<!--", b"-->"), (b"<![CDATA[", b"]]>"), (b"<?", b"?>"))


class _Markup:
    """Follows whether the bytes fed so far end inside a comment, CDATA section or PI.

    Exact for well-formed XML: outside those, a ``<`` always starts markup (attribute values
    and text cannot hold one), so their openers cannot be mistaken.
    """

    def __init__(self) -> None:
        self.closer: bytes | None = None  # what ends the markup the bytes end in, if any
        self.carry = b""  # the end of the last chunk, where an opener or closer may be cut in two

    def feed(self, data: bytes) -> None:
        data = self.carry + data
        self.carry = b""
        at = 0
        while True:
            if self.closer is not None:
                end = data.find(self.closer, at)
                if end < 0:
                    self.carry = data[max(at, len(data) - len(self.closer) + 1) :]
                    return
                at = end + len(self.closer)
                self.closer = None
            start = _markup_start(data, at)
            if start < 0:
                self.carry = b"<" if data.endswith(b"<") else b""
                return
            opened = next(((o, c) for o, c in _OPENERS if data.startswith(o, start)), None)
            if opened is not None:
                at = start + len(opened[0])
                self.closer = opened[1]
            elif any(o.startswith(data[start:]) for o, _ in _OPENERS):
                self.carry = data[start:]  # an opener cut by the chunk's end
                return
            else:
                at = start + 2  # another declaration ("<!DOCTYPE"): not text-bearing here


_LESS_THAN = ord("<")


def _markup_start(data: bytes, at: int) -> int:
    """Where the first ``<!`` or ``<?`` in ``data`` from ``at`` is (-1: none).

    Found by its second byte, which ``find`` looks for with memchr (two-byte patterns take a
    slower search, 4% of the reading of a large IR) and an IR's text rarely holds (a
    Parameter's shape "?,3,?,?"), each then checked for the ``<`` before it.
    """
    first = -1
    for second in (0x21, 0x3F):  # "!", "?"
        index = data.find(second, at + 1)
        while index > 0 and data[index - 1] != _LESS_THAN:
            index = data.find(second, index + 1)
        if index > 0 and (first < 0 or index - 1 < first):
            first = index - 1
    return first
