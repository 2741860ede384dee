"""ReverseSequence-1, SpaceToBatch-1, BatchToSpace-1 and SliceScatter-15 against OpenVINO (read_model of
saved files; ReverseSequence's shape function is in irshape/shapes/layout.py beside Reverse's,
SliceScatter's in irshape/shapes/indexing.py beside Slice's, tested here still): data of ranks 2..5 (static, ``?``, interval, dynamic rank); ReverseSequence's sequence
lengths of every numeric element type, batch and sequence axes positive and negative;
SpaceToBatch's and BatchToSpace's block_shape, pads and crops as Consts of several integer types
(negative pads too) and as Parameters; SliceScatter's start, stop, step and axes (negative,
out of range, reversed, of several integer types; Consts and Parameters), updates shaped as
numpy slices the data;
ExtractImagePatches' sizes, strides, rates and every auto_pad; Col2Im batched and not, output
and kernel sizes as Consts and Parameters, strides, dilations and pads; Unique of data of ranks
0..4 (0-length dims too), with and without an axis (a scalar or [1] Const, i32 or i64, negative),
Const data counted. Mutants read_model rejects (data of rank 1, lengths not
1D or boolean, an axis out of range, lengths that do not match the batch dim; a dim that is not
a multiple of its block, crops past the data, block or pads of the wrong type, rank or length;
updates that are not the slice, a real start, a scalar data; patches of data not 4D, of
attributes of the wrong length or zero, or auto_pad explicit; Col2Im's data of the wrong rank,
channels or block count, sizes of the wrong type or shape, a zero stride; Unique's index types
not i32 or i64, an axis out of range or of a scalar)
are errors on the layer; a declared dim off by one is IRS301/IRS302."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset2 as ov2
import openvino.opset3 as ov3
import openvino.opset10 as ov10
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
from .ops_harness import OpCase, OpsBatchRunner, batches, constant, parameter, params

SEED = 20261125
PER_OP = 110
TYPES = (np.float32, np.float32, np.float16, np.int32, np.int64, np.uint8, np.int8)


def draw_reverse_sequence(rng: random.Random) -> Callable[[], ov.Node]:
    rank = rng.randint(2, 5)
    dims = [rng.randint(1, 5) for _ in range(rank)]
    batch, seq = rng.randrange(rank), rng.randrange(rank)
    lengths_dims = [dims[batch]] if rng.random() < 0.8 else [rng.randint(1, 5)]
    data, lengths = shape(rng, dims), shape(rng, lengths_dims)
    batch_axis = batch - rank if rng.random() < 0.4 else batch
    seq_axis = seq - rank if rng.random() < 0.4 else seq
    data_type, lengths_type = rng.choice(TYPES), rng.choice(TYPES)
    return lambda: ov1.reverse_sequence(
        parameter(data, data_type), parameter(lengths, lengths_type), batch_axis, seq_axis
    )


INDEX_TYPES = (np.int64, np.int64, np.int32, np.uint8, np.int16)


def _value(rng: random.Random, values: list[int], element_type: type) -> Callable[[], ov.Node]:
    """A Const of ``values``, or (one time in five) a Parameter whose value is unknown."""
    if rng.random() < 0.2:
        return lambda: parameter([len(values)], element_type)
    return lambda: constant(values, element_type)


def draw_space_to_batch(rng: random.Random) -> Callable[[], ov.Node]:
    rank = rng.randint(2, 5)
    blocks = [rng.randint(1, 3) for _ in range(rank)]
    begin = [rng.randint(0, 2) for _ in range(rank)]
    end = [rng.randint(0, 2) for _ in range(rank)]
    if rng.random() < 0.15:  # a negative pad: Dimension(-1) is '?', lower ones clip to 0
        begin[rng.randrange(1, rank)] = -rng.randint(1, 3)
    dims = [rng.randint(1, 3)]
    for axis in range(1, rank):
        dims.append(max(1, rng.randint(1, 3) * blocks[axis] - max(0, begin[axis] + end[axis])))
    data, data_type = shape(rng, dims), rng.choice(TYPES)
    types = [rng.choice(INDEX_TYPES) for _ in range(3)]
    inputs = [_value(rng, v, t) for v, t in zip((blocks, begin, end), types, strict=True)]
    return lambda: ov2.space_to_batch(parameter(data, data_type), *(make() for make in inputs))


def draw_batch_to_space(rng: random.Random) -> Callable[[], ov.Node]:
    rank = rng.randint(2, 5)
    blocks = [rng.randint(1, 3) for _ in range(rank)]
    dims = [math.prod(blocks) * rng.randint(1, 2), *(rng.randint(1, 4) for _ in range(rank - 1))]
    begin, end = [0] * rank, [0] * rank
    for axis in range(1, rank):
        crop = rng.randint(0, dims[axis] * blocks[axis])
        begin[axis] = rng.randint(0, crop)
        end[axis] = crop - begin[axis]
    data, data_type = shape(rng, dims), rng.choice(TYPES)
    index_type = rng.choice(INDEX_TYPES)
    inputs = [_value(rng, v, index_type) for v in (blocks, begin, end)]
    return lambda: ov2.batch_to_space(parameter(data, data_type), *(make() for make in inputs))


def draw_slice_scatter(rng: random.Random) -> Callable[[], ov.Node] | None:
    rank = rng.randint(1, 4)
    dims = [rng.randint(1, 6) for _ in range(rank)]
    axes = rng.sample(range(rank), rng.randint(1, rank))
    start = [rng.randint(-8, 8) for _ in axes]
    stop = [rng.randint(-8, 8) for _ in axes]
    step = [rng.choice([1, 1, 2, 3, -1, -2]) for _ in axes]
    index = [slice(None)] * rank
    for axis, a, b, c in zip(axes, start, stop, step, strict=True):
        index[axis] = slice(a, b, c)
    updates_dims = list(np.empty(dims)[tuple(index)].shape)
    signed_axes = [a - rank if rng.random() < 0.3 else a for a in axes]
    data, updates = shape(rng, dims), shape(rng, updates_dims)
    data_type, index_type = rng.choice(TYPES), rng.choice(INDEX_TYPES[:3])
    with_axes = rng.random() < 0.7 or axes != list(range(len(axes)))
    values = [_value(rng, v, index_type) for v in (start, stop, step, signed_axes)]
    if not with_axes:
        values = values[:3]
    return lambda: ov15.slice_scatter(
        parameter(data, data_type), parameter(updates, data_type), *(make() for make in values)
    )


def draw_extract_image_patches(rng: random.Random) -> Callable[[], ov.Node]:
    dims = [rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 12), rng.randint(1, 12)]
    sizes = [rng.randint(1, 4), rng.randint(1, 4)]
    strides = [rng.randint(1, 4), rng.randint(1, 4)]
    rates = [rng.randint(1, 3), rng.randint(1, 3)]
    auto_pad = rng.choice(["valid", "same_lower", "same_upper"])
    data, data_type = shape(rng, dims), rng.choice(TYPES)
    return lambda: ov3.extract_image_patches(parameter(data, data_type), sizes, strides, rates, auto_pad)


def draw_col2im(rng: random.Random) -> Callable[[], ov.Node] | None:
    kernel = [rng.randint(1, 3), rng.randint(1, 3)]
    size = [rng.randint(1, 9), rng.randint(1, 9)]
    strides, dilations = [rng.randint(1, 3) for _ in kernel], [rng.randint(1, 2) for _ in kernel]
    begin, end = [rng.randint(0, 2) for _ in kernel], [rng.randint(0, 2) for _ in kernel]
    counts = [
        (size[d] + begin[d] + end[d] - dilations[d] * (kernel[d] - 1) - 1) // strides[d] + 1 for d in range(2)
    ]
    if min(counts) < 1:
        return None
    dims = [rng.randint(1, 3) * kernel[0] * kernel[1], counts[0] * counts[1]]
    if rng.random() < 0.6:
        dims.insert(0, rng.randint(1, 3))
    data, data_type, index_type = shape(rng, dims), rng.choice(TYPES), rng.choice([np.int32, np.int64])
    values = [_value(rng, v, index_type) for v in (size, kernel)]
    return lambda: ov15.col2im(
        parameter(data, data_type), *(make() for make in values), strides, dilations, begin, end
    )


def draw_unique(rng: random.Random) -> Callable[[], ov.Node]:
    rank = rng.randint(0, 4)
    dims = [rng.choice([0, 1, 2, 3, 4, 4]) if rng.random() < 0.15 else rng.randint(1, 4) for _ in range(rank)]
    data_type = rng.choice(TYPES)
    sorted_, index_type, count_type = (
        rng.random() < 0.5,
        rng.choice(["i64", "i32"]),
        rng.choice(["i64", "i32"]),
    )
    axis_value = rng.randrange(-rank, rank) if rank and rng.random() < 0.5 else None
    axis_shape = [] if rng.random() < 0.5 else [1]
    axis_type = rng.choice([np.int32, np.int64])
    # a Const: OpenVINO counts its unique elements (irshape: of an integer Const it reads, up to 64)
    if rng.random() < 0.25 and math.prod(dims) <= 64:
        values = np.array([rng.randint(0, 3) for _ in range(math.prod(dims))]).reshape(dims)
        const_type = rng.choice([np.int32, np.int64, np.int8])

        def data() -> ov.Node:
            return constant(values, const_type)

    else:
        data_shape = shape(rng, dims)

        def data() -> ov.Node:
            return parameter(data_shape, data_type)

    def build() -> ov.Node:
        if axis_value is None:
            return ov10.unique(data(), None, sorted_, index_type, count_type)
        axis = constant(np.array(axis_value).reshape(axis_shape), axis_type)
        return ov10.unique(data(), axis, sorted_, index_type, count_type)

    return build


DRAWS = {
    "ReverseSequence-1": draw_reverse_sequence,
    "SpaceToBatch-1": draw_space_to_batch,
    "BatchToSpace-1": draw_batch_to_space,
    "SliceScatter-15": draw_slice_scatter,
    "ExtractImagePatches-3": draw_extract_image_patches,
    "Col2Im-15": draw_col2im,
    "Unique-10": draw_unique,
}


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, draw) in zip(("rs", "sb", "bs", "sc", "ep", "ci", "un"), DRAWS.items(), strict=True):
        cases += draw_cases(prefix, op, draw, rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["rearrange cases (tests/differential/test_rearrange.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"rearrange{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"rearrange{index}", BATCHES[index], tmp_path)


def _reverse_sequence() -> ov.Node:
    data, lengths = named_inputs(parameter([2, 3, 4]), parameter([3], np.int32))
    return ov1.reverse_sequence(data, lengths, 1, 2)


def _space_to_batch(block: ov.Node | None = None) -> Callable[[], ov.Node]:
    def build() -> ov.Node:
        data, *values = named_inputs(
            parameter([2, 4, 6]), block or constant([1, 2, 3]), parameter([3], np.int64)
        )
        return ov2.space_to_batch(data, values[0], values[1], constant([0, 0, 0]))

    return build


def _batch_to_space() -> ov.Node:
    data, block = named_inputs(parameter([12, 3, 4]), parameter([3], np.int64))
    return ov2.batch_to_space(data, block, constant([0, 1, 0]), constant([0, 0, 3]))


def _batch_to_space_const() -> ov.Node:
    (data,) = named_inputs(parameter([12, 3, 4]))
    return ov2.batch_to_space(data, constant([1, 2, 3]), constant([0, 1, 0]), constant([0, 0, 3]))


def _space_to_batch_const() -> ov.Node:
    (data,) = named_inputs(parameter([2, 4, 6]))
    return ov2.space_to_batch(data, constant([1, 2, 3]), constant([0, 1, 0]), constant([0, 1, 0]))


def _slice_scatter() -> ov.Node:
    data, updates, start = named_inputs(parameter([4, 6]), parameter([4, 3]), parameter([1], np.int64))
    return ov15.slice_scatter(data, updates, start, constant([6]), constant([2]), constant([1]))


def _slice_scatter_const() -> ov.Node:
    data, updates = named_inputs(parameter([4, 6]), parameter([4, 3]))
    return ov15.slice_scatter(data, updates, constant([0]), constant([6]), constant([2]), constant([1]))


def _patches() -> ov.Node:
    (data,) = named_inputs(parameter([1, 3, 10, 10]))
    return ov3.extract_image_patches(data, [3, 3], [5, 5], [1, 1], "valid")


def _col2im() -> ov.Node:
    data, size, kernel = named_inputs(parameter([3, 12, 9]), constant([4, 4]), parameter([2], np.int64))
    return ov15.col2im(data, size, kernel)


def _col2im_const() -> ov.Node:
    (data,) = named_inputs(parameter([3, 12, 9]))
    return ov15.col2im(data, constant([4, 4]), constant([2, 2]))


def _unique() -> ov.Node:
    (data,) = named_inputs(parameter([2, 3, 4]))
    return ov10.unique(data, constant(1), True, "i64", "i64")


MUTANTS = [
    Mutant("unique index f32", _unique, set_attribute("index_element_type", "f32"), "IRS112"),
    Mutant("unique index u8", _unique, set_attribute("index_element_type", "u8"), "IRS112"),
    Mutant("unique count i8", _unique, set_attribute("count_element_type", "i8"), "IRS112"),
    Mutant("unique axis out of range", _unique, set_input_shape(0, [6]), "IRS212"),
    Mutant("unique axis of a scalar", _unique, set_input_shape(0, []), "IRS212"),
    Mutant("col2im data rank 4", _col2im_const, set_input_shape(0, [1, 3, 12, 9]), "IRS211"),
    Mutant("col2im data rank 1", _col2im_const, set_input_shape(0, [12]), "IRS211"),
    Mutant("col2im channels", _col2im_const, set_input_shape(0, [3, 10, 9]), "IRS212"),
    Mutant("col2im blocks", _col2im_const, set_input_shape(0, [3, 12, 8]), "IRS212"),
    Mutant("col2im unbatched blocks", _col2im_const, set_input_shape(0, [12, 10]), "IRS212"),
    Mutant("col2im strides 0", _col2im_const, set_attribute("strides", "0,1"), "IRS112"),
    Mutant("col2im dilations", _col2im_const, set_attribute("dilations", "2,1"), "IRS212"),
    Mutant("col2im kernel i32", _col2im, set_input_type(2, "i32", "I32"), "IRS213"),
    Mutant("col2im kernel 3", _col2im, set_input_shape(2, [3]), "IRS211"),
    Mutant("col2im kernel dynamic", _col2im, set_input_shape(2, [-1]), "IRS212"),
    Mutant("patches data rank 3", _patches, set_input_shape(0, [1, 3, 10]), "IRS211"),
    Mutant("patches data rank 5", _patches, set_input_shape(0, [1, 3, 10, 10, 1]), "IRS211"),
    Mutant("patches sizes 3", _patches, set_attribute("sizes", "3,3,3"), "IRS112"),
    Mutant("patches strides 1", _patches, set_attribute("strides", "5"), "IRS112"),
    Mutant("patches strides 0", _patches, set_attribute("strides", "5,0"), "IRS112"),
    Mutant("patches rates 0", _patches, set_attribute("rates", "0,1"), "IRS112"),
    Mutant("patches auto_pad explicit", _patches, set_attribute("auto_pad", "explicit"), "IRS112"),
    Mutant("patches auto_pad notset", _patches, set_attribute("auto_pad", "notset"), "IRS112"),
    Mutant("slice scatter updates", _slice_scatter_const, set_input_shape(1, [4, 4]), "IRS212"),
    Mutant("slice scatter updates rank", _slice_scatter_const, set_input_shape(1, [4, 3, 1]), "IRS212"),
    Mutant("slice scatter scalar", _slice_scatter_const, set_input_shape(0, [])),
    Mutant("slice scatter data", _slice_scatter_const, set_input_shape(0, [4, 2]), "IRS212"),
    Mutant("slice scatter past the data", _slice_scatter, set_input_shape(1, [4, 7]), "IRS212"),
    Mutant("slice scatter f32 start", _slice_scatter, set_input_type(2, "f32", "FP32"), "IRS213"),
    Mutant("slice scatter start 2D", _slice_scatter, set_input_shape(2, [1, 1])),
    Mutant("slice scatter start long", _slice_scatter, set_input_shape(2, [3])),
    Mutant("space to batch data rank 1", _space_to_batch(), set_input_shape(0, [4]), "IRS211"),
    Mutant("space to batch pads 2D", _space_to_batch(), set_input_shape(2, [3, 1]), "IRS212"),
    Mutant("space to batch pads length", _space_to_batch(), set_input_shape(2, [2])),
    Mutant("space to batch f32 pads", _space_to_batch(), set_input_type(2, "f32", "FP32"), "IRS213"),
    Mutant("space to batch boolean pads", _space_to_batch(), set_input_type(2, "boolean", "BOOL"), "IRS213"),
    Mutant("space to batch not a multiple", _space_to_batch_const, set_input_shape(0, [2, 4, 7]), "IRS212"),
    Mutant("space to batch interval", _space_to_batch_const, set_input_shape(0, [2, 4, "7..8"]), "IRS212"),
    Mutant("batch to space data rank 1", _batch_to_space, set_input_shape(0, [12]), "IRS211"),
    Mutant("batch to space data rank 4", _batch_to_space, set_input_shape(0, [12, 3, 4, 1]), "IRS212"),
    Mutant("batch to space block 2D", _batch_to_space, set_input_shape(1, [3, 1])),
    Mutant("batch to space block length", _batch_to_space, set_input_shape(1, [2]), "IRS212"),
    Mutant("batch to space i32 block", _batch_to_space, set_input_type(1, "i32", "I32"), "IRS213"),
    Mutant("batch to space f32 block", _batch_to_space, set_input_type(1, "f32", "FP32"), "IRS213"),
    Mutant("batch to space batch", _batch_to_space_const, set_input_shape(0, [10, 3, 4]), "IRS212"),
    Mutant("batch to space crops", _batch_to_space_const, set_input_shape(0, [12, 0, 4]), "IRS214"),
    Mutant("reverse sequence data rank 1", _reverse_sequence, set_input_shape(0, [3]), "IRS211"),
    Mutant("reverse sequence lengths 2D", _reverse_sequence, set_input_shape(1, [3, 1]), "IRS211"),
    Mutant("reverse sequence lengths scalar", _reverse_sequence, set_input_shape(1, []), "IRS211"),
    Mutant("reverse sequence lengths 4", _reverse_sequence, set_input_shape(1, [4]), "IRS212"),
    Mutant(
        "reverse sequence boolean lengths", _reverse_sequence, set_input_type(1, "boolean", "BOOL"), "IRS213"
    ),
    Mutant("reverse sequence batch_axis 3", _reverse_sequence, set_attribute("batch_axis", "3"), "IRS112"),
    Mutant("reverse sequence seq_axis -4", _reverse_sequence, set_attribute("seq_axis", "-4"), "IRS112"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
