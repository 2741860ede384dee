"""The layout ops' shape functions called directly (no XML): the arithmetic worked by hand.

The differential suite (tests/differential/test_layout.py) proves agreement with OpenVINO; these
tests show the rules behind a few answers: Reshape's -1 over intervals, values carried through
the shape subgraph ops, and IRS306 said once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from irshape.dims import DYNAMIC, Dim, PartialShape, parse_partial_shape
from irshape.ops.interface import OpCall, OpResult, Tensor
from irshape.ops.schema import ParsedAttributes, load_declaration
from irshape.shapes import layout


def _call(name: str, inputs: list[Tensor], **attributes: Any) -> OpResult:
    schema = load_declaration(f"{name}.toml")
    parsed = ParsedAttributes()
    parsed.values.update(attributes)
    infer = getattr(layout, schema.function)
    result: OpResult = infer(OpCall(schema, tuple(inputs), parsed))
    return result


def _t(shape: str, element_type: str = "f32", value: tuple[int, ...] | None = None) -> Tensor:
    return Tensor(parse_partial_shape(shape), element_type, value)


def _i64(*values: int) -> Tensor:
    return Tensor(PartialShape([len(values)]), "i64", tuple(values))


def _codes(result: OpResult) -> list[str]:
    return [f.rule.code for f in result.findings]


def test_reshape_minus_one_divides_the_interval_product() -> None:
    # in: 6..10 * 2 = 12..20; out: 4; -1 = ceil(12/4)..floor(20/4) = 3..5
    result = _call("Reshape-1", [_t("6..10,2"), _i64(-1, 4)])
    assert str(result.shape) == "[3..5,4]"
    assert not result.findings


def test_reshape_minus_one_interval_is_not_tidied() -> None:
    # in: 6..7 (1 is cancelled); max 7 // 4 = 1, min ceil(6/4) = 2: OpenVINO keeps 2..1
    result = _call("Reshape-1", [_t("6..7,1"), _i64(-1, 4)])
    assert result.shape.dims == (Dim(2, 1), Dim(4, 4))


def test_reshape_minus_one_on_a_dynamic_rank_is_at_least_one() -> None:
    # in = 1, out = 2 * ? = ?; max stays unbounded, min = ceil_div(1, inf) = 1
    result = _call("Reshape-1", [_t("..."), _i64(2, -1)])
    assert str(result.shape) == "[2,1..]"


def test_reshape_special_zero_copies_and_skips_the_count_check() -> None:
    assert str(_call("Reshape-1", [_t("2,3"), _i64(0, 7)], special_zero=True).shape) == "[2,7]"
    refused = _call("Reshape-1", [_t("2,3"), _i64(7)])
    assert _codes(refused) == ["IRS212"]
    assert "Requested output shape [7] is incompatible" in refused.findings[0].args["ov_message"]


def test_reshape_carries_the_value_of_a_small_integer_tensor() -> None:
    data = Tensor(PartialShape([6]), "i64", (1, 2, 3, 4, 5, 6))
    result = _call("Reshape-1", [data, _i64(2, -1)])
    assert str(result.shape) == "[2,3]"
    assert result.outputs[0].value == (1, 2, 3, 4, 5, 6)


def test_an_unknown_target_is_said_once_and_gives_its_length_in_dims() -> None:
    target = Tensor(PartialShape([3]), "i64", value_unknown="it is a Parameter")
    result = _call("Reshape-1", [_t("2,3,4"), target])
    assert result.shape == PartialShape.dynamic(3)
    assert _codes(result) == ["IRS306"]
    said = Tensor(PartialShape([3]), "i64", value_unknown="the .bin is missing", value_reported=True)
    assert _call("Reshape-1", [_t("2,3,4"), said]).findings == []


def test_concat_values_and_interval_merge() -> None:
    joined = _call("Concat-1", [_i64(1, 2), _i64(3)], axis=0)
    assert joined.outputs[0].value == (1, 2, 3)
    merged = _call("Concat-1", [_t("2..5,3"), _t("3..8,4"), _t("...")], axis=-1)
    assert merged.shape.dims == (Dim(3, 5), Dim(7, 2**63 - 1))


def test_transpose_moves_a_value_and_reverses_on_an_empty_order() -> None:
    data = Tensor(PartialShape([2, 3]), "i32", (1, 2, 3, 4, 5, 6))
    result = _call("Transpose-1", [data, _i64()])
    assert str(result.shape) == "[3,2]"
    assert result.outputs[0].value == (1, 4, 2, 5, 3, 6)


def test_split_and_variadic_split_cut_the_value() -> None:
    data = Tensor(PartialShape([6]), "i64", (1, 2, 3, 4, 5, 6))
    axis = Tensor(PartialShape([]), "i64", (0,))
    parts = _call("Split-1", [data, axis], num_splits=3)
    assert [o.value for o in parts.outputs] == [(1, 2), (3, 4), (5, 6)]
    variadic = _call("VariadicSplit-1", [data, axis, _i64(1, -1)])
    assert [str(o.shape) for o in variadic.outputs] == ["[1]", "[5]"]
    assert variadic.outputs[1].value == (2, 3, 4, 5, 6)


def test_split_of_an_interval_floors_both_bounds() -> None:
    axis = Tensor(PartialShape([]), "i64", (1,))
    assert str(_call("Split-1", [_t("4,5..7"), axis], num_splits=3).shape) == "[4,1..2]"


def test_unsqueeze_past_the_end_appends_and_squeeze_of_one_unknown_axis_drops_the_rank() -> None:
    assert str(_call("Unsqueeze-1", [_t("2,3,4"), _i64(4, -1)]).shape) == "[2,3,4,1]"
    unknown = Tensor(PartialShape([1]), "i64")
    assert _call("Squeeze-1", [_t("1,2,1"), unknown]).shape == PartialShape.dynamic(2)
    assert _call("Squeeze-15", [_t("1,2,1"), unknown]).shape == PartialShape(None)


def test_pad_below_zero_is_dynamic_and_intervals_shift() -> None:
    # 2 - 3 < 0: OpenVINO's calc_dim gives -1, a dynamic dim; 2..5 - 3 + 0 = ..2
    result = _call("Pad-12", [_t("2,2..5"), _i64(-3, -3), _i64(0, 0)], pad_mode="constant")
    assert result.shape.dims == (DYNAMIC, Dim(0, 2))


def test_depth_to_space_divides_channels_by_block_to_the_spatial_rank() -> None:
    result = _call("DepthToSpace-1", [_t("1,5..16,2..3,3")], block_size=2, mode="depth_first")
    assert str(result.shape) == "[1,2..4,4..6,6]"
    refused = _call("DepthToSpace-1", [_t("1,9,2,2,2")], block_size=3, mode="depth_first")
    assert (
        refused.findings[0].args["ov_message"] == "Dimension value: [ 9, 9] must be a multiple of divisor: 27"
    )


def test_the_arithmetic_behind_a_dim_is_kept_for_the_declared_dim_message() -> None:
    assert _call("Reshape-1", [_t("2,3,4"), _i64(4, -1)]).outputs[0].formulas == ["", "24 / 4"]
    assert _call("Concat-1", [_t("2,3"), _t("2,4")], axis=1).outputs[0].formulas == ["", "3 + 4"]
    padded = _call("Pad-1", [_t("2,3"), _i64(0, 1), _i64(0, 2)], pad_mode="constant")
    assert padded.outputs[0].formulas == ["", "3 + 1 + 2"]


def _tensor(array: np.ndarray) -> Tensor:
    return Tensor(PartialShape(array.shape), "i64", tuple(int(v) for v in array.reshape(-1)))


def test_values_move_as_numpy_moves_them() -> None:
    a = np.arange(24).reshape(2, 3, 4)
    b = np.arange(100, 108).reshape(2, 1, 4)
    empty = np.zeros((2, 0, 4), dtype=np.int64)
    joined = _call("Concat-1", [_tensor(a), _tensor(b), _tensor(empty)], axis=1)
    assert joined.outputs[0].value == tuple(np.concatenate([a, b, empty], axis=1).reshape(-1))
    for order in ([2, 0, 1], [1, 2, 0], [0, 2, 1]):
        moved = _call("Transpose-1", [_tensor(a), _i64(*order)])
        assert moved.outputs[0].value == tuple(a.transpose(order).reshape(-1))
    axis = Tensor(PartialShape([]), "i64", (2,))
    parts = _call("VariadicSplit-1", [_tensor(a), axis, _i64(1, 0, 3)])
    expected = np.split(a, [1, 1], axis=2)
    assert [o.value for o in parts.outputs] == [tuple(e.reshape(-1)) for e in expected]
