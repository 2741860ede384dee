"""Small integer tensors as shape subgraphs carry them: flat C-order values of a static shape.

Pure Python (numpy is only for dry runs): numpy-style broadcasting of values to an output
shape, Tile's repetition, and wrapping to an element type as C++ casts wrap.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from irshape.ir import element_types
from irshape.ops.interface import Tensor

MAX_ELEMENTS = 64  # the values irshape keeps: small tensors, as shapes are made of


class Known:
    """A tensor whose value is known: its flat values and its static lengths."""

    __slots__ = ("lengths", "values")

    def __init__(self, values: Sequence[int], lengths: Sequence[int]) -> None:
        self.values = tuple(values)
        self.lengths = tuple(lengths)


def known(tensor: Tensor) -> Known | None:
    """The tensor's value with its shape, when both are known and agree."""
    lengths = tensor.shape.lengths
    if tensor.value is None or lengths is None or math.prod(lengths) != len(tensor.value):
        return None
    return Known(tensor.value, lengths)


def _strides(lengths: Sequence[int]) -> list[int]:
    strides, step = [], 1
    for n in reversed(lengths):
        strides.append(step)
        step *= n
    return strides[::-1]


def _indices(lengths: Sequence[int]) -> itertools.product[tuple[int, ...]]:
    return itertools.product(*(range(n) for n in lengths))


def broadcast_to(tensor: Known, out: Sequence[int]) -> list[int] | None:
    """The values numpy-broadcast (aligned at the last axis) to the lengths ``out``; None for
    an output too large to keep."""
    if math.prod(out) > MAX_ELEMENTS:
        return None
    lengths = (1,) * (len(out) - len(tensor.lengths)) + tensor.lengths
    strides = [0 if n == 1 else s for n, s in zip(lengths, _strides(lengths), strict=True)]
    return [tensor.values[sum(i * s for i, s in zip(index, strides, strict=True))] for index in _indices(out)]


def tile(tensor: Known, counts: Sequence[int]) -> list[int] | None:
    """``np.tile``: the values repeated ``counts`` times per axis (aligned at the last axis);
    None for an output too large to keep."""
    rank = max(len(counts), len(tensor.lengths))
    lengths = (1,) * (rank - len(tensor.lengths)) + tensor.lengths
    counts = (1,) * (rank - len(counts)) + tuple(counts)
    out = [n * c for n, c in zip(lengths, counts, strict=True)]
    if math.prod(out) > MAX_ELEMENTS:
        return None
    strides = _strides(lengths)
    return [
        tensor.values[sum((i % n) * s for i, n, s in zip(index, lengths, strides, strict=True))]
        for index in _indices(out)
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
