"""The kernel of SegmentMax-16 (irshape/shapes/segments.py): each segment's elementwise maximum
over the data rows whose segment_ids name it; an empty segment is 0 (``fill_mode`` zero) or the
element type's lowest value (lowest). Ids at or past the number of segments are dropped.
Confirmed against the CPU plugin by ``tests/execution/test_segments.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from irshape.kernels import KernelCall


def _lowest(dtype: np.dtype[Any]) -> float | int:
    return float(np.finfo(dtype).min) if dtype.kind == "f" else int(np.iinfo(dtype).min)


def segment_max(call: KernelCall) -> np.ndarray:
    """SegmentMax-16."""
    data, ids = call.inputs[0], call.inputs[1].astype(np.int64).reshape(-1)
    dtype = call.output_dtype()
    if len(call.inputs) > 2:
        segments = max(int(call.inputs[2].reshape(-1)[0]), 0)
    else:
        segments = int(ids.max()) + 1 if ids.size else 0
    out = np.full((segments, *data.shape[1:]), _lowest(dtype), dtype=dtype)
    kept = (ids >= 0) & (ids < segments)
    np.maximum.at(out, ids[kept], data[kept].astype(dtype))
    empty = np.bincount(ids[kept], minlength=segments)[:segments] == 0
    if str(call.attribute("fill_mode")).lower() == "zero":
        out[empty] = 0
    return out
