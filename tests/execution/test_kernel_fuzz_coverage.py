"""Every op version irshape executes is drawn by one of the kernel fuzzer's suites.

A new kernel without a drawer fails here: add one to the ``test_kernel_fuzz*.py`` of its
family, or, where the CPU plugin gives no answer to compare with, to ``NOT_DRAWN`` below with
the reason.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from irshape.ops.registry import all_declarations

from .fuzzing import Drawers

# op version -> why no configuration of it can be compared with the plugin's
NOT_DRAWN: dict[str, str] = {}


def _drawn() -> dict[str, str]:
    """Each drawn op version and the suite that draws it."""
    drawn: dict[str, str] = {}
    for path in sorted(Path(__file__).parent.glob("test_kernel_fuzz*.py")):
        module = importlib.import_module(f"{__package__}.{path.stem}")
        drawers = getattr(module, "drawers", None)
        if isinstance(drawers, Drawers):
            for name in drawers.by_name:
                assert name not in drawn, f"{name} drawn by {drawn[name]} and {path.name}"
                drawn[name] = path.name
    return drawn


def test_every_executed_op_version_is_drawn() -> None:
    executed = {schema.name for schema in all_declarations() if schema.kernel}
    drawn = _drawn()
    assert sorted(executed - drawn.keys() - NOT_DRAWN.keys()) == []


def test_what_is_not_drawn_is_executed_and_not_drawn() -> None:
    executed = {schema.name for schema in all_declarations() if schema.kernel}
    assert sorted(NOT_DRAWN.keys() - executed) == []
    assert sorted(NOT_DRAWN.keys() & _drawn().keys()) == []
