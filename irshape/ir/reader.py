"""Read an IR ``.xml`` (a whole ``<net>`` or bare ``<layer>`` fragments) with lxml, safely, streaming.

Safety. The parser never expands entities, never loads a DTD and never touches the network,
so a hostile file cannot make irshape read other files or the network, or blow up in memory. A
document with a ``<!DOCTYPE>`` is reported (IRS004) and not read further. libxml2's limits
stay on (``huge_tree=False``): nesting deeper than 256 elements, or a text node or attribute
value over 10 MB, is a syntax error (IRS001) with its line, like any other malformed XML.

Streaming. The file is fed to an lxml pull parser in chunks of 64 KiB. The parser reports
only the elements irshape reads (``<net>``, ``<layers>``, ``<layer>``, ``<data>``,
``<input>``, ``<output>``, ``<port>``, ``<edges>``, ``<edge>`` and the root); each becomes a
:class:`Layer`, :class:`Port` or :class:`Edge` of the document model as it closes (a port's
``<dim>`` children are read then). After each chunk the lxml tree is pruned to the chain of
open elements, so it never holds more than one chunk's worth of elements whatever the file
holds; memory grows with the graph (the layers, ports, dims and edges irshape must
remember), not with the size of the XML. Every layer, port and dim keeps its source line:
libxml2 stops counting an element's line at 65535, so from line 65000 on the chunks are fed
one start tag at a time and the reader counts the lines itself (see ``_Reader._line``).

Fragments. Several top-level ``<layer>`` elements (the spec examples) are read as if wrapped
in one root element, inserted after the XML declaration on the same line, in the file's
encoding (UTF-8, UTF-16 or any ASCII-compatible one), so line numbers stay those of the file.
"""

from __future__ import annotations

import gc
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from irshape import rules
from irshape.diagnostics import Diagnostic, Location, Rule
from irshape.ir.model import Document, DocumentKind, Edge, Layer, Port
from irshape.ir.values import parse_port_dim

_FRAGMENT_ROOT = "irshape-fragment"
_CHUNK = 1 << 16
_HEAD = 1 << 16  # bytes kept from the start of the file, to find a <!DOCTYPE>'s line
_BIG_LINE = 65000  # from about here, libxml2 no longer knows an element's line (see _line)
_REASON_MAX = 200  # characters of a parser message or of a value quoted in a finding
_DECLARATION = re.compile(r"\s*<\?xml[^>]*\?>")
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff", b"\xff\xfe", b"\xfe\xff")

# The elements the parser reports (besides the root); a <dim> is read when its port closes.
_EVENT_TAGS = ("net", "layers", "layer", "data", "input", "output", "port", "edges", "edge")

# The start tags whose lines irshape keeps (see _Reader._line), in the bytes of the file.
_LINED_STARTS = re.compile(rb"<(?:layer|data|port|edge)[\s/>]")

# Contexts of the open elements: what an element is, given where it is.
_IGNORED, _NET, _LAYERS, _EDGES, _LAYER, _DATA, _INPUT, _OUTPUT, _PORT, _EDGE = range(10)
_OTHER_ROOT, _OTHER_LAYERS = 10, 11  # an unknown root element, and its <layers> child
# By parent context: the context of a child element, from its tag.
_CHILDREN: tuple[dict[object, int], ...] = (
    {},  # _IGNORED
    {"layers": _LAYERS, "edges": _EDGES},  # _NET (only the first of each counts)
    {"layer": _LAYER},  # _LAYERS
    {"edge": _EDGE},  # _EDGES
    {"data": _DATA, "input": _INPUT, "output": _OUTPUT},  # _LAYER (only the first of each)
    {},  # _DATA
    {"port": _PORT},  # _INPUT
    {"port": _PORT},  # _OUTPUT
    {},  # _PORT: its <dim> children are read when it closes
    {},  # _EDGE
    {"layer": _LAYER, "layers": _OTHER_LAYERS},  # _OTHER_ROOT
    {"layer": _LAYER},  # _OTHER_LAYERS
)
# Children of which only the first counts, as lxml's ``find`` would pick it.
_FIRST_ONLY = frozenset({_LAYERS, _EDGES, _DATA, _INPUT, _OUTPUT})

_ALL_ATTRIBUTES = etree.XPath("@*")

# Share the many equal strings (types, ids, precisions, attribute values) among layers.
_intern = sys.intern


def _parser(
    tags: Iterable[str] | None = None, events: tuple[str, ...] = ("start", "end")
) -> etree.XMLPullParser:
    return etree.XMLPullParser(
        events=events,
        tag=None if tags is None else tuple(tags),
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
        collect_ids=False,
    )


@dataclass(slots=True)
class ReadResult:
    document: Document | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


Chunks = Callable[[], Iterator[bytes]]  # the file's bytes from its start, each time it is called


def read_file(path: str | Path) -> ReadResult:
    """Read the IR file at ``path``, streaming: the file is never held whole in memory."""
    source = Path(path)
    try:
        with source.open("rb") as stream:

            def chunks() -> Iterator[bytes]:
                stream.seek(0)
                while chunk := stream.read(_CHUNK):
                    yield chunk

            return _Reader(str(path), source).read(chunks)
    except OSError as exc:
        reason = _clean(str(exc.strerror or exc))
        return ReadResult(None, [rules.FILE_UNREADABLE(Location(path=str(path)), reason=reason)])


def read_bytes(data: bytes, path: str, *, source: Path | None = None) -> ReadResult:
    """Parse ``data`` (the text of ``path``) into a :class:`Document` and reading findings."""
    view = memoryview(data)

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(view), _CHUNK):
            yield bytes(view[start : start + _CHUNK])

    return _Reader(path, source).read(chunks)


class _Stop(Exception):
    """The document is not read further (a finding says why)."""


class _Reader:
    """Reads one document: a state machine over the parser's start and end events."""

    def __init__(self, path: str, source: Path | None) -> None:
        self.path = path
        self.source = source
        self.where = Location(path=path)

    # -- driving the parser ------------------------------------------------------------------

    def read(self, chunks: Chunks) -> ReadResult:
        # The model is many small objects without cycles: the cyclic garbage collector's passes
        # over them would only cost time (a fifth of the reading of a large IR).
        collecting = gc.isenabled()
        gc.disable()
        try:
            root = _root_tag(chunks)
            result = self._pass(chunks, root, fragments=False)
            if result is None:  # several top-level <layer> elements: read them wrapped in one root
                result = self._pass(chunks, _FRAGMENT_ROOT, fragments=True)
        finally:
            if collecting:
                gc.enable()
        assert result is not None
        return result

    def _pass(self, chunks: Chunks, root: str | None, *, fragments: bool) -> ReadResult | None:
        self._reset()
        tags = _EVENT_TAGS if root is None or root in _EVENT_TAGS else (*_EVENT_TAGS, root)
        parser = _parser(tags)
        head = b""
        fed_lines = 0  # newlines fed so far
        carry: bytes | None = None  # from line _BIG_LINE on: what is held back for the next chunk
        try:
            for chunk in chunks():
                if not head and fragments:
                    chunk = _open_wrapper(chunk)
                if len(head) < _HEAD:
                    head += chunk[: _HEAD - len(head)]
                if carry is None:
                    newlines = chunk.count(b"\n")
                    if fed_lines + newlines < _BIG_LINE or _codec(head) != "latin-1":
                        parser.feed(chunk)
                        self._consume(parser.read_events(), head)
                        fed_lines += newlines
                        self._prune()
                        continue
                    carry = b""
                # Feed up to the last "<", so that no tag is cut in two, one tag at a time.
                data = carry + chunk
                cut = data.rfind(b"<")
                body, carry = (data[:cut], data[cut:]) if cut > 0 else (data, b"")
                fed_lines = self._feed_by_tag(parser, body, fed_lines, head)
                self._prune()
            if carry:
                self._feed_by_tag(parser, carry, fed_lines, head)
            if fragments:
                parser.feed(f"</{_FRAGMENT_ROOT}>".encode(_codec(head)))
            parser.close()
            self._consume(parser.read_events(), head)
        except etree.XMLSyntaxError as exc:
            if not fragments and root == "layer" and _extra_content(exc):
                return None
            return ReadResult(None, self._syntax_error(exc, head))
        except _Stop:
            return ReadResult(None, self.diagnostics)
        return ReadResult(self._document(), self.diagnostics)

    def _feed_by_tag(self, parser: etree.XMLPullParser, body: bytes, fed_lines: int, head: bytes) -> int:
        """Feed ``body`` cut before each start tag the parser reports, noting the tag's line.

        A start tag's event comes while its piece is fed (a piece holds its whole tag: there is
        no ``<`` in a tag), so ``fed_line`` is then the line of that tag's ``<`` (see _line).
        """
        begin = 0
        line = fed_lines + 1
        for match in _LINED_STARTS.finditer(body):
            end = match.start()
            if end > begin:
                parser.feed(body[begin:end])
                self._consume(parser.read_events(), head)
            line += body.count(b"\n", begin, end)
            self.fed_line = line
            begin = end
        if begin < len(body):
            parser.feed(body[begin:])
            self._consume(parser.read_events(), head)
        return line - 1 + body.count(b"\n", begin)

    def _reset(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.document: Document | None = None
        self.root_tag = ""
        self.root_line = 1
        self.root_context = _IGNORED
        self.contexts: list[int] = []  # of the open elements the parser reported, root first
        self.elements: list[etree._Element] = []  # the same elements
        self.first_seen: set[int] = set()  # the net's and the open layer's first-only children
        self.layers: list[Layer] = []
        self.nested_layers: list[Layer] = []  # <layers><layer> under an unknown root
        self.edges: list[Edge] | None = None
        self.layer: Layer | None = None
        self.ports: list[Port] = []
        self.port: etree._Element | None = None  # the open <port> whose dims are being read
        self.texts: list[str | None] = []  # its <dim> texts and lines so far
        self.lines: list[int] = []
        self.shapes: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.fed_line = 0  # past line _BIG_LINE, the line being fed (see _line)
        self.port_line = 0

    def _syntax_error(self, exc: etree.XMLSyntaxError, head: bytes) -> list[Diagnostic]:
        line = exc.lineno if exc.lineno and exc.lineno > 0 else 1  # an empty file: line 1
        reason = _clean((exc.msg.split(", line ")[0] if exc.msg else "").strip()) or "empty document"
        found = [rules.XML_SYNTAX(self.where, line=line, reason=reason)]
        doctype = _doctype_line(head)
        if doctype is None:
            return found
        if any(word in reason.lower() for word in _DTD_WORDS):  # caused by the DOCTYPE: one finding
            return [_unsafe(self.where, doctype)]
        return [_unsafe(self.where, doctype), *found]

    # -- the events ----------------------------------------------------------------------------

    def _consume(self, events: Iterable[tuple[str, etree._Element]], head: bytes) -> None:
        contexts, elements, children = self.contexts, self.elements, _CHILDREN
        for event, element in events:
            if event == "start":
                if not elements:
                    context = self._root(element, head)
                elif element.getparent() is not elements[-1]:
                    context = _IGNORED  # under an element irshape does not read
                else:
                    context = children[contexts[-1]].get(element.tag, _IGNORED)
                    if context != _IGNORED:
                        context = self._start(context, element)
                contexts.append(context)
                elements.append(element)
                continue
            context = contexts.pop()
            elements.pop()
            if context == _PORT:
                self._port(element)
            elif context == _INPUT or context == _OUTPUT:  # noqa: SIM109 (faster than ``in``)
                self._ports(context)
            elif context == _LAYER:
                self._end_layer(contexts[-1] if contexts else None)

    def _prune(self) -> None:
        """Unlink every finished element from the lxml tree, once its end event has been read.

        Only the last child of an element can still be open, so the tree is cut down to the
        chain of last children from the root. An open port's finished dims are read first.
        """
        node = self.elements[0] if self.elements else None
        while node is not None:
            count = len(node)
            if count == 0:
                return
            if count > 1:
                if node is self.port:
                    self._take_dims(node, last=False)
                del node[: count - 1]
            node = node[-1]

    def _root(self, element: etree._Element, head: bytes) -> int:
        if element.getparent() is not None:  # not reported by the parser: take it from the tree
            root = element.getroottree().getroot()
            self.contexts.append(self._root(root, head))
            self.elements.append(root)
            if element.getparent() is not root:
                return _IGNORED
            context = _CHILDREN[self.root_context].get(element.tag, _IGNORED)
            return context if context == _IGNORED else self._start(context, element)
        tag = element.tag if isinstance(element.tag, str) else ""
        self.root_tag = tag
        line = self.root_line = element.sourceline or 1
        docinfo = element.getroottree().docinfo
        if docinfo.doctype or docinfo.internalDTD is not None or docinfo.externalDTD is not None:
            self.diagnostics = [_unsafe(self.where, _doctype_line(head) or 1)]
            raise _Stop
        kind = DocumentKind.NET if tag == "net" else DocumentKind.FRAGMENT
        self.document = Document(self.path, kind, line=line if tag == "net" else 1, source=self.source)
        if tag == "net":
            where = Location(self.path, line)
            self.document.version = _net_version(element.get("version"), where, self.diagnostics)
            self.root_context = _NET
        elif tag == "layer":
            self._start_layer(element)
            self.root_context = _LAYER
        elif tag == _FRAGMENT_ROOT:
            self.root_context = _LAYERS
        else:
            self.root_context = _OTHER_ROOT
        return self.root_context

    def _start(self, context: int, element: etree._Element) -> int:
        """The context of a new ``element`` that its tag says is ``context``; set up its reading."""
        if context in _FIRST_ONLY:
            if context in self.first_seen:
                return _IGNORED
            self.first_seen.add(context)
        if context == _PORT:
            self.port = element
            self.port_line = self._line(element)
            self.texts = []
            self.lines = []
        elif context == _LAYER:
            self._start_layer(element)
        elif context == _DATA:
            self._data(element)
        elif context == _EDGE:
            self._edge(element)
        elif context == _INPUT or context == _OUTPUT:  # noqa: SIM109
            self.ports = []
        elif context == _EDGES:
            self.edges = []
        return context

    def _line(self, element: etree._Element) -> int:
        """The line of an element the parser has just reported the start of.

        libxml2 keeps at most 65535 as an element's line (beyond, lxml guesses it from nearby
        text, and is often wrong). Past line ``_BIG_LINE`` the file is fed one start tag at a
        time (see _feed_by_tag), and ``fed_line`` is the line of the tag being read.
        """
        line = element.sourceline or 0
        return line if line < 65535 or not self.fed_line else self.fed_line

    # -- building the model ------------------------------------------------------------------

    def _start_layer(self, element: etree._Element) -> None:
        get = element.get
        self.layer = Layer(
            id=_intern_opt(get("id")),
            name=get("name"),
            type=_intern_opt(get("type")),
            version=_intern_opt(get("version")),
            line=self._line(element),
        )
        self.first_seen.difference_update((_DATA, _INPUT, _OUTPUT))

    def _end_layer(self, parent: int | None) -> None:
        layer, self.layer = self.layer, None
        if layer is not None:
            (self.nested_layers if parent == _OTHER_LAYERS else self.layers).append(layer)

    def _data(self, element: etree._Element) -> None:
        if self.layer is not None:
            self.layer.has_data = True
            self.layer.data = {_intern(k): _intern(v) for k, v in _attributes(element)}
            self.layer.data_line = self._line(element)

    def _ports(self, context: int) -> None:
        if self.layer is not None:
            if context == _INPUT:
                self.layer.inputs = self.ports
            else:
                self.layer.outputs = self.ports
        self.ports = []

    def _take_dims(self, port: etree._Element, *, last: bool) -> None:
        """Read the port's <dim> children (all, or all but the last, which may be open)."""
        dims = list(port.iterchildren("dim"))
        if not last and dims and dims[-1] is port[-1]:
            dims.pop()
        if dims and (dims[-1].sourceline or 0) >= 65535:  # lines only grow: the last is the largest
            lines = [_dim_line(d) for d in dims]
        else:
            lines = [d.sourceline or 0 for d in dims]
        self.texts += [d.text for d in dims]
        self.lines += lines

    def _port(self, element: etree._Element) -> None:
        self._take_dims(element, last=True)
        self.port = None
        get = element.get
        texts = self.texts
        # The common case, every <dim> plain digits that fit in an int64, in one test.
        joined = "".join(texts) if all(texts) else ""  # type: ignore[arg-type]
        if joined and len(joined) < 19 and joined.isdigit() and joined.isascii():
            dims: tuple[int, ...] | None = tuple(map(int, texts))  # type: ignore[arg-type]
        else:
            dims = self._dims(get("id"))
        if dims is not None:
            dims = self.shapes.setdefault(dims, dims)  # one tuple for the many equal shapes
        self.ports.append(
            Port(
                id=_intern(get("id", "")),
                index=len(self.ports),
                line=self.port_line,
                dims=dims,
                dim_lines=_compact(self.lines),
                precision=_intern_opt(get("precision")),
            )
        )

    def _dims(self, port_id: str | None) -> tuple[int, ...] | None:
        """Read each <dim> as OpenVINO does, reporting those it rejects or reads leniently."""
        dims: list[int] = []
        readable = True
        for text, line in zip(self.texts, self.lines, strict=True):
            value = parse_port_dim(text)
            stripped = (text or "").strip()
            if value is None:
                self._report(rules.DIM_SYNTAX, line, port_id, text=_clean(stripped))
                readable = False
            elif stripped != str(value):
                self._report(rules.DIM_LENIENT, line, port_id, text=_clean(stripped), value=value)
            dims.append(value if value is not None else -1)
        return tuple(dims) if readable else None

    def _edge(self, element: etree._Element) -> None:
        if self.edges is not None:
            get = element.get
            self.edges.append(
                Edge(
                    from_layer=_intern(get("from-layer", "")),
                    from_port=_intern(get("from-port", "")),
                    to_layer=_intern(get("to-layer", "")),
                    to_port=_intern(get("to-port", "")),
                    line=self._line(element),
                )
            )

    def _report(self, rule: Rule, line: int, port: str | None, **args: Any) -> None:
        where = self.layer.location(self.path) if self.layer is not None else self.where
        self.diagnostics.append(rule(where, line=line, port=_clean_opt(port), **args))

    def _document(self) -> Document | None:
        document = self.document
        if document is None:
            return None
        layers = self.layers
        if self.root_context == _OTHER_ROOT:
            layers = layers or self.nested_layers
            if not layers:
                where = Location(self.path, self.root_line)
                self.diagnostics.append(rules.NOT_IR(where, root=_clean(self.root_tag)))
                return None
        document.layers = layers
        if self.edges is not None:
            document.edges = self.edges
        return document


# -- helpers ---------------------------------------------------------------------------------


def _root_tag(chunks: Chunks) -> str | None:
    """The root element's tag, from as few chunks as it takes; None if there is no root."""
    parser = _parser(events=("start",))
    try:
        for chunk in chunks():
            parser.feed(chunk)
            for _, element in parser.read_events():
                return element.tag if isinstance(element.tag, str) else None
    except etree.XMLSyntaxError:  # the reading pass reports it; the root may have come before
        for _, element in parser.read_events():
            return element.tag if isinstance(element.tag, str) else None
    return None


def _net_version(text: str | None, where: Location, diagnostics: list[Diagnostic]) -> int | None:
    version = int(text) if text is not None and text.strip().isdigit() and len(text) < 10 else None
    if version not in (10, 11):
        diagnostics.append(rules.IR_VERSION(where, version=_clean_opt(text)))
    return version


def _unsafe(where: Location, line: int) -> Diagnostic:
    return rules.UNSAFE_XML(where, line=line, what="document type declaration (<!DOCTYPE>)")


def _dim_line(dim: etree._Element) -> int:
    """The line of a finished <dim>.

    Past line 65535, lxml takes an element's line from its first text, which holds the line of
    the ``<`` after it (texts under 300 bytes are not split); the <dim>'s own line is that line
    less the newlines of the text.
    """
    line: int = dim.sourceline or 0
    text: str | None = dim.text
    if line >= 65535 and text is not None:
        return line - text.count("\n")
    return line


def _compact(lines: list[int]) -> tuple[int, ...] | range:
    """Lines as a tuple, or as a range (a fraction of the memory) when they follow each other
    (one <dim> a line, as OpenVINO writes them)."""
    if lines and lines[-1] - lines[0] == len(lines) - 1:
        span = range(lines[0], lines[-1] + 1)
        if all(map(int.__eq__, lines, span)):
            return span
    return tuple(lines)


def _attributes(element: etree._Element) -> list[tuple[str, str]]:
    """The element's attributes, in linear time (lxml's ``items()`` is quadratic in their number)."""
    if len(element.keys()) <= 32:
        items: list[tuple[str, str]] = element.items()  # faster for the few of a real IR
        return items
    return [(value.attrname, str(value)) for value in _ALL_ATTRIBUTES(element)]


def _intern_opt(text: str | None) -> str | None:
    return None if text is None else _intern(text)


# libxml2 errors that the DOCTYPE itself causes (its entities, its internal subset).
_DTD_WORDS = ("entit", "subset", "dtd", "doctype")


def _clean(text: str) -> str:
    """A value quoted in a finding: printable, on one line, of bounded length."""
    text = "".join(c if c.isprintable() else _escape(c) for c in text[: _REASON_MAX + 1])
    return text if len(text) <= _REASON_MAX else text[:_REASON_MAX] + "..."


def _clean_opt(text: str | None) -> str | None:
    return None if text is None else _clean(text)


def _escape(char: str) -> str:
    return f"\\x{ord(char):02x}" if ord(char) < 256 else "?"


def _extra_content(exc: etree.XMLSyntaxError) -> bool:
    return "Extra content at the end of the document" in (exc.msg or "")


def _codec(head: bytes) -> str:
    """A codec that maps ASCII text to the file's bytes (for the fragment wrapper's tags)."""
    if head.startswith((b"\xff\xfe\x00\x00", b"\x3c\x00\x00\x00")):
        return "utf-32-le"
    if head.startswith((b"\x00\x00\xfe\xff", b"\x00\x00\x00\x3c")):
        return "utf-32-be"
    if head.startswith((b"\xff\xfe", b"\x3c\x00")):
        return "utf-16-le"
    if head.startswith((b"\xfe\xff", b"\x00\x3c")):
        return "utf-16-be"
    return "latin-1"  # UTF-8 and the other ASCII-compatible encodings


def _open_wrapper(chunk: bytes) -> bytes:
    """Insert the wrapper's start tag after the byte order mark and XML declaration, if any."""
    codec = _codec(chunk)
    bom = next((len(b) for b in _BOMS if chunk.startswith(b)), 0)
    match = _DECLARATION.match(chunk[bom : bom + 4096].decode(codec, errors="replace"))
    cut = bom + (len(match.group(0).encode(codec)) if match is not None else 0)
    return chunk[:cut] + f"<{_FRAGMENT_ROOT}>".encode(codec) + chunk[cut:]


def _doctype_line(head: bytes) -> int | None:
    """The line of the <!DOCTYPE> in the file's prolog, if it has one.

    A linear scan of the prolog (comments and processing instructions may come before it);
    a regular expression with nested repetition would backtrack for ever on some files.
    """
    codec = _codec(head)
    text = head.decode("utf-8" if codec == "latin-1" else codec, errors="replace")
    at = 1 if text.startswith("\ufeff") else 0
    while True:
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        if text.startswith("<!DOCTYPE", at):
            return text.count("\n", 0, at) + 1
        for opening, closing in (("<?", "?>"), ("<!--", "-->")):
            if text.startswith(opening, at):
                end = text.find(closing, at + len(opening))
                if end < 0:
                    return None
                at = end + len(closing)
                break
        else:
            return None
