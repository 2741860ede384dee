"""The indexing family's shape functions called directly (no XML), on hand-worked examples:
the slice arithmetic (clamping, negative steps, unbounded dims), values flowing through
ShapeOf -> Gather -> Range, StridedSlice's masks, and the IRS306 info where a value that
decides the shape is unknown. tests/differential/test_indexing.py checks the same functions
against OpenVINO on thousands of cases."""

from __future__ import annotations

from typing import Any

from irshape import rules
from irshape.dims import DYNAMIC, INF, Dim, PartialShape, static_shape
from irshape.ops.interface import OpCall, OpResult, Tensor
from irshape.ops.registry import shape_function
from irshape.ops.schema import ParsedAttributes, load_declaration
from irshape.shapes.slicing import I64_MAX, sliced_dim, sliced_length


def infer(op: str, inputs: list[Tensor], **attributes: Any) -> OpResult:
    schema = load_declaration(f"{op}.toml")
    parsed = ParsedAttributes()
    for name, value in attributes.items():
        parsed.values[name] = value
        parsed.texts[name] = str(value)
    return shape_function(schema.family, schema.function)(OpCall(schema, tuple(inputs), parsed))


def const(values: list[int], shape: list[int] | None = None, element_type: str = "i64") -> Tensor:
    return Tensor(static_shape([len(values)] if shape is None else shape), element_type, tuple(values))


def data(*dims: int | Dim) -> Tensor:
    return Tensor(PartialShape(dims), "f32")


def unknown(*dims: int) -> Tensor:
    return Tensor(static_shape(dims), "i64", value_unknown="it is a Parameter")


# --- the slice arithmetic -------------------------------------------------------------------


def test_a_slice_counts_the_elements_python_would_take() -> None:
    assert sliced_length(10, 1, -1, 2) == 4  # 1, 3, 5, 7
    assert sliced_length(8, 100, -100, -3) == 3  # start clamps to 7: 7, 4, 1
    assert sliced_length(5, 4, -6, -2) == 3  # 4, 2, 0
    assert sliced_length(5, 3, 1, 1) == 0  # a forward step from above the stop takes nothing
    assert sliced_length(0, 0, 5, 1) == 0


def test_an_unbounded_dim_sliced_to_its_end_stays_unbounded() -> None:
    assert sliced_length(-1, 0, I64_MAX, 1) == -1
    assert sliced_length(-1, 2, 5, 1) == 3  # a known window of an unbounded dim
    assert sliced_length(-1, -3, I64_MAX, 1) == 3  # the last three, whatever the length


def test_an_interval_dim_slices_each_bound() -> None:
    # [2..10][1:-1:2]: a length-2 dim keeps nothing, a length-10 one keeps 1, 3, 5, 7
    assert sliced_dim(Dim(2, 10), 1, -1, 2) == Dim(0, 4)
    assert sliced_dim(Dim(4, INF), 0, 2, 1) == Dim(2, 2)


# --- values through a shape subgraph --------------------------------------------------------


def test_shape_of_gives_the_static_shape_as_its_value() -> None:
    result = infer("ShapeOf-3", [data(2, 3, 4)], output_type="i32")
    (output,) = result.outputs
    assert (output.shape, output.element_type, output.value) == (static_shape([3]), "i32", (2, 3, 4))


def test_gather_of_a_shape_counts_negative_indices_from_the_end() -> None:
    shape = Tensor(static_shape([3]), "i64", (2, 3, 4))
    result = infer("Gather-8", [shape, const([-1, 0]), const([0], [])], batch_dims=0)
    assert result.outputs[0].value == (4, 2)
    assert result.outputs[0].shape == static_shape([2])


def test_range_of_known_values_has_ceil_span_over_step_elements() -> None:
    result = infer("Range-4", [const([10], []), const([0], []), const([-3], [])], output_type="i32")
    (output,) = result.outputs
    assert (output.shape, output.value) == (static_shape([4]), (10, 7, 4, 1))


def test_an_unknown_axis_leaves_gathers_dims_unknown_and_says_so_once() -> None:
    result = infer("Gather-8", [data(2, 3, 4), unknown(5), unknown()], batch_dims=0)
    assert result.outputs[0].shape == PartialShape([DYNAMIC] * 3)
    assert [f.rule for f in result.findings] == [rules.VALUE_UNKNOWN]


# --- StridedSlice's masks -----------------------------------------------------------------


def test_strided_slice_masks() -> None:
    # axis 0: 1:-1:2 of 10 = 1, 3, 5, 7; axis 1: begin masked, :5 of 8; axis 2 untouched
    result = infer(
        "StridedSlice-1",
        [data(10, 8, 6), const([1, 0]), const([-1, 5]), const([2, 1])],
        begin_mask=(0, 1),
        end_mask=(0, 0),
    )
    assert result.outputs[0].shape == static_shape([4, 5, 6])


def test_an_ellipsis_keeps_the_axes_it_stands_for() -> None:
    # [..., 1:5]: the ellipsis stands for axes 0 and 1, then axis 2 is sliced
    result = infer(
        "StridedSlice-1",
        [data(10, 8, 6), const([0, 1]), const([0, 5]), const([1, 1])],
        begin_mask=(0, 0),
        end_mask=(0, 0),
        ellipsis_mask=(1, 0),
    )
    assert result.outputs[0].shape == static_shape([10, 8, 4])


def test_a_new_axis_and_a_shrunk_axis() -> None:
    result = infer(
        "StridedSlice-1",
        [data(10, 8, 6), const([0, 3]), const([0, 4]), const([1, 1])],
        begin_mask=(0, 0),
        end_mask=(0, 0),
        new_axis_mask=(1, 0),
        shrink_axis_mask=(0, 1),
    )
    assert result.outputs[0].shape == static_shape([1, 8, 6])


def test_unknown_bounds_that_would_give_a_static_output_widen_its_last_sliced_axis() -> None:
    # OpenVINO 2026.4 gives [4,..6] here, not [4,6] (tests/differential: every mask case)
    result = infer(
        "StridedSlice-1",
        [data(8, 6), unknown(2), unknown(2), const([-2, 1])],
        begin_mask=(1, 1),
        end_mask=(1, 1),
    )
    assert result.outputs[0].shape == PartialShape([4, Dim(0, 6)])


# --- outputs of data-dependent size ---------------------------------------------------------


def test_non_zero_counts_up_to_every_element() -> None:
    result = infer("NonZero-3", [data(2, 3)], output_type="i64")
    assert result.outputs[0].shape == PartialShape([2, Dim(0, 6)])


def test_top_k_with_an_unknown_k_keeps_up_to_the_axis_length() -> None:
    result = infer("TopK-11", [data(5, 8), unknown()], axis=-1, index_element_type="i64")
    values, indices = result.outputs
    assert values.shape == indices.shape == PartialShape([5, Dim(0, 8)])
    assert (values.element_type, indices.element_type) == ("f32", "i64")


def test_a_rejected_layer_has_openvinos_message() -> None:
    result = infer("Slice-8", [data(4, 3), const([0]), const([2]), const([0])])
    assert result.outputs == []
    (finding,) = result.findings
    assert finding.rule is rules.INPUT_VALUE and finding.args["ov_message"] == "Step must be non-zero"


def test_the_arithmetic_behind_a_dim_is_shown() -> None:
    (output,) = infer("Range-1", [const([0], []), const([10], []), const([3], [])]).outputs
    assert output.formulas == ["ceil((10 - 0) / 3)"]
    (output,) = infer("Slice-8", [data(10, 8), const([1]), const([-1]), const([2]), const([0])]).outputs
    assert output.formulas == ["len(range(10)[1:-1:2])", ""]


def test_a_scatter_into_a_shape_replaces_its_elements() -> None:
    shape = Tensor(static_shape([3]), "i64", (2, 3, 4))
    result = infer("ScatterUpdate-3", [shape, const([1]), const([7]), const([0], [])])
    assert result.outputs[0].value == (2, 7, 4)
    repeated = infer("ScatterUpdate-3", [shape, const([1, 1]), const([7, 8]), const([0], [])])
    assert repeated.outputs[0].value == (2, 8, 4)  # OpenVINO's reference writes in order: the last wins
