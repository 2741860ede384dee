"""The whole-model checks (IRS4xx): one fixture per code, and the behaviour behind each.

Every ``fixtures/graph/IRS4xx_*.xml`` marks the line of its fault with ``<!-- expect IRSxxx -->``;
the first test checks that irshape reports that code on that line. The second records what
OpenVINO's ``read_model`` does with the same file (OpenVINO is imported plainly: without it these
tests fail, never skip). The rest build small nets to pin down one behaviour each: one finding per
fault (downstream layers that repeat a wrong declared dim are listed, not reported), OpenVINO's
id, opset, element type and Const size rules, IR v10 against v11, and the .bin reported once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from probes import openvino_accepts
from scripts import load_script

import irshape
from irshape.check.graph import Graph
from irshape.diagnostics import Diagnostic, Severity
from irshape.ir.values import parse_uint
from irshape.ir.weights import bytes_needed
from irshape.ops.opsets import opsets_of
from irshape.results import FileReport
from irshape.rules import RULES

ROOT = Path(__file__).resolve().parents[1]
GRAPH = ROOT / "fixtures" / "graph"
FIXTURES = sorted(GRAPH.glob("IRS4*.xml"))
MARK = re.compile(r"<!-- expect (IRS\d{3}) -->")

# What OpenVINO 2026.4's read_model does with each fixture (True: it loads the file).
OPENVINO_ACCEPTS = {
    "IRS401_layer_id_duplicate": True,  # keeps the last layer with the id
    "IRS402_id_syntax": False,  # stoll
    "IRS403_opset_unsupported": False,
    "IRS404_op_type_unknown": False,
    "IRS405_precision_invalid": False,
    "IRS406_edge_to_missing_layer": True,  # the edge is ignored
    "IRS406_edge_from_missing_layer": False,
    "IRS407_edge_port_missing": False,
    "IRS408_edge_duplicate_input": False,
    "IRS409_input_unconnected": False,
    "IRS409_input_unconnected_v10": True,  # v10 drops the unconnected output_shape input
    "IRS410_graph_cycle": False,
    "IRS411_edge_dims_mismatch": True,  # input port dims are ignored
    "IRS412_edge_precision_mismatch": True,
    "IRS413_data_missing": False,
    "IRS414_element_type_invalid": False,
    "IRS414_const_element_type_invalid": False,
    "IRS415_type_precision_mismatch": True,
    "IRS416_parameter_shape_mismatch": True,  # Parameter port dims are ignored
    "IRS416_const_shape_mismatch": True,
    "IRS417_parameter_defaulted": True,
    "IRS418_const_attribute": False,
    "IRS419_const_size_too_small": False,
    "IRS419_const_size_u1_packed": False,
    "IRS420_const_out_of_bin": False,
    "IRS421_unreachable_layer": True,  # never built, never validated
    "IRS422_no_result": True,  # a model with no outputs
    "IRS423_results_share_output": False,  # IR v10: 'Model tensor names have collisions'
    "IRS424_variable_unmatched": False,  # map::at: no ReadValue of variable 'other'
    "IRS425_name_collision": False,  # IR v10: 'Model operation names have collisions with tensor names'
}


def _expected(xml: Path) -> list[tuple[str, int]]:
    lines = xml.read_text(encoding="utf-8").splitlines()
    return [(m.group(1), n) for n, text in enumerate(lines, 1) for m in MARK.finditer(text)]


@pytest.mark.parametrize("xml", FIXTURES, ids=lambda p: p.stem)
def test_fixture_reports_its_code_on_its_line(xml: Path) -> None:
    report = irshape.check_file(xml)
    found = {(d.code, d.line) for d in report.diagnostics}
    expected = _expected(xml)
    assert expected, "the fixture marks no line"
    assert xml.name[:6] in {code for code, _ in expected}
    for code, line in expected:
        assert (code, line) in found, sorted(found)
    assert not any(d.code == "IRS901" for d in report.diagnostics)


@pytest.mark.parametrize("xml", FIXTURES, ids=lambda p: p.stem)
def test_fixture_openvino_verdict(xml: Path) -> None:
    assert openvino_accepts(xml) is OPENVINO_ACCEPTS[xml.stem]


def test_clean_base_fixture() -> None:
    assert irshape.check_file(GRAPH / "clean.xml").diagnostics == []
    assert openvino_accepts(GRAPH / "clean.xml")


def test_every_graph_code_has_a_fixture() -> None:
    codes = {code for code in RULES if code.startswith("IRS4")}
    assert codes == {p.name[:6] for p in FIXTURES}
    assert set(OPENVINO_ACCEPTS) == {p.stem for p in FIXTURES}


def test_fixtures_match_their_generator() -> None:
    module = load_script(GRAPH / "make_graph_fixtures.py")
    for stem, fault in module.FIXTURES.items():
        net = module.base()
        fault(net)
        assert (GRAPH / f"{stem}.xml").read_text(encoding="utf-8") == module.render(net), stem
        assert (GRAPH / f"{stem}.bin").read_bytes() == net.weights, stem


# ------------------------------------------------------------------------------ small nets


def port(pid: int, dims: Sequence[int], precision: str = "FP32") -> str:
    return f'<port id="{pid}" precision="{precision}">' + "".join(f"<dim>{d}</dim>" for d in dims) + "</port>"


def layer(
    lid: int,
    kind: str,
    ins: Sequence[Sequence[int]] = (),
    outs: Sequence[Sequence[int]] = (),
    data: str = "",
    name: str | None = None,
    version: str = "opset1",
) -> str:
    # a backprop op's third input is its i64 output_shape
    inputs = "".join(port(i, d, "I64" if i == 2 else "FP32") for i, d in enumerate(ins))
    outputs = "".join(port(len(ins) + i, d) for i, d in enumerate(outs))
    body = f"<data {data}/>" if data else ""
    body += f"<input>{inputs}</input>" if ins else ""
    body += f"<output>{outputs}</output>" if outs else ""
    return f'<layer id="{lid}" name="{name or kind.lower() + str(lid)}" type="{kind}" version="{version}">{body}</layer>'


def parameter(lid: int, shape: Sequence[int], attr: str | None = None) -> str:
    text = attr if attr is not None else ",".join(map(str, shape))
    return (
        f'<layer id="{lid}" name="p{lid}" type="Parameter" version="opset1">'
        f'<data shape="{text}" element_type="f32"/><output>{port(0, shape)}</output></layer>'
    )


def const(
    lid: int, shape: Sequence[int], offset: int = 0, element_type: str = "f32", size: int | None = None
) -> str:
    count = 1
    for d in shape:
        count *= d
    nbytes = size if size is not None else count * (8 if element_type == "i64" else 4)
    precision = "I64" if element_type == "i64" else "FP32"
    return (
        f'<layer id="{lid}" name="c{lid}" type="Const" version="opset1"><data element_type="{element_type}" '
        f'shape="{", ".join(map(str, shape))}" offset="{offset}" size="{nbytes}"/>'
        f"<output>{port(0, shape, precision)}</output></layer>"
    )


CONV = 'strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit"'
DECONV = CONV + ' output_padding="0,0"'


def net(layers: Sequence[str], edges: Sequence[tuple[int, int, int, int]], version: int = 11) -> str:
    """One layer a line, so that a finding's line names its layer (line = 3 + position)."""
    body = "\n".join(layers)
    links = "\n".join(
        f'<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}"/>' for a, b, c, d in edges
    )
    return f'<?xml version="1.0"?>\n<net name="t" version="{version}">\n<layers>\n{body}\n</layers>\n<edges>\n{links}\n</edges>\n</net>\n'


def check(tmp_path: Path, xml: str, weights: bytes | None = bytes(4096), name: str = "m") -> FileReport:
    path = tmp_path / f"{name}.xml"
    path.write_text(xml, encoding="utf-8")
    if weights is not None:
        path.with_suffix(".bin").write_bytes(weights)
    return irshape.check_file(path)


def codes(report: FileReport) -> list[str]:
    return [d.code for d in report.diagnostics]


def by_code(report: FileReport, code: str) -> list[Diagnostic]:
    return [d for d in report.diagnostics if d.code == code]


def chain(declared_conv1: Sequence[int], declared_conv2: Sequence[int], param_attr: str | None = None) -> str:
    """data [1,3,10,10] -> conv1 (k3) -> relu -> conv2 (k3) -> Result; declared dims as given.

    Every layer after conv1 declares the dims a converter would have computed from conv1's
    declared output, as if the converter's mistake started there.
    """
    d1 = list(declared_conv1)
    return net(
        [
            parameter(0, [1, 3, 10, 10], param_attr),
            const(1, [4, 3, 3, 3]),
            layer(2, "Convolution", [[1, 3, 10, 10], [4, 3, 3, 3]], [d1], CONV),
            layer(3, "ReLU", [d1], [d1]),
            const(4, [4, 4, 3, 3], 432),
            layer(5, "Convolution", [d1, [4, 4, 3, 3]], [list(declared_conv2)], CONV),
            layer(6, "Result", [list(declared_conv2)]),
        ],
        [(0, 0, 2, 0), (1, 0, 2, 1), (2, 2, 3, 0), (3, 1, 5, 0), (4, 0, 5, 1), (5, 2, 6, 0)],
    )


def test_clean_chain_has_no_findings(tmp_path: Path) -> None:
    assert check(tmp_path, chain([1, 4, 8, 8], [1, 4, 6, 6])).diagnostics == []


def test_wrong_dim_is_reported_once_at_its_origin(tmp_path: Path) -> None:
    # conv1 declares 9x9 (OpenVINO: 8x8); relu, conv2 (7x7 from 9x9) and the Result repeat it.
    report = check(tmp_path, chain([1, 4, 9, 9], [1, 4, 7, 7]))
    assert [d.layer_id for d in report.errors] == ["2", "2"]  # axes 2 and 3 of conv1 only
    first = report.errors[0]
    assert first.code == "IRS301" and first.line == 6
    assert first.related == ("layer 3 'relu3'", "layer 5 'convolution5'", "layer 6 'result6'")
    assert "3 layer(s) downstream repeat these declared dims" in first.message


def test_independent_fault_downstream_is_still_reported(tmp_path: Path) -> None:
    # conv2 declares 8x8: wrong even from its (wrong) declared 9x9 input, so it is a fault of its own.
    report = check(tmp_path, chain([1, 4, 9, 9], [1, 4, 8, 8]))
    assert sorted({d.layer_id for d in report.errors}) == ["2", "5"]
    assert by_code(report, "IRS301")[0].related == ("layer 3 'relu3'", "layer 5 'convolution5'")


def test_parameter_shape_attribute_is_the_origin(tmp_path: Path) -> None:
    # The shape attribute says 12x12, every declared dim was computed from 10x10.
    report = check(tmp_path, chain([1, 4, 8, 8], [1, 4, 6, 6], param_attr="1,3,12,12"))
    assert codes(report) == ["IRS416"]
    (finding,) = report.diagnostics
    assert finding.layer_id == "0" and finding.line == 4
    assert finding.related == (
        "layer 2 'convolution2'",
        "layer 3 'relu3'",
        "layer 5 'convolution5'",
        "layer 6 'result6'",
    )


def test_parameter_interval_shape_fits_its_minus_one_port(tmp_path: Path) -> None:
    xml = chain([1, 4, -1, 8], [1, 4, -1, 6], param_attr="1,3,4..20,10").replace(
        "<dim>1</dim><dim>3</dim><dim>10</dim><dim>10</dim>",
        "<dim>1</dim><dim>3</dim><dim>-1</dim><dim>10</dim>",
    )
    assert check(tmp_path, xml).diagnostics == []


def test_input_port_contradicting_its_edge_is_the_origin(tmp_path: Path) -> None:
    # conv1 declares 8x8 (right); relu's input and everything after it say 9x9.
    xml = chain([1, 4, 9, 9], [1, 4, 7, 7]).replace(port(2, [1, 4, 9, 9]), port(2, [1, 4, 8, 8]), 1)
    report = check(tmp_path, xml)
    assert codes(report) == ["IRS411"]
    (finding,) = report.diagnostics
    assert finding.layer_id == "3"
    assert finding.related == ("layer 5 'convolution5'", "layer 6 'result6'")
    assert "feeds the layer [1,4,8,8]" in finding.message


def test_producer_fault_is_not_repeated_on_the_edge(tmp_path: Path) -> None:
    # conv1's own output port is wrong, its consumer's input port is right: one finding.
    xml = chain([1, 4, 8, 8], [1, 4, 6, 6]).replace(port(2, [1, 4, 8, 8]), port(2, [1, 4, 8, 9]), 1)
    report = check(tmp_path, xml)
    assert codes(report) == ["IRS301"]
    assert report.diagnostics[0].related == ()


def test_several_independent_faults_in_one_run(tmp_path: Path) -> None:
    xml = chain([1, 4, 8, 8], [1, 4, 6, 6])
    xml = xml.replace(port(1, [1, 4, 8, 8]), port(1, [1, 4, 8, 8], "F32"), 1)  # relu's output precision
    xml = xml.replace('offset="432" size="576"', 'offset="432" size="500"')  # conv2's kernel too small
    xml = xml.replace('to-layer="6" to-port="0"', 'to-layer="6" to-port="3"')  # the Result's edge
    xml = xml.replace("</layers>", layer(7, "Sigmoid", [[1, 4, 6, 6]], [[1, 4, 6, 6]]) + "\n</layers>")
    xml = xml.replace("</edges>", '<edge from-layer="5" from-port="2" to-layer="7" to-port="0"/>\n</edges>')
    report = check(tmp_path, xml)
    assert {"IRS405", "IRS419", "IRS407", "IRS421"} <= set(codes(report))
    assert "IRS409" not in codes(report)  # the misdirected edge already says the port is unfed


def test_missing_bin_is_one_finding_for_the_file(tmp_path: Path) -> None:
    deconvs = [
        parameter(0, [1, 4, 8, 8]),
        const(1, [4, 2, 3, 3]),
        const(2, [2], 288, "i64"),
        layer(3, "ConvolutionBackpropData", [[1, 4, 8, 8], [4, 2, 3, 3], [2]], [[1, 2, 10, 10]], DECONV),
        layer(4, "ConvolutionBackpropData", [[1, 4, 8, 8], [4, 2, 3, 3], [2]], [[1, 2, 10, 10]], DECONV),
        layer(5, "Result", [[1, 2, 10, 10]]),
        layer(6, "Result", [[1, 2, 10, 10]]),
    ]
    edges = [
        (0, 0, 3, 0),
        (1, 0, 3, 1),
        (2, 0, 3, 2),
        (0, 0, 4, 0),
        (1, 0, 4, 1),
        (2, 0, 4, 2),
        (3, 3, 5, 0),
        (4, 3, 6, 0),
    ]
    report = check(tmp_path, net(deconvs, edges), weights=None)
    assert codes(report) == ["IRS009"]
    assert report.diagnostics[0].severity is Severity.INFO
    assert report.diagnostics[0].line == 2


def test_empty_bin_is_an_error_once(tmp_path: Path) -> None:
    report = check(tmp_path, chain([1, 4, 8, 8], [1, 4, 6, 6]), weights=b"")
    assert codes(report) == ["IRS009"]
    assert report.diagnostics[0].severity is Severity.ERROR


def test_repeated_consts_still_report_their_own_faults(tmp_path: Path) -> None:
    # Const 1 checks clean (and is kept); 2 to 6 repeat its type and shape, each with a fault.
    shape = [4, 3, 3, 3]  # 432 bytes of f32
    consts = [
        const(1, shape),
        const(2, shape, size=100),
        const(3, shape).replace('offset="0"', 'offset="x"'),
        const(4, shape, offset=4000),
        const(5, shape).replace('precision="FP32"', 'precision="FP16"'),
        const(6, shape).replace("<dim>4</dim>", "<dim>5</dim>"),
        const(7, shape, offset=432),
    ]
    results = [layer(10 + i, "Result", [shape]) for i in range(1, 8)]
    edges = [(i, 0, 10 + i, 0) for i in range(1, 8)]
    report = check(tmp_path, net(consts + results, edges))
    assert sorted((d.layer_id, d.code) for d in report.diagnostics) == [
        ("2", "IRS419"),
        ("3", "IRS418"),
        ("4", "IRS420"),
        ("5", "IRS415"),
        ("6", "IRS416"),
    ]


def test_const_out_of_a_short_bin(tmp_path: Path) -> None:
    report = check(tmp_path, chain([1, 4, 8, 8], [1, 4, 6, 6]), weights=bytes(500))
    (finding,) = report.diagnostics
    assert finding.code == "IRS420" and finding.layer_id == "4"
    assert "432..1008" in finding.message


def test_v10_drops_an_unconnected_output_shape(tmp_path: Path) -> None:
    # Without the output_shape input the deconv gives 10x10 (with it, it would be 16x16).
    layers = [
        parameter(0, [1, 4, 8, 8]),
        const(1, [4, 2, 3, 3]),
        layer(2, "ConvolutionBackpropData", [[1, 4, 8, 8], [4, 2, 3, 3], [2]], [[1, 2, 10, 10]], DECONV),
        layer(3, "Result", [[1, 2, 10, 10]]),
    ]
    edges = [(0, 0, 2, 0), (1, 0, 2, 1), (2, 3, 3, 0)]
    v10 = check(tmp_path, net(layers, edges, version=10))
    assert codes(v10) == ["IRS409"] and v10.diagnostics[0].severity is Severity.WARNING
    assert str(v10.layers[2].outputs[0]) == "[1,2,10,10]"
    v11 = check(tmp_path, net(layers, edges, version=11), name="v11")
    assert by_code(v11, "IRS409")[0].severity is Severity.ERROR


def test_v10_gap_in_the_inputs_is_an_error(tmp_path: Path) -> None:
    layers = [
        parameter(0, [1, 4, 8, 8]),
        const(1, [2], 0, "i64"),
        layer(2, "ConvolutionBackpropData", [[1, 4, 8, 8], [4, 2, 3, 3], [2]], [[1, 2, 10, 10]], DECONV),
        layer(3, "Result", [[1, 2, 10, 10]]),
    ]
    report = check(tmp_path, net(layers, [(0, 0, 2, 0), (1, 0, 2, 2), (2, 3, 3, 0)], version=10))
    (finding,) = by_code(report, "IRS409")
    assert finding.severity is Severity.ERROR and "is inconsistent!" in finding.message


def test_dangling_broken_layer_is_noted_as_never_built(tmp_path: Path) -> None:
    xml = chain([1, 4, 8, 8], [1, 4, 6, 6]).replace(
        "</layers>",
        const(7, [4, 5, 3, 3], 1008)
        + "\n"
        + layer(8, "Convolution", [[1, 3, 10, 10], [4, 5, 3, 3]], [[1, 4, 8, 8]], CONV)
        + "\n</layers>",
    )
    xml = xml.replace(
        "</edges>",
        '<edge from-layer="0" from-port="0" to-layer="8" to-port="0"/>\n'
        '<edge from-layer="7" from-port="0" to-layer="8" to-port="1"/>\n</edges>',
    )
    report = check(tmp_path, xml)
    (unreachable,) = by_code(report, "IRS421")
    assert unreachable.layer_id == "8" and unreachable.related == ("layer 7 'c7'",)
    (channels,) = by_code(report, "IRS208")
    assert channels.message.endswith("so OpenVINO never builds it and reports nothing)")


def test_cycle_is_one_finding(tmp_path: Path) -> None:
    layers = [
        parameter(0, [1, 4]),
        layer(1, "Add", [[1, 4], [1, 4]], [[1, 4]]),
        layer(2, "ReLU", [[1, 4]], [[1, 4]]),
        layer(3, "Sigmoid", [[1, 4]], [[1, 4]]),
        layer(4, "Result", [[1, 4]]),
    ]
    edges = [(0, 0, 1, 0), (3, 1, 1, 1), (1, 2, 2, 0), (2, 1, 3, 0), (3, 1, 4, 0)]
    report = check(tmp_path, net(layers, edges))
    (cycle,) = by_code(report, "IRS410")
    assert cycle.layer_id == "1" and len(cycle.related) == 2


def test_no_result_is_one_warning(tmp_path: Path) -> None:
    report = check(
        tmp_path, net([parameter(0, [1, 4]), layer(1, "ReLU", [[1, 4]], [[1, 4]])], [(0, 0, 1, 0)])
    )
    assert codes(report) == ["IRS422"]


@pytest.mark.parametrize(
    ("kind", "version", "code"),
    [
        ("Convolution", "opset16", None),
        ("Convolution", "opset17", "IRS403"),
        ("Convolution", "Opset1", "IRS403"),
        ("Convolution", "opset0", "IRS403"),
        ("convolution", "opset1", None),  # types are case-insensitive
        ("Gelu", "opset1", "IRS403"),  # Gelu arrived in opset2
        ("Gelu", "opset2", None),
        ("MVN", "opset1", None),  # the reader takes opset1's MVN from opset2
        ("GRUCell", "experimental", None),  # and these from opset6
        ("Relu", "extension", "IRS403"),
        ("Relu", "opset17", "IRS403"),
        ("Frobnicate", "opset1", "IRS404"),
    ],
)
def test_opsets(tmp_path: Path, kind: str, version: str, code: str | None) -> None:
    layers = [
        parameter(0, [1, 3, 10, 10]),
        layer(1, kind, [[1, 3, 10, 10]], [[1, 3, 10, 10]], version=version),
    ]
    layers.append(layer(2, "Result", [[1, 3, 10, 10]]))
    report = check(tmp_path, net(layers, [(0, 0, 1, 0), (1, 1, 2, 0)]))
    found = [c for c in codes(report) if c in ("IRS403", "IRS404")]
    assert found == ([code] if code else [])


def test_opset_table_has_the_convolutions_in_opset1_to_16() -> None:
    for op in ("convolution", "convolutionbackpropdata", "groupconvolution", "groupconvolutionbackpropdata"):
        assert opsets_of(op) == frozenset(range(1, 17))


def test_missing_layer_attributes_are_parse_time_errors(tmp_path: Path) -> None:
    xml = chain([1, 4, 8, 8], [1, 4, 6, 6]).replace(' name="relu3"', "").replace(' version="opset1">', ">", 1)
    report = check(tmp_path, xml)
    assert sorted((d.code, d.layer_id) for d in report.diagnostics) == [("IRS007", "0"), ("IRS007", "3")]


@pytest.mark.parametrize(("text", "value"), [("7", 7), (" 7", 7), ("+7", 7), ("-0", 0), ("07", 7)])
def test_ids_openvino_reads(text: str, value: int) -> None:
    assert parse_uint(text) == value


@pytest.mark.parametrize("text", ["7 ", "-1", "a", "", "1.5", "0x10", str(2**63)])
def test_ids_openvino_rejects(text: str) -> None:
    assert parse_uint(text) is None


@pytest.mark.parametrize(
    ("element_type", "ok"),
    [("f32", True), ("I64", True), ("undefined", True), ("F32", False), ("FP32", False), ("Dynamic", False)],
)
def test_const_element_type_spellings(tmp_path: Path, element_type: str, ok: bool) -> None:
    xml = chain([1, 4, 8, 8], [1, 4, 6, 6]).replace(
        'element_type="f32" shape="4, 3, 3, 3"', f'element_type="{element_type}" shape="4, 3, 3, 3"'
    )
    report = check(tmp_path, xml, weights=bytes(8192))
    assert ("IRS414" not in codes(report)) is ok


@pytest.mark.parametrize(
    ("element_type", "count", "needed"),
    [
        ("f32", 108, 432),
        ("u1", 10, 2),
        ("u1", 8, 1),
        ("i4", 3, 2),
        ("u4", 4, 2),
        ("u3", 108, 41),
        ("boolean", 5, 5),
    ],
)
def test_bytes_needed_packs_sub_byte_types(element_type: str, count: int, needed: int) -> None:
    assert bytes_needed(element_type, count) == needed


def test_string_const_size_is_not_checked() -> None:
    assert bytes_needed("string", 3) is None


def test_a_layer_without_a_type_is_of_no_type() -> None:
    # The structural checks pick the layers of one type in C; a layer with no type attribute
    # has None there, and ``"Result".__eq__(None)`` is NotImplemented, which is true: such a
    # layer was picked as a Result, a Parameter, an Assign...
    from irshape.check.graph import build_graph
    from irshape.check.structure import _of_type
    from irshape.ir.reader import read_bytes

    xml = b"""<net name="t" version="11"><layers>
<layer id="0" name="in" type="Parameter" version="opset1"><data shape="1" element_type="f32"/>
<output><port id="0" precision="FP32"><dim>1</dim></port></output></layer>
<layer id="1" name="r" version="opset1"><input><port id="0"><dim>1</dim></port></input></layer>
<layer id="2" name="out" type="Result" version="opset1"><input><port id="0"><dim>1</dim></port></input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/></edges></net>"""
    document = read_bytes(xml, "t.xml").document
    assert document is not None
    graph = build_graph(document)
    assert [layer.id for layer in _of_type(graph, "Result")] == ["2"]
    assert [layer.id for layer in _of_type(graph, "Parameter")] == ["0"]


def test_a_plain_graph_leaves_the_structural_checks_nothing_to_report() -> None:
    # The walk imports irshape.check.structure only where Graph.plain is false: wherever it is
    # true, each structural check must find nothing. Every fixture's graph and its bodies' (the
    # fault fixtures of every IRS4xx code, the real networks), and the faults among them are
    # not plain.
    from irshape.check import structure
    from irshape.check.graph import build_graph
    from irshape.ir.model import Document
    from irshape.ir.reader import read_file

    def documents(document: Document) -> list[Document]:
        inner = [
            body.document(document)
            for layer in document.layers
            if layer.subgraphs is not None
            for body in layer.subgraphs.bodies.values()
        ]
        return [document] + [d for body in inner for d in documents(body)]

    plain = faulty = 0
    for xml in sorted((ROOT / "fixtures").rglob("*.xml")):
        document = read_file(xml).document
        for each in documents(document) if document is not None else []:
            graph = build_graph(each)
            if not graph.is_net:
                continue
            found: list[Diagnostic] = []
            for check in (*structure.NET_CHECKS, structure.check_body_depth):
                check(graph, found.append)
            if graph.plain:
                assert found == [], xml
                plain += 1
            faulty += bool(found)
    assert plain > 100 and faulty > 30


def _net(layers: str, edges: str, version: int = 11) -> bytes:
    return f'<net name="t" version="{version}"><layers>\n{layers}</layers><edges>\n{edges}</edges></net>'.encode()


def _edge(producer: int, out_port: int, consumer: int, in_port: int) -> str:
    return (
        f'<edge from-layer="{producer}" from-port="{out_port}" to-layer="{consumer}" to-port="{in_port}"/>\n'
    )


_DIMS = "<dim>1</dim><dim>4</dim>"
_PORT = f'<port id="0" precision="FP32">{_DIMS}</port>'
_IN = f'<layer id="0" name="in" type="Parameter" version="opset1"><data shape="1,4" element_type="f32"/><output><port id="0" precision="FP32" names="x">{_DIMS}</port></output></layer>\n'
_RELU = f'<layer id="1" name="relu" type="Relu" version="opset1"><input>{_PORT}</input><output><port id="1" precision="FP32">{_DIMS}</port></output></layer>\n'
_OUT = f'<layer id="2" name="out" type="Result" version="opset1"><input>{_PORT}</input></layer>\n'
_OUT2 = f'<layer id="3" name="out2" type="Result" version="opset1"><input>{_PORT}</input></layer>\n'
_EDGES = _edge(0, 0, 1, 0) + _edge(1, 1, 2, 0)
_PLAIN = _net(_IN + _RELU + _OUT, _EDGES)

# One fault each, next to what Graph.plain looks at (one case for each of its conditions, that
# only that condition tells from a plain graph; the bodies' below): the structural checks
# report it, so the graph must not be plain (or the walk would not even import the checks).
_NOT_PLAIN = {
    "an edge from a layer there is not (IRS406)": _net(_IN + _RELU + _OUT, _EDGES + _edge(9, 0, 2, 0)),
    "an input no edge feeds (IRS409)": _net(
        _IN + _RELU.replace("</input>", f'<port id="2" precision="FP32">{_DIMS}</port></input>') + _OUT,
        _EDGES,
    ),
    "precisions differ on an edge (IRS412)": _net(_IN + _RELU + _OUT.replace("FP32", "I32"), _EDGES),
    "IR v10 (IRS423: two Results of one named output)": _net(
        _IN + _OUT + _OUT2, _edge(0, 0, 2, 0) + _edge(0, 0, 3, 0), 10
    ),
    "no Result (IRS422)": _net(_IN, ""),
    "a layer no Result reaches (IRS421)": _net(_IN + _RELU + _OUT, _edge(0, 0, 1, 0) + _edge(0, 0, 2, 0)),
    "a layer typed 'Constant' with an input, IR v11 (IRS201)": _net(
        _IN + _RELU.replace("Relu", "Constant") + _OUT, _EDGES
    ),
    "an op its opset does not hold (IRS403)": _net(_IN + _RELU.replace("opset1", "opset99") + _OUT, _EDGES),
}


def _graph_and_findings(xml: bytes) -> tuple[Graph, list[Diagnostic]]:
    """The graph of ``xml`` and what every structural check of a <net> finds in it."""
    from irshape.check import structure
    from irshape.check.graph import build_graph
    from irshape.ir.reader import read_bytes

    document = read_bytes(xml, "t.xml").document
    assert document is not None
    graph = build_graph(document)
    found: list[Diagnostic] = []
    for check in structure.NET_CHECKS:
        check(graph, found.append)
    return graph, found


@pytest.mark.parametrize("xml", _NOT_PLAIN.values(), ids=_NOT_PLAIN.keys())
def test_a_graph_the_structural_checks_find_a_fault_in_is_not_plain(xml: bytes) -> None:
    plain, nothing = _graph_and_findings(_PLAIN)
    assert plain.plain and nothing == []  # (the net each case changes)
    graph, found = _graph_and_findings(xml)
    assert found and not graph.plain


def test_a_graph_with_bodies_is_not_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """IRS215 (bodies nested deeper than OpenVINO's reader builds on this process's stack)
    reports a file plain but for its bodies, on a small enough stack."""
    from irshape.check import structure
    from irshape.check.graph import build_graph
    from irshape.ir import depth
    from irshape.ir.reader import read_file

    monkeypatch.setattr(depth, "stack_bytes", lambda: 1)  # (room for no body at all)
    document = read_file(ROOT / "fixtures" / "networks" / "onnx_scan_static.xml").document
    assert document is not None
    graph = build_graph(document)
    found: list[Diagnostic] = []
    structure.check_body_depth(graph, found.append)
    assert [d.code for d in found] == ["IRS215"] and not graph.plain
