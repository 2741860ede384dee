"""Kernels of region-of-interest pooling: ROIAlign-3/9, ROIAlignRotated-15, ROIPooling-2,
PSROIPooling-1, DeformablePSROIPooling-1, ExperimentalDetectronTopKROIs-6,
ExperimentalDetectronROIFeatureExtractor-6, and the YOLO heads' RegionYolo-1 and ReorgYolo-2
(each documented at its function; ROIAlign's rules below).

Semantics of OpenVINO's reference ``roi_align.hpp``, confirmed against the CPU plugin by
``tests/execution/test_roi.py``:

* each box ``(x1, y1, x2, y2)`` is scaled by ``spatial_scale`` (``half_pixel``: shifted by +0.5
  before and -0.5 after; ``half_pixel_for_nn``: -0.5 after); its width and height are at least
  1 in ``asymmetric`` mode only; it is cut into ``pooled_h x pooled_w`` bins of
  ``sampling_ratio`` (0: ``ceil(bin size)``, per axis and per box) samples a side, each at the
  centre of its sub-bin;
* a sample outside ``[-1, size]`` on either axis is worth 0 (and still counts in the average);
  others are clamped to ``>= 0`` and interpolated bilinearly, a coordinate past ``size - 1``
  taking the last row or column;
* ``avg`` averages a bin's samples (their sum times ``1 / count``); ``max`` folds them from 0
  as the plugin's JIT kernel does (``maxps``: a NaN sample replaces the running value, the
  next sample replaces the NaN; a bin of negative samples is 0). A box without samples
  (``sampling_ratio`` 0 and a bin size in (-1, 0], a reversed box of an aligned mode)
  averages to NaN in the plugin (the reference says 0: the plugin is followed); a bin size of
  -1 or less on both axes makes as many samples as the product of the negative counts, each
  cell (0, 0) at weight 0 (0, or NaN where that cell is not finite); on one axis only the
  plugin fails ('cannot create std::vector larger than max_size()'): the kernel refuses it;
* the plugin multiplies each of a sample's four cells by its weight, 0 too (an infinity read
  at weight 0 is NaN; a sample outside the map reads cell (0, 0) four times), and stores bf16
  by truncating its float32 result.

The bilinear weights and the validity of a sample are products of a y and an x factor, so on
finite data the average is ``Ay @ data @ Ax^T`` with per-box interpolation matrices (no
per-sample gathers); data with NaN or infinities is sampled sample by sample.

What the kernel fuzzer (``tests/execution/test_kernel_fuzz_roi.py``) found is at each function
and pinned by ``tests/execution/test_roi.py``'s ``fuzz_found_*`` cases: the above; ROIPooling's
and (Deformable)PSROIPooling's batch id of -1, which ends the boxes; ROIPooling's max and NaN;
PSROIPooling's empty bins (0), its bins' float32 sums, its bilinear points past the last cell;
DeformablePSROIPooling's weighted interpolation; the Detectron extractor's sum of samples in
turn; ROIAlignRotated's boxes without samples (0); ReorgYolo's integers through float32.
"""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError
from irshape.kernels.elementwise import reordered_i32
from irshape.kernels.narrow_reals import integers_to_bf16

F32 = np.float32


def _stored_truncating_bf16(values: np.ndarray, call: KernelCall) -> np.ndarray:
    """The output as ROIAlign's JIT kernel stores it: bf16 by dropping the low 16 bits of its
    float32 result (truncation, not nearest: a bin of 11.99998 is 11.9375, where nearest gives
    12; found by the kernel fuzzer); other types as they are."""
    result = values.astype(F32)
    if call.output_type(0) == "bf16":
        bits = np.ascontiguousarray(result).view(np.uint32) & np.uint32(0xFFFF0000)
        result = np.where(np.isnan(result), F32(np.nan), bits.view(F32))
    return result.astype(call.output_dtype(0))


def _stored_odd_rounding_bf16(values: np.ndarray, call: KernelCall) -> np.ndarray:
    """The output as the plugin's reference nodes store it through their ``bfloat16_t``: bf16
    up only where the bit below its last is set and that last bit is odd (its
    ``round_to_nearest_even``), else truncated; other types as they are."""
    result = values.astype(F32)
    if call.output_type(0) == "bf16":
        result = integers_to_bf16(result)
    return result.astype(call.output_dtype(0))


class _Axis:
    """One axis of every box's samples: ``[boxes, bins, samples]`` arrays of the lower and
    upper source row (or column), their weights (0 for an invalid sample), and which samples
    exist (a box with a smaller sampling ratio than the largest has fewer)."""

    def __init__(self, start: np.ndarray, length: np.ndarray, bins: int, ratio: int, size: int) -> None:
        bin_size = (length / F32(bins)).astype(F32)
        # (negative where a bin is of size -1 or less: no sample exists; see roi_align)
        counts = np.ceil(bin_size).astype(np.int64) if ratio == 0 else np.full(len(start), ratio, np.int64)
        self.counts = counts
        most = max(int(counts.max()), 0) if counts.size else 0
        distance = (bin_size / np.maximum(counts, 1).astype(F32)).astype(F32)
        sample = np.arange(most, dtype=F32) + F32(0.5)
        position = (
            start[:, None, None]
            + (np.arange(bins, dtype=F32)[None, :, None] * bin_size[:, None, None])
            + distance[:, None, None] * sample[None, None, :]
        ).astype(F32)
        self.exists = np.arange(most)[None, None, :] < counts[:, None, None]
        valid = ~((position < -1) | (position > F32(size))) & self.exists
        self.valid = valid
        clamped = np.maximum(position, F32(0))
        low = np.where(valid, clamped, 0).astype(np.int64)
        last = low >= size - 1
        low = np.where(last, size - 1, low)
        clamped = np.where(last, low.astype(F32), clamped)
        self.low, self.high = low, np.where(last, low, low + 1)
        upper_weight = (clamped - low.astype(F32)).astype(F32)
        self.low_weight = np.where(valid, F32(1) - upper_weight, F32(0)).astype(F32)
        self.high_weight = np.where(valid, upper_weight, F32(0)).astype(F32)

    def matrix(self, size: int) -> np.ndarray:
        """``[boxes, bins, size]``: each bin's summed interpolation weights of every row."""
        boxes, bins, _ = self.low.shape
        out = np.zeros((boxes, bins, size), F32)
        box, bin_ = np.indices(self.low.shape)[:2]
        np.add.at(out, (box, bin_, self.low), self.low_weight)
        np.add.at(out, (box, bin_, self.high), self.high_weight)
        return out


def _boxes(call: KernelCall) -> tuple[np.ndarray, ...]:
    """x1, y1, width, height of every box in feature-map coordinates (``aligned_mode``'s)."""
    rois = call.inputs[1].astype(F32)
    scale = F32(call.attribute("spatial_scale"))
    mode = str(call.attribute("aligned_mode")) if "aligned_mode" in call.schema.attributes else "asymmetric"
    shift_in, shift_out = {"half_pixel": (0.5, -0.5), "half_pixel_for_nn": (0.0, -0.5)}.get(mode, (0.0, 0.0))
    corners = ((rois[:, :4] + F32(shift_in)) * scale + F32(shift_out)).astype(F32)
    x1, y1, x2, y2 = corners.T
    width, height = (x2 - x1).astype(F32), (y2 - y1).astype(F32)
    if mode == "asymmetric":
        width, height = np.maximum(width, F32(1)), np.maximum(height, F32(1))
    return x1, y1, width, height


def _batch_indices(call: KernelCall, batches: int) -> np.ndarray:
    indices = call.inputs[2].astype(np.int64)
    if ((indices < 0) | (indices >= batches)).any():
        raise KernelError(f"a batch index is outside [0, {batches})")
    return indices


def roi_align(call: KernelCall) -> np.ndarray:
    """ROIAlign-3 and ROIAlign-9."""
    if 0 in call.output_shape(0):  # (the plugin runs nothing for an empty output, refuses nothing)
        return np.zeros(call.output_shape(0), call.output_dtype(0))
    data = call.inputs[0].astype(F32)
    _, channels, height, width = data.shape
    pooled_h, pooled_w = int(call.attribute("pooled_h")), int(call.attribute("pooled_w"))
    ratio = int(call.attribute("sampling_ratio"))
    x1, y1, box_w, box_h = _boxes(call)
    indices = _batch_indices(call, data.shape[0])
    ys = _Axis(y1, box_h, pooled_h, ratio, height)
    xs = _Axis(x1, box_w, pooled_w, ratio, width)
    out = np.zeros((len(indices), channels, pooled_h, pooled_w), F32)
    pool = _average if str(call.attribute("mode")) == "avg" else _maximum
    for batch in np.unique(indices):  # the boxes of one image at a time
        boxes = np.flatnonzero(indices == batch)
        out[boxes] = pool(data[batch], ys, xs, boxes)
    return _stored_truncating_bf16(_reversed_bins(out, data, indices, ys.counts, xs.counts), call)


def _reversed_bins(
    out: np.ndarray, data: np.ndarray, indices: np.ndarray, rows: np.ndarray, columns: np.ndarray
) -> np.ndarray:
    """The boxes whose bins are of size -1 or less (a reversed box of an aligned mode with a
    sampling ratio of 0), as the plugin computes them: a negative count on both axes makes as
    many samples as their product, each reading cell (0, 0) at weight 0 (every bin is 0, NaN
    where that cell is not finite); on one axis only its sample count, the product read as
    unsigned, is too large to allocate: the plugin fails ('cannot create std::vector larger
    than max_size()'). Found by the kernel fuzzer."""
    if ((rows < 0) & (columns > 0) | (rows > 0) & (columns < 0)).any():
        raise UnsupportedByOpenVINOError(
            "a box's bins are of size -1 or less on one axis: the CPU plugin fails on its sample count"
        )
    both = np.flatnonzero((rows < 0) & (columns < 0))
    if both.size:
        corner = data[indices[both], :, :1, :1]  # [boxes, C, 1, 1]
        out[both] = np.where(np.isfinite(corner), F32(0), F32(np.nan))
    return out


def _average(image: np.ndarray, ys: _Axis, xs: _Axis, boxes: np.ndarray) -> np.ndarray:
    """Each bin's samples summed, times ``1 / samples`` (no sample: ``0 * inf``, NaN, as the
    plugin's ROIAlign JIT kernel gives). On finite data by the interpolation matrices; on data
    with NaN, infinities or values near float32's limit sample by sample, as the plugin
    multiplies each of the four cells by its weight, a weight of 0 too (an infinity read at
    weight 0 is NaN), and adds the samples in turn (where a partial sum overflows, the order
    decides between an infinity and NaN)."""
    samples = (ys.counts[boxes] * xs.counts[boxes]).astype(F32)[:, None, None, None]
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if np.isfinite(image).all() and not (np.abs(image) > _LARGE).any():
            rows = ys.matrix(image.shape[1])[boxes]
            columns = xs.matrix(image.shape[2])[boxes]
            pooled: np.ndarray = np.einsum("rph,chw,rqw->rcpq", rows, image, columns, optimize=True)
        else:
            values, exists = _ordered_samples(image, ys, xs, boxes)
            pooled = np.zeros(values.shape[:4], F32)
            for sample in range(values.shape[-1]):
                pooled = np.where(exists[..., sample], pooled + values[..., sample], pooled).astype(F32)
        averaged: np.ndarray = (pooled * (F32(1) / samples).astype(F32)).astype(F32)
    return averaged


# data beyond this: a bin's sum of samples may overflow float32 (the matrices sum otherwise)
_LARGE = F32(1e30)


def _ordered_samples(
    image: np.ndarray, ys: _Axis, xs: _Axis, boxes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Every sample's value ``[boxes, C, bin_y, bin_x, sample]`` with the samples in the
    plugin's order (y, then x), and which exist (``[boxes, 1, bin_y, bin_x, sample]``)."""
    values = _sample_values(image, ys, xs, boxes)  # [boxes, C, bin_y, sample_y, bin_x, sample_x]
    exists = ys.exists[boxes][:, None, :, :, None, None] & xs.exists[boxes][:, None, None, None, :, :]
    order = (0, 1, 2, 4, 3, 5)
    boxes_, channels, bins_y, samples_y, bins_x, samples_x = values.shape
    flat: np.ndarray = values.transpose(order).reshape(
        boxes_, channels, bins_y, bins_x, samples_y * samples_x
    )
    present = np.broadcast_to(exists, (boxes_, 1, bins_y, samples_y, bins_x, samples_x))
    present = present.transpose(order).reshape(boxes_, 1, bins_y, bins_x, samples_y * samples_x)
    return flat, present


def _sample_values(image: np.ndarray, ys: _Axis, xs: _Axis, boxes: np.ndarray) -> np.ndarray:
    """Every sample's bilinear value ``[boxes, C, bin_y, sample_y, bin_x, sample_x]`` as the
    plugin computes it: the four cells times their weights, in its order; a sample outside the
    map reads cell (0, 0) four times at weight 0; a sample that does not exist is 0."""
    exists = ys.exists[boxes][:, None, :, :, None, None] & xs.exists[boxes][:, None, None, None, :, :]
    valid = ys.valid[boxes][:, None, :, :, None, None] & xs.valid[boxes][:, None, None, None, :, :]
    channel = np.arange(image.shape[0])[None, :, None, None, None, None]
    value: np.ndarray | None = None
    with np.errstate(invalid="ignore", over="ignore"):
        for y_index, y_weight in ((ys.low, ys.low_weight), (ys.high, ys.high_weight)):
            for x_index, x_weight in ((xs.low, xs.low_weight), (xs.high, xs.high_weight)):
                rows = np.where(valid, y_index[boxes][:, None, :, :, None, None], 0)
                columns = np.where(valid, x_index[boxes][:, None, None, None, :, :], 0)
                weight = (
                    y_weight[boxes][:, None, :, :, None, None] * x_weight[boxes][:, None, None, None, :, :]
                )
                term = (weight.astype(F32) * image[channel, rows, columns]).astype(F32)
                value = term if value is None else (value + term).astype(F32)
    assert value is not None
    sampled: np.ndarray = np.where(exists, value, F32(0))
    return sampled


def _maximum(image: np.ndarray, ys: _Axis, xs: _Axis, boxes: np.ndarray) -> np.ndarray:
    """Each bin's samples folded as the plugin's JIT kernel folds them, from 0: the running
    value stays only where it is greater than the sample (``maxps``), so a NaN sample replaces
    it and the next sample replaces the NaN: the largest sample after a bin's last NaN sample
    (NaN where that is its last sample), or without NaN the largest of 0 and the samples."""
    values, exists = _ordered_samples(image, ys, xs, boxes)
    position = np.arange(values.shape[-1])
    last_nan = np.where(np.isnan(values) & exists, position, -1).max(axis=-1, initial=-1)
    after = exists & (position > last_nan[..., None])
    largest = np.where(after, values, -np.inf).max(axis=-1, initial=-np.inf)
    pooled: np.ndarray = np.where(
        last_nan < 0, np.maximum(largest, F32(0)), np.where(after.any(axis=-1), largest, np.nan)
    ).astype(F32)
    return pooled


# --- ROIPooling-2 -----------------------------------------------------------------------------


def roi_pooling(call: KernelCall) -> np.ndarray:
    """ROIPooling-2: ``max`` over each bin's cells, or ``bilinear`` at each bin's point (a
    batch id of -1 ends the boxes: that box and the later ones are 0)."""
    data = call.inputs[0].astype(F32)
    rois = call.inputs[1].astype(F32)
    _, _, pooled_h, pooled_w = call.output_shape(0)
    images, _ = _batch_ids_to_first_minus_one(rois[:, 0], data.shape[0])
    out = np.zeros((len(rois), data.shape[1], pooled_h, pooled_w), F32)
    pool = _max_pool if str(call.attribute("method")) == "max" else _bilinear_pool
    scale = F32(call.attribute("spatial_scale"))
    for image in np.unique(images):
        boxes = np.flatnonzero(images == image)
        out[boxes] = pool(data[image], rois[boxes, 1:], scale, pooled_h, pooled_w)
    return out.astype(call.output_dtype(0))


def _round_half_away(values: np.ndarray) -> np.ndarray:
    """``std::round``: halves away from zero."""
    exact = values.astype(np.float64)  # (in float32, 0.49999997 + 0.5 is 1)
    rounded: np.ndarray = (np.sign(exact) * np.floor(np.abs(exact) + 0.5)).astype(np.int64)
    return rounded


def _bin_edges(start: np.ndarray, end: np.ndarray, bins: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``[boxes, bins]`` first and past-the-last cells of each bin, clipped to ``[0, size]``."""
    length = np.maximum(end - start + 1, 1)
    bin_size = (length.astype(F32) / F32(bins)).astype(F32)
    steps = np.arange(bins + 1, dtype=F32)
    low = np.floor(steps[None, :-1] * bin_size[:, None]).astype(np.int64)
    high = np.ceil(steps[None, 1:] * bin_size[:, None]).astype(np.int64)
    return np.clip(low + start[:, None], 0, size), np.clip(high + start[:, None], 0, size)


def _max_pool(
    image: np.ndarray, boxes: np.ndarray, scale: np.float32, pooled_h: int, pooled_w: int
) -> np.ndarray:
    """Each bin's largest cell (an empty bin is 0), by a range-maximum table: the maximum of
    every ``2^i x 2^j`` block, four of which cover any bin. NaN as the plugin's JIT kernel
    folds it (from the bin's first cell, ``maxps`` keeping the running value where either is
    NaN): a bin whose top-left cell is NaN is NaN, its other NaN cells are skipped (found by
    the kernel fuzzer)."""
    if image.shape[1] == 0 or image.shape[2] == 0:  # no cell: every bin empty
        return np.zeros((len(boxes), image.shape[0], pooled_h, pooled_w), F32)
    corners = _round_half_away((boxes * scale).astype(F32))
    top, bottom = _bin_edges(corners[:, 1], corners[:, 3], pooled_h, image.shape[1])
    left, right = _bin_edges(corners[:, 0], corners[:, 2], pooled_w, image.shape[2])
    nan = np.isnan(image)
    table = _range_max_table(np.where(nan, -np.inf, image).astype(image.dtype))
    rows = _cover(top, bottom)
    columns = _cover(left, right)
    picked = [
        table[rows[0][:, :, None], columns[0][:, None, :], :, row[:, :, None], column[:, None, :]]
        for row in rows[1:]
        for column in columns[1:]
    ]
    largest = np.maximum.reduce(picked)  # [boxes, bin_y, bin_x, C]
    first_nan = nan[
        :, np.minimum(top, image.shape[1] - 1)[:, :, None], np.minimum(left, image.shape[2] - 1)[:, None, :]
    ]
    largest = np.where(first_nan.transpose(1, 2, 3, 0), F32(np.nan), largest)
    empty = ((bottom <= top)[:, :, None] | (right <= left)[:, None, :])[..., None]
    pooled: np.ndarray = np.where(empty, F32(0), largest).transpose(0, 3, 1, 2)
    return pooled


def _cover(low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The level ``k`` (blocks of ``2^k``) and the two block starts that cover ``[low, high)``;
    an empty range reads block 0 (masked by the caller)."""
    length = np.maximum(high - low, 1)
    level = np.floor(np.log2(length)).astype(np.int64)
    low = np.minimum(low, np.maximum(high - 1, 0))
    return level, low, np.maximum(high - (1 << level), low)


def _range_max_table(image: np.ndarray) -> np.ndarray:
    """``[levels_y, levels_x, C, H, W]``: the maximum of the ``2^i x 2^j`` block at each cell
    (cells past the edge repeat the last block)."""
    channels, height, width = image.shape
    levels_y, levels_x = max(height, 1).bit_length(), max(width, 1).bit_length()
    by_rows = [image]
    for level in range(1, levels_y):
        by_rows.append(_doubled(by_rows[-1], 1 << (level - 1), 1))
    table = np.empty((levels_y, levels_x, channels, height, width), image.dtype)
    for level_y, rows in enumerate(by_rows):
        table[level_y, 0] = rows
        for level in range(1, levels_x):
            table[level_y, level] = _doubled(table[level_y, level - 1], 1 << (level - 1), 2)
    return table


def _doubled(blocks: np.ndarray, half: int, axis: int) -> np.ndarray:
    """The maxima of blocks twice as long along ``axis``: each block and the one ``half``
    further (past the edge: the last one)."""
    length = blocks.shape[axis]
    further = np.take(blocks, np.minimum(np.arange(length) + half, length - 1), axis)
    doubled: np.ndarray = np.maximum(blocks, further)
    return doubled


def _bilinear_points(start: np.ndarray, end: np.ndarray, bins: int, size: int) -> np.ndarray:
    """``[boxes, bins]``: where each bin samples, in cells (box coordinates are fractions of
    the map; the last bin at the box's end exactly)."""
    span = F32(size - 1)
    if bins == 1:
        middle: np.ndarray = (F32(0.5) * (start + end) * span).astype(F32)[:, None]
        return middle
    step = ((end - start) * span / F32(bins - 1)).astype(F32)
    points: np.ndarray = (
        np.arange(bins, dtype=F32)[None, :] * step[:, None] + (start * span)[:, None]
    ).astype(F32)
    points[:, -1] = span * end
    return points


def _bilinear_pool(
    image: np.ndarray, boxes: np.ndarray, scale: np.float32, pooled_h: int, pooled_w: int
) -> np.ndarray:
    """Each bin's bilinear value at its point, each lerp a fused multiply-add as the plugin's
    JIT kernel computes it (``(right - left) * dx + left`` rounded once); a point outside the
    map is 0."""
    height, width = image.shape[1:]
    ys = _bilinear_points(boxes[:, 1], boxes[:, 3], pooled_h, height)
    xs = _bilinear_points(boxes[:, 0], boxes[:, 2], pooled_w, width)
    valid_y, valid_x = (ys >= 0) & (ys <= height - 1), (xs >= 0) & (xs <= width - 1)
    ys, xs = np.where(valid_y, ys, F32(0)), np.where(valid_x, xs, F32(0))
    top, left = np.floor(ys).astype(np.int64), np.floor(xs).astype(np.int64)
    bottom = np.minimum(np.ceil(ys).astype(np.int64), height - 1)
    right = np.minimum(np.ceil(xs).astype(np.int64), width - 1)
    channel = np.arange(image.shape[0])[None, :, None, None]

    def at(rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        picked: np.ndarray = image[channel, rows[:, None, :, None], columns[:, None, None, :]]
        return picked

    dx = (xs - left.astype(F32))[:, None, None, :]
    dy = (ys - top.astype(F32))[:, None, :, None]
    with np.errstate(invalid="ignore", over="ignore"):
        upper = _fused_lerp(at(top, left), at(top, right), dx)
        lower = _fused_lerp(at(bottom, left), at(bottom, right), dx)
        value = _fused_lerp(upper, lower, dy)
    pooled: np.ndarray = np.where((valid_y[:, :, None] & valid_x[:, None, :])[:, None], value, F32(0))
    return pooled


def _fused_lerp(start: np.ndarray, end: np.ndarray, fraction: np.ndarray) -> np.ndarray:
    """``(end - start) * fraction + start`` with the difference in float32 and the rest one
    fused multiply-add (exact in float64, rounded once to float32)."""
    difference = (end - start).astype(F32).astype(np.float64)
    fused: np.ndarray = (difference * fraction.astype(np.float64) + start.astype(np.float64)).astype(F32)
    return fused


# --- RegionYolo-1 and ReorgYolo-2 ---------------------------------------------------------------


def _sigmoid(values: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        logistic: np.ndarray = (F32(1) / (F32(1) + np.exp(-values))).astype(F32)
    return logistic


def region_yolo(call: KernelCall) -> np.ndarray:
    """RegionYolo-1: per box (``num`` of them with ``do_softmax``, else one per mask entry) the
    sigmoid of x, y and the objectness, then the softmax of the class scores (``do_softmax``) or
        their sigmoids; the other numbers (w, h, further coordinates) pass unchanged. The softmax
    is the reference's (the largest score subtracted first). The CPU plugin's overflows
    sooner: by experiment a column with a score of 56.9 gives NaN there and 0 elsewhere (no
    rule irshape could state; such logits are outside what YOLO heads give, and outside the
    tests)."""
    data = call.inputs[0].astype(F32)
    batches, channels, height, width = data.shape
    coords, classes = int(call.attribute("coords")), int(call.attribute("classes"))
    softmax = bool(call.attribute("do_softmax"))
    boxes = int(call.attribute("num")) if softmax else len(call.int_list("mask"))
    per_box = coords + classes + 1
    if boxes * per_box != channels or coords < 2:
        raise KernelError(
            f"the input has {channels} channels, not {boxes} boxes of {per_box} numbers (with at least "
            "x and y): OpenVINO reads it at other offsets"
        )
    out = data.reshape(batches, boxes, per_box, height * width).copy()
    out[:, :, :2] = _sigmoid(out[:, :, :2])
    if softmax:
        out[:, :, coords] = _sigmoid(out[:, :, coords])
        scores = out[:, :, coords + 1 :]
        exps = np.exp(scores - scores.max(axis=2, keepdims=True))
        out[:, :, coords + 1 :] = exps / exps.sum(axis=2, keepdims=True)
    else:
        out[:, :, coords:] = _sigmoid(out[:, :, coords:])
    return out.reshape(call.output_shape(0)).astype(call.output_dtype(0))


def reorg_yolo(call: KernelCall) -> np.ndarray:
    """ReorgYolo-2 as OpenVINO computes it: the input read as ``[N, C / s^2, H * s, W * s]``,
    each ``s x s`` block's cells to channels (``[N, C, H, W]``), and that laid out in the output
    shape (the same elements in order). The plugin's node moves float32 only: integers of 32
    bits go through float32 and back (its Reorders: rounded to nearest, saturated to
    ``[-2^31, 2147483520]``; 2147483646 comes out 2147483520). Found by the kernel fuzzer."""
    data = call.inputs[0]
    batches, channels, height, width = data.shape
    stride = call.int_list("stride")[0]
    if stride <= 0 or channels % (stride * stride):
        raise KernelError(f"{channels} channels are not a multiple of stride^2 = {stride * stride}")
    groups = channels // (stride * stride)
    blocks = data.reshape(batches, groups, height, stride, width, stride)
    reorganised = blocks.transpose(0, 3, 5, 1, 2, 4).reshape(call.output_shape(0))
    if reorganised.dtype.kind in "iu" and reorganised.dtype.itemsize >= 4:
        reorganised = _through_f32(reorganised)
    return reorganised.astype(call.output_dtype(0))


def _through_f32(integers: np.ndarray) -> np.ndarray:
    """32-bit integers (wider ones held as i32) through the plugin's float32 Reorders, back in
    their own dtype (wrapped as the i32 is)."""
    as_i32 = integers.astype(np.int64).astype(np.int32)
    converted: np.ndarray = reordered_i32(as_i32.astype(F32)).astype(integers.dtype)
    return converted


# --- PSROIPooling-1 ---------------------------------------------------------------------------


def psroi_pooling(call: KernelCall) -> np.ndarray:
    """PSROIPooling-1: bin ``(c, i, j)`` of each box pools its own input channel: ``average``
    the mean of the bin's cells of channel ``(c * group + i) * group + j`` (sums from a
    summed-area table; an empty bin is 0), ``bilinear`` the mean over the spatial bins
    ``(y, x)`` of channel ``(y * bins_x + x) * output_dim + c`` sampled bilinearly at the bin's
    point (boxes as fractions of the map). A batch id of -1 (truncated) ends the boxes, as the
    plugin reads it: that box and every later one are 0."""
    data = call.inputs[0].astype(F32)
    rois = call.inputs[1].astype(F32)
    images, pooled_boxes = _batch_ids_to_first_minus_one(rois[:, 0], data.shape[0])
    scale = F32(call.attribute("spatial_scale"))
    shape = call.output_shape(0)
    out = np.zeros(shape, F32)
    computed = (pooled_boxes, *shape[1:])
    boxes = rois[:pooled_boxes, 1:]
    if str(call.attribute("mode")) == "average":
        out[:pooled_boxes] = _position_sensitive_average(data, images, boxes, scale, computed)
    else:
        bins = int(call.attribute("spatial_bins_y")), int(call.attribute("spatial_bins_x"))
        out[:pooled_boxes] = _position_sensitive_bilinear(data, images, boxes, scale, computed, bins)
    return _stored_odd_rounding_bf16(out, call)


def _batch_ids_to_first_minus_one(ids: np.ndarray, batches: int) -> tuple[np.ndarray, int]:
    """The batch ids (``static_cast<int>``: truncated) of the boxes before the first of -1,
    which ends the boxes the plugin's (Deformable)PSROIPooling and ROIPooling pool (the rest
    are 0), and their count; another id outside ``[0, N)`` it reads out of bounds: refused."""
    images = np.trunc(ids).astype(np.int64)
    stops = np.flatnonzero(images == -1)
    count = int(stops[0]) if stops.size else len(images)
    images = images[:count]
    if ((images < 0) | (images >= batches)).any():
        raise KernelError(f"a box's batch id is outside [0, {batches}) (and not -1, which ends the boxes)")
    return images, count


def _position_sensitive_average(
    data: np.ndarray, images: np.ndarray, boxes: np.ndarray, scale: np.float32, shape: tuple[int, ...]
) -> np.ndarray:
    boxes_count, channels_out, pooled_h, pooled_w = shape
    _, _, height, width = data.shape
    start_w, start_h = _round_half_away(boxes[:, 0]) * scale, _round_half_away(boxes[:, 1]) * scale
    # the far corner: round(x + 1), as the plugin (not round(x) + 1: -0.5 gives 1)
    end_w = _round_half_away((boxes[:, 2] + F32(1)).astype(F32)) * scale
    end_h = _round_half_away((boxes[:, 3] + F32(1)).astype(F32)) * scale
    top, bottom = _average_bins(start_h.astype(F32), end_h.astype(F32), pooled_h, height)
    left, right = _average_bins(start_w.astype(F32), end_w.astype(F32), pooled_w, width)
    channel = np.arange(channels_out * pooled_h * pooled_w).reshape(1, channels_out, pooled_h, pooled_w)
    box = images[:, None, None, None]
    heights, widths = bottom - top, right - left  # [boxes, pooled]
    # the plugin's sum: the bin's cells added in turn, row by row, in float32 (a summed-area
    # table loses a bin's sum beside a value of 3e38 and carries infinities into later bins)
    total = np.zeros((boxes_count, channels_out, pooled_h, pooled_w), F32)
    with np.errstate(invalid="ignore", over="ignore"):
        for row in range(max(int(heights.max(initial=0)), 0)):
            rows = np.minimum(top + row, height - 1)[:, None, :, None]
            row_inside = (row < heights)[:, None, :, None]
            for column in range(max(int(widths.max(initial=0)), 0)):
                columns = np.minimum(left + column, width - 1)[:, None, None, :]
                inside = row_inside & (column < widths)[:, None, None, :]
                total = np.where(inside, total + data[box, channel, rows, columns], total).astype(F32)
        cells = (heights[:, None, :, None] * widths[:, None, None, :]).astype(F32)
        averaged: np.ndarray = np.where(cells > 0, total / np.maximum(cells, F32(1)), F32(0)).astype(F32)
    return averaged


def _average_bins(start: np.ndarray, end: np.ndarray, bins: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``[boxes, bins]`` first and past-the-last cells: ``floor`` of the bin's start and
    ``ceil`` of its end, each within ``[0, size]``, the box at least 0.1 a side."""
    length = np.maximum((end - start).astype(F32), F32(0.1))
    bin_size = (length / F32(bins)).astype(F32)
    steps = np.arange(bins + 1, dtype=F32)
    edges = (steps[None, :] * bin_size[:, None] + start[:, None]).astype(F32)
    low = np.clip(np.floor(edges[:, :-1]), 0, size).astype(np.int64)
    high = np.clip(np.ceil(edges[:, 1:]), 0, size).astype(np.int64)
    return low, np.maximum(high, low)


def _position_sensitive_bilinear(
    data: np.ndarray,
    images: np.ndarray,
    boxes: np.ndarray,
    scale: np.float32,
    shape: tuple[int, ...],
    bins: tuple[int, int],
) -> np.ndarray:
    _, channels_out, pooled_h, pooled_w = shape
    _, _, height, width = data.shape
    start = (boxes[:, :2] * scale).astype(F32)  # x, y
    size = ((boxes[:, 2:] * scale).astype(F32) - start).astype(F32)
    ys, valid_y = _bin_points(start[:, 1], size[:, 1], bins[0], pooled_h, height)  # [boxes, bins, pooled]
    xs, valid_x = _bin_points(start[:, 0], size[:, 0], bins[1], pooled_w, width)
    top, left = np.floor(ys).astype(np.int64), np.floor(xs).astype(np.int64)
    bottom = np.minimum(np.ceil(ys).astype(np.int64), height - 1)
    right = np.minimum(np.ceil(xs).astype(np.int64), width - 1)
    # [boxes, C_out, bin_y, bin_x, pooled_h, pooled_w]
    channel = (np.arange(bins[0])[:, None] * bins[1] + np.arange(bins[1])[None, :])[
        None, None, :, :, None, None
    ] * channels_out + np.arange(channels_out)[None, :, None, None, None, None]
    box = images[:, None, None, None, None, None]

    def at(rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        picked: np.ndarray = data[
            box, channel, rows[:, None, :, None, :, None], columns[:, None, None, :, None, :]
        ]
        return picked

    dx = (xs - left.astype(F32))[:, None, None, :, None, :]
    dy = (ys - top.astype(F32))[:, None, :, None, :, None]
    upper = at(top, left) + (at(top, right) - at(top, left)) * dx
    lower = at(bottom, left) + (at(bottom, right) - at(bottom, left)) * dx
    value = (upper + (lower - upper) * dy).astype(F32)
    valid = valid_y[:, None, :, None, :, None] & valid_x[:, None, None, :, None, :]
    summed = np.where(valid, value, F32(0)).sum(axis=(2, 3), dtype=F32)
    pooled: np.ndarray = (summed / F32(bins[0] * bins[1])).astype(F32)
    return pooled


def _bin_points(
    start: np.ndarray, size: np.ndarray, bins: int, pooled: int, extent: int
) -> tuple[np.ndarray, np.ndarray]:
    """``[boxes, bins, pooled]`` sampling points along one axis, in the plugin's arithmetic
    (each spatial bin from ``start + b * (size / bins)`` to ``start + (b + 1) * (size / bins)``),
    and whether each is inside ``[0, extent - 1]`` (a point outside adds nothing)."""
    bin_size = (size / F32(bins)).astype(F32)
    index = np.arange(bins + 1, dtype=F32)
    edges = (start[:, None] + (index[None, :] * bin_size[:, None]).astype(F32)).astype(F32)
    low, high = edges[:, :-1], edges[:, 1:]
    span = F32(extent - 1)
    if pooled > 1:
        step = ((high - low).astype(F32) * span / F32(pooled - 1)).astype(F32)
        cell = np.arange(pooled, dtype=F32)
        points = (cell[None, None, :] * step[:, :, None]).astype(F32) + (low * span).astype(F32)[:, :, None]
    else:
        points = (F32(0.5) * (low + high).astype(F32) * span).astype(F32)[:, :, None]
    points = points.astype(F32)
    valid = (points >= 0) & (points <= span)
    return np.where(valid, points, F32(0)), valid


# --- ROIAlignRotated-15 -------------------------------------------------------------------------


def roi_align_rotated(call: KernelCall) -> np.ndarray:
    """ROIAlignRotated-15: boxes ``(centre x, centre y, width, height, angle)``; each bin's
    samples are laid out in the box's frame, rotated by the angle (clockwise with
    ``clockwise_mode``) about the centre (scaled, minus 0.5), then interpolated and averaged as
    ROIAlign's (no least size of 1)."""
    data = call.inputs[0].astype(F32)
    channels = data.shape[1]
    pooled_h, pooled_w = int(call.attribute("pooled_h")), int(call.attribute("pooled_w"))
    ratio = int(call.attribute("sampling_ratio"))
    rois = call.inputs[1].astype(F32)
    scale = F32(call.attribute("spatial_scale"))
    indices = _batch_indices(call, data.shape[0])
    center_x, center_y = rois[:, 0] * scale - F32(0.5), rois[:, 1] * scale - F32(0.5)
    box_w, box_h = (rois[:, 2] * scale).astype(F32), (rois[:, 3] * scale).astype(F32)
    angle = -rois[:, 4] if call.attribute("clockwise_mode") else rois[:, 4]
    # (cosf and sinf, correctly rounded: numpy's float32 ones are not always)
    cos, sin = np.cos(angle.astype(np.float64)).astype(F32), np.sin(angle.astype(np.float64)).astype(F32)
    # the samples in the box's frame, from its corner (-w/2, -h/2): [boxes, bins, samples]
    ys = _frame_samples(-box_h / F32(2), box_h, pooled_h, ratio)
    xs = _frame_samples(-box_w / F32(2), box_w, pooled_w, ratio)
    local_y = ys.points[:, :, :, None, None]
    local_x = xs.points[:, None, None, :, :]
    rotated_y = local_y * cos[:, None, None, None, None] - local_x * sin[:, None, None, None, None]
    rotated_x = local_y * sin[:, None, None, None, None] + local_x * cos[:, None, None, None, None]
    sample_y = (rotated_y + center_y[:, None, None, None, None]).astype(F32)
    sample_x = (rotated_x + center_x[:, None, None, None, None]).astype(F32)
    exists = ys.exists[:, :, :, None, None] & xs.exists[:, None, None, :, :]
    values = _bilinear_samples(data, indices, sample_y, sample_x, exists)  # [boxes, C, bh, sh, bw, sw]
    # OpenVINO's reference, which the plugin runs: each sample over the count added in turn, from
    # 0 (a box without samples is 0)
    samples = np.maximum(ys.counts * xs.counts, 1).astype(F32)[:, None, None, None, None, None]
    with np.errstate(invalid="ignore", over="ignore"):
        shares = (values / samples).astype(F32).transpose(0, 1, 2, 4, 3, 5)
        shares = shares.reshape(*shares.shape[:4], shares.shape[4] * shares.shape[5])
        pooled = np.zeros(shares.shape[:4], F32)
        for sample in range(shares.shape[-1]):  # (a sample that does not exist adds 0)
            pooled = (pooled + shares[..., sample]).astype(F32)
    result: np.ndarray = pooled.reshape(len(indices), channels, pooled_h, pooled_w)
    return result.astype(call.output_dtype(0))


class _FrameSamples:
    """One axis of every box's samples in its own frame: ``[boxes, bins, samples]`` points,
    which samples exist, and the count per box."""

    def __init__(self, points: np.ndarray, exists: np.ndarray, counts: np.ndarray) -> None:
        self.points, self.exists, self.counts = points, exists, counts


def _frame_samples(start: np.ndarray, length: np.ndarray, bins: int, ratio: int) -> _FrameSamples:
    bin_size = (length / F32(bins)).astype(F32)
    counts = np.ceil(bin_size).astype(np.int64) if ratio == 0 else np.full(len(start), ratio, np.int64)
    if (counts < 0).any():
        raise UnsupportedByOpenVINOError(
            "a box's bins are of negative size: OpenVINO's sampling ratio is negative"
        )
    most = int(counts.max()) if counts.size else 0
    distance = (bin_size / np.maximum(counts, 1).astype(F32)).astype(F32)
    sample = np.arange(most, dtype=F32) + F32(0.5)
    points = (
        start[:, None, None]
        + np.arange(bins, dtype=F32)[None, :, None] * bin_size[:, None, None]
        + distance[:, None, None] * sample[None, None, :]
    ).astype(F32)
    exists = np.arange(most)[None, None, :] < counts[:, None, None]
    return _FrameSamples(points, np.broadcast_to(exists, points.shape), counts)


def _bilinear_samples(
    data: np.ndarray, indices: np.ndarray, ys: np.ndarray, xs: np.ndarray, exists: np.ndarray
) -> np.ndarray:
    """``[boxes, C, *sample dims]``: each sample's bilinear value as ROIAlign takes it (a
    sample outside ``[-1, size]`` on either axis reads cell (0, 0) four times at weight 0, as
    the reference does: an infinity there is NaN; others clamped to ``>= 0``, the last row or
    column past ``size - 1``); 0 for samples that do not exist."""
    _, _, height, width = data.shape
    valid = exists & ~((ys < -1) | (ys > F32(height)) | (xs < -1) | (xs > F32(width)))
    corners = []
    for coordinate, size in ((ys, height), (xs, width)):
        clamped = np.maximum(np.where(valid, coordinate, F32(0)), F32(0))
        low = clamped.astype(np.int64)
        last = low >= size - 1
        low = np.where(last, size - 1, low)
        clamped = np.where(last, low.astype(F32), clamped)
        weight = np.where(valid, clamped - low.astype(F32), F32(0)).astype(F32)
        high = np.where(last | ~valid, low, low + 1)
        corners.append((low, high, weight))
    (top, bottom, wy), (left, right, wx) = corners
    box = indices.reshape(-1, *([1] * (ys.ndim - 1)))[:, None]
    channel = np.arange(data.shape[1]).reshape(1, -1, *([1] * (ys.ndim - 1)))

    def at(rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        picked: np.ndarray = data[box, channel, rows[:, None], columns[:, None]]
        return picked

    inside = valid[:, None]
    hy, hx = np.where(inside, F32(1) - wy[:, None], F32(0)), np.where(inside, F32(1) - wx[:, None], F32(0))
    ly, lx = wy[:, None], wx[:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        value = (
            (hy * hx).astype(F32) * at(top, left)
            + (hy * lx).astype(F32) * at(top, right)
            + (ly * hx).astype(F32) * at(bottom, left)
            + (ly * lx).astype(F32) * at(bottom, right)
        )
    sampled: np.ndarray = np.where(exists[:, None], value, F32(0)).astype(F32)
    return sampled


# --- ExperimentalDetectronTopKROIs-6 --------------------------------------------------------------


def top_k_rois(call: KernelCall) -> np.ndarray:
    """ExperimentalDetectronTopKROIs-6: the boxes of the ``max_rois`` highest probabilities,
    highest first (ties: the earlier box first)."""
    rois, probs = call.inputs
    count = call.output_shape(0)[0]
    if count > len(probs):
        raise UnsupportedByOpenVINOError(
            f"max_rois {count} is more than the {len(probs)} boxes: the plugin leaves the rest unset"
        )
    order = np.argsort(-probs.astype(np.float64), kind="stable")[:count]
    picked: np.ndarray = rois[order]
    return picked.astype(call.output_dtype(0))


# --- ExperimentalDetectronROIFeatureExtractor-6 ---------------------------------------------------


def _pyramid_levels(rois: np.ndarray, levels: int) -> np.ndarray:
    """Each box's level: ``floor(2 + log2(sqrt(area) / 224 + 1e-6))`` within the levels; a box
    of no area gets ``levels``, which no level computes (its features stay 0)."""
    area = ((rois[:, 2] - rois[:, 0]) * (rois[:, 3] - rois[:, 1])).astype(F32)
    with np.errstate(invalid="ignore", divide="ignore"):
        scaled = np.log2((np.sqrt(np.maximum(area, F32(0))) / F32(224)).astype(F32) + F32(1e-6))
        level = np.clip(np.floor(scaled.astype(F32) + F32(2)), 0, levels - 1)
    return np.where(area > 0, level, levels).astype(np.int64)


def roi_feature_extractor(call: KernelCall) -> tuple[np.ndarray, np.ndarray]:
    """ExperimentalDetectronROIFeatureExtractor-6: each box pooled as ROIAlign (average, its
    size at least 1, ``aligned``: shifted by -0.5) on its pyramid level, at the scale
    ``1 / pyramid_scales[level]``, in the plugin's arithmetic (``_detectron_align``); the
    boxes pass through as the second output."""
    rois = call.inputs[0].astype(F32)
    maps = [level.astype(F32) for level in call.inputs[1:]]
    size, ratio = int(call.attribute("output_size")), int(call.attribute("sampling_ratio"))
    scales = call.int_list("pyramid_scales")
    if len(scales) < len(maps):
        raise KernelError(f"{len(maps)} pyramid levels but {len(scales)} pyramid_scales")
    shift = F32(0.5) if call.attribute("aligned") else F32(0)
    features = np.zeros(call.output_shape(0), F32)
    levels = _pyramid_levels(rois, len(maps))
    for index, image in enumerate(maps):
        boxes = np.flatnonzero(levels == index)
        if boxes.size == 0:
            continue
        corners = (rois[boxes] * F32(F32(1) / F32(scales[index])) - shift).astype(F32)
        width = np.maximum(corners[:, 2] - corners[:, 0], F32(1)).astype(F32)
        height = np.maximum(corners[:, 3] - corners[:, 1], F32(1)).astype(F32)
        features[boxes] = _detectron_align(image[0], corners[:, :2], (width, height), size, ratio)
    return features.astype(call.output_dtype(0)), rois.astype(call.output_dtype(1))


def _detectron_align(
    image: np.ndarray, starts: np.ndarray, sizes: tuple[np.ndarray, np.ndarray], pooled: int, ratio: int
) -> np.ndarray:
    """``[boxes, C, pooled, pooled]``: the Detectron ROIAlign the plugin's node runs (Caffe2's),
    bit for bit: each bin's ``grid x grid`` samples at ``start + bin * size + (i + 0.5) * size /
    grid``, each the four cells times their weights (outside ``[-1, size]``: cell (0, 0) at
    weight 0), added in turn, then over the sample count. One sample position at a time, all
    boxes and bins at once."""
    _, height, width = image.shape
    axes = []
    for start, length, extent in ((starts[:, 1], sizes[1], height), (starts[:, 0], sizes[0], width)):
        bin_size = (length / F32(pooled)).astype(F32)
        grid = np.full(len(start), ratio) if ratio > 0 else np.ceil(bin_size).astype(np.int64)
        bin_start = (start[:, None] + (np.arange(pooled, dtype=F32)[None, :] * bin_size[:, None])).astype(F32)
        axes.append((bin_start, bin_size, grid, extent))
    (y_start, y_bin, y_grid, _), (x_start, x_bin, x_grid, _) = axes
    total = np.zeros((len(starts), image.shape[0], pooled, pooled), F32)
    with np.errstate(invalid="ignore", over="ignore"):
        for iy in range(int(y_grid.max(initial=0))):
            for ix in range(int(x_grid.max(initial=0))):
                rows = _detectron_taps(y_start, y_bin, y_grid, iy, height)  # each [boxes, pooled]
                columns = _detectron_taps(x_start, x_bin, x_grid, ix, width)
                total = np.where(
                    ((iy < y_grid) & (ix < x_grid))[:, None, None, None],
                    total + _detectron_sample(image, rows, columns),
                    total,
                ).astype(F32)
        count = (y_grid * x_grid).astype(F32)[:, None, None, None]
        averaged: np.ndarray = (total / count).astype(F32)
    return averaged


def _detectron_taps(
    bin_start: np.ndarray, bin_size: np.ndarray, grid: np.ndarray, sample: int, extent: int
) -> tuple[np.ndarray, ...]:
    """One sample position along one axis: the low and high cells, the low and high weights
    (``[boxes, pooled]``), and where the position is inside ``[-1, extent]``."""
    offset = (F32(sample + 0.5) * bin_size / np.maximum(grid, 1).astype(F32)).astype(F32)
    position = (bin_start + offset[:, None]).astype(F32)
    inside = (position >= -1) & (position <= F32(extent))
    position = np.maximum(position, F32(0))
    low = position.astype(np.int64)
    last = low >= extent - 1
    low = np.where(last, extent - 1, low)
    position = np.where(last, low.astype(F32), position)
    upper = (position - low.astype(F32)).astype(F32)
    return low, np.where(last, low, low + 1), (F32(1) - upper).astype(F32), upper, inside


def _detectron_sample(
    image: np.ndarray, rows: tuple[np.ndarray, ...], columns: tuple[np.ndarray, ...]
) -> np.ndarray:
    """``[boxes, C, pooled, pooled]``: each bin's value at one sample position."""
    top, bottom, high_y, low_y, inside_y = rows
    left, right, high_x, low_x, inside_x = columns
    inside = inside_y[:, :, None] & inside_x[:, None, :]
    value: np.ndarray | None = None
    for y_index, y_weight in ((top, high_y), (bottom, low_y)):
        for x_index, x_weight in ((left, high_x), (right, low_x)):
            weight = np.where(inside, y_weight[:, :, None] * x_weight[:, None, :], F32(0)).astype(F32)
            picked = image[
                :, np.where(inside, y_index[:, :, None], 0), np.where(inside, x_index[:, None, :], 0)
            ]
            term = (weight[:, None] * picked.transpose(1, 0, 2, 3)).astype(F32)
            value = term if value is None else (value + term).astype(F32)
    assert value is not None
    return value


# --- DeformablePSROIPooling-1 ---------------------------------------------------------------------


def deformable_psroi_pooling(call: KernelCall) -> np.ndarray:
    """DeformablePSROIPooling-1 (the reference ``deformable_psroi_pooling.hpp``): box corners
    rounded, ``* spatial_scale - 0.5`` (the far one after +1), sizes at least 0.1; bin
    ``(c, i, j)`` reads input channel ``(c * group + i) * group + j``, its corner moved by the
    offsets (``trans_std`` times the box size; the part cell ``i * part_size / group``, the
    offset channel pair of ``c``'s class group) and averages the bilinear values of its
    ``bins_y x bins_x`` sub-bin corners inside ``[-0.5, size - 0.5]`` (clamped into the map);
    none inside: 0; a batch id of -1 (truncated) ends the boxes: that box and the later ones
    are 0 (the plugin's node; another negative id it reads out of bounds: refused)."""
    data = call.inputs[0].astype(F32)
    rois = call.inputs[1].astype(F32)
    _, _, height, width = data.shape
    boxes, channels_out, group_h, group_w = call.output_shape(0)
    kept_images, pooled_boxes = _batch_ids_to_first_minus_one(rois[:, 0], data.shape[0])
    scale = F32(call.attribute("spatial_scale"))
    rounded = np.floor(np.abs(rois[:, 1:]) + F32(0.5)) * np.sign(rois[:, 1:])  # std::round
    x1 = (rounded[:, 0] * scale - F32(0.5)).astype(F32)
    y1 = (rounded[:, 1] * scale - F32(0.5)).astype(F32)
    box_w = np.maximum(((rounded[:, 2] + F32(1)) * scale - F32(0.5)).astype(F32) - x1, F32(0.1)).astype(F32)
    box_h = np.maximum(((rounded[:, 3] + F32(1)) * scale - F32(0.5)).astype(F32) - y1, F32(0.1)).astype(F32)
    bin_w, bin_h = (box_w / F32(group_w)).astype(F32), (box_h / F32(group_h)).astype(F32)
    # each bin's corner: [boxes, C_out, group_h, group_w]
    corner_x = np.broadcast_to(
        (x1[:, None] + np.arange(group_w, dtype=F32)[None, :] * bin_w[:, None])[:, None, None, :],
        (boxes, channels_out, group_h, group_w),
    ).astype(F32)
    corner_y = np.broadcast_to(
        (y1[:, None] + np.arange(group_h, dtype=F32)[None, :] * bin_h[:, None])[:, None, :, None],
        (boxes, channels_out, group_h, group_w),
    ).astype(F32)
    if len(call.inputs) > 2 and call.inputs[2].ndim == 4:
        shift_x, shift_y = _deformable_offsets(
            call, call.inputs[2].astype(F32), (channels_out, group_h, group_w)
        )
        corner_x = (corner_x + shift_x * box_w[:, None, None, None]).astype(F32)
        corner_y = (corner_y + shift_y * box_h[:, None, None, None]).astype(F32)
    bins_x, bins_y = int(call.attribute("spatial_bins_x")), int(call.attribute("spatial_bins_y"))
    xs = corner_x[..., None] + np.arange(bins_x, dtype=F32) * (bin_w / F32(bins_x))[:, None, None, None, None]
    ys = corner_y[..., None] + np.arange(bins_y, dtype=F32) * (bin_h / F32(bins_y))[:, None, None, None, None]
    xs, ys = xs.astype(F32), ys.astype(F32)
    valid_x = (xs >= -0.5) & (xs <= F32(width - 0.5))
    valid_y = (ys >= -0.5) & (ys <= F32(height - 0.5))
    xs, ys = np.clip(xs, 0, width - 1).astype(F32), np.clip(ys, 0, height - 1).astype(F32)
    left, top = np.floor(xs).astype(np.int64), np.floor(ys).astype(np.int64)
    right, bottom = np.ceil(xs).astype(np.int64), np.ceil(ys).astype(np.int64)
    images = np.zeros(len(rois), np.int64)
    images[:pooled_boxes] = kept_images
    channel = np.arange(channels_out * group_h * group_w).reshape(1, channels_out, group_h, group_w, 1, 1)
    image = images[:, None, None, None, None, None]

    def at(rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        picked: np.ndarray = data[image, channel, rows[..., :, None], columns[..., None, :]]
        return picked

    dx = (xs - left.astype(F32))[..., None, :]
    dy = (ys - top.astype(F32))[..., :, None]
    # the plugin's bilinearInterp: the four weights times their cells (not two lerps: an
    # infinite cell is an infinity there, where a lerp's inf - inf is NaN)
    with np.errstate(invalid="ignore", over="ignore"):
        value = (
            ((F32(1) - dx) * (F32(1) - dy)).astype(F32) * at(top, left)
            + ((F32(1) - dx) * dy).astype(F32) * at(bottom, left)
            + (dx * (F32(1) - dy)).astype(F32) * at(top, right)
            + (dx * dy).astype(F32) * at(bottom, right)
        ).astype(F32)  # [boxes, C_out, gh, gw, bins_y, bins_x]
    inside = valid_y[..., :, None] & valid_x[..., None, :]
    # the sub-bins added in turn, row by row (the plugin's order, in float32)
    total = np.zeros(value.shape[:4], F32)
    with np.errstate(invalid="ignore", over="ignore"):
        for row in range(value.shape[4]):
            for column in range(value.shape[5]):
                total = np.where(inside[..., row, column], total + value[..., row, column], total).astype(F32)
    count = inside.sum(axis=(4, 5))
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = np.where(count > 0, total / np.maximum(count, 1).astype(F32), F32(0))
    pooled[pooled_boxes:] = 0
    return _stored_odd_rounding_bf16(pooled, call)


def _deformable_offsets(
    call: KernelCall, offsets: np.ndarray, bins: tuple[int, int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """``[boxes, C_out, group_h, group_w]`` x and y shifts (times ``trans_std``)."""
    channels_out, group_h, group_w = bins
    part = int(call.attribute("part_size"))
    pairs = offsets.shape[1] // 2
    class_channels = channels_out // pairs
    pair = np.arange(channels_out) // class_channels
    cell_h = np.arange(group_h) * part // group_h
    cell_w = np.arange(group_w) * part // group_w
    flat = offsets.reshape(offsets.shape[0], -1)
    index_x = ((pair * 2)[:, None, None] * part + cell_h[None, :, None]) * part + cell_w[None, None, :]
    index_y = ((pair * 2 + 1)[:, None, None] * part + cell_h[None, :, None]) * part + cell_w[None, None, :]
    trans = F32(call.attribute("trans_std"))
    return (flat[:, index_x] * trans).astype(F32), (flat[:, index_y] * trans).astype(F32)
