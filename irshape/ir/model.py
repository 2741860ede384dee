"""The IR document as irshape sees it: layers, ports, dims and edges, each with its line."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Final, Literal, Self

from irshape.diagnostics import Location
from irshape.record import Record


class DocumentKind:
    """What a document is, as a plain string (an enum's class costs ~0.4M instructions at every
    start; the kind is irshape's own, in no public signature)."""

    NET: Final = "net"  # a whole <net> document
    FRAGMENT: Final = "fragment"  # bare <layer> elements, as the spec examples write them


if TYPE_CHECKING:
    from irshape.ir.legacy import MetaDataEntry, PreProcess

    Kind = Literal["net", "fragment"]


class RtAttribute(Record):
    """One ``<attribute .../>`` of a layer's or port's ``<rt_info>`` (the first ``<rt_info>``,
    as OpenVINO reads it): its XML attributes as written (``name``, ``version``, ``value``, a
    layout's ``layout``...), in the file's order, and its line. OpenVINO reads only the
    ``<attribute>`` elements as runtime attributes (``<user_data>`` are free-form strings)."""

    __slots__ = ("attributes", "line")
    attributes: dict[str, str]
    line: int

    def __init__(self, attributes: dict[str, str], line: int) -> None:
        self.attributes = attributes
        self.line = line


# No <rt_info>: one empty tuple for all.
NO_RT_INFO: tuple[RtAttribute, ...] = ()


class Port(Record):
    """A ``<port>`` of a layer's ``<input>`` or ``<output>``.

    An input port also holds its *source*: the producer layer and its output port that the
    edge into it comes from, as OpenVINO resolves the file's edges (ids read as numbers, the
    last layer of an id kept, the first edge into a port). The graph's index
    (:func:`irshape.check.graph.build_graph`) sets it, the one place those rules are kept, and
    the walk reads it with no lookup; None for an output port, an input no edge feeds, or a
    port of a fragment. It is a link, not a value read from the file, so it is not one of the
    record's fields (equality, ``repr`` and copies leave it out: a field would compare and
    print the graph above the port)."""

    __slots__ = ("dim_spread", "dims", "id", "index", "line", "names", "precision", "rt_info", "source")
    id: str
    index: int  # position among the layer's <input> or <output> ports: OpenVINO's port index
    line: int
    dims: tuple[int, ...] | None  # None when a <dim> could not be read (already reported)
    # The lines of its <dim>s: their count where they are on the lines right after the port's,
    # one a line (the usual layout: no range made for each port), else the lines themselves.
    # ``dim_lines`` gives them as lines.
    dim_spread: int | tuple[int, ...]
    precision: str | None
    names: str  # its tensor names as the ``names`` attribute writes them ("" without)
    rt_info: tuple[RtAttribute, ...]  # the <attribute>s of its first <rt_info> (empty without)

    def __init__(
        self,
        id: str,
        index: int,
        line: int,
        dims: tuple[int, ...] | None,
        dim_lines: int | tuple[int, ...] | range = 0,  # a count: see dim_spread
        precision: str | None = None,
        names: str = "",
        rt_info: tuple[RtAttribute, ...] = NO_RT_INFO,
    ) -> None:
        self.id = id
        self.index = index
        self.line = line
        self.dims = dims
        self.dim_spread = dim_lines if isinstance(dim_lines, int) else _spread(dim_lines, line)
        self.precision = precision
        self.names = names
        self.rt_info = rt_info
        self.source: Source | None = None

    @property
    def dim_lines(self) -> tuple[int, ...] | range:
        """The line of each <dim>."""
        spread = self.dim_spread
        if isinstance(spread, int):
            return range(self.line + 1, self.line + 1 + spread)
        return spread

    def dim_line(self, axis: int) -> int:
        spread = self.dim_spread
        if isinstance(spread, int):
            return self.line + 1 + axis if axis < spread else self.line
        return spread[axis] if axis < len(spread) else self.line

    def __reduce__(self) -> tuple[Any, ...]:
        return _port, (self.field_values(),)

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` applied; without a source (a link the index sets)."""
        copy = super().replace(**changes)
        copy.source = None
        return copy


def made_port(
    id: str,
    index: int,
    line: int,
    dims: tuple[int, ...] | None,
    dim_spread: int | tuple[int, ...],
    precision: str | None,
    names: str,
    rt_info: tuple[RtAttribute, ...],
) -> Port:
    """``Port(...)``, its dims' lines as Port.dim_spread keeps them, made without calling the
    class: in CPython 3.11 a class's call runs ``__init__`` through C (its arguments copied
    into a tuple, another evaluation loop), a function's call runs in the caller's loop. For
    what makes ports by the 100,000 (the scanner): ~20% of a port's cost."""
    port = _new(Port)
    port.id = id
    port.index = index
    port.line = line
    port.dims = dims
    port.dim_spread = dim_spread
    port.precision = precision
    port.names = names
    port.rt_info = rt_info
    port.source = None
    return port


_new = object.__new__


def _spread(lines: tuple[int, ...] | range, line: int) -> int | tuple[int, ...]:
    """Lines of dims as Port.dim_spread keeps them: a count where they follow the port's."""
    if tuple(lines) == tuple(range(line + 1, line + 1 + len(lines))):
        return len(lines)
    return tuple(lines)


def _port(values: tuple[Any, ...]) -> Port:
    """A port unpickled: its fields, and no source."""
    port = object.__new__(Port)
    for name, value in zip(Port.field_names(), values, strict=True):
        setattr(port, name, value)
    port.source = None
    return port


# The producer layer and the output port an edge feeds an input port from.
Source = tuple["Layer", Port]


# The attributes of a layer without <data>: one dict for all (read-only, as every layer's data
# is), so the memos that know a <data> by its identity know this one too.
_NO_DATA: dict[str, str] = {}


class Layer(Record):
    __slots__ = (
        "data",
        "data_line",
        "has_data",
        "id",
        "inputs",
        "line",
        "name",
        "outputs",
        "rt_info",
        "subgraphs",
        "type",
        "version",
    )
    id: str | None
    name: str | None
    type: str | None
    version: str | None
    line: int
    # the attributes of <data>: read-only, the reader shares one dict among the layers whose
    # <data> says the same
    data: dict[str, str]
    data_line: int | None
    has_data: bool
    inputs: list[Port]
    outputs: list[Port]
    subgraphs: Subgraphs | None  # the bodies and port maps of a Loop, If or TensorIterator
    rt_info: tuple[RtAttribute, ...]  # the <attribute>s of its first <rt_info> (empty without)

    def __init__(
        self,
        id: str | None,
        name: str | None,
        type: str | None,
        version: str | None,
        line: int,
        data: dict[str, str] | None = None,
        data_line: int | None = None,
        has_data: bool = False,
        inputs: list[Port] | None = None,
        outputs: list[Port] | None = None,
        subgraphs: Subgraphs | None = None,
        rt_info: tuple[RtAttribute, ...] = NO_RT_INFO,
    ) -> None:
        self.id = id
        self.name = name
        self.type = type
        self.version = version
        self.line = line
        self.data = _NO_DATA if data is None else data
        self.data_line = data_line
        self.has_data = has_data
        self.inputs = [] if inputs is None else inputs
        self.outputs = [] if outputs is None else outputs
        self.subgraphs = subgraphs
        self.rt_info = rt_info

    def location(self, path: str) -> Location:
        return Location(path, self.line, 1, self.id, self.name, self.type, self.version)  # positional: faster

    def input_by_id(self, port_id: str) -> Port | None:
        return next((p for p in self.inputs if p.id == port_id), None)

    def output_by_id(self, port_id: str) -> Port | None:
        return next((p for p in self.outputs if p.id == port_id), None)


def made_layer(
    id: str | None,
    name: str | None,
    type: str | None,
    version: str | None,
    line: int,
    data: dict[str, str] | None,
    data_line: int | None,
    has_data: bool,
    inputs: list[Port],
    outputs: list[Port],
    rt_info: tuple[RtAttribute, ...],
) -> Layer:
    """``Layer(...)`` without bodies, every field given, made without calling the class
    (see made_port)."""
    layer = _new(Layer)
    layer.id = id
    layer.name = name
    layer.type = type
    layer.version = version
    layer.line = line
    layer.data = _NO_DATA if data is None else data
    layer.data_line = data_line
    layer.has_data = has_data
    layer.inputs = inputs
    layer.outputs = outputs
    layer.subgraphs = None
    layer.rt_info = rt_info
    return layer


class Edge(Record):
    __slots__ = ("from_layer", "from_port", "line", "to_layer", "to_port")
    from_layer: str
    from_port: str
    to_layer: str
    to_port: str
    line: int

    def __init__(self, from_layer: str, from_port: str, to_layer: str, to_port: str, line: int) -> None:
        self.from_layer = from_layer
        self.from_port = from_port
        self.to_layer = to_layer
        self.to_port = to_port
        self.line = line


class PortMapEntry(Record):
    """One ``<input>`` or ``<output>`` of a ``<port_map>`` (``then_port_map``, ``else_port_map``):
    the attribute texts as written (OpenVINO reads them as integers, with defaults)."""

    __slots__ = ("attributes", "is_input", "line")
    is_input: bool
    attributes: dict[str, str]
    line: int

    def __init__(self, is_input: bool, attributes: dict[str, str], line: int) -> None:
        self.is_input = is_input
        self.attributes = attributes
        self.line = line


class BackEdge(Record):
    """One ``<edge>`` of a Loop's or TensorIterator's ``<back_edges>``: a body Result feeds a
    body Parameter in the next iteration."""

    __slots__ = ("from_layer", "line", "to_layer")
    from_layer: str
    to_layer: str
    line: int

    def __init__(self, from_layer: str, to_layer: str, line: int) -> None:
        self.from_layer = from_layer
        self.to_layer = to_layer
        self.line = line


class Body(Record):
    """A sub-graph of a layer (``<body>``, ``<then_body>``, ``<else_body>``): layers and edges,
    read as a network's."""

    __slots__ = ("edges", "layers", "line", "tag")
    tag: str
    layers: list[Layer]
    edges: list[Edge]
    line: int

    def __init__(self, tag: str, layers: list[Layer], edges: list[Edge], line: int) -> None:
        self.tag = tag
        self.layers = layers
        self.edges = edges
        self.line = line

    def document(self, outer: Document) -> Document:
        """The body as a network of its own, in the file (and IR version) of ``outer``."""
        return Document(
            outer.path, DocumentKind.NET, outer.version, self.layers, self.edges, self.line, outer.source
        )


class Subgraphs(Record):
    """What a Loop, If or TensorIterator layer holds besides ports and <data>: its bodies by
    tag, its port maps by tag, its back edges (the first element of each tag, as OpenVINO
    reads them)."""

    __slots__ = ("back_edges", "bodies", "port_maps")
    bodies: dict[str, Body]
    port_maps: dict[str, list[PortMapEntry]]
    back_edges: list[BackEdge]

    def __init__(
        self,
        bodies: dict[str, Body] | None = None,
        port_maps: dict[str, list[PortMapEntry]] | None = None,
        back_edges: list[BackEdge] | None = None,
    ) -> None:
        self.bodies = {} if bodies is None else bodies
        self.port_maps = {} if port_maps is None else port_maps
        self.back_edges = [] if back_edges is None else back_edges


def all_layers(layers: list[Layer]) -> list[Layer]:
    """``layers`` and, after each, the layers of its bodies (depth first): every layer of a
    document in file order."""
    if not any(layer.subgraphs is not None for layer in layers):
        return layers
    found: list[Layer] = []
    stack = [iter(layers)]
    while stack:  # a stack, not recursion: bodies may nest hundreds deep
        layer = next(stack[-1], None)
        if layer is None:
            stack.pop()
            continue
        found.append(layer)
        if layer.subgraphs is not None:
            for body in reversed(layer.subgraphs.bodies.values()):
                stack.append(iter(body.layers))
    return found


def has_metadata(document: Document) -> bool:
    """Does the document carry what :mod:`irshape.check.metadata` checks: a ``<pre-process>``,
    a legacy ``<meta_data>``, or (in IR v11, where OpenVINO reads it) a layer's or port's
    ``<rt_info>``?"""
    if document.pre_process is not None or document.meta_data:
        return True
    if document.version is None or document.version <= 10:
        return False
    for layer in document.layers:
        if layer.rt_info:
            return True
        for port in layer.outputs:
            if port.rt_info:
                return True
        for port in layer.inputs:
            if port.rt_info:
                return True
    return False


class Document(Record):
    __slots__ = (
        "edges",
        "has_rt_info",
        "kind",
        "layers",
        "line",
        "meta_data",
        "path",
        "pre_process",
        "source",
        "version",
    )
    path: str
    kind: Kind
    version: int | None  # the <net> version (10 or 11)
    layers: list[Layer]
    edges: list[Edge]
    line: int
    source: str | None  # the .xml on disk, when read from a file
    pre_process: PreProcess | None  # the <net>'s first <pre-process>, if any
    meta_data: tuple[MetaDataEntry, ...]  # the children of the <net>'s first <meta_data>
    has_rt_info: bool  # the <net> has an <rt_info> (read instead of <meta_data>)

    def __init__(
        self,
        path: str,
        kind: Kind,
        version: int | None = None,
        layers: list[Layer] | None = None,
        edges: list[Edge] | None = None,
        line: int = 1,
        source: str | None = None,
        pre_process: PreProcess | None = None,
        meta_data: tuple[MetaDataEntry, ...] = (),
        has_rt_info: bool = False,
    ) -> None:
        self.path = path
        self.kind = kind
        self.version = version
        self.layers = [] if layers is None else layers
        self.edges = [] if edges is None else edges
        self.line = line
        self.source = source
        self.pre_process = pre_process
        self.meta_data = meta_data
        self.has_rt_info = has_rt_info

    @property
    def weights_path(self) -> str | None:
        """The sibling ``<stem>.bin`` OpenVINO would read (the suffix replaced as
        ``pathlib.PurePath.with_suffix`` replaces it: a leading or final dot is no suffix's)."""
        if self.source is None:
            return None
        directory, name = os.path.split(self.source)
        dot = name.rfind(".")
        return os.path.join(directory, (name[:dot] if 0 < dot < len(name) - 1 else name) + ".bin")
