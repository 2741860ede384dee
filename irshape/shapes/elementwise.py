"""Element-wise ops as OpenVINO validates and infers them.

* unary ops: the data input's shape; its element type (a boolean one for IsFinite/IsInf/IsNaN),
  checked against what the op accepts (``element_types`` of the declaration's data input);
* binary ops (arithmetic, comparison, logical, bitwise): both inputs of one element type,
  their shapes merged by ``auto_broadcast`` (numpy, pdpd with its start axis, or none);
* Select (three-way), PRelu, Clamp, HardSigmoid, Selu, Swish, Convert and ConvertLike;
* Broadcast-1/3 and Tile, whose output shape comes from an input's value.

Small integer values flow through the integer arithmetic, comparisons, Select, Convert and
Tile, as OpenVINO folds them, so shape subgraphs (ShapeOf -> Gather -> Multiply -> Concat ->
Reshape) keep their values.

``same_shape`` still serves the ops of other families that keep their data's shape (the
normalisations and FakeQuantize) until their own functions replace it.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING

from irshape import rules
from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ir import element_types
from irshape.ops.interface import AT_DATA, NOTHING, Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes import reading
from irshape.shapes.broadcast import merge_shapes, numpy_broadcast, pdpd_broadcast
from irshape.shapes.moving import moves_bounds

if TYPE_CHECKING:  # imported where used: a check of data tensors needs neither
    from irshape.shapes import bounds, values


DATA = 0
INCONSISTENT = "Argument shapes are inconsistent."

# --- element types -------------------------------------------------------------------------

REAL = frozenset({"bf16", "f16", "f32", "f64", "f8e4m3", "f8e5m2", "f4e2m1", "f8e8m0"})  # is_real()
INTEGER = element_types.INTEGRAL  # is_integral_number()
UNKNOWN_TYPES = frozenset({"dynamic"})

_ACCEPTS: dict[str, Callable[[str], bool]] = {
    "any": lambda t: True,
    "numeric": lambda t: t != "boolean",
    "real": lambda t: t in REAL,
    "integer": lambda t: t in INTEGER,
    "integer_or_boolean": lambda t: t in INTEGER or t == "boolean",
    "boolean": lambda t: t == "boolean",
    "integral": lambda t: t in INTEGER,
}

# OpenVINO's words when the data's element type is refused, by op ({type}: the type it got).
_UNARY_NUMERIC = "This operation does not support input with element type: boolean"
_TYPE_MESSAGES = {
    "SoftPlus": "Input element type must be float. Got: {type}",
    "Mish": "Element must be of floating point type, Got: {type}",
    "SoftSign": "Input element type must be float, instead got: {type}",
    "ErfInv": "Input element type must be floating-point, instead got: {type}",
    "Gelu": "Argument element type must be f16, bf16, f32, f64 or dynamic (got {type}).",
    "Swish": "Swish input tensor must be floating point type({type}).",
    "IsFinite": (
        "The element type of the input tensor must be a floating point number or dynamic (got {type})."
    ),
    "IsInf": "The element type of the input tensor must be a floating point number.",
    "IsNaN": "The element type of the input tensor must be a floating point number.",
    "BitwiseNot": "The element type of the input tensor must be integer or boolean.",
    "BitwiseAnd": "The element type of the input tensor must be integer or boolean.",
    "BitwiseOr": "The element type of the input tensor must be integer or boolean.",
    "BitwiseXor": "The element type of the input tensor must be integer or boolean.",
    "BitwiseLeftShift": "The element type of the input tensor must be integer number.",
    "BitwiseRightShift": "The element type of the input tensor must be integer number.",
    "Clamp": "Input element type must be numeric. Got: {type}",
    "Selu": "Input element types must be floating-point. Got: {type}",
}
_KIND_WORDS = {
    "numeric": "any type but boolean",
    "real": "a floating-point type",
    "integer": "an integer type",
    "integer_or_boolean": "an integer type or boolean",
    "boolean": "boolean",
    "integral": "an integer type",
}


def _known_type(element_type: str | None) -> str | None:
    """An element type that decides something: None for unknown or ``dynamic``."""
    return None if element_type is None or element_type in UNKNOWN_TYPES else element_type


def _type_finding(call: OpCall, port: int, element_type: str, ov_message: str) -> Finding:
    from irshape.shapes.findings import type_finding  # findings: imported where one is made

    spec = call.schema.inputs[port]
    problem = (
        f"input {port} ({spec.name}) has element type {element_type}; "
        f"{call.schema.name} takes {_KIND_WORDS.get(spec.element_types or '', spec.element_types)}"
    )
    return type_finding(problem, ov_message, port)


def _check_type(call: OpCall, port: int, element_type: str | None, default_message: str) -> list[Finding]:
    """The input's element type against the kind its declaration names."""
    known = _known_type(element_type)
    kind = call.schema.inputs[port].element_types or "any"
    if known is None or _ACCEPTS[kind](known):
        return []
    message = _TYPE_MESSAGES.get(call.schema.op, default_message).format(type=known)
    return [_type_finding(call, port, known, message)]


def _merge_types(call: OpCall, first: int, second: int, ov_message: str) -> tuple[str | None, list[Finding]]:
    """``element::Type::merge`` of two inputs; a finding when they differ. ``ov_message`` is
    a template of the two types (``{a}``, ``{b}``), written only for the finding."""
    a, b = call.inputs[first].element_type, call.inputs[second].element_type
    merged = element_types.merge(a, b)
    if merged is not None or a is None or b is None:
        return merged, []
    from irshape.shapes.findings import type_finding  # findings: imported where one is made

    problem = f"input {first} has element type {a} and input {second} {b}; {call.schema.name} needs one type"
    return None, [type_finding(problem, ov_message.format(a=a, b=b), second)]


# --- values --------------------------------------------------------------------------------


def _trunc_divide(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return -quotient if (a < 0) != (b < 0) else quotient


def _integer_power(a: int, b: int) -> int | None:
    """A negative exponent truncates toward zero as the cast of std::pow does (2**-1 is 0)."""
    if b > 64 or (b < 0 and a == 0):
        return None
    return a**b if b >= 0 else int(a**b)


def _c_remainder(a: int, b: int) -> int:
    remainder = abs(a) % abs(b)
    return -remainder if a < 0 else remainder


# OpenVINO's integer semantics, element by element; None where it folds nothing (a zero
# divisor). SquaredDifference and the bitwise ops are absent: OpenVINO folds none of them (by
# experiment: BitwiseAnd of two i64 Consts as a Broadcast's target gives ``[?,?]``).
_VALUE_OPS: dict[str, Callable[[int, int], int | None]] = {
    "Add": operator.add,
    "Subtract": operator.sub,
    "Multiply": operator.mul,
    "Maximum": max,
    "Minimum": min,
    "FloorMod": lambda a, b: None if b == 0 else a % b,  # the divisor's sign, as Python's %
    "Mod": lambda a, b: None if b == 0 else _c_remainder(a, b),  # the dividend's, as C++'s %
    "Power": _integer_power,
    "Equal": lambda a, b: int(a == b),
    "NotEqual": lambda a, b: int(a != b),
    "Less": lambda a, b: int(a < b),
    "LessEqual": lambda a, b: int(a <= b),
    "Greater": lambda a, b: int(a > b),
    "GreaterEqual": lambda a, b: int(a >= b),
    "LogicalAnd": lambda a, b: int(bool(a) and bool(b)),
    "LogicalOr": lambda a, b: int(bool(a) or bool(b)),
    "LogicalXor": lambda a, b: int(bool(a) != bool(b)),
    "Xor": lambda a, b: int(bool(a) != bool(b)),
}


def _floor_mod_in_double(a: int, b: int) -> int | None:
    """``reference::floor_mod`` of signed integers: ``x - y * floor(x / y)`` in double, cast
    back (by experiment: INT64_MAX floormod 10 is 0, the compiled model's too, as 2^63 - 2^63;
    exact below 2^53, where it is Python's %)."""
    if b == 0:
        return None
    quotient = float(math.floor(a / float(b)))
    return math.trunc(float(a) - float(b) * quotient)


def _value_function(op: str, element_type: str | None) -> Callable[[int, int], int | None] | None:
    """The op on two integers of the type as OpenVINO's evaluate computes it."""
    if op == "FloorMod" and element_type in _SIGNED:
        return _floor_mod_in_double
    return _VALUE_OPS.get(op)


_SIGNED = frozenset({"i8", "i16", "i32", "i64"})


def _divide(python_div: bool) -> Callable[[int, int], int | None]:
    def divide(a: int, b: int) -> int | None:
        if b == 0:
            return None  # OpenVINO does not fold an integer division by zero
        return a // b if python_div else _trunc_divide(a, b)

    return divide


def _as_read(
    op: str, function: Callable[[int, int], int | None], element_type: str | None
) -> Callable[[int, int], int | None] | None:
    """The op as shape inference reads its value, where that is not evaluate's: 0 where an input
    is the type's maximum, "no limit" (by experiment, each as a Broadcast's target): Divide's and
    Mod's lower bound (``divide::evaluate_bound``, ``mod::evaluate_bound``) where either input
    is (INT64_MAX / 2, u32's and i32's alike, is 0; 17 mod INT64_MAX 0); None for the other
    ops (FloorMod's INT64_MAX floormod 10 is 0 by evaluate itself: :func:`_floor_mod_in_double`)."""
    from irshape.shapes import bounds  # values and bounds: imported where used

    maximum = bounds.type_max(element_type)
    if maximum is None:
        return None
    if op in ("Divide", "Mod"):
        return lambda a, b: 0 if a == maximum or b == maximum else function(a, b)
    return None


_READ_APART = frozenset({"Divide", "Mod"})  # the ops of _as_read


def _binary_value(
    call: OpCall, shape: PartialShape, out_type: str | None, as_read: bool = False
) -> tuple[int, ...] | None:
    """The output's value when both inputs' values are known (numpy or none broadcasting): as
    evaluate computes it, or ``as_read`` as shape inference reads it (a Divide's)."""
    if call.inputs[0].value is None or call.inputs[1].value is None:
        return None  # (the usual tensor, data, has none: values is not imported for it)
    from irshape.shapes import values  # values and bounds: imported where used

    operands = [values.known(call.inputs[0]), values.known(call.inputs[1])]
    if shape.lengths is None or None in operands or _auto_broadcast(call)[0] == "pdpd":
        return None
    if not values.evaluates(call.schema.op, call.inputs[0].element_type):
        return None
    if call.schema.op == "Divide":
        function = _divide(bool(call.attribute("m_pythondiv")))
    else:
        found = _value_function(call.schema.op, call.inputs[0].element_type)
        if found is None:
            return None
        function = found
    if as_read:
        read = _as_read(call.schema.op, function, call.inputs[1].element_type)
        if read is None:
            return None
        function = read
    result = values.elementwise(function, [k for k in operands if k is not None], shape.lengths)
    return values.wrap(result, out_type)


# OpenVINO's real arithmetic folded as its evaluate computes it (irshape.shapes.reals: f32 in
# float32, f16 through f32, f64 in double), for the ops and types it evaluates. Bounds: the
# ops with interval_bound_evaluator, and Divide's own rule; SquaredDifference's in f32 only
# (its evaluate takes no f16).
_REAL_INTERVAL_OPS = frozenset(
    {"Add", "Subtract", "Multiply", "Maximum", "Minimum", "Power", "SquaredDifference", "FloorMod"}
)


def _binary_reals(
    call: OpCall, shape: PartialShape, out_type: str, as_read: bool = False
) -> tuple[float, ...] | None:
    """The output's real value when both inputs' are known (numpy or none broadcasting): as
    evaluate computes it, or ``as_read`` as shape inference reads it, where that differs (a
    Divide's: :func:`reals.binary_as_read`; None elsewhere)."""
    from irshape.shapes import reals, values  # values and bounds: imported where used

    op = call.schema.op
    function = reals.binary_as_read(op, out_type) if as_read else reals.binary(op, out_type)
    if function is None or shape.lengths is None or _auto_broadcast(call)[0] == "pdpd":
        return None
    return values.to_ieee(values.real_elementwise(function, call.inputs[:2], shape.lengths), out_type)


def _binary_real_bounds(call: OpCall, shape: PartialShape, out_type: str) -> bounds.RealBounds | None:
    """The output's real bounds from the inputs' (interval_bound_evaluator; Divide's own)."""
    from irshape.shapes import bounds, reals  # values and bounds: imported where used

    op = call.schema.op
    function = reals.binary(op, out_type)
    if function is None or shape.lengths is None or _auto_broadcast(call)[0] == "pdpd":
        return None
    if op == "Divide":
        return bounds.real_divided(function, call.inputs[:2], shape.lengths, out_type)
    if op in _REAL_INTERVAL_OPS:
        return bounds.real_interval(function, call.inputs[:2], shape.lengths, out_type)
    return None


# --- unary ops -----------------------------------------------------------------------------


def same_shape(call: OpCall) -> OpResult:
    """The data input's shape and element type."""
    data = call.inputs[DATA]
    return OpResult([Output(data.shape, data.element_type)])


# the integer types Floor's and Ceiling's evaluate takes
_ROUNDED = frozenset({"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"})


def unary(call: OpCall) -> OpResult:
    """A unary op: the data's shape and element type, the type checked against the op's."""
    data = call.inputs[DATA]
    findings = _check_type(call, DATA, data.element_type, _UNARY_NUMERIC)
    output = Output(data.shape, data.element_type, value=_unary_value(call.schema.op, data))
    if findings:
        return OpResult([output], findings)
    if data.element_type in REAL:
        if _real_known(data):  # (the usual real tensor, data, has neither)
            _unary_reals(call, data, output)
    elif call.schema.op == "Abs":  # Negative has no bounds of its own
        from irshape.shapes import bounds  # values and bounds: imported where used

        found = bounds.absolute(data)
        if found is not None:
            bounds.settle(output, *found)
    return OpResult([output], findings)


def _real_known(tensor: Tensor) -> bool:
    """Does irshape know the tensor's real value or bounds?"""
    facts = tensor.facts
    return facts.reals is not None or facts.real_lower is not None


def _unary_reals(call: OpCall, data: Tensor, output: Output) -> None:
    """A real unary op's value as OpenVINO evaluates it; Abs's bounds (Floor, Ceiling, Sqrt,
    Round and Negative have no evaluate_lower/upper: none)."""
    from irshape.shapes import bounds, reals  # values and bounds: imported where used

    op = call.schema.op
    mode = call.attributes.enum("mode", "half_to_even") if op == "Round" else ""
    function = reals.unary(op, data.element_type, mode)
    if function is None:
        return
    if data.reals is not None:
        output.reals = reals.apply(function, data.reals)
    elif op == "Abs":
        bounds.settle_reals(output, bounds.real_absolute(data))


def _unary_value(op: str, data: Tensor) -> tuple[int, ...] | None:
    """The value OpenVINO folds: Negative's, Abs's and LogicalNot's (Identity-16 does not
    fold), and an integer's Floor and Ceiling (itself; no bounds, though)."""
    if data.value is None:
        return None  # (the usual tensor, data, has none: values is not imported for it)
    from irshape.shapes import values  # values and bounds: imported where used

    tensor = values.known(data)
    if tensor is None or not values.evaluates(op, data.element_type):
        return None
    if op in ("Negative", "Abs"):
        return values.wrap([-v if op == "Negative" else abs(v) for v in tensor.values], data.element_type)
    if op == "LogicalNot":
        return tuple(int(v == 0) for v in tensor.values)
    if op in ("Floor", "Ceiling") and data.element_type in _ROUNDED:
        return tensor.values
    return None


def unary_boolean(call: OpCall) -> OpResult:
    """IsFinite, IsInf, IsNaN: the data's shape, boolean."""
    data = call.inputs[DATA]
    findings = _check_type(call, DATA, data.element_type, _UNARY_NUMERIC)
    return OpResult([Output(data.shape, "boolean")], findings)


def clamp(call: OpCall) -> OpResult:
    """Clamp-1: numeric data, and ``min`` no greater than ``max``."""
    from irshape.shapes import bounds, reals  # values and bounds: imported where used

    result = unary(call)
    low, high = float(call.attribute("min")), float(call.attribute("max"))
    data = call.inputs[DATA]
    function = (
        reals.clamp(data.element_type, low, high)
        if low <= high and _real_known(data) and not result.findings
        else None
    )
    if function is not None and result.outputs:
        output = result.outputs[0]
        if data.reals is not None:
            output.reals = reals.apply(function, data.reals)
        else:  # clamp is monotonic: each bound clamped (Clamp's evaluate_lower/upper)
            found = bounds.real_of(data)
            if found is not None:
                low_bound, high_bound = reals.apply(function, found[0]), reals.apply(function, found[1])
                if low_bound is not None and high_bound is not None:
                    bounds.settle_reals(output, (low_bound, high_bound))
    elif low <= high and not result.findings and result.outputs and bounds.of(data) is not None:
        found = bounds.clamped(data, low, high)  # (an integer's value or bounds)
        if found is not None:
            bounds.settle(result.outputs[0], *found)
    if low > high:
        result.findings.append(
            Finding(
                rules.ATTRIBUTE_VALUE,
                {
                    "attribute": "min",
                    "value": call.attributes.texts.get("min", str(low)),
                    "op": call.schema.name,
                    "problem": f"is greater than max={call.attributes.texts.get('max', str(high))}",
                    "ov_message": (
                        f"Attribute 'min' must be less or equal than 'max'. Got: {low:g} and {high:g}"
                    ),
                },
                AT_DATA,
            )
        )
    return result


def _rank_finding(call: OpCall, port: int, expected: str, ov_message: str) -> list[Finding]:
    """IRS211 on input ``port``: its rank is not one the op takes."""
    shape = call.inputs[port].shape
    args = {
        "port": port,
        "input": call.schema.inputs[port].name,
        "rank": shape.rank,
        "shape": str(shape),
        "expected": expected,
        "ov_message": ov_message,
    }
    return [Finding(rules.INPUT_RANK, args, port)]


def _scalar_problem(call: OpCall, port: int, message: str) -> list[Finding]:
    return _rank_finding(call, port, "a scalar is expected", message)


def hard_sigmoid(call: OpCall) -> OpResult:
    """HardSigmoid-1: alpha and beta are scalars (where their shapes are static) of the
    data's element type."""
    data = call.inputs[DATA]
    findings: list[Finding] = []
    for port, name in ((1, "alpha"), (2, "beta")):
        shape = call.inputs[port].shape
        if shape.is_static and shape.rank != 0:
            findings += _scalar_problem(
                call, port, f"A scalar is expected for the '{name}' input. Got: {shape}"
            )
    a, b, c = (t.element_type for t in call.inputs)
    if not _same_type(a, b) or not _same_type(a, c):  # dynamic is no wildcard here
        from irshape.shapes.findings import type_finding  # findings: imported where one is made

        problem = f"alpha ({b}) and beta ({c}) must have the data's element type {a}"
        message = "The element types of both alpha and beta inputs must match the data input type."
        findings.append(type_finding(problem, message, 1))
    return OpResult([Output(data.shape, data.element_type)], findings)


def selu(call: OpCall) -> OpResult:
    """Selu-1: data, alpha and lambda of one floating-point element type."""
    data = call.inputs[DATA]
    merged, agree = _merge_all([t.element_type for t in call.inputs])
    if not agree:
        from irshape.shapes.findings import type_finding  # findings: imported where one is made

        a, b, c = (t.element_type or "dynamic" for t in call.inputs)
        problem = f"data ({a}), alpha ({b}) and lambda ({c}) differ in element type"
        message = f"Input element types do not match : {a} and {b} and {c}"
        finding = type_finding(problem, message, 1)
        return OpResult([Output(data.shape, data.element_type)], [finding])
    return OpResult([Output(data.shape, merged)], _check_type(call, DATA, merged, ""))


def _same_type(a: str | None, b: str | None) -> bool:
    """Equal element types, as HardSigmoid and Swish compare them (None: not known here)."""
    return a is None or b is None or a == b


def _merge_all(types: list[str | None]) -> tuple[str | None, bool]:
    """The one element type of several inputs (``dynamic`` merges with any), and whether they agree."""
    known = {t for t in map(_known_type, types) if t is not None}
    if len(known) > 1:
        return None, False
    return (known.pop() if known else next((t for t in types if t is not None), None)), True


def swish(call: OpCall) -> OpResult:
    """Swish-4: floating-point data; an optional beta, a scalar of the data's type."""
    data = call.inputs[DATA]
    findings = _check_type(call, DATA, data.element_type, "")
    if len(call.inputs) > 1:
        beta = call.inputs[1]
        if beta.shape.rank not in (None, 0):
            findings += _scalar_problem(
                call, 1, f"Swish input with beta must be scalar but it has rank: {beta.shape.rank}"
            )
        a, b = data.element_type, beta.element_type
        if not _same_type(a, b):  # dynamic is no wildcard here
            from irshape.shapes.findings import type_finding  # findings: imported where one is made

            message = f"Swish inputs must have the same type but they are: {a} and {b}"
            problem = f"beta has element type {b}, the data {a}"
            findings.append(type_finding(problem, message, 1))
    return OpResult([Output(data.shape, data.element_type)], findings)


def prelu(call: OpCall) -> OpResult:
    """PRelu-1: the data's shape and type. OpenVINO checks neither the slope's shape (the spec's
    broadcasting rule) nor its element type."""
    return same_shape(call)


def convert(call: OpCall) -> OpResult:
    """Convert-1: the data input's shape in ``destination_type``; a known value converted as
    OpenVINO's evaluate converts it (integers wrapped, to boolean non-zero; reals truncated to an
    integer type, rounded to a real one), and, where it differs, as shape inference reads it
    (``convert::evaluate_bound``: an element at its input type's maximum the output type's)."""
    from irshape.shapes import bounds  # values and bounds: imported where used

    data = call.inputs[DATA]
    destination = call.attributes.values.get("destination_type")
    target = destination if isinstance(destination, str) else None
    value, read = _converted(data, target)
    reals, read_reals = _converted_reals(data, target)
    output = Output(data.shape, target, value=value, reals=reals)
    bounds.read_apart(output, read, read_reals)
    converted = bounds.converted(data, target) or bounds.converted_from_real(data, target)
    if converted:
        bounds.settle(output, *converted)
    elif output.value is None and output.reals is None:
        real_bounds = bounds.converted_to_real(data, target) or bounds.converted_between_reals(data, target)
        bounds.settle_reals(output, real_bounds)
    return OpResult([output])


def convert_like(call: OpCall) -> OpResult:
    """ConvertLike-1: the data input's shape in the like input's element type, and never a
    value: OpenVINO's ConvertLike has no evaluate and no bounds (only a constant_fold, which
    read_model does not run), so a Reshape whose target is a ConvertLike of a Constant is
    ``[?,?]`` there (by experiment; TensorFlow's space_to_batch paddings pass one)."""
    data, like = call.inputs[DATA], call.inputs[1]
    return OpResult([Output(data.shape, like.element_type)])


def _converted(data: Tensor, target: str | None) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """A value converted to an integer type: evaluate's, and shape inference's reading of it."""
    from irshape.shapes import bounds, values  # values and bounds: imported where used

    if data.reals is not None:
        evaluated = values.truncated(data.reals, target)
        return evaluated, bounds.converted_value_from_real(data.reals, data.element_type, target)
    tensor = values.known(data)
    if tensor is None:
        return None, None
    evaluated = values.wrap(tensor.values, target)
    return evaluated, bounds.converted_bound(tensor.values, data.element_type, target)


def _converted_reals(
    data: Tensor, target: str | None
) -> tuple[tuple[float, ...] | None, tuple[float, ...] | None]:
    """A value converted to a real type: rounded to it (an integer, or a real of another type),
    past its range an infinity (by experiment: 3e8 to f16 is inf); and shape inference's reading
    of it, at its input type's maximum the output type's (:func:`bounds.converted_value_to_real`)."""
    from irshape.shapes import bounds, values  # values and bounds: imported where used

    if target not in REAL:
        return None, None
    tensor = values.known(data)
    numbers = data.reals if tensor is None else tensor.values
    if numbers is None:
        return None, None
    evaluated = values.to_ieee([float(v) for v in numbers], target)
    return evaluated, bounds.converted_value_to_real(numbers, data.element_type, target)


# --- binary ops ----------------------------------------------------------------------------


def _auto_broadcast(call: OpCall) -> tuple[str, int]:
    """The auto_broadcast mode (explicit is none) and the pdpd start axis."""
    mode = call.attributes.enum("auto_broadcast", "numpy")
    axis = call.attributes.values.get("auto_broadcast.auto_broadcast_axis", 0)
    return ("none" if mode == "explicit" else mode), (axis if isinstance(axis, int) else 0)


def merge_by_mode(a: PartialShape, b: PartialShape, mode: str, axis: int) -> PartialShape | None:
    """``b`` merged into ``a`` as an auto_broadcast mode merges it; None when it cannot be."""
    if mode == "none":
        return merge_shapes(a, b)
    if mode == "pdpd":
        return pdpd_broadcast(a, b, axis)
    return numpy_broadcast(a, b)


def _inconsistent(shapes: list[PartialShape], mode: str, ov_message: str = INCONSISTENT) -> Finding:
    from irshape.shapes.findings import incompatible  # findings: imported where one is made

    listed = " and ".join(str(s) for s in shapes)
    problem = f"input shapes {listed} do not broadcast together (auto_broadcast {mode})"
    return incompatible(problem, ov_message)


_DIFFERENT_TYPES = (
    "Arguments do not have the same element type (arg0 element type: {a}, arg1 element type: {b})."
)


def _binary(call: OpCall, kind_message: str, boolean_output: bool) -> OpResult:
    """The shared work of the binary ops: one element type, checked; the shapes merged."""
    merged, findings = _merge_types(call, 0, 1, _DIFFERENT_TYPES)
    if not findings:
        findings = _check_type(call, 0, merged, kind_message)
    mode, axis = _auto_broadcast(call)
    shapes = [call.inputs[0].shape, call.inputs[1].shape]
    shape = merge_by_mode(shapes[0], shapes[1], mode, axis)
    if shape is None:
        return OpResult([], [*findings, _inconsistent(shapes, mode)])
    out_type = "boolean" if boolean_output else merged
    value = None if findings else _binary_value(call, shape, out_type)
    output = Output(shape, out_type, value=value)
    if findings or (call.inputs[0].facts is NOTHING and call.inputs[1].facts is NOTHING):
        return OpResult([output], findings)  # (the usual tensors, data, carry no values or bounds)
    from irshape.shapes import bounds  # values and bounds: imported where used

    if value is not None and call.schema.op in _READ_APART:
        bounds.read_apart(output, _binary_value(call, shape, out_type, as_read=True))
    if out_type in REAL and any(map(_real_known, call.inputs[:2])):
        output.reals = _binary_reals(call, shape, out_type)
        if output.reals is not None and call.schema.op == "Divide":
            bounds.read_apart(output, read_reals=_binary_reals(call, shape, out_type, as_read=True))
        if output.reals is None:
            bounds.settle_reals(output, _binary_real_bounds(call, shape, out_type))
    if value is None and any(bounds.bounded(t) for t in call.inputs[:2]):
        found = _binary_bounds(call, shape, out_type)
        if found is not None:
            bounds.settle(output, *found)
    return OpResult([output], findings)


# Ops whose bounds OpenVINO evaluates on the four pairings of its inputs' bounds
# (BinaryElementwiseArithmetic's interval_bound_evaluator), for the element types their
# evaluate takes (values.evaluates) and ReduceMin's and ReduceMax's, which pick each element's
# least and greatest result (with a 16-bit type they leave their outputs unwritten). Divide
# and Mod have rules of their own; SquaredDifference has no evaluate, and the comparisons but
# Equal no bounds.
_INTERVAL_OPS = frozenset({"Add", "Subtract", "Multiply", "Maximum", "Minimum", "Power", "FloorMod"})


def _binary_bounds(call: OpCall, shape: PartialShape, out_type: str | None) -> bounds.Bounds | None:
    """The output's bounds from the inputs' bounds (numpy or none broadcasting)."""
    from irshape.shapes import bounds, values  # values and bounds: imported where used

    op = call.schema.op
    if shape.lengths is None or _auto_broadcast(call)[0] == "pdpd":
        return None
    in_type = call.inputs[0].element_type
    if not values.evaluates(op, in_type):
        return None
    if op == "Equal":
        # its evaluate_upper compares the bounds with LessEqual, which takes no 8 or 16-bit
        # type: the upper bound is then read where nothing was written, and may be anything
        return (
            bounds.equal(call.inputs[:2], shape.lengths) if values.evaluates("LessEqual", in_type) else None
        )
    if out_type not in element_types.INTEGRAL:
        return None
    if op == "Divide":
        return bounds.divided(call.inputs[:2], shape.lengths, bool(call.attribute("m_pythondiv")), out_type)
    if op == "Mod":
        return bounds.modulo(call.inputs[:2], shape.lengths, out_type)
    if op in _INTERVAL_OPS and values.evaluates("ReduceMin", out_type):
        function = _value_function(op, call.inputs[0].element_type)
        if function is not None:
            return bounds.interval(function, call.inputs[:2], shape.lengths, out_type)
    return None


def arithmetic(call: OpCall) -> OpResult:
    """Add, Subtract, Multiply, Divide, Power, Maximum, Minimum, FloorMod, Mod,
    SquaredDifference: one element type, not boolean."""
    return _binary(call, "This operation does not support inputs with element type: boolean", False)


def comparison(call: OpCall) -> OpResult:
    """Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual: one element type; boolean out."""
    return _binary(call, "", True)


def logical(call: OpCall) -> OpResult:
    """LogicalAnd, LogicalOr, LogicalXor, Xor: boolean inputs, boolean out."""
    merged = element_types.merge(call.inputs[0].element_type, call.inputs[1].element_type)
    message = f"Operands for logical operators must have boolean element type but have element type {merged}."
    return _binary(call, message, True)


def bitwise(call: OpCall) -> OpResult:
    """BitwiseAnd/Or/Xor (integer or boolean) and the shifts (integer)."""
    return _binary(call, "", False)


# --- Select --------------------------------------------------------------------------------


@moves_bounds(0)
def select(call: OpCall) -> OpResult:
    """Select-1: a boolean condition; then and else of one element type. numpy/none: else,
    then, cond merged into one shape; pdpd: else then cond merged one way into then's shape."""
    from irshape.shapes import values  # values and bounds: imported where used

    cond, then, other = call.inputs
    findings: list[Finding] = []
    cond_type = _known_type(cond.element_type)
    if cond_type is not None and cond_type != "boolean":
        message = f"Argument 0 must have boolean element type (element type: {cond_type})."
        findings.append(_type_finding(call, 0, cond_type, message))
    merged, type_findings = _merge_types(call, 1, 2, "Argument 1 and 2 element types must match.")
    findings += type_findings
    mode, axis = _auto_broadcast(call)
    shape = _select_shape(cond.shape, then.shape, other.shape, mode, axis, findings)
    if shape is None:
        return OpResult([], findings)
    value = None
    operands = [values.known(t) for t in call.inputs]
    if not findings and mode != "pdpd" and shape.lengths is not None:
        given = [k for k in operands if k is not None]
        chosen = (
            values.elementwise(lambda c, t, e: t if c else e, given, shape.lengths)
            if len(given) == 3
            else None
        )
        value = values.moved(chosen)
    return OpResult([Output(shape, merged, value=value)], findings)


def _select_shape(
    cond: PartialShape, then: PartialShape, other: PartialShape, mode: str, axis: int, findings: list[Finding]
) -> PartialShape | None:
    if mode == "pdpd":  # else into then, then cond into that: one way, then's shape
        merged = pdpd_broadcast(then, other, axis)
        if merged is None:
            findings.append(_inconsistent([then, other], mode, "'Else' tensor shape is not broadcastable."))
            return None
        with_cond = pdpd_broadcast(merged, cond, axis)
        if with_cond is None:
            findings.append(_inconsistent([merged, cond], mode, "'Cond' tensor shape is not broadcastable."))
        return with_cond
    shape = merge_by_mode(other, then, mode, axis)
    shape = None if shape is None else merge_by_mode(shape, cond, mode, axis)
    if shape is None:
        findings.append(_inconsistent([cond, then, other], mode))
    return shape


# --- Broadcast and Tile --------------------------------------------------------------------

TARGET, AXES_MAPPING, REPEATS = 1, 2, 1
_PDPD_AXIS = {1: "mode.auto_broadcast_axis", 3: "mode.mode.axis"}


def _input_value_problem(call: OpCall, port: int, problem: str, ov_message: str) -> Finding:
    name = call.schema.inputs[port].name
    return Finding(rules.INPUT_VALUE, {"problem": f"{name} {problem}", "ov_message": ov_message}, port)


def _rank_1(call: OpCall, port: int, ov_message: str) -> list[Finding]:
    rank = call.inputs[port].shape.rank
    if rank in (None, 1):
        return []
    return _rank_finding(call, port, "a 1D tensor is expected", ov_message.format(rank=rank))


def _integral(call: OpCall, port: int, ov_message: str) -> list[Finding]:
    known = _known_type(call.inputs[port].element_type)
    if known is None or known in INTEGER:
        return []
    return [_type_finding(call, port, known, ov_message.format(type=known))]


def _value_unknown(call: OpCall, port: int, consequence: str) -> list[Finding]:
    """IRS306, once: the value that decides the output is not known."""
    from irshape.shapes.findings import value_unknown  # findings: imported where one is made

    name = call.schema.inputs[port].name
    return value_unknown(port, name, call.inputs[port], consequence, "it is not a Const irshape can read")


def _unknown_length_shape(tensor: Tensor) -> PartialShape:
    """What OpenVINO makes of a shape input whose value it cannot fold: one ``?`` per element
    when the input's length is static, else a dynamic rank."""
    shape = tensor.shape
    if shape.rank == 1 and shape[0].is_static:
        return PartialShape.dynamic(shape[0].value)
    return PartialShape(None)


def _consequence(shape: PartialShape) -> str:
    if shape.rank is None:
        return "the output's rank is unknown"
    return f"the output has {shape.rank} dims of unknown length"


@reading.reads(TARGET, how=reading.AS_SHAPE)
@reading.reads(AXES_MAPPING)
@moves_bounds(1, 2)
def broadcast(call: OpCall) -> OpResult:
    """Broadcast-1 and -3: the data broadcast to the target_shape input's value by ``mode``."""
    from irshape.shapes import bounds, values  # values and bounds: imported where used

    data = call.inputs[DATA]
    mode = call.attributes.enum("mode", "numpy")
    mode = "none" if mode == "explicit" else mode
    findings = _broadcast_inputs(call, mode)
    if any(f.rule is not rules.INPUT_ELEMENT_TYPE for f in findings):
        return OpResult([], findings)
    target_tensor = call.inputs[TARGET]
    # get_input_const_data_as_shape: the value, or Dimension(lower, upper) from its bounds;
    # failing both, a Concat's Const parts
    bounded_target = bounds.as_dims(target_tensor) if target_tensor.value is None else None
    # a Concat is looked through only where reading it did not fail (a bound below zero is
    # 'Value for partial shape evaluation can't be lower than zero.' first: by experiment)
    if bounded_target is None and target_tensor.value is None and target_tensor.value_error is None:
        bounded_target = _looked_through(target_tensor)
    if target_tensor.value is None and bounded_target is None:
        problems = _axes_count_problems(call, data.shape) if mode == "none" else []
        if problems:
            return OpResult([], findings + problems)
        shape = _unknown_target(data.shape, target_tensor, mode)
        findings += _value_unknown(call, TARGET, _consequence(shape))
        return OpResult([Output(shape, data.element_type)], findings)
    target = (
        PartialShape(bounded_target)
        if bounded_target is not None
        else PartialShape(Dim.of(v) for v in target_tensor.value or ())
    )
    shape, problems = _known_target(call, data.shape, target, mode)
    if problems:
        return OpResult([], findings + problems)
    value = None
    tensor = values.known(data)
    if mode == "none" and tensor is not None and shape.lengths is not None:
        tensor = _explicitly_placed(tensor, call.inputs[AXES_MAPPING].value, len(shape.lengths))
    if tensor is not None and mode != "pdpd" and shape.lengths is not None and not findings:
        value = values.moved(values.broadcast_to(tensor, shape.lengths))
    return OpResult([Output(shape, data.element_type, value=value)], findings)


def _explicitly_placed(tensor: values.Known, axes: tuple[int, ...] | None, rank: int) -> values.Known | None:
    """The data of an explicit Broadcast with its axes where ``axes_mapping`` places them in
    the output (1 elsewhere; the axes ascend, so the order of the elements stays), for numpy's
    broadcasting to finish; None when the mapping is not known or does not fit."""
    from irshape.shapes import values  # values and bounds: imported where used

    if axes is None or len(axes) != len(tensor.lengths) or list(axes) != sorted(set(axes)):
        return None
    if any(not 0 <= axis < rank for axis in axes):
        return None
    lengths = [1] * rank
    for axis, n in zip(axes, tensor.lengths, strict=True):
        lengths[axis] = n
    return values.Known(tensor.values, lengths)


def _looked_through(target: Tensor) -> list[Dim] | None:
    """``broadcast_base_shape_infer`` when the target has neither value nor bounds and is a 1D
    Concat with one element per input: a dim per Const input, its first value cast to size_t
    (a negative one saturates to 0) and read as an int64 Dimension (past INT64_MAX: 0 again;
    INT64_MAX itself is ``?``), and ``?`` for every other input."""
    if target.const_parts is None:
        return None
    return [
        DYNAMIC if v is None else Dim.of(max(0, v - (1 << 64) if v >= 1 << 63 else v))
        for v in target.const_parts
    ]


def _broadcast_inputs(call: OpCall, mode: str) -> list[Finding]:
    """The input count of the mode, the target's and axes' ranks and element types."""
    explicit = mode == "none"
    has_axes = len(call.inputs) > AXES_MAPPING
    findings: list[Finding] = []
    if explicit and not has_axes and call.schema.version == 3:  # Broadcast-1 goes without
        expected = "3 (data, target_shape, axes_mapping) in explicit mode"
        findings.append(
            Finding(
                rules.INPUT_COUNT,
                {
                    "op": call.schema.name,
                    "expected_count": expected,
                    "count": 2,
                    "consequence": "; OpenVINO rejects the layer "
                    "('axes_mapping input should be provided if explicit mode is used')",
                },
            )
        )
    elif has_axes and not explicit and call.schema.version == 3:
        expected = f"2 (data, target_shape) in {mode} mode"
        findings.append(
            Finding(
                rules.INPUT_COUNT,
                {
                    "op": call.schema.name,
                    "expected_count": expected,
                    "count": 3,
                    "consequence": "; OpenVINO rejects the layer "
                    "('axes_mapping input should not be provided for mode other than explicit')",
                },
            )
        )
    findings += _rank_1(call, TARGET, "Broadcast shape rank must be 1, but has {rank}")
    findings += _integral(call, TARGET, "Broadcast shape must be an integral number, but is: {type}")
    if explicit and has_axes:
        findings += _rank_1(call, AXES_MAPPING, "Broadcast axes rank must be 1, but has {rank}")
        findings += _integral(call, AXES_MAPPING, "Broadcast axes must be integral numbers, but are: {type}")
    return findings


def _unknown_target(data: PartialShape, target: Tensor, mode: str) -> PartialShape:
    """The output when the target's value is not known: one ``?`` per target element, or for
    bidirectional those merged with the data's shape numpy-style."""
    shape = _unknown_length_shape(target)
    if mode != "bidirectional":
        return shape
    if data.rank is None or shape.rank is None:
        return PartialShape(None)
    return numpy_broadcast(shape, data) or shape


def _known_target(
    call: OpCall, data: PartialShape, target: PartialShape, mode: str
) -> tuple[PartialShape, list[Finding]]:
    if mode == "none":
        return target, _explicit_problems(call, data, target) if len(call.inputs) > AXES_MAPPING else []
    if mode == "numpy":
        return target, _numpy_target_problems(data, target)
    if mode == "bidirectional":
        return _bidirectional(data, target)
    axis = call.attributes.values.get(_PDPD_AXIS[call.schema.version], 0)
    return _pdpd_target(data, target, axis if isinstance(axis, int) else 0)


def _axes_count_problems(call: OpCall, data: PartialShape) -> list[Finding]:
    """An explicit Broadcast's axes_mapping must hold one axis per data axis, whether the
    target is known or not (by experiment: a target from a Parameter, axes_mapping of 6 for data
    of rank 1, is rejected)."""
    axes_shape = call.inputs[AXES_MAPPING].shape
    if data.dims is None or axes_shape.rank != 1 or not axes_shape.is_static:
        return []
    count = axes_shape[0].value
    data_rank = 1 if len(data.dims) == 0 and count > 0 else len(data.dims)
    if count == data_rank:
        return []
    message = f"Broadcast axes_mapping shape {axes_shape} doesn't match rank of input tensor {data_rank}"
    return [
        _input_value_problem(call, AXES_MAPPING, f"has {count} axes for data of rank {data_rank}", message)
    ]


def _explicit_problems(call: OpCall, data: PartialShape, target: PartialShape) -> list[Finding]:
    """``validate_target_shape_none``: axes_mapping has one sorted axis of the target per
    data axis, each where the target's dim takes the data's."""
    axes_tensor = call.inputs[AXES_MAPPING]
    axes_shape = axes_tensor.shape
    if data.dims is None or axes_shape.rank != 1 or not axes_shape.is_static:
        return []
    count_problems = _axes_count_problems(call, data)
    if count_problems:
        return count_problems
    if axes_tensor.value is None:
        from irshape.shapes.findings import unreadable  # findings: imported where one is made

        return unreadable(AXES_MAPPING, "axes_mapping", axes_tensor)
    axes = [a % 2**64 for a in axes_tensor.value]  # read as size_t: a negative axis is huge
    return _explicit_axes_problems(call, data, target, axes)


def _explicit_axes_problems(
    call: OpCall, data: PartialShape, target: PartialShape, axes: list[int]
) -> list[Finding]:
    assert data.dims is not None and target.dims is not None
    rank = len(target.dims)
    if axes != sorted(axes):
        listed = ", ".join(map(str, axes))
        message = (
            f"Broadcast doesn't permit transposes. axes_mapping AxisVector{{{listed}}} not in sorted order"
        )
        return [_input_value_problem(call, AXES_MAPPING, f"{axes} is not sorted", message)]
    if not data.dims and axes and axes[0] < rank and not target[axes[0]].compatible(Dim.of(1)):
        message = f"Broadcast target[axes_mapping[0]]. Expected 1. Got {target[axes[0]]}"
        return [
            _input_value_problem(
                call, AXES_MAPPING, f"maps a scalar to target dim {target[axes[0]]}", message
            )
        ]
    for i, axis in enumerate(axes):
        if axis >= rank:
            message = f"Broadcast axes_mapping[{i}]: {axis} exceeds target rank {rank}"
            return [
                _input_value_problem(
                    call, AXES_MAPPING, f"axis {axis} is not below the target's rank {rank}", message
                )
            ]
        if data.dims and not (target[axis].compatible(data[i]) or data[i].compatible(Dim.of(1))):
            message = f"Broadcast target[axes_mapping[{i}]] Expected {data[i]}. Got {target[axis]}"
            problem = f"maps data axis {i} ({data[i]}) to target dim {target[axis]}"
            return [_input_value_problem(call, AXES_MAPPING, problem, message)]
    return []


def _numpy_target_problems(data: PartialShape, target: PartialShape) -> list[Finding]:
    """``validate_target_shape_numpy``: each data dim is 1 or the target's (where both are static)."""
    if data.dims is None or target.dims is None:
        return []
    if len(target.dims) < len(data.dims):
        from irshape.shapes.findings import incompatible  # findings: imported where one is made

        message = (
            f"Broadcast target_shape has smaller rank {len(target.dims)} than arg shape {len(data.dims)}"
        )
        problem = f"target_shape {target} has fewer axes than the data {data}"
        return [incompatible(problem, message)]
    start = len(target.dims) - len(data.dims)
    for i, d in enumerate(data.dims):
        t = target[start + i]
        one = Dim.of(1)
        if not d.is_static or not t.is_static or d.compatible(one) or d.compatible(t):
            continue
        from irshape.shapes.findings import incompatible  # findings: imported where one is made

        alternative = "" if t == one else f" or {t.value}"
        message = (
            f"Input shape dimension equal {d} cannot be broadcasted (numpy mode) to {t}. "
            f"Allowed input dimension value would be 1{alternative}"
        )
        problem = f"data {data} does not broadcast to target_shape {target} (numpy) at axis {start + i}"
        return [incompatible(problem, message)]
    return []


def _bidirectional(data: PartialShape, target: PartialShape) -> tuple[PartialShape, list[Finding]]:
    """``set_result_shape_bidirectional``: numpy broadcasting both ways."""
    if data.dims is None or target.dims is None:
        return PartialShape(None), []
    rank = max(len(data.dims), len(target.dims))
    padded_data = (Dim.of(1),) * (rank - len(data.dims)) + data.dims
    padded_target = (Dim.of(1),) * (rank - len(target.dims)) + target.dims
    dims = []
    for d, t in zip(padded_data, padded_target, strict=True):
        merged = numpy_broadcast(PartialShape([d]), PartialShape([t]))
        if merged is None:
            from irshape.shapes.findings import incompatible  # findings: imported where one is made

            message = f"Broadcast incorrect target shape. Expecting either 1 or {d}. Got {t}"
            problem = f"data {data} and target_shape {target} do not broadcast together (bidirectional)"
            return PartialShape(None), [incompatible(problem, message)]
        dims.append(merged[0])
    return PartialShape(dims), []


def _pdpd_target(data: PartialShape, target: PartialShape, axis: int) -> tuple[PartialShape, list[Finding]]:
    """``set_result_shape_pdpd``: the data laid over the target from the start axis."""
    if data.dims is None or target.dims is None:
        return PartialShape.dynamic(target.rank), []
    start = len(target.dims) - len(data.dims) if axis == -1 else axis
    if start < 0:
        return target, [_pdpd_problem(data, target, "Broadcast start_axis must be greater than 0")]
    dims = list(target.dims)
    one = Dim.of(1)
    for i in range(start, len(target.dims)):
        if i - start >= len(data.dims):
            return target, [_pdpd_problem(data, target, "Accessing out-of-range dimension")]
        d = data[i - start]
        if d == one:
            continue
        if target[i] == one:
            dims[i] = d
            continue
        merged = d & target[i]
        if merged.is_empty:
            message = f"Broadcast incorrect target shape. Expecting either 1 or {d} . Got {target[i]}"
            return target, [_pdpd_problem(data, target, message)]
        dims[i] = merged
    return PartialShape(dims), []


def _pdpd_problem(data: PartialShape, target: PartialShape, message: str) -> Finding:
    from irshape.shapes.findings import incompatible  # findings: imported where one is made

    problem = f"data {data} does not broadcast to target_shape {target} (pdpd)"
    return incompatible(problem, message)


@reading.reads(REPEATS, how=reading.TILE)
@moves_bounds(1)
def tile(call: OpCall) -> OpResult:
    """Tile-1: each data axis times its repeat (repeats aligned at the last axis; the longer
    of the two gives the rank; negative repeats count as 0)."""
    from irshape.shapes import bounds, values  # values and bounds: imported where used

    data, repeats = call.inputs[DATA], call.inputs[REPEATS]
    findings = _rank_1(call, REPEATS, "Tile repeats must be of rank 1")
    if findings:
        return OpResult([], findings)
    if repeats.value_error is not None:  # OpenVINO reads the repeats before it checks their type
        from irshape.shapes.findings import unreadable  # findings: imported where one is made

        return OpResult([], unreadable(REPEATS, "repeats", repeats))
    findings += _integral(call, REPEATS, "Tile repeats must have any integer element type, but has {type}")
    if data.shape.dims is None:
        return OpResult([Output(PartialShape(None), data.element_type)], findings)
    bounded_repeats = bounds.as_dims(repeats) if repeats.value is None else None
    if bounded_repeats is not None:  # each data dim times Dimension(lower, upper) of its repeat
        rank = max(len(bounded_repeats), len(data.shape.dims))
        times = [Dim.of(1)] * (rank - len(bounded_repeats)) + bounded_repeats
        data_dims = [Dim.of(1)] * (rank - len(data.shape.dims)) + list(data.shape.dims)
        shape = PartialShape(d * t for d, t in zip(data_dims, times, strict=True))
        return OpResult([Output(shape, data.element_type)], findings)
    if repeats.value is None:
        length = _unknown_length_shape(repeats).rank
        shape = (
            PartialShape(None) if length is None else PartialShape.dynamic(max(length, len(data.shape.dims)))
        )
        findings += _value_unknown(call, REPEATS, _consequence(shape))
        return OpResult([Output(shape, data.element_type)], findings)
    # as read: a negative repeat is 0, the rest int64 Dimensions (a u64's 2^64 - 1 is -1: ?)
    counts = list(repeats.value)
    rank = max(len(counts), len(data.shape.dims))
    counts = [1] * (rank - len(counts)) + counts
    times = [Dim.of(c) for c in counts]
    dims = times[: rank - len(data.shape.dims)]
    dims += [d * t for d, t in zip(data.shape.dims, times[rank - len(data.shape.dims) :], strict=True)]
    shape = PartialShape(dims)
    value = None
    tensor = values.known(data)
    if tensor is not None and shape.lengths is not None and min(counts) >= 0:
        value = values.moved(values.tile(tensor, counts))
    return OpResult([Output(shape, data.element_type, value=value)], findings)


# --- ConvertPromoteTypes -------------------------------------------------------------------


def convert_promote_types(call: OpCall) -> OpResult:
    """ConvertPromoteTypes-14: each input's shape, both in the common element type of the two
    (``promote_unsafe``, ``pytorch_scalar_promotion``, ``u64_integer_promotion_target``)."""
    from irshape.shapes.findings import type_finding  # a rare op: imported where used
    from irshape.shapes.promotion import PROMOTABLE, Promotion

    first, second = call.inputs
    types = [first.element_type, second.element_type]
    for port, element_type in enumerate(types):
        if element_type is not None and element_type not in PROMOTABLE:
            message = "Check 'is_type_supported(input_0_type) && is_type_supported(input_1_type)' failed"
            problem = f"input {port} has element type {element_type}, which ConvertPromoteTypes does not take"
            return OpResult([], [type_finding(problem, message, port)])
    common: str | None = None
    if types[0] is not None and types[1] is not None:
        promotion = Promotion(
            bool(call.attribute("promote_unsafe")),
            bool(call.attribute("pytorch_scalar_promotion")),
            str(call.attribute("u64_integer_promotion_target")),
        )
        common, failure = promotion.common(types[0], types[1], first.shape.rank, second.shape.rank)
        if failure is not None:
            problem = f"ConvertPromoteTypes cannot promote {types[0]} and {types[1]} with these attributes"
            return OpResult([], [type_finding(problem, failure)])
    outputs = []
    for data in (first, second):
        value, read = _converted(data, common)
        output = Output(data.shape, common, value=value)
        if read != value:
            from irshape.shapes import bounds  # values and bounds: imported where used

            bounds.read_apart(output, read)
        outputs.append(output)
    return OpResult(outputs)


# --- FakeConvert ---------------------------------------------------------------------------

_FAKE_CONVERT_TARGETS = ("f8e4m3", "f8e5m2")
_FAKE_CONVERT_TYPES = ("bf16", "f16", "f32", "dynamic")


def fake_convert(call: OpCall) -> OpResult:
    """FakeConvert-13: the data's shape broadcast-merged with the scale's (numpy, one way: the
    scale must not widen the data), in the data's type (bf16, f16 or f32, as every input)."""
    from irshape.shapes.findings import incompatible, type_finding  # a rare op: imported where used

    target = str(call.attribute("destination_type"))
    if target not in _FAKE_CONVERT_TARGETS:
        problem = f"destination_type is {target}, not f8e4m3 or f8e5m2"
        return OpResult([], [type_finding(problem, f"Bad format for f8 conversion type: {target}", AT_DATA)])
    merged, agree = _merge_all([tensor.element_type for tensor in call.inputs])
    if not agree:
        return OpResult(
            [], [type_finding("the inputs' element types differ", "Mixed input types are not supported.")]
        )
    if merged is not None and merged not in _FAKE_CONVERT_TYPES:
        message = f"The element type of the input tensor must be a bf16, f16, f32 but got: {merged}"
        return OpResult([], [_type_finding(call, 0, merged, message)])
    data, scale = call.inputs[0].shape, call.inputs[1].shape
    if len(call.inputs) > 2 and merge_shapes(scale, call.inputs[2].shape) is None:
        shift = call.inputs[2].shape
        message = f"FakeConvert scale shape: {scale} is not compatible with shift shape: {shift}"
        return OpResult([], [incompatible(f"scale {scale} and shift {shift} differ", message, 2)])
    output = numpy_broadcast(data, scale)
    if output is None:
        return OpResult([], [_inconsistent([data, scale], "numpy")])
    if merge_shapes(data, output) is None:
        message = (
            "FakeConvert support only unidirectional broadcasting, inputs cannot be broadcastd into data."
        )
        return OpResult([], [incompatible(f"the scale {scale} widens the data {data}", message, 1)])
    return OpResult([Output(output, merged)])
