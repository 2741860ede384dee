"""Kernels of the matmul family (irshape/shapes/matmul.py): MatMul-1, Einsum-7, Inverse-14 and
ScaledDotProductAttention-13.

What OpenVINO's CPU plugin computes (openvino 2026.4.1, ``INFERENCE_PRECISION_HINT=f32``),
established by ``tests/execution/test_matmul.py``:

* Real inputs of a narrow type (f16, bf16) are computed in f32 and rounded once to the output
  type; so are these kernels (f64 in f64). A bf16 attention runs as the plugin's decomposition
  (its runtime model: a MatMul, an eltwise subgraph, a Softmax and a MatMul, each storing
  bf16), and the kernel rounds where it stores: without a scale input the key times
  1/sqrt(E) (that scale rounded to bf16 first), the scores, the scores plus the mask, the
  weights, the output; with a scale input the scores, then ``scores * scale + mask`` rounded
  once (one fused subgraph), the weights, the output (tests/execution/test_matmul.py: equal to
  the plugin bit for bit with E = 8 and 16, masks real and boolean, causal or not).
* Integer MatMul and Einsum: the plugin multiplies in f32 and saturates to the output type, so
  results are exact while every partial sum stays within 2^24; the kernels compute exact
  int64 products and saturate to the output type (i64 inputs beyond i32's range differ: the
  plugin runs i64 as i32).
* ScaledDotProductAttention is OpenVINO's decomposition (``ScaledDotProductAttentionDecomposition``):
  ``softmax(query * scale @ key^T + mask) @ value`` with ``scale = 1/sqrt(E)`` when the input is
  absent; a boolean mask keeps the positions where it is True (-inf elsewhere), a real mask is
  added; ``causal`` masks key position ``j > i`` for query position ``i`` (top-left aligned when
  L != S) and then the attention_mask input is ignored. A row with every position masked is NaN,
  as in the plugin.
* Inverse's ``adjoint``: the CPU plugin returns the inverse of the transposed matrix (the
  inverse's conjugate transpose, as the spec words it; for a singular matrix the infinities and
  NaNs of the transposed matrix's LU), where the reference ``inverse.hpp`` (as read, 2024)
  multiplies the inverse by the determinant (the adjugate). The kernel follows the plugin. The
  inverse is OpenVINO's LU algorithm (partial pivoting, in f32, f64 matrices too: the plugin
  runs them in f32), so a singular matrix gives the same infinities and NaNs as OpenVINO's.
* Einsum: numpy's einsum of the equation as OpenVINO parses it, each ellipsis spelt as letters
  of its own so that an output without the ellipsis sums its dims, as OpenVINO does. An
  implicit output that repeats a label (``ada``) the plugin cannot build; numpy refuses it too.
"""

from __future__ import annotations

import math
import re
import string
from typing import Any

import numpy as np

from irshape.kernels import KernelCall, KernelError, output_bytes, working_memory
from irshape.kernels.narrow_reals import round_to_bf16
from irshape.kernels.stored import as_output
from irshape.shapes.matmul import ELLIPSIS, EinsumError, extract_labels, parse_equation


def _compute_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """What a product of ``dtype`` values is accumulated in: f64 stays, other reals are f32,
    integers are int64 (then saturated to their type)."""
    if dtype.kind == "f":
        return np.dtype(np.float64) if dtype == np.float64 else np.dtype(np.float32)
    return np.dtype(np.int64)


def _to_output(call: KernelCall, result: Any) -> np.ndarray:
    """``result`` (f32/f64/int64, a numpy scalar from a 0-D product) in the output's element
    type, integers saturated as the plugin's f32 -> int."""
    result = np.asarray(result)
    dtype = call.output_dtype()
    if dtype.kind in "iu" and result.dtype.kind in "iu":
        info = np.iinfo(dtype)
        result = np.clip(result, max(info.min, np.iinfo(np.int64).min), min(info.max, np.iinfo(np.int64).max))
    return as_output(call, result)


def _product_working_bytes(call: KernelCall) -> int:
    """Converted copies of the operands (integers widen to int64), the product and two
    temporaries of its size in the compute type (saturation), the stored output."""
    compute = _compute_dtype(call.inputs[0].dtype)
    copies = sum(x.size for x in call.inputs if x.dtype != compute) * compute.itemsize
    elements = output_bytes(call, 0) // max(1, call.output_dtype().itemsize)
    return int(copies + 3 * elements * compute.itemsize + output_bytes(call, 0))


@working_memory(_product_working_bytes)
def matmul(call: KernelCall) -> np.ndarray:
    """MatMul-1: the last two axes of an operand of rank >= 2 transposed if asked; numpy's
    matmul then treats 1-D operands (a row vector A, a column vector B) and broadcasts the batch
    axes as OpenVINO does."""
    a, b = call.inputs[:2]
    compute = _compute_dtype(a.dtype)
    a, b = a.astype(compute, copy=False), b.astype(compute, copy=False)
    if call.attribute("transpose_a") and a.ndim >= 2:
        a = np.swapaxes(a, -1, -2)
    if call.attribute("transpose_b") and b.ndim >= 2:
        b = np.swapaxes(b, -1, -2)
    with np.errstate(invalid="ignore", over="ignore"):  # inf * 0 is NaN, as OpenVINO's
        return _to_output(call, np.matmul(a, b))


def _explicit_equation(call: KernelCall) -> str:
    """The equation as OpenVINO parses it, for numpy: the output made explicit (implicit mode:
    the labels met once, sorted, after the ellipsis), and each ellipsis spelt as letters of its
    own, aligned to the right as the ellipsis dims broadcast, so that an output without the
    ellipsis sums its dims as OpenVINO does (numpy refuses such an output)."""
    try:
        subscripts, output = parse_equation(str(call.attribute("equation")))
    except EinsumError as exc:
        raise KernelError(str(exc)) from exc
    # how many dims each operand's ellipsis covers (0 without one)
    ranks = [
        x.ndim - len(extract_labels(s)) + 1 if ELLIPSIS in s else 0
        for x, s in zip(call.inputs, subscripts, strict=True)
    ]
    used = set("".join(subscripts) + output)
    spare = [c for c in string.ascii_letters if c not in used][: max(ranks, default=0)]
    if len(spare) < max(ranks, default=0):
        raise KernelError("the equation leaves too few letters to spell its ellipsis")
    spelt = [
        s.replace(ELLIPSIS, "".join(spare[len(spare) - r :])) for s, r in zip(subscripts, ranks, strict=True)
    ]
    return ",".join(spelt) + "->" + output.replace(ELLIPSIS, "".join(spare))


_LARGEST = re.compile(r"Largest intermediate:\s*([0-9.e+]+)")


def _einsum_working_bytes(call: KernelCall) -> int:
    """Converted and transposed copies of the operands, the output and its converted copy,
    and the largest intermediate of numpy's greedy contraction path."""
    compute = _compute_dtype(call.inputs[0].dtype)
    copies = 2 * sum(x.size for x in call.inputs) * compute.itemsize
    largest = 0
    if len(call.inputs) > 1:
        try:
            path = np.einsum_path(_explicit_equation(call), *call.inputs, optimize="greedy")[1]
        except ValueError:  # the kernel will say why; nothing to estimate
            path = ""
        found = _LARGEST.search(path)
        largest = int(float(found.group(1))) * compute.itemsize if found else 0
    return copies + 2 * largest + 3 * output_bytes(call, 0) * max(1, compute.itemsize // 2)


@working_memory(_einsum_working_bytes)
def einsum(call: KernelCall) -> np.ndarray:
    """Einsum-7: numpy's einsum of the equation as OpenVINO parses it."""
    compute = _compute_dtype(call.inputs[0].dtype)
    operands = [x.astype(compute, copy=False) for x in call.inputs]
    result = np.einsum(_explicit_equation(call), *operands, optimize=len(operands) > 1)
    return _to_output(call, result)


def _lu_inverse(matrices: np.ndarray) -> np.ndarray:
    """The inverses of ``[batch, n, n]`` matrices by OpenVINO's algorithm: LU with partial
    pivoting (the first row of largest magnitude; a NaN is never chosen), then forward and
    backward substitution of each identity column. Loops run over n, each step over every
    matrix at once; a singular matrix gives OpenVINO's infinities and NaNs."""
    batch, n = matrices.shape[0], matrices.shape[-1]
    upper = matrices.copy()
    lower = np.broadcast_to(np.eye(n, dtype=matrices.dtype), matrices.shape).copy()
    order = np.broadcast_to(np.arange(n), (batch, n)).copy()
    rows = np.arange(batch)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for k in range(n):
            magnitude = np.abs(upper[:, k:, k])
            candidates = np.where(np.isnan(magnitude), -np.inf, magnitude)
            pivot = k + np.where(np.isnan(magnitude[:, 0]), 0, np.argmax(candidates, axis=1))
            for table in (upper, lower, order):
                held = table[rows, k].copy()
                table[rows, k] = table[rows, pivot]
                table[rows, pivot] = held
            lower[:, k + 1 :, k] = upper[:, k + 1 :, k] / upper[:, k, k][:, None]
            upper[:, k + 1 :, k:] -= lower[:, k + 1 :, k][:, :, None] * upper[:, k, k:][:, None, :]
        # Y = P I, then L Y = P I and U X = Y, row by row; X's columns are the inverse's
        solution: np.ndarray = (order[:, :, None] == np.arange(n)).astype(matrices.dtype)
        for i in range(1, n):
            solution[:, i] -= np.einsum("bj,bjc->bc", lower[:, i, :i], solution[:, :i])
        for i in range(n - 1, -1, -1):
            if i + 1 < n:
                solution[:, i] -= np.einsum("bj,bjc->bc", upper[:, i, i + 1 :], solution[:, i + 1 :])
            solution[:, i] /= upper[:, i, i][:, None]
    return solution


def _inverse_working_bytes(call: KernelCall) -> int:
    """The f32 matrices, U, L, the solution, one elimination temporary of their size, and the
    stored output."""
    return int(6 * call.inputs[0].size * 4 + output_bytes(call, 0))


@working_memory(_inverse_working_bytes)
def inverse(call: KernelCall) -> np.ndarray:
    """Inverse-14: each matrix's inverse by OpenVINO's LU algorithm (infinities and NaNs for a
    singular matrix, as OpenVINO's); with ``adjoint`` the inverse of its transpose, as the CPU
    plugin computes it (see the module docstring)."""
    data = call.inputs[0]
    # f32 whatever the type: the plugin runs an f64 model in f32, so an f64 matrix singular in
    # f32's elimination is NaN and infinities there (f64's left 1.4e16)
    compute = np.dtype(np.float32)
    n = data.shape[-1]
    matrices = data.astype(compute).reshape(-1, n, n)
    if call.attribute("adjoint"):  # the plugin inverts the transposed matrices
        matrices = np.ascontiguousarray(np.swapaxes(matrices, -1, -2))
    return as_output(call, _lu_inverse(matrices).reshape(data.shape))


def _sdpa_working_bytes(call: KernelCall) -> int:
    """The converted inputs, the [batch..., L, S] scores (the softmax works in place), the mask
    broadcast to them, and the stored output."""
    compute = _compute_dtype(call.inputs[0].dtype)
    batch = call.output_shape(0)[:-2]
    rows, columns = call.inputs[0].shape[-2], call.inputs[1].shape[-2]
    scores = math.prod(batch) * rows * columns * compute.itemsize
    copies = sum(x.size for x in call.inputs) * compute.itemsize
    return int(2 * scores + copies + 2 * output_bytes(call, 0) * max(1, compute.itemsize // 2))


@working_memory(_sdpa_working_bytes)
def scaled_dot_product_attention(call: KernelCall) -> np.ndarray:
    """ScaledDotProductAttention-13 as OpenVINO decomposes it (see the module docstring)."""
    query, key, value = call.inputs[:3]
    compute = _compute_dtype(query.dtype)
    query, key, value = (x.astype(compute, copy=False) for x in (query, key, value))
    narrow = _narrowing(call)
    if len(call.inputs) > 4:  # the plugin scales the scores, with the mask in the same step
        scale = call.inputs[4].astype(compute)
        scores = narrow(np.matmul(query, np.swapaxes(key, -1, -2)))
        scores *= scale
    else:  # and a default scale the key (bf16: 1/sqrt(E) rounded to bf16 first)
        scale = narrow(compute.type(1) / np.sqrt(compute.type(query.shape[-1])))
        scores = narrow(np.matmul(query, np.swapaxes(narrow(key * scale), -1, -2)))
    mask = _attention_bias(call, scores.shape[-2], scores.shape[-1], compute)
    if mask is not None and np.broadcast_shapes(scores.shape, mask.shape) == scores.shape:
        np.add(scores, mask, out=scores)  # in place: scores may be large
    elif mask is not None:
        scores = scores + mask
    scores = narrow(scores)
    with np.errstate(invalid="ignore"):  # a row masked throughout: -inf - -inf is NaN, as OpenVINO's
        np.subtract(scores, scores.max(axis=-1, keepdims=True), out=scores)
        np.exp(scores, out=scores)
        weights = narrow(np.divide(scores, scores.sum(axis=-1, keepdims=True), out=scores))
    result: np.ndarray = np.matmul(weights, value)
    return as_output(call, result)


def _narrowing(call: KernelCall) -> Any:
    """How the plugin rounds each step of a bf16 attention (its decomposition's ops each
    store bf16); the identity for other types."""
    if call.output_type(0) == "bf16":
        return round_to_bf16
    return lambda values: values


def _attention_bias(call: KernelCall, rows: int, columns: int, compute: np.dtype[Any]) -> np.ndarray | None:
    """What is added to the attention scores: the causal mask, else the attention_mask input
    (a boolean one as 0 where True, -inf where False), else nothing."""
    if call.attribute("causal"):
        above = np.arange(columns)[None, :] > np.arange(rows)[:, None]
        return np.where(above, -np.inf, 0.0).astype(compute)
    if len(call.inputs) < 4:
        return None
    mask = call.inputs[3]
    if mask.dtype == np.bool_:
        return np.where(mask, 0.0, -np.inf).astype(compute)
    return mask.astype(compute, copy=False)
