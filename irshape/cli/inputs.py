"""Checking the inputs of a command: stdin, or files collected from paths, with progress."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

import click

from irshape.api import check_string
from irshape.cli.options import STDIN, AbnormalExit
from irshape.config import Settings
from irshape.files import WorkerDied, check_files
from irshape.paths import collect_files
from irshape.results import FileReport

PROGRESS_MIN_FILES = 8  # a progress bar only when more files than this are checked on a TTY


def is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream, or none at all
        return False


def _stderr_is_tty() -> bool:
    return is_tty(sys.stderr)


class Inputs:
    """The text of the files a run checked, for what is found after the check: the columns
    of the findings kept, and the lines --show-source shows. Stdin's text is kept; a file is
    read again (only a file with findings to show)."""

    def __init__(self, stdin: bytes | None = None) -> None:
        self.stdin = stdin

    def read(self, path: str) -> bytes:
        if self.stdin is not None:
            return self.stdin
        try:
            with open(path, "rb") as handle:
                return handle.read()
        except OSError:
            return b""


def check_reports(
    paths: Sequence[str],
    settings: Settings,
    *,
    stdin_filename: str | None,
    jobs: int,
    verbosity: int,
    check_options: Mapping[str, Any],
    keep: Callable[[list[FileReport]], list[FileReport]] | None = None,
    inputs: Inputs | None = None,
    layers: bool = True,
) -> list[FileReport]:
    """Check the inputs; the reports come back in a stable order, filtered by the selection
    (then by ``keep``), without the files that are no IR (named with -v), and with the columns
    of the findings kept. ``inputs`` is given the text of stdin, for what comes after. Without
    ``layers`` the reports keep only the counts of their layers (flat memory over many files)."""
    inputs = Inputs() if inputs is None else inputs
    options = {**check_options, "columns": False, "skip_non_ir": True}
    if STDIN in paths:
        if len(paths) > 1:
            raise click.UsageError("'-' (stdin) cannot be mixed with paths")
        data = sys.stdin.buffer.read() if sys.stdin is not None else b""  # (started without one)
        inputs.stdin = data
        checked = _kept(_check_stdin(data, stdin_filename or "<stdin>", verbosity, options), verbosity, set())
    else:
        collected = collect_files(paths, settings.exclude)
        named = _named_files(paths)
        for path in collected.excluded:
            if verbosity >= 1 or (verbosity >= 0 and _normal(path) in named):
                click.echo(f"irshape: excluded {path} (it matches the configuration's exclude)", err=True)
        if not collected.files and verbosity >= 0:
            click.echo("irshape: no .xml files to check", err=True)
        checked = _check_files(collected.files, jobs, verbosity, options, layers)
        checked = _kept(checked, verbosity, named)
    reports = [settings.selection.apply(report) for report in checked]
    if keep is not None:
        reports = keep(reports)
    _add_columns(reports, inputs)
    return reports


def _check_stdin(data: bytes, name: str, verbosity: int, options: Mapping[str, Any]) -> list[FileReport]:
    if options.get("dry_run") is None:
        return [check_string(data, path=name, **options)]
    from irshape.cli.progress import DryRunProgress  # only a dry run or a long check draws one

    stream = sys.stderr if verbosity >= 0 and _stderr_is_tty() else None
    with DryRunProgress(1, stream) as progress:
        return [check_string(data, path=name, **options, progress=progress.layer)]


def _check_files(
    files: Sequence[str], jobs: int, verbosity: int, options: Mapping[str, Any], layers: bool
) -> list[FileReport]:
    tty = verbosity >= 0 and _stderr_is_tty()
    try:
        if options.get("dry_run") is not None:
            from irshape.cli.progress import DryRunProgress  # only a dry run or a long check draws one

            # A dry run can take long even for one file: a progress line after a second.
            with DryRunProgress(len(files), sys.stderr if tty else None) as progress:
                with_progress = {**options, "progress": progress.layer}
                return check_files(
                    files, jobs=jobs, progress=progress.file_done, options=with_progress, layers=layers
                )
        if tty and len(files) > PROGRESS_MIN_FILES:
            from irshape.cli.progress import DryRunProgress  # as above

            # drawn at once, as a check of many files is long enough to be watched
            with DryRunProgress(len(files), sys.stderr, label="check", delay=0.0) as bar:
                return check_files(files, jobs=jobs, progress=bar.file_done, options=options, layers=layers)
        return check_files(files, jobs=jobs, options=options, layers=layers)
    except WorkerDied as exc:
        raise AbnormalExit(f"a worker process died ({exc}); try -j 1") from None


def _kept(reports: list[FileReport], verbosity: int, named: set[str]) -> list[FileReport]:
    """The reports of IR files. A file that is no IR is said in one line when the command line
    named it (as ruff says of an excluded file named explicitly), and with -v when a directory
    walk found it; a walk stays quiet, as it skips other XML (a pom.xml, an SVG) on purpose."""
    kept = []
    for report in reports:
        if report.skipped is None:
            kept.append(report)
        elif verbosity >= 1 or (verbosity >= 0 and _normal(report.path) in named):
            click.echo(f"irshape: skipped {report.path}: {report.skipped}", err=True)
    return kept


def _named_files(paths: Sequence[str]) -> set[str]:
    """The files the user named on the command line (not the directories it walks). Under
    pre-commit (which sets PRE_COMMIT=1) the files are every staged .xml, named by pre-commit,
    not by the user: they are skipped as quietly as a walk skips them."""
    if os.environ.get("PRE_COMMIT") == "1":
        return set()
    return {_normal(path) for path in paths if not os.path.isdir(path)}


def _normal(path: str) -> str:
    return os.path.normpath(path)


def _add_columns(reports: Sequence[FileReport], inputs: Inputs) -> None:
    """The columns of the findings that are reported: each file with findings is read again,
    so a check never pays for them."""
    for report in reports:
        if report.diagnostics:
            from irshape.columns import add_columns  # only for a run with findings

            add_columns(report, inputs.read(report.path))
