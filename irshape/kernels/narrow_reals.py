"""Rounding f32 values to the real types numpy lacks (bf16, f8e4m3, f8e5m2, f8e8m0, f4e2m1),
held as f32 (:func:`irshape.kernels.storage_dtype`), as OpenVINO's CPU plugin converts to them
(by experiment, tests/execution/test_elementwise.py):

* bf16: nearest, ties to even, on the f32 bits (f32 subnormals too); from an integer type the
  plugin rounds up only where the guard bit and the last bit are both set (integers_to_bf16);
* f8e4m3 and f8e5m2: through f16 first (two roundings: 17.0001 becomes f16 17.0, then e4m3 16,
  where one rounding gives 18), each nearest-even; e4m3 past 448 and its infinities are NaN,
  e5m2 past 57344 is infinite;
* f8e8m0 (a power of two, no sign): the nearest power, a tie to the even biased exponent (1.5 is
  2, 3 is 2); zero, negatives and values below 2^-127 are 2^-127, past 2^127 and +inf 2^127;
* f4e2m1 (0, 0.5, 1, 1.5, 2, 3, 4, 6): nearest-even, saturated at 6; NaN is 6 of its sign.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Array = np.ndarray


def round_to_bf16(values: Array) -> Array:
    """f32 values rounded to bf16 (nearest, ties to even), held as f32; NaN stays NaN."""
    bits = _f32_bits(values)
    rounded = (bits + (((bits >> 16) & 1) + 0x7FFF)) & 0xFFFF0000
    result: Array = np.where(np.isnan(values), np.float32(np.nan), rounded.astype(np.uint32).view(np.float32))
    return result.reshape(np.shape(values))


def integers_to_bf16(values: Array) -> Array:
    """Integers (as exact-or-rounded f32) to bf16 as the plugin converts them: up only when the
    bit below bf16's last is set and that last bit is odd (nothing further down is looked at:
    515 is 512, 519 is 520, where nearest-even gives 516 and 520)."""
    bits = _f32_bits(values)
    up = (bits >> 15) & (bits >> 16) & 1
    result: Array = (((bits >> 16) + up) << 16).astype(np.uint32).view(np.float32)
    return result.reshape(np.shape(values))


def _f32_bits(values: Array) -> Array:
    """The f32 bit patterns of ``values`` (np.ascontiguousarray makes a 0-d array 1-d: the
    callers give their results the shape of their input back)."""
    return np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)


def _on_grid(values: Array, mantissa_bits: int, min_exponent: int) -> Array:
    """Finite values rounded (nearest, ties to even) to a float format's grid: ``mantissa_bits``
    below the leading bit, exponents from ``min_exponent`` (below it, the subnormals' spacing)."""
    magnitude = np.abs(values.astype(np.float64))
    _, exponent = np.frexp(magnitude)  # magnitude = f * 2^exponent, f in [0.5, 1)
    quantum = np.exp2(np.maximum(exponent - 1, min_exponent) - mantissa_bits)
    result: Array = np.copysign(np.rint(magnitude / quantum) * quantum, values)
    return result


def _f8e4m3(values: Array) -> Array:
    half = values.astype(np.float16).astype(np.float64)
    rounded = _on_grid(np.nan_to_num(half, nan=0.0, posinf=0.0, neginf=0.0), 3, -6)
    result: Array = np.where(np.isfinite(half) & (np.abs(rounded) <= 448), rounded, np.nan)
    return result


def _f8e5m2(values: Array) -> Array:
    half = values.astype(np.float16).astype(np.float64)
    rounded = _on_grid(np.nan_to_num(half, nan=0.0, posinf=0.0, neginf=0.0), 2, -14)
    overflowed = np.copysign(np.inf, half)
    finite = np.where(np.abs(rounded) > 57344, overflowed, rounded)
    result: Array = np.where(np.isfinite(half), finite, half)
    return result


def _f4e2m1(values: Array) -> Array:
    wide = values.astype(np.float64)
    six = np.copysign(6.0, wide)  # NaN and infinities: 6 of their sign
    rounded = _on_grid(np.nan_to_num(wide, nan=0.0, posinf=0.0, neginf=0.0), 1, 0)
    result: Array = np.where(np.isfinite(wide), np.clip(rounded, -6.0, 6.0), six)
    return result


def _f8e8m0(values: Array) -> Array:
    wide = values.astype(np.float64)
    positive = np.where(np.isfinite(wide) & (wide > 0), wide, 1.0)
    fraction, exponent = np.frexp(positive)  # positive = 2 * fraction * 2^(exponent - 1)
    power = exponent - 1
    mantissa = 2 * fraction
    biased_odd = (power + 127) % 2 == 1
    up = (mantissa > 1.5) | ((mantissa == 1.5) & biased_odd)
    power = np.clip(power + up, -127, 127)
    result: Array = np.exp2(power.astype(np.float64))
    result = np.where(np.isfinite(wide) & (wide > 0), result, 2.0**-127)
    result = np.where(np.isposinf(wide), 2.0**127, result)
    result = np.where(np.isnan(wide), np.nan, result)
    return result


_ROUNDINGS: dict[str, Callable[[Array], Array]] = {
    "bf16": round_to_bf16,
    "f8e4m3": _f8e4m3,
    "f8e5m2": _f8e5m2,
    "f8e8m0": _f8e8m0,
    "f4e2m1": _f4e2m1,
}


def rounded_to(values: Array, element_type: str) -> Array:
    """f32 values rounded to ``element_type`` when it is one of the narrow real types, held as
    f32; other values unchanged."""
    rounding = _ROUNDINGS.get(element_type)
    if rounding is None:
        return values
    with np.errstate(invalid="ignore", over="ignore"):
        result: Array = rounding(values).astype(np.float32)
    return result
