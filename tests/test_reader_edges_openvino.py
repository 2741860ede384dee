"""Files OpenVINO's reader takes differently than a strict XML reader would (issue 24 item 5),
each established with ``openvino.Core().read_model`` and matched by irshape: an error where
OpenVINO fails, a warning with the same reading where it reads."""

from __future__ import annotations

import shutil
from pathlib import Path

import openvino as ov
import pytest

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
