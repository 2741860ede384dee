"""The kernel of SegmentMax-16 (irshape/shapes/segments.py): each segment's elementwise maximum
over the data rows whose segment_ids name it; an empty segment is 0 (``fill_mode`` zero) or the
lowest value of the type the plugin computes in (lowest). The rows from the first id at or past
the number of segments on are dropped. As OpenVINO's reference (``segment_max.hpp``: each
maximum is ``std::max`` from the lowest value on) a NaN never wins, and a segment of NaNs or
-infs alone is the lowest value, whatever the fill mode. Confirmed against the CPU plugin by
``tests/execution/test_segments.py``.

The plugin's node (``nodes/segment_max.cpp``) runs in the data's type where it has one (f32,
bf16, i8, u8, i32) and the plugin gives it another elsewhere, found by the kernel fuzzer
(``tests/execution/test_kernel_fuzz_signal.py``): f16 and f64 in f32 (an empty segment's lowest
is -FLT_MAX: -inf in f16), bf16 in bf16 (-3.3895e38, not -FLT_MAX rounded to -inf), and every
other integer type in i32 (u32 and u64 compared signed; the lowest -2^31 is 0 in i16 and u16,
2^64 - 2^31 in u64). Not copied (plugin bugs, by experiment): empty data, where the plugin
leaves the output unwritten (with num_segments) or OpenVINO's shape inference crashes building
the node (without it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from irshape.kernels import KernelCall

_BF16_LOWEST = -3.3895313892515355e38  # bf16's lowest finite value, 0xFF7F
_NATIVE_INTEGERS = frozenset({"i8", "u8", "i32"})


def _computed(data: np.ndarray, element_type: str) -> tuple[np.ndarray, float | int]:
    """The data in the type the plugin's node computes in, and that type's lowest value."""
    if data.dtype.kind == "f":
        lowest = _BF16_LOWEST if element_type == "bf16" else float(np.finfo(np.float32).min)
        return data.astype(np.float32), lowest
    if element_type in _NATIVE_INTEGERS or data.dtype.kind == "b":
        return data, int(np.iinfo(data.dtype).min) if data.dtype.kind != "b" else 0
    return data.astype(np.int32), int(np.iinfo(np.int32).min)


def _stored(values: np.ndarray, dtype: np.dtype[Any]) -> np.ndarray:
    """The computed result in the output's type: integers wrapped (i32 sign-extended), reals
    rounded (-FLT_MAX is -inf in f16)."""
    with np.errstate(over="ignore"):
        stored: np.ndarray = values.astype(dtype)
    return stored


def segment_max(call: KernelCall) -> np.ndarray:
    """SegmentMax-16."""
    data, ids = call.inputs[0], call.inputs[1].astype(np.int64).reshape(-1)
    computed, lowest = _computed(data, call.input_types[0])
    if len(call.inputs) > 2:
        segments = max(int(call.inputs[2].reshape(-1)[0]), 0)
    else:
        segments = int(ids.max()) + 1 if ids.size else 0
    if computed.dtype.kind == "f":
        # std::max(max, x) from the lowest value on: a NaN never wins (nor does -inf)
        computed = np.where(np.isnan(computed), np.float32(lowest), computed)
    out = np.full((segments, *data.shape[1:]), lowest, dtype=computed.dtype)
    # the rows up to the first id past the segments (the reference stops there)
    kept = np.logical_and.accumulate(ids < segments) & (ids >= 0)
    np.maximum.at(out, ids[kept], computed[kept])
    empty = np.bincount(ids[kept], minlength=segments)[:segments] == 0
    if str(call.attribute("fill_mode")).lower() == "zero":
        out[empty] = 0
    return _stored(out, call.output_dtype())
