"""Kernels of the generation family (irshape/shapes/generation.py): OneHot-1/16, Eye-9 and
RandomUniform-8.

What the CPU plugin does, by tests/execution/test_generation.py: OneHot gives the off value at
every position of an index outside ``[0, depth)``; OneHot-16's ``normalize`` counts an index
in ``[-depth, 0)`` from the end first. Eye's diagonal may lie anywhere (a diagonal past the
columns or below the rows leaves all zeros).
"""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall


def _scalar(array: np.ndarray) -> int:
    return int(np.asarray(array).reshape(-1)[0])


def one_hot(call: KernelCall) -> np.ndarray:
    """OneHot-1/16: on_value where the new axis's position is the index, off_value elsewhere."""
    indices = call.inputs[0].astype(np.int64)
    depth = _scalar(call.inputs[1])
    dtype = call.output_dtype()
    on_value, off_value = (call.inputs[i].reshape(-1)[0].astype(dtype) for i in (2, 3))
    if (
        "negative_indices_mode" in call.schema.attributes
        and call.attribute("negative_indices_mode") == "normalize"
    ):
        indices = np.where((indices < 0) & (indices >= -depth), indices + depth, indices)
    axis = int(call.attribute("axis"))
    axis = axis + indices.ndim + 1 if axis < 0 else axis
    positions = np.arange(depth).reshape((depth,) + (1,) * (indices.ndim - axis))
    hot = np.expand_dims(indices, axis) == positions
    result: np.ndarray = np.where(hot, on_value, off_value).astype(dtype, copy=False)
    return result


def eye(call: KernelCall) -> np.ndarray:
    """Eye-9: ones on the diagonal ``diagonal_index`` of each ``num_rows x num_columns``
    matrix, zeros elsewhere, repeated over ``batch_shape``."""
    shape = call.output_shape()
    rows, columns = shape[-2], shape[-1]
    diagonal = _scalar(call.inputs[2])
    matrix = np.eye(rows, columns, k=diagonal, dtype=call.output_dtype())
    return np.broadcast_to(matrix, shape).copy()
