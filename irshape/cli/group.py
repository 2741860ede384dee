"""The ``irshape`` command group: its commands, each imported by name when it is asked for."""

from __future__ import annotations

from importlib import import_module

import click

from irshape import __version__

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


class LazyGroup(click.Group):
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
# click's own message, given: without it click looks it up through gettext at every start (~0.2M
# instructions), to the same text (click ships no translations).
@click.version_option(__version__, prog_name="irshape", message="%(prog)s, version %(version)s")
def main() -> None:
    """Check OpenVINO IR files as OpenVINO reads them: validate every layer, infer its output
    shapes and element types, and execute networks with numpy."""
