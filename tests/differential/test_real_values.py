"""Real-valued shape arithmetic, against OpenVINO (issue 14).

Converters compute sizes through float tensors: PyTorch's ``F.interpolate(x, scale_factor=s)``
is ShapeOf -> Convert(f32) -> Multiply by an f32 Const -> (Floor) -> Convert(i64) -> Concat ->
Interpolate's sizes; a ViT's position embedding takes a Sqrt, a Divide or a Power of an f32
size. Each case is such a chain, drawn with a seed, from a Parameter whose dims are static,
dynamic (``?``) or intervals; OpenVINO's reading of the saved file is the expectation.

Every chain on static inputs, and on dynamic and interval inputs every chain but the upscale:
irshape's shapes are OpenVINO's, exactly (folded as OpenVINO folds them: f32 arithmetic, Convert
truncating toward zero; the real bounds of Convert, Multiply, Divide, Add and Power as OpenVINO
evaluates them, and none through Floor, Ceiling and Sqrt). The upscale drawn in f64 on inputs
that are not static: irshape's answer must be OpenVINO's or wider (docs/openvino-ir-reading.md
§14).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset8 as ov8
import openvino.opset11 as ov11
import pytest

import irshape
from irshape.dims import parse_partial_shape

from .conftest import STATS
from .ops_harness import OpCase, OpsBatchRunner, batches, buildable, params, read_back, save_batch

SEED = 20261215
PER_PATTERN = 120
PATTERNS = ["scale", "scale_floor", "sqrt", "divide", "power", "ceil_divide", "real_const", "scale_f32"]


def _f(values: list[float] | float, element_type: type = np.float32) -> ov.Node:
    return ov1.constant(np.array(values, dtype=element_type))


def _i(values: list[int] | int) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int64))


def _dims(rng: random.Random, style: str) -> list[ov.Dimension]:
    dims = [ov.Dimension(1), ov.Dimension(3)]
    for _ in range(2):
        if style == "static":
            dims.append(ov.Dimension(rng.randint(1, 40)))
        elif style == "dynamic":
            dims.append(ov.Dimension() if rng.random() < 0.7 else ov.Dimension(rng.randint(1, 40)))
        else:
            lo = rng.randint(1, 20)
            dims.append(
                ov.Dimension(lo, lo + rng.randint(1, 20)) if rng.random() < 0.8 else ov.Dimension(lo, -1)
            )
    return dims


def _chain(pattern: str, rng: random.Random, data: ov.Node) -> ov.Node:
    """The i64 sizes a converter computes for axes 2 and 3 of ``data``."""
    real = np.float32 if pattern == "scale_f32" else rng.choice([np.float32, np.float32, np.float64])
    name = "f32" if real is np.float32 else "f64"
    sizes = ov1.convert(ov8.gather(ov3.shape_of(data), _i([2, 3]), _i(0)), name)
    k = [round(rng.uniform(0.3, 4.0), rng.choice([0, 1, 2, 3])) for _ in range(rng.choice([1, 2]))]
    if pattern in ("scale", "scale_f32"):
        out = ov1.multiply(sizes, _f(k, real))
    elif pattern == "scale_floor":
        out = ov1.floor(ov1.multiply(sizes, _f(k, real)))
    elif pattern == "sqrt":
        out = ov1.sqrt(ov1.multiply(sizes, _f(k, real)))
    elif pattern == "divide":
        out = ov1.divide(sizes, _f(k, real))
    elif pattern == "power":
        out = ov1.power(sizes, _f([rng.choice([0.5, 1.0, 1.5, 2.0])], real))
    elif pattern == "ceil_divide":
        out = ov1.ceiling(ov1.divide(ov1.add(sizes, _f(k, real)), _f([rng.choice([2.0, 3.0, 7.0])], real)))
    else:  # a real Const converted, added to, and converted again
        out = ov1.add(ov1.convert(_f([rng.uniform(0, 9) for _ in range(2)]), name), _f(k, real))
    return ov1.convert(out, rng.choice(["i64", "i32", "i64"]))


def _consumer(rng: random.Random, data: ov.Node, sizes: ov.Node) -> ov.Node:
    if rng.random() < 0.5:
        return ov11.interpolate(data, ov1.convert(sizes, "i64"), "nearest", "sizes", axes=_i([2, 3]))
    full = ov1.concat([_i([1, 3]), ov1.convert(sizes, "i64")], 0)
    return ov3.broadcast(_f(1.0), full)


def _cases(style: str) -> list[OpCase]:
    rng = random.Random(f"{SEED}-{style}")
    cases: list[OpCase] = []
    for pattern in PATTERNS:
        drawn = 0
        while drawn < PER_PATTERN:
            seed = rng.randrange(2**32)
            dims = _dims(rng, style)

            def build(seed: int = seed, dims: list[ov.Dimension] = dims, pattern: str = pattern) -> ov.Node:
                local = random.Random(seed)
                data = ov1.parameter(ov.PartialShape(dims), np.float32)
                return _consumer(local, data, _chain(pattern, local, data))

            case = OpCase(f"r{style[0]}{len(cases):04d}", pattern, build)
            if buildable(case):
                cases.append(case)
                drawn += 1
    return cases


STATIC, DYNAMIC, INTERVAL = _cases("static"), _cases("dynamic"), _cases("interval")
# exact: every chain OpenVINO folds or bounds as irshape does (issue 24: f32 in float32, f16
# through f32, f64 where its evaluate takes f64); OpenVINO's or wider: the upscale on dynamic and
# interval inputs, drawn f32 or f64, as in f64 OpenVINO's bounds read memory nothing wrote (docs §14)
EXACT = STATIC + [c for c in DYNAMIC + INTERVAL if c.op != "scale"]
EXACT_BATCHES = batches(EXACT)
WIDER = [c for c in DYNAMIC + INTERVAL if c.op == "scale"]
STATS["real-valued shape chains, exact (test_real_values.py)"] = len(EXACT)
STATS["real-valued shape chains, OpenVINO's or wider (test_real_values.py)"] = len(WIDER)


@pytest.mark.parametrize(("index", "case"), params(EXACT_BATCHES))
def test_real_shape_arithmetic_matches_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"reals{index}", EXACT_BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_real_shape_arithmetic_on_intervals_is_openvino_or_wider(tmp_path: Path) -> None:
    xml = tmp_path / "intervals.xml"
    save_batch(WIDER, xml)
    expected = read_back(xml)
    report = irshape.check_file(xml)
    assert not report.errors, [d.message for d in report.errors]
    inferred = {layer.name: layer.outputs for layer in report.layers}
    narrower = []
    for case in WIDER:
        (openvino,) = [parse_partial_shape(shape.strip("[]")) for shape, _ in expected[case.cid]]
        (ours,) = inferred[case.cid]
        assert ours.dims is not None and openvino.dims is not None
        if any(not (o.lo <= t.lo and t.hi <= o.hi) for o, t in zip(ours.dims, openvino.dims, strict=True)):
            narrower.append(f"{case.cid}: OpenVINO {openvino}, irshape {ours}")
    assert not narrower, narrower
