"""Schema validation: each finding with its code, line and a message saying what OpenVINO does.

The OpenVINO behaviour asserted here is the one recorded by experiment in rules §3, §4, §6, §9.
"""

from __future__ import annotations

import pytest

import irshape

LAYER = """<layer id="7" name="up" type="{op}" version="opset1">
  <data {attrs}/>
  <input>
    <port id="0" precision="FP32">{data}</port>
    <port id="1" precision="FP32">{kernel}</port>
  </input>
  <output>
    <port id="2" precision="FP32">{out}</port>
  </output>
</layer>
"""


def dims(shape: str) -> str:
    return "".join(f"<dim>{d}</dim>" for d in shape.split(",")) if shape else ""


def check(
    attrs: str, data: str = "1,3,8,8", kernel: str = "4,3,3,3", out: str = "1,4,6,6", op: str = "Convolution"
) -> irshape.FileReport:
    text = LAYER.format(op=op, attrs=attrs, data=dims(data), kernel=dims(kernel), out=dims(out))
    return irshape.check_string(text, path="layer.xml")


def codes(report: irshape.FileReport) -> list[str]:
    return sorted(d.code for d in report.diagnostics)


FULL = 'strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0"'


def test_clean_layer_has_no_findings() -> None:
    assert codes(check(FULL)) == []


def test_missing_attributes_warn_with_what_openvino_assumes() -> None:
    report = check("")
    assert codes(report) == ["IRS101"] * 4
    messages = " ".join(d.message for d in report.diagnostics)
    assert "OpenVINO assumes 1" in messages and "OpenVINO assumes 0" in messages
    assert all(d.line == 2 for d in report.diagnostics)  # the <data> line


@pytest.mark.parametrize("value", ["None", "none", "notset", "NOTSET", "", "same", "auto", " valid"])
def test_auto_pad_values_openvino_rejects(value: str) -> None:
    report = check(FULL + f' auto_pad="{value}"')
    assert codes(report) == ["IRS107"]
    assert report.errors[0].layer_id == "7"


@pytest.mark.parametrize("value", ["explicit", "EXPLICIT", "Same_Upper", "same_lower", "VALID"])
def test_auto_pad_case_insensitive(value: str) -> None:
    assert not check(FULL + f' auto_pad="{value}"', out="1,4,-1,-1").errors


def test_auto_pad_none_suggests_explicit() -> None:
    (finding,) = check(FULL + ' auto_pad="None"').errors
    assert 'auto_pad="explicit"' in finding.message


@pytest.mark.parametrize(
    ("strides", "code"),
    [
        ("2 2", "IRS105"),
        ("2.5,2", "IRS105"),
        ("2,,2", "IRS104"),
        ("a,2", "IRS104"),
        ("+2,2", "IRS104"),
        ("1,0", "IRS108"),
        ("-1,1", "IRS109"),
        ("1,1,1", "IRS106"),
    ],
)
def test_list_attributes_parsed_as_openvino_does(strides: str, code: str) -> None:
    attrs = f'strides="{strides}" dilations="1,1" pads_begin="0,0" pads_end="0,0"'
    assert code in codes(check(attrs, out="1,4,-1,-1"))


def test_lenient_list_is_flagged_and_length_checked() -> None:
    # "2 2" is read as [2]: a length error follows, as in OpenVINO
    report = check('strides="2 2" dilations="1,1" pads_begin="0,0" pads_end="0,0"', out="1,4,-1,-1")
    assert codes(report) == ["IRS105", "IRS106"]
    assert "[2]" in report.diagnostics[0].message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0, 2, 0", (0, 2, 0)),
        (" 3x, 18446744073709551615", (3, 2**64 - 1)),
        ("9223372036854775808,", (2**63,)),
        ("-0, 1", None),  # no sign at all: std::from_chars into a uint64
        ("-1, 1", None),
        ("+1, 1", None),
        ("18446744073709551616", None),
        (", 1", None),
    ],
)
def test_unsigned_list_grammar(text: str, expected: tuple[int, ...] | None) -> None:
    """std::vector<size_t> attributes (Interpolate's pads), as OpenVINO 2026.4 reads them."""
    from irshape.ir.values import ListSyntaxError, parse_int_list

    if expected is None:
        with pytest.raises(ListSyntaxError):
            parse_int_list(text, unsigned=True)
    else:
        assert parse_int_list(text, unsigned=True).values == expected
    if expected is not None and max(expected, default=0) < 2**63:
        assert parse_int_list(text).values == expected  # what both grammars read alike


def test_trailing_comma_accepted() -> None:
    assert codes(check('strides="1,1," dilations="1,1" pads_begin="0,0" pads_end="0,0"')) == []


def test_unknown_and_legacy_attributes() -> None:
    report = check(FULL + ' foo="1" output_padding="0,0"')
    assert codes(report) == ["IRS102", "IRS102"]  # output_padding is not a forward attribute
    deconv = check(
        FULL + ' data_format="NXC" filter_format="XIO" groups="2"',
        op="ConvolutionBackpropData",
        data="1,4,8,8",
        kernel="4,2,3,3",
        out="1,2,10,10",
    )
    assert codes(deconv) == ["IRS103"] * 3
    nxc = next(d for d in deconv.diagnostics if "data_format" in d.message)
    assert "channels-first" in nxc.message


def test_channel_mismatch_names_both_counts() -> None:
    (finding,) = check(FULL, kernel="4,5,3,3").errors
    assert finding.code == "IRS208"
    assert "(3)" in finding.message and "(5)" in finding.message


def test_group_divisibility() -> None:
    report = check(FULL, op="GroupConvolution", data="1,6,8,8", kernel="2,2,4,3,3", out="1,4,6,6")
    assert codes(report) == ["IRS209"]


@pytest.mark.parametrize(
    ("data", "kernel", "code"),
    [("1,3", "4,3", "IRS202"), ("1,3,8,8", "4,3,3", "IRS203"), ("1,3,5,5,5,5", "4,3,3,3,3,3", "IRS202")],
)
def test_ranks(data: str, kernel: str, code: str) -> None:
    assert code in codes(check("", data=data, kernel=kernel, out=""))


def test_kernel_larger_than_padded_input() -> None:
    report = check(FULL, data="1,3,2,8", out="1,4,1,6")
    assert codes(report) == ["IRS210"]


def test_every_finding_of_a_layer_reported_in_one_run() -> None:
    report = check(
        'strides="0,1" auto_pad="None" foo="x" dilations="1,1" pads_begin="0,0" pads_end="0"',
        kernel="4,5,3,3",
    )
    assert {"IRS102", "IRS106", "IRS107", "IRS108"} <= set(codes(report))


def test_negative_pads_forward_quirk_is_explained() -> None:
    report = check('strides="1,1" dilations="1,1" pads_begin="-3,0" pads_end="1,0"', out="1,4,6,6")
    (finding,) = report.diagnostics
    assert finding.code == "IRS110" and "ignores" in finding.message


def test_backprop_overcrop_warns_dynamic() -> None:
    report = check(
        'strides="1,1" dilations="1,1" pads_begin="5,0" pads_end="5,0"',
        op="ConvolutionBackpropData",
        data="1,4,2,8",
        kernel="4,2,3,3",
        out="1,2,-1,10",
    )
    assert codes(report) == ["IRS303"]


def test_declared_mismatch_message_has_the_arithmetic() -> None:
    report = check(
        'strides="2,2" dilations="1,1" pads_begin="1,1" pads_end="1,1"',
        op="ConvolutionBackpropData",
        data="1,20,224,224",
        kernel="20,10,3,3",
        out="1,10,448,447",
    )
    (finding,) = report.errors
    assert finding.code == "IRS301" and finding.line == 8 and finding.axis == 2
    assert "declared 448, inferred 447 = 2*(224-1) + (3-1)*1+1 - 1 - 1 + 0" in finding.message
    assert "OpenVINO ignores declared dims and will use 447" in finding.message


def test_element_types_from_parameters() -> None:
    net = """<net name="n" version="11"><layers>
    <layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,3,8,8" element_type="f32"/>
      <output><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>8</dim><dim>8</dim></port></output></layer>
    <layer id="1" name="w" type="Parameter" version="opset1"><data shape="4,3,3,3" element_type="f16"/>
      <output><port id="0" precision="FP16"><dim>4</dim><dim>3</dim><dim>3</dim><dim>3</dim></port></output></layer>
    <layer id="2" name="c" type="Convolution" version="opset1">
      <data strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0"/>
      <input><port id="0"/><port id="1"/></input>
      <output><port id="2" precision="FP32"><dim>1</dim><dim>4</dim><dim>6</dim><dim>6</dim></port></output></layer>
    <layer id="3" name="r" type="Result" version="opset1"><input><port id="0"/></input></layer>
    </layers><edges><edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/></edges></net>"""
    report = irshape.check_string(net)  # a Result: OpenVINO builds the layer (else only a warning)
    assert "IRS204" in [d.code for d in report.errors]


def test_check_layer_from_plain_values() -> None:
    result = irshape.check_layer(
        "Convolution", {"strides": [2, 2]}, ["1,3,?,224", [8, 3, 3, 3]], declared_output=[1, 8, -1, 112]
    )
    # floor((? - 3) / 2) + 1: the subtraction clips at 0, so the dim is 1.. (rules §5.2)
    assert str(result.output_shape) == "[1,8,1..,111]"
    assert [d.code for d in result.errors] == ["IRS301"]
