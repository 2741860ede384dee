"""The normalizations called directly (no XML): the rules OpenVINO applies that are easy to get
wrong (Softmax-1's unsigned axis, BatchNormInference's input orders, FakeQuantize's growing
merge of the limits)."""

from __future__ import annotations

from irshape.dims import PartialShape, parse_partial_shape
from irshape.ops.interface import OpCall, Tensor
from irshape.ops.registry import lookup
from irshape.ops.schema import ParsedAttributes
from irshape.shapes.normalization import batch_norm_inference, fake_quantize, softmax_1


def _call(op: str, version: str, shapes: list[str], **attributes: object) -> OpCall:
    schema = lookup(op, version)
    assert schema is not None
    parsed = ParsedAttributes()
    parsed.values.update(attributes)  # type: ignore[arg-type]
    return OpCall(schema, tuple(Tensor(parse_partial_shape(s), "f32") for s in shapes), parsed)


def test_softmax_1_reads_a_negative_axis_as_unsigned() -> None:
    (finding,) = softmax_1(_call("Softmax", "opset1", ["2,3"], axis=-1)).findings
    assert "Reduction axis (18446744073709551615) is out of bounds" in finding.args["ov_message"]
    assert softmax_1(_call("Softmax", "opset1", [""], axis=0)).shape == PartialShape([])


def test_batch_norm_v0_takes_the_data_third_and_narrows_the_channels() -> None:
    # v0: gamma, beta, data, mean, variance; the channel dim ? becomes gamma's 3
    result = batch_norm_inference(_call("BatchNormInference", "opset1", ["3", "?", "2,?,4", "?", "?"]))
    assert result.shape == PartialShape([2, 3, 4])
    result = batch_norm_inference(_call("BatchNormInference", "opset5", ["2,?,4", "3", "?", "?", "?"]))
    assert result.shape == PartialShape([2, 3, 4])


def test_fake_quantize_limits_merge_one_after_another() -> None:
    # input_low [2,3,4] grows the merged shape from [3,1]; input_high [5,3,4] then conflicts
    assert fake_quantize(_call("FakeQuantize", "opset1", ["3,1", "2,3,4", "1", "1", "1"])).shape == (
        PartialShape([3, 1])
    )
    result = fake_quantize(_call("FakeQuantize", "opset1", ["3,1", "2,3,4", "5,3,4", "1", "1"]))
    assert not result.outputs and result.findings[0].rule.code == "IRS212"
