"""Which findings a run reports, and which of them fail it.

Selectors are code prefixes, as in flake8 and ruff: ``IRS3`` is every IRS3xx code, ``IRS301``
one code, ``ALL`` (or ``IRS``) every code. When a code matches both ``select`` and ``ignore``,
the longer (more specific) selector wins, and ``ignore`` wins a tie: ``--select IRS1 --ignore
IRS105`` reports every IRS1xx but IRS105, ``--ignore IRS1 --select IRS105`` only IRS105 of them.
``per-file-ignores`` always win. IRS901 (irshape itself failed) is never filtered out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from irshape import rules
from irshape.diagnostics import Diagnostic, Severity
from irshape.files import Glob
from irshape.results import FileReport

ALL = "ALL"

EXIT_OK, EXIT_FINDINGS, EXIT_ABNORMAL = 0, 1, 2


class SelectorError(ValueError):
    """A selector that matches no diagnostic code."""


def parse_selector(selector: str) -> str:
    """The normalised selector (upper case); :class:`SelectorError` if it selects nothing."""
    normal = selector.strip().upper()
    if normal == ALL or (normal and any(code.startswith(normal) for code in rules.RULES)):
        return normal
    raise SelectorError(
        f"{selector!r} matches no diagnostic code (codes look like IRS301, prefixes like IRS3; "
        "`irshape rules` lists them)"
    )


def parse_selectors(values: Iterable[str]) -> tuple[str, ...]:
    """Selectors from values that may each hold several, separated by commas."""
    return tuple(parse_selector(part) for value in values for part in value.split(",") if part.strip())


def _match_length(code: str, selectors: Iterable[str]) -> int:
    """The length of the longest selector matching ``code``; 0 for ``ALL``, -1 for none."""
    best = -1
    for selector in selectors:
        if selector == ALL:
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


@dataclass(frozen=True, slots=True)
class Selection:
    """The codes to report: ``select`` minus ``ignore``, minus ``per_file_ignores`` per file."""

    select: tuple[str, ...] = (ALL,)
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[Glob, tuple[str, ...]], ...] = ()

    def selects(self, code: str, path: str | Path | None = None) -> bool:
        if code == rules.INTERNAL_ERROR.code:
            return True
        if path is not None and any(
            _match_length(code, codes) >= 0 for glob, codes in self.per_file_ignores if glob.matches(path)
        ):
            return False
        selected = _match_length(code, self.select)
        return selected >= 0 and selected > _match_length(code, self.ignore)

    def apply(self, report: FileReport, path: str | Path | None = None) -> FileReport:
        """``report`` with only the selected findings; ``path`` (default: the report's) is
        what per-file-ignores match."""
        where = report.path if path is None else path
        kept = [d for d in report.diagnostics if self.selects(d.code, where)]
        return report if len(kept) == len(report.diagnostics) else replace(report, diagnostics=kept)


def fails(diagnostic: Diagnostic, *, strict: bool = False) -> bool:
    """Whether a finding fails the run: errors always, warnings with ``strict``."""
    return diagnostic.severity is Severity.ERROR or (strict and diagnostic.severity is Severity.WARNING)


def exit_code(reports: Sequence[FileReport], *, strict: bool = False, exit_zero: bool = False) -> int:
    """0 no failing finding, 1 failing findings, 2 irshape itself failed (even with exit_zero)."""
    findings = [d for r in reports for d in r.diagnostics]
    if any(d.code == rules.INTERNAL_ERROR.code for d in findings):
        return EXIT_ABNORMAL
    if exit_zero:
        return EXIT_OK
    return EXIT_FINDINGS if any(fails(d, strict=strict) for d in findings) else EXIT_OK
