"""GroupedMatMul-17 against OpenVINO (read_model of saved files): 3D x 3D and 2D x 3D with
offsets, static, ``?``, interval and dynamic-rank inputs, f32, f16 and i32. Mutants read_model
rejects (groups or inner sizes that differ, missing or 2D offsets, types, unsupported ranks) are
errors on the layer; a declared dim off by one is IRS301."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import pytest
from openvino.utils.node_factory import NodeFactory

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
from .ops_harness import OpCase, OpsBatchRunner, batches, parameter, params

SEED = 20261127


def _grouped(*inputs: ov.Node) -> ov.Node:
    return NodeFactory("opset17").create("GroupedMatMul", [i.output(0) for i in inputs], {})


def draw_grouped(rng: random.Random) -> Callable[[], ov.Node]:
    groups, m, n, k = (rng.randint(1, 5) for _ in range(4))
    element_type = rng.choice([np.float32, np.float32, np.float16, np.int32])
    if rng.random() < 0.5:
        a, b = shape(rng, [groups, m, k]), shape(rng, [groups, n, k])
        return lambda: _grouped(parameter(a, element_type), parameter(b, element_type))
    a, b, offsets = shape(rng, [rng.randint(1, 9), k]), shape(rng, [groups, n, k]), shape(rng, [groups])
    offsets_type = rng.choice([np.int32, np.int64])
    return lambda: _grouped(
        parameter(a, element_type), parameter(b, element_type), parameter(offsets, offsets_type)
    )


CASES = draw_cases("gm", "GroupedMatMul-17", draw_grouped, random.Random(SEED), 150)
BATCHES = batches(CASES)
STATS["GroupedMatMul cases (tests/differential/test_grouped_matmul.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"grouped{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"grouped{index}", BATCHES[index], tmp_path)


def _batched() -> ov.Node:
    return _grouped(*named_inputs(parameter([2, 3, 4]), parameter([2, 5, 4])))


def _moe() -> ov.Node:
    return _grouped(*named_inputs(parameter([6, 4]), parameter([2, 5, 4]), parameter([2], np.int32)))


MUTANTS = [
    Mutant("3D groups", _batched, set_input_shape(1, [3, 5, 4]), "IRS212"),
    Mutant("3D inner", _batched, set_input_shape(1, [2, 5, 3]), "IRS212"),
    Mutant("3D types", _batched, set_input_type(1, "f16", "FP16"), "IRS213"),
    Mutant("4D a", _batched, set_input_shape(0, [1, 2, 3, 4]), "IRS211"),
    Mutant("2D b", _batched, set_input_shape(1, [5, 4]), "IRS211"),
    Mutant("2D inner", _moe, set_input_shape(0, [6, 3]), "IRS212"),
    Mutant("2D offsets", _moe, set_input_shape(2, [2, 1]), "IRS211"),
    Mutant("f32 offsets", _moe, set_input_type(2, "f32", "FP32"), "IRS213"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
