"""FakeConvert-13's kernel against OpenVINO's CPU plugin: f8e4m3 and f8e5m2, per-tensor,
per-channel and broadcast scales, with and without shift, f32 and f16 data with values small
(subnormal in f8), ordinary, on rounding ties and past the f8 range (saturated), batched into
one model."""

from __future__ import annotations

import numpy as np
import openvino.opset13 as ov13
import pytest

from .harness import Case, parameter, run_batch

SHAPES = [((2, 3, 4), (1,)), ((2, 3, 4), (1, 3, 1)), ((2, 3, 4), (3, 4)), ((5, 6), (6,)), ((4,), ())]


def _case(rng: np.random.Generator, index: int) -> Case:
    data_shape, scale_shape = SHAPES[index % len(SHAPES)]
    dtype = np.float16 if index % 4 == 3 else np.float32
    target = ("f8e4m3", "f8e5m2")[index % 2]
    magnitude = (0.01, 1.0, 50.0, 1000.0, 1e5)[index % 5]
    with np.errstate(over="ignore"):  # 1e5 is inf in f16: the plugin and irshape agree on it
        data = (rng.standard_normal(data_shape) * magnitude).astype(dtype)
    scale = rng.uniform(0.5, 4.0, scale_shape).astype(dtype)
    nodes = [parameter(data_shape, dtype), parameter(scale_shape, dtype)]
    feeds = {nodes[0]: data, nodes[1]: scale}
    if index % 3 == 0:
        shift = parameter(scale_shape, dtype)
        feeds[shift] = rng.uniform(-2, 2, scale_shape).astype(dtype)
        nodes.append(shift)
    node = ov13.fake_convert(*nodes, destination_type=target)
    return Case(f"fake_convert{index}_{target}", feeds, [node.output(0)])


RNG = np.random.default_rng(13)
CASES = [_case(RNG, i) for i in range(60)]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("fake_convert"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_fake_convert(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total
