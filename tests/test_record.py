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


def test_value_behaves_as_the_named_tuple_it_replaced() -> None:
    """``Value`` is a named tuple written out by hand (its field names listed once in
    ``_fields``, once as ``__new__``'s parameters, once as each property's index): a field
    added, moved or renamed in one place and not the others reads the wrong element. Its
    behaviour is pinned against a ``collections.namedtuple`` made from the same fields."""
    import collections
    import inspect

    from irshape.ops.interface import NOTHING, Origin, Unknown, Value

    parameters = list(inspect.signature(Value.__new__).parameters.values())[1:]
    assert tuple(p.name for p in parameters) == Value._fields
    reference = collections.namedtuple("Value", Value._fields, defaults=[p.default for p in parameters])
    assert tuple(NOTHING) == tuple(reference()) and Value() == NOTHING
    for index, name in enumerate(Value._fields):
        marker = object()
        made = Value(**{name: marker})
        assert made[index] is marker and getattr(made, name) is marker, name
        assert tuple(made) == tuple(reference(**{name: marker}))
        assert tuple(NOTHING._replace(**{name: marker})) == tuple(made)
    full = Value(
        (1,), (0,), (2,), (0.5,), constant=True, origin=Origin.SHAPES, unknown=Unknown.ELSEWHERE, why="w"
    )
    assert tuple(full) == tuple(
        reference(
            (1,), (0,), (2,), (0.5,), constant=True, origin=Origin.SHAPES, unknown=Unknown.ELSEWHERE, why="w"
        )
    )
    assert repr(full) == repr(reference(*full))
    assert hash(full) == hash(tuple(full)) and full == Value(*full)
    for copied in (pickle.loads(pickle.dumps(full)), copy.copy(full), copy.deepcopy(full)):
        assert type(copied) is Value and copied == full
    with pytest.raises(ValueError, match="unexpected field names"):
        full._replace(nonsense=1)


def test_a_rule_is_a_record_written_as_a_tuple() -> None:
    """Rule (a tuple, made 85 times at every start): its fields, equality, hash, immutability,
    replace, repr and pickling as a record's."""
    from irshape.diagnostics import Rule
    from irshape.rules import XML_SYNTAX

    rule = Rule("IRS999", "a-name", Severity.WARNING, "{x}", "what", "why", "fix")
    assert (rule.code, rule.name, rule.severity, rule.template) == (
        "IRS999",
        "a-name",
        Severity.WARNING,
        "{x}",
    )
    assert (rule.summary, rule.why, rule.fix, rule.example) == ("what", "why", "fix", "")
    assert rule == Rule("IRS999", "a-name", Severity.WARNING, "{x}", "what", "why", "fix", "")
    assert hash(rule) == hash(rule.replace()) and rule.replace(example="e").example == "e"
    assert rule.replace(code="IRS998") != rule and type(rule.replace(code="IRS998")) is Rule
    with pytest.raises(AttributeError):
        rule.code = "IRS000"  # type: ignore[misc]
    with pytest.raises(TypeError, match="no field colour"):
        rule.replace(colour="red")
    assert repr(rule).startswith("Rule(code='IRS999', name='a-name', severity=<Severity.WARNING")
    # read as the FrozenRecord it was is read
    assert Rule.field_names() == ("code", "name", "severity", "template", "summary", "why", "fix", "example")
    assert rule.field_values() == ("IRS999", "a-name", Severity.WARNING, "{x}", "what", "why", "fix", "")
    for copied in (pickle.loads(pickle.dumps(XML_SYNTAX)), copy.copy(XML_SYNTAX), copy.deepcopy(XML_SYNTAX)):
        assert copied == XML_SYNTAX and type(copied) is Rule
    assert rule(Location("m.xml", 2), x=5).message == "5"
