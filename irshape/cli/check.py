"""``irshape check``, and where its report goes (stdout or a file, with or without colour)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import click

from irshape import rules
from irshape.cli.group import Command
from irshape.cli.inputs import Inputs, check_reports, is_tty
from irshape.cli.options import (
    DEFAULT_MAX_MEMORY,
    INPUT_OPTIONS,
    NEEDS_NUMPY,
    STDIN,
    AbnormalExit,
    MemorySize,
    Path,
    apply_options,
    has_numpy,
    parse_selector_option,
    require_paths,
    settings_for,
)
from irshape.config import MISSING_WEIGHTS
from irshape.diagnostics import Severity
from irshape.report import FORMATS, REPORTERS, ReportOptions, statistics_lines
from irshape.report.text import use_color

if TYPE_CHECKING:  # a baseline's module is imported only by a run that has one
    from irshape.baseline import Baseline, BaselineResult
from irshape.files import default_jobs
from irshape.results import FileReport
from irshape.selection import exit_code, with_missing_weights

# A file a check writes (-o, --write-baseline).
_FILE_TO_WRITE = Path("file", dir_okay=False, writable=True)

# Options of `check` alone.
CHECK_OPTIONS = (
    click.option(
        "--format",
        "output_format",
        type=click.Choice(FORMATS),
        default=None,
        help="Output format  [default: text; github when GITHUB_ACTIONS=true].",
    ),
    click.option(
        "-o",
        "--output-file",
        type=_FILE_TO_WRITE,
        help="Write the report to this file instead of stdout.",
    ),
    click.option(
        "--select",
        multiple=True,
        metavar="CODES",
        callback=parse_selector_option,
        help="Report only these codes or code prefixes (comma-separated, repeatable; ALL for all).",
    ),
    click.option(
        "--ignore",
        multiple=True,
        metavar="CODES",
        callback=parse_selector_option,
        help="Do not report these codes or code prefixes (comma-separated, repeatable).",
    ),
    click.option(
        "--extend-select",
        multiple=True,
        metavar="CODES",
        callback=parse_selector_option,
        help="Also report these codes or code prefixes, on top of the selection so far.",
    ),
    click.option(
        "--extend-ignore",
        multiple=True,
        metavar="CODES",
        callback=parse_selector_option,
        help="Also leave out these codes or code prefixes (as --ignore).",
    ),
    click.option(
        "--missing-weights",
        type=click.Choice(MISSING_WEIGHTS),
        default=None,
        help="The severity of an IR checked without its .bin (IRS009)  [default: info; error fails the run].",
    ),
    click.option(
        "--baseline",
        type=Path("file", dir_okay=False),
        metavar="FILE",
        help="Report (and fail on) only findings not recorded in this baseline file.",
    ),
    click.option(
        "--write-baseline",
        type=_FILE_TO_WRITE,
        metavar="FILE",
        help="Record the findings of this run in FILE (a baseline) and exit 0.",
    ),
    click.option("--strict/--no-strict", default=None, help="Warnings fail the run too (exit 1)."),
    click.option("--exit-zero", is_flag=True, help="Exit 0 even with findings (2 stays 2)."),
    click.option("--statistics", is_flag=True, help="Count the findings of each code."),
    click.option("-q", "--quiet", count=True, help="-q: findings only; -qq: nothing, only the exit code."),
    click.option("-v", "--verbose", count=True, help="Also list the files without findings."),
    click.option(
        "--color",
        type=click.Choice(["auto", "always", "never"]),
        default="auto",
        show_default=True,
        help="Colour the text format (auto: on a terminal, unless NO_COLOR is set).",
    ),
    click.option(
        "--show-source/--no-show-source",
        default=None,
        help="Show each finding's line, with a caret under its column (text format).",
    ),
    click.option("--debug", is_flag=True, help="Show tracebacks of irshape's own failures."),
    click.option(
        "--show-settings",
        is_flag=True,
        help="Print the settings in force (configuration file, selection, format, jobs, excludes) and exit.",
    ),
)

# Options that rewrite declared dims (`check --fix`, `check --diff`).
FIX_OPTIONS = (
    click.option(
        "--fix",
        is_flag=True,
        help="Rewrite wrong declared <dim>s to the shapes OpenVINO computes (in place, atomically), "
        "then report what remains.",
    ),
    click.option(
        "--diff",
        is_flag=True,
        help="Print the patch --fix would apply and write nothing; exit 1 when there is one.",
    ),
)

# Options of the dry run (`check --dry-run`); the defaults are filled in by _dry_run_options.
DRY_RUN_OPTIONS = (
    click.option(
        "--dry-run",
        is_flag=True,
        help="Also run each convolution layer with numpy and compare the shape it produces (IRS5xx).",
    ),
    click.option(
        "--seed",
        type=int,
        default=None,
        metavar="N",
        help="With --dry-run: seed of the random data and kernels  [default: 0].",
    ),
    click.option(
        "--dim-value",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help="With --dry-run: run dynamic (-1) dims at size N  [default: skip such layers, IRS502].",
    ),
    click.option(
        "--max-memory",
        type=MemorySize(),
        default=None,
        metavar="SIZE",
        help="With --dry-run: skip a layer that needs more working memory (IRS503); bytes or "
        "512M, 2G, 1GiB  [default: 1GiB].",
    ),
)


def _fix_options(fix: bool, diff: bool, paths: Sequence[str]) -> Mapping[str, Any]:
    """The ``fix`` keyword of check_file, or none."""
    if not (fix or diff):
        return {}
    if fix and diff:
        raise click.UsageError("--fix and --diff exclude each other (--diff writes nothing)")
    if STDIN in paths:
        raise click.UsageError("--fix and --diff work on files, not on stdin")
    return {"fix": "write" if fix else "diff"}


def _show_diffs(reports: Sequence[FileReport], verbosity: int) -> int:
    """``--diff``: the patches on stdout, what blocks one on stderr. Exit 1 when there is a
    patch, or a file --fix could not patch or read (its wrong dims stay, unseen otherwise)."""
    blocked = False
    for report in reports:
        if report.diff and verbosity > -2:
            click.echo(report.diff, nl=False)
        for finding in report.diagnostics:
            if finding.code in _DIFF_BLOCKERS:
                blocked = True
                if verbosity > -2:
                    click.echo(f"{finding.path}: {finding.code} {finding.message}", err=True)
    return 1 if blocked or any(report.diff for report in reports) else 0


_DIFF_BLOCKERS = frozenset(
    {rules.FIX_FAILED.code, rules.FILE_UNREADABLE.code, rules.XML_SYNTAX.code, rules.UNSAFE_XML.code}
)


def _fixed_summary(reports: Sequence[FileReport], verbosity: int) -> str:
    """``--fix``: how many dims were rewritten in how many files (with -v: each of them)."""
    fixed = [report for report in reports if report.fixes]
    lines = [f"{report.path}: {edit}" for report in fixed for edit in report.fixes] if verbosity >= 1 else []
    count = sum(len(report.fixes) for report in fixed)
    lines.append(f"irshape: fixed {count} declared dim(s) in {len(fixed)} file(s)")
    return "\n".join(lines)


def _dry_run_options(
    dry_run: bool, seed: int | None, dim_value: int | None, max_memory: int | None
) -> Mapping[str, Any]:
    """The ``dry_run`` keyword of check_file, or none; irshape.execute is imported only here."""
    given = [name for name, value in (("--seed", seed), ("--dim-value", dim_value)) if value is not None]
    given += ["--max-memory"] if max_memory is not None else []
    if not dry_run:
        if given:
            verb = "applies" if len(given) == 1 else "apply"
            raise click.UsageError(f"{', '.join(given)} {verb} only with --dry-run")
        return {}
    if not has_numpy():
        raise AbnormalExit(f"--dry-run {NEEDS_NUMPY}")
    from irshape.execute.dryrun import DryRunOptions

    options = DryRunOptions(
        seed=0 if seed is None else seed,
        dim_value=dim_value,
        max_memory=DEFAULT_MAX_MEMORY if max_memory is None else max_memory,
    )
    return {"dry_run": options}


@click.command(cls=Command)
@apply_options(*INPUT_OPTIONS, *CHECK_OPTIONS, *FIX_OPTIONS, *DRY_RUN_OPTIONS)
@click.pass_context
def check(
    ctx: click.Context,
    paths: tuple[str, ...],
    exclude: tuple[str, ...],
    stdin_filename: str | None,
    jobs: int,
    config_file: str | None,
    isolated: bool,
    output_format: str | None,
    output_file: str | None,
    select: tuple[str, ...] | None,
    ignore: tuple[str, ...] | None,
    extend_select: tuple[str, ...] | None,
    extend_ignore: tuple[str, ...] | None,
    missing_weights: str | None,
    baseline: str | None,
    write_baseline: str | None,
    strict: bool | None,
    exit_zero: bool,
    statistics: bool,
    quiet: int,
    verbose: int,
    color: str,
    show_source: bool | None,
    debug: bool,
    show_settings: bool,
    fix: bool,
    diff: bool,
    dry_run: bool,
    seed: int | None,
    dim_value: int | None,
    max_memory: int | None,
) -> None:
    """Check IR files (directories: their .xml files, recursively; '-': stdin).

    Exit 0: no failing finding; 1: failing findings; 2: usage, configuration or irshape error.
    """
    verbosity = verbose - quiet
    dry_run_options = _dry_run_options(dry_run, seed, dim_value, max_memory)
    settings = settings_for(
        config_file,
        isolated,
        verbosity,
        select=select,
        ignore=ignore,
        extend_select=extend_select,
        extend_ignore=extend_ignore,
        exclude=exclude or None,
        output_format=output_format,
        strict=strict,
        missing_weights=missing_weights,
        baseline=baseline,
        show_source=show_source,
    )
    if show_settings:
        from irshape.cli.settings import describe  # only --show-settings

        click.echo(describe(settings, paths=paths, jobs=jobs or default_jobs()))
        ctx.exit(0)
    require_paths(paths)
    if write_baseline is not None and (fix or diff):
        raise click.UsageError("--write-baseline records findings; it does not go with --fix or --diff")
    inputs = Inputs()
    baseline_result: list[BaselineResult] = []  # what the baseline matched, once checked

    def keep(reports: list[FileReport]) -> list[FileReport]:
        severity = Severity(settings.missing_weights)
        reports = [with_missing_weights(report, severity) for report in reports]
        if settings.baseline is None or write_baseline is not None:
            return reports
        reports, result = _baseline(settings.baseline).filter(reports)
        baseline_result.append(result)
        return reports

    reports = check_reports(
        paths,
        settings,
        stdin_filename=stdin_filename,
        jobs=jobs,
        verbosity=verbosity,
        # keyword arguments of check_file and check_string
        check_options={
            "debug": debug,
            "every_unknown_value": verbosity >= 1,  # IRS306 that leaves no declared dim unconfirmed
            **dry_run_options,
            **_fix_options(fix, diff, paths),
        },
        keep=keep,
        inputs=inputs,
        layers=False,  # a check reports findings and counts: flat memory over a repository
    )
    if diff:
        ctx.exit(_show_diffs(reports, verbosity))
    if fix and verbosity > -2:
        click.echo(_fixed_summary(reports, verbosity), err=True)
    if write_baseline is not None:
        ctx.exit(_write_baseline(write_baseline, reports, verbosity))
    reporter = REPORTERS[settings.format]
    colored = use_color_for(color, output_file)
    options = ReportOptions(
        color=colored,
        verbosity=verbosity,
        statistics=statistics and reporter.inline_statistics,
        strict=settings.strict,
        source=inputs.read if settings.show_source else None,
        baseline=baseline_result[0] if baseline_result else None,
    )
    if verbosity > -2 or output_file is not None:  # -qq: nothing on stdout, whatever the format
        echo_report(reporter(options).render_check(reports), output_file, colored)
    if statistics and not reporter.inline_statistics and verbosity > -2:
        # Machine formats stay parseable: the counts go to stderr.
        for line in statistics_lines(reports):
            click.echo(line, err=True)
    ctx.exit(exit_code(reports, strict=settings.strict, exit_zero=exit_zero))


def use_color_for(mode: str, output_file: str | None) -> bool:
    isatty = output_file is None and is_tty(sys.stdout)
    return use_color(mode, isatty=isatty, environ=os.environ)


def echo_report(text: str, output_file: str | None, colored: bool) -> None:
    """Write ``text`` to stdout or to ``output_file``."""
    if output_file is None:
        if text:
            click.echo(text, color=colored)
        return
    try:
        with open(output_file, "w", encoding="utf-8") as out:
            out.write(text + "\n" if text else "")
    except OSError as exc:
        raise AbnormalExit(f"cannot write {output_file}: {exc.strerror}") from None


def _baseline(path: str) -> Baseline:
    from irshape.baseline import Baseline, BaselineError  # only a run with a baseline

    try:
        return Baseline.load(path)
    except BaselineError as exc:
        raise AbnormalExit(str(exc)) from None


def _write_baseline(path: str, reports: Sequence[FileReport], verbosity: int) -> int:
    """``--write-baseline``: record the findings; exit 0 (the baseline accepts them)."""
    from irshape.baseline import write_baseline  # only a run that writes one

    try:
        count = write_baseline(path, reports)
    except OSError as exc:
        raise AbnormalExit(f"cannot write {path}: {exc.strerror or exc}") from None
    if verbosity > -2:
        files = sum(1 for report in reports if report.diagnostics)
        click.echo(f"irshape: wrote {count} finding(s) of {files} file(s) to {path}", err=True)
    return 0
