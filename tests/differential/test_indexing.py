"""The indexing family against OpenVINO, through the shared harness
(tests/differential/ops_harness.py): ShapeOf-1/3, Gather-1/7/8, GatherElements-6,
GatherND-5/8, ScatterUpdate-3, ScatterElementsUpdate-3/12, ScatterNDUpdate-3/15, Slice-8,
StridedSlice-1, Range-1/4, NonZero-3 and TopK-1/3/11.

Every op version gets at least 100 seeded configurations: ranks 0..5 where the op takes them,
static, dynamic (``?``), interval and dynamic-rank inputs, negative axes, indices and steps,
every mask of StridedSlice, Slice bounds far out of range, and value inputs both from Consts
(known values) and from Parameters (unknown: OpenVINO's answer without them). Chains
ShapeOf(Parameter) -> Gather/Slice/StridedSlice -> Range/TopK/Gather show values folding
through shape subgraphs. Mutants of saved files that ``read_model`` rejects are errors on
their layer; a declared dim off by one is IRS301/IRS302 on its layer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset5 as ov5
import openvino.opset6 as ov6
import openvino.opset7 as ov7
import openvino.opset8 as ov8
import openvino.opset11 as ov11
import openvino.opset12 as ov12
import openvino.opset15 as ov15
import pytest
from lxml import etree

import irshape
from irshape.dims import parse_partial_shape

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    apply_mutant,
    as_partial,
    assert_dim_off_by_one_is_an_error,
    batches,
    constant,
    errors_on,
    layer_element,
    openvino_reads,
    parameter,
    params,
    read_back,
    save_batch,
)

SEED = 20261125
PER_OP = 110
STYLES = ("static", "static", "dynamic", "interval", "rank")
INDEX_TYPES = (np.int64, np.int32)
I64_MAX, I64_MIN = 2**63 - 1, -(2**63)

Build = Callable[[], ov.Node]


class Draw:
    """The seeded choices the case builders make."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def dims(self, rank: int, lo: int = 1, hi: int = 9) -> list[int]:
        return [self.rng.randint(lo, hi) for _ in range(rank)]

    def style(self, styles: Sequence[str] = STYLES) -> str:
        return self.rng.choice(styles)

    def partial(self, dims: Sequence[int], style: str | None = None) -> ov.PartialShape:
        return as_partial(self.rng, dims, style or self.style())

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def value_input(self, values: Any, element_type: Any = np.int64, const_p: float = 0.75) -> Build:
        """A builder of a Const holding ``values`` or, with 1 - const_p, a Parameter of its
        shape (whose value OpenVINO cannot know)."""
        array = np.array(values, dtype=element_type)
        if self.chance(const_p):
            return lambda: constant(array, element_type)
        return lambda: parameter(list(array.shape), element_type)


def _axis_forms(d: Draw, axis: int, rank: int) -> int:
    """``axis`` or its negative spelling."""
    return axis - rank if d.chance(0.4) else axis


# --- case builders, one per op ------------------------------------------------------------


def shape_of_case(d: Draw, version: int) -> Build:
    data = d.partial(d.dims(d.rng.randint(0, 5)))
    element_type = d.rng.choice(["i32", "i64"])
    if version == 1:
        return lambda: ov1.shape_of(parameter(data))
    return lambda: ov3.shape_of(parameter(data), element_type)


def gather_case(d: Draw, version: int) -> Build:
    rank = d.rng.randint(1, 5)
    data_dims = d.dims(rank)
    q = d.rng.randint(0, 3)
    batch_dims = 0 if version == 1 else d.rng.randint(0, min(q, rank - 1))
    axis = d.rng.randint(batch_dims, rank - 1)
    index_dims = data_dims[:batch_dims] + d.dims(q - batch_dims)
    lo = -data_dims[axis] if version == 8 else 0
    hi = data_dims[axis] - 1 if d.chance(0.8) else data_dims[axis] + 5  # out of range: OpenVINO reads it
    indices = np.array(
        [d.rng.randint(lo, hi) for _ in range(int(np.prod(index_dims)))], dtype=np.int64
    ).reshape(index_dims)
    written_batch_dims = batch_dims - q if (version > 1 and q and d.chance(0.3)) else batch_dims
    written_axis = _axis_forms(d, axis, rank)
    axis_value = [written_axis] if d.chance(0.2) else written_axis
    axis_input = d.value_input(axis_value, d.rng.choice(INDEX_TYPES), const_p=0.8)
    index_type = d.rng.choice(INDEX_TYPES)
    data_shape = d.partial(data_dims)
    index_shape = d.partial(index_dims, d.style(("static", "static", "dynamic", "interval", "rank")))
    index_const = d.chance(0.4)

    def build() -> ov.Node:
        index_node = constant(indices, index_type) if index_const else parameter(index_shape, index_type)
        if version == 1:
            return ov1.gather(parameter(data_shape), index_node, axis_input())
        make = ov7.gather if version == 7 else ov8.gather
        return make(parameter(data_shape), index_node, axis_input(), written_batch_dims)

    return build


def gather_elements_case(d: Draw, version: int) -> Build:
    rank = d.rng.randint(1, 5)
    data_dims = d.dims(rank)
    axis = d.rng.randrange(rank)
    index_dims = list(data_dims)  # OpenVINO merges the other axes: they must intersect
    index_dims[axis] = d.rng.randint(1, 9)
    data_shape, index_shape = d.partial(data_dims), d.partial(index_dims)
    index_type = d.rng.choice(INDEX_TYPES)
    written = _axis_forms(d, axis, rank)
    return lambda: ov6.gather_elements(parameter(data_shape), parameter(index_shape, index_type), written)


def gather_nd_case(d: Draw, version: int) -> Build:
    rank = d.rng.randint(1, 5)
    batch_dims = d.rng.randint(0, min(rank - 1, 3))
    data_dims = d.dims(rank)
    tuple_length = d.rng.randint(1, rank - batch_dims)
    index_dims = data_dims[:batch_dims] + d.dims(d.rng.randint(0, 2)) + [tuple_length]
    data_shape, index_shape = d.partial(data_dims), d.partial(index_dims)
    index_type = d.rng.choice((np.int64, np.int32, np.int8))
    make = ov5.gather_nd if version == 5 else ov8.gather_nd
    return lambda: make(parameter(data_shape), parameter(index_shape, index_type), batch_dims)


def scatter_update_case(d: Draw, version: int) -> Build:
    rank = d.rng.randint(1, 5)
    data_dims = d.dims(rank)
    axis = d.rng.randrange(rank)
    index_dims = d.dims(d.rng.randint(0, 2))
    updates_dims = data_dims[:axis] + index_dims + data_dims[axis + 1 :]
    data_shape, index_shape, updates_shape = (d.partial(x) for x in (data_dims, index_dims, updates_dims))
    axis_input = d.value_input(_axis_forms(d, axis, rank), d.rng.choice(INDEX_TYPES))
    return lambda: ov3.scatter_update(
        parameter(data_shape), parameter(index_shape, np.int64), parameter(updates_shape), axis_input()
    )


REDUCTIONS_12 = ("none", "sum", "prod", "min", "max", "mean")
REDUCTIONS_15 = ("none", "sum", "sub", "prod", "min", "max")


def scatter_elements_case(d: Draw, version: int) -> Build:
    rank = d.rng.randint(0, 5)
    data_dims = d.dims(rank)
    index_dims = [d.rng.randint(1, n) for n in data_dims]
    axis = d.rng.randrange(rank) if rank else 0
    shapes = [d.partial(data_dims), d.partial(index_dims)]
    shapes.append(d.partial(index_dims) if d.chance(0.5) else shapes[1])
    axis_input = d.value_input(_axis_forms(d, axis, rank) if rank else 0, d.rng.choice(INDEX_TYPES))
    reduction, init = d.rng.choice(REDUCTIONS_12), d.chance(0.5)
    index_type = d.rng.choice(INDEX_TYPES)

    def build() -> ov.Node:
        inputs = (parameter(shapes[0]), parameter(shapes[1], index_type), parameter(shapes[2]), axis_input())
        if version == 3:
            return ov3.scatter_elements_update(*inputs)
        return ov12.scatter_elements_update(*inputs, reduction, init)

    return build


def scatter_nd_case(d: Draw, version: int) -> Build:
    rank = d.rng.randint(1, 5)
    data_dims = d.dims(rank)
    last = d.rng.randint(1, rank)
    index_dims = [*d.dims(d.rng.randint(0, 2)), last]
    updates_dims = index_dims[:-1] + data_dims[last:]
    shapes = [d.partial(x) for x in (data_dims, index_dims, updates_dims)]
    reduction = d.rng.choice(REDUCTIONS_15)
    index_type = d.rng.choice(INDEX_TYPES)

    def build() -> ov.Node:
        inputs = (parameter(shapes[0]), parameter(shapes[1], index_type), parameter(shapes[2]))
        return ov5.scatter_nd_update(*inputs) if version == 3 else ov15.scatter_nd_update(*inputs, reduction)

    return build


def _bound(d: Draw, length: int) -> int:
    """A slice bound: in range, negative, far out of range, or int64's limits."""
    pick = d.rng.random()
    if pick < 0.55:
        return d.rng.randint(-length, length)
    if pick < 0.85:
        return d.rng.randint(-3 * length - 5, 3 * length + 5)
    return d.rng.choice([I64_MAX, I64_MIN, I64_MAX - 1, I64_MIN + 1])


def _step(d: Draw) -> int:
    return d.rng.choice([1, 1, 2, 3, -1, -1, -2, -3, 7, -9])


def slice_case(d: Draw, version: int) -> Build:
    rank = d.rng.randint(1, 5)
    data_dims = d.dims(rank, 0, 12)
    count = d.rng.randint(1, rank)
    axes = d.rng.sample(range(rank), count)
    start = [_bound(d, data_dims[a]) for a in axes]
    stop = [_bound(d, data_dims[a]) for a in axes]
    step = [_step(d) for _ in axes]
    index_type = d.rng.choice(INDEX_TYPES)
    inputs = [
        d.value_input(v, np.int64 if any(abs(x) > 2**31 - 1 for x in v) else index_type)
        for v in (start, stop, step)
    ]
    with_axes = d.chance(0.7) or axes != list(range(count))
    axes_input = d.value_input([_axis_forms(d, a, rank) for a in axes], index_type, const_p=0.85)
    data_shape = d.partial(data_dims)

    def build() -> ov.Node:
        args = [parameter(data_shape), *(make() for make in inputs)]
        if with_axes:
            args.append(axes_input())
        return ov8.slice(*args)

    return build


def _masks(d: Draw, count: int, rank: int) -> dict[str, list[int]]:
    """Five masks of ``count`` bits: at most one ellipsis, and without one the new axes make
    room for every begin/end value."""
    masks = {name: [int(d.chance(0.35)) for _ in range(count)] for name in ("begin", "end", "new", "shrink")}
    ellipsis = [0] * count
    if d.chance(0.3):
        ellipsis[d.rng.randrange(count)] = 1
    masks["ellipsis"] = ellipsis
    if not any(ellipsis):
        while rank + sum(masks["new"]) < count:
            masks["new"][masks["new"].index(0)] = 1
    return masks


def strided_slice_case(d: Draw, version: int) -> Build:
    rank = d.rng.randint(1, 5)
    data_dims = d.dims(rank, 0, 12)
    count = d.rng.randint(1, rank + 1)
    masks = _masks(d, count, rank)
    lengths = data_dims + [9] * count
    begin = [_bound(d, lengths[i]) for i in range(count)]
    end = [_bound(d, lengths[i]) for i in range(count)]
    strides = [_step(d) for _ in range(count)]
    inputs = [d.value_input(v, np.int64) for v in (begin, end, strides)]
    with_strides = d.chance(0.85)
    written = {k: (v if d.chance(0.85) or any(v) else []) for k, v in masks.items()}
    if any(len(v) == 0 for v in written.values()) and not written["begin"]:
        written = masks  # OpenVINO wants every mask empty when begin_mask is
    data_shape = d.partial(data_dims)

    def build() -> ov.Node:
        data, b, e, s = parameter(data_shape), inputs[0](), inputs[1](), inputs[2]()
        m = written
        if with_strides:
            return ov1.strided_slice(
                data, b, e, s, m["begin"], m["end"], m["new"], m["shrink"], m["ellipsis"]
            )
        return _strided_slice_3(data, b, e, m)

    return build


def _strided_slice_3(data: ov.Node, begin: ov.Node, end: ov.Node, masks: dict[str, list[int]]) -> ov.Node:
    """StridedSlice without its strides input (the Python helper always adds one)."""
    from openvino.utils.node_factory import NodeFactory

    attributes = {
        "begin_mask": masks["begin"],
        "end_mask": masks["end"],
        "new_axis_mask": masks["new"],
        "shrink_axis_mask": masks["shrink"],
        "ellipsis_mask": masks["ellipsis"],
    }
    node: ov.Node = NodeFactory("opset1").create("StridedSlice", [data, begin, end], attributes)
    return node


def strided_mask_combinations() -> list[tuple[int, int, int, int, int]]:
    """Every combination of the five masks on one axis (at most one of new/shrink/ellipsis
    matters, but OpenVINO takes them all)."""
    return [tuple((bits >> k) & 1 for k in range(5)) for bits in range(32)]  # type: ignore[misc]


def range_case(d: Draw, version: int) -> Build:
    step = d.rng.choice([1, 2, 3, 5, -1, -2, -4, 7])
    start = d.rng.randint(-20, 20)
    stop = start + d.rng.randint(-40, 40)
    types = (
        [np.int64, np.int32, np.int8, np.uint8] if version == 4 else [d.rng.choice([np.int64, np.int32])] * 3
    )
    picked = [d.rng.choice(types) for _ in range(3)] if version == 4 else types[:3]
    if version == 4 and np.uint8 in picked:
        start, stop = abs(start), abs(stop)
    if version == 4 and picked[2] == np.uint8:
        step = abs(step)
    values = [d.value_input(v, t, const_p=0.8) for v, t in zip((start, stop, step), picked, strict=True)]
    output_type = d.rng.choice(["i64", "i32", "f32", "f16", "u8" if start >= 0 and stop >= 0 else "i8"])
    if version == 1:
        return lambda: ov1.range(values[0](), values[1](), values[2]())
    return lambda: ov12.range(values[0](), values[1](), values[2](), output_type)


def non_zero_case(d: Draw, version: int) -> Build:
    rank = d.rng.randint(0, 5)
    dims = d.dims(rank, 0, 4)
    output_type = d.rng.choice(["i32", "i64"])
    if d.chance(0.25) and 0 < int(np.prod(dims)) <= 64:
        values = np.array(
            [d.rng.choice([0, 0, 1, 5, -2]) for _ in range(int(np.prod(dims)))], np.int32
        ).reshape(dims)
        return lambda: ov3.non_zero(constant(values, np.int32), output_type)
    shape = d.partial(dims)
    return lambda: ov3.non_zero(parameter(shape), output_type)


def topk_case(d: Draw, version: int) -> Build:
    rank = d.rng.randint(1, 5)
    dims = d.dims(rank)
    axis = _axis_forms(d, d.rng.randrange(rank), rank)
    k = d.rng.randint(0, 12)
    k_input = d.value_input(k, d.rng.choice([np.int64, np.int32, np.int8]), const_p=0.7)
    mode, sort = d.rng.choice(["max", "min"]), d.rng.choice(["value", "index", "none"])
    index_type, stable = d.rng.choice(["i32", "i64"]), sort != "none" and d.chance(0.5)
    shape = d.partial(dims)

    def build() -> ov.Node:
        if version == 1:
            return ov1.topk(parameter(shape), k_input(), axis, mode, sort, index_type)
        if version == 3:
            return ov3.topk(parameter(shape), k_input(), axis, mode, sort, index_type)
        return ov11.topk(parameter(shape), k_input(), axis, mode, sort, index_type, stable)

    return build


# --- chains: ShapeOf(Parameter) -> indexing ops, whose values fold ---------------------------


def chain_case(d: Draw, version: int, style: str = "static") -> Build:
    """A shape subgraph: ShapeOf of a Parameter (static unless ``style`` says otherwise),
    Gather/Slice/StridedSlice of it, into Range, TopK's k, Slice's stop or a Gather's indices."""
    dims = d.dims(d.rng.randint(1, 4), 1, 7)
    kinds = ["range", "topk", "slice_stop", "gather_gather", "strided_range", "slice_range", "scatter_range"]
    kind = d.rng.choice(kinds)
    scatter = d.rng.choice(["update", "elements", "nd"])
    new_length = d.rng.randint(0, 9)
    position = d.rng.randrange(len(dims))
    shape = d.partial(dims, style)

    def shape_value() -> ov.Node:
        return ov3.shape_of(parameter(shape), d_type)

    d_type = d.rng.choice(["i32", "i64"])

    def one_dim() -> ov.Node:
        return ov8.gather(shape_value(), constant(position - len(dims)), constant(0))

    def build() -> ov.Node:
        if kind == "range":
            return ov12.range(
                constant(0, np.int64 if d_type == "i64" else np.int32),
                one_dim(),
                constant(1, np.int64),
                "i64",
            )
        if kind == "topk":
            return ov11.topk(parameter([3, 20]), one_dim(), 1, "max", "value", "i32")
        if kind == "slice_stop":
            stop = ov8.gather(shape_value(), constant([position]), constant(0))
            return ov8.slice(parameter([9, 8]), constant([0]), stop, constant([1]), constant([1]))
        if kind == "gather_gather":
            shuffled = ov8.gather(shape_value(), constant(list(range(len(dims)))[::-1]), constant(0))
            return ov8.gather(
                parameter([4, 6, 8]), ov8.gather(shuffled, constant([0]), constant(0)), constant(0)
            )
        if kind == "strided_range":
            last = ov1.strided_slice(
                shape_value(), constant([-1]), constant([0]), constant([1]), [0], [1], [], [1], []
            )
            return ov1.range(
                constant(0, np.int64 if d_type == "i64" else np.int32),
                last,
                constant(2, np.int64 if d_type == "i64" else np.int32),
            )
        if kind == "scatter_range":
            return ov12.range(
                constant(0, np.int32),
                _scattered(shape_value(), position, new_length, scatter),
                constant(1, np.int32),
                "i32",
            )
        tail = ov8.slice(shape_value(), constant([-1]), constant([-5]), constant([-1]))
        first = ov8.gather(tail, constant(0), constant(0))
        return ov12.range(first, constant(0, np.int32), constant(-1, np.int32), "i32")

    return build


def _scattered(shape: ov.Node, position: int, value: int, scatter: str) -> ov.Node:
    """``shape`` with one element replaced by ``value`` through a scatter op, then that element."""
    element_type = np.int32 if shape.get_output_element_type(0) == ov.Type.i32 else np.int64
    if scatter == "update":
        changed = ov3.scatter_update(
            shape, constant([position]), constant([value], element_type), constant(0)
        )
    elif scatter == "elements":
        changed = ov12.scatter_elements_update(
            shape, constant([position]), constant([value], element_type), constant(0)
        )
    else:
        changed = ov15.scatter_nd_update(shape, constant([[position]]), constant([value], element_type))
    return ov8.gather(changed, constant(position), constant(0))


CaseMaker = Callable[[Draw, int], Build]
OPS: dict[str, tuple[CaseMaker, int]] = {
    "ShapeOf-1": (shape_of_case, 1),
    "ShapeOf-3": (shape_of_case, 3),
    "Gather-1": (gather_case, 1),
    "Gather-7": (gather_case, 7),
    "Gather-8": (gather_case, 8),
    "GatherElements-6": (gather_elements_case, 6),
    "GatherND-5": (gather_nd_case, 5),
    "GatherND-8": (gather_nd_case, 8),
    "ScatterUpdate-3": (scatter_update_case, 3),
    "ScatterElementsUpdate-3": (scatter_elements_case, 3),
    "ScatterElementsUpdate-12": (scatter_elements_case, 12),
    "ScatterNDUpdate-3": (scatter_nd_case, 3),
    "ScatterNDUpdate-15": (scatter_nd_case, 15),
    "Slice-8": (slice_case, 8),
    "StridedSlice-1": (strided_slice_case, 1),
    "Range-1": (range_case, 1),
    "Range-4": (range_case, 4),
    "NonZero-3": (non_zero_case, 3),
    "TopK-1": (topk_case, 1),
    "TopK-3": (topk_case, 3),
    "TopK-11": (topk_case, 11),
    "chain": (chain_case, 0),
}


def _strided_every_mask() -> list[OpCase]:
    """Each of the 32 combinations of the five masks on the first of two axes, with static and
    interval data, and begin and end from Consts or, one or both, from Parameters."""
    cases: list[OpCase] = []
    d = Draw(SEED + 1)
    for bits in strided_mask_combinations():
        for style, source in (
            ("static", "const"),
            ("interval", "const"),
            ("static", "param"),
            ("interval", "param"),
        ):
            masks = [[b, 0] for b in bits]
            if bits[4] and bits[2]:
                masks[2] = [0, 0]  # an ellipsis that is also a new axis: OpenVINO takes the ellipsis
            data = d.partial([7, 5], style)
            begin = [d.rng.randint(-8, 8), 1]
            end = [d.rng.randint(-8, 8), 4]
            unknown = (
                d.rng.choice([(True, False), (False, True), (True, True)])
                if source == "param"
                else (False, False)
            )
            inputs = [
                (lambda v=v: parameter([2], np.int64)) if u else (lambda v=v: constant(v))
                for v, u in zip((begin, end), unknown, strict=True)
            ]
            strides = [d.rng.choice([1, 2, -1, -3]), 1]

            def build(
                m: list[list[int]] = masks,
                s: ov.PartialShape = data,
                i: list[Build] = inputs,
                st: list[int] = strides,
            ) -> ov.Node:
                return ov1.strided_slice(parameter(s), i[0](), i[1](), constant(st), *m)

            cases.append(OpCase(f"xm{len(cases):04d}", "StridedSlice-1", build))
    return cases


def _cases() -> list[OpCase]:
    d = Draw(SEED)
    cases: list[OpCase] = []
    for op, (make, version) in OPS.items():
        for _ in range(PER_OP):
            cases.append(OpCase(f"x{len(cases):05d}", op, make(d, version)))
    return cases + _strided_every_mask()


CASES = _cases()
BATCHES = batches(CASES)
STATS["indexing cases (tests/differential/test_indexing.py)"] = len(CASES)


# Chains from Parameters with dynamic and interval dims: OpenVINO folds the bounds of such shapes
# (ShapeOf of [2..5] is a value between 2 and 5); irshape keeps exact values only, so its answer
# may be wider, never different. The same holds through a Convert, which does not pass values on
# yet (the element-wise family's).
GAP_CASES = [
    OpCase(f"xg{i:04d}", "chain", chain_case(Draw(SEED + 2 + i), 0, ("interval", "dynamic")[i % 2]))
    for i in range(60)
]
GAP_BATCHES = batches(GAP_CASES)
STATS["indexing chains from dynamic shapes (answer OpenVINO's or wider)"] = len(GAP_CASES)


def _contains(wide: str, narrow: str) -> bool:
    """Does every tensor of shape ``narrow`` have shape ``wide`` too?"""
    outer, inner = parse_partial_shape(wide), parse_partial_shape(narrow)
    if outer.dims is None:
        return True
    if inner.dims is None or len(outer.dims) != len(inner.dims):
        return False
    return all(o.lo <= i.lo and i.hi <= o.hi for o, i in zip(outer.dims, inner.dims, strict=True))


@pytest.mark.parametrize(("index", "case"), params(GAP_BATCHES))
def test_a_chain_from_a_dynamic_shape_is_openvinos_answer_or_wider(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    outcome = ops_runner.ops_batch(f"indexing_gap{index}", GAP_BATCHES[index]).outcome(case.cid)
    assert outcome.expected is not None and outcome.inferred is not None, outcome.explain()
    assert not outcome.errors, outcome.explain()
    assert all(_contains(w, n) for w, (n, _) in zip(outcome.inferred, outcome.expected, strict=True)), (
        outcome.explain()
    )


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_indexing_shapes_and_types_match_openvino(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    batch = ops_runner.ops_batch(f"indexing{index}", BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_every_op_version_has_a_hundred_cases() -> None:
    counts: dict[str, int] = {}
    for case in CASES:
        counts[case.op] = counts.get(case.op, 0) + 1
    assert {op: n for op, n in counts.items() if n < 100} == {}
    assert set(counts) == set(OPS)


@pytest.mark.parametrize("index", range(0, len(BATCHES), 3))
def test_a_declared_dim_off_by_one_is_an_error_on_that_layer(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    batch = ops_runner.ops_batch(f"indexing{index}", BATCHES[index])
    assert_dim_off_by_one_is_an_error(batch, BATCHES[index], tmp_path)


# --- mutants: saved files edited so that read_model rejects them ----------------------------


def _set_attribute(name: str, attribute: str, value: str) -> Callable[[Any], None]:
    def edit(tree: Any) -> None:
        layer_element(tree, name).find("data").set(attribute, value)

    return edit


def _set_parameter(
    name: str, shape: str | None = None, element_type: str | None = None
) -> Callable[[Any], None]:
    """Edit the Parameter called ``name`` (its shape or element type, and its port)."""

    def edit(tree: Any) -> None:
        layer = layer_element(tree, name)
        data = layer.find("data")
        if shape is not None:
            data.set("shape", shape)
            port = layer.find("output/port")
            for dim in port.findall("dim"):
                port.remove(dim)
            for text in filter(None, shape.split(",")):
                etree.SubElement(port, "dim").text = text
        if element_type is not None:
            data.set("element_type", element_type)

    return edit


def _named(node: ov.Node, name: str) -> ov.Node:
    node.set_friendly_name(name)
    return node


def _const_bytes(xml: Path, name: str, values: Sequence[int], dtype: Any) -> None:
    """Overwrite the .bin bytes of the Const ``name`` with ``values``."""
    tree = etree.parse(str(xml))
    data = layer_element(tree, name).find("data")
    offset = int(data.get("offset"))
    raw = np.array(values, dtype=dtype).tobytes()
    assert len(raw) == int(data.get("size"))
    bin_path = xml.with_suffix(".bin")
    blob = bytearray(bin_path.read_bytes())
    blob[offset : offset + len(raw)] = raw
    bin_path.write_bytes(bytes(blob))


def _p(shape: Sequence[int], element_type: Any = np.float32, name: str = "") -> ov.Node:
    node = parameter(list(shape), element_type)
    if name:
        node.set_friendly_name(name)
    return node


def _c(values: Any, name: str, element_type: Any = np.int64) -> ov.Node:
    return _named(constant(values, element_type), name)


# Each mutant: (id, builder of the valid node called "m", edit of the saved XML, or a Const's
# new value as (Const name, values, dtype)).
Mutant = tuple[str, Build, Callable[[Any], None] | None, tuple[str, list[int], Any] | None]

MUTANTS: list[Mutant] = [
    ("shapeof-output-type", lambda: ov3.shape_of(_p([2, 3])), _set_attribute("m", "output_type", "u8"), None),
    (
        "gather8-axis-range",
        lambda: ov8.gather(_p([2, 3]), _c([0], "i"), _c(1, "a")),
        None,
        ("a", [2], np.int64),
    ),
    (
        "gather8-negative-axis-range",
        lambda: ov8.gather(_p([2, 3]), _c([0], "i"), _c(1, "a")),
        None,
        ("a", [-3], np.int64),
    ),
    (
        "gather7-batch-dims-above-axis",
        lambda: ov7.gather(_p([2, 3, 4]), _p([2, 1], np.int64), _c(1, "a"), 1),
        _set_attribute("m", "batch_dims", "2"),
        None,
    ),
    (
        "gather8-batch-dims-above-indices",
        lambda: ov8.gather(_p([2, 3, 4]), _p([2], np.int64), _c(2, "a"), 1),
        _set_attribute("m", "batch_dims", "2"),
        None,
    ),
    (
        "gather7-float-indices",
        lambda: ov7.gather(_p([2, 3]), _p([2], np.int64, "i"), _c(0, "a")),
        _set_parameter("i", element_type="f32"),
        None,
    ),
    (
        "gather1-axis-range",
        lambda: ov1.gather(_p([2, 3]), _p([2], np.int64), _c(0, "a")),
        None,
        ("a", [-3], np.int64),
    ),
    (
        "gather8-axis-two-values",
        lambda: ov8.gather(_p([2, 3]), _p([2], np.int64), _p([1], np.int64, "a")),
        _set_parameter("a", shape="2"),
        None,
    ),
    (
        "gather8-batch-mismatch",
        lambda: ov8.gather(_p([2, 3]), _p([2, 1], np.int64, "i"), _c(1, "a"), 1),
        _set_parameter("i", shape="3,1"),
        None,
    ),
    (
        "gatherelements-axis-range",
        lambda: ov6.gather_elements(_p([2, 3]), _p([2, 3], np.int64), 1),
        _set_attribute("m", "axis", "2"),
        None,
    ),
    (
        "gatherelements-rank",
        lambda: ov6.gather_elements(_p([2, 3]), _p([2, 3], np.int64, "i"), 1),
        _set_parameter("i", shape="2,3,1"),
        None,
    ),
    (
        "gatherelements-i8-indices",
        lambda: ov6.gather_elements(_p([2, 3]), _p([2, 3], np.int64, "i"), 1),
        _set_parameter("i", element_type="i8"),
        None,
    ),
    (
        "gatherelements-off-axis",
        lambda: ov6.gather_elements(_p([2, 3]), _p([2, 3], np.int64, "i"), 1),
        _set_parameter("i", shape="3,3"),
        None,
    ),
    (
        "gathernd8-batch-dims",
        lambda: ov8.gather_nd(_p([2, 3]), _p([2, 1], np.int64), 0),
        _set_attribute("m", "batch_dims", "2"),
        None,
    ),
    (
        "gathernd5-tuple",
        lambda: ov5.gather_nd(_p([2, 3]), _p([4, 1], np.int64, "i"), 0),
        _set_parameter("i", shape="4,3"),
        None,
    ),
    (
        "gathernd8-float-indices",
        lambda: ov8.gather_nd(_p([2, 3]), _p([4, 1], np.int64, "i"), 0),
        _set_parameter("i", element_type="f32"),
        None,
    ),
    (
        "gathernd5-batch-mismatch",
        lambda: ov5.gather_nd(_p([2, 3, 4]), _p([2, 1], np.int64, "i"), 1),
        _set_parameter("i", shape="3,1"),
        None,
    ),
    (
        "scatterupdate-updates",
        lambda: ov3.scatter_update(_p([4, 3]), _p([2], np.int64), _p([4, 2], name="u"), _c(1, "a")),
        _set_parameter("u", shape="4,3"),
        None,
    ),
    (
        "scatterupdate-rank",
        lambda: ov3.scatter_update(_p([4, 3]), _p([2], np.int64), _p([4, 2], name="u"), _c(1, "a")),
        _set_parameter("u", shape="4,2,1"),
        None,
    ),
    (
        "scatterupdate-axis-range",
        lambda: ov3.scatter_update(_p([4, 3]), _p([2], np.int64), _p([4, 2]), _c(1, "a")),
        None,
        ("a", [2], np.int64),
    ),
    (
        "scatterupdate-types",
        lambda: ov3.scatter_update(_p([4, 3]), _p([2], np.int64), _p([4, 2], name="u"), _c(1, "a")),
        _set_parameter("u", element_type="i32"),
        None,
    ),
    (
        "scatterelements12-reduction",
        lambda: ov12.scatter_elements_update(_p([4, 3]), _p([4, 3], np.int64), _p([4, 3]), _c(1, "a"), "sum"),
        _set_attribute("m", "reduction", "avg"),
        None,
    ),
    (
        "scatterelements3-updates",
        lambda: ov3.scatter_elements_update(
            _p([4, 3]), _p([4, 3], np.int64), _p([4, 3], name="u"), _c(1, "a")
        ),
        _set_parameter("u", shape="4,2"),
        None,
    ),
    (
        "scatterelements3-rank",
        lambda: ov3.scatter_elements_update(_p([4, 3]), _p([4, 3], np.int64, "i"), _p([4, 3]), _c(1, "a")),
        _set_parameter("i", shape="4,3,1"),
        None,
    ),
    (
        "scatterelements3-axis-range",
        lambda: ov3.scatter_elements_update(_p([4, 3]), _p([4, 3], np.int64), _p([4, 3]), _c(1, "a")),
        None,
        ("a", [-3], np.int64),
    ),
    (
        "scatterelements12-bool-mean",
        lambda: ov12.scatter_elements_update(
            _p([4, 3], np.bool_), _p([4, 3], np.int64), _p([4, 3], np.bool_), _c(1, "a"), "max"
        ),
        _set_attribute("m", "reduction", "mean"),
        None,
    ),
    (
        "scatternd15-reduction",
        lambda: ov15.scatter_nd_update(_p([4, 3]), _p([2, 1], np.int64), _p([2, 3]), "sum"),
        _set_attribute("m", "reduction", "add"),
        None,
    ),
    (
        "scatternd3-i8-indices",
        lambda: ov5.scatter_nd_update(_p([4, 3]), _p([2, 1], np.int64, "i"), _p([2, 3])),
        _set_parameter("i", element_type="i8"),
        None,
    ),
    (
        "scatternd3-updates",
        lambda: ov5.scatter_nd_update(_p([4, 3]), _p([2, 1], np.int64), _p([2, 3], name="u")),
        _set_parameter("u", shape="2,4"),
        None,
    ),
    (
        "scatternd15-last",
        lambda: ov15.scatter_nd_update(_p([4, 3]), _p([2, 1], np.int64, "i"), _p([2, 3])),
        _set_parameter("i", shape="2,3"),
        None,
    ),
    (
        "slice-step-zero",
        lambda: ov8.slice(_p([4, 3]), _c([0], "b"), _c([2], "e"), _c([1], "s")),
        None,
        ("s", [0], np.int64),
    ),
    (
        "slice-axes-repeat",
        lambda: ov8.slice(_p([4, 3]), _c([0, 0], "b"), _c([2, 2], "e"), _c([1, 1], "s"), _c([0, 1], "x")),
        None,
        ("x", [1, -1], np.int64),
    ),
    (
        "slice-axes-range",
        lambda: ov8.slice(_p([4, 3]), _c([0], "b"), _c([2], "e"), _c([1], "s"), _c([1], "x")),
        None,
        ("x", [2], np.int64),
    ),
    (
        "slice-start-rank",
        lambda: ov8.slice(_p([4, 3]), _p([1], np.int64, "b"), _c([2], "e"), _c([1], "s")),
        _set_parameter("b", shape="1,1"),
        None,
    ),
    (
        "slice-too-many",
        lambda: ov8.slice(_p([4]), _p([1], np.int64, "b"), _p([1], np.int64, "e"), _p([1], np.int64, "s")),
        _set_parameter("b", shape="2"),
        None,
    ),
    (
        "stridedslice-mask-two",
        lambda: ov1.strided_slice(
            _p([4, 3]), _c([0, 0], "b"), _c([2, 2], "e"), _c([1, 1], "s"), [0, 0], [0, 0]
        ),
        _set_attribute("m", "begin_mask", "0,2"),
        None,
    ),
    (
        "stridedslice-mask-sizes",
        lambda: ov1.strided_slice(
            _p([4, 3]), _c([0, 0], "b"), _c([2, 2], "e"), _c([1, 1], "s"), [0, 0], [0, 0]
        ),
        _set_attribute("m", "end_mask", "0,0,0"),
        None,
    ),
    (
        "stridedslice-two-ellipses",
        lambda: ov1.strided_slice(
            _p([4, 3]),
            _c([0, 0], "b"),
            _c([2, 2], "e"),
            _c([1, 1], "s"),
            [0, 0],
            [0, 0],
            [0, 0],
            [0, 0],
            [1, 0],
        ),
        _set_attribute("m", "ellipsis_mask", "1,1"),
        None,
    ),
    (
        "stridedslice-stride-zero",
        lambda: ov1.strided_slice(
            _p([4, 3]), _c([0, 0], "b"), _c([2, 2], "e"), _c([1, 1], "s"), [0, 0], [0, 0]
        ),
        None,
        ("s", [1, 0], np.int64),
    ),
    (
        "stridedslice-too-many",
        lambda: ov1.strided_slice(
            _p([4, 3]),
            _c([0, 0, 0], "b"),
            _c([2, 2, 2], "e"),
            _c([1, 1, 1], "s"),
            [0, 0, 0],
            [0, 0, 0],
            [1, 0, 0],
        ),
        _set_attribute("m", "new_axis_mask", "0,0,0"),
        None,
    ),
    (
        "topk1-index-type",
        lambda: ov1.topk(_p([4, 5]), _c(2, "k"), 1, "max", "value"),
        _set_attribute("m", "index_element_type", "u8"),
        None,
    ),
    (
        "scatterelements3-scalar-axis",
        lambda: ov3.scatter_elements_update(_p([]), _p([], np.int64), _p([]), _c(0, "a")),
        None,
        ("a", [1], np.int64),
    ),
    ("range1-step-zero", lambda: ov1.range(_c(0, "b"), _c(5, "e"), _c(1, "s")), None, ("s", [0], np.int64)),
    (
        "range4-step-zero",
        lambda: ov12.range(_c(0, "b"), _c(5, "e"), _c(1, "s"), "i32"),
        None,
        ("s", [0], np.int64),
    ),
    (
        "range4-output-boolean",
        lambda: ov12.range(_c(0, "b"), _c(5, "e"), _c(1, "s"), "i32"),
        _set_attribute("m", "output_type", "boolean"),
        None,
    ),
    (
        "range1-types",
        lambda: ov1.range(_p([], np.int64, "b"), _c(5, "e"), _c(1, "s")),
        _set_parameter("b", element_type="i32"),
        None,
    ),
    (
        "range1-start-not-scalar",
        lambda: ov1.range(_p([], np.int64, "b"), _c(5, "e"), _c(1, "s")),
        _set_parameter("b", shape="2"),
        None,
    ),
    ("nonzero-output-type", lambda: ov3.non_zero(_p([2, 3])), _set_attribute("m", "output_type", "u8"), None),
    (
        "topk3-index-type",
        lambda: ov3.topk(_p([4, 5]), _c(2, "k"), 1, "max", "value"),
        _set_attribute("m", "index_element_type", "u8"),
        None,
    ),
    (
        "topk11-axis-range",
        lambda: ov11.topk(_p([4, 5]), _c(2, "k"), 1, "max", "value"),
        _set_attribute("m", "axis", "2"),
        None,
    ),
    (
        "topk1-negative-k",
        lambda: ov1.topk(_p([4, 5]), _c(2, "k"), 1, "max", "value"),
        None,
        ("k", [-1], np.int64),
    ),
    (
        "topk11-mode",
        lambda: ov11.topk(_p([4, 5]), _c(2, "k"), 1, "max", "value"),
        _set_attribute("m", "mode", "maximum"),
        None,
    ),
    (
        "topk3-k-not-scalar",
        lambda: ov3.topk(_p([4, 5]), _p([], np.int64, "k"), 1, "max", "value"),
        _set_parameter("k", shape="2"),
        None,
    ),
    (
        "topk11-float-k",
        lambda: ov11.topk(_p([4, 5]), _p([], np.int64, "k"), 1, "max", "value"),
        _set_parameter("k", element_type="f32"),
        None,
    ),
]


@pytest.mark.parametrize(("mid", "build", "edit", "const"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_mutant_openvino_rejects_is_an_error_on_its_layer(
    tmp_path: Path,
    mid: str,
    build: Build,
    edit: Callable[[Any], None] | None,
    const: tuple[str, list[int], Any] | None,
) -> None:
    valid = tmp_path / "valid.xml"
    save_batch([OpCase("m", mid, build)], valid)
    assert _openvino_message(valid) is None
    assert errors_on(irshape.check_file(valid), "m") == []
    target = tmp_path / "mutant.xml"
    apply_mutant(valid, target, edit or (lambda tree: None))
    if const is not None:
        _const_bytes(target, *const)
    message = _openvino_message(target)
    assert message is not None, "the mutant is not one: OpenVINO reads it"
    errors = errors_on(irshape.check_file(target), "m")
    assert errors, f"{mid}: OpenVINO rejects the file ({message}), irshape reports no error on the layer"
    quoted = [_quoted(d.message) for d in errors]
    assert any(q and q in message for q in quoted), f"irshape quotes {quoted}; OpenVINO says {message}"


def _openvino_message(xml: Path) -> str | None:
    """read_model's whole message when it rejects the file, else None."""
    try:
        _CORE.read_model(str(xml))
    except Exception as exc:  # OpenVINO raises RuntimeError and subclasses of its own
        return str(exc)
    return None


_CORE = ov.Core()


def _quoted(message: str) -> str | None:
    """The OpenVINO message a finding quotes: ``...; OpenVINO rejects the layer ('...')``."""
    _, found, tail = message.rpartition("('")
    return tail[:-2] if found and tail.endswith("')") else None


STATS["indexing mutants (tests/differential/test_indexing.py)"] = len(MUTANTS)


# --- edits the Python helpers cannot make but OpenVINO reads -----------------------------------

EDITS: list[tuple[str, Build, Callable[[Any], None]]] = [
    (
        "topk1-i64-indices",
        lambda: ov1.topk(_p([4, 5]), _c(2, "k"), 1, "max", "value"),
        _set_attribute("m", "index_element_type", "i64"),
    ),
    (
        "topk11-upper-case-mode",
        lambda: ov11.topk(_p([4, 5]), _c(2, "k"), 1, "max", "value"),
        _set_attribute("m", "mode", "MIN"),
    ),
    (
        "scatterelements12-upper-case",
        lambda: ov12.scatter_elements_update(_p([4, 3]), _p([4, 3], np.int64), _p([4, 3]), _c(1, "a"), "sum"),
        _set_attribute("m", "reduction", "Mean"),
    ),
    (
        "gather1-float-indices",
        lambda: ov1.gather(_p([2, 3]), _p([2], np.int64, "i"), _c(0, "a")),
        _set_parameter("i", element_type="f32"),
    ),
    (
        "scatterelements3-scalar",
        lambda: ov3.scatter_elements_update(_p([]), _p([], np.int64), _p([]), _c(0, "a")),
        lambda tree: None,
    ),
]


@pytest.mark.parametrize(("eid", "build", "edit"), EDITS, ids=[e[0] for e in EDITS])
def test_an_edit_openvino_reads_is_inferred_as_openvino_does(
    tmp_path: Path, eid: str, build: Build, edit: Callable[[Any], None]
) -> None:
    valid = tmp_path / "valid.xml"
    save_batch([OpCase("m", eid, build)], valid)
    target = tmp_path / "edited.xml"
    apply_mutant(valid, target, edit)
    assert openvino_reads(target) is None
    expected = read_back(target)["m"]
    report = irshape.check_file(target)
    assert errors_on(report, "m") == []
    (layer,) = [layer for layer in report.layers if layer.name == "m"]
    assert [(str(s), t) for s, t in zip(layer.outputs, layer.element_types, strict=True)] == expected


# Gather-7/8 with a batch_dims below -rank(indices): OpenVINO adds the indices' rank once and
# indexes its shapes with what is left (a negative index counts from the end, once; beyond
# that it fails), so some such layers read and others fail (docs/openvino-ir-reading.md §15).
NEGATIVE_BATCH_DIMS = [
    (version, data_rank, index_rank, batch_dims, axis)
    for version in (7, 8)
    for data_rank in (1, 2, 3, 4)
    for index_rank in (0, 1, 2, 3)
    for batch_dims in range(-index_rank - 3, 0)
    for axis in range(data_rank)
    if (data_rank + index_rank + batch_dims + axis) % 2 == 0 or version == 8
]


@pytest.mark.parametrize(("version", "data_rank", "index_rank", "batch_dims", "axis"), NEGATIVE_BATCH_DIMS)
def test_gather_negative_batch_dims_as_openvino_reads_them(
    tmp_path: Path, version: int, data_rank: int, index_rank: int, batch_dims: int, axis: int
) -> None:
    data_dims = [2 + i for i in range(data_rank)]
    index_dims = [5 + i for i in range(index_rank)]
    make = ov7.gather if version == 7 else ov8.gather
    source, target = tmp_path / "base.xml", tmp_path / "gather.xml"
    save_batch(
        [
            OpCase(
                "g",
                f"Gather-{version}",
                lambda: make(parameter(data_dims), parameter(index_dims, np.int64), constant(axis), 0),
            )
        ],
        source,
    )
    apply_mutant(source, target, _set_attribute("g", "batch_dims", str(batch_dims)))
    rejection = openvino_reads(target)
    report = irshape.check_file(target)
    if rejection is not None:
        assert errors_on(report, "g"), f"OpenVINO: {rejection}; irshape: no error"
        return
    assert not [d for d in errors_on(report, "g") if d.code not in ("IRS301", "IRS302")], [
        d.message for d in report.errors
    ]
    (layer,) = [layer for layer in report.layers if layer.name == "g"]
    assert [str(s) for s in layer.outputs] == [read_back(target)["g"][0][0]]


@pytest.mark.parametrize("batch_dims", [-(2**40), -9007199254740993, -(2**62), -(2**63) + 1])
def test_gather_huge_negative_batch_dims_fail_as_in_openvino(tmp_path: Path, batch_dims: int) -> None:
    """OpenVINO resizes the output shape to rank(data) + rank(indices) - 1 - batch_dims first:
    std::bad_alloc, or 'vector::_M_default_append' past a vector's largest size."""
    source, target = tmp_path / "base.xml", tmp_path / "gather.xml"
    save_batch(
        [
            OpCase(
                "g",
                "Gather-8",
                lambda: ov8.gather(parameter([4, 6]), parameter([3], np.int64), constant(1), 0),
            )
        ],
        source,
    )
    apply_mutant(source, target, _set_attribute("g", "batch_dims", str(batch_dims)))
    rejection = openvino_reads(target)
    assert rejection is not None  # (its message's first line names only where OpenVINO raised it)
    codes = {d.code for d in errors_on(irshape.check_file(target), "g")}
    assert codes and "IRS901" not in codes, codes
