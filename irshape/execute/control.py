"""Executing Loop-5, If-8 and TensorIterator-1: their bodies run with the network executor,
as OpenVINO's CPU plugin runs them (``compile_model`` CPU, f32; confirmed by
``tests/differential/test_control_flow*.py``, the randomized one above all).

* If: the branch the condition picks runs on the inputs its port map names; its Results give
  the outputs. The plugin compiles both branches: what it refuses in the other one (a
  TensorIterator's static slices) fails the model.
* TensorIterator: a sliced input is cut as the plugin's ``PortIteratorHelper`` cuts it, in
  parts ``|stride|`` long from the axis's start (from its end back where ``stride`` is
  negative), one an iteration; ``start``, ``end`` and ``part_size`` only count the iterations
  (``getNumIteration``: negative ones from one past the end, exact steps of ``|stride|``, the
  same count from every sliced input and every concatenated output something reads). Merged
  inputs start from the outer value and take their back edge's Result after each iteration;
  a concatenated output joins every iteration's part along its axis (in reverse order where
  ``stride`` is negative), a last-iteration output is the last Result.
* Loop: the same, for at most the trip count (a negative one: no limit) while the body's
  execution condition holds (start and end not read at all; an iteration past a sliced
  input's parts fails the plugin); the current-iteration Parameter gets the iteration's index.
  A Loop of no iteration gives its merged inputs' values on the last-iteration outputs of
  their back edges (see :func:`_no_iteration`).

Where a back edge brings a value of another shape or element type than its Parameter's, the
CPU plugin does what it compiled the body for: the Parameter's shape in the model as read, as
OpenVINO's shape inference makes it (by experiment with OpenVINO 2026.4,
``tests/differential/test_control_flow_back_edges.py``; docs/openvino-ir-reading.md §17):

* where the node runs static (every port of it and of its body static), a static Parameter
  cannot take another shape: the inference request fails ("object is not initialized"); and
  it takes a value of another element type converted (floats to integers rounded half to even);
* where the node runs dynamic (a port of it or of its body dynamic), the Parameter's memory
  becomes the Result's: a dynamic Parameter takes every shape, a static one reads the first
  elements it holds; the bytes pass as they are (modelled between types of one size as the
  plugin holds them, refused between others and where the Parameter would read past them);
* a concatenated output's part must be ``|stride|`` long on its axis, else the plugin fails;
* a port or body Parameter of dynamic rank (a Loop's back edge that brings another rank makes
  one): the plugin compiles no such Loop, If or TensorIterator.

The port maps are read as the check reads them (:mod:`irshape.check.subgraphs`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from irshape.check.subgraphs import Description, Rejected, input_descriptions, output_descriptions, purpose
from irshape.dims import PartialShape
from irshape.ir.element_types import from_precision
from irshape.ir.model import Body, Layer, Port
from irshape.kernels import KernelError, storage_dtype

Value = tuple[np.ndarray, str]  # an array and its OpenVINO element type
CompiledShape = Callable[[Port], PartialShape | None]
"""The shape OpenVINO infers for a port in the model as read, which the CPU plugin compiles
(None where not known)."""
RunBody = Callable[[Body, dict[int, Value]], dict[int, Value]]
"""Run a body with its Parameters' values (by id(layer)): its Results' values (by id(layer))."""

# A Loop with no trip count and a condition that never fails would run for ever.
MAX_ITERATIONS = 1 << 20


def run_control(
    op: str,
    layer: Layer,
    args: list[Value],
    run_body: RunBody,
    compiled: CompiledShape | None = None,
    used: frozenset[int] | None = None,
) -> list[Value]:
    """The outputs of a Loop, If or TensorIterator layer on ``args`` (``compiled``: the shapes
    OpenVINO infers for the model as read, which decide what its back edges may bring;
    ``used``: the outputs something reads, None: all)."""
    try:
        if op == "if":
            _static_ranks(layer, [*map(compiled or _unknown, [*layer.inputs, *layer.outputs])])
            for tag in ("then_body", "else_body"):
                _branch_compiles(_body(layer, tag), compiled or _unknown)
            return _run_if(layer, args, run_body)
        return _run_iterating(op == "loop", layer, args, run_body, compiled or _unknown, used)
    except Rejected as rejected:
        raise KernelError(f"{rejected.problem} ('{rejected.message}')") from None


def _body(layer: Layer, tag: str) -> Body:
    body = layer.subgraphs.bodies.get(tag) if layer.subgraphs is not None else None
    if body is None:
        raise KernelError(f"the layer has no <{tag}>")
    return body


def _arg(args: list[Value], index: int) -> Value:
    if not 0 <= index < len(args):
        raise KernelError(f"a port map names input {index}, and the layer has {len(args)}")
    return args[index]


def _run_if(layer: Layer, args: list[Value], run_body: RunBody) -> list[Value]:
    condition = bool(np.asarray(args[0][0]).reshape(-1)[0])
    tag = "then_body" if condition else "else_body"
    body = _body(layer, tag)
    port_map = tag.replace("body", "port_map")
    bound = {id(d.layer): _arg(args, d.external) for d in input_descriptions(layer, body, port_map)}
    results = run_body(body, bound)
    made = [results[id(d.layer)] for d in output_descriptions(layer, body, port_map)]
    return [_as_declared(value, layer, index) for index, value in enumerate(made)]


def _branch_compiles(body: Body, compiled: CompiledShape) -> None:
    """The CPU plugin compiles both branches of an If, taken or not, and OpenVINO's reader
    reads every body: a Loop or TensorIterator in either (at any depth) whose port map the
    reader rejects (a negative sliced-input axis), or a TensorIterator whose sliced input of
    a static shape the plugin refuses, fails the whole model (by experiment)."""
    for inner in body.layers:
        if inner.subgraphs is None:
            continue
        for tag, nested in inner.subgraphs.bodies.items():
            if tag == "body":
                descriptions = input_descriptions(inner, nested, "port_map")
                if inner.type == "TensorIterator":
                    read_ports = {edge.from_port for edge in body.edges if edge.from_layer == inner.id}
                    read = [
                        d
                        for d in output_descriptions(inner, nested, "port_map")
                        if d.external < len(inner.outputs) and inner.outputs[d.external].id in read_ports
                    ]
                    every = output_descriptions(inner, nested, "port_map")
                    live = _live_parameters(nested, descriptions, every, read, None)
                    slices = [d for d in descriptions if d.kind == "slice" and id(d.layer) in live]
                    _static_slices_counted(inner, slices, body, compiled)
            _branch_compiles(nested, compiled)


def _static_slices_counted(
    layer: Layer, slices: list[Description], body: Body, compiled: CompiledShape
) -> None:
    for d in slices:
        shape = compiled(layer.inputs[d.external]) if d.external < len(layer.inputs) else None
        if shape is not None and shape.is_static and shape.dims is not None:
            try:
                _plugin_iterations(d, [dim.lo for dim in shape.dims])
            except KernelError as refused:
                raise KernelError(f"in its {body.tag}, TensorIterator {layer.id}: {refused}") from None


def _as_declared(value: Value, layer: Layer, index: int) -> Value:
    """A scalar branch value where the If's output is of rank 1 (the branches merge to [?] or
    [1]): the CPU plugin gives it as [1], and so does this."""
    array, element_type = value
    ports = layer.outputs
    dims = ports[index].dims if index < len(ports) else None
    if array.ndim == 0 and dims is not None and len(dims) == 1:
        return array.reshape(1), element_type
    return value


def _slices(value: Value, d: Description, compiled: PartialShape | None) -> list[Value]:
    """A sliced input's parts, in the order the iterations take them, as the CPU plugin cuts
    them (``PortIteratorHelper``): ``|stride|`` long along the axis, as many as fit, from the
    axis's start (a positive stride) or its end back (a negative one); ``start``, ``end`` and
    ``part_size`` are not read there (a TensorIterator's iteration count reads the first two:
    :func:`_plugin_iterations`). ``compiled``: the body Parameter's shape in the model as read,
    which a static Parameter's part must have."""
    array, element_type = value
    if not 0 <= d.axis < array.ndim or d.stride == 0:
        raise KernelError(f"a sliced input with axis {d.axis} of rank {array.ndim} and stride {d.stride}")
    step = abs(d.stride)
    count = array.shape[d.axis] // step
    order = range(count) if d.stride > 0 else range(count - 1, -1, -1)
    parts = [(np.take(array, np.arange(i * step, (i + 1) * step), axis=d.axis), element_type) for i in order]
    part_shape = [step if i == d.axis else n for i, n in enumerate(array.shape)]
    if compiled is not None and compiled.dims is not None:
        declared = [dim.lo if dim.is_static else -1 for dim in compiled.dims]
        if len(declared) != len(part_shape) or any(
            -1 != a != b for a, b in zip(declared, part_shape, strict=False)
        ):
            if not compiled.is_static:
                raise KernelError(
                    f"the sliced input {d.external} gives parts {part_shape} (|stride| {step} long on axis "
                    f"{d.axis}, not part_size {d.part_size}) to body Parameter {d.layer.id}, which OpenVINO "
                    f"infers {compiled}: OpenVINO's CPU plugin fails ('Can not clone with new dims')"
                )
            raise KernelError(
                f"the sliced input {d.external} gives parts {part_shape} (|stride| {step} long on axis "
                f"{d.axis}, not part_size {d.part_size}) to body Parameter {d.layer.id}, which OpenVINO "
                f"infers {declared}: OpenVINO's CPU plugin runs the body compiled for {declared} on them "
                "(reading memory the part does not fill), which irshape does not imitate"
            )
    return parts


def _plugin_iterations(d: Description, dims: Sequence[int]) -> int:
    """The iterations a TensorIterator's sliced input or concatenated output of ``dims`` gives,
    as the CPU plugin counts them (``getNumIteration``): ``start`` and ``end`` counted from one
    past the end where negative, the span between them ``|stride|`` at a time, exactly."""
    if not 0 <= d.axis < len(dims):
        raise KernelError(f"the port map's axis {d.axis} is out of rank {len(dims)}")
    space = dims[d.axis]
    start = d.start + (space + 1 if d.start < 0 else 0)
    end = d.end + (space + 1 if d.end < 0 else 0)
    step = abs(d.stride)
    low, high = (end, start) if d.stride < 0 else (start, end)
    length = high - low
    if step == 0 or low < 0 or low >= high or high > space or length < step:
        raise KernelError(
            f"OpenVINO's CPU plugin refuses the port map's start {d.start}, stride {d.stride} and end "
            f'{d.end} on a dim of {space} (\'Invalid "start","stride","end" values in an '
            "iteration component')"
        )
    if length % step:
        raise KernelError(
            f"OpenVINO's CPU plugin refuses the port map's span of {length} in steps of {step} "
            "('Each iteration must be the same size')"
        )
    return length // step


def _live_parameters(
    body: Body,
    inputs: list[Description],
    outputs: list[Description],
    read: list[Description],
    condition: Layer | None,
) -> set[int]:
    """The body Parameters (by id) OpenVINO's ``RemoveMultiSubGraphOpDanglingParamsResults``
    keeps before the plugin counts iterations: it removes each output nothing reads with its
    Result (not a back edge's source, not the execution condition), then every Parameter that
    no Result left depends on (by experiment, a TensorIterator whose unread slices give 3
    iterations and its read ones 2 runs 2)."""
    kept = {id(d.source) for d in inputs if d.kind == "merged" and d.source is not None}
    if condition is not None:
        kept.add(id(condition))
    removed = {id(d.layer) for d in outputs if d not in read and id(d.layer) not in kept}
    producers: dict[str, set[str]] = {}
    for edge in body.edges:
        producers.setdefault(edge.to_layer, set()).add(edge.from_layer)
    by_id = {inner.id: inner for inner in body.layers}
    pending = [inner for inner in body.layers if inner.type == "Result" and id(inner) not in removed]
    reached: set[str | None] = set()
    live: set[int] = set()
    while pending:
        inner = pending.pop()
        if inner.id in reached:
            continue
        reached.add(inner.id)
        if inner.type == "Parameter":
            live.add(id(inner))
        pending.extend(by_id[p] for p in producers.get(inner.id or "", ()) if p in by_id)
    return live


def _ti_iterations(
    layer: Layer,
    args: list[Value],
    inputs: list[Description],
    outputs: list[Description],
    compiled: CompiledShape,
) -> int:
    """A TensorIterator's iteration count as the CPU plugin takes it: every sliced input's and
    every concatenated output (of a static dim on its axis in the model as read) must give the
    same; 1 without any. ``outputs``: those something reads (OpenVINO's transformations remove
    the others before the plugin counts: by experiment, a TensorIterator in an If's branch
    whose unread concatenated output gives 4 iterations and its slices 2 runs 2)."""
    counts = [_plugin_iterations(d, _arg(args, d.external)[0].shape) for d in inputs if d.kind == "slice"]
    for d in outputs:
        shape = (
            compiled(layer.outputs[d.external])
            if d.kind == "concat" and d.external < len(layer.outputs)
            else None
        )
        if shape is None or shape.dims is None or not 0 <= d.axis < len(shape.dims):
            continue
        if shape.dims[d.axis].is_static:
            counts.append(_plugin_iterations(d, [dim.lo if dim.is_static else -1 for dim in shape.dims]))
    if len(set(counts)) > 1:
        raise KernelError(
            f"its ports give {sorted(set(counts))} iterations: OpenVINO's CPU plugin refuses it "
            "('There are at least two different iterations numbers')"
        )
    return counts[0] if counts else 1


def _unknown(port: Port) -> PartialShape | None:
    return None


def _run_iterating(
    loop: bool,
    layer: Layer,
    args: list[Value],
    run_body: RunBody,
    compiled: CompiledShape,
    used: frozenset[int] | None,
) -> list[Value]:
    body = _body(layer, "body")
    inputs = input_descriptions(layer, body, "port_map")
    outputs = output_descriptions(layer, body, "port_map")
    parameter_shapes = {
        id(d.layer): compiled(d.layer.outputs[0]) if d.layer.outputs else None for d in inputs
    }
    _static_ranks(layer, [*parameter_shapes.values(), *map(compiled, [*layer.inputs, *layer.outputs])])
    dynamic_run = _runs_dynamic(layer, body, compiled)
    limit = MAX_ITERATIONS
    condition_result = current = None
    if loop:
        trip = int(np.asarray(args[0][0]).reshape(-1)[0])
        limit = trip if trip >= 0 else MAX_ITERATIONS
        if not bool(np.asarray(args[1][0]).reshape(-1)[0]):
            limit = 0
        condition_result = purpose(layer, body, False, "execution_condition")
        current = purpose(layer, body, True, "current_iteration")
    sliced = {
        id(d.layer): _slices(_arg(args, d.external), d, parameter_shapes[id(d.layer)])
        for d in inputs
        if d.kind == "slice"
    }
    read = [d for d in outputs if used is None or d.external in used]
    live = _live_parameters(body, inputs, outputs, read, condition_result if loop else None)
    if not loop:
        limit = _ti_iterations(layer, args, [d for d in inputs if id(d.layer) in live], read, compiled)
    state = {id(d.layer): _arg(args, d.external) for d in inputs if d.kind != "slice"}
    back_edges = {id(d.layer): id(d.source) for d in inputs if d.kind == "merged" and d.source is not None}
    # The back edges whose Parameter the Loop's fixed point may make dynamic: those of a Result
    # that is a last-iteration output (a TensorIterator's inference has no fixed point)
    last_outputs = {id(d.layer) for d in outputs if d.kind == "last"} if loop else set()
    parameters = {id(d.layer): d.layer for d in inputs}
    widened: set[int] = set()
    gathered: dict[int, list[Value]] = {id(d.layer): [] for d in outputs if d.kind == "concat"}
    results: dict[int, Value] = {}
    if limit == 0:
        return _no_iteration(layer, inputs, outputs, args, dynamic_run, compiled)
    for iteration in range(limit):
        bound = dict(state)
        for parameter, parts in sliced.items():
            if iteration >= len(parts) and parameter not in live:
                bound[parameter] = parts[-1]  # (its input is removed before the plugin runs it)
                continue
            if iteration >= len(parts):
                raise KernelError(
                    f"iteration {iteration + 1} runs past the {len(parts)} parts of its sliced input: "
                    "OpenVINO's CPU plugin fails ('iter >= 0 && iter < iter_count')"
                )
            bound[parameter] = parts[iteration]
        if current is not None:
            element_type = current.data.get("element_type", "i64")
            dtype = storage_dtype(element_type) or np.dtype(np.int64)
            shape = (1,) if "1" in current.data.get("shape", "").replace(" ", "").split(",") else ()
            bound[id(current)] = (np.full(shape, iteration, dtype), element_type)
        results = run_body(body, bound)
        for result_id, values in gathered.items():
            values.append(results[result_id])
        next_state = {
            parameter: _back_edge_value(
                parameters[parameter],
                state[parameter],
                results[result_id],
                parameter_shapes[parameter],
                result_id in last_outputs,
                widened,
                dynamic_run,
            )
            for parameter, result_id in back_edges.items()
        }
        if loop and any(
            shape is None for shape in parameter_shapes.values()
        ):  # (without the shapes compiled)
            _same_ranks(back_edges, parameters, state, results, last_outputs)
        if condition_result is not None and not bool(
            np.asarray(results[id(condition_result)][0]).reshape(-1)[0]
        ):
            break
        if iteration + 1 < limit:  # (a value no iteration takes fails nothing)
            state.update((parameter, value()) for parameter, value in next_state.items())
    made: list[Value] = []
    for d in outputs:
        if d.kind == "concat":
            parts = gathered[id(d.layer)]
            if d.stride < 0:
                parts = parts[::-1]
            arrays = [np.atleast_1d(array) for array, _ in parts]
            axis = d.axis + arrays[0].ndim if d.axis < 0 else d.axis
            _concatenated_parts(arrays, axis, d)
            _alike_parts(arrays, axis, d)
            made.append((np.concatenate(arrays, axis=axis), parts[0][1]))
        else:
            made.append(results[id(d.layer)])
    return made


def _no_iteration(
    layer: Layer,
    inputs: list[Description],
    outputs: list[Description],
    args: list[Value],
    dynamic_run: bool,
    compiled: CompiledShape,
) -> list[Value]:
    """The outputs of a Loop that runs no iteration, as the CPU plugin gives them (by
    experiment): a last-iteration output whose Result is a back edge's gives the merged input's
    value (where it fits the output's shape in the model as read, else the plugin fails), or,
    where the Loop runs static, is empty if OpenVINO infers it so (a constant false execution
    condition does); a concatenated one, where the Loop runs dynamic, is empty (its shape in
    the model as read, unknown dims 0), and where it runs static the plugin fails or crashes
    (a division by zero). Any other last-iteration output would be body memory no iteration
    wrote: refused."""
    initial = {
        id(d.source): _arg(args, d.external) for d in inputs if d.kind == "merged" and d.source is not None
    }
    made: list[Value] = []
    for d in outputs:
        shape = compiled(layer.outputs[d.external]) if d.external < len(layer.outputs) else None
        dims = (
            None
            if shape is None or shape.dims is None
            else [dim.lo if dim.is_static else 0 for dim in shape.dims]
        )
        if d.kind == "concat" and not dynamic_run:
            raise KernelError(
                "the Loop runs no iteration into a concatenated output, and OpenVINO infers it static: "
                "its CPU plugin fails or crashes on it"
            )
        static_empty = not dynamic_run and shape is not None and shape.is_static and 0 in (dims or [])
        if dims is not None and (d.kind == "concat" or static_empty):
            made.append(_empty(dims, layer, d))
        elif d.kind == "last" and id(d.layer) in initial:
            value = initial[id(d.layer)]
            if not _fits(shape, value[0].shape):
                failure = "Can not clone with new dims" if dynamic_run else "object is not initialized"
                raise KernelError(
                    f"the Loop runs no iteration, and its output {d.external} of {shape} would take the "
                    f"merged input's {list(value[0].shape)}: OpenVINO's CPU plugin fails ('{failure}')"
                )
            made.append(_initial_as_output(value, layer, d))
        else:
            raise KernelError(
                f"the Loop runs no iteration, and its output {d.external} is not a back edge's: OpenVINO's "
                "CPU plugin gives body memory no iteration wrote"
            )
    return made


def _fits(shape: PartialShape | None, dims: tuple[int, ...]) -> bool:
    """Do ``dims`` lie inside ``shape`` (unknown: yes)?"""
    if shape is None or shape.dims is None:
        return True
    return len(shape.dims) == len(dims) and all(
        d.lo <= n <= d.hi for d, n in zip(shape.dims, dims, strict=True)
    )


def _initial_as_output(value: Value, layer: Layer, d: Description) -> Value:
    """A merged input's value given as the last-iteration output of a Loop that ran no
    iteration: in the output's element type, converted (by experiment, static and dynamic
    alike: i64 4 into an f32 output is 4.0, a boolean true 1.0, f32 2.0 true)."""
    element_type = from_precision(layer.outputs[d.external].precision) or value[1]
    if element_type == value[1]:
        return value
    return _converted(value[0], element_type), element_type


def _empty(dims: list[int], layer: Layer, d: Description) -> Value:
    """An output of no elements, of the element type its port declares."""
    port = layer.outputs[d.external]
    element_type = from_precision(port.precision) or "f32"
    dtype = storage_dtype(element_type)
    if dtype is None:
        raise KernelError(f"an empty output of {element_type}")
    return np.zeros(dims, dtype), element_type


def _runs_dynamic(layer: Layer, body: Body, compiled: CompiledShape) -> bool:
    """Does the CPU plugin run the Loop or TensorIterator as a dynamic node (``runAsDynamic``:
    a port of it or of its body of a dynamic shape in the model as read)? Then every back edge
    gives its Parameter the Result's memory as it is (shape and bytes), where a static node
    copies it into the Parameter's (converting the element type, failing on another shape)."""
    ports = [*layer.inputs, *layer.outputs, *(port for inner in body.layers for port in inner.outputs)]
    return any(shape is not None and not shape.is_static for shape in map(compiled, ports))


def _static_ranks(layer: Layer, shapes: list[PartialShape | None]) -> None:
    """The CPU plugin compiles no Loop, If or TensorIterator with a port (or a Loop's or
    TensorIterator's body Parameter) of dynamic rank in the model as read (a Loop's back edge
    that brings another rank makes one; an If whose branches give other ranks)."""
    if any(shape is not None and shape.dims is None for shape in shapes):
        raise KernelError(
            f"OpenVINO infers a dynamic rank for a port or body Parameter of this {layer.type}; its "
            f"CPU plugin does not compile it ('CPU plug-in doesn't support {layer.type} operation "
            "with dynamic rank')"
        )


def _back_edge_value(
    parameter: Layer,
    now: Value,
    value: Value,
    compiled: PartialShape | None,
    may_widen: bool,
    widened: set[int],
    dynamic_run: bool,
) -> Callable[[], Value]:
    """What the next iteration's ``parameter`` takes of the back edge's ``value`` (``now``:
    what it took so far), as the CPU plugin gives it; called only where an iteration takes it.
    ``compiled``: the Parameter's shape in the model as read; where it is not known, a Loop's
    Parameter is taken as dynamic once a last-iteration output (``may_widen``) changes it,
    as the first pass of OpenVINO's fixed point makes it (``widened``)."""
    if compiled is not None:
        may_widen = not compiled.is_static
        if may_widen or dynamic_run:  # (its memory becomes the Result's: bytes as they are)
            widened.add(id(parameter))

    def taken() -> Value:
        array, element_type = value
        if array.shape != now[0].shape and dynamic_run and compiled is not None and compiled.is_static:
            array = _first_elements(parameter, array, now[0].shape)
        if array.shape != now[0].shape:
            if not may_widen:
                raise KernelError(
                    f"the back edge brings {list(array.shape)} to body Parameter {parameter.id}, which "
                    f"OpenVINO's shape inference made {list(now[0].shape)} (it does not rerun this body "
                    "for a back edge); OpenVINO's CPU plugin fails to infer ('object is not initialized')"
                )
            widened.add(id(parameter))
        if element_type == now[1]:
            return array, element_type
        if id(parameter) in widened:
            return _reinterpreted(parameter, array, element_type, now[1]), now[1]
        return _converted(array, now[1]), now[1]

    return taken


def _first_elements(parameter: Layer, array: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """What a static body Parameter of a Loop or TensorIterator the CPU plugin runs dynamic
    takes of a back edge of another shape: its memory becomes the Result's, and the body,
    compiled static, reads the first elements of it that its shape holds (by experiment: a
    [2,2] Parameter given [3,2] reads the first two rows); fewer is memory it does not own."""
    needed = int(np.prod(shape, dtype=np.int64))
    if array.size < needed:
        raise KernelError(
            f"the back edge brings {list(array.shape)} to body Parameter {parameter.id}, which OpenVINO's "
            f"shape inference made {list(shape)}: OpenVINO's CPU plugin reads past the values it brings "
            "(memory it does not own), which irshape does not imitate"
        )
    return array.reshape(-1)[:needed].reshape(shape)


def _same_ranks(
    back_edges: dict[int, int],
    parameters: dict[int, Layer],
    state: dict[int, Value],
    results: dict[int, Value],
    last_outputs: set[int],
) -> None:
    """A Loop whose back edge brings another rank to its Parameter (through a last-iteration
    output) has a Parameter of dynamic rank in OpenVINO's inference, as the first pass of its
    fixed point finds: the CPU plugin compiles no such Loop, iterations run or not."""
    for parameter, result_id in back_edges.items():
        now, value = state[parameter][0], results[result_id][0]
        if result_id in last_outputs and value.ndim != now.ndim:
            raise KernelError(
                f"the back edge brings rank {value.ndim} to body Parameter {parameters[parameter].id} of "
                f"rank {now.ndim}, which OpenVINO's shape inference makes a dynamic rank; OpenVINO's CPU "
                "plugin does not compile it ('CPU plug-in doesn't support Loop operation with dynamic rank')"
            )


# The element types the CPU plugin holds in another (its ConvertPrecision pass: no 64-bit
# integers, u32 read as i32, irshape/kernels/integers.py; i16 and u16 as i32, f16, bf16 and
# f64 as f32 under the f32 hint, by experiment: an i32 back edge into an i16 Parameter keeps
# its values): what a back edge's bytes are there.
_HELD = {
    "i64": "i32",
    "u64": "i32",
    "u32": "i32",
    "i16": "i32",
    "u16": "i32",
    "f16": "f32",
    "bf16": "f32",
    "f64": "f32",
}


def _reinterpreted(parameter: Layer, array: np.ndarray, element_type: str, taking: str) -> np.ndarray:
    """The bytes of ``array`` read as ``taking``: what a dynamic Parameter of the CPU plugin's
    takes of a back edge of another element type (by experiment: i32 1 becomes f32 1.4e-45),
    each type as the plugin holds it (an i64 as i32: i64 into i32 keeps the value). Between
    sizes (the 1-byte u8, i8, boolean and the 4-byte rest) the plugin reads what it does not
    own: a larger Parameter keeps the previous iteration's bytes past the new ones, a smaller
    one is overrun (the process aborts: 'malloc(): unaligned fastbin chunk detected'); by
    experiment, tests/differential/test_control_flow_back_edges.py. Refused."""
    held_from, held_to = (storage_dtype(_HELD.get(t, t)) for t in (element_type, taking))
    dtype = storage_dtype(taking)
    if (
        dtype is None
        or held_from is None
        or held_to is None
        or held_from.itemsize != held_to.itemsize
        or "boolean" in (element_type, taking)
    ):
        raise KernelError(
            f"the back edge brings {element_type} to body Parameter {parameter.id} of {taking} whose "
            "shape OpenVINO infers dynamic: its CPU plugin passes the bytes as they are, which irshape "
            "models only between types of one size (between sizes the plugin reads memory the back edge "
            "does not fill, or overruns it)"
        )
    # (ascontiguousarray makes a scalar of rank 1: the shape restored)
    return np.ascontiguousarray(array.astype(held_from)).view(held_to).reshape(array.shape).astype(dtype)


def _converted(array: np.ndarray, element_type: str) -> np.ndarray:
    """``array`` in ``element_type`` as the CPU plugin's back edge converts it: reals to
    integers rounded half to even (by experiment)."""
    dtype = storage_dtype(element_type)
    if dtype is None:
        raise KernelError(f"a back edge converts to {element_type}, which irshape does not model")
    if np.issubdtype(dtype, np.integer) and not np.issubdtype(array.dtype, np.integer):
        array = np.rint(array)
    return array.astype(dtype)


def _concatenated_parts(arrays: list[np.ndarray], axis: int, d: Description) -> None:
    """The CPU plugin concatenates parts ``|stride|`` long on the axis, and fails on others."""
    lengths = {array.shape[axis] for array in arrays if 0 <= axis < array.ndim}
    if lengths - {abs(d.stride)}:
        raise KernelError(
            f"output {d.external} concatenates parts {sorted(lengths)} long on axis {axis}, and its "
            f"stride is {d.stride}: OpenVINO's CPU plugin takes only parts |stride| long and fails"
        )


def _alike_parts(arrays: list[np.ndarray], axis: int, d: Description) -> None:
    """Parts whose other dims differ from iteration to iteration (a back edge that grows):
    the CPU plugin copies each into a buffer laid out for the first (by experiment, its
    output holds bytes no part wrote), which irshape does not imitate."""
    others = {tuple(n for i, n in enumerate(array.shape) if i != axis) for array in arrays}
    if len(others) > 1 or len({array.ndim for array in arrays}) > 1:
        shapes = sorted({str(list(array.shape)) for array in arrays})
        raise KernelError(
            f"output {d.external} concatenates parts of different shapes ({', '.join(shapes)}) on axis "
            f"{axis}: OpenVINO's CPU plugin lays them out in memory the parts do not fill, which irshape "
            "does not imitate"
        )
