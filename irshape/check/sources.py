"""The graph's sources: a Parameter's tensor from its ``shape`` and ``element_type``, a Const's
from its attributes and the ``.bin`` (its bytes checked, small integer and real values read),
each checked against the output port the file declares."""

from __future__ import annotations

import math
from collections.abc import Callable

from irshape import rules
from irshape.check.graph import declared_tensor, fits, port_static_shape, port_text
from irshape.diagnostics import Diagnostic, Location, Severity
from irshape.dims import (
    INF,
    Dim,
    DimSyntaxError,
    PartialShape,
    int64,
    literal_reading,
    parse_dim,
    parse_partial_shape,
)
from irshape.ir import element_types
from irshape.ir.model import Layer
from irshape.ir.values import C_SPACE, ListSyntaxError, parse_int_list, parse_uint
from irshape.ir.weights import SIZE_T, NotEvaluable, Weights, WeightsError, bytes_needed, element_count
from irshape.ops.interface import ConstTensor, Origin, Tensor, Unknown, Value
from irshape.record import Record

Report = Callable[[Diagnostic], None]

_REAL_TYPES = frozenset({"f16", "f32", "f64", "bf16"})  # read as reals: scales, eps, axes...
_CONST_VALUE_LIMIT = 64  # read Const values only for small integer tensors (shapes, axes, indices)
_HELD = Value(constant=True, origin=Origin.CONSTS)  # what a Const's tensor is before its value


# --- Parameter ------------------------------------------------------------------------------


def parameter_tensor(layer: Layer, where: Location, report: Report, ir_version: int | None = None) -> Tensor:
    """The Parameter's tensor as OpenVINO reads it: shape and element_type from <data>."""
    if not layer.has_data:
        report(
            rules.DATA_MISSING(
                where,
                layer_type="Parameter",
                ov_message=f"Layer data must be defined for: opset1::Parameter {layer.name} ...",
            )
        )
        return _fallback(layer)
    at = where.at_line(layer.data_line)
    element_type = _parameter_element_type(layer, at, report)
    written = "element_type" in layer.data  # a missing one is reported once, as IRS417
    text = layer.data.get("shape")
    if text is None:
        report(rules.PARAMETER_ATTRIBUTE_MISSING(at, attribute="shape", meaning="a scalar (rank 0)"))
        return Tensor(PartialShape([]), element_type)
    try:
        shape = parse_partial_shape(text)
    except DimSyntaxError as exc:
        report(rules.SHAPE_SYNTAX(at, layer_type="Parameter", attribute="shape", text=text, reason=str(exc)))
        return _fallback(layer)
    _report_surprising_literals(text, at, report, v10=ir_version == 10)
    compare_shape_attribute(layer, text, shape, at, report)
    compare_precision(layer, element_type if written else None, at, report)
    return Tensor(shape, element_type)


def _report_surprising_literals(text: str, where: Location, report: Report, *, v10: bool = False) -> None:
    """IRS011: dims that OpenVINO's parser clips or empties instead of rejecting. IR v10 fails
    on an empty interval (its Parameter is rebuilt with the shape, which then differs)."""
    body = text.strip(C_SPACE).strip("[]").strip(C_SPACE)
    if body in ("", "..."):  # a scalar, a dynamic rank: no dims
        return
    for literal in body.split(","):
        reading = literal_reading(literal)
        if reading is None:
            continue
        severity = None
        if v10 and parse_dim(literal).is_empty:
            severity = Severity.ERROR
            reading += (
                "; IR v10 rejects the file ('Resulting shape ... after preprocessing is not aligned "
                "with original parameter's shape')"
            )
        literal = literal.strip(C_SPACE)
        report(rules.SHAPE_LITERAL(where, text=text, literal=literal, reading=reading, severity=severity))


def _fallback(layer: Layer) -> Tensor:
    """What flows on when OpenVINO would fail: the declared port, so nothing cascades."""
    return declared_tensor(layer.outputs[0]) if layer.outputs else Tensor(PartialShape(None))


def _parameter_element_type(layer: Layer, where: Location, report: Report) -> str | None:
    text = layer.data.get("element_type")
    if text is None:
        meaning = "dynamic-typed (the port precision is not used)"
        report(rules.PARAMETER_ATTRIBUTE_MISSING(where, attribute="element_type", meaning=meaning))
        return "dynamic"
    element_type = element_types.from_element_type(text)
    if element_type is None:
        report(
            rules.ELEMENT_TYPE_INVALID(
                where,
                layer_type="Parameter",
                text=text,
                ov_message=f'"{text}" is not a member of enum element::Type_t',
                hint=_element_type_hint(text),
            )
        )
    elif "offset" in layer.data and "size" in layer.data and element_types.from_precision(text) is None:
        # With an offset and a size, OpenVINO also reads the type as a Const's, by
        # element::Type's own names (docs/openvino-ir-reading.md §4).
        ov_message = f"Unsupported element type: {text}"
        report(
            rules.ELEMENT_TYPE_INVALID(
                where, layer_type="Parameter", text=text, ov_message=ov_message, hint=""
            )
        )
        return None
    return element_type


def _element_type_hint(text: str) -> str:
    meant = element_types.from_precision(text) or element_types.from_element_type(text.strip())
    return f"; write {meant}" if meant else ""


def compare_shape_attribute(
    layer: Layer, text: str, shape: PartialShape, where: Location, report: Report
) -> None:
    """IRS416: the shape attribute OpenVINO uses against the port dims it ignores."""
    if not layer.outputs:
        return
    port = layer.outputs[0]
    if fits(port, shape):
        return
    report(
        rules.SHAPE_ATTRIBUTE_MISMATCH(
            where,
            port=port.id,
            layer_type=layer.type,
            text=text,
            shape=shape,
            declared=port_text(port),
            expected=str(shape),
        )
    )


def compare_precision(layer: Layer, element_type: str | None, where: Location, report: Report) -> None:
    """IRS415: element_type (used) against the port precision (ignored)."""
    if element_type is None or not layer.outputs:
        return
    port = layer.outputs[0]
    named = element_types.from_precision(port.precision)
    if named is None or element_types.same(named, element_type):
        return
    report(
        rules.ELEMENT_TYPE_PRECISION_MISMATCH(
            where, port=port.id, element_type=element_type, precision=port.precision, named=named
        )
    )


# --- Const and the .bin -----------------------------------------------------------------------


class _ConstData(Record):  # made once a Const
    __slots__ = ("element_type", "offset", "shape", "size")
    element_type: str | None
    shape: tuple[int, ...] | None
    offset: int | None
    size: int | None

    def __init__(
        self, element_type: str | None, shape: tuple[int, ...] | None, offset: int | None, size: int | None
    ) -> None:
        self.element_type = element_type
        self.shape = shape
        self.offset = offset
        self.size = size


# A model repeats a few Const types and shapes. A Const check that reports nothing depends, but
# for the offset and size (and the value they point at), on its element_type and shape texts
# and its output port: what it found is kept and shared by the Consts that repeat them with an
# offset and size that read and fit. A Const whose value is read gets its own tensor, its value
# read at its own offset. Bounded like the convolution memo.
# -> (the tensor, the bytes it needs, whether its value is read)
_CLEAN_CONSTS: dict[tuple[object, ...], tuple[Tensor, int, bool]] = {}
_CLEAN_CONSTS_MAX = 4096
# Clean Consts by value (see _valued), bounded like the memo.
_SHARED_VALUES: dict[tuple[object, ...], Tensor] = {}
_CONST_KEY_TEXT_MAX = 512


def const_tensor(layer: Layer, path: str, weights: Weights, report: Report) -> Tensor:
    """The Const's tensor as OpenVINO reads it, with every check of its <data> and bytes
    (``path``: the document's, for findings)."""
    if layer.type == "Constant":
        return _constant_without_bytes(layer, layer.location(path), report)
    key = _const_key(layer)
    hit = _CLEAN_CONSTS.get(key) if key is not None else None
    where_bytes = _bytes_fit(layer, hit[1], weights) if hit is not None else None
    if hit is not None and where_bytes is not None:
        tensor, _, value_read = hit
        if not value_read:
            return tensor
        valued = _valued(tensor, *where_bytes, weights)
        if valued is not None:
            return valued
    found: list[Diagnostic] = []
    info = _const_tensor(layer, layer.location(path), weights, found.append)
    for diagnostic in found:
        report(diagnostic)
    if (
        key is not None
        and not found
        and info.unknown in (None, Unknown.NOT_EVALUABLE)
        and info.element_type != "string"  # (its bytes are checked, Const by Const)
        and info.shape.lengths is not None
    ):
        if len(_CLEAN_CONSTS) >= _CLEAN_CONSTS_MAX:
            _CLEAN_CONSTS.clear()
        assert info.element_type is not None  # checked clean
        needed = bytes_needed(info.element_type, element_count(info.shape.lengths))
        value_read = info.value is not None or info.reals is not None
        template = Tensor(info.shape, info.element_type, facts=_HELD) if value_read else info
        _CLEAN_CONSTS[key] = (template, needed or 0, value_read)
    return info


def _valued(template: Tensor, offset: int, size: int, weights: Weights) -> Tensor | None:
    """A clean Const like ``template`` with its own value read at ``offset`` (None: it cannot
    be read). Consts of one value share one tensor (never modified), so the layers they feed
    repeat one another's check (the walk knows a repeat by its input tensors' identities)."""
    info = ConstTensor(template.shape, template.element_type, facts=_HELD)
    _read_value(_ConstData(template.element_type, template.shape.lengths, offset, size), weights, info)
    if info.unknown is not None:
        return None
    key = (info.element_type, info.shape, info.value, info.reals)
    shared = _SHARED_VALUES.get(key)
    if shared is None:
        if len(_SHARED_VALUES) >= _CLEAN_CONSTS_MAX:
            _SHARED_VALUES.clear()
        shared = _SHARED_VALUES[key] = info
    return shared


def _constant_without_bytes(layer: Layer, where: Location, report: Report) -> Tensor:
    """A layer typed 'Constant' (the op's name; the IR's is 'Const'): OpenVINO builds the op
    from its element_type and shape but reads no bytes for it (its reader fills a Constant's
    value only for type 'Const'), so offset and size are not checked and its value is never
    known; evaluated, it fails ('ptr is Null'). docs/openvino-ir-reading.md §13."""
    if not layer.has_data:
        report(
            rules.DATA_MISSING(
                where, layer_type="Constant", ov_message="No attrtibutes defined for Constant op!"
            )
        )
        return _fallback(layer)
    at = where.at_line(layer.data_line)
    # Either attribute may be missing: the op's defaults then stand (a dynamic type, shape []).
    element_type = _const_element_type(layer, at, report) if "element_type" in layer.data else "dynamic"
    shape = _const_shape(layer, at, report) if "shape" in layer.data else ()
    if shape is None:
        return _fallback(layer)
    return Tensor(
        _const_partial_shape(shape),
        element_type,
        value_unknown=Unknown.NO_BYTES,
        constant=True,
        origin=Origin.CONSTS,
    )


def _const_key(layer: Layer) -> tuple[object, ...] | None:
    """What a clean Const check reads but the offset and size (None: not kept)."""
    if not layer.has_data or not layer.outputs:
        return None
    element_type, shape = layer.data.get("element_type"), layer.data.get("shape")
    if element_type is None or shape is None or len(shape) + len(element_type) > _CONST_KEY_TEXT_MAX:
        return None
    port = layer.outputs[0]
    return element_type, shape, port.dims, port.precision


def _bytes_fit(layer: Layer, needed: int, weights: Weights) -> tuple[int, int] | None:
    """The Const's offset and size, if they read, hold ``needed`` bytes and lie inside the .bin."""
    offset, size = parse_uint(layer.data.get("offset")), parse_uint(layer.data.get("size"))
    if offset is None or size is None or size < needed or _beyond_bin(offset, size, weights):
        return None
    return offset, size


def _const_tensor(layer: Layer, where: Location, weights: Weights, report: Report) -> Tensor:
    if not layer.has_data:
        ov_message = "No attrtibutes defined for Const op!"  # sic, OpenVINO's spelling
        report(rules.DATA_MISSING(where, layer_type="Const", ov_message=ov_message))
        return _fallback(layer)
    at = where.at_line(layer.data_line)
    errors_before = _ErrorCount(report)
    const = _ConstData(
        _const_element_type(layer, at, errors_before),
        _const_shape(layer, at, errors_before),
        _const_uint(layer, "offset", at, errors_before),
        _const_uint(layer, "size", at, errors_before),
    )
    _check_const_size(const, at, errors_before)
    _check_const_bounds(const, weights, at, errors_before)
    _check_string_bytes(const, weights, at, errors_before)
    if const.shape is None:
        return _fallback(layer)
    info = ConstTensor(_const_partial_shape(const.shape), const.element_type, facts=_HELD)
    compare_shape_attribute(layer, layer.data.get("shape", ""), info.shape, at, report)
    compare_precision(layer, const.element_type, at, report)
    _read_value(const, weights, info)
    # Why the value is unknown is already said: by this Const's error, or once for the .bin.
    if info.unknown is not None and (errors_before.count > 0 or weights.unavailable_reason() is not None):
        info.value_reported = True
    return info


class _ErrorCount:
    """A report that counts the errors passing through it."""

    __slots__ = ("count", "report")

    def __init__(self, report: Report) -> None:
        self.report, self.count = report, 0

    def __call__(self, diagnostic: Diagnostic) -> None:
        self.count += diagnostic.severity is Severity.ERROR
        self.report(diagnostic)


def _const_element_type(layer: Layer, where: Location, report: Report) -> str | None:
    text = layer.data.get("element_type")
    if text is None:
        report(
            rules.CONST_ATTRIBUTE(
                where,
                attribute="element_type",
                problem="is missing",
                ov_message="Missing attribute 'element_type' for Const",
            )
        )
        return None
    # A Const's type passes two parsers: the enum (any case) and element::Type(string), the
    # precision vocabulary; only names both accept work ('f32', 'I64', but not 'F32' or 'FP32').
    as_enum = element_types.from_element_type(text)
    as_precision = element_types.from_precision(text)
    if as_enum is not None and as_precision is not None:
        return as_enum
    ov_message = (
        f'"{text}" is not a member of enum element::Type_t'
        if as_enum is None
        else f"Unsupported element type: {text}"
    )
    hint = f"; write {as_enum or as_precision}" if (as_enum or as_precision) else ""
    report(rules.ELEMENT_TYPE_INVALID(where, layer_type="Const", text=text, ov_message=ov_message, hint=hint))
    return None


def _const_shape(layer: Layer, where: Location, report: Report) -> tuple[int, ...] | None:
    text = layer.data.get("shape")
    if text is None:
        ov_message = "Missing attribute 'shape' for Const"
        report(rules.CONST_ATTRIBUTE(where, attribute="shape", problem="is missing", ov_message=ov_message))
        return None
    try:
        values = parse_int_list(text).values
    except ListSyntaxError as exc:
        report(rules.SHAPE_SYNTAX(where, layer_type="Const", attribute="shape", text=text, reason=str(exc)))
        return None
    # size_t dims: a negative one is 2^64 - n, and the byte count wraps (IRS419 checks it)
    return tuple(v % SIZE_T for v in values)


def _const_partial_shape(dims: tuple[int, ...]) -> PartialShape:
    """The Const's size_t dims as OpenVINO's Dimensions (int64): 2^64 - 1 is ``?``, 2^63 - 1
    an empty dim (also printed ``?``), other values past 2^63 are 0."""
    if all(d < INF for d in dims):
        return port_static_shape(dims)
    return PartialShape(Dim.of(int64(d)) for d in dims)


def _const_uint(layer: Layer, attribute: str, where: Location, report: Report) -> int | None:
    text = layer.data.get(attribute)
    value = parse_uint(text)
    if value is not None:
        return value
    if text is None:
        problem, ov_message = "is missing", f"node <data> is missing mandatory attribute: {attribute}"
    else:
        problem = f"{text!r} is not an unsigned integer"
        ov_message = (
            f'node <data> has attribute "{attribute}" = "{text}" which is not an unsigned 64 bit integer'
        )
    report(rules.CONST_ATTRIBUTE(where, attribute=attribute, problem=problem, ov_message=ov_message))
    return None


def _check_const_size(const: _ConstData, where: Location, report: Report) -> None:
    """IRS419: ``size`` against ``ceil(elements * bits / 8)`` (sub-byte types packed)."""
    if const.element_type is None or const.shape is None or const.size is None:
        return
    count = element_count(const.shape)
    needed = bytes_needed(const.element_type, count)
    if needed is None or const.size >= needed:
        return
    bits = element_types.BITS[const.element_type]
    packing = "" if bits >= 8 else f", bit-packed: {8 / bits:g} element(s) a byte"
    report(
        rules.CONST_SIZE_TOO_SMALL(
            where,
            size=const.size,
            shape=list(const.shape),
            element_type=const.element_type,
            needed=needed,
            count=count,
            bits=bits,
            packing=packing,
            declared=const.size,
            expected=needed,
        )
    )


def _check_const_bounds(const: _ConstData, weights: Weights, where: Location, report: Report) -> None:
    """IRS420: ``offset + size`` inside the .bin (a missing .bin is one finding for the file)."""
    if const.offset is None or const.size is None or not _beyond_bin(const.offset, const.size, weights):
        return
    assert weights.path is not None  # (a .bin is there)
    end = const.offset + const.size
    report(
        rules.CONST_OUT_OF_BIN(where, offset=const.offset, end=end, bin=weights.name, bin_size=weights.size)
    )


def _check_string_bytes(const: _ConstData, weights: Weights, where: Location, report: Report) -> None:
    """IRS418: a string Const's bytes hold a packed string tensor of its shape's count."""
    if const.element_type != "string" or None in (const.shape, const.offset, const.size):
        return
    assert const.shape is not None and const.offset is not None and const.size is not None
    found = weights.packed_string_problem(const.offset, const.size, element_count(const.shape))
    if found is not None:
        problem, ov_message = found
        report(rules.CONST_ATTRIBUTE(where, attribute="bytes", problem=problem, ov_message=ov_message))


def _beyond_bin(offset: int, size: int, weights: Weights) -> bool:
    """Does ``offset + size`` pass the end of a .bin that is there?"""
    return weights.path is not None and bool(weights.size) and offset + size > (weights.size or 0)


def _signed_zeros(reals: tuple[float, ...]) -> tuple[float, ...]:
    """The reals with each -0.0 hashed apart from 0.0 (``values.NEGATIVE_ZERO``): dividing by
    them differs, and the memos of clean checks and shared Consts are keyed by values."""
    from irshape.shapes.values import NEGATIVE_ZERO  # (only a real Const holding a zero)

    return tuple(NEGATIVE_ZERO if v == 0 and math.copysign(1.0, v) < 0 else v for v in reals)


def unread_reals(tensor: Tensor) -> bool:
    """Is ``tensor`` a clean real Const of rank 2 or more whose value was not read, though small
    enough to keep (a bias, a small weight: see :func:`_read_value`)?"""
    lengths = tensor.shape.lengths
    return (
        tensor.reals is None
        and tensor.unknown is None
        and isinstance(tensor, ConstTensor)
        and tensor.element_type in _REAL_TYPES
        and lengths is not None
        and len(lengths) > 1
        and math.prod(lengths) <= _CONST_VALUE_LIMIT
    )


def read_reals(layer: Layer, weights: Weights, tensor: Tensor) -> Tensor | None:
    """The Const ``layer``'s tensor (one :func:`unread_reals` accepts) with its reals read, for
    a value input they reach (OpenVINO folds them there: a 2-D real Const reshaped, converted
    and read as a target); None where they cannot be read."""
    offset, size = parse_uint(layer.data.get("offset")), parse_uint(layer.data.get("size"))
    info = ConstTensor(tensor.shape, tensor.element_type, facts=_HELD)
    const = _ConstData(tensor.element_type, tensor.shape.lengths, offset, size)
    _read_value(const, weights, info, any_rank=True)
    return info if info.reals is not None else None


def _read_value(const: _ConstData, weights: Weights, info: Tensor, any_rank: bool = False) -> None:
    """Small integer and real Consts (shapes, axes, indices, pads, scales: the values shape
    functions read): read their value, flattened in C order. A Const of another type says why
    it has none (OpenVINO holds it but does not read it as integers: irshape/shapes/reading.py).
    A real one of rank 2 or more only ``any_rank`` (weights are not read as values, but for a
    value input they reach: :func:`read_reals`)."""
    shape, element_type = const.shape, const.element_type
    if shape is None or element_type is None:
        return
    # OpenVINO reads the value through the Const's output shape, whose dims are the size_t ones
    # as int64 Dimensions: a dim past 2^63 (but 2^64 - 1, 2^63 - 1) is 0, so the Const has no
    # elements (shape '-9223372036854775807' as Interpolate's sizes: 'The number of elements
    # in the 'sizes' input does not match the number of axes 2'; docs §15).
    lengths = _const_partial_shape(shape).lengths
    count = math.prod(shape if lengths is None else lengths)
    real = element_type in _REAL_TYPES
    integer = element_type in element_types.INTEGRAL or element_type == "boolean"
    if not integer and not real and len(shape) != 1:
        info.unknown_as(Unknown.NOT_EVALUABLE, element_type)  # (no byte read)
        return
    if count > _CONST_VALUE_LIMIT:
        return
    if real and len(shape) > 1 and not any_rank:
        return  # reals are read for the 0D and 1D inputs that take them (scales, eps), not weights
    if const.offset is None or const.size is None:
        info.unknown_as(Unknown.UNREADABLE, "the Const's offset or size cannot be read")
        return
    try:
        if real:
            reals = weights.read_reals(element_type, count, const.offset, const.size)
            info.reals = _signed_zeros(reals) if 0.0 in reals else reals
        else:
            info.value = weights.read_integers(element_type, count, const.offset, const.size)
    except NotEvaluable:
        info.unknown_as(Unknown.NOT_EVALUABLE, element_type)
    except WeightsError as exc:
        info.unknown_as(Unknown.UNREADABLE, str(exc))
