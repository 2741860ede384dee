"""The ``irshape`` command: a thin shell over the library.

Exit codes (:mod:`irshape.selection`): ``check`` 0 no failing finding, 1 failing findings
(errors; warnings too with ``--strict``); ``infer`` 0 OpenVINO rejects nothing, 1 it rejects a
layer or a file; both 2 on a usage or configuration error, or when irshape itself failed
(``--exit-zero`` leaves 2 alone).

A plain ``irshape check`` should start quickly (a pre-commit hook runs it on every commit), so
what only some commands need is imported where it is used.

The package by concern: ``check``, ``infer``, ``rules`` (``rules`` and ``rule``) and ``runner``
(``run``) and ``compare`` hold the commands; ``options`` the options and settings they share, ``inputs`` the
checking of their inputs, ``output`` where their output goes, ``progress`` a dry run's
progress line.
"""

from __future__ import annotations

import gc
import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

import click

from irshape import __version__, lifetime

if TYPE_CHECKING:
    from irshape.cli.options import AbnormalExit, MemorySize
    from irshape.cli.progress import DryRunProgress

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
@click.version_option(__version__, prog_name="irshape")
def main() -> None:
    """Check OpenVINO IR files as OpenVINO reads them: validate every layer, infer its output
    shapes and element types, and execute networks with numpy."""


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


# What the command line's modules define, imported on first use as the commands are.
_HOMES = {
    "AbnormalExit": "irshape.cli.options",
    "MemorySize": "irshape.cli.options",
    "DryRunProgress": "irshape.cli.progress",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(home), name)


__all__ = ["AbnormalExit", "DryRunProgress", "MemorySize", "main", "run"]
