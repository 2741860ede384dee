"""Kernels of the detection family (irshape/shapes/detection.py): NonMaxSuppression-1/3/4/5/9
and NMSRotated-13.

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
  NMS such NaNs make the plugin's scores garbage (inf, by experiment): irshape keeps such a
  candidate with its NaN score (pushed back, it would come back for ever);
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
* ``selected_scores`` rows are ``[batch, class, score]`` (the score after soft-NMS decay);
* with ``max_output_boxes_per_class`` 0 the plugin leaves ``valid_outputs`` unwritten (garbage,
  by experiment): irshape gives 0;
* NMSRotated-13: boxes ``[x, y, width, height, angle]`` (radians, clockwise unless
  ``clockwise`` is false), hard NMS only, a candidate dropped when its IoU with a kept box is
  strictly above the threshold; the IoU is 0 where either box has no area (``w * h <= 0``),
  else the area of the convex polygon the two rectangles share (their edges' crossings and
  each one's corners inside the other, as the plugin gathers them), in float64 here.
"""

from __future__ import annotations

import heapq

import numpy as np

from irshape.kernels import KernelCall, KernelError, output_bytes, working_memory

_F32 = np.float32
_BOXES, _SCORES, _MAX_OUTPUT, _IOU, _SCORE_THRESHOLD, _SIGMA = range(6)

Selection = tuple[float, int, int, int]  # score, batch, class, box


def _working_bytes(call: KernelCall) -> int:
    """The outputs at their upper bounds, the boxes in float32, one IoU row of work per
    candidate (a rotated one: 24 points of float64 pairs, a few times over) and, with soft
    NMS, the IoU and decay matrices of a batch."""
    boxes = call.inputs[_BOXES]
    count = boxes.shape[1] if boxes.ndim == 3 else 0
    outputs = sum(output_bytes(call, i) for i in range(len(call.inference.outputs)))
    row = count * (24 * 2 * 8 * 8 if call.schema.op == "NMSRotated" else 4 * 4 * 4)
    soft = len(call.inputs) > _SIGMA and _scalar(call, _SIGMA, 0.0, _F32) != 0
    return 2 * outputs + 4 * boxes.size + row + (3 * 4 * count * count if soft else 0)


@working_memory(_working_bytes)
def non_max_suppression(call: KernelCall) -> list[np.ndarray]:
    """NonMaxSuppression-1/3/4/5/9 and NMSRotated-13."""
    rotated = call.schema.op == "NMSRotated"
    boxes = call.inputs[_BOXES].astype(_F32)
    scores = call.inputs[_SCORES].astype(_F32)
    width = 5 if rotated else 4
    if boxes.ndim != 3 or scores.ndim != 3 or boxes.shape[2] != width:
        raise KernelError(
            f"boxes {boxes.shape} and scores {scores.shape} are not [B, N, {width}] and [B, C, N]"
        )
    max_output = _scalar(call, _MAX_OUTPUT, 0, np.int32)
    iou_threshold = _F32(_scalar(call, _IOU, 0.0, _F32))
    score_threshold = _F32(_scalar(call, _SCORE_THRESHOLD, 0.0, _F32))
    sigma = _F32(0 if rotated else _scalar(call, _SIGMA, 0.0, _F32))
    per_class = min(max(int(max_output), 0), boxes.shape[1])
    kept: list[Selection] = []
    for batch in range(boxes.shape[0] if per_class > 0 else 0):
        overlaps = _Overlaps(call, boxes[batch], rotated)
        for klass in range(scores.shape[1]):
            chosen = _select(scores[batch, klass], overlaps, per_class, iou_threshold, score_threshold, sigma)
            kept += [(score, batch, klass, box) for score, box in chosen]
    if call.attribute("sort_result_descending"):
        kept.sort(key=lambda k: (-k[0], k[1], k[2], k[3]))
    return _outputs(call, kept)


class _Overlaps:
    """The IoU of one batch's boxes, computed as the selection asks for it: one kept box
    against the remaining candidates (hard NMS), or every pair (soft NMS)."""

    def __init__(self, call: KernelCall, boxes: np.ndarray, rotated: bool) -> None:
        self.rotated = rotated
        self.boxes = boxes
        if rotated:
            self.clockwise = bool(call.attribute("clockwise"))
        else:
            self.corners = _corners(boxes, call.attribute("box_encoding") == "center")

    def row(self, kept: int, candidates: np.ndarray) -> np.ndarray:
        """The IoU of each candidate with the kept box."""
        if self.rotated:
            return rotated_iou(self.boxes[candidates], self.boxes[kept], self.clockwise)
        iou: np.ndarray = _iou(self.corners[kept][None], self.corners[candidates])[0]
        return iou

    def suppresses(self, iou: np.ndarray, threshold: np.float32) -> np.ndarray:
        """NMSRotated suppresses above the threshold, NonMaxSuppression at it too."""
        suppressed: np.ndarray = iou > threshold if self.rotated else iou >= threshold
        return suppressed

    def matrix(self) -> np.ndarray:
        return _iou(self.corners, self.corners)


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


def _iou(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The ``[M, N]`` float32 IoU of ``[M, 4]`` and ``[N, 4]`` corner boxes as the plugin's JIT
    kernel computes it: no test of the areas, so two boxes without area have a NaN IoU (never
    suppressing)."""
    ymin, xmin, ymax, xmax = (first[:, i, None] for i in range(4))
    ymin2, xmin2, ymax2, xmax2 = (second[None, :, i] for i in range(4))
    area, area2 = (ymax - ymin) * (xmax - xmin), (ymax2 - ymin2) * (xmax2 - xmin2)
    height = np.maximum(np.minimum(ymax, ymax2) - np.maximum(ymin, ymin2), _F32(0))
    width = np.maximum(np.minimum(xmax, xmax2) - np.maximum(xmin, xmin2), _F32(0))
    intersection = height * width
    with np.errstate(divide="ignore", invalid="ignore"):
        iou: np.ndarray = (intersection / (area + area2 - intersection)).astype(_F32)
    return iou


def _select(
    scores: np.ndarray,
    overlaps: _Overlaps,
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
        return _hard(scores, overlaps, order, per_class, iou_threshold)
    return _soft(scores, overlaps.matrix(), order, per_class, score_threshold, sigma)


def _hard(
    scores: np.ndarray, overlaps: _Overlaps, order: np.ndarray, per_class: int, threshold: np.float32
) -> list[tuple[float, int]]:
    """Greedy NMS: the best remaining candidate is kept and suppresses every remaining one it
    overlaps enough (one vectorised step a kept box)."""
    kept: list[tuple[float, int]] = []
    remaining = order
    while remaining.size and len(kept) < per_class:
        best = int(remaining[0])
        kept.append((float(scores[best]), best))
        rest = remaining[1:]
        remaining = rest[~overlaps.suppresses(overlaps.row(best, rest), threshold)]
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
        # a NaN score (the IoU of two boxes without area) is kept as it is: pushed back, it
        # would come back for ever
        if score == original or np.isnan(score):
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


# --- rotated boxes (NMSRotated-13) ------------------------------------------------------------


def _vertices(boxes: np.ndarray, clockwise: bool) -> np.ndarray:
    """``[M, 4, 2]`` corners of ``[M, 5]`` boxes (x, y, width, height, angle in radians), in
    the plugin's order (``getRotatedVertices``)."""
    x, y, w, h, angle = (boxes[:, i].astype(np.float64) for i in range(5))
    theta = angle if clockwise else -angle
    cos, sin = np.cos(theta) * 0.5, np.sin(theta) * 0.5
    p0 = np.stack([x - sin * h - cos * w, y + cos * h - sin * w], -1)
    p1 = np.stack([x + sin * h - cos * w, y - cos * h - sin * w], -1)
    centre = np.stack([x, y], -1)
    return np.stack([p0, p1, 2 * centre - p0, 2 * centre - p1], 1)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    result: np.ndarray = a[..., 0] * b[..., 1] - b[..., 0] * a[..., 1]
    return result


def _inside(points: np.ndarray, rectangle: np.ndarray) -> np.ndarray:
    """Which of ``[M, K, 2]`` points lie in the ``[M, 4, 2]`` rectangles (edges included)."""
    origin = rectangle[:, None, 0]
    ab = (rectangle[:, 1] - rectangle[:, 0])[:, None]
    da = (rectangle[:, 0] - rectangle[:, 3])[:, None]
    ap = points - origin
    along = (ap * ab).sum(-1)
    across = -(ap * da).sum(-1)
    inside: np.ndarray = (
        (along >= 0) & (across >= 0) & (along <= (ab * ab).sum(-1)) & (across <= (da * da).sum(-1))
    )
    return inside


def _intersection_area(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The area shared by pairs of ``[M, 4, 2]`` rectangles: the convex hull of their edges'
    crossings and each one's corners inside the other (``rotatedBoxesIntersection``), ordered
    by angle about its centroid, its area by the shoelace formula; 0 with 2 points or fewer."""
    edges1 = np.roll(first, -1, axis=1) - first
    edges2 = np.roll(second, -1, axis=1) - second
    e1, p1 = edges1[:, :, None], first[:, :, None]  # [M, 4, 1, 2]: edge i of the first
    e2, p2 = edges2[:, None], second[:, None]  # [M, 1, 4, 2]: edge j of the second
    det = _cross(e2, e1)
    offset = p2 - p1
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = _cross(e2, offset) / det
        t2 = _cross(e1, offset) / det
    crossing = (np.abs(det) > 1e-14) & (t1 >= 0) & (t1 <= 1) & (t2 >= 0) & (t2 <= 1)
    t1 = np.where(crossing, t1, 0.0)  # (parallel edges: t1 is inf or NaN, and not a crossing)
    crossings = (p1 + e1 * t1[..., None]).reshape(-1, 16, 2)
    points = np.concatenate([crossings, first, second], axis=1)  # [M, 24, 2]
    valid = np.concatenate([crossing.reshape(-1, 16), _inside(first, second), _inside(second, first)], 1)
    count = valid.sum(1)
    points = np.where(valid[..., None], points, 0.0)
    centroid = points.sum(1, keepdims=True) / np.maximum(count, 1)[:, None, None]
    relative = points - centroid
    angle = np.where(valid, np.arctan2(relative[..., 1], relative[..., 0]), np.inf)
    order = np.argsort(angle, axis=1)
    ordered = np.take_along_axis(relative, order[..., None], axis=1)
    ordered_valid = np.take_along_axis(valid, order, axis=1)
    ordered = np.where(ordered_valid[..., None], ordered, ordered[:, :1])  # pad with the first
    area = np.abs(_cross(ordered, np.roll(ordered, -1, axis=1)).sum(1)) / 2
    result: np.ndarray = np.where(count > 2, area, 0.0)
    return result


def rotated_iou(candidates: np.ndarray, kept: np.ndarray, clockwise: bool) -> np.ndarray:
    """The float32 IoU of ``[M, 5]`` rotated candidates with one kept ``[5]`` box; 0 where
    either has no area (``w * h <= 0``)."""
    area = candidates[:, 2] * candidates[:, 3]
    kept_area = kept[2] * kept[3]
    # only boxes whose circumscribed circles meet can share area: the polygons of the others
    # are not computed (their IoU is 0)
    reach = np.hypot(candidates[:, 2], candidates[:, 3]) / 2 + np.hypot(kept[2], kept[3]) / 2
    near = np.hypot(candidates[:, 0] - kept[0], candidates[:, 1] - kept[1]) <= reach * 1.0001
    shared = np.zeros(len(candidates), _F32)
    if near.any():
        first = _vertices(candidates[near], clockwise)
        second = np.broadcast_to(_vertices(kept[None], clockwise), first.shape)
        shared[near] = _intersection_area(first, second)
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = shared / (area + kept_area - shared)
    result: np.ndarray = np.where((area > 0) & (kept_area > 0), iou, _F32(0)).astype(_F32)
    return result
