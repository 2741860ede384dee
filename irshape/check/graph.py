"""The graph of a ``<net>`` indexed once for every check: layers by id, edges by their ends,
the producer of each input port, which layers a Result reaches, and the ports' declared dims.

Two kinds of fault differ in when OpenVINO sees them: it *parses* every layer, port and edge
(ids, mandatory attributes, output precisions, ``<dim>`` s) before building anything, but it
*builds* only the layers a Result reaches, so faults found while building (ops, opsets, edges,
Const bytes) go unnoticed in the other layers. :data:`PARSE_TIME_CODES` lists the first kind.
The checks themselves are in :mod:`irshape.check.structure` (the graph's structure) and
:mod:`irshape.check.sources` (Parameters and Consts).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from collections.abc import Set as AbstractSet
from itertools import compress
from typing import TypeGuard

from irshape import rules
from irshape.diagnostics import Diagnostic, Location
from irshape.dims import (
    DYNAMIC,
    PartialShape,
    static_shape,
)
from irshape.ir import element_types
from irshape.ir.model import Document, DocumentKind, Edge, Layer, Port
from irshape.ir.model import Source as Source  # (the checks name it from here)
from irshape.ir.values import parse_uint
from irshape.ops import opsets
from irshape.ops.interface import Tensor
from irshape.record import Record

Report = Callable[[Diagnostic], None]

# Findings OpenVINO raises while parsing, for every layer and edge of the file, reached or not.
PARSE_TIME_CODES = frozenset(
    {
        rules.DIM_SYNTAX.code,
        rules.DIM_LENIENT.code,
        rules.LAYER_ATTRIBUTE_MISSING.code,
        rules.LAYER_ID_DUPLICATE.code,
        rules.ID_SYNTAX.code,
        rules.PRECISION_INVALID.code,
    }
)
ROOT_TYPES = frozenset({"Result", "Assign"})  # OpenVINO matches these two exactly
CONTROL_TYPES = frozenset({"Loop", "If", "TensorIterator"})  # the layers that hold bodies
PRECISIONS = frozenset(element_types.LEGACY_PRECISIONS) | element_types.ELEMENT_TYPES  # port names


# --- ids and the index ----------------------------------------------------------------------


def id_key(text: str | None) -> str:
    """The id OpenVINO compares: ``"01"`` and ``"1"`` are the same layer or port. A text that
    is not an id (a finding of its own) is compared as written."""
    key = _ID_KEYS.get(text)  # asked several times for every id of a file
    if key is not None:
        return key
    if _is_plain_id(text):
        key = text  # the usual id: its own key
    else:
        value = parse_uint(text)
        if value is None:
            return text or ""
        key = str(value)
    if text is not None and len(text) <= _ID_KEY_TEXT_MAX:
        if len(_ID_KEYS) >= _ID_KEYS_MAX:
            _ID_KEYS.clear()
        _ID_KEYS[text] = key
    return key


def is_id(text: str | None) -> bool:
    """Does OpenVINO read ``text`` as an id (an unsigned 64-bit integer)?"""
    if text in _ID_KEYS:
        return True
    if parse_uint(text) is None:
        return False
    id_key(text)  # remembered: every port of a file asks again
    return True


def all_read_ids(texts: Iterable[str | None]) -> bool:
    """Has id_key read each of ``texts`` as an id already (so they all are ids)? A check of the
    usual file in one pass; False says nothing about any one text (ask is_id)."""
    return all(map(_ID_KEYS.__contains__, texts))


# Memo of id_key for the texts that are ids (so that is_id finds them too), bounded.
_ID_KEYS: dict[str | None, str] = {}
_ID_KEYS_MAX = 1 << 17
_ID_KEY_TEXT_MAX = 32


def _is_plain_id(text: str | None) -> TypeGuard[str]:
    """ASCII digits without a leading zero, short enough to fit an int64: its own key."""
    return (
        text is not None
        and text.isdigit()
        and text.isascii()
        and len(text) < 19
        and (text[0] != "0" or len(text) == 1)
    )


def layer_label(layer: Layer) -> str:
    return f"layer {layer.id} '{layer.name}'" if layer.name else f"layer {layer.id}"


# What an edge connects, resolved once: producer, consumer, and the output and input ports it
# names (None where a layer or port does not exist; ports only when both layers exist).
EdgeEnds = tuple[Layer | None, Layer | None, Port | None, Port | None]
EdgeEndLists = tuple[list[Layer | None], list[Layer | None], list[Port | None], list[Port | None]]


class Suspects(Record):
    """The layers a check must look at, in file order: indexing the graph (build_graph) finds
    nothing for the check to report in the others (so most checks look at no layer at all)."""

    __slots__ = ("attributes", "edge_precisions", "precisions", "unfed")
    attributes: list[Layer]  # an attribute or id to look at
    precisions: list[Layer]  # an output precision naming no type
    unfed: list[Layer]  # an input no edge names
    edge_precisions: list[Layer]  # an input precision unlike its source's

    def __init__(
        self,
        attributes: list[Layer] | None = None,
        precisions: list[Layer] | None = None,
        unfed: list[Layer] | None = None,
        edge_precisions: list[Layer] | None = None,
    ) -> None:
        self.attributes = [] if attributes is None else attributes
        self.precisions = [] if precisions is None else precisions
        self.unfed = [] if unfed is None else unfed
        self.edge_precisions = [] if edge_precisions is None else edge_precisions


class Graph(Record):
    """The layers and edges of a document, indexed by the ids OpenVINO compares.

    Ids are normalised once, here: each input port's ``source`` is set (see
    :class:`irshape.ir.model.Port`), so the checks and the walk follow an edge with no lookup.
    """

    __slots__ = (
        "_edge_ends",
        "_links",
        "_producers",
        "_unresolved_ops",
        "built",
        "consumed",
        "document",
        "edges_plain",
        "every_input_fed",
        "fed",
        "in_order",
        "keys",
        "layer_types",
        "layers",
        "lost",
        "misdirected",
        "precisions_differ",
        "shared_inputs",
        "suspects",
        "types",
    )
    document: Document
    # the last layer with each id: OpenVINO keeps it, and edges naming the id reach it
    layers: dict[str, Layer]
    lost: list[Layer]  # the layers a later one with their id replaces: never built, in file order
    # id(layer) -> its id_key, every layer; empty where every layer's id is a plain id, its own
    # key (the usual file: see key)
    keys: dict[int, str]
    # what each document edge connects, in order, as four lists (see ends); None where every
    # edge resolved (edges_plain): made when first asked
    _edge_ends: EdgeEndLists | None
    # every edge resolved to both its ports, naming each layer and port by a plain id (the
    # usual file: check_edges has nothing to look at)
    edges_plain: bool
    # id(input port) of the ports some edge names (each of them has its ``source`` in the usual
    # file: the first edge into it whose both ends exist; a duplicate layer's or port's id
    # names the same input as the kept one's)
    fed: set[int]
    every_input_fed: bool  # every input port of every layer is in ``fed`` (the usual file)
    suspects: Suspects
    _links: list[tuple[str, str]] | None  # see links
    # edges into a layer whose to-port it does not declare (IRS407), by layer id
    misdirected: defaultdict[str, int]
    consumed: set[str]  # the layers an edge takes an output of, to a layer that exists
    _producers: dict[str, list[str]] | None  # see producers
    _unresolved_ops: set[tuple[str, str]] | None  # see unresolved_ops
    built: AbstractSet[str]  # the layers OpenVINO builds (the keys of ``layers`` where all are)
    types: set[str | None]  # the layer types the file has
    layer_types: list[str | None]  # each layer's type, in file order
    # No two layers share an id and every edge goes down the file: the file order is a graph
    # order (the usual case: writers list layers so), and there is no cycle.
    in_order: bool
    precisions_differ: bool  # an edge joins ports of different precisions
    shared_inputs: bool  # two edges whose ends are found name one input port

    def __init__(self, document: Document) -> None:
        """An empty index of ``document``: :func:`build_graph` fills it."""
        self.document = document
        self.layers = {}
        self.lost = []
        self.keys = {}
        self._edge_ends = None
        self.edges_plain = False
        self.fed = set()
        self.every_input_fed = False
        self.suspects = Suspects()
        self._links = None
        self.misdirected = defaultdict(int)
        self.consumed = set()
        self._producers = None
        self._unresolved_ops = None
        self.built = set()
        self.types = set()
        self.layer_types = []
        self.in_order = True
        self.precisions_differ = False
        self.shared_inputs = False

    @property
    def is_net(self) -> bool:
        return self.document.kind == DocumentKind.NET

    @property
    def ends(self) -> Iterable[EdgeEnds]:
        """What each document edge connects, in order: producer, consumer, and the output and
        input ports it names (None where a layer or port does not exist; ports only when both
        layers exist)."""
        if self._edge_ends is None:  # every edge resolved, by plain ids
            self._edge_ends = _resolved_ends(self)
        return zip(*self._edge_ends, strict=True)

    @property
    def links(self) -> list[tuple[str, str]]:
        """(producer id, consumer id) of each edge that gives an input its source, in file
        order; made when first asked where every edge resolved (each one is such an edge)."""
        if self._links is None:
            self._links = [(edge.from_layer, edge.to_layer) for edge in self.document.edges]
        return self._links

    @property
    def producers(self) -> dict[str, list[str]]:
        """The ids of the layers each edge comes from, by the id of the layer it goes to (also
        where that layer or the one it comes from does not exist); made when first asked, as
        only a file that is not in graph order or has unbuilt layers needs it."""
        if self._producers is None:
            self._producers = defaultdict(list)
            key = self.key
            for edge, (producer, consumer, _, _) in zip(self.document.edges, self.ends, strict=True):
                to_key = key(consumer) if consumer is not None else id_key(edge.to_layer)
                from_key = key(producer) if producer is not None else id_key(edge.from_layer)
                self._producers[to_key].append(from_key)
        return self._producers

    @property
    def unresolved_ops(self) -> set[tuple[str, str]]:
        """The (type, version) pairs of the file's layers that OpenVINO finds in no opset it has
        (IRS403, IRS404), each once; made when first asked (a model has a few pairs)."""
        if self._unresolved_ops is None:
            named = set(zip(self.layer_types, [layer.version for layer in self.document.layers], strict=True))
            self._unresolved_ops = {
                (op_type, version)
                for op_type, version in named
                if op_type is not None and version is not None and opsets.op_version(op_type, version) is None
            }
        return self._unresolved_ops

    @property
    def plain(self) -> bool:
        """Is there nothing for the structural checks (:mod:`irshape.check.structure`) to look
        at? The usual file, as its index found it: every id a plain one, a layer's once, the
        edges down the file, each resolved to its ports (_index_usual), every input fed with
        its source's precision, every layer built from a Result, every op in its opset; IR v11
        (whose reading does not name tensors by layers as v10's does), no layer typed
        'Constant', none holding bodies. A sufficient test, in a few steps: the checks are not
        even imported for such a file, and would report nothing (tests/test_graph_checks.py)."""
        return (
            self.edges_plain
            and self.every_input_fed
            and not self.precisions_differ
            and self.document.version != 10
            and not ROOT_TYPES.isdisjoint(self.types)
            and self.built >= self.layers.keys()
            and "Constant" not in self.types
            and CONTROL_TYPES.isdisjoint(self.types)
            and not self.unresolved_ops
        )

    def where(self, layer: Layer) -> Location:
        return layer.location(self.document.path)

    def key(self, layer: Layer) -> str:
        """The id OpenVINO compares of one of the document's layers."""
        if not self.keys:  # every id is a plain id, its own key (_index_usual)
            return layer.id or ""
        key = self.keys.get(id(layer))
        return id_key(layer.id) if key is None else key

    def is_built(self, layer: Layer) -> bool:
        """Does OpenVINO build the layer? (Never one a later layer with its id replaces.)"""
        if not self.is_net:
            return True
        key = self.key(layer)
        return key in self.built and self.layers.get(key) is layer

    def layer_at(self, key: str, line: int | None) -> Layer | None:
        """The layer of id ``key`` that holds ``line`` (the kept one but where ids repeat)."""
        layer = self.layers.get(key)
        if not self.lost or layer is None or line is None:
            return layer
        same = [x for x in self.document.layers if self.key(x) == key and x.line <= line]
        return same[-1] if same else layer

    def source(self, port: Port) -> Source | None:
        """The producer layer and output port an edge feeds the input ``port`` from: the
        port's source, which build_graph set."""
        return port.source

    def edge_ends(self, edge: Edge) -> tuple[Layer | None, Layer | None]:
        return self.layers.get(id_key(edge.from_layer)), self.layers.get(id_key(edge.to_layer))


def _resolved_ends(graph: Graph) -> EdgeEndLists:
    """What each edge connects, in a file whose every edge resolved by plain ids (_index_usual)."""
    edges, layers = graph.document.edges, graph.layers
    producing = [layers[edge.from_layer] for edge in edges]
    consuming = [layers[edge.to_layer] for edge in edges]
    out_ports = [find_port(x.outputs, e.from_port) for x, e in zip(producing, edges, strict=True)]
    in_ports = [find_port(x.inputs, e.to_port) for x, e in zip(consuming, edges, strict=True)]
    return list[Layer | None](producing), list[Layer | None](consuming), out_ports, in_ports


def find_port(ports: list[Port], key: str) -> Port | None:
    """The first of ``ports`` whose id reads as ``key`` (an id_key)."""
    for port in ports:  # a loop, not next() over a generator: called twice an edge
        if port.id == key or id_key(port.id) == key:  # a text equal to a key reads as that key
            return port
    return None


def build_graph(document: Document) -> Graph:
    """Index ``document``. The usual file (every id a plain id, a layer's once; every edge
    naming ports that exist, each input once, down the file) in one pass over the layers and
    one over the edges, with nothing else to look at (_index_usual). Any other file: a pass
    over its layers, one over its edges, and one over the input ports again only where an
    edge did not resolve to one, or a precision differs on one.

    Each input port's ``source`` is set on the way (the producer and output port of the first
    edge into it whose both ends exist; None for the others), over what an earlier index of the
    document set: the same document gives the same sources."""
    layer_types = [layer.type for layer in document.layers]
    graph = _new_graph(document, layer_types)
    inputs = _index_usual(graph)
    if inputs is None:  # not the usual file: each layer and edge looked at
        graph = _new_graph(document, layer_types)
        _unlink(document.layers)  # (what the usual pass set before it stopped, or an older index)
        _index_layers(graph)
        _note_suspects(graph)
        _index_edges(graph)
        inputs = sum(len(layer.inputs) for layer in document.layers)
    if len(graph.fed) < inputs or graph.precisions_differ:
        _survey_inputs(graph)
    graph.every_input_fed = len(graph.fed) == inputs  # (fed holds input ports only)
    graph.built = _built_layers(graph)
    if not graph.is_net:
        _unlink(document.layers)  # a fragment has no graph: each input is its port's declared dims
    return graph


def _unlink(layers: list[Layer]) -> None:
    """No input port of ``layers`` has a source."""
    for layer in layers:
        for port in layer.inputs:
            port.source = None


def _new_graph(document: Document, layer_types: list[str | None]) -> Graph:
    graph = Graph(document)
    graph.layer_types = layer_types
    graph.types = set(layer_types)
    return graph


def _index_usual(graph: Graph) -> int | None:
    """Index the usual file, where every layer and port id is a plain id (its own key), a
    layer's once, the four attributes are there, each output precision names a type, every
    edge names ports that exist and goes down the file, no two into one input, none into a
    Parameter: nothing for the structural checks to look at (no suspects, every edge
    resolved). The number of input ports; None, with the index half made (and some sources
    set), where the file is not the usual one. Every input port an edge names gets its source;
    one no edge names is not fed, and build_graph surveys it (_survey_inputs)."""
    layers, edges = graph.document.layers, graph.document.edges
    by_id: dict[str, Layer] = {layer.id: layer for layer in layers}  # type: ignore[misc]  # (checked)
    if len(by_id) < len(layers) or not _plain_ids(by_id):
        return None
    if None in graph.types or True in [x.name is None or x.version is None for x in layers]:
        return None
    input_ids = [port.id for layer in layers for port in layer.inputs]
    outputs = [port for layer in layers for port in layer.outputs]
    if not (
        _plain_ids(set(input_ids))
        and _plain_ids({port.id for port in outputs})
        and PRECISIONS.issuperset({port.precision for port in outputs})
    ):
        return None
    parameters = compress(layers, map("Parameter".__eq__, graph.layer_types))
    if any(parameter.inputs for parameter in parameters):
        return None  # (an edge into one consumes nothing: the walk back from a root stops there)
    fed: set[int] = set()
    consumed, differ = graph.consumed, False
    get, consume, feed = by_id.get, consumed.add, fed.add
    for edge in edges:
        consumer, producer = get(edge.to_layer), get(edge.from_layer)
        if consumer is None or producer is None or producer.line >= consumer.line:
            return None
        # find_port, inlined: with plain ids, the first port of the id the edge names.
        to_port, from_port = edge.to_port, edge.from_port
        for in_port in consumer.inputs:
            if in_port.id == to_port:
                break
        else:
            return None
        for out_port in producer.outputs:
            if out_port.id == from_port:
                break
        else:
            return None
        port_key = id(in_port)
        if port_key in fed:
            return None  # a second edge into the port (IRS408)
        feed(port_key)
        in_port.source = (producer, out_port)
        consume(edge.from_layer)
        differ = differ or out_port.precision != in_port.precision
    graph.layers = by_id
    graph.fed = fed
    graph.precisions_differ = differ
    graph.edges_plain = True
    return len(input_ids)


def _plain_ids(texts: Collection[str | None]) -> bool:
    """Is each of ``texts`` a plain id (see _is_plain_id)? Whole-text checks, in C."""
    if not texts:
        return True
    if None in texts or "" in texts:
        return False
    lines = "\n" + "\n".join(texts)  # type: ignore[arg-type]  # (None is not in texts)
    return (
        lines.isascii()
        and lines.count("\n") == len(texts)  # (no text holds a line break)
        and lines.encode().translate(None, b"\n").isdigit()  # (bytes: a table, not Unicode's)
        # no leading zero: a text that begins with 0 is 0 itself (each text is there once)
        and lines.count("\n0") <= ("0" in texts)
        and max(map(len, texts)) < 19  # type: ignore[arg-type]  # (no text of 19 digits or more)
    )


def _index_layers(graph: Graph) -> None:
    """Index the layers by id: the last layer with an id replaces the others, as OpenVINO's map
    of layers does."""
    keys, layers, lost = graph.keys, graph.layers, graph.lost
    layers.clear()
    named = 0
    for layer in graph.document.layers:
        key = keys[id(layer)] = id_key(layer.id)  # (fills the memo check_edges asks of every id)
        if layer.id is not None:
            replaced = layers.get(key)
            if replaced is not None:
                lost.append(replaced)
            layers[key] = layer
            named += 1
    graph.in_order = len(layers) == named


def _note_suspects(graph: Graph) -> None:
    """Note the layers with an attribute or id to look at, or an output precision naming no
    type, one by one."""
    suspects, read_ids = graph.suspects, _ID_KEYS
    for layer in graph.document.layers:
        # The four attributes there and an id that is one.
        plain = (
            layer.id is not None
            and layer.name is not None
            and layer.type is not None
            and layer.version is not None
            and is_id(layer.id)
        )
        for port in layer.inputs:  # (is_id's memo looked up first: a call fewer a port)
            plain = plain and (port.id in read_ids or is_id(port.id))
        precisions = True
        for port in layer.outputs:
            plain = plain and (port.id in read_ids or is_id(port.id))
            precisions = precisions and port.precision in PRECISIONS  # element_types.from_precision
        if not plain:
            suspects.attributes.append(layer)
        if not precisions:
            suspects.precisions.append(layer)


def _index_edges(graph: Graph) -> None:
    """Index every edge: what it connects (``graph.ends``), the source of each input it
    feeds (the ports' sources are all None before), and what the checks and the build set
    need. One loop, its lookups bound once: a model of 100,000 layers has more edges still."""
    layers, consumed = graph.layers, graph.consumed
    fed: set[int] = set()
    linked: set[int] = set()  # id(input port) of the ports given a source
    graph.fed = fed
    port_keys = _ID_KEYS
    links: list[tuple[str, str]] = []
    ends: tuple[list[Layer | None], list[Layer | None], list[Port | None], list[Port | None]] = (
        [],
        [],
        [],
        [],
    )
    graph._links, graph._edge_ends = links, ends
    producers, consumers, out_ports, in_ports = ends
    for edge in graph.document.edges:
        # A layer's id text is its key already in the usual file: one lookup, no id_key.
        to_layer = edge.to_layer
        consumer = layers.get(to_layer)
        if consumer is None:
            to_layer = id_key(to_layer)
            consumer = layers.get(to_layer)
        from_layer = edge.from_layer
        producer = layers.get(from_layer)
        if producer is None:
            from_layer = id_key(from_layer)
            producer = layers.get(from_layer)
        producers.append(producer)
        consumers.append(consumer)
        if consumer is None:
            out_ports.append(None)
            in_ports.append(None)
            continue
        if consumer.type != "Parameter":  # (the walk back from a root stops at a Parameter)
            consumed.add(from_layer)
        if producer is not None and producer.line >= consumer.line:
            graph.in_order = False  # (two layers on one line: their order is not known here)
        in_port = find_port(consumer.inputs, port_keys.get(edge.to_port) or id_key(edge.to_port))
        out_port = (
            None
            if producer is None
            else find_port(producer.outputs, port_keys.get(edge.from_port) or id_key(edge.from_port))
        )
        out_ports.append(out_port)
        in_ports.append(in_port)
        if in_port is None:
            graph.misdirected[to_layer] += 1
            continue
        fed.add(id(in_port))
        if producer is None or out_port is None:
            continue
        if id(in_port) in linked:
            graph.shared_inputs = True  # a second edge into the port (IRS408)
            continue
        linked.add(id(in_port))
        in_port.source = (producer, out_port)
        links.append((from_layer, to_layer))
        if out_port.precision != in_port.precision:
            graph.precisions_differ = True


def _survey_inputs(graph: Graph) -> None:
    """Note the layers with an input no edge names, or an input precision unlike its source's.

    Index the ports no edge resolved to: an edge names a port by layer and port id, so it also
    feeds a later port of the layer with the same id, and the ports of a later layer with the
    same id. Such a port is fed as the first one is; the others are not fed.
    """
    fed, suspects = graph.fed, graph.suspects
    for layer in graph.document.layers:
        all_fed = precisions_agree = True
        for port in layer.inputs:
            if id(port) not in fed:  # else the usual case: an edge resolved to this very port
                named = _first_port_named(graph, layer, port)
                if named is None or named is port or id(named) not in fed:
                    port.source = None  # (an older index's, were there one)
                    all_fed = False
                    continue
                fed.add(id(port))
                port.source = named.source
            source = port.source
            precisions_agree = precisions_agree and (source is None or source[1].precision == port.precision)
        if not all_fed:
            suspects.unfed.append(layer)
        if not precisions_agree:
            suspects.edge_precisions.append(layer)


def _first_port_named(graph: Graph, layer: Layer, port: Port) -> Port | None:
    """The input port an edge to ``port``'s layer id and port id resolves to."""
    kept = graph.layers.get(graph.key(layer))
    return None if kept is None else find_port(kept.inputs, id_key(port.id))


def _built_layers(graph: Graph) -> AbstractSet[str]:
    """OpenVINO's build set (``XmlDeserializer::parse_function``): the id of every Parameter,
    then a walk back from the id of every Result and Assign, which does not go past a
    Parameter's id. Ids of the <layer>s, replaced or not: the layer built is the kept one."""
    layers, key = graph.document.layers, graph.key
    rooted = compress(layers, map(ROOT_TYPES.__contains__, graph.layer_types))
    roots = [key(x) for x in rooted if x.id is not None]
    if graph.in_order and (graph.layers.keys() - graph.consumed).issubset(roots):
        # The usual file: with no cycle, a walk down from any layer that feeds another (not a
        # Parameter) ends at one that feeds none, a root here, so every layer is built (set
        # operations, in C).
        return graph.layers.keys()
    parameters = {key(x) for x in layers if x.type == "Parameter" and x.id is not None}
    seen = parameters | set(roots)
    stack = [root for root in roots if root not in parameters]
    while stack:
        for producer in graph.producers.get(stack.pop(), ()):
            if producer not in seen:
                seen.add(producer)
                stack.append(producer)
    return seen


# --- declared dims --------------------------------------------------------------------------


def declared_shape(port: Port) -> PartialShape | None:
    """A port's dims as a shape (-1 dynamic); None when it declares none (a dynamic rank)."""
    dims = port.dims
    if not dims:
        return None
    return _declared_shape(dims) if len(dims) <= _CACHED_RANK else _shape_of_dims(dims)


# A model repeats few shapes, and a PartialShape is immutable: make each once (ranks a real
# model has, so that the caches stay small whatever a file holds).
_CACHED_RANK = 8


def _shape_of_dims(dims: tuple[int, ...]) -> PartialShape:
    return PartialShape(DYNAMIC if d == -1 else d for d in dims)


_declared_shape = functools.lru_cache(maxsize=4096)(_shape_of_dims)
_cached_static_shape = functools.lru_cache(maxsize=4096)(static_shape)


def port_static_shape(dims: tuple[int, ...]) -> PartialShape:
    return _cached_static_shape(dims) if len(dims) <= _CACHED_RANK else static_shape(dims)


def fits(port: Port, shape: PartialShape) -> bool:
    """Do the port's declared dims describe ``shape``? -1 and a missing <dim> list fit anything,
    and so does an empty dim (its fault is the literal that made it, IRS011)."""
    if not port.dims or shape.dims is None or port.dims == shape.lengths:
        return True
    if len(port.dims) != len(shape.dims):
        return False
    for d, dim in zip(port.dims, shape.dims, strict=True):  # a loop, not all(): faster
        if d != -1 and not (dim.lo <= d <= dim.hi or dim.is_empty):
            return False
    return True


def same_dims(a: Port, b: Port) -> bool:
    """Do two ports declare the same tensor? -1 matches any dim."""
    if not a.dims or not b.dims or a.dims == b.dims:
        return True
    if len(a.dims) != len(b.dims):
        return False
    return all(x == -1 or y == -1 or x == y for x, y in zip(a.dims, b.dims, strict=True))


def port_text(port: Port) -> str:
    shape = declared_shape(port)
    return "no dims" if shape is None else str(shape)


def declared_tensor(port: Port) -> Tensor:
    """A tensor as its port declares it: -1 dims are dynamic; the precision names the type."""
    shape = declared_shape(port)
    return Tensor(shape or PartialShape(None), element_types.from_precision(port.precision))
