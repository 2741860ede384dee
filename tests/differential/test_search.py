"""Bucketize-3 and SearchSorted-15 against OpenVINO (read_model of saved files): data, buckets,
sorted sequences and values of ranks 0..4 (static, ``?``, interval, dynamic rank), every numeric
element type, both output types. Mutants read_model rejects (buckets not 1D, a boolean input, an
output_type other than i32 or i64, a scalar sorted sequence, ranks or leading dims that differ)
are errors on the layer; a declared dim off by one is IRS301/IRS302."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset3 as ov3
import openvino.opset15 as ov15
import pytest

from .conftest import STATS
from .family_suite import (
    Mutant,
    check_dim_mutant,
    check_mutant,
    check_valid,
    draw_cases,
    named_inputs,
    set_attribute,
    set_input_shape,
    set_input_type,
    shape,
)
from .ops_harness import OpCase, OpsBatchRunner, batches, parameter, params

SEED = 20261125
PER_OP = 120
TYPES = (np.float32, np.float32, np.float16, np.int32, np.int64, np.uint8, np.int8)


def draw_bucketize(rng: random.Random) -> Callable[[], ov.Node]:
    data = shape(rng, [rng.randint(1, 5) for _ in range(rng.randint(0, 4))])
    buckets = shape(rng, [rng.randint(1, 6)])
    data_type, buckets_type = rng.choice(TYPES), rng.choice(TYPES)
    output_type, right = rng.choice(["i64", "i32"]), rng.random() < 0.5
    return lambda: ov3.bucketize(
        parameter(data, data_type), parameter(buckets, buckets_type), output_type, right
    )


def draw_search_sorted(rng: random.Random) -> Callable[[], ov.Node]:
    rank = rng.randint(1, 4)
    leading = [rng.randint(1, 4) for _ in range(rank - 1)]
    sorted_dims = [*leading, rng.randint(1, 6)]
    values_dims = [*leading, rng.randint(1, 6)]
    if rank == 1:
        values_dims = [rng.randint(1, 5) for _ in range(rng.randint(0, 3))]
    sorted_shape, values_shape = shape(rng, sorted_dims), shape(rng, values_dims)
    element_type = rng.choice(TYPES)
    right, output_type = rng.random() < 0.5, rng.choice(["i64", "i32"])
    return lambda: ov15.search_sorted(
        parameter(sorted_shape, element_type), parameter(values_shape, element_type), right, output_type
    )


DRAWS = {"Bucketize-3": draw_bucketize, "SearchSorted-15": draw_search_sorted}


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, draw) in zip(("bk", "ss"), DRAWS.items(), strict=True):
        cases += draw_cases(prefix, op, draw, rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["search cases (tests/differential/test_search.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"search{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"search{index}", BATCHES[index], tmp_path)


def _bucketize() -> ov.Node:
    return ov3.bucketize(*named_inputs(parameter([2, 3]), parameter([4])), "i64", True)


def _search_sorted(sorted_dims: list[int], values_dims: list[int]) -> Callable[[], ov.Node]:
    return lambda: ov15.search_sorted(*named_inputs(parameter(sorted_dims), parameter(values_dims)))


MUTANTS = [
    Mutant("bucketize buckets 2D", _bucketize, set_input_shape(1, [2, 2]), "IRS211"),
    Mutant("bucketize buckets scalar", _bucketize, set_input_shape(1, []), "IRS211"),
    Mutant("bucketize boolean data", _bucketize, set_input_type(0, "boolean", "BOOL"), "IRS213"),
    Mutant("bucketize boolean buckets", _bucketize, set_input_type(1, "boolean", "BOOL"), "IRS213"),
    Mutant("bucketize output_type f32", _bucketize, set_attribute("output_type", "f32"), "IRS112"),
    Mutant("bucketize output_type i8", _bucketize, set_attribute("output_type", "i8"), "IRS112"),
    Mutant("search sorted scalar", _search_sorted([5], [3]), set_input_shape(0, []), "IRS211"),
    Mutant("search values scalar", _search_sorted([5], [3]), set_input_shape(0, [2, 5])),
    Mutant("search ranks", _search_sorted([2, 5], [2, 3]), set_input_shape(1, [2, 1, 3]), "IRS212"),
    Mutant("search leading dim", _search_sorted([2, 5], [2, 3]), set_input_shape(1, [3, 3]), "IRS212"),
    Mutant("search types", _search_sorted([2, 5], [2, 3]), set_input_type(1, "f16", "FP16"), "IRS213"),
    Mutant("search output_type", _search_sorted([2, 5], [2, 3]), set_attribute("output_type", "u8")),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
