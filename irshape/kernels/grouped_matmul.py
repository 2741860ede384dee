"""The kernel of GroupedMatMul-17 (irshape/shapes/grouped_matmul.py). OpenVINO 2026.4.1 computes
the op nowhere: the CPU plugin has no node for it ("Unsupported operation of type:
GroupedMatMul") and the op has no evaluate (``Node.evaluate`` returns false), so there is nothing
to compare a numpy result with and the kernel refuses the layer (tested in
``tests/execution/test_grouped_matmul.py``)."""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall, UnsupportedByOpenVINOError


def grouped_matmul(call: KernelCall) -> np.ndarray:
    """GroupedMatMul-17: refused, as OpenVINO cannot run it."""
    raise UnsupportedByOpenVINOError("OpenVINO has no implementation of GroupedMatMul to compare with")
