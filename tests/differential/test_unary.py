"""The element-wise unary ops and Convert against OpenVINO, through the shared harness
(tests/differential/ops_harness.py): static, dynamic, interval and dynamic-rank inputs of
rank 0 to 5, every op of irshape.shapes.elementwise.same_shape with one input, and Convert to
every common element type. A declared dim off by one is an error on the layer."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import openvino as ov
import openvino.opset1 as ov1
import openvino.opset4 as ov4
import openvino.opset5 as ov5
import openvino.opset7 as ov7
import openvino.opset9 as ov9
import openvino.opset16 as ov16
import pytest

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    as_partial,
    assert_dim_off_by_one_is_an_error,
    batches,
    parameter,
    params,
)

SEED = 20261124
PER_OP = 100

UNARY: dict[str, Callable[[ov.Node], ov.Node]] = {
    "Relu-1": ov1.relu,
    "Sigmoid-1": ov1.sigmoid,
    "Tanh-1": ov1.tanh,
    "Abs-1": ov1.abs,
    "Ceiling-1": ov1.ceiling,
    "Cos-1": ov1.cos,
    "Erf-1": ov1.erf,
    "Exp-1": ov1.exp,
    "Floor-1": ov1.floor,
    "Log-1": ov1.log,
    "Negative-1": ov1.negative,
    "Sign-1": ov1.sign,
    "Sin-1": ov1.sin,
    "Sqrt-1": ov1.sqrt,
    "Elu-1": lambda x: ov1.elu(x, 0.5),
    "Clamp-1": lambda x: ov1.clamp(x, -1.0, 6.0),
    "HSwish-4": ov4.hswish,
    "Mish-4": ov4.mish,
    "SoftPlus-4": ov4.softplus,
    "Swish-4": ov4.swish,
    "HSigmoid-5": ov5.hsigmoid,
    "Round-5": lambda x: ov5.round(x, "half_away_from_zero"),
    "Gelu-7": lambda x: ov7.gelu(x, "tanh"),
    "SoftSign-9": ov9.softsign,
}
CONVERT_TO = ("f16", "f32", "i32", "i64", "u8", "boolean")
STYLES = ("static", "static", "dynamic", "interval", "rank")


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases: list[OpCase] = []

    def shape() -> ov.PartialShape:
        return as_partial(rng, [rng.randint(1, 9) for _ in range(rng.randint(0, 5))], rng.choice(STYLES))

    for op, build in UNARY.items():
        for _ in range(PER_OP):
            data = shape()
            cases.append(OpCase(f"u{len(cases):05d}", op, lambda b=build, d=data: b(parameter(d))))
    for _ in range(PER_OP):
        data, target = shape(), rng.choice(CONVERT_TO)
        cases.append(
            OpCase(f"u{len(cases):05d}", "Convert-1", lambda d=data, t=target: ov16.convert(parameter(d), t))
        )
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["unary and Convert cases (tests/differential/test_unary.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_unary_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    batch = ops_runner.ops_batch(f"unary{index}", BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


@pytest.mark.parametrize("index", range(0, len(BATCHES), 7))
def test_a_declared_dim_off_by_one_is_an_error_on_that_layer(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    batch = ops_runner.ops_batch(f"unary{index}", BATCHES[index])
    assert_dim_off_by_one_is_an_error(batch, BATCHES[index], tmp_path)
