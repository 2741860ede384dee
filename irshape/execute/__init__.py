"""NumPy execution: whole networks (:mod:`irshape.execute.network`), ``irshape run``
(:mod:`irshape.execute.run`) and dry runs (:mod:`irshape.execute.dryrun`).

The kernels live in :mod:`irshape.kernels`, which imports numpy. The raw convolution kernels are
re-exported here lazily, so importing this package does not need numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from irshape.kernels.convolution import (
        UnsupportedByOpenVINOError,
        convolve,
        convolve_backprop,
        estimate_working_bytes,
        release_scratch,
    )

__all__ = [
    "UnsupportedByOpenVINOError",
    "convolve",
    "convolve_backprop",
    "estimate_working_bytes",
    "release_scratch",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("irshape.kernels.convolution"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
