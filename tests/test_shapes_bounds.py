"""Value bounds (irshape.shapes.bounds) and the ops that make, move and read them, called
directly (no XML): each expectation worked by hand from OpenVINO's rules (bound_evaluate.cpp's
interval evaluator, divide.cpp, convert.cpp, reduce_prod.cpp, shape_of.cpp and
``evaluate_as_partial_shape``). tests/differential/test_bounds.py proves agreement with
OpenVINO on generated subgraphs.
"""

from __future__ import annotations

import math
import operator
from typing import Any

from irshape.dims import INF, Dim, PartialShape, parse_partial_shape
from irshape.ops.interface import OpCall, OpResult, Tensor
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
    assert bounds.product_bounds(_bounded((-1, 1), (2, 3)), product) is None  # negative: none


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
