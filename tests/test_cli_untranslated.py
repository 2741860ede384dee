"""The help and version options and the path type irshape makes without click's gettext lookups
(irshape.cli.group, irshape.cli.options.Path) say and accept what click's own do.

Each expectation is click's: the same command built with ``click.help_option``,
``click.version_option`` and ``click.Path``, run side by side.
"""

from __future__ import annotations

import os
from pathlib import Path as FilePath

import click
import pytest
from click.testing import CliRunner

from irshape import __version__
from irshape.cli import main
from irshape.cli.group import Command, version_option
from irshape.cli.options import Path


def _commands(**path_options: object) -> tuple[click.Command, click.Command]:
    """The same one-argument command twice: with irshape's path type, and with click's."""

    @click.command(name="tool", cls=Command)
    @click.argument(
        "target", type=Path("file" if path_options.get("dir_okay") is False else "path", **path_options)
    )
    def ours(target: str) -> None:
        click.echo(repr(target))

    @click.command(name="tool")
    @click.argument("target", type=click.Path(**path_options))
    def clicks(target: str) -> None:
        click.echo(repr(target))

    return ours, clicks


PATH_OPTIONS = (
    {"exists": True, "allow_dash": True},
    {"exists": True, "dir_okay": False},
    {"dir_okay": False, "writable": True},
    {"dir_okay": False},
)


@pytest.mark.parametrize("options", PATH_OPTIONS, ids=lambda o: ",".join(o))
@pytest.mark.parametrize("what", ["file", "directory", "missing", "dash", "empty"])
def test_a_path_is_accepted_and_refused_as_click_path_does(
    options: dict[str, object], what: str, tmp_path: FilePath
) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "directory").mkdir()
    value = {"dash": "-", "empty": ""}.get(what, str(tmp_path / what))
    ours, clicks = _commands(**options)
    mine, theirs = CliRunner().invoke(ours, [value]), CliRunner().invoke(clicks, [value])
    assert (mine.exit_code, mine.output) == (theirs.exit_code, theirs.output)


def test_an_unreadable_file_is_refused_by_click_path(
    tmp_path: FilePath, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked.xml"
    locked.write_text("x")
    # What a file of mode 000 is to a user other than root (both types ask os.access).
    readable = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: mode != os.R_OK and readable(path, mode))
    ours, clicks = _commands(exists=True, allow_dash=True)
    mine, theirs = CliRunner().invoke(ours, [str(locked)]), CliRunner().invoke(clicks, [str(locked)])
    assert mine.exit_code == theirs.exit_code == 2 and "is not readable" in mine.output
    assert mine.output == theirs.output


def test_path_types_describe_themselves_as_click_path() -> None:
    for options in PATH_OPTIONS:
        ours, clicks = _commands(**options)
        assert ours.params[0].to_info_dict()["type"] == clicks.params[0].to_info_dict()["type"]
        assert ours.params[0].make_metavar(click.Context(ours)) == clicks.params[0].make_metavar(
            click.Context(clicks)
        )


def test_help_and_version_read_as_clicks_own() -> None:
    @click.command(name="tool", cls=Command)
    @version_option("1.2.3", prog_name="tool")
    def ours() -> None:
        pass

    @click.command(name="tool")
    @click.version_option("1.2.3", prog_name="tool", message="%(prog)s, version %(version)s")
    def clicks() -> None:
        pass

    for args in (["--help"], ["--version"]):
        mine, theirs = CliRunner().invoke(ours, args), CliRunner().invoke(clicks, args)
        assert (mine.exit_code, mine.output) == (theirs.exit_code, theirs.output)


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["check", "--help"], ["check", "-h"], ["rules", "-h"]])
def test_irshape_help_lists_its_help_option(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0
    assert "-h, --help" in result.output and "Show this message and exit." in result.output


def test_irshape_version() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert (result.exit_code, result.output) == (0, f"irshape, version {__version__}\n")


def _every_command() -> list[click.Command]:
    from importlib import import_module

    from irshape.cli.group import COMMANDS

    return [main, *(getattr(import_module(module), function) for module, function in COMMANDS.values())]


def test_every_command_makes_its_help_option_without_gettext() -> None:
    """A command made with click's own class would look its help option's words up through
    gettext (importing locale) whenever it runs: each of irshape's is a group.Command."""
    for command in _every_command():
        assert isinstance(command, Command), command.name


def test_every_command_lists_its_parameters_as_click_does_and_repeats_none() -> None:
    """group.Command lists a command's parameters without click's warnings for an option or a
    name two parameters share: click's own get_params, run here with its warnings as errors,
    finds none in any command, and lists the same parameters in the same order."""
    import warnings

    commands = _every_command()
    assert len(commands) == 7  # the group and its six commands
    for command in commands:
        ctx = click.Context(command, info_name=command.name)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            clicks = click.Command.get_params(command, ctx)
        assert command.get_params(ctx) == clicks, command.name


def test_clicks_warning_for_a_repeated_option_is_what_the_test_above_would_catch() -> None:
    """The check the test above makes fails on a command that repeats an option."""
    import warnings

    @click.command(name="tool", cls=Command)
    @click.option("--same", "first")
    @click.option("--same", "second")
    def repeated(first: str, second: str) -> None:
        pass

    with warnings.catch_warnings(), pytest.raises(UserWarning, match="used more than once"):
        warnings.simplefilter("error")
        click.Command.get_params(repeated, click.Context(repeated))
