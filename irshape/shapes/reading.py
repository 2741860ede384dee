"""How OpenVINO's shape inference reads an input's value as integers: the one conversion every
op that reads a value (axes, a target shape, steps, pads, k...) goes through.

OpenVINO reads a Const (or a value it folds from Consts) with ``get_raw_data_as<int64_t>``
(``src/core/shape_inference/include/utils.hpp``), which takes the element's storage type and
casts it (docs/openvino-ir-reading.md §6):

* integers are cast to int64: a u64 past 2^63 - 1 wraps to a negative (2^64 - 1 is -1); i4,
  u4 and nf4 are read as one signed byte an element (irshape's Const reading does that);
* f32 and f64 go through ``ov::util::Cast``, which truncates toward zero and saturates (NaN and
  anything from 2^63 up are INT64_MAX, anything below -2^63 INT64_MIN); f16 and bf16 are not
  ``std::is_floating_point``, so they are a plain ``static_cast``: truncated, and NaN, an
  infinity or anything outside the int64 range is INT64_MIN (x86's conversion);
* boolean, the f8 types, f4e2m1, u1, u2, u3, u6 and dynamic are not read at all ('Element not
  supported'), nor is a layer typed ``Constant``, which has no bytes ('ptr is Null').

Some ops read in other ways, each a :class:`Reading`: through the value's bounds (Reshape's
target, Pad's pads: a dynamic Const is then 'Tensor was not initialized.', a ``Constant`` with
no bytes simply unknown), or as a shape (``get_input_const_data_as_shape``: each element must
lie in the int64 range, 'Value 1e+30 not in range [...]'). A shape function declares what it
reads with :func:`reads`; its inputs then carry the value as read, or ``value_error`` (the
message OpenVINO fails with), which :func:`irshape.shapes.findings.value_unknown` reports
where the function needs the value.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

from irshape.ir.element_types import ELEMENT_TYPES
from irshape.ir.weights import CONSTANT_WITHOUT_BYTES, NOT_EVALUABLE
from irshape.ops.interface import ConstTensor, OpCall, OpResult, Origin, Output, Tensor, Unknown
from irshape.ops.schema import OpSchema
from irshape.record import FrozenRecord, set_field

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_TWO_63 = 2.0**63
_RANGE = f"[{INT64_MIN}:{INT64_MAX}]"
# What get_raw_data_as reads: every other element type is 'Element not supported'.
READ_TYPES = frozenset(
    {"bf16", "f16", "f32", "f64", "i4", "i8", "i16", "i32", "i64", "u4", "u8", "u16", "u32", "u64", "nf4"}
)
_PLAIN = frozenset({"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"})
_SUB_BYTE = frozenset({"i4", "u4", "nf4", "u1", "u2", "u3", "u6"})
_SATURATING = frozenset({"f32", "f64"})  # std::is_floating_point: ov::util::Cast saturates
NOT_SUPPORTED = "Element not supported"


class Reading(FrozenRecord):
    """One way an op reads a value input: how each element becomes an int64, and what OpenVINO
    says when it cannot read a Const of dynamic element type. (A layer typed 'Constant' is judged
    by :func:`constant_failure`, from the declaration.)"""

    __slots__ = ("as_partial_shape", "convert", "dynamic", "name", "typed")
    name: str
    # each integer: "cast" (ov::util::Cast: a u64 wraps), "in_range" (InTypeRange: a u64 past
    # 2^63 - 1 fails), "negative_to_zero" (Tile's), "as_is" (the value the type defines, and a
    # real's reals)
    convert: str
    dynamic: str  # the message for a Const of dynamic element type
    # Constant::cast_vector rather than get_raw_data_as: the type's own values (an i4's signed
    # nibbles, an nf4's unsigned ones; u1, u2, u3 and u6 read too, but not by irshape: unknown)
    typed: bool
    # an input computed by an op (not a Const node) is read by evaluate_as_partial_shape, which
    # fails on a value or bound below zero (NEGATIVE_SHAPE_VALUE); a Const's value is read as is
    as_partial_shape: bool

    def __init__(
        self,
        name: str,
        convert: str,
        dynamic: str,
        typed: bool = False,
        as_partial_shape: bool = False,
    ) -> None:
        set_field(self, "name", name)
        set_field(self, "convert", convert)
        set_field(self, "dynamic", dynamic)
        set_field(self, "typed", typed)
        set_field(self, "as_partial_shape", as_partial_shape)


# get_input_const_data_as<int64_t>: the value itself (Unsqueeze's axes, StridedSlice's strides...)
DIRECT = Reading("direct", "cast", NOT_SUPPORTED)
# get_input_const_data_as_shape: each element in the int64 range (Broadcast's target shape...)
AS_SHAPE = Reading("as_shape", "in_range", NOT_SUPPORTED, as_partial_shape=True)
# ...with Tile's NegativeToZero: a negative element (of the Const's own type) is 0, the rest cast
TILE = Reading("tile", "negative_to_zero", NOT_SUPPORTED, as_partial_shape=True)
# TopK's k (and OneHot's depth): a Const's value as get_input_const_data_as reads it, a
# computed one as a shape
TOPK_K = Reading("topk_k", "cast", NOT_SUPPORTED, as_partial_shape=True)
# get_input_bounds / evaluate_as_partial_shape: the value's bounds (Reshape's target, pads...)
BOUNDS = Reading("bounds", "cast", "Tensor was not initialized.")
# the backprop ops' output_shape: its bounds, but a Constant with no bytes is read directly
OUTPUT_SHAPE = Reading("output_shape", "cast", "Tensor was not initialized.")
# Constant::cast_vector<int64_t> (LRN's axes, ScatterUpdate's axis)
CAST_VECTOR = Reading("cast_vector", "cast", NOT_SUPPORTED, typed=True)
# Reverse's axes, Range's start, stop and step: each as its type defines it (a u64's 2^64 - 1 is
# out of Reverse's range, not -1; a real Range's values are reals)
AS_IS = Reading("as_is", "as_is", NOT_SUPPORTED)
# the value constant-folded (NormalizeL2's axes): a tensor of the Const's type is made first
FOLDED = Reading(
    "folded", "cast", "Check 'm_element_type.is_static()' failed at src/inference/src/dev/make_tensor.cpp"
)


def constant_failure(schema: OpSchema, port: int, how: Reading | None = None) -> str | None:
    """The one judgment of a layer typed 'Constant' (no bytes, docs/openvino-ir-reading.md §13)
    as input ``port``: OpenVINO's message where reading it fails (the declaration's
    ``no_value_message``: 'ptr is Null' where the value itself is read, 'Tensor was not
    initialized.' where it is folded first), None where its value is merely unknown: read
    through its bounds (the declaration's ``bounds_inputs``), or by ``Constant::cast_vector``
    (``how.typed``: read_model crashes there, irshape says nothing). Both the reading below
    (:func:`read_input`, ``@reads``) and the check of the inputs OpenVINO evaluates whatever the
    shapes (``irshape.check.layer``) ask it."""
    if port in schema.bounds_inputs or (how is not None and how.typed):
        return None
    return schema.no_value_message


def read_input(call: OpCall, port: int, how: Reading = DIRECT) -> Tensor:
    """Input ``port`` of the call as the op reads it ``how`` it says (see :func:`read`)."""
    return read(call.inputs[port], how, constant_failure(call.schema, port, how))


def read(tensor: Tensor, how: Reading = DIRECT, no_bytes: str | None = None) -> Tensor:
    """``tensor`` as the op reads it: its ``value`` the int64 values OpenVINO reads (a real
    Const's too), or ``value_error`` set to OpenVINO's message when reading it fails (a layer
    typed 'Constant': ``no_bytes``, from :func:`constant_failure`; None: its value unknown). A
    tensor whose value OpenVINO does not have either (a Parameter's) is returned as it is."""
    element_type = tensor.element_type or ""
    unknown = tensor.unknown
    if unknown is Unknown.FOLD_FAILED:
        return _failed(tensor, _FOLD_MESSAGE)
    if unknown is Unknown.NO_BYTES:
        return tensor if no_bytes is None else _failed(tensor, no_bytes)
    if unknown is Unknown.EVALUATION_FAILS:
        return _failed(tensor, tensor.facts.why or "")
    if how.as_partial_shape and not isinstance(tensor, ConstTensor) and below_zero(tensor):
        return _failed(tensor, NEGATIVE_SHAPE_VALUE)
    if how.typed and element_type in _SUB_BYTE:
        return _typed(tensor, element_type)
    if _held_unread(tensor) or (tensor.value is not None and _unread_type(element_type)):
        if element_type == "dynamic":
            return _failed(tensor, how.dynamic)
        return _failed(tensor, NOT_EVALUABLE.get(element_type, NOT_SUPPORTED))
    if tensor.value is None and tensor.reals is not None and how.convert != "as_is":
        return _from_reals(tensor, tensor.reals, element_type, how)
    if tensor.value is not None and how.convert == "as_is":
        return tensor
    if tensor.value is not None and how.convert == "negative_to_zero":
        return tensor.replace(value=tuple(0 if v < 0 else _wrapped(v) for v in tensor.value))
    if tensor.value is not None and any(v > INT64_MAX for v in tensor.value):  # a u64 past 2^63 - 1
        if how.convert == "in_range":
            wide = next(v for v in tensor.value if v > INT64_MAX)
            return _failed(tensor, f"Value {wide} not in range {_RANGE}")
        return tensor.replace(value=tuple(_wrapped(v) for v in tensor.value))
    return tensor


NEGATIVE_SHAPE_VALUE = "Value for partial shape evaluation can't be lower than zero."


def below_zero(tensor: Tensor) -> bool:
    """``evaluate_as_partial_shape``'s check: is a value, or a lower or upper bound, below zero
    as int64 reads it (a u64 past 2^63 - 1 wraps: an unbounded u64's maximum is -1)?"""
    if tensor.value is not None:
        return any(v < 0 or v > INT64_MAX for v in tensor.value)
    if tensor.lower is None or tensor.upper is None:
        return False
    return any(v < 0 or v > INT64_MAX for v in (*tensor.lower, *tensor.upper))


def _typed(tensor: Tensor, element_type: str) -> Tensor:
    """A sub-byte Const as cast_vector reads it: an i4's, u4's or nf4's nibbles (low one first;
    an nf4's as u4's, by experiment) from the bytes irshape read, the other types' unknown."""
    if tensor.value is None or element_type not in ("i4", "u4", "nf4"):
        return tensor.replace(value=None, lower=None, upper=None, unknown=Unknown.NOT_CAST, why=element_type)
    nibbles = [
        (tensor.value[i // 2] & 0xF0) >> 4 if i % 2 else tensor.value[i // 2] & 0xF
        for i in range(len(tensor.value))
    ]
    if element_type == "i4":
        nibbles = [n - 16 if n >= 8 else n for n in nibbles]
    return tensor.replace(value=tuple(nibbles))


def _wrapped(v: int) -> int:
    """``static_cast<int64_t>`` of an integer: a u64 past 2^63 - 1 wraps to a negative."""
    return v - 2**64 if v > INT64_MAX else v


def fails_evaluating(output: Output, message: str) -> None:
    """The output's value is one whose evaluation fails with OpenVINO's ``message`` (a
    scatter's index out of range): any op that evaluates it fails so."""
    output.unknown_as(Unknown.EVALUATION_FAILS, message)


def _evaluation_failed(tensor: Tensor | Output) -> bool:
    return tensor.unknown is Unknown.EVALUATION_FAILS


# What OpenVINO's constant folding of an op fed by a Const of dynamic element type gives
# (Unknown.FOLD_FAILED): no tensor ('Tensor was not initialized.'), where a consumer reads the
# folded value.
_FOLD_MESSAGE = "Tensor was not initialized."
# Ops whose output is their data input's elements, unchanged: folded, a Const of a type
# OpenVINO does not read stays one (a u1 Const reshaped is still 'Element not supported').
_MOVES_DATA = frozenset({"Reshape", "Squeeze", "Unsqueeze"})
# Ops OpenVINO never folds (can_constant_fold is false): a ReadValue of a Const is a variable.
_NEVER_FOLDED = frozenset({"ReadValue", "Assign"})


def fold(call: OpCall, result: OpResult) -> None:
    """What OpenVINO's constant folding leaves of the outputs of an op fed by Consts only, where
    irshape has no value for them (by experiment, docs/openvino-ir-reading.md §6.1): they are
    constants too; folding fails when one input is of dynamic type, or itself failed
    (``Unknown.FOLD_FAILED``); a Reshape, Squeeze, Unsqueeze (or a Concat) of a Const OpenVINO holds
    but does not read, or of a ``Constant`` with no bytes, passes it on."""
    inputs = call.inputs
    origin = _origin(call.schema.op, inputs)
    for output in result.outputs:
        output.origin = origin
    if not inputs or not result.outputs:
        return
    if origin is not Origin.DATA and any(_evaluation_failed(t) for t in inputs):
        _pass_evaluation_failure(inputs, result)
    if not all(held(t) for t in inputs):
        return
    if call.schema.op in _NEVER_FOLDED:
        return
    for output in result.outputs:
        output.constant = True
    if any(o.value is not None for o in result.outputs):
        return
    if any(_fails_folding(t) for t in inputs):
        for output in result.outputs:
            output.unknown_as(Unknown.FOLD_FAILED)
    elif call.schema.op in _MOVES_DATA and (_held_unread(inputs[0]) or _no_bytes(inputs[0])):
        output = result.outputs[0]
        if output.element_type == inputs[0].element_type:
            output.unknown_as(inputs[0].unknown, inputs[0].facts.why)
    elif call.schema.op == "Concat" and all(_held_unread(t) for t in inputs):
        output = result.outputs[0]
        if all(t.element_type == output.element_type for t in inputs):
            output.unknown_as(inputs[0].unknown, inputs[0].facts.why)


def _origin(op: str, inputs: Sequence[Tensor]) -> Origin:
    """What OpenVINO's evaluation of an op's outputs reaches (``Tensor.origin``): a ShapeOf's
    is its input's shape (a Const's folds, any other's is evaluated from the ShapeOf); an op
    with no input (but a Const, made elsewhere) or a variable reaches data; any other op, the
    least its inputs reach."""
    if op == "ShapeOf":
        return Origin.CONSTS if inputs and inputs[0].origin is Origin.CONSTS else Origin.SHAPES
    if not inputs or op in _NEVER_FOLDED:
        return Origin.DATA
    return min(t.origin for t in inputs)


def _pass_evaluation_failure(inputs: Sequence[Tensor], result: OpResult) -> None:
    """An op computed from a value whose evaluation fails, and from others OpenVINO can
    evaluate (no Parameter's data), fails evaluating too, wherever its own value or bounds are
    evaluated; an output known by value or bounds (a ShapeOf's) does not evaluate it.

    OpenVINO evaluates the op's inputs one after the other (``evaluate_bound``, inputs in
    order, each one's own inputs first) and gives up at the first op it has no bounds of: so an
    input after the failing one does not matter, but one before it must have bounds, which
    irshape knows only where it knows them too (a real-valued bound it does not carry may hide
    a failure: a wider answer, never a false error)."""
    for tensor in inputs:
        if _evaluation_failed(tensor):
            failure = tensor.facts.why or ""
            break
        if not (tensor.constant or _evaluated(tensor)):
            return
    else:
        return
    for output in result.outputs:
        if output.value is None and output.lower is None:
            fails_evaluating(output, failure)


def _evaluated(tensor: Tensor) -> bool:
    """Does irshape know the tensor's value or bounds (so OpenVINO evaluates it too)?"""
    return not (
        tensor.value is None and tensor.lower is None and tensor.reals is None and tensor.real_lower is None
    )


def _fails_folding(tensor: Tensor) -> bool:
    """A Const of dynamic type, or a value whose folding failed: no tensor can be made of it."""
    return tensor.unknown is Unknown.FOLD_FAILED or (
        tensor.element_type == "dynamic" and _held_unread(tensor)
    )


def held(tensor: Tensor) -> bool:
    """Does OpenVINO hold the tensor's data (a Const's, or folded from Consts)?"""
    return tensor.constant or tensor.value is not None


def _no_bytes(tensor: Tensor) -> bool:
    """A layer typed 'Constant' (or a Reshape of one...): data of no bytes, though not empty."""
    lengths = tensor.shape.lengths
    return tensor.unknown is Unknown.NO_BYTES and lengths is not None and math.prod(lengths) > 0


# What IR v10's reading folds without reading the data: a ShapeOf (the shape only), and the
# ops whose folded Constant shares its input's data (by experiment; docs §13)
_V10_FOLDS_WITHOUT_DATA = frozenset({"ShapeOf", "Reshape", "Squeeze", "Unsqueeze", "Result"})
V10_NULL_DATA = (
    "Check 'shape_size(shape) == 0 || m_ptr != nullptr' failed at src/inference/src/dev/make_tensor.cpp"
)


V10_DYNAMIC = "Check 'm_element_type.is_static()' failed at src/inference/src/dev/make_tensor.cpp"


def v10_fold_failure(op: str, inputs: Sequence[Tensor]) -> tuple[int, str] | None:
    """IR v10's reading constant-folds every op whose inputs are all constants, reading their
    data: the input (its index) where that fails, with OpenVINO's message (a ``Constant`` with
    no bytes: :data:`V10_NULL_DATA`; a Const of dynamic type: :data:`V10_DYNAMIC`); None where
    it does not."""
    if op in _V10_FOLDS_WITHOUT_DATA or not inputs or not all(held(t) for t in inputs):
        return None
    for port, tensor in enumerate(inputs):
        if _no_bytes(tensor):
            return port, V10_NULL_DATA
        if _fails_folding(tensor):
            return port, V10_DYNAMIC
    return None


def v10_evaluation_failure(inputs: Sequence[Tensor], outputs: Sequence[Output]) -> str | None:
    """IR v10's reading folds an op whose inputs are all computed from Consts, evaluating it:
    OpenVINO's message where that evaluation fails (a scatter's index out of range), at the op
    it starts from; None elsewhere (a ShapeOf of a Parameter is not folded there)."""
    if not inputs or any(t.origin is not Origin.CONSTS or _evaluation_failed(t) for t in inputs):
        return None
    return next((o.facts.why or "" for o in outputs if _evaluation_failed(o)), None)


def any_read_apart(inputs: Sequence[Tensor]) -> bool:
    """Does shape inference read another value of an input than its value, evaluate's (a
    Convert of a type's maximum above it: :func:`irshape.shapes.bounds.infer_apart`)?"""
    for tensor in inputs:
        facts = tensor.facts
        if (facts.lower is not None and facts.value is not None) or (
            facts.real_lower is not None and facts.reals is not None
        ):
            return True
    return False


READS = "irshape_reads"  # the attribute of a shape function that says what @reads it reads


def reads(
    *ports: int, how: Reading = DIRECT
) -> Callable[[Callable[[OpCall], OpResult]], Callable[[OpCall], OpResult]]:
    """A shape function whose input ``ports`` OpenVINO reads as integers ``how`` it says: the
    function sees them as :func:`read` gives them."""

    def decorate(function: Callable[[OpCall], OpResult]) -> Callable[[OpCall], OpResult]:
        @functools.wraps(function)
        def shape_function(call: OpCall) -> OpResult:
            inputs = call.inputs
            if not any(port < len(inputs) and _converts(inputs[port]) for port in ports):
                return function(call)  # the usual case: integer Consts, nothing to convert
            converted = tuple(
                read(t, how, constant_failure(call.schema, i, how)) if i in ports else t
                for i, t in enumerate(inputs)
            )
            return function(OpCall(call.schema, converted, call.attributes))

        # what the function reads, by port, for the declarations to be checked against (the
        # decorators stack: functools.wraps carries the inner ones' on)
        readings: dict[int, Reading] = {**getattr(function, READS, {}), **dict.fromkeys(ports, how)}
        setattr(shape_function, READS, readings)
        return shape_function

    return decorate


def _converts(tensor: Tensor) -> bool:
    """Might :func:`read` change anything about ``tensor``? (Not for the usual i32 or i64 Const
    of non-negative values.)"""
    value = tensor.value
    if value is None:
        return tensor.unknown is not None or tensor.reals is not None or below_zero(tensor)
    return tensor.element_type not in _PLAIN or min(value, default=0) < 0 or max(value, default=0) > INT64_MAX


def _unread_type(element_type: str) -> bool:
    """A type OpenVINO names whose values get_raw_data_as does not read (not an unknown one)."""
    return element_type in ELEMENT_TYPES and element_type not in READ_TYPES


def problem(tensor: Tensor) -> str:
    """What is wrong with an input whose reading failed (``value_error``), for a finding:
    "input 1 (axes) " and this."""
    if tensor.unknown is Unknown.NO_BYTES:
        return f"is {CONSTANT_WITHOUT_BYTES}, so it has no value to read"
    if tensor.value_error == NEGATIVE_SHAPE_VALUE:
        return "is computed, and OpenVINO's evaluation of it gives a value (or bound) below zero"
    if _evaluation_failed(tensor):
        return "is computed from a scatter OpenVINO fails to evaluate"
    if (tensor.value_error or "").startswith("Value "):
        return "holds a value outside the int64 range it is read as"
    return f"is of element type {tensor.element_type}, whose values OpenVINO does not read"


def _held_unread(tensor: Tensor) -> bool:
    """A Const OpenVINO holds but irshape did not read (its element type is not one it reads)."""
    return tensor.unknown is Unknown.NOT_EVALUABLE and tensor.facts.why == tensor.element_type


def _failed(tensor: Tensor, message: str) -> Tensor:
    return tensor.replace(value=None, lower=None, upper=None, value_error=message)


def _from_reals(tensor: Tensor, reals: Sequence[float], element_type: str, how: Reading) -> Tensor:
    if how.convert == "in_range":
        # InTypeRange<int64_t>: the check compares as floating point (NaN passes it), then a
        # static_cast
        wide = next((v for v in reals if v < -_TWO_63 or v > _TWO_63), None)
        if wide is not None:
            return _failed(tensor, f"Value {wide:g} not in range {_RANGE}")
        return tensor.replace(value=tuple(static_cast(v) for v in reals))
    if how.convert == "negative_to_zero":
        return tensor.replace(value=tuple(0 if v < 0 else static_cast(v) for v in reals))
    cast = saturating_cast if element_type in _SATURATING else static_cast
    return tensor.replace(value=tuple(cast(v) for v in reals))


def saturating_cast(v: float) -> int:
    """``ov::util::Cast<int64_t>`` of a float or double: truncated, clamped to the int64 range;
    NaN is the maximum (it is not below it)."""
    if not v < _TWO_63:
        return INT64_MAX
    if v < -_TWO_63:
        return INT64_MIN
    return int(v)


def static_cast(v: float) -> int:
    """``static_cast<int64_t>`` of a floating-point value on x86: truncated; NaN, infinities
    and values outside the int64 range are INT64_MIN (the 'integer indefinite' value)."""
    if math.isnan(v) or not -_TWO_63 <= v < _TWO_63:
        return INT64_MIN
    return int(v)
