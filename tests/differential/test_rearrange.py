"""ReverseSequence-1 against OpenVINO (read_model of saved files): data of ranks 2..5 (static,
``?``, interval, dynamic rank), sequence lengths of every numeric element type, batch and
sequence axes positive and negative. Mutants read_model rejects (data of rank 1, lengths not
1D or boolean, an axis out of range, lengths that do not match the batch dim) are errors on the
layer; a declared dim off by one is IRS301/IRS302."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
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
PER_OP = 110
TYPES = (np.float32, np.float32, np.float16, np.int32, np.int64, np.uint8, np.int8)


def draw_reverse_sequence(rng: random.Random) -> Callable[[], ov.Node]:
    rank = rng.randint(2, 5)
    dims = [rng.randint(1, 5) for _ in range(rank)]
    batch, seq = rng.randrange(rank), rng.randrange(rank)
    lengths_dims = [dims[batch]] if rng.random() < 0.8 else [rng.randint(1, 5)]
    data, lengths = shape(rng, dims), shape(rng, lengths_dims)
    batch_axis = batch - rank if rng.random() < 0.4 else batch
    seq_axis = seq - rank if rng.random() < 0.4 else seq
    data_type, lengths_type = rng.choice(TYPES), rng.choice(TYPES)
    return lambda: ov1.reverse_sequence(
        parameter(data, data_type), parameter(lengths, lengths_type), batch_axis, seq_axis
    )


DRAWS = {"ReverseSequence-1": draw_reverse_sequence}


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, draw) in zip(("rs",), DRAWS.items(), strict=True):
        cases += draw_cases(prefix, op, draw, rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["rearrange cases (tests/differential/test_rearrange.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"rearrange{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"rearrange{index}", BATCHES[index], tmp_path)


def _reverse_sequence() -> ov.Node:
    data, lengths = named_inputs(parameter([2, 3, 4]), parameter([3], np.int32))
    return ov1.reverse_sequence(data, lengths, 1, 2)


MUTANTS = [
    Mutant("reverse sequence data rank 1", _reverse_sequence, set_input_shape(0, [3]), "IRS211"),
    Mutant("reverse sequence lengths 2D", _reverse_sequence, set_input_shape(1, [3, 1]), "IRS211"),
    Mutant("reverse sequence lengths scalar", _reverse_sequence, set_input_shape(1, []), "IRS211"),
    Mutant("reverse sequence lengths 4", _reverse_sequence, set_input_shape(1, [4]), "IRS212"),
    Mutant(
        "reverse sequence boolean lengths", _reverse_sequence, set_input_type(1, "boolean", "BOOL"), "IRS213"
    ),
    Mutant("reverse sequence batch_axis 3", _reverse_sequence, set_attribute("batch_axis", "3"), "IRS112"),
    Mutant("reverse sequence seq_axis -4", _reverse_sequence, set_attribute("seq_axis", "-4"), "IRS112"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
