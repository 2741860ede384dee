"""Kernels of the uniqueness family (irshape/shapes/uniqueness.py): Unique-10.

numpy's ``unique`` gives the sorted answer (NaNs as one element, as OpenVINO counts them); the
unsorted one is the same elements in the order of their first occurrence. What the CPU plugin
does, by tests/execution/test_uniqueness.py: with an axis, slices are sorted
lexicographically (the first element of the slice first), as numpy's ``unique(axis=)`` does.
With an axis the plugin's first indices and counts are wrong (uninitialised memory, or the
indices of other slices), and so at times are the reference's (folding a Const: a slice
repeated apart counted once, at a wrong index): irshape gives the spec's, checked against the
plugin on the unique slices and reverse indices, and by hand on the others. A NaN breaks the
plugin's sort (elements after it out of order): irshape sorts NaN last, as one element.
Unsorted or along an axis the plugin's NaN equals nothing (``[[nan, 1, nan], [2, 1, 2]]``
flattened has the unique elements ``[nan, 1, nan, 2]``, and along axis 1 all three columns are
unique), where irshape counts NaNs as one, as OpenVINO's folding of a Const does and as the
shape inference the executor checks the kernel against (irshape/shapes/uniqueness.py): not
modelled (the kernel fuzzer draws no NaN for Unique). Along an axis after dims other than 1
the plugin's unique slices are wrong too: it compares a slice with each unique one block by
block without going back to the slice's first block (``slicedTensorExec``), so a repeated slice
can count as new (``[2, 2, 4]`` along -1 with columns 2 and 3 equal: 4 unique slices there,
found by the kernel fuzzer), and its reads can pass the data's end; irshape gives the spec's. u64 and
u32 data reach the plugin's node as i32 and are sorted signed (found by the kernel fuzzer:
2^64 - 1 first); its other types than i32, i8 and u8 are sorted in f32, which orders them as
their own.
"""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall, working_memory


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
    uniques, first, inverse, counts = np.unique(
        source, return_index=True, return_inverse=True, return_counts=True, axis=axis
    )
    inverse = inverse.reshape(-1)
    if not call.attribute("sorted"):
        order = np.argsort(first, kind="stable")  # by first occurrence
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        uniques = np.take(uniques, order, axis=axis or 0)
        first, inverse, counts = first[order], rank[inverse], counts[order]
    index_dtype, count_dtype = call.output_dtype(1), call.output_dtype(3)
    return (
        uniques.astype(call.output_dtype(0), copy=False),
        first.astype(index_dtype),
        inverse.astype(index_dtype),
        counts.astype(count_dtype),
    )
