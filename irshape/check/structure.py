"""Whole-model structural checks of a ``<net>`` (rules §8): every fault, each once, with its line.

OpenVINO's reader stops at the first fault and names it by byte offset. These checks look at
the whole file: layer ids and mandatory attributes, opsets, output precisions, edges and ports,
unconnected inputs, cycles, and which layers OpenVINO never builds because no Result reaches
them. Each check is a small function over the :class:`~irshape.check.graph.Graph` that reports
through ``report``.

The walk imports this module only for a file whose index leaves something to look at
(:attr:`Graph.plain <irshape.check.graph.Graph.plain>` is false), or for
:func:`v10_dropped_inputs` (a layer with more input ports than its op takes): the usual file,
every id and edge plain, has nothing here to run, and its start-up does not read these checks.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from itertools import chain, compress, repeat
from operator import attrgetter, eq

from irshape import rules
from irshape.check.graph import (
    CONTROL_TYPES,
    ROOT_TYPES,
    Graph,
    all_read_ids,
    find_port,
    id_key,
    is_id,
    layer_label,
)
from irshape.diagnostics import Diagnostic, Location, Severity
from irshape.ir import element_types
from irshape.ir.model import Edge, Layer
from irshape.ir.values import parse_uint
from irshape.ops import opsets
from irshape.ops.opset_table import MAX_OPSET
from irshape.ops.registry import lookup
from irshape.ops.schema import OpSchema

Report = Callable[[Diagnostic], None]

_NAMES_SHOWN = 8


# --- layers: ids, mandatory attributes, duplicates, precisions -----------------------------


def check_layer_attributes(graph: Graph, report: Report) -> None:
    """IRS007, IRS402 and IRS401: what OpenVINO reads from every <layer> before building."""
    for layer in graph.suspects.attributes:
        if layer.name is None or layer.type is None or layer.version is None or not is_id(layer.id):
            _check_layer_id(graph, layer, report)
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


def check_duplicate_ids(graph: Graph, report: Report) -> None:
    """IRS401 at each layer a later one with its id replaces: OpenVINO keeps the last layer of
    an id, so this one is never built (a warning). But where it is a Parameter, OpenVINO builds
    the kept layer in its place, first of all: fed by a layer built after it, that fails
    (docs/openvino-ir-reading.md §3)."""
    if not graph.lost:
        return
    key_of = graph.key
    parameters: list[str] = []  # the ids OpenVINO builds first, in file order
    for layer in graph.document.layers:
        if layer.type == "Parameter" and layer.id is not None and key_of(layer) not in parameters:
            parameters.append(key_of(layer))
    for layer in graph.lost:
        key = key_of(layer)
        kept = graph.layers[key]
        consequence = f"this one is never built, and edges naming {layer.id} reach that one"
        severity = None
        if layer.type == "Parameter" and key in parameters:
            built_before = set(parameters[: parameters.index(key)])
            missing = next((p for p in graph.producers.get(key, ()) if p not in built_before), None)
            if missing is not None:
                consequence = (
                    "OpenVINO builds that one in this Parameter's place, before the layers that feed "
                    f"it, and rejects the file ('Attempt to access node {missing} that not in graph.')"
                )
                severity = rules.ERROR
        report(
            rules.LAYER_ID_DUPLICATE(
                graph.where(layer),
                id=layer.id,
                kept_line=kept.line,
                consequence=consequence,
                severity=severity,
            )
        )


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
    faulty = graph.unresolved_ops
    if not faulty:
        return
    for layer in graph.document.layers:
        if (layer.type, layer.version) in faulty:
            _check_opset(layer, graph.where(layer), report)


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
    if graph.edges_plain:  # the usual file: every edge resolved to its ports, by plain ids
        return
    first_into: dict[int, Edge] = {}  # by id(input port): an edge that passes names its port
    edges = graph.document.edges
    all_ids = all_read_ids(chain.from_iterable(map(_EDGE_IDS, edges)))
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


def check_parameter_inputs(graph: Graph, report: Report) -> None:
    """IRS201 for a Parameter an edge feeds: OpenVINO builds every Parameter first, whatever
    reaches it, and fails on its input ('Attempt to access node 1 that not in graph.',
    docs/openvino-ir-reading.md §11). Likewise a layer typed 'Constant' in IR v11 ('node index
    is out of range'; IR v10 drops the inputs, §13)."""
    v11 = graph.document.version == 11
    # An edge reaches a layer only through an input port it declares: the usual file has none.
    typed = {"Parameter", "Constant"} if v11 else {"Parameter"}
    typed_layers = compress(graph.document.layers, map(typed.__contains__, graph.layer_types))
    suspects = {graph.key(layer) for layer in typed_layers if layer.inputs}
    if not suspects:
        return
    fed: dict[str, int] = defaultdict(int)
    for _, consumer in graph.links:
        if consumer in suspects:
            fed[consumer] += 1
    for key, count in fed.items():
        layer = graph.layers.get(key)
        if layer is not None and layer.type in typed:
            message = (
                "node index is out of range"
                if layer.type == "Constant"
                else "Attempt to access node ... that not in graph."
            )
            report(
                rules.INPUT_COUNT(
                    graph.where(layer),
                    op=layer.type,
                    expected_count="0",
                    count=count,
                    consequence=f"; OpenVINO rejects the file ('{message}')",
                )
            )


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
    v11_rejects = (
        "OpenVINO (IR v11) rejects the file when it builds the layer ('node index is out of range')",
        rules.ERROR,
    )
    schema = lookup(layer.type, layer.version)
    if version != 10 and (version != 11 or any(fed[index + 1 :]) or not _defaulted(schema, index, len(fed))):
        return v11_rejects
    connected = sum(fed)
    if any(fed[index + 1 :]):
        message = f"{layer.type} layer {layer.name} with id: {layer.id} is inconsistent!"
        return f"OpenVINO (IR v10) rejects the file ('{message}')", rules.ERROR
    required = schema.input_counts[0] if schema is not None else (1 if layer.type == "Result" else 0)
    if connected < required:
        if version != 10:
            return v11_rejects
        return (
            f"OpenVINO (IR v10) builds the layer with only {connected} input(s) and rejects it",
            rules.ERROR,
        )
    if schema is not None:
        return (
            f"OpenVINO (IR v{version}) silently drops this input and builds the layer without it",
            rules.WARNING,
        )
    if version != 10:
        return v11_rejects
    return (
        f"OpenVINO (IR v10) builds the layer with only its {connected} connected input(s); "
        "whether the op accepts that is not checked",
        rules.WARNING,
    )


def _defaulted(schema: OpSchema | None, first: int, count: int) -> bool:
    """IR v11 reads a layer whose ports ``first`` .. ``count - 1`` have no edge only where the
    op gives each of those inputs a default of its own (``default = true`` in the declaration:
    Slice's axes, StridedSlice's strides, Pad's pad_value): OpenVINO then visits an input for
    every port. Elsewhere the op has fewer inputs than the layer has ports: 'node index is out
    of range' (docs/openvino-ir-reading.md §11)."""
    if schema is None or count > len(schema.inputs):
        return False
    return all(spec.optional and spec.default for spec in schema.inputs[first:count])


def v10_dropped_inputs(graph: Graph, layer: Layer, schema: OpSchema) -> int:
    """How many trailing inputs IR v10 silently drops from a known op: unconnected optional
    ones (IRS409), and connected ones past the most the op takes where the op does not count
    its inputs itself (a Relu or a ShapeOf with two inputs reads in v10 as the op of its
    first; an Identity or an MVN does not, ``schema.extra_inputs``; v11 fails either way,
    'node index is out of range': docs/openvino-ir-reading.md §11)."""
    version = graph.document.version
    if version not in (10, 11):
        return 0
    if graph.every_input_fed and len(layer.inputs) <= schema.input_counts[1]:
        return 0  # the usual layer, without a look at its ports
    fed = _fed_inputs(graph, layer)
    if len(fed) <= schema.input_counts[1] and all(fed):
        return 0  # the usual layer: nothing to drop
    dropped = max(0, len(fed) - schema.input_counts[1]) if version == 10 and not schema.extra_inputs else 0
    del fed[len(fed) - dropped :]
    while (
        fed
        and not fed[-1]
        and len(fed) > schema.input_counts[0]
        and (version == 10 or _defaulted(schema, len(fed) - 1, len(fed)))
    ):
        fed.pop()
        dropped += 1
    return dropped


def check_edge_precisions(graph: Graph, report: Report) -> None:
    """IRS412: an input port's precision against the precision of the port feeding it."""
    for layer in graph.suspects.edge_precisions:
        for port in layer.inputs:
            source = port.source
            if source is None or source[1].precision == port.precision:
                continue
            producer, out_port = source
            declared = element_types.from_precision(port.precision)
            produced = element_types.from_precision(out_port.precision)
            if declared is None or produced is None or element_types.same(declared, produced):
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


# --- cycles and reachability -----------------------------------------------------------------


def check_cycles(graph: Graph, report: Report) -> None:
    """IRS410: one finding per cycle (strongly connected component), at its first layer."""
    if graph.in_order:
        return
    key = graph.key
    order = {key(layer): i for i, layer in enumerate(graph.document.layers)}
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
    key, built = graph.key, graph.built
    if built >= graph.layers.keys():  # the usual case, in one pass in C
        return
    dead = [
        layer
        for layer in layers
        if key(layer) not in built  # first: nearly every layer is built
        and parse_uint(layer.id) is not None
        and graph.layers.get(key(layer)) is layer
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


def check_shared_results(graph: Graph, report: Report) -> None:
    """IRS423: in IR v10, two Results that read one output whose port has tensor names fail the
    file ('Model tensor names have collisions', docs/openvino-ir-reading.md §11); IR v11 reads
    them, and so does IR v10 an output without names."""
    if graph.document.version != 10 or "Result" not in graph.types:
        return
    readers: dict[tuple[int, int], list[Layer]] = defaultdict(list)
    producers: dict[tuple[int, int], tuple[Layer, str]] = {}
    for layer in _of_type(graph, "Result"):
        if not layer.inputs:
            continue
        source = layer.inputs[0].source
        if source is None or not source[1].names:  # (tensors without names read)
            continue
        key = (id(source[0]), source[1].index)
        readers[key].append(layer)
        producers[key] = (source[0], source[1].id)
    for key, results in readers.items():
        if len(results) < 2:
            continue
        producer, port = producers[key]
        names = " and ".join(f"layer {r.id} '{r.name}'" for r in results)
        for result in results[1:]:
            report(
                rules.RESULTS_SHARE_OUTPUT(
                    graph.where(result),
                    results=names,
                    producer=f"layer {producer.id} '{producer.name}'",
                    port=port,
                )
            )


def check_name_collisions(graph: Graph, report: Report) -> None:
    """IRS425: IR v10's reading names each Result's tensor also by the name of the layer it reads
    (``create_ie_output_name``: ``name.port`` for a layer of several outputs) and each
    Parameter's by the Parameter's name, and fails where that name is already another input's or
    output's tensor name, or an earlier such name ('Model operation names have collisions with
    tensor names'; ``model_reader.cpp`` ``update_v10_model``): the inputs' tensor names first,
    then the outputs', then each Result's name, then each Parameter's."""
    if graph.document.version != 10:
        return
    parameters = [layer for layer in _of_type(graph, "Parameter") if layer.outputs]
    results = [(layer, layer.inputs[0].source) for layer in _of_type(graph, "Result") if layer.inputs]
    taken: dict[str, str] = {}  # name -> what holds it
    for layer in parameters:
        for name in tensor_names(layer.outputs[0].names):
            taken.setdefault(name, f"the tensor of {layer_label(layer)}")
    for _result, source in results:
        if source is not None:
            for name in tensor_names(source[1].names):
                taken.setdefault(name, f"the tensor of {layer_label(source[0])} port {source[1].id}")
    # The names each Result gives the tensor it reads (a Result shares its input's tensor):
    # a later Result or Parameter of that tensor finds its name among the tensor's own.
    added: dict[tuple[int, int], set[str]] = defaultdict(set)
    for layer, source in results:
        if source is None:
            continue
        producer, port = source
        name = producer.name or ""
        if len(producer.outputs) != 1:
            name += f".{port.index}"
        own = tensor_names(port.names) | added[(id(producer), port.index)]
        added[(id(producer), port.index)].add(name)
        if name in taken and name not in own:
            what = f"{layer_label(layer)} reads {layer_label(producer)}:"
            report(
                rules.NAME_COLLISION(
                    graph.where(layer), what=what, name=name, side="output", other=taken[name]
                )
            )
        taken.setdefault(name, f"the output {layer_label(layer)} reads")
    for layer in parameters:
        name = layer.name or ""
        own = tensor_names(layer.outputs[0].names) | added[(id(layer), layer.outputs[0].index)]
        if name in taken and name not in own:
            what = f"{layer_label(layer)} is named"
            report(
                rules.NAME_COLLISION(
                    graph.where(layer), what=what, name=name, side="input", other=taken[name]
                )
            )
        taken.setdefault(name, f"the input {layer_label(layer)}")


def _of_type(graph: Graph, op_type: str) -> Iterator[Layer]:
    """The layers of the type, in file order (picked in C: a model has a few of each). By
    ``operator.eq``, not ``op_type.__eq__``: a layer without a type has None, and ``str.__eq__``
    gives it NotImplemented, which is true."""
    return compress(graph.document.layers, map(eq, repeat(op_type), graph.layer_types))


def tensor_names(text: str) -> set[str]:
    """A port's ``names``: split at each comma not escaped (``\\,`` is a comma within a name),
    nothing trimmed, as OpenVINO's reader splits them (by experiment: ``x, b`` holds ``' b'``)."""
    if not text:
        return set()
    return {part.replace("\\,", ",") for part in re.split(r"(?<!\\),", text) if part}


def check_body_depth(graph: Graph, report: Report) -> None:
    """IRS215: bodies nested deeper than OpenVINO's reader builds on this process's stack (it
    crashes; irshape/ir/depth.py). Only with a stack well below the usual 8 MiB is that within
    the 680 levels irshape reads."""
    if CONTROL_TYPES.isdisjoint(graph.types):
        return
    from irshape.ir import depth  # a file with bodies only

    limit = depth.openvino_nesting_limit(depth.stack_bytes())
    nesting, outer = depth.deepest_bodies(graph.document.layers)
    if limit is None or outer is None or nesting <= limit:
        return
    problem = (
        f"its bodies nest {nesting} deep, and OpenVINO's reader builds each body on its stack, "
        f"about 3 KiB a level: past about {limit} levels with this process's stack "
        f"({(depth.stack_bytes() or 0) // 1024} KiB, ulimit -s) it crashes"
    )
    report(rules.BODY_INVALID(graph.where(outer), problem=problem, ov_message="Segmentation fault"))


# Every check of a <net>, in the order the walk runs them (check_body_depth once for the file).
NET_CHECKS = (
    check_layer_attributes,
    check_duplicate_ids,
    check_precisions,
    check_opsets,
    check_edges,
    check_parameter_inputs,
    check_unconnected,
    check_cycles,
    check_edge_precisions,
    check_reachability,
    check_shared_results,
    check_name_collisions,
)
