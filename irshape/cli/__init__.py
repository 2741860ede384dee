"""The ``irshape`` command: a thin shell over the library.

Exit codes (:mod:`irshape.selection`): ``check`` 0 no failing finding, 1 failing findings
(errors; warnings too with ``--strict``); ``infer`` 0 OpenVINO rejects nothing, 1 it rejects a
layer or a file; both 2 on a usage or configuration error, or when irshape itself failed
(``--exit-zero`` leaves 2 alone).

A plain ``irshape check`` should start quickly (a pre-commit hook runs it on every commit), so
what only some commands need is imported where it is used: the group (``group``) imports a
command's module when it runs, and this module imports nothing but what :func:`run` needs
before it turns the cyclic collector off.

The package by concern: ``check`` (with where its report goes), ``infer``, ``rules`` (``rules``
and ``rule``) and ``runner`` (``run``) and ``compare`` hold the commands; ``options`` the options
and settings they share, ``inputs`` the checking of their inputs, ``progress`` a dry run's
progress line.
"""

from __future__ import annotations

import gc
import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

from irshape import lifetime

if TYPE_CHECKING:
    from irshape.cli.group import main
    from irshape.cli.options import AbnormalExit, MemorySize
    from irshape.cli.progress import DryRunProgress


def run() -> None:
    """The ``irshape`` program (and ``python -m irshape``): :func:`main`, then a quick exit."""
    # A run is short, and the model it builds (100,000s of objects for a large IR) holds no
    # reference cycles: the cyclic collector's passes over it would free nothing and cost ~7% of
    # a large check. Off before click and lxml are imported, whose passes (~3M instructions)
    # would free nothing either.
    gc.disable()
    # Nor is anything freed: the process ends right after the output, without the interpreter's
    # teardown (see irshape.lifetime), which would free the model and every module one by one.
    lifetime.keep_for_exit()
    from irshape.cli.group import main

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
    "main": "irshape.cli.group",
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
