"""FakeConvert-13 against OpenVINO (read_model of saved files): data of rank 0 to 4 with scales
(and shifts) broadcast into it, static, ``?``, interval or of dynamic rank, f32, f16, bf16,
both destination types. Mutants read_model rejects (mixed or integer types, a scale that widens
the data or does not broadcast, shift unlike scale, another destination type) are errors on the
layer; a declared dim off by one is IRS301."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import openvino as ov
import openvino.opset13 as ov13
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

SEED = 20261127
TYPES = [ov.Type.f32, ov.Type.f32, ov.Type.f16, ov.Type.bf16]


def draw_fake_convert(rng: random.Random) -> Callable[[], ov.Node]:
    dims = [rng.randint(1, 5) for _ in range(rng.randint(0, 4))]
    # the scale: trailing axes of the data, some of them 1
    scale_dims = [d if rng.random() < 0.5 else 1 for d in dims[len(dims) - rng.randint(0, len(dims)) :]]
    data, scale = shape(rng, dims), shape(rng, scale_dims)
    shift = shape(rng, scale_dims) if rng.random() < 0.5 else None
    element_type, target = rng.choice(TYPES), rng.choice(["f8e4m3", "f8e5m2"])

    def build() -> ov.Node:
        args = [parameter(data, element_type), parameter(scale, element_type)]
        if shift is not None:
            args.append(parameter(shift, element_type))
        return ov13.fake_convert(*args, destination_type=target)

    return build


CASES = draw_cases("fc", "FakeConvert-13", draw_fake_convert, random.Random(SEED), 150)
BATCHES = batches(CASES)
STATS["FakeConvert cases (tests/differential/test_fake_convert.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"fake_convert{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"fake_convert{index}", BATCHES[index], tmp_path)


def _fake_convert() -> ov.Node:
    inputs = named_inputs(parameter([2, 3, 4]), parameter([3, 1]), parameter([3, 1]))
    return ov13.fake_convert(*inputs)


MUTANTS = [
    Mutant("mixed types", _fake_convert, set_input_type(1, "f16", "FP16"), "IRS213"),
    Mutant("integer data", _fake_convert, set_input_type(0, "i32", "I32"), None),
    Mutant("f64 everywhere", _fake_convert, set_input_type(0, "f64", "FP64"), None),
    Mutant("scale widens data", _fake_convert, set_input_shape(1, [5, 3, 1]), None),
    Mutant("scale does not broadcast", _fake_convert, set_input_shape(1, [2, 1]), None),
    Mutant("shift unlike scale", _fake_convert, set_input_shape(2, [3, 4]), "IRS212"),
    Mutant("destination f16", _fake_convert, set_attribute("destination_type", "f16"), None),
    Mutant("destination i8", _fake_convert, set_attribute("destination_type", "i8"), None),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
