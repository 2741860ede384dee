"""``path:line:col: CODE [severity] layer ...: message``, one finding a line, the way linters print.

Colour (``ReportOptions.color``) is added with ``click.style``; the CLI decides when. Text
from the file (paths, layer names, messages quoting it) is made :func:`visible`, so that a
finding is always one line.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import click

from irshape.diagnostics import Diagnostic, Severity
from irshape.report import Reporter, dry_run_summary, statistics_lines, summary
from irshape.results import FileReport, LayerResult
from irshape.selection import is_missing_weights, rejections

if TYPE_CHECKING:
    from irshape.baseline import BaselineResult

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


def summary_line(reports: Sequence[FileReport], baseline: BaselineResult | None = None) -> str:
    s = summary(reports, baseline)
    line = (
        f"{s['errors']} error(s), {s['warnings']} warning(s), {s['infos']} info in "
        f"{s['files']} file(s); {s['layers_checked']} layer(s) validated and inferred, "
        f"{s['layers_not_checked']} other layer(s) checked for structure"
    )
    dry_run = dry_run_summary(reports)
    if dry_run is not None:
        line += f"; dry run: {dry_run.executed} of {dry_run.total} layer(s) executed"
        if dry_run.not_executed:
            reasons = ", ".join(f"{n} {why}" for why, n in sorted(dry_run.not_executed.items()))
            line += f" (not executed: {reasons})"
    if baseline is not None:
        line += f"; {baseline.matched} finding(s) in the baseline, {baseline.stale} stale baseline entr"
        line += "y" if baseline.stale == 1 else "ies"
    return line


def collapsed_missing_weights(reports: Sequence[FileReport], verbosity: int) -> list[Diagnostic]:
    """The missing-weights findings (IRS009) to say once for the run: those of two files or
    more (a checkout without its .bin files, a pre-commit run), unless -v asks for each."""
    if verbosity >= 1:
        return []
    found = [d for r in reports for d in r.diagnostics if is_missing_weights(d)]
    return found if len(found) >= 2 else []


def missing_weights_line(findings: Sequence[Diagnostic], *, color: bool = False) -> str:
    """The missing-weights findings (IRS009) of a run, said once with their count."""
    first = findings[0]
    lfs = sum("Git LFS pointer" in d.message for d in findings)
    what = f"{len(findings)} file(s) checked without their weights (.bin missing"
    what += f", or a Git LFS pointer in {lfs})" if lfs else ")"
    code, severity = first.code, f"[{first.severity.value}]"
    if color:
        fg = SEVERITY_COLORS[first.severity]
        code, severity = click.style(code, fg=fg, bold=True), click.style(severity, fg=fg)
    return (
        f"irshape: {code} {severity} {what}: Const sizes and values not checked, and OpenVINO "
        "cannot load such a model; -v names each file"
    )


def source_excerpt(d: Diagnostic, text: str) -> list[str]:
    """The finding's line under it, with a caret at its column, as ruff shows it. Tabs are
    expanded (to 8 columns, as a terminal shows them), other control characters spelled out."""
    number = str(d.line)
    shown = visible(text.expandtabs())
    caret = len(visible(text[: max(d.column - 1, 0)].expandtabs()))
    gutter = " " * len(number)
    return [f"{gutter} |", f"{number} | {shown}", f"{gutter} | {' ' * caret}^"]


class TextReporter(Reporter):
    name = "text"
    inline_statistics = True

    def render_check(self, reports: Sequence[FileReport]) -> str:
        verbosity, color = self.options.verbosity, self.options.color
        if verbosity <= -2:
            return ""
        lines: list[str] = []
        collapsed = collapsed_missing_weights(reports, verbosity)
        for report in reports:
            sources = self._sources(report)
            for d in report.diagnostics:
                if collapsed and is_missing_weights(d):
                    continue
                lines.append(format_diagnostic(d, color=color))
                if d.line in sources:
                    lines += source_excerpt(d, sources[d.line])
            if verbosity >= 1 and not report.diagnostics:
                ok = f"{visible(report.path)}: ok ({report.layers_checked} layer(s) inferred)"
                lines.append(click.style(ok, fg="green") if color else ok)
        if collapsed:
            lines.append(missing_weights_line(collapsed, color=color))
        if self.options.statistics:
            lines += statistics_lines(reports)
        if verbosity == -1:
            return "\n".join(lines)
        line = summary_line(reports, self.options.baseline)
        if color:
            line = click.style(line, fg="red" if any(r.errors for r in reports) else "green", bold=True)
        lines.append(line)
        return "\n".join(lines)

    def _sources(self, report: FileReport) -> dict[int, str]:
        """The lines of the report's findings, with --show-source."""
        if self.options.source is None or not report.diagnostics:
            return {}
        from irshape.columns import source_lines

        return source_lines(self.options.source(report.path), (d.line or 0 for d in report.diagnostics))

    def render_infer(self, reports: Sequence[FileReport]) -> str:
        lines = []
        for report in reports:
            rejected, _ = rejections(report)
            for index, layer in enumerate(report.layers):
                finding = rejected.get(index)
                if finding is not None:
                    what = f"OpenVINO rejects it: {finding.code} {finding.message}"
                elif layer.outputs:
                    what = "; ".join(_output_text(layer, i) for i in range(len(layer.outputs)))
                else:
                    continue
                lines.append(
                    visible(
                        f"{report.path}:{layer.line}: layer {layer.layer_id} '{layer.name}' "
                        f"({layer.type}): {what}"
                    )
                )
        if self.options.verbosity >= 0:
            lines.append(infer_summary(reports, verbose=self.options.verbosity > 0))
        return "\n".join(lines)


def _output_text(layer: LayerResult, index: int) -> str:
    """``port 3 [1,10,447,447] f32``: one inferred output, by the port it belongs to."""
    port = layer.ports[index] if index < len(layer.ports) else None
    element_type = layer.element_types[index] if index < len(layer.element_types) else None
    text = (
        f"port {port} {layer.outputs[index]}"
        if port is not None
        else f"output {index} {layer.outputs[index]}"
    )
    return f"{text} {element_type}" if element_type else text


def infer_summary(reports: Sequence[FileReport], *, verbose: bool = False) -> str:
    """How many layers were inferred and of how many op types; with ``verbose``, the types
    irshape does not infer (their declared dims flow on unchecked). Parameters, Consts and
    Results are read from the file, not inferred, and counted apart."""
    inferred = Counter(layer.type for r in reports for layer in r.layers if layer.checked)
    others = Counter(layer.type for r in reports for layer in r.layers if not layer.checked)
    read = sum(others.pop(kind, 0) for kind in _READ_FROM_THE_FILE)
    line = (
        f"{sum(inferred.values())} layer(s) of {len(inferred)} op type(s) inferred, {read} Parameter, Const "
        f"and Result layer(s) read, {sum(others.values())} layer(s) of {len(others)} type(s) not inferred"
    )
    if verbose and others:
        line += ": " + ", ".join(f"{kind} ({count})" for kind, count in sorted(others.items(), key=str))
    return line


_READ_FROM_THE_FILE = ("Parameter", "Const", "Constant", "Result")


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
