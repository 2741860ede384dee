"""Kernels of the search family (irshape/shapes/search.py): Bucketize-3 and SearchSorted-15.

Both count, for each value, the elements of a sorted sequence below it (``<``, or ``<=`` on
the right side): numpy's ``searchsorted``, but for NaN. What the CPU plugin does, by
tests/execution/test_search.py: Bucketize's ``with_right_bound`` puts a value equal to a bound
in that bound's bucket (``searchsorted`` on the left); SearchSorted searches each values row
in its row of the sorted sequence (a 1D sequence serves every value). A NaN value compares
false with everything, as C++'s ``lower_bound``/``upper_bound`` see it: bucket 0 with the right
bound, the last bucket without it; SearchSorted's index 0 on either side (numpy would put NaN
after everything).

The types the plugin searches in (``nodes/bucketize.cpp``, ``nodes/search_sorted.cpp``, found
by the kernel fuzzer): Bucketize keeps f32, i32 and i64 (held as i32) on each input and reads
every other type as f32, comparing an integer with a real in f32 (C++'s conversions);
SearchSorted keeps f32, f16, bf16, i32, i8 and u8 and reads the others as f32. The types held
as i32 (i64, u64, u32) reach both as i32, their signed low 32 bits: a u64 2^64 - 2 is -2.
Not copied: SearchSorted of an empty sorted sequence, whose output the plugin leaves unwritten
(2056794720, 5075456...; irshape gives 0).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from irshape.kernels import KernelCall, working_memory

# the element types each node searches in as they are; it reads the others as f32
_BUCKETIZE_KEEPS = frozenset({"f32", "i32", "i64"})
_SEARCH_SORTED_KEEPS = frozenset({"f32", "f16", "bf16", "i32", "i8", "u8"})
_HELD_AS_I32 = frozenset({"i64", "u64", "u32"})


def _as_searched(array: np.ndarray, element_type: str, keeps: frozenset[str]) -> np.ndarray:
    """An input as the plugin's node reads it: i64/u64/u32 as signed i32 (its ConvertPrecision
    pass makes them i32 before the node chooses), a type it does not keep as f32."""
    if element_type in _HELD_AS_I32:
        return array.astype(np.int32)
    if element_type not in keeps:
        return array.astype(np.float32)
    return array


def bucketize(call: KernelCall) -> np.ndarray:
    """Bucketize-3: the index of each value's bucket; with the right bound a bucket is
    ``(b[i-1], b[i]]``, without it ``[b[i-1], b[i])``."""
    data, buckets = (
        _as_searched(array, element_type, _BUCKETIZE_KEEPS)
        for array, element_type in zip(call.inputs, call.input_types, strict=True)
    )
    side: Literal["left", "right"] = "left" if call.attribute("with_right_bound") else "right"
    # an integer against a real compares in f32 (C++'s conversion), not numpy's f64
    common = np.float32 if "f" in (data.dtype.kind, buckets.dtype.kind) else np.int32
    found = np.searchsorted(buckets.astype(common, copy=False), data.astype(common, copy=False), side=side)
    if side == "left":
        found = _nan_first(found, data)
    return np.asarray(found).astype(call.output_dtype())


def _nan_first(found: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Index 0 for NaN values (``lower_bound``'s answer for a value that compares false)."""
    if values.dtype.kind != "f":
        return found
    return np.where(np.isnan(values), 0, found)


def _search_bytes(call: KernelCall) -> int:
    sorted_sequence, values = call.inputs
    return int(values.size * sorted_sequence.shape[-1] + 2 * values.size * call.output_dtype().itemsize)


@working_memory(_search_bytes)
def search_sorted(call: KernelCall) -> np.ndarray:
    """SearchSorted-15: for each value, how many elements of its row of the sorted sequence
    are less than it (``right_mode``: not greater)."""
    sorted_sequence, values = (
        _as_searched(array, element_type, _SEARCH_SORTED_KEEPS)
        for array, element_type in zip(call.inputs, call.input_types, strict=True)
    )
    right = bool(call.attribute("right_mode"))
    dtype = call.output_dtype()
    if sorted_sequence.ndim == 1:
        found = np.searchsorted(sorted_sequence, values, side="right" if right else "left")
        return np.asarray(_nan_first(found, values)).astype(dtype)
    # Each values row against its sorted row at once: a count of comparisons.
    rows = sorted_sequence[..., None, :]
    probes = values[..., :, None]
    below = (rows <= probes) if right else (rows < probes)
    counted: np.ndarray = np.count_nonzero(below, axis=-1).astype(dtype)
    return counted
