"""The normalizations: Softmax-1/8, LogSoftmax-5, MVN-2/6, NormalizeL2-1, GroupNormalization-12,
BatchNormInference-1/5, LRN-1, FakeQuantize-1 and GRN-1.

Each keeps its data input's shape and element type (BatchNormInference may narrow the channel
dim from gamma/beta/mean/variance); what differs is what OpenVINO validates first: axes,
ranks, the other inputs' shapes, a few attributes. Messages are OpenVINO's.
"""

from __future__ import annotations

from irshape.dims import DYNAMIC, PartialShape
from irshape.ir import element_types
from irshape.ops.interface import Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes import reading
from irshape.shapes.broadcast import compatible, merge_dim, merge_shapes, numpy_broadcast, pdpd_broadcast
from irshape.shapes.findings import (
    attribute_finding,
    axis_message,
    incompatible,
    is_real,
    known,
    normalize_axis_ov,
    rank_finding,
    type_finding,
    unreadable,
    value_finding,
)

DATA = 0
U64 = 2**64
PDPD_AXIS = "auto_broadcast.auto_broadcast_axis"  # what ov.save_model writes for pdpd


def _same(data: Tensor) -> OpResult:
    """The data input's shape and element type, no finding."""
    return OpResult([Output(data.shape, data.element_type)])


# --- Softmax, LogSoftmax -------------------------------------------------------------------


def softmax_1(call: OpCall) -> OpResult:
    """Softmax-1: ``axis`` is unsigned; it must be below the rank (0 for a scalar)."""
    data = call.inputs[DATA]
    axis = int(call.attribute("axis"))
    rank = data.shape.rank
    if rank is not None and not (axis == 0 if rank == 0 else 0 <= axis < rank):
        shown = axis % U64  # OpenVINO reads the attribute as a size_t
        message = f"Reduction axis ({shown}) is out of bounds (argument shape: {data.shape})."
        return OpResult(
            [], [attribute_finding(call, "axis", f"is not an axis of data {data.shape}", message)]
        )
    return _same(data)


def softmax_axis(call: OpCall) -> OpResult:
    """Softmax-8 and LogSoftmax-5: ``axis`` in [-rank, rank-1]."""
    data = call.inputs[DATA]
    axis = int(call.attribute("axis"))
    rank = data.shape.rank
    if rank is not None and normalize_axis_ov(axis, rank) is None:
        problem = f"is not an axis of data {data.shape}"
        return OpResult([], [attribute_finding(call, "axis", problem, axis_message(axis, rank))])
    return _same(data)


# --- MVN ----------------------------------------------------------------------------------


def mvn_2(call: OpCall) -> OpResult:
    """MVN-2 (v0): OpenVINO validates nothing beyond the attributes."""
    return _same(call.inputs[DATA])


def mvn_6(call: OpCall) -> OpResult:
    """MVN-6: a static axes shape must be 1D and no longer than the data's rank (the axes'
    values are not checked)."""
    data, axes = call.inputs[DATA], call.inputs[1]
    findings: list[Finding] = []
    if axes.shape.is_static:
        if axes.shape.rank != 1:
            message = f"Expected 1D tensor for the 'axes' input. Got: {axes.shape}"
            findings.append(rank_finding(1, "axes", axes.shape, "1D", message))
        elif data.shape.rank is not None and data.shape.rank < axes.shape[0].value:
            message = f"Expected rank for the 'data' input to be higher than axes shape. Got: {data.shape}"
            problem = f"axes {axes.shape} has more values than data {data.shape} has axes"
            findings.append(incompatible(problem, message, 1))
    return OpResult([], findings) if findings else _same(data)


# --- NormalizeL2, LRN, GRN ---------------------------------------------------------------


@reading.reads(1, how=reading.FOLDED)
def normalize_l2(call: OpCall) -> OpResult:
    """NormalizeL2-1: axes scalar or 1D; each known axis an axis of the data. OpenVINO folds the
    axes to read them (a dynamic-type Const fails making its tensor)."""
    data, axes = call.inputs[DATA], call.inputs[1]
    if axes.shape.rank is not None and axes.shape.rank > 1:
        message = f"Input axes must be scalar or have rank equal to 1 (axes rank: {axes.shape.rank})."
        return OpResult([], [rank_finding(1, "axes", axes.shape, "a scalar or 1D", message)])
    failed = unreadable(1, "axes", axes)
    if failed:
        return OpResult([], failed)
    rank = data.shape.rank
    if rank is None or axes.value is None:
        return _same(data)
    for axis in axes.value:
        if normalize_axis_ov(axis, rank) is None:
            return OpResult([], [_axis_value(axes.value, rank, axis_message(axis, rank))])
        normalized = axis + rank if axis < 0 else axis
        if not 0 <= normalized < rank:  # a scalar's axis 0 passes the range, not this
            message = f"Reduction axis ({normalized % U64}) is out of bounds (argument shape: {data.shape})"
            return OpResult([], [_axis_value(axes.value, rank, message)])
    return _same(data)


def _axis_value(axes: tuple[int, ...], rank: int, message: str) -> Finding:
    return value_finding(f"axes {list(axes)} out of the data rank {rank}", message, 1)


@reading.reads(1, how=reading.CAST_VECTOR)
def lrn(call: OpCall) -> OpResult:
    """LRN-1: axes 1D, no longer than the rank, integers, each (read unsigned) below the rank."""
    data, axes = call.inputs[DATA], call.inputs[1]
    findings: list[Finding] = []
    rank = data.shape.rank
    if axes.shape.is_static:
        if axes.shape.rank != 1:
            message = f"Input axes must have rank equals 1 (axes_rank: {axes.shape.rank})."
            findings.append(rank_finding(1, "axes", axes.shape, "1D", message))
        elif rank is not None and axes.shape[0].value > rank:
            count = axes.shape[0].value
            message = (
                f"Number of elements of axes must be >= 0 and <= argument rank (axes_shape[0]: {count})."
            )
            findings.append(incompatible(f"axes has {count} values for data of rank {rank}", message, 1))
    if axes.element_type == "boolean":  # (cast_vector's own check, where the axes are read)
        message = "Check 'm_element_type.is_integral_number()' failed at src/core/src/op/constant.cpp"
        return OpResult([], [*findings, type_finding("axes is boolean", message, 1)])
    if not findings:
        findings += unreadable(1, "axes", axes)
    if rank is not None and axes.value is not None and not findings:
        unsigned = sorted({a % U64 for a in axes.value})
        for axis in unsigned:
            if axis < U64 // 2 and axis >= rank:  # a negative axis, read unsigned, passes as itself
                listed = ", ".join(map(str, unsigned))
                message = (
                    f"Reduction axis ({axis}) is out of bounds (argument shape: {data.shape}, "
                    f"reduction axes: AxisSet{{{listed}}})"
                )
                findings.append(_axis_value(axes.value, rank, message))
                break
    if not element_types.is_integral_number(axes.element_type):
        message = f"Axes input must be integral numbers, but are: {axes.element_type})."
        findings.append(type_finding(f"axes has element type {axes.element_type}", message, 1))
    return OpResult([], findings) if findings else _same(data)


def grn(call: OpCall) -> OpResult:
    """GRN-1: data of rank 2, 3 or 4."""
    data = call.inputs[DATA]
    if data.shape.rank is not None and not 2 <= data.shape.rank <= 4:
        message = f"Input tensor rank must be 2, 3 or 4 dimensional (actual input shape: {data.shape})."
        return OpResult([], [rank_finding(DATA, "data", data.shape, "2, 3 or 4", message)])
    return _same(data)


# --- GroupNormalization -----------------------------------------------------------------


def group_normalization(call: OpCall) -> OpResult:
    """GroupNormalization-12: scale and bias 1D of the channel count, which num_groups divides."""
    data, scale, bias = call.inputs
    groups = int(call.attribute("num_groups"))
    findings: list[Finding] = []
    if groups <= 0:
        message = "The number of groups needs to be a positive integer value"
        problem = "is not positive" if "num_groups" in call.attributes.texts else "is missing (read as 0)"
        findings.append(attribute_finding(call, "num_groups", problem, message))
    for port, tensor in ((1, scale), (2, bias)):
        if tensor.shape.rank is not None and tensor.shape.rank != 1:
            name = ("scale", "bias")[port - 1]
            message = f"The {name} input is required to be 1D"
            findings.append(rank_finding(port, name, tensor.shape, "1D", message))
    if findings:
        return OpResult([], findings)
    if data.shape.dims is not None:
        findings += _group_channels(data.shape, scale.shape, bias.shape, groups)
    if not findings and not compatible(scale.shape, bias.shape):
        message = "The shapes of both scale and bias inputs need to match"
        findings.append(incompatible(f"scale {scale.shape} and bias {bias.shape} differ", message, 2))
    return OpResult([], findings) if findings else _same(data)


def _group_channels(
    data: PartialShape, scale: PartialShape, bias: PartialShape, groups: int
) -> list[Finding]:
    if len(data) < 2:
        return [
            rank_finding(DATA, "data", data, "at least 2", "The input tensor is required to be at least 2D")
        ]
    channels = data[1]
    for port, shape in ((1, scale), (2, bias)):
        if shape.dims is not None and not channels.compatible(shape[0]):
            name = ("scale", "bias")[port - 1]
            message = f"The {name} input shape needs to match the channel dimension in the data input"
            return [incompatible(f"{name} {shape} for data {data} of {channels} channels", message, port)]
    if channels.is_static and groups > channels.value:
        message = "The number of groups must not exceed the number of channels in the input tensor"
        return [incompatible(f"num_groups {groups} exceeds the {channels} channels of data {data}", message)]
    if channels.is_static and channels.value % groups:
        message = "The number of channels is required to be evenly divisible by the number of groups"
        return [incompatible(f"num_groups {groups} does not divide the {channels} channels", message)]
    return []


# --- BatchNormInference -----------------------------------------------------------------

_BN_DATA = {1: 2, 5: 0}  # the data input's index: v0 takes gamma, beta, data, mean, variance


def batch_norm_inference(call: OpCall) -> OpResult:
    """BatchNormInference-1/5: gamma, beta, mean and variance are one 1D shape of the channel
    count; every input has one floating-point element type; epsilon is not negative."""
    data_index = _BN_DATA[call.schema.version]
    data = call.inputs[data_index]
    channel_ports = [i for i in range(5) if i != data_index]
    findings = _bn_type_findings(call.inputs)
    epsilon = float(call.attribute("epsilon"))
    if epsilon < 0:
        shown = call.attributes.texts.get("epsilon", epsilon)
        message = f"Attribute 'epsilon' must be non negative value. Got: {shown}"
        findings.append(attribute_finding(call, "epsilon", "is negative", message))
    shape, problem = _bn_shape(data, [call.inputs[i].shape for i in channel_ports], data_index)
    if problem is not None:
        findings.append(problem)
    if findings or shape is None:
        return OpResult([], findings)
    return OpResult([Output(shape, _merged_type(call.inputs))], [])


def _merged_type(inputs: tuple[Tensor, ...]) -> str | None:
    merged: str | None = "dynamic"
    for tensor in inputs:
        merged = element_types.merge(merged, tensor.element_type)
    return merged


def _bn_type_findings(inputs: tuple[Tensor, ...]) -> list[Finding]:
    merged: str | None = "dynamic"
    for tensor in inputs:
        merged = element_types.merge(merged, tensor.element_type)
        if merged is None:
            listed = ", ".join(str(t.element_type) for t in inputs)
            return [
                type_finding(f"the inputs have element types {listed}", "Input element types do not match.")
            ]
    if known(merged) and not is_real(merged):
        message = f"Input element types must be floating-point. Got: {merged}"
        return [type_finding(f"the inputs have element type {merged}", message)]
    return []


def _bn_shape(
    data: Tensor, channel_shapes: list[PartialShape], data_index: int
) -> tuple[PartialShape | None, Finding | None]:
    channel = DYNAMIC
    if data.shape.dims is not None:
        if len(data.shape.dims) < 2:
            message = f"Input argument must have rank of at least 2 (input argument shape: {data.shape})."
            return None, rank_finding(data_index, "data", data.shape, "at least 2", message)
        channel = data.shape.dims[1]
    merged: PartialShape | None = channel_shapes[0]
    for shape in channel_shapes[1:]:
        merged = merge_shapes(merged, shape) if merged is not None else None
    if merged is None:
        listed = ", ".join(str(s) for s in channel_shapes)
        return None, incompatible(
            f"gamma/beta/mean/variance have shapes {listed}",
            "Shapes for gamma/beta/mean/variance do not match.",
        )
    if merged.rank is not None and merged.rank != 1:
        message = f"Shape for gamma/beta/mean/variance ({merged}) does not have rank 1."
        return None, incompatible(f"gamma/beta/mean/variance have shape {merged}, not 1D", message)
    narrowed = merge_dim(channel, merged[0]) if merged.dims is not None else channel
    if narrowed is None:
        message = (
            f"Input channel dimension ({channel}) does not match shape for gamma/beta/mean/variance "
            f"({merged})."
        )
        return None, incompatible(
            f"data {data.shape} has {channel} channels, gamma/beta/mean/variance {merged}",
            message,
            data_index,
        )
    if narrowed.is_static and narrowed.value < 1:
        return None, incompatible(
            f"data {data.shape} has no channels", "Channel count must be at least 1.", data_index
        )
    if data.shape.dims is None:
        return data.shape, None
    dims = list(data.shape.dims)
    dims[1] = narrowed
    return PartialShape(dims), None


# --- FakeQuantize -----------------------------------------------------------------------


def fake_quantize(call: OpCall) -> OpResult:
    """FakeQuantize-1: each limit merges into the data's shape in turn (broadcasting as
    auto_broadcast says, the merged shape growing as it goes); the output is the data's shape.
    ``explicit`` is OpenVINO's alias of ``none``: the limits must match the data."""
    data = call.inputs[DATA]
    mode = call.attributes.enum("auto_broadcast", "numpy")
    axis = int(call.attribute(PDPD_AXIS))
    merged: PartialShape | None = data.shape
    for port in range(1, 5):
        limit = call.inputs[port].shape
        merged = _fq_merge(merged, limit, mode, axis) if merged is not None else None
        if merged is None:
            names = ("input_low", "input_high", "output_low", "output_high")
            shapes = ", ".join(str(t.shape) for t in call.inputs)
            verb = "broadcast to" if mode in ("numpy", "pdpd") else "match"
            problem = f"{names[port - 1]} {limit} does not {verb} the data ({shapes})"
            return OpResult([], [incompatible(problem, "Argument shapes are inconsistent.", port)])
    return _same(data)


def _fq_merge(dst: PartialShape, src: PartialShape, mode: str, axis: int) -> PartialShape | None:
    if mode == "numpy":
        return numpy_broadcast(dst, src)
    if mode == "pdpd":
        return pdpd_broadcast(dst, src, axis)
    return merge_shapes(dst, src)
