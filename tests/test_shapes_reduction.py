"""The reductions called directly (no XML): axes known and unknown, and the values they fold."""

from __future__ import annotations

from irshape.dims import PartialShape, parse_partial_shape
from irshape.ops.interface import OpCall, Tensor
from irshape.ops.registry import lookup
from irshape.ops.schema import ParsedAttributes
from irshape.shapes.reduction import reduce


def _call(
    op: str,
    data: str,
    axes: tuple[int, ...] | None,
    keep_dims: bool,
    value: tuple[int, ...] | None = None,
    axes_shape: str = "",
) -> OpCall:
    schema = lookup(op, "opset4")
    assert schema is not None
    parsed = ParsedAttributes()
    parsed.values["keep_dims"] = keep_dims
    shape = axes_shape or (str(len(axes)) if axes is not None else "2")
    inputs = (
        Tensor(parse_partial_shape(data), "i64", value=value),
        Tensor(parse_partial_shape(shape), "i64", value=axes),
    )
    return OpCall(schema, inputs, parsed)


def test_negative_and_duplicate_axes() -> None:
    # axes 1 and -2 of a rank-3 tensor are the same axis: reduced once
    assert reduce(_call("ReduceSum", "2,3,4", (1, -2), False)).shape == PartialShape([2, 4])
    assert reduce(_call("ReduceSum", "2,3,4", (1, -2), True)).shape == PartialShape([2, 1, 4])


def test_a_scalar_takes_axis_0_and_minus_1() -> None:
    assert reduce(_call("ReduceMax", "", (-1,), False)).shape == PartialShape([])
    assert reduce(_call("ReduceMax", "", (1,), False)).findings[0].rule.code == "IRS214"


def test_unknown_axes_as_openvino_infers_them() -> None:
    assert reduce(_call("ReduceMean", "2,3,4", None, True)).shape == PartialShape.dynamic(3)
    assert reduce(_call("ReduceMean", "2,3,4", None, False, axes_shape="1")).shape == PartialShape.dynamic(2)
    assert reduce(_call("ReduceMean", "2,3,4", None, False, axes_shape="2")).shape == PartialShape(None)
    assert reduce(_call("ReduceMean", "2,3,4", None, False, axes_shape="2")).findings[0].rule.code == "IRS306"


def test_sum_and_prod_fold_small_integer_tensors() -> None:
    # the value [[1,2,3],[4,5,6]]: the sum over axis 1 is [6, 15]; the product of all is 720
    data = (1, 2, 3, 4, 5, 6)
    assert reduce(_call("ReduceSum", "2,3", (1,), False, data)).outputs[0].value == (6, 15)
    assert reduce(_call("ReduceProd", "2,3", (0, 1), False, data)).outputs[0].value == (720,)
    assert reduce(_call("ReduceProd", "2,3", (0,), True, data)).outputs[0].value == (4, 10, 18)
    assert reduce(_call("ReduceMean", "2,3", (0,), True, data)).outputs[0].value is None
