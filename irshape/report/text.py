"""``path:line:col: CODE [severity] layer ...: message``, one finding a line, the way linters print.

Colour (``ReportOptions.color``) is added with ``click.style``; the CLI decides when. Text
from the file (paths, layer names, messages quoting it) is made :func:`visible`, so that a
finding is always one line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import click

from irshape.diagnostics import Diagnostic, Severity
from irshape.report.base import Reporter, statistics_lines, summary
from irshape.results import FileReport
from irshape.selection import rejections

SEVERITY_COLORS = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


# C0 controls, DEL, C1 controls (NEL among them) and the Unicode line and paragraph separators:
# what a terminal or str.splitlines() would take as a line break or a control sequence. A
# string, compiled (and cached) by re on first use: a clean run prints no finding to show.
_INVISIBLE = r"[\x00-\x1f\x7f-\x9f\u2028\u2029]"
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _show(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{ord(char):02x}" if ord(char) <= 0xFF else f"\\u{ord(char):04x}"


def visible(text: str) -> str:
    """``text`` with its control characters spelled out: a newline as the two characters
    ``\\n`` (also ``\\r``, ``\\t``), other controls as ``\\xNN`` (``\\u2028``), so it stays on
    one line and cannot drive the terminal. For the line-oriented formats, text and github."""
    return re.sub(_INVISIBLE, _show, text)


def layer_label(d: Diagnostic) -> str:
    if d.layer_id is None and d.layer_type is None:
        return ""
    parts = [f"layer {d.layer_id}" if d.layer_id is not None else "layer"]
    if d.layer_name:
        parts.append(f"'{d.layer_name}'")
    if d.layer_type:
        parts.append(f"({d.layer_type}{', ' + d.layer_version if d.layer_version else ''})")
    return " ".join(parts) + ": "


def format_diagnostic(d: Diagnostic, *, color: bool = False, raw: bool = False) -> str:
    """One finding as one line; ``raw`` keeps control characters as they are (for JUnit XML,
    which escapes on its own and may hold several lines)."""
    show = (lambda text: text) if raw else visible
    where = f"{show(d.path)}:{d.line or 1}:{d.column}:"
    code, severity = d.code, f"[{d.severity.value}]"
    if color:
        fg = SEVERITY_COLORS[d.severity]
        where = click.style(where, bold=True)
        code = click.style(code, fg=fg, bold=True)
        severity = click.style(severity, fg=fg)
    return f"{where} {code} {severity} {show(layer_label(d) + d.message)}"


def summary_line(reports: Sequence[FileReport]) -> str:
    s = summary(reports)
    return (
        f"{s['errors']} error(s), {s['warnings']} warning(s), {s['infos']} info in "
        f"{s['files']} file(s); {s['layers_checked']} layer(s) validated and inferred, "
        f"{s['layers_not_checked']} other layer(s) checked for structure"
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
                ok = f"{visible(report.path)}: ok ({report.layers_checked} layer(s) inferred)"
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
            rejected, _ = rejections(report)
            for index, layer in enumerate(report.layers):
                finding = rejected.get(index)
                if finding is not None:
                    what = f"OpenVINO rejects it: {finding.code} {finding.message}"
                elif layer.outputs:
                    what = ", ".join(str(s) for s in layer.outputs)
                else:
                    continue
                lines.append(
                    visible(
                        f"{report.path}:{layer.line}: layer {layer.layer_id} '{layer.name}' "
                        f"({layer.type}): {what}"
                    )
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
