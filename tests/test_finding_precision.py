"""No false and no repeated findings: what a user audit of real output turned up.

Each case names the one finding a fault deserves and asserts that its consequences are not
reported as findings of their own.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import irshape

ROOT = Path(__file__).resolve().parents[1]


def codes(report: irshape.FileReport) -> list[str]:
    return [d.code for d in report.diagnostics]


def dims(text: str) -> str:
    return "".join(f"<dim>{d}</dim>" for d in text.split(","))


def conv(data: str, declared: str, *, strides: str = "1,1", auto_pad: str = "explicit") -> str:
    return f"""<layer id="1" name="conv" type="Convolution" version="opset1">
    <data strides="{strides}" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="{auto_pad}"/>
    <input>
        <port id="0">{dims(data)}</port>
        <port id="1">{dims("4,3,3,3")}</port>
    </input>
    <output>
        <port id="2">{dims(declared)}</port>
    </output>
</layer>
"""


@pytest.mark.parametrize(
    ("layer", "only"),
    [
        # OpenVINO rejects these layers, so it "will use" no output dim: no IRS301 beside the
        # rejection, however wrong the declared dims are (8 - 3 + 1 = 6 would be right).
        (conv("1,3,8,8", "1,4,9,9", strides="0,1"), "IRS108"),
        (conv("1,3,8,8", "1,4,9,9", auto_pad="None"), "IRS107"),
        (conv("1,5,8,8", "1,4,9,9"), "IRS208"),  # 5 data channels, the kernel takes 3
    ],
)
def test_a_rejected_layer_gets_no_declared_dim_findings(layer: str, only: str) -> None:
    assert codes(irshape.check_string(layer)) == [only]


def test_a_negative_stride_is_read_as_openvino_reads_it() -> None:
    """OpenVINO reads strides="-1,1" (as 2^64-1, then divides by it as the int64 -1): the
    layer is not rejected, so a declared dim other than OpenVINO's is a finding of its own.
    By hand: trunc((8 - 3) / -1) = -5, a Dimension of 0, + 1 = 1 (docs/openvino-ir-reading.md §9)."""
    report = irshape.check_string(conv("1,3,8,8", "1,4,9,9", strides="-1,1"))
    assert codes(report) == ["IRS109", "IRS301", "IRS301"]
    assert str(report.layers[0].outputs[0]) == "[1,4,1,6]"


def test_a_negative_output_shape_value_is_one_finding() -> None:
    report = irshape.check_file(ROOT / "fixtures" / "invalid" / "IRS207_output_shape_negative.xml")
    assert "IRS207" in codes(report)
    assert not {"IRS301", "IRS302", "IRS305"} & set(codes(report))


def test_kernel_layout_names_only_the_axes_of_the_data_rank() -> None:
    report = irshape.check_file(ROOT / "fixtures" / "invalid" / "IRS203_kernel_rank.xml")
    (finding,) = [d for d in report.diagnostics if d.code == "IRS203"]
    assert "[C_OUT, C_IN, Y, X]" in finding.message  # 2D data: no Z axis


def test_a_single_unreachable_layer_is_named_once() -> None:
    report = irshape.check_file(ROOT / "fixtures" / "graph" / "IRS421_unreachable_layer.xml")
    (finding,) = [d for d in report.diagnostics if d.code == "IRS421"]
    assert finding.message.count("dangling") == 0  # the location names it, the message need not
    assert finding.layer_name == "dangling"


@pytest.mark.parametrize("name", ["billion_laughs.xml", "external_parameter_entity.xml"])
def test_entities_of_a_doctype_are_one_finding(name: str) -> None:
    assert codes(irshape.check_file(ROOT / "fixtures" / "hostile" / name)) == ["IRS004"]


def test_a_truncated_bin_is_reported_at_the_consts_only(tmp_path: Path) -> None:
    for suffix in (".xml", ".bin"):
        shutil.copy(ROOT / "fixtures" / "ir" / f"deconv_output_shape{suffix}", tmp_path / f"m{suffix}")
    with open(tmp_path / "m.bin", "r+b") as weights:
        weights.truncate(100)  # the kernel (288 bytes) and the output_shape Const both lie beyond
    report = irshape.check_file(tmp_path / "m.xml")
    assert codes(report) == ["IRS420", "IRS420"]  # and no IRS008 at the backprop layer
