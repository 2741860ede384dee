"""The IRs the fuzzer edits: small models built with OpenVINO's Python API and written by
``ov.save_model`` (IR v11), each also as IR v10 (the same text, ``version="10"``).

Each of the first bases has the four convolution ops in some arrangement, Consts (with a .bin),
a Parameter with static or interval dims, a shape-preserving op between, and a Result; the
others hold the ops of the other families (pooling, element-wise, layout, indexing, matmul,
reduction, normalization, resize, detection) with their attributes and Const inputs.
"""

from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ops


@dataclass(frozen=True)
class Base:
    name: str
    xml: str  # the text ov.save_model wrote
    bin: bytes


def _const(shape: list[int], dtype: type = np.float32) -> ov.Node:
    return ops.constant(np.ones(shape, dtype=dtype))


def _named(node: ov.Node, name: str) -> ov.Node:
    node.set_friendly_name(name)
    return node


def _models() -> dict[str, ov.Model]:
    models: dict[str, ov.Model] = {}

    x = ops.parameter([1, 4, 9, 9], np.float32, name="x")
    conv = _named(ops.convolution(x, _const([6, 4, 3, 3]), [2, 2], [1, 1], [0, 1], [1, 1]), "conv")
    relu = _named(ops.relu(conv), "relu")
    models["conv2d"] = ov.Model([relu], [x], "conv2d")

    x = ops.parameter([1, 2, 10], np.float32, name="x")
    conv = _named(ops.convolution(x, _const([3, 2, 3]), [1], [0], [0], [2]), "conv")
    models["conv1d"] = ov.Model([conv], [x], "conv1d")

    x = ops.parameter([1, 2, 5, 6, 7], np.float32, name="x")
    conv = _named(
        ops.convolution(x, _const([2, 2, 2, 2, 2]), [1, 1, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1]), "conv"
    )
    models["conv3d"] = ov.Model([conv], [x], "conv3d")

    x = ops.parameter(ov.PartialShape("?,4,1..16,8"), np.float32, name="x")
    c1 = _named(ops.convolution(x, _const([4, 4, 3, 3]), [1, 1], [1, 1], [1, 1], [1, 1]), "conv_a")
    c2 = _named(ops.convolution(ops.relu(c1), _const([2, 4, 1, 1]), [1, 1], [0, 0], [0, 0], [1, 1]), "conv_b")
    models["chain_dynamic"] = ov.Model([c2], [x], "chain_dynamic")

    x = ops.parameter([1, 4, 5, 5], np.float32, name="x")
    os_ = ops.constant(np.array([11, 11], dtype=np.int64))
    de = _named(
        ops.convolution_backprop_data(
            x, _const([4, 3, 3, 3]), [2, 2], output_shape=os_, auto_pad="same_upper"
        ),
        "deconv",
    )
    models["deconv_os"] = ov.Model([de], [x], "deconv_os")

    x = ops.parameter([1, 4, 5, 5], np.float32, name="x")
    de = _named(
        ops.convolution_backprop_data(
            x, _const([4, 3, 3, 3]), [2, 2], [1, 1], [0, 0], [1, 1], output_padding=[1, 1]
        ),
        "deconv",
    )
    models["deconv"] = ov.Model([de], [x], "deconv")

    x = ops.parameter([1, 6, 7, 7], np.float32, name="x")
    gc = _named(ops.group_convolution(x, _const([2, 3, 3, 3, 3]), [1, 1], [1, 1], [1, 1], [1, 1]), "gconv")
    models["gconv"] = ov.Model([ops.relu(gc)], [x], "gconv")

    x = ops.parameter([1, 6, 4, 4], np.float32, name="x")
    gd = _named(
        ops.group_convolution_backprop_data(
            x, _const([2, 3, 2, 3, 3]), [2, 2], [0, 0], [0, 0], [1, 1], output_padding=[1, 1]
        ),
        "gdeconv",
    )
    models["gdeconv"] = ov.Model([gd], [x], "gdeconv")

    x = ops.parameter([1, 6, 4, 4], np.float32, name="x")
    os_ = ops.constant(np.array([9, 8], dtype=np.int64))
    gd = _named(
        ops.group_convolution_backprop_data(
            x, _const([2, 3, 2, 3, 3]), [2, 2], output_shape=os_, auto_pad="valid"
        ),
        "gdeconv",
    )
    models["gdeconv_os"] = ov.Model([gd], [x], "gdeconv_os")
    models.update(_other_families())
    return models


def _i64(values: list[int]) -> ov.Node:
    return ops.constant(np.array(values, dtype=np.int64))


def _other_families() -> dict[str, ov.Model]:
    """Bases of the other op families: pooling, element-wise, layout, indexing, matmul,
    reduction, normalization, resize and detection (NonMaxSuppression-4/9, NMSRotated-13), each
    op with its attributes and Const inputs."""
    import openvino.opset8 as ops8
    import openvino.opset11 as ops11
    import openvino.opset13 as ops13

    models: dict[str, ov.Model] = {}
    x = ops.parameter([1, 4, 9, 9], np.float32, name="x")
    mp = ops13.max_pool(x, [2, 2], [1, 1], [1, 1], [0, 1], [3, 3], "floor", "explicit", name="maxpool")
    ap = _named(
        ops.avg_pool(mp.output(0), [1, 2], [0, 0], [1, 1], [2, 2], True, "ceil", "explicit"), "avgpool"
    )
    models["pool"] = ov.Model([_named(ops.add(ap, _const([1, 4, 1, 1])), "add")], [x], "pool")

    x = ops.parameter(ov.PartialShape("2,3,?,5"), np.float32, name="x")
    rs = _named(ops.reshape(x, _i64([0, -1, 5]), True), "reshape")
    tr = _named(ops.transpose(rs, _i64([2, 0, 1])), "transpose")
    cc = _named(ops.concat([tr, _const([5, 2, 4])], 2), "concat")
    sq = _named(ops.unsqueeze(cc, _i64([0])), "unsqueeze")
    models["layout"] = ov.Model([sq], [x], "layout")

    x = ops.parameter([4, 6, 8], np.float32, name="x")
    ga = _named(ops8.gather(x, _i64([0, 2, 3]), _i64([1]), 0), "gather")
    sl = _named(ops8.slice(ga, _i64([0, 1]), _i64([3, 7]), _i64([2, 2]), _i64([0, 2])), "slice")
    ss = _named(
        ops.strided_slice(sl, _i64([0, 0, 1]), _i64([2, 3, 4]), _i64([1, 1, 1]), [0, 0, 0], [0, 0, 0]),
        "strided_slice",
    )
    models["index"] = ov.Model([ss], [x], "index")

    x = ops.parameter([2, 3, 4], np.float32, name="x")
    mm = _named(ops.matmul(x, _const([4, 5]), False, False), "matmul")
    rd = _named(ops.reduce_sum(mm, _i64([1]), True), "reduce")
    sm = _named(ops8.softmax(rd, -1), "softmax")
    nl = _named(ops.normalize_l2(sm, _i64([2]), 1e-5, "add"), "normalize_l2")
    models["matmul_reduce"] = ov.Model([nl], [x], "matmul_reduce")

    import openvino.opset4 as ops4
    import openvino.opset9 as ops9

    boxes = ops.parameter([1, 10, 4], np.float32, name="boxes")
    rotated = ops.parameter([1, 10, 5], np.float32, name="rotated_boxes")
    scores = ops.parameter([1, 3, 10], np.float32, name="scores")

    def f32(value: float) -> ov.Node:
        return ops.constant(np.array(value, dtype=np.float32))

    nms9 = _named(ops9.non_max_suppression(boxes, scores, _i64(4), f32(0.5), f32(0.1), f32(0.0)), "nms9")
    nms4 = _named(ops4.non_max_suppression(boxes, scores, _i64(2), f32(0.5), f32(0.1)), "nms4")
    nmsr = _named(
        ops13.nms_rotated(rotated, scores, ops.constant(np.array(3, dtype=np.int32)), f32(0.5), f32(0.1)),
        "nms_rotated",
    )
    results = [*nms9.outputs(), *nms4.outputs(), *nmsr.outputs()]
    models["nms"] = ov.Model(results, [boxes, rotated, scores], "nms")

    x = ops.parameter([1, 3, 8, 8], np.float32, name="x")
    mvn = _named(ops13.mvn(x, _i64([2, 3]), True, 1e-5, "inside_sqrt"), "mvn")
    ip = _named(ops11.interpolate(mvn, _i64([12, 6]), "nearest", "sizes", axes=_i64([2, 3])), "interpolate")
    models["norm_resize"] = ov.Model([ip], [x], "norm_resize")
    return models


@functools.cache
def bases() -> tuple[Base, ...]:
    """Every base, as v11 and as v10 (sorted by name: the generator's draws depend on order)."""
    found: list[Base] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, model in sorted(_models().items()):
            path = Path(tmp) / f"{name}.xml"
            ov.save_model(model, str(path), compress_to_fp16=False)
            xml = path.read_text(encoding="utf-8")
            blob = path.with_suffix(".bin").read_bytes()
            found.append(Base(f"{name}.v11", xml, blob))
            found.append(
                Base(
                    f"{name}.v10",
                    xml.replace(
                        '<net name="' + name + '" version="11">', '<net name="' + name + '" version="10">', 1
                    ),
                    blob,
                )
            )
    for base in found:
        assert base.name.endswith("v11") or 'version="10"' in base.xml, base.name
    return tuple(found)
