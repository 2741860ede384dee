"""IR v10's reading constant-folds the graph: a layer typed ``Constant`` (no bytes,
docs/openvino-ir-reading.md §13) that an op folds fails the file; against OpenVINO.

Each case is built with OpenVINO's Python API (a Const named ``c`` somewhere in it), saved with
``ov.save_model``, then ``c`` retyped ``Constant`` (its inputs dropped) and the net's version set
to 10, and to 11. ``read_model`` is the oracle: where it fails, irshape reports an error; where
it reads, none.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset6 as ov6
import openvino.opset8 as ov8
import openvino.opset11 as ov11
import pytest
from lxml import etree
from probes import openvino_rejection

import irshape

Build = Callable[[ov.Node], list[ov.Node]]


def _c(shape: tuple[int, ...] = (2, 3), element_type: type = np.float32) -> ov.Node:
    return ov1.constant(np.ones(shape, element_type), name="c")


def _k(values: object, element_type: type = np.int64) -> ov.Node:
    return ov1.constant(np.array(values, dtype=element_type))


def _plus(x: ov.Node, node: ov.Node) -> list[ov.Node]:
    """``x + node``: the folded value meets the Parameter (no longer foldable)."""
    return [ov1.add(x, node)]


# name: (the model around c, whether IR v10 fails reading it)
CASES: dict[str, tuple[Build, bool]] = {
    "Relu": (lambda x: _plus(x, ov1.relu(_c())), True),
    "Add of two constants": (lambda x: _plus(x, ov1.add(_c(), _k(np.ones([2, 3]), np.float32))), True),
    "Convert": (lambda x: _plus(x, ov1.convert(_c(element_type=np.int32), "f32")), True),
    "Transpose": (lambda x: _plus(x, ov1.transpose(_c((3, 2)), _k([1, 0]))), True),
    "Concat": (lambda x: _plus(x, ov1.concat([_c((1, 3)), _k(np.ones([1, 3]), np.float32)], 0)), True),
    "Broadcast": (lambda x: _plus(x, ov3.broadcast(_c((3,)), _k([2, 3]))), True),
    "Tile": (lambda x: _plus(x, ov1.tile(_c((1, 3)), _k([2, 1]))), True),
    "StridedSlice": (
        lambda x: _plus(x, ov1.strided_slice(_c((4, 3)), _k([0, 0]), _k([2, 3]), _k([1, 1]), [0, 0], [0, 0])),
        True,
    ),
    "Gather of its data": (lambda x: _plus(x, ov8.gather(_c(), _k([0, 1]), _k(0))), True),
    "MVN": (
        lambda x: _plus(
            x, ov1.reshape(ov6.mvn(_c((1, 2, 3)), _k([2]), True, 1e-5, "inside_sqrt"), _k([2, 3]), False)
        ),
        True,
    ),
    "Interpolate": (
        lambda x: _plus(
            x,
            ov1.reshape(
                ov11.interpolate(_c((1, 1, 1, 3)), _k([2, 3]), "nearest", "sizes", axes=_k([2, 3])),
                _k([2, 3]),
                False,
            ),
        ),
        True,
    ),
    "Convolution of its data": (
        lambda x: [
            ov1.add(
                x,
                ov1.reduce_sum(
                    ov1.convolution(
                        _c((1, 2, 5, 5)),
                        _k(np.ones([1, 2, 3, 3]), np.float32),
                        [1, 1],
                        [0, 0],
                        [0, 0],
                        [1, 1],
                    ),
                    _k([0, 1, 2, 3]),
                    False,
                ),
            )
        ],
        True,
    ),
    "Reshape then Relu": (lambda x: _plus(x, ov1.relu(ov1.reshape(_c((3, 2)), _k([2, 3]), False))), True),
    # folded without reading the data: the Constant made shares c's (none)
    "Reshape": (lambda x: _plus(x, ov1.reshape(_c((3, 2)), _k([2, 3]), False)), False),
    "Squeeze": (lambda x: _plus(x, ov1.squeeze(_c((2, 1, 3)), _k([1]))), False),
    "Unsqueeze then Squeeze": (lambda x: _plus(x, ov1.squeeze(ov1.unsqueeze(_c(), _k([0])), _k([0]))), False),
    "ShapeOf": (lambda x: [ov1.reshape(x, ov3.shape_of(_c()), False)], False),
    # not folded: a Parameter is among the inputs, or nothing reads c
    "Add with the Parameter": (lambda x: _plus(x, _c()), False),
    "Concat with the Parameter": (lambda x: [ov1.concat([x, _c()], 0)], False),
    "a Result": (lambda x: [ov1.relu(x), _c()], False),
    "Convolution's kernel": (
        lambda x: [
            ov1.convolution(
                ov1.reshape(x, _k([1, 2, 1, 3]), False), _c((1, 2, 1, 1)), [1, 1], [0, 0], [0, 0], [1, 1]
            )
        ],
        False,
    ),
    "StridedSlice's end": (
        lambda x: [ov1.strided_slice(x, _k([0, 0]), _c((2,), np.int64), _k([1, 1]), [0, 0], [0, 0])],
        False,
    ),
}


def _saved(build: Build, folder: Path) -> Path:
    x = ov1.parameter([2, 3], np.float32, name="x")
    model = ov.Model([ov1.result(node) for node in build(x)], [x], "folding")
    xml = folder / "folding.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def _retyped(xml: Path, version: int) -> Path:
    """``c`` typed 'Constant' (no bytes: its offset and size are not read), the net ``version``."""
    tree = etree.parse(str(xml))
    tree.getroot().set("version", str(version))
    (layer,) = tree.xpath("//layer[@name='c']")
    layer.set("type", "Constant")
    target = xml.with_name(f"folding_v{version}.xml")
    tree.write(str(target))
    target.with_suffix(".bin").write_bytes(xml.with_suffix(".bin").read_bytes())
    return target


@pytest.mark.parametrize("name", sorted(CASES))
def test_ir_v10_folds_a_constant_with_no_bytes(name: str, tmp_path: Path) -> None:
    build, fails = CASES[name]
    xml = _saved(build, tmp_path)
    for version in (10, 11):
        target = _retyped(xml, version)
        error = openvino_rejection(target)
        assert (error is not None) == (fails and version == 10), (version, error)  # the case is what it says
        codes = {d.code for d in irshape.check_file(target).errors}
        if error is not None:
            assert "IRS214" in codes, (version, error)
            assert "shape_size(shape) == 0 || m_ptr != nullptr" in error
        else:
            assert not codes - {"IRS301", "IRS302", "IRS411", "IRS416"}, (version, codes)


DYNAMIC_CASES: dict[str, tuple[Build, bool]] = {
    "Relu": (CASES["Relu"][0], True),
    "Gather of its indices": (
        lambda x: _plus(x, ov8.gather(_k(np.ones([4, 3]), np.float32), _c((2,), np.int64), _k(0))),
        True,
    ),
    "Reshape": (CASES["Reshape"][0], False),
    "Add with the Parameter": (CASES["Add with the Parameter"][0], False),
}


@pytest.mark.parametrize("name", sorted(DYNAMIC_CASES))
def test_ir_v10_folds_a_const_of_dynamic_type(name: str, tmp_path: Path) -> None:
    """The Const ``c`` of element type dynamic (its bytes there): IR v10's folding cannot make a
    tensor of it ('m_element_type.is_static()'); IR v11 reads."""
    build, fails = DYNAMIC_CASES[name]
    xml = _saved(build, tmp_path)
    for version in (10, 11):
        tree = etree.parse(str(xml))
        tree.getroot().set("version", str(version))
        (layer,) = tree.xpath("//layer[@name='c']")
        layer.find("data").set("element_type", "dynamic")
        target = xml.with_name(f"dynamic_v{version}.xml")
        tree.write(str(target))
        target.with_suffix(".bin").write_bytes(xml.with_suffix(".bin").read_bytes())
        error = openvino_rejection(target)
        assert (error is not None) == (fails and version == 10), (version, error)
        codes = {d.code for d in irshape.check_file(target).errors}
        if error is not None:
            assert "m_element_type.is_static()" in error
            assert "IRS214" in codes, (version, error)
        else:
            assert not codes - {"IRS301", "IRS302", "IRS411", "IRS416"}, (version, codes)
