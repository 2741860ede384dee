"""The pooling kernels against OpenVINO's CPU plugin (f32 hint): MaxPool-1/8/14, AvgPool-1/14/16
over 1D, 2D and 3D data with every rounding type and auto_pad, pads, dilations, ceil windows
that start in the padding, the indices output with its axis and element type; AdaptiveAvgPool-8
and AdaptiveMaxPool-8 to smaller and larger sizes. One model per suite."""

from __future__ import annotations

import numpy as np
import openvino.opset1 as opset1
import openvino.opset8 as opset8
import openvino.opset14 as opset14
import openvino.opset16 as opset16
import pytest

from .harness import BF16_ON_AVX512, Case, parameter, run_batch

AUTO_PADS = ("explicit", "explicit", "explicit", "same_upper", "same_lower", "valid")


def _window(rng: np.random.Generator, rank: int, dilated: bool) -> dict[str, list[int]]:
    """kernel, strides, dilations and pads for ``rank`` spatial axes; each pad below the
    dilated kernel, so no window lies wholly in the padding."""
    kernel = [int(k) for k in rng.integers(1, 4, size=rank)]
    strides = [int(s) for s in rng.integers(1, 4, size=rank)]
    dilations = [int(d) for d in rng.integers(1, 3, size=rank)] if dilated else [1] * rank
    extents = [(k - 1) * d + 1 for k, d in zip(kernel, dilations, strict=True)]
    pads_begin = [int(rng.integers(0, e)) for e in extents]
    pads_end = [int(rng.integers(0, e)) for e in extents]
    return {
        "kernel": kernel,
        "strides": strides,
        "dilations": dilations,
        "pads_begin": pads_begin,
        "pads_end": pads_end,
    }


def _data(rng: np.random.Generator, shape: tuple[int, ...], dtype: type, i: int) -> np.ndarray:
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), size=shape, endpoint=True).astype(dtype)
    x = rng.standard_normal(shape) * 3
    if i % 7 == 3:
        x[rng.random(shape) < 0.2] = -np.inf
    if i % 7 == 4:
        x[rng.random(shape) < 0.15] = np.nan
    if i % 7 == 5:
        x[rng.random(shape) < 0.1] = np.inf
    if i % 7 == 6:
        x = -np.abs(x) - 1  # negatives only: the padding must not win
    return x.astype(dtype)


def _shape(rng: np.random.Generator, rank: int, window: dict[str, list[int]]) -> tuple[int, ...]:
    """[N, C, spatial...], each spatial dim at least the dilated kernel."""
    extents = [(k - 1) * d + 1 for k, d in zip(window["kernel"], window["dilations"], strict=True)]
    spatial = [int(e + rng.integers(0, 5)) for e in extents]
    return (int(rng.integers(1, 3)), int(rng.integers(1, 4)), *spatial)


def _name(prefix: str, i: int, shape: tuple[int, ...], dtype: type, **parts: object) -> str:
    text = "_".join(f"{k}{'x'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in parts.items())
    return f"{prefix}{i}_{np.dtype(dtype).name}_{'x'.join(map(str, shape))}_{text}"


def max_pool_cases() -> list[Case]:
    rng = np.random.default_rng(31)
    cases = []
    for version in (1, 8, 14):
        roundings = ("floor", "ceil", "ceil_torch") if version == 14 else ("floor", "ceil")
        for i in range(45):
            rank = 1 + i % 3
            window = _window(rng, rank, version > 1)
            shape = _shape(rng, rank, window)
            rounding = roundings[i % len(roundings)]
            auto_pad = AUTO_PADS[(i // 3) % len(AUTO_PADS)]
            dtype = (np.float32, np.float32, np.float16, np.int32, np.uint8, np.int8, np.float32)[i % 7]
            x = parameter(shape, dtype)
            common = (window["strides"],)
            pads_kernel = (window["pads_begin"], window["pads_end"], window["kernel"])
            if version == 1:
                node = opset1.max_pool(x, *common, *pads_kernel, rounding, auto_pad)
                outputs = [node.output(0)]
                extra = {}
            else:
                index_type = ("i64", "i32")[i % 2]
                axis = int(rng.integers(-len(shape), len(shape)))
                build = opset8.max_pool if version == 8 else opset14.max_pool
                node = build(
                    x, *common, window["dilations"], *pads_kernel, rounding, auto_pad, index_type, axis
                )
                outputs = [node.output(0), node.output(1)]
                extra = {"axis": axis, "it": index_type}
            name = _name(f"max{version}_", i, shape, dtype, r=rounding, p=auto_pad, **window, **extra)
            cases.append(Case(name.replace("-", "m"), {x: _data(rng, shape, dtype, i)}, outputs))
    return cases


def avg_pool_cases() -> list[Case]:
    rng = np.random.default_rng(32)
    cases = []
    for version in (1, 14, 16):
        roundings = ("floor", "ceil") if version == 1 else ("floor", "ceil", "ceil_torch")
        for i in range(45):
            rank = 1 + i % 3
            window = _window(rng, rank, version == 16)
            shape = _shape(rng, rank, window)
            rounding = roundings[i % len(roundings)]
            auto_pad = AUTO_PADS[(i // 3) % len(AUTO_PADS)]
            exclude_pad = bool(i % 2)
            # (some i32 AvgPools the plugin cannot build: "Supported primitive descriptors list is empty")
            dtype = (np.float32, np.float32, np.float16, np.float32, np.uint8, np.int8)[i % 6]
            x = parameter(shape, dtype)
            args = (
                window["strides"],
                window["pads_begin"],
                window["pads_end"],
                window["kernel"],
                exclude_pad,
            )
            if version == 1:
                node = opset1.avg_pool(x, *args, rounding, auto_pad)
            elif version == 14:
                node = opset14.avg_pool(x, *args, rounding, auto_pad)
            else:
                node = opset16.avg_pool(x, *args, rounding, auto_pad, window["dilations"])
            name = _name(
                f"avg{version}_", i, shape, dtype, r=rounding, p=auto_pad, ex=int(exclude_pad), **window
            )
            cases.append(Case(name, {x: _data(rng, shape, dtype, i)}, [node.output(0)]))
    return cases


def adaptive_cases() -> list[Case]:
    rng = np.random.default_rng(33)
    cases = []
    for kind in ("avg", "max"):
        for i in range(36):
            rank = 1 + i % 3
            spatial = [int(d) for d in rng.integers(1, 8, size=rank)]
            target = np.array(
                [int(rng.integers(1, 2 * d + 2)) for d in spatial], np.int64 if i % 2 else np.int32
            )
            shape = (int(rng.integers(1, 3)), int(rng.integers(1, 4)), *spatial)
            dtype = (np.float32, np.float16)[i % 4 == 3]
            x = parameter(shape, dtype)
            if kind == "avg":
                outputs = [opset8.adaptive_avg_pool(x, opset8.constant(target)).output(0)]
            else:
                # the CPU plugin refuses i64 indices here ("CPU plugin does not support i64 for
                # use with oneDNN"), though MaxPool-8 gives them
                node = opset8.adaptive_max_pool(x, opset8.constant(target), "i32")
                outputs = [node.output(0), node.output(1)]
            name = f"adaptive_{kind}{i}_{np.dtype(dtype).name}_{'x'.join(map(str, shape))}_to{'x'.join(map(str, target))}"
            cases.append(Case(name, {x: _data(rng, shape, dtype, i)}, outputs))
    return cases


def ceil_in_padding_cases() -> list[Case]:
    """Windows that start in pads_end (size 4, kernel 3, stride 2, pads 0/2: the third window
    starts at 4): ceil keeps it, ceil_torch drops it; and one starting past the padded data
    (size 5, kernel 1, stride 3, no pads, ceil: the third starts at 6)."""
    rng = np.random.default_rng(34)
    cases = []
    layouts = [
        ((1, 2, 4), [2], [0], [2], [3]),
        ((1, 2, 5), [3], [0], [0], [1]),
        ((2, 1, 4, 5), [2, 3], [0, 0], [2, 0], [3, 1]),
    ]
    for j, (shape, strides, pads_begin, pads_end, kernel) in enumerate(layouts):
        for rounding in ("ceil", "ceil_torch"):
            data = (rng.standard_normal(shape) * 3).astype(np.float32)
            x = parameter(shape)
            nodes = [opset14.max_pool(x, strides, [1] * len(kernel), pads_begin, pads_end, kernel, rounding)]
            for exclude in (True, False):
                nodes.append(opset14.avg_pool(x, strides, pads_begin, pads_end, kernel, exclude, rounding))
            outputs = [nodes[0].output(0), nodes[0].output(1), nodes[1].output(0), nodes[2].output(0)]
            cases.append(Case(f"ceil_in_padding{j}_{rounding}", {x: data}, outputs))
    return cases


def hand_worked_avg_case() -> Case:
    """[1, 2, 3, 4], kernel 3, pads 1/1: with the pads counted (1+2)/3, 2, 3, (3+4)/3; without
    (1+2)/2, 2, 3, (3+4)/2."""
    x = parameter((1, 1, 4))
    data = np.array([[[1, 2, 3, 4]]], np.float32)
    nodes = [opset1.avg_pool(x, [1], [1], [1], [3], exclude) for exclude in (False, True)]
    return Case("avg_hand", {x: data}, [n.output(0) for n in nodes])


def lowest_window_cases() -> list[Case]:
    """MaxPool-8 windows holding only their type's lowest value (or -inf): nothing beats the
    plugin's start, so the index is 0 (not the window's first element, 2)."""
    cases = []
    for dtype, low in ((np.uint8, 0), (np.int8, -128), (np.int32, -(2**31)), (np.float32, -np.inf)):
        data = np.array([[[5, low, low, low, low, 3]]], dtype)
        x = parameter(data.shape, dtype)
        node = opset8.max_pool(x, [2], [1], [0], [0], [2])
        cases.append(Case(f"lowest_{np.dtype(dtype).name}", {x: data}, [node.output(0), node.output(1)]))
    return cases


def fuzz_found_cases() -> list[Case]:
    """What the kernel fuzzer (test_kernel_fuzz.py) found: a bf16 MaxPool's window in padding
    only is bf16's lowest (-3.3895314e38; f32's lowest is -inf in bf16), and bf16 results are
    rounded to bf16 (AvgPool gave values between two bf16 ones)."""
    x = parameter((1, 1, 2, 3))
    bf16 = opset1.convert(x, "bf16")
    max_pool = opset14.max_pool(bf16, [1, 3], [1, 1], [0, 1], [0, 2], [2, 2], "ceil")
    avg_pool = opset14.avg_pool(bf16, [1, 1], [0, 0], [0, 0], [2, 2], True, "floor")
    outputs = [opset1.convert(max_pool.output(0), "f32").output(0), opset1.convert(avg_pool, "f32").output(0)]
    data = np.array([[[[-np.inf, -np.inf, -np.inf], [0.3, 1.7, -2.9]]]], np.float32)
    return [Case("fuzz_bf16_pools", {x: data}, outputs, exact=BF16_ON_AVX512)]


CASES = (
    fuzz_found_cases()
    + max_pool_cases()
    + avg_pool_cases()
    + adaptive_cases()
    + ceil_in_padding_cases()
    + lowest_window_cases()
    + [hand_worked_avg_case()]
)


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("pooling"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_pooling(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_avg_pool_hand_worked(batch):
    np.testing.assert_allclose(batch.got["avg_hand_out0"].ravel(), [1, 2, 3, 7 / 3], rtol=1e-6)
    np.testing.assert_allclose(batch.got["avg_hand_out1"].ravel(), [1.5, 2, 3, 3.5], rtol=1e-6)


def test_lowest_window_index_is_zero(batch):
    assert batch.got["lowest_int8_out1"].ravel().tolist() == [0, 0, 5]


def test_ceil_torch_drops_the_window_in_padding(batch):
    """The hand-worked counts: ceil gives ceil((4 + 0 + 2 - 3) / 2) + 1 = 3 windows, the
    last starting at 4 in the padding; ceil_torch drops it (2)."""
    assert batch.got["ceil_in_padding0_ceil_out0"].shape == (1, 2, 3)
    assert batch.got["ceil_in_padding0_ceil_torch_out0"].shape == (1, 2, 2)
