"""Kernels of the colour family (irshape/shapes/colour.py): NV12toRGB-8, NV12toBGR-8, I420toRGB-8,
I420toBGR-8; RGBtoNV12-17 and BGRtoNV12-17 are refused (OpenVINO cannot run them).

OpenVINO's reference formulas (``convert_color_nv12.hpp``), in f32: from YUV,
``c = Y - 16, d = U - 128, e = V - 128``, ``R = 1.164c + 1.596e``, ``G = 1.164c - 0.391d - 0.813e``,
``B = 1.164c + 2.018d``, each clamped to [0, 255]; each 2 x 2 block of pixels shares its U and V.

What the CPU plugin computes (openvino 2026.4.1, ``INFERENCE_PRECISION_HINT=f32``), by
``tests/execution/test_colour.py``: those f32 values exactly, but a u8 image's are rounded half
to even (64.5 is 64), where the reference rounds half away from zero. The plugin has no
RGBtoNV12/BGRtoNV12 node ("Unsupported operation of type: RGBtoNV12") and OpenVINO's core has no
evaluate for them either (``Node.evaluate`` returns false, so a Const image is not folded):
their kernel raises ``UnsupportedByOpenVINOError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from irshape.kernels import KernelCall, UnsupportedByOpenVINOError
from irshape.kernels.stored import as_output


def _stored(values: np.ndarray, dtype: np.dtype[Any]) -> np.ndarray:
    """Clamped to [0, 255]; for an integer type rounded half to even, as the plugin rounds."""
    clamped: np.ndarray = np.clip(values, 0.0, 255.0)
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
        uv = uv.reshape(uv.shape[0], height // 2, -1, 2)
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


def rgb_to_nv12(call: KernelCall) -> list[np.ndarray]:
    """RGBtoNV12-17 and BGRtoNV12-17: OpenVINO 2026.4 computes them nowhere (see above)."""
    raise UnsupportedByOpenVINOError(f"OpenVINO has no implementation of {call.schema.op} to compare with")
