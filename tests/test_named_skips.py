"""A file the command line names that irshape does not check gets one line saying so and why;
the same file found by a directory walk is skipped quietly (-v names it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conv_layers import GOOD

from irshape.cli import main

HTML = "<html><body><p>not a model</p></body></html>\n"


def _check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args])
    return result.exit_code, result.stderr


def test_a_named_file_that_is_no_ir_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "page.xml").write_text(HTML)
    code, stderr = _check("--isolated", "page.xml")
    assert code == 0
    assert stderr.count("irshape: skipped page.xml: not an OpenVINO IR (root element <html>)") == 1


def test_a_walk_skips_quietly_and_says_it_with_v(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "page.xml").write_text(HTML)
    (tmp_path / "models" / "conv.xml").write_text(GOOD)
    assert "skipped" not in _check("--isolated", "models")[1]
    assert "skipped models/page.xml" in _check("--isolated", "-v", "models")[1]
    assert "skipped" not in _check("--isolated", "-q", "models/page.xml")[1]


def test_a_named_excluded_file_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.xml").write_text(GOOD)
    (tmp_path / "pyproject.toml").write_text('[tool.irshape]\nexclude = ["legacy"]\n')
    code, stderr = _check("legacy/old.xml")
    assert code == 0 and "irshape: excluded legacy/old.xml (it matches the configuration's exclude)" in stderr
    assert "excluded" not in _check(".")[1]  # found by the walk: quiet


def test_under_pre_commit_the_staged_files_are_not_named_by_the_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PRE_COMMIT", "1")
    (tmp_path / "page.xml").write_text(HTML)
    assert "skipped" not in _check("--isolated", "page.xml")[1]
