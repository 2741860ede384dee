"""The kernel fuzzer's drawers for the proposal, detection-output and NMS op versions
(irshape/kernels/proposals.py and detection.py): DetectionOutput-1/8, Proposal-1/4,
GenerateProposals-9, the ExperimentalDetectron proposals and detection output, MatrixNms-8,
MulticlassNms-8/9, GatherTree-1, NonMaxSuppression-1/3/4 and NMSRotated-13. The machinery, the
budget and its environment variables: ``fuzzing.py``.

Scores are drawn distinct (a permutation of ``k / 2048``, exact in f16; of ``k / 256`` for
bf16): tied scores are the plugin's own order (its partial sorts are not stable), which the
family suites test where it is a rule."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from .fuzzing import (
    BF16,
    F16,
    F32,
    F64,
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

CODE_TYPES = ["caffe.PriorBoxParameter.CORNER", "caffe.PriorBoxParameter.CENTER_SIZE"]


def feed(d: Draw, values: np.ndarray, element_type: str) -> Node:
    """A Parameter fed with ``values`` (bf16 through a Convert of f32, as ``Draw.data``)."""
    fed = F32 if element_type == BF16 else element_type
    parameter = opset.parameter(list(values.shape), ov_type(fed))
    d.inputs[parameter] = np.asarray(values).astype(numpy_type(fed))
    return opset.convert(parameter, BF16) if element_type == BF16 else parameter


def distinct(d: Draw, shape: Sequence[int], element_type: str) -> np.ndarray:
    """Scores in [0, 1), all different, exact in ``element_type``."""
    steps = 256 if element_type == BF16 else 2048
    count = int(np.prod(shape))
    if count > steps:
        raise Redraw("too many scores to keep them distinct")
    return (d.rng.permutation(steps)[:count] / steps).reshape(shape)


def boxes_about(d: Draw, shape: Sequence[int], size: float) -> np.ndarray:
    """``[..., 4]`` boxes ``(x1, y1, x2, y2)`` about a few centres (so that many overlap); now
    and then on a grid of quarters, so that IoUs are exact fractions (at the thresholds, 0.5
    and 1, and touching boxes at 0)."""
    if d.chance(0.25):
        corner = d.rng.integers(0, 4, (*shape, 2))
        extent = d.rng.integers(0, 3, (*shape, 2)) if d.chance(0.3) else d.rng.integers(1, 3, (*shape, 2))
        return np.concatenate([corner, corner + extent], -1) * (size / 4)
    centres = d.rng.uniform(0.2, 0.8, (3, 2))[d.rng.integers(0, 3, shape)]
    centres = centres + d.rng.normal(0, 0.05, (*shape, 2))
    half = d.rng.uniform(0.02, 0.3, (*shape, 2))
    return np.concatenate([centres - half, centres + half], -1) * size


# --- DetectionOutput -------------------------------------------------------------------------


@drawer("proposals", "DetectionOutput-1", "DetectionOutput-8")
def _detection_output(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = d.pick([F32, F32, F16, BF16, F64])
    images, priors, classes = d.int(1, 3), d.int(1, 8), d.int(1, 4)
    share_location = d.chance(0.6)
    normalized = d.chance(0.6)
    in_target = d.chance(0.3)
    five = d.chance(0.3)
    mxnet = d.chance(0.25)
    locations = 1 if share_location else classes
    keep_top_k = d.pick([-1, -1, 0, 1, 3, 5, 100, -2])
    top_k = d.pick([-1, -1, 0, 1, 2, 5, 100, -3])
    if keep_top_k != -1 and keep_top_k <= 0 and top_k > 0:
        # the plugin sizes its buffers by top_k then and leaves the output's later rows
        # unwritten (by experiment: garbage that changes from run to run; irshape refuses it)
        raise Redraw("a positive top_k with keep_top_k neither -1 nor positive")
    width, height = (1, 1) if normalized else (d.pick([1, 300, 77]), d.pick([1, 200, 64]))
    attributes: dict[str, object] = {
        "keep_top_k": [keep_top_k],
        "top_k": top_k,
        "nms_threshold": d.pick([0.0, 0.3, 0.45, 0.7, 1.0]),
        "confidence_threshold": d.pick([0.0, 0.0, 0.2, 0.5, -1.0]),
        "share_location": share_location,
        "normalized": normalized,
        "variance_encoded_in_target": in_target,
        "code_type": d.pick(CODE_TYPES),
        "background_label_id": 0 if mxnet and d.chance(0.9) else d.pick([0, -1, 1, 2, classes]),
        "decrease_label_id": mxnet,
        "clip_before_nms": d.chance(0.3),
        "clip_after_nms": d.chance(0.3),
        "input_width": width,
        "input_height": height,
        "objectness_score": d.pick([0.0, 0.4, 0.8]),
    }
    if version == 1:
        attributes["num_classes"] = classes
    prior_size = 4 if normalized else 5
    prior_images = images if d.chance(0.3) else 1
    boxes = boxes_about(d, (prior_images, priors), 1.0) * (1 if normalized else [width, height] * 2)
    if d.chance(0.1):  # boxes past the image, inverted ones
        boxes = boxes * d.pick([1.8, -1.0])
    if not normalized:
        boxes = np.concatenate([np.zeros((prior_images, priors, 1)), boxes], -1)
        if d.chance(0.3):  # the list ends early: an image number of -1
            boxes[:, d.int(0, priors - 1) :, 0] = -1
    rows = [boxes.reshape(prior_images, 1, priors * prior_size)]
    if not in_target or d.chance(0.3):
        variances = d.rng.uniform(0.05, 0.5, (prior_images, 1, priors * 4))
        rows.append(np.pad(variances, ((0, 0), (0, 0), (0, priors * (prior_size - 4)))))
    proposals = np.concatenate(rows, 1)
    logits = d.rng.normal(0, d.pick([0.3, 1.0]), (images, priors * locations * 4))
    if d.chance(0.2):  # the boxes are the priors (CORNER): on the grid, IoUs at the thresholds
        logits = np.zeros_like(logits)
    scores = distinct(d, (images, priors * classes), element_type)
    if d.chance(0.2):  # below 0 too (MXNet style takes only scores above -1)
        scores = scores * 3 - 1.5
    inputs = [feed(d, logits, element_type), feed(d, scores, element_type), feed(d, proposals, element_type)]
    if five:
        inputs.append(feed(d, d.rng.random((images, priors * 2)), element_type))
        inputs.append(feed(d, d.rng.normal(0, 0.3, (images, priors * locations * 4)), element_type))
    return [make(version, op, inputs, attributes)]


# --- Proposal ------------------------------------------------------------------------------


@drawer("proposals", "Proposal-1", "Proposal-4")
def _proposal(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = d.pick([F32, F32, F16, BF16, F64])
    ratios = d.pick([[1.0], [0.5, 1.0, 2.0], [0.7, 1.3], [0.33]])
    scales = d.pick([[4.0], [2.0, 4.0], [1.0, 2.0, 4.0], [0.5]])
    anchors = len(ratios) * len(scales)
    tensorflow = d.chance(0.4)
    batch, height, width = d.int(1, 2), d.int(1, 6), d.int(1, 6)
    pre_nms_topn = d.pick([8, 20, 1000])
    if min(pre_nms_topn, anchors * height * width) < 8:
        # the plugin crashes (a segmentation fault, by experiment) when fewer than 8 boxes go
        # to NMS (irshape/kernels/proposals.py)
        raise Redraw("fewer than 8 boxes to NMS")
    # a box min_size filters scores 0, and the plugin sorts such ties in an order of its own:
    # min_size times the image scale at most 1, which no Caffe box (its sizes count the offset
    # 1) falls below, and 0 for TensorFlow's
    scale = 0.0 if tensorflow else d.pick([1.0, 0.5])
    attributes = {
        "base_size": d.pick([1, 8, 16]),
        "pre_nms_topn": pre_nms_topn,
        "post_nms_topn": d.pick([1, 4, 10, 300]),
        "nms_thresh": d.pick([0.0, 0.3, 0.5, 0.7, 1.0]),
        "feat_stride": d.pick([1, 4, 8, 16]),
        "min_size": d.pick([0, 1, 2]) if tensorflow else d.pick([0, 1]),
        "ratio": ratios,
        "scale": scales,
        "clip_before_nms": d.chance(0.7),
        "clip_after_nms": d.chance(0.4),
        "normalize": d.chance(0.3),
        "box_size_scale": d.pick([1.0, 2.0, 5.0]),
        "box_coordinate_scale": d.pick([1.0, 4.0, 10.0]),
        # ("caffe", or any other name: the plugin refuses it)
        "framework": "tensorflow" if tensorflow else d.pick(["", "", "", "", "caffe"]),
    }
    probs = distinct(d, (batch, anchors * 2, height, width), element_type)
    deltas = d.rng.normal(0, d.pick([0.3, 1.0]), (batch, anchors * 4, height, width))
    info = [float(d.int(10, 120)), float(d.int(10, 120)), scale]
    if d.chance(0.4):
        info.append(scale)
    inputs = [
        feed(d, probs, element_type),
        feed(d, deltas, element_type),
        feed(d, np.array(info), element_type),
    ]
    node = make(version, op, inputs, attributes)
    if version == 1:
        return [node]
    return [opset.concat([node.output(0)], 0), _kept_scores(node)]


def _kept_scores(node: Node) -> Node:
    """Proposal-4's scores up to the last kept box, 0 past it (the plugin leaves those
    unwritten: garbage, by experiment): a box row whose image number or coordinates are not 0,
    and every row before it, is kept."""
    rows = node.output(0)
    nonzero = opset.reduce_logical_or(
        opset.not_equal(rows, opset.constant(np.array(0.0), rows.get_element_type())), 1
    )
    not_end = opset.not_equal(
        opset.gather(rows, opset.constant(0), opset.constant(1)),
        opset.constant(np.array(-1.0), rows.get_element_type()),
    )
    # rows after the last kept row: a reversed running count of kept rows that is 0
    marks = opset.convert(opset.logical_and(nonzero, not_end), "i32")
    post = node.output(1).get_partial_shape()[0].get_length()
    images = node.input_value(0).get_partial_shape()[0].get_length()
    per_image = opset.reshape(marks, opset.constant(np.array([images, post // images])), False)
    later = opset.reshape(
        opset.cumsum(per_image, opset.constant(1), reverse=True), opset.constant(np.array([post])), False
    )
    kept = opset.greater(later, opset.constant(np.int32(0)))
    return opset.select(
        kept, node.output(1), opset.constant(np.array(0.0), node.output(1).get_element_type())
    )


# --- GenerateProposals and the ExperimentalDetectron ops -----------------------------------


def _grid_anchors(d: Draw, height: int, width: int, count: int, size: float) -> np.ndarray:
    """``[H, W, A, 4]`` anchors about each position's centre."""
    grid = np.stack(np.meshgrid(np.arange(height), np.arange(width), indexing="ij"), -1)[:, :, None, ::-1]
    centres = (grid + 0.5) / np.array([width, height]) * size
    centres = centres + d.rng.normal(0, 0.02 * size, (height, width, count, 2))
    half = d.rng.uniform(0.05, 0.3, (height, width, count, 2)) * size
    return np.concatenate([centres - half, centres + half], -1)


@drawer("proposals", "GenerateProposals-9")
def _generate_proposals(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16, BF16, F64])
    batch, count = d.int(1, 2), d.int(1, 3)
    height, width = d.int(1, 4), d.int(1, 5)
    pre_nms_count = d.pick([8, 20, 1000])
    if min(pre_nms_count, count * height * width) < 8:
        raise Redraw("fewer than 8 boxes to NMS (Proposal's crash)")
    normalized = d.chance(0.5)
    size = 1.0 if normalized else 60.0
    anchors = _grid_anchors(d, height, width, count, size)
    deltas = d.rng.normal(0, 0.3, (batch, count * 4, height, width))
    if d.chance(0.2):  # size deltas past the cap log(1000 / 16), on anchors small enough to show it
        anchors[..., 2:] = anchors[..., :2] + 0.002 * size
        deltas[:, 2::4] += 4.5
    scores = distinct(d, (batch, count, height, width), element_type)
    columns = d.pick([3, 4])
    info = np.tile([size, size * d.pick([1.0, 1.2, 0.5]), 1.0, d.pick([1.0, 2.0])][:columns], (batch, 1))
    inputs = [feed(d, values, element_type) for values in (info, anchors, deltas, scores)]
    attributes = {
        "min_size": d.pick([0.0, 0.05 * size, 0.2 * size]),
        "nms_threshold": d.pick([0.0, 0.3, 0.5, 0.7, 1.0]),
        "pre_nms_count": pre_nms_count,
        "post_nms_count": d.pick([1, 5, 50]),
        "normalized": normalized,
        "nms_eta": d.pick([1.0, 1.0, 0.5]),
        "roi_num_type": d.pick(["i32", "i64"]),
    }
    return [make(9, "GenerateProposals", inputs, attributes)]


@drawer("proposals", "ExperimentalDetectronGenerateProposalsSingleImage-6")
def _experimental_proposals(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16, BF16, F64])
    count, height, width = d.int(1, 3), d.int(1, 4), d.int(1, 5)
    size = 60.0
    anchors = _grid_anchors(d, height, width, count, size).reshape(-1, 4)
    deltas = d.rng.normal(0, 0.3, (count * 4, height, width))
    scores = distinct(d, (count, height, width), element_type)
    info = np.array([size, size * d.pick([1.0, 1.2]), 1.0])
    inputs = [feed(d, values, element_type) for values in (info, anchors, deltas, scores)]
    attributes = {
        "min_size": d.pick([0.0, 3.0, 10.0]),
        "nms_threshold": d.pick([0.0, 0.3, 0.5, 0.7, 1.0]),
        "post_nms_count": d.pick([1, 5, 50]),
        "pre_nms_count": d.pick([1, 8, 20, 1000]),
    }
    node = make(6, "ExperimentalDetectronGenerateProposalsSingleImage", inputs, attributes)
    # too small a box scores 0 and is kept, and the plugin sorts such ties in an order of its
    # own (not stable: two of them swapped, by experiment): the rows of score 0 compared as 0s
    rois, roi_scores = node.output(0), node.output(1)
    zero = opset.constant(np.array(0.0), roi_scores.get_element_type())
    scored = opset.unsqueeze(opset.greater(roi_scores, zero), opset.constant(np.int64(1)))
    rows = opset.select(scored, rois, opset.constant(np.array(0.0), rois.get_element_type()))
    return [rows, opset.concat([roi_scores], 0)]


@drawer("proposals", "ExperimentalDetectronDetectionOutput-6")
def _experimental_detection(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16, BF16, F64])
    rois_count, classes = d.int(1, 12), d.int(1, 4)
    rois = boxes_about(d, (rois_count,), 60.0)
    if d.chance(0.3):  # small rois, close together: the IoU's offset 1 tells
        rois = rois[:1] + d.rng.normal(0, 0.5, (rois_count, 4)) * [1, 1, 1, 1] / 6
    if d.chance(0.2):
        rois[0, 2] = rois[0, 0]  # no area
    deltas = d.rng.normal(0, 0.5, (rois_count, classes * 4))
    if d.chance(0.2):
        deltas[:, 2::4] += 3  # past max_delta_log_wh once weighted
    scores = distinct(d, (rois_count, classes), element_type)
    info = np.array([[64.0, 64.0, 1.0]])
    inputs = [feed(d, values, element_type) for values in (rois, deltas, scores, info)]
    attributes = {
        "score_threshold": d.pick([0.0, 0.05, 0.5]),
        "nms_threshold": d.pick([0.0, 0.3, 0.5, 0.7, 1.0]),
        "max_delta_log_wh": d.pick([0.5, 4.1]),
        "num_classes": classes,
        "post_nms_count": d.pick([1, 3, 100]),
        "max_detections_per_image": d.pick([1, 5, 100]),
        "class_agnostic_box_regression": d.chance(0.3),
        "deltas_weights": d.pick([[10.0, 10.0, 5.0, 5.0], [1.0, 1.0, 1.0, 1.0], [2.0, 0.5, 1.0, 3.0]]),
    }
    return [make(6, "ExperimentalDetectronDetectionOutput", inputs, attributes)]


# --- MatrixNms, MulticlassNms --------------------------------------------------------------


def _nms_boxes(d: Draw, shape: Sequence[int], normalized: bool) -> np.ndarray:
    boxes = boxes_about(d, shape, 1.0 if normalized else 30.0)
    if d.chance(0.15):  # an inverted box
        boxes[..., 0, [0, 2]] = boxes[..., 0, [2, 0]]
    return boxes


@drawer("proposals", "MatrixNms-8")
def _matrix_nms(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F32, F16, F16, BF16])  # (bf16: the plugin refuses it)
    images, classes, count = d.int(1, 3), d.int(1, 4), d.int(1, 10)
    normalized = d.chance(0.6)
    boxes = _nms_boxes(d, (images, count), normalized)
    scores = distinct(d, (images, classes, count), element_type)
    background = d.pick([-1, -1, 0, 2])
    if d.chance(0.8):
        # the plugin fails when it keeps no box at all ('Total number of boxes is less or equal
        # than 0'): one box of a class not the background scores above every threshold
        scores = scores / 2  # (k / 4096: still exact)
        scores[0, (background + 1) % classes, 0] = 0.75
    attributes = {
        "sort_result_type": d.pick(["classid", "score", "none"]),
        "sort_result_across_batch": d.chance(0.5),
        "output_type": d.pick(["i32", "i64"]),
        "score_threshold": d.pick([0.0, 0.0, 0.3]),
        # (nms_top_k 0 crashes the plugin: a segmentation fault, by experiment)
        "nms_top_k": d.pick([-1, -1, 1, 3, 100]),
        "keep_top_k": d.pick([-1, -1, 1, 2, 5, -1, 1, 2, 5, 0]),
        "background_class": background,
        "decay_function": d.pick(["gaussian", "linear"]),
        "gaussian_sigma": d.pick([2.0, 0.5, 0.0]),
        "post_threshold": d.pick([0.0, 0.05, 0.3]),
        "normalized": normalized,
    }
    inputs = [feed(d, boxes, element_type), feed(d, scores, element_type)]
    return [make(8, "MatrixNms", inputs, attributes)]


@drawer("proposals", "MulticlassNms-8", "MulticlassNms-9")
def _multiclass_nms(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = d.pick([F32, F32, F16, BF16, F64])
    images, classes, count = d.int(1, 3), d.int(1, 4), d.int(1, 10)
    rois = version == 9 and d.chance(0.5)
    normalized = d.chance(0.6)
    boxes = _nms_boxes(d, (classes if rois else images, count), normalized)
    scores = distinct(d, (classes, count) if rois else (images, classes, count), element_type)
    attributes = {
        "sort_result_type": d.pick(["classid", "score", "none"]),
        "sort_result_across_batch": d.chance(0.5),
        "output_type": d.pick(["i32", "i64"]),
        "iou_threshold": d.pick([0.0, 0.3, 0.5, 0.7, 1.0]),
        "score_threshold": d.pick([0.0, 0.0, 0.3, 0.6]),
        # (nms_top_k 0: the plugin writes no output; by experiment its selected_num is then
        # whatever the memory held, 1102315520 in a batch of configurations)
        "nms_top_k": d.pick([-1, -1, 1, 3, 100]),
        "keep_top_k": d.pick([-1, -1, 0, 2, 5]),
        "background_class": d.pick([-1, -1, 0, 2]),
        "nms_eta": d.pick([1.0, 1.0, 0.5, 0.9]),
        "normalized": normalized,
    }
    inputs = [feed(d, boxes, element_type), feed(d, scores, element_type)]
    if rois:
        split = np.sort(d.rng.integers(0, count + 1, images - 1))
        counts = np.diff(np.concatenate([[0], split, [count]]))
        inputs.append(feed(d, counts, d.pick(["i32", "i64"])))
    return [make(version, op, inputs, attributes)]


# --- GatherTree ----------------------------------------------------------------------------


@drawer("proposals", "GatherTree-1")
def _gather_tree(d: Draw) -> Sequence[Node]:
    # (bf16: the plugin refuses it, 'incorrect input/output data precision')
    element_type = d.pick([F32, F32, "i32", "i64", F16, F64, BF16])
    real = element_type in (F32, F16, BF16, F64)
    dtype = numpy_type(element_type)
    time, batch, beams = d.int(1, 6), d.int(0, 3) if d.chance(0.1) else d.int(1, 3), d.int(1, 4)
    steps = d.rng.integers(-1, 6, (time, batch, beams)).astype(dtype)
    if d.chance(0.3):  # the type's edges: extremes, and NaN, infinities, halves of reals
        steps = d.values((time, batch, beams), element_type)
    parents = d.rng.integers(0, beams, (time, batch, beams)).astype(dtype)
    # lengths of 0 and below leave the plugin's output of the batch unwritten (by experiment:
    # values that change from run to run)
    lengths = d.rng.integers(1, time + 3, batch).astype(dtype)  # some past max_time
    if real and d.chance(0.3):  # parents and lengths not integers: cast to int32 (truncated)
        parents = parents + d.rng.uniform(0, 0.99, parents.shape).astype(dtype)
        lengths = lengths + d.rng.uniform(0, 0.99, lengths.shape).astype(dtype)
    end = np.array(d.pick([d.int(-1, 6), *steps.reshape(-1)[:1]])).astype(dtype)
    if d.chance(0.1) and steps.size:
        parents[d.int(0, time - 1), 0, 0] = d.pick([-1, beams])  # 'Wrong parent index'
    inputs = [feed(d, values, element_type) for values in (steps, parents, lengths, end)]
    return [make(1, "GatherTree", inputs)]


# --- NonMaxSuppression-1/3/4, NMSRotated-13 ---------------------------------------------------


def _nms_inputs(d: Draw, width: int) -> tuple[Node, Node, list[Node]]:
    batches, classes, boxes = d.int(1, 2), d.int(1, 3), d.int(1, 8)
    element_type = d.pick([F32, F32, F32, F16, F16, BF16, F64])
    if width == 5:  # x, y, w, h, angle
        centres = d.rng.uniform(0, 10, (batches, boxes, 2))
        sizes = d.rng.uniform(0.5, 4, (batches, boxes, 2))
        if d.chance(0.15):
            sizes[..., 0] = 0  # without area
        angles = d.rng.uniform(-np.pi, np.pi, (batches, boxes, 1))
        if d.chance(0.3):  # right angles: edges on edges
            angles = np.round(angles / (np.pi / 2)) * (np.pi / 2)
        if d.chance(0.2):  # on a grid, unrotated
            centres, sizes = (
                d.rng.integers(0, 4, (batches, boxes, 2)),
                d.rng.integers(1, 3, (batches, boxes, 2)),
            )
            angles = np.zeros((batches, boxes, 1))
        values = np.concatenate([centres, sizes, angles], -1)
    elif d.chance(0.3):  # on a grid: exact IoUs, some at the thresholds, some boxes without area
        values = d.rng.integers(0, 4, (batches, boxes, 4)).astype(np.float64)
        if d.chance(0.5):
            values[..., 2:] = values[..., :2] + d.rng.integers(0, 3, (batches, boxes, 2))
    else:
        values = d.rng.random((batches, boxes, 4)) * 10
        if d.chance(0.5):  # corner: y1 x1 y2 x2 (either order); centre: x y w h
            values[..., 2:] = values[..., :2] + d.rng.random((batches, boxes, 2)) * 5
    box_input = feed(d, values, element_type)
    scores = feed(d, distinct(d, (batches, classes, boxes), element_type), element_type)
    # (max_output_boxes_per_class of 0 leaves the plugin's valid_outputs uninitialised)
    thresholds = [d.pick([0.0, 0.3, 0.5, 1.0, 1.5, -0.5]), d.pick([0.0, 0.2, 0.6, -1.0])]
    threshold_type = d.pick([F32, F32, F16])
    limits = [d.const(np.array(d.pick([1, 2, 3, 5, 100, 2**31 - 1])), d.pick(["i32", "i64"]))]
    for value in thresholds:  # constants, or Parameters: values known only when the plugin runs
        fed = np.array(value, numpy_type(threshold_type))
        limits.append(feed(d, fed, threshold_type) if d.chance(0.3) else d.const(fed, threshold_type))
    return box_input, scores, limits


@drawer("detection", "NonMaxSuppression-1", "NonMaxSuppression-3", "NonMaxSuppression-4")
def _static_nms(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    boxes, scores, limits = _nms_inputs(d, 4)
    limits = limits[: d.int(1, 3)]  # (without max_output_boxes_per_class the rows are not static)
    attributes: dict[str, object] = {
        "box_encoding": d.pick(["corner", "center"]),
        "sort_result_descending": d.chance(0.5),
    }
    if version > 1:
        attributes["output_type"] = d.pick(["i32", "i64"])
    node = make(version, op, [boxes, scores, *limits], attributes)
    return [_static_rows(node)]


def _static_rows(node: Node) -> Node:
    """NonMaxSuppression-1/3/4's rows plus 1, then 0s up to the rows OpenVINO declares: the
    plugin returns only the selected rows (not the model's static shape), irshape the declared
    rows with -1 past the selected ones; plus 1, both read the same through a Concat with zeros
    and a Slice to the declared rows."""
    rows = node.output(0)
    total = rows.get_partial_shape()[0].get_length()
    one = opset.constant(np.array(1), rows.get_element_type())
    zeros = opset.constant(np.zeros((total, 3)), rows.get_element_type())
    joined = opset.concat([opset.add(rows, one), zeros], 0)
    return opset.slice(
        joined,
        opset.constant(np.array([0])),
        opset.constant(np.array([total])),
        opset.constant(np.array([1])),
    )


@drawer("detection", "NMSRotated-13")
def _nms_rotated(d: Draw) -> Sequence[Node]:
    boxes, scores, limits = _nms_inputs(d, 5)
    attributes = {
        "sort_result_descending": d.chance(0.5),
        "output_type": d.pick(["i32", "i64"]),
        "clockwise": d.chance(0.5),
    }
    return [make(13, "NMSRotated", [boxes, scores, *limits], attributes)]


@pytest.mark.parametrize("family", drawers.families())
def test_kernel_fuzz_proposals(family: str, tmp_path: Path) -> None:
    run_family(drawers, family, tmp_path)
