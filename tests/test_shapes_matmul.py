"""MatMul-1, ScaledDotProductAttention-13 and Einsum-7 called directly (no XML), with
hand-worked expectations."""

from __future__ import annotations

from irshape.dims import Dim, PartialShape, parse_partial_shape
from irshape.ops.interface import OpCall, Tensor
from irshape.ops.registry import lookup
from irshape.ops.schema import ParsedAttributes
from irshape.shapes.matmul import einsum, matmul, parse_equation, scaled_dot_product_attention


def _call(op: str, version: str, shapes: list[str], **attributes: object) -> OpCall:
    schema = lookup(op, version)
    assert schema is not None
    parsed = ParsedAttributes()
    parsed.values.update(attributes)  # type: ignore[arg-type]
    inputs = tuple(Tensor(parse_partial_shape(s), "f32") for s in shapes)
    return OpCall(schema, inputs, parsed)


def test_rank_1_operands_are_unsqueezed_then_squeezed() -> None:
    # [3] x [3] is a dot product: a scalar; [3] x [2,3,4] is [1,3] x [2,3,4] -> [2,1,4] -> [2,4]
    assert matmul(_call("MatMul", "opset1", ["3", "3"])).shape == PartialShape([])
    assert matmul(_call("MatMul", "opset1", ["3", "2,3,4"])).shape == PartialShape([2, 4])
    assert matmul(_call("MatMul", "opset1", ["2,3,4", "4"])).shape == PartialShape([2, 3])


def test_transposes_swap_the_last_two_axes_and_batch_axes_broadcast() -> None:
    result = matmul(_call("MatMul", "opset1", ["5,1,4,3", "2,6,4"], transpose_a=True, transpose_b=True))
    assert result.shape == PartialShape([5, 2, 3, 6])


def test_disjoint_dynamic_batch_dims_pass_and_give_a_dynamic_dim() -> None:
    # OpenVINO only rejects static dims that do not broadcast; 2..4 and 5..8 leave a '?'
    result = matmul(_call("MatMul", "opset1", ["2..4,2,3", "5..8,3,5"]))
    assert result.shape == PartialShape([Dim(0, 2**63 - 1), 2, 5])
    assert not result.findings


def test_inner_dims_that_differ_are_rejected_with_openvino_words() -> None:
    result = matmul(_call("MatMul", "opset1", ["2,3", "4,5"]))
    assert not result.outputs
    (finding,) = result.findings
    assert finding.rule.code == "IRS212"
    assert "First input dimension=3 at COL_INDEX_DIM=1" in finding.args["ov_message"]


def test_sdpa_output_is_batch_l_ev_and_a_causal_mask_is_not_checked() -> None:
    shapes = ["2,1,3,4", "1,7,5,4", "7,5,6", "3,9"]
    assert scaled_dot_product_attention(_call("ScaledDotProductAttention", "opset13", shapes[:3])).shape == (
        PartialShape([2, 7, 3, 6])
    )
    assert scaled_dot_product_attention(
        _call("ScaledDotProductAttention", "opset13", shapes, causal=True)
    ).outputs
    assert not scaled_dot_product_attention(_call("ScaledDotProductAttention", "opset13", shapes)).outputs


def test_einsum_implicit_output_is_the_sorted_labels_met_once() -> None:
    assert parse_equation("ij,jk") == (["ij", "jk"], "ik")
    assert parse_equation("ii") == (["ii"], "ii")
    assert parse_equation("...ij,jk") == (["...ij", "jk"], "...ik")


def test_einsum_labels_broadcast_across_inputs() -> None:
    # j is 1 in the first input and 5 in the second: across inputs labels broadcast
    assert einsum(_call("Einsum", "opset7", ["3,1", "5,4"], equation="ij,jk->ik")).shape == PartialShape(
        [3, 4]
    )
    assert einsum(_call("Einsum", "opset7", ["2,3,4", "5,4"], equation="a...,b...->ab...")).shape == (
        PartialShape([2, 5, 3, 4])
    )
