"""The scanner (irshape.ir.scan) reads a file as the lxml reader does, or declines it.

On every fixture, on IRs ``ov.save_model`` writes, and on byte mutants of small IRs (bytes
inserted, deleted or replaced; attributes swapped; blanks, comments, entities and character
references added; CRLF line ends; tabs), the scanner either declines (None: the lxml reader then
reads the file) or gives the very Document and findings the lxml reader gives: the records
compared field by field, lines included, and the same sharing of ``<data>`` dicts and dims
tuples (what the walk's memos key on).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irshape.ir import scan
from irshape.ir.model import Document, all_layers
from irshape.ir.parse import Reader, ReadResult, _chunks_of
from irshape.ir.scan import scan_bytes

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
XML_FIXTURES = sorted(FIXTURES.rglob("*.xml"))
_LXML_LAYER, _HAND_OVER = scan.Scanner._lxml_layer, scan.Scanner._hand_over


def _lxml(data: bytes, path: str, source: str | None = None) -> ReadResult:
    return Reader(path, source).read(_chunks_of(data))


def _sharing(document: Document) -> tuple[list[int], list[int]]:
    """Which ports share one dims tuple, and which <data> and <rt_info> attributes one dict:
    each object numbered by its first use."""

    def numbered(objects: list[Any]) -> list[int]:
        first: dict[int, int] = {}
        return [first.setdefault(id(o), len(first)) for o in objects]

    layers = all_layers(document.layers)
    ports = [port for layer in layers for port in (*layer.inputs, *layer.outputs)]
    dicts = [layer.data for layer in layers if layer.has_data]
    dicts += [a.attributes for owner in (*layers, *ports) for a in owner.rt_info]
    return numbered([port.dims for port in ports if port.dims]), numbered(dicts)


SCANNED, HANDED_OVER, DECLINED = "scanned", "handed over", "declined"


def assert_same_or_declined(data: bytes, path: str = "model.xml") -> str:
    """The scanner's reading equals lxml's, or it declines; how it read the file: alone, handing
    the layers from one on over to lxml, or not at all."""
    with (
        mock.patch.object(scan.Scanner, "_lxml_layer", autospec=True, side_effect=_LXML_LAYER) as layer,
        mock.patch.object(scan.Scanner, "_hand_over", autospec=True, side_effect=_HAND_OVER) as rest,
    ):
        scanned = scan_bytes(data, path)
    if scanned is None:
        return DECLINED
    expected = _lxml(data, path)
    assert scanned.diagnostics == expected.diagnostics
    got, want = scanned.document, expected.document
    assert got is not None and want is not None
    for name in want.field_names():  # path, kind, version, line, source and any the model has
        if name not in ("layers", "edges"):
            assert getattr(got, name) == getattr(want, name), name
    assert len(got.layers) == len(want.layers)
    for mine, theirs in zip(got.layers, want.layers, strict=True):
        for name in theirs.field_names():
            assert getattr(mine, name) == getattr(theirs, name), (theirs.line, name)
    assert got.edges == want.edges
    assert _sharing(got) == _sharing(want)
    return HANDED_OVER if layer.called or rest.called else SCANNED


@pytest.mark.parametrize("path", XML_FIXTURES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture(path: Path) -> None:
    read = assert_same_or_declined(path.read_bytes(), str(path))
    data = path.read_bytes()
    # Every network ov.save_model wrote is read by the scanner, those with bodies (Loop, If) from
    # their first such layer on by lxml.
    if path.parent.name == "networks":
        assert read == (HANDED_OVER if b"<body>" in data or b"<then_body>" in data else SCANNED)


def test_the_fixtures_it_reads() -> None:
    """The count of fixtures the scanner reads, and that it reads the kinds it should."""
    accepted = [p for p in XML_FIXTURES if assert_same_or_declined(p.read_bytes(), str(p)) == SCANNED]
    assert len(accepted) >= 100, len(accepted)
    assert {p.parent.name for p in accepted} >= {"networks", "ir", "graph"}


def _net(body: str, edges: str = "", tail: str = "") -> bytes:
    return (
        '<?xml version="1.0"?>\n<net name="m" version="11">\n\t<layers>\n'
        f"{body}\t</layers>\n\t<edges>\n{edges}\t</edges>\n{tail}</net>\n"
    ).encode()


_LAYER = (
    '\t\t<layer id="{id}" name="n{id}" type="Relu" version="opset1">\n'
    '\t\t\t<data a="1" />\n'
    '\t\t\t<input>\n\t\t\t\t<port id="0" precision="FP32">\n'
    "\t\t\t\t\t<dim>{dim}</dim>\n\t\t\t\t\t<dim>8</dim>\n\t\t\t\t</port>\n\t\t\t</input>\n"
    '\t\t\t<output>\n\t\t\t\t<port id="1" precision="FP32" names="t{id}">\n'
    "\t\t\t\t\t<dim>{dim}</dim>\n\t\t\t\t\t<dim>8</dim>\n\t\t\t\t</port>\n\t\t\t</output>\n"
    "\t\t</layer>\n"
)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (_net(_LAYER.format(id=0, dim=1)), SCANNED),
        (_net(_LAYER.format(id=0, dim=" 1 ") + _LAYER.format(id=1, dim="x")), SCANNED),  # IRS005, lenient
        (_net(_LAYER.format(id=0, dim="")), SCANNED),
        (_net(_LAYER.format(id=0, dim="-1")), SCANNED),
        (
            _net(_LAYER.format(id=0, dim=1), tail='\t<rt_info>\n\t\t<x a="b"><y/></x>\n\t</rt_info>\n'),
            SCANNED,
        ),
        (_net(_LAYER.format(id=0, dim=1)).replace(b"\n", b"\r\n"), SCANNED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b'version="11"', b'version="x"'), SCANNED),  # IRS003
        (_net(_LAYER.format(id=0, dim=1)).replace(b'<data a="1" />', b'<data a="1" b="2" c="" />'), SCANNED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b'id="0" name="n0"', b'name="n0" id="0"'), SCANNED),
        (
            _net(_LAYER.format(id=0, dim=1)).replace(
                b'<port id="0" precision="FP32">', b'<port precision="FP32" id="0">'
            ),
            SCANNED,
        ),
        (
            _net(_LAYER.format(id=0, dim=1)).replace(
                b"\t\t\t\t\t<dim>8</dim>\n", b"\n\t\t\t\t\t<dim>8</dim>\n"
            ),
            SCANNED,
        ),
        (_net(_LAYER.format(id=0, dim=1)).replace(b"</dim>\n\t", b"</dim>\t", 1), SCANNED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b"\n", b"\r"), DECLINED),  # a lone CR: libxml2's lines
        (_net(_LAYER.format(id=0, dim=1)).replace(b'a="1"', b'a="1" a="2"'), DECLINED),  # repeated (pugixml)
        (_net(_LAYER.format(id=0, dim=1)).replace(b'a="1"', b'a="&amp;"'), HANDED_OVER),
        (_net(_LAYER.format(id=0, dim=1)).replace(b'a="1"', b'a="&#1;"'), DECLINED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b'a="1"', b'a="\x01"'), DECLINED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b'a="1"', b'a="\t"'), HANDED_OVER),
        (_net(_LAYER.format(id=0, dim=1)).replace(b'a="1"', b"a='1'"), HANDED_OVER),
        (_net(_LAYER.format(id=0, dim=1)).replace(b'a="1"', b'xmlns="u"'), HANDED_OVER),
        (_net(_LAYER.format(id=0, dim=1)).replace(b"<layers>", b"<layers><!-- c -->"), HANDED_OVER),
        (b"  " + _net(_LAYER.format(id=0, dim=1)), DECLINED),  # blanks before the declaration
        (_net(_LAYER.format(id=0, dim=1)).replace(b"?>", b' encoding="latin-1"?>'), DECLINED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b"</net>", b"</net"), DECLINED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b"\t</edges>", b"\t</edges>\n<!DOCTYPE x>"), DECLINED),
        (_net(_LAYER.format(id=0, dim=1))[:-30], DECLINED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b"\xff", b""), SCANNED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b'name="n0"', 'name="é€😀"'.encode()), SCANNED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b'name="n0"', b'name="\xff"'), DECLINED),
        (_net(_LAYER.format(id=0, dim=1)).replace(b'name="n0"', 'name="\ufffe"'.encode()), DECLINED),
    ],
)
def test_cases(text: bytes, read: str) -> None:
    assert assert_same_or_declined(text) == read


# The <net>'s tail as ov.save_model writes it: read without lxml (Scanner._regular_tail).
_TAIL = (
    '\t<rt_info>\n\t\t<Runtime_version value="2026.4.1" />\n\t\t<conversion_parameters>\n'
    '\t\t\t<framework value="pytorch" />\n\t\t\t<is_python_object value="True" />\n'
    "\t\t</conversion_parameters>\n\t</rt_info>\n"
)


def _tail_read(data: bytes) -> tuple[str, bool]:
    """How the file was read (as assert_same_or_declined says), and whether lxml read its tail."""
    with mock.patch.object(
        scan._RestReader, "read_rest", autospec=True, side_effect=Reader.read_rest
    ) as rest:
        read = assert_same_or_declined(data)
    return read, rest.called


@pytest.mark.parametrize(
    ("tail", "after", "expected"),
    [
        ("", "", (SCANNED, False)),
        (_TAIL, "", (SCANNED, False)),
        (_TAIL, " \n\n", (SCANNED, False)),
        ("\t<rt_info/>\n", "", (SCANNED, False)),
        ("\t<rt_info></rt_info>\n", "", (SCANNED, False)),
        ('<rt_info><a value="1"><b><c x="" y="2"/></b></a><d/></rt_info>', "", (SCANNED, False)),
        ('\t<rt_info>\n\t\t<a value="1"></b>\n\t</rt_info>\n', "", (DECLINED, True)),  # lxml: mismatch
        ('\t<rt_info><a value="1" value="2"/></rt_info>\n', "", (DECLINED, True)),  # repeated
        ("\t<rt_info>text</rt_info>\n", "", (SCANNED, True)),
        ("\t<rt_info/>\n\t<rt_info/>\n", "", (SCANNED, True)),
        ('\t<rt_info x="1"/>\n', "", (SCANNED, True)),
        ("\t<!-- c -->\n", "", (SCANNED, True)),
        ('\t<meta_data><MO_version value="x"/></meta_data>\n', "", (SCANNED, True)),
        ('\t<rt_info><a xmlns="u"/></rt_info>\n', "", (SCANNED, True)),
        ("\t<rt_info><a value='1'/></rt_info>\n", "", (SCANNED, True)),
        ('\t<rt_info><a value="&amp;"/></rt_info>\n', "", (SCANNED, True)),
        ("\t<x/>\n", "", (SCANNED, True)),
        (_TAIL, "<!-- c -->\n", (SCANNED, True)),
        (_TAIL, "<x/>", (DECLINED, True)),  # a second root: lxml's error
        ("<rt_info>" + "<a>" * 70 + "</a>" * 70 + "</rt_info>", "", (SCANNED, True)),  # deep: lxml
    ],
)
def test_the_net_tail(tail: str, after: str, expected: tuple[str, bool]) -> None:
    """The <net>'s tail read without lxml where it is of ov.save_model's form, by lxml otherwise
    (the file declined where lxml fails on it), the same reading either way."""
    assert _tail_read(_net(_LAYER.format(id=0, dim=1), tail=tail) + after.encode()) == expected


_TAIL_INSERTS = [
    b" ",
    b"\t",
    b"\n",
    b"\r",
    b"\r\n",
    b"<",
    b">",
    b"/",
    b'"',
    b"'",
    b"=",
    b"<x/>",
    b'<a b="1"/>',
    b"</a>",
    b"</net>",
    b"<rt_info/>",
    b' xmlns="u"',
    b"&amp;",
    b"\x01",
    b"\xc3\xa9",
    b"\xef\xbb\xbf",
    b' a="1"',
    b"<!-- c -->",
]


@pytest.mark.parametrize("insert", _TAIL_INSERTS, ids=repr)
def test_each_insert_everywhere_in_a_tail(insert: bytes) -> None:
    """Each insert at every byte of the tail of an IR as ov.save_model writes it: the same
    reading as lxml's, or declined."""
    base = _net(_LAYER.format(id=0, dim=1), tail=_TAIL)
    for at in range(base.index(b"</edges>"), len(base) + 1):
        assert_same_or_declined(base[:at] + insert + base[at:])


_RT = '<rt_info>\n\t\t\t\t<attribute name="fused_names" version="0" value="a,b" />\n\t\t\t</rt_info>'
_PORT_RT = '<rt_info><attribute name="layout" version="0" layout="[N,C]"/></rt_info>'


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (_LAYER.format(id=0, dim=1).replace("\t\t\t<input>", f"\t\t\t{_RT}\n\t\t\t<input>"), SCANNED),
        (
            _LAYER.format(id=0, dim=1).replace(
                '<data a="1" />', _RT.replace('" />', '" />\n<attribute name="x" version="1"/>')
            ),
            SCANNED,
        ),
        (
            _LAYER.format(id=0, dim=1).replace(
                '<port id="0" precision="FP32">', '<port id="0" precision="FP32">' + _PORT_RT
            ),
            SCANNED,
        ),
        (
            _LAYER.format(id=0, dim=1).replace(
                "<dim>8</dim>\n\t\t\t\t</port>", "<dim>8</dim>" + _PORT_RT + "\n\t\t\t\t</port>"
            ),
            SCANNED,
        ),
        (
            _LAYER.format(id=0, dim=1).replace(
                "<dim>8</dim>\n", "<dim>8</dim>" + _PORT_RT + _PORT_RT.replace("N,C", "C") + "\n"
            ),
            SCANNED,
        ),
        (_LAYER.format(id=0, dim=1).replace("\t\t\t<input>", "\t\t\t<rt_info/>\n\t\t\t<input>"), HANDED_OVER),
        (
            _LAYER.format(id=0, dim=1).replace(
                "\t\t\t<input>", f"\t\t\t{_RT.replace('version=', 'name=')}\n\t\t\t<input>"
            ),
            DECLINED,
        ),
        (
            _LAYER.format(id=0, dim=1).replace(
                "\t\t\t<input>", '\t\t\t<rt_info><user_data a="1"/></rt_info>\n\t\t\t<input>'
            ),
            HANDED_OVER,
        ),
    ],
)
def test_rt_info(text: str, read: str) -> None:
    """A layer's and a port's <rt_info> (the first, its <attribute>s) read alike, three times
    over (the second and third from the scanner's templates)."""
    text = _net(
        text
        + text.replace('id="0" name="n0"', 'id="1" name="n1"')
        + text.replace('id="0" name="n0"', 'id="2" name="n2"')
    )
    assert assert_same_or_declined(text) == read


def test_blocks_cut_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file read in blocks of a few bytes: the same as in one block (the cuts between blocks
    fall inside tags, dims, blanks and the tail)."""
    from irshape.ir import scan

    text = _net("".join(_LAYER.format(id=i, dim=i % 3 or "x") for i in range(40)))
    whole = scan_bytes(text, "m.xml")
    assert whole is not None
    for block in (1, 7, 64, 300):
        monkeypatch.setattr(scan, "_BLOCK", block)
        monkeypatch.setattr(scan, "_LOOKAHEAD", 16)
        assert scan_bytes(text, "m.xml") == whole


def test_the_model_ov_save_model_writes(tmp_path: Path) -> None:
    """Every IR OpenVINO writes (no bodies) is read by the scanner, as lxml reads it: here a
    model of the usual ops with names, scalars, f16 weights, a dynamic input and rt_info."""
    import numpy as np
    import openvino as ov
    import openvino.opset13 as ops

    data = ops.parameter([-1, 3, 8, 8], np.float32, name="input")
    data.set_layout(ov.Layout("NCHW"))  # the Parameter's <rt_info>
    weights = ops.constant(np.ones((4, 3, 3, 3), np.float16))
    conv = ops.convolution(data, ops.convert(weights, np.float32), [1, 1], [1, 1], [1, 1], [1, 1])
    scalar = ops.constant(np.float32(2.0))
    scaled = ops.multiply(ops.relu(conv), scalar)
    shape = ops.shape_of(scaled)
    flat = ops.reshape(scaled, ops.concat([ops.gather(shape, [0], 0), ops.constant([-1])], 0), False)
    model = ov.Model([ops.result(ops.softmax(flat, 1))], [data], "m")
    model.set_rt_info("v", ["framework", "name"])
    path = tmp_path / "m.xml"
    ov.save_model(model, path)
    assert b"<rt_info>" in path.read_bytes().partition(b"</layers>")[0]
    assert assert_same_or_declined(path.read_bytes(), str(path)) == SCANNED


# -- mutants ------------------------------------------------------------------------------------

_SMALL = [
    FIXTURES / "ir" / "conv_relu_deconv.xml",
    FIXTURES / "ir" / "dynamic_interval.xml",
    FIXTURES / "networks" / "bert_dyn_tokens.xml",
]
_SMALL_TEXTS = [p.read_bytes()[:60_000] for p in _SMALL[:2]] + [_net(_LAYER.format(id=0, dim=1))]
_INSERTS = [
    b" ",
    b"\t",
    b"\n",
    b"\r\n",
    b"\r",
    b"<",
    b">",
    b"&",
    b'"',
    b"'",
    b"/",
    b"=",
    b"<!-- c -->",
    b"<?pi x?>",
    b"&amp;",
    b"&#38;",
    b"&#x1;",
    b"<![CDATA[x]]>",
    b"\x00",
    b"\x01",
    b"\xc3\xa9",
    b"\xff",
    b"]]>",
    b' b="1"',
    b' a="1"',
    b"<dim>3</dim>",
    b"<x/>",
    b"<rt_info/>",
    b'<attribute name="a" name="b"/>',
    b"xmlns:x=",
]


@st.composite
def _mutants(draw: st.DrawFn) -> bytes:
    text = bytearray(draw(st.sampled_from(_SMALL_TEXTS)))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "swap", "crlf", "tabs"]))
        if kind == "insert":
            text[at:at] = draw(st.sampled_from(_INSERTS))
        elif kind == "delete":
            del text[at : at + draw(st.integers(1, 8))]
        elif kind == "replace":
            text[at : at + 1] = bytes([draw(st.integers(0, 255))])
        elif kind == "swap":  # two attributes of the start tag after ``at`` change places
            match = re.compile(rb'( [\w.-]+="[^"]*")( [\w.-]+="[^"]*")').search(bytes(text), at)
            if match is not None:
                text[match.start() : match.end()] = match.group(2) + match.group(1)
        elif kind == "crlf":
            text = bytearray(bytes(text).replace(b"\n", b"\r\n"))
        else:
            text = bytearray(bytes(text).replace(b"\t", b"  "))
    return bytes(text)


@settings(max_examples=600, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutants())
def test_mutants(text: bytes) -> None:
    assert_same_or_declined(text)


@pytest.mark.parametrize("insert", _INSERTS, ids=repr)
def test_each_insert_everywhere(insert: bytes) -> None:
    """Each insert at every 7th byte of a small IR."""
    base = _SMALL_TEXTS[2]
    for at in range(0, len(base), 7):
        assert_same_or_declined(base[:at] + insert + base[at:])


def test_read_file_scans_a_large_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``read_file`` and ``read_bytes`` read a file of SCAN_MIN_BYTES or more with the scanner
    (as lxml would), a smaller one with lxml unless the scanner starts cheaply (its patterns
    made, or kept beside its bytecode, or to be kept: compiling them at every start would cost
    more)."""
    from irshape.ir import reader, scan

    scans: list[str] = []
    real = scan._scan
    monkeypatch.setattr(
        scan, "_scan", lambda scanner, blocks: scans.append(scanner.path) or real(scanner, blocks)
    )
    large = _net("".join(_LAYER.format(id=i, dim=i % 4 or "x") for i in range(500)))
    assert len(large) >= reader.SCAN_MIN_BYTES
    path = tmp_path / "large.xml"
    path.write_bytes(large)
    assert reader.read_file(path) == _lxml(large, str(path), str(path))
    assert reader.read_bytes(large, "large.xml") == _lxml(large, "large.xml")
    assert scans == [str(path), "large.xml"]
    small = _net(_LAYER.format(id=0, dim=1))
    (tmp_path / "small.xml").write_bytes(small)
    reader.read_file(tmp_path / "small.xml")  # the patterns compiled: a small file is scanned too
    assert len(scans) == 3
    monkeypatch.setattr(scan, "ready", lambda: False)  # as where they are neither made nor kept
    reader.read_file(tmp_path / "small.xml")
    reader.read_bytes(small, "small.xml")
    assert len(scans) == 3


def test_a_repeated_layer_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Layers whose text after the start tag repeats are built from the first one's template:
    its parts matched once (``_new_layer``), whatever the count; a Const's <data> differing in
    its offset alone does not make its layer new."""
    from irshape.ir import scan

    calls: list[int] = []
    real = scan.Scanner._new_layer
    monkeypatch.setattr(scan.Scanner, "_new_layer", lambda self, *a: calls.append(1) or real(self, *a))
    relu = _LAYER.replace(' names="t{id}"', "")
    const = (
        '\t\t<layer id="{id}" name="c{id}" type="Const" version="opset1">\n'
        '\t\t\t<data element_type="f32" shape="2" offset="{offset}" size="8" />\n'
        '\t\t\t<output>\n\t\t\t\t<port id="0" precision="FP32">\n\t\t\t\t\t<dim>2</dim>\n'
        "\t\t\t\t</port>\n\t\t\t</output>\n\t\t</layer>\n"
    )
    for count in (3, 30):
        calls.clear()
        body = "".join(
            relu.format(id=2 * i, dim=1) + const.format(id=2 * i + 1, offset=8 * i) for i in range(count)
        )
        assert assert_same_or_declined(_net(body)) == SCANNED
        assert len(calls) == 2  # the first ReLU and the first Const


def test_hostile_blanks_in_a_declined_layer() -> None:
    """A start tag 300,000 blanks long, in a layer the lxml reader reads alone, in one it fails
    on, and before a layer the scanner reads: each read in linear time (possessive patterns)."""
    blanks = " " * 300_000
    text = _net(_LAYER.format(id=0, dim=1).replace('<layer id="0"', f"<layer{blanks}id='0'"))
    assert assert_same_or_declined(text) == HANDED_OVER
    start_tag = '<layer id="0" name="n0" type="Relu" version="opset1">'
    unclosed = _net(_LAYER.format(id=0, dim=1).replace(start_tag, f"<layer{blanks}"))
    assert assert_same_or_declined(unclosed) == DECLINED
    assert (
        assert_same_or_declined(
            _net(_LAYER.format(id=0, dim=1)).replace(b"\t\t<layer ", blanks.encode() + b"<layer ")
        )
        == SCANNED
    )


_CONST = (
    '\t\t<layer id="{id}" name="c{id}" type="Const" version="opset1">\n'
    "\t\t\t<data {data} />\n"
    '\t\t\t<output>\n\t\t\t\t<port id="0" precision="FP32">\n\t\t\t\t\t<dim>2</dim>\n'
    "\t\t\t\t</port>\n\t\t\t</output>\n\t\t</layer>\n"
)


def test_a_const_data_differing_in_its_offset_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Const's <data> that differs from one read before in its offset's value alone is that
    one's dict with the offset replaced (its attributes not read again), shared as the lxml
    reader shares <data> dicts: by their attributes, whatever their spacing; an ``offset="``
    inside another value is not an offset."""
    from irshape.ir import scan

    read: list[str] = []
    real = scan.Scanner._attributes
    monkeypatch.setattr(scan.Scanner, "_attributes", lambda self, text: read.append(text) or real(self, text))
    spaced = 'element_type="f32"  shape="2" offset="{offset}" size="8"'  # (two blanks)
    plain = 'element_type="f32" shape="2" offset="{offset}" size="8"'
    tricky = 'note=" offset=" element_type="f32" shape="2" size="8" offset="{offset}"'
    datas = [plain.format(offset=8 * i) for i in range(20)]
    datas += [spaced.format(offset=8), spaced.format(offset=16), plain.format(offset=24)]  # shared
    datas += [spaced.format(offset=800), plain.format(offset=800)]  # a dict made, then shared
    datas += [tricky.format(offset=8 * i) for i in range(3)]
    body = "".join(_CONST.format(id=i, data=data) for i, data in enumerate(datas))
    assert assert_same_or_declined(_net(body)) == SCANNED
    read.clear()
    document = scan_bytes(_net(body), "m.xml").document  # type: ignore[union-attr]
    del read[0]  # (the <net>'s)
    assert [layer.data["offset"] for layer in document.layers] == [
        d.split('offset="')[-1].split('"')[0] for d in datas
    ]
    # Read: the first plain one, the first spaced one, and each tricky one (its "offset=" inside
    # a value is no cut, and the real one is not looked for after it).
    assert len(read) == 1 + 1 + 3
    assert document.layers[20].data is document.layers[1].data  # (offset 8)
    assert document.layers[21].data is document.layers[2].data  # (offset 16)
    assert document.layers[24].data is document.layers[23].data
