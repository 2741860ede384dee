"""Kernels of the normalization family (irshape/shapes/normalization.py): Softmax-1/8,
LogSoftmax-5, MVN-2/6, NormalizeL2-1, GroupNormalization-12, BatchNormInference-1/5, LRN-1,
GRN-1 and FakeQuantize-1.

Formulas are the reference implementation's (``reference/<op>.hpp``), computed in float64 and
rounded once to the data's type (f16 data is computed in f32 by the CPU plugin under the f32
hint, closer to the exact value than to an f16 computation), but Softmax and LogSoftmax:

* Softmax: ``exp(x - max) / sum(exp(x - max))`` along the axis; LogSoftmax
  ``x - max - log(sum(exp(x - max)))``. Both in f32 in the plugin's order of operations, with
  its exp (``plugin_exp``): Softmax is oneDNN's ``e * (1 / sum)``, bit for bit but on innermost
  rows of more than 32 elements (its lanes' order of the sum); LogSoftmax is decomposed into a
  ReduceSum and the C library's logf (neither order nor logf followed: docs/execution.md).
  Where ``x - max`` is NaN (a +inf less the +inf max, a
  NaN, a row of -inf) the CPU plugin's exp gives +inf: the sum is infinite, so such elements are
  NaN and the rest of the row 0 (LogSoftmax: -inf). The reference makes the whole row NaN; the
  plugin agrees with irshape there, except that its maximum is NaN (and the row all NaN) when a
  NaN comes last in its SIMD lane (``softmax([1, 2, nan])``), which irshape does not follow.
* MVN: ``(x - mean) / sqrt(var + eps)`` (inside_sqrt; MVN-2 always) or ``/ (sqrt(var) + eps)``
  (outside_sqrt), the variance the mean of squared deviations, over the reduction axes: MVN-6's
  axes input, MVN-2's ``reduction_axes`` or, where it is empty, axes 1.. (``across_channels``) or
  2.. of the data; without normalize_variance only the mean goes.
* NormalizeL2: ``x / sqrt(sum(x^2) + eps)`` (add) or ``/ sqrt(max(sum(x^2), eps))`` (max) over the
  axes; with no axes the reference gives 1 for each non-zero element and 0 for zeros.
* GroupNormalization: per batch and group of channels ``(x - mean) / sqrt(var + eps)``, then the
  channel's scale and bias; BatchNormInference ``(x - mean) / sqrt(var + eps) * gamma + beta``
  along axis 1; GRN ``x / sqrt(sum_c(x^2) + bias)`` along axis 1.
* LRN: ``x / (bias + alpha / size^len(axes) * sum(x^2 over the window))^beta``, the window
  ``[i - (size-1)//2, i + (size-1)//2]`` on each axis, clipped at the edges (an even size
  spans size - 1). The CPU plugin builds LRN for axes [1] and [2, 3] (agreeing with this) and
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

from collections.abc import Sequence

import numpy as np

from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError, working_memory
from irshape.kernels.elementwise import fma_f32, plugin_exp
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


def _sum_in_lanes(values: np.ndarray, axis: int) -> np.ndarray:
    """The f32 sum along ``axis`` as oneDNN's softmax sums a row it holds contiguously: the
    row's elements added into 16 lanes in chunks of 16 (the last chunk padded with zeros),
    then the lanes added pairwise, lane i and lane i ^ 8, i ^ 4, i ^ 2, i ^ 1. The plugin's
    order, bit for bit, on rows of up to 33 elements; on longer rows it keeps several
    accumulators in an order not found (docs/execution.md)."""
    moved = np.moveaxis(values, axis, -1)
    chunks = -(-moved.shape[-1] // _LANES)
    padded = np.zeros((*moved.shape[:-1], chunks * _LANES), np.float32)
    padded[..., : moved.shape[-1]] = moved
    lanes = _sum_in_order(padded.reshape(*moved.shape[:-1], chunks, _LANES), -2)[..., 0, :]
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
        total = _sum_in_lanes(e, axis) if innermost and e.size else _sum_in_order(e, axis)
        result = e * (np.float32(1) / total)
    # the plugin's exp of NaN is +inf: the sum is infinite, the other elements 0
    result = np.where(in_row, np.where(undefined, np.float32(np.nan), np.float32(0)), result)
    return _out(result.reshape(call.output_shape()), call)


@working_memory(_exp_bytes)
def log_softmax(call: KernelCall) -> np.ndarray:
    """LogSoftmax-5 as the plugin decomposes it: ``(x - max) - log(sum(exp(x - max)))`` in f32,
    its exp :func:`plugin_exp`. Not followed (docs/execution.md, the measured bound): the order
    of its Reduce node's sum, and its log, the C library's logf (here the f64 log rounded once,
    which logf misses by one unit on about 0.3% of values)."""
    shifted, undefined, in_row, axis = _softmax_parts(call)
    e = plugin_exp(np.where(undefined, np.float32(-np.inf), shifted))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        log_sum = np.log(_sum_in_order(e, axis).astype(np.float64)).astype(np.float32)
        result = shifted - log_sum
    result = np.where(in_row, np.where(undefined, np.float32(np.nan), np.float32(-np.inf)), result)
    return _out(result, call)


# --- MVN ------------------------------------------------------------------------------------


def _mvn(
    x: np.ndarray, axes: tuple[int, ...], normalize_variance: bool, eps: float, inside: bool
) -> np.ndarray:
    centered: np.ndarray = x - np.mean(x, axis=axes, keepdims=True)
    if not normalize_variance:
        return centered
    variance = np.mean(np.square(centered), axis=axes, keepdims=True)
    scale = np.sqrt(variance + eps) if inside else np.sqrt(variance) + eps
    with np.errstate(divide="ignore", invalid="ignore"):
        result: np.ndarray = centered / scale
    return result


@working_memory(_float64_bytes)
def mvn_2(call: KernelCall) -> np.ndarray:
    """MVN-2: reduction_axes where written, else the axes across_channels says; eps inside sqrt."""
    x = _exact(call.inputs[DATA])
    axes = call.int_list("reduction_axes")
    if not axes:
        start = 1 if call.attribute("across_channels") else 2
        axes = tuple(range(start, x.ndim))
    variance = bool(call.attribute("normalize_variance"))
    eps = float(call.attribute("eps"))
    return _out(_mvn(x, _axes_of(np.array(axes), x.ndim), variance, eps, True), call)


@working_memory(_float64_bytes)
def mvn_6(call: KernelCall) -> np.ndarray:
    """MVN-6: the axes input; eps (an f32 attribute) inside or outside the square root."""
    x = _exact(call.inputs[DATA])
    axes = _axes_of(call.inputs[1], x.ndim)
    eps = float(np.float32(call.attribute("eps")))
    inside = call.attributes.enum("eps_mode", "inside_sqrt") == "inside_sqrt"
    return _out(_mvn(x, axes, bool(call.attribute("normalize_variance")), eps, inside), call)


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


def _window_sum(values: np.ndarray, axis: int, half: int) -> np.ndarray:
    """Each element's sum over ``[i - half, i + half]`` along ``axis``, clipped at the edges:
    differences of a zero-padded cumulative sum."""
    length = values.shape[axis]
    padded = np.cumsum(values, axis=axis)
    zero = np.zeros_like(np.take(padded, [0], axis=axis))
    padded = np.concatenate([zero, padded], axis=axis)
    index = np.arange(length)
    high = np.minimum(index + half + 1, length)
    low = np.maximum(index - half, 0)
    result: np.ndarray = np.take(padded, high, axis=axis) - np.take(padded, low, axis=axis)
    return result


@working_memory(_float64_bytes)
def lrn(call: KernelCall) -> np.ndarray:
    """LRN-1: a box of ``size`` on each of the axes (separable: one axis after the other).
    As the plugin's node reads the axes: [1] is across channels, anything else (it builds only
    sets holding every spatial axis) within each channel over the spatial axes, so axes [1, 2]
    of 3D data are [2] there (intel_cpu/src/nodes/lrn.cpp; found by the kernel fuzzer)."""
    x = _exact(call.inputs[DATA])
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
    alpha, beta, bias = (float(call.attribute(name)) for name in ("alpha", "beta", "bias"))
    squares = np.square(x)
    for axis in axes:
        squares = _window_sum(squares, axis, (size - 1) // 2)
    scale = alpha / float(size) ** len(axes)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _out(x / np.power(bias + scale * squares, beta), call)


# --- GroupNormalization, BatchNormInference ---------------------------------------------------


def _channels(values: np.ndarray, rank: int) -> np.ndarray:
    """A per-channel 1D tensor shaped to broadcast along axis 1 of data of ``rank``."""
    return _exact(values).reshape((1, -1) + (1,) * (rank - 2))


@working_memory(_float64_bytes)
def group_normalization(call: KernelCall) -> np.ndarray:
    """GroupNormalization-12."""
    x = _exact(call.inputs[DATA])
    groups = int(call.attribute("num_groups"))
    grouped = x.reshape(x.shape[0], groups, -1)
    normalized = _mvn(grouped, (2,), True, float(call.attribute("epsilon")), True).reshape(x.shape)
    scale, bias = (_channels(call.inputs[i], x.ndim) for i in (1, 2))
    return _out(normalized * scale + bias, call)


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
