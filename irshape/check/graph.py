"""Whole-model structural checks of a ``<net>`` (rules §8): every fault, each once, with its line.

OpenVINO's reader stops at the first fault and names it by byte offset. These checks look at
the whole file: layer ids and mandatory attributes, opsets, output precisions, edges and ports,
unconnected inputs, cycles, Parameters, Consts against the ``.bin``, and which layers OpenVINO
never builds because no Result reaches them. Each check is a small function that reports
through ``report``; :class:`Graph` indexes the document once for all of them.

Two kinds of fault differ in when OpenVINO sees them: it *parses* every layer, port and edge
(ids, mandatory attributes, output precisions, ``<dim>`` s) before building anything, but it
*builds* only the layers a Result reaches, so faults found while building (ops, opsets, edges,
Const bytes) go unnoticed in the other layers. :data:`PARSE_TIME_CODES` lists the first kind.
"""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from operator import attrgetter
from typing import TypeGuard

from irshape import rules
from irshape.check.layer import TensorInfo
from irshape.diagnostics import Diagnostic, Location, Severity
from irshape.dims import (
    DYNAMIC,
    DimSyntaxError,
    PartialShape,
    literal_reading,
    parse_dim,
    parse_partial_shape,
    static_shape,
)
from irshape.ir import element_types
from irshape.ir.model import Document, DocumentKind, Edge, Layer, Port
from irshape.ir.values import C_SPACE, ListSyntaxError, parse_int_list, parse_uint
from irshape.ir.weights import Weights, WeightsError, bytes_needed, element_count
from irshape.ops import opsets
from irshape.ops.opset_table import MAX_OPSET
from irshape.ops.registry import lookup
from irshape.ops.schema import OpSchema
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
_PRECISIONS = frozenset(element_types.LEGACY_PRECISIONS) | element_types.ELEMENT_TYPES  # port names
_REAL_TYPES = frozenset({"f16", "f32", "f64"})  # read as reals: scales, eps...
_CONST_VALUE_LIMIT = 64  # read Const values only for small integer tensors (shapes, axes, indices)
_NAMES_SHOWN = 8

# --- which opsets have which op -----------------------------------------------------------
# Probed from OpenVINO 2026.4.1's read_model: for every op type of its Python opset modules
# and every version opset1..opset17, does the IR reader find the op? Keys are lower case
# (OpenVINO looks types up case-insensitively); "1 3-16" means opset1 and opset3..opset16.
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


def _all_read_ids(texts: Iterable[str | None]) -> bool:
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
Source = tuple[Layer, Port]  # the producer layer and the output port an edge feeds an input from


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

    Ids are normalised once, here: the checks and the walk look ports up by the port object.
    """

    __slots__ = (
        "built",
        "document",
        "ends",
        "fed",
        "in_order",
        "keys",
        "layers",
        "links",
        "misdirected",
        "precisions_differ",
        "producers",
        "shared_inputs",
        "sources",
        "suspects",
        "types",
    )
    document: Document
    layers: dict[str, Layer]  # the first layer with each id
    keys: dict[int, str]  # id(layer) -> its id_key, every layer
    ends: list[EdgeEnds]  # one a document edge, in order
    # id(input port) -> the first edge into it whose both ends exist, for every layer's ports
    # (a duplicate layer's or port's id names the same input as the first one's)
    sources: dict[int, Source]
    fed: set[int]  # id(input port) of the ports some edge names
    suspects: Suspects
    # (producer id, consumer id) of the edge that gives an input its source, in file order
    links: list[tuple[str, str]]
    # edges into a layer whose to-port it does not declare (IRS407), by layer id
    misdirected: defaultdict[str, int]
    producers: defaultdict[str, list[str]]
    built: set[str]  # the layers OpenVINO builds
    types: set[str | None]  # the layer types the file has
    # No two layers share an id and every edge goes down the file: the file order is a graph
    # order (the usual case: writers list layers so), and there is no cycle.
    in_order: bool
    precisions_differ: bool  # an edge joins ports of different precisions
    shared_inputs: bool  # two edges whose ends are found name one input port

    def __init__(self, document: Document) -> None:
        """An empty index of ``document``: :func:`build_graph` fills it."""
        self.document = document
        self.layers = {}
        self.keys = {}
        self.ends = []
        self.sources = {}
        self.fed = set()
        self.suspects = Suspects()
        self.links = []
        self.misdirected = defaultdict(int)
        self.producers = defaultdict(list)
        self.built = set()
        self.types = set()
        self.in_order = True
        self.precisions_differ = False
        self.shared_inputs = False

    @property
    def is_net(self) -> bool:
        return self.document.kind is DocumentKind.NET

    def where(self, layer: Layer) -> Location:
        return layer.location(self.document.path)

    def key(self, layer: Layer) -> str:
        key = self.keys.get(id(layer))
        return id_key(layer.id) if key is None else key

    def is_built(self, layer: Layer) -> bool:
        return not self.is_net or self.key(layer) in self.built

    def source(self, port: Port) -> Source | None:
        """The producer layer and output port an edge feeds the input ``port`` from."""
        return self.sources.get(id(port))

    def edge_ends(self, edge: Edge) -> tuple[Layer | None, Layer | None]:
        return self.layers.get(id_key(edge.from_layer)), self.layers.get(id_key(edge.to_layer))


def find_port(ports: list[Port], key: str) -> Port | None:
    """The first of ``ports`` whose id reads as ``key`` (an id_key)."""
    for port in ports:  # a loop, not next() over a generator: called twice an edge
        if port.id == key or id_key(port.id) == key:  # a text equal to a key reads as that key
            return port
    return None


def build_graph(document: Document) -> Graph:
    """Index ``document``: a pass over its layers, one over its edges, and one over the input
    ports again only where an edge did not resolve to one, or a precision differs on one."""
    graph = Graph(document)
    inputs = _index_layers(graph)
    for edge in document.edges:
        graph.ends.append(_add_edge(graph, edge))
    if len(graph.fed) < inputs or graph.precisions_differ:
        _survey_inputs(graph)
    graph.built = _built_layers(graph)
    graph.types = {layer.type for layer in document.layers}
    return graph


def _index_layers(graph: Graph) -> int:
    """Index the layers by id, noting those with an attribute or id to look at, or an output
    precision naming no type (one pass: a pass costs more than what it does in each layer).
    The number of input ports."""
    keys, layers, suspects = graph.keys, graph.layers, graph.suspects
    named = inputs = 0
    for layer in graph.document.layers:
        key = keys[id(layer)] = id_key(layer.id)
        first = None
        if layer.id is not None:
            first = layers.setdefault(key, layer)
            named += 1
        inputs += len(layer.inputs)
        # The four attributes there, an id that is one and no other layer's before this one.
        plain = (
            first is layer
            and layer.name is not None
            and layer.type is not None
            and layer.version is not None
            and is_id(layer.id)
        )
        for port in layer.inputs:
            plain = plain and is_id(port.id)
        precisions = True
        for port in layer.outputs:
            plain = plain and is_id(port.id)
            precisions = precisions and port.precision in _PRECISIONS  # element_types.from_precision
        if not plain:
            suspects.attributes.append(layer)
        if not precisions:
            suspects.precisions.append(layer)
    graph.in_order = len(layers) == named
    return inputs


def _add_edge(graph: Graph, edge: Edge) -> EdgeEnds:
    """Index one edge; what it connects."""
    to_layer, consumer = _layer_named(graph, edge.to_layer)
    from_layer, producer = _layer_named(graph, edge.from_layer)
    graph.producers[to_layer].append(from_layer)
    if consumer is None:
        return producer, None, None, None
    if producer is not None and producer.line >= consumer.line:
        graph.in_order = False  # (two layers on one line: their order is not known here)
    in_port = find_port(consumer.inputs, id_key(edge.to_port))
    out_port = None if producer is None else find_port(producer.outputs, id_key(edge.from_port))
    if in_port is None:
        graph.misdirected[to_layer] += 1
        return producer, consumer, out_port, None
    graph.fed.add(id(in_port))
    if producer is None or out_port is None:
        return producer, consumer, out_port, in_port
    if id(in_port) in graph.sources:
        graph.shared_inputs = True  # a second edge into the port (IRS408)
    else:
        graph.sources[id(in_port)] = (producer, out_port)
        graph.links.append((from_layer, to_layer))
        if out_port.precision != in_port.precision:
            graph.precisions_differ = True
    return producer, consumer, out_port, in_port


def _layer_named(graph: Graph, text: str) -> tuple[str, Layer | None]:
    """The id_key of ``text`` and the layer it names: a text that is a layer's key already (the
    usual case) is its own key."""
    layer = graph.layers.get(text)
    if layer is not None:
        return text, layer
    key = id_key(text)
    return key, graph.layers.get(key)


def _survey_inputs(graph: Graph) -> None:
    """Note the layers with an input no edge names, or an input precision unlike its source's.

    Index the ports no edge resolved to: an edge names a port by layer and port id, so it also
    feeds a later port of the layer with the same id, and the ports of a later layer with the
    same id. Such a port is fed as the first one is; the others are not fed.
    """
    fed, sources, suspects = graph.fed, graph.sources, graph.suspects
    for layer in graph.document.layers:
        all_fed = precisions_agree = True
        for port in layer.inputs:
            if id(port) not in fed:  # else the usual case: an edge resolved to this very port
                named = _first_port_named(graph, layer, port)
                if named is None or named is port or id(named) not in fed:
                    all_fed = False
                    continue
                fed.add(id(port))
                if id(named) in sources:
                    sources[id(port)] = sources[id(named)]
            source = sources.get(id(port))
            precisions_agree = precisions_agree and (source is None or source[1].precision == port.precision)
        if not all_fed:
            suspects.unfed.append(layer)
        if not precisions_agree:
            suspects.edge_precisions.append(layer)


def _first_port_named(graph: Graph, layer: Layer, port: Port) -> Port | None:
    """The input port an edge to ``port``'s layer id and port id resolves to."""
    first = graph.layers.get(graph.keys[id(layer)])
    return None if first is None else find_port(first.inputs, id_key(port.id))


def _built_layers(graph: Graph) -> set[str]:
    """OpenVINO's build set: a walk back from every Result and Assign, plus every Parameter."""
    roots = [k for k, layer in graph.layers.items() if layer.type in ROOT_TYPES]
    seen = set(roots)
    stack = list(roots)
    while stack:
        for producer in graph.producers.get(stack.pop(), ()):
            if producer not in seen:
                seen.add(producer)
                stack.append(producer)
    seen.update(k for k, layer in graph.layers.items() if layer.type == "Parameter")
    return seen


# --- layers: ids, mandatory attributes, duplicates, precisions -----------------------------


def check_layer_attributes(graph: Graph, report: Report) -> None:
    """IRS007, IRS402 and IRS401: what OpenVINO reads from every <layer> before building."""
    keys, first_layers = graph.keys, graph.layers
    for layer in graph.suspects.attributes:
        if layer.name is None or layer.type is None or layer.version is None or not is_id(layer.id):
            _check_layer_id(graph, layer, report)
        elif (first := first_layers[keys[id(layer)]]) is not layer:
            report(rules.LAYER_ID_DUPLICATE(graph.where(layer), id=layer.id, first_line=first.line))
        for ports in (layer.inputs, layer.outputs):
            for port in ports:
                if not is_id(port.id):
                    report(_id_syntax(graph.where(layer).at_line(port.line), "port id", port.id or None))


def _check_layer_id(graph: Graph, layer: Layer, report: Report) -> None:
    """IRS007, IRS402 and IRS401 for a layer whose attributes are not all plainly there."""
    where = graph.where(layer)
    for attribute in ("id", "name", "type", "version"):
        if getattr(layer, attribute) is None:
            report(rules.LAYER_ATTRIBUTE_MISSING(where, attribute=attribute))
    if layer.id is not None and parse_uint(layer.id) is None:
        report(_id_syntax(where, "layer id", layer.id))
    elif layer.id is not None:
        earlier = graph.layers[id_key(layer.id)]  # the first layer with this id
        if earlier is not layer:
            report(rules.LAYER_ID_DUPLICATE(where, id=layer.id, first_line=earlier.line))


def _id_syntax(where: Location, what: str, text: str | None) -> Diagnostic:
    if text is None:
        return rules.ID_SYNTAX(
            where, what=what, problem="is missing", ov_message="is missing mandatory attribute"
        )
    value = text.strip()
    ov_message = (
        f'has attribute ... = "{text}" which is not an unsigned 64 bit integer'
        if re.fullmatch(r"[+-]?\d+.*", value)
        else "stoll"
    )
    return rules.ID_SYNTAX(
        where, what=what, problem=f"{text!r} is not an unsigned integer", ov_message=ov_message
    )


def check_precisions(graph: Graph, report: Report) -> None:
    """IRS405: every output port's precision, in every layer (OpenVINO parses them all)."""
    for layer in graph.suspects.precisions:
        for port in layer.outputs:
            if element_types.from_precision(port.precision) is not None:
                continue
            where = graph.where(layer).at_line(port.line)
            if port.precision is None:
                report(
                    rules.PRECISION_INVALID(
                        where,
                        port=port.id,
                        problem="is missing",
                        ov_message="node <port> is missing mandatory attribute: precision",
                        hint="",
                    )
                )
                continue
            report(
                rules.PRECISION_INVALID(
                    where,
                    port=port.id,
                    problem=f"{port.precision!r} is not a precision name",
                    ov_message=f"Unsupported element type: {port.precision}",
                    hint=_precision_hint(port.precision),
                )
            )


def _legacy_name(element_type: str) -> str | None:
    return next((k for k, v in element_types.LEGACY_PRECISIONS.items() if v == element_type), None)


def _precision_hint(text: str) -> str:
    """Suggest the spelling meant: 'F32' and 'fp32' are neither a precision nor accepted."""
    meant = element_types.from_element_type(text) or element_types.from_precision(text.upper())
    if meant is None:
        return ""
    legacy = _legacy_name(meant)
    return f"; write {legacy} or {meant}" if legacy else f"; write {meant}"


# --- opsets -------------------------------------------------------------------------------


def check_opsets(graph: Graph, report: Report) -> None:
    """IRS403 and IRS404: the op type and its opset, as OpenVINO resolves them."""
    for layer in graph.document.layers:
        if layer.type is not None and layer.version is not None and not _in_opset(layer.type, layer.version):
            _check_opset(layer, graph.where(layer), report)


def _in_opset(op_type: str, version: str) -> bool:
    """Does OpenVINO find ``op_type`` in opset ``version``? (_check_opset says why not.)"""
    return opsets.op_version(op_type, version) is not None


def _check_opset(layer: Layer, where: Location, report: Report) -> None:
    op_type, version = layer.type or "", layer.version or ""
    translated = opsets.TRANSLATED.get(op_type, op_type)
    number = opsets.opset_number(opsets.effective_version(op_type, version))
    unsupported = (
        f"Cannot create {op_type} layer {layer.name} id:{layer.id} from unsupported opset: {version}"
    )
    missing = f"Opset {version} doesn't contain the operation with type: {translated}"
    held = opsets.opsets_of(op_type)
    if not held:
        # An extension registers its ops under an opset name of its own; OpenVINO's opsets (and
        # a blank version) have no room for one: the file fails.
        own_opset = number is None and version.strip() != ""
        report(
            rules.OP_TYPE_UNKNOWN(
                where,
                type=op_type,
                ov_message=missing if number else unsupported,
                unless=" unless an extension registers the op" if own_opset else "",
                severity=rules.INFO if own_opset else None,
            )
        )
    elif number is None:
        report(
            rules.OPSET_UNSUPPORTED(
                where, version=version, problem=_unknown_opset_problem(version), ov_message=unsupported
            )
        )
    elif number not in held:
        problem = f"has no {op_type} (OpenVINO has it in {_describe_opsets(held)})"
        report(rules.OPSET_UNSUPPORTED(where, version=version, problem=problem, ov_message=missing))


def _unknown_opset_problem(version: str) -> str:
    problem = f"is not an opset OpenVINO has (opset1 ... opset{MAX_OPSET})"
    if opsets.opset_number(version.strip().lower()) is not None:
        problem += f"; the name is matched exactly, write {version.strip().lower()!r}"
    return problem


def _describe_opsets(opsets: frozenset[int]) -> str:
    spans: list[list[int]] = []
    for n in sorted(opsets):
        if spans and spans[-1][1] == n - 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"opset{a}" if a == b else f"opset{a} to opset{b}" for a, b in spans)


# --- edges --------------------------------------------------------------------------------


def _edge_label(edge: Edge) -> str:
    return f"{edge.from_layer}:{edge.from_port} -> {edge.to_layer}:{edge.to_port}"


def _edge_where(graph: Graph, edge: Edge) -> Location:
    """An edge's finding belongs to its consumer (OpenVINO fails while building it)."""
    producer, consumer = graph.edge_ends(edge)
    owner = consumer or producer
    where = graph.where(owner) if owner is not None else Location(graph.document.path)
    return where.at_line(edge.line)


def check_edges(graph: Graph, report: Report) -> None:
    """IRS402, IRS406, IRS407, IRS408: each edge's ids, layers and ports, and one edge a port."""
    first_into: dict[int, Edge] = {}  # by id(input port): an edge that passes names its port
    edges = graph.document.edges
    all_ids = _all_read_ids(chain.from_iterable(map(_EDGE_IDS, edges)))
    # The usual file: every id reads and the index saw no two edges into one input port, so an
    # edge can only have an end not found to report.
    shared = not all_ids or graph.shared_inputs
    for edge, (_, _, out_port, in_port) in zip(edges, graph.ends, strict=True):
        valid = (
            in_port is not None
            and out_port is not None
            and (all_ids or all(is_id(text) for text in _EDGE_IDS(edge)))
        )  # the common case: nothing to report but a duplicate, no Location built
        if not valid and not _check_edge(graph, edge, report):
            continue
        if not shared:
            continue
        earlier = first_into.setdefault(id(in_port), edge)
        if earlier is not edge:
            report(
                rules.EDGE_DUPLICATE_INPUT(
                    _edge_where(graph, edge),
                    edge=_edge_label(edge),
                    port=edge.to_port,
                    first_line=earlier.line,
                )
            )


_EDGE_IDS = attrgetter("from_layer", "from_port", "to_layer", "to_port")


def _check_edge(graph: Graph, edge: Edge, report: Report) -> bool:
    """Report what is wrong with the edge's ids, layers and ports; True if nothing is."""
    where = _edge_where(graph, edge)
    return (
        _edge_ids_valid(edge, where, report)
        and _edge_layers_exist(graph, edge, where, report)
        and _edge_ports_exist(graph, edge, where, report)
    )


def _edge_ids_valid(edge: Edge, where: Location, report: Report) -> bool:
    valid = True
    for attribute in ("from-layer", "from-port", "to-layer", "to-port"):
        text = getattr(edge, attribute.replace("-", "_"))
        if parse_uint(text) is None:
            report(_id_syntax(where, f"edge {attribute}", text or None))
            valid = False
    return valid


def _edge_layers_exist(graph: Graph, edge: Edge, where: Location, report: Report) -> bool:
    producer, consumer = graph.edge_ends(edge)
    if consumer is None:
        report(
            rules.EDGE_LAYER_MISSING(
                where,
                severity=rules.WARNING,
                edge=_edge_label(edge),
                id=edge.to_layer,
                consequence="OpenVINO silently ignores the edge",
            )
        )
    if producer is None:
        # OpenVINO builds an empty stand-in for the missing layer, hence its odd message.
        consequence = "OpenVINO rejects the file ('Cannot create  layer  id:0 from unsupported opset: ')"
        label = _edge_label(edge)
        report(rules.EDGE_LAYER_MISSING(where, edge=label, id=edge.from_layer, consequence=consequence))
    return producer is not None and consumer is not None


def _edge_ports_exist(graph: Graph, edge: Edge, where: Location, report: Report) -> bool:
    producer, consumer = graph.edge_ends(edge)
    assert producer is not None and consumer is not None
    found = True
    for layer, ports, port_id, direction in (
        (consumer, consumer.inputs, edge.to_port, "input"),
        (producer, producer.outputs, edge.from_port, "output"),
    ):
        if find_port(ports, id_key(port_id)) is None:
            found = False
            report(
                rules.EDGE_PORT_MISSING(
                    where,
                    edge=_edge_label(edge),
                    layer=layer_label(layer),
                    direction=direction,
                    port_id=port_id,
                    layer_name=layer.name,
                )
            )
    return found


def check_unconnected(graph: Graph, report: Report) -> None:
    """IRS409: declared input ports no edge feeds; what OpenVINO does depends on the IR version."""
    for layer in graph.suspects.unfed:
        fed = _fed_inputs(graph, layer)
        # An edge to a port id the layer lacks (IRS407) was meant for one of its unfed ports.
        excused = graph.misdirected.get(graph.key(layer), 0)
        for index, port in enumerate(layer.inputs):
            if fed[index]:
                continue
            if excused:
                excused -= 1
                continue
            consequence, severity = _unconnected_consequence(graph.document.version, layer, fed, index)
            report(
                rules.INPUT_UNCONNECTED(
                    graph.where(layer).at_line(port.line),
                    port=port.id,
                    consequence=consequence,
                    severity=severity,
                )
            )


def _fed_inputs(graph: Graph, layer: Layer) -> list[bool]:
    """For each input port of ``layer``: does an edge feed it?"""
    fed = graph.fed
    return [id(port) in fed for port in layer.inputs]


def _unconnected_consequence(
    version: int | None, layer: Layer, fed: list[bool], index: int
) -> tuple[str, Severity]:
    if version != 10:
        return "OpenVINO (IR v11) rejects the file when it builds the layer ('... out of range')", rules.ERROR
    connected = sum(fed)
    if any(fed[index + 1 :]):
        message = f"{layer.type} layer {layer.name} with id: {layer.id} is inconsistent!"
        return f"OpenVINO (IR v10) rejects the file ('{message}')", rules.ERROR
    schema = lookup(layer.type, layer.version)
    required = schema.input_counts[0] if schema is not None else (1 if layer.type == "Result" else 0)
    if connected < required:
        return (
            f"OpenVINO (IR v10) builds the layer with only {connected} input(s) and rejects it",
            rules.ERROR,
        )
    if schema is not None:
        return (
            "OpenVINO (IR v10) silently drops this input and builds the layer without it",
            rules.WARNING,
        )
    return (
        f"OpenVINO (IR v10) builds the layer with only its {connected} connected input(s); "
        "whether the op accepts that is not checked",
        rules.WARNING,
    )


def v10_dropped_inputs(graph: Graph, layer: Layer, schema: OpSchema) -> int:
    """How many trailing optional inputs IR v10 silently drops from a known op (IRS409)."""
    if graph.document.version != 10:
        return 0
    fed = _fed_inputs(graph, layer)
    dropped = 0
    while fed and not fed[-1] and len(fed) > schema.input_counts[0]:
        fed.pop()
        dropped += 1
    return dropped


def check_edge_precisions(graph: Graph, report: Report) -> None:
    """IRS412: an input port's precision against the precision of the port feeding it."""
    sources = graph.sources
    for layer in graph.suspects.edge_precisions:
        for port in layer.inputs:
            source = sources.get(id(port))
            if source is None or source[1].precision == port.precision:
                continue
            producer, out_port = source
            declared = element_types.from_precision(port.precision)
            produced = element_types.from_precision(out_port.precision)
            if declared is None or produced is None or _same_type(declared, produced):
                continue
            if _element_type_of(producer) == declared:
                continue  # the producer's precision contradicts its element_type: IRS415 there
            report(
                rules.EDGE_PRECISION_MISMATCH(
                    graph.where(layer).at_line(port.line),
                    port=port.id,
                    declared=port.precision,
                    produced=out_port.precision,
                    producer=layer_label(producer),
                    from_port=out_port.id,
                )
            )


def _element_type_of(layer: Layer) -> str | None:
    """A Parameter's or Const's element_type, which OpenVINO uses instead of the precision."""
    if (layer.type or "").lower() not in ("parameter", "const"):
        return None
    return element_types.from_element_type(layer.data.get("element_type"))


def _same_type(a: str, b: str) -> bool:
    return _DYNAMIC_ALIAS.get(a, a) == _DYNAMIC_ALIAS.get(b, b)


_DYNAMIC_ALIAS = {"undefined": "dynamic"}


# --- cycles and reachability -----------------------------------------------------------------


def check_cycles(graph: Graph, report: Report) -> None:
    """IRS410: one finding per cycle (strongly connected component), at its first layer."""
    if graph.in_order:
        return
    keys = graph.keys
    order = {keys[id(layer)]: i for i, layer in enumerate(graph.document.layers)}
    if _flows_forward(graph, order):
        return
    for component in _strongly_connected(graph):
        head = graph.layers[min(component, key=lambda k: order.get(k, 0))]
        members = sorted(component, key=lambda k: order.get(k, 0))
        names = [layer_label(graph.layers[k]) for k in members]
        finding = rules.GRAPH_CYCLE(graph.where(head), names=_names(names), related=tuple(names[1:]))
        if not any(graph.is_built(graph.layers[k]) for k in members):
            # OpenVINO walks from the Results only: a cycle none of them reaches is never seen.
            note = " were a Result to reach it; none does, so OpenVINO never builds it and reads the file"
            finding = finding.replace(message=finding.message + note, severity=Severity.WARNING)
        report(finding)


def _flows_forward(graph: Graph, order: dict[str, int]) -> bool:
    """Does every edge go to a layer later in ``order``? Then there is no cycle (the usual case:
    writers list layers in graph order), and Tarjan's algorithm need not run."""
    layers = graph.layers
    for consumer, producers in graph.producers.items():
        if consumer not in layers:
            continue
        at = order[consumer]
        for producer in producers:
            if producer in layers and order[producer] >= at:
                return False
    return True


def _strongly_connected(graph: Graph) -> Iterator[set[str]]:
    """Tarjan's algorithm, iteratively; yields the components that are cycles."""
    succ: dict[str, list[str]] = defaultdict(list)
    for consumer, producers in graph.producers.items():
        for producer in producers:
            if producer in graph.layers and consumer in graph.layers:
                succ[producer].append(consumer)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    for start in graph.layers:
        if start in index:
            continue
        work = [(start, iter(succ[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = _pop_component(stack, on_stack, node)
                    if len(component) > 1 or node in succ[node]:
                        yield component
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(succ[child])))
            elif child in on_stack:
                low[node] = min(low[node], index[child])


def _pop_component(stack: list[str], on_stack: set[str], root: str) -> set[str]:
    component: set[str] = set()
    while True:
        node = stack.pop()
        on_stack.discard(node)
        component.add(node)
        if node == root:
            return component


def check_reachability(graph: Graph, report: Report) -> None:
    """IRS421 per group of connected unreachable layers (IRS422 when there is no Result)."""
    layers = graph.document.layers
    if not ROOT_TYPES & graph.types:
        others = [layer for layer in layers if layer.type != "Parameter"]
        unbuilt = f" and never builds or validates its {len(others)} other layer(s)" if others else ""
        misspelt = next((x.type for x in layers if (x.type or "").lower() in ("result", "assign")), None)
        if misspelt is not None:
            unbuilt += f" (OpenVINO matches the type exactly: {misspelt!r} is not 'Result' or 'Assign')"
        report(rules.NO_RESULT(Location(graph.document.path, graph.document.line), unbuilt=unbuilt))
        return
    keys, built = graph.keys, graph.built
    if built.issuperset(graph.layers):  # the usual case, in one pass in C
        return
    dead = [
        layer
        for layer in layers
        if keys[id(layer)] not in built  # first: nearly every layer is built
        and parse_uint(layer.id) is not None
        and graph.layers.get(keys[id(layer)]) is layer
    ]
    dead_keys = {graph.key(layer) for layer in dead}
    feeding = {p for c, ps in graph.producers.items() if c in dead_keys for p in ps if p in dead_keys}
    for group in _components(graph, dead):
        _report_unreachable(graph, group, feeding, report)


def _components(graph: Graph, dead: list[Layer]) -> list[list[Layer]]:
    """The unreachable layers grouped by the edges between them, in file order."""
    parent = {graph.key(layer): graph.key(layer) for layer in dead}

    def find(k: str) -> str:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for consumer, producers in graph.producers.items():
        for producer in producers:
            if consumer in parent and producer in parent:
                parent[find(consumer)] = find(producer)
    groups: dict[str, list[Layer]] = defaultdict(list)
    for layer in dead:
        groups[find(graph.key(layer))].append(layer)
    return list(groups.values())


def _report_unreachable(graph: Graph, group: list[Layer], feeding: set[str], report: Report) -> None:
    # Point at the dangling end: the first layer whose output no other dead layer consumes.
    sink = next((layer for layer in group if graph.key(layer) not in feeding), group[0])
    names = [layer_label(layer) for layer in group]
    many = len(group) > 1
    report(
        rules.UNREACHABLE_LAYER(
            graph.where(sink),
            what=f"this layer or the {len(group) - 1} layer(s) connected to it" if many else "this layer",
            them="any of them" if many else "it",
            names=f": {_names(names)}" if many else "",
            related=tuple(name for name in names if name != layer_label(sink)),
        )
    )


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:_NAMES_SHOWN])
    return shown + (f" and {len(names) - _NAMES_SHOWN} more" if len(names) > _NAMES_SHOWN else "")


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


def _static_shape(dims: tuple[int, ...]) -> PartialShape:
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


def _text(port: Port) -> str:
    shape = declared_shape(port)
    return "no dims" if shape is None else str(shape)


def edge_dims_mismatch(
    layer: Layer,
    port: Port,
    producer: Layer,
    out_port: Port,
    truth: PartialShape,
    guess: str | None,
    where: Location,
) -> Diagnostic:
    """IRS411; ``guess`` says why ``truth`` is not what OpenVINO feeds the port (None: it is)."""
    if guess is None:
        consequence = f"OpenVINO ignores declared input dims and feeds the layer {truth}"
    else:
        consequence = f"at least one of the two is wrong, and irshape cannot tell which: {guess}"
    return rules.EDGE_DIMS_MISMATCH(
        where.at_line(port.line),
        port=port.id,
        declared=_text(port),
        produced=_text(out_port),
        producer=layer_label(producer),
        from_port=out_port.id,
        consequence=consequence,
    )


def declared_tensor(port: Port) -> TensorInfo:
    """A tensor as its port declares it: -1 dims are dynamic; the precision names the type."""
    shape = declared_shape(port)
    return TensorInfo(shape or PartialShape(None), element_types.from_precision(port.precision))


# --- Parameter ------------------------------------------------------------------------------


def parameter_tensor(
    layer: Layer, where: Location, report: Report, ir_version: int | None = None
) -> TensorInfo:
    """The Parameter's tensor as OpenVINO reads it: shape and element_type from <data>."""
    if not layer.has_data:
        report(
            rules.DATA_MISSING(
                where,
                layer_type="Parameter",
                ov_message=f"Layer data must be defined for: opset1::Parameter {layer.name} ...",
            )
        )
        return _fallback(layer)
    at = where.at_line(layer.data_line)
    element_type = _parameter_element_type(layer, at, report)
    written = "element_type" in layer.data  # a missing one is reported once, as IRS417
    text = layer.data.get("shape")
    if text is None:
        report(rules.PARAMETER_ATTRIBUTE_MISSING(at, attribute="shape", meaning="a scalar (rank 0)"))
        return TensorInfo(PartialShape([]), element_type)
    try:
        shape = parse_partial_shape(text)
    except DimSyntaxError as exc:
        report(rules.SHAPE_SYNTAX(at, layer_type="Parameter", attribute="shape", text=text, reason=str(exc)))
        return _fallback(layer)
    _report_surprising_literals(text, at, report, v10=ir_version == 10)
    compare_shape_attribute(layer, text, shape, at, report)
    compare_precision(layer, element_type if written else None, at, report)
    return TensorInfo(shape, element_type)


def _report_surprising_literals(text: str, where: Location, report: Report, *, v10: bool = False) -> None:
    """IRS011: dims that OpenVINO's parser clips or empties instead of rejecting. IR v10 fails
    on an empty interval (its Parameter is rebuilt with the shape, which then differs)."""
    body = text.strip(C_SPACE).strip("[]").strip(C_SPACE)
    if body in ("", "..."):  # a scalar, a dynamic rank: no dims
        return
    for literal in body.split(","):
        reading = literal_reading(literal)
        if reading is None:
            continue
        severity = None
        if v10 and parse_dim(literal).is_empty:
            severity = Severity.ERROR
            reading += (
                "; IR v10 rejects the file ('Resulting shape ... after preprocessing is not aligned "
                "with original parameter's shape')"
            )
        literal = literal.strip(C_SPACE)
        report(rules.SHAPE_LITERAL(where, text=text, literal=literal, reading=reading, severity=severity))


def _fallback(layer: Layer) -> TensorInfo:
    """What flows on when OpenVINO would fail: the declared port, so nothing cascades."""
    return declared_tensor(layer.outputs[0]) if layer.outputs else TensorInfo(PartialShape(None))


def _parameter_element_type(layer: Layer, where: Location, report: Report) -> str | None:
    text = layer.data.get("element_type")
    if text is None:
        meaning = "dynamic-typed (the port precision is not used)"
        report(rules.PARAMETER_ATTRIBUTE_MISSING(where, attribute="element_type", meaning=meaning))
        return "dynamic"
    element_type = element_types.from_element_type(text)
    if element_type is None:
        report(
            rules.ELEMENT_TYPE_INVALID(
                where,
                layer_type="Parameter",
                text=text,
                ov_message=f'"{text}" is not a member of enum element::Type_t',
                hint=_element_type_hint(text),
            )
        )
    return element_type


def _element_type_hint(text: str) -> str:
    meant = element_types.from_precision(text) or element_types.from_element_type(text.strip())
    return f"; write {meant}" if meant else ""


def compare_shape_attribute(
    layer: Layer, text: str, shape: PartialShape, where: Location, report: Report
) -> None:
    """IRS416: the shape attribute OpenVINO uses against the port dims it ignores."""
    if not layer.outputs:
        return
    port = layer.outputs[0]
    if fits(port, shape):
        return
    report(
        rules.SHAPE_ATTRIBUTE_MISMATCH(
            where,
            port=port.id,
            layer_type=layer.type,
            text=text,
            shape=shape,
            declared=_text(port),
            expected=str(shape),
        )
    )


def compare_precision(layer: Layer, element_type: str | None, where: Location, report: Report) -> None:
    """IRS415: element_type (used) against the port precision (ignored)."""
    if element_type is None or not layer.outputs:
        return
    port = layer.outputs[0]
    named = element_types.from_precision(port.precision)
    if named is None or _same_type(named, element_type):
        return
    report(
        rules.ELEMENT_TYPE_PRECISION_MISMATCH(
            where, port=port.id, element_type=element_type, precision=port.precision, named=named
        )
    )


# --- Const and the .bin -----------------------------------------------------------------------


class _ConstData(Record):  # made once a Const
    __slots__ = ("element_type", "offset", "shape", "size")
    element_type: str | None
    shape: tuple[int, ...] | None
    offset: int | None
    size: int | None

    def __init__(
        self, element_type: str | None, shape: tuple[int, ...] | None, offset: int | None, size: int | None
    ) -> None:
        self.element_type = element_type
        self.shape = shape
        self.offset = offset
        self.size = size


# A model repeats a few Const types and shapes. A Const check that reports nothing depends, but
# for the offset and size, on its element_type and shape texts and its output port: its tensor
# is kept and shared (never modified) by the Consts that repeat them with an offset and size
# that read and fit. Not for the Consts whose value is read. Bounded like the convolution memo.
_CLEAN_CONSTS: dict[tuple[object, ...], tuple[TensorInfo, int]] = {}  # -> (tensor, bytes needed)
_CLEAN_CONSTS_MAX = 4096
_CONST_KEY_TEXT_MAX = 512


def const_tensor(layer: Layer, path: str, weights: Weights, report: Report) -> TensorInfo:
    """The Const's tensor as OpenVINO reads it, with every check of its <data> and bytes
    (``path``: the document's, for findings)."""
    key = _const_key(layer)
    hit = _CLEAN_CONSTS.get(key) if key is not None else None
    if hit is not None and _bytes_fit(layer, hit[1], weights):
        return hit[0]
    found: list[Diagnostic] = []
    info = _const_tensor(layer, layer.location(path), weights, found.append)
    for diagnostic in found:
        report(diagnostic)
    if (
        key is not None
        and not found
        and info.value is None
        and info.reals is None
        and info.value_unknown is None
    ):
        if len(_CLEAN_CONSTS) >= _CLEAN_CONSTS_MAX:
            _CLEAN_CONSTS.clear()
        assert info.element_type is not None and info.shape.lengths is not None  # checked clean
        needed = bytes_needed(info.element_type, element_count(info.shape.lengths))
        _CLEAN_CONSTS[key] = (info, needed or 0)
    return info


def _const_key(layer: Layer) -> tuple[object, ...] | None:
    """What a clean Const check reads but the offset and size (None: not kept)."""
    if not layer.has_data or not layer.outputs:
        return None
    element_type, shape = layer.data.get("element_type"), layer.data.get("shape")
    if element_type is None or shape is None or len(shape) + len(element_type) > _CONST_KEY_TEXT_MAX:
        return None
    port = layer.outputs[0]
    return element_type, shape, port.dims, port.precision


def _bytes_fit(layer: Layer, needed: int, weights: Weights) -> bool:
    """Do the Const's offset and size read, hold ``needed`` bytes and lie inside the .bin?"""
    offset, size = parse_uint(layer.data.get("offset")), parse_uint(layer.data.get("size"))
    return (
        offset is not None and size is not None and size >= needed and not _beyond_bin(offset, size, weights)
    )


def _const_tensor(layer: Layer, where: Location, weights: Weights, report: Report) -> TensorInfo:
    if not layer.has_data:
        ov_message = "No attrtibutes defined for Const op!"  # sic, OpenVINO's spelling
        report(rules.DATA_MISSING(where, layer_type="Const", ov_message=ov_message))
        return _fallback(layer)
    at = where.at_line(layer.data_line)
    errors_before = _ErrorCount(report)
    const = _ConstData(
        _const_element_type(layer, at, errors_before),
        _const_shape(layer, at, errors_before),
        _const_uint(layer, "offset", at, errors_before),
        _const_uint(layer, "size", at, errors_before),
    )
    _check_const_size(const, at, errors_before)
    _check_const_bounds(const, weights, at, errors_before)
    if const.shape is None:
        return _fallback(layer)
    info = TensorInfo(_static_shape(const.shape), const.element_type)
    compare_shape_attribute(layer, layer.data.get("shape", ""), info.shape, at, report)
    compare_precision(layer, const.element_type, at, report)
    _read_value(const, weights, info)
    # Why the value is unknown is already said: by this Const's error, or once for the .bin.
    info.value_reported = info.value_unknown is not None and (
        errors_before.count > 0 or weights.unavailable_reason() is not None
    )
    return info


class _ErrorCount:
    """A report that counts the errors passing through it."""

    __slots__ = ("count", "report")

    def __init__(self, report: Report) -> None:
        self.report, self.count = report, 0

    def __call__(self, diagnostic: Diagnostic) -> None:
        self.count += diagnostic.severity is Severity.ERROR
        self.report(diagnostic)


def _const_element_type(layer: Layer, where: Location, report: Report) -> str | None:
    text = layer.data.get("element_type")
    if text is None:
        report(
            rules.CONST_ATTRIBUTE(
                where,
                attribute="element_type",
                problem="is missing",
                ov_message="Missing attribute 'element_type' for Const",
            )
        )
        return None
    # A Const's type passes two parsers: the enum (any case) and element::Type(string), the
    # precision vocabulary; only names both accept work ('f32', 'I64', but not 'F32' or 'FP32').
    as_enum = element_types.from_element_type(text)
    as_precision = element_types.from_precision(text)
    if as_enum is not None and as_precision is not None:
        return as_enum
    ov_message = (
        f'"{text}" is not a member of enum element::Type_t'
        if as_enum is None
        else f"Unsupported element type: {text}"
    )
    hint = f"; write {as_enum or as_precision}" if (as_enum or as_precision) else ""
    report(rules.ELEMENT_TYPE_INVALID(where, layer_type="Const", text=text, ov_message=ov_message, hint=hint))
    return None


def _const_shape(layer: Layer, where: Location, report: Report) -> tuple[int, ...] | None:
    text = layer.data.get("shape")
    if text is None:
        ov_message = "Missing attribute 'shape' for Const"
        report(rules.CONST_ATTRIBUTE(where, attribute="shape", problem="is missing", ov_message=ov_message))
        return None
    try:
        values = parse_int_list(text).values
    except ListSyntaxError as exc:
        report(rules.SHAPE_SYNTAX(where, layer_type="Const", attribute="shape", text=text, reason=str(exc)))
        return None
    if any(v < 0 for v in values):
        report(
            rules.CONST_ATTRIBUTE(
                where,
                attribute="shape",
                problem=f"{text!r} has a negative dim, which OpenVINO reads as 2^64-1",
                ov_message="Attribute and shape size are inconsistent for Const op!",
            )
        )
        return None
    return values


def _const_uint(layer: Layer, attribute: str, where: Location, report: Report) -> int | None:
    text = layer.data.get(attribute)
    value = parse_uint(text)
    if value is not None:
        return value
    if text is None:
        problem, ov_message = "is missing", f"node <data> is missing mandatory attribute: {attribute}"
    else:
        problem = f"{text!r} is not an unsigned integer"
        ov_message = (
            f'node <data> has attribute "{attribute}" = "{text}" which is not an unsigned 64 bit integer'
        )
    report(rules.CONST_ATTRIBUTE(where, attribute=attribute, problem=problem, ov_message=ov_message))
    return None


def _check_const_size(const: _ConstData, where: Location, report: Report) -> None:
    """IRS419: ``size`` against ``ceil(elements * bits / 8)`` (sub-byte types packed)."""
    if const.element_type is None or const.shape is None or const.size is None:
        return
    count = element_count(const.shape)
    needed = bytes_needed(const.element_type, count)
    if needed is None or const.size >= needed:
        return
    bits = element_types.BITS[const.element_type]
    packing = "" if bits >= 8 else f", bit-packed: {8 / bits:g} element(s) a byte"
    report(
        rules.CONST_SIZE_TOO_SMALL(
            where,
            size=const.size,
            shape=list(const.shape),
            element_type=const.element_type,
            needed=needed,
            count=count,
            bits=bits,
            packing=packing,
            declared=const.size,
            expected=needed,
        )
    )


def _check_const_bounds(const: _ConstData, weights: Weights, where: Location, report: Report) -> None:
    """IRS420: ``offset + size`` inside the .bin (a missing .bin is one finding for the file)."""
    if const.offset is None or const.size is None or not _beyond_bin(const.offset, const.size, weights):
        return
    assert weights.path is not None  # (a .bin is there)
    end = const.offset + const.size
    report(
        rules.CONST_OUT_OF_BIN(
            where, offset=const.offset, end=end, bin=weights.path.name, bin_size=weights.size
        )
    )


def _beyond_bin(offset: int, size: int, weights: Weights) -> bool:
    """Does ``offset + size`` pass the end of a .bin that is there?"""
    return weights.path is not None and bool(weights.size) and offset + size > (weights.size or 0)


def _read_value(const: _ConstData, weights: Weights, info: TensorInfo) -> None:
    """Small integer Consts (shapes, axes, indices, pads: the values shape functions read): read
    their value, flattened in C order."""
    shape, element_type = const.shape, const.element_type
    if shape is None or element_type is None:
        return
    count = math.prod(shape)
    real = element_type in _REAL_TYPES
    if count > _CONST_VALUE_LIMIT or (
        len(shape) != 1 and element_type not in element_types.INTEGRAL and not real
    ):
        return  # (a 1D Const of another type says why it has no value: an output_shape input)
    if const.offset is None or const.size is None:
        info.value_unknown = "the Const's offset or size cannot be read"
        return
    try:
        if real:
            info.reals = weights.read_reals(element_type, count, const.offset, const.size)
        else:
            info.value = weights.read_integers(element_type, count, const.offset, const.size)
    except WeightsError as exc:
        info.value_unknown = str(exc)
