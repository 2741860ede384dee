"""The library API for one layer given as plain values, without any XML: :func:`check_layer`
and :func:`infer_layer` (a converter checks a layer before it writes it). Files and text are
:mod:`irshape.api`'s; this module is imported by the first use of a name of its own, so a
check of files never loads it.

Nothing here prints or exits; every problem of the layer comes back as a finding.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import SupportsIndex, cast

from irshape.check.layer import check_op, compare_declared
from irshape.diagnostics import Diagnostic, Location, Severity
from irshape.dims import PartialShape, parse_partial_shape
from irshape.ir.model import Layer, Port
from irshape.ops.interface import Tensor, Unknown
from irshape.ops.registry import lookup
from irshape.record import FrozenRecord, set_field

ShapeLike = PartialShape | str | Iterable[SupportsIndex]
"""A shape: a :class:`PartialShape`, OpenVINO's notation (``"1,3,?,2..10"``), or ints (-1: dynamic).
Ints may be any integers Python can index with (numpy's among them); a list, a tuple or a 1-D array."""
AttributeValue = str | SupportsIndex | Iterable[SupportsIndex]
"""A ``<data>`` attribute: its text as written in IR, an int, or a list (tuple, 1-D array) of ints."""


class LayerCheck(FrozenRecord):
    """The result of checking one layer given as plain values.

    ``output_shapes`` and ``element_types`` are what irshape infers for each output as OpenVINO
    would (empty when the layer is too broken to infer them); ``output_shape`` is the first
    output's shape, or None. They are computed even past an error that makes OpenVINO reject
    the layer, so look at ``ok`` first. ``diagnostics`` are the findings, with path ``"<layer>"``.
    """

    __slots__ = ("diagnostics", "element_types", "output_shapes")
    output_shapes: list[PartialShape]
    element_types: list[str | None]
    diagnostics: list[Diagnostic]

    def __init__(
        self,
        output_shapes: list[PartialShape],
        element_types: list[str | None],
        diagnostics: list[Diagnostic],
    ) -> None:
        set_field(self, "output_shapes", output_shapes)
        set_field(self, "element_types", element_types)
        set_field(self, "diagnostics", diagnostics)

    @property
    def output_shape(self) -> PartialShape | None:
        return self.output_shapes[0] if self.output_shapes else None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    @property
    def ok(self) -> bool:
        """No error: OpenVINO reads this layer and infers ``output_shapes``."""
        return not self.errors


InputValue = Iterable[SupportsIndex] | Iterable[float]
"""An input's value, flattened in C order: ints (a shape, axes, indices) or, for an input of a
floating-point type, floats (Interpolate's scales)."""

_REAL_TYPES = frozenset({"f16", "f32", "f64", "bf16"})


def check_layer(
    op_type: str,
    attributes: Mapping[str, AttributeValue],
    input_shapes: Sequence[ShapeLike],
    *,
    input_values: Mapping[int, InputValue] | None = None,
    input_element_types: Sequence[str] | None = None,
    declared_output: ShapeLike | None = None,
    output_shape_value: Iterable[SupportsIndex] | None = None,
    element_type: str = "f32",
    version: str = "opset1",
) -> LayerCheck:
    """Check one layer of any op irshape knows without writing any XML, e.g. from a converter
    before it writes IR.

    ``attributes`` are the ``<data>`` attributes (lists may be given as int sequences);
    ``input_shapes`` one shape per input. ``input_values`` maps an input's index to its value
    when it is a constant (Reshape's target, Gather's axis, Pad's pads, Interpolate's sizes or
    scales...): the inputs whose values decide the shape, as a Const would give them.
    ``input_element_types`` gives each input's element type; without it an input given int
    values, and any other input but the first whose value the op reads, is ``i64``, and the
    rest are ``element_type``.
    ``output_shape_value`` is the backprop ops' output_shape value (input 2; implied when
    ``input_shapes`` has two). ``declared_output`` is the first output's shape the converter
    means to write, compared with the inferred one (IRS301/IRS302). ``version`` names the
    opset (``opset1`` ... ``opset16``) whose version of the op is meant.

    Every problem of the layer itself is a finding. What is not a layer at all raises:
    ValueError for an op type irshape does not know in that opset or a shape string OpenVINO
    cannot parse, TypeError for an attribute, shape or value of the wrong Python type.
    """
    if not isinstance(op_type, str):
        raise TypeError(f"op_type is a str such as 'Convolution', not {type(op_type).__name__}")
    if not isinstance(attributes, Mapping):
        raise TypeError(f"attributes are a mapping of names to values, not {type(attributes).__name__}")
    if isinstance(input_shapes, str | bytes) or not isinstance(input_shapes, Iterable):
        raise TypeError(f"input_shapes is a list of shapes, not {type(input_shapes).__name__}")
    for name, value in (("element_type", element_type), ("version", version)):
        if not isinstance(value, str):
            raise TypeError(f"{name} is a str, not {type(value).__name__}")
    schema = lookup(op_type, version)
    if schema is None or schema.is_source:
        raise ValueError(f"irshape does not know the op type {op_type!r} in {version}")
    shapes = [_to_shape(shape) for shape in input_shapes]
    values = dict(_input_values(input_values))
    if output_shape_value is not None:
        values[2] = _ints(output_shape_value, "output_shape_value")
        if len(shapes) == 2:
            shapes.append(PartialShape([len(values[2])]))
    types = _element_types(input_element_types, len(shapes), element_type, values, schema.value_inputs)
    inputs = [
        _input(i, shape, types[i], values.get(i), schema.value_inputs) for i, shape in enumerate(shapes)
    ]
    layer = Layer(id="0", name=op_type, type=op_type, version=version, line=0, has_data=True)
    layer.data = {name: _attribute_text(value) for name, value in attributes.items()}
    layer.inputs = [Port(id=str(i), index=i, line=0, dims=None) for i in range(len(inputs))]
    if declared_output is not None:
        declared = _to_shape(declared_output)
        dims = None if declared.dims is None else tuple(d.lo if d.is_static else -1 for d in declared)
        layer.outputs.append(Port(id=str(len(inputs)), index=0, line=0, dims=dims))
    where = Location("<layer>", layer_id="0", layer_name=op_type, layer_type=op_type, layer_version=version)
    diagnostics: list[Diagnostic] = []
    inference = check_op(schema, layer, inputs, where, diagnostics.append)
    if inference is None:
        return LayerCheck([], [], diagnostics)
    if declared_output is not None:
        compare_declared(layer, inference, where, diagnostics.append)
    outputs = inference.outputs
    return LayerCheck([o.shape for o in outputs], [o.element_type for o in outputs], diagnostics)


def _input_values(values: Mapping[int, InputValue] | None) -> Iterable[tuple[int, tuple[object, ...]]]:
    if values is None:
        return
    if not isinstance(values, Mapping):
        raise TypeError(f"input_values maps input indices to values, not {type(values).__name__}")
    for index, value in values.items():
        if not _is_index(index):
            raise TypeError(f"input_values is keyed by input index (an int), not {index!r}")
        if isinstance(value, str | bytes) or not isinstance(value, Iterable):
            raise TypeError(f"input {index}'s value is a sequence of numbers, not {value!r}")
        items = tuple(value)
        if not all(_is_index(item) or isinstance(item, float) for item in items):
            raise TypeError(f"input {index}'s value is a sequence of numbers, not {value!r}")
        yield operator.index(index), items


def _element_types(
    given: Sequence[str] | None,
    count: int,
    default: str,
    values: Mapping[int, tuple[object, ...]],
    value_inputs: tuple[int, ...],
) -> list[str]:
    """Each input's element type: as given; else i64 for an input of int values and for the
    other inputs whose values the op reads (a shape, axes: never input 0, the data), else
    ``default``."""
    if given is None:
        return [_default_type(i, default, values.get(i), value_inputs) for i in range(count)]
    types = list(given)
    if len(types) != count or not all(isinstance(t, str) for t in types):
        raise TypeError(f"input_element_types names one element type (a str) per input, {count} here")
    return types


def _default_type(
    index: int, default: str, value: tuple[object, ...] | None, value_inputs: tuple[int, ...]
) -> str:
    if value is not None:
        return default if any(isinstance(v, float) for v in value) else "i64"
    return "i64" if index > 0 and index in value_inputs else default


def _input(
    index: int,
    shape: PartialShape,
    element_type: str,
    value: tuple[object, ...] | None,
    value_inputs: tuple[int, ...],
) -> Tensor:
    """An input as a Const of that value would give it, or with its value unknown."""
    tensor = Tensor(shape, element_type)
    if value is None:
        if index in value_inputs:
            tensor.unknown_as(Unknown.ELSEWHERE, f"no value was given for input {index} (input_values)")
    elif element_type in _REAL_TYPES:
        tensor.reals = tuple(
            v if isinstance(v, float) else float(operator.index(cast(SupportsIndex, v))) for v in value
        )
    else:
        tensor.value = _ints(value, f"input {index}'s value (of element type {element_type})", "ints")
    return tensor


def infer_layer(
    op_type: str,
    attributes: Mapping[str, AttributeValue],
    input_shapes: Sequence[ShapeLike],
    *,
    input_values: Mapping[int, InputValue] | None = None,
    output_shape_value: Iterable[SupportsIndex] | None = None,
    version: str = "opset1",
) -> PartialShape | None:
    """The first output shape OpenVINO infers for one layer; None when OpenVINO would reject
    the layer (any error finding of :func:`check_layer`) or cannot infer a shape."""
    result = check_layer(
        op_type,
        attributes,
        input_shapes,
        input_values=input_values,
        output_shape_value=output_shape_value,
        version=version,
    )
    return result.output_shape if result.ok else None


def _attribute_text(value: AttributeValue) -> str:
    if isinstance(value, str):
        return value
    if not isinstance(value, bool) and _is_index(value):
        return str(operator.index(value))  # type: ignore[arg-type]
    return ",".join(str(v) for v in _ints(value, "an attribute", "a str, an int or a sequence of ints"))


def _is_index(value: object) -> bool:
    """An integer of any kind (numpy's too, a 0-d integer array), not a bool."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def _ints(value: object, what: str, kinds: str = "a sequence of ints") -> tuple[int, ...]:
    """The ints of a list, tuple or 1-D array of integers (numpy's too, without numpy)."""
    if not isinstance(value, str | bytes | Mapping) and isinstance(value, Iterable):
        items = list(value)
        if all(_is_index(item) for item in items):
            return tuple(operator.index(item) for item in items)
    raise TypeError(f"{what} is {kinds}, not {value!r}")


def _to_shape(shape: ShapeLike) -> PartialShape:
    if isinstance(shape, PartialShape):
        return shape
    if isinstance(shape, str):
        return parse_partial_shape(shape)
    return PartialShape(
        _ints(shape, "a shape", "a PartialShape, a string like '1,3,?,224' or a list of ints")
    )
