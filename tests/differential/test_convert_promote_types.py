"""ConvertPromoteTypes-14 against OpenVINO (read_model of saved files): pairs of every element
type the op takes (and ``dynamic``), static, ``?``, interval, dynamic-rank and scalar inputs,
every combination of promote_unsafe, pytorch_scalar_promotion and u64_integer_promotion_target.
Mutants read_model rejects (types it cannot promote safely, types it does not take) are errors
on the layer; a declared dim off by one is IRS301."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

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
    set_attribute,
    set_input_shape,
    set_input_type,
    shape,
)
from .ops_harness import OpCase, OpsBatchRunner, batches, parameter, params

SEED = 20261127
TYPES = [
    "boolean", "f16", "f32", "f64", "bf16", "f8e4m3", "f8e5m2", "i4", "i8", "i16", "i32", "i64",
    "u1", "u4", "u8", "u16", "u32", "u64", "dynamic",
]  # fmt: skip
TARGETS = ["f32", "i64", "f16", "u64"]


def _dims(rng: random.Random) -> list[int]:
    return [] if rng.random() < 0.3 else [rng.randint(1, 5) for _ in range(rng.randint(1, 4))]


def draw_promote(rng: random.Random) -> Callable[[], ov.Node]:
    # related types more often than not, so that the safe rules accept many pairs
    first = rng.choice(TYPES)
    second = rng.choice(TYPES) if rng.random() < 0.5 else rng.choice([first, "boolean", "f32", "i64", "i32"])
    shapes = [shape(rng, _dims(rng)) for _ in range(2)]
    unsafe, scalars, target = rng.random() < 0.5, rng.random() < 0.5, rng.choice(TARGETS)
    return lambda: ov14.convert_promote_types(
        parameter(shapes[0], getattr(ov.Type, first)),
        parameter(shapes[1], getattr(ov.Type, second)),
        unsafe,
        scalars,
        target,
    )


CASES = draw_cases("cp", "ConvertPromoteTypes-14", draw_promote, random.Random(SEED), 300)
BATCHES = batches(CASES)
STATS["ConvertPromoteTypes cases (tests/differential/test_convert_promote_types.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"promote{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"promote{index}", BATCHES[index], tmp_path)


def _promote(
    first: str = "f32", second: str = "i8", unsafe: bool = False, scalars: bool = False
) -> Callable[[], ov.Node]:
    def build() -> ov.Node:
        inputs = named_inputs(
            parameter([2, 3], getattr(ov.Type, first)), parameter([3], getattr(ov.Type, second))
        )
        return ov14.convert_promote_types(*inputs, unsafe, scalars)

    return build


MUTANTS = [
    Mutant("f16 and i16, safe", _promote(second="i16"), set_input_type(0, "f16", "FP16"), "IRS213"),
    Mutant("f32 and i32, safe", _promote(second="i8"), set_input_type(1, "i32", "I32"), "IRS213"),
    Mutant("u64 and i64, safe", _promote("i64", "i32"), set_input_type(1, "u64", "U64"), "IRS213"),
    Mutant("u32 and i32, safe", _promote("i64", "u32"), set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant("f16 and bf16, safe", _promote("f16", "f16"), set_input_type(1, "bf16", "BF16"), "IRS213"),
    Mutant("f8s, safe", _promote("f8e4m3", "f8e4m3"), set_input_type(1, "f8e5m2", "F8E5M2"), "IRS213"),
    Mutant("i8 and u8, safe", _promote("i8", "i8"), set_input_type(1, "u8", "U8"), "IRS213"),
    Mutant("string input", _promote(), set_input_type(0, "string", "STRING"), "IRS213"),
    Mutant("nf4 input", _promote(), set_input_type(1, "nf4", "NF4"), "IRS213"),
    Mutant("u2 input", _promote(), set_input_type(1, "u2", "U2"), "IRS213"),
    Mutant("f4e2m1 input", _promote(), set_input_type(0, "f4e2m1", "F4E2M1"), "IRS213"),
    Mutant(
        "promote_unsafe off",
        _promote("f16", "i16", unsafe=True),
        set_attribute("promote_unsafe", "false"),
        "IRS213",
    ),
    # a scalar i16 against an i8 tensor: PyTorch's rule keeps i8, which cannot hold it safely
    Mutant("scalar too wide", _promote("i8", "i16", scalars=True), set_input_shape(1, []), "IRS213"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
