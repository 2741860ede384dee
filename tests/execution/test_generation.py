"""The generation family's kernels against OpenVINO's CPU plugin: OneHot-1/16 (axes, on and
off values of every type, negative and out-of-range indices, both negative_indices_modes),
Eye-9 (diagonals inside and outside the matrix, batch shapes, output types)."""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset8 as ov8
import openvino.opset9 as ov9
import openvino.opset16 as ov16
import pytest

from .harness import Case, parameter
from .kernel_data import DTYPES, Batches, data_of, shape_of


def one_hot_cases() -> list[Case]:
    rng = np.random.default_rng(30)
    cases = []
    for i in range(96):
        version = 1 if i % 3 == 0 else 16
        rank = int(rng.integers(0, 4))
        shape = shape_of(rng, rank)
        depth = int(rng.integers(1, 7))
        axis = int(rng.integers(-rank - 1, rank + 1))
        index_type = [np.int32, np.int64][i % 2]
        indices = rng.integers(-depth - 2, depth + 2, shape).astype(index_type)
        value_type = DTYPES[i % len(DTYPES)]
        on, off = data_of(rng, (), value_type), data_of(rng, (), value_type)
        idx = parameter(shape, index_type)
        on_node, off_node = parameter((), value_type), parameter((), value_type)
        depth_node = ov1.constant(np.array(depth, [np.int64, np.int32][i % 4 // 2]))
        if version == 1:
            node = ov1.one_hot(idx, depth_node, on_node, off_node, axis)
        else:
            mode = ("ignore_negative", "normalize")[i % 2]
            node = ov16.one_hot(idx, depth_node, on_node, off_node, axis, mode)
        feed = {idx: indices, on_node: on, off_node: off}
        cases.append(Case(f"one_hot{version}_{i}", feed, [node.output(0)], exact=True))
    return cases


EYE_TYPES = ["f32", "i32", "i64", "f16", "u8", "i8", "boolean", "f64", "bf16"]


def eye_cases() -> list[Case]:
    rng = np.random.default_rng(31)
    cases = []
    for i in range(48):
        rows, columns = int(rng.integers(0 if i % 11 == 0 else 1, 6)), int(rng.integers(1, 6))
        diagonal = int(rng.integers(-columns - 2, columns + 3))
        count_type = [np.int32, np.int64][i % 2]
        inputs: dict[Any, np.ndarray] = {}
        scalars = []
        for value in (rows, columns, diagonal):
            node = parameter((1,) if i % 3 == 0 else (), count_type)
            inputs[node] = np.array(value, count_type).reshape(node.get_output_partial_shape(0).to_shape())
            scalars.append(node)
        output_type = EYE_TYPES[i % len(EYE_TYPES)]
        if i % 2:
            batch = ov1.constant(np.array(shape_of(rng, int(rng.integers(1, 3)), hi=3), count_type))
            node = ov9.eye(*scalars, output_type, batch)
        else:
            node = ov9.eye(*scalars, output_type)
        if output_type == "bf16":  # compared through a Convert to f32 (numpy has no bf16)
            node = ov1.convert(node, "f32")
        cases.append(Case(f"eye{i}_{output_type}", inputs, [node.output(0)], exact=True))
    return cases


RANDOM_TYPES: list[Any] = [np.float32, np.float16, np.float64, np.int32, np.int64]
SEEDS = [(150, 10), (1, 0), (0, 7), (2**31 + 5, 2**40 + 3), (123456789, 987654321), (42, 42)]


def random_uniform_cases() -> list[Case]:
    rng = np.random.default_rng(32)
    cases = []
    for i in range(60):
        dtype = RANDOM_TYPES[i % len(RANDOM_TYPES)]
        alignment = ("tensorflow", "pytorch")[i // len(RANDOM_TYPES) % 2]
        global_seed, op_seed = SEEDS[i % len(SEEDS)]
        shape = shape_of(rng, int(rng.integers(1, 4)), hi=7)
        if np.dtype(dtype).kind == "f":
            low = float(np.round(rng.uniform(-10, 5), 2))
            high = low + float(np.round(rng.uniform(0.5, 20), 2))
        elif i % 7 == 0 and dtype is np.int64:  # bounds past 2**32: two words an element
            low, high = -(2**40), 2**41 + 17
        else:
            low = int(rng.integers(-100, 50))
            high = low + int(rng.integers(1, 1000))
        lo_node, hi_node = parameter((), dtype), parameter((), dtype)
        node = ov8.random_uniform(
            ov1.constant(np.array(shape, np.int64)), lo_node, hi_node,
            ov.Type(np.dtype(dtype)).get_type_name(), global_seed, op_seed, alignment,
        )  # fmt: skip
        feed = {lo_node: np.array(low, dtype), hi_node: np.array(high, dtype)}
        name = f"random_uniform{i}_{alignment}_{np.dtype(dtype).name}"
        cases.append(Case(name, feed, [node.output(0)], exact=True))
    return cases


def random_uniform_bf16_cases() -> list[Case]:
    """bf16 RandomUniform, compared through a Convert to f32 (numpy has no bf16)."""
    rng = np.random.default_rng(33)
    cases = []
    for i in range(32):
        global_seed, op_seed = SEEDS[i % len(SEEDS)]
        # min and max of shape [1]: the element-wise Convert of a scalar to bf16 gives [1] (its bug)
        lo_node, hi_node = (ov1.convert(parameter((1,), np.float32), "bf16") for _ in range(2))
        alignment = ("tensorflow", "pytorch")[i % 2]
        shape = shape_of(rng, 2, hi=6)
        node = ov8.random_uniform(
            ov1.constant(np.array(shape, np.int64)), lo_node, hi_node, "bf16", global_seed, op_seed, alignment
        )
        feed = {
            lo_node.input_value(0).get_node(): np.array([-1.5 * i], np.float32),
            hi_node.input_value(0).get_node(): np.array([2.0 + i], np.float32),
        }
        as_f32 = ov1.convert(node, "f32")
        cases.append(Case(f"random_uniform_bf16_{i}_{alignment}", feed, [as_f32.output(0)], exact=True))
    return cases


CASES = {
    "one_hot": one_hot_cases(),
    "eye": eye_cases(),
    "random_uniform": random_uniform_cases(),
    "random_uniform_bf16": random_uniform_bf16_cases(),
}
ALL = [(name, case) for name, cases in CASES.items() for case in cases]


@pytest.fixture(scope="module")
def batches(tmp_path_factory: pytest.TempPathFactory) -> Batches:
    return Batches(CASES, tmp_path_factory)


@pytest.mark.parametrize(("suite", "case"), ALL, ids=[case.name for _, case in ALL])
def test_kernel_matches_openvino(batches: Batches, suite: str, case: Case) -> None:
    problem = batches[suite].mismatch(case)
    assert problem is None, problem


def test_random_uniform_without_seeds_differs_from_run_to_run(tmp_path: Any) -> None:
    """Global and op seed 0: each run draws its own sequence (OpenVINO's too), within [min, max)."""
    from irshape.execute.network import execute
    from irshape.ir.reader import read_file

    low, high = parameter((), np.float32), parameter((), np.float32)
    node = ov8.random_uniform(ov1.constant(np.array([64], np.int64)), low, high, "f32", 0, 0)
    low.set_friendly_name("low")
    high.set_friendly_name("high")
    xml = tmp_path / "seedless.xml"
    ov.save_model(ov.Model([node.output(0)], [low, high]), xml)
    document = read_file(xml).document
    assert document is not None
    feed = {"low": np.array(-2, np.float32), "high": np.array(3, np.float32)}
    first, second = (next(iter(execute(document, feed).results.values())) for _ in range(2))
    for values in (first, second):
        assert values.dtype == np.float32 and values.shape == (64,)
        assert np.all((values >= -2) & (values < 3))
    assert not np.array_equal(first, second)
