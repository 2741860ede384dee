"""Ops whose output shape comes from an input's value rather than from a data input's shape:
OneHot-1/16 (the depth), Eye-9 (num_rows, num_columns, batch_shape), RandomUniform-8 (the
output_shape) and Multinomial-13 (num_samples), as OpenVINO validates and infers them
(``one_hot_shape_inference.hpp``, ``eye_shape_inference.hpp``,
``random_uniform_shape_inference.hpp``, ``multinomial_shape_inference.hpp``).

OneHot's depth is read with ``get_input_const_data_as_shape``: a Const's value (a negative one
fails: 'OneHot depth value can't be negative.'; an unsigned one past INT64_MAX wraps, by
experiment), else the value's bounds
(``evaluate_as_partial_shape``: a depth from a ShapeOf of a ``2..8`` dim is ``2..8``), else ``?``.
"""

from __future__ import annotations

from irshape import rules
from irshape.dims import DYNAMIC, INF, Dim, PartialShape
from irshape.ir.element_types import is_integral_number
from irshape.ops.interface import AT_DATA, Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes import bounds, reading
from irshape.shapes.axes import axis_range_message, normalize_axis
from irshape.shapes.findings import (
    INDEX_TYPES,
    is_real,
    known,
    rank_finding,
    type_finding,
    unreadable,
    value_finding,
    value_unknown,
)
from irshape.shapes.findings import incompatible as incompatible_finding

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
    # a Const's depth cast, a computed one read as a shape (a bound below zero fails), as
    # TopK's k is read
    depth, depth_findings = _depth(call.inputs[DEPTH], reading.read_input(call, DEPTH, reading.TOPK_K))
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


# --- Eye-9 ----------------------------------------------------------------------------------

ROWS, COLUMNS, DIAGONAL, BATCH = 0, 1, 2, 3
_EYE_NAMES = ("num_rows", "num_columns", "diagonal_index", "batch_shape")


@reading.reads(ROWS, COLUMNS, BATCH, how=reading.AS_SHAPE)
def eye(call: OpCall) -> OpResult:
    """Eye-9: ``batch_shape``'s value (its bounds, or as many ``?`` as it has elements; a batch
    shape of dynamic length gives a dynamic rank), then num_rows and num_columns, each its value
    (a negative one fails), its bounds or ``?`` (``eye_shape_inference.hpp``)."""
    findings = _eye_type_findings(call) + _eye_shape_findings(call)
    if findings:
        return OpResult([], findings)
    output_type = str(call.attribute("output_type"))
    if len(call.inputs) > BATCH and call.inputs[BATCH].value_error is not None:
        return OpResult([], unreadable(BATCH, "batch_shape", call.inputs[BATCH]))
    batch = _eye_batch(call)
    if batch is None:
        return OpResult([Output(PartialShape(None), output_type)])
    dims, formulas = list(batch), [f"batch_shape[{i}]" for i in range(len(batch))]
    for port in (ROWS, COLUMNS):
        dim, dim_findings = _non_negative_dim(call.inputs[port], port, _EYE_NAMES[port])
        findings += dim_findings
        if dim is None:
            return OpResult([], findings)
        dims.append(dim)
        formulas.append(_EYE_NAMES[port])
    return OpResult([Output(PartialShape(dims), output_type, formulas)], findings)


def _eye_type_findings(call: OpCall) -> list[Finding]:
    findings = []
    for port, tensor in enumerate(call.inputs):
        if tensor.element_type is not None and tensor.element_type not in INDEX_TYPES:  # dynamic too
            name = _EYE_NAMES[port]
            problem = f"{name} is of element type {tensor.element_type}, not i32 or i64"
            message = f"Type of the '{name}' should be int32 or int64. Got: {tensor.element_type}"
            findings.append(type_finding(problem, message, port))
    return findings


def _eye_shape_findings(call: OpCall) -> list[Finding]:
    """num_rows, num_columns and diagonal_index: scalars or of one element; batch_shape 1D."""
    findings = []
    for port in (ROWS, COLUMNS, DIAGONAL):
        shape, name = call.inputs[port].shape, _EYE_NAMES[port]
        if shape.is_static and (shape.rank or 0) > 1:
            message = f"'{name}' value must be a scalar or 1D tensor."
            findings.append(rank_finding(port, name, shape, "0 or 1", message))
        elif shape.is_static and shape.rank == 1 and shape.lengths != (1,):
            problem = f"{name} is of shape {shape}, not of one element"
            findings.append(
                incompatible_finding(problem, f"'{name}' value input should have 1 element.", port)
            )
    if len(call.inputs) > BATCH and call.inputs[BATCH].shape.rank not in (None, 1):
        shape = call.inputs[BATCH].shape
        message = "'batch_shape' input must be a 1D tensor."
        findings.append(rank_finding(BATCH, "batch_shape", shape, "1", message))
    return findings


def _eye_batch(call: OpCall) -> list[Dim] | None:
    """The batch dims: none without a batch_shape; None (a dynamic rank) when its length is not
    static."""
    if len(call.inputs) <= BATCH:
        return []
    batch = call.inputs[BATCH]
    if not batch.shape.is_static:
        return None
    found = bounds.as_shape(batch)
    if found is not None:
        return found
    return [DYNAMIC] * batch.shape.lengths[0] if batch.shape.lengths else []


def _non_negative_dim(tensor: Tensor, port: int, name: str) -> tuple[Dim | None, list[Finding]]:
    """``get_input_const_data_as_shape`` with ``InTypeRange(0, INT64_MAX)``: the value (a
    negative one fails), else its bounds, else ``?``; None when OpenVINO rejects it."""
    if tensor.value is not None:
        negative = next((v for v in tensor.value if v < 0), None)
        if negative is not None:
            message = f"Value {negative} not in range [0:{reading.INT64_MAX}]"
            return None, [value_finding(f"{name} is {negative}, a negative one", message, port)]
        return Dim.of(tensor.value[0]), []
    found = bounds.as_dims(tensor)
    if found is not None and len(found) == 1:
        return found[0], []
    findings = value_unknown(port, name, tensor, f"the output's {name} dim is of unknown length (?)")
    if tensor.value_error is not None:
        return None, findings
    return DYNAMIC, findings


# --- RandomUniform-8 ------------------------------------------------------------------------

OUTPUT_SHAPE, MIN_VALUE, MAX_VALUE = 0, 1, 2


@reading.reads(OUTPUT_SHAPE, how=reading.AS_SHAPE)
def random_uniform(call: OpCall) -> OpResult:
    """RandomUniform-8: the output_shape input's value (its bounds; else as many ``?`` as its
    length can be at most, a dynamic rank when that is unbounded), of ``output_type``
    (``random_uniform_shape_inference.hpp``)."""
    output_type = str(call.attribute("output_type"))
    findings = _random_type_findings(call, output_type) + _random_shape_findings(call)
    findings += _min_max_findings(call)
    if findings:
        return OpResult([], findings)
    target = call.inputs[OUTPUT_SHAPE]
    if target.value_error is not None:
        return OpResult([], unreadable(OUTPUT_SHAPE, "output_shape", target))
    found = bounds.as_shape(target)
    if found is not None:
        return OpResult([Output(PartialShape(found), output_type)])
    length = target.shape.dims[0].hi if target.shape.dims else INF
    shape = PartialShape(None if length == INF else [DYNAMIC] * length)
    consequence = "the output's dims are of unknown length (?)"
    return OpResult(
        [Output(shape, output_type)], value_unknown(OUTPUT_SHAPE, "output_shape", target, consequence)
    )


def _random_type_findings(call: OpCall, output_type: str) -> list[Finding]:
    shape_type = call.inputs[OUTPUT_SHAPE].element_type
    min_type, max_type = call.inputs[MIN_VALUE].element_type, call.inputs[MAX_VALUE].element_type
    findings = []
    if known(shape_type) and shape_type not in INDEX_TYPES:
        problem = f"output_shape is of element type {shape_type}, not i32 or i64"
        findings.append(type_finding(problem, "Type of the input should be int32 or int64.", OUTPUT_SHAPE))
    if min_type is None or max_type is None:
        return findings
    if min_type != max_type:
        problem = f"min_val is of element type {min_type}, max_val of {max_type}"
        message = "'min_val' should have the same type as 'max_val'."
        findings.append(type_finding(problem, message, MAX_VALUE))
    elif not (is_real(output_type) or output_type in INDEX_TYPES) or output_type != min_type:
        problem = f"min_val and max_val are of element type {min_type}, output_type is {output_type}"
        message = "'min_val' and 'max_val' should have the same type as 'out_type' attribute."
        findings.append(type_finding(problem, message, AT_DATA))
    return findings


def _random_shape_findings(call: OpCall) -> list[Finding]:
    findings = []
    target = call.inputs[OUTPUT_SHAPE].shape
    if target.rank not in (None, 1):
        message = "The rank of the tensor defining output shape must be equal to 1."
        findings.append(rank_finding(OUTPUT_SHAPE, "output_shape", target, "1", message))
    for port, name in ((MIN_VALUE, "Min"), (MAX_VALUE, "Max")):
        shape = call.inputs[port].shape
        if not _scalar_or_one(shape):
            problem = f"{name.lower()}_val is of shape {shape}, not a scalar or of one element"
            message = f"{name} value must be a scalar or one element 1D tensor."
            findings.append(incompatible_finding(problem, message, port))
    return findings


def _scalar_or_one(shape: PartialShape) -> bool:
    """``compatible(Shape{}) || compatible(Shape{1})``."""
    return (
        shape.dims is None or not shape.dims or (len(shape.dims) == 1 and shape.dims[0].compatible(Dim.of(1)))
    )


def _min_max_findings(call: OpCall) -> list[Finding]:
    """Both Consts: min must be less than max, compared as doubles (NaN fails)."""
    low, high = _first_number(call.inputs[MIN_VALUE]), _first_number(call.inputs[MAX_VALUE])
    if low is None or high is None or low < high:
        return []
    problem = f"min_val {low:g} is not less than max_val {high:g}"
    message = f"Min value must be less than max value. Got min value: {low:g}, max value: {high:g}"
    return [value_finding(problem, message, MIN_VALUE)]


def _first_number(tensor: Tensor) -> float | None:
    if tensor.value:
        return float(tensor.value[0])
    if tensor.reals:
        return tensor.reals[0]
    return None


# --- Multinomial-13 -------------------------------------------------------------------------

PROBS, NUM_SAMPLES = 0, 1


@reading.reads(NUM_SAMPLES, how=reading.AS_SHAPE)
def multinomial(call: OpCall) -> OpResult:
    """Multinomial-13: ``[batch, num_samples]`` of ``convert_type``, the batch being probs'
    first dim and num_samples read as a shape (its value, else its bounds, else ``?``); probs of
    dynamic rank give a dynamic rank (``multinomial_shape_inference.hpp``). OpenVINO checks the
    shapes first, then the element types, and never a num_samples value (its non-negative check
    compares a dim's minimum length, never below 0: a -2 reads as a dim of 0, -1 as ``?``)."""
    findings = _multinomial_shape_findings(call) + _multinomial_type_findings(call)
    if findings:
        return OpResult([], findings)
    output_type = str(call.attribute("convert_type"))
    probs = call.inputs[PROBS].shape
    if probs.dims is None:
        return OpResult([Output(PartialShape(None), output_type)])
    samples, findings = bounds.as_one_dim(
        call.inputs[NUM_SAMPLES],
        NUM_SAMPLES,
        "num_samples",
        "the output's samples dim is of unknown length (?)",
    )
    if samples is None:
        return OpResult([], findings)
    return OpResult([Output(PartialShape([probs.dims[0], samples]), output_type)], findings)


def _multinomial_shape_findings(call: OpCall) -> list[Finding]:
    findings = []
    probs = call.inputs[PROBS].shape
    if probs.rank not in (None, 2):
        message = "Input probabilities must be a 2D tensor."
        findings.append(rank_finding(PROBS, "probs", probs, "2", message))
    samples = call.inputs[NUM_SAMPLES].shape
    if not _scalar_or_one(samples):
        problem = f"num_samples is of shape {samples}, not a scalar or of one element"
        message = "Number of samples must be a scalar or one element 1D tensor."
        findings.append(incompatible_finding(problem, message, NUM_SAMPLES))
    return findings


def _multinomial_type_findings(call: OpCall) -> list[Finding]:
    """``multinomial::validate::input_types``: real probs, integral num_samples (not boolean)."""
    probs_type = call.inputs[PROBS].element_type
    samples_type = call.inputs[NUM_SAMPLES].element_type
    findings = []
    if known(probs_type) and not is_real(probs_type):
        problem = f"probs is of element type {probs_type}, not a real type"
        message = "Expected floating point type as element type for the 'probs' input."
        findings.append(type_finding(problem, message, PROBS))
    if known(samples_type) and not is_integral_number(samples_type):
        problem = f"num_samples is of element type {samples_type}, not an integer type"
        message = "Expected integer type as element type for the 'num_samples' input."
        findings.append(type_finding(problem, message, NUM_SAMPLES))
    return findings
