"""Kernels of the signal family (irshape/shapes/signal.py): DFT-7, IDFT-7, RDFT-9, IRDFT-9,
STFT-15 and ISTFT-16, on numpy's FFT (pocketfft, in float64, rounded once to the output type).

A complex tensor is a real one whose last dim of 2 holds the real and imaginary parts; its
axes count in the complex rank (one less). Each transformed axis is first cut or zero-padded at
its end to its ``signal_size`` (-1 keeps the dim), as numpy's ``s``:

* DFT: ``fftn``, unnormalised; IDFT: ``ifftn``, divided by the product of the sizes.
* RDFT: ``rfftn`` of the real data (the last listed axis keeps ``n // 2 + 1`` bins). The CPU
  plugin cannot build an RDFT whose signal_size pads an axis, nor an RDFT or IRDFT whose
  signal_size holds -1 (OpenVINO's reference computes both): the kernels refuse them
  (:class:`UnsupportedByOpenVINOError`).
* IRDFT: ``irfftn``; the last listed axis's output length is its signal_size, or
  ``2 * (d - 1)`` without one (or -1). The imaginary parts of its DC and Nyquist bins do not
  contribute, as in OpenVINO's reference, which extends the spectrum by its Hermitian symmetry.
* STFT: the window zero-padded to frame_size, centred (``(frame_size - window) // 2`` zeros
  first); frame ``f`` is ``signal[f * step : f * step + frame_size] * window``, its RDFT the
  frame's ``frame_size // 2 + 1`` bins: ``[batch,] frames, bins, 2``, or ``[batch,] bins,
  frames, 2`` with ``transpose_frames``.
* ISTFT: each frame's IRDFT (frame_size samples) times the padded window is overlap-added at
  ``f * step``, and divided by the overlap-added squared window (0 where that is 0), times
  ``sqrt(frame_size)`` if ``normalized``; ``center`` drops ``frame_size // 2`` samples at the
  start; the output is cut or zero-padded to its length. (An older reference, istft.cpp of
  2025, neither multiplied by the window nor squared it: the CPU plugin of 2026.4 does both.)
* IRDFT whose signal_size changes the data's dims: the CPU plugin returns uninitialised memory
  (values like 1e25 and 1e-41) where it pads an axis other than the last listed, slightly or
  wholly wrong values where the last listed axis needs more bins than the data has (a
  signal_size above ``2 * (d - 1)``), and at times where it cuts (axes [2, 0, 1] with sizes
  [3, 5, 2] on [5, 2, 4]: 1e30; other cuts agree); random layouts disagree in about 1 of 15.
  The kernel fuzzer narrowed it down: over one or two axes every cutting signal_size tried
  agrees (389 layouts), over three axes about 2 layouts in 3 disagree, a third of those
  changing from run to run (300 layouts of rank 3 and 4).
  The kernel computes what the op defines (zero padding, cutting at the end), which is what
  the plugin gives in the layouts where it agrees with itself (tests/execution/test_signal.py
  holds such layouts, and pads checked against the explicitly padded data).
* ISTFT with a signal_length of 0 aborts the plugin's process (SIGABRT, found by the kernel
  fuzzer); the kernel gives the empty output the op defines.

Established against the CPU plugin (openvino 2026.4.1, ``INFERENCE_PRECISION_HINT=f32``) by
``tests/execution/test_signal.py``.
"""

from __future__ import annotations

import math

import numpy as np

from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError, output_bytes, working_memory
from irshape.kernels.stored import as_output


def _fourier_working_bytes(call: KernelCall) -> int:
    """float64/complex128 copies: the data (8 bytes an element), the transform and its real
    pairs (16 bytes an output element, twice), the output's own bytes."""
    elements = output_bytes(call, 0) // max(1, call.output_dtype().itemsize)
    return 8 * call.inputs[0].size + 40 * elements


def _frames_working_bytes(call: KernelCall) -> int:
    """The Fourier transforms' temporaries, and three float64 copies of every frame's samples
    (windowed, transformed, padded for the overlap-add)."""
    size, step = _frame_parameters(call)
    data = call.inputs[0]
    if call.schema.function == "istft":  # [batch..., bins, frames, 2]
        batch, frames = math.prod(data.shape[:-3]), data.shape[-2]
    else:  # [batch..., samples]
        batch, frames = math.prod(data.shape[:-1]), max(0, (data.shape[-1] - size) // step + 1)
    return int(_fourier_working_bytes(call) + 3 * 8 * batch * frames * max(size, step))


def _complex(data: np.ndarray) -> np.ndarray:
    """A ``[..., 2]`` real tensor as complex128."""
    pairs = data.astype(np.float64)
    result: np.ndarray = pairs[..., 0] + 1j * pairs[..., 1]
    return result


def _pairs(call: KernelCall, values: np.ndarray) -> np.ndarray:
    """A complex tensor as ``[..., 2]`` in the output's element type."""
    return as_output(call, np.stack([values.real, values.imag], axis=-1))


def _axes(call: KernelCall, rank: int) -> list[int]:
    """The axes input's values, made non-negative in ``rank``."""
    axes = [int(a) for a in call.inputs[1].reshape(-1)]
    return [a + rank if a < 0 else a for a in axes]


def _sizes(call: KernelCall, shape: tuple[int, ...], axes: list[int], last: int | None = None) -> list[int]:
    """Each axis's signal size: the signal_size input's value, the dim where it is -1 or absent
    (``last``, when given, stands for the last axis's missing or -1 size)."""
    given = [int(s) for s in call.inputs[2].reshape(-1)] if len(call.inputs) > 2 else [-1] * len(axes)
    sizes = [shape[axis] if size == -1 else max(size, 0) for axis, size in zip(axes, given, strict=True)]
    if last is not None and given[-1] == -1:
        sizes[-1] = last
    return sizes


def _empty(call: KernelCall) -> np.ndarray | None:
    """An output of no elements (data with a dim of 0 the transform keeps): the plugin does not
    execute the node, so nothing is checked (an RDFT's padding signal_size neither)."""
    shape = call.output_shape()
    return np.zeros(shape, dtype=call.output_dtype()) if 0 in shape else None


def _complex_transform(call: KernelCall, inverse: bool) -> np.ndarray:
    empty = _empty(call)
    if empty is not None:
        return empty
    values = _complex(call.inputs[0])
    axes = _axes(call, values.ndim)
    sizes = _sizes(call, values.shape, axes)
    transform = np.fft.ifftn if inverse else np.fft.fftn
    return _pairs(call, transform(values, s=sizes, axes=axes))


@working_memory(_fourier_working_bytes)
def dft(call: KernelCall) -> np.ndarray:
    """DFT-7."""
    return _complex_transform(call, inverse=False)


@working_memory(_fourier_working_bytes)
def idft(call: KernelCall) -> np.ndarray:
    """IDFT-7."""
    return _complex_transform(call, inverse=True)


def _refuse_plugin_sizes(call: KernelCall, shape: tuple[int, ...], axes: list[int], pad: bool) -> None:
    """The CPU plugin cannot build an RDFT or IRDFT whose signal_size holds -1 ("cannot create
    std::vector larger than max_size()"), nor an RDFT that pads ("Signal size greater than input
    size is not supported yet")."""
    if len(call.inputs) <= 2:
        return
    given = [int(s) for s in call.inputs[2].reshape(-1)]
    if -1 in given:
        raise UnsupportedByOpenVINOError(
            f"OpenVINO's CPU plugin cannot build {call.schema.op} with a signal_size of -1"
        )
    if pad and any(size > shape[axis] for axis, size in zip(axes, given, strict=True)):
        raise UnsupportedByOpenVINOError(
            "OpenVINO's CPU plugin cannot build an RDFT whose signal_size pads the data"
        )


@working_memory(_fourier_working_bytes)
def rdft(call: KernelCall) -> np.ndarray:
    """RDFT-9."""
    empty = _empty(call)
    if empty is not None:
        return empty
    data = call.inputs[0].astype(np.float64)
    axes = _axes(call, data.ndim)
    _refuse_plugin_sizes(call, data.shape, axes, pad=True)
    sizes = _sizes(call, data.shape, axes)
    return _pairs(call, np.fft.rfftn(data, s=sizes, axes=axes))


@working_memory(_fourier_working_bytes)
def irdft(call: KernelCall) -> np.ndarray:
    """IRDFT-9."""
    empty = _empty(call)
    if empty is not None:
        return empty
    values = _complex(call.inputs[0])
    axes = _axes(call, values.ndim)
    _refuse_plugin_sizes(call, values.shape, axes, pad=False)
    sizes = _sizes(call, values.shape, axes, last=2 * (values.shape[axes[-1]] - 1))
    if sizes[-1] <= 0:
        raise KernelError(f"IRDFT's output length along axis {axes[-1]} is {sizes[-1]}")
    return as_output(call, np.fft.irfftn(values, s=sizes, axes=axes))


def _padded_window(window: np.ndarray, frame_size: int) -> np.ndarray:
    """The window zero-padded to frame_size, centred as OpenVINO's ``pad_window``."""
    padded = np.zeros(frame_size, dtype=np.float64)
    start = (frame_size - min(window.size, frame_size)) // 2
    padded[start : start + window.size] = window.astype(np.float64)[:frame_size]
    return padded


def _frame_parameters(call: KernelCall) -> tuple[int, int]:
    return int(call.inputs[2].reshape(-1)[0]), int(call.inputs[3].reshape(-1)[0])


@working_memory(_frames_working_bytes)
def stft(call: KernelCall) -> np.ndarray:
    """STFT-15."""
    signal = call.inputs[0].astype(np.float64)
    frame_size, frame_step = _frame_parameters(call)
    window = _padded_window(call.inputs[1], frame_size)
    frames = (signal.shape[-1] - frame_size) // frame_step + 1
    starts = np.arange(frames) * frame_step
    windows = signal[..., starts[:, None] + np.arange(frame_size)] * window  # [batch..., frames, size]
    spectrum = np.fft.rfft(windows, axis=-1)  # [batch..., frames, bins]
    if call.attribute("transpose_frames"):
        spectrum = np.swapaxes(spectrum, -1, -2)
    return _pairs(call, spectrum)


def _overlap_add(frames: np.ndarray, step: int, length: int) -> np.ndarray:
    """``frames [..., count, size]`` summed into ``[..., length]``, frame ``f`` at ``f * step``.
    Frames ``k, k + m, k + 2m...`` with ``m = ceil(size / step)`` do not overlap: each such set
    is one zero-padded, flattened, contiguous add (m of them, not one per frame)."""
    count, size = frames.shape[-2:]
    every = -(-size // step)
    block = every * step
    summed = np.zeros((*frames.shape[:-2], length + block), dtype=frames.dtype)
    for first in range(min(every, count)):
        chosen = frames[..., first::every, :]
        padded = np.zeros((*chosen.shape[:-1], block), dtype=frames.dtype)
        padded[..., :size] = chosen
        start = first * step
        summed[..., start : start + chosen.shape[-2] * block] += padded.reshape(*chosen.shape[:-2], -1)
    return summed[..., :length]


@working_memory(_frames_working_bytes)
def istft(call: KernelCall) -> np.ndarray:
    """ISTFT-16."""
    data = _complex(call.inputs[0])  # [batch..., bins, frames]
    frame_size, frame_step = _frame_parameters(call)
    window = _padded_window(call.inputs[1], frame_size)
    frames = data.shape[-1]
    full_length = (frames - 1) * frame_step + frame_size
    samples = np.fft.irfft(np.swapaxes(data, -1, -2), n=frame_size, axis=-1)  # [batch..., frames, size]
    summed = _overlap_add(samples * window, frame_step, full_length)
    window_sum = _overlap_add(np.broadcast_to(window**2, (frames, frame_size)), frame_step, full_length)
    nonzero = window_sum != 0
    result = np.where(nonzero, summed / np.where(nonzero, window_sum, 1.0), 0.0)
    if call.attribute("normalized"):
        result = result * np.sqrt(frame_size)
    margin = frame_size // 2 if call.attribute("center") else 0
    length = call.output_shape(0)[-1]
    output = np.zeros((*data.shape[:-2], length))
    kept = max(0, min(length, full_length - margin))
    output[..., :kept] = result[..., margin : margin + kept]
    return as_output(call, output)
