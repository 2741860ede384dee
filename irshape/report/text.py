"""``path:line:col: CODE message``, one finding a line, the way linters print."""

from __future__ import annotations

from collections.abc import Sequence

from irshape.diagnostics import Diagnostic
from irshape.report.base import Reporter, summary
from irshape.results import FileReport


def layer_label(d: Diagnostic) -> str:
    if d.layer_id is None and d.layer_type is None:
        return ""
    parts = [f"layer {d.layer_id}" if d.layer_id is not None else "layer"]
    if d.layer_name:
        parts.append(f"'{d.layer_name}'")
    if d.layer_type:
        parts.append(f"({d.layer_type}{', ' + d.layer_version if d.layer_version else ''})")
    return " ".join(parts) + ": "


def format_diagnostic(d: Diagnostic) -> str:
    return f"{d.path}:{d.line or 1}:{d.column}: {d.code} [{d.severity.value}] {layer_label(d)}{d.message}"


class TextReporter(Reporter):
    def render_check(self, reports: Sequence[FileReport]) -> str:
        lines = [format_diagnostic(d) for r in reports for d in r.diagnostics]
        s = summary(reports)
        lines.append(
            f"{s['errors']} error(s), {s['warnings']} warning(s), {s['infos']} info in "
            f"{s['files']} file(s); {s['layers_checked']} layer(s) checked, "
            f"{s['layers_not_checked']} not checked (ops irshape does not know)"
        )
        return "\n".join(lines)

    def render_infer(self, reports: Sequence[FileReport]) -> str:
        lines = []
        for report in reports:
            for layer in report.layers:
                if layer.outputs:
                    shapes = ", ".join(str(s) for s in layer.outputs)
                    lines.append(
                        f"{report.path}:{layer.line}: layer {layer.layer_id} '{layer.name}' "
                        f"({layer.type}): {shapes}"
                    )
        return "\n".join(lines)
