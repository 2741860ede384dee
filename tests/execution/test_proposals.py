"""Differential tests of the proposals family's kernels (DetectionOutput-1/8, Proposal-1/4,
MulticlassNms-8/9) against OpenVINO's
CPU plugin: seeded priors (normalized or in pixels, some lists ended by an image number of -1,
one set for all images or one an image), variances in the proposals or in the target, CORNER and
CENTER_SIZE decoding, shared and per-class locations, Caffe and MXNet styles, the two additional
inputs, every top_k / keep_top_k branch, clipping before and after NMS, tied scores, f32 and f16;
Proposal of both frameworks, several ratios and scales, clipping, normalizing, scaled deltas,
three or four image numbers, pre- and post-NMS limits; MulticlassNms of boxes shared by the
classes or per class with roisnum, every sort, nms_eta, top-k limits, background classes;
MatrixNms of both decay functions, thresholds and sorts; GatherTree of f32, i32, i64 and f16
paths with lengths within and past the steps; GenerateProposals with and without the
coordinates offset, min_size filtering, capped size deltas, pre- and post-NMS limits;
ExperimentalDetectronGenerateProposalsSingleImage likewise for one image;
ExperimentalDetectronDetectionOutput with rois without area, capped size deltas, both weights,
per-class and per-image limits."""

from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset1 as opset1
import openvino.opset4 as opset4
import openvino.opset8 as opset8
import openvino.opset9 as opset9
import pytest
from openvino.utils.node_factory import NodeFactory

from irshape.execute.network import execute
from irshape.ir.reader import read_file

from .harness import CPU_CONFIG, Case, compare, parameter, run_batch

CODE_TYPES = ("caffe.PriorBoxParameter.CORNER", "caffe.PriorBoxParameter.CENTER_SIZE")


def _priors(rng: np.random.Generator, count: int, normalized: bool, size: float) -> np.ndarray:
    """``[count, 4 or 5]`` prior boxes about a few centres (so that decoded boxes overlap)."""
    centres = rng.uniform(0.2, 0.8, (3, 2))[rng.integers(0, 3, count)] + rng.normal(0, 0.05, (count, 2))
    half = rng.uniform(0.05, 0.3, (count, 2))
    boxes = np.concatenate([centres - half, centres + half], -1) * size
    if normalized:
        return boxes
    return np.concatenate([np.zeros((count, 1)), boxes], -1)


def _case(rng: np.random.Generator, index: int, version: int) -> Case:
    images, priors, classes = int(rng.integers(1, 4)), int(rng.integers(1, 9)), int(rng.integers(2, 5))
    share_location = bool(rng.random() < 0.6)
    normalized = bool(rng.random() < 0.6)
    in_target = bool(rng.random() < 0.3)
    five = bool(rng.random() < 0.3)
    mxnet = bool(rng.random() < 0.25)
    locations = 1 if share_location else classes
    keep_top_k = int(rng.choice([-1, -1, 1, 3, 100, -1, 5, 0]))
    top_k = int(rng.choice([-1, -1, 0, 2, 5, -1, 3])) if keep_top_k != 0 else int(rng.choice([-1, 0]))
    attrs: dict[str, object] = {
        "keep_top_k": [keep_top_k],
        "top_k": top_k,
        "nms_threshold": float(rng.choice([0.0, 0.3, 0.45, 0.7, 1.0])),
        "confidence_threshold": float(rng.choice([0.0, 0.0, 0.2, 0.5])),
        "share_location": share_location,
        "normalized": normalized,
        "variance_encoded_in_target": in_target,
        "code_type": CODE_TYPES[int(rng.integers(0, 2))],
        "background_label_id": 0 if mxnet else int(rng.choice([0, 0, -1, 1])),
        "decrease_label_id": mxnet,
        "clip_before_nms": bool(rng.random() < 0.3),
        "clip_after_nms": bool(rng.random() < 0.3),
        "input_width": 1 if normalized else 300,
        "input_height": 1 if normalized else 200,
        "objectness_score": float(rng.choice([0.0, 0.4])),
    }
    if version == 1:
        attrs["num_classes"] = classes
    prior_size = 4 if normalized else 5
    prior_images = images if rng.random() < 0.3 else 1
    boxes = np.stack(
        [_priors(rng, priors, normalized, 1 if normalized else 250) for _ in range(prior_images)]
    )
    if not normalized and index % 5 == 2:  # the list ends early: an image number of -1
        boxes[:, int(rng.integers(1, priors + 1)) - 1 :, 0] = -1
    rows = [boxes.reshape(prior_images, 1, priors * prior_size)]
    if not in_target:
        variances = np.tile([0.1, 0.1, 0.2, 0.2], (prior_images, 1, priors))
        rows.append(np.pad(variances, ((0, 0), (0, 0), (0, priors * (prior_size - 4)))))
    proposals = np.concatenate(rows, 1).astype(np.float32)
    logits = rng.normal(0, 0.6, (images, priors * locations * 4)).astype(np.float32)
    scores = rng.random((images, priors * classes))
    if index % 4 == 1:  # ties
        scores = np.round(scores * 4) / 4
    data = [logits, scores.astype(np.float32), proposals]
    if five:
        data.append(rng.random((images, priors * 2)).astype(np.float32))
        data.append(rng.normal(0, 0.3, (images, priors * locations * 4)).astype(np.float32))
    if index % 7 == 3:  # f16 data (the plugin computes in f32)
        data = [d.astype(np.float16) for d in data]
    params = [parameter(d.shape, d.dtype) for d in data]
    maker = opset1 if version == 1 else opset8
    node = maker.detection_output(*params[:3], attrs, *params[3:])
    return Case(f"detection_output{version}_{index}", dict(zip(params, data, strict=True)), [node.output(0)])


def detection_output_cases() -> list[Case]:
    rng = np.random.default_rng(24)
    return [_case(rng, i, version) for version in (8, 1) for i in range(50)]


def _proposal_case(rng: np.random.Generator, index: int, version: int) -> Case:
    ratios = [[1.0], [0.5, 1.0, 2.0], [0.7, 1.3]][index % 3]
    scales = [[4.0], [2.0, 4.0], [1.0, 2.0, 4.0]][int(rng.integers(0, 3))]
    anchors = len(ratios) * len(scales)
    tensorflow = bool(rng.random() < 0.4)
    batch, height, width = int(rng.integers(1, 3)), int(rng.integers(3, 7)), int(rng.integers(3, 7))
    # the plugin crashes when fewer than 8 boxes go to NMS; boxes min_size filters tie at score 0
    # (the plugin's sort is not stable): min_size times the image scale is at most 1, which no
    # Caffe box (its sizes count the offset 1) falls below, and 0 for TensorFlow's
    attrs = {
        "base_size": np.uint32(rng.choice([8, 16])),
        "pre_nms_topn": np.uint32(rng.choice([8, 20, 1000])),
        "post_nms_topn": np.uint32(rng.choice([1, 4, 10, 300])),
        "nms_thresh": float(rng.choice([0.3, 0.5, 0.7, 1.0])),
        "feat_stride": np.uint32(rng.choice([4, 8, 16])),
        "min_size": np.uint32(rng.choice([1, 2]) if tensorflow else 1),
        "ratio": np.array(ratios, np.float32),
        "scale": np.array(scales, np.float32),
        "clip_before_nms": bool(rng.random() < 0.7),
        "clip_after_nms": bool(rng.random() < 0.4),
        "normalize": bool(rng.random() < 0.3),
        "box_size_scale": float(rng.choice([1.0, 2.0])),
        "box_coordinate_scale": float(rng.choice([1.0, 4.0])),
        "framework": "tensorflow" if tensorflow else "",
    }
    probs = rng.random((batch, anchors * 2, height, width)).astype(np.float32)
    deltas = rng.normal(0, 0.3, (batch, anchors * 4, height, width)).astype(np.float32)
    scale = 0.0 if tensorflow else float(rng.choice([1.0, 0.5]))
    info = [float(rng.integers(40, 120)), float(rng.integers(40, 120)), scale]
    if rng.random() < 0.4:
        info.append(scale)
    image = np.array(info, np.float32)
    data = [probs, deltas, image]
    if index % 6 == 5:  # f16 data, scores distinct in f16 (ties sort in the plugin's own order)
        distinct = rng.permutation(2048)[: probs.size] / 2048  # k / 2048: exact in f16
        data = [d.astype(np.float16) for d in (distinct.reshape(probs.shape), deltas, image)]
    params = [parameter(d.shape, d.dtype) for d in data]
    node = (opset1 if version == 1 else opset4).proposal(*params, attrs)
    return Case(f"proposal{version}_{index}", dict(zip(params, data, strict=True)), list(node.outputs()))


def proposal_cases() -> list[Case]:
    rng = np.random.default_rng(4)
    return [_proposal_case(rng, i, version) for version in (4, 1) for i in range(40)]


def _multiclass_case(rng: np.random.Generator, index: int, version: int) -> Case:
    images, classes, count = int(rng.integers(1, 4)), int(rng.integers(1, 5)), int(rng.integers(1, 12))
    rois = version == 9 and index % 2 == 1
    normalized = bool(rng.random() < 0.6)
    size = 1.0 if normalized else 30.0
    groups = classes if rois else images
    centres = rng.uniform(0.2, 0.8, (groups, 3, 2))[:, rng.integers(0, 3, count)] + rng.normal(
        0, 0.05, (groups, count, 2)
    )
    half = rng.uniform(0.05, 0.25, (groups, count, 2))
    boxes = (np.concatenate([centres - half, centres + half], -1) * size).astype(np.float32)
    score_shape = (classes, count) if rois else (images, classes, count)
    # scores distinct (the plugin takes scores within 1e-6 as tied), exact in f16
    scores = (
        (rng.permutation(2048)[: int(np.prod(score_shape))] / 2048).reshape(score_shape).astype(np.float32)
    )
    options = {
        "sort_result_type": str(rng.choice(["classid", "score", "none"])),
        "sort_result_across_batch": bool(rng.random() < 0.5),
        "output_type": str(rng.choice(["i32", "i64"])),
        "iou_threshold": float(rng.choice([0.0, 0.3, 0.5, 0.7, 1.0])),
        "score_threshold": float(rng.choice([0.0, 0.0, 0.3, 0.6])),
        "nms_top_k": int(rng.choice([-1, -1, 1, 3, 100])),
        "keep_top_k": int(rng.choice([-1, -1, 0, 2, 5])),
        "background_class": int(rng.choice([-1, -1, 0, 2])),
        "nms_eta": float(rng.choice([1.0, 1.0, 0.5, 0.9])),
        "normalized": normalized,
    }
    data = [boxes, scores]
    if index % 7 == 4:
        data = [d.astype(np.float16) for d in data]
    params = [parameter(d.shape, d.dtype) for d in data]
    if rois:
        split = np.sort(rng.integers(0, count + 1, images - 1))
        counts = np.diff(np.concatenate([[0], split, [count]])).astype(np.int32)
        data.append(counts)
        params.append(parameter(counts.shape, np.int32))
        node = opset9.multiclass_nms(*params, **options)
    else:
        node = (opset8 if version == 8 else opset9).multiclass_nms(*params, **options)
    return Case(
        f"multiclass_nms{version}_{index}", dict(zip(params, data, strict=True)), list(node.outputs())
    )


def multiclass_cases() -> list[Case]:
    rng = np.random.default_rng(89)
    return [_multiclass_case(rng, i, version) for version in (8, 9) for i in range(40)]


def _matrix_case(rng: np.random.Generator, index: int) -> Case:
    images, classes, count = int(rng.integers(1, 4)), int(rng.integers(1, 5)), int(rng.integers(1, 12))
    normalized = bool(rng.random() < 0.6)
    size = 1.0 if normalized else 30.0
    centres = rng.uniform(0.2, 0.8, (images, 3, 2))[:, rng.integers(0, 3, count)]
    centres = centres + rng.normal(0, 0.05, (images, count, 2))
    half = rng.uniform(0.05, 0.25, (images, count, 2))
    boxes = (np.concatenate([centres - half, centres + half], -1) * size).astype(np.float32)
    if index % 9 == 4:  # an inverted box (area 0 for the plugin)
        boxes[:, 0, [0, 2]] = boxes[:, 0, [2, 0]]
    scores = (rng.permutation(2048)[: images * classes * count] / 2048).reshape(images, classes, count)
    options = {
        "sort_result_type": str(rng.choice(["classid", "score", "none"])),
        "sort_result_across_batch": bool(rng.random() < 0.5),
        "output_type": str(rng.choice(["i32", "i64"])),
        "score_threshold": float(rng.choice([0.0, 0.0, 0.3])),
        "nms_top_k": int(rng.choice([-1, -1, 1, 3, 100])),
        "keep_top_k": int(rng.choice([-1, -1, 1, 2, 5])),
        "background_class": int(rng.choice([-1, -1, 0, 2])) if classes > 1 else -1,
        "decay_function": str(rng.choice(["gaussian", "linear"])),
        "gaussian_sigma": float(rng.choice([2.0, 0.5])),
        "post_threshold": float(rng.choice([0.0, 0.05, 0.3])),
        "normalized": normalized,
    }
    # the plugin fails when it keeps no box at all: one box of a class not the background scores
    # above every threshold
    scores[0, (int(options["background_class"]) + 1) % classes, 0] = 0.9999
    data = [boxes, scores.astype(np.float32)]
    params = [parameter(d.shape, d.dtype) for d in data]
    node = opset8.matrix_nms(*params, **options)
    return Case(f"matrix_nms_{index}", dict(zip(params, data, strict=True)), list(node.outputs()))


def matrix_cases() -> list[Case]:
    rng = np.random.default_rng(8)
    return [_matrix_case(rng, i) for i in range(40)]


def _gather_tree_case(rng: np.random.Generator, index: int) -> Case:
    time, batch, beams = int(rng.integers(1, 7)), int(rng.integers(1, 4)), int(rng.integers(1, 5))
    dtype = [np.float32, np.int32, np.int64, np.float16][index % 4]
    steps = rng.integers(0, 6, (time, batch, beams)).astype(dtype)
    parents = rng.integers(0, beams, (time, batch, beams)).astype(dtype)
    lengths = rng.integers(1, time + 3, batch).astype(dtype)  # some past max_time
    end = np.array(rng.integers(0, 6), dtype=dtype)
    data = [steps, parents, lengths, end]
    params = [parameter(d.shape, d.dtype) for d in data]
    node = opset1.gather_tree(*params)
    return Case(f"gather_tree_{index}", dict(zip(params, data, strict=True)), [node.output(0)])


def gather_tree_cases() -> list[Case]:
    rng = np.random.default_rng(1)
    return [_gather_tree_case(rng, i) for i in range(40)]


def _generate_proposals_case(rng: np.random.Generator, index: int) -> Case:
    batch, count = int(rng.integers(1, 3)), int(rng.integers(1, 4))
    height, width = int(rng.integers(2, 5)), int(rng.integers(3, 6))  # 8 boxes at least (see Proposal)
    normalized = bool(rng.random() < 0.5)
    size = 1.0 if normalized else 60.0
    grid = np.stack(np.meshgrid(np.arange(height), np.arange(width), indexing="ij"), -1)[:, :, None, ::-1]
    centres = (grid + 0.5) / np.array([width, height]) * size + rng.normal(
        0, 0.02 * size, (height, width, count, 2)
    )
    half = rng.uniform(0.05, 0.3, (height, width, count, 2)) * size
    anchors = np.concatenate([centres - half, centres + half], -1).astype(np.float32)
    deltas = rng.normal(0, 0.3, (batch, count * 4, height, width)).astype(np.float32)
    if index % 5 == 3:  # size deltas past the cap log(1000 / 16), on anchors small enough to show it
        anchors[..., 2:] = anchors[..., :2] + 0.002 * size
        deltas[:, 2::4] += 4.5
    scores = (rng.permutation(2048)[: batch * count * height * width] / 2048).reshape(
        batch, count, height, width
    )
    columns = 3 if rng.random() < 0.5 else 4
    info = np.tile([size, size * 1.2, 1.0, 1.0][:columns], (batch, 1)).astype(np.float32)
    data = [info, anchors, deltas, scores.astype(np.float32)]
    params = [parameter(d.shape, d.dtype) for d in data]
    node = opset9.generate_proposals(
        *params,
        float(rng.choice([0.0, 0.05 * size, 0.2 * size])),
        float(rng.choice([0.3, 0.5, 0.7])),
        int(rng.choice([8, 20, 1000])),
        int(rng.choice([1, 5, 50])),
        normalized,
        1.0,
        str(rng.choice(["i32", "i64"])),
    )
    return Case(f"generate_proposals_{index}", dict(zip(params, data, strict=True)), list(node.outputs()))


def _experimental_proposals_case(rng: np.random.Generator, index: int) -> Case:
    """ExperimentalDetectronGenerateProposalsSingleImage-6 (no Python builder: the opset6 node
    factory): one image, anchors [H * W * A, 4] position-major."""
    count, height, width = int(rng.integers(1, 4)), int(rng.integers(2, 5)), int(rng.integers(3, 6))
    size = 60.0
    grid = np.stack(np.meshgrid(np.arange(height), np.arange(width), indexing="ij"), -1)[:, :, None, ::-1]
    centres = (grid + 0.5) / np.array([width, height]) * size + rng.normal(0, 1.0, (height, width, count, 2))
    half = rng.uniform(2, 15, (height, width, count, 2))
    anchors = np.concatenate([centres - half, centres + half], -1).reshape(-1, 4).astype(np.float32)
    deltas = rng.normal(0, 0.3, (count * 4, height, width)).astype(np.float32)
    scores = (rng.permutation(2048)[: count * height * width] / 2048).reshape(count, height, width)
    info = np.array([size, size * 1.2, 1.0], np.float32)
    data = [info, anchors, deltas, scores.astype(np.float32)]
    params = [parameter(d.shape, d.dtype) for d in data]
    attrs = {
        # too small a box scores 0, and the plugin sorts such ties in an order of its own: a
        # min_size few boxes fall below
        "min_size": float(rng.choice([0.0, 3.0])),
        "nms_threshold": float(rng.choice([0.3, 0.5, 0.7])),
        "post_nms_count": int(rng.choice([1, 5, 50])),
        "pre_nms_count": int(rng.choice([8, 20, 1000])),
    }
    node = NodeFactory("opset6").create(
        "ExperimentalDetectronGenerateProposalsSingleImage", [p.output(0) for p in params], attrs
    )
    return Case(f"experimental_proposals_{index}", dict(zip(params, data, strict=True)), list(node.outputs()))


def _experimental_detection_case(rng: np.random.Generator, index: int) -> Case:
    """ExperimentalDetectronDetectionOutput-6 (the opset6 node factory): rois about a few
    centres, some without area, distinct scores."""
    rois_count, classes = int(rng.integers(1, 12)), int(rng.integers(2, 5))
    centres = rng.uniform(10, 50, (3, 2))[rng.integers(0, 3, rois_count)] + rng.normal(0, 2, (rois_count, 2))
    half = rng.uniform(2, 12, (rois_count, 2))
    if index % 3 == 0:  # small rois, close together: the IoU's offset 1 tells
        half, centres = half / 6, centres[:1] + rng.normal(0, 0.5, (rois_count, 2))
    rois = np.concatenate([centres - half, centres + half], -1).astype(np.float32)
    if index % 6 == 2:
        rois[0, 2] = rois[0, 0]  # no area
    deltas = rng.normal(0, 0.5, (rois_count, classes * 4)).astype(np.float32)
    if index % 5 == 1:
        deltas[:, 2::4] += 3  # past max_delta_log_wh once weighted
    scores = (
        (rng.permutation(2048)[: rois_count * classes] / 2048).reshape(rois_count, classes).astype(np.float32)
    )
    info = np.array([[64.0, 64.0, 1.0]], np.float32)
    data = [rois, deltas, scores, info]
    params = [parameter(d.shape, d.dtype) for d in data]
    attrs = {
        "score_threshold": float(rng.choice([0.0, 0.05, 0.5])),
        "nms_threshold": float(rng.choice([0.3, 0.5, 0.7])),
        "max_delta_log_wh": float(rng.choice([0.5, 4.1])),
        "num_classes": classes,
        "post_nms_count": int(rng.choice([1, 3, 100])),
        "max_detections_per_image": int(rng.choice([1, 5, 100])),
        "class_agnostic_box_regression": bool(rng.random() < 0.3),
        "deltas_weights": [float(w) for w in rng.choice([[10.0, 10.0, 5.0, 5.0], [1.0, 1.0, 1.0, 1.0]])],
    }
    node = NodeFactory("opset6").create(
        "ExperimentalDetectronDetectionOutput", [p.output(0) for p in params], attrs
    )
    return Case(f"experimental_detection_{index}", dict(zip(params, data, strict=True)), list(node.outputs()))


def experimental_detection_cases() -> list[Case]:
    rng = np.random.default_rng(66)
    return [_experimental_detection_case(rng, i) for i in range(40)]


def experimental_proposals_cases() -> list[Case]:
    rng = np.random.default_rng(6)
    return [_experimental_proposals_case(rng, i) for i in range(40)]


def generate_proposals_cases() -> list[Case]:
    rng = np.random.default_rng(9)
    return [_generate_proposals_case(rng, i) for i in range(40)]


# --- last bits: the plugin's arithmetic, compared exactly ------------------------------------


def _exp_last_bit(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """f32 values in [-1.5, 1.5] whose numpy float32 exp is a unit off the correctly rounded
    one (the plugins' ``std::exp``, glibc's expf); any values where numpy has none."""
    grid = np.linspace(-1.5, 1.5, 3001, dtype=np.float32)
    off = grid[np.exp(grid) != np.exp(grid.astype(np.float64)).astype(np.float32)]
    return rng.choice(off if off.size else grid, shape).astype(np.float32)


def _last_bit_generate_proposals(rng: np.random.Generator) -> list[Case]:
    """GenerateProposals-9 and ExperimentalDetectronGenerateProposalsSingleImage-6 whose size
    deltas are such values: the boxes are the plugin's to the last bit only with expf (numpy's
    float32 exp put 171 of 2,965 coordinates of the kernel fuzzer's boxes a unit or more off)."""
    height, width, count = 2, 4, 2
    centres = rng.uniform(200, 300, (height, width, count, 2))
    half = rng.uniform(20, 60, (height, width, count, 2))
    anchors = np.concatenate([centres - half, centres + half], -1).astype(np.float32)
    deltas = rng.normal(0, 0.2, (count, 4, height, width)).astype(np.float32)
    deltas[:, 2:] = _exp_last_bit(rng, (count, 2, height, width))
    scores = (rng.permutation(2048)[: count * height * width] / 2048).reshape(count, height, width)
    info = np.array([600.0, 600.0, 1.0], np.float32)
    cases = []
    data = [info[None], anchors, deltas.reshape(1, -1, height, width), scores[None].astype(np.float32)]
    params = [parameter(d.shape, d.dtype) for d in data]
    node = opset9.generate_proposals(*params, 0.0, 1.0, 1000, 100, False, 1.0, "i32")  # no NMS
    cases.append(
        Case("last_bit_generate_proposals", dict(zip(params, data, strict=True)), list(node.outputs()), True)
    )
    data = [info, anchors.reshape(-1, 4), deltas.reshape(-1, height, width), scores.astype(np.float32)]
    params = [parameter(d.shape, d.dtype) for d in data]
    attrs = {"min_size": 0.0, "nms_threshold": 1.0, "post_nms_count": 16, "pre_nms_count": 1000}
    node = NodeFactory("opset6").create(
        "ExperimentalDetectronGenerateProposalsSingleImage", [p.output(0) for p in params], attrs
    )
    cases.append(
        Case(
            "last_bit_experimental_proposals",
            dict(zip(params, data, strict=True)),
            list(node.outputs()),
            True,
        )
    )
    return cases


def _last_bit_experimental_detection(rng: np.random.Generator) -> Case:
    """ExperimentalDetectronDetectionOutput-6 refining by such size deltas (weights 1)."""
    rois_count, classes = 8, 2
    centres, half = rng.uniform(100, 200, (rois_count, 2)), rng.uniform(10, 40, (rois_count, 2))
    rois = np.concatenate([centres - half, centres + half], -1).astype(np.float32)
    deltas = rng.normal(0, 0.2, (rois_count, classes, 4)).astype(np.float32)
    deltas[..., 2:] = _exp_last_bit(rng, (rois_count, classes, 2))
    scores = (rng.permutation(2048)[: rois_count * classes] / 2048).reshape(rois_count, classes)
    data = [
        rois,
        deltas.reshape(rois_count, -1),
        scores.astype(np.float32),
        np.array([[400.0, 400.0, 1.0]], np.float32),
    ]
    params = [parameter(d.shape, d.dtype) for d in data]
    attrs = {
        "score_threshold": 0.0,
        "nms_threshold": 1.0,
        "max_delta_log_wh": 4.1,
        "num_classes": classes,
        "post_nms_count": 100,
        "max_detections_per_image": 100,
        "class_agnostic_box_regression": False,
        "deltas_weights": [1.0, 1.0, 1.0, 1.0],
    }
    node = NodeFactory("opset6").create(
        "ExperimentalDetectronDetectionOutput", [p.output(0) for p in params], attrs
    )
    return Case(
        "last_bit_experimental_detection", dict(zip(params, data, strict=True)), list(node.outputs()), True
    )


def _last_bit_detection_output(rng: np.random.Generator) -> Case:
    """DetectionOutput-8 CENTER_SIZE decoding by such size offsets (variances in the target)."""
    priors, classes = 8, 2
    boxes = _priors(rng, priors, True, 1).astype(np.float32).reshape(1, 1, -1)
    logits = rng.normal(0, 0.2, (1, priors, 4)).astype(np.float32)
    logits[..., 2:] = _exp_last_bit(rng, (1, priors, 2))
    scores = (rng.permutation(2048)[: priors * classes] / 2048).astype(np.float32).reshape(1, -1)
    attrs = {
        "keep_top_k": [-1],
        "top_k": -1,
        "nms_threshold": 1.0,
        "confidence_threshold": 0.0,
        "share_location": True,
        "normalized": True,
        "variance_encoded_in_target": True,
        "code_type": CODE_TYPES[1],
        "background_label_id": -1,
    }
    data = [logits.reshape(1, -1), scores, boxes]
    params = [parameter(d.shape, d.dtype) for d in data]
    node = opset8.detection_output(*params, attrs)
    return Case("last_bit_detection_output", dict(zip(params, data, strict=True)), [node.output(0)], True)


def _last_bit_proposals(rng: np.random.Generator) -> list[Case]:
    """Proposal-1 of both frameworks: its size deltas through expf, and the new centre
    ``dx * width + centre`` one fused multiply-add, as the plugin's ``proposal_imp.cpp`` (built
    for the machine's instruction set, so the compiler contracts it) computes it: TensorFlow's
    widths are not integers, so its rounded product put 289 of 43,975 of the kernel fuzzer's
    coordinates a unit or more off."""
    cases = []
    for framework in ("tensorflow", ""):
        height, width, anchors = 4, 4, 6
        probs = (rng.permutation(2048)[: 2 * anchors * height * width] / 2048).reshape(
            1, 2 * anchors, height, width
        )
        deltas = rng.normal(0, 0.5, (1, anchors, 4, height, width)).astype(np.float32)
        deltas[:, :, 2:] = _exp_last_bit(rng, (1, anchors, 2, height, width))
        attrs = {
            "base_size": np.uint32(16),
            "pre_nms_topn": np.uint32(1000),
            "post_nms_topn": np.uint32(anchors * height * width),
            "nms_thresh": 1.0,  # no NMS
            "feat_stride": np.uint32(8),
            "min_size": np.uint32(1),
            "ratio": np.array([0.7, 1.3], np.float32),
            "scale": np.array([1.3, 2.0, 4.1], np.float32),
            "clip_before_nms": False,
            "clip_after_nms": False,
            "framework": framework,
        }
        data = [
            probs.astype(np.float32),
            deltas.reshape(1, -1, height, width),
            np.array([300.0, 300.0, 1.0], np.float32),
        ]
        params = [parameter(d.shape, d.dtype) for d in data]
        node = opset1.proposal(*params, attrs)
        cases.append(
            Case(
                f"last_bit_proposal_{framework or 'caffe'}",
                dict(zip(params, data, strict=True)),
                [node.output(0)],
                True,
            )
        )
    return cases


def _last_bit_matrix_nms(rng: np.random.Generator) -> Case:
    """MatrixNms-8's linear decay in float32 (by experiment: in double, or the numerator in
    double, a few scores of 40 overlapping boxes come out a unit off)."""
    count = 40
    centres, half = rng.uniform(0.3, 0.7, (count, 2)), rng.uniform(0.05, 0.3, (count, 2))
    boxes = np.concatenate([centres - half, centres + half], -1).astype(np.float32)[None]
    scores = (rng.permutation(2048)[:count] / 2048).astype(np.float32).reshape(1, 1, count)
    params = [parameter(d.shape, d.dtype) for d in (boxes, scores)]
    node = opset8.matrix_nms(
        *params, decay_function="linear", post_threshold=0.0, background_class=-1, sort_result_type="none"
    )
    return Case(
        "last_bit_matrix_nms", dict(zip(params, (boxes, scores), strict=True)), list(node.outputs()), True
    )


def _matrix_nms_without_area(decay: str) -> Case:
    """MatrixNms-8 of two equal boxes without area: their IoU is 0 / 0, NaN, which the plugin's
    std::max (the largest IoU) and std::min (the least decay) skip, so the boxes after them keep
    their scores (irshape's NaN dropped all of them)."""
    boxes = np.array(
        [
            [
                [0.5, 0.5, 0.5, 0.75],
                [0, 0.75, 0, 1],
                [0.5, 0.5, 0.5, 0.75],
                [0.25, 0, 0.75, 0.5],
                [0, 0, 0.5, 0.5],
            ]
        ],
        np.float32,
    )
    scores = np.array([[[0.9, 0.8, 0.7, 0.6, 0.5], [0.45, 0.55, 0.65, 0.75, 0.85]]], np.float32)
    params = [parameter(d.shape, d.dtype) for d in (boxes, scores)]
    node = opset8.matrix_nms(*params, decay_function=decay, post_threshold=0.05, background_class=-1)
    return Case(
        f"matrix_nms_nan_iou_{decay}", dict(zip(params, (boxes, scores), strict=True)), list(node.outputs())
    )


def last_bit_cases() -> list[Case]:
    rng = np.random.default_rng(2026)
    return [
        *_last_bit_generate_proposals(rng),
        _last_bit_experimental_detection(rng),
        _last_bit_detection_output(rng),
        *_last_bit_proposals(rng),
        _last_bit_matrix_nms(rng),
        _matrix_nms_without_area("linear"),
        _matrix_nms_without_area("gaussian"),
    ]


CASES = (
    detection_output_cases()
    + proposal_cases()
    + multiclass_cases()
    + matrix_cases()
    + gather_tree_cases()
    + generate_proposals_cases()
    + experimental_proposals_cases()
    + experimental_detection_cases()
    + last_bit_cases()
)


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("proposals"))


@pytest.mark.parametrize("case", [c for c in CASES if c.name.startswith("detection")], ids=lambda c: c.name)
def test_detection_output(batch, case):
    assert batch.error is None, batch.error
    assert batch.mismatch(case) is None, batch.mismatch(case)


@pytest.mark.parametrize(
    "case",
    [
        c
        for c in CASES
        if c.name.startswith(("multiclass", "matrix", "gather_tree", "generate", "experimental"))
    ],
    ids=lambda c: c.name,
)
def test_nms_and_gather_tree(batch, case):
    assert batch.error is None, batch.error
    assert batch.mismatch(case) is None, batch.mismatch(case)


@pytest.mark.parametrize("case", [c for c in CASES if c.name.startswith("proposal")], ids=lambda c: c.name)
def test_proposal(batch, case):
    """The boxes exactly as the plugin's; Proposal-4's scores of the kept boxes (the plugin
    leaves the others unwritten)."""
    assert batch.error is None, batch.error
    names = batch.names[case.name]
    expected, got = batch.expected[names[0]], batch.got[names[0]]
    assert compare(expected, got) is None, compare(expected, got)
    if len(names) == 2:
        post = len(expected) // case.outputs[0].get_node().input_value(0).get_partial_shape()[0].get_length()
        kept = (expected.reshape(-1, post, 5)[..., 0] != -1) & (
            expected.reshape(-1, post, 5)[..., 1:] != 0
        ).any(-1)
        kept = np.maximum.accumulate(kept[:, ::-1], axis=1)[:, ::-1].reshape(-1)  # up to the last box kept
        scores_expected, scores_got = batch.expected[names[1]], batch.got[names[1]]
        assert compare(scores_expected[kept], scores_got[kept]) is None
        assert (scores_got[~kept] == 0).all()


@pytest.mark.parametrize("case", [c for c in CASES if c.name.startswith("last_bit")], ids=lambda c: c.name)
def test_last_bit(batch, case):
    """Exactly the plugin's floats (``Case.exact``)."""
    assert batch.error is None, batch.error
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_proposal_of_another_framework_refused(tmp_path):
    """The CPU plugin runs Proposal only of framework "" or "tensorflow" (``nodes/proposal.cpp``'s
    isSupportedOperation; any other name fails to compile): irshape refuses the others too (it
    ran "caffe" as ""; found by the kernel fuzzer)."""
    probs, deltas, info = parameter((1, 2, 4, 4)), parameter((1, 4, 4, 4)), parameter((3,))
    for name, param in (("probs", probs), ("deltas", deltas), ("info", info)):
        param.set_friendly_name(name)
        param.output(0).set_names({name})
    attrs = {
        "base_size": np.uint32(8),
        "pre_nms_topn": np.uint32(20),
        "post_nms_topn": np.uint32(5),
        "nms_thresh": 0.5,
        "feat_stride": np.uint32(4),
        "min_size": np.uint32(1),
        "ratio": np.array([1.0], np.float32),
        "scale": np.array([2.0], np.float32),
        "framework": "caffe",
    }
    node = opset1.proposal(probs, deltas, info, attrs)
    xml = tmp_path / "proposal.xml"
    ov.save_model(ov.Model([node], [probs, deltas, info]), xml)
    with pytest.raises(RuntimeError, match="Proposal"):
        ov.Core().compile_model(str(xml), "CPU", CPU_CONFIG)
    document = read_file(xml).document
    assert document is not None
    inputs = {
        "probs": np.full((1, 2, 4, 4), 0.5, np.float32),
        "deltas": np.zeros((1, 4, 4, 4), np.float32),
        "info": np.array([64, 64, 1], np.float32),
    }
    with pytest.raises(ValueError, match="framework 'caffe'"):
        execute(document, inputs)
