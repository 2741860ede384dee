"""Results computed in f32 or f64 stored in their output's element type, as OpenVINO stores
them: f16 rounded (past its range infinite), bf16 rounded to nearest even but held in f32
(:func:`irshape.kernels.storage_dtype`), integers as cast. Shared by the matmul, recurrent,
signal and convolution kernels."""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall
from irshape.kernels.narrow_reals import round_to_bf16


def as_output(call: KernelCall, values: np.ndarray, index: int = 0) -> np.ndarray:
    """``values`` in output ``index``'s element type."""
    with np.errstate(over="ignore", invalid="ignore"):
        stored: np.ndarray = np.asarray(values).astype(call.output_dtype(index))
    if call.output_type(index) == "bf16":
        stored = round_to_bf16(stored).reshape(stored.shape)  # it makes a 0-D array 1-D
    return stored
