"""Value bounds (irshape.shapes.bounds) and the ops that make, move and read them, called
directly (no XML): each expectation worked by hand from OpenVINO's rules (bound_evaluate.cpp's
interval evaluator, divide.cpp, convert.cpp, reduce_prod.cpp, shape_of.cpp and
``evaluate_as_partial_shape``). tests/differential/test_bounds.py proves agreement with
OpenVINO on generated subgraphs.
"""

from __future__ import annotations

import math
import operator
from pathlib import Path
from typing import Any

from irshape.dims import INF, Dim, PartialShape, parse_partial_shape
from irshape.ops.interface import ConstTensor, OpCall, OpResult, Tensor
from irshape.ops.registry import shape_function
from irshape.ops.schema import ParsedAttributes, load_declaration
from irshape.shapes import bounds

I32_MAX = 2**31 - 1
I64_MAX = 2**63 - 1


def _bounded(lower: tuple[int, ...], upper: tuple[int, ...], element_type: str = "i64") -> Tensor:
    return Tensor(PartialShape([len(lower)]), element_type, lower=lower, upper=upper)


def _exact(*values: int, element_type: str = "i64") -> Tensor:
    return Tensor(PartialShape([len(values)]), element_type, tuple(values))


def _call(name: str, inputs: list[Tensor], **attributes: Any) -> OpResult:
    schema = load_declaration(f"{name}.toml")
    parsed = ParsedAttributes()
    parsed.values.update(attributes)
    infer = shape_function(schema.family, schema.function)
    return infer(OpCall(schema, tuple(inputs), parsed))


# --- the helpers -------------------------------------------------------------------------------


def test_type_maxima_are_cpp_numeric_limits() -> None:
    assert bounds.type_max("i64") == I64_MAX
    assert bounds.type_max("i32") == I32_MAX
    assert bounds.type_max("u8") == 255
    assert bounds.type_max("boolean") == 1
    assert bounds.type_max("f32") is None


def test_an_exact_value_is_its_own_bounds() -> None:
    assert bounds.of(_exact(3, 4)) == ((3, 4), (3, 4))
    assert bounds.of(Tensor(PartialShape([2]), "i64")) is None


def test_bounds_read_as_dimensions_with_the_maximum_unbounded() -> None:
    # i64: INT64_MAX is Interval::s_max; i32: INT32_MAX is read as unbounded where lo != hi
    assert bounds.as_dims(_bounded((2, 0), (10, I64_MAX))) == [Dim(2, 10), Dim(0, INF)]
    assert bounds.as_dims(_bounded((2, 5), (10, I32_MAX), "i32")) == [Dim(2, 10), Dim(5, INF)]
    assert bounds.as_dims(_exact(7)) == [Dim(7, 7)]
    # a negative bound fails OpenVINO's assertion: no shape from it
    assert bounds.as_dims(_bounded((-1,), (5,))) is None


def test_interval_evaluator_takes_the_extremes_of_the_four_pairings() -> None:
    s, three = _bounded((2,), (10,)), _exact(3)
    assert bounds.interval(operator.add, [s, three], [1], "i64") == ((5,), (13,))
    assert bounds.interval(operator.mul, [s, _exact(2)], [1], "i64") == ((4,), (20,))
    # 10 - [2..5]: 10-5 = 5 .. 10-2 = 8
    assert bounds.interval(operator.sub, [_exact(10), _bounded((2,), (5,))], [1], "i64") == ((5,), (8,))


def test_interval_evaluator_makes_an_unbounded_input_fully_unknown() -> None:
    # [5..INT64_MAX] + 3: the upper bound is the maximum, so the result is [0, max], lower too
    result = bounds.interval(operator.add, [_bounded((5,), (I64_MAX,)), _exact(3)], [1], "i64")
    assert result == ((0,), (I64_MAX,))


def test_interval_evaluator_broadcasts_the_mask() -> None:
    shape = _bounded((1, 4), (1, I64_MAX))
    assert bounds.interval(operator.add, [shape, _exact(1)], [2], "i64") == ((2, 0), (2, I64_MAX))


def test_divide_bounds_for_positive_negative_and_straddling_divisors() -> None:
    s = _bounded((3,), (7,))
    assert bounds.divided([s, _bounded((2,), (3,))], [1], True, "i64") == ((1,), (3,))  # 3//3, 7//2
    assert bounds.divided([s, _exact(-2)], [1], True, "i64") == ((-4,), (-2,))  # 7//-2, 3//-2
    assert bounds.divided([s, _bounded((-1,), (2,))], [1], True, "i64") == ((-(2**63),), (I64_MAX,))
    assert bounds.divided([_bounded((3,), (I64_MAX,)), _exact(2)], [1], True, "i64") == ((0,), (I64_MAX,))


def test_convert_maps_the_maximum_to_the_maximum() -> None:
    assert bounds.converted(_bounded((1,), (I64_MAX,)), "i32") == ((1,), (I32_MAX,))
    assert bounds.converted(_bounded((1,), (I32_MAX,), "i32"), "i64") == ((1,), (I64_MAX,))
    # to a 16-bit type the cast alone: INT64_MAX wraps to -1
    assert bounds.converted(_bounded((1,), (I64_MAX,)), "i16") == ((1,), (-1,))


def test_reduce_prod_bounds() -> None:
    def product(bound: tuple[int, ...]) -> tuple[int, ...]:
        return (math.prod(bound),)

    assert bounds.product_bounds(_bounded((1, 2), (1, 128)), product) == ((2,), (128,))
    assert bounds.product_bounds(_bounded((2, 1), (2, I64_MAX)), product) == ((2,), (I64_MAX,))
    # below zero: the products all the same, even a lower one above the upper one (by
    # experiment against read_model: tests/differential/test_product_bounds.py)
    assert bounds.product_bounds(_bounded((-1, 1), (2, 3)), product) == ((-1,), (6,))
    assert bounds.product_bounds(_bounded((-4, -1), (-1, 1)), product) == ((4,), (-1,))


# --- the ops -----------------------------------------------------------------------------------


def test_shape_of_gives_the_min_and_max_shapes() -> None:
    data = Tensor(parse_partial_shape("1..4,3,?"), "f32")
    (out,) = _call("ShapeOf-3", [data], output_type="i32").outputs
    assert out.value is None
    assert (out.lower, out.upper) == ((1, 3, 0), (4, 3, I32_MAX))


def test_gather_moves_bounds_and_a_static_element_becomes_exact() -> None:
    shape = _bounded((1, 3, 0), (4, 3, I64_MAX))
    (picked,) = _call("Gather-8", [shape, _exact(1), Tensor(PartialShape([]), "i64", (0,))]).outputs
    assert picked.value == (3,)
    (both,) = _call("Gather-8", [shape, _exact(0, 2), Tensor(PartialShape([]), "i64", (0,))]).outputs
    assert (both.lower, both.upper) == ((1, 0), (4, I64_MAX))


def test_gather_by_bounded_indices_moves_nothing() -> None:
    # Gather's indices must be exact (has_and_set_bound), else no bounds
    shape = _bounded((1, 3), (4, 3))
    (out,) = _call("Gather-8", [shape, _bounded((0,), (1,)), Tensor(PartialShape([]), "i64", (0,))]).outputs
    assert out.value is None and out.lower is None


def test_concat_joins_bounds_and_values() -> None:
    (out,) = _call("Concat-1", [_bounded((1,), (4,)), _exact(-1, 8)], axis=0).outputs
    assert (out.lower, out.upper) == ((1, -1, 8), (4, -1, 8))


def test_broadcast_reads_its_target_from_bounds() -> None:
    scalar = Tensor(PartialShape([]), "f32")
    result = _call("Broadcast-3", [scalar, _bounded((2, 0), (10, I64_MAX))], mode="numpy")
    assert str(result.shape) == "[2..10,?]"


def test_reshape_reads_its_pattern_from_bounds() -> None:
    # [1..4, -1, 8] over 1..4 x 2..6 x 64: no symbols, so d0 does not cancel:
    # in 1..4 * 2..6 * 64 = 128..1536; out (1..4) * 8 = 8..32; -1 = ceil(128/32)..1536/8 = 4..192
    data = Tensor(parse_partial_shape("1..4,2..6,64"), "f32")
    result = _call("Reshape-1", [data, _bounded((1, -1, 8), (4, -1, 8))], special_zero=False)
    assert str(result.shape) == "[1..4,4..192,8]"


def test_reshape_pattern_with_one_negative_bound_is_any_length() -> None:
    data = Tensor(parse_partial_shape("?"), "f32")
    result = _call("Reshape-1", [data, _bounded((-2,), (3,))], special_zero=False)
    assert str(result.shape) == "[?]"
    assert not result.findings


def test_topk_k_from_bounds() -> None:
    data = Tensor(parse_partial_shape("7..30"), "f32")
    k = Tensor(PartialShape([]), "i64", lower=(5,), upper=(10,))
    result = _call("TopK-11", [data, k], axis=0, mode="max", sort="value", index_element_type="i32")
    assert [str(o.shape) for o in result.outputs] == ["[5..10]", "[5..10]"]


def test_pad_reads_its_pads_from_bounds() -> None:
    # 4 + [1..3] + 0 = 5..7; a pad of [0, max] makes the upper bound unbounded: 4 + 0.. = 4..
    data = Tensor(parse_partial_shape("4"), "f32")
    zero = _exact(0)
    assert str(_call("Pad-12", [data, _bounded((1,), (3,)), zero], pad_mode="constant").shape) == "[5..7]"
    unbounded = _bounded((0,), (I64_MAX,))
    assert str(_call("Pad-12", [data, unbounded, zero], pad_mode="constant").shape) == "[4..]"


def test_slice_by_bounded_stop() -> None:
    from irshape.shapes.slicing import bounded_sliced_dim

    # 0:[3..7] of 10 takes 3 to 7 elements
    assert bounded_sliced_dim(Dim(10, 10), (0, 0), (3, 7), 1) == Dim(3, 7)
    # a stop of [-2..3] crosses zero: cut to 0 (lower) and -1 (upper): 0:0 takes 0, 0:-1 takes 9
    assert bounded_sliced_dim(Dim(10, 10), (0, 0), (-2, 3), 1) == Dim(0, 9)


# --- the rules of the ops with bounds of their own (mod.cpp, abs.cpp, equal.cpp, ...) ----------


def test_mod_bounds_follow_mod_interval() -> None:
    # [3..7] % 4: 3 % 4 = 3 and 7 % 4 = 3, but the range spans 4 values: [0, 3]
    # [2..2] % [3..5]: 2 % 3 = 2, 2 % 5 = 2; v2 = 2, half 1: m1 = 3 is not below: [2, 2]
    # [9..9] % [2..5]: 9 % 2 = 1, 9 % 5 = 4 -> [1, 4]; one value, divisors 3 apart, half 4:
    #   m1 = 2 < 4 -> lower 0; 4 < m2 = 5 < 9 -> upper 9 % (4 + 1) = 4
    result = _call("Mod-1", [_bounded((3, 2, 9), (7, 2, 9)), _bounded((4, 3, 2), (4, 5, 5))])
    (out,) = result.outputs
    assert (out.lower, out.upper) == ((0, 2, 0), (3, 2, 4))


def test_mod_by_a_divisor_with_a_zero_bound_or_an_unbounded_dividend_is_unknown() -> None:
    result = _call("Mod-1", [_bounded((3, 3), (7, I64_MAX)), _bounded((0, 2), (4, 2))])
    (out,) = result.outputs
    assert (out.lower, out.upper) == ((0, 0), (I64_MAX, I64_MAX))


def test_floor_mod_and_power_use_the_interval_evaluator() -> None:
    # FloorMod [3..7] % 4: the pairings give 3 and 3 -> exactly 3 (OpenVINO: no range check)
    (mod,) = _call("FloorMod-1", [_bounded((3, 2), (7, 9)), _exact(4, 3)]).outputs
    assert (mod.lower, mod.upper) == ((3, 0), (3, 2))
    (power,) = _call("Power-1", [_bounded((2,), (9,)), _exact(2)]).outputs
    assert (power.lower, power.upper) == ((4,), (81,))


def test_abs_bounds_are_the_lesser_and_greater_abs_of_the_bounds() -> None:
    # [-3..4] -> |-3| = 3, |4| = 4: [3, 4] (OpenVINO does not widen to 0 across zero)
    (out,) = _call("Abs-1", [_bounded((-3, -2), (4, -1))]).outputs
    assert (out.lower, out.upper) == ((3, 1), (4, 2))


def test_equal_bounds_are_known_where_the_bounds_cannot_meet() -> None:
    # [2..9] == 1: cannot meet -> false exactly; [3..7] == 5: [false, true]; [4..4] == 4: true
    (out,) = _call("Equal-1", [_bounded((2, 3, 4), (9, 7, 4)), _exact(1, 5, 4)]).outputs
    assert (out.lower, out.upper) == ((0, 0, 1), (0, 1, 1))


def test_reduce_max_and_min_reduce_each_bound() -> None:
    axes = _exact(0)
    data = _bounded((2, 3, 0), (9, 7, I64_MAX))
    (high,) = _call("ReduceMax-1", [data, axes], keep_dims=True).outputs
    assert (high.lower, high.upper) == ((3,), (I64_MAX,))
    (low,) = _call("ReduceMin-1", [data, axes], keep_dims=True).outputs
    assert (low.lower, low.upper) == ((0,), (7,))


def test_convert_through_boolean_keeps_zero_and_one() -> None:
    # boolean is integral and 8 bits wide: no maximum translation either way
    to_bool = bounds.converted(_bounded((0, 2), (I64_MAX, 9)), "boolean")
    assert to_bool == ((0, 1), (1, 1))
    assert bounds.converted(_bounded((0, 1), (1, 1), "boolean"), "i32") == ((0, 1), (1, 1))


def test_strided_slice_begin_from_bounds() -> None:
    # begin [2..9] of 10 to 100: 10 - 9 = 1 up to 10 - 2 = 8 elements
    data = Tensor(parse_partial_shape("10"), "f32")
    result = _call(
        "StridedSlice-1",
        [data, _bounded((2,), (9,)), _exact(100), _exact(1)],
        begin_mask=[0],
        end_mask=[0],
    )
    assert str(result.shape) == "[1..8]"


# --- values fold only for the element types OpenVINO's evaluate takes ---------------------------


def test_ops_fold_no_value_of_a_type_their_evaluate_does_not_take() -> None:
    # Multiply takes no 8-bit type, Gather no 16-bit one, Negative only i32 and i64
    (product,) = _call(
        "Multiply-1", [_exact(3, 2, element_type="i8"), _exact(2, 2, element_type="i8")]
    ).outputs
    assert product.value is None
    (product,) = _call(
        "Multiply-1", [_exact(3, 2, element_type="i32"), _exact(2, 2, element_type="i32")]
    ).outputs
    assert product.value == (6, 4)
    axis = Tensor(PartialShape([]), "i64", (0,))
    (picked,) = _call("Gather-8", [_exact(3, 2, element_type="i16"), _exact(1), axis]).outputs
    assert picked.value is None
    (picked,) = _call("Gather-8", [_exact(3, 2, element_type="i8"), _exact(1), axis]).outputs
    assert picked.value == (2,)
    (negated,) = _call("Negative-1", [_exact(3, element_type="u32")]).outputs
    assert negated.value is None
    (total,) = _call("ReduceSum-1", [_exact(3, 2, element_type="u8"), _exact(0)], keep_dims=True).outputs
    assert total.value is None
    # FloorMod takes no 16-bit type, Power no 8 or 16-bit one: neither values nor bounds
    (mod,) = _call("FloorMod-1", [_bounded((3, 2), (7, 9), "i16"), _exact(4, 3, element_type="i16")]).outputs
    assert mod.value is None and mod.lower is None
    (power,) = _call("Power-1", [_exact(3, 2, element_type="u8"), _exact(2, 2, element_type="u8")]).outputs
    assert power.value is None
    (power,) = _call("Power-1", [_bounded((2,), (9,), "i8"), _exact(2, element_type="i8")]).outputs
    assert power.lower is None


def test_bitwise_ops_fold_nothing() -> None:
    # OpenVINO's BitwiseAnd of two i64 Consts as a Broadcast's target gives [?,?]
    (out,) = _call("BitwiseAnd-13", [_exact(3, 6), _exact(1, 7)]).outputs
    assert out.value is None


def test_interval_bounds_need_a_type_reduce_min_and_max_take() -> None:
    # Add takes u16 and u8, but the interval evaluator's ReduceMin/ReduceMax no 16-bit type
    (wide,) = _call("Add-1", [_bounded((2, 3), (5, 3), "u16"), _exact(1, 1, element_type="u16")]).outputs
    assert wide.value is None and wide.lower is None
    (narrow,) = _call("Add-1", [_bounded((2, 3), (5, 3), "u8"), _exact(1, 1, element_type="u8")]).outputs
    assert (narrow.lower, narrow.upper) == ((3, 4), (6, 4))


def test_equal_of_8_or_16_bit_bounds_has_none() -> None:
    # Equal's evaluate_upper compares with LessEqual, which takes no 8 or 16-bit type
    (small,) = _call("Equal-1", [_bounded((2, 3), (5, 3), "i8"), _exact(1, 3, element_type="i8")]).outputs
    assert small.value is None and small.lower is None
    (wide,) = _call("Equal-1", [_bounded((2, 3), (5, 3), "i32"), _exact(1, 3, element_type="i32")]).outputs
    assert wide.value == (0, 1)  # [2..5] cannot be 1, 3 is 3: known exactly


# --- boolean Consts: one byte an element, read as OpenVINO reads it -------------------------------


def test_a_boolean_const_reads_its_bytes_as_signed_chars(tmp_path: Path) -> None:
    from irshape.ir.weights import Weights

    path = tmp_path / "model.bin"
    path.write_bytes(bytes([7, 2, 0, 255, 1]))
    assert Weights(path).read_integers("boolean", 4, 1, 4) == (2, 0, -1, 1)


def _boolean(*values: int) -> Tensor:
    return Tensor(PartialShape([len(values)]), "boolean", tuple(values))


def test_select_under_a_boolean_const_moves_bounds() -> None:
    # any byte but 0 is true: [2, 0] picks the ShapeOf's [1..4] and the else's 7
    shape = _bounded((1, 3), (4, 3))
    (out,) = _call("Select-1", [_boolean(2, 0), shape, _exact(7, 7)]).outputs
    assert (out.lower, out.upper) == ((1, 7), (4, 7))


def test_boolean_bytes_move_unchanged_and_convert_as_signed_chars() -> None:
    (spread,) = _call("Broadcast-3", [_boolean(2), _exact(3)], mode="numpy").outputs
    assert spread.value == (2, 2, 2)  # copied, not cast: a Convert to i64 after it gives 2
    (chosen,) = _call("Select-1", [_boolean(1, 0), _boolean(4, 4), _boolean(6, 6)]).outputs
    assert chosen.value == (4, 6)
    (wide,) = _call("Convert-1", [_boolean(-1, 2, 0)], destination_type="i64").outputs
    assert wide.value == (-1, 2, 0)
    (small,) = _call("Convert-1", [_boolean(-1, 2, 0)], destination_type="u8").outputs
    assert small.value == (255, 2, 0)


def test_logical_ops_take_any_byte_but_0_as_true() -> None:
    (negated,) = _call("LogicalNot-1", [_boolean(2, 0, -128)]).outputs
    assert negated.value == (0, 1, 0)
    (both,) = _call("LogicalAnd-1", [_boolean(2, 3, 0), _boolean(4, 0, 5)]).outputs
    assert both.value == (1, 0, 0)
    (anyone,) = _call("ReduceLogicalOr-1", [_boolean(0, 0, 9), _exact(0)], keep_dims=True).outputs
    assert anyone.value == (1,)
    (every,) = _call("ReduceLogicalAnd-1", [_boolean(3, -1, 9), _exact(0)], keep_dims=True).outputs
    assert every.value == (1,)


def test_comparisons_compare_the_bytes() -> None:
    # Equal(2, 1) is false though both are true; Less(-1, 1) is true (a signed char)
    (same,) = _call("Equal-1", [_boolean(2, 1), _boolean(1, 1)]).outputs
    assert same.value == (0, 1)
    (less,) = _call("Less-1", [_boolean(-1, 2), _boolean(1, 1)]).outputs
    assert less.value == (1, 0)


# --- the scatters: as OpenVINO's reference writes them ------------------------------------------


def _indices(*values: int, nd: bool = False) -> Tensor:
    if nd:
        return Tensor(PartialShape([len(values), 1]), "i64", values)
    return _exact(*values)


AXIS_0 = Tensor(PartialShape([]), "i64", (0,))


def test_a_repeated_index_takes_the_last_update() -> None:
    data, updates = _exact(10, 20, 30), _exact(5, 7)
    (out,) = _call("ScatterUpdate-3", [data, _indices(0, 0), updates, AXIS_0]).outputs
    assert out.value == (7, 20, 30)
    (out,) = _call("ScatterNDUpdate-3", [data, _indices(1, 1, nd=True), updates]).outputs
    assert out.value == (10, 7, 30)


def test_negative_indices_count_from_the_end_but_in_scatter_update() -> None:
    data, update = _exact(10, 20, 30), _exact(5)
    (out,) = _call("ScatterElementsUpdate-3", [data, _indices(-1), update, AXIS_0]).outputs
    assert out.value == (10, 20, 5)
    (out,) = _call("ScatterNDUpdate-3", [data, _indices(-3, nd=True), update]).outputs
    assert out.value == (5, 20, 30)
    # ScatterUpdate's reference refuses a negative index (read_model fails): nothing folds
    (out,) = _call("ScatterUpdate-3", [data, _indices(-1), update, AXIS_0]).outputs
    assert out.value is None
    (out,) = _call("ScatterElementsUpdate-3", [data, _indices(3), update, AXIS_0]).outputs
    assert out.value is None  # out of range


def test_scatter_elements_update_reductions() -> None:
    data, positions, updates = _exact(10, 20, 30), _indices(0, 0, 2), _exact(5, 7, 4)
    inputs = [data, positions, updates, AXIS_0]
    expected = {
        # reduction: (with the initial value, without it: the neutral value first)
        "sum": ((22, 20, 34), (12, 20, 4)),  # 10+5+7, 30+4 | 0+5+7, 0+4
        "prod": ((350, 20, 120), (35, 20, 4)),
        "min": ((5, 20, 4), (5, 20, 4)),  # without: from INT64_MAX
        "max": ((10, 20, 30), (7, 20, 4)),  # without: from INT64_MIN
        "mean": ((7, 20, 17), (6, 20, 4)),  # 22//3, 34//2 | 12//2, 4//1
    }
    for reduction, (with_init, without_init) in expected.items():
        (out,) = _call("ScatterElementsUpdate-12", inputs, reduction=reduction, use_init_val=True).outputs
        assert out.value == with_init, reduction
        (out,) = _call("ScatterElementsUpdate-12", inputs, reduction=reduction, use_init_val=False).outputs
        assert out.value == without_init, reduction


def test_mean_rounds_down() -> None:
    # (-7 + -2) / 2 = -4.5 -> -5; (7 + 2) / 2 = 4.5 -> 4 (the double division rounds downward)
    data, update = _exact(-7, 7), _exact(-2, 2)
    (out,) = _call(
        "ScatterElementsUpdate-12",
        [data, _indices(0, 1), update, AXIS_0],
        reduction="mean",
        use_init_val=True,
    ).outputs
    assert out.value == (-5, 4)


def test_scatter_nd_update_reductions_and_bounds() -> None:
    data, positions, updates = _exact(10, 20, 30), _indices(1, 1, nd=True), _exact(5, 7)
    (out,) = _call("ScatterNDUpdate-15", [data, positions, updates], reduction="sub").outputs
    assert out.value == (10, 8, 30)  # 20 - 5 - 7
    # evaluated on the lower bounds, then on the upper ones: 20 - 6 - 6 = 8 .. 20 - 8 - 8 = 4,
    # a lower bound above the upper one, as OpenVINO's (read as a dim: an empty one, ?)
    (out,) = _call("ScatterNDUpdate-15", [data, positions, _bounded((6, 6), (8, 8))], reduction="sub").outputs
    assert (out.lower, out.upper) == ((10, 8, 30), (10, 4, 30))
    (out,) = _call("ScatterNDUpdate-15", [data, positions, _bounded((6, 6), (8, 8))], reduction="sum").outputs
    assert (out.lower, out.upper) == ((10, 32, 30), (10, 36, 30))


# --- StridedSlice: each axis by the begin and end it needs -------------------------------------


def _strided(
    data: str, begin: Tensor, end: Tensor, begin_mask: list[int], end_mask: list[int], **more: Any
) -> str:
    count = len(begin_mask)
    inputs = [Tensor(parse_partial_shape(data), "f32"), begin, end, _exact(*[1] * count)]
    masks = {name: tuple(mask) for name, mask in dict(more, begin_mask=begin_mask, end_mask=end_mask).items()}
    return str(_call("StridedSlice-1", inputs, **masks).shape)


def test_a_masked_begin_with_no_bounds_leaves_the_end_s_bounds_to_slice_by() -> None:
    unknown = Tensor(PartialShape([2]), "i64")  # a Parameter's value: no bounds
    end = _bounded((1, 2), (3, 4))
    # every begin masked: 0:[1..3] and 0:[2..4]
    assert _strided("10,20", unknown, end, [1, 1], [0, 0]) == "[1..3,2..4]"
    # the second begin needed and unknown: that axis is 0 up to its length
    assert _strided("10,20", unknown, end, [1, 0], [0, 0]) == "[1..3,..20]"
    # and the other way round: end unknown, masked; begin [1..3] of 10 leaves 7 to 9
    assert _strided("10,20", _bounded((1, 2), (3, 4)), unknown, [0, 0], [1, 1]) == "[7..9,16..18]"


def test_an_output_that_would_be_static_keeps_openvinos_unknown_last_axis() -> None:
    # begin unknown (masked), end [5, 1..3] with its second masked: [5, 20] would be static;
    # OpenVINO then slices its last sliced axis as from and to unknown places: ..20
    unknown = Tensor(PartialShape([2]), "i64")
    end = _bounded((5, 1), (5, 3))
    assert _strided("10,20", unknown, end, [1, 1], [0, 1]) == "[5,..20]"


def test_an_ellipsis_counts_the_new_axes_after_it_when_begin_has_bounds() -> None:
    # begin [1..3, 0, 0]: known by bounds, so the new axis after the ellipsis counts and the
    # ellipsis hides two data axes: [10, 20] + 0:5 of 30 + a new axis
    begin, end = _bounded((1, 0, 0), (3, 0, 0)), _exact(5, 5, 5)
    shape = _strided(
        "10,20,30", begin, end, [0, 0, 0], [0, 0, 0], ellipsis_mask=[1, 0, 0], new_axis_mask=[0, 0, 1]
    )
    assert shape == "[10,20,5,1]"


# --- Broadcast's target: a Concat of one-element inputs, looked through at its Consts ------------


def _const(*values: int, element_type: str = "i64") -> ConstTensor:
    return ConstTensor(PartialShape([len(values)]), element_type, tuple(values))


UNKNOWN_ONE = Tensor(PartialShape([1]), "i64")  # a Parameter's value: no bounds


def _broadcast_to(parts: list[Tensor], data: str = "", mode: str = "numpy") -> str:
    (target,) = _call("Concat-1", parts, axis=0).outputs
    as_input = Tensor(target.shape, target.element_type, target.value, lower=target.lower, upper=target.upper)
    as_input.const_parts = target.const_parts
    scalar = Tensor(parse_partial_shape(data), "f32")
    return str(_call("Broadcast-3", [scalar, as_input], mode=mode).shape)


def test_a_concat_gives_its_const_inputs_first_values() -> None:
    (out,) = _call("Concat-1", [_const(3), UNKNOWN_ONE, _const(5)], axis=0).outputs
    assert out.value is None and out.lower is None
    assert out.const_parts == (3, None, 5)
    # a known value that is not a Const's (a Gather of one) is not looked at
    (out,) = _call("Concat-1", [_exact(3), UNKNOWN_ONE], axis=0).outputs
    assert out.const_parts == (None, None)
    # two elements from one input: the Concat is not looked through
    (out,) = _call("Concat-1", [_const(3, 4), UNKNOWN_ONE], axis=0).outputs
    assert out.const_parts is None


def test_broadcast_looks_through_a_concat_at_its_consts() -> None:
    assert _broadcast_to([_const(3), UNKNOWN_ONE, _const(5)]) == "[3,?,5]"
    # get_axis_vector_val casts to size_t (a negative value is 0), read back as an int64
    # Dimension: past INT64_MAX it is negative, so 0 again; INT64_MAX itself is unbounded
    assert _broadcast_to([_const(-5), UNKNOWN_ONE]) == "[0,?]"
    assert _broadcast_to([_const(2**64 - 1, element_type="u64"), Tensor(PartialShape([1]), "u64")]) == "[0,?]"
    assert _broadcast_to([_const(I64_MAX), UNKNOWN_ONE]) == "[?,?]"


def test_a_concat_of_no_const_still_gives_a_shape_of_unknown_dims() -> None:
    # pdpd merges the data's dims into it: [2,1] over [?,?] from axis 0 is [2,?]
    parts = [_exact(3), UNKNOWN_ONE]
    assert _broadcast_to(parts, "2,1", "pdpd") == "[2,?]"
    assert _broadcast_to(parts, "2,1", "numpy") == "[?,?]"
