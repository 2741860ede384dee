"""Every op version that reads an input's value for its output shape, fed through shape
subgraphs, against OpenVINO (issue 24 item 3's shape half).

The op versions come from the declarations (``value_inputs`` / ``bounds_inputs``), so a new one
fails :func:`test_every_op_with_value_inputs_has_a_generator` until it gets a builder below. Each
builder makes one node of its op from seeded nominal values; every value input it asks for is
fed, by the case's mode, by:

* ``const``: a Const of the values;
* ``static`` / ``interval`` / ``lower`` / ``dynamic``: a ShapeOf (ShapeOf-1, ShapeOf-3 i32 or
  i64) of a Parameter whose dims are the values (shifted to be non-negative), some of them
  static, intervals around the value (``3..9``), lower-bounded (``3..``) or ``?`` by the mode,
  gathered or sliced out, partly concatenated with Consts, through Convert, Add/Subtract,
  Multiply then Divide, Minimum/Maximum with Consts, ReduceProd, or through f32 (Convert,
  Multiply by 0.5 and 2, Floor, Convert back); a real input (scales, a real Range) ends in f32
  scaled by a real factor;
* ``param``: a Parameter of the value input's own shape (its value unknown).

One model per op version holds all its cases; ``read_model`` of the saved file is the oracle for
the shape and element type of every layer of it (the chains' too). Cases OpenVINO's builder
refuses are drawn again. Ops that move a value (Gather, Slice, StridedSlice, the reductions,
Unsqueeze, Tile) are also built on a vector fed so, their output a Broadcast's target (the value
and bounds a consumer reads). Then each op version's cases are saved alone with one Parameter
dim changed in the file (a static length, an interval, ``3..``, ``?``): where read_model rejects
the file irshape must report an error, where it reads it every layer is compared again.
``IRSHAPE_VALUE_INPUTS_FUZZ=N`` multiplies the configurations and the changed files,
``IRSHAPE_VALUE_INPUTS_SEED`` changes the seed. The default run: 74 op versions, 36
configurations and 10 changed files each.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset2 as ov2
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset5 as ov5
import openvino.opset7 as ov7
import openvino.opset8 as ov8
import openvino.opset9 as ov9
import openvino.opset10 as ov10
import openvino.opset11 as ov11
import openvino.opset12 as ov12
import openvino.opset13 as ov13
import openvino.opset15 as ov15
import openvino.opset16 as ov16
import pytest
from lxml import etree
from openvino.utils.node_factory import NodeFactory

import irshape
from irshape.ops.registry import all_declarations

from .conftest import STATS
from .ops_harness import OpCase, as_broadcast_target, read_back, save_batch

SEED = int(os.environ.get("IRSHAPE_VALUE_INPUTS_SEED", "20261128"))
SCALE = int(os.environ.get("IRSHAPE_VALUE_INPUTS_FUZZ", "1"))
MODES = ("const", "static", "interval", "lower", "dynamic", "param")
PER_MODE = 6 * SCALE  # 36 configurations an op version by default


# --- feeding a value input ------------------------------------------------------------------


def _np_type(element_type: str) -> Any:
    return {"i32": np.int32, "i64": np.int64, "f32": np.float32}[element_type]


def _const(values: Any, element_type: str = "i64") -> ov.Node:
    return ov1.constant(np.array(values, dtype=_np_type(element_type)))


def _dim(rng: random.Random, target: int, style: str, forced: bool) -> ov.Dimension:
    """``target`` as a dim of the mode's style (static where the draw leaves it so)."""
    if style == "static" or not (forced or rng.random() < 0.5):
        return ov.Dimension(target)
    if style == "interval":
        return ov.Dimension(max(0, target - rng.randint(0, 3)), target + rng.randint(1, 4))
    if style == "lower":
        return ov.Dimension(max(0, target - rng.randint(0, 3)), -1)
    return ov.Dimension()


class Feeder:
    """Makes the value inputs of one case, in its mode (a call takes the Const instead at
    times, so that an op's several value inputs mix modes)."""

    def __init__(self, rng: random.Random, mode: str) -> None:
        self.rng, self.mode = rng, mode

    def __call__(
        self,
        values: Sequence[int],
        element_type: str | None = None,
        scalar: bool = False,
        real: bool = False,
    ) -> ov.Node:
        rng = self.rng
        et = element_type or rng.choice(["i32", "i64"])
        mode = self.mode if rng.random() < 0.7 else "const"
        factor = rng.choice([0.5, 1.0, 1.5, 0.25]) if real else 1.0
        if mode == "const":
            array = np.array(values, dtype=np.float64) * factor if real else np.array(values)
            node = _const(array.reshape(()) if scalar else array, "f32" if real else et)
        elif mode == "param":
            shape = [] if scalar else [len(values)]
            node = ov1.parameter(ov.PartialShape(shape), _np_type("f32" if real else et))
        else:
            node = self._from_shape(list(values), mode, et, scalar and not real)
            if real:
                node = ov1.multiply(ov1.convert(node, "f32"), _const([factor], "f32"))
                if scalar:
                    node = ov1.squeeze(node, _const([0]))
        return node

    def _from_shape(self, values: list[int], style: str, et: str, scalar: bool) -> ov.Node:
        rng = self.rng
        n = len(values)
        # a huge value (Slice's "to the end") stays a Const beside the others: as a dim it
        # would pass INT32_MAX, where an i32 ShapeOf has no bounds
        huge = {i for i, v in enumerate(values) if abs(v) > 1000}
        shift = max(0, -min((v for i, v in enumerate(values) if i not in huge), default=0)) + rng.choice(
            [0, 0, 1, 2]
        )
        arith = rng.choice(["none", "none", "add", "mul", "times", "min", "max", "real", "prod", "concat"])
        if huge and n > len(huge):
            arith = "concat"
        elif huge:
            return _const(np.array(values).reshape(()) if scalar else values, et)
        factor = rng.choice([2, 3]) if arith == "mul" else 1
        targets = [v if i in huge else (v + shift) * factor for i, v in enumerate(values)]
        forced = rng.randrange(n) if n else -1
        dims = [_dim(rng, t, style, i == forced) for i, t in enumerate(targets)]
        extra = [ov.Dimension(rng.randint(1, 4)) for _ in range(rng.randint(0, 2))]
        order = list(range(n + len(extra)))
        rng.shuffle(order)
        every = [*dims, *extra]
        laid = [every[i] for i in order]  # the Parameter's dims; value i sits at order.index(i)
        data = ov1.parameter(ov.PartialShape(laid), np.float32)
        shape_type = rng.choice(["i32", "i64"])
        shape = (
            ov1.shape_of(data)
            if shape_type == "i64" and rng.random() < 0.5
            else ov3.shape_of(data, shape_type)
        )
        positions = [order.index(i) for i in range(n)]
        if arith == "concat" and n > 1:
            keep = {rng.choice([i for i in range(n) if i not in huge])} if not huge else set(range(n)) - huge
            parts = [
                ov8.gather(shape, _const([positions[i]], shape_type), _const(0, shape_type))
                if i in keep
                else _const([targets[i] + (shift if targets[i] < -1000 else 0)], shape_type)
                for i in range(n)
            ]
            node = ov1.concat(parts, 0)
        elif n and positions == list(range(positions[0], positions[0] + n)) and rng.random() < 0.5:
            start = positions[0]
            node = ov8.slice(shape, _const([start]), _const([start + n]), _const([1]))
        else:
            node = ov8.gather(shape, _const(positions, shape_type), _const(0, shape_type))
        if shape_type != et:
            node = ov1.convert(node, et)
        if arith == "mul":
            node = ov1.divide(node, _const([factor], et))
        elif arith == "times":
            times = rng.choice([2, 3])
            node = ov1.divide(ov1.multiply(node, _const([times], et)), _const([times], et))
        elif arith == "min":
            node = ov1.minimum(node, _const([rng.randint(40, 100)], et))
        elif arith == "max":
            node = ov1.maximum(node, _const([0], et))
        elif arith == "real":
            real = ov1.multiply(
                ov1.multiply(ov1.convert(node, "f32"), _const([0.5], "f32")), _const([2.0], "f32")
            )
            if rng.random() < 0.5:  # a real Divide, Maximum and Ceiling on the way
                real = ov1.maximum(ov1.divide(real, _const([1.0], "f32")), _const([0.0], "f32"))
                node = ov1.convert(ov1.ceiling(real), et)
            else:
                node = ov1.convert(ov1.floor(real), et)
        elif arith == "prod" and n == 1:
            node = ov1.reduce_prod(ov1.concat([node, _const([1], et)], 0), _const([0]), True)
        if shift:
            node = (
                ov1.subtract(node, _const([shift], et))
                if rng.random() < 0.5
                else ov1.add(node, _const([-shift], et))
            )
        if scalar:
            node = (
                ov1.squeeze(node, _const([0]))
                if rng.random() < 0.5
                else ov1.reshape(node, _const([], "i64"), False)
            )
        return node


# --- one builder per op version ------------------------------------------------------------

Build = Callable[[random.Random, Feeder], ov.Node]


def _data(rng: random.Random, dims: Sequence[int], element_type: Any = np.float32) -> ov.Node:
    """A Parameter of ``dims``, one of them made dynamic at times."""
    shape = [ov.Dimension(d) for d in dims]
    if dims and rng.random() < 0.3:
        axis = rng.randrange(len(dims))
        shape[axis] = (
            ov.Dimension() if rng.random() < 0.5 else ov.Dimension(max(1, dims[axis] - 1), dims[axis] + 2)
        )
    return ov1.parameter(ov.PartialShape(shape), element_type)


def _dims(rng: random.Random, rank: int, lo: int = 1, hi: int = 6) -> list[int]:
    return [rng.randint(lo, hi) for _ in range(rank)]


def _axes(rng: random.Random, rank: int, count: int | None = None) -> list[int]:
    chosen = rng.sample(range(rank), count if count is not None else rng.randint(1, rank))
    return [a - rank if rng.random() < 0.3 else a for a in chosen]


def _factory(opset: str) -> NodeFactory:
    return NodeFactory(opset)


def _adaptive(pool: str) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        rank = rng.randint(3, 5)
        data = _data(rng, _dims(rng, rank, 1, 8))
        size = f(_dims(rng, rank - 2, 1, 6))
        return getattr(ov8, pool)(data, size)

    return build


def _batch_to_space(rng: random.Random, f: Feeder) -> ov.Node:
    block = [1, *_dims(rng, 3, 1, 2)]
    data = _data(rng, [int(np.prod(block)) * rng.randint(1, 2), *_dims(rng, 3, 2, 4)])
    crops = [[0, *[rng.randint(0, 1) for _ in range(3)]] for _ in range(2)]
    return ov2.batch_to_space(data, f(block), f(crops[0]), f(crops[1]))


def _space_to_batch(rng: random.Random, f: Feeder) -> ov.Node:
    block = [1, *_dims(rng, 3, 1, 2)]
    dims = _dims(rng, 4, 1, 4)
    begin = [0, *[rng.randint(0, 1) for _ in range(3)]]
    end = [0] + [(-(dims[i] + begin[i])) % block[i] for i in range(1, 4)]
    return ov2.space_to_batch(_data(rng, dims), f(block), f(begin), f(end))


def _broadcast(version: int) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        target = _dims(rng, rng.randint(1, 4), 1, 5)
        if rng.random() < 0.3:  # explicit: axes_mapping a value input too
            data_rank = rng.randint(1, len(target))
            mapping = sorted(rng.sample(range(len(target)), data_rank))
            data = _data(rng, [target[a] if rng.random() < 0.7 else 1 for a in mapping])
            mode = "EXPLICIT" if version == 1 else "explicit"
            return (ov1.broadcast if version == 1 else ov3.broadcast)(data, f(target), f(mapping), mode)
        data = _data(rng, [t if rng.random() < 0.5 else 1 for t in target[rng.randint(0, len(target) - 1) :]])
        if version == 1:
            return ov1.broadcast(data, f(target))
        return ov3.broadcast(data, f(target), broadcast_spec=rng.choice(["NUMPY", "BIDIRECTIONAL"]))

    return build


def _col2im(rng: random.Random, f: Feeder) -> ov.Node:
    kernel = _dims(rng, 2, 1, 3)
    channels = rng.randint(1, 3) * kernel[0] * kernel[1]
    data = ov1.parameter(ov.PartialShape([rng.randint(1, 2), channels, -1]), np.float32)
    return ov15.col2im(data, f(_dims(rng, 2, 3, 8)), f(kernel))


def _backprop(grouped: bool) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        spatial = rng.randint(1, 3)
        groups = rng.randint(1, 2) if grouped else 1
        channels, out_channels = 2 * groups, rng.randint(1, 3)
        data = _data(rng, [1, channels, *_dims(rng, spatial, 2, 6)])
        kernel = _dims(rng, spatial, 1, 3)
        strides = _dims(rng, spatial, 1, 2)
        wanted = f(_dims(rng, spatial, 3, 14))
        if grouped:
            filters = _const(np.ones([groups, 2, out_channels, *kernel]), "f32")
            return ov1.group_convolution_backprop_data(data, filters, strides, wanted, auto_pad="same_upper")
        filters = _const(np.ones([channels, out_channels, *kernel]), "f32")
        pads = {"auto_pad": "same_lower"} if rng.random() < 0.5 else {}
        return ov1.convolution_backprop_data(data, filters, strides, wanted, **pads)

    return build


def _fourier(op: Callable[..., ov.Node], complex_input: bool) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        rank = rng.randint(1, 3)
        dims = _dims(rng, rank, 2, 8)
        data = _data(rng, [*dims, 2] if complex_input else dims)
        axes = _axes(rng, rank)
        if rng.random() < 0.3:
            return op(data, f(axes))
        return op(data, f(axes), f([rng.choice([-1, *range(1, 10)]) for _ in axes]))

    return build


def _embedding_segments_sum(rng: random.Random, f: Feeder) -> ov.Node:
    count = rng.randint(1, 6)
    table = _data(rng, [rng.randint(4, 10), rng.randint(1, 4)])
    indices = _const([rng.randrange(4) for _ in range(count)], "i32")
    segments = _const(sorted(rng.randrange(4) for _ in range(count)), "i32")
    return ov3.embedding_segments_sum(table, indices, segments, f([rng.randint(1, 8)], "i32", scalar=True))


def _eye(rng: random.Random, f: Feeder) -> ov.Node:
    rows = f([rng.randint(0, 6)], scalar=rng.random() < 0.5)
    columns = f([rng.randint(0, 6)], scalar=rng.random() < 0.5)
    diagonal = f([rng.randint(-3, 3)], scalar=True)
    out = rng.choice(["f32", "i32", "i64"])
    if rng.random() < 0.5:
        return ov9.eye(rows, columns, diagonal, out)
    return ov9.eye(rows, columns, diagonal, out, f(_dims(rng, rng.randint(1, 2), 1, 4)))


def _gather(version: int) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        rank = rng.randint(1, 4)
        data = _data(rng, _dims(rng, rank, 1, 5))
        indices = _const(np.array(_dims(rng, rng.randint(0, 2), 0, 0)), "i32")
        axis = f([_axes(rng, rank, 1)[0] if version > 1 else rng.randrange(rank)], scalar=True)
        if version == 1:
            return ov1.gather(data, indices, axis)
        module = ov7 if version == 7 else ov8
        return module.gather(data, indices, axis, 0)

    return build


def _interpolate1(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(2, 4)
    axes = sorted(rng.sample(range(rank), rng.randint(1, rank)))
    data = _data(rng, _dims(rng, rank, 1, 6))
    attrs = {"axes": axes, "mode": "nearest"}
    return ov1.interpolate(data, f(_dims(rng, len(axes), 1, 9)), attrs)


def _interpolate4(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(2, 4)
    axes = sorted(rng.sample(range(rank), rng.randint(1, rank)))
    data = _data(rng, _dims(rng, rank, 1, 6))
    sizes = f(_dims(rng, len(axes), 1, 9))
    scales = f(_dims(rng, len(axes), 1, 4), real=True)
    mode = rng.choice(["sizes", "scales"])
    attrs = {"mode": "nearest", "shape_calculation_mode": mode}
    axis_input = f(axes) if rng.random() < 0.3 else None
    if axis_input is None and len(axes) != rank:
        axis_input = _const(axes)
    return _interpolate4_node(data, sizes, scales, axis_input, attrs)


def _interpolate4_node(
    data: ov.Node, sizes: ov.Node, scales: ov.Node, axes: ov.Node | None, attrs: dict[str, Any]
) -> ov.Node:
    inputs = [data, sizes, scales] + ([axes] if axes is not None else [])
    return _factory("opset4").create("Interpolate", [i.output(0) for i in inputs], attrs)


def _interpolate11(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(2, 4)
    axes = sorted(rng.sample(range(rank), rng.randint(1, rank)))
    data = _data(rng, _dims(rng, rank, 1, 6))
    mode = rng.choice(["sizes", "scales"])
    values = f(_dims(rng, len(axes), 1, 9), real=mode == "scales")
    axis_input = (f(axes) if rng.random() < 0.3 else _const(axes)) if len(axes) != rank else None
    return ov11.interpolate(data, values, "nearest", mode, axes=axis_input)


def _istft(rng: random.Random, f: Feeder) -> ov.Node:
    frame = rng.randint(2, 8)
    step = rng.randint(1, frame)
    data = _data(
        rng, [*([rng.randint(1, 2)] if rng.random() < 0.5 else []), frame // 2 + 1, rng.randint(1, 5), 2]
    )
    window = _data(rng, [frame])
    length = f([rng.randint(1, 12)], scalar=True) if rng.random() < 0.5 else None
    center = rng.random() < 0.5
    return ov16.istft(data, window, f([frame], scalar=True), f([step], scalar=True), center, False, length)


def _lrn(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(2, 4)
    return ov1.lrn(
        _data(rng, _dims(rng, rank)), f(sorted(rng.sample(range(1, rank), rng.randint(1, rank - 1))))
    )


def _multinomial(rng: random.Random, f: Feeder) -> ov.Node:
    probs = _data(rng, _dims(rng, rng.randint(1, 2), 1, 5))
    samples = f([rng.randint(1, 6)], scalar=rng.random() < 0.5)
    return ov13.multinomial(probs, samples, "i64", True, False)


def _nms(version: int) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        batch, boxes, classes = rng.randint(1, 2), rng.randint(1, 6), rng.randint(1, 3)
        width = 5 if version == 13 else 4
        box_input = _data(rng, [batch, boxes, width])
        scores = _data(rng, [batch, classes, boxes])
        limit = f([rng.randint(0, 8)], scalar=rng.random() < 0.7)
        if version == 13:
            return ov13.nms_rotated(box_input, scores, limit, _const(0.5, "f32"), _const(0.0, "f32"))
        module = {1: ov1, 3: ov3, 4: ov4, 5: ov5, 9: ov9}[version]
        return module.non_max_suppression(box_input, scores, limit)

    return build


def _non_zero(rng: random.Random, f: Feeder) -> ov.Node:
    return ov3.non_zero(f([rng.randint(0, 3) for _ in range(rng.randint(1, 4))]), rng.choice(["i32", "i64"]))


def _normalize_l2(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(1, 4)
    return ov1.normalize_l2(_data(rng, _dims(rng, rank)), f(_axes(rng, rank)), 1e-6, "add")


def _one_hot(version: int) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        rank = rng.randint(0, 2)
        indices = _data(rng, _dims(rng, rank), np.int64)
        depth = f([rng.randint(1, 8)], scalar=rng.random() < 0.8)
        on, off = _const(1.0, "f32"), _const(0.0, "f32")
        axis = rng.randint(-1, rank)
        return (ov1.one_hot if version == 1 else ov16.one_hot)(indices, depth, on, off, axis)

    return build


def _pad(version: int) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        rank = rng.randint(1, 4)
        data = _data(rng, _dims(rng, rank, 2, 6))
        low = -1 if version == 12 else 0
        begin = [rng.randint(low, 3) for _ in range(rank)]
        end = [rng.randint(low, 3) for _ in range(rank)]
        mode = rng.choice(["constant", "edge", "reflect", "symmetric"])
        return (ov1.pad if version == 1 else ov12.pad)(data, f(begin), f(end), mode)

    return build


def _prior_box(version: int) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        layer = f(_dims(rng, 2, 1, 8))
        image = _const([rng.randint(16, 64), rng.randint(16, 64)])
        if version == 0:
            attrs = {"width": [2.0, 3.0], "height": [2.0, 3.0], "clip": False, "offset": 0.5}
            return ov1.prior_box_clustered(layer, image, attrs)
        attrs = {"offset": 0.5, "min_size": [2.0], "max_size": [5.0], "aspect_ratio": [1.5], "flip": True}
        return (ov1 if version == 1 else ov8).prior_box(layer, image, attrs)

    return build


def _random_uniform(rng: random.Random, f: Feeder) -> ov.Node:
    shape = f(_dims(rng, rng.randint(0, 3), 0, 5))
    return ov8.random_uniform(shape, _const(0.0, "f32"), _const(1.0, "f32"), "f32")


def _range(version: int) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        real = rng.random() < 0.4
        et = "f32" if real else rng.choice(["i32", "i64"])
        start, stop = rng.randint(-4, 4), rng.randint(-4, 12)
        step = rng.choice([1, 2, 3]) if stop >= start else rng.choice([-1, -2])
        nodes = [f([v], et if not real else None, scalar=True, real=real) for v in (start, stop, step)]
        if version == 1:
            if real:
                nodes = [
                    n if n.get_output_element_type(0) == ov.Type.f32 else ov1.convert(n, "f32") for n in nodes
                ]
            else:
                nodes = [ov1.convert(n, et) for n in nodes]
            return ov1.range(*nodes)
        return ov4.range(*nodes, rng.choice(["f32", "i32", "i64"]))

    return build


def _reduce(name: str, module: Any) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        rank = rng.randint(1, 4)
        element_type = np.bool_ if "logical" in name else np.float32
        data = _data(rng, _dims(rng, rank), element_type)
        return getattr(module, name)(data, f(_axes(rng, rank)), rng.random() < 0.5)

    return build


def _reshape(rng: random.Random, f: Feeder) -> ov.Node:
    dims = _dims(rng, rng.randint(1, 4), 1, 4)
    total = int(np.prod(dims))
    target = _dims(rng, rng.randint(1, 3), 1, 4)
    target[-1] = total // max(1, int(np.prod(target[:-1])))
    special = rng.random() < 0.3
    if rng.random() < 0.4:
        target[rng.randrange(len(target))] = -1
    if special and rng.random() < 0.5:
        target[0] = 0
    return ov1.reshape(_data(rng, dims), f(target), special)


def _reverse(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(1, 4)
    data = _data(rng, _dims(rng, rank))
    axes = sorted(rng.sample(range(rank), rng.randint(1, rank)))
    return _factory("opset1").create("Reverse", [data.output(0), f(axes).output(0)], {"mode": "index"})


def _roll(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(1, 4)
    axes = _axes(rng, rank)
    return ov7.roll(_data(rng, _dims(rng, rank)), _const([1] * len(axes)), f(axes))


def _stft(rng: random.Random, f: Feeder) -> ov.Node:
    frame = rng.randint(2, 6)
    signal = _data(rng, [*([rng.randint(1, 2)] if rng.random() < 0.5 else []), rng.randint(frame, 16)])
    window = _data(rng, [rng.randint(1, frame)])
    return ov15.stft(
        signal, window, f([frame], scalar=True), f([rng.randint(1, 4)], scalar=True), rng.random() < 0.5
    )


def _scatter_elements(version: int) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        rank = rng.randint(1, 3)
        dims = _dims(rng, rank, 2, 5)
        data = _data(rng, dims)
        indices = _const(np.zeros(dims, dtype=np.int64))
        updates = _data(rng, dims)
        axis = f([_axes(rng, rank, 1)[0]], scalar=True)
        if version == 3:
            return ov3.scatter_elements_update(data, indices, updates, axis)
        return ov12.scatter_elements_update(data, indices, updates, axis, rng.choice(["none", "sum", "max"]))

    return build


def _scatter_update(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(1, 3)
    dims = _dims(rng, rank, 2, 5)
    axis = rng.randrange(rank)
    updates_dims = [*dims[:axis], 1, *dims[axis + 1 :]]
    return ov3.scatter_update(_data(rng, dims), _const([0]), _data(rng, updates_dims), f([axis], scalar=True))


def _segment_max(rng: random.Random, f: Feeder) -> ov.Node:
    count = rng.randint(1, 5)
    data = _data(rng, [count, rng.randint(1, 3)])
    ids = f(sorted(rng.randint(0, 4) for _ in range(count)))
    segments = f([rng.randint(1, 7)], scalar=True) if rng.random() < 0.6 else None
    return ov16.segment_max(data, ids, segments, "ZERO")


def _slice(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(1, 4)
    dims = _dims(rng, rank, 1, 8)
    axes = _axes(rng, rank)
    start = [rng.randint(-6, 6) for _ in axes]
    stop = [rng.choice([rng.randint(-6, 9), 2**31 - 1, -(2**31)]) for _ in axes]
    step = [rng.choice([1, 1, 2, -1, 3]) for _ in axes]
    with_axes = rng.random() < 0.6 or len(axes) != rank
    if not with_axes:
        axes = list(range(rank))
    return ov8.slice(_data(rng, dims), f(start), f(stop), f(step), f(axes) if with_axes else None)


def _slice_scatter(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(1, 3)
    dims = _dims(rng, rank, 1, 6)
    axes = _axes(rng, rank)
    start = [rng.randint(-4, 4) for _ in axes]
    stop = [rng.randint(-4, 8) for _ in axes]
    step = [rng.choice([1, 2, -1]) for _ in axes]
    updates = ov1.parameter(ov.PartialShape.dynamic(rank), np.float32)
    return ov15.slice_scatter(_data(rng, dims), updates, f(start), f(stop), f(step), f(axes))


def _sparse_fill(rng: random.Random, f: Feeder) -> ov.Node:
    count = rng.randint(1, 4)
    rows, columns = rng.randint(2, 6), rng.randint(2, 6)
    indices = _const([[rng.randrange(rows), rng.randrange(columns)] for _ in range(count)])
    dense = f([rows, columns], "i64")
    return ov16.sparse_fill_empty_rows(_data(rng, [count]), dense, indices, _const(0.0, "f32"))


def _split(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(1, 4)
    parts = rng.randint(1, 3)
    axis = rng.randrange(rank)
    dims = _dims(rng, rank)
    dims[axis] = parts * rng.randint(1, 3)
    return ov1.split(_data(rng, dims), f([axis - rank if rng.random() < 0.3 else axis], scalar=True), parts)


def _variadic_split(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(1, 4)
    axis = rng.randrange(rank)
    lengths = _dims(rng, rng.randint(1, 3), 0, 4)
    dims = _dims(rng, rank)
    dims[axis] = sum(lengths)
    if rng.random() < 0.4:
        lengths[rng.randrange(len(lengths))] = -1
    return ov1.variadic_split(_data(rng, dims), f([axis], scalar=True), f(lengths))


def _squeeze(version: int) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        rank = rng.randint(1, 4)
        dims = [1 if rng.random() < 0.5 else d for d in _dims(rng, rank)]
        ones = [i for i, d in enumerate(dims) if d == 1] or [0]
        dims[ones[0]] = 1
        axes = [a - rank if rng.random() < 0.3 else a for a in rng.sample(ones, rng.randint(1, len(ones)))]
        data = _data(rng, dims)
        if version == 1:
            return ov1.squeeze(data, f(axes))
        return ov15.squeeze(data, f(axes), rng.random() < 0.5)

    return build


def _unsqueeze(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(0, 3)
    count = rng.randint(1, 2)
    axes = rng.sample(range(rank + count), count)
    return ov1.unsqueeze(_data(rng, _dims(rng, rank)), f(axes))


def _strided_slice(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(1, 4)
    dims = _dims(rng, rank, 1, 8)
    count = rng.randint(1, rank)
    begin = [rng.randint(-6, 6) for _ in range(count)]
    end = [rng.randint(-6, 9) for _ in range(count)]
    strides = [rng.choice([1, 1, 2, -1]) for _ in range(count)]
    masks = [[rng.randint(0, 1) if rng.random() < 0.3 else 0 for _ in range(count)] for _ in range(2)]
    shrink = [1 if rng.random() < 0.15 else 0 for _ in range(count)]
    return ov1.strided_slice(
        _data(rng, dims), f(begin), f(end), f(strides), masks[0], masks[1], shrink_axis_mask=shrink
    )


def _tile(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(0, 3)
    return ov1.tile(_data(rng, _dims(rng, rank, 1, 4)), f(_dims(rng, rng.randint(1, 4), 0, 3)))


def _topk(version: int) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        rank = rng.randint(1, 3)
        dims = _dims(rng, rank, 1, 8)
        axis = rng.randrange(rank)
        k = f([rng.randint(1 if version == 1 else 0, dims[axis])], scalar=True)
        data = _data(rng, dims)
        if version == 1:
            return ov1.topk(data, k, axis, "max", "value")
        module = ov3 if version == 3 else ov11
        return module.topk(data, k, axis, "max", "value", rng.choice(["i32", "i64"]))

    return build


def _transpose(rng: random.Random, f: Feeder) -> ov.Node:
    rank = rng.randint(1, 4)
    order = list(range(rank))
    rng.shuffle(order)
    return ov1.transpose(_data(rng, _dims(rng, rank)), f(order))


def _unique(rng: random.Random, f: Feeder) -> ov.Node:
    values = f([rng.randint(0, 4) for _ in range(rng.randint(1, 5))])
    if rng.random() < 0.5:
        return ov10.unique(values)
    return ov10.unique(values, f([0], scalar=True))


# --- the same ops on a value: their output's value and bounds shown by a Broadcast -------------

OnVector = Callable[[random.Random, Feeder, ov.Node, int], ov.Node]


def _on_a_value(build: Build, on_vector: OnVector) -> Build:
    """``build``, or (a third of the time) the op on a vector fed as a value input is (a shape's
    elements, their bounds...), its output the target of a Broadcast: that value is what a
    consumer below reads (``as_broadcast_target``)."""

    def either(rng: random.Random, f: Feeder) -> ov.Node:
        if rng.random() < 0.65:
            return build(rng, f)
        n = rng.randint(1, 4)
        vector = f([rng.randint(1, 6) for _ in range(n)])
        return as_broadcast_target(on_vector(rng, f, vector, n))

    return either


def _gather_vector(version: int) -> OnVector:
    def build(rng: random.Random, f: Feeder, vector: ov.Node, n: int) -> ov.Node:
        indices = _const([rng.randrange(-n if version > 1 else 0, n) for _ in range(rng.randint(1, 3))])
        module = {1: ov1, 7: ov7, 8: ov8}[version]
        return module.gather(vector, indices, f([0], scalar=True))

    return build


def _slice_vector(rng: random.Random, f: Feeder, vector: ov.Node, n: int) -> ov.Node:
    start, stop = rng.randint(-n, n), rng.choice([rng.randint(-n, n + 1), 2**31 - 1])
    return ov8.slice(vector, f([start]), f([stop]), f([rng.choice([1, 2, -1])]), _const([0]))


def _strided_vector(rng: random.Random, f: Feeder, vector: ov.Node, n: int) -> ov.Node:
    begin, end = rng.randint(-n, n), rng.randint(-n, n + 1)
    masks = [[rng.randint(0, 1)] for _ in range(2)]
    return ov1.strided_slice(vector, f([begin]), f([end]), f([rng.choice([1, 2, -1])]), *masks)


def _reduce_vector(name: str, module: Any) -> OnVector:
    def build(rng: random.Random, f: Feeder, vector: ov.Node, n: int) -> ov.Node:
        return getattr(module, name)(vector, f([rng.choice([0, -1])]), True)

    return build


def _unsqueeze_vector(rng: random.Random, f: Feeder, vector: ov.Node, n: int) -> ov.Node:
    return ov1.unsqueeze(vector, f([rng.choice([0, 1, -1])]))


def _tile_vector(rng: random.Random, f: Feeder, vector: ov.Node, n: int) -> ov.Node:
    return ov1.tile(vector, f([rng.randint(0, 3)]))


BUILDERS: dict[str, Build] = {
    "AdaptiveAvgPool-8": _adaptive("adaptive_avg_pool"),
    "AdaptiveMaxPool-8": _adaptive("adaptive_max_pool"),
    "BatchToSpace-1": _batch_to_space,
    "SpaceToBatch-1": _space_to_batch,
    "Broadcast-1": _broadcast(1),
    "Broadcast-3": _broadcast(3),
    "Col2Im-15": _col2im,
    "ConvolutionBackpropData-1": _backprop(False),
    "GroupConvolutionBackpropData-1": _backprop(True),
    "DFT-7": _fourier(ov7.dft, True),
    "IDFT-7": _fourier(ov7.idft, True),
    "RDFT-9": _fourier(ov9.rdft, False),
    "IRDFT-9": _fourier(ov9.irdft, True),
    "EmbeddingSegmentsSum-3": _embedding_segments_sum,
    "Eye-9": _eye,
    "Gather-1": _on_a_value(_gather(1), _gather_vector(1)),
    "Gather-7": _on_a_value(_gather(7), _gather_vector(7)),
    "Gather-8": _on_a_value(_gather(8), _gather_vector(8)),
    "Interpolate-1": _interpolate1,
    "Interpolate-4": _interpolate4,
    "Interpolate-11": _interpolate11,
    "ISTFT-16": _istft,
    "LRN-1": _lrn,
    "Multinomial-13": _multinomial,
    **{f"NonMaxSuppression-{v}": _nms(v) for v in (1, 3, 4, 5, 9)},
    "NMSRotated-13": _nms(13),
    "NonZero-3": _non_zero,
    "NormalizeL2-1": _normalize_l2,
    "OneHot-1": _one_hot(1),
    "OneHot-16": _one_hot(16),
    "Pad-1": _pad(1),
    "Pad-12": _pad(12),
    "PriorBox-1": _prior_box(1),
    "PriorBox-8": _prior_box(8),
    "PriorBoxClustered-1": _prior_box(0),
    "RandomUniform-8": _random_uniform,
    "Range-1": _range(1),
    "Range-4": _range(4),
    "ReduceL1-4": _reduce("reduce_l1", ov4),
    "ReduceL2-4": _reduce("reduce_l2", ov4),
    "ReduceLogicalAnd-1": _reduce("reduce_logical_and", ov1),
    "ReduceLogicalOr-1": _reduce("reduce_logical_or", ov1),
    "ReduceMax-1": _on_a_value(_reduce("reduce_max", ov1), _reduce_vector("reduce_max", ov1)),
    "ReduceMean-1": _reduce("reduce_mean", ov1),
    "ReduceMin-1": _on_a_value(_reduce("reduce_min", ov1), _reduce_vector("reduce_min", ov1)),
    "ReduceProd-1": _on_a_value(_reduce("reduce_prod", ov1), _reduce_vector("reduce_prod", ov1)),
    "ReduceSum-1": _on_a_value(_reduce("reduce_sum", ov1), _reduce_vector("reduce_sum", ov1)),
    "Reshape-1": _reshape,
    "Reverse-1": _reverse,
    "Roll-7": _roll,
    "STFT-15": _stft,
    "ScatterElementsUpdate-3": _scatter_elements(3),
    "ScatterElementsUpdate-12": _scatter_elements(12),
    "ScatterUpdate-3": _scatter_update,
    "SegmentMax-16": _segment_max,
    "Slice-8": _on_a_value(_slice, _slice_vector),
    "SliceScatter-15": _slice_scatter,
    "SparseFillEmptyRows-16": _sparse_fill,
    "Split-1": _split,
    "VariadicSplit-1": _variadic_split,
    "Squeeze-1": _squeeze(1),
    "Squeeze-15": _squeeze(15),
    "Unsqueeze-1": _on_a_value(_unsqueeze, _unsqueeze_vector),
    "StridedSlice-1": _on_a_value(_strided_slice, _strided_vector),
    "Tile-1": _on_a_value(_tile, _tile_vector),
    "TopK-1": _topk(1),
    "TopK-3": _topk(3),
    "TopK-11": _topk(11),
    "Transpose-1": _transpose,
    "Unique-10": _unique,
}

VALUE_READERS = sorted(
    s.name for s in all_declarations() if not s.is_source and (s.value_inputs or s.bounds_inputs)
)


def test_every_op_with_value_inputs_has_a_generator() -> None:
    assert len(VALUE_READERS) > 60
    assert [name for name in VALUE_READERS if name not in BUILDERS] == []
    assert sorted(BUILDERS) == VALUE_READERS, "a builder for an op version no declaration reads values of"


# --- drawing and running the cases ----------------------------------------------------------


def _build(seed: int, op: str, mode: str) -> ov.Node:
    rng = random.Random(seed)
    return BUILDERS[op](rng, Feeder(rng, mode))


def draw(op: str, seed: int = SEED, per_mode: int = PER_MODE) -> list[OpCase]:
    """``per_mode`` cases of each mode that OpenVINO's builder accepts (a refused draw is
    drawn again, at most 40 times a case)."""
    rng = random.Random(f"{seed}:{op}")
    prefix = "v" + "".join(c for c in op if c.isalnum()).lower()
    cases: list[OpCase] = []
    for mode in MODES:
        drawn = tries = 0
        while drawn < per_mode and tries < 40 * per_mode:
            tries += 1
            case_seed = rng.randrange(2**32)
            try:
                _build(case_seed, op, mode)
            except Exception:  # the builder's own validation refused the draw
                continue
            made = (lambda s, o, m: lambda: _build(s, o, m))(case_seed, op, mode)
            cases.append(OpCase(f"{prefix}_{len(cases):04d}", op, made, (mode,)))
            drawn += 1
    return cases


def differences(cases: Sequence[OpCase], xml: Path) -> tuple[list[str], int]:
    """Save the cases as one model; every layer whose shape or element type irshape infers
    otherwise than ``read_model``, or an error irshape reports on a layer OpenVINO reads."""
    save_batch(cases, xml)
    expected = read_back(xml)
    ids = {case.cid for case in cases}
    bounded = sum(".." in str(expected[cid]) for cid in ids)
    return _compare(expected, irshape.check_file(xml)), bounded


def _compare(expected: dict[str, list[tuple[str, str]]], report: Any) -> list[str]:
    out = [f"{d.layer_name}: {d.code} {d.message}" for d in report.errors]
    for layer in report.layers:
        want = expected.get(layer.name)
        if want is None or layer.type in ("Parameter", "Const", "Result"):
            continue
        if not layer.checked:
            out.append(f"{layer.name} ({layer.type}): not inferred")
            continue
        ours = list(zip([str(s) for s in layer.outputs], list(layer.element_types), strict=False))
        if ours != want:
            out.append(f"{layer.name} ({layer.type}): irshape {ours}, OpenVINO {want}")
    return out


@pytest.mark.parametrize("op", VALUE_READERS)
def test_value_inputs_from_shape_subgraphs_read_as_openvino(op: str, tmp_path: Path) -> None:
    cases = draw(op)
    assert len(cases) >= len(MODES) * PER_MODE // 2, f"only {len(cases)} buildable cases"
    found, bounded = differences(cases, tmp_path / "cases.xml")
    STATS.setdefault("value inputs", {})[op] = (
        len(cases),
        len(cases) - len({f.split(" ")[0] for f in found}),
        bounded,
    )
    assert found == [], "\n".join(found[:30])


# --- pinned: what the fuzzing found -----------------------------------------------------------


def _sliced(kind: str, dim: ov.Dimension, start: int, stop: int, step: int, element_type: str) -> Build:
    def build(rng: random.Random, f: Feeder) -> ov.Node:
        data = ov1.parameter(ov.PartialShape([dim]), np.float32)
        begin, end, stride = (_const([v], element_type) for v in (start, stop, step))
        if kind == "StridedSlice":
            return ov1.strided_slice(data, begin, end, stride, [0], [0])
        return ov8.slice(data, begin, end, stride)

    return build


def test_i32_limits_of_slices_are_read_as_int64s(tmp_path: Path) -> None:
    """Slice's start/stop and StridedSlice's begin/end are read by ``get_input_bounds``, which
    reads an i32's maximum and minimum as int64's: ``-2:INT32_MAX`` of a dim of ``?`` is ``..2``
    (irshape gave ``..2147483647``), ``-2:INT32_MIN:-1`` is ``..9223372036854775806`` (irshape
    ``..2147483646``); an i64 stop of INT32_MAX is a plain number."""
    cases = []
    for kind in ("Slice", "StridedSlice"):
        for dim in (ov.Dimension(), ov.Dimension(3, -1), ov.Dimension(2, 40), ov.Dimension(5)):
            for start in (-5, -2, 0, 1, 2**31 - 1):
                for stop in (2**31 - 1, 2**31 - 2, 100, -(2**31)):
                    for step in (1, 2, -1):
                        for element_type in ("i32", "i64"):
                            build = _sliced(kind, dim, start, stop, step, element_type)
                            made = (lambda b: lambda: b(random.Random(0), Feeder(random.Random(0), "const")))(
                                build
                            )
                            cases.append(OpCase(f"lim{len(cases):04d}", kind, made))
    cases = [case for case in cases if _buildable(case)]
    assert len(cases) > 700
    found, _ = differences(cases, tmp_path / "limits.xml")
    assert found == [], "\n".join(found[:30])


def _buildable(case: OpCase) -> bool:
    try:
        case.build()
    except Exception:  # the builder's own validation
        return False
    return True


# --- the shapes the value comes from, changed in the file: read_model's verdict -----------------

MUTANTS = 10 * SCALE  # files an op version, each one case with a Parameter's dim changed


def _changed_dim(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.45:
        return str(rng.randint(0, 12))
    if kind < 0.75:
        lo = rng.randint(0, 8)
        return f"{lo}..{lo + rng.randint(1, 6)}"
    if kind < 0.85:
        return f"{rng.randint(0, 6)}.."
    return "?"


def _mutate(source: Path, target: Path, rng: random.Random) -> bool:
    """``source`` with one dim of one Parameter's shape changed (OpenVINO reads the shape
    attribute), every declared dim but the Consts' made -1 (OpenVINO ignores them; irshape
    would compare them). False where the model has no Parameter dim to change."""
    tree = etree.parse(str(source))
    parameters = [p for p in tree.xpath("//layer[@type='Parameter']") if p.find("data").get("shape")]
    if not parameters:
        return False
    data = rng.choice(parameters).find("data")
    dims = data.get("shape").split(",")
    dims[rng.randrange(len(dims))] = _changed_dim(rng)
    data.set("shape", ",".join(dims))
    for dim in tree.xpath("//layer[@type!='Const']/*/port/dim"):
        dim.text = "-1"
    tree.write(str(target))
    target.with_suffix(".bin").write_bytes(source.with_suffix(".bin").read_bytes())
    return True


_DECLARED = frozenset({"IRS301", "IRS302"})  # declared dims: OpenVINO ignores them


def verdict_differences(xml: Path) -> tuple[list[str], bool]:
    """Where read_model rejects the file, irshape must report an error (not merely about the
    declared dims the change left stale); where it reads it, the model it read is saved again
    (declared dims as OpenVINO infers them) and every layer compared as :func:`differences`
    compares them."""
    try:
        model = ov.Core().read_model(str(xml))
    except Exception as exc:  # read_model's rejection: RuntimeError and OpenVINO's own
        errors = [d for d in irshape.check_file(xml).errors if d.code not in _DECLARED]
        first = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        found = [] if errors else [f"{xml.name}: OpenVINO rejects it ({first}), irshape finds no error"]
        return found, True
    again = xml.with_name(f"{xml.stem}_read.xml")
    ov.save_model(model, str(again), compress_to_fp16=False)
    return [f"{xml.name}: {line}" for line in _compare(read_back(again), irshape.check_file(again))], False


@pytest.mark.parametrize("op", VALUE_READERS)
def test_changed_source_shapes_read_as_openvino(op: str, tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}:mutants:{op}")
    cases = [c for c in draw(op, per_mode=1) if c.tags != ("const",)]
    found: list[str] = []
    files = rejected = 0
    for index in range(MUTANTS):
        case = cases[index % len(cases)]
        source = tmp_path / f"case{index}.xml"
        save_batch([case], source)
        target = tmp_path / f"mutant{index}.xml"
        if _mutate(source, target, rng):
            differ, refused = verdict_differences(target)
            found += differ
            files, rejected = files + 1, rejected + refused
    STATS.setdefault("value inputs, changed source shapes (files, rejected)", {})[op] = (files, rejected)
    assert found == [], "\n".join(found[:30])


def _source(shape: Sequence[int]) -> ov.Node:
    node = ov1.parameter(ov.PartialShape(list(shape)), np.float32)
    node.set_friendly_name("source")
    return node


def _sparse_fill_from_shape() -> ov.Node:
    dense = ov1.subtract(ov3.shape_of(_source([7, 4])), _const([6, 0]))
    indices = _const([[0, 0]])
    return ov16.sparse_fill_empty_rows(ov1.parameter([1], np.float32), dense, indices, _const(0.0, "f32"))


def _segment_max_from_shape() -> ov.Node:
    count = ov1.squeeze(ov1.subtract(ov3.shape_of(_source([5]), "i32"), _const([3], "i32")), _const([0]))
    return ov16.segment_max(ov1.parameter([3, 2], np.float32), _const([0, 1, 1], "i32"), count, "ZERO")


def _one_hot_from_shape() -> ov.Node:
    depth = ov1.squeeze(ov1.subtract(ov3.shape_of(_source([5])), _const([3])), _const([0]))
    return ov1.one_hot(ov1.parameter([2], np.int64), depth, _const(1.0, "f32"), _const(0.0, "f32"), -1)


def _broadcast_to_a_concat_from_shape() -> ov.Node:
    size = ov1.subtract(
        ov8.gather(ov3.shape_of(_source([3, 3]), "i32"), _const([0], "i32"), _const(0, "i32")),
        _const([2], "i32"),
    )
    return as_broadcast_target(size)  # a Concat of [1] and the size: looked through when unknown


def _split_of_an_interval() -> ov.Node:
    return ov1.split(_source([6, 3]), _const(0), 3)


def _slice_scatter_of_a_computed_step() -> ov.Node:
    step = ov1.subtract(ov3.shape_of(_source([2])), _const([1]))
    data, updates = ov1.parameter([6], np.float32), ov1.parameter(ov.PartialShape([-1]), np.float32)
    return ov15.slice_scatter(data, updates, _const([0]), _const([6]), step, ov1.parameter([1], np.int64))


def _explicit_broadcast_of_unknown_target() -> ov.Node:
    target = ov1.parameter([3], np.int64)
    axes = ov1.parameter([1], np.int64)
    axes.set_friendly_name("source")
    return ov3.broadcast(ov1.parameter([4], np.float32), target, axes, "explicit")


# (builder, the source Parameter's shape written into the file, OpenVINO's message)
PINNED_REJECTIONS = [
    (_sparse_fill_from_shape, "3..9,4", "Value for partial shape evaluation can't be lower than zero."),
    (_segment_max_from_shape, "2", "Value for partial shape evaluation can't be lower than zero."),
    (_one_hot_from_shape, "0..4", "Value for partial shape evaluation can't be lower than zero."),
    (
        _broadcast_to_a_concat_from_shape,
        "0..3,3",
        "Value for partial shape evaluation can't be lower than zero.",
    ),
    (_explicit_broadcast_of_unknown_target, "3", "Broadcast axes_mapping shape [3] doesn't match rank"),
    (_slice_scatter_of_a_computed_step, "1", "SliceScatter step values must be non-zero."),
    (
        _split_of_an_interval,
        "0..2,3",
        "The interval maximum of the dimension for data input shape along 'axis'",
    ),
]


@pytest.mark.parametrize(
    ("build", "shape", "message"), PINNED_REJECTIONS, ids=lambda v: getattr(v, "__name__", "")
)
def test_rejected_values_read_from_shapes_are_errors(
    build: Callable[[], ov.Node], shape: str, message: str, tmp_path: Path
) -> None:
    """What the changed source shapes found: a dense_shape, num_segments, depth or a Broadcast's
    Concat target computed below zero (read as get_input_const_data_as_shape reads them), an
    explicit Broadcast's axes_mapping of the wrong length where the target is unknown, a Split
    of an interval whose maximum is below num_splits, SliceScatter's zero step with its axes
    unknown (unlike Slice's: a regression of this branch's Slice fix, found on seed 16);
    irshape found no error in each."""
    source = tmp_path / "valid.xml"
    save_batch([OpCase("pinned", "x", build)], source)
    tree = etree.parse(str(source))
    tree.xpath("//layer[@name='source']/data")[0].set("shape", shape)
    for dim in tree.xpath("//layer[@type!='Const']/*/port/dim"):
        dim.text = "-1"
    target = tmp_path / "rejected.xml"
    tree.write(str(target))
    target.with_suffix(".bin").write_bytes(source.with_suffix(".bin").read_bytes())
    with pytest.raises(Exception, match=re.escape(message)):
        ov.Core().read_model(str(target))
    errors = [d for d in irshape.check_file(target).errors if d.code not in _DECLARED]
    assert [d.layer_name for d in errors] == ["pinned"], [d.message for d in errors]


def _zero_step_slice(computed: bool, axes_kind: str) -> Callable[[], ov.Node]:
    def build() -> ov.Node:
        step = _const([0])
        if computed:  # a ShapeOf's 2 less 2
            step = ov1.subtract(
                ov8.gather(ov1.shape_of(_source([4, 1, 2])), _const([2]), _const(0)), _const([2])
            )
        if axes_kind == "param":
            axes = ov1.parameter([1], np.int64)
        else:  # bounded: a ShapeOf of 0..3 less 1
            axes = ov1.add(
                ov1.shape_of(ov1.parameter(ov.PartialShape([ov.Dimension(0, 3)]), np.float32)), _const([-1])
            )
        return ov8.slice(ov1.parameter([6, 3], np.float32), _const([0]), _const([6]), step, axes)

    return build


def test_a_zero_step_with_unknown_axes_is_no_error(tmp_path: Path) -> None:
    """Slice-8 checks its steps for a zero only where its axes are known: with axes unknown
    (a Parameter, or known by bounds only) a step of 0, a Const's or computed, is read_model's
    ``[..6,..3]`` of ``[6,3]`` (irshape rejected it: 'Step must be non-zero'; found by the
    changed source shapes on seed 9)."""
    cases = [
        OpCase(f"zero{i}", "Slice-8", _zero_step_slice(computed, axes_kind))
        for i, (computed, axes_kind) in enumerate(
            (computed, axes_kind) for computed in (False, True) for axes_kind in ("param", "bounded")
        )
    ]
    found, _ = differences(cases, tmp_path / "zero.xml")
    assert found == [], "\n".join(found)
