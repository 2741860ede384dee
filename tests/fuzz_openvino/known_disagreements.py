"""Disagreements the fuzzer finds whose fix lies in the op machinery (the lead's), not in the
reading layer. Each names the fixture that shows it (``fixtures/fuzz/``); the CI test treats
these as expected until they are fixed, and fails on any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .oracle import Verdicts


@dataclass(frozen=True)
class Known:
    name: str
    description: str
    fixture: str  # fixtures/fuzz/<fixture>.xml
    matches: Callable[[Verdicts], bool]


KNOWN: tuple[Known, ...] = ()


def known_class(v: Verdicts) -> str | None:
    return next((k.name for k in KNOWN if k.matches(v)), None)
