"""SparseFillEmptyRows-16 against OpenVINO (read_model of saved files): dense_shape and indices
from Consts (the outputs' lengths then known) or Parameters, i32 and i64, values of several
types, static, ``?``, interval and dynamic-rank inputs. Mutants read_model rejects (ranks,
lengths, index types, indices outside the dense shape) are errors on the layer; a declared dim
off by one is IRS301."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset16 as ov16
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

SEED = 20261127


def draw_sparse(rng: random.Random) -> Callable[[], ov.Node]:
    rows, columns, count = rng.randint(1, 6), rng.randint(1, 5), rng.randint(0, 6)
    pairs = [[rng.randrange(rows), rng.randrange(columns)] for _ in range(count)]
    index_type = rng.choice([np.int32, np.int64])
    value_type = rng.choice([np.float32, np.int32, np.float16])
    dense_style, indices_style = rng.choice(["const", "parameter"]), rng.choice(["const", "parameter"])
    values, dense, indices = shape(rng, [count]), shape(rng, [2]), shape(rng, [count, 2])

    def build() -> ov.Node:
        dense_input = (
            ov16.constant(np.array([rows, columns], index_type))
            if dense_style == "const"
            else parameter(dense, index_type)
        )
        indices_input = (
            ov16.constant(np.array(pairs, index_type).reshape(count, 2))
            if indices_style == "const"
            else parameter(indices, index_type)
        )
        return ov16.sparse_fill_empty_rows(
            parameter(values, value_type), dense_input, indices_input, parameter([], value_type)
        )

    return build


CASES = draw_cases("sp", "SparseFillEmptyRows-16", draw_sparse, random.Random(SEED), 150)
BATCHES = batches(CASES)
STATS["SparseFillEmptyRows cases (tests/differential/test_sparse.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"sparse{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"sparse{index}", BATCHES[index], tmp_path)


def _sparse() -> ov.Node:
    inputs = named_inputs(
        parameter([3]), parameter([2], np.int64), parameter([3, 2], np.int64), parameter([])
    )
    return ov16.sparse_fill_empty_rows(*inputs)


MUTANTS = [
    Mutant("2D values", _sparse, set_input_shape(0, [3, 1]), "IRS211"),
    Mutant("dense of 3", _sparse, set_input_shape(1, [3]), "IRS211"),
    Mutant("indices of 3 columns", _sparse, set_input_shape(2, [3, 3]), "IRS212"),
    Mutant("indices length", _sparse, set_input_shape(2, [4, 2]), "IRS212"),
    Mutant("1D default", _sparse, set_input_shape(3, [1]), "IRS211"),
    Mutant("i32 indices", _sparse, set_input_type(2, "i32", "I32"), "IRS213"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
