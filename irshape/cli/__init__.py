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

import click

from irshape import __version__, lifetime
from irshape.cli.check import check
from irshape.cli.compare import compare_command
from irshape.cli.infer import infer
from irshape.cli.options import AbnormalExit, MemorySize
from irshape.cli.progress import DryRunProgress
from irshape.cli.rules import list_rules, rule
from irshape.cli.runner import run_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="irshape")
def main() -> None:
    """Check OpenVINO IR files as OpenVINO reads them: validate every layer, infer its output
    shapes and element types, and execute networks with numpy."""


for _command in (check, infer, run_command, compare_command, list_rules, rule):
    main.add_command(_command)


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


__all__ = ["AbnormalExit", "DryRunProgress", "MemorySize", "main", "run"]
