"""The ``irshape`` command: a thin shell over the library.

Exit codes: 0 no failing finding, 1 failing findings (errors; warnings too with ``--strict``),
2 usage or configuration error, or irshape itself failed (``--exit-zero`` leaves 2 alone).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

import click

from irshape import __version__, rules
from irshape.api import check_string
from irshape.config import Config, ConfigError, Settings, discover, load_config, resolve
from irshape.files import check_files, collect_files
from irshape.report import FORMATS, INFER_FORMATS, REPORTERS, ReportOptions
from irshape.report.base import statistics_lines
from irshape.report.ruledoc import rule_text
from irshape.report.text import use_color
from irshape.results import FileReport
from irshape.selection import EXIT_ABNORMAL, SelectorError, exit_code, parse_selectors

F = TypeVar("F", bound=Callable[..., Any])
PROGRESS_MIN_FILES = 8  # a progress bar only when more files than this are checked on a TTY
STDIN = "-"


class AbnormalExit(click.ClickException):
    """A configuration or environment problem: ``Error: ...`` on stderr, exit 2."""

    exit_code = EXIT_ABNORMAL


def _options(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    """Apply click decorators in the order listed (so ``--help`` lists them in that order)."""

    def apply(function: F) -> F:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


def _selectors(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...] | None:
    try:
        return parse_selectors(value) if value else None
    except SelectorError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


# Options every command that reads IR files takes.
INPUT_OPTIONS = (
    click.argument(
        "paths",
        nargs=-1,
        required=True,
        type=click.Path(exists=True, allow_dash=True, path_type=Path),
    ),
    click.option(
        "--exclude",
        multiple=True,
        metavar="GLOB",
        help="Skip paths matching GLOB (repeatable; replaces the configured exclude).",
    ),
    click.option(
        "--stdin-filename",
        metavar="PATH",
        help="The name a file read from '-' (stdin) is reported under and matched as.",
    ),
    click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=0),
        default=0,
        metavar="N",
        help="Check files on N processes (default 0: one per core).",
    ),
    click.option(
        "--config",
        "config_file",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help="Read [tool.irshape] from this file instead of the nearest pyproject.toml.",
    ),
    click.option("--isolated", is_flag=True, help="Read no configuration file."),
)

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
        type=click.Path(dir_okay=False, writable=True, path_type=Path),
        help="Write the report to this file instead of stdout.",
    ),
    click.option(
        "--select",
        multiple=True,
        metavar="CODES",
        callback=_selectors,
        help="Report only these codes or code prefixes (comma-separated, repeatable; ALL for all).",
    ),
    click.option(
        "--ignore",
        multiple=True,
        metavar="CODES",
        callback=_selectors,
        help="Do not report these codes or code prefixes (comma-separated, repeatable).",
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
    click.option("--debug", is_flag=True, help="Show tracebacks of irshape's own failures."),
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="irshape")
def main() -> None:
    """Validate OpenVINO IR convolution layers and infer their output shapes."""


def _settings(config_file: Path | None, isolated: bool, verbosity: int = 0, **cli: Any) -> Settings:
    if config_file is not None and isolated:
        raise click.UsageError("--config and --isolated exclude each other")
    try:
        config = Config() if isolated else load_config(config_file) if config_file else discover()
        settings = resolve(config, **cli)
    except ConfigError as exc:
        raise AbnormalExit(str(exc)) from None
    if verbosity >= 1 and settings.config_path is not None:
        click.echo(f"irshape: configuration from {settings.config_path}", err=True)
    return settings


def _reports(
    paths: Sequence[Path],
    settings: Settings,
    *,
    stdin_filename: str | None,
    jobs: int,
    verbosity: int,
    check_options: dict[str, Any],
) -> list[FileReport]:
    """Check the inputs; the reports come back in a stable order, filtered by the selection."""
    if STDIN in (str(p) for p in paths):
        if len(paths) > 1:
            raise click.UsageError("'-' (stdin) cannot be mixed with paths")
        data = sys.stdin.buffer.read()
        reports = [check_string(data, path=stdin_filename or "<stdin>", **check_options)]
        return [settings.selection.apply(r) for r in reports]
    collected = collect_files(paths, settings.exclude)
    if verbosity >= 1:
        for path in collected.excluded:
            click.echo(f"irshape: excluded {path}", err=True)
    if not collected.files and verbosity >= 0:
        click.echo("irshape: no .xml files to check", err=True)
    try:
        if verbosity >= 0 and len(collected.files) > PROGRESS_MIN_FILES and sys.stderr.isatty():
            with click.progressbar(length=len(collected.files), label="irshape", file=sys.stderr) as bar:
                reports = check_files(collected.files, jobs=jobs, progress=bar.update, options=check_options)
        else:
            reports = check_files(collected.files, jobs=jobs, options=check_options)
    except BrokenProcessPool as exc:
        raise AbnormalExit(f"a worker process died ({exc}); try -j 1") from None
    return [settings.selection.apply(r) for r in reports]


def _use_color(mode: str, output_file: Path | None) -> bool:
    isatty = output_file is None and sys.stdout.isatty()
    return use_color(mode, isatty=isatty, environ=os.environ)


def _echo(text: str, output_file: Path | None, colored: bool) -> None:
    """Write ``text`` to stdout or to ``output_file``."""
    if output_file is None:
        if text:
            click.echo(text, color=colored)
        return
    try:
        output_file.write_text(text + "\n" if text else "", encoding="utf-8")
    except OSError as exc:
        raise AbnormalExit(f"cannot write {output_file}: {exc.strerror}") from None


@main.command()
@_options(*INPUT_OPTIONS, *CHECK_OPTIONS)
@click.pass_context
def check(
    ctx: click.Context,
    paths: tuple[Path, ...],
    exclude: tuple[str, ...],
    stdin_filename: str | None,
    jobs: int,
    config_file: Path | None,
    isolated: bool,
    output_format: str | None,
    output_file: Path | None,
    select: tuple[str, ...] | None,
    ignore: tuple[str, ...] | None,
    strict: bool | None,
    exit_zero: bool,
    statistics: bool,
    quiet: int,
    verbose: int,
    color: str,
    debug: bool,
) -> None:
    """Check IR files (directories: their .xml files, recursively; '-': stdin).

    Exit 0: no failing finding; 1: failing findings; 2: usage, configuration or irshape error.
    """
    verbosity = verbose - quiet
    settings = _settings(
        config_file,
        isolated,
        verbosity,
        select=select,
        ignore=ignore,
        exclude=exclude or None,
        output_format=output_format,
        strict=strict,
    )
    reports = _reports(
        paths,
        settings,
        stdin_filename=stdin_filename,
        jobs=jobs,
        verbosity=verbosity,
        check_options={"debug": debug},  # keyword arguments of check_file and check_string
    )
    reporter = REPORTERS[settings.format]
    colored = _use_color(color, output_file)
    options = ReportOptions(
        color=colored,
        verbosity=verbosity,
        statistics=statistics and reporter.inline_statistics,
        strict=settings.strict,
    )
    _echo(reporter(options).render_check(reports), output_file, colored)
    if statistics and not reporter.inline_statistics and verbosity > -2:
        # Machine formats stay parseable: the counts go to stderr.
        for line in statistics_lines(reports):
            click.echo(line, err=True)
    ctx.exit(exit_code(reports, strict=settings.strict, exit_zero=exit_zero))


@main.command()
@_options(*INPUT_OPTIONS)
@click.option(
    "--format", "output_format", type=click.Choice(INFER_FORMATS), default="text", show_default=True
)
def infer(
    paths: tuple[Path, ...],
    exclude: tuple[str, ...],
    stdin_filename: str | None,
    jobs: int,
    config_file: Path | None,
    isolated: bool,
    output_format: str,
) -> None:
    """Print the inferred output shape of every layer irshape knows."""
    settings = _settings(config_file, isolated, exclude=exclude or None, output_format=output_format)
    reports = _reports(
        paths, settings, stdin_filename=stdin_filename, jobs=jobs, verbosity=0, check_options={}
    )
    text = REPORTERS[output_format]().render_infer(reports)
    if text:
        click.echo(text)


@main.command(name="rules")
@click.option("--markdown", is_flag=True, help="Print the table the README carries.")
def list_rules(markdown: bool) -> None:
    """List every diagnostic code with its summary."""
    if markdown:
        click.echo(rules.markdown_table())
        return
    for rule in rules.RULES.values():
        click.echo(f"{rule.code}  {rule.severity.value:<7}  {rule.name:<26}  {rule.summary}")


@main.command()
@click.argument("code")
def rule(code: str) -> None:
    """Document one diagnostic code: what it means, why, an example and the fix."""
    found = rules.RULES.get(code.strip().upper())
    if found is None:
        raise click.BadParameter(f"no such code {code!r}; `irshape rules` lists them", param_hint="CODE")
    click.echo(rule_text(found))
