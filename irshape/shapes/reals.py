"""Real arithmetic as OpenVINO's evaluate computes it, for the small f16, bf16, f32 and f64 tensors
shape subgraphs compute (a size times a scale, floored; TF's SAME pads): pure Python, each
result rounded to the element type as OpenVINO's reference kernels round it.

* f32: each operation in float32. Python computes in double; the sum, difference, product,
  quotient and square root of two float32 numbers rounded once to float32 are float32's own
  (double has more than twice float32's bits), so :func:`values.to_real` after each operation
  is float32 arithmetic. Power is ``std::pow`` in double, rounded.
* f16 and bf16: OpenVINO converts the inputs to f32, evaluates, and converts the result back
  (``IF_TYPE_OF_CONVERT_TENSORS``): rounded to float32, then to f16 (to the nearest, ties to
  even) or bf16 (OpenVINO's own rounding: :func:`values.to_real`).
* f64: double, as Python.

Which ops evaluate which real types in OpenVINO 2026.4 (by experiment: each op on a ShapeOf
converted to the type, converted to i64 as a Broadcast's target, static, interval and dynamic
inputs; docs/openvino-ir-reading.md §14) is :data:`_EVALUATED`; with another type OpenVINO
folds nothing (``?``), and neither does irshape. Which ops carry bounds is the callers' (an op
without ``evaluate_lower``/``evaluate_upper`` has none: Floor, Ceiling, Sqrt, Round, Negative,
ReduceSum, ReduceMean).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from irshape.shapes import values

_ALL = frozenset({"f16", "f32", "bf16"})
# the real types each op's evaluate takes (an op not listed: none); bf16 as f16 (converted to
# f32, evaluated, converted back) but for Ceiling, which folds no bf16 (by experiment)
_EVALUATED: dict[str, frozenset[str]] = {
    "Add": _ALL,
    "Subtract": _ALL,
    "Multiply": _ALL | {"f64"},
    "Divide": _ALL,
    "Maximum": _ALL,
    "Minimum": _ALL,
    "Power": _ALL,
    "SquaredDifference": frozenset({"f32"}),
    "FloorMod": _ALL,
    "Floor": _ALL,
    "Ceiling": _ALL - {"bf16"},
    "Sqrt": _ALL | {"f64"},
    "Round": _ALL,
    "Negative": _ALL,
    "Abs": _ALL,
    "Clamp": _ALL,
    "ReduceMax": _ALL,
    "ReduceMin": _ALL,
    "ReduceSum": _ALL,
    "ReduceProd": _ALL,
    "ReduceMean": _ALL,
}
# std::numeric_limits<T>::max() of the real types whose bounds OpenVINO evaluates (not f64:
# its interval_bound_evaluator gets nothing from ReduceMin/ReduceMax there and reads memory
# nothing wrote: `2..5` times 2.0 is 0, by experiment)
REAL_MAX = {"f32": 3.4028234663852886e38, "f16": 65504.0, "bf16": 3.3895313892515355e38}


def evaluates(op: str, element_type: str | None) -> bool:
    """Does OpenVINO's evaluate of ``op`` take reals of ``element_type``?"""
    types = _EVALUATED.get(op)
    return types is not None and element_type in types


def rounded(number: float | None, element_type: str | None) -> float | None:
    """One result rounded to the type (None: not finite, or not a real type irshape computes)."""
    if number is None:
        return None
    result = values.to_real([number], element_type)
    return None if result is None else result[0]


Binary = Callable[[float, float], float | None]
Unary = Callable[[float], float | None]


def _power(a: float, b: float) -> float | None:
    try:
        return math.pow(a, b)
    except (OverflowError, ValueError):  # inf, or NaN (a negative base, a fractional exponent)
        return None


def _floor_mod(a: float, b: float) -> float | None:
    """``reference::floor_mod`` of reals: fmod, moved to the divisor's sign."""
    if b == 0:
        return None
    remainder = math.fmod(a, b)
    return remainder + b if remainder != 0 and (remainder < 0) != (b < 0) else remainder


def _divide(a: float, b: float) -> float | None:
    return None if b == 0 else a / b


_BINARY: dict[str, Binary] = {
    "Add": lambda a, b: a + b,
    "Subtract": lambda a, b: a - b,
    "Multiply": lambda a, b: a * b,
    "Divide": _divide,
    "Maximum": max,
    "Minimum": min,
    "Power": _power,
    "FloorMod": _floor_mod,
}


def binary(op: str, element_type: str | None) -> Binary | None:
    """The op on two reals of the type, rounded as OpenVINO rounds it; None where OpenVINO
    does not evaluate it."""
    if not evaluates(op, element_type):
        return None
    if op == "SquaredDifference":  # (a - b) rounded, then squared: two operations

        def squared_difference(a: float, b: float) -> float | None:
            difference = rounded(a - b, element_type)
            return None if difference is None else rounded(difference * difference, element_type)

        return squared_difference
    function = _BINARY.get(op)
    if function is None:
        return None

    def operation(a: float, b: float) -> float | None:
        return rounded(function(a, b), element_type)

    return operation


def _round_half_to_even(x: float) -> float:
    return float(round(x))


def _round_half_away(x: float) -> float:
    """``std::round``: halves away from zero."""
    return math.copysign(math.floor(abs(x) + 0.5), x) if abs(x) < 2**52 else x


_UNARY: dict[str, Unary] = {
    "Floor": lambda x: float(math.floor(x)),
    "Ceiling": lambda x: float(math.ceil(x)),
    "Sqrt": lambda x: None if x < 0 else math.sqrt(x),
    "Negative": lambda x: -x,
    "Abs": abs,
}


def unary(op: str, element_type: str | None, mode: str = "half_to_even") -> Unary | None:
    """The op on one real of the type (Round by its ``mode``), rounded; None where OpenVINO
    does not evaluate it."""
    if not evaluates(op, element_type):
        return None
    function = _UNARY.get(op)
    if op == "Round":
        function = _round_half_to_even if mode == "half_to_even" else _round_half_away
    if function is None:
        return None
    chosen = function

    def operation(x: float) -> float | None:
        if not math.isfinite(x):
            return None
        return rounded(chosen(x), element_type)

    return operation


def apply(function: Unary, numbers: Sequence[float]) -> tuple[float, ...] | None:
    """``function`` of every number; None when it refuses one."""
    results = [function(x) for x in numbers]
    return None if any(r is None for r in results) else tuple(r for r in results if r is not None)


def clamp(element_type: str | None, low: float, high: float) -> Unary | None:
    """Clamp-1 on reals: the bounds rounded to the type, then ``min(max(x, low), high)``."""
    if not evaluates("Clamp", element_type):
        return None
    low_t, high_t = rounded(low, element_type), rounded(high, element_type)
    if low_t is None or high_t is None:
        return None
    return lambda x: high_t if x > high_t else low_t if x < low_t else x


def reduction(op: str, element_type: str | None) -> Callable[[list[float]], float] | None:
    """ReduceSum, ReduceProd, ReduceMax, ReduceMin and ReduceMean of reals of the type, as
    OpenVINO's references compute them: f16 and bf16 converted to f32 and every step in f32 (the
    caller rounds the result to the type once: by experiment, a bf16 product of 608, 457, 457,
    582 and 582 is 42880953483264, where bf16 steps give 42606075576320), f32 in f32, f64 in
    double; a sum (and a mean's) with Kahan's compensation (``reference::reduce_sum``), a mean
    the sum over the count. A non-finite result is NaN: the caller's to_real refuses it."""
    if not evaluates(op, element_type):
        return None
    computed_in = "f64" if element_type == "f64" else "f32"

    def step(x: float) -> float:
        result = rounded(x, computed_in)
        return math.nan if result is None else result

    def kahan_sum(numbers: list[float]) -> float:
        total = compensation = 0.0
        for x in numbers:
            if not (math.isfinite(x) and math.isfinite(total)):
                total = step(x + total)
                continue
            corrected = step(x - compensation)
            added = step(total + corrected)
            compensation = step(step(added - total) - corrected)
            total = added
        return total

    def product(numbers: list[float]) -> float:
        total = 1.0
        for x in numbers:
            total = step(total * x)
        return total

    if op == "ReduceSum":
        return kahan_sum
    if op == "ReduceProd":
        return product
    if op == "ReduceMean":
        return lambda numbers: step(kahan_sum(numbers) / max(len(numbers), 1))
    if op == "ReduceMax":
        return lambda numbers: max(numbers)
    if op == "ReduceMin":
        return lambda numbers: min(numbers)
    return None
