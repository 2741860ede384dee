"""The priors family's kernels against OpenVINO's CPU plugin: PriorBox-1/8 (min and max sizes,
aspect ratios with and without flip, clip, steps 0 and given, scale_all_sizes off,
fixed sizes with densities and fixed ratios, both min_max_aspect_ratios_order, 0, 1 and 4
variances) and PriorBoxClustered-1 (steps, step_w/step_h, offsets, clip, variances), the
sizes fed as i32 or i64 Parameters (the CPU plugin's kernel runs) or ShapeOf -> Gather of a
feature map's and an image's shapes (OpenVINO folds the layer with its reference at compile
time, as in every SSD model; the plugin has no PriorBox-8 kernel: 'Unexpected op type in
PriorBox shape inference factory', so PriorBox-8 is tested folded only), and
ExperimentalDetectronPriorGridGenerator-6 (strides, grids, flatten)."""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino.opset1 as ov1
import openvino.opset8 as ov8
import pytest
from openvino.utils.node_factory import NodeFactory

from .harness import Case, parameter
from .kernel_data import Batches

SIZE_TYPES: list[Any] = [np.int32, np.int64]


def _sizes(rng: np.random.Generator, i: int, folded: bool) -> tuple[dict[Any, np.ndarray], Any, Any]:
    """The sizes as i32/i64 Parameters (the plugin's PriorBox kernel runs), or ``folded``: the
    [H, W] of a feature map's and an image's shapes, as models have them (OpenVINO then folds
    the layer at compile time with its reference implementation)."""
    size_type = SIZE_TYPES[i % 2]
    height, width = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    image = [int(rng.integers(16, 120)), int(rng.integers(16, 120))]
    if not folded:
        out_node, image_node = parameter((2,), size_type), parameter((2,), size_type)
        feed = {out_node: np.array([height, width], size_type), image_node: np.array(image, size_type)}
        return feed, out_node, image_node
    feature_map, picture = parameter((1, 2, height, width)), parameter((1, 3, *image))
    feed = {
        feature_map: np.zeros((1, 2, height, width), np.float32),
        picture: np.zeros((1, 3, *image), np.float32),
    }
    spatial = ov1.constant(np.array([2, 3], np.int64))
    axis = ov1.constant(np.array(0, np.int64))
    out_node, image_node = (
        ov8.gather(ov8.shape_of(node, "i64" if size_type == np.int64 else "i32"), spatial, axis)
        for node in (feature_map, picture)
    )
    return feed, out_node, image_node


def _reals(rng: np.random.Generator, count: int, lo: float, hi: float) -> list[float]:
    return [round(float(v), 2) for v in rng.uniform(lo, hi, count)]


def _variance(rng: np.random.Generator, i: int) -> list[float]:
    return [[], [0.1], [0.1, 0.1, 0.2, 0.2], _reals(rng, 4, 0.05, 0.5)][i % 4]


def _size_attrs(rng: np.random.Generator, i: int) -> dict[str, Any]:
    """min/max sizes with aspect ratios (the SSD way)."""
    mins = _reals(rng, int(rng.integers(1, 3)), 4.0, 60.0)
    scale_all = i % 5 != 4
    maxes = [m + float(rng.integers(5, 40)) for m in mins] if scale_all and i % 3 else []
    if not scale_all:  # mxnet's: sizes are fractions of the image
        mins = _reals(rng, int(rng.integers(1, 3)), 0.05, 0.9)
    ratios = [[], [2.0], [2.0, 3.0], [0.5, 2.0], _reals(rng, 2, 0.3, 4.0)][i % 5]
    step = [0.0, float(rng.integers(4, 32)), 0.125 if not scale_all else 8.0][i % 3]
    return {
        "min_size": mins,
        "max_size": maxes,
        "aspect_ratio": ratios,
        "flip": bool(i % 2),
        "clip": bool(i % 3 == 0),
        "step": step,
        "offset": [0.5, 0.0, 0.25][i % 3],
        "variance": _variance(rng, i),
        "scale_all_sizes": scale_all,
    }


def _fixed_attrs(rng: np.random.Generator, i: int) -> dict[str, Any]:
    """fixed sizes with one density each, with or without fixed ratios (face detectors' way)."""
    count = int(rng.integers(1, 3))
    fixed = [float(rng.integers(8, 64)) for _ in range(count)]
    density = [float(rng.integers(1, 4)) for _ in range(count)]
    ratios = [[], [2.0]][i % 2]
    attrs: dict[str, Any] = {
        "fixed_size": fixed,
        "density": density,
        "aspect_ratio": ratios,
        "flip": False,
        "clip": bool(i % 3 == 0),
        "step": [0.0, 16.0][i % 2],
        "offset": 0.5,
        "variance": _variance(rng, i),
    }
    if i % 4 == 1:  # as many fixed ratios as aspect ratios: the plugin's count and loop agree
        attrs["fixed_ratio"] = [1.0, 2.0]
    return attrs


def prior_box_cases() -> list[Case]:
    rng = np.random.default_rng(40)
    cases = []
    for i in range(80):
        version = 8 if i % 2 else 1
        feed, out_node, image_node = _sizes(rng, i, folded=version == 8 or i % 4 == 2)
        attrs = _fixed_attrs(rng, i) if i % 4 == 3 else _size_attrs(rng, i)
        if version == 8:
            attrs["min_max_aspect_ratios_order"] = i % 3 != 1
            node = ov8.prior_box(out_node, image_node, attrs)
        else:
            node = ov1.prior_box(out_node, image_node, attrs)
        cases.append(Case(f"prior_box{version}_{i}", feed, [node.output(0)]))
    return cases


def prior_box_clustered_cases() -> list[Case]:
    rng = np.random.default_rng(41)
    cases = []
    for i in range(40):
        feed, out_node, image_node = _sizes(rng, i, folded=i % 3 == 2)
        count = int(rng.integers(1, 5))
        steps = [(0.0, 0.0, 0.0), (16.0, 0.0, 0.0), (0.0, 8.0, 12.0), (10.0, 6.0, 0.0)][i % 4]
        attrs = {
            "width": _reals(rng, count, 1.0, 90.0),
            "height": _reals(rng, count, 1.0, 90.0),
            "clip": bool(i % 2),
            "step": steps[0],
            "step_w": steps[1],
            "step_h": steps[2],
            "offset": [0.5, 0.25, 0.3][i % 3],
            "variance": _variance(rng, i),
        }
        node = ov1.prior_box_clustered(out_node, image_node, attrs)
        cases.append(Case(f"prior_box_clustered_{i}", feed, [node.output(0)]))
    return cases


def prior_grid_cases() -> list[Case]:
    """Strides given or from the image's size, grids from the feature map or the same h x w
    given, flattened or not, f32 and f16."""
    rng = np.random.default_rng(42)
    factory = NodeFactory("opset6")
    cases = []
    for i in range(30):
        count, height, width = int(rng.integers(1, 5)), int(rng.integers(1, 6)), int(rng.integers(1, 6))
        dtype = [np.float32, np.float16][i % 5 == 4]
        priors = rng.normal(0, 20, (count, 4)).astype(dtype)
        image = (1, 3, int(rng.integers(16, 100)), int(rng.integers(16, 100)))
        nodes = (
            parameter(priors.shape, dtype),
            parameter((1, 8, height, width), dtype),
            parameter(image, dtype),
        )
        strides = [(0.0, 0.0), (8.0, 16.0), (4.5, 0.0)][i % 3]
        attrs = {
            "flatten": bool(i % 2),
            "h": height if i % 4 == 1 else 0,
            "w": width if i % 4 == 1 else 0,
            "stride_x": strides[0],
            "stride_y": strides[1],
        }
        node = factory.create("ExperimentalDetectronPriorGridGenerator", [n.output(0) for n in nodes], attrs)
        feed = {
            nodes[0]: priors,
            nodes[1]: np.zeros((1, 8, height, width), dtype),
            nodes[2]: np.zeros(image, dtype),
        }
        cases.append(Case(f"prior_grid_{i}", feed, [node.output(0)]))
    return cases


def fuzz_found_cases() -> list[Case]:
    """What the kernel fuzzer (test_kernel_fuzz_roi.py) found: the plugin's PriorBox node
    centres a fixed size's density grid from half the truncated size as a float (63: 31.5,
    where OpenVINO's folding takes 31); it runs PriorBox-8 too, where its
    min_max_aspect_ratios_order is true (otherwise it refuses it)."""
    cases = []
    fixed = [
        {"fixed_size": [63.0], "density": [2.0]},
        {"fixed_size": [63.5, 31.0], "density": [3.0, 1.0], "aspect_ratio": [2.0]},
        {"fixed_size": [45.0], "density": [2.0], "fixed_ratio": [0.5, 2.0], "aspect_ratio": [3.0]},
    ]
    for i, extra in enumerate(fixed):
        out_node, image_node = parameter((2,), np.int32), parameter((2,), np.int32)
        feed = {out_node: np.array([2, 3], np.int32), image_node: np.array([100, 90], np.int32)}
        attrs: dict[str, Any] = {"min_size": [], "step": 16.0, "offset": 0.5, "clip": False, "flip": False}
        attrs.update(extra)
        node = ov1.prior_box(out_node, image_node, attrs)
        cases.append(Case(f"fuzz_prior_box_density_{i}", feed, [node.output(0)]))
    # PriorBox-8 of min_max_aspect_ratios_order true runs as the plugin's PriorBox-1 node
    out_node, image_node = parameter((2,), np.int32), parameter((2,), np.int32)
    feed = {out_node: np.array([1, 2], np.int32), image_node: np.array([16, 300], np.int32)}
    attrs = {"fixed_size": [53.0, 16.38], "density": [3.0, 1.0], "aspect_ratio": [2.0], "flip": True}
    attrs.update(step=0.125, offset=0.0, variance=[0.1, 0.1, 0.2, 0.2], min_max_aspect_ratios_order=True)
    node = ov8.prior_box(out_node, image_node, attrs)
    cases.append(Case("fuzz_prior_box8_density", feed, [node.output(0)]))
    return cases


CASES = {
    "prior_box": prior_box_cases(),
    "prior_box_clustered": prior_box_clustered_cases(),
    "prior_grid": prior_grid_cases(),
    "fuzz_found": fuzz_found_cases(),
}
ALL = [(name, case) for name, cases in CASES.items() for case in cases]


@pytest.fixture(scope="module")
def batches(tmp_path_factory: pytest.TempPathFactory) -> Batches:
    return Batches(CASES, tmp_path_factory)


@pytest.mark.parametrize(("suite", "case"), ALL, ids=[case.name for _, case in ALL])
def test_kernel_matches_openvino(batches: Batches, suite: str, case: Case) -> None:
    problem = batches[suite].mismatch(case)
    assert problem is None, problem
