"""Small integer tensors as shape subgraphs carry them: flat C-order values of a static shape.

Pure Python (numpy is only for dry runs): numpy-style broadcasting of values to an output
shape, Tile's repetition, and wrapping to an element type as C++ casts wrap.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from irshape.ir import element_types
from irshape.ops.interface import Tensor

MAX_ELEMENTS = 64  # the values irshape keeps: small tensors, as shapes are made of


class Known:
    """A tensor whose value is known: its flat values and its static lengths."""

    __slots__ = ("lengths", "values")

    def __init__(self, values: Sequence[int], lengths: Sequence[int]) -> None:
        self.values = tuple(values)
        self.lengths = tuple(lengths)


# 4-bit types whose value irshape keeps as OpenVINO's shape inference reads it (one byte an
# element: irshape/shapes/reading.py), which is not the elements an op computes with
_BYTE_READ = frozenset({"i4", "u4", "nf4"})


def known(tensor: Tensor) -> Known | None:
    """The tensor's value with its shape, when both are known and agree, for an op to compute
    with (not a 4-bit one's: its value is bytes)."""
    lengths = tensor.shape.lengths
    if tensor.value is None or lengths is None or math.prod(lengths) != len(tensor.value):
        return None
    if tensor.element_type in _BYTE_READ:
        return None
    return Known(tensor.value, lengths)


def strides(lengths: Sequence[int]) -> list[int]:
    steps, step = [], 1
    for n in reversed(lengths):
        steps.append(step)
        step *= n
    return steps[::-1]


def coordinates(lengths: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every index of a tensor of these lengths, the last axis fastest. None for an empty one:
    ``itertools.product`` makes a tuple of each range first (``[1, 10**12, 0]`` would not fit)."""
    if 0 in lengths:
        return iter(())
    return itertools.product(*(range(n) for n in lengths))


def broadcast_to(tensor: Known, out: Sequence[int]) -> list[int] | None:
    """The values numpy-broadcast (aligned at the last axis) to the lengths ``out``; None for
    an output too large to keep."""
    if math.prod(out) > MAX_ELEMENTS:
        return None
    lengths = (1,) * (len(out) - len(tensor.lengths)) + tensor.lengths
    steps = [0 if n == 1 else s for n, s in zip(lengths, strides(lengths), strict=True)]
    return [
        tensor.values[sum(i * s for i, s in zip(index, steps, strict=True))] for index in coordinates(out)
    ]


def tile(tensor: Known, counts: Sequence[int]) -> list[int] | None:
    """``np.tile``: the values repeated ``counts`` times per axis (aligned at the last axis);
    None for an output too large to keep."""
    rank = max(len(counts), len(tensor.lengths))
    lengths = (1,) * (rank - len(tensor.lengths)) + tensor.lengths
    counts = (1,) * (rank - len(counts)) + tuple(counts)
    out = [n * c for n, c in zip(lengths, counts, strict=True)]
    if math.prod(out) > MAX_ELEMENTS:
        return None
    steps = strides(lengths)
    return [
        tensor.values[sum((i % n) * s for i, n, s in zip(index, lengths, steps, strict=True))]
        for index in coordinates(out)
    ]


def elementwise(
    function: Callable[..., int | None], operands: Sequence[Known], out: Sequence[int]
) -> list[int] | None:
    """``function`` of the operands' broadcast values, element by element; None when it
    refuses one (returns None: a division by zero)."""
    columns = [broadcast_to(operand, out) for operand in operands]
    if any(column is None for column in columns):
        return None
    result = [function(*row) for row in zip(*(c for c in columns if c is not None), strict=True)]
    return None if any(v is None for v in result) else [v for v in result if v is not None]


# --- real values: small float tensors shape subgraphs compute (a size times a scale) ---------

# struct's formats of the IEEE types: packing rounds to the nearest, ties to even, as a C++
# conversion does (the f8 types are not computed with; bf16 is an f32's upper half, below)
_REAL_FORMATS = {"f16": "e", "f32": "f", "f64": "d", "bf16": "f"}


def to_real(numbers: Sequence[float] | None, element_type: str | None) -> tuple[float, ...] | None:
    """The numbers rounded to ``element_type``; None for another type, too many numbers, or a
    result that is not finite (Range's values, whose infinities its shape inference refuses)."""
    rounded = to_ieee(numbers, element_type)
    return rounded if rounded is not None and all(map(math.isfinite, rounded)) else None


def to_ieee(numbers: Sequence[float] | None, element_type: str | None) -> tuple[float, ...] | None:
    """The numbers rounded to ``element_type`` as IEEE arithmetic rounds them, infinities and
    NaN kept: a value past the type's range is an infinity of its sign (by experiment, an f32
    size times 1e6 converted to f16 is inf, and its Minimum with 9 is 9); None for another
    type or too many numbers."""
    form = _REAL_FORMATS.get(element_type or "")
    if numbers is None or form is None or len(numbers) > MAX_ELEMENTS:
        return None
    count = len(numbers)
    if form == "e":  # OpenVINO computes an f16 in f32 and converts the result
        numbers = struct.unpack(f"<{count}f", _packed(numbers, "f"))
    packed = _packed(numbers, form)
    if element_type == "bf16":  # computed in f32 too, then rounded to its upper half
        packed = struct.pack(f"<{count}I", *map(_bf16_bits, struct.unpack(f"<{count}I", packed)))
    rounded = struct.unpack(f"<{count}{form}", packed)
    if 0.0 in rounded and any(v == 0 and math.copysign(1.0, v) < 0 for v in rounded):
        return tuple(NEGATIVE_ZERO if v == 0 and math.copysign(1.0, v) < 0 else v for v in rounded)
    return rounded


class _NegativeZero(float):
    """-0.0 hashed apart from 0.0. Equal they are, in IEEE arithmetic and in Python, but a
    division by each is an infinity of another sign: a value holding one must not be taken for
    a value holding the other where values are keys (the check's memo of clean checks, keyed
    by the inputs' :class:`~irshape.ops.interface.Value`), and a dict tells keys apart by hash
    first. Arithmetic on it gives plain floats."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash("-0.0")


NEGATIVE_ZERO = _NegativeZero(-0.0)


def _packed(numbers: Sequence[float], form: str) -> bytes:
    """The numbers packed in struct's ``form``, rounded to the nearest (ties to even); one that
    rounds past the format's range (struct refuses it) an infinity of its sign, as a C++
    conversion gives it."""
    try:
        return struct.pack(f"<{len(numbers)}{form}", *numbers)
    except OverflowError:
        return b"".join(_packed_one(v, form) for v in numbers)


def _packed_one(number: float, form: str) -> bytes:
    try:
        return struct.pack(f"<{form}", number)
    except OverflowError:
        return struct.pack(f"<{form}", math.copysign(math.inf, number))


def _bf16_bits(bits: int) -> int:
    """An f32's bits rounded to bf16's (its upper 16) as ``ov::bfloat16::round_to_nearest_even``
    does, which is not to the nearest: half of the lowest kept bit is added, so an odd upper half
    rounds to the nearest (ties up) and an even one is truncated. By experiment, sizes through
    Convert to bf16: 257 is 256, 259 260, 511 512, but 515 512 and 1031 1024 (the nearest are
    516 and 1032). Past bf16's maximum the exponent's bits are all ones: infinity, refused."""
    return ((bits + ((bits & 0x10000) >> 1)) >> 16 << 16) & 0xFFFFFFFF


def real_elementwise(
    function: Callable[..., float | None], operands: Sequence[Tensor], out: Sequence[int]
) -> list[float] | None:
    """``function`` of the operands' broadcast real values (``reals``), element by element;
    None when one is not known or the function refuses an element."""
    columns = []
    for operand in operands:
        lengths = operand.shape.lengths
        if operand.reals is None or lengths is None or math.prod(lengths) != len(operand.reals):
            return None
        positions = broadcast_to(Known(range(len(operand.reals)), lengths), out)
        if positions is None:
            return None
        columns.append([operand.reals[p] for p in positions])
    result = [function(*row) for row in zip(*columns, strict=True)]
    return None if any(v is None for v in result) else [v for v in result if v is not None]


# the integer types a real is converted to through an int64 (the others through an int32)
_THROUGH_INT64 = frozenset({"i64", "u32", "u64"})


def truncated(reals: Sequence[float], element_type: str | None) -> tuple[int, ...] | None:
    """Reals converted to an integer type as OpenVINO's Convert does on x86, by experiment
    (f32 and f16, Consts and computed values alike): truncated toward zero (2.5, 3.5, 2.7 and
    -2.5 give 2, 3, 2 and -2), through an int32 for the types up to 32 bits but u32 and through
    an int64 for the others, each out of its range (NaN, infinities too) at its minimum (x86's
    'integer indefinite'), then wrapped to the type: 300.7 to u8 is 44, 3e9 to i32 -2^31 and to
    u8 0, -5.5 to u32 4294967291, 1e20 to u64 0 (past 2^63 the conversion subtracts 2^63
    first); to boolean non-zero is true (NaN and the infinities too: by experiment, an f16 bound
    of inf converted to boolean is 1); None for another type."""
    if element_type == "boolean":
        return tuple(int(v != 0) for v in reals)
    if element_type is None or element_type[0] not in "iu":
        return None
    wide = element_type in _THROUGH_INT64
    bits = 64 if wide else 32
    minimum = -(1 << (bits - 1))
    whole = []
    for v in reals:
        if element_type == "u64" and v >= 2.0**63:  # (v - 2^63) as an int64, its top bit set
            rest = _indefinite(v - 2.0**63, minimum)
            whole.append((rest % (1 << 64)) ^ (1 << 63))
        else:
            whole.append(_indefinite(v, minimum))
    return wrap(whole, element_type)


def _indefinite(v: float, minimum: int) -> int:
    """x86's truncating conversion to a signed integer of ``minimum``'s width."""
    if not math.isfinite(v):
        return minimum
    whole = math.trunc(v)
    return whole if minimum <= whole < -minimum else minimum


# The element types each op's evaluate takes in OpenVINO 2026.4, for the ops whose list leaves
# out some of the integer types and boolean (by experiment: a Const of each type through the op,
# converted to i64, as a Broadcast's target; docs/openvino-ir-reading.md §14). With another
# type OpenVINO folds nothing (and its bound evaluators read an output its evaluate never
# wrote), so irshape folds neither values nor bounds there.
_WIDE = frozenset({"i32", "i64", "u32", "u64"})
_ALL = _WIDE | {"boolean", "i8", "i16", "u8", "u16"}
_EVALUATED = {
    "Negative": frozenset({"i32", "i64"}),
    "Abs": _WIDE,
    "Multiply": _WIDE,
    "Divide": _WIDE,
    "Maximum": _WIDE,
    "Power": _WIDE,
    "ReduceProd": _WIDE,
    "ReduceSum": _WIDE,
    "NotEqual": _WIDE | {"boolean"},
    "Less": _WIDE | {"boolean"},
    "LessEqual": _WIDE | {"boolean"},
    "Greater": _WIDE | {"boolean"},
    "GreaterEqual": _WIDE | {"boolean"},
    "Minimum": _ALL - {"i8", "i16"},
    "LogicalNot": _ALL - {"i8", "i16", "u16"},
    "Subtract": _ALL - {"i16", "u16"},
    "FloorMod": _ALL - {"i16", "u16"},
    "ReduceMax": _ALL - {"i16", "u16"},
    "ReduceMin": _ALL - {"i16", "u16"},
    "Gather": _ALL - {"i16", "u16"},
    "ScatterElementsUpdate": _ALL - {"i8", "u8", "u16"},
    "ScatterNDUpdate": _ALL - {"i8", "i16", "u8", "u16"},
}


def evaluates(op: str, element_type: str | None) -> bool:
    """Does OpenVINO's evaluate of ``op`` take values of ``element_type`` (its data's, for a
    comparison its inputs')?"""
    types = _EVALUATED.get(op)
    return types is None or element_type in types


def moved(values: Sequence[int] | None) -> tuple[int, ...] | None:
    """Values an op moves (Broadcast, Tile, Select) as they are: a boolean's byte is copied, not
    cast, so 2 stays 2 (a Convert to i64 after it gives 2)."""
    return None if values is None else tuple(values)


def wrap(values: Sequence[int] | None, element_type: str | None) -> tuple[int, ...] | None:
    """The values in ``element_type`` as a C++ cast leaves them (two's complement wrap; to
    boolean: non-zero is 1); None for other types, too many values or none."""
    if values is None or len(values) > MAX_ELEMENTS or element_type is None:
        return None
    if element_type == "boolean":
        return tuple(int(v != 0) for v in values)
    bits = element_types.BITS.get(element_type)
    if bits is None or element_type[0] not in "iu":
        return None
    modulus = 1 << bits
    if element_type[0] == "u":
        return tuple(v % modulus for v in values)
    half = modulus >> 1
    return tuple((v + half) % modulus - half for v in values)


# --- indexing and reducing known values, as numpy's basic indexing, take and reductions do ----------


def _nested(values: Sequence[int], lengths: Sequence[int]) -> Any:
    """The flat values as nested lists of ``lengths`` (a scalar for rank 0)."""
    if not lengths:
        return values[0]
    if len(lengths) == 1:
        return list(values)
    step = math.prod(lengths[1:])
    return [_nested(values[i * step : (i + 1) * step], lengths[1:]) for i in range(lengths[0])]


def _flat(node: Any, rank: int) -> list[int]:
    if rank == 0:
        return [node]
    return [value for child in node for value in _flat(child, rank - 1)] if rank > 1 else list(node)


def index(data: Known, items: Sequence[Any]) -> Known | None:
    """``data[items]`` with numpy's basic indexing: slices, ints (an axis less), ``None`` (a new
    axis of 1) and one ``Ellipsis``; None when an int is out of range."""
    taking = sum(1 for item in items if item is not None and item is not Ellipsis)
    expanded: list[Any] = []
    for item in items:
        if item is Ellipsis:
            expanded += [slice(None)] * (len(data.lengths) - taking)
        else:
            expanded.append(item)
    expanded += [slice(None)] * (len(data.lengths) - sum(1 for item in expanded if item is not None))
    lengths: list[int] = []
    axis = 0
    for item in expanded:
        if item is None:
            lengths.append(1)
            continue
        size = data.lengths[axis]
        if isinstance(item, slice):
            lengths.append(len(range(size)[item]))
        elif not -size <= item < size:
            return None
        axis += 1

    def pick(node: Any, rest: Sequence[Any]) -> Any:
        if not rest:
            return node
        head, tail = rest[0], rest[1:]
        if head is None:
            return [pick(node, tail)]
        if isinstance(head, slice):
            return [pick(child, tail) for child in node[head]]
        return pick(node[head], tail)

    picked = pick(_nested(data.values, data.lengths), expanded)
    return Known(_flat(picked, len(lengths)), lengths)


def take(data: Known, indices: Known, axis: int) -> Known:
    """``numpy.take(data, indices, axis)`` with indices already in range and not negative."""
    before, size, after = data.lengths[:axis], data.lengths[axis], data.lengths[axis + 1 :]
    inner = math.prod(after)
    values = [
        data.values[(outer * size + i) * inner + k]
        for outer in range(math.prod(before))
        for i in indices.values
        for k in range(inner)
    ]
    return Known(values, (*before, *indices.lengths, *after))


def batched_take(data: Known, indices: Known, axis: int, batch_dims: int) -> Known | None:
    """Gather's ``batch_dims``: for each index of the first ``batch_dims`` axes (the data's and
    the indices' alike) :func:`take` of that part of the data by that part of the indices;
    None when their batch axes differ."""
    if data.lengths[:batch_dims] != indices.lengths[:batch_dims]:
        return None
    batches = math.prod(data.lengths[:batch_dims])
    data_step, index_step = math.prod(data.lengths[batch_dims:]), math.prod(indices.lengths[batch_dims:])
    parts = [
        take(
            Known(data.values[b * data_step : (b + 1) * data_step], data.lengths[batch_dims:]),
            Known(indices.values[b * index_step : (b + 1) * index_step], indices.lengths[batch_dims:]),
            axis - batch_dims,
        )
        for b in range(batches)
    ]
    lengths = (
        *data.lengths[:axis],
        *indices.lengths[batch_dims:],
        *data.lengths[axis + 1 :],
    )
    return Known([v for part in parts for v in part.values], lengths)


def reduced_positions(lengths: Sequence[int], axes: set[int]) -> list[list[int]]:
    """The flat positions each output element of a reduction over ``axes`` takes, in the
    output's order (keep_dims or not, the order is the same)."""
    kept = [axis for axis in range(len(lengths)) if axis not in axes]
    steps = strides(lengths)
    groups: dict[tuple[int, ...], list[int]] = {}
    for position in coordinates(lengths):
        key = tuple(position[axis] for axis in kept)
        groups.setdefault(key, []).append(sum(p * s for p, s in zip(position, steps, strict=True)))
    return [groups.get(key, []) for key in coordinates([lengths[axis] for axis in kept])]


def reduce(data: Known, axes: set[int], keep_dims: bool, fold: Callable[[list[int]], int]) -> Known:
    """``fold`` over the ``axes`` of the data (numpy's reduction with ``keepdims``)."""
    kept = [axis for axis in range(len(data.lengths)) if axis not in axes]
    steps = strides(data.lengths)
    groups: dict[tuple[int, ...], list[int]] = {}
    for position in coordinates(data.lengths):
        key = tuple(position[axis] for axis in kept)
        groups.setdefault(key, []).append(
            data.values[sum(p * s for p, s in zip(position, steps, strict=True))]
        )
    out_lengths = (
        [1 if axis in axes else n for axis, n in enumerate(data.lengths)]
        if keep_dims
        else [data.lengths[axis] for axis in kept]
    )
    values = [fold(groups.get(key, [])) for key in coordinates([data.lengths[axis] for axis in kept])]
    return Known(values, out_lengths)
