"""The layout ops against OpenVINO, through the shared harness (tests/differential/ops_harness.py).

Every op version of irshape.shapes.layout: at least 100 seeded configurations each, built with
OpenVINO's Python API (NodeFactory where the helpers lack an op or attribute), saved, read back
by ``read_model`` (the oracle) and checked by irshape: ranks 0 to 5, zero-size dims, negative
axes, every mode, static, dynamic, interval and dynamic-rank data, value inputs from Consts,
from integer Parameters and from chains of the family's own ops (a Concat of Consts as a
Reshape target). Mutants: saved files whose attributes or Const values (a Const pointed at a
decoy's bytes) make ``read_model`` fail must give an irshape error on that layer. A declared
dim off by one is an error on the layer.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset7 as ov7
import openvino.opset12 as ov12
import openvino.opset15 as ov15
import pytest
from openvino.utils.node_factory import NodeFactory

import irshape

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    _parameters_of,
    apply_mutant,
    as_partial,
    assert_dim_off_by_one_is_an_error,
    batches,
    buildable,
    errors_on,
    is_static,
    layer_element,
    openvino_reads,
    params,
    read_back,
    save_batch,
)

SEED = 20261125
PER_OP = 110
STYLES = ("static", "static", "static", "dynamic", "interval", "rank")
INDEX_TYPES = (np.int64, np.int64, np.int32)

Build = Callable[[], ov.Node]


def _factory(opset: str) -> NodeFactory:
    return NodeFactory(opset)


def _data(shape: ov.PartialShape, element_type: Any = np.float32) -> ov.Node:
    return ov1.parameter(shape, element_type)


def _const(values: Any, element_type: Any = np.int64) -> ov.Node:
    array = np.array(values, dtype=element_type)
    if array.size == 0:
        return ov.op.Constant(ov.Type(array.dtype), ov.Shape(list(array.shape)), [])
    return ov1.constant(array)


class Draw:
    """Seeded choices shared by the op generators."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def dims(self, rank: int, lo: int = 1, hi: int = 6, zero: float = 0.05) -> list[int]:
        return [0 if self.rng.random() < zero else self.rng.randint(lo, hi) for _ in range(rank)]

    def style(self) -> str:
        return self.rng.choice(STYLES)

    def partial(self, dims: list[int], style: str | None = None) -> ov.PartialShape:
        return as_partial(self.rng, dims, style or self.style())

    def value_input(
        self, values: list[int], allow_param: bool = True, scalar: bool = False, sized: bool = False
    ) -> Build:
        """A builder of the value input: a Const (mostly), an integer Parameter of its shape, or
        a chain of Consts through Concat, Squeeze or Unsqueeze."""
        element_type = self.rng.choice(INDEX_TYPES)
        roll = self.rng.random()
        if scalar:
            if allow_param and roll < 0.12:
                return lambda: ov1.parameter([], element_type)
            if roll < 0.25:
                return lambda: ov1.squeeze(_const([values[0]], element_type), _const([0]))
            return lambda: _const(values[0], element_type)
        if allow_param and roll < 0.12:
            shape = [len(values)] if sized or self.rng.random() < 0.7 else ov.PartialShape([ov.Dimension()])
            return lambda: ov1.parameter(shape, element_type)
        if roll < 0.3 and len(values) >= 2:
            cut = self.rng.randint(1, len(values) - 1)
            head, tail = values[:cut], values[cut:]
            return lambda: ov1.concat([_const(head, element_type), _const(tail, element_type)], 0)
        if roll < 0.36 and values:
            return lambda: ov1.unsqueeze(_const(values, element_type), _const([0]))
        if roll < 0.4 and len(values) == 1:
            return lambda: ov1.unsqueeze(_const(values[0], element_type), _const([0]))
        return lambda: _const(values, element_type)


# --- generators: each returns one candidate builder ---------------------------------------


def _factorize(draw: Draw, count: int, rank: int) -> list[int]:
    """``rank`` dims whose product is ``count``."""
    dims = [1] * rank
    if rank == 0:
        return dims
    left = count
    for i in range(rank - 1):
        divisors = [d for d in range(1, min(left, 12) + 1) if left % d == 0] or [1]
        dims[i] = draw.rng.choice(divisors) if left else draw.rng.choice([0, 1, 2])
        left = left // dims[i] if dims[i] else 0
    dims[-1] = left
    draw.rng.shuffle(dims)
    return dims


def gen_reshape(draw: Draw) -> Build:
    rng = draw.rng
    dims = draw.dims(rng.randint(0, 5), zero=0.04)
    count = int(np.prod(dims)) if dims else 1
    target = _factorize(draw, count, rng.randint(1 if count != 1 else 0, 5))
    special_zero = rng.random() < 0.5
    if target and rng.random() < 0.55:
        target[rng.randrange(len(target))] = -1
    if special_zero and rng.random() < 0.6:
        for i in range(min(len(target), len(dims))):
            if rng.random() < 0.4 and target[i] != -1:
                target[i] = 0
    if rng.random() < 0.08:  # a target that may not fit: OpenVINO decides
        target = [rng.randint(-1, 7) for _ in range(rng.randint(1, 4))]
    if not target and rng.random() < 0.5:
        target = [1]
    shape = draw.partial(dims)
    element_type = rng.choice([np.float32, np.float32, np.int64])
    pattern = draw.value_input(target)
    return lambda: ov1.reshape(_data(shape, element_type), pattern(), special_zero)


def _squeeze_axes(draw: Draw, dims: list[int]) -> list[int]:
    rank = len(dims)
    ones = [i for i, d in enumerate(dims) if d == 1]
    pool = ones + list(range(rank)) if rank else [0]
    axes = sorted({draw.rng.choice(pool) for _ in range(draw.rng.randint(1, 3))})
    return [a - max(rank, 1) if draw.rng.random() < 0.3 else a for a in axes]


def _ones_rich(draw: Draw, rank: int) -> list[int]:
    return [1 if draw.rng.random() < 0.45 else d for d in draw.dims(rank)]


def gen_squeeze(version: int) -> Callable[[Draw], Build]:
    def gen(draw: Draw) -> Build:
        rng = draw.rng
        dims = _ones_rich(draw, rng.randint(0, 5))
        shape = draw.partial(dims)
        skip = rng.random() < 0.5
        make: Callable[..., ov.Node] = ov1.squeeze if version == 1 else ov15.squeeze
        extra = () if version == 1 else (skip,)
        if rng.random() < 0.15:
            if version == 1:
                return lambda: _factory("opset1").create("Squeeze", [_data(shape).output(0)], {})
            return lambda: ov15.squeeze(_data(shape))
        axes = _squeeze_axes(draw, dims)
        scalar = len(axes) == 1 and rng.random() < 0.3
        axes_input = draw.value_input(axes, scalar=scalar)
        return lambda: make(_data(shape), axes_input(), *extra)

    return gen


def gen_unsqueeze(draw: Draw) -> Build:
    rng = draw.rng
    dims = draw.dims(rng.randint(0, 4))
    count = rng.randint(1, 3)
    out_rank = len(dims) + count
    axes = [rng.randint(-out_rank, out_rank - 1) for _ in range(count)]
    shape = draw.partial(dims)
    scalar = count == 1 and rng.random() < 0.3
    axes_input = draw.value_input(axes, scalar=scalar)
    return lambda: ov1.unsqueeze(_data(shape, rng.choice([np.float32, np.int32])), axes_input())


def gen_transpose(draw: Draw) -> Build:
    rng = draw.rng
    rank = rng.randint(0, 5)
    dims = draw.dims(rank)
    order = list(range(rank))
    rng.shuffle(order)
    if rng.random() < 0.12:
        order = []
    shape = draw.partial(dims)
    order_input = draw.value_input(order) if order else (lambda: _const([], np.int64))
    return lambda: ov1.transpose(_data(shape), order_input())


def gen_concat(draw: Draw) -> Build:
    rng = draw.rng
    rank = rng.randint(1, 5)
    base = draw.dims(rank)
    axis = rng.randrange(rank)
    shapes = []
    for _ in range(rng.randint(1, 4)):
        dims = list(base)
        dims[axis] = rng.randint(0, 5)
        if rng.random() < 0.05 and rank > 1:  # a mismatch OpenVINO may reject
            other = (axis + 1) % rank
            dims[other] += 1
        shapes.append(draw.partial(dims))
    shown_axis = axis - rank if rng.random() < 0.4 else axis
    element_type = rng.choice([np.float32, np.int64])
    return lambda: ov1.concat([_data(s, element_type) for s in shapes], shown_axis)


def gen_split(draw: Draw) -> Build:
    rng = draw.rng
    rank = rng.randint(1, 5)
    dims = draw.dims(rank)
    axis = rng.randrange(rank)
    splits = rng.choice([1, 2, 3, 4])
    dims[axis] = splits * rng.randint(0, 3) if rng.random() < 0.9 else rng.randint(1, 9)
    shape = draw.partial(dims)
    shown = axis - rank if rng.random() < 0.4 else axis
    axis_input = draw.value_input([shown], scalar=True)
    return lambda: ov1.split(_data(shape), axis_input(), splits)


def gen_variadic_split(draw: Draw) -> Build:
    rng = draw.rng
    rank = rng.randint(1, 5)
    dims = draw.dims(rank)
    axis = rng.randrange(rank)
    parts = rng.randint(1, 4)
    lengths = [rng.randint(0, 4) for _ in range(parts)]
    dims[axis] = sum(lengths)
    if rng.random() < 0.5:
        lengths[rng.randrange(parts)] = -1
    shape = draw.partial(dims)
    shown = axis - rank if rng.random() < 0.4 else axis
    axis_input = draw.value_input([shown], scalar=rng.random() < 0.8)
    lengths_input = draw.value_input(lengths, sized=True)  # else no outputs at all
    return lambda: ov1.variadic_split(_data(shape), axis_input(), lengths_input())


PAD_MODES = ("constant", "edge", "reflect", "symmetric")


def gen_pad(version: int) -> Callable[[Draw], Build]:
    module: Any = ov1 if version == 1 else ov12

    def gen(draw: Draw) -> Build:
        rng = draw.rng
        rank = rng.randint(0, 5)
        dims = draw.dims(rank, lo=1, hi=7)
        mode = rng.choice(PAD_MODES)
        low = -3 if rng.random() < 0.4 else 0
        begin = [rng.randint(low, 3) for _ in range(rank)]
        end = [rng.randint(low, 3) for _ in range(rank)]
        shape = draw.partial(dims)
        begin_input, end_input = draw.value_input(begin), draw.value_input(end)
        value = rng.random() < 0.3 and mode == "constant"

        def build() -> ov.Node:
            if value:
                return module.pad(
                    _data(shape), begin_input(), end_input(), mode, ov1.constant(np.float32(0.5))
                )
            return module.pad(_data(shape), begin_input(), end_input(), mode)

        return build

    return gen


def gen_roll(draw: Draw) -> Build:
    rng = draw.rng
    rank = rng.randint(0, 5)
    dims = draw.dims(rank)
    count = rng.randint(1, 3)
    axes = [rng.randint(-max(rank, 1), max(rank, 1) - 1) for _ in range(count)]
    shift = [rng.randint(-5, 5) for _ in range(count)]
    shape = draw.partial(dims)
    scalar_shift = rng.random() < 0.3
    shift_input = draw.value_input(shift[:1] if scalar_shift else shift, scalar=scalar_shift)
    axes_input = draw.value_input(axes, scalar=count == 1 and rng.random() < 0.3)
    return lambda: ov7.roll(_data(shape), shift_input(), axes_input())


def gen_reverse(draw: Draw) -> Build:
    rng = draw.rng
    rank = rng.randint(0, 5)
    dims = draw.dims(rank)
    shape = draw.partial(dims)
    factory = _factory("opset1")
    if rng.random() < 0.5 and rank:
        mask = [rng.random() < 0.5 for _ in range(rank)]
        return lambda: factory.create(
            "Reverse", [_data(shape).output(0), _const(mask, np.bool_).output(0)], {"mode": "mask"}
        )
    axes = sorted({rng.randint(-1, max(rank, 1) - 1) for _ in range(rng.randint(1, 3))}) if rank else []
    axes_input = draw.value_input(axes) if axes else (lambda: _const([], np.int64))
    return lambda: factory.create(
        "Reverse", [_data(shape).output(0), axes_input().output(0)], {"mode": "index"}
    )


def gen_depth_to_space(draw: Draw) -> Build:
    rng = draw.rng
    rank = rng.randint(3, 5)
    block = rng.choice([1, 2, 2, 3])
    dims = draw.dims(rank, hi=4)
    dims[1] = block ** (rank - 2) * rng.randint(0, 3) if rng.random() < 0.92 else rng.randint(1, 9)
    shape = draw.partial(dims)
    mode = rng.choice(["blocks_first", "depth_first"])
    return lambda: ov1.depth_to_space(_data(shape), mode, block)


def gen_space_to_depth(draw: Draw) -> Build:
    rng = draw.rng
    rank = rng.randint(3, 5)
    block = rng.choice([1, 2, 2, 3])
    dims = draw.dims(rank, hi=4)
    for i in range(2, rank):
        dims[i] = block * rng.randint(0, 3) if rng.random() < 0.95 else rng.randint(1, 7)
    shape = draw.partial(dims)
    mode = rng.choice(["blocks_first", "depth_first"])
    return lambda: ov1.space_to_depth(_data(shape), mode, block)


def gen_shuffle_channels(draw: Draw) -> Build:
    rng = draw.rng
    rank = rng.randint(1, 5)
    dims = draw.dims(rank)
    axis = rng.randrange(rank)
    group = rng.choice([1, 2, 3])
    dims[axis] = group * rng.randint(0, 3) if rng.random() < 0.95 else rng.randint(1, 7)
    shape = draw.partial(dims)
    shown = axis - rank if rng.random() < 0.4 else axis
    opset = rng.choice(["opset1", "opset3"])
    return lambda: _factory(opset).create(
        "ShuffleChannels", [_data(shape).output(0)], {"axis": shown, "group": group}
    )


def gen_cumsum(draw: Draw) -> Build:
    rng = draw.rng
    rank = rng.randint(0, 5)
    shape = draw.partial(draw.dims(rank))
    axis = rng.randint(-max(rank, 1), max(rank, 1) - 1)
    axis_input = draw.value_input([axis], scalar=True)
    exclusive, reverse = rng.random() < 0.5, rng.random() < 0.5
    if rng.random() < 0.15:
        return lambda: _factory("opset3").create("CumSum", [_data(shape).output(0)], {})
    return lambda: ov3.cumsum(_data(shape), axis_input(), exclusive, reverse)


GENERATORS: dict[str, Callable[[Draw], Build]] = {
    "Reshape-1": gen_reshape,
    "Squeeze-1": gen_squeeze(1),
    "Squeeze-15": gen_squeeze(15),
    "Unsqueeze-1": gen_unsqueeze,
    "Transpose-1": gen_transpose,
    "Concat-1": gen_concat,
    "Split-1": gen_split,
    "VariadicSplit-1": gen_variadic_split,
    "Pad-1": gen_pad(1),
    "Pad-12": gen_pad(12),
    "Roll-7": gen_roll,
    "Reverse-1": gen_reverse,
    "DepthToSpace-1": gen_depth_to_space,
    "SpaceToDepth-1": gen_space_to_depth,
    "ShuffleChannels-1": gen_shuffle_channels,
    "CumSum-3": gen_cumsum,
}


def _chains(draw: Draw) -> list[tuple[str, Build]]:
    """Reshape targets computed through the family's own ops from Consts."""
    chains: list[tuple[str, Build]] = []
    for _ in range(12):
        rng = draw.rng
        dims = draw.dims(rng.randint(2, 4), zero=0.0)
        count = int(np.prod(dims))
        target = _factorize(draw, count, rng.randint(2, 4))
        target[rng.randrange(len(target))] = -1
        shape = ov.PartialShape(dims)

        def build(shape: ov.PartialShape = shape, target: list[int] = target) -> ov.Node:
            parts = [ov1.unsqueeze(_const(v), _const(0)) for v in target]
            joined = ov1.concat(parts, 0)
            squeezed = ov1.squeeze(ov1.reshape(joined, _const([1, len(target)]), False), _const([0]))
            flipped = ov1.transpose(ov1.transpose(squeezed, _const([0])), _const([]))
            return ov1.reshape(_data(shape), flipped, False)

        chains.append(("Reshape-1", build))
        split_target = [*target, *target]

        def via_split(shape: ov.PartialShape = shape, doubled: list[int] = split_target) -> ov.Node:
            first = ov1.split(_const(doubled), _const(0), 2).output(0)
            return ov1.reshape(_data(shape), first, False)

        chains.append(("Reshape-1", via_split))
    for size in (7, 9, 12):

        def backprop(size: int = size) -> ov.Node:
            """A consumer in another family: output_shape from a Concat and an Unsqueeze."""
            spatial = ov1.concat([ov1.unsqueeze(_const(size), _const(0)), _const([size + 1])], 0)
            kernel = ov1.constant(np.ones((3, 2, 3, 3), np.float32))
            return ov1.convolution_backprop_data(_data(_ps("1,3,4,5")), kernel, [2, 2], output_shape=spatial)

        chains.append(("ConvolutionBackpropData-1", backprop))
    return chains


def _ps(text: str | None) -> ov.PartialShape:
    return ov.PartialShape.dynamic() if text is None else ov.PartialShape(text)


def _reshape_edge(data: str | None, target: list[int], special_zero: bool = False) -> Build:
    return lambda: ov1.reshape(_data(_ps(data)), _const(target), special_zero)


def _param_target(data: str | None, target: str | None, element_type: Any = np.int64) -> Build:
    return lambda: ov1.reshape(_data(_ps(data)), ov1.parameter(_ps(target), element_type), False)


# Hand-picked configurations: the rules of OpenVINO 2026.4 that surprised (see the module's
# docstrings), each worked out by experiment before it was written down.
EDGE: list[tuple[str, Build]] = [
    # the -1 of an interval is not tidied: 6..7 / 4 gives 2..1, printed as such
    ("Reshape-1", _reshape_edge("6..7,1", [-1, 4])),
    ("Reshape-1", _reshape_edge("2..8,3", [-1, 6])),
    ("Reshape-1", _reshape_edge("2..8,4", [-1, 2])),
    ("Reshape-1", _reshape_edge("4,2..6", [8, -1])),
    ("Reshape-1", _reshape_edge("4,2..6", [16, -1])),
    ("Reshape-1", _reshape_edge("0..,4", [-1, 2])),
    ("Reshape-1", _reshape_edge("?,0", [0, -1])),
    ("Reshape-1", _reshape_edge("0,?", [3, -1])),
    ("Reshape-1", _reshape_edge("1..4,?", [3, -1])),
    # a dynamic rank: -1 is at least 1, a special zero is ?
    ("Reshape-1", _reshape_edge(None, [2, -1])),
    ("Reshape-1", _reshape_edge(None, [-1])),
    ("Reshape-1", _reshape_edge(None, [0, -1], True)),
    ("Reshape-1", _reshape_edge(None, [2, 0], True)),
    # zero-size dims and special_zero: no element count check when a 0 is copied
    ("Reshape-1", _reshape_edge("0,3", [0, -1])),
    ("Reshape-1", _reshape_edge("0,3", [-1, 0])),
    ("Reshape-1", _reshape_edge("2,0", [-1])),
    ("Reshape-1", _reshape_edge("2,3", [0, 7], True)),
    ("Reshape-1", _reshape_edge("2,?,3", [0, 0, -1], True)),
    ("Reshape-1", _reshape_edge("", [1])),
    ("Reshape-1", lambda: ov1.reshape(_data(_ps("?")), _const([], np.int64), False)),
    ("Reshape-1", lambda: ov1.reshape(_data(_ps("2,3")), _const([3, 2], np.uint8), False)),
    ("Reshape-1", lambda: ov1.reshape(_data(_ps("2,3")), _const([3, -1], np.int8), False)),
    # a target of unknown value: ?s of its length; an interval or unknown length: dynamic rank
    ("Reshape-1", _param_target("2,3", "2")),
    ("Reshape-1", _param_target("2,3", "2..4")),
    ("Reshape-1", _param_target("2,3", "?", np.int32)),
    ("Reshape-1", _param_target("2,3", None)),
    ("Reshape-1", _param_target(None, "3", np.uint8)),
    # Squeeze: a scalar's axes range over [-1, 0]; one unknown axis drops the rank by one
    ("Squeeze-1", lambda: ov1.squeeze(_data(_ps("")), _const([0, -1]))),
    ("Squeeze-1", lambda: ov1.squeeze(_data(_ps("1,2,1")), ov1.parameter([1], np.int64))),
    ("Squeeze-1", lambda: ov1.squeeze(_data(_ps("3,2,4")), ov1.parameter([], np.int64))),
    ("Squeeze-1", lambda: ov1.squeeze(_data(_ps("1,2,1")), ov1.parameter([2], np.int64))),
    ("Squeeze-1", lambda: ov1.squeeze(_data(_ps("1,2,?")), _const([], np.int64))),
    ("Squeeze-1", lambda: ov1.squeeze(_data(_ps("?,2,1")), _const([0]))),
    ("Squeeze-1", lambda: ov1.squeeze(_data(_ps("2..3,2,1")), _const([0]))),
    ("Squeeze-15", lambda: ov15.squeeze(_data(_ps("1,2,1")), ov1.parameter([1], np.int64))),
    ("Squeeze-15", lambda: ov15.squeeze(_data(_ps("?,2,1")), _const([0]), True)),
    ("Squeeze-15", lambda: ov15.squeeze(_data(_ps("?,2,1")), _const([2]), True)),
    ("Squeeze-15", lambda: ov15.squeeze(_data(_ps("0..1,2")), _const([0]), True)),
    ("Squeeze-15", lambda: ov15.squeeze(_data(_ps("1,2,?")), _const([], np.int64), True)),
    # Unsqueeze: repeated axes count once; an axis past the end appends
    ("Unsqueeze-1", lambda: ov1.unsqueeze(_data(_ps("2,3,4")), _const([4, -1]))),
    ("Unsqueeze-1", lambda: ov1.unsqueeze(_data(_ps("2,3")), _const([0, 0]))),
    ("Unsqueeze-1", lambda: ov1.unsqueeze(_data(_ps("")), _const(0))),
    ("Unsqueeze-1", lambda: ov1.unsqueeze(_data(_ps("2,3")), ov1.parameter([1], np.int64))),
    # Transpose: an empty order reverses, and on a dynamic rank gives a scalar
    ("Transpose-1", lambda: ov1.transpose(_data(_ps("2,3,4")), _const([], np.int64))),
    ("Transpose-1", lambda: ov1.transpose(_data(_ps(None)), _const([], np.int64))),
    ("Transpose-1", lambda: ov1.transpose(_data(_ps(None)), _const([1, 0]))),
    ("Transpose-1", lambda: ov1.transpose(_data(_ps(None)), _const([1, 1, -1]))),
    ("Transpose-1", lambda: ov1.transpose(_data(_ps(None)), ov1.parameter([2], np.int64))),
    ("Transpose-1", lambda: ov1.transpose(_data(_ps("2,3,4")), ov1.parameter(_ps("?"), np.int64))),
    # Concat: intervals intersect off the axis, a dynamic rank adds ? on it
    ("Concat-1", lambda: ov1.concat([_data(_ps("2..5,3")), _data(_ps("3..8,4"))], 1)),
    ("Concat-1", lambda: ov1.concat([_data(_ps("2,3")), _data(_ps(None))], 1)),
    ("Concat-1", lambda: ov1.concat([_data(_ps(None)), _data(_ps("2,3,4"))], 0)),
    ("Concat-1", lambda: ov1.concat([_data(_ps(None)), _data(_ps(None))], -1)),
    ("Concat-1", lambda: ov1.concat([_data(_ps("?,3")), _data(_ps("2..5,4")), _data(_ps("3,?"))], -1)),
    # Split of an interval floors both bounds; VariadicSplit's -1 may take a negative rest
    ("Split-1", lambda: ov1.split(_data(_ps("4,5..7")), _const(1), 3)),
    ("Split-1", lambda: ov1.split(_data(_ps("4,2..7")), _const(-1), 2)),
    ("VariadicSplit-1", lambda: ov1.variadic_split(_data(_ps("4,6")), _const(1), _const([1, 6, -1]))),
    ("VariadicSplit-1", lambda: ov1.variadic_split(_data(_ps("4,2..7")), _const(1), _const([1, -1, 1]))),
    ("VariadicSplit-1", lambda: ov1.variadic_split(_data(_ps("4,6")), _const([1]), _const([6]))),
    (
        "VariadicSplit-1",
        lambda: ov1.variadic_split(
            _data(_ps("4,6")), ov1.parameter([], np.int64), ov1.parameter([3], np.int64)
        ),
    ),
    # Pad: a static dim padded below zero is ?; Pad-1 takes negative pads as Pad-12 does
    ("Pad-1", lambda: ov1.pad(_data(_ps("2,3")), _const([-3, 0]), _const([0, 0]), "constant")),
    ("Pad-1", lambda: ov1.pad(_data(_ps("2,3")), _const([-4, 0]), _const([0, -1]), "constant")),
    ("Pad-1", lambda: ov1.pad(_data(_ps("?,3")), _const([5, 0]), _const([0, 0]), "reflect")),
    ("Pad-12", lambda: ov12.pad(_data(_ps("2..5,3")), _const([-3, 1]), _const([0, 1]), "constant")),
    ("Pad-12", lambda: ov12.pad(_data(_ps("0,3")), _const([0, 0]), _const([0, 0]), "edge")),
    ("Pad-12", lambda: ov12.pad(_data(_ps("")), _const([], np.int64), _const([], np.int64), "constant")),
    ("Pad-12", lambda: ov12.pad(_data(_ps("2,3")), ov1.parameter([2], np.int64), _const([1, 1]), "constant")),
    # Roll on a scalar; Reverse clips negative axes to 0
    ("Roll-7", lambda: ov7.roll(_data(_ps("")), _const(1), _const(0))),
    ("Roll-7", lambda: ov7.roll(_data(_ps("2,3")), _const(1), _const([0, 1, -1]))),
    (
        "Reverse-1",
        lambda: _factory("opset1").create(
            "Reverse", [_data(_ps("2,3")).output(0), _const([-5]).output(0)], {"mode": "index"}
        ),
    ),
    ("DepthToSpace-1", lambda: ov1.depth_to_space(_data(_ps("1,5..16,2..3,3")), "depth_first", 2)),
    ("DepthToSpace-1", lambda: ov1.depth_to_space(_data(_ps("1,8,2,3,4,5")), "blocks_first", 1)),
    ("SpaceToDepth-1", lambda: ov1.space_to_depth(_data(_ps("1,3,2..9,?")), "blocks_first", 2)),
    (
        "ShuffleChannels-1",
        lambda: _factory("opset1").create(
            "ShuffleChannels", [_data(_ps("1,4..7,2")).output(0)], {"axis": 1, "group": 3}
        ),
    ),
    ("CumSum-3", lambda: ov3.cumsum(_data(_ps("2,3")), _const(7))),
]


def _cases() -> tuple[list[OpCase], dict[str, int]]:
    draw = Draw(SEED)
    cases: list[OpCase] = []
    counts: dict[str, int] = {}
    for op, generate in GENERATORS.items():
        kept = 0
        for _ in range(PER_OP * 6):
            if kept >= PER_OP:
                break
            case = OpCase(f"ly{len(cases):05d}", op, generate(draw))
            if buildable(case):
                cases.append(case)
                kept += 1
        counts[op] = kept
    for op, build in _chains(draw):
        cases.append(OpCase(f"ly{len(cases):05d}", op, build, tags=("chain",)))
    for op, build in EDGE:
        cases.append(OpCase(f"ly{len(cases):05d}", op, build, tags=("edge",)))
    return cases, counts


CASES, COUNTS = _cases()
BATCHES = batches(CASES)
STATS["layout cases (tests/differential/test_layout.py)"] = len(CASES)


def test_every_op_version_has_its_floor_of_valid_configurations() -> None:
    short = {op: n for op, n in COUNTS.items() if n < 100}
    assert not short, short


def test_every_hand_picked_configuration_is_one_openvino_builds() -> None:
    refused = [c.cid for c in CASES if "edge" in c.tags and not buildable(c)]
    assert not refused


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_layout_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    batch = ops_runner.ops_batch(f"layout{index}", BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


@pytest.mark.parametrize("index", range(0, len(BATCHES), 3))
def test_a_declared_dim_off_by_one_is_an_error_on_that_layer(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    batch = ops_runner.ops_batch(f"layout{index}", BATCHES[index])
    assert_dim_off_by_one_is_an_error(batch, BATCHES[index], tmp_path)


def test_values_flow_through_the_chains(ops_runner: OpsBatchRunner) -> None:
    """The chains' Reshapes have static outputs in OpenVINO; irshape gets them only if the
    values flowed through Unsqueeze, Concat, Reshape, Squeeze, Transpose and Split."""
    chained = [(i, c) for i, batch in enumerate(BATCHES) for c in batch if "chain" in c.tags]
    assert len(chained) >= 20
    for index, case in chained:
        outcome = ops_runner.ops_batch(f"layout{index}", BATCHES[index]).outcome(case.cid)
        assert outcome.expected is not None and is_static(outcome.expected[0][0]), outcome.explain()
        assert outcome.mismatch() is None, outcome.explain()


# --- mutants ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    """A valid node, and an edit of its saved layer that ``read_model`` rejects. ``decoy``:
    values whose bytes the named Const (``ly_target``) is pointed at."""

    mid: str
    build: Callable[[], ov.Node]
    attribute: tuple[str, str | None] | None = (
        None  # <data> attribute of the layer, its new text (None: removed)
    )
    decoy: Any = None  # a numpy array of the target Const's type and shape


def _target(values: Any, element_type: Any = np.int64) -> ov.Node:
    node = _const(values, element_type)
    node.set_friendly_name("ly_target")
    return node


def _p(dims: list[int]) -> ov.Node:
    return _data(ov.PartialShape(dims))


MUTANTS = [
    Mutant(
        "reshape_count", lambda: ov1.reshape(_p([2, 3, 4]), _target([4, 6]), False), decoy=np.array([5, 5])
    ),
    Mutant(
        "reshape_two_minus_one",
        lambda: ov1.reshape(_p([2, 3, 4]), _target([4, 6]), False),
        decoy=np.array([-1, -1]),
    ),
    Mutant(
        "reshape_minus_two",
        lambda: ov1.reshape(_p([2, 3, 4]), _target([4, 6]), False),
        decoy=np.array([-2, 12]),
    ),
    Mutant(
        "reshape_indivisible",
        lambda: ov1.reshape(_p([2, 3, 4]), _target([4, -1]), False),
        decoy=np.array([5, -1]),
    ),
    Mutant(
        "reshape_zero_minus_one",
        lambda: ov1.reshape(_p([2, 3, 4]), _target([4, -1]), False),
        decoy=np.array([0, -1]),
    ),
    Mutant(
        "reshape_zero_beyond", lambda: ov1.reshape(_p([24]), _target([2, 12]), True), decoy=np.array([2, 0])
    ),
    Mutant("squeeze_axis", lambda: ov1.squeeze(_p([1, 2, 1]), _target([0])), decoy=np.array([3])),
    Mutant("squeeze15_axis", lambda: ov15.squeeze(_p([1, 2, 1]), _target([0]), True), decoy=np.array([-4])),
    Mutant("unsqueeze_axis", lambda: ov1.unsqueeze(_p([2, 3]), _target([0])), decoy=np.array([3])),
    Mutant("unsqueeze_negative", lambda: ov1.unsqueeze(_p([2, 3]), _target([0, 1])), decoy=np.array([0, -5])),
    Mutant(
        "transpose_repeat",
        lambda: ov1.transpose(_p([2, 3, 4]), _target([2, 1, 0])),
        decoy=np.array([0, 0, 1]),
    ),
    Mutant(
        "transpose_range", lambda: ov1.transpose(_p([2, 3, 4]), _target([2, 1, 0])), decoy=np.array([3, 1, 0])
    ),
    Mutant(
        "transpose_negative",
        lambda: ov1.transpose(_p([2, 3, 4]), _target([2, 1, 0])),
        decoy=np.array([-1, 1, 0]),
    ),
    Mutant("concat_axis", lambda: ov1.concat([_p([2, 3]), _p([2, 4])], 1), attribute=("axis", "2")),
    Mutant("concat_axis_negative", lambda: ov1.concat([_p([2, 3]), _p([2, 4])], 1), attribute=("axis", "-3")),
    Mutant("concat_other_axis", lambda: ov1.concat([_p([2, 3]), _p([2, 4])], 1), attribute=("axis", "0")),
    Mutant("split_num", lambda: ov1.split(_p([4, 6]), _target(1), 2), attribute=("num_splits", "4")),
    Mutant("split_zero", lambda: ov1.split(_p([4, 6]), _target(1), 2), attribute=("num_splits", "0")),
    Mutant("split_axis", lambda: ov1.split(_p([4, 6]), _target(1), 2), decoy=np.array(2)),
    Mutant(
        "vsplit_sum",
        lambda: ov1.variadic_split(_p([4, 6]), _const(1), _target([2, 4])),
        decoy=np.array([2, 3]),
    ),
    Mutant(
        "vsplit_minus_ones",
        lambda: ov1.variadic_split(_p([4, 6]), _const(1), _target([2, 4])),
        decoy=np.array([-1, -1]),
    ),
    Mutant(
        "vsplit_below",
        lambda: ov1.variadic_split(_p([4, 6]), _const(1), _target([2, 4])),
        decoy=np.array([-2, 8]),
    ),
    Mutant(
        "vsplit_axis", lambda: ov1.variadic_split(_p([4, 6]), _target(1), _const([2, 4])), decoy=np.array(-3)
    ),
    Mutant(
        "pad_reflect",
        lambda: ov1.pad(_p([2, 3]), _target([1, 1]), _const([0, 0]), "reflect"),
        decoy=np.array([2, 1]),
    ),
    Mutant(
        "pad12_symmetric",
        lambda: ov12.pad(_p([2, 3]), _target([1, 1]), _const([0, 0]), "symmetric"),
        decoy=np.array([1, 4]),
    ),
    Mutant(
        "pad_edge_zero",
        lambda: ov1.pad(_p([0, 3]), _target([0, 1]), _const([0, 0]), "edge"),
        decoy=np.array([1, 1]),
    ),
    Mutant(
        "pad_mode",
        lambda: ov1.pad(_p([2, 3]), _const([1, 1]), _const([0, 0]), "edge"),
        attribute=("pad_mode", "wrap"),
    ),
    Mutant("roll_axis", lambda: ov7.roll(_p([2, 3]), _const([1]), _target([0])), decoy=np.array([2])),
    Mutant(
        "reverse_axis",
        lambda: _factory("opset1").create(
            "Reverse", [_p([2, 3]).output(0), _target([1]).output(0)], {"mode": "index"}
        ),
        decoy=np.array([2]),
    ),
    Mutant(
        "reverse_mode",
        lambda: _factory("opset1").create(
            "Reverse", [_p([2, 3]).output(0), _const([1]).output(0)], {"mode": "index"}
        ),
        attribute=("mode", "mask"),
    ),
    Mutant(
        "d2s_block",
        lambda: ov1.depth_to_space(_p([1, 8, 2, 3]), "blocks_first", 2),
        attribute=("block_size", "3"),
    ),
    Mutant(
        "d2s_zero",
        lambda: ov1.depth_to_space(_p([1, 8, 2, 3]), "blocks_first", 2),
        attribute=("block_size", "0"),
    ),
    Mutant(
        "d2s_mode",
        lambda: ov1.depth_to_space(_p([1, 8, 2, 3]), "blocks_first", 2),
        attribute=("mode", "columns_first"),
    ),
    Mutant(
        "s2d_block",
        lambda: ov1.space_to_depth(_p([1, 2, 4, 6]), "depth_first", 2),
        attribute=("block_size", "4"),
    ),
    Mutant(
        "shuffle_group",
        lambda: _factory("opset1").create(
            "ShuffleChannels", [_p([1, 8, 2]).output(0)], {"axis": 1, "group": 2}
        ),
        attribute=("group", "3"),
    ),
    Mutant(
        "shuffle_axis",
        lambda: _factory("opset1").create(
            "ShuffleChannels", [_p([1, 8, 2]).output(0)], {"axis": 1, "group": 2}
        ),
        attribute=("axis", "3"),
    ),
    Mutant(
        "shuffle_zero",
        lambda: _factory("opset1").create(
            "ShuffleChannels", [_p([1, 8, 2]).output(0)], {"axis": 1, "group": 2}
        ),
        attribute=("group", "0"),
    ),
    Mutant(
        "reshape_rank_2", lambda: ov1.reshape(_p([2, 3, 4]), _target([4, 6]), False), decoy=np.array([[4, 6]])
    ),
    Mutant(
        "reshape_float",
        lambda: ov1.reshape(_p([2, 3, 4]), _target([4, 6]), False),
        decoy=np.array([4, 6], np.float32),
    ),
    Mutant("squeeze_rank_2", lambda: ov1.squeeze(_p([1, 2, 1]), _target([0])), decoy=np.array([[0]])),
    Mutant("unsqueeze_empty", lambda: ov1.unsqueeze(_p([2, 3]), _target([0])), decoy=np.zeros([0], np.int64)),
    Mutant(
        "transpose_length", lambda: ov1.transpose(_p([2, 3, 4]), _target([2, 1, 0])), decoy=np.array([1, 0])
    ),
    Mutant(
        "transpose_float",
        lambda: ov1.transpose(_p([2, 3]), _target([1, 0])),
        decoy=np.array([1, 0], np.float32),
    ),
    Mutant("transpose_matrix", lambda: ov1.transpose(_p([2, 3]), _target([1, 0])), decoy=np.array([[1, 0]])),
    Mutant(
        "concat_types",
        lambda: ov1.concat([_target([[1, 2]]), _const([[3]])], 1),
        decoy=np.array([[1, 2]], np.int32),
    ),
    Mutant("split_vector_axis", lambda: ov1.split(_p([4, 6]), _target(1), 2), decoy=np.array([1])),
    Mutant("split_float_axis", lambda: ov1.split(_p([4, 6]), _target(1), 2), decoy=np.array(1, np.float32)),
    Mutant(
        "vsplit_matrix",
        lambda: ov1.variadic_split(_p([4, 6]), _const(1), _target([2, 4])),
        decoy=np.array([[2, 4]]),
    ),
    Mutant(
        "vsplit_axis_matrix",
        lambda: ov1.variadic_split(_p([4, 6]), _target(1), _const([2, 4])),
        decoy=np.array([[1]]),
    ),
    Mutant(
        "pad_length",
        lambda: ov1.pad(_p([2, 3]), _target([1, 1]), _const([0, 0]), "constant"),
        decoy=np.array([1, 1, 1]),
    ),
    Mutant(
        "pad12_short",
        lambda: ov12.pad(_p([2, 3]), _const([1, 1]), _target([0, 0]), "constant"),
        decoy=np.array([0]),
    ),
    Mutant(
        "pad_float",
        lambda: ov1.pad(_p([2, 3]), _target([1, 1]), _const([0, 0]), "constant"),
        decoy=np.array([1, 1], np.float32),
    ),
    Mutant(
        "pad_value_vector",
        lambda: ov1.pad(
            _p([2, 3]), _const([1, 1]), _const([0, 0]), "constant", _target(np.float32(0), np.float32)
        ),
        decoy=np.array([0.0], np.float32),
    ),
    Mutant(
        "pad_value_type",
        lambda: ov12.pad(
            _p([2, 3]), _const([1, 1]), _const([0, 0]), "constant", _target(np.float32(0), np.float32)
        ),
        decoy=np.array(0, np.int32),
    ),
    Mutant(
        "roll_shift_axes", lambda: ov7.roll(_p([2, 3]), _const([1]), _target([0])), decoy=np.array([0, 1])
    ),
    Mutant(
        "roll_axes_type",
        lambda: ov7.roll(_p([2, 3]), _const([1]), _target([0])),
        decoy=np.array([0], np.uint8),
    ),
    Mutant(
        "reverse_mask_length",
        lambda: _factory("opset1").create(
            "Reverse", [_p([2, 3]).output(0), _target([True, False], np.bool_).output(0)], {"mode": "mask"}
        ),
        decoy=np.array([True, False, True]),
    ),
    Mutant(
        "reverse_scalar",
        lambda: _factory("opset1").create(
            "Reverse", [_p([2, 3]).output(0), _target([1]).output(0)], {"mode": "index"}
        ),
        decoy=np.array(1),
    ),
    Mutant("cumsum_axis_type", lambda: ov3.cumsum(_p([2, 3]), _target(1)), decoy=np.array(1, np.float32)),
    Mutant(
        "d2s_block_5",
        lambda: ov1.depth_to_space(_p([1, 8, 2, 3]), "blocks_first", 2),
        attribute=("block_size", "5"),
    ),
    Mutant(
        "s2d_zero",
        lambda: ov1.space_to_depth(_p([1, 2, 4, 6]), "depth_first", 2),
        attribute=("block_size", "0"),
    ),
    # a missing num_splits or block_size is 0 to OpenVINO
    Mutant("split_missing", lambda: ov1.split(_p([4, 6]), _const(1), 2), attribute=("num_splits", None)),
    Mutant(
        "d2s_missing",
        lambda: ov1.depth_to_space(_p([1, 8, 2, 3]), "blocks_first", 2),
        attribute=("block_size", None),
    ),
    Mutant(
        "s2d_missing",
        lambda: ov1.space_to_depth(_p([1, 2, 4, 6]), "depth_first", 2),
        attribute=("block_size", None),
    ),
    # OpenVINO reads a bool it cannot read as false: special_zero="yes" makes [2, 0] a count of 0
    Mutant(
        "reshape_special_zero_text",
        lambda: ov1.reshape(_p([2, 3]), _const([2, 0]), True),
        attribute=("special_zero", "yes"),
    ),
]
STATS["layout mutants (tests/differential/test_layout.py)"] = len(MUTANTS)


def _save_mutant_source(mutant: Mutant, xml: Path) -> None:
    node = mutant.build()
    node.set_friendly_name(mutant.mid)
    results = [ov1.result(node.output(i)) for i in range(node.get_output_size())]
    if mutant.decoy is not None:
        decoy = _const(mutant.decoy, mutant.decoy.dtype)
        decoy.set_friendly_name("ly_decoy")
        results.append(ov1.result(ov1.convert(decoy, np.float32)))
    parameters = _parameters_of([r.input_value(0).get_node() for r in results])
    ov.save_model(ov.Model(results, parameters, mutant.mid), str(xml), compress_to_fp16=False)


def _edit(mutant: Mutant) -> Callable[[Any], None]:
    def edit(tree: Any) -> None:
        if mutant.attribute is not None:
            name, text = mutant.attribute
            data = layer_element(tree, mutant.mid).find("data")
            if text is None:
                del data.attrib[name]
            else:
                data.set(name, text)
        if mutant.decoy is not None:
            _take_decoy(tree)

    return edit


def _take_decoy(tree: Any) -> None:
    """The target Const becomes the decoy's tensor: its bytes, type and shape, on both ends of
    its edges (so the file's ports agree with what OpenVINO reads)."""
    target, decoy = layer_element(tree, "ly_target"), layer_element(tree, "ly_decoy")
    for attribute in ("element_type", "shape", "offset", "size"):
        target.find("data").set(attribute, decoy.find("data").get(attribute))
    source_port = decoy.find("output/port")
    ports = [target.find("output/port")]
    for edge in tree.xpath(f"//edge[@from-layer='{target.get('id')}']"):
        (consumer,) = tree.xpath(f"//layer[@id='{edge.get('to-layer')}']")
        ports += [p for p in consumer.findall("input/port") if p.get("id") == edge.get("to-port")]
    for port in ports:
        for dim in port.findall("dim"):
            port.remove(dim)
        for dim in source_port.findall("dim"):
            port.append(copy.deepcopy(dim))
        port.set("precision", source_port.get("precision"))


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.mid for m in MUTANTS])
def test_a_mutant_openvino_rejects_is_an_error_on_that_layer(tmp_path: Path, mutant: Mutant) -> None:
    source, target = tmp_path / "source.xml", tmp_path / "mutant.xml"
    _save_mutant_source(mutant, source)
    assert openvino_reads(source) is None, "the source model is valid"
    assert not errors_on(irshape.check_file(source), mutant.mid), "irshape accepts the source"
    apply_mutant(source, target, _edit(mutant))
    assert openvino_reads(target) is not None, "OpenVINO rejects the mutant"
    report = irshape.check_file(target)
    own = [d for d in errors_on(report, mutant.mid) if d.code.startswith(("IRS1", "IRS2"))]
    assert own, [f"{d.code} {d.message}" for d in report.diagnostics]


def test_a_bool_openvino_reads_as_false_is_a_warning_and_read_as_false(tmp_path: Path) -> None:
    """allow_axis_skip="maybe" is no error: OpenVINO reads false, so [?,2,1] squeezes to [2,1]."""
    mutant = Mutant("ly_skip", lambda: ov15.squeeze(_data(_ps("?,2,1")), _const([0]), True))
    source, target = tmp_path / "source.xml", tmp_path / "maybe.xml"
    _save_mutant_source(mutant, source)
    apply_mutant(
        source,
        target,
        lambda tree: layer_element(tree, "ly_skip").find("data").set("allow_axis_skip", "maybe"),
    )
    expected = read_back(target)["ly_skip"]
    report = irshape.check_file(target)
    (layer,) = [layer for layer in report.layers if layer.name == "ly_skip"]
    assert [str(s) for s in layer.outputs] == [shape for shape, _ in expected] == ["[2,1]"]
    assert not errors_on(report, "ly_skip")
    assert [d.code for d in report.diagnostics if d.layer_name == "ly_skip"] == ["IRS105"]


def test_an_unknown_value_that_decides_the_shape_is_said_once_on_that_layer(tmp_path: Path) -> None:
    """A Parameter target, and a Concat of a Const and a Parameter as target: OpenVINO gives
    [?,?] for both; irshape says once on each Reshape (IRS306, info) that the value is unknown."""

    def target() -> ov.Node:
        return ov1.concat([_const([-1]), ov1.parameter([1], np.int64)], 0)

    cases = [
        OpCase(
            "ly_param_target",
            "Reshape-1",
            lambda: ov1.reshape(_data(_ps("2,3")), ov1.parameter([2], np.int64), False),
        ),
        OpCase("ly_concat_target", "Reshape-1", lambda: ov1.reshape(_data(_ps("2,3")), target(), False)),
    ]
    xml = tmp_path / "unknown.xml"
    save_batch(cases, xml)
    expected = read_back(xml)
    report = irshape.check_file(xml, every_unknown_value=True)  # declared as OpenVINO infers: said on request
    for case in cases:
        (layer,) = [layer for layer in report.layers if layer.name == case.cid]
        assert [str(s) for s in layer.outputs] == [shape for shape, _ in expected[case.cid]] == ["[?,?]"]
        said = [d for d in report.diagnostics if d.layer_name == case.cid]
        assert [(d.code, d.severity.value) for d in said] == [("IRS306", "info")], [d.message for d in said]
