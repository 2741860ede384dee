"""The IR document as irshape sees it: layers, ports, dims and edges, each with its line."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from irshape.diagnostics import Location
from irshape.record import Record


class DocumentKind(StrEnum):
    NET = "net"  # a whole <net> document
    FRAGMENT = "fragment"  # bare <layer> elements, as the spec examples write them


class Port(Record):
    __slots__ = ("dim_lines", "dims", "id", "index", "line", "named", "precision")
    id: str
    index: int  # position among the layer's <input> or <output> ports: OpenVINO's port index
    line: int
    dims: tuple[int, ...] | None  # None when a <dim> could not be read (already reported)
    dim_lines: tuple[int, ...] | range  # the reader stores consecutive lines as a range
    precision: str | None
    named: bool  # the port has a non-empty ``names`` (tensor names)

    def __init__(
        self,
        id: str,
        index: int,
        line: int,
        dims: tuple[int, ...] | None,
        dim_lines: tuple[int, ...] | range = (),
        precision: str | None = None,
        named: bool = False,
    ) -> None:
        self.id = id
        self.index = index
        self.line = line
        self.dims = dims
        self.dim_lines = dim_lines
        self.precision = precision
        self.named = named

    def dim_line(self, axis: int) -> int:
        return self.dim_lines[axis] if axis < len(self.dim_lines) else self.line


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

    def location(self, path: str) -> Location:
        return Location(path, self.line, 1, self.id, self.name, self.type, self.version)  # positional: faster

    def input_by_id(self, port_id: str) -> Port | None:
        return next((p for p in self.inputs if p.id == port_id), None)

    def output_by_id(self, port_id: str) -> Port | None:
        return next((p for p in self.outputs if p.id == port_id), None)


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


class Document(Record):
    __slots__ = ("edges", "kind", "layers", "line", "path", "source", "version")
    path: str
    kind: DocumentKind
    version: int | None  # the <net> version (10 or 11)
    layers: list[Layer]
    edges: list[Edge]
    line: int
    source: Path | None  # the .xml on disk, when read from a file

    def __init__(
        self,
        path: str,
        kind: DocumentKind,
        version: int | None = None,
        layers: list[Layer] | None = None,
        edges: list[Edge] | None = None,
        line: int = 1,
        source: Path | None = None,
    ) -> None:
        self.path = path
        self.kind = kind
        self.version = version
        self.layers = [] if layers is None else layers
        self.edges = [] if edges is None else edges
        self.line = line
        self.source = source

    @property
    def weights_path(self) -> Path | None:
        """The sibling ``<stem>.bin`` OpenVINO would read."""
        return None if self.source is None else self.source.with_suffix(".bin")
