"""Issue 26 item 2: a layer without a finding costs no message. The shape functions keep each
output dim's formula (the window arithmetic IRS301 quotes) as a template and its values, and
write it out only when a finding quotes it: a clean check never turns a dim into text. The
expected texts are the spec's formulas worked by hand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import irshape
from irshape import dims

CONV = {"strides": "1,1", "pads_begin": "0,0", "pads_end": "0,0", "dilations": "1,1"}
POOL = {"strides": "2,2", "pads_begin": "0,0", "pads_end": "1,1", "kernel": "3,3", "rounding_type": "ceil"}
BACKPROP = {"strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1", "dilations": "1,1"}

# (op, attributes, inputs, input values, version): layers OpenVINO reads without a finding
CLEAN: list[tuple[str, dict[str, Any], list[Any], dict[int, list[int]] | None, str]] = [
    ("Convolution", CONV, ["1,3,?,224", [8, 3, 3, 3]], None, "opset1"),
    ("GroupConvolution", CONV, ["1,4,16,16", [2, 3, 2, 3, 3]], None, "opset1"),
    ("ConvolutionBackpropData", BACKPROP, ["1,20,224,224", [20, 10, 3, 3]], None, "opset1"),
    ("MaxPool", POOL, ["1,3,?,32"], None, "opset8"),
    ("AvgPool", {**POOL, "exclude-pad": "true"}, ["1,3,31,32"], None, "opset1"),
    ("MatMul", {}, ["3,1,4,5", "2,5,6"], None, "opset1"),
    ("Concat", {"axis": "1"}, ["2,3", "2,?", "2,4"], None, "opset1"),
    ("Reshape", {"special_zero": "true"}, ["2,3,4", [3]], {1: [0, -1, 2]}, "opset1"),
    ("Split", {"num_splits": "2"}, ["2,4", []], {1: [1]}, "opset1"),
    ("Pad", {"pad_mode": "constant"}, ["2,3", [2], [2]], {1: [0, 1], 2: [1, 2]}, "opset1"),
    ("Add", {}, ["2,1,4", "3,1"], None, "opset1"),
]


@pytest.fixture
def dims_written(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every dim turned into text while the test runs."""
    written: list[str] = []
    text = dims.Dim.__str__

    def counted(dim: dims.Dim) -> str:
        written.append(text(dim))
        return written[-1]

    monkeypatch.setattr(dims.Dim, "__str__", counted)
    yield written


@pytest.mark.parametrize(
    ("op", "attributes", "inputs", "values", "version"), CLEAN, ids=[c[0] for c in CLEAN]
)
def test_a_clean_layer_writes_no_formula(
    dims_written: list[str],
    op: str,
    attributes: dict[str, Any],
    inputs: list[Any],
    values: dict[int, list[int]] | None,
    version: str,
) -> None:
    result = irshape.check_layer(op, attributes, inputs, input_values=values, version=version)
    assert result.diagnostics == []
    assert result.output_shapes  # the shape was inferred...
    assert dims_written == []  # ...and no dim was written out for a message


@pytest.mark.parametrize(
    ("op", "attributes", "inputs", "declared", "arithmetic"),
    [
        # floor((224 + 0 + 0 - ((3-1)*1+1)) / 1) + 1 = 222
        (
            "Convolution",
            CONV,
            ["1,3,224,224", [8, 3, 3, 3]],
            [1, 8, 222, 221],
            " = floor((224 + 0 + 0 - ((3-1)*1+1)) / 1) + 1",
        ),
        # 2*(224-1) + (3-1)*1+1 - 1 - 1 + 0 = 447
        (
            "ConvolutionBackpropData",
            BACKPROP,
            ["1,20,224,224", [20, 10, 3, 3]],
            [1, 10, 447, 446],
            " = 2*(224-1) + (3-1)*1+1 - 1 - 1 + 0",
        ),
        # ceil((32 + 0 + 1 - 3) / 2) + 1 = 16
        ("MaxPool", POOL, ["1,3,32,32"], [1, 3, 16, 15], " = ceil((32 + 0 + 1 - 3) / 2) + 1"),
        # 2 * 3 (GROUPS * C_OUT) = 6
        (
            "GroupConvolution",
            CONV,
            ["1,4,16,16", [2, 3, 2, 3, 3]],
            [1, 5, 14, 14],
            " = 2 * 3 (GROUPS * C_OUT)",
        ),
    ],
    ids=["Convolution", "ConvolutionBackpropData", "MaxPool", "GroupConvolution"],
)
def test_a_finding_writes_its_formula(
    op: str, attributes: dict[str, Any], inputs: list[Any], declared: list[int], arithmetic: str
) -> None:
    version = "opset8" if op == "MaxPool" else "opset1"
    result = irshape.check_layer(op, attributes, inputs, declared_output=declared, version=version)
    [finding] = result.diagnostics
    assert finding.code == "IRS301"
    assert arithmetic + ";" in finding.message
