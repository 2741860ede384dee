"""``path:line:col: CODE [severity] layer ...: message``, one finding a line, the way linters print.

Colour (``ReportOptions.color``) is added with ``click.style``; the CLI decides when.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import click

from irshape.diagnostics import Diagnostic, Severity
from irshape.report.base import Reporter, statistics_lines, summary
from irshape.results import FileReport

SEVERITY_COLORS = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def layer_label(d: Diagnostic) -> str:
    if d.layer_id is None and d.layer_type is None:
        return ""
    parts = [f"layer {d.layer_id}" if d.layer_id is not None else "layer"]
    if d.layer_name:
        parts.append(f"'{d.layer_name}'")
    if d.layer_type:
        parts.append(f"({d.layer_type}{', ' + d.layer_version if d.layer_version else ''})")
    return " ".join(parts) + ": "


def format_diagnostic(d: Diagnostic, *, color: bool = False) -> str:
    where = f"{d.path}:{d.line or 1}:{d.column}:"
    code, severity = d.code, f"[{d.severity.value}]"
    if color:
        fg = SEVERITY_COLORS[d.severity]
        where = click.style(where, bold=True)
        code = click.style(code, fg=fg, bold=True)
        severity = click.style(severity, fg=fg)
    return f"{where} {code} {severity} {layer_label(d)}{d.message}"


def summary_line(reports: Sequence[FileReport]) -> str:
    s = summary(reports)
    return (
        f"{s['errors']} error(s), {s['warnings']} warning(s), {s['infos']} info in "
        f"{s['files']} file(s); {s['layers_checked']} layer(s) checked, "
        f"{s['layers_not_checked']} not checked (ops irshape does not know)"
    )


class TextReporter(Reporter):
    name = "text"
    inline_statistics = True

    def render_check(self, reports: Sequence[FileReport]) -> str:
        verbosity, color = self.options.verbosity, self.options.color
        if verbosity <= -2:
            return ""
        lines = []
        for report in reports:
            lines += [format_diagnostic(d, color=color) for d in report.diagnostics]
            if verbosity >= 1 and not report.diagnostics:
                ok = f"{report.path}: ok ({report.layers_checked} layer(s) checked)"
                lines.append(click.style(ok, fg="green") if color else ok)
        if verbosity == -1:
            return "\n".join(lines)
        if self.options.statistics:
            lines += statistics_lines(reports)
        line = summary_line(reports)
        if color:
            line = click.style(line, fg="red" if any(r.errors for r in reports) else "green", bold=True)
        lines.append(line)
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


def use_color(mode: str, *, isatty: bool, environ: Mapping[str, str]) -> bool:
    """Whether to colour: ``always``/``never`` as said; ``auto`` colours a terminal unless
    ``NO_COLOR`` is set and non-empty (no-color.org), or ``FORCE_COLOR`` asks for colour."""
    if mode in ("always", "never"):
        return mode == "always"
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    return isatty
