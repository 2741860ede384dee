"""Confirm every fixture's expected verdict against the real OpenVINO.

For each ``fixtures/spec/*.xml`` (bare ``<layer>`` fragments copied from the spec texts) and
``fixtures/ir/*.xml`` (whole IR v11 nets) there is a ``<stem>.expected.toml`` that says which
output shape irshape must infer for each conv-family layer. These tests check that OpenVINO
infers exactly that shape:

* a fragment is wrapped, layer by layer, into a one-op IR v11 ``<net>``: one Parameter per
  input with the declared input port dims as its shape (the ``output_shape`` input of the
  backprop ops is an i64 Parameter, since a fragment cannot give its value, unless a test passes
  a value, then it is a Const in a .bin), the layer itself with ``version="opset1"`` when it
  has none and its ports renumbered uniquely, and a Result;
* a whole IR is read as it is.

The second test documents why irshape's declared-shape check matters: OpenVINO accepts a file
whose declared output dims are wrong (openvino-rules.md §8.2).

OpenVINO is imported plainly: if it is missing these tests fail, they are never skipped.
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import numpy as np
import openvino as ov
import pytest
from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
SPEC_DIR = ROOT / "fixtures" / "spec"
IR_DIR = ROOT / "fixtures" / "ir"
FIXTURES = sorted(SPEC_DIR.glob("*.xml")) + sorted(IR_DIR.glob("*.xml"))

CONV_TYPES = {
    "Convolution",
    "ConvolutionBackpropData",
    "GroupConvolution",
    "GroupConvolutionBackpropData",
}
BACKPROP_TYPES = {"ConvolutionBackpropData", "GroupConvolutionBackpropData"}
PRECISION = {"f32": "FP32", "i64": "I64"}


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def expected_for(xml_path: Path) -> dict:
    toml_path = xml_path.with_name(xml_path.stem + ".expected.toml")
    assert toml_path.is_file(), f"missing {toml_path.name}"
    with toml_path.open("rb") as f:
        return tomllib.load(f)


def declared_dims(layer: etree._Element) -> list[int]:
    port = layer.find("output/port")
    return [int(d.text) for d in port.findall("dim")]


def shape_str(dims: list[int]) -> str:
    return "[" + ",".join("?" if d == -1 else str(d) for d in dims) + "]"


def layers_by_id(root: etree._Element) -> dict[str, etree._Element]:
    layers = [root] if root.tag == "layer" else root.findall("layers/layer")
    return {layer.get("id"): layer for layer in layers}


# ----------------------------------------------------------------------------- wrapping


def wrap_layer(layer: etree._Element, values: dict[int, np.ndarray] | None = None) -> tuple[bytes, bytes]:
    """A one-op IR v11 net around a bare spec ``<layer>``; returns (xml bytes, bin bytes).

    ``values`` maps an input index to a known value, which becomes a Const in the .bin.
    """
    values = values or {}
    op = copy.deepcopy(layer)
    op.tail = None
    if op.get("version") is None:
        op.set("version", "opset1")
    in_ports = op.findall("input/port")
    out_ports = op.findall("output/port")
    assert len(out_ports) == 1
    for i, port in enumerate(in_ports):
        port.set("id", str(i))
    out_ports[0].set("id", str(len(in_ports)))
    if out_ports[0].get("precision") is None:
        out_ports[0].set("precision", "FP32")

    net = etree.Element("net", name=f"wrap_{op.get('name')}", version="11")
    xml_layers = etree.SubElement(net, "layers")
    edges = etree.Element("edges")
    blob = b""
    op_id = op.get("id")
    for i, port in enumerate(in_ports):
        dims = [d.text.strip() for d in port.findall("dim")]
        is_output_shape = op.get("type") in BACKPROP_TYPES and i == 2
        et = "i64" if is_output_shape else "f32"
        src_id = str(1000 + i)
        if i in values:
            value = np.ascontiguousarray(values[i], dtype=np.int64 if is_output_shape else np.float32)
            src = etree.SubElement(
                xml_layers, "layer", id=src_id, name=f"const{i}", type="Const", version="opset1"
            )
            etree.SubElement(
                src,
                "data",
                element_type=et,
                shape=",".join(str(s) for s in value.shape),
                offset=str(len(blob)),
                size=str(value.nbytes),
            )
            blob += value.tobytes()
        else:
            src = etree.SubElement(
                xml_layers, "layer", id=src_id, name=f"in{i}", type="Parameter", version="opset1"
            )
            etree.SubElement(src, "data", shape=",".join(dims), element_type=et)
        out = etree.SubElement(etree.SubElement(src, "output"), "port", id="0", precision=PRECISION[et])
        for d in dims:
            etree.SubElement(out, "dim").text = d
        etree.SubElement(
            edges,
            "edge",
            {"from-layer": src_id, "from-port": "0", "to-layer": op_id, "to-port": str(i)},
        )
    xml_layers.append(op)
    result = etree.SubElement(xml_layers, "layer", id="2000", name="result", type="Result", version="opset1")
    res_port = etree.SubElement(etree.SubElement(result, "input"), "port", id="0")
    for d in out_ports[0].findall("dim"):
        etree.SubElement(res_port, "dim").text = d.text
    etree.SubElement(
        edges,
        "edge",
        {"from-layer": op_id, "from-port": str(len(in_ports)), "to-layer": "2000", "to-port": "0"},
    )
    net.append(edges)
    return etree.tostring(net, xml_declaration=True, encoding="utf-8"), blob


def read_with_openvino(xml: bytes, blob: bytes, tmp_path: Path, stem: str) -> ov.Model:
    xml_path = tmp_path / f"{stem}.xml"
    xml_path.write_bytes(xml)
    if blob:
        xml_path.with_suffix(".bin").write_bytes(blob)
    return ov.Core().read_model(str(xml_path))


def inferred_by_openvino(model: ov.Model, name: str) -> str:
    matches = [op for op in model.get_ops() if op.get_friendly_name() == name]
    assert len(matches) == 1, f"{len(matches)} ops named {name!r}"
    return str(matches[0].get_output_partial_shape(0))


def openvino_shapes(
    xml_path: Path,
    root: etree._Element,
    tmp_path: Path,
    values: dict[int, np.ndarray] | None = None,
) -> dict[str, str]:
    """OpenVINO's output shape of every conv-family layer of a fixture (parsed as ``root``)."""
    shapes: dict[str, str] = {}
    if root.tag == "layer":
        for lid, layer in layers_by_id(root).items():
            xml, blob = wrap_layer(layer, values)
            model = read_with_openvino(xml, blob, tmp_path, f"{xml_path.stem}_{lid}")
            shapes[lid] = inferred_by_openvino(model, layer.get("name"))
    else:
        assert root.tag == "net"
        tmp_xml = tmp_path / xml_path.name
        tmp_xml.write_bytes(etree.tostring(root, xml_declaration=True, encoding="utf-8"))
        bin_path = xml_path.with_suffix(".bin")
        if bin_path.exists():
            model = ov.Core().read_model(str(tmp_xml), str(bin_path))
        else:
            model = ov.Core().read_model(str(tmp_xml))
        for lid, layer in layers_by_id(root).items():
            if layer.get("type") in CONV_TYPES:
                shapes[lid] = inferred_by_openvino(model, layer.get("name"))
    return shapes


# ------------------------------------------------------------------------------- tests


def test_every_fixture_has_expectations() -> None:
    assert len(list(SPEC_DIR.glob("*.xml"))) == 12  # 3 each from 000, 001, 003, 004; 002 has none
    assert len(list(IR_DIR.glob("*.xml"))) >= 5
    for xml_path in FIXTURES:
        expected = expected_for(xml_path)
        assert expected["exit"] in (0, 1)
        assert expected["source"]
        root = etree.parse(str(xml_path)).getroot()
        conv_ids = {lid for lid, layer in layers_by_id(root).items() if layer.get("type") in CONV_TYPES}
        assert set(expected["layers"]) == conv_ids, xml_path.name


@pytest.mark.parametrize("xml_path", FIXTURES, ids=_id)
def test_expected_inferred_shape_is_openvinos(xml_path: Path, tmp_path: Path) -> None:
    expected = expected_for(xml_path)
    root = etree.parse(str(xml_path)).getroot()
    layers = layers_by_id(root)
    for lid, exp in expected["layers"].items():
        assert layers[lid].get("type") == exp["type"]
        if "declared" in exp:
            assert shape_str(declared_dims(layers[lid])) == exp["declared"]
    shapes = openvino_shapes(xml_path, root, tmp_path)
    for lid, exp in expected["layers"].items():
        if "inferred" in exp:
            assert shapes[lid] == exp["inferred"], f"layer {lid} ({exp.get('note', '')})"


@pytest.mark.parametrize(
    "xml_path",
    [
        p
        for p in FIXTURES
        if expected_for(p)["exit"] == 0 and any("declared" in e for e in expected_for(p)["layers"].values())
    ],
    ids=_id,
)
def test_openvino_ignores_declared_output_dims(xml_path: Path, tmp_path: Path) -> None:
    """+1 on any one declared output dim: OpenVINO still reads the file, infers the same shape."""
    expected = expected_for(xml_path)
    pristine = etree.parse(str(xml_path)).getroot()
    reference = openvino_shapes(xml_path, pristine, tmp_path)
    checked = 0
    for lid, exp in expected["layers"].items():
        if "declared" not in exp:
            continue
        n_dims = len(declared_dims(layers_by_id(pristine)[lid]))
        for k in range(n_dims):
            root = copy.deepcopy(pristine)
            dim = layers_by_id(root)[lid].find("output/port").findall("dim")[k]
            dim.text = str(int(dim.text) + 1)
            shapes = openvino_shapes(xml_path, root, tmp_path)  # raises if OpenVINO rejects it
            assert shapes == reference, f"layer {lid}, dim {k}"
            checked += 1
    assert checked > 0


def test_example3_fragment_with_its_commented_value(tmp_path: Path) -> None:
    """Example 3 with the value its XML comment gives ([450, 450]) as a Const: OpenVINO agrees
    with fixtures/ir/deconv_example3_net.xml and with the declared dims."""
    xml_path = SPEC_DIR / "001_convolution_backprop_data_example3.xml"
    root = etree.parse(str(xml_path)).getroot()
    shapes = openvino_shapes(xml_path, root, tmp_path, values={2: np.array([450, 450])})
    net_expected = expected_for(IR_DIR / "deconv_example3_net.xml")
    assert shapes == {"5": "[1,10,450,450]"}
    assert net_expected["layers"]["5"]["inferred"] == "[1,10,450,450]"
