"""The embedding family against OpenVINO (read_model of saved files): EmbeddingBagOffsetsSum-3,
EmbeddingBagOffsets-15, EmbeddingBagPackedSum-3, EmbeddingBagPacked-15, EmbeddingSegmentsSum-3
with and without their optional inputs, sum and mean, tables of rank 1 to 4 and f32, f16, i32
element types, i32 and i64 indices, inputs static, ``?``, interval or of dynamic rank;
num_segments from a Const, a Parameter (``?``: IRS306) or a ShapeOf subgraph (its bounds).
Mutants read_model rejects (index types, ranks, shapes that differ, weights with mean) are
errors on the layer; a declared dim off by one is IRS301."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset3 as ov3
import openvino.opset15 as ov15
import pytest

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
from .ops_harness import OpCase, OpsBatchRunner, batches, parameter, params

SEED = 20261127
TABLE_TYPES = [np.float32, np.float32, np.float16, np.int32]


def _table(rng: random.Random) -> Callable[[], ov.Node]:
    dims = [rng.randint(1, 9)] + [rng.randint(1, 4) for _ in range(rng.randint(0, 3))]
    table_shape, table_type = shape(rng, dims), rng.choice(TABLE_TYPES)
    return lambda: parameter(table_shape, table_type)


def draw_offsets(version: int) -> Callable[[random.Random], Callable[[], ov.Node]]:
    def draw(rng: random.Random) -> Callable[[], ov.Node]:
        index_type = rng.choice([np.int32, np.int64])
        count, bags = rng.randint(1, 8), rng.randint(1, 5)
        inputs = rng.randint(3, 5)
        reduction = "mean" if version == 15 and inputs < 5 and rng.random() < 0.5 else "sum"
        index_shapes = [shape(rng, [count]), shape(rng, [bags]), shape(rng, []), shape(rng, [count])]
        make_table = _table(rng)

        def build() -> ov.Node:
            table = make_table()
            args = [parameter(s, index_type) for s in index_shapes[: min(inputs, 4) - 1]]
            if inputs == 5:
                args.append(parameter(index_shapes[3], table.get_output_element_type(0)))
            if version == 3:
                return ov3.embedding_bag_offsets_sum(table, *args)
            return ov15.embedding_bag_offsets(table, *args, reduction=reduction)

        return build

    return draw


def draw_packed(version: int) -> Callable[[random.Random], Callable[[], ov.Node]]:
    def draw(rng: random.Random) -> Callable[[], ov.Node]:
        index_type = rng.choice([np.int32, np.int64])
        dims = [rng.randint(1, 5), rng.randint(1, 4)]
        weighted = rng.random() < 0.5
        reduction = "mean" if version == 15 and not weighted and rng.random() < 0.5 else "sum"
        index_shape, weight_shape = shape(rng, dims), shape(rng, dims)
        make_table = _table(rng)

        def build() -> ov.Node:
            table = make_table()
            args = [parameter(index_shape, index_type)]
            if weighted:
                args.append(parameter(weight_shape, table.get_output_element_type(0)))
            if version == 3:
                return ov3.embedding_bag_packed_sum(table, *args)
            return ov15.embedding_bag_packed(table, *args, reduction=reduction)

        return build

    return draw


def _num_segments(rng: random.Random, index_type: type) -> Callable[[], ov.Output]:
    style = rng.choice(["const", "const", "parameter", "shapeof"])
    value = rng.randint(0, 6)
    if style == "const":
        return lambda: ov3.constant(np.array(value, index_type)).output(0)
    if style == "parameter":
        return lambda: parameter([], index_type).output(0)
    # the length of a Parameter's axis: its bounds
    source = shape(rng, [value])

    def computed() -> ov.Output:
        length = ov3.shape_of(parameter(source, np.float32), "i64" if index_type == np.int64 else "i32")
        return ov3.squeeze(length, ov3.constant(np.array([0], np.int64))).output(0)

    return computed


def draw_segments(rng: random.Random) -> Callable[[], ov.Node]:
    index_type = rng.choice([np.int32, np.int64])
    count, inputs = rng.randint(1, 8), rng.randint(4, 6)
    index_shape, ids_shape, weight_shape = shape(rng, [count]), shape(rng, [count]), shape(rng, [count])
    segments = _num_segments(rng, index_type)
    make_table, default = _table(rng), rng.randint(-1, 0)

    def build() -> ov.Node:
        table = make_table()
        args = [parameter(index_shape, index_type), parameter(ids_shape, index_type), segments()]
        if inputs >= 5:
            args.append(ov3.constant(np.array(default, index_type)).output(0))
        if inputs == 6:
            args.append(parameter(weight_shape, table.get_output_element_type(0)).output(0))
        return ov3.embedding_segments_sum(table, *args)

    return build


OPS = {
    "EmbeddingBagOffsetsSum-3": draw_offsets(3),
    "EmbeddingBagOffsets-15": draw_offsets(15),
    "EmbeddingBagPackedSum-3": draw_packed(3),
    "EmbeddingBagPacked-15": draw_packed(15),
    "EmbeddingSegmentsSum-3": draw_segments,
}
CASES = [
    case
    for index, (op, draw) in enumerate(OPS.items())
    for case in draw_cases(f"em{index}_", op, draw, random.Random(f"{SEED}-{op}"), 110)
]
BATCHES = batches(CASES)
STATS["embedding cases (tests/differential/test_embedding.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"embedding{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"embedding{index}", BATCHES[index], tmp_path)


def _offsets(reduction: str | None = None, weighted: bool = True) -> Callable[[], ov.Node]:
    def build() -> ov.Node:
        table, indices, offsets, default, weights = named_inputs(
            parameter([10, 3]), parameter([6], np.int32), parameter([3], np.int32),
            parameter([], np.int32), parameter([6]),
        )  # fmt: skip
        args = [table, indices, offsets, default] + ([weights] if weighted else [])
        if reduction is None:
            return ov3.embedding_bag_offsets_sum(*args)
        return ov15.embedding_bag_offsets(*args, reduction=reduction)

    return build


def _packed(version: int = 3) -> Callable[[], ov.Node]:
    def build() -> ov.Node:
        table, indices, weights = named_inputs(
            parameter([10, 3]), parameter([4, 2], np.int64), parameter([4, 2])
        )
        if version == 3:
            return ov3.embedding_bag_packed_sum(table, indices, weights)
        return ov15.embedding_bag_packed(table, indices, weights)

    return build


def _segments() -> ov.Node:
    table, indices, ids, count, default, weights = named_inputs(
        parameter([10, 3]), parameter([6], np.int32), parameter([6], np.int32),
        parameter([], np.int32), parameter([], np.int32), parameter([6]),
    )  # fmt: skip
    return ov3.embedding_segments_sum(table, indices, ids, count, default, weights)


MUTANTS = [
    Mutant("offsets f32 indices", _offsets(), set_input_type(1, "f32", "FP32"), "IRS213"),
    Mutant("offsets i64 offsets", _offsets(), set_input_type(2, "i64", "I64"), "IRS213"),
    Mutant("offsets u8 default", _offsets(), set_input_type(3, "u8", "U8"), "IRS213"),
    Mutant("offsets f16 weights", _offsets(), set_input_type(4, "f16", "FP16"), "IRS213"),
    Mutant("offsets 2D indices", _offsets(), set_input_shape(1, [6, 1]), "IRS211"),
    Mutant("offsets 2D offsets", _offsets(), set_input_shape(2, [3, 1]), "IRS211"),
    Mutant("offsets 1D default", _offsets(), set_input_shape(3, [1]), "IRS211"),
    Mutant("offsets weights length", _offsets(), set_input_shape(4, [5]), "IRS212"),
    Mutant("offsets scalar table", _offsets(), set_input_shape(0, []), "IRS211"),
    Mutant("offsets weights with mean", _offsets("sum"), set_attribute("reduction", "mean"), "IRS212"),
    Mutant("offsets reduction max", _offsets("sum", False), set_attribute("reduction", "max"), None),
    Mutant("packed 1D indices", _packed(), set_input_shape(1, [4]), "IRS211"),
    Mutant("packed weights shape", _packed(), set_input_shape(2, [4, 3]), "IRS212"),
    Mutant("packed f32 indices", _packed(), set_input_type(1, "f32", "FP32"), "IRS213"),
    Mutant("packed weights with mean", _packed(15), set_attribute("reduction", "mean"), "IRS212"),
    Mutant("segments i64 ids", _segments, set_input_type(2, "i64", "I64"), "IRS213"),
    Mutant("segments f32 count", _segments, set_input_type(3, "f32", "FP32"), "IRS213"),
    Mutant("segments ids length", _segments, set_input_shape(2, [5]), "IRS212"),
    Mutant("segments 1D count", _segments, set_input_shape(3, [1]), "IRS211"),
    Mutant("segments 1D default", _segments, set_input_shape(4, [1]), "IRS211"),
    Mutant("segments weights length", _segments, set_input_shape(5, [7]), "IRS212"),
    Mutant("segments 2D indices", _segments, set_input_shape(1, [6, 1]), "IRS211"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
