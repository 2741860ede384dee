"""The layout family's kernels (irshape/kernels/layout.py) against OpenVINO's CPU plugin: every
op version on seeded configurations of its modes and attributes, data of f32, f16, i32, i64, u8
and boolean (with NaN, infinities and integer extremes), negative axes; one model per op group.
Layout ops move elements: compared exactly (CumSum too: its sums run in a defined order)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as opset1
import openvino.opset13 as opset
import openvino.opset15 as opset15
import pytest
from openvino.utils.node_factory import NodeFactory

from irshape.execute.network import Outcome

from .harness import CPU_CONFIG, Batch, Case, parameter, run_batch
from .moving import DTYPES, Batches, Feeds, Rebuilt, data_of, groups_of, ints, parameters, refusal


def _shape(rng: np.random.Generator, rank: int, low: int = 1, high: int = 4) -> list[int]:
    return [int(n) for n in rng.integers(low, high, rank, endpoint=True)]


def _factors(rng: np.random.Generator, total: int, count: int) -> list[int]:
    """``count`` dims whose product is ``total``."""
    dims = [1] * count
    for prime in _primes(total):
        dims[int(rng.integers(count))] *= prime
    return dims


def _primes(n: int) -> list[int]:
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


def _moved(name: str, x: ov.Node, value: np.ndarray, node: ov.Node) -> Case:
    """A case of one data Parameter ``x`` and every output of ``node``, compared exactly."""
    outputs = [node.output(i) for i in range(node.get_output_size())]
    return Case(name, {x: value}, outputs, exact=True)


# --- Reshape, Squeeze, Unsqueeze, Transpose -------------------------------------------------


def reshape_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(36):
        dtype = DTYPES[i % len(DTYPES)]
        shape = _shape(rng, int(rng.integers(0, 5)))
        total = math.prod(shape)
        target = _factors(rng, total, int(rng.integers(1, 5)))
        special_zero = bool(i % 2)
        if i % 3 == 0:
            target[int(rng.integers(len(target)))] = -1
        if special_zero and shape and len(target) > 1 and i % 4 == 1:
            # a 0 copies the data's dim at its position: keep the rest consistent
            target = [0, *_factors(rng, total // shape[0], len(target) - 1)]
        if i == 5:
            target = []  # a scalar from one element
            shape = [1, 1]
        x = parameter(shape, dtype)
        node = opset.reshape(x, ints(target, np.int32 if i % 5 == 0 else np.int64), special_zero)
        cases.append(_moved(f"reshape{i}", x, data_of(rng, shape, dtype), node))
    return cases


def squeeze_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(64):
        dtype = DTYPES[i % len(DTYPES)]
        rank = int(rng.integers(1, 6))
        shape = [1 if rng.random() < 0.5 else int(rng.integers(2, 4)) for _ in range(rank)]
        ones = [a for a, n in enumerate(shape) if n == 1]
        x = parameter(shape, dtype)
        if i % 4 == 0 or not ones:
            # no axes: every 1 goes (Squeeze-1 through the node factory: opset1.squeeze needs axes)
            node = (
                opset15.squeeze(x) if i % 8 == 0 else NodeFactory("opset1").create("Squeeze", [x.output(0)])
            )
        else:
            picked = [int(a) for a in rng.choice(ones, int(rng.integers(1, len(ones) + 1)), replace=False)]
            if i % 5 == 0 and len(ones) < rank:  # an axis not of 1 is left alone, in both versions
                picked.append(next(a for a, n in enumerate(shape) if n != 1))
            axes = [a - rank if rng.random() < 0.5 else a for a in picked]
            axes_node = (
                ints(axes[0])
                if len(axes) == 1 and i % 3 == 0
                else ints(axes, np.int32 if i % 5 else np.int64)
            )
            if i % 2:
                node = opset15.squeeze(x, axes_node, allow_axis_skip=bool(i % 3))
            else:
                node = opset.squeeze(x, axes_node)
        cases.append(_moved(f"squeeze{i}", x, data_of(rng, shape, dtype), node))
    return cases


def unsqueeze_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(32):
        dtype = DTYPES[i % len(DTYPES)]
        shape = _shape(rng, int(rng.integers(0, 4)))
        count = int(rng.integers(1, 3))
        out_rank = len(shape) + count
        axes = [int(a) for a in rng.choice(out_rank, count, replace=False)]
        axes = [a - out_rank if rng.random() < 0.4 else a for a in axes]
        x = parameter(shape, dtype)
        axes_node = ints(axes[0]) if count == 1 and i % 2 else ints(axes, np.int32 if i % 3 else np.int64)
        node = opset.unsqueeze(x, axes_node)
        cases.append(_moved(f"unsqueeze{i}", x, data_of(rng, shape, dtype), node))
    return cases


def transpose_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(36):
        dtype = DTYPES[i % len(DTYPES)]
        rank = int(rng.integers(0, 6))
        shape = _shape(rng, rank, 1, 3 if rank > 3 else 4)
        order = [] if i % 6 == 0 else [int(a) for a in rng.permutation(rank)]
        x = parameter(shape, dtype)
        node = opset.transpose(x, ints(order, np.int32 if i % 2 else np.int64))
        cases.append(_moved(f"transpose{i}", x, data_of(rng, shape, dtype), node))
    return cases


# --- Concat, Split, VariadicSplit -----------------------------------------------------------


def concat_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(36):
        dtype = DTYPES[i % len(DTYPES)]
        rank = int(rng.integers(1, 5))
        axis = int(rng.integers(-rank, rank))
        base = _shape(rng, rank)
        inputs, feeds = [], {}
        for _k in range(int(rng.integers(1, 5))):
            shape = list(base)
            shape[axis] = int(rng.integers(1, 4))
            x = parameter(shape, dtype)
            inputs.append(x)
            feeds[x] = data_of(rng, shape, dtype)
        node = opset.concat(inputs, axis)
        cases.append(Case(f"concat{i}", feeds, [node.output(0)], exact=True))
    return cases


def split_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(32):
        dtype = DTYPES[i % len(DTYPES)]
        rank = int(rng.integers(1, 5))
        shape = _shape(rng, rank)
        axis = int(rng.integers(-rank, rank))
        count = int(rng.choice([1, 2, 3]))
        shape[axis] *= count
        x = parameter(shape, dtype)
        node = opset.split(x, ints(axis, np.int32 if i % 2 else np.int64), count)
        cases.append(_moved(f"split{i}", x, data_of(rng, shape, dtype), node))
    return cases


def variadic_split_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(36):
        dtype = DTYPES[i % len(DTYPES)]
        rank = int(rng.integers(1, 5))
        shape = _shape(rng, rank)
        axis = int(rng.integers(-rank, rank))
        lengths = [int(n) for n in rng.integers(0, 4, int(rng.integers(1, 5)))]
        if sum(lengths) == 0:
            lengths[0] = 1
        shape[axis] = sum(lengths)
        if i % 3 == 0:
            lengths[int(rng.integers(len(lengths)))] = -1
        x = parameter(shape, dtype)
        axis_node = ints(axis, np.int32) if i % 4 == 1 else ints([axis] if i % 4 == 2 else axis)
        node = opset.variadic_split(x, axis_node, ints(lengths, np.int32 if i % 2 else np.int64))
        cases.append(_moved(f"vsplit{i}", x, data_of(rng, shape, dtype), node))
    return cases


# --- Pad --------------------------------------------------------------------------------------

_PAD_MODES = ("constant", "edge", "reflect", "symmetric")


def _pads(
    rng: np.random.Generator, shape: list[int], mode: str, negative: bool
) -> tuple[list[int], list[int]]:
    """Pads each mode accepts: reflect below the dim, symmetric up to it; a negative pad crops
    at most the dim less one (the padded dim stays above 0)."""
    begin, end = [], []
    for n in shape:
        limit = {"reflect": n - 1, "symmetric": n}.get(mode, 3)
        b, e = (int(v) for v in rng.integers(0, limit, 2, endpoint=True))
        if negative and n > 1 and rng.random() < 0.4:
            if rng.random() < 0.5:
                b = -int(rng.integers(1, n))
            else:
                e = -int(rng.integers(1, n))
            if n + b + e < 1:
                b, e = max(b, 0), max(e, 0)
        begin.append(b)
        end.append(e)
    return begin, end


def pad_cases(rng: np.random.Generator, version: int) -> list[Case]:
    make = opset1.pad if version == 1 else opset.pad
    cases = []
    for i in range(48):
        dtype = DTYPES[i % len(DTYPES)]
        mode = _PAD_MODES[(i // len(DTYPES)) % 4]
        rank = int(rng.integers(1, 5))
        shape = _shape(rng, rank, 2 if mode == "reflect" else 1, 4)
        begin, end = _pads(rng, shape, mode, negative=i % 3 != 0)
        x = parameter(shape, dtype)
        index = np.int32 if i % 2 else np.int64
        if mode == "constant" and i % 4 != 3:
            value = data_of(rng, [4], dtype)[int(rng.integers(4))]  # an extreme now and then
            node = make(x, ints(begin, index), ints(end, index), mode, opset.constant(value))
        else:
            node = make(x, ints(begin, index), ints(end, index), mode)
        cases.append(_moved(f"pad{version}_{i}", x, data_of(rng, shape, dtype), node))
    for i, (dtype, value) in enumerate(
        (
            (np.int32, 2**31 - 1),  # rounds to 2^31 as an f32: pads -2^31
            (np.int64, 2**31 - 1),
            (np.int32, -(2**31)),
            (np.int32, 2**24 + 1),  # rounds to 2^24
            (np.int64, -(2**24) - 3),  # rounds to -2^24 - 4
            (np.uint8, 255),
            (np.int8, -128),
        )
    ):
        # the pad value as the CPU plugin holds it: an f32
        x = parameter([2, 3], dtype)
        node = make(x, ints([1, 0]), ints([0, 2]), "constant", opset.constant(np.array(value, dtype)))
        cases.append(_moved(f"pad{version}_value{i}", x, data_of(rng, [2, 3], dtype), node))
    for i, (begin, end) in enumerate(([2, -1], [-3, 1], [2, -1], [-3, 1], [1, -3])):
        # pads that crop the whole axis (of 3) away, and pad the rest
        mode = ("constant", "edge")[i // 2 % 2]
        x = parameter([2, 3], np.float32)
        node = make(x, ints([0, begin]), ints([0, end]), mode)
        cases.append(_moved(f"pad{version}_past{i}", x, data_of(rng, [2, 3], np.float32), node))
    return cases


# --- Roll, Reverse, CumSum --------------------------------------------------------------------


def roll_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(36):
        dtype = DTYPES[i % len(DTYPES)]
        rank = int(rng.integers(1, 5))
        shape = _shape(rng, rank)
        count = int(rng.integers(1, 4))
        axes = [int(a) for a in rng.integers(-rank, rank, count)]  # repeats add up
        shifts = [int(s) for s in rng.integers(-9, 10, count)]
        if i % 7 == 0:
            # int32's extremes on distinct axes: the CPU plugin reads shifts as int32 (an i64
            # one truncated) and adds a repeated axis's in int32, wrapping where the reference
            # (and the kernel) adds in int64
            axes = [
                int(a) - rank * int(rng.integers(2))
                for a in rng.choice(rank, min(count, rank), replace=False)
            ]
            shifts = [int(rng.choice([2**31 - 1, -(2**31)])) for _ in axes]
            count = len(axes)
        index = np.int32 if i % 2 and i % 7 else np.int64
        # a scalar shift only for one axis: the CPU plugin wants one shift per axis
        # (a 1D shift needs 1D axes)
        shift = ints(shifts[0], index) if count == 1 and i % 3 != 2 else ints(shifts, index)
        axes_node = ints(axes[0], index) if count == 1 and i % 3 == 0 else ints(axes, index)
        x = parameter(shape, dtype)
        node = opset.roll(x, shift, axes_node)
        cases.append(_moved(f"roll{i}", x, data_of(rng, shape, dtype), node))
    return cases


def reverse_cases(rng: np.random.Generator, _: int) -> list[Case]:
    factory = NodeFactory("opset1")
    cases = []
    for i in range(36):
        dtype = DTYPES[i % len(DTYPES)]
        rank = int(rng.integers(1, 5))
        shape = _shape(rng, rank)
        x = parameter(shape, dtype)
        if i % 2:
            mask = rng.random(rank) < 0.5
            axes, mode = opset.constant(mask), "mask"
        else:
            picked = [int(a) for a in rng.choice(rank, int(rng.integers(0, rank + 1)), replace=False)]
            picked = [a - rank if rng.random() < 0.4 else a for a in picked]  # negative axes count back
            if picked and i % 3 == 0:
                picked.append(picked[0] - rank if picked[0] >= 0 else picked[0] + rank)  # twice: once
            axes, mode = ints(picked, np.int32 if i % 4 else np.int64), "index"
        node = factory.create("Reverse", [x.output(0), axes.output(0)], {"mode": mode})
        cases.append(_moved(f"reverse{i}", x, data_of(rng, shape, dtype), node))
    return cases


_CUMSUM_TYPES = (np.float32, np.int32, np.int64, np.float16, np.uint8, np.int8, np.bool_)


def cumsum_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(49):
        dtype = _CUMSUM_TYPES[i % len(_CUMSUM_TYPES)]
        rank = int(rng.integers(1, 5))
        shape = _shape(rng, rank, 1, 5)
        axis = int(rng.integers(-rank, rank))
        x = parameter(shape, dtype)
        if dtype == np.int64:
            # sums inside int32: the CPU plugin adds i64 data as i32, wrapping at 2^31
            value = rng.integers(-1000, 1000, shape).astype(dtype)
        else:
            value = data_of(rng, shape, dtype)  # NaN, infinities; integer sums wrap; booleans 'or'
        node = opset.cumsum(
            x, ints(axis, np.int32 if i % 3 else np.int64), exclusive=bool(i & 4), reverse=bool(i & 8)
        )
        # exactly: the sums run in order along the axis, in f32 for f16 data, rounded once
        cases.append(_moved(f"cumsum{i}", x, value, node))
    return cases


# --- DepthToSpace, SpaceToDepth, ShuffleChannels ---------------------------------------------


def depth_to_space_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(36):
        dtype = DTYPES[i % len(DTYPES)]
        spatial = int(rng.integers(1, 4))
        block = int(rng.integers(1, 4 if spatial < 3 else 3))
        shape = [
            int(rng.integers(1, 3)),
            int(rng.integers(1, 3)) * block**spatial,
            *_shape(rng, spatial, 1, 3),
        ]
        mode = ("blocks_first", "depth_first")[i % 2]
        x = parameter(shape, dtype)
        node = opset.depth_to_space(x, mode, block)
        cases.append(_moved(f"d2s{i}", x, data_of(rng, shape, dtype), node))
    return cases


def space_to_depth_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(36):
        dtype = DTYPES[i % len(DTYPES)]
        spatial = int(rng.integers(1, 4))
        block = int(rng.integers(1, 4 if spatial < 3 else 3))
        shape = [
            int(rng.integers(1, 3)),
            int(rng.integers(1, 4)),
            *(block * n for n in _shape(rng, spatial, 1, 2)),
        ]
        mode = ("blocks_first", "depth_first")[i % 2]
        x = parameter(shape, dtype)
        node = opset.space_to_depth(x, mode, block)
        cases.append(_moved(f"s2d{i}", x, data_of(rng, shape, dtype), node))
    return cases


def shuffle_channels_cases(rng: np.random.Generator, _: int) -> list[Case]:
    cases = []
    for i in range(36):
        dtype = DTYPES[i % len(DTYPES)]
        rank = int(rng.integers(1, 6))
        shape = _shape(rng, rank, 1, 3)
        axis = int(rng.integers(-rank, rank))
        group = int(rng.integers(1, 4))
        shape[axis] *= group * int(rng.integers(1, 3))
        x = parameter(shape, dtype)
        node = opset.shuffle_channels(x, axis, group)
        cases.append(_moved(f"shuffle{i}", x, data_of(rng, shape, dtype), node))
    return cases


# --- zero-size data, index inputs computed at run time -----------------------------------------


def empty_cases(rng: np.random.Generator, _: int) -> list[Case]:
    """Data with a 0 dim through each layout op (the CPU plugin runs them all)."""
    shape = [2, 0, 3]
    builders = [
        lambda x: opset.reshape(x, ints([0, 6]), False),
        lambda x: opset.reshape(x, ints([3, 0, -1]), False),  # -1 of a 0 product: 1
        lambda x: opset.reshape(x, ints([0, -1, 2]), True),
        lambda x: opset.transpose(x, ints([2, 0, 1])),
        lambda x: opset.split(x, ints(0), 2),
        lambda x: opset.variadic_split(x, ints(-1), ints([1, -1])),
        lambda x: opset.pad(x, ints([0, 1, 0]), ints([1, 1, 0]), "constant", opset.constant(np.float32(7))),
        lambda x: opset.roll(x, ints([1, 2]), ints([1, 2])),
        lambda x: opset.cumsum(x, ints(1), exclusive=True),
        lambda x: opset.depth_to_space(x, "blocks_first", 1),
        lambda x: opset.unsqueeze(x, ints([0])),
        lambda x: opset.squeeze(opset.unsqueeze(x, ints([3])), ints([3])),
        lambda x: NodeFactory("opset1").create(
            "Reverse", [x.output(0), ints([1, 2]).output(0)], {"mode": "index"}
        ),
        lambda x: opset.shuffle_channels(x, 2, 3),
    ]
    cases = []
    for i, build in enumerate(builders):
        x = parameter(shape)
        cases.append(_moved(f"empty{i}", x, np.zeros(shape, np.float32), build(x)))
    x, y = parameter(shape), parameter([2, 2, 3])
    node = opset.concat([x, y, x], 1)
    cases.append(
        Case(
            "empty_concat",
            {x: np.zeros(shape, np.float32), y: data_of(rng, [2, 2, 3], np.float32)},
            [node.output(0)],
            exact=True,
        )
    )
    return cases


def runtime_cases(rng: np.random.Generator, _: int) -> list[Case]:
    """The index inputs as Parameters: irshape infers each layer at the values it is given."""
    cases = []
    for i in range(16):
        dtype, kind = DTYPES[i % len(DTYPES)], (np.int32, np.int64)[i % 2]
        feeds = Feeds(rng)
        x = feeds.data([2, 3, 4], dtype)
        op = i % 8
        if op == 0:
            node = opset.reshape(x, feeds.index([4, -1] if i < 8 else [0, 0, 2, 2], kind), i >= 8)
        elif op == 1:
            node = opset.transpose(x, feeds.index([int(a) for a in rng.permutation(3)], kind))
        elif op == 2:
            begin, end = feeds.index([1, 0, -1], kind), feeds.index([0, 2, 1], kind)
            pad_value = parameter([], dtype)
            feeds.values[pad_value] = data_of(rng, [4], dtype)[1]
            node = opset.pad(x, begin, end, "constant", pad_value)
        elif op == 3:
            begin, end = feeds.index([1, 2, 3], kind), feeds.index([1, -1, 0], kind)
            node = opset.pad(x, begin, end, ("reflect", "symmetric")[i // 8])
        elif op == 4:
            node = opset.roll(x, feeds.index([5, -7], kind), feeds.index([2, -3], kind))
        elif op == 5 and dtype in (np.float32, np.int32):
            node = opset.cumsum(x, feeds.index(-1, kind), reverse=True)
        elif op == 5:
            node = opset.squeeze(opset.unsqueeze(x, ints([1])), feeds.index([1], kind))
        elif op == 6:
            node = opset.variadic_split(x, ints(2), feeds.index([1, -1, 2], kind))
        else:
            node = opset.split(x, feeds.index(-1, kind), 2)
        outputs = [node.output(k) for k in range(node.get_output_size())]
        cases.append(Case(f"runtime{i}", feeds.values, outputs, exact=True))
    return cases


def chain_cases(rng: np.random.Generator, _: int) -> list[Case]:
    """The layout ops as networks chain them: a ShuffleNet unit (split, shuffle), a ViT's
    patch embedding and head split (reshape, transpose, squeeze), a YOLO neck (concat,
    space-to-depth, pad), a super-resolution tail (depth-to-space), a cumulative mask."""
    cases = []
    for i in range(4):
        dtype = (np.float32, np.float16, np.int32, np.uint8)[i]
        feeds = Feeds(rng)
        x = feeds.data([1, 8, 4, 4], dtype)
        left, right = opset.split(x, ints(1), 2).outputs()
        shuffled = opset.shuffle_channels(opset.concat([left, right], 1), 1, 2)
        patches = opset.transpose(opset.reshape(shuffled, ints([1, 8, 16]), False), ints([0, 2, 1]))
        heads = opset.transpose(opset.reshape(patches, ints([0, 0, 2, 4]), True), ints([0, 2, 1, 3]))
        first = opset.squeeze(opset.variadic_split(heads, ints(1), ints([1, -1])).output(0), ints([1]))
        neck = opset.pad(
            opset.space_to_depth(x, "blocks_first", 2), ints([0, 0, 1, 1]), ints([0, 0, 1, 1]), "edge"
        )
        tail = opset.depth_to_space(opset.roll(neck, ints([1]), ints([-1])), "depth_first", 2)
        outputs = [first.output(0), tail.output(0)]
        if dtype in (np.float32, np.int32):
            outputs.append(
                opset.cumsum(opset.reshape(tail, ints([1, -1]), False), ints(1), exclusive=True).output(0)
            )
        cases.append(Case(f"chain{i}", feeds.values, outputs, exact=True))
    return cases


# i64 data over the whole int64 range, which the CPU plugin holds as its low 32 bits (and a
# compiled model's Consts saturated to int32's range): irshape/kernels/integers.py
def wide_cases() -> list[Rebuilt]:
    rng = np.random.default_rng(7)
    builders = [
        lambda x: opset.concat([x, x], 1),
        lambda x: opset.transpose(x, ints([1, 2, 0])),
        lambda x: opset.reshape(x, ints([4, -1]), False),
        lambda x: opset.pad(x, ints([1, 0, 2]), ints([0, -1, 1]), "symmetric"),
        lambda x: opset.pad(x, ints([1, 0, 2]), ints([0, 1, 1]), "constant"),  # pads 0
        lambda x: opset.split(x, ints(-1), 2),
        lambda x: opset.depth_to_space(x, "blocks_first", 1),
        lambda x: NodeFactory("opset1").create(
            "Reverse", [x.output(0), ints([0, 2]).output(0)], {"mode": "index"}
        ),
    ]
    info = np.iinfo(np.int64)
    return [
        Rebuilt(
            f"wide{i}", build, [rng.integers(info.min, info.max, (2, 3, 4), dtype=np.int64, endpoint=True)]
        )
        for i, build in enumerate(builders)
    ]


WIDE = wide_cases()


@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    return run_batch([rebuilt.case for rebuilt in WIDE], tmp_path_factory.mktemp("wide"))


@pytest.mark.parametrize("rebuilt", WIDE, ids=[rebuilt.case.name for rebuilt in WIDE])
def test_wide_i64_as_the_plugin(wide: Batch, rebuilt: Rebuilt) -> None:
    """i64 elements beyond int32 come out as the CPU plugin holds them: their low 32 bits."""
    assert wide.mismatch(rebuilt.case) is None, wide.mismatch(rebuilt.case)


def test_the_plugin_truncates_i64(wide: Batch) -> None:
    """What the wide cases show: OpenVINO's reference keeps the whole i64, the plugin's Concat of
    them only their low 32 bits, and irshape follows the plugin."""
    data = WIDE[0].values[0]
    reference = np.concatenate([data, data], 1)  # (the node is Concat along axis 1)
    assert np.array_equal(WIDE[0].expected()[0], reference.astype(np.int32).astype(np.int64))
    plugin = wide.expected["wide0_out0"]
    assert not np.array_equal(plugin, reference)
    assert np.array_equal(plugin, reference.astype(np.int32).astype(np.int64))
    assert np.array_equal(wide.got["wide0_out0"], plugin)


def test_pad_past_the_data_is_refused(tmp_path: Path) -> None:
    """A negative pad beyond its dim (-4 of 3) crashes the CPU plugin (double free): irshape
    refuses the layer as one OpenVINO does not run (not compiled here, for that reason)."""
    x = parameter([2, 3])
    node = opset.pad(x, ints([0, -4]), ints([0, 2]), "constant")
    assert refusal(tmp_path, node, {x: np.zeros((2, 3), np.float32)}) is Outcome.UNSUPPORTED


def test_one_shift_for_two_axes_is_refused(tmp_path: Path) -> None:
    """A scalar shift for two axes: the reference broadcasts it, the CPU plugin fails to
    compile the layer ('shift' and 'axes' dimensions mismatch); irshape refuses it too."""
    x = parameter([2, 3])
    node = opset.roll(x, ints(1), ints([0, 1]))
    with pytest.raises(RuntimeError, match="dimensions mismatch"):
        ov.Core().compile_model(ov.Model([node], [x]), "CPU", CPU_CONFIG)
    assert refusal(tmp_path, node, {x: np.zeros((2, 3), np.float32)}) is Outcome.UNSUPPORTED


GROUPS = groups_of(
    {
        "reshape": reshape_cases,
        "squeeze": squeeze_cases,
        "unsqueeze": unsqueeze_cases,
        "transpose": transpose_cases,
        "concat": concat_cases,
        "split": split_cases,
        "variadic_split": variadic_split_cases,
        "pad1": lambda rng, _: pad_cases(rng, 1),
        "pad12": lambda rng, _: pad_cases(rng, 12),
        "roll": roll_cases,
        "reverse": reverse_cases,
        "cumsum": cumsum_cases,
        "depth_to_space": depth_to_space_cases,
        "space_to_depth": space_to_depth_cases,
        "shuffle_channels": shuffle_channels_cases,
        "empty": empty_cases,
        "runtime": runtime_cases,
        "chain": chain_cases,
    }
)


@pytest.fixture(scope="module")
def batches(tmp_path_factory: pytest.TempPathFactory) -> Batches:
    return Batches(GROUPS, tmp_path_factory.mktemp)


@pytest.mark.parametrize(("group", "case"), parameters(GROUPS), ids=[c.name for _, c in parameters(GROUPS)])
def test_layout(batches: Batches, group: str, case: Case) -> None:
    problem = batches(group).mismatch(case)
    assert problem is None, problem
