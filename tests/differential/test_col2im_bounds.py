"""Col2Im-15's output_size computed from a shape, against OpenVINO (issue 24; found by the ONNX
corpus's onnx_wild_ops on an interval input, where irshape gave ``[1,1,?,?]`` and OpenVINO
``[1,1,4..10,5..12]``).

OpenVINO reads output_size with ``get_input_const_data_as_shape``: its value, else
``Dimension(lower, upper)`` of its bounds (``evaluate_as_partial_shape``); where those dims are
static the number of blocks L is checked against them. Each case: an image Parameter of static,
interval or dynamic height and width, output_size its ShapeOf's last two dims plus 0, 1 or 2
(i64 or i32), the blocks [1, 4, L] of a Parameter (L dynamic, or the count the size gives, or
one more); OpenVINO's reading of the saved file is the expectation: each Col2Im's shape, or the
file's rejection.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset8 as ov8
import openvino.opset15 as ov15
from lxml import etree
from probes import openvino_rejection

import irshape

HEIGHT_WIDTH = {
    "static": [ov.Dimension(3), ov.Dimension(4)],
    "interval": [ov.Dimension(3, 9), ov.Dimension(4, 11)],
    "dynamic": [ov.Dimension(-1), ov.Dimension(-1)],
    "lower_bounded": [ov.Dimension(2, -1), ov.Dimension(5)],
    "one_interval": [ov.Dimension(6), ov.Dimension(1, 3)],
}
ADDED = [0, 1, 2]
SHAPE_TYPES = ["i64", "i32"]


def _col2im(dims: list[ov.Dimension], added: int, shape_type: str, blocks: ov.Dimension) -> ov.Model:
    image = ov1.parameter(ov.PartialShape([1, 4, *dims]), np.float32, name="image")
    size = ov8.gather(ov3.shape_of(image, shape_type), ov1.constant(np.array([2, 3])), ov1.constant(0))
    numpy_type = np.dtype(shape_type.replace("i", "int"))
    size = ov1.add(size, ov1.constant(np.array([added, added], dtype=numpy_type)))
    data = ov1.parameter(ov.PartialShape([1, 4, blocks]), np.float32, name="blocks")
    kernel = ov1.constant(np.array([2, 2], dtype=numpy_type))
    folded = ov15.col2im(data, size, kernel)
    folded.set_friendly_name("folded")
    return ov.Model([ov1.result(folded)], [image, data])


def _blocks(dims: list[ov.Dimension], added: int) -> int | None:
    """The number of 2x2 blocks of an image of output_size, where it is static."""
    if not all(d.is_static for d in dims):
        return None
    return int(np.prod([d.get_length() + added - 1 for d in dims]))


def _cases() -> list[tuple[str, list[ov.Dimension], int, str, ov.Dimension]]:
    cases = []
    for style, added, shape_type in itertools.product(HEIGHT_WIDTH, ADDED, SHAPE_TYPES):
        dims = HEIGHT_WIDTH[style]
        cases.append((f"{style}_{added}_{shape_type}_any", dims, added, shape_type, ov.Dimension(-1)))
        count = _blocks(dims, added)
        if count is not None:
            for extra in (0, 1):
                name = f"{style}_{added}_{shape_type}_L{count + extra}"
                cases.append((name, dims, added, shape_type, ov.Dimension(count + extra)))
    return cases


CASES = _cases()


def test_the_cases_cover_intervals_and_rejections() -> None:
    assert len(CASES) >= 40
    assert sum(name.endswith("_any") for name, *_ in CASES) == len(HEIGHT_WIDTH) * len(ADDED) * len(
        SHAPE_TYPES
    )


def _save(model: ov.Model, xml: Path, blocks: ov.Dimension) -> None:
    """The model saved with L dynamic, then the blocks' L written into the file (OpenVINO's
    builder refuses a wrong one: read_model is to judge it)."""
    ov.save_model(model, str(xml))
    if blocks.is_dynamic:
        return
    tree = etree.parse(str(xml))
    (parameter,) = tree.xpath("//layer[@name='blocks']")
    parameter.find("data").set("shape", f"1,4,{blocks.get_length()}")
    (col2im,) = tree.xpath("//layer[@type='Col2Im']")
    for port in (parameter.find("output/port"), col2im.find("input/port")):
        port.findall("dim")[2].text = str(blocks.get_length())
    tree.write(str(xml))


def test_col2im_output_size_from_bounds_is_openvinos(tmp_path: Path) -> None:
    differ, rejected = [], 0
    for name, dims, added, shape_type, blocks in CASES:
        xml = tmp_path / f"{name}.xml"
        _save(_col2im(dims, added, shape_type, ov.Dimension(-1)), xml, blocks)
        rejection = openvino_rejection(xml)
        report = irshape.check_file(xml)
        if rejection is not None:
            rejected += 1
            if not report.errors:
                differ.append((name, "OpenVINO rejects it", rejection, "irshape finds no error"))
            continue
        expected = str(ov.Core().read_model(str(xml)).outputs[0].get_partial_shape())
        (folded,) = [layer for layer in report.layers if layer.name == "folded"]
        ours = [str(s) for s in folded.outputs]
        if report.errors or ours != [expected]:
            differ.append((name, expected, ours, [str(d) for d in report.errors][:1]))
    assert differ == []
    # the static sizes' cases with one block too many (6), and no other
    assert rejected == len(ADDED) * len(SHAPE_TYPES)
