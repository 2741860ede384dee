"""Kernels of the element-wise family (irshape/shapes/elementwise.py): activations, arithmetic,
comparisons, logical and bitwise ops, Convert, Select, Broadcast, Tile."""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall


def relu(call: KernelCall) -> np.ndarray:
    """Relu-1: max(x, 0)."""
    x = call.inputs[0]
    result: np.ndarray = np.maximum(x, x.dtype.type(0))
    return result
