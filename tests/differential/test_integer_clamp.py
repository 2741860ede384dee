"""Clamp-1 of integers in shape subgraphs, against OpenVINO (issue 24, item 1).

OpenVINO's Clamp evaluates integers as ``min(max(x, ceil(min)), floor(max))`` with ``min`` and
``max`` saturated to the type first (``double_to_int``), and its bounds by evaluating it on each
bound (``default_lower_bound_evaluator``), so a dim of ``2..8`` clamped to [3, 5] is ``3..5`` and
a dynamic dim's unbounded upper bound is clamped to ``max``. Each case: a Parameter's dims from
a ShapeOf (i64 or i32), converted to the clamped type, through Clamp, converted to i64 as a
Broadcast's target; static, interval and dynamic dims; every integer type Clamp evaluates.
OpenVINO's reading of the saved file is the expectation, exactly.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset8 as ov8
from probes import openvino_rejection

import irshape

DIMS = {
    "static": [ov.Dimension(7), ov.Dimension(100)],
    "interval": [ov.Dimension(2, 8), ov.Dimension(100, 120)],
    "dynamic": [ov.Dimension(-1), ov.Dimension(4, -1)],
}
LIMITS = [(3, 5), (1, 100), (9, 12), (0.5, 6.7), (-3.5, 2.2), (-1e30, 1e30), (120, 1e30), (0, 0)]
TYPES = ["i64", "i32", "i16", "i8", "u8", "u16", "u32", "u64"]


def _i(values: list[int] | int) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int64))


def test_integer_clamp_is_openvinos(tmp_path: Path) -> None:
    results, parameters, names, rejected = [], [], [], []
    for n, (style, (low, high), element_type) in enumerate(itertools.product(DIMS, LIMITS, TYPES)):
        data = ov1.parameter(ov.PartialShape([1, *DIMS[style]]), np.float32, name=f"p{n}")
        shape_type = "i32" if n % 2 else "i64"
        dims = ov8.gather(ov3.shape_of(data, shape_type), _i([1, 2]), _i(0))
        clamped = ov1.clamp(ov1.convert(dims, element_type), low, high)
        target = ov1.concat([_i([1]), ov1.convert(clamped, "i64")], 0)
        name = f"c{n}_{style}_{element_type}_{low}_{high}"
        try:
            broadcast = ov3.broadcast(ov1.constant(np.float32(1.0)), target)
        except RuntimeError:  # a negative bound (test_a_negative_clamped_bound_is_rejected)
            rejected.append(name)
            continue
        broadcast.set_friendly_name(name)
        parameters.append(data)
        results.append(ov1.result(broadcast))
        names.append(name)
    xml = tmp_path / "clamp.xml"
    ov.save_model(ov.Model(results, parameters), str(xml))
    expected = {
        output.get_node().input_value(0).get_node().get_friendly_name(): str(output.get_partial_shape())
        for output in ov.Core().read_model(str(xml)).outputs
    }
    report = irshape.check_file(xml)
    assert not report.errors, report.errors[:3]
    inferred = {layer.name: str(layer.outputs[0]) for layer in report.layers if layer.type == "Broadcast"}
    assert inferred == expected
    # the cases are what they are for: most fold to a static dim or an interval, not ?
    assert sum("?" not in shape for shape in expected.values()) > len(names) // 2
    # a dynamic dim's unbounded bound converted to i8 or i16 wraps below zero: OpenVINO's
    # builder refuses the Broadcast where the Clamp lets a negative bound through
    assert len(rejected) == 4, rejected


def test_a_negative_clamped_bound_is_rejected(tmp_path: Path) -> None:
    data = ov1.parameter(ov.PartialShape([1, -1, ov.Dimension(4, -1)]), np.float32)
    dims = ov8.gather(ov3.shape_of(data, "i64"), _i([1, 2]), _i(0))
    clamped = ov1.clamp(ov1.convert(dims, "i16"), 0.0, 2.2)
    target = ov1.concat([_i([1]), ov1.convert(clamped, "i64")], 0)
    broadcast = ov3.broadcast(ov1.constant(np.float32(1.0)), target)
    xml = tmp_path / "negative.xml"
    ov.save_model(ov.Model([ov1.result(broadcast)], [data]), str(xml))
    xml.write_text(xml.read_text().replace('min="0"', 'min="-3.5"'))  # (the builder refuses it)
    assert openvino_rejection(xml) is not None
    errors = irshape.check_file(xml).errors
    assert [d.code for d in errors] == ["IRS214"] and errors[0].layer_type == "Broadcast"
