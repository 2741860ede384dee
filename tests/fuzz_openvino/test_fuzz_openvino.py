"""Differential fuzzing against OpenVINO's read_model, at the CI budget (issue 15).

``CI_SEEDS`` edited IRs (``edits.py``: IRs written by ``ov.save_model`` with one to three edits
drawn from grammars at the edges of OpenVINO's rules) are read by both; every disagreement
must be one of ``known_disagreements.KNOWN`` (each with its fixture, for the op machinery),
and none may be an internal error of another kind. A larger budget runs by hand:
``python tools/fuzz_openvino.py --count 50000``.

The fixtures the fuzzer found (``fixtures/fuzz/``) are checked on every run: those of fixed
classes must now agree, those of known classes must still show what their entry says
(OpenVINO's verdict is pinned, so a change of OpenVINO shows here too).

OpenVINO is imported plainly: without it these tests fail, never skip.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import openvino  # noqa: F401  (the oracle: a missing OpenVINO fails here)
import pytest

from .edits import Edited
from .known_disagreements import KNOWN, known_class
from .oracle import in_worker, judge, run_many

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "fuzz"
CI_SEEDS = int(os.environ.get("IRSHAPE_OV_FUZZ_SEEDS", "4000"))
WORKERS = 2


def test_ci_budget_has_no_unknown_disagreement() -> None:
    unknown = []
    seen = 0
    for v in run_many(range(CI_SEEDS), workers=WORKERS):
        seen += 1
        if v.disagreement is not None and known_class(v) is None:
            unknown.append(f"seed {v.seed} ({v.base}; {v.edits}): {v.disagreement}: {v.detail[:300]}")
    assert seen == CI_SEEDS
    assert not unknown, "\n".join(unknown[:30])


def test_generator_reaches_every_edit_kind_and_both_verdicts() -> None:
    """The grammars are exercised: every kind of edit, files OpenVINO reads and rejects."""
    from .edits import EDITS, edited

    kinds = set()
    for seed in range(3000):
        kinds.update(edited(seed).kinds)
    assert len(kinds) >= len(EDITS) + 5, sorted(kinds)


def test_every_known_class_names_its_fixture() -> None:
    for k in KNOWN:
        assert (FIXTURES / f"{k.fixture}.xml").is_file(), k.name
        assert k.description


def _expectations() -> dict[str, dict[str, str]]:
    with (FIXTURES / "expected.toml").open("rb") as f:
        return tomllib.load(f)


@pytest.mark.parametrize("stem", sorted(_expectations()))
def test_fuzz_fixture(stem: str, tmp_path: Path) -> None:
    """Each fixture: OpenVINO's verdict as recorded; irshape agrees, or (a known class) the
    disagreement is still the one its entry describes."""
    expected = _expectations()[stem]
    xml = FIXTURES / f"{stem}.xml"
    ov_error, ov_shapes, errors, shapes = in_worker(xml)
    if expected["openvino"] == "reads":
        assert ov_error is None, ov_error
        assert shapes, "irshape inferred no shape of a file OpenVINO reads"
    else:
        assert ov_error is not None and expected["openvino"] in ov_error, ov_error
    d = Edited(
        stem, -1, xml.read_text(encoding="utf-8", errors="replace"), b"", [(expected.get("kind", ""), "")]
    )
    v = judge(d, ov_error, ov_shapes, errors, shapes)
    if "known" in expected:
        assert v.disagreement is None or known_class(v) == expected["known"], (v.disagreement, v.detail)
    else:
        assert v.disagreement is None, (v.disagreement, v.detail)
