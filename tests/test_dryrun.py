"""Dry runs: each spec fixture runs (or is skipped with a reason), and shapes are confirmed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import openvino as ov
import pytest

import irshape
from irshape.execute.dryrun import DryRunOptions
from irshape.execute.run import RunError, run_document
from irshape.ir.reader import read_file

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ALL = sorted(FIXTURES.glob("spec/*.xml")) + sorted(FIXTURES.glob("ir/*.xml"))


@pytest.mark.parametrize("xml", ALL, ids=lambda p: p.name)
def test_every_fixture_runs_or_is_skipped_with_a_reason(xml: Path) -> None:
    report = irshape.check_file(xml, dry_run=DryRunOptions(dim_value=8))
    dry = [d.code for d in report.diagnostics if d.code.startswith("IRS5")]
    if xml.stem.endswith("_3d"):
        # the spec's 3D examples (e.g. an 8x447^3 output) are over the 1 GiB default limit
        assert dry == ["IRS503"]
    elif xml.stem == "001_convolution_backprop_data_example3":
        assert dry == ["IRS502"]  # output_shape's value exists only in an XML comment
    else:
        assert dry == []


def test_a_wrong_declared_dim_is_caught_by_running(tmp_path: Path) -> None:
    text = (FIXTURES / "spec/001_convolution_backprop_data_example2.xml").read_text()
    mutated = re.sub(r"<dim>8</dim>", "<dim>9</dim>", text, count=1)
    (tmp_path / "m.xml").write_text(mutated)
    report = irshape.check_file(tmp_path / "m.xml", dry_run=DryRunOptions())
    (finding,) = [d for d in report.diagnostics if d.code == "IRS501"]
    assert "[1,10,8,8]" in finding.message and "[1,10,9,8]" in finding.message


def test_dynamic_dims_skipped_without_dim_value() -> None:
    report = irshape.check_file(FIXTURES / "ir/dynamic_interval.xml", dry_run=DryRunOptions())
    assert {d.code for d in report.diagnostics} == {"IRS502"}


def test_memory_limit_skips() -> None:
    report = irshape.check_file(FIXTURES / "ir/conv_relu_deconv.xml", dry_run=DryRunOptions(max_memory=1000))
    assert [d.code for d in report.diagnostics] == ["IRS503", "IRS503"]


def test_run_matches_openvino_cpu() -> None:
    xml = FIXTURES / "ir/deconv_output_shape.xml"
    document = read_file(xml).document
    assert document is not None
    parameter = next(layer for layer in document.layers if layer.type == "Parameter")
    x = np.random.default_rng(0).standard_normal((1, 4, 8, 8)).astype(np.float32)
    ours = run_document(document, {parameter.name or "": x})
    compiled = ov.Core().compile_model(str(xml), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    theirs = compiled({0: x})[compiled.output(0)]
    (value,) = ours.values()
    np.testing.assert_allclose(value, theirs, rtol=1e-4, atol=1e-4)


def test_run_refuses_ops_it_cannot_execute() -> None:
    document = read_file(FIXTURES / "ir/conv_relu_deconv.xml").document
    assert document is not None
    with pytest.raises(RunError, match=r"(?i)relu"):
        run_document(document, {"input": np.zeros((1, 3, 32, 32), np.float32)})


def test_check_without_dry_run_does_not_import_numpy() -> None:
    import subprocess

    code = "import sys, irshape; irshape.check_file(sys.argv[1]); print('numpy' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code, str(ALL[0])], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"
