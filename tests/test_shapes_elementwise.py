"""The element-wise shape functions called directly (no XML), with hand-worked expectations:
the broadcasting modes (numpy, pdpd's one-way merge from a start axis, none), the integer
semantics of the folded values (Divide floors or truncates by m_pythondiv, FloorMod and Mod
take the divisor's or the dividend's sign), Tile's repeats, and Broadcast's modes with known
and unknown targets."""

from __future__ import annotations

import math
from typing import Any

from irshape.diagnostics import Location
from irshape.dims import INF, Dim, PartialShape
from irshape.ops.interface import ConstTensor, OpCall, OpResult, Tensor
from irshape.ops.registry import lookup, shape_function
from irshape.ops.schema import validate_attributes
from irshape.shapes.broadcast import merge_shapes, numpy_broadcast, pdpd_broadcast

Q = Dim(0, INF)  # "?"


def run(op: str, version: str, inputs: list[Tensor], **data: str) -> OpResult:
    schema = lookup(op, version)
    assert schema is not None
    reported: list[Any] = []
    parsed = validate_attributes(schema, data, Location("test.xml"), reported.append)
    assert not reported, reported
    return shape_function(schema.family, schema.function)(OpCall(schema, tuple(inputs), parsed))


def const(values: list[int], element_type: str = "i64", shape: list[int] | None = None) -> Tensor:
    """A Const layer's output."""
    return ConstTensor(PartialShape([len(values)] if shape is None else shape), element_type, tuple(values))


def computed(values: list[int], element_type: str = "i64") -> Tensor:
    """A value an op computes (not a Const layer's)."""
    return Tensor(PartialShape([len(values)]), element_type, tuple(values))


def f32(*dims: int | Dim) -> Tensor:
    return Tensor(PartialShape(dims), "f32")


def codes(result: OpResult) -> list[str]:
    return [f.rule.code for f in result.findings]


# --- broadcasting ----------------------------------------------------------------------------


def test_numpy_broadcasting_aligns_the_last_axes_and_grows_ones() -> None:
    shape = numpy_broadcast(PartialShape([2, 1, 4]), PartialShape([3, 1]))
    assert shape == PartialShape([2, 3, 4])


def test_numpy_broadcasting_of_1_with_an_interval_holding_1_is_their_hull() -> None:
    # both may be 1: the output is anything either may be (Dimension::broadcast_merge)
    assert numpy_broadcast(PartialShape([1]), PartialShape([Dim(0, 3)])) == PartialShape([Dim(0, 3)])
    assert numpy_broadcast(PartialShape([Dim(1, 4)]), PartialShape([Q])) == PartialShape([Q])
    # only one may be 1: the other
    assert numpy_broadcast(PartialShape([Dim(2, 5)]), PartialShape([Q])) == PartialShape([Dim(2, 5)])


def test_pdpd_lays_the_second_shape_over_the_first_from_the_start_axis() -> None:
    # axis 1: [3] over [2,3,4]'s axis 1
    assert pdpd_broadcast(PartialShape([2, 3, 4]), PartialShape([3]), 1) == PartialShape([2, 3, 4])
    # axis -1: aligned at the end, as numpy, but one way only
    assert pdpd_broadcast(PartialShape([2, 3, 4]), PartialShape([1, 4]), -1) == PartialShape([2, 3, 4])
    # the first input's 1 does not grow to the second's 3 (static src > static dst)
    assert pdpd_broadcast(PartialShape([2, 1]), PartialShape([3]), -1) is None
    # the second shape must fit: rank and start axis
    assert pdpd_broadcast(PartialShape([2]), PartialShape([2, 2]), -1) is None
    assert pdpd_broadcast(PartialShape([2, 3]), PartialShape([3]), 2) is None
    # a ? in the first takes the second's static dim
    assert pdpd_broadcast(PartialShape([Q, 4]), PartialShape([3, 4]), 0) == PartialShape([3, 4])


def test_none_merges_equal_ranks_axis_by_axis() -> None:
    assert merge_shapes(PartialShape([Dim(2, 6), Q]), PartialShape([4, 5])) == PartialShape([4, 5])
    assert merge_shapes(PartialShape([2]), PartialShape([2, 2])) is None
    assert merge_shapes(PartialShape(None), PartialShape([3])) == PartialShape([3])


def test_an_add_that_does_not_broadcast_is_irs212() -> None:
    result = run("Add", "opset1", [f32(2, 3), f32(4)])
    assert not result.outputs and codes(result) == ["IRS212"]
    assert "Argument shapes are inconsistent." in result.findings[0].args["ov_message"]


def test_boolean_arithmetic_and_float_logic_are_irs213() -> None:
    boolean = Tensor(PartialShape([2]), "boolean")
    assert codes(run("Multiply", "opset1", [boolean, boolean])) == ["IRS213"]
    assert codes(run("LogicalAnd", "opset1", [f32(2), f32(2)])) == ["IRS213"]
    assert codes(run("Add", "opset1", [f32(2), Tensor(PartialShape([2]), "f16")])) == ["IRS213"]


def test_comparisons_give_a_boolean_output() -> None:
    result = run("Less", "opset1", [f32(2, 1), f32(3)])
    assert result.outputs[0].shape == PartialShape([2, 3]) and result.outputs[0].element_type == "boolean"


# --- folded integer values ---------------------------------------------------------------------


def value(op: str, a: list[int], b: list[int], **data: str) -> tuple[int, ...] | None:
    return run(op, "opset1", [const(a), const(b)], **data).outputs[0].value


def test_divide_floors_with_m_pythondiv_and_truncates_without() -> None:
    assert value("Divide", [-7, 7], [2]) == (-4, 3)  # m_pythondiv defaults to true
    assert value("Divide", [-7, 7, -3], [2], m_pythondiv="false") == (-3, 3, -1)
    assert value("Divide", [1], [0]) is None  # OpenVINO does not fold a division by zero


def test_floormod_takes_the_divisors_sign_and_mod_the_dividends() -> None:
    assert value("FloorMod", [-7, 7], [3]) == (2, 1)
    assert value("Mod", [-7, 7], [3]) == (-1, 1)


def test_power_truncates_a_negative_exponent_toward_zero() -> None:
    assert value("Power", [2, -2, 1, -1, 3], [-1]) == (0, 0, 1, -1, 0)
    assert value("Power", [3, -2], [2]) == (9, 4)


def test_values_broadcast_numpy_style_and_wrap_to_the_element_type() -> None:
    assert value("Multiply", [2, 3], [4]) == (8, 12)
    result = run("Add", "opset1", [const([127], "i8"), const([1], "i8")])
    assert result.outputs[0].value == (-128,)
    assert value("Greater", [1, 5], [3]) == (0, 1)


def test_select_and_convert_fold() -> None:
    cond = Tensor(PartialShape([2]), "boolean", (1, 0))
    result = run("Select", "opset1", [cond, const([5, 6]), const([7])])
    assert result.outputs[0].value == (5, 7)
    converted = run("Convert", "opset1", [const([300, -1], "i32")], destination_type="u8")
    assert converted.outputs[0].value == (44, 255)


# --- Broadcast and Tile ------------------------------------------------------------------------


def test_broadcast_numpy_takes_the_target_and_checks_the_data_against_it() -> None:
    result = run("Broadcast", "opset3", [f32(Dim(2, 5), 3), const([4, 1, 3])], mode="numpy")
    assert result.outputs[0].shape == PartialShape([4, 1, 3])  # the target as it is
    bad = run("Broadcast", "opset3", [f32(2, 3), const([4, 4])], mode="numpy")
    assert codes(bad) == ["IRS212"]
    assert bad.findings[0].args["ov_message"].endswith("Allowed input dimension value would be 1 or 4")


def test_broadcast_target_minus_one_is_dynamic_and_other_negatives_zero() -> None:
    result = run("Broadcast", "opset3", [f32(3), const([2, -1, -2, 3])], mode="numpy")  # read as it is
    assert result.outputs[0].shape == PartialShape([2, Q, 0, 3])


def test_a_computed_broadcast_target_below_zero_fails_as_evaluated() -> None:
    # computed by an op (3 - 4), it is read by evaluate_as_partial_shape, which rejects it
    result = run("Broadcast", "opset3", [f32(3), computed([2, -1])], mode="numpy")
    assert codes(result) == ["IRS214"]
    message = "Value for partial shape evaluation can't be lower than zero."
    assert result.findings[0].args["ov_message"] == message
    # ...and so do its bounds: a lower bound of -1
    bounded = Tensor(PartialShape([1]), "i64", lower=(-1,), upper=(4,))
    assert codes(run("Tile", "opset1", [f32(3), bounded])) == ["IRS214"]
    # a u64's unbounded maximum is -1 as int64
    unbounded = Tensor(PartialShape([1]), "u64", lower=(2,), upper=(2**64 - 1,))
    assert codes(run("Broadcast", "opset3", [f32(3), unbounded], mode="numpy")) == ["IRS214"]


def test_broadcast_bidirectional_merges_both_ways() -> None:
    result = run("Broadcast", "opset3", [f32(4, 1, 5), const([3, 1])], mode="bidirectional")
    assert result.outputs[0].shape == PartialShape([4, 3, 5])


def test_broadcast_with_an_unknown_target_of_known_length() -> None:
    target = Tensor(PartialShape([2]), "i64", value_unknown="it comes from a Parameter")
    numpy = run("Broadcast", "opset3", [f32(4, 1, 5), target], mode="numpy")
    assert numpy.outputs[0].shape == PartialShape([Q, Q]) and codes(numpy) == ["IRS306"]
    bidirectional = run("Broadcast", "opset3", [f32(4, 1, 5), target], mode="bidirectional")
    assert bidirectional.outputs[0].shape == PartialShape([4, Q, 5])


def test_broadcast_explicit_validates_the_axes_mapping() -> None:
    ok = run("Broadcast", "opset3", [f32(3), const([2, 3, 4]), const([1])], mode="explicit")
    assert ok.outputs[0].shape == PartialShape([2, 3, 4]) and not ok.findings
    unsorted = run("Broadcast", "opset3", [f32(3, 2), const([3, 2, 4]), const([1, 0])], mode="explicit")
    assert codes(unsorted) == ["IRS214"]
    negative = run("Broadcast", "opset3", [f32(3), const([2, 3, 4]), const([-2])], mode="explicit")
    assert "18446744073709551614 exceeds target rank 3" in negative.findings[0].args["ov_message"]


def test_broadcast_pdpd_from_a_start_axis() -> None:
    result = run(
        "Broadcast", "opset3", [f32(Q, 1), const([2, 3, 4])], **{"mode": "pdpd", "mode.mode.axis": "1"}
    )
    assert result.outputs[0].shape == PartialShape([2, 3, 4])
    short = run("Broadcast", "opset3", [f32(3), const([2, 3, 4])], **{"mode": "pdpd", "mode.mode.axis": "1"})
    assert short.findings[0].args["ov_message"] == "Accessing out-of-range dimension"


def test_tile_multiplies_aligned_at_the_last_axis_with_negative_repeats_as_zero() -> None:
    result = run("Tile", "opset1", [f32(Dim(2, 5), Q), const([3, 3])])
    assert result.outputs[0].shape == PartialShape([Dim(6, 15), Q])
    assert run("Tile", "opset1", [f32(2, 3), const([-2, 3])]).outputs[0].shape == PartialShape([0, 9])
    longer = run("Tile", "opset1", [f32(2, 3), const([2, 3, 4])])
    assert longer.outputs[0].shape == PartialShape([2, 6, 12])
    tiled = run("Tile", "opset1", [const([1, 2]), const([2])])
    assert tiled.outputs[0].value == (1, 2, 1, 2)


def test_clamp_min_above_max_is_irs112() -> None:
    result = run("Clamp", "opset1", [f32(2)], min="2", max="1")
    assert codes(result) == ["IRS112"]
    assert (
        result.findings[0].args["ov_message"]
        == "Attribute 'min' must be less or equal than 'max'. Got: 2 and 1"
    )


def typed(element_type: str, *dims: int) -> Tensor:
    return Tensor(PartialShape(dims), element_type)


def test_hard_sigmoid_and_swish_want_equal_types_where_selu_merges_dynamic() -> None:
    # OpenVINO compares HardSigmoid's and Swish's types for equality: dynamic matches nothing
    hard_sigmoid = run("HardSigmoid", "opset1", [typed("dynamic", 2), typed("f32"), typed("f32")])
    assert codes(hard_sigmoid) == ["IRS213"]
    assert codes(run("Swish", "opset4", [typed("f32", 2), typed("dynamic")])) == ["IRS213"]
    # Selu merges them, and its output takes the merged type
    selu = run("Selu", "opset1", [typed("dynamic", 2), typed("f32", 1), typed("f32", 1)])
    assert not selu.findings and selu.outputs[0].element_type == "f32"


def test_no_value_is_kept_for_a_large_output() -> None:
    # Tile and Broadcast of a known value to a huge shape: the shape, and no value built
    tiled = run("Tile", "opset1", [const([1, 2]), const([10**9])])
    assert tiled.outputs[0].shape == PartialShape([2 * 10**9]) and tiled.outputs[0].value is None
    wide = run("Broadcast", "opset3", [const([7], shape=[1]), const([10**6, 10**6])], mode="numpy")
    assert wide.outputs[0].value is None
    product = run(
        "Multiply", "opset1", [const(list(range(64)), shape=[64, 1]), const(list(range(64)), shape=[64])]
    )
    assert product.outputs[0].shape == PartialShape([64, 64]) and product.outputs[0].value is None


# --- real values: a size times a scale ----------------------------------------------------


def _reals(values: list[float], element_type: str = "f32") -> Tensor:
    return Tensor(PartialShape([len(values)]), element_type, reals=tuple(values))


def test_a_real_value_converts_to_an_integer_truncated_toward_zero() -> None:
    # by experiment: Convert of f32 [2.5, 3.5, 2.7, -2.5] to i64 is [2, 3, 2, -2] (not rounded)
    result = run("Convert", "opset1", [_reals([2.5, 3.5, 2.7, -2.5])], destination_type="i64")
    assert result.outputs[0].value == (2, 3, 2, -2)
    # out of the target's range, as x86 converts (by experiment, f32 Consts through Convert):
    # through an int32 and wrapped (300.7 to u8 is 44, 3e9 to i32 is -2^31 and to u8 0), through
    # an int64 for u32, i64 and u64 (-5.5 to u32 is 4294967291, 1e20 to u64 0)
    cases = {"u8": (300.7, 44), "i32": (3e9, -(2**31)), "i8": (65535.9, -1), "u16": (70000.0, 4464)}
    cases |= {"u32": (3e9, 3000000000), "u64": (1e20, 0), "i64": (1e20, -(2**63))}
    assert run("Convert", "opset1", [_reals([-5.5])], destination_type="u32").outputs[0].value == (
        4294967291,
    )
    for target, (real, integer) in cases.items():
        wide = run("Convert", "opset1", [_reals([real])], destination_type=target)
        assert wide.outputs[0].value == (integer,), target
    assert run("Convert", "opset1", [_reals([3e9])], destination_type="u8").outputs[0].value == (0,)


def test_an_integer_converts_to_a_real_rounded_to_its_type() -> None:
    # 2^24 + 1 has no f32: the nearest (ties to even) is 2^24; f64 keeps it
    to_f32 = run("Convert", "opset1", [const([2**24 + 1, 5])], destination_type="f32")
    assert to_f32.outputs[0].reals == (16777216.0, 5.0)
    to_f64 = run("Convert", "opset1", [const([2**24 + 1])], destination_type="f64")
    assert to_f64.outputs[0].reals == (16777217.0,)


def test_a_real_product_is_the_f32_product() -> None:
    # 7 * 1.1 in f32: 1.1 is 1.10000002384185791015625, the product rounds to 7.70000028610229...
    scaled = run("Multiply", "opset1", [_reals([5.0, 7.0]), _reals([1.100000023841858])])
    assert scaled.outputs[0].reals == (5.5, 7.700000286102295)
    back = run("Convert", "opset1", [_reals(list(scaled.outputs[0].reals or ()))], destination_type="i64")
    assert back.outputs[0].value == (5, 7)
    # an f32 overflow is inf, as OpenVINO's evaluate gives it (a Minimum with 7 then gives 7:
    # tests/differential/test_real_ieee.py)
    assert run("Multiply", "opset1", [_reals([3e38]), _reals([2.0])]).outputs[0].reals == (math.inf,)
