"""Disagreements the fuzzer finds that are not fixed yet, each with its owner: the op
machinery (the op registry, the families' value reading) or the reading layer.

Each names its fixture (``fixtures/fuzz/<fixture>.xml`` with its ``.bin``), a file the fuzzer
made that shows it. The CI test treats these as expected until they are fixed and fails on any
other disagreement; ``test_known_fixtures`` keeps each fixture honest (OpenVINO still gives the
verdict described).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .oracle import Verdicts


@dataclass(frozen=True)
class Known:
    name: str
    description: str
    fixture: str  # fixtures/fuzz/<fixture>.xml
    matches: Callable[[Verdicts], bool]
    owner: str = "op machinery"  # or "reading": a reading-layer class not fixed yet


def _missed(v: Verdicts, *texts: str) -> bool:
    return (v.disagreement or "").startswith("missed:") and any(t in (v.ov_error or "") for t in texts)


KNOWN: tuple[Known, ...] = (
    Known(
        "type-not-in-opset",
        "A layer whose version is an opset name OpenVINO does not know ('Co' with version "
        "'opset99', 'const' with 'Opset1', a Const with 'opset1' and a control character "
        "after it, the fixture): OpenVINO, with no extension loaded, rejects the file ('Cannot "
        "create Co layer Constant_42 id:2 from unsupported opset: opset99'); "
        "irshape gives the info IRS404, deliberately: an opset name that is not one of "
        "OpenVINO's is an extension's, which the user loads with its ops (README). Types not "
        "in one of OpenVINO's own opsets are errors (fixed).",
        "type_unknown_opset",
        lambda v: _missed(v, "doesn't contain the operation with type", "from unsupported opset"),
    ),
)


def known_class(v: Verdicts) -> str | None:
    return next((k.name for k in KNOWN if k.matches(v)), None)
