"""Kernels of the embedding family (irshape/shapes/embedding.py): EmbeddingBagOffsetsSum-3,
EmbeddingBagOffsets-15, EmbeddingBagPackedSum-3, EmbeddingBagPacked-15, EmbeddingSegmentsSum-3.

OpenVINO's reference semantics (``embedding_bag_offsets.hpp``, ``embedding_bag_packed.hpp``,
``embedding_segments_sum.hpp``): each bag (the indices from ``offsets[i]`` to the next offset,
a row of the packed indices, or the indices whose ``segment_ids`` name the segment) is the sum
of its table rows, each times its per-sample weight when there are weights; ``mean`` divides by
the bag's size. An empty bag or segment is the table's ``default_index`` row where that index
is given and not negative (unweighted), zeros otherwise. Indices outside the table are refused.

What the CPU plugin computes (openvino 2026.4.1, ``INFERENCE_PRECISION_HINT=f32``), by
``tests/execution/test_embedding.py``: f16 tables are summed in f32 and rounded once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from irshape.kernels import KernelCall, KernelError
from irshape.kernels.stored import as_output


def _compute(table: np.ndarray) -> np.dtype[Any]:
    return np.dtype(np.float64) if table.dtype == np.float64 else np.dtype(np.float32)


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


def _mean(out: np.ndarray, counts: np.ndarray) -> np.ndarray:
    divisor = np.maximum(counts, 1).reshape((-1,) + (1,) * (out.ndim - 1))
    result: np.ndarray = out / divisor
    return result


def _reduction(call: KernelCall) -> str:
    return str(call.attributes.values.get("reduction", "sum")).lower()


def embedding_bag_offsets(call: KernelCall) -> np.ndarray:
    """EmbeddingBagOffsetsSum-3 and EmbeddingBagOffsets-15."""
    table, indices, offsets = call.inputs[:3]
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
        out = _mean(out, counts)
    return as_output(call, _fill_empty(out, counts, table, default_index))


def embedding_bag_packed(call: KernelCall) -> np.ndarray:
    """EmbeddingBagPackedSum-3 and EmbeddingBagPacked-15: each row of indices one bag."""
    table, indices = call.inputs[:2]
    weights = call.inputs[2] if len(call.inputs) > 2 else None
    out = _weighted(_rows(table, indices), weights).sum(axis=1)
    if _reduction(call) == "mean" and indices.shape[1]:
        out = out / indices.shape[1]
    return as_output(call, out)


def embedding_segments_sum(call: KernelCall) -> np.ndarray:
    """EmbeddingSegmentsSum-3: segment ``s`` sums the rows whose segment_ids are ``s``."""
    table, indices, segment_ids, num_segments = call.inputs[:4]
    default_index = call.inputs[4] if len(call.inputs) > 4 else None
    weights = call.inputs[5] if len(call.inputs) > 5 else None
    segments = int(num_segments.reshape(-1)[0])
    ids = segment_ids.astype(np.int64).reshape(-1)
    if ids.size and (ids.min() < 0 or ids.max() >= segments):
        raise KernelError(f"a segment id is outside [0, {segments})")
    values = _weighted(_rows(table, indices), weights)
    out, counts = _sum_into(segments, ids, values)
    return as_output(call, _fill_empty(out, counts, table, default_index))
