"""Kernels of the proposals family (irshape/shapes/proposals.py): DetectionOutput-1/8,
Proposal-1/4, MulticlassNms-8/9, MatrixNms-8, GatherTree-1, GenerateProposals-9,
ExperimentalDetectronGenerateProposalsSingleImage-6 and ExperimentalDetectronDetectionOutput-6.
Every plugin here computes ``std::exp`` of floats, glibc's expf, correctly rounded (``_expf``).

DetectionOutput's semantics are the CPU plugin's (``src/plugins/intel_cpu/src/nodes/
detection_output.cpp``, which runs both versions), confirmed by tests/execution/test_proposals.py;
everything in float32:

* the proposals hold, per image (or one set for all images when their first dim is 1), a row
  of prior boxes (``[xmin, ymin, xmax, ymax]``, or ``[image, xmin, ...]`` when not
  ``normalized``, whose coordinates are then divided by ``input_width``/``input_height``) and,
  unless ``variance_encoded_in_target``, a row whose first ``4 * priors`` numbers are the
  variances; not normalized, the priors end before the first whose image number is -1;
* boxes are decoded CORNER (``prior + variance * offset``) or CENTER_SIZE (centre moved by
  ``variance * offset * size``, sizes scaled by ``exp(variance * offset)``), clipped to [0, 1]
  with ``clip_before_nms``; with the two additional inputs (5 inputs) the priors are first
  decoded by the additional box predictions, then those boxes (divided again when not
  normalized, as the plugin does) by the box logits, and a prior whose additional class
  prediction (its second number) is below ``objectness_score`` scores 1 for the background
  class and 0 for the others;
* the IoU is the plugin's: 0 for boxes apart or touching, else the intersection over the sum of
  the boxes' areas ``(xmax - xmin) * (ymax - ymin)`` (not clamped at 0) minus it; a candidate is
  suppressed when its IoU with a kept box of its class is strictly above ``nms_threshold``.
  (The detection family's IoU is NonMaxSuppression's, with other edge rules: not shared.)
* Caffe style (``decrease_label_id`` false): each class but ``background_label_id`` keeps its
  priors scoring strictly above ``confidence_threshold``, the ``top_k`` best (score descending,
  lower prior first; ``top_k`` -1: all, 0: none), then greedy NMS;
* MXNet style (``decrease_label_id``, which the plugin runs only with background 0): each prior
  is a candidate of its best class but 0 (the first on ties) scoring ``>= confidence_threshold``
  and above -1, the image's ``top_k`` best (score descending, then class * priors + prior
  ascending) go through NMS within their class; labels are written minus one;
* with ``keep_top_k[0] > -1`` and more detections in an image, its ``keep_top_k[0]`` best are
  kept (score descending, lower prior first; irshape breaks the plugin's unspecified order of a
  tie between classes by the lower class);
* the rows ``[image, label, score, xmin, ymin, xmax, ymax]`` (clipped to [0, 1] with
  ``clip_after_nms``) follow by image, class and order of selection; the row after the last
  detection, if any, starts with -1, and all others are 0.

The plugin cannot run ``decrease_label_id`` with another background than 0, and with
``keep_top_k[0]`` neither -1 nor positive a positive ``top_k`` sizes its output buffer wrongly
(it fails, or leaves rows unwritten): irshape refuses both (UnsupportedByOpenVINOError).

Proposal's are the CPU plugin's too (``nodes/proposal.cpp``, ``proposal_imp.cpp``), in float32:

* anchors from ``base_size``, ``ratio`` and ``scale`` (ratio-major): Caffe style (``framework``
  empty) rounds the ratio's width and height and counts a pixel's extent (+1 on sizes, the
  ``coordinates offset``); ``framework="tensorflow"`` does not round, has no offset, shifts the
  anchors by half the base size, clips them to the image first, and swaps x and y (the map's
  rows are x, and ``image_shape[0]`` is the width);
* each map position (``feat_stride`` apart) and anchor is a box decoded from the deltas (divided
  by ``box_coordinate_scale`` and ``box_size_scale``; the new centre ``dx * width + centre`` one
  fused multiply-add: ``proposal_imp.cpp`` is built for the machine's instruction set, and the
  compiler contracts it, by experiment), clipped to ``[0, size - offset]`` with
  ``clip_before_nms``; its score, the anchor's second-half channel of ``class_probs``, is 0 when
  its width or height is below ``min_size`` times the image's scale (``image_shape[2]``, and
  ``[3]`` for the width when there are four numbers);
* the ``pre_nms_topn`` best by score go to NMS (the plugin's partial sort is not stable: ties
  in order of position here), which keeps a box unless its IoU (with the offset) with a kept
  one is above ``nms_thresh``, stopping at ``post_nms_topn``;
* the rows ``[image, x0, y0, x1, y1]`` (clipped to ``[0, size]`` with ``clip_after_nms``,
  divided by the size with ``normalize``), then zeros, the first of them -1; Proposal-4's
  scores likewise, but the plugin leaves those past the kept boxes unwritten (garbage, by
  experiment): irshape writes 0;
* the plugin runs no ``framework`` but "" and "tensorflow" (its ``isSupportedOperation``; a
  model of another fails to compile): irshape refuses the others too;
* the plugin crashes (a segmentation fault, by experiment) when fewer than 8 boxes go to NMS
  (``min(pre_nms_topn, anchors * height * width) < 8``): irshape computes them.

MulticlassNms's are the CPU plugin's (``nodes/multiclass_nms.cpp``), in float32:

* per image and class but ``background_class``: the candidates scoring at least
  ``score_threshold``, only the ``nms_top_k`` best of them (score descending, lower box first;
  -1: all), each kept unless its IoU with a kept box is at least ``iou_threshold``; with
  ``nms_eta < 1`` the threshold is multiplied by it after each kept box while above 0.5. The
  IoU adds 1 to sizes when not ``normalized`` and is 0 where either area is not positive;
* the kept boxes by image, score descending (class, then box on ties), the ``keep_top_k``
  first of each image, then sorted by class (``classid``: class, score, box within each image,
  or class, image, score across images) or by score across images (``score`` with
  ``sort_result_across_batch``); ``none`` leaves them by image and score;
* rows ``[class, score, x1, y1, x2, y2]`` (the input box), indices into the flattened boxes
  (``image * boxes + box``, or with ``roisnum`` ``(first box of the image + box) * classes +
  class``), and the number of rows of each image;
* with ``nms_top_k`` 0 the plugin writes nothing (its outputs keep their last shape, by its
  code): irshape returns no rows. The plugin treats scores within 1e-6 as tied when sorting by
  image and score: irshape does not (the tests draw distinct scores).

MatrixNms's are the CPU plugin's (``nodes/matrix_nms.cpp``), in float32:

* per image and class but ``background_class``: the candidates scoring strictly above
  ``score_threshold``, the ``nms_top_k`` best; each one's score is multiplied by the least of 1
  and its decays by every better candidate ``j``: linear ``(1 - iou) / (1 - max_iou_j + 1e-10)``
  (in float32), gaussian ``exp((max_iou_j^2 - iou^2) * gaussian_sigma)``, ``max_iou_j`` being
  j's largest IoU with a candidate better than it; kept when the decayed score is above
  ``post_threshold``. The IoU is 0 for boxes apart, +1 on sizes when not normalized, an
  inverted box's area 0; the IoU of two boxes without area is NaN, which the plugin's
  ``std::max`` and ``std::min`` skip (as largest IoU and as decay);
* an image keeps its ``keep_top_k`` best (decayed score descending, class, box); across
  images, ``score`` and ``classid`` sort as MulticlassNms does, otherwise (and ``classid``
  within images) the rows stay by image and score;
* the plugin fails ('Total number of boxes is less or equal than 0') when no box at all is
  kept: irshape returns no rows.

GatherTree's are the CPU plugin's (``nodes/gather_tree.cpp``, which computes in f32 or i32):
each beam backtracked from step ``min(max_time, max_seq_len[batch]) - 1`` (``max_seq_len`` cast
to int32), the parents cast to int32, ``end_token`` at the steps past it and after the first
end token of the path; a parent outside the beams fails ('Wrong parent index'). With
``max_seq_len <= 0`` the plugin leaves the batch's outputs unwritten: irshape writes
``end_token``.

GenerateProposals's are the CPU plugin's (``nodes/generate_proposals.cpp``), in float32: per
image, each position's and anchor's box (``anchors[h, w, a]``, position-major) decoded by the
deltas (``[A, 4, H, W]``), ``d(log w)`` and ``d(log h)`` capped at ``log(1000 / 16)``, the
lower-right corner minus the coordinates offset (1 when not ``normalized``), clipped to
``[0, size - offset]``; boxes narrower or lower than ``min_size`` times the image's scale
(``im_info[2]``, ``[3]`` for the width with four numbers) stay among the ``pre_nms_count``
best by score but are never kept; NMS as Proposal's, at most ``post_nms_count`` an image; the
rows of all images one after the other, with their scores and each image's count. (The
plugin's partial sort is not stable: ties in order of position here.)
ExperimentalDetectronGenerateProposalsSingleImage-6 is much the same for one image (the CPU
plugin's ``experimental_detectron_generate_proposals_single_image.cpp``, which OpenVINO 2026
runs otherwise than the sources irshape read say; established by experiment): boxes decoded and
clipped with the coordinates offset 1, ``min_size`` unscaled (``im_info`` is height, width,
scale); a box below it scores 0 and sorts last (the plugin orders such ties its own way) but is
not dropped; NMS without the offset; the ``post_nms_count`` rows padded with zeros.

ExperimentalDetectronDetectionOutput's are the CPU plugin's
(``nodes/experimental_detectron_detection_output.cpp``), in float32: each roi with area refined
per class but 0 by the deltas over ``deltas_weights`` (offset 1, size deltas capped at
``max_delta_log_wh``, corners clamped at 0 only; ``class_agnostic_box_regression`` unused), a
roi without area scoring 0; per class, the rois scoring above ``score_threshold`` by score
(lower roi first), greedy NMS (IoU with the offset 1 above ``nms_threshold``), the first
``post_nms_count`` kept; by class, or, when more than ``max_detections_per_image``, the best by
score then roi (the plugin's order of a tie between classes is its own); rows padded with
zeros.
"""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError, output_bytes, working_memory

_F32 = np.float32
_NO_OFFSET = _F32(0)
_LOGITS, _CLASSES, _PROPOSALS, _AUX_CLASSES, _AUX_BOXES = range(5)
Detections = dict[int, list[int]]  # class -> the kept priors, in order of selection


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``a * b + c`` of float32 rounded once: the product is exact in float64, and the sum's
    rounding there almost never moves the float32 one."""
    result: np.ndarray = (a.astype(np.float64) * b + c).astype(_F32)
    return result


def _expf(x: np.ndarray) -> np.ndarray:
    """The plugins' ``std::exp`` of floats: glibc's expf, correctly rounded (numpy's float32
    exp can be a unit off in the last place; the float64 exp rounded once is not)."""
    with np.errstate(over="ignore"):
        result: np.ndarray = np.exp(x.astype(np.float64)).astype(_F32)
    return result


def detection_output(call: KernelCall) -> np.ndarray:
    """DetectionOutput-1 and DetectionOutput-8."""
    keep_top_k, top_k = call.int_list("keep_top_k")[0], int(call.attribute("top_k"))
    background = int(call.attribute("background_label_id"))
    mxnet = bool(call.attribute("decrease_label_id"))
    if mxnet and background != 0:
        raise UnsupportedByOpenVINOError("decrease_label_id with a background_label_id other than 0")
    if keep_top_k != -1 and keep_top_k <= 0 and top_k > 0:
        raise UnsupportedByOpenVINOError("a positive top_k with keep_top_k neither -1 nor positive")
    prior_size = 4 if call.attribute("normalized") else 5
    priors = call.inputs[_PROPOSALS].shape[2] // prior_size
    conf = _confidences(call, priors)
    boxes = _decoded_boxes(call, priors)
    actual = _actual_priors(call, priors)
    threshold = _F32(call.attribute("confidence_threshold"))
    rows: list[np.ndarray] = []
    for image in range(conf.shape[0]):
        scores, image_boxes = conf[image, : actual[image]], boxes[image, :, : actual[image]]
        if mxnet:
            kept = _mxnet(call, scores, image_boxes, threshold, top_k)
        else:
            kept = _caffe(call, scores, image_boxes, threshold, top_k, background)
        kept = _keep_top_k(kept, scores, keep_top_k)
        rows += [
            _rows(call, image, klass, scores, image_boxes, priors_kept)
            for klass, priors_kept in sorted(kept.items())
        ]
    return _output(call, rows)


def _confidences(call: KernelCall, priors: int) -> np.ndarray:
    """``[images, priors, classes]`` scores; with the additional inputs, a prior below the
    objectness score is background (1) and nothing else (0)."""
    raw = call.inputs[_CLASSES].astype(_F32)
    conf = raw.reshape(raw.shape[0], priors, -1)
    if len(call.inputs) < 5:
        return conf
    objectness = call.inputs[_AUX_CLASSES].astype(_F32).reshape(raw.shape[0], priors, 2)[..., 1]
    weak = objectness < _F32(call.attribute("objectness_score"))
    background = (np.arange(conf.shape[2]) == int(call.attribute("background_label_id"))).astype(_F32)
    result: np.ndarray = np.where(weak[..., None], background, conf)
    return result


def _priors_of(call: KernelCall, priors: int, image: int) -> tuple[np.ndarray, np.ndarray | None]:
    """One image's ``[priors, 4]`` prior boxes and ``[priors, 4]`` variances (None when in the
    target)."""
    proposals = call.inputs[_PROPOSALS].astype(_F32)
    rows = proposals[image if proposals.shape[0] > 1 else 0]
    prior_size = 4 if call.attribute("normalized") else 5
    boxes = rows[0].reshape(priors, prior_size)[:, prior_size - 4 :]
    if call.attribute("variance_encoded_in_target"):
        return boxes, None
    return boxes, rows[1][: 4 * priors].reshape(priors, 4)


def _actual_priors(call: KernelCall, priors: int) -> list[int]:
    """Per image, the priors before the first whose image number is -1 (not normalized)."""
    images = call.inputs[_CLASSES].shape[0]
    if call.attribute("normalized"):
        return [priors] * images
    proposals = call.inputs[_PROPOSALS].astype(_F32)
    counts = []
    for image in range(images):
        ids = proposals[image if proposals.shape[0] > 1 else 0, 0].reshape(priors, 5)[:, 0]
        ends = np.flatnonzero(ids == _F32(-1))
        counts.append(int(ends[0]) if ends.size else priors)
    return counts


def _decoded_boxes(call: KernelCall, priors: int) -> np.ndarray:
    """``[images, location classes, priors, 4]`` decoded boxes."""
    images = call.inputs[_CLASSES].shape[0]
    locations = 1 if call.attribute("share_location") else call.inputs[_CLASSES].shape[1] // priors

    def offsets(port: int) -> np.ndarray:  # [images, location classes, priors, 4]
        flat = call.inputs[port].astype(_F32).reshape(images, priors, locations, 4)
        return flat.transpose(0, 2, 1, 3)

    logits = offsets(_LOGITS)
    aux = offsets(_AUX_BOXES) if len(call.inputs) == 5 else None
    decoded = []
    for image in range(images):
        boxes, variances = _priors_of(call, priors, image)
        if aux is not None:
            boxes = _decode(call, boxes, aux[image], variances)
        decoded.append(_decode(call, boxes, logits[image], variances))
    return np.stack(decoded)


def _decode(
    call: KernelCall, priors: np.ndarray, offsets: np.ndarray, variances: np.ndarray | None
) -> np.ndarray:
    """``priors`` (``[..., 4]``) moved by ``offsets`` as ``code_type`` says."""
    if not call.attribute("normalized"):
        scale = np.array([call.attribute("input_width"), call.attribute("input_height")] * 2, dtype=_F32)
        priors = priors / scale
    if variances is not None:
        offsets = variances * offsets
    xmin, ymin, xmax, ymax = (priors[..., i] for i in range(4))
    dx, dy, dw, dh = (offsets[..., i] for i in range(4))
    if call.attribute("code_type") == "caffe.PriorBoxParameter.CORNER":
        boxes = np.stack([xmin + dx, ymin + dy, xmax + dw, ymax + dh], -1)
    else:
        width, height = xmax - xmin, ymax - ymin
        centre_x = dx * width + (xmin + xmax) / _F32(2)
        centre_y = dy * height + (ymin + ymax) / _F32(2)
        half_w, half_h = _expf(dw) * width / _F32(2), _expf(dh) * height / _F32(2)
        boxes = np.stack([centre_x - half_w, centre_y - half_h, centre_x + half_w, centre_y + half_h], -1)
    if call.attribute("clip_before_nms"):
        boxes = np.clip(boxes, _F32(0), _F32(1))
    result: np.ndarray = boxes.astype(_F32)
    return result


def _overlaps(boxes: np.ndarray, kept: int, candidates: np.ndarray, offset: np.float32) -> np.ndarray:
    """The plugins' IoU (DetectionOutput's, ExperimentalDetectronDetectionOutput's with the
    offset 1) of the kept box with each candidate (``[priors, 4]`` boxes)."""
    first, others = boxes[kept], boxes[candidates]
    x1, y1, x2, y2 = (others[:, i] for i in range(4))
    apart = (x1 > first[2]) | (x2 < first[0]) | (y1 > first[3]) | (y2 < first[1])
    width = np.minimum(first[2], x2) - np.maximum(first[0], x1) + offset
    height = np.minimum(first[3], y2) - np.maximum(first[1], y1) + offset
    intersection = width * height
    area = (first[2] - first[0] + offset) * (first[3] - first[1] + offset)
    areas = (x2 - x1 + offset) * (y2 - y1 + offset)
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = intersection / (area + areas - intersection)
    result: np.ndarray = np.where(apart | (width <= 0) | (height <= 0), _F32(0), iou)
    return result


def _ranked(scores: np.ndarray, keys: np.ndarray, count: int) -> np.ndarray:
    """The positions of the ``count`` best (score descending, key ascending); -1: all."""
    order = np.lexsort((keys, -scores.astype(np.float64)))
    return order if count == -1 else order[: max(count, 0)]


def _nms(
    boxes: np.ndarray, order: np.ndarray, threshold: np.float32, offset: np.float32 = _NO_OFFSET
) -> list[int]:
    """Greedy NMS of the priors in ``order``: each kept prior drops the later ones it overlaps
    by more than the threshold."""
    kept: list[int] = []
    remaining = order
    while remaining.size:
        best = int(remaining[0])
        kept.append(best)
        rest = remaining[1:]
        remaining = rest[~(_overlaps(boxes, best, rest, offset) > threshold)]
    return kept


def _caffe(
    call: KernelCall,
    scores: np.ndarray,
    boxes: np.ndarray,
    threshold: np.float32,
    top_k: int,
    background: int,
) -> Detections:
    nms_threshold = _F32(call.attribute("nms_threshold"))
    kept: Detections = {}
    for klass in range(scores.shape[1]):
        if klass == background:
            continue
        candidates = np.flatnonzero(scores[:, klass] > threshold)
        order = candidates[_ranked(scores[candidates, klass], candidates, top_k)]
        kept[klass] = _nms(boxes[0 if boxes.shape[0] == 1 else klass], order, nms_threshold)
    return kept


def _mxnet(
    call: KernelCall, scores: np.ndarray, boxes: np.ndarray, threshold: np.float32, top_k: int
) -> Detections:
    priors, classes = scores.shape
    eligible = (scores >= threshold) & (scores > _F32(-1))
    eligible[:, 0] = False
    masked = np.where(eligible, scores, -np.inf)
    best = masked.argmax(axis=1)  # the first of tied maxima
    candidates = np.flatnonzero(eligible.any(axis=1))
    best_class = best[candidates]
    best_score = scores[candidates, best_class]
    order = _ranked(best_score, best_class * priors + candidates, top_k)
    nms_threshold = _F32(call.attribute("nms_threshold"))
    kept: Detections = {}
    for klass in range(1, classes):
        chosen = candidates[order][best_class[order] == klass]
        kept[klass] = _nms(boxes[0 if boxes.shape[0] == 1 else klass], chosen, nms_threshold)
    return kept


def _keep_top_k(kept: Detections, scores: np.ndarray, keep_top_k: int) -> Detections:
    total = sum(len(p) for p in kept.values())
    if keep_top_k <= -1 or total <= keep_top_k:
        return kept
    classes = np.array([c for c, priors in kept.items() for _ in priors], dtype=np.int64)
    priors = np.array([p for plist in kept.values() for p in plist], dtype=np.int64)
    best = np.lexsort((classes, priors, -scores[priors, classes].astype(np.float64)))[:keep_top_k]
    regrouped: Detections = {}
    for index in best:
        regrouped.setdefault(int(classes[index]), []).append(int(priors[index]))
    return regrouped


def _rows(
    call: KernelCall, image: int, klass: int, scores: np.ndarray, boxes: np.ndarray, priors: list[int]
) -> np.ndarray:
    chosen = np.array(priors, dtype=np.int64)
    box = boxes[0 if boxes.shape[0] == 1 else klass][chosen]
    if call.attribute("clip_after_nms"):
        box = np.clip(box, _F32(0), _F32(1))
    label = klass - 1 if call.attribute("decrease_label_id") else klass
    head = np.stack([np.full(len(chosen), image), np.full(len(chosen), label), scores[chosen, klass]], -1)
    return np.concatenate([head.astype(_F32), box.reshape(-1, 4)], -1)


def _output(call: KernelCall, rows: list[np.ndarray]) -> np.ndarray:
    total = call.output_shape(0)[2]
    found = np.concatenate(rows) if rows else np.zeros((0, 7), _F32)
    result = np.zeros((total, 7), _F32)
    result[: len(found)] = found[:total]
    if len(found) < total:
        result[len(found), 0] = -1
    return result.reshape(1, 1, total, 7).astype(call.output_dtype(0))


# --- Proposal-1/4 ---------------------------------------------------------------------------


def _anchors(call: KernelCall, tensorflow: bool) -> np.ndarray:
    """``[anchors, 4]`` anchor boxes ``(x0, y0, x1, y1)`` about the origin, ratio-major."""
    offset = _F32(0 if tensorflow else 1)
    base = _F32(int(call.attribute("base_size")))
    ratios = np.array(call.attributes.float_list("ratio"), dtype=_F32)
    scales = np.array(call.attributes.float_list("scale"), dtype=_F32)
    width = np.sqrt(base * base / ratios)
    height = width * ratios
    if not tensorflow:  # std::roundf: half away from zero
        width = np.trunc(width + _F32(0.5))
        height = np.trunc(width * ratios + _F32(0.5))
    half_w = _F32(0.5) * (width[:, None] * scales[None, :] - offset)
    half_h = _F32(0.5) * (height[:, None] * scales[None, :] - offset)
    centre = _F32(0.5) * (base - offset)
    anchors = np.stack([centre - half_w, centre - half_h, centre + half_w, centre + half_h], -1).reshape(
        -1, 4
    )
    if tensorflow:
        anchors = anchors - base * _F32(0.5)
    result: np.ndarray = anchors.astype(_F32)
    return result


def proposal(call: KernelCall) -> list[np.ndarray]:
    """Proposal-1 and Proposal-4."""
    framework = str(call.attribute("framework"))
    if framework not in ("", "tensorflow"):
        raise UnsupportedByOpenVINOError(f"framework {framework!r}: the plugin runs only '' and 'tensorflow'")
    tensorflow = framework == "tensorflow"
    offset = _F32(0 if tensorflow else 1)
    probs, deltas = call.inputs[0].astype(_F32), call.inputs[1].astype(_F32)
    info = call.inputs[2].astype(_F32)
    height, width = info[0], info[1]
    if tensorflow:
        height, width = width, height
    scale_h = info[2]
    scale_w = info[3] if info.shape[0] == 4 else scale_h
    anchors = _anchors(call, tensorflow)
    post = int(call.attribute("post_nms_topn"))
    batch, count = probs.shape[0], anchors.shape[0]
    boxes_out = np.zeros((batch, post, 5), _F32)
    scores_out = np.zeros((batch, post), _F32)
    for image in range(batch):
        boxes, scores = _enumerate(
            call, anchors, deltas[image], probs[image, count:], tensorflow, (height, width)
        )
        minimum = _F32(int(call.attribute("min_size")))
        extent_w = boxes[:, 2] - boxes[:, 0] + offset
        extent_h = boxes[:, 3] - boxes[:, 1] + offset
        scores = scores * ((minimum * scale_w <= extent_w) & (minimum * scale_h <= extent_h))
        top = min(len(scores), int(call.attribute("pre_nms_topn")))
        order = np.argsort(-scores, kind="stable")[:top]
        kept = _proposal_nms(boxes[order], _F32(call.attribute("nms_thresh")), post, offset)
        chosen = boxes[order][kept]
        if call.attribute("clip_after_nms"):
            chosen = np.clip(chosen, _F32(0), np.array([width, height, width, height], _F32))
        if call.attribute("normalize"):
            chosen = chosen / np.array([width, height, width, height], _F32)
        boxes_out[image, : len(kept), 0] = image
        boxes_out[image, : len(kept), 1:] = chosen
        scores_out[image, : len(kept)] = scores[order][kept]
        if len(kept) < post:
            boxes_out[image, len(kept), 0] = -1
    outputs: list[np.ndarray] = [boxes_out.reshape(-1, 5).astype(call.output_dtype(0))]
    if len(call.inference.outputs) == 2:
        outputs.append(scores_out.reshape(-1).astype(call.output_dtype(1)))
    return outputs


def _enumerate(
    call: KernelCall,
    anchors: np.ndarray,
    deltas: np.ndarray,
    scores: np.ndarray,
    tensorflow: bool,
    size: tuple[np.float32, np.float32],
) -> tuple[np.ndarray, np.ndarray]:
    """Every position's and anchor's decoded box ``[H * W * A, 4]`` and score, in the plugin's
    order (position-major)."""
    height, width = size
    offset = _F32(0 if tensorflow else 1)
    count, rows, columns = scores.shape
    grid_y, grid_x = np.meshgrid(np.arange(rows), np.arange(columns), indexing="ij")
    stride = int(call.attribute("feat_stride"))
    shift_x = (grid_y if tensorflow else grid_x) * stride
    shift_y = (grid_x if tensorflow else grid_y) * stride
    shifts = np.stack([shift_x, shift_y, shift_x, shift_y], -1).astype(_F32)  # [H, W, 4]
    boxes = shifts[:, :, None, :] + anchors[None, None]  # [H, W, A, 4]
    if tensorflow:
        boxes = np.clip(boxes, _F32(0), np.array([width, height, width, height], _F32))
    moves = deltas.reshape(count, 4, rows, columns).transpose(2, 3, 0, 1)  # [H, W, A, 4]
    dx = moves[..., 0] / _F32(call.attribute("box_coordinate_scale"))
    dy = moves[..., 1] / _F32(call.attribute("box_coordinate_scale"))
    dw = moves[..., 2] / _F32(call.attribute("box_size_scale"))
    dh = moves[..., 3] / _F32(call.attribute("box_size_scale"))
    box_w = boxes[..., 2] - boxes[..., 0] + offset
    box_h = boxes[..., 3] - boxes[..., 1] + offset
    centre_x = _fma(dx, box_w, boxes[..., 0] + _F32(0.5) * box_w)
    centre_y = _fma(dy, box_h, boxes[..., 1] + _F32(0.5) * box_h)
    half_w, half_h = _F32(0.5) * (_expf(dw) * box_w), _F32(0.5) * (_expf(dh) * box_h)
    decoded = np.stack([centre_x - half_w, centre_y - half_h, centre_x + half_w, centre_y + half_h], -1)
    if call.attribute("clip_before_nms"):
        limit = np.array([width, height, width, height], _F32) - offset
        decoded = np.maximum(_F32(0), np.minimum(decoded, limit))
    return decoded.reshape(-1, 4).astype(_F32), scores.transpose(1, 2, 0).reshape(-1)


def _proposal_nms(
    boxes: np.ndarray, threshold: np.float32, limit: int, offset: np.float32, alive: np.ndarray | None = None
) -> list[int]:
    """Greedy NMS of boxes sorted by score: a box is dropped when its IoU (sizes plus the
    offset) with a kept one is above the threshold; at most ``limit`` kept; boxes not
    ``alive`` never kept."""
    kept: list[int] = []
    remaining = np.arange(len(boxes)) if alive is None else np.flatnonzero(alive)
    while remaining.size and len(kept) < limit:
        best = int(remaining[0])
        kept.append(best)
        rest = remaining[1:]
        first, others = boxes[best], boxes[rest]
        touching = (
            (first[0] <= others[:, 2])
            & (first[1] <= others[:, 3])
            & (others[:, 0] <= first[2])
            & (others[:, 1] <= first[3])
        )
        width = np.maximum(
            _F32(0), np.minimum(first[2], others[:, 2]) - np.maximum(first[0], others[:, 0]) + offset
        )
        height = np.maximum(
            _F32(0), np.minimum(first[3], others[:, 3]) - np.maximum(first[1], others[:, 1]) + offset
        )
        area = width * height
        first_area = (first[2] - first[0] + offset) * (first[3] - first[1] + offset)
        areas = (others[:, 2] - others[:, 0] + offset) * (others[:, 3] - others[:, 1] + offset)
        with np.errstate(divide="ignore", invalid="ignore"):
            iou = np.where(touching, area / (first_area + areas - area), _F32(0))
        remaining = rest[~(threshold < iou)]
    return kept


# --- MulticlassNms-8/9 ----------------------------------------------------------------------

Selected = tuple[int, int, int, float]  # batch, class, box (within the image), score


def multiclass_nms(call: KernelCall) -> list[np.ndarray]:
    """MulticlassNms-8 and MulticlassNms-9."""
    boxes, scores = call.inputs[0].astype(_F32), call.inputs[1].astype(_F32)
    shared = scores.ndim == 3
    if shared:
        images, classes = boxes.shape[0], scores.shape[1]
        starts, counts = np.zeros(images, np.int64), np.full(images, boxes.shape[1])
    else:
        counts = call.inputs[2].astype(np.int64)
        images, classes = len(counts), scores.shape[0]
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    top_k = int(call.attribute("nms_top_k"))
    per_class = boxes.shape[1] if top_k == -1 else min(top_k, boxes.shape[1])
    background = int(call.attribute("background_class"))
    selected: list[Selected] = []
    for image in range(images):
        for klass in range(classes):
            if klass == background or counts[image] <= 0 or per_class <= 0:
                continue
            span = slice(starts[image], starts[image] + counts[image])
            class_boxes = boxes[image] if shared else boxes[klass, span]
            class_scores = scores[image, klass] if shared else scores[klass, span]
            kept = _multiclass_select(call, class_boxes, class_scores, per_class)
            selected += [(image, klass, box, float(class_scores[box])) for box in kept]
    selected = _multiclass_order(call, selected, images)
    rows = len(selected)
    output = np.zeros((rows, 6), _F32)
    indices = np.zeros((rows, 1), np.int64)
    for row, (image, klass, box, score) in enumerate(selected):
        if shared:
            indices[row] = image * boxes.shape[1] + box
            output[row, 2:] = boxes[image, box]
        else:
            indices[row] = (starts[image] + box) * classes + klass
            output[row, 2:] = boxes[klass, starts[image] + box]
        output[row, :2] = (klass, score)
    numbers = np.bincount(np.array([s[0] for s in selected], np.int64), minlength=images)
    return [
        output.astype(call.output_dtype(0)),
        indices.astype(call.output_dtype(1)),
        numbers.astype(call.output_dtype(2)),
    ]


def _multiclass_iou(first: np.ndarray, others: np.ndarray, normalized: bool) -> np.ndarray:
    """The plugin's IoU of one box with others: +1 on sizes when not normalized, 0 where
    either area is not positive."""
    extra = _F32(0 if normalized else 1)
    area = (first[2] - first[0] + extra) * (first[3] - first[1] + extra)
    areas = (others[:, 2] - others[:, 0] + extra) * (others[:, 3] - others[:, 1] + extra)
    height = np.maximum(
        np.minimum(first[2], others[:, 2]) - np.maximum(first[0], others[:, 0]) + extra, _F32(0)
    )
    width = np.maximum(
        np.minimum(first[3], others[:, 3]) - np.maximum(first[1], others[:, 1]) + extra, _F32(0)
    )
    intersection = height * width
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = intersection / (area + areas - intersection)
    result: np.ndarray = np.where((area > 0) & (areas > 0), iou, _F32(0))
    return result


def _multiclass_select(call: KernelCall, boxes: np.ndarray, scores: np.ndarray, per_class: int) -> list[int]:
    """One image and class: of the ``per_class`` best candidates (score at least the
    threshold), each kept unless its IoU with a kept one reaches the threshold, which ``nms_eta``
    shrinks after each kept box while above 0.5."""
    candidates = np.flatnonzero(scores >= _F32(call.attribute("score_threshold")))
    order = candidates[_ranked(scores[candidates], candidates, per_class)]
    threshold = _F32(call.attribute("iou_threshold"))
    eta = _F32(call.attribute("nms_eta"))
    normalized = bool(call.attribute("normalized"))
    kept: list[int] = []
    for box in order:
        if kept and (_multiclass_iou(boxes[box], boxes[kept], normalized) >= threshold).any():
            continue
        kept.append(int(box))
        if eta < 1 and threshold > 0.5:
            threshold = _F32(threshold * eta)
    return kept


def _multiclass_order(call: KernelCall, selected: list[Selected], images: int) -> list[Selected]:
    """By image then score (class, then box on ties), the ``keep_top_k`` first of each image,
    then as ``sort_result_type`` and ``sort_result_across_batch`` say."""
    selected = sorted(selected, key=lambda s: (s[0], -s[3], s[1], s[2]))
    keep = int(call.attribute("keep_top_k"))
    if keep > -1:
        selected = [s for image in range(images) for s in [t for t in selected if t[0] == image][:keep]]
    kind = str(call.attribute("sort_result_type"))
    if call.attribute("sort_result_across_batch"):
        if kind == "score":
            return sorted(selected, key=lambda s: (-s[3], s[0], s[1], s[2]))
        if kind == "classid":
            return sorted(selected, key=lambda s: (s[1], s[0], -s[3], s[2]))
        return selected
    if kind == "classid":
        return sorted(selected, key=lambda s: (s[0], s[1], -s[3], s[2]))
    return selected


# --- MatrixNms-8 ----------------------------------------------------------------------------


def _matrix_iou(boxes: np.ndarray, normalized: bool) -> np.ndarray:
    """The plugin's ``[N, N]`` IoU of ``[N, 4]`` boxes ``(x1, y1, x2, y2)``: 0 for boxes apart,
    +1 on sizes when not normalized, an inverted box's area 0."""
    extra = _F32(0 if normalized else 1)
    a, b = boxes[:, None, :], boxes[None, :, :]
    apart = (
        (b[..., 0] > a[..., 2]) | (b[..., 2] < a[..., 0]) | (b[..., 1] > a[..., 3]) | (b[..., 3] < a[..., 1])
    )
    width = np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]) + extra
    height = np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]) + extra
    inverted = (boxes[:, 2] < boxes[:, 0]) | (boxes[:, 3] < boxes[:, 1])
    areas = np.where(
        inverted, _F32(0), (boxes[:, 2] - boxes[:, 0] + extra) * (boxes[:, 3] - boxes[:, 1] + extra)
    )
    intersection = width * height
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = intersection / (areas[:, None] + areas[None, :] - intersection)
    result: np.ndarray = np.where(apart, _F32(0), iou).astype(_F32)
    return result


def _matrix_select(call: KernelCall, boxes: np.ndarray, scores: np.ndarray) -> list[tuple[int, float]]:
    """One image and class: the (box, decayed score) pairs kept, by score."""
    candidates = np.flatnonzero(scores > _F32(call.attribute("score_threshold")))
    top_k = int(call.attribute("nms_top_k"))
    order = candidates[_ranked(scores[candidates], candidates, top_k)]
    if order.size == 0:
        return []
    iou = np.tril(_matrix_iou(boxes[order], bool(call.attribute("normalized"))), -1)  # [i, j]: j before i
    # each candidate's largest IoU with a better one; the plugin's std::max and std::min skip a
    # NaN (the IoU of two boxes without area, 0 / 0) as np.fmax and np.fmin do
    worst = np.fmax.reduce(iou, axis=1)
    if call.attribute("decay_function") == "linear":
        # in float32, though the plugin's source writes ``(1. - iou) / (1. - max_iou + 1e-10f)``
        # with double constants (by experiment: tests/execution/test_proposals.py)
        decay = (_F32(1) - iou) / (_F32(1) - worst[None, :] + _F32(1e-10))
    else:
        sigma = _F32(call.attribute("gaussian_sigma"))
        decay = _expf((worst[None, :] * worst[None, :] - iou * iou) * sigma)
    earlier = np.tril(np.ones_like(decay, dtype=bool), -1)
    factor = np.fmin(_F32(1), np.fmin.reduce(np.where(earlier, decay, _F32(np.inf)), axis=1))
    decayed = (factor * scores[order]).astype(_F32)
    kept = decayed > _F32(call.attribute("post_threshold"))
    return [(int(box), float(score)) for box, score in zip(order[kept], decayed[kept], strict=True)]


def _matrix_working_bytes(call: KernelCall) -> int:
    """The outputs at their upper bounds twice, the inputs in float32, and one class's
    ``[k, k]`` IoU, decay and mask matrices (k: the candidates ``nms_top_k`` leaves)."""
    boxes = call.inputs[0]
    count = boxes.shape[1] if boxes.ndim == 3 else 0
    top_k = int(call.attribute("nms_top_k"))
    k = count if top_k == -1 else min(top_k, count)
    outputs = sum(output_bytes(call, i) for i in range(len(call.inference.outputs)))
    return 2 * outputs + 4 * (boxes.size + call.inputs[1].size) + 6 * 4 * k * k


@working_memory(_matrix_working_bytes)
def matrix_nms(call: KernelCall) -> list[np.ndarray]:
    """MatrixNms-8."""
    boxes, scores = call.inputs[0].astype(_F32), call.inputs[1].astype(_F32)
    images, classes, count = scores.shape
    background, keep = int(call.attribute("background_class")), int(call.attribute("keep_top_k"))
    selected: list[Selected] = []
    for image in range(images):
        found = [
            (image, klass, box, score)
            for klass in range(classes)
            if klass != background
            for box, score in _matrix_select(call, boxes[image], scores[image, klass])
        ]
        found.sort(key=lambda s: (-s[3], s[1], s[2]))
        selected += found if keep == -1 else found[:keep]
    kind = str(call.attribute("sort_result_type"))
    if call.attribute("sort_result_across_batch") and kind == "score":
        selected.sort(key=lambda s: (-s[3], s[0], s[1], s[2]))
    elif call.attribute("sort_result_across_batch") and kind == "classid":
        selected.sort(key=lambda s: (s[1], s[0], -s[3], s[2]))
    rows = np.array([(klass, score) for _, klass, _, score in selected], _F32).reshape(-1, 2)
    chosen = np.array([(image, box) for image, _, box, _ in selected], np.int64).reshape(-1, 2)
    output = np.concatenate([rows, boxes[chosen[:, 0], chosen[:, 1]].reshape(-1, 4)], -1)
    indices = (chosen[:, 0] * count + chosen[:, 1]).reshape(-1, 1)
    numbers = np.bincount(chosen[:, 0], minlength=images)
    return [
        output.astype(call.output_dtype(0)),
        indices.astype(call.output_dtype(1)),
        numbers.astype(call.output_dtype(2)),
    ]


# --- GatherTree-1 ---------------------------------------------------------------------------


def gather_tree(call: KernelCall) -> np.ndarray:
    """GatherTree-1: each beam's path backtracked through the parents from its last step
    (``max_seq_len[batch]`` of them), ``end_token`` past it and after the first end token."""
    steps, parents, lengths, end = call.inputs
    dtype = call.output_dtype(0)
    steps, parents = steps.astype(dtype), parents.astype(dtype)
    end_token = np.asarray(end).reshape(-1)[0].astype(dtype)
    time, batch, width = steps.shape
    limits = np.minimum(time, lengths.astype(np.int32).astype(np.int64))[:, None]  # [B, 1]
    result = np.empty_like(steps)
    beam = np.broadcast_to(np.arange(width), (batch, width)).copy()
    for step in range(time - 1, -1, -1):
        active = step < limits
        if (active & ((beam < 0) | (beam >= width))).any():
            raise KernelError("GatherTree: a parent index out of [0, beam width): 'Wrong parent index'")
        safe = np.clip(beam, 0, width - 1)
        result[step] = np.where(active, np.take_along_axis(steps[step], safe, 1), end_token)
        parent = np.take_along_axis(parents[step], safe, 1).astype(np.int32)
        beam = np.where(active, parent, beam)
    ended = np.cumsum(result == end_token, axis=0) > 0  # an end token at or before each step
    after = np.concatenate([np.zeros((1, batch, width), bool), ended[:-1]])
    result[after] = end_token
    return result


# --- GenerateProposals-9 --------------------------------------------------------------------


def generate_proposals(call: KernelCall) -> list[np.ndarray]:
    """GenerateProposals-9."""
    info, anchors, deltas, scores = (array.astype(_F32) for array in call.inputs)
    offset = _F32(0 if call.attribute("normalized") else 1)
    count, height, width = scores.shape[1:]
    threshold = _F32(call.attribute("nms_threshold"))
    limit = int(call.attribute("post_nms_count"))
    rois, roi_scores, numbers = [], [], []
    for image in range(scores.shape[0]):
        image_deltas = deltas[image].reshape(count, 4, height, width)
        scale_h = info[image, 2] if info.shape[1] >= 3 else _F32(1)
        scales = (scale_h, info[image, 3] if info.shape[1] == 4 else scale_h)
        boxes, alive = _refined(call, anchors, image_deltas, (info[image, 0], info[image, 1]), scales, offset)
        image_scores = scores[image].transpose(1, 2, 0).reshape(-1)
        top = min(len(image_scores), int(call.attribute("pre_nms_count")))
        order = np.argsort(-image_scores, kind="stable")[:top]
        kept = _proposal_nms(boxes[order], threshold, limit, offset, alive[order])
        rois.append(boxes[order][kept])
        roi_scores.append(image_scores[order][kept])
        numbers.append(len(kept))
    return [
        np.concatenate(rois).reshape(-1, 4).astype(call.output_dtype(0)),
        np.concatenate(roi_scores).astype(call.output_dtype(1)),
        np.array(numbers).astype(call.output_dtype(2)),
    ]


def _refined(
    call: KernelCall,
    anchors: np.ndarray,
    deltas: np.ndarray,
    size: tuple[np.float32, np.float32],
    scale: tuple[np.float32, np.float32],
    offset: np.float32,
) -> tuple[np.ndarray, np.ndarray]:
    """``[H * W * A, 4]`` decoded boxes (position-major) of ``[H, W, A, 4]`` anchors and
    ``[A, 4, H, W]`` deltas, and which are at least ``min_size`` times the scale."""
    image_h, image_w = size
    scale_h, scale_w = scale
    x0, y0, x1, y1 = (anchors[..., i] for i in range(4))  # [H, W, A]
    dx, dy, dw, dh = (deltas[:, i].transpose(1, 2, 0) for i in range(4))  # [H, W, A]
    cap = _F32(np.log(1000.0 / 16.0))
    box_w, box_h = x1 - x0 + offset, y1 - y0 + offset
    centre_x = dx * box_w + (x0 + _F32(0.5) * box_w)
    centre_y = dy * box_h + (y0 + _F32(0.5) * box_h)
    half_w = _F32(0.5) * (_expf(np.minimum(dw, cap)) * box_w)
    half_h = _F32(0.5) * (_expf(np.minimum(dh, cap)) * box_h)
    bounds = np.array([image_w, image_h, image_w, image_h], _F32) - offset
    corners = np.stack(
        [centre_x - half_w, centre_y - half_h, centre_x + half_w - offset, centre_y + half_h - offset], -1
    )
    decoded = np.maximum(_F32(0), np.minimum(corners, bounds)).reshape(-1, 4).astype(_F32)
    minimum = _F32(call.attribute("min_size"))
    wide = minimum * scale_w <= decoded[:, 2] - decoded[:, 0] + offset
    tall = minimum * scale_h <= decoded[:, 3] - decoded[:, 1] + offset
    return decoded, wide & tall


def experimental_generate_proposals(call: KernelCall) -> list[np.ndarray]:
    """ExperimentalDetectronGenerateProposalsSingleImage-6."""
    info, anchors, deltas, scores = (array.astype(_F32) for array in call.inputs)
    count, height, width = scores.shape
    grid_anchors = anchors.reshape(height, width, count, 4)
    one = _F32(1)
    image_deltas = deltas.reshape(count, 4, height, width)
    boxes, large = _refined(call, grid_anchors, image_deltas, (info[0], info[1]), (one, one), one)
    flat_scores = scores.transpose(1, 2, 0).reshape(-1) * large  # too small: score 0
    top = min(len(flat_scores), int(call.attribute("pre_nms_count")))
    order = np.argsort(-flat_scores, kind="stable")[:top]
    kept_scores = flat_scores[order]
    post = int(call.attribute("post_nms_count"))
    threshold = _F32(call.attribute("nms_threshold"))
    kept = _proposal_nms(boxes[order], threshold, post, _F32(0))  # (no offset here, by experiment)
    rois, roi_scores = np.zeros((post, 4), _F32), np.zeros(post, _F32)
    rois[: len(kept)] = boxes[order][kept]
    roi_scores[: len(kept)] = kept_scores[kept]
    return [rois.astype(call.output_dtype(0)), roi_scores.astype(call.output_dtype(1))]


# --- ExperimentalDetectronDetectionOutput-6 -------------------------------------------------


def experimental_detection_output(call: KernelCall) -> list[np.ndarray]:
    """ExperimentalDetectronDetectionOutput-6."""
    rois, deltas, scores = (call.inputs[i].astype(_F32) for i in range(3))
    classes = int(call.attribute("num_classes"))
    boxes, valid = _experimental_refined(call, rois, deltas.reshape(len(rois), classes, 4))
    class_scores = np.where(valid[:, None], scores, _F32(0)).T  # [classes, rois]; 0 for skipped rois
    threshold, nms_threshold = _F32(call.attribute("score_threshold")), _F32(call.attribute("nms_threshold"))
    per_class = int(call.attribute("post_nms_count"))
    found: list[tuple[float, int, int]] = []  # score, class, roi
    for klass in range(1, classes):
        candidates = np.flatnonzero(class_scores[klass] > threshold)
        order = candidates[_ranked(class_scores[klass, candidates], candidates, -1)]
        kept = _nms(boxes[klass], order, nms_threshold, _F32(1))
        kept = kept if per_class == -1 else kept[:per_class]
        found += [(float(class_scores[klass, roi]), klass, roi) for roi in kept]
    limit = int(call.attribute("max_detections_per_image"))
    if len(found) > limit:  # the best, score descending then roi ascending (class order on ties)
        found = sorted(found, key=lambda f: (-f[0], f[2]))[:limit]
    out_boxes, out_classes, out_scores = (
        np.zeros((limit, 4), _F32),
        np.zeros(limit, np.int32),
        np.zeros(limit, _F32),
    )
    for row, (score, klass, roi) in enumerate(found):
        out_boxes[row], out_classes[row], out_scores[row] = boxes[klass, roi], klass, score
    return [
        out_boxes.astype(call.output_dtype(0)),
        out_classes.astype(call.output_dtype(1)),
        out_scores.astype(call.output_dtype(2)),
    ]


def _experimental_refined(
    call: KernelCall, rois: np.ndarray, deltas: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``[classes, rois, 4]`` boxes refined by the weighted deltas (offset 1, corners clamped at
    0 only), zeros for class 0 and for rois without area; which rois have area."""
    weights = np.array(call.attributes.float_list("deltas_weights"), dtype=_F32)
    x0, y0, x1, y1 = (rois[:, i, None] for i in range(4))  # [R, 1]
    valid = ((x1 - x0) > 0) & ((y1 - y0) > 0)
    one, cap = _F32(1), _F32(call.attribute("max_delta_log_wh"))
    width, height = x1 - x0 + one, y1 - y0 + one
    dx, dy, dw, dh = (deltas[..., i] / weights[i] for i in range(4))  # [R, C]
    centre_x = dx * width + (x0 + _F32(0.5) * width)
    centre_y = dy * height + (y0 + _F32(0.5) * height)
    half_w = _F32(0.5) * (_expf(np.minimum(dw, cap)) * width)
    half_h = _F32(0.5) * (_expf(np.minimum(dh, cap)) * height)
    corners = np.stack(
        [centre_x - half_w, centre_y - half_h, centre_x + half_w - one, centre_y + half_h - one], -1
    )
    boxes = np.where(valid[..., None], np.maximum(corners, _F32(0)), _F32(0)).transpose(1, 0, 2)
    boxes[0] = 0
    return boxes.astype(_F32), valid[:, 0]
