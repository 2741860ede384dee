"""Kernels of the search family (irshape/shapes/search.py): Bucketize-3 and SearchSorted-15.

Both count, for each value, the elements of a sorted sequence below it (``<``, or ``<=`` on
the right side): numpy's ``searchsorted``, but for NaN. What the CPU plugin does, by
tests/execution/test_search.py: Bucketize's ``with_right_bound`` puts a value equal to a bound
in that bound's bucket (``searchsorted`` on the left); SearchSorted searches each values row
in its row of the sorted sequence (a 1D sequence serves every value). A NaN value compares
false with everything, as C++'s ``lower_bound``/``upper_bound`` see it: bucket 0 with the right
bound, the last bucket without it; SearchSorted's index 0 on either side (numpy would put NaN
after everything).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from irshape.kernels import KernelCall, working_memory


def bucketize(call: KernelCall) -> np.ndarray:
    """Bucketize-3: the index of each value's bucket; with the right bound a bucket is
    ``(b[i-1], b[i]]``, without it ``[b[i-1], b[i])``."""
    data, buckets = call.inputs
    side: Literal["left", "right"] = "left" if call.attribute("with_right_bound") else "right"
    common = np.result_type(data.dtype, buckets.dtype)
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
    sorted_sequence, values = call.inputs
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
