"""Kernels of the colour family (irshape/shapes/colour.py): NV12toRGB-8, NV12toBGR-8, I420toRGB-8,
I420toBGR-8, RGBtoNV12-17 and BGRtoNV12-17.

OpenVINO's reference formulas (``convert_color_nv12.hpp``), in f32: from YUV,
``c = Y - 16, d = U - 128, e = V - 128``, ``R = 1.164c + 1.596e``, ``G = 1.164c - 0.391d - 0.813e``,
``B = 1.164c + 2.018d``, each clamped to [0, 255]; each 2 x 2 block of pixels shares its U and V.

What the CPU plugin computes (openvino 2026.4.1, ``INFERENCE_PRECISION_HINT=f32``), by
``tests/execution/test_colour.py``: those f32 values exactly, but a u8 image's are rounded half
to even (64.5 is 64), where the reference rounds half away from zero; a real image's are
clamped by ``max(x, 0)`` then ``min(x, 255)``, so a NaN (from a NaN or infinite pixel) is 0.

RGBtoNV12/BGRtoNV12: the CPU plugin has no node for them ("Unsupported operation of type:
RGBtoNV12") and OpenVINO 2026.4's core no evaluate (``Node.evaluate`` returns false), so the
kernel follows OpenVINO's reference implementation (``convert_color_to_nv12.hpp``) and is tested
on hand-worked pixels and by a round trip through the plugin's NV12toRGB
(tests/execution/test_colour.py). In f32, per pixel: ``Y = 0.257R + 0.504G + 0.098B + 16``,
``U = -0.148R - 0.291G + 0.439B + 128``, ``V = 0.439R - 0.368G - 0.071B + 128``, each clamped
to [0, 255] (for an integer type rounded half away from zero first) and stored in the image's
type; a 2 x 2 block's U (and V) is the mean of its four stored values, rounded half away from
zero for an integer type. One plane is Y's rows then the UV rows (U and V interleaved, a pair a
block), ``[N, H * 3 / 2, W, 1]``; two planes are Y ``[N, H, W, 1]`` and UV ``[N, H/2, W/2, 2]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from irshape.kernels import KernelCall
from irshape.kernels.stored import as_output


def _stored(values: np.ndarray, dtype: np.dtype[Any]) -> np.ndarray:
    """Clamped to [0, 255] as the plugin's ``max(x, 0)`` then ``min(x, 255)`` clamp (a NaN is 0:
    its maximum gives the second operand when one is NaN); for an integer type rounded half to
    even, as the plugin rounds."""
    clamped: np.ndarray = np.minimum(np.fmax(values, np.float32(0)), np.float32(255))
    return np.rint(clamped) if dtype.kind in "iu" else clamped


def _upsampled(plane: np.ndarray) -> np.ndarray:
    """A chroma plane ``[N, H/2, W/2]`` spread over its 2 x 2 blocks."""
    doubled: np.ndarray = plane.repeat(2, axis=1).repeat(2, axis=2)
    return doubled


def _to_rgb(call: KernelCall, y: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``[N, H, W, 3]`` from Y ``[N, H, W]`` and U, V ``[N, H/2, W/2]``."""
    dtype = call.output_dtype()
    c = y.astype(np.float32) - np.float32(16)
    d = _upsampled(u.astype(np.float32)) - np.float32(128)
    e = _upsampled(v.astype(np.float32)) - np.float32(128)
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is NaN (stored as 0)
        r = np.float32(1.164) * c + np.float32(1.596) * e
        g = np.float32(1.164) * c - np.float32(0.391) * d - np.float32(0.813) * e
        b = np.float32(1.164) * c + np.float32(2.018) * d
    channels = (b, g, r) if call.schema.op.endswith("BGR") else (r, g, b)
    return as_output(call, _stored(np.stack(channels, axis=-1), dtype))


def nv12_to_rgb(call: KernelCall) -> np.ndarray:
    """NV12toRGB-8 and NV12toBGR-8: one plane (Y over interleaved UV) or Y and UV."""
    if len(call.inputs) == 1:
        image = call.inputs[0][..., 0]
        height = image.shape[1] * 2 // 3
        y, uv = image[:, :height], image[:, height:]
        uv = uv.reshape(uv.shape[0], height // 2, image.shape[2] // 2, 2)  # (no -1: empty images)
    else:
        y, uv = call.inputs[0][..., 0], call.inputs[1]
    return _to_rgb(call, y, uv[..., 0], uv[..., 1])


def i420_to_rgb(call: KernelCall) -> np.ndarray:
    """I420toRGB-8 and I420toBGR-8: one plane (Y, then U, then V) or Y, U and V."""
    if len(call.inputs) == 1:
        image = call.inputs[0][..., 0]
        batch, width = image.shape[0], image.shape[2]
        height = image.shape[1] * 2 // 3
        chroma = image[:, height:].reshape(batch, 2, height // 2, width // 2)
        return _to_rgb(call, image[:, :height], chroma[:, 0], chroma[:, 1])
    y, u, v = (plane[..., 0] for plane in call.inputs)
    return _to_rgb(call, y, u, v)


def _rounded_half_away(values: np.ndarray) -> np.ndarray:
    """``std::round``: halves away from zero (numpy's rint rounds them to even); in f64, where
    ``|x| + 0.5`` is exact for every f32 x."""
    wide = values.astype(np.float64)
    rounded: np.ndarray = np.copysign(np.floor(np.abs(wide) + 0.5), wide)
    return rounded


def _stored_yuv(call: KernelCall, values: np.ndarray) -> np.ndarray:
    """An f32 Y, U or V value as the reference stores it: rounded (integer types), clamped to
    [0, 255], in the image's type."""
    if call.output_dtype(0).kind in "iu":
        values = _rounded_half_away(values)
    return as_output(call, np.clip(values, 0.0, 255.0))


def _block_mean(call: KernelCall, plane: np.ndarray) -> np.ndarray:
    """Each 2 x 2 block's mean of a stored U or V plane ``[N, H, W]``: summed in f32 in the
    reference's order (row by row), divided by 4, rounded half away from zero for integers."""
    values = plane.astype(np.float32)
    total = values[:, 0::2, 0::2] + values[:, 0::2, 1::2]
    total += values[:, 1::2, 0::2]
    total += values[:, 1::2, 1::2]
    mean = total / np.float32(4)
    if call.output_dtype(0).kind in "iu":
        mean = _rounded_half_away(mean)
    return as_output(call, mean)


def rgb_to_nv12(call: KernelCall) -> list[np.ndarray]:
    """RGBtoNV12-17 and BGRtoNV12-17 (see the module docstring)."""
    image = call.inputs[0].astype(np.float32)
    red, green, blue = (image[..., i] for i in ((2, 1, 0) if call.schema.op.startswith("BGR") else (0, 1, 2)))

    def weighted(a: float, b: float, c: float, offset: float) -> np.ndarray:
        with np.errstate(invalid="ignore", over="ignore"):  # infinite pixels: inf - inf is NaN
            total: np.ndarray = np.float32(a) * red + np.float32(b) * green + np.float32(c) * blue
            return total + np.float32(offset)

    y = _stored_yuv(call, weighted(0.257, 0.504, 0.098, 16))
    u = _block_mean(call, _stored_yuv(call, weighted(-0.148, -0.291, 0.439, 128)))
    v = _block_mean(call, _stored_yuv(call, weighted(0.439, -0.368, -0.071, 128)))
    uv = np.stack([u, v], axis=-1)  # [N, H/2, W/2, 2]: U and V interleaved along a row
    if call.attribute("single_plane"):
        rows = uv.reshape(uv.shape[0], uv.shape[1], -1)  # [N, H/2, W]
        return [np.concatenate([y, rows], axis=1)[..., None]]
    return [y[..., None], uv]
