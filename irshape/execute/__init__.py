"""NumPy execution of the convolution layers (dry runs).

The kernels live in :mod:`irshape.execute.kernels`, which imports numpy. They are re-exported
here lazily, so importing this package (or a numpy-free module inside it) does not need numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from irshape.execute.kernels import (
        UnsupportedByOpenVINOError,
        convolution,
        convolution_backprop,
        estimate_working_bytes,
        release_scratch,
    )

__all__ = [
    "UnsupportedByOpenVINOError",
    "convolution",
    "convolution_backprop",
    "estimate_working_bytes",
    "release_scratch",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("irshape.execute.kernels"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
