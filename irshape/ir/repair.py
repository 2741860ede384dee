"""Files OpenVINO's parser reads though they are not well-formed XML.

pugixml, the parser of OpenVINO's IR reader, does not check everything XML requires: it keeps
a repeated attribute (and ``attribute(name)`` finds the first), and it takes control
characters in values, raw (``\\x01``) or as character references (``&#1;``; ``&#0;`` ends the
value there, as the C string it becomes). libxml2 rejects both. So that such a file's layers
are still checked as OpenVINO reads them, :func:`repair` rewrites a copy that libxml2 accepts:
the later copies of a repeated attribute are dropped, and each control character becomes a
private-use character (U+E000 + its code), which :func:`restore` turns back in the values read.
Line ends are untouched, so lines stay the file's. (docs/openvino-ir-reading.md §7.)

pugixml also takes an XML declaration that whitespace or comments come before (OpenVINO's own
reader tests write their IRs so, from an indented string), where XML wants it first, and it
skips text outside the root element, which XML does not allow. :func:`outside_the_root` moves
the declaration to the start and blanks such text: the bytes from the declaration on are where
they were, so their lines are the file's. pugixml does not read the declaration's
pseudo-attributes either (a version 2, an unknown encoding); one libxml2 rejects is rewritten
to version 1.0, its length kept.
"""

from __future__ import annotations

import codecs
import re
from functools import cache
from typing import NamedTuple

_PRIVATE = 0xE000
# The C0 controls XML 1.0 forbids (tab, line feed and carriage return are allowed).
_CONTROLS = bytes(c for c in range(1, 32) if c not in (9, 10, 13))
_RESTORE = {_PRIVATE + c: chr(c) for c in range(32)}
_BOM = b"\xef\xbb\xbf"


# The patterns are compiled on first use: only a file libxml2 rejects is repaired.
@cache
def _raw_control() -> re.Pattern[bytes]:
    return re.compile(b"[" + re.escape(_CONTROLS) + b"]")


@cache
def _reference() -> re.Pattern[bytes]:
    return re.compile(rb"&#(?:([0-9]+)|x([0-9A-Fa-f]+));")


@cache
def _start_tag() -> re.Pattern[bytes]:
    return re.compile(rb"<[A-Za-z_][^<>]*>")


@cache
def _attribute() -> re.Pattern[bytes]:
    return re.compile(rb"""(\s+)([^\s=/>]+)(\s*=\s*)("[^"]*"|'[^']*')""")


def repair(data: bytes) -> bytes | None:
    """A copy of ``data`` (UTF-8 or another ASCII-compatible encoding) libxml2 can parse as
    pugixml reads it, or None when there is nothing of the kind to repair."""
    repaired = _raw_control().sub(lambda m: chr(_PRIVATE + m.group(0)[0]).encode("utf-8"), data)
    repaired = _reference().sub(_private_reference, repaired)
    repaired = _start_tag().sub(_first_attributes, repaired)
    return None if repaired == data else repaired


_SPACE = b" \t\r\n"
_LATE = (
    "whitespace, a comment or an instruction comes before the XML declaration, which XML wants "
    "first (libxml2 and other XML parsers reject the file); OpenVINO's parser (pugixml) reads it"
)
_TEXT = (
    "text outside the root element, which XML does not allow (libxml2 and other XML parsers "
    "reject the file); OpenVINO's parser (pugixml) skips it"
)


_DECLARATION_WORDS = (
    "the XML declaration has a version, encoding, standalone or other pseudo-attribute XML does "
    "not allow (libxml2 and other XML parsers reject the file); OpenVINO's parser (pugixml) "
    "does not read them"
)
_PSEUDO = re.compile(rb"""([^\s=?]+)\s*=\s*("[^"]*"|'[^']*')""")


def _plain_declaration(text: bytes) -> bytes | None:
    """A declaration of ``len(text)`` bytes that libxml2 accepts, for one pugixml reads and
    libxml2 does not (a version other than 1.x, an unknown encoding or standalone value,
    another pseudo-attribute): version 1.0 and the encoding where Python knows it, or blanks
    where that does not fit (UTF-8 then). None when libxml2 takes ``text`` as it is."""
    inner = text[len(b"<?xml") : -len(b"?>")]
    pairs = {name: value[1:-1] for name, value in _PSEUDO.findall(inner)}
    encoding = pairs.get(b"encoding")
    known = encoding is not None and _known_encoding(encoding)
    fine = (
        re.fullmatch(rb"1\.[0-9]+", pairs.get(b"version", b"")) is not None
        and (encoding is None or known)
        and pairs.get(b"standalone", b"yes") in (b"yes", b"no")
        and set(pairs) <= {b"version", b"encoding", b"standalone"}
        and _PSEUDO.sub(b"", inner).strip(_SPACE) == b""
    )
    if fine:
        return None
    plain = b'<?xml version="1.0"' + (b' encoding="' + encoding + b'"' if known and encoding else b"")
    if len(plain) + 2 > len(text):
        plain = b'<?xml version="1.0"'
    if len(plain) + 2 > len(text):
        return b" " * len(text)
    return plain + b" " * (len(text) - len(plain) - 2) + b"?>"


def _known_encoding(name: bytes) -> bool:
    try:
        codecs.lookup(name.decode("ascii"))
    except (LookupError, UnicodeDecodeError):
        return False
    return True


class Outside(NamedTuple):
    """A copy that libxml2 reads as pugixml does, the line of what was out of place, and what."""

    data: bytes
    line: int
    reason: str


def outside_the_root(data: bytes) -> Outside | None:
    """``data`` (UTF-8 or another ASCII-compatible encoding) as libxml2 reads it like pugixml
    does, when the bytes outside the root element are what pugixml reads and libxml2 does not:
    the XML declaration after whitespace, comments or instructions (moved before them), and text
    before the root element or after its end (made blanks, its line ends kept). Every byte from
    the declaration on stays where it was, so lines are the file's. None when there is nothing
    of the kind (or a NUL, where OpenVINO's reading stops)."""
    start = len(_BOM) if data.startswith(_BOM) else 0
    found = _prolog(data, start)
    if found is None:
        return None
    declaration, texts = found
    texts += _epilog(data)
    late = declaration is not None and declaration[0] != start
    plain = _plain_declaration(data[declaration[0] : declaration[1]]) if declaration is not None else None
    if not late and not texts and plain is None:
        return None
    copy = bytearray(data)
    for first, end in texts:
        copy[first:end] = bytes(b if b in b"\r\n" else 0x20 for b in data[first:end])
    if declaration is not None:
        first, end = declaration
        written = plain if plain is not None else data[first:end]
        copy[first:end] = written
        if late:
            copy[start:end] = written + bytes(copy[start:first])
    place = texts[0][0] if texts else declaration[0] if declaration is not None else start
    line = 1 + data.count(b"\n", 0, place)
    reason = _TEXT if texts else _LATE if late else _DECLARATION_WORDS
    return Outside(bytes(copy), line, reason)


def _prolog(data: bytes, position: int) -> tuple[tuple[int, int] | None, list[tuple[int, int]]] | None:
    """The XML declaration's span and the text runs before the root element (None: no root, or
    what libxml2's error must stand for: two declarations, a NUL, an unclosed comment)."""
    declaration: tuple[int, int] | None = None
    texts: list[tuple[int, int]] = []
    while position < len(data):
        if data[position] in _SPACE:
            position += 1
        elif data.startswith(b"<!--", position) or data.startswith(b"<?", position):
            closing = b"-->" if data[position + 1] == ord("!") else b"?>"
            end = data.find(closing, position + 2)
            if end < 0:
                return None
            end += len(closing)
            is_declaration = data.startswith(b"<?xml", position) and data[position + 5 : position + 6] in (
                b" ",
                b"\t",
                b"\r",
                b"\n",
            )
            if is_declaration:
                if declaration is not None:
                    return None  # two declarations: libxml2's error stands
                declaration = (position, end)
            position = end
        elif data[position] == ord("<"):
            return declaration, texts  # the root element (or a DOCTYPE: left as it is)
        else:
            end = data.find(b"<", position)
            if end < 0 or b"\0" in data[position:end]:
                return None
            texts.append((position, end))
            position = end
    return None


def _epilog(data: bytes) -> list[tuple[int, int]]:
    """Text after the last markup of the file (after the root element's end)."""
    last = data.rfind(b">")
    tail = data[last + 1 :]
    if last < 0 or not tail.strip(_SPACE) or b"\0" in tail or b"<" in tail:  # (a cut tag: not text)
        return []
    return [(last + 1, len(data))]


def restore(text: str) -> str:
    """A value as pugixml gives it: the control characters back, cut at a NUL."""
    if not any(_PRIVATE <= ord(c) < _PRIVATE + 32 for c in text):
        return text
    text = text.translate(_RESTORE)
    return text.split("\0", 1)[0]


def _private_reference(match: re.Match[bytes]) -> bytes:
    decimal, hexadecimal = match.groups()
    digits = decimal if decimal is not None else hexadecimal
    if len(digits) > 8:
        return match.group(0)
    code = int(digits, 10 if decimal is not None else 16)
    if code == 0 or (code < 32 and code not in (9, 10, 13)):
        return b"&#x%X;" % (_PRIVATE + code)
    return match.group(0)


def _first_attributes(match: re.Match[bytes]) -> bytes:
    """A start tag with each attribute name kept once, the first (pugixml's ``attribute()``)."""
    tag = match.group(0)
    seen: set[bytes] = set()

    def keep_first(attribute: re.Match[bytes]) -> bytes:
        name = attribute.group(2)
        if name in seen:
            return b""
        seen.add(name)
        return attribute.group(0)

    return _attribute().sub(keep_first, tag)
