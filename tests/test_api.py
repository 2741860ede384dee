"""The library API converters call before they write IR: typed, never printing, never exiting."""

from __future__ import annotations

import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conv_layers import BAD

import irshape
from irshape import PartialShape, Severity

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
NET = ROOT / "fixtures" / "ir" / "conv_relu_deconv.xml"


def python_blocks() -> list[str]:
    section = README.read_text(encoding="utf-8").split("## Library", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


# --- files and strings ---------------------------------------------------------------------------


def test_check_string_and_check_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = irshape.check_string(BAD, path="layer.xml")
    assert isinstance(report, irshape.FileReport)
    assert [(d.code, d.severity, d.line, d.path) for d in report.diagnostics] == [
        ("IRS301", Severity.ERROR, 8, "layer.xml")
    ]
    assert report.errors == report.diagnostics and not report.ok
    assert str(report.layers[0].outputs[0]) == "[1,8,8,8]"
    assert irshape.check_string(BAD.encode()).diagnostics[0].path == "<string>"
    (tmp_path / "net.xml").write_text(BAD)
    assert irshape.check_file(tmp_path / "net.xml").diagnostics[0].code == "IRS301"
    assert irshape.check_file(NET).ok
    assert capsys.readouterr() == ("", "")  # the library never prints


def test_bad_input_is_a_finding_never_an_exception(tmp_path: Path) -> None:
    assert [d.code for d in irshape.check_file(tmp_path / "missing.xml").diagnostics] == ["IRS012"]
    assert [d.code for d in irshape.check_string("<net").diagnostics] == ["IRS001"]
    assert [d.code for d in irshape.check_string(b"\xff\xfe\x00").diagnostics] == ["IRS001"]
    assert [d.code for d in irshape.check_string("<html/>").diagnostics] == ["IRS002"]


def test_reports_pickle_for_parallel_checking() -> None:
    report = irshape.check_file(NET)
    bad = irshape.check_string(BAD)
    assert pickle.loads(pickle.dumps(report)) == report
    assert pickle.loads(pickle.dumps(bad)) == bad


# --- one layer from plain values --------------------------------------------------------------------


def test_check_layer_from_plain_values() -> None:
    ok = irshape.check_layer(
        "Convolution",
        {"strides": [1, 1], "pads_begin": "0,0", "pads_end": [0, 0], "dilations": (1, 1)},
        ["1,3,10,10", [8, 3, 3, 3]],
        declared_output=[1, 8, 8, 8],
    )
    assert ok.ok and ok.diagnostics == [] and ok.output_shape == PartialShape([1, 8, 8, 8])
    wrong = irshape.check_layer(
        "Convolution",
        {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "dilations": [1, 1]},
        [[1, 3, 10, 10], [8, 3, 3, 3]],
        declared_output="1,8,9,8",
    )
    assert [d.code for d in wrong.errors] == ["IRS301"] and not wrong.ok
    assert wrong.errors[0].declared == 9 and wrong.errors[0].expected == 8
    missing = irshape.check_layer("Convolution", {}, ["1,3,10,10", "8,3,3,3"])
    assert missing.ok and {d.code for d in missing.warnings} == {"IRS101"}


def test_check_layer_dynamic_and_group_and_backprop() -> None:
    dynamic = irshape.check_layer(
        "Convolution",
        {"strides": "1,1", "pads_begin": "0,0", "pads_end": "0,0", "dilations": "1,1"},
        ["1,3,?,224", [8, 3, 3, 3]],
        declared_output=[1, 8, -1, 222],
    )
    assert dynamic.ok and str(dynamic.output_shape) == "[1,8,1..,222]"  # ? - 3 + 1 is at least 1
    group = irshape.infer_layer(
        "GroupConvolution",
        {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "dilations": [1, 1]},
        ["1,4,8,8", "2,3,2,3,3"],
    )
    assert str(group) == "[1,6,6,6]"
    shape = irshape.infer_layer(
        "ConvolutionBackpropData",
        {"strides": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0], "dilations": [1, 1]},
        ["1,20,10,10", "20,10,3,3", [2]],
        output_shape_value=[30, 30],
    )
    assert str(shape) == "[1,10,30,30]"


def test_check_layer_refuses_an_op_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="does not know the op type 'NoSuchPool'"):
        irshape.check_layer("NoSuchPool", {}, ["1,3,8,8"])


def test_infer_layer_is_none_when_openvino_would_reject_the_layer() -> None:
    assert irshape.infer_layer("Convolution", {"strides": "0,1"}, ["1,3,8,8", "4,3,3,3"]) is None
    assert irshape.infer_layer("Convolution", {}, ["1,5,8,8", "4,3,3,3"]) is None
    assert irshape.infer_layer("Convolution", {}, ["1,3", "4,3,3,3"]) is None
    broken = irshape.check_layer("Convolution", {"strides": "0,1"}, ["1,3,8,8", "4,3,3,3"])
    assert not broken.ok and [d.code for d in broken.errors] == ["IRS108"]


# --- the README --------------------------------------------------------------------------------------


def test_readme_library_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(NET, tmp_path / "model.xml")
    shutil.copy(NET.with_suffix(".bin"), tmp_path / "model.bin")
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks()
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, str(README), "exec"), {"__name__": "readme"})


def mypy(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MYPYPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )


def test_readme_converter_example_type_checks_strictly(tmp_path: Path) -> None:
    example = tmp_path / "converter.py"
    example.write_text(python_blocks()[-1], encoding="utf-8")
    result = mypy(
        "--cache-dir", str(tmp_path / "cache"), "--follow-imports=silent", str(example), cwd=tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_public_api_is_mypy_strict_clean(tmp_path: Path) -> None:
    public = ["irshape/__init__.py", "irshape/api.py", "irshape/api_layer.py", "irshape/results.py"]
    public += ["irshape/diagnostics.py"]
    public += ["irshape/dims.py", "irshape/files.py", "irshape/selection.py", "irshape/config.py"]
    public += ["irshape/cli", "irshape/report"]
    result = mypy("--cache-dir", str(tmp_path / "cache"), "--follow-imports=silent", *public, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_is_marked_typed() -> None:
    assert (Path(irshape.__file__).parent / "py.typed").is_file()


def test_output_shape_value_alone_implies_the_third_input() -> None:
    # The spec: with output_shape given, the output's spatial dims are its values.
    shape = irshape.infer_layer(
        "ConvolutionBackpropData", {}, ["1,4,5,8", "4,3,3,3"], output_shape_value=[10, 11]
    )
    assert str(shape) == "[1,3,10,11]"


@pytest.mark.parametrize(
    ("attributes", "shapes", "error"),
    [
        ({}, ["1,3,x,5", [8, 3, 3, 3]], ValueError),  # not OpenVINO's shape syntax
        ({"strides": object()}, ["1,3,5,5", [8, 3, 3, 3]], TypeError),
        ({"strides": [1.5, 1]}, ["1,3,5,5", [8, 3, 3, 3]], TypeError),
        ({}, [None, [8, 3, 3, 3]], TypeError),
    ],
)
def test_what_is_not_a_layer_raises(attributes: dict, shapes: list, error: type[Exception]) -> None:
    with pytest.raises(error):
        irshape.check_layer("Convolution", attributes, shapes)


def test_a_file_that_cannot_be_read_is_a_finding(tmp_path: Path) -> None:
    missing = irshape.check_file(tmp_path / "missing.xml")
    assert [(d.code, d.message) for d in missing.diagnostics] == [
        ("IRS012", "cannot read the file: No such file or directory")
    ]
    assert [d.code for d in irshape.check_file(tmp_path).diagnostics] == ["IRS012"]  # a directory
