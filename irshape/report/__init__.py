"""Reporters: each renders the same list of :class:`FileReport` in one output format."""

from __future__ import annotations

from irshape.report.base import Reporter, ReportOptions
from irshape.report.github import GithubReporter
from irshape.report.json import JsonReporter
from irshape.report.junit import JunitReporter
from irshape.report.sarif import SarifReporter
from irshape.report.text import TextReporter

REPORTERS: dict[str, type[Reporter]] = {
    cls.name: cls for cls in (TextReporter, JsonReporter, SarifReporter, GithubReporter, JunitReporter)
}
FORMATS = tuple(REPORTERS)
INFER_FORMATS = ("text", "json")

__all__ = ["FORMATS", "INFER_FORMATS", "REPORTERS", "ReportOptions", "Reporter"]
