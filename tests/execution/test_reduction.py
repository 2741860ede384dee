"""The reduction kernels against OpenVINO's CPU plugin (f32 hint): every Reduce op over seeded
shapes, axes (negative, duplicated, empty, scalar), keep_dims and element types, in one model.

Integer data stays where the plugin computes as the reference does (no overflow, values exact
in f32); Max/Min see infinities but no NaN (the plugin's NaN handling is order-dependent, see
irshape/kernels/reduction.py)."""

from __future__ import annotations

import numpy as np
import openvino.opset13 as opset
import pytest

from .harness import BF16_ON_AVX512, Case, parameter, run_batch

REAL_OPS = ("sum", "mean", "prod", "max", "min", "l1", "l2")
BUILDERS = {
    "sum": opset.reduce_sum,
    "mean": opset.reduce_mean,
    "prod": opset.reduce_prod,
    "max": opset.reduce_max,
    "min": opset.reduce_min,
    "l1": opset.reduce_l1,
    "l2": opset.reduce_l2,
    "and": opset.reduce_logical_and,
    "or": opset.reduce_logical_or,
}
INT_TYPES = (np.int32, np.int64, np.int8, np.uint8)


def _axes(rng: np.random.Generator, rank: int) -> np.ndarray:
    """A scalar, empty, single, several, negative and duplicated axes lists."""
    kind = rng.integers(0, 6)
    if kind == 0:
        return np.array(rng.integers(-rank, rank), np.int64)  # a scalar
    if kind == 1:
        return np.zeros(0, np.int64)  # no axes: the data as it is
    count = int(rng.integers(1, rank + 1))
    chosen = rng.choice(rank, size=count, replace=False)
    signed = np.where(rng.random(count) < 0.4, chosen - rank, chosen)
    if kind == 2 and count >= 1:
        signed = np.concatenate([signed, signed[:1]])  # a duplicate
    dtype = np.int32 if kind == 3 else np.int64
    return signed.astype(dtype)


def _real_data(rng: np.random.Generator, shape: tuple[int, ...], op: str, dtype: type) -> np.ndarray:
    x = rng.standard_normal(shape) * (1.5 if op == "prod" else 3.0)
    edge = rng.integers(0, 4)
    if edge == 1:
        x[rng.random(shape) < 0.2] = 0.0
    elif edge == 2 and x.size:
        x.flat[rng.integers(0, x.size)] = rng.choice([np.inf, -np.inf])
    elif edge == 3 and op not in ("max", "min") and x.size:
        x.flat[rng.integers(0, x.size)] = np.nan
    return x.astype(dtype)


def _int_data(rng: np.random.Generator, shape: tuple[int, ...], op: str, dtype: type) -> np.ndarray:
    """Values no sum or product of up to 81 elements (3^4) overflows in, even in u8 or i8."""
    signed = np.issubdtype(dtype, np.signedinteger)
    if op == "prod" or (op == "l2" and np.dtype(dtype).itemsize == 1):
        return rng.choice([-1, 0, 1, 1] if signed else [0, 1, 1], size=shape).astype(dtype)
    if np.dtype(dtype).itemsize == 1:
        low, high = (-1, 2) if signed else (0, 4)
    else:
        low, high = (-10, 11) if signed else (0, 11)
    return rng.integers(low, high, size=shape).astype(dtype)


def _shape(rng: np.random.Generator) -> tuple[int, ...]:
    rank = int(rng.integers(1, 5))
    return tuple(int(d) for d in rng.integers(1, 4 if rank > 2 else 5, size=rank))


def reduction_cases() -> list[Case]:
    rng = np.random.default_rng(23)
    cases = []
    for op in BUILDERS:
        for i in range(40):
            shape = _shape(rng)
            axes = _axes(rng, len(shape))
            # the CPU plugin refuses no axes without keep_dims ("incorrect number of
            # input/output dimensions"), though the op defines it: that combination stays out
            keep = bool(rng.integers(0, 2)) or axes.size == 0
            if op in ("and", "or"):
                dtype: type = np.bool_
                data = rng.random(shape) < (0.8 if op == "and" else 0.2)
            elif i % 4 == 3:
                dtype = INT_TYPES[(i // 4) % len(INT_TYPES)]
                data = _int_data(rng, shape, op, dtype)
            else:
                dtype = np.float16 if i % 5 == 1 else np.float32
                data = _real_data(rng, shape, op, dtype)
            x = parameter(shape, dtype)
            node = BUILDERS[op](x, opset.constant(axes), keep)
            name = (
                f"{op}{i}_{np.dtype(dtype).name}_{'x'.join(map(str, shape))}_ax{axes.tolist()}_k{int(keep)}"
            )
            cases.append(Case(name.replace("-", "m"), {x: data}, [node.output(0)]))
    return cases


def integer_mean_cases() -> list[Case]:
    """ReduceMean of integers truncates towards zero (hand-picked sums of both signs)."""
    cases = []
    for dtype in INT_TYPES:
        signed = np.issubdtype(dtype, np.signedinteger)
        rows = (
            [[-7, -5, 3, 4], [1, 2, 2, 2], [-1, 0, 0, 0], [5, 5, 5, 6]]
            if signed
            else [[7, 5, 3, 4], [1, 2, 2, 2]]
        )
        data = np.array(rows, dtype)
        x = parameter(data.shape, dtype)
        node = opset.reduce_mean(x, opset.constant(np.array([1], np.int64)), False)
        cases.append(Case(f"int_mean_{np.dtype(dtype).name}", {x: data}, [node.output(0)]))
    return cases


def wide_cases() -> list[Case]:
    """f16 data summed past f16's range (the plugin computes in f32: the mean is finite) and
    integer ReduceL2, whose square root truncates: [2, 3] gives 3, [5, 5] gives 7."""
    cases = []
    big = np.array([[60000, 60000, 50000], [-60000, -60000, 1]], np.float16)
    x = parameter(big.shape, np.float16)
    axis = opset.constant(np.array([1], np.int64))
    cases.append(
        Case(
            "f16_wide",
            {x: big},
            [opset.reduce_mean(x, axis, False).output(0), opset.reduce_sum(x, axis, False).output(0)],
        )
    )
    for dtype in INT_TYPES:
        rows = np.array([[3, 4], [1, 1], [2, 3], [5, 5]], dtype)
        y = parameter(rows.shape, dtype)
        node = opset.reduce_l2(y, opset.constant(np.array([1], np.int64)), False)
        cases.append(Case(f"int_l2_{np.dtype(dtype).name}", {y: rows}, [node.output(0)]))
    return cases


def nan_extreme_cases() -> list[Case]:
    """Max/Min where the plugin's NaN handling does not depend on its vector lanes: a NaN first
    in a short row is skipped, a row of NaNs only gives NaN."""
    rows = np.array([[np.nan, 1, 3, 2], [np.nan, -1, -3, 5], [np.nan] * 4, [4, 1, np.inf, 2]], np.float32)
    cases = []
    for op in ("max", "min"):
        for dtype in (np.float32, np.float16):
            x = parameter(rows.shape, dtype)
            node = BUILDERS[op](x, opset.constant(np.array([-1], np.int64)), False)
            cases.append(Case(f"nan_{op}_{np.dtype(dtype).name}", {x: rows.astype(dtype)}, [node.output(0)]))
    return cases


def fuzz_found_cases() -> list[Case]:
    """What the kernel fuzzer (test_kernel_fuzz.py) found."""
    cases = []
    axis = opset.constant(np.array([1], np.int64))
    # an empty ReduceMax of f64 is f32's lowest, an empty ReduceMin of i64 is i32's highest
    for dtype, build in (
        (np.float64, opset.reduce_max),
        (np.int64, opset.reduce_min),
        (np.uint64, opset.reduce_min),
    ):
        x = parameter((2, 0), dtype)
        cases.append(
            Case(
                f"fuzz_empty_{build.__name__}_{np.dtype(dtype).name}",
                {x: np.zeros((2, 0), dtype)},
                [build(x, axis).output(0)],
                exact=True,
            )
        )
    # an empty ReduceMean is 0, of reals too (not the reference's NaN)
    for dtype in (np.float32, np.float16):
        x = parameter((2, 0), dtype)
        outputs = [
            opset.reduce_mean(x, axis).output(0),
            opset.reduce_mean(x, opset.constant(np.array([0, 1]))).output(0),
        ]
        cases.append(
            Case(f"fuzz_empty_mean_{np.dtype(dtype).name}", {x: np.zeros((2, 0), dtype)}, outputs, exact=True)
        )
    # ReduceL2 sums the squares in f32: past FLT_MAX it is inf (f64: saturated to FLT_MAX)
    for dtype in (np.float32, np.float64):
        x = parameter((2, 2), dtype)
        data = np.array([[3e38, 1.0], [2e19, 1e19]], dtype)
        cases.append(
            Case(f"fuzz_l2_overflow_{np.dtype(dtype).name}", {x: data}, [opset.reduce_l2(x, axis).output(0)])
        )
    # bf16 results rounded to bf16 (ReduceL1 of 238.5 is 238)
    x = parameter((3, 4))
    bf16 = opset.convert(x, "bf16")
    data = np.array([[100, 100, 38, 0.5], [1.5, 2.25, -3.125, 7.0], [0.1, 0.2, 0.3, 0.4]], np.float32)
    outputs = [
        opset.convert(build(bf16, axis), "f32").output(0)
        for build in (opset.reduce_l1, opset.reduce_sum, opset.reduce_mean)
    ]
    cases.append(Case("fuzz_bf16_rounded", {x: data}, outputs, exact=BF16_ON_AVX512))
    return cases


CASES = reduction_cases() + integer_mean_cases() + nan_extreme_cases() + wide_cases() + fuzz_found_cases()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("reduction"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_reduction(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_integer_mean_truncates(batch):
    """The hand-worked answer, besides OpenVINO's: -5/4 -> -1 ... as C++ integer division."""
    got = batch.got["int_mean_int32_out0"]
    assert got.tolist() == [-1, 1, 0, 5]
    assert batch.got["int_l2_int8_out0"].tolist() == [5, 1, 3, 7]
