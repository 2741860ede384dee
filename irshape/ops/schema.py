"""Op declarations as data, and the one generic validator that reads them.

Each ``irshape/schemas/<Op>-<version>.toml`` (installed with the package) declares
one op version: its inputs (ranks, element types, whether the shape function reads their
values), its outputs, its attributes (types, defaults, value ranges, lengths tied to the
spatial axes) and the family and function that infer it. At run time they are read from
:mod:`irshape.ops.declarations`, the same data compiled (regenerated from the TOML files by
``python tools/compile_schemas.py``). This module turns a layer's ``<data>`` attributes into
typed values and findings; it knows no op by name.
"""

from __future__ import annotations

import functools
import marshal
import math
import re
import sys
from collections.abc import Callable
from typing import Any, cast

from irshape import rules
from irshape.diagnostics import Diagnostic, Location
from irshape.ir import element_types
from irshape.ir.values import C_SPACE, ListSyntaxError, parse_int_list
from irshape.record import FrozenRecord, TupleRecord, set_field, tuple_field

AttrValue = tuple[int, ...] | tuple[float, ...] | str | int | float | bool


# Records and a plain class, not dataclasses or NamedTuples: see irshape.record. A
# declaration's parts are tuple records (made in one call each: a check makes those of every op
# a file has, ~20 attributes for a convolution); the declaration is a slotted record, its fields
# read for every layer.


class AttributeSpec(TupleRecord):
    __slots__ = ()
    _fields = (
        "name",
        "type",
        "default",
        "length",
        "min",
        "spec_required",
        "values",
        "case_insensitive",
        "enum",
    )
    name: str = tuple_field(0)
    # "int_list", "uint_list", "float_list", "int", "float", "bool", "enum", "string" or
    # "element_type"
    type: str = tuple_field(1)
    default: int | str | float | bool = tuple_field(2)
    length: str | None = tuple_field(3)  # "spatial": one value per spatial axis
    min: int | None = tuple_field(4)
    spec_required: bool = tuple_field(5)  # the spec says "Required: yes" although OpenVINO defaults it
    values: tuple[str, ...] = tuple_field(6)
    case_insensitive: bool = tuple_field(7)
    enum: str = tuple_field(8)  # OpenVINO's name of the enum, for its message ("op::PadType")

    def __new__(
        cls,
        name: str,
        type: str,
        default: int | str | float | bool,
        length: str | None = None,
        min: int | None = None,
        spec_required: bool = False,
        values: tuple[str, ...] = (),
        case_insensitive: bool = False,
        enum: str = "",
    ) -> AttributeSpec:
        fields = (name, type, default, length, min, spec_required, values, case_insensitive, enum)
        return tuple.__new__(cls, fields)


class InputSpec(TupleRecord):
    __slots__ = ()
    _fields = ("name", "layout", "ranks", "optional", "element_types", "variadic", "default")
    name: str = tuple_field(0)
    layout: str = tuple_field(1)
    ranks: tuple[int, ...] | None = tuple_field(2)
    optional: bool = tuple_field(3)
    element_types: str | None = tuple_field(4)
    # the last input only: repeated any number of times (Concat's inputs)
    variadic: bool = tuple_field(5)
    # An optional input OpenVINO gives a default value of its own when the layer lacks it
    # (Slice's axes, Pad's pad_value): the op then has the input all the same, so IR v11 reads
    # a layer whose port for it has no edge (docs/openvino-ir-reading.md §11).
    default: bool = tuple_field(6)

    def __new__(
        cls,
        name: str,
        layout: str,
        ranks: tuple[int, ...] | None = None,
        optional: bool = False,
        element_types: str | None = None,
        variadic: bool = False,
        default: bool = False,
    ) -> InputSpec:
        return tuple.__new__(cls, (name, layout, ranks, optional, element_types, variadic, default))


class OutputSpec(TupleRecord):
    __slots__ = ()
    _fields = ("name",)
    name: str = tuple_field(0)

    def __new__(cls, name: str) -> OutputSpec:
        return tuple.__new__(cls, (name,))


class OpSchema(FrozenRecord):
    """One op version's declaration: what the generic validator and the shape function read."""

    __slots__ = (
        "attributes",
        "bounds_inputs",
        "data_and_kernel_types",
        "evaluated_inputs",
        "extra_inputs",
        "family",
        "function",
        "input_counts",
        "inputs",
        "kernel",
        "kernel_layout",
        "legacy_attributes",
        "no_value_message",
        "op",
        "outputs",
        "spec",
        "value_inputs",
        "version",
    )
    op: str
    version: int
    family: str  # the module of irshape.shapes that holds its shape function
    function: str  # that function's name
    # the numpy kernel that executes it: a function of irshape.kernels.<family>; "" for none
    kernel: str
    inputs: tuple[InputSpec, ...]
    outputs: tuple[OutputSpec, ...]
    attributes: dict[str, AttributeSpec]
    legacy_attributes: dict[str, str]
    kernel_layout: tuple[str, ...]  # the convolutions' kernel axes before the spatial ones
    value_inputs: tuple[int, ...]  # the inputs whose values the shape function reads
    # Value inputs OpenVINO reads through their bounds (evaluate_lower/upper: Reshape's target,
    # Slice's start and stop): a layer typed 'Constant' there (no value, §13) reads. Elsewhere
    # OpenVINO reads the value itself and fails on it with ``no_value_message`` (§15).
    bounds_inputs: tuple[int, ...]
    # Value inputs OpenVINO evaluates whatever the other inputs' shapes (ReduceSum's axes, also
    # for data of dynamic rank); the others it reads where the shape function needs them.
    evaluated_inputs: tuple[int, ...]
    no_value_message: str
    data_and_kernel_types: str
    spec: str
    input_counts: tuple[int, int]  # the fewest and most inputs (sys.maxsize: variadic)
    # OpenVINO's message when the layer has more connected inputs than the op takes: the op's
    # own count check fails even in IR v10 ("{count}": how many it has); "": IR v10 builds the
    # op from its first inputs and drops the others (docs/openvino-ir-reading.md §11)
    extra_inputs: str

    def __init__(
        self,
        op: str,
        version: int,
        family: str,
        function: str,
        inputs: tuple[InputSpec, ...],
        outputs: tuple[OutputSpec, ...],
        attributes: dict[str, AttributeSpec],
        legacy_attributes: dict[str, str],
        kernel_layout: tuple[str, ...] = (),
        data_and_kernel_types: str = "numeric",
        spec: str = "",
        value_inputs: tuple[int, ...] = (),
        extra_inputs: str = "",
        bounds_inputs: tuple[int, ...] = (),
        evaluated_inputs: tuple[int, ...] = (),
        no_value_message: str = "ptr is Null",
        kernel: str = "",
    ) -> None:
        set_field(self, "op", op)
        set_field(self, "version", version)
        set_field(self, "family", family)
        set_field(self, "function", function)
        set_field(self, "kernel", kernel)
        set_field(self, "inputs", inputs)
        set_field(self, "outputs", outputs)
        set_field(self, "attributes", attributes)
        set_field(self, "legacy_attributes", legacy_attributes)
        set_field(self, "kernel_layout", kernel_layout)
        set_field(self, "data_and_kernel_types", data_and_kernel_types)
        set_field(self, "spec", spec)
        set_field(self, "value_inputs", value_inputs)
        set_field(self, "extra_inputs", extra_inputs)
        set_field(self, "bounds_inputs", bounds_inputs)
        set_field(self, "evaluated_inputs", evaluated_inputs)
        set_field(self, "no_value_message", no_value_message)
        set_field(self, "input_counts", _input_counts(inputs))  # asked for every layer

    @property
    def name(self) -> str:
        return f"{self.op}-{self.version}"

    @property
    def kernel_non_spatial(self) -> int:
        return len(self.kernel_layout)

    @property
    def is_group(self) -> bool:
        return "GROUPS" in self.kernel_layout

    def kernel_layout_text(self, spatial: int) -> str:
        """The kernel's layout for ``spatial`` axes, e.g. ``[C_OUT, C_IN, Y, X]`` for 2D."""
        axes = [*self.kernel_layout, *("Z", "Y", "X")[3 - min(max(spatial, 0), 3) :]]
        return "[" + ", ".join(axes) + "]"

    def kernel_axis(self, role: str) -> int:
        """The kernel axis of ``role`` ("GROUPS", "C_IN", "C_OUT")."""
        return self.kernel_layout.index(role)

    @property
    def is_source(self) -> bool:
        """Parameter and Constant: their outputs come from the file, not from inputs."""
        return self.family == "source"


def _input_counts(inputs: tuple[InputSpec, ...]) -> tuple[int, int]:
    required = sum(1 for i in inputs if not i.optional)
    if inputs and inputs[-1].variadic:
        return required, sys.maxsize
    return required, len(inputs)


def _load(raw: dict[str, Any]) -> OpSchema:
    """The declaration from a file's parsed TOML."""
    attributes = {
        name: AttributeSpec(
            name,
            spec["type"],
            spec["default"],
            spec.get("length"),
            spec.get("min"),
            spec.get("spec_required", False),
            tuple(spec.get("values", ())),
            spec.get("case_insensitive", False),
            spec.get("enum", ""),
        )
        for name, spec in raw.get("attributes", {}).items()
    }
    inputs = tuple(
        InputSpec(
            spec["name"],
            spec.get("layout", ""),
            tuple(spec["ranks"]) if "ranks" in spec else None,
            spec.get("optional", False),
            spec.get("element_types"),
            spec.get("variadic", False),
            spec.get("default", False),
        )
        for spec in raw.get("inputs", ())
    )
    outputs = tuple(OutputSpec(spec["name"]) for spec in raw.get("outputs", ({"name": "output"},)))
    return OpSchema(
        op=raw["op"],
        version=raw["version"],
        family=raw["family"],
        function=raw.get("function", "infer"),
        inputs=inputs,
        outputs=outputs,
        attributes=attributes,
        legacy_attributes=dict(raw.get("legacy_attributes", {})),
        kernel_layout=tuple(raw.get("kernel_layout", ())),
        data_and_kernel_types=raw.get("element_types", {}).get("data_and_kernel", "numeric"),
        spec=raw.get("spec", ""),
        value_inputs=tuple(raw.get("value_inputs", ())),
        extra_inputs=raw.get("extra_inputs", ""),
        bounds_inputs=tuple(raw.get("bounds_inputs", ())),
        evaluated_inputs=tuple(raw.get("evaluated_inputs", ())),
        no_value_message=raw.get("no_value_message", "ptr is Null"),
        kernel=raw.get("kernel", ""),
    )


@functools.cache
def _compiled() -> dict[str, bytes]:
    """Each declaration file's name, ``<Op>-<version>.toml``, and its data as
    :mod:`irshape.ops.declarations` holds it (``python tools/compile_schemas.py`` writes it):
    bytes, made a dict (``marshal.loads``) for the ops a file has only."""
    from irshape.ops.declarations import DATA, FILES

    return dict(zip(FILES, DATA, strict=True))


def declaration_files() -> frozenset[str]:
    """The names of the declaration files, ``<Op>-<version>.toml`` (``irshape/schemas/``)."""
    return frozenset(_compiled())


@functools.cache
def load_declaration(file_name: str) -> OpSchema:
    """The declaration of ``file_name`` (a KeyError when irshape has none)."""
    return _load(marshal.loads(_compiled()[file_name]))


@functools.cache  # a type without a declaration (Result) is asked of once a run, not once a layer
def find_declaration(file_name: str) -> OpSchema | None:
    """The declaration of ``file_name``, None when irshape has none (Result-1, which OpenVINO's
    opsets hold, has no output to infer)."""
    return load_declaration(file_name) if file_name in _compiled() else None


# --- the generic validator ----------------------------------------------------------------


class ParsedAttributes:
    """Typed attribute values; a name is absent when it was missing or unreadable."""

    __slots__ = ("broken", "texts", "values")

    def __init__(self) -> None:
        self.values: dict[str, AttrValue] = {}
        self.texts: dict[str, str] = {}
        self.broken: set[str] = set()  # present but unusable (already reported)

    def int_list(self, name: str) -> tuple[int, ...]:
        value = self.values.get(name, ())
        # an int_list or uint_list attribute holds ints (a float_list's are read by float_list)
        return cast("tuple[int, ...]", value) if isinstance(value, tuple) else ()

    def float_list(self, name: str) -> tuple[float, ...]:
        """A ``float_list`` attribute's values; () when missing or unusable."""
        value = self.values.get(name, ())
        return tuple(float(v) for v in value) if isinstance(value, tuple) else ()

    def enum(self, name: str, default: str) -> str:
        value = self.values.get(name, default)
        return value if isinstance(value, str) else default

    def scalar(self, spec: AttributeSpec) -> int | float | bool | str:
        """A scalar attribute's value, or its declared default when missing or unusable."""
        value = self.values.get(spec.name, spec.default)
        return spec.default if isinstance(value, tuple) else value


Report = Callable[[Diagnostic], None]


def validate_attributes(
    schema: OpSchema, data: dict[str, str], where: Location, report: Report
) -> ParsedAttributes:
    """Check the ``<data>`` attributes against the schema; lengths wait for the spatial rank."""
    parsed = ParsedAttributes()
    for name, text in data.items():
        spec = schema.attributes.get(name)
        if spec is None:
            _report_foreign(schema, name, text, where, report)
            continue
        parsed.texts[name] = text
        value: AttrValue | None = (
            _parse_enum(spec, text, where, report, schema.name)
            if spec.type == "enum"
            else _parse_value(spec, text, where, report)
        )
        if value is None:
            parsed.broken.add(name)
        else:
            parsed.values[name] = value
    for name, spec in schema.attributes.items():
        if spec.spec_required and name not in data:
            report(rules.ATTRIBUTE_MISSING(where, attribute=name, assumed=_assumed(spec)))
    return parsed


def _assumed(spec: AttributeSpec) -> str:
    return f"{spec.default} on every spatial axis"


def _report_foreign(schema: OpSchema, name: str, text: str, where: Location, report: Report) -> None:
    legacy = schema.legacy_attributes.get(name)
    if legacy is None:
        report(rules.ATTRIBUTE_UNKNOWN(where, attribute=name, op=schema.name))
        return
    consequence = f": {legacy}"
    if name == "data_format" and text.strip().upper() == "NXC":
        consequence = (
            ": the layer will be read channels-first (NCX), so channels-last data is read with "
            "its first spatial axis as the channels"
        )
    report(rules.ATTRIBUTE_LEGACY(where, attribute=name, value=text, consequence=consequence))


def _parse_value(spec: AttributeSpec, text: str, where: Location, report: Report) -> AttrValue | None:
    parse = _SCALAR_PARSERS.get(spec.type)
    if parse is not None:
        return parse(spec, text, where, report)
    if spec.type == "float_list":
        return _parse_float_list(spec, text, where, report)
    try:
        # int_list: what OpenVINO keeps as Strides, Shape, CoordinateDiff, AxisSet or int64
        # vectors, read as int64; uint_list: std::vector<size_t>, read as uint64 (§1)
        parsed = parse_int_list(text, unsigned=spec.type == "uint_list")
    except ListSyntaxError as exc:
        report(rules.ATTRIBUTE_SYNTAX(where, attribute=spec.name, text=text, reason=str(exc)))
        return None
    if parsed.dropped:
        read = "[" + ",".join(map(str, parsed.values)) + "]"
        reason = f"it drops {parsed.dropped!r}"
        report(rules.ATTRIBUTE_LENIENT(where, attribute=spec.name, text=text, read=read, reason=reason))
    if spec.min is not None and any(v < spec.min for v in parsed.values):
        if any(v < 0 for v in parsed.values):
            unsigned = ", ".join(str(v % 2**64) for v in parsed.values if v < 0)
            report(rules.NEGATIVE_STRIDE(where, attribute=spec.name, text=text, unsigned=unsigned))
        else:
            label = "Strides" if spec.name == "strides" else "Filter dilations"
            report(
                rules.ZERO_STRIDE(
                    where, attribute=spec.name, text=text, ov_message=f"{label} has zero dimension(s)."
                )
            )
        return None
    return parsed.values


def _parse_int(spec: AttributeSpec, text: str, where: Location, report: Report) -> int | None:
    """``std::from_chars`` over the whole text, as a list's one field: what follows the number,
    a comma included, is dropped (axis="2, 2" reads as 2; docs/openvino-ir-reading.md §12)."""
    try:
        parsed = parse_int_list(text.partition(",")[0])
    except ListSyntaxError as exc:
        report(rules.ATTRIBUTE_SYNTAX(where, attribute=spec.name, text=text, reason=str(exc)))
        return None
    if len(parsed.values) != 1:
        reason = f"Cannot parse '{text}': one integer expected"
        report(rules.ATTRIBUTE_SYNTAX(where, attribute=spec.name, text=text, reason=reason))
        return None
    if spec.min is not None and parsed.values[0] < spec.min:
        report(
            rules.ATTRIBUTE_VALUE(
                where,
                attribute=spec.name,
                value=text,
                op=where.layer_type or "the op",
                problem=f"is below its least value {spec.min}",
                ov_message=f"{spec.name} must be at least {spec.min}",
            )
        )
        return None
    return parsed.values[0]


# istream >> double: C whitespace, a sign, digits with a point, an exponent; the rest ignored.
# Compiled when a file first has a real attribute (~1M instructions a start otherwise).
_FLOAT = r"[ \t\n\v\f\r]*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+))([eE][+-]?[0-9]*)?"


@functools.cache
def _float_pattern() -> re.Pattern[str]:
    return re.compile(_FLOAT)


_FLOAT_WORDS = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}  # exactly these, blanks aside


def _parse_float(spec: AttributeSpec, text: str, where: Location, report: Report) -> float | None:
    """A real as OpenVINO reads it (docs/openvino-ir-reading.md §12): 'inf', '-inf', 'nan'
    (lower case, no '+'), else a stream's reading of the start of the text; an exponent
    without digits or a value past the double range fails."""
    value = _read_float(text)
    if value is None:
        report(
            rules.ATTRIBUTE_SYNTAX(
                where, attribute=spec.name, text=text, reason=f"Cannot parse '{text}' to number"
            )
        )
    return value


def _parse_float_list(
    spec: AttributeSpec, text: str, where: Location, report: Report
) -> tuple[float, ...] | None:
    """A ``std::vector<float>`` (PriorBox's sizes, variances): split on ``,`` (one trailing comma
    accepted, an empty field not), each field read as a real attribute is (by experiment:
    "1.5x" is 1.5, "0x10" is 0, "1e" and "1e400" fail: 'Cannot parse')."""
    if text == "":
        return ()
    fields = text.split(",")
    if len(fields) > 1 and fields[-1] == "":
        fields.pop()
    if "" in fields:
        reason = f'Cannot get vector of parameters! "{text}" is incorrect'
        report(rules.ATTRIBUTE_SYNTAX(where, attribute=spec.name, text=text, reason=reason))
        return None
    values = []
    for field in fields:
        value = _read_float(field)
        if value is None:
            reason = f"Cannot parse '{field}' in \"{text}\""
            report(rules.ATTRIBUTE_SYNTAX(where, attribute=spec.name, text=text, reason=reason))
            return None
        values.append(value)
    return tuple(values)


def _read_float(text: str) -> float | None:
    """The real at the start of ``text`` as OpenVINO reads an attribute's; None where it fails."""
    word = _FLOAT_WORDS.get(text.strip(C_SPACE))
    if word is not None:
        return word
    match = _float_pattern().match(text)
    if match is None or (match.group(2) is not None and not match.group(2)[-1:].isdigit()):
        return None
    value = float(match.group(1) + (match.group(2) or ""))
    return None if math.isinf(value) else value


def _parse_bool(spec: AttributeSpec, text: str, where: Location, report: Report) -> bool | None:
    """OpenVINO's reader takes "true"/"1" and "false"/"0" in any case, blanks included, and
    leaves any other text at the op's own default (by experiment: keep_dims="yes" is false,
    AvgPool's exclude-pad="no" is true)."""
    word = text.lower()
    if word in ("true", "1"):
        return True
    if word in ("false", "0"):
        return False
    default = bool(spec.default)
    reason = f"it is neither true nor false, so OpenVINO keeps the op's default, {str(default).lower()}"
    report(
        rules.ATTRIBUTE_LENIENT(
            where, attribute=spec.name, text=text, read=str(default).lower(), reason=reason
        )
    )
    return default


def _parse_string(spec: AttributeSpec, text: str, where: Location, report: Report) -> str:
    return text


def _parse_element_type(spec: AttributeSpec, text: str, where: Location, report: Report) -> str | None:
    element_type = element_types.from_element_type(text)
    if element_type is None:
        reason = f"'{text}' is not an element type OpenVINO knows"
        report(rules.ATTRIBUTE_SYNTAX(where, attribute=spec.name, text=text, reason=reason))
    return element_type


_SCALAR_PARSERS: dict[str, Callable[[AttributeSpec, str, Location, Report], AttrValue | None]] = {
    "int": _parse_int,
    "float": _parse_float,
    "bool": _parse_bool,
    "string": _parse_string,
    "element_type": _parse_element_type,
}


def _parse_enum(spec: AttributeSpec, text: str, where: Location, report: Report, op: str) -> str | None:
    key = text.lower() if spec.case_insensitive else text
    if key in spec.values:
        return key
    if spec.name != "auto_pad":
        names = ", ".join(spec.values)
        message = f'"{text}" is not a member of enum {spec.enum}'.rstrip()
        report(
            rules.ATTRIBUTE_VALUE(
                where,
                attribute=spec.name,
                value=text,
                op=op,
                problem=f"is not one of {names}",
                ov_message=message,
            )
        )
        return None
    hint = ""
    if text.strip().lower() in {"none", "notset", ""}:
        hint = '; for explicit pads write auto_pad="explicit" (or leave auto_pad out)'
    elif text.strip().lower() in spec.values:
        hint = f'; remove the blanks: auto_pad="{text.strip().lower()}"'
    elif text.strip().lower() in {"same", "auto"}:
        hint = '; write auto_pad="same_upper" or "same_lower"'
    report(rules.AUTO_PAD_VALUE(where, value=text, hint=hint))
    return None


def spatial_list(parsed: ParsedAttributes, spec: AttributeSpec, num_spatial: int) -> tuple[int, ...]:
    """The attribute's value, or its default on every axis when missing, empty or unusable."""
    value = parsed.int_list(spec.name)
    if len(value) != num_spatial or spec.name in parsed.broken:
        return (int(spec.default),) * num_spatial
    return value
