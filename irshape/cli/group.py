"""The ``irshape`` command group: its commands, each imported by name when it is asked for, and
the help and version options every command has.

click passes each of its own words through ``gettext`` when the object holding it is made: the
help option's "Show this message and exit." (whatever help text it is given), the version
option's help, each ``click.Path``'s name. click ships no message catalogues, so every lookup
returns the word it was given, but a lookup is not free: the first imports ``locale`` and
searches the catalogue directories for the user's languages (~4.6M instructions, 2% of a plain
``irshape check``), each later one ~0.2M, and seven ran at every start. So the help and version
options here are click's, made with its public :class:`click.Option` and the same settings and
words (and the path type of :mod:`irshape.cli.options` is click's, made only for a value that
needs its verdict). A translated irshape would look its words up where it shows them.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any, TypeVar

import click

from irshape import __version__

if TYPE_CHECKING:
    F = TypeVar("F", bound=Callable[..., Any])

# Command name -> (module, function). A command's module is imported when the command runs
# (or ``--help`` lists them all): ``irshape check`` imports neither ``run``'s nor ``compare``'s.
COMMANDS = {
    "check": ("irshape.cli.check", "check"),
    "compare": ("irshape.cli.compare", "compare_command"),
    "infer": ("irshape.cli.infer", "infer"),
    "rule": ("irshape.cli.rules", "rule"),
    "rules": ("irshape.cli.rules", "list_rules"),
    "run": ("irshape.cli.runner", "run_command"),
}


def _show_help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


class Command(click.Command):
    """Each command's class (and the group's): :class:`click.Command` whose help option is
    :func:`click.help_option`'s, made without ``gettext``, and whose parameters are listed
    without click's checks for a repeated option or name."""

    _own_help: click.Option | None = None

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        names = self.get_help_option_names(ctx)
        if not names or not self.add_help_option:
            return None
        # Made once: click orders the eager callbacks by the option object's identity.
        if self._own_help is None:
            self._own_help = click.Option(
                names,
                is_flag=True,
                expose_value=False,
                is_eager=True,
                help="Show this message and exit.",
                callback=_show_help,
            )
        return self._own_help

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        # click's own warns when two parameters share an option or a name, counting every
        # option of every parameter, twice a run (~0.25M instructions each time for check's
        # 33): a check of how a command is declared, which tests/test_cli_untranslated.py makes
        # once for each command.
        help_option = self.get_help_option(ctx)
        return self.params if help_option is None else [*self.params, help_option]


def version_option(version: str, prog_name: str) -> Callable[[F], F]:
    """:func:`click.version_option` with its version and program name given, made without
    ``gettext``."""

    def show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
        if value and not ctx.resilient_parsing:
            click.echo(f"{prog_name}, version {version}", color=ctx.color)
            ctx.exit()

    return click.option(
        "--version",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        help="Show the version and exit.",
        callback=show_version,
    )


class LazyGroup(Command, click.Group):
    """A group whose commands are imported by name, when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)  # as click.Group lists its commands

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = COMMANDS.get(cmd_name)
        if found is None:
            return None
        module, name = found
        command: click.Command = getattr(import_module(module), name)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@version_option(__version__, prog_name="irshape")
def main() -> None:
    """Check OpenVINO IR files as OpenVINO reads them: validate every layer, infer its output
    shapes and element types, and execute networks with numpy."""
