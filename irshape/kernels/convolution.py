"""NumPy reference kernels for OpenVINO's four convolution operations.

Public API
==========

``convolution(x, w, *, strides, dilations, pads_begin, pads_end, groups) -> ndarray``
    Convolution-1 (``w`` is ``[C_OUT, C_IN, *k]``, ``groups == 1``) and GroupConvolution-1
    (``w`` is ``[G, C_OUT/G, C_IN/G, *k]``, ``groups == G``). Output ``[N, G*C_OUT/G, *out]`` with
    ``out = floor((D + pb + pe - ((K-1)*d + 1)) / s) + 1`` per spatial axis; output position ``o``
    reads input positions ``o*s + k*d - pb`` (zero outside the input).

``convolution_backprop(x, w, *, strides, dilations, pads_begin, pads_end, output_padding,
groups, output_spatial=None) -> ndarray``
    ConvolutionBackpropData-1 (``w`` is ``[C_IN, C_OUT, *k]``, ``groups == 1``) and
    GroupConvolutionBackpropData-1 (``w`` is ``[G, C_IN/G, C_OUT/G, *k]``, ``groups == G``).
    Input position ``i`` and kernel tap ``k`` contribute to the full-result position
    ``i*s + k*d``; the full result has ``(D-1)*s + (K-1)*d + 1`` positions per axis. Output
    position ``o`` is full position ``o + pads_begin`` (zero past the full result), and the output
    is ``full - pads_begin - pads_end + output_padding`` long, or exactly ``output_spatial[i]``
    long when ``output_spatial`` (the value of the op's ``output_shape`` input) is given; then
    ``pads_end`` and ``output_padding`` do not influence the values. This is what OpenVINO's CPU
    plugin computes, including with ``output_shape`` and every resolved ``auto_pad``.

``estimate_working_bytes(kind, x_shape, w_shape, dtype, *, strides, dilations, pads_begin,
pads_end, groups, output_padding=None, output_spatial=None) -> int``
    ``kind`` is ``"convolution"`` or ``"convolution_backprop"``; the keyword arguments are those
    of that kernel (``output_padding`` may be left out for the backprop kernel: zeros),
    ``x_shape``/``w_shape`` the shapes of ``x`` and ``w`` and ``dtype`` the dtype of ``x``.
    Returns an upper estimate, in bytes, of the peak memory the kernel allocates: the output,
    the scratch temporaries (phase grids, im2col tile, GEMM chunk, accumulator), converted
    copies of x and w, a little Python bookkeeping. Not included: the inputs themselves (for a C-
    contiguous ``x``; other layouts are copied once), OpenBLAS's own internal buffers, and a
    scratch buffer kept from an earlier call (see ``release_scratch``). It is computed from the
    same plan the kernel follows, so a caller can skip a layer over a memory limit before
    allocating anything, and validates its arguments like the kernel (same ``ValueError``s).

``release_scratch() -> None``
    Frees the scratch buffer the kernels keep per thread between calls (at most
    ``SCRATCH_KEEP_BYTES``, 64 MiB).

Conventions shared by both kernels
----------------------------------
* ``x`` is ``[N, C, *spatial]`` with 1, 2 or 3 spatial axes, dtype float16, float32 or float64.
  The result has the dtype of ``x``. float16 and float32 accumulate in float32, float64 in
  float64; ``w`` is converted to that accumulation type.
* ``strides``, ``dilations``, ``pads_begin``, ``pads_end`` (and ``output_padding``) are
  sequences of ints, one per spatial axis. The pads are the *resolved* pads: the caller has
  already applied ``auto_pad`` the way OpenVINO does.
* Invalid arguments (ranks, channel counts, ``groups``, list lengths, strides or dilations < 1,
  a kernel larger than the padded input, a negative backprop output size, a negative
  ``output_spatial``, an unsupported dtype) raise ``ValueError``.

Negative pads, and what OpenVINO's CPU plugin does with them
------------------------------------------------------------
Established with openvino 2026.4.1 (``compile_model(..., "CPU")`` with
``INFERENCE_PRECISION_HINT=f32``: on CPUs with bf16 support the plugin's default precision is
bf16, which is off by about 1e-2):

* Forward ops: the CPU plugin builds the layer exactly when every ``pads_begin >= 0`` and every
  ``pads_begin + pads_end >= 0``, and then computes the arithmetic meaning above (a negative
  ``pads_end`` crops the input). Otherwise compilation fails ("object is not initialized" or
  "could not construct a memory descriptor"). Whenever ``pads_begin + pads_end < 0`` OpenVINO's
  shape inference disagrees with the arithmetic too (a sum of -1 gives an open interval ``N..``,
  a sum <= -2 is ignored, as if the pads were 0).
* Backprop ops: the CPU plugin builds the layer exactly when every ``pads_begin >= 0`` (negative
  ``pads_end``/``output_padding`` are fine and arithmetic); a negative ``pads_begin`` fails
  ("could not create a primitive descriptor for the deconvolution forward propagation
  primitive"), with or without ``output_shape``.
* The kernels raise :class:`UnsupportedByOpenVINOError` (a ``ValueError``) in exactly these
  pad cases where the CPU plugin cannot build the layer.
* Also found, not pad related: the CPU plugin cannot build a GroupConvolutionBackpropData with a
  single group (``G == 1``) unless ``C_IN/G == C_OUT/G == 1`` (same "primitive descriptor"
  error). That layer is well defined (it equals ConvolutionBackpropData), and the kernel
  computes it.

Zero-size dimensions give zeros (an empty sum) or an empty array. A zero-size kernel axis counts
as size 1 and a zero-size backprop data axis as size 1 in the output-size formulas, as in
OpenVINO's shape inference (the CPU plugin itself cannot build a layer with an empty filter, and
returns uninitialised memory for an empty backprop input).

How it is computed
------------------
All channel sums are batched ``np.matmul`` calls (GEMMs batched over images and groups; with an
inner dimension of 1, e.g. depthwise, the GEMM is an outer product and done as a broadcast
multiply). Python loops run over kernel taps, GEMM chunks and output-row tiles only, never over
pixels.

Per axis, a tap offset ``k*d`` is split as ``shift*s + phase``. A "phase grid" holds the
positions ``t*s + phase`` of one phase (``t = 0, 1, ...``), so a tap becomes a pure shift by
``shift`` inside a grid, and in C order a shift of every axis at once is one flat offset.

* Backprop ("scatter"): x is zero-padded at the end of each axis to the grid shape
  ``D + max(shift)``; one GEMM ``[G, taps*C_OUT/G, C_IN/G] @ [N, G, C_IN/G, grid]`` per chunk of
  taps gives every tap's contribution at every input position; each tap is then ONE contiguous
  in-place add of its flat-shifted result into the accumulator of its phase (``s`` phases per
  axis). The grids are large enough that real data never wraps into a neighbouring row or plane
  (only zero padding wraps, or lands on positions that are discarded). Finally each phase grid
  is copied, cropped by ``pads_begin``, into its strided slice of the output; positions past
  the full result are zeros.
* Forward, "scatter" (chosen when ``2 * C_OUT/G <= C_IN/G``, as in the GroupConvolution spec
  examples): the padded input is split into the phase grids the taps use (shape
  ``out + max(shift)``), one GEMM per phase and chunk of taps, then one flat-shifted contiguous
  add per tap gathers the contributions; the output is the cropped accumulator.
* Forward, "im2col" (otherwise): the same phase grids are unfolded into
  ``[N, G, C_IN/G * taps, rows * rest]`` (one unit-stride slice copy per tap) and multiplied by
  ``[G, C_OUT/G, C_IN/G * taps]`` straight into the output, in tiles of output rows.
* Chunks and tiles are sized so that one GEMM result or unfolded tile stays near
  ``CHUNK_BYTES``.
* Temporaries are carved from one scratch buffer per thread that is kept between calls while it
  is at most ``SCRATCH_KEEP_BYTES`` (fresh large allocations cost page faults, which are slow in
  virtual machines); ``release_scratch()`` frees it. The returned array never aliases it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

import irshape.kernels
from irshape.kernels import KernelCall, working_memory
from irshape.kernels.stored import as_output
from irshape.shapes.window import ConvPlan

__all__ = [
    "CHUNK_BYTES",
    "SCRATCH_KEEP_BYTES",
    "UnsupportedByOpenVINOError",
    "convolution",
    "convolution_backprop",
    "convolve",
    "convolve_backprop",
    "estimate_working_bytes",
    "release_scratch",
]

#: Target size in bytes of one GEMM-result (scatter) or unfolded-input (im2col) chunk.
CHUNK_BYTES = 4 * 2**20

#: Forward method: "auto" (by estimated memory traffic), "im2col" or "scatter" (for tests).
FORWARD_METHOD: Literal["auto", "im2col", "scatter"] = "auto"

#: Largest scratch buffer kept (per thread) between kernel calls.
SCRATCH_KEEP_BYTES = 64 * 2**20

_ALIGN = 64
_SUPPORTED_DTYPES = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))
_scratch_cache = threading.local()


# Raised for a negative ``pads_begin`` (all four ops) and, for the forward ops, for
# ``pads_begin + pads_end < 0`` on some axis: arithmetically well defined, but OpenVINO's CPU
# plugin cannot build such a layer.
UnsupportedByOpenVINOError = irshape.kernels.UnsupportedByOpenVINOError


def release_scratch() -> None:
    """Free this thread's cached scratch buffer."""
    _scratch_cache.buf = None


def _scratch(specs: Sequence[tuple[tuple[int, ...], np.dtype[Any]]]) -> list[np.ndarray]:
    """Uninitialised arrays of the given shapes carved from this thread's scratch buffer."""
    offsets = []
    total = 0
    for shape, dtype in specs:
        offsets.append(total)
        total += -(-math.prod(shape) * dtype.itemsize // _ALIGN) * _ALIGN
    buf: np.ndarray | None = getattr(_scratch_cache, "buf", None)
    if buf is None or buf.nbytes < total + _ALIGN:
        _scratch_cache.buf = buf = None  # drop the old buffer before allocating a larger one
        buf = np.empty(total + _ALIGN, dtype=np.uint8)
        if total <= SCRATCH_KEEP_BYTES:
            _scratch_cache.buf = buf
    base = -buf.ctypes.data % _ALIGN
    out = []
    for (shape, dtype), offset in zip(specs, offsets, strict=True):
        start = base + offset
        size = math.prod(shape) * dtype.itemsize
        out.append(buf[start : start + size].view(dtype).reshape(shape))
    return out


def _scratch_bytes(specs: Sequence[tuple[tuple[int, ...], np.dtype[Any]]]) -> int:
    return sum(-(-math.prod(shape) * dtype.itemsize // _ALIGN) * _ALIGN for shape, dtype in specs) + _ALIGN


@dataclass(frozen=True)
class _Plan:
    """Everything a kernel decides from shapes and attributes alone."""

    backprop: bool
    method: Literal["im2col", "scatter"]
    n: int
    groups: int
    cin_g: int
    cout_g: int
    in_spatial: tuple[int, ...]
    kernel: tuple[int, ...]
    out_spatial: tuple[int, ...]
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads_begin: tuple[int, ...]
    x_dtype: np.dtype[Any]
    compute_dtype: np.dtype[Any]
    chunk: int  # kernel taps per GEMM (scatter) or output rows per tile (im2col)

    @property
    def kernel_volume(self) -> int:
        return math.prod(self.kernel)

    @property
    def out_shape(self) -> tuple[int, ...]:
        return (self.n, self.groups * self.cout_g, *self.out_spatial)

    @property
    def empty(self) -> bool:
        """True when the result has no elements or is all zeros (an empty sum)."""
        sizes = (self.n, self.groups, self.cin_g, self.cout_g, *self.in_spatial, *self.kernel)
        return 0 in (*sizes, *self.out_spatial)

    def taps(self) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """(phase, shift) of every kernel tap, in C order: ``k*d == shift*s + phase`` per axis."""
        out = []
        for k in np.ndindex(*self.kernel):
            offs = [ki * d for ki, d in zip(k, self.dilations, strict=True)]
            out.append(
                (
                    tuple(o % s for o, s in zip(offs, self.strides, strict=True)),
                    tuple(o // s for o, s in zip(offs, self.strides, strict=True)),
                )
            )
        return out

    def grid(self) -> tuple[int, ...]:
        """Spatial shape of the phase grids that the GEMMs and the shifted adds work on.

        Backprop: full-result position ``t*s + phase``; forward: padded-input position
        ``t*s + phase``. Large enough that no shifted add crosses a row of real data.
        """
        dims = []
        for a, size in enumerate(self.in_spatial):
            s, out = self.strides[a], self.out_spatial[a]
            u_max = (_dilated(self.kernel[a], self.dilations[a]) - 1) // s
            if self.backprop:  # the full result: t < D + u_max (phase-wise)
                dims.append(size + u_max)
            else:
                dims.append(out + u_max)
        return tuple(dims)

    def phase_count(self) -> int:
        return math.prod(self.strides) if self.backprop else len({ph for ph, _ in self.taps()})

    def input_is_grid(self) -> bool:
        """The input itself can serve as the (single) phase grid: no padded copy needed."""
        if self.grid() != self.in_spatial:
            return False
        return self.backprop or (max(self.strides) == 1 and not any(self.pads_begin))

    def scratch_specs(self) -> list[tuple[tuple[int, ...], np.dtype[Any]]]:
        """Shapes of the temporaries, in the order the kernels unpack them."""
        c = self.compute_dtype
        n, g, cin_g, cout_g = self.n, self.groups, self.cin_g, self.cout_g
        grid = self.grid()
        p_grid = math.prod(grid)
        specs: list[tuple[tuple[int, ...], np.dtype[Any]]] = []
        if not self.input_is_grid():
            phases = 1 if self.backprop else self.phase_count()
            specs.append(((phases, n, g, cin_g, *grid), c))
        if self.method == "im2col":
            rest = self.out_spatial[1:]
            specs.append(((n, g, cin_g, self.kernel_volume, self.chunk, *rest), c))
            if self.compute_dtype != self.x_dtype:
                specs.append(((n, g, cout_g, math.prod(self.out_spatial)), c))
        else:
            specs.append(((n * g, self.chunk * cout_g * p_grid), c))
            acc_phases = self.phase_count() if self.backprop else 1
            specs.append(((acc_phases, n * g, cout_g * p_grid), c))
        return specs

    def working_bytes(self) -> int:
        """Upper estimate of everything the kernel allocates (see estimate_working_bytes)."""
        c = self.compute_dtype.itemsize
        total = math.prod(self.out_shape) * self.x_dtype.itemsize
        if self.empty:
            return total
        if self.compute_dtype != self.x_dtype:  # converted copy of x
            total += self.n * self.groups * self.cin_g * math.prod(self.in_spatial) * c
        total += 3 * self.groups * self.cin_g * self.cout_g * self.kernel_volume * c  # weight copies
        total += 16 * 1024 + 1024 * self.kernel_volume  # Python bookkeeping (tap lists, slices)
        return total + _scratch_bytes(self.scratch_specs())


def _ints(name: str, values: Sequence[int], nd: int) -> tuple[int, ...]:
    try:
        out = tuple(int(v) for v in values)
    except TypeError as exc:
        raise ValueError(f"{name} must be a sequence of {nd} ints") from exc
    if len(out) != nd:
        raise ValueError(f"{name} must have {nd} values (one per spatial axis), got {len(out)}")
    return out


def _dilated(k: int, d: int) -> int:
    """Dilated kernel extent as OpenVINO computes it (a zero-size kernel axis counts as 1)."""
    return max(k - 1, 0) * d + 1


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class _Checked:
    x_shape: tuple[int, ...]
    x_dtype: np.dtype[Any]
    compute_dtype: np.dtype[Any]
    groups: int
    cin_g: int
    cout_g: int
    kernel: tuple[int, ...]
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]


def _check_common(
    x_shape: Sequence[int],
    w_shape: Sequence[int],
    dtype: Any,
    groups: int,
    strides: Sequence[int],
    dilations: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    backprop: bool,
) -> _Checked:
    xs = tuple(int(v) for v in x_shape)
    ws = tuple(int(v) for v in w_shape)
    x_dtype = np.dtype(dtype)
    if x_dtype not in _SUPPORTED_DTYPES:
        raise ValueError(f"unsupported dtype {x_dtype}: expected float16, float32 or float64")
    compute = np.dtype(np.float64) if x_dtype == np.float64 else np.dtype(np.float32)
    if len(xs) not in (3, 4, 5):
        raise ValueError(f"x must have rank 3, 4 or 5 ([N, C, *spatial]), got shape {list(xs)}")
    nd = len(xs) - 2
    if len(ws) == len(xs):
        if groups != 1:
            raise ValueError(f"groups={groups} needs a grouped filter of rank {len(xs) + 1}")
        wg = (1, *ws)
    elif len(ws) == len(xs) + 1:
        if groups != ws[0]:
            raise ValueError(f"groups={groups} differs from the filter's first dimension {ws[0]}")
        wg = ws
    else:
        raise ValueError(f"filter rank {len(ws)} does not fit data rank {len(xs)}")
    cin_g, cout_g = (wg[1], wg[2]) if backprop else (wg[2], wg[1])
    if xs[1] != wg[0] * cin_g:
        raise ValueError(f"data channels {xs[1]} != groups {wg[0]} x filter input channels per group {cin_g}")
    s = _ints("strides", strides, nd)
    d = _ints("dilations", dilations, nd)
    pb = _ints("pads_begin", pads_begin, nd)
    pe = _ints("pads_end", pads_end, nd)
    if min(s) < 1:
        raise ValueError(f"strides must be >= 1, got {list(s)}")
    if min(d) < 1:
        raise ValueError(f"dilations must be >= 1, got {list(d)}")
    if min(pb) < 0:
        raise UnsupportedByOpenVINOError(
            f"negative pads_begin {list(pb)}: OpenVINO's CPU plugin cannot build this layer"
        )
    return _Checked(xs, x_dtype, compute, wg[0], cin_g, cout_g, wg[3:], s, d, pb, pe)


def _plan_forward(
    x_shape: Sequence[int],
    w_shape: Sequence[int],
    dtype: Any,
    *,
    strides: Sequence[int],
    dilations: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    groups: int,
) -> _Plan:
    ck = _check_common(x_shape, w_shape, dtype, groups, strides, dilations, pads_begin, pads_end, False)
    if any(b + e < 0 for b, e in zip(ck.pads_begin, ck.pads_end, strict=True)):
        raise UnsupportedByOpenVINOError(
            f"pads_begin {list(ck.pads_begin)} + pads_end {list(ck.pads_end)} is negative on some "
            "axis: OpenVINO's shape inference ignores such pads and its CPU plugin cannot build "
            "the layer"
        )
    spatial = ck.x_shape[2:]
    out = []
    for axis, size in enumerate(spatial):
        extent = size + ck.pads_begin[axis] + ck.pads_end[axis]
        kd = _dilated(ck.kernel[axis], ck.dilations[axis])
        if kd > extent:
            raise ValueError(
                f"kernel after dilation ({kd}) is larger than the padded data ({extent}) "
                f"at spatial axis {axis}"
            )
        out.append((extent - kd) // ck.strides[axis] + 1)
    plan = _Plan(
        False, "scatter", ck.x_shape[0], ck.groups, ck.cin_g, ck.cout_g, spatial, ck.kernel,
        tuple(out), ck.strides, ck.dilations, ck.pads_begin, ck.x_dtype, ck.compute_dtype, 1,
    )  # fmt: skip
    method = FORWARD_METHOD
    if method == "auto":
        # Memory traffic per kernel tap and output position: im2col writes and reads back
        # C_IN/G values; scatter writes and reads back C_OUT/G GEMM values and updates C_OUT/G
        # accumulator values.
        method = "scatter" if 2 * ck.cout_g <= ck.cin_g else "im2col"
    if method == "scatter":
        chunk = CHUNK_BYTES // _bytes(plan.n * plan.groups * plan.cout_g * math.prod(plan.grid()), plan)
        return replace(plan, chunk=max(1, min(plan.kernel_volume, chunk)))
    per_row = plan.n * plan.groups * plan.cin_g * plan.kernel_volume * math.prod(out[1:])
    chunk = CHUNK_BYTES // _bytes(per_row, plan)
    return replace(plan, method="im2col", chunk=max(1, min(out[0], chunk)))


def _bytes(count: int, plan: _Plan) -> int:
    return max(1, count * plan.compute_dtype.itemsize)


def _plan_backprop(
    x_shape: Sequence[int],
    w_shape: Sequence[int],
    dtype: Any,
    *,
    strides: Sequence[int],
    dilations: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    output_padding: Sequence[int],
    groups: int,
    output_spatial: Sequence[int] | None = None,
) -> _Plan:
    ck = _check_common(x_shape, w_shape, dtype, groups, strides, dilations, pads_begin, pads_end, True)
    spatial = ck.x_shape[2:]
    nd = len(spatial)
    op = _ints("output_padding", output_padding, nd)
    if output_spatial is not None:
        out = _ints("output_spatial", output_spatial, nd)
        if min(out) < 0:
            raise ValueError(f"output_spatial must be >= 0, got {list(out)}")
    else:
        out = tuple(
            max(spatial[a] - 1, 0) * ck.strides[a]
            + _dilated(ck.kernel[a], ck.dilations[a])
            - ck.pads_begin[a]
            - ck.pads_end[a]
            + op[a]
            for a in range(nd)
        )
        if min(out) < 0:
            raise ValueError(f"output spatial size {list(out)} is negative (OpenVINO infers a dynamic dim)")
    plan = _Plan(
        True, "scatter", ck.x_shape[0], ck.groups, ck.cin_g, ck.cout_g, spatial, ck.kernel, out,
        ck.strides, ck.dilations, ck.pads_begin, ck.x_dtype, ck.compute_dtype, 1,
    )  # fmt: skip
    chunk = CHUNK_BYTES // _bytes(plan.n * plan.groups * plan.cout_g * math.prod(plan.grid()), plan)
    return replace(plan, chunk=max(1, min(plan.kernel_volume, chunk)))


def estimate_working_bytes(
    kind: str,
    x_shape: Sequence[int],
    w_shape: Sequence[int],
    dtype: Any,
    *,
    strides: Sequence[int],
    dilations: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    groups: int,
    output_padding: Sequence[int] | None = None,
    output_spatial: Sequence[int] | None = None,
) -> int:
    """Upper estimate of the bytes the kernel allocates: output plus every temporary.

    ``kind`` selects the kernel (``"convolution"`` or ``"convolution_backprop"``); the keyword
    arguments are the kernel's own (``output_padding`` defaults to zeros for the backprop kernel
    and must be None for the forward one), ``x_shape``/``w_shape`` the shapes of ``x``/``w`` and
    ``dtype`` the dtype of ``x``. Raises the kernel's ``ValueError`` for invalid arguments.
    The per-thread scratch buffer may already be allocated, so this is an upper bound.
    """
    if kind == "convolution":
        if output_padding is not None or output_spatial is not None:
            raise ValueError("output_padding and output_spatial only apply to convolution_backprop")
        plan = _plan_forward(
            x_shape, w_shape, dtype, strides=strides, dilations=dilations,
            pads_begin=pads_begin, pads_end=pads_end, groups=groups,
        )  # fmt: skip
    elif kind == "convolution_backprop":
        if output_padding is None:
            output_padding = [0] * max(len(x_shape) - 2, 0)
        plan = _plan_backprop(
            x_shape, w_shape, dtype, strides=strides, dilations=dilations,
            pads_begin=pads_begin, pads_end=pads_end, output_padding=output_padding,
            groups=groups, output_spatial=output_spatial,
        )  # fmt: skip
    else:
        raise ValueError(f"kind must be 'convolution' or 'convolution_backprop', got {kind!r}")
    return plan.working_bytes()


def _as_input(x: np.ndarray, plan: _Plan) -> np.ndarray:
    """``x`` in the compute dtype, C-contiguous, viewed as ``[N, G, C_IN/G, *spatial]``."""
    xc = np.ascontiguousarray(x, dtype=plan.compute_dtype)
    return xc.reshape(plan.n, plan.groups, plan.cin_g, *plan.in_spatial)


def _gemm_weights(w: np.ndarray, plan: _Plan) -> np.ndarray:
    """Filter as ``[G, K, C_OUT/G, C_IN/G]`` (K = kernel taps in C order), contiguous."""
    g, cin_g, cout_g, kv = plan.groups, plan.cin_g, plan.cout_g, plan.kernel_volume
    wc = np.asarray(w, dtype=plan.compute_dtype)
    if plan.backprop:  # [G, C_IN/G, C_OUT/G, *k]
        wt = wc.reshape(g, cin_g, cout_g, kv).transpose(0, 3, 2, 1)
    else:  # [G, C_OUT/G, C_IN/G, *k]
        wt = wc.reshape(g, cout_g, cin_g, kv).transpose(0, 3, 1, 2)
    return np.ascontiguousarray(wt)


def _fill_grid(dst: np.ndarray, xg: np.ndarray, plan: _Plan, phase: tuple[int, ...]) -> None:
    """``dst[..., t] = x[..., t*s + phase - pads_begin]`` (zero outside x), per spatial axis.

    For backprop, phase and pads are 0 and the stride is 1: x padded with zeros at the end.
    """
    dst.fill(0)
    dst_index: list[Any] = [Ellipsis]
    src_index: list[Any] = [Ellipsis]
    for a, size in enumerate(plan.in_spatial):
        s, pb = (plan.strides[a], plan.pads_begin[a]) if not plan.backprop else (1, 0)
        start = phase[a] - pb
        lo = max(0, _ceil_div(-start, s))
        hi = min(dst.shape[3 + a], (size - 1 - start) // s + 1)
        if hi <= lo:
            return
        first = lo * s + start
        dst_index.append(slice(lo, hi))
        src_index.append(slice(first, first + (hi - lo - 1) * s + 1, s))
    dst[tuple(dst_index)] = xg[tuple(src_index)]


def _gemm(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """``out = a @ b`` (batched); an inner dimension of 1 is an outer product, which np.matmul
    does an order of magnitude slower than a broadcast multiply."""
    if a.shape[-1] == 1:
        np.multiply(a, b[..., 0:1, :], out=out)
    else:
        np.matmul(a, b, out=out)


def _grid_offset(shift: tuple[int, ...], grid: tuple[int, ...]) -> int:
    """Flat offset of a spatial shift inside a C-ordered grid."""
    offset, stride = 0, 1
    for u, size in zip(reversed(shift), reversed(grid), strict=True):
        offset += u * stride
        stride *= size
    return offset


def _run_scatter(x: np.ndarray, w: np.ndarray, plan: _Plan) -> np.ndarray:
    """One GEMM per chunk of taps, then one flat shifted add per tap (see the module docstring).

    Every tap is a pure shift between two C-ordered grids of the same shape, so its add is a
    single contiguous run per (image, group): ``acc[:, off:] += res[:, :-off]`` for backprop,
    ``acc[:, :-off] += res[:, off:]`` for forward. The grids are large enough that real data
    never wraps into the next row; wrapped zeros or discarded positions are harmless.
    """
    n, g, cin_g, cout_g = plan.n, plan.groups, plan.cin_g, plan.cout_g
    grid = plan.grid()
    p_grid = math.prod(grid)
    row = cout_g * p_grid
    xg = _as_input(x, plan)
    wt = _gemm_weights(w, plan)
    scratch = _scratch(plan.scratch_specs())
    taps = plan.taps()
    if plan.backprop:
        phase_list = [tuple(p) for p in np.ndindex(*plan.strides)]
        groups_of_taps = {(0,) * len(grid): list(range(len(taps)))}
    else:
        phase_list = sorted({ph for ph, _ in taps})
        groups_of_taps = {ph: [i for i, (tp, _) in enumerate(taps) if tp == ph] for ph in phase_list}
    if plan.input_is_grid():
        grids = {next(iter(groups_of_taps)): xg.reshape(n, g, cin_g, p_grid)}
        res_buf, acc = scratch
    else:
        grid_buf, res_buf, acc = scratch
        grids = {}
        for i, ph in enumerate(groups_of_taps):
            _fill_grid(grid_buf[i], xg, plan, ph)
            grids[ph] = grid_buf[i].reshape(n, g, cin_g, p_grid)
    hit = {taps[i][0] for i in range(len(taps))} if plan.backprop else {(0,) * len(grid)}
    acc_index = {ph: i for i, ph in enumerate(phase_list)} if plan.backprop else {(0,) * len(grid): 0}
    for ph in hit:
        acc[acc_index[ph]].fill(0)
    for ph, tap_ids in groups_of_taps.items():
        xgrid = grids[ph]
        for start in range(0, len(tap_ids), plan.chunk):
            ids = tap_ids[start : start + plan.chunk]
            if ids == list(range(ids[0], ids[0] + len(ids))):
                wrows = wt[:, ids[0] : ids[0] + len(ids)]
            else:
                wrows = wt[:, ids]
            res = res_buf.reshape(-1)[: n * g * len(ids) * row].reshape(n, g, len(ids) * cout_g, p_grid)
            _gemm(wrows.reshape(g, len(ids) * cout_g, cin_g), xgrid, res)
            res2 = res.reshape(n * g, len(ids), row)
            for j, tap in enumerate(ids):
                tap_phase, shift = taps[tap]
                off = _grid_offset(shift, grid)
                if plan.backprop:
                    target = acc[acc_index[tap_phase]]
                    target[:, off:] += res2[:, j, : row - off]
                else:
                    acc[0][:, : row - off] += res2[:, j, off:]
    lead = (n, g * cout_g)
    if not plan.backprop:
        out = np.empty(plan.out_shape, dtype=plan.x_dtype)
        out[...] = acc[0].reshape(*lead, *grid)[(Ellipsis, *(slice(0, o) for o in plan.out_spatial))]
        return out
    # Output position o is full-result position o + pb = t*s + phase; past the full result
    # (t >= grid) it is zero.
    copies = []
    beyond = False
    for ph in phase_list:
        out_index: list[Any] = [Ellipsis]
        acc_index_t: list[Any] = [Ellipsis]
        for a, p in enumerate(ph):
            s, pb, size = plan.strides[a], plan.pads_begin[a], plan.out_spatial[a]
            o0 = (p - pb) % s
            t0 = (o0 + pb) // s
            count = len(range(o0, size, s))
            kept = max(0, min(count, grid[a] - t0))
            beyond |= kept < count
            out_index.append(slice(o0, o0 + kept * s, s))
            acc_index_t.append(slice(t0, t0 + kept))
        copies.append((ph, tuple(out_index), tuple(acc_index_t)))
    out = (np.zeros if beyond else np.empty)(plan.out_shape, dtype=plan.x_dtype)
    for ph, out_index_t, acc_slices in copies:
        if ph in hit:
            out[out_index_t] = acc[acc_index[ph]].reshape(*lead, *grid)[acc_slices]
        elif not beyond:
            out[out_index_t] = 0
    return out


def _run_im2col(x: np.ndarray, w: np.ndarray, plan: _Plan) -> np.ndarray:
    n, g, cin_g, cout_g = plan.n, plan.groups, plan.cin_g, plan.cout_g
    kv = plan.kernel_volume
    xg = _as_input(x, plan)
    scratch = _scratch(plan.scratch_specs())
    taps = plan.taps()
    if plan.input_is_grid():
        grids = {taps[0][0]: xg}
        cols_buf = scratch[0]
    else:
        grids = {}
        for i, ph in enumerate(sorted({ph for ph, _ in taps})):
            _fill_grid(scratch[0][i], xg, plan, ph)
            grids[ph] = scratch[0][i]
        cols_buf = scratch[1]
    w2 = np.ascontiguousarray(w, dtype=plan.compute_dtype).reshape(g, cout_g, cin_g * kv)
    out0, rest = plan.out_spatial[0], plan.out_spatial[1:]
    rest_size = math.prod(rest)
    if plan.compute_dtype == plan.x_dtype:
        out = np.empty((n, g, cout_g, out0 * rest_size), dtype=plan.compute_dtype)
    else:
        out = scratch[-1]
    for r0 in range(0, out0, plan.chunk):
        rows = min(plan.chunk, out0 - r0)
        cols = cols_buf.reshape(-1)[: n * g * cin_g * kv * rows * rest_size]
        cols = cols.reshape(n, g, cin_g, kv, rows, *rest)
        for j, (ph, shift) in enumerate(taps):
            index: list[Any] = [Ellipsis, slice(shift[0] + r0, shift[0] + r0 + rows)]
            index += [slice(u, u + o) for u, o in zip(shift[1:], rest, strict=True)]
            cols[:, :, :, j] = grids[ph][tuple(index)]
        _gemm(
            w2,
            cols.reshape(n, g, cin_g * kv, rows * rest_size),
            out[..., r0 * rest_size : (r0 + rows) * rest_size],
        )
    if out.dtype != plan.x_dtype:
        return out.astype(plan.x_dtype).reshape(plan.out_shape)
    return out.reshape(plan.out_shape)


def convolve(
    x: np.ndarray,
    w: np.ndarray,
    *,
    strides: Sequence[int],
    dilations: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    groups: int,
) -> np.ndarray:
    """Convolution-1 / GroupConvolution-1 forward pass (see the module docstring)."""
    x = np.asarray(x)
    w = np.asarray(w)
    plan = _plan_forward(
        x.shape, w.shape, x.dtype, strides=strides, dilations=dilations,
        pads_begin=pads_begin, pads_end=pads_end, groups=groups,
    )  # fmt: skip
    if plan.empty:
        return np.zeros(plan.out_shape, dtype=plan.x_dtype)
    if plan.method == "scatter":
        return _run_scatter(x, w, plan)
    return _run_im2col(x, w, plan)


def convolve_backprop(
    x: np.ndarray,
    w: np.ndarray,
    *,
    strides: Sequence[int],
    dilations: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    output_padding: Sequence[int],
    groups: int,
    output_spatial: Sequence[int] | None = None,
) -> np.ndarray:
    """ConvolutionBackpropData-1 / GroupConvolutionBackpropData-1 (see the module docstring)."""
    x = np.asarray(x)
    w = np.asarray(w)
    plan = _plan_backprop(
        x.shape, w.shape, x.dtype, strides=strides, dilations=dilations,
        pads_begin=pads_begin, pads_end=pads_end, output_padding=output_padding,
        groups=groups, output_spatial=output_spatial,
    )  # fmt: skip
    if plan.empty:
        return np.zeros(plan.out_shape, dtype=plan.x_dtype)
    return _run_scatter(x, w, plan)


# --- the kernels the declarations name ----------------------------------------------------


def _arguments(call: KernelCall) -> dict[str, Any]:
    """The raw kernels' keyword arguments: the pads OpenVINO resolved (auto_pad applied, from
    the shape inference of this call), the groups from the filter's shape."""
    plan = call.inference.details
    if not isinstance(plan, ConvPlan):
        raise irshape.kernels.KernelError("shape inference resolved no pads for this layer")
    attrs = plan.attributes
    groups = call.inputs[1].shape[0] if call.schema.is_group else 1
    arguments: dict[str, Any] = {
        "strides": attrs.strides,
        "dilations": attrs.dilations,
        "groups": groups,
        "pads_begin": plan.pads_begin,
        "pads_end": plan.pads_end,
    }
    if call.schema.function == "convolution_backprop":
        arguments["output_padding"] = attrs.output_padding
        if len(call.inputs) > 2:
            arguments["output_spatial"] = [int(v) for v in call.inputs[2].reshape(-1)]
    return arguments


def _working_bytes(call: KernelCall) -> int:
    x, w = call.inputs[:2]
    kind: Literal["convolution", "convolution_backprop"] = (
        "convolution_backprop" if call.schema.function == "convolution_backprop" else "convolution"
    )
    return estimate_working_bytes(kind, x.shape, w.shape, x.dtype, **_arguments(call))


@working_memory(_working_bytes)
def convolution(call: KernelCall) -> np.ndarray:
    """Convolution-1 and GroupConvolution-1."""
    x, w = call.inputs[:2]
    return convolve(x, w.astype(x.dtype, copy=False), **_arguments(call))


@working_memory(_working_bytes)
def convolution_backprop(call: KernelCall) -> np.ndarray:
    """ConvolutionBackpropData-1 and GroupConvolutionBackpropData-1 (with output_shape too)."""
    x, w = call.inputs[:2]
    return convolve_backprop(x, w.astype(x.dtype, copy=False), **_arguments(call))


# --- BinaryConvolution-1 --------------------------------------------------------------------
#
# What OpenVINO's CPU plugin computes (openvino 2026.4.1, found by
# tests/execution/test_convolution.py): each data value is the bit ``x > 0``; the u1 kernel's bits are read
# least significant bit first within each byte, while OpenVINO's u1 element type (its
# Constant, its reference implementation) puts element 0 in the most significant bit: the
# plugin's kernel element ``k`` is OpenVINO's element ``8 * (k // 8) + 7 - k % 8``. A tap adds
# +1 where the data bit equals the kernel bit, -1 elsewhere; a padded tap adds nothing with
# ``pad_value`` 0, else counts as the bit 1 (``pad_value`` 1.0) or 0 (any other value). The
# reference implementation differs on the last two points (it reads bits most significant
# first and compares padded taps as the bit ``pad_value``); the kernel follows the plugin. With
# input channels not a multiple of 8 the plugin computes garbage (the same single set bits give
# different sums); the kernel computes the rule above there too.


def _plugin_bit_order(kernel: np.ndarray) -> np.ndarray:
    """The kernel's bits as the CPU plugin reads them: each byte's 8 elements reversed."""
    flat = kernel.reshape(-1)
    padded = np.zeros(-(-flat.size // 8) * 8, dtype=flat.dtype)
    padded[: flat.size] = flat
    reordered: np.ndarray = padded.reshape(-1, 8)[:, ::-1].reshape(-1)[: flat.size].reshape(kernel.shape)
    return reordered


def _conv_plan(call: KernelCall) -> ConvPlan:
    plan = call.inference.details
    if not isinstance(plan, ConvPlan):
        raise irshape.kernels.KernelError("shape inference resolved no pads for this layer")
    return plan


def _binary_working_bytes(call: KernelCall) -> int:
    """The signs of the (padded) data and of the kernel, and the convolution of them."""
    x, w = call.inputs[:2]
    plan = _conv_plan(call)
    margins = [abs(b) + abs(e) for b, e in zip(plan.pads_begin, plan.pads_end, strict=True)]
    padded = (x.shape[0], x.shape[1], *(d + m for d, m in zip(x.shape[2:], margins, strict=True)))
    zeros = [0] * len(margins)
    convolution_bytes: int = estimate_working_bytes(
        "convolution", padded, w.shape, np.dtype(np.float32), strides=plan.attributes.strides,
        dilations=plan.attributes.dilations, pads_begin=zeros, pads_end=zeros, groups=1,
    )  # fmt: skip
    return int(2 * math.prod(padded) * 4 + w.size * 4 + convolution_bytes)


@working_memory(_binary_working_bytes)
def binary_convolution(call: KernelCall) -> np.ndarray:
    """BinaryConvolution-1 (xnor-popcount), as the CPU plugin computes it (see above): a
    convolution of the data's signs (+1 for a set bit, -1 for a clear one, 0 for a skipped
    padded tap) with the kernel's."""
    x, w = call.inputs[:2]
    plan = _conv_plan(call)
    signs = np.where(x > 0, np.float32(1), np.float32(-1))
    weights = np.where(_plugin_bit_order(w) != 0, np.float32(1), np.float32(-1))
    pad_value = float(call.attribute("pad_value"))
    pads_begin, pads_end = list(plan.pads_begin), list(plan.pads_end)
    if pad_value != 0:
        fill = 1.0 if pad_value == 1.0 else -1.0
        margins = [(max(b, 0), max(e, 0)) for b, e in zip(pads_begin, pads_end, strict=True)]
        widths = [(0, 0), (0, 0), *margins]
        signs = np.pad(signs, widths, constant_values=np.float32(fill))
        pads_begin = [min(b, 0) for b in pads_begin]
        pads_end = [min(e, 0) for e in pads_end]
    result = convolve(
        signs, weights, strides=plan.attributes.strides, dilations=plan.attributes.dilations,
        pads_begin=pads_begin, pads_end=pads_end, groups=1,
    )  # fmt: skip
    return as_output(call, result)


# --- DeformableConvolution-1/8 --------------------------------------------------------------
#
# Each output position samples the data at its taps moved by the offsets (bilinear
# interpolation), scales each sample by the mask (v8), and convolves the samples with the
# filters by group: one GEMM over all taps. Sampling as OpenVINO's reference: a tap at
# ``(y, x)`` contributes only inside ``[0, H) x [0, W)``, its neighbours clamped to the data
# (the last row and column repeat); with ``bilinear_interpolation_pad`` inside ``(-1, H) x (-1, W)``
# (``int()`` truncation), neighbours outside the data being zeros. Offsets hold, for each
# deformable group and tap ``k`` (row-major), the y offset at channel ``2k`` and the x offset
# at ``2k + 1``; input channel ``c`` belongs to deformable group ``c // (C / deformable_group)``.
# A plugin bug (openvino 2026.4.1): its executor cache leaves bilinear_interpolation_pad out of
# the key, so in one compiled model a layer runs with the attribute of the first layer of the
# same shapes and attributes; compiled alone, each computes the above.
# A neighbour whose bilinear weight (times the mask) is zero adds 0, not 0 times its value: the
# plugin skips it, so an infinite or NaN datum there does not reach the sum. Its JIT kernel (one
# group) tests the weight's bits, so a weight of -0.0 (a negative mask times a zero weight)
# multiplies; its reference kernel (several groups) compares with 0, -0.0 included.


def _deformable_geometry(call: KernelCall) -> tuple[int, int, int, int, int, int]:
    data, _, filters = call.inputs[:3]
    n, channels = data.shape[:2]
    taps = filters.shape[2] * filters.shape[3]
    out_h, out_w = call.output_shape(0)[2:]
    return n, channels, taps, out_h, out_w, filters.shape[0]


def _deformable_working_bytes(call: KernelCall) -> int:
    """The sampled columns and two temporaries of their size (a neighbour's values, their
    weighted copy), ~100 bytes a sampling point (positions, indices and weights of the four
    neighbours), the result and its converted copy."""
    n, channels, taps, out_h, out_w, c_out = _deformable_geometry(call)
    columns = n * channels * taps * out_h * out_w * 4
    points = n * int(call.attribute("deformable_group")) * taps * out_h * out_w
    return 4 * columns + 100 * points + n * c_out * out_h * out_w * 8


def _sample_points(
    base: np.ndarray, offsets: np.ndarray, size: int, use_pad: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Along one axis, for sampling positions ``base + offsets``: the indices of the lower and
    upper neighbours (clipped into the data) and their bilinear weights, zero for a position
    outside the sampled range and for a neighbour outside the data, and whether each position
    is inside that range."""
    position = base + offsets
    low = np.floor(position)
    if use_pad:
        inside = (np.trunc(position) > -1) & (np.trunc(position) < size)
        high = low + 1
    else:
        inside = (position >= 0) & (position < size)
        low = np.maximum(low, 0)
        high = np.minimum(np.ceil(position), size - 1)
    distance = position - low
    low_weight = np.where(inside & (low >= 0) & (low < size), 1 - distance, 0).astype(np.float32)
    high_weight = np.where(inside & (high >= 0) & (high < size), distance, 0).astype(np.float32)
    low_index = np.clip(low, 0, size - 1).astype(np.intp)
    high_index = np.clip(high, 0, size - 1).astype(np.intp)
    return low_index, high_index, low_weight, high_weight, inside


@working_memory(_deformable_working_bytes)
def deformable_convolution(call: KernelCall) -> np.ndarray:
    """DeformableConvolution-1 and -8 (mask, bilinear_interpolation_pad)."""
    # NaN and infinite data give the plugin's NaN/inf (its skipped taps are set apart below):
    # an answer, not a warning on the user's terminal
    with np.errstate(invalid="ignore", over="ignore"):
        return _deformable_convolution(call)


def _deformable_convolution(call: KernelCall) -> np.ndarray:
    data, offsets, filters = (a.astype(np.float32, copy=False) for a in call.inputs[:3])
    n, channels, taps, out_h, out_w, c_out = _deformable_geometry(call)
    groups, deformable_groups = int(call.attribute("group")), int(call.attribute("deformable_group"))
    plan = _conv_plan(call)
    (s_y, s_x), (d_y, d_x) = plan.attributes.strides, plan.attributes.dilations
    k_h, k_w = filters.shape[2:]
    height, width = data.shape[2:]
    use_pad = "bilinear_interpolation_pad" in call.schema.attributes and bool(
        call.attribute("bilinear_interpolation_pad")
    )
    # [N, DG, taps, 2, OH, OW]: the y and x offsets of each group's taps
    moves = offsets.reshape(n, deformable_groups, taps, 2, out_h, out_w)
    tap_y = np.repeat(np.arange(k_h) * d_y, k_w)[:, None, None]  # [taps, 1, 1]
    tap_x = np.tile(np.arange(k_w) * d_x, k_h)[:, None, None]
    base_y = (np.arange(out_h) * s_y - plan.pads_begin[0])[:, None] + tap_y  # [taps, OH, 1]
    base_x = (np.arange(out_w) * s_x - plan.pads_begin[1])[None, :] + tap_x  # [taps, 1, OW]
    y_low, y_high, y_wl, y_wh, y_in = _sample_points(
        base_y.astype(np.float32), moves[:, :, :, 0], height, use_pad
    )
    x_low, x_high, x_wl, x_wh, x_in = _sample_points(
        base_x.astype(np.float32), moves[:, :, :, 1], width, use_pad
    )
    sampled = y_in & x_in  # a tap outside has weights of +0.0, whatever its mask
    scale = np.ones(1, np.float32)
    if len(call.inputs) > 3:
        scale = call.inputs[3].astype(np.float32).reshape(n, deformable_groups, taps, out_h, out_w)
    # Channels last: each sampling point gathers one contiguous row of its group's channels, into
    # samples [N, OH*OW, taps, C] (point-major, so that a group's slice is one GEMM operand).
    c_dg = channels // deformable_groups
    rows = np.ascontiguousarray(
        data.reshape(n, deformable_groups, c_dg, height * width).transpose(0, 1, 3, 2)
    )  # [N, DG, H*W, C/DG]
    pixels = out_h * out_w
    samples = np.empty((n, pixels * taps, channels), np.float32)
    gathered = np.empty((pixels * taps, c_dg), np.float32)
    corners = [
        (y, wy, x, wx)
        for y, wy in ((y_low, y_wl), (y_high, y_wh))
        for x, wx in ((x_low, x_wl), (x_high, x_wh))
    ]
    skip_negative_zero = groups > 1  # the plugin's reference kernel, not its JIT one
    for first, (y_index, y_weight, x_index, x_weight) in enumerate(corners):
        # [N, DG, taps, OH, OW] -> [N, DG, OH*OW*taps], the points in samples' order
        flat = (y_index * width + x_index).transpose(0, 1, 3, 4, 2).reshape(n, deformable_groups, -1)
        weight = np.broadcast_to(np.where(sampled, y_weight * x_weight * scale, np.float32(0)), y_index.shape)
        weight = weight.transpose(0, 1, 3, 4, 2).reshape(n, deformable_groups, -1, 1)
        skipped = (weight == 0) & (skip_negative_zero | ~np.signbit(weight))
        for image in range(n):
            for group in range(deformable_groups):
                np.take(rows[image, group], flat[image, group], axis=0, out=gathered)  # [points, C/DG]
                np.multiply(gathered, weight[image, group], out=gathered)
                np.copyto(gathered, 0, where=skipped[image, group])
                target = samples[image, :, group * c_dg : (group + 1) * c_dg]
                if first == 0:
                    target[...] = gathered
                else:
                    np.add(target, gathered, out=target)
    cin_g, cout_g = channels // groups, c_out // groups
    per_point = samples.reshape(n, pixels, taps, channels)
    result = np.empty((n, c_out, pixels), np.float32)
    for group in range(groups):
        operand = per_point[..., group * cin_g : (group + 1) * cin_g].reshape(n, pixels, taps * cin_g)
        kernel = filters[group * cout_g : (group + 1) * cout_g].reshape(cout_g, cin_g, taps)
        weights = kernel.transpose(2, 1, 0).reshape(taps * cin_g, cout_g)  # (tap, channel) rows
        result[:, group * cout_g : (group + 1) * cout_g] = np.matmul(operand, weights).transpose(0, 2, 1)
    return as_output(call, result.reshape(n, c_out, out_h, out_w))
