"""The colour family's kernels against OpenVINO's CPU plugin: NV12toRGB-8, NV12toBGR-8 (one
plane, two), I420toRGB-8, I420toBGR-8 (one plane, three), u8 and f32 images with values over
the whole range and past it (clamped), NaN and infinite pixels, batched into one model. RGBtoNV12-17 and BGRtoNV12-17,
which OpenVINO cannot run, are in test_to_nv12.py."""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino.opset8 as ov8
import pytest

from .harness import Case, parameter, run_batch

TO_RGB = {
    "nv12_rgb": ov8.nv12_to_rgb,
    "nv12_bgr": ov8.nv12_to_bgr,
    "i420_rgb": ov8.i420_to_rgb,
    "i420_bgr": ov8.i420_to_bgr,
}


def _pixels(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    if dtype == np.uint8:
        return rng.integers(0, 256, shape).astype(np.uint8)
    return rng.uniform(-20, 280, shape).astype(dtype)  # past [0, 255]: clamped


def _to_rgb_case(rng: np.random.Generator, name: str, index: int) -> Case:
    n, h, w = int(rng.integers(1, 3)), 2 * int(rng.integers(1, 4)), 2 * int(rng.integers(1, 4))
    dtype = np.float32 if index % 3 == 2 else np.uint8
    if index % 2 == 0:
        planes = [(n, h * 3 // 2, w, 1)]
    elif name.startswith("nv12"):
        planes = [(n, h, w, 1), (n, h // 2, w // 2, 2)]
    else:
        planes = [(n, h, w, 1), (n, h // 2, w // 2, 1), (n, h // 2, w // 2, 1)]
    nodes = [parameter(p, dtype) for p in planes]
    feeds = {node: _pixels(rng, p, dtype) for node, p in zip(nodes, planes, strict=True)}
    return Case(f"{name}{index}", feeds, [TO_RGB[name](*nodes).output(0)])


def _edge_case(name: str, dtype: Any) -> Case:
    """NaN and infinite pixels (found by the kernel fuzzer): the plugin clamps with max(x, 0)
    then min(x, 255), so a NaN result is 0 (irshape gave NaN), +inf 255 and -inf 0."""
    values = np.array([np.nan, np.inf, -np.inf, 100.0, -0.0, 255.0], dtype)
    shape = (1, 6, 2, 1)  # one plane: Y [1, 4, 2], then its chroma
    pixels = np.resize(values, shape).astype(dtype)
    node = parameter(shape, dtype)
    return Case(f"{name}_edges_{np.dtype(dtype).name}", {node: pixels}, [TO_RGB[name](node).output(0)])


def _empty_case(name: str) -> Case:
    """An image of height 0, one plane (found by the kernel fuzzer: irshape's NV12 kernel
    refused it, 'cannot reshape array of size 0'; the plugin gives an empty image)."""
    node = parameter((3, 0, 4, 1), np.uint8)
    return Case(f"{name}_empty", {node: np.zeros((3, 0, 4, 1), np.uint8)}, [TO_RGB[name](node).output(0)])


RNG = np.random.default_rng(8)
CASES = [_to_rgb_case(RNG, name, i) for name in TO_RGB for i in range(30)]
CASES += [_edge_case(name, dtype) for name in TO_RGB for dtype in (np.float32, np.float16)]
CASES += [_empty_case(name) for name in TO_RGB]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("colour"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_to_rgb(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total
