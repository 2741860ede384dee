"""Ops whose output shape comes from an input's value rather than from a data input's shape:
OneHot-1/16 (the depth), as OpenVINO validates and infers them (``one_hot_shape_inference.hpp``).

OneHot's depth is read with ``get_input_const_data_as_shape``: a Const's value (a negative one
fails: 'OneHot depth value can't be negative.'; an unsigned one past INT64_MAX wraps, by
experiment), else the value's bounds
(``evaluate_as_partial_shape``: a depth from a ShapeOf of a ``2..8`` dim is ``2..8``), else ``?``.
"""

from __future__ import annotations

from irshape import rules
from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ops.interface import AT_DATA, Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes import bounds, reading
from irshape.shapes.axes import axis_range_message, normalize_axis
from irshape.shapes.findings import incompatible as incompatible_finding
from irshape.shapes.findings import is_real, type_finding, value_finding, value_unknown

INDICES, DEPTH, ON_VALUE, OFF_VALUE = 0, 1, 2, 3
_SCALARS = ((DEPTH, "depth"), (ON_VALUE, "on_value"), (OFF_VALUE, "off_value"))


def one_hot(call: OpCall) -> OpResult:
    """OneHot-1 and -16: the indices' shape with the depth inserted at ``axis``; the on_value's
    element type."""
    indices, on_value = call.inputs[INDICES], call.inputs[ON_VALUE]
    findings = _one_hot_type_findings(call) + _scalar_findings(call)
    if findings:
        return OpResult([], findings)
    if indices.shape.dims is None:
        return OpResult([Output(PartialShape(None), on_value.element_type)])
    rank = len(indices.shape.dims)
    axis_value = int(call.attribute("axis"))
    axis = normalize_axis(axis_value, rank + 1)
    if axis is None:
        return OpResult([], [_axis_finding(call, axis_value, rank + 1)])
    depth, depth_findings = _depth(call.inputs[DEPTH], reading.read(call.inputs[DEPTH], reading.DIRECT))
    if depth is None:
        return OpResult([], depth_findings)
    dims = list(indices.shape.dims)
    dims.insert(axis, depth)
    formulas = [f"indices[{i}]" for i in range(rank)]
    formulas.insert(axis, "depth")
    return OpResult([Output(PartialShape(dims), on_value.element_type, formulas)], depth_findings)


def _axis_finding(call: OpCall, axis: int, rank: int) -> Finding:
    args = {
        "attribute": "axis",
        "value": call.attributes.texts.get("axis", str(axis)),
        "op": call.schema.name,
        "problem": f"is outside [{-rank}, {rank - 1}] for an output of rank {rank}",
        "ov_message": axis_range_message(axis, rank),
    }
    return Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)


def _one_hot_type_findings(call: OpCall) -> list[Finding]:
    findings = []
    for port, name in ((INDICES, "Indices"), (DEPTH, "Depth")):
        element_type = call.inputs[port].element_type
        if is_real(element_type):
            problem = f"{name.lower()} is of element type {element_type}, not an integral one"
            findings.append(type_finding(problem, f"{name} must be integral element type.", port))
    on_type, off_type = call.inputs[ON_VALUE].element_type, call.inputs[OFF_VALUE].element_type
    if on_type not in (None, "dynamic") and off_type not in (None, "dynamic") and on_type != off_type:
        problem = f"on_value is of element type {on_type}, off_value of {off_type}"
        message = "on_value element type must be compatible with off_value element type."
        findings.append(type_finding(problem, message, OFF_VALUE))
    return findings


def _scalar_findings(call: OpCall) -> list[Finding]:
    """Depth, on_value and off_value: scalars, where their shapes are static."""
    findings = []
    for port, name in _SCALARS:
        shape = call.inputs[port].shape
        if shape.is_static and shape.rank != 0:
            problem = f"{name} is of shape {shape}, not a scalar"
            findings.append(incompatible_finding(problem, f"{name} input must be scalar.", port))
    return findings


def _depth(typed: Tensor, depth: Tensor) -> tuple[Dim | None, list[Finding]]:
    """The depth's dim: its value, its bounds or ``?``; None when OpenVINO rejects it. The
    value is checked in its own type (GetNotNegative: a u64's 2^64 - 1 passes), then cast to
    int64 (-1: ``?``) and made a ``Dimension`` (another negative is 0)."""
    if depth.value is not None and typed.value is not None:
        if typed.value[0] < 0:
            problem = f"depth is {typed.value[0]}, a negative one"
            return None, [value_finding(problem, "OneHot depth value can't be negative.", DEPTH)]
        return Dim.of(depth.value[0]), []
    found = bounds.as_dims(depth)
    if found is not None and len(found) == 1:
        return found[0], []
    consequence = "the output's one-hot axis is of unknown length (?)"
    findings = value_unknown(DEPTH, "depth", depth, consequence)
    if depth.value_error is not None:
        return None, findings
    return DYNAMIC, findings
