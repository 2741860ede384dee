"""Kernels of the uniqueness family (irshape/shapes/uniqueness.py): Unique-10.

numpy's ``unique`` gives the sorted answer; the unsorted one is the same elements in the order
of their first occurrence. What the CPU plugin does, by tests/execution/test_uniqueness.py: with
an axis, slices are sorted lexicographically (the first element of the slice first), as numpy's
``unique(axis=)`` does. With an axis the plugin's first indices and counts are wrong
(uninitialised memory, or the indices of other slices), and so at times are the reference's
(folding a Const: a slice repeated apart counted once, at a wrong index): irshape gives the
spec's, checked against the plugin on the unique slices and reverse indices, and by hand on the
others. The plugin compares by ``==`` (``nodes/unique.cpp``): unsorted and along an axis every
NaN, every slice holding one, is unique (``[[nan, 1, nan], [2, 1, 2]]`` flattened has the unique
elements ``[nan, 1, nan, 2]``, and along axis 1 all three columns are unique), and sorted along
an axis its ``std::stable_sort`` of each column by ``<`` orders them as libstdc++'s algorithm
leaves them (followed step for step). Sorted and flattened its ``std::sort`` with a NaN leaves
repeats apart (``[nan, 1, nan, 1, 2]`` there) and the NaNs' first and reverse indices unwritten:
not modelled (irshape sorts NaN last, as one element; the kernel fuzzer draws no NaN there).
The executor checks Unique of data against the intervals OpenVINO infers, not the reference's
count (irshape/execute/network.py, ``_READ_BY_THE_NODE``); of a Const the plugin runs the node
with the shapes read_model counted, and fails where its count differs (a sorted Unique of NaNs:
'Can not clone with new dims'), as irshape does. Along an axis after dims other than 1
the plugin's unique slices are wrong too: it compares a slice with each unique one block by
block without going back to the slice's first block (``slicedTensorExec``), so a repeated slice
can count as new (``[2, 2, 4]`` along -1 with columns 2 and 3 equal: 4 unique slices there,
found by the kernel fuzzer), and its reads can pass the data's end; irshape gives the spec's.
u64 and u32 data reach the plugin's node as i32 and are sorted signed (found by the kernel
fuzzer: 2^64 - 1 first); its other types than i32, i8 and u8 are sorted in f32, which orders them as
their own.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from irshape.kernels import KernelCall, working_memory
from irshape.shapes.uniqueness import stable_sort


def _unique_bytes(call: KernelCall) -> int:
    """np.unique's sorted copy, its order and its masks, and four outputs of up to the data's
    size: about 48 bytes an element besides the data."""
    data = call.inputs[0]
    return 48 * data.size + 3 * data.nbytes


@working_memory(_unique_bytes)
def unique(call: KernelCall) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Unique-10: the unique elements (or slices along ``axis``), the index of each one's first
    occurrence, each element's (slice's) index among the unique ones, and their counts."""
    data = call.inputs[0]
    if call.input_types[0] in ("i64", "u64", "u32"):
        # held as i32 by the plugin, so sorted signed: a u64 2^64 - 1 is -1, before 0
        data = data.astype(np.int32)
    axis = None
    if len(call.inputs) > 1:
        axis = int(call.inputs[1].reshape(-1)[0])
        axis = axis + data.ndim if axis < 0 else axis
    source = data if axis is not None else data.reshape(-1)
    along = axis or 0
    is_sorted = bool(call.attribute("sorted"))
    keys = _nan_apart(source, along) if axis is not None or not is_sorted else None
    uniques, first, inverse, counts = np.unique(
        source if keys is None else keys,
        return_index=True,
        return_inverse=True,
        return_counts=True,
        axis=axis if keys is None else 0,
    )
    inverse = inverse.reshape(-1)
    if keys is not None:  # a key stands for an item: the items back, in order of first occurrence
        order = np.argsort(first, kind="stable")
        if is_sorted:  # the plugin's sort of those, column by column
            order = order[_columns_sorted(np.take(source, first[order], axis=along), along)]
    elif not is_sorted:
        order = np.argsort(first, kind="stable")  # by first occurrence
    else:
        order = np.arange(first.size)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    if keys is not None:
        uniques = np.take(source, first[order], axis=along)
    else:
        uniques = np.take(uniques, order, axis=along)
    first, inverse, counts = first[order], rank[inverse], counts[order]
    index_dtype, count_dtype = call.output_dtype(1), call.output_dtype(3)
    return (
        uniques.astype(call.output_dtype(0), copy=False),
        first.astype(index_dtype),
        inverse.astype(index_dtype),
        counts.astype(count_dtype),
    )


def _nan_apart(source: np.ndarray, axis: int) -> np.ndarray | None:
    """Keys that tell every item (element, or slice along ``axis``) holding a NaN apart, as the
    plugin's ``==`` does (an ``unordered_map`` of the elements unsorted, ``std::equal`` of the
    slices), or None where there is no NaN (numpy's ``unique`` then does it all). A key is a
    row: the item's elements with NaN as 0, then its own index where it holds a NaN, else -1."""
    if source.dtype.kind != "f":
        return None
    items = np.moveaxis(source, axis, 0).reshape(source.shape[axis], -1).astype(np.float64)
    holds_nan = np.isnan(items).any(axis=1)
    if not holds_nan.any():
        return None
    tags = np.where(holds_nan, np.arange(holds_nan.size), -1)
    return np.column_stack([np.nan_to_num(items, nan=0.0), tags])


def _columns_sorted(uniques: np.ndarray, axis: int) -> np.ndarray:
    """The order the plugin gives the unique slices (in order of first occurrence) along an
    axis holding NaNs: ``std::stable_sort`` by ``<`` of each column from the last to the first
    (``slicedTensorExec``), where a NaN's every comparison is false, so libstdc++'s algorithm
    itself decides (irshape.shapes.uniqueness.stable_sort, step for step)."""
    columns = np.moveaxis(uniques, axis, 0).reshape(uniques.shape[axis], -1).T.tolist()
    order = list(range(uniques.shape[axis]))
    for column in reversed(columns):
        order = stable_sort(order, _below_in(column))
    return np.array(order, dtype=np.intp)


def _below_in(column: list[float]) -> Callable[[int, int], bool]:
    """The plugin's comparison of two unique slices by one column: ``<`` of their elements."""
    return lambda i, j: bool(column[i] < column[j])
