"""The embedding family's kernels against OpenVINO's CPU plugin: EmbeddingBagOffsetsSum-3,
EmbeddingBagOffsets-15 (sum and mean), EmbeddingBagPackedSum-3, EmbeddingBagPacked-15 (sum and
mean), EmbeddingSegmentsSum-3; with and without default index (negative, zero, positive) and
per-sample weights, empty bags and segments, f32 and f16 tables of rank 1 to 3, i32 and i64
indices, batched into one model."""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino.opset3 as ov3
import openvino.opset15 as ov15
import pytest

from .harness import Case, parameter, run_batch


def _table(rng: np.random.Generator, rows: int, dtype: Any, feeds: dict[Any, np.ndarray]) -> Any:
    tail = [(), (3,), (2, 2)][int(rng.integers(0, 3))]
    node = parameter((rows, *tail), dtype)
    feeds[node] = (rng.standard_normal((rows, *tail)) * 4).astype(dtype)
    return node


def _fed(values: np.ndarray, feeds: dict[Any, np.ndarray]) -> Any:
    node = parameter(values.shape, values.dtype)
    feeds[node] = values
    return node


def _offsets_case(rng: np.random.Generator, index: int, version: int) -> Case:
    feeds: dict[Any, np.ndarray] = {}
    index_type = (np.int32, np.int64)[index % 2]
    dtype = np.float16 if index % 7 == 6 else np.float32
    rows, count, bags = 8, int(rng.integers(2, 9)), int(rng.integers(1, 5))
    table = _table(rng, rows, dtype, feeds)
    indices = rng.integers(0, rows, count).astype(index_type)
    # ascending offsets below the count; repeated ones leave empty bags
    offsets = np.sort(rng.integers(0, count, bags)).astype(index_type)
    if index % 3 == 0:
        offsets[0] = 0
    args = [table, _fed(indices, feeds), _fed(offsets, feeds)]
    inputs = 3 + index % 3
    if inputs >= 4:
        args.append(_fed(np.array((-1, 0, 5)[index % 3 if inputs == 4 else 2], index_type), feeds))
    reduction = "mean" if version == 15 and inputs < 5 and index % 2 else "sum"
    if inputs == 5:
        args.append(_fed(rng.standard_normal(count).astype(dtype), feeds))
    if version == 3:
        node = ov3.embedding_bag_offsets_sum(*args)
    else:
        node = ov15.embedding_bag_offsets(*args, reduction=reduction)
    return Case(f"offsets{version}_{index}_{reduction}_{inputs}", feeds, [node.output(0)])


def _packed_case(rng: np.random.Generator, index: int, version: int) -> Case:
    feeds: dict[Any, np.ndarray] = {}
    index_type = (np.int32, np.int64)[index % 2]
    dtype = np.float16 if index % 7 == 6 else np.float32
    rows, bags, per_bag = 7, int(rng.integers(1, 5)), int(rng.integers(1, 4))
    table = _table(rng, rows, dtype, feeds)
    args = [table, _fed(rng.integers(0, rows, (bags, per_bag)).astype(index_type), feeds)]
    weighted = index % 3 == 0
    if weighted:
        args.append(_fed(rng.standard_normal((bags, per_bag)).astype(dtype), feeds))
    reduction = "mean" if version == 15 and not weighted and index % 2 else "sum"
    if version == 3:
        node = ov3.embedding_bag_packed_sum(*args)
    else:
        node = ov15.embedding_bag_packed(*args, reduction=reduction)
    return Case(f"packed{version}_{index}_{reduction}", feeds, [node.output(0)])


def _segments_case(rng: np.random.Generator, index: int) -> Case:
    feeds: dict[Any, np.ndarray] = {}
    index_type = (np.int32, np.int64)[index % 2]
    dtype = np.float16 if index % 7 == 6 else np.float32
    rows, count, segments = 9, int(rng.integers(1, 8)), int(rng.integers(1, 6))
    table = _table(rng, rows, dtype, feeds)
    ids = np.sort(rng.integers(0, segments, count)).astype(index_type)  # some segments empty
    args = [
        table,
        _fed(rng.integers(0, rows, count).astype(index_type), feeds),
        _fed(ids, feeds),
        ov3.constant(np.array(segments, index_type)),
    ]
    inputs = 4 + index % 3
    if inputs >= 5:
        args.append(_fed(np.array((-1, 0, 3)[index % 3], index_type), feeds))
    if inputs == 6:
        args.append(_fed(rng.standard_normal(count).astype(dtype), feeds))
    node = ov3.embedding_segments_sum(*args)
    return Case(f"segments{index}_{inputs}", feeds, [node.output(0)])


def fuzz_found_cases() -> list[Case]:
    """What the kernel fuzzer (test_kernel_fuzz_signal.py) found, each with the plugin's answer."""
    cases = []
    i32 = np.int32
    # EmbeddingSegmentsSum of unsorted ids: segment s sums count(ids == s) indices from the first
    # id s on (u8: segment 0 is 1 + 5 + 3 + 3 = 12 there, 10 before; f32 with weights likewise)
    for name, table_values, weights in [
        ("u8", np.array([1, 3, 1, 5, 3, 1], np.uint8), None),
        (
            "f32_weighted",
            np.array([0.25, -1.5, 2.0, 0.5, 3.0, -0.75], np.float32),
            np.arange(6, dtype=np.float32),
        ),
    ]:
        feeds: dict[Any, np.ndarray] = {}
        inputs = [
            _fed(table_values, feeds),
            ov3.constant(np.array([2, 5, 3, 4, 4, 0], i32)),
            ov3.constant(np.array([2, 0, 0, 0, 1, 0], i32)),
            ov3.constant(np.array(3, i32)),
            ov3.constant(np.array(0, i32)),
        ]
        if weights is not None:
            inputs.append(_fed(weights, feeds))
        node = ov3.embedding_segments_sum(*inputs)
        cases.append(Case(f"fuzz_segments_unsorted_{name}", feeds, [node.output(0)]))
    # f64 tables summed in f32 (the plugin holds f64 as f32): bit for bit
    feeds = {}
    table = _fed(np.array([[0.1, 1 / 3], [0.7, 1e-8], [2.9, -0.3]]), feeds)
    node = ov3.embedding_bag_packed_sum(table, ov3.constant(np.array([[0, 1, 2], [2, 1, 1]], i32)))
    cases.append(Case("fuzz_packed_f64_in_f32", feeds, [node.output(0)], exact=True))
    # and their mean divided in f32 (it was divided in f64)
    feeds = {}
    table = _fed(np.array([[0.1, 1 / 3], [0.7, 1e-8], [2.9, -0.3]]), feeds)
    node = ov15.embedding_bag_packed(
        table, ov15.constant(np.array([[0, 1, 2], [2, 1, 1]], i32)), reduction="mean"
    )
    cases.append(Case("fuzz_packed_mean_f64_in_f32", feeds, [node.output(0)], exact=True))
    # ids outside [0, num_segments): the plugin never looks for them (irshape refused them)
    feeds = {}
    table = _fed(np.array([[1.5, 2.0], [-3.0, 0.25], [4.0, 8.0]], np.float32), feeds)
    node = ov3.embedding_segments_sum(
        table,
        ov3.constant(np.array([0, 2, 1, 1, 2], i32)),
        ov3.constant(np.array([0, 3, 1, 1, -1], i32)),
        ov3.constant(np.array(3, i32)),
    )
    cases.append(Case("fuzz_segments_ids_outside", feeds, [node.output(0)]))
    # integer tables sum in their own type: an i8 or u8 sum wraps (200 + 100 + 200 is 244 in u8),
    # and a mean divides the wrapped sum (i8 100 + 100 is -56, mean -28; 100 before)
    feeds = {}
    table = _fed(np.array([[200, 7], [100, 9]], np.uint8), feeds)
    node = ov3.embedding_bag_offsets_sum(
        table, ov3.constant(np.array([0, 1, 0], i32)), ov3.constant(np.array([0], i32))
    )
    cases.append(Case("fuzz_offsets_u8_wraps", feeds, [node.output(0)]))
    for dtype, rows in [
        (np.int8, [100, 100, -3]),
        (np.int32, [2**30, 2**30, -7]),
        (np.int64, [2**30, 2**30, -7]),
    ]:
        feeds = {}
        table = _fed(np.array(rows, dtype), feeds)
        indices = ov15.constant(np.array([[0, 1], [2, 1], [2, 2]], i32))
        node = ov15.embedding_bag_packed(table, indices, reduction="mean")
        cases.append(Case(f"fuzz_packed_mean_{np.dtype(dtype).name}_wraps", feeds, [node.output(0)]))
    # a table of no elements: the plugin does not execute the node (the offsets into no indices,
    # which it would refuse, are not checked); irshape refused it before
    feeds = {}
    table = _fed(np.zeros((3, 0), np.float32), feeds)
    node = ov15.embedding_bag_offsets(
        table, ov15.constant(np.zeros(0, i32)), ov15.constant(np.array([0, 0], i32)), reduction="mean"
    )
    cases.append(Case("fuzz_offsets_empty_table", feeds, [node.output(0)]))
    return cases


def _cases() -> list[Case]:
    rng = np.random.default_rng(15)
    cases = []
    for index in range(36):
        cases += [_offsets_case(rng, index, 3), _offsets_case(rng, index, 15)]
        cases += [_packed_case(rng, index, 3), _packed_case(rng, index, 15)]
        cases.append(_segments_case(rng, index))
    return cases + fuzz_found_cases()


CASES = _cases()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("embedding"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_embedding(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total
