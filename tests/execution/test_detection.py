"""Differential tests of the detection family's kernels (NonMaxSuppression-1/3/4/5/9) against
OpenVINO's CPU plugin: seeded boxes in overlapping clusters, tied and thresholded scores, hard
and soft NMS, both box encodings, sorted and unsorted results, both index types."""

from __future__ import annotations

import numpy as np
import openvino.opset1 as opset1
import openvino.opset3 as opset3
import openvino.opset4 as opset4
import openvino.opset5 as opset5
import openvino.opset9 as opset9
import openvino.opset13 as opset13
import pytest

from .harness import Case, compare, parameter, run_batch


def _boxes(rng: np.random.Generator, batches: int, count: int, center: bool) -> np.ndarray:
    """Boxes around a few centres, so that many overlap; some with their corners swapped."""
    centres = rng.uniform(0, 10, (batches, 3, 2))
    pick = rng.integers(0, 3, (batches, count))
    middle = np.take_along_axis(centres, pick[..., None], axis=1) + rng.normal(0, 0.6, (batches, count, 2))
    size = rng.uniform(0.5, 3, (batches, count, 2))
    if center:
        return np.concatenate([middle[..., ::-1], size[..., ::-1]], -1).astype(np.float32)
    low, high = middle - size / 2, middle + size / 2
    boxes = np.concatenate([low, high], -1)
    swap = rng.random((batches, count)) < 0.2
    boxes[swap] = boxes[swap][:, [2, 3, 0, 1]]
    return boxes.astype(np.float32)


def _scores(rng: np.random.Generator, batches: int, classes: int, count: int) -> np.ndarray:
    scores = rng.random((batches, classes, count))
    if rng.random() < 0.4:  # ties
        scores = np.round(scores * 4) / 4
    return scores.astype(np.float32)


def _case(rng: np.random.Generator, index: int, version: int) -> Case:
    batches, classes, count = int(rng.integers(1, 3)), int(rng.integers(1, 4)), int(rng.integers(1, 13))
    center = bool(rng.random() < 0.3)
    boxes = _boxes(rng, batches, count, center)
    scores = _scores(rng, batches, classes, count)
    if version == 9 and index % 6 == 5:  # f16 boxes and scores (the plugin computes in f32)
        boxes, scores = boxes.astype(np.float16), scores.astype(np.float16)
    degenerate = index % 10 == 7 and not center
    if degenerate:  # boxes without area (the IoU of two of them is NaN in the plugin)
        boxes[..., 2:] = boxes[..., :2]
    b = parameter(boxes.shape, boxes.dtype)
    s = parameter(scores.shape, scores.dtype)
    max_output = opset9.constant(np.int64(rng.choice([0, 1, 2, 3, 5, 100])))
    iou = opset9.constant(np.float32(rng.choice([0.0, 0.2, 0.4, 0.5, 0.7, 1.0])))
    threshold = opset9.constant(np.float32(rng.choice([0.0, 0.0, 0.25, 0.3, 0.6])))
    encoding = "center" if center else "corner"
    descending = bool(rng.random() < 0.5)
    output_type = "i32" if rng.random() < 0.4 else "i64"
    if version in (5, 9):
        # soft NMS of boxes without area: the plugin's scores are garbage (inf)
        # (0.001: the decay of an IoU over 0.46 underflows to 0, a score at the threshold 0)
        sigma_value = 0.0 if degenerate else rng.choice([0.0, 0.0, 0.3, 0.5, 1.0, 0.001])
        sigma = opset9.constant(np.float32(sigma_value))
        op = opset5 if version == 5 else opset9
        node = op.non_max_suppression(
            b, s, max_output, iou, threshold, sigma, encoding, descending, output_type
        )
        outputs = list(node.outputs())
    elif version == 4:
        node = opset4.non_max_suppression(b, s, max_output, iou, threshold, encoding, descending, output_type)
        outputs = [node.output(0)]
    elif version == 3:
        node = opset3.non_max_suppression(b, s, max_output, iou, threshold, encoding, descending, output_type)
        outputs = [node.output(0)]
    else:
        node = opset1.non_max_suppression(b, s, max_output, iou, threshold, encoding, descending)
        outputs = [node.output(0)]
    return Case(f"nms{version}_{index}", {b: boxes, s: scores}, outputs)


def _rotated_case(rng: np.random.Generator, index: int) -> Case:
    """NMSRotated-13: boxes (x, y, width, height, angle) about a few centres, any angle."""
    batches, classes, count = int(rng.integers(1, 3)), int(rng.integers(1, 4)), int(rng.integers(1, 13))
    centres = rng.uniform(0, 10, (batches, 3, 2))
    pick = rng.integers(0, 3, (batches, count))
    middle = np.take_along_axis(centres, pick[..., None], axis=1) + rng.normal(0, 0.7, (batches, count, 2))
    size = rng.uniform(0.5, 4, (batches, count, 2))
    if index % 9 == 4:
        size[..., 0] = 0  # boxes without area
    angle = rng.uniform(-np.pi, np.pi, (batches, count, 1))
    if index % 4 == 1:  # right angles: edges on edges, corners on corners
        angle = np.round(angle / (np.pi / 2)) * (np.pi / 2)
    boxes = np.concatenate([middle, size, angle], -1).astype(np.float32)
    scores = _scores(rng, batches, classes, count)
    b, s = parameter(boxes.shape), parameter(scores.shape)
    node = opset13.nms_rotated(
        b,
        s,
        opset9.constant(np.int64(rng.choice([0, 1, 2, 3, 5, 100]))),
        opset9.constant(np.float32(rng.choice([0.0, 0.1, 0.3, 0.5, 0.7]))),
        opset9.constant(np.float32(rng.choice([0.0, 0.0, 0.25, 0.6]))),
        bool(rng.random() < 0.5),
        "i32" if rng.random() < 0.4 else "i64",
        bool(rng.random() < 0.5),
    )
    return Case(f"nms_rotated_{index}", {b: boxes, s: scores}, list(node.outputs()))


def nms_cases() -> list[Case]:
    rng = np.random.default_rng(9)
    cases = []
    for version, count in ((9, 60), (5, 40), (4, 30), (3, 30), (1, 30)):
        cases += [_case(rng, i, version) for i in range(count)]
    return cases + [_rotated_case(rng, i) for i in range(60)] + [_underflow_case()] + _fewer_inputs_cases()


def _fewer_inputs_cases() -> list[Case]:
    """NonMaxSuppression-5/9 given only some of their inputs (the rest: 0)."""
    rng = np.random.default_rng(5)
    cases = []
    for count in (3, 4, 5):
        boxes, scores = _boxes(rng, 1, 6, False), _scores(rng, 1, 2, 6)
        b, s = parameter(boxes.shape), parameter(scores.shape)
        constants = (np.int64(4), np.float32(0.4), np.float32(0.3))[: count - 2]
        node = opset9.non_max_suppression(b, s, *(opset9.constant(c) for c in constants))
        cases.append(Case(f"nms9_{count}_inputs", {b: boxes, s: scores}, list(node.outputs())))
    return cases


def _underflow_case() -> Case:
    """Soft NMS whose decay underflows to 0: a score at the threshold 0 is suppressed."""
    boxes = np.array([[[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3]]], np.float32)
    scores = np.array([[[0.9, 0.8, 0.7]]], np.float32)
    b, s = parameter(boxes.shape), parameter(scores.shape)
    constants = (np.int64(10), np.float32(0.5), np.float32(0.0), np.float32(0.001))
    node = opset9.non_max_suppression(b, s, *(opset9.constant(c) for c in constants))
    return Case("nms9_underflow", {b: boxes, s: scores}, list(node.outputs()))


CASES = nms_cases()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("nms"))


@pytest.mark.parametrize("case", [c for c in CASES if len(c.outputs) == 3], ids=lambda c: c.name)
def test_nms_dynamic_outputs(batch, case):
    assert batch.error is None, batch.error
    indices, scores, valid = batch.names[case.name]
    for name in (indices, scores):
        assert compare(batch.expected[name], batch.got[name]) is None, compare(
            batch.expected[name], batch.got[name]
        )
    if int(case.outputs[0].get_node().input_value(2).get_node().get_data()) == 0:
        # max_output_boxes_per_class 0: the plugin leaves valid_outputs unwritten (garbage, by
        # experiment); no box is selected, irshape says 0
        assert batch.got[valid].tolist() == [0] and batch.expected[indices].shape == (0, 3)
    else:
        assert compare(batch.expected[valid], batch.got[valid]) is None, compare(
            batch.expected[valid], batch.got[valid]
        )


@pytest.mark.parametrize("case", [c for c in CASES if len(c.outputs) == 1], ids=lambda c: c.name)
def test_nms_static_outputs(batch, case):
    """Versions 1, 3 and 4: the plugin returns only the kept rows though OpenVINO declares a
    static shape; irshape returns the declared rows, those past the kept ones -1."""
    assert batch.error is None, batch.error
    name = batch.names[case.name][0]
    expected, got = batch.expected[name], batch.got[name]
    assert got.dtype == expected.dtype
    rows = min(len(expected), len(got))
    np.testing.assert_array_equal(got[:rows], expected[:rows])
    assert (got[rows:] == -1).all()
    assert len(got) == case.outputs[0].get_partial_shape()[0].get_length()
