"""The documented JSON of ``check`` and ``infer`` (see the README)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from irshape.report import Reporter, statistics, summary
from irshape.results import FileReport
from irshape.selection import rejections

SCHEMA_VERSION = 2  # 2: every op irshape infers is a layer checked and listed; ports, element_types


class JsonReporter(Reporter):
    name = "json"
    inline_statistics = True

    def render_check(self, reports: Sequence[FileReport]) -> str:
        out: dict[str, Any] = {
            "version": SCHEMA_VERSION,
            "files": [r.to_json() for r in reports],
            "summary": summary(reports, self.options.baseline),
        }
        if self.options.statistics:
            out["statistics"] = dict(statistics(reports))
        return json.dumps(out, indent=2)

    def render_infer(self, reports: Sequence[FileReport]) -> str:
        files = [{"path": r.path, "layers": self._layers(r)} for r in reports]
        return json.dumps({"version": SCHEMA_VERSION, "files": files}, indent=2)

    @staticmethod
    def _layers(report: FileReport) -> list[dict[str, Any]]:
        """The layers irshape infers; one OpenVINO rejects has ``outputs: null`` and says why."""
        rejected, _ = rejections(report)
        out = []
        for index, layer in enumerate(report.layers):
            if not layer.checked:
                continue
            entry = layer.to_json()
            finding = rejected.get(index)
            if finding is not None:
                entry["outputs"] = None
                entry["rejected"] = {"code": finding.code, "message": finding.message}
            out.append(entry)
        return out
