"""SARIF 2.1.0, as GitHub code scanning reads it.

One rule entry per code of the registry (id, name, short and full description, help as text
and Markdown, default level), so ``ruleIndex`` is stable; results point at paths relative to
the root (the current directory: run irshape from the repository root) under ``%SRCROOT%``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from irshape.baseline import fingerprint
from irshape.diagnostics import Diagnostic, Rule, Severity
from irshape.report import Reporter, dry_run_summary
from irshape.report.ruledoc import rule_markdown, rule_text
from irshape.report.text import layer_label
from irshape.results import FileReport
from irshape.rules import INTERNAL_ERROR, RULES

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SRCROOT = "%SRCROOT%"


def sarif_rule(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": f"{rule.summary} {rule.why}"},
        "help": {"text": rule_text(rule), "markdown": rule_markdown(rule)},
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {"tags": ["openvino-ir"]},
    }


class SarifReporter(Reporter):
    name = "sarif"

    def render_check(self, reports: Sequence[FileReport]) -> str:
        from irshape import __version__

        root = (Path.cwd() if self.options.root is None else Path(self.options.root)).resolve()
        index = {code: i for i, code in enumerate(RULES)}
        results: list[dict[str, Any]] = []
        for report in reports:
            seen: Counter[str] = Counter()
            for d in report.diagnostics:
                key = fingerprint(d)
                seen[key] += 1
                results.append(self._result(d, index[d.code], f"{key}:{seen[key]}"))
        failed = any(d.code == INTERNAL_ERROR.code for r in reports for d in r.diagnostics)
        invocation: dict[str, Any] = {"executionSuccessful": not failed}
        dry_run = dry_run_summary(reports)
        if dry_run is not None:
            invocation["properties"] = {"dryRun": dry_run.to_json()}
        log = {
            "$schema": SARIF_SCHEMA,
            "version": SARIF_VERSION,
            "runs": [
                {
                    "tool": {
                        "driver": {
                            "name": "irshape",
                            "version": __version__,
                            "semanticVersion": __version__,
                            "rules": [sarif_rule(rule) for rule in RULES.values()],
                        }
                    },
                    "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri() + "/"}},
                    "invocations": [invocation],
                    "results": results,
                }
            ],
        }
        return json.dumps(log, indent=2)

    def _result(self, d: Diagnostic, rule_index: int, key: str) -> dict[str, Any]:
        relative = self.relative(d.path)
        artifact: dict[str, Any]
        if relative.startswith("/"):  # not below the root
            artifact = {"uri": Path(relative).as_uri()}
        else:
            artifact = {"uri": quote(relative), "uriBaseId": SRCROOT}
        location: dict[str, Any] = {
            "physicalLocation": {
                "artifactLocation": artifact,
                "region": {"startLine": d.line or 1, "startColumn": d.column},
            }
        }
        if d.layer_id is not None or d.layer_name is not None:
            location["logicalLocations"] = [
                {
                    "name": d.layer_name or d.layer_id,
                    "fullyQualifiedName": layer_label(d).rstrip(": "),
                    "kind": "object",
                }
            ]
        result: dict[str, Any] = {
            "ruleId": d.code,
            "ruleIndex": rule_index,
            "level": LEVELS[d.severity],
            "message": {"text": f"{layer_label(d)}{d.message}"},
            "locations": [location],
            "partialFingerprints": {"irshapeFinding/v1": key},
        }
        properties = {k: v for k, v in d.to_json().items() if k not in ("code", "severity", "message")}
        result["properties"] = {k: v for k, v in properties.items() if v is not None}
        return result
