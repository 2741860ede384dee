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
from irshape.execute.run import RunError, prepare_inputs, run_document
from irshape.ir.model import Document
from irshape.ir.reader import read_bytes, read_file

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
    # The first convolution is over the limit, and the two layers below it cannot run either.
    assert [d.code for d in report.diagnostics] == ["IRS503"]
    assert report.dry_run is not None and report.dry_run.executed == 0
    assert report.dry_run.not_executed == {"over the memory limit": 1, "below a layer not run": 2}


def test_run_matches_openvino_cpu() -> None:
    xml = FIXTURES / "ir/deconv_output_shape.xml"
    document = read_file(xml).document
    assert document is not None
    parameter = next(layer for layer in document.layers if layer.type == "Parameter")
    x = np.random.default_rng(0).standard_normal((1, 4, 8, 8)).astype(np.float32)
    ours = run_document(document, {parameter.name or "": x})
    compiled = ov.Core().compile_model(str(xml), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    theirs = compiled({0: x})[compiled.output(0)]
    (value,) = ours.results.values()
    np.testing.assert_allclose(value, theirs, rtol=1e-4, atol=1e-4)


def test_run_refuses_ops_it_does_not_know() -> None:
    text = (FIXTURES / "ir/conv_relu_deconv.xml").read_text().replace('type="ReLU"', 'type="MadeUp"')
    document = read_bytes(text.encode(), "m.xml", source=FIXTURES / "ir/conv_relu_deconv.xml").document
    assert document is not None
    with pytest.raises(RunError, match=r"layer 3 'relu1' \(MadeUp\): irshape does not know MadeUp layers"):
        run_document(document, {"input": np.zeros((1, 3, 32, 32), np.float32)})


def test_check_without_dry_run_does_not_import_numpy() -> None:
    import subprocess

    code = "import sys, irshape; irshape.check_file(sys.argv[1]); print('numpy' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code, str(ALL[0])], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


# --- what OpenVINO's CPU plugin cannot build: IRS504, from the kernels' own refusal ---------------

PADDED_CONV = """<layer id="1" name="conv" type="{op}" version="opset1">
  <data strides="1,1" dilations="1,1" pads_begin="{pb}" pads_end="{pe}" auto_pad="explicit"/>
  <input>
    <port id="0" precision="FP32"><dim>1</dim><dim>4</dim><dim>8</dim><dim>8</dim></port>
    <port id="1" precision="FP32"><dim>4</dim><dim>4</dim><dim>3</dim><dim>3</dim></port>
  </input>
  <output>
    <port id="2" precision="FP32"><dim>1</dim><dim>4</dim><dim>{h}</dim><dim>{w}</dim></port>
  </output>
</layer>"""


@pytest.mark.parametrize(
    ("op", "pb", "pe", "h", "w", "reason"),
    [
        # Forward, pads_begin -1 + pads_end 1 = 0: shape arithmetic fine (8 - 3 + 1 = 6), but a
        # negative pads_begin is refused.
        ("Convolution", "-1,0", "1,0", 6, 6, "negative pads_begin [-1, 0]"),
        # Forward, pads sum -2: OpenVINO's inference ignores such pads (6), the plugin refuses.
        ("Convolution", "0,0", "-2,0", 6, 6, "is negative on some axis"),
        # Backprop: (8-1)*1 + 3 - (-1) - 0 = 11; a negative pads_begin is refused.
        ("ConvolutionBackpropData", "-1,0", "0,0", 11, 10, "negative pads_begin [-1, 0]"),
    ],
)
def test_layers_the_cpu_plugin_cannot_build_are_irs504(
    op: str, pb: str, pe: str, h: int, w: int, reason: str
) -> None:
    text = PADDED_CONV.format(op=op, pb=pb, pe=pe, h=h, w=w)
    report = irshape.check_string(text, dry_run=DryRunOptions())
    (finding,) = [d for d in report.diagnostics if d.code.startswith("IRS5")]
    assert finding.code == "IRS504" and finding.severity == "warning"
    assert reason in finding.message and "CPU plugin cannot build" in finding.message
    assert not [d for d in report.diagnostics if d.code == "IRS901"]


def test_a_buildable_negative_pads_end_runs() -> None:
    # Forward pads 1 + -1 = 0 on axis 0: 8 + 1 - 1 - 3 + 1 = 6; it runs, and 7 is caught.
    assert [
        d.code
        for d in irshape.check_string(
            PADDED_CONV.format(op="Convolution", pb="1,0", pe="-1,0", h=6, w=6), dry_run=DryRunOptions()
        ).diagnostics
    ] == []
    wrong = PADDED_CONV.format(op="Convolution", pb="1,0", pe="-1,0", h=7, w=6)
    codes = [d.code for d in irshape.check_string(wrong, dry_run=DryRunOptions()).diagnostics]
    assert "IRS501" in codes


# --- inputs of `irshape run` --------------------------------------------------------------------------


def _document_with_parameter(shape: str) -> Document:
    text = f"""<?xml version="1.0"?>
<net name="p" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data shape="{shape}" element_type="f32"/>
      <output><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>-1</dim><dim>-1</dim></port></output>
    </layer>
    <layer id="1" name="out" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>1</dim><dim>3</dim><dim>-1</dim><dim>-1</dim></port></input>
    </layer>
  </layers>
  <edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges>
</net>"""
    document = read_bytes(text.encode(), "p.xml").document
    assert document is not None
    return document


def test_prepare_inputs_checks_intervals_and_converts_within_the_kind() -> None:
    document = _document_with_parameter("1,3,16..64,?")
    ok = prepare_inputs(document, {"x": np.zeros((1, 3, 16, 5), np.float64)})
    assert ok["x"].dtype == np.float32 and ok["x"].shape == (1, 3, 16, 5)
    with pytest.raises(RunError, match=r"has shape \[1,3,8,8\], but Parameter 'x' takes \[1,3,16\.\.64,\?\]"):
        prepare_inputs(document, {"x": np.zeros((1, 3, 8, 8), np.float32)})
    with pytest.raises(RunError, match=r"has shape \[1,3,16\]"):
        prepare_inputs(document, {"x": np.zeros((1, 3, 16), np.float32)})
    with pytest.raises(RunError, match="is complex128, but Parameter 'x' takes float32"):
        prepare_inputs(document, {"x": np.zeros((1, 3, 16, 5), np.complex128)})
    with pytest.raises(RunError, match="no input given for Parameter 'x'"):
        prepare_inputs(document, {})
    with pytest.raises(RunError, match="no Parameter named 'y'"):
        prepare_inputs(document, {"y": np.zeros(1)})


def test_prepare_inputs_random_at_dim_value() -> None:
    document = _document_with_parameter("1,3,16..64,?")
    with pytest.raises(RunError, match="--dim-value"):
        prepare_inputs(document, {}, rng=np.random.default_rng(0))
    with pytest.raises(RunError, match=r"--dim-value 8 is outside the dim 16\.\.64"):
        prepare_inputs(document, {}, rng=np.random.default_rng(0), dim_value=8)
    a = prepare_inputs(document, {}, rng=np.random.default_rng(4), dim_value=20)["x"]
    b = prepare_inputs(document, {}, rng=np.random.default_rng(4), dim_value=20)["x"]
    assert a.shape == (1, 3, 20, 20) and a.dtype == np.float32
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(run_document(document, {"x": a}).results["out"], a)


def test_a_kernel_that_disagrees_with_the_inference_is_irs505(monkeypatch: pytest.MonkeyPatch) -> None:
    """The executor checks every output against irshape's own inference: a kernel giving
    another shape (or dtype) is a finding that asks for a report, and the layers below it are
    not run."""
    import irshape.kernels.elementwise as elementwise

    monkeypatch.setattr(elementwise, "relu", lambda call: call.inputs[0][..., :1])
    irshape.kernels._kernel.cache_clear()  # (kernels are looked up once)
    try:
        report = irshape.check_file(FIXTURES / "ir/conv_relu_deconv.xml", dry_run=DryRunOptions())
    finally:
        irshape.kernels._kernel.cache_clear()
    (finding,) = [d for d in report.diagnostics if d.code.startswith("IRS5")]
    assert finding.code == "IRS505" and finding.layer_id == "3" and "please report it" in finding.message
    assert "[1,16,32,1] float32" in finding.message and "[1,16,32,32] f32" in finding.message
    assert report.dry_run is not None and report.dry_run.not_executed == {
        "disagreeing with the inference": 1,
        "below a layer not run": 1,
    }


def test_a_folded_bf16_shape_subgraph_runs_in_a_dry_run(tmp_path: Path) -> None:
    """A Reshape's target computed from bf16 Consts: OpenVINO folds 103 * 5 to 512 (its own
    bf16 rounding), so the Reshape of 512 elements is valid and declares [512]; a bf16 kernel
    rounds to 516, and the dry run used to leave the Reshape unrun (IRS502: 'target_shape
    [516] has 516 elements, the data [512] has 512')."""
    import openvino.opset13 as opset

    x = opset.parameter([512], ov.Type.f32)
    bf16 = [opset.constant(np.array([v], np.float32), ov.Type.bf16) for v in (103.0, 5.0)]
    target = opset.convert(opset.multiply(*bf16), "i64")
    model = ov.Model([opset.result(opset.reshape(x, target, False))], [x])
    ov.save_model(model, tmp_path / "m.xml", compress_to_fp16=False)
    assert "<dim>512</dim>" in (tmp_path / "m.xml").read_text()
    report = irshape.check_file(tmp_path / "m.xml", dry_run=DryRunOptions())
    assert [d.code for d in report.diagnostics if d.code.startswith("IRS5")] == []
    assert report.dry_run is not None and report.dry_run.executed == 3  # Multiply, Convert, Reshape


NETWORKS = FIXTURES / "networks"


def _check_document_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """The keyword arguments of every call of check_document from here on."""
    import irshape.api
    import irshape.check.model as model

    calls: list[dict[str, object]] = []
    original = model.check_document

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(kwargs)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(model, "check_document", counted)
    monkeypatch.setattr(irshape.api, "check_document", counted)
    return calls


def test_a_dry_run_of_control_flow_reuses_the_checks_body_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The executor runs a TensorIterator's body at the shapes OpenVINO compiles it for: the
    dry run takes them from the check it follows (one walk of the document, not two)."""
    calls = _check_document_calls(monkeypatch)
    report = irshape.check_file(NETWORKS / "ti_lstm_static.xml", dry_run=DryRunOptions())
    assert report.dry_run is not None and not report.dry_run.not_executed and report.dry_run.executed > 0
    assert len(calls) == 1
    assert calls[0]["body_shapes"]  # (kept by that one check)


def test_a_dry_run_without_control_flow_keeps_no_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file without control flow is checked as without --dry-run: no shapes kept, so the
    walk's memo of repeated layers stays on."""
    calls = _check_document_calls(monkeypatch)
    report = irshape.check_file(FIXTURES / "ir/conv_relu_deconv.xml", dry_run=DryRunOptions())
    assert report.dry_run is not None and report.dry_run.executed > 0
    assert len(calls) == 1 and calls[0].get("body_shapes") is None and calls[0].get("port_shapes") is None


@pytest.mark.parametrize("name", ["ti_lstm_static", "ti_lstm_interval", "mask_rcnn_static_f32"])
def test_the_kept_body_shapes_are_the_whole_inferences(name: str) -> None:
    """``body_shapes`` holds every port of the control-flow layers and their bodies that the
    inference of the whole document (``port_shapes``) holds, with the same shapes."""
    from irshape.check.model import check_document

    document = read_file(NETWORKS / f"{name}.xml").document
    assert document is not None
    whole: dict[int, object] = {}
    check_document(document, lambda finding: None, port_shapes=whole)  # type: ignore[arg-type]
    kept: dict[int, object] = {}
    check_document(document, lambda finding: None, body_shapes=kept)  # type: ignore[arg-type]
    wanted = set()
    for layer in document.layers:
        if layer.subgraphs is None:
            continue
        wanted |= {id(port) for port in (*layer.inputs, *layer.outputs)}
        for body in layer.subgraphs.bodies.values():
            wanted |= {id(port) for inner in body.layers for port in (*inner.inputs, *inner.outputs)}
    expected = {key: whole[key] for key in wanted if key in whole}
    assert len(expected) > 20
    assert {key: kept.get(key) for key in expected} == expected
