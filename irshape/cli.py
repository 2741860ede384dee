"""The ``irshape`` command: a thin shell over the library.

Exit codes (:mod:`irshape.selection`): ``check`` 0 no failing finding, 1 failing findings
(errors; warnings too with ``--strict``); ``infer`` 0 OpenVINO rejects nothing, 1 it rejects a
layer or a file; both 2 on a usage or configuration error, or when irshape itself failed
(``--exit-zero`` leaves 2 alone).

A plain ``irshape check`` should start quickly (a pre-commit hook runs it on every commit), so
what only some commands need is imported where it is used.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TextIO, TypeVar

import click

from irshape import __version__, lifetime, rules
from irshape.api import check_string
from irshape.config import Config, ConfigError, Settings, discover, load_config, resolve
from irshape.files import WorkerDied, check_files, collect_files
from irshape.report import FORMATS, INFER_FORMATS, REPORTERS, ReportOptions
from irshape.report.base import statistics_lines
from irshape.report.text import format_diagnostic, use_color
from irshape.results import FileReport
from irshape.selection import (
    EXIT_ABNORMAL,
    SelectorError,
    exit_code,
    infer_exit_code,
    parse_selectors,
    rejections,
)

if TYPE_CHECKING:  # numpy and irshape.execute are imported only by a dry run or `irshape run`
    import threading

    import numpy as np

    _SizeParamType = click.ParamType[int]
else:  # click.ParamType is generic only from click 8.4 on
    _SizeParamType = click.ParamType

F = TypeVar("F", bound=Callable[..., Any])
PROGRESS_MIN_FILES = 8  # a progress bar only when more files than this are checked on a TTY
PROGRESS_DELAY = 1.0  # seconds a dry run goes on before its progress line appears (on a TTY)
DEFAULT_MAX_MEMORY = 1 << 30
NEEDS_NUMPY = "needs numpy, which is not installed: pip install 'irshape[run]'"
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


class MemorySize(_SizeParamType):
    """A number of bytes: ``1073741824``, ``512M``, ``2G``, ``1GiB``, ``1.5G``, ``100MB``.

    K, M, G, T and KiB, MiB, GiB, TiB are powers of 1024; kB, MB, GB, TB powers of 1000.
    """

    name = "size"
    # A string, compiled (and cached) by re on first use: only --max-memory needs it.
    _PATTERN = r"(\d+(?:\.\d+)?|\.\d+)\s*(?:([kmgt])(i?b)?|(b))?"
    _POWERS: ClassVar[dict[str, int]] = {"k": 1, "m": 2, "g": 3, "t": 4}

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        match = re.fullmatch(self._PATTERN, str(value).strip(), re.IGNORECASE)
        if match is None:
            self.fail(f"{value!r} is not a size such as 1073741824, 512M, 2G or 1GiB", param, ctx)
        number, prefix, suffix, _ = match.groups()
        base = 1000 if suffix is not None and suffix.lower() == "b" else 1024
        power = self._POWERS[prefix.lower()] if prefix else 0
        return int(float(number) * base**power) if "." in number else int(number) * base**power


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream, or none at all
        return False


class DryRunProgress:
    """One progress line on a terminal's stderr, drawn once a dry run has gone on for a second.

    ``file_done`` is called after each file (in this process, whatever ``-j``), ``layer`` after
    each layer of a file checked in this process. Used as a context manager, a thread redraws
    the line while one long layer runs, and the line is erased at the end. With ``stream=None``
    (not a terminal) it draws nothing; pickled into a worker process it is such a silent copy.
    """

    def __init__(
        self,
        files: int,
        stream: TextIO | None,
        *,
        delay: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.files, self.stream, self.clock = files, stream, clock
        self.delay = PROGRESS_DELAY if delay is None else delay
        self.start = clock()
        self.files_done = 0
        self.layers_done = self.layers_total = 0
        self.shown = 0  # length of the line on the screen
        self._last = ""
        import threading  # only a dry run draws a progress line, from a thread of its own

        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (DryRunProgress, (self.files, None))

    def __enter__(self) -> DryRunProgress:
        if self.stream is not None:
            import threading  # as in __init__

            self._thread = threading.Thread(target=self._tick, name="irshape-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.close()

    def _tick(self) -> None:
        while not self._stop.wait(0.25):
            self.draw()

    def file_done(self, count: int = 1) -> None:
        self.files_done += count
        self.layers_done = self.layers_total = 0
        self.draw()

    def layer(self, done: int, total: int) -> None:
        self.layers_done, self.layers_total = done, total
        self.draw()

    def line(self) -> str:
        width = 24
        filled = width * self.files_done // max(self.files, 1)
        bar = "#" * filled + "-" * (width - filled)
        text = f"irshape: dry run [{bar}] {self.files_done}/{self.files} files"
        if self.layers_total:
            text += f"; file {self.files_done + 1}: {self.layers_done}/{self.layers_total} layers"
        return f"{text}  {self.clock() - self.start:.0f}s"

    def draw(self) -> None:
        """Draw the line, if there is a terminal and the run has gone on for over a second."""
        if self.stream is None or self.clock() - self.start <= self.delay:
            return
        import shutil  # only for a progress line on a terminal

        with self._lock:
            line = self.line()[: max(shutil.get_terminal_size().columns - 1, 20)]
            if line == self._last:
                return
            self.stream.write("\r" + line.ljust(self.shown))
            self.stream.flush()
            self.shown, self._last = len(line), line

    def close(self) -> None:
        """Erase the line, so that nothing of it stays between the findings."""
        with self._lock:
            if self.stream is not None and self.shown:
                self.stream.write("\r" + " " * self.shown + "\r")
                self.stream.flush()
                self.shown, self._last = 0, ""


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="irshape")
def main() -> None:
    """Validate OpenVINO IR convolution layers and infer their output shapes."""


def run() -> None:
    """The ``irshape`` program (and ``python -m irshape``): :func:`main`, then a quick exit."""
    # A run is short, and the model it builds (100,000s of objects for a large IR) holds no
    # reference cycles: the cyclic collector's passes over it would free nothing and cost ~7% of
    # a large check.
    gc.disable()
    # Nor is anything freed: the process ends right after the output, without the interpreter's
    # teardown (see irshape.lifetime), which would free the model and every module one by one.
    lifetime.keep_for_exit()
    try:
        main()
    except SystemExit as exit:
        lifetime.hard_exit(_exit_status(exit.code))


def _exit_status(code: object) -> int:
    """The status ``sys.exit(code)`` ends with (a message is printed, and is status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


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


def _has_numpy() -> bool:
    import importlib.util  # only a dry run and `irshape run` need numpy

    return importlib.util.find_spec("numpy") is not None


def _fix_options(fix: bool, diff: bool, paths: Sequence[Path]) -> Mapping[str, Any]:
    """The ``fix`` keyword of check_file, or none."""
    if not (fix or diff):
        return {}
    if fix and diff:
        raise click.UsageError("--fix and --diff exclude each other (--diff writes nothing)")
    if STDIN in (str(p) for p in paths):
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
    if not _has_numpy():
        raise AbnormalExit(f"--dry-run {NEEDS_NUMPY}")
    from irshape.execute.dryrun import DryRunOptions

    options = DryRunOptions(
        seed=0 if seed is None else seed,
        dim_value=dim_value,
        max_memory=DEFAULT_MAX_MEMORY if max_memory is None else max_memory,
    )
    return {"dry_run": options}


def _stderr_is_tty() -> bool:
    return _is_tty(sys.stderr)


def _reports(
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


def _use_color(mode: str, output_file: Path | None) -> bool:
    isatty = output_file is None and _is_tty(sys.stdout)
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
@_options(*INPUT_OPTIONS, *CHECK_OPTIONS, *FIX_OPTIONS, *DRY_RUN_OPTIONS)
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
        # keyword arguments of check_file and check_string
        check_options={"debug": debug, **dry_run_options, **_fix_options(fix, diff, paths)},
    )
    if diff:
        ctx.exit(_show_diffs(reports, verbosity))
    if fix and verbosity > -2:
        click.echo(_fixed_summary(reports, verbosity), err=True)
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
@click.pass_context
def infer(
    ctx: click.Context,
    paths: tuple[Path, ...],
    exclude: tuple[str, ...],
    stdin_filename: str | None,
    jobs: int,
    config_file: Path | None,
    isolated: bool,
    output_format: str,
) -> None:
    """Print the inferred output shape of every layer irshape knows.

    A layer OpenVINO rejects is shown as such, with the first finding why; findings that make
    OpenVINO reject a file or another layer (an unparsable file) go to stderr. Exit 0: OpenVINO
    rejects nothing; 1: it rejects a layer or a file; 2: usage, configuration or irshape error.
    """
    settings = _settings(config_file, isolated, exclude=exclude or None, output_format=output_format)
    reports = _reports(
        paths, settings, stdin_filename=stdin_filename, jobs=jobs, verbosity=0, check_options={}
    )
    text = REPORTERS[output_format]().render_infer(reports)
    if text:
        click.echo(text)
    for report in reports:
        for finding in rejections(report)[1]:
            click.echo(format_diagnostic(finding), err=True)
    ctx.exit(infer_exit_code(reports))


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
    from irshape.report.ruledoc import rule_text  # only this command (and SARIF) documents a rule

    found = rules.RULES.get(code.strip().upper())
    if found is None:
        raise click.BadParameter(f"no such code {code!r}; `irshape rules` lists them", param_hint="CODE")
    click.echo(rule_text(found))


# --- irshape run ----------------------------------------------------------------------------------


@main.command(name="run")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-i",
    "--input",
    "inputs",
    multiple=True,
    metavar="NAME=FILE.npy",
    help="The value of the Parameter NAME, a .npy file (repeatable).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the Results to this .npz file (one array per Result name) instead of a summary.",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    metavar="N",
    help="Fill each Parameter given no --input with random data from seed N.",
)
@click.option(
    "--dim-value",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="With --seed: the size of the dynamic dims of the random inputs.",
)
@click.option(
    "--max-memory",
    type=MemorySize(),
    default=None,
    metavar="SIZE",
    help="Refuse to run a layer that needs more working memory; bytes or 512M, 2G, 1GiB  [default: 1GiB].",
)
@click.option("--debug", is_flag=True, help="Show the traceback of an irshape failure.")
def run_command(
    file: Path,
    inputs: tuple[str, ...],
    output: Path | None,
    seed: int | None,
    dim_value: int | None,
    max_memory: int | None,
    debug: bool,
) -> None:
    """Execute FILE with numpy: Parameters, Consts, Converts, the four convolution ops, Results.

    Without --output, prints each Result's name, shape, dtype and min/max/mean. Exit 2 with a
    one-line message when the file cannot be run.
    """
    if not _has_numpy():
        raise AbnormalExit(f"irshape run {NEEDS_NUMPY}")
    if dim_value is not None and seed is None:
        raise click.UsageError("--dim-value only applies with --seed (random inputs)")
    try:
        results = _run_file(file, inputs, seed, dim_value, max_memory)
        if output is not None:
            _write_npz(output, results)
            click.echo(f"irshape: wrote {len(results)} output(s) to {output}", err=True)
        else:
            for name, value in results.items():
                click.echo(_summary(name, value))
    except click.ClickException:
        raise
    except MemoryError:
        raise AbnormalExit(f"{file}: not enough memory to run it") from None
    except Exception as exc:  # irshape's own failure: still one line, unless --debug
        if debug:
            raise
        raise AbnormalExit(f"{file}: irshape failed: {type(exc).__name__}: {exc}".splitlines()[0]) from None


def _run_file(
    file: Path, inputs: Sequence[str], seed: int | None, dim_value: int | None, max_memory: int | None
) -> dict[str, np.ndarray]:
    import numpy as np

    from irshape.execute.run import RunError, prepare_inputs, run_document
    from irshape.ir.reader import read_file

    paths: dict[str, Path] = {}
    for item in inputs:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise click.BadParameter(f"{item!r} is not NAME=FILE.npy", param_hint="'--input'")
        if name in paths:
            raise click.BadParameter(f"Parameter {name!r} is given twice", param_hint="'--input'")
        paths[name] = Path(path)
    given = {name: _load_npy(name, path) for name, path in paths.items()}
    result = read_file(file)
    if result.document is None:
        errors = [d.message for d in result.diagnostics if d.severity == "error"]
        raise AbnormalExit(f"{file}: cannot read it as IR: {errors[0] if errors else 'no document'}")
    rng = None if seed is None else np.random.default_rng(seed)
    try:
        prepared = prepare_inputs(result.document, given, rng=rng, dim_value=dim_value)
        if max_memory is None:
            return run_document(result.document, prepared)
        return run_document(result.document, prepared, max_memory=max_memory)
    except RunError as exc:
        raise AbnormalExit(f"{file}: {exc}") from None
    except ValueError as exc:  # a kernel refused a layer, e.g. pads OpenVINO's CPU plugin refuses
        raise AbnormalExit(f"{file}: cannot run it: {exc}") from None


def _load_npy(name: str, path: Path) -> np.ndarray:
    import numpy as np

    try:
        with path.open("rb") as handle:
            magic = handle.read(6)
            if magic != b"\x93NUMPY":
                what = "a .npz archive" if magic.startswith(b"PK") else "not a .npy file"
                raise AbnormalExit(f"--input {name}: {path} is {what}; give an array saved with np.save")
            handle.seek(0)
            value = np.load(handle, allow_pickle=False)
    except OSError as exc:
        raise AbnormalExit(f"--input {name}: cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, EOFError) as exc:  # a truncated file, object arrays, a bad header
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise AbnormalExit(f"--input {name}: cannot load {path}: {reason}") from None
    assert isinstance(value, np.ndarray)
    return value


def _write_npz(path: Path, arrays: Mapping[str, np.ndarray]) -> None:
    """An ``np.savez`` archive at ``path``, written atomically: a temporary file in the same
    directory, then a rename. Written as np.savez writes it (stored ``NAME.npy`` members), but
    member by member, since a Result named ``file`` would clash with np.savez's own argument."""
    import tempfile  # only `irshape run --output` writes a file
    import zipfile

    from numpy.lib import format as npy_format

    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as exc:
        raise AbnormalExit(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with (
            os.fdopen(fd, "wb") as handle,
            zipfile.ZipFile(handle, mode="w", compression=zipfile.ZIP_STORED) as archive,
        ):
            for name, value in arrays.items():
                with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                    npy_format.write_array(member, value, allow_pickle=False)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's file is private; the result is not
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise AbnormalExit(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _summary(name: str, value: np.ndarray) -> str:
    shape = "[" + ",".join(str(n) for n in value.shape) + "]"
    line = f"{name}: shape {shape} {value.dtype}"
    if value.size == 0:
        return line + " (empty)"
    if value.dtype.kind in "fiub":
        data = value.astype("float64")
        line += f" min {data.min():.6g} max {data.max():.6g} mean {data.mean():.6g}"
    return line
