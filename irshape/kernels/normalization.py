"""Kernels of the normalization family (irshape/shapes/normalization.py): Softmax-1/8,
LogSoftmax-5, MVN-2/6, NormalizeL2-1, GroupNormalization-12, BatchNormInference-1/5, LRN-1,
GRN-1 and FakeQuantize-1.

Formulas are the reference implementation's (``reference/<op>.hpp``), computed in float64 and
rounded once to the data's type (f16 data is computed in f32 by the CPU plugin under the f32
hint, closer to the exact value than to an f16 computation), but Softmax and LogSoftmax:

* Softmax: ``exp(x - max) / sum(exp(x - max))`` along the axis; LogSoftmax
  ``x - max - log(sum(exp(x - max)))``. Both in f32 in the plugin's order of operations, with
  its exp (``plugin_exp``): Softmax is oneDNN's ``e * (1 / sum)``, bit for bit (along the
  innermost axis its four accumulators of 16 lanes); LogSoftmax is decomposed into a ReduceSum
  (its order followed) and the C library's logf (not followed: docs/execution.md).
  Where ``x - max`` is NaN (a +inf less the +inf max, a
  NaN, a row of -inf) the CPU plugin's exp gives +inf: the sum is infinite, so such elements are
  NaN and the rest of the row 0 (LogSoftmax: -inf). The reference makes the whole row NaN; the
  plugin agrees with irshape there, except that its maximum is NaN (and the row all NaN) when a
  NaN comes last in its SIMD lane (``softmax([1, 2, nan])``), which irshape does not follow.
* MVN: ``(x - mean) / sqrt(var + eps)`` (inside_sqrt; MVN-2 always) or ``/ (sqrt(var) + eps)``
  (outside_sqrt), the variance the mean of squared deviations, over the reduction axes: MVN-6's
  axes input, MVN-2's ``reduction_axes`` or, where it is empty, axes 1.. (``across_channels``) or
  2.. of the data; without normalize_variance only the mean goes. In f32 as the plugin computes
  it, bit for bit: its MVN node (axes 1.. or 2.., rank 1) with its order of the sums and
  ``(x - mean) * (1 / sqrt(.))`` (:func:`_mvn_f32`), MVN-6's decomposition over other axes
  where the innermost is not reduced or is the only one (:func:`_mvn_decomposed`: its Reduce
  and RMS nodes); else (and f64) in float64.
* NormalizeL2: ``x / sqrt(sum(x^2) + eps)`` (add) or ``/ sqrt(max(sum(x^2), eps))`` (max) over the
  axes; with no axes the reference gives 1 for each non-zero element and 0 for zeros.
* GroupNormalization: per batch and group of channels ``(x - mean) / sqrt(var + eps)``, then the
  channel's scale and bias (in f32 as the plugin's Snippets kernel computes it, bit for bit);
  BatchNormInference ``(x - mean) / sqrt(var + eps) * gamma + beta`` along axis 1; GRN
  ``x / sqrt(sum_c(x^2) + bias)`` along axis 1.
* LRN: ``x / (bias + alpha / size^len(axes) * sum(x^2 over the window))^beta``, the window
  ``[i - (size-1)//2, i + (size-1)//2]`` on each axis, clipped at the edges (an even size
  spans size - 1); in f32 as oneDNN's reference LRN computes it, bit for bit (:func:`lrn`).
  The CPU plugin builds LRN for axes [1] and [2, 3] (agreeing with this) and
  [1, 2, 3], which it computes otherwise (off by up to 50%, no scale of the reference's form
  matches); other axes it cannot build ("Cannot fallback on ngraph reference implementation").
* FakeQuantize: ``ol`` where ``x <= min(il, ih)``, ``oh`` where ``x > max(il, ih)``, else
  ``round(x * scale + shift) * ((oh - ol) / (levels-1)) + ol`` with ``scale = (levels-1) /
  (ih - il)`` and ``shift = -il * scale``, every step in float32 (round half to even), as the
  plugin computes it, bit for bit (by experiment on values at and next to the rounding
  boundaries: the op's own ``(x - il) / (ih - il) * (levels-1)``, in float32 as OpenVINO's
  reference or in float64, lands on the other side of a boundary at about one in twenty of
  them; levels 3 on [0, 1] takes 0.25 to 0 and 0.75 to 1), the four limits broadcast to the
  data as ``auto_broadcast`` says (pdpd: lined up from ``auto_broadcast_axis``, -1 the end,
  trailing ones dropped).

FakeQuantize and the CPU plugin: by default its low-precision transformations run a FakeQuantize
that feeds a Convolution (weights behind a FakeQuantize too) in u8/i8, which misses the op's
definition by up to a quantization step (levels 255 on [-1, 1]: 0.05 on outputs of 11, by
experiment); compiled with ``{"INFERENCE_PRECISION_HINT": "f32", "LP_TRANSFORMS_MODE": False}``
it computes in f32 and agrees with this kernel (tests/execution/test_normalization.py). With pdpd
limits of a lower rank than the data's (``[2]`` for ``[2, 3, 4]``, axis 0) the plugin lines them up
otherwise, and OpenVINO's FakeQuantizeDecomposition fails on them ("Argument shapes are
inconsistent"): irshape follows the definition there, untested against OpenVINO.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np

from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError, working_memory
from irshape.kernels.elementwise import fma_f32, plugin_exp, powf_f32
from irshape.kernels.narrow_reals import rounded_to

DATA = 0


def _float64_bytes(call: KernelCall) -> int:
    """The kernels compute in float64: the data's copy and up to seven temporaries of its size
    (centred values, squares, exp, masks), and the limits FakeQuantize broadcasts."""
    return 8 * 8 * call.inputs[DATA].size + sum(8 * a.size for a in call.inputs[1:])


def _exp_bytes(call: KernelCall) -> int:
    """Softmax and LogSoftmax: :func:`plugin_exp`'s exact fused multiply-adds hold up to ten
    float64 temporaries of the data's size at once (measured: 84 bytes an element), beside the
    f32 data, its shifted copy and the result."""
    return 12 * 8 * call.inputs[DATA].size


def _fma_bytes(call: KernelCall) -> int:
    """GroupNormalization and LRN: :func:`fma_f32` over the whole data holds float64 products
    and sums of its size (measured: up to 77 bytes an element, LRN's JIT emulation), beside the
    other inputs."""
    return 12 * 8 * call.inputs[DATA].size + sum(8 * a.size for a in call.inputs[1:])


def _exact(x: np.ndarray) -> np.ndarray:
    """The data as float64, where every formula is computed."""
    return x.astype(np.float64)


def _out(result: np.ndarray, call: KernelCall) -> np.ndarray:
    return np.asarray(result).astype(call.output_dtype(), copy=False)


def _axis(axis: int, rank: int) -> int:
    return axis + rank if axis < 0 else axis


def _axes_of(values: np.ndarray, rank: int) -> tuple[int, ...]:
    """An axes input's values, normalised, deduplicated and sorted."""
    axes = {_axis(int(v), rank) for v in np.asarray(values).reshape(-1)}
    if any(not 0 <= a < max(rank, 1) for a in axes):
        raise KernelError(f"axes {sorted(axes)} out of the data's rank {rank}")
    return tuple(sorted(axes))


# --- Softmax, LogSoftmax -------------------------------------------------------------------


def _softmax_parts(call: KernelCall) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The data less its maximum along the axis (NaNs skipped), in f32 as the plugin computes
    (f64 data saturated to f32's range), where that difference is NaN (a NaN, or +inf less
    +inf), whether a row has any such element, and the axis."""
    x = call.inputs[DATA]
    if x.dtype == np.float64:
        limit = np.finfo(np.float32).max
        x = np.clip(x, -limit, limit)
    x = x.astype(np.float32).reshape(1) if x.ndim == 0 else x.astype(np.float32)  # Softmax-1 of a scalar
    axis = _axis(int(call.attribute("axis")), x.ndim)
    with np.errstate(invalid="ignore"):
        # (initial: data with a dim of 0 has no maximum; found by the kernel fuzzer)
        shifted = x - np.fmax.reduce(x, axis=axis, keepdims=True, initial=-np.inf)
    undefined = np.isnan(shifted)
    return shifted, undefined, np.any(undefined, axis=axis, keepdims=True), axis


def _sum_in_order(values: np.ndarray, axis: int) -> np.ndarray:
    """The sum along ``axis`` one element after the other, in the values' type (as the plugin
    sums along an axis that is not the innermost; numpy's sum is pairwise)."""
    if values.shape[axis] == 0:
        return np.zeros_like(values.sum(axis=axis, keepdims=True))
    return np.cumsum(values, axis=axis).take([-1], axis=axis)


# oneDNN's vector lanes on avx512 (16 f32; avx2 has 8: another order of the sums)
_LANES = 16


def _sum_in_lanes(values: np.ndarray, axis: int, *, four_accumulators: bool = False) -> np.ndarray:
    """The f32 sum along ``axis`` as oneDNN's JIT sums a row it holds contiguously: the row in
    vectors of 16 lanes, vector i added into accumulator ``i % 4`` (its softmax keeps four;
    GroupNormalization's Snippets kernel one), the tail's lanes into the first,
    the accumulators added as ``(a0 + a1) + (a2 + a3)``, then the lanes pairwise: lane i and
    lane i ^ 8, i ^ 4, i ^ 2, i ^ 1. Bit for bit (by experiment and the JIT code)."""
    moved = np.moveaxis(values, axis, -1)
    vectors, tail = divmod(moved.shape[-1], _LANES)
    chunks = np.zeros((*moved.shape[:-1], vectors + (tail > 0), _LANES), np.float32)
    chunks.reshape(*moved.shape[:-1], -1)[..., : moved.shape[-1]] = moved
    if not four_accumulators:
        lanes = _sum_in_order(chunks, chunks.ndim - 2)[..., 0, :]
    else:  # (the tail is in the last chunk: into the first accumulator, after its vectors)
        partial = [_sum_in_order(chunks[..., i:vectors:4, :], chunks.ndim - 2) for i in range(4)]
        sums = [p[..., 0, :] if p.shape[-2] else np.zeros_like(chunks[..., 0, :]) for p in partial]
        if tail:
            sums[0] = sums[0] + chunks[..., -1, :]
        lanes = (sums[0] + sums[1]) + (sums[2] + sums[3])
    for distance in (8, 4, 2, 1):
        lanes = lanes + lanes[..., np.arange(_LANES) ^ distance]
    return np.moveaxis(lanes[..., :1], -1, axis)


@working_memory(_exp_bytes)
def softmax(call: KernelCall) -> np.ndarray:
    """Softmax-1 and Softmax-8 as oneDNN's softmax computes them: ``e = exp(x - max)`` (its
    exp, :func:`plugin_exp`), then ``e * (1 / sum(e))`` in f32, the sum in order along an axis
    with inner dims, in its vector lanes along the innermost (:func:`_sum_in_lanes`)."""
    shifted, undefined, in_row, axis = _softmax_parts(call)
    innermost = all(dim == 1 for dim in shifted.shape[axis + 1 :])
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        e = plugin_exp(np.where(undefined, np.float32(-np.inf), shifted), onednn=True)
        total = (
            _sum_in_lanes(e, axis, four_accumulators=True) if innermost and e.size else _sum_in_order(e, axis)
        )
        result = e * (np.float32(1) / total)
    # the plugin's exp of NaN is +inf: the sum is infinite, the other elements 0
    result = np.where(in_row, np.where(undefined, np.float32(np.nan), np.float32(0)), result)
    return _out(result.reshape(call.output_shape()), call)


@working_memory(_exp_bytes)
def log_softmax(call: KernelCall) -> np.ndarray:
    """LogSoftmax-5 as the plugin decomposes it: ``(x - max) - log(sum(exp(x - max)))`` in f32,
    its exp :func:`plugin_exp`, its ReduceSum in order along an axis with inner dims, as
    :func:`_innermost_sum` along the innermost. Not followed (docs/execution.md, the measured
    bound): its log, the C library's logf (here the f64 log rounded once, which logf misses by
    one unit on about 0.3% of values)."""
    shifted, undefined, in_row, axis = _softmax_parts(call)
    e = plugin_exp(np.where(undefined, np.float32(-np.inf), shifted))
    innermost = all(dim == 1 for dim in shifted.shape[axis + 1 :])
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        total = np.moveaxis(_innermost_sum(np.moveaxis(e, axis, -1)), -1, axis) if innermost else None
        total = _sum_in_order(e, axis) if total is None else total
        log_sum = np.log(total.astype(np.float64)).astype(np.float32)
        result = shifted - log_sum
    result = np.where(in_row, np.where(undefined, np.float32(np.nan), np.float32(-np.inf)), result)
    return _out(result, call)


# --- MVN ------------------------------------------------------------------------------------


def _mvn(
    x: np.ndarray, axes: tuple[int, ...], normalize_variance: bool, eps: float, inside: bool
) -> np.ndarray:
    """MVN over any axes in float64 (the MVN node's layouts aside: :func:`_mvn_f32`)."""
    centered: np.ndarray = x - np.mean(x, axis=axes, keepdims=True)
    if not normalize_variance:
        return centered
    variance = np.mean(np.square(centered), axis=axes, keepdims=True)
    scale = np.sqrt(variance + eps) if inside else np.sqrt(variance) + eps
    with np.errstate(divide="ignore", invalid="ignore"):
        result: np.ndarray = centered / scale
    return result


def _lane_sum(rows: np.ndarray, add: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """The f32 sum of each row (the last axis) as the MVN node's JIT sums a row it holds
    contiguously: ``add`` (an addition, or a square's FMA) into 16 lanes, 16 elements at a time,
    then the rest in tiles of 8, 4, 2 and 1 into the first lanes; the lanes summed as four
    quarters, ``(q0 + q1) + (q2 + q3)``, and that quarter's lanes ``(l0 + l1) + (l2 + l3)``."""
    length = rows.shape[-1]
    lanes = np.zeros((*rows.shape[:-1], _LANES), np.float32)
    start = 0
    for tile in (_LANES,) * (length // _LANES) + (8, 4, 2, 1):
        if length - start >= tile:
            lanes[..., :tile] = add(lanes[..., :tile], rows[..., start : start + tile])
            start += tile
    quarters = lanes.reshape(*lanes.shape[:-1], 4, 4)
    quarter = (quarters[..., 0, :] + quarters[..., 1, :]) + (quarters[..., 2, :] + quarters[..., 3, :])
    total: np.ndarray = (quarter[..., 0] + quarter[..., 1]) + (quarter[..., 2] + quarter[..., 3])
    return total


def _square_added(total: np.ndarray, difference: np.ndarray) -> np.ndarray:
    return fma_f32(difference, difference, total)


# the threads the plugin's parallel_sum splits a sum over channels among (this machine's two
# cores; with more cores its static partitioner splits the channels otherwise from 5 of them)
_THREADS = 2


def _partitioned_sum(values: np.ndarray, threads: int = _THREADS) -> np.ndarray:
    """The sum along the last axis as OpenVINO's parallel_sum computes it (TBB's deterministic
    reduce, static partitioner): the range split among the threads, each part's larger half on
    the right (``round(n * right / threads)``), each part summed in order, the parts added."""
    count = values.shape[-1]
    if threads <= 1 or count <= 1:
        return _sum_in_order(values, values.ndim - 1)[..., 0]
    left_threads = threads // 2
    right = int(count * (threads - left_threads) / threads + 0.5)
    left_sum = _partitioned_sum(values[..., : count - right], left_threads)
    total: np.ndarray = left_sum + _partitioned_sum(values[..., count - right :], threads - left_threads)
    return total


def _mvn_f32(
    x: np.ndarray, axes: tuple[int, ...], normalize_variance: bool, eps: np.float32, inside: bool
) -> np.ndarray | None:
    """MVN as the plugin's MVN node computes it on planar f32 data, bit for bit, where it runs
    it (the axes every one from 1 or from 2, or rank 1; else None): per row of the reduced
    elements (each batch's channels, or each channel) the sum (:func:`_lane_sum`; over
    channels each channel's, then :func:`_partitioned_sum`), ``mean = sum * (1 / count)``, the
    squares of ``x - mean`` the same way, ``inv = 1 / sqrt(var * (1 / count) + eps)`` (or
    ``1 / (sqrt(.) + eps)`` outside), then ``(x - mean) * inv``. Read from nodes/mvn.cpp."""
    rank = x.ndim
    across = rank >= 2 and axes == tuple(range(1, rank))
    if not (across or (rank >= 3 and axes == tuple(range(2, rank))) or (rank, axes) == (1, (0,))):
        return None
    if rank <= 2:  # the node's rows: the whole vector, or each row of [N, C] (rank 2, axis 1)
        rows = x.reshape(1 if rank == 1 else x.shape[0], 1, -1)
        across = False
    else:
        rows = x.reshape(x.shape[0], x.shape[1], -1)
    count = np.float32(rows.shape[1] * rows.shape[2] if across else rows.shape[2])
    inverse_count = np.float32(1) / count
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        sums = _lane_sum(rows, np.add)
        mean = (_partitioned_sum(sums)[:, None] if across else sums) * inverse_count
        centered = rows - mean[..., None]
        if normalize_variance:
            squares = _lane_sum(centered, _square_added)
            variance = (_partitioned_sum(squares)[:, None] if across else squares) * inverse_count
            root = np.sqrt(variance + eps) if inside else np.sqrt(variance) + eps
            centered = centered * (np.float32(1) / root)[..., None]
    return centered.reshape(x.shape)


def _sum_flat_in_order(values: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """The sum over ``axes`` (kept as dims of 1) one element after the other in memory order
    (the plugin's Reduce node where the innermost axis is not reduced: by experiment)."""
    kept = [a for a in range(values.ndim) if a not in axes]
    moved = np.transpose(values, kept + list(axes))
    flat = moved.reshape(*moved.shape[: len(kept)], -1)
    shape = [1 if a in axes else dim for a, dim in enumerate(values.shape)]
    return _sum_in_order(flat, flat.ndim - 1).reshape(shape)


def _innermost_sum(values: np.ndarray) -> np.ndarray:
    """The f32 sum along the last axis (kept as a dim of 1) as the plugin's Reduce node sums
    its innermost axis: 16 elements at a time into 16 lanes reduced as :func:`_lane_sum` does,
    then the rest one after the other."""
    full = values.shape[-1] // _LANES * _LANES
    total = np.zeros(values.shape[:-1], np.float32)
    if full:
        total = _lane_sum(values[..., :full], np.add) + total
    for index in range(full, values.shape[-1]):
        total = total + values[..., index]
    return total[..., None]


def _rms_sum_of_squares(values: np.ndarray) -> np.ndarray:
    """The f32 sum of squares along the last axis (kept as a dim of 1) as the plugin's RMS node
    computes it: FMAs into four accumulators of 16 lanes, 64 elements at a time (the rest and
    the tail into the first), ``(a0 + a1) + (a2 + a3)``, its halves added twice (lane i and
    i + 8, then i + 4), and the last four lanes one after the other."""
    length = values.shape[-1]
    accumulators = np.zeros((*values.shape[:-1], 4, _LANES), np.float32)
    vectors = length // _LANES
    for vector in range(vectors):
        which = vector % 4 if vector < vectors // 4 * 4 else 0
        chunk = values[..., vector * _LANES : (vector + 1) * _LANES]
        accumulators[..., which, :] = fma_f32(chunk, chunk, accumulators[..., which, :])
    tail = values[..., vectors * _LANES :]
    first = accumulators[..., 0, : tail.shape[-1]]
    accumulators[..., 0, : tail.shape[-1]] = fma_f32(tail, tail, first)
    lanes = (accumulators[..., 0, :] + accumulators[..., 1, :]) + (
        accumulators[..., 2, :] + accumulators[..., 3, :]
    )
    lanes = lanes[..., :8] + lanes[..., 8:]
    lanes = lanes[..., :4] + lanes[..., 4:]
    total: np.ndarray = ((lanes[..., 0] + lanes[..., 1]) + lanes[..., 2]) + lanes[..., 3]
    return total[..., None]


def _mvn_decomposed(
    x: np.ndarray, axes: tuple[int, ...], normalize_variance: bool, eps: np.float32, inside: bool
) -> np.ndarray | None:
    """MVN-6 over axes the MVN node does not take, as the plugin runs OpenVINO's decomposition
    in f32, bit for bit (by experiment and its JIT code): ``d = x - sum / n``, then ``d /
    sqrt(sum(d * d) / n + eps)`` (or ``/ (sqrt(.) + eps)``), a true division, its Reduce node's
    sums in memory order where the innermost axis is not reduced (:func:`_sum_flat_in_order`)
    and as :func:`_innermost_sum` over the innermost axis alone, where inside the root the
    plugin fuses the rest into its RMS node: ``d * (1 / sqrt(sum * (1 / n) + eps))``, the sum
    :func:`_rms_sum_of_squares`. Other axes with the innermost: None (not followed)."""
    innermost = x.ndim - 1 in axes
    if innermost and axes != (x.ndim - 1,):
        return None
    count = np.float32(math.prod(x.shape[a] for a in axes))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        total = _innermost_sum(x) if innermost else _sum_flat_in_order(x, axes)
        centered = x - total / count
        if not normalize_variance:
            return centered
        if innermost and inside:
            mean_square = _rms_sum_of_squares(centered) * (np.float32(1) / count)
            normalized: np.ndarray = centered * (np.float32(1) / np.sqrt(mean_square + eps))
            return normalized
        squares = centered * centered
        variance = (_innermost_sum(squares) if innermost else _sum_flat_in_order(squares, axes)) / count
        result: np.ndarray = centered / (np.sqrt(variance + eps) if inside else np.sqrt(variance) + eps)
    return result


def _mvn_kernel(
    call: KernelCall, axes: tuple[int, ...], normalize_variance: bool, eps: float, inside: bool
) -> np.ndarray:
    """MVN in f32 as the plugin computes it (its MVN node, or the decomposition of MVN-6) where
    that is followed, else in float64 rounded once."""
    data = call.inputs[DATA]
    if data.dtype != np.float64 and data.size and axes:
        x, epsilon = data.astype(np.float32), np.float32(eps)
        result = _mvn_f32(x, axes, normalize_variance, epsilon, inside)
        # (f16 decomposed: its ops store f16 between them, a unit off at times: not followed)
        if result is None and call.schema.version == 6 and data.dtype == np.float32:
            result = _mvn_decomposed(x, axes, normalize_variance, epsilon, inside)
        if result is not None:
            return _out(result, call)
    return _out(_mvn(_exact(data), axes, normalize_variance, eps, inside), call)


@working_memory(_float64_bytes)
def mvn_2(call: KernelCall) -> np.ndarray:
    """MVN-2: reduction_axes where written, else the axes across_channels says; eps inside sqrt
    (the plugin's node: by experiment, eps 0.1)."""
    rank = call.inputs[DATA].ndim
    axes = call.int_list("reduction_axes")
    if not axes:
        start = 1 if call.attribute("across_channels") else 2
        axes = tuple(range(start, rank))
    variance = bool(call.attribute("normalize_variance"))
    eps = float(call.attribute("eps"))
    return _mvn_kernel(call, _axes_of(np.array(axes), rank), variance, eps, True)


@working_memory(_float64_bytes)
def mvn_6(call: KernelCall) -> np.ndarray:
    """MVN-6: the axes input; eps (an f32 attribute) inside or outside the square root."""
    rank = call.inputs[DATA].ndim
    axes = _axes_of(call.inputs[1], rank)
    eps = float(np.float32(call.attribute("eps")))
    inside = call.attributes.enum("eps_mode", "inside_sqrt") == "inside_sqrt"
    return _mvn_kernel(call, axes, bool(call.attribute("normalize_variance")), eps, inside)


# --- NormalizeL2, GRN, LRN ---------------------------------------------------------------------


@working_memory(_float64_bytes)
def normalize_l2(call: KernelCall) -> np.ndarray:
    """NormalizeL2-1 (eps an f32 attribute, added or taken as a floor of the sum of squares), in
    f32 as the plugin computes it, the squares summed in order (axis by axis). Its
    NormalizeL2 node (data of rank 2 to 4 over axis 1 or over every axis from 1) multiplies x by
    ``1 / sqrt(.)``; other axes run the op's decomposition, ``x / sqrt(.)``. Bit for bit in add
    mode on short sums; a long sum's order (over every axis of [2, 7, 5, 3]), the decomposition's
    sum over several axes and the max mode (where neither form is the plugin's on every element)
    are not followed: a unit off on 3.6% of the kernel fuzzer's elements."""
    x = call.inputs[DATA].astype(np.float32)
    axes = _axes_of(call.inputs[1], x.ndim)
    node = 2 <= x.ndim <= 4 and axes in ((1,), tuple(range(1, x.ndim)))
    if not axes and 2 <= x.ndim <= 4:
        # no axes, data of rank 2 to 4: the plugin's NormalizeL2 node gives 1 wherever x is
        # not 0, whatever its sign or eps; of other ranks it runs the op's decomposition,
        # each element over its own square (below: -1.5 gives -0.99999779; found by the
        # kernel fuzzer, which gave 1 there too)
        return _out(np.where(x == 0, 0.0, 1.0), call)
    squares = _sum_in_order_over(np.square(x), axes)
    eps = np.float32(call.attribute("eps"))
    add = call.attributes.enum("eps_mode", "add") == "add"
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        root = np.sqrt(squares + eps if add else np.maximum(squares, eps))
        return _out(x * (np.float32(1) / root) if node else x / root, call)


def _sum_in_order_over(values: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """The sum over ``axes`` (kept as dims of 1), axis by axis from the first, each one element
    after the other (the plugin's order over several axes: by experiment)."""
    for axis in sorted(axes):
        values = _sum_in_order(values, axis)
    return values


@working_memory(_float64_bytes)
def grn(call: KernelCall) -> np.ndarray:
    """GRN-1 over the channels (axis 1) as the plugin's node computes it, bit for bit: the sum
    of squares (in order) and its square root with the bias in double, then ``x / norm`` in
    f32 (found by the kernel fuzzer; by experiment)."""
    squares = _sum_in_order(np.square(_exact(call.inputs[DATA])), 1)
    bias = float(np.float32(call.attribute("bias")))
    norm = np.sqrt(squares + bias).astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _out(call.inputs[DATA].astype(np.float32) / norm, call)


def _window_sums_in_order(squares: np.ndarray, axes: tuple[int, ...], half: int) -> np.ndarray:
    """Each element's f32 sum over ``[i - half, i + half]`` on each of ``axes`` (clipped at the
    edges), the window's elements added one after the other in order (the outer axis first),
    as oneDNN's reference LRN sums them: one shifted copy added per offset (0 outside)."""
    total = np.zeros_like(squares)
    for offsets in itertools.product(range(-half, half + 1), repeat=len(axes)):
        shifted = squares
        for axis, offset in zip(axes, offsets, strict=True):
            shifted = _shifted(shifted, axis, offset)
        total = total + shifted
    return total


def _shifted(values: np.ndarray, axis: int, offset: int) -> np.ndarray:
    """``values`` moved by ``offset`` along ``axis`` (element i takes i + offset), 0 past the ends."""
    length = values.shape[axis]
    result = np.zeros_like(values)
    if abs(offset) < length:
        target = [slice(None)] * values.ndim
        source = [slice(None)] * values.ndim
        target[axis] = slice(max(-offset, 0), length - max(offset, 0))
        source[axis] = slice(max(offset, 0), length - max(-offset, 0))
        result[tuple(target)] = values[tuple(source)]
    return result


def _lrn_jit_runs(shape: tuple[int, ...], size: int) -> bool:
    """Whether the plugin runs oneDNN's JIT LRN across channels (with beta 0.75, odd sizes):
    where its memory is channels-last alike (one channel, or one spatial element), or in blocks
    of 16 channels with size 5, for data of rank 4 (by the runtime model's primitive
    types)."""
    spatial = math.prod(shape[2:])
    layout = shape[1] == 1 or spatial == 1 or (shape[1] % 16 == 0 and size == 5)
    return len(shape) == 4 and size % 2 == 1 and layout


def _lrn_jit(x: np.ndarray, size: int, alpha: np.float32, bias: np.float32) -> np.ndarray:
    """LRN across channels with beta 0.75 as oneDNN's JIT kernel computes it, bit for bit (read
    from its code): the centre's square, then each neighbour's (from the lowest channel) by an
    FMA, ``omega = sum * (alpha / size) + bias`` in one FMA, ``x / sqrt(sqrt(omega^2 * omega))``."""
    half = (size - 1) // 2
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        total = x * x
        for offset in [*range(-half, 0), *range(1, half + 1)]:
            neighbour = _shifted(x, 1, offset)
            total = fma_f32(neighbour, neighbour, total)
        omega = fma_f32(total, alpha / np.float32(size), bias)
        result: np.ndarray = x / np.sqrt(np.sqrt(omega * omega * omega))
    return result


@working_memory(_fma_bytes)
def lrn(call: KernelCall) -> np.ndarray:
    """LRN-1 in f32 as oneDNN's reference LRN computes it (the plugin's LRN node), bit for bit:
    the squares summed in order over the window (:func:`_window_sums_in_order`), ``omega =
    bias + alpha * sum / size^len(axes)``, and ``x * sqrt(1 / (sqrt(omega) * omega))`` where
    beta is 0.75, else ``x * (1 / powf(omega, beta))``. As the node reads the axes: [1] is across
    channels, anything else (it builds only sets holding every spatial axis) within each
    channel over the spatial axes, so axes [1, 2] of 3D data are [2] there
    (intel_cpu/src/nodes/lrn.cpp; found by the kernel fuzzer). Where the plugin runs oneDNN's
    JIT kernel instead (:func:`_lrn_jit_runs`), with beta 0.75 :func:`_lrn_jit`; with other
    betas or even sizes there, the reference's formula (not followed)."""
    x = call.inputs[DATA].astype(np.float32)
    axes = _axes_of(call.inputs[1], x.ndim)
    written = [int(v) for v in np.asarray(call.inputs[1]).reshape(-1)]
    if written != [1]:
        spatial = tuple(range(2, x.ndim))
        if any(a < 0 for a in written) or not set(spatial) <= set(written):
            raise UnsupportedByOpenVINOError(
                f"axes {written}: the CPU plugin builds an LRN across channels ([1]) or over every "
                "spatial axis only (with the axes as written: not negative)"
            )
        axes = spatial
    size = int(call.attribute("size"))
    alpha, beta, bias = (np.float32(call.attribute(name)) for name in ("alpha", "beta", "bias"))
    if axes == (1,) and beta == np.float32(0.75) and _lrn_jit_runs(x.shape, size):
        return _out(_lrn_jit(x, size, alpha, bias), call)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        total = _window_sums_in_order(np.square(x), axes, (size - 1) // 2)
        omega = bias + alpha * total / np.float32(size ** len(axes))
        if beta == np.float32(0.75):
            return _out(x * np.sqrt(np.float32(1) / (np.sqrt(omega) * omega)), call)
        return _out(x * (np.float32(1) / powf_f32(omega, np.full_like(omega, beta))), call)


# --- GroupNormalization, BatchNormInference ---------------------------------------------------


def _channels(values: np.ndarray, rank: int) -> np.ndarray:
    """A per-channel 1D tensor shaped to broadcast along axis 1 of data of ``rank``."""
    return _exact(values).reshape((1, -1) + (1,) * (rank - 2))


@working_memory(_fma_bytes)
def group_normalization(call: KernelCall) -> np.ndarray:
    """GroupNormalization-12 in f32 as the plugin computes it, bit for bit (read from its JIT
    code): per batch and group of channels (``n`` elements) ``mean = sum * (1 / n)``, the sums
    in 16 lanes of one accumulator (:func:`_sum_in_lanes`), the squares of ``d = x - mean`` rounded and
    summed so, ``d * (1 / sqrt(var_sum * (1 / n) + eps))`` (that sum in one FMA), then
    ``normalized * scale + bias`` in one FMA. That is its Snippets kernel; where the batch
    times the groups gives fewer rows than the plugin has threads (one, on two cores) and the
    data has spatial axes it runs its MVN node over the axes from 1 (:func:`_mvn_f32`: across
    channels) and the same FMA (by the runtime model). f64 data in float64."""
    data = call.inputs[DATA]
    groups = int(call.attribute("num_groups"))
    eps = float(call.attribute("epsilon"))
    single = data.shape[0] * groups < _THREADS and data.ndim > 2
    if data.dtype == np.float64 or not data.size:
        in_groups = _exact(data).reshape(data.shape[0], groups, -1)
        exact = _mvn(in_groups, (2,), True, eps, True).reshape(data.shape)
        scale, bias = (_channels(call.inputs[i], data.ndim) for i in (1, 2))
        return _out(exact * scale + bias, call)
    x = data.astype(np.float32)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        normalized = _mvn_f32(x, tuple(range(1, x.ndim)), True, np.float32(eps), True) if single else None
        if normalized is None:
            grouped = x.reshape(data.shape[0], groups, -1)
            inverse_count = np.float32(1) / np.float32(grouped.shape[2])
            centered = grouped - _sum_in_lanes(grouped, 2) * inverse_count
            variance = fma_f32(_sum_in_lanes(centered * centered, 2), inverse_count, np.float32(eps))
            normalized = centered * (np.float32(1) / np.sqrt(variance))
        scale, bias = (_channels(call.inputs[i], data.ndim).astype(np.float32) for i in (1, 2))
        return _out(fma_f32(normalized.reshape(data.shape), scale, bias), call)


_BN_PORTS = {1: (2, 0, 1, 3, 4), 5: (0, 1, 2, 3, 4)}  # data, gamma, beta, mean, variance


@working_memory(_float64_bytes)
def batch_norm_inference(call: KernelCall) -> np.ndarray:
    """BatchNormInference-1 (gamma, beta, data, mean, variance) and -5 (data first), as the
    plugin runs OpenVINO's BatchNormDecomposition, in f32 (eps in the data's type), bit for bit:
    ``(x - mean) * scale + beta`` in one FMA with ``scale = gamma * (1 / sqrt(variance + eps))``
    (its Divide); where gamma, beta, mean and variance are all constants, OpenVINO folds them
    first, each op rounded to the data's type (``scale = gamma / sqrt(variance + eps)``, its
    reference Divide, and ``shift = beta - mean * scale``) and the plugin computes ``x * scale
    + shift`` in one FMA. Found by the
    kernel fuzzer; by experiment on both."""
    ports = _BN_PORTS[call.schema.version]
    data, gamma, beta, mean, variance = (call.inputs[i] for i in ports)
    x = data.astype(np.float32)
    gamma, beta, mean, variance = (
        _channels(v, x.ndim).astype(np.float32) for v in (gamma, beta, mean, variance)
    )
    eps = rounded_to(
        np.asarray(call.attribute("epsilon"), call.inputs[ports[0]].dtype), call.input_types[ports[0]]
    )
    element_type, dtype = call.input_types[ports[0]], call.inputs[ports[0]].dtype

    def folded(values: np.ndarray) -> np.ndarray:  # an op's result as OpenVINO folds it: in the data's type
        return rounded_to(values.astype(dtype), element_type).astype(np.float32)

    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if all(port in call.constant_inputs for port in ports[1:]):
            scale = folded(gamma / folded(np.sqrt(folded(variance + eps))))
            return _out(fma_f32(x, scale, folded(beta - folded(mean * scale))), call)
        root = np.sqrt(variance + eps.astype(np.float32))
        return _out(fma_f32(x - mean, gamma * (np.float32(1) / root), beta), call)


# --- FakeQuantize -------------------------------------------------------------------------------


def _fake_quantize_bytes(call: KernelCall) -> int:
    """The data and its four limits broadcast to it (read in float64, computed in float32) and as
    many temporaries: an upper bound."""
    return 10 * 8 * call.inputs[DATA].size


def _limits(call: KernelCall) -> Sequence[np.ndarray]:
    """The four limits broadcast to the data: numpy's rule, or pdpd's (aligned at the axis)."""
    x = call.inputs[DATA]
    mode = call.attributes.enum("auto_broadcast", "numpy")
    limits = [_exact(v) for v in call.inputs[1:5]]
    if mode == "pdpd":
        axis = int(call.attribute("auto_broadcast.auto_broadcast_axis"))
        limits = [_pdpd_aligned(v, x.ndim, axis) for v in limits]
    return [np.broadcast_to(v, x.shape) for v in limits]


def _pdpd_aligned(value: np.ndarray, rank: int, axis: int) -> np.ndarray:
    """PDPD broadcasting: the limit's dims line up with the data's from ``axis`` (-1: at the
    end), its trailing ones dropped, and ones fill the rest."""
    start = rank - value.ndim if axis == -1 else _axis(axis, rank)
    shape = list(value.shape)
    while shape and shape[-1] == 1:
        shape.pop()
    return value.reshape([1] * start + shape + [1] * (rank - start - len(shape)))


@working_memory(_fake_quantize_bytes)
def fake_quantize(call: KernelCall) -> np.ndarray:
    """FakeQuantize-1, in float32 as the plugin computes it: its input scale and shift, then
    its output scale (see the module's docstring)."""
    x = call.inputs[DATA].astype(np.float32)
    in_low, in_high, out_low, out_high = (v.astype(np.float32) for v in _limits(call))
    steps = np.float32(int(call.attribute("levels")) - 1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scale = steps / (in_high - in_low)
        shift = -in_low * scale
        quantized = np.rint(x * scale + shift) * ((out_high - out_low) / steps) + out_low
    below = x <= np.minimum(in_low, in_high)
    above = x > np.maximum(in_low, in_high)
    return _out(np.where(below, out_low, np.where(above, out_high, quantized)), call)
