"""Values through the scatters into tensors of any rank and the ops that rearrange elements,
integers and reals, against OpenVINO (issue 24, item 1).

Each case is a chain drawn with a seed: a ShapeOf of a Parameter whose dims are static, dynamic
(``?``) or intervals, eight of its dims (each 4 or more) converted to i64, i32, bf16, f16, f32
or f64, half the time multiplied by a real Const, reshaped to the shape the op takes, through
the op under test, converted to i64, flattened and read as a Broadcast's target. OpenVINO's
reading of the saved file is the expectation, exactly.

The ops: ScatterUpdate-3 (on any axis), ScatterElementsUpdate-3 and -12 (every reduction, with
and without ``use_init_val``), ScatterNDUpdate-3 and -15 (every reduction; index tuples of any
length, negative elements too), DepthToSpace and SpaceToDepth (both modes, 1 to 3 spatial
axes), ShuffleChannels and Reverse (index and mask modes).

What they found, by experiment: OpenVINO evaluates every scatter into data of any rank, values
and bounds (the default bound evaluators), but ScatterElementsUpdate and ScatterNDUpdate no f64
(``?``); a real scatter's reduction computes in the type (f16 and bf16 through f32); DepthToSpace,
SpaceToDepth, ShuffleChannels and Reverse move the elements of every type, but give no bounds
(an interval input leaves the whole target ``?``). ReverseSequence, Roll, GatherND and
GatherElements fold nothing at all (``?`` on static inputs too), as irshape.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset8 as ov8
import openvino.opset12 as ov12
import openvino.opset15 as ov15
import pytest
from lxml import etree
from openvino.utils.node_factory import NodeFactory

import irshape

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    as_broadcast_target,
    batches,
    draw_cases,
    openvino_reads,
    params,
    read_back,
    real_constant,
)

SEED = 20261129
PER_KIND = 6
REALS = ("f16", "f32", "f64", "bf16")
KINDS = (*REALS, "i64", "i32")
STYLES = ("static", "interval", "dynamic")
_MAX_ELEMENTS = 48
# the scatters whose evaluate takes no f64
NO_F64 = frozenset({"ScatterElementsUpdate", "ScatterNDUpdate"})
# the ops OpenVINO has no bound evaluators for: an interval input gives ? everywhere
NO_BOUNDS = frozenset({"DepthToSpace", "SpaceToDepth", "ShuffleChannels", "Reverse"})
_SHAPES = ([2, 4], [4, 2], [1, 8], [2, 2, 2], [2, 1, 4], [8])


def _i(values: list[int] | list[list[int]] | int) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int64))


def _dims(rng: random.Random, style: str) -> list[ov.Dimension]:
    dims = [ov.Dimension(1)]
    for _ in range(8):
        if style == "static":
            dims.append(ov.Dimension(rng.randint(4, 600)))
        elif style == "dynamic":
            dims.append(ov.Dimension() if rng.random() < 0.3 else ov.Dimension(rng.randint(4, 600)))
        else:
            lo = rng.randint(4, 300)
            dims.append(
                ov.Dimension(lo, lo + rng.randint(1, 300)) if rng.random() < 0.8 else ov.Dimension(lo, -1)
            )
    return dims


def _const(numbers: list[float], shape: list[int], kind: str, rng: random.Random) -> ov.Node:
    """A Const of ``kind`` (integers truncated) reshaped to ``shape``: a 1D one, whose value
    irshape reads (bf16: half the time an f32 Const converted)."""
    if kind == "bf16" and rng.random() < 0.5:
        flat = ov1.convert(ov1.constant(np.array(numbers, dtype=np.float32)), "bf16")
    else:
        flat = real_constant(numbers, kind)
    return ov1.reshape(flat, _i(shape), False)


def _updates(rng: random.Random, shape: list[int], kind: str, reduction: str = "none") -> ov.Node:
    """Updates of at least 1 (no target dim reaches 0); a product's and a subtraction's small."""
    count = int(np.prod(shape))
    if reduction == "prod":
        numbers = [round(rng.uniform(1.0, 2.5), 2) for _ in range(count)]
    elif reduction == "sub":
        numbers = [round(rng.uniform(0.0, 1.0), 2) for _ in range(count)]
    else:
        numbers = [round(rng.uniform(1.0, 40.0), rng.choice([0, 1, 2])) for _ in range(count)]
    return _const(numbers, shape, kind, rng)


# --- the scatters -------------------------------------------------------------------------------


def _scatter_update(rng: random.Random, x: ov.Node, shape: list[int], kind: str) -> ov.Node:
    axis = rng.randrange(len(shape))
    n = shape[axis]
    index_shape = rng.choice([[rng.randint(1, n)], [1, rng.randint(1, n)], []])
    count = int(np.prod(index_shape))
    indices = np.array(rng.choices(range(n), k=count)).reshape(index_shape)  # repeats: the last
    updates = [*shape[:axis], *index_shape, *shape[axis + 1 :]]
    written_axis = axis - len(shape) if rng.random() < 0.3 else axis
    return ov3.scatter_update(x, ov1.constant(indices), _updates(rng, updates, kind), _i(written_axis))


_ELEMENT_REDUCTIONS = ("none", "sum", "prod", "min", "max", "mean")


def _scatter_elements_update(rng: random.Random, x: ov.Node, shape: list[int], kind: str) -> ov.Node:
    axis = rng.randrange(len(shape))
    lengths = [rng.randint(1, n) for n in shape]
    lengths[axis] = rng.randint(1, 3)
    count = int(np.prod(lengths))
    indices = np.array([rng.randrange(-shape[axis], shape[axis]) for _ in range(count)]).reshape(lengths)
    written_axis = axis - len(shape) if rng.random() < 0.3 else axis
    if rng.random() < 0.25:
        return ov3.scatter_elements_update(
            x, ov1.constant(indices), _updates(rng, lengths, kind), _i(written_axis)
        )
    reduction = rng.choice(_ELEMENT_REDUCTIONS)
    return ov12.scatter_elements_update(
        x,
        ov1.constant(indices),
        _updates(rng, lengths, kind, reduction),
        _i(written_axis),
        reduction,
        rng.random() < 0.5,
    )


_ND_REDUCTIONS = ("none", "sum", "sub", "prod", "min", "max")


def _scatter_nd_update(rng: random.Random, x: ov.Node, shape: list[int], kind: str) -> ov.Node:
    depth = rng.randint(1, len(shape))
    leading = rng.choice([[rng.randint(1, 3)], [1, rng.randint(1, 2)]])
    count = int(np.prod(leading))
    # each element from -n to n - 1 (a negative one counts from the end)
    tuples = [[rng.randrange(-n, n) for n in shape[:depth]] for _ in range(count)]
    indices = np.array(tuples).reshape([*leading, depth])
    updates = [*leading, *shape[depth:]]
    if rng.random() < 0.3:
        return ov4.scatter_nd_update(x, ov1.constant(indices), _updates(rng, updates, kind))
    reduction = rng.choice(_ND_REDUCTIONS)
    return ov15.scatter_nd_update(
        x, ov1.constant(indices), _updates(rng, updates, kind, reduction), reduction
    )


# --- the ops that rearrange elements ---------------------------------------------------------------


def _depth_to_space(rng: random.Random, x: ov.Node, shape: list[int], kind: str) -> ov.Node:
    return ov1.depth_to_space(x, rng.choice(["blocks_first", "depth_first"]), shape[-1])


def _space_to_depth(rng: random.Random, x: ov.Node, shape: list[int], kind: str) -> ov.Node:
    return ov1.space_to_depth(x, rng.choice(["blocks_first", "depth_first"]), shape[-1])


def _shuffle_channels(rng: random.Random, x: ov.Node, shape: list[int], kind: str) -> ov.Node:
    axis = rng.randrange(len(shape))
    groups = [g for g in range(1, shape[axis] + 1) if shape[axis] % g == 0]
    return ov3.shuffle_channels(x, axis - len(shape) if rng.random() < 0.3 else axis, rng.choice(groups))


def _reverse(rng: random.Random, x: ov.Node, shape: list[int], kind: str) -> ov.Node:
    if rng.random() < 0.5:
        picked = rng.sample(range(len(shape)), rng.randint(0, len(shape)))
        axes = _i([a - len(shape) if rng.random() < 0.3 else a for a in picked])  # (-1: the last)
        mode = "index"
    else:
        axes = ov1.constant(np.array([rng.random() < 0.5 for _ in shape]))
        mode = "mask"
    return NodeFactory("opset1").create("Reverse", [x.output(0), axes.output(0)], {"mode": mode})


_BLOCK_SHAPES = {  # the data shapes of the block ops: [N, C, spatial...] with the block size last
    "DepthToSpace": ([1, 8, 1, 1, 2], [1, 4, 2, 2], [1, 8, 1, 2], [2, 4, 1, 2], [1, 8, 1, 1, 1, 2]),
    "SpaceToDepth": ([1, 1, 2, 4, 2], [1, 2, 2, 2, 2], [2, 1, 4, 2], [1, 1, 2, 2, 2, 2], [1, 1, 8, 2]),
}

_OPS: dict[str, Callable[[random.Random, ov.Node, list[int], str], ov.Node]] = {
    "ScatterUpdate": _scatter_update,
    "ScatterElementsUpdate": _scatter_elements_update,
    "ScatterNDUpdate": _scatter_nd_update,
    "DepthToSpace": _depth_to_space,
    "SpaceToDepth": _space_to_depth,
    "ShuffleChannels": _shuffle_channels,
    "Reverse": _reverse,
}
OPS = tuple(_OPS)


def _build(seed: int, op: str, kind: str, style: str) -> ov.Node:
    rng = random.Random(seed)
    data = ov1.parameter(ov.PartialShape(_dims(rng, style)), np.float32)
    shape_of = ov3.shape_of(data, rng.choice(["i64", "i64", "i32"]))
    x = ov1.convert(ov8.gather(shape_of, _i(list(range(1, 9))), _i(0)), kind)
    if kind in REALS and (kind != "f64" or style == "static") and rng.random() < 0.5:
        scales = [rng.choice([1.0, 1.25, 1.5, 2.0, 2.5, 10.1]) for _ in range(8)]
        x = ov1.multiply(x, _const(scales, [8], kind, rng))
    if op in _BLOCK_SHAPES:  # the block size rides at the end of the drawn shape
        *shape, block = rng.choice(_BLOCK_SHAPES[op])
        shape_with_block = [*shape, block]
    else:
        shape = list(rng.choice(_SHAPES))
        shape_with_block = shape
    x = ov1.reshape(x, _i(shape), False)
    moved = _OPS[op](rng, x, shape_with_block, kind)
    out = moved.get_output_partial_shape(0)
    count = int(np.prod([d.get_length() for d in out])) if out.is_static else 0
    if not 0 < count <= _MAX_ELEMENTS:
        raise ValueError("an output without elements, or too large a one")
    return as_broadcast_target(moved)


def _cases() -> list[OpCase]:
    keys = [(op, kind, style) for op in OPS for kind in KINDS for style in STYLES]
    return draw_cases("rg", keys, PER_KIND, SEED, _build)


CASES = _cases()
BATCHES = batches(CASES)
STATS["scatters of any rank and rearranging ops, exact (test_real_rearrange.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_rearranged_values_are_openvinos(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"real_rearrange{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_the_cases_fold_and_bound(ops_runner: OpsBatchRunner) -> None:
    # the comparison above compares folded values and bounds, not two ?s: OpenVINO's targets are
    # static on static inputs (but the scatters' that evaluate no f64), and have intervals on
    # interval inputs but for the ops without bound evaluators
    expected: dict[str, str] = {}
    for index, batch in enumerate(BATCHES):
        run = ops_runner.ops_batch(f"real_rearrange{index}", batch)
        expected |= {case.cid: run.expected[case.cid][0][0] for case in batch}
    for op in OPS:
        for kind in KINDS:
            static = [c for c in CASES if c.op == op and c.tags == (kind, "static")]
            folded = [c for c in static if "?" not in expected[c.cid]]
            no_value = op in NO_F64 and kind == "f64"
            assert len(folded) == (0 if no_value else len(static)), (op, kind)
            bounded = [
                c for c in CASES if c.op == op and c.tags == (kind, "interval") and ".." in expected[c.cid]
            ]
            assert bool(bounded) == (not no_value and op not in NO_BOUNDS), (op, kind)


# --- ScatterNDUpdate's negative elements, and an index out of range into data of rank 2 ---------


def _sizes_2x2(kind: str) -> tuple[ov.Node, ov.Node]:
    """A static Parameter and four of its dims (5, 6, 7, 8) converted to ``kind``, as [2, 2]."""
    data = ov1.parameter(ov.PartialShape([1, 5, 6, 7, 8]), np.float32)
    sizes = ov8.gather(ov3.shape_of(data), _i([1, 2, 3, 4]), _i(0))
    return data, ov1.reshape(ov1.convert(sizes, kind), _i([2, 2]), False)


def _target(values: ov.Node) -> ov.Node:
    flat = ov1.reshape(ov1.convert(values, "i64"), _i([-1]), False)
    return ov3.broadcast(ov1.constant(np.float32(1.0)), flat)


@pytest.mark.parametrize("kind", ["i64", "f32", "f16"])
@pytest.mark.parametrize(("tuples", "expected"), [([[-1, -2]], "[5,6,9,8]"), ([[0, -1]], "[5,9,7,8]")])
def test_scatter_nd_counts_negative_elements_from_the_end(
    tmp_path: Path, kind: str, tuples: list[list[int]], expected: str
) -> None:
    # each element of an index tuple counted from the end of its axis: [-1, -2] is [1, 0]
    data, x = _sizes_2x2(kind)
    update = real_constant([9.0], kind) if kind != "i64" else _i([9])
    node = _target(ov4.scatter_nd_update(x, _i(tuples), update))
    node.set_friendly_name("target")
    xml = tmp_path / "nd.xml"
    ov.save_model(ov.Model([ov1.result(node)], [data]), str(xml), compress_to_fp16=False)
    assert read_back(xml)["target"][0][0] == expected
    (layer,) = [layer for layer in irshape.check_file(xml).layers if layer.name == "target"]
    assert [str(s) for s in layer.outputs] == [expected]


@pytest.mark.parametrize("kind", ["i64", "f32"])
@pytest.mark.parametrize("op", ["ScatterUpdate", "ScatterElementsUpdate", "ScatterNDUpdate"])
def test_a_scatter_into_rank_2_out_of_range_fails_as_openvino_fails(
    tmp_path: Path, op: str, kind: str
) -> None:
    # an index written out of range after the build (the builder evaluates the scatter):
    # read_model fails evaluating the Broadcast's target, irshape reports IRS214 there
    data, x = _sizes_2x2(kind)

    def update(shape: list[int]) -> ov.Node:
        return _const([7.0] * int(np.prod(shape)), shape, kind, random.Random(0))

    # (i32: bytes no other Const has, which the writer would give one offset)
    written = [[0, 1]] if op == "ScatterNDUpdate" else [[1]] if op == "ScatterElementsUpdate" else [1]
    index = ov1.constant(np.array(written, dtype=np.int32))
    index.set_friendly_name("index")
    if op == "ScatterUpdate":
        scattered = ov3.scatter_update(x, index, update([2, 1]), _i(1))
    elif op == "ScatterElementsUpdate":
        scattered = ov12.scatter_elements_update(x, index, update([1, 1]), _i(1))
    else:
        scattered = ov4.scatter_nd_update(x, index, update([1]))
    node = _target(scattered)
    node.set_friendly_name("target")
    xml = tmp_path / "out.xml"
    ov.save_model(ov.Model([ov1.result(node)], [data]), str(xml), compress_to_fp16=False)
    (layer,) = etree.parse(str(xml)).xpath("//layer[@name='index']")
    offset = int(layer.find("data").get("offset"))
    weights = bytearray(xml.with_suffix(".bin").read_bytes())
    position = offset + 4 if op == "ScatterNDUpdate" else offset  # (the tuple's second element)
    weights[position : position + 4] = np.int32(5).tobytes()
    xml.with_suffix(".bin").write_bytes(bytes(weights))
    assert openvino_reads(xml) is not None
    codes = [d.code for d in irshape.check_file(xml).errors if d.layer_name == "target"]
    assert codes == ["IRS214"]
