"""Real arithmetic in shape subgraphs, values and bounds, against OpenVINO (issue 24, item 1).

Detection models (torchvision's Faster/Mask R-CNN, RetinaNet, FCOS) compute their resize in
floating point: ShapeOf -> Convert to f32 -> Multiply/Divide/Minimum/Floor -> Convert to i64 ->
Interpolate; TF's SAME padding computes its pads the same way. Each case here is such a chain,
drawn with a seed: a ShapeOf of a Parameter whose dims are static, dynamic (``?``) or
intervals, converted to f16, bf16, f32 or f64, through one to three real ops (Add, Subtract,
Multiply, Divide, Maximum, Minimum, Power, SquaredDifference, FloorMod, Floor, Ceiling, Sqrt,
Round, Abs, Clamp, the reductions; the elements moved by a Gather, a Reshape or a Concat),
converted to i64 or i32 and read as a Broadcast's target
(through a Concat) or as Interpolate's sizes. OpenVINO's reading of the saved file is the
expectation, exactly: its values on static inputs (f32 in float32, f16 and bf16 through f32,
bf16 rounded as ``ov::bfloat16`` rounds, f64 only where its evaluate takes f64: Multiply, Sqrt), its bounds on intervals (interval_bound_evaluator,
Divide's and Clamp's own; none through Floor, Ceiling, Sqrt, Round, ReduceSum or ReduceMean).
Not f64 on inputs that are not static: there OpenVINO reads memory nothing wrote (a Multiply's
``2..5`` times 2.0 is ``0``), and irshape gives ``?`` (docs/openvino-ir-reading.md §14).

Then two networks' subgraphs, whole: a detection resize and TF's SAME pads, every layer's
shape OpenVINO's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset5 as ov5
import openvino.opset8 as ov8
import openvino.opset11 as ov11
import pytest

import irshape

from .conftest import STATS
from .ops_harness import OpCase, OpsBatchRunner, batches, buildable, params, read_back, real_constant

SEED = 20261127
# the ops whose evaluate takes each real type (as OpenVINO 2026.4 builds them)
_BINARY = [
    "Add",
    "Subtract",
    "Multiply",
    "Divide",
    "Maximum",
    "Minimum",
    "Power",
    "FloorMod",
    "SquaredDifference",
]
_UNARY = ["Floor", "Ceiling", "Sqrt", "Round", "RoundAway", "Abs", "Clamp"]
_REDUCE = ["ReduceMax", "ReduceMin", "ReduceSum", "ReduceProd", "ReduceMean"]
_F64_OPS = ["Multiply", "Sqrt", "Move"]
_MOVES = ["Move"]  # a Gather, a Reshape, or a Concat of two Unsqueezed scalars: elements moved
_PAIRS = ["Pair"]  # the two sizes combined (a divisor with bounds of its own)


def _i(values: list[int] | int) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int64))


def _step(rng: random.Random, op: str, x: ov.Node, real: str) -> ov.Node:
    """One real op on ``x`` (two elements), its constant drawn."""

    def const(lo: float, hi: float) -> ov.Node:
        count = rng.choice([1, 2])
        drawn = [round(rng.uniform(lo, hi), rng.choice([0, 1, 2, 3])) for _ in range(count)]
        return real_constant(drawn, real)

    binary: dict[str, Callable[[ov.Node, ov.Node], ov.Node]] = {
        "Add": ov1.add,
        "Subtract": ov1.subtract,
        "Multiply": ov1.multiply,
        "Divide": ov1.divide,
        "Maximum": ov1.maximum,
        "Minimum": ov1.minimum,
        "Power": ov1.power,
        "FloorMod": ov1.floor_mod,
        "SquaredDifference": ov1.squared_difference,
    }
    if op in ("Add", "Subtract"):
        return binary[op](x, const(0.1, 6.0))
    if op in ("Multiply", "Divide"):
        return binary[op](x, const(0.3, 4.0))
    if op in ("Maximum", "Minimum"):
        return binary[op](x, const(2.0, 40.0))
    if op == "Power":
        return ov1.power(x, real_constant([rng.choice([0.5, 1.0, 1.5, 2.0])], real))
    if op in binary:
        return binary[op](x, const(1.0, 9.0))
    if op == "Pair":
        combine = rng.choice([ov1.divide, ov1.divide, ov1.multiply, ov1.add, ov1.maximum, ov1.minimum])
        return combine(x, ov8.gather(x, _i([1, 0]), _i(0)))
    if op == "Move":
        how = rng.choice(["gather", "reshape", "concat"])
        if how == "gather":
            return ov8.gather(x, _i([1, 0]), _i(0))
        if how == "reshape":
            return ov1.reshape(ov1.reshape(x, _i([1, 2]), False), _i([2]), False)
        scalars = [ov8.gather(x, _i(k), _i(0)) for k in rng.choice([(1, 0), (0, 0), (0, 1)])]
        return ov1.concat([ov1.unsqueeze(s, _i([0])) for s in scalars], 0)
    if op == "Floor":
        return ov1.floor(x)
    if op == "Ceiling":
        return ov1.ceiling(x)
    if op == "Sqrt":
        return ov1.sqrt(x)
    if op in ("Round", "RoundAway"):
        return ov5.round(x, "half_to_even" if op == "Round" else "half_away_from_zero")
    if op == "Abs":
        return ov1.abs(x)
    if op == "Clamp":
        low = round(rng.uniform(0.0, 10.0), 1)
        return ov1.clamp(x, low, low + round(rng.uniform(0.0, 40.0), 1))
    # a reduction of the two sizes, spread to two again by a product (irshape moves no reals
    # through a Concat or a Gather: the networks compute their sizes element-wise)
    name = {"ReduceMax": "reduce_max", "ReduceMin": "reduce_min", "ReduceSum": "reduce_sum"}.get(op)
    name = name or {"ReduceProd": "reduce_prod", "ReduceMean": "reduce_mean"}[op]
    reduced = getattr(ov1, name)(x, _i([0]), True)
    return ov1.multiply(reduced, real_constant([1.0, rng.choice([0.5, 0.25, 1.5])], real))


def _dims(rng: random.Random, style: str) -> list[ov.Dimension]:
    dims = [ov.Dimension(1), ov.Dimension(3)]
    for _ in range(2):
        if style == "static":
            dims.append(ov.Dimension(rng.randint(1, 60)))
        elif style == "dynamic":
            dims.append(ov.Dimension() if rng.random() < 0.5 else ov.Dimension(rng.randint(1, 60)))
        else:
            lo = rng.randint(1, 30)
            dims.append(
                ov.Dimension(lo, lo + rng.randint(1, 30)) if rng.random() < 0.8 else ov.Dimension(lo, -1)
            )
    return dims


def _build(seed: int, dims: list[ov.Dimension], real: str) -> ov.Node:
    rng = random.Random(seed)
    data = ov1.parameter(ov.PartialShape(dims), np.float32)
    x = ov1.convert(ov8.gather(ov3.shape_of(data), _i([2, 3]), _i(0)), real)
    ops = _F64_OPS if real == "f64" else _BINARY + _UNARY + _REDUCE + _MOVES + _PAIRS
    if real == "f16":
        ops = [op for op in ops if op != "SquaredDifference"]
    if real == "bf16":  # (neither folds bf16: the edges below)
        ops = [op for op in ops if op not in ("SquaredDifference", "Ceiling")]
    for _ in range(rng.choice([1, 2, 3])):
        x = _step(rng, rng.choice(ops), x, real)
    sizes = ov1.convert(x, rng.choice(["i64", "i32", "i64"]))
    if rng.random() < 0.5:
        return ov11.interpolate(data, ov1.convert(sizes, "i64"), "nearest", "sizes", axes=_i([2, 3]))
    return ov3.broadcast(
        ov1.constant(np.float32(1.0)), ov1.concat([_i([1, 3]), ov1.convert(sizes, "i64")], 0)
    )


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases: list[OpCase] = []
    kinds = [(style, real) for style in ("static", "dynamic", "interval") for real in ("f16", "f32")]
    kinds += [("static", "f64")]
    kinds += [(style, "bf16") for style in ("static", "dynamic", "interval")]
    for style, real in kinds:
        drawn = 0
        while drawn < 40:
            seed, dims = rng.randrange(2**32), _dims(rng, style)

            def build(seed: int = seed, dims: list[ov.Dimension] = dims, real: str = real) -> ov.Node:
                return _build(seed, dims, real)

            case = OpCase(f"ra{len(cases):04d}", f"{real}-{style}", build)
            if buildable(case):
                cases.append(case)
                drawn += 1
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["real arithmetic chains, exact (test_real_arithmetic.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_real_arithmetic_is_openvinos(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"real_arithmetic{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_the_cases_cover_each_kind_and_fold_somewhere(ops_runner: OpsBatchRunner) -> None:
    # each input kind and real type is drawn, and the static cases have static outputs in
    # OpenVINO (so that the exact comparison above compares folded values, not two ?s)
    kinds = {case.op for case in CASES}
    reals = ("f16", "f32", "bf16")
    assert kinds == {f"{r}-{s}" for s in ("static", "dynamic", "interval") for r in reals} | {"f64-static"}
    static = [case for case in CASES if case.op.endswith("static")]
    folded = 0
    for index, batch in enumerate(BATCHES):
        run = ops_runner.ops_batch(f"real_arithmetic{index}", batch)
        folded += sum("?" not in run.expected[c.cid][0][0] for c in batch if c in static)
    assert folded > 0.8 * len(static), (folded, len(static))


# --- two networks' subgraphs ---------------------------------------------------------------


def _detection_resize(data: ov.Node) -> ov.Node:
    """torchvision's GeneralizedRCNNTransform.resize: scale = min(800 / min(h, w), 1333 /
    max(h, w)); size = floor(h * scale), floor(w * scale), in f32."""
    hw = ov1.convert(ov8.gather(ov3.shape_of(data), _i([2, 3]), _i(0)), "f32")
    low = ov1.reduce_min(hw, _i([0]), False)
    high = ov1.reduce_max(hw, _i([0]), False)
    f = lambda v: ov1.constant(np.array(v, np.float32))  # noqa: E731
    scale = ov1.minimum(ov1.divide(f(800.0), low), ov1.divide(f(1333.0), high))
    sizes = ov1.convert(ov1.floor(ov1.multiply(hw, scale)), "i64")
    return ov11.interpolate(data, sizes, "linear", "sizes", axes=_i([2, 3]))


def _detection_scales(data: ov.Node) -> ov.Node:
    """The same resize by its scale (``F.interpolate(scale_factor=scale)``): the scalar scale
    unsqueezed and concatenated into Interpolate's scales."""
    f = lambda v: ov1.constant(np.array(v, np.float32))  # noqa: E731
    hw = ov1.convert(ov8.gather(ov3.shape_of(data), _i([2, 3]), _i(0)), "f32")
    low = ov1.reduce_min(hw, _i([0]), False)
    high = ov1.reduce_max(hw, _i([0]), False)
    scale = ov1.unsqueeze(ov1.minimum(ov1.divide(f(800.0), low), ov1.divide(f(1333.0), high)), _i([0]))
    return ov11.interpolate(data, ov1.concat([scale, scale], 0), "nearest", "scales", axes=_i([2, 3]))


def _same_pads(data: ov.Node, kernel: int, stride: int) -> ov.Node:
    """TF's SAME padding: out = ceil(in / stride); total = max((out - 1) * stride + kernel -
    in, 0); begin = floor(total / 2), end = total - begin; in f32, as converters emit it."""
    f = lambda v: ov1.constant(np.array(v, np.float32))  # noqa: E731
    size = ov1.convert(ov8.gather(ov3.shape_of(data), _i([2, 3]), _i(0)), "f32")
    out = ov1.ceiling(ov1.divide(size, f(float(stride))))
    total = ov1.maximum(
        ov1.subtract(
            ov1.add(ov1.multiply(ov1.subtract(out, f(1.0)), f(float(stride))), f(float(kernel))), size
        ),
        f(0.0),
    )
    begin = ov1.floor(ov1.divide(total, f(2.0)))
    end = ov1.subtract(total, begin)
    zero = _i([0, 0])
    pads_begin = ov1.concat([zero, ov1.convert(begin, "i64")], 0)
    pads_end = ov1.concat([zero, ov1.convert(end, "i64")], 0)
    padded = ov1.pad(data, pads_begin, pads_end, "constant")
    return ov1.max_pool(padded, [stride, stride], [0, 0], [0, 0], [kernel, kernel])


@pytest.mark.parametrize(
    "dims",
    [[1, 3, 320, 320], [1, 3, 480, 640], [1, 3, 333, 517], [1, 3, (200, 400), (300, 500)], [1, 3, -1, 640]],
    ids=["320x320", "480x640", "333x517", "intervals", "dynamic-height"],
)
def test_network_subgraphs_every_layer_is_openvinos(tmp_path: Path, dims: list[object]) -> None:
    shape = ov.PartialShape([ov.Dimension(*d) if isinstance(d, tuple) else ov.Dimension(d) for d in dims])
    data = ov1.parameter(shape, np.float32)
    resized = _detection_resize(data)
    pooled = _same_pads(resized, kernel=3, stride=2)
    outputs = [
        pooled,
        _same_pads(data, kernel=7, stride=4),
        _same_pads(_detection_scales(data), kernel=3, stride=2),
    ]
    model = ov.Model([ov1.result(o) for o in outputs], [data])
    xml = tmp_path / "subgraphs.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    expected = read_back(xml)
    report = irshape.check_file(xml)
    assert not report.errors, [d.message for d in report.errors]
    inferred = {layer.name: [str(s) for s in layer.outputs] for layer in report.layers if layer.checked}
    compared = [name for name in expected if name in inferred]
    assert len(compared) > 40
    wrong = {
        name: (inferred[name], [s for s, _ in expected[name]])
        for name in compared
        if inferred[name] != [s for s, _ in expected[name]]
    }
    assert not wrong, wrong
    if all(isinstance(d, int) and d > 0 for d in dims):  # static in: every shape static, as OpenVINO's
        assert all("?" not in s and ".." not in s for name in compared for s in inferred[name])


# --- edges the drawn chains may miss: float32 against double, ties, types not evaluated ----------


def _edge(
    real: str, chain: Callable[[ov.Node], ov.Node], dims: tuple[object, object] = (20, 30)
) -> Callable[[], ov.Node]:
    def build() -> ov.Node:
        spatial = [ov.Dimension(*d) if isinstance(d, tuple) else ov.Dimension(d) for d in dims]
        data = ov1.parameter(ov.PartialShape([1, 3, *spatial]), np.float32)
        x = ov1.convert(ov8.gather(ov3.shape_of(data), _i([2, 3]), _i(0)), real)
        sizes = ov1.convert(chain(x), "i64")
        return ov3.broadcast(ov1.constant(np.float32(1.0)), ov1.concat([_i([1, 3]), sizes], 0))

    return build


def _k(real: str, *numbers: float) -> ov.Node:
    return real_constant(numbers, real)


EDGES = [
    # 20 / 0.1f is 200 in float32 (199.99999 in double): floored, 200
    OpCase("re_f32_quotient", "f32", _edge("f32", lambda x: ov1.floor(ov1.divide(x, _k("f32", 0.1))))),
    OpCase("re_f16_quotient", "f16", _edge("f16", lambda x: ov1.floor(ov1.divide(x, _k("f16", 0.1))))),
    # ties: 2.5 and 3.5 to even (2, 4) and away from zero (3, 4)
    OpCase(
        "re_even",
        "f32",
        _edge("f32", lambda x: ov5.round(ov1.multiply(x, _k("f32", 0.5)), "half_to_even"), (5, 7)),
    ),
    OpCase(
        "re_away",
        "f32",
        _edge("f32", lambda x: ov5.round(ov1.multiply(x, _k("f32", 0.5)), "half_away_from_zero"), (5, 7)),
    ),
    OpCase(
        "re_f16_even",
        "f16",
        _edge("f16", lambda x: ov5.round(ov1.multiply(x, _k("f16", 0.5)), "half_to_even"), (5, 7)),
    ),
    # SquaredDifference folds in f32, not in f16; Divide and Floor not in f64, Sqrt does
    OpCase("re_sqdiff_f32", "f32", _edge("f32", lambda x: ov1.squared_difference(x, _k("f32", 1.0)))),
    OpCase("re_sqdiff_f16", "f16", _edge("f16", lambda x: ov1.squared_difference(x, _k("f16", 1.0)))),
    OpCase("re_f64_divide", "f64", _edge("f64", lambda x: ov1.divide(x, _k("f64", 2.0)))),
    OpCase("re_f64_floor", "f64", _edge("f64", lambda x: ov1.floor(x))),
    OpCase("re_f64_sqrt", "f64", _edge("f64", lambda x: ov1.sqrt(x))),
    # Convert out of the target's range: 300.7 to u8 is 44 (through an int32, wrapped)
    OpCase(
        "re_u8_wrap", "f32", _edge("f32", lambda x: ov1.convert(ov1.multiply(x, _k("f32", 15.035)), "u8"))
    ),
    OpCase(
        "re_u16_wrap", "f32", _edge("f32", lambda x: ov1.convert(ov1.multiply(x, _k("f32", 3500.0)), "u16"))
    ),
    # Clamp at its bounds, the reductions of a static pair
    OpCase("re_clamp", "f32", _edge("f32", lambda x: ov1.clamp(x, 20.0, 25.0))),
    # a divisor whose bounds hold zero: [lowest, max], clamped to [0, 50]
    OpCase(
        "re_divisor_around_zero",
        "f32",
        _edge(
            "f32",
            lambda x: ov1.clamp(
                ov1.divide(x, ov1.subtract(ov8.gather(x, _i([1, 0]), _i(0)), _k("f32", 25.0))), 0.0, 50.0
            ),
            ((20, 40), (30, 50)),
        ),
    ),
    # bf16 rounded as OpenVINO rounds it: half the lowest kept bit added, so 515 is 512 and
    # 1031 1024 (an even upper half cut), 511 512 and 259 260 (an odd one to the nearest)
    OpCase("re_bf16_even_cut", "bf16", _edge("bf16", lambda x: x, ((515, 515), (1031, 1031)))),
    OpCase("re_bf16_odd_up", "bf16", _edge("bf16", lambda x: x, ((511, 511), (259, 259)))),
    OpCase("re_bf16_bounds", "bf16", _edge("bf16", lambda x: x, ((250, 515), (1029, 1035)))),
    OpCase(
        "re_bf16_product", "bf16", _edge("bf16", lambda x: ov1.multiply(x, _k("bf16", 1.5, 3.0)), (347, 345))
    ),
    # a computed f32 result rounded the same way: 103 * 5 = 515 is 512, 207 * 5 = 1035 is 1032
    OpCase("re_bf16_computed", "bf16", _edge("bf16", lambda x: ov1.multiply(x, _k("bf16", 5.0)), (103, 207))),
    # Ceiling and SquaredDifference fold no bf16 (Floor does)
    OpCase("re_bf16_ceiling", "bf16", _edge("bf16", lambda x: ov1.ceiling(ov1.multiply(x, _k("bf16", 0.3))))),
    OpCase("re_bf16_floor", "bf16", _edge("bf16", lambda x: ov1.floor(ov1.multiply(x, _k("bf16", 0.3))))),
    OpCase("re_bf16_sqdiff", "bf16", _edge("bf16", lambda x: ov1.squared_difference(x, _k("bf16", 1.0)))),
    OpCase(
        "re_mean",
        "f16",
        _edge(
            "f16", lambda x: ov1.multiply(ov1.reduce_mean(x, _i([0]), True), _k("f16", 1.0, 0.5)), (21, 30)
        ),
    ),
]


@pytest.mark.parametrize("case", EDGES, ids=lambda c: c.cid)
def test_edges_are_openvinos(ops_runner: OpsBatchRunner, case: OpCase) -> None:
    outcome = ops_runner.ops_batch("real_edges", EDGES).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()
