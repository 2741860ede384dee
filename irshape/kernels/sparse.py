"""The kernel of SparseFillEmptyRows-16 (irshape/shapes/sparse.py), OpenVINO's reference
(``sparse_fill_empty_rows.hpp``): every empty row of the dense shape gets one entry
``[row, 0]`` with the default value; the entries, old and new, are sorted by row, then column.
The row indicator is true for the rows that were empty. Confirmed against the CPU plugin by
``tests/execution/test_sparse.py``, except for a tensor without entries: there the plugin (2026.4.1)
writes ``[0, 0]`` for every index and leaves the values uninitialised, a plugin bug irshape does
not copy (it gives the reference's ``[row, 0]`` and default values).
"""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall, KernelError


def sparse_fill_empty_rows(call: KernelCall) -> list[np.ndarray]:
    """SparseFillEmptyRows-16."""
    values, dense, indices, default = call.inputs
    rows, columns = int(dense[0]), int(dense[1])
    pairs = indices.astype(np.int64).reshape(-1, 2)
    if pairs.size and (pairs.min() < 0 or pairs[:, 0].max() >= rows or pairs[:, 1].max() >= columns):
        raise KernelError(f"an index is outside the dense shape [{rows}, {columns}]")
    empty = np.ones(rows, dtype=bool)
    empty[pairs[:, 0]] = False
    new_rows = np.flatnonzero(empty)
    all_pairs = np.concatenate([pairs, np.stack([new_rows, np.zeros_like(new_rows)], axis=1)])
    all_values = np.concatenate(
        [values.reshape(-1), np.full(new_rows.size, default.reshape(()), dtype=values.dtype)]
    )
    order = np.lexsort((all_pairs[:, 1], all_pairs[:, 0]))
    return [all_pairs[order].astype(indices.dtype), all_values[order], empty]
