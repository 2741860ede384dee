"""ReadValue-6 and OneHot called directly (no XML), with hand-worked expectations: when a
variable's shape relaxes (contains) its init value's (PartialShape::relaxes), what a variable of
dynamic rank and type gives, and the OneHot depth OpenVINO reads from an unsigned Const."""

from __future__ import annotations

import pytest

from irshape.dims import parse_partial_shape
from irshape.ops.interface import ConstTensor, OpCall, Tensor
from irshape.ops.registry import lookup
from irshape.ops.schema import ParsedAttributes
from irshape.shapes.generation import one_hot
from irshape.shapes.state import read_value_6, relaxes


@pytest.mark.parametrize(
    ("wide", "narrow", "expected"),
    [
        ("[...]", "[2,3]", True),  # a dynamic rank relaxes every shape
        ("[?,3]", "[2,3]", True),  # ? = [0, inf] contains 2
        ("[1..4,3]", "[2..3,3]", True),  # [1, 4] contains [2, 3]
        ("[1..4,3]", "[2..5,3]", False),  # ...not [2, 5]
        ("[2,3]", "[?,3]", False),  # 2 does not contain [0, inf]
        ("[?,3]", "[...]", False),  # a static rank never relaxes a dynamic one
        ("[?,3]", "[2,3,1]", False),  # nor another rank
        ("[]", "[]", True),
    ],
)
def test_relaxes(wide: str, narrow: str, expected: bool) -> None:
    assert relaxes(parse_partial_shape(wide), parse_partial_shape(narrow)) is expected


def _read_value(variable_shape: str, variable_type: str, init: str | None) -> OpCall:
    schema = lookup("ReadValue", "opset6")
    assert schema is not None
    attributes = ParsedAttributes()
    attributes.texts["variable_id"] = "past_key_0"
    attributes.texts["variable_shape"] = variable_shape
    attributes.values["variable_type"] = variable_type
    inputs = () if init is None else (Tensor(parse_partial_shape(init), "f16"),)
    return OpCall(schema, inputs, attributes)


@pytest.mark.parametrize(
    ("variable_shape", "variable_type", "init", "expected"),
    [
        ("?,2,?,16", "f32", None, ("[?,2,?,16]", "f32")),  # no init: the variable's
        ("...", "dynamic", "[1,2]", ("[1,2]", "f16")),  # the workaround: the init's
        ("...", "f16", "[1,2]", ("[...]", "f16")),  # a static type: the variable's
        ("?,?", "dynamic", "[1,2]", ("[?,?]", "dynamic")),  # a static rank: the variable's
    ],
)
def test_read_value_6_output(
    variable_shape: str, variable_type: str, init: str | None, expected: tuple[str, str]
) -> None:
    result = read_value_6(_read_value(variable_shape, variable_type, init))
    assert not result.findings
    (output,) = result.outputs
    assert (str(output.shape), output.element_type) == expected


@pytest.mark.parametrize(
    ("value", "element_type", "expected"),
    [
        (5, "u64", "[2,5]"),
        (2**64 - 1, "u64", "[2,?]"),  # GetNotNegative passes it, the cast to int64 makes it -1: ?
        (2**63, "u64", "[2,0]"),  # INT64_MIN: Dimension clips a negative length to 0
    ],
)
def test_one_hot_depth_of_an_unsigned_const(value: int, element_type: str, expected: str) -> None:
    schema = lookup("OneHot", "opset1")
    assert schema is not None
    inputs = (
        Tensor(parse_partial_shape("[2]"), "i64"),
        # a Const layer's output: its value cast (a computed depth is read as a shape, where
        # 2^64 - 1 is below zero and fails: test_value_inputs_fuzz)
        ConstTensor(parse_partial_shape("[]"), element_type, (value,)),
        Tensor(parse_partial_shape("[]"), "f32"),
        Tensor(parse_partial_shape("[]"), "f32"),
    )
    result = one_hot(OpCall(schema, inputs, ParsedAttributes()))
    assert not result.findings
    assert str(result.outputs[0].shape) == expected
