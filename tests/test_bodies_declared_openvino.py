"""A Loop's, If's or TensorIterator's body as OpenVINO's reader first builds it: a model of its
own, its Parameters at the shapes they declare, every layer validated there before the port
map binds the outer inputs (irshape/check/subgraphs.py). The body Parameter's declared shape is
varied in the reader suite's networks, and each file judged by the installed OpenVINO: where
read_model fails, irshape rejects the file; where it reads, irshape rejects nothing."""

from __future__ import annotations

import re
from pathlib import Path

import openvino as ov
import pytest
from differential.test_control_flow import nested_ifs
from test_openvino_reader_cases import LOOP_MAP, LOOP_WEIGHTS, SLICED, _if, _loop, _tensor_iterator

import irshape
from irshape.check import model as walk
from irshape.rules import rejects

DECLARED_NOTE = "the body as OpenVINO's reader first builds it"


def _declared(xml: str, name: str, shape: str) -> str:
    """The body Parameter ``name`` declaring ``shape`` (its port dims left as they were)."""
    pattern = rf'(name="{name}" type="Parameter" version="opset1">\n<data element_type="\w+" shape=")[^"]*"'
    changed, count = re.subn(pattern, rf'\g<1>{shape}"', xml)
    assert count == 1
    return changed


def _loop_with(shape: str) -> str:
    return _declared(_loop(LOOP_MAP), "a_in", shape)


# name -> (xml, weights, does OpenVINO read it); the verdicts are OpenVINO 2026.4's, asserted below
CASES: dict[str, tuple[str, bytes | None, bool]] = {
    # a_in + b [1,2] in the Loop's body: the sum broadcasts at the declared shape, or not
    **{
        f"loop, a_in declared {shape!r}": (_loop_with(shape), LOOP_WEIGHTS, reads)
        for shape, reads in (
            ("1,2", True),
            ("?", True),
            ("?,?", True),
            ("...", True),
            ("1..3,2", True),
            ("2,2", True),
            ("1", True),
            ("", True),
            ("2,1,2", True),
            ("0", False),
            ("3", False),
            ("1,3", False),
            ("1,2,3", False),
            ("1,x", False),
        )
    },
    # a_in declared [1,2] as bound, of another element type: the Add of it and b fails
    "loop, a_in declared i32": (
        _loop(LOOP_MAP).replace(
            'name="a_in" type="Parameter" version="opset1">\n<data element_type="f32"',
            'name="a_in" type="Parameter" version="opset1">\n<data element_type="i32"',
        ),
        LOOP_WEIGHTS,
        False,
    ),
    # a TensorIterator's body Parameter declared in a shape OpenVINO cannot parse
    "ti, body Parameter shape 1,x,1": (
        _declared(_tensor_iterator(SLICED, "1,2,1"), "internalParameter1", "1,x,1"),
        None,
        False,
    ),
    "ti, body Parameter shape 1,2,1": (_tensor_iterator(SLICED, "1,2,1"), None, True),
    # the If's else_body, which a true condition never runs, is built all the same
    "if true, else Parameter shape 2,x": (_declared(_if("true"), "else_body_param", "2,x"), b"\x01", False),
    "if true, else Parameter shape 5": (_declared(_if("true"), "else_body_param", "5"), b"\x01", True),
}


def _openvino_reads(xml: Path, weights: bool) -> bool:
    try:
        if weights:
            ov.Core().read_model(str(xml), str(xml.with_suffix(".bin")))
        else:
            ov.Core().read_model(str(xml))
    except RuntimeError:
        return False
    return True


@pytest.mark.parametrize("name", list(CASES))
def test_a_body_as_declared(tmp_path: Path, name: str) -> None:
    text, weights, reads = CASES[name]
    xml = tmp_path / "case.xml"
    xml.write_text(text)
    if weights is not None:
        xml.with_suffix(".bin").write_bytes(weights)
    assert _openvino_reads(xml, weights is not None) is reads
    findings = irshape.check_file(xml).diagnostics
    rejecting = [d for d in findings if rejects(d)]
    if reads:
        assert rejecting == []
        # the walk as declared adds only what OpenVINO rejects (not the declared dims it compares
        # at shapes the outer inputs then replace)
        assert not any(DECLARED_NOTE in d.message for d in findings)
    else:
        assert rejecting and all(d.line and d.column for d in rejecting)


def test_nested_bodies_are_walked_a_linear_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each body walked as declared once (and not at all where the walk with the outer inputs
    bound is that walk), and a control op in a body walked as declared gets only its own
    bodies walked as declared: 12 nested Ifs are tens of walks, not thousands. Their body
    Parameters declare [?] where the outer input is [2], so every body is walked as declared."""
    runs = 0
    run = walk._Walker.run

    def counted(self: walk._Walker) -> list[object]:
        nonlocal runs
        runs += 1
        return run(self)  # type: ignore[return-value]

    monkeypatch.setattr(walk._Walker, "run", counted)
    parameter = (
        '<layer id="0" name="p" type="Parameter" version="opset1"><data shape="2" element_type="f32"/>'
        '<output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>'
    )
    dynamic = parameter.replace('shape="2"', 'shape="?"').replace("<dim>2</dim>", "<dim>-1</dim>")
    outer, _, bodies = nested_ifs(12).partition(parameter)
    xml = tmp_path / "deep.xml"
    xml.write_text(outer + parameter + bodies.replace(parameter, dynamic))
    xml.with_suffix(".bin").write_bytes(b"\x01")
    assert [d for d in irshape.check_file(xml).diagnostics if rejects(d)] == []
    # the file; the then_body its true condition runs, bound; every If's two bodies as declared
    assert runs == 1 + 12 + 2 * 12
    runs = 0
    xml.write_text(nested_ifs(12))  # the Parameters as bound: only the else_bodies as declared
    assert irshape.check_file(xml).diagnostics == []
    assert runs == 1 + 12 + 12
