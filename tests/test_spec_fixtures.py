"""Every spec-example and IR fixture gets its documented verdict; a changed declared dim is caught.

The expected verdicts (``*.expected.toml``) come from the spec formulas worked by hand and
are confirmed against OpenVINO in test_fixture_verdicts_openvino.py.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

import irshape

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CONV_LAYER = re.compile(r'<layer\b[^>]*type="(?:Group)?Convolution(?:BackpropData)?".*?</layer>', re.S)
CASES = sorted((FIXTURES / "spec").glob("*.xml")) + sorted((FIXTURES / "ir").glob("*.xml"))


def expected(xml: Path) -> dict:
    return tomllib.loads(xml.with_suffix(".expected.toml").read_text())


@pytest.mark.parametrize("xml", CASES, ids=lambda p: p.name)
def test_fixture_verdict(xml: Path) -> None:
    verdict = expected(xml)
    report = irshape.check_file(xml)
    assert (1 if report.errors else 0) == verdict["exit"], [d.message for d in report.errors]
    for layer_id, layer in verdict["layers"].items():
        result = report.layer(layer_id)
        assert result is not None and result.outputs, layer_id
        assert str(result.outputs[0]) == layer["inferred"]
        codes = sorted(d.code for d in report.diagnostics if d.layer_id == layer_id)
        assert codes == sorted(layer["codes"])


def _mutations(xml: Path) -> list[tuple[str, int]]:
    """Each declared static output dim of a conv layer changed by +1: (new text, line of the dim)."""
    text = xml.read_text()
    out = []
    for layer in re.finditer(
        r"<layer\b[^>]*type=\"(?:Group)?Convolution(?:BackpropData)?\".*?</layer>", text, re.S
    ):
        output = re.search(r"<output>.*?</output>", layer.group(0), re.S)
        assert output is not None
        base = layer.start() + output.start()
        for dim in re.finditer(r"<dim>\s*(\d+)\s*</dim>", output.group(0)):
            start, end = base + dim.start(1), base + dim.end(1)
            mutated = text[:start] + str(int(dim.group(1)) + 1) + text[end:]
            out.append((mutated, text.count("\n", 0, start) + 1))
    return out


@pytest.mark.parametrize("xml", CASES, ids=lambda p: p.name)
def test_changing_any_declared_dim_by_one_is_an_error_at_its_line(xml: Path, tmp_path: Path) -> None:
    mutations = _mutations(xml)
    assert mutations
    unknown = _unknown_spatial_lines(xml) if xml.parent.name == "spec" else set()
    if xml.with_suffix(".bin").exists():
        shutil.copy(xml.with_suffix(".bin"), tmp_path / "model.bin")
    for text, line in mutations:
        (tmp_path / "model.xml").write_text(text)
        report = irshape.check_file(tmp_path / "model.xml")
        if line in unknown:
            # the fragment's output_shape value is unknown: its spatial dims cannot be checked
            assert not report.errors
            continue
        assert any(d.code == "IRS301" and d.line == line for d in report.errors), (xml.name, line)
        assert len(report.errors) == 1, [d.message for d in report.errors]


def _unknown_spatial_lines(xml: Path) -> set[int]:
    lines = xml.read_text().splitlines()
    return {i + 1 for i, line in enumerate(lines) if "<dim>450</dim>" in line}
