"""ROIAlign-3/9, ROIAlignRotated-15, ROIPooling-2, PSROIPooling-1, RegionYolo-1, ReorgYolo-2,
ExperimentalDetectronTopKROIs-6, ExperimentalDetectronROIFeatureExtractor-6 and
DeformablePSROIPooling-1 against OpenVINO (read_model of saved files).

ROIAlign: data of rank 4, ROIs ``[N, 4]`` and batch indices ``[N]`` static, with ``?``,
intervals and of dynamic rank; data and ROIs of each real type, batch indices of several
integer types; pooled sizes, sampling ratios, scales, both modes and every aligned_mode
(ROIAlignRotated-15 likewise, boxes of 5 numbers, both clockwise modes). ROIPooling: both
methods, every way of giving the pooled size. PSROIPooling: both modes, channels that match
output_dim * group_size^2 (or the bins) or not. RegionYolo: with and without do_softmax, every
axis and end_axis. ReorgYolo: strides 1 to 4, channels and spatial dims divisible or not.

Mutants read_model rejects (wrong ranks, boxes of the wrong length, different numbers of
boxes, element types, modes, attributes out of range) are errors on the layer; a declared dim
off by one is IRS301/IRS302."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset2 as ov2
import openvino.opset3 as ov3
import openvino.opset9 as ov9
import openvino.opset15 as ov15
import pytest
from openvino.utils.node_factory import NodeFactory

import irshape

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
from .ops_harness import (
    OpCase,
    OpsBatch,
    OpsBatchRunner,
    apply_mutant,
    batches,
    layer_element,
    parameter,
    params,
    read_back,
    save_batch,
)

SEED = 20261128
PER_OP = 110
REAL_TYPES: list[Any] = [np.float32, np.float32, np.float16, ov.Type.bf16, np.float64]
INDEX_TYPES: list[Any] = [np.int32, np.int64, np.uint8, np.int16]
ALIGNED_MODES = ("asymmetric", "half_pixel_for_nn", "half_pixel")


def draw_roi_align(version: int) -> Callable[[random.Random], Callable[[], ov.Node]]:
    """ROIAlign-3/9, or ROIAlignRotated-15 (``version`` 15: boxes of 5 numbers)."""

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
            rois = param(local, [boxes, 5 if version == 15 else 4], real)
            indices = param(local, [boxes], index_type)
            if version == 3:
                return ov3.roi_align(data, rois, indices, pooled_h, pooled_w, ratio, scale, mode)
            if version == 15:
                return ov15.roi_align_rotated(
                    data, rois, indices, pooled_h, pooled_w, ratio, scale, mode == "max"
                )
            return ov9.roi_align(data, rois, indices, pooled_h, pooled_w, ratio, scale, mode, aligned)

        return build

    return draw


def draw_roi_pooling(rng: random.Random) -> Callable[[], ov.Node]:
    boxes = rng.randint(1, 9)
    data_dims = [rng.randint(1, 3), rng.randint(1, 8), rng.randint(2, 16), rng.randint(2, 16)]
    real = rng.choice(REAL_TYPES)
    pooled = [rng.randint(1, 7), rng.randint(1, 7)]
    scale, method = rng.choice([1.0, 0.5, 0.0625]), rng.choice(["max", "bilinear"])
    seed = rng.random()

    def build() -> ov.Node:
        local = random.Random(seed)
        return ov2.roi_pooling(
            param(local, data_dims, real), param(local, [boxes, 5], real), pooled, scale, method
        )

    return build


def draw_region_yolo(rng: random.Random) -> Callable[[], ov.Node]:
    dims = [rng.randint(1, 3), rng.randint(1, 130), rng.randint(1, 20), rng.randint(1, 20)]
    real = rng.choice(REAL_TYPES)
    coords, classes, num = rng.randint(0, 6), rng.randint(0, 80), rng.randint(1, 9)
    softmax, mask = rng.random() < 0.5, sorted(rng.sample(range(9), rng.randint(0, 4)))
    axis, end_axis = rng.randint(-4, 3), rng.randint(-4, 3)
    seed = rng.random()

    def build() -> ov.Node:
        data = param(random.Random(seed), dims, real)
        return ov1.region_yolo(data, coords, classes, num, softmax, mask, axis, end_axis)

    return build


def draw_reorg_yolo(rng: random.Random) -> Callable[[], ov.Node]:
    stride = rng.choice([1, 2, 2, 3, 4])
    dims = [
        rng.randint(1, 3),
        stride * stride * rng.randint(1, 4) + rng.choice([0, 0, 1]),
        stride * rng.randint(1, 8),
        stride * rng.randint(1, 8),
    ]
    element_type = rng.choice([np.float32, np.float16, np.int32, np.uint8, np.int64])
    seed = rng.random()
    return lambda: ov2.reorg_yolo(param(random.Random(seed), dims, element_type), [stride])


def draw_psroi_pooling(rng: random.Random) -> Callable[[], ov.Node]:
    mode = rng.choice(["average", "bilinear"])
    output_dim, group = rng.randint(1, 8), rng.randint(1, 7)
    bins_x, bins_y = rng.randint(1, 4), rng.randint(1, 4)
    area = group * group if mode == "average" else bins_x * bins_y
    channels = output_dim * area + rng.choice([0, 0, 0, 1])
    dims = [rng.randint(1, 3), channels, rng.randint(2, 16), rng.randint(2, 16)]
    boxes, real, scale = rng.randint(1, 9), rng.choice(REAL_TYPES), rng.choice([1.0, 0.5, 0.0625])
    seed = rng.random()

    def build() -> ov.Node:
        local = random.Random(seed)
        data, coords = param(local, dims, real), param(local, [boxes, 5], rng.choice(REAL_TYPES))
        return ov1.psroi_pooling(data, coords, output_dim, group, scale, bins_x, bins_y, mode)

    return build


def draw_top_k_rois(rng: random.Random) -> Callable[[], ov.Node]:
    boxes, real = rng.randint(1, 50), rng.choice(REAL_TYPES)
    max_rois = rng.choice([rng.randint(0, 60), rng.randint(1, 10)])
    seed = rng.random()

    def build() -> ov.Node:
        local = random.Random(seed)
        inputs = [param(local, [boxes, 4], real).output(0), param(local, [boxes], real).output(0)]
        return NodeFactory("opset6").create("ExperimentalDetectronTopKROIs", inputs, {"max_rois": max_rois})

    return build


def draw_roi_feature_extractor(rng: random.Random) -> Callable[[], ov.Node]:
    boxes, real, levels = rng.randint(1, 50), rng.choice(REAL_TYPES), rng.randint(1, 4)
    channels = rng.randint(1, 16)
    level_dims = [[1, channels, rng.randint(1, 40), rng.randint(1, 40)] for _ in range(levels)]
    attrs = {
        "output_size": rng.randint(1, 14),
        "sampling_ratio": rng.randint(0, 2),
        "pyramid_scales": [4 * 2**k for k in range(levels)],
        "aligned": rng.random() < 0.5,
    }
    seed = rng.random()

    def build() -> ov.Node:
        local = random.Random(seed)
        inputs = [param(local, [boxes, 4], real).output(0)]
        inputs += [param(local, dims, real).output(0) for dims in level_dims]
        return NodeFactory("opset6").create("ExperimentalDetectronROIFeatureExtractor", inputs, attrs)

    return build


def draw_deformable_psroi_pooling(rng: random.Random) -> Callable[[], ov.Node]:
    output_dim, group = rng.randint(1, 8), rng.randint(1, 7)
    dims = [rng.randint(1, 3), output_dim * group * group, rng.randint(2, 16), rng.randint(2, 16)]
    boxes, real = rng.randint(1, 9), rng.choice(REAL_TYPES)
    with_offsets, part = rng.random() < 0.5, rng.randint(1, 4)
    seed = rng.random()

    def build() -> ov.Node:
        local = random.Random(seed)
        data, coords = param(local, dims, real), param(local, [boxes, 5], real)
        extra: dict[str, Any] = {"part_size": part, "spatial_bins_x": 2, "spatial_bins_y": 1}
        if with_offsets:
            extra["offsets"] = param(local, [boxes, 2, part, part], real)
        return ov1.deformable_psroi_pooling(data, coords, output_dim, 0.0625, group, **extra)

    return build


DRAWS = {
    "ROIAlign-3": draw_roi_align(3),
    "ROIAlign-9": draw_roi_align(9),
    "ROIPooling-2": draw_roi_pooling,
    "RegionYolo-1": draw_region_yolo,
    "ReorgYolo-2": draw_reorg_yolo,
    "PSROIPooling-1": draw_psroi_pooling,
    "ROIAlignRotated-15": draw_roi_align(15),
    "ExperimentalDetectronTopKROIs-6": draw_top_k_rois,
    "ExperimentalDetectronROIFeatureExtractor-6": draw_roi_feature_extractor,
    "DeformablePSROIPooling-1": draw_deformable_psroi_pooling,
}


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, draw) in zip(
        ("ra", "rb", "rp", "ry", "rg", "ps", "rr", "tk", "fe", "dp"), DRAWS.items(), strict=True
    ):
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


def _both_types(element_type: str, precision: str) -> Any:
    def edit(tree: Any, cid: str) -> None:
        set_input_type(0, element_type, precision)(tree, cid)
        set_input_type(1, element_type, precision)(tree, cid)

    return edit


def _set_attributes(**texts: str) -> Any:
    def edit(tree: Any, cid: str) -> None:
        for name, text in texts.items():
            layer_element(tree, cid).find("data").set(name, text)

    return edit


def _set_pooled(name: str, text: str) -> Any:
    """The pooled size given by one list attribute only (any other would win or lose)."""

    def edit(tree: Any, cid: str) -> None:
        data = layer_element(tree, cid).find("data")
        for other in ("output_size", "output_roi", "pooled_h", "pooled_w"):
            data.attrib.pop(other, None)
        data.set(name, text)

    return edit


MUTANTS += [
    Mutant("v9 aligned_mode center", _roi_align(9), set_attribute("aligned_mode", "center"), "IRS112")
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


def _roi_pooling() -> ov.Node:
    """ROIPooling of Parameters m_in0 (data [1, 3, 8, 8] f32) and m_in1 (coords [5, 5] f32)."""
    inputs = named_inputs(parameter([1, 3, 8, 8]), parameter([5, 5]))
    return ov2.roi_pooling(*inputs, [2, 3], 0.5, "max")


POOLING_MUTANTS = [
    Mutant("pooling data 3-D", _roi_pooling, set_input_shape(0, [1, 3, 8]), "IRS211"),
    Mutant("pooling coords 3-D", _roi_pooling, set_input_shape(1, [5, 5, 1]), "IRS211"),
    Mutant("pooling boxes of 4", _roi_pooling, set_input_shape(1, [5, 4]), "IRS212"),
    Mutant("pooling f16 data", _roi_pooling, set_input_type(0, "f16", "FP16"), "IRS213"),
    Mutant("pooling i32 coords", _roi_pooling, set_input_type(1, "i32", "I32"), "IRS213"),
    Mutant("pooling method avg", _roi_pooling, set_attribute("method", "avg"), "IRS112"),
    Mutant("pooling scale 0", _roi_pooling, set_attribute("spatial_scale", "0"), "IRS112"),
    Mutant("pooling scale negative", _roi_pooling, set_attribute("spatial_scale", "-0.5"), "IRS112"),
    Mutant("pooling scale denormal", _roi_pooling, set_attribute("spatial_scale", "1e-40"), "IRS112"),
    Mutant("pooling pooled_h 0", _roi_pooling, set_attribute("pooled_h", "0"), "IRS112"),
    Mutant("pooling output_roi of one", _roi_pooling, _set_pooled("output_roi", "4")),
    Mutant("pooling output_size of three", _roi_pooling, _set_pooled("output_size", "4,5,6")),
]


@pytest.mark.parametrize("mutant", POOLING_MUTANTS, ids=lambda m: m.name)
def test_pooling_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


# The pooled size as OpenVINO reads it from output_size, output_roi, pooled_h and pooled_w
# (each later one overrides): irshape infers OpenVINO's output shape from every combination.
POOLED_TEXTS = (
    {"pooled_h": "4", "pooled_w": "5"},
    {"output_size": "4, 5"},
    {"output_roi": "4, 5"},
    {"output_size": "4, 5", "pooled_h": "6"},
    {"output_roi": "6, 7", "output_size": "4, 5"},
    {"pooled_h": "-1", "pooled_w": "5"},
)


@pytest.mark.parametrize("texts", POOLED_TEXTS, ids=str)
def test_the_pooled_size_as_openvino_reads_it(tmp_path: Path, texts: dict[str, str]) -> None:
    source, target = tmp_path / "m.xml", tmp_path / "t.xml"
    save_batch([OpCase("m0", "ROIPooling-2", _roi_pooling)], source)

    def edit(tree: Any) -> None:
        data = layer_element(tree, "m0").find("data")
        for name in ("output_size", "output_roi", "pooled_h", "pooled_w"):
            data.attrib.pop(name, None)
        for name, text in texts.items():
            data.set(name, text)

    apply_mutant(source, target, edit)
    outcome = OpsBatch(target, read_back(target), irshape.check_file(target)).outcome("m0")
    assert outcome.expected is not None
    assert outcome.inferred == [outcome.expected[0][0]], outcome.explain()
    # the file still declares the saved [5, 3, 2, 3]: only that is wrong
    assert {d.code for d in outcome.errors} <= {"IRS301", "IRS302"}, outcome.explain()


def _region_yolo() -> ov.Node:
    (data,) = named_inputs(parameter([1, 125, 13, 13]))
    return ov1.region_yolo(data, 4, 20, 5, True, [0, 1, 2], 1, 3)


def _reorg_yolo() -> ov.Node:
    (data,) = named_inputs(parameter([1, 64, 26, 26]))
    return ov2.reorg_yolo(data, [2])


YOLO_MUTANTS = [
    Mutant("region i32 input", _region_yolo, set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant("region input 3-D", _region_yolo, set_input_shape(0, [1, 125, 13]), "IRS211"),
    Mutant("region axis 4", _region_yolo, set_attribute("axis", "4"), "IRS112"),
    Mutant("region end_axis -5", _region_yolo, set_attribute("end_axis", "-5"), "IRS112"),
    Mutant("region anchors unparsable", _region_yolo, set_attribute("anchors", "1,,2")),
    Mutant("reorg no stride", _reorg_yolo, set_attribute("stride", ""), "IRS112"),
    Mutant("reorg stride 3", _reorg_yolo, set_attribute("stride", "3"), "IRS212"),
    Mutant("reorg stride 9", _reorg_yolo, set_attribute("stride", "9"), "IRS212"),
    Mutant("reorg stride -1", _reorg_yolo, set_attribute("stride", "-1"), "IRS112"),
    Mutant("reorg input 3-D", _reorg_yolo, set_input_shape(0, [1, 64, 26]), "IRS212"),
    Mutant("reorg 3 channels", _reorg_yolo, set_input_shape(0, [1, 3, 26, 26]), "IRS212"),
]


@pytest.mark.parametrize("mutant", YOLO_MUTANTS, ids=lambda m: m.name)
def test_yolo_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


def _psroi_pooling() -> ov.Node:
    inputs = named_inputs(parameter([1, 18, 8, 8]), parameter([4, 5]))
    return ov1.psroi_pooling(*inputs, 2, 3, 0.5, 1, 1, "average")


PSROI_MUTANTS = [
    Mutant("psroi i32 data", _psroi_pooling, set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant("psroi i32 coords", _psroi_pooling, set_input_type(1, "i32", "I32"), "IRS213"),
    Mutant("psroi 17 channels", _psroi_pooling, set_input_shape(0, [1, 17, 8, 8]), "IRS212"),
    Mutant("psroi data 3-D", _psroi_pooling, set_input_shape(0, [1, 18, 8]), "IRS211"),
    Mutant("psroi boxes of 4", _psroi_pooling, set_input_shape(1, [4, 4]), "IRS212"),
    Mutant("psroi mode max", _psroi_pooling, set_attribute("mode", "max"), "IRS112"),
    Mutant("psroi group_size 0", _psroi_pooling, set_attribute("group_size", "0"), "IRS112"),
    Mutant("psroi scale 0", _psroi_pooling, set_attribute("spatial_scale", "0"), "IRS112"),
    Mutant("psroi bilinear bins 0", _psroi_pooling, _set_attributes(mode="bilinear", spatial_bins_x="0")),
]


@pytest.mark.parametrize("mutant", PSROI_MUTANTS, ids=lambda m: m.name)
def test_psroi_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


def _roi_align_rotated() -> ov.Node:
    inputs = named_inputs(parameter([1, 3, 8, 8]), parameter([5, 5]), parameter([5], np.int32))
    return ov15.roi_align_rotated(*inputs, 2, 2, 2, 1.0, True)


ROTATED_MUTANTS = [
    Mutant("rotated boxes of 4", _roi_align_rotated, set_input_shape(1, [5, 4]), "IRS212"),
    Mutant("rotated 6 indices", _roi_align_rotated, set_input_shape(2, [6]), "IRS212"),
    Mutant("rotated f16 rois", _roi_align_rotated, set_input_type(1, "f16", "FP16"), "IRS213"),
    Mutant("rotated f32 indices", _roi_align_rotated, set_input_type(2, "f32", "FP32"), "IRS213"),
    Mutant("rotated data 5-D", _roi_align_rotated, set_input_shape(0, [1, 3, 8, 8, 1]), "IRS211"),
]


@pytest.mark.parametrize("mutant", ROTATED_MUTANTS, ids=lambda m: m.name)
def test_rotated_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


def _top_k_rois() -> ov.Node:
    inputs = named_inputs(parameter([10, 4]), parameter([10]))
    return NodeFactory("opset6").create(
        "ExperimentalDetectronTopKROIs", [i.output(0) for i in inputs], {"max_rois": 5}
    )


TOP_K_MUTANTS = [
    Mutant("top_k f16 probs", _top_k_rois, set_input_type(1, "f16", "FP16"), "IRS213"),
    Mutant("top_k i32 both", _top_k_rois, _both_types("i32", "I32"), "IRS213"),
    Mutant("top_k rois 3-D", _top_k_rois, set_input_shape(0, [10, 4, 1]), "IRS211"),
    Mutant("top_k rois of 5", _top_k_rois, set_input_shape(0, [10, 5]), "IRS212"),
    Mutant("top_k probs 2-D", _top_k_rois, set_input_shape(1, [10, 1]), "IRS211"),
    Mutant("top_k 9 probs", _top_k_rois, set_input_shape(1, [9]), "IRS212"),
]


@pytest.mark.parametrize("mutant", TOP_K_MUTANTS, ids=lambda m: m.name)
def test_top_k_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


def _feature_extractor() -> ov.Node:
    inputs = named_inputs(parameter([10, 4]), parameter([1, 8, 16, 16]), parameter([1, 8, 8, 8]))
    attrs = {"output_size": 7, "sampling_ratio": 2, "pyramid_scales": [4, 8], "aligned": False}
    factory = NodeFactory("opset6")
    return factory.create("ExperimentalDetectronROIFeatureExtractor", [i.output(0) for i in inputs], attrs)


FEATURE_MUTANTS = [
    Mutant("features f16 rois", _feature_extractor, set_input_type(0, "f16", "FP16"), "IRS213"),
    Mutant("features i32 level", _feature_extractor, set_input_type(2, "i32", "I32"), "IRS213"),
    Mutant("features rois 3-D", _feature_extractor, set_input_shape(0, [10, 4, 1]), "IRS211"),
    Mutant("features rois of 5", _feature_extractor, set_input_shape(0, [10, 5]), "IRS212"),
    Mutant("features level 3-D", _feature_extractor, set_input_shape(1, [1, 8, 16]), "IRS211"),
    Mutant("features level batch 2", _feature_extractor, set_input_shape(2, [2, 8, 8, 8]), "IRS212"),
    Mutant("features channels differ", _feature_extractor, set_input_shape(2, [1, 9, 8, 8]), "IRS212"),
]


@pytest.mark.parametrize("mutant", FEATURE_MUTANTS, ids=lambda m: m.name)
def test_feature_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


def _deformable() -> ov.Node:
    inputs = named_inputs(parameter([1, 18, 8, 8]), parameter([4, 5]), parameter([4, 2, 3, 3]))
    return ov1.deformable_psroi_pooling(inputs[0], inputs[1], 2, 1.0, 3, offsets=inputs[2])


DEFORMABLE_MUTANTS = [
    Mutant("deformable data 3-D", _deformable, set_input_shape(0, [1, 18, 8]), "IRS211"),
    Mutant("deformable rois 3-D", _deformable, set_input_shape(1, [4, 5, 1]), "IRS211"),
    Mutant("deformable offsets 3-D", _deformable, set_input_shape(2, [4, 2, 3]), "IRS211"),
    Mutant("deformable output_dim 0", _deformable, set_attribute("output_dim", "0"), "IRS112"),
    Mutant("deformable group_size -1", _deformable, set_attribute("group_size", "-1"), "IRS112"),
]


@pytest.mark.parametrize("mutant", DEFORMABLE_MUTANTS, ids=lambda m: m.name)
def test_deformable_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
