"""The kernel fuzzer's drawers for the region-of-interest ops (ROIAlign, ROIAlignRotated,
ROIPooling, PSROIPooling, DeformablePSROIPooling, the Experimental Detectron ROI ops, the YOLO
heads) and the prior-box generators. The machinery, the budget and its environment variables:
``fuzzing.py``.

Boxes are drawn in feature-map cells (then divided by ``spatial_scale``): inside the map,
across its edges, on them (corners at 0, -1 and the map's size), outside it, of no width or
height, reversed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from .fuzzing import (
    BF16,
    F16,
    F32,
    F64,
    INTEGERS,
    REALS,
    Draw,
    Drawers,
    Node,
    Redraw,
    make,
    numpy_type,
    op_of,
    opset,
    ov_type,
    run_family,
)

drawers = Drawers()
drawer = drawers.add


def fed(d: Draw, values: Any, element_type: str) -> Node:
    """A Parameter of ``element_type`` fed with ``values`` (bf16 through a Convert of f32)."""
    values = np.asarray(values).astype(numpy_type(element_type))
    parameter = opset.parameter(list(values.shape), ov_type(F32 if element_type == BF16 else element_type))
    d.inputs[parameter] = values
    return opset.convert(parameter, BF16) if element_type == BF16 else parameter


def corners(d: Draw, count: int, height: int, width: int) -> np.ndarray:
    """``[count, 4]`` boxes ``x1, y1, x2, y2`` in feature-map cells, each of one kind: inside,
    across an edge, on the edges, outside, of no width or height, reversed."""
    boxes = np.zeros((count, 4), np.float64)
    extent = np.array([width, height], np.float64)
    for row in range(count):
        kind = d.pick(["inside", "inside", "across", "edges", "outside", "empty", "reversed"])
        if kind == "edges":  # corners exactly on the map's borders and on -1
            boxes[row] = [
                d.pick([-1.0, 0.0, 0.5, width - 1.0, float(width)]),
                d.pick([-1.0, 0.0, height - 1.0, float(height)]),
                d.pick([0.0, width - 1.0, float(width), width + 1.0]),
                d.pick([0.0, height - 1.0, float(height)]),
            ]
            continue
        low, high = {"inside": (0.0, 0.9), "across": (-0.5, 1.2), "outside": (1.1, 2.0)}.get(
            kind, (-0.2, 1.0)
        )
        first = d.rng.uniform(low, high, 2) * extent
        size = d.rng.uniform(0.05, 1.0, 2) * extent
        if kind == "outside" and d.chance(0.5):
            first = -first  # before the map
        second = first + size
        if kind == "empty":
            axis = d.pick([0, 1, None])
            if axis is None:
                second = first.copy()
            else:
                second[axis] = first[axis]
        if kind == "reversed":
            first, second = second, first
        if d.chance(0.3):  # on whole and half cells
            first, second = np.round(first * 2) / 2, np.round(second * 2) / 2
        boxes[row] = [first[0], first[1], second[0], second[1]]
    return boxes


def feature_map(d: Draw, element_type: str, shape: Sequence[int]) -> Node:
    """The data: normal values, and the edge values (NaN, infinities, -0.0...) now and then."""
    return d.data(shape, element_type, d.pick(["unit", "unit", "edges"]))


def real_type(d: Draw) -> str:
    return str(d.pick(REALS))


def real_type_but_bf16(d: Draw) -> str:
    """RegionYolo: its bf16 results land a bf16 step off irshape's float32 result rounded (up
    or down, on about one configuration in three; neither nearest, truncation nor the reference
    nodes' rounding reproduces them: not modelled)."""
    return str(d.pick([F32, F32, F16, F64]))


# --- ROIAlign ---------------------------------------------------------------------------------


@drawer("roi", "ROIAlign-3", "ROIAlign-9", "ROIAlignRotated-15")
def _roi_align(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = real_type(d)
    if op == "ROIAlignRotated" and element_type == BF16:
        # the plugin's node takes its boxes as f32 and reads them as bf16 (roi_align_rotated.cpp:
        # the port's descriptor is f32, executeImpl<T> reads T): -1.9e-36 and -2.6e11 come out
        raise Redraw("the plugin's ROIAlignRotated misreads bf16 boxes")
    batches, channels = d.int(1, 3), d.pick([1, 1, 2, 3, 0])
    height, width = d.int(1, 7), d.int(1, 7)
    data = feature_map(d, element_type, [batches, channels, height, width])
    count = d.pick([1, 2, 3, 4, 5, 0])
    scale = float(d.pick([1.0, 1.0, 0.5, 0.25, 2.0, 0.0625]))
    if op == "ROIAlignRotated":
        centre = d.rng.uniform(-0.3, 1.3, (count, 2)) * [width, height]
        size = d.rng.uniform(0.0, 1.2, (count, 2)) * [width, height]
        size[d.rng.random((count, 2)) < 0.1] = 0.0  # no width or height
        angle = d.rng.uniform(-4, 4, (count, 1))
        angle[d.rng.random((count, 1)) < 0.2] = d.pick([0.0, np.pi / 2, -np.pi, np.pi / 4])
        boxes = np.concatenate([centre / scale, size / scale, angle], axis=1)
    else:
        boxes = corners(d, count, height, width) / scale
    rois = fed(d, boxes, element_type)
    index_type = d.pick(["i32", "i64", "i32", "i64", *INTEGERS]) if version != 3 else d.pick(["i32", "i64"])
    # (in range: from an index of -1 on ROIAlign's node leaves its boxes unset, 1e-15, 1.3e4,
    # 1.4e13..., other values each run, tried three times; ROIAlignRotated's reads before the data;
    # one past the batch both refuse)
    indices = fed(d, d.rng.integers(0, batches, count), index_type)
    attributes: dict[str, Any] = {
        "pooled_h": d.int(1, 4),
        "pooled_w": d.int(1, 4),
        "sampling_ratio": d.pick([0, 0, 1, 2, 3]),
        "spatial_scale": scale,
    }
    if op == "ROIAlignRotated":
        attributes["clockwise_mode"] = d.chance(0.5)
    else:
        attributes["mode"] = d.pick(["avg", "max"])
        if version == 9:
            attributes["aligned_mode"] = d.pick(["asymmetric", "half_pixel_for_nn", "half_pixel"])
    return [make(version, op, [data, rois, indices], attributes)]


# --- ROIPooling, PSROIPooling, DeformablePSROIPooling --------------------------------------------


def _with_batch_ids(d: Draw, boxes: np.ndarray, batches: int) -> np.ndarray:
    """Each box's batch id, a float: in range, now and then a fraction (truncated: -0.5 is
    batch 0), and -1 now and then, which ends the boxes these ops pool (the rest are 0; any
    other id outside the batch the plugin reads out of bounds)."""
    ids = d.rng.integers(0, batches, (len(boxes), 1)).astype(np.float64)
    if len(boxes) and d.chance(0.3):
        ids[d.int(0, len(boxes) - 1), 0] = d.pick([-1.0, -1.5, -0.5, batches - 0.25])
    return np.concatenate([ids, boxes], axis=1)


@drawer("roi", "ROIPooling-2")
def _roi_pooling(d: Draw) -> Sequence[Node]:
    element_type = real_type(d)
    batches, channels = d.int(1, 3), d.pick([1, 2, 3, 0])
    height, width = d.int(1, 7), d.int(1, 7)
    data = feature_map(d, element_type, [batches, channels, height, width])
    count = d.pick([1, 2, 3, 4, 0])
    method = d.pick(["max", "bilinear"])
    if method == "max":
        scale = float(d.pick([1.0, 0.5, 0.25, 0.0625]))
        boxes = corners(d, count, height, width) / scale
    else:  # boxes as fractions of the map
        scale = 1.0
        boxes = corners(d, count, 1, 1)
    rois = fed(d, _with_batch_ids(d, boxes, batches), element_type)
    pooled = [d.int(1, 4), d.int(1, 4)]
    attributes = {"output_size": pooled, "pooled_h": pooled[0], "pooled_w": pooled[1]}
    attributes.update(spatial_scale=scale, method=method)
    return [make(2, "ROIPooling", [data, rois], attributes)]


@drawer("roi", "PSROIPooling-1")
def _psroi_pooling(d: Draw) -> Sequence[Node]:
    element_type = real_type(d)
    batches, height, width = d.int(1, 2), d.int(1, 7), d.int(1, 7)
    output_dim, group = d.int(1, 3), d.int(1, 3)
    mode = d.pick(["average", "bilinear"])
    bins_x, bins_y = (1, 1) if mode == "average" else (d.int(1, 3), d.int(1, 3))
    channels = output_dim * (group * group if mode == "average" else bins_x * bins_y)
    data = feature_map(d, element_type, [batches, channels, height, width])
    count = d.pick([1, 2, 3, 4])
    if mode == "average":
        scale = float(d.pick([1.0, 0.5, 0.25, 0.0625]))
        boxes = corners(d, count, height, width) / scale
    else:
        scale = 1.0
        boxes = corners(d, count, 1, 1)
    rois = fed(d, _with_batch_ids(d, boxes, batches), element_type)
    attributes = {
        "output_dim": output_dim,
        "group_size": group,
        "spatial_scale": scale,
        "mode": mode,
        "spatial_bins_x": bins_x,
        "spatial_bins_y": bins_y,
    }
    return [make(1, "PSROIPooling", [data, rois], attributes)]


@drawer("roi", "DeformablePSROIPooling-1")
def _deformable_psroi_pooling(d: Draw) -> Sequence[Node]:
    element_type = real_type(d)
    batches, height, width = d.int(1, 2), d.int(1, 7), d.int(1, 7)
    output_dim, group = d.int(1, 4), d.int(1, 3)
    data = feature_map(d, element_type, [batches, output_dim * group * group, height, width])
    count = d.pick([1, 2, 3, 4])
    scale = float(d.pick([1.0, 0.5, 0.25, 0.0625]))
    rois = fed(d, _with_batch_ids(d, corners(d, count, height, width) / scale, batches), element_type)
    inputs = [data, rois]
    part = d.int(1, 3)
    attributes: dict[str, Any] = {
        "output_dim": output_dim,
        "group_size": group,
        "spatial_scale": scale,
        "mode": "bilinear_deformable",
        "spatial_bins_x": d.int(1, 3),
        "spatial_bins_y": d.int(1, 3),
        "part_size": part,
        "trans_std": float(d.pick([1.0, 0.1, 0.5, 0.0])),
    }
    if d.chance(0.6):
        pairs = d.pick([p for p in range(1, output_dim + 1) if output_dim % p == 0])
        offsets = d.rng.normal(0, d.pick([0.1, 0.5, 2.0]), (count, 2 * pairs, part, part))
        inputs.append(fed(d, offsets, element_type))
    return [make(1, "DeformablePSROIPooling", inputs, attributes)]


# --- the Experimental Detectron ops ----------------------------------------------------------------


@drawer("roi", "ExperimentalDetectronROIFeatureExtractor-6")
def _roi_feature_extractor(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16, BF16, F64])
    levels = d.int(1, 4)
    scales = [int(d.pick([2, 4])) * 2**k for k in range(levels)]
    channels, image = d.int(1, 3), d.int(16, 600)
    maps = [
        feature_map(d, element_type, [1, channels, image // s + d.int(0, 2), image // s + d.int(0, 2)])
        for s in scales
    ]
    count = d.pick([1, 2, 3, 5])
    boxes = corners(d, count, image, image)
    rois = fed(d, boxes, element_type)
    attributes = {
        "output_size": d.int(1, 4),
        "sampling_ratio": d.pick([0, 1, 2]),
        "pyramid_scales": scales,
        "aligned": d.chance(0.5),
    }
    return [make(6, "ExperimentalDetectronROIFeatureExtractor", [rois, *maps], attributes)]


@drawer("roi", "ExperimentalDetectronTopKROIs-6")
def _top_k_rois(d: Draw) -> Sequence[Node]:
    d.exact = True
    element_type = d.pick([F32, F32, F16, BF16, F64])
    count = d.pick([1, 2, 5, 9, 20])
    rois = d.data([count, 4], element_type, d.pick(["unit", "edges"]))
    # distinct probabilities: the plugin's order of ties is not the rule
    probs = fed(d, (d.rng.permutation(count) - count / 3) / count, element_type)
    # (max_rois up to the boxes: past them the plugin leaves its output's rows unset, 1.3e4,
    # 1.4e13, 9.7e36..., other values each run: tried three times)
    return [make(6, "ExperimentalDetectronTopKROIs", [rois, probs], {"max_rois": d.int(1, count)})]


# --- YOLO --------------------------------------------------------------------------------------------


@drawer("roi", "RegionYolo-1")
def _region_yolo(d: Draw) -> Sequence[Node]:
    element_type = real_type_but_bf16(d)
    softmax = d.chance(0.5)
    coords, classes = d.pick([4, 4, 2, 6]), d.int(1, 6)
    boxes = d.int(1, 3)
    num = boxes if softmax else boxes + d.int(0, 3)
    mask = sorted(d.rng.choice(num, boxes, replace=False).tolist()) if not softmax else d.pick([[], [0]])
    channels = boxes * (coords + classes + 1)
    shape = [d.int(1, 2), channels, d.int(1, 4), d.int(1, 4)]
    # (a softmax of logits of N(0, 1): the plugin's overflows from ~50 on, not modelled (see
    # the kernel); the sigmoids of any, edges too)
    x = d.data(shape, element_type, "unit" if softmax else d.pick(["unit", "halves", "edges"]))
    axis = d.int(0, 3)
    end_axis = d.pick([a for a in range(4) if a >= axis] + [-1])
    attributes = {
        "coords": coords,
        "classes": classes,
        "num": num,
        "do_softmax": softmax,
        "mask": mask,
        "axis": axis,
        "end_axis": end_axis,
        "anchors": [],
    }
    return [make(1, "RegionYolo", [x], attributes)]


@drawer("roi", "ReorgYolo-2")
def _reorg_yolo(d: Draw) -> Sequence[Node]:
    d.exact = True
    stride = d.pick([1, 2, 2, 3])
    shape = [d.int(1, 2), d.int(1, 3) * stride * stride, stride * d.int(1, 3), stride * d.int(1, 3)]
    x = d.data(shape, d.pick([*REALS, *INTEGERS, "boolean"]), d.pick(["edges", "small"]))
    return [make(2, "ReorgYolo", [x], {"stride": [stride]})]


# --- priors ------------------------------------------------------------------------------------------


def _prior_sizes(d: Draw, version: int) -> tuple[Node, Node]:
    """The feature map's and the image's ``[H, W]``: Parameters (the plugin's kernel runs; it
    has none of PriorBox-8), or ShapeOf -> Gather of a map's and an image's shapes (OpenVINO folds
    the layer at compile time with its reference, as in SSD models)."""
    height, width = d.pick([1, 1, 2, 3, 4]), d.pick([1, 2, 3, 4])
    image = [d.pick([1, 16, 32, 300, d.int(2, 120)]), d.pick([1, 16, 32, 300, d.int(2, 120)])]
    size_type = d.pick(["i32", "i64", "i32", "i64", "i16", "u8", "u16", "u32", "u64"])
    if d.chance(0.85 if version == 8 else 0.3):
        size_type = d.pick(["i32", "i64"])  # ShapeOf's
        spatial = d.const(np.array([2, 3]), "i64")
        axis = d.const(np.array(0), "i64")
        maps = [fed(d, np.zeros((1, 1, height, width)), F32), fed(d, np.zeros((1, 1, *image)), F32)]
        folded = [opset.gather(opset.shape_of(m, size_type), spatial, axis) for m in maps]
        return folded[0], folded[1]
    if size_type in ("u8", "i16"):
        image = [min(v, 127) for v in image]
    return fed(d, [height, width], size_type), fed(d, image, size_type)


def _reals(d: Draw, count: int, low: float, high: float) -> list[float]:
    return [round(float(v), d.pick([0, 1, 2])) for v in d.rng.uniform(low, high, count)]


def _variance(d: Draw, clustered: bool = False) -> list[float]:
    # (not two values to PriorBoxClustered, nor five: its node reads past two (1.4e-45, 37308,
    # other values each run: tried twice), and of five its threads write the fifth over the
    # next box's first now and then (0.5 for 0.1 in one run of eight); irshape refuses both, and
    # PriorBox refuses them as the plugin does)
    variances = [[], [0.1], [0.1, 0.1, 0.2, 0.2], _reals(d, 4, 0.0, 0.5), _reals(d, 1, 0.0, 1.0)]
    return list(d.pick(variances if clustered else [*variances, [0.1, 0.2]]))


def _ratio_count(aspect_ratios: list[float], flip: bool) -> int:
    """How many aspect ratios the plugin lists: 1, then each ratio not within 1e-6 of one
    taken (and its inverse with ``flip``)."""
    taken = [1.0]
    for ratio in aspect_ratios:
        if all(abs(ratio - existing) >= 1e-6 for existing in taken):
            taken += [ratio, 1 / ratio] if flip else [ratio]
    return len(taken)


@drawer("priors", "PriorBox-1", "PriorBox-8")
def _prior_box(d: Draw) -> Sequence[Node]:
    """Every attribute, in the combinations where the boxes the plugin's loop writes are as many
    as ``PriorBox::number_of_priors`` counts (the output's size). Where they are not (a density
    without a fixed size, fewer densities than fixed sizes, min sizes beside fixed sizes, more
    max sizes than min sizes, max sizes without scale_all_sizes, fixed ratios other than the
    aspect ratios in number) the plugin leaves the rest of the row unset: a density of 2 beside
    a min size of 4 on a 2 x 2 map gives 16 computed values, then -1.6e-25, 3.1e-41, 0...,
    another garbage on each compile (tried three times); the folding reference writes past the
    output (a fixed size without densities crashed the process). irshape refuses them."""
    _op, version = op_of(d.name)
    sizes = _prior_sizes(d, version)
    scale_all = d.chance(0.8)
    aspect_ratio = d.pick([[], [2.0], [2.0, 3.0], [0.5, 2.0], [1.0, 2.0, 2.0], _reals(d, 2, 0.2, 4.0)])
    aspect_ratio = [r for r in aspect_ratio if r != 0]  # (0: the plugin refuses it)
    flip = d.chance(0.5)
    attributes: dict[str, Any] = {"aspect_ratio": aspect_ratio, "flip": flip}
    if d.chance(0.3):  # fixed sizes with densities (face detectors)
        fixed_count = d.int(1, 2)
        ratios = _ratio_count(aspect_ratio, flip)
        attributes.update(
            fixed_size=_reals(d, fixed_count, 1.0, 64.0),
            density=[float(d.pick([0, 1, 1, 2, 3])) for _ in range(fixed_count)],
            fixed_ratio=d.pick([[], _reals(d, ratios, 0.3, 3.0)]),
        )
    else:
        mins = _reals(d, d.int(1, 3), 2.0, 60.0) if scale_all else _reals(d, d.int(1, 2), 0.05, 0.9)
        maxes = [m + float(d.int(1, 40)) for m in mins] if scale_all else []
        attributes.update(min_size=mins, max_size=maxes[: d.int(0, len(maxes))])
    attributes.update(
        clip=d.chance(0.5),
        step=d.pick([0.0, float(d.int(1, 32)), 0.125, 8.5] + ([] if scale_all else [-1.0])),
        offset=d.pick([0.5, 0.0, 0.25, 1.0]),
        variance=_variance(d),
        scale_all_sizes=scale_all,
    )
    if version == 8:
        attributes["min_max_aspect_ratios_order"] = d.chance(0.5)
    return [make(version, "PriorBox", list(sizes), attributes)]


@drawer("priors", "PriorBoxClustered-1")
def _prior_box_clustered(d: Draw) -> Sequence[Node]:
    sizes = _prior_sizes(d, 1)
    count = d.int(1, 4)
    step, step_w, step_h = d.pick(
        [(0.0, 0.0, 0.0), (16.0, 0.0, 0.0), (0.0, 8.0, 12.0), (10.0, 6.0, 0.0), (0.0, 4.5, 0.0)]
    )
    attributes = {
        "width": _reals(d, count, 0.0, 90.0),
        "height": _reals(d, count, 0.0, 90.0),
        "clip": d.chance(0.5),
        "step": step,
        "step_w": step_w,
        "step_h": step_h,
        "offset": d.pick([0.5, 0.0, 0.25, 1.0]),
        "variance": _variance(d, clustered=True),
    }
    return [make(1, "PriorBoxClustered", list(sizes), attributes)]


@drawer("priors", "ExperimentalDetectronPriorGridGenerator-6")
def _prior_grid(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16, BF16, F64])
    count, height, width = d.pick([1, 2, 3, 0]), d.int(1, 5), d.int(1, 5)
    priors = d.data([count, 4], element_type, d.pick(["unit", "edges"]))
    feature = fed(d, np.zeros((1, 2, height, width)), element_type)
    image = fed(d, np.zeros((1, 3, d.int(1, 100), d.int(1, 100))), element_type)
    given = d.chance(0.4)
    attributes = {
        "flatten": d.chance(0.5),
        "h": height if given else 0,
        "w": width if given else 0,
        "stride_x": float(d.pick([0.0, 8.0, 4.5, 16.0])),
        "stride_y": float(d.pick([0.0, 8.0, 4.5, 16.0])),
    }
    return [make(6, "ExperimentalDetectronPriorGridGenerator", [priors, feature, image], attributes)]


@pytest.mark.parametrize("family", drawers.families())
def test_kernel_fuzz(family: str, tmp_path: Path) -> None:
    run_family(drawers, family, tmp_path)
