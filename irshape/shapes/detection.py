"""Detection post-processing: NonMaxSuppression-1/3/4/5/9 and NMSRotated-13, as OpenVINO's
``nms_shape_inference.hpp`` and the ops' ``validate_and_infer_types`` compute them.

The selected-indices output is ``[selected, 3]``; what ``selected`` is depends on the version:

* NonMaxSuppression-1/3: ``min(num_boxes, max_output_boxes_per_class * num_classes)`` when both
  are static, else ``?``;
* NonMaxSuppression-4: ``min(num_boxes, max_output_boxes_per_class) * num_batches *
  num_classes`` (each the dim's upper bound) when num_boxes is static and the maximum known;
* NonMaxSuppression-5/9 and NMSRotated-13: the upper bound of that, ``0..min(max(num_boxes),
  max_output_boxes_per_class) * max(num_batches) * max(num_classes)``, the number of boxes
  being known only when the op has run. These have the selected scores (``f32``, same shape)
  and ``valid_outputs`` (``[1]``) too.

NonMaxSuppression-1/3/4 built from fewer inputs get OpenVINO's defaults for the missing ones
(``max_output_boxes_per_class`` 0, so no box is selected); the later versions keep the inputs
they are given (no ``max_output_boxes_per_class``: ``?``). Messages are OpenVINO's.
"""

from __future__ import annotations

import math

from irshape import rules
from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ir.element_types import is_integral_number
from irshape.ops.interface import AT_DATA, Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes import reading
from irshape.shapes.findings import incompatible, rank_finding, type_finding, unreadable, value_unknown

BOXES, SCORES, MAX_OUTPUT = 0, 1, 2
_NAMES = (
    "boxes",
    "scores",
    "max_output_boxes_per_class",
    "iou_threshold",
    "score_threshold",
    "soft_nms_sigma",
)
# is_float_type_admissible (NonMaxSuppression-5/9): dynamic, f32, f16, bf16
NMS_FLOATS = frozenset({"dynamic", "f32", "f16", "bf16"})
# element::Type::is_real() (NMSRotated-13), and dynamic
_REALS = frozenset({"dynamic", "f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2", "f8e8m0", "f4e2m1"})


@reading.reads(MAX_OUTPUT)
def non_max_suppression(call: OpCall) -> OpResult:
    """NonMaxSuppression-1/3/4/5/9 and NMSRotated-13."""
    rotated = call.schema.op == "NMSRotated"
    version = 13 if rotated else call.schema.version
    findings = _output_type(call, rotated) if version == 3 else []
    shape_findings, selected = _selected(call, version, rotated)
    notes = [f for f in shape_findings if f.rule is rules.VALUE_UNKNOWN]  # no rejection
    findings += [f for f in shape_findings if f.rule is not rules.VALUE_UNKNOWN]
    if not findings and version >= 5:
        findings += _input_types(call.inputs, rotated) + _output_type(call, rotated)
    elif version == 4:
        findings += _output_type(call, rotated)
    if findings:
        return OpResult([], findings + notes)
    index_type = "i64" if version == 1 else str(call.attribute("output_type"))
    indices = PartialShape([selected, Dim.of(3)])
    outputs = [Output(indices, index_type)]
    if version >= 5:
        outputs += [Output(indices, "f32"), Output(PartialShape([Dim.of(1)]), index_type)]
    return OpResult(outputs, notes)


def _selected(call: OpCall, version: int, rotated: bool) -> tuple[list[Finding], Dim]:
    """The shape checks in OpenVINO's order (the first failure stops it) and the number of
    selected boxes."""
    inputs = call.inputs
    boxes, scores = inputs[BOXES].shape, inputs[SCORES].shape
    for port, shape in ((BOXES, boxes), (SCORES, scores)):
        if shape.rank is not None and shape.rank != 3:
            name = _NAMES[port]
            message = f"Expected a 3D tensor for the '{name}' input"
            return [rank_finding(port, name, shape, "where OpenVINO needs rank 3", message)], DYNAMIC
    for port in range(MAX_OUTPUT, len(inputs)):
        finding = _scalar_finding(port, inputs[port].shape, version)
        if finding is not None:
            return [finding], DYNAMIC
    max_output = _max_output(inputs, version)
    findings = _max_output_unknown(inputs, version, max_output)
    if version >= 5:
        found, selected = _selected_5(boxes, scores, max_output, rotated)
        return findings + found, selected
    found, selected = _selected_1_to_4(boxes, scores, max_output, version)
    return findings + found, selected


def _max_output_unknown(inputs: tuple[Tensor, ...], version: int, max_output: int | None) -> list[Finding]:
    """IRS306 where the shape inference reads max_output_boxes_per_class and its value is not
    known: with boxes of a static rank (and scores too from version 4, and a static number of
    boxes for version 4)."""
    if max_output is not None or len(inputs) <= MAX_OUTPUT:
        return []
    boxes, scores = inputs[BOXES].shape, inputs[SCORES].shape
    if boxes.dims is None or (version >= 4 and scores.dims is None):
        return []
    if version == 4 and not boxes.dims[1].is_static:
        return []
    # (it reads the value here: one of a type it does not read fails, 'Element not supported')
    return unreadable(MAX_OUTPUT, _NAMES[MAX_OUTPUT], inputs[MAX_OUTPUT]) or value_unknown(
        MAX_OUTPUT, _NAMES[MAX_OUTPUT], inputs[MAX_OUTPUT], "the number of boxes selected is ?"
    )


def _scalar_finding(port: int, shape: PartialShape, version: int) -> Finding | None:
    """Inputs 2 to 5: a scalar (version 1 to 4), or a scalar or one element (5 and later)."""
    name = _NAMES[port]
    if shape.dims is None or not shape.dims:
        return None
    if version >= 5:
        if len(shape.dims) == 1 and shape.dims[0].compatible(Dim.of(1)):
            return None
        message = f"Expected 0D or 1D tensor for the '{name}' input"
        return rank_finding(port, name, shape, "where OpenVINO needs a scalar or one element", message)
    message = f"Expected a scalar for the '{name}' input" + ("." if port == MAX_OUTPUT else "")
    return rank_finding(port, name, shape, "where OpenVINO needs a scalar", message)


def _max_output(inputs: tuple[Tensor, ...], version: int) -> int | None:
    """The first value of max_output_boxes_per_class, cast to int64 as OpenVINO casts it; 0
    where NonMaxSuppression-1/3/4 lack the input (OpenVINO's default); None when unknown."""
    if len(inputs) <= MAX_OUTPUT:
        return 0 if version <= 4 else None
    tensor = inputs[MAX_OUTPUT]
    if tensor.value:
        return tensor.value[0]
    if tensor.reals and math.isfinite(tensor.reals[0]) and abs(tensor.reals[0]) < 2**63:
        return math.trunc(tensor.reals[0])
    return None


def batch_and_box_findings(boxes: PartialShape, scores: PartialShape) -> list[Finding]:
    assert boxes.dims is not None and scores.dims is not None
    if not boxes.dims[0].compatible(scores.dims[0]):
        message = "The first dimension of both 'boxes' and 'scores' must match."
        problem = f"boxes {boxes} and scores {scores} have other batches"
        return [incompatible(problem, message)]
    if not boxes.dims[1].compatible(scores.dims[2]):
        message = (
            "'boxes' and 'scores' input shapes must match at the second and third dimension "
            "respectively. Boxes: "
        )
        problem = f"the boxes of {boxes} are not the boxes scores {scores} scores"
        return [incompatible(problem, message)]
    return []


def last_dim_finding(boxes: PartialShape, rotated: bool) -> list[Finding]:
    assert boxes.dims is not None
    size = 5 if rotated else 4
    if boxes.dims[2].compatible(Dim.of(size)):
        return []
    message = f"The last dimension of the 'boxes' input must be equal to {size}"
    return [incompatible(f"the boxes {boxes} are not of {size} numbers", message, BOXES)]


def max_length(dim: Dim) -> int:
    """``Dimension::getmax_length``: an unbounded dim is -1."""
    return -1 if dim.hi >= 2**63 - 1 else dim.hi


def _selected_5(
    boxes: PartialShape, scores: PartialShape, max_output: int | None, rotated: bool
) -> tuple[list[Finding], Dim]:
    """NonMaxSuppression-5/9, NMSRotated-13 (``nms::shape_infer`` with dynamic output)."""
    selected = DYNAMIC
    if boxes.dims is None:
        return [], selected
    if scores.dims is not None:
        findings = batch_and_box_findings(boxes, scores)
        if findings:
            return findings, selected
        if max_output is not None:
            selected = Dim.between(0, min(max_length(boxes.dims[1]), max_output))
        selected = selected * max_length(scores.dims[0]) * max_length(scores.dims[1])
    return last_dim_finding(boxes, rotated), selected


def _selected_1_to_4(
    boxes: PartialShape, scores: PartialShape, max_output: int | None, version: int
) -> tuple[list[Finding], Dim]:
    """NonMaxSuppression-1/3 (``nms::shape_infer``) and -4; their checks come first."""
    if boxes.dims is None:
        return [], DYNAMIC
    if scores.dims is not None:
        findings = batch_and_box_findings(boxes, scores)
        if findings:
            return findings, DYNAMIC
    findings = last_dim_finding(boxes, False)
    if findings:
        return findings, DYNAMIC
    num_boxes = boxes.dims[1]
    if version == 4:
        if scores.dims is None or not num_boxes.is_static or max_output is None:
            return [], DYNAMIC
        selected = Dim.of(min(num_boxes.value, max_output))
        return [], selected * max_length(scores.dims[0]) * max_length(scores.dims[1])
    per_class = DYNAMIC if max_output is None else Dim.of(max_output)
    if scores.dims is not None:
        per_class = per_class * scores.dims[1]
    if num_boxes.is_static and per_class.is_static:
        return [], Dim.of(min(num_boxes.value, per_class.value))
    return [], DYNAMIC


def _input_types(inputs: tuple[Tensor, ...], rotated: bool) -> list[Finding]:
    """NonMaxSuppression-5/9: boxes, scores and the thresholds bf16, f16 or f32 (any type for
    max_output_boxes_per_class); NMSRotated-13: every input real but
    max_output_boxes_per_class, which is integral."""
    for port, tensor in enumerate(inputs):
        element_type = tensor.element_type
        if element_type is None:
            continue
        if rotated:
            integral = port == MAX_OUTPUT
            if is_integral_number(element_type) if integral else element_type in _REALS:
                continue
            kind = "integer" if integral else "floating point"
            message = f"Expected {kind} type as element type for the input at: {port}"
        else:
            if port == MAX_OUTPUT or element_type in NMS_FLOATS:
                continue
            label = "score_threshold_ps" if port == 4 else _NAMES[port]
            message = f"Expected bf16, fp16 or fp32 as element type for the '{label}' input."
        problem = f"input {port} ({_NAMES[port]}) has element type {element_type}"
        return [type_finding(problem, message, port)]
    return []


def _output_type(call: OpCall, rotated: bool) -> list[Finding]:
    output_type = str(call.attribute("output_type"))
    if output_type in ("i32", "i64"):
        return []
    message = (
        "The `output_type` attribute (related to the first and third output) must be i32 or i64."
        if rotated
        else "Output type must be i32 or i64"
    )
    args = {
        "attribute": "output_type",
        "value": call.attributes.texts.get("output_type", output_type),
        "op": call.schema.name,
        "problem": "is not i32 or i64",
        "ov_message": message,
    }
    return [Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)]
