"""The colour conversions against OpenVINO (read_model of saved files): NV12toRGB-8, NV12toBGR-8
(one plane or Y and UV), I420toRGB-8, I420toBGR-8 (one plane or Y, U and V), RGBtoNV12-17 and
BGRtoNV12-17 (single_plane true or false), images static, ``?``, interval or of dynamic rank, u8,
f32 and f16. Mutants read_model rejects (ranks, channels, odd or non-multiple-of-3 heights,
planes that disagree, element types) are errors on the layer; a declared dim off by one is
IRS301."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset8 as ov8
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
TYPES = [np.uint8, np.uint8, np.float32, np.float16]
TO_RGB = {
    "NV12toRGB-8": ov8.nv12_to_rgb,
    "NV12toBGR-8": ov8.nv12_to_bgr,
    "I420toRGB-8": ov8.i420_to_rgb,
    "I420toBGR-8": ov8.i420_to_bgr,
}


def draw_to_rgb(op: str) -> Callable[[random.Random], Callable[[], ov.Node]]:
    def draw(rng: random.Random) -> Callable[[], ov.Node]:
        n, h, w = rng.randint(1, 3), 2 * rng.randint(1, 4), 2 * rng.randint(1, 4)
        dtype = rng.choice(TYPES)
        if rng.random() < 0.4:
            planes = [shape(rng, [n, h * 3 // 2, w, 1])]
        elif op.startswith("NV12"):
            planes = [shape(rng, [n, h, w, 1]), shape(rng, [n, h // 2, w // 2, 2])]
        else:
            planes = [shape(rng, [n, h, w, 1])] + [shape(rng, [n, h // 2, w // 2, 1]) for _ in range(2)]
        return lambda: TO_RGB[op](*(parameter(p, dtype) for p in planes))

    return draw


def draw_to_nv12(op: str) -> Callable[[random.Random], Callable[[], ov.Node]]:
    def draw(rng: random.Random) -> Callable[[], ov.Node]:
        dims = [rng.randint(1, 3), 2 * rng.randint(1, 4), 2 * rng.randint(1, 4), 3]
        image, dtype, single = shape(rng, dims), rng.choice(TYPES), rng.random() < 0.5
        return lambda: NodeFactory("opset17").create(
            op.split("-")[0], [parameter(image, dtype).output(0)], {"single_plane": single}
        )

    return draw


OPS = {op: draw_to_rgb(op) for op in TO_RGB} | {
    op: draw_to_nv12(op) for op in ("RGBtoNV12-17", "BGRtoNV12-17")
}
CASES = [
    case
    for index, (op, draw) in enumerate(OPS.items())
    for case in draw_cases(f"co{index}_", op, draw, random.Random(f"{SEED}-{op}"), 110)
]
BATCHES = batches(CASES)
STATS["colour cases (tests/differential/test_colour.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"colour{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"colour{index}", BATCHES[index], tmp_path)


def _nv12(two: bool) -> Callable[[], ov.Node]:
    planes = [[1, 4, 6, 1], [1, 2, 3, 2]] if two else [[1, 6, 6, 1]]
    return lambda: ov8.nv12_to_rgb(*named_inputs(*(parameter(p, np.uint8) for p in planes)))


def _i420(three: bool) -> Callable[[], ov.Node]:
    planes = [[1, 4, 6, 1], [1, 2, 3, 1], [1, 2, 3, 1]] if three else [[1, 6, 6, 1]]
    return lambda: ov8.i420_to_bgr(*named_inputs(*(parameter(p, np.uint8) for p in planes)))


def _to_nv12(single: bool) -> Callable[[], ov.Node]:
    return lambda: NodeFactory("opset17").create(
        "RGBtoNV12", [named_inputs(parameter([1, 4, 6, 3], np.uint8))[0].output(0)], {"single_plane": single}
    )


MUTANTS = [
    Mutant("nv12 3D", _nv12(False), set_input_shape(0, [6, 6, 1]), "IRS211"),
    Mutant("nv12 two channels", _nv12(False), set_input_shape(0, [1, 6, 6, 2]), "IRS212"),
    Mutant("nv12 height not 3/2", _nv12(False), set_input_shape(0, [1, 7, 6, 1]), "IRS212"),
    Mutant("nv12 odd width", _nv12(False), set_input_shape(0, [1, 6, 5, 1]), "IRS212"),
    Mutant("nv12 i32", _nv12(False), set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant("nv12 uv channels", _nv12(True), set_input_shape(1, [1, 2, 3, 1]), "IRS212"),
    Mutant("nv12 uv height", _nv12(True), set_input_shape(1, [1, 3, 3, 2]), "IRS212"),
    Mutant("nv12 uv f32", _nv12(True), set_input_type(1, "f32", "FP32"), "IRS213"),
    Mutant("i420 height not 3/2", _i420(False), set_input_shape(0, [1, 8, 6, 1]), "IRS212"),
    Mutant("i420 u width", _i420(True), set_input_shape(1, [1, 2, 4, 1]), "IRS212"),
    Mutant("i420 u and v channels", _i420(True), set_input_shape(2, [1, 2, 3, 2]), "IRS212"),
    Mutant("i420 v f16", _i420(True), set_input_type(2, "f16", "FP16"), "IRS213"),
    Mutant("i420 y batch", _i420(True), set_input_shape(0, [2, 4, 6, 1]), "IRS212"),
    Mutant("to nv12 4 channels", _to_nv12(True), set_input_shape(0, [1, 4, 6, 4]), "IRS212"),
    Mutant("to nv12 odd height", _to_nv12(True), set_input_shape(0, [1, 5, 6, 3]), "IRS212"),
    Mutant("to nv12 odd width", _to_nv12(False), set_input_shape(0, [1, 4, 7, 3]), "IRS212"),
    Mutant("to nv12 5D", _to_nv12(True), set_input_shape(0, [1, 1, 4, 6, 3]), "IRS211"),
    Mutant("to nv12 i8", _to_nv12(True), set_input_type(0, "i8", "I8"), "IRS213"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
