"""Real arithmetic as OpenVINO's evaluate computes it, for the small f16, bf16, f32 and f64 tensors
shape subgraphs compute (a size times a scale, floored; TF's SAME pads): pure Python, each
result rounded to the element type as OpenVINO's reference kernels round it.

* f32: each operation in float32. Python computes in double; the sum, difference, product,
  quotient and square root of two float32 numbers rounded once to float32 are float32's own
  (double has more than twice float32's bits), so :func:`values.to_real` after each operation
  is float32 arithmetic. Power is ``std::pow(float, float)``, which is the C library's
  ``powf`` (:mod:`irshape.shapes.libm`: not correctly rounded, so not C's ``pow`` in double
  rounded once: OpenVINO's 626^3 is 245314384, an exact tie that ``pow`` rounded to even makes
  245314368); irshape calls the platform's own ``powf``, as OpenVINO's binary does.
* f16 and bf16: OpenVINO converts the inputs to f32, evaluates, and converts the result back
  (``IF_TYPE_OF_CONVERT_TENSORS``): rounded to float32, then to f16 (to the nearest, ties to
  even) or bf16 (OpenVINO's own rounding: :func:`values.to_real`).
* f64: double, as Python.

Values are IEEE's, infinities and NaN included, as OpenVINO's evaluate carries them (by
experiment: an f16 product past 65504 is inf, and a Minimum with 7 brings it back to 7; a
Divide by zero is inf, or NaN for 0/0; a Sqrt of a negative NaN; a Convert of them to an
integer type x86's 'integer indefinite': :func:`values.truncated`). Python's float arithmetic
is IEEE's where it does not raise; where it raises (a division by zero, ``math.floor`` of an
infinity, ``math.pow`` past the range) the functions below give IEEE's result. Bounds carry
them too, as OpenVINO's bound evaluators compute in the type (an interval's upper bound times
a large scale is inf, a Minimum brings it back: :func:`irshape.shapes.bounds.settle_reals`).

Which ops evaluate which real types in OpenVINO 2026.4 (by experiment: each op on a ShapeOf
converted to the type, converted to i64 as a Broadcast's target, static, interval and dynamic
inputs; docs/openvino-ir-reading.md §14) is :data:`_EVALUATED`; with another type OpenVINO
folds nothing (``?``), and neither does irshape. Which ops carry bounds is the callers' (an op
without ``evaluate_lower``/``evaluate_upper`` has none: Floor, Ceiling, Sqrt, Round, Negative,
ReduceSum, ReduceMean).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence

from irshape.ir.element_types import REAL_MAX
from irshape.shapes import libm, values

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


def evaluates(op: str, element_type: str | None) -> bool:
    """Does OpenVINO's evaluate of ``op`` take reals of ``element_type``?"""
    types = _EVALUATED.get(op)
    return types is not None and element_type in types


def rounded(number: float | None, element_type: str | None) -> float | None:
    """One result rounded to the type, an infinity past its range (None: not a real type
    irshape computes)."""
    if number is None:
        return None
    result = values.to_ieee([number], element_type)
    return None if result is None else result[0]


Binary = Callable[[float, float], float | None]
Unary = Callable[[float], float | None]


def _odd_integer(x: float) -> bool:
    return math.isfinite(x) and x == math.floor(x) and math.fmod(x, 2.0) != 0


def _power(a: float, b: float) -> float:
    """C's ``pow`` in double: past the range an infinity (negative for a negative base and an
    odd exponent), 0 to a negative power an infinity, a negative base to a fractional power NaN."""
    try:
        return math.pow(a, b)
    except OverflowError:
        return -math.inf if a < 0 and _odd_integer(b) else math.inf
    except ValueError:  # 0 to a negative power, or a negative base to a fractional one
        if a == 0:
            return math.copysign(math.inf, a) if _odd_integer(b) else math.inf
        return math.nan


def _power_in_f32(a: float, b: float) -> float:
    """``std::pow(float, float)`` of f32 values (f16 and bf16 ones converted): the platform's
    ``powf``, loaded the first time a real Power is folded; where it cannot be loaded, ``pow`` in
    double (rounded by the caller: ``powf``'s value but on exact and near ties)."""
    function = libm.powf()
    return _power(a, b) if function is None else function(a, b)


def _floor_mod(a: float, b: float) -> float:
    """``reference::floor_mod`` of reals: ``x - y * floor(x / y)`` in double, IEEE's all the
    way (by experiment: 60000 mod inf is NaN, as inf times 0 is, where fmod gives 60000; by
    zero NaN)."""
    quotient = _divide(a, b)
    return a - b * (float(math.floor(quotient)) if math.isfinite(quotient) else quotient)


def _divide(a: float, b: float) -> float:
    """IEEE division: by zero an infinity of the signs' product, 0/0 and NaN/0 NaN."""
    if b != 0:
        return a / b
    if a == 0 or math.isnan(a):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _dividing_at(maximum: float) -> Callable[[float, float], float]:
    """Divide as shape inference reads its value: ``divide::evaluate_bound`` gives 0 where
    either input is its type's maximum (taken for an unbounded dim: 65504 in f16, FLT_MAX in
    f32, by experiment 65504 / 600 is 0, and plus 1 is 1)."""

    def divide(a: float, b: float) -> float:
        return 0.0 if a == maximum or b == maximum else _divide(a, b)

    return divide


_BINARY: dict[str, Binary] = {
    "Add": lambda a, b: a + b,
    "Subtract": lambda a, b: a - b,
    "Multiply": lambda a, b: a * b,
    "Divide": _divide,
    # std::max and std::min: the first unless the second is greater (less), so a NaN first is
    # kept and a NaN second dropped (by experiment); Python's max and min compare alike
    "Maximum": max,
    "Minimum": min,
    "Power": _power_in_f32,  # (Power evaluates no f64: has_evaluate takes f16, bf16, f32 reals)
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
    return None if function is None else _rounded_to(function, element_type)


def _rounded_to(function: Binary, element_type: str | None) -> Binary:
    def operation(a: float, b: float) -> float | None:
        return rounded(function(a, b), element_type)

    return operation


def binary_as_read(op: str, element_type: str | None) -> Binary | None:
    """The op on two reals as shape inference reads its value, where that is not evaluate's:
    Divide's is ``divide::evaluate_bound``'s lower bound, 0 at a type's maximum
    (:func:`_dividing_at`); None for the other ops."""
    if op != "Divide" or not evaluates(op, element_type):
        return None
    return _rounded_to(_dividing_at(REAL_MAX[element_type or "f32"]), element_type)


def _round_half_to_even(x: float) -> float:
    return float(round(x))


def _round_half_away(x: float) -> float:
    """``std::round``: halves away from zero."""
    return math.copysign(math.floor(abs(x) + 0.5), x) if abs(x) < 2**52 else x


_UNARY: dict[str, Unary] = {
    "Floor": lambda x: float(math.floor(x)),
    "Ceiling": lambda x: float(math.ceil(x)),
    "Sqrt": lambda x: math.nan if x < 0 else math.sqrt(x),
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
    integral = op in ("Floor", "Ceiling", "Round")  # (an infinity or NaN is itself there)

    def operation(x: float) -> float | None:
        if integral and not math.isfinite(x):
            return x
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
    the sum over the count; infinities and NaN as IEEE arithmetic carries them, ReduceMax
    ``std::max`` from the computing type's lowest finite number and ReduceMin ``std::min`` from
    infinity (``reference::reduce_max``/``reduce_min``), so a NaN is passed over (by experiment:
    ReduceMax of [NaN, 1] and of [1, NaN] is 1; in f32 ReduceMax of [-inf] is -FLT_MAX and
    ReduceMin of [inf] or [NaN] inf)."""
    if not evaluates(op, element_type):
        return None
    computed_in = "f64" if element_type == "f64" else "f32"

    def step(x: float) -> float:
        result = rounded(x, computed_in)
        return math.nan if result is None else result

    greatest = REAL_MAX["f32"] if computed_in == "f32" else sys.float_info.max

    def maximum(numbers: list[float]) -> float:
        result = -greatest
        for x in numbers:
            result = x if result < x else result
        return result

    def minimum(numbers: list[float]) -> float:
        result = math.inf
        for x in numbers:
            result = x if x < result else result
        return result

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
        return maximum
    if op == "ReduceMin":
        return minimum
    return None
