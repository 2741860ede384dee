"""A rule's name is accepted wherever its code is: ``irshape rule``, ``--select``/``--ignore``
and the configuration's lists (the names ``irshape rules`` and the GitHub titles show)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conv_layers import BAD, conv

from irshape import rules
from irshape.cli import main
from irshape.selection import SelectorError, parse_selector

TWO = conv(h=9, strides=False)  # IRS301 (declared-dim-mismatch) and IRS101 (attribute-missing)


def _codes(output: str) -> set[str]:
    return {word for line in output.splitlines() for word in line.split() if word.startswith("IRS")}


def test_every_name_selects_its_code() -> None:
    for rule in rules.RULES.values():
        assert parse_selector(rule.name) == rule.code
        assert parse_selector(rule.name.upper()) == rule.code  # names are case-insensitive
        assert rules.lookup(rule.name) is rule and rules.lookup(rule.code.lower()) is rule


def test_an_unknown_name_is_refused() -> None:
    with pytest.raises(SelectorError, match="names like declared-dim-mismatch"):
        parse_selector("value-unknow")


def test_rule_by_name_documents_the_same_rule() -> None:
    runner = CliRunner()
    by_name = runner.invoke(main, ["rule", "value-unknown"])
    by_code = runner.invoke(main, ["rule", "IRS306"])
    assert by_name.exit_code == by_code.exit_code == 0
    assert by_name.output == by_code.output and "IRS306" in by_name.output
    missing = runner.invoke(main, ["rule", "no-such-rule"])
    assert missing.exit_code == 2 and "no such code or rule name" in missing.output


def test_select_and_ignore_by_name(tmp_path: Path) -> None:
    (tmp_path / "two.xml").write_text(TWO)
    runner = CliRunner()
    both = runner.invoke(main, ["check", "--isolated", str(tmp_path / "two.xml")])
    assert {"IRS301", "IRS101"} <= _codes(both.output)
    selected = runner.invoke(
        main, ["check", "--isolated", "--select", "declared-dim-mismatch", str(tmp_path / "two.xml")]
    )
    assert "IRS301" in _codes(selected.output) and "IRS101" not in _codes(selected.output)
    ignored = runner.invoke(
        main, ["check", "--isolated", "--ignore", "declared-dim-mismatch", str(tmp_path / "two.xml")]
    )
    assert "IRS301" not in _codes(ignored.output) and "IRS101" in _codes(ignored.output)


def test_configuration_ignores_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bad.xml").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text('[tool.irshape]\nignore = ["declared-dim-mismatch"]\n')
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "bad.xml"])
    assert result.exit_code == 0 and "IRS301" not in result.output
