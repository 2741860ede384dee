"""OneHot-1/16, Eye-9, RandomUniform-8 and Multinomial-13 against OpenVINO (read_model of saved
files). OneHot: indices of ranks 0..4 (static, ``?``, interval, dynamic rank), every axis in range, the depth a Const of several integer
types, a Parameter, or a ShapeOf -> Gather of a dim (its bounds: ``2..8``), on and off values
Consts or Parameters of several types. Mutants read_model rejects (an axis out of range, a
negative depth, real indices or depth, on and off values of different types, a depth, on or off
value that is not a scalar) are errors on the layer; a declared dim off by one is IRS301/IRS302.
Multinomial: probs of every shape style and real type, num_samples a Const of several integer
types (-1 is ``?``, -2 is 0), a Parameter, or a dim of a shape (its bounds), every convert_type
mode; its mutants: probs not of rank 2 or not real, num_samples not integral or of two elements,
attributes OpenVINO cannot read."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset8 as ov8
import openvino.opset9 as ov9
import openvino.opset13 as ov13
import openvino.opset16 as ov16
import pytest
from lxml import etree

import irshape

from .conftest import STATS
from .family_suite import (
    Mutant,
    check_dim_mutant,
    check_mutant,
    check_valid,
    draw_cases,
    named_inputs,
    set_attribute,
    set_input_shape,
    set_input_type,
    shape,
)
from .ops_harness import OpCase, OpsBatchRunner, batches, constant, is_static, parameter, params, save_batch

SEED = 20261125
PER_OP = 120
INDEX_TYPES = (np.int64, np.int32, np.int32, np.uint8, np.int8)
DEPTH_TYPES = (np.int64, np.int32, np.uint8, np.int16, np.uint64)
VALUE_TYPES = (np.float32, np.float16, np.int32, np.int64)


def _depth(rng: random.Random) -> Callable[[], ov.Node]:
    """A Const of some integer type, a scalar Parameter, or a dim of a Parameter's shape (its
    value known, or only its bounds)."""
    pick = rng.random()
    value = rng.randint(0, 9)
    if pick < 0.5:
        depth_type = rng.choice(DEPTH_TYPES)
        return lambda: constant(value, depth_type)
    if pick < 0.65:
        depth_shape = shape(rng, [], rng.choice(["static", "rank"]))
        return lambda: parameter(depth_shape, rng.choice([np.int64, np.int32]))
    dims = [value, rng.randint(1, 4)]
    source = shape(rng, dims, rng.choice(["static", "interval", "dynamic"]))
    return lambda: ov8.gather(ov1.shape_of(parameter(source)), constant(0), constant(0))


def _on_off(rng: random.Random) -> tuple[Callable[[], ov.Node], Callable[[], ov.Node]]:
    value_type = rng.choice(VALUE_TYPES)
    if rng.random() < 0.8:
        return (lambda: constant(1, value_type)), (lambda: constant(0, value_type))
    scalar = shape(rng, [], rng.choice(["static", "rank"]))
    return (lambda: parameter(scalar, value_type)), (lambda: parameter(scalar, value_type))


def draw_one_hot(version: int) -> Callable[[random.Random], Callable[[], ov.Node]]:
    def draw(rng: random.Random) -> Callable[[], ov.Node]:
        rank = rng.randint(0, 4)
        indices = shape(rng, [rng.randint(1, 5) for _ in range(rank)])
        index_type = rng.choice(INDEX_TYPES)
        axis = rng.randint(-rank - 1, rank)
        depth = _depth(rng)
        on, off = _on_off(rng)
        mode = rng.choice(["ignore_negative", "normalize"])

        def build() -> ov.Node:
            args = (parameter(indices, index_type), depth(), on(), off())
            if version == 1:
                return ov1.one_hot(*args, axis)
            return ov16.one_hot(*args, axis, negative_indices_mode=mode)

        return build

    return draw


EYE_TYPES = ("f32", "f16", "i32", "i64", "u8", "boolean", "bf16")


def _eye_dim(rng: random.Random) -> Callable[[], ov.Node]:
    """num_rows or num_columns: a Const (a scalar or of one element), a Parameter, or a dim of
    a Parameter's shape (known, or only its bounds)."""
    pick, value, index_type = rng.random(), rng.randint(0, 6), rng.choice([np.int64, np.int32])
    if pick < 0.5:
        scalar = rng.random() < 0.7
        return lambda: constant(value if scalar else [value], index_type)
    if pick < 0.7:
        dims = rng.choice([[], [1]])
        source = shape(rng, dims, rng.choice(["static", "dynamic", "rank"]))
        return lambda: parameter(source, index_type)
    source = shape(rng, [value, 2], rng.choice(["static", "interval", "dynamic"]))
    return lambda: ov8.gather(ov1.shape_of(parameter(source), "i64"), constant([0]), constant(0))


def _eye_batch(rng: random.Random) -> Callable[[], ov.Node] | None:
    """No batch_shape, a Const (a -1 in it is ``?``), a Parameter of any length, or a ShapeOf
    (its bounds)."""
    pick, length = rng.random(), rng.randint(0, 3)
    if pick < 0.2:
        return None
    if pick < 0.55:
        values = [rng.choice([rng.randint(0, 4), -1]) for _ in range(length)]
        batch_type = rng.choice([np.int64, np.int32])
        return lambda: constant(values, batch_type)
    if pick < 0.8:
        batch_shape = shape(rng, [length])
        return lambda: parameter(batch_shape, rng.choice([np.int64, np.int32]))
    source = shape(
        rng, [rng.randint(1, 5) for _ in range(length)], rng.choice(["static", "interval", "dynamic"])
    )
    return lambda: ov1.shape_of(parameter(source), rng.choice(["i64", "i32"]))


def draw_eye(rng: random.Random) -> Callable[[], ov.Node]:
    rows, columns, batch = _eye_dim(rng), _eye_dim(rng), _eye_batch(rng)
    index = rng.randint(-5, 5)
    const_diagonal, output_type = rng.random() < 0.7, rng.choice(EYE_TYPES)

    def build() -> ov.Node:
        diagonal = constant(index) if const_diagonal else parameter([], np.int32)
        if batch is None:
            return ov9.eye(rows(), columns(), diagonal, output_type)
        return ov9.eye(rows(), columns(), diagonal, output_type, batch())

    return build


RANDOM_TYPES = {"f32": np.float32, "f16": np.float16, "f64": np.float64, "i32": np.int32, "i64": np.int64}


def _random_shape(rng: random.Random) -> Callable[[], ov.Node]:
    """output_shape: a Const (a -1 in it is ``?``), a Parameter of any length, or a ShapeOf (its
    bounds)."""
    pick, length = rng.random(), rng.randint(0, 4)
    if pick < 0.45:
        values = [rng.choice([rng.randint(0, 5), rng.randint(0, 5), -1]) for _ in range(length)]
        shape_type = rng.choice([np.int64, np.int32])
        return lambda: constant(values, shape_type)
    if pick < 0.7:
        target = shape(rng, [length])
        return lambda: parameter(target, rng.choice([np.int64, np.int32]))
    source = shape(
        rng, [rng.randint(1, 5) for _ in range(length)], rng.choice(["static", "interval", "dynamic"])
    )
    return lambda: ov1.shape_of(parameter(source), rng.choice(["i64", "i32"]))


def draw_random_uniform(rng: random.Random) -> Callable[[], ov.Node]:
    target = _random_shape(rng)
    output_type = rng.choice(list(RANDOM_TYPES))
    value_type = RANDOM_TYPES[output_type]
    low, high = rng.randint(-3, 2), rng.randint(3, 9)
    as_consts, one = rng.random() < 0.7, rng.random() < 0.3
    bound_shape = shape(rng, [1] if one else [], rng.choice(["static", "dynamic", "rank"]))
    alignment = rng.choice(["tensorflow", "pytorch"])
    seeds = rng.randint(0, 99), rng.randint(0, 99)

    def build() -> ov.Node:
        if as_consts:
            bounds = [constant([v] if one else v, value_type) for v in (low, high)]
        else:
            bounds = [parameter(bound_shape, value_type) for _ in range(2)]
        return ov8.random_uniform(target(), *bounds, output_type, *seeds, alignment)

    return build


PROBS_TYPES = (np.float32, np.float32, np.float16, np.float64)
SAMPLES_TYPES = (np.int64, np.int32, np.uint8, np.int16, np.uint64)


def _num_samples(rng: random.Random) -> Callable[[], ov.Node]:
    """A Const (a scalar or of one element; -1 reads as ``?``, -2 as 0), a Parameter (scalar,
    ``[1]``, ``[?]`` or of dynamic rank), or a dim of a Parameter's shape (its value known, or
    only its bounds: ``2..8``, ``0..?``)."""
    pick, value = rng.random(), rng.choice([rng.randint(0, 9), rng.randint(0, 9), -1, -2])
    if pick < 0.45:
        samples_type = rng.choice(SAMPLES_TYPES) if value >= 0 else rng.choice([np.int64, np.int32])
        scalar = rng.random() < 0.5
        return lambda: constant(value if scalar else [value], samples_type)
    if pick < 0.65:
        dims = rng.choice([[], [1]])
        source = shape(rng, dims, rng.choice(["static", "dynamic", "rank"]))
        return lambda: parameter(source, rng.choice([np.int64, np.int32]))
    dims = [abs(value), rng.randint(1, 4)]
    source = shape(rng, dims, rng.choice(["static", "interval", "dynamic"]))
    if rng.random() < 0.5:
        return lambda: ov8.gather(ov1.shape_of(parameter(source)), constant(0), constant(0))
    return lambda: ov8.gather(ov1.shape_of(parameter(source), "i32"), constant([0]), constant(0))


def draw_multinomial(rng: random.Random) -> Callable[[], ov.Node]:
    probs = shape(rng, [rng.randint(1, 6), rng.randint(1, 9)])
    probs_type = rng.choice(PROBS_TYPES)
    samples = _num_samples(rng)
    convert_type = rng.choice(["i32", "i64", "i64", "i32", "f32", "u8"])
    with_replacement, log_probs = rng.random() < 0.5, rng.random() < 0.5
    seeds = rng.choice([(0, 0), (rng.randint(0, 99), rng.randint(0, 99))])

    def build() -> ov.Node:
        return ov13.multinomial(
            parameter(probs, probs_type), samples(), convert_type, with_replacement, log_probs, *seeds
        )

    return build


DRAWS = {
    "OneHot-1": draw_one_hot(1),
    "OneHot-16": draw_one_hot(16),
    "Eye-9": draw_eye,
    "RandomUniform-8": draw_random_uniform,
    "Multinomial-13": draw_multinomial,
}


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, draw) in zip(("oh", "oi", "ey", "ru", "mn"), DRAWS.items(), strict=True):
        cases += draw_cases(prefix, op, draw, rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["generation cases (tests/differential/test_generation.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"generation{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"generation{index}", BATCHES[index], tmp_path)


def test_the_cases_span_the_rules() -> None:
    """OneHot: depths known by value, by bounds only, and not at all; every output rank 1..5.
    RandomUniform: output shapes static, with ``?``, intervals, and of dynamic rank."""
    one_hot = [case.build() for case in CASES if case.op.startswith("OneHot")]
    kinds = {node.input_value(1).get_node().get_type_name() for node in one_hot}
    assert kinds == {"Constant", "Parameter", "Gather"}
    ranks = {
        node.get_output_partial_shape(0).rank.get_length()
        for node in one_hot
        if node.get_output_partial_shape(0).rank.is_static
    }
    assert ranks == {1, 2, 3, 4, 5}
    random = [str(case.build().get_output_partial_shape(0)) for case in CASES if case.op == "RandomUniform-8"]
    assert any(is_static(s) and s != "[]" for s in random) and "[]" in random and "[...]" in random
    assert any("?" in s for s in random) and any(".." in s.replace("[...]", "") for s in random)
    sampled = [case.build() for case in CASES if case.op == "Multinomial-13"]
    samples = {str(node.get_output_partial_shape(0)).strip("[]").rpartition(",")[2] for node in sampled}
    assert {"0", "3", "?", "..."} <= samples and any(".." in s for s in samples - {"..."}), samples
    sources = {node.input_value(1).get_node().get_type_name() for node in sampled}
    assert sources == {"Constant", "Parameter", "Gather"}


# --- mutants --------------------------------------------------------------------------------


def _one_hot(version: int, depth: Any = None, axis: int = -1) -> Callable[[], ov.Node]:
    """OneHot of Parameters named m_in0 (indices [2, 3] i64), m_in1 (depth, unless a Const
    value is given), m_in2 and m_in3 (on and off values, f32 scalars)."""

    def build() -> ov.Node:
        indices = parameter([2, 3], np.int64)
        on, off = parameter([], np.float32), parameter([], np.float32)
        if depth is None:
            indices, depth_node, on, off = named_inputs(indices, parameter([], np.int64), on, off)
        else:
            indices, on, off = named_inputs(indices, on, off)
            depth_node = constant(depth, np.int64)
        if version == 1:
            return ov1.one_hot(indices, depth_node, on, off, axis)
        return ov16.one_hot(indices, depth_node, on, off, axis)

    return build


MUTANTS = [
    mutant
    for version in (1, 16)
    for mutant in (
        Mutant(f"v{version} axis past the end", _one_hot(version), set_attribute("axis", "3"), "IRS112"),
        Mutant(f"v{version} axis before the start", _one_hot(version), set_attribute("axis", "-4"), "IRS112"),
        Mutant(f"v{version} real indices", _one_hot(version), set_input_type(0, "f32", "FP32"), "IRS213"),
        Mutant(f"v{version} real depth", _one_hot(version), set_input_type(1, "f32", "FP32"), "IRS213"),
        Mutant(f"v{version} on and off types", _one_hot(version), set_input_type(3, "f16", "FP16"), "IRS213"),
        Mutant(f"v{version} depth of shape [1]", _one_hot(version), set_input_shape(1, [1]), "IRS212"),
        Mutant(f"v{version} on_value of shape [2]", _one_hot(version), set_input_shape(2, [2]), "IRS212"),
        Mutant(f"v{version} off_value of rank 2", _one_hot(version), set_input_shape(3, [1, 1]), "IRS212"),
    )
]


def _eye() -> ov.Node:
    """Eye of Parameters m_in0..m_in3 (num_rows, num_columns, diagonal_index scalars, batch_shape
    [2]), all i64."""
    inputs = named_inputs(*(parameter([], np.int64) for _ in range(3)), parameter([2], np.int64))
    return ov9.eye(*inputs[:3], "f32", inputs[3])


MUTANTS += [
    Mutant("eye real num_rows", _eye, set_input_type(0, "f32", "FP32"), "IRS213"),
    Mutant("eye u8 num_columns", _eye, set_input_type(1, "u8", "U8"), "IRS213"),
    Mutant("eye i8 diagonal_index", _eye, set_input_type(2, "i8", "I8"), "IRS213"),
    Mutant("eye u64 batch_shape", _eye, set_input_type(3, "u64", "U64"), "IRS213"),
    Mutant("eye num_rows of two elements", _eye, set_input_shape(0, [2]), "IRS212"),
    Mutant("eye num_columns of rank 2", _eye, set_input_shape(1, [1, 1]), "IRS211"),
    Mutant("eye diagonal_index of no element", _eye, set_input_shape(2, [0]), "IRS212"),
    Mutant("eye batch_shape a scalar", _eye, set_input_shape(3, []), "IRS211"),
    Mutant("eye batch_shape of rank 2", _eye, set_input_shape(3, [1, 2]), "IRS211"),
]


def _random_uniform() -> ov.Node:
    """RandomUniform of Parameters m_in0 (output_shape [3], i64), m_in1 and m_in2 (min_val and
    max_val, f32 scalars)."""
    inputs = named_inputs(parameter([3], np.int64), parameter([], np.float32), parameter([], np.float32))
    return ov8.random_uniform(*inputs, "f32")


MUTANTS += [
    Mutant("random real output_shape", _random_uniform, set_input_type(0, "f32", "FP32"), "IRS213"),
    Mutant("random u8 output_shape", _random_uniform, set_input_type(0, "u8", "U8"), "IRS213"),
    Mutant("random output_shape scalar", _random_uniform, set_input_shape(0, []), "IRS211"),
    Mutant("random output_shape 2D", _random_uniform, set_input_shape(0, [1, 3]), "IRS211"),
    Mutant("random min and max types", _random_uniform, set_input_type(2, "f16", "FP16"), "IRS213"),
    Mutant("random output_type f16", _random_uniform, set_attribute("output_type", "f16"), "IRS213"),
    Mutant("random output_type u8", _random_uniform, set_attribute("output_type", "u8"), "IRS213"),
    Mutant("random min of two", _random_uniform, set_input_shape(1, [2]), "IRS212"),
    Mutant("random max of rank 2", _random_uniform, set_input_shape(2, [1, 1]), "IRS212"),
    Mutant("random alignment numpy", _random_uniform, set_attribute("alignment", "numpy"), "IRS112"),
    Mutant("random seed past int64", _random_uniform, set_attribute("op_seed", "18446744073709551615")),
]


def _multinomial() -> ov.Node:
    """Multinomial of Parameters m_in0 (probs [2, 5] f32) and m_in1 (num_samples [1] i64)."""
    inputs = named_inputs(parameter([2, 5], np.float32), parameter([1], np.int64))
    return ov13.multinomial(*inputs, "i64", False, False, 3, 4)


MUTANTS += [
    Mutant("multinomial probs of rank 1", _multinomial, set_input_shape(0, [5]), "IRS211"),
    Mutant("multinomial probs of rank 3", _multinomial, set_input_shape(0, [2, 5, 1]), "IRS211"),
    Mutant("multinomial i32 probs", _multinomial, set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant("multinomial boolean probs", _multinomial, set_input_type(0, "boolean", "BOOL"), "IRS213"),
    Mutant("multinomial f32 num_samples", _multinomial, set_input_type(1, "f32", "FP32"), "IRS213"),
    Mutant("multinomial boolean num_samples", _multinomial, set_input_type(1, "boolean", "BOOL"), "IRS213"),
    Mutant("multinomial num_samples of two", _multinomial, set_input_shape(1, [2]), "IRS212"),
    Mutant("multinomial num_samples of none", _multinomial, set_input_shape(1, [0]), "IRS212"),
    Mutant("multinomial num_samples of rank 2", _multinomial, set_input_shape(1, [1, 1]), "IRS212"),
    Mutant("multinomial convert_type f33", _multinomial, set_attribute("convert_type", "f33")),
    Mutant("multinomial seed past int64", _multinomial, set_attribute("global_seed", "18446744073709551615")),
    Mutant("multinomial seed not a number", _multinomial, set_attribute("op_seed", "seed")),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


@pytest.mark.parametrize("version", (1, 16))
def test_a_negative_depth_is_an_error(tmp_path: Path, version: int) -> None:
    """OpenVINO's builder refuses a negative depth: the saved Const's bytes are rewritten."""
    xml = tmp_path / "neg.xml"
    save_batch([OpCase("m0", f"OneHot-{version}", _one_hot(version, depth=3))], xml)
    (const,) = etree.parse(str(xml)).xpath("//layer[@type='Const']")
    offset = int(const.find("data").get("offset"))
    data = bytearray(xml.with_suffix(".bin").read_bytes())
    data[offset : offset + 8] = np.int64(-3).tobytes()
    xml.with_suffix(".bin").write_bytes(bytes(data))
    assert "can't be negative" in str(_rejection(xml))
    errors = [d for d in irshape.check_file(xml).errors if d.layer_name == "m0"]
    assert {d.code for d in errors} == {"IRS214"}


@pytest.mark.parametrize(("port", "batch"), [(0, False), (1, False), (1, True)])
def test_a_negative_eye_dim_is_an_error(tmp_path: Path, port: int, batch: bool) -> None:
    """num_rows and num_columns are read in [0, INT64_MAX]: a Const of -2 fails (the builder
    refuses it too: the saved bytes are rewritten). A -2 in batch_shape does not (it is 0)."""

    def build() -> ov.Node:
        dims = [constant(3), constant(4), constant(0)]
        return ov9.eye(*dims, "f32", constant([5])) if batch else ov9.eye(*dims, "f32")

    xml = tmp_path / "neg.xml"
    save_batch([OpCase("m0", "Eye-9", build)], xml)
    consts = etree.parse(str(xml)).xpath("//layer[@type='Const']")
    offset = int(consts[port].find("data").get("offset"))
    data = bytearray(xml.with_suffix(".bin").read_bytes())
    data[offset : offset + 8] = np.int64(-2).tobytes()
    xml.with_suffix(".bin").write_bytes(bytes(data))
    assert "Value -2 not in range [0:" in str(_rejection(xml))
    errors = [d for d in irshape.check_file(xml).errors if d.layer_name == "m0"]
    assert {d.code for d in errors} == {"IRS214"}


def test_a_negative_batch_dim_is_zero(tmp_path: Path) -> None:
    xml = tmp_path / "batch.xml"
    save_batch(
        [
            OpCase(
                "m0", "Eye-9", lambda: ov9.eye(constant(3), constant(4), constant(0), "f32", constant([5, 2]))
            )
        ],
        xml,
    )
    consts = etree.parse(str(xml)).xpath("//layer[@type='Const']")
    offset = int(consts[3].find("data").get("offset"))
    data = bytearray(xml.with_suffix(".bin").read_bytes())
    data[offset : offset + 8] = np.int64(-2).tobytes()
    xml.with_suffix(".bin").write_bytes(bytes(data))
    (eye,) = [n for n in ov.Core().read_model(str(xml)).get_ops() if n.get_friendly_name() == "m0"]
    assert str(eye.get_output_partial_shape(0)) == "[0,2,3,4]"
    (layer,) = [layer for layer in irshape.check_file(xml).layers if layer.name == "m0"]
    assert [str(s) for s in layer.outputs] == ["[0,2,3,4]"]


@pytest.mark.parametrize(("low", "high"), [(2.0, 2.0), (3.0, -1.0), (math.nan, 1.0)])
def test_min_not_below_max_is_an_error(tmp_path: Path, low: float, high: float) -> None:
    """min_val < max_val when both are Consts (NaN fails it); the builder refuses them too: the
    saved bytes are rewritten."""
    xml = tmp_path / "minmax.xml"

    def build() -> ov.Node:
        return ov8.random_uniform(constant([2]), constant(0.0, np.float32), constant(1.0, np.float32), "f32")

    save_batch([OpCase("m0", "RandomUniform-8", build)], xml)
    consts = etree.parse(str(xml)).xpath("//layer[@type='Const']")
    data = bytearray(xml.with_suffix(".bin").read_bytes())
    for const, value in zip(consts[1:], (low, high), strict=True):
        offset = int(const.find("data").get("offset"))
        data[offset : offset + 4] = np.float32(value).tobytes()
    xml.with_suffix(".bin").write_bytes(bytes(data))
    assert "Min value must be less than max value" in str(_rejection(xml))
    errors = [d for d in irshape.check_file(xml).errors if d.layer_name == "m0"]
    assert {d.code for d in errors} == {"IRS214"}


def _rejection(xml: Path) -> str | None:
    try:
        ov.Core().read_model(str(xml))
    except Exception as exc:  # OpenVINO's own exception types
        return str(exc)
    return None
