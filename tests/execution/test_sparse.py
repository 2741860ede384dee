"""SparseFillEmptyRows-16's kernel against OpenVINO's CPU plugin: sparse tensors with unsorted
entries, several entries in a row, every row but one empty or none, f32 and i32
values, i32 and i64 indices (dense shape as a Const, so the outputs' lengths are known; indices
fed as data), batched into one model."""

from __future__ import annotations

import numpy as np
import openvino.opset16 as ov16
import pytest

from .harness import Case, parameter, run_batch


def _case(rng: np.random.Generator, index: int) -> Case:
    rows, columns = int(rng.integers(1, 7)), int(rng.integers(1, 5))
    # at least one entry: with none the plugin writes [0, 0] indices and uninitialised values (a
    # plugin bug, by experiment), which nothing can equal
    cells = rng.permutation(rows * columns)[: int(rng.integers(1, min(rows * columns, 8) + 1))]
    pairs = np.stack([cells // columns, cells % columns], axis=1)  # unique, unsorted
    index_type = (np.int32, np.int64)[index % 2]
    value_type = (np.float32, np.int32)[(index // 2) % 2]
    count = len(pairs)
    values = parameter((count,), value_type)
    indices = ov16.constant(pairs.astype(index_type).reshape(count, 2))
    default = parameter((), value_type)
    dense = ov16.constant(np.array([rows, columns], index_type))
    feeds = {
        values: (rng.standard_normal(count) * 10).astype(value_type),
        default: np.array(-7, value_type),
    }
    node = ov16.sparse_fill_empty_rows(values, dense, indices, default)
    return Case(f"sparse{index}", feeds, list(node.outputs()))


RNG = np.random.default_rng(17)
CASES = [_case(RNG, i) for i in range(40)]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("sparse"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_sparse_fill_empty_rows(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total
