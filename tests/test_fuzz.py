"""Fuzzing: generated and mutated IR documents must give findings, never an exception.

Every example goes through the whole library path (``check_string`` / ``check_file``: reading,
the graph walk, shape inference) and through every reporter, and must come back without an
exception and without an internal-error finding (IRS901, which is how irshape reports its
own bugs). The budget is fixed and the examples are derived from the test's name
(``derandomize=True``), so a CI run takes the same ~30 s and finds the same things each time.

Inputs that once broke irshape are kept in ``fixtures/regressions/`` and checked on every run
(``test_regression_corpus``); add each new one there with its fix.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from irshape import check_file, check_string
from irshape.report import REPORTERS
from irshape.results import FileReport
from irshape.rules import RULES

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SEEDS = sorted((FIXTURES / "ir").glob("*.xml")) + sorted((FIXTURES / "spec").glob("*.xml"))
REGRESSIONS = sorted((FIXTURES / "regressions").glob("*.xml"))

# The CI budget. For a deeper, random search: IRSHAPE_FUZZ_EXAMPLES=5000 IRSHAPE_FUZZ_RANDOM=1.
EXAMPLES = int(os.environ.get("IRSHAPE_FUZZ_EXAMPLES", "400"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("IRSHAPE_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=list(HealthCheck),
)


def assert_findings_only(report: FileReport) -> None:
    """The report is well formed and holds no internal error; every reporter renders it."""
    internal = [d.message for d in report.diagnostics if d.code == "IRS901"]
    assert not internal, internal
    for d in report.diagnostics:
        assert d.code in RULES
        assert d.line is None or d.line >= 0
        assert "\n" not in d.message
    for reporter in REPORTERS.values():
        reporter().render_check([report])
        if hasattr(reporter, "render_infer"):
            with contextlib.suppress(NotImplementedError):
                reporter().render_infer([report])


# -- generated documents -----------------------------------------------------------------------

BIG = [str(2**31), str(2**63 - 1), str(2**63), str(2**64), str(2**70), "9" * 30, "9" * 5000]
INTEGER_TEXT = st.one_of(
    st.integers(-3, 40).map(str),
    st.sampled_from(["-1", "0", *BIG, "-" + str(2**70)]),
)
ODD_TEXT = st.sampled_from(
    ["", " ", "?", "-", "+4", " 3 ", "3.5", "1e3", "0x10", "1_0", "\u0663", "\uff13", "nan", "inf", "2 2"]
)
SAFE_CHARS = st.characters(blacklist_categories=("Cs", "Cc"))  # what lxml can write
DIM_TEXT = st.one_of(INTEGER_TEXT, ODD_TEXT, st.text(SAFE_CHARS, max_size=6))
SEPARATORS = st.sampled_from([",", ", ", " ", ",,", ";"])


@st.composite
def int_list(draw: st.DrawFn) -> str:
    items = draw(st.lists(st.one_of(INTEGER_TEXT, ODD_TEXT), max_size=5))
    text = draw(SEPARATORS).join(items)
    return text + draw(st.sampled_from(["", ",", " "]))


OP_TYPES = st.sampled_from(
    [
        "Convolution",
        "ConvolutionBackpropData",
        "GroupConvolution",
        "GroupConvolutionBackpropData",
        "convolution",
        "Parameter",
        "Const",
        "Relu",
        "Convert",
        "Clamp",
        "Add",
        "Concat",
        "Result",
        "Reshape",
        "Unknown",
        "",
    ]
)
ATTRIBUTE_NAMES = st.sampled_from(
    [
        "strides",
        "dilations",
        "pads_begin",
        "pads_end",
        "output_padding",
        "auto_pad",
        "group",
        "groups",
        "data_format",
        "shape",
        "element_type",
        "offset",
        "size",
        "destination_type",
        "axis",
        "unknown_attribute",
    ]
)
ATTRIBUTE_VALUES = st.one_of(
    int_list(),
    st.sampled_from(
        ["explicit", "same_upper", "SAME_LOWER", "valid", "notset", "None", "f32", "i64", "u1", "boolean"]
    ),
    st.sampled_from(["1,3,?,224", "-1,2..10,..8,3..", "[1,2]", "?", "...", "1..2..3", "2.." + "9" * 5000]),
    st.text(SAFE_CHARS, max_size=8),
)
LAYER_IDS = st.one_of(
    st.integers(0, 6).map(str), st.sampled_from(["", "x", "-1", "01", "1e2", " 1", str(2**70), "9" * 5000])
)
PORT_IDS = st.one_of(st.integers(0, 5).map(str), st.sampled_from(["", "x", "-0", str(2**70), "7" * 5000]))
VERSIONS = st.sampled_from(["opset1", "opset8", "opset17", "opset99", "opset" + "9" * 5000, "", "OPSET1"])
PRECISIONS = st.sampled_from(["FP32", "FP16", "I64", "I32", "BOOL", "U8", "bogus", ""])


@st.composite
def port(draw: st.DrawFn, port_id: str) -> str:
    attrs = f" id={quoteattr(port_id)}"
    if draw(st.booleans()):
        attrs += f" precision={quoteattr(draw(PRECISIONS))}"
    dims = "".join(f"<dim>{escape(draw(DIM_TEXT))}</dim>" for _ in range(draw(st.integers(0, 6))))
    return f"<port{attrs}>{dims}</port>"


@st.composite
def layer(draw: st.DrawFn, layer_id: str) -> str:
    attrs = ""
    for name, value in (("id", layer_id), ("name", "n" + layer_id), ("type", draw(OP_TYPES))):
        if draw(st.integers(0, 9)):  # now and then, an attribute is missing
            attrs += f" {name}={quoteattr(value)}"
    attrs += f" version={quoteattr(draw(VERSIONS))}"
    data = draw(st.dictionaries(ATTRIBUTE_NAMES, ATTRIBUTE_VALUES, max_size=6))
    body = ""
    if data or draw(st.booleans()):
        body += "<data " + " ".join(f"{k}={quoteattr(v)}" for k, v in data.items()) + "/>"
    numbers = iter(range(20))

    def port_id() -> str:
        return draw(PORT_IDS) if draw(st.integers(0, 5)) == 0 else str(next(numbers))

    inputs = [draw(port(port_id())) for _ in range(draw(st.integers(0, 4)))]
    outputs = [draw(port(port_id())) for _ in range(draw(st.integers(0, 2)))]
    if inputs or draw(st.booleans()):
        body += "<input>" + "".join(inputs) + "</input>"
    if outputs or draw(st.booleans()):
        body += "<output>" + "".join(outputs) + "</output>"
    return f"<layer{attrs}>{body}</layer>"


@st.composite
def net(draw: st.DrawFn) -> str:
    ids = draw(st.lists(LAYER_IDS, min_size=1, max_size=7))  # duplicates and odd ids included
    layers = "\n".join(draw(layer(i)) for i in ids)
    edges = []
    for _ in range(draw(st.integers(0, 10))):
        src, dst = draw(st.sampled_from(ids)), draw(st.sampled_from([*ids, "42"]))
        ports = PORT_IDS
        edges.append(
            f"<edge from-layer={quoteattr(src)} from-port={quoteattr(draw(ports))} "
            f"to-layer={quoteattr(dst)} to-port={quoteattr(draw(ports))}/>"
        )
    version = draw(st.sampled_from(["11", "10", "7", "", "x", "11 "]))
    return (
        f'<?xml version="1.0"?>\n<net name="fuzz" version="{version}">\n<layers>\n{layers}\n</layers>\n'
        f"<edges>\n{chr(10).join(edges)}\n</edges>\n</net>\n"
    )


@FUZZ
@given(net())
def test_generated_nets(xml: str) -> None:
    assert_findings_only(check_string(xml, path="fuzz.xml"))


@FUZZ
@given(
    st.lists(st.integers(0, 5).map(str), min_size=1, max_size=4).flatmap(
        lambda ids: st.tuples(*(layer(i) for i in ids))
    )
)
def test_generated_fragments(layers: tuple[str, ...]) -> None:
    assert_findings_only(check_string("\n".join(layers), path="fragment.xml"))


@st.composite
def conv_net(draw: st.DrawFn) -> str:
    """A Parameter -> conv -> Result net with plausible shapes, for the arithmetic's corners."""
    op = draw(OP_TYPES.filter(lambda t: "onvolution" in t))
    grouped = op.startswith("Group")
    rank = draw(st.integers(1, 4))
    small = st.integers(-2, 12)
    data = [draw(small) for _ in range(rank + 2)]
    kernel = [draw(small) for _ in range(rank + 2 + grouped)]
    attributes = {
        name: ",".join(str(draw(small)) for _ in range(draw(st.integers(rank - 1, rank + 1))))
        for name in ("strides", "dilations", "pads_begin", "pads_end", "output_padding")
        if draw(st.integers(0, 4))
    }
    if draw(st.booleans()):
        attributes["auto_pad"] = draw(st.sampled_from(["explicit", "same_upper", "same_lower", "valid"]))

    def dims(values: list[int]) -> str:
        return "".join(f"<dim>{v}</dim>" for v in values)

    shape = ",".join("?" if v == -1 else str(v) for v in data)
    out = [draw(small) for _ in range(draw(st.integers(0, rank + 3)))]
    data_attrs = " ".join(f'{k}="{v}"' for k, v in attributes.items())
    return f"""<?xml version="1.0"?>
<net name="conv" version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="{shape}" element_type="f32"/>
<output><port id="0" precision="FP32">{dims(data)}</port></output></layer>
<layer id="1" name="w" type="Parameter" version="opset1"><data shape="{",".join(map(str, kernel))}" element_type="f32"/>
<output><port id="0" precision="FP32">{dims(kernel)}</port></output></layer>
<layer id="2" name="conv" type="{op}" version="opset1"><data {data_attrs}/>
<input><port id="0" precision="FP32">{dims(data)}</port><port id="1" precision="FP32">{dims(kernel)}</port></input>
<output><port id="2" precision="FP32">{dims(out)}</port></output></layer>
<layer id="3" name="r" type="Result" version="opset1"><input><port id="0">{dims(out)}</port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
</edges></net>
"""


@FUZZ
@given(conv_net())
def test_generated_conv_arithmetic(xml: str) -> None:
    assert_findings_only(check_string(xml, path="conv.xml"))


# -- mutated fixtures --------------------------------------------------------------------------

SEED_BYTES = [path.read_bytes() for path in SEEDS]


@st.composite
def byte_mutation(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SEED_BYTES)))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        size = draw(st.integers(0, 64))
        kind = draw(st.sampled_from(["delete", "insert", "duplicate", "flip", "truncate", "tag"]))
        if kind == "delete":
            del data[at : at + size]
        elif kind == "insert":
            data[at:at] = draw(st.binary(max_size=size))
        elif kind == "duplicate":
            data[at:at] = data[at : at + size]
        elif kind == "flip" and at < len(data):
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "truncate":
            del data[at:]
        else:
            data[at:at] = draw(
                st.sampled_from([b"<layer>", b"</layer>", b"<dim>", b"&amp;", b"<![CDATA[", b"]]>"])
            )
    return bytes(data)


@FUZZ
@given(byte_mutation())
def test_mutated_bytes(data: bytes) -> None:
    assert_findings_only(check_string(data, path="mutated.xml"))


@st.composite
def tree_mutation(draw: st.DrawFn) -> tuple[int, bytes]:
    """A seed IR with elements and attributes changed, removed or duplicated."""
    seed = draw(st.integers(0, len(SEEDS) - 1))
    root = etree.fromstring(SEED_BYTES[seed])
    elements = [e for e in root.iter() if isinstance(e.tag, str)]  # no comments
    for _ in range(draw(st.integers(1, 5))):
        element = draw(st.sampled_from(elements))
        kind = draw(st.sampled_from(["attribute", "drop-attribute", "text", "remove", "duplicate", "empty"]))
        if kind == "attribute":
            name = draw(st.one_of(st.sampled_from(sorted(element.attrib) or ["id"]), ATTRIBUTE_NAMES))
            element.set(name, draw(st.one_of(ATTRIBUTE_VALUES, INTEGER_TEXT, LAYER_IDS)))
        elif kind == "drop-attribute" and element.attrib:
            del element.attrib[draw(st.sampled_from(sorted(element.attrib)))]
        elif kind == "text":
            element.text = draw(DIM_TEXT)
        elif kind == "remove" and element.getparent() is not None:
            element.getparent().remove(element)
        elif kind == "duplicate" and element.getparent() is not None:
            element.addnext(etree.fromstring(etree.tostring(element)))
        elif kind == "empty":
            for child in list(element):
                element.remove(child)
    return seed, etree.tostring(root, xml_declaration=True, encoding="utf-8")


@FUZZ
@given(tree_mutation())
def test_mutated_trees(case: tuple[int, bytes]) -> None:
    assert_findings_only(check_string(case[1], path="mutated.xml"))


@settings(FUZZ, max_examples=max(1, EXAMPLES // 4))
@given(tree_mutation(), st.integers(0, 2**16), st.binary(max_size=32))
def test_mutated_trees_with_weights(case: tuple[int, bytes], cut: int, junk: bytes) -> None:
    """Through check_file, with the seed's .bin cut short or with junk appended: Const values."""
    seed, data = case
    source = SEEDS[seed]
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "model.xml"
        xml.write_bytes(data)
        if source.with_suffix(".bin").exists():
            weights = source.with_suffix(".bin").read_bytes()
            xml.with_suffix(".bin").write_bytes(weights[: cut or len(weights)] + junk)
        assert_findings_only(check_file(xml))


# -- the corpus of inputs that once broke irshape --------------------------------------------


@pytest.mark.parametrize("path", REGRESSIONS, ids=lambda p: p.stem)
def test_regression_corpus(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / path.name
        shutil.copy(path, copy)
        if path.with_suffix(".bin").exists():
            shutil.copy(path.with_suffix(".bin"), copy.with_suffix(".bin"))
        assert_findings_only(check_file(copy))
    assert_findings_only(check_string(path.read_bytes(), path=path.name))


def test_the_corpus_is_not_empty() -> None:
    assert REGRESSIONS, "fixtures/regressions/ should keep the inputs that once broke irshape"
