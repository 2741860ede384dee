"""Indexing ops: ShapeOf, Gather*, Scatter*, Slice, SliceScatter, StridedSlice, Range, NonZero
and TopK.

Each function follows OpenVINO's shape inference for the op (``src/core/shape_inference/
include/<op>_shape_inference.hpp`` and the op's ``validate_and_infer_types``), checked against
OpenVINO 2026.4 by tests/differential/test_indexing.py (SliceScatter-15: ``slice_scatter_shape_
inference.hpp``, the data's shape, the updates fitting the slice Slice-8 takes of the data;
tests/differential/test_rearrange.py). The validation stops at the first check OpenVINO fails,
with its message.

Values: these ops are what shape subgraphs are made of, so they pass values on. ShapeOf's value
is its input's static shape; Gather, Slice, StridedSlice, Range and the scatters (into data
of any rank, with their reductions, reals too) compute their output's value when their inputs'
values are known (small tensors only). Where a value that decides
the output shape is unknown, the output is what OpenVINO infers without it, and an IRS306 info
says so once per layer. On dynamic shapes ShapeOf gives the value's bounds (irshape.shapes.
bounds), Gather, Slice, StridedSlice and the scatters move them, and Slice, StridedSlice and
TopK read start, begin, end, stop and k from them as OpenVINO's shape inference does.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

from irshape import rules
from irshape.diagnostics import Rule
from irshape.dims import DYNAMIC, INF, Dim, PartialShape, static_shape
from irshape.ir.element_types import INTEGRAL, REAL_MAX, is_integral_number
from irshape.ops.interface import AT_DATA, Anchor, Finding, OpCall, OpResult, Output, Tensor, Unknown
from irshape.ops.schema import OpSchema, load_declaration
from irshape.shapes import bounds as value_bounds
from irshape.shapes import reading, values
from irshape.shapes.axes import axis_range_message, normalize_axis
from irshape.shapes.broadcast import compatible
from irshape.shapes.findings import (
    incompatible,
    rank_finding,
    type_finding,
    typed_inputs,
    unreadable,
    value_finding,
    value_unknown,
)
from irshape.shapes.moving import moves_bounds
from irshape.shapes.slicing import (
    I64_MAX,
    Bounds,
    any_length,
    bounded_sliced_dim,
    sliced_dim,
    sliced_range,
    unknown_bounds,
)

VALUE_MAX = 64  # the most elements of an output whose value is passed on


# --- the frame every function runs in -----------------------------------------------------


class _Rejected(Exception):
    """OpenVINO rejects the layer: the finding says why."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.args.get("ov_message", ""))
        self.finding = finding


class _Op:
    """One call: its inputs and attributes, the findings so far and the ways to add one."""

    def __init__(self, call: OpCall) -> None:
        self.call = call
        self.inputs = call.inputs
        self.version = call.schema.version
        self.findings: list[Finding] = []
        self._unknown_said = False

    def shape(self, port: int) -> PartialShape:
        return self.inputs[port].shape

    def element_type(self, port: int) -> str | None:
        return self.inputs[port].element_type

    def attribute(self, name: str) -> Any:
        return self.call.attribute(name)

    def has_input(self, port: int) -> bool:
        return port < len(self.inputs)

    # -- rejections ---------------------------------------------------------------------------

    def reject(self, rule: Rule, anchor: Anchor, **args: Any) -> _Rejected:
        return _Rejected(Finding(rule, args, anchor))

    def bad_value(self, port: int, problem: str, ov_message: str) -> _Rejected:
        return self.reject(rules.INPUT_VALUE, port, problem=problem, ov_message=ov_message)

    def bad_shapes(self, problem: str, ov_message: str, anchor: Anchor = None) -> _Rejected:
        return self.reject(rules.INPUTS_INCOMPATIBLE, anchor, problem=problem, ov_message=ov_message)

    def bad_rank(self, port: int, expected: str, ov_message: str) -> _Rejected:
        shape = self.shape(port)
        name = self.call.schema.inputs[port].name
        return self.reject(
            rules.INPUT_RANK,
            port,
            port=port,
            input=name,
            rank=shape.rank,
            shape=str(shape),
            expected=expected,
            ov_message=ov_message,
        )

    def bad_type(self, port: int, wanted: str, ov_message: str) -> _Rejected:
        name = self.call.schema.inputs[port].name
        problem = f"input {port} ({name}) has element type {self.element_type(port)}; {wanted}"
        return self.reject(rules.INPUT_ELEMENT_TYPE, port, problem=problem, ov_message=ov_message)

    def bad_attribute(self, name: str, problem: str, ov_message: str) -> _Rejected:
        value = self.call.attributes.texts.get(name, str(self.attribute(name)))
        op = self.call.schema.name
        return self.reject(
            rules.ATTRIBUTE_VALUE,
            AT_DATA,
            attribute=name,
            value=value,
            op=op,
            problem=problem,
            ov_message=ov_message,
        )

    def require_integral(self, port: int, ov_message: str) -> None:
        element_type = self.element_type(port)
        if not is_integral_number(element_type):
            raise self.bad_type(port, "an integer type is required", ov_message)

    def rank_lost(self, why: str) -> Output:
        """A dynamic-rank output although the data's rank is known (IRS305)."""
        self.findings.append(Finding(rules.DYNAMIC_RANK_OUTPUT, {"what": "dynamic rank", "why": why}))
        return Output(PartialShape(None), self.element_type(0))

    # -- values ------------------------------------------------------------------------------

    def value_read(self, port: int) -> tuple[int, ...] | None:
        """The input's value where OpenVINO reads it to check it, not for the shape: rejected
        when the reading fails (``value_error``), else the value or None, without IRS306."""
        if not self.has_input(port):
            return None
        tensor = self.inputs[port]
        if tensor.value_error is not None:
            (finding,) = unreadable(port, self.call.schema.inputs[port].name, tensor)
            raise _Rejected(finding)
        return tensor.value

    def value(self, port: int, consequence: str) -> tuple[int, ...] | None:
        """The input's value; when unknown, say so once (IRS306) with what follows."""
        if not self.has_input(port):
            return None
        tensor = self.inputs[port]
        if tensor.value is not None:
            return tensor.value
        self.value_read(port)  # OpenVINO fails reading it: the layer is rejected
        # Said once, but of each input a layer typed 'Constant' feeds (OpenVINO fails on it
        # where it reads the value, check/layer_findings.py no_value)
        if not self._unknown_said or tensor.unknown is Unknown.NO_BYTES:
            self._unknown_said = True
            name = self.call.schema.inputs[port].name
            default = "it is not a Const, and irshape could not compute it from its producers"
            self.findings += value_unknown(port, name, tensor, consequence, default)
        return None


def _shape_function(infer: Callable[[_Op], list[Output]]) -> Callable[[OpCall], OpResult]:
    """A shape function from ``infer``, which raises :class:`_Rejected` where OpenVINO fails."""

    @functools.wraps(infer)
    def shape_function(call: OpCall) -> OpResult:
        if call.attributes.broken:  # OpenVINO rejects the file; the attribute's finding says why
            return OpResult([])
        op = _Op(call)
        try:
            outputs = infer(op)
        except _Rejected as rejected:
            return OpResult([], [rejected.finding])
        return OpResult(outputs, op.findings)

    return shape_function


# --- small helpers --------------------------------------------------------------------------


def _rank_compatible(shape: PartialShape, rank: int) -> bool:
    return shape.rank is None or shape.rank == rank


def _static_length(shape: PartialShape) -> int | None:
    """The length of a 1D shape whose dim is static, else None."""
    if shape.rank == 1 and shape[0].is_static:
        return shape[0].value
    return None


def _compatible_shapes(a: PartialShape, b: PartialShape) -> bool:
    if a.dims is None or b.dims is None:
        return True
    return len(a.dims) == len(b.dims) and all(x.compatible(y) for x, y in zip(a.dims, b.dims, strict=True))


def _passed_on(result: values.Known | None, shape: PartialShape) -> tuple[int, ...] | None:
    """The flat value of a computed output, when it is small and has the inferred shape."""
    if result is None or shape.lengths != result.lengths or len(result.values) > VALUE_MAX:
        return None
    return tuple(int(v) for v in result.values)


def _normalized_axis(op: _Op, axis: int, rank: int, port: int | None, name: str = "axis") -> int:
    """``ov::util::try_normalize_axis``: the axis counted from 0, or the layer is rejected."""
    normalized = normalize_axis(axis, rank)
    if normalized is None:
        message = axis_range_message(axis, rank)
        problem = f"axis {axis} is outside [{-rank}, {rank - 1}] for data of rank {rank}"
        if port is None:
            raise op.bad_attribute(name, f"is outside [{-rank}, {rank - 1}] (data rank {rank})", message)
        raise op.bad_value(port, problem, message)
    return normalized


# --- ShapeOf --------------------------------------------------------------------------------


@_shape_function
def shape_of(op: _Op) -> list[Output]:
    """ShapeOf-1/3: a 1D tensor of the data's rank whose value is the data's static shape."""
    element_type = "i64"
    if op.version >= 3:
        element_type = str(op.attribute("output_type"))
        if element_type not in ("i32", "i64"):
            raise op.bad_attribute("output_type", "is not i32 or i64", "Output type must be i32 or i64")
    data = op.shape(0)
    shape = PartialShape([DYNAMIC if data.rank is None else Dim.of(data.rank)])
    output = Output(shape, element_type, value=data.lengths)
    if data.dims is None or len(data.dims) > VALUE_MAX:
        return [output]
    if element_type == "i32":
        return [_i32_shape_of(output, data.dims)]
    if data.lengths is None:
        # evaluate_lower/upper: the min and max shapes (an unbounded dim's upper bound int64's
        # maximum)
        maximum = value_bounds.type_max(element_type) or INF
        output.lower = tuple(min(d.lo, maximum) for d in data.dims)
        output.upper = tuple(min(d.hi, maximum) for d in data.dims)
    return [output]


def _i32_shape_of(output: Output, dims: Sequence[Dim]) -> Output:
    """An i32 ShapeOf's bounds (``shape_of.cpp``'s ``evaluate_bound``): where a dim's maximum
    is at or above INT32_MAX the upper bound is INT32_MAX (unbounded), where its minimum is, the
    lower bound is 0. Shape inference reads the value through them only, so a static dim of
    INT32_MAX or more reads as ``?``; evaluate's value (what folding gives) is the dims cut to
    32 bits, kept apart from what shape inference reads (docs §14)."""
    limit = value_bounds.I32_MAX
    lower = tuple(0 if d.lo >= limit else d.lo for d in dims)
    upper = tuple(limit if d.hi >= limit else d.hi for d in dims)
    if output.value is None:
        output.lower, output.upper = lower, upper
    elif lower != upper:
        output.value = tuple((length + 2**31) % 2**32 - 2**31 for length in output.value)
        output.lower, output.upper = lower, upper
    return output


# --- Gather ---------------------------------------------------------------------------------

GATHER_DATA, GATHER_INDICES, GATHER_AXIS = 0, 1, 2


@reading.reads(GATHER_AXIS)
@moves_bounds(GATHER_INDICES, GATHER_AXIS)
@_shape_function
def gather(op: _Op) -> list[Output]:
    """Gather-1/7/8: data[:batch_dims] + data[batch_dims:axis] + indices[batch_dims:] +
    data[axis+1:] (``gather_shape_inference.hpp``)."""
    data, indices, axis_shape = op.shape(0), op.shape(1), op.shape(2)
    if op.version >= 7:  # Gather-1 takes indices and axis of any element type
        op.require_integral(GATHER_INDICES, "Indices element type must be of an integral number type.")
        op.require_integral(GATHER_AXIS, "Axis element type must be of an integral number type.")
    if axis_shape.is_static and not (axis_shape.rank == 0 or axis_shape.lengths == (1,)):
        raise op.bad_rank(
            GATHER_AXIS,
            "expected a scalar or one element",
            f"Axis input must be scalar or have 1 element. But instead got axis_shape = {axis_shape}",
        )
    batch_dims = int(op.attribute("batch_dims")) if op.version >= 7 else 0
    if batch_dims < 0 and indices.rank is not None:
        batch_dims += indices.rank  # once: what is still negative stays so (by experiment)
    axis = _gather_axis(op, data, batch_dims)
    if indices.rank is not None and batch_dims >= 0 and batch_dims > indices.rank:
        message = (
            f"The batch_dims must be <= indices_rank. But instead got: batch_dims = {batch_dims}, "
            f"indices_rank = {indices.rank}"
        )
        raise op.bad_attribute("batch_dims", "is above the indices' rank", message)
    element_type = op.element_type(GATHER_DATA)
    if data.dims is None or indices.dims is None:
        return [Output(PartialShape(None), element_type)]
    shape = _gather_shape(op, data, indices, axis, batch_dims)
    return [Output(shape, element_type, value=_gather_value(op, axis, batch_dims, shape))]


def _gather_axis(op: _Op, data: PartialShape, batch_dims: int) -> int | None:
    value = op.value(GATHER_AXIS, "the dims it gathers along are unknown")
    if value is None or len(value) != 1:
        return None
    axis = value[0]
    if data.rank is not None:
        if data.rank == 0:
            raise op.bad_rank(GATHER_DATA, "expected rank 1 or more", "Accessing out-of-range dimension")
        axis = _normalized_axis(op, axis, data.rank, GATHER_AXIS)
    if not (batch_dims <= axis or batch_dims < 0 or axis < 0):
        message = (
            f"After normalization batch_dims must be <= axis. But instead got: batch_dims = {batch_dims}, "
            f"axis = {axis}"
        )
        raise op.bad_attribute("batch_dims", f"is above the axis {axis}", message)
    return axis


_OUT_OF_RANGE = "Accessing out-of-range dimension"
_MAX_DIMENSIONS = 2**63 // 32  # std::vector<Dimension>::max_size()
_RANK_LIMIT = 2**20  # beyond, irshape does not build the shape: OpenVINO runs out of memory


def _gather_shape(
    op: _Op, data: PartialShape, indices: PartialShape, axis: int | None, batch_dims: int
) -> PartialShape:
    """``gather_shape_inference.hpp`` step by step: data[:b] & indices[:b], data[b:axis],
    indices[b:], data[axis+1:], every index into a shape normalized as OpenVINO's
    ``PartialShape::operator[]`` does (a negative one counts from the end, once; out of range
    fails). A batch_dims still negative after adding the indices' rank makes those indices
    negative: Gather-8 with batch_dims -2 over data [4,6,8] and indices [3] on axis 1 is
    [4,3,3,8] (docs/openvino-ir-reading.md §15)."""
    assert data.dims is not None and indices.dims is not None
    index_rank = len(indices.dims)
    out_rank = len(data.dims) + index_rank - 1 - batch_dims
    # The output shape is resized to out_rank first: a negative or huge size fails there (a
    # vector of Dimensions holds at most 2^63 / 32 of them; far fewer fit in memory).
    if out_rank < 0 or out_rank > _MAX_DIMENSIONS:
        raise op.bad_rank(GATHER_DATA, "expected rank 1 or more", "vector::_M_default_append")
    if out_rank > _RANK_LIMIT:
        problem = f"the output would have rank {out_rank} (batch_dims {batch_dims})"
        raise op.bad_shapes(problem, "std::bad_alloc")
    out: list[Dim] = [DYNAMIC] * out_rank

    def at(dims: Sequence[Dim], i: int, what: str) -> int:
        k = i + len(dims) if i < 0 else i
        if not 0 <= k < len(dims):
            problem = f"OpenVINO reads axis {i} of {what}, of rank {len(dims)} (batch_dims {batch_dims})"
            raise op.bad_shapes(problem, _OUT_OF_RANGE)
        return k

    message = (
        f"Shapes {data} and {indices} are not consistent. data and indices must have equal or "
        "intersecting sizes until batch_dims"
    )
    i = 0
    while i < batch_dims:
        d = data.dims[at(data.dims, i, "the data")]
        n = indices.dims[at(indices.dims, i, "the indices")]
        if not d.compatible(n):
            raise op.bad_shapes(f"data {data} and indices {indices} differ on batch axis {i}", message)
        out[at(out, i, "the output")] = d & n
        i += 1
    if axis is None:  # only the batch dims are known
        return PartialShape(out)
    while i < axis:
        out[at(out, i, "the output")] = data.dims[at(data.dims, i, "the data")]
        i += 1
    while i < axis + index_rank - batch_dims:
        out[at(out, i, "the output")] = indices.dims[at(indices.dims, batch_dims - axis + i, "the indices")]
        i += 1
    while i < out_rank:
        out[at(out, i, "the output")] = data.dims[at(data.dims, batch_dims + 1 - index_rank + i, "the data")]
        i += 1
    return PartialShape(out)


# The indices types Gather's evaluate takes (by experiment: OpenVINO folds no other Gather;
# its data types are those values.evaluates names)
_GATHER_FOLDS_INDICES = frozenset({"i32", "i64"})


def _gather_value(op: _Op, axis: int | None, batch_dims: int, shape: PartialShape) -> tuple[int, ...] | None:
    """Gather of a known value (a shape) by known indices: numpy's take, negative indices
    counted from the end once; an index out of range gathers zeros, as ``reference::gather``
    (and so the bounds OpenVINO evaluates: ShapeOf of [?,1,16] gathered at [1,2,3] is
    [1,16,0], by experiment)."""
    data, indices = values.known(op.inputs[GATHER_DATA]), values.known(op.inputs[GATHER_INDICES])
    if data is None or indices is None or axis is None or not 0 <= batch_dims <= axis or not data.lengths:
        return None
    if (
        not values.evaluates("Gather", op.element_type(GATHER_DATA))
        or op.element_type(GATHER_INDICES) not in _GATHER_FOLDS_INDICES
    ):
        return None
    size = data.lengths[axis]
    normalized = [i + size if i < 0 else i for i in indices.values]
    if any(not 0 <= i < size for i in normalized):  # each such index takes a slab of zeros
        data = _with_zeros_after(data, axis)
        normalized = [i if 0 <= i < size else size for i in normalized]
    taken = values.batched_take(data, values.Known(normalized, indices.lengths), axis, batch_dims)
    return _passed_on(taken, shape)


def _with_zeros_after(data: values.Known, axis: int) -> values.Known:
    """``data`` one longer on ``axis``, the last slab along it zeros."""
    inner = math.prod(data.lengths[axis + 1 :])
    block = data.lengths[axis] * inner
    extended: list[int] = []
    for outer in range(math.prod(data.lengths[:axis])):
        extended += [*data.values[outer * block : (outer + 1) * block], *[0] * inner]
    lengths = (*data.lengths[:axis], data.lengths[axis] + 1, *data.lengths[axis + 1 :])
    return values.Known(extended, lengths)


# --- GatherElements, GatherND -----------------------------------------------------------------


@_shape_function
def gather_elements(op: _Op) -> list[Output]:
    """GatherElements-6: the data's shape with the indices' dim on ``axis`` (and the indices'
    dims where they narrow the data's)."""
    data, indices = op.shape(0), op.shape(1)
    element_type = op.element_type(0)
    if op.element_type(1) not in (None, "i32", "i64", "dynamic"):
        message = f"indices must be of int32 or int64 type. But instead got: {op.element_type(1)}"
        raise op.bad_type(1, "i32 or i64 is required", message)
    if indices.rank is not None and indices.rank < 1:
        raise op.bad_rank(1, "expected rank 1 or more", "indices rank must be >= 1.")
    if data.dims is None:
        return [Output(indices, element_type)]
    if not data.dims:
        raise op.bad_rank(0, "expected rank 1 or more", "data rank must be >= 1.")
    axis = _normalized_axis(op, int(op.attribute("axis")), len(data.dims), None)
    out = list(data.dims)
    if indices.dims is None:
        out[axis] = DYNAMIC
        return [Output(PartialShape(out), element_type)]
    if len(indices.dims) != len(data.dims):
        message = f"data and indices rank must be equal. But instead got: {data.rank} and {indices.rank}"
        raise op.bad_shapes(f"data has rank {data.rank} but indices rank {indices.rank}", message)
    out[axis] = indices[axis]
    merged = [a & b for a, b in zip(out, indices.dims, strict=True)]
    if any(d.is_empty for d in merged):
        message = (
            f"Shapes {data} and {indices} are not consistent, `data` and `indices` must have equal or "
            f"intersecting dimensions, except for the dimension at axis index.{axis}"
        )
        raise op.bad_shapes(f"data {data} and indices {indices} differ off axis {axis}", message)
    return [Output(PartialShape(merged), element_type)]


@_shape_function
def gather_nd(op: _Op) -> list[Output]:
    """GatherND-5/8: batch dims, the indices' dims but the last, the data dims the index tuples
    do not address; GatherND-5 folds the batch dims into one."""
    data, indices = op.shape(0), op.shape(1)
    index_type = op.element_type(1)
    if not is_integral_number(index_type):
        message = f"The indices type is expected to be an integer type. Got: {index_type}"
        raise op.bad_type(1, "an integer type is required", message)
    batch_dims = int(op.attribute("batch_dims")) % 2**64  # a size_t: -1 is 2**64 - 1
    _check_gather_nd_ranks(op, data, indices, batch_dims)
    if data.dims is None or indices.dims is None:
        return [Output(PartialShape(None), op.element_type(0))]
    if not indices[-1].is_static:
        why = f" (the index tuples' length, indices axis {len(indices.dims) - 1}, is {indices[-1]})"
        return [op.rank_lost(why)]
    tuple_length = indices[-1].value
    if tuple_length + batch_dims > len(data.dims):
        message = (
            "Length of a tuple with indices must not exceed a rank of data tensor excluding batch dimensions."
        )
        problem = f"index tuples of length {tuple_length} address more axes than data {data} has"
        raise op.bad_shapes(problem, message)
    out = _batch_dims(op, data, indices, batch_dims, "Batch dimensions of data and indices must be the same.")
    out += indices.dims[batch_dims:-1] + data.dims[batch_dims + tuple_length :]
    if op.version == 5 and batch_dims > 1:
        fused = functools.reduce(lambda a, b: a * b, out[1:batch_dims], out[0])
        out = [fused, *out[batch_dims:]]
    return [Output(PartialShape(out), op.element_type(0))]


def _check_gather_nd_ranks(op: _Op, data: PartialShape, indices: PartialShape, batch_dims: int) -> None:
    for port, shape, what in ((0, data, "data"), (1, indices, "indices")):
        if shape.rank == 0:
            raise op.bad_rank(
                port, "expected rank 1 or more", f"{what.capitalize()} rank must be at least 1."
            )
        if shape.rank is not None and shape.rank <= batch_dims:
            message = f"Number of batch dimensions must not exceed a rank of {what}."
            raise op.bad_rank(port, f"expected a rank above batch_dims = {batch_dims}", message)


def _batch_dims(
    op: _Op, data: PartialShape, indices: PartialShape, batch_dims: int, message: str
) -> list[Dim]:
    """The leading batch dims data and indices share: their intersections."""
    merged = [data[i] & indices[i] for i in range(batch_dims)]
    for i, dim in enumerate(merged):
        if dim.is_empty:
            raise op.bad_shapes(f"data {data} and indices {indices} differ on batch axis {i}", message)
    return merged


# --- the scatters -----------------------------------------------------------------------------


@reading.reads(3, how=reading.CAST_VECTOR)
@moves_bounds(1, 3)
@_shape_function
def scatter_update(op: _Op) -> list[Output]:
    """ScatterUpdate-3: the data's shape; updates = data[:axis] + indices + data[axis+1:]
    (``util::ScatterBase::validate_and_infer_types``)."""
    data, indices, updates, axis_shape = (op.shape(i) for i in range(4))
    op.require_integral(1, "Indices element type must be of an integral number type.")
    data_type, updates_type = op.element_type(0), op.element_type(2)
    if not _types_merge(data_type, updates_type):
        message = (
            f"Element types for input data and updates do not match (data element type: {data_type}, "
            f"updates element type: {updates_type})."
        )
        raise op.bad_type(2, f"the data's {data_type} is required", message)
    op.require_integral(3, "Axis element type must be of an integral number type.")
    if not (_rank_compatible(axis_shape, 0) or _compatible_shapes(axis_shape, PartialShape([1]))):
        message = f"Axis input shape is required to be scalar or 1D tensor. Got: {axis_shape}"
        raise op.bad_rank(3, "expected a scalar or one element", message)
    _check_scatter_ranks(op, data.rank, indices.rank, updates.rank)
    if data.dims is not None:
        axis_value = op.value_read(3)
        if axis_value is not None and axis_value:
            axis = _normalized_axis(op, axis_value[0], len(data.dims), 3)
            _check_scatter_updates(op, data, indices, updates, axis)
    return _scattered(op)


def _scattered(op: _Op) -> list[Output]:
    """The scatter's output: the data's shape, with the value the reference writes
    (:func:`_scattered_value`; a real one with a reduction, :func:`_real_reduced_scatter`), or
    where its evaluation fails the message it fails with."""
    writes = _scatter_writes(op)
    output = Output(op.shape(0), op.element_type(0))
    if isinstance(writes, str):
        reading.fails_evaluating(output, writes)
    elif writes is not None:
        output.value = _scattered_value(op, writes)
        if op.element_type(0) in _REAL_SCATTERS.get(op.call.schema.op, ()):
            value_bounds.settle_reals(output, _real_reduced_scatter(op, writes))
    return [output]


# The real types the scatters' evaluate takes with a reduction (by experiment: f64 none); the
# elements they move without one are moved as positions (irshape.shapes.bounds._MOVES_REALS)
_REAL_SCATTERS = {
    "ScatterElementsUpdate": frozenset({"f16", "f32", "bf16"}),
    "ScatterNDUpdate": frozenset({"f16", "f32", "bf16"}),
}
# A scatter's writes: (the output's flat position, the update's flat position), in the order
# the reference writes them
Writes = list[tuple[int, int]]


def _scatter_writes(op: _Op) -> Writes | str | None:
    """Where OpenVINO's reference writes each update, in its order, when it evaluates the
    scatter: data known by value or bounds (or reals) of a static shape, indices and axis known,
    updates of the shape the op takes, of a type its evaluate takes; the reference's message
    where an index is out of range (read_model fails with it wherever the value or its bounds
    are evaluated: docs/openvino-ir-reading.md §14); None where it is not evaluated."""
    data, updates, name = op.inputs[0], op.inputs[2], op.call.schema.op
    lengths, update_lengths = data.shape.lengths, updates.shape.lengths
    indices = values.known(op.inputs[1])
    if lengths is None or not lengths or indices is None or update_lengths is None:
        return None
    if math.prod(lengths) > values.MAX_ELEMENTS or math.prod(update_lengths) > values.MAX_ELEMENTS:
        return None
    real = data.element_type in _REAL_SCATTERS.get(name, ())
    if real and _reduction(op) != "none":
        if value_bounds.real_of(data) is None or value_bounds.real_of(updates) is None:
            return None
    elif (
        value_bounds.of(data) is None
        or updates.value is None
        or not values.evaluates(name, data.element_type)
    ):
        return None
    if name == "ScatterNDUpdate":
        return _nd_writes(lengths, indices, update_lengths)
    axis_value = op.inputs[3].value if op.has_input(3) else None
    axis = normalize_axis(axis_value[0], len(lengths)) if axis_value and len(axis_value) == 1 else None
    if axis is None:
        return None
    if name == "ScatterUpdate":
        return _update_writes(lengths, indices, update_lengths, axis)
    return _element_writes(lengths, indices, update_lengths, axis)


def _update_writes(
    lengths: tuple[int, ...], indices: values.Known, updates: tuple[int, ...], axis: int
) -> Writes | str | None:
    """ScatterUpdate-3: ``data[..., indices[q], ...] = updates[..., q, ...]`` along ``axis``; a
    negative index is out of range too (``reference::scatter_update``: ``slice_index >= 0``)."""
    size, outer, inner = lengths[axis], math.prod(lengths[:axis]), math.prod(lengths[axis + 1 :])
    if updates != (*lengths[:axis], *indices.lengths, *lengths[axis + 1 :]):
        return None
    for index in indices.values:
        if not 0 <= index < size:
            return f"ScatterUpdate indices value {index} is out of bounds for axis {axis} of size {size}"
    count = len(indices.values)
    return [
        ((o * size + index) * inner + r, (o * count + q) * inner + r)
        for q, index in enumerate(indices.values)
        for o in range(outer)
        for r in range(inner)
    ]


def _element_writes(
    lengths: tuple[int, ...], indices: values.Known, updates: tuple[int, ...], axis: int
) -> Writes | str | None:
    """ScatterElementsUpdate-3/12: ``data[i][indices[i][j]][k] = updates[i][j][k]`` (on axis
    1), a negative index counted from the end, one out of ``[-size, size)`` refused."""
    if updates != indices.lengths or len(indices.lengths) != len(lengths):
        return None
    if any(n > d for i, (n, d) in enumerate(zip(indices.lengths, lengths, strict=True)) if i != axis):
        return None  # (the reference would write past the data)
    size = lengths[axis]
    for index in indices.values:
        if not -size <= index < size:
            return f"ScatterElementsUpdate index {index} is out of bounds for the axis of size {size}"
    strides = values.strides(lengths)
    writes = []
    for flat, coordinate in enumerate(values.coordinates(indices.lengths)):
        index = indices.values[flat]
        at = list(coordinate)
        at[axis] = index + size if index < 0 else index
        writes.append((sum(c * s for c, s in zip(at, strides, strict=True)), flat))
    return writes


def _nd_writes(
    lengths: tuple[int, ...], indices: values.Known, updates: tuple[int, ...]
) -> Writes | str | None:
    """ScatterNDUpdate-3/15 as ``reference::scatterNdUpdate`` writes it: each index tuple's
    elements counted from the end when negative, each then in its axis's range (``Index is out
    of bounds``: OpenVINO 2026.4 checks each, where older references checked the flat offset
    only), the tuple's chunk written at its flat offset."""
    depth = indices.lengths[-1] if indices.lengths else None
    if depth is None or depth > len(lengths):
        return None
    leading = indices.lengths[:-1]
    if updates != (*leading, *lengths[depth:]):
        return None
    chunk = math.prod(lengths[depth:])
    strides = [math.prod(lengths[j + 1 : depth]) * chunk for j in range(depth)]
    writes = []
    for i in range(math.prod(leading)):
        coordinate = indices.values[i * depth : (i + 1) * depth]
        normalized = [c + lengths[j] if c < 0 else c for j, c in enumerate(coordinate)]
        if any(not 0 <= c < n for c, n in zip(normalized, lengths, strict=False)):
            return "Index is out of bounds"
        offset = sum(c * s for c, s in zip(normalized, strides, strict=True))
        writes += [(offset + e, i * chunk + e) for e in range(chunk)]
    return writes


def _reduction(op: _Op) -> str:
    """The scatter's reduction ("none" for the versions without one)."""
    schema = op.call.schema
    return str(op.attribute("reduction")).lower() if "reduction" in schema.attributes else "none"


def _scattered_value(op: _Op, writes: Writes) -> tuple[int, ...] | None:
    """A scatter of known updates into a known value, as OpenVINO's reference writes it: the
    updates in order, so a position written twice takes the last (or, with a reduction, each
    in turn)."""
    data, updates = op.inputs[0].value, op.inputs[2].value
    if data is None or updates is None:
        return None
    reduction = _reduction(op)
    if reduction == "none":
        value = list(data)
        for position, update in writes:
            value[position] = updates[update]
        return tuple(value)
    init = bool(op.attribute("use_init_val")) if "use_init_val" in op.call.schema.attributes else True
    positions = [position for position, _ in writes]
    ordered = tuple(updates[update] for _, update in writes)
    return _reduced_scatter(data, positions, ordered, reduction, init, op.element_type(0))


# ScatterElementsUpdate-12's and ScatterNDUpdate-15's reductions (mean sums, then divides)
_SCATTER_REDUCTIONS: dict[str, Callable[[int, int], int]] = {
    "sum": operator.add,
    "mean": operator.add,
    "sub": operator.sub,
    "prod": operator.mul,
    "min": min,
    "max": max,
}
_DOUBLE_EXACT = 2**53  # the integers a double holds exactly


def _reduced_scatter(
    data: tuple[int, ...],
    positions: list[int],
    updates: tuple[int, ...],
    reduction: str,
    use_init_val: bool,
    element_type: str | None,
) -> tuple[int, ...] | None:
    """``reference::scatter_elem_update_with_reduction`` (and ScatterNDUpdate-15's): without
    ``use_init_val`` each written position starts at the reduction's neutral value (the type's
    greatest for min, its lowest for max); mean is the sum over the count (one more with the
    initial value), rounded down as its double division is (a sum past 2^53: not folded)."""
    maximum = value_bounds.type_max(element_type)
    if maximum is None or element_type == "boolean":
        return None  # (a boolean's sum is its char's logical or: not folded)
    lowest = -maximum - 1 if element_type and element_type[0] == "i" else 0
    value = list(data)
    if not use_init_val:
        neutral = {"min": maximum, "max": lowest, "prod": 1}.get(reduction, 0)
        for i in positions:
            value[i] = neutral
    function = _SCATTER_REDUCTIONS[reduction]
    counts: dict[int, int] = {}
    for i, update in zip(positions, updates, strict=True):
        value[i] = function(value[i], update)
        counts[i] = counts.get(i, 0) + 1
    wrapped = values.wrap(value, element_type)  # the type's arithmetic wraps at each step alike
    if wrapped is None or reduction != "mean":
        return wrapped
    means = list(wrapped)
    for i, count in counts.items():
        if abs(means[i]) >= _DOUBLE_EXACT:
            return None
        means[i] //= count + int(use_init_val)
    return tuple(means)


_REAL_REDUCTIONS: dict[str, Callable[[float, float], float]] = {
    "sum": operator.add,
    "mean": operator.add,
    "sub": operator.sub,
    "prod": operator.mul,
    # ScatterElementsUpdate's functors, ``a < b ? a : b`` and ``a > b ? a : b`` of the data's
    # element and the update: a NaN in the data is replaced, a NaN update kept (by experiment:
    # max of NaN and 0.75 is 0.75), where Python's min and max keep a NaN first...
    "min": lambda a, b: a if a < b else b,
    "max": lambda a, b: a if a > b else b,
}
# ...and ScatterNDUpdate-15's, ``std::min`` and ``std::max`` as Python's: a NaN in the data
# kept, a NaN update dropped (by experiment: max of 1 and NaN is 1)
_ND_REAL_REDUCTIONS: dict[str, Callable[[float, float], float]] = {
    **_REAL_REDUCTIONS,
    "min": min,
    "max": max,
}


def _f32(number: float) -> float:
    """The number rounded to float32 (past its range an infinity)."""
    rounded = values.to_ieee([number], "f32")
    return math.nan if rounded is None else rounded[0]


def _real_reduced_scatter(op: _Op, writes: Writes) -> value_bounds.RealBounds | None:
    """A real scatter with a reduction, on the data's and updates' reals, or on their lower
    and then their upper bounds (the default bound evaluators), as OpenVINO evaluates it: f16
    and bf16 converted to f32, every step in f32, the result rounded to the type once (by
    experiment: 270 + 9.875 + 38 in bf16 is 316, where bf16 steps give 318); without
    ``use_init_val`` a written position starts at the neutral value (f32's lowest for max, its
    greatest for min); mean is the sum over the count, one more with the initial value
    (``reference::scatter_elem_update_with_reduction``, and ScatterNDUpdate-15's)."""
    reduction, element_type = _reduction(op), op.element_type(0)
    data, updates = value_bounds.real_of(op.inputs[0]), value_bounds.real_of(op.inputs[2])
    if reduction == "none" or data is None or updates is None:
        return None
    init = bool(op.attribute("use_init_val")) if "use_init_val" in op.call.schema.attributes else True
    nd = op.call.schema.op == "ScatterNDUpdate"
    combine, greatest = (_ND_REAL_REDUCTIONS if nd else _REAL_REDUCTIONS)[reduction], REAL_MAX["f32"]
    # infinities and NaN kept as OpenVINO computes them, in a value (both inputs' reals known)
    # and in bounds
    exact = op.inputs[0].reals is not None and op.inputs[2].reals is not None
    pairs = list(zip(data, updates, strict=True))
    found = []
    for start, update in pairs[:1] if exact else pairs:
        value = list(start)
        if not init:
            neutral = {"min": greatest, "max": -greatest, "prod": 1.0}.get(reduction, 0.0)
            for position, _ in writes:
                value[position] = neutral
        counts: dict[int, int] = {}
        for position, at in writes:
            value[position] = combine(value[position], update[at])
            if reduction not in ("min", "max"):
                value[position] = _f32(value[position])
            counts[position] = counts.get(position, 0) + 1
        if reduction == "mean":
            for position, count in counts.items():
                value[position] = _f32(value[position] / (count + int(init)))
        result = values.to_ieee(value, element_type)
        if result is None:
            return None
        found.append(result)
    return found[0], found[-1]


def _check_scatter_ranks(op: _Op, data: int | None, indices: int | None, updates: int | None) -> None:
    if data is None or indices is None or updates is None or updates == indices + data - 1:
        return
    message = (
        "Updates rank is expected to be rank(indices) + rank(data) - 1. Got: "
        f"rank(data) = {data}, rank(indices) = {indices}, rank(updates) = {updates}"
    )
    raise op.bad_rank(2, f"expected rank(indices) + rank(data) - 1 = {indices + data - 1}", message)


def _types_merge(a: str | None, b: str | None) -> bool:
    return a is None or b is None or a == b or "dynamic" in (a, b)


def _check_scatter_updates(
    op: _Op, data: PartialShape, indices: PartialShape, updates: PartialShape, axis: int
) -> None:
    if indices.dims is None or updates.dims is None:
        return
    assert data.dims is not None
    index_rank = len(indices.dims)
    pairs = [(updates[axis + i], indices[i]) for i in range(index_rank)]
    pairs += [(updates[i], data[i]) for i in range(axis)]
    pairs += [(updates[index_rank - 1 + i], data[i]) for i in range(axis + 1, len(data.dims))]
    if all(a.compatible(b) for a, b in pairs):
        return
    message = (
        "Updates shape must have appropriate dimensions equal to indices and data dimensions. Updates shape:"
        f"{updates}, data shape: {data}, indices_shape: {indices}, axis: {axis}."
    )
    raise op.bad_shapes(f"updates {updates} is not data[:axis] + indices + data[axis+1:]", message, 2)


@reading.reads(3)
@moves_bounds(1)
@_shape_function
def scatter_elements_update(op: _Op) -> list[Output]:
    """ScatterElementsUpdate-3/12: the data's shape; indices and updates of one shape, of the
    data's rank."""
    data, indices, updates = op.shape(0), op.shape(1), op.shape(2)
    if data.rank is not None:  # OpenVINO reads the axis to normalise it against the data's rank
        op.value_read(3)  # before the element types are checked (a boolean axis: 'Element not supported')
    for port, what in ((1, "Indices"), (3, "Axis")):
        element_type = op.element_type(port)
        if not is_integral_number(element_type):
            message = f"{what} element type must be integral_number, but is: {element_type}"
            raise op.bad_type(port, "an integer type is required", message)
    data_type, updates_type = op.element_type(0), op.element_type(2)
    if not _types_merge(data_type, updates_type):
        message = (
            f"Data type and updates type are required to be the same. Got: {data_type} and: {updates_type}"
        )
        raise op.bad_type(2, f"the data's {data_type} is required", message)
    if op.version >= 12 and op.attribute("reduction") == "mean" and data_type == "boolean":
        message = "The 'mean' reduction type is not supported for boolean tensors"
        raise op.bad_attribute("reduction", "is not supported for boolean data", message)
    if indices.rank is not None and data.rank is not None and indices.rank != data.rank:
        message = f"Indices rank and data rank are required to be equal. Got: {indices.rank} and: {data.rank}"
        raise op.bad_rank(1, f"expected the data's rank {data.rank}", message)
    if not _compatible_shapes(indices, updates):
        message = f"Indices and updates input shapes are required to be equal. Got: {indices} and: {updates}"
        raise op.bad_shapes(f"indices {indices} and updates {updates} differ", message, 2)
    axis_value = op.inputs[3].value
    if data.rank is not None and axis_value:  # a scalar's axis is checked as a 1D tensor's
        _normalized_axis(op, axis_value[0], max(data.rank, 1), 3)
    return _scattered(op)


@moves_bounds(1)
@_shape_function
def scatter_nd_update(op: _Op) -> list[Output]:
    """ScatterNDUpdate-3/15: the data's shape; updates = indices[:-1] + data[indices[-1]:]
    (``scatter_nd_base_shape_inference.hpp``)."""
    data, indices, updates = op.shape(0), op.shape(1), op.shape(2)
    if op.element_type(1) not in (None, "i32", "i64", "dynamic"):
        raise op.bad_type(1, "i32 or i64 is required", "Indices element type must be i64 or i32")
    data_type = op.element_type(0)
    if not _types_merge(data_type, op.element_type(2)):
        raise op.bad_type(
            2, f"the data's {data_type} is required", "Updates element type must be the same as inputs"
        )
    for port, shape in ((1, indices), (0, data)):
        if shape.rank == 0:
            raise op.bad_rank(
                port, "expected rank 1 or more", "Indices rank and inputs_rank are expected to be at least 1"
            )
    if data.dims is not None and indices.dims is not None and indices[-1].is_static:
        _check_nd_updates(op, data, indices, updates)
    return _scattered(op)


def _check_nd_updates(op: _Op, data: PartialShape, indices: PartialShape, updates: PartialShape) -> None:
    assert data.dims is not None and indices.dims is not None
    last = indices[-1].value
    if last > len(data.dims):
        message = "Last dimension of indices can be at most the rank of inputs"
        raise op.bad_shapes(
            f"index tuples of length {last} address more axes than data {data} has", message, 1
        )
    if updates.dims is None:
        return
    expected = len(data.dims) + len(indices.dims) - 1 - last
    if len(updates.dims) != expected and expected != 0:
        message = "Rank of updates must be rank of inputs + rank of indices - last dimension of indices - 1"
        raise op.bad_rank(2, f"expected rank {expected}", message)
    leading = len(indices.dims) - 1
    if not all(d.compatible(u) for d, u in zip(indices.dims[:leading], updates.dims, strict=False)):
        message = "updates_shape[0:indices_rank-1] shape must be indices_shape[:-1]"
        raise op.bad_shapes(f"updates {updates} does not begin with indices[:-1] of {indices}", message, 2)
    trailing = updates.dims[leading:]
    if not all(d.compatible(u) for d, u in zip(data.dims[last:], trailing, strict=False)):
        message = "updates_shape[indices_rank-1:] shape must be input_shape[indices_shape[-1]:]"
        raise op.bad_shapes(f"updates {updates} does not end with data[{last}:] of {data}", message, 2)


# --- Slice ------------------------------------------------------------------------------------

SLICE_INPUTS = ("start", "stop", "step", "axes")


@reading.reads(1, 2, how=reading.BOUNDS)
@reading.reads(3, 4)
@moves_bounds(1, 2, 3, 4)
@_shape_function
def slice_op(op: _Op) -> list[Output]:
    """Slice-8: each listed axis sliced by start:stop:step (``slice_shape_inference.hpp``).
    OpenVINO reads the inputs' values, and checks the step for a zero, before their element
    types: a step of 0.5 (read as 0) is 'Step must be non-zero'."""
    data = op.shape(0)
    element_type = op.element_type(0)
    ports = range(1, len(op.inputs))
    for port in ports:
        op.value_read(port)
    # a zero step fails only where the axes are known (none given, or their value): with axes
    # unknown OpenVINO slices nothing by the step (by experiment: a step of 0 with axes from a
    # Parameter is [..6] of [6])
    axes_known = not op.has_input(4) or op.inputs[4].value is not None
    early_steps = op.inputs[3].value
    if axes_known and early_steps is not None and 0 in early_steps:
        raise op.bad_value(3, f"step {list(early_steps)} has a zero", "Step must be non-zero")
    for port in ports:
        op.require_integral(port, f"Slice `{SLICE_INPUTS[port - 1]}` input type must be integer.")
    if data.rank == 0:
        raise op.bad_rank(0, "expected rank 1 or more", "Slice `data` input can't be a scalar.")
    for port in ports:
        _check_slice_input(op, port, data)
    start_shape, stop_shape, step_shape = op.shape(1), op.shape(2), op.shape(3)
    if not all(
        _compatible_shapes(a, b)
        for a, b in ((start_shape, stop_shape), (start_shape, step_shape), (stop_shape, step_shape))
    ):
        message = "Slice `start`, `stop`, `step` inputs must have compatible shapes."
        raise op.bad_shapes("start, stop and step have different lengths", message)
    if op.has_input(4) and not _compatible_shapes(op.shape(4), start_shape):
        message = "Slice `axes` input must have compatible shape with `start`, `stop`, `step` inputs."
        raise op.bad_shapes("axes and start have different lengths", message, 4)
    if data.dims is None:
        return [Output(PartialShape(None), element_type)]
    consequence = "the sliced dims are left as 0 up to their upper bounds"
    shapes = (start_shape, stop_shape, step_shape)
    ranges = _slice_ranges(op)
    if ranges is not None:  # start and stop known by their bounds (get_input_bounds)
        steps = op.value(3, consequence)
        if axes_known and steps is not None and 0 in steps:
            raise op.bad_value(3, f"step {list(steps)} has a zero", "Step must be non-zero")
        if steps is not None:
            axes = _slice_axes(op, data, shapes, tuple(lo for lo, _ in ranges[0]), consequence)
            return [Output(_bounded_sliced_shape(data, axes, ranges, steps), element_type)]
    # start and stop as get_input_bounds reads them (an i32 maximum is int64's)
    start, stop = (
        value_bounds.exact_as_bounds(op.inputs[port]) if op.value(port, consequence) is not None else None
        for port in (1, 2)
    )
    bounds: Bounds = (start, stop, op.value(3, consequence))
    step = bounds[2]
    if axes_known and step is not None and 0 in step:
        raise op.bad_value(3, f"step {list(step)} has a zero", "Step must be non-zero")
    axes = _slice_axes(op, data, shapes, bounds[0], consequence)
    shape = _sliced_shape(data, axes, bounds)
    formulas = _slice_formulas(data, axes, bounds)
    return [Output(shape, element_type, formulas, value=_slice_value(op, axes, bounds, shape))]


def _check_slice_input(op: _Op, port: int, data: PartialShape) -> None:
    name = SLICE_INPUTS[port - 1]
    shape = op.shape(port)
    if not _rank_compatible(shape, 1):
        raise op.bad_rank(
            port, "expected 1D", f"Slice `{name}` input must be a 1D tensor. Got rank: {shape.rank}"
        )
    if data.rank is not None and shape.dims is not None and shape[0].lo > data.rank:
        message = f"Slice `{name}` input dim size can't be bigger than `data` rank."
        raise op.bad_shapes(f"{name} has {shape[0]} values for data of rank {data.rank}", message, port)


def _slice_axes(
    op: _Op,
    data: PartialShape,
    shapes: Sequence[PartialShape],
    start: tuple[int, ...] | None,
    consequence: str,
) -> dict[int, int] | None:
    """Axis -> position in start/stop/step; None when the axes are unknown (every dim may be
    sliced)."""
    assert data.dims is not None
    if op.has_input(4):
        axes = op.value(4, consequence)
        if axes is None:
            return None
        normalized = [_normalized_axis(op, a, len(data.dims), 4) for a in axes]
        if len(set(normalized)) != len(normalized):
            raise op.bad_value(
                4, f"axes {list(axes)} repeat an axis", "Slice values in `axes` input must be unique."
            )
        return {axis: i for i, axis in enumerate(normalized)}
    lengths = [n for n in map(_static_length, shapes) if n is not None]
    count = len(start) if start is not None else lengths[0] if lengths else None
    return None if count is None else {i: i for i in range(count)}


Ranges = tuple[list[tuple[int, int]], list[tuple[int, int]]]


def _slice_ranges(op: _Op) -> Ranges | None:
    """Slice's start and stop as (lower, upper) pairs, when both are known that way and one
    of them only by its bounds; None otherwise (an exact value or none)."""
    start, stop = op.inputs[1], op.inputs[2]
    if start.value is not None and stop.value is not None:
        return None
    start_pairs, stop_pairs = value_bounds.pairs(start), value_bounds.pairs(stop)
    if start_pairs is None or stop_pairs is None or len(start_pairs) != len(stop_pairs):
        return None
    return start_pairs, stop_pairs


def _bounded_sliced_shape(
    data: PartialShape, axes: dict[int, int] | None, ranges: Ranges, steps: tuple[int, ...]
) -> PartialShape:
    out: list[Dim] = []
    for axis, dim in enumerate(data):
        if axes is not None and axis not in axes:
            out.append(dim)
        elif axes is None or axes[axis] >= min(len(ranges[0]), len(steps)):
            out.append(any_length(dim))
        else:
            i = axes[axis]
            out.append(bounded_sliced_dim(dim, ranges[0][i], ranges[1][i], steps[i]))
    return PartialShape(out)


def _sliced_shape(data: PartialShape, axes: dict[int, int] | None, bounds: Bounds) -> PartialShape:
    start, stop, step = bounds
    out: list[Dim] = []
    for axis, dim in enumerate(data):
        if axes is not None and axis not in axes:
            out.append(dim)
        elif axes is None or start is None or stop is None or step is None:
            out.append(any_length(dim))
        else:
            i = axes[axis]
            out.append(sliced_dim(dim, start[i], stop[i], step[i]))
    return PartialShape(out)


def _slice_formulas(data: PartialShape, axes: dict[int, int] | None, bounds: Bounds) -> list[str]:
    """``len(range(n)[start:stop:step])`` for each axis sliced by known bounds."""
    start, stop, step = bounds
    if axes is None or start is None or stop is None or step is None:
        return []
    formulas = [""] * len(data)
    for axis, i in axes.items():
        formulas[axis] = f"len(range({data[axis]})[{start[i]}:{stop[i]}:{step[i]}])"
    return formulas


def _slice_value(
    op: _Op, axes: dict[int, int] | None, bounds: Bounds, shape: PartialShape
) -> tuple[int, ...] | None:
    data = values.known(op.inputs[0])
    start, stop, step = bounds
    if data is None or axes is None or start is None or stop is None or step is None:
        return None
    index: list[Any] = [slice(None)] * len(data.lengths)
    for axis, i in axes.items():
        index[axis] = sliced_range(data.lengths[axis], start[i], stop[i], step[i])
    return _passed_on(values.index(data, index), shape)


# --- SliceScatter -----------------------------------------------------------------------------

# Slice-8's words for the checks SliceScatter shares, and SliceScatter's
_SLICE_WORDS = (
    ("Slice `", "SliceScatter `"),
    ("Slice values", "SliceScatter values"),
    ("Step must be non-zero", "SliceScatter step values must be non-zero."),
    ("`data` rank", "`data` or `updates` rank"),
)


def slice_scatter(call: OpCall) -> OpResult:
    """SliceScatter-15: the data's shape (of the updates' rank when the data's is dynamic), of
    the data's type; the updates must be compatible with the slice of the data."""
    data, updates = call.inputs[:2]
    findings = [
        type_finding(
            f"{name} is of element type {t}", f"SliceScatter `{name}` input type must be integer.", port
        )
        for port, name, t in typed_inputs(call, SLICE_INPUTS, first=2)
        if not is_integral_number(t)
    ]
    shape = data.shape
    if shape.rank is None and updates.shape.rank is not None:
        shape = PartialShape.dynamic(updates.shape.rank)
    elif shape.rank is not None and updates.shape.rank not in (None, shape.rank):
        message = "SliceScatter `data` and `updates` need to have compatible rank."
        findings.append(
            incompatible(f"the data {data.shape} and the updates {updates.shape} differ in rank", message)
        )
    elif shape.rank == 0:
        message = "SliceScatter `data` and `updates` input can't be a scalar."
        findings.append(rank_finding(0, "data", shape, "1 or more", message))
    if findings:
        return OpResult([], findings)
    steps = call.inputs[4].value
    if steps is not None and 0 in steps:  # whatever its axes, unlike Slice's (by experiment)
        message = "SliceScatter step values must be non-zero."
        return OpResult([], [value_finding(f"step {list(steps)} has a zero", message, 4)])
    sliced = slice_op(
        OpCall(_slice_schema(), (Tensor(shape, data.element_type), *call.inputs[2:]), call.attributes)
    )
    findings = [_as_slice_scatter(f) for f in sliced.findings]
    if not sliced.outputs:
        return OpResult([], findings)
    expected = sliced.outputs[0].shape
    if shape.rank is not None and not compatible(updates.shape, expected):
        message = f"SliceScatter updates at index 1 are not compatible with expected slice shape {expected}"
        findings.append(incompatible(f"the updates {updates.shape} are not the slice {expected}", message, 1))
        return OpResult([], findings)
    return OpResult([Output(shape, data.element_type)], findings)


def _slice_schema() -> OpSchema:
    return load_declaration("Slice-8.toml")


def _as_slice_scatter(finding: Finding) -> Finding:
    """A finding of Slice-8 on the slice as SliceScatter's: its input ports one further on, its
    message in SliceScatter's words."""
    args = dict(finding.args)
    if isinstance(args.get("ov_message"), str):
        for slice_words, scatter_words in _SLICE_WORDS:
            args["ov_message"] = args["ov_message"].replace(slice_words, scatter_words)
    if isinstance(args.get("port"), int) and args["port"] > 0:
        args["port"] += 1
    anchor = finding.anchor + 1 if isinstance(finding.anchor, int) and finding.anchor > 0 else finding.anchor
    return Finding(finding.rule, args, anchor)


# --- StridedSlice -----------------------------------------------------------------------------

MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")
STRIDED_INPUTS = ("Begin", "End", "Strides")


class _Masks:
    def __init__(self, op: _Op) -> None:
        lists = {name: op.call.attributes.int_list(name) for name in MASKS}
        for name, mask in lists.items():
            if any(v not in (0, 1) for v in mask):
                raise op.bad_attribute(
                    name, "has a value other than 0 and 1", "All masks of StridedSlice must have be 0 or 1"
                )
        sizes = [len(mask) for mask in lists.values()]
        for name, size in zip(MASKS, sizes, strict=True):
            if size not in (0, sizes[0]):
                raise op.bad_attribute(
                    name,
                    f"has {size} values, begin_mask {sizes[0]}",
                    "All masks of StridedSlice must have the same size",
                )
        self.begin, self.end, self.new_axis, self.shrink, self.ellipsis = (
            {i for i, v in enumerate(lists[name]) if v == 1} for name in MASKS
        )


def _strided_bounds_ready(call: OpCall) -> bool:
    """``StridedSlice::evaluate_lower/upper``: begin and end known exactly but at their masked
    axes (``indices_input_has_and_set_bounds``), strides exactly."""
    for port, name in ((1, "begin_mask"), (2, "end_mask")):
        tensor = call.inputs[port]
        if tensor.value is not None:
            continue
        if tensor.lower is None or tensor.upper is None:
            return False
        masked = {i for i, bit in enumerate(call.attributes.int_list(name)) if bit == 1}
        pairs = enumerate(zip(tensor.lower, tensor.upper, strict=True))
        if any(lo != hi and i not in masked for i, (lo, hi) in pairs):
            return False
    return True


@reading.reads(1, 2, how=reading.BOUNDS)
@reading.reads(3)
@moves_bounds(3, ready=_strided_bounds_ready)
@_shape_function
def strided_slice(op: _Op) -> list[Output]:
    """StridedSlice-1: begin:end:strides per axis, with the five masks
    (``strided_slice_shape_inference.hpp``); begin and end known by their bounds slice as
    Slice's do (``get_input_bounds``, ``slice::make_dim``)."""
    op.require_integral(1, f"Begin mask must be an integral number, but is: {op.element_type(1)}")
    op.require_integral(2, f"End mask must be an integral number, but is: {op.element_type(2)}")
    masks = _Masks(op)
    data = op.shape(0)
    element_type = op.element_type(0)
    for port in range(1, len(op.inputs)):
        shape = op.shape(port)
        if not _rank_compatible(shape, 1):
            message = f"{STRIDED_INPUTS[port - 1]} input must be 1D (has rank: {shape.rank})"
            raise op.bad_rank(port, "expected 1D", message)
    if data.dims is None:
        return [Output(PartialShape(None), element_type)]
    begin, end = op.inputs[1].value, op.inputs[2].value
    strides = op.inputs[3].value if op.has_input(3) else None
    count = _strided_count(op, strides)
    if not op.has_input(3) and count is not None:
        strides = (1,) * count  # the default strides, one per begin value
    if count is None:
        return [op.rank_lost(" (begin, end and strides have no static length)")]
    if len(masks.ellipsis) > 1:
        raise op.bad_attribute("ellipsis_mask", "sets more than one axis", "At most one ellipsis is allowed.")
    if not masks.ellipsis and len(data.dims) + len(masks.new_axis) < count:
        message = (
            "Input rank plus number of new axis has to be at least the size of Lower and Upper bounds vector."
        )
        raise op.bad_shapes(f"begin and end have {count} values for data {data}", message)
    bounds: Bounds = (begin, end, strides)
    ranges = _strided_ranges(op)
    # begin and end as get_input_bounds reads them for the shape (an i32's limits are int64's)
    read: Bounds = (
        value_bounds.exact_as_bounds(op.inputs[1]),
        value_bounds.exact_as_bounds(op.inputs[2]),
        strides,
    )
    shape = _strided_shape(op, data, masks, count, read, ranges)
    value = _strided_value(op, masks, count, bounds, shape)
    return [Output(shape, element_type, value=value)]


def _strided_count(op: _Op, strides: tuple[int, ...] | None) -> int | None:
    """How many axes begin, end and strides describe (None: unknown)."""
    begin_count, end_count = _static_length(op.shape(1)), _static_length(op.shape(2))
    count = begin_count
    if begin_count is not None and end_count is not None:
        if begin_count != end_count:
            raise op.bad_shapes(
                f"begin has {begin_count} values, end {end_count}",
                "Begin and end need to have same number of values.",
            )
    elif end_count is not None:
        count = end_count
    if count is not None and strides is not None:
        if count != len(strides):
            message = "Stride needs to have same number of values as begin and end."
            raise op.bad_shapes(f"strides has {len(strides)} values, begin and end {count}", message, 3)
    elif strides is not None:
        count = len(strides)
    return count


# StridedSlice's begin and end as (lower, upper) pairs; None for one not known at all
StridedRanges = tuple[list[tuple[int, int]] | None, list[tuple[int, int]] | None]


def _strided_ranges(op: _Op) -> StridedRanges | None:
    """Begin and end as (lower, upper) pairs, when one of them is known only by its bounds (the
    other by its bounds, its value or not at all: OpenVINO slices each axis whose begin and end
    it needs are known, a masked one needing neither); None otherwise (exact values, none, or
    one exact and one unknown, which :func:`_strided_dim` slices)."""
    begin, end = op.inputs[1], op.inputs[2]
    if begin.value is not None and end.value is not None:
        return None
    begin_pairs, end_pairs = value_bounds.pairs(begin), value_bounds.pairs(end)
    if (begin_pairs is None and end.value is not None) or (end_pairs is None and begin.value is not None):
        return None
    return None if begin_pairs is None and end_pairs is None else (begin_pairs, end_pairs)


def _strided_shape(
    op: _Op, data: PartialShape, masks: _Masks, count: int, bounds: Bounds, ranges: StridedRanges | None
) -> PartialShape:
    assert data.dims is not None
    rank = len(data.dims)
    out: list[Dim] = []
    index = 0
    last: tuple[int, Dim, int] | None = None  # the last sliced axis: output axis, input dim, stride
    for axis in range(count):
        if axis in masks.ellipsis:
            before = sum(1 for i in range(axis) if i not in masks.new_axis)
            begin_known = bounds[0] is not None or (ranges is not None and ranges[0] is not None)
            new_after = sum(1 for i in range(axis + 1, count) if i in masks.new_axis) if begin_known else 0
            hidden = max(rank - (count - axis - new_after - 1) - before, 0)
            out += data.dims[index : index + hidden]
            index += hidden
        elif axis in masks.new_axis:
            out.append(Dim.of(1))
        elif axis in masks.shrink:
            index += 1
        elif index >= rank:
            raise op.bad_shapes(
                f"begin and end have {count} values for data {data}", "Accessing out-of-range dimension"
            )
        else:
            stride = _stride(op, bounds[2], axis)
            last = (len(out), data[index], stride or 1)
            if ranges is not None and stride is not None:
                sliced = _strided_bounded_dim(data[index], masks, axis, ranges, stride)
                if sliced is None:  # its begin or end is needed and not known
                    op.value(
                        1 if ranges[0] is None else 2,
                        "the sliced dims are left as 0 up to their upper bounds",
                    )
                    sliced = unknown_bounds(data[index], stride)
                out.append(sliced)
            else:
                out.append(_strided_dim(op, data[index], masks, axis, bounds, stride))
            index += 1
    unknown = None in bounds and (ranges is None or None in ranges)
    if last is not None and unknown and all(d.is_static for d in out):
        # Observed in OpenVINO 2026.4: with begin, end or strides unknown (not even by bounds),
        # an output that would be static gets its last sliced axis as if that were sliced from
        # and to unknown places.
        at, dim, stride = last
        out[at] = unknown_bounds(dim, stride)
    out += data.dims[index:]
    return PartialShape(out)


def _stride(op: _Op, strides: tuple[int, ...] | None, axis: int) -> int | None:
    if strides is None:
        return None
    stride = strides[axis] if axis < len(strides) else 1
    if stride == 0:
        raise op.bad_value(3, f"strides {list(strides)} has a zero", "Stride must be non-zero")
    return stride


def _strided_dim(op: _Op, dim: Dim, masks: _Masks, axis: int, bounds: Bounds, stride: int | None) -> Dim:
    """One sliced axis. A masked begin or end is the whole axis's, in the stride's direction,
    whether or not the begin or end input's value is known."""
    begin, end, _ = bounds
    if stride is None:
        op.value(3, "the sliced dims are left as 0 up to their upper bounds")
        return any_length(dim)
    norm_dim = I64_MAX if dim.hi == INF else dim.hi
    start = (norm_dim if stride < 0 else 0) if axis in masks.begin else begin[axis] if begin else None
    stop = (-1 - norm_dim if stride < 0 else norm_dim) if axis in masks.end else end[axis] if end else None
    if start is None or stop is None:
        op.value(1 if start is None else 2, "the sliced dims are left as 0 up to their upper bounds")
        return unknown_bounds(dim, stride)
    return sliced_dim(dim, start, stop, stride)


def _strided_bounded_dim(
    dim: Dim, masks: _Masks, axis: int, ranges: StridedRanges, stride: int
) -> Dim | None:
    """One sliced axis, begin and end known by their bounds; a masked one is the whole axis's
    in the stride's direction, as in :func:`_strided_dim`. None when the axis needs a begin or
    end that is not known."""
    norm_dim = I64_MAX if dim.hi == INF else dim.hi
    whole_start, whole_stop = (norm_dim, -1 - norm_dim) if stride < 0 else (0, norm_dim)
    begins, ends = ranges
    if (begins is None and axis not in masks.begin) or (ends is None and axis not in masks.end):
        return None
    start = (
        (whole_start, whole_start)
        if begins is None or axis in masks.begin or axis >= len(begins)
        else begins[axis]
    )
    stop = (whole_stop, whole_stop) if ends is None or axis in masks.end or axis >= len(ends) else ends[axis]
    return bounded_sliced_dim(dim, start, stop, stride)


def _strided_value(
    op: _Op, masks: _Masks, count: int, bounds: Bounds, shape: PartialShape
) -> tuple[int, ...] | None:
    """The output's value for a known data value, by numpy's basic indexing, each slice clamped
    as OpenVINO's is (:func:`sliced_range`: a begin below the dim is its first element for a
    negative stride too); kept only when its shape is the inferred one."""
    data = values.known(op.inputs[0])
    begin, end, strides = bounds
    if data is None or begin is None or end is None or strides is None:
        return None
    index: list[Any] = []
    data_axis = 0  # the data's axis the next slice applies to
    for axis in range(count):
        if axis in masks.ellipsis:
            index.append(Ellipsis)
            data_axis += len(data.lengths) - sum(
                1 for a in range(count) if a not in masks.new_axis and a not in masks.ellipsis
            )
        elif axis in masks.new_axis:
            index.append(None)
        elif data_axis >= len(data.lengths):
            return None
        elif axis in masks.shrink:
            index.append(begin[axis])
            data_axis += 1
        else:
            stride, length = strides[axis], data.lengths[data_axis]
            # a masked begin is the first element the stride meets, a masked end past the last
            start = (length if stride < 0 else 0) if axis in masks.begin else begin[axis]
            stop = (-length - 1 if stride < 0 else length) if axis in masks.end else end[axis]
            index.append(sliced_range(length, start, stop, stride))
            data_axis += 1
    return _passed_on(values.index(data, index), shape)


# --- Range ------------------------------------------------------------------------------------

RANGE_INPUTS = ("start", "stop", "step")


@reading.reads(0, 1, 2, how=reading.AS_IS)
@_shape_function
def range_op(op: _Op) -> list[Output]:
    """Range-1/4: ceil((stop - start) / step) elements, none when step points away from stop."""
    element_type = _range_element_type(op)
    for port, name in enumerate(RANGE_INPUTS):
        if not _rank_compatible(op.shape(port), 0):
            raise op.bad_rank(port, "expected a scalar", f"'{name}' input is not a scalar")
    consequence = "the output's length is unknown"
    numbers = [_range_number(op, port, consequence) for port in range(3)]
    step = numbers[2]
    if step is not None and step == 0:
        raise op.bad_value(2, "step is 0", "'step' cannot be zero, nan, or infinite.")
    if numbers[0] is None or numbers[1] is None or step is None:
        return [Output(PartialShape([DYNAMIC]), element_type)]
    start, stop, stride = numbers[0], numbers[1], step
    if element_type in INTEGRAL:  # the inputs cast to the output type: reals truncated
        start, stop, stride = (math.trunc(v) for v in (start, stop, stride))
    span = 0 if (stride > 0 and start >= stop) or (stride < 0 and start <= stop) else stop - start
    if stride == 0:  # a real step below 1 truncated: ceil(span / 0), cast to uint32, is 0 (by experiment)
        length = 0
    elif isinstance(span, int) and isinstance(stride, int):
        length = -(-abs(span) // abs(stride))
    else:  # ceil(fabs(span) / fabs(step)) in double, as range_shape_inference.hpp computes it
        length = math.ceil(abs(span) / abs(stride))
    value = reals_value = None
    # (Range-1's evaluate takes no f16 or bf16, Range-4's every type: by experiment)
    folds = op.version >= 4 or not any(op.element_type(port) in ("f16", "bf16") for port in range(3))
    if folds and length <= VALUE_MAX and element_type in INTEGRAL:
        value = tuple(range(int(start), int(stop), int(stride))) if length else ()
    elif folds and length <= VALUE_MAX:
        reals_value = _real_range(start, stride, length, element_type)
    formula = f"ceil(({stop} - {start}) / {stride})" if span else f"0 (step {stride} leads away from {stop})"
    output = Output(static_shape([length]), element_type, [formula], value=value)
    output.reals = reals_value
    return [output]


def _range_number(op: _Op, port: int, consequence: str) -> int | float | None:
    """Range's start, stop or step as ``get_input_const_data_as<double>`` reads it: an integer's
    value, or a real's (a Const's or a computed one's); NaN and infinities are rejected."""
    tensor = op.inputs[port]
    if tensor.value is None and tensor.reals is not None and len(tensor.reals) == 1:
        number = tensor.reals[0]
        if not math.isfinite(number):
            name = RANGE_INPUTS[port]
            message = (
                "'step' cannot be zero, nan, or infinite."
                if port == 2
                else f"'{name}' cannot be nan or infinite."
            )
            raise op.bad_value(port, f"{name} is {number}", message)
        return number
    found = op.value(port, consequence)
    return None if found is None else found[0]


def _real_range(start: float, step: float, length: int, element_type: str | None) -> tuple[float, ...] | None:
    """``reference::range`` of a real type: start and step in the type, then ``start + i * step``,
    each operation rounded to it; an f16 or bf16 Range is computed so in f32 and its values
    rounded once at the end (by experiment: 4.09 + 0.9 as bf16 is 5, where bf16 steps give 4.94)."""
    computed_in = "f32" if element_type in ("f16", "bf16") else element_type
    typed = values.to_real([start, step], computed_in)
    if typed is None:
        return None
    first, stride = typed
    products = values.to_real([i * stride for i in range(length)], computed_in)
    sums = None if products is None else values.to_real([first + p for p in products], computed_in)
    return values.to_real(sums, element_type)


def _range_element_type(op: _Op) -> str | None:
    types = [op.element_type(port) for port in range(3)]
    if op.version == 1:
        known = {t for t in types if t not in (None, "dynamic")}
        if len(known) > 1:
            raise op.bad_type(
                1,
                "start, stop and step need one element type",
                "Element types for start, stop, and step do not match.",
            )
        element_type = next(iter(known), None)
        if element_type == "boolean":
            raise op.bad_type(
                0,
                "a numeric type is required",
                "Element type for start, stop, and step, must not be boolean.",
            )
        return element_type
    output_type = str(op.attribute("output_type"))
    if output_type == "boolean":
        raise op.bad_attribute(
            "output_type", "is not numeric", "output tensor type should be a numeric type. Got: boolean"
        )
    for port, element_type in enumerate(types):
        if element_type == "boolean":
            message = f"'{RANGE_INPUTS[port]}' input scalar should be a numeric type. Got: boolean"
            raise op.bad_type(port, "a numeric type is required", message)
    return output_type


# --- NonZero ----------------------------------------------------------------------------------


@_shape_function
def non_zero(op: _Op) -> list[Output]:
    """NonZero-3: [rank, count]; the count is up to the number of elements, exact when the data's
    value is known; a scalar or a dynamic rank gives [?, ?]."""
    element_type = str(op.attribute("output_type"))
    if element_type not in ("i32", "i64"):
        raise op.bad_attribute("output_type", "is not i32 or i64", "Output type must be i32 or i64")
    data = op.inputs[0]
    value = data.value
    if value is not None and data.shape.lengths is not None:
        count = sum(1 for v in value if v != 0)
        rows = len(data.shape.lengths) if data.shape.lengths else count  # a scalar: [1, 1] or [0, 0]
        return [Output(static_shape([rows, count]), element_type)]
    if data.shape.dims is None or not data.shape.dims:
        return [Output(PartialShape([DYNAMIC, DYNAMIC]), element_type)]
    count_dim = functools.reduce(lambda a, b: a * b, data.shape.dims, Dim(0, 1))
    return [Output(PartialShape([Dim.of(len(data.shape.dims)), count_dim]), element_type)]


# --- TopK -------------------------------------------------------------------------------------


_TOPK1_K = frozenset({"i8", "i32", "i64"})


@reading.reads(1, how=reading.TOPK_K)
@_shape_function
def topk(op: _Op) -> list[Output]:
    """TopK-1/3/11: the data's shape with k on ``axis``; values and indices."""
    index_type = str(op.attribute("index_element_type"))
    if index_type not in ("i32", "i64"):
        message = f"Index element type attribute should be either 'i32' or 'i64'. Got: {index_type}"
        raise op.bad_attribute("index_element_type", "is not i32 or i64", message)
    if op.version >= 11 and op.attribute("stable") and op.attribute("sort") == "none":
        message = "Stable sort can only be used when TopK's sorting mode is set to 'VALUE' or 'INDEX'."
        raise op.bad_attribute("stable", "is true with sort none", message)
    k_type = op.element_type(1)
    # TopK-1 takes i8, i32 and i64 only (a dynamic type too fails); the later ones any integer
    if k_type is not None and (k_type not in INTEGRAL or (op.version < 3 and k_type not in _TOPK1_K)):
        message = (
            f"K input has to be an integer type, which does match the provided one:{k_type}"
            if op.version >= 11
            else f"K input element type must be i8, i32 or i64 (got {k_type})."
        )
        raise op.bad_type(1, "an integer type is required", message)
    data = op.shape(0)
    if data.rank == 0:
        raise op.bad_rank(0, "expected rank 1 or more", "Input rank must be greater than 0.")
    if not _rank_compatible(op.shape(1), 0):
        raise op.bad_rank(1, "expected a scalar", "The 'K' input must be a scalar.")
    element_type = op.element_type(0)
    if data.dims is None:
        return [Output(data, element_type), Output(data, index_type)]
    axis = _normalized_axis(op, int(op.attribute("axis")), len(data.dims), None)
    k_bounds = value_bounds.as_dims(op.inputs[1]) if op.inputs[1].value is None else None
    k = None if k_bounds else op.value(1, f"the output's axis {axis} is left as 0 up to the data's")
    out = list(data.dims)
    formulas = [""] * len(out)
    if k_bounds is not None and len(k_bounds) == 1:
        out[axis] = _topk_bounded(out[axis], k_bounds[0])
        formulas[axis] = f"k in {k_bounds[0]}"
    elif k is None:
        out[axis] = any_length(out[axis])
    elif k[0] < 0:
        message = f"The value of 'K' must be greater or equal to zero. (got {k[0]})."
        raise op.bad_value(1, f"k = {k[0]} is negative", message)
    else:
        out[axis] = Dim.of(k[0])
        formulas[axis] = f"k = {k[0]}"
    shape = PartialShape(out)
    return [Output(shape, element_type, formulas), Output(shape, index_type, formulas)]


def _topk_bounded(dim: Dim, k: Dim) -> Dim:
    """The axis for a k known by its bounds (``topk_shape_inference.hpp``): from the lesser
    lower bound to the lesser upper bound; unbounded when the data's axis is."""
    upper = INF if dim.hi == INF else min(dim.hi, k.hi)
    return Dim.between(min(dim.lo, k.lo), upper)
