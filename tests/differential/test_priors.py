"""PriorBox-1, PriorBox-8, PriorBoxClustered-1 and ExperimentalDetectronPriorGridGenerator-6
against OpenVINO (read_model of saved files).

PriorBox and PriorBoxClustered: output_size a Const of several integer types (zeros, -1,
negatives among them), a Parameter (of one, two or three elements, ``?`` long, of dynamic
rank), or a ShapeOf -> Gather of a feature map's spatial dims (static, ``?`` and interval dims:
the output's bounds); image_size likewise; every attribute that changes the number of priors
(min and max sizes, aspect ratios with and without flip, near-duplicate ratios,
scale_all_sizes, fixed sizes, densities, fixed ratios; PriorBoxClustered's widths). The prior
grid: every input style and real type, flattened or not, h, w and strides given or not.

Mutants read_model rejects (real or boolean sizes, 2-D inputs, widths and heights of different
lengths, a float list it cannot parse; the grid's types that differ or are not real, ranks,
the priors' last dim, batches that differ) are errors on the layer; a declared dim off by one
is IRS301/IRS302."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
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
    param,
    set_attribute,
    set_input_shape,
    set_input_type,
    shape,
)
from .ops_harness import OpCase, OpsBatchRunner, batches, constant, parameter, params

SEED = 20261127
PER_OP = 110
SIZE_TYPES: list[Any] = [np.int64, np.int32, np.uint8, np.int16, np.uint64]
PARAMETER_TYPES: list[Any] = [np.int64, np.int32]


def _size(rng: random.Random, image: bool) -> Callable[[], ov.Node]:
    """output_size or image_size: a Const, a Parameter, or a ShapeOf -> Gather of [H, W]."""
    pick = rng.random()
    if pick < 0.4:
        values = [rng.randint(0, 6), rng.randint(1, 6)]
        if image:
            values = [rng.randint(16, 300), rng.randint(16, 300)]
        elif rng.random() < 0.15:
            values = [rng.choice([-1, -3, 0, 2]), rng.randint(1, 4)]
        size_type = rng.choice(SIZE_TYPES if min(values) >= 0 else SIZE_TYPES[:2] + SIZE_TYPES[3:4])
        return lambda: constant(values, size_type)
    if pick < 0.6:
        length = rng.choice([2, 2, 2, 1, 3])
        source = shape(rng, [length], rng.choice(["static", "dynamic", "rank"]))
        return lambda: parameter(source, rng.choice(PARAMETER_TYPES))
    dims = [1, 3, rng.randint(1, 9), rng.randint(1, 9)]
    source = shape(rng, dims, rng.choice(["static", "static", "interval", "dynamic"]))
    shape_type = rng.choice(["i64", "i32"])
    return lambda: ov8.gather(ov1.shape_of(parameter(source), shape_type), constant([2, 3]), constant(0))


def _reals(rng: random.Random, count: int, lo: float, hi: float) -> list[float]:
    return [round(rng.uniform(lo, hi), 3) for _ in range(count)]


def _prior_box_attributes(rng: random.Random, version: int) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "offset": rng.choice([0.5, 0.0, 0.25]),
        "min_size": _reals(rng, rng.randint(0, 3), 2.0, 60.0),
        "flip": rng.random() < 0.5,
        "clip": rng.random() < 0.5,
        "step": rng.choice([0.0, 8.0, 16.5]),
        "scale_all_sizes": rng.random() < 0.75,
    }
    if rng.random() < 0.5:
        attrs["max_size"] = _reals(rng, rng.randint(1, 3), 60.0, 120.0)
    # ratios, near-duplicates (1e-6 apart: one ratio) and inverses of each other among them
    attrs["aspect_ratio"] = rng.choice(
        [[], [2.0], [2.0, 3.0], [2.0, 0.5], [2.0, 2.0000001], _reals(rng, 3, 0.2, 5.0)]
    )
    if rng.random() < 0.3:
        attrs["fixed_size"] = _reals(rng, rng.randint(1, 2), 8.0, 64.0)
    if rng.random() < 0.3:
        attrs["density"] = _reals(rng, rng.randint(1, 3), 0.5, 4.0)
    if rng.random() < 0.2:
        attrs["fixed_ratio"] = _reals(rng, rng.randint(1, 3), 0.5, 3.0)
    if rng.random() < 0.5:
        attrs["variance"] = rng.choice([[0.1], [0.1, 0.1, 0.2, 0.2]])
    if version == 8:
        attrs["min_max_aspect_ratios_order"] = rng.random() < 0.5
    return attrs


def draw_prior_box(version: int) -> Callable[[random.Random], Callable[[], ov.Node]]:
    def draw(rng: random.Random) -> Callable[[], ov.Node]:
        out_size, image_size = _size(rng, False), _size(rng, True)
        attrs = _prior_box_attributes(rng, version)
        make = ov8.prior_box if version == 8 else ov1.prior_box
        return lambda: make(out_size(), image_size(), attrs)

    return draw


def draw_prior_box_clustered(rng: random.Random) -> Callable[[], ov.Node]:
    out_size, image_size = _size(rng, False), _size(rng, True)
    count = rng.randint(0, 5)
    attrs = {
        "width": _reals(rng, count, 1.0, 90.0),
        "height": _reals(rng, count, 1.0, 90.0),
        "clip": rng.random() < 0.5,
        "step_w": rng.choice([0.0, 8.0]),
        "step_h": rng.choice([0.0, 8.0]),
        "step": rng.choice([0.0, 16.0]),
        "offset": rng.choice([0.5, 0.25]),
    }
    return lambda: ov1.prior_box_clustered(out_size(), image_size(), attrs)


GRID_TYPES: list[Any] = [np.float32, np.float32, np.float16, ov.Type.bf16, np.float64]


def draw_prior_grid(rng: random.Random) -> Callable[[], ov.Node]:
    priors = [rng.randint(1, 9), 4]
    feature_map = [rng.randint(1, 3), rng.randint(1, 16), rng.randint(1, 40), rng.randint(1, 40)]
    image = [feature_map[0], 3, rng.randint(16, 640), rng.randint(16, 640)]
    real = rng.choice(GRID_TYPES)
    attrs = {
        "flatten": rng.random() < 0.5,
        "h": rng.choice([0, 0, rng.randint(1, 40)]),
        "w": rng.choice([0, 0, rng.randint(1, 40)]),
        "stride_x": rng.choice([0.0, 8.0, 16.0]),
        "stride_y": rng.choice([0.0, 8.0, 16.0]),
    }
    seed = rng.random()

    def build() -> ov.Node:
        local = random.Random(seed)
        inputs = [param(local, dims, real).output(0) for dims in (priors, feature_map, image)]
        return NodeFactory("opset6").create("ExperimentalDetectronPriorGridGenerator", inputs, attrs)

    return build


DRAWS = {
    "PriorBox-1": draw_prior_box(1),
    "PriorBox-8": draw_prior_box(8),
    "PriorBoxClustered-1": draw_prior_box_clustered,
    "ExperimentalDetectronPriorGridGenerator-6": draw_prior_grid,
}


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, draw) in zip(("pa", "pb", "pc", "pg"), DRAWS.items(), strict=True):
        cases += draw_cases(prefix, op, draw, rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["priors cases (tests/differential/test_priors.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"priors{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"priors{index}", BATCHES[index], tmp_path)


def test_the_cases_span_the_rules() -> None:
    """Output dims known by value, by bounds only (intervals), and not at all; zero priors."""
    for op in list(DRAWS)[:3]:
        found = [str(case.build().get_output_partial_shape(0)) for case in CASES if case.op == op]
        assert any(s.startswith("[2,") and s[3:-1].isdigit() and s != "[2,0]" for s in found), op
        assert "[2,?]" in found and "[2,0]" in found, op
        assert any(".." in s for s in found), op


# --- mutants --------------------------------------------------------------------------------


def _prior_box(version: int) -> Callable[[], ov.Node]:
    """PriorBox of Parameters m_in0 (output_size [2] i64) and m_in1 (image_size [2] i64)."""

    def build() -> ov.Node:
        inputs = named_inputs(parameter([2], np.int64), parameter([2], np.int64))
        attrs = {"min_size": [2.0], "aspect_ratio": [2.0], "offset": 0.5}
        return (ov8.prior_box if version == 8 else ov1.prior_box)(*inputs, attrs)

    return build


def _clustered() -> ov.Node:
    inputs = named_inputs(parameter([2], np.int64), parameter([2], np.int64))
    return ov1.prior_box_clustered(*inputs, {"width": [2.0, 3.0], "height": [4.0, 5.0], "offset": 0.5})


BUILDS = {"v1": _prior_box(1), "v8": _prior_box(8), "clustered": _clustered}
MUTANTS = [
    mutant
    for name, build in BUILDS.items()
    for mutant in (
        Mutant(f"{name} real output_size", build, set_input_type(0, "f32", "FP32"), "IRS213"),
        Mutant(f"{name} f16 image_size", build, set_input_type(1, "f16", "FP16"), "IRS213"),
        Mutant(f"{name} boolean output_size", build, set_input_type(0, "boolean", "BOOL"), "IRS213"),
        Mutant(f"{name} output_size 2-D", build, set_input_shape(0, [1, 2]), "IRS211"),
        Mutant(f"{name} image_size a scalar", build, set_input_shape(1, []), "IRS211"),
        Mutant(f"{name} variance unparsable", build, set_attribute("variance", "0.1,,0.2")),
        Mutant(f"{name} variance no number", build, set_attribute("variance", "abc")),
        Mutant(f"{name} offset no number", build, set_attribute("offset", "1e")),
    )
]
MUTANTS += [
    Mutant("clustered heights fewer", _clustered, set_attribute("height", "4"), "IRS112"),
    Mutant("clustered widths more", _clustered, set_attribute("width", "1,2,3"), "IRS112"),
    Mutant("v8 min_size past float", _prior_box(8), set_attribute("min_size", "1e400")),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


def _prior_grid() -> ov.Node:
    inputs = named_inputs(parameter([3, 4]), parameter([1, 8, 5, 6]), parameter([1, 3, 40, 48]))
    attrs = {"flatten": True, "h": 0, "w": 0, "stride_x": 0.0, "stride_y": 0.0}
    return NodeFactory("opset6").create(
        "ExperimentalDetectronPriorGridGenerator", [i.output(0) for i in inputs], attrs
    )


GRID_MUTANTS = [
    Mutant("grid f16 priors", _prior_grid, set_input_type(0, "f16", "FP16"), "IRS213"),
    Mutant("grid i32 feature map", _prior_grid, set_input_type(1, "i32", "I32"), "IRS213"),
    Mutant("grid priors of 5", _prior_grid, set_input_shape(0, [3, 5]), "IRS211"),
    Mutant("grid priors 3-D", _prior_grid, set_input_shape(0, [3, 4, 1]), "IRS211"),
    Mutant("grid feature map 3-D", _prior_grid, set_input_shape(1, [1, 8, 5]), "IRS211"),
    Mutant("grid image 5-D", _prior_grid, set_input_shape(2, [1, 3, 40, 48, 1]), "IRS211"),
    Mutant("grid batches differ", _prior_grid, set_input_shape(2, [2, 3, 40, 48]), "IRS212"),
]


@pytest.mark.parametrize("mutant", GRID_MUTANTS, ids=lambda m: m.name)
def test_grid_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
