"""Which findings a run reports, which of them fail it, and what its exit code is.

Selectors are code prefixes, as in flake8 and ruff: ``IRS3`` is every IRS3xx code, ``IRS301``
one code, ``ALL`` (or ``IRS``) every code. When a code matches both ``select`` and ``ignore``,
the longer (more specific) selector wins, and ``ignore`` wins a tie: ``--select IRS1 --ignore
IRS105`` reports every IRS1xx but IRS105, ``--ignore IRS1 --select IRS105`` only IRS105 of them.
``per-file-ignores`` always win. IRS901 (irshape itself failed) is never filtered out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from irshape import rules
from irshape.diagnostics import Diagnostic, Severity
from irshape.files import Glob
from irshape.record import FrozenRecord, set_field
from irshape.results import FileReport, LayerResult

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


class Selection(FrozenRecord):
    """The codes to report: ``select`` minus ``ignore``, minus ``per_file_ignores`` per file."""

    __slots__ = ("ignore", "per_file_ignores", "select")
    select: tuple[str, ...]
    ignore: tuple[str, ...]
    per_file_ignores: tuple[tuple[Glob, tuple[str, ...]], ...]

    def __init__(
        self,
        select: tuple[str, ...] = (ALL,),
        ignore: tuple[str, ...] = (),
        per_file_ignores: tuple[tuple[Glob, tuple[str, ...]], ...] = (),
    ) -> None:
        set_field(self, "select", select)
        set_field(self, "ignore", ignore)
        set_field(self, "per_file_ignores", per_file_ignores)

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
        return report if len(kept) == len(report.diagnostics) else report.replace(diagnostics=kept)


def fails(diagnostic: Diagnostic, *, strict: bool = False) -> bool:
    """Whether a finding fails the run: errors always, warnings with ``strict``."""
    return diagnostic.severity is Severity.ERROR or (strict and diagnostic.severity is Severity.WARNING)


def _layer_key(item: Diagnostic | LayerResult) -> tuple[str | None, ...]:
    if isinstance(item, LayerResult):
        return (item.layer_id, item.name, item.type, item.version)
    return (item.layer_id, item.layer_name, item.layer_type, item.layer_version)


def rejections(report: FileReport) -> tuple[dict[int, Diagnostic], list[Diagnostic]]:
    """What ``irshape infer`` shows instead of shapes: for each layer irshape infers (by its
    index in ``report.layers``) the first finding by which OpenVINO rejects it, and the other
    rejecting findings of the file (an unreadable file, a fault of the graph or of another op)."""
    inferred = {_layer_key(layer): i for i, layer in enumerate(report.layers) if layer.checked}
    by_layer: dict[int, Diagnostic] = {}
    elsewhere: list[Diagnostic] = []
    for d in report.diagnostics:
        if not rules.rejects(d):
            continue
        index = inferred.get(_layer_key(d))
        if index is None:
            elsewhere.append(d)
        else:
            by_layer.setdefault(index, d)
    return by_layer, elsewhere


def _failed(reports: Sequence[FileReport]) -> bool:
    """Whether irshape itself failed on any file (IRS901): exit 2, whatever else."""
    return any(d.code == rules.INTERNAL_ERROR.code for r in reports for d in r.diagnostics)


def exit_code(reports: Sequence[FileReport], *, strict: bool = False, exit_zero: bool = False) -> int:
    """``check``: 0 no failing finding, 1 failing findings, 2 irshape itself failed (even with
    exit_zero)."""
    if _failed(reports):
        return EXIT_ABNORMAL
    if exit_zero:
        return EXIT_OK
    failing = any(fails(d, strict=strict) for r in reports for d in r.diagnostics)
    return EXIT_FINDINGS if failing else EXIT_OK


def infer_exit_code(reports: Sequence[FileReport]) -> int:
    """``infer``: 0 OpenVINO rejects nothing, 1 it rejects a layer or a file (a finding
    :func:`rejects`, e.g. an unparsable file), 2 irshape itself failed."""
    if _failed(reports):
        return EXIT_ABNORMAL
    return EXIT_FINDINGS if any(rules.rejects(d) for r in reports for d in r.diagnostics) else EXIT_OK
