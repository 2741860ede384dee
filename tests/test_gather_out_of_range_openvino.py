"""Gather with an index out of range, in a shape subgraph: OpenVINO's evaluate (its
``reference::gather``, which its bound evaluators run on the lower and upper bounds) gathers
zeros there, and shape inference uses them (a Broadcast's target, a Reshape's pattern). irshape
gave no value at all, so it missed that the Mask R-CNN mask-pasting Loop's body, declared with a
Parameter one rank short, makes a target of [1,1,16,0] that OpenVINO's reader rejects
(tests/test_detector_body_mutations.py found it). Integer values, bounds, and real values moved
as OpenVINO moves them (Gather of f32 data feeding a Convert to a shape); each answer is
read_model's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import pytest
from openvino import opset1, opset3, opset8

import irshape

GATHERS: dict[str, Callable[..., Any]] = {"Gather-1": opset1.gather, "Gather-8": opset8.gather}


def _target(gather: Callable[..., Any], data: Any, indices: list[int]) -> Any:
    return gather(data, opset1.constant(np.array(indices, np.int64)), opset1.constant(np.int64(0)))


def _shape_of(shape: list[int]) -> tuple[Any, list[Any]]:
    parameter = opset1.parameter(shape, np.float32, name="p")
    return opset3.shape_of(parameter, "i64"), [parameter]


def _reals(values: list[float]) -> tuple[Any, list[Any]]:
    return opset1.constant(np.array(values, np.float32)), []


# name -> (the gathered data and the model's Parameters, the indices)
CASES: dict[str, tuple[Callable[[], tuple[Any, list[Any]]], list[int]]] = {
    "bounds of [?,1,16] at 1, 2, 3": (lambda: _shape_of([-1, 1, 16]), [1, 2, 3]),
    "value of [2,3,4] at -4, 0": (lambda: _shape_of([2, 3, 4]), [-4, 0]),
    "value of [2,3,4] at 2, 3, -1": (lambda: _shape_of([2, 3, 4]), [2, 3, -1]),
    "bounds of [1..5,3] at 0, 2, -3": (lambda: _shape_of([ov.Dimension(1, 5), 3]), [0, 2, -3]),
    "reals [2.0, 3.0] at 1, 5, 0": (lambda: _reals([2.0, 3.0]), [1, 5, 0]),
    "reals [2.0, 3.0] at -3, 1": (lambda: _reals([2.0, 3.0]), [-3, 1]),
}


@pytest.mark.parametrize("gather", list(GATHERS))
@pytest.mark.parametrize("name", list(CASES))
def test_a_gathered_index_out_of_range_is_a_zero(tmp_path: Path, name: str, gather: str) -> None:
    make, indices = CASES[name]
    data, parameters = make()
    target = _target(GATHERS[gather], data, indices)
    if target.get_output_element_type(0) != ov.Type.i64:
        target = opset1.convert(target, "i64")
    broadcast = opset3.broadcast(opset1.constant(np.array([1.0], np.float32)), target, "numpy")
    xml = tmp_path / "gather.xml"
    ov.save_model(ov.Model([broadcast], parameters), xml, compress_to_fp16=False)
    openvinos = str(ov.Core().read_model(xml).output(0).get_partial_shape())
    assert "0" in openvinos.strip("[]").split(",")  # (a zero was gathered)
    report = irshape.check_file(xml)
    assert report.errors == []
    (ours,) = [layer for layer in report.layers if layer.type == "Broadcast"]
    assert [str(shape) for shape in ours.outputs] == [openvinos]
