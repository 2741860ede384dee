"""Kernels of the resize family (irshape/shapes/resize.py): Interpolate-1/4/11 and GridSample-9.

Semantics are those of OpenVINO's CPU plugin (``InterpolateExecutorBase`` in
``src/plugins/intel_cpu/src/nodes/executors/``), which differs from the reference
implementation in places; what the differential suite (tests/execution/test_resize.py) found:

* every resized axis gets a table of source indices and weights, applied one axis after the
  other, the last axis first, each step a fused multiply-add in float32 (as the JIT kernels;
  the integer results then round as the plugin's do, ties included);
* the source coordinate is computed in float32 as the plugin does (``coordTransToInput``;
  align_corners as ``x * ((in - 1) / (out - 1))``), the identity where the scale is 1 or the
  padded input and output lengths are equal; the scale is the ``scales`` input in scales mode,
  ``out / padded in`` in sizes mode; pads are zeros added before resizing;
* nearest: the plugin's ``nearestRound`` (round_prefer_floor: a .5 goes down, round_prefer_ceil
  is C's ``round``, simple: ``ceil`` when downsampling, else truncation), clamped to the input;
* linear_onnx: two taps, the coordinate clamped to ``[0, in - 1]``, weights ``|c - i1|`` and
  ``|c - i0|`` (0.5 each at the last element), summed as the JIT kernels do: the second tap
  first on W and D, the first tap first on H (a result a last bit off a .5 tie of integer
  data rounds by it); cubic: four taps at ``floor(c) - 1 ..
  floor(c) + 2`` clamped to the input, Keys' weights with ``cube_coeff``;
* linear: below rank 5 the plugin runs it as linear_onnx (antialias ignored); at rank 5 the
  reference executor's triangle filter ``a * tri(a * d)`` over ``round(c) -+ r`` (``a`` the
  scale under antialias, upscales included; ``r`` 2 when upsampling, ``ceil(2 / a)`` else),
  every combination of taps summed in float32 and divided by the weights' sum (0 where it is
  0), an axis of unchanged length weighing ``a`` under antialias (its scale, though its
  coordinates are the output's); u8 and i8 results are truncated there, not rounded;
* cubic of rank-5 u8 and i8 data: ``ov::reference``'s (every combination of the axes' four
  taps weighted by the product of its Keys weights, summed in float32, align_corners
  multiplying before it divides), truncated toward zero and wrapped to 8 bits, not saturated
  (a u8 overshoot to -27.6 gives 229; by experiment);
* bilinear_pillow/bicubic_pillow: Pillow's ``precompute_coeffs`` whatever the coordinate
  transform says (centre ``(x + 0.5) * in / out``, support stretched by the downscale factor,
  bicubic with a = -0.5 whatever cube_coeff says), the W pass first, then H; u8 and i8 round
  half to even after each pass, bf16 rounds to bf16 after each pass. Integer data in these
  modes can differ by one from the plugin on a rare tie (its float32 weights differ from these
  in the last bit);
* integer data is computed in float32 and rounded half to even, saturated to the type (i8, u8;
  i32 to [-2^31, 2147483520], the largest float32 below 2^31); i64 data runs as i32 in the
  plugin (its values wrap to 32 bits first); f16, bf16 and f64 are computed in float32 too,
  bf16 results rounded to bf16 (nearest, ties to even);
* the batch and channel axes: the plugin refuses some rank-4 layers resizing them (axes
  [0, 2, 3] or all four; [0], [1], [0, 1], [0, 3], [1, 3], [1, 2] and [1, 2, 3] run and agree
  with irshape), and cubic over the channel axis with both spatial axes writes uninitialised
  memory (by experiment): irshape computes every one as defined;
* Interpolate-1 is Interpolate-4 as ``ConvertInterpolate1ToInterpolate4`` makes it: nearest
  (simple, asymmetric), linear (linear_onnx below rank 5, linear at rank 5), linear_onnx, cubic;
  align_corners, else half_pixel for the linear modes without pads and not on axes {2, 3} of a
  4D input, else asymmetric; the plugin runs no other mode ("area").

GridSample-9 is the reference's (``grid_sample.hpp``), in float32, with the plugin's JIT
kernel's fused multiply-adds: the grid's (x, y) mapped to pixels (``(v + 1) * (len - 1) / 2``
with align_corners, else ``((v + 1) * len - 1) / 2``); nearest rounds half to even; bilinear
and bicubic (Keys, a = -0.75) weigh the 2x2 and 4x4 integer neighbours (bilinear as
``q = dx * v1 - (dx * v0 - v0)`` per row, then ``q0 + dy * (q1 - q0)``: an infinity in one
row gives NaN; bicubic with the kernel's forms of the weights, each row's dot product and
then the rows', left to right; the AVX-512 kernel's arithmetic: its AVX2 kernel fuses fewer
of the weights' steps, its SSE4.1 kernel none, a last bit apart); the padding applies to
those integer points (zeros outside, clamped to the border, or reflected about the edges:
about the pixel centres with align_corners, else about the borders). Integer data: nearest
takes the data's values; bilinear and bicubic compute in float32, u8 and i8 results rounding
half to even, i32 and i64 truncating (past the i32 range -2^31, as ``cvttps2dq`` converts:
2147483646 comes back -2147483648).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError, output_bytes, working_memory
from irshape.kernels.narrow_reals import round_to_bf16

_F32 = np.float32
_INT32_HIGH = float(np.nextafter(np.float32(2**31), np.float32(0)))  # 2147483520


@dataclass(frozen=True, slots=True)
class Resize:
    """What every Interpolate version comes down to."""

    mode: str
    coordinate_mode: str
    nearest_mode: str
    antialias: bool
    cube_coeff: float
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Taps:
    """One resized axis: for each output position, the source indices and their weights."""

    indices: np.ndarray  # (out, taps) int64, inside the input
    weights: np.ndarray | None  # (out, taps) float32; None: one tap of weight 1 (nearest)


# --- the kernels the declarations name -------------------------------------------------------


def _resize_bytes(call: KernelCall) -> int:
    """The float32 working copies: the padded data, and the arrays of a pass as large as the
    largest intermediate result (each axis at the longer of its input and output lengths)."""
    try:
        out_shape = call.output_shape(0)
    except KernelError:
        return 0  # the kernel refuses it
    begin, end = call.int_list("pads_begin"), call.int_list("pads_end")
    padded = [
        n + (begin[i] if i < len(begin) else 0) + (end[i] if i < len(end) else 0)
        for i, n in enumerate(call.inputs[0].shape)
    ]
    widest = math.prod(max(a, b) for a, b in zip(padded, out_shape, strict=False))
    # measured: a pass peaks at 8.5 float32 arrays of its result's size (its float64 sums)
    return int(4 * (10 * widest + math.prod(padded)) + output_bytes(call, 0))


@working_memory(_resize_bytes)
def interpolate_1(call: KernelCall) -> np.ndarray:
    """Interpolate-1, as the plugin runs it: converted to Interpolate-4 (module docstring)."""
    data = call.inputs[0]
    rank = data.ndim
    axes = tuple(sorted(set(call.int_list("axes"))))
    mode = str(call.attribute("mode"))
    pads_begin, pads_end = call.int_list("pads_begin"), call.int_list("pads_end")
    if mode == "linear":
        if rank > 5:
            raise UnsupportedByOpenVINOError("the CPU plugin runs Interpolate-1 linear up to rank 5")
        mode = "linear_onnx" if rank < 5 else "linear"
    elif mode not in ("nearest", "cubic", "linear_onnx"):
        raise UnsupportedByOpenVINOError(f"the CPU plugin does not run Interpolate-1 in mode '{mode}'")
    coordinate_mode = "asymmetric"
    no_pads = not any(pads_begin) and not any(pads_end)
    if call.attribute("align_corners"):
        coordinate_mode = "align_corners"
    elif mode in ("linear", "linear_onnx") and no_pads and not (rank == 4 and axes == (2, 3)):
        coordinate_mode = "half_pixel"
    spec = Resize(
        mode, coordinate_mode, "simple", bool(call.attribute("antialias")), -0.75, pads_begin, pads_end
    )
    return _interpolate(call, spec, axes, None)


@working_memory(_resize_bytes)
def interpolate(call: KernelCall) -> np.ndarray:
    """Interpolate-4 (data, sizes, scales, axes) and Interpolate-11 (data, sizes or scales, axes)."""
    by_scales = call.attribute("shape_calculation_mode") == "scales"
    if call.schema.version == 4:
        scales_port, axes_port = 2, 3
    else:
        scales_port, axes_port = 1, 2
    rank = call.inputs[0].ndim
    if len(call.inputs) > axes_port:
        axes = tuple(int(a) for a in call.inputs[axes_port].reshape(-1))
    else:
        axes = tuple(range(rank))
    scales = None
    if by_scales:
        scales = tuple(float(s) for s in call.inputs[scales_port].astype(_F32).reshape(-1))
    spec = Resize(
        str(call.attribute("mode")),
        str(call.attribute("coordinate_transformation_mode")),
        str(call.attribute("nearest_mode")),
        bool(call.attribute("antialias")),
        float(call.attribute("cube_coeff")),
        call.int_list("pads_begin"),
        call.int_list("pads_end"),
    )
    return _interpolate(call, spec, axes, scales)


# --- Interpolate ---------------------------------------------------------------------------------


_PILLOW = ("bilinear_pillow", "bicubic_pillow")


def _interpolate(
    call: KernelCall, spec: Resize, axes: Sequence[int], scales: Sequence[float] | None
) -> np.ndarray:
    data = call.inputs[0]
    if spec.mode == "linear" and data.ndim < 5:  # the plugin runs it as linear_onnx (by experiment)
        spec = replace(spec, mode="linear_onnx")
    dtype = call.output_dtype(0)
    values = _working_values(data, call.input_types[0])
    padded = _padded(values, spec.pads_begin, spec.pads_end)
    # u8 and i8 run natively: Pillow rounds each pass, the reference executor of linear truncates
    narrow = dtype if dtype in _NATIVE_INTEGERS else None
    bf16 = call.output_type(0) == "bf16"
    if narrow is not None and spec.mode == "cubic" and data.ndim == 5:
        return _truncated_wrapped(_reference_cubic(padded, call.output_shape(0), spec, axes, scales), narrow)
    result = resize(padded, call.output_shape(0), spec, axes, scales, narrow, bf16)
    if narrow is not None and spec.mode == "linear":
        return _truncated(result, narrow)
    if call.output_type(0) == "bf16":
        return round_to_bf16(result)
    return _stored(result, dtype)


def resize(
    padded: np.ndarray,
    out_shape: Sequence[int],
    spec: Resize,
    axes: Sequence[int],
    scales: Sequence[float] | None,
    narrow: np.dtype | None = None,
    bf16: bool = False,
) -> np.ndarray:
    """The padded float32 data resized to ``out_shape``: each axis whose length changes gets
    its table of taps, applied one axis after the other (Pillow's: W, then H, each pass stored
    in the data's type: with ``narrow``, an integer type, rounded half to even and saturated;
    with ``bf16``, rounded to bf16)."""
    if spec.mode in _PILLOW and len(axes) != 2:
        raise KernelError("the Pillow modes resize exactly two axes")
    # the last axis first (the plugin's order: Pillow's W pass, then H; the JIT kernels' too)
    order = list(enumerate(axes))[::-1]
    result = padded
    linear: list[tuple[int, _Taps]] = []
    for position, axis in order:
        in_len, out_len = padded.shape[axis], out_shape[axis]
        if in_len == out_len:
            # every mode maps an axis of unchanged length onto itself (coordTransToInput's
            # coordinate is the output's index), but the antialiased linear weighs it by its
            # scale all the same (an axis of 1 at scale 1.5): a factor of every weight
            # product, which moves the last bit of the weighted mean (u8 51 where irshape,
            # leaving the factor out, gave 52; by experiment)
            scale = _axis_scale(scales, position, in_len, out_len)
            if spec.mode == "linear" and spec.antialias and out_len and scale != 1:
                linear.insert(
                    0, (axis, _Taps(np.arange(out_len)[:, None], np.full((out_len, 1), scale, _F32)))
                )
            continue
        if out_len == 0:
            result = np.take(result, np.zeros(0, np.int64), axis=axis)
            continue
        if in_len == 0:
            raise KernelError("an empty axis cannot be resized to a longer one")
        scale = _axis_scale(scales, position, in_len, out_len)
        if spec.mode in _PILLOW:
            taps = _pillow_taps(in_len, out_len, scale, spec.mode == "bicubic_pillow")
            result = _apply(result, axis, taps, fused=narrow is None)
            if narrow is not None:
                result = _clipped(np.rint(result), narrow)
            elif bf16:
                result = round_to_bf16(result)
            continue
        taps = _axis_taps(spec, in_len, out_len, scale, axis, padded.ndim)
        if spec.mode == "linear":
            linear.insert(0, (axis, taps))
        else:
            result = _apply(result, axis, taps, fused=True)
    if linear:
        result = _linear_resize(result, linear)
    if result.shape != tuple(out_shape):
        raise KernelError(f"the resize gives {result.shape}, not {tuple(out_shape)}")
    return result


def _axis_scale(scales: Sequence[float] | None, position: int, in_len: int, out_len: int) -> np.float32:
    """The scale of the ``position``-th resized axis: the one given (1 past the scales given),
    else the ratio of its lengths in float32."""
    if scales is not None:
        return _F32(scales[position]) if position < len(scales) else _F32(1)
    return _F32(out_len) / _F32(in_len)


def _second_tap_first(axis: int, rank: int) -> bool:
    """Whether linear_onnx sums an axis's second tap first. The plugin's JIT kernels see the
    data as N, C, D, H, W (``to5Dim``: H is axis rank - 2 from rank 4 up, axis 0 at rank 2,
    none at rank 3) and sum W's and D's taps right then left (``vmulps`` of the second, then
    a fused multiply-add of the first), H's top then bottom: which decides a result lying a
    last bit off a .5 tie of integer data (by experiment, tests/execution/test_resize.py)."""
    height = rank - 2 if rank >= 4 else (0 if rank == 2 else -1)
    return axis != height


def _axis_taps(spec: Resize, in_len: int, out_len: int, scale: np.float32, axis: int, rank: int) -> _Taps:
    coords = source_coordinates(spec.coordinate_mode, out_len, in_len, scale)
    if spec.mode == "nearest":
        index = nearest_index(coords, spec.nearest_mode, bool(scale < 1))
        return _Taps(np.clip(index, 0, in_len - 1)[:, None], None)
    if spec.mode == "linear_onnx":
        return _linear_onnx_taps(coords, in_len, _second_tap_first(axis, rank))
    if spec.mode == "cubic":
        return _cubic_taps(coords, in_len, _F32(spec.cube_coeff))
    return _linear_taps(coords, in_len, scale, spec.antialias)


def source_coordinates(mode: str, out_len: int, in_len: int, scale: np.float32) -> np.ndarray:
    """``coordTransToInput``: the float32 source coordinate of each output position."""
    x = np.arange(out_len, dtype=_F32)
    if scale == 1 or in_len == out_len:
        return x
    half = _F32(0.5)
    if mode == "half_pixel" or (mode == "pytorch_half_pixel" and out_len > 1):
        return (x + half) / scale - half
    if mode == "asymmetric":
        return x / scale
    if mode == "tf_half_pixel_for_nn":
        return (x + half) / scale
    if mode == "align_corners" and out_len > 1:
        return x * (_F32(in_len - 1) / _F32(out_len - 1))
    return np.zeros(out_len, _F32)  # pytorch_half_pixel and align_corners of one output


def nearest_index(coords: np.ndarray, mode: str, downsample: bool) -> np.ndarray:
    """``nearestRound``: the source index of each coordinate, before clamping."""
    if mode == "floor":
        rounded = np.floor(coords)
    elif mode == "ceil":
        rounded = np.ceil(coords)
    elif mode == "simple":
        rounded = np.ceil(coords) if downsample else np.trunc(coords)
    else:
        rounded = _round_half_away(coords)
        if mode == "round_prefer_floor":
            # a coordinate at exactly int + 0.5 (int the truncation) goes down
            at_half = coords == np.trunc(coords) + _F32(0.5)
            rounded = np.where(at_half, np.floor(coords), rounded)
    index: np.ndarray = rounded.astype(np.int64)
    return index


def _round_half_away(values: np.ndarray) -> np.ndarray:
    """C's ``round``: halves away from zero (in float64: the + 0.5 is exact there)."""
    wide = values.astype(np.float64)
    return np.trunc(wide + np.copysign(0.5, wide))


def _linear_onnx_taps(coords: np.ndarray, in_len: int, second_first: bool) -> _Taps:
    """Two taps; ``second_first``: the second is summed first (:func:`_second_tap_first`)."""
    clamped = np.clip(coords, _F32(0), _F32(in_len - 1))
    first = np.minimum(clamped.astype(np.int64), in_len - 1)
    second = np.minimum(first + 1, in_len - 1)
    weight_first = np.abs(clamped - second.astype(_F32))
    weight_second = np.abs(clamped - first.astype(_F32))
    same = first == second
    weight_first[same] = 0.5
    weight_second[same] = 0.5
    if not second_first:
        return _Taps(np.stack([first, second], 1), np.stack([weight_first, weight_second], 1))
    return _Taps(np.stack([second, first], 1), np.stack([weight_second, weight_first], 1))


def _cubic_taps(coords: np.ndarray, in_len: int, a: np.float32) -> _Taps:
    base = np.floor(coords)
    m = np.abs(coords - base)
    one, two, three = _F32(1), _F32(2), _F32(3)
    weights = np.stack(
        [
            a * (m - one) * (m - one) * m,
            ((a + two) * m - (a + three)) * m * m + one,
            (((-a - two) * m + (two * a + three)) * m - a) * m,
            -a * m * m * (m - one),
        ],
        1,
    ).astype(_F32)
    indices = base.astype(np.int64)[:, None] + np.arange(-1, 3)
    return _Taps(np.clip(indices, 0, in_len - 1), weights)


def _linear_taps(coords: np.ndarray, in_len: int, scale: np.float32, antialias: bool) -> _Taps:
    """``buildTblLinear``: ``a * triangle(a * d)`` over ``round(c) -+ r`` (0 outside the input),
    not normalised: :func:`_linear_resize` divides by the sum over every axis's taps."""
    a = scale if antialias else _F32(1)  # an upscale too narrows the filter (by experiment)
    radius = 2 if scale > 1 else int(np.ceil(_F32(2) / a))
    centre = _round_half_away(coords).astype(np.int64)
    indices = centre[:, None] + np.arange(-radius, radius + 1)
    inside = (indices >= 0) & (indices < in_len)
    distance = coords[:, None] - indices.astype(_F32)
    triangle = np.maximum(_F32(0), _F32(1) - np.abs(a * distance))
    weights = np.where(inside, a * triangle, _F32(0)).astype(_F32)
    return _Taps(np.clip(indices, 0, in_len - 1), weights)


def _linear_resize(values: np.ndarray, axes_taps: list[tuple[int, _Taps]]) -> np.ndarray:
    """The reference executor's linear mode: the weighted sum of :func:`_combined_sums`
    divided by the weights' sum (0 where it is 0)."""
    total, weight_sum = _combined_sums(values, axes_taps)
    quotient: np.ndarray = np.divide(total, weight_sum, out=np.zeros_like(total), where=weight_sum != 0)
    return quotient


def _reference_cubic(
    values: np.ndarray,
    out_shape: Sequence[int],
    spec: Resize,
    axes: Sequence[int],
    scales: Sequence[float] | None,
) -> np.ndarray:
    """``ov::reference``'s cubic (the plugin's rank-5 cubic of u8 and i8, by experiment):
    the four taps of every resized axis at ``floor(c) - 1 .. floor(c) + 2`` clamped, Keys'
    weights in the reference's form, every combination summed in float32, not normalised."""
    axes_taps: list[tuple[int, _Taps]] = []
    for position, axis in enumerate(axes):
        in_len, out_len = values.shape[axis], out_shape[axis]
        if in_len == out_len:
            continue  # weights 0, 1, 0, 0 on the element itself
        if out_len == 0:
            return np.zeros(tuple(out_shape), _F32)
        if in_len == 0:
            raise KernelError("an empty axis cannot be resized to a longer one")
        scale = _axis_scale(scales, position, in_len, out_len)
        if spec.coordinate_mode == "align_corners" and out_len > 1:
            # the reference multiplies before it divides (the plugin divides first)
            x = np.arange(out_len, dtype=_F32)
            coords = x * _F32(in_len - 1) / _F32(out_len - 1)
        else:
            coords = source_coordinates(spec.coordinate_mode, out_len, in_len, scale)
        axes_taps.append((axis, _reference_cubic_taps(coords, in_len, _F32(spec.cube_coeff))))
    if not axes_taps:
        return values
    total, _ = _combined_sums(values, axes_taps)
    return total


def _reference_cubic_taps(coords: np.ndarray, in_len: int, a: np.float32) -> _Taps:
    base = np.floor(coords)
    s = np.abs(coords - base).astype(_F32)
    one, two, three, four, five, eight = (_F32(v) for v in (1, 2, 3, 4, 5, 8))
    near, far, next_far = s + one, one - s, two - s
    weights = np.stack(
        [
            ((a * near - five * a) * near + eight * a) * near - four * a,
            ((a + two) * s - (a + three)) * s * s + one,
            ((a + two) * far - (a + three)) * far * far + one,
            ((a * next_far - five * a) * next_far + eight * a) * next_far - four * a,
        ],
        1,
    ).astype(_F32)
    indices = base.astype(np.int64)[:, None] + np.arange(-1, 3)
    return _Taps(np.clip(indices, 0, in_len - 1), weights)


def _combined_sums(values: np.ndarray, axes_taps: list[tuple[int, _Taps]]) -> tuple[np.ndarray, np.ndarray]:
    """Every combination of the axes' taps (the first axis outermost), weighted by the
    product of their weights: the weighted values and the weights, each summed in float32;
    taps weighing 0 are skipped."""
    out_shape = list(values.shape)
    for axis, taps in axes_taps:
        out_shape[axis] = taps.indices.shape[0]
    total = np.zeros(out_shape, _F32)
    weight_sum = np.zeros(out_shape, _F32)
    ranges = [range(taps.indices.shape[1]) for _, taps in axes_taps]
    for combination in itertools.product(*ranges):
        gathered = values
        weight: np.ndarray | None = None
        for (axis, taps), k in zip(axes_taps, combination, strict=True):
            gathered = np.take(gathered, taps.indices[:, k], axis=axis)
            shape = [1] * values.ndim
            shape[axis] = taps.indices.shape[0]
            factor = taps.weights[:, k].reshape(shape)  # type: ignore[index]
            weight = factor if weight is None else weight * factor
        assert weight is not None
        nonzero = weight != 0
        total += np.where(nonzero, weight * gathered, _F32(0))
        weight_sum += np.broadcast_to(weight, out_shape)
    return total, weight_sum


def _pillow_taps(in_len: int, out_len: int, scale: np.float32, bicubic: bool) -> _Taps:
    """Pillow's ``precompute_coeffs`` (whatever the coordinate transform says), in float32 as
    the plugin computes it: the filter centred on ``(x + 0.5) * in / out``, stretched by the
    downscale factor, over ``[int(c - support + 0.5), int(c + support + 0.5))`` inside the
    input, normalised by its sum."""
    ratio = _F32(in_len) / _F32(out_len)
    stretch = max(ratio, _F32(1))
    support = _F32(2.0 if bicubic else 1.0) * stretch
    length = int(np.ceil(support)) * 2 + 1
    centre = (np.arange(out_len, dtype=_F32) + _F32(0.5)) * ratio
    half = _F32(0.5)
    low = np.maximum(np.trunc(centre - support + half).astype(np.int64), 0)
    high = np.minimum(np.trunc(centre + support + half).astype(np.int64), in_len)
    offsets = np.arange(length)
    indices = low[:, None] + offsets
    arg = (indices.astype(_F32) - centre[:, None] + half) * (_F32(1) / stretch)
    weights = _pillow_bicubic(arg) if bicubic else np.maximum(_F32(0), _F32(1) - np.abs(arg))
    weights = np.where(offsets < (high - low)[:, None], weights, _F32(0)).astype(_F32)
    total = np.zeros(out_len, _F32)
    for k in range(length):  # summed in order, as the plugin sums them
        total += weights[:, k]
    normalised = np.divide(weights, total[:, None], out=weights.copy(), where=total[:, None] != 0)
    return _Taps(np.clip(indices, 0, in_len - 1), normalised.astype(_F32))


def _pillow_bicubic(arg: np.ndarray) -> np.ndarray:
    a = -0.5  # the plugin's, whatever cube_coeff says (by experiment)
    x = np.abs(arg).astype(np.float64)
    near = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    far = ((((x - 5) * x + 8) * x - 4) * a).astype(_F32)
    return np.where(x < 1, near.astype(_F32), np.where(x < 2, far, _F32(0)))


def _apply(values: np.ndarray, axis: int, taps: _Taps, fused: bool = False) -> np.ndarray:
    """``values`` resampled along ``axis``: each output's taps summed in order, in float32
    (``fused``: each step a fused multiply-add, rounded once, as the plugin's JIT kernels)."""
    if taps.weights is None:
        return np.take(values, taps.indices[:, 0], axis=axis)
    shape = [1] * values.ndim
    shape[axis] = taps.weights.shape[0]
    total: np.ndarray | None = None
    for k in range(taps.weights.shape[1]):
        weight = taps.weights[:, k].reshape(shape)
        gathered = np.take(values, taps.indices[:, k], axis=axis)
        if fused:
            term = gathered.astype(np.float64) * weight
            total = (term if total is None else total + term).astype(_F32)
        else:
            term = gathered * weight
            total = term if total is None else total + term
    assert total is not None
    return total


def _padded(values: np.ndarray, begin: Sequence[int], end: Sequence[int]) -> np.ndarray:
    rank = values.ndim
    pads = [(begin[i] if i < len(begin) else 0, end[i] if i < len(end) else 0) for i in range(rank)]
    if not any(b or e for b, e in pads):
        return values
    return np.pad(values, pads)


def _working_values(data: np.ndarray, element_type: str) -> np.ndarray:
    """The data as the plugin computes on it: float32 (i64 wrapped to 32 bits first)."""
    if element_type == "i64":
        data = data.astype(np.int32)
    return data.astype(_F32)


_NATIVE_INTEGERS = (np.dtype(np.uint8), np.dtype(np.int8))


def _bounds(dtype: np.dtype) -> tuple[float, float]:
    """The range an integer result saturates to (i32, and i64 run as i32: the float32 range)."""
    if dtype in (np.dtype(np.int32), np.dtype(np.int64)):
        return -(2.0**31), _INT32_HIGH
    info = np.iinfo(dtype)
    return float(info.min), float(info.max)


def _clipped(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    low, high = _bounds(dtype)
    clipped: np.ndarray = np.clip(values, _F32(low), _F32(high))
    return clipped


def _stored(result: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A float32 result in the output's type: integers rounded half to even and saturated."""
    if dtype.kind == "f":
        return result.astype(dtype)
    return _clipped(np.rint(result), dtype).astype(dtype)


def _truncated(result: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The reference executor's store of u8 and i8: truncated toward zero (saturated here)."""
    return _clipped(np.trunc(result), dtype).astype(dtype)


def _truncated_wrapped(result: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The plugin's store of a rank-5 cubic's u8 and i8 results: truncated toward zero and
    wrapped to 8 bits (an overshoot of u8 data to -27.6 gives 229; by experiment)."""
    wrapped: np.ndarray = np.trunc(result).astype(np.int64).astype(dtype)
    return wrapped


# --- GridSample-9 ----------------------------------------------------------------------------------


def _grid_sample_bytes(call: KernelCall) -> int:
    """Float32 copies of the inputs, a few output-sized arrays (the gathered neighbours and
    their sums) and int64 indices of the grid's points."""
    points = call.inputs[1].size // 2
    return int(4 * (call.inputs[0].size + call.inputs[1].size) + 6 * output_bytes(call, 0) + 8 * 8 * points)


@working_memory(_grid_sample_bytes)
def grid_sample(call: KernelCall) -> np.ndarray:
    """GridSample-9: the data sampled at the grid's normalised (x, y) points."""
    grid = call.inputs[1].astype(_F32)
    align = bool(call.attribute("align_corners"))
    mode, padding = str(call.attribute("mode")), str(call.attribute("padding_mode"))
    height, width = call.inputs[0].shape[2], call.inputs[0].shape[3]
    y = _denormalised(grid[..., 1], height, align)
    x = _denormalised(grid[..., 0], width, align)
    dtype = call.output_dtype(0)
    if mode == "nearest":  # the data's own values, integers whole (2147483646 stays so)
        nearest = _Sampler(call.inputs[0], padding, align)
        return nearest.at(np.rint(y).astype(np.int64), np.rint(x).astype(np.int64)).astype(dtype)
    sampler = _Sampler(call.inputs[0].astype(_F32), padding, align)
    result = _bilinear(sampler, y, x) if mode == "bilinear" else _bicubic(sampler, y, x)
    if dtype in (np.dtype(np.int32), np.dtype(np.int64)):
        return _f32_to_i32(result).astype(dtype)
    if call.output_type(0) == "bf16":
        return round_to_bf16(result)
    return _stored(result, dtype)


def _f32_to_i32(values: np.ndarray) -> np.ndarray:
    """float32 values truncated to i32 as x86's ``cvttps2dq`` converts them (the plugin's
    GridSample, by experiment): outside the i32 range, and NaN, is -2^31 (2147483646 read as
    the float32 2^31 comes back -2147483648)."""
    truncated = np.trunc(values.astype(np.float64))
    inside = (truncated >= -(2.0**31)) & (truncated < 2.0**31)
    converted: np.ndarray = np.where(inside, np.nan_to_num(truncated), -(2.0**31)).astype(np.int32)
    return converted


def _denormalised(values: np.ndarray, length: int, align: bool) -> np.ndarray:
    """The grid's values as pixel coordinates, as the plugin's JIT kernel computes them in fused
    multiply-adds: ``v * c + c`` with ``c = (len - 1) / 2`` (align_corners), else
    ``(v * len + len) * 0.5 - 0.5``."""
    if align:
        centre = np.full_like(values, (_F32(length) - _F32(1)) / _F32(2))
        return _fused(values, centre, centre)
    size = np.full_like(values, _F32(length))
    return _fused(
        _fused(values, size, size), np.full_like(values, _F32(0.5)), np.full_like(values, _F32(-0.5))
    )


class _Sampler:
    """The data's values at integer (y, x) points of every batch's grid, padded as the mode
    says: zeros outside, the border's values, or the data reflected."""

    def __init__(self, data: np.ndarray, padding: str, align: bool) -> None:
        self.data = data
        self.padding = padding
        self.align = align
        batches, channels = data.shape[:2]
        self.batch = np.arange(batches)[:, None, None, None]
        self.channel = np.arange(channels)[None, :, None, None]

    def at(self, y: np.ndarray, x: np.ndarray) -> np.ndarray:
        """``[N, C, H_out, W_out]`` values at the ``[N, H_out, W_out]`` points."""
        height, width = self.data.shape[2], self.data.shape[3]
        inside = None
        if self.padding == "zeros":
            inside = (y >= 0) & (y < height) & (x >= 0) & (x < width)
            y, x = np.clip(y, 0, height - 1), np.clip(x, 0, width - 1)
        elif self.padding == "border":
            y, x = np.clip(y, 0, height - 1), np.clip(x, 0, width - 1)
        else:
            y, x = self._reflected(y, height), self._reflected(x, width)
        values: np.ndarray = self.data[self.batch, self.channel, y[:, None], x[:, None]]
        if inside is not None:
            values = np.where(inside[:, None], values, values.dtype.type(0))
        return values

    def _reflected(self, index: np.ndarray, length: int) -> np.ndarray:
        if self.align:
            period = 1 if length == 1 else 2 * (length - 1)
            folded = np.abs(index) % period
            reflected: np.ndarray = np.where(folded >= length, period - folded, folded)
            return reflected
        period = 2 * length
        folded = index % period
        reflected = np.where(folded >= length, period - 1 - folded, folded)
        return reflected


def _bilinear(sampler: _Sampler, y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """As the plugin's JIT kernel computes it: each row's ``v0 + dx * (v1 - v0)`` as
    ``dx * v1 - (dx * v0 - v0)``, then ``q0 + dy * (q1 - q0)``, in fused multiply-adds (so an
    infinity beside a finite value in one row and not the other is NaN, not the infinity)."""
    top, left = np.floor(y), np.floor(x)
    dy, dx = (y - top)[:, None], (x - left)[:, None]
    top_i, left_i = top.astype(np.int64), left.astype(np.int64)
    rows = []
    for row in (top_i, top_i + 1):
        first, second = sampler.at(row, left_i), sampler.at(row, left_i + 1)
        rows.append(_fused(second, dx, -_fused(first, dx, -first)))
    upper, lower = rows
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is the plugin's NaN too
        difference = lower - upper
    return _fused(difference, dy, upper)


def _fused(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``a * b + c`` of float32 values rounded once, as a fused multiply-add: the product is
    exact in float64 (the sum's two roundings agree with one but on rare double-rounding ties)."""
    with np.errstate(invalid="ignore", over="ignore"):
        result: np.ndarray = (a.astype(np.float64) * b + c).astype(_F32)
    return result


def _bicubic(sampler: _Sampler, y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """As the plugin's JIT kernel computes it: each row's dot product of the four neighbours
    with the x weights (a product, then fused multiply-adds, left to right), and the rows'
    with the y weights (fused multiply-adds from 0, top to bottom)."""
    top, left = np.floor(y), np.floor(x)
    weights_y = _keys((y - top).astype(_F32))
    weights_x = _keys((x - left).astype(_F32))
    top_i, left_i = top.astype(np.int64) - 1, left.astype(np.int64) - 1
    result = np.zeros(sampler.data.shape[:2] + y.shape[1:], _F32)
    with np.errstate(invalid="ignore", over="ignore"):
        for j in range(4):
            row = sampler.at(top_i + j, left_i) * weights_x[0][:, None]
            for i in range(1, 4):
                row = _fused(sampler.at(top_i + j, left_i + i), weights_x[i][:, None], row)
            result = _fused(row, weights_y[j][:, None], result)
    return result


def _keys(d: np.ndarray) -> list[np.ndarray]:
    """The four cubic convolution weights (Keys, a = -0.75) of the fraction ``d``, in the
    plugin's JIT kernel's forms and fused multiply-adds (``a`` the constant -0.75)."""
    a = np.full_like(d, _F32(-0.75))
    one, two = np.ones_like(d), np.full_like(d, _F32(2))
    first = _fused(d, d, _fused(d, -two, one)) * d * a  # a d (d - 1)^2
    second = _fused((_fused(d, np.full_like(d, _F32(1.25)), np.full_like(d, _F32(-2.25))) * d), d, one)
    third = _fused(_fused(d, np.full_like(d, _F32(-1.25)), np.full_like(d, _F32(1.5))), d, -a) * d
    scaled = a * d * d
    fourth = _fused(scaled, -d, scaled)  # a d^2 (1 - d)
    return [first, second, third, fourth]
