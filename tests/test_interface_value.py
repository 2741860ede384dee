"""irshape.ops.interface.Value: at run time a tuple class written by hand (typing.NamedTuple's
class creation costs ~1.7M instructions at every start), for the type checker the NamedTuple
declared beside it. The two must say the same: the fields, their order and their defaults,
and the NamedTuple's behaviour."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path
from typing import NamedTuple

import pytest

from irshape.ops import interface
from irshape.ops.interface import NOTHING, Origin, Unknown, Value

SOURCE = Path(interface.__file__).read_text("utf-8")


def _declared() -> ast.ClassDef:
    """The ``class Value(NamedTuple)`` the type checker reads."""
    (declared,) = [
        node
        for node in ast.walk(ast.parse(SOURCE))
        if isinstance(node, ast.ClassDef)
        and node.name == "Value"
        and ast.unparse(node.bases[0]) == "NamedTuple"
    ]
    return declared


def test_fields_and_defaults_are_the_declared_ones() -> None:
    fields = [node for node in _declared().body if isinstance(node, ast.AnnAssign)]
    names = tuple(node.target.id for node in fields if isinstance(node.target, ast.Name))
    defaults = {
        node.target.id: eval(ast.unparse(node.value), vars(interface))  # the module's own literals
        for node in fields
        if isinstance(node.target, ast.Name) and node.value is not None
    }
    assert Value._fields == names
    assert Value._field_defaults == defaults
    assert tuple(Value()) == tuple(defaults[name] for name in names)


def test_it_behaves_as_the_named_tuple() -> None:
    class Reference(NamedTuple):  # the same fields, by typing.NamedTuple
        value: tuple[int, ...] | None = None
        lower: tuple[int, ...] | None = None
        upper: tuple[int, ...] | None = None
        reals: tuple[float, ...] | None = None
        real_lower: tuple[float, ...] | None = None
        real_upper: tuple[float, ...] | None = None
        const_parts: tuple[int | None, ...] | None = None
        constant: bool = False
        origin: Origin = Origin.DATA
        unknown: Unknown | None = None
        why: str | None = None
        reported: bool = False
        error: str | None = None

    made = Value((1, 2), origin=Origin.SHAPES, why="w")
    reference = Reference((1, 2), origin=Origin.SHAPES, why="w")
    assert tuple(made) == tuple(reference) and hash(made) == hash(reference)
    assert [getattr(made, name) for name in Value._fields] == list(reference)
    assert tuple(made._replace(lower=(0,), reported=True)) == tuple(
        reference._replace(lower=(0,), reported=True)
    )
    assert type(made._replace(why=None)) is Value
    assert repr(made) == repr(reference).replace("Reference(", "Value(", 1)
    assert pickle.loads(pickle.dumps(made)) == made and type(pickle.loads(pickle.dumps(made))) is Value
    assert Value() == NOTHING and NOTHING.origin is Origin.DATA
    with pytest.raises(ValueError, match="unexpected field names"):
        made._replace(nonsense=1)  # type: ignore[call-arg]
    with pytest.raises(AttributeError):
        made.value = (3,)  # type: ignore[misc]
