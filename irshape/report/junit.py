"""JUnit XML for CI test dashboards: one testcase per file, passing files included.

A testcase holds at most one ``<failure>`` or ``<error>``, so the counts CI servers read
(``tests``, ``failures``, ``errors`` of the suite) agree with the elements, as the common
consumers (Jenkins, GitLab, Azure Pipelines, junitparser) count them: a file whose findings
fail the run (errors; warnings too with ``--strict``) has one ``<failure>`` whose ``message``
names the first of them and how many there are, and whose text lists them all, one a line; a
file on which irshape itself failed (IRS901) has one ``<error>`` instead. Findings that do not
fail the run are listed in the testcase's ``<system-out>``. Only attributes the JUnit schemas
have are written (Jenkins's rejects a testcase's ``file``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from irshape.diagnostics import Diagnostic
from irshape.report import Reporter
from irshape.report.text import format_diagnostic, layer_label
from irshape.results import FileReport
from irshape.rules import INTERNAL_ERROR
from irshape.selection import fails

# Characters XML 1.0 cannot carry, even escaped.
_XML_SUFFIX = re.compile(r"\.xml$", re.IGNORECASE)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


class JunitReporter(Reporter):
    name = "junit"

    def render_check(self, reports: Sequence[FileReport]) -> str:
        suites = ET.Element("testsuites", name="irshape")
        suite = ET.SubElement(suites, "testsuite", name="irshape")
        counts = {"failure": 0, "error": 0}
        for report in reports:
            tag = self._testcase(suite, report)
            if tag is not None:
                counts[tag] += 1
        for element in (suites, suite):
            element.set("tests", str(len(reports)))
            element.set("failures", str(counts["failure"]))
            element.set("errors", str(counts["error"]))
        suite.set("skipped", "0")
        ET.indent(suites)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode")

    def _testcase(self, suite: ET.Element, report: FileReport) -> str | None:
        """The testcase of one file; the tag of its one failure or error, if it has one."""
        relative = self.relative(report.path)
        case = ET.SubElement(
            suite,
            "testcase",
            name=_clean(relative),
            classname=_clean(_XML_SUFFIX.sub("", relative).replace("/", ".")),
        )
        failing: list[Diagnostic] = []
        passing: list[Diagnostic] = []  # (one pass: not a search of the failing for each finding)
        for d in report.diagnostics:
            failed = d.code == INTERNAL_ERROR.code or fails(d, strict=self.options.strict)
            (failing if failed else passing).append(d)
        tag = None
        if failing:
            tag = "error" if any(d.code == INTERNAL_ERROR.code for d in failing) else "failure"
            first = failing[0]
            more = f" (and {len(failing) - 1} more)" if len(failing) > 1 else ""
            element = ET.SubElement(
                case,
                tag,
                message=_clean(
                    f"line {first.line or 1}: {first.code} {layer_label(first)}{first.message}{more}"
                ),
                type=first.code,
            )
            element.text = "\n".join(_clean(format_diagnostic(d, raw=True)) for d in failing)
        if passing:
            ET.SubElement(case, "system-out").text = "\n".join(
                _clean(format_diagnostic(d, raw=True)) for d in passing
            )
        return tag
