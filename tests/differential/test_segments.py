"""SegmentMax-16 against OpenVINO (read_model of saved files): data of rank 1 to 4, segment_ids
from a Const (sorted, with gaps) or a Parameter, num_segments from a Const (also -1), a
Parameter or absent, static, ``?``, interval and dynamic-rank inputs, both fill modes. Mutants
read_model rejects (unsorted ids, ranks, lengths, element types) are errors on the layer; a
declared dim off by one is IRS301."""

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


def draw_segment_max(rng: random.Random) -> Callable[[], ov.Node]:
    rows = rng.randint(1, 6)
    dims = [rows] + [rng.randint(1, 4) for _ in range(rng.randint(0, 3))]
    data = shape(rng, dims)
    ids = sorted(rng.randint(0, 5) for _ in range(rows))
    ids_type = rng.choice([np.int32, np.int64])
    ids_style, count_style = (
        rng.choice(["const", "const", "parameter"]),
        rng.choice(["const", "parameter", "none"]),
    )
    count = rng.choice([max(ids) + 1, max(ids) + 3, -1])
    ids_shape = shape(rng, [rows])
    element_type, mode = rng.choice([np.float32, np.float16, np.int32]), rng.choice(["ZERO", "LOWEST"])

    def build() -> ov.Node:
        id_input = (
            ov16.constant(np.array(ids, ids_type)) if ids_style == "const" else parameter(ids_shape, ids_type)
        )
        args = [parameter(data, element_type), id_input]
        if count_style == "const":
            args.append(ov16.constant(np.array(count, ids_type)))
        elif count_style == "parameter":
            args.append(parameter([], ids_type))
        return ov16.segment_max(*args, fill_mode=mode)

    return build


CASES = draw_cases("sm", "SegmentMax-16", draw_segment_max, random.Random(SEED), 150)
BATCHES = batches(CASES)
STATS["SegmentMax cases (tests/differential/test_segments.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"segments{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"segments{index}", BATCHES[index], tmp_path)


def _segment_max() -> ov.Node:
    inputs = named_inputs(parameter([4, 3]), parameter([4], np.int32), parameter([], np.int32))
    return ov16.segment_max(*inputs, fill_mode="ZERO")


MUTANTS = [
    Mutant("scalar data", _segment_max, set_input_shape(0, []), "IRS211"),
    Mutant("2D ids", _segment_max, set_input_shape(1, [4, 1]), "IRS211"),
    Mutant("ids length", _segment_max, set_input_shape(1, [5]), "IRS212"),
    Mutant("1D num_segments", _segment_max, set_input_shape(2, [1]), "IRS211"),
    Mutant("f32 ids", _segment_max, set_input_type(1, "f32", "FP32"), "IRS213"),
    Mutant("u8 num_segments", _segment_max, set_input_type(2, "u8", "U8"), "IRS213"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
