"""A baseline: the findings a repository already has, so that a run fails only on new ones.

IR files are written by converters and rewritten on every export, so a suppression written in
one would not survive. A baseline lives beside them instead: ``irshape check --write-baseline
FILE`` records the findings of a run, ``irshape check --baseline FILE`` reports only findings
not in it. A finding is recorded by its file (relative to the baseline's directory), its code
and its fingerprint: the code and what it is about (the layer, port and axis; the message for
a finding of the whole file), never its line or column, so a finding survives moved lines, as
SARIF's ``partialFingerprints`` (the same fingerprints) do. A file may hold a finding several
times; the baseline counts them. Entries of files the run checked that no longer match a
finding are stale: counted in the summary, so that the baseline can be written again.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from irshape.diagnostics import Diagnostic
from irshape.paths import relative_posix
from irshape.record import FrozenRecord, set_field
from irshape.results import FileReport

BASELINE_VERSION = 1


class BaselineError(Exception):
    """A baseline file irshape cannot read; the message names it and says why."""


def fingerprint(d: Diagnostic) -> str:
    """Stable across runs and line moves: the code and what the finding is about."""
    import hashlib  # only SARIF and baselines fingerprint findings

    about = d.message if d.layer_id is None else ""
    key = "\0".join(str(part) for part in (d.code, d.layer_id, d.layer_name, d.port, d.axis, about))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


class BaselineResult(FrozenRecord):
    """What a baseline did to a run: the findings it matched, and its stale entries."""

    __slots__ = ("matched", "stale")
    matched: int
    stale: int

    def __init__(self, matched: int, stale: int) -> None:
        set_field(self, "matched", matched)
        set_field(self, "stale", stale)


def _relative(path: str, base: Path) -> str:
    return path if path.startswith("<") else relative_posix(path, base)  # <stdin> is no file


def _key(path: str, base: Path, d: Diagnostic) -> tuple[str, str, str]:
    return (_relative(path, base), d.code, fingerprint(d))


def write_baseline(file: str | os.PathLike[str], reports: Sequence[FileReport]) -> int:
    """Record the findings of ``reports`` in ``file`` (replacing it); the number recorded."""
    target = Path(os.fspath(file))
    base = target.resolve().parent
    entries = []
    for report in reports:
        for d in report.diagnostics:
            path, code, print_ = _key(report.path, base, d)
            entries.append({"path": path, "code": code, "fingerprint": print_, "message": d.message})
    entries.sort(key=lambda e: (e["path"], e["code"], e["fingerprint"]))
    document = {"version": BASELINE_VERSION, "tool": "irshape", "findings": entries}
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, target)
    return len(entries)


class Baseline:
    """The findings recorded in a baseline file, by file, code and fingerprint."""

    def __init__(self, counts: Counter[tuple[str, str, str]], base: Path) -> None:
        self.counts = counts
        self.base = base

    @classmethod
    def load(cls, file: str | os.PathLike[str]) -> Baseline:
        path = Path(os.fspath(file))
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise BaselineError(f"{path}: cannot read the baseline: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BaselineError(f"{path}: not a baseline written by irshape: {exc}") from None
        findings = document.get("findings") if isinstance(document, dict) else None
        if not isinstance(findings, list) or document.get("version") != BASELINE_VERSION:
            raise BaselineError(f"{path}: not a baseline written by irshape (version {BASELINE_VERSION})")
        counts: Counter[tuple[str, str, str]] = Counter()
        for entry in findings:
            try:
                counts[(str(entry["path"]), str(entry["code"]), str(entry["fingerprint"]))] += 1
            except (KeyError, TypeError):
                raise BaselineError(
                    f"{path}: an entry without path, code or fingerprint: {entry!r}"
                ) from None
        return cls(counts, path.resolve().parent)

    def filter(self, reports: Iterable[FileReport]) -> tuple[list[FileReport], BaselineResult]:
        """``reports`` without the findings the baseline holds, and what it matched."""
        left = Counter(self.counts)
        checked: set[str] = set()
        kept_reports, matched = [], 0
        for report in reports:
            kept = []
            checked.add(_relative(report.path, self.base))
            for d in report.diagnostics:
                key = _key(report.path, self.base, d)
                if left[key] > 0:
                    left[key] -= 1
                    matched += 1
                else:
                    kept.append(d)
            same = len(kept) == len(report.diagnostics)
            kept_reports.append(report if same else report.replace(diagnostics=kept))
        stale = sum(count for (path, _, _), count in left.items() if path in checked and count > 0)
        return kept_reports, BaselineResult(matched, stale)
