"""What a shape function sees and returns: plain values, no XML, no file.

A shape function is ``f(call: OpCall) -> OpResult``: it gets the op's declaration, the
input tensors (shape with OpenVINO's intervals, element type, and the value of the inputs it
declares it reads) and the parsed attributes; it returns every output's shape and element type,
the arithmetic behind each dim, and its findings as data. No outputs means the output cannot
be inferred at all (a finding says why). :mod:`irshape.check.layer` turns findings into
diagnostics at the right line and keeps one memo for every op.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from irshape.diagnostics import Rule
from irshape.dims import PartialShape
from irshape.ops.schema import OpSchema, ParsedAttributes
from irshape.record import FrozenRecord, Record, set_field

# What OpenVINO's evaluation of a tensor's value reaches, going up its inputs (``could_propagate``
# in ``bound_evaluate.cpp``): Const layers only (IR v10's reading folds it), Consts and ShapeOfs
# (a ShapeOf is a leaf: its input's shape is its value), or a Parameter's data, a variable, or
# what irshape does not infer (evaluating it gives up at once, and fails nowhere).
FROM_CONSTS = "consts"
FROM_SHAPES = "shapes"
FROM_DATA = "data"


class Tensor(Record):
    """What is known of a tensor flowing into a layer."""

    __slots__ = (
        "const_parts",
        "constant",
        "element_type",
        "lower",
        "origin",
        "real_lower",
        "real_upper",
        "reals",
        "shape",
        "upper",
        "value",
        "value_error",
        "value_reported",
        "value_unknown",
    )
    shape: PartialShape
    element_type: str | None  # an OpenVINO element type name; None when unknown
    value: tuple[int, ...] | None  # a small integer tensor's value, when it is known
    # When the value is not known exactly: its bounds per element, as OpenVINO's evaluate_lower
    # and evaluate_upper give them (a ShapeOf of interval dims); None when there are none. An
    # unbounded element's upper bound is the element type's maximum, as in OpenVINO.
    lower: tuple[int, ...] | None
    upper: tuple[int, ...] | None
    reals: tuple[float, ...] | None  # a small floating-point tensor's value (Interpolate's scales)
    # ...or its bounds, when it is not known exactly (a size times a scale on a dynamic input),
    # as OpenVINO's evaluate_lower and evaluate_upper give them; None when there are none
    real_lower: tuple[float, ...] | None
    real_upper: tuple[float, ...] | None
    value_unknown: str | None  # why the value is not known
    value_reported: bool  # ...and that reason is already a finding of its own
    # Known neither by value nor by bounds, a Concat of one-element inputs: per element, the
    # first value of the Const input that gives it (None where another op does). OpenVINO's
    # Broadcast looks through such a Concat at its Consts (see ConstTensor); None elsewhere.
    const_parts: tuple[int | None, ...] | None
    # OpenVINO's message where reading the value fails (a Const of a type it does not read as
    # integers): set by irshape.shapes.reading for the inputs a shape function reads
    value_error: str | None
    # OpenVINO holds the data: a Const's output, or an op's computed from such only (it folds
    # them), whether or not irshape knows the value
    constant: bool
    origin: str  # FROM_CONSTS, FROM_SHAPES or FROM_DATA

    def __init__(
        self,
        shape: PartialShape,
        element_type: str | None = None,
        value: tuple[int, ...] | None = None,
        value_unknown: str | None = None,
        value_reported: bool = False,
        reals: tuple[float, ...] | None = None,
        lower: tuple[int, ...] | None = None,
        upper: tuple[int, ...] | None = None,
        const_parts: tuple[int | None, ...] | None = None,
        value_error: str | None = None,
        constant: bool = False,
        origin: str = FROM_DATA,
        real_lower: tuple[float, ...] | None = None,
        real_upper: tuple[float, ...] | None = None,
    ) -> None:
        self.shape = shape
        self.element_type = element_type
        self.value = value
        self.value_unknown = value_unknown
        self.value_reported = value_reported
        self.reals = reals
        self.lower = lower
        self.upper = upper
        self.const_parts = const_parts
        self.value_error = value_error
        self.constant = constant
        self.origin = origin
        self.real_lower = real_lower
        self.real_upper = real_upper


class ConstTensor(Tensor):
    """A Const layer's output. Its value is a shape function's like any other's; only a
    Concat asks whether an input is a Const (OpenVINO's Broadcast looks at a Concat's Constant
    inputs, and at no other op's value: ``broadcast_shape_inference.hpp``)."""

    __slots__ = ()


# Where a finding points: the layer, its <data> element, or one of its input ports.
AT_LAYER = None
AT_DATA = "data"
Anchor = str | int | None


class Finding(FrozenRecord):
    """A diagnostic before it has a file and a line: the rule, its arguments and its anchor."""

    __slots__ = ("anchor", "args", "rule")
    rule: Rule
    args: dict[str, Any]
    anchor: Anchor

    def __init__(self, rule: Rule, args: dict[str, Any], anchor: Anchor = AT_LAYER) -> None:
        set_field(self, "rule", rule)
        set_field(self, "args", args)
        set_field(self, "anchor", anchor)


class Output(Record):
    """One inferred output: its shape and element type, and the formula behind each dim."""

    __slots__ = (
        "const_parts",
        "constant",
        "element_type",
        "failed_axes",
        "formulas",
        "lower",
        "origin",
        "real_lower",
        "real_upper",
        "reals",
        "shape",
        "upper",
        "value",
        "value_unknown",
    )
    shape: PartialShape
    element_type: str | None
    formulas: list[str]
    failed_axes: frozenset[int]  # axes whose inference already failed with an error finding
    value: tuple[int, ...] | None  # the value, for the small integer tensors shapes are made of
    lower: tuple[int, ...] | None  # ...or its bounds, when it is not known exactly (see Tensor)
    upper: tuple[int, ...] | None
    reals: tuple[float, ...] | None  # ...for a small real tensor (a size times a scale), its value
    real_lower: tuple[float, ...] | None  # ...or its bounds (see Tensor)
    real_upper: tuple[float, ...] | None
    const_parts: tuple[int | None, ...] | None  # ...or a Concat's Const parts (see Tensor)
    # why a value OpenVINO would fold is unknown to irshape, and whether OpenVINO folds it
    # (every input a constant): irshape.shapes.reading.fold
    value_unknown: str | None
    constant: bool
    origin: str  # what OpenVINO's evaluation of it reaches (see Tensor): irshape.shapes.reading.fold

    def __init__(
        self,
        shape: PartialShape,
        element_type: str | None = None,
        formulas: list[str] | None = None,
        failed_axes: frozenset[int] = frozenset(),
        value: tuple[int, ...] | None = None,
        lower: tuple[int, ...] | None = None,
        upper: tuple[int, ...] | None = None,
        reals: tuple[float, ...] | None = None,
    ) -> None:
        self.shape = shape
        self.element_type = element_type
        self.formulas = [] if formulas is None else formulas
        self.failed_axes = failed_axes
        self.value = value
        self.lower = lower
        self.upper = upper
        self.reals = reals
        self.const_parts = None
        self.value_unknown: str | None = None
        self.constant = False
        self.origin = FROM_DATA
        self.real_lower: tuple[float, ...] | None = None
        self.real_upper: tuple[float, ...] | None = None


class OpResult(Record):
    """A shape function's answer. ``details`` is what a family keeps for later use (the
    convolutions' resolved pads, for the dry run); ``rejected`` is set by the check when a
    finding makes OpenVINO reject the layer."""

    __slots__ = ("details", "findings", "outputs", "rejected")
    outputs: list[Output]
    findings: list[Finding]
    details: Any
    rejected: bool

    def __init__(
        self,
        outputs: list[Output],
        findings: list[Finding] | None = None,
        details: Any = None,
        rejected: bool = False,
    ) -> None:
        self.outputs = outputs
        self.findings = [] if findings is None else findings
        self.details = details
        self.rejected = rejected

    @property
    def shape(self) -> PartialShape:
        """The first output's shape (most ops have one output)."""
        return self.outputs[0].shape if self.outputs else PartialShape(None)


class OpCall(FrozenRecord):
    """A shape function's arguments: the declaration, the inputs, the parsed attributes."""

    __slots__ = ("attributes", "inputs", "schema")
    schema: OpSchema
    inputs: tuple[Tensor, ...]
    attributes: ParsedAttributes

    def __init__(self, schema: OpSchema, inputs: tuple[Tensor, ...], attributes: ParsedAttributes) -> None:
        set_field(self, "schema", schema)
        set_field(self, "inputs", inputs)
        set_field(self, "attributes", attributes)

    def attribute(self, name: str) -> Any:
        """A declared scalar attribute's value, its default when missing or unusable."""
        return self.attributes.scalar(self.schema.attributes[name])


ShapeFunction = Callable[[OpCall], OpResult]
