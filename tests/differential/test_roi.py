"""ROIAlign-3 and ROIAlign-9 against OpenVINO (read_model of saved files): data of rank 4, ROIs
``[N, 4]`` and batch indices ``[N]`` static, with ``?``, intervals and of dynamic rank; data and
ROIs of each real type, batch indices of several integer types; pooled sizes, sampling ratios,
scales, both modes and every aligned_mode. Mutants read_model rejects (data not 4-D, ROIs of 5
numbers a box, different numbers of boxes, data and ROIs of different or integer types, real
batch indices, a mode it does not know) are errors on the layer; a declared dim off by one is
IRS301/IRS302."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset3 as ov3
import openvino.opset9 as ov9
import pytest

from .conftest import STATS
from .family_suite import (
    Mutant,
    check_dim_mutant,
    check_mutant,
    check_valid,
    draw_cases,
    named_inputs,
    param,
    set_attribute,
    set_input_shape,
    set_input_type,
)
from .ops_harness import OpCase, OpsBatchRunner, batches, parameter, params

SEED = 20261128
PER_OP = 110
REAL_TYPES: list[Any] = [np.float32, np.float32, np.float16, ov.Type.bf16, np.float64]
INDEX_TYPES: list[Any] = [np.int32, np.int64, np.uint8, np.int16]
ALIGNED_MODES = ("asymmetric", "half_pixel_for_nn", "half_pixel")


def draw_roi_align(version: int) -> Callable[[random.Random], Callable[[], ov.Node]]:
    def draw(rng: random.Random) -> Callable[[], ov.Node]:
        boxes = rng.randint(1, 9)
        data_dims = [rng.randint(1, 3), rng.randint(1, 8), rng.randint(2, 16), rng.randint(2, 16)]
        real, index_type = rng.choice(REAL_TYPES), rng.choice(INDEX_TYPES)
        pooled_h, pooled_w = rng.randint(1, 7), rng.randint(1, 7)
        ratio, scale = rng.randint(0, 3), rng.choice([1.0, 0.5, 0.0625, 2.0])
        mode, aligned = rng.choice(["avg", "max"]), rng.choice(ALIGNED_MODES)
        seed = rng.random()

        def build() -> ov.Node:
            local = random.Random(seed)
            data = param(local, data_dims, real)
            rois = param(local, [boxes, 4], real)
            indices = param(local, [boxes], index_type)
            if version == 3:
                return ov3.roi_align(data, rois, indices, pooled_h, pooled_w, ratio, scale, mode)
            return ov9.roi_align(data, rois, indices, pooled_h, pooled_w, ratio, scale, mode, aligned)

        return build

    return draw


DRAWS = {"ROIAlign-3": draw_roi_align(3), "ROIAlign-9": draw_roi_align(9)}


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, draw) in zip(("ra", "rb"), DRAWS.items(), strict=True):
        cases += draw_cases(prefix, op, draw, rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["roi cases (tests/differential/test_roi.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"roi{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"roi{index}", BATCHES[index], tmp_path)


def test_the_cases_span_the_rules() -> None:
    """Outputs static, with ``?`` boxes or channels, with interval boxes."""
    found = [str(case.build().get_output_partial_shape(0)) for case in CASES]
    assert any("?" not in s and ".." not in s for s in found)
    assert any(s.startswith("[?,") for s in found) and any(s.split(",")[1] == "?" for s in found)
    assert any(".." in s.split(",")[0] for s in found)


# --- mutants --------------------------------------------------------------------------------


def _roi_align(version: int) -> Callable[[], ov.Node]:
    """ROIAlign of Parameters m_in0 (data [1, 3, 8, 8] f32), m_in1 (rois [5, 4] f32), m_in2
    (batch indices [5] i32)."""

    def build() -> ov.Node:
        inputs = named_inputs(parameter([1, 3, 8, 8]), parameter([5, 4]), parameter([5], np.int32))
        if version == 3:
            return ov3.roi_align(*inputs, 2, 2, 2, 1.0, "avg")
        return ov9.roi_align(*inputs, 2, 2, 2, 1.0, "avg", "half_pixel")

    return build


MUTANTS = [
    mutant
    for version in (3, 9)
    for mutant in (
        Mutant(f"v{version} data 3-D", _roi_align(version), set_input_shape(0, [1, 3, 8]), "IRS211"),
        Mutant(f"v{version} rois 3-D", _roi_align(version), set_input_shape(1, [5, 4, 1]), "IRS211"),
        Mutant(f"v{version} indices 2-D", _roi_align(version), set_input_shape(2, [5, 1]), "IRS211"),
        Mutant(f"v{version} boxes of 5", _roi_align(version), set_input_shape(1, [5, 5]), "IRS212"),
        Mutant(f"v{version} 6 indices", _roi_align(version), set_input_shape(2, [6]), "IRS212"),
        Mutant(f"v{version} f16 data", _roi_align(version), set_input_type(0, "f16", "FP16"), "IRS213"),
        Mutant(f"v{version} i32 rois", _roi_align(version), set_input_type(1, "i32", "I32"), "IRS213"),
        Mutant(f"v{version} f32 indices", _roi_align(version), set_input_type(2, "f32", "FP32"), "IRS213"),
        Mutant(
            f"v{version} bool indices", _roi_align(version), set_input_type(2, "boolean", "BOOL"), "IRS213"
        ),
        Mutant(f"v{version} mode sum", _roi_align(version), set_attribute("mode", "sum"), "IRS112"),
        Mutant(f"v{version} pooled_h no number", _roi_align(version), set_attribute("pooled_h", "x")),
    )
]
MUTANTS += [
    Mutant("v9 aligned_mode center", _roi_align(9), set_attribute("aligned_mode", "center"), "IRS112")
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
