"""Kernels of the prior-box generators: PriorBox-1/8, PriorBoxClustered-1 and
ExperimentalDetectronPriorGridGenerator-6 (documented at its function).

Semantics of OpenVINO's CPU plugin (``src/plugins/intel_cpu/src/nodes/priorbox.cpp``,
``priorbox_clustered.cpp``; the reference ``prior_box.hpp``, with which OpenVINO folds a layer
of constant sizes, is the same arithmetic but for a density grid's centre: see
``_density_grid``, found by the kernel fuzzer), confirmed
by ``tests/execution/test_priors.py``:

* the sizes are read as int32 (the plugin's input precision); every box coordinate is float32
  arithmetic in the plugin's order (a cell's centre, then the box's half sizes, then times
  ``1 / image size``);
* PriorBox: each cell's boxes in the plugin's order: per ``fixed_size`` its density grid of
  boxes (clipped to [0, 1] one by one), then per ``min_size`` the square box, the
  ``sqrt(min * max)`` box and the aspect-ratio boxes (PriorBox-8 with
  ``min_max_aspect_ratios_order=false``: the aspect-ratio boxes before the max one). The
  aspect ratios are 1 then each given ratio not within 1e-6 of one already taken (and its
  inverse with ``flip``), as the plugin lists them. ``clip`` clamps every coordinate to [0, 1]
  at the end; the second row holds the variances (one value everywhere, or four per box; none
  given: 0.1);
* where the attributes make the plugin write another number of boxes than the output holds
  (``PriorBox::number_of_priors`` counts them apart from the loop that writes them: a density
  without fixed sizes, more max sizes than min sizes...), the plugin writes out of bounds or
  leaves memory unset: the kernel refuses (``UnsupportedByOpenVINOError``), as it does where the
  plugin refuses the layer (an aspect ratio of 0, a negative variance, a variance of neither 1
  nor 4 values).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from irshape.kernels import KernelCall, UnsupportedByOpenVINOError

F32 = np.float32


class _Boxes:
    """One cell's boxes, in the order the plugin writes them: per box the centre's shift (three
    float32 terms added in turn, as the plugin adds them), its half width and height, and
    whether it is clipped to [0, 1] on its own."""

    def __init__(self) -> None:
        self.shifts: list[tuple[tuple[float, float, float], tuple[float, float, float]]] = []
        self.halves: list[tuple[float, float]] = []
        self.clipped: list[bool] = []

    def add(
        self,
        half_width: float,
        half_height: float,
        clipped: bool = False,
        shift_x: tuple[float, float, float] = (0.0, 0.0, 0.0),
        shift_y: tuple[float, float, float] = (0.0, 0.0, 0.0),
    ) -> None:
        self.shifts.append((shift_x, shift_y))
        self.halves.append((half_width, half_height))
        self.clipped.append(clipped)

    def __len__(self) -> int:
        return len(self.halves)


def _f32(value: float | np.floating[Any]) -> float:
    return float(F32(value))


def _aspect_ratios(ratios: tuple[float, ...], flip: bool) -> list[float]:
    """The plugin's list: 1, then each ratio not within 1e-6 of one taken, and its inverse."""
    taken = [1.0]
    for ratio in (_f32(r) for r in ratios):
        if abs(ratio) < np.finfo(F32).eps:
            raise UnsupportedByOpenVINOError(
                "PriorBox has an aspect_ratio of zero, which the CPU plugin refuses"
            )
        if any(abs(_f32(ratio - existing)) < 1e-6 for existing in taken):
            continue
        taken.append(ratio)
        if flip:
            taken.append(_f32(F32(1.0) / F32(ratio)))
    return taken


def _density_grid(
    boxes: _Boxes, fixed: float, density: float, half_width: float, half_height: float, folded: bool
) -> None:
    """A fixed size's ``density x density`` boxes around the centre, clipped one by one, from
    the centre less half the fixed size (truncated): halved as an integer where OpenVINO folds
    the layer (the reference's ``fixed_size_ / 2`` of a size_t: 63 gives 31), as a float where
    the plugin's node runs it (31.5; by experiment with OpenVINO 2026.4, found by the kernel
    fuzzer)."""
    count = math.trunc(density)
    if count <= 0:
        return
    shift = math.trunc(_f32(F32(fixed) / F32(count)))
    base = -float(math.trunc(fixed) // 2) if folded else -math.trunc(fixed) / 2.0
    for row in range(count):
        for column in range(count):
            boxes.add(
                half_width,
                half_height,
                True,
                (base, shift / 2.0, float(column * shift)),
                (base, shift / 2.0, float(row * shift)),
            )


def _fixed_size_boxes(call: KernelCall, ratios: list[float]) -> _Boxes:
    parsed = call.attributes
    # OpenVINO's reference computes a folded layer; the plugin's node the others (PriorBox-8
    # too, downgraded to PriorBox-1 where min_max_aspect_ratios_order is true; otherwise the
    # plugin refuses it: 'Unexpected op type in PriorBox shape inference factory')
    folded = {0, 1} <= call.constant_inputs
    fixed_sizes, fixed_ratios = parsed.float_list("fixed_size"), parsed.float_list("fixed_ratio")
    densities = parsed.float_list("density")
    boxes = _Boxes()
    if fixed_sizes and len(densities) < len(fixed_sizes):
        raise UnsupportedByOpenVINOError(
            "PriorBox has fewer densities than fixed sizes: the CPU plugin reads past its densities"
        )
    for index, fixed in enumerate(_f32(f) for f in fixed_sizes):
        density = densities[index]
        if fixed_ratios:
            for ratio in fixed_ratios:
                root = F32(np.sqrt(F32(ratio)))
                half = F32(fixed) * F32(0.5)
                _density_grid(boxes, fixed, density, float(half * root), float(half / root), folded)
            continue
        square = _f32(F32(math.trunc(fixed)) * F32(0.5))
        if densities:
            _density_grid(boxes, fixed, density, square, square, folded)
        for ratio in ratios:
            if abs(ratio - 1.0) < 1e-6:
                continue
            root = F32(np.sqrt(F32(ratio)))
            half = F32(fixed) * F32(0.5)
            _density_grid(boxes, fixed, density, float(half * root), float(half / root), folded)
    return boxes


def _size_boxes(call: KernelCall, boxes: _Boxes, ratios: list[float], min_sizes: list[float]) -> None:
    """Per min size: its square box, the sqrt(min * max) box and the aspect-ratio boxes."""
    max_sizes = call.attributes.float_list("max_size")
    scale_all = bool(call.attribute("scale_all_sizes"))
    max_first = "min_max_aspect_ratios_order" not in call.schema.attributes or bool(
        call.attribute("min_max_aspect_ratios_order")
    )
    for index, size in enumerate(min_sizes):
        half = _f32(F32(size) * F32(0.5))
        boxes.add(half, half)
        with_ratios = scale_all or index == len(min_sizes) - 1
        if max_first:
            _max_box(boxes, size, max_sizes, index)
        if with_ratios:
            base = F32(min_sizes[index if scale_all else 0]) * F32(0.5)
            for ratio in ratios:
                if abs(ratio - 1.0) < 1e-6:
                    continue
                root = F32(np.sqrt(F32(ratio)))
                boxes.add(float(base * root), float(base / root))
        if not max_first:
            _max_box(boxes, size, max_sizes, index)


def _max_box(boxes: _Boxes, size: float, max_sizes: tuple[float, ...], index: int) -> None:
    if index < len(max_sizes):
        half = _f32(F32(np.sqrt(F32(size) * F32(max_sizes[index]))) * F32(0.5))
        boxes.add(half, half)


def _variance_row(variances: tuple[float, ...], count: int) -> np.ndarray:
    """The second row: one variance everywhere, or four per box (none given: 0.1)."""
    if not variances:
        variances = (0.1,)
    if len(variances) not in (1, 4):
        # (PriorBoxClustered's node runs them: two or three it reads past, 1.4e-45 and 37308
        # coming out, others each run; of five its threads write the fifth over the next box's
        # first now and then)
        raise UnsupportedByOpenVINOError(
            f"the variance has {len(variances)} values: the CPU plugin takes 1 or 4"
        )
    return np.resize(np.asarray(variances, dtype=F32), count)


def _sizes(call: KernelCall) -> tuple[int, int, int, int]:
    """H, W of the feature map and of the image, read as int32 as the plugin reads them."""
    out_size = call.inputs[0].astype(np.int64).astype(np.int32)
    image = call.inputs[1].astype(np.int64).astype(np.int32)
    return int(out_size[0]), int(out_size[1]), int(image[0]), int(image[1])


def prior_box(call: KernelCall) -> np.ndarray:
    """PriorBox-1 and PriorBox-8."""
    height, width, image_height, image_width = _sizes(call)
    ratios = _aspect_ratios(call.attributes.float_list("aspect_ratio"), bool(call.attribute("flip")))
    step = F32(call.attribute("step"))
    min_sizes = [_f32(s) for s in call.attributes.float_list("min_size")]
    if not call.attribute("scale_all_sizes"):  # mxnet's PriorBox: sizes relative to the image
        step = F32(F32(image_height) / F32(height)) if step == -1 else F32(step * F32(image_height))
        min_sizes = [_f32(F32(s) * F32(image_height)) for s in min_sizes]
    boxes = _fixed_size_boxes(call, ratios)
    _size_boxes(call, boxes, ratios, min_sizes)
    total = call.output_shape(0)[1]
    if len(boxes) * height * width * 4 != total:
        raise UnsupportedByOpenVINOError(
            f"PriorBox's attributes make {len(boxes)} boxes a cell where the output holds "
            f"{total // max(4 * height * width, 1)}: the CPU plugin writes past them or leaves some unset"
        )
    if step == 0:
        center_x = (np.arange(width, dtype=F32) + F32(0.5)) * F32(F32(image_width) / F32(width))
        center_y = (np.arange(height, dtype=F32) + F32(0.5)) * F32(F32(image_height) / F32(height))
    else:
        offset = F32(call.attribute("offset"))
        center_x = (offset + np.arange(width, dtype=F32)) * step
        center_y = (offset + np.arange(height, dtype=F32)) * step
    corners = _corners(boxes, center_x, center_y, image_width, image_height)
    if call.attribute("clip"):
        corners = np.minimum(np.maximum(corners, F32(0)), F32(1))
    first = corners.reshape(-1)
    variances = _variance_row(call.attributes.float_list("variance"), first.size)
    if any(v < 0 for v in call.attributes.float_list("variance")):
        raise UnsupportedByOpenVINOError("PriorBox has a negative variance, which the CPU plugin refuses")
    return np.stack([first, variances]).astype(call.output_dtype(0))


def _corners(
    boxes: _Boxes, center_x: np.ndarray, center_y: np.ndarray, image_width: int, image_height: int
) -> np.ndarray:
    """``[H, W, boxes, 4]``: xmin, ymin, xmax, ymax of every box of every cell."""
    shifts = np.asarray(boxes.shifts, dtype=F32).reshape(len(boxes), 2, 3)
    halves = np.asarray(boxes.halves, dtype=F32).reshape(len(boxes), 2)
    x = center_x[None, :, None]
    y = center_y[:, None, None]
    for term in range(3):  # the plugin adds the shift's terms one at a time
        x = x + shifts[:, 0, term]
        y = y + shifts[:, 1, term]
    x, y = np.broadcast_arrays(x, y)
    inverse_width, inverse_height = F32(1) / F32(image_width), F32(1) / F32(image_height)
    corners = np.stack(
        [
            (x - halves[:, 0]) * inverse_width,
            (y - halves[:, 1]) * inverse_height,
            (x + halves[:, 0]) * inverse_width,
            (y + halves[:, 1]) * inverse_height,
        ],
        axis=-1,
    ).astype(F32)
    clipped = np.asarray(boxes.clipped, dtype=bool)[:, None]
    low = np.where(corners[..., :2] > 0, corners[..., :2], F32(0))  # clip_less: NaN becomes 0
    high = np.where(corners[..., 2:] < 1, corners[..., 2:], F32(1))  # clip_great
    return np.where(clipped, np.concatenate([low, high], axis=-1), corners)


def prior_box_clustered(call: KernelCall) -> np.ndarray:
    """PriorBoxClustered-1."""
    height, width, image_height, image_width = _sizes(call)
    widths = np.asarray(call.attributes.float_list("width"), dtype=F32)
    heights = np.asarray(call.attributes.float_list("height"), dtype=F32)
    step = F32(call.attribute("step"))
    step_w = F32(call.attribute("step_w")) or step
    step_h = F32(call.attribute("step_h")) or step
    if step_w == 0 and step_h == 0:
        step_w = F32(F32(image_width) / F32(width)) if width else F32(0)
        step_h = F32(F32(image_height) / F32(height)) if height else F32(0)
    offset = F32(call.attribute("offset"))
    center_x = ((np.arange(width, dtype=F32) + offset) * step_w)[None, :, None]
    center_y = ((np.arange(height, dtype=F32) + offset) * step_h)[:, None, None]
    half_w, half_h = widths / F32(2), heights / F32(2)
    x, y = np.broadcast_arrays(center_x, center_y)
    with np.errstate(divide="ignore", invalid="ignore"):
        corners = np.stack(
            [
                (x - half_w) / F32(image_width),
                (y - half_h) / F32(image_height),
                (x + half_w) / F32(image_width),
                (y + half_h) / F32(image_height),
            ],
            axis=-1,
        ).astype(F32)
    if call.attribute("clip"):
        corners = np.minimum(np.maximum(corners, F32(0)), F32(1))
    first = corners.reshape(-1)
    variances = _variance_row(call.attributes.float_list("variance"), first.size)
    return np.stack([first, variances]).astype(call.output_dtype(0))


def prior_grid_generator(call: KernelCall) -> np.ndarray:
    """ExperimentalDetectronPriorGridGenerator-6: each prior shifted to the centre of every
    cell, ``(w + 0.5) * step_w`` and ``(h + 0.5) * step_h`` (the grid ``h x w`` attributes, else
    the feature map's; the steps the ``stride`` attributes, else the image's size over the
    grid's), cells in row-major order and the priors within each."""
    priors = call.inputs[0].astype(F32)
    feature_height, feature_width = call.inputs[1].shape[2:]
    image_height, image_width = call.inputs[2].shape[2:]
    height = int(call.attribute("h")) or feature_height
    width = int(call.attribute("w")) or feature_width
    if height * width * len(priors) * 4 != int(np.prod(call.output_shape(0))):
        raise UnsupportedByOpenVINOError(
            f"the h x w grid ({height} x {width}) is not the feature map's: the plugin writes past its output"
        )
    step_w = F32(call.attribute("stride_x")) or F32(F32(image_width) / F32(width))
    step_h = F32(call.attribute("stride_y")) or F32(F32(image_height) / F32(height))
    shift_x = (step_w * (np.arange(width, dtype=F32) + F32(0.5))).astype(F32)
    shift_y = (step_h * (np.arange(height, dtype=F32) + F32(0.5))).astype(F32)
    shifts = np.zeros((height, width, 1, 4), F32)
    shifts[..., [0, 2]] = shift_x[None, :, None, None]
    shifts[..., [1, 3]] = shift_y[:, None, None, None]
    grid = (priors[None, None] + shifts).astype(F32)
    return grid.reshape(call.output_shape(0)).astype(call.output_dtype(0))
