"""Counting calls, for the tests that pin what a check must not do again (issue 26: counted
calls, never time)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from irshape.check import layer as check_layer
from irshape.check import sources


class Calls:
    """Counts the calls of the functions it wraps."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.counts: dict[str, int] = {}
        self.monkeypatch = monkeypatch

    def count(self, owner: object, name: str) -> None:
        function: Callable[..., Any] = getattr(owner, name)
        self.counts[name] = 0

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.counts[name] += 1
            return function(*args, **kwargs)

        self.monkeypatch.setattr(owner, name, counted)


def fresh_memos(monkeypatch: pytest.MonkeyPatch) -> None:
    """Empty the process's memos of clean checks (ops, attributes, Consts): what earlier checks
    in this process left must not count as work saved."""
    monkeypatch.setattr(check_layer, "_CLEAN", {})
    monkeypatch.setattr(check_layer, "_CLEAN_ATTRIBUTES", {})
    monkeypatch.setattr(sources, "_CLEAN_CONSTS", {})
