"""Differential tests of the resize family's kernels (Interpolate-1/4/11, GridSample-9) against
OpenVINO's CPU plugin: seeded configurations over the modes, coordinate transforms, rounding
modes, sizes and scales, axes, pads and element types, batched into a few models."""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino.opset1 as opset1
import openvino.opset10 as opset10
import openvino.opset11 as opset11
import pytest

from .harness import AVX512_ONLY, BF16_AS_F32_OFF_AVX512, Case, parameter, run_batch

COORDINATE_MODES = ("half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")
DATA_TYPES = (np.float32, np.float16, np.uint8, np.int8, np.int32, np.int64)


def _data(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(shape) * 4).astype(dtype)
    if dtype == np.uint8:
        return rng.integers(0, 256, shape).astype(dtype)
    if dtype == np.int8:
        return rng.integers(-128, 128, shape).astype(dtype)
    return rng.integers(-1000, 1000, shape).astype(dtype)


def _spatial_axes(rng: np.random.Generator, rank: int, mode: str) -> list[int]:
    if mode in ("bilinear_pillow", "bicubic_pillow") or (mode == "cubic" and rank >= 4):
        return [rank - 2, rank - 1]
    if rank <= 2:
        return list(range(rank))
    choices = [list(range(2, rank)), [rank - 1], [rank - 2, rank - 1], list(range(rank))]
    return choices[rng.integers(len(choices))]


def _interpolate_case(rng: np.random.Generator, index: int, version: int, mode: str) -> Case:
    rank = int(rng.choice([4, 4, 5, 3])) if mode not in ("bilinear_pillow", "bicubic_pillow", "cubic") else 4
    if mode == "linear":
        rank = int(rng.choice([4, 5]))
    shape = tuple(int(n) for n in rng.integers(1, 6, rank))
    shape = (shape[0] % 2 + 1, shape[1] % 3 + 1, *shape[2:])
    dtype = DATA_TYPES[rng.integers(len(DATA_TYPES))] if index % 3 else np.float32
    if mode in ("bilinear_pillow", "bicubic_pillow") and np.dtype(dtype).kind != "f":
        # integers in the Pillow modes: the plugin's float32 weights and sums differ from
        # irshape's in the last bit, which flips a rare tie by one (a documented limitation)
        dtype = np.float16 if index % 2 else np.float32
    axes = _spatial_axes(rng, rank, mode)
    pads_begin = [0] * rank
    pads_end = [0] * rank
    if rng.random() < 0.25:
        for axis in (a for a in axes if a >= 2 or rank <= 2):
            pads_begin[axis], pads_end[axis] = (int(p) for p in rng.integers(0, 2, 2))
    padded = [n + b + e for n, b, e in zip(shape, pads_begin, pads_end, strict=True)]
    by_scales = bool(rng.random() < 0.5)
    scales = np.array([rng.choice([0.5, 0.75, 1.5, 2.0, 2.5, 3.0, 0.4, 1.0, 1.25]) for _ in axes], np.float32)
    sizes = np.array([max(1, int(rng.integers(1, 2 * padded[a] + 3))) for a in axes], np.int64)
    for position, axis in enumerate(axes):
        if axis < 2 and rank > 2:  # the plugin resizes no batch or channel axis: listed, kept
            scales[position], sizes[position] = 1.0, padded[axis]
    attrs = {
        "mode": mode,
        "shape_calculation_mode": "scales" if by_scales else "sizes",
        "coordinate_transformation_mode": COORDINATE_MODES[rng.integers(len(COORDINATE_MODES))],
        "nearest_mode": NEAREST_MODES[rng.integers(len(NEAREST_MODES))],
        "antialias": bool(rng.random() < 0.3),
        "pads_begin": pads_begin,
        "pads_end": pads_end,
        "cube_coeff": float(rng.choice([-0.75, -0.5, -0.6])),
    }
    x = parameter(shape, dtype)
    axes_const = opset11.constant(np.array(axes, np.int64))
    if version == 4:
        node = opset10.interpolate(x, sizes, scales, axes=axes_const, **attrs)
    else:
        target = scales if by_scales else sizes
        node = opset11.interpolate(x, target, axes=axes_const, **attrs)
    name = f"v{version}_{index}_{mode}_{attrs['coordinate_transformation_mode']}"
    return Case(name, {x: _data(rng, shape, dtype)}, [node.output(0)])


def interpolate_cases() -> list[Case]:
    rng = np.random.default_rng(4)
    cases = []
    for version, modes in ((4, ("nearest", "linear_onnx", "cubic", "linear")),
                           (11, ("nearest", "linear_onnx", "cubic", "linear", "bilinear_pillow", "bicubic_pillow"))):  # fmt: skip
        for mode in modes:
            for i in range(40):
                cases.append(_interpolate_case(rng, i, version, mode))
    return cases


def interpolate_1_cases() -> list[Case]:
    """Interpolate-1 as the plugin runs it (ConvertInterpolate1ToInterpolate4)."""
    rng = np.random.default_rng(1)
    cases = []
    for i in range(48):
        mode = ("nearest", "linear", "cubic", "linear_onnx")[i % 4]
        rank = 5 if (mode == "linear" and i % 8 == 1) or (mode == "nearest" and i % 3 == 0) else 4
        shape = (1 + i % 2, 1 + i % 3, *tuple(int(n) for n in rng.integers(1, 6, rank - 2)))
        axes = [2, 3] if mode == "cubic" or (rank == 4 and i % 5) else list(range(2, rank))
        if rank == 4 and mode != "cubic" and i % 5 == 0:
            axes = [3]
        target = [max(1, int(rng.integers(1, 2 * shape[a] + 3))) for a in axes]
        pads = bool(rng.random() < 0.3)
        pads_begin = [0, 0] + [int(rng.integers(0, 2)) if pads and a in axes else 0 for a in range(2, rank)]
        pads_end = [0, 0] + [int(rng.integers(0, 2)) if pads and a in axes else 0 for a in range(2, rank)]
        attrs = {
            "axes": axes,
            "mode": mode,
            "align_corners": bool(rng.random() < 0.4),
            "antialias": bool(rng.random() < 0.3),
            "pads_begin": pads_begin,
            "pads_end": pads_end,
        }
        dtype = DATA_TYPES[i % len(DATA_TYPES)] if mode != "linear" or rank == 4 else np.float32
        x = parameter(shape, dtype)
        node = opset1.interpolate(x, opset11.constant(np.array(target, np.int64)), attrs)
        cases.append(Case(f"v1_{i}_{mode}", {x: _data(rng, shape, dtype)}, [node.output(0)]))
    return cases


def edge_cases() -> list[Case]:
    """Integer extremes (i32 through float32, i64 wrapped to 32 bits), u8 saturation of cubic
    overshoot, infinities and NaN in nearest (copied) and linear_onnx."""
    cases = []
    big = np.array([[[[16777217, 2**31 - 1, -(2**31), 5]]]], np.int32)
    wide = np.array([[[[2**40 + 1, 2**62, -(2**63), -7]]]], np.int64)
    saw = np.array([[[[0, 255, 0, 255, 0]]]], np.uint8)
    special = np.array([[[[np.inf, -1.0, np.nan, 2.0]]]], np.float32)
    for name, data, mode in (
        ("i32_extremes", big, "nearest"),
        ("i32_extremes_linear", big, "linear_onnx"),
        ("i64_wrapped", wide, "nearest"),
        ("u8_overshoot", saw, "cubic"),
        ("i8_overshoot", (saw.astype(np.int16) - 128).astype(np.int8), "cubic"),
        ("special_nearest", special, "nearest"),
        ("special_linear", special, "linear_onnx"),
    ):
        x = parameter(data.shape, data.dtype)
        sizes = np.array([1, 2 * data.shape[-1] + 1], np.int64)
        node = opset11.interpolate(x, sizes, mode, "sizes", axes=np.array([2, 3], np.int64))
        cases.append(Case(name, {x: data}, [node.output(0)]))
    return cases


def padded_nearest_cases() -> list[Case]:
    """Nearest with pads in every rounding mode and coordinate transform (the plugin once had
    a path of its own for asymmetric with pads), and layers without the axes input."""
    rng = np.random.default_rng(11)
    cases = []
    for i in range(50):
        shape = (1, 2, int(rng.integers(1, 6)), int(rng.integers(1, 6)))
        pads_begin = [0, 0, int(rng.integers(0, 3)), int(rng.integers(0, 3))]
        pads_end = [0, 0, int(rng.integers(0, 3)), int(rng.integers(0, 3))]
        padded = [n + b + e for n, b, e in zip(shape, pads_begin, pads_end, strict=True)]
        with_axes = i % 2 == 0
        by_scales = i % 3 == 0
        scales = [float(rng.choice([0.5, 0.75, 1.5, 2.0, 3.0])) for _ in range(2)]
        sizes = [int(rng.integers(1, 2 * n + 2)) for n in padded[2:]]
        if not with_axes:  # every axis listed: batch and channel kept
            scales, sizes = [1.0, 1.0, *scales], [1, 2, *sizes]
        attrs = {
            "coordinate_transformation_mode": "asymmetric" if i % 2 else COORDINATE_MODES[i % 5],
            "nearest_mode": NEAREST_MODES[i % 5],
            "pads_begin": pads_begin,
            "pads_end": pads_end,
        }
        x = parameter(shape, np.float32)
        axes = np.array([2, 3], np.int64) if with_axes else None
        target = np.array(scales, np.float32) if by_scales else np.array(sizes, np.int64)
        mode = "scales" if by_scales else "sizes"
        if i % 4 < 2:
            node = opset11.interpolate(x, target, "nearest", mode, axes=axes, **attrs)
        else:
            node = opset10.interpolate(
                x,
                np.array(sizes, np.int64),
                np.array(scales, np.float32),
                "nearest",
                mode,
                axes=axes,
                **attrs,
            )
        data = _data(rng, shape, np.float32)
        cases.append(Case(f"nearest_padded_{i}", {x: data}, [node.output(0)], exact=True))
    return cases


def bf16_cases() -> list[Case]:
    """bf16 data (converted from f32 in the model): results rounded to bf16."""
    rng = np.random.default_rng(16)
    cases = []
    for i, mode in enumerate(
        ("nearest", "linear_onnx", "cubic", "linear", "bilinear_pillow", "bicubic_pillow") * 2
    ):
        shape = (1, 2, 3, 4)
        x = parameter(shape, np.float32)
        narrow = opset11.convert(x, "bf16")
        sizes = np.array([int(rng.integers(1, 8)), int(rng.integers(1, 9))], np.int64)
        node = opset11.interpolate(narrow, sizes, mode, "sizes", axes=np.array([2, 3], np.int64))
        wide = opset11.convert(node, "f32")
        cases.append(
            Case(
                f"bf16_{i}_{mode}",
                {x: _data(rng, shape, np.float32)},
                [wide.output(0)],
                exact=BF16_AS_F32_OFF_AVX512,
            )
        )
    for i, mode in enumerate(("bilinear", "bicubic", "nearest")):
        x = parameter((1, 2, 4, 5), np.float32)
        g = parameter((1, 3, 3, 2), np.float32)
        attrs = {"align_corners": False, "mode": mode, "padding_mode": "border"}
        node = opset11.grid_sample(opset11.convert(x, "bf16"), g, attrs)
        data = {
            x: _data(rng, (1, 2, 4, 5), np.float32),
            g: rng.uniform(-1.2, 1.2, (1, 3, 3, 2)).astype(np.float32),
        }
        cases.append(
            Case(
                f"bf16_grid_{i}_{mode}",
                data,
                [opset11.convert(node, "f32").output(0)],
                exact=BF16_AS_F32_OFF_AVX512,
            )
        )
    return cases


def batch_and_channel_cases() -> list[Case]:
    """Resizes of the batch and channel axes the plugin runs (by experiment it refuses rank-4
    layers listing axes [0, 2, 3] or all four, and writes garbage for cubic over the channel
    axis: neither is here)."""
    rng = np.random.default_rng(3)
    cases = []
    lengths = {0: 4, 1: 6, 2: 7, 3: 3}
    for i, axes in enumerate(([1, 3], [0, 3], [0], [1], [0, 1], [1, 2, 3], [1, 2])):
        for mode in ("nearest", "linear_onnx", "cubic"):
            if mode == "cubic" and 1 in axes and len(axes) == 3:
                continue
            x = parameter((2, 3, 4, 5), np.float32)
            sizes = np.array([lengths[a] for a in axes], np.int64)
            node = opset11.interpolate(x, sizes, mode, "sizes", axes=np.array(axes, np.int64))
            data = _data(rng, (2, 3, 4, 5), np.float32)
            cases.append(Case(f"axes{i}_{mode}", {x: data}, [node.output(0)]))
    return cases


def _interpolate_11(
    x: Any,
    target: np.ndarray,
    mode: str,
    calculation: str,
    axes: list[int],
    transform: str,
    antialias: bool = False,
) -> Any:
    """An Interpolate-11 of ``x`` to ``target`` (sizes or scales, as ``calculation`` says) on
    ``axes``, with the coordinate transformation ``transform``."""
    return opset11.interpolate(
        x,
        target,
        mode,
        calculation,
        axes=np.array(axes, np.int64),
        coordinate_transformation_mode=transform,
        antialias=antialias,
    )


def _linear_onnx_draw(rng: np.random.Generator, index: int) -> Case:
    rank = int(rng.choice([2, 3, 4, 5]))
    dtype = (np.int8, np.uint8, np.int32)[index % 3]
    spatial = {2: [0, 1], 3: [2], 4: [2, 3], 5: [2, 3, 4]}[rank]
    count = int(rng.integers(1, min(2, len(spatial)) + 1))
    axes = sorted(rng.choice(spatial, count, replace=False).tolist())
    if rank > 2:
        shape = [int(rng.integers(1, 3)), int(rng.integers(1, 3))]
        shape += [int(rng.integers(2, 6)) for _ in range(rank - 2)]
    else:
        shape = [int(rng.integers(2, 6)) for _ in range(2)]
    transform = str(rng.choice(COORDINATE_MODES))
    scales = np.array([rng.choice([0.75, 1.5, 2.5, 1 / 3, 0.6, 1.25]) for _ in axes], np.float32)
    low, high = (0, 16) if dtype == np.uint8 else (-12, 13)
    data = rng.integers(low, high, shape).astype(dtype)
    x = parameter(shape, dtype)
    node = _interpolate_11(x, scales, "linear_onnx", "scales", axes, transform)
    return Case(
        f"linear_onnx_tie_{index}_{np.dtype(dtype).name}_r{rank}_{transform}", {x: data}, [node.output(0)]
    )


def linear_onnx_tie_cases() -> list[Case]:
    """linear_onnx on i8, u8 and i32 data where a result lies a last bit off a .5 tie (data 7
    and 10 at weights 1/6 and 5/6 of float32: 9.499999 or 9.5), so the order of the taps'
    fused multiply-adds decides it: the plugin sums W's and D's second tap first, H's first
    tap first (the draws below that a first-tap-first rule gets wrong, or a second-first one:
    draws 45 and 155, H of rank 5)."""
    rng = np.random.default_rng(1)
    chosen = {23, 43, 45, 60, 65, 92, 149, 155, 185, 210, 249, 256, 363}
    drawn = [_linear_onnx_draw(rng, i) for i in range(max(chosen) + 1)]
    return [case for i, case in enumerate(drawn) if i in chosen]


def rank5_cubic_integer_cases() -> list[Case]:
    """Cubic on rank-5 u8 and i8 data runs as ``ov::reference``'s cubic: it truncates the
    results toward zero (-9.5 gives -9, 1.5 gives 1) and wraps an overshoot to 8 bits (u8's
    -27.6 gives 229, i8's -155.6 gives 101), where rank 4 rounds half to even and saturates;
    by experiment."""
    cases = []
    halves = np.array([-10, -9, -8, -3, -2, -1, 0, 1, 2, 3, 8, 9, 10, 11])
    saw = np.array([0, 255, 0, 255, 0])
    rng = np.random.default_rng(55)
    for dtype, shift in ((np.uint8, 10), (np.int8, 0)):
        tied = np.stack([halves + shift, halves + shift + 1], -1).reshape(1, 1, 2, 7, 2)
        overshoot = np.stack([saw, 255 - saw]).reshape(1, 2, 1, 1, 5) - (128 if dtype == np.int8 else 0)
        low, high = (0, 256) if dtype == np.uint8 else (-128, 128)
        dense = rng.integers(low, high, (1, 2, 3, 3, 4))
        for name, data, axes, sizes in (
            ("tied_w", tied, [4], [3]),
            ("tied_hw", tied, [3, 4], [13, 3]),
            ("overshoot", overshoot, [4], [11]),
            ("dense", dense, [2, 3, 4], [5, 4, 7]),
        ):
            x = parameter(data.shape, dtype)
            node = _interpolate_11(x, np.array(sizes, np.int64), "cubic", "sizes", axes, "align_corners")
            case_name = f"cubic_rank5_{name}_{np.dtype(dtype).name}"
            cases.append(Case(case_name, {x: data.astype(dtype)}, [node.output(0)]))
        # the reference's sums (every combination of the axes' taps, its coordinates and
        # weights) land on an integer a last bit off where irshape's separable passes did not
        for i, transform in enumerate(COORDINATE_MODES * 2):
            shape = (1, 2, 3, 4, 3)
            axes = [[2], [4], [3], [2, 4], [3, 4]][i % 5]
            scales = np.array(
                [(1.5, 2.5, 0.6, 1.25, 1 / 3)[(i + k) % 5] for k in range(len(axes))], np.float32
            )
            x = parameter(shape, dtype)
            node = _interpolate_11(x, scales, "cubic", "scales", axes, transform)
            data = rng.integers(0, 16, shape) - (0 if dtype == np.uint8 else 8)
            case_name = f"cubic_rank5_sums_{i}_{transform}_{np.dtype(dtype).name}"
            cases.append(Case(case_name, {x: data.astype(dtype)}, [node.output(0)]))
    return cases


def rank5_antialias_unchanged_axis_cases() -> list[Case]:
    """Found by the kernel fuzzer (test_kernel_fuzz.py's Interpolate, one off on ~5 of 300
    elements): the rank-5 antialiased linear weighs an axis of unchanged length (1 at scale
    1.5) by its scale too, a factor of every weight product that moves the last bit of the
    weighted mean, truncated for u8 and i8 (51 where irshape gave 52)."""
    rng = np.random.default_rng(57)
    cases = []
    for i, (shape, scales, transform) in enumerate(
        (
            ((1, 2, 5, 3, 1), [2.5, 2.0, 1.5], "half_pixel"),
            ((1, 2, 1, 3, 4), [1.5, 2.0, 0.75], "half_pixel"),
            ((1, 2, 4, 1, 3), [2.0, 1.5, 2.5], "asymmetric"),
            ((1, 2, 5, 3, 1), [2.5, 2.0, 1.5], "pytorch_half_pixel"),
        )
    ):
        for dtype in (np.uint8, np.int8):
            x = parameter(shape, dtype)
            node = _interpolate_11(
                x, np.array(scales, np.float32), "linear", "scales", [2, 3, 4], transform, antialias=True
            )
            low, high = (0, 100) if dtype == np.uint8 else (-100, 100)
            data = rng.integers(low, high, shape).astype(dtype)
            cases.append(
                Case(f"linear_rank5_antialias_{i}_{np.dtype(dtype).name}", {x: data}, [node.output(0)])
            )
    return cases


CASES = (
    rank5_antialias_unchanged_axis_cases()
    + interpolate_cases()
    + interpolate_1_cases()
    + edge_cases()
    + padded_nearest_cases()
    + bf16_cases()
    + batch_and_channel_cases()
    + linear_onnx_tie_cases()
    + rank5_cubic_integer_cases()
)


def grid_sample_cases() -> list[Case]:
    """GridSample-9: every mode, padding and align_corners, grids reaching past the data."""
    rng = np.random.default_rng(9)
    cases = []
    for i in range(72):
        mode = ("bilinear", "bicubic", "nearest")[i % 3]
        padding = ("zeros", "border", "reflection")[(i // 3) % 3]
        align = bool((i // 9) % 2)
        shape = (1 + i % 2, 1 + i % 3, int(rng.integers(1, 6)), int(rng.integers(1, 6)))
        grid_shape = (shape[0], int(rng.integers(1, 5)), int(rng.integers(1, 5)), 2)
        spread = (1.0, 1.5, 3.0)[i % 3]
        grid = rng.uniform(-spread, spread, grid_shape).astype(np.float32)
        if i % 5 == 0:  # points exactly on the pixels and halfway between them
            grid = (np.round(grid * 4) / 4).astype(np.float32)
        dtype = {7: np.float16, 3: np.int32, 5: np.uint8, 1: np.int8}.get(i % 8, np.float32)
        x = parameter(shape, dtype)
        g = parameter(grid_shape, np.float32)
        node = opset11.grid_sample(x, g, {"align_corners": align, "mode": mode, "padding_mode": padding})
        data = _data(rng, shape, dtype)
        cases.append(Case(f"grid_{i}_{mode}_{padding}_{int(align)}", {x: data, g: grid}, [node.output(0)]))
    return cases


def grid_sample_fuzz_found_cases() -> list[Case]:
    """Found by tests/execution/test_kernel_fuzz_layers.py: the plugin's bilinear GridSample
    blends each row as ``dx * v1 - (dx * v0 - v0)`` and then the rows as ``q0 + dy * (q1 - q0)``
    in fused multiply-adds, so an infinity in one row only is NaN (-inf beside finite values
    gave -inf in irshape), and the last bits are those of that order (compared exactly)."""
    rng = np.random.default_rng(90)
    cases = []
    for i, padding in enumerate(("zeros", "border", "reflection", "zeros", "border", "reflection")):
        shape = (1, 2, 3, 4)
        data = (rng.standard_normal(shape) * 10).astype(np.float32)
        if i < 3:
            data[0, 0, 0, 2] = -np.inf
            data[0, 1, 1, 1] = np.inf
            data[0, 1, 2, 3] = np.nan
        grid = rng.uniform(-1.2, 1.2, (1, 4, 5, 2)).astype(np.float32)
        x, g = parameter(shape), parameter(grid.shape)
        node = opset11.grid_sample(
            x, g, {"align_corners": bool(i % 2), "mode": "bilinear", "padding_mode": padding}
        )
        cases.append(Case(f"grid_fuzz_{i}_{padding}", {x: data, g: grid}, [node.output(0)], exact=i >= 3))
    # i32 data near its extremes: nearest takes the values whole, bilinear and bicubic go
    # through float32 and come back -2^31 past the i32 range (2147483646 is the float32 2^31);
    # irshape gave 2147483520 for both
    data = np.array([2147483646, -2147483648, 2147483647, -2147483647, 16777217, -16777217], np.int32)
    grid = np.array([[-1, -1], [0, -1], [1, -1], [-1, 1], [0, 1], [1, 1]], np.float32).reshape(1, 1, 6, 2)
    for mode in ("nearest", "bilinear", "bicubic"):
        x, g = parameter((1, 1, 2, 3), np.int32), parameter(grid.shape)
        node = opset11.grid_sample(x, g, {"align_corners": True, "mode": mode, "padding_mode": "border"})
        cases.append(Case(f"grid_fuzz_i32_{mode}", {x: data.reshape(1, 1, 2, 3), g: grid}, [node.output(0)]))
    # bicubic in the plugin's weights and fused multiply-adds: large i32 data shows every last
    # bit of the float32 sums (-109387440 where irshape gave -109387696); floats compared exactly
    for i, padding in enumerate(("zeros", "border", "reflection") * 2):
        dtype = np.int32 if i < 3 else np.float32
        values = rng.integers(-(2**30), 2**30, (1, 2, 3, 5)).astype(dtype)
        grid = rng.uniform(-1.3, 1.3, (1, 3, 4, 2)).astype(np.float32)
        x, g = parameter(values.shape, dtype), parameter(grid.shape)
        node = opset11.grid_sample(
            x, g, {"align_corners": bool(i % 2), "mode": "bicubic", "padding_mode": padding}
        )
        cases.append(
            # the avx2 kernel's bicubic sums round otherwise (last bits; i32 outputs 16-64 apart near 4e8)
            Case(
                f"grid_fuzz_bicubic_{i}_{padding}", {x: values, g: grid}, [node.output(0)], exact=AVX512_ONLY
            )
        )
    return cases


GRID_CASES = grid_sample_cases() + grid_sample_fuzz_found_cases()


@pytest.fixture(scope="module")
def grid_batch(tmp_path_factory):
    return run_batch(GRID_CASES, tmp_path_factory.mktemp("grid_sample"))


@pytest.mark.parametrize("case", GRID_CASES, ids=lambda c: c.name)
def test_grid_sample(grid_batch, case):
    assert grid_batch.mismatch(case) is None, grid_batch.mismatch(case)


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("interpolate"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_interpolate(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)
