"""Inverse-14 against OpenVINO (read_model of saved files): batches of square matrices of ranks
2..5 (static, ``?``, interval, dynamic rank), real element types, adjoint or not. Mutants
read_model rejects (a 1D input, matrices that are not square, an integer type) are errors on the
layer; a declared dim off by one is IRS301/IRS302."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset14 as ov14
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
from .ops_harness import OpCase, OpsBatchRunner, batches, parameter, params

SEED = 20261125


def draw_inverse(rng: random.Random) -> Callable[[], ov.Node]:
    size = rng.randint(1, 6)
    dims = [rng.randint(1, 4) for _ in range(rng.randint(0, 3))] + [size, size]
    data = shape(rng, dims)
    element_type, adjoint = rng.choice([np.float32, np.float16, np.float64]), rng.random() < 0.5
    return lambda: ov14.inverse(parameter(data, element_type), adjoint)


CASES = draw_cases("iv", "Inverse-14", draw_inverse, random.Random(SEED), 110)
BATCHES = batches(CASES)
STATS["Inverse cases (tests/differential/test_inverse.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"inverse{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"inverse{index}", BATCHES[index], tmp_path)


def _inverse() -> ov.Node:
    return ov14.inverse(*named_inputs(parameter([2, 3, 3])), False)


MUTANTS = [
    Mutant("inverse 1D", _inverse, set_input_shape(0, [3]), "IRS211"),
    Mutant("inverse scalar", _inverse, set_input_shape(0, []), "IRS211"),
    Mutant("inverse not square", _inverse, set_input_shape(0, [2, 3, 4]), "IRS212"),
    Mutant("inverse integer", _inverse, set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant("inverse boolean", _inverse, set_input_type(0, "boolean", "BOOL"), "IRS213"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
