"""Kernels of the rearrange family (irshape/shapes/rearrange.py): BatchToSpace, SpaceToBatch,
ReverseSequence, ExtractImagePatches, Col2Im and SliceScatter.

Semantics from OpenVINO's reference implementations, confirmed against the CPU plugin by
``tests/execution/test_rearrange.py``. What the experiments found:

* BatchToSpace and SpaceToBatch with ``block_shape[0]`` other than 1 or a pad (crop) of the
  batch axis (the spec requires 1 and 0s): OpenVINO's shape inference ignores them, the CPU
  plugin does not (or ignores the block) and produces a shape other than the inferred one
  (batch 2 by block_shape [2, 1, 1] stays 2 where inference says 1; pads_begin [1, 0] gives a
  batch of 3 where inference says 2); the kernels refuse such a layer as one the plugin does
  not run.
* ReverseSequence reads each sequence length as an integer (a real one truncated); a length
  of 0 reverses nothing, as one of 1; a negative one fails, in the reference and the plugin
  alike. The plugin's kernel moves f32 only: i32 and i64 data go through f32 and back, an
  element beyond 2^24 rounded to the nearest f32, one at 2^31 saturated to 2^31 - 128; the
  kernel does the same (u8, i8, i16, f16, boolean data come back exact).
* ExtractImagePatches pads ``same_upper`` / ``same_lower`` as the reference does: the padding
  ``(ceil(W / stride) - 1) * stride + extent - W``, used only when it is above 0 and below the
  patch's extent, its odd unit at the end (same_upper) or the start (same_lower); padded
  positions are 0.
* SliceScatter: when start, stop or step are not Consts (computed, or Parameters) the CPU
  plugin's answer is wrong (the data without the updates, or with them elsewhere, from one run
  to the next); the kernel writes them where the plugin does with Const slices. Slice-8's
  slices are Python's but for one corner: a negative step from a start below -dim takes
  element 0 where Python's takes nothing. A step of int64's minimum crashes the plugin's
  Slice and SliceScatter (SIGFPE), and so does i32's (a Const of int64's minimum is saturated to
  it: irshape/kernels/integers.py): the kernel refuses both.
* SpaceToBatch: the CPU plugin puts a data element into the padding where a 4D or 5D data's
  last axis of 1 is padded at its end; the kernel pads with zeros there, as the reference.
* Col2Im sums the overlapping blocks in the data's element type (f16 in f32, rounded once, as
  the CPU plugin under the f32 hint).
"""

from __future__ import annotations

import math

import numpy as np

from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError, working_memory
from irshape.kernels.layout import integers, normal_axis

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


# --- ReverseSequence ----------------------------------------------------------------------


# The CPU plugin's f32 -> i32 conversion saturates at the largest f32 below 2^31
_F32_BELOW_2_31 = 2**31 - 128


def _through_f32(data: np.ndarray) -> np.ndarray:
    """``data`` as the CPU plugin's f32-only kernels give it back: a 32- or 64-bit signed
    integer rounded to the nearest f32, saturated to [-2^31, 2^31 - 128]; other types exactly."""
    if data.dtype.kind != "i" or data.dtype.itemsize < 4:
        return data
    return np.clip(data.astype(np.float32), -(2**31), _F32_BELOW_2_31).astype(data.dtype)


def _reverse_sequence_bytes(call: KernelCall) -> int:
    """The f32 round trip of integer data (an f32 copy, its clipped copy, the data's type
    again), the gathered elements and the output."""
    data = call.inputs[0]
    return 2 * data.size * 4 + 3 * data.nbytes


@working_memory(_reverse_sequence_bytes)
def reverse_sequence(call: KernelCall) -> np.ndarray:
    """ReverseSequence-1: along seq_axis, the first seq_lengths[b] elements of each batch b
    reversed (a length of 0 as 1; a real length truncated)."""
    data, lengths = call.inputs[0], np.asarray(call.inputs[1]).reshape(-1)
    batch_axis = normal_axis(int(call.attribute("batch_axis")), data.ndim)
    seq_axis = normal_axis(int(call.attribute("seq_axis")), data.ndim)
    counts = np.trunc(lengths).astype(np.int64) if lengths.dtype.kind == "f" else lengths.astype(np.int64)
    size = data.shape[seq_axis]
    if counts.size and (counts.min() < 0 or counts.max() > size):
        raise KernelError(f"a sequence length of {list(counts)} is outside [0, {size}]")
    positions = np.arange(size, dtype=np.int64)
    source = np.where(positions < counts[:, None], counts[:, None] - 1 - positions, positions)
    moved = np.moveaxis(_through_f32(data), (batch_axis, seq_axis), (0, 1))
    gathered = moved[np.arange(moved.shape[0])[:, None], source]
    return np.moveaxis(gathered, (0, 1), (batch_axis, seq_axis)).copy()


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
    for i in range(kh):
        for j in range(kw):
            top, left = i * dilations[0], j * dilations[1]
            image[
                :,
                :,
                top : top + (counts[0] - 1) * strides[0] + 1 : strides[0],
                left : left + (counts[1] - 1) * strides[1] + 1 : strides[1],
            ] += blocks[:, :, i, j]
    image = image[:, :, begin[0] : begin[0] + height, begin[1] : begin[1] + width]
    result = image if batched else image[0]
    return result.astype(call.output_dtype())


# --- SliceScatter -------------------------------------------------------------------------


def _slice_positions(start: int, stop: int, step: int, length: int) -> np.ndarray:
    """The positions Slice-8 takes along an axis of ``length``: Python's slice, except that a
    negative step from a start below -length starts at 0 (Python's takes nothing): [::-1] of
    start -7, stop -7 takes element 0 of 5 (the CPU plugin's Slice, by experiment over every
    start and stop in [-length - 3, length + 3] and the int64 extremes, steps -3..3)."""
    if length == 0:
        return np.arange(0)
    if step > 0:
        first = min(max(start + length if start < 0 else start, 0), length)
        last = min(max(stop + length if stop < 0 else stop, 0), length)
    else:
        first = min(max(start + length if start < 0 else start, 0), length - 1)
        last = min(max(stop + length if stop < 0 else stop, -1), length - 1)
    return np.arange(first, last, step)


def slice_scatter(call: KernelCall) -> np.ndarray:
    """SliceScatter-15: the data with the slice start:stop:step (along axes) replaced by the
    updates, the slice as Slice-8 takes it."""
    data, updates = call.inputs[:2]
    start, stop, step = (integers(a) for a in call.inputs[2:5])
    axes = integers(call.inputs[5]) if len(call.inputs) > 5 else list(range(len(start)))
    positions = [np.arange(n) for n in data.shape]
    for axis, first, last, stride in zip(axes, start, stop, step, strict=True):
        if stride == 0:
            raise KernelError("a step of 0")
        if stride in (-(2**31), -(2**63)):  # (the executor hands over an i64 minimum saturated)
            raise UnsupportedByOpenVINOError("a step of int32's minimum: the CPU plugin crashes (SIGFPE)")
        normal = normal_axis(axis, data.ndim)
        positions[normal] = _slice_positions(first, last, stride, data.shape[normal])
    target = np.ix_(*positions)
    if updates.shape != tuple(len(p) for p in positions):
        raise KernelError(f"updates of {list(updates.shape)} for a slice of {[len(p) for p in positions]}")
    out = data.copy()
    out[target] = updates
    return out
