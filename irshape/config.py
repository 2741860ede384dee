"""``[tool.irshape]`` in pyproject.toml: finding it, validating it, and merging the command line.

The configuration is the first ``pyproject.toml`` with a ``[tool.irshape]`` table found from
the current directory upwards (a pyproject.toml without one is passed over, as ruff does).
Globs in it (``exclude``, ``per-file-ignores``) are relative to the directory holding it.
The selection of codes is resolved as ruff resolves it: the configuration's ``select``,
``extend-select``, ``ignore`` and ``extend-ignore``, then the command line's on top (see
:mod:`irshape.selection`). Any other option given on the command line replaces the
configuration's value for that key.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from irshape.paths import Glob
from irshape.record import FrozenRecord, set_field
from irshape.report import FORMATS
from irshape.selection import RuleSelection, Selection, SelectorError, parse_selector

CONFIG_FILE = "pyproject.toml"
KEYS = (
    "select",
    "extend-select",
    "ignore",
    "extend-ignore",
    "per-file-ignores",
    "exclude",
    "format",
    "strict",
    "missing-weights",
    "baseline",
    "show-source",
)
MISSING_WEIGHTS = ("info", "warning", "error")


class ConfigError(Exception):
    """A configuration irshape cannot use; the message names the file and the key."""


# Records, not dataclasses or NamedTuples, whose classes cost ~0.3-1 ms each at every start:
# see irshape.record.


class Config(FrozenRecord):
    """The values of a ``[tool.irshape]`` table; ``None`` where a key is not set."""

    __slots__ = (
        "baseline",
        "exclude",
        "extend_ignore",
        "extend_select",
        "format",
        "ignore",
        "missing_weights",
        "path",
        "per_file_ignores",
        "select",
        "show_source",
        "strict",
    )
    path: str | None
    select: tuple[str, ...] | None
    ignore: tuple[str, ...] | None
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...]
    exclude: tuple[str, ...] | None
    format: str | None
    strict: bool | None
    extend_select: tuple[str, ...]
    extend_ignore: tuple[str, ...]
    missing_weights: str | None
    baseline: str | None
    show_source: bool | None

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        select: tuple[str, ...] | None = None,
        ignore: tuple[str, ...] | None = None,
        per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (),
        exclude: tuple[str, ...] | None = None,
        format: str | None = None,
        strict: bool | None = None,
        extend_select: tuple[str, ...] = (),
        extend_ignore: tuple[str, ...] = (),
        missing_weights: str | None = None,
        baseline: str | None = None,
        show_source: bool | None = None,
    ) -> None:
        set_field(self, "path", None if path is None else os.fspath(path))
        set_field(self, "select", select)
        set_field(self, "ignore", ignore)
        set_field(self, "per_file_ignores", per_file_ignores)
        set_field(self, "exclude", exclude)
        set_field(self, "format", format)
        set_field(self, "strict", strict)
        set_field(self, "extend_select", extend_select)
        set_field(self, "extend_ignore", extend_ignore)
        set_field(self, "missing_weights", missing_weights)
        set_field(self, "baseline", baseline)
        set_field(self, "show_source", show_source)

    @property
    def rule_selection(self) -> RuleSelection:
        """The configuration's layer of the selection of codes."""
        ignore = (*(self.ignore or ()), *self.extend_ignore)
        return RuleSelection(self.select, self.extend_select, ignore, origin="configuration")

    @property
    def root(self) -> str:
        """The directory the configuration's globs are relative to."""
        return (os.path.dirname(self.path) or os.curdir) if self.path is not None else os.getcwd()


def find_config(start: str | os.PathLike[str] | None = None) -> str | None:
    """The nearest ``pyproject.toml`` with a ``[tool.irshape]`` table, from ``start`` upwards."""
    found = _find(start)
    return None if found is None else found[0]


def _find(start: str | os.PathLike[str] | None) -> tuple[str, Any] | None:
    """The nearest ``pyproject.toml`` with a ``[tool.irshape]`` table, and that table."""
    directory = os.path.realpath(os.getcwd() if start is None else start)
    while True:
        path = os.path.join(directory, CONFIG_FILE)
        if os.path.isfile(path):
            tool = _tool_table(path)
            if tool is not None and "irshape" in tool:
                return path, tool["irshape"]
        parent = os.path.dirname(directory)
        if parent == directory:  # the root
            return None
        directory = parent


def _tool_table(path: str) -> dict[str, Any] | None:
    """The ``[tool]`` table of a pyproject.toml that may hold ours, else None."""
    with open(path, "rb") as handle:
        raw = handle.read()
    if not may_hold_our_table(raw):  # most pyproject.toml files on the way up are some other
        return None  # project's: passed over unparsed, as tomllib costs ~3 ms of a start
    import tomllib  # only a file that may hold our table is parsed

    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        if b"irshape" in raw:  # most likely ours: say so rather than silently skip it
            raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
        return None
    tool = data.get("tool")
    return tool if isinstance(tool, dict) else None


# The ways TOML can spell a key path tool.irshape: "tool" and "irshape" in one dotted key or table
# header (`[tool.irshape]`, `[ "tool" . 'irshape' .x]`, `tool.irshape.x = 1`), or "irshape" as a
# key inside a `[tool]` table or a `tool = {...}` inline table. Keys hold no line breaks.
# Matched with bytes methods, not regexes: compiling the two patterns cost ~0.3 ms of every
# start in a project whose pyproject.toml names irshape without configuring it.
_QUOTES = b"\"'"
_BLANKS = b" \t"


def may_hold_our_table(raw: bytes) -> bool:
    """Could this pyproject.toml text define ``tool.irshape``? False only when it surely cannot."""
    if b"\\u" in raw or b"\\U" in raw:  # a quoted key may write a letter as an escape
        return True
    if b"irshape" not in raw:
        return False
    return _has_dotted_tool_irshape(raw) or _has_tool_table(raw)


def _has_dotted_tool_irshape(raw: bytes) -> bool:
    """``tool . irshape``, each name maybe quoted, blanks around the dot (read backwards from
    each ``irshape``)."""
    at = raw.find(b"irshape")
    while at != -1:
        end = _back_over_blanks(raw, _back_over_quote(raw, at))
        if end > 0 and raw[end - 1] == ord("."):
            end = _back_over_quote(raw, _back_over_blanks(raw, end - 1))
            if end >= 4 and raw.startswith(b"tool", end - 4):
                return True
        at = raw.find(b"irshape", at + 1)
    return False


def _back_over_quote(raw: bytes, end: int) -> int:
    """``end``, less one if a quote comes just before it."""
    return end - 1 if end > 0 and raw[end - 1] in _QUOTES else end


def _back_over_blanks(raw: bytes, end: int) -> int:
    """``end``, less the blanks just before it."""
    while end > 0 and raw[end - 1] in _BLANKS:
        end -= 1
    return end


def _has_tool_table(raw: bytes) -> bool:
    """A line that opens a ``[tool]`` table or a ``tool = {...}`` inline table. Read from each
    ``tool`` (found with ``find``) that a blank, a quote, ``=`` or ``]`` follows, not line by
    line: a line's test costs ~2-8k instructions (0.3M of a start in a pyproject.toml of 70 lines,
    whose ``[tool.ruff]`` and ``setuptools`` are passed over at their next character)."""
    at = raw.find(b"tool")
    while at != -1:
        if raw[at + 4 : at + 5] in b" \t\"'=]":  # (or the end of the file)
            end = raw.find(b"\n", at)
            if _opens_tool_table(raw[raw.rfind(b"\n", 0, at) + 1 : None if end == -1 else end]):
                return True
        at = raw.find(b"tool", at + 4)
    return False


def _opens_tool_table(line: bytes) -> bool:
    """Is ``line`` the header ``[tool]`` or the key ``tool =`` (``tool`` maybe quoted)?"""
    rest = line.lstrip(_BLANKS)
    closing = b"="
    if rest.startswith(b"["):
        rest, closing = rest[1:].lstrip(_BLANKS), b"]"
    if rest and rest[0] in _QUOTES:
        rest = rest[1:]
    if not rest.startswith(b"tool"):
        return False
    rest = rest[4:]
    if rest and rest[0] in _QUOTES:
        rest = rest[1:]
    return rest.lstrip(_BLANKS).startswith(closing)


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and validate the ``[tool.irshape]`` table of ``path``."""
    import tomllib  # only when there is a configuration file to read

    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as handle:
            data = tomllib.loads(handle.read())
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from exc
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    tool = data.get("tool")
    return _config(path, tool.get("irshape") if isinstance(tool, dict) else None)


def _config(path: str, table: Any) -> Config:
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: no [tool.irshape] table")
    return parse_table(table, path)


def discover(start: str | os.PathLike[str] | None = None) -> Config:
    """The configuration in force for a run started in ``start`` (default: the cwd)."""
    found = _find(start)  # the file is parsed once, while it is looked for
    return Config() if found is None else _config(*found)


def parse_table(table: Mapping[str, Any], path: str | os.PathLike[str] | None = None) -> Config:
    """Validate a ``[tool.irshape]`` table; a :class:`ConfigError` names the key at fault."""
    where = f"{path}: [tool.irshape]" if path is not None else "[tool.irshape]"
    for key in table:
        if key not in KEYS:
            import difflib  # only to suggest a key for a misspelt one

            close = difflib.get_close_matches(key.replace("_", "-"), KEYS, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ConfigError(f"{where}: unknown key {key!r}; {hint}the keys are {', '.join(KEYS)}")

    def strings(key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{where}: {key} must be a list of strings, not {value!r}")
        return tuple(value)

    def selectors(key: str, value: Any) -> tuple[str, ...]:
        try:
            return tuple(parse_selector(item) for item in strings(key, value))
        except SelectorError as exc:
            raise ConfigError(f"{where}: {key}: {exc}") from None

    def boolean(key: str) -> bool:
        value = table[key]
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: {key} must be true or false, not {value!r}")
        return value

    values: dict[str, Any] = {}
    for key in ("select", "ignore", "extend-select", "extend-ignore"):
        if key in table:
            values[key.replace("-", "_")] = selectors(key, table[key])
    if "exclude" in table:
        values["exclude"] = strings("exclude", table["exclude"])
    if "per-file-ignores" in table:
        mapping = table["per-file-ignores"]
        if not isinstance(mapping, dict):
            raise ConfigError(f"{where}: per-file-ignores must be a table of glob = [codes], not {mapping!r}")
        values["per_file_ignores"] = tuple(
            (glob, selectors(f"per-file-ignores {glob!r}", codes)) for glob, codes in mapping.items()
        )
    if "format" in table:
        if table["format"] not in FORMATS:
            raise ConfigError(f"{where}: format must be one of {', '.join(FORMATS)}, not {table['format']!r}")
        values["format"] = table["format"]
    for key in ("strict", "show-source"):
        if key in table:
            values[key.replace("-", "_")] = boolean(key)
    if "missing-weights" in table:
        if table["missing-weights"] not in MISSING_WEIGHTS:
            choices = ", ".join(MISSING_WEIGHTS)
            raise ConfigError(
                f"{where}: missing-weights must be one of {choices}, not {table['missing-weights']!r}"
            )
        values["missing_weights"] = table["missing-weights"]
    if "baseline" in table:
        if not isinstance(table["baseline"], str) or not table["baseline"]:
            raise ConfigError(f"{where}: baseline must be the path of a file, not {table['baseline']!r}")
        values["baseline"] = table["baseline"]
    return Config(path=path, **values)


class Settings(FrozenRecord):
    """What one run uses: the configuration with the command line on top."""

    __slots__ = (
        "baseline",
        "config_path",
        "exclude",
        "format",
        "missing_weights",
        "selection",
        "show_source",
        "strict",
    )
    selection: Selection
    exclude: tuple[Glob, ...]
    format: str
    strict: bool
    config_path: str | None
    missing_weights: str
    baseline: str | None
    show_source: bool

    def __init__(
        self,
        selection: Selection,
        exclude: tuple[Glob, ...],
        format: str,
        strict: bool,
        config_path: str | os.PathLike[str] | None = None,
        missing_weights: str = "info",
        baseline: str | os.PathLike[str] | None = None,
        show_source: bool = False,
    ) -> None:
        set_field(self, "selection", selection)
        set_field(self, "exclude", exclude)
        set_field(self, "format", format)
        set_field(self, "strict", strict)
        set_field(self, "config_path", None if config_path is None else os.fspath(config_path))
        set_field(self, "missing_weights", missing_weights)
        set_field(self, "baseline", None if baseline is None else os.fspath(baseline))
        set_field(self, "show_source", show_source)


def resolve(
    config: Config,
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    extend_select: Sequence[str] | None = None,
    extend_ignore: Sequence[str] | None = None,
    exclude: Sequence[str] | None = None,
    output_format: str | None = None,
    strict: bool | None = None,
    missing_weights: str | None = None,
    baseline: str | os.PathLike[str] | None = None,
    show_source: bool | None = None,
    cwd: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Merge the command line (``None`` = not given) over ``config``.

    The selection of codes is the configuration's, then the command line's on top; other
    options given replace the configuration's. Globs and paths given on the command line are
    relative to ``cwd``, the configuration's to its directory. With no format anywhere, the
    format is ``github`` inside GitHub Actions (``GITHUB_ACTIONS=true``), else ``text``.
    """
    cwd = os.getcwd() if cwd is None else cwd
    env = os.environ if environ is None else environ
    if exclude is not None:
        globs = tuple(Glob(pattern, cwd) for pattern in exclude)
    else:
        globs = tuple(Glob(pattern, config.root) for pattern in config.exclude or ())
    fmt = output_format or config.format
    if fmt is None:
        fmt = "github" if env.get("GITHUB_ACTIONS") == "true" else "text"
    command_line = RuleSelection(
        tuple(select) if select is not None else None,
        tuple(extend_select or ()),
        (*(ignore or ()), *(extend_ignore or ())),
        origin="command line",
    )
    layers = tuple(layer for layer in (config.rule_selection, command_line) if layer.given)
    selection = Selection(
        per_file_ignores=tuple((Glob(glob, config.root), codes) for glob, codes in config.per_file_ignores),
        layers=layers,
    )
    if baseline is None and config.baseline is not None:
        baseline = os.path.join(config.root, config.baseline)
    return Settings(
        selection=selection,
        exclude=globs,
        format=fmt,
        strict=strict if strict is not None else bool(config.strict),
        config_path=config.path,
        missing_weights=missing_weights or config.missing_weights or "info",
        baseline=baseline,
        show_source=show_source if show_source is not None else bool(config.show_source),
    )
