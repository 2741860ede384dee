"""Op schemas as data, and the one generic validator that reads them.

Each ``schemas/<Op>-<version>.toml`` (installed as the ``irshape.schemas`` package) declares an
op's inputs, attributes, defaults, value ranges and kernel layout. At run time they are read
from ``schemas/_compiled.py``, the same data as literals (regenerated from the TOML files by
``python tools/compile_schemas.py``). This module turns a layer's ``<data>`` attributes into
typed values and findings; it knows no op by name.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from irshape import rules
from irshape.diagnostics import Diagnostic, Location
from irshape.ir.values import ListSyntaxError, parse_int_list
from irshape.record import FrozenRecord, set_field

AttrValue = tuple[int, ...] | str


# Records and a plain class, not dataclasses or NamedTuples: see irshape.record.


class AttributeSpec(FrozenRecord):
    __slots__ = ("case_insensitive", "default", "length", "min", "name", "spec_required", "type", "values")
    name: str
    type: str  # "int_list" or "enum"
    default: int | str
    length: str | None  # "spatial": one value per spatial axis
    min: int | None
    spec_required: bool  # the spec says "Required: yes" although OpenVINO defaults it
    values: tuple[str, ...]
    case_insensitive: bool

    def __init__(
        self,
        name: str,
        type: str,
        default: int | str,
        length: str | None = None,
        min: int | None = None,
        spec_required: bool = False,
        values: tuple[str, ...] = (),
        case_insensitive: bool = False,
    ) -> None:
        set_field(self, "name", name)
        set_field(self, "type", type)
        set_field(self, "default", default)
        set_field(self, "length", length)
        set_field(self, "min", min)
        set_field(self, "spec_required", spec_required)
        set_field(self, "values", values)
        set_field(self, "case_insensitive", case_insensitive)


class InputSpec(FrozenRecord):
    __slots__ = ("element_types", "layout", "name", "optional", "ranks")
    name: str
    layout: str
    ranks: tuple[int, ...] | None
    optional: bool
    element_types: str | None

    def __init__(
        self,
        name: str,
        layout: str,
        ranks: tuple[int, ...] | None = None,
        optional: bool = False,
        element_types: str | None = None,
    ) -> None:
        set_field(self, "name", name)
        set_field(self, "layout", layout)
        set_field(self, "ranks", ranks)
        set_field(self, "optional", optional)
        set_field(self, "element_types", element_types)


class OpSchema(FrozenRecord):
    __slots__ = (
        "attributes",
        "data_and_kernel_types",
        "family",
        "inputs",
        "kernel_layout",
        "legacy_attributes",
        "op",
        "opsets",
        "spec",
        "version",
    )
    op: str
    version: int
    family: str
    opsets: tuple[int, int]
    kernel_layout: tuple[str, ...]
    inputs: tuple[InputSpec, ...]
    attributes: dict[str, AttributeSpec]
    legacy_attributes: dict[str, str]
    data_and_kernel_types: str
    spec: str

    def __init__(
        self,
        op: str,
        version: int,
        family: str,
        opsets: tuple[int, int],
        kernel_layout: tuple[str, ...],
        inputs: tuple[InputSpec, ...],
        attributes: dict[str, AttributeSpec],
        legacy_attributes: dict[str, str],
        data_and_kernel_types: str = "numeric",
        spec: str = "",
    ) -> None:
        set_field(self, "op", op)
        set_field(self, "version", version)
        set_field(self, "family", family)
        set_field(self, "opsets", opsets)
        set_field(self, "kernel_layout", kernel_layout)
        set_field(self, "inputs", inputs)
        set_field(self, "attributes", attributes)
        set_field(self, "legacy_attributes", legacy_attributes)
        set_field(self, "data_and_kernel_types", data_and_kernel_types)
        set_field(self, "spec", spec)

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
    def input_counts(self) -> tuple[int, int]:
        required = sum(1 for i in self.inputs if not i.optional)
        return required, len(self.inputs)

    def accepts_opset(self, version: str) -> bool:
        lo, hi = self.opsets
        return version in {f"opset{n}" for n in range(lo, hi + 1)}


def _load(raw: dict[str, Any]) -> OpSchema:
    """The schema from a file's parsed TOML."""
    attributes = {
        name: AttributeSpec(
            name=name,
            type=spec["type"],
            default=spec["default"],
            length=spec.get("length"),
            min=spec.get("min"),
            spec_required=spec.get("spec_required", False),
            values=tuple(spec.get("values", ())),
            case_insensitive=spec.get("case_insensitive", False),
        )
        for name, spec in raw["attributes"].items()
    }
    inputs = tuple(
        InputSpec(
            name=spec["name"],
            layout=spec["layout"],
            ranks=tuple(spec["ranks"]) if "ranks" in spec else None,
            optional=spec.get("optional", False),
            element_types=spec.get("element_types"),
        )
        for spec in raw["inputs"]
    )
    return OpSchema(
        op=raw["op"],
        version=raw["version"],
        family=raw["family"],
        opsets=(raw["opsets"][0], raw["opsets"][1]),
        kernel_layout=tuple(raw["kernel_layout"]),
        inputs=inputs,
        attributes=attributes,
        legacy_attributes=dict(raw.get("legacy_attributes", {})),
        data_and_kernel_types=raw.get("element_types", {}).get("data_and_kernel", "numeric"),
        spec=raw.get("spec", ""),
    )


@functools.cache
def _schema_dir() -> Path:
    """The installed ``irshape.schemas`` package (plain files: cheaper than importlib.resources,
    whose imports cost several ms of every start-up)."""
    from importlib import import_module  # by name: schemas/ is mapped into the package at install

    return Path(next(iter(import_module("irshape.schemas").__path__)))


@functools.cache
def _schema_files() -> dict[str, str]:
    """Op type (lower case, as OpenVINO looks types up case-insensitively) -> file name."""
    names = [name for name in os.listdir(_schema_dir()) if name.endswith(".toml")]  # glob() compiles a regex
    return {name.rsplit("-", 1)[0].lower(): name for name in names}


@functools.cache
def _compiled() -> dict[str, dict[str, Any]]:
    """File name -> parsed TOML, from ``schemas/_compiled.py`` (``python tools/compile_schemas.py``
    writes it): a module of literals loads from bytecode, where tomllib costs ms at every start."""
    from importlib import import_module

    compiled: dict[str, dict[str, Any]] = import_module("irshape.schemas._compiled").SCHEMAS
    return compiled


@functools.cache
def _schema_by_file(file_name: str) -> OpSchema:
    raw = _compiled().get(file_name)
    if raw is None:  # a schema added without recompiling (tests/test_schema_compiled.py fails)
        import tomllib

        raw = tomllib.loads((_schema_dir() / file_name).read_text("utf-8"))
    return _load(raw)


@functools.lru_cache(maxsize=1024)  # asked for every layer; a file has few types
def find_schema(op_type: str | None) -> OpSchema | None:
    """The schema for ``op_type`` (case-insensitive, as in OpenVINO), or None if unknown."""
    file_name = _schema_files().get((op_type or "").lower())
    return None if file_name is None else _schema_by_file(file_name)


def all_schemas() -> list[OpSchema]:
    return [_schema_by_file(name) for name in sorted(_schema_files().values())]


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
        return value if isinstance(value, tuple) else ()

    def enum(self, name: str, default: str) -> str:
        value = self.values.get(name, default)
        return value if isinstance(value, str) else default


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
        value = _parse_value(spec, text, where, report)
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
    if spec.type == "enum":
        return _parse_enum(spec, text, where, report)
    try:
        parsed = parse_int_list(text)
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


def _parse_enum(spec: AttributeSpec, text: str, where: Location, report: Report) -> str | None:
    key = text.lower() if spec.case_insensitive else text
    if key in spec.values:
        return key
    hint = ""
    if text.strip().lower() in {"none", "notset", ""}:
        hint = '; for explicit pads write auto_pad="explicit" (or leave auto_pad out)'
    elif text.strip().lower() in spec.values:
        hint = f'; remove the blanks: auto_pad="{text.strip().lower()}"'
    elif text.strip().lower() in {"same", "auto"}:
        hint = '; write auto_pad="same_upper" or "same_lower"'
    report(rules.AUTO_PAD_VALUE(where, value=text, hint=hint))
    return None


def validate_lengths(
    schema: OpSchema, parsed: ParsedAttributes, num_spatial: int, where: Location, report: Report
) -> None:
    """Every present ``length = "spatial"`` list must have one value per spatial axis."""
    for name, spec in schema.attributes.items():
        value = parsed.values.get(name)
        if spec.length != "spatial" or not isinstance(value, tuple) or not value:
            continue
        if len(value) != num_spatial:
            parsed.broken.add(name)
            report(
                rules.ATTRIBUTE_LENGTH(
                    where,
                    attribute=name,
                    text=parsed.texts[name],
                    length=len(value),
                    spatial=num_spatial,
                    ov_message=_LENGTH_MESSAGES[name],
                )
            )


_LENGTH_MESSAGES = {
    "strides": "Strides should be defined for all and only spatial dimensions.",
    "dilations": "Dilations should be defined for all and only spatial dimensions.",
    "pads_begin": "Pads begin and end should be defined for all and only spatial dimensions.",
    "pads_end": "Pads begin and end should be defined for all and only spatial dimensions.",
    "output_padding": "Output padding should be defined for all and only spatial dimensions.",
}


def spatial_list(parsed: ParsedAttributes, spec: AttributeSpec, num_spatial: int) -> tuple[int, ...]:
    """The attribute's value, or its default on every axis when missing, empty or unusable."""
    value = parsed.int_list(spec.name)
    if len(value) != num_spatial or spec.name in parsed.broken:
        return (int(spec.default),) * num_spatial
    return value
