"""Value bounds through shape subgraphs, against OpenVINO (issue 14).

Each case is a Parameter with static, dynamic (``?``) and interval (``2..9``, ``3..``) dims,
its ShapeOf (ShapeOf-1, or ShapeOf-3 i32 or i64), a chain of the ops that fold shapes (Gather,
Concat, Convert, Convert through boolean, Squeeze/Unsqueeze, Slice, StridedSlice with exact or
masked bounded begin, ReduceProd/Sum/Max/Min, Add/Subtract/Multiply/Divide/Maximum/Minimum/
Mod/FloorMod/Power with a Const, Mod by the vector, Abs, Negative/Floor/Ceiling, Select under an
Equal or a boolean Const mask, ScatterUpdate/ScatterNDUpdate) and one op that reads a shape from the result
(Reshape, Broadcast, Interpolate's sizes, Tile, Range, TopK, Pad, Slice, StridedSlice with begin
or end from the bounds). OpenVINO reads the saved file and
evaluates the subgraph on bounds; its output shape for every layer of the case is the
expectation (the shared harness, tests/differential/ops_harness.py).

The consumer's output is compared, exactly (a wrong fold anywhere in the chain changes it).
Further suites below: Broadcast's look through a Concat at its Consts, values by element type,
a boolean Const's bytes, the scatters' reductions and repeated indices, StridedSlice with a
begin or end known by bounds and the other not at all.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset8 as ov8
import openvino.opset11 as ov11
import openvino.opset12 as ov12
import openvino.opset13 as ov13
import openvino.opset15 as ov15
import pytest
from lxml import etree

import irshape

from .conftest import STATS
from .ops_harness import OpCase, OpsBatch, OpsBatchRunner, batches, buildable, params, read_back, save_batch

SEED = 20261125
COUNT = 1200


def _dim(rng: random.Random) -> ov.Dimension:
    kind = rng.random()
    if kind < 0.3:
        return ov.Dimension(rng.randint(1, 6))
    if kind < 0.5:
        return ov.Dimension()
    if kind < 0.6:
        return ov.Dimension(rng.randint(1, 4), -1)
    lo = rng.randint(1, 5)
    return ov.Dimension(lo, lo + rng.randint(1, 8))


def _i(values: Any, element_type: str) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int32 if element_type == "i32" else np.int64))


class _Chain:
    """A shape vector being folded: the node, its length and element type."""

    def __init__(self, node: ov.Node, length: int, element_type: str) -> None:
        self.node, self.length, self.element_type = node, length, element_type


_STEPS = [
    "gather",
    "gather",
    "concat",
    "convert",
    "unsqueeze",
    "slice",
    "strided",
    "strided_masked",
    "arith",
    "arith",
    "prod",
    "reduce",
    "modulo",
    "mod_by",
    "power",
    "abs",
    "unary",
    "bool",
    "select",
    "scatter",
]


def _step(rng: random.Random, chain: _Chain) -> _Chain:
    """One folding op on the shape vector."""
    et, n = chain.element_type, chain.length
    kind = rng.choice(_STEPS)
    if kind == "gather" and n > 0:
        count = rng.randint(1, min(n + 1, 4))
        indices = [rng.randrange(-n, n) for _ in range(count)]
        return _Chain(ov8.gather(chain.node, _i(indices, et), _i(0, et)), count, et)
    if kind == "concat":
        extra = [rng.randint(1, 4) for _ in range(rng.randint(1, 2))]
        parts = [chain.node, _i(extra, et)] if rng.random() < 0.5 else [_i(extra, et), chain.node]
        return _Chain(ov1.concat(parts, 0), n + len(extra), et)
    if kind == "convert":
        target = "i32" if et == "i64" else "i64"
        return _Chain(ov1.convert(chain.node, target), n, target)
    if kind == "unsqueeze":
        up = ov1.unsqueeze(chain.node, _i([0], "i64"))
        return _Chain(ov1.squeeze(up, _i([0], "i64")), n, et)
    if kind == "slice" and n > 1:
        start = rng.randint(0, n - 1)
        return _Chain(ov8.slice(chain.node, _i([start], et), _i([n], et), _i([1], et)), n - start, et)
    if kind == "strided" and n > 1:
        stop = rng.randint(1, n)
        node = ov1.strided_slice(chain.node, _i([0], et), _i([stop], et), _i([1], et), [0], [0])
        return _Chain(node, stop, et)
    if kind == "strided_masked" and n > 0:
        # begin from the vector's own bounds, masked: the bounds move on (evaluate_lower)
        begin = ov8.gather(chain.node, _i([0], et), _i(0, et))
        stop = rng.randint(1, n)
        node = ov1.strided_slice(chain.node, begin, _i([stop], et), _i([1], et), [1], [0])
        return _Chain(node, stop, et)
    if kind == "prod" and n > 0:
        return _Chain(ov1.reduce_prod(chain.node, _i([0], "i64"), True), 1, et)
    if kind == "reduce" and n > 0:
        build_reduce = rng.choice([ov1.reduce_sum, ov1.reduce_max, ov1.reduce_min])
        return _Chain(build_reduce(chain.node, _i([0], "i64"), True), 1, et)
    if kind == "modulo":
        # a positive Const divisor: FloorMod evaluates every pairing of bounds (x % 0 traps)
        build_mod = rng.choice([ov1.mod, ov1.floor_mod])
        return _Chain(build_mod(chain.node, _i([rng.randint(1, 5)], et)), n, et)
    if kind == "mod_by":
        # Mod by the vector: |v| + 1 is never 0, and Mod's own rule masks a bound of 0
        divisor = ov1.add(ov1.absolute(chain.node), _i([1], et))
        return _Chain(ov1.mod(_i([rng.randint(1, 30)], et), divisor), n, et)
    if kind == "power":
        # capped, so that no power overflows (OpenVINO casts std::pow's double)
        base = ov1.minimum(chain.node, _i([rng.randint(2, 40)], et))
        return _Chain(ov1.power(base, _i([rng.randint(0, 2)], et)), n, et)
    if kind == "abs":
        shifted = ov1.subtract(chain.node, _i([rng.randint(0, 6)], et))
        return _Chain(ov1.absolute(shifted), n, et)
    if kind == "unary":
        # no bounds of their own in OpenVINO: only exact values pass
        build_unary = rng.choice([ov1.negative, ov1.floor, ov1.ceiling])
        return _Chain(ov1.negative(build_unary(chain.node)), n, et)
    if kind == "bool":
        return _Chain(ov1.convert(ov1.convert(chain.node, "boolean"), et), n, et)
    if kind == "select":
        ones = _i([1] * n, et)
        if rng.random() < 0.5:  # a condition known exactly: Select moves the bounds
            flags = [rng.randint(0, 1) for _ in range(n)]
            literal = ov1.constant(np.array(flags, dtype=bool))  # a boolean Const, or an Equal
            cond = literal if rng.random() < 0.5 else ov1.equal(_i(flags, et), _i([1] * n, et))
        else:  # a condition from the bounds: none
            cond = ov1.equal(chain.node, _i([rng.randint(1, 4)], et))
        parts = [chain.node, ones] if rng.random() < 0.5 else [ones, chain.node]
        return _Chain(ov1.select(cond, *parts), n, et)
    if kind == "scatter" and n > 0:
        position, update = rng.randrange(n), rng.randint(1, 5)
        if rng.random() < 0.5:  # a Const written into the vector
            if rng.random() < 0.5:
                node = ov3.scatter_update(chain.node, _i([position], et), _i([update], et), _i(0, et))
            else:
                node = ov4.scatter_nd_update(chain.node, _i([[position]], et), _i([update], et))
            return _Chain(node, n, et)
        element = ov8.gather(chain.node, _i([rng.randrange(n)], et), _i(0, et))  # the vector written
        base = _i([rng.randint(1, 4) for _ in range(n)], et)
        if rng.random() < 0.5:
            node = ov3.scatter_update(base, _i([position], et), element, _i(0, et))
        else:
            node = ov4.scatter_nd_update(base, _i([[position]], et), element)
        return _Chain(node, n, et)
    if kind == "arith":
        op = rng.choice(["add", "subtract", "multiply", "divide", "maximum", "minimum"])
        k = rng.randint(1, 3) if op != "subtract" else rng.randint(0, 1)
        other = _i([k], et)
        build: Callable[..., ov.Node] = getattr(ov1, op)
        return _Chain(build(chain.node, other), n, et)
    return chain


def _consumer(rng: random.Random, data: ov.Node, rank: int, chain: _Chain) -> tuple[str, ov.Node]:
    """The op reading a shape from the folded vector."""
    et, n, shape = chain.element_type, chain.length, chain.node
    kind = rng.choice(
        [
            "Broadcast",
            "Broadcast",
            "Reshape",
            "Reshape",
            "Interpolate",
            "Tile",
            "Range",
            "TopK",
            "Pad",
            "SliceConsumer",
            "StridedSliceConsumer",
            "StridedSliceConsumer",
        ]
    )
    if kind == "Broadcast":
        return kind, ov1.broadcast(ov1.constant(np.float32(1.0)), shape)
    if kind == "Reshape":
        special_zero = rng.random() < 0.3
        return kind, ov1.reshape(ov1.broadcast(ov1.constant(np.float32(1.0)), shape), shape, special_zero)
    if kind == "Interpolate" and n >= 1:
        image = ov1.parameter([1] * n, np.float32)
        axes = _i(list(range(n)), "i64")
        node = ov11.interpolate(image, shape, "nearest", "sizes", axes=axes)
        return kind, node
    if kind == "Tile":
        return kind, ov1.tile(ov1.parameter([2] * min(n, 3), np.float32), shape)
    scalar = ov1.squeeze(ov8.gather(shape, _i([0], et), _i(0, et)), _i([0], "i64")) if n else None
    if kind == "Range" and scalar is not None:
        return kind, ov8.range(_i(0, et), scalar, _i(1, et), et)
    if kind == "TopK" and scalar is not None and rank > 0:
        flat = ov1.reshape(data, _i([-1], "i64"), False)
        return kind, ov11.topk(flat, scalar, 0, "max", "value")
    if kind == "Pad" and rank > 0:
        pads = ov8.gather(shape, _i([0] * rank, et), _i(0, et)) if n else _i([0] * rank, et)
        return kind, ov13.pad(data, pads, pads, "constant")
    if kind == "SliceConsumer" and scalar is not None and rank > 0:
        # start or stop from the bounded value, shifted below zero at times; steps both ways
        bound = ov1.unsqueeze(scalar, _i([0], "i64"))
        shifted = ov1.subtract(bound, _i([rng.randint(0, 6)], et))
        step = rng.choice([1, 1, 2, -1, -2])
        other = _i([rng.choice([0, -1, 2, 100, -100])], et)
        start, stop = (other, shifted) if rng.random() < 0.5 else (shifted, other)
        axis = rng.randrange(rank)
        return kind, ov8.slice(data, start, stop, _i([step], et), _i([axis], et))
    if kind == "StridedSliceConsumer" and scalar is not None and rank > 0:
        # begin and end from the bounded value at one axis, Consts or masks at the others
        bound = ov1.unsqueeze(scalar, _i([0], "i64"))
        axis = rng.randrange(rank)
        count = rng.randint(axis + 1, rank)
        begin_parts, end_parts = [], []
        for i in range(count):
            shifted = ov1.subtract(bound, _i([rng.randint(0, 6)], et))
            other = _i([rng.choice([0, -1, 1, 2, 100, -100])], et)
            pick = rng.random()
            begin_parts.append(shifted if i == axis and pick < 0.5 else other)
            end_parts.append(shifted if i == axis and pick >= 0.5 else _i([rng.choice([0, -1, 3, 100])], et))
        begin_mask = [int(rng.random() < 0.2) for _ in range(count)]
        end_mask = [int(rng.random() < 0.2) for _ in range(count)]
        strides = _i([rng.choice([1, 1, 2, -1, -2]) for _ in range(count)], et)
        begin, end = ov1.concat(begin_parts, 0), ov1.concat(end_parts, 0)
        return kind, ov1.strided_slice(data, begin, end, strides, begin_mask, end_mask)
    return "Broadcast", ov1.broadcast(ov1.constant(np.float32(1.0)), shape)


_CONSUMERS: dict[str, str] = {}  # case id -> the consumer its build drew


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases: list[OpCase] = []
    while len(cases) < COUNT:
        rank = rng.randint(1, 4)
        dims = [_dim(rng) for _ in range(rank)]
        output_type = rng.choice(["i32", "i64"])
        steps = rng.randint(0, 3)
        seed = rng.randrange(2**32)
        cid = f"b{len(cases):05d}"

        def build(
            dims: list[ov.Dimension] = dims,
            t: str = output_type,
            k: int = steps,
            s: int = seed,
            cid: str = cid,
        ) -> ov.Node:
            local = random.Random(s)
            data = ov1.parameter(ov.PartialShape(dims), np.float32)
            # ShapeOf-1 (i64 always) or ShapeOf-3 with its output type
            shape_of = ov1.shape_of(data) if t == "i64" and local.random() < 0.3 else ov8.shape_of(data, t)
            chain = _Chain(shape_of, len(dims), t)
            for _ in range(k):
                chain = _step(local, chain)
            _CONSUMERS[cid], node = _consumer(local, data, len(dims), chain)
            return node

        case = OpCase(cid, "bounds", build)
        if buildable(case):
            cases.append(OpCase(cid, _CONSUMERS[cid], build))
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["bounds cases (tests/differential/test_bounds.py)"] = len(CASES)
STATS["bounds cases by consumer"] = {
    op: sum(1 for c in CASES if c.op == op) for op in sorted({c.op for c in CASES})
}


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_bounds_through_shape_subgraphs_match_openvino(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    batch = ops_runner.ops_batch(f"bounds{index}", BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


# --- symbols: results that would depend on two unknown dims being the same ---------------------
#
# OpenVINO 2026.4's read_model sets no dimension symbols (a Parameter's dims have none, and no
# pass adds them while the IR is read), so it does not know that two ``?`` derived from one
# input are equal: a Reshape that splits and re-joins them keeps its bounds arithmetic, an Add
# of two branches of one input merges ``?`` with ``?``. irshape must reach the same answers,
# never narrower ones from equalities OpenVINO does not use.


def _symbol_cases() -> list[OpCase]:
    rng = random.Random(SEED + 1)
    cases: list[OpCase] = []

    def add(op: str, build: Callable[[], ov.Node]) -> None:
        case = OpCase(f"s{len(cases):05d}", op, build)
        if buildable(case):
            cases.append(case)

    for _ in range(40):
        dims = [_dim(rng) for _ in range(3)]
        head = rng.choice([2, 4, 8])
        et = rng.choice(["i32", "i64"])

        def split_rejoin(dims: list[ov.Dimension] = dims, head: int = head, et: str = et) -> ov.Node:
            data = ov1.parameter(ov.PartialShape([*dims[:2], ov.Dimension(head * 8)]), np.float32)
            shape = ov8.shape_of(data, et)
            first = ov8.gather(shape, _i([0], et), _i(0, et))
            split = ov1.reshape(data, ov1.concat([first, _i([-1, head, 8], et)], 0), False)
            return ov1.reshape(split, ov1.concat([first, _i([-1, head * 8], et)], 0), False)

        add("Reshape split/rejoin", split_rejoin)

        def branches(dims: list[ov.Dimension] = dims) -> ov.Node:
            data = ov1.parameter(ov.PartialShape(dims), np.float32)
            return ov1.add(ov1.relu(data), ov1.sigmoid(data))

        add("Add of two branches", branches)

        def attention(dims: list[ov.Dimension] = dims) -> ov.Node:
            tokens = ov1.parameter(ov.PartialShape([dims[0], dims[1], ov.Dimension(16)]), np.float32)
            scores = ov1.matmul(tokens, tokens, False, True)
            return ov1.matmul(ov1.softmax(scores, 2), tokens, False, False)

        add("MatMul over one sequence length", attention)

        def sdpa(dims: list[ov.Dimension] = dims) -> ov.Node:
            q = ov1.parameter(
                ov.PartialShape([dims[0], ov.Dimension(2), dims[1], ov.Dimension(8)]), np.float32
            )
            k = ov1.transpose(ov1.relu(q), _i([0, 1, 2, 3], "i64"))
            return ov13.scaled_dot_product_attention(q, k, ov1.sigmoid(q), causal=rng.random() < 0.5)

        add("SDPA over one sequence length", sdpa)

        def broadcast_back(dims: list[ov.Dimension] = dims, et: str = et) -> ov.Node:
            data = ov1.parameter(ov.PartialShape(dims[:2]), np.float32)
            shape = ov8.shape_of(data, et)
            return ov1.add(ov1.broadcast(ov1.constant(np.float32(0.0)), shape), data)

        add("Add of a Broadcast to its own ShapeOf", broadcast_back)
    return cases


SYMBOL_CASES = _symbol_cases()
SYMBOL_BATCHES = batches(SYMBOL_CASES)
STATS["symbols cases (tests/differential/test_bounds.py)"] = len(SYMBOL_CASES)


@pytest.mark.parametrize(("index", "case"), params(SYMBOL_BATCHES))
def test_results_over_equal_unknown_dims_match_openvino(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    batch = ops_runner.ops_batch(f"symbols{index}", SYMBOL_BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


# --- values and bounds by element type: only where OpenVINO's evaluate takes the type ---------
#
# Many ops' evaluate in OpenVINO 2026.4 takes some integer types only (Multiply no 8/16-bit
# type, Gather no 16-bit one, ...); with another type OpenVINO folds nothing. Each case puts a
# Const (or a ShapeOf's bounds converted) of one type through one op, converts the result to
# i64 and reads it as a Broadcast's target: irshape must fold exactly where OpenVINO does.

_TYPES = ["boolean", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
_NUMPY = {t: np.dtype(bool if t == "boolean" else ("int" if t[0] == "i" else "uint") + t[1:]) for t in _TYPES}


def _typed(values: Any, element_type: str) -> ov.Node:
    return ov1.constant(np.array(values, dtype=_NUMPY[element_type]))


def _typed_bounds(element_type: str) -> ov.Node:
    """``[2..5, 3]`` as bounds of ``element_type``: a ShapeOf converted."""
    data = ov1.parameter(ov.PartialShape([ov.Dimension(2, 5), ov.Dimension(3)]), np.float32)
    return ov1.convert(ov8.shape_of(data, "i64"), element_type)


_TYPED_OPS: dict[str, Callable[[ov.Node, str], ov.Node]] = {
    "Add": lambda x, t: ov1.add(x, _typed([1, 1], t)),
    "Subtract": lambda x, t: ov1.subtract(x, _typed([1, 0], t)),
    "Multiply": lambda x, t: ov1.multiply(x, _typed([2, 1], t)),
    "Divide": lambda x, t: ov1.divide(x, _typed([1, 2], t)),
    "Maximum": lambda x, t: ov1.maximum(x, _typed([1, 4], t)),
    "Minimum": lambda x, t: ov1.minimum(x, _typed([9, 2], t)),
    "Mod": lambda x, t: ov1.mod(x, _typed([2, 2], t)),
    "FloorMod": lambda x, t: ov1.floor_mod(x, _typed([2, 2], t)),
    "Power": lambda x, t: ov1.power(x, _typed([1, 2], t)),
    "Equal": lambda x, t: ov1.equal(x, _typed([3, 2], t)),
    "NotEqual": lambda x, t: ov1.not_equal(x, _typed([3, 2], t)),
    "Less": lambda x, t: ov1.less(x, _typed([3, 3], t)),
    "LessEqual": lambda x, t: ov1.less_equal(x, _typed([3, 3], t)),
    "Greater": lambda x, t: ov1.greater(x, _typed([1, 3], t)),
    "GreaterEqual": lambda x, t: ov1.greater_equal(x, _typed([1, 3], t)),
    "Negative": lambda x, t: ov1.negative(ov1.negative(x)),
    "Abs": lambda x, t: ov1.absolute(x),
    "Floor": lambda x, t: ov1.floor(x),
    "LogicalNot": lambda x, t: ov1.logical_not(x),
    "LogicalXor": lambda x, t: ov1.logical_xor(x, _typed([1, 0], t)),
    "ReduceLogicalAnd": lambda x, t: ov1.reduce_logical_and(x, _i([0], "i64"), True),
    "ReduceLogicalOr": lambda x, t: ov1.reduce_logical_or(x, _i([0], "i64"), True),
    "Broadcast": lambda x, t: ov3.broadcast(x, _i([2, 2], "i64")),
    "Tile": lambda x, t: ov1.tile(x, _i([2], "i64")),
    "ReduceProd": lambda x, t: ov1.reduce_prod(x, _i([0], "i64"), True),
    "ReduceSum": lambda x, t: ov1.reduce_sum(x, _i([0], "i64"), True),
    "ReduceMax": lambda x, t: ov1.reduce_max(x, _i([0], "i64"), True),
    "ReduceMin": lambda x, t: ov1.reduce_min(x, _i([0], "i64"), True),
    "Gather": lambda x, t: ov8.gather(x, _i([1, 0], "i64"), _i(0, "i64")),
    "Concat": lambda x, t: ov1.concat([x, _typed([1], t)], 0),
    "Select": lambda x, t: ov1.select(_typed([1, 0], "boolean"), x, _typed([1, 1], t)),
    "ScatterUpdate": lambda x, t: ov3.scatter_update(x, _i([1], "i64"), _typed([1], t), _i(0, "i64")),
    "ScatterElementsUpdate": lambda x, t: ov3.scatter_elements_update(
        x, _i([1], "i64"), _typed([1], t), _i(0, "i64")
    ),
    "ScatterNDUpdate": lambda x, t: ov4.scatter_nd_update(x, _i([[1]], "i64"), _typed([1], t)),
}


# Bounds OpenVINO reads from memory no evaluate wrote (its answer varies from run to run):
# the interval evaluator's ReduceMin and ReduceMax take no 16-bit type, Equal's evaluate_upper
# compares with LessEqual, which takes no 8 or 16-bit one; FloorMod's of 16-bit and Power's of
# 8 or 16-bit bounds alike. irshape knows no bounds there (tests/test_shapes_bounds.py); the
# cases are left out, as read_model may fail on them.
_SMALL = ("i8", "i16", "u8", "u16")
_UNDEFINED = {("Add", "i16"), ("Add", "u16"), ("Minimum", "u16"), ("FloorMod", "i16"), ("FloorMod", "u16")}
_UNDEFINED |= {("Equal", t) for t in _SMALL} | {("Power", t) for t in _SMALL}


def _typed_cases() -> list[OpCase]:
    cases: list[OpCase] = []
    for op, apply in _TYPED_OPS.items():
        for element_type in _TYPES:
            for source in ("value", "bounds"):
                if source == "bounds" and (op, element_type) in _UNDEFINED:
                    continue

                def build(
                    apply: Callable[[ov.Node, str], ov.Node] = apply, t: str = element_type, s: str = source
                ) -> ov.Node:
                    operand = _typed([3, 2], t) if s == "value" else _typed_bounds(t)
                    folded = ov1.convert(apply(operand, t), "i64")
                    return ov3.broadcast(ov1.constant(np.float32(1.0)), folded)

                case = OpCase(f"t{len(cases):05d}", f"{op} {element_type} {source}", build)
                if buildable(case):
                    cases.append(case)
    return cases


TYPED_CASES = _typed_cases()
TYPED_BATCHES = batches(TYPED_CASES)
STATS["element type cases (tests/differential/test_bounds.py)"] = len(TYPED_CASES)


@pytest.mark.parametrize(("index", "case"), params(TYPED_BATCHES))
def test_values_fold_only_for_the_types_openvino_evaluates(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    batch = ops_runner.ops_batch(f"typed{index}", TYPED_BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


# --- a boolean Const's bytes ------------------------------------------------------------------
#
# OpenVINO keeps a boolean as one byte an element and reads any byte: Select and the logical
# ops take every byte but 0 as true, a Convert to an integer type takes the byte as a signed
# char (2 is 2, 0xff is -1), Gather, Concat, Broadcast, Select... move it unchanged, Equal and
# Less compare the bytes. ov.save_model writes 0 and 1 only, so each case's boolean Consts are
# given their bytes in the saved file (at an offset of their own) before either reads it.

_BYTE_SOURCES: dict[str, Callable[[Callable[[list[int]], ov.Node]], ov.Node]] = {
    "Select": lambda b: ov1.select(b([2, 0, 255]), _i([7, 8, 9], "i64"), _i([1, 1, 1], "i64")),
    "Convert": lambda b: ov1.convert(
        ov1.minimum(ov1.convert(b([2, 0, 3]), "i64"), _i([9, 9, 9], "i64")), "i64"
    ),
    "Convert u8": lambda b: ov1.convert(ov1.convert(b([200, 0, 255]), "u8"), "i64"),
    "Gather": lambda b: ov1.convert(ov8.gather(b([3, 0, 2]), _i([2, 0, 1], "i64"), _i(0, "i64")), "i64"),
    "Broadcast": lambda b: ov1.convert(ov3.broadcast(b([5]), _i([3], "i64")), "i64"),
    "Select moved": lambda b: ov1.convert(ov1.select(b([1, 0, 7]), b([4, 4, 4]), b([6, 6, 6])), "i64"),
    "LogicalNot": lambda b: ov1.convert(ov1.logical_not(b([2, 0, 128])), "i64"),
    "LogicalAnd": lambda b: ov1.convert(ov1.logical_and(b([2, 3, 0]), b([4, 0, 5])), "i64"),
    "Equal": lambda b: ov1.convert(ov1.equal(b([2, 1, 0]), b([1, 1, 0])), "i64"),
    "Less": lambda b: ov1.convert(ov1.less(b([1, 255, 2]), b([2, 1, 3])), "i64"),
    "ReduceLogicalOr": lambda b: ov1.convert(
        ov1.reduce_logical_or(b([0, 0, 9]), _i([0], "i64"), True), "i64"
    ),
    "Select of bounds": lambda b: ov1.select(
        b([0, 3, 0]),
        ov8.shape_of(ov1.parameter(ov.PartialShape([2, ov.Dimension(3, 6), 4]), np.float32)),
        _i([1, 5, 1], "i64"),
    ),
}


def _byte_case(name: str) -> OpCase:
    def build() -> ov.Node:
        def boolean(raw: list[int]) -> ov.Node:
            node = ov1.constant(np.array([b != 0 for b in raw], dtype=bool))
            node.set_friendly_name(f"bytes{len(_BYTES)}")
            _BYTES[node.get_friendly_name()] = bytes(raw)
            return node

        return ov3.broadcast(ov1.constant(np.float32(1.0)), _BYTE_SOURCES[name](boolean))

    return OpCase(f"y{sorted(_BYTE_SOURCES).index(name):05d}", name, build)


_BYTES: dict[str, bytes] = {}  # a boolean Const's name -> the bytes the saved file gives it
BYTE_CASES = [_byte_case(name) for name in sorted(_BYTE_SOURCES)]
STATS["boolean byte cases (tests/differential/test_bounds.py)"] = len(BYTE_CASES)


def _with_bytes(xml: Path) -> None:
    """Give every boolean Const of the saved file its bytes, appended to its .bin."""
    tree = etree.parse(str(xml))
    weights = bytearray(xml.with_suffix(".bin").read_bytes())
    for layer in tree.iter("layer"):
        raw = _BYTES.get(layer.get("name", ""))
        if raw is not None:
            data = layer.find("data")
            assert int(data.get("size")) == len(raw)
            data.set("offset", str(len(weights)))
            weights += raw
    tree.write(str(xml))
    xml.with_suffix(".bin").write_bytes(bytes(weights))


@pytest.fixture(scope="module")
def byte_batch(tmp_path_factory: pytest.TempPathFactory) -> OpsBatch:
    xml = tmp_path_factory.mktemp("bytes") / "bytes.xml"
    save_batch(BYTE_CASES, xml)
    _with_bytes(xml)
    return OpsBatch(xml, read_back(xml), irshape.check_file(xml))


@pytest.mark.parametrize("case", BYTE_CASES, ids=[f"{c.cid}-{c.op}" for c in BYTE_CASES])
def test_boolean_const_bytes_read_as_openvino_reads_them(byte_batch: OpsBatch, case: OpCase) -> None:
    outcome = byte_batch.outcome(case.cid)
    # the declared dims are ov.save_model's, computed from the bytes 0 and 1: IRS301 says so
    outcome.errors = [d for d in outcome.errors if d.code not in ("IRS301", "IRS302")]
    assert outcome.mismatch() is None, outcome.explain()


# --- the scatters: repeated and negative indices, reductions ----------------------------------
#
# OpenVINO evaluates a scatter on the lower bounds and on the upper ones (the default bound
# evaluators), as its reference writes it: the updates in order (a repeated index takes the
# last, or with a reduction each in turn; mean rounds down), ScatterElementsUpdate and
# ScatterNDUpdate count a negative index from the end. Data and updates are Consts or a
# ShapeOf's bounds, large enough that ``sub`` stays positive (a negative target fails
# read_model); every index is in range (one out of range fails it too).


def _scatter_operand(rng: random.Random, count: int, et: str, low: int) -> ov.Node:
    """``count`` values of at least ``low``: a Const, or a ShapeOf's bounds."""
    if rng.random() < 0.5:
        return _i([rng.randint(low, low + 9) for _ in range(count)], et)
    dims = [ov.Dimension(rng.randint(low, low + 4), rng.randint(low + 5, low + 9)) for _ in range(count)]
    dims = [ov.Dimension(rng.randint(low, low + 9)) if rng.random() < 0.3 else d for d in dims]
    return ov8.shape_of(ov1.parameter(ov.PartialShape(dims), np.float32), et)


def _scatter_cases() -> list[OpCase]:
    rng = random.Random(SEED + 2)
    cases: list[OpCase] = []
    kinds = ["ScatterUpdate-3", "ScatterElementsUpdate-3", "ScatterElementsUpdate-12", "ScatterNDUpdate-3"]
    kinds += ["ScatterNDUpdate-15"]
    while len(cases) < 300:
        kind, et = rng.choice(kinds), rng.choice(["i32", "i64"])
        n, count = rng.randint(1, 4), rng.randint(1, 4)
        reductions = {"ScatterElementsUpdate-12": ["none", "sum", "prod", "min", "max", "mean"]}
        reductions["ScatterNDUpdate-15"] = ["none", "sum", "sub", "prod", "min", "max"]
        reduction = rng.choice(reductions.get(kind, ["none"]))
        use_init_val = rng.random() < 0.6
        low = 40 if reduction == "sub" else rng.choice([1, 40])  # sub: 4 updates of 10 at most
        start = 0 if kind == "ScatterUpdate-3" else -n  # ScatterUpdate takes no negative index
        positions = [rng.randrange(start, n) for _ in range(count)]
        if count > 1 and rng.random() < 0.5:
            positions[1] = positions[0]  # a repeated index
        seed = rng.randrange(2**32)

        def build(
            kind: str = kind,
            et: str = et,
            n: int = n,
            low: int = low,
            positions: list[int] = positions,
            reduction: str = reduction,
            init: bool = use_init_val,
            seed: int = seed,
        ) -> ov.Node:
            local = random.Random(seed)
            data = _scatter_operand(local, n, et, low)
            updates = _scatter_operand(local, len(positions), et, 1)
            if kind == "ScatterUpdate-3":
                node = ov3.scatter_update(data, _i(positions, et), updates, _i(0, et))
            elif kind == "ScatterElementsUpdate-3":
                node = ov3.scatter_elements_update(data, _i(positions, et), updates, _i(0, et))
            elif kind == "ScatterElementsUpdate-12":
                node = ov12.scatter_elements_update(
                    data, _i(positions, et), updates, _i(0, et), reduction, init
                )
            elif kind == "ScatterNDUpdate-3":
                node = ov4.scatter_nd_update(data, _i([[p] for p in positions], et), updates)
            else:
                node = ov15.scatter_nd_update(data, _i([[p] for p in positions], et), updates, reduction)
            return ov3.broadcast(ov1.constant(np.float32(1.0)), node)

        label = f"{kind} {reduction}" + (
            "" if use_init_val or kind != "ScatterElementsUpdate-12" else " no init"
        )
        case = OpCase(f"x{len(cases):05d}", label, build)
        if buildable(case):
            cases.append(case)
    return cases


SCATTER_CASES = _scatter_cases()
SCATTER_BATCHES = batches(SCATTER_CASES)
STATS["scatter cases (tests/differential/test_bounds.py)"] = len(SCATTER_CASES)


@pytest.mark.parametrize(("index", "case"), params(SCATTER_BATCHES))
def test_scatters_fold_as_openvino_evaluates_them(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    batch = ops_runner.ops_batch(f"scatter{index}", SCATTER_BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


# --- StridedSlice with a begin or end known by bounds and the other not at all ----------------
#
# OpenVINO slices each axis whose begin and end it needs are known, by value or by bounds: a
# masked begin or end is not needed, so a begin with no bounds whose axes are all masked leaves
# the end's bounds to slice by. Begin and end are each a Const, a vector of bounds (a ShapeOf's,
# beside Consts), or a Parameter's value (no bounds); the masks are set often.


def _strided_side(rng: random.Random, count: int, et: str, kind: str) -> ov.Node:
    if kind == "const":
        return _i([rng.choice([0, 1, 2, -1, -3, 100, -100]) for _ in range(count)], et)
    if kind == "unknown":
        return ov1.parameter([count], np.int32 if et == "i32" else np.int64)
    dims = [ov.Dimension(rng.randint(0, 3), rng.randint(4, 9)) for _ in range(count)]
    bounded = ov8.shape_of(ov1.parameter(ov.PartialShape(dims), np.float32), et)
    parts = [
        ov8.gather(bounded, _i([i], et), _i(0, et)) if rng.random() < 0.7 else _i([2], et)
        for i in range(count)
    ]
    return ov1.concat(parts, 0)


def _strided_cases() -> list[OpCase]:
    rng = random.Random(SEED + 3)
    cases: list[OpCase] = []
    while len(cases) < 300:
        rank, et = rng.randint(1, 3), rng.choice(["i32", "i64"])
        dims = [_dim(rng) for _ in range(rank)]
        count = rng.randint(1, rank)
        sides = rng.choice(
            [("bounds", "unknown"), ("unknown", "bounds"), ("bounds", "bounds"), ("unknown", "const")]
        )
        masks = []
        for side in sides:
            odds = 0.8 if side == "unknown" else 0.3
            masks.append(
                [1] * count if rng.random() < 0.3 else [int(rng.random() < odds) for _ in range(count)]
            )
        shrink = [int(rng.random() < 0.15) for _ in range(count)]
        new_axis = [int(rng.random() < 0.1 and not shrink[i]) for i in range(count)]
        strides = [rng.choice([1, 1, 2, -1, -2]) for _ in range(count)]
        seed = rng.randrange(2**32)

        def build(
            dims: list[ov.Dimension] = dims,
            et: str = et,
            count: int = count,
            sides: tuple[str, str] = sides,
            masks: list[list[int]] = masks,
            shrink: list[int] = shrink,
            new_axis: list[int] = new_axis,
            strides: list[int] = strides,
            seed: int = seed,
        ) -> ov.Node:
            local = random.Random(seed)
            data = ov1.parameter(ov.PartialShape(dims), np.float32)
            begin, end = (_strided_side(local, count, et, side) for side in sides)
            return ov1.strided_slice(data, begin, end, _i(strides, et), masks[0], masks[1], new_axis, shrink)

        case = OpCase(f"z{len(cases):05d}", f"StridedSlice {sides[0]}:{sides[1]}", build)
        if buildable(case):
            cases.append(case)
    return cases


STRIDED_CASES = _strided_cases()
STRIDED_BATCHES = batches(STRIDED_CASES)
STATS["strided slice cases (tests/differential/test_bounds.py)"] = len(STRIDED_CASES)


@pytest.mark.parametrize(("index", "case"), params(STRIDED_BATCHES))
def test_strided_slice_slices_by_what_it_knows(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    batch = ops_runner.ops_batch(f"strided{index}", STRIDED_BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


# --- Broadcast's target: a Concat of one-element inputs, known neither by value nor by bounds --
#
# OpenVINO's broadcast_shape_inference.hpp then looks through the Concat: each input that is a
# Constant gives its first value as a dim (cast to size_t, so a negative one is 0), any other
# input ``?``, even one whose value is known (a Gather or an Unsqueeze of a Const). At least one
# part has no bounds (a Parameter's value, a Negative of a ShapeOf), else the bounds decide.


def _part(rng: random.Random, et: str, kind: str) -> ov.Node:
    """A one-element input of the Concat."""
    if kind == "const":
        return _i([rng.choice([0, 1, 2, 3, 5, 7, -1, -4, 2**33])], et)
    if kind == "unknown":
        return ov1.parameter([1], np.int32 if et == "i32" else np.int64)
    if kind == "negative":  # no bounds: Negative has none of its own
        shape = ov8.shape_of(ov1.parameter(ov.PartialShape([ov.Dimension(2, 5)]), np.float32), et)
        return ov1.negative(ov1.negative(shape))
    if kind == "bounded":
        return ov8.shape_of(
            ov1.parameter(ov.PartialShape([ov.Dimension(1, rng.randint(2, 6))]), np.float32), et
        )
    if kind == "gathered":  # a known value, but no Constant
        return ov8.gather(_i([rng.randint(1, 6), 9], et), _i([0], et), _i(0, et))
    return ov1.unsqueeze(_i(rng.randint(1, 6), et), _i([0], "i64"))  # a known value, no Constant


def _look_through_cases() -> list[OpCase]:
    rng = random.Random(SEED + 4)
    cases: list[OpCase] = []
    kinds = ["const", "const", "const", "unknown", "negative", "bounded", "gathered", "unsqueezed"]
    while len(cases) < 300:
        et = rng.choice(["i32", "i64"])
        count = rng.randint(1, 4)
        parts = [rng.choice(kinds) for _ in range(count)]
        parts[rng.randrange(count)] = rng.choice(["unknown", "negative"])  # no bounds
        version, mode = rng.choice(
            [(1, "numpy"), (3, "numpy"), (3, "bidirectional"), (1, "pdpd"), (3, "pdpd")]
        )
        mode = "explicit" if rng.random() < 0.15 else mode
        rank = rng.randint(0, count)
        data_dims = [rng.choice([1, 1, 2, 3, 5, 7]) for _ in range(rank)]
        seed = rng.randrange(2**32)

        def build(
            et: str = et,
            parts: list[str] = parts,
            version: int = version,
            mode: str = mode,
            data_dims: list[int] = data_dims,
            seed: int = seed,
        ) -> ov.Node:
            local = random.Random(seed)
            target = ov1.concat([_part(local, et, kind) for kind in parts], 0)
            data = ov1.parameter(data_dims, np.float32)
            broadcast = ov1.broadcast if version == 1 else ov3.broadcast
            axes = None
            if mode == "explicit":
                axes = _i(sorted(local.sample(range(len(parts)), len(data_dims))), "i64")
            return broadcast(data, target, axes, mode.upper())

        case = OpCase(f"l{len(cases):05d}", f"Broadcast-{version} {mode}", build)
        if buildable(case):
            cases.append(case)
    return cases


LOOK_THROUGH_CASES = _look_through_cases()
LOOK_THROUGH_BATCHES = batches(LOOK_THROUGH_CASES)
STATS["Broadcast look-through cases (tests/differential/test_bounds.py)"] = len(LOOK_THROUGH_CASES)


@pytest.mark.parametrize(("index", "case"), params(LOOK_THROUGH_BATCHES))
def test_broadcast_looks_through_a_concat_at_its_consts(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    batch = ops_runner.ops_batch(f"lookthrough{index}", LOOK_THROUGH_BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


# --- the backprop convolutions' output_shape known by its bounds --------------------------------
#
# ConvolutionBackpropData and GroupConvolutionBackpropData read a computed output_shape with
# evaluate_as_partial_shape: one interval a spatial dim (a ShapeOf of ``4..9`` dims, sliced or
# shifted by a Const), whatever the pads (same_* pads from a dim that is not static are 0).


def _backprop_cases() -> list[OpCase]:
    rng = random.Random(SEED + 7)
    cases: list[OpCase] = []
    while len(cases) < 120:
        n = rng.randint(1, 3)
        group = rng.random() < 0.4
        sizes = [_dim(rng) for _ in range(n)]
        shift, et = rng.choice([0, 0, 1, 3]), rng.choice(["i32", "i64"])
        auto_pad = rng.choice(["explicit", "valid", "same_upper", "same_lower"])
        data_dims = [rng.choice([1, -1]), 4, *[rng.randint(2, 6) for _ in range(n)]]
        kernel = [rng.randint(1, 3) for _ in range(n)]
        strides = [rng.randint(1, 3) for _ in range(n)]

        def build(
            n: int = n,
            group: bool = group,
            sizes: list[ov.Dimension] = sizes,
            shift: int = shift,
            et: str = et,
            auto_pad: str = auto_pad,
            data_dims: list[int] = data_dims,
            kernel: list[int] = kernel,
            strides: list[int] = strides,
        ) -> ov.Node:
            shaped = ov1.parameter(ov.PartialShape([1, *sizes]), np.float32)
            spatial = ov8.gather(ov3.shape_of(shaped, et), _i(list(range(1, n + 1)), et), _i(0, et))
            output_shape = ov1.add(spatial, _i([shift] * n, et))
            data = ov1.parameter(ov.PartialShape(data_dims), np.float32)
            pads = [0] * n
            if group:
                weights = ov1.constant(np.ones([2, 2, 3, *kernel], np.float32))
                return ov1.group_convolution_backprop_data(
                    data, weights, strides, output_shape, pads, pads, [1] * n, auto_pad
                )
            weights = ov1.constant(np.ones([4, 3, *kernel], np.float32))
            return ov1.convolution_backprop_data(
                data, weights, strides, pads, pads, [1] * n, auto_pad, output_shape=output_shape
            )

        op = "GroupConvolutionBackpropData" if group else "ConvolutionBackpropData"
        case = OpCase(f"d{len(cases):05d}", op, build)
        if buildable(case):
            cases.append(case)
    return cases


BACKPROP_CASES = _backprop_cases()
BACKPROP_BATCHES = batches(BACKPROP_CASES)
STATS["backprop output_shape bounds cases (tests/differential/test_bounds.py)"] = len(BACKPROP_CASES)


@pytest.mark.parametrize(("index", "case"), params(BACKPROP_BATCHES))
def test_backprop_output_shape_known_by_bounds(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    batch = ops_runner.ops_batch(f"backprop{index}", BACKPROP_BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()
