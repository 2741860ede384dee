"""The search family's kernels against OpenVINO's CPU plugin: Bucketize-3 and SearchSorted-15
over seeded configurations (element types, both sides, values equal to bounds, values below
and above every bound, repeated bounds, infinities)."""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino.opset3 as ov3
import openvino.opset15 as ov15
import pytest

from .harness import Case, parameter
from .kernel_data import Batches, data_of, shape_of

TYPES: list[Any] = [np.float32, np.int32, np.int64, np.float16, np.uint8, np.int8]


def sorted_values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Sorted along the last axis, with repeats (no NaN: a sequence with NaN is not sorted)."""
    values = data_of(rng, shape, dtype)
    if values.dtype.kind == "f":
        values = np.nan_to_num(values, nan=0.0, posinf=np.inf, neginf=-np.inf)
    if values.size and shape[-1] > 2:
        values[..., 1] = values[..., 0]  # a repeated bound
    return np.sort(values, axis=-1)


def probes(rng: np.random.Generator, shape: tuple[int, ...], bounds: np.ndarray, dtype: Any) -> np.ndarray:
    """Values: random ones, and many equal to a bound (where the side matters)."""
    values = data_of(rng, shape, dtype)
    flat_bounds = bounds.reshape(-1)
    if flat_bounds.size and values.size:
        equal = rng.random(shape) < 0.4
        values[equal] = rng.choice(flat_bounds, int(equal.sum()))
    return values


def bucketize_cases() -> list[Case]:
    rng = np.random.default_rng(20)
    cases = []
    for i in range(40):
        data_type, bucket_type = TYPES[i % len(TYPES)], TYPES[(i // 2) % len(TYPES)]
        if i % 3 == 0:
            bucket_type = data_type
        shape = shape_of(rng, int(rng.integers(0, 4)))
        bounds = sorted_values(rng, (int(rng.integers(1, 7)),), bucket_type)
        x, b = parameter(shape, data_type), parameter(bounds.shape, bucket_type)
        node = ov3.bucketize(x, b, "i32" if i % 2 else "i64", bool(i % 4 < 2))
        with np.errstate(invalid="ignore"):  # infinite bounds made integers: any value
            equal_bounds = bounds.astype(data_type)
        feed = {x: probes(rng, shape, equal_bounds, data_type), b: bounds}
        cases.append(Case(f"bucketize{i}", feed, [node.output(0)]))
    return cases


def search_sorted_cases() -> list[Case]:
    rng = np.random.default_rng(21)
    cases = []
    for i in range(40):
        dtype = TYPES[i % len(TYPES)]
        rank = int(rng.integers(1, 4))
        sorted_shape = shape_of(rng, rank, hi=6)
        if i % 4 == 0:  # a 1D sequence for values of any shape
            sorted_shape = sorted_shape[-1:]
            values_shape = shape_of(rng, int(rng.integers(0, 3)))
        else:
            values_shape = (*sorted_shape[:-1], int(rng.integers(1, 6)))
        sequence = sorted_values(rng, sorted_shape, dtype)
        s, v = parameter(sorted_shape, dtype), parameter(values_shape, dtype)
        node = ov15.search_sorted(s, v, bool(i % 2))
        feed = {s: sequence, v: probes(rng, values_shape, sequence, dtype)}
        cases.append(Case(f"search_sorted{i}", feed, [node.output(0)]))
    return cases


def fuzz_found_cases() -> list[Case]:
    """What the kernel fuzzer (test_kernel_fuzz_signal.py) found: the types the plugin's nodes
    search in. u64 and u32 are read as signed i32 (a u64 2^64 - 2 is -2: before every bound),
    i64 as i32 (16777217 is not 16777216 there, as it would be in f32); and Bucketize compares
    an integer with a real in f32, not f64."""
    cases = []
    wide = np.array([16777216, 16777217, 16777219], np.int64)
    layouts: list[tuple[str, np.ndarray, np.ndarray, bool]] = [
        ("u64", np.array([1, 4, 8, 11, 12], np.uint64), np.array([2**64 - 2, 44, 5], np.uint64), True),
        (
            "u32",
            np.array([0, 5, 2**31 + 1], np.uint32),
            np.array([2**32 - 1, 2**31 + 1, 3], np.uint32),
            False,
        ),
        ("i64_in_f32", wide, wide, False),
        ("i16", np.array([-3, 0, 7], np.int16), np.array([-3, 7, 8, -4], np.int16), True),
    ]
    for name, sequence, values, right in layouts:
        s, v = parameter(sequence.shape, sequence.dtype), parameter(values.shape, values.dtype)
        outputs = [ov15.search_sorted(s, v, right).output(0), ov3.bucketize(v, s, "i32", right).output(0)]
        cases.append(Case(f"fuzz_{name}", {s: sequence, v: values}, outputs))
    # an i32 value against f32 bounds: 16777217 is 16777216.0 there (in bucket 0 with the right
    # bound); f64 would put it after
    x, b = parameter((3,), np.int32), parameter((2,), np.float32)
    feed = {
        x: np.array([16777217, 16777215, -16777217], np.int32),
        b: np.array([16777216.0, 2e9], np.float32),
    }
    outputs = [ov3.bucketize(x, b, "i64", right).output(0) for right in (True, False)]
    cases.append(Case("fuzz_bucketize_i32_against_f32", feed, outputs))
    return cases


CASES = {
    "bucketize": bucketize_cases(),
    "search_sorted": search_sorted_cases(),
    "fuzz_found": fuzz_found_cases(),
}
ALL = [(name, case) for name, cases in CASES.items() for case in cases]


@pytest.fixture(scope="module")
def batches(tmp_path_factory: pytest.TempPathFactory) -> Batches:
    return Batches(CASES, tmp_path_factory)


@pytest.mark.parametrize(("suite", "case"), ALL, ids=[case.name for _, case in ALL])
def test_kernel_matches_openvino(batches: Batches, suite: str, case: Case) -> None:
    problem = batches[suite].mismatch(case)
    assert problem is None, problem
