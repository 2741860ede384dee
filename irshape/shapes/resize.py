"""Resizing: Interpolate-1, Interpolate-4 and Interpolate-11, as OpenVINO's
``interpolate_shape_inference.hpp`` computes them.

The output is the data shape padded by ``pads_begin``/``pads_end`` (versions 4 and 11), with
the dims on the resized axes replaced: by the sizes input's values, or by the padded dims times
the scales, computed in 32-bit floating point as OpenVINO does (``dim::scale``: the scale plus
1e-6, the product truncated). A value that cannot be known leaves ``?`` on the resized axes; an
axes value that cannot be known leaves every dim ``?``.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

from irshape import rules
from irshape.dims import DYNAMIC, INF, Dim, PartialShape
from irshape.ir.element_types import is_integral_number
from irshape.ops.interface import Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes import bounds, reading
from irshape.shapes.findings import incompatible, rank_finding, type_finding, value_finding, value_unknown

DATA = 0
_INTEGERS = frozenset({"i32", "i64", "u32", "u64"})
_REALS = frozenset({"f32", "f16", "bf16"})
_DATA_TYPES = frozenset({"f32", "f16", "i8", "bf16", "u8", "i64", "i32", "f64"})
_SCALE_EPSILON = 1.0e-6


@reading.reads(1, how=reading.AS_SHAPE)
def interpolate_1(call: OpCall) -> OpResult:
    """Interpolate-1: the ``axes`` attribute names the resized axes, input 1 their sizes."""
    data, target = call.inputs[DATA], call.inputs[1]
    findings: list[Finding] = []
    if not is_integral_number(target.element_type):
        findings.append(
            _type_problem(
                1, "output_shape", target, "an integer type", "output shape must be an integral number."
            )
        )
    if data.shape.dims is None:
        return OpResult([Output(PartialShape(None), data.element_type)], findings)
    rank = len(data.shape.dims)
    axes = call.attributes.int_list("axes")
    if any(not 0 <= axis < rank for axis in axes):
        findings.append(_axes_problem(axes, rank))
        return OpResult([], findings)
    dims = list(data.shape.dims)
    # get_input_const_data_as_shape: the value, else Dimension(lower, upper) of its bounds (a
    # size computed from a ShapeOf of 3..9 is 3..9)
    sizes = bounds.as_shape(target)
    if sizes is None:
        findings += value_unknown(1, "output_shape", target, "the resized axes are ?")
    for index, axis in enumerate(axes):
        # A target shorter than the axes list: OpenVINO reads past its end (garbage); irshape says ?.
        dims[axis] = sizes[index] if sizes is not None and index < len(sizes) else DYNAMIC
    return OpResult([Output(PartialShape(dims), data.element_type)], findings)


def interpolate_4(call: OpCall) -> OpResult:
    """Interpolate-4: data, sizes, scales and optional axes; shape_calculation_mode picks the
    input that decides the resized dims."""
    by_scales = call.attributes.enum("shape_calculation_mode", "sizes") == "scales"
    inputs = call.inputs
    findings = _data_type(inputs[DATA])
    findings += _element_type(inputs[1], 1, "Sizes", _INTEGERS, "i32, i64, u32 or u64")
    findings += _element_type(inputs[2], 2, "Scales", _REALS, "f32, f16 or bf16")
    findings += _rank_1(inputs[2] if by_scales else inputs[1], 2 if by_scales else 1)
    axes_input = inputs[3] if len(inputs) > 3 else None
    if axes_input is not None:
        findings += _element_type(axes_input, 3, "Axes", _INTEGERS, "i32, i64, u32 or u64")
        findings += _rank_1(axes_input, 3)
    resized = inputs[2] if by_scales else reading.read_input(call, 1, reading.AS_SHAPE)
    axes_input = axes_input if axes_input is None else reading.read_input(call, 3)
    return _resize(call, resized, 2 if by_scales else 1, by_scales, axes_input, 3, findings)


def interpolate_11(call: OpCall) -> OpResult:
    """Interpolate-11: data, scales or sizes (as shape_calculation_mode says), optional axes."""
    by_scales = call.attributes.enum("shape_calculation_mode", "sizes") == "scales"
    inputs = call.inputs
    findings = _data_type(inputs[DATA])
    if by_scales:
        findings += _element_type(inputs[1], 1, "Scales", _REALS, "f32, f16 or bf16")
    else:
        findings += _element_type(inputs[1], 1, "Sizes", _INTEGERS, "i32, i64, u32 or u64")
    findings += _rank_1(inputs[1], 1)
    axes_input = inputs[2] if len(inputs) > 2 else None
    if axes_input is not None:
        findings += _element_type(axes_input, 2, "Axes", _INTEGERS, "i32, i64, u32 or u64")
        findings += _rank_1(axes_input, 2)
    resized = inputs[1] if by_scales else reading.read_input(call, 1, reading.AS_SHAPE)
    axes_input = axes_input if axes_input is None else reading.read_input(call, 2)
    return _resize(call, resized, 1, by_scales, axes_input, 2, findings)


def _resize(
    call: OpCall,
    resized: Tensor,
    resized_port: int,
    by_scales: bool,
    axes_input: Tensor | None,
    axes_port: int,
    findings: list[Finding],
) -> OpResult:
    data = call.inputs[DATA]
    if data.shape.dims is None:
        return OpResult([Output(PartialShape(None), data.element_type)], findings)
    rank = len(data.shape.dims)
    if axes_input is None:
        axes: tuple[int, ...] = tuple(range(rank))
    elif axes_input.value is None:
        findings += value_unknown(axes_port, "axes", axes_input, "every output dim is ?")
        return OpResult([Output(PartialShape.dynamic(rank), data.element_type)], findings)
    else:
        axes = axes_input.value
        if any(not 0 <= axis < rank for axis in axes):  # negative axes fail: OpenVINO compares unsigned
            findings.append(_axes_problem(axes, rank, axes_port))
            return OpResult([], findings)
    dims = _padded(
        data.shape.dims, call.attributes.int_list("pads_begin"), call.attributes.int_list("pads_end")
    )
    formulas = [""] * rank
    values: Sequence[float | int | Dim] | None = resized.reals if by_scales else resized.value
    if values is None and not by_scales:  # sizes from bounds: Dimension(lower, upper) each
        values = bounds.as_dims(resized)
    name = "scales" if by_scales else "sizes"
    if values is None:
        findings += value_unknown(resized_port, name, resized, "the resized axes are ?")
        for axis in axes:
            dims[axis] = DYNAMIC
    elif len(values) < len(axes):
        message = (
            f"The number of elements in the '{name}' input does not match the number of axes {len(axes)}"
        )
        problem = f"the {name} input has {len(values)} value(s) for {len(axes)} axes"
        findings.append(value_finding(problem, message, resized_port))
        return OpResult([], findings)
    else:
        for axis, value in zip(axes, values, strict=False):
            if isinstance(value, Dim):
                formulas[axis] = f"sizes[{axes.index(axis)}] (its bounds)"
                dims[axis] = value
            elif by_scales:
                formulas[axis] = f"trunc({dims[axis]} * {value:g})"
                dims[axis] = scale_dim(dims[axis], float(value))
            else:
                formulas[axis] = f"sizes[{axes.index(axis)}]"
                dims[axis] = Dim.of(int(value))
    return OpResult([Output(PartialShape(dims), data.element_type, formulas)], findings)


def _padded(dims: tuple[Dim, ...], begin: tuple[int, ...], end: tuple[int, ...]) -> list[Dim]:
    """The data dims plus the pads, the pad lists cut or filled with zeros to the rank."""
    rank = len(dims)
    begin = (tuple(begin) + (0,) * rank)[:rank]
    end = (tuple(end) + (0,) * rank)[:rank]
    return [_pad_dim(dim, b, e) for dim, b, e in zip(dims, begin, end, strict=True)]


_SIZE_T_MAX = 2**64 - 1


def _pad_dim(dim: Dim, begin: int, end: int) -> Dim:
    """A dim plus its two size_t pads, as OpenVINO 2026.4 computes it (by experiment, docs
    §15): a pad of 2^64 - 1, or a sum past 2^64 - 1, makes the dim ``?``; otherwise the sum
    is an int64 (2^64 - 2 is -2) added by ``dim::padded`` (a negative result is ``?``)."""
    total = begin + end
    if _SIZE_T_MAX in (begin, end) or total > _SIZE_T_MAX:
        return DYNAMIC
    return dim.padded(total - 2**64 if total >= 2**63 else total)


def _f32(value: float) -> float:
    """``value`` rounded to a 32-bit float, as C++ ``float`` arithmetic rounds each step (past
    its range an infinity)."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def scale_dim(dim: Dim, scale: float) -> Dim:
    """``dim::scale``: both bounds times (scale + 1e-6) in 32-bit floats, truncated by a
    ``static_cast`` to int64: an infinite or NaN scale, or a product past the int64 range, is
    x86's 'integer indefinite', INT64_MIN, a dim of 0 (by experiment: 8 times inf, -inf, NaN,
    1e19 or 1e30 is 0, and so is an interval's)."""
    scale32 = _f32(scale)
    if scale32 == 1.0:
        return dim
    factor = _f32(scale32 + _f32(_SCALE_EPSILON))

    def times(bound: int) -> int:
        return reading.static_cast(_f32(_f32(float(bound)) * factor))

    upper = INF if dim.hi == INF else times(dim.hi)
    if dim.is_static:
        return Dim.of(upper)
    return Dim.between(times(dim.lo), -1 if upper == INF else upper)


# --- validation -------------------------------------------------------------------------------


def _data_type(data: Tensor) -> list[Finding]:
    if data.element_type is None or data.element_type in _DATA_TYPES or data.element_type == "dynamic":
        return []
    message = "Input element type must be f32, f16, i8, bf16, u8, i64, i32, f64"
    return [_type_problem(DATA, "data", data, "f32, f16, i8, bf16, u8, i64, i32 or f64", message)]


def _element_type(
    tensor: Tensor, port: int, label: str, allowed: frozenset[str], names: str
) -> list[Finding]:
    """Interpolate-4/11's sizes, scales and axes: one of ``allowed`` (a dynamic type fails too,
    a Parameter's as a Const's, by experiment)."""
    if tensor.element_type is None or tensor.element_type in allowed:
        return []
    message = f"{label} element type must be {names}"
    return [_type_problem(port, label.lower(), tensor, names, message)]


def _type_problem(port: int, name: str, tensor: Tensor, wanted: str, message: str) -> Finding:
    problem = f"input {port} ({name}) has element type {tensor.element_type}, not {wanted}"
    return type_finding(problem, message, port)


def _rank_1(tensor: Tensor, port: int) -> list[Finding]:
    if tensor.shape.rank is None or tensor.shape.rank == 1:
        return []
    message = f"Input [{port}] is not rank 1"
    return [rank_finding(port, "the resize input", tensor.shape, "where OpenVINO needs rank 1", message)]


def _axes_problem(axes: tuple[int, ...], rank: int, port: int | None = None) -> Finding:
    problem = f"axes {list(axes)} name an axis outside 0..{rank - 1} of the rank-{rank} data"
    message = f"All axes values should less than input rank: {rank}"
    rule = rules.INPUT_VALUE if port is not None else rules.ATTRIBUTE_VALUE
    if port is None:
        args = {"attribute": "axes", "value": ",".join(map(str, axes)), "op": "Interpolate-1"}
        return Finding(
            rule, {**args, "problem": f"names an axis outside 0..{rank - 1}", "ov_message": message}, "data"
        )
    return Finding(rule, {"problem": problem, "ov_message": message}, port)


# --- GridSample-9 -------------------------------------------------------------------------------

_FLOATS = frozenset({"f16", "f32", "f64", "bf16", "f8e4m3", "f8e5m2", "dynamic"})


def grid_sample(call: OpCall) -> OpResult:
    """GridSample-9: ``[N, C, H_out, W_out]`` from data ``[N, C, H, W]`` and grid
    ``[N, H_out, W_out, 2]``."""
    data, grid = call.inputs[DATA], call.inputs[1]
    findings: list[Finding] = []
    if grid.element_type is not None and grid.element_type not in _FLOATS:
        message = "The element type of the grid input tensor must be a floating point type."
        findings.append(_type_problem(1, "grid", grid, "a floating-point type", message))
    for port, tensor, what in ((DATA, data, "input data"), (1, grid, "grid")):
        if tensor.shape.rank is not None and tensor.shape.rank != 4:
            message = f"The supported shape of the {what} tensor is 4D."
            findings.append(rank_finding(port, what, tensor.shape, "where OpenVINO needs rank 4", message))
    if findings:
        return OpResult([], findings)
    data_dims = data.shape.dims or (DYNAMIC,) * 4
    grid_dims = grid.shape.dims or (DYNAMIC,) * 4
    if not grid_dims[3].compatible(Dim.of(2)):
        message = "The last dimension of grid tensor's shape has to be equal to 2."
        problem = f"the grid's last dim is {grid_dims[3]}, not 2"
        findings.append(incompatible(problem, message, 1))
    batch = data_dims[0] & grid_dims[0]
    if batch.is_empty:
        message = (
            "The batch dimension in the input data tensor's shape doesn't match the batch dimension in "
            "the grid tensor's shape."
        )
        problem = f"data batch {data_dims[0]} and grid batch {grid_dims[0]} differ"
        findings.append(incompatible(problem, message))
    if findings:
        return OpResult([], findings)
    shape = PartialShape([batch, data_dims[1], grid_dims[1], grid_dims[2]])
    return OpResult([Output(shape, data.element_type)])
