"""VariadicSplit-1 whose split_lengths' length is not static, or 0, against OpenVINO.

VariadicSplit has as many outputs as split_lengths has elements; where that length is not a
static number (``[?]``, ``[2..5]``, ``[3..]``, a rank that is not static, ``[?,3]``) OpenVINO's
shape inference sets no output at all (``variadic_split_shape_inference.hpp``), and so does a
length of 0 where nothing else fails first. The node keeps the one output it was made with,
never inferred: read_model gives it ``[...]`` of type dynamic where the layer declares one output
port, and fails with 'node index is out of range' where it declares more (by experiment, below;
a length above the declared ports' count reads, one below it fails on the ports past it, as
IRS307 says). irshape gave the layer no outputs and no error.

Each case is a VariadicSplit whose split_lengths come from a Parameter (its own, or through a
ShapeOf of one) whose shape is changed in the saved file: with one output port all the cases sit
in one model, read once; with three, each case is a file of its own (read_model rejects it).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
from lxml import etree

import irshape

from .ops_harness import read_back

DATA = {"static": [6, 2], "dynamic": [-1, 2], "rank_dynamic": None}
NO_OUTPUT = "node index is out of range"
# the lengths Parameter's shape as changed in the file (the i64 lengths themselves)
LENGTHS_SHAPES = ("?", "0", "2..5", "3..", "1..3", "3..4", "?,3", "...")
# the shape of a Parameter whose ShapeOf is the lengths, as changed in the file
SOURCE_SHAPES = ("...", "")
Change = tuple[str, str, str]  # the VariadicSplit's name, the Parameter changed, its new shape


def _model(ports: int) -> tuple[ov.Model, list[Change]]:
    """Every case's VariadicSplit of ``ports`` outputs (named ``vsNN``, each output read by a
    Result) and its change."""
    results, parameters, changes = [], [], []
    for data_name, data_shape in DATA.items():
        for kind, shapes in (("lengths", LENGTHS_SHAPES), ("source", SOURCE_SHAPES)):
            for shape in shapes:
                if (data_name, kind, shape) == ("static", "source", ""):
                    continue  # lengths [] of a [6,2]: 'Total length of splits: 0 must match ...'
                index = len(changes)
                data = ov1.parameter(
                    ov.PartialShape.dynamic() if data_shape is None else ov.PartialShape(data_shape),
                    np.float32,
                    name=f"data{index}_{data_name}",
                )
                if kind == "lengths":
                    changed = ov1.parameter(ov.PartialShape([ports]), np.int64, name=f"lengths{index}")
                    lengths = changed
                else:
                    source = [6 // ports] * ports  # lengths adding up to the static data's 6
                    changed = ov1.parameter(ov.PartialShape(source), np.float32, name=f"source{index}")
                    lengths = ov3.shape_of(changed, "i64")
                split = ov1.variadic_split(data, ov1.constant(np.int64(0)), lengths)
                split.set_friendly_name(f"vs{index:02d}")
                results += [ov1.result(split.output(i)) for i in range(split.get_output_size())]
                parameters += [data, changed]
                changes.append((f"vs{index:02d}", changed.get_friendly_name(), shape))
    return ov.Model(results, parameters, "variadic_split_lengths"), changes


def _rejection(xml: Path) -> str | None:
    """read_model's message where it rejects the file (all of it), else None."""
    try:
        ov.Core().read_model(str(xml))
    except Exception as exc:  # OpenVINO raises RuntimeError and subclasses of its own
        return str(exc)
    return None


def _changed(source: Path, target: Path, changes: list[Change]) -> None:
    tree = etree.parse(str(source))
    for _, parameter, shape in changes:
        tree.xpath(f"//layer[@name='{parameter}']/data")[0].set("shape", shape)
    for dim in tree.xpath("//layer[@type!='Const']/*/port/dim"):  # OpenVINO ignores them
        dim.text = "-1"
    tree.write(str(target))
    target.with_suffix(".bin").write_bytes(source.with_suffix(".bin").read_bytes())


def _saved(model: ov.Model, xml: Path) -> Path:
    ov.save_model(model, str(xml), compress_to_fp16=False)
    assert _rejection(xml) is None
    return xml


def test_one_output_port_keeps_an_output_of_no_shape_and_type(tmp_path: Path) -> None:
    model, changes = _model(ports=1)
    assert len(changes) == 29
    target = tmp_path / "changed.xml"
    _changed(_saved(model, tmp_path / "cases.xml"), target, changes)
    expected = read_back(target)
    report = irshape.check_file(target)
    layers = {layer.name: layer for layer in report.layers}
    # (IRS416: a changed Parameter's port keeps its old rank; OpenVINO reads the shape attribute)
    found = [f"{d.layer_name}: {d.code} {d.message}" for d in report.errors if d.code != "IRS416"]
    for name, parameter, shape in changes:
        assert expected[name] == [("[...]", "dynamic")]  # OpenVINO's, whatever irshape says
        ours = list(zip([str(s) for s in layers[name].outputs], layers[name].element_types, strict=False))
        if ours != expected[name]:
            found.append(f"{parameter}={shape}: irshape {ours}, OpenVINO {expected[name]}")
    assert found == [], "\n".join(found)


def test_more_output_ports_are_rejected_as_openvino(tmp_path: Path) -> None:
    model, changes = _model(ports=3)
    source = _saved(model, tmp_path / "cases.xml")
    found = []
    for index, change in enumerate(changes):
        name, parameter, shape = change
        target = tmp_path / f"case{index:02d}.xml"
        _changed(source, target, [change])
        verdict = _rejection(target)
        assert verdict is not None
        assert NO_OUTPUT in verdict  # OpenVINO's, whatever irshape says
        errors = [d.message for d in irshape.check_file(target).errors if d.layer_name == name]
        if not any(f"OpenVINO rejects the file ('{NO_OUTPUT}')" in message for message in errors):
            found.append(f"{parameter}={shape}: OpenVINO rejects it, irshape {errors}")
    assert found == [], "\n".join(found)
