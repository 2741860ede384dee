"""Two layers with one id, against OpenVINO (docs/openvino-ir-reading.md §3).

A Conv-ReLU net is built with OpenVINO's Python API and saved (ids: ``x`` 0, the kernel Const
1, ``conv`` 2, ``relu`` 3, the Result 4); each case gives a layer another's id (moving it, or
renaming the edges with it). ``read_model`` is the oracle: where it fails, irshape reports an
error; where it reads, irshape reports none but declared-dims findings, and infers OpenVINO's
shapes for the layers OpenVINO built.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import pytest

import irshape

DECLARED_ONLY = {"IRS301", "IRS302", "IRS411", "IRS416"}
Edit = Callable[[str], str]


def _base(folder: Path) -> Path:
    x = ov1.parameter([1, 4, 9, 9], np.float32, name="x")
    kernel = ov1.constant(np.ones([6, 4, 3, 3], np.float32), name="kernel")
    conv = ov1.convolution(x, kernel, [2, 2], [1, 1], [0, 1], [1, 1], name="conv")
    relu = ov1.relu(conv, name="relu")
    result = ov1.result(relu, name="out")
    xml = folder / "base.xml"
    ov.save_model(ov.Model([result], [x], "dup"), str(xml), compress_to_fp16=False)
    return xml


def _block(xml: str, name: str) -> re.Match[str]:
    found = re.search(rf'\t\t<layer id="[^"]*" name="{re.escape(name)}".*?</layer>\n', xml, re.S)
    assert found is not None, name
    return found


def _id(name: str, new: str) -> Edit:
    return lambda xml: re.sub(rf'(<layer id=")[^"]*(" name="{re.escape(name)}")', rf"\g<1>{new}\g<2>", xml)


def _edges(old: str, new: str) -> Edit:
    return lambda xml: re.sub(rf'(-layer="){re.escape(old)}(")', rf"\g<1>{new}\g<2>", xml)


def _after(name: str, anchor: str) -> Edit:
    def edit(xml: str) -> str:
        block = _block(xml, name)
        xml = xml[: block.start()] + xml[block.end() :]
        end = _block(xml, anchor).end()
        return xml[:end] + block.group(0) + xml[end:]

    return edit


def _copy(name: str, new_name: str, replace: tuple[str, str] = ("", "")) -> Edit:
    """A copy of the layer ``name`` after the Result, named ``new_name``."""

    def edit(xml: str) -> str:
        copy = _block(xml, name).group(0).replace(f'name="{name}"', f'name="{new_name}"')
        copy = copy.replace(*replace) if replace[0] else copy
        end = _block(xml, "out").end() if 'name="out"' in xml else xml.index("\t</layers>")
        return xml[:end] + copy + xml[end:]

    return edit


def _retyped_parameter(xml: str) -> str:
    xml = xml.replace('name="kernel" type="Const"', 'name="kernel" type="Parameter"')
    return re.sub(
        r'element_type="f32" shape="6, 4, 3, 3" offset="\d+" size="\d+"',
        'shape="6,4,3,3" element_type="f32"',
        xml,
    )


CASES: dict[str, list[Edit]] = {
    "the Const given x's id": [_id("kernel", "0"), _edges("1", "0")],
    "the Const given x's id, before x": [_id("kernel", "0"), _edges("1", "0"), _after("x", "kernel")],
    "x given the Const's id, after it": [_id("x", "1"), _edges("0", "1"), _after("x", "kernel")],
    "two Parameters of one id": [_id("kernel", "0"), _edges("1", "0"), _retyped_parameter],
    "a copy of conv at the end": [_copy("conv", "conv_copy", ('strides="2, 2"', 'strides="1, 1"'))],
    "relu given x's id": [_id("relu", "0"), _edges("3", "0")],
    "relu given conv's id": [_id("relu", "2"), _edges("3", "2")],
    "relu given conv's id, the edges unchanged": [_id("relu", "2")],
    "the Result given relu's id": [_id("out", "3"), _edges("4", "3")],
    "a Const copy given the Result's id": [_copy("kernel", "extra", ('id="1"', 'id="4"'))],
}


def _openvino(xml: Path) -> tuple[str | None, dict[str, str]]:
    try:
        model = ov.Core().read_model(str(xml))
    except Exception as exc:  # read_model raises RuntimeError and OpenVINO's own exceptions
        return str(exc).strip().splitlines()[-1], {}
    return None, {
        op.get_friendly_name(): str(op.get_output_partial_shape(0))
        for op in model.get_ops()
        if op.get_output_size() == 1
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_duplicate_ids_read_as_openvino_reads_them(name: str, tmp_path: Path) -> None:
    base = _base(tmp_path)
    text = base.read_text(encoding="utf-8")
    for edit in CASES[name]:
        text = edit(text)
    xml = tmp_path / "dup.xml"
    xml.write_text(text, encoding="utf-8")
    xml.with_suffix(".bin").write_bytes(base.with_suffix(".bin").read_bytes())
    error, shapes = _openvino(xml)
    report = irshape.check_file(xml)
    codes = {d.code for d in report.errors}
    assert any(d.code == "IRS401" for d in report.diagnostics)
    if error is not None:
        assert codes - DECLARED_ONLY, error
        return
    assert not codes - DECLARED_ONLY, [d.message for d in report.errors]
    built = {layer.name: str(layer.outputs[0]) for layer in report.layers if layer.checked and layer.outputs}
    wrong = {n: (built[n], shapes[n]) for n in built if n in shapes and built[n] != shapes[n]}
    assert not wrong, wrong
    assert all(d.severity.value == "warning" for d in report.diagnostics if d.code == "IRS401")
