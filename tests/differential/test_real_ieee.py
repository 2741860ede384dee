"""Infinities and NaN in real shape subgraphs, against OpenVINO (issue 24, item 1).

OpenVINO's evaluate computes with IEEE numbers: an f16 product past 65504 is inf, a Convert of
1e6 to f16 inf, a Divide by zero inf or NaN, and a later Minimum, Maximum, Clamp or Convert may
bring them back to a finite value; its shape inference reads them in turn (a Convert of them to
an integer type is x86's 'integer indefinite', an Interpolate scale of inf a dim of 0). Each
behaviour below is drawn with a seed on a static input, at least 100 configurations each,
all in a few models, and OpenVINO's reading of the saved file is the expectation, exactly:

* ``overflow``: f16, bf16, f32 (and f64) arithmetic past the type's range, then brought back
  or not (Minimum and Maximum either way round, Clamp, Subtract...).
* ``non_finite``: inf, -inf and NaN (x/0, -x/0, 0/0, a Const of inf, Sqrt and Power of a
  negative, 0 to a negative power) through every real op irshape folds: Minimum and Maximum
  (a NaN first is kept, second dropped), Clamp, Floor, Ceiling, Round, Sqrt, Negative, Abs,
  FloorMod (``x - y * floor(x / y)``: x mod inf is NaN), the reductions (ReduceMax and
  ReduceMin pass over a NaN).
* ``reductions``: the five reductions of inf, -inf, NaN and finite numbers in any order.
* ``scatter``: ScatterElementsUpdate-12 and ScatterNDUpdate-15 with their reductions, inf,
  -inf and NaN in the data and the updates.
* ``convert``: inf, -inf, NaN and values past each integer type converted to i8...u64.
* ``interpolate``: Interpolate-4 and -11 scales of inf, -inf, NaN, or past the int64 range on
  static, interval and unbounded dims: a dim of 0.
* ``reading``: Pad's pads, Broadcast's and Reshape's targets read through a Convert of them.
* ``clamp``: Clamp-1 with infinite (or past f16) ``min`` and ``max`` on finite and infinite
  values.
* ``maximum``: the type's maximum (65504 in f16, FLT_MAX in f32), which shape inference takes
  for an unbounded dim: a Convert of it is the other type's maximum (to i64 a dim of ``?``),
  a Divide of it 0.

Infinities in *bounds* (an interval input whose bound overflows) are test_real_overflow.py's.
"""

from __future__ import annotations

import math
import random
import re
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset5 as ov5
import openvino.opset8 as ov8
import openvino.opset11 as ov11
import openvino.opset12 as ov12
import openvino.opset15 as ov15
import pytest

import irshape

from .conftest import STATS
from .ops_harness import OpCase, OpsBatchRunner, batches, buildable, params, real_constant

SEED = 20261128
PER_BEHAVIOUR = 110
INF = math.inf
REALS = ("f16", "f16", "f32", "bf16")
INTEGERS = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
_MAXIMA = {"f16": 65504.0, "f32": float(np.finfo(np.float32).max), "bf16": 3.3895313892515355e38}

Draw = Callable[[random.Random], ov.Node]


def _i(values: list[int] | int) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int64))


def _r(values: list[float], real: str) -> ov.Node:
    with warnings.catch_warnings():  # (numpy warns of a value past f16's range: inf, meant)
        warnings.simplefilter("ignore", RuntimeWarning)
        return real_constant(values, real)


def _sizes(rng: random.Random, real: str, count: int = 1) -> ov.Node:
    """Dims of a static Parameter, converted to ``real``."""
    data = ov1.parameter(ov.PartialShape([1, 3, rng.randint(1, 640), rng.randint(1, 640)]), np.float32)
    picked = ov8.gather(ov3.shape_of(data), _i([rng.randrange(4) for _ in range(count)]), _i(0))
    return ov1.convert(picked, real)


def _target(rng: random.Random, x: ov.Node) -> ov.Node:
    """x converted to i64, as a Broadcast's target: as it is, or held in [-5, 700] and moved
    up by 6 (so that INT64_MIN is a dim of 1, not a negative target OpenVINO refuses)."""
    whole = ov1.convert(x, "i64") if x.get_output_element_type(0).is_real() else x
    if rng.random() < 0.7:
        whole = ov1.add(ov1.minimum(ov1.maximum(whole, _i([-5])), _i([700])), _i([6]))
    return ov3.broadcast(ov1.constant(np.float32(1.0)), ov1.concat([_i([1]), whole], 0))


def _type(x: ov.Node) -> str:
    return str(x.get_output_element_type(0).get_type_name())


def _non_finite(rng: random.Random, real: str) -> ov.Node:
    """inf, -inf or NaN, computed (or a Const of it)."""
    x = _sizes(rng, real)
    zero = _r([0.0], real)
    return rng.choice(
        [
            lambda: ov1.divide(x, zero),
            lambda: ov1.divide(ov1.negative(x), zero),
            lambda: ov1.divide(ov1.subtract(x, x), zero),
            lambda: _r([rng.choice([INF, -INF])], real),
            lambda: ov1.sqrt(ov1.negative(x)),
            lambda: ov1.power(ov1.negative(x), _r([0.5], real)),
            lambda: ov1.power(ov1.subtract(x, x), _r([-1.0], real)),
        ]
    )()


def _finite(rng: random.Random, real: str) -> ov.Node:
    return rng.choice([lambda: _sizes(rng, real), lambda: _r([rng.choice([0.0, 2.5, 40.0, -3.0])], real)])()


def _back(rng: random.Random, x: ov.Node) -> ov.Node:
    """An op that may bring x back to a finite value (or not)."""
    real = _type(x)
    c = _r([rng.choice([5.0, 40.0, 600.0, -2.0])], real)
    return rng.choice(
        [
            lambda: ov1.minimum(x, c),
            lambda: ov1.minimum(c, x),
            lambda: ov1.maximum(x, c),
            lambda: ov1.maximum(c, x),
            lambda: ov1.clamp(x, rng.choice([0.0, 1.0, -INF]), rng.choice([50.0, 600.0])),
            lambda: x,
        ]
    )()


def _overflow(rng: random.Random) -> ov.Node:
    real = rng.choice((*REALS, "f64"))
    x = _sizes(rng, real)
    if real == "f64":  # (f64 evaluates Multiply and Sqrt only)
        return _target(
            rng, _back(rng, ov1.convert(ov1.multiply(x, _r([rng.choice([1e306, 1e308])], real)), "f32"))
        )
    big = {"f16": [100.0, 200.0, 6.0e4, 1000.0], "f32": [1e36, 3e38, 1e37], "bf16": [1e36, 3e38, 1e37]}[real]
    step = rng.choice(
        [
            lambda: ov1.multiply(x, _r([rng.choice(big)], real)),
            lambda: ov1.multiply(_r([rng.choice(big)], real), ov1.multiply(x, x)),
            lambda: ov1.add(ov1.multiply(x, _r([rng.choice(big)], real)), _r([rng.choice(big)], real)),
            lambda: ov1.power(x, _r([rng.choice([2.0, 20.0, 40.0])], real)),
            lambda: ov1.negative(ov1.multiply(x, _r([rng.choice(big)], real))),
            lambda: ov1.convert(
                ov1.multiply(ov1.convert(x, "f32"), _r([rng.choice([1e4, 1e6, 1e38])], "f32")), real
            ),
        ]
    )()
    return _target(rng, _back(rng, step))


def _through(rng: random.Random, x: ov.Node) -> ov.Node:
    """One real op irshape folds, on x (inf, -inf or NaN)."""
    real = _type(x)
    other = _finite(rng, real)
    reductions = [ov1.reduce_max, ov1.reduce_min, ov1.reduce_sum, ov1.reduce_prod, ov1.reduce_mean]
    pair = [x, other] if rng.random() < 0.5 else [other, x]
    return rng.choice(
        [
            lambda: ov1.minimum(*pair),
            lambda: ov1.maximum(*pair),
            lambda: ov1.clamp(x, rng.choice([-3.0, 0.0, 1.0]), rng.choice([4.0, 70.0])),
            lambda: ov1.floor(x),
            lambda: ov1.ceiling(x) if real != "bf16" else ov1.floor(x),
            lambda: ov5.round(x, rng.choice(["half_to_even", "half_away_from_zero"])),
            lambda: ov1.sqrt(x),
            lambda: ov1.negative(x),
            lambda: ov1.abs(x),
            lambda: ov1.add(*pair),
            lambda: ov1.subtract(*pair),
            lambda: ov1.multiply(x, _r([rng.choice([0.0, -1.0, 2.0])], real)),
            lambda: ov1.floor_mod(*pair),
            lambda: ov1.divide(*pair),
            lambda: rng.choice(reductions)(ov1.concat(pair, 0), _i([0]), True),
        ]
    )()


def _non_finite_chain(rng: random.Random) -> ov.Node:
    x = _non_finite(rng, rng.choice(REALS))
    for _ in range(rng.randint(1, 2)):
        x = _through(rng, x)
    return _target(rng, _back(rng, x))


def _reductions(rng: random.Random) -> ov.Node:
    """A reduction of inf, -inf, NaN and finite numbers in any order (ReduceMax and ReduceMin
    pass over a NaN, wherever it is)."""
    real = rng.choice(REALS)
    parts = [
        rng.choice([lambda: _non_finite(rng, real), lambda: _finite(rng, real)])()
        for _ in range(rng.randint(2, 4))
    ]
    function = rng.choice([ov1.reduce_max, ov1.reduce_min, ov1.reduce_sum, ov1.reduce_prod, ov1.reduce_mean])
    return _target(rng, function(ov1.concat(parts, 0), _i([0]), rng.random() < 0.5))


def _scatter(rng: random.Random) -> ov.Node:
    """ScatterElementsUpdate-12 and ScatterNDUpdate-15 with a reduction, inf, -inf and NaN in
    the data and the updates (the reference's ``a > b ? a : b``: a NaN in the data is
    replaced by max and min, a NaN update kept)."""
    real = rng.choice(("f16", "f32", "bf16"))

    def element() -> ov.Node:
        return rng.choice([lambda: _non_finite(rng, real), lambda: _finite(rng, real)])()

    data = ov1.concat([element() for _ in range(3)], 0)
    count = rng.randint(1, 3)
    updates = ov1.concat([element() for _ in range(count)], 0)
    positions = [rng.randrange(3) for _ in range(count)]
    reduction = rng.choice(["max", "max", "min", "min", "sum", "prod", "none"])
    if rng.random() < 0.5:
        reduction = "mean" if reduction == "none" else reduction
        scattered = ov12.scatter_elements_update(
            data, _i(positions), updates, _i(0), reduction, rng.random() < 0.5
        )
    else:
        reduction = "sub" if reduction == "none" else reduction
        scattered = ov15.scatter_nd_update(data, _i([[p] for p in positions]), updates, reduction)
    return _target(rng, scattered)


def _convert(rng: random.Random) -> ov.Node:
    real = rng.choice((*REALS, "f64"))
    computed = "f32" if real == "f64" else real
    value = rng.choice(
        [
            lambda: _non_finite(rng, computed),
            lambda: ov1.multiply(
                _sizes(rng, computed), _r([rng.choice([1e7, -1e7, 3e4, 1e30, -0.5])], computed)
            ),
            lambda: _r([rng.choice([1e10, -1e10, 3e9, -3e9, 5e19, 300.7, -5.5, 65504.0, 70000.0])], computed),
        ]
    )()
    if real == "f64":
        value = ov1.convert(value, "f64")
    whole = ov1.convert(value, rng.choice(INTEGERS))
    return _target(rng, ov1.convert(whole, "i64"))


def _interpolate(rng: random.Random) -> ov.Node:
    real = rng.choice(("f32", "f32", "f16", "bf16"))
    version = 4 if rng.random() < 0.3 else 11
    if version == 4:
        real = "f32"  # (Interpolate-4's scales are f32)
    scale = rng.choice(
        [
            lambda: _non_finite(rng, real),
            lambda: ov1.multiply(
                ov1.divide(_sizes(rng, real), _sizes(rng, real)),
                _r([rng.choice([1e19, 1e30, 3e9, 1e10, -1.0])], real),
            ),
            lambda: _r([rng.choice([INF, -INF, 1e30, 1e19, 2.5e9])], real),
            lambda: ov1.multiply(_sizes(rng, real), _r([rng.choice([1000.0, 1e5])], real)),
        ]
    )()
    scales = ov1.concat([scale, _r([rng.choice([2.0, 0.5])], real)], 0)
    dims = [ov.Dimension(1), ov.Dimension(3)]
    for _ in range(2):
        n = rng.randint(1, 40)
        dims.append(
            rng.choice(
                [
                    ov.Dimension(n),
                    ov.Dimension(n, n + rng.randint(1, 30)),
                    ov.Dimension(n, -1),
                    ov.Dimension(),
                ]
            )
        )
    data = ov1.parameter(ov.PartialShape(dims), np.float32)
    if version == 11:
        return ov11.interpolate(data, scales, "nearest", "scales", axes=_i([2, 3]))
    attributes = {"mode": "nearest", "shape_calculation_mode": "scales"}
    return ov4.interpolate(data, _i([1, 1]), scales, attributes, _i([2, 3]))


def _reading(rng: random.Random) -> ov.Node:
    real = rng.choice(REALS)
    value = _back(
        rng, rng.choice([lambda: _non_finite(rng, real), lambda: _through(rng, _non_finite(rng, real))])()
    )
    count = 1 if rng.random() < 0.5 else 2
    parts = [value] + [ov1.convert(_sizes(rng, real), real) for _ in range(count - 1)]
    pads = ov1.convert(ov1.concat(parts, 0) if count > 1 else value, "i64")
    kind = rng.choice(["pad1", "pad12", "reshape", "broadcast"])
    if kind in ("pad1", "pad12"):
        data = ov1.parameter(ov.PartialShape([4] * count), np.float32)
        zeros = _i([0] * count)
        if kind == "pad1":
            return ov1.pad(data, ov1.maximum(pads, zeros), zeros, "constant")
        return ov12.pad(data, pads, zeros, "constant")
    if kind == "reshape":
        data = ov1.parameter(ov.PartialShape([2, 3, 4]), np.float32)
        return ov1.reshape(data, ov1.concat([_i([2, -1]), pads], 0), False)
    return ov3.broadcast(ov1.constant(np.float32(1.0)), ov1.concat([_i([1]), pads], 0))


def _clamp(rng: random.Random) -> ov.Node:
    real = rng.choice(REALS)
    x = rng.choice(
        [
            lambda: _non_finite(rng, real),
            lambda: _sizes(rng, real),
            lambda: _through(rng, _non_finite(rng, real)),
        ]
    )()
    low = rng.choice([-INF, -1e6, 0.0, 1.0, 7.0])
    high = rng.choice([INF, 1e6, 30.0, 600.0, 7.0])
    return _target(rng, ov1.clamp(x, min(low, high), max(low, high)))


def _maximum(rng: random.Random) -> ov.Node:
    real = rng.choice(("f16", "f32", "bf16"))
    top = _MAXIMA[real]
    at_max = rng.choice(
        [
            lambda: _r([top], real),
            lambda: ov1.minimum(ov1.multiply(_sizes(rng, real), _r([top], real)), _r([top], real)),
            lambda: ov1.clamp(ov1.divide(_sizes(rng, real), _r([0.0], real)), 0.0, top),
        ]
    )()
    other = rng.choice([r for r in ("f16", "f32", "bf16", "f64") if r != real])
    return _target(
        rng,
        rng.choice(
            [
                lambda: (
                    ov1.multiply(ov1.convert(at_max, other), _r([1e-36], other if other != "f64" else "f32"))
                    if other != "f64"
                    else ov1.convert(at_max, "f64")
                ),
                lambda: ov1.divide(at_max, _sizes(rng, real)),
                lambda: ov1.add(ov1.divide(_sizes(rng, real), at_max), _r([3.0], real)),
                lambda: ov1.convert(at_max, rng.choice(INTEGERS)),
                lambda: ov1.subtract(ov1.convert(at_max, "f16"), _r([65000.0], "f16")),
                lambda: at_max,
            ]
        )(),
    )


BEHAVIOURS: dict[str, Draw] = {
    "overflow": _overflow,
    "non_finite": _non_finite_chain,
    "reductions": _reductions,
    "scatter": _scatter,
    "convert": _convert,
    "interpolate": _interpolate,
    "reading": _reading,
    "clamp": _clamp,
    "maximum": _maximum,
}


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases: list[OpCase] = []
    for behaviour, draw in BEHAVIOURS.items():
        count = 0
        while count < PER_BEHAVIOUR:
            seed = rng.randrange(2**32)

            def build(seed: int = seed, draw: Draw = draw) -> ov.Node:
                return draw(random.Random(seed))

            case = OpCase(f"ie{len(cases):05d}", behaviour, build, (str(seed),))
            if buildable(case):
                cases.append(case)
                count += 1
    return cases


CASES = _cases()
BATCHES = batches(CASES)
for _behaviour in BEHAVIOURS:
    STATS[f"infinities and NaN: {_behaviour}, exact (test_real_ieee.py)"] = sum(
        case.op == _behaviour for case in CASES
    )


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_non_finite_real_is_openvinos(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"real_ieee{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_each_behaviour_folds(ops_runner: OpsBatchRunner) -> None:
    # each behaviour's cases compare folded shapes, not two ?s: most of OpenVINO's are static
    folded: dict[str, int] = dict.fromkeys(BEHAVIOURS, 0)
    for index, batch in enumerate(BATCHES):
        run = ops_runner.ops_batch(f"real_ieee{index}", batch)
        for case in batch:
            shape = run.expected[case.cid][0][0]
            # (an Interpolate's: its scaled axis 2, the others may be ? as drawn)
            folded[case.op] += "?" not in (shape.split(",")[2] if case.op == "interpolate" else shape)
    assert all(count > PER_BEHAVIOUR // 2 for count in folded.values()), folded


# --- Range refuses them, as its shape inference does -----------------------------------------

_MARK = 7.125  # a Const the saved .bin holds once, patched to what makes the input not finite
_RANGE_NAMES = ("start", "stop", "step")
_PATCHES = {  # how the input is computed from a dim x and the marked Const c, and c's patch
    "x/c, c=0: inf": (lambda x, c: ov1.divide(x, c), 0.0),
    "-x/c, c=0: -inf": (lambda x, c: ov1.divide(ov1.negative(x), c), 0.0),
    "(x-x)/c+c, c=0: NaN": (lambda x, c: ov1.add(ov1.divide(ov1.subtract(x, x), c), c), 0.0),
    "sqrt(c), c=-1: NaN": (lambda x, c: ov1.add(ov1.sqrt(c), x), -1.0),
    "x*c, c=1e38: inf in f16 and f32": (lambda x, c: ov1.multiply(ov1.multiply(x, c), c), 1.0e38),
}


def _range_cases() -> list[tuple[str, int, str, str, int]]:
    rng = random.Random(SEED + 1)
    cases = []
    for index in range(105):
        cases.append(
            (
                f"rg{index:03d}",
                rng.randrange(3),
                rng.choice(list(_PATCHES)),
                rng.choice(["f32", "f16"]),
                rng.randint(2, 40),
            )
        )
    return cases


RANGE_CASES = _range_cases()
STATS["infinities and NaN: Range's start, stop, step, rejected (test_real_ieee.py)"] = len(RANGE_CASES)


def _save_range(path: Path, port: int, patch: str, real: str, dim: int) -> None:
    compute, replacement = _PATCHES[patch]
    data = ov1.parameter(ov.PartialShape([1, dim]), np.float32)
    x = ov1.convert(ov8.gather(ov3.shape_of(data), _i([1]), _i(0)), real)
    marked = compute(x, ov1.constant(np.array([_MARK], np.float32 if real == "f32" else np.float16)))
    numbers = [
        ov1.constant(np.array(v, np.float32 if real == "f32" else np.float16)) for v in (0.0, 50.0, 1.0)
    ]
    numbers[port] = ov1.squeeze(marked, _i([0]))
    node = ov4.range(*numbers, "f32")
    ov.save_model(ov.Model([ov1.result(node)], [data]), str(path), compress_to_fp16=False)
    weights = path.with_suffix(".bin")
    mark = np.array([_MARK], np.float32 if real == "f32" else np.float16).tobytes()
    content = weights.read_bytes()
    assert content.count(mark) == 1
    new = np.array([replacement], np.float32 if real == "f32" else np.float16).tobytes()
    weights.write_bytes(content.replace(mark, new))


@pytest.mark.parametrize(("cid", "port", "patch", "real", "dim"), RANGE_CASES)
def test_a_non_finite_range_input_is_rejected(
    tmp_path: Path, cid: str, port: int, patch: str, real: str, dim: int
) -> None:
    # OpenVINO's builder checks the computed inputs at once, so the model is saved finite and
    # its Const patched in the .bin: read_model then fails, and irshape must report it
    path = tmp_path / f"{cid}.xml"
    with np.errstate(over="ignore"):  # (1e38 in f16 is inf: meant)
        _save_range(path, port, patch, real, dim)
    name = _RANGE_NAMES[port]
    message = (
        "'step' cannot be zero, nan, or infinite." if port == 2 else f"'{name}' cannot be nan or infinite."
    )
    with pytest.raises(Exception, match=re.escape(message)):
        ov.Core().read_model(str(path))
    report = irshape.check_file(path)
    assert any(message in d.message for d in report.errors if d.layer_type == "Range"), [
        (d.code, d.message) for d in report.errors
    ]
