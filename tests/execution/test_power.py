"""Power on exact and near ties, executed, against the CPU plugin, bit for bit.

The plugin computes Power two ways (irshape/kernels/elementwise.py): by a constant exponent of
one element (PowerStatic) an integer power by squaring in f32 (x^3 is x * (x * x): 626^3 is
245314368), ±0.5 a square root, any other exponent ``powf``; by any other exponent (data, or a
constant of a greater rank than the base) ``powf`` element by element, as its compile step
folds a Power of constants (evaluate's ``std::pow(float, float)``: 626^3 is 245314384). Each
case gives one exponent to a few hundred bases drawn for it: integers whose power is a tie in
f32 (m^e of 25 bits) times powers of two, their halves, negative bases to odd exponents,
powers near FLT_MAX and near FLT_MIN (not subnormal: the plugin flushes those to zero), powers
within 2^-33 of a rounding midpoint (found in double), random ones, zeros, infinities and NaN;
in f32, f16 and i32 (computed in f32, truncated back). One model, compiled once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import openvino.opset13 as opset
import pytest

from .harness import Batch, Case, parameter, run_batch

SEED = 20261202
INTEGER_POWERS = (2.0, 3.0, 4.0, 5.0, -1.0, -2.0, -3.0, 7.0)
OTHER_POWERS = (0.5, -0.5, 1.5, 2.5, float(np.float32(1 / 3)), 0.0, 1.0, -1.5)
SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0], np.float32)
_FLT_MIN = 2.0**-126


def _midpoint_distance(values: np.ndarray) -> np.ndarray:
    """How far each double lies from the nearest rounding midpoint of f32, relative."""
    rounded = values.astype(np.float32)
    away = np.where(values > rounded, np.float32(np.inf), np.float32(-np.inf))
    midpoints = (rounded.astype(np.float64) + np.nextafter(rounded, away)) / 2
    distance: np.ndarray = np.abs(values - midpoints) / np.abs(values)
    return distance


def _ties(exponent: int) -> np.ndarray:
    """Every odd m whose m^exponent has 25 bits: a tie in f32."""
    m = np.arange(int(np.ceil(2 ** (24 / exponent))) | 1, int(2 ** (25 / exponent)) + 1, 2)
    return m[(m.astype(np.float64) ** exponent >= 2**24) & (m.astype(np.float64) ** exponent < 2**25)]


def _near(rng: np.random.Generator, exponent: float, count: int, window: float) -> np.ndarray:
    """Whole bases whose power lies within ``window`` of a midpoint of f32 (exact in double
    for an integer exponent up to 53 bits)."""
    top = 2 ** min(24, 53 / abs(exponent)) if exponent == int(exponent) else 2**20
    found: list[np.ndarray] = []
    while sum(len(f) for f in found) < count:
        bases = rng.integers(2, int(top), 8192).astype(np.float64)
        found.append(bases[_midpoint_distance(bases**exponent) <= window])
    return np.concatenate(found)[:count]


def _in_range(bases: np.ndarray, exponent: float) -> np.ndarray:
    """The bases whose power is 0, infinite or normal, not subnormal (flushed by the plugin)."""
    with np.errstate(all="ignore"):
        power = np.abs(bases.astype(np.float64) ** exponent)
    return bases[~((power > 0) & (power < _FLT_MIN))]


def _bases(rng: np.random.Generator, exponent: float) -> np.ndarray:
    """A few hundred f32 bases for ``exponent``: ties, halves, negatives, edges, near ties."""
    parts = [SPECIALS, rng.uniform(-1000, 1000, 40).astype(np.float32)]
    whole = exponent == int(exponent) and exponent != 0
    if whole and exponent > 0:
        ties = rng.choice(_ties(int(exponent)), 40).astype(np.float64)
        parts += [ties * 2.0 ** rng.integers(-3, 4, 40), ties / 2]
        if int(exponent) % 2:
            parts.append(-ties)
        # ties near FLT_MAX and near FLT_MIN: m * 2^j with (m 2^j)^e near 2^127 or 2^-120
        for goal in (127.5, -120.0):
            shift = np.floor((goal - exponent * np.log2(ties)) / exponent)
            parts.append(ties * 2.0**shift)
    if exponent not in (0.0, 1.0):  # (x^0 and x^1 are exact)
        near = _near(rng, exponent, 60, 2.0**-33 if whole else 2.0**-34)
        parts += [near, -near if whole and int(exponent) % 2 else near / 4]
    bases = np.concatenate([np.asarray(p, np.float64) for p in parts]).astype(np.float32)
    return _in_range(bases, exponent)


def _f32_cases(rng: np.random.Generator) -> Iterator[Case]:
    for index, exponent in enumerate(INTEGER_POWERS + OTHER_POWERS):
        data = _bases(rng, exponent)
        # PowerStatic: a Const exponent of one element, scalar or [1]
        x = parameter(data.shape)
        shape = () if index % 2 else (1,)
        constant = opset.constant(np.full(shape, exponent, np.float32))
        yield Case(f"static{index}", {x: data}, [opset.power(x, constant).output(0)], exact=True)
        # powf: the exponent as data, and as a Const of a greater rank than the base
        x, y = parameter(data.shape), parameter(data.shape)
        exponents = np.full(data.shape, exponent, np.float32)
        yield Case(f"dynamic{index}", {x: data, y: exponents}, [opset.power(x, y).output(0)], exact=True)
        x = parameter(data.shape)
        wide = opset.constant(np.full((1, 1), exponent, np.float32))
        yield Case(f"wide{index}", {x: data}, [opset.power(x, wide).output(0)], exact=True)


def _other_cases(rng: np.random.Generator) -> Iterator[Case]:
    ties = _ties(3).astype(np.float32)
    # an exponent the compile step folds (a Const to the plugin: static), after another op
    x = parameter(ties.shape)
    folded = opset.multiply(opset.constant(np.float32(1.5)), opset.constant(np.float32(2.0)))
    relu = opset.relu(x)
    yield Case("folded_exponent", {x: ties}, [opset.power(relu, folded).output(0)], exact=True)
    # a Power of Consts, folded by evaluate (powf): small (the inference's value) and large
    for name, count in (("consts_small", 30), ("consts_large", 300)):
        bases = np.resize(np.concatenate([ties, _near(rng, 3.0, 20, 2.0**-33)]), count).astype(np.float32)
        x = parameter((count,))
        power = opset.power(opset.constant(bases), opset.constant(np.float32(3.0)))
        yield Case(name, {x: np.zeros(count, np.float32)}, [opset.add(x, power).output(0)], exact=True)
    # i32, computed in f32 and truncated: 313^3 is 30664296 by squaring, 30664298 by powf
    whole = np.concatenate([_ties(3), _ties(2)[:20], -_ties(3)[:10]]).astype(np.int32)
    exponents = np.array([3] * (len(whole) - 30) + [2] * 20 + [3] * 10, np.int32)
    x, y = parameter(whole.shape, np.int32), parameter(whole.shape, np.int32)
    yield Case("i32_dynamic", {x: whole, y: exponents}, [opset.power(x, y).output(0)])
    x = parameter(whole.shape, np.int32)
    three = opset.constant(np.int32(3))
    yield Case("i32_static", {x: whole}, [opset.power(x, three).output(0)])
    # f16: computed in f32, rounded to f16
    halves = (np.arange(1, 200, dtype=np.float32) / 2).astype(np.float16)
    for exponent in (2.0, 3.0, 1.5, 0.5, -1.0):
        x = parameter(halves.shape, np.float16)
        static = opset.power(x, opset.constant(np.float16(exponent)))
        yield Case(f"f16_static{exponent:g}", {x: halves}, [static.output(0)], exact=True)
        x, y = parameter(halves.shape, np.float16), parameter(halves.shape, np.float16)
        feeds = {x: halves, y: np.full(halves.shape, exponent, np.float16)}
        yield Case(f"f16_dynamic{exponent:g}", feeds, [opset.power(x, y).output(0)], exact=True)


def _cases() -> list[Case]:
    rng = np.random.default_rng(SEED)
    return [*_f32_cases(rng), *_other_cases(rng)]


CASES = _cases()


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    return run_batch(CASES, tmp_path_factory.mktemp("power"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_power_is_the_plugins(batch: Batch, case: Case) -> None:
    assert batch.mismatch(case) is None, batch.mismatch(case)


def _output(batch: Batch, name: str) -> Any:
    return batch.expected[batch.names[name][0]]


def test_the_plugin_computes_power_two_ways(batch: Batch) -> None:
    # what the suite rests on: on the same ties, a constant integer exponent (squaring) and a
    # data one (powf) differ in the plugin, and a constant fractional one does not
    for index, exponent in enumerate(INTEGER_POWERS[:4]):
        static, dynamic = _output(batch, f"static{index}"), _output(batch, f"dynamic{index}")
        assert np.sum(static != dynamic) > 40, exponent
    index = len(INTEGER_POWERS) + OTHER_POWERS.index(1.5)
    static, dynamic = _output(batch, f"static{index}"), _output(batch, f"dynamic{index}")
    assert np.array_equal(static, dynamic, equal_nan=True)
    assert np.sum(_output(batch, "i32_static") != _output(batch, "i32_dynamic")) > 5


def test_each_case_has_many_bases(batch: Batch) -> None:
    assert all(len(next(iter(case.inputs.values()))) >= 30 for case in CASES)
    assert sum(next(iter(case.inputs.values())).size for case in CASES) > 10_000
