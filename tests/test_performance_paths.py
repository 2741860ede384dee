"""The shortcuts that make irshape fast give the findings the slow paths give.

Checked here: huge values are quoted briefly in messages; ids that are not plain digits still
go through OpenVINO's reading; a repeated convolution (whose clean check is memoized) still
reports its own faults, and so does a layer the walk knows as a repeat of a clean one; a
cycle in a file listed out of graph order is still found; a file in graph order (walked as listed) and one out of it (walked in Kahn's order) give the same
findings, their inheritors named once a label in file order, and findings that tie on a line
in one order; the reporters load on demand. No timing is asserted.
"""

from __future__ import annotations

import pytest

from irshape import check_string
from irshape.check.graph import id_key
from irshape.ir.values import parse_uint
from irshape.report import FORMATS, REPORTERS

HUGE = 2_000_000


def conv(layer_id: int, strides: str = "1,1", auto_pad: str = "explicit") -> str:
    return f"""
<layer id="{layer_id}" name="conv{layer_id}" type="Convolution" version="opset1">
  <data strides="{strides}" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="{auto_pad}"/>
  <input>
    <port id="0"><dim>1</dim><dim>3</dim><dim>8</dim><dim>8</dim></port>
    <port id="1"><dim>4</dim><dim>3</dim><dim>3</dim><dim>3</dim></port>
  </input>
  <output><port id="2"><dim>1</dim><dim>4</dim><dim>6</dim><dim>6</dim></port></output>
</layer>"""


@pytest.mark.parametrize("attribute", ["auto_pad", "strides"])
def test_a_huge_attribute_is_quoted_briefly(attribute: str) -> None:
    text = "1," * (HUGE // 2) if attribute == "strides" else "x" * HUGE
    layer = conv(1, strides=text) if attribute == "strides" else conv(1, auto_pad=text)
    report = check_string(layer)
    assert report.diagnostics
    for diagnostic in report.diagnostics:
        assert len(diagnostic.message) < 2_000, diagnostic.code
    assert any("..." in d.message for d in report.diagnostics)


def test_short_values_are_quoted_whole() -> None:
    report = check_string(conv(1, auto_pad="sideways"))
    (finding,) = [d for d in report.diagnostics if d.code == "IRS107"]
    assert "'sideways'" in finding.message


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("7", "7", 7),
        ("0", "0", 0),
        ("007", "7", 7),
        (" 7", "7", 7),
        ("+7", "7", 7),
        ("-0", "0", 0),
        ("-1", "-1", None),
        ("7 ", "7 ", None),
        ("", "", None),
        ("x", "x", None),
        ("\u0667", "\u0667", None),  # an Arabic-Indic seven: a digit to str.isdigit, not to OpenVINO
        ("9223372036854775807", "9223372036854775807", 2**63 - 1),
        ("9223372036854775808", "9223372036854775808", None),
    ],
)
def test_ids_read_as_openvino_reads_them(text: str, key: str, value: int | None) -> None:
    for _ in range(2):  # the second time from id_key's memo
        assert id_key(text) == key
        assert parse_uint(text) == value
    assert id_key(None) == ""


def test_a_repeated_convolution_still_reports_its_own_faults() -> None:
    clean, faulty = (
        conv(1),
        conv(2).replace(
            "<dim>6</dim><dim>6</dim></port></output>", "<dim>6</dim><dim>5</dim></port></output>"
        ),
    )
    report = check_string(clean + clean.replace('id="1"', 'id="3"') + faulty)
    codes = [(d.code, d.layer_id) for d in report.diagnostics]
    assert codes == [("IRS301", "2")]
    assert report.layers_checked == 3
    assert [layer.outputs[0].to_json() for layer in report.layers] == [[1, 4, 6, 6]] * 3


def _relu_chain(declared: list[str]) -> str:
    """Parameter 0 [1,4] -> one Relu a declared output shape of ``declared`` -> Result."""
    port = '<port id="{}" precision="FP32">{}</port>'
    dims = "<dim>1</dim><dim>4</dim>"
    layers = [
        f'<layer id="0" name="p" type="Parameter" version="opset1"><data shape="1,4" element_type="f32"/>'
        f"<output>{port.format(0, dims)}</output></layer>"
    ]
    for i, shape in enumerate(declared, start=1):
        out = "".join(f"<dim>{d}</dim>" for d in shape.split(","))
        layers.append(
            f'<layer id="{i}" name="r{i}" type="Relu" version="opset1"><input>{port.format(0, dims)}</input>'
            f"<output>{port.format(1, out)}</output></layer>"
        )
    last = len(declared) + 1
    layers.append(
        f'<layer id="{last}" name="out" type="Result" version="opset1"><input>{port.format(0, dims)}</input></layer>'
    )
    edges = "".join(
        f'<edge from-layer="{i}" from-port="{0 if i == 0 else 1}" to-layer="{i + 1}" to-port="0"/>'
        for i in range(last)
    )
    return f'<?xml version="1.0"?>\n<net name="n" version="11"><layers>{"".join(layers)}</layers><edges>{edges}</edges></net>\n'


def test_a_layer_that_repeats_a_clean_one_still_reports_its_own_declared_dims() -> None:
    # Relus 2 to 4 take the very tensor Relu 2 gave, so the walk knows 3 as a repeat of 2;
    # 4 declares another output and is checked for itself.
    report = check_string(_relu_chain(["1,4", "1,4", "1,4", "1,5"]))
    assert [(d.code, d.layer_id, d.expected) for d in report.diagnostics] == [("IRS301", "4", 4)]
    assert [layer.outputs[0].to_json() for layer in report.layers if layer.checked] == [[1, 4]] * 4


def _chain_net(order: list[int], cycle: bool, shape: str = "1,4") -> str:
    """Parameter 0 -> Relu 1 -> Relu 2 -> Result 3, the layers listed in ``order``; every port
    declares [1,4], the Parameter's ``shape`` is OpenVINO's."""
    kinds = {0: "Parameter", 1: "Relu", 2: "Relu", 3: "Result"}
    port = '<port id="{}" precision="FP32"><dim>1</dim><dim>4</dim></port>'
    layers = []
    for i in order:
        data = f'<data shape="{shape}" element_type="f32"/>' if i == 0 else ""
        inputs = "" if i == 0 else f"<input>{port.format(0)}</input>"
        outputs = "" if i == 3 else f"<output>{port.format(1)}</output>"
        layers.append(
            f'<layer id="{i}" name="l{i}" type="{kinds[i]}" version="opset1">{data}{inputs}{outputs}</layer>'
        )
    edges = [(0, 1), (1, 2), (2, 3)]
    if cycle:
        edges = [(0, 1), (2, 1), (1, 2), (2, 3)]
    edge_xml = "".join(f'<edge from-layer="{a}" from-port="1" to-layer="{b}" to-port="0"/>' for a, b in edges)
    return f'<?xml version="1.0"?>\n<net name="n" version="11"><layers>{"".join(layers)}</layers><edges>{edge_xml}</edges></net>\n'


@pytest.mark.parametrize("order", [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1]])
def test_cycles_are_found_in_any_layer_order(order: list[int]) -> None:
    assert "IRS410" not in {d.code for d in check_string(_chain_net(order, cycle=False)).diagnostics}
    assert "IRS410" in {d.code for d in check_string(_chain_net(order, cycle=True)).diagnostics}


@pytest.mark.parametrize("order", [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1]])
def test_findings_do_not_depend_on_the_walk_order(order: list[int]) -> None:
    # The Parameter's shape says [1,5]: every declared [1,4] downstream repeats the wrong dims.
    report = check_string(_chain_net(order, cycle=False, shape="1,5"))
    (finding,) = report.diagnostics
    assert (finding.code, finding.layer_id) == ("IRS416", "0")
    # The layers that repeat it, in file order however the walk met them.
    assert finding.related == tuple(f"layer {i} 'l{i}'" for i in order if i != 0)


def test_inheritors_are_named_once_a_label() -> None:
    # Two downstream layers share an id and a name: one label, named once (IRS401 reports the
    # second layer).
    xml = _chain_net([0, 1, 2, 3], cycle=False, shape="1,5").replace('id="2" name="l2"', 'id="1" name="l1"')
    xml = xml.replace('from-layer="2"', 'from-layer="1"')
    origin = next(d for d in check_string(xml).diagnostics if d.code == "IRS416")
    assert origin.related == ("layer 1 'l1'", "layer 3 'l3'")


def _one_line_consts(order: list[int]) -> str:
    """Consts 1 and 2, each too small for its shape (IRS419), on one line in ``order``."""
    port = '<port id="{}" precision="FP32"><dim>4</dim></port>'
    consts = {
        i: f'<layer id="{i}" name="c{i}" type="Const" version="opset1">'
        f'<data element_type="f32" shape="4" offset="0" size="{i}"/><output>{port.format(0)}</output></layer>'
        for i in (1, 2)
    }
    results = "".join(
        f'<layer id="{10 + i}" name="r{i}" type="Result" version="opset1"><input>{port.format(0)}</input></layer>'
        for i in (1, 2)
    )
    edges = "".join(f'<edge from-layer="{i}" from-port="0" to-layer="{10 + i}" to-port="0"/>' for i in (1, 2))
    line = "".join(consts[i] for i in order)
    return f'<?xml version="1.0"?>\n<net name="n" version="11"><layers>\n{line}\n{results}</layers><edges>{edges}</edges></net>\n'


def test_findings_on_one_line_come_in_one_order_however_the_layers_are_listed() -> None:
    reports = [check_string(_one_line_consts(order)) for order in ([1, 2], [2, 1])]
    found = [[(d.code, d.line, d.layer_id) for d in r.diagnostics if d.code == "IRS419"] for r in reports]
    assert found[0] == found[1] and len(found[0]) == 2


def test_reporters_load_on_demand() -> None:
    assert FORMATS == ("text", "json", "sarif", "github", "junit")
    assert list(REPORTERS) == list(FORMATS)
    assert len(REPORTERS) == len(FORMATS)
    for name in FORMATS:
        assert REPORTERS[name].name == name
    with pytest.raises(KeyError):
        REPORTERS["xml"]


@pytest.mark.parametrize(
    ("text", "root_parsers"),
    [
        ('<net name="n" version="11"><layers>' + conv(1) + "</layers></net>", 0),  # an IR: its root assumed
        (conv(1), 1),  # a bare <layer>: the root found first, then read as before
        (conv(1) + conv(2), 1),  # fragments: wrapped after a first pass
        ('<model><layers><layer id="1"/></layers></model>', 1),  # another root: found first
        ("<!DOCTYPE net><net/>", 0),  # a <net> whose DOCTYPE stops the reading
        ("<net><layers><layer", 0),  # a <net> broken after its root
        ("<ne", 1),  # broken before any root: read as any other file
    ],
)
def test_the_root_is_found_by_a_parser_of_its_own_only_when_it_is_not_a_net(
    monkeypatch: pytest.MonkeyPatch, text: str, root_parsers: int
) -> None:
    """An IR's <net> is assumed by the reading pass (no parser made first to find the root);
    any other root is found first, and each file reads as it did when every root was."""
    from irshape.ir import parse

    with monkeypatch.context() as before:  # every root found first, as before the assumption
        before.setattr(parse.Reader, "_net_pass", lambda reader, chunks: None)
        expected = check_string(text)
    calls: list[object] = []
    found_first = parse._root_tag

    def counted(chunks: parse.Chunks) -> str | None:
        calls.append(chunks)
        return found_first(chunks)

    monkeypatch.setattr(parse, "_root_tag", counted)
    assumed = check_string(text)
    assert len(calls) == root_parsers
    assert [d.to_json() for d in assumed.diagnostics] == [d.to_json() for d in expected.diagnostics]
    assert len(assumed.layers) == len(expected.layers)
