"""Files OpenVINO's reader takes differently than a strict XML reader would (issue 24 item 5),
each established with ``openvino.Core().read_model`` and matched by irshape: an error where
OpenVINO fails, a warning with the same reading where it reads."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov_opset1
import pytest
from lxml import etree

import irshape

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "fixtures" / "ir" / "conv_relu_deconv.xml"


def _openvino_reads(xml: Path) -> bool:
    try:
        ov.Core().read_model(str(xml))
    except Exception:  # OpenVINO's own exception types
        return False
    return True


def _copy_with(tmp_path: Path, prefix: bytes, name: str = "model") -> Path:
    xml = tmp_path / f"{name}.xml"
    xml.write_bytes(prefix + BASE.read_bytes())
    shutil.copy(BASE.with_suffix(".bin"), xml.with_suffix(".bin"))
    return xml


def _shapes(report: irshape.FileReport) -> list[tuple[str, list[str]]]:
    return [(layer.name, [str(s) for s in layer.outputs]) for layer in report.layers]


# whitespace and comments before <?xml ...?>: the line the declaration is on
BEFORE_DECLARATION = {
    "space": (b" ", 1),
    "tab": (b"\t", 1),
    "newline": (b"\n", 2),
    "crlf": (b"\r\n", 2),
    "indented lines": (b"\n\n    \n  ", 4),
    "bom then space": (b"\xef\xbb\xbf  ", 1),
    "comment": (b"<!-- made by a test -->\n", 2),
    "comment and spaces": (b"  <!-- a - b -->  \n\n", 3),
}


@pytest.mark.parametrize(("prefix", "line"), BEFORE_DECLARATION.values(), ids=BEFORE_DECLARATION)
def test_whitespace_before_the_declaration_reads_with_a_warning(
    tmp_path: Path, prefix: bytes, line: int
) -> None:
    """pugixml reads the declaration after whitespace or comments (OpenVINO's reader tests write
    their IRs so); XML wants it first. irshape: IRS001 as a warning at the declaration's line,
    and the layers read as in the file without the prefix (lines shifted by the prefix's)."""
    xml = _copy_with(tmp_path, prefix)
    assert _openvino_reads(xml)
    report = irshape.check_file(xml)
    assert [(d.code, d.severity.value, d.line) for d in report.diagnostics] == [("IRS001", "warning", line)]
    assert "before the XML declaration" in report.diagnostics[0].message
    assert _shapes(report) == _shapes(irshape.check_file(BASE))
    assert report.layers[0].line == irshape.check_file(BASE).layers[0].line + line - 1


# text outside the root element, which pugixml skips: (bytes before the file, after the
# declaration, after the file; the line of the first text)
TEXT_OUTSIDE = {
    "a letter first": (b"x", b"", b"", 1),
    "a no-break space first": (b"\xc2\xa0", b"", b"", 1),
    "a vertical tab first": (b"\x0b", b"", b"", 1),
    "a form feed first": (b"\x0c", b"", b"", 1),
    "text after the declaration": (b"", b"\nsome text\n", b"", 2),
    "text after the root": (b"", b"", b"trailing text\n", 0),
    "an instruction first": (b"<?tool args?>\n", b"", b"", 0),
}


@pytest.mark.parametrize(("before", "inside", "after", "line"), TEXT_OUTSIDE.values(), ids=TEXT_OUTSIDE)
def test_text_outside_the_root_reads_with_a_warning(
    tmp_path: Path, before: bytes, inside: bytes, after: bytes, line: int
) -> None:
    """pugixml skips text outside the root element (and takes an instruction before the
    declaration); irshape reads the file so, with an IRS001 warning, and the same layers."""
    source = BASE.read_bytes()
    end = source.index(b"?>") + 2
    xml = tmp_path / "outside.xml"
    xml.write_bytes(before + source[:end] + inside + source[end:] + after)
    shutil.copy(BASE.with_suffix(".bin"), xml.with_suffix(".bin"))
    assert _openvino_reads(xml)
    report = irshape.check_file(xml)
    assert [(d.code, d.severity.value) for d in report.diagnostics] == [("IRS001", "warning")]
    if line:
        assert report.diagnostics[0].line == line
    assert _shapes(report) == _shapes(irshape.check_file(BASE))


def test_a_nul_before_the_declaration_fails_as_in_openvino(tmp_path: Path) -> None:
    xml = _copy_with(tmp_path, b"\0")
    assert not _openvino_reads(xml)
    assert [d.code for d in irshape.check_file(xml).errors] == ["IRS001"]


def test_a_late_declaration_and_a_repeated_attribute(tmp_path: Path) -> None:
    """Both defects pugixml reads past: the warning, then the error the repair reports."""
    text = BASE.read_bytes().replace(b'strides="', b'strides="1, 1" strides="', 1)
    xml = tmp_path / "both.xml"
    xml.write_bytes(b"\n  " + text)
    shutil.copy(BASE.with_suffix(".bin"), xml.with_suffix(".bin"))
    assert _openvino_reads(xml)
    report = irshape.check_file(xml)
    assert [(d.code, d.severity.value) for d in report.diagnostics] == [
        ("IRS001", "warning"),
        ("IRS001", "error"),
    ]
    assert "redefined" in report.diagnostics[1].message


# --- the backprop convolutions' output_shape of unknown length, with same_* pads -------------

Dim, Shape = ov.Dimension, ov.PartialShape
OUTPUT_SHAPES = {
    "?": Shape([Dim()]),
    "1..3": Shape([Dim(1, 3)]),
    "2..2": Shape([Dim(2, 2)]),
    "[2]": Shape([2]),
    "dynamic rank": Shape.dynamic(),
}
DATA = {
    "static": Shape([1, 4, 5, 5]),
    "one spatial dim ?": Shape([1, 4, 5, Dim()]),
    "spatial dims ?": Shape([1, 4, Dim(), Dim()]),
    "dynamic rank": Shape.dynamic(),
}


def _backprop_file(
    tmp_path: Path, output_shape: ov.PartialShape, data: ov.PartialShape, auto_pad: str, group: bool
) -> Path:
    """A ConvolutionBackpropData (or its group form) of 2 spatial axes whose output_shape is a
    Parameter; auto_pad is written into the saved file (OpenVINO's builder refuses the failing
    ones)."""
    x = ov_opset1.parameter(data, np.float32, name="x")
    shape = ov_opset1.parameter(output_shape, np.int64, name="shape")
    if group:
        kernel = ov_opset1.constant(np.ones([2, 2, 3, 3, 3], np.float32))
        node = ov_opset1.group_convolution_backprop_data(x, kernel, [2, 2], output_shape=shape)
    else:
        kernel = ov_opset1.constant(np.ones([4, 3, 3, 3], np.float32))
        node = ov_opset1.convolution_backprop_data(x, kernel, [2, 2], output_shape=shape)
    node.set_friendly_name("bp")
    xml = tmp_path / "bp.xml"
    ov.save_model(ov.Model([ov_opset1.result(node)], [x, shape]), str(xml))
    xml.write_text(xml.read_text("utf-8").replace('auto_pad="explicit"', f'auto_pad="{auto_pad}"'), "utf-8")
    return xml


@pytest.mark.parametrize("group", [False, True], ids=["conv", "group"])
@pytest.mark.parametrize("auto_pad", ["same_upper", "SAME_LOWER", "valid", "explicit"])
@pytest.mark.parametrize("data", DATA.values(), ids=DATA)
@pytest.mark.parametrize("output_shape", OUTPUT_SHAPES.values(), ids=OUTPUT_SHAPES)
def test_same_pads_of_an_output_shape_of_unknown_length(
    tmp_path: Path, output_shape: ov.PartialShape, data: ov.PartialShape, auto_pad: str, group: bool
) -> None:
    """OpenVINO reads an output_shape of unknown length (the output then has no spatial dims)
    but with same_* pads, where it reads that value's dim for a spatial axis whose data and
    kernel dims are static ('Accessing out-of-range dimension'). irshape: IRS206 on the layer
    exactly where OpenVINO fails, else its shape."""
    xml = _backprop_file(tmp_path, output_shape, data, auto_pad, group)
    report = irshape.check_file(xml)
    errors = [d for d in report.errors if d.layer_name == "bp"]
    try:
        model = ov.Core().read_model(str(xml))
    except RuntimeError as exc:
        assert "Accessing out-of-range dimension" in str(exc)
        assert [d.code for d in errors] == ["IRS206"], [d.message for d in report.diagnostics]
        assert "Accessing out-of-range dimension" in errors[0].message
        return
    assert errors == []
    (node,) = [n for n in model.get_ops() if n.get_friendly_name() == "bp"]
    (layer,) = [layer for layer in report.layers if layer.name == "bp"]
    assert [str(s) for s in layer.outputs] == [str(node.get_output_partial_shape(0))]


# --- a 4-bit output_shape Const read past its own bytes, past the end of the file -------------


def _four_bit_output_shape(tmp_path: Path, element_type: str, raw: bytes, page: bool) -> Path:
    """A ConvolutionBackpropData whose output_shape is a Const of 2 elements of
    ``element_type`` holding ``raw``, the last bytes of the .bin (after padding it to end on a
    whole page when ``page``)."""
    x = ov_opset1.parameter([1, 4, 5, 5], np.float32, name="x")
    shape = ov_opset1.constant(np.array([11, 11], np.int64))
    shape.set_friendly_name("the_shape")
    kernel = ov_opset1.constant(np.ones([4, 3, 3, 3], np.float32))
    node = ov_opset1.convolution_backprop_data(x, kernel, [2, 2], output_shape=shape)
    node.set_friendly_name("bp")
    xml = tmp_path / "four_bit.xml"
    ov.save_model(ov.Model([ov_opset1.result(node)], [x]), str(xml), compress_to_fp16=False)
    weights = xml.with_suffix(".bin").read_bytes()
    if page:
        weights += b"\x07" * ((-len(weights) - len(raw)) % 4096)
    offset = len(weights)
    xml.with_suffix(".bin").write_bytes(weights + raw)
    text = xml.read_text("utf-8")
    start = text.index('name="the_shape"')
    data_start = text.index("<data", start)
    data_end = text.index("/>", data_start)
    data = f'<data element_type="{element_type}" shape="2" offset="{offset}" size="{len(raw)}" '
    text = text[:data_start] + data + text[data_end:]
    port = text.index('precision="I64"', data_start)
    text = text[:port] + f'precision="{element_type.upper()}"' + text[port + len('precision="I64"') :]
    xml.write_text(text, "utf-8")
    return xml


FOUR_BIT = {
    "u4 0x32": ("u4", b"\x32"),
    "u4 0xba": ("u4", b"\xba"),
    "u4 0x00": ("u4", b"\x00"),
    "u4 two bytes": ("u4", b"\x32\x07"),
    "i4 0x32": ("i4", b"\x32"),
    "nf4 0x21": ("nf4", b"\x21"),
}


@pytest.mark.parametrize(("element_type", "raw"), FOUR_BIT.values(), ids=FOUR_BIT)
def test_a_four_bit_output_shape_reads_zeros_past_the_end_of_the_file(
    tmp_path: Path, element_type: str, raw: bytes
) -> None:
    """OpenVINO reads a 4-bit Const's value as one signed byte an element, on past its bytes:
    past the end of the .bin it reads the zeros that fill the mapping's last page (u4 [2, 3],
    the byte 0x32, the file's last: [.., 50, 0]). irshape reads them so."""
    xml = _four_bit_output_shape(tmp_path, element_type, raw, page=False)
    assert xml.with_suffix(".bin").stat().st_size % 4096
    (node,) = [n for n in ov.Core().read_model(str(xml)).get_ops() if n.get_friendly_name() == "bp"]
    report = irshape.check_file(xml)
    (layer,) = [layer for layer in report.layers if layer.name == "bp"]
    assert [str(s) for s in layer.outputs] == [str(node.get_output_partial_shape(0))]
    assert {d.code for d in report.diagnostics if d.layer_name == "bp"} <= {"IRS301", "IRS412"}


def test_past_a_file_of_whole_pages_the_value_is_unknown(tmp_path: Path) -> None:
    """A .bin of whole pages has no zeros after its end: OpenVINO reads whatever memory follows
    its mapping (not a value to check against); irshape says the value is unknown."""
    xml = _four_bit_output_shape(tmp_path, "u4", b"\x32", page=True)
    assert xml.with_suffix(".bin").stat().st_size % 4096 == 0
    report = irshape.check_file(xml)
    (layer,) = [layer for layer in report.layers if layer.name == "bp"]
    assert [str(s) for s in layer.outputs] == ["[1,3,?,?]"]
    (unknown,) = [d for d in report.diagnostics if d.code == "IRS008"]
    assert "past the end of the 4096-byte weights file" in unknown.message


# --- IR v10: operation names that are tensor names ----------------------------------------------

# (the Relu's or Split's name, whether it is a Split of two outputs, {layer name: its port's names
# (None: no names)}): Parameters a and b, a + b, then the Relu (or Split) a Result reads
NAMES = {
    "as saved": ("r", False, {}),
    "a Parameter named as another's tensor": ("r", False, {"a": "b", "b": "c"}),
    "a Parameter's own name among its names": ("r", False, {"a": "a"}),
    "the Relu named as a Parameter's tensor": ("r", False, {"a": "r"}),
    "the Relu's tensor named as a Parameter": ("r", False, {"r": "a", "a": "p"}),
    "the same, the Parameter without names": ("r", False, {"r": "a", "a": None}),
    "the Relu's tensor named as the Relu": ("r", False, {"r": "r"}),
    "a Split's port 0 name as a tensor": ("s", True, {"a": "s.0"}),
    "a Split's own name as a tensor": ("s", True, {"a": "s"}),
    "a name in a list": ("r", False, {"a": "x,b", "b": "y"}),
    "a Parameter's name in its list": ("r", False, {"a": "x,a", "b": "a2"}),
    "a name after a space": ("r", False, {"a": "x, b", "b": "y"}),
    "an escaped comma": ("r", False, {"a": "b\\,x", "b": "y"}),
    "a trailing space": ("r", False, {"a": "b ", "b": "y"}),
    "two Parameters of one tensor name": ("r", False, {"a": "t", "b": "t"}),
}


@pytest.mark.parametrize(("last", "split", "names"), NAMES.values(), ids=NAMES)
def test_ir_v10_operation_names_that_are_tensor_names(
    tmp_path: Path, last: str, split: bool, names: dict[str, str | None]
) -> None:
    """IR v10 names the model's inputs and outputs by their layers' names too, and fails where
    such a name is another input's or output's tensor name. irshape: IRS425 exactly there."""
    a = ov_opset1.parameter([2, 3], np.float32, name="a")
    b = ov_opset1.parameter([2, 3], np.float32, name="b")
    total = ov_opset1.add(a, b)
    node = ov_opset1.split(total, ov_opset1.constant(np.int64(0)), 2) if split else ov_opset1.relu(total)
    node.set_friendly_name(last)
    xml = tmp_path / "v10.xml"
    ov.save_model(ov.Model([ov_opset1.result(node.output(0))], [a, b]), str(xml))
    tree = etree.parse(str(xml))
    tree.getroot().set("version", "10")
    for name, port_names in names.items():
        (port,) = tree.xpath(f"//layer[@name='{name}']/output/port")
        if port_names is None:
            port.attrib.pop("names", None)
        else:
            port.set("names", port_names)
    tree.write(str(xml))
    codes = [d.code for d in irshape.check_file(xml).errors]
    try:
        ov.Core().read_model(str(xml))
    except RuntimeError as exc:
        assert "Model operation names have collisions with tensor names" in str(exc)
        assert codes == ["IRS425"]
        return
    assert codes == []
