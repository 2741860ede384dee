"""Real bounds that overflow to infinity, against OpenVINO (issue 24, item 1).

A size read from an interval dim (a ShapeOf of ``[1,40..300]``), converted to f16, bf16 or f32
and multiplied by a large scale, has an upper bound past the type's range: OpenVINO's
``interval_bound_evaluator`` computes it in the type, so it is inf (and the lower bound too
when it overflows as well: equal bounds, an exact value of inf). The ops below carry it as IEEE
arithmetic does, and some bring it back: a Minimum with 5000 or a Clamp gives a static dim, a
Divide of a number by it 0, Abs of -inf inf, ReduceMin and ReduceMax take the least and the
greatest as their references do (ReduceMin from infinity, past a NaN: ``inf * 0`` in one
pairing is passed over). Each path is built for each real type, on interval dims whose upper
bound overflows, whose both bounds overflow, with no upper bound, dynamic and static ones, on
a negative scale (a lower bound of -inf), and read as a Broadcast's target, a Reshape's
pattern, Interpolate-11's sizes, or as they are as its scales (the overflowing intervals also as
Interpolate-4's sizes and scales, Tile's repeats, Pad's pads, Slice's stop); OpenVINO's reading of the saved
file is the expectation, exactly; and converted to each integer type and boolean (inf to i32
is INT32_MIN, to boolean 1). Bounds are equal as OpenVINO compares them, by their bytes:
[-0.0, 0.0] (2 / inf) is an interval, a scale of ``?``.
Before irshape carried infinite bounds it differed from OpenVINO on 1072 of these 2359 cases
(mostly ``?`` where OpenVINO has a dim), and reported no error on 31 of the 58 files below.

The paths whose integer bound comes out below zero (a Convert of inf, or of the NaN of
``inf - inf``, to i64 is INT64_MIN) OpenVINO's builder refuses ("Value for partial shape
evaluation can't be lower than zero", Reshape's "Output pattern dim[0] has invalid value"), so
each is saved with a small scale, its Const patched in the .bin: read_model fails on each, and
irshape must report an error.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset8 as ov8
import openvino.opset11 as ov11
import openvino.opset12 as ov12
import pytest

import irshape

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    as_broadcast_target,
    batches,
    buildable,
    constant,
    openvino_reads,
    params,
    real_constant,
    save_batch,
)

# a scale that takes 300 past the type's range and leaves 40 inside it (f16: 300000 against
# 65504; bf16 and f32: 6e38 against 3.4e38), and a cap under which the result is a small dim
SCALE = {"f16": 1000.0, "bf16": 2e36, "f32": 2e36}
CAP = {"f16": 5000.0, "bf16": 700.0, "f32": 700.0}
DIMS = {
    "upper": ov.Dimension(40, 300),  # the upper bound overflows
    "both": ov.Dimension(200, 300),  # both: an exact inf
    "unbounded": ov.Dimension(40, -1),  # no upper bound: the type's maximum, "no limit"
    "dynamic": ov.Dimension(),
    "static": ov.Dimension(300),  # a value of inf
}
NEGATIVE = {"abs", "maximum_negative"}  # the paths on a negative scale: a lower bound of -inf


def _sizes(real: str, dim: ov.Dimension, scale: float) -> ov.Node:
    """The dim, converted to ``real``, times ``scale``."""
    data = ov1.parameter(ov.PartialShape([1, dim]), np.float32)
    size = ov1.convert(ov8.gather(ov3.shape_of(data), constant([1]), constant(0)), real)
    return ov1.multiply(size, real_constant([scale], real))


def _capped(x: ov.Node, real: str) -> ov.Node:
    return ov1.minimum(x, real_constant([CAP[real]], real))


def _around_zero(real: str) -> ov.Node:
    """A ShapeOf of ``[1..5]`` minus 3: the bounds [-2, 2]."""
    data = ov1.parameter(ov.PartialShape([ov.Dimension(1, 5)]), np.float32)
    size = ov1.convert(ov8.gather(ov3.shape_of(data), constant([0]), constant(0)), real)
    return ov1.subtract(size, real_constant([3.0], real))


def _with(x: ov.Node, real: str, number: float) -> ov.Node:
    return ov1.concat([x, real_constant([number], real)], 0)


Draw = Callable[[ov.Node, str], ov.Node]
PATHS: dict[str, Draw] = {
    "minimum": _capped,
    "minimum_first": lambda x, real: ov1.minimum(real_constant([CAP[real]], real), x),
    "clamp": lambda x, real: ov1.clamp(x, 0.0, CAP[real]),
    "divide_by_it": lambda x, real: ov1.divide(real_constant([CAP[real]], real), x),
    "subtract_itself": lambda x, real: _capped(ov1.subtract(x, x), real),
    "times_zero": lambda x, real: _capped(ov1.multiply(x, real_constant([0.0], real)), real),
    "add": lambda x, real: _capped(ov1.add(x, x), real),
    "to_f32": lambda x, real: ov1.minimum(ov1.convert(x, "f32"), real_constant([700.0], "f32")),
    "to_f16": lambda x, real: ov1.minimum(ov1.convert(x, "f16"), real_constant([5000.0], "f16")),
    "reduce_min": lambda x, real: ov1.reduce_min(
        ov1.concat([x, real_constant([CAP[real]], real)], 0), constant([0]), True
    ),
    "abs": lambda x, real: _capped(ov1.absolute(x), real),
    "maximum_negative": lambda x, real: ov1.maximum(x, real_constant([7.0], real)),
    "floor": lambda x, real: _capped(ov1.floor(x), real),
    "divide": lambda x, real: _capped(ov1.divide(x, real_constant([1e3], real)), real),
    "maximum": lambda x, real: _capped(ov1.maximum(x, real_constant([3.0], real)), real),
    "divide_around_zero": lambda x, real: _capped(ov1.divide(x, _around_zero(real)), real),
    # a divisor around zero: [min, max], min the least positive normal number (not the lowest)
    "divided_around_zero": lambda x, real: ov1.divide(x, _around_zero(real)),
    # [-2, 2] / inf is [-0.0, 0.0], which OpenVINO compares by its bytes: an interval, not 0
    "zero_divided": lambda x, real: ov1.clamp(ov1.divide(_around_zero(real), x), 0.0, 9.0),
    "scaled_to_f16": lambda x, real: ov1.minimum(
        ov1.convert(ov1.multiply(ov1.convert(x, "f32"), real_constant([1e-33], "f32")), "f16"),
        real_constant([5000.0], "f16"),
    ),
    "sqrt": lambda x, real: _capped(ov1.sqrt(x), real),
    "power": lambda x, real: _capped(ov1.power(x, real_constant([0.5], real)), real),
    "reduce_prod": lambda x, real: _capped(ov1.reduce_prod(_with(x, real, 2.0), constant([0]), True), real),
    "reduce_max": lambda x, real: _capped(ov1.reduce_max(_with(x, real, 2.0), constant([0]), True), real),
    "floor_mod": lambda x, real: _capped(ov1.floor_mod(x, real_constant([7.0], real)), real),
    "select": lambda x, real: _capped(
        ov1.select(ov1.constant(np.array([True])), x, real_constant([3.0], real)), real
    ),
}


def _read(consumer: str, sizes: ov.Node) -> ov.Node:
    """The sizes read as a Broadcast's target, a Reshape's pattern, an Interpolate's sizes, or
    as they are, as Interpolate-11's scales."""
    if consumer == "broadcast":
        return as_broadcast_target(sizes)
    if consumer == "scales":
        image = ov1.parameter(ov.PartialShape([1, 1, 4, 4]), np.float32)
        return ov11.interpolate(image, sizes, "nearest", "scales", axes=constant([2]))
    whole = ov1.convert(sizes, "i64")
    if consumer in ("interpolate4_sizes", "interpolate4_scales"):  # (each mode reads its own input)
        image = ov1.parameter(ov.PartialShape([1, 1, 4, 4]), np.float32)
        mode = consumer.split("_")[1]
        return ov4.interpolate(image, whole, ov1.convert(sizes, "f32"), constant([2]), "nearest", mode)
    if consumer == "tile":
        return ov1.tile(ov1.parameter(ov.PartialShape([2]), np.float32), whole)
    if consumer == "pad":
        return ov12.pad(ov1.parameter(ov.PartialShape([2]), np.float32), whole, constant([0]), "constant")
    if consumer == "slice":
        data = ov1.parameter(ov.PartialShape([3000]), np.float32)
        return ov8.slice(data, constant([0]), whole, constant([1]))
    if consumer == "reshape":
        data = ov1.parameter(ov.PartialShape([-1]), np.float32)
        return ov1.reshape(data, ov1.reshape(whole, constant([-1]), False), False)
    image = ov1.parameter(ov.PartialShape([1, 1, 4, 4]), np.float32)
    return ov11.interpolate(image, whole, "nearest", "sizes", axes=constant([2]))


def _build(real: str, path: str, style: str, consumer: str, scale: float) -> ov.Node:
    sign = -1.0 if path in NEGATIVE else 1.0
    return _read(consumer, PATHS[path](_sizes(real, DIMS[style], sign * scale), real))


CONSUMERS = ("broadcast", "reshape", "interpolate", "scales")
KEYS = list(itertools.product(("f16", "bf16", "f32"), PATHS, DIMS, CONSUMERS))
# ...and on the overflowing intervals, read by the other ops that read a shape-like input
MORE_CONSUMERS = ("interpolate4_sizes", "interpolate4_scales", "tile", "pad", "slice")
KEYS += list(itertools.product(("f16", "bf16", "f32"), PATHS, ("upper", "both"), MORE_CONSUMERS))


def _cases() -> list[OpCase]:
    cases: list[OpCase] = []
    for real, path, style, consumer in KEYS:
        build = functools.partial(_build, real, path, style, consumer, SCALE[real])
        case = OpCase(f"ro{len(cases):04d}", path, build, (real, style, consumer))
        if buildable(case):
            cases.append(case)
    return cases


# Convert of the overflowing bounds to each integer type and boolean (x86's conversion: inf to
# i32 INT32_MIN, to u8 0; to boolean 1), then to i64, as it is or held in [-5, 50] plus 6
TARGETS = ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "boolean")


def _converted(real: str, target: str, style: str, held: bool, negative: bool) -> ov.Node:
    sizes = _sizes(real, DIMS[style], (-1.0 if negative else 1.0) * SCALE[real])
    whole = ov1.convert(ov1.convert(sizes, target), "i64")
    if held:
        whole = ov1.add(ov1.minimum(ov1.maximum(whole, constant([-5])), constant([50])), constant([6]))
    return as_broadcast_target(whole)


def _conversions() -> list[OpCase]:
    cases: list[OpCase] = []
    for real, target, style, held, negative in itertools.product(
        ("f16", "bf16", "f32"), TARGETS, DIMS, (True, False), (False, True)
    ):
        build = functools.partial(_converted, real, target, style, held, negative)
        case = OpCase(f"rc{len(cases):04d}", f"Convert to {target}", build, (real, style, "broadcast"))
        if buildable(case):
            cases.append(case)
    return cases


CASES = _cases() + _conversions()
BATCHES = batches(CASES, 150)
STATS["real bounds that overflow to infinity, exact (test_real_overflow.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_overflowing_bound_is_openvinos(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"real_overflow{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_overflowing_bounds_fold(ops_runner: OpsBatchRunner) -> None:
    # the cases compare folded dims, not two ?s: on the overflowing intervals most of
    # OpenVINO's read dims are static, through every path and every type
    folded: dict[tuple[str, str], int] = {}
    for index, batch in enumerate(BATCHES):
        run = ops_runner.ops_batch(f"real_overflow{index}", batch)
        for case in batch:
            real, style, _ = case.tags
            if style in ("upper", "both"):
                shape = run.expected[case.cid][0][0]
                folded[(case.op, real)] = folded.get((case.op, real), 0) + ("?" not in shape)
    assert len(folded) > len(PATHS) * 2, folded  # (most paths build on every type)
    assert sum(count > 0 for count in folded.values()) > len(folded) * 2 // 3, folded


# --- what OpenVINO rejects: saved finite, patched -------------------------------------------

_MARK = 7.125  # the scale the model is saved with, once in its .bin


def _bytes(number: float, real: str) -> bytes:
    if real == "bf16":  # (an f32's upper half: both numbers are exact in bf16)
        return (np.array([number], np.float32).view(np.uint32) >> 16).astype(np.uint16).tobytes()
    return np.array([number], np.float16 if real == "f16" else np.float32).tobytes()


def _rejected() -> list[tuple[str, str, str, str]]:
    """The keys whose case OpenVINO's builder refuses at the large scale and builds at _MARK."""
    found = []
    for key in KEYS:
        if buildable(OpCase("", "", functools.partial(_build, *key, SCALE[key[0]]))):
            continue
        if buildable(OpCase("", "", functools.partial(_build, *key, _MARK))):
            found.append(key)
    return found


REJECTED = _rejected()
STATS["real bounds that overflow below zero, rejected (test_real_overflow.py)"] = len(REJECTED)


@pytest.mark.parametrize(("real", "path", "style", "consumer"), REJECTED)
def test_an_overflow_below_zero_is_an_error(
    tmp_path: Path, real: str, path: str, style: str, consumer: str
) -> None:
    xml = tmp_path / f"{real}_{path}_{style}_{consumer}.xml"
    node = _build(real, path, style, consumer, _MARK)
    save_batch([OpCase("patched", path, lambda: node)], xml)
    sign = -1.0 if path in NEGATIVE else 1.0
    weights = xml.with_suffix(".bin")
    content = weights.read_bytes()
    assert content.count(_bytes(sign * _MARK, real)) == 1
    weights.write_bytes(content.replace(_bytes(sign * _MARK, real), _bytes(sign * SCALE[real], real)))
    assert openvino_reads(xml) is not None  # (OpenVINO's reading fails)
    report = irshape.check_file(xml)
    assert report.errors, f"read_model fails: {openvino_reads(xml)}"
