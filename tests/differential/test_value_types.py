"""Every op that reads a value input, with that input a Const of each element type, against
OpenVINO (docs/openvino-ir-reading.md §6; irshape/shapes/reading.py).

Each case is built with OpenVINO's Python API around an i64 Const (``the_const``) at the value
input, saved with ``ov.save_model``; the saved XML is then given the Const's element type and
the values written in that type at the end of the .bin (a real type's values as reals, so
``[0.5, 2]`` as a step is a step of 0 once cast), or typed ``Constant`` (no bytes). OpenVINO's
``read_model`` is the oracle: where it fails, irshape reports an error; where it reads, irshape
reports none and infers the case's shapes. Nothing here is irshape's own answer.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset6 as ov6
import openvino.opset7 as ov7
import openvino.opset8 as ov8
import openvino.opset9 as ov9
import openvino.opset11 as ov11
import openvino.opset12 as ov12
import openvino.opset13 as ov13
import openvino.opset15 as ov15
import openvino.opset16 as ov16
import pytest
from lxml import etree
from openvino.utils.node_factory import NodeFactory

import irshape

Values = list[float] | float
Build = Callable[[ov.Node], ov.Node]

ALL_TYPES = [
    "f32",
    "f64",
    "f16",
    "bf16",
    "boolean",
    "f8e4m3",
    "f8e5m2",
    "f8e8m0",
    "f4e2m1",
    "u1",
    "u2",
    "u3",
    "u6",
    "dynamic",
    "i4",
    "u4",
    "nf4",
    "i8",
    "u8",
    "i16",
    "u16",
    "i32",
    "u32",
    "u64",
    "Constant",
]
REAL_TYPES = ("f32", "f64", "f16", "bf16")
WRAPPING_TYPES = ("u64", "u32", "i8", "i4", "u4", "nf4")
BITS = {"boolean": 8, "bf16": 16, "f16": 16, "f32": 32, "f64": 64, "i4": 4, "u4": 4, "nf4": 4, "u1": 1}
BITS |= {"u2": 2, "u3": 3, "u6": 6, "f8e4m3": 8, "f8e5m2": 8, "f8e8m0": 8, "f4e2m1": 4, "dynamic": 0}
BITS |= {t: int(t[1:]) for t in ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64")}


def _x(shape: Sequence[int], element_type: Any = np.float32) -> ov.Node:
    return ov1.parameter(list(shape), element_type)


def _c(values: Any, element_type: Any = np.int64) -> ov.Node:
    return ov1.constant(np.array(values, dtype=element_type))


_INTERPOLATE_4 = {
    "mode": "nearest",
    "shape_calculation_mode": "sizes",
    "coordinate_transformation_mode": "half_pixel",
    "nearest_mode": "round_prefer_floor",
    "antialias": False,
    "pads_begin": [0, 0, 0, 0],
    "pads_end": [0, 0, 0, 0],
    "cube_coeff": -0.75,
}


def _created(opset: str, op: str, inputs: list[ov.Node], attributes: dict[str, Any]) -> ov.Node:
    return NodeFactory(opset).create(op, [i.output(0) for i in inputs], attributes)


# op.input: (the i64 values the model is built with, the node around the Const)
CASES: dict[str, tuple[Values, Build]] = {
    "Unsqueeze.axes": ([0, -1], lambda c: ov1.unsqueeze(_x([2, 3, 4]), c)),
    "Squeeze-1.axes": ([1], lambda c: ov1.squeeze(_x([2, 1, 4, 1]), c)),
    "Squeeze-15.axes": ([1], lambda c: ov15.squeeze(_x([2, 1, 4, 1]), c)),
    "Reshape.target": ([4, -1], lambda c: ov1.reshape(_x([2, 3, 4]), c, False)),
    "Reshape.target_special_zero": ([0, -1], lambda c: ov1.reshape(_x([2, 3, 4]), c, True)),
    "Transpose.order": ([2, 0, 1], lambda c: ov1.transpose(_x([2, 3, 4]), c)),
    "Split.axis": (1, lambda c: ov1.split(_x([2, 6]), c, 2)),
    "VariadicSplit.axis": (1, lambda c: ov1.variadic_split(_x([2, 6]), c, _c([2, 4]))),
    "VariadicSplit.lengths": ([2, 4], lambda c: ov1.variadic_split(_x([2, 6]), _c(1), c)),
    "Pad-1.pads_begin": ([1, 0], lambda c: ov1.pad(_x([2, 3]), c, _c([0, 2]), "constant")),
    "Pad-12.pads_begin": ([1, 0], lambda c: ov12.pad(_x([2, 3]), c, _c([0, 2]), "constant")),
    "Roll.axes": ([1], lambda c: ov7.roll(_x([2, 3, 4]), _c([1]), c)),
    "Reverse.axes": ([1], lambda c: _created("opset1", "Reverse", [_x([2, 3, 4]), c], {"mode": "index"})),
    "Tile.repeats": ([2, 1], lambda c: ov1.tile(_x([2, 3]), c)),
    "Broadcast-1.target_shape": ([2, 3], lambda c: ov1.broadcast(_x([3]), c)),
    "Broadcast-3.target_shape": ([2, 3], lambda c: ov3.broadcast(_x([3]), c)),
    "Broadcast-3.axes_mapping": ([1], lambda c: ov3.broadcast(_x([3]), _c([2, 3]), c, "explicit")),
    "Gather-1.indices": ([0, 2], lambda c: ov1.gather(_x([4, 6, 8]), c, _c([1]))),
    "Gather-8.axis": ([1], lambda c: ov8.gather(_x([4, 6, 8]), _c([0, 2]), c)),
    "Gather-8.indices": ([0, 2], lambda c: ov8.gather(_x([4, 6, 8]), c, _c([1]))),
    "Slice.start": ([0, 1], lambda c: ov8.slice(_x([4, 6, 8]), c, _c([3, 7]), _c([2, 2]), _c([0, 2]))),
    "Slice.stop": ([3, 7], lambda c: ov8.slice(_x([4, 6, 8]), _c([0, 1]), c, _c([2, 2]), _c([0, 2]))),
    "Slice.step": ([2, 2], lambda c: ov8.slice(_x([4, 6, 8]), _c([0, 1]), _c([3, 7]), c, _c([0, 2]))),
    "Slice.axes": ([0, 2], lambda c: ov8.slice(_x([4, 6, 8]), _c([0, 1]), _c([3, 7]), _c([2, 2]), c)),
    "StridedSlice.begin": (
        [0, 1],
        lambda c: ov1.strided_slice(_x([4, 6]), c, _c([3, 5]), _c([1, 2]), [0, 0], [0, 0]),
    ),
    "StridedSlice.end": (
        [3, 5],
        lambda c: ov1.strided_slice(_x([4, 6]), _c([0, 1]), c, _c([1, 2]), [0, 0], [0, 0]),
    ),
    "StridedSlice.strides": (
        [1, 2],
        lambda c: ov1.strided_slice(_x([4, 6]), _c([0, 1]), _c([3, 5]), c, [0, 0], [0, 0]),
    ),
    "ReduceSum.axes": ([1], lambda c: ov1.reduce_sum(_x([2, 3, 4]), c, False)),
    "ReduceMax.axes": ([1], lambda c: ov1.reduce_max(_x([2, 3, 4]), c, True)),
    "ReduceL2.axes": ([1], lambda c: ov4.reduce_l2(_x([2, 3, 4]), c, False)),
    "ReduceLogicalAnd.axes": ([1], lambda c: ov1.reduce_logical_and(_x([2, 3, 4], bool), c, False)),
    "NormalizeL2.axes": ([1], lambda c: ov1.normalize_l2(_x([2, 3, 4]), c, 1e-5, "add")),
    "MVN-6.axes": ([1], lambda c: ov6.mvn(_x([2, 3, 4]), c, True, 1e-5, "inside_sqrt")),
    "LRN.axes": ([1], lambda c: ov1.lrn(_x([2, 3, 4]), c, 1e-4, 0.75, 1.0, 3)),
    "Interpolate-1.output_shape": (
        [6, 2],
        lambda c: ov1.interpolate(_x([1, 3, 8, 8]), c, {"axes": [2, 3], "mode": "nearest"}),
    ),
    "Interpolate-4.sizes": (
        [6, 2],
        lambda c: _created(
            "opset4",
            "Interpolate",
            [_x([1, 3, 8, 8]), c, _c([1.0, 1.0], np.float32), _c([2, 3])],
            _INTERPOLATE_4,
        ),
    ),
    "Interpolate-4.axes": (
        [2, 3],
        lambda c: _created(
            "opset4",
            "Interpolate",
            [_x([1, 3, 8, 8]), _c([6, 2]), _c([1.0, 1.0], np.float32), c],
            _INTERPOLATE_4,
        ),
    ),
    "Interpolate-11.sizes": (
        [6, 2],
        lambda c: ov11.interpolate(_x([1, 3, 8, 8]), c, "nearest", "sizes", axes=_c([2, 3])),
    ),
    "Interpolate-11.axes": (
        [2, 3],
        lambda c: ov11.interpolate(_x([1, 3, 8, 8]), _c([6, 2]), "nearest", "sizes", axes=c),
    ),
    "TopK-1.k": (2, lambda c: ov1.topk(_x([2, 5]), c, 1, "max", "value")),
    "TopK-3.k": (2, lambda c: ov3.topk(_x([2, 5]), c, 1, "max", "value")),
    "OneHot-1.depth": (
        3,
        lambda c: ov1.one_hot(_x([2, 3], np.int64), c, _c(1.0, np.float32), _c(0.0, np.float32), -1),
    ),
    "EmbeddingSegmentsSum-3.num_segments": (
        3,
        lambda c: ov3.embedding_segments_sum(_x([5, 2]), _c([0, 4]), _c([0, 2]), c),
    ),
    "SegmentMax-16.num_segments": (
        3,
        lambda c: ov16.segment_max(_x([2, 3]), _c([0, 1]), c, fill_mode="ZERO"),
    ),
    "SegmentMax-16.segment_ids": ([0, 2], lambda c: ov16.segment_max(_x([2, 3]), c, fill_mode="ZERO")),
    "SparseFillEmptyRows-16.dense_shape": (
        [3, 4],
        lambda c: ov16.sparse_fill_empty_rows(_x([2]), c, _c([[0, 1], [2, 3]]), _x([])),
    ),
    "Eye-9.num_rows": (3, lambda c: ov9.eye(c, _c(4), _c(0), "f32")),
    "Eye-9.batch_shape": ([2, 5], lambda c: ov9.eye(_c(3), _c(4), _c(0), "f32", c)),
    "RandomUniform-8.output_shape": (
        [2, 5],
        lambda c: ov8.random_uniform(c, _c(0.0, np.float32), _c(1.0, np.float32), "f32"),
    ),
    "Multinomial-13.num_samples": (3, lambda c: ov13.multinomial(_x([2, 5]), c, "i64", True, False, 1, 2)),
    "TopK-11.k": (2, lambda c: ov11.topk(_x([2, 5]), c, 1, "max", "value")),
    "PriorBox-8.output_size": (
        [3, 4],
        lambda c: ov8.prior_box(c, _c([30, 40]), {"min_size": [2.0], "aspect_ratio": [2.0], "offset": 0.5}),
    ),
    "PriorBoxClustered-1.output_size": (
        [3, 4],
        lambda c: ov1.prior_box_clustered(c, _c([30, 40]), {"width": [2.0], "height": [3.0], "offset": 0.5}),
    ),
    "Range-1.start": (0, lambda c: ov1.range(c, _c(6), _c(1))),
    "Range-4.step": (2, lambda c: ov4.range(_c(0), _c(6), c, "i64")),
    "AdaptiveAvgPool.output_shape": ([3, 2], lambda c: ov8.adaptive_avg_pool(_x([1, 3, 8, 8]), c)),
    "ScatterUpdate.axis": (1, lambda c: ov3.scatter_update(_x([4, 6]), _c([0, 1]), _x([4, 2]), c)),
    "ScatterElementsUpdate.axis": (
        1,
        lambda c: ov3.scatter_elements_update(_x([4, 6]), _c([[0, 1]]), _x([1, 2]), c),
    ),
    "DFT-7.axes": ([0, 1], lambda c: ov7.dft(_x([4, 5, 2]), c)),
    "DFT-7.signal_size": ([3, 4], lambda c: ov7.dft(_x([4, 5, 2]), _c([0, 1]), c)),
    "RDFT-9.signal_size": ([3, 4], lambda c: ov9.rdft(_x([4, 5]), _c([0, 1]), c)),
    "STFT-15.frame_size": (8, lambda c: ov15.stft(_x([2, 48]), _x([8]), c, _c(4), False)),
    "ISTFT-16.signal_length": (
        20,
        lambda c: ov16.istft(_x([9, 3, 2]), _x([16]), _c(16), _c(4), False, False, c),
    ),
    "ConvolutionBackpropData.output_shape": (
        [11, 11],
        lambda c: ov1.convolution_backprop_data(
            _x([1, 4, 5, 5]),
            _c(np.ones([4, 3, 3, 3]), np.float32),
            [2, 2],
            output_shape=c,
            auto_pad="same_upper",
        ),
    ),
}
# read_model crashes (a segmentation fault) on these: LRN and ScatterUpdate cast the data of a
# 'Constant' layer, which has none
CRASHES = {("LRN.axes", "Constant"), ("ScatterUpdate.axis", "Constant")}
# The types cast_vector reads (LRN's, ScatterUpdate's) whose values irshape does not decode: its
# answer is wider than OpenVINO's (the value unknown, no error)
WIDER = {(name, t) for name in ("LRN.axes", "ScatterUpdate.axis") for t in ("u1", "u2", "u3", "u6")}

# The ops that read each kind of conversion, given the edge values of the reals and of the
# integers past int64 or below zero (one op of each way of reading, docs §6)
EDGE_OPS = (
    "Unsqueeze.axes",
    "StridedSlice.strides",
    "Slice.step",
    "VariadicSplit.lengths",
    "AdaptiveAvgPool.output_shape",
    "Broadcast-3.target_shape",
    "Tile.repeats",
    "Reshape.target",
    "Reverse.axes",
    "LRN.axes",
    "ScatterUpdate.axis",
    "TopK-3.k",
    "ConvolutionBackpropData.output_shape",
    "OneHot-1.depth",
    "Eye-9.batch_shape",
    "RandomUniform-8.output_shape",
    "PriorBox-8.output_size",
    "DFT-7.signal_size",
    "RDFT-9.signal_size",
    "ISTFT-16.signal_length",
)
REAL_EDGES: tuple[list[float], ...] = (
    [0.5, 2.0],  # 0 once truncated
    [-1.5, 2.9],
    [1.9, -1.9],
    [math.nan, 0.0],
    [math.inf, 0.0],
    [1e30, 0.0],
    [2.0**63, 1.0],  # the edge of the int64 range, as f32 and as bf16 rounds it
    [-3e9, 0.0],
)
INTEGER_EDGES: tuple[list[float], ...] = ([-1, 3], [-(2**63), 3], [3, -2])


def _encoded(element_type: str, values: Sequence[float]) -> bytes:
    """``values`` as a Const of ``element_type`` stores them (raw bytes for the types OpenVINO
    does not read)."""
    if element_type in ("f32", "f64", "f16"):
        dtype = {"f32": np.float32, "f64": np.float64, "f16": np.float16}[element_type]
        with np.errstate(over="ignore"):
            return np.array(values, dtype=dtype).tobytes()
    if element_type == "bf16":  # the upper half of the f32, rounded to nearest even
        bits = np.array(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
        rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        nan = np.isnan(np.array(values, dtype=np.float32))
        return np.where(nan, 0x7FC0, rounded).astype(np.uint16).tobytes()
    if element_type == "boolean":
        return bytes(int(v != 0) for v in values)
    if element_type in ("i4", "u4", "nf4"):
        nibbles = [int(v) & 15 for v in values] + [0]
        return bytes(nibbles[i] | nibbles[i + 1] << 4 for i in range(0, len(values), 2))
    bits = BITS.get(element_type, 8)
    if element_type[0] in "iu" and bits in (8, 16, 32, 64):
        code = {8: "b", 16: "h", 32: "i", 64: "q"}[bits]
        code = code.upper() if element_type[0] == "u" else code
        wrapped = [int(v) % (1 << bits) for v in values]
        if element_type[0] == "i":
            wrapped = [v - (1 << bits) if v >= 1 << (bits - 1) else v for v in wrapped]
        return struct.pack(f"<{len(values)}{code}", *wrapped)
    return bytes(int(v) & 0xFF for v in values)


def _saved(name: str, folder: Path) -> tuple[Path, Values]:
    values, build = CASES[name]
    const = _c(values)
    const.set_friendly_name("the_const")
    node = build(const)
    node.set_friendly_name("case")
    results = [ov1.result(node.output(i)) for i in range(node.get_output_size())]
    parameters: list[ov.Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.get_type_name() == "Parameter" and all(p is not current for p in parameters):
            parameters.append(current)
        stack.extend(v.get_node() for v in current.input_values())
    xml = folder / f"{name}.xml"
    ov.save_model(ov.Model(results, parameters, "values"), str(xml), compress_to_fp16=False)
    return xml, values


def _retyped(base: Path, target: Path, element_type: str, values: Values) -> None:
    """``base`` with its Const given ``element_type`` and ``values`` (stored after the .bin's
    end), or typed 'Constant' (no bytes)."""
    tree = etree.parse(str(base))
    (layer,) = tree.xpath("//layer[@name='the_const']")
    data = layer.find("data")
    listed = values if isinstance(values, list) else [values]
    blob = bytearray(base.with_suffix(".bin").read_bytes())
    if element_type == "Constant":
        layer.set("type", "Constant")
    else:
        blob += bytes(-len(blob) % 8)
        data.set("element_type", element_type)
        data.set("offset", str(len(blob)))
        stored = _encoded(element_type, listed)
        data.set(
            "size",
            str(len(stored) if element_type == "dynamic" else (len(listed) * BITS[element_type] + 7) // 8),
        )
        blob += stored + bytes(16)  # (a 4-bit Const is read a byte an element, past its own bytes)
    tree.write(str(target))
    target.with_suffix(".bin").write_bytes(bytes(blob))


def _openvino(xml: Path) -> tuple[str | None, list[str]]:
    try:
        model = ov.Core().read_model(str(xml))
    except Exception as exc:  # read_model raises RuntimeError and OpenVINO's own exceptions
        return str(exc).strip().splitlines()[-1], []
    (node,) = [op for op in model.get_ops() if op.get_friendly_name() == "case"]
    return None, [str(node.get_output_partial_shape(i)) for i in range(node.get_output_size())]


def _disagreement(xml: Path) -> str | None:
    error, shapes = _openvino(xml)
    report = irshape.check_file(xml)
    errors = [d for d in report.errors if d.code not in ("IRS301", "IRS302", "IRS411", "IRS416")]
    if error is not None:
        return None if errors else f"OpenVINO fails ({error}); irshape reports no error"
    if errors:
        return f"OpenVINO reads {shapes}; irshape: " + "; ".join(f"{d.code} {d.message}" for d in errors)
    (layer,) = [layer for layer in report.layers if layer.name == "case"]
    inferred = [str(s) for s in layer.outputs]
    return None if inferred == shapes else f"OpenVINO {shapes}, irshape {inferred}"


def _check(name: str, types: Sequence[str], values: Values | None, tmp_path: Path) -> None:
    base, built = _saved(name, tmp_path)
    if values is None:
        values = built
    elif not isinstance(built, list):
        values = values[0] if isinstance(values, list) else values  # a scalar input: the first
    found = []
    for element_type in types:
        if (name, element_type) in CRASHES or (name, element_type) in WIDER:
            continue
        xml = tmp_path / f"{name}.{element_type}.xml"
        _retyped(base, xml, element_type, values)
        problem = _disagreement(xml)
        if problem is not None:
            found.append(f"{element_type} {values}: {problem}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_element_type_as_openvino_reads_it(name: str, tmp_path: Path) -> None:
    """The values the model was built with, in every element type."""
    _check(name, ALL_TYPES, None, tmp_path)


@pytest.mark.parametrize("values", REAL_EDGES, ids=str)
@pytest.mark.parametrize("name", EDGE_OPS)
def test_real_values_cast_as_openvino_casts_them(name: str, values: list[float], tmp_path: Path) -> None:
    """Fractions, NaN, infinities and values past the int64 range, in each real type."""
    _check(name, REAL_TYPES, values, tmp_path)


@pytest.mark.parametrize("values", INTEGER_EDGES, ids=str)
@pytest.mark.parametrize("name", EDGE_OPS)
def test_integers_past_int64_or_negative(name: str, values: list[float], tmp_path: Path) -> None:
    """-1 and -2^63 stored in unsigned and narrow types (a u64's 2^64 - 1, a u32's 2^32 - 1)."""
    _check(name, WRAPPING_TYPES, values, tmp_path)


def test_the_cases_read_as_built() -> None:
    """The harness's own check: each case as built (i64) reads, and irshape agrees."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for name in CASES:
            xml, _ = _saved(name, Path(tmp))
            assert _openvino(xml)[0] is None, name
            assert _disagreement(xml) is None, name
