"""SegmentMax-16's kernel against OpenVINO's CPU plugin: sorted segment ids with gaps (empty
segments), num_segments absent, equal to, past and below the ids' range, both fill modes, f32,
f16 and i32 data with negative values, batched into one model."""

from __future__ import annotations

import numpy as np
import openvino.opset16 as ov16
import pytest

from .harness import BF16_AS_F32_OFF_AVX512, Case, parameter, run_batch


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


def fuzz_found_cases() -> list[Case]:
    """What the kernel fuzzer (test_kernel_fuzz_signal.py) found: the lowest value of the type
    the plugin computes in (i32 for i64, u64, u32, i16, u16; f32 for f16 and f64; bf16's own),
    u32 and u64 compared as signed i32, and NaN never the maximum (std::max from the lowest)."""
    cases = []
    ids = ov16.constant(np.array([0, 0, 2, 3], np.int32))
    count = ov16.constant(np.array(5, np.int32))
    integers = np.array([[7, 2**31 + 5], [-4, 3], [9, 2**32 - 1], [1, 0]])
    for dtype in (np.int64, np.uint64, np.uint32, np.int16, np.uint16, np.int8, np.uint8):
        x = parameter((4, 2), dtype)
        with np.errstate(over="ignore"):
            data = integers.astype(dtype)
        outputs = [ov16.segment_max(x, ids, count, fill_mode=mode).output(0) for mode in ("LOWEST", "ZERO")]
        cases.append(Case(f"fuzz_{np.dtype(dtype).name}_lowest", {x: data}, outputs))
    reals = np.array([[1.5, np.nan], [np.nan, -np.inf], [np.nan, -np.inf], [-2.0, 0.25]])
    for dtype in (np.float16, np.float64, np.float32):
        x = parameter((4, 2), dtype)
        outputs = [ov16.segment_max(x, ids, count, fill_mode=mode).output(0) for mode in ("LOWEST", "ZERO")]
        cases.append(Case(f"fuzz_{np.dtype(dtype).name}_nan_lowest", {x: reals.astype(dtype)}, outputs))
    x = parameter((4, 2), np.float32)
    outputs = [
        ov16.convert(ov16.segment_max(ov16.convert(x, "bf16"), ids, count, fill_mode="LOWEST"), "f32").output(
            0
        )
    ]
    cases.append(
        Case("fuzz_bf16_lowest", {x: reals.astype(np.float32)}, outputs, exact=BF16_AS_F32_OFF_AVX512)
    )
    return cases


RNG = np.random.default_rng(16)
CASES = [_case(RNG, i) for i in range(48)] + fuzz_found_cases()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("segments"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_segment_max(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total
