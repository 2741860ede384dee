"""Kernels of the reduction family (irshape/shapes/reduction.py): ReduceSum/Mean/Prod/Max/Min-1,
ReduceL1/L2-4, ReduceLogicalAnd/Or-1.

Semantics are the reference implementation's (``reference/reduce_*.hpp``), which the CPU plugin
(f32 hint) matches wherever no integer overflows and no NaN is reduced by Max/Min:

* the axes are a scalar or 1D integer tensor; negative axes count from the end, duplicates are
  one axis, no axes at all (an empty tensor) leave the data as it is (reshaped for keep_dims);
* reals are accumulated in float64 and rounded once to the data's type (f16 data: the plugin
  computes in f32 under the f32 hint, so one rounding of the exact value is what it gives);
* ReduceMean of integers truncates towards zero (C++ integer division of the sum by the count:
  ``[-7, -5, 3, 4]`` gives -1, ``[1, 2, 2, 2]`` gives 1), as the CPU plugin does;
* ReduceL2 of integers truncates the square root (``[2, 3]`` gives 3, ``[5, 5]`` 7, as the
  plugin), the squares summed in int64; an empty reduction gives 0 (Sum, L1, L2, and Mean:
  0 in the plugin, though the reference's mean of reals is NaN), 1 (Prod), the type's lowest /
  highest value (Max / Min);
* ReduceMax/Min start, as the reference and the plugin, from the lowest (highest) value of the
  computation's type, f32 for f16 data: ``max([-inf])`` is -3.4e38 in f32 and -inf in f16. They
  skip NaNs (the reference's ``std::max(acc, nan)`` keeps acc) but give NaN where every element
  is NaN, as the plugin does (the reference would give the start value).

Where the CPU plugin departs from the reference (found by experiment, OpenVINO 2026.4, not
followed, kept out of the tests): integer sums that overflow saturate for u8/i8 (``100 + 200``
gives 255, ``sum([100, 100, -100])`` 100: the exact result clamped, but over several axes each
stage clamps on its own) and become INT_MIN for i32, which is summed in f32 (16777217 reads as
16777216, even by ReduceMax); a Mean of i8/u8 divides that saturated sum; u8/i8 products mostly
clamp too, yet ``prod([255, 255, 254])`` in u8 is 0; i64 data is narrowed to i32; and
ReduceMax/Min take ``acc = x unless acc > x`` (``acc < x`` for Min) in SIMD lanes (8 with
AVX2), so a NaN in a lane survives only as its last element and drops what came before it:
``max([1, 3, 2, nan])`` is NaN, ``min([1, nan, 3, 2])`` 2, and the answer depends on the
machine's vector width. A NaN first in a short row, or NaNs only, agree with irshape. The
plugin also refuses to compile an empty axes list without keep_dims ("gets incorrect number of
input/output dimensions"); irshape returns the data as the op defines.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from irshape.kernels import KernelCall, KernelError, working_memory

DATA, AXES = 0, 1


def _reduction_bytes(call: KernelCall) -> int:
    """A float64 (or int64) copy of the data (ReduceL2's squares, Max/Min of reals) and one of
    its size for the element-wise step before (abs, NaN masks), and the output."""
    return 2 * 8 * call.inputs[DATA].size + 8 * _output_size(call)


def _output_size(call: KernelCall) -> int:
    shape = call.inference.outputs[0].shape
    return int(np.prod(call.output_shape())) if shape.is_static else call.inputs[DATA].size


def _axes(call: KernelCall) -> tuple[int, ...]:
    """The reduced axes, normalised and deduplicated (a scalar axes input is one axis)."""
    rank = call.inputs[DATA].ndim
    values = [int(v) for v in np.asarray(call.inputs[AXES]).reshape(-1)]
    normalized = {v + rank if v < 0 else v for v in values}
    if any(not 0 <= axis < max(rank, 1) for axis in normalized):
        raise KernelError(f"axes {values} out of the data's rank {rank}")
    return tuple(sorted(normalized)) if rank else ()


def _shaped(result: np.ndarray, call: KernelCall) -> np.ndarray:
    """The result in the output's dtype and the inferred shape (keep_dims or not)."""
    with np.errstate(over="ignore", invalid="ignore"):
        stored = np.asarray(result).astype(call.output_dtype(), copy=False)
    return stored.reshape(call.output_shape())


def _accumulator(x: np.ndarray) -> np.dtype[np.generic]:
    """Reals sum in float64; integers in their own type (wrapping as C++ does)."""
    return np.dtype(np.float64) if x.dtype.kind == "f" else x.dtype


def _reduce(call: KernelCall, apply: Callable[[np.ndarray, tuple[int, ...]], np.ndarray]) -> np.ndarray:
    x = call.inputs[DATA]
    with np.errstate(all="ignore"):
        return _shaped(apply(x, _axes(call)), call)


@working_memory(_reduction_bytes)
def reduce_sum(call: KernelCall) -> np.ndarray:
    """ReduceSum-1."""
    return _reduce(call, lambda x, axes: np.sum(x, axis=axes, dtype=_accumulator(x)))


@working_memory(_reduction_bytes)
def reduce_prod(call: KernelCall) -> np.ndarray:
    """ReduceProd-1."""
    return _reduce(call, lambda x, axes: np.prod(x, axis=axes, dtype=_accumulator(x)))


@working_memory(_reduction_bytes)
def reduce_l1(call: KernelCall) -> np.ndarray:
    """ReduceL1-4: the sum of absolute values."""
    return _reduce(call, lambda x, axes: np.sum(np.abs(x), axis=axes, dtype=_accumulator(x)))


@working_memory(_reduction_bytes)
def reduce_l2(call: KernelCall) -> np.ndarray:
    """ReduceL2-4: the square root of the sum of squares (truncated for integers)."""

    def l2(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        wide = np.float64 if x.dtype.kind == "f" else np.int64  # squares of i8 data stay exact
        squares = np.sum(np.square(x, dtype=wide), axis=axes)
        if x.dtype.kind == "f":  # the plugin sums the squares in f32: past FLT_MAX they are inf
            squares = np.where(squares > np.finfo(np.float32).max, np.inf, squares)
        root: np.ndarray = np.sqrt(squares.astype(np.float64))
        return root if x.dtype.kind == "f" else np.trunc(root)

    return _reduce(call, l2)


@working_memory(_reduction_bytes)
def reduce_mean(call: KernelCall) -> np.ndarray:
    """ReduceMean-1: the sum over the count; integers divide truncating towards zero."""

    def mean(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        total = np.sum(x, axis=axes, dtype=_accumulator(x))
        count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
        if count == 0:  # 0 for reals too in the plugin, not NaN (found by the kernel fuzzer)
            return np.zeros_like(total)
        if x.dtype.kind == "f":
            result: np.ndarray = np.divide(total, count)
            return result
        quotient = np.abs(total.astype(np.int64)) // count  # C++'s division: towards zero
        signed: np.ndarray = np.where(total < 0, -quotient, quotient)
        return signed

    return _reduce(call, mean)


def _extreme(call: KernelCall, pick: np.ufunc, real_pick: np.ufunc, empty: str) -> np.ndarray:
    """ReduceMax/Min from the reference's start, the lowest (Max) or highest (Min) value of the
    computation's type (f32 for f16 data too: so ``max([-inf])`` is -3.4e38 in f32 and -inf in
    f16); NaNs are skipped unless every element is NaN (``numpy.fmax``), as the plugin gives
    where its NaN handling is order-free (a NaN first, NaNs only)."""
    x = call.inputs[DATA]
    real = x.dtype.kind == "f"
    # f64 is computed in f32 by the plugin (an empty max is -FLT_MAX), and i64, u64 and u32 in
    # i32 (an empty ReduceMin of i64 is 2^31 - 1): both found by the kernel fuzzer
    wide = not real and (x.dtype.itemsize == 8 or x.dtype == np.uint32)
    info = np.finfo(np.float32) if real else np.iinfo(np.int32 if wide else x.dtype)
    start = info.min if empty == "lowest" else info.max
    axes = _axes(call)
    if any(x.shape[a] == 0 for a in axes):
        with np.errstate(over="ignore"):  # f32's lowest is -inf in f16
            return np.full(call.output_shape(), start).astype(call.output_dtype())
    if not real:
        return _shaped(pick.reduce(x, axis=axes), call)
    with np.errstate(all="ignore"):
        found = real_pick.reduce(x.astype(np.float64), axis=axes)
        return _shaped(pick(found, start), call)  # pick keeps a NaN: NaNs only stay NaN


@working_memory(_reduction_bytes)
def reduce_max(call: KernelCall) -> np.ndarray:
    """ReduceMax-1."""
    return _extreme(call, np.maximum, np.fmax, "lowest")


@working_memory(_reduction_bytes)
def reduce_min(call: KernelCall) -> np.ndarray:
    """ReduceMin-1."""
    return _extreme(call, np.minimum, np.fmin, "highest")


@working_memory(_reduction_bytes)
def reduce_logical_and(call: KernelCall) -> np.ndarray:
    """ReduceLogicalAnd-1."""
    return _reduce(call, lambda x, axes: np.all(x, axis=axes))


@working_memory(_reduction_bytes)
def reduce_logical_or(call: KernelCall) -> np.ndarray:
    """ReduceLogicalOr-1."""
    return _reduce(call, lambda x, axes: np.any(x, axis=axes))
