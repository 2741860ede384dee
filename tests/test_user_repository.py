"""What a new user meets in a real repository (issue 16), each through the real command.

Every test runs ``python -m irshape`` in a subprocess, in a directory of its own, as a user's
shell or CI would: selection from configuration and command line, other XML in the
repository, missing weights, JUnit read by a real JUnit parser, quiet modes, columns and
source lines, baselines.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import junitparser
import pytest
from conv_layers import BAD, GOOD, WARN, conv

from irshape.rules import RULES

ROOT = Path(__file__).resolve().parents[1]
NET = ROOT / "fixtures" / "ir" / "conv_relu_deconv.xml"  # a <net> with Consts, and its .bin
BAD_DIM_COLUMN = 51  # BAD's line 8: '        <port id="2"><dim>1</dim><dim>8</dim><dim>9</dim>...'


def irshape(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR")}
    return subprocess.run(
        [sys.executable, "-m", "irshape", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def codes(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The codes of the findings printed one a line (not the run's own "irshape: ..." lines)."""
    lines = result.stdout.splitlines()
    return [
        line.split(": ", 1)[1].split()[0]
        for line in lines
        if ": IRS" in line and not line.startswith("irshape:")
    ]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "bad.xml").write_text(BAD, encoding="utf-8")
    (tmp_path / "models" / "warn.xml").write_text(WARN, encoding="utf-8")
    return tmp_path


# --- 1. the command line on top of the configuration ----------------------------------------------


def test_command_line_select_beats_a_configured_ignore(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.irshape]\nignore = ["IRS301"]\n')
    assert codes(irshape("check", ".", cwd=repo)) == ["IRS101"]
    selected = irshape("check", "--select", "IRS301", ".", cwd=repo)
    assert selected.returncode == 1
    assert codes(selected) == ["IRS301"]


def test_extend_select_and_extend_ignore_from_both_places(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.irshape]\nselect = ["IRS1"]\nextend-select = ["IRS3"]\n')
    assert sorted(codes(irshape("check", ".", cwd=repo))) == ["IRS101", "IRS301"]
    assert codes(irshape("check", "--extend-ignore", "IRS1", ".", cwd=repo)) == ["IRS301"]
    (repo / "pyproject.toml").write_text('[tool.irshape]\nextend-ignore = ["IRS301"]\n')
    assert codes(irshape("check", ".", cwd=repo)) == ["IRS101"]
    assert sorted(codes(irshape("check", "--extend-select", "IRS301", ".", cwd=repo))) == ["IRS101", "IRS301"]


def test_the_more_specific_selector_wins_within_each_layer(repo: Path) -> None:
    assert codes(irshape("check", "--select", "IRS3", "--ignore", "IRS301", ".", cwd=repo)) == []
    assert codes(irshape("check", "--ignore", "IRS3", "--select", "IRS301", ".", cwd=repo)) == ["IRS301"]
    (repo / "pyproject.toml").write_text('[tool.irshape]\nselect = ["IRS3"]\nignore = ["IRS301"]\n')
    assert codes(irshape("check", ".", cwd=repo)) == []
    assert codes(irshape("check", "--extend-select", "IRS301", ".", cwd=repo)) == ["IRS301"]


def test_show_settings_prints_where_each_setting_came_from(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.irshape]\nignore = ["IRS301"]\nexclude = ["legacy"]\n')
    shown = irshape("check", "--show-settings", "--select", "IRS3", "-j", "3", cwd=repo)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert f"configuration file: {repo.resolve() / 'pyproject.toml'}" in lines
    assert "  configuration: ignore = [IRS301]" in lines
    assert "  command line: select = [IRS3]" in lines
    irs3 = sum(1 for code in RULES if code.startswith("IRS3"))
    assert any(line.startswith(f"  reported: {irs3} of ") and "IRS301" in line for line in lines), lines
    assert "format: text" in lines and "jobs: 3" in lines
    assert f"exclude: legacy (relative to {repo.resolve()})" in lines
    assert irshape("check", "--isolated", "--show-settings", cwd=repo).stdout.startswith(
        "configuration file: none"
    )


# --- 2. the repository's other XML ------------------------------------------------------------------

POM = '<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion></project>\n'
SVG = (
    '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
    '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg"/>\n'
)
IDEA = '<?xml version="1.0" encoding="UTF-8"?>\n<project version="4">\n  <component name="X">\n</project>\n'  # broken
VOC = "<annotation><folder>VOC2007</folder><object><name>dog</name></object></annotation>\n"
OTHER_XML = {"pom.xml": POM, "icon.svg.xml": SVG, ".idea/workspace.xml": IDEA, "Annotations/0001.xml": VOC}


def other_xml(root: Path) -> None:
    for name, text in OTHER_XML.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_other_xml_is_skipped_found_by_a_walk_or_named(tmp_path: Path) -> None:
    other_xml(tmp_path)
    shutil.copy(NET, tmp_path / "net.xml")
    shutil.copy(NET.with_suffix(".bin"), tmp_path / "net.bin")
    walked = irshape("check", ".", cwd=tmp_path)
    assert walked.returncode == 0, walked.stdout + walked.stderr
    assert "in 1 file(s)" in walked.stdout
    named = irshape("check", "-v", *OTHER_XML, "net.xml", cwd=tmp_path)
    assert named.returncode == 0, named.stdout + named.stderr
    for name in OTHER_XML:
        assert f"irshape: skipped {name}: not an OpenVINO IR" in named.stderr
    assert "root element <project>" in named.stderr


def test_a_broken_file_that_looks_like_an_ir_still_fails(tmp_path: Path) -> None:
    truncated = NET.read_text(encoding="utf-8")[:400]
    (tmp_path / "broken.xml").write_text(truncated, encoding="utf-8")
    (tmp_path / "empty.xml").write_text("", encoding="utf-8")
    result = irshape("check", ".", cwd=tmp_path)
    assert result.returncode == 1
    assert codes(result) == ["IRS001", "IRS001"]


# --- 3. missing weights, said once ------------------------------------------------------------------


def nets_without_weights(root: Path, count: int) -> None:
    for index in range(count):
        shutil.copy(NET, root / f"net{index}.xml")


def test_missing_weights_said_once_with_the_count(tmp_path: Path) -> None:
    nets_without_weights(tmp_path, 4)
    (tmp_path / "bad.xml").write_text(BAD, encoding="utf-8")
    result = irshape("check", ".", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.count("IRS009") == 1
    assert "4 file(s) checked without their weights" in result.stdout
    assert codes(result) == ["IRS301"]  # the one real error is not drowned
    verbose = irshape("check", "-v", ".", cwd=tmp_path)
    assert verbose.stdout.count("IRS009") == 4


def test_missing_weights_fail_the_run_when_asked(tmp_path: Path) -> None:
    nets_without_weights(tmp_path, 2)
    assert irshape("check", ".", cwd=tmp_path).returncode == 0
    flagged = irshape("check", "--missing-weights", "error", ".", cwd=tmp_path)
    assert flagged.returncode == 1
    assert "IRS009 [error] 2 file(s)" in flagged.stdout
    (tmp_path / "pyproject.toml").write_text('[tool.irshape]\nmissing-weights = "error"\n')
    assert irshape("check", "--format", "json", ".", cwd=tmp_path).returncode == 1


def test_a_git_lfs_pointer_is_named_as_such(tmp_path: Path) -> None:
    shutil.copy(NET, tmp_path / "net.xml")
    pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:" + "0" * 64 + "\nsize 432\n"
    (tmp_path / "net.bin").write_text(pointer, encoding="utf-8")
    result = irshape("check", "net.xml", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert codes(result) == ["IRS009"]
    assert "net.bin is a Git LFS pointer, not the weights" in result.stdout
    assert "IRS420" not in result.stdout  # no Const "beyond the end" of a 130-byte file


# --- 4. JUnit as CI servers count it ------------------------------------------------------------------


def test_junit_counts_match_the_elements_for_a_real_parser(repo: Path) -> None:
    (repo / "models" / "two.xml").write_text(conv(h=9, w=7), encoding="utf-8")  # two failing findings
    (repo / "models" / "good.xml").write_text(GOOD, encoding="utf-8")
    result = irshape("check", "--format", "junit", "-o", "report.xml", "models", cwd=repo)
    assert result.returncode == 1
    xml = junitparser.JUnitXml.fromfile(str(repo / "report.xml"))
    (suite,) = list(xml)
    cases = {case.name: case for case in suite}
    assert sorted(cases) == ["models/bad.xml", "models/good.xml", "models/two.xml", "models/warn.xml"]
    failed = [name for name, case in cases.items() if not case.is_passed]
    assert sorted(failed) == ["models/bad.xml", "models/two.xml"]
    assert (suite.tests, suite.failures, suite.errors) == (4, len(failed), 0)
    elements = [result for case in suite for result in case.result if isinstance(result, junitparser.Failure)]
    assert len(elements) == suite.failures  # one <failure> a failing testcase
    two = cases["models/two.xml"].result[0]
    assert two.type == "IRS301" and "(and 1 more)" in two.message
    assert two.text.count("IRS301 [error]") == 2
    assert "file" not in cases["models/bad.xml"]._elem.attrib  # Jenkins's schema has no such attribute


# --- 5. quiet modes --------------------------------------------------------------------------------


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github", "junit"])
def test_qq_prints_nothing_in_every_format(repo: Path, output_format: str) -> None:
    result = irshape("check", "-qq", "--statistics", "--format", output_format, "models", cwd=repo)
    assert result.returncode == 1
    assert (result.stdout, result.stderr) == ("", "")


def test_q_with_statistics_still_prints_them(repo: Path) -> None:
    result = irshape("check", "-q", "--statistics", "models", cwd=repo)
    lines = result.stdout.splitlines()
    assert any(line.startswith("1     IRS301 [error]") for line in lines), lines
    assert not any("error(s)" in line for line in lines)  # still no summary line


# --- 6. the library contract -------------------------------------------------------------------------


LIBRARY = """
import json, sys
from pathlib import Path
import numpy as np
import irshape
from irshape.files import check_files

out = {}
reports = check_files(["models/bad.xml", Path("models/warn.xml")], jobs=2)
out["check_files"] = [[d.code for d in r.diagnostics] for r in reports]
out["check_file"] = [d.code for d in irshape.check_file(Path("models/bad.xml")).diagnostics]
attributes = {"strides": np.array([2, 2]), "dilations": (np.int64(1), 1), "pads_begin": [0, 0],
              "pads_end": np.array([0, 0], dtype=np.int32), "auto_pad": "explicit"}
shape = irshape.infer_layer("Convolution", attributes, [np.array([1, 3, 9, 9]), (np.int64(8), 3, 3, 3)])
out["numpy"] = str(shape)
value = irshape.infer_layer("ConvolutionBackpropData", {"strides": [1, 1]}, ["1,3,4,4", "3,2,3,3"],
                            output_shape_value=np.array([7, 9]))
out["output_shape_value"] = str(value)
errors = []
for call in (lambda: irshape.infer_layer("Convolution", 5, []),
             lambda: irshape.check_string(5),
             lambda: irshape.check_layer("Convolution", {"strides": 1.5}, ["1,3,8,8", "4,3,3,3"]),
             lambda: irshape.check_layer("Convolution", {}, "1,3,8,8"),
             lambda: irshape.check_file(5)):
    try:
        call()
        errors.append(None)
    except TypeError:
        errors.append("TypeError")
out["errors"] = errors
print(json.dumps(out))
"""


def test_library_takes_paths_numpy_and_refuses_wrong_types(repo: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", LIBRARY], cwd=repo, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["check_files"] == [["IRS301"], ["IRS101"]]
    assert out["check_file"] == ["IRS301"]
    assert out["numpy"] == "[1,8,4,4]"  # floor((9 - 3) / 2) + 1 = 4
    assert out["output_shape_value"] == "[1,2,7,9]"
    assert out["errors"] == ["TypeError"] * 5


def test_the_library_never_imports_numpy_for_these(repo: Path) -> None:
    code = (
        "import sys, irshape\n"
        "irshape.infer_layer('Convolution', {'strides': (1, 1)}, ['1,3,8,8', [4, 3, 3, 3]])\n"
        "print('numpy' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "False"


# --- 7. columns and source lines ------------------------------------------------------------------


def test_findings_point_at_the_exact_column(repo: Path) -> None:
    result = irshape("check", "models/bad.xml", "models/warn.xml", cwd=repo)
    assert f"models/bad.xml:8:{BAD_DIM_COLUMN}: IRS301" in result.stdout
    # IRS101 (strides missing) is about the <data> element: its '<' on line 2
    assert "models/warn.xml:2:5: IRS101" in result.stdout
    (repo / "zero.xml").write_text(GOOD.replace('strides="1,1"', 'strides="0,1"'), encoding="utf-8")
    line = GOOD.splitlines()[1]
    zero = irshape("check", "--format", "json", "zero.xml", cwd=repo)
    (finding,) = json.loads(zero.stdout)["files"][0]["diagnostics"]
    assert finding["code"] == "IRS108" and finding["column"] == line.index("strides") + 1


def test_show_source_puts_a_caret_under_the_column(repo: Path) -> None:
    result = irshape("check", "--show-source", "models/bad.xml", cwd=repo)
    lines = result.stdout.splitlines()
    index = next(i for i, line in enumerate(lines) if ": IRS301" in line)
    source, caret = lines[index + 2], lines[index + 3]
    assert source == "8 | " + BAD.splitlines()[7]
    assert caret.index("^") == len("8 | ") + BAD_DIM_COLUMN - 1
    assert source[caret.index("^")] == "9"
    plain = irshape("check", "--no-show-source", "models/bad.xml", cwd=repo)
    assert " | " not in plain.stdout
    (repo / "pyproject.toml").write_text("[tool.irshape]\nshow-source = true\n")
    assert "8 | " in irshape("check", "models/bad.xml", cwd=repo).stdout
    assert "8 | " not in irshape("check", "--no-show-source", "models/bad.xml", cwd=repo).stdout


# --- 8. baselines ---------------------------------------------------------------------------------


def test_a_baseline_reports_only_new_findings_and_counts_stale_ones(repo: Path) -> None:
    written = irshape("check", "--write-baseline", "irshape-baseline.json", "models", cwd=repo)
    assert written.returncode == 0, written.stderr
    assert "wrote 2 finding(s) of 2 file(s)" in written.stderr
    clean = irshape("check", "--baseline", "irshape-baseline.json", "models", cwd=repo)
    assert clean.returncode == 0, clean.stdout
    assert "2 finding(s) in the baseline, 0 stale baseline entries" in clean.stdout
    # The converter exports again: lines move (a comment on top), one finding is new.
    moved = "<!-- exported again -->\n\n" + conv(h=9, w=7)
    (repo / "models" / "bad.xml").write_text(moved, encoding="utf-8")
    again = irshape("check", "--baseline", "irshape-baseline.json", "models", cwd=repo)
    assert again.returncode == 1
    assert codes(again) == ["IRS301"] and "axis 3" in again.stdout  # only the new one (w=7)
    # A fixed finding leaves its entry stale.
    (repo / "models" / "warn.xml").write_text(GOOD, encoding="utf-8")
    (repo / "pyproject.toml").write_text('[tool.irshape]\nbaseline = "irshape-baseline.json"\n')
    stale = irshape("check", "models", cwd=repo)
    assert "1 finding(s) in the baseline, 1 stale baseline entry" in stale.stdout
    summary = json.loads(irshape("check", "--format", "json", "models", cwd=repo).stdout)["summary"]
    assert summary["baseline"] == {"matched": 1, "stale": 1}


def test_a_baseline_that_is_not_one_is_a_configuration_error(repo: Path) -> None:
    (repo / "broken.json").write_text("{not json", encoding="utf-8")
    result = irshape("check", "--baseline", "broken.json", "models", cwd=repo)
    assert result.returncode == 2
    assert "broken.json: not a baseline written by irshape" in result.stderr


# --- 9. documentation ------------------------------------------------------------------------------


def test_the_readme_is_a_first_read_and_links_to_every_reference_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    pages = sorted(
        path.name for path in (ROOT / "docs").glob("*.md") if path.name != "openvino-ir-reading.md"
    )
    for page in pages:
        assert f"(docs/{page})" in readme, page
    for source in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", source.read_text(encoding="utf-8")):
            assert (source.parent / target).exists(), f"{source.name}: {target}"


def test_every_new_option_is_documented() -> None:
    cli = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for option in (
        "--extend-select",
        "--extend-ignore",
        "--show-settings",
        "--missing-weights",
        "--baseline",
        "--write-baseline",
        "--show-source",
    ):
        assert f"`{option}" in cli, option
    configuration = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for key in ("extend-select", "extend-ignore", "missing-weights", "baseline", "show-source"):
        assert f"\n{key} = " in configuration, key
