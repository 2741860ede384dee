"""JUnit XML for CI test dashboards: one testcase per file, passing files included.

A finding that fails the run (an error; a warning too with ``--strict``) is a ``<failure>``
of its file's testcase, one per finding; IRS901 (irshape itself failed) is an ``<error>``;
findings that do not fail the run are listed in the testcase's ``<system-out>``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from irshape.report.base import Reporter
from irshape.report.text import format_diagnostic, layer_label
from irshape.results import FileReport
from irshape.rules import INTERNAL_ERROR
from irshape.selection import fails

# Characters XML 1.0 cannot carry, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


class JunitReporter(Reporter):
    name = "junit"

    def render_check(self, reports: Sequence[FileReport]) -> str:
        suites = ET.Element("testsuites", name="irshape")
        suite = ET.SubElement(suites, "testsuite", name="irshape")
        failures = errors = 0
        for report in reports:
            relative = self.relative(report.path)
            case = ET.SubElement(
                suite,
                "testcase",
                name=_clean(relative),
                classname=_clean(re.sub(r"\.xml$", "", relative, flags=re.IGNORECASE).replace("/", ".")),
                file=_clean(relative),
            )
            passed_on: list[str] = []
            failed = crashed = False
            for d in report.diagnostics:
                text = _clean(format_diagnostic(d, raw=True))
                if d.code == INTERNAL_ERROR.code:
                    tag, crashed = "error", True
                elif fails(d, strict=self.options.strict):
                    tag, failed = "failure", True
                else:
                    passed_on.append(text)
                    continue
                element = ET.SubElement(
                    case,
                    tag,
                    message=_clean(f"line {d.line or 1}: {d.code} {layer_label(d)}{d.message}"),
                    type=d.code,
                )
                element.text = text
            if passed_on:
                ET.SubElement(case, "system-out").text = "\n".join(passed_on)
            failures += failed
            errors += crashed
        for element in (suites, suite):
            element.set("tests", str(len(reports)))
            element.set("failures", str(failures))
            element.set("errors", str(errors))
        suite.set("skipped", "0")
        ET.indent(suites)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode")
