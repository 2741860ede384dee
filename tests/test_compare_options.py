"""``irshape compare --isolate`` and ``--extension``, run as the command on the corpus's files.

--isolate: mobilenet_v2_int8_static (NNCF's int8, FakeQuantize on activations) diverges at a
FakeQuantize whose input lies on a rounding boundary, and the layers below inherit the step;
isolated, each layer runs on OpenVINO's outputs above it, and only FakeQuantize layers are left
(tests/test_networks_execution.py: a FakeQuantize alone may be a step off at a few elements).

--extension: bpe_tokenizer's BPE ops are openvino_tokenizers' (``version="extension"``), which
OpenVINO cannot read without that library; with it, every layer irshape runs (those above the
first extension layer) equals OpenVINO's.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner, Result

import irshape.kernels
import irshape.kernels.elementwise as elementwise
from irshape.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
QUANTIZED = FIXTURES / "networks" / "mobilenet_v2_int8_static.xml"
TOKENIZER = FIXTURES / "networks" / "bpe_tokenizer.xml"
NET = FIXTURES / "ir" / "conv_relu_deconv.xml"
SUMMARY = re.compile(r"(\d+) layer output\(s\) compared: (\d+) agree, (\d+) diverge")
DIVERGENT = re.compile(r"^layer \S+ '[^']*' \((\w+)\) output \d+: ", re.MULTILINE)


def compare(*args: str) -> Result:
    return CliRunner().invoke(main, ["compare", *args])


def counts(result: Result) -> tuple[int, int, int]:
    found = SUMMARY.search(result.output)
    assert found is not None, result.output
    compared, agree, diverge = (int(n) for n in found.groups())
    return compared, agree, diverge


def test_isolate_leaves_the_layers_that_differ_themselves() -> None:
    carried = compare(str(QUANTIZED), "--show", "100")
    isolated = compare(str(QUANTIZED), "--show", "100", "--isolate")
    assert carried.exit_code == 1 and isolated.exit_code == 1, (carried.output, isolated.output)
    (compared, _, carried_count), (compared_isolated, _, isolated_count) = counts(carried), counts(isolated)
    assert compared == compared_isolated  # the same layer outputs, compared otherwise
    # Carried, a FakeQuantize's step reaches the layers below it (an Add, a convolution);
    # isolated, only FakeQuantize outputs are left, fewer.
    assert 0 < isolated_count < carried_count
    assert set(DIVERGENT.findall(carried.output)) - {"FakeQuantize"}
    assert set(DIVERGENT.findall(isolated.output)) == {"FakeQuantize"}
    assert len(DIVERGENT.findall(isolated.output)) == isolated_count


def test_isolate_stops_a_difference_at_its_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    relu = elementwise.relu
    monkeypatch.setattr(elementwise, "relu", lambda call: relu(call) + np.float32(0.5))
    irshape.kernels._kernel.cache_clear()  # (kernels are looked up once)
    try:
        carried, isolated = compare(str(NET)), compare(str(NET), "--isolate")
    finally:
        irshape.kernels._kernel.cache_clear()
    # The ReLU is off by 0.5: carried, the deconvolution below it too; isolated, it runs on
    # OpenVINO's ReLU output and agrees.
    assert counts(carried) == (3, 1, 2) and counts(isolated) == (3, 2, 1)
    assert DIVERGENT.findall(isolated.output) == ["ReLU"]


def test_a_tokenizer_needs_its_extension() -> None:
    plain = compare(str(TOKENIZER), "--dim-value", "3")
    assert plain.exit_code == 2
    # OpenVINO's own reason, without its "Exception from src/...cpp" lines, and what to give
    assert "OpenVINO cannot run it: Cannot create SpecialTokensSplit layer" in plain.output
    assert "Exception from" not in plain.output
    assert "give --extension openvino_tokenizers" in plain.output


@pytest.mark.parametrize("how", ["module", "path", "file here"])
def test_a_tokenizer_compares_with_its_extension(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    extension = "openvino_tokenizers" if how == "module" else str(_tokenizers_library())
    if how == "file here":  # a file of the current directory, named bare
        monkeypatch.chdir(_tokenizers_library().parent)
        extension = _tokenizers_library().name
    result = compare(str(TOKENIZER), "--dim-value", "3", "--extension", extension)
    assert result.exit_code == 0, result.output
    # The layers above the first extension layer (SpecialTokensSplit: the BPE ops are below it)
    # are compared; the extension layer is OpenVINO's alone, and no failure.
    compared, agree, diverge = counts(result)
    assert compared == agree > 0 and diverge == 0
    assert "0 layer(s) irshape did not run, 1 extension layer(s) left to OpenVINO" in result.output


def _tokenizers_library() -> Path:
    spec = importlib.util.find_spec("openvino_tokenizers")
    assert spec is not None and spec.submodule_search_locations
    (library,) = Path(next(iter(spec.submodule_search_locations)), "lib").glob("*openvino_tokenizers.*")
    return library


def test_an_extension_that_cannot_be_loaded(tmp_path: Path) -> None:
    missing = compare(str(TOKENIZER), "--extension", "no_such_extension_module")
    assert missing.exit_code == 2
    assert "Invalid value for '--extension': 'no_such_extension_module' is neither a file" in missing.output
    bare = compare(str(TOKENIZER), "--extension", "click")  # a package without a library
    assert bare.exit_code == 2 and "the Python package click ships no extension library" in bare.output
    directory = compare(str(TOKENIZER), "--extension", str(tmp_path))
    assert directory.exit_code == 2 and "is a directory" in directory.output
    not_a_library = tmp_path / "notes.so"
    not_a_library.write_text("not a shared library")
    refused = compare(str(TOKENIZER), "--dim-value", "3", "--extension", str(not_a_library))
    assert refused.exit_code == 2
    assert f"Error: --extension: cannot load the extension library {not_a_library}:" in refused.output
    assert "Cannot load library" in refused.output  # (OpenVINO's reason, the loader's after it)


def test_compare_without_openvino(monkeypatch: pytest.MonkeyPatch) -> None:
    find_spec = importlib.util.find_spec

    def without_openvino(name: str, *args: Any) -> Any:
        return None if name == "openvino" else find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_openvino)
    result = compare(str(TOKENIZER), "--extension", "openvino_tokenizers", "--isolate")
    assert result.exit_code == 2
    assert "irshape compare needs numpy and OpenVINO, which are not installed" in result.output


def test_the_options_are_in_the_help() -> None:
    result = compare("--help")
    assert result.exit_code == 0
    assert "--isolate" in result.output and "--extension NAME|PATH" in result.output
