"""Findings: what irshape reports, where, and how serious it is.

Every finding is produced from a :class:`Rule` of the registry in :mod:`irshape.rules`
(one entry per code, with its message template and its documentation), so codes, messages,
``irshape rule CODE``, SARIF rule entries and the README table all come from one place.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace
from typing import Any


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True, slots=True)
class Location:
    """Where a finding points: a file, a line, and the layer it concerns (if any)."""

    path: str
    line: int | None = None
    column: int = 1
    layer_id: str | None = None
    layer_name: str | None = None
    layer_type: str | None = None
    layer_version: str | None = None

    def at_line(self, line: int | None) -> Location:
        return self if line is None else replace(self, line=line)


@dataclass(frozen=True, slots=True, kw_only=True)
class Diagnostic(Location):
    """One finding, at its location. ``declared``/``expected`` carry the values compared."""

    code: str
    severity: Severity
    message: str
    port: str | None = None
    axis: int | None = None
    declared: Any = None
    expected: Any = None
    related: tuple[str, ...] = ()

    @property
    def rule(self) -> Rule:
        from irshape.rules import RULES

        return RULES[self.code]

    def sort_key(self) -> tuple[int, int, str]:
        return (self.line or 0, self.column, self.code)

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


@dataclass(frozen=True, slots=True)
class Rule:
    """One diagnostic code: its template and its documentation (what, why, fix)."""

    code: str
    name: str
    severity: Severity
    template: str
    summary: str
    why: str
    fix: str
    example: str = ""

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
        return Diagnostic(
            **{f.name: getattr(loc, f.name) for f in fields(Location)},
            code=self.code,
            severity=severity or self.severity,
            message=self.template.format_map(
                _Args({"port": port, "axis": axis, "declared": declared, "expected": expected, **args})
            ),
            port=port,
            axis=axis,
            declared=declared,
            expected=expected,
            related=related,
        )


class _Args(dict[str, Any]):
    """Template arguments; a missing one is a bug in irshape, so name it loudly."""

    def __missing__(self, key: str) -> str:
        raise KeyError(f"diagnostic template argument {key!r} not given")
