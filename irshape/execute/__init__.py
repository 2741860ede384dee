"""NumPy reference execution of the convolution layers (used by dry runs; needs numpy)."""

from irshape.execute.kernels import (
    UnsupportedByOpenVINOError,
    convolution,
    convolution_backprop,
    estimate_working_bytes,
)

__all__ = [
    "UnsupportedByOpenVINOError",
    "convolution",
    "convolution_backprop",
    "estimate_working_bytes",
]
