"""The NMS ops called directly (no XML), with hand-worked selected-box counts: each version's
formula for the first dim of selected_indices (nms_shape_inference.hpp)."""

from __future__ import annotations

import pytest

from irshape.dims import parse_partial_shape
from irshape.ops.interface import OpCall, Tensor
from irshape.ops.registry import lookup
from irshape.ops.schema import ParsedAttributes
from irshape.shapes.detection import non_max_suppression


def _call(op: str, version: str, shapes: list[str], max_output: int | None = None) -> OpCall:
    schema = lookup(op, version)
    assert schema is not None
    inputs = [Tensor(parse_partial_shape(s), "f32") for s in shapes]
    if len(inputs) > 2:
        inputs[2] = Tensor(
            parse_partial_shape(shapes[2]), "i64", None if max_output is None else (max_output,)
        )
    return OpCall(schema, tuple(inputs), ParsedAttributes())


@pytest.mark.parametrize(
    ("version", "max_output", "expected"),
    [
        # 1 and 3: min(num_boxes, max * classes) = min(10, 4 * 3)
        ("opset1", 4, "[10,3]"),
        ("opset3", 2, "[6,3]"),  # min(10, 2 * 3)
        # 4: min(num_boxes, max) * batches * classes = min(10, 4) * 2 * 3
        ("opset4", 4, "[24,3]"),
        # 5 and 9: 0 .. min(10, 4) * 2 * 3: how many are selected is known when it runs
        ("opset5", 4, "[..24,3]"),
        ("opset9", 20, "[..60,3]"),  # min(10, 20) * 2 * 3
        ("opset9", None, "[?,3]"),  # no value: any number
    ],
)
def test_selected_boxes_by_version(version: str, max_output: int | None, expected: str) -> None:
    call = _call("NonMaxSuppression", version, ["2,10,4", "2,3,10", "", "", ""], max_output)
    assert str(non_max_suppression(call).shape) == expected


def test_versions_1_to_4_default_to_no_box_without_the_input() -> None:
    # OpenVINO gives NonMaxSuppression-1/3/4 max_output_boxes_per_class 0 when it is missing
    for version in ("opset1", "opset3", "opset4"):
        assert (
            str(non_max_suppression(_call("NonMaxSuppression", version, ["2,10,4", "2,3,10"])).shape)
            == "[0,3]"
        )
    assert (
        str(non_max_suppression(_call("NonMaxSuppression", "opset5", ["2,10,4", "2,3,10"])).shape) == "[?,3]"
    )


def test_nms_rotated_boxes_have_five_numbers_and_three_outputs() -> None:
    result = non_max_suppression(_call("NMSRotated", "opset13", ["1,7,5", "1,2,7", "", "", ""], 3))
    assert [str(o.shape) for o in result.outputs] == ["[..6,3]", "[..6,3]", "[1]"]  # min(7, 3) * 1 * 2
    assert [o.element_type for o in result.outputs] == ["i64", "f32", "i64"]
    (finding,) = non_max_suppression(
        _call("NMSRotated", "opset13", ["1,7,4", "1,2,7", "", "", ""], 3)
    ).findings
    assert finding.args["ov_message"] == "The last dimension of the 'boxes' input must be equal to 5"


def test_interval_boxes_give_the_upper_bound() -> None:
    # 5 and later use each dim's upper bound: min(1..8 -> 8, 5) * 2 * 1..3 -> 3 = 30
    call = _call("NonMaxSuppression", "opset9", ["2,1..8,4", "2,1..3,1..8", "", "", ""], 5)
    assert non_max_suppression(call).shape == parse_partial_shape("..30,3")
    # 4 needs a static number of boxes
    call = _call("NonMaxSuppression", "opset4", ["2,1..8,4", "2,1..3,1..8", "", "", ""], 5)
    assert str(non_max_suppression(call).shape) == "[?,3]"
