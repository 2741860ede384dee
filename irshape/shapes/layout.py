"""Layout ops: the ops that move a tensor's elements without computing new ones.

Reshape, Squeeze, Unsqueeze, Transpose, Concat, Split, VariadicSplit, Pad, Roll, Reverse,
ReverseSequence, DepthToSpace, SpaceToDepth, ShuffleChannels and CumSum, as OpenVINO 2026.4
infers and validates them (its ``*_shape_inference.hpp``, each rule confirmed by experiment: see
tests/differential/test_layout.py; ReverseSequence's, ``reverse_sequence_shape_inference.hpp``:
the data's shape, its batch dim merged with the length of the 1D sequence lengths, in
tests/differential/test_rearrange.py). Reshape, Squeeze, Unsqueeze, Transpose, Concat, Split and
VariadicSplit also carry the *value* of small integer tensors, so the shape subgraphs models
are full of (ShapeOf -> Gather -> Concat -> Reshape) give known targets downstream; Pad,
DepthToSpace, SpaceToDepth, ShuffleChannels and Reverse move values (integer and real) too.

Where a value that decides the shape is unknown (a Parameter, a subgraph irshape does not fold),
the output is what OpenVINO infers without it, and IRS306 says so once for the layer.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TypeVar

from irshape.diagnostics import Severity
from irshape.dims import DYNAMIC, EMPTY, INF, Dim, PartialShape
from irshape.ir import element_types
from irshape.ops.interface import ConstTensor, Finding, Formula, Formulas, OpCall, OpResult, Output, Tensor
from irshape.shapes import bounds, reading, values
from irshape.shapes.axes import axis_range_message, normalize_axis
from irshape.shapes.broadcast import merge_dim, merge_shapes
from irshape.shapes.findings import (
    attribute_error,
    incompatible,
    known,
    multiple_message,
    rank_finding,
    type_finding,
    unreadable,
    value_finding,
    value_unknown,
)
from irshape.shapes.moving import moves_bounds

DATA = 0
VALUE_LIMIT = 64  # the values kept, as for Consts: the small tensors shapes are made of
ONE = Dim(1, 1)
ZERO = Dim(0, 0)


# --- findings -----------------------------------------------------------------------------


def _input_name(call: OpCall, port: int) -> str:
    specs = call.schema.inputs
    return specs[min(port, len(specs) - 1)].name if specs else f"input {port}"


def _rank_error(call: OpCall, port: int, expected: str, ov_message: str) -> Finding:
    return rank_finding(port, _input_name(call, port), call.inputs[port].shape, expected, ov_message)


def _value_error(port: int, problem: str, ov_message: str) -> Finding:
    return value_finding(problem, ov_message, port)


def _type_error(port: int, problem: str, ov_message: str) -> Finding:
    return type_finding(problem, ov_message, port)


def _unknown(call: OpCall, port: int, consequence: str) -> list[Finding]:
    """IRS306 for an input whose value decides the shape, unless its reason is said already."""
    return value_unknown(port, _input_name(call, port), call.inputs[port], consequence)


# --- small helpers ------------------------------------------------------------------------


def _axis(axis: int, rank: int) -> int | None:
    """``ov::util::try_normalize_axis``: a scalar's axes range over [-1, 0] as a vector's."""
    return normalize_axis(axis, max(rank, 1))


def _axis_message(axis: int, rank: int) -> str:
    rank = max(rank, 1)
    return f"Axis {axis} out of the tensor rank range [{-rank}, {rank - 1}]."


_integral = element_types.is_integral_number


def _static_count(shape: PartialShape) -> int | None:
    """The element count of a static shape (None otherwise)."""
    return None if shape.lengths is None else math.prod(shape.lengths)


def _kept(value: Sequence[int] | None) -> tuple[int, ...] | None:
    if value is None or len(value) > VALUE_LIMIT:
        return None
    return tuple(int(v) for v in value)


def _same_shape(call: OpCall, findings: list[Finding] | None = None) -> OpResult:
    data = call.inputs[DATA]
    return OpResult([Output(data.shape, data.element_type)], findings or [])


def _dynamic(call: OpCall, findings: list[Finding], rank: int | None = None, count: int = 1) -> OpResult:
    element_type = call.inputs[DATA].element_type if call.inputs else None
    shape = PartialShape.dynamic(rank)
    return OpResult([Output(shape, element_type) for _ in range(count)], findings)


def _with_value(shape: PartialShape, element_type: str | None, value: tuple[int, ...] | None) -> Output:
    """An output that keeps a value when its shape is static and holds that many elements."""
    keep = value is not None and shape.lengths is not None and math.prod(shape.lengths) == len(value)
    return Output(shape, element_type, value=_kept(value) if keep else None)


def _formulas(rank: int, axis: int, formula: Formula) -> Formulas:
    """The arithmetic behind one axis, for IRS301's message ("" on the other axes), written
    out only if a finding quotes it."""
    parts: list[Formula] = [""] * rank
    parts[axis] = formula
    return Formulas(parts)


def _known(tensor: Tensor) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """A tensor's value and static shape, when both are known and agree (pure Python: numpy
    would cost a quarter of a second of every check's start-up)."""
    lengths = tensor.shape.lengths
    if tensor.value is None or lengths is None or math.prod(lengths) != len(tensor.value):
        return None
    return tensor.value, lengths


def _chunks(value: Sequence[int], lengths: Sequence[int], axis: int) -> list[Sequence[int]]:
    """The value cut into the runs that lie along ``axis`` and after it, outermost first."""
    size = math.prod(lengths[axis:])
    return [value[i * size : (i + 1) * size] for i in range(math.prod(lengths[:axis]))]


def _transposed(value: Sequence[int], lengths: Sequence[int], order: Sequence[int]) -> tuple[int, ...]:
    strides = [math.prod(lengths[i + 1 :]) for i in range(len(lengths))]
    moved = [strides[axis] for axis in order]
    ranges = [range(lengths[axis]) for axis in order]
    return tuple(
        value[sum(i * s for i, s in zip(index, moved, strict=True))] for index in itertools.product(*ranges)
    )


def _rearranged(result: OpResult, data: Tensor, places: Sequence[int] | None) -> OpResult:
    """``result`` with its output's value: the data's elements at ``places`` (their flat
    positions, in the output's order), an integer tensor's value or a real one's reals, where
    the data's is known exactly. OpenVINO evaluates DepthToSpace, SpaceToDepth, ShuffleChannels
    and Reverse on any element type but has no bound evaluators for them: bounds give nothing
    (by experiment, tests/differential/test_real_rearrange.py)."""
    if places is None or not result.outputs or result.outputs[0].shape.lengths is None:
        return result
    output = result.outputs[0]
    if math.prod(output.shape.lengths or ()) != len(places) or len(places) > VALUE_LIMIT:
        return result
    exact = values.known(data)
    if exact is not None and len(exact.values) == len(places):
        output.value = tuple(exact.values[p] for p in places)
    elif data.reals is not None and data.element_type in _REAL_TYPES and len(data.reals) == len(places):
        output.reals = tuple(data.reals[p] for p in places)
    return result


def _places(lengths: Sequence[int], split: Sequence[int], order: Sequence[int]) -> tuple[int, ...] | None:
    """The flat positions a reshape of ``lengths`` to ``split``, transposed by ``order`` (and
    reshaped again), takes: how the block and channel ops move elements; None for a tensor too
    large to keep or a split that does not hold it."""
    count = math.prod(lengths)
    if count > VALUE_LIMIT or math.prod(split) != count:
        return None
    return _transposed(range(count), split, order)


_REAL_TYPES = frozenset({"f16", "f32", "f64", "bf16"})


# --- Reshape ------------------------------------------------------------------------------


class _Product:
    """``reshape::Product<Dimension>``: the input and output element counts, each a static
    part (``first``) and a dynamic part (``second``), with equal static dims cancelled."""

    def __init__(self) -> None:
        self.in_static, self.in_dynamic = ONE, ONE
        self.out_static, self.out_dynamic = ONE, ONE
        self.inputs: list[Dim] = []
        self.outputs: list[Dim] = []

    def set_inf(self) -> None:
        self.in_dynamic, self.out_dynamic = DYNAMIC, DYNAMIC

    def calculate(self) -> None:
        outs = list(self.outputs)
        for d in self.inputs:
            match = next((i for i, o in enumerate(outs) if d == o and d.is_static and d != ZERO), None)
            if match is None:
                self._mul_in(d)
            else:
                del outs[match]
        for o in outs:
            if o.is_static:
                self.out_static = o * self.out_static
            else:
                self.out_dynamic = o * self.out_dynamic
        if self.in_static != self.out_static:
            self.in_dynamic = self.in_dynamic * self.in_static
            self.out_dynamic = self.out_dynamic * self.out_static

    def _mul_in(self, d: Dim) -> None:
        if d.is_static:
            self.in_static = d * self.in_static
        else:
            self.in_dynamic = d * self.in_dynamic

    def minus_one(self) -> Dim:
        """``resolve_minus_one_dim``: the -1 dim, an interval that OpenVINO does not tidy
        (``6..7 / 4`` gives ``2..1``, printed as such)."""
        dim, out = self.in_dynamic, self.out_dynamic
        if dim.is_static and out.is_static:
            return dim.divide_exact(out.lo) if out.lo else EMPTY
        hi = dim.hi // out.lo if dim.hi != INF and out.lo != 0 and out != DYNAMIC else INF
        lo = dim.lo
        if out.hi != 0:
            lo = 0 if lo == 0 else 1 + (lo - 1) // out.hi
        return Dim(lo, hi)


Pattern = tuple[tuple[int, int], ...]
"""A Reshape target as ``get_input_bounds`` reads it: (lower, upper) per element."""


def _pattern_text(pattern: Pattern) -> str:
    return "[" + ", ".join(str(lo) if lo == hi else f"{lo}..{hi}" for lo, hi in pattern) + "]"


def _reshape_pattern(pattern: Pattern, port: int) -> tuple[list[Dim], int | None, Finding | None]:
    """``get_pattern_and_minus_one_idx``: the pattern's dims and the index of the -1, or the
    finding on a second -1 or a bound below -1."""
    minus_one: int | None = None
    dims: list[Dim] = []
    for i, (lo, hi) in enumerate(pattern):
        if (lo, hi) == (-1, -1):
            if minus_one is not None:
                message = "More than one dimension has size of -1"
                problem = f"target_shape {_pattern_text(pattern)} has two -1s"
                return [], None, _value_error(port, problem, message)
            minus_one = i
        if (lo, hi) >= (-1, -1):
            dims.append(Dim.between(lo, hi))
        elif (lo < 0) != (hi < 0):  # only one bound valid
            dims.append(DYNAMIC)
        else:
            message = f"Output pattern dim[{i}] has invalid bounds: {lo},{hi}"
            problem = f"target_shape value {_pattern_text(pattern[i : i + 1])} at index {i} is below -1"
            return [], None, _value_error(port, problem, message)
    return dims, minus_one, None


def _reshape_dims(
    data: PartialShape, pattern: list[Dim], special_zero: bool, minus_one: int | None, product: _Product
) -> list[Dim] | str:
    """The output dims before the -1 is resolved; a str is OpenVINO's message for a '0'
    beyond the input rank."""
    out: list[Dim] = []
    if data.dims is None:
        for dim in pattern:
            if special_zero and dim == ZERO:
                out.append(DYNAMIC)
                product.set_inf()
            else:
                out.append(dim)
                product.outputs.append(dim)
        return out
    rank = len(data.dims)
    for i, dim in enumerate(pattern):
        copy = special_zero and dim == ZERO
        if i == minus_one:
            out.append(DYNAMIC)
        elif copy:
            if i >= rank:
                return "'0' dimension is out of range"
            out.append(data.dims[i])
        else:
            out.append(dim)
            product.outputs.append(dim)
        if i < rank and not copy:
            product.inputs.append(data.dims[i])
    product.inputs.extend(data.dims[len(pattern) :])
    return out


@reading.reads(1, how=reading.BOUNDS)
@moves_bounds(1)
def reshape(call: OpCall) -> OpResult:
    """Reshape-1 (``reshape_shape_inference.hpp``): the target's value, or its bounds."""
    target = call.inputs[1]
    if not _integral(target.element_type):
        problem = f"target_shape has element type {target.element_type}, not an integer type"
        return _dynamic(call, [_type_error(1, problem, "PartialShape pattern must be an integral number.")])
    rank = target.shape.rank
    if rank is not None and rank != 1:
        return _dynamic(call, [_rank_error(call, 1, "not 1", "Pattern shape must have rank 1")])
    pattern = bounds.pairs(target)
    if pattern is None:
        length = target.shape[0] if rank == 1 else DYNAMIC
        out_rank = length.lo if length.is_static else None
        what = f"its {out_rank} dims are unknown" if out_rank is not None else "the output rank is unknown"
        return _dynamic(call, _unknown(call, 1, what), out_rank)
    return _reshape_known(call, tuple(pattern), bool(call.attribute("special_zero")))


def _reshape_known(call: OpCall, pattern: Pattern, special_zero: bool) -> OpResult:
    """Reshape to a known target: OpenVINO's pattern, product and -1 rules, and its checks."""
    data = call.inputs[DATA]
    dims_pattern, minus_one, finding = _reshape_pattern(pattern, 1)
    if finding is not None:
        return _dynamic(call, [finding], len(pattern))
    product = _Product()
    dims = _reshape_dims(data.shape, dims_pattern, special_zero, minus_one, product)
    if isinstance(dims, str):
        index = next(i for i, d in enumerate(dims_pattern) if d == ZERO and i >= (data.shape.rank or 0))
        problem = (
            f"target_shape {_pattern_text(pattern)} has a 0 at index {index} (special_zero: copy that data "
            f"axis), but the data {data.shape} has rank {data.shape.rank}"
        )
        return _dynamic(call, [_value_error(1, problem, dims)], len(pattern))
    product.calculate()
    if minus_one is not None:
        dims[minus_one] = product.minus_one()
        failure = _minus_one_problem(product, dims[minus_one])
        if failure is not None:
            problem = f"target_shape {_pattern_text(pattern)}: {failure[0]} (data {data.shape})"
            return _dynamic(call, [_value_error(1, problem, failure[1])], len(pattern))
    shape = PartialShape(dims)
    if data.shape.is_static and shape.is_static:
        compatible = (special_zero and ZERO in dims_pattern) or minus_one is not None
        if not compatible and product.in_static != product.out_static:
            message = f"Requested output shape {shape} is incompatible with input shape"
            counts = f"{_static_count(shape)} elements, the data {data.shape} has {_static_count(data.shape)}"
            return _dynamic(
                call,
                [incompatible(f"target_shape {_pattern_text(pattern)} has {counts}", message)],
                len(pattern),
            )
    output = _with_value(shape, data.element_type, data.value)
    if minus_one is not None and data.shape.lengths is not None:
        others = [d for i, d in enumerate(dims) if i != minus_one]
        if all(d.is_static for d in others):
            lengths = data.shape.lengths

            def total() -> str:
                return f"{math.prod(lengths)} / {math.prod(d.lo for d in others)}"

            output.formulas = _formulas(len(dims), minus_one, total)
    return OpResult([output])


def _minus_one_problem(product: _Product, dim: Dim) -> tuple[str, str] | None:
    if product.out_static == ZERO:
        if product.in_static != ZERO:
            return (
                "a -1 with a zero-size target dim and no zero-size data dim",
                "Cannot infer '-1' dimension with zero-size output dimension unless at least one input "
                "dimension is also zero-size",
            )
        return None
    if dim.is_empty:
        return (
            "the other target dims do not divide the data's element count",
            "Non-'-1' output dimensions do not evenly divide the input dimensions",
        )
    return None


# --- Squeeze, Unsqueeze -------------------------------------------------------------------


def _axes_rank_ok(call: OpCall, port: int, findings: list[Finding]) -> bool:
    shape = call.inputs[port].shape
    if shape.rank is not None and shape.is_static and shape.rank > 1:
        message = f"Second input (axes) should not be of rank higher than 1. Got: {shape.rank}"
        findings.append(_rank_error(call, port, "not 0 or 1", message))
        return False
    return True


def _normalized(
    call: OpCall, port: int, values: Sequence[int], rank: int, findings: list[Finding]
) -> list[int] | None:
    out: list[int] = []
    for axis in values:
        normal = _axis(axis, rank)
        if normal is None:
            problem = f"{_input_name(call, port)} value {axis} is out of range for rank {rank}"
            findings.append(_value_error(port, problem, _axis_message(axis, rank)))
            return None
        out.append(normal)
    return out


@reading.reads(1)
@moves_bounds(1)
def squeeze(call: OpCall) -> OpResult:
    """Squeeze-1 and Squeeze-15 (``squeeze_shape_inference.hpp``, v0 and v15)."""
    data = call.inputs[DATA]
    v15 = call.schema.version >= 15
    findings: list[Finding] = []
    axes: set[int] | None = set()
    if len(call.inputs) > 1:
        if not _axes_rank_ok(call, 1, findings):
            return _dynamic(call, findings)
        axes_shape = call.inputs[1].shape
        axes = None
        value = call.inputs[1].value
        if data.shape.rank is not None and axes_shape.is_static:
            if value is not None:
                normal = _normalized(call, 1, value, data.shape.rank, findings)
                if normal is None:
                    return _dynamic(call, findings)
                axes = set(normal)
            elif data.shape.rank > 0 and _static_count(axes_shape) == 1:
                findings += _unknown(call, 1, "which axis is squeezed is unknown")
                return OpResult([Output(_squeeze_one_unknown(data.shape, v15), data.element_type)], findings)
        if axes is None and value is None and data.shape.rank is not None:
            # (of data of dynamic rank the output is too, whatever the axes: OpenVINO does not
            # read them, so a layer typed 'Constant' there reads, docs §15)
            findings += _unknown(call, 1, "the output rank is unknown")
    if data.shape.dims is None or axes is None:
        return _dynamic(call, findings)
    dims = data.shape.dims
    if (
        v15
        and call.attribute("allow_axis_skip")
        and any(not d.is_static and d.compatible(ONE) and i in axes for i, d in enumerate(dims))
    ):
        return _dynamic(call, findings)
    if not axes:
        if any(not d.is_static and d.compatible(ONE) for d in dims):
            return _dynamic(call, findings)
        kept = [d for d in dims if not d.compatible(ONE)]
    else:
        kept = [d for i, d in enumerate(dims) if not (i in axes and d.compatible(ONE))]
    return OpResult([_with_value(PartialShape(kept), data.element_type, data.value)], findings)


def _squeeze_one_unknown(data: PartialShape, v15: bool) -> PartialShape:
    """One unknown axis: the rank drops by one if some dim may be 1 (Squeeze-15: dynamic rank)."""
    assert data.dims is not None
    if not any(d.compatible(ONE) for d in data.dims):
        return data
    return PartialShape(None) if v15 else PartialShape.dynamic(len(data.dims) - 1)


@reading.reads(1)
@moves_bounds(1)
def unsqueeze(call: OpCall) -> OpResult:
    """Unsqueeze-1 (``unsqueeze_shape_inference.hpp``)."""
    data, axes = call.inputs[DATA], call.inputs[1]
    findings: list[Finding] = []
    if axes.shape.rank is not None and axes.shape.rank > 1:
        message = f"Second input (axes) should not be of rank higher than 1. Got: {axes.shape.rank}"
        return _dynamic(call, [_rank_error(call, 1, "not 0 or 1", message)])
    if axes.value is None:
        return _dynamic(call, _unknown(call, 1, "the output rank is unknown"))
    if data.shape.dims is None:
        return _dynamic(call, findings)
    if not axes.value:
        return _dynamic(call, [_value_error(1, "axes is empty", "'axes' input is mandatory")])
    unique = set(axes.value)
    expanded = len(data.shape.dims) + len(unique)
    normal = _normalized(call, 1, sorted(unique), expanded, findings)
    if normal is None:
        return _dynamic(call, findings)
    dims = list(data.shape.dims)
    for axis in sorted(set(normal)):
        if axis > len(dims) + 1:
            message = f"provided 'axes' value {axis} is not valid."
            return _dynamic(call, [_value_error(1, f"axes value {axis} is beyond the output", message)])
        dims.insert(min(axis, len(dims)), ONE)
    return OpResult([_with_value(PartialShape(dims), data.element_type, data.value)])


# --- Transpose ----------------------------------------------------------------------------


@reading.reads(1)
@moves_bounds(1)
def transpose(call: OpCall) -> OpResult:
    """Transpose-1 (``transpose_shape_inference.hpp``): an empty order reverses the axes."""
    data, order = call.inputs[DATA], call.inputs[1]
    if not _integral(order.element_type):
        problem = f"input_order has element type {order.element_type}, not an integer type"
        message = "Input order must have an integral number element type."
        return _dynamic(call, [_type_error(1, problem, message)])
    if order.shape.rank is not None and order.shape.rank != 1:
        return _dynamic(call, [_rank_error(call, 1, "not 1", "Input order must be a vector.")])
    rank = data.shape.rank
    if rank is not None:
        length = order.shape[0] if order.shape.rank == 1 else DYNAMIC
        if not (length.compatible(Dim.of(rank)) or length == ZERO):
            message = "Input order must have shape [n], where n is the rank of arg."
            return _dynamic(call, [_rank_error(call, 1, f"not [{rank}]", message)])
    if order.value is None:
        return _dynamic(call, _unknown(call, 1, "the order of the axes is unknown"), rank)
    permutation = list(order.value) or ([] if rank is None else list(range(rank - 1, -1, -1)))
    if rank is None:  # OpenVINO checks no order against a dynamic rank: [0, 0] gives [?,?]
        return _dynamic(call, [], len(permutation))
    if not _valid_permutation(permutation, rank):
        shown = ", ".join(str(p % 2**64) for p in permutation)
        message = f"Permutation AxisVector{{{shown}}} is not valid for input shape {data.shape}"
        problem = f"input_order {list(order.value)} is not a permutation of the data's axes"
        return _dynamic(call, [_value_error(1, problem, message)], rank)
    assert data.shape.dims is not None
    shape = PartialShape(data.shape.dims[p] for p in permutation)
    known = _known(data)
    value = None if known is None else _transposed(known[0], known[1], permutation)
    return OpResult([_with_value(shape, data.element_type, value)])


def _valid_permutation(permutation: list[int], rank: int) -> bool:
    return sorted(permutation) == list(range(rank))


# --- Concat -------------------------------------------------------------------------------

_CONCAT_MESSAGE = (
    "Argument shapes are inconsistent; they must have the same rank, and must have equal dimension "
    "everywhere except on the concatenation axis (axis {axis})."
)


@moves_bounds()
def concat(call: OpCall) -> OpResult:
    """Concat-1: the axis dims add up, the other dims merge (intersect), as OpenVINO does."""
    axis = int(call.attribute("axis"))
    element_type, findings = _merged_type(call)
    if findings:
        return OpResult([Output(PartialShape(None), element_type)], findings)
    merged: list[Dim] | None = None
    total, where = ZERO, 0
    for port, tensor in enumerate(call.inputs):
        dims = tensor.shape.dims
        if dims is None:
            total = total + DYNAMIC
            continue
        normal = _axis(axis, len(dims))
        if normal is None:
            problem = f"is out of range for input {port} of rank {len(dims)}"
            finding = attribute_error(call, "axis", axis, problem, _axis_message(axis, len(dims)))
            return OpResult([Output(PartialShape(None), element_type)], [finding])
        if not dims:
            finding = _rank_error(call, port, "not a scalar", "Accessing out-of-range dimension")
            return OpResult([Output(PartialShape(None), element_type)], [finding])
        total, where = total + dims[normal], normal
        own = [DYNAMIC if i == normal else d for i, d in enumerate(dims)]
        merged = own if merged is None else _merged_dims(merged, own)
        if merged is None:
            problem = f"input {port} {tensor.shape} does not match the inputs before it off axis {normal}"
            return OpResult(
                [Output(PartialShape(None), element_type)],
                [incompatible(problem, _CONCAT_MESSAGE.format(axis=normal))],
            )
    if merged is None:
        return OpResult([Output(PartialShape(None), element_type)])
    merged[where] = total
    shape = PartialShape(merged)
    output = _with_value(shape, element_type, _concat_value(call, where))
    if (
        output.value is None
        and shape.lengths == (len(call.inputs),)
        and element_type in element_types.INTEGRAL
    ):
        output.const_parts = _const_parts(call.inputs)
    inputs = call.inputs

    def summed() -> str:
        return " + ".join(str(t.shape[where]) if t.shape.dims is not None else "?" for t in inputs)

    output.formulas = _formulas(len(merged), where, summed)
    return OpResult([output])


# the types whose Const values irshape reads as OpenVINO's get_axis_vector_val casts them
# (a 4-bit Const's are its bytes, as shape inference reads them: weights.read_integers)
_WHOLE_BYTE_INTEGERS = frozenset(t for t, bits in element_types.BITS.items() if t[0] in "iu" and bits >= 8)


def _const_parts(inputs: Sequence[Tensor]) -> tuple[int | None, ...]:
    """A 1D integer Concat with one element per input: the first value of each Const input,
    None for the others (``broadcast_shape_inference.hpp`` reads ``get_axis_vector_val()[0]``
    of each input that is a Constant, and nothing of any other op, even one whose value is
    known; with no Constant at all, its shape of ``?`` still counts as known)."""
    return tuple(
        t.value[0]
        if isinstance(t, ConstTensor) and t.value and t.element_type in _WHOLE_BYTE_INTEGERS
        else None
        for t in inputs
    )


def _merged_type(call: OpCall) -> tuple[str | None, list[Finding]]:
    known = [t.element_type for t in call.inputs if t.element_type not in (None, "dynamic")]
    if len(set(known)) > 1:
        problem = "the inputs' element types differ: " + ", ".join(sorted(set(map(str, known))))
        return None, [_type_error(0, problem, "Argument element types are inconsistent.")]
    return (known[0] if known else call.inputs[0].element_type), []


def _merged_dims(a: list[Dim], b: list[Dim]) -> list[Dim] | None:
    merged = merge_shapes(PartialShape(a), PartialShape(b))
    return None if merged is None or merged.dims is None else list(merged.dims)


def _concat_value(call: OpCall, axis: int) -> tuple[int, ...] | None:
    known = [_known(t) for t in call.inputs]
    if any(k is None for k in known):
        return None
    runs = [_chunks(value, lengths, axis) for value, lengths in filter(None, known)]
    return tuple(v for outer in zip(*runs, strict=True) for run in outer for v in run)


# --- Split, VariadicSplit -----------------------------------------------------------------


def _split_axis(call: OpCall, findings: list[Finding]) -> int | None:
    """The data axis the axis input names; None when unknown or wrong (findings say which)."""
    data, axis = call.inputs[DATA], call.inputs[1]
    if axis.value is None:
        findings += _unknown(call, 1, "the split axis is unknown")
        return None
    rank = data.shape.rank
    assert rank is not None
    if len(axis.value) != 1:
        findings.append(
            _value_error(1, f"axis holds {len(axis.value)} values", "a scalar axis value is expected")
        )
        return None
    normal = _axis(axis.value[0], rank)
    if normal is None:
        problem = f"axis {axis.value[0]} is out of range for the data's rank {rank}"
        findings.append(_value_error(1, problem, _axis_message(axis.value[0], rank)))
        return None
    if rank == 0:
        findings.append(_rank_error(call, DATA, "not a scalar", "Accessing out-of-range dimension"))
        return None
    return normal


def _replaced(shape: PartialShape, axis: int, dim: Dim) -> PartialShape:
    assert shape.dims is not None
    return PartialShape(dim if i == axis else d for i, d in enumerate(shape.dims))


def _split_values(data: Tensor, axis: int, sizes: list[int]) -> list[tuple[int, ...] | None]:
    known = _known(data)
    if known is None:
        return [None] * len(sizes)
    value, lengths = known
    inner = math.prod(lengths[axis + 1 :])
    parts: list[list[int]] = [[] for _ in sizes]
    for run in _chunks(value, lengths, axis):
        start = 0
        for part, size in zip(parts, sizes, strict=True):
            part.extend(run[start : start + size * inner])
            start += size * inner
    return [tuple(part) for part in parts]


@reading.reads(1)
@moves_bounds(1)
def split(call: OpCall) -> OpResult:
    """Split-1: ``num_splits`` equal parts along the axis input's axis."""
    data, axis_input = call.inputs[DATA], call.inputs[1]
    findings: list[Finding] = []
    if not _integral(axis_input.element_type):
        message = f"Element type of 'axis' input must be integer. Got: {axis_input.element_type}"
        findings.append(_type_error(1, f"axis has element type {axis_input.element_type}", message))
    if axis_input.shape.rank is not None and axis_input.shape.rank != 0:
        message = f"'axis' input must be a scalar. Got: {axis_input.shape}"
        findings.append(_rank_error(call, 1, "not 0", message))
    count = int(call.attribute("num_splits"))
    if count <= 0:
        message = f"Attribute 'num_splits' must be greater than zero. Got: {count}"
        findings.append(attribute_error(call, "num_splits", count, "is not above 0", message))
        return _dynamic(call, findings)
    if findings:
        return _dynamic(call, findings, count=count)
    if data.shape.dims is None:
        return _dynamic(call, findings, count=count)
    axis = _split_axis(call, findings)
    if axis is None:
        return _dynamic(call, findings, data.shape.rank, count)
    dim = data.shape.dims[axis]
    if dim.is_static and dim.lo % count:
        message = (
            f"Dimension of data input shape along 'axis': {dim.lo} must be evenly divisible by "
            f"'num_splits' attribute value: {count}"
        )
        return _dynamic(
            call,
            [_value_error(1, f"axis {axis} of {data.shape} does not split in {count}", message)],
            data.shape.rank,
            count,
        )
    if not dim.is_static and dim.hi != INF and dim.hi < count:  # an interval too short to split
        message = (
            "The interval maximum of the dimension for data input shape along 'axis' must be greater or "
            f"equal to 'num_splits' attribute. Got: Interval({dim.lo}, {dim.hi}) and {count}"
        )
        problem = f"axis {axis} of {data.shape} is at most {dim.hi}, fewer than {count} parts"
        return _dynamic(call, [_value_error(1, problem, message)], data.shape.rank, count)
    part = _replaced(data.shape, axis, dim.floor_div(count))
    values = _split_values(data, axis, [dim.lo // count] * count) if dim.is_static else [None] * count
    outputs = [_with_value(part, data.element_type, v) for v in values]
    formulas = _formulas(len(data.shape.dims), axis, ("{} / {}", (dim, count)))
    for output in outputs:
        output.formulas = formulas
    return OpResult(outputs, findings)


@reading.reads(1, 2)
@moves_bounds(1, 2)
def variadic_split(call: OpCall) -> OpResult:
    """VariadicSplit-1: parts of the split_lengths input's lengths; one -1 takes the rest."""
    axis_input, lengths = call.inputs[1], call.inputs[2]
    if not (
        axis_input.shape.rank in (None, 0)
        or (axis_input.shape.rank == 1 and axis_input.shape[0].compatible(ONE))
    ):
        message = f"Axis should be a scalar or of shape [1]. Got {axis_input.shape} instead."
        return _dynamic(call, [_rank_error(call, 1, "not 0 or [1]", message)])
    if lengths.shape.is_static and lengths.shape.rank != 1:
        message = f"Split lengths should be a 1-D tensor. Got {lengths.shape.rank} instead."
        return _dynamic(call, [_rank_error(call, 2, "not 1", message)])
    if not lengths.shape.is_static:  # OpenVINO reads nothing more
        return _no_outputs(call)
    result = _variadic_parts(call, lengths.shape[0].lo)
    if not result.outputs and not any(f.rule.severity is Severity.ERROR for f in result.findings):
        return _no_outputs(call, result.findings)  # no other fault found first
    return result


def _variadic_parts(call: OpCall, count: int) -> OpResult:
    """VariadicSplit's ``count`` parts (split_lengths' length), as far as its inputs tell."""
    data, _, lengths = call.inputs
    findings: list[Finding] = []
    if data.shape.dims is None:
        return _dynamic(call, findings, count=count)
    axis = _split_axis(call, findings)
    if axis is None:
        return _dynamic(call, findings, data.shape.rank, count)
    if lengths.value is None:
        findings += _unknown(call, 2, "the parts' lengths are unknown")
        part = _replaced(data.shape, axis, DYNAMIC)
        return OpResult([Output(part, data.element_type) for _ in range(count)], findings)
    sizes = _split_lengths(list(lengths.value), data.shape.dims[axis], findings)
    if sizes is None:
        return _dynamic(call, findings, data.shape.rank, count)
    parts = [_replaced(data.shape, axis, DYNAMIC if s == -1 else Dim.of(s)) for s in sizes]
    known = data.shape.dims[axis].is_static and all(s >= 0 for s in sizes)
    values = _split_values(data, axis, sizes) if known else [None] * count
    return OpResult(
        [_with_value(p, data.element_type, v) for p, v in zip(parts, values, strict=True)], findings
    )


def _no_outputs(call: OpCall, findings: Sequence[Finding] = ()) -> OpResult:
    """VariadicSplit has as many outputs as split_lengths has elements, none where that length
    is not static (OpenVINO does not guess it) or is 0; the node then keeps the one output it
    was made with, never inferred: ``[...]`` of type dynamic. A layer that declares a second
    output port is rejected ('node index is out of range': IRS307). By experiment with
    read_model (tests/differential/test_variadic_split_lengths.py)."""
    return OpResult([Output(PartialShape(None), "dynamic")], [*findings, *_unknown(call, 2, _NO_COUNT)])


_NO_COUNT = "the op has no outputs but the one it keeps, of no shape and type"


def _split_lengths(sizes: list[int], dim: Dim, findings: list[Finding]) -> list[int] | None:
    total, minus_one = 0, None
    for i, size in enumerate(sizes):
        if size < -1:
            message = f"Invalid value {size} in split lengths input. Should be >= -1."
            findings.append(_value_error(2, f"split_lengths value {size} is below -1", message))
            return None
        if size == -1:
            if minus_one is not None:
                message = f"Cannot infer split with multiple -1 values at {minus_one} and {i}"
                findings.append(_value_error(2, "split_lengths has two -1s", message))
                return None
            minus_one = i
        else:
            total += size
    if minus_one is not None and dim.is_static:
        sizes[minus_one] = dim.lo - total
        total += sizes[minus_one]
    if dim.is_static and total != dim.lo:
        message = f"Total length of splits: {total} must match the length of the chosen axis: {dim.lo}"
        findings.append(_value_error(2, f"split_lengths {sizes} add up to {total}, not {dim.lo}", message))
        return None
    return sizes


# --- Pad ----------------------------------------------------------------------------------


def _pad_input_problems(call: OpCall, mode: str) -> list[Finding]:
    data = call.inputs[DATA]
    findings: list[Finding] = []
    for port, name in ((1, "pads_begin"), (2, "pads_end")):
        tensor = call.inputs[port]
        if not _integral(tensor.element_type):
            message = f"{name} must be an integral number, but is: {tensor.element_type})."
            findings.append(_type_error(port, f"{name} has element type {tensor.element_type}", message))
    if mode == "constant" and len(call.inputs) > 3:
        findings += _pad_value_problems(call, data, call.inputs[3])
    for port, name in ((1, "pads_begin"), (2, "pads_end")):
        rank = call.inputs[port].shape.rank
        if rank not in (None, 1):
            findings.append(_rank_error(call, port, "not 1", f"Argument for {name} is not 1D."))
    return findings


def _pad_value_problems(call: OpCall, data: Tensor, value: Tensor) -> list[Finding]:
    """pad_value, read in constant mode only: the data's element type, then a scalar."""
    findings: list[Finding] = []
    types = (data.element_type, value.element_type)
    if None not in types and "dynamic" not in types and types[0] != types[1]:
        message = (
            f"Argument element types do not match (input arg element type: {data.element_type}, "
            f"arg_pad element type: {value.element_type})."
        )
        findings.append(_type_error(3, "pad_value's element type is not the data's", message))
    if value.shape.rank not in (None, 0):
        findings.append(_rank_error(call, 3, "not a scalar", "Argument for padding value is not a scalar."))
    return findings


@reading.reads(1, 2, how=reading.BOUNDS)
def pad(call: OpCall) -> OpResult:
    """Pad-1 and Pad-12 (``pad_shape_inference.hpp``): pads may be negative in both."""
    data, begin, end = call.inputs[:3]
    mode = call.attributes.enum("pad_mode", "constant")
    findings = _pad_input_problems(call, mode)
    if findings or data.shape.dims is None:
        return _dynamic(call, findings, data.shape.rank)
    rank = len(data.shape.dims)
    begin_bounds, end_bounds = bounds.pairs(begin), bounds.pairs(end)
    if (begin.value is None or end.value is None) and begin_bounds and end_bounds:
        return _pad_bounded(call, mode, begin_bounds, end_bounds)
    if begin.value is None or end.value is None:
        for port, name in ((1, "pads_begin"), (2, "pads_end")):
            length = call.inputs[port].shape
            if length.rank == 1 and length.is_static and length[0].lo > rank:
                message = (
                    f"Number of elements of {name} must be >= 0 and <= arg rank "
                    f"({name}_shape[0]: {length[0]})."
                )
                return _dynamic(call, [_rank_error(call, port, f"not [{rank}]", message)], rank)
        port = 1 if begin.value is None else 2
        return _dynamic(call, _unknown(call, port, "the padded dims are unknown"), rank)
    for port, name, value in ((1, "pads_begin", begin.value), (2, "pads_end", end.value)):
        if len(value) != rank:
            message = f"length of {name} mismatches with rank of input, expect {rank}, but got {len(value)}"
            problem = f"{name} has {len(value)} values for data of rank {rank}"
            return _dynamic(call, [_value_error(port, problem, message)], rank)
    dims: list[Dim] = []
    formulas = Formulas(
        [
            ("{} + {} + {}", (dim, b, e)) if b or e else ""
            for dim, b, e in zip(data.shape.dims, begin.value, end.value, strict=True)
        ]
    )
    for dim, b, e in zip(data.shape.dims, begin.value, end.value, strict=True):
        refusal = _pad_mode_problem(mode, dim, b, e) if dim.is_static else None
        if refusal is not None:
            return _dynamic(
                call, [_value_error(1, f"{mode} padding of a dim of {dim} by {b}, {e}", refusal)], rank
            )
        dims.append(_padded(dim, b, e))
    output = Output(PartialShape(dims), data.element_type, formulas)
    _pad_values(call, mode, begin.value, end.value, output)
    return OpResult([output])


def _pad_values(
    call: OpCall, mode: str, begin: tuple[int, ...], end: tuple[int, ...], output: Output
) -> None:
    """The padded tensor's value, as OpenVINO folds it (``reference::pad``; by experiment, for
    integers and reals, values and bounds alike): each output element the data's at its
    position less the begin pad, mirrored or clamped back in by the mode, or the pad value
    (input 3, else 0) in constant mode."""
    data = call.inputs[DATA]
    lengths = data.shape.lengths
    if lengths is None or not all(lengths) or output.shape.lengths is None:
        return
    if math.prod(output.shape.lengths) > values.MAX_ELEMENTS:
        return
    places = _padded_places(lengths, begin, end, mode)
    fill = call.inputs[3] if len(call.inputs) > 3 else None
    if data.value is not None or data.lower is not None:
        found = bounds.of(data)
        fills = bounds.of(fill) if fill is not None else ((0,), (0,))
        if found is not None and len(found[0]) == math.prod(lengths):
            settle = _filled(found, fills, places)
            if settle is not None:
                bounds.settle(output, *settle)
    elif data.reals is not None or data.real_lower is not None:
        real_found = bounds.real_of(data)
        real_fills = bounds.real_of(fill) if fill is not None else ((0.0,), (0.0,))
        if real_found is not None and len(real_found[0]) == math.prod(lengths):
            bounds.settle_reals(output, _filled(real_found, real_fills, places))


def _padded_places(
    lengths: Sequence[int], begin: Sequence[int], end: Sequence[int], mode: str
) -> list[int | None]:
    """Per output element (C order) the flat position of the data element it takes; None for
    the pad value."""
    axes: list[list[int | None]] = []
    for n, b, e in zip(lengths, begin, end, strict=True):
        axis: list[int | None] = []
        for place in range(-b, n + e):
            if 0 <= place < n:
                axis.append(place)
            elif mode == "constant":
                axis.append(None)
            elif mode == "edge":
                axis.append(min(max(place, 0), n - 1))
            elif mode == "reflect":
                axis.append(-place if place < 0 else 2 * (n - 1) - place)
            else:  # symmetric
                axis.append(-place - 1 if place < 0 else 2 * n - 1 - place)
        axes.append(axis)
    strides = [math.prod(lengths[i + 1 :]) for i in range(len(lengths))]

    def flat(index: tuple[int | None, ...]) -> int | None:
        total = 0
        for place, stride in zip(index, strides, strict=True):
            if place is None:
                return None
            total += place * stride
        return total

    return [flat(index) for index in itertools.product(*axes)]


_T = TypeVar("_T", int, float)


def _filled(
    found: tuple[tuple[_T, ...], tuple[_T, ...]],
    fills: tuple[tuple[_T, ...], tuple[_T, ...]] | None,
    places: Sequence[int | None],
) -> tuple[tuple[_T, ...], tuple[_T, ...]] | None:
    """The data's lower and upper values at ``places``, the pad value's where it is None; None
    when a pad value is needed and unknown (or not one element)."""
    if None in places and (fills is None or len(fills[0]) != 1):
        return None
    pairs = []
    for side in (0, 1):
        fill = fills[side][0] if fills is not None else found[side][0]
        pairs.append(tuple(fill if p is None else found[side][p] for p in places))
    return pairs[0], pairs[1]


def _pad_bounded(
    call: OpCall, mode: str, begin: list[tuple[int, int]], end: list[tuple[int, int]]
) -> OpResult:
    """Pads known by their bounds (``pad_shape_inference.hpp``): the lower bounds padded by
    the lower pads, the upper by the upper ones; unbounded where a pad is [0, max]."""
    data = call.inputs[DATA]
    assert data.shape.dims is not None
    rank = len(data.shape.dims)
    for port, name, pads in ((1, "pads_begin", begin), (2, "pads_end", end)):
        if len(pads) != rank:
            message = f"length of {name} mismatches with rank of input, expect {rank}, but got {len(pads)}"
            problem = f"{name} has {len(pads)} values for data of rank {rank}"
            return _dynamic(call, [_value_error(port, problem, message)], rank)
    dims: list[Dim] = []
    for dim, b, e in zip(data.shape.dims, begin, end, strict=True):
        refusal = _pad_mode_problem(mode, dim, b[0], e[0]) if dim.is_static else None
        if refusal is not None:
            problem = f"{mode} padding of a dim of {dim} by at least {b[0]}, {e[0]}"
            return _dynamic(call, [_value_error(1, problem, refusal)], rank)
        low_pad, high_pad = b[0] + e[0], _int64(b[1] + e[1])  # C++ adds the upper pads in int64
        if low_pad == 0 and high_pad == 0:
            dims.append(dim)
            continue
        lower = _padded_length(dim.lo, low_pad)
        unbounded = _infinite_pad(b) or _infinite_pad(e)
        upper = -1 if unbounded else _padded_length(-1 if dim.hi == INF else dim.hi, high_pad)
        dims.append(Dim.between(lower, upper))
    return OpResult([Output(PartialShape(dims), data.element_type)])


def _int64(value: int) -> int:
    return (value + 2**63) % 2**64 - 2**63


def _padded_length(length: int, pad: int) -> int:
    """``dim::padded`` on a length (-1: unbounded): -1 when unbounded or below 0."""
    return -1 if length == -1 or length + pad < 0 else length + pad


def _infinite_pad(pad: tuple[int, int]) -> bool:
    """``pad::is_inf_padding``: a pad from 0 to the maximum (or -1)."""
    return pad[0] == 0 and pad[1] in (-1, INF)


def _padded(dim: Dim, begin: int, end: int) -> Dim:
    """``pad::calc_dim`` on both bounds: a bound below 0 or unbounded becomes -1."""
    diff = begin + end
    if diff == 0:
        return dim

    def bound(length: int) -> int:
        return -1 if length == INF or length + diff < 0 else length + diff

    return Dim.between(bound(dim.lo), bound(dim.hi))


def _pad_mode_problem(mode: str, dim: Dim, begin: int, end: int) -> str | None:
    size = dim.lo
    if begin > 0 or end > 0:
        if mode == "edge" and size < 1:
            return "EDGE padding mode requires an input of dimension of at least 1 at each spatial axis."
        if mode == "reflect" and size < 2:
            return "REFLECT padding mode requires an input of dimension of at least 2 at each spatial axis."
    if mode == "reflect" and not (begin < size and end < size):
        return (
            "REFLECT padding mode requires that 'pads_begin[D]' and 'pads_end[D]' must be not greater "
            "than 'data_shape[D] - 1'."
        )
    if mode == "symmetric" and not (begin <= size and end <= size):
        return (
            "SYMMETRIC padding mode requires that 'pads_begin[D]' and 'pads_end[D]' must be not greater "
            "than 'data_shape[D]'."
        )
    return None


# --- ops whose output is the data's shape -------------------------------------------------


def _int32_or_64(call: OpCall, port: int, message: str, findings: list[Finding]) -> None:
    element_type = call.inputs[port].element_type
    if element_type not in (None, "dynamic", "i32", "i64"):
        findings.append(
            _type_error(port, f"{_input_name(call, port)} has element type {element_type}", message)
        )


@reading.reads(2)
def roll(call: OpCall) -> OpResult:
    """Roll-7: the data's shape; shift and axes are checked as OpenVINO checks them."""
    data, shift, axes = call.inputs
    findings: list[Finding] = []
    _int32_or_64(call, 1, "Shift must have int32 or int64 element type.", findings)
    _int32_or_64(call, 2, "Axes must have int32 or int64 element type.", findings)
    if shift.shape.rank is not None and shift.shape.rank > 1:
        findings.append(_rank_error(call, 1, "not 0 or 1", "Shift must be a scalar or 1D tensor."))
    elif not (shift.shape.is_static and shift.shape.rank == 0) and not _compatible(shift.shape, axes.shape):
        message = "If shift is a 1D vector, axes must be a 1D tensor of the same size."
        findings.append(incompatible(f"shift {shift.shape} and axes {axes.shape} differ", message))
    elif axes.shape.rank is not None and axes.shape.rank > 1:
        findings.append(_rank_error(call, 2, "not 0 or 1", "Axes must be a scalar or 1D tensor."))
    if not findings and data.shape.rank is not None:  # OpenVINO reads the axes to check them
        if axes.value is None:
            findings += unreadable(2, "axes", axes)
        else:
            _normalized(call, 2, axes.value, data.shape.rank, findings)
    return _same_shape(call, findings)


def _compatible(a: PartialShape, b: PartialShape) -> bool:
    if a.dims is None or b.dims is None:
        return True
    return len(a.dims) == len(b.dims) and all(x.compatible(y) for x, y in zip(a.dims, b.dims, strict=True))


def reverse(call: OpCall) -> OpResult:
    """Reverse-1: the data's shape; the axes input is checked for its mode. Its value: the
    data's elements reversed on the axes, in mask mode where the boolean mask is true (its
    value as the Const holds it: shape inference does not read it, OpenVINO's evaluate does)."""
    result = _reverse_checked(call)
    data, mask = call.inputs
    if result.findings or call.attributes.enum("mode", "index") != "mask" or mask.element_type != "boolean":
        return result
    if mask.value is None or data.shape.rank is None or len(mask.value) != data.shape.rank:
        return result
    axes = {axis for axis, flag in enumerate(mask.value) if flag}
    return _rearranged(result, data, _reverse_places(data.shape.lengths, axes))


@reading.reads(1, how=reading.AS_IS)
def _reverse_checked(call: OpCall) -> OpResult:
    """Reverse-1's shape and checks (the axes read as index mode reads them), and its value in
    index mode."""
    data, axes = call.inputs
    mode = call.attributes.enum("mode", "index")
    findings: list[Finding] = []
    if axes.shape.rank is not None and axes.shape.rank != 1:
        message = f"The reversed_axes input must be a 1D tensor (got {axes.shape.rank})."
        return _same_shape(call, [_rank_error(call, 1, "not 1", message)])
    if mode == "mask":
        if axes.element_type not in (None, "dynamic", "boolean"):
            message = "In 'mask' mode the second input must contain boolean values."
            findings.append(_type_error(1, f"axes has element type {axes.element_type}", message))
        rank = data.shape.rank
        if rank is not None and axes.shape.rank == 1 and not axes.shape[0].compatible(Dim.of(rank)):
            message = (
                f"The number of elements in the reversed_axes tensor ({axes.shape[0]}) must match the input "
                f"data tensor rank ({rank}) in 'mask' mode."
            )
            findings.append(incompatible(f"axes {axes.shape} in mask mode for data of rank {rank}", message))
        return _same_shape(call, findings)  # (its value: reverse, from the mask as held)
    if not _integral(axes.element_type):
        message = "In 'index' mode the second input must contain integer values."
        findings.append(_type_error(1, f"axes has element type {axes.element_type}", message))
    elif data.shape.rank is not None and axes.value is None:
        findings += unreadable(1, "axes", axes)
    elif data.shape.rank is not None and axes.value is not None:
        clipped = sorted({max(v, 0) for v in axes.value})
        if any(v >= data.shape.rank for v in clipped):
            shown = ", ".join(map(str, clipped))
            rank = data.shape.rank
            message = (
                f"Some of the provided axes (AxisSet{{{shown}}}) are out of bounds (input rank: {rank})."
            )
            findings.append(
                _value_error(1, f"axes {list(axes.value)} are out of range for rank {rank}", message)
            )
    rank = data.shape.rank
    if findings or axes.value is None or rank is None or any(not -rank <= v < rank for v in axes.value):
        return _same_shape(call, findings)
    # its evaluate counts a negative axis from the end (by experiment: -1 of [2,4] is axis 1)
    reversed_axes = {v + rank if v < 0 else v for v in axes.value}
    return _rearranged(_same_shape(call), data, _reverse_places(data.shape.lengths, reversed_axes))


# what Reverse reads, for its declaration to be checked against (tests/test_reads_declared.py)
setattr(reverse, reading.READS, getattr(_reverse_checked, reading.READS))


def _reverse_places(lengths: Sequence[int] | None, axes: set[int]) -> tuple[int, ...] | None:
    """The flat positions Reverse takes: each coordinate counted from the end on ``axes``."""
    if lengths is None or math.prod(lengths) > VALUE_LIMIT or any(axis >= len(lengths) for axis in axes):
        return None
    steps = values.strides(lengths)
    return tuple(
        sum(
            (n - 1 - c if axis in axes else c) * step
            for axis, (c, n, step) in enumerate(zip(at, lengths, steps, strict=True))
        )
        for at in values.coordinates(lengths)
    )


def reverse_sequence(call: OpCall) -> OpResult:
    """ReverseSequence-1: data of rank >= 2, sequence lengths a numeric 1D tensor as long as the
    data's batch axis; the data's shape (its batch dim the merge of the two), of its type."""
    data, lengths = call.inputs
    findings: list[Finding] = []
    rank = data.shape.rank
    if rank is not None and rank < 2:
        message = f"Data input rank should be equal or greater than 2. Got: {data.shape}"
        return OpResult([], [rank_finding(0, "data", data.shape, "2 or more", message)])
    axes = [_sequence_axis(call, name, rank, findings) for name in ("batch_axis", "seq_axis")]
    if lengths.shape.rank not in (None, 1):
        message = f"Sequence lengths rank must be equal to 1. Got: {lengths.shape}"
        findings.append(rank_finding(1, "seq_lengths", lengths.shape, "1", message))
    if known(lengths.element_type) and lengths.element_type in ("boolean", "string"):
        message = f"Sequence lengths element type must be numeric type. Got: {lengths.element_type}"
        problem = f"the sequence lengths are of element type {lengths.element_type}, not a numeric one"
        findings.append(type_finding(problem, message, 1))
    if findings:
        return OpResult([], findings)
    batch = axes[0]
    if data.shape.dims is None or lengths.shape.dims is None or batch is None:
        return OpResult([Output(data.shape, data.element_type)])
    merged = merge_dim(data.shape.dims[batch], lengths.shape.dims[0])
    if merged is None:
        message = (
            f"Sequence lengths input size ({lengths.shape.dims[0]}) is not equal to batch axis dimension "
            f"of data input ({data.shape.dims[batch]})"
        )
        problem = f"the sequence lengths {lengths.shape} do not match the data's batch axis {data.shape}"
        return OpResult([], [incompatible(problem, message)])
    dims = list(data.shape.dims)
    dims[batch] = merged
    return OpResult([Output(PartialShape(dims), data.element_type)])


def _sequence_axis(call: OpCall, name: str, rank: int | None, findings: list[Finding]) -> int | None:
    """An axis attribute normalized against the data's rank (``ov::normalize_axis``); IRS112
    when it is out of range."""
    axis = int(call.attribute(name))
    if rank is None:
        return None
    normal = normalize_axis(axis, rank)
    if normal is None:
        findings.append(
            attribute_error(
                call, name, axis, f"is out of range for rank {rank}", axis_range_message(axis, rank)
            )
        )
    return normal


def cumsum(call: OpCall) -> OpResult:
    """CumSum-3: the data's shape; the axis must be i32 or i64."""
    findings: list[Finding] = []
    if len(call.inputs) > 1:
        element_type = call.inputs[1].element_type
        message = f"axis element type must be either int64_t or int32_t but got ({element_type})."
        _int32_or_64(call, 1, message, findings)
    return _same_shape(call, findings)


def shuffle_channels(call: OpCall) -> OpResult:
    """ShuffleChannels-1: the data's shape; the axis dim must be a multiple of group."""
    data = call.inputs[DATA]
    group, axis = int(call.attribute("group")), int(call.attribute("axis"))
    if group < 1:
        message = "The 'group' parameter must be greater or equal to 1."
        return _same_shape(call, [attribute_error(call, "group", group, "is below 1", message)])
    if data.shape.dims is None:
        return _same_shape(call)
    rank = len(data.shape.dims)
    if rank == 0:
        message = "The input tensor's shape is expected to be at least 1D."
        return _same_shape(call, [_rank_error(call, DATA, "not 0", message)])
    normal = _axis(axis, rank)
    if normal is None:
        return _same_shape(
            call,
            [
                attribute_error(
                    call, "axis", axis, f"is out of range for rank {rank}", _axis_message(axis, rank)
                )
            ],
        )
    dim = data.shape.dims[normal]
    if dim.is_static and dim.lo % group:
        message = "The channel dimension size has to be a multiple of the groups parameter value."
        problem = f"axis {normal} of {data.shape} is not a multiple of group {group}"
        return _same_shape(call, [incompatible(problem, message)])
    lengths = data.shape.lengths
    if lengths is None or lengths[normal] % group:
        return _same_shape(call)
    # [outer, group, channels / group, inner] with its two middle axes swapped
    outer, inner = math.prod(lengths[:normal]), math.prod(lengths[normal + 1 :])
    split = (outer, group, lengths[normal] // group, inner)
    return _rearranged(_same_shape(call), data, _places(lengths, split, (0, 2, 1, 3)))


# --- DepthToSpace, SpaceToDepth -----------------------------------------------------------


def _block_rank_problem(call: OpCall) -> Finding | None:
    rank = call.inputs[DATA].shape.rank
    if rank is not None and rank < 3:
        message = f"The input tensor with rank lower than 3 is not supported (input rank: {rank})"
        return _rank_error(call, DATA, "below 3", message)
    return None


def depth_to_space(call: OpCall) -> OpResult:
    """DepthToSpace-1: channels / block^spatial, each spatial dim * block."""
    data = call.inputs[DATA]
    block = int(call.attribute("block_size"))
    if block <= 0:
        message = (
            "DepthToSpace: The divisor must not be 0" if block == 0 else "divisor must be greater than 0"
        )
        return _dynamic(
            call, [attribute_error(call, "block_size", block, "is not above 0", message)], data.shape.rank
        )
    problem = _block_rank_problem(call)
    if problem is not None or data.shape.dims is None:
        return _dynamic(call, [problem] if problem else [], data.shape.rank)
    batch, channels, *spatial = data.shape.dims
    divisor = block ** len(spatial)
    depth = channels.divide_exact(divisor)
    if depth.is_empty:
        finding = incompatible(
            f"channels {channels} are not a multiple of {block}^{len(spatial)}",
            multiple_message(channels, divisor),
        )
        return _dynamic(call, [finding], data.shape.rank)
    shape = PartialShape([batch, depth, *(d * block for d in spatial)])
    result = OpResult([Output(shape, data.element_type)])
    lengths = data.shape.lengths
    if lengths is None:
        return result
    # the channels split into block axes and the depth (in the mode's order), each block axis
    # then moved after its spatial axis
    k, size = len(spatial), lengths[1] // divisor
    blocks_first = call.attributes.enum("mode", "blocks_first") == "blocks_first"
    split = (lengths[0], *[block] * k, size) if blocks_first else (lengths[0], size, *[block] * k)
    depth_axis, first_block = (k + 1, 1) if blocks_first else (1, 2)
    order = [0, depth_axis]
    for i in range(k):
        order += [k + 2 + i, first_block + i]
    return _rearranged(result, data, _places(lengths, (*split, *lengths[2:]), order))


def space_to_depth(call: OpCall) -> OpResult:
    """SpaceToDepth-1: each spatial dim / block, channels * block^spatial."""
    data = call.inputs[DATA]
    block = int(call.attribute("block_size"))
    if block <= 0:
        message = "The block size must be greater than 0" if block == 0 else "divisor must be greater than 0"
        return _dynamic(
            call, [attribute_error(call, "block_size", block, "is not above 0", message)], data.shape.rank
        )
    problem = _block_rank_problem(call)
    if problem is not None or data.shape.dims is None:
        return _dynamic(call, [problem] if problem else [], data.shape.rank)
    batch, channels, *spatial = data.shape.dims
    out = []
    for axis, dim in enumerate(spatial, start=2):
        part = dim.divide_exact(block)
        if part.is_empty:
            finding = incompatible(
                f"spatial axis {axis} ({dim}) is not a multiple of {block}", multiple_message(dim, block)
            )
            return _dynamic(call, [finding], data.shape.rank)
        out.append(part)
    shape = PartialShape([batch, channels * block ** len(spatial), *out])
    result = OpResult([Output(shape, data.element_type)])
    lengths = data.shape.lengths
    if lengths is None:
        return result
    # each spatial axis split into (length / block, block), the block axes gathered beside the
    # channels (before them in blocks_first mode, after them in depth_first)
    k = len(spatial)
    split = [lengths[0], lengths[1]]
    for n in lengths[2:]:
        split += [n // block, block]
    blocks, kept = [3 + 2 * i for i in range(k)], [2 + 2 * i for i in range(k)]
    blocks_first = call.attributes.enum("mode", "blocks_first") == "blocks_first"
    order = [0, *blocks, 1, *kept] if blocks_first else [0, 1, *blocks, *kept]
    return _rearranged(result, data, _places(lengths, split, order))
