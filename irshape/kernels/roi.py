"""Kernels of region-of-interest pooling: ROIAlign-3/9.

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
* ``avg`` averages a bin's samples; ``max`` takes the largest, starting from 0 (a bin of
  negative samples is 0). A box without samples (``sampling_ratio`` 0 and a bin size in
  (-1, 0], a reversed box of an aligned mode) averages to NaN in the plugin (the reference
  says 0: the plugin is followed); a bin size of -1 or less makes the plugin fail ('cannot
  create std::vector larger than max_size()'): the kernel refuses it.

The bilinear weights and the validity of a sample are products of a y and an x factor, so the
average is ``Ay @ data @ Ax^T`` with per-box interpolation matrices (no per-sample gathers).
"""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError

F32 = np.float32


class _Axis:
    """One axis of every box's samples: ``[boxes, bins, samples]`` arrays of the lower and
    upper source row (or column), their weights (0 for an invalid sample), and which samples
    exist (a box with a smaller sampling ratio than the largest has fewer)."""

    def __init__(self, start: np.ndarray, length: np.ndarray, bins: int, ratio: int, size: int) -> None:
        bin_size = (length / F32(bins)).astype(F32)
        counts = np.ceil(bin_size).astype(np.int64) if ratio == 0 else np.full(len(start), ratio, np.int64)
        if (counts < 0).any():
            raise UnsupportedByOpenVINOError(
                "a box's bins are of size -1 or less: the CPU plugin fails on its negative sampling ratio"
            )
        self.counts = counts
        most = int(counts.max()) if counts.size else 0
        distance = (bin_size / np.maximum(counts, 1).astype(F32)).astype(F32)
        sample = np.arange(most, dtype=F32) + F32(0.5)
        position = (
            start[:, None, None]
            + (np.arange(bins, dtype=F32)[None, :, None] * bin_size[:, None, None])
            + distance[:, None, None] * sample[None, None, :]
        ).astype(F32)
        self.exists = np.arange(most)[None, None, :] < counts[:, None, None]
        valid = ~((position < -1) | (position > F32(size))) & self.exists
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
    return out.astype(call.output_dtype(0))


def _average(image: np.ndarray, ys: _Axis, xs: _Axis, boxes: np.ndarray) -> np.ndarray:
    rows = ys.matrix(image.shape[1])[boxes]
    columns = xs.matrix(image.shape[2])[boxes]
    pooled: np.ndarray = np.einsum("rph,chw,rqw->rcpq", rows, image, columns, optimize=True)
    samples = (ys.counts[boxes] * xs.counts[boxes]).astype(F32)[:, None, None, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        averaged: np.ndarray = pooled / samples  # no sample (a box of width in (-1, 0]): the plugin's 0 / 0
    return averaged


def _maximum(image: np.ndarray, ys: _Axis, xs: _Axis, boxes: np.ndarray) -> np.ndarray:
    """Every sample's bilinear value ``[boxes, C, bin_y, sample_y, bin_x, sample_x]``, then the
    largest of each bin's, and 0."""
    value: np.ndarray | None = None
    for y_index, y_weight in ((ys.low, ys.low_weight), (ys.high, ys.high_weight)):
        for x_index, x_weight in ((xs.low, xs.low_weight), (xs.high, xs.high_weight)):
            rows = y_index[boxes][:, None, :, :, None, None]
            columns = x_index[boxes][:, None, None, None, :, :]
            picked = image[np.arange(image.shape[0])[None, :, None, None, None, None], rows, columns]
            weight = y_weight[boxes][:, None, :, :, None, None] * x_weight[boxes][:, None, None, None, :, :]
            term = (weight * picked).astype(F32)
            value = term if value is None else (value + term).astype(F32)
    assert value is not None
    exists = ys.exists[boxes][:, None, :, :, None, None] & xs.exists[boxes][:, None, None, None, :, :]
    largest: np.ndarray = np.where(exists, value, -np.inf).max(axis=(3, 5), initial=-np.inf)
    pooled: np.ndarray = np.maximum(largest, F32(0))
    return pooled
