"""The reductions against OpenVINO (read_model of saved files): data of rank 0..5 (boolean for
the logical ones), axes as Consts (scalar or 1D, negative, duplicated, empty) and as Parameters
(OpenVINO's answers without values: ``?`` dims of known rank with keep_dims, one axis drops the
rank, more leave it unknown), keep_dims both ways; mutants read_model rejects; a declared dim
off by one."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset4 as ov4
import pytest

from .conftest import STATS
from .family_suite import (
    Mutant,
    check_dim_mutant,
    check_mutant,
    check_valid,
    draw_cases,
    named_inputs,
    set_input_shape,
    set_input_type,
    shape,
)
from .ops_harness import OpCase, OpsBatchRunner, batches, constant, parameter, params

SEED = 20261126
PER_OP = 105

REDUCTIONS: dict[str, Callable[..., ov.Node]] = {
    "ReduceMean-1": ov1.reduce_mean,
    "ReduceSum-1": ov1.reduce_sum,
    "ReduceMax-1": ov1.reduce_max,
    "ReduceMin-1": ov1.reduce_min,
    "ReduceProd-1": ov1.reduce_prod,
    "ReduceL1-4": ov4.reduce_l1,
    "ReduceL2-4": ov4.reduce_l2,
    "ReduceLogicalAnd-1": ov1.reduce_logical_and,
    "ReduceLogicalOr-1": ov1.reduce_logical_or,
}


def _axes_input(rng: random.Random, rank: int) -> Callable[[], ov.Node] | None:
    """Axes as a Const (scalar, 1D, negative, duplicated) or a Parameter of some shape."""
    kinds = [
        "const",
        "const",
        "const",
        "scalar",
        "empty",
        "param",
        "param_scalar",
        "param_dyn",
        "param_interval",
    ]
    kind = rng.choice(kinds)
    axis_type = rng.choice([np.int64, np.int32])
    span = max(rank, 1)
    if kind == "const":
        count = rng.randint(1, span + 1)
        values = [rng.randint(-span, span - 1) for _ in range(count)]
        return lambda: constant(values, axis_type)
    if kind == "scalar":
        value = rng.randint(-span, span - 1)
        return lambda: constant(value, axis_type)
    if kind == "empty":
        return lambda: ov.op.Constant(ov.Type.i64, ov.Shape([0]), [])
    if kind == "param_interval":
        lo = rng.randint(0, 1)
        hi = rng.randint(lo, 2)
        return lambda: parameter(ov.PartialShape([ov.Dimension(lo, hi)]), axis_type)
    if kind == "param":
        length = rng.randint(1, 3)
        return lambda: parameter([length], axis_type)
    if kind == "param_scalar":
        return lambda: parameter([], axis_type)
    return lambda: parameter(ov.PartialShape([ov.Dimension()]), axis_type)


def _draw(op: str) -> Callable[[random.Random], Callable[[], ov.Node] | None]:
    build_op = REDUCTIONS[op]
    logical = "Logical" in op

    def draw(rng: random.Random) -> Callable[[], ov.Node] | None:
        rank = rng.randint(0, 5)
        data = shape(rng, [rng.randint(1, 6) for _ in range(rank)])
        data_type = bool if logical else rng.choice([np.float32, np.float32, np.int32, np.float16])
        axes = _axes_input(rng, rank)
        keep_dims = rng.random() < 0.5
        if axes is None:
            return None
        return lambda: build_op(parameter(data, data_type), axes(), keep_dims)

    return draw


def _cases() -> list:
    rng = random.Random(SEED)
    cases = []
    for index, op in enumerate(REDUCTIONS):
        cases += draw_cases(f"r{index}", op, _draw(op), rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["reduction cases (tests/differential/test_reduction.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case) -> None:
    check_valid(ops_runner, f"reduction{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(0, len(BATCHES), 2))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"reduction{index}", BATCHES[index], tmp_path)


def _reduce(
    op: str, data: list[int], axes: list[int] | int, keep_dims: bool = False
) -> Callable[[], ov.Node]:
    data_type = bool if "Logical" in op else np.float32
    return lambda: REDUCTIONS[op](named_inputs(parameter(data, data_type))[0], constant(axes), keep_dims)


def _reduce_param_axes(op: str) -> Callable[[], ov.Node]:
    data_type = bool if "Logical" in op else np.float32
    return lambda: REDUCTIONS[op](
        *named_inputs(parameter([2, 3, 4], data_type), parameter([1], np.int64)), False
    )


MUTANTS: list[Mutant] = []
for _op in REDUCTIONS:
    MUTANTS += [
        Mutant(
            f"{_op} axis out of range", _reduce(_op, [2, 3, 4], [2]), set_input_shape(0, [2, 3]), "IRS214"
        ),
        Mutant(
            f"{_op} negative axis out of range",
            _reduce(_op, [2, 3, 4], [-3], True),
            set_input_shape(0, [3, 4]),
        ),
        Mutant(f"{_op} axes rank 2", _reduce_param_axes(_op), set_input_shape(1, [1, 1]), "IRS211"),
        Mutant(f"{_op} float axes", _reduce_param_axes(_op), set_input_type(1, "f32", "FP32"), "IRS213"),
    ]
    _wrong = ("f32", "FP32") if "Logical" in _op else ("boolean", "BOOL")
    MUTANTS.append(Mutant(f"{_op} data type", _reduce_param_axes(_op), set_input_type(0, *_wrong), "IRS213"))
STATS["reduction mutants"] = len(MUTANTS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_a_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


@pytest.mark.parametrize(
    ("op", "values", "axes", "keep_dims"),
    [
        ("ReduceProd-1", [[4, 5], [2, 1]], [0], False),  # [8, 5]
        ("ReduceSum-1", [[4, 5], [2, 1]], [0], False),  # [6, 6]
        ("ReduceMax-1", [[4, 5], [9, 1]], [-2], False),  # [9, 5]
        ("ReduceMin-1", [[4, 5], [9, 7]], [0], False),  # [4, 5]
        ("ReduceSum-1", [[3], [4]], [1], False),  # [3, 4]
    ],
)
def test_a_folded_value_decides_a_backprop_output_shape(
    ops_runner: OpsBatchRunner, op: str, values: list[list[int]], axes: list[int], keep_dims: bool
) -> None:
    """The reduction's value flows on: ConvolutionBackpropData reads it as its output_shape,
    and irshape's output is OpenVINO's (which folds the Const subgraph), not a '?'."""

    def build() -> ov.Node:
        spatial = REDUCTIONS[op](constant(values), constant(axes), keep_dims)
        data, kernel = parameter([1, 2, 3, 3]), constant(np.ones((2, 4, 2, 2)), np.float32)
        return ov1.convolution_backprop_data(data, kernel, [1, 1], spatial, [0, 0], [0, 0])

    case = OpCase(f"fold_{op}_{values}_{axes}".replace(" ", "").replace(",", "_"), op, build)
    outcome = ops_runner.ops_batch(case.cid, [case]).outcome(case.cid)
    assert outcome.expected is not None and "?" not in outcome.expected[0][0]
    assert outcome.mismatch() is None, outcome.explain()


DYNAMIC_TYPES = [
    OpCase(
        f"dt_{op}", op, lambda op=op: REDUCTIONS[op](parameter([2, 3], ov.Type.dynamic), constant([1]), False)
    )
    for op in REDUCTIONS
]


@pytest.mark.parametrize("case", DYNAMIC_TYPES, ids=[c.cid for c in DYNAMIC_TYPES])
def test_dynamic_element_types_pass_through(ops_runner: OpsBatchRunner, case: OpCase) -> None:
    check_valid(ops_runner, "reduction_dynamic_types", DYNAMIC_TYPES, case)
