"""Execute an IR document with the numpy kernels, layer by layer in graph order.

For each layer: the arrays of its inputs; shape inference at exactly those inputs (with the
values of the inputs the op reads, so a Reshape's target or a TopK's k is known); the memory
estimate, before anything is allocated; then the kernel the op's declaration names. Each output
is checked against that inference (its rank, its dims inside the inferred intervals, its
dtype): a kernel that disagrees with irshape's own inference is a bug in irshape, and said so.
A layer computed from Consts alone (and ShapeOfs of static shapes) is folded as OpenVINO's
compile step folds it: it takes the value the inference evaluates (OpenVINO's ``evaluate``, in
whole i64; what shape inference reads apart of it, a type's maximum as "no limit", is kept for
the layers below), and its kernel runs only where irshape has no value for it
(docs/execution.md, "i64, u64 and u32").

:func:`execute` either stops at the first layer it cannot run (``irshape run``: an
:class:`ExecutionError`) or goes on past it (a dry run: each such layer is one
:class:`LayerOutcome`, and the layers below it are counted as not run). Arrays are dropped as
soon as their last consumer has run, unless ``on_layer`` keeps them.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter
from typing import Any, Protocol

import numpy as np

from irshape.check.layer import check_op
from irshape.check.subgraphs import control_op
from irshape.diagnostics import Diagnostic, Severity
from irshape.dims import DimSyntaxError, PartialShape, parse_partial_shape, static_shape
from irshape.execute.control import RunBody, run_control
from irshape.execute.tensors import DEFAULT_MAX_MEMORY, ConstReader, byte_size, numpy_dtype
from irshape.ir import element_types
from irshape.ir.model import Body, Document, Layer
from irshape.kernels import (
    Context,
    KernelCall,
    KernelError,
    UnsupportedByOpenVINOError,
    integers,
    kernel_of,
    outputs_of,
    storage_dtype,
    working_bytes,
)
from irshape.ops.interface import FROM_CONSTS, ConstTensor, OpResult, Origin, Tensor, Value
from irshape.ops.registry import lookup
from irshape.ops.schema import OpSchema, validate_attributes
from irshape.shapes.bounds import same_reals

# Ops OpenVINO never folds, whatever feeds them (can_constant_fold is false: a ReadValue of a
# Const is a variable). The control ops are not folded either: the executor runs their bodies.
_NEVER_FOLDED = frozenset({"readvalue", "assign"})

# The values of value inputs (axes, target shapes, k) handed to shape inference, up to this many
# elements: enough for any shape or axes list, not a copy of a large index tensor.
_VALUE_LIMIT = 4096
# Value inputs OpenVINO's shape inference reads only where they are Consts, and which at run time
# the plugin's node reads by rules of its own: given without their value to the inference at
# run time, so the node's answer is checked against the intervals OpenVINO infers for data
# (Unique's data: the plugin tells every NaN apart, sorted too, where the reference's sorted
# count, which read_model folds a Const's by, does not).
_READ_BY_THE_NODE = frozenset({("Unique", 0)})


class Outcome(enum.Enum):
    """What became of one layer in an execution."""

    RAN = "ran"
    NO_KERNEL = "no kernel"  # irshape infers the op but cannot execute it yet
    UNKNOWN_OP = "unknown op"  # irshape knows no declaration of the op
    INVALID = "invalid"  # shape inference rejects the layer at these inputs
    NO_VALUE = "no value"  # a Const whose bytes cannot be read, a Parameter without data
    OVER_MEMORY = "over memory"  # the estimate is over the memory limit: not allocated
    UNSUPPORTED = "unsupported"  # OpenVINO's CPU plugin cannot run it either
    KERNEL_FAILED = "kernel failed"  # the kernel refused its inputs
    DISAGREES = "disagrees"  # the kernel's output contradicts irshape's own inference
    INPUT_MISSING = "input missing"  # an input was not computed: a layer above did not run


@dataclass(frozen=True, slots=True)
class LayerOutcome:
    """A layer that did not run, and why (``needed``: the bytes it would need, for OVER_MEMORY)."""

    layer: Layer
    outcome: Outcome
    reason: str
    needed: int = 0

    def message(self) -> str:
        return f"layer {self.layer.id} '{self.layer.name}' ({self.layer.type}): {self.reason}"


class ExecutionError(ValueError):
    """The document cannot be executed: ``outcome`` says which layer and why."""

    def __init__(self, outcome: LayerOutcome) -> None:
        super().__init__(outcome.message())
        self.outcome = outcome


@dataclass(slots=True)
class Execution:
    """What one execution produced: every Result's array by Result name, the variables' final
    values by variable id, and what became of the layers that did not run."""

    results: dict[str, np.ndarray] = field(default_factory=dict)
    variables: dict[str, np.ndarray] = field(default_factory=dict)
    failures: list[LayerOutcome] = field(default_factory=list)
    ran: int = 0  # layers whose kernel ran (Parameters, Consts and Results not counted)
    total: int = 0  # layers with a kernel to run (every layer but Parameters, Consts and Results)

    @property
    def not_run(self) -> int:
        return self.total - self.ran


# What ``on_layer`` is given after each layer ran: the layer, its outputs (by output index) and
# the path of the body it is in, as findings name body layers ("" at the top level; "3/body/"
# in the body of layer 3, "3/body/7/then_body/" deeper). A body's layers are given at each run
# of the body: a Loop's at every iteration. It may return arrays that replace the outputs for
# the layers below (``irshape compare --isolate``: OpenVINO's own), or None.
LayerCallback = Callable[[Layer, tuple[np.ndarray, ...], str], "tuple[np.ndarray, ...] | None"]


class InputUnavailable(Exception):
    """An ``unconnected`` provider has no data for the port; the message says why."""


class InputProvider(Protocol):
    """Data for the input ports no edge reaches (a fragment's layers, in a dry run)."""

    def shape_of(self, layer: Layer, index: int, reads_value: bool) -> tuple[tuple[int, ...], str]:
        """The shape and element type of input ``index``'s data (:class:`InputUnavailable`: none)."""
        ...

    def data(self, shape: tuple[int, ...], element_type: str) -> np.ndarray:
        """The data itself, made only once the layer's memory estimate has passed."""
        ...


_SOURCES = ("parameter", "const", "result")


def execute(
    document: Document,
    inputs: Mapping[str, np.ndarray],
    *,
    max_memory: int = DEFAULT_MAX_MEMORY,
    stop_at_failure: bool = True,
    on_layer: LayerCallback | None = None,
    context: Context | None = None,
    unconnected: InputProvider | None = None,
    compiled: dict[int, PartialShape] | None = None,
) -> Execution:
    """Run ``document`` on ``inputs`` (arrays by Parameter name).

    With ``stop_at_failure`` the first layer that cannot run raises :class:`ExecutionError`;
    otherwise it is recorded in the result's ``failures`` and the layers below it are skipped.
    An input port no edge reaches takes its data from ``unconnected`` (without it, the layer
    cannot run). ``compiled``: the shapes OpenVINO infers for the ports of the control-flow
    layers and their bodies, where the caller's check made them (``check_document``'s
    ``body_shapes``); else they are inferred at the first Loop or TensorIterator.
    """
    executor = _Executor(document, max_memory, stop_at_failure, on_layer, context or Context())
    executor.unconnected = unconnected
    executor.control_shapes = compiled
    return executor.run(inputs)


class _Executor:
    def __init__(
        self,
        document: Document,
        max_memory: int,
        stop_at_failure: bool,
        on_layer: LayerCallback | None,
        context: Context,
    ) -> None:
        self.document = document
        self.max_memory = max_memory
        self.stop_at_failure = stop_at_failure
        self.on_layer = on_layer
        self.context = context
        self.consts = ConstReader(document)
        self.by_id = {layer.id: layer for layer in document.layers if layer.id is not None}
        # (to layer, to port id) -> (from layer, output index)
        self.sources: dict[tuple[str, str], tuple[str, int]] = {}
        self.consumers: dict[tuple[str, int], int] = {}  # how many inputs still read an output
        for edge in document.edges:
            producer = self.by_id.get(edge.from_layer)
            if producer is None:
                continue
            index = next((p.index for p in producer.outputs if p.id == edge.from_port), None)
            if index is None:
                continue
            self.sources[(edge.to_layer, edge.to_port)] = (edge.from_layer, index)
            self.consumers[(edge.from_layer, index)] = self.consumers.get((edge.from_layer, index), 0) + 1
        self.values: dict[tuple[str, int], tuple[np.ndarray, str]] = {}
        # The outputs OpenVINO computes at compile time (constant folding), and what their
        # evaluation reaches (Origin.CONSTS or Origin.SHAPES): they hold the whole value, which
        # a layer not folded reads as it reads a Const's (irshape/kernels/integers.py)
        self.folded: dict[tuple[str, int], Origin] = {}
        # Of those, the outputs whose value shape inference reads apart from evaluate's (a
        # Convert of a type's maximum above them: irshape.shapes.bounds.infer_apart): what it
        # reads, for the layers below to infer their shapes from, as OpenVINO inferred them
        self.read_apart: dict[tuple[str, int], Value] = {}
        # The outputs above a value input that shape inference reads through bounds and leaves
        # them on (:func:`_left_bounds`): where one has a reading apart, the plugin folds that
        self.read_by_bounds, self.bounds_left = _left_bounds(document, self.by_id, self.sources)
        self.unconnected: InputProvider | None = None
        # In a body (irshape.execute.control): the values of its Parameters, by layer id, and
        # what reaches its Results
        self.bound: dict[str, tuple[np.ndarray, str]] | None = None
        self.result_values: dict[str, tuple[np.ndarray, str]] = {}
        self.path = ""  # the body this executor runs, as on_layer names it
        # The shape OpenVINO infers for each port of the document as read, bodies' included
        # (by id(port)): what the CPU plugin compiles a Loop's body for. Made at the first
        # Loop or TensorIterator, shared with the executors of bodies.
        self.compiled: dict[int, PartialShape] | None = None
        # The same for the ports of the control-flow layers and their bodies only, where the
        # caller's check kept them (a dry run's): what the executor of control flow reads
        self.control_shapes: dict[int, PartialShape] | None = None

    def run(self, inputs: Mapping[str, np.ndarray]) -> Execution:
        execution = Execution()
        try:
            for layer in self._order():
                self._step(layer, inputs, execution)
        finally:
            self.consts.close()
        execution.variables = dict(self.context.variables)
        return execution

    def _order(self) -> list[Layer]:
        graph: dict[str, set[str]] = {lid: set() for lid in self.by_id}
        for (to_layer, _), (from_layer, _) in self.sources.items():
            if to_layer in graph:
                graph[to_layer].add(from_layer)
        self._assign_after_reads(graph)
        try:
            return [self.by_id[lid] for lid in TopologicalSorter(graph).static_order()]
        except CycleError as exc:
            raise ExecutionError(
                LayerOutcome(self.by_id[exc.args[1][0]], Outcome.INVALID, "the graph has a cycle")
            ) from exc

    def _assign_after_reads(self, graph: dict[str, set[str]]) -> None:
        """An Assign writes its variable after every ReadValue of it has read the value the
        run started with (as OpenVINO orders them), edge or no edge between them."""
        readers: dict[str, set[str]] = {}
        for lid, layer in self.by_id.items():
            if (layer.type or "").lower() == "readvalue":
                readers.setdefault(layer.data.get("variable_id", ""), set()).add(lid)
        for lid, layer in self.by_id.items():
            if (layer.type or "").lower() == "assign":
                graph[lid] |= readers.get(layer.data.get("variable_id", ""), set())

    def _step(self, layer: Layer, inputs: Mapping[str, np.ndarray], execution: Execution) -> None:
        kind = (layer.type or "").lower()
        if kind not in _SOURCES:
            execution.total += 1
        try:
            input_origins = self._input_origins(layer)  # (before _inputs releases them)
            readings = self._input_readings(layer)
            origin = self._fold_origin(layer, kind, input_origins)
            args = self._inputs(layer, folding=origin is not Origin.DATA)
            if args is None:  # a layer above did not run: only that one is a failure of its own
                if self.stop_at_failure:
                    raise _Failed(layer, Outcome.INPUT_MISSING, "an input was not computed")
                return
            folded_from = input_origins if origin is not Origin.DATA else None
            constants = frozenset(i for i, o in enumerate(input_origins) if o is not Origin.DATA)
            outputs = self._compute(layer, kind, args, inputs, folded_from, constants, readings)
            if self.path and kind != "const":
                self._as_compiled(layer, outputs)
        except _Failed as failed:
            self._fail(execution, failed.outcome)
            return
        if kind == "result":
            execution.results[layer.name or layer.id or ""] = args[0][0]
            self.result_values[layer.id or ""] = args[0]
            return
        if kind not in _SOURCES:
            execution.ran += 1
        if self.on_layer is not None:
            replaced = self.on_layer(layer, tuple(array for array, _ in outputs), self.path)
            if replaced is not None:
                outputs = [
                    (array, element_type) for array, (_, element_type) in zip(replaced, outputs, strict=True)
                ]
        if origin is not Origin.DATA and self.read_apart:
            outputs = [self._with_bounds_left(layer, index, value) for index, value in enumerate(outputs)]
        for index, value in enumerate(outputs):
            if self.consumers.get((layer.id or "", index)):
                self.values[(layer.id or "", index)] = value
                if origin is not Origin.DATA:
                    self.folded[(layer.id or "", index)] = origin

    def _as_compiled(self, layer: Layer, outputs: list[tuple[np.ndarray, str]]) -> None:
        """A body layer's outputs must fit the shapes the CPU plugin compiled the body for
        (OpenVINO's inference of the model as read): a dim it compiled static takes no other
        value, by experiment ('Can not clone with new dims': a Loop body's FloorMod compiled
        [?,2] given [3,3] by a back edge that grows)."""
        compiled = self._control_shapes()
        for index, (port, (array, _)) in enumerate(zip(layer.outputs, outputs, strict=False)):
            if not self.consumers.get((layer.id or "", index)):
                continue  # (an output nothing reads: OpenVINO's transformations remove it)
            shape = compiled.get(id(port))
            dims = None if shape is None else shape.dims
            if dims is None:
                continue
            if len(dims) != array.ndim or any(
                not d.lo <= n <= d.hi for d, n in zip(dims, array.shape, strict=True)
            ):
                raise _Failed(
                    layer,
                    Outcome.UNSUPPORTED,
                    f"it gives [{','.join(map(str, array.shape))}] where OpenVINO infers {shape} for the "
                    "model as read, which its CPU plugin compiles the body for: it fails ('Can not clone "
                    "with new dims')",
                )

    def _with_bounds_left(
        self, layer: Layer, index: int, value: tuple[np.ndarray, str]
    ) -> tuple[np.ndarray, str]:
        """A folded output as the plugin folds it: what shape inference read, where its bounds
        are left on the tensor. ``evaluate_bound`` drops a tensor's bounds once its only
        consumer has them, and keeps those of a tensor read by more than one input; the compile
        step's ``pre_calculated_values_folding`` then makes a Const of the equal bounds it finds
        walking up from the Results; the value input itself keeps them (a Tile's repeats of one
        consumer, read as 340 there, is 340 in the compiled model). By experiment: f16 65504 to
        f32, times 1e-36, read by a Broadcast's target and taken by a Result too, is 340.28
        there, evaluate's 6.55e-32 without the Broadcast (tests/execution/test_folding.py)."""
        key = (layer.id or "", index)
        reading = self.read_apart.get(key)
        if reading is None or key not in self.bounds_left:
            return value
        if key not in self.read_by_bounds and self.consumers.get(key, 0) < 2:
            return value  # dropped once its one consumer had its bounds
        array, element_type = value
        numbers: Sequence[float] | None = reading.lower if reading.lower is not None else reading.real_lower
        upper: Sequence[float] | None = reading.upper if reading.lower is not None else reading.real_upper
        # (a Const only of equal bounds, compared as bytes: has_and_set_bound)
        if numbers is None or upper is None or len(numbers) != array.size or not same_reals(numbers, upper):
            return value
        return np.array(numbers).astype(array.dtype).reshape(array.shape), element_type

    def _fail(self, execution: Execution, outcome: LayerOutcome) -> None:
        if self.stop_at_failure:
            raise ExecutionError(outcome)
        execution.failures.append(outcome)

    def _inputs(self, layer: Layer, folding: bool) -> list[tuple[np.ndarray, str]] | None:
        """The layer's input arrays and element types, releasing those read for the last time;
        None when a layer above did not run. A layer OpenVINO folds gets its inputs whole."""
        args = []
        for index, port in enumerate(layer.inputs):
            key = self.sources.get((layer.id or "", port.id))
            if key is None:
                args.append(self._placeholder(layer, index))
                continue
            if key not in self.values:
                return None
            array, element_type = self.values[key]
            if not folding:
                producer = self._entry_kind(key)
                consumer = (layer.type or "").lower()
                array = integers.entering(array, element_type, producer, consumer)
            args.append((array, element_type))
            remaining = self.consumers[key] - 1
            self.consumers[key] = remaining
            if remaining == 0:
                del self.values[key]
                self.folded.pop(key, None)
                self.read_apart.pop(key, None)
        return args

    def _fold_origin(self, layer: Layer, kind: str, origins: list[Origin]) -> Origin:
        """What OpenVINO's evaluation of the layer's outputs reaches: Origin.CONSTS or
        Origin.SHAPES where its compile step folds them (a Const; a ShapeOf of a shape static in
        the model, as its input port declares it; an op fed by folded outputs only), else
        Origin.DATA (a Parameter's data, a variable, what a body or an unconnected port gives)."""
        if kind == "const":
            return Origin.CONSTS
        if kind in _SOURCES or kind in _NEVER_FOLDED or not layer.inputs or layer.subgraphs is not None:
            return Origin.DATA
        if kind == "shapeof":
            if origins[0] is Origin.CONSTS:
                return Origin.CONSTS
            dims = layer.inputs[0].dims
            return Origin.SHAPES if dims is not None and all(d >= 0 for d in dims) else Origin.DATA
        return min(origins)

    def _entry_kind(self, key: tuple[str, int]) -> str:
        """What the plugin's runtime takes an output for: a folded one is a Const to it."""
        return "const" if key in self.folded else self._kind(key[0])

    def _kind(self, layer_id: str) -> str:
        return (self.by_id[layer_id].type or "").lower()

    def _producer_kind(self, layer: Layer, index: int) -> str:
        """The lowercase type of the layer feeding input ``index`` ('' when none does)."""
        key = self.sources.get((layer.id or "", layer.inputs[index].id))
        return "" if key is None else self._entry_kind(key)

    def _placeholder(self, layer: Layer, index: int) -> tuple[np.ndarray, str]:
        """For an unconnected input, an array of the provider's shape and type that takes no
        memory (a broadcast scalar): the estimate comes first, the data after it."""
        if self.unconnected is None:
            raise _Failed(layer, Outcome.INPUT_MISSING, f"input {index} is not connected")
        schema = lookup(layer.type, layer.version)
        reads_value = schema is not None and index in schema.value_inputs
        try:
            shape, element_type = self.unconnected.shape_of(layer, index, reads_value)
        except InputUnavailable as exc:
            raise _Failed(layer, Outcome.NO_VALUE, str(exc)) from None
        dtype = storage_dtype(element_type) or np.dtype(np.float32)
        return _Placeholder(np.broadcast_to(np.zeros((), dtype), shape)), element_type

    def _compute(
        self,
        layer: Layer,
        kind: str,
        args: list[tuple[np.ndarray, str]],
        inputs: Mapping[str, np.ndarray],
        folded_from: list[Origin] | None,
        constants: frozenset[int],
        readings: list[Value | None],
    ) -> list[tuple[np.ndarray, str]]:
        if kind == "parameter":
            return [self._parameter(layer, inputs)]
        if kind == "const":
            return [self._const(layer)]
        if kind == "result":
            return []
        op = control_op(layer) if layer.subgraphs is not None else None
        if op is not None:
            with _kernel_refusals(layer):
                compiled = self._control_shapes()
                used = frozenset(
                    i for i in range(len(layer.outputs)) if self.consumers.get((layer.id or "", i))
                )
                return run_control(
                    op, layer, args, self._body_runner(layer), lambda port: compiled.get(id(port)), used
                )
        return self._kernel(layer, args, folded_from, constants, readings)

    def _compiled_shapes(self) -> dict[int, PartialShape]:
        """The shapes OpenVINO infers for the ports of the model as read, by id(port) (made
        by the executor of the whole document: a body's executor takes its parent's)."""
        if self.compiled is None:
            # (only for a layer with bodies, or a kernel that asks: KernelCall.compiled_static)
            from irshape.check.model import check_document

            self.compiled = {}
            check_document(self.document, lambda finding: None, port_shapes=self.compiled)
        return self.compiled

    def _control_shapes(self) -> dict[int, PartialShape]:
        """The shapes OpenVINO infers for the ports of the control-flow layers and of their
        bodies: those the caller's check kept, else the whole document's."""
        return self.control_shapes if self.control_shapes is not None else self._compiled_shapes()

    def _compiled_static(self, layer: Layer, port: int) -> bool:
        """Is input ``port`` of ``layer`` of a static shape in the model as OpenVINO reads it?"""
        key = id(layer.inputs[port])
        kept = self.control_shapes
        shape = (kept if kept is not None and key in kept else self._compiled_shapes()).get(key)
        return shape is not None and shape.is_static

    def _body_runner(self, layer: Layer) -> RunBody:
        """Runs a body of ``layer`` with this executor's settings: a failure in it is the
        layer's, naming the body layer."""

        def run_body(
            body: Body, bound: dict[int, tuple[np.ndarray, str]]
        ) -> dict[int, tuple[np.ndarray, str]]:
            document = body.document(self.document)
            inner = _Executor(document, self.max_memory, True, self.on_layer, self.context)
            inner.path = f"{self.path}{layer.id}/{body.tag}/"
            inner.compiled = self.compiled
            inner.control_shapes = self.control_shapes
            inner.bound = {x.id or "": bound[id(x)] for x in body.layers if id(x) in bound}
            try:
                inner.run({})
            except ExecutionError as exc:
                raise _Failed(
                    layer, exc.outcome.outcome, f"in its {body.tag}: {exc.outcome.message()}"
                ) from exc
            return {
                id(x): inner.result_values[x.id or ""]
                for x in body.layers
                if (x.id or "") in inner.result_values
            }

        return run_body

    def _parameter(self, layer: Layer, inputs: Mapping[str, np.ndarray]) -> tuple[np.ndarray, str]:
        if self.bound is not None and (layer.id or "") in self.bound:
            return self.bound[layer.id or ""]
        name = layer.name or ""
        _static_rank(layer)
        if name not in inputs:
            raise _Failed(layer, Outcome.NO_VALUE, f"no input given for Parameter '{name}'")
        element_type = layer.data.get("element_type") or element_types.from_precision(
            layer.outputs[0].precision if layer.outputs else None
        )
        return np.asarray(inputs[name]), element_type or "dynamic"

    def _const(self, layer: Layer) -> tuple[np.ndarray, str]:
        value = self.consts.read(layer)
        if value is None:
            element_type = layer.data.get("element_type")
            raise _Failed(layer, Outcome.NO_VALUE, f"its {element_type} value cannot be read from the .bin")
        return value, layer.data.get("element_type", "")

    def _kernel(
        self,
        layer: Layer,
        args: list[tuple[np.ndarray, str]],
        folded_from: list[Origin] | None,
        constants: frozenset[int],
        readings: list[Value | None],
    ) -> list[tuple[np.ndarray, str]]:
        """The layer's outputs: its kernel's, or where OpenVINO folds the layer (``folded_from``:
        what each input reaches), the values its evaluation gives (``evaluate``'s, as the
        inference has them; what shape inference reads apart of them kept for the layers below).
        ``constants``: the inputs the plugin holds as constants (a Const, a folded output)."""
        schema = lookup(layer.type, layer.version)
        if schema is None:
            raise _Failed(layer, Outcome.UNKNOWN_OP, f"irshape does not know {layer.type} layers")
        folding = folded_from is not None
        inference = self._infer(schema, layer, args, folded_from, readings)
        if folding:
            folded = _folded_outputs(inference)
            if folded is not None:
                self._keep_readings(layer, inference)
                return folded
        kernel = kernel_of(schema)
        if kernel is None:
            raise _Failed(layer, Outcome.NO_KERNEL, f"irshape cannot execute {schema.name} layers yet")
        call = KernelCall(
            schema,
            tuple(array for array, _ in args),
            tuple(element_type for _, element_type in args),
            validate_attributes(schema, layer.data, layer.location(self.document.path), _ignore),
            inference,
            self.context,
            constants,
            lambda port: self._compiled_static(layer, port),
        )
        if schema.op.lower() in integers.CONVERTING_OPS and not folding:
            call = self._converted_on_entry(layer, call)
        placeholders = [i for i, (array, _) in enumerate(args) if isinstance(array, _Placeholder)]
        with _kernel_refusals(layer):
            needed = working_bytes(kernel, call) + sum(args[i][0].nbytes for i in placeholders)
        if needed > self.max_memory:
            reason = (
                f"it would need about {byte_size(needed)} of working memory, "
                f"over the limit of {byte_size(self.max_memory)}"
            )
            raise _Failed(layer, Outcome.OVER_MEMORY, reason, needed)
        if placeholders:
            assert self.unconnected is not None  # (placeholders come from it)
            data = list(call.inputs)
            for i in placeholders:
                data[i] = self.unconnected.data(data[i].shape, args[i][1])
            call = call.replace(inputs=tuple(data))
        with _kernel_refusals(layer):
            produced = outputs_of(kernel(call))
        if folding and (schema.op, 0) in _READ_BY_THE_NODE:
            _as_inferred(layer, inference, produced)
        checked = _checked_outputs(layer, inference, produced)
        if folding:  # OpenVINO's folding computes in whole i64
            return checked
        # the plugin holds every i64 result as i32 (irshape/kernels/integers.py)
        return [(integers.held_as_i32(array), t) for array, t in checked]

    def _keep_readings(self, layer: Layer, inference: OpResult) -> None:
        """Keep what shape inference reads apart of the folded outputs' values, for the layers
        that read them."""
        for index, output in enumerate(inference.outputs):
            key = (layer.id or "", index)
            apart = output.lower is not None or output.real_lower is not None
            if apart and self.consumers.get(key):
                self.read_apart[key] = output.facts

    def _input_readings(self, layer: Layer) -> list[Value | None]:
        """What shape inference reads apart of each input's value (None: its value)."""
        if not self.read_apart:
            return [None] * len(layer.inputs)
        keys = [self.sources.get((layer.id or "", port.id)) for port in layer.inputs]
        return [None if key is None else self.read_apart.get(key) for key in keys]

    def _input_origins(self, layer: Layer) -> list[Origin]:
        """What each input's evaluation reaches (folded outputs only reach this)."""
        keys = [self.sources.get((layer.id or "", port.id)) for port in layer.inputs]
        return [Origin.DATA if key is None else self.folded.get(key, Origin.DATA) for key in keys]

    def _converted_on_entry(self, layer: Layer, call: KernelCall) -> KernelCall:
        """A converting op's inputs straight from a Parameter or a Const, converted whole to a
        real output type as the plugin's input conversion does (irshape/kernels/integers.py)."""
        inputs, types = list(call.inputs), list(call.input_types)
        for index in range(len(call.inference.outputs)):  # input i becomes output i
            producer = self._producer_kind(layer, index)
            target = storage_dtype(call.output_type(index))
            if producer in ("parameter", "const") and target is not None:
                inputs[index], types[index] = integers.converted_on_entry(
                    inputs[index], types[index], producer, target
                )
        return call.replace(inputs=tuple(inputs), input_types=tuple(types))

    def _infer(
        self,
        schema: OpSchema,
        layer: Layer,
        args: list[tuple[np.ndarray, str]],
        origins: list[Origin] | None = None,
        readings: list[Value | None] | None = None,
    ) -> OpResult:
        """Shape inference at these very inputs: what the kernel must produce. With ``origins``
        (a layer OpenVINO folds) every input is given with its value and what it reaches, so
        that the inference evaluates the outputs as OpenVINO's folding does; an input whose value
        shape inference reads apart (``readings``) carries that reading too."""
        if origins is not None:
            tensors = [
                _folded_tensor(array, element_type, origin)
                for (array, element_type), origin in zip(args, origins, strict=True)
            ]
        else:
            tensors = [
                _tensor(
                    array,
                    element_type,
                    i in schema.value_inputs and (schema.op, i) not in _READ_BY_THE_NODE,
                )
                for i, (array, element_type) in enumerate(args)
            ]
        if readings is not None and any(readings):
            tensors = [
                tensor if reading is None else _read_apart(tensor, reading)
                for tensor, reading in zip(tensors, readings, strict=True)
            ]
        found: list[Diagnostic] = []
        result = check_op(schema, layer, tensors, layer.location(self.document.path), found.append)
        errors = [d for d in found if d.severity is Severity.ERROR]
        if result is None or result.rejected or errors:
            reason = errors[0].message if errors else "irshape cannot infer its outputs at these inputs"
            raise _Failed(layer, Outcome.INVALID, reason)
        return result


@contextlib.contextmanager
def _kernel_refusals(layer: Layer) -> Iterator[None]:
    """A kernel's (or its estimate's) refusal as the layer's outcome: what OpenVINO's CPU
    plugin cannot run either, or what the kernel cannot compute."""
    try:
        yield
    except UnsupportedByOpenVINOError as exc:
        raise _Failed(layer, Outcome.UNSUPPORTED, str(exc)) from exc
    except (KernelError, ValueError, IndexError) as exc:
        raise _Failed(layer, Outcome.KERNEL_FAILED, f"the numpy kernel refused it: {exc}") from exc


class _Placeholder(np.ndarray):
    """A broadcast view standing for data not made yet (see ``_Executor._placeholder``)."""

    def __new__(cls, view: np.ndarray) -> _Placeholder:
        return view.view(cls)


class _Failed(Exception):
    def __init__(self, layer: Layer, outcome: Outcome, reason: str, needed: int = 0) -> None:
        super().__init__(reason)
        self.outcome = LayerOutcome(layer, outcome, reason, needed)


def _static_rank(parameter: Layer) -> None:
    """OpenVINO's CPU plugin compiles no model with a Parameter of dynamic rank, whatever reads
    it (by experiment with OpenVINO 2026.4: a Relu of it, a Loop's trip count, an If's
    condition: 'CPU plug-in doesn't support Parameter operation with dynamic rank')."""
    text = parameter.data.get("shape")
    try:
        dynamic_rank = text is not None and parse_partial_shape(text).dims is None
    except DimSyntaxError:
        return
    if dynamic_rank:
        raise _Failed(
            parameter,
            Outcome.UNSUPPORTED,
            f"its shape {text} is of dynamic rank: OpenVINO's CPU plugin compiles no model with such a "
            "Parameter ('CPU plug-in doesn't support Parameter operation with dynamic rank')",
        )


def _ignore(_: Diagnostic) -> None:
    """Attribute findings were reported by the check, or by the inference just before."""


def _tensor(array: np.ndarray, element_type: str, with_value: bool) -> Tensor:
    """What shape inference is told of an input: its shape and element type, and for the inputs
    whose value the op reads, that value (as a Const's, which it is to the op at run time)."""
    shape = static_shape(array.shape)
    if not with_value or array.size > _VALUE_LIMIT or array.dtype.kind not in "biuf":
        return Tensor(shape, element_type)
    flat = array.reshape(-1)
    if array.dtype.kind == "f":
        return ConstTensor(
            shape, element_type, reals=tuple(float(v) for v in flat), constant=True, origin=FROM_CONSTS
        )
    return ConstTensor(
        shape, element_type, value=tuple(int(v) for v in flat), constant=True, origin=FROM_CONSTS
    )


def _folded_tensor(array: np.ndarray, element_type: str, origin: Origin) -> Tensor:
    """An input of a layer OpenVINO folds: its whole value (when small) and what it reaches."""
    shape = static_shape(array.shape)
    if array.size > _VALUE_LIMIT or array.dtype.kind not in "biuf":
        return Tensor(shape, element_type, constant=origin is Origin.CONSTS, origin=origin)
    flat = array.reshape(-1)
    constant = origin is Origin.CONSTS
    if array.dtype.kind == "f":
        reals = tuple(float(v) for v in flat)
        return ConstTensor(shape, element_type, reals=reals, constant=constant, origin=origin)
    value = tuple(int(v) for v in flat)
    return ConstTensor(shape, element_type, value=value, constant=constant, origin=origin)


def _folded_outputs(inference: OpResult) -> list[tuple[np.ndarray, str]] | None:
    """The outputs of a layer OpenVINO folds as the inference evaluated them (OpenVINO's
    ``evaluate``: whole i64, bf16 rounded as OpenVINO rounds it); None unless every output's
    value is known, from Consts and static shapes only."""
    folded = []
    for output in inference.outputs:
        dims = output.shape.dims
        dtype = storage_dtype(output.element_type or "dynamic")
        known = output.value if output.value is not None else output.reals
        if output.origin is Origin.DATA or known is None or dims is None or dtype is None:
            return None
        if any(d.lo != d.hi for d in dims):
            return None
        shape = tuple(d.lo for d in dims)
        if len(known) != int(np.prod(shape, dtype=np.int64)):
            return None
        folded.append((np.array(known).astype(dtype).reshape(shape), output.element_type or "dynamic"))
    return folded


# The one op whose shape inference reads a value input through bounds and leaves none on its
# tensors (by experiment: Broadcast-1/3, Tile, Pad-1/12, Interpolate-11, Range, StridedSlice,
# Slice, TopK and Unsqueeze leave them)
_BOUNDS_DROPPED = frozenset({"reshape"})


def _left_bounds(
    document: Document, by_id: Mapping[str, Layer], sources: Mapping[tuple[str, str], tuple[str, int]]
) -> tuple[frozenset[tuple[str, int]], frozenset[tuple[str, int]]]:
    """The outputs a layer's shape inference reads as a value input through ``evaluate_bound``,
    and every output above them it evaluates (up to the Consts and ShapeOfs)."""
    pending: list[tuple[str, int]] = []
    for layer in document.layers:
        schema = lookup(layer.type, layer.version)
        if schema is None or (layer.type or "").lower() in _BOUNDS_DROPPED:
            continue
        for index in {*schema.value_inputs, *schema.bounds_inputs}:
            if index < len(layer.inputs):
                key = sources.get((layer.id or "", layer.inputs[index].id))
                if key is not None:
                    pending.append(key)
    roots, reached = set(pending), set[tuple[str, int]]()
    while pending:
        key = pending.pop()
        if key in reached:
            continue
        reached.add(key)
        producer = by_id.get(key[0])
        if producer is None or (producer.type or "").lower() == "shapeof":
            continue
        pending.extend(
            source for port in producer.inputs if (source := sources.get((key[0], port.id))) is not None
        )
    return frozenset(roots), frozenset(reached)


def _read_apart(tensor: Tensor, reading: Value) -> Tensor:
    """The input with what shape inference reads apart of its value (``reading``'s bounds), where
    the inference is given its value."""
    if tensor.value is not None:
        return tensor.replace(lower=reading.lower, upper=reading.upper)
    if tensor.reals is not None:
        return tensor.replace(real_lower=reading.real_lower, real_upper=reading.real_upper)
    return tensor


def _as_inferred(layer: Layer, inference: OpResult, produced: tuple[np.ndarray, ...]) -> None:
    """A node of Consts the plugin runs (it has no evaluate to fold it) with the static shapes
    read_model inferred, whose node gives another shape (a sorted Unique of NaNs, which the
    reference counts otherwise): the plugin fails ('Can not clone with new dims', by
    experiment), and so does the layer."""
    for array, output in zip(produced, inference.outputs, strict=False):
        lengths = output.shape.lengths
        if lengths is not None and lengths != array.shape:
            raise _Failed(
                layer,
                Outcome.UNSUPPORTED,
                f"it gives [{','.join(map(str, array.shape))}] where OpenVINO infers {output.shape} for the "
                "model as read, which its CPU plugin runs the node with: it fails ('Can not clone with "
                "new dims')",
            )


def _checked_outputs(
    layer: Layer, inference: OpResult, produced: tuple[np.ndarray, ...]
) -> list[tuple[np.ndarray, str]]:
    """The kernel's outputs with their element types, each checked against the inference."""
    if len(produced) != len(inference.outputs):
        reason = (
            f"the kernel gave {len(produced)} outputs where shape inference gives {len(inference.outputs)}"
        )
        raise _Failed(layer, Outcome.DISAGREES, reason)
    checked = []
    for index, (array, output) in enumerate(zip(produced, inference.outputs, strict=True)):
        element_type = output.element_type or "dynamic"
        dtype = storage_dtype(element_type)
        dims = output.shape.dims
        shape_agrees = dims is None or (
            len(dims) == array.ndim and all(d.lo <= n <= d.hi for d, n in zip(dims, array.shape, strict=True))
        )
        if not shape_agrees or (dtype is not None and array.dtype != dtype):
            produced_text = "[" + ",".join(str(n) for n in array.shape) + f"] {array.dtype}"
            reason = (
                f"output {index}: the kernel produced {produced_text} where irshape's shape inference "
                f"gives {output.shape} {element_type} (a bug in irshape: please report it)"
            )
            raise _Failed(layer, Outcome.DISAGREES, reason)
        checked.append((array, element_type))
    return checked


def input_dtype(layer: Layer) -> Any:
    """The numpy dtype of a Parameter's data (its element_type, else its port's precision)."""
    return numpy_dtype(layer.data.get("element_type")) or numpy_dtype(
        layer.outputs[0].precision if layer.outputs else None
    )
