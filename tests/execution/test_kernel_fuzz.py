"""The kernel fuzzer's drawers for the ops deployed models use most (element-wise, reductions,
indexing, layout, matmul, normalisation, pooling, convolution, resize, NMS, cells). The
machinery, the budget and its environment variables: ``fuzzing.py``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from .fuzzing import (
    ANY,
    BF16,
    F16,
    F32,
    F64,
    INTEGERS,
    NUMERIC,
    REALS,
    SIGNED,
    Draw,
    Drawers,
    Node,
    Redraw,
    drawn_slice,
    make,
    numpy_type,
    op_of,
    opset,
    ov_type,
    run_family,
    slice_axes,
    slice_bounds,
    type_of,
)

drawers = Drawers()
drawer = drawers.add


# --- element-wise --------------------------------------------------------------------------

# unary ops of real data (the integer types too where the op takes them: the plugin computes
# the math functions of integers in f32)
UNARY_REAL = [
    "Acos-1",
    "Asin-1",
    "Atan-1",
    "Cos-1",
    "Cosh-1",
    "Erf-1",
    "Exp-1",
    "Log-1",
    "Sin-1",
    "Sinh-1",
    "Sqrt-1",
    "Tan-1",
    "Tanh-1",
    "Sigmoid-1",
    "Acosh-3",
    "Asinh-3",
    "Atanh-3",
    "SoftPlus-4",
    "Mish-4",
    "HSwish-4",
    "HSigmoid-5",
    "SoftSign-9",
    "Gelu-2",
    "ErfInv-17",
]
UNARY_NUMERIC = ["Abs-1", "Ceiling-1", "Floor-1", "Negative-1", "Relu-1", "Sign-1", "Identity-16"]


@drawer("elementwise", *UNARY_REAL)
def _unary_real(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    if d.chance(0.15):
        # integer data: small values, so that an f32 result's last-bit difference (the plugin's
        # exp is not numpy's) cannot move the integer it rounds to (exp(20) is 485165152 there,
        # 485165216 in numpy's f32); the edges too for the functions whose values stay small
        # (not i8 and u8: the plugin's Reorder gives a NaN result -128 or 0 by the tensor's size)
        element_type = d.pick(["i32", "i64", "i16"])
        kind = (
            "edges"
            if op in ("Acos", "Asin", "Atan", "Cos", "Sin", "Tan", "Tanh", "Sigmoid", "Erf")
            else "small"
        )
        x = d.data(d.shape(), element_type, kind)
    else:
        # HSigmoid's f32 differs from (x + 3) / 6 in the last bit on most elements (the plugin's
        # snippet; no formula tried reproduces it), which moves a bf16 result lying on a tie
        reals = [t for t in REALS if t != BF16] if op == "HSigmoid" else REALS
        x = d.data(d.shape(), d.pick(reals), d.pick(["edges", "unit", "halves"]))
    return [make(version, op, [x])]


@drawer("elementwise", *UNARY_NUMERIC)
def _unary_numeric(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = d.pick(NUMERIC + (["boolean"] if op == "Identity" else []))
    kind = d.pick(["edges", "halves"])
    if op == "Identity" and element_type in ("i64", "u64", "u32"):
        # the plugin removes an Identity, so a Parameter's whole 64-bit value reaches the
        # Result (documented as not modelled: docs/execution.md, the i32 rule's exceptions)
        kind = "small"
    x = d.data(d.shape(), element_type, kind)
    return [make(version, op, [x])]


@drawer("elementwise", "Gelu-7", "Round-5", "Swish-4", "Elu-1", "Clamp-1", "HardSigmoid-1", "Selu-1")
def _unary_with_attributes(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    numeric = op in ("Round", "Clamp")
    element_type = d.pick(NUMERIC if numeric else REALS)
    x = d.data(d.shape(), element_type, d.pick(["edges", "halves"]))
    real = element_type if element_type in REALS else F32
    if op == "Gelu":
        return [make(version, op, [x], {"approximation_mode": d.pick(["erf", "tanh", "ERF", "TANH"])})]
    if op == "Round":
        return [make(version, op, [x], {"mode": d.pick(["half_to_even", "half_away_from_zero"])})]
    if op == "Swish":
        return [
            make(
                version,
                op,
                [x, d.const(d.pick([0.5, 1.0, 1.7, -1.0]), element_type)] if d.chance(0.6) else [x],
            )
        ]
    if op == "Elu":
        return [make(version, op, [x], {"alpha": d.pick([0.0, 0.5, 1.0, 2.3])})]
    if op == "Clamp":
        low = float(d.pick([-2.5, -1.3, 0.0, 0.5, -1e10, -300.0]))
        high = float(d.pick([low, low + 0.5, low + 3.7, 2.5, 1e10, 300.0]))
        if high < low:
            raise Redraw("min above max")
        return [make(version, op, [x], {"min": low, "max": high})]
    if op == "HardSigmoid":
        return [
            make(
                version,
                op,
                [x, d.const(d.pick([0.2, 1.0 / 6, -0.5]), real), d.const(d.pick([0.5, 0.0, 1.2]), real)],
            )
        ]
    return [
        make(version, op, [x, d.const(d.pick([1.6732632, 0.5]), real), d.const(d.pick([1.0507, 2.0]), real)])
    ]


@drawer("elementwise", "IsFinite-10", "IsInf-10", "IsNaN-10")
def _real_tests(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    x = d.data(d.shape(), d.pick(REALS), "edges")
    attributes = {"detect_negative": d.chance(0.5), "detect_positive": d.chance(0.5)} if op == "IsInf" else {}
    return [make(version, op, [x], attributes)]


@drawer("elementwise", "LogicalNot-1", "BitwiseNot-13")
def _not(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = "boolean" if op == "LogicalNot" else d.pick([*INTEGERS, "boolean"])
    return [make(version, op, [d.data(d.shape(), element_type)])]


def _broadcast_pair(d: Draw, mode: str) -> tuple[list[int], list[int], dict[str, Any]]:
    """Two shapes ``mode`` broadcasts, and the attribute saying it."""
    a = d.shape()
    if mode == "none":
        return a, list(a), {"auto_broadcast": "none"}
    if mode == "pdpd":
        start = d.int(0, len(a))
        stop = d.int(start, len(a))
        b = [1 if d.chance(0.3) else dim for dim in a[start:stop]]
        while b and b[-1] == 1 and d.chance(0.5):  # pdpd drops trailing ones of b
            b.pop()
        axis = start if d.chance(0.7) or not b else -1
        if axis == -1:
            b = [1 if d.chance(0.3) else dim for dim in a[len(a) - (stop - start) :]]
        return a, b, {"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": axis}
    rank = d.int(0, 5)
    b = [1 if d.chance(0.3) else dim for dim in a[max(0, len(a) - rank) :]]
    b = [d.int(1, 3) for _ in range(max(0, rank - len(a)))] + b
    if d.chance(0.5):
        a, b = b, a
    a = [1 if d.chance(0.15) else dim for dim in a]
    return a, b, {"auto_broadcast": "numpy"}


BINARY = {
    "Add-1": NUMERIC,
    "Subtract-1": NUMERIC,
    "Multiply-1": NUMERIC,
    "Divide-1": NUMERIC,
    "Maximum-1": NUMERIC,
    "Minimum-1": NUMERIC,
    "Power-1": NUMERIC,
    "FloorMod-1": NUMERIC,
    "Mod-1": NUMERIC,
    "SquaredDifference-1": NUMERIC,
    "Equal-1": ANY,
    "NotEqual-1": ANY,
    "Greater-1": NUMERIC,
    "GreaterEqual-1": NUMERIC,
    "Less-1": NUMERIC,
    "LessEqual-1": NUMERIC,
    "LogicalAnd-1": ["boolean"],
    "LogicalOr-1": ["boolean"],
    "LogicalXor-1": ["boolean"],
    "Xor-1": ["boolean"],
    "BitwiseAnd-13": [*INTEGERS, "boolean"],
    "BitwiseOr-13": [*INTEGERS, "boolean"],
    "BitwiseXor-13": [*INTEGERS, "boolean"],
    "BitwiseLeftShift-15": INTEGERS,
    "BitwiseRightShift-15": INTEGERS,
}


@drawer("elementwise", *BINARY)
def _binary(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    mode = d.pick(["numpy", "numpy", "numpy", "none", "pdpd"])
    element_type = d.pick(BINARY[d.name])
    if mode == "pdpd" and (element_type not in (F32, "i32") or op in ("Subtract", "Divide")):
        # pdpd of the other types is left out: the plugin runs OpenVINO's reference there with
        # its own quirks (u8 Subtract wraps where Add saturates, a BitwiseRightShift aligned
        # otherwise), not modelled; and its ConvertSubtract and ConvertDivide lose the pdpd
        # axis (an i32 Subtract's output of another shape than the model's: a plugin bug)
        raise Redraw("pdpd of this type is not modelled")
    if op == "SquaredDifference" and element_type in ("i8", "u8"):
        raise Redraw("the plugin's i8/u8 SquaredDifference is wrong (irshape/kernels/elementwise.py)")
    a_shape, b_shape, attributes = _broadcast_pair(d, mode)
    kind = (
        "positive"
        if op in ("BitwiseLeftShift", "BitwiseRightShift") and d.chance(0.7)
        else d.pick(["edges", "halves"])
    )
    a = d.data(a_shape, element_type, d.pick(["edges", "halves"]))
    b = d.data(b_shape, element_type, kind)
    if op == "Divide" and d.chance(0.5):
        attributes["m_pythondiv"] = d.chance(0.5)
    if op in ("Divide", "FloorMod", "Mod") and element_type not in REALS:
        # an integer division by zero is undefined (the plugin's result is whatever the CPU gives)
        b = d.data(b_shape, element_type, "positive")
        if element_type in SIGNED and d.chance(0.5):
            b = make(1, "Negative", [b])
    return [make(version, op, [a, b], attributes)]


@drawer("elementwise", "Select-1")
def _select(d: Draw) -> Sequence[Node]:
    element_type = d.pick(ANY)
    mode = d.pick(["numpy", "numpy", "none"])
    a_shape, b_shape, attributes = _broadcast_pair(d, mode)
    c_shape = a_shape if mode == "none" or d.chance(0.5) else b_shape
    condition = d.data(c_shape, "boolean")
    return [
        make(
            1, "Select", [condition, d.data(a_shape, element_type), d.data(b_shape, element_type)], attributes
        )
    ]


@drawer("elementwise", "PRelu-1")
def _prelu(d: Draw) -> Sequence[Node]:
    element_type = d.pick([*REALS, "i8", "i32"])
    shape = d.shape(d.int(1, 5))
    choice = d.pick(["scalar", "channel", "same", "last"])
    slope_shape = {
        "scalar": [1],
        "channel": [shape[1]] if len(shape) > 1 else [shape[0]],
        "same": shape,
        "last": shape[-1:],
    }[choice]
    return [make(1, "PRelu", [d.data(shape, element_type), d.data(slope_shape, element_type)])]


CONVERT_TYPES = [*NUMERIC, "boolean"]


@drawer("elementwise", "Convert-1", "ConvertLike-1")
def _convert(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    source, target = d.pick(CONVERT_TYPES), d.pick(CONVERT_TYPES)
    if source == F64 or (source == F16 and target in INTEGERS):
        # straight from a Parameter the plugin's input conversion saturates these (documented as
        # not modelled in irshape/kernels/elementwise.py)
        raise Redraw("not modelled")
    x = d.data(d.shape(), source, d.pick(["edges", "halves"]))
    if op == "Convert":
        return [make(version, op, [x], {"destination_type": target})]
    like = d.data(d.shape(d.int(0, 2)), target)
    return [make(version, op, [x, like])]


# --- reductions ----------------------------------------------------------------------------

REDUCTIONS = [
    "ReduceL1-4",
    "ReduceL2-4",
    "ReduceMax-1",
    "ReduceMean-1",
    "ReduceMin-1",
    "ReduceProd-1",
    "ReduceSum-1",
]


@drawer("reduction", *REDUCTIONS, "ReduceLogicalAnd-1", "ReduceLogicalOr-1")
def _reduce(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    logical = op.startswith("ReduceLogical")
    extremes = op in ("ReduceMax", "ReduceMin")
    element_type = (
        "boolean" if logical else d.pick(REALS + ["i32", "i64"] + (["i8", "u8"] if extremes else []))
    )
    shape = d.shape()
    # integers: no overflow, which the plugin saturates (i8, u8) or sums in f32 (i32): documented
    # as not followed in irshape/kernels/reduction.py; and ReduceMax/Min of NaN in SIMD lanes
    # (documented there too) only where every element or none is NaN
    kind = d.pick(["edges", "unit"]) if element_type in REALS else "small"
    if extremes and element_type in REALS:
        kind = "unit"
    x = d.data(shape, element_type, kind)
    axes = d.axes(len(shape)) if shape and d.chance(0.9) else []
    index_type = d.pick(["i32", "i64"])
    return [
        make(version, op, [x, d.const(np.array(axes, np.int64), index_type)], {"keep_dims": d.chance(0.5)})
    ]


# --- indexing ------------------------------------------------------------------------------


def _indices(
    d: Draw, shape: Sequence[int], size: int, negative: bool, out_of_range: bool = False
) -> np.ndarray:
    low = -size if negative else 0
    high = size - 1 + (2 if out_of_range else 0)
    return np.asarray(d.rng.integers(low, max(high, low) + 1, tuple(shape)))


@drawer("indexing", "Gather-1", "Gather-7", "Gather-8")
def _gather(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    d.exact = True
    element_type = d.pick(ANY)
    shape = d.shape(d.int(1, 4), low=1, zero=0)  # empty data crashes the plugin too
    rank = len(shape)
    batch_dims = 0 if version == 1 else d.int(0, rank - 1)
    axis = d.int(batch_dims, rank - 1)
    index_shape = shape[:batch_dims] + d.shape(d.int(0, 2), zero=0)
    # the plugin crashes (SIGFPE) on empty indices and on a batch of 1 (docs/execution.md: a
    # plugin bug irshape does not copy)
    if shape[axis] == 0 or 0 in index_shape or (batch_dims and int(np.prod(shape[:batch_dims])) <= 1):
        raise Redraw("a Gather the plugin crashes on")
    index_type = d.pick(["i32", "i64"])
    indices = _indices(d, index_shape, shape[axis], negative=version == 8)
    if d.chance(0.5):
        index_node = opset.parameter(list(index_shape), ov_type(index_type))
        d.inputs[index_node] = indices.astype(numpy_type(index_type))
    else:
        index_node = d.const(indices, index_type)
    axis_value = axis - rank if d.chance(0.4) else axis
    if batch_dims and d.chance(0.4):
        batch_dims -= len(index_shape)  # negative: counted from the indices' rank
    attributes = {} if version == 1 else {"batch_dims": batch_dims}
    x = d.data(shape, element_type, "small")
    return [make(version, op, [x, index_node, d.const(np.array(axis_value), "i64")], attributes)]


@drawer("indexing", "GatherElements-6")
def _gather_elements(d: Draw) -> Sequence[Node]:
    d.exact = True
    element_type = d.pick(ANY)
    shape = d.shape(d.int(1, 4), low=1)
    axis = d.int(0, len(shape) - 1)
    if shape[axis] == 0:
        raise Redraw("empty axis")
    index_shape = list(shape)
    index_shape[axis] = d.int(1, 4)
    indices = _indices(d, index_shape, shape[axis], negative=True)
    index_type = d.pick(["i32", "i64"])
    axis_value = axis - len(shape) if d.chance(0.5) else axis
    return [
        make(
            6,
            "GatherElements",
            [d.data(shape, element_type, "small"), d.const(indices, index_type)],
            {"axis": axis_value},
        )
    ]


@drawer("indexing", "GatherND-5", "GatherND-8")
def _gather_nd(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    d.exact = True
    element_type = d.pick(ANY)
    shape = d.shape(d.int(1, 4), low=1, zero=0)
    batch_dims = d.int(0, len(shape) - 1)
    depth = d.int(1, len(shape) - batch_dims)
    index_shape = shape[:batch_dims] + d.shape(d.int(0, 2), zero=0) + [depth]
    columns = [_indices(d, index_shape[:-1], shape[batch_dims + k], negative=True) for k in range(depth)]
    indices = np.stack(columns, axis=-1) if columns else np.zeros(index_shape, np.int64)
    return [
        make(
            version,
            op,
            [d.data(shape, element_type, "small"), d.const(indices, d.pick(["i32", "i64"]))],
            {"batch_dims": batch_dims},
        )
    ]


@drawer("indexing", "ScatterUpdate-3")
def _scatter_update(d: Draw) -> Sequence[Node]:
    d.exact = True
    element_type = d.pick(ANY)
    shape = d.shape(d.int(1, 4), low=1, zero=0)
    axis = d.int(0, len(shape) - 1)
    count = d.int(1, shape[axis])
    indices = d.rng.choice(shape[axis], size=count, replace=False)  # distinct: duplicates are racy
    index_shape = [count]
    if d.chance(0.3):
        indices, index_shape = indices.reshape(1, count), [1, count]
    update_shape = shape[:axis] + index_shape + shape[axis + 1 :]
    x, updates = d.data(shape, element_type, "small"), d.data(update_shape, element_type, "small")
    axis_value = axis - len(shape) if d.chance(0.5) else axis
    index_type = d.pick(["i32", "i64"])
    return [
        make(
            3,
            "ScatterUpdate",
            [x, d.const(indices, index_type), updates, d.const(np.array(axis_value), "i64")],
        )
    ]


@drawer("indexing", "ScatterElementsUpdate-3", "ScatterElementsUpdate-12")
def _scatter_elements(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = d.pick(
        [*REALS, "i32", "i8", "u8", "boolean"] if version == 3 else [*REALS, "i32", "i64", "i8", "u8"]
    )
    shape = d.shape(d.int(1, 4), low=1, zero=0)
    axis = d.int(0, len(shape) - 1)
    reduction = "none" if version == 3 else d.pick(["none", "sum", "prod", "min", "max", "mean"])
    update_shape = [d.int(1, dim) for dim in shape]
    if reduction == "none":
        # distinct targets along the axis (a repeated one is racy in the plugin)
        if update_shape[axis] > shape[axis]:
            raise Redraw("")
        positions = np.argsort(d.rng.random(tuple(update_shape)), axis=axis)
        indices = np.take(np.arange(shape[axis]), positions % shape[axis])
    else:
        indices = _indices(d, update_shape, shape[axis], negative=True)
    attributes: dict[str, Any] = {}
    if version == 12:
        attributes = {"reduction": reduction, "use_init_val": d.chance(0.5)}
    d.exact = reduction in ("none", "min", "max")
    x, updates = d.data(shape, element_type, "small"), d.data(update_shape, element_type, "small")
    axis_value = axis - len(shape) if d.chance(0.5) else axis
    return [
        make(
            version,
            op,
            [x, d.const(indices, d.pick(["i32", "i64"])), updates, d.const(np.array(axis_value), "i64")],
            attributes,
        )
    ]


@drawer("indexing", "ScatterNDUpdate-3", "ScatterNDUpdate-15")
def _scatter_nd(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = d.pick([*REALS, "i32", "i8", "u8", "boolean"])
    shape = d.shape(d.int(1, 4), low=1, zero=0)
    depth = d.int(1, len(shape))
    reduction = "none" if version == 3 else d.pick(["none", "sum", "sub", "prod", "min", "max"])
    if element_type == "boolean" and reduction not in ("none", "min", "max"):
        raise Redraw("")
    if element_type == BF16 and reduction in ("sum", "sub", "prod"):
        # (a bf16 sum of updates lands a bf16 step off one rounding now and then: not modelled)
        raise Redraw("")
    count = d.int(1, 4)
    cells = int(np.prod(shape[:depth]))
    if reduction == "none":
        count = min(count, cells)
        flat = d.rng.choice(cells, size=count, replace=False)
    else:
        flat = d.rng.integers(0, cells, count)
    indices = np.stack(np.unravel_index(flat, tuple(shape[:depth])), axis=-1)
    indices = np.where(d.rng.random(indices.shape) < 0.3, indices - np.array(shape[:depth]), indices)
    update_shape = [count, *shape[depth:]]
    d.exact = reduction in ("none", "min", "max")
    attributes = {} if version == 3 else {"reduction": reduction}
    x, updates = d.data(shape, element_type, "small"), d.data(update_shape, element_type, "small")
    return [make(version, op, [x, d.const(indices, d.pick(["i32", "i64"])), updates], attributes)]


@drawer("indexing", "Slice-8")
def _slice(d: Draw) -> Sequence[Node]:
    d.exact = True
    shape, axes, bounds, index_type = drawn_slice(d)
    data = d.data(shape, d.pick(ANY), "small")
    slices = [d.const(v, index_type) for v in bounds]
    return [make(8, "Slice", [data, *slices, *slice_axes(d, shape, axes, index_type)])]


@drawer("indexing", "StridedSlice-1")
def _strided_slice(d: Draw) -> Sequence[Node]:
    d.exact = True
    shape = d.shape(d.int(1, 5))
    count = d.int(1, len(shape) + 1)
    begin, end, stride = [], [], []
    for k in range(count):
        dim = shape[k] if k < len(shape) else 1
        b, e, s = slice_bounds(d, dim)
        begin.append(min(max(b, -(2**31)), 2**31 - 1))
        end.append(min(max(e, -(2**31)), 2**31 - 1))
        stride.append(s)

    def mask() -> list[int]:
        return [int(d.chance(0.25)) for _ in range(count)]

    attributes = {
        "begin_mask": mask(),
        "end_mask": mask(),
        "new_axis_mask": [int(d.chance(0.1)) for _ in range(count)],
        "shrink_axis_mask": [int(d.chance(0.15)) for _ in range(count)],
        "ellipsis_mask": [0] * count,
    }
    if d.chance(0.15):
        attributes["ellipsis_mask"][d.int(0, count - 1)] = 1
    x = d.data(shape, d.pick(ANY), "small")
    index_type = d.pick(["i32", "i64"])
    return [
        make(
            1,
            "StridedSlice",
            [
                x,
                d.const(np.array(begin), index_type),
                d.const(np.array(end), index_type),
                d.const(np.array(stride), index_type),
            ],
            attributes,
        )
    ]


@drawer("indexing", "TopK-1", "TopK-3", "TopK-11")
def _topk(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = d.pick(REALS + (["i32", "i8", "u8", "i64"] if version > 1 else []))
    shape = d.shape(d.int(1, 4), low=1, zero=0)
    axis = d.int(0, len(shape) - 1)
    k = d.int(0 if version > 1 else 1, shape[axis])
    attributes: dict[str, Any] = {
        "axis": axis - len(shape) if d.chance(0.4) else axis,
        "mode": d.pick(["max", "min"]),
        "sort": d.pick(["value", "index", "none"]),
        "index_element_type": d.pick(["i32", "i64"]),
    }
    if version == 1:
        del attributes["index_element_type"]
    if version == 11:
        attributes["stable"] = d.chance(0.5)
    # ties make the chosen indices the plugin's choice: distinct values unless stable
    values = d.values(shape, element_type, "unit")
    if not attributes.get("stable"):
        order = d.rng.permutation(max(1, int(np.prod(shape))))[: values.size].reshape(values.shape)
        values = (
            (order - values.size // 2).astype(values.dtype)
            if element_type not in ("u8",)
            else order.astype(values.dtype)
        )
        if element_type == "i8":
            values = np.asarray(order % 250 - 125).astype(np.int8)
            if values.size > 250:
                raise Redraw("")
    x = d.data(shape, element_type)
    d.inputs[x if element_type != BF16 else list(d.inputs)[-1]] = values
    if attributes["sort"] == "none":
        d.exact = False
        raise Redraw("unsorted order is the plugin's choice")
    d.exact = True
    return [make(version, op, [x, d.const(np.array(k), d.pick(["i32", "i64"]))], attributes)]


# --- layout --------------------------------------------------------------------------------


@drawer("layout", "Concat-1")
def _concat(d: Draw) -> Sequence[Node]:
    d.exact = True
    element_type = d.pick(ANY)
    shape = d.shape(d.int(1, 5))
    axis = d.int(0, len(shape) - 1)
    parts = []
    for _ in range(d.int(1, 4)):
        part = list(shape)
        part[axis] = d.int(0, 3)
        parts.append(d.data(part, element_type, "small"))
    return [make(1, "Concat", parts, {"axis": axis - len(shape) if d.chance(0.5) else axis})]


@drawer("layout", "Split-1", "VariadicSplit-1")
def _split(d: Draw) -> Sequence[Node]:
    op, _version = op_of(d.name)
    d.exact = True
    shape = d.shape(d.int(1, 5), zero=0)
    axis = d.int(0, len(shape) - 1)
    x = d.data(shape, d.pick(ANY), "small")
    axis_node = d.const(np.array(axis - len(shape) if d.chance(0.5) else axis), d.pick(["i32", "i64"]))
    if op == "Split":
        divisors = [n for n in range(1, shape[axis] + 1) if shape[axis] % n == 0] or [1]
        return [make(1, "Split", [x, axis_node], {"num_splits": d.pick(divisors)})]
    lengths: list[int] = []
    left = shape[axis]
    while left > 0:
        lengths.append(d.int(0, left))
        left -= lengths[-1]
    if d.chance(0.4):
        lengths.insert(d.int(0, len(lengths)), -1)
    return [make(1, "VariadicSplit", [x, axis_node, d.const(np.array(lengths or [0]), "i64")])]


@drawer("layout", "Reshape-1", "Squeeze-1", "Squeeze-15", "Unsqueeze-1", "Transpose-1")
def _reshape_family(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    d.exact = True
    # no empty data: the plugin gives a Transpose of [1,0] an output of [1,1], and OpenVINO
    # infers a Reshape of [0,1,3,1,1] (target [0,...] with special_zero) as [1,1,3,1,1]
    shape = d.shape(d.int(0, 5), zero=0)
    x = d.data(shape, d.pick(ANY), "small")
    rank = len(shape)
    if op == "Reshape":
        total = int(np.prod(shape))
        target = list(d.rng.permutation(shape)) if d.chance(0.5) else [total]
        special = d.chance(0.5)
        if special and target and d.chance(0.5) and rank:
            target[0] = 0 if len(target) <= rank and target[0] == shape[0] else target[0]
        if d.chance(0.5) and target and total:
            target[d.int(0, len(target) - 1)] = -1
        return [
            make(
                1,
                "Reshape",
                [x, d.const(np.array(target, np.int64), d.pick(["i32", "i64"]))],
                {"special_zero": special},
            )
        ]
    if op == "Squeeze":
        ones = [i for i, dim in enumerate(shape) if dim == 1]
        axes = [a - rank if d.chance(0.4) else a for a in ones if d.chance(0.6)]
        if not axes and d.chance(0.5):
            return [make(version, op, [x])]
        attributes = {"allow_axis_skip": d.chance(0.5)} if version == 15 else {}
        return [make(version, op, [x, d.const(np.array(axes, np.int64), "i64")], attributes)]
    if op == "Unsqueeze":
        out_rank = rank + d.int(1, 2)
        axes = d.axes(out_rank, out_rank - rank)
        return [make(1, op, [x, d.const(np.array(axes, np.int64), d.pick(["i32", "i64"]))])]
    order = d.rng.permutation(rank)
    perm = np.array([], np.int64) if d.chance(0.15) else order
    return [make(1, "Transpose", [x, d.const(perm, d.pick(["i32", "i64"]))])]


@drawer("layout", "Pad-1", "Pad-12")
def _pad(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = d.pick(NUMERIC)
    shape = d.shape(d.int(1, 5), low=1, zero=0)
    mode = d.pick(["constant", "edge", "reflect", "symmetric"])
    low = -2 if version == 12 else 0
    begin = [d.int(low, 2) for _ in shape]
    end = [d.int(low, 2) for _ in shape]
    for k, dim in enumerate(shape):
        limit = dim - 1 if mode == "reflect" else dim
        begin[k], end[k] = min(begin[k], limit), min(end[k], limit)
        # a crop past the dim: irshape refuses it (the plugin corrupts its memory on it)
        if dim + begin[k] + end[k] < 0 or min(begin[k], end[k]) < -dim:
            raise Redraw("")
    d.exact = True
    x = d.data(shape, element_type, "small")
    inputs = [x, d.const(np.array(begin), "i64"), d.const(np.array(end), "i64")]
    if mode == "constant" and d.chance(0.7):
        inputs.append(
            d.const(np.array(d.pick([0, 1, -2, 7])), element_type if element_type != BF16 else BF16)
        )
    return [make(version, op, inputs, {"pad_mode": mode})]


@drawer("layout", "Roll-7", "CumSum-3", "Reverse-1")
def _roll_cumsum(d: Draw) -> Sequence[Node]:
    op, _version = op_of(d.name)
    shape = d.shape(d.int(1, 5))
    rank = len(shape)
    if op == "Roll":
        d.exact = True
        x = d.data(shape, d.pick(ANY), "small")
        axes = d.axes(rank)
        shifts = [d.int(-7, 7) for _ in axes] if d.chance(0.7) else [d.int(-7, 7)]
        index_type = d.pick(["i32", "i64"])
        return [
            make(7, "Roll", [x, d.const(np.array(shifts), index_type), d.const(np.array(axes), index_type)])
        ]
    if op == "Reverse":
        d.exact = True
        x = d.data(shape, d.pick(ANY), "small")
        axes = d.axes(rank) if d.chance(0.8) else []
        if d.chance(0.5):
            return [make(1, "Reverse", [x, d.const(np.array(axes, np.int64), "i64")], {"mode": "index"})]
        mask = np.zeros(rank, bool)
        mask[[a % rank for a in axes]] = True
        return [make(1, "Reverse", [x, d.const(mask, "boolean")], {"mode": "mask"})]
    # (no bf16: its sums land one bf16 step off now and then, not modelled: kernels/layout.py)
    element_type = d.pick([F32, F32, F16, F64, "i32", "i64", "i8", "u8"])
    x = d.data(shape, element_type, "small" if element_type not in REALS else "unit")
    axis = d.axis(rank)
    return [
        make(
            3,
            "CumSum",
            [x, d.const(np.array(axis), d.pick(["i32", "i64"]))],
            {"exclusive": d.chance(0.5), "reverse": d.chance(0.5)},
        )
    ]


@drawer("layout", "DepthToSpace-1", "SpaceToDepth-1", "ShuffleChannels-1")
def _depth_space(d: Draw) -> Sequence[Node]:
    op, _version = op_of(d.name)
    d.exact = True
    block = d.int(1, 3)
    rank = d.int(3, 5)
    element_type = d.pick(ANY)
    if op == "ShuffleChannels":
        shape = d.shape(d.int(1, 4))
        axis = d.int(0, len(shape) - 1)
        group = d.int(1, 3)
        shape[axis] = group * d.int(1, 3)
        return [
            make(
                1,
                op,
                [d.data(shape, element_type, "small")],
                {"axis": axis - len(shape) if d.chance(0.5) else axis, "group": group},
            )
        ]
    shape = [d.int(1, 2), d.int(1, 2)] + [d.int(1, 3) for _ in range(rank - 2)]
    if op == "DepthToSpace":
        shape[1] *= block ** (rank - 2)
    else:
        shape[2:] = [dim * block for dim in shape[2:]]
    mode = d.pick(["blocks_first", "depth_first"])
    return [make(1, op, [d.data(shape, element_type, "small")], {"mode": mode, "block_size": block})]


@drawer("elementwise", "Broadcast-1", "Broadcast-3", "Tile-1")
def _broadcast(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    d.exact = True
    element_type = d.pick(ANY)
    # no empty data for Broadcast: the plugin crashes (SIGFPE) compiling one
    shape = d.shape(d.int(0, 4), zero=0.04 if op == "Tile" else 0)
    x = d.data(shape, element_type, "small")
    if op == "Tile":
        # (not empty: the plugin leaves the output of a Tile by [] uninitialised, a plugin bug)
        repeats = [d.int(0, 3) for _ in range(d.int(1, 5))]
        if element_type in ("i64", "u64") and len(repeats) < len(shape):
            # the plugin's 64-bit Tile by fewer repeats than the rank gave zeros: a plugin bug
            raise Redraw("a Tile the plugin gets wrong")
        return [make(1, "Tile", [x, d.const(np.array(repeats), d.pick(["i32", "i64"]))])]
    mode = d.pick(["numpy", "explicit", "bidirectional"] if version == 3 else ["numpy", "explicit"])
    if mode == "explicit":
        extra = d.int(0, 2)
        target_rank = len(shape) + extra
        axes = sorted(d.rng.choice(target_rank, size=len(shape), replace=False).tolist())
        target = [d.int(1, 3) for _ in range(target_rank)]
        for axis, dim in zip(axes, shape, strict=False):
            target[axis] = dim if dim != 1 or d.chance(0.5) else target[axis]
        return [
            make(
                version,
                "Broadcast",
                [x, d.const(np.array(target), "i64"), d.const(np.array(axes), "i64")],
                {"mode": mode},
            )
        ]
    target = [dim if dim != 1 else d.int(1, 3) for dim in shape]
    # (never an empty target: the plugin crashes compiling a Broadcast-3 of a scalar to [])
    target = [d.int(1, 3) for _ in range(d.int(0 if target else 1, 2))] + target
    if mode == "bidirectional" and target:
        target = [1 if d.chance(0.3) else dim for dim in target]
    return [make(version, "Broadcast", [x, d.const(np.array(target), "i64")], {"mode": mode})]


# --- matmul, normalisations ----------------------------------------------------------------


@drawer("matmul", "MatMul-1")
def _matmul(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16, BF16, "i32"])
    m, k, n = d.int(1, 5), d.int(1, 6), d.int(1, 5)
    batch = d.shape(d.int(0, 2), zero=0)
    a_shape = [k] if d.chance(0.15) else [*batch, m, k]
    b_batch = [1 if d.chance(0.3) else dim for dim in batch][d.int(0, len(batch)) :]
    b_shape = [k] if d.chance(0.15) else [*b_batch, k, n]
    transpose_a, transpose_b = d.chance(0.5), d.chance(0.5)
    if transpose_a and len(a_shape) > 1:
        a_shape[-1], a_shape[-2] = a_shape[-2], a_shape[-1]
    if transpose_b and len(b_shape) > 1:
        b_shape[-1], b_shape[-2] = b_shape[-2], b_shape[-1]
    kind = "small" if element_type == "i32" else "unit"
    a = d.data(a_shape, element_type, kind)
    b = (
        d.data(b_shape, element_type, kind)
        if d.chance(0.6)
        else d.const(d.values(b_shape, element_type, kind), element_type)
    )
    return [make(1, "MatMul", [a, b], {"transpose_a": transpose_a, "transpose_b": transpose_b})]


@drawer("normalization", "Softmax-1", "Softmax-8", "LogSoftmax-5")
def _softmax(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    shape = d.shape(d.int(1, 5), zero=0.02)
    axis = d.int(0, len(shape) - 1) if version == 1 else d.axis(len(shape))
    if op == "LogSoftmax":
        # reals only, no bf16: a bf16 LogSoftmax lands a step off at large values (-175 where
        # one rounding gives -174) and a row with -inf is NaN there, -inf here: not modelled
        x = d.data(shape, d.pick([F32, F32, F16, F64]), "unit")
    else:
        # (no NaN and infinities: which elements of a row with a NaN come out NaN depends on
        # the plugin's SIMD lanes, [-0.5, NaN] along axis 1 of [2,2,4,4] is all NaN there, and
        # f64 gets infinities unsaturated; the family suite tests the order-free rows)
        x = d.data(shape, d.pick([F32, F32, F16, BF16, F64]), "unit")
    return [make(version, op, [x], {"axis": axis})]


@drawer("normalization", "MVN-6", "MVN-2", "NormalizeL2-1")
def _mvn(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    shape = d.shape(d.int(2 if version == 2 else 1, 5), zero=0)
    # no bf16: the plugin's bf16 MVN and NormalizeL2 land a bf16 step off the result rounded
    # once (and NormalizeL2 over no axes is x / sqrt(x^2 + eps) there, 1 in f32): not modelled
    x = d.data(shape, d.pick([F32, F32, F16]), "unit")
    if op == "MVN" and version == 6:
        axes = d.axes(len(shape))
        # (an eps below f16's range is 0 to the plugin's f16 MVN: NaN for a constant row)
        eps = d.pick([1e-9, 1e-5, 0.1] if type_of(x) == "f32" else [1e-5, 0.1])
        attributes = {
            "normalize_variance": d.chance(0.7),
            "eps": eps,
            "eps_mode": d.pick(["inside_sqrt", "outside_sqrt"]),
        }
        return [make(6, "MVN", [x, d.const(np.array(axes), d.pick(["i32", "i64"]))], attributes)]
    if op == "MVN":
        attributes = {
            "across_channels": d.chance(0.5),
            "normalize_variance": d.chance(0.7),
            "eps": d.pick([1e-9, 1e-5, 0.1]),
        }
        return [make(2, "MVN", [x], attributes)]
    axes = d.axes(len(shape)) if d.chance(0.85) else []
    attributes = {"eps": d.pick([1e-12, 1e-5, 0.5]), "eps_mode": d.pick(["add", "max"])}
    return [make(1, "NormalizeL2", [x, d.const(np.array(axes, np.int64), "i64")], attributes)]


@drawer("normalization", "BatchNormInference-5", "GroupNormalization-12", "LRN-1", "GRN-1")
def _batch_norm(d: Draw) -> Sequence[Node]:
    op, _version = op_of(d.name)
    # (bf16 BatchNormInference and GroupNormalization land a bf16 step off too: not modelled)
    element_type = d.pick(
        [F32, F32, F16] + ([] if op in ("BatchNormInference", "GroupNormalization") else [BF16])
    )
    shape = [d.int(1, 2), d.int(1, 4), *d.shape(d.int(0, 3), zero=0)]
    x = d.data(shape, element_type, "unit")
    channels = shape[1]
    if op == "BatchNormInference":
        gamma, beta, mean = (d.data([channels], element_type, "unit") for _ in range(3))
        variance = d.data([channels], element_type, "positive")
        return [make(5, op, [x, gamma, beta, mean, variance], {"epsilon": d.pick([1e-5, 1e-3, 0.5])})]
    if op == "GroupNormalization":
        groups = d.pick([g for g in range(1, channels + 1) if channels % g == 0])
        scale, bias = d.data([channels], element_type, "unit"), d.data([channels], element_type, "unit")
        return [make(12, op, [x, scale, bias], {"num_groups": groups, "epsilon": d.pick([1e-5, 0.1])})]
    if op == "GRN":
        return [make(1, op, [x], {"bias": d.pick([1e-6, 0.5, 1.0])})]
    axes = d.pick([[1], list(range(2, len(shape))) or [1], [1, 2] if len(shape) > 2 else [1]])
    attributes = {
        "alpha": d.pick([1e-4, 0.5]),
        "beta": d.pick([0.75, 0.5]),
        "bias": d.pick([1.0, 2.0]),
        "size": d.pick([1, 3, 5]),
    }
    return [make(1, "LRN", [x, d.const(np.array(axes), "i64")], attributes)]


# --- pooling and convolution ---------------------------------------------------------------


def _window(d: Draw, spatial: int) -> dict[str, Any]:
    """Kernel, strides, dilations and pads of ``spatial`` axes, and an auto_pad kind."""
    return {
        "kernel": [d.int(1, 3) for _ in range(spatial)],
        "strides": [d.int(1, 3) for _ in range(spatial)],
        "dilations": [d.int(1, 2) for _ in range(spatial)],
        "pads_begin": [d.int(0, 1) for _ in range(spatial)],
        "pads_end": [d.int(0, 2) for _ in range(spatial)],
        "auto_pad": d.pick(["explicit", "explicit", "valid", "same_upper", "same_lower"]),
    }


@drawer("pooling", "MaxPool-1", "MaxPool-8", "MaxPool-14", "AvgPool-1", "AvgPool-14", "AvgPool-16")
def _pool(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    spatial = d.int(1, 3)
    window = _window(d, spatial)
    shape = [d.int(1, 2), d.int(1, 3)] + [d.int(1, 6) for _ in range(spatial)]
    for k in range(spatial):  # pads below the kernel (the plugin and OpenVINO need it)
        window["pads_begin"][k] = min(window["pads_begin"][k], window["kernel"][k] - 1)
        window["pads_end"][k] = min(window["pads_end"][k], window["kernel"][k] - 1)
    rounding = d.pick(["floor", "ceil"] + (["ceil_torch"] if version >= 14 else []))
    element_type = d.pick([F32, F32, F16, BF16] + (["i8", "u8"] if op == "MaxPool" else []))
    x = d.data(shape, element_type, "unit" if element_type in REALS else "small")
    attributes: dict[str, Any] = {
        k: window[k] for k in ("kernel", "strides", "pads_begin", "pads_end", "auto_pad")
    }
    attributes["rounding_type"] = rounding
    if op == "AvgPool":
        attributes["exclude-pad"] = d.chance(0.5)
        if version == 16:
            attributes["dilations"] = window["dilations"]
        return [make(version, op, [x], attributes)]
    if version >= 8:
        attributes["dilations"] = window["dilations"]
        attributes["axis"] = d.pick([0, 1, 2, -1][: 2 + spatial])
        attributes["index_element_type"] = d.pick(["i32", "i64"])
    d.exact = True
    return [make(version, op, [x], attributes)]


@drawer("pooling", "AdaptiveAvgPool-8", "AdaptiveMaxPool-8")
def _adaptive_pool(d: Draw) -> Sequence[Node]:
    op, _version = op_of(d.name)
    spatial = d.int(1, 3)
    shape = [d.int(1, 2), d.int(1, 3)] + [d.int(1, 7) for _ in range(spatial)]
    x = d.data(shape, d.pick([F32, F32, F16, BF16]), "unit")
    sizes = d.const(np.array([d.int(1, 5) for _ in range(spatial)]), d.pick(["i32", "i64"]))
    if op == "AdaptiveAvgPool":
        return [make(8, op, [x, sizes])]
    d.exact = True
    return [make(8, op, [x, sizes], {"index_element_type": d.pick(["i32", "i64"])})]


@drawer(
    "convolution",
    "Convolution-1",
    "GroupConvolution-1",
    "ConvolutionBackpropData-1",
    "GroupConvolutionBackpropData-1",
)
def _convolution(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    spatial = d.int(1, 3)
    window = _window(d, spatial)
    groups = d.int(1, 3) if op.startswith("Group") else 1
    c_in, c_out = groups * d.int(1, 3), groups * d.int(1, 3)
    shape = [d.int(1, 2), c_in] + [d.int(1, 6) for _ in range(spatial)]
    element_type = d.pick([F32, F32, F16, BF16])
    x = d.data(shape, element_type, "unit")
    kernel = window["kernel"]
    backprop = op.endswith("BackpropData")
    if op == "Convolution":
        weights_shape = [c_out, c_in, *kernel]
    elif op == "GroupConvolution":
        weights_shape = [groups, c_out // groups, c_in // groups, *kernel]
    elif op == "ConvolutionBackpropData":
        weights_shape = [c_in, c_out, *kernel]
    else:
        weights_shape = [groups, c_in // groups, c_out // groups, *kernel]
    weights = (
        d.const(d.values(weights_shape, element_type, "unit"), element_type)
        if d.chance(0.8)
        else d.data(weights_shape, element_type, "unit")
    )
    attributes = {k: window[k] for k in ("strides", "dilations", "pads_begin", "pads_end", "auto_pad")}
    if backprop:
        if attributes["auto_pad"] == "valid":
            attributes["auto_pad"] = "explicit"
        attributes["output_padding"] = [d.int(0, s - 1) for s in window["strides"]]
    return [make(version, op, [x, weights], attributes)]


# --- resize --------------------------------------------------------------------------------


@drawer("resize", "Interpolate-4", "Interpolate-11")
def _interpolate(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    rank = d.int(3, 5)
    shape = [d.int(1, 2), d.int(1, 3)] + [d.int(1, 5) for _ in range(rank - 2)]
    modes = ["nearest", "linear", "linear_onnx", "cubic"] + (
        ["bilinear_pillow", "bicubic_pillow"] if version == 11 else []
    )
    mode = d.pick(modes)
    axes = sorted({d.int(0, rank - 1) for _ in range(d.int(1, 3))}) if d.chance(0.5) else list(range(2, rank))
    if (
        mode in ("linear_onnx", "bilinear_pillow", "bicubic_pillow")
        and len([a for a in axes if shape[a] > 0]) > 2
    ):
        axes = axes[-2:]
    if mode == "linear_onnx":
        axes = [a for a in axes if a >= rank - 2] or [rank - 1]
    if mode == "cubic" and 0 in axes:
        # the plugin's cubic over the batch axis gave values of 6e29 on N(0, 1) data: a plugin bug
        axes = [a for a in axes if a != 0] or [rank - 1]
    if mode == "cubic" and rank == 4 and {1, 2, 3} <= set(axes):
        # the plugin's cubic of rank 4 over the channel and both spatial axes leaves most of its
        # output unwritten: 1.9e31 and 2.3e25 on N(0, 1) data, zeros, or (Interpolate-1, f32)
        # integers' bit patterns like 7.0e-45 (any other set of axes, and rank 5, agree)
        axes = [2, 3]
    if mode == "bicubic_pillow" and rank == 5:
        # the plugin's 5D bicubic_pillow differs from its own 4D one on the same planes (0.11
        # on N(0, 1) data), which irshape equals: a plugin bug
        raise Redraw("a bicubic_pillow the plugin gets wrong")
    if mode.endswith("pillow"):
        # the last two axes: irshape's Pillow kernels resize exactly two (the plugin runs one
        # too: a gap, not modelled)
        axes = [rank - 2, rank - 1]
    by_scales = d.chance(0.5)
    scales = [float(d.pick([0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 1 / 3])) for _ in axes]
    if by_scales and any(shape[a] * scale < 1 for a, scale in zip(axes, scales, strict=False)):
        # an output dim of 0: OpenVINO infers 0, the plugin's node computes 1 (its output
        # then has another shape than the model's)
        raise Redraw("an empty output")
    sizes = [max(1, d.int(1, 7)) for _ in axes]
    # (no bf16: the plugin's bf16 Interpolate lands a bf16 step off now and then: not modelled)
    element_type = d.pick(
        [F32, F32, F16] + (["u8", "i8"] if mode in ("nearest", "linear", "linear_onnx") else [])
    )
    x = d.data(shape, element_type, "unit" if element_type in REALS else "small")
    attributes = {
        "mode": mode,
        "shape_calculation_mode": "scales" if by_scales else "sizes",
        "coordinate_transformation_mode": d.pick(
            ["half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners"]
        ),
        "nearest_mode": d.pick(["round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple"]),
        "antialias": d.chance(0.2) if mode in ("linear", "cubic", "linear_onnx") else False,
        "pads_begin": [0] * rank,
        "pads_end": [0] * rank,
        "cube_coeff": d.pick([-0.75, -0.5]),
    }
    # (no pads: OpenVINO pads the axes not resized too, the plugin's node does not, so its
    # output has another shape than the model's)
    axes_node = d.const(np.array(axes), "i64")
    if version == 11:
        target = d.const(np.array(scales, np.float32), F32) if by_scales else d.const(np.array(sizes), "i64")
        return [make(11, op, [x, target, axes_node], attributes)]
    inputs = [x, d.const(np.array(sizes), "i64"), d.const(np.array(scales, np.float32), F32), axes_node]
    return [make(4, op, inputs, attributes)]


# --- detection -----------------------------------------------------------------------------


@drawer("detection", "NonMaxSuppression-9", "NonMaxSuppression-5")
def _nms(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    batches, classes, boxes = d.int(1, 2), d.int(1, 3), d.int(1, 8)
    element_type = d.pick([F32, F32, F16])
    corners = d.rng.random((batches, boxes, 4)) * 10
    if d.chance(0.5):  # corner: y1 x1 y2 x2 (either order); centre: x y w h
        corners[..., 2:] = corners[..., :2] + d.rng.random((batches, boxes, 2)) * 5
    box_input = opset.parameter([batches, boxes, 4], ov_type(element_type))
    d.inputs[box_input] = corners.astype(numpy_type(element_type))
    scores = opset.parameter([batches, classes, boxes], ov_type(element_type))
    # distinct scores: ties are the plugin's order
    d.inputs[scores] = (
        d.rng.permutation(batches * classes * boxes).reshape(batches, classes, boxes)
        / (batches * classes * boxes)
    ).astype(numpy_type(element_type))
    # (max_output_boxes_per_class of 0 leaves the plugin's valid_outputs uninitialised)
    inputs = [
        box_input,
        scores,
        d.const(np.array(d.int(1, 5)), "i64"),
        d.const(np.array(d.pick([0.0, 0.3, 0.5, 1.0]), np.float32), F32),
        d.const(np.array(d.pick([0.0, 0.2, 0.6]), np.float32), F32),
    ]
    if d.chance(0.5):
        inputs.append(d.const(np.array(d.pick([0.0, 0.5])), F32))
    attributes = {
        "box_encoding": d.pick(["corner", "center"]),
        "sort_result_descending": d.chance(0.5),
        "output_type": d.pick(["i32", "i64"]),
    }
    d.exact = False
    return [make(version, op, inputs, attributes)]


# --- more op versions ------------------------------------------------------------------------


@drawer("normalization", "FakeQuantize-1")
def _fake_quantize(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16])
    shape = [d.int(1, 2), d.int(1, 4), *d.shape(d.int(0, 2), zero=0)]
    x = d.data(shape, element_type, "unit")
    channel = [1, shape[1]] + [1] * (len(shape) - 2)

    def limits(low: float, high: float, per_channel: bool) -> tuple[Node, Node]:
        lows = np.full(channel if per_channel else [], low, np.float32) - (
            d.rng.random(channel) * 0.1 if per_channel else 0
        )
        highs = np.full(channel if per_channel else [], high, np.float32) + (
            d.rng.random(channel) * 0.1 if per_channel else 0
        )
        return d.const(np.asarray(lows, np.float32), element_type), d.const(
            np.asarray(highs, np.float32), element_type
        )

    in_low, in_high = limits(-d.pick([1.0, 2.5, 0.0]), d.pick([1.0, 3.0, 0.5]), d.chance(0.5))
    out_low, out_high = limits(-d.pick([1.0, 0.0]), d.pick([1.0, 2.0]), d.chance(0.3))
    # (the plugin runs it as the op defines only without its low-precision transformations: the
    # harness's f32 compile does not turn them off, so levels where those do not apply)
    return [
        make(
            1,
            "FakeQuantize",
            [x, in_low, in_high, out_low, out_high],
            {"levels": d.pick([2, 3, 16, 255, 256])},
        )
    ]


@drawer("matmul", "ScaledDotProductAttention-13")
def _attention(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16])
    batch = d.shape(d.int(1, 2), zero=0)
    length, source, embedding, value_size = d.int(1, 4), d.int(1, 5), d.int(1, 6), d.int(1, 5)
    query = d.data([*batch, length, embedding], element_type, "unit")
    key = d.data([*batch, source, embedding], element_type, "unit")
    value = d.data([*batch, source, value_size], element_type, "unit")
    inputs = [query, key, value]
    causal = d.chance(0.4)
    if not causal and d.chance(0.6):
        mask_type = d.pick(["boolean", element_type])
        inputs.append(d.data([length, source], mask_type, "unit"))
        if d.chance(0.5):
            inputs.append(d.const(np.array(d.pick([0.5, 0.125, 1.0]), np.float32), element_type))
    return [make(13, "ScaledDotProductAttention", inputs, {"causal": causal})]


# NonMaxSuppression-1, -3 and -4 are left out: their outputs are static in the model (the
# selected rows, then rows of -1), the plugin's are only the selected rows (another shape than
# the model's; irshape gives the model's).


@drawer("normalization", "BatchNormInference-1")
def _batch_norm_1(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16])
    shape = [d.int(1, 2), d.int(1, 4), *d.shape(d.int(0, 2), zero=0)]
    channels = shape[1]
    gamma, beta, mean = (d.data([channels], element_type, "unit") for _ in range(3))
    variance = d.data([channels], element_type, "positive")
    x = d.data(shape, element_type, "unit")
    return [make(1, "BatchNormInference", [x, gamma, beta, mean, variance], {"epsilon": d.pick([1e-5, 0.5])})]


@drawer("generation", "OneHot-1", "Range-1", "Range-4")
def _generation(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    d.exact = True
    if op == "OneHot":
        shape = d.shape(d.int(0, 3), zero=0)
        depth = d.int(1, 5)
        index_type = d.pick(["i32", "i64"])
        indices = d.data(shape, index_type, "small")
        value_type = d.pick([F32, F16, "i32", "i8", "u8", "boolean"])
        on, off = d.const(np.array(1), value_type), d.const(np.array(0), value_type)
        axis = d.int(-1, len(shape))
        return [make(1, "OneHot", [indices, d.const(np.array(depth), index_type), on, off], {"axis": axis})]
    start, step = float(d.pick([0, 1, -3, 2.5, 0.5])), float(d.pick([1, 2, -1, 0.5, 3]))
    stop = start + step * d.int(0, 6) + d.pick([0.0, 0.25])
    element_type = d.pick([F32, "i32", "i64", F16]) if version == 4 else d.pick([F32, "i32"])
    if element_type not in REALS:
        start, stop, step = float(int(start)), float(int(stop)), float(int(step) or 1)
    values = [d.const(np.array(v, numpy_type(element_type)), element_type) for v in (start, stop, step)]
    attributes = {"output_type": element_type} if version == 4 else {}
    return [make(version, "Range", values, attributes)]


@drawer("indexing", "ShapeOf-1", "ShapeOf-3", "NonZero-3")
def _shape_of(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    d.exact = True
    shape = d.shape(d.int(0, 5))
    x = d.data(shape, d.pick(ANY), "small")
    attributes = {"output_type": d.pick(["i32", "i64"])} if version == 3 else {}
    return [make(version, op, [x], attributes)]


@drawer("layout", "ReverseSequence-1")
def _reverse_sequence(d: Draw) -> Sequence[Node]:
    d.exact = True
    shape = d.shape(d.int(2, 4), low=1, zero=0)
    batch_axis = d.int(0, len(shape) - 1)
    seq_axis = d.pick([a for a in range(len(shape)) if a != batch_axis])
    lengths = d.rng.integers(0, shape[seq_axis] + 1, shape[batch_axis])
    x = d.data(shape, d.pick(ANY), "small")
    attributes = {
        "batch_axis": batch_axis - len(shape) if d.chance(0.3) else batch_axis,
        "seq_axis": seq_axis,
    }
    return [make(1, "ReverseSequence", [x, d.const(lengths, d.pick(["i32", "i64"]))], attributes)]


@drawer("elementwise", "ConvertPromoteTypes-14")
def _convert_promote(d: Draw) -> Sequence[Node]:
    a_type, b_type = (
        d.pick([F32, F16, "i32", "i8", "u8", "i16", "boolean"]),
        d.pick([F32, F16, "i32", "i8", "u8", "i16", "boolean"]),
    )
    a, b = d.data(d.shape(), a_type, "small"), d.data(d.shape(), b_type, "small")
    attributes = {
        "promote_unsafe": d.chance(0.5),
        "pytorch_scalar_promotion": d.chance(0.5),
        "u64_integer_promotion_target": "f32",
    }
    return [make(14, "ConvertPromoteTypes", [a, b], attributes)]


@drawer("recurrent", "LSTMCell-4", "GRUCell-3", "RNNCell-1")
def _cell(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = d.pick([F32, F32, F16])
    batch, input_size, hidden = d.int(1, 3), d.int(1, 5), d.int(1, 4)
    gates = {"LSTMCell": 4, "GRUCell": 3, "RNNCell": 1}[op]
    x = d.data([batch, input_size], element_type, "unit")
    h = d.data([batch, hidden], element_type, "unit")
    inputs = [x, h]
    if op == "LSTMCell":
        inputs.append(d.data([batch, hidden], element_type, "unit"))
    weights = d.const(d.values([gates * hidden, input_size], element_type, "unit"), element_type)
    recurrence = d.const(d.values([gates * hidden, hidden], element_type, "unit"), element_type)
    linear_before_reset = op == "GRUCell" and d.chance(0.5)
    bias_size = (gates + 1) * hidden if linear_before_reset else gates * hidden
    inputs += [weights, recurrence, d.const(d.values([bias_size], element_type, "unit"), element_type)]
    activations = {
        "LSTMCell": ["sigmoid", "tanh", "tanh"],
        "GRUCell": ["sigmoid", "tanh"],
        "RNNCell": ["tanh"],
    }[op]
    if d.chance(0.3):
        activations = [d.pick(["sigmoid", "tanh", "relu"]) for _ in activations]
    attributes: dict[str, Any] = {
        "hidden_size": hidden,
        "activations": activations,
        "clip": d.pick([0.0, 0.0, 1.5]),
    }
    if op == "GRUCell":
        attributes["linear_before_reset"] = linear_before_reset
    return [make(version, op, inputs, attributes)]


@drawer("rearrange", "SpaceToBatch-1", "BatchToSpace-1")
def _space_batch(d: Draw) -> Sequence[Node]:
    op, _version = op_of(d.name)
    d.exact = True
    rank = d.int(2, 5)
    blocks = [1] + [d.int(1, 3) for _ in range(rank - 1)]
    element_type = d.pick(ANY)
    if op == "SpaceToBatch":
        pads_begin = [0] + [d.int(0, 2) for _ in range(rank - 1)]
        pads_end = [0] + [0] * (rank - 1)
        shape = [d.int(1, 2)]
        for k in range(1, rank):
            dim = d.int(1, 3) * blocks[k] - pads_begin[k]
            if dim < 1:
                pads_begin[k] = 0
                dim = blocks[k]
            shape.append(dim)
        ints = [d.const(np.array(v), "i64") for v in (blocks, pads_begin, pads_end)]
        return [make(1, op, [d.data(shape, element_type, "small"), *ints])]
    shape = [d.int(1, 2) * int(np.prod(blocks))] + [d.int(1, 3) for _ in range(rank - 1)]
    crops_begin = [0] + [d.int(0, min(1, shape[k] * blocks[k] - 1)) for k in range(1, rank)]
    crops_end = [0] * rank
    ints = [d.const(np.array(v), "i64") for v in (blocks, crops_begin, crops_end)]
    return [make(1, op, [d.data(shape, element_type, "small"), *ints])]


@drawer("matmul", "Einsum-7")
def _einsum(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16, "i32"])
    equation, shapes = d.pick(
        [
            ("ij,jk->ik", [[2, 3], [3, 4]]),
            ("bij,bjk->bik", [[2, 2, 3], [2, 3, 2]]),
            ("ii->i", [[3, 3]]),
            ("ij->ji", [[2, 3]]),
            ("ij->", [[2, 3]]),
            ("i,i->", [[4], [4]]),
            ("i,j->ij", [[3], [2]]),
            ("abc,cd->abd", [[2, 1, 3], [3, 2]]),
            ("...ij,...jk->...ik", [[2, 2, 3], [2, 3, 2]]),
            ("bhqd,bhkd->bhqk", [[1, 2, 3, 4], [1, 2, 2, 4]]),
        ]
    )
    inputs = [d.data(shape, element_type, "small" if element_type == "i32" else "unit") for shape in shapes]
    return [make(7, "Einsum", inputs, {"equation": equation})]


@pytest.mark.parametrize("family", drawers.families())
def test_kernel_fuzz(family: str, tmp_path: Path) -> None:
    run_family(drawers, family, tmp_path)
