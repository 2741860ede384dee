"""A scanner of the regular layout of IR files: the document model read straight from the text,
without building an XML tree; every other file goes to the lxml reader (:mod:`irshape.ir.parse`).

Why. Building the model through lxml's element proxies (a proxy, a ``.text`` and a
``.sourceline`` for each ``<dim>``) cost two thirds of reading a large IR, and lxml's parse the
rest (4.1G instructions for the 20k-layer bench IR); this reads it in a quarter of that. The
files people check are written by ``ov.save_model``, whose layout is regular: one element a
line, attributes in double quotes, no comments, entities or namespaces.

What it accepts (a grammar of the whole document, so that every byte is accounted for):

- UTF-8 (a BOM allowed), an optional ``<?xml version="1.0" [encoding="UTF-8"] [standalone]?>``
  first, then ``<net ...>``, only blanks between, its first child ``<layers>``, right after it
  ``<edges>``;
- in ``<layers>``: ``<layer ...>`` elements, each holding in this order an optional
  ``<data .../>``, an optional ``<rt_info>`` of self-closing ``<attribute .../>`` elements, an
  optional ``<input>`` and an optional ``<output>`` of ``<port>`` elements; a port is
  self-closing or holds ``<dim>`` elements and ``<rt_info>`` blocks as above; a dim's text has
  no ``<``, ``>``, ``&``, line end or control character;
- in ``<edges>``: self-closing ``<edge .../>`` elements;
- after ``</edges>``, the rest of the ``<net>`` up to 1 MiB: its ``<rt_info>`` of elements with
  attributes, as ``ov.save_model`` writes it, and ``</net>`` read here; any other (a
  ``<pre-process>``, ``<meta_data>``, a comment...) read by the lxml reader
  (:meth:`Scanner._tail`);
- between elements only XML's blanks (space, tab, line feed, a carriage return before a line
  feed); each start tag on one line, its attributes ASCII names (no ``:``, no ``xmlns``),
  each once, with double-quoted values holding no ``<``, ``&`` or control character (which XML
  would expand, normalise or forbid); no U+FFFE or U+FFFF.

Why it is sound. Each piece is matched by a regular expression anchored where the previous one
ended, with possessive quantifiers (no backtracking, linear on any input), so an accepted file
is the concatenation of the pieces above: well-formed XML (a tail of another form than
``ov.save_model``'s checked by lxml itself) without any of what would make libxml2 read it
differently (entities, references, normalised values, namespaces, a DOCTYPE, encodings) or
OpenVINO's pugixml read it leniently (the repair path of :mod:`irshape.ir.repair`). The model
is built with the reader's own rules (the first of each child, the dims read by
:meth:`Reader._dims` with its findings, interned strings, shared ``<data>`` and ``<rt_info>``
dicts and dims tuples), and lines are counted from the text:
libxml2 ends a line at ``\n``, ``\r\n`` or a lone ``\r`` (refused here), and an element's
line is that of its ``<``, which a one-line start tag shares with its ``>``.

Work proportional to what is new. A layer whose text after its start tag repeats one read
before (a model's repeated blocks), or whose text after its ``<data>`` does (a Const, whose
``<data>`` differs in its offset), is built from that one's template without matching the text
again: the same text, in the same place of the grammar, matches the same way. The last such
text of the layer's type is tried first, in place, so a repeated block costs a start tag's
match, a comparison and the objects of the model. A layer with findings is no template (each
repetition reports them again, as the lxml reader does).

A layer outside this layout (a Loop, If or TensorIterator with its bodies, an entity, a value
in single quotes...) is read alone by the lxml reader, as the two-process read's second process
reads from a cut (:meth:`Reader.read_rest`: a fresh parser fed ``<net><layers>`` and the layer,
its lines offset), with the scanner's shared dicts, and the scanner reads on after it; where
that cannot be (a comment between layers, a layer past the text kept), the lxml reader reads the
rest of the file so. Anything else (fragments, other encodings, a lone carriage return, what
lxml fails on in such a reading...) is declined: :func:`scan_file` returns None the moment it
meets it, and the file is read by the lxml reader from its start, with the same result it
always gave. ``tests/test_scan_equivalence.py`` compares both readers on every fixture and on
mutants.

Memory stays flat: the file is read in blocks of 1 MiB cut after a line end, and the text kept
is the unread rest of the current block and at most one layer beyond it (a layer or line over
2 MiB is declined); the templates' text is bounded (4 MiB).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from functools import cache

from irshape.diagnostics import Location
from irshape.ir import regex_cache
from irshape.ir.model import (
    NO_RT_INFO,
    Document,
    DocumentKind,
    Edge,
    Layer,
    Port,
    RtAttribute,
    made_layer,
    made_port,
)
from irshape.ir.parse import CHUNK, Chunks, Reader, ReadResult, Rest, _net_version
from irshape.ir.stream import LinedParser

_BLOCK = 1 << 20  # bytes read at a time
_MAX_UNIT = 2 << 20  # the longest layer (or line) scanned: 8 MB of UTF-8 at most, below libxml2's 10 MB
_MAX_TAIL = 1 << 20  # what follows </edges>
_MAX_TAIL_DEPTH = 64  # elements open in the tail read without lxml (lxml allows 256)
_LOOKAHEAD = 1 << 12  # text kept past a position before telling what comes next there
_MAX_TEMPLATE_TEXT = 4096  # the longest layer text kept as a template
_TEMPLATES_TEXT = 4 << 20  # the text of all templates kept (memory stays flat)
_intern = sys.intern


class _Decline(Exception):
    """The file is outside the layout the scanner reads: the lxml reader reads it."""


class _Handover(Exception):
    """A layer outside the layout the scanner reads: the lxml reader reads on from it."""

    def __init__(self, position: int, line: int, reported: int) -> None:
        super().__init__()
        self.position = position  # where the layer starts (its blanks before) in the text kept
        self.line = line  # the line of that position
        self.reported = reported  # the findings made before it


# -- the grammar ------------------------------------------------------------------------------

# Every piece of the layers and edges is matched by these, so they also refuse the characters
# XML forbids (the C0 controls but tab, line feed and carriage return) there, without a pass
# over the file for them; the rest of the file is matched by the head's pattern or lxml.
_S = r"[ \t\r\n]*+"  # blanks between elements (a lone \r is refused for the whole file)
_NAME = r"[A-Za-z_][A-Za-z0-9_.\-]{0,200}+"
# A value: no "<" or "&" (XML's markup: declined), no control character (tab, line feed and
# carriage return, which XML normalises to spaces in a value, nor those XML forbids).
_VALUE = r'"[^"<&\x00-\x1f]*+"'
_V = r'([^"<&\x00-\x1f]*+)'  # a value, captured
_ATTRS = rf"(?:[ \t]++{_NAME}[ \t]*+=[ \t]*+{_VALUE})*+"
_RT_INFO = rf"<rt_info>(?:{_S}<attribute{_ATTRS}[ \t]*+/>)*+{_S}</rt_info>"
_DIM_TEXT = r"[^<>&\x00-\x08\x0a-\x1f]*+"  # no markup, line end or forbidden character
_DIM = rf"<dim>{_DIM_TEXT}</dim>"
_PORT_BODY = rf"(?:{_S}(?:{_DIM}|{_RT_INFO}))*+{_S}"
_PORT = rf"<port{_ATTRS}[ \t]*+(?:/>|>{_PORT_BODY}</port>)"
_PORTS = rf"(?:{_S}{_PORT})*+{_S}"


class _Patterns:
    """The compiled grammar (on first use: no regex is compiled at import on a check's path;
    compiled once per interpreter, see :mod:`irshape.ir.regex_cache`)."""

    head: re.Pattern[str]
    layer_tag: re.Pattern[str]
    next_line_tag: re.Pattern[str]
    data: re.Pattern[str]
    layer_rest: re.Pattern[str]
    port: re.Pattern[str]
    regular_dims: re.Pattern[str]
    dim: re.Pattern[str]
    layers_end: re.Pattern[str]
    edges_start: re.Pattern[str]
    edge: re.Pattern[str]
    edges_end: re.Pattern[str]
    edge_run: re.Pattern[str]
    attribute: re.Pattern[str]
    rt_attributes: re.Pattern[str]
    rt_info: re.Pattern[str]
    blanks: re.Pattern[str]
    tail_tag: re.Pattern[str]
    layer_nesting: re.Pattern[str]

    def __init__(self) -> None:
        for name, pattern in regex_cache.compiled(_grammar(), __spec__.cached, __spec__.origin).items():
            setattr(self, name, pattern)


def _grammar() -> dict[str, str]:
    """The text of each pattern, by name."""
    texts: dict[str, str] = {}
    texts["head"] = (
        "\ufeff?"
        r"(?:<\?xml[ \t\r\n]++version[ \t\r\n]*+=[ \t\r\n]*+(?:\"1\.0\"|'1\.0')"
        r"(?:[ \t\r\n]++encoding[ \t\r\n]*+=[ \t\r\n]*+(?:\"(?i:utf-8)\"|'(?i:utf-8)'))?+"
        r"(?:[ \t\r\n]++standalone[ \t\r\n]*+=[ \t\r\n]*+(?:\"(?:yes|no)\"|'(?:yes|no)'))?+"
        r"[ \t\r\n]*+\?>)?+"
        rf"{_S}<net({_ATTRS})[ \t]*+>{_S}<layers>"
    )
    # A layer's start tag as ov.save_model writes it (groups 1-4) or in any other form (5);
    # and the same on the line after the text before it (the usual layout: its line known
    # without counting line ends).
    tag = rf"<layer(?: id=\"{_V}\" name=\"{_V}\" type=\"{_V}\" version=\"{_V}\"|({_ATTRS}))[ \t]*+>"
    texts["layer_tag"] = _S + tag
    texts["next_line_tag"] = r"[ \t]*+\r?\n[ \t]*+" + tag  # (a \r is before a \n)
    # A layer's <data> (its attributes: 1), where it is first, as the reader reads it.
    texts["data"] = rf"{_S}<data({_ATTRS})[ \t]*+/>"
    # The rest of a layer, to its end tag: its <rt_info> (1), the spans of <input> (2) and
    # <output> (3). (A <data> after the first child is declined: it may be a second one.)
    texts["layer_rest"] = (
        rf"(?:{_S}({_RT_INFO}))?+"
        rf"(?:{_S}<input>({_PORTS})</input>)?+"
        rf"(?:{_S}<output>({_PORTS})</output>)?+"
        rf"{_S}</layer>"
    )
    # A port: id, precision and names as written (1-3) or any other attributes (4); its content (5).
    texts["port"] = (
        rf"<port(?: id=\"{_V}\" precision=\"{_V}\"(?: names=\"{_V}\")?+|({_ATTRS}))[ \t]*+"
        rf"(?:/>|>({_PORT_BODY})</port>)"
    )
    # A port's content of dims only, each on the line after the one before (the usual layout).
    texts["regular_dims"] = rf"(?:[ \t]*+\r?\n[ \t]*+{_DIM})*+[ \t\r\n]*+"
    texts["dim"] = rf"<dim>({_DIM_TEXT})</dim>"
    texts["layers_end"] = rf"{_S}</layers>"
    texts["edges_start"] = rf"{_S}<edges>"
    texts["edge"] = (
        rf"{_S}<edge(?: from-layer=\"{_V}\" from-port=\"{_V}\" to-layer=\"{_V}\" to-port=\"{_V}\""
        rf"|({_ATTRS}))[ \t]*+/>"
    )
    texts["edges_end"] = rf"{_S}</edges>"
    # Edges as ov.save_model writes them, each on the line after the one before.
    texts["edge_run"] = (
        rf"(?:[ \t]*+\r?\n[ \t]*+<edge from-layer={_VALUE} from-port={_VALUE} to-layer={_VALUE}"
        rf" to-port={_VALUE}[ \t]*+/>)++"
    )
    texts["attribute"] = rf"[ \t]++({_NAME})[ \t]*+=[ \t]*+\"{_V}\""
    texts["rt_attributes"] = rf"<attribute({_ATTRS})[ \t]*+/>"
    texts["rt_info"] = _RT_INFO
    texts["blanks"] = _S
    # A tag of the <net>'s tail (Scanner._regular_tail): end (1), name (2), attributes (3), "/" (4).
    texts["tail_tag"] = rf"{_S}<(/?)({_NAME})({_ATTRS})[ \t]*+(/?)>"
    # The start and end tags of layers (a start tag's "/>" in group 1), and what may hold text
    # that looks like one: where a layer the scanner declines ends, its bodies' layers in it.
    texts["layer_nesting"] = (
        r"<!--|<!\[CDATA\[|<\?|</layer[ \t\r\n]*>"
        r"|<layer(?:[ \t\r\n]++[^\s=/>]++[ \t\r\n]*+=[ \t\r\n]*+(?:\"[^\"]*+\"|'[^']*+'))*+"
        r"[ \t\r\n]*+(/?)>"
    )
    return texts


@cache
def _patterns() -> _Patterns:
    return _Patterns()


def ready() -> bool:
    """Does the scanner start for ~1M instructions: its patterns made in this process, or made
    from the programs :mod:`irshape.ir.regex_cache` keeps (or will keep: an interpreter's first
    start compiles them, ~34M instructions, once, as it compiles bytecode once)?"""
    return _patterns.cache_info().currsize > 0 or regex_cache.keeps(__spec__.cached)


# -- the text, block by block -----------------------------------------------------------------


def _blocks(read: Callable[[int], bytes]) -> Iterator[str]:
    """The file's text in blocks that end after a line end (or at the file's end), each checked
    for what the scanner refuses in any place: bytes that are not UTF-8, U+FFFE and U+FFFF, a
    carriage return not before a line feed (libxml2 ends a line there). The characters XML
    forbids are refused by the grammar's patterns."""
    carry = b""
    while True:
        raw = read(_BLOCK)
        if not raw:
            if carry:
                yield _text(carry)
            return
        raw = carry + raw
        cut = raw.rfind(b"\n") + 1
        if cut == 0:
            if len(raw) > _MAX_UNIT:
                raise _Decline
            carry = raw
            continue
        carry = raw[cut:]
        yield _text(raw[:cut])


def _text(raw: bytes) -> str:
    if b"\r" in raw and raw.count(b"\r") != raw.count(b"\r\n"):
        raise _Decline
    if raw.isascii():
        return raw.decode("ascii")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _Decline from None
    if "\ufffe" in text or "\uffff" in text:
        raise _Decline
    return text


# -- the scanner --------------------------------------------------------------------------------


class _RestReader(Reader):
    """The lxml reader reading on from a layer the scanner declines, with the scanner's shared
    dims tuples and attribute dicts (so that sharing is as in one reader's reading)."""

    def __init__(self, scanner: Scanner) -> None:
        super().__init__(scanner.path, scanner.source)
        self.scanner = scanner

    def _reset(self, stream: LinedParser) -> None:
        super()._reset(stream)
        self.shapes = self.scanner.shapes
        self.data_dicts = self.scanner.data_dicts


class Scanner(Reader):
    """Reads one document of the regular layout; raises :class:`_Decline` on anything else.

    A :class:`Reader` for its rules of reading dims (and their findings), shared with the lxml
    reader so that both give the same model and findings."""

    def __init__(
        self, path: str, source: str | None, rest_from: Callable[[int], Chunks] | None = None
    ) -> None:
        super().__init__(path, source)
        self.rest_from = rest_from  # the file's bytes from an offset on, for the lxml reader
        self.diagnostics = []
        self.layer = None
        self.shapes = {}
        self.dims_reported = False
        self.data_dicts = {}
        self.data_texts: dict[str, dict[str, str]] = {}  # <data>'s attributes as written -> its dict
        # a <data>'s attributes as written, its offset's value cut out (see _data_dict) -> a dict
        self.offset_free: dict[str, dict[str, str]] = {}
        self.contents: dict[str, tuple[str | None, ...]] = {}  # a port's usual content -> its dim texts
        self.templates: dict[str, _Template] = {}  # a layer's text after its <data> -> its model
        self.template_room = _TEMPLATES_TEXT
        # a layer's text after its start tag -> its model, <data> included
        self.whole_templates: dict[str, _WholeTemplate] = {}
        self.last_of_type: dict[str | None, str] = {}  # the last such text of a layer type
        self.patterns = _patterns()

    def scan(self, blocks: Iterator[str]) -> ReadResult:
        self.blocks = blocks
        self.buf = next(blocks, "")
        self.eof = False
        self.offset = 0  # the byte in the file where buf starts
        self.cursor = 0  # a position in buf whose line is ``self.line``
        self.line = 1
        head = self.patterns.head.match(self.buf)
        while head is None and len(self.buf) < _MAX_UNIT and self._more(0):  # a block of a few lines
            head = self.patterns.head.match(self.buf)
        if head is None:
            raise _Decline
        net = self._attributes(head.group(1))
        net_line = self._line_at(head.start(1))
        document = Document(self.path, DocumentKind.NET, line=net_line, source=self.source)
        document.version = _net_version(net.get("version"), Location(self.path, net_line), self.diagnostics)
        self.layers: list[Layer] = []
        try:
            document.layers = self._layers(head.end())
        except _Handover as cut:
            return self._hand_over(document, cut)
        document.edges = self._edges()
        self._tail(document)
        return ReadResult(document, self.diagnostics)

    def _hand_over(self, document: Document, cut: _Handover) -> ReadResult:
        """A layer the scanner declines (a Loop's body, a comment...): the lxml reader reads the
        file from there on, as the two-process read's second process does (a fresh parser fed
        ``<net><layers>`` and the rest, its lines offset), with the scanner's shared dicts; the
        file is declined whole if that reading fails (the lxml reader then reads it all and
        reports the error, or reads past it as OpenVINO's parser does)."""
        if self.rest_from is None:
            raise _Decline
        del self.diagnostics[cut.reported :]  # the declined layer's, which lxml reports again
        offset = self.offset + (
            cut.position if self.buf.isascii() else len(self.buf[: cut.position].encode())
        )
        rest = _RestReader(self).read_rest(self.rest_from(offset), cut.line - 1, "UTF-8")
        if rest.error is not None:
            raise _Decline
        document.layers = self.layers + rest.layers
        if rest.edges is not None:
            document.edges = rest.edges
        _take_the_net_parts(document, rest)
        return ReadResult(document, self.diagnostics + rest.diagnostics)

    # -- the text ---------------------------------------------------------------------------------

    def _line_at(self, position: int) -> int:
        """The line of ``position`` in the text kept (positions asked for never go back)."""
        self.line += self.buf.count("\n", self.cursor, position)
        self.cursor = position
        return self.line

    def _more(self, keep: int) -> bool:
        """Read the next block after the text from ``keep`` on, which is then at 0; False at the
        file's end (the text unchanged)."""
        block = next(self.blocks, None)
        if block is None:
            self.eof = True
            return False
        if len(self.buf) - keep > _MAX_UNIT:
            raise _Decline
        self._line_at(keep)
        self.offset += keep if self.buf.isascii() else len(self.buf[:keep].encode())
        self.buf = self.buf[keep:] + block
        self.cursor = 0
        return True

    def _short(self, position: int) -> bool:
        """Is the text kept too short past ``position`` to tell what comes next?"""
        return not self.eof and len(self.buf) - position < _LOOKAHEAD

    # -- layers -----------------------------------------------------------------------------------

    def _layers(self, position: int) -> list[Layer]:
        """The layers of <layers>. A layer whose text after its start tag is that of a layer
        read before (a model's repeated blocks: the same op, attributes and shapes) is that one
        again: the text is not matched again (the same text, in the same place in the grammar,
        matches the same way), and the layer is built from the template kept. The text of the
        last such layer of each type is tried first, in place (no search for the layer's end).
        The loop is written out: it runs once a layer."""
        layers = self.layers
        append = layers.append
        layer_tag, next_line_tag = self.patterns.layer_tag, self.patterns.next_line_tag
        whole, last_of_type = self.whole_templates, self.last_of_type
        intern = _intern
        while True:
            buf = self.buf
            start, start_line, start_cursor, reported = position, self.line, self.cursor, -1
            try:
                found = next_line_tag.match(buf, position) if start_cursor == position else None
                line = start_line + 1  # (the tag is on one line)
                if found is None:
                    found = layer_tag.match(buf, position)
                    line = -1
                if found is None:
                    if self._cut_layer(position, None):
                        position = 0
                        continue
                    return layers
                tag_end = found.end()
                layer_id, name, layer_type, version, others = found.groups()
                if layer_id is None:
                    attributes = self._attributes(others)
                    layer_id, name = attributes.get("id"), attributes.get("name")
                    layer_type, version = attributes.get("type"), attributes.get("version")
                rest = last_of_type.get(layer_type)
                if rest is None or not buf.startswith(rest, tag_end):
                    # A layer ends at the first </layer>: no value or text holds a "<", and a
                    # layer inside a layer (a body's) is declined.
                    end = buf.find("</layer>", tag_end)
                    if end < 0:
                        if self._cut_layer(position, found):
                            position = 0
                            continue
                        return layers
                    rest = buf[tag_end : end + 8]
                if layer_id is not None:
                    layer_id = intern(layer_id)
                if layer_type is not None:
                    layer_type = intern(layer_type)
                if version is not None:
                    version = intern(version)
                if line < 0:
                    line = self.line + buf.count("\n", self.cursor, tag_end)  # the tag is on one line
                position = tag_end + len(rest)
                template = whole.get(rest)
                if template is None:
                    reported = len(self.diagnostics)
                    layer = Layer(layer_id, name, layer_type, version, line)
                    append(self._layer_with_data(tag_end, position, rest, layer))
                    continue
            except _Decline:
                # This layer is not of the scanner's layout: the lxml reader reads it alone (a
                # Loop's or If's, with their bodies), or, where that cannot be, the rest of the file.
                line = start_line + self.buf.count("\n", start_cursor, start)
                del self.diagnostics[len(self.diagnostics) if reported < 0 else reported :]
                position = self._lxml_layer(start, line)
                if position < 0:
                    raise _Handover(start, line, len(self.diagnostics)) from None
                continue
            last_of_type[layer_type] = rest
            lines, data, data_at, rt_info, inputs, outputs = template
            self.line, self.cursor = line + lines, position
            append(
                made_layer(
                    layer_id,
                    name,
                    layer_type,
                    version,
                    line,
                    data,
                    None if data_at is None else line + data_at,
                    data_at is not None,
                    _ports_from(inputs, line) if inputs else [],
                    _ports_from(outputs, line) if outputs else [],
                    _rt_info_from(rt_info, line) if rt_info else NO_RT_INFO,
                )
            )

    def _layer_with_data(self, tag_end: int, end: int, whole_text: str, layer: Layer) -> Layer:
        """A layer whose text after the start tag is new: its <data> read apart, and the rest
        after it built from a template (a Const's <data> differs in its offset from others')
        or read part by part. When both its <data> and the rest were read before, its whole
        text is kept as a template too."""
        buf = self.buf
        line = layer.line
        data = self.patterns.data.match(buf, tag_end, end)
        known_data = True
        if data is None:
            rest_start, base = tag_end, line
        else:
            rest_start = data.end()
            base = layer.data_line = line + buf.count("\n", tag_end, rest_start)
            layer.has_data = True
            text = data.group(1)
            shared = self.data_texts.get(text)
            known_data = shared is not None
            layer.data = shared if shared is not None else self._data_dict(text)
        self.line, self.cursor = base, rest_start
        rest = buf[rest_start:end]
        template = self.templates.get(rest)
        if template is None:
            return self._new_layer(rest_start, end, rest, layer)
        lines, rt_info, inputs, outputs = template
        self.line, self.cursor = base + lines, end
        if rt_info:
            layer.rt_info = _rt_info_from(rt_info, base)
        if inputs:
            layer.inputs = _ports_from(inputs, base)
        if outputs:
            layer.outputs = _ports_from(outputs, base)
        if known_data and len(whole_text) <= self.template_room:
            self.template_room -= len(whole_text)
            shift = base - line
            self.whole_templates[whole_text] = (
                base + lines - line,
                layer.data if layer.has_data else None,
                None if layer.data_line is None else layer.data_line - line,
                _shifted_rt_info(rt_info, shift),
                _shifted(inputs, shift),
                _shifted(outputs, shift),
            )
        return layer

    def _lxml_layer(self, start: int, line: int) -> int:
        """Read the layer from ``start`` (on ``line``) with the lxml reader, alone, as the split
        read's second process reads the layers from a cut (a fresh parser fed ``<net><layers>``
        first, its lines offset): where it ends (the text kept past it), or -1 where it cannot be
        read so (no layer there, its end not in the text kept, a comment, CDATA or instruction
        in it, or lxml fails on it: the lxml reader then reads on from it, or the whole file)."""
        buf = self.buf
        at = self.patterns.blanks.match(buf, start).end()  # type: ignore[union-attr]
        if not buf.startswith("<layer", at):
            return -1
        depth, end = 0, -1
        for tag in self.patterns.layer_nesting.finditer(buf, at):
            text = tag.group(0)
            if end < 0 and tag.start() != at:
                return -1  # the layer's own start tag is not one this reads
            end = 0
            if text.startswith(("<!", "<?")):
                return -1  # a comment, CDATA or instruction could hold what looks like a tag
            if text.startswith("</"):
                depth -= 1
            elif not tag.group(1):
                depth += 1
            if depth == 0:
                end = tag.end()
                break
        if end <= 0:
            return -1
        payload = (buf[start:end] + "</layers></net>").encode()
        rest = _RestReader(self).read_rest(lambda: iter([payload]), line - 1, "UTF-8")
        if rest.error is not None or len(rest.layers) != 1 or rest.edges is not None:
            return -1
        self.layers.append(rest.layers[0])
        self.diagnostics += rest.diagnostics
        self.line, self.cursor = line + buf.count("\n", start, end), end
        return end

    def _cut_layer(self, position: int, tag: re.Match[str] | None) -> bool:
        """No layer read at ``position`` (``tag``: its start tag, whose end was not found): True
        if the text was only cut short (then read on, from 0), False at the end of <layers>;
        else the file is declined."""
        end = None if tag is not None else self.patterns.layers_end.match(self.buf, position)
        # A layer cut by the block's end (a layer's end tag is never in an attribute or text)
        if (self._short(position) or end is None) and self._more(position):
            return True
        if end is None:
            raise _Decline
        self.position = end.end()
        return False

    def _new_layer(self, start: int, end: int, rest: str, layer: Layer) -> Layer:
        """A layer unlike those before: its text after the start tag and <data> (``rest``, from
        ``start`` to ``end``) matched part by part, and kept as a template for its repetitions
        (unless it has findings, which each repetition reports again)."""
        found = self.patterns.layer_rest.match(self.buf, start, end)
        if found is None or found.end() != end:
            raise _Decline
        base = self.line
        self.layer = layer
        reported = len(self.diagnostics)
        rt_info, inputs, outputs = found.groups()
        rt_template: _RtTemplate = ()
        if rt_info is not None:
            rt_template = self._rt_template(found.start(1), found.end(1), self._line_at(found.start(1)), base)
            layer.rt_info = _rt_info_from(rt_template, base)
        input_templates = [] if inputs is None else self._port_templates(found.start(2), found.end(2), base)
        output_templates = [] if outputs is None else self._port_templates(found.start(3), found.end(3), base)
        if input_templates:
            layer.inputs = _ports_from(input_templates, base)
        if output_templates:
            layer.outputs = _ports_from(output_templates, base)
        self.layer = None
        if len(self.diagnostics) == reported and len(rest) <= min(_MAX_TEMPLATE_TEXT, self.template_room):
            self.template_room -= len(rest)
            self.templates[rest] = (rest.count("\n"), rt_template, input_templates, output_templates)
        return layer

    def _port_templates(self, start: int, end: int, base: int) -> list[_PortTemplate]:
        """The ports from ``start`` to ``end`` (an <input>'s or <output>'s content), as templates
        with lines from ``base``; their dims read by the reader's rules, with its findings."""
        templates: list[_PortTemplate] = []
        buf, contents, shapes = self.buf, self.contents, self.shapes
        regular_dims, dim = self.patterns.regular_dims, self.patterns.dim
        line, cursor = self.line, self.cursor
        for found in self.patterns.port.finditer(buf, start, end):
            port_id, precision, names, others, content = found.groups()
            at = found.start()
            line += buf.count("\n", cursor, at)
            cursor = at
            if port_id is None:
                attributes = self._attributes(others)
                port_id, precision = attributes.get("id"), attributes.get("precision")
                names = attributes.get("names")
            spread: tuple[int, ...] | None = None  # the dims' lines, unless on the lines after the port's
            rt_template: _RtTemplate = ()
            texts: tuple[str | None, ...] | None = () if content is None else contents.get(content)
            if texts is None and regular_dims.fullmatch(content) is not None:
                texts = contents[content] = tuple(t or None for t in dim.findall(content))
            elif texts is None:
                texts, dim_lines, rt_template = self._port_content(found.start(5), found.end(5), line, base)
                if not isinstance(dim_lines, range):
                    spread = tuple(n - base for n in dim_lines)
            dims = shapes.get(texts)
            if dims is None:
                lines = (
                    list(range(line + 1, line + 1 + len(texts)))
                    if spread is None
                    else [base + n for n in spread]
                )
                dims = self._dims(port_id, list(texts), lines, 0)
                if dims is not None and not self.dims_reported:
                    shapes[texts] = dims
                self.dims_reported = False
            templates.append(
                (
                    *(_intern(port_id or ""), len(templates), line - base, dims, len(texts), spread),
                    *(None if precision is None else _intern(precision), names or "", rt_template),
                )
            )
        self.line, self.cursor = line, cursor
        return templates

    def _port_content(
        self, start: int, end: int, line: int, base: int
    ) -> tuple[tuple[str | None, ...], tuple[int, ...] | range, _RtTemplate]:
        """A port's content in another layout (blank lines, <rt_info>) from ``start`` to ``end``,
        the port on ``line``: its dims' texts and lines (a range when they follow each other, as
        the lxml reader keeps them) and its first <rt_info>'s template (lines from ``base``)."""
        buf = self.buf
        texts: list[str | None] = []
        lines: list[int] = []
        for dim in self.patterns.dim.finditer(buf, start, end):
            texts.append(dim.group(1) or None)
            lines.append(line + buf.count("\n", start, dim.start()))
        rt_template: _RtTemplate = ()
        for number, rt_info in enumerate(self.patterns.rt_info.finditer(buf, start, end)):
            first_line = line + buf.count("\n", start, rt_info.start())
            template = self._rt_template(rt_info.start(), rt_info.end(), first_line, base)
            if number == 0:  # the first, as OpenVINO reads it (each checked for repeated attributes)
                rt_template = template
        if lines == list(range(line + 1, line + 1 + len(lines))):
            return tuple(texts), range(line + 1, line + 1 + len(lines)), rt_template
        return tuple(texts), tuple(lines), rt_template

    def _rt_template(self, start: int, end: int, first_line: int, base: int) -> _RtTemplate:
        """The <attribute>s of the <rt_info> from ``start`` (on ``first_line``) to ``end``: their
        attributes (dicts shared as <data>'s are, each checked for a repeated attribute) and
        their lines from ``base``."""
        buf, data_texts = self.buf, self.data_texts
        found: list[tuple[dict[str, str], int]] = []
        for attribute in self.patterns.rt_attributes.finditer(buf, start, end):
            text = attribute.group(1)
            attributes = data_texts.get(text)
            if attributes is None:
                attributes = self._data_dict(text)
            found.append((attributes, first_line + buf.count("\n", start, attribute.start()) - base))
        return tuple(found)

    # -- edges and the rest -------------------------------------------------------------------------

    def _edges(self) -> list[Edge]:
        edges: list[Edge] = []
        append = edges.append
        edge_pattern = self.patterns.edge
        position = self.position
        if self._short(position) and self._more(position):
            position = 0
        start = self.patterns.edges_start.match(self.buf, position)
        if start is None:
            raise _Decline
        position = start.end()
        run_pattern = self.patterns.edge_run
        while True:
            buf = self.buf
            run = run_pattern.match(buf, position)
            if run is not None:  # edges as ov.save_model writes them, one a line: read at once
                first = self._line_at(position) + 1
                # Each edge of the run has exactly four values, in double quotes, and no value
                # holds one: its fields are every 8th of the run's pieces between quotes.
                pieces = buf[position : run.end()].split('"')
                count = len(pieces) // 8
                edges += map(  # (maps, not a comprehension: no bytecode of this loop an edge)
                    Edge,
                    map(_intern, pieces[1::8]),
                    map(_intern, pieces[3::8]),
                    map(_intern, pieces[5::8]),
                    map(_intern, pieces[7::8]),
                    range(first, first + count),
                )
                self.line = first + count - 1
                position = self.cursor = run.end()
                continue
            found = edge_pattern.match(buf, position)
            if found is None:
                # An edge is on one line, and a block ends with a line: only blanks can be cut.
                blank_to_end = self.patterns.blanks.match(buf, position).end() == len(buf)  # type: ignore[union-attr]
                if (self._short(position) or blank_to_end) and self._more(position):
                    position = 0
                    continue
                end = self.patterns.edges_end.match(self.buf, position)
                if end is None:
                    raise _Decline
                self.position = end.end()
                return edges
            position = found.end()
            from_layer, from_port, to_layer, to_port, others = found.groups()
            if from_layer is None:
                attributes = self._attributes(others)
                from_layer, from_port = attributes.get("from-layer", ""), attributes.get("from-port", "")
                to_layer, to_port = attributes.get("to-layer", ""), attributes.get("to-port", "")
            append(
                Edge(
                    _intern(from_layer),
                    _intern(from_port),
                    _intern(to_layer),
                    _intern(to_port),
                    self._line_at(position),  # the tag's line: it ends on the line it starts
                )
            )

    def _tail(self, document: Document) -> None:
        """What follows </edges> to the file's end (the <net>'s <rt_info>, <pre-process>,
        <meta_data>..., ``</net>`` and what XML allows after it): read here where it is of
        ``ov.save_model``'s form (:meth:`_regular_tail`), otherwise by the lxml reader as
        the two-process read's second process reads the end of a file (a fresh parser fed
        ``<net><layers>``, then ``</layers><edges></edges>`` and the tail, its lines offset):
        whatever it reads there is the Document's as in the lxml reader's reading, its findings
        too; the file is declined where it fails."""
        start = self.position
        parts = [self.buf[start:]]
        size = len(parts[0])
        for block in self.blocks:
            parts.append(block)
            size += len(block)
            if size > _MAX_TAIL:
                raise _Decline
        tail = "".join(parts)
        has_rt_info = self._regular_tail(tail)
        if has_rt_info is not None:  # as the lxml reader reads it: no finding, no other part
            document.has_rt_info = has_rt_info
            return
        line = self.line + self.buf.count("\n", self.cursor, start)
        payload = ("</layers><edges></edges>" + tail).encode()
        rest = _RestReader(self).read_rest(lambda: iter([payload]), line - 1, "UTF-8")
        if rest.error is not None or rest.layers or rest.edges is not None:
            raise _Decline
        _take_the_net_parts(document, rest)
        self.diagnostics += rest.diagnostics

    def _regular_tail(self, tail: str) -> bool | None:
        """Whether the <net> has an <rt_info>, for a tail of the form ``ov.save_model`` writes:
        blanks, at most one ``<rt_info>`` of elements with attributes (nested, no text),
        ``</net>``, blanks. None for any other tail, which the lxml reader reads.

        Sound as the rest of the grammar is: names, values and blanks matched by its patterns,
        each end tag that of the element open, each start tag's attributes once and no
        namespace, so the tail is well-formed XML that the lxml reader reads as an <rt_info>
        noted and nothing else."""
        tag = self.patterns.tail_tag
        open_names = ["net"]
        has_rt_info = False
        position = 0
        while open_names:
            found = tag.match(tail, position)
            if found is None:
                return None
            closing, name, attributes, empty = found.groups()
            position = found.end()
            if closing:
                if attributes or empty or name != open_names.pop():
                    return None
                continue
            if len(open_names) == 1:  # a child of the <net>: its one <rt_info>, without attributes
                if name != "rt_info" or has_rt_info or attributes:
                    return None
                has_rt_info = True
            if self._plain_attributes(attributes) is None:
                return None
            if len(open_names) > _MAX_TAIL_DEPTH:
                return None
            if not empty:
                open_names.append(name)
        ends = self.patterns.blanks.match(tail, position)
        return has_rt_info if ends is not None and ends.end() == len(tail) else None

    # -- attributes -----------------------------------------------------------------------------

    def _attributes(self, text: str) -> dict[str, str]:
        """The attributes of a start tag as written (already matched by the grammar); a repeated
        one, or a namespace declaration, is declined."""
        attributes = self._plain_attributes(text)
        if attributes is None:
            raise _Decline
        return attributes

    def _plain_attributes(self, text: str) -> dict[str, str] | None:
        """The attributes of a start tag as written, or None where one is repeated or declares a
        namespace (which the scanner leaves to lxml)."""
        pairs = self.patterns.attribute.findall(text)
        attributes = dict(pairs)
        if len(attributes) != len(pairs) or "xmlns" in attributes:
            return None
        return attributes

    def _data_dict(self, text: str) -> dict[str, str]:
        """<data>'s attributes as the reader's shared dict (one per list of attributes), kept
        by their text.

        A Const's <data> differs from the Consts' before it in its ``offset`` alone (the
        usual weights): where one read before differs from ``text`` only in that value, this
        is its dict with the offset replaced, without reading the attributes again. (Sound:
        the text before the value and after it are the same, and the value holds no quote,
        so the attributes read the same way, in the same order, but the offset's value.)"""
        cut = _offset_value(text)
        if cut is not None:
            start, end = cut
            without = text[:start] + "\x00" + text[end:]  # (no \x00 in a text: the grammar's)
            like = self.offset_free.get(without)
            if like is not None:
                made = like.copy()
                made["offset"] = _intern(text[start:end])
                shared = self.data_texts[text] = self.data_dicts.setdefault(tuple(made.items()), made)
                return shared
        items = tuple(self._attributes(text).items())
        data = self.data_dicts.get(items)
        if data is None:
            data = self.data_dicts[items] = {_intern(k): _intern(v) for k, v in items}
        self.data_texts[text] = data
        if cut is not None and data.get("offset") == text[cut[0] : cut[1]]:
            self.offset_free[without] = data
        return data


def _offset_value(text: str) -> tuple[int, int] | None:
    """Where the value of an ``offset="..."`` attribute is in a start tag's attributes (as the
    grammar matched them): its start and end, or None."""
    at = text.find(' offset="')
    if at < 0 or text.count('"', 0, at) % 2:  # (an odd count: inside a value)
        return None
    start = at + 9
    return start, text.find('"', start)


def _take_the_net_parts(document: Document, rest: Rest) -> None:
    """What the lxml reader read of the <net> besides layers and edges, after the point it read
    from (each field of a :class:`Rest` the Document has too, where the reading found it)."""
    for name in rest.field_names():
        value = getattr(rest, name)
        if name not in _REST_READING and value is not None and hasattr(document, name):
            setattr(document, name, value)


_REST_READING = frozenset({"layers", "edges", "diagnostics", "error"})


# An <rt_info> as its layer's template holds it: each <attribute>'s attributes and line (from the
# template's base).
_RtTemplate = tuple[tuple[dict[str, str], int], ...]
# A port as its layer's template holds it: id, index, line (from the template's base), dims,
# their count and (None: on the lines after the port's) their lines, precision, names, rt_info.
_PortTemplate = tuple[
    str, int, int, "tuple[int, ...] | None", int, "tuple[int, ...] | None", "str | None", str, "_RtTemplate"
]
# A layer's template: the line ends of its text after <data>, its <rt_info>, its input and output
# ports (their lines from that text's first).
_Template = tuple[int, "_RtTemplate", list[_PortTemplate], list[_PortTemplate]]
# A layer's template from its start tag: the line ends of its text, <data>'s dict and line (from
# the layer's; None: no <data>), its <rt_info> and ports (their lines from the layer's).
_WholeTemplate = tuple[
    int, "dict[str, str] | None", "int | None", "_RtTemplate", list[_PortTemplate], list[_PortTemplate]
]


def _shifted(templates: list[_PortTemplate], shift: int) -> list[_PortTemplate]:
    """Port templates with their lines ``shift`` further from where they count from."""
    return [
        (
            *(port_id, index, at + shift, dims, count),
            None if spread is None else tuple(n + shift for n in spread),
            *(precision, names, _shifted_rt_info(rt_info, shift)),
        )
        for port_id, index, at, dims, count, spread, precision, names, rt_info in templates
    ]


def _shifted_rt_info(template: _RtTemplate, shift: int) -> _RtTemplate:
    return tuple((attributes, at + shift) for attributes, at in template)


def _rt_info_from(template: _RtTemplate, line: int) -> tuple[RtAttribute, ...]:
    """The <attribute>s of an <rt_info> from its template, their lines from ``line``."""
    attributes: list[RtAttribute] = []
    for found, at in template:  # (a loop, not a comprehension: no function made a call)
        attributes.append(RtAttribute(found, line + at))
    return tuple(attributes)


def _lines_from(spread: tuple[int, ...], line: int) -> tuple[int, ...]:
    """Lines from ``line`` (apart from _ports_from, whose ``line`` a comprehension there would
    make a cell of at every call)."""
    return tuple([line + n for n in spread])


def _ports_from(templates: list[_PortTemplate], line: int) -> list[Port]:
    """The ports of a layer from its template's, their lines from ``line``. (A loop, not a
    comprehension, which would make a function and a cell at each call: it runs twice a layer.)"""
    ports: list[Port] = []
    append = ports.append
    for port_id, index, at, dims, count, spread, precision, names, rt_info in templates:
        append(
            made_port(
                port_id,
                index,
                line + at,
                dims,
                count if spread is None else _lines_from(spread, line),
                precision,
                names,
                _rt_info_from(rt_info, line) if rt_info else NO_RT_INFO,
            )
        )
    return ports


def scan_file(path: str | os.PathLike[str]) -> ReadResult | None:
    """The file read by the scanner, or None where it declines (or cannot open the file: the
    lxml reader reports that)."""
    source = os.fspath(path)

    def rest_from(offset: int) -> Chunks:
        def chunks() -> Iterator[bytes]:
            with open(source, "rb") as stream:
                stream.seek(offset)
                while chunk := stream.read(CHUNK):
                    yield chunk

        return chunks

    try:
        with open(source, "rb") as stream:
            return _scan(Scanner(str(path), source, rest_from), _blocks(stream.read))
    except OSError:
        return None


def scan_bytes(data: bytes, path: str, *, source: str | None = None) -> ReadResult | None:
    """``data`` (the text of ``path``) read by the scanner, or None where it declines."""
    at = 0

    def read(size: int) -> bytes:
        nonlocal at
        chunk = data[at : at + size]
        at += len(chunk)
        return chunk

    def rest_from(offset: int) -> Chunks:
        return lambda: (data[start : start + CHUNK] for start in range(offset, len(data), CHUNK))

    return _scan(Scanner(path, source, rest_from), _blocks(read))


def _scan(scanner: Scanner, blocks: Iterator[str]) -> ReadResult | None:
    try:
        return scanner.scan(blocks)
    except _Decline:
        return None
