"""``[tool.irshape]`` in pyproject.toml: discovery, validation and precedence of the command line."""

from __future__ import annotations

import itertools
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conv_layers import BAD, WARN

from irshape.cli import main
from irshape.config import (
    Config,
    ConfigError,
    find_config,
    load_config,
    may_hold_our_table,
    parse_table,
    resolve,
)


@pytest.fixture(autouse=True)
def project(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A project: models/bad.xml, models/warn.xml, models/legacy/old.xml; cwd is its root."""
    for name in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "models" / "legacy").mkdir(parents=True)
    (tmp_path / "models" / "bad.xml").write_text(BAD)
    (tmp_path / "models" / "warn.xml").write_text(WARN)
    (tmp_path / "models" / "legacy" / "old.xml").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def pyproject(text: str, where: Path | None = None) -> Path:
    path = (where or Path.cwd()) / "pyproject.toml"
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, ["check", *args], env=env)


def codes(result: Result) -> list[str]:
    return [line.split(": ")[1].split()[0] for line in result.stdout.splitlines() if ": IRS" in line]


def files(result: Result) -> list[str]:
    return sorted({line.split(":")[0] for line in result.stdout.splitlines() if ": IRS" in line})


# --- discovery --------------------------------------------------------------------------------


def test_found_from_the_current_directory_upwards(project: Path) -> None:
    pyproject("[tool.irshape]\nstrict = true\n")
    nested = project / "models" / "legacy"
    pyproject("[project]\nname = 'other'\n", nested)  # no [tool.irshape]: passed over
    assert find_config(nested) == str(project / "pyproject.toml")  # paths are str (irshape.paths)
    assert load_config(find_config(nested) or "").strict is True


def test_config_applies_from_a_subdirectory_with_globs_relative_to_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyproject('[tool.irshape]\nexclude = ["models/legacy"]\n')
    monkeypatch.chdir(project / "models")
    assert files(run(".")) == ["bad.xml", "warn.xml"]  # not legacy/old.xml


def test_no_config() -> None:
    assert files(run("models")) == ["models/bad.xml", "models/legacy/old.xml", "models/warn.xml"]


# --- each key -----------------------------------------------------------------------------------


def test_select_ignore_strict_format_from_config() -> None:
    pyproject('[tool.irshape]\nselect = ["IRS1"]\nstrict = true\n')
    result = run("models")
    assert codes(result) == ["IRS101"]
    assert result.exit_code == 1  # strict: the warning fails
    pyproject('[tool.irshape]\nignore = ["IRS301"]\nformat = "github"\n')
    result = run("models")
    assert result.stdout.startswith("::warning file=models/warn.xml")
    assert result.exit_code == 0


def test_per_file_ignores() -> None:
    pyproject('[tool.irshape.per-file-ignores]\n"legacy" = ["IRS3"]\n"models/w*.xml" = ["IRS101"]\n')
    result = run("models")
    assert files(result) == ["models/bad.xml"]


def test_exclude_applies_to_files_named_on_the_command_line() -> None:
    # pre-commit passes files one by one: the configured exclude must still apply.
    pyproject('[tool.irshape]\nexclude = ["legacy"]\n')
    result = run("models/legacy/old.xml", "models/bad.xml")
    assert files(result) == ["models/bad.xml"]


# --- precedence: the command line wins ----------------------------------------------------------


def test_command_line_flags_win() -> None:
    pyproject(
        '[tool.irshape]\nselect = ["IRS1"]\nignore = ["IRS301"]\nstrict = true\n'
        'format = "json"\nexclude = ["legacy"]\n'
    )
    assert run("models").stdout.startswith("{")
    assert run("--format", "text", "models").stdout.startswith("models/warn.xml:2:5: IRS101")
    assert codes(run("--format", "text", "--select", "IRS3", "--ignore", "IRS2", "models")) == ["IRS301"]
    assert run("--format", "text", "--no-strict", "models").exit_code == 0
    assert files(
        run("--format", "text", "--select", "ALL", "--ignore", "IRS2", "--exclude", "x", "models")
    ) == [
        "models/bad.xml",
        "models/legacy/old.xml",
        "models/warn.xml",
    ]


def test_configured_format_beats_github_actions_detection() -> None:
    assert run("models", env={"GITHUB_ACTIONS": "true"}).stdout.startswith("::")
    pyproject('[tool.irshape]\nformat = "text"\n')
    assert run("models", env={"GITHUB_ACTIONS": "true"}).stdout.startswith("models/")


def test_isolated_and_explicit_config(project: Path) -> None:
    pyproject('[tool.irshape]\nselect = ["IRS1"]\n')
    assert codes(run("--isolated", "models")) == ["IRS301", "IRS301", "IRS101"]
    other = project / "ci.toml"
    other.write_text('[tool.irshape]\nselect = ["IRS3"]\n')
    assert codes(run("--config", str(other), "models")) == ["IRS301", "IRS301"]


def test_resolve_precedence() -> None:
    from irshape import rules

    config = Config(select=("IRS1",), ignore=("IRS101",), format="json", strict=True, exclude=("a",))
    settings = resolve(config, environ={})
    irs1 = {code for code in rules.RULES if code.startswith("IRS1")}
    assert settings.selection.enabled == irs1 - {"IRS101"}
    assert (settings.format, settings.strict) == ("json", True)
    assert [g.pattern for g in settings.exclude] == ["a"]
    # The command line's selection applies on top of the configuration's (as ruff does): its
    # select starts over, so the configured ignore of IRS101 is gone with the IRS1 it trimmed.
    settings = resolve(
        config, select=("IRS3",), ignore=(), output_format="sarif", strict=False, exclude=("b",), environ={}
    )
    assert settings.selection.enabled == {code for code in rules.RULES if code.startswith("IRS3")}
    assert (settings.format, settings.strict) == ("sarif", False)
    assert [g.pattern for g in settings.exclude] == ["b"]
    # extend-select adds to the configured selection; an ignore on the command line takes away.
    extended = resolve(config, extend_select=("IRS301",), ignore=("IRS102",), environ={})
    assert extended.selection.enabled == (irs1 - {"IRS101", "IRS102"}) | {"IRS301"}
    assert [layer.origin for layer in extended.selection.layers] == ["configuration", "command line"]
    defaults = resolve(Config(), environ={})
    assert (defaults.selection.enabled, defaults.format, defaults.strict) == (set(rules.RULES), "text", False)
    assert defaults.selection.layers == ()
    assert resolve(Config(), environ={"GITHUB_ACTIONS": "true"}).format == "github"


# --- bad configuration: exit 2, naming the key --------------------------------------------------


@pytest.mark.parametrize(
    ("table", "named"),
    [
        ('selekt = ["IRS1"]', "'selekt'; did you mean 'select'?"),
        ("select = 'IRS1'", "select must be a list of strings"),
        ('select = ["IRS1", 3]', "select must be a list of strings"),
        ('ignore = ["NOPE"]', "ignore: 'NOPE' matches no diagnostic code"),
        ('format = "yaml"', "format must be one of text, json, sarif, github, junit"),
        ('strict = "yes"', "strict must be true or false"),
        ('exclude = "legacy"', "exclude must be a list of strings"),
        ('per-file-ignores = ["x"]', "per-file-ignores must be a table"),
        ('per-file-ignores = {"x" = ["IRS99X"]}', "per-file-ignores 'x': 'IRS99X' matches no"),
        ("per_file_ignores = {}", "did you mean 'per-file-ignores'?"),
    ],
)
def test_bad_config_exits_2_naming_the_key(table: str, named: str) -> None:
    path = pyproject(f"[tool.irshape]\n{table}\n")
    result = run("models")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"{path}: [tool.irshape]" in result.stderr
    assert named in result.stderr
    with pytest.raises(ConfigError, match=r"\[tool\.irshape\]"):
        load_config(path)


def test_invalid_toml_exits_2() -> None:
    pyproject("[tool.irshape\nselect = [\n")
    result = run("models")
    assert result.exit_code == 2
    assert "not valid TOML" in result.stderr


def test_broken_pyproject_of_another_tool_is_passed_over(project: Path) -> None:
    pyproject("[tool.black\n")
    assert run("models").exit_code == 1


# Every way TOML can spell the key path tool.irshape; the pre-filter that spares tomllib must
# let each through (tomllib confirms each defines the table).
TABLE_SPELLINGS = [
    "[tool.irshape]\nstrict = true\n",
    "[ tool . irshape ]\nstrict = true\n",
    "[\"tool\".'irshape']\nstrict = true\n",
    "[[tool.irshape]]\n",
    '[tool.irshape.per-file-ignores]\n"a.xml" = ["IRS1"]\n',
    "tool.irshape.strict = true\n",
    'tool . "irshape" = { strict = true }\n',
    "[tool]\nirshape = { strict = true }\n",
    "[ 'tool' ]\nirshape.strict = true\n",
    '[tool]\n"irshape".strict = true\n',
    "tool = { irshape = { strict = true } }\n",
    '"tool" = {irshape={}}\n',
    '[tool]\n"irsh\\u0061pe" = {}\n',
    '[project]\nname = "x"\n[tool.black]\n[tool.irshape]\n',
]


@pytest.mark.parametrize("text", TABLE_SPELLINGS)
def test_prefilter_lets_every_spelling_of_the_table_through(text: str) -> None:
    assert "irshape" in tomllib.loads(text)["tool"]
    assert may_hold_our_table(text.encode())


@pytest.mark.parametrize(
    "text",
    [
        '[project]\nname = "irshape"\n[project.scripts]\nirshape = "irshape.cli:main"\n[tool.ruff]\n',
        '[project]\ndependencies = ["irshape>=0.1"]\n',
        "[tool.black]\nline-length = 100\n",
    ],
)
def test_prefilter_passes_over_files_without_the_table(text: str) -> None:
    assert "irshape" not in tomllib.loads(text).get("tool", {})
    assert not may_hold_our_table(text.encode())


# The pre-filter as regexes (what it was before it was written with bytes methods, to spare
# their compiling at start-up): the bytes methods must let through whatever these match.
_TOOL_DOT_IRSHAPE = rb"""tool["']?[ \t]*\.[ \t]*["']?irshape"""
_TOOL_TABLE = rb"""(?m)^[ \t]*(\[[ \t]*["']?tool["']?[ \t]*\]|["']?tool["']?[ \t]*=)"""


def _regex_prefilter(raw: bytes) -> bool:
    if b"\\u" in raw or b"\\U" in raw:
        return True
    if b"irshape" not in raw:
        return False
    return re.search(_TOOL_DOT_IRSHAPE, raw) is not None or re.search(_TOOL_TABLE, raw) is not None


# The pieces a header or key is made of (a tab is a blank and ' a quote, as " and " are).
_PIECES = ["tool", "irshape", ".", " ", '"', "[", "]", "=", "\n", "x"]


def test_prefilter_is_the_regexes_it_replaced() -> None:
    """Every text of up to five pieces (111,110 texts: `[ tool]`, `tool . "irshape`, ...)."""
    for size in range(6):
        for pieces in itertools.product(_PIECES, repeat=size):
            raw = "".join(pieces).encode()
            assert may_hold_our_table(raw) == _regex_prefilter(raw), raw


def test_parse_table_directly() -> None:
    config = parse_table({"select": ["irs3"], "per-file-ignores": {"a/*.xml": ["IRS1"]}, "strict": False})
    assert config.select == ("IRS3",)
    assert config.per_file_ignores == (("a/*.xml", ("IRS1",)),)
    assert config.strict is False and config.format is None
