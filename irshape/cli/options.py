"""Shared pieces of the commands: errors, the options every IR-reading command takes, settings."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import click

from irshape.config import Config, ConfigError, Settings, discover, load_config, resolve
from irshape.paths import spelled
from irshape.selection import EXIT_ABNORMAL, SelectorError, parse_selectors

if TYPE_CHECKING:
    _SizeParamType = click.ParamType[int]
    _PathParamType = click.ParamType[Any]
else:  # click.ParamType is generic only from click 8.4 on
    _SizeParamType = _PathParamType = click.ParamType

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_MAX_MEMORY = 1 << 30
NEEDS_NUMPY = "needs numpy, which is not installed: pip install 'irshape[run]'"
STDIN = "-"


class AbnormalExit(click.ClickException):
    """A configuration or environment problem: ``Error: ...`` on stderr, exit 2."""

    exit_code = EXIT_ABNORMAL


def apply_options(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    """Apply click decorators in the order listed (so ``--help`` lists them in that order)."""

    def apply(function: F) -> F:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


def parse_selector_option(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...] | None:
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


class Path(_PathParamType):
    """:class:`click.Path` with these options, made the first time a value needs its verdict
    (click looks a Path's name up through gettext when it is made: see :mod:`irshape.cli.group`).

    A value click's Path plainly accepts (``-`` where a dash is allowed; a file or directory
    that exists and can be read, for a type that asks for both) is the string given, as click's
    Path returns it; any other value is converted by click's Path itself, with its messages.
    """

    envvar_list_splitter: ClassVar[str] = os.path.pathsep  # as click.Path's

    def __init__(self, name: str, **options: Any) -> None:
        self.name = name
        self._options = options
        self._made: click.Path | None = None
        # a type that asks for nothing but existence (and may allow a dash): the argument naming
        # files to read; any other option's verdict is click.Path's
        self._plain = options.keys() <= {"exists", "allow_dash"}
        self._dash = "-" if options.get("allow_dash", False) else None

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and self._plainly_accepted(value):
            return value
        return self._path().convert(value, param, ctx)

    def _plainly_accepted(self, value: str) -> bool:
        """True where click.Path(**options) would return ``value`` unchanged (the common case
        of an argument naming files to read); False where only click.Path can say."""
        if not self._plain:
            return False
        return value == self._dash or os.access(value, os.R_OK)  # exists, readable as click.Path

    def _path(self) -> click.Path:
        if self._made is None:
            self._made = click.Path(**self._options)
        return self._made

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> Any:
        return self._path().shell_complete(ctx, param, incomplete)

    def to_info_dict(self) -> Any:  # click.Path's TypedDict (click 8.4 on) or dict
        return self._path().to_info_dict()


# Options every command that reads IR files takes.
INPUT_OPTIONS = (
    click.argument(
        "paths",
        nargs=-1,
        required=False,  # require_paths(): `check --show-settings` needs none
        type=Path("path", exists=True, allow_dash=True),  # str: see irshape.paths
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
        help="Check files on N processes (default 0: one per core that other programs leave idle).",
    ),
    click.option(
        "--config",
        "config_file",
        type=Path("file", exists=True, dir_okay=False),
        help="Read [tool.irshape] from this file instead of the nearest pyproject.toml.",
    ),
    click.option("--isolated", is_flag=True, help="Read no configuration file."),
)


def settings_for(config_file: str | None, isolated: bool, verbosity: int = 0, **cli: Any) -> Settings:
    if config_file is not None and isolated:
        raise click.UsageError("--config and --isolated exclude each other")
    try:
        config = Config() if isolated else load_config(spelled(config_file)) if config_file else discover()
        settings = resolve(config, **cli)
    except ConfigError as exc:
        raise AbnormalExit(str(exc)) from None
    if verbosity >= 1 and settings.config_path is not None:
        click.echo(f"irshape: configuration from {settings.config_path}", err=True)
    return settings


def has_numpy() -> bool:
    import importlib.util  # only a dry run and `irshape run` need numpy

    return importlib.util.find_spec("numpy") is not None


def require_paths(paths: tuple[str, ...]) -> None:
    """What click's ``required=True`` would say, for the commands that need a path."""
    if not paths:
        raise click.UsageError("Missing argument 'PATHS...'.")


# The options `irshape run` and `irshape compare` share.
input_option = click.option(
    "-i",
    "--input",
    "inputs",
    multiple=True,
    metavar="NAME=FILE.npy | FILE.npz",
    help="The value of the Parameter NAME, a .npy file; or a .npz holding arrays by Parameter name "
    "(repeatable).",
)
max_memory_option = click.option(
    "--max-memory",
    type=MemorySize(),
    default=None,
    metavar="SIZE",
    help="Refuse to run a layer that needs more working memory; bytes or 512M, 2G, 1GiB  [default: 1GiB].",
)


state_option = click.option(
    "--state",
    "states",
    multiple=True,
    metavar="ID=FILE.npy|FILE.npz",
    help="Start a stateful model's variable ID from this array instead of its initialiser (a KV "
    "cache for a second-token run); a FILE.npz gives every variable:ID array it holds (the "
    "--output of an earlier run). An --input .npz may hold variable:ID arrays too.",
)
