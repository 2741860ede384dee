"""Reporters: each renders the same list of :class:`FileReport` in one output format.

A reporter's module is imported when its format is first asked for: a run prints one format,
and the others (SARIF's hashlib, JUnit's xml.etree) would only cost start-up time. The names
of the formats cost nothing: the configuration validates ``format`` without the reporters'
base (``ReportOptions`` and ``Reporter`` are imported from it on first use too).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from irshape.report.base import Reporter, ReportOptions

# Format name -> (module, class), in the order --help lists them.
_CLASSES = {
    "text": ("irshape.report.text", "TextReporter"),
    "json": ("irshape.report.json", "JsonReporter"),
    "sarif": ("irshape.report.sarif", "SarifReporter"),
    "github": ("irshape.report.github", "GithubReporter"),
    "junit": ("irshape.report.junit", "JunitReporter"),
}


class _Reporters(Mapping[str, "type[Reporter]"]):  # quoted: the base is imported on first use
    """Format name -> reporter class, each imported on first use."""

    def __getitem__(self, name: str) -> type[Reporter]:
        module, cls = _CLASSES[name]
        reporter: type[Reporter] = getattr(importlib.import_module(module), cls)
        return reporter

    def __iter__(self) -> Iterator[str]:
        return iter(_CLASSES)

    def __len__(self) -> int:
        return len(_CLASSES)


REPORTERS: Mapping[str, type[Reporter]] = _Reporters()
FORMATS = tuple(_CLASSES)
INFER_FORMATS = ("text", "json")


def __getattr__(name: str) -> Any:
    """The reporter classes by name (``from irshape.report import SarifReporter``), and the
    reporters' base, lazily."""
    if name in ("Reporter", "ReportOptions"):
        return getattr(importlib.import_module("irshape.report.base"), name)
    for module, cls in _CLASSES.values():
        if cls == name:
            return getattr(importlib.import_module(module), cls)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FORMATS", "INFER_FORMATS", "REPORTERS", "ReportOptions", "Reporter"]
