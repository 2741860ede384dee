"""``irshape compare`` and what ``irshape run`` writes: --save-all, .npz inputs, variables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import irshape
import irshape.kernels
import irshape.kernels.elementwise as elementwise
from irshape.cli import main
from irshape.dims import static_shape
from irshape.execute.compare import compare_document
from irshape.execute.dryrun import DryRunOptions
from irshape.execute.run import parameters, random_input
from irshape.ir.reader import read_file

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
NET = FIXTURES / "ir" / "conv_relu_deconv.xml"
STATEFUL = FIXTURES / "networks" / "decoder_stateful_kv.xml"


def test_compare_agrees_on_every_layer() -> None:
    result = CliRunner().invoke(main, ["compare", str(NET)])
    assert result.exit_code == 0, result.output
    assert "3 layer output(s) compared: 3 agree, 0 diverge" in result.output


def test_compare_names_the_first_divergent_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    relu = elementwise.relu
    monkeypatch.setattr(elementwise, "relu", lambda call: relu(call) + np.float32(0.5))
    irshape.kernels._kernel.cache_clear()  # (kernels are looked up once)
    try:
        result = CliRunner().invoke(main, ["compare", str(NET), "--show", "1"])
    finally:
        irshape.kernels._kernel.cache_clear()
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    # The ReLU is the first to diverge (by 0.5); the deconvolution after it diverges too.
    assert lines[0].startswith("layer 3 'relu1' (ReLU) output 0: max |error| 0.5 >")
    assert lines[1] == "... and 1 more divergent output(s)"
    assert "3 layer output(s) compared: 1 agree, 2 diverge" in lines[-1]


def test_run_saves_every_layer_and_reads_npz_inputs(tmp_path: Path) -> None:
    x = np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)
    np.savez(tmp_path / "in.npz", input=x)
    args = ["run", str(NET), "-i", str(tmp_path / "in.npz"), "-o", str(tmp_path / "out.npz")]
    result = CliRunner().invoke(main, [*args, "--save-all", str(tmp_path / "all.npz")])
    assert result.exit_code == 0, result.output
    out, layers = np.load(tmp_path / "out.npz"), np.load(tmp_path / "all.npz")
    # every layer by id: the Parameter (0), the Consts (1, 4) too, conv1 (2), relu1 (3), deconv (5)
    assert sorted(layers.files) == ["0", "1", "2", "3", "4", "5"]
    np.testing.assert_array_equal(layers["0"], x)
    np.testing.assert_array_equal(layers["3"], np.maximum(layers["2"], 0))
    (name,) = out.files
    np.testing.assert_array_equal(out[name], layers["5"])
    np.save(tmp_path / "x.npy", x)
    twice = CliRunner().invoke(
        main, ["run", str(NET), "-i", str(tmp_path / "in.npz"), "-i", f"input={tmp_path / 'x.npy'}"]
    )
    assert twice.exit_code == 2 and "given twice" in twice.output


def test_run_writes_the_variables_of_a_stateful_model(tmp_path: Path) -> None:
    ids = np.array([[1, 2, 3]], np.int64)
    np.save(tmp_path / "ids.npy", ids)
    # From the empty KV cache (batch 0) a batch of one cannot run (OpenVINO cannot either):
    refused = CliRunner().invoke(main, ["run", str(STATEFUL), "-i", f"input_ids={tmp_path / 'ids.npy'}"])
    assert refused.exit_code == 2 and "Concat" in refused.output
    empty = np.zeros((0, 3), np.int64)
    np.save(tmp_path / "empty.npy", empty)
    out = tmp_path / "out.npz"
    result = CliRunner().invoke(
        main, ["run", str(STATEFUL), "-i", f"input_ids={tmp_path / 'empty.npy'}", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    variables = [name for name in np.load(out).files if name.startswith("variable:")]
    assert len(variables) == 4  # past0..past3 of the KV cache


def _relu_off_by_half(monkeypatch: pytest.MonkeyPatch) -> None:
    relu = elementwise.relu
    monkeypatch.setattr(elementwise, "relu", lambda call: relu(call) + np.float32(0.5))
    irshape.kernels._kernel.cache_clear()  # (kernels are looked up once)


def test_isolate_runs_each_layer_on_openvinos_outputs_above_it(monkeypatch: pytest.MonkeyPatch) -> None:
    document = read_file(NET).document
    assert document is not None
    x = {"input": np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)}
    _relu_off_by_half(monkeypatch)
    try:
        carried, isolated = (compare_document(document, x, isolate=isolate) for isolate in (False, True))
    finally:
        irshape.kernels._kernel.cache_clear()
    # Carried: the ReLU's error reaches the deconvolution below it; isolated, the deconvolution
    # runs on OpenVINO's ReLU output and agrees.
    assert [c.layer.name for c in carried.divergent] == ["relu1", "deconv1"]
    assert [c.layer.name for c in isolated.divergent] == ["relu1"]
    (relu,) = isolated.divergent
    assert relu.differing == 1 * 16 * 32 * 32  # (every element of [1,16,32,32], off by 0.5)
    assert f"({relu.differing} of {relu.differing} elements)" in (relu.problem or "")


def _strings_model(path: Path) -> Path:
    """Parameter string [?] -> StringTensorUnpack-15 -> StringTensorPack-15 -> Result, and the
    unpacked symbols as a second output."""
    import openvino as ov
    from openvino import opset15

    text = opset15.parameter([-1], ov.Type.string, name="text")
    begins, ends, symbols = opset15.string_tensor_unpack(text).outputs()
    packed = opset15.string_tensor_pack(begins, ends, symbols)
    xml = path / "strings.xml"
    ov.save_model(ov.Model([packed.output(0), symbols], [text], "strings"), str(xml))
    return xml


def test_compare_takes_and_gives_strings_as_irshape_holds_them(tmp_path: Path) -> None:
    document = read_file(_strings_model(tmp_path)).document
    assert document is not None
    # irshape holds strings as str objects; OpenVINO's tensors are filled from numpy's str dtype
    # and read back through str_data (an object array fails there).
    text = np.array(["a tokenizer's", "", "input"], dtype=object)
    comparison = compare_document(document, {"text": text})
    assert not comparison.not_run and not comparison.divergent
    assert {c.layer.type for c in comparison.outputs} == {"StringTensorUnpack", "StringTensorPack"}


def test_random_strings_for_a_string_parameter(tmp_path: Path) -> None:
    document = read_file(_strings_model(tmp_path)).document
    assert document is not None
    (parameter,) = parameters(document)
    value = random_input(parameter, static_shape((4,)), np.random.default_rng(0), None)
    assert value.shape == (4,) and value.dtype == object
    assert all(
        isinstance(s, str) and len(s) <= 8 and set(s) <= set("abcdefghijklmnopqrstuvwxyz ") for s in value
    )
    # so a dry run executes a tokenizer's string input instead of stopping at its Parameter
    report = irshape.check_file(tmp_path / "strings.xml", dry_run=DryRunOptions(dim_value=5))
    assert [d.code for d in report.diagnostics if d.code.startswith("IRS5")] == []
    assert report.dry_run is not None and report.dry_run.executed == 2


def test_run_writes_string_outputs_and_reads_them_back(tmp_path: Path) -> None:
    """`irshape run -o` of a model with string outputs (object arrays, which np.save refuses
    without pickling: the run failed with exit 2): written as numpy's str dtype, a string of
    bytes that are not UTF-8 (a lone surrogate, as irshape holds them) included."""
    xml = _strings_model(tmp_path)
    text = np.array(["a tokenizer's", "", "\udcff\udc80 kept", "日本語"])
    np.save(tmp_path / "text.npy", text)
    out = tmp_path / "out.npz"
    result = CliRunner().invoke(
        main, ["run", str(xml), "-i", f"text={tmp_path / 'text.npy'}", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    with np.load(out) as saved:
        strings = [saved[name] for name in saved.files if saved[name].dtype.kind == "U"]
        symbols = [saved[name] for name in saved.files if saved[name].dtype == np.uint8]
    assert len(strings) == 1 and strings[0].tolist() == text.tolist()
    assert bytes(symbols[0]) == "".join(text.tolist()).encode("utf-8", errors="surrogateescape")
