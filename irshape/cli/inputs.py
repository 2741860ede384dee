"""Checking the inputs of a command: stdin, or files collected from paths, with progress."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from irshape.api import check_string
from irshape.cli.options import STDIN, AbnormalExit
from irshape.cli.output import is_tty
from irshape.cli.progress import DryRunProgress
from irshape.config import Settings
from irshape.files import WorkerDied, check_files, collect_files
from irshape.results import FileReport

PROGRESS_MIN_FILES = 8  # a progress bar only when more files than this are checked on a TTY


def _stderr_is_tty() -> bool:
    return is_tty(sys.stderr)


def check_reports(
    paths: Sequence[Path],
    settings: Settings,
    *,
    stdin_filename: str | None,
    jobs: int,
    verbosity: int,
    check_options: Mapping[str, Any],
) -> list[FileReport]:
    """Check the inputs; the reports come back in a stable order, filtered by the selection."""
    dry_run = check_options.get("dry_run") is not None
    if STDIN in (str(p) for p in paths):
        if len(paths) > 1:
            raise click.UsageError("'-' (stdin) cannot be mixed with paths")
        data = sys.stdin.buffer.read() if sys.stdin is not None else b""  # (started without one)
        name = stdin_filename or "<stdin>"
        if not dry_run:
            return [settings.selection.apply(check_string(data, path=name, **check_options))]
        stream = sys.stderr if verbosity >= 0 and _stderr_is_tty() else None
        with DryRunProgress(1, stream) as progress:
            report = check_string(data, path=name, **check_options, progress=progress.layer)
        return [settings.selection.apply(report)]
    collected = collect_files(paths, settings.exclude)
    if verbosity >= 1:
        for path in collected.excluded:
            click.echo(f"irshape: excluded {path}", err=True)
    if not collected.files and verbosity >= 0:
        click.echo("irshape: no .xml files to check", err=True)
    files = collected.files
    tty = verbosity >= 0 and _stderr_is_tty()
    try:
        if dry_run:
            # A dry run can take long even for one file: a progress line after a second.
            with DryRunProgress(len(files), sys.stderr if tty else None) as progress:
                options = {**check_options, "progress": progress.layer}
                reports = check_files(files, jobs=jobs, progress=progress.file_done, options=options)
        elif tty and len(files) > PROGRESS_MIN_FILES:
            with click.progressbar(length=len(files), label="irshape", file=sys.stderr) as bar:
                reports = check_files(files, jobs=jobs, progress=bar.update, options=check_options)
        else:
            reports = check_files(files, jobs=jobs, options=check_options)
    except WorkerDied as exc:
        raise AbnormalExit(f"a worker process died ({exc}); try -j 1") from None
    return [settings.selection.apply(r) for r in reports]
