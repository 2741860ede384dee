"""Reporters: each renders the same list of :class:`FileReport` in one output format.

This module holds what every format shares: the reporter interface (:class:`Reporter`), its
options (:class:`ReportOptions`), the summary and the statistics. A format's module is imported
when the format is first asked for (:data:`REPORTERS`): a run prints one format, and the others
(SARIF's hashlib, JUnit's xml.etree) would only cost start-up time. The interface lives here,
not in a module of its own, as every run that reports needs it: its own module cost every check
~0.3M instructions of the import machinery alone (``tests/test_startup.py`` pins the layers).
"""

from __future__ import annotations

import importlib
import os
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from irshape.paths import relative_posix
from irshape.record import FrozenRecord, set_field
from irshape.results import DryRunSummary, FileReport
from irshape.rules import RULES

if TYPE_CHECKING:  # a baseline's module (json) is imported only by a run that has one
    from irshape.baseline import BaselineResult

# Format name -> (module, class), in the order --help lists them.
_CLASSES = {
    "text": ("irshape.report.text", "TextReporter"),
    "json": ("irshape.report.json", "JsonReporter"),
    "sarif": ("irshape.report.sarif", "SarifReporter"),
    "github": ("irshape.report.github", "GithubReporter"),
    "junit": ("irshape.report.junit", "JunitReporter"),
}
FORMATS = tuple(_CLASSES)
INFER_FORMATS = ("text", "json")


class ReportOptions(FrozenRecord):
    """How to render: the CLI fills these in from its flags; the defaults suit library use.

    ``verbosity`` is -2 (nothing), -1 (findings only), 0 (findings and a summary) or 1 (also
    the files without findings); machine formats ignore it. ``strict`` says warnings fail,
    which JUnit shows. ``root`` is what SARIF, GitHub and JUnit paths are relative to
    (default: the current directory). ``source`` gives a file's bytes for the text format to
    show each finding's line under it (``--show-source``; None: no source shown).
    ``baseline`` is what a baseline filtered out, for the summaries.
    """

    __slots__ = ("baseline", "color", "root", "source", "statistics", "strict", "verbosity")
    color: bool
    verbosity: int
    statistics: bool
    strict: bool
    root: str | os.PathLike[str] | None
    source: Callable[[str], bytes] | None
    baseline: BaselineResult | None

    def __init__(
        self,
        color: bool = False,
        verbosity: int = 0,
        statistics: bool = False,
        strict: bool = False,
        root: str | os.PathLike[str] | None = None,
        source: Callable[[str], bytes] | None = None,
        baseline: BaselineResult | None = None,
    ) -> None:
        set_field(self, "color", color)
        set_field(self, "verbosity", verbosity)
        set_field(self, "statistics", statistics)
        set_field(self, "strict", strict)
        set_field(self, "root", root)
        set_field(self, "source", source)
        set_field(self, "baseline", baseline)


class Reporter:
    """Renders check results as one string; the CLI decides where it goes."""

    name: ClassVar[str] = ""
    inline_statistics: ClassVar[bool] = False  # --statistics in the output itself, else on stderr

    def __init__(self, options: ReportOptions | None = None) -> None:
        self.options = options or ReportOptions()

    def render_check(self, reports: Sequence[FileReport]) -> str:
        raise NotImplementedError

    def render_infer(self, reports: Sequence[FileReport]) -> str:
        raise NotImplementedError(f"the {self.name} format has no infer output")

    def relative(self, path: str) -> str:
        """``path`` relative to the root, in POSIX form (as SARIF and GitHub want it)."""
        if path.startswith("<"):  # <stdin>, <string>: not a file
            return path
        return relative_posix(path, os.getcwd() if self.options.root is None else self.options.root)


def summary(reports: Sequence[FileReport], baseline: BaselineResult | None = None) -> dict[str, Any]:
    """The counts every format's summary gives; with a baseline, what it matched and its
    stale entries."""
    severities = Counter(d.severity.value for r in reports for d in r.diagnostics)
    out: dict[str, Any] = {
        "files": len(reports),
        "files_with_errors": sum(1 for r in reports if r.errors),
        "errors": severities["error"],
        "warnings": severities["warning"],
        "infos": severities["info"],
        "layers_checked": sum(r.layers_checked for r in reports),
        "layers_not_checked": sum(r.layers_not_checked for r in reports),
    }
    dry_run = dry_run_summary(reports)
    if dry_run is not None:
        out["dry_run"] = dry_run.to_json()
    if baseline is not None:
        out["baseline"] = {"matched": baseline.matched, "stale": baseline.stale}
    return out


def dry_run_summary(reports: Sequence[FileReport]) -> DryRunSummary | None:
    """What the dry runs of ``reports`` executed, added up; None when there was no dry run."""
    runs = [r.dry_run for r in reports if r.dry_run is not None]
    if not runs:
        return None
    total = DryRunSummary()
    for run in runs:
        total.add(run)
    return total


def statistics(reports: Sequence[FileReport]) -> list[tuple[str, int]]:
    """The number of findings of each code that has any, in code order."""
    counts = Counter(d.code for r in reports for d in r.diagnostics)
    return sorted(counts.items())


def statistics_lines(reports: Sequence[FileReport]) -> list[str]:
    """``--statistics`` as flake8 prints it: count, code, then what the code means."""
    return [
        f"{count:<5} {code} [{RULES[code].severity.value}] {RULES[code].name}: {RULES[code].summary}"
        for code, count in statistics(reports)
    ]


class _Reporters(Mapping[str, type[Reporter]]):
    """Format name -> reporter class, each imported on first use."""

    def __getitem__(self, name: str) -> type[Reporter]:
        module, cls = _CLASSES[name]
        reporter: type[Reporter] = getattr(importlib.import_module(module), cls)
        return reporter

    def __iter__(self) -> Iterator[str]:
        return iter(_CLASSES)

    def __len__(self) -> int:
        return len(_CLASSES)


REPORTERS: Mapping[str, type[Reporter]] = _Reporters()


def __getattr__(name: str) -> Any:
    """The reporter classes by name (``from irshape.report import SarifReporter``), lazily."""
    for module, cls in _CLASSES.values():
        if cls == name:
            return getattr(importlib.import_module(module), cls)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FORMATS", "INFER_FORMATS", "REPORTERS", "ReportOptions", "Reporter"]
