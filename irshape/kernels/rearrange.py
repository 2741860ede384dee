"""Kernels of the rearrange family (irshape/shapes/rearrange.py): BatchToSpace, SpaceToBatch,
ExtractImagePatches and Col2Im (ReverseSequence's kernel is in :mod:`irshape.kernels.layout`,
SliceScatter's in :mod:`irshape.kernels.indexing`).

Semantics from OpenVINO's reference implementations, confirmed against the CPU plugin by
``tests/execution/test_rearrange.py``. What the experiments found:

* BatchToSpace and SpaceToBatch with ``block_shape[0]`` other than 1 or a pad (crop) of the
  batch axis (the spec requires 1 and 0s): OpenVINO's shape inference ignores them, the CPU
  plugin does not (or ignores the block) and produces a shape other than the inferred one
  (batch 2 by block_shape [2, 1, 1] stays 2 where inference says 1; pads_begin [1, 0] gives a
  batch of 3 where inference says 2); the kernels refuse such a layer as one the plugin does
  not run.
* ExtractImagePatches pads ``same_upper`` / ``same_lower`` as the reference does: the padding
  ``(ceil(W / stride) - 1) * stride + extent - W``, used only when it is above 0 and below the
  patch's extent, its odd unit at the end (same_upper) or the start (same_lower); padded
  positions are 0.
* SpaceToBatch: the CPU plugin puts a data element into the padding where a 4D or 5D data's
  last axis of 1 is padded at its end; the kernel pads with zeros there, as the reference.
* Col2Im sums the overlapping blocks in the data's element type (f16 in f32, rounded once, as
  the CPU plugin under the f32 hint); bf16 rounds each sum to bf16 as ``ov::bfloat16``'s
  constructor rounds (up only where bf16's last bit and the bit below it are both set: it
  truncates 1.0 + 3 * 2^-9, where nearest-even rounds up), block by block in the order of the
  columns: the plugin's node runs OpenVINO's reference on bf16 values (by experiment, of 600
  random sums none off, where summing in f32 and rounding once leaves 102 off, and rounding
  each sum to nearest-even 58).
"""

from __future__ import annotations

import math

import numpy as np

from irshape.kernels import KernelCall, UnsupportedByOpenVINOError, working_memory
from irshape.kernels.layout import integers
from irshape.kernels.narrow_reals import integers_to_bf16 as ov_bfloat16

# --- SpaceToBatch, BatchToSpace -----------------------------------------------------------


def _blocks_and_pads(call: KernelCall) -> tuple[list[int], list[int], list[int]]:
    """block_shape and the pads (crops) at their begin and end, the batch axis left alone: a
    block or pad of the batch, which shape inference ignores, the CPU plugin applies, and
    its output contradicts OpenVINO's shape inference."""
    blocks, begin, end = (integers(array) for array in call.inputs[1:4])
    if (blocks[0], begin[0], end[0]) != (1, 0, 0):
        raise UnsupportedByOpenVINOError(
            f"block_shape[0] {blocks[0]}, begin[0] {begin[0]}, end[0] {end[0]} (not 1, 0, 0): "
            "the CPU plugin's output contradicts OpenVINO's shape inference"
        )
    return blocks, begin, end


def space_to_batch(call: KernelCall) -> np.ndarray:
    """SpaceToBatch-1: the data zero-padded, each spatial axis cut into [D / block, block], the
    blocks moved in front of the batch."""
    data = call.inputs[0]
    blocks, begin, end = _blocks_and_pads(call)
    padded = np.pad(data, list(zip(begin, end, strict=True)))
    spatial = range(1, data.ndim)
    cut = padded.reshape(
        padded.shape[0], *[n for a in spatial for n in (padded.shape[a] // blocks[a], blocks[a])]
    )
    block_axes = [2 * a for a in spatial]  # the block of spatial axis a sits at 2a
    part_axes = [2 * a - 1 for a in spatial]
    moved = cut.transpose(*block_axes, 0, *part_axes)
    return moved.reshape(call.output_shape())


def batch_to_space(call: KernelCall) -> np.ndarray:
    """BatchToSpace-1: the batch seen as [b1, ..., b(K), batch / prod], each block woven into its
    spatial axis, then the crops cut off."""
    data = call.inputs[0]
    blocks, begin, end = _blocks_and_pads(call)
    k = data.ndim - 1
    batch = data.shape[0] // math.prod(blocks)
    split = data.reshape(*blocks[1:], batch, *data.shape[1:])
    order = [k, *[a for i in range(k) for a in (k + 1 + i, i)]]  # [batch, D1, b1, D2, b2, ...]
    grown = split.transpose(order).reshape(
        batch, *[n * b for n, b in zip(data.shape[1:], blocks[1:], strict=True)]
    )
    crop = tuple(slice(b, n - e) for n, b, e in zip(grown.shape, begin, end, strict=True))
    return grown[crop].copy()


# --- ExtractImagePatches ------------------------------------------------------------------


def _same_pad_start(size: int, stride: int, extent: int, mode: str) -> int:
    """The padding before the first row (column) in the same_* modes (the reference's)."""
    total = (math.ceil(size / stride) - 1) * stride + extent - size
    if not 0 < total < extent:
        return 0
    if total % 2 == 0:
        return total // 2
    return (total + 1) // 2 if mode == "same_lower" else (total - 1) // 2


def extract_image_patches(call: KernelCall) -> np.ndarray:
    """ExtractImagePatches-3: each patch's [size_rows, size_cols, C] elements (rates apart) as
    the channels of its output position."""
    data = call.inputs[0]
    sizes, strides, rates = (call.int_list(name) for name in ("sizes", "strides", "rates"))
    mode = str(call.attribute("auto_pad")).lower()
    out_shape = call.output_shape()
    if math.prod(out_shape) == 0:  # no patch fits (a slice to (0 - 1) * stride + 1 would wrap)
        return np.empty(out_shape, dtype=data.dtype)
    rows, cols = out_shape[2:]
    extents = [r * (s - 1) + 1 for s, r in zip(sizes, rates, strict=True)]
    starts = [0, 0]
    if mode != "valid":
        starts = [
            _same_pad_start(n, st, e, mode) for n, st, e in zip(data.shape[2:], strides, extents, strict=True)
        ]
    # zero-padded enough for every patch position (a negative end: rows the patches never reach)
    ends = [
        max((count - 1) * st + e - start - n, 0)
        for count, st, e, start, n in zip((rows, cols), strides, extents, starts, data.shape[2:], strict=True)
    ]
    padded = np.pad(data, [(0, 0), (0, 0), (starts[0], ends[0]), (starts[1], ends[1])])
    out = np.empty(out_shape, dtype=data.dtype)
    channels = data.shape[1]
    for i in range(sizes[0]):
        for j in range(sizes[1]):
            tap = (i * sizes[1] + j) * channels
            top, left = i * rates[0], j * rates[1]
            out[:, tap : tap + channels] = padded[
                :,
                :,
                top : top + (rows - 1) * strides[0] + 1 : strides[0],
                left : left + (cols - 1) * strides[1] + 1 : strides[1],
            ]
    return out


# --- Col2Im -------------------------------------------------------------------------------


def _col2im_bytes(call: KernelCall) -> int:
    """The columns in the working type (f32 for f16), the padded image in it, and the output
    (the padded image is the output's size plus the pads)."""
    data = call.inputs[0]
    work = 4 if data.dtype == np.float16 else data.itemsize
    begin = call.int_list("pads_begin") or (0, 0)
    end = call.int_list("pads_end") or (0, 0)
    shape = call.output_shape()
    planes = math.prod(shape[:-2])
    padded = planes * (shape[-2] + begin[0] + end[0]) * (shape[-1] + begin[1] + end[1])
    return data.size * work + 2 * padded * work + math.prod(shape) * data.itemsize


@working_memory(_col2im_bytes)
def col2im(call: KernelCall) -> np.ndarray:
    """Col2Im-15: the columns [N,] C * kh * kw, L summed back into [N,] C, H, W (blocks that
    overlap add up; positions in the pads are dropped)."""
    data = call.inputs[0]
    batched = data.ndim == 3
    columns = data if batched else data[None]
    height, width = integers(call.inputs[1])[:2]
    kh, kw = integers(call.inputs[2])[:2]
    strides = call.int_list("strides") or (1, 1)
    dilations = call.int_list("dilations") or (1, 1)
    begin = call.int_list("pads_begin") or (0, 0)
    end = call.int_list("pads_end") or (0, 0)
    counts = [
        (n + b + e - d * (k - 1) - 1) // s + 1
        for n, b, e, d, k, s in zip((height, width), begin, end, dilations, (kh, kw), strides, strict=True)
    ]
    work = np.float32 if data.dtype == np.float16 else data.dtype
    batch, channels = columns.shape[0], columns.shape[1] // (kh * kw)
    blocks = columns.astype(work, copy=False).reshape(batch, channels, kh, kw, *counts)
    image = np.zeros((batch, channels, height + begin[0] + end[0], width + begin[1] + end[1]), work)
    bf16 = call.input_types[0] == "bf16"
    for i in range(kh):
        for j in range(kw):
            top, left = i * dilations[0], j * dilations[1]
            window = image[
                :,
                :,
                top : top + (counts[0] - 1) * strides[0] + 1 : strides[0],
                left : left + (counts[1] - 1) * strides[1] + 1 : strides[1],
            ]
            window += blocks[:, :, i, j]
            if bf16:  # ov::bfloat16's rounding (integers_to_bf16 is that rounding of any f32)
                window[...] = ov_bfloat16(window)
    image = image[:, :, begin[0] : begin[0] + height, begin[1] : begin[1] + width]
    result = image if batched else image[0]
    return result.astype(call.output_dtype())
