"""The kernel of GroupedMatMul-17 (irshape/shapes/grouped_matmul.py), the matrix products of a
mixture-of-experts layer.

OpenVINO 2026.4.1 computes the op nowhere: the CPU plugin has no node for it ("Unsupported
operation of type: GroupedMatMul") and the op has no evaluate (``Node.evaluate`` returns false).
The kernel follows the op's definition in OpenVINO 2026.4 (its shape inference and API
documentation: ``mat_b`` holds each group's weights transposed, ``[G, N, K]``) and OpenVINO's
reference implementation (``reference/grouped_matmul.hpp``) for the arithmetic, and is tested
on hand-worked products (tests/execution/test_grouped_matmul.py):

* 3D x 3D: ``out[g] = mat_a[g] @ mat_b[g]^T``, ``[G, M, K] x [G, N, K] -> [G, M, N]``;
* 2D x 3D: the rows of ``mat_a [T, K]`` are the groups' in turn, ``offsets`` their cumulative
  ends: rows ``offsets[g-1]`` (0 for the first) to ``offsets[g]`` are multiplied by
  ``mat_b[g]^T``; rows past the last offset are 0. Offsets that decrease, or pass T, are
  refused (the reference's unsigned row count would wrap);
* the reference accumulates ``out += a * b`` in the element type, k by k: integers wrap (the
  kernel's exact int64 sums, wrapped, are the same), f16 and bf16 round every product and every
  partial sum (the kernel does too, a pass per k); f32 and f64 go to numpy's product, whose
  order of summation differs from the reference's by rounding only.
"""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall, KernelError
from irshape.kernels.narrow_reals import rounded_to

_NARROW = ("f16", "bf16")


def _product(call: KernelCall, a: np.ndarray, b_transposed: np.ndarray) -> np.ndarray:
    """``a @ b_transposed^T`` (``[..., M, K] x [..., N, K]``) as the reference accumulates it,
    in the output's dtype."""
    dtype = call.output_dtype()
    element_type = call.output_type()
    b = np.swapaxes(b_transposed, -1, -2)
    if dtype.kind in "iu" or dtype.kind == "b":
        exact: np.ndarray = np.matmul(a.astype(np.int64), b.astype(np.int64))
        return exact.astype(dtype)
    if element_type not in _NARROW:
        product: np.ndarray = np.matmul(a, b).astype(dtype)
        return product
    # each product and each partial sum rounded to the type, k by k (as ov::float16's operators)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    total = np.zeros((*np.broadcast_shapes(a.shape[:-2], b.shape[:-2]), a.shape[-2], b.shape[-1]), np.float32)
    for k in range(a.shape[-1]):
        products = rounded_to((a32[..., :, k, None] * b32[..., k, None, :]).astype(dtype), element_type)
        total = rounded_to((total + products).astype(dtype), element_type).astype(np.float32)
    return total.astype(dtype)


def _row_ranges(offsets: np.ndarray, rows: int) -> list[tuple[int, int]]:
    """Each group's rows ``(start, end)`` from the cumulative end offsets."""
    ends = [int(v) for v in offsets.reshape(-1)]
    ranges, start = [], 0
    for group, end in enumerate(ends):
        if end < start or end > rows:
            raise KernelError(f"offsets[{group}] = {end} is not between {start} and the {rows} rows")
        ranges.append((start, end))
        start = end
    return ranges


def grouped_matmul(call: KernelCall) -> np.ndarray:
    """GroupedMatMul-17 (see the module docstring)."""
    a, b = call.inputs[:2]
    if a.ndim == 3:
        return _product(call, a, b)
    if len(call.inputs) < 3:
        raise KernelError("a 2D mat_a needs offsets")
    groups = _row_ranges(call.inputs[2], a.shape[0])
    if len(groups) != b.shape[0]:
        raise KernelError(f"{len(groups)} offsets for {b.shape[0]} groups of weights")
    out = np.zeros(call.output_shape(), call.output_dtype())
    for group, (start, end) in enumerate(groups):
        if end > start:
            out[start:end] = _product(call, a[start:end], b[group])
    return out
