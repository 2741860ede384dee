"""The roi family's kernels against OpenVINO's CPU plugin: ROIAlign-3/9 (avg and max, every
aligned_mode, sampling ratios 0 to 3, scales, boxes inside, across and outside the feature map,
tiny and reversed boxes, boxes without samples, negative data, several images, i32 and i64
batch indices) and ROIPooling-2 (max with scales, boxes across and outside the map, empty bins;
bilinear with boxes past the map's edges; one or more bins a side), RegionYolo-1 (YOLO v2 and
v3 heads, f32 and f16, every flattening) and ReorgYolo-2 (strides 1 to 3, several types)."""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino.opset1 as ov1
import openvino.opset2 as ov2
import openvino.opset3 as ov3
import openvino.opset9 as ov9
import openvino.opset15 as ov15
import pytest
from openvino.utils.node_factory import NodeFactory

from .harness import BF16_AS_F32_OFF_AVX512, Case, parameter
from .kernel_data import Batches

INDEX_TYPES: list[Any] = [np.int32, np.int64]
ALIGNED_MODES = ("asymmetric", "half_pixel_for_nn", "half_pixel")


def _boxes(
    rng: np.random.Generator, count: int, height: int, width: int, scale: float, reversed_ok: bool
) -> np.ndarray:
    """Boxes in image coordinates: mostly inside the map, some across its edges or outside it,
    some tiny or reversed (``reversed_ok``: where the plugin takes them, not a sampling ratio of
    0 in an aligned mode, where a bin of size -1 or less fails the plugin)."""
    extent = np.array([width, height], np.float32) / scale
    first = rng.uniform(-0.3, 1.1, (count, 2)) * extent
    size = rng.uniform(0.02, 0.9, (count, 2)) * extent
    boxes = np.concatenate([first, first + size], axis=1).astype(np.float32)
    if count > 2:
        boxes[0, 2:] = boxes[0, :2] + 0.1  # tiny
        if reversed_ok:
            boxes[1, [0, 2]] = boxes[1, [2, 0]]  # reversed in x
    return boxes


def roi_align_cases() -> list[Case]:
    rng = np.random.default_rng(50)
    cases = []
    for i in range(60):
        version = 9 if i % 3 else 3
        batches, channels = int(rng.integers(1, 4)), int(rng.integers(1, 5))
        height, width = int(rng.integers(3, 12)), int(rng.integers(3, 12))
        scale = [1.0, 0.5, 0.25, 2.0][i % 4]
        count = int(rng.integers(1, 7))
        pooled_h, pooled_w = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        ratio = int(rng.integers(0, 4))
        mode = ("avg", "max")[i % 2]
        index_type = INDEX_TYPES[i % 2]
        data = rng.normal(0, 2, (batches, channels, height, width)).astype(np.float32)
        boxes = _boxes(rng, count, height, width, scale, version == 3 or ratio > 0)
        indices = rng.integers(0, batches, count).astype(index_type)
        data_node = parameter(data.shape)
        boxes_node = parameter(boxes.shape)
        indices_node = parameter(indices.shape, index_type)
        if version == 3:
            node = ov3.roi_align(data_node, boxes_node, indices_node, pooled_h, pooled_w, ratio, scale, mode)
        else:
            aligned = ALIGNED_MODES[(i // 2) % 3]
            node = ov9.roi_align(
                data_node, boxes_node, indices_node, pooled_h, pooled_w, ratio, scale, mode, aligned
            )
        feed = {data_node: data, boxes_node: boxes, indices_node: indices}
        cases.append(Case(f"roi_align{version}_{mode}_{i}", feed, [node.output(0)]))
    return cases


def roi_align_edge_cases() -> list[Case]:
    """Negative data everywhere (max starts from 0: the bins are 0), and a box reversed by less
    than one bin in half_pixel mode with a sampling ratio of 0: no samples (avg: NaN, max: 0)."""
    cases = []
    data = -np.arange(1, 33, dtype=np.float32).reshape(1, 2, 4, 4)
    boxes = np.array([[1.0, 1.0, 0.5, 0.5], [1.0, 1.0, 3.0, 3.0], [0.0, 0.0, 4.0, 4.0]], np.float32)
    indices = np.zeros(3, np.int32)
    for mode in ("avg", "max"):
        for aligned in ALIGNED_MODES:
            nodes = parameter(data.shape), parameter(boxes.shape), parameter(indices.shape, np.int32)
            node = ov9.roi_align(*nodes, 2, 2, 0, 1.0, mode, aligned)
            feed = dict(zip(nodes, (data, boxes, indices), strict=True))
            cases.append(Case(f"roi_align_edge_{mode}_{aligned}", feed, [node.output(0)]))
    return cases


def roi_pooling_cases() -> list[Case]:
    rng = np.random.default_rng(51)
    cases = []
    for i in range(50):
        batches, channels = int(rng.integers(1, 4)), int(rng.integers(1, 5))
        height, width = int(rng.integers(2, 14)), int(rng.integers(2, 14))
        method = ("max", "bilinear")[i % 2]
        count = int(rng.integers(1, 7))
        pooled = [int(rng.integers(1, 6)), int(rng.integers(1, 6))]
        if method == "max":
            scale = [1.0, 0.5, 0.25, 0.0625][i % 4]
            boxes = _boxes(rng, count, height, width, scale, True)
        else:  # boxes as fractions of the map, some past its edges
            scale = 1.0
            first = rng.uniform(-0.2, 0.9, (count, 2))
            boxes = np.concatenate([first, first + rng.uniform(0.0, 0.8, (count, 2))], axis=1)
        images = rng.integers(0, batches, (count, 1)).astype(np.float32)
        coords = np.concatenate([images, boxes], axis=1).astype(np.float32)
        data = rng.normal(0, 2, (batches, channels, height, width)).astype(np.float32)
        if i % 5 == 0:
            data = -np.abs(data)  # an empty bin is 0, a full one its largest (negative) cell
        data_node, coords_node = parameter(data.shape), parameter(coords.shape)
        node = ov2.roi_pooling(data_node, coords_node, pooled, scale, method)
        feed = {data_node: data, coords_node: coords}
        cases.append(Case(f"roi_pooling_{method}_{i}", feed, [node.output(0)]))
    return cases


def region_yolo_cases() -> list[Case]:
    """YOLO v2 heads (softmax over the classes, axes flattened) and v3 heads (sigmoids, one box
    per mask entry), large and small logits."""
    rng = np.random.default_rng(52)
    cases = []
    for i in range(40):
        softmax = i % 2 == 0
        coords, classes = [4, 4, 2, 6][i % 4], int(rng.integers(1, 9))
        boxes = int(rng.integers(1, 5))
        mask = list(range(boxes))
        channels = boxes * (coords + classes + 1)
        shape = (int(rng.integers(1, 3)), channels, int(rng.integers(1, 6)), int(rng.integers(1, 6)))
        # (logits of tens only for v3's sigmoids: the plugin's softmax overflows from ~50 on)
        data = rng.normal(0, [1.0, 4.0, 6.0 if softmax else 30.0][i % 3], shape).astype(
            [np.float32, np.float16][i % 5 == 4]
        )
        axis, end_axis = [(1, 3), (1, -1), (0, 1), (2, 3), (1, 1)][i // 2 % 5]
        node_in = parameter(shape, data.dtype)
        num = boxes if softmax else boxes + 3  # v3: num counts every anchor, mask picks some
        node = ov1.region_yolo(node_in, coords, classes, num, softmax, mask, axis, end_axis)
        cases.append(Case(f"region_yolo_{'v2' if softmax else 'v3'}_{i}", {node_in: data}, [node.output(0)]))
    return cases


def reorg_yolo_cases() -> list[Case]:
    rng = np.random.default_rng(53)
    cases = []
    for i in range(30):
        stride = [1, 2, 2, 3][i % 4]
        groups = int(rng.integers(1, 4))
        shape = (
            int(rng.integers(1, 3)),
            groups * stride * stride,
            stride * int(rng.integers(1, 4)),
            stride * int(rng.integers(1, 4)),
        )
        dtype = [np.float32, np.int32, np.uint8, np.float16, np.int64][i % 5]
        data = (rng.normal(0, 50, shape)).astype(dtype)
        node_in = parameter(shape, dtype)
        node = ov2.reorg_yolo(node_in, [stride])
        cases.append(Case(f"reorg_yolo_{stride}_{i}", {node_in: data}, [node.output(0)], exact=True))
    return cases


def psroi_pooling_cases() -> list[Case]:
    """R-FCN's average mode (boxes in image coordinates, scaled) and the bilinear mode (boxes
    as fractions of the map), boxes inside the map (OpenVINO reads outside it at undefined
    offsets)."""
    rng = np.random.default_rng(54)
    cases = []
    for i in range(40):
        average = i % 2 == 0
        batches, height, width = int(rng.integers(1, 3)), int(rng.integers(3, 12)), int(rng.integers(3, 12))
        output_dim, group = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        bins_x, bins_y = (1, 1) if average else (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
        channels = output_dim * (group * group if average else bins_x * bins_y)
        count = int(rng.integers(1, 6))
        if average:
            scale = [1.0, 0.5, 0.25][i % 3]
            extent = np.array([width, height], np.float32) / scale
            first = rng.uniform(0, 0.6, (count, 2)) * extent
            boxes = np.concatenate([first, first + rng.uniform(0.05, 0.4, (count, 2)) * extent], axis=1)
        else:
            scale = 1.0
            first = rng.uniform(0, 0.6, (count, 2))
            boxes = np.concatenate([first, first + rng.uniform(0.0, 0.4, (count, 2))], axis=1)
        images = rng.integers(0, batches, (count, 1)).astype(np.float32)
        coords = np.concatenate([images, boxes], axis=1).astype(np.float32)
        data = rng.normal(0, 2, (batches, channels, height, width)).astype(np.float32)
        data_node, coords_node = parameter(data.shape), parameter(coords.shape)
        mode = "average" if average else "bilinear"
        node = ov1.psroi_pooling(data_node, coords_node, output_dim, group, scale, bins_x, bins_y, mode)
        feed = {data_node: data, coords_node: coords}
        cases.append(Case(f"psroi_pooling_{mode}_{i}", feed, [node.output(0)]))
    return cases


def roi_align_rotated_cases() -> list[Case]:
    """Rotated boxes (angles of both signs, both clockwise modes) inside, across and outside
    the map; sampling ratios 0 to 3; scales."""
    rng = np.random.default_rng(55)
    cases = []
    for i in range(40):
        batches, channels = int(rng.integers(1, 3)), int(rng.integers(1, 4))
        height, width = int(rng.integers(3, 12)), int(rng.integers(3, 12))
        scale = [1.0, 0.5, 2.0][i % 3]
        count = int(rng.integers(1, 6))
        centre = rng.uniform(-0.2, 1.2, (count, 2)) * np.array([width, height]) / scale
        size = rng.uniform(0.1, 0.8, (count, 2)) * np.array([width, height]) / scale
        angle = rng.uniform(-3.5, 3.5, (count, 1))
        boxes = np.concatenate([centre, size, angle], axis=1).astype(np.float32)
        indices = rng.integers(0, batches, count).astype(INDEX_TYPES[i % 2])
        data = rng.normal(0, 2, (batches, channels, height, width)).astype(np.float32)
        nodes = parameter(data.shape), parameter(boxes.shape), parameter(indices.shape, indices.dtype)
        pooled_h, pooled_w, ratio = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(0, 4))
        node = ov15.roi_align_rotated(*nodes, pooled_h, pooled_w, ratio, scale, bool(i % 2))
        feed = dict(zip(nodes, (data, boxes, indices), strict=True))
        cases.append(Case(f"roi_align_rotated_{i}", feed, [node.output(0)]))
    return cases


def top_k_rois_cases() -> list[Case]:
    """Distinct probabilities (the plugin's order of ties is not the rule), max_rois from 1 to
    all the boxes, f32 and f16."""
    rng = np.random.default_rng(56)
    factory = NodeFactory("opset6")
    cases = []
    for i in range(30):
        count = int(rng.integers(1, 40))
        dtype = [np.float32, np.float16][i % 5 == 4]
        rois = rng.normal(0, 50, (count, 4)).astype(dtype)
        probs = rng.permutation(count).astype(dtype) / dtype(count) - dtype(0.3)
        nodes = parameter(rois.shape, dtype), parameter(probs.shape, dtype)
        max_rois = int(rng.integers(1, count + 1))
        node = factory.create(
            "ExperimentalDetectronTopKROIs", [n.output(0) for n in nodes], {"max_rois": max_rois}
        )
        cases.append(
            Case(
                f"top_k_rois_{i}", dict(zip(nodes, (rois, probs), strict=True)), [node.output(0)], exact=True
            )
        )
    return cases


def roi_feature_extractor_cases() -> list[Case]:
    """Mask R-CNN's: boxes of every size (each pyramid level, boxes of no area), one to four
    levels, sampling ratios 0 to 2, aligned or not."""
    rng = np.random.default_rng(57)
    factory = NodeFactory("opset6")
    cases = []
    for i in range(30):
        levels = int(rng.integers(1, 5))
        scales = [4 * 2**k for k in range(levels)]
        channels, image = int(rng.integers(1, 4)), int(rng.integers(64, 400))
        maps = [
            rng.normal(0, 2, (1, channels, image // scale + 1, image // scale + 2)).astype(np.float32)
            for scale in scales
        ]
        count = int(rng.integers(1, 8))
        first = rng.uniform(0, image * 0.8, (count, 2))
        boxes = np.concatenate([first, first + rng.uniform(1, image * 0.9, (count, 2))], axis=1).astype(
            np.float32
        )
        if count > 1:
            boxes[0, 2:] = boxes[0, :2]  # no area
        nodes = [parameter(boxes.shape), *(parameter(m.shape) for m in maps)]
        attrs = {
            "output_size": int(rng.integers(1, 5)),
            "sampling_ratio": int(rng.integers(0, 3)),
            "pyramid_scales": scales,
            "aligned": bool(i % 2),
        }
        node = factory.create("ExperimentalDetectronROIFeatureExtractor", [n.output(0) for n in nodes], attrs)
        feed = dict(zip(nodes, [boxes, *maps], strict=True))
        cases.append(Case(f"roi_feature_extractor_{i}", feed, [node.output(0), node.output(1)]))
    return cases


def deformable_psroi_pooling_cases() -> list[Case]:
    """With and without offsets (part sizes, trans_std), sub-bins, boxes inside and across the
    map, several images."""
    rng = np.random.default_rng(58)
    cases = []
    for i in range(30):
        batches, height, width = int(rng.integers(1, 3)), int(rng.integers(3, 12)), int(rng.integers(3, 12))
        output_dim, group = [2, 4, 3, 4][i % 4], int(rng.integers(1, 4))
        channels = output_dim * group * group
        count = int(rng.integers(1, 6))
        scale = [1.0, 0.5, 0.25][i % 3]
        extent = np.array([width, height], np.float32) / scale
        first = rng.uniform(-0.2, 0.8, (count, 2)) * extent
        boxes = np.concatenate([first, first + rng.uniform(0.05, 0.6, (count, 2)) * extent], axis=1)
        images = rng.integers(0, batches, (count, 1)).astype(np.float32)
        coords = np.concatenate([images, boxes], axis=1).astype(np.float32)
        data = rng.normal(0, 2, (batches, channels, height, width)).astype(np.float32)
        bins = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        part = int(rng.integers(1, 4))
        data_node, coords_node = parameter(data.shape), parameter(coords.shape)
        feed = {data_node: data, coords_node: coords}
        extra: dict[str, Any] = {"spatial_bins_x": bins[0], "spatial_bins_y": bins[1], "part_size": part}
        if i % 2:
            divisors = [d for d in range(1, output_dim + 1) if output_dim % d == 0]
            pairs = divisors[len(divisors) // 2]  # 4 output channels: 2 offset pairs of 2 classes
            offsets = rng.normal(0, 0.3, (count, 2 * pairs, part, part)).astype(np.float32)
            offsets_node = parameter(offsets.shape)
            feed[offsets_node] = offsets
            extra.update(offsets=offsets_node, trans_std=[1.0, 0.1, 0.5][i % 3])
        node = ov1.deformable_psroi_pooling(data_node, coords_node, output_dim, scale, group, **extra)
        cases.append(Case(f"deformable_psroi_pooling_{i}", feed, [node.output(0)]))
    return cases


def _fed(feed: dict[Any, np.ndarray], values: Any, dtype: Any = np.float32) -> Any:
    """A Parameter fed with ``values`` (recorded in ``feed``)."""
    array = np.asarray(values, dtype)
    node = parameter(array.shape, dtype)
    feed[node] = array
    return node


def fuzz_found_roi_align_cases() -> list[Case]:
    """What the kernel fuzzer (test_kernel_fuzz_roi.py) found in ROIAlign and ROIAlignRotated."""
    cases = []
    inf, nan = np.inf, np.nan
    # an infinity outside a box leaves its bins finite (the interpolation matrices spread
    # NaN everywhere); a sample outside the map reads cell (0, 0) at weight 0: NaN where it is
    # infinite, in its channel only
    data = np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4)
    data[0, 0, 3, 3] = inf
    data[0, 1, 0, 0] = -inf
    for mode in ("avg", "max"):
        feed: dict[Any, np.ndarray] = {}
        boxes = [[0.0, 0.0, 1.5, 1.5], [2.0, 2.0, 6.0, 6.0], [-3.0, 1.0, 2.0, 2.0]]
        nodes = _fed(feed, data), _fed(feed, boxes), _fed(feed, [0, 0, 0], np.int32)
        node = ov9.roi_align(*nodes, 2, 2, 2, 1.0, mode, "asymmetric")
        cases.append(Case(f"fuzz_roi_align_infinite_{mode}", feed, [node.output(0)]))
    # max folds the samples as maxps: a NaN sample replaces the running value and the next
    # sample replaces the NaN (samples 4, NaN, NaN, 2.5: the bin is 2.5)
    feed = {}
    nodes = (
        _fed(feed, np.array([1, 7, nan, 3, 2], np.float32).reshape(1, 1, 1, 5)),
        _fed(feed, [[0.0, 0.0, 4.0, 1.0]]),
        _fed(feed, [0], np.int32),
    )
    node = ov9.roi_align(*nodes, 1, 1, 4, 1.0, "max", "asymmetric")
    cases.append(Case("fuzz_roi_align_max_nan_fold", feed, [node.output(0)]))
    # bf16 results truncated to bf16 (a sample of 11.99998 is 11.9375, not 12)
    rng = np.random.default_rng(59)
    for mode in ("avg", "max"):
        feed = {}
        values = rng.normal(0, 8, (1, 3, 5, 6)).astype(np.float32)
        boxes = rng.uniform(0, 5, (4, 4)).astype(np.float32)
        boxes[:, 2:] += boxes[:, :2]
        nodes = (
            ov1.convert(_fed(feed, values), "bf16"),
            ov1.convert(_fed(feed, boxes), "bf16"),
            _fed(feed, [0, 0, 0, 0], np.int32),
        )
        node = ov9.roi_align(*nodes, 3, 3, 2, 1.0, mode, "asymmetric")
        cases.append(
            Case(
                f"fuzz_roi_align_bf16_{mode}",
                feed,
                [ov1.convert(node, "f32").output(0)],
                exact=BF16_AS_F32_OFF_AVX512,
            )
        )
    # bins of size -1 or less on both axes (a box reversed by 3 in an aligned mode, sampling
    # ratio 0): the plugin samples cell (0, 0) at weight 0: 0, NaN where that cell is NaN
    for mode in ("avg", "max"):
        feed = {}
        values = np.arange(18, dtype=np.float32).reshape(1, 2, 3, 3)
        values[0, 1, 0, 0] = nan
        nodes = _fed(feed, values), _fed(feed, [[3.0, 3.0, 0.0, 0.0]]), _fed(feed, [0], np.int32)
        node = ov9.roi_align(*nodes, 1, 1, 0, 1.0, mode, "half_pixel")
        cases.append(Case(f"fuzz_roi_align_reversed_{mode}", feed, [node.output(0)]))
    # no channels: the plugin runs nothing, so a box reversed on one axis is no failure
    feed = {}
    nodes = _fed(feed, np.zeros((1, 0, 3, 3))), _fed(feed, [[3.0, 0.0, 0.0, 3.0]]), _fed(feed, [0], np.int32)
    node = ov9.roi_align(*nodes, 1, 1, 0, 1.0, "avg", "half_pixel")
    cases.append(Case("fuzz_roi_align_no_channels", feed, [node.output(0)]))
    # ROIAlignRotated: a box of no width with a sampling ratio of 0 has no samples: 0 (not
    # 0 / 0); a sample outside the map reads cell (0, 0) alone (an infinity at (0, 1) is unread)
    feed = {}
    values = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    values[0, 0, 0, 1] = inf
    rotated = [[1.0, 1.0, 0.0, 2.0, 0.3], [0.0, 0.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0, 0.5]]
    nodes = _fed(feed, values), _fed(feed, rotated), _fed(feed, [0, 0, 0], np.int32)
    node = ov15.roi_align_rotated(*nodes, 2, 2, 0, 1.0, True)
    cases.append(Case("fuzz_roi_align_rotated_no_samples", feed, [node.output(0)]))
    # bit for bit: the angle's cosine and sine correctly rounded to float32 (the reference's
    # cosf and sinf; numpy's float32 ones are a last bit off for some angles)
    rng = np.random.default_rng(62)
    feed = {}
    values = rng.normal(0, 2, (1, 2, 8, 8)).astype(np.float32)
    centres = rng.uniform(1, 7, (40, 2))
    rotated_boxes = np.concatenate([centres, rng.uniform(1, 5, (40, 2)), rng.uniform(-4, 4, (40, 1))], axis=1)
    nodes = _fed(feed, values), _fed(feed, rotated_boxes), _fed(feed, np.zeros(40), np.int32)
    node = ov15.roi_align_rotated(*nodes, 2, 2, 2, 1.0, False)
    cases.append(Case("fuzz_roi_align_rotated_bits", feed, [node.output(0)], exact=True))
    return cases


def fuzz_found_pooling_cases() -> list[Case]:
    """What the kernel fuzzer found in ROIPooling, PSROIPooling, DeformablePSROIPooling and
    ExperimentalDetectronROIFeatureExtractor."""
    cases = []
    inf, nan = np.inf, np.nan
    # ROIPooling: a batch id of -1 ends the boxes (they and the later ones are 0); max skips
    # NaN cells, but a bin whose first cell is NaN is NaN
    values = np.array([[[[nan, 2, 1, nan], [1, 3, -5, 3]]]], np.float32)
    for method in ("max", "bilinear"):
        feed: dict[Any, np.ndarray] = {}
        rois = [[0, 0, 0, 1, 1], [0, 2, 0, 3, 1], [-1, 0, 0, 1, 1], [0, 0, 0, 3, 1]]
        if method == "bilinear":
            rois = [[0, 0.1, 0.0, 0.9, 1.0], [0, 0.5, 0.2, 1.0, 1.0], [-1.5, 0, 0, 1, 1], [0, 0, 0, 1, 1]]
        node = ov2.roi_pooling(_fed(feed, values), _fed(feed, rois), [1, 2], 1.0, method)
        cases.append(Case(f"fuzz_roi_pooling_{method}", feed, [node.output(0)]))
    # PSROIPooling average: an empty bin (a box past the map) is 0; -1 ends the boxes; the far
    # corner is round(x + 1); a bin's sum beside 3e38 and with infinities
    feed = {}
    values = np.arange(36, dtype=np.float32).reshape(1, 4, 3, 3) / 7
    values[0, 1, 2, 0] = 3e38
    values[0, 2, 0, 2] = inf
    rois = [
        [0, 0, 0, 5, 5],
        [0, 1, 1, 3, 3],
        [0, 9, 9, 12, 12],
        [0, -0.5, 0, 1, 1],
        [-1, 0, 0, 2, 2],
        [0, 0, 0, 2, 2],
    ]
    node = ov1.psroi_pooling(_fed(feed, values), _fed(feed, rois), 1, 2, 0.5, 1, 1, "average")
    cases.append(Case("fuzz_psroi_pooling_average", feed, [node.output(0)]))
    # PSROIPooling bilinear: a point past the map's last cell (5.25 of 6 columns) adds nothing
    feed = {}
    values = np.random.default_rng(60).normal(0, 2, (1, 3, 3, 6)).astype(np.float32)
    rois = [[0, 0.84, 0.3, 1.09, 0.9], [0, 0.0, 0.0, 1.0, 1.0]]
    node = ov1.psroi_pooling(_fed(feed, values), _fed(feed, rois), 1, 1, 1.0, 3, 1, "bilinear")
    cases.append(Case("fuzz_psroi_pooling_bilinear_edge", feed, [node.output(0)]))
    # DeformablePSROIPooling: an infinite cell read at a positive weight is infinite (four
    # weights times their cells, not two lerps); -1 ends the boxes
    feed = {}
    values = np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4)
    values[0, 0, 1, 1] = inf
    values[0, 1, 2, 2] = -inf
    rois = [[0, 0, 0, 3, 3], [0, 1, 1, 2, 2], [-1, 0, 0, 3, 3], [0, 0, 0, 1, 1]]
    node = ov1.deformable_psroi_pooling(
        _fed(feed, values), _fed(feed, rois), 2, 1.0, 1, spatial_bins_x=3, spatial_bins_y=3
    )
    cases.append(Case("fuzz_deformable_psroi_infinite", feed, [node.output(0)]))
    # bit for bit: the sub-bins added in turn, row by row
    rng = np.random.default_rng(63)
    feed = {}
    values = rng.normal(0, 3, (1, 18, 9, 9)).astype(np.float32)
    rois = np.concatenate([np.zeros((12, 1)), rng.uniform(0, 4, (12, 2)), rng.uniform(5, 9, (12, 2))], axis=1)
    node = ov1.deformable_psroi_pooling(
        _fed(feed, values), _fed(feed, rois), 2, 1.0, 3, spatial_bins_x=3, spatial_bins_y=3
    )
    cases.append(Case("fuzz_deformable_psroi_bits", feed, [node.output(0)], exact=True))
    # ExperimentalDetectronROIFeatureExtractor: an infinity outside a box leaves it finite;
    # the samples added in turn (-inf first, then 3e38 twice: -inf, where 3e38 + 3e38 first
    # would be inf, and NaN)
    feed = {}
    level = np.ones((1, 1, 8, 8), np.float32)
    level[0, 0, 7, 7] = inf
    level[0, 0, 0, 0], level[0, 0, 0, 1] = -inf, 3e38
    level[0, 0, 1, 0] = 3e38
    rois = np.array([[4.0, 4.0, 10.0, 10.0], [0.0, 0.0, 4.0, 4.0]], np.float32)
    factory = NodeFactory("opset6")
    attrs = {"output_size": 1, "sampling_ratio": 2, "pyramid_scales": [2], "aligned": False}
    node = factory.create(
        "ExperimentalDetectronROIFeatureExtractor",
        [_fed(feed, rois).output(0), _fed(feed, level).output(0)],
        attrs,
    )
    cases.append(Case("fuzz_roi_feature_extractor_infinite", feed, [node.output(0)]))
    # bit for bit: Caffe2's sample positions, each sample's four terms, the samples in turn
    rng = np.random.default_rng(64)
    feed = {}
    level = rng.normal(0, 3, (1, 3, 20, 24)).astype(np.float32)
    rois = np.concatenate([rng.uniform(0, 40, (10, 2)), rng.uniform(50, 90, (10, 2))], axis=1).astype(
        np.float32
    )
    for ratio, aligned in ((0, False), (2, True)):
        attrs = {"output_size": 3, "sampling_ratio": ratio, "pyramid_scales": [4], "aligned": aligned}
        inputs = [_fed(feed, rois).output(0), _fed(feed, level).output(0)]
        node = factory.create("ExperimentalDetectronROIFeatureExtractor", inputs, attrs)
        cases.append(
            Case(f"fuzz_roi_feature_extractor_bits_{ratio}", dict(feed), [node.output(0)], exact=True)
        )
    # bf16 results as the plugin's reference nodes store them (bfloat16_t: up only where the
    # bit below the last is set and the last is odd)
    rng = np.random.default_rng(61)
    for mode in ("average", "bilinear", "deformable"):
        feed = {}
        values = rng.normal(0, 3, (1, 8, 5, 5)).astype(np.float32)
        rois = np.array([[0, 0.1, 0.2, 0.8, 0.9], [0, 0.3, 0.0, 1.0, 0.6]], np.float32)
        if mode != "bilinear":
            rois[:, 1:] *= 5
        data_node = ov1.convert(_fed(feed, values), "bf16")
        rois_node = ov1.convert(_fed(feed, rois), "bf16")
        if mode == "deformable":
            node = ov1.deformable_psroi_pooling(
                data_node, rois_node, 2, 1.0, 2, spatial_bins_x=2, spatial_bins_y=2
            )
        else:
            node = ov1.psroi_pooling(data_node, rois_node, 2, 2, 1.0, 2, 2, mode)
        cases.append(
            Case(
                f"fuzz_psroi_bf16_{mode}",
                feed,
                [ov1.convert(node, "f32").output(0)],
                exact=BF16_AS_F32_OFF_AVX512,
            )
        )
    return cases


def fuzz_found_yolo_cases() -> list[Case]:
    """ReorgYolo moves 32-bit integers through float32 (2147483646 comes out 2147483520)."""
    cases = []
    wide = np.array([2147483646, -2147483647, 16777217, 5, -(2**31), 2**31 - 1, 100, 7], np.int64)
    for dtype in (np.int32, np.int64, np.uint32):
        feed: dict[Any, np.ndarray] = {}
        values = np.tile(wide % 2**32 if dtype == np.uint32 else wide, 4).astype(dtype).reshape(1, 8, 2, 2)
        node = ov2.reorg_yolo(_fed(feed, values, dtype), [2])
        cases.append(Case(f"fuzz_reorg_yolo_{np.dtype(dtype).name}", feed, [node.output(0)], exact=True))
    return cases


CASES = {
    "roi_align": roi_align_cases() + roi_align_edge_cases(),
    "roi_pooling": roi_pooling_cases(),
    "region_yolo": region_yolo_cases(),
    "reorg_yolo": reorg_yolo_cases(),
    "psroi_pooling": psroi_pooling_cases(),
    "roi_align_rotated": roi_align_rotated_cases(),
    "top_k_rois": top_k_rois_cases(),
    "roi_feature_extractor": roi_feature_extractor_cases(),
    "deformable_psroi_pooling": deformable_psroi_pooling_cases(),
    "fuzz_found_roi_align": fuzz_found_roi_align_cases(),
    "fuzz_found_pooling": fuzz_found_pooling_cases(),
    "fuzz_found_yolo": fuzz_found_yolo_cases(),
}
ALL = [(name, case) for name, cases in CASES.items() for case in cases]


@pytest.fixture(scope="module")
def batches(tmp_path_factory: pytest.TempPathFactory) -> Batches:
    return Batches(CASES, tmp_path_factory)


@pytest.mark.parametrize(("suite", "case"), ALL, ids=[case.name for _, case in ALL])
def test_kernel_matches_openvino(batches: Batches, suite: str, case: Case) -> None:
    problem = batches[suite].mismatch(case)
    assert problem is None, problem
