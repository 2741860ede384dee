"""The indexing family's kernels against OpenVINO's CPU plugin: ShapeOf, Gather, GatherElements,
GatherND, the scatters, Slice, StridedSlice, Range, NonZero and TopK, each over seeded
configurations of its attributes and element types, random and edge data (negative and
out-of-range indices, repeated indices, ties, NaN, integer extremes, empty results)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset5 as ov5
import openvino.opset7 as ov7
import openvino.opset8 as ov8
import openvino.opset11 as ov11
import openvino.opset12 as ov12
import openvino.opset15 as ov15
import pytest

from .harness import Case, parameter
from .kernel_data import DTYPES, MOVE_DTYPES, Batches, data_of, shape_of


def with_nans(rng: np.random.Generator, data: np.ndarray, reduction: str) -> np.ndarray:
    """A quarter NaN for min and max of reals (the plugin keeps a NaN element, skips a NaN update)."""
    if reduction in ("min", "max") and data.dtype.kind == "f" and data.size:
        data = data.copy()
        data[rng.random(data.shape) < 0.25] = np.nan
    return data


def reducible(data: np.ndarray, reduction: str) -> np.ndarray:
    """Data for an arithmetic reduction: the CPU plugin sums and multiplies i64 in i32 (wrapping
    at 2**31), so i64 stays small there."""
    if data.dtype == np.int64 and reduction in ("sum", "sub", "prod", "mean"):
        return data % 50 - 25
    return data


def i64(values: Any) -> ov1.constant:
    return ov1.constant(np.array(values, np.int64))


def bounds_const(values: list[int], i: int) -> ov1.constant:
    """Slice's and StridedSlice's bounds as i64, or as i32 where they fit (every other case)."""
    fits = all(-(2**31) <= v < 2**31 for v in values)
    return ov1.constant(np.array(values, np.int32 if fits and i % 2 else np.int64))


# --- ShapeOf --------------------------------------------------------------------------------


def shape_of_cases() -> list[Case]:
    rng = np.random.default_rng(1)
    cases = []
    for i in range(64):
        shape = shape_of(rng, int(rng.integers(0, 6)), lo=0 if i % 7 == 0 else 1)
        dtype = DTYPES[i % len(DTYPES)]
        x = parameter(shape, dtype)
        node = ov3.shape_of(x, "i32" if i % 4 == 1 else "i64") if i % 2 else ov1.shape_of(x)
        cases.append(Case(f"shapeof{i}", {x: data_of(rng, shape, dtype)}, [node.output(0)]))
    return cases


# --- Gather -------------------------------------------------------------------------------------


def gather_cases() -> list[Case]:
    rng = np.random.default_rng(2)
    cases = []
    for i in range(90):
        version = (1, 7, 8)[i % 3]
        batch_dims = 0 if version == 1 else int(rng.integers(0, 3))
        rank = int(rng.integers(max(1, batch_dims + 1), 5))
        shape = shape_of(rng, rank)
        axis = int(rng.integers(batch_dims, rank))
        if batch_dims:  # a batch dim of 1 crashes the CPU plugin's Gather (a segfault)
            shape = tuple(max(d, 2) for d in shape[:batch_dims]) + shape[batch_dims:]
        own_dims = int(rng.integers(0, 3))  # the indices' dims past the batch dims
        index_shape = shape[:batch_dims] + shape_of(rng, own_dims)
        if batch_dims and rng.random() < 0.5:
            batch_dims -= len(index_shape)  # the same batch dims counted from the end
        size = shape[axis]
        # Gather-1/7 with a negative index: zeros mostly, but at times (scalar indices, or
        # another batch) whatever the plugin reads before the data (not tested)
        low, high = (0, size - 1) if version < 8 else (-size, size - 1)
        indices = rng.integers(low, high, index_shape, endpoint=True)
        # out of range: zeros (but a scalar index out of range reads outside the data: not tested)
        if version == 8 and i % 4 == 0 and own_dims:
            indices.reshape(-1)[0] = size + int(rng.integers(0, 3))
            indices.reshape(-1)[-1] = -size - 1
        dtype = MOVE_DTYPES[i % len(MOVE_DTYPES)]
        index_dtype = np.int32 if i % 2 else np.int64
        x, idx = parameter(shape, dtype), parameter(index_shape, index_dtype)
        axis_value = axis - rank if rng.random() < 0.3 else axis
        if version == 1:
            node = ov1.gather(x, idx, i64(axis_value))
        elif version == 7:
            node = ov7.gather(x, idx, i64(axis_value), batch_dims)
        else:
            node = ov8.gather(x, idx, i64(axis_value), batch_dims)
        feed = {x: data_of(rng, shape, dtype), idx: indices.astype(index_dtype)}
        cases.append(Case(f"gather{version}_{i}", feed, [node.output(0)], exact=True))
    return cases


def folded_gather_cases() -> list[Case]:
    """Gathers of Consts only, which OpenVINO folds with its reference implementation when it
    compiles the model: negative indices count from the end there, out-of-range ones give
    zeros (the plugin's Gather-1/7 is unreliable on them, and so is its Gather-8 on a scalar
    index out of range)."""
    rng = np.random.default_rng(15)
    cases = []
    for i in range(16):
        shape = shape_of(rng, int(rng.integers(1, 4)))
        axis = int(rng.integers(0, len(shape)))
        size = shape[axis]
        indices = rng.integers(-size - 1, size + 1, shape_of(rng, int(rng.integers(0, 3))), endpoint=True)
        version = (1, 7, 8)[i % 3]
        if version == 8:  # a scalar index out of range: zeros (the plugin reads outside the data)
            indices = np.array(size + i % 2 if i % 4 else -size - 1)
        dtype = DTYPES[i % len(DTYPES)]
        data = ov1.constant(data_of(rng, shape, dtype))
        gather = {1: ov1.gather, 7: ov7.gather, 8: ov8.gather}[version]
        node = gather(data, ov1.constant(indices.astype((np.int32, np.int64)[i // 2 % 2])), i64(axis))
        cases.append(Case(f"folded_gather{version}_{i}", {}, [node.output(0)], exact=True))
    for i in range(6):  # batch dims of 1 (the plugin crashes on them)
        shape = (1, *shape_of(rng, 2))
        index_shape = (1, *shape_of(rng, 1))
        indices = rng.integers(-shape[2], shape[2], index_shape)
        data = ov1.constant(data_of(rng, shape, DTYPES[i % len(DTYPES)]))
        node = ov8.gather(data, ov1.constant(indices), i64(2), 1)
        cases.append(Case(f"folded_gather8_batch{i}", {}, [node.output(0)], exact=True))
    return cases


def gather_elements_cases() -> list[Case]:
    rng = np.random.default_rng(3)
    cases = []
    for i in range(36):
        rank = int(rng.integers(1, 5))
        shape = shape_of(rng, rank)
        axis = int(rng.integers(-rank, rank))
        index_shape = tuple(
            int(rng.integers(1, 6)) if a in (axis, axis + rank) else d for a, d in enumerate(shape)
        )
        size = shape[axis]
        indices = rng.integers(-size if i % 2 else 0, size - 1, index_shape, endpoint=True)
        dtype = MOVE_DTYPES[i % len(MOVE_DTYPES)]
        index_dtype = np.int32 if i % 3 else np.int64
        x, idx = parameter(shape, dtype), parameter(index_shape, index_dtype)
        node = ov8.gather_elements(x, idx, axis)
        feed = {x: data_of(rng, shape, dtype), idx: indices.astype(index_dtype)}
        cases.append(Case(f"gather_elements{i}", feed, [node.output(0)], exact=True))
    return cases


def gather_nd_cases() -> list[Case]:
    rng = np.random.default_rng(4)
    cases = []
    for i in range(64):
        version = 5 if i % 2 else 8
        batch_dims = int(rng.integers(0, 3))
        rank = int(rng.integers(batch_dims + 1, batch_dims + 4))
        shape = shape_of(rng, rank)
        depth = int(rng.integers(1, rank - batch_dims + 1))
        index_shape = shape[:batch_dims] + shape_of(rng, int(rng.integers(0, 3))) + (depth,)
        if i % 8 == 5:  # no indices: an empty output
            index_shape = (*shape[:batch_dims], 0, depth)
        sizes = np.array(shape[batch_dims : batch_dims + depth])
        indices = rng.integers(0, 1 << 20, index_shape) % sizes
        if i % 3 == 0:  # counted from the end
            indices = indices - sizes
        dtype = MOVE_DTYPES[i % len(MOVE_DTYPES)]
        index_dtype = np.int32 if i % 4 < 2 else np.int64
        x, idx = parameter(shape, dtype), parameter(index_shape, index_dtype)
        node = (ov5 if version == 5 else ov8).gather_nd(x, idx, batch_dims)
        feed = {x: data_of(rng, shape, dtype), idx: indices.astype(index_dtype)}
        cases.append(Case(f"gather_nd{version}_{i}", feed, [node.output(0)], exact=True))
    return cases


# --- the scatters -------------------------------------------------------------------------------


def scatter_update_cases() -> list[Case]:
    rng = np.random.default_rng(5)
    cases = []
    for i in range(36):
        rank = int(rng.integers(1, 5))
        shape = shape_of(rng, rank)
        axis = int(rng.integers(-rank, rank))
        size = shape[axis]
        # scalar indices: the CPU plugin refuses them ("do not support scalar input")
        index_shape = shape_of(rng, int(rng.integers(1, 3)), hi=3)
        count = int(np.prod(index_shape))
        unique = i % 3 != 0 and count <= size  # else repeated indices: the last one wins
        if unique:
            indices = rng.permutation(size)[:count].reshape(index_shape)
        else:
            indices = rng.integers(0, size, index_shape)
        normalized = axis + rank if axis < 0 else axis
        updates_shape = shape[:normalized] + index_shape + shape[normalized + 1 :]
        dtype = MOVE_DTYPES[i % len(MOVE_DTYPES)]
        index_dtype = np.int32 if i % 2 else np.int64
        x, idx, upd = (
            parameter(shape, dtype),
            parameter(index_shape, index_dtype),
            parameter(updates_shape, dtype),
        )
        node = ov3.scatter_update(x, idx, upd, i64(axis))
        feed = {
            x: data_of(rng, shape, dtype),
            idx: indices.astype(index_dtype),
            upd: data_of(rng, updates_shape, dtype),
        }
        cases.append(Case(f"scatter_update{i}", feed, [node.output(0)], exact=True))
    # Empty data: the plugin does not run the node (its output is the empty data), so an index
    # outside the axis is no failure there (a TensorFlow TensorList's first write, in a Loop
    # body, scatters into [0, n] at the iteration's index)
    empty = [((0, 2), [3], (1, 2), 0), ((2, 0), [5], (1, 0), 0), ((2, 0), [1, 7], (2, 2), 1)]
    for i, (shape, positions, updates_shape, axis) in enumerate(empty):
        x, idx, upd = (
            parameter(shape, np.float32),
            parameter((len(positions),), np.int64),
            parameter(updates_shape, np.float32),
        )
        node = ov3.scatter_update(x, idx, upd, i64(axis))
        feed = {
            x: np.zeros(shape, np.float32),
            idx: np.array(positions),
            upd: np.ones(updates_shape, np.float32),
        }
        cases.append(Case(f"scatter_update_empty{i}", feed, [node.output(0)], exact=True))
    return cases


ND_REDUCTIONS = ["none", "sum", "sub", "prod", "min", "max"]


def scatter_nd_cases() -> list[Case]:
    rng = np.random.default_rng(6)
    cases = []
    for i in range(120):
        version = 3 if i % 4 == 0 else 15
        reduction = "none" if version == 3 else ND_REDUCTIONS[i % len(ND_REDUCTIONS)]
        rank = int(rng.integers(1, 5))
        shape = shape_of(rng, rank)
        depth = int(rng.integers(1, rank + 1))
        leading = shape_of(rng, int(rng.integers(1, 3)), hi=4)
        if i % 16 == 7:  # no updates: the data unchanged
            leading = (0,)
        sizes = np.array(shape[:depth])
        cells = int(np.prod(sizes))
        count = int(np.prod(leading))
        repeated = reduction != "none" or (i % 5 == 0 and version == 15)
        flat = rng.integers(0, cells, count) if repeated or count > cells else rng.permutation(cells)[:count]
        indices = np.stack(np.unravel_index(flat, tuple(shape[:depth])), axis=-1).reshape(*leading, depth)
        if i % 3 == 1:
            indices = indices - sizes
        updates_shape = leading + shape[depth:]
        dtype = DTYPES[i % len(DTYPES)]
        index_dtype = np.int32 if i % 2 else np.int64
        x, idx, upd = (
            parameter(shape, dtype),
            parameter(indices.shape, index_dtype),
            parameter(updates_shape, dtype),
        )
        if version == 3:
            node = ov4.scatter_nd_update(x, idx, upd)
        else:
            node = ov15.scatter_nd_update(x, idx, upd, reduction)
        feed = {
            x: with_nans(rng, reducible(data_of(rng, shape, dtype), reduction), reduction),
            idx: indices.astype(index_dtype),
            upd: with_nans(rng, reducible(data_of(rng, updates_shape, dtype), reduction), reduction),
        }
        cases.append(Case(f"scatter_nd{version}_{reduction}_{i}", feed, [node.output(0)], exact=True))
    return cases


ELEMENT_REDUCTIONS = ["none", "sum", "prod", "min", "max", "mean"]


def scatter_elements_cases() -> list[Case]:
    rng = np.random.default_rng(7)
    cases = []
    for i in range(120):
        version = 3 if i % 4 == 0 else 12
        reduction = "none" if version == 3 else ELEMENT_REDUCTIONS[i % len(ELEMENT_REDUCTIONS)]
        use_init_val = bool(i // len(ELEMENT_REDUCTIONS) % 2)
        rank = int(rng.integers(1, 4))
        shape = shape_of(rng, rank)
        axis = int(rng.integers(-rank, rank))
        index_shape = tuple(int(rng.integers(1, d + 1)) for d in shape)
        size = shape[axis]
        if reduction == "none" and index_shape[axis] <= size and i % 3:  # distinct along the axis
            keys_shape = tuple(size if a == axis % rank else d for a, d in enumerate(index_shape))
            order = np.argsort(rng.random(keys_shape), axis=axis)
            indices = np.take(order, np.arange(index_shape[axis]), axis=axis)
        else:
            indices = rng.integers(0, size, index_shape)
        if i % 4 == 1:
            indices = indices - size
        dtype = DTYPES[i % len(DTYPES)]
        if dtype is np.bool_ and reduction == "mean":  # (refused on booleans)
            dtype = np.float32
        index_dtype = np.int32 if i % 2 else np.int64
        x, idx, upd = (
            parameter(shape, dtype),
            parameter(index_shape, index_dtype),
            parameter(index_shape, dtype),
        )
        if version == 3:
            node = ov3.scatter_elements_update(x, idx, upd, i64(axis))
        else:
            node = ov12.scatter_elements_update(x, idx, upd, i64(axis), reduction, use_init_val)
        feed = {
            x: with_nans(rng, reducible(data_of(rng, shape, dtype), reduction), reduction),
            idx: np.ascontiguousarray(indices).astype(index_dtype),
            upd: with_nans(rng, reducible(data_of(rng, index_shape, dtype), reduction), reduction),
        }
        name = f"scatter_elements{version}_{reduction}_{int(use_init_val)}_{i}"
        cases.append(Case(name, feed, [node.output(0)], exact=True))
    return cases


# --- Slice and StridedSlice ---------------------------------------------------------------------

EXTREMES = [2**63 - 1, -(2**63), 2**31 - 1, -(2**31)]


def _bound(rng: np.random.Generator, size: int) -> int:
    if rng.random() < 0.1:
        return int(rng.choice(EXTREMES))
    return int(rng.integers(-size - 2, size + 3))


def slice_cases() -> list[Case]:
    rng = np.random.default_rng(8)
    cases = []
    for i in range(48):
        rank = int(rng.integers(1, 5))
        shape = shape_of(rng, rank, hi=6)
        count = int(rng.integers(1, rank + 1))
        axes = [int(a) for a in rng.permutation(rank)[:count]]
        axes = [a - rank if rng.random() < 0.3 else a for a in axes]
        start = [_bound(rng, shape[a]) for a in axes]
        stop = [_bound(rng, shape[a]) for a in axes]
        step = [int(rng.choice([1, 1, 2, 3, -1, -2])) for _ in axes]
        dtype = MOVE_DTYPES[i % len(MOVE_DTYPES)]
        x = parameter(shape, dtype)
        feed = {x: data_of(rng, shape, dtype)}
        if i % 3 == 2:  # start, stop and step fed at run time (a dynamic slice)
            bounds = []
            for values in (start, stop, step):
                node = parameter((len(values),), np.int64)
                feed[node] = np.array(values, np.int64)
                bounds.append(node)
        else:
            bounds = [bounds_const(values, i) for values in (start, stop, step)]
        if i % 4 == 0 and sorted(axes) == list(range(count)):
            node = ov8.slice(x, *bounds)
        else:
            node = ov8.slice(x, *bounds, bounds_const(axes, i))
        cases.append(Case(f"slice{i}", feed, [node.output(0)], exact=True))
    return cases


def _masks(rng: np.random.Generator, count: int) -> dict[str, list[int]]:
    masks = {
        name: [int(b) for b in rng.random(count) < 0.3]
        for name in ("begin", "end", "new_axis", "shrink_axis")
    }
    ellipsis = [0] * count
    if rng.random() < 0.3:
        at = int(rng.integers(0, count))
        ellipsis[at] = 1
        masks["shrink_axis"][at] = 0  # with the ellipsis's bit the plugin's plan shrinks too
    masks["ellipsis"] = ellipsis
    if any(masks["new_axis"]):  # with a new axis the plugin reads past a shrunk input
        masks["shrink_axis"] = [0] * count
    return masks


def strided_slice_cases() -> list[Case]:
    rng = np.random.default_rng(9)
    cases = []
    while len(cases) < 64:
        i = len(cases)
        rank = int(rng.integers(1, 5))
        shape = shape_of(rng, rank, hi=6)
        count = int(rng.integers(1, rank + 2))
        masks = _masks(rng, count)
        if i % 3 == 0:  # shrunk axes with their begin masked: taken at 0
            masks["begin"] = [b | s for b, s in zip(masks["begin"], masks["shrink_axis"], strict=True)]
        ellipsis, new_axis = set(np.flatnonzero(masks["ellipsis"])), set(np.flatnonzero(masks["new_axis"]))
        consumed = sum(1 for a in range(count) if a not in ellipsis and a not in new_axis)
        if consumed > rank:
            continue
        begin, end, strides = [], [], []
        axis = 0  # the data axis of position a
        for a in range(count):
            size = shape[min(axis, rank - 1)]
            begin.append(_bound(rng, size))
            end.append(_bound(rng, size))
            strides.append(int(rng.choice([1, 1, 2, -1, -2, 3])))
            if a in ellipsis:
                axis += rank - consumed
            elif a not in new_axis:
                if masks["shrink_axis"][a]:  # in range, or the plugin refuses the layer
                    begin[-1] = int(rng.integers(-size, size))
                    if masks["begin"][a]:  # masked: taken at 0, not at a begin that is not 0
                        begin[-1] = size - 1
                axis += 1
        dtype = MOVE_DTYPES[i % len(MOVE_DTYPES)]
        x = parameter(shape, dtype)
        if i % 5 == 0:
            strides = [1] * count
        node = ov1.strided_slice(
            x,
            bounds_const(begin, i),
            bounds_const(end, i),
            bounds_const(strides, i),
            masks["begin"],
            masks["end"],
            masks["new_axis"],
            masks["shrink_axis"],
            masks["ellipsis"],
        )
        cases.append(Case(f"strided_slice{i}", {x: data_of(rng, shape, dtype)}, [node.output(0)], exact=True))
    return cases


def folded_strided_slice_cases() -> list[Case]:
    """StridedSlices of Consts with new axes and shrunk axes together, which OpenVINO folds
    with its reference implementation when it compiles the model (the plugin reads past its
    input there)."""
    rng = np.random.default_rng(16)
    cases = []
    for i in range(12):
        shape = shape_of(rng, int(rng.integers(2, 4)), lo=2)
        count = len(shape) + 1
        new_axis = [0] * count
        new_axis[int(rng.integers(0, count))] = 1
        shrink = [0] * count
        shrink_at = next(a for a in range(count) if not new_axis[a])
        shrink[shrink_at] = 1
        begin = [int(rng.integers(-2, 2)) for _ in range(count)]
        end = [b + 1 if b != -1 else 2**31 for b in begin]
        data = ov1.constant(data_of(rng, shape, DTYPES[i % len(DTYPES)]))
        masks = [[0] * count, [0] * count, new_axis, shrink, [0] * count]
        node = ov1.strided_slice(data, i64(begin), i64(end), i64([1] * count), *masks)
        cases.append(Case(f"folded_strided_slice{i}", {}, [node.output(0)], exact=True))
    return cases


# --- Range and NonZero ------------------------------------------------------------------------


def range_cases() -> list[Case]:
    rng = np.random.default_rng(10)
    cases = []
    for i in range(90):
        version = 1 if i % 3 == 0 else 4
        integral = i % 2 == 0
        if integral:
            step: float = int(rng.choice([1, 2, 3, -1, -2, 5]))
            start: float = int(rng.integers(-20, 20))
            stop: float = start + step * int(rng.integers(0, 12)) + int(rng.integers(0, 2)) * np.sign(step)
        else:
            step = float(rng.choice([0.5, 0.25, 1.5, -0.75, -2.0, 0.1, 0.3]))
            start = float(np.round(rng.uniform(-5, 5), 2))
            stop = float(start + step * rng.uniform(0, 15))
        # not a step leading away from stop: the plugin (dynamic shapes) then gives
        # ceil(|stop - start| / |step|) elements, OpenVINO's shape inference and spec none
        if version == 1:
            types = [[np.int32, np.int64, np.int8] if integral else [np.float32, np.float16][i % 2]] * 3
            types = [
                [np.int32, np.int64, np.int8][i % 3] if integral else [np.float32, np.float16][i % 2]
            ] * 3
            output_type = None
        else:
            choices = (
                [np.int32, np.int64, np.int8, np.float32, np.float16]
                if integral
                else [np.float32, np.float16]
            )
            types = [choices[int(rng.integers(0, len(choices)))] for _ in range(3)]
            output_type = ["f32", "i32", "i64", "f16", "i8"][i % 5]
            if output_type[0] == "i" and not integral:
                # OpenVINO truncates reals to an integer output type first; the plugin computes
                # in f32 and rounds to nearest: they agree on whole numbers
                step = float(rng.choice([1.0, -2.0, 3.0, -1.0]))
                start = float(int(start))
                stop = float(start + step * int(rng.integers(0, 15)))
        params = [parameter((), t) for t in types]
        feed = dict(
            zip(
                params, (np.array(v, t) for v, t in zip((start, stop, step), types, strict=True)), strict=True
            )
        )
        node = ov1.range(*params) if output_type is None else ov12.range(*params, output_type)
        cases.append(Case(f"range{version}_{i}", feed, [node.output(0)]))
    return cases


def folded_range_cases() -> list[Case]:
    """Ranges of Consts only, which OpenVINO folds with its reference implementation when it
    compiles the model: real bounds made integers are truncated there (the plugin rounds), a
    step leading away from stop gives nothing (the plugin goes away from it)."""
    rng = np.random.default_rng(13)
    cases = []
    for i in range(16):
        start = float(np.round(rng.uniform(-6, 6), 2))
        step = float(rng.choice([1.7, -1.3, 2.9, -2.5, 1.2]))
        stop = start + step * float(rng.uniform(1, 8))
        if i % 4 == 3:  # a step leading away from stop: no elements (the plugin gives some)
            stop = start - step * 3
        input_type = (np.float32, np.float16)[i % 2]
        output_type = ("i32", "i64", "i8", "f32")[i % 4]
        scalars = [ov1.constant(np.array(v, input_type)) for v in (start, stop, step)]
        node = ov12.range(*scalars, output_type)
        cases.append(Case(f"folded_range{i}_{output_type}", {}, [node.output(0)]))
    return cases


def non_zero_cases() -> list[Case]:
    rng = np.random.default_rng(11)
    cases = []
    for i in range(36):
        rank = int(rng.integers(0, 5))
        shape = shape_of(rng, rank, lo=0 if i % 9 == 0 else 1)
        dtype = DTYPES[i % len(DTYPES)]
        data = data_of(rng, shape, dtype)
        if i % 4 == 0 and (rank or np.dtype(dtype).kind == "f"):
            # an empty result; of a scalar zero the plugin gives [1, 0], OpenVINO's shape
            # inference [0, 0] where it knows the value (an integer scalar: irshape's too)
            data = np.zeros(shape, dtype)
        elif i % 4 == 1:
            data = np.where(rng.random(shape) < 0.7, data, 0).astype(dtype)
        x = parameter(shape, dtype)
        node = ov3.non_zero(x, "i32" if i % 2 else "i64")
        cases.append(Case(f"non_zero{i}", {x: data}, [node.output(0)]))
    return cases


# --- TopK ---------------------------------------------------------------------------------------


def topk_cases() -> list[Case]:
    rng = np.random.default_rng(12)
    cases = []
    for i in range(96):
        version = (1, 3, 11)[i % 3]
        rank = int(rng.integers(1, 4))
        shape = shape_of(rng, rank, hi=7)
        axis = int(rng.integers(-rank, rank))
        k = int(rng.integers(1, shape[axis] + 1))
        mode = ("max", "min")[i // 3 % 2]
        sort = ("value", "index", "none")[i // 6 % 3]
        dtype = [np.float32, np.int32, np.float16, np.int64, np.uint8, np.int8][i % 6]
        if version == 1 and np.dtype(dtype).kind != "f":
            dtype = np.float32
        # no NaN: the plugin's order of NaNs depends on its sorting algorithm (a NaN compares
        # false with everything), neither first nor last
        data = data_of(rng, shape, dtype)
        if i % 4 == 0:
            with np.errstate(invalid="ignore"):
                data = (data % 3).astype(dtype)  # ties
        data = np.nan_to_num(data, nan=0.0, posinf=np.inf, neginf=-np.inf)
        x = parameter(shape, dtype)
        feed = {x: data}
        index_type = "i32" if i % 2 else "i64"
        k_node = i64(k)
        if i % 5 == 3:  # k fed at run time
            k_node = parameter((), np.int32 if i % 2 else np.int64)
            feed[k_node] = np.array(k, k_node.get_output_element_type(0).to_dtype())
        if version == 1:
            node = ov1.topk(x, k_node, axis, mode, sort)
        elif version == 3:
            node = ov3.topk(x, k_node, axis, mode, sort, index_type)
        else:
            stable = sort != "none" and bool(i % 4 < 2)
            node = ov11.topk(x, k_node, axis, mode, sort, index_type, stable)
        cases.append(
            Case(f"topk{version}_{mode}_{sort}_{i}", feed, [node.output(0), node.output(1)], exact=True)
        )
    return cases


def chain_cases() -> list[Case]:
    """The family's ops feeding each other, as shape subgraphs and post-processing do: the
    executor hands each value on to the next layer's inference."""
    rng = np.random.default_rng(14)
    cases = []
    for i in range(12):
        shape = shape_of(rng, 3, lo=2, hi=6)
        dtype = (np.float32, np.int32, np.float16)[i % 3]
        x = parameter(shape, dtype)
        data = data_of(rng, shape, dtype)
        if data.dtype.kind == "f":
            data = np.nan_to_num(data, nan=0.5, posinf=np.inf, neginf=-np.inf)
        dims = ov3.shape_of(x, ("i64", "i32")[i % 2])
        length = ov8.gather(dims, ov1.constant(np.array(1, np.int64)), i64(0))  # a scalar
        one = ov1.constant(np.array(1, ("int64", "int32")[i % 2]))
        zero = ov1.constant(np.array(0, ("int64", "int32")[i % 2]))
        positions = ov12.range(zero, length, one, ("i64", "i32")[i % 2])
        backwards = ov8.slice(positions, i64([-1]), i64([-(2**63)]), i64([-1]))
        reversed_x = ov8.gather(x, backwards, i64(1))  # axis 1 reversed
        k = ov8.gather(dims, i64(2), i64(0))
        top = ov11.topk(reversed_x, k, 2, "max", "value", "i64")  # every element, sorted
        picked = ov8.gather_elements(x, top.output(1), 2)
        updated = ov3.scatter_update(
            x,
            ov1.constant(np.array([0], np.int64)),
            ov8.slice(reversed_x, i64([0]), i64([1]), i64([1])),
            i64(0),
        )
        cases.append(
            Case(
                f"chain{i}",
                {x: data},
                [
                    positions.output(0),
                    reversed_x.output(0),
                    top.output(0),
                    picked.output(0),
                    updated.output(0),
                ],
            )
        )
    return cases


SUITES: dict[str, Callable[[], list[Case]]] = {
    "shape_of": shape_of_cases,
    "gather": gather_cases,
    "folded_gather": folded_gather_cases,
    "gather_elements": gather_elements_cases,
    "gather_nd": gather_nd_cases,
    "scatter_update": scatter_update_cases,
    "scatter_nd": scatter_nd_cases,
    "scatter_elements": scatter_elements_cases,
    "slice": slice_cases,
    "strided_slice": strided_slice_cases,
    "folded_strided_slice": folded_strided_slice_cases,
    "range": range_cases,
    "folded_range": folded_range_cases,
    "non_zero": non_zero_cases,
    "topk": topk_cases,
    "chain": chain_cases,
}
CASES = {name: make() for name, make in SUITES.items()}
ALL = [(name, case) for name, cases in CASES.items() for case in cases]


@pytest.fixture(scope="module")
def batches(tmp_path_factory: pytest.TempPathFactory) -> Batches:
    return Batches(CASES, tmp_path_factory)


@pytest.mark.parametrize(("suite", "case"), ALL, ids=[case.name for _, case in ALL])
def test_kernel_matches_openvino(batches: Batches, suite: str, case: Case) -> None:
    problem = batches[suite].mismatch(case)
    assert problem is None, problem


def _irshape_outcomes(tmp_path: Any, node: Any, inputs: dict[Any, np.ndarray]) -> list[Any]:
    """What irshape's executor makes of a one-layer model OpenVINO's plugin refuses."""
    from irshape.execute.network import execute
    from irshape.ir.reader import read_file

    for i, param in enumerate(inputs):
        param.set_friendly_name(f"in{i}")
    xml = tmp_path / "refused.xml"
    ov.save_model(ov.Model([node.output(k) for k in range(node.get_output_size())], list(inputs)), xml)
    document = read_file(xml).document
    assert document is not None
    feed = {f"in{i}": value for i, value in enumerate(inputs.values())}
    return [failure.outcome for failure in execute(document, feed, stop_at_failure=False).failures]


def test_topk_k_past_the_axis_is_refused_as_openvino_refuses_it(tmp_path: Any) -> None:
    from irshape.execute.network import Outcome

    x = parameter((2, 3), np.float32)
    node = ov11.topk(x, i64(5), 1, "max", "value", "i32")
    # the CPU plugin: "TopK node ... K (5) exceeds the axis dimension (3)."
    with pytest.raises(RuntimeError, match="exceeds the axis dimension"):
        ov.Core().compile_model(ov.Model([node.output(0)], [x]), "CPU")
    outcomes = _irshape_outcomes(tmp_path, node, {x: np.zeros((2, 3), np.float32)})
    assert outcomes == [Outcome.UNSUPPORTED]


def test_topk_k_of_zero_is_refused_as_openvino_refuses_it(tmp_path: Any) -> None:
    """Found by the kernel fuzzer: irshape gave empty outputs."""
    from irshape.execute.network import Outcome

    x = parameter((2, 3), np.float32)
    node = ov11.topk(x, i64(0), 1, "max", "value", "i32")
    with pytest.raises(RuntimeError, match="must be greater or equal to 1"):
        ov.Core().compile_model(ov.Model([node.output(0)], [x]), "CPU")
    outcomes = _irshape_outcomes(tmp_path, node, {x: np.zeros((2, 3), np.float32)})
    assert outcomes == [Outcome.UNSUPPORTED]


def test_scatter_update_negative_index_is_refused(tmp_path: Any) -> None:
    from irshape.execute.network import Outcome

    x, idx, upd = parameter((4,), np.float32), parameter((1,), np.int32), parameter((1,), np.float32)
    node = ov3.scatter_update(x, idx, upd, i64(0))
    data = {x: np.zeros(4, np.float32), idx: np.array([-1], np.int32), upd: np.ones(1, np.float32)}
    compiled = ov.Core().compile_model(ov.Model([node.output(0)], list(data)), "CPU")
    with pytest.raises(RuntimeError, match="non-existing output tensor element"):
        compiled(list(data.values()))
    assert _irshape_outcomes(tmp_path, node, data) == [Outcome.KERNEL_FAILED]
