"""Kernels of the detection family (irshape/shapes/detection.py): NonMaxSuppression-1/3/4/5/9.

Semantics are the CPU plugin's (``src/plugins/intel_cpu/src/nodes/non_max_suppression.cpp``),
confirmed by tests/execution/test_detection.py:

* ``max_output_boxes_per_class`` is read as int32 (its first element), a value <= 0 selects
  nothing; at most ``min(it, num_boxes)`` boxes are kept per batch and class;
* the candidates of a class are its boxes scoring strictly above ``score_threshold``, taken by
  score, descending, the lower box index first on a tie;
* corner boxes are ``[y1, x1, y2, x2]`` with either corner first (the plugin orders each pair),
  center boxes ``[x_center, y_center, width, height]``; the IoU is computed in float32 as the
  JIT kernel does, without the reference's test of the areas: two boxes without area have a
  NaN IoU and never suppress each other (a box without area and one with: IoU 0). With soft
  NMS such NaNs make the plugin's scores garbage (inf, by experiment): irshape does not follow;
* without soft NMS (``soft_nms_sigma`` 0 or absent) a candidate is dropped when its IoU with a
  kept box is ``>= iou_threshold`` (so a threshold of 0 keeps one box a class);
* with ``soft_nms_sigma > 0`` (versions 5 and 9 alike) a candidate's score is multiplied by
  ``exp(-0.5 / sigma * iou^2)`` for each box kept since it was last scored (the newest first),
  dropped once it is ``<= score_threshold``; unchanged it is kept, else it goes back into the
  queue with its new score (Bodla et al.'s lazy soft-NMS, as the plugin runs it);
* the kept boxes are listed by batch, class and order of selection; with
  ``sort_result_descending`` all of them by score, descending, then batch, class and box index;
* versions 5 and 9 output exactly the kept rows; versions 1, 3 and 4, whose outputs OpenVINO
  declares static, get their inferred number of rows, the rows past the kept ones -1 (the
  plugin's static-shape fill; the plugin itself returns only the kept rows there);
* ``selected_scores`` rows are ``[batch, class, score]`` (the score after soft-NMS decay).
"""

from __future__ import annotations

import heapq

import numpy as np

from irshape.kernels import KernelCall, KernelError

_F32 = np.float32
_BOXES, _SCORES, _MAX_OUTPUT, _IOU, _SCORE_THRESHOLD, _SIGMA = range(6)

Selection = tuple[float, int, int, int]  # score, batch, class, box


def non_max_suppression(call: KernelCall) -> list[np.ndarray]:
    """NonMaxSuppression-1/3/4/5/9."""
    boxes = call.inputs[_BOXES].astype(_F32)
    scores = call.inputs[_SCORES].astype(_F32)
    if boxes.ndim != 3 or scores.ndim != 3 or boxes.shape[2] != 4:
        raise KernelError(f"boxes {boxes.shape} and scores {scores.shape} are not [B, N, 4] and [B, C, N]")
    max_output = _scalar(call, _MAX_OUTPUT, 0, np.int32)
    iou_threshold = _F32(_scalar(call, _IOU, 0.0, _F32))
    score_threshold = _F32(_scalar(call, _SCORE_THRESHOLD, 0.0, _F32))
    sigma = _F32(_scalar(call, _SIGMA, 0.0, _F32))
    center = call.attribute("box_encoding") == "center"
    per_class = min(max(int(max_output), 0), boxes.shape[1])
    kept: list[Selection] = []
    if per_class > 0:
        corners = _corners(boxes, center)
        for batch in range(boxes.shape[0]):
            iou = intersection_over_union(corners[batch])
            for klass in range(scores.shape[1]):
                chosen = _select(scores[batch, klass], iou, per_class, iou_threshold, score_threshold, sigma)
                kept += [(score, batch, klass, box) for score, box in chosen]
    if call.attribute("sort_result_descending"):
        kept.sort(key=lambda k: (-k[0], k[1], k[2], k[3]))
    return _outputs(call, kept)


def _scalar(call: KernelCall, port: int, default: float, dtype: type) -> float:
    if len(call.inputs) <= port or call.inputs[port].size == 0:
        return default
    return float(call.inputs[port].reshape(-1)[:1].astype(dtype)[0])


def _corners(boxes: np.ndarray, center: bool) -> np.ndarray:
    """``[ymin, xmin, ymax, xmax]`` of every box, float32."""
    if center:
        x, y, width, height = (boxes[..., i] for i in range(4))
        half_w, half_h = width / _F32(2), height / _F32(2)
        return np.stack([y - half_h, x - half_w, y + half_h, x + half_w], axis=-1)
    y1, x1, y2, x2 = (boxes[..., i] for i in range(4))
    return np.stack([np.minimum(y1, y2), np.minimum(x1, x2), np.maximum(y1, y2), np.maximum(x1, x2)], -1)


def intersection_over_union(corners: np.ndarray) -> np.ndarray:
    """The ``[N, N]`` float32 IoU of ``[N, 4]`` corner boxes as the plugin's JIT kernel computes
    it: no test of the areas, so two boxes without area have a NaN IoU (never suppressing)."""
    ymin, xmin, ymax, xmax = (corners[:, i] for i in range(4))
    area = (ymax - ymin) * (xmax - xmin)
    height = np.maximum(np.minimum(ymax[:, None], ymax) - np.maximum(ymin[:, None], ymin), _F32(0))
    width = np.maximum(np.minimum(xmax[:, None], xmax) - np.maximum(xmin[:, None], xmin), _F32(0))
    intersection = height * width
    with np.errstate(divide="ignore", invalid="ignore"):
        iou: np.ndarray = (intersection / (area[:, None] + area - intersection)).astype(_F32)
    return iou


def _select(
    scores: np.ndarray,
    iou: np.ndarray,
    per_class: int,
    iou_threshold: np.float32,
    score_threshold: np.float32,
    sigma: np.float32,
) -> list[tuple[float, int]]:
    """One batch and class: the kept (score, box index) pairs in order of selection."""
    candidates = np.flatnonzero(scores > score_threshold)
    if candidates.size == 0:
        return []
    order = candidates[np.lexsort((candidates, -scores[candidates].astype(np.float64)))]
    if sigma == 0:
        return _hard(scores, iou, order, per_class, iou_threshold)
    return _soft(scores, iou, order, per_class, score_threshold, sigma)


def _hard(
    scores: np.ndarray, iou: np.ndarray, order: np.ndarray, per_class: int, threshold: np.float32
) -> list[tuple[float, int]]:
    """Greedy NMS: the best remaining candidate is kept and suppresses every remaining one whose
    IoU with it is >= the threshold (one vectorised step a kept box)."""
    kept: list[tuple[float, int]] = []
    remaining = order
    while remaining.size and len(kept) < per_class:
        best = int(remaining[0])
        kept.append((float(scores[best]), best))
        rest = remaining[1:]
        remaining = rest[~(iou[best, rest] >= threshold)]
    return kept


def _soft(
    scores: np.ndarray,
    iou: np.ndarray,
    order: np.ndarray,
    per_class: int,
    score_threshold: np.float32,
    sigma: np.float32,
) -> list[tuple[float, int]]:
    """Soft-NMS with lazy rescoring: a popped candidate is decayed by the boxes kept since it
    was last scored; kept when unchanged, else pushed back with its new score."""
    scale = _F32(-0.5) / sigma
    decay = np.exp(scale * iou * iou).astype(_F32)
    # heap entries: (-score, box, first kept box it has not met); ties pop the lower box first
    heap = [(-float(scores[box]), int(box), 0) for box in order]
    heapq.heapify(heap)
    kept: list[tuple[float, int]] = []
    while heap and len(kept) < per_class:
        negative, box, unseen = heapq.heappop(heap)
        original = _F32(-negative)
        score = original
        suppressed = False
        for index in range(len(kept) - 1, unseen - 1, -1):
            score = _F32(score * decay[box, kept[index][1]])
            if score <= score_threshold:
                suppressed = True
                break
        if suppressed:
            continue
        if score == original:
            kept.append((float(score), box))
        else:
            heapq.heappush(heap, (-float(score), box, len(kept)))
    return kept


def _outputs(call: KernelCall, kept: list[Selection]) -> list[np.ndarray]:
    rows = len(kept)
    dtype = call.output_dtype(0)
    indices = np.array([k[1:] for k in kept], dtype=np.int64).reshape(rows, 3)
    if len(call.inference.outputs) == 1:  # versions 1, 3 and 4: the declared rows, -1 past the kept
        total = call.output_shape(0)[0]
        padded = np.full((total, 3), -1, dtype=dtype)
        padded[: min(rows, total)] = indices[:total]
        return [padded]
    scored = np.array([(k[1], k[2], k[0]) for k in kept], dtype=_F32).reshape(rows, 3)
    return [
        indices.astype(dtype),
        scored.astype(call.output_dtype(1)),
        np.array([rows], dtype=call.output_dtype(2)),
    ]
