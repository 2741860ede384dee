"""The reductions: ReduceMean/Sum/Max/Min/Prod-1, ReduceL1/L2-4, ReduceLogicalAnd/Or-1.

As OpenVINO's ``reduce_shape_inference.hpp``: the axes input is a scalar or 1D integer tensor;
with its value known, each axis must lie in the data's rank range (a scalar counts as rank 1)
and the reduced axes become 1 (``keep_dims``) or go; duplicates are allowed. Without the
value, ``keep_dims`` keeps the rank with every dim ``?``; otherwise one axis drops the rank by
one and more leave it unknown. ReduceSum/Prod/Max/Min over small known integer tensors also
give the value, so shape subgraphs fold, and ReduceLogicalAnd/Or over known booleans.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from irshape.dims import Dim, PartialShape
from irshape.ir.element_types import REAL_MAX, is_integral_number
from irshape.ops.interface import Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes import bounds, reading, values
from irshape.shapes.findings import (
    axis_message,
    known,
    normalize_axis_ov,
    rank_finding,
    type_finding,
    value_finding,
    value_unknown,
)

DATA, AXES = 0, 1
_FOLDS: dict[str, Callable[[list[int]], int]] = {
    "ReduceSum": sum,
    "ReduceProd": math.prod,
    "ReduceMax": max,
    "ReduceMin": min,
    "ReduceLogicalAnd": lambda vs: int(all(vs)),  # a boolean's byte is true when it is not 0
    "ReduceLogicalOr": lambda vs: int(any(vs)),
}


@reading.reads(AXES)
def reduce(call: OpCall) -> OpResult:
    """Every reduction: the data's dims less (or set to 1 at) the axes."""
    data, axes = call.inputs[DATA], call.inputs[AXES]
    keep_dims = bool(call.attribute("keep_dims"))
    findings = _type_findings(call.schema.op, data, axes)
    if axes.shape.rank is not None and axes.shape.rank > 1:
        message = f"Axes input must be a scalar or 1D input. Got: {axes.shape}"
        findings.append(rank_finding(AXES, "axes", axes.shape, "a scalar or 1D", message))
        return OpResult([], findings)
    if data.shape.dims is None:
        return OpResult([Output(PartialShape(None), data.element_type)], findings)
    if axes.value is None:
        shape = _without_axes(data.shape, axes.shape, keep_dims)
        findings += value_unknown(AXES, "axes", axes, _consequence(shape, keep_dims))
        return OpResult([Output(shape, data.element_type)], findings)
    rank = len(data.shape.dims)
    normalized = [normalize_axis_ov(axis, rank) for axis in axes.value]
    bad = [axis for axis, n in zip(axes.value, normalized, strict=True) if n is None]
    if bad:
        message = axis_message(bad[0], rank)
        findings.append(value_finding(f"axes {list(axes.value)} out of the data rank {rank}", message, AXES))
        return OpResult([], findings)
    chosen = {n for n in normalized if n is not None}
    shape = _reduced(data.shape.dims, chosen, keep_dims)
    formulas = [
        f"1 (axis {i} reduced, keep_dims)" if i in chosen else f"data axis {i}"
        for i in range(rank)
        if keep_dims or i not in chosen
    ]
    value = _folded(call.schema.op, data, chosen, keep_dims)
    output = Output(shape, data.element_type, formulas, value=value)
    if call.schema.op == "ReduceProd" and bounds.bounded(data) and not findings:
        _product_bounds(output, data, chosen, keep_dims)
    if call.schema.op in ("ReduceMax", "ReduceMin") and bounds.bounded(data) and not findings:
        _extreme_bounds(call.schema.op, output, data, chosen, keep_dims)
    if not findings and (data.reals is not None or data.real_lower is not None):
        _real_reduction(call.schema.op, output, data, chosen)
    return OpResult([output], findings)


def _real_reduction(op: str, output: Output, data: Tensor, axes: set[int]) -> None:
    """A reduction of reals as OpenVINO evaluates it: the value, or for ReduceMax, ReduceMin
    (the default evaluator) and ReduceProd (whatever their signs: :func:`bounds.product_bounds`;
    an upper bound at the
    type's maximum with no zero beside it the maximum, or none where OpenVINO leaves the output's
    other elements unwritten: :func:`bounds.unwritten_product`) the reduction of the lower bounds and of the
    upper ones; ReduceSum and ReduceMean have no bounds."""
    from irshape.shapes import reals  # the real folds: imported where used (a network has few)

    fold, lengths = reals.reduction(op, data.element_type), data.shape.lengths
    if fold is None or lengths is None:
        return
    maximum = REAL_MAX.get(data.element_type or "")

    def reduce(numbers: tuple[float, ...]) -> tuple[float, ...] | None:
        if len(numbers) != math.prod(lengths) or (
            op in ("ReduceMax", "ReduceMin") and 0 in [lengths[a] for a in axes]
        ):
            return None
        groups = [[numbers[i] for i in group] for group in values.reduced_positions(lengths, axes)]
        # infinities and NaN as OpenVINO carries them
        return values.to_ieee([fold(group) for group in groups], data.element_type)

    if data.reals is not None:
        output.reals = reduce(data.reals)
        return
    found = bounds.real_of(data)
    if found is None or op not in ("ReduceMax", "ReduceMin", "ReduceProd"):
        return
    low, high = reduce(found[0]), reduce(found[1])
    if op == "ReduceProd" and maximum is not None and maximum in found[1] and 0 not in found[1]:
        if high is None or bounds.unwritten_product(found[1], maximum, len(high)):
            return
        high = (maximum,)  # evaluate_upper's maximum, copied over the one element
    if low is None or high is None:
        return
    bounds.settle_reals(output, (low, high))


def _extreme_bounds(op: str, output: Output, data: Tensor, axes: set[int], keep_dims: bool) -> None:
    """ReduceMax and ReduceMin (their evaluate_lower/upper: the default evaluator, the axes
    known): the reduction of the lower bounds and of the upper ones."""
    if data.lower is None or data.upper is None:
        return
    low = _folded(op, data.replace(value=data.lower, lower=None, upper=None), axes, keep_dims)
    high = _folded(op, data.replace(value=data.upper, lower=None, upper=None), axes, keep_dims)
    bounds.settle(output, low, high)


def _product_bounds(output: Output, data: Tensor, axes: set[int], keep_dims: bool) -> None:
    """ReduceProd passes bounds on (a shape's element count from its ShapeOf)."""
    lengths = data.shape.lengths
    if lengths is None or not values.evaluates("ReduceProd", data.element_type):
        return

    def reduce(bound: tuple[int, ...]) -> tuple[int, ...] | None:
        result = values.reduce(values.Known(bound, lengths), axes, keep_dims, math.prod)
        return values.wrap(result.values, data.element_type)

    found = bounds.product_bounds(data, reduce)
    if found is not None:
        bounds.settle(output, *found)


def _type_findings(op: str, data: Tensor, axes: Tensor) -> list[Finding]:
    findings: list[Finding] = []
    logical = op.startswith("ReduceLogical")
    if logical and known(data.element_type) and data.element_type != "boolean":
        problem = f"data has element type {data.element_type}, not boolean"
        findings.append(type_finding(problem, "Element type of data input must be boolean.", DATA))
    if not logical and data.element_type == "boolean":
        message = "Element type of data input must be numeric. Got: boolean"
        findings.append(type_finding("data is boolean, not numeric", message, DATA))
    if not is_integral_number(axes.element_type):  # nf4 is an integer
        message = f"Element type of axes input must be integer. Got: {axes.element_type}"
        findings.append(type_finding(f"axes has element type {axes.element_type}", message, AXES))
    return findings


def _without_axes(data: PartialShape, axes: PartialShape, keep_dims: bool) -> PartialShape:
    """What OpenVINO infers when the axes' value is unknown."""
    rank = len(data)
    if keep_dims:
        return PartialShape.dynamic(rank)
    if axes.is_static and all(d.value == 1 for d in axes):  # exactly one axis
        return PartialShape.dynamic(max(rank - 1, 0))
    return PartialShape(None)


def _consequence(shape: PartialShape, keep_dims: bool) -> str:
    if shape.rank is None:
        return "OpenVINO gives the output a dynamic rank (more than one axis may go)"
    if keep_dims:
        return f"OpenVINO keeps the rank and makes every dim ?: {shape}"
    return f"one axis goes and OpenVINO makes every dim ?: {shape}"


def _reduced(dims: tuple[Dim, ...], axes: set[int], keep_dims: bool) -> PartialShape:
    if keep_dims:
        return PartialShape(Dim(1, 1) if i in axes else d for i, d in enumerate(dims))
    return PartialShape(d for i, d in enumerate(dims) if i not in axes)


def _folded(op: str, data: Tensor, axes: set[int], keep_dims: bool) -> tuple[int, ...] | None:
    """The reduction's value over a known small integer tensor (Sum, Prod, Max, Min)."""
    fold, value = _FOLDS.get(op), values.known(data)
    if fold is None or value is None or not values.evaluates(op, data.element_type):
        return None
    if (op in ("ReduceMax", "ReduceMin")) and 0 in [value.lengths[a] for a in axes]:
        return None  # an empty reduction has no max or min
    result = values.reduce(value, axes, keep_dims, fold)
    return values.wrap(result.values, data.element_type)  # int64 arithmetic wraps, as numpy's did
