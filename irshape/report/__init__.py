"""Reporters: each renders the same list of :class:`FileReport` in one output format."""

from __future__ import annotations

from irshape.report.base import Reporter
from irshape.report.json import JsonReporter
from irshape.report.text import TextReporter

REPORTERS: dict[str, type[Reporter]] = {"text": TextReporter, "json": JsonReporter}

__all__ = ["REPORTERS", "Reporter"]
