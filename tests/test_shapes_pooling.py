"""The pooling shape functions called directly (no XML), with hand-worked expectations: the
window arithmetic under each auto_pad, and the three rounding types.

out = round((data + pads_begin + pads_end - ((kernel - 1) * dilation + 1)) / stride) + 1, where
round is floor or ceil; ceil_torch is ceil without the last window when that window would
start in the end padding (its start, steps * stride, is past data + pads_begin - 1)."""

from __future__ import annotations

from typing import Any

import pytest

from irshape.diagnostics import Diagnostic, Location
from irshape.dims import parse_partial_shape
from irshape.ops.interface import ConstTensor, OpCall, OpResult, Tensor
from irshape.ops.schema import load_declaration, validate_attributes
from irshape.shapes import pooling


def _call(
    op: str, data: str, attributes: dict[str, str], *more: Tensor, element_type: str = "f32"
) -> OpResult:
    schema = load_declaration(f"{op}.toml")
    reported: list[Diagnostic] = []
    parsed = validate_attributes(schema, attributes, Location("test.xml"), reported.append)
    assert not reported, [d.message for d in reported]
    inputs = (Tensor(parse_partial_shape(data), element_type), *more)
    function = pooling.adaptive_pool if op.startswith("Adaptive") else pooling.pool
    return function(OpCall(schema, inputs, parsed))


def _window(kernel: str, strides: str, pads: tuple[str, str] = ("0", "0"), **more: str) -> dict[str, str]:
    return {"kernel": kernel, "strides": strides, "pads_begin": pads[0], "pads_end": pads[1], **more}


def _shape(result: OpResult, port: int = 0) -> str:
    return str(result.outputs[port].shape)


@pytest.mark.parametrize(
    ("data", "kernel", "stride", "pads", "rounding", "expected"),
    [
        # floor((10 + 1 + 1 - 3) / 2) + 1 = floor(4.5) + 1 = 5; ceil: 6
        ("1,1,10", "3", "2", ("1", "1"), "floor", "[1,1,5]"),
        ("1,1,10", "3", "2", ("1", "1"), "ceil", "[1,1,6]"),
        # ceil_torch: steps ceil(9 / 2) = 5; the 6th window starts at 5*2 = 10, not past 10+1-1: kept, 6
        ("1,1,10", "3", "2", ("1", "1"), "ceil_torch", "[1,1,6]"),
        # ceil((10 + 0 + 2 - 2) / 3) + 1 = 5; ceil_torch: the 5th window starts at 4*3 = 12 > 10+0-1: 4
        ("1,1,10", "2", "3", ("0", "2"), "ceil", "[1,1,5]"),
        ("1,1,10", "2", "3", ("0", "2"), "ceil_torch", "[1,1,4]"),
        # floor((9 + 0 + 2 - 2) / 3) + 1 = 4, and ceil_torch drops ceil's 4th window: 3
        ("1,1,9", "2", "3", ("0", "2"), "floor", "[1,1,4]"),
        ("1,1,9", "2", "3", ("0", "2"), "ceil_torch", "[1,1,3]"),
        # intervals: (2..10 + 2 - 3) = 1..9, floor / 2 = 0..4, + 1 = 1..5; ceil 1..5 + 1 = 2..6
        ("1,1,2..10", "3", "2", ("1", "1"), "floor", "[1,1,1..5]"),
        ("1,1,2..10", "3", "2", ("1", "1"), "ceil", "[1,1,2..6]"),
        # ? + 2 - 3 = 0.., / 2 = 0.., + 1 = 1..
        ("1,1,?", "3", "2", ("1", "1"), "ceil_torch", "[1,1,1..]"),
        # 2D: floor((8 - 2) / 2) + 1 = 4 and floor((6 - 3) / 1) + 1 = 4
        ("2,3,8,6", "2,3", "2,1", ("0,0", "0,0"), "floor", "[2,3,4,4]"),
    ],
)
def test_the_spatial_formula_with_each_rounding(
    data: str, kernel: str, stride: str, pads: tuple[str, str], rounding: str, expected: str
) -> None:
    result = _call("MaxPool-14", data, _window(kernel, stride, pads, rounding_type=rounding))
    assert _shape(result) == expected
    assert not result.findings


def test_same_padding_with_ceil_can_exceed_the_convolution_size() -> None:
    # same_upper pads max(0, (ceil(10/5) - 1)*5 + 1 - 10) = 0, so ceil((10 - 1) / 5) + 1 = 3,
    # where a convolution would give ceil(10 / 5) = 2 (floor gives 2 here too).
    attributes = _window("1", "5", auto_pad="same_upper", rounding_type="ceil")
    assert _shape(_call("AvgPool-1", "1,1,10", attributes)) == "[1,1,3]"
    attributes["rounding_type"] = "floor"
    assert _shape(_call("AvgPool-1", "1,1,10", attributes)) == "[1,1,2]"


def test_same_padding_of_a_dim_that_is_not_static_is_dynamic() -> None:
    result = _call("MaxPool-1", "1,1,2..10,?", _window("3,3", "2,2", ("0,0", "0,0"), auto_pad="same_lower"))
    assert _shape(result) == "[1,1,?,?]"


def test_valid_ignores_the_pads() -> None:
    # floor((10 - 3) / 1) + 1 = 8, the pads 5 + 5 unused
    result = _call("MaxPool-1", "1,1,10", _window("3", "1", ("5", "5"), auto_pad="valid"))
    assert _shape(result) == "[1,1,8]"


def test_dilations_widen_the_window() -> None:
    # (3 - 1) * 2 + 1 = 5; floor((10 - 5) / 1) + 1 = 6
    result = _call("MaxPool-8", "1,1,10", _window("3", "1", dilations="2"))
    assert _shape(result) == "[1,1,6]"
    result = _call("AvgPool-16", "1,1,10", _window("3", "1", dilations="2"))
    assert _shape(result) == "[1,1,6]"


def test_data_of_dynamic_rank_gives_the_kernel_rank_plus_two() -> None:
    result = _call("MaxPool-8", "...", _window("3,3,3", "1,1,1", ("0,0,0", "0,0,0")))
    assert [_shape(result, 0), _shape(result, 1)] == ["[?,?,?,?,?]", "[?,?,?,?,?]"]


def test_maxpool_indices_take_the_index_element_type() -> None:
    result = _call("MaxPool-14", "1,3,10", _window("3", "1", index_element_type="i32"), element_type="f16")
    assert [o.element_type for o in result.outputs] == ["f16", "i32"]
    assert _shape(result, 1) == "[1,3,8]"


def test_a_zero_kernel_on_a_dim_that_is_not_static_is_not_checked() -> None:
    # OpenVINO's dilated kernel is SIZE_MAX, read back as a dynamic dim: 2..5 - ? = 0..5, + 1 = 1..6
    result = _call("MaxPool-14", "1,1,2..5", _window("0", "1"))
    assert _shape(result) == "[1,1,1..6]"
    assert _codes(_call("MaxPool-14", "1,1,5", _window("0", "1"))) == ["IRS210"]


def _codes(result: OpResult) -> list[str]:
    return [f.rule.code for f in result.findings]


@pytest.mark.parametrize(
    ("op", "data", "attributes", "codes"),
    [
        ("MaxPool-1", "1,1,10", _window("3", "1", rounding_type="ceil_torch"), ["IRS112"]),
        ("AvgPool-14", "1,1,10", _window("3", "1", ("3", "0"), **{"exclude-pad": "true"}), ["IRS112"]),
        ("AvgPool-14", "1,1,10", _window("3", "1", ("3", "0"), **{"exclude-pad": "false"}), []),
        ("MaxPool-8", "1,1,10", _window("3", "1", axis="3"), ["IRS112"]),
        ("MaxPool-8", "1,1,10", _window("3", "1", axis="-3"), []),
        ("MaxPool-8", "1,1,10", _window("3", "0"), ["IRS108"]),
        ("MaxPool-8", "1,1,10", _window("3", "1", dilations="0"), ["IRS108"]),
        ("MaxPool-8", "1,1,10", _window("3", "1,1"), ["IRS106"]),
        ("MaxPool-8", "1,1,10", _window("3", "1", ("", "")), []),  # empty pads are zeros
        ("MaxPool-8", "1,1,10,10", _window("3", "1"), ["IRS106"]),  # the kernel against the rank
        ("MaxPool-8", "1,10", _window("3", "1"), ["IRS202"]),
        ("MaxPool-8", "0,1,10", _window("3", "1"), ["IRS212"]),
        ("MaxPool-8", "1,1,2", _window("3", "1"), ["IRS210"]),
        # pads are size_t: a sum of -1 reads back as a dynamic dim, which a static dim cannot take
        ("MaxPool-14", "1,1,10", _window("3", "1", ("-1", "0")), ["IRS112"]),
    ],
)
def test_what_openvino_rejects(op: str, data: str, attributes: dict[str, str], codes: list[str]) -> None:
    assert _codes(_call(op, data, attributes)) == codes


def _target(shape: str, value: tuple[int, ...] | None = None, **more: Any) -> Tensor:
    """A Const layer's output (or, with no value, a Parameter's)."""
    return ConstTensor(parse_partial_shape(shape), "i64", value, **more)


def test_adaptive_output_shape_values_are_read_as_dimensions() -> None:
    # -1 is a dynamic dim, as Dimension(-1) is
    result = _call("AdaptiveMaxPool-8", "1,3,10,10", {"index_element_type": "i32"}, _target("2", (4, -1)))
    assert [_shape(result, 0), _shape(result, 1)] == ["[1,3,4,?]", "[1,3,4,?]"]
    assert [o.element_type for o in result.outputs] == ["f32", "i32"]


def test_adaptive_output_shape_computed_below_zero_fails_as_evaluated() -> None:
    # a value an op computes is read by evaluate_as_partial_shape: -1 fails there
    computed = Tensor(parse_partial_shape("2"), "i64", (4, -1))
    result = _call("AdaptiveMaxPool-8", "1,3,10,10", {"index_element_type": "i32"}, computed)
    assert _codes(result) == ["IRS214"]
    assert (
        result.findings[0].args["ov_message"]
        == "Value for partial shape evaluation can't be lower than zero."
    )


def test_adaptive_output_shape_unknown_says_so_once() -> None:
    result = _call("AdaptiveAvgPool-8", "1..2,3,10", {}, _target("1"))
    assert _shape(result) == "[1..2,3,?]"
    assert _codes(result) == ["IRS306"]
    reported = _call("AdaptiveAvgPool-8", "1,3,10", {}, _target("1", value_reported=True))
    assert _codes(reported) == []


@pytest.mark.parametrize(
    ("data", "target", "codes"),
    [
        ("1,3,10,10", _target("3", (1, 2, 3)), ["IRS212"]),
        ("1,3,10,10", _target("", (2,)), ["IRS211"]),
        ("1,3", _target("2", (2, 2)), ["IRS202"]),
    ],
)
def test_adaptive_rejections(data: str, target: Tensor, codes: list[str]) -> None:
    assert _codes(_call("AdaptiveAvgPool-8", data, {}, target)) == codes


def test_negative_pads_below_minus_one_count_as_zero() -> None:
    # 10 + (size_t)(-2) reads back as Dimension(-2) = 0: floor((10 + 0 - 3) / 1) + 1 = 8
    result = _call("MaxPool-14", "1,1,10", _window("3", "1", ("-2", "0")))
    assert _shape(result) == "[1,1,8]"
    assert _codes(result) == ["IRS110"]
