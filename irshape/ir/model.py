"""The IR document as irshape sees it: layers, ports, dims and edges, each with its line."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from irshape.diagnostics import Location


class DocumentKind(StrEnum):
    NET = "net"  # a whole <net> document
    FRAGMENT = "fragment"  # bare <layer> elements, as the spec examples write them


@dataclass(slots=True)
class Port:
    id: str
    index: int  # position among the layer's <input> or <output> ports: OpenVINO's port index
    line: int
    dims: tuple[int, ...] | None  # None when a <dim> could not be read (already reported)
    dim_lines: tuple[int, ...] | range = ()  # the reader stores consecutive lines as a range
    precision: str | None = None

    def dim_line(self, axis: int) -> int:
        return self.dim_lines[axis] if axis < len(self.dim_lines) else self.line


@dataclass(slots=True)
class Layer:
    id: str | None
    name: str | None
    type: str | None
    version: str | None
    line: int
    data: dict[str, str] = field(default_factory=dict)  # the attributes of <data>: read-only, the
    # reader shares one dict among the layers whose <data> says the same
    data_line: int | None = None
    has_data: bool = False
    inputs: list[Port] = field(default_factory=list)
    outputs: list[Port] = field(default_factory=list)

    def location(self, path: str) -> Location:
        return Location(path, self.line, 1, self.id, self.name, self.type, self.version)  # positional: faster

    def input_by_id(self, port_id: str) -> Port | None:
        return next((p for p in self.inputs if p.id == port_id), None)

    def output_by_id(self, port_id: str) -> Port | None:
        return next((p for p in self.outputs if p.id == port_id), None)


@dataclass(slots=True)
class Edge:
    from_layer: str
    from_port: str
    to_layer: str
    to_port: str
    line: int


@dataclass(slots=True)
class Document:
    path: str
    kind: DocumentKind
    version: int | None = None  # the <net> version (10 or 11)
    layers: list[Layer] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    line: int = 1
    source: Path | None = None  # the .xml on disk, when read from a file

    @property
    def weights_path(self) -> Path | None:
        """The sibling ``<stem>.bin`` OpenVINO would read."""
        return None if self.source is None else self.source.with_suffix(".bin")
