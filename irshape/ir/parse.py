"""The streaming IR parser behind :mod:`irshape.ir.reader`: a whole ``<net>`` or bare ``<layer>``
fragments, read with lxml, safely.

Safety. The parser (:mod:`irshape.ir.stream`) never expands entities, loads a DTD or touches
the network. A document with a ``<!DOCTYPE>`` is reported (IRS004) and not read further.

Streaming. The file is fed to lxml's pull parser in chunks of 64 KiB. The parser reports the
end of each ``<layer>`` and ``<edge>`` (and the start of a few elements, to know where it is);
a layer is read whole when it ends, its ``<data>``, ports and ``<dim>``s in one pass, and
becomes a :class:`Layer` of the document model. After each chunk the lxml tree is pruned to
the chain of open elements (and, in the open layer, the children it will read), so memory
grows with the graph irshape must remember, not with the size of the XML. Every layer, data,
port, dim and edge keeps its exact source line, past libxml2's 65535 too (see
:class:`~irshape.ir.stream.LinedParser`).

Fragments. Several top-level ``<layer>`` elements (the spec examples) are read as if wrapped
in one root element, inserted after the XML declaration on the same line, in the file's
encoding (UTF-8, UTF-16 or any ASCII-compatible one), so line numbers stay those of the file.
"""

from __future__ import annotations

import gc
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from irshape import rules
from irshape.diagnostics import Diagnostic, Location, Rule
from irshape.ir.model import (
    BackEdge,
    Body,
    Document,
    DocumentKind,
    Edge,
    Layer,
    Port,
    PortMapEntry,
    RtAttribute,
    Subgraphs,
)
from irshape.ir.stream import LinedParser, pull_parser
from irshape.ir.values import parse_port_dim, parse_uint
from irshape.record import Record

if TYPE_CHECKING:  # (a Protocol class costs ~0.13M instructions to make: for the type checker only)
    from lxml import etree  # imported where a file is parsed: a file the scanner reads needs none

    from irshape.ir.legacy import MetaDataEntry, PreProcess
    from irshape.ir.repair import Outside

    class Join(Protocol):
        """A second process reading the file from byte ``cut`` (a ``<layer`` start) on."""

        cut: int
        encoding: str  # the encoding it reads in

        def take(self) -> Rest | None:
            """Its reading (None if it failed); the caller continues alone on None."""

        def cancel(self) -> None:
            """Stop it, if it still runs."""


_FRAGMENT_ROOT = "irshape-fragment"
CHUNK = 1 << 16
_HEAD = 1 << 16  # bytes kept from the start of the file, to find a <!DOCTYPE>'s line
_REASON_MAX = 200  # characters of a parser message or of a value quoted in a finding
_DECLARATION = r"\s*<\?xml[^>]*\?>"  # compiled by re on first use: fragments only
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff", b"\xff\xfe", b"\xfe\xff")

# The elements the parser reports. The end of a <layer> or <edge> is where it is read; the
# start of a <layer> says whether it is one of the document's (and so which children of it to
# keep while it is open); <layers> and <edges> end the lists a restart may reopen; the end of
# the <net>'s <pre-process> and <meta_data> is where they are read, and its <rt_info> is noted.
_EVENT_TAGS = ("layer", "edge", "layers", "edges", "pre-process", "meta_data", "rt_info")
_NET_PARTS_READ = frozenset({"pre-process", "meta_data"})  # read when they end
# The children of a layer that irshape reads (the first of each tag, as OpenVINO takes them).
_LAYER_PARTS = frozenset({"data", "input", "output", "rt_info"})
# ...and of a Loop, If or TensorIterator: its bodies, port maps and back edges, kept whole.
_BODY_TAGS = frozenset({"body", "then_body", "else_body"})
_PORT_MAP_TAGS = frozenset({"port_map", "then_port_map", "else_port_map"})
_SUBGRAPH_PARTS = _BODY_TAGS | _PORT_MAP_TAGS | {"back_edges"}
_OPEN_LAYER_PARTS = _LAYER_PARTS | _SUBGRAPH_PARTS


@cache
def _all_attributes() -> Any:
    """An element's attributes as lxml lists them (compiled on first use, with lxml itself)."""
    from lxml import etree

    return etree.XPath("@*")


# Share the many equal strings (types, ids, precisions, attribute values) among layers.
_intern = sys.intern


class ReadResult(Record):
    __slots__ = ("diagnostics", "document")
    document: Document | None
    diagnostics: list[Diagnostic]

    def __init__(self, document: Document | None, diagnostics: list[Diagnostic] | None = None) -> None:
        self.document = document
        self.diagnostics = [] if diagnostics is None else diagnostics


Chunks = Callable[[], Iterator[bytes]]  # the file's bytes from its start, each time it is called


class Rest(Record):
    """What a second process read of a <net>, from a layer on (see :mod:`irshape.ir.split`)."""

    __slots__ = ("diagnostics", "edges", "error", "has_rt_info", "layers", "meta_data", "pre_process")
    layers: list[Layer]
    edges: list[Edge] | None
    diagnostics: list[Diagnostic]
    error: tuple[int, str] | None  # an XML syntax error's line and reason
    # the parts of the <net> after the cut: its <pre-process>, <meta_data>, whether an <rt_info>
    pre_process: PreProcess | None
    meta_data: tuple[MetaDataEntry, ...] | None
    has_rt_info: bool

    def __init__(
        self,
        layers: list[Layer],
        edges: list[Edge] | None,
        diagnostics: list[Diagnostic],
        error: tuple[int, str] | None,
        pre_process: PreProcess | None = None,
        meta_data: tuple[MetaDataEntry, ...] | None = None,
        has_rt_info: bool = False,
    ) -> None:
        self.layers = layers
        self.edges = edges
        self.diagnostics = diagnostics
        self.error = error
        self.pre_process = pre_process
        self.meta_data = meta_data
        self.has_rt_info = has_rt_info


class _Stop(Exception):
    """The document is not read further (a finding says why)."""


class Reader:
    """Reads one document from the parser's events, chunk by chunk."""

    document: Document | None
    edges: list[Edge] | None

    def __init__(self, path: str, source: str | None, join: Join | None = None) -> None:
        self.path = path
        self.source = source
        self.where = Location(path=path)
        self.join = join
        self.repaired = False  # reading a repaired copy (irshape.ir.repair): values are restored
        self.deep = False  # reading with libxml2's huge limits (see _read_deep)
        self.net_assumed = False  # a pass that takes the root for <net> (see _net_pass)

    # -- driving the parser ------------------------------------------------------------------

    def read(self, chunks: Chunks) -> ReadResult:
        with _gc_paused():
            result = self._read(chunks)
            if _too_deep(result):
                result = self._read_deep(chunks, result)
            if result.document is None and [d.code for d in result.diagnostics] == [rules.XML_SYNTAX.code]:
                result = self._recover(chunks, result)
        return result

    def _read_deep(self, chunks: Chunks, failed: ReadResult) -> ReadResult:
        """A file nested deeper than libxml2's 256 levels: bodies in bodies (OpenVINO reads an
        If nested 192 deep, 580 XML levels). Read again with libxml2's huge limits, 2048 levels;
        deeper still is reported as where irshape's reading stops."""
        if self.join is not None:
            self.join.cancel()
            self.join = None
        self.deep = True
        limit = sys.getrecursionlimit()  # a body's layers are read a few Python frames deeper
        sys.setrecursionlimit(max(limit, 1000 + 8 * MAX_BODY_NESTING))
        try:
            result = self._read(chunks)
        finally:
            sys.setrecursionlimit(limit)
        if _too_deep(result):
            (finding,) = result.diagnostics
            result.diagnostics = [_deeper_than_read(finding, b"".join(chunks()))]
        return result

    def _read(self, chunks: Chunks) -> ReadResult:
        result = self._net_pass(chunks) if self.join is None else None
        if result is None:  # another root: the pass's tags need it, found by a parser of its own
            root = _root_tag(chunks)
            result = self._pass(chunks, root, fragments=False)
        if result is None:  # several top-level <layer> elements: read them wrapped in one root
            result = self._pass(chunks, _FRAGMENT_ROOT, fragments=True)
        assert result is not None
        return result

    def _net_pass(self, chunks: Chunks) -> ReadResult | None:
        """The pass of a document whose root is <net>, as an IR's is, without a parser made
        first to find the root (~0.5M instructions, a small file's reading a fifth more); None
        when the root is not a <net> reported by the first event (or no root was read: a file
        that breaks before it), which is then read as any other root is. Its events are then
        the same as a pass that knew the root, so is all it finds."""
        self.net_assumed = True
        try:
            result = self._pass(chunks, "net", fragments=False)
        finally:
            self.net_assumed = False
        return result if self.root_tag == "net" else None  # (set when a <net> root is bound)

    def _recover(self, chunks: Chunks, failed: ReadResult) -> ReadResult:
        """A file pugixml reads though libxml2 does not (a repeated attribute, a control
        character): the defect is reported, and the layers are read as OpenVINO reads them."""
        from irshape.ir.repair import outside_the_root, repair  # the failure path only

        data = b"".join(chunks())  # the failure path only: the file is read whole once
        latin = _codec(data[:_HEAD]) == "latin-1"
        moved = outside_the_root(data) if latin else None
        if moved is not None:
            return self._outside_the_root(moved, failed)
        repaired = repair(data) if latin else None
        if repaired is None:
            return failed
        self._alone()
        self.repaired = True
        result = self._read(_chunks_of(repaired))
        if result.document is None:
            return failed
        (defect,) = failed.diagnostics
        note = "; OpenVINO's parser (pugixml) reads past this, and irshape checks the layers as it reads them"
        result.diagnostics.insert(0, defect.replace(message=defect.message + note))
        return result

    def _outside_the_root(self, moved: Outside, failed: ReadResult) -> ReadResult:
        """What pugixml reads outside the root element and libxml2 does not (a late XML
        declaration, text): the file is read as pugixml reads it (lines unchanged), and a
        warning says what XML wants."""
        self._alone()
        result = self._read(_chunks_of(moved.data))
        if result.document is None and [d.code for d in result.diagnostics] == [rules.XML_SYNTAX.code]:
            result = self._recover(_chunks_of(moved.data), result)  # another defect pugixml reads past
        if result.document is None:
            return failed
        warning = rules.XML_SYNTAX(self.where, line=moved.line, reason=moved.reason, severity=rules.WARNING)
        result.diagnostics.insert(0, warning)
        return result

    def _alone(self) -> None:
        """Read on without the second process (a copy of the file is read, not the file)."""
        if self.join is not None:
            self.join.cancel()
            self.join = None

    def _pass(self, chunks: Chunks, root: str | None, *, fragments: bool) -> ReadResult | None:
        from lxml.etree import XMLSyntaxError

        head = b""
        for chunk in chunks():
            head = chunk[:_HEAD]
            break
        restartable = _codec(head) == "latin-1"
        self._reset(LinedParser(_tags(root), ("start", "end"), restartable=restartable, deep=self.deep))
        try:
            fed = 0
            for chunk in chunks():
                if fed == 0 and fragments:
                    chunk = _open_wrapper(chunk)
                join = self.join
                if join is not None and not fragments and fed + len(chunk) >= join.cut:
                    self.join = None  # tried once: taken, or the reader reads on alone
                    self._feed(chunk[: join.cut - fed], head)
                    joined = self._join(join)
                    if joined is not None:
                        return joined
                    join.cancel()
                    chunk = chunk[join.cut - fed :]
                    fed = join.cut
                self._feed(chunk, head)
                fed += len(chunk)
            if fragments:
                self._take(self.stream.feed(f"</{_FRAGMENT_ROOT}>".encode(_codec(head))), head)
            self._take(self.stream.close(), head)
        except XMLSyntaxError as exc:
            if not fragments and root == "layer" and _extra_content(exc):
                return None
            return ReadResult(None, self._syntax_error(exc, head))
        except _Stop:
            return ReadResult(None, self.diagnostics)
        finally:
            if self.join is not None:
                self.join.cancel()
        return ReadResult(self._document(), self.diagnostics)

    # -- a second process (irshape.ir.split) ---------------------------------------------------

    def read_rest(self, chunks: Chunks, line_ends: int, encoding: str) -> Rest:
        """Read a <net> from a point between two of its layers to its end (``chunks`` from there).

        ``line_ends`` is the number of line ends before that point; ``encoding`` the file's.
        """
        from lxml.etree import XMLSyntaxError

        with _gc_paused():
            self._reset(LinedParser(_tags("net"), ("start", "end"), restartable=True))
            self.document = Document(self.path, DocumentKind.NET)
            self.kind, self.root_tag, self.encoding = "net", "net", encoding
            self.stream.lines = line_ends
            self.stream.restart(b"<net><layers>", encoding)
            self.reopening = "layers"
            try:
                for chunk in chunks():
                    self._feed(chunk, b"")
                self._take(self.stream.close(), b"")
            except XMLSyntaxError as exc:
                return Rest([], None, [], self._parser_error(exc))
            document = self.document
            meta_data = document.meta_data if self.meta_data_read else None
            return Rest(
                self.layers,
                self.edges,
                self.diagnostics,
                None,
                document.pre_process,
                meta_data,
                document.has_rt_info,
            )

    def _join(self, join: Join) -> ReadResult | None:
        """At the cut: take the second process's reading of the rest, if the cut was a place to
        start from (between two layers of the <net>'s first <layers>, no <edges> before it)."""
        fits = (
            self.kind == "net"
            and self._opening() == b"<net><layers>"
            and self.stream.markup.closer is None
            and self._first("edges") is None
            and self.encoding.lower() == join.encoding.lower()
        )
        rest = join.take() if fits else None
        if rest is None:
            return None
        if rest.error is not None:
            line, reason = rest.error
            return ReadResult(None, [rules.XML_SYNTAX(self.where, line=line, reason=reason)])
        assert self.document is not None
        self.layers += rest.layers
        self.edges = rest.edges
        document = self.document
        if document.pre_process is None:
            document.pre_process = rest.pre_process
        if not self.meta_data_read and rest.meta_data is not None:
            document.meta_data = rest.meta_data
        document.has_rt_info = document.has_rt_info or rest.has_rt_info
        self.diagnostics += rest.diagnostics
        return ReadResult(self._document(), self.diagnostics)

    def _feed(self, chunk: bytes, head: bytes) -> None:
        """Feed one chunk, replacing the parser at a point between top-level elements when due."""
        stream = self.stream
        if stream.restart_due:
            fed = 0
            for cut in stream.cut_points(chunk):
                self._take(stream.feed(chunk[fed:cut]), head)
                fed = cut
                opening = self._opening()
                if opening is not None and stream.restart(opening, self.encoding):
                    self._reopened()
                    break
            chunk = chunk[fed:]
        self._take(stream.feed(chunk), head)

    def _take(self, events: Iterator[tuple[str, Any]], head: bytes) -> None:
        self._consume(events, head)
        if self.root is not None:
            self._prune(self.root)

    def _reset(self, stream: LinedParser) -> None:
        self.stream = stream
        self.diagnostics: list[Diagnostic] = []
        self.document = None
        self.kind = ""  # "net", "layer", "fragment" or "other": what the root says the file is
        self.root: Any = None  # the current parser's root element, once it has reported one
        self.root_tag = ""
        self.root_line = 1
        self.encoding = "UTF-8"
        self.first_layers: Any = None  # the <net>'s first <layers> and <edges>: the ones read
        self.first_edges: Any = None
        self.closed: set[str] = set()  # of those, the ones that have ended
        self.open_layer: Any = None  # the document's layer being read, while it is open
        self.last_read: Any = None  # the last <layer> or <edge> read: where a restart may follow
        self.reopening = ""  # the list a restarted parser reopens ("layers", "edges" or "")
        self.layers: list[Layer] = []
        self.nested_layers: list[Layer] = []  # <layers><layer> under an unknown root
        self.edges = None
        self.layer: Layer | None = None  # the layer whose ports are being read
        self.shapes: dict[tuple[str | None, ...], tuple[int, ...]] = {}  # by the <dim> texts
        self.dims_reported = False  # _dims made a finding: its result is not shared
        self.data_dicts: dict[tuple[tuple[str, str], ...], dict[str, str]] = {}
        self.meta_data_read = False  # the <net>'s first <meta_data> was read

    def _parser_error(self, exc: etree.XMLSyntaxError) -> tuple[int, str]:
        """The file line and the reason of a parser error (lines it quotes made file lines)."""
        line = self.stream.line(exc.lineno if exc.lineno and exc.lineno > 0 else 1)  # empty file: 1
        reason = (exc.msg.split(", line ")[0] if exc.msg else "").strip()
        return line, clean(self.stream.relocate(reason)) or "empty document"

    def _syntax_error(self, exc: etree.XMLSyntaxError, head: bytes) -> list[Diagnostic]:
        line, reason = self._parser_error(exc)
        found = [rules.XML_SYNTAX(self.where, line=line, reason=reason)]
        doctype = _doctype_line(head)
        if doctype is None:
            return found
        if any(word in reason.lower() for word in _DTD_WORDS):  # caused by the DOCTYPE: one finding
            return [_unsafe(self.where, doctype)]
        return [_unsafe(self.where, doctype), *found]

    # -- restarts ----------------------------------------------------------------------------

    def _opening(self) -> bytes | None:
        """The start tags a fresh parser must read to go on from here, or None if not here.

        Here must be between two children of the list being read (a <net>'s first <layers> or
        <edges>, or the fragment wrapper): the list open and its last child one already read.
        """
        root = self.root
        if root is None or self.open_layer is not None or not len(root):
            return None
        if self.kind == "fragment":
            container, opening = root, [_FRAGMENT_ROOT]
            self.reopening = ""
        elif self.kind == "net" and root[-1] is self.first_layers and "layers" not in self.closed:
            container, opening = self.first_layers, [self.root_tag, "layers"]
            self.reopening = "layers"
        elif self.kind == "net" and root[-1] is self.first_edges and "edges" not in self.closed:
            container, opening = self.first_edges, [self.root_tag, "edges"]
            self.reopening = "edges"
        else:
            return None
        if len(container) and container[-1] is not self.last_read:
            return None
        return "".join(f"<{tag}>" for tag in opening).encode(self.encoding)

    def _reopened(self) -> None:
        """The parser was replaced: its root (and the list it reopens) are bound at its first event."""
        self.root = None

    def _rebind(self, root: Any) -> None:
        self.root = root
        if self.reopening == "layers":
            self.first_layers = root[0]
        elif self.reopening == "edges":
            self.first_edges = root[0]

    # -- the events ----------------------------------------------------------------------------

    def _consume(self, events: Iterator[tuple[str, Any]], head: bytes) -> None:
        for event, element in events:
            if self.root is None:
                self._bind(element, head)
            if event == "start":
                if self.open_layer is None and element.tag == "layer" and self._is_document_layer(element):
                    self.open_layer = element
            elif element is self.open_layer:
                self.open_layer = None
                self.last_read = element
                # One call a layer and one an edge (a 100k-layer IR has as many of each): the
                # reading of a layer or edge is inlined here, as its list's append.
                layer = self._read_layer(element, self.stream.offset)
                if self.kind == "other" and self._nested(element):
                    self.nested_layers.append(layer)
                else:
                    self.layers.append(layer)
            elif element.tag == "edge":
                edges = self.first_edges if self.first_edges is not None else self._first("edges")
                if edges is not None and element.getparent() is edges and self.kind == "net":
                    self.last_read = element
                    if self.edges is None:
                        self.edges = []
                    self.edges.append(self._edge_record(element, self.stream.offset))
            elif element.tag in ("layers", "edges") and element is self._first(element.tag):
                self.closed.add(element.tag)
            elif element.tag == "pre-process":
                self._pre_process(element)
            elif element.tag == "meta_data":
                self._meta_data(element)
            elif element.tag == "rt_info" and self.kind == "net" and element.getparent() is self.root:
                assert self.document is not None
                self.document.has_rt_info = True

    def _bind(self, element: Any, head: bytes) -> None:
        """The first event of a parser: its root is the document's, or a restart's stand-in."""
        root = element.getroottree().getroot()
        if self.document is None:
            if self.net_assumed and (element is not root or root.tag != "net"):
                raise _Stop  # not the <net> the pass assumed: _net_pass has it read again
            self._root(root, head)
        else:
            self._rebind(root)

    def _is_document_layer(self, element: Any) -> bool:
        """Is this (just started) <layer> one of the document's, as OpenVINO would read them?"""
        parent = element.getparent()
        kind = self.kind
        if kind == "net":
            return parent is not None and parent is self._first("layers")
        if kind == "fragment":
            return parent is self.root
        if kind == "layer":
            return element is self.root
        # An unknown root: its <layer> children, or those of its <layers> children.
        return parent is self.root or (
            parent is not None and parent.tag == "layers" and parent.getparent() is self.root
        )

    def _first(self, tag: str) -> Any:
        """The root's first child with this tag (``layers`` or ``edges``), once it has one."""
        first = self.first_layers if tag == "layers" else self.first_edges
        if first is None and self.root is not None:
            first = next(self.root.iterchildren(tag), None)
            if tag == "layers":
                self.first_layers = first
            else:
                self.first_edges = first
        return first

    def _prune(self, root: Any) -> None:
        """Unlink every finished element the reader has no more use for from the lxml tree.

        Only the last child of an element can still be open, so the tree is cut down to the
        chain of last children from the root; in the open layer, the children it will read
        stay (its first <data>, <input> and <output>, their ports and the ports' dims).
        """
        if self.kind == "net":  # note the <net>'s first lists before they are unlinked
            self._first("layers")
            self._first("edges")
        node = root
        keep: Callable[[Any], frozenset[str] | None] = _keep_nothing
        while True:
            count = len(node)
            if count == 0:
                return
            tag = node.tag
            if tag == "rt_info" and self.open_layer is not None:
                # an open layer's or port's <rt_info>: its <attribute>s stay until the layer ends
                _drop_unread(node, _ATTRIBUTES, first_only=False)
                keep = _keep_nothing
                node = node[-1]
                continue
            if tag in _NET_PARTS_READ and node.getparent() is root:
                # the <net>'s <pre-process> and <meta_data>: each child is read when they end (a
                # <channel>'s first <mean>), not what is inside them
                keep = _keep_first_mean if tag == "pre-process" else _keep_nothing
                node = node[-1]
                continue
            wanted = keep(node) if node is not self.open_layer else _OPEN_LAYER_PARTS
            if wanted is None:
                if count > 1:
                    del node[: count - 1]
                keep = _keep_nothing
            else:
                _drop_unread(node, wanted, first_only=node is self.open_layer or wanted is _MEANS)
                keep = _keep_ports if node is self.open_layer else _keep_dims
                if node is self.open_layer and node[-1].tag in _SUBGRAPH_PARTS:
                    return  # a body being read is kept whole until its layer ends
            node = node[-1]

    def _root(self, element: Any, head: bytes) -> None:
        """The root element, at the first event: what kind of document this is."""
        self.root = element
        tag = element.tag if isinstance(element.tag, str) else ""
        self.root_tag = tag
        line = self.root_line = self.stream.line(element.sourceline)
        tree = element.getroottree()
        docinfo = tree.docinfo
        if docinfo.doctype or docinfo.internalDTD is not None or docinfo.externalDTD is not None:
            self.diagnostics = [_unsafe(self.where, _doctype_line(head) or 1)]
            raise _Stop
        self.encoding = docinfo.encoding or "UTF-8"
        self.kind = {"net": "net", "layer": "layer", _FRAGMENT_ROOT: "fragment"}.get(tag, "other")
        self.document = Document(self.path, DocumentKind.NET if tag == "net" else DocumentKind.FRAGMENT)
        self.document.source = self.source
        if tag == "net":
            self.document.line = line
            where = Location(self.path, line)
            self.document.version = _net_version(self._getter(element)("version"), where, self.diagnostics)

    # -- building the model ------------------------------------------------------------------

    def _meta_data(self, element: Any) -> None:
        """The <net>'s first <meta_data>, read when it ends: each child element, and each text
        that is not blank (pugixml's nodes: comments are none)."""
        document = self.document
        if self.kind != "net" or document is None or self.meta_data_read:
            return
        if element.getparent() is not self.root:
            return
        from irshape.ir.legacy import MetaDataEntry  # a file with a <meta_data> only

        self.meta_data_read = True
        offset = self.stream.offset
        entries: list[MetaDataEntry] = []
        if _text(element.text):
            entries.append(MetaDataEntry("", False, element.sourceline + offset))
        for child in element:
            if isinstance(child.tag, str):
                has_value = child.get("value") is not None
                entries.append(MetaDataEntry(child.tag, has_value, child.sourceline + offset))
            if _text(child.tail):
                entries.append(MetaDataEntry("", False, child.sourceline + offset))
        document.meta_data = tuple(entries)

    def _pre_process(self, element: Any) -> None:
        """The <net>'s first <pre-process> (pugixml's ``child``, as OpenVINO finds it), read
        when it ends: its <channel>s and the first <mean> of each."""
        document = self.document
        if self.kind != "net" or document is None or document.pre_process is not None:
            return
        if element.getparent() is not self.root:
            return
        from irshape.ir.legacy import PreProcess, PreProcessChannel  # a file with a <pre-process> only

        offset = self.stream.offset
        channels = []
        for channel in element:
            if channel.tag != "channel":
                continue
            mean = next(channel.iterchildren("mean"), None)
            channels.append(
                PreProcessChannel(
                    self._data(channel),
                    channel.sourceline + offset,
                    None if mean is None else self._data(mean),
                    (channel if mean is None else mean).sourceline + offset,
                )
            )
        document.pre_process = PreProcess(self._data(element), tuple(channels), element.sourceline + offset)

    def _nested(self, element: Any) -> bool:
        """Is this document layer of an unknown root nested in a <layers> (not the root's child)?"""
        parent = element.getparent()
        return parent is not None and parent is not self.root

    def _read_layer(self, element: Any, offset: int) -> Layer:
        """Read a finished layer: its attributes, first <data>, <input> and <output> (and a
        Loop's, If's or TensorIterator's bodies, their layers read by this in turn)."""
        get = self._getter(element) if self.repaired else element.get
        layer_id, layer_type, version = get("id"), get("type"), get("version")
        # Positional arguments, the interning inlined: a model of 100,000 layers is built here.
        layer = self.layer = Layer(
            None if layer_id is None else _intern(layer_id),
            get("name"),
            None if layer_type is None else _intern(layer_type),
            None if version is None else _intern(version),
            element.sourceline + offset,
        )
        inputs = outputs = None
        subgraph_parts = rt_info_read = False
        for child in element:
            tag = child.tag
            if tag == "data":
                if not layer.has_data:
                    layer.has_data = True
                    layer.data = self._data(child)
                    layer.data_line = child.sourceline + offset
            elif tag == "input":
                if inputs is None:
                    inputs = layer.inputs = self._ports(child, offset)
            elif tag == "output":
                if outputs is None:
                    outputs = layer.outputs = self._ports(child, offset)
            elif tag in _SUBGRAPH_PARTS:
                subgraph_parts = True
            elif tag == "rt_info" and not rt_info_read:
                rt_info_read = True
                layer.rt_info = self._rt_info(child, offset)
        if subgraph_parts:
            layer.subgraphs = self._subgraphs(element, offset)
        self.layer = None
        return layer

    def _subgraphs(self, element: Any, offset: int) -> Subgraphs:
        """The bodies, port maps and back edges of a layer (the first of each tag, as OpenVINO
        reads them): the layers of a body as a network's, their bodies in turn."""
        owner = self.layer
        found = Subgraphs()
        for child in element:
            tag = child.tag
            if tag in _BODY_TAGS and tag not in found.bodies:
                found.bodies[tag] = self._body(child, offset)
                self.layer = owner
            elif tag in _PORT_MAP_TAGS and tag not in found.port_maps:
                found.port_maps[tag] = [
                    PortMapEntry(entry.tag == "input", self._data(entry), entry.sourceline + offset)
                    for entry in child
                    if entry.tag in ("input", "output")
                ]
            elif tag == "back_edges" and not found.back_edges:
                get = self._getter
                found.back_edges = [
                    BackEdge(
                        get(edge)("from-layer", "") or "",
                        get(edge)("to-layer", "") or "",
                        edge.sourceline + offset,
                    )
                    for edge in child
                    if edge.tag == "edge"
                ]
        return found

    def _body(self, element: Any, offset: int) -> Body:
        layers_element = next(element.iterchildren("layers"), None)
        edges_element = next(element.iterchildren("edges"), None)
        layers = (
            []
            if layers_element is None
            else [self._read_layer(child, offset) for child in layers_element if child.tag == "layer"]
        )
        edges = (
            []
            if edges_element is None
            else [self._edge_record(child, offset) for child in edges_element if child.tag == "edge"]
        )
        return Body(element.tag, layers, edges, element.sourceline + offset)

    def _data(self, element: Any) -> dict[str, str]:
        """The attributes of a <data>; layers with the same ones share one (read-only) dict."""
        items = tuple(_attributes(element))
        if self.repaired:
            from irshape.ir.repair import restore  # a repaired copy only: imported by _recover

            items = tuple((k, restore(v)) for k, v in items)
        data = self.data_dicts.get(items)
        if data is None:
            data = self.data_dicts[items] = {_intern(k): _intern(v) for k, v in items}
        return data

    def _rt_info(self, element: Any, offset: int) -> tuple[RtAttribute, ...]:
        """The ``<attribute>`` children of an ``<rt_info>``: what OpenVINO reads as runtime
        attributes (the ``<user_data>`` beside them are free-form, not checked)."""
        return tuple(
            RtAttribute(self._data(child), child.sourceline + offset)
            for child in element
            if child.tag == "attribute"
        )

    def _ports(self, element: Any, offset: int) -> list[Port]:
        ports: list[Port] = []
        for child in element:  # faster than iterchildren("port"), which builds a filter
            if child.tag == "port":
                ports.append(self._port(child, len(ports), offset))
        return ports

    def _port(self, element: Any, index: int, offset: int) -> Port:
        texts: list[str | None] = []
        lines: list[int] = []
        rt_info_element = None
        for dim in element:  # faster than iterchildren("dim")
            if dim.tag == "dim":
                texts.append(dim.text)
                lines.append(dim.sourceline)
            elif dim.tag == "rt_info" and rt_info_element is None:
                rt_info_element = dim
        if self.repaired:
            from irshape.ir.repair import restore  # a repaired copy only: imported by _recover

            texts = [restore(text) if text else text for text in texts]
            get = self._getter(element)
        else:
            get = element.get
        # A model repeats a few shapes many times: each text is read once, findings aside.
        key = tuple(texts)
        dims = self.shapes.get(key)
        if dims is None:
            dims = self._dims(get("id"), texts, lines, offset)
            if dims is not None and not self.dims_reported:
                self.shapes[key] = dims
            self.dims_reported = False
        local = element.sourceline  # the parser's lines, as ``lines`` are
        line = local + offset
        # The usual layout, one <dim> a line right after the <port>'s: kept as their count.
        if lines == list(range(local + 1, local + 1 + len(lines))):
            dim_lines: int | tuple[int, ...] = len(lines)
        else:
            dim_lines = tuple(n + offset for n in lines)
        precision = get("precision")
        return Port(
            _intern(get("id", "")),
            index,
            line,
            dims,
            dim_lines,
            None if precision is None else _intern(precision),
            get("names") or "",
            () if rt_info_element is None else self._rt_info(rt_info_element, offset),
        )

    def _dims(
        self, port_id: str | None, texts: list[str | None], lines: list[int], offset: int
    ) -> tuple[int, ...] | None:
        """Read each <dim> as OpenVINO does, reporting those it rejects or reads leniently."""
        # The common case, every <dim> plain digits that fit in an int64, in one test.
        joined = "".join(texts) if all(texts) else ""  # type: ignore[arg-type]
        if joined and len(joined) < 19 and joined.isdigit() and joined.isascii():
            return tuple(map(int, texts))  # type: ignore[arg-type]
        dims: list[int] = []
        readable = True
        for text, line in zip(texts, lines, strict=True):
            value = parse_port_dim(text)
            stripped = (text or "").strip()
            if value is None:
                self._report(rules.DIM_SYNTAX, line + offset, port_id, text=clean(stripped))
                readable = False
            elif stripped != str(value):
                self._report(rules.DIM_LENIENT, line + offset, port_id, text=clean(stripped), value=value)
            dims.append(value if value is not None else -1)
        return tuple(dims) if readable else None

    def _edge_record(self, element: Any, offset: int) -> Edge:
        get = self._getter(element) if self.repaired else element.get
        return Edge(
            _intern(get("from-layer", "")),
            _intern(get("from-port", "")),
            _intern(get("to-layer", "")),
            _intern(get("to-port", "")),
            element.sourceline + offset,
        )

    def _getter(self, element: Any) -> Callable[..., Any]:
        """``element.get``, with the values of a repaired copy restored."""
        if not self.repaired:
            return element.get  # type: ignore[no-any-return]
        from irshape.ir.repair import restore  # a repaired copy only: imported by _recover

        def get(name: str, default: str | None = None) -> str | None:
            value = element.get(name, default)
            return None if value is None else restore(value)

        return get

    def _report(self, rule: Rule, line: int, port: str | None, **args: Any) -> None:
        where = self.layer.location(self.path) if self.layer is not None else self.where
        self.dims_reported = True
        self.diagnostics.append(rule(where, line=line, port=_clean_opt(port), **args))

    def _document(self) -> Document | None:
        document = self.document
        if document is None:
            return None
        layers = self.layers
        if self.kind == "other":
            layers = layers or self.nested_layers
            if not layers:
                where = Location(self.path, self.root_line)
                self.diagnostics.append(rules.NOT_IR(where, root=clean(self.root_tag)))
                return None
        document.layers = layers
        if self.edges is not None:
            document.edges = self.edges
        return document


# -- helpers ---------------------------------------------------------------------------------

_DEEP_LEVELS = 2048  # libxml2's depth limit with XML_PARSE_HUGE
# Each body adds three levels (<body>, <layers>, <layer>) to the six of a top-level port's dim
MAX_BODY_NESTING = (_DEEP_LEVELS - 6) // 3


def _deeper_than_read(finding: Diagnostic, data: bytes) -> Diagnostic:
    """libxml2's depth limit reached: whether OpenVINO reads the file (a warning: irshape does
    not check it) or overflows its stack on it (an error), by :mod:`irshape.ir.depth`."""
    from irshape.ir import depth  # libxml2's depth limit reached only

    nesting = depth.body_nesting(data)
    if nesting <= MAX_BODY_NESTING:  # deep in other elements than bodies: not OpenVINO's IR
        note = f" (irshape's parser reads {_DEEP_LEVELS} XML levels, deeper than bodies nest in an IR)"
        return finding.replace(message=finding.message + note)
    stack = depth.stack_bytes()
    limit = depth.openvino_nesting_limit(stack)
    stopped = (
        f"irshape's parser stops at {_DEEP_LEVELS} XML levels (libxml2: "
        f"'{finding.message.partition(': ')[2].partition(',')[0]}'), layers nested in bodies up to "
        f"{MAX_BODY_NESTING} deep, and the file nests bodies {nesting} deep"
    )
    if stack is not None and limit is not None and nesting > limit:
        message = (
            f"{stopped}; OpenVINO's reader builds each body on its stack, about 3 KiB a level, and "
            f"crashes past about {limit} levels with this {stack // 1024} KiB stack"
        )
        return finding.replace(message=message)
    reads = (
        "with no stack limit"
        if stack is None
        else f"up to about {limit} levels with this {stack // 1024} KiB stack"
    )
    message = f"{stopped}: OpenVINO's reader reads it ({reads}), taking hours at such a depth"
    message += "; irshape does not check it"
    return finding.replace(message=message, severity=rules.WARNING)


def _too_deep(result: ReadResult) -> bool:
    """Did libxml2 stop at its depth limit (the file's only finding)?"""
    return (
        result.document is None
        and len(result.diagnostics) == 1
        and result.diagnostics[0].code == rules.XML_SYNTAX.code
        and "Excessive depth in document" in result.diagnostics[0].message
    )


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The model is many small objects without cycles: the cyclic garbage collector's passes
    over them would only cost time (a fifth of the reading of a large IR)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _tags(root: str | None) -> tuple[str, ...]:
    """The tags the parser reports: irshape's, and the root's (for the first event)."""
    return _EVENT_TAGS if root is None or root in _EVENT_TAGS else (*_EVENT_TAGS, root)


def _text(text: str | None) -> bool:
    """Is this text a node of pugixml's (not blank)?"""
    return text is not None and text.strip(" \t\r\n") != ""


def _keep_nothing(node: Any) -> frozenset[str] | None:
    return None


def _keep_ports(node: Any) -> frozenset[str] | None:
    """In the open layer's last child: the ports of an <input> or <output>."""
    return _PORTS if node.tag == "input" or node.tag == "output" else None


def _keep_dims(node: Any) -> frozenset[str] | None:
    """In a port list's last child: the dims (and <rt_info>) of a <port>."""
    return _PORT_PARTS if node.tag == "port" else None


def _keep_first_mean(node: Any) -> frozenset[str] | None:
    """In a <pre-process>'s last child: the first <mean> of a <channel>."""
    return _MEANS if node.tag == "channel" else None


_MEANS = frozenset({"mean"})
_ATTRIBUTES = frozenset({"attribute"})
_PORTS = frozenset({"port"})
_PORT_PARTS = frozenset({"dim", "rt_info"})


def _drop_unread(node: Any, wanted: frozenset[str], *, first_only: bool) -> None:
    """Unlink the finished children of ``node`` the reader will not read (all but the last)."""
    seen: set[str] = set()
    for child in list(node)[:-1]:
        tag = child.tag
        if tag not in wanted or (first_only and tag in seen):
            node.remove(child)
        else:
            seen.add(tag)


def _chunks_of(data: bytes) -> Chunks:
    """A copy of the file, in the parser's chunks."""

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(data), CHUNK):
            yield data[start : start + CHUNK]

    return chunks


def _root_tag(chunks: Chunks) -> str | None:
    """The root element's tag, from as few chunks as it takes; None if there is no root."""
    from lxml.etree import XMLSyntaxError

    parser = pull_parser(None, ("start",))
    try:
        for chunk in chunks():
            parser.feed(chunk)
            for _, element in parser.read_events():
                return element.tag if isinstance(element.tag, str) else None
    except XMLSyntaxError:  # the reading pass reports it; the root may have come before
        for _, element in parser.read_events():
            return element.tag if isinstance(element.tag, str) else None
    return None


def _net_version(text: str | None, where: Location, diagnostics: list[Diagnostic]) -> int | None:
    version = parse_uint(text)  # pugixml's get_uint64_attr, as the IR frontend reads it
    if version not in (10, 11):
        diagnostics.append(rules.IR_VERSION(where, version=_clean_opt(text)))
    return version


def _unsafe(where: Location, line: int) -> Diagnostic:
    return rules.UNSAFE_XML(where, line=line, what="document type declaration (<!DOCTYPE>)")


def _attributes(element: etree._Element) -> list[tuple[str, str]]:
    """The element's attributes, in linear time (lxml's ``items()`` is quadratic in their number)."""
    if len(element.attrib) <= 32:
        items: list[tuple[str, str]] = element.items()  # faster for the few of a real IR
        return items
    return [(value.attrname, str(value)) for value in _all_attributes()(element)]


# libxml2 errors that the DOCTYPE itself causes (its entities, its internal subset).
_DTD_WORDS = ("entit", "subset", "dtd", "doctype")


def clean(text: str) -> str:
    """A value quoted in a finding: printable, on one line, of bounded length."""
    text = "".join(c if c.isprintable() else _escape(c) for c in text[: _REASON_MAX + 1])
    return text if len(text) <= _REASON_MAX else text[:_REASON_MAX] + "..."


def _clean_opt(text: str | None) -> str | None:
    return None if text is None else clean(text)


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
    match = re.match(_DECLARATION, chunk[bom : bom + 4096].decode(codec, errors="replace"))
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
