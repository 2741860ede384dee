"""Findings: what irshape reports, where, and how serious it is.

Every finding is produced from a :class:`Rule` of the registry in :mod:`irshape.rules`
(one entry per code, with its message template and its documentation), so codes, messages,
``irshape rule CODE``, SARIF rule entries and the README table all come from one place.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar, Self

from irshape.record import FrozenRecord, TupleRecord, set_field, tuple_field


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


class Location(FrozenRecord):
    """Where a finding points: a file, a line, and the layer it concerns (if any)."""

    __slots__ = ("column", "layer_id", "layer_name", "layer_type", "layer_version", "line", "path")
    path: str
    line: int | None
    column: int
    layer_id: str | None
    layer_name: str | None
    layer_type: str | None
    layer_version: str | None

    def __init__(
        self,
        path: str,
        line: int | None = None,
        column: int = 1,
        layer_id: str | None = None,
        layer_name: str | None = None,
        layer_type: str | None = None,
        layer_version: str | None = None,
    ) -> None:
        set_field(self, "path", path)
        set_field(self, "line", line)
        set_field(self, "column", column)
        set_field(self, "layer_id", layer_id)
        set_field(self, "layer_name", layer_name)
        set_field(self, "layer_type", layer_type)
        set_field(self, "layer_version", layer_version)

    def at_line(self, line: int | None) -> Location:
        if line is None:
            return self
        if type(self) is not Location:  # a Diagnostic keeps its own fields
            return self.replace(line=line)
        # Directly, not with replace(): called for every Const and convolution of a model.
        return Location(
            self.path,
            line,
            self.column,
            self.layer_id,
            self.layer_name,
            self.layer_type,
            self.layer_version,
        )


class Diagnostic(Location):
    """One finding, at its location. ``declared``/``expected`` carry the values compared."""

    __slots__ = ("axis", "code", "declared", "expected", "message", "port", "related", "severity")
    code: str
    severity: Severity
    message: str
    port: str | None
    axis: int | None
    declared: Any
    expected: Any
    related: tuple[str, ...]

    def __init__(
        self,
        path: str,
        line: int | None = None,
        column: int = 1,
        layer_id: str | None = None,
        layer_name: str | None = None,
        layer_type: str | None = None,
        layer_version: str | None = None,
        *,
        code: str,
        severity: Severity,
        message: str,
        port: str | None = None,
        axis: int | None = None,
        declared: Any = None,
        expected: Any = None,
        related: tuple[str, ...] = (),
    ) -> None:
        Location.__init__(self, path, line, column, layer_id, layer_name, layer_type, layer_version)
        set_field(self, "code", code)
        set_field(self, "severity", severity)
        set_field(self, "message", message)
        set_field(self, "port", port)
        set_field(self, "axis", axis)
        set_field(self, "declared", declared)
        set_field(self, "expected", expected)
        set_field(self, "related", related)

    def sort_key(self) -> tuple[int, int, str, str]:
        """Line, column, code, then the message: the order never depends on the order irshape
        found them in (which layers share a line, say, or which walk order a graph takes)."""
        return (self.line or 0, self.column, self.code, self.message)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "layer_id": self.layer_id,
            "layer_name": self.layer_name,
            "layer_type": self.layer_type,
            "layer_version": self.layer_version,
        }
        for key in ("port", "axis", "declared", "expected"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value if isinstance(value, int | str | float) else str(value)
        if self.related:
            out["related"] = list(self.related)
        return out


class Rule(TupleRecord):
    """One diagnostic code: its template and its documentation (what, why, fix).

    A :class:`~irshape.record.TupleRecord`: the registry makes 85 at every start, each in one
    C call, where a :class:`FrozenRecord`'s eight ``set_field`` calls cost ~0.7M instructions."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = (
        "code",
        "name",
        "severity",
        "template",
        "summary",
        "why",
        "fix",
        "example",
    )
    code: str = tuple_field(0)
    name: str = tuple_field(1)
    severity: Severity = tuple_field(2)
    template: str = tuple_field(3)
    summary: str = tuple_field(4)
    why: str = tuple_field(5)
    fix: str = tuple_field(6)
    example: str = tuple_field(7)

    def __new__(
        cls,
        code: str,
        name: str,
        severity: Severity,
        template: str,
        summary: str,
        why: str,
        fix: str,
        example: str = "",
    ) -> Self:
        return tuple.__new__(cls, (code, name, severity, template, summary, why, fix, example))

    def __call__(
        self,
        where: Location,
        *,
        line: int | None = None,
        port: str | None = None,
        axis: int | None = None,
        declared: Any = None,
        expected: Any = None,
        related: tuple[str, ...] = (),
        severity: Severity | None = None,
        **args: Any,
    ) -> Diagnostic:
        """Make a finding of this rule at ``where`` (``line`` overrides the location's)."""
        loc = where.at_line(line)
        values = {"port": port, "axis": axis, "declared": declared, "expected": expected, **args}
        try:
            message = self.template.format_map({k: _bounded(k, v) for k, v in values.items()})
        except KeyError as missing:  # a bug in irshape, so name the argument loudly
            raise KeyError(f"diagnostic template argument {missing.args[0]!r} not given") from None
        return Diagnostic(
            loc.path,
            loc.line,
            loc.column,
            loc.layer_id,
            loc.layer_name,
            loc.layer_type,
            loc.layer_version,
            code=self.code,
            severity=severity or self.severity,
            message=message,
            port=port,
            axis=axis,
            declared=declared,
            expected=expected,
            related=related,
        )


# A message quotes values from the file, which may be huge (a 10 MB attribute): each is cut to
# _QUOTE_MAX characters. The arguments a check composes (a reason, a consequence, a list of
# layers) may be longer, and quote such values themselves: they are cut to _COMPOSED_MAX.
_QUOTE_MAX = 80
_COMPOSED_MAX = 500
_COMPOSED = frozenset(
    {
        "arithmetic",
        "assumed",
        "consequence",
        "edge",
        "effect",
        "hint",
        "how",
        "layer",
        "meaning",
        "names",
        "ov_message",
        "packing",
        "problem",
        "producer",
        "reason",
        "them",
        "unbuilt",
        "what",
        "why",
    }
)
ELLIPSIS = "..."


_UNCUT = frozenset({"summary"})  # irshape's own failure, with its traceback under --debug


def _bounded(name: str, value: Any) -> Any:
    """``value`` as a message may quote it: a long text is cut, with an ellipsis."""
    if value is None or isinstance(value, int | float | enum.Enum) or name in _UNCUT:
        return value
    limit = _COMPOSED_MAX if name in _COMPOSED else _QUOTE_MAX
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + ELLIPSIS
    text = str(value)  # a shape or a list: cut only when its text is long
    return value if len(text) <= limit else text[:limit] + ELLIPSIS
