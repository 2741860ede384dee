"""The generation family's kernels against OpenVINO's CPU plugin: OneHot-1/16 (axes, on and
off values of every type, negative and out-of-range indices, both negative_indices_modes),
Eye-9 (diagonals inside and outside the matrix, batch shapes, output types)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset8 as ov8
import openvino.opset9 as ov9
import openvino.opset13 as ov13
import openvino.opset16 as ov16
import pytest

from .harness import BF16_ON_AVX512, Case, parameter
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


def one_hot_f64_cases() -> list[Case]:
    """f64 on/off values that f32 cannot hold: the plugin holds f64 as f32, so its f64 output is
    f32's nearest (0.9565641604408422 is 0.95656418800354; found by the kernel fuzzer, where
    irshape gave the f64 value: an f64 Const)."""
    cases = []
    for i, on in enumerate([0.9565641604408422, 0.1, 1 / 3, 1e-30]):
        off = parameter((), np.float64)
        idx = parameter((1, 1), (np.uint16, np.int32)[i % 2])
        depth = ov1.constant(np.array(1, np.int64))
        # (ov.op.Constant keeps the f64 bytes; opset1.constant's f64 went through f32)
        on_node = ov.op.Constant(np.array(on, np.float64))
        node = ov16.one_hot(idx, depth, on_node, off, 2, "normalize")
        feed = {off: np.array(-3.34267537), idx: np.array([[0]], idx.get_element_type().to_dtype())}
        cases.append(Case(f"one_hot_f64_{i}", feed, [node.output(0)], exact=True))
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


def random_uniform_wide_span_cases() -> list[Case]:
    """Integer bounds whose span passes i32's maximum (found by the kernel fuzzer): the plugin's
    i32 span wraps negative and it takes each word modulo it, as C does for the Tensorflow
    alignment ([-2**31, 17): ``word % (2**31 - 17) - 2**31``) and as a floor division does for
    PyTorch's (``word % -(2**31 - 17) - 2**31``, in ``(span, 0]``); irshape took each word
    modulo 2**31 + 17."""
    cases = []
    spans = [(-(2**31), 17), (-5, 2**31 - 1), (-(2**30), 2**30 + 5), (-(2**31), 0), (-(2**31), 2**31 - 2)]
    for i, ((low, high), alignment) in enumerate(itertools.product(spans, ("tensorflow", "pytorch"))):
        for dtype in (np.int32, np.int64):
            lo_node, hi_node = parameter((), dtype), parameter((), dtype)
            global_seed, op_seed = SEEDS[i % len(SEEDS)]
            node = ov8.random_uniform(
                ov1.constant(np.array([3, 7], np.int64)), lo_node, hi_node,
                ov.Type(np.dtype(dtype)).get_type_name(), global_seed, op_seed, alignment,
            )  # fmt: skip
            feed = {lo_node: np.array(low, dtype), hi_node: np.array(high, dtype)}
            name = f"random_uniform_wide{i}_{alignment}_{np.dtype(dtype).name}"
            cases.append(Case(name, feed, [node.output(0)], exact=True))
    # i64 Consts past i32, the plugin's saturated (the kernel wrapped them: 2**41 + 17 was 17)
    for i, (low, high) in enumerate([(-(2**40), 2**41 + 17), (-(2**40), 5), (3, 2**33)]):
        x = parameter((), np.float32)  # (a Parameter: the batch has one)
        node = ov8.random_uniform(
            ov1.constant(np.array([9], np.int64)), ov1.constant(np.array(low, np.int64)),
            ov1.constant(np.array(high, np.int64)), "i64", *SEEDS[i], "tensorflow",
        )  # fmt: skip
        feed = {x: np.array(0, np.float32)}
        cases.append(Case(f"random_uniform_const_i64_{i}", feed, [node.output(0), x.output(0)], exact=True))
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
        cases.append(
            Case(f"random_uniform_bf16_{i}_{alignment}", feed, [as_f32.output(0)], exact=BF16_ON_AVX512)
        )
    return cases


MULTINOMIAL_SEEDS = [(7, 3), (1, 0), (0, 9), (2**32 + 7, 3), (123456789, 987654321), (2**40 + 1, 2**33 + 5)]
PROBS_TYPES: list[Any] = [np.float32, np.float32, np.float16, np.float64]


def _probs(rng: np.random.Generator, batch: int, classes: int, log_probs: bool, i: int) -> np.ndarray:
    """Weights in (0, 1] (unnormalised, some rows one class heavy), some classes 0; their logs
    for log_probs (a zero weight: -inf, exp gives 0)."""
    weights = rng.random((batch, classes)) + 1e-3
    if i % 3 == 0:
        weights[rng.random((batch, classes)) < 0.3] = 0.0
    if i % 5 == 1:
        weights[:, int(rng.integers(0, classes))] += 20.0
    weights[:, int(rng.integers(0, classes))] += 0.5  # no row all zeros
    if log_probs:
        with np.errstate(divide="ignore"):
            return np.log(weights)
    return weights


def multinomial_cases() -> list[Case]:
    """With replacement up to 40 samples, without up to the count of non-zero classes."""
    rng = np.random.default_rng(34)
    cases = []
    for i in range(72):
        batch, classes = int(rng.integers(1, 5)), int(rng.integers(1, 40))
        with_replacement, log_probs = i % 2 == 0, i % 4 in (1, 2)
        probs_type = PROBS_TYPES[i % len(PROBS_TYPES)]
        data = _probs(rng, batch, classes, log_probs, i).astype(probs_type)
        positive = int(np.min(np.sum(np.exp(data) > 0 if log_probs else data > 0, axis=1)))
        samples = int(rng.integers(0 if i % 17 == 0 else 1, 41 if with_replacement else positive + 1))
        count_type = [np.int32, np.int64][i // 2 % 2]
        probs = parameter((batch, classes), probs_type)
        feed = {probs: data}
        if i % 3 == 1:
            count = parameter((1,), count_type)
            feed[count] = np.array([samples], count_type)
        else:
            count = ov1.constant(np.array(samples if i % 2 else [samples], count_type))
        convert_type = ("i32", "i64")[i // 3 % 2]
        global_seed, op_seed = MULTINOMIAL_SEEDS[i % len(MULTINOMIAL_SEEDS)]
        node = ov13.multinomial(probs, count, convert_type, with_replacement, log_probs, global_seed, op_seed)
        name = f"multinomial{i}_{'with' if with_replacement else 'without'}{'_log' if log_probs else ''}"
        cases.append(Case(name, feed, [node.output(0)], exact=True))
    return (
        cases
        + _multinomial_precision_cases(rng)
        + _multinomial_falling_cases(rng)
        + _multinomial_ties()
        + _multinomial_bf16_cases(rng)
    )


def _multinomial_bf16_cases(rng: np.random.Generator) -> list[Case]:
    """bf16 probs (found by the kernel fuzzer): the plugin's node computes in the probs' type,
    every partial sum (the exps themselves not: rounding them too fails half such cases), division,
    draw and (without replacement) update rounded to bf16;
    irshape computed in f32 and took the next class where a draw fell between the two."""
    cases = []
    for i in range(8):
        with_replacement, log_probs = i % 2 == 0, i % 4 in (1, 2)
        data = _probs(rng, 2, 60, log_probs, i).astype(np.float32)
        probs = parameter((2, 60), np.float32)
        samples = 40 if with_replacement else 20
        count = ov1.constant(np.array([samples], np.int64))
        node = ov13.multinomial(
            ov1.convert(probs, "bf16"), count, "i32", with_replacement, log_probs, *MULTINOMIAL_SEEDS[i % 6]
        )
        cases.append(Case(f"multinomial_bf16_{i}", {probs: data}, [node.output(0)], exact=True))
    return cases


def _multinomial_precision_cases(rng: np.random.Generator) -> list[Case]:
    """Many classes and many samples, so that some draws land within an f32 rounding of a cdf
    step: the f32 running sum and division decide them."""
    cases = []
    for i, (classes, samples) in enumerate([(20000, 3000), (5000, 3000), (30000, 2000)]):
        probs = parameter((2, classes), np.float32)
        data = (rng.random((2, classes)) * rng.choice([1e-3, 1.0, 7.0], (2, classes))).astype(np.float32)
        count = ov1.constant(np.array([samples], np.int64))
        node = ov13.multinomial(probs, count, "i32", True, i == 1, *MULTINOMIAL_SEEDS[i])
        cases.append(Case(f"multinomial_precision{i}", {probs: data}, [node.output(0)], exact=True))
    return cases


def _multinomial_falling_cases(rng: np.random.Generator) -> list[Case]:
    """Negative probs, with replacement: a cdf that falls (a draw may meet several classes)."""
    cases = []
    for i in range(6):
        probs = parameter((2, 6), np.float32)
        data = np.round(rng.uniform(-0.5, 1.0, (2, 6)), 2).astype(np.float32)
        data[:, -1] = 3.0  # the total stays positive: the row is still divided by it
        count = ov1.constant(np.array([30], np.int32))
        node = ov13.multinomial(probs, count, "i32", True, False, *MULTINOMIAL_SEEDS[i])
        cases.append(Case(f"multinomial_falling{i}", {probs: data}, [node.output(0)], exact=True))
    return cases


def _first_draw(global_seed: int, op_seed: int) -> tuple[np.float32, float]:
    """The first number the plugin draws for these seeds, as f32 (what it compares) and as the
    word over 2**32 - 1 in f64: to build probs whose cdf step lies exactly on it (the
    expectation is still OpenVINO's output)."""
    from irshape.kernels.generation import _mersenne_from_state, _seed_sequence_state

    (word,) = _mersenne_from_state(_seed_sequence_state((global_seed, op_seed)), 1)
    return np.float32(word) / np.float32(2**32), int(word) / (2**32 - 1)


def _multinomial_ties() -> list[Case]:
    """probs [u, 1 - u] where u is the first draw exactly (in f32; above it in f64): the draw
    is class 0, since a draw takes the first class whose cdf reaches it, compared in f32."""
    cases = []
    op_seed = 0
    while len(cases) < 4:
        op_seed += 1
        as_f32, as_f64 = _first_draw(5, op_seed)
        if not (as_f32 >= 0.5 and as_f64 > as_f32):
            continue
        probs = parameter((1, 2), np.float32)
        data = np.array([[as_f32, np.float32(1) - as_f32]], np.float32)
        with_replacement = len(cases) % 2 == 0
        node = ov13.multinomial(
            probs, ov1.constant(np.array([1], np.int64)), "i32", with_replacement, False, 5, op_seed
        )
        cases.append(Case(f"multinomial_tie{len(cases)}", {probs: data}, [node.output(0)], exact=True))
    return cases


CASES = {
    "multinomial": multinomial_cases(),
    "one_hot": one_hot_cases() + one_hot_f64_cases(),
    "eye": eye_cases(),
    "random_uniform": random_uniform_cases() + random_uniform_wide_span_cases(),
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


def test_multinomial_without_seeds_differs_from_run_to_run(tmp_path: Any) -> None:
    """Global and op seed 0: the plugin seeds its generator from the clock; irshape draws a seed
    at random, so two runs differ (and every sample is a class of non-zero probability)."""
    from irshape.execute.network import execute
    from irshape.ir.reader import read_file

    probs = parameter((2, 50), np.float32)
    probs.set_friendly_name("probs")
    node = ov13.multinomial(probs, ov1.constant(np.array([64], np.int64)), "i64", True, False, 0, 0)
    xml = tmp_path / "seedless.xml"
    ov.save_model(ov.Model([node.output(0)], [probs]), xml)
    document = read_file(xml).document
    assert document is not None
    weights = np.ones((2, 50), np.float32)
    weights[:, 25:] = 0
    first, second = (next(iter(execute(document, {"probs": weights}).results.values())) for _ in range(2))
    for samples in (first, second):
        assert samples.dtype == np.int64 and samples.shape == (2, 64)
        assert np.all((samples >= 0) & (samples < 25))
    assert not np.array_equal(first, second)
