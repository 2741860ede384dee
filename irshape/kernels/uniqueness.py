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
leaves them (followed step for step). Sorted and flattened its ``std::sort`` (introsort) with a
NaN leaves repeats apart (``[nan, 1, nan, 1, 2]`` there), and its first indices, reverse indices
and counts, by ``==`` too, skip or leave unwritten a NaN's (0 on a first run): followed step
for step, exactly on 400 random draws of up to 300 elements (where its unguarded scans would
read past the data, or its heap sort would take over, the kernel refuses: not met there).
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

from irshape.kernels import KernelCall, KernelError, working_memory
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
    is_sorted = bool(call.attribute("sorted"))
    if axis is None and is_sorted and source.dtype.kind == "f" and np.isnan(source).any():
        uniques, first, inverse, counts = _sorted_around_nan(source)
    else:
        uniques, first, inverse, counts = _found(source, axis, is_sorted)
    index_dtype, count_dtype = call.output_dtype(1), call.output_dtype(3)
    return (
        uniques.astype(call.output_dtype(0), copy=False),
        first.astype(index_dtype),
        inverse.astype(index_dtype),
        counts.astype(count_dtype),
    )


def _found(
    source: np.ndarray, axis: int | None, is_sorted: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The unique items, their first indices, the reverse indices and the counts, by numpy's
    ``unique`` (keys telling NaNs apart where there are any)."""
    along = axis or 0
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
    return uniques, first, inverse, counts


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


def _sorted_around_nan(source: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sorted and flattened data holding a NaN as the plugin's ``flattenTensorExec`` gives it:
    ``std::sort`` by ``<`` (libstdc++'s introsort, step for step), ``std::unique`` by ``==``
    (a NaN is never a repeat, and repeats the NaNs leave apart stay), then each unique element's
    first index, each element's index among them and their counts, all by ``==``: a NaN is
    found nowhere, so its first index is skipped (those after it move up; the last ones are left
    unwritten, 0 on a first run), its reverse index unwritten (0) and its count 0."""
    ordered = np.array(_introsorted(source.tolist()), dtype=source.dtype)
    kept = np.ones(ordered.size, dtype=bool)
    kept[1:] = ordered[1:] != ordered[:-1]
    uniques = ordered[kept]
    # each value (not NaN) of the data: where it first is, how often, and where it first is
    # among the unique ones (which may hold it more than once)
    numbers = ~np.isnan(source)
    values, at, counted = np.unique(source[numbers], return_index=True, return_counts=True)
    at = np.flatnonzero(numbers)[at]
    found = ~np.isnan(uniques)
    value_of = np.searchsorted(values, uniques[found])  # each unique one's value
    first = np.zeros(uniques.size, dtype=np.int64)
    first[: int(found.sum())] = at[value_of]
    counts = np.zeros(uniques.size, dtype=np.int64)
    counts[found] = counted[value_of]
    first_among = np.zeros(values.size, dtype=np.int64)
    held, held_first = np.unique(value_of, return_index=True)
    first_among[held] = np.flatnonzero(found)[held_first]
    inverse = np.zeros(source.size, dtype=np.int64)
    inverse[numbers] = first_among[np.searchsorted(values, source[numbers])]
    return uniques, first, inverse, counts


def _introsorted(items: list[float]) -> list[float]:
    """libstdc++'s ``std::sort`` by ``<``: introsort down to runs of 16 (the pivot the median of
    the second, middle and last elements moved to the first, an unguarded partition), then an
    insertion sort, guarded over the first 16 and unguarded after. With NaNs, whose every
    comparison is false, its order is only its own. A heap sort past its depth limit, or a scan
    that would leave the range (the plugin reads past it there), is not modelled: refused."""
    items = list(items)
    _introsort_loop(items, 0, len(items), 2 * (len(items).bit_length() - 1) if items else 0)
    if len(items) > _THRESHOLD:
        _insert(items, 0, _THRESHOLD, guarded=True)
        _insert(items, _THRESHOLD, len(items), guarded=False)
    else:
        _insert(items, 0, len(items), guarded=True)
    return items


_THRESHOLD = 16
_PAST_THE_DATA = "a sorted Unique of NaNs whose std::sort reads past the data is not modelled"


def _introsort_loop(items: list[float], first: int, last: int, depth: int) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            raise KernelError(
                "a sorted Unique of NaNs past std::sort's depth limit (its heap sort) is not modelled"
            )
        depth -= 1
        cut = _partition_pivot(items, first, last)
        _introsort_loop(items, cut, last, depth)
        last = cut


def _partition_pivot(items: list[float], first: int, last: int) -> int:
    mid = first + (last - first) // 2
    a, b, c = first + 1, mid, last - 1
    x, y, z = items[a], items[b], items[c]
    if x < y:
        median = b if y < z else (c if x < z else a)
    elif x < z:
        median = a
    else:
        median = c if y < z else b
    items[first], items[median] = items[median], items[first]
    pivot = items[first]
    low, high = first + 1, last
    while True:  # unguarded: the scans may pass the range (into the data around it), not the data
        while items[low] < pivot:
            low += 1
            if low == len(items):
                raise KernelError(_PAST_THE_DATA)
        high -= 1
        while pivot < items[high]:
            high -= 1
            if high < 0:
                raise KernelError(_PAST_THE_DATA)
        if not low < high:
            return low
        items[low], items[high] = items[high], items[low]
        low += 1


def _insert(items: list[float], start: int, stop: int, *, guarded: bool) -> None:
    """``__insertion_sort`` (guarded: an element below the first goes first) or
    ``__unguarded_insertion_sort`` over ``items[start:stop]``: each element moves down while
    below its left neighbour."""
    for i in range(start + 1 if guarded else start, stop):
        value = items[i]
        if guarded and value < items[start]:
            items[start + 1 : i + 1] = items[start:i]
            items[start] = value
            continue
        at = i
        while value < items[at - 1]:
            at -= 1
            if at == 0 and not guarded:
                raise KernelError(_PAST_THE_DATA)
        items[at + 1 : i + 1] = items[at:i]
        items[at] = value
