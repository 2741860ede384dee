"""What a shape function sees and returns: plain values, no XML, no file.

A shape function is ``f(call: OpCall) -> OpResult``: it gets the op's declaration, the
input tensors (shape with OpenVINO's intervals, element type, and the value of the inputs it
declares it reads) and the parsed attributes; it returns every output's shape and element type,
the arithmetic behind each dim, and its findings as data. No outputs means the output cannot
be inferred at all (a finding says why). :mod:`irshape.check.layer` turns findings into
diagnostics at the right line and keeps one memo for every op.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar, cast, overload

from irshape.diagnostics import Rule
from irshape.dims import PartialShape
from irshape.ir.weights import CONSTANT_WITHOUT_BYTES, not_evaluable_reason
from irshape.ops.schema import OpSchema, ParsedAttributes
from irshape.record import FrozenRecord, Record, TupleRecord, set_field, tuple_field


class Origin(enum.IntEnum):
    """What OpenVINO's evaluation of a tensor's value reaches, going up its inputs
    (``could_propagate`` in ``bound_evaluate.cpp``), ordered so that an op's is the least of
    its inputs' (:func:`irshape.shapes.reading.fold`)."""

    DATA = 0  # a Parameter's data, a variable, or what irshape does not infer: evaluating gives up
    SHAPES = 1  # Consts and ShapeOfs (a ShapeOf is a leaf: its input's shape is its value)
    CONSTS = 2  # Const layers only: IR v10's reading folds it


FROM_CONSTS, FROM_SHAPES, FROM_DATA = Origin.CONSTS, Origin.SHAPES, Origin.DATA


class Unknown(enum.Enum):
    """Why a value OpenVINO may hold is not known to irshape. ``Value.why`` completes it: the
    element type (NOT_EVALUABLE, NOT_CAST), OpenVINO's message (EVALUATION_FAILS) or irshape's
    own words (UNREADABLE, ELSEWHERE)."""

    NO_BYTES = "no_bytes"  # a layer typed 'Constant': no bytes, and evaluating it fails
    NOT_EVALUABLE = "not_evaluable"  # a Const OpenVINO holds but reads as no integers (u1, dynamic...)
    NOT_CAST = "not_cast"  # a sub-byte Const whose cast_vector values irshape does not read
    FOLD_FAILED = "fold_failed"  # folding it fails: a Const of dynamic element type feeds it
    EVALUATION_FAILS = "evaluation_fails"  # OpenVINO's evaluation of it fails (a scatter's index)
    UNREADABLE = "unreadable"  # the Const's bytes cannot be read (no .bin, out of range...)
    ELSEWHERE = "elsewhere"  # not a value irshape follows (an unconnected port, a fragment...)

    def text(self, why: str | None) -> str:
        """The reason in words, for a finding."""
        return _UNKNOWN_TEXTS[self](why or "")


EVALUATION_FAILS = "OpenVINO fails evaluating it: "
_UNKNOWN_TEXTS: dict[Unknown, Callable[[str], str]] = {
    Unknown.NO_BYTES: lambda why: CONSTANT_WITHOUT_BYTES,
    Unknown.NOT_EVALUABLE: not_evaluable_reason,
    Unknown.NOT_CAST: lambda why: f"irshape does not read the {why} values OpenVINO casts",
    Unknown.FOLD_FAILED: lambda why: "OpenVINO fails folding it: a Const of dynamic element type feeds it",
    Unknown.EVALUATION_FAILS: lambda why: EVALUATION_FAILS + why,
    Unknown.UNREADABLE: lambda why: why,
    Unknown.ELSEWHERE: lambda why: why,
}


class Value(TupleRecord):
    """Everything irshape knows of a tensor's value: the one record a tensor carries, compared
    and hashed whole as a tuple (the check's memo key is made of it). A tensor with nothing
    known shares :data:`NOTHING`.

    A :class:`~irshape.record.TupleRecord` (``typing.NamedTuple`` would compile its
    annotations and its ``__new__`` at every start: ~2M instructions), with a named tuple's
    ``_fields`` and ``_replace``."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = (
        "value",
        "lower",
        "upper",
        "reals",
        "real_lower",
        "real_upper",
        "const_parts",
        "constant",
        "origin",
        "unknown",
        "why",
        "reported",
        "error",
    )

    # A small integer tensor's value, when it is known: what OpenVINO's evaluate gives (and the
    # CPU plugin's compile step folds)
    value: tuple[int, ...] | None = tuple_field(0)
    # Its bounds per element, as OpenVINO's evaluate_lower and evaluate_upper give them (a
    # ShapeOf of interval dims), what shape inference reads: when the value is not known
    # exactly, or where shape inference reads another value than evaluate's (a Convert of a
    # type's maximum, "no limit" there: irshape.shapes.bounds.read_apart); None elsewhere. An
    # unbounded element's upper bound is the element type's maximum, as in OpenVINO.
    lower: tuple[int, ...] | None = tuple_field(1)
    upper: tuple[int, ...] | None = tuple_field(2)
    reals: tuple[float, ...] | None = tuple_field(3)  # a small floating-point tensor's value (scales)
    # ...and its bounds, alike (a size times a scale on a dynamic input)
    real_lower: tuple[float, ...] | None = tuple_field(4)
    real_upper: tuple[float, ...] | None = tuple_field(5)
    # Known neither by value nor by bounds, a Concat of one-element inputs: per element, the
    # first value of the Const input that gives it (None where another op does). OpenVINO's
    # Broadcast looks through such a Concat at its Consts (see ConstTensor); None elsewhere.
    const_parts: tuple[int | None, ...] | None = tuple_field(6)
    # OpenVINO holds the data: a Const's output, or an op's computed from such only (it folds
    # them), whether or not irshape knows the value
    constant: bool = tuple_field(7)
    origin: Origin = tuple_field(8)  # what OpenVINO's evaluation of it reaches
    unknown: Unknown | None = tuple_field(9)  # why a value OpenVINO may hold is not known
    why: str | None = tuple_field(10)  # ...in detail (see Unknown)
    reported: bool = tuple_field(11)  # ...and that reason is already a finding of its own
    # OpenVINO's message where reading the value fails (a Const of a type it does not read as
    # integers): set by irshape.shapes.reading for the inputs a shape function reads
    error: str | None = tuple_field(12)

    def __new__(
        cls,
        value: tuple[int, ...] | None = None,
        lower: tuple[int, ...] | None = None,
        upper: tuple[int, ...] | None = None,
        reals: tuple[float, ...] | None = None,
        real_lower: tuple[float, ...] | None = None,
        real_upper: tuple[float, ...] | None = None,
        const_parts: tuple[int | None, ...] | None = None,
        constant: bool = False,
        origin: Origin = Origin.DATA,
        unknown: Unknown | None = None,
        why: str | None = None,
        reported: bool = False,
        error: str | None = None,
    ) -> Self:
        fields = (value, lower, upper, reals, real_lower, real_upper, const_parts)
        return tuple.__new__(cls, (*fields, constant, origin, unknown, why, reported, error))


NOTHING = Value()
_T = TypeVar("_T")
_VALUE_FIELDS = frozenset(Value._fields)
# the keyword arguments of Tensor and Output that name a Value field by another name
_RENAMED = {"value_reported": "reported", "value_error": "error"}


def _facts(changes: dict[str, Any]) -> dict[str, Any]:
    """Value fields from keyword arguments (``value_unknown`` a text or an Unknown)."""
    facts = {_RENAMED.get(k, k): v for k, v in changes.items()}
    if "value_unknown" in facts:
        unknown = facts.pop("value_unknown")
        if isinstance(unknown, str):  # a reason in words: irshape's own
            facts["unknown"], facts["why"] = Unknown.ELSEWHERE, unknown
        else:
            facts["unknown"] = unknown
    return facts


if TYPE_CHECKING:

    class _Field(Generic[_T]):
        """A :class:`Value` field read and written as the tensor's own attribute (for the type
        checker: at run time :func:`_field` makes a property, read in C)."""

        __slots__ = ("index", "name")

        def __init__(self, name: str) -> None:
            self.name = name
            self.index = Value._fields.index(name)

        def __get__(self, tensor: _Valued, owner: Any = None) -> _T:
            return cast(_T, tensor.facts[self.index])

        def __set__(self, tensor: _Valued, value: _T) -> None:
            change: dict[str, Any] = {self.name: value}
            tensor.facts = tensor.facts._replace(**change)

    _field = _Field
else:

    def _field(name: str) -> property:
        """A property reading ``facts.<name>`` with a C getter (a tenth of a Python
        ``__get__``'s time: shape functions read values often)."""

        index = Value._fields.index(name)

        def set_(tensor: _Valued, value: Any) -> None:  # _replace's work, without its three calls
            facts = tensor.facts
            tensor.facts = tuple.__new__(Value, (*facts[:index], value, *facts[index + 1 :]))

        return property(attrgetter(f"facts.{name}"), set_)


class _Valued(Record):
    """A tensor or an output: a shape, an element type and a :class:`Value`, whose fields read
    and write as the tensor's own (``tensor.value``, ``output.lower = ...``)."""

    __slots__ = ("facts",)
    facts: Value

    value: _Field[tuple[int, ...] | None] = _field("value")
    lower: _Field[tuple[int, ...] | None] = _field("lower")
    upper: _Field[tuple[int, ...] | None] = _field("upper")
    reals: _Field[tuple[float, ...] | None] = _field("reals")
    real_lower: _Field[tuple[float, ...] | None] = _field("real_lower")
    real_upper: _Field[tuple[float, ...] | None] = _field("real_upper")
    const_parts: _Field[tuple[int | None, ...] | None] = _field("const_parts")
    constant: _Field[bool] = _field("constant")
    origin: _Field[Origin] = _field("origin")
    unknown: _Field[Unknown | None] = _field("unknown")

    def replace(self, **changes: Any) -> Self:
        own = {k: changes.pop(k) for k in list(changes) if k not in _VALUE_FIELDS and k not in _ALIASES}
        if changes:
            own["facts"] = own.get("facts", self.facts)._replace(**_facts(changes))
        return super().replace(**own)

    @property
    def value_unknown(self) -> str | None:
        """Why the value is not known, in words (None: nothing says it is unknown)."""
        facts = self.facts
        return None if facts.unknown is None else facts.unknown.text(facts.why)

    @value_unknown.setter
    def value_unknown(self, reason: str | Unknown | None) -> None:
        self.facts = self.facts._replace(**_facts({"value_unknown": reason}))

    def unknown_as(self, unknown: Unknown | None, why: str | None = None) -> None:
        """Say why the value is not known."""
        self.facts = self.facts._replace(unknown=unknown, why=why)

    def _set(self, **changes: Any) -> None:
        self.facts = self.facts._replace(**changes)


_ALIASES = frozenset({"value_unknown", *_RENAMED})


class Tensor(_Valued):
    """What is known of a tensor flowing into a layer."""

    __slots__ = ("element_type", "shape")
    shape: PartialShape
    element_type: str | None  # an OpenVINO element type name; None when unknown

    def __init__(
        self,
        shape: PartialShape,
        element_type: str | None = None,
        value: tuple[int, ...] | None = None,
        value_unknown: str | Unknown | None = None,
        value_reported: bool = False,
        reals: tuple[float, ...] | None = None,
        lower: tuple[int, ...] | None = None,
        upper: tuple[int, ...] | None = None,
        const_parts: tuple[int | None, ...] | None = None,
        value_error: str | None = None,
        constant: bool = False,
        origin: Origin = Origin.DATA,
        real_lower: tuple[float, ...] | None = None,
        real_upper: tuple[float, ...] | None = None,
        facts: Value | None = None,
    ) -> None:
        self.shape = shape
        self.element_type = element_type
        if facts is not None:
            self.facts = facts
        elif (
            value is None
            and value_unknown is None
            and lower is None
            and reals is None
            and not constant
            and origin is Origin.DATA
            and const_parts is None
            and value_error is None
            and real_lower is None
            and upper is None
            and real_upper is None
            and not value_reported
        ):
            self.facts = NOTHING  # the usual tensor: a Parameter's data and what it computes
        else:
            unknown, why = (
                (Unknown.ELSEWHERE, value_unknown)
                if isinstance(value_unknown, str)
                else (value_unknown, None)
            )
            self.facts = Value(
                value,
                lower,
                upper,
                reals,
                real_lower,
                real_upper,
                const_parts,
                constant,
                origin,
                unknown,
                why,
                value_reported,
                value_error,
            )

    value_reported: _Field[bool] = _field("reported")
    value_error: _Field[str | None] = _field("error")


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


Formula = str | tuple[str, tuple[object, ...]] | Callable[[], str]
"""One dim's formula: its text, a ``str.format`` template and the values it quotes, or a
function that writes it."""


def _written(formula: Formula) -> str:
    if isinstance(formula, str):
        return formula
    if isinstance(formula, tuple):
        return formula[0].format(*formula[1])
    return formula()


class Formulas(Sequence[str]):
    """An output's formulas kept as templates with their values, each written out only when it
    is read: a finding quotes one formula, and an output no finding is made on (almost every
    output) never formats any (the dims' texts cost more than the arithmetic)."""

    __slots__ = ("_parts",)

    def __init__(self, parts: list[Formula]) -> None:
        self._parts = parts

    def __len__(self) -> int:
        return len(self._parts)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [_written(part) for part in self._parts[index]]
        return _written(self._parts[index])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Formulas({list(self)!r})"


class Output(_Valued):
    """One inferred output: its shape and element type, the formula behind each dim, and what
    is known of its value (see :class:`Value`)."""

    __slots__ = ("element_type", "failed_axes", "formulas", "shape")
    shape: PartialShape
    element_type: str | None
    formulas: Sequence[str]
    failed_axes: frozenset[int]  # axes whose inference already failed with an error finding

    def __init__(
        self,
        shape: PartialShape,
        element_type: str | None = None,
        formulas: Sequence[str] | None = None,
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
        if value is None and lower is None and upper is None and reals is None:
            self.facts = NOTHING
        else:
            self.facts = Value(value, lower, upper, reals)


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
