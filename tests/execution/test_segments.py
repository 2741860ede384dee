"""SegmentMax-16's kernel against OpenVINO's CPU plugin: sorted segment ids with gaps (empty
segments), num_segments absent, equal to, past and below the ids' range, both fill modes, f32,
f16 and i32 data with negative values, batched into one model."""

from __future__ import annotations

import numpy as np
import openvino.opset16 as ov16
import pytest

from .harness import Case, parameter, run_batch


def _case(rng: np.random.Generator, index: int) -> Case:
    rows = int(rng.integers(1, 7))
    tail = [(), (3,), (2, 2)][index % 3]
    dtype = (np.float32, np.float16, np.int32, np.float32)[index % 4]
    ids_type = (np.int32, np.int64)[index % 2]
    ids = np.sort(rng.integers(0, 5, rows)).astype(ids_type)
    data = (rng.standard_normal((rows, *tail)) * 10 - 3).astype(dtype)
    nodes = [parameter((rows, *tail), dtype), parameter((rows,), ids_type)]
    feeds = {nodes[0]: data, nodes[1]: ids}
    style = index % 4
    if style:
        # the count is a Const (the output's shape must not hang on data the plugin reads late)
        count = (int(ids.max()) + 1, int(ids.max()) + 3, max(int(ids.max()), 1))[style - 1]
        nodes.append(ov16.constant(np.array(count, ids_type)))
    mode = ("ZERO", "LOWEST")[(index // 2) % 2]
    node = ov16.segment_max(*nodes, fill_mode=mode)
    return Case(f"segment_max{index}_{mode.lower()}", feeds, [node.output(0)])


RNG = np.random.default_rng(16)
CASES = [_case(RNG, i) for i in range(48)]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("segments"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_segment_max(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total
