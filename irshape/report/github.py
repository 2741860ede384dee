"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` annotation a finding.

Text from the file is first made :func:`~irshape.report.text.visible` (a newline in a layer
name is ``\\n``, as in the text format), so an annotation never spans lines; then it is escaped
as actions/toolkit's ``command.ts`` does it: in the message ``%``, CR and LF; in property values
also ``:`` and ``,``.
"""

from __future__ import annotations

from collections.abc import Sequence

from irshape.diagnostics import Diagnostic, Severity
from irshape.report import Reporter
from irshape.report.text import collapsed_missing_weights, layer_label, missing_weights_line, visible
from irshape.results import FileReport
from irshape.rules import RULES
from irshape.selection import is_missing_weights

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubReporter(Reporter):
    name = "github"

    def annotation(self, d: Diagnostic) -> str:
        properties = {
            "file": visible(self.relative(d.path)),
            "line": str(d.line or 1),
            "col": str(d.column),  # a one-line region, so col may be sent
            "title": f"irshape {d.code} ({RULES[d.code].name})",
        }
        props = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
        message = f"{d.code} [{d.severity.value}] {visible(layer_label(d) + d.message)}"
        return f"::{COMMANDS[d.severity]} {props}::{escape_data(message)}"

    def render_check(self, reports: Sequence[FileReport]) -> str:
        """One annotation a finding; the missing weights of many files are one annotation of
        the run (with -v, one a file), as in the text format."""
        findings = [d for r in reports for d in r.diagnostics]
        collapsed = collapsed_missing_weights(reports, self.options.verbosity)
        lines = [self.annotation(d) for d in findings if not (collapsed and is_missing_weights(d))]
        if collapsed:
            first = collapsed[0]
            title = escape_property(f"irshape {first.code} ({RULES[first.code].name})")
            message = escape_data(missing_weights_line(collapsed).removeprefix("irshape: "))
            lines.append(f"::{COMMANDS[first.severity]} title={title}::{message}")
        return "\n".join(lines)
