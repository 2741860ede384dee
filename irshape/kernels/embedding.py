"""Kernels of the embedding family (irshape/shapes/embedding.py): EmbeddingBagOffsetsSum-3,
EmbeddingBagOffsets-15, EmbeddingBagPackedSum-3, EmbeddingBagPacked-15, EmbeddingSegmentsSum-3.

OpenVINO's reference semantics (``embedding_bag_offsets.hpp``, ``embedding_bag_packed.hpp``,
``embedding_segments_sum.hpp``): each bag (the indices from ``offsets[i]`` to the next offset,
a row of the packed indices, or the indices whose ``segment_ids`` name the segment) is the sum
of its table rows, each times its per-sample weight when there are weights; ``mean`` divides by
the bag's size. An empty bag or segment is the table's ``default_index`` row where that index
is given and not negative (unweighted), zeros otherwise. Indices outside the table are refused.

What the CPU plugin computes (openvino 2026.4.1, ``INFERENCE_PRECISION_HINT=f32``), by
``tests/execution/test_embedding.py``: f16 tables are summed in f32 and rounded once. Found by
the kernel fuzzer (``tests/execution/test_kernel_fuzz_signal.py``), read in the plugin's nodes:

* integer tables are summed in their own type (``embedding_bag.cpp``: ``dst += src * weight``
  stored in T), so an i8 or u8 sum wraps, and i64 tables (held as i32) wrap in 32 bits; a
  ``mean`` divides the wrapped sum, truncating toward zero;
* EmbeddingSegmentsSum's segment ``s`` sums the ``count(segment_ids == s)`` indices (and
  weights) that start at the first id equal to ``s`` (``embedding_segments_sum.cpp``, which
  takes the ids as sorted, as the spec asks): unsorted ids sum other indices than the op's, and
  an id outside ``[0, num_segments)`` is never looked for;
* a table with no elements leaves the node unexecuted (``isExecutable``): nothing is checked, and
  the output is empty.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from irshape.kernels import KernelCall, KernelError
from irshape.kernels.stored import as_output


def _compute(table: np.ndarray) -> np.dtype[Any]:
    """The sums' type: f32 for real tables (f64 too, held as f32 by the plugin: summed in f64
    a third of the fuzzer's f64 sums differed in the last bits), int64 for integer ones
    (wrapped to the table's width afterwards, :func:`_stored`)."""
    return np.dtype(np.int64) if table.dtype.kind in "iu" else np.dtype(np.float32)


def _stored(call: KernelCall, values: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Sums as the plugin stores them: an integer table's wrapped to its type (i32 for the types
    held as i32: i64, u64, u32)."""
    if table.dtype.kind in "iu":
        width = np.int32 if table.dtype.itemsize >= 4 else table.dtype
        values = values.astype(width)
    return as_output(call, values)


def _mean(out: np.ndarray, counts: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Each bag's sum divided by its size (empty bags kept): an integer table's wrapped sum
    divided with truncation toward zero, as C++'s integer ``/=``."""
    divisor = np.maximum(counts, 1).reshape((-1,) + (1,) * (out.ndim - 1))
    if table.dtype.kind in "iu":
        width = np.int32 if table.dtype.itemsize >= 4 else table.dtype
        wrapped = out.astype(width).astype(np.int64)
        quotient: np.ndarray = np.sign(wrapped) * (np.abs(wrapped) // divisor)
        return quotient
    result: np.ndarray = out / divisor.astype(out.dtype)  # in f32, as the plugin's /=
    return result


def _unexecuted(call: KernelCall, table: np.ndarray) -> np.ndarray | None:
    """An empty table: the plugin does not execute the node (its output is empty too)."""
    if table.size:
        return None
    return np.zeros(call.output_shape(), dtype=call.output_dtype())


def _rows(table: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """The table rows the indices name, in the compute type (an index outside is refused)."""
    flat = indices.astype(np.int64).reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= table.shape[0]):
        raise KernelError(f"an index is outside the embedding table's {table.shape[0]} rows")
    rows: np.ndarray = table.astype(_compute(table), copy=False)[flat]
    return rows.reshape((*indices.shape, *table.shape[1:]))


def _weighted(rows: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    if weights is None:
        return rows
    scale = weights.astype(rows.dtype).reshape(weights.shape + (1,) * (rows.ndim - weights.ndim))
    result: np.ndarray = rows * scale
    return result


def _fill_empty(
    out: np.ndarray, counts: np.ndarray, table: np.ndarray, default_index: np.ndarray | None
) -> np.ndarray:
    """Empty bags take the default index's row where it is given and not negative."""
    if default_index is None:
        return out
    index = int(default_index.reshape(-1)[0])
    if index < 0:
        return out
    row = _rows(table, np.array([index]))[0]
    out[counts == 0] = row
    return out


def _sum_into(bags: int, bag_of: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per bag, the sum of ``values`` whose ``bag_of`` names it, and how many there are."""
    out = np.zeros((bags, *values.shape[1:]), dtype=values.dtype)
    np.add.at(out, bag_of, values)
    return out, np.bincount(bag_of, minlength=bags)[:bags]


def _reduction(call: KernelCall) -> str:
    return str(call.attributes.values.get("reduction", "sum")).lower()


def embedding_bag_offsets(call: KernelCall) -> np.ndarray:
    """EmbeddingBagOffsetsSum-3 and EmbeddingBagOffsets-15."""
    table, indices, offsets = call.inputs[:3]
    unexecuted = _unexecuted(call, table)
    if unexecuted is not None:
        return unexecuted
    default_index = call.inputs[3] if len(call.inputs) > 3 else None
    weights = call.inputs[4] if len(call.inputs) > 4 else None
    starts = offsets.astype(np.int64)
    count = indices.size
    if starts.size and (starts.min() < 0 or starts.max() >= count or np.any(np.diff(starts) < 0)):
        raise KernelError(f"offsets {starts.tolist()} are not ascending offsets into {count} indices")
    # each index's bag: the last offset at or before it (indices before offsets[0] are in none)
    bag_of = np.searchsorted(starts, np.arange(count), side="right") - 1
    kept = bag_of >= 0
    values = _weighted(_rows(table, indices), weights)[kept]
    out, counts = _sum_into(starts.size, bag_of[kept], values)
    if _reduction(call) == "mean":
        out = _mean(out, counts, table)
    return _stored(call, _fill_empty(out, counts, table, default_index), table)


def embedding_bag_packed(call: KernelCall) -> np.ndarray:
    """EmbeddingBagPackedSum-3 and EmbeddingBagPacked-15: each row of indices one bag."""
    table, indices = call.inputs[:2]
    unexecuted = _unexecuted(call, table)
    if unexecuted is not None:
        return unexecuted
    weights = call.inputs[2] if len(call.inputs) > 2 else None
    out = _weighted(_rows(table, indices), weights).sum(axis=1)
    if _reduction(call) == "mean" and indices.shape[1]:
        out = _mean(out, np.full(indices.shape[0], indices.shape[1]), table)
    return _stored(call, out, table)


def embedding_segments_sum(call: KernelCall) -> np.ndarray:
    """EmbeddingSegmentsSum-3: segment ``s`` sums as many indices as ids equal ``s``, from the
    first such id on (the plugin's reading, which is the op's for sorted ids)."""
    table, indices, segment_ids, num_segments = call.inputs[:4]
    unexecuted = _unexecuted(call, table)
    if unexecuted is not None:
        return unexecuted
    default_index = call.inputs[4] if len(call.inputs) > 4 else None
    weights = call.inputs[5] if len(call.inputs) > 5 else None
    segments = int(num_segments.reshape(-1)[0])
    ids = segment_ids.astype(np.int64).reshape(-1)
    # the plugin looks for each segment's ids: one outside [0, num_segments) is never read
    named = (ids >= 0) & (ids < segments)
    counts = np.bincount(ids[named], minlength=segments)[:segments]
    first = np.full(segments, ids.size)
    np.minimum.at(first, ids[named], np.flatnonzero(named))
    # the positions each segment reads: first[s], first[s] + 1, ... counts[s] of them
    segment_of = np.repeat(np.arange(segments), counts)
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    positions = np.repeat(first, counts) + offsets
    values = _weighted(_rows(table, indices), weights)[positions]
    out, _ = _sum_into(segments, segment_of, values)
    return _stored(call, _fill_empty(out, counts, table, default_index), table)
