"""Unique-10 as OpenVINO validates and infers it (``unique.cpp``): how many unique elements (or
slices along the axis) there are depends on the data, so OpenVINO gives bounds — 1 up to the
element count — except where the data is a Const, whose unique elements it counts.

By ``unique.cpp`` and by experiment: the data's element count is taken only when its shape is
static, and a count of 0 gives '?' (``Dimension{1, 0}`` is empty); with an axis (a Const of
i32 or i64, a scalar or of shape [1]) the unique elements keep the data's shape but the axis,
which is ``1..d`` (0 for 0; a dynamic dim stays as it is), and the reverse indices are as long
as the axis (its upper bound). A Const's count is the reference's (``reference/unique.hpp``):
compared by ``==`` unsorted, so every NaN (every slice holding one) is unique; sorted, by
``std::stable_sort`` and ``std::lower_bound`` with ``<``, which a NaN throws off in ways only
those algorithms, followed step for step, reproduce (by read_model:
tests/differential/test_unique_nan.py)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

from irshape.dims import EMPTY, INF, Dim, PartialShape, int64
from irshape.ops.interface import ConstTensor, Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes.axes import axis_range_message, normalize_axis
from irshape.shapes.findings import (
    incompatible,
    index_type_findings,
    rank_finding,
    type_finding,
    value_unknown,
)

_AXIS_TYPES = ("i32", "i64")


def unique(call: OpCall) -> OpResult:
    """Unique-10: unique elements (the data's type), their indices and the reverse indices (of
    index_element_type) and their counts (of count_element_type)."""
    data = call.inputs[0]
    findings = index_type_findings(
        call,
        "index_element_type",
        "The element type of the outputs containing indices can only be set to i32 or i64.",
    ) + index_type_findings(
        call, "count_element_type", "The element type of the last output can only be set to i32 or i64."
    )
    if findings:
        return OpResult([], findings)
    if isinstance(data, ConstTensor):
        return _counted(call)
    if len(call.inputs) > 1:
        axis, findings = _axis(call)
        if axis is None or findings:
            return OpResult([], findings)
        if data.shape.dims is None:
            return _result(call, PartialShape(None), *(_dynamic(),) * 3)
        return _along_axis(call, axis)
    count = _element_count(data.shape)
    if not count:  # unknown, or 0: the unique elements' Dimension{1, 0} is empty
        unique_dim = Dim.of(-1) if count is None else EMPTY
        return _result(call, PartialShape([unique_dim]), _dynamic(), _dynamic(), _dynamic())
    indices = PartialShape([Dim.between(1, count)])
    return _result(call, PartialShape([Dim.between(1, count)]), indices, PartialShape([count]), indices)


def _along_axis(call: OpCall, axis: int) -> OpResult:
    data = call.inputs[0]
    dims = data.shape.dims
    assert dims is not None
    normal = normalize_axis(axis, len(dims))
    if normal is None or not dims:
        message = axis_range_message(axis, len(dims)) if dims else "Accessing out-of-range dimension"
        problem = f"axis {axis} is out of range for rank {len(dims)}"
        return OpResult([], [incompatible(problem, message, 1)])
    count = _element_count(data.shape)
    indices = PartialShape([Dim.between(1, count)]) if count else _dynamic()
    counts = indices
    dim = dims[normal]
    if dim.is_static and dim.value == 0:
        along, indices, counts, reverse = Dim.of(0), PartialShape([0]), PartialShape([0]), Dim.of(0)
    elif dim.is_static:
        along, reverse = Dim.between(1, dim.hi), dim
    else:
        along = dim if dim == Dim.of(-1) else Dim.between(1, -1 if dim.hi == INF else dim.hi)
        reverse = dim
    shape = PartialShape([along if i == normal else d for i, d in enumerate(dims)])
    return _result(call, shape, indices, PartialShape([reverse]), counts)


def _axis(call: OpCall) -> tuple[int | None, list[Finding]]:
    """The axis: a Const of i32 or i64, a scalar or of shape [1] (in that order of checks)."""
    axis = call.inputs[1]
    if axis.element_type is not None and axis.element_type not in _AXIS_TYPES:
        message = (
            "The allowed element types of the 'axis' input tensor of the Unique operator are i32 and i64."
        )
        return None, [type_finding(f"the axis is of element type {axis.element_type}", message, 1)]
    if not isinstance(axis, ConstTensor):
        message = "The 'axis' input of the Unique operator must be connected to a Constant."
        return None, [incompatible("the axis is not a Const", message, 1)]
    if axis.shape not in (PartialShape([]), PartialShape([1])):
        message = (
            "The 'axis' input tensor of the Unique operator must be a scalar or 1D tensor with 1 element."
        )
        return None, [rank_finding(1, "axis", axis.shape, "0, or 1 of one element", message)]
    if axis.value is None:
        return None, value_unknown(1, "axis", axis, "the outputs cannot be inferred")
    return axis.value[0], []


def _counted(call: OpCall) -> OpResult:
    """A Const's unique elements, counted as OpenVINO counts them (``calculate_static_output_shapes``
    with ``reference/unique.hpp``)."""
    data = call.inputs[0]
    values = _values(data)
    lengths = data.shape.lengths
    if values is None or lengths is None:
        return OpResult([], value_unknown(0, "data", data, "the counts of unique elements are not known"))
    # + 0: a -0.0 (irshape's is hashed apart from 0.0) is the 0.0 it equals to OpenVINO
    values = tuple(v + 0 for v in values)
    axis = _const_axis(call)
    is_sorted = bool(call.attribute("sorted"))
    if axis is None:
        flat = PartialShape([_unique_count([(v,) for v in values], is_sorted)])
        return _result(call, flat, flat, PartialShape([len(values)]), flat)
    normal = axis + len(lengths) if axis < 0 else axis
    count = _unique_count(_slices(values, lengths, normal), is_sorted)
    shape = PartialShape([count if i == normal else d for i, d in enumerate(lengths)])
    return _result(call, shape, PartialShape([count]), PartialShape([lengths[normal]]), PartialShape([count]))


Item = tuple[float, ...]
T = TypeVar("T")


def _slices(values: tuple[float, ...], lengths: tuple[int, ...], axis: int) -> list[Item]:
    """The slices of the C-order ``values`` of shape ``lengths`` along ``axis``, each flattened."""
    outer, size, inner = math.prod(lengths[:axis]), lengths[axis], math.prod(lengths[axis + 1 :])
    return [
        tuple(values[(o * size + i) * inner + k] for o in range(outer) for k in range(inner))
        for i in range(size)
    ]


def _unique_count(items: list[Item], is_sorted: bool) -> int:
    """How many unique items (elements, or slices along the axis) the reference finds.

    Unsorted, an item is compared with each unique one by ``==``, so an item holding a NaN equals
    none (each is unique). Sorted, the items are ``std::stable_sort``-ed by ``<`` (a slice
    lexicographically) and each is looked up among the unique ones by ``std::lower_bound``, which
    counts it as a repeat wherever the search stops short of the end: with NaNs, whose every
    comparison is false, the order and the count are those of libstdc++'s algorithms (by
    read_model: ``[3, nan, 1, nan, 3, 2]`` sorted has 2 unique elements, unsorted 5)."""
    if not any(_has_nan(item) for item in items):
        return len(set(items))
    if not is_sorted:
        return len({item for item in items if not _has_nan(item)}) + sum(map(_has_nan, items))
    ordered = stable_sort(items, _less)
    unique = ordered[:1]
    for item in ordered[1:]:
        if _lower_bound(unique, item) == len(unique):
            unique.append(item)
    return len(unique)


def _has_nan(item: Item) -> bool:
    return any(v != v for v in item)


def _less(a: Item, b: Item) -> bool:
    """The reference's order: the first element that compares decides (a NaN's pair goes on)."""
    for x, y in zip(a, b, strict=True):
        if x < y:
            return True
        if x > y:
            return False
    return False


def _lower_bound(unique: list[Item], item: Item) -> int:
    """``std::lower_bound``'s binary search, step for step (with NaNs it is not a search)."""
    first, length = 0, len(unique)
    while length > 0:
        half = length >> 1
        if _less(unique[first + half], item):
            first, length = first + half + 1, length - half - 1
        else:
            length = half
    return first


def stable_sort(items: list[T], less: Callable[[T, T], bool]) -> list[T]:
    """libstdc++'s ``std::stable_sort`` with a buffer, step for step: each half sorted by chunks
    of 7 (insertion sort) merged pairwise through the buffer, then the halves merged (backwards
    when the first is the longer). Under a total order any stable sort gives the same; with
    NaNs, whose every comparison is false, only this one gives OpenVINO's order (its reference
    here, the CPU plugin's Unique along an axis in irshape.kernels.uniqueness)."""
    middle = (len(items) + 1) // 2
    first, second = _merge_sort(items[:middle], less), _merge_sort(items[middle:], less)
    if len(first) <= len(second):
        return _merge(first, second, less)
    return _merge_backward(first, second, less)


def _merge_sort(items: list[T], less: Callable[[T, T], bool]) -> list[T]:
    """``__merge_sort_with_buffer``: insertion-sorted chunks of 7, merged in pairs, doubling."""
    chunk = 7
    run = [
        x
        for start in range(0, len(items), chunk)
        for x in _insertion_sort(items[start : start + chunk], less)
    ]
    while chunk < len(run):
        run = [
            x
            for start in range(0, len(run), 2 * chunk)
            for x in _merge(run[start : start + chunk], run[start + chunk : start + 2 * chunk], less)
        ]
        chunk *= 2
    return run


def _insertion_sort(items: list[T], less: Callable[[T, T], bool]) -> list[T]:
    """``__insertion_sort``: an item below the first goes first, else it moves down while below
    its left neighbour."""
    out: list[T] = []
    for item in items:
        if out and less(item, out[0]):
            out.insert(0, item)
            continue
        at = len(out)
        while at > 0 and less(item, out[at - 1]):
            at -= 1
        out.insert(at, item)
    return out


def _merge(first: list[T], second: list[T], less: Callable[[T, T], bool]) -> list[T]:
    """``__move_merge``: the second's item is taken only when below the first's."""
    out: list[T] = []
    i = j = 0
    while i < len(first) and j < len(second):
        if less(second[j], first[i]):
            out.append(second[j])
            j += 1
        else:
            out.append(first[i])
            i += 1
    return out + first[i:] + second[j:]


def _merge_backward(first: list[T], second: list[T], less: Callable[[T, T], bool]) -> list[T]:
    """``__move_merge_adaptive_backward``: from the ends, the first's item is taken (last) when
    the second's is below it."""
    out: list[T] = []
    i, j = len(first) - 1, len(second) - 1
    while i >= 0 and j >= 0:
        if less(second[j], first[i]):
            out.append(first[i])
            i -= 1
        else:
            out.append(second[j])
            j -= 1
    return first[: i + 1] + second[: j + 1] + out[::-1]


def _const_axis(call: OpCall) -> int | None:
    if len(call.inputs) < 2 or not isinstance(call.inputs[1], ConstTensor) or call.inputs[1].value is None:
        return None
    return call.inputs[1].value[0]


def _values(tensor: Tensor) -> tuple[int, ...] | tuple[float, ...] | None:
    return tensor.value if tensor.value is not None else tensor.reals


def _element_count(shape: PartialShape) -> int | None:
    """``shape_size`` of a static shape (as int64), else None."""
    return None if shape.lengths is None else int64(math.prod(shape.lengths))


def _dynamic() -> PartialShape:
    return PartialShape([Dim.of(-1)])


def _result(
    call: OpCall,
    unique_shape: PartialShape,
    indices: PartialShape,
    reverse: PartialShape,
    counts: PartialShape,
) -> OpResult:
    index_type, count_type = (
        str(call.attribute("index_element_type")),
        str(call.attribute("count_element_type")),
    )
    return OpResult(
        [
            Output(unique_shape, call.inputs[0].element_type),
            Output(indices, index_type),
            Output(reverse, index_type),
            Output(counts, count_type),
        ]
    )
