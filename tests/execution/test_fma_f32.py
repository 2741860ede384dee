"""``fma_f32`` (irshape/kernels/elementwise.py) against exact rational arithmetic: ``a * b + c``
of f32 values computed with fractions.Fraction, rounded once to f32 (nearest, ties to even,
subnormals, overflow to infinity), on random triples and on the ones a double rounding through
f64 gets wrong (a product a tie between two f32 values, moved off it by a tiny addend),
cancellations, subnormal results, overflow, infinities and NaN. The expected values come from
the exact arithmetic, never from the function under test."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from irshape.kernels.elementwise import fma_f32

_F32 = np.float32
_MANTISSA_BITS = 24
_LEAST_EXPONENT = -149  # the least subnormal f32 is 2**-149
_OVERFLOW = Fraction(2) ** 128 - Fraction(2) ** (127 - _MANTISSA_BITS)  # FLT_MAX + half a unit


def _rounded_to_f32(exact: Fraction) -> float:
    """The f32 nearest a nonzero rational (ties to even), or +-inf past FLT_MAX's half unit."""
    magnitude = abs(exact)
    if magnitude >= _OVERFLOW:
        return math.copysign(math.inf, exact)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:  # 2**exponent <= magnitude < 2**(exponent + 1)
        exponent -= 1
    quantum = Fraction(2) ** max(exponent - (_MANTISSA_BITS - 1), _LEAST_EXPONENT)
    units = round(magnitude / quantum)  # Fraction's round: half to even
    return math.copysign(float(units * quantum), exact)


def _exact_fma(a: float, b: float, c: float) -> float:
    """IEEE 754's fusedMultiplyAdd of three f32 values, rounded to nearest."""
    if not all(math.isfinite(v) for v in (a, b, c)):
        with np.errstate(invalid="ignore", over="ignore"):
            return float(np.float64(a) * np.float64(b) + np.float64(c))  # inf and NaN are exact
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:  # both terms zero of one sign keep it; any other exact zero is +0
        product_sign = math.copysign(1.0, a) * math.copysign(1.0, b)
        same_signed_zeros = a * b == 0 and c == 0 and product_sign == math.copysign(1.0, c)
        return math.copysign(0.0, c) if same_signed_zeros else 0.0
    return _rounded_to_f32(exact)


def _f32(bits: int) -> float:
    return float(np.array(bits, np.uint32).view(np.float32))


def _random_triples(rng: np.random.Generator, count: int) -> list[tuple[float, float, float]]:
    """f32 triples of random bits (every exponent, NaNs and infinities among them), and triples
    whose addend cancels most of the product (c near -a*b)."""
    bits = rng.integers(0, 2**32, size=(count, 3), dtype=np.uint64).astype(np.uint32)
    triples = [tuple(float(v) for v in row) for row in bits.view(np.float32)]
    ab = rng.standard_normal((count, 2)).astype(_F32) * _F32(2) ** rng.integers(-60, 60, (count, 2)).astype(
        _F32
    )
    for a, b in ab:
        near = -float(_F32(float(a) * float(b)))
        nudged = np.nextafter(_F32(near), _F32(rng.choice([-np.inf, np.inf])))
        triples.append((float(a), float(b), float(nudged)))
    return triples  # type: ignore[return-value]


def _double_rounding_triples() -> list[tuple[float, float, float]]:
    """a * b exactly half way between two f32 values (24 bits of the product past the f32
    mantissa: 1 + 2**-11 + 2**-24 from (1 + 2**-12)**2), c a tiny push either way: f64 rounds
    the tie back onto the product, and a second rounding to f32 then goes to the even side."""
    a = 1 + 2.0**-12
    triples = []
    for scale in (1.0, 2.0**-60, 2.0**60, -1.0):
        for tiny in (2.0**-149, -(2.0**-149), 2.0**-100, -(2.0**-100), 2.0**-60, 0.0, -0.0):
            triples.append((a * scale, a, tiny))
    # the same with a product below an odd f32 value: ties between 1 + 3 * 2**-23 and its neighbours
    b = float(_F32(1 + 2.0**-23))
    triples += [(b, a, t) for t in (2.0**-149, -(2.0**-149), 2.0**-80)]
    return triples


def _subnormal_triples() -> list[tuple[float, float, float]]:
    """Results at and below FLT_MIN: products of 2**-75 scale with subnormal addends, ties at the
    least subnormal's half (2**-150) moved by the addend, and a result that rounds to -0."""
    tiny, least = 2.0**-75, 2.0**-149
    return [
        (tiny, tiny, least),  # 2**-150 + 2**-149: 1.5 units, rounds to 2 units
        (tiny, tiny, 0.0),  # 2**-150 exactly: the tie between 0 and 2**-149 goes to 0
        (tiny, float(_F32(tiny * (1 + 2.0**-23))), 0.0),  # just above the tie: 2**-149
        (-tiny, tiny, -0.0),  # -2**-150: -0
        (-tiny, tiny, least),  # 2**-149 - 2**-150: a tie between 0 and 1 unit: 0
        (_f32(0x00400000), 2.0, -_f32(0x00000001)),  # subnormal * 2 less one unit, exact
        (_f32(0x00800000), 0.5, _f32(0x00000001)),  # FLT_MIN / 2 + one unit
        (3.0 * tiny, tiny, -least),  # 3 * 2**-150 - 2**-149 = 2**-150: 0
        (float(_F32(1.5)), 2.0**-149, -0.0),  # 1.5 units: 2 units
    ] + [
        # (2**23 + 1) units plus 2**-150 less 2**-196: f64 (a unit of 2**-179 there) rounds it
        # onto the tie, which goes to the even 2**22 + 2 units; the exact value is below it
        (sign * tiny * (1 + 2.0**-23), tiny * (1 - 2.0**-23), sign * (2.0**22 + 1) * least)
        for sign in (1.0, -1.0)
    ]


def _overflow_and_special_triples() -> list[tuple[float, float, float]]:
    big = _f32(0x7F7FFFFF)  # FLT_MAX
    inf, nan = math.inf, math.nan
    return [
        (big, 2.0, -big),  # the product past FLT_MAX, the sum FLT_MAX: finite
        (big, 1.0, _f32(0x73000000)),  # FLT_MAX + 2**103, exactly the half unit: inf
        (big, 1.0, _f32(0x72FFFFFF)),  # just below the half unit: FLT_MAX
        (big, big, -inf),
        (inf, 0.0, 1.0),  # NaN
        (inf, 1.0, -inf),  # NaN
        (inf, -2.0, 1.0),
        (nan, 1.0, 1.0),
        (1.0, 1.0, nan),
        (-0.0, 1.0, -0.0),  # -0
        (-0.0, 1.0, 0.0),  # +0
        (1.0, -1.0, 1.0),  # an exact cancellation: +0
    ]


def _bits(values: np.ndarray) -> np.ndarray:
    """f32 values as integers to compare, every NaN one value (FMA's NaN payloads are not asked)."""
    as_bits = values.astype(_F32).view(np.uint32).astype(np.int64)
    return np.where(np.isnan(values), -1, as_bits)


@pytest.mark.parametrize(
    "group",
    [
        "random",
        "double rounding",
        "subnormal",
        "overflow and special",
    ],
)
def test_fma_f32_is_rounded_once(group: str) -> None:
    triples = {
        "random": lambda: _random_triples(np.random.default_rng(24), 4000),
        "double rounding": _double_rounding_triples,
        "subnormal": _subnormal_triples,
        "overflow and special": _overflow_and_special_triples,
    }[group]()
    a, b, c = (np.array(column, _F32) for column in zip(*triples, strict=True))
    as_given = np.array(triples, np.float64).T
    assert np.array_equal(np.stack([a, b, c]).astype(np.float64), as_given, equal_nan=True), "f32 values only"
    expected = np.array([_exact_fma(float(x), float(y), float(z)) for x, y, z in zip(a, b, c, strict=True)])
    with np.errstate(invalid="ignore", over="ignore"):
        got = fma_f32(a, b, c)
    wrong = np.flatnonzero(_bits(got) != _bits(expected))
    assert not wrong.size, [
        (float(a[i]), float(b[i]), float(c[i]), float(got[i]), expected[i]) for i in wrong[:5]
    ]


def test_double_rounding_triples_are_adversarial() -> None:
    """The tie cases (and two subnormal ones) do defeat a plain f64 a * b + c rounded to f32 (so the test above can fail)."""
    a, b, c = (np.array(column, _F32) for column in zip(*_double_rounding_triples(), strict=True))
    naive = (a.astype(np.float64) * b + c).astype(_F32)
    expected = np.array([_exact_fma(float(x), float(y), float(z)) for x, y, z in zip(a, b, c, strict=True)])
    assert np.count_nonzero(_bits(naive) != _bits(expected)) >= 8
    a, b, c = (np.array(column, _F32) for column in zip(*_subnormal_triples(), strict=True))
    naive = (a.astype(np.float64) * b + c).astype(_F32)
    expected = np.array([_exact_fma(float(x), float(y), float(z)) for x, y, z in zip(a, b, c, strict=True)])
    assert np.count_nonzero(_bits(naive) != _bits(expected)) == 2
