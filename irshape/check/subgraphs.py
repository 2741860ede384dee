"""Loop-5, If-8 and TensorIterator-1: their port maps read as OpenVINO's IR reader reads them
(``ir_deserializer.cpp``: ``parse_input_description``, ``parse_output_description``,
``parse_purpose_attribute``), their bodies walked as networks with the outer inputs bound to
the body Parameters, and the outer outputs made of the body Results as the ops'
``validate_and_infer_types`` make them (the arithmetic is :mod:`irshape.shapes.control`).

OpenVINO's reader first builds each body as a model of its own, its Parameters as the body
declares them (before the port map is read), and validates every layer of it at those shapes;
only then does the op bind the outer inputs and validate the body again. A body fails either
way: :func:`infer` has it walked as declared too (once a body, however often its layer is
walked: nested bodies stay linear), unless the walk with the outer inputs bound is that walk
(each bound Parameter of the shape and element type it declares: most bodies), and the branch
of an If that a constant condition does not run all the same.

The walk of a body's document is the caller's (:mod:`irshape.check.model`): :func:`walk_control`
gets a function that makes one, and walks the layer's bodies with it, each in the context the
layer gives it (:class:`BodyContext`), with some Parameters bound and as declared, through
:func:`infer`; then it keeps what they find, each finding once.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Protocol

from irshape import rules
from irshape.check.graph import layer_label
from irshape.check.layer import compare_declared
from irshape.diagnostics import Diagnostic, Location
from irshape.dims import DimSyntaxError, PartialShape, parse_partial_shape
from irshape.ir.element_types import from_element_type
from irshape.ir.model import BackEdge, Body, Document, Layer, PortMapEntry
from irshape.ir.values import parse_uint
from irshape.ir.weights import Weights
from irshape.ops.interface import OpResult, Output, Tensor
from irshape.ops.opsets import op_version
from irshape.record import Record
from irshape.shapes import control
from irshape.shapes.axes import normalize_axis

CONTROL_OPS = {("Loop", 5): "loop", ("If", 8): "if", ("TensorIterator", 1): "tensoriterator"}


class BodyRun(Record):
    """One walk of a body: the tensor that reaches each Result (by the Result layer), and
    whether all of them are OpenVINO's (not guessed from declared dims)."""

    __slots__ = ("computed", "results")
    results: dict[int, Tensor]  # by id(result layer)
    computed: bool

    def __init__(self, results: dict[int, Tensor], computed: bool) -> None:
        self.results = results
        self.computed = computed


class BodyContext(Record):
    """What a walk of a body gets from the layer that holds it: the weights file, the tensors
    bound to its Parameters, the path of ids that names its layers, its nesting depth, and the
    bodies the check has walked as declared."""

    __slots__ = ("as_declared", "bound", "declared_walks", "depth", "guess", "op", "prefix", "weights")
    weights: Weights
    bound: dict[int, Tensor]  # by id(Parameter layer)
    prefix: str  # "17/body/": what a finding's layer id is prefixed with
    depth: int
    guess: str | None  # why the bound tensors are not OpenVINO's, if they are not
    declared_walks: set[int]  # by id(Body): one set for the whole check
    as_declared: bool  # a walk of the body as declared (its Parameters not bound)
    op: str  # the op holding the body: "loop", "if" or "tensoriterator" (CONTROL_OPS)

    def __init__(
        self,
        weights: Weights,
        bound: dict[int, Tensor],
        prefix: str,
        depth: int,
        guess: str | None,
        declared_walks: set[int],
        *,
        as_declared: bool,
        op: str = "",
    ) -> None:
        self.weights = weights
        self.bound = bound
        self.prefix = prefix
        self.depth = depth
        self.guess = guess
        self.declared_walks = declared_walks
        self.as_declared = as_declared
        self.op = op


WalkBody = Callable[[str, Body, dict[int, Tensor]], BodyRun]
"""Walk the body of a tag with Parameters bound (by id(layer)): its Results' tensors."""

WalkDeclared = Callable[[str, Body], None]
"""Walk the body of a tag as OpenVINO first builds it: its Parameters as declared."""

# The bodies OpenVINO's reader builds for each op (the first element of each tag).
_BUILT_BODIES = {"loop": ("body",), "tensoriterator": ("body",), "if": ("then_body", "else_body")}


class Rejected(Exception):
    """OpenVINO rejects the layer: the problem, and OpenVINO's message."""

    def __init__(self, problem: str, message: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.message = message


class Description(Record):
    """An input or output description (OpenVINO's records of a port map entry)."""

    __slots__ = ("axis", "end", "external", "kind", "layer", "part_size", "source", "start", "stride")
    kind: str  # "slice", "merged", "invariant" (inputs); "concat", "last" (outputs)
    external: int  # the outer input index, or the outer output index
    layer: Layer  # the body Parameter or Result
    source: Layer | None  # a merged input's body Result (its back edge)
    axis: int
    start: int
    stride: int
    part_size: int
    end: int

    def __init__(
        self,
        kind: str,
        external: int,
        layer: Layer,
        source: Layer | None = None,
        axis: int = 0,
        start: int = 0,
        stride: int = 1,
        part_size: int = 1,
        end: int = -1,
    ) -> None:
        self.kind = kind
        self.external = external
        self.layer = layer
        self.source = source
        self.axis = axis
        self.start = start
        self.stride = stride
        self.part_size = part_size
        self.end = end


class Inference(Record):
    """What :func:`infer` found: the outer outputs (None when OpenVINO rejects the layer),
    whether they are OpenVINO's, and the findings on the layer itself."""

    __slots__ = ("computed", "findings", "result")
    result: OpResult | None
    computed: bool
    findings: list[Diagnostic]

    def __init__(self, result: OpResult | None, computed: bool, findings: list[Diagnostic]) -> None:
        self.result = result
        self.computed = computed
        self.findings = findings


class BodyWalk(Protocol):
    """The walk of one body as a network (the caller's: :mod:`irshape.check.model`)."""

    def run(self) -> object: ...

    def findings(self) -> list[Diagnostic]:
        """What the walk found, each layer named by the path of ids to it."""
        ...

    def body_results(self, body: Body) -> BodyRun:
        """What reaches each Result of the body, and whether all of it is OpenVINO's."""
        ...


NewWalk = Callable[[Document, BodyContext], BodyWalk]
"""A walk of a body's document (not yet run) in the context its layer gives it."""

_BASE_RECURSION = 1000
_FRAMES_PER_BODY = 16
_DECLARED_NOTE = (
    " (the body as OpenVINO's reader first builds it, its Parameters as declared, before the "
    "outer inputs are bound to them)"
)


def walk_control(
    op: str,
    layer: Layer,
    inputs: list[Tensor],
    computed: bool,
    where: Location,
    document: Document,
    weights: Weights,
    declared_walks: set[int],
    outer: BodyContext | None,
    new_walk: NewWalk,
) -> tuple[Inference | None, list[Diagnostic]]:
    """Walk the bodies of the Loop, If or TensorIterator ``layer`` of ``document`` (``op``: its
    CONTROL_OPS name; ``outer``: the context of the body the layer is in, if it is) as networks,
    their findings named by the path of layer ids: what the layer infers (None in a body walked
    as declared, whose layer's bodies are walked as declared too, once each: the walks stay
    linear in the nesting) and what its bodies report, each finding once. ``computed``: every
    input of the layer is OpenVINO's; ``declared_walks``: the bodies walked as declared, by id,
    one set for the whole check."""
    walks: list[tuple[str, BodyWalk]] = []  # (tag, walk) of every body: a Loop's reruns too
    declared: list[BodyWalk] = []  # the walks of bodies as declared (each body's first only)
    guess = None if computed else f"{layer_label(layer)} is fed by a tensor irshape cannot compute"
    prefix = (outer.prefix if outer is not None else "") + f"{layer.id}/"
    depth = (outer.depth if outer is not None else 0) + 1
    # A body's walk is a few Python frames deeper than its layer's (pure Python calls: no C
    # stack); the reader's limit bounds the depth (irshape.ir.parse.MAX_BODY_NESTING).
    if sys.getrecursionlimit() < _BASE_RECURSION + _FRAMES_PER_BODY * depth:
        sys.setrecursionlimit(_BASE_RECURSION + _FRAMES_PER_BODY * depth)

    def walk(tag: str, body: Body, bound: dict[int, Tensor]) -> BodyRun:
        context = BodyContext(
            weights, bound, prefix + tag + "/", depth, guess, declared_walks, as_declared=False, op=op
        )
        walker = new_walk(body.document(document), context)
        walks.append((tag, walker))
        walker.run()
        return walker.body_results(body)

    def walk_declared(tag: str, body: Body) -> None:
        if id(body) in declared_walks:
            return
        declared_walks.add(id(body))
        context = BodyContext(weights, {}, prefix + tag + "/", depth, None, declared_walks, as_declared=True)
        walker = new_walk(body.document(document), context)
        declared.append(walker)
        walker.run()

    inference = None
    if outer is not None and outer.as_declared:
        walk_bodies_declared(op, layer, walk_declared)
    else:
        inference = infer(op, layer, inputs, walk, where, walk_declared)
    found = _body_findings([(tag, w.findings()) for tag, w in walks], [w.findings() for w in declared])
    return inference, found


def _body_findings(
    walks: list[tuple[str, list[Diagnostic]]], declared: list[list[Diagnostic]]
) -> list[Diagnostic]:
    """What a layer's bodies report, each finding once, from the findings of each walk of a
    body (``walks``: with its tag, in the order walked) and of each walk as declared."""
    # OpenVINO validates the body on each pass and fails on any: what rejects it in any walk,
    # each once (a rerun with widened shapes may no longer meet the first's error); the rest,
    # declared dims compared, at the shapes of each body's last pass: OpenVINO's
    last = {tag: index for index, (tag, _) in enumerate(walks)}
    distinct = {
        (d.code, d.line, d.column, d.message): d
        for index, (tag, found) in enumerate(walks)
        for d in found
        if index == last[tag] or rules.rejects(d)
    }
    # ...and as it first builds it, as declared: what fails there, unless a walk above says it
    seen = {(d.code, d.line) for d in distinct.values()}
    for d in (d for found in declared for d in found if rules.rejects(d)):
        if (d.code, d.line) not in seen:
            if not d.message.endswith(_DECLARED_NOTE):  # (one of a nested body has it)
                d = d.replace(message=d.message + _DECLARED_NOTE)
            distinct[(d.code, d.line, d.column, d.message)] = d
    return list(distinct.values())


def bound_parameter(
    layer: Layer, tensor: Tensor, where: Location, report: Callable[[Diagnostic], None]
) -> list[Tensor]:
    """A body Parameter the port map binds: the outer input's ``tensor`` (OpenVINO sets the
    Parameter's shape from it), compared with the dims its output port declares."""
    compare_declared(layer, OpResult([Output(tensor.shape, tensor.element_type)]), where, report)
    return [tensor]


def remember_ports(
    shapes: dict[int, PartialShape], layer: Layer, inputs: list[Tensor], outputs: list[Tensor], computed: bool
) -> None:
    """The port shapes of a Loop, If or TensorIterator, by ``id(port)`` (the walk's
    ``body_shapes``: what the executor compiles them for)."""
    for port, tensor in zip(layer.inputs, inputs, strict=False):
        shapes[id(port)] = tensor.shape
    if computed:
        for port, info in zip(layer.outputs, outputs, strict=False):
            shapes[id(port)] = info.shape


def _no_walk(tag: str, body: Body) -> None:
    pass


def _walk_declared_unless_alike(
    walk_declared: WalkDeclared, tag: str, body: Body, bound: dict[int, Tensor]
) -> None:
    """Walk the body as declared, unless the walk with the outer inputs bound is that walk: when
    every bound Parameter gets the shape and element type it declares (a bound tensor carries
    no value), as the writers of most bodies declare them."""
    for layer in body.layers:
        tensor = bound.get(id(layer))
        if tensor is not None and not _declares(layer, tensor):
            walk_declared(tag, body)
            return


def _declares(parameter: Layer, tensor: Tensor) -> bool:
    """Does the body Parameter declare ``tensor``'s shape and element type?"""
    text = parameter.data.get("shape")
    try:
        shape = PartialShape([]) if text is None else parse_partial_shape(text)
    except DimSyntaxError:
        return False  # OpenVINO fails building it: the walk as declared says so
    written = parameter.data.get("element_type")
    element_type = "dynamic" if written is None else from_element_type(written)
    return shape == tensor.shape and element_type == tensor.element_type


def walk_bodies_declared(op: str, layer: Layer, walk_declared: WalkDeclared) -> None:
    """Walk the bodies OpenVINO's reader builds for the op as it builds them: as declared."""
    if layer.subgraphs is None:
        return
    for tag in _BUILT_BODIES[op]:
        body = layer.subgraphs.bodies.get(tag)
        if body is not None:
            walk_declared(tag, body)


def control_op(layer: Layer) -> str | None:
    """ "loop", "if" or "tensoriterator" for a layer of those ops that has bodies; else None."""
    if layer.subgraphs is None or not layer.type or not layer.version:
        return None
    return CONTROL_OPS.get(op_version(layer.type, layer.version) or ("", 0))


def infer(
    op: str,
    layer: Layer,
    inputs: list[Tensor],
    walk: WalkBody,
    where: Location,
    walk_declared: WalkDeclared | None = None,
) -> Inference:
    """Infer a Loop, If or TensorIterator layer by walking its bodies (also as declared, with
    ``walk_declared``, as OpenVINO's reader builds them before it reads the port maps)."""
    declared = walk_declared if walk_declared is not None else _no_walk
    try:
        if op == "if":
            return _if(layer, inputs, walk, declared)
        return _iterating(op, layer, inputs, walk, declared)
    except Rejected as rejected:
        finding = rules.BODY_INVALID(where, problem=rejected.problem, ov_message=rejected.message)
        return Inference(None, False, [finding])


# -- the port maps -------------------------------------------------------------------------


def _int(entry: PortMapEntry, name: str, default: int | None = None) -> int:
    text = entry.attributes.get(name)
    if text is None:
        if default is None:
            raise Rejected(
                f"the port map entry on line {entry.line} has no {name}", f"Node attribute {name} is missing"
            )
        return default
    try:
        value = int(text.strip())
    except ValueError:
        raise Rejected(
            f"the port map entry on line {entry.line} has {name}={text!r}", f"Invalid attribute {name}"
        ) from None
    if not -(2**63) <= value < 2**63:  # read with std::stoll: out of its range
        raise Rejected(f"the port map entry on line {entry.line} has {name}={text!r}, past int64", "stoll")
    return value


def _unsigned_axis(entry: PortMapEntry) -> int:
    """A sliced input's axis, which OpenVINO's IR reader reads as an unsigned integer (an
    output's is read signed): a negative one fails the file (by experiment, Loop and
    TensorIterator alike)."""
    axis = _int(entry, "axis")
    if axis < 0:
        text = entry.attributes.get("axis", "")
        raise Rejected(
            f"the sliced input on line {entry.line} has axis={text!r}, not an unsigned integer",
            f'node <input> has attribute "axis" = "{text}" which is not an unsigned 64 bit integer',
        )
    return axis


def _body_layer(body: Body, text: str | None, kind: str, line: int) -> Layer:
    """The body Parameter or Result an internal_layer_id (or a back edge end) names."""
    wanted = parse_uint(text)
    for layer in body.layers:
        if layer.type == kind and wanted is not None and parse_uint(layer.id) == wanted:
            return layer
    raise Rejected(
        f"the port map or back edge on line {line} names layer {text} of the {body.tag}, which has no "
        f"{kind} of that id",
        "unordered_map::at",
    )


def _body(layer: Layer, tag: str) -> Body:
    body = layer.subgraphs.bodies.get(tag) if layer.subgraphs is not None else None
    if body is None:
        raise Rejected(f"the layer has no <{tag}>", "Missing body part.")
    return body


def _entries(layer: Layer, tag: str, inputs: bool) -> list[PortMapEntry]:
    """A port map's inputs (or outputs) in the order of their external_port_id, the first of
    each id (OpenVINO keeps them in a std::map, input ids as uint64: -1 comes last)."""
    entries = layer.subgraphs.port_maps.get(tag, []) if layer.subgraphs is not None else []
    by_id: dict[int, PortMapEntry] = {}
    for entry in entries:
        if entry.is_input == inputs:
            external = _int(entry, "external_port_id", 0)
            key = external % (1 << 64) if inputs else external
            by_id.setdefault(key, entry)
    return [by_id[key] for key in sorted(by_id)]


def input_descriptions(layer: Layer, body: Body, tag: str) -> list[Description]:
    found: list[Description] = []
    back_edges = layer.subgraphs.back_edges if layer.subgraphs is not None else []
    for entry in _entries(layer, tag, inputs=True):
        external = _int(entry, "external_port_id", 0)
        parameter_id = entry.attributes.get("internal_layer_id")
        if "axis" in entry.attributes:
            parameter = _body_layer(body, parameter_id, "Parameter", entry.line)
            found.append(
                Description(
                    "slice",
                    external,
                    parameter,
                    axis=_unsigned_axis(entry),
                    start=_int(entry, "start", 0),
                    stride=_int(entry, "stride", 1),
                    part_size=_int(entry, "part_size", 1),
                    end=_int(entry, "end", -1),
                )
            )
            continue
        edge = _back_edge_to(back_edges, parse_uint(parameter_id))
        if edge is not None:
            parameter = _body_layer(body, parameter_id, "Parameter", entry.line)
            source = _body_layer(body, edge.from_layer, "Result", edge.line)
            found.append(Description("merged", external, parameter, source))
        elif external >= 0:
            found.append(
                Description("invariant", external, _body_layer(body, parameter_id, "Parameter", entry.line))
            )
    return found


def _back_edge_to(back_edges: list[BackEdge], parameter_id: int | None) -> BackEdge | None:
    """The back edge into a body Parameter, looked up as OpenVINO does for an input without
    an axis: each back edge's to-layer read in turn as an unsigned integer (pugixml's
    get_uint64_attr; other text fails), up to the one that matches, whose from-layer is then
    read too. Back edges past it, and all of them for sliced inputs, are never read (by
    experiment)."""
    for edge in back_edges:
        if _edge_id(edge, "to-layer", edge.to_layer) == parameter_id:
            _edge_id(edge, "from-layer", edge.from_layer)
            return edge
    return None


def _edge_id(edge: BackEdge, attribute: str, text: str) -> int:
    value = parse_uint(text)
    if value is not None:
        return value
    number = text.strip()[:1] in ("+", "-") or text.strip()[:1].isdigit()
    raise Rejected(
        f"the back edge on line {edge.line} has {attribute}={text!r}, not an unsigned integer",
        f'node <edge> has attribute "{attribute}" = "{text}" which is not an unsigned 64 bit integer'
        if number
        else "stoll",
    )


def output_descriptions(layer: Layer, body: Body, tag: str) -> list[Description]:
    found: list[Description] = []
    for entry in _entries(layer, tag, inputs=False):
        if _int(entry, "external_port_id", 0) < 0:
            continue
        result = _body_layer(body, entry.attributes.get("internal_layer_id"), "Result", entry.line)
        if "axis" in entry.attributes:
            found.append(
                Description(
                    "concat",
                    len(found),
                    result,
                    axis=_int(entry, "axis"),
                    start=_int(entry, "start", 0),
                    stride=_int(entry, "stride", 1),
                    part_size=_int(entry, "part_size", 1),
                    end=_int(entry, "end", -1),
                )
            )
        else:
            found.append(Description("last", len(found), result))
    return found


def purpose(layer: Layer, body: Body, inputs: bool, purpose: str) -> Layer | None:
    kind = "Parameter" if inputs else "Result"
    for entry in _entries(layer, "port_map", inputs):
        if entry.attributes.get("purpose") == purpose:
            return _body_layer(body, entry.attributes.get("internal_layer_id"), kind, entry.line)
    return None


def _input(inputs: list[Tensor], index: int) -> Tensor:
    if not 0 <= index < len(inputs):
        raise Rejected(
            f"a port map names input {index}, and the layer has {len(inputs)}", "vector::_M_range_check"
        )
    return inputs[index]


def _single_value(tensor: Tensor, what: str) -> int | None:
    """The value of a constant input OpenVINO reads (get_constant_from_source), if known."""
    value = tensor.value
    if tensor.lower is not None:  # its bounds: what OpenVINO reads where they are known
        value = tensor.lower if tensor.lower == tensor.upper else None
    if value is None:
        return None
    if len(value) != 1:
        raise Rejected(
            f"the {what} has {len(value)} values",
            f"The number of values in the {what} constant is greater than 1",
        )
    return value[0]


def _rank_0_or_1(shape: PartialShape, what: str) -> None:
    if shape.dims is not None and len(shape.dims) > 1:
        raise Rejected(
            f"the {what} has rank {len(shape.dims)}", f"Rank of {what} input must be equal to 0 or 1"
        )


# -- Loop and TensorIterator ---------------------------------------------------------------


def _iterating(
    op: str, layer: Layer, inputs: list[Tensor], walk: WalkBody, walk_declared: WalkDeclared
) -> Inference:
    loop = op == "loop"
    body = _body(layer, "body")
    descriptions = input_descriptions(layer, body, "port_map")
    outputs = output_descriptions(layer, body, "port_map")
    _outputs_described(layer, outputs)
    bound: dict[int, Tensor] = {}
    iterations: int | None = None
    no_iterations = False
    if loop:
        no_iterations = _loop_condition(inputs)
        offset = 2 - sum(1 for d in descriptions if d.external in (0, 1))
        if offset < 0:
            raise Rejected(
                "external port id 0 or 1 is duplicated in the port map",
                "External port id 0 or 1 is duplicated.",
            )
        if len(inputs) != len(descriptions) + offset:
            raise Rejected(
                f"the port map describes {len(descriptions)} input(s) besides the trip count and condition, "
                f"and the layer has {len(inputs)} inputs",
                "Number of inputs must be the same as number of input descriptions",
            )
    elif len(inputs) != len(descriptions):
        raise Rejected(
            f"the port map describes {len(descriptions)} input(s), and the layer has {len(inputs)}",
            "Number of inputs must be the same as number of input descriptions",
        )
    for d in descriptions:
        source = _input(inputs, d.external)
        shape = source.shape
        if d.kind == "slice" and shape.dims is not None:
            axis = normalize_axis(d.axis, len(shape.dims)) if loop else d.axis
            if axis is None or not 0 <= axis < len(shape.dims):
                raise Rejected(
                    f"the sliced input's axis {d.axis} is out of its rank {len(shape.dims)}",
                    "Axis out of the tensor rank range",
                )
            if not loop:
                if d.part_size == 0:
                    # OpenVINO divides the sliced length by it: the process dies (by experiment)
                    raise Rejected(
                        "a sliced input's part_size is 0; OpenVINO's reader divides by it and crashes",
                        "Floating point exception",
                    )
                count = control.ti_iterations(shape, axis, d.start, d.end, d.part_size)
                iterations = count if count is not None else iterations
            shape = control.sliced_parameter(shape, axis, d.part_size)
        elif d.kind == "merged" and loop:
            shape = control.loop_merged_parameter(shape)
        bound[id(d.layer)] = _bound(source, shape, d.layer, keep_type=not loop)
    current = purpose(layer, body, True, "current_iteration") if loop else None
    _walk_declared_unless_alike(walk_declared, "body", body, bound)
    run = walk("body", body, bound)
    if loop and current is not None:
        _current_iteration_rank(current, bound)
    if loop:
        if purpose(layer, body, False, "execution_condition") is None:
            # OpenVINO stops before the outputs ("special body ports were not set yet"): the op
            # has none, and a layer reading one fails the file (by experiment)
            if layer.outputs:
                raise Rejected(
                    "the port map has no execution_condition output, so OpenVINO's Loop makes no "
                    f"outputs, and the layer has {len(layer.outputs)}",
                    "node index is out of range",
                )
            return Inference(OpResult([Output(PartialShape(None), "dynamic") for _ in outputs]), False, [])
        iterations = _loop_iterations(layer, body, inputs, descriptions, run)
        run = _back_edges(body, descriptions, outputs, bound, run, walk, iterations)
    elif iterations is None and not any(d.kind == "slice" for d in descriptions):
        concat = next((d for d in outputs if d.kind == "concat"), None)
        if concat is not None:
            iterations = control.ti_iterations_without_slices(concat.start, concat.end, concat.part_size)
    made: list[Output] = []
    for d in outputs:
        value = run.results.get(id(d.layer))
        value_shape = value.shape if value is not None else PartialShape(None)
        element_type = value.element_type if value is not None else None
        if d.kind == "concat":
            if loop:
                axis = _loop_axis(d.axis, value_shape, no_iterations)
                shape = control.loop_concatenated(value_shape, axis, iterations, no_iterations=no_iterations)
            else:
                if value_shape.dims is not None and not value_shape.dims and d.axis != 0:
                    raise Rejected(
                        f"output {d.external} concatenates scalars on axis {d.axis}",
                        "Axis must be equal to 0 if concatenated output tensor slices are scalars.",
                    )
                shape = control.ti_concatenated(value_shape, d.axis, iterations, d.part_size)
        elif loop:
            shape = control.loop_last_value(value_shape, no_iterations=no_iterations)
        else:
            shape = value_shape
        made.append(Output(shape, element_type))
    return Inference(OpResult(made), run.computed, [])


def _outputs_described(layer: Layer, outputs: list[Description]) -> None:
    """OpenVINO's op has an output per description of the port map (more than the layer's
    ports read), and fails where the layer has an output port beyond them (by experiment)."""
    if len(layer.outputs) <= len(outputs):
        return
    raise Rejected(
        f"the layer has {len(layer.outputs)} output port(s), and its port map describes {len(outputs)}",
        "Number of outputs must be the same as number of output descriptions"
        if not outputs
        else "node index is out of range",
    )


def _loop_axis(axis: int, shape: PartialShape, no_iterations: bool) -> int:
    if no_iterations or shape.dims is None:
        return axis
    rank = max(len(shape.dims), 1)
    normalized = normalize_axis(axis, rank)
    if normalized is None:
        raise Rejected(
            f"the concatenated output's axis {axis} is out of its rank {len(shape.dims)}",
            "Axis out of the tensor rank range",
        )
    return normalized


def _bound(source: Tensor, shape: PartialShape, parameter: Layer, *, keep_type: bool) -> Tensor:
    """The tensor a body Parameter gets: the outer input's shape (sliced) and, for Loop and If,
    its element type (TensorIterator keeps the Parameter's own)."""
    element_type = source.element_type
    if keep_type:
        element_type = from_element_type(parameter.data.get("element_type"))
    return Tensor(shape, element_type)


def _current_iteration_rank(parameter: Layer, bound: dict[int, Tensor]) -> None:
    tensor = bound.get(id(parameter))
    shape = tensor.shape if tensor is not None else None
    if shape is not None and shape.dims is not None and len(shape.dims) > 1:
        raise Rejected(
            "the current_iteration Parameter has rank > 1",
            "Rank of CurrentIteration input must be equal to 0 or 1",
        )


def _loop_condition(inputs: list[Tensor]) -> bool:
    """Whether the Loop runs no iteration: its condition input a constant false."""
    if len(inputs) < 2:
        raise Rejected(
            f"a Loop takes a trip count and a condition; the layer has {len(inputs)} input(s)",
            "Number of inputs must be the same as number of input descriptions",
        )
    _rank_0_or_1(inputs[1].shape, "ExecutionCondition")
    value = _single_value(inputs[1], "Condition")
    return value is not None and not value


def _loop_iterations(
    layer: Layer, body: Body, inputs: list[Tensor], descriptions: list[Description], run: BodyRun
) -> int | None:
    """How many iterations OpenVINO knows the Loop runs (m_num_iterations): the trip count
    where the body's condition is a constant true, 1 where it is a constant false (a
    do-while), else none. None also where the body has no execution_condition output: then
    OpenVINO infers no output at all (the caller says so)."""
    result = purpose(layer, body, False, "execution_condition")
    if result is None:
        return None
    always_true = False
    iterations: int | None = None
    condition = _body_condition(body, inputs, descriptions, run, result)
    if condition is not None:
        if condition:
            always_true = True
        else:
            iterations = 1
    _rank_0_or_1(inputs[0].shape, "TripCount")
    trip = _single_value(inputs[0], "TripCount")
    if trip is not None and always_true:
        iterations = trip
    # OpenVINO's -1 stands for "not known" (a trip count of -1 runs until the condition fails)
    return None if iterations is not None and iterations < 0 else iterations


def _body_condition(
    body: Body, inputs: list[Tensor], descriptions: list[Description], run: BodyRun, result: Layer
) -> int | None:
    """The body's execution condition when OpenVINO knows it: a constant in the body, or a
    Parameter fed by a constant outer input."""
    value = run.results.get(id(result))
    if value is None:
        return None
    _rank_0_or_1(value.shape, "BodyExecutionCondition")
    if value.constant:
        return _single_value(value, "Condition")
    parameter = _producer_parameter(body, result)
    for d in descriptions:
        if parameter is not None and d.layer is parameter:
            return _single_value(_input(inputs, d.external), "Condition")
    return None


def _producer_parameter(body: Body, result: Layer) -> Layer | None:
    """The body Parameter that feeds a Result directly, if one does."""
    if not result.inputs:
        return None
    port = result.inputs[0].id
    for edge in body.edges:
        if parse_uint(edge.to_layer) == parse_uint(result.id) and edge.to_port == port:
            for layer in body.layers:
                if layer.type == "Parameter" and parse_uint(layer.id) == parse_uint(edge.from_layer):
                    return layer
    return None


def _back_edges(
    body: Body,
    descriptions: list[Description],
    outputs: list[Description],
    bound: dict[int, Tensor],
    run: BodyRun,
    walk: WalkBody,
    iterations: int | None,
) -> BodyRun:
    """Loop's fixed point: where a last-iteration output's Result goes back to a Parameter
    with a shape it does not fit, the Parameter takes the Result's shape with those dims
    dynamic, and the body is walked again, until nothing changes (at most the iteration
    count, when known)."""
    merged = {id(d.source): d.layer for d in descriptions if d.kind == "merged" and d.source is not None}
    if not merged:
        return run
    limit = sys.maxsize if iterations is None else iterations
    done = 0
    while done < limit:
        done += 1
        changed = False
        for d in outputs:
            parameter = merged.get(id(d.layer))
            value = run.results.get(id(d.layer))
            if d.kind != "last" or parameter is None or value is None:
                continue
            now = bound.get(id(parameter))
            if now is None:
                continue
            new = control.back_edge(value.shape, now.shape)
            if new is not None:
                bound[id(parameter)] = now.replace(shape=new)
                changed = True
        if not changed:
            break
        run = walk("body", body, bound)
    return run


# -- If ------------------------------------------------------------------------------------


def _if(layer: Layer, inputs: list[Tensor], walk: WalkBody, walk_declared: WalkDeclared) -> Inference:
    if not inputs:
        raise Rejected("an If takes a condition; the layer has no input", "Check 'input_size() ...'")
    condition = inputs[0]
    _rank_0_or_1(condition.shape, "If condition")
    value = _single_value(condition, "If condition")
    branches = ("then_body", "else_body") if value is None else ("then_body" if value else "else_body",)
    # The reader makes both bodies and their port maps' descriptions, whichever runs
    read: dict[str, tuple[Body, list[Description], list[Description]]] = {}
    for tag in ("then_body", "else_body"):
        body = _body(layer, tag)
        port_map = tag.replace("body", "port_map")
        read[tag] = (
            body,
            input_descriptions(layer, body, port_map),
            output_descriptions(layer, body, port_map),
        )
    runs: dict[str, tuple[BodyRun, list[Description]]] = {}
    for tag in read:
        if tag not in branches:  # the branch that does not run is built all the same
            walk_declared(tag, read[tag][0])
    for tag in branches:
        body, inputs_read, outputs_read = read[tag]
        bound: dict[int, Tensor] = {}
        for d in inputs_read:
            source = _input(inputs, d.external)
            bound[id(d.layer)] = _bound(source, source.shape, d.layer, keep_type=False)
        _walk_declared_unless_alike(walk_declared, tag, body, bound)
        runs[tag] = (walk(tag, body, bound), outputs_read)
    computed = all(run.computed for run, _ in runs.values())
    if value is not None:
        run, outputs = runs[branches[0]]
        if len(outputs) < len(layer.outputs):
            # the op takes its outputs from the branch that runs (by experiment)
            raise Rejected(
                f"the {branches[0]} that runs describes {len(outputs)} output(s), and the layer has "
                f"{len(layer.outputs)}",
                "deque::_M_range_check",
            )
        made = [_result_output(run, d) for d in outputs]
        return Inference(OpResult(made), computed, [])
    (then_run, then_outputs), (else_run, else_outputs) = runs["then_body"], runs["else_body"]
    count = len(layer.outputs)
    made = []
    for index in range(max(count, len(then_outputs), len(else_outputs))):
        if index >= len(then_outputs) or index >= len(else_outputs):
            missing = "then_body" if index >= len(then_outputs) else "else_body"
            raise Rejected(
                f"output {index} is not associated with a Result of the {missing}",
                f"Incorrect associating in {missing}! Output {index} is not associated with results "
                f"in {missing}!",
            )
        then, otherwise = (
            _result_output(then_run, then_outputs[index]),
            _result_output(else_run, else_outputs[index]),
        )
        merged, element_type = control.merge_element_types(then.element_type, otherwise.element_type)
        if not merged:
            then_type, else_type = then.element_type, otherwise.element_type
            raise Rejected(
                f"output {index} is {then_type} in the then_body and {else_type} in the else_body",
                f"type of then_body output {then_type} is not equal type of else_body output{else_type}",
            )
        made.append(Output(control.merge_branches(then.shape, otherwise.shape), element_type))
    return Inference(OpResult(made), computed, [])


def _result_output(run: BodyRun, d: Description) -> Output:
    value = run.results.get(id(d.layer))
    if value is None:
        return Output(PartialShape(None), None)
    return Output(value.shape, value.element_type)
