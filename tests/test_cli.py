"""The ``irshape`` command end to end: exit codes, selection, verbosity, colour, inputs, -j.

Most tests go through click's CliRunner; those marked "subprocess" run the real command.
Every test runs in its own empty directory with the CI and colour variables removed, so that
neither the repository's pyproject.toml nor the environment changes what irshape does.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conv_layers import BAD, GOOD, WARN

import irshape
import irshape.files
from irshape import rules
from irshape.cli import main
from irshape.paths import Glob, collect_files, glob_matches, relative_posix, spelled
from irshape.report.text import use_color
from irshape.selection import Selection, exit_code, parse_selectors

ROOT = Path(__file__).resolve().parents[1]
GOOD_NET = ROOT / "fixtures" / "ir" / "conv_relu_deconv.xml"

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def write(path: Path | str, text: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str, input: str | bytes | None = None, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, env=env)


# --- exit codes -------------------------------------------------------------------------------


def test_clean_file_exits_0_with_a_summary() -> None:
    write("good.xml", GOOD)
    result = run("check", "good.xml")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "0 error(s), 0 warning(s), 0 info in 1 file(s); 1 layer(s) validated and inferred, "
        "0 other layer(s) checked for structure"
    ]


def test_error_exits_1_and_is_printed_path_line_col_code() -> None:
    write("bad.xml", BAD)
    result = run("check", "bad.xml")
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    assert first.startswith("bad.xml:8:51: IRS301 [error] layer 1 'conv' (Convolution, opset1): ")


def test_warnings_pass_unless_strict() -> None:
    write("warn.xml", WARN)
    assert run("check", "warn.xml").exit_code == 0
    assert run("check", "--strict", "warn.xml").exit_code == 1
    assert run("check", "--strict", "--exit-zero", "warn.xml").exit_code == 0


def test_exit_zero() -> None:
    write("bad.xml", BAD)
    result = run("check", "--exit-zero", "bad.xml")
    assert result.exit_code == 0
    assert "IRS301" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["check", "missing.xml"],
        ["check", "--select", "XYZ", "good.xml"],
        ["check", "--ignore", "IRS9999", "good.xml"],
        ["check", "--format", "yaml", "good.xml"],
        ["check", "-", "good.xml"],
        ["check", "--config", "pyproject.toml", "--isolated", "good.xml"],
        ["check"],
        ["rule", "IRS000"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    write("good.xml", GOOD)
    write("pyproject.toml", "[tool.irshape]\n")
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "Error" in result.stderr


def test_internal_error_exits_2_even_with_exit_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("irshape.api.check_document", broken)
    write("good.xml", GOOD)
    for extra in ([], ["--exit-zero"], ["--ignore", "IRS9"]):
        result = run("check", "-j", "1", *extra, "good.xml")
        assert result.exit_code == 2, extra
        assert "IRS901" in result.stdout and "RuntimeError: boom" in result.stdout


# --- selection --------------------------------------------------------------------------------


def test_select_and_ignore_by_prefix() -> None:
    write("bad.xml", BAD)
    write("warn.xml", WARN)
    both = ["bad.xml", "warn.xml"]

    def codes(*args: str) -> list[str]:
        return re.findall(r": (IRS\d{3}) \[", run("check", *args, *both).stdout)

    assert codes() == ["IRS301", "IRS101"]
    assert codes("--select", "IRS3") == ["IRS301"]
    assert codes("--select", "irs1,IRS3") == ["IRS301", "IRS101"]
    assert codes("--select", "IRS1", "--select", "IRS3") == ["IRS301", "IRS101"]
    assert codes("--ignore", "IRS301") == ["IRS101"]
    assert codes("--select", "ALL", "--ignore", "IRS") == []
    # The more specific selector wins, whichever list it is in.
    assert codes("--select", "IRS1", "--ignore", "IRS101") == []
    assert codes("--ignore", "IRS1", "--select", "IRS101") == ["IRS101"]
    assert run("check", "--ignore", "IRS3", "bad.xml").exit_code == 0


def test_selection_library_function() -> None:
    report = irshape.check_string(BAD + WARN.replace('id="1"', 'id="2"'), path="x.xml")
    assert [d.code for d in report.diagnostics] == ["IRS301", "IRS101"]
    assert [d.code for d in Selection(ignore=("IRS3",)).apply(report).diagnostics] == ["IRS101"]
    per_file = Selection(per_file_ignores=((Glob("*.xml", Path.cwd()), ("IRS1",)),))
    assert [d.code for d in per_file.apply(report).diagnostics] == ["IRS301"]
    assert per_file.apply(report, path="x.txt") is report
    assert exit_code([report]) == 1
    assert exit_code([Selection(select=("IRS1",)).apply(report)]) == 0
    assert exit_code([Selection(select=("IRS1",)).apply(report)], strict=True) == 1
    assert parse_selectors(["irs3, IRS101", "ALL"]) == ("IRS3", "IRS101", "ALL")


def test_statistics_counts_each_code() -> None:
    write("bad.xml", BAD)
    write("bad2.xml", BAD)
    write("warn.xml", WARN)
    lines = run("check", "--statistics", "bad.xml", "bad2.xml", "warn.xml").stdout.splitlines()
    assert lines[3].split()[:2] == ["1", "IRS101"]
    assert lines[4].split()[:2] == ["2", "IRS301"]
    assert lines[5].startswith("2 error(s), 1 warning(s)")


# --- verbosity and colour -------------------------------------------------------------------


def test_quiet_and_verbose() -> None:
    write("bad.xml", BAD)
    write("good.xml", GOOD)
    quiet = run("check", "-q", "bad.xml", "good.xml")
    assert quiet.exit_code == 1
    assert len(quiet.stdout.splitlines()) == 1 and "IRS301" in quiet.stdout
    silent = run("check", "-qq", "bad.xml", "good.xml")
    assert silent.exit_code == 1 and silent.stdout == ""
    verbose = run("check", "-v", "bad.xml", "good.xml")
    assert "good.xml: ok (1 layer(s) inferred)" in verbose.stdout


def test_colour_only_when_asked_or_on_a_terminal() -> None:
    write("bad.xml", BAD)
    assert not ANSI.search(run("check", "bad.xml").stdout)  # CliRunner's stdout is no TTY
    assert not ANSI.search(run("check", "--color", "never", "bad.xml").stdout)
    coloured = run("check", "--color", "always", "bad.xml").stdout
    assert ANSI.search(coloured)
    assert ANSI.sub("", coloured) == run("check", "bad.xml").stdout
    assert ANSI.search(run("check", "bad.xml", env={"FORCE_COLOR": "1"}).stdout)
    assert not ANSI.search(run("check", "bad.xml", env={"NO_COLOR": "1", "FORCE_COLOR": "1"}).stdout)
    # An explicit --color always beats NO_COLOR (no-color.org: command-line flags win).
    assert ANSI.search(run("check", "--color", "always", "bad.xml", env={"NO_COLOR": "1"}).stdout)
    assert not ANSI.search(run("check", "--format", "json", "--color", "always", "bad.xml").stdout)


def test_use_color_rules() -> None:
    assert use_color("auto", isatty=True, environ={})
    assert not use_color("auto", isatty=False, environ={})
    assert not use_color("auto", isatty=True, environ={"NO_COLOR": "1"})
    assert use_color("auto", isatty=True, environ={"NO_COLOR": ""})  # empty: not set
    assert use_color("auto", isatty=False, environ={"FORCE_COLOR": "1"})
    assert use_color("always", isatty=False, environ={"NO_COLOR": "1"})
    assert not use_color("never", isatty=True, environ={"FORCE_COLOR": "1"})


# --- inputs -----------------------------------------------------------------------------------


def test_stdin_with_and_without_a_filename() -> None:
    result = run("check", "-", input=BAD)
    assert result.exit_code == 1
    assert result.stdout.startswith("<stdin>:8:51: IRS301")
    named = run("check", "-", "--stdin-filename", "models/net.xml", input=BAD.encode())
    assert named.stdout.startswith("models/net.xml:8:51: IRS301")
    assert run("check", "-", input=GOOD).exit_code == 0


def test_stdin_filename_is_matched_by_per_file_ignores() -> None:
    write("pyproject.toml", '[tool.irshape.per-file-ignores]\n"legacy/*.xml" = ["IRS3"]\n')
    assert run("check", "-", "--stdin-filename", "legacy/a.xml", input=BAD).exit_code == 0
    assert run("check", "-", "--stdin-filename", "new/a.xml", input=BAD).exit_code == 1


def test_directories_are_walked_recursively_in_sorted_order() -> None:
    write("models/b.xml", BAD)
    write("models/a/z.xml", BAD)
    write("models/a/y.XML", BAD)
    write("models/c.txt", BAD)
    write("models/.venv/lib/site.xml", BAD)  # virtual environments are never walked
    write("models/node_modules/x.xml", BAD)
    result = run("check", "-q", "models")
    paths = [line.split(":")[0] for line in result.stdout.splitlines()]
    assert paths == ["models/a/y.XML", "models/a/z.xml", "models/b.xml"]


def test_exclude_globs_apply_to_walked_and_named_files() -> None:
    write("models/legacy/old.xml", BAD)
    write("models/new/tmp_1.xml", BAD)
    write("models/new/net.xml", BAD)

    def checked(*args: str) -> list[str]:
        result = run("check", "-q", *args)
        return sorted({line.split(":")[0] for line in result.stdout.splitlines()})

    assert checked("models") == ["models/legacy/old.xml", "models/new/net.xml", "models/new/tmp_1.xml"]
    assert checked("--exclude", "legacy", "--exclude", "models/**/tmp_*.xml", "models") == [
        "models/new/net.xml"
    ]
    assert checked("--exclude", "legacy", "models/legacy/old.xml", "models/new/net.xml") == [
        "models/new/net.xml"
    ]
    verbose = run("check", "-v", "--exclude", "legacy", "models")
    assert "irshape: excluded models/legacy" in verbose.stderr


def test_a_file_named_twice_is_checked_once() -> None:
    write("bad.xml", BAD)
    result = run("check", "-q", "bad.xml", "./bad.xml", ".")
    assert len(result.stdout.splitlines()) == 1


def test_no_files_is_not_an_error() -> None:
    Path("empty").mkdir()
    result = run("check", "empty")
    assert result.exit_code == 0
    assert "no .xml files" in result.stderr


def test_output_file() -> None:
    write("bad.xml", BAD)
    result = run("check", "--format", "json", "-o", "out/report.json", "bad.xml")
    assert result.exit_code == 2  # the directory does not exist
    Path("out").mkdir()
    result = run("check", "--format", "json", "-o", "out/report.json", "bad.xml")
    assert result.exit_code == 1 and result.stdout == ""
    assert '"IRS301"' in Path("out/report.json").read_text()


@pytest.mark.parametrize(
    "given", ["./a.xml", "a//b.xml", "a/./b/", "//a", "///a", "", ".", "./", "a/..", "../a", "a/../b", "/"]
)
def test_paths_are_spelled_as_pathlib_spells_them(given: str) -> None:
    """A check's paths are str (pathlib is not imported), reported as a Path would print them."""
    assert spelled(given) == str(Path(given))


@pytest.mark.parametrize(
    ("path", "base"),
    [("a/b.xml", "."), (".", "."), ("/etc/x.xml", "."), ("/tmp/x/y", "/tmp"), ("/tmpx/y", "/tmp")],
)
def test_relative_posix_is_pathlibs_relative_to(path: str, base: str) -> None:
    absolute = Path(os.path.abspath(path))
    try:
        expected = absolute.relative_to(os.path.abspath(base)).as_posix()
    except ValueError:  # not below base: absolute
        expected = absolute.as_posix()
    assert relative_posix(path, base) == expected


def test_collect_files_and_globs(tmp_path: Path) -> None:
    write("m/a.xml", GOOD)
    write("m/sub/b.xml", GOOD)
    collected = collect_files([Path("m")], [Glob("sub", tmp_path)])
    assert collected.files == ["m/a.xml"]  # str, spelled as pathlib spells them
    assert collected.excluded == ["m/sub"]
    assert collect_files(["./m/", "m//a.xml"]).files == ["m/a.xml", "m/sub/b.xml"]
    assert glob_matches("legacy", "models/legacy/x.xml")
    assert glob_matches("*_old.xml", "a/b/net_old.xml")
    assert not glob_matches("*_old.xml", "a/b_old/net.xml.bak")
    assert glob_matches("models/*.xml", "models/a.xml")
    assert not glob_matches("models/*.xml", "models/sub/a.xml")
    assert glob_matches("models/**/*.xml", "models/sub/deeper/a.xml")
    assert glob_matches("models/**/*.xml", "models/a.xml")
    assert glob_matches("models/**", "models/a/b.xml")
    assert glob_matches("**/tmp_?.xml", "x/y/tmp_1.xml")
    assert glob_matches("models/legacy", "models/legacy/a/b.xml")
    assert not glob_matches("models/legacy", "other/models/legacy/a.xml")
    assert glob_matches("net[0-9].xml", "net7.xml") and not glob_matches("net[!0-9].xml", "net7.xml")


# --- infer, rules, rule -------------------------------------------------------------------------


def test_infer_text_json_and_stdin() -> None:
    write("good.xml", GOOD)
    listed, summary = run("infer", "good.xml").stdout.strip().splitlines()
    assert (
        listed == "good.xml:1: layer 1 'conv' (Convolution): port 2 [1,8,8,8]"
    )  # a fragment: no element type
    assert summary.startswith(
        "1 layer(s) of 1 op type(s) inferred, 0 Parameter, Const and Result layer(s) read"
    )
    assert run("infer", "-q", "good.xml").stdout.strip() == listed
    assert '"outputs": [\n' in run("infer", "--format", "json", "good.xml").stdout
    assert run("infer", "-", input=GOOD).stdout.startswith("<stdin>:1: layer 1")
    assert run("infer", "--format", "sarif", "good.xml").exit_code == 2


def test_rules_lists_every_code() -> None:
    listed = [line.split()[0] for line in run("rules").stdout.splitlines()]
    assert listed == list(rules.RULES)
    assert run("rules", "--markdown").stdout.strip() == rules.markdown_table()


@pytest.mark.parametrize("code", list(rules.RULES))
def test_rule_documents_every_code(code: str) -> None:
    result = run("rule", code.lower())
    assert result.exit_code == 0
    text = result.stdout
    rule = rules.RULES[code]
    assert text.startswith(f"{code} {rule.name} ({rule.severity.value})")
    for heading in ("What:", "Why:", "Example:", "Fix:"):
        assert f"\n{heading}\n" in text
    assert f"irshape says: {code} [{rule.severity.value}]" in text
    assert rule.summary.split()[0] in text and rule.fix.split()[0] in text


# --- many files, and the real command ------------------------------------------------------------


def irshape_command(*args: str, cwd: Path, input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR")}
    return subprocess.run(
        [sys.executable, "-m", "irshape", *args], cwd=cwd, input=input, capture_output=True, env=env
    )


def many_files(root: Path) -> None:
    """49 files, over PARALLEL_MIN_BYTES together, so that -j 2 does use a process pool."""
    padding = f"<!-- {'x' * 16_000} -->"
    assert 48 * len(padding) > irshape.files.PARALLEL_MIN_BYTES
    for i in range(48):
        text = [GOOD, BAD, WARN][i % 3].replace('name="conv"', f'name="conv{i}"')
        text = text.replace("    <data ", f"    {padding}<data ")
        write(root / f"models/group{i % 5}/net{i:02d}.xml", text)
    shutil.copy(GOOD_NET, root / "models" / "net.xml")
    shutil.copy(GOOD_NET.with_suffix(".bin"), root / "models" / "net.bin")


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github", "junit"])
def test_parallel_output_is_identical_to_serial(tmp_path: Path, output_format: str) -> None:
    """subprocess: -j 2 (a process pool) prints exactly what -j 1 prints, in the same order."""
    many_files(tmp_path)
    serial = irshape_command("check", "--format", output_format, "-j", "1", "models", cwd=tmp_path)
    parallel = irshape_command("check", "--format", output_format, "-j", "2", "models", cwd=tmp_path)
    assert serial.returncode == parallel.returncode == 1
    assert parallel.stdout == serial.stdout
    assert serial.stdout.count(b"IRS301") >= 16


def test_check_files_keeps_the_order_of_its_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(irshape.files, "PARALLEL_MIN_BYTES", 0)
    many_files(tmp_path)
    files = collect_files([tmp_path / "models"]).files
    serial = irshape.files.check_files(files, jobs=1)
    parallel = irshape.files.check_files(files, jobs=2)
    assert [r.path for r in parallel] == [str(f) for f in files]
    assert parallel == serial
    ticks: list[int] = []
    irshape.files.check_files(files, jobs=2, progress=ticks.append)
    assert sum(ticks) == len(files)


def test_real_command_exit_codes_and_stdin(tmp_path: Path) -> None:
    """subprocess: the installed entry point and ``python -m irshape`` behave alike."""
    write(tmp_path / "good.xml", GOOD)
    write(tmp_path / "bad.xml", BAD)
    assert irshape_command("check", "good.xml", cwd=tmp_path).returncode == 0
    bad = irshape_command("check", "bad.xml", cwd=tmp_path)
    assert bad.returncode == 1 and bad.stdout.startswith(b"bad.xml:8:51: IRS301")
    assert irshape_command("check", "nothere.xml", cwd=tmp_path).returncode == 2
    piped = irshape_command("check", "-", "--stdin-filename", "x.xml", cwd=tmp_path, input=BAD.encode())
    assert piped.returncode == 1 and piped.stdout.startswith(b"x.xml:8:51: IRS301")
    script = Path(sys.executable).with_name("irshape")
    if script.exists():
        direct = subprocess.run([script, "check", "bad.xml"], cwd=tmp_path, capture_output=True)
        assert direct.returncode == 1 and direct.stdout == bad.stdout


def test_github_format_is_the_default_inside_github_actions(tmp_path: Path) -> None:
    write("bad.xml", BAD)
    result = run("check", "bad.xml", env={"GITHUB_ACTIONS": "true"})
    assert result.stdout.startswith("::error file=bad.xml,line=8,col=51,")
    assert run("check", "--format", "text", "bad.xml", env={"GITHUB_ACTIONS": "true"}).stdout.startswith(
        "bad.xml:8:51"
    )


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_only_on_a_terminal(tmp_path: Path) -> None:
    """subprocess: with stderr on a pseudo-terminal a progress bar is drawn there, else never."""
    import pty

    for i in range(12):
        write(tmp_path / f"models/net{i:02d}.xml", GOOD)
    primary, secondary = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "irshape", "check", "models"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=secondary,
        )
        os.close(secondary)
        drawn = b""
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # the terminal is closed once everything is read
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(primary)
    assert done.returncode == 0
    assert b"irshape: check [" in drawn and b"12/12 files" in drawn
    assert b"irshape: check [" not in done.stdout  # the report on stdout is untouched
    piped = irshape_command("check", "models", cwd=tmp_path)
    assert piped.stderr == b""
    quiet = irshape_command("check", "-q", "models", cwd=tmp_path)
    assert quiet.stderr == b"" and quiet.stdout == b""
