"""What the command line shows, beyond check's findings: infer on layers and files OpenVINO
rejects, control characters in line-oriented output, the summary line, the rule documentation,
and what a plain run does not import.
"""

from __future__ import annotations

import ast
import json
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conv_layers import GOOD, conv

from irshape import rules
from irshape.cli import main
from irshape.config import find_config
from irshape.diagnostics import Diagnostic, Severity
from irshape.report import REPORTERS
from irshape.report.ruledoc import example_message, rule_markdown, rule_text
from irshape.report.text import format_diagnostic, visible
from irshape.results import FileReport
from irshape.selection import EXIT_ABNORMAL, EXIT_FINDINGS, EXIT_OK, infer_exit_code

ROOT = Path(__file__).resolve().parent.parent
INVALID = ROOT / "fixtures" / "invalid"


@pytest.fixture(autouse=True)
def workdir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input)


# --- infer: layers and files OpenVINO rejects ------------------------------------------------------


def test_infer_shows_a_rejected_layer_instead_of_its_shape() -> None:
    result = run("infer", "--isolated", str(INVALID / "IRS108_zero_stride.xml"))
    assert result.exit_code == EXIT_FINDINGS
    line, summary = result.stdout.splitlines()
    assert summary.startswith("1 layer(s) of 1 op type(s) inferred")
    assert line.endswith(
        "layer 1 'conv' (Convolution): OpenVINO rejects it: IRS108 attribute strides='0,1' has a "
        "zero; OpenVINO rejects the layer ('Strides has zero dimension(s).')"
    )
    assert "[1,4,6,6]" not in line
    assert result.stderr == ""


def test_infer_json_of_a_rejected_layer() -> None:
    result = run("infer", "--isolated", "--format", "json", str(INVALID / "IRS209_group_mismatch.xml"))
    assert result.exit_code == EXIT_FINDINGS
    (layer,) = json.loads(result.stdout)["files"][0]["layers"]
    assert layer["outputs"] is None
    assert layer["rejected"]["code"] == "IRS209"
    assert layer["rejected"]["message"].startswith("data has 6 channels, which is not GROUPS x C_IN")


def test_infer_keeps_the_shape_when_openvino_only_ignores_declared_dims() -> None:
    # IRS301 is an error of the file, but OpenVINO reads the layer and uses the inferred shape.
    result = run("infer", "--isolated", str(INVALID / "IRS301_declared_dim_mismatch.xml"))
    assert result.exit_code == EXIT_OK
    assert result.stdout.splitlines()[0].endswith("(Convolution): port 3 [1,4,6,6] f32")
    data = json.loads(run("infer", "--isolated", "--format", "json", "-", input=conv(h=9)).stdout)
    (layer,) = data["files"][0]["layers"]
    assert layer["outputs"] == [[1, 8, 8, 8]] and "rejected" not in layer


def test_infer_on_an_unparsable_file_says_so_on_stderr_and_exits_1() -> None:
    path = INVALID / "IRS001_xml_syntax.xml"
    for output_format in ("text", "json"):
        result = run("infer", "--isolated", "--format", output_format, str(path))
        assert result.exit_code == EXIT_FINDINGS
        (line,) = result.stderr.splitlines()
        assert re.match(
            rf"^{re.escape(str(path))}:\d+:\d+: IRS001 \[error\] the file is not well-formed", line
        )
    assert json.loads(result.stdout)["files"][0]["layers"] == []


def test_infer_exit_0_on_a_clean_file() -> None:
    result = run("infer", "-", input=GOOD)
    assert (result.exit_code, result.stderr) == (EXIT_OK, "")


def test_infer_exit_code_function() -> None:
    def report(code: str, severity: Severity = Severity.ERROR) -> FileReport:
        d = Diagnostic("m.xml", 1, code=code, severity=severity, message="...")
        return FileReport("m.xml", [d])

    assert infer_exit_code([]) == EXIT_OK
    assert infer_exit_code([report("IRS301")]) == EXIT_OK  # OpenVINO ignores declared dims
    assert infer_exit_code([report("IRS101", Severity.WARNING)]) == EXIT_OK
    assert infer_exit_code([report("IRS001")]) == EXIT_FINDINGS
    assert infer_exit_code([report("IRS001"), report(rules.INTERNAL_ERROR.code)]) == EXIT_ABNORMAL


# --- control characters in line-oriented output -------------------------------------------------


def test_visible() -> None:
    assert visible("a\nb\r\tc") == "a\\nb\\r\\tc"
    assert visible("\x00\x1b[31m\x7f\x85\u2028") == "\\x00\\x1b[31m\\x7f\\x85\\u2028"
    assert visible("C:\\models\\é.xml") == "C:\\models\\é.xml"  # backslashes and letters stay


def test_a_layer_name_with_a_newline_stays_on_one_line_in_text() -> None:
    xml = conv(name="a&#10;b&#9;c", h=9)
    result = run("check", "--isolated", "-", input=xml)
    assert result.exit_code == EXIT_FINDINGS
    lines = result.stdout.splitlines()
    assert len(lines) == 2  # the finding and the summary
    assert "layer 1 'a\\nb\\tc' (Convolution, opset1): output port 2" in lines[0]
    infer = run("infer", "--isolated", "-q", "-", input=xml).stdout.splitlines()
    assert infer == ["<stdin>:1: layer 1 'a\\nb\\tc' (Convolution): port 2 [1,8,8,8]"]  # a fragment: no types


def test_machine_formats_keep_the_real_text() -> None:
    xml = conv(name="a&#10;b", h=9)
    data = json.loads(run("check", "--isolated", "--format", "json", "-", input=xml).stdout)
    assert data["files"][0]["diagnostics"][0]["layer_name"] == "a\nb"
    sarif = json.loads(run("check", "--isolated", "--format", "sarif", "-", input=xml).stdout)
    assert "'a\nb'" in sarif["runs"][0]["results"][0]["message"]["text"]
    junit = run("check", "--isolated", "--format", "junit", "-", input=xml).stdout
    assert "'a\nb'" in junit


def test_control_characters_in_a_message() -> None:
    d = Diagnostic("x\n.xml", 3, code="IRS001", severity=Severity.ERROR, message="bad \x01 byte\r\nhere")
    line = format_diagnostic(d)
    assert line == "x\\n.xml:3:1: IRS001 [error] bad \\x01 byte\\r\\nhere"
    assert "\x1b" in format_diagnostic(d, color=True)  # colour codes are not escaped away
    github = REPORTERS["github"]().render_check([FileReport("x.xml", [d])])
    assert github.endswith("::IRS001 [error] bad \\x01 byte\\r\\nhere") and "\n" not in github


# --- the summary line -----------------------------------------------------------------------------


def test_summary_counts_inferred_layers_and_other_layers() -> None:
    # conv, relu and deconv are inferred; the Parameter, two Consts and the Result are not ops
    # with a shape function (their outputs are read from the file).
    path = ROOT / "fixtures" / "ir" / "conv_relu_deconv.xml"
    result = run("check", "--isolated", str(path))
    assert result.stdout.splitlines()[-1] == (
        "0 error(s), 0 warning(s), 0 info in 1 file(s); 3 layer(s) validated and inferred, "
        "4 other layer(s) checked for structure"
    )


# --- rule documentation ---------------------------------------------------------------------------

_FIELD = re.compile(r"\{\w+(?:![rsa])?(?::[^{}]*)?\}")
_ANGLED = re.compile(r"<(\w+)>")


@pytest.mark.parametrize("code", list(rules.RULES))
def test_rule_examples_have_no_placeholders(code: str) -> None:
    rule = rules.RULES[code]
    result = run("rule", code)
    assert result.exit_code == 0
    fields = {field for _, field, _, _ in string.Formatter().parse(rule.template) if field}
    for text in (result.stdout, rule_markdown(rule), example_message(rule)):
        assert not _FIELD.search(text), text
        # <dim>, <net>, <data> are IR elements; <declared> would be an unfilled field.
        assert not fields & set(_ANGLED.findall(text)), text
    assert " ".join(example_message(rule).split()) in " ".join(rule_text(rule).split())


# --- start-up: what a plain run does not import -----------------------------------------------------


def _modules_after(program: str) -> set[str]:
    code = f"import sys\n{program}\nprint(sorted(sys.modules))\n"
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True, cwd=ROOT
    )
    return set(ast.literal_eval(proc.stdout.strip().splitlines()[-1]))


def test_the_command_line_imports_what_only_some_commands_need_lazily() -> None:
    loaded = _modules_after("import irshape.cli")
    assert not loaded & {"tempfile", "shutil", "difflib", "tomllib", "irshape.report.ruledoc"}
    check = _modules_after(
        "from irshape.cli import main\n"
        "try:\n"
        f"    main(['check', '--isolated', {str(ROOT / 'fixtures' / 'ir' / 'conv_relu_deconv.xml')!r}])\n"
        "except SystemExit:\n"
        "    pass"
    )
    assert not check & {"difflib", "irshape.report.ruledoc", "irshape.execute"}


def test_a_pyproject_without_irshape_is_passed_over(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'other'\n")
    assert find_config(tmp_path) is None
    (tmp_path / "pyproject.toml").write_text("[project\nname = broken\n")  # not even TOML
    assert find_config(tmp_path) is None
    # A quoted key may spell the name with an escape: that file is still parsed.
    (tmp_path / "pyproject.toml").write_text('[tool."\\u0069rshape"]\nstrict = true\n')
    assert find_config(tmp_path) == str(tmp_path / "pyproject.toml")
