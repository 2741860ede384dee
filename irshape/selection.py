"""Which findings a run reports, which of them fail it, and what its exit code is.

Selectors are code prefixes, as in flake8 and ruff: ``IRS3`` is every IRS3xx code, ``IRS301``
one code, ``ALL`` (or ``IRS``) every code. The codes a run reports are resolved as ruff does:
from every code, through one :class:`RuleSelection` after another (the configuration's, then
the command line's). In each, a ``select`` starts over from the codes it selects, while
``extend-select`` and ``ignore`` change the codes so far; within one, the more specific (longer)
selector wins, and ``ignore`` wins a tie: ``--select IRS1 --ignore IRS105`` reports every IRS1xx
but IRS105, ``--ignore IRS1 --select IRS105`` only IRS105 of them. So a code the configuration
ignores is reported when the command line selects it. ``per-file-ignores`` always win. IRS901
(irshape itself failed) is never filtered out.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from irshape import rules
from irshape.diagnostics import Diagnostic, Severity
from irshape.paths import Glob
from irshape.record import FrozenRecord, set_field
from irshape.results import FileReport, LayerResult

ALL = "ALL"

EXIT_OK, EXIT_FINDINGS, EXIT_ABNORMAL = 0, 1, 2


class SelectorError(ValueError):
    """A selector that matches no diagnostic code."""


def parse_selector(selector: str) -> str:
    """The normalised selector: a code prefix in upper case (a rule's name, ``value-unknown``,
    is its code); :class:`SelectorError` if it selects nothing."""
    named = rules.lookup(selector)
    if named is not None:
        return named.code
    normal = selector.strip().upper()
    if normal == ALL or (normal and any(code.startswith(normal) for code in rules.RULES)):
        return normal
    raise SelectorError(
        f"{selector!r} matches no diagnostic code (codes look like IRS301, prefixes like IRS3, "
        "names like declared-dim-mismatch; `irshape rules` lists them)"
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


class RuleSelection(FrozenRecord):
    """One layer of the selection: the configuration's, or the command line's.

    ``select`` (None: not given) replaces the codes selected so far; ``extend_select`` adds to
    them and ``ignore`` (with ``extend-ignore``) takes from them.
    """

    __slots__ = ("extend_select", "ignore", "origin", "select")
    select: tuple[str, ...] | None
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]
    origin: str  # where it was given: "configuration", "command line"

    def __init__(
        self,
        select: tuple[str, ...] | None = None,
        extend_select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
        origin: str = "",
    ) -> None:
        set_field(self, "select", select)
        set_field(self, "extend_select", extend_select)
        set_field(self, "ignore", ignore)
        set_field(self, "origin", origin)

    @property
    def given(self) -> bool:
        return self.select is not None or bool(self.extend_select or self.ignore)

    def apply(self, enabled: frozenset[str], codes: Iterable[str]) -> frozenset[str]:
        """The codes selected after this layer, given those selected before it."""
        result = set() if self.select is not None else set(enabled)
        chosen = (*(self.select or ()), *self.extend_select)
        for code in codes:
            selected, ignored = _match_length(code, chosen), _match_length(code, self.ignore)
            if ignored >= 0 and ignored >= selected:
                result.discard(code)
            elif selected >= 0:
                result.add(code)
        return frozenset(result)


def resolve_codes(layers: Iterable[RuleSelection], codes: Iterable[str] | None = None) -> frozenset[str]:
    """The codes selected after ``layers`` in order, starting from every code."""
    universe = tuple(rules.RULES if codes is None else codes)
    enabled = frozenset(universe)
    for layer in layers:
        enabled = layer.apply(enabled, universe)
    return enabled


class Selection(FrozenRecord):
    """The codes to report: ``layers`` resolved in order, minus ``per_file_ignores`` per file.

    ``Selection(select=..., ignore=...)`` is the selection of one layer.
    """

    __slots__ = ("enabled", "layers", "per_file_ignores")
    layers: tuple[RuleSelection, ...]
    per_file_ignores: tuple[tuple[Glob, tuple[str, ...]], ...]
    enabled: frozenset[str]

    def __init__(
        self,
        select: tuple[str, ...] = (ALL,),
        ignore: tuple[str, ...] = (),
        per_file_ignores: tuple[tuple[Glob, tuple[str, ...]], ...] = (),
        *,
        layers: tuple[RuleSelection, ...] | None = None,
    ) -> None:
        layers = (RuleSelection(select=select, ignore=ignore),) if layers is None else layers
        set_field(self, "layers", layers)
        set_field(self, "per_file_ignores", per_file_ignores)
        set_field(self, "enabled", resolve_codes(layers))

    def selects(self, code: str, path: str | os.PathLike[str] | None = None) -> bool:
        if code == rules.INTERNAL_ERROR.code:
            return True
        if code not in self.enabled:
            return False
        return path is None or not any(
            _match_length(code, codes) >= 0 for glob, codes in self.per_file_ignores if glob.matches(path)
        )

    def apply(self, report: FileReport, path: str | os.PathLike[str] | None = None) -> FileReport:
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


def is_missing_weights(d: Diagnostic) -> bool:
    """An IRS009 of a .bin that is missing or a Git LFS pointer (not an empty one, an error
    of its own): the finding every IR of a checkout without its weights has."""
    return d.code == rules.WEIGHTS_UNREADABLE.code and " is empty;" not in d.message


def with_missing_weights(report: FileReport, severity: Severity) -> FileReport:
    """``report`` with its missing-weights finding (IRS009) at ``severity``: ``error`` for a
    user who wants a run to fail when OpenVINO could not read a model for want of its .bin."""
    if not any(is_missing_weights(d) and d.severity is not severity for d in report.diagnostics):
        return report
    diagnostics = [d.replace(severity=severity) if is_missing_weights(d) else d for d in report.diagnostics]
    return report.replace(diagnostics=diagnostics)
