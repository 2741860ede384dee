"""Whether an ``.xml`` file is an OpenVINO IR at all, or some other XML a repository holds.

A repository's ``pom.xml``, SVGs, ``.idea/*.xml`` and Pascal VOC annotations are ``.xml`` files
that a walk (or a pre-commit hook, which passes every staged ``.xml``) hands to irshape. Such a
file is skipped when it is not an IR and does not look like one: it reads as XML whose root is
not ``<net>`` and which holds no ``<layer>`` (IRS002), or the reader stopped early (a syntax
error, a ``<!DOCTYPE>``) in a file whose root element can be seen and that has no ``<net>`` or
``<layer>`` tag anywhere. A file that looks like an IR but is broken still fails, and so does
one whose root cannot be seen at all (empty, binary): nothing says it is something else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from irshape import rules
from irshape.diagnostics import Diagnostic

# Findings after which the reader gave up before it could tell what the document is.
_STOPPED = frozenset({rules.XML_SYNTAX.code, rules.UNSAFE_XML.code})
_IR_TAG = rb"<\s*(?:[\w.-]+:)?(?:net|layer)[\s/>]"
# The first element of a document: after the XML declaration, comments, processing
# instructions and a DOCTYPE (whose internal subset may hold markup of its own).
_ROOT = rb"<([A-Za-z_][\w.:-]*)"
_SKIPPED_MARKUP = rb"<\?.*?\?>|<!--.*?-->|<!DOCTYPE(?:[^\[>]|\[.*?\])*>"


def not_ir_reason(diagnostics: Sequence[Diagnostic], data: Callable[[], bytes]) -> str | None:
    """Why the file is no IR (to skip it), or None when it is one or may be one."""
    codes = {d.code for d in diagnostics}
    if rules.NOT_IR.code in codes:
        root = next(d for d in diagnostics if d.code == rules.NOT_IR.code).message
        match = re.search(r"\(root element (<[^>]*>)\)", root)
        return f"not an OpenVINO IR (root element {match.group(1) if match else 'other than <net>'})"
    if not codes & _STOPPED or codes - _STOPPED - {rules.INTERNAL_ERROR.code}:
        return None
    text = _ascii_view(data())
    if re.search(_IR_TAG, text) is not None:
        return None
    element = _root_element(text)
    if element is None:
        return None
    return f"not an OpenVINO IR (root element <{element}>, and no <net> or <layer> in it)"


def _ascii_view(data: bytes) -> bytes:
    """The file's bytes, UTF-16 made 8-bit, so that tags can be searched for."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace").encode("utf-8", errors="replace")
    return data


def _root_element(text: bytes) -> str | None:
    position = 0
    while True:
        skipped = re.compile(_SKIPPED_MARKUP, re.DOTALL).match(text, _skip_blank(text, position))
        if skipped is None:
            break
        position = skipped.end()
    match = re.compile(_ROOT).match(text, _skip_blank(text, position))
    return None if match is None else match.group(1).decode("ascii", errors="replace")


def _skip_blank(text: bytes, position: int) -> int:
    while position < len(text) and text[position : position + 1] in (b" ", b"\t", b"\r", b"\n", b"\xef"):
        if text[position : position + 3] == b"\xef\xbb\xbf":
            position += 3
            continue
        if text[position : position + 1] == b"\xef":
            break
        position += 1
    return position
