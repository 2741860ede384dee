"""The documented JSON of ``check`` and ``infer`` (see the README)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from irshape.report.base import Reporter, statistics, summary
from irshape.results import FileReport

SCHEMA_VERSION = 1


class JsonReporter(Reporter):
    name = "json"
    inline_statistics = True

    def render_check(self, reports: Sequence[FileReport]) -> str:
        out: dict[str, Any] = {
            "version": SCHEMA_VERSION,
            "files": [r.to_json() for r in reports],
            "summary": summary(reports),
        }
        if self.options.statistics:
            out["statistics"] = dict(statistics(reports))
        return json.dumps(out, indent=2)

    def render_infer(self, reports: Sequence[FileReport]) -> str:
        files = [
            {"path": r.path, "layers": [layer.to_json() for layer in r.layers if layer.checked]}
            for r in reports
        ]
        return json.dumps({"version": SCHEMA_VERSION, "files": files}, indent=2)
