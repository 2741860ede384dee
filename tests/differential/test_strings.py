"""StringTensorUnpack-15 and StringTensorPack-15 against OpenVINO (read_model of saved files):
string tensors and begins/ends of rank 0 to 3, static, ``?``, interval or of dynamic rank, i32
and i64 indices. Mutants read_model rejects (element types, begins unlike ends, 2D symbols) are
errors on the layer; a declared dim off by one is IRS301."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
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
    set_input_shape,
    set_input_type,
    shape,
)
from .ops_harness import OpCase, OpsBatchRunner, batches, parameter, params

SEED = 20261127


def _dims(rng: random.Random) -> list[int]:
    return [rng.randint(1, 5) for _ in range(rng.randint(0, 3))]


def draw_unpack(rng: random.Random) -> Callable[[], ov.Node]:
    data = shape(rng, _dims(rng))
    return lambda: ov15.string_tensor_unpack(parameter(data, ov.Type.string))


def draw_pack(rng: random.Random) -> Callable[[], ov.Node]:
    dims = _dims(rng)
    begins, ends, symbols = shape(rng, dims), shape(rng, dims), shape(rng, [rng.randint(0, 30)])
    index_type = rng.choice([np.int32, np.int64])
    return lambda: ov15.string_tensor_pack(
        parameter(begins, index_type), parameter(ends, index_type), parameter(symbols, np.uint8)
    )


OPS = {"StringTensorUnpack-15": draw_unpack, "StringTensorPack-15": draw_pack}
CASES = [
    case
    for index, (op, draw) in enumerate(OPS.items())
    for case in draw_cases(f"st{index}_", op, draw, random.Random(f"{SEED}-{op}"), 110)
]
BATCHES = batches(CASES)
STATS["string tensor cases (tests/differential/test_strings.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"strings{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"strings{index}", BATCHES[index], tmp_path)


def _unpack() -> ov.Node:
    return ov15.string_tensor_unpack(*named_inputs(parameter([2, 3], ov.Type.string)))


def _pack() -> ov.Node:
    inputs = named_inputs(parameter([2, 3], np.int32), parameter([2, 3], np.int32), parameter([10], np.uint8))
    return ov15.string_tensor_pack(*inputs)


MUTANTS = [
    Mutant("unpack f32", _unpack, set_input_type(0, "f32", "FP32"), "IRS213"),
    Mutant("pack i64 ends", _pack, set_input_type(1, "i64", "I64"), "IRS213"),
    Mutant("pack f32 begins and ends", _pack, set_input_type(0, "f32", "FP32"), "IRS213"),
    Mutant("pack i8 symbols", _pack, set_input_type(2, "i8", "I8"), "IRS213"),
    Mutant("pack 2D symbols", _pack, set_input_shape(2, [10, 1]), "IRS211"),
    Mutant("pack scalar symbols", _pack, set_input_shape(2, []), "IRS211"),
    Mutant("pack ends shape", _pack, set_input_shape(1, [2, 4]), "IRS212"),
    Mutant("pack ends rank", _pack, set_input_shape(1, [6]), "IRS212"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
