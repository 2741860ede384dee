"""At least one fixture per diagnostic code, each triggering the code it is named after."""

from __future__ import annotations

from pathlib import Path

import pytest

import irshape
from irshape.rules import RULES

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
INVALID = sorted((FIXTURES / "invalid").glob("IRS*.xml"))
# Codes whose fixtures live elsewhere, or that no input should ever trigger.
ELSEWHERE = {
    "IRS012": "a file that cannot be read is no fixture; tests/test_api.py reads a missing path",
    "IRS901": "an internal error is a bug; tests/test_hostile.py and the fuzz suite look for it",
    "IRS902": "only check --fix reports it; tests/test_fix.py makes it happen",
    "IRS505": "a kernel disagreeing with irshape's inference is a bug; tests/test_dryrun.py makes one",
}


# Codes no file of OpenVINO 2026.4's opsets can trigger: irshape infers every op version they
# hold (tests/test_ops_doc.py keeps the list closed). IRS308 is for an op version a newer
# OpenVINO's opsets add (tools/make_opset_table.py) before its declaration exists; its fixture
# meets one by hiding the declaration of the op it uses.
HIDDEN = {"IRS308": "Multinomial"}


def _codes(xml: Path) -> list[str]:
    dry_run = None
    if xml.name.startswith("IRS5"):
        from irshape.execute.dryrun import DryRunOptions

        dry_run = DryRunOptions()
    # every IRS306 too: the fixture's Broadcast declares [-1,-1,-1], as OpenVINO infers it, where
    # by default it is not said (tests/test_unknown_values.py)
    report = irshape.check_file(xml, dry_run=dry_run, every_unknown_value=True)
    return [d.code for d in report.diagnostics]


@pytest.mark.parametrize("xml", INVALID, ids=lambda p: p.stem)
def test_fixture_triggers_its_code(xml: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = xml.name[:6]
    if code in HIDDEN:
        from irshape.check import model as walk

        declared = walk.lookup
        monkeypatch.setattr(walk, "lookup", lambda t, v=None: None if t == HIDDEN[code] else declared(t, v))
    codes = _codes(xml)
    assert code in codes, codes
    assert "IRS901" not in codes


def test_every_code_has_a_fixture() -> None:
    named = {p.name[:6] for p in FIXTURES.rglob("IRS*.xml")}
    missing = sorted(set(RULES) - named - set(ELSEWHERE))
    assert not missing, f"codes without a fixture: {missing}"


@pytest.mark.parametrize(("code", "op"), sorted(HIDDEN.items()))
def test_a_hidden_fixture_is_inferred_when_nothing_is_hidden(code: str, op: str) -> None:
    """Without the hiding, the fixture's op is inferred: the code does not come up."""
    (xml,) = [p for p in INVALID if p.name.startswith(code)]
    assert code not in _codes(xml)
    assert f'type="{op}"' in xml.read_text("utf-8")
