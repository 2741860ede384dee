"""Every output format, produced end to end by ``irshape check`` and parsed back.

SARIF is checked for the fields GitHub code scanning requires, GitHub annotations for the
escaping rules of actions/toolkit, JUnit XML by parsing it with lxml.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conv_layers import GOOD, WARN, conv
from lxml import etree

from irshape import rules
from irshape.cli import main
from irshape.report import REPORTERS, ReportOptions
from irshape.report.github import escape_data, escape_property
from irshape.results import FileReport

BAD = conv(h=9, w=7)  # two IRS301 errors, line 8


@pytest.fixture(autouse=True)
def workdir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    models = tmp_path / "models"
    models.mkdir()
    (models / "good.xml").write_text(GOOD)
    (models / "bad.xml").write_text(BAD)
    (models / "warn.xml").write_text(WARN)
    return tmp_path


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args])
    return result.exit_code, result.stdout


# --- text and JSON ------------------------------------------------------------------------------


def test_text_lines() -> None:
    code, out = check("models")
    assert code == 1
    lines = out.splitlines()
    assert all(
        re.match(r"^models/\w+\.xml:\d+:\d+: IRS\d{3} \[(error|warning|info)\] ", x) for x in lines[:-1]
    )
    assert [x.split(":")[0] for x in lines[:-1]] == ["models/bad.xml", "models/bad.xml", "models/warn.xml"]
    assert lines[-1].startswith("2 error(s), 1 warning(s), 0 info in 3 file(s)")


def test_json_with_statistics() -> None:
    code, out = check("--format", "json", "--statistics", "models")
    data = json.loads(out)
    assert code == 1
    assert [f["path"] for f in data["files"]] == ["models/bad.xml", "models/good.xml", "models/warn.xml"]
    assert data["summary"]["errors"] == 2 and data["summary"]["warnings"] == 1
    assert data["statistics"] == {"IRS101": 1, "IRS301": 2}
    assert "statistics" not in json.loads(check("--format", "json", "models")[1])


# --- SARIF --------------------------------------------------------------------------------------


def sarif(*args: str) -> dict[str, Any]:
    code, out = check("--format", "sarif", *args)
    assert code in (0, 1)
    log: dict[str, Any] = json.loads(out)
    return log


def test_sarif_has_what_github_code_scanning_requires() -> None:
    log = sarif("models")
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "irshape" and driver["version"]
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == list(rules.RULES)  # a rule entry for every code, in registry order
    for rule in driver["rules"]:
        for key in ("shortDescription", "fullDescription", "help"):
            assert rule[key]["text"].strip(), (rule["id"], key)
        assert rule["help"]["markdown"].strip()
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["IRS301", "IRS301", "IRS101"]
    for result in results:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] == {"IRS301": "error", "IRS101": "warning"}[result["ruleId"]]
        assert result["message"]["text"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        uri = physical["artifactLocation"]["uri"]
        assert uri in ("models/bad.xml", "models/warn.xml")  # relative to the repository root
        assert physical["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert physical["region"]["startLine"] >= 1 and physical["region"]["startColumn"] >= 1
        assert location["logicalLocations"][0]["name"] == "conv"
        assert result["partialFingerprints"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file:///")
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/")
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 8


def test_sarif_uris_are_relative_and_percent_encoded(workdir: Path) -> None:
    (workdir / "my models").mkdir()
    (workdir / "my models" / "net #1.xml").write_text(BAD)
    log = sarif(str(workdir / "my models"))  # an absolute path below the current directory
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]
    }
    assert uris == {"my%20models/net%20%231.xml"}


def test_sarif_fingerprints_survive_moved_lines(workdir: Path) -> None:
    before = sarif("models/bad.xml")["runs"][0]["results"]
    (workdir / "models" / "bad.xml").write_text("\n\n\n" + BAD)
    after = sarif("models/bad.xml")["runs"][0]["results"]
    assert [r["partialFingerprints"] for r in before] == [r["partialFingerprints"] for r in after]
    assert len({json.dumps(r["partialFingerprints"]) for r in before}) == 2  # one per finding
    assert after[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 11


def test_sarif_of_no_findings_is_valid() -> None:
    log = sarif("models/good.xml")
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True}]


# --- GitHub annotations -------------------------------------------------------------------------


def test_github_annotations() -> None:
    code, out = check("--format", "github", "models")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(
        "::error file=models/bad.xml,line=8,col=51,title=irshape IRS301 (declared-dim-mismatch)::IRS301 [error] "
    )
    assert lines[2].startswith("::warning file=models/warn.xml,line=2,col=5,title=irshape IRS101 ")


def test_github_escaping(workdir: Path) -> None:
    # A layer name with a line break (an XML character reference), a percent sign and a comma,
    # in a file whose name holds a comma and a colon.
    name = "a%b&#10;c,d: e"
    (workdir / "odd, name:1.xml").write_text(conv(name=name, h=9))
    out = check("--format", "github", "odd, name:1.xml")[1]
    (line,) = out.splitlines()
    assert line.startswith("::error file=odd%2C name%3A1.xml,line=8,col=51,title=irshape IRS301 ")
    _properties, message = line[len("::error ") :].split("::", 1)
    # The line break is shown as backslash-n, as in the text format; then the data escaping:
    # % escaped, ':' and ',' kept.
    assert "'a%25b\\nc,d: e'" in message
    assert "\n" not in message and "\r" not in message
    assert escape_data("50%\r\n") == "50%25%0D%0A"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_github_info_is_a_notice() -> None:
    report = FileReport(
        "x.xml", [rules.PADS_IGNORED(rules_location(), begin="1", end="1", auto_pad="valid", how="")]
    )
    assert REPORTERS["github"]().render_check([report]).startswith("::notice file=x.xml,line=3,")


def rules_location() -> Any:
    from irshape.diagnostics import Location

    return Location("x.xml", line=3, layer_id="1")


# --- JUnit --------------------------------------------------------------------------------------


def junit(*args: str) -> tuple[int, etree._Element]:
    code, out = check("--format", "junit", *args)
    return code, etree.fromstring(out.encode("utf-8"))


def test_junit_one_testcase_per_file_one_failure_per_failing_file() -> None:
    code, root = junit("models")
    assert code == 1
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["models/bad.xml", "models/good.xml", "models/warn.xml"]
    assert [c.get("classname") for c in cases] == ["models.bad", "models.good", "models.warn"]
    assert suite.get("tests") == root.get("tests") == "3"
    assert suite.get("failures") == "1" and suite.get("errors") == "0"
    bad, good, warn = cases
    (failure,) = bad.findall("failure")  # one element a failing testcase: the counts agree
    assert failure.get("type") == "IRS301"
    assert failure.get("message").startswith("line 8: IRS301 layer 1 'conv'")
    assert failure.get("message").endswith("(and 1 more)")
    lines = failure.text.splitlines()
    assert len(lines) == 2 and all(": IRS301 [error]" in line for line in lines)
    assert lines[0].startswith("models/bad.xml:8:")
    assert "file" not in bad.attrib
    assert len(good) == 0  # a passing testcase
    assert warn.find("failure") is None  # a warning does not fail the run...
    assert "IRS101" in warn.findtext("system-out")


def test_junit_strict_makes_warnings_failures() -> None:
    code, root = junit("--strict", "models/warn.xml")
    assert code == 1
    (case,) = root.iter("testcase")
    assert [f.get("type") for f in case.findall("failure")] == ["IRS101"]
    assert root.get("failures") == "1"


def test_junit_internal_error_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom \x01")

    monkeypatch.setattr("irshape.api.check_document", broken)
    code, root = junit("-j", "1", "models/good.xml")
    assert code == 2
    (error,) = root.iter("error")
    assert error.get("type") == "IRS901"
    assert root.get("errors") == "1"


# --- every format ---------------------------------------------------------------------------------


@pytest.mark.parametrize("output_format", sorted(REPORTERS))
def test_every_format_renders_no_files_and_parses(output_format: str, workdir: Path) -> None:
    (workdir / "empty").mkdir()
    code, out = check("--format", output_format, "empty")
    assert code == 0
    if output_format in ("json", "sarif"):
        json.loads(out)
    elif output_format == "junit":
        assert etree.fromstring(out.encode()).get("tests") == "0"


@pytest.mark.parametrize("output_format", sorted(REPORTERS))
def test_every_reporter_is_a_class_over_the_same_results(output_format: str) -> None:
    reporter = REPORTERS[output_format](ReportOptions())
    assert reporter.name == output_format
    report = FileReport(
        "x.xml", [rules.ATTRIBUTE_MISSING(rules_location(), attribute="strides", assumed="1")]
    )
    assert "IRS101" in reporter.render_check([report])


@pytest.mark.parametrize("output_format", ["sarif", "github", "junit"])
def test_machine_formats_send_statistics_to_stderr(output_format: str) -> None:
    result = CliRunner().invoke(main, ["check", "--format", output_format, "--statistics", "models"])
    assert re.search(r"^2 +IRS301", result.stderr, re.M)
    assert "IRS301 [error] declared-dim-mismatch" not in result.stdout
