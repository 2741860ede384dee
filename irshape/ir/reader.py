"""Read an IR ``.xml`` (a whole ``<net>`` or bare ``<layer>`` fragments) with lxml, safely.

The parser never expands entities, never loads a DTD and never touches the network, so a
hostile file cannot make irshape read other files or blow up in memory. Every layer, port
and dim keeps its source line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from irshape import rules
from irshape.diagnostics import Diagnostic, Location
from irshape.ir.model import Document, DocumentKind, Edge, Layer, Port
from irshape.ir.values import parse_port_dim

_FRAGMENT_ROOT = "irshape-fragment"
_XML_DECLARATION = re.compile(rb"^\s*<\?xml[^>]*\?>")


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=False,
    )


@dataclass(slots=True)
class ReadResult:
    document: Document | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def read_file(path: str | Path) -> ReadResult:
    source = Path(path)
    try:
        data = source.read_bytes()
    except OSError as exc:
        where = Location(path=str(path))
        return ReadResult(None, [rules.XML_SYNTAX(where, reason=f"cannot read file: {exc.strerror}")])
    return read_bytes(data, str(path), source=source)


def read_bytes(data: bytes, path: str, *, source: Path | None = None) -> ReadResult:
    """Parse ``data`` (the text of ``path``) into a :class:`Document` and reading findings."""
    where = Location(path=path)
    try:
        root = _parse(data)
    except etree.XMLSyntaxError as exc:
        line = exc.lineno if exc.lineno and exc.lineno > 0 else None
        reason = exc.msg.split(", line ")[0] if exc.msg else "empty document"
        return ReadResult(None, [rules.XML_SYNTAX(where, line=line, reason=reason)])
    diagnostics = _unsafe_constructs(root, where)
    document = _document(root, path, source, diagnostics)
    return ReadResult(document, diagnostics)


def _parse(data: bytes) -> etree._Element:
    try:
        return etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        if "Extra content at the end of the document" not in str(exc):
            raise
    # Several top-level <layer> elements: wrap them in one root on the same line, so that
    # line numbers stay those of the file.
    body = _XML_DECLARATION.sub(lambda m: re.sub(rb"[^\n]", b" ", m.group(0)), data, count=1)
    wrapped = b"<" + _FRAGMENT_ROOT.encode() + b">" + body + b"</" + _FRAGMENT_ROOT.encode() + b">"
    return etree.fromstring(wrapped, _parser())


def _unsafe_constructs(root: etree._Element, where: Location) -> list[Diagnostic]:
    docinfo = root.getroottree().docinfo
    if docinfo.internalDTD is not None or docinfo.externalDTD is not None or docinfo.doctype:
        return [rules.UNSAFE_XML(where, line=1, what="document type declaration (<!DOCTYPE>)")]
    return []


def _document(
    root: etree._Element, path: str, source: Path | None, diagnostics: list[Diagnostic]
) -> Document | None:
    tag = root.tag if isinstance(root.tag, str) else ""
    if tag == "net":
        doc = Document(path, DocumentKind.NET, line=root.sourceline or 1, source=source)
        doc.version = _net_version(root, Location(path, root.sourceline), diagnostics)
        layers_parent = root.find("layers")
        edges_parent = root.find("edges")
        layer_elements = [] if layers_parent is None else layers_parent.findall("layer")
        if edges_parent is not None:
            doc.edges = [_edge(e) for e in edges_parent.findall("edge")]
    elif tag == "layer":
        doc = Document(path, DocumentKind.FRAGMENT, source=source)
        layer_elements = [root]
    else:
        layer_elements = root.findall("layer") or root.findall("layers/layer")
        if not layer_elements:
            diagnostics.append(rules.NOT_IR(Location(path, root.sourceline), root=tag))
            return None
        doc = Document(path, DocumentKind.FRAGMENT, source=source)
    doc.layers = [_layer(e, path, diagnostics) for e in layer_elements]
    return doc


def _net_version(root: etree._Element, where: Location, diagnostics: list[Diagnostic]) -> int | None:
    text = root.get("version")
    version = int(text) if text is not None and text.strip().isdigit() else None
    if version not in (10, 11):
        diagnostics.append(rules.IR_VERSION(where, version=text))
    return version


def _edge(element: etree._Element) -> Edge:
    return Edge(
        from_layer=element.get("from-layer", ""),
        from_port=element.get("from-port", ""),
        to_layer=element.get("to-layer", ""),
        to_port=element.get("to-port", ""),
        line=element.sourceline or 0,
    )


def _layer(element: etree._Element, path: str, diagnostics: list[Diagnostic]) -> Layer:
    layer = Layer(
        id=element.get("id"),
        name=element.get("name"),
        type=element.get("type"),
        version=element.get("version"),
        line=element.sourceline or 0,
    )
    data = element.find("data")
    if data is not None:
        layer.has_data = True
        layer.data = dict(data.attrib)
        layer.data_line = data.sourceline
    where = layer.location(path)
    for group, ports in (("input", layer.inputs), ("output", layer.outputs)):
        parent = element.find(group)
        if parent is not None:
            for index, port in enumerate(parent.findall("port")):
                ports.append(_port(port, index, where, diagnostics))
    return layer


def _port(element: etree._Element, index: int, where: Location, diagnostics: list[Diagnostic]) -> Port:
    dims: list[int] = []
    lines: list[int] = []
    readable = True
    for dim in element.iterchildren("dim"):
        line = dim.sourceline or 0
        value = parse_port_dim(dim.text)
        text = (dim.text or "").strip()
        if value is None:
            diagnostics.append(rules.DIM_SYNTAX(where, line=line, port=element.get("id"), text=text))
            readable = False
        elif text != str(value):
            diagnostics.append(
                rules.DIM_LENIENT(where, line=line, port=element.get("id"), text=text, value=value)
            )
        dims.append(value if value is not None else -1)
        lines.append(line)
    return Port(
        id=element.get("id", ""),
        index=index,
        line=element.sourceline or 0,
        dims=tuple(dims) if readable else None,
        dim_lines=tuple(lines),
        precision=element.get("precision"),
    )
