"""NumPy reference kernels for OpenVINO's four convolution operations.

Public API
==========

``convolution(x, w, *, strides, dilations, pads_begin, pads_end, groups) -> ndarray``
    Convolution-1 (``w`` is ``[C_OUT, C_IN, *k]``, ``groups == 1``) and GroupConvolution-1
    (``w`` is ``[G, C_OUT/G, C_IN/G, *k]``, ``groups == G``). Output ``[N, G*C_OUT/G, *out]`` with
    ``out = floor((D + pb + pe - ((K-1)*d + 1)) / s) + 1`` per spatial axis.

``convolution_backprop(x, w, *, strides, dilations, pads_begin, pads_end, output_padding,
groups, output_spatial=None) -> ndarray``
    ConvolutionBackpropData-1 (``w`` is ``[C_IN, C_OUT, *k]``, ``groups == 1``) and
    GroupConvolutionBackpropData-1 (``w`` is ``[G, C_IN/G, C_OUT/G, *k]``, ``groups == G``).
    The full result has ``(D-1)*s + (K-1)*d + 1`` positions per axis; ``pads_begin`` positions are
    cropped at the start and the output is ``full - pb - pe + output_padding`` long (positions past
    the full result are zeros), or exactly ``output_spatial[i]`` long when ``output_spatial`` (the
    value of the op's ``output_shape`` input) is given. With ``output_spatial``, ``pads_end`` and
    ``output_padding`` do not influence the values: output position ``o`` is full position
    ``o + pads_begin``, which is what OpenVINO's CPU plugin computes.

``estimate_working_bytes(kind, x_shape, w_shape, dtype, *, strides, dilations, pads_begin,
pads_end, groups, output_padding=None, output_spatial=None) -> int``
    ``kind`` is ``"convolution"`` or ``"convolution_backprop"``; the keyword arguments are those
    of the corresponding kernel, ``x_shape``/``w_shape`` the shapes of ``x`` and ``w`` and ``dtype``
    the element type of ``x``. Returns an upper estimate, in bytes, of the peak memory the kernel
    allocates (the output array included, the inputs excluded), computed from the same plan the
    kernel follows, so a caller can skip a layer over a memory limit before allocating anything.
    It validates its arguments exactly like the kernel (same ``ValueError``s).

Conventions shared by both kernels
----------------------------------
* ``x`` is ``[N, C, *spatial]`` with 1, 2 or 3 spatial axes, dtype float16, float32 or float64.
  The result has the dtype of ``x``. float16 is accumulated in float32, float32 in float32 and
  float64 in float64; ``w`` is converted to that accumulation type.
* ``strides``, ``dilations``, ``pads_begin``, ``pads_end`` (and ``output_padding``) are
  sequences of ints, one per spatial axis. The pads are the *resolved* pads: the caller has
  already applied ``auto_pad`` the way OpenVINO does.
* Invalid input (ranks, channel counts, list lengths, strides or dilations < 1, an empty
  forward output, a negative backprop output size, an unsupported dtype) raises ``ValueError``.

Negative pads, and what OpenVINO's CPU plugin does with them
------------------------------------------------------------
Established with openvino 2026.4.1 (``compile_model(..., "CPU")`` with
``INFERENCE_PRECISION_HINT=f32``; on CPUs with bf16 support the plugin's default precision is
bf16, which is off by ~1e-2):

* Forward ops: the CPU plugin runs the layer, and its values equal the plain arithmetic
  meaning (a negative pad crops the input), exactly when every ``pads_begin >= 0`` and every
  ``pads_begin + pads_end >= 0``. Otherwise compilation fails ("object is not initialized",
  "could not construct a memory descriptor"). Whenever ``pads_begin + pads_end < 0`` OpenVINO's
  shape inference also disagrees with the arithmetic (a sum of -1 gives an open interval, a sum
  <= -2 is ignored).
* Backprop ops: the CPU plugin runs the layer, with the arithmetic meaning (negative
  ``pads_end``/``output_padding`` extend/crop the end), exactly when every ``pads_begin >= 0``;
  negative ``pads_begin`` fails ("could not create a primitive descriptor for the deconvolution").
* The kernels follow the arithmetic meaning and raise :class:`UnsupportedByOpenVINOError`
  (a ``ValueError``) in the cases above where the CPU plugin cannot run the layer.

Zero-size dimensions produce zeros (an empty sum); a zero-size kernel axis counts as size 1 in
the output-size formulas and a zero-size backprop data axis as size 1, as in OpenVINO's shape
inference (the CPU plugin cannot build such layers, or returns uninitialised memory).

How it is computed
------------------
Everything runs through one batched ``np.matmul`` over the group axis per chunk; no Python
loop visits pixels, only kernel offsets (and, for im2col, tiles of output rows).

* Forward, "im2col": the padded input is unfolded into ``[N, G, C_IN/G * K, P_out]`` (one slice
  copy per kernel offset) and multiplied by ``[G, C_OUT/G, C_IN/G * K]``; the output is tiled
  along its first spatial axis so the unfolded buffer stays near ``CHUNK_BYTES``.
* Forward, "scatter" (chosen when it moves less memory, i.e. when there are few output channels
  per group compared with input channels per group, as in the GroupConvolution spec example): one
  GEMM ``[G, K * C_OUT/G, C_IN/G] @ [N, G, C_IN/G, P_in]`` gives every kernel offset's
  contribution at every input position, then one strided, clipped in-place add per kernel offset
  gathers them into the output.
* Backprop: one GEMM ``[G, K * C_OUT/G, C_IN/G] @ [N, G, C_IN/G, P_in]`` gives all kernel-offset
  contributions, then one strided, clipped in-place add per kernel offset scatters them into the
  output (cropping and zero extension are done by the clipping, no full-size buffer).
* The scatter GEMMs are chunked over kernel offsets so their result stays near ``CHUNK_BYTES``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

__all__ = [
    "CHUNK_BYTES",
    "UnsupportedByOpenVINOError",
    "convolution",
    "convolution_backprop",
    "estimate_working_bytes",
]

#: Target size in bytes of one GEMM-result (scatter) or unfolded-input (im2col) chunk.
CHUNK_BYTES = 8 * 2**20

_SUPPORTED_DTYPES = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


class UnsupportedByOpenVINOError(ValueError):
    """The arguments are well defined arithmetically, but OpenVINO's CPU plugin cannot run them.

    Raised for negative ``pads_begin`` (all four ops) and, for the forward ops, for
    ``pads_begin + pads_end < 0`` on some axis.
    """


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
    chunk: int  # kernel offsets per GEMM (scatter) or output rows per tile (im2col)

    @property
    def kernel_volume(self) -> int:
        return math.prod(self.kernel)

    @property
    def phases(self) -> int:
        """Last-axis phases of the backprop accumulator (1: accumulate in the output itself)."""
        if self.backprop and self.strides[-1] > 1 and self.out_spatial[-1] > 0:
            return self.strides[-1]
        return 1

    @property
    def out_shape(self) -> tuple[int, ...]:
        return (self.n, self.groups * self.cout_g, *self.out_spatial)

    @property
    def empty(self) -> bool:
        """True when the result is all zeros or has no elements (nothing to multiply)."""
        return 0 in (
            self.n,
            self.groups,
            self.cin_g,
            self.cout_g,
            *self.in_spatial,
            *self.kernel,
            *self.out_spatial,
        )

    def padded_spatial(self) -> tuple[int, ...]:
        """Extent of the padded input an im2col forward pass reads."""
        return tuple(
            (o - 1) * s + (k - 1) * d + 1
            for o, k, s, d in zip(self.out_spatial, self.kernel, self.strides, self.dilations, strict=True)
        )

    def buffers(self) -> dict[str, int]:
        """Bytes of every array the kernel allocates (upper bounds)."""
        c = self.compute_dtype.itemsize
        kv = self.kernel_volume
        p_in = math.prod(self.in_spatial)
        p_out = math.prod(self.out_spatial)
        n_out = self.n * self.groups * self.cout_g * p_out
        sizes = {"output": n_out * c}
        if self.compute_dtype != self.x_dtype:
            sizes["input_cast"] = self.n * self.groups * self.cin_g * p_in * c
            sizes["output_cast"] = n_out * self.x_dtype.itemsize
        sizes["weights"] = 2 * self.groups * self.cout_g * self.cin_g * kv * c
        if self.empty:
            return sizes
        if self.method == "im2col":
            p_pad = math.prod(self.padded_spatial())
            sizes["padded_input"] = self.n * self.groups * self.cin_g * p_pad * c
            rest = math.prod(self.out_spatial[1:])
            sizes["im2col"] = self.n * self.groups * self.cin_g * kv * self.chunk * rest * c
            if self.chunk < self.out_spatial[0]:
                # matmul into a non-contiguous slice of the output may buffer its result.
                sizes["gemm_result"] = self.n * self.groups * self.cout_g * self.chunk * rest * c
        else:
            sizes["gemm_result"] = self.n * self.groups * self.chunk * self.cout_g * p_in * c
            if self.phases > 1:
                last = self.out_spatial[-1]
                padded_out = p_out // last * (-(-last // self.phases) * self.phases)
                sizes["output"] = self.n * self.groups * self.cout_g * padded_out * c
                sizes["output_cast"] = n_out * self.x_dtype.itemsize
        return sizes


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


def _common(
    x_shape: Sequence[int],
    w_shape: Sequence[int],
    dtype: Any,
    groups: int,
    strides: Sequence[int],
    dilations: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    backprop: bool,
) -> tuple[Any, ...]:
    x_shape = tuple(int(v) for v in x_shape)
    w_shape = tuple(int(v) for v in w_shape)
    x_dtype = np.dtype(dtype)
    if x_dtype not in _SUPPORTED_DTYPES:
        raise ValueError(f"unsupported dtype {x_dtype}: expected float16, float32 or float64")
    compute = np.dtype(np.float64) if x_dtype == np.float64 else np.dtype(np.float32)
    if len(x_shape) not in (3, 4, 5):
        raise ValueError(f"x must have rank 3, 4 or 5 ([N, C, *spatial]), got shape {x_shape}")
    nd = len(x_shape) - 2
    groups = int(groups)
    if len(w_shape) == len(x_shape):
        if groups != 1:
            raise ValueError(f"groups={groups} needs a grouped filter of rank {len(x_shape) + 1}")
        w_g = (1, *w_shape)
    elif len(w_shape) == len(x_shape) + 1:
        if groups != w_shape[0]:
            raise ValueError(f"groups={groups} differs from the filter's first dim {w_shape[0]}")
        w_g = w_shape
    else:
        raise ValueError(f"filter rank {len(w_shape)} does not fit data rank {len(x_shape)}")
    if backprop:
        g, cin_g, cout_g = w_g[0], w_g[1], w_g[2]
    else:
        g, cout_g, cin_g = w_g[0], w_g[1], w_g[2]
    if x_shape[1] != g * cin_g:
        raise ValueError(f"data channels {x_shape[1]} != groups {g} x filter input channels {cin_g}")
    strides_t = _ints("strides", strides, nd)
    dilations_t = _ints("dilations", dilations, nd)
    pb = _ints("pads_begin", pads_begin, nd)
    pe = _ints("pads_end", pads_end, nd)
    if min(strides_t) < 1:
        raise ValueError(f"strides must be >= 1, got {list(strides_t)}")
    if min(dilations_t) < 1:
        raise ValueError(f"dilations must be >= 1, got {list(dilations_t)}")
    if min(pb) < 0:
        raise UnsupportedByOpenVINOError(
            f"negative pads_begin {list(pb)}: OpenVINO's CPU plugin cannot compile this layer"
        )
    return (x_shape, x_dtype, compute, nd, g, cin_g, cout_g, w_g[3:], strides_t, dilations_t, pb, pe)


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
    (x_shape, x_dtype, compute, nd, g, cin_g, cout_g, kernel, s, d, pb, pe) = _common(
        x_shape, w_shape, dtype, groups, strides, dilations, pads_begin, pads_end, False
    )
    if any(b + e < 0 for b, e in zip(pb, pe, strict=True)):
        raise UnsupportedByOpenVINOError(
            f"pads_begin {list(pb)} + pads_end {list(pe)} is negative on some axis: OpenVINO's "
            "shape inference ignores such pads and its CPU plugin cannot compile the layer"
        )
    spatial = x_shape[2:]
    out = []
    for axis in range(nd):
        extent = spatial[axis] + pb[axis] + pe[axis]
        kd = _dilated(kernel[axis], d[axis])
        if kd > extent:
            raise ValueError(
                f"kernel after dilation ({kd}) is larger than the padded data ({extent}) "
                f"at spatial axis {axis}"
            )
        out.append((extent - kd) // s[axis] + 1)
    n = x_shape[0]
    p_in, p_out = math.prod(spatial), math.prod(out)
    c = compute.itemsize
    # Memory moved: im2col writes and reads C_IN/G*K values per output position; scatter writes a
    # GEMM result of K*C_OUT/G values per input position and reads K*C_OUT/G per output position.
    method: Literal["im2col", "scatter"] = "scatter" if cout_g * (p_in + p_out) <= cin_g * p_out else "im2col"
    kv = math.prod(kernel)
    if method == "scatter":
        per_offset = max(1, n * g * cout_g * p_in * c)
        chunk = max(1, min(kv, CHUNK_BYTES // per_offset))
    else:
        per_row = max(1, n * g * cin_g * kv * math.prod(out[1:]) * c)
        chunk = max(1, min(out[0], CHUNK_BYTES // per_row))
    return _Plan(
        False, method, n, g, cin_g, cout_g, spatial, kernel, tuple(out), s, d, pb, x_dtype, compute, chunk
    )


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
    (x_shape, x_dtype, compute, nd, g, cin_g, cout_g, kernel, s, d, pb, pe) = _common(
        x_shape, w_shape, dtype, groups, strides, dilations, pads_begin, pads_end, True
    )
    op = _ints("output_padding", output_padding, nd)
    spatial = x_shape[2:]
    if output_spatial is not None:
        out = _ints("output_spatial", output_spatial, nd)
        if min(out) < 0:
            raise ValueError(f"output_spatial must be >= 0, got {list(out)}")
    else:
        full = [max(spatial[a] - 1, 0) * s[a] + _dilated(kernel[a], d[a]) for a in range(nd)]
        out = tuple(full[a] - pb[a] - pe[a] + op[a] for a in range(nd))
        if min(out) < 0:
            raise ValueError(f"output spatial size {list(out)} is negative (OpenVINO infers a dynamic dim)")
    n = x_shape[0]
    kv = math.prod(kernel)
    per_offset = max(1, n * g * cout_g * math.prod(spatial) * compute.itemsize)
    chunk = max(1, min(kv, CHUNK_BYTES // per_offset))
    return _Plan(
        True, "scatter", n, g, cin_g, cout_g, spatial, kernel, out, s, d, pb, x_dtype, compute, chunk
    )


def estimate_working_bytes(
    kind: Literal["convolution", "convolution_backprop"],
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
    """Upper estimate of the bytes the kernel allocates (output included, inputs excluded).

    ``kind`` selects the kernel (``"convolution"`` or ``"convolution_backprop"``); the keyword
    arguments are the kernel's own. ``output_padding`` defaults to zeros for the backprop kernel
    and must be left out (or None) for the forward one. Raises the kernel's ``ValueError`` for
    invalid arguments.
    """
    if kind == "convolution":
        if output_padding is not None or output_spatial is not None:
            raise ValueError("output_padding/output_spatial only apply to convolution_backprop")
        plan = _plan_forward(
            x_shape,
            w_shape,
            dtype,
            strides=strides,
            dilations=dilations,
            pads_begin=pads_begin,
            pads_end=pads_end,
            groups=groups,
        )
    elif kind == "convolution_backprop":
        nd = len(x_shape) - 2
        plan = _plan_backprop(
            x_shape,
            w_shape,
            dtype,
            strides=strides,
            dilations=dilations,
            pads_begin=pads_begin,
            pads_end=pads_end,
            output_padding=output_padding if output_padding is not None else [0] * max(nd, 0),
            groups=groups,
            output_spatial=output_spatial,
        )
    else:
        raise ValueError(f"kind must be 'convolution' or 'convolution_backprop', got {kind!r}")
    return sum(plan.buffers().values())


def _as_input(x: np.ndarray, plan: _Plan) -> np.ndarray:
    """``x`` in the compute dtype, C-contiguous, viewed as ``[N, G, C_IN/G, *spatial]``."""
    xc = np.ascontiguousarray(x, dtype=plan.compute_dtype)
    return xc.reshape(plan.n, plan.groups, plan.cin_g, *plan.in_spatial)


def _finish(out: np.ndarray, plan: _Plan) -> np.ndarray:
    out = out.reshape(plan.out_shape)
    if out.dtype != plan.x_dtype:
        out = out.astype(plan.x_dtype)
    return out


def _scatter_weights(w: np.ndarray, plan: _Plan) -> np.ndarray:
    """Filter as ``[G, K * C_OUT/G, C_IN/G]`` (row ``k * C_OUT/G + m``), contiguous."""
    g, cin_g, cout_g, kv = plan.groups, plan.cin_g, plan.cout_g, plan.kernel_volume
    wc = np.asarray(w, dtype=plan.compute_dtype)
    if plan.backprop:  # [G, C_IN/G, C_OUT/G, *k]
        wt = wc.reshape(g, cin_g, cout_g, kv).transpose(0, 3, 2, 1)
    else:  # [G, C_OUT/G, C_IN/G, *k]
        wt = wc.reshape(g, cout_g, cin_g, kv).transpose(0, 3, 1, 2)
    return np.ascontiguousarray(wt).reshape(g, kv * cout_g, cin_g)


def _scatter_slices(plan: _Plan, offset: tuple[int, ...]) -> tuple[tuple[Any, ...], ...] | None:
    """(accumulator index, GEMM-result slices) linking input position i and output position o.

    Backprop: ``o = i*s + k*d - pb``; forward: ``i = o*s + k*d - pb``. Both clipped to the
    arrays' bounds. With last-axis phases (backprop, last stride S > 1), the last output axis is
    addressed as ``[o % S, o // S]``. None when the offset touches nothing.
    """
    out_sl: list[Any] = []
    in_sl: list[slice] = []
    last = len(offset) - 1
    for a, k in enumerate(offset):
        s, d, pb = plan.strides[a], plan.dilations[a], plan.pads_begin[a]
        size_in, size_out = plan.in_spatial[a], plan.out_spatial[a]
        shift = k * d - pb
        if plan.backprop and a == last and plan.phases > 1:  # o = i*s + shift = j*s + p
            p, q = shift % s, shift // s  # j = i + q
            lo = max(0, -q)
            hi = min(size_in, len(range(p, size_out, s)) - q)
            if hi <= lo:
                return None
            in_sl.append(slice(lo, hi))
            out_sl.extend((p, slice(lo + q, hi + q)))
        elif plan.backprop:  # o = i*s + shift
            lo = max(0, _ceil_div(-shift, s))
            hi = min(size_in, (size_out - 1 - shift) // s + 1)
            if hi <= lo:
                return None
            o_lo = lo * s + shift
            in_sl.append(slice(lo, hi))
            out_sl.append(slice(o_lo, o_lo + (hi - lo - 1) * s + 1, s))
        else:  # i = o*s + shift
            lo = max(0, _ceil_div(-shift, s))
            hi = min(size_out, (size_in - 1 - shift) // s + 1)
            if hi <= lo:
                return None
            i_lo = lo * s + shift
            out_sl.append(slice(lo, hi))
            in_sl.append(slice(i_lo, i_lo + (hi - lo - 1) * s + 1, s))
    return tuple(out_sl), tuple(in_sl)


def _run_scatter(x: np.ndarray, w: np.ndarray, plan: _Plan) -> np.ndarray:
    g, cout_g = plan.groups, plan.cout_g
    xg = _as_input(x, plan).reshape(plan.n, g, plan.cin_g, -1)
    wt = _scatter_weights(w, plan)
    phases = plan.phases
    lead = (slice(None), slice(None), slice(None))
    if phases > 1:
        # Backprop with a last-axis stride S > 1: accumulate output position j*S + p at
        # acc[..., p, j] so that every add is unit-stride on the innermost axis, then interleave.
        y_last = plan.out_spatial[-1]
        acc = np.zeros(
            (plan.n, g, cout_g, *plan.out_spatial[:-1], phases, -(-y_last // phases)),
            dtype=plan.compute_dtype,
        )
    else:
        acc = np.zeros((plan.n, g, cout_g, *plan.out_spatial), dtype=plan.compute_dtype)
    offsets = list(np.ndindex(*plan.kernel))
    for start in range(0, len(offsets), plan.chunk):
        chunk = offsets[start : start + plan.chunk]
        links = [_scatter_slices(plan, k) for k in chunk]
        if all(link is None for link in links):
            continue
        rows = slice(start * cout_g, (start + len(chunk)) * cout_g)
        res = np.matmul(wt[:, rows], xg)  # [N, G, len(chunk) * C_OUT/G, P_in]
        res = res.reshape(plan.n, g, len(chunk), cout_g, *plan.in_spatial)
        for j, link in enumerate(links):
            if link is not None:
                acc_sl, in_sl = link
                acc[(*lead, *acc_sl)] += res[(slice(None), slice(None), j, slice(None), *in_sl)]
        del res
    if phases == 1:
        return _finish(acc, plan)
    out = np.empty((plan.n, g, cout_g, *plan.out_spatial), dtype=plan.x_dtype)
    for p in range(min(phases, y_last)):
        out[..., p::phases] = acc[..., p, : len(range(p, y_last, phases))]
    return out.reshape(plan.out_shape)


def _run_im2col(x: np.ndarray, w: np.ndarray, plan: _Plan) -> np.ndarray:
    n, g, cin_g, cout_g = plan.n, plan.groups, plan.cin_g, plan.cout_g
    kv = plan.kernel_volume
    xg = _as_input(x, plan)
    padded = plan.padded_spatial()
    if padded == plan.in_spatial and not any(plan.pads_begin):
        xp = xg
    else:
        xp = np.zeros((n, g, cin_g, *padded), dtype=plan.compute_dtype)
        dst, src = [], []
        for a, size in enumerate(plan.in_spatial):
            pb = plan.pads_begin[a]
            hi = min(size, padded[a] - pb)  # pads_begin >= 0 here
            dst.append(slice(pb, pb + max(hi, 0)))
            src.append(slice(0, max(hi, 0)))
        xp[(Ellipsis, *dst)] = xg[(Ellipsis, *src)]
    w2 = np.ascontiguousarray(w, dtype=plan.compute_dtype).reshape(g, cout_g, cin_g * kv)
    out0 = plan.out_spatial[0]
    rest = plan.out_spatial[1:]
    rest_size = math.prod(rest)
    out = np.empty((n, g, cout_g, out0 * rest_size), dtype=plan.compute_dtype)
    offsets = list(np.ndindex(*plan.kernel))
    s, d = plan.strides, plan.dilations
    for r0 in range(0, out0, plan.chunk):
        rows = min(plan.chunk, out0 - r0)
        cols = np.empty((n, g, cin_g, kv, rows, *rest), dtype=plan.compute_dtype)
        for j, k in enumerate(offsets):
            start0 = r0 * s[0] + k[0] * d[0]
            sl = [slice(start0, start0 + (rows - 1) * s[0] + 1, s[0])]
            for a in range(1, len(k)):
                start = k[a] * d[a]
                sl.append(slice(start, start + (plan.out_spatial[a] - 1) * s[a] + 1, s[a]))
            cols[:, :, :, j] = xp[(Ellipsis, *sl)]
        np.matmul(
            w2,
            cols.reshape(n, g, cin_g * kv, rows * rest_size),
            out=out[..., r0 * rest_size : (r0 + rows) * rest_size],
        )
        del cols
    return _finish(out, plan)


def convolution(
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
        x.shape,
        w.shape,
        x.dtype,
        strides=strides,
        dilations=dilations,
        pads_begin=pads_begin,
        pads_end=pads_end,
        groups=groups,
    )
    if plan.empty:
        return np.zeros(plan.out_shape, dtype=plan.x_dtype)
    if plan.method == "scatter":
        return _run_scatter(x, w, plan)
    return _run_im2col(x, w, plan)


def convolution_backprop(
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
        x.shape,
        w.shape,
        x.dtype,
        strides=strides,
        dilations=dilations,
        pads_begin=pads_begin,
        pads_end=pads_end,
        output_padding=output_padding,
        groups=groups,
        output_spatial=output_spatial,
    )
    if plan.empty:
        return np.zeros(plan.out_shape, dtype=plan.x_dtype)
    return _run_scatter(x, w, plan)
