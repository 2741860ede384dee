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
reader tests write their IRs so, from an indented string), where XML wants it first.
:func:`declaration_first` moves it to the start, before what came first: the bytes after it
are where they were, so their lines are the file's.
"""

from __future__ import annotations

import re

_PRIVATE = 0xE000
# The C0 controls XML 1.0 forbids (tab, line feed and carriage return are allowed).
_CONTROLS = bytes(c for c in range(1, 32) if c not in (9, 10, 13))
_RAW = re.compile(b"[" + re.escape(_CONTROLS) + b"]")
_REFERENCE = re.compile(rb"&#(?:([0-9]+)|x([0-9A-Fa-f]+));")
_START_TAG = re.compile(rb"<[A-Za-z_][^<>]*>")
_ATTRIBUTE = re.compile(rb"""(\s+)([^\s=/>]+)(\s*=\s*)("[^"]*"|'[^']*')""")
_RESTORE = {_PRIVATE + c: chr(c) for c in range(32)}
_BOM = b"\xef\xbb\xbf"
# Whitespace and comments, then the declaration (XML's S is space, tab, CR and LF).
_LATE_DECLARATION = re.compile(rb"((?:[ \t\r\n]+|<!--(?:[^-]|-[^-])*-->)+)(<\?xml[ \t\r\n][^>]*\?>)")


def repair(data: bytes) -> bytes | None:
    """A copy of ``data`` (UTF-8 or another ASCII-compatible encoding) libxml2 can parse as
    pugixml reads it, or None when there is nothing of the kind to repair."""
    repaired = _RAW.sub(lambda m: chr(_PRIVATE + m.group(0)[0]).encode("utf-8"), data)
    repaired = _REFERENCE.sub(_private_reference, repaired)
    repaired = _START_TAG.sub(_first_attributes, repaired)
    return None if repaired == data else repaired


def declaration_first(data: bytes) -> tuple[bytes, int] | None:
    """``data`` (UTF-8 or another ASCII-compatible encoding) with its XML declaration moved
    before the whitespace and comments that precede it, and the line the declaration was on;
    None when the declaration is first already, or there is none."""
    bom = _BOM if data.startswith(_BOM) else b""
    match = _LATE_DECLARATION.match(data, len(bom))
    if match is None:
        return None
    before, declaration = match.groups()
    line = 1 + before.count(b"\n") + (before.count(b"\r") if b"\n" not in before else 0)
    return bom + declaration + before + data[match.end() :], line


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

    return _ATTRIBUTE.sub(keep_first, tag)
