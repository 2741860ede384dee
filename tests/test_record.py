"""irshape.record: the slotted records that stand in for dataclasses (start-up cost)."""

from __future__ import annotations

import copy
import pickle

import pytest

from irshape.diagnostics import Diagnostic, Location, Severity
from irshape.dims import Dim
from irshape.ir.model import Layer, Port


def finding() -> Diagnostic:
    return Diagnostic("m.xml", 3, layer_id="7", code="IRS101", severity=Severity.ERROR, message="bad")


def test_fields_in_declaration_order_base_first() -> None:
    assert Location.field_names() == (
        "path", "line", "column", "layer_id", "layer_name", "layer_type", "layer_version"
    )  # fmt: skip
    assert Diagnostic.field_names()[:7] == Location.field_names()
    assert Diagnostic.field_names()[7:10] == ("code", "severity", "message")


def test_equality_by_fields_and_type() -> None:
    assert finding() == finding()
    assert finding() != finding().replace(line=4)
    assert Location("m.xml", 3) != Diagnostic("m.xml", 3, code="X", severity=Severity.INFO, message="")
    assert Dim(1, 2) == Dim(1, 2) and Dim(1, 2) != Dim(1, 3)


def test_frozen_records_refuse_assignment_and_hash_by_value() -> None:
    diagnostic = finding()
    with pytest.raises(AttributeError, match="immutable"):
        diagnostic.line = 5  # type: ignore[misc]
    assert hash(diagnostic) == hash(finding())
    assert len({Dim(1, 2), Dim(1, 2), Dim(0, 2)}) == 2


def test_mutable_records_are_unhashable() -> None:
    with pytest.raises(TypeError):
        hash(Port("0", 0, 1, (1, 2)))


def test_replace_copies_and_refuses_unknown_fields() -> None:
    diagnostic = finding()
    moved = diagnostic.replace(line=9, message="worse")
    assert (moved.line, moved.message, moved.code) == (9, "worse", "IRS101")
    assert diagnostic.line == 3
    with pytest.raises(TypeError, match="no field nme"):
        diagnostic.replace(nme="x")


def test_defaults_are_fresh_per_instance() -> None:
    first, second = Layer("0", "a", "Relu", "opset1", 1), Layer("1", "b", "Relu", "opset1", 2)
    first.inputs.append(Port("0", 0, 2, (1,)))
    assert second.inputs == [] and second.data == {}


def test_pickle_and_copy_round_trip() -> None:
    """-j sends reports between processes by pickle."""
    diagnostic = finding()
    assert pickle.loads(pickle.dumps(diagnostic)) == diagnostic
    assert copy.copy(diagnostic) == diagnostic
    layer = Layer("0", "a", "Relu", "opset1", 1, inputs=[Port("0", 0, 2, (1, 3), range(3, 5))])
    assert pickle.loads(pickle.dumps(layer)) == layer


def test_repr_names_the_fields() -> None:
    assert repr(Dim(1, 2)) == "Dim(lo=1, hi=2)"
