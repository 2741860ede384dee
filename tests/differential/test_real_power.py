"""Power on exact and near ties, folded, against OpenVINO (issue 24, item 1).

OpenVINO's f32 Power is ``std::pow(float, float)``, the C library's ``powf``, which is not
correctly rounded: 626^3 is 245314376 exactly, halfway between two floats, and OpenVINO gives
245314384 where ``pow`` in double rounded once (to even) gives 245314368. Each case below is
a static Parameter whose dims are the bases (or give them: plus 0.5, negated, times a power of
two), converted to f32 (or f16, bf16), raised to exponents drawn for the kind, then scaled by
powers of two (exact) so that each result is a whole number of 31 or 32 bits, converted to i64
and read as a Broadcast's target: OpenVINO's reading of the saved file is the expectation,
exactly, bit for bit of every result.

* ``tie``: odd integers m whose m^e (e 2 to 5) has 25 bits, so m^e is a tie in f32, times
  2^0..2^3;
* ``half``: (2n+1)/2 to those exponents, the same ties (n plus 0.5);
* ``negative``: negated bases to odd exponents (3, 5) and to -1, -3;
* ``near``: integers whose power (26 to 53 bits, exact in double) lies within 2^-33 (relative)
  of a rounding midpoint of f32, where ``powf`` may round either way;
* ``big``: ties and near ties times 2^j so that the power lies in 2^100..2^128, up to FLT_MAX;
* ``tiny``: the same times 2^-j, powers in 2^-145..2^-100 (subnormal ones too);
* ``fraction``: exponents 0.5, 1.5, 2.5, -0.5, 1/3, -1, -2 on bases whose power lies near a
  midpoint (found in double);
* ``f16``, ``bf16``: Power in those types (OpenVINO computes it in f32 and rounds the result).

:func:`test_the_draw_separates_powf_from_pow` checks that the draw is what it is for: many cases
where OpenVINO's results are not ``pow`` rounded once.
"""

from __future__ import annotations

import functools
import math
import random

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset8 as ov8
import pytest

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    as_broadcast_target,
    batches,
    draw_cases,
    params,
    real_constant,
)

SEED = 20261201
PER_KIND = 60
KINDS = ("tie", "half", "negative", "near", "big", "tiny", "fraction", "f16", "bf16")
_FRACTIONS = (0.5, 1.5, 2.5, -0.5, float(np.float32(1 / 3)), -1.0, -2.0)

# What pow in double rounded once gives, scaled as the case scales it: cid's seed -> dims
_ONCE: dict[int, list[int]] = {}


def _i(values: list[int]) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int64))


def _tie_base(rng: random.Random, exponent: int) -> int:
    """An odd m whose m^exponent has 25 bits: halfway between two floats."""
    low = math.ceil(2 ** (24 / exponent))
    high = math.floor((2**25 - 1) ** (1 / exponent))
    while True:
        m = rng.randint(low, high) | 1
        if 2**24 <= m**exponent < 2**25:
            return m


def _midpoint_distance(value: int) -> float:
    """How far a whole number lies from the nearest rounding midpoint of f32, relative."""
    bits = value.bit_length()
    if bits <= 24:
        return math.inf  # (exact in f32)
    below = value % (1 << (bits - 24))
    return abs(below - (1 << (bits - 25))) / value


def _near_base(rng: random.Random, exponent: int) -> int:
    """An integer whose power, exact in double (26 to 53 bits), lies within 2^-33 of a
    midpoint (a tie too, at times)."""
    low = math.ceil(2 ** (26 / exponent))
    high = math.floor(2 ** (53 / exponent))
    while True:
        m = rng.randint(low, min(high, 2**24 - 1))
        if _midpoint_distance(m**exponent) < 2.0**-33:
            return m


def _near_fraction(rng: random.Random, exponent: float) -> int:
    """A dim whose power to a fractional (or negative) exponent lies within 2^-34 of a
    midpoint of f32, in double (a draw of 4096 at a time: about 1 in 700 does)."""
    draw = np.random.default_rng(rng.randrange(2**32))
    while True:
        dims = draw.integers(2, 2**20, 4096)
        values = dims.astype(np.float64) ** exponent
        rounded = values.astype(np.float32)
        away = np.where(values > rounded, np.float32(np.inf), np.float32(-np.inf))
        midpoints = (rounded.astype(np.float64) + np.nextafter(rounded, away)) / 2
        hits = np.flatnonzero(np.abs(values - midpoints) <= 2.0**-34 * values)
        if hits.size:
            return int(dims[hits[0]])


def _scaled(x: ov.Node, powers: list[int]) -> ov.Node:
    """x (f32) times 2^p element by element, exactly, in steps a float32 Const can hold."""
    while any(powers):
        step = [max(-100, min(100, p)) for p in powers]
        x = ov1.multiply(x, ov1.constant(np.array([2.0**s for s in step], np.float32)))
        powers = [p - s for p, s in zip(powers, step, strict=True)]
    return x


class _Draw:
    """One case's elements: each a dim, how the base is made of it, and its exponent."""

    def __init__(self) -> None:
        self.dims: list[int] = []
        self.bases: list[float] = []  # the base each element has (exactly), for pow's answer
        self.exponents: list[float] = []
        self.shifts: list[int] = []  # base = dim times 2^shift (before any +0.5 or negation)


def _elements(rng: random.Random, kind: str, real: str) -> tuple[_Draw, str]:
    """The elements of a case of ``kind``, and how their bases are made ("", "half", "negate")."""
    draw = _Draw()
    made = {"half": "half", "negative": "negate"}.get(kind, "")
    for _ in range(rng.randint(1, 6)):
        shift = 0
        if kind == "negative":
            exponent = rng.choice([3, 5, 3, 5, -1, -3])
            dim = _tie_base(rng, exponent) if exponent > 0 else _near_fraction(rng, float(exponent))
        elif kind == "half":
            exponent = rng.choice([2, 3, 4, 5])
            dim = _tie_base(rng, exponent) // 2  # (dim + 0.5 is (2 dim + 1) / 2: odd over 2)
        elif kind == "near":
            exponent = rng.choice([2, 3, 4, 5])
            dim = _near_base(rng, exponent)
        elif kind in ("big", "tiny"):
            exponent = rng.choice([2, 3, 4, 5])
            dim = _tie_base(rng, exponent) if rng.random() < 0.5 else _near_base(rng, exponent)
            # (not past 2^-149: a result of 0 makes a target without elements)
            goal = rng.uniform(100, 127.9) if kind == "big" else -rng.uniform(100, 140)
            shift = math.floor((goal - exponent * math.log2(dim)) / exponent)
        elif kind == "fraction":
            exponent = rng.choice(_FRACTIONS)
            dim = _near_fraction(rng, exponent)
        elif kind == "f16":
            exponent = rng.choice([2, 3, 0.5, 1.5, 2.5, -0.5, -1.0])
            dim = rng.randint(1, int(65000 ** (1 / exponent)) if exponent > 1 else 2000)
        else:  # tie, bf16: f32 ties, rounded to bf16 for bf16
            exponent = rng.choice([2, 3, 4, 5])
            dim = _tie_base(rng, exponent) << rng.randint(0, 3)
        base = dim * 2.0**shift + (0.5 if made == "half" else 0.0)
        draw.dims.append(dim)
        draw.bases.append(-base if made == "negate" else base)
        draw.exponents.append(float(exponent))
        draw.shifts.append(shift)
    return draw, made


def _pow_rounded_once(draw: _Draw, scales: list[int]) -> list[int]:
    """The dims an f32 case gives where Power is pow in double rounded once (not OpenVINO's)."""
    dims = []
    for base, exponent, scale in zip(draw.bases, draw.exponents, scales, strict=True):
        value = float(np.float32(float(base) ** exponent))
        dims.append(int(abs(value) * 2.0**scale))
    return dims


def _build(seed: int, op: str, kind: str, real: str) -> ov.Node:
    rng = random.Random(seed)
    draw, made = _elements(rng, kind, real)
    data = ov1.parameter(ov.PartialShape([1, *draw.dims]), np.float32)
    picked = ov8.gather(ov3.shape_of(data), _i(list(range(1, len(draw.dims) + 1))), ov1.constant(np.int64(0)))
    x = ov1.convert(picked, "f32")
    if any(draw.shifts):
        x = _scaled(x, draw.shifts)
    if made == "half":
        x = ov1.add(x, real_constant([0.5], "f32"))
    elif made == "negate":
        x = ov1.negative(x)
    if real != "f32":
        x = ov1.convert(x, real)
    powered = ov1.power(x, real_constant(draw.exponents, real))
    magnitude = ov1.abs(ov1.convert(powered, "f32") if real != "f32" else powered)
    # each result a whole number of 31 or 32 bits: its bits all read, exactly
    scales = []
    for base, exponent in zip(draw.bases, draw.exponents, strict=True):
        size = abs(base) ** exponent if abs(base) < 2**60 else math.inf
        scales.append(31 - math.floor(math.log2(size)) if 0 < size < math.inf else 0)
    if real == "f32":
        _ONCE[seed] = _pow_rounded_once(draw, scales)
    return as_broadcast_target(_scaled(magnitude, scales))


def _cases() -> list[OpCase]:
    keys = [("Power", kind, {"f16": "f16", "bf16": "bf16"}.get(kind, "f32")) for kind in KINDS]
    return draw_cases("pw", keys, PER_KIND, SEED, _build)


CASES = _cases()
BATCHES = batches(CASES)
for _kind in KINDS:
    STATS[f"Power on ties and near ties: {_kind}, exact (test_real_power.py)"] = sum(
        case.tags[0] == _kind for case in CASES
    )


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_power_is_openvinos(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"real_power{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def _seed_of(case: OpCase) -> int:
    build = case.build
    assert isinstance(build, functools.partial)  # (of _build, its seed first: draw_cases)
    return int(build.args[0])


def test_the_draw_separates_powf_from_pow(ops_runner: OpsBatchRunner) -> None:
    # OpenVINO's results are not pow rounded once on most cases of each f32 kind (else the
    # suite would not tell powf from pow), and every case folds to a static target
    differing: dict[str, int] = dict.fromkeys(KINDS, 0)
    for index, batch in enumerate(BATCHES):
        run = ops_runner.ops_batch(f"real_power{index}", batch)
        for case in batch:
            shape = run.expected[case.cid][0][0]
            assert "?" not in shape, (case.cid, shape)
            if case.tags[1] == "f32":
                dims = [int(d) for d in shape.strip("[]").split(",")[1:]]
                differing[case.tags[0]] += dims != _ONCE[_seed_of(case)]
    for kind in ("tie", "half", "negative", "near", "big", "tiny", "fraction"):
        assert differing[kind] >= PER_KIND // 3, differing
