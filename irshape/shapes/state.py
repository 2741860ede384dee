"""The stateful ops, ReadValue and Assign, as OpenVINO's IR reader builds them.

A model's state is a set of variables, each named by its ``variable_id``; a ReadValue reads one
(the KV cache of an LLM exported by optimum-intel), an Assign writes it. OpenVINO's reader
(``ir_deserializer.cpp``) keeps one variable an id for the whole file, made when a layer first
names it (of dynamic shape and type); a ReadValue-6 then sets it from its ``variable_shape`` and
``variable_type`` attributes (a missing one: dynamic). By experiment (OpenVINO 2026.4):

* ReadValue-3: its init input's shape and type (``read_value.cpp``);
* ReadValue-6: the variable's shape and type, which must relax the init input's when it has one
  (each dim's interval contains the init's; the type dynamic or the init's). But a variable of
  dynamic rank *and* dynamic type gives the init's shape and type (a workaround for old IRs);
* Assign-3 and Assign-6: their input's shape and type; which variable they write is checked by
  the model (an Assign whose id no ReadValue has: ``irshape.check.variables``);
* a layer without ``variable_id`` crashes OpenVINO's reader (it makes no variable);
* none of them is constant-folded: a ReadValue of a Const is not a constant.
"""

from __future__ import annotations

from irshape import rules
from irshape.dims import Dim, DimSyntaxError, PartialShape, parse_partial_shape
from irshape.ops.interface import AT_DATA, Finding, OpCall, OpResult, Output
from irshape.shapes.findings import incompatible, type_finding

INIT = 0
_NO_VARIABLE = "Segmentation fault: the reader makes no variable for a layer without variable_id"


def read_value_3(call: OpCall) -> OpResult:
    """ReadValue-3: the init value's shape and element type."""
    init = call.inputs[INIT]
    return OpResult([Output(init.shape, init.element_type)], _variable_id_findings(call))


def read_value_6(call: OpCall) -> OpResult:
    """ReadValue-6: the variable's shape and type (``variable_shape``, ``variable_type``)."""
    findings = _variable_id_findings(call)
    shape, shape_findings = _variable_shape(call)
    findings += shape_findings
    if shape is None or "variable_type" in call.attributes.broken:
        return OpResult([], findings)
    element_type = str(call.attribute("variable_type"))
    if not call.inputs:
        return OpResult([Output(shape, element_type)], findings)
    init = call.inputs[INIT]
    findings += _init_findings(shape, element_type, init.shape, init.element_type)
    if shape.rank is None and element_type == "dynamic":  # OpenVINO's workaround for old IRs
        return OpResult([Output(init.shape, init.element_type)], findings)
    return OpResult([Output(shape, element_type)], findings)


def assign(call: OpCall) -> OpResult:
    """Assign-3 and Assign-6: the new value's shape and element type."""
    value = call.inputs[INIT]
    return OpResult([Output(value.shape, value.element_type)], _variable_id_findings(call))


def _variable_id_findings(call: OpCall) -> list[Finding]:
    if "variable_id" in call.attributes.texts:
        return []
    args = {
        "attribute": "variable_id",
        "value": "",
        "op": call.schema.name,
        "problem": "is missing (it names the variable the layer reads or writes)",
        "ov_message": _NO_VARIABLE,
    }
    return [Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)]


def _variable_shape(call: OpCall) -> tuple[PartialShape | None, list[Finding]]:
    """``variable_shape`` as OpenVINO's ``PartialShape`` reads it; dynamic rank when missing."""
    text = call.attributes.texts.get("variable_shape")
    if text is None:
        return PartialShape(None), []
    try:
        return parse_partial_shape(text), []
    except DimSyntaxError as exc:
        args = {"attribute": "variable_shape", "text": text, "reason": str(exc)}
        return None, [Finding(rules.ATTRIBUTE_SYNTAX, args, AT_DATA)]


def relaxes(wide: PartialShape, narrow: PartialShape) -> bool:
    """``PartialShape::relaxes``: ``wide`` of dynamic rank, or of ``narrow``'s rank with each
    dim's interval containing ``narrow``'s."""
    if wide.dims is None:
        return True
    if narrow.dims is None or len(wide.dims) != len(narrow.dims):
        return False
    return all(_contains(w, n) for w, n in zip(wide.dims, narrow.dims, strict=True))


def _contains(wide: Dim, narrow: Dim) -> bool:
    return wide.lo <= narrow.lo and narrow.hi <= wide.hi


def _init_findings(
    shape: PartialShape, element_type: str, init_shape: PartialShape, init_type: str | None
) -> list[Finding]:
    findings = []
    if not relaxes(shape, init_shape):
        message = (
            "The shape specified in the Variable has to extend (relax) the shape inferred from the "
            f"initializing subgraph. Variable shape: {shape} Initialization shape: {init_shape}"
        )
        problem = f"variable_shape {shape} does not contain the init value's shape {init_shape}"
        findings.append(incompatible(problem, message, INIT))
    if element_type != "dynamic" and init_type is not None and init_type != element_type:
        message = (
            "The type specified in the Variable has to extend (relax) the type inferred from the "
            f"initializing subgraph. Variable type: {element_type} Initialization type: {init_type}"
        )
        problem = f"variable_type {element_type} is not the init value's element type {init_type}"
        findings.append(type_finding(problem, message, INIT))
    return findings
