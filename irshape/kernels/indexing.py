"""Kernels of the indexing family (irshape/shapes/indexing.py): ShapeOf, Gather*, Scatter*,
Slice, SliceScatter, StridedSlice, Range, NonZero and TopK.

What OpenVINO's CPU plugin (2026.4, ``INFERENCE_PRECISION_HINT=f32``) does, established by
tests/execution/test_indexing.py where the spec leaves it open:

* Gather counts negative indices from the end of the axis; an index outside ``[-dim, dim)``
  gives zeros (Gather-8's spec: "filled with zeros"; the plugin too, but a scalar index out
  of range makes it read outside the data). So does OpenVINO's reference for Gather-1/7 (the
  constant folding; the plugin gives zeros for their negative indices, at times reads outside
  the data): irshape follows the reference, tested on Consts the compilation folds.
  Gather with batch_dims over a batch dim of 1 crashes the plugin (a segfault): tested on
  Consts the compilation folds (OpenVINO's reference); empty indices crash it too.
* GatherElements, GatherND and the scatters count negative indices from the end.
* ScatterUpdate, ScatterNDUpdate (reduction none) and ScatterElementsUpdate (reduction none)
  with repeated indices: the last update wins (the plugin writes them in order).
* ScatterElementsUpdate-12's mean of integers truncates towards zero (OpenVINO's reference
  rounds down, ``FE_DOWNWARD``; the plugin divides as C does); ``use_init_val = false`` starts
  each touched element from the reduction's neutral value (the type's lowest for max; f32's
  for f16, infinite there).
* The reductions of f16 are computed in f32 (the plugin's f32 hint), then rounded once.
* The reductions min and max replace an element by an update only when the update is strictly
  less (greater): NaN updates are skipped, an element that is NaN stays NaN.
* ScatterUpdate refuses negative indices (the plugin fails: "points to non-existing output
  tensor element"); ScatterNDUpdate and ScatterElementsUpdate count them from the end.
* Range: OpenVINO's reference: reals are ``start + i * step`` in the output type, integers
  accumulate ``step`` (start, stop and step truncated first), as many as the shape inference
  counts. The plugin (all but i32 and f32 Ranges computed in f32) differs where the step leads
  away from stop (it gives ``ceil(|stop - start| / |step|)`` elements, going away) and where
  real inputs make integers (it rounds to nearest where OpenVINO truncates): not followed.
* Slice and StridedSlice clamp as Python's slices do but for a negative step starting before
  the axis, which OpenVINO clamps to element 0 (Python takes nothing).
* SliceScatter: when start, stop or step are not Consts (computed, or Parameters) the CPU
  plugin's answer is wrong (the data without the updates, or with them elsewhere, from one run
  to the next); the kernel writes them where the plugin does with Const slices. Slice-8's
  slices are Python's but for one corner: a negative step from a start below -dim takes
  element 0 where Python's takes nothing. A step of int64's minimum crashes the plugin's
  Slice and SliceScatter (SIGFPE), and so does i32's (a Const of int64's minimum is saturated to
  it: irshape/kernels/integers.py): the kernel refuses both.
* StridedSlice: a shrunk axis whose begin is masked is taken at 0, whatever the stride; an
  ellipsis's bit wins over a shrink bit in the shape inference but the plugin's plan shrinks
  too (not tested); new_axis_mask together with shrink_axis_mask makes the plugin read past
  its input (a plugin bug): irshape gives OpenVINO's reference's answer there, tested on Consts
  the compilation folds.
* NonZero of a scalar: ``[1, 1]`` of zeros when it is not zero, ``[1, 0]`` when it is; but
  OpenVINO's shape inference of a zero whose value it knows says ``[0, 0]``, as irshape's of
  an integer scalar does: the kernel follows the inference there.
* TopK: the k largest (smallest) values, ties to the lower index, in the order of value for
  ``sort = none`` too (as the plugin gives); NaN is not ordered (the plugin's place for a NaN
  depends on its sorting algorithm: a NaN compares false with everything) and not tested.
  Where the plugin takes its heap sort (an unstable TopK on the last axis of data of rank 1
  or 2, compiled as a dynamic node or with k > 6) the ties and NaNs are ordered as its heap
  orders them
  (tests/execution/test_topk_ties.py); its other sorts' order of ties (a static k = 1 on the
  innermost axis: across vector lanes, as many as the CPU's vector holds; k > 6 on another axis:
  bitonic) is not followed, nor is its heap on data of a higher rank, whose layout (planar, or
  blocked after a Convolution) decides whether it sorts by the heap.
  A k past the axis is refused, as the plugin refuses it (k = 0 crashes the plugin).
* The plugin holds i64 data as i32 (2**63 - 1 comes back as -1, sums wrap at 2**31): irshape
  computes in i64, and the tests keep i64 data within i32.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from irshape.kernels import (
    KernelCall,
    KernelError,
    UnsupportedByOpenVINOError,
    output_bytes,
    working_memory,
)
from irshape.kernels.layout import integers, normal_axis

# --- shared helpers ---------------------------------------------------------------------------


def _scalar(array: np.ndarray) -> int:
    """A scalar or one-element input (an axis, a batch count) as a Python int."""
    return int(np.asarray(array).reshape(-1)[0])


def _axis(axis: int, rank: int) -> int:
    return axis + rank if axis < 0 else axis


def _from_end(indices: np.ndarray, size: int | np.ndarray) -> np.ndarray:
    """Indices as int64, the negative ones counted from the end of an axis of ``size``."""
    wide = indices.astype(np.int64)
    result: np.ndarray = np.where(wide < 0, wide + size, wide)
    return result


def _checked(indices: np.ndarray, size: int | np.ndarray, what: str) -> np.ndarray:
    """Indices counted from the end when negative, refused when out of range."""
    normalized = _from_end(indices, size)
    if np.any((normalized < 0) | (normalized >= size)):
        raise KernelError(f"{what} has an index out of range")
    return normalized


def _plus_per_element(bytes_per_element: int, port: int) -> Callable[[KernelCall], int]:
    """A memory estimate: the default one (twice the outputs and the inputs) and
    ``bytes_per_element`` for each element of input ``port`` (int64 copies of indices, the
    coordinates of a scatter, a sort's order)."""

    def estimate(call: KernelCall) -> int:
        outputs = sum(output_bytes(call, i) for i in range(len(call.inference.outputs)))
        inputs = sum(a.nbytes for a in call.inputs)
        return 2 * outputs + inputs + bytes_per_element * call.inputs[port].size

    return estimate


# --- ShapeOf ------------------------------------------------------------------------------------


def shape_of(call: KernelCall) -> np.ndarray:
    """ShapeOf-1/3: the data's shape in the output type."""
    return np.array(call.inputs[0].shape, dtype=call.output_dtype())


# --- Gather -------------------------------------------------------------------------------------


@working_memory(_plus_per_element(24, 1))  # the indices as int64, their mask, their safe copy
def gather(call: KernelCall) -> np.ndarray:
    """Gather-1/7/8: data[batch..., pre..., indices[batch..., i...], post...]; an index out of
    ``[-dim, dim)`` gives zeros."""
    data, indices = call.inputs[0], call.inputs[1]
    axis = _axis(_scalar(call.inputs[2]), data.ndim)
    batch_dims = int(call.attribute("batch_dims")) if "batch_dims" in call.schema.attributes else 0
    batch_dims = _axis(batch_dims, indices.ndim)
    batch = int(np.prod(data.shape[:batch_dims], dtype=np.int64))
    outer = int(np.prod(data.shape[batch_dims:axis], dtype=np.int64))
    size = data.shape[axis]
    inner = data.shape[axis + 1 :]
    flat_data = data.reshape((batch, outer, size, *inner))
    flat_indices = _from_end(indices.reshape(batch, -1), size)
    valid = (flat_indices >= 0) & (flat_indices < size)
    safe = np.where(valid, flat_indices, 0)
    gathered = flat_data[
        np.arange(batch)[:, None, None], np.arange(outer)[None, :, None], safe[:, None, :]
    ]  # (batch, outer, indices, *inner)
    mask = valid[:, None, :].reshape(valid.shape[0], 1, valid.shape[1], *([1] * len(inner)))
    gathered = np.where(mask, gathered, np.zeros((), data.dtype))
    return gathered.reshape(call.output_shape()).astype(call.output_dtype(), copy=False)


@working_memory(_plus_per_element(16, 1))
def gather_elements(call: KernelCall) -> np.ndarray:
    """GatherElements-6: data at the indices along ``axis``, elsewhere at the indices' own
    coordinates."""
    data, indices = call.inputs[0], call.inputs[1]
    axis = _axis(int(call.attribute("axis")), data.ndim)
    normalized = _checked(indices, data.shape[axis], "GatherElements")
    coordinates: list[np.ndarray] = list(np.indices(indices.shape, sparse=True))
    coordinates[axis] = normalized
    result: np.ndarray = data[tuple(coordinates)]
    return result


@working_memory(_plus_per_element(16, 1))
def gather_nd(call: KernelCall) -> np.ndarray:
    """GatherND-5/8: data[batch..., indices[batch..., m..., :]]; GatherND-5 flattens the batch
    dims into one (the output shape inference gives)."""
    data, indices = call.inputs[0], call.inputs[1]
    batch_dims = int(call.attribute("batch_dims"))
    depth = indices.shape[-1]
    batch = int(np.prod(data.shape[:batch_dims], dtype=np.int64))
    tail = data.shape[batch_dims:]
    flat_data = data.reshape((batch, *tail))
    flat_indices = indices.reshape(batch, -1, depth)
    sizes = np.array(tail[:depth], dtype=np.int64)
    normalized = _checked(flat_indices, sizes, "GatherND")
    index = (np.arange(batch)[:, None], *np.moveaxis(normalized, -1, 0))
    gathered: np.ndarray = flat_data[index]
    return gathered.reshape(call.output_shape())


# --- the scatters ---------------------------------------------------------------------------


def scatter_update(call: KernelCall) -> np.ndarray:
    """ScatterUpdate-3: data with data[..., indices[i...], ...] = updates[..., i..., ...] along
    ``axis``; repeated indices: the last update wins."""
    data, indices, updates = call.inputs[0], call.inputs[1], call.inputs[2]
    axis = _axis(_scalar(call.inputs[3]), data.ndim)
    if data.size == 0:
        # the plugin does not run a node of empty data (isExecutable): its output is the data,
        # whatever the indices (by experiment: [0, 2] updated at index 3 is [0, 2])
        return data.copy()
    positions = indices.reshape(-1).astype(np.int64)
    if np.any((positions < 0) | (positions >= data.shape[axis])):
        raise KernelError("ScatterUpdate has an index outside [0, dim) (OpenVINO's plugin fails too)")
    shaped = updates.reshape((*data.shape[:axis], positions.size, *data.shape[axis + 1 :]))
    result = data.copy()
    # Assigned in order one position at a time would be a loop; numpy's fancy assignment
    # writes repeated positions in order too (the last one stays).
    index: list[Any] = [slice(None)] * data.ndim
    index[axis] = positions
    result[tuple(index)] = shaped.astype(data.dtype, copy=False)
    return result


# ScatterNDUpdate-15's and ScatterElementsUpdate-12's reductions as unbuffered numpy ufuncs
# (``ufunc.at`` applies repeated indices one after the other, as OpenVINO's loop does); on
# booleans OpenVINO's sum is or, its prod and min and, its max or, its sub xor.
_REDUCTIONS = {
    "sum": np.add,
    "mean": np.add,
    "sub": np.subtract,
    "prod": np.multiply,
    "min": np.fmin,
    "max": np.fmax,
}
_BOOLEAN_REDUCTIONS = {
    "sum": np.logical_or,
    "sub": np.logical_xor,
    "prod": np.logical_and,
    "min": np.logical_and,
    "max": np.logical_or,
}


def _reduce_at(result: np.ndarray, index: tuple[Any, ...], updates: np.ndarray, reduction: str) -> None:
    """``result[index] = reduction(result[index], updates)``, one update after the other.

    The plugin's min and max replace an element only by an update strictly less (greater): a
    NaN update changes nothing, a NaN element stays NaN. fmin/fmax skip NaN updates; the
    elements that were NaN are put back."""
    table = _BOOLEAN_REDUCTIONS if result.dtype == np.bool_ else _REDUCTIONS
    was_nan = np.isnan(result) if reduction in ("min", "max") and result.dtype.kind == "f" else None
    with np.errstate(over="ignore", invalid="ignore"):  # integers wrap, inf - inf is NaN
        table[reduction].at(result, index, updates)
    if was_nan is not None:
        result[was_nan] = np.nan


@working_memory(_plus_per_element(16, 1))
def scatter_nd_update(call: KernelCall) -> np.ndarray:
    """ScatterNDUpdate-3/15: data with data[indices[m..., :]] = updates[m...] (or reduced
    into it with ScatterNDUpdate-15's reduction)."""
    data, indices, updates = call.inputs[0], call.inputs[1], call.inputs[2]
    depth = indices.shape[-1]
    flat_indices = indices.reshape(-1, depth)
    sizes = np.array(data.shape[:depth], dtype=np.int64)
    normalized = _checked(flat_indices, sizes, "ScatterNDUpdate")
    reduction = str(call.attribute("reduction")).lower() if "reduction" in call.schema.attributes else "none"
    work = _working_dtype(data.dtype, reduction)
    shaped = updates.reshape((flat_indices.shape[0], *data.shape[depth:])).astype(work, copy=False)
    index = tuple(normalized.T)
    result = data.astype(work)  # a copy
    if reduction == "none":
        result[index] = shaped
    else:
        _reduce_at(result, index, shaped, reduction)
    return result.astype(data.dtype, copy=False)


def _working_dtype(dtype: np.dtype[Any], reduction: str) -> np.dtype[Any]:
    """The type a scatter reduces in: f16 in f32, as the plugin computes it (f32 hint)."""
    return np.dtype(np.float32) if dtype == np.float16 and reduction != "none" else dtype


_NEUTRAL = {"sum": 0, "mean": 0, "prod": 1}


def _neutral(reduction: str, dtype: np.dtype[Any], element_type: str) -> Any:
    """The value a reduction starts from without the data's (``use_init_val = false``): for
    min and max the type's extremes, f32's for f16 and bf16 (the plugin computes them in f32),
    which are infinite there."""
    if reduction in _NEUTRAL:
        return _NEUTRAL[reduction]
    if dtype == np.bool_:
        return reduction == "min"
    if element_type in ("f16", "bf16"):
        return np.inf if reduction == "min" else -np.inf
    info: Any = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return info.max if reduction == "min" else info.min


# the coordinates (one int64 array an axis), and for mean a count of each data element
@working_memory(
    lambda call: _plus_per_element(16 + 8 * call.inputs[0].ndim, 1)(call) + 8 * call.inputs[0].size
)
def scatter_elements_update(call: KernelCall) -> np.ndarray:
    """ScatterElementsUpdate-3/12: data[..., indices[i, j, ...], ...] = updates[i, j, ...]
    along ``axis`` (or reduced into it: sum, prod, min, max, mean)."""
    data, indices, updates = call.inputs[0], call.inputs[1], call.inputs[2]
    axis = _axis(_scalar(call.inputs[3]), data.ndim)
    normalized = _checked(indices, data.shape[axis], "ScatterElementsUpdate")
    coordinates: list[np.ndarray] = list(np.indices(indices.shape, sparse=True))
    coordinates[axis] = normalized
    index = tuple(np.broadcast_arrays(*coordinates))
    reduction = str(call.attribute("reduction")).lower() if "reduction" in call.schema.attributes else "none"
    work = _working_dtype(data.dtype, reduction)
    values = updates.astype(work, copy=False)
    result = data.astype(work)  # a copy
    if reduction == "none":
        result[index] = values
        return result
    use_init_val = bool(call.attribute("use_init_val"))
    if not use_init_val:
        result[index] = _neutral(reduction, work, call.input_types[0])
    _reduce_at(result, index, values, reduction)
    if reduction == "mean":
        counts = np.zeros(data.shape, np.int64)
        np.add.at(counts, index, 1)
        touched = counts > 0
        divisor = counts[touched] + int(use_init_val)
        if work.kind == "f":
            result[touched] = result[touched] / divisor.astype(work)
        else:  # the plugin divides integers truncating (the reference would round down)
            sums = result[touched].astype(np.int64)
            quotient = np.abs(sums) // divisor
            result[touched] = np.where(sums < 0, -quotient, quotient).astype(work)
    return result.astype(data.dtype, copy=False)


# --- Slice, StridedSlice and SliceScatter -----------------------------------------------------


def _ints(array: np.ndarray) -> list[int]:
    return [int(v) for v in np.asarray(array).reshape(-1)]


def _clamped_slice(start: int | None, stop: int | None, step: int, size: int) -> slice:
    """``start:stop:step`` of an axis of ``size`` clamped as OpenVINO's slice plan clamps it
    (``slice_plan.cpp``): Python's slicing but for a negative step from before the axis's
    start, which OpenVINO clamps to element 0 (Python takes nothing). None: the whole axis."""
    if size == 0:
        return slice(0, 0)
    reverse = step < 0
    if start is not None:
        start = min(max(start + size if start < 0 else start, 0), size - 1 if reverse else size)
    if stop is not None:
        stop = min(max(stop + size if stop < 0 else stop, -1 if reverse else 0), size)
        if stop == -1:
            stop = None  # down to element 0 included
    return slice(start, stop, step)


def slice_op(call: KernelCall) -> np.ndarray:
    """Slice-8: each listed axis sliced start:stop:step."""
    data = call.inputs[0]
    start, stop, step = (_ints(call.inputs[i]) for i in (1, 2, 3))
    axes = _ints(call.inputs[4]) if len(call.inputs) > 4 else list(range(len(start)))
    index: list[Any] = [slice(None)] * data.ndim
    for i, axis in enumerate(axes):
        normalized = _axis(axis, data.ndim)
        index[normalized] = _clamped_slice(start[i], stop[i], step[i], data.shape[normalized])
    return np.array(data[tuple(index)])


def _mask(call: KernelCall, name: str) -> set[int]:
    return {i for i, bit in enumerate(call.int_list(name)) if bit == 1}


def strided_slice(call: KernelCall) -> np.ndarray:
    """StridedSlice-1: numpy's basic indexing built from begin, end, strides and the masks, in
    the shape inference's order of precedence: ellipsis, new axis, shrink, then a slice."""
    data = call.inputs[0]
    begin, end = _ints(call.inputs[1]), _ints(call.inputs[2])
    strides = _ints(call.inputs[3]) if len(call.inputs) > 3 else [1] * len(begin)
    begin_mask, end_mask = _mask(call, "begin_mask"), _mask(call, "end_mask")
    new_axis, shrink, ellipsis = (
        _mask(call, m) for m in ("new_axis_mask", "shrink_axis_mask", "ellipsis_mask")
    )
    positions = range(len(begin))
    consuming = sum(1 for p in positions if p not in ellipsis and p not in new_axis)
    index: list[Any] = []
    axis = 0  # the data axis the next position slices
    for p in positions:
        if p in ellipsis:
            hidden = max(data.ndim - consuming, 0)
            index += [slice(None)] * hidden
            axis += hidden
        elif p in new_axis:
            index.append(None)
        elif p in shrink:  # at begin, or at 0 when begin is masked (whatever the stride)
            size, at = data.shape[axis], 0 if p in begin_mask else begin[p]
            if not -size <= at < size:
                raise KernelError(f"StridedSlice shrinks axis {axis} at {at}, outside the axis")
            index.append(at + size if at < 0 else at)
            axis += 1
        else:
            start = None if p in begin_mask else begin[p]
            stop = None if p in end_mask else end[p]
            index.append(_clamped_slice(start, stop, strides[p], data.shape[axis]))
            axis += 1
    return np.array(data[tuple(index)])


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
        length = data.shape[normal]
        positions[normal] = np.arange(length)[_clamped_slice(first, last, stride, length)]
    target = np.ix_(*positions)
    if updates.shape != tuple(len(p) for p in positions):
        raise KernelError(f"updates of {list(updates.shape)} for a slice of {[len(p) for p in positions]}")
    out = data.copy()
    out[target] = updates
    return out


# --- Range and NonZero ------------------------------------------------------------------------


def _range_length(call: KernelCall) -> int:
    """``range_shape_inference.hpp``: max(ceil((stop - start) / step), 0) in double, the three
    truncated first when the output is an integer type (irshape's inference counts integer
    values only: a real range's length is computed here)."""
    start, stop, step = (float(call.inputs[i].reshape(-1)[0]) for i in range(3))
    if call.output_dtype().kind != "f":
        start, stop, step = math.trunc(start), math.trunc(stop), math.trunc(step)
    if step == 0 or not all(math.isfinite(v) for v in (start, stop, step)):
        raise KernelError("Range's start, stop and step must be finite, its step not zero")
    if (step > 0 and start >= stop) or (step < 0 and start <= stop):
        return 0
    return math.ceil(abs(stop - start) / abs(step))


def _whole(value: np.generic) -> int:
    """A scalar truncated to an integer (exactly, for integers of any size)."""
    return int(value) if isinstance(value, np.integer) else math.trunc(float(value))


def _range_bytes(call: KernelCall) -> int:
    return 2 * _range_length(call) * call.output_dtype().itemsize


@working_memory(_range_bytes)
def range_op(call: KernelCall) -> np.ndarray:
    """Range-1/4: ``start + i * step`` in the output type (reals), or ``step`` accumulated in
    it (integers: wrapping)."""
    length = _range_length(call)
    dtype = call.output_dtype()
    start, step = (call.inputs[i].reshape(-1)[0] for i in (0, 2))
    positions = np.arange(length)
    if dtype.kind == "f":
        result: np.ndarray = dtype.type(start) + positions.astype(dtype) * dtype.type(step)
        return result.astype(dtype, copy=False)
    with np.errstate(over="ignore"):
        wide = np.int64(_whole(start)) + positions * np.int64(_whole(step))
    return wide.astype(dtype)


def _non_zero_bytes(call: KernelCall) -> int:
    data = call.inputs[0]
    return 2 * max(data.ndim, 1) * data.size * call.output_dtype().itemsize


@working_memory(_non_zero_bytes)
def non_zero(call: KernelCall) -> np.ndarray:
    """NonZero-3: the coordinates of the non-zero elements (NaN is not zero), one row per axis."""
    data = call.inputs[0]
    dtype = call.output_dtype()
    if data.ndim == 0:
        # One row, as the plugin gives; OpenVINO's shape inference says [0, 0] of a zero whose
        # value it knows, and so does irshape's of an integer scalar: that is followed then.
        count = int(bool(data != 0))
        rows_dim = call.inference.outputs[0].shape.dims
        rows = 0 if count == 0 and rows_dim is not None and rows_dim[0].hi == 0 else 1
        return np.zeros((rows, count), dtype)
    return np.array(np.nonzero(data), dtype=dtype).reshape(data.ndim, -1)


# --- TopK ---------------------------------------------------------------------------------------


@working_memory(_plus_per_element(24, 0))  # the keys, their order (int64), its sorted copy
def topk(call: KernelCall) -> tuple[np.ndarray, np.ndarray]:
    """TopK-1/3/11: the k largest (max) or smallest (min) elements along ``axis``; ties go to
    the lower index, but where the plugin takes its heap sort (``_heap_sortable``); sort by
    value, by index or, with ``none``, as by value."""
    data = call.inputs[0]
    axis = _axis(int(call.attribute("axis")), data.ndim)
    k = call.output_shape(0)[axis]
    if k > data.shape[axis]:
        raise UnsupportedByOpenVINOError(
            f"k = {k} exceeds the axis's {data.shape[axis]} elements (the CPU plugin refuses it)"
        )
    if k == 0:  # (found by the kernel fuzzer: the plugin compiles no TopK of k 0)
        raise UnsupportedByOpenVINOError(
            "k = 0: the CPU plugin refuses it ('K (0) must be greater or equal to 1')"
        )
    mode = str(call.attribute("mode")).lower()
    sort = str(call.attribute("sort")).lower()
    moved = np.moveaxis(data, axis, -1)
    keys = moved if data.dtype != np.bool_ else moved.astype(np.int8)
    ascending = _descending_key(keys) if mode == "max" else keys
    ranked = np.argsort(ascending, axis=-1, kind="stable")[..., : k + 1]
    order = ranked[..., :k]
    if k and keys.size and _heap_sortable(call, axis, data.ndim, sort):
        tied = _tied_rows(keys, ranked)
        # (asked last: whether the node is dynamic costs the executor a check of the model)
        if tied.any() and (k > _IN_REGISTERS or _compiled_dynamic(call)):
            order = _heap_order(keys, order, tied, mode == "max", sort == "index")
    if sort == "index":
        order = np.sort(order, axis=-1)
    values = np.take_along_axis(moved, order, axis=-1)
    return (
        np.moveaxis(values, -1, axis).copy(),
        np.moveaxis(order, -1, axis).astype(call.output_dtype(1)),
    )


# The CPU plugin (nodes/topk.cpp) keeps the k best of a static TopK in vector registers when
# k <= 16 / 2 - 2 (a bubble sort: ties in index order; 16 whatever the CPU: the registers SSE
# instructions reach, "even for avx512_core" as its comment says); otherwise, unless it must be stable, on
# the innermost axis of a planar layout it takes a heap sort, as it does for every such TopK it
# compiles as a dynamic node. Its `stable` is ignored when sorting by index (by experiment).
# Data of rank 1 or 2 is planar; of a higher rank the plugin lays it out as its producer does
# (a Parameter's, a MatMul's or a Softmax's planar, a Convolution's, an MVN's or an
# Interpolate's channels blocked, where the last axis is not innermost: by experiment), which
# the kernel does not know: there ties stay in index order.
_IN_REGISTERS = 6
_PLANAR_RANKS = 2


def _heap_sortable(call: KernelCall, axis: int, rank: int, sort: str) -> bool:
    """Could the plugin select this TopK's k elements by its heap sort (with k > 6, or
    compiled as a dynamic node)?"""
    stable = "stable" in call.schema.attributes and bool(call.attribute("stable"))
    return axis == rank - 1 and rank <= _PLANAR_RANKS and not (stable and sort != "index")


def _compiled_dynamic(call: KernelCall) -> bool:
    """Does the plugin compile this TopK as a dynamic node: its data's shape dynamic in the
    model as OpenVINO reads it, or its k not a constant (its outputs' shape then is)? Static
    where the caller does not know."""
    if call.compiled_static is None:
        return False
    return not call.compiled_static(0) or 1 not in call.constant_inputs


def _tied_rows(keys: np.ndarray, ranked: np.ndarray) -> np.ndarray:
    """The rows (along the last axis) where the stable order's first k + 1 (``ranked``) hold
    equal values, or any value is NaN: where the plugin's heap may order otherwise."""
    rows = keys.reshape(-1, keys.shape[-1])
    best = np.take_along_axis(rows, ranked.reshape(rows.shape[0], -1), axis=-1)
    tied: np.ndarray = (best[:, 1:] == best[:, :-1]).any(axis=-1)
    if rows.dtype.kind == "f":
        tied |= np.isnan(rows).any(axis=-1)
    return tied


def _heap_order(
    keys: np.ndarray, order: np.ndarray, tied: np.ndarray, largest: bool, by_index: bool
) -> np.ndarray:
    """The indices the plugin's heap sort gives along the last axis of ``keys``: ``order``
    (the stable one's first k) but in the ``tied`` rows, sorted again as the plugin sorts."""
    k = order.shape[-1]
    rows = keys.reshape(-1, keys.shape[-1])
    heaped = order.reshape(-1, k).copy()
    heaped[tied] = _HeapTopK(rows[tied], k, largest).extracted(by_index)
    return heaped.reshape(order.shape)


class _HeapTopK:
    """The plugin's heap top-k (its jit_uni_topk_kernel's topk_heap_sorting), on many rows at
    once: the first k elements heapified (a min-heap for the largest: a parent moves down
    only below a strictly better child, the left child on ties), each later element that
    beats the root replacing it (``!(x <= root)`` for the largest, so NaN does; ``x < root``
    for the smallest), then extracted by swapping the root to the end, by value or, sorting by
    index, after heapifying again by index."""

    def __init__(self, rows: np.ndarray, k: int, largest: bool) -> None:
        self.values = rows[:, :k].copy()
        self.positions = np.tile(np.arange(k), (rows.shape[0], 1))
        self.beats: Callable[[np.ndarray, np.ndarray], np.ndarray] = (
            (lambda a, b: ~(a <= b)) if largest else (lambda a, b: a < b)
        )
        last = k - 1
        self._heapify(last, True)
        for column in range(k, rows.shape[1]):
            taken = np.flatnonzero(self.beats(rows[:, column], self.values[:, 0]))
            if taken.size:
                self.values[taken, 0] = rows[taken, column]
                self.positions[taken, 0] = column
                self._sift(taken, 0, last, True)

    def extracted(self, by_index: bool) -> np.ndarray:
        """The k positions in the order the extraction leaves them."""
        last = self.values.shape[1] - 1
        if by_index:
            self._heapify(last, False)
        every = np.arange(self.values.shape[0])
        for end in range(last, 0, -1):
            for array in (self.values, self.positions):
                array[:, [0, end]] = array[:, [end, 0]]
            self._sift(every, 0, end - 1, not by_index)
        return self.positions

    def _heapify(self, last: int, by_value: bool) -> None:
        every = np.arange(self.values.shape[0])
        for node in range(max(last - 1, 0) >> 1, -1, -1):
            self._sift(every, node, last, by_value)

    def _sift(self, rows: np.ndarray, start: int, last: int, by_value: bool) -> None:
        """Sift the node ``start`` of ``rows`` down the heap of positions 0..last."""
        keys = self.values if by_value else self.positions
        above: Callable[[np.ndarray, np.ndarray], np.ndarray] = (
            self.beats if by_value else np.less  # (by index: a max-heap, ascending once extracted)
        )
        node = np.full(rows.size, start)
        while rows.size and last > 0:
            inside = node <= (last - 1) >> 1
            rows, node = rows[inside], node[inside]
            if not rows.size:
                return
            left, right = 2 * node + 1, np.minimum(2 * node + 2, last)
            has_right = 2 * node + 2 <= last
            child = np.where(has_right & above(keys[rows, left], keys[rows, right]), right, left)
            moves = above(keys[rows, node], keys[rows, child])
            rows, node, child = rows[moves], node[moves], child[moves]
            for array in (self.values, self.positions):
                array[rows, node], array[rows, child] = array[rows, child], array[rows, node]
            node = child


def _descending_key(keys: np.ndarray) -> np.ndarray:
    """Keys whose ascending order is ``keys``' descending order."""
    if keys.dtype.kind == "f":
        result: np.ndarray = -keys
        return result
    if keys.dtype.kind == "u":
        return np.iinfo(keys.dtype).max - keys
    return -1 - keys.astype(np.int64)  # no overflow at the type's minimum
