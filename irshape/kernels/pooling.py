"""Kernels of the pooling family (irshape/shapes/pooling.py): MaxPool-1/8/14, AvgPool-1/14/16,
AdaptiveAvgPool-8 and AdaptiveMaxPool-8.

MaxPool and AvgPool run on the pads shape inference resolved (``PoolPlan`` in the inference's
details: auto_pad applied, one value per spatial axis). Output position ``o`` of a spatial axis
covers the data positions ``o * stride - pads_begin + k * dilation`` for ``k < kernel``; the
windows are strided views of the padded data (``sliding_window_view``), never loops over pixels.
ceil and ceil_torch windows past the padded end read nothing there.

* MaxPool: the largest element of the data inside the window (padding never counts), starting
  from the lowest value of the computation's type as the CPU plugin does: NaNs never win
  (``max(nan, 1, 2)`` is 2), a window of -inf (or NaN) only gives f32's lowest, -3.4e38 (-inf in
  f16). The indices (MaxPool-8/14) are the first such element's flat index in row-major order
  over the data's dims from ``axis`` on (axis 0: over the whole tensor, the batch included), in
  ``index_element_type``; where no element beats the start the spatial part of the index is 0.
* AvgPool: the sum of the window's data elements over a divisor, as the CPU plugin (and the
  reference) divide: without exclude-pad, the whole kernel (dilations aside) where the layer has
  any pad after auto_pad, even for a ceil window running past pads_end; otherwise (exclude-pad,
  or no pads) the window's data elements, so a ceil window holding none is 0 / 0 = NaN. One
  plugin quirk followed: on an axis without dilation, a ceil window that starts past the data
  counts ``size - start`` there (negative: the output is -0.0, not NaN). Integers round the
  mean half to even (``[1, 2]`` gives 2, ``[2, 7]`` 4), as the plugin does.
* AdaptiveAvgPool/AdaptiveMaxPool: output ``o`` of an axis of ``n`` to ``m`` covers
  ``[floor(o * n / m), ceil((o + 1) * n / m))``; AdaptiveMaxPool's indices count within each
  channel's spatial dims (row-major), as the spec says. Unlike MaxPool's, the plugin's
  AdaptiveMaxPool starts from the window's first element: a NaN there is the answer (NaN, its
  index), a window of -inf gives -inf. The plugin refuses i64 indices ("CPU plugin does not
  support i64 for use with oneDNN"); irshape gives them.

Reals are summed in float64 and rounded once to the data's type.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError, working_memory
from irshape.shapes.pooling import PoolPlan

DATA = 0
SPATIAL = 2  # [N, C, spatial...]


# --- the windows ------------------------------------------------------------------------------


def _plan(call: KernelCall) -> PoolPlan:
    plan = call.inference.details
    if not isinstance(plan, PoolPlan):
        raise KernelError("shape inference resolved no pads for this layer")
    if min(plan.pads_begin + plan.pads_end, default=0) < 0:
        raise UnsupportedByOpenVINOError(
            f"negative pads {list(plan.pads_begin)}, {list(plan.pads_end)}: not a pooling OpenVINO runs"
        )
    if min(plan.strides + plan.dilations + plan.kernel, default=1) < 1:
        raise KernelError("a kernel, stride or dilation below 1")
    return plan


class _Axis:
    """One spatial axis of a windowed pooling: where each output's window reads."""

    def __init__(self, size: int, out: int, kernel: int, stride: int, dilation: int, pads: tuple[int, int]):
        self.size, self.out, self.kernel = size, out, kernel
        self.stride, self.dilation = stride, dilation
        self.pad_begin, self.pad_end = pads
        extent = (kernel - 1) * dilation + 1
        # the padded length every window fits in (ceil windows may run past pads_end)
        self.length = max(size + self.pad_begin + self.pad_end, (out - 1) * stride + extent) if out else 0
        self.extent = extent

    def positions(self) -> np.ndarray:
        """(out, kernel): the data position each window element reads (may lie outside)."""
        starts = np.arange(self.out) * self.stride - self.pad_begin
        return starts[:, None] + np.arange(self.kernel)[None, :] * self.dilation

    def inside(self) -> np.ndarray:
        """(out, kernel): which window elements read the data (not padding, not past it)."""
        pos = self.positions()
        result: np.ndarray = (pos >= 0) & (pos < self.size)
        return result

    def data_counts(self) -> np.ndarray:
        """Each window's count of data elements along this axis; for a (ceil) window that
        starts past the data, ``size - start``, negative, as the plugin's
        ``min(end, size) - max(start, 0)`` gives it (so such an output is -0.0, not NaN, unless
        another axis' count is 0). Only on an axis without dilation: on a dilated axis
        AvgPool-16 counts the window's data elements, 0 there."""
        starts = np.arange(self.out) * self.stride - self.pad_begin
        counts = np.sum(self.inside(), axis=1)
        dense = self.dilation == 1
        result: np.ndarray = np.where(starts > self.size, self.size - starts, counts) if dense else counts
        return result


def _axes(call: KernelCall, plan: PoolPlan) -> list[_Axis]:
    x, out = call.inputs[DATA], call.output_shape()
    return [
        _Axis(x.shape[SPATIAL + i], out[SPATIAL + i], k, s, d, (pb, pe))
        for i, (k, s, d, pb, pe) in enumerate(
            zip(plan.kernel, plan.strides, plan.dilations, plan.pads_begin, plan.pads_end, strict=True)
        )
    ]


def _windows(x: np.ndarray, axes: Sequence[_Axis], fill: Any) -> np.ndarray:
    """A view (N, C, out..., kernel...) of ``x`` padded with ``fill``: every window's elements."""
    widths = [(0, 0), (0, 0)] + [(a.pad_begin, a.length - a.size - a.pad_begin) for a in axes]
    padded = np.pad(x, widths, constant_values=fill)
    spatial = tuple(range(SPATIAL, x.ndim))
    view = sliding_window_view(padded, tuple(a.extent for a in axes), axis=spatial)
    picked: tuple[slice, ...] = (slice(None), slice(None))
    picked += tuple(slice(0, a.out * a.stride, a.stride) for a in axes)
    picked += tuple(slice(None, None, a.dilation) for a in axes)
    result: np.ndarray = view[picked]
    return result


def _window_bytes(call: KernelCall) -> int:
    """A window tensor of the output's size times the kernel's, in float64, twice (MaxPool's
    flattened windows and masks), the data in float64 and padded (AvgPool), the outputs."""
    plan = call.inference.details
    kernel = math.prod(plan.kernel) if isinstance(plan, PoolPlan) else 1
    outputs = math.prod(call.output_shape()) if call.inference.outputs[0].shape.is_static else 0
    return 2 * 8 * outputs * kernel + 2 * 8 * call.inputs[DATA].size + 2 * 8 * outputs


# --- MaxPool ------------------------------------------------------------------------------------


def _lowest(dtype: np.dtype[Any]) -> Any:
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


@working_memory(_window_bytes)
def max_pool(call: KernelCall) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """MaxPool-1, -8 and -14 (with the indices output)."""
    plan = _plan(call)
    x = call.inputs[DATA]
    axes = _axes(call, plan)
    start = _start(x.dtype)
    if call.output_type() == "bf16":  # bf16's own lowest there, not f32's (which is -inf in
        start = _BF16_LOWEST  # bf16: found by the kernel fuzzer)
    windows = _windows(x, axes, _lowest(x.dtype))  # padding never wins: it is not data
    window_axes = tuple(range(x.ndim, windows.ndim))
    values = np.fmax.reduce(windows, axis=window_axes)  # NaNs never win (all NaN: NaN)
    with np.errstate(over="ignore"):  # f32's lowest is -inf in f16
        highest = np.fmax(values.astype(np.float64) if x.dtype.kind == "f" else values, start)
        result: np.ndarray = highest.astype(call.output_dtype(), copy=False)
    if len(call.inference.outputs) == 1:
        return result
    return result, _max_indices(call, x, axes, windows, values)


_BF16_LOWEST = float(np.array(0xFF7F0000, np.uint32).view(np.float32))  # -3.3895314e38


def _start(dtype: np.dtype[Any]) -> Any:
    """Where the plugin's maximum starts: the lowest value of the computation's type (f32 for
    f16 data), so a window of -inf gives f32's lowest (in f16: -inf)."""
    if dtype.kind == "f":
        return np.finfo(np.float64 if dtype == np.float64 else np.float32).min
    return np.iinfo(dtype).min


def _max_indices(
    call: KernelCall, x: np.ndarray, axes: Sequence[_Axis], windows: np.ndarray, values: np.ndarray
) -> np.ndarray:
    """The flat index of the first data element in each window equal to its maximum and above
    the start value; where none is (no data element in the window, or all at the type's lowest,
    -inf), the spatial coordinates are 0, as the plugin gives."""
    n = len(axes)
    out_shape = windows.shape[: x.ndim]
    flat = windows.reshape(*out_shape, -1)
    inside = _outer([a.inside() for a in axes]).reshape((1, 1, *(a.out for a in axes), -1))
    chosen = (flat == values[..., None]) & (flat > _start(x.dtype)) & inside
    first = np.argmax(chosen, axis=-1)
    found = np.any(chosen, axis=-1)
    taps = np.unravel_index(first, tuple(a.kernel for a in axes))
    coordinates = [
        np.where(
            found,
            np.arange(a.out).reshape((-1,) + (1,) * (n - 1 - i)) * a.stride - a.pad_begin + tap * a.dilation,
            0,
        )
        for i, (a, tap) in enumerate(zip(axes, taps, strict=True))
    ]
    axis = int(call.attribute("axis"))
    axis = axis + x.ndim if axis < 0 else axis
    index = np.zeros(out_shape, np.int64)
    for dim in range(axis, x.ndim):  # row-major over the dims from axis on
        index = index * x.shape[dim] + _coordinate(dim, out_shape, coordinates)
    return index.astype(call.output_dtype(1))


def _coordinate(dim: int, shape: Sequence[int], spatial: Sequence[np.ndarray]) -> np.ndarray:
    """Each output's coordinate along data dim ``dim`` (its own for N and C)."""
    if dim < SPATIAL:
        return np.arange(shape[dim]).reshape((-1,) + (1,) * (len(shape) - 1 - dim))
    result: np.ndarray = spatial[dim - SPATIAL]
    return result


def _outer(masks: Sequence[np.ndarray]) -> np.ndarray:
    """(out_1, ..., out_n, k_1 * ... * k_n): the product of each axis' (out_i, k_i) mask."""
    n = len(masks)
    result = np.ones((1,) * (2 * n), bool)
    for i, mask in enumerate(masks):
        shape = [1] * (2 * n)
        shape[i], shape[n + i] = mask.shape
        result = result & mask.reshape(shape)
    return result.reshape((*result.shape[:n], -1))


# --- AvgPool ------------------------------------------------------------------------------------


@working_memory(_window_bytes)
def avg_pool(call: KernelCall) -> np.ndarray:
    """AvgPool-1, -14 and -16."""
    plan = _plan(call)
    x = call.inputs[DATA]
    axes = _axes(call, plan)
    windows = _windows(x.astype(np.float64), axes, 0.0)
    sums = np.sum(windows, axis=tuple(range(x.ndim, windows.ndim)))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums / _divisor(axes, bool(call.attribute("exclude-pad")))
    if x.dtype.kind != "f":  # a window without data (0 / 0) is 0, as the reference's
        mean = np.where(np.isfinite(mean), np.rint(mean), 0.0)
    result: np.ndarray = mean.astype(call.output_dtype())
    return result


def _divisor(axes: Sequence[_Axis], exclude_pad: bool) -> np.ndarray | int:
    """exclude-pad: each window's data elements; without it the whole kernel where the layer
    has any padding, else again the data elements (a window with none gives 0 / 0 = NaN)."""
    padded = any(a.pad_begin or a.pad_end for a in axes)
    if padded and not exclude_pad:
        return math.prod(a.kernel for a in axes)
    divisor = np.ones((1,) * len(axes), np.int64)
    for i, a in enumerate(axes):
        shape = [1] * len(axes)
        shape[i] = a.out
        divisor = divisor * a.data_counts().reshape(shape)
    return divisor


# --- AdaptiveAvgPool, AdaptiveMaxPool ---------------------------------------------------------


def _adaptive_windows(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    """(out, longest): each output's data positions along an axis, and which are inside its
    window ``[floor(o * size / out), ceil((o + 1) * size / out))``."""
    o = np.arange(out)
    start = (o * size) // out
    end = -((-(o + 1) * size) // out)
    longest = int(np.max(end - start)) if out else 0
    positions = start[:, None] + np.arange(longest)[None, :]
    return np.minimum(positions, max(size - 1, 0)), positions < end[:, None]


def _adaptive_gather(x: np.ndarray, out: Sequence[int]) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """The windows (N, C, out..., longest...) of ``x``, which of their elements are inside, and
    each axis' positions."""
    n = len(out)
    gathered = x
    masks, positions = [], []
    for i, size in enumerate(x.shape[SPATIAL:]):
        pos, inside = _adaptive_windows(size, out[i])
        positions.append(pos)
        masks.append(inside)
        axis = SPATIAL + 2 * i  # each earlier axis became (out, longest)
        gathered = np.take(gathered, pos, axis=axis)
    # (N, C, o1, l1, o2, l2...) -> (N, C, o1, o2..., l1, l2...)
    order = [0, 1] + [SPATIAL + 2 * i for i in range(n)] + [SPATIAL + 2 * i + 1 for i in range(n)]
    windows = np.transpose(gathered, order)
    inside = _outer(masks).reshape((1, 1, *tuple(out), *tuple(m.shape[1] for m in masks)))
    return windows, inside, positions


def _target(call: KernelCall) -> list[int]:
    return list(call.output_shape()[SPATIAL:])


def _adaptive_bytes(call: KernelCall) -> int:
    """The gathered windows (outputs times the longest window on each axis) in float64, a
    masked copy and the index arithmetic: four such tensors."""
    x = call.inputs[DATA]
    if not call.inference.outputs[0].shape.is_static:
        return 0
    out = _target(call)
    longest = math.prod(-(-size // max(o, 1)) + 1 for size, o in zip(x.shape[SPATIAL:], out, strict=True))
    return int(4 * 8 * math.prod(call.output_shape()) * longest + x.nbytes)


@working_memory(_adaptive_bytes)
def adaptive_avg_pool(call: KernelCall) -> np.ndarray:
    """AdaptiveAvgPool-8."""
    x = call.inputs[DATA]
    windows, inside, _ = _adaptive_gather(x.astype(np.float64), _target(call))
    window_axes = tuple(range(x.ndim, windows.ndim))
    sums = np.sum(np.where(inside, windows, 0.0), axis=window_axes)
    counts = np.sum(inside, axis=window_axes)
    result: np.ndarray = (sums / np.maximum(counts, 1)).astype(call.output_dtype())
    return result


@working_memory(_adaptive_bytes)
def adaptive_max_pool(call: KernelCall) -> tuple[np.ndarray, np.ndarray]:
    """AdaptiveMaxPool-8: the maximum and its index within the channel's spatial dims. The CPU
    plugin starts from the window's first element and takes each later one greater than it: a
    NaN first stays (NaN, its index), a NaN later never wins, a window of -inf gives -inf."""
    x = call.inputs[DATA]
    out = _target(call)
    windows, inside, positions = _adaptive_gather(x, out)
    n = len(out)
    flat = windows.reshape(*windows.shape[: x.ndim], -1)
    valid = inside.reshape((*inside.shape[: x.ndim], -1))
    flat = np.where(valid, flat, _lowest(x.dtype))
    first_is_nan = np.isnan(flat[..., 0]) if x.dtype.kind == "f" else np.zeros(flat.shape[:-1], bool)
    values = np.where(first_is_nan, flat[..., 0], np.fmax.reduce(flat, axis=-1))
    chosen = (flat == values[..., None]) & valid
    first = np.where(first_is_nan, 0, np.argmax(chosen, axis=-1))
    taps = np.unravel_index(first, tuple(p.shape[1] for p in positions))
    index = np.zeros(values.shape, np.int64)
    for i, (pos, tap) in enumerate(zip(positions, taps, strict=True)):
        shape = [1] * n
        shape[i] = out[i]
        index = index * x.shape[SPATIAL + i] + pos[:, 0].reshape(shape) + tap
    return values.astype(call.output_dtype()), index.astype(call.output_dtype(1))
