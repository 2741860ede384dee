"""The kernel fuzzer's drawers for the layers of the convolution, recurrent, matmul, resize and
rearrange families that ``test_kernel_fuzz.py`` does not draw: BinaryConvolution-1,
DeformableConvolution-1/8, RNN/GRU/LSTMSequence-5, LSTMCell-1, GroupedMatMul-17, Inverse-14,
GridSample-9, Interpolate-1, Col2Im-15, ExtractImagePatches-3. The machinery, the budget and
its environment variables: ``fuzzing.py``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import pytest

from .fuzzing import (
    BF16,
    F16,
    F32,
    F64,
    INTEGERS,
    REALS,
    Draw,
    Drawers,
    Node,
    Redraw,
    make,
    op_of,
    opset,
    run_family,
)
from .test_kernel_fuzz import _window

drawers = Drawers()
drawer = drawers.add


def _window_of(d: Draw, spatial: int) -> tuple[list[int], dict[str, Any]]:
    """A kernel of ``spatial`` axes and its strides, dilations, pads and auto_pad kind (as the
    convolutions of test_kernel_fuzz.py draw them)."""
    window = _window(d, spatial)
    return window["kernel"], {
        k: window[k] for k in ("strides", "dilations", "pads_begin", "pads_end", "auto_pad")
    }


def _output_shape(version: int, op: str, inputs: Sequence[Node], attributes: dict[str, Any]) -> list[int]:
    """The output shape OpenVINO infers for ``op`` (its shape inference resolves auto_pad)."""
    shape = make(version, op, inputs, attributes).get_output_partial_shape(0)
    if not shape.is_static:
        raise Redraw("an output shape that needs the inputs' values")
    return [int(dim) for dim in shape.to_shape()]


def _fed(d: Draw) -> Node:
    """The Parameter ``d.data`` made last (the one fed with its values)."""
    return list(d.inputs)[-1]


def _placeholder(shape: Sequence[int]) -> Node:
    """A Parameter of ``shape``, not fed: only read by shape inference."""
    return opset.parameter(list(shape), ov.Type.f32)


# --- convolution ---------------------------------------------------------------------------


def _u1_kernel(d: Draw, shape: Sequence[int]) -> Node:
    """A u1 Const of random bits (its own bytes: a tensor made on a numpy array shares them)."""
    tensor = ov.Tensor(ov.Type.u1, ov.Shape(list(shape)))
    tensor.data[:] = np.packbits(d.rng.integers(0, 2, int(np.prod(shape))).astype(np.uint8))
    return opset.constant(tensor)


@drawer("convolution", "BinaryConvolution-1")
def _binary_convolution(d: Draw) -> Sequence[Node]:
    kernel, window = _window_of(d, 2)
    # input channels a multiple of 8: the plugin computes garbage for others (one set kernel bit
    # against one set data bit gives several values: docs/execution.md, tests/execution/
    # test_convolution.py's narrow cases check irshape's answer another way)
    channels = 8 * d.int(1, 3)
    shape = [d.int(1, 2), channels, d.int(1, 6), d.int(1, 6)]
    x = d.data(shape, d.pick([F32, F32, F16, BF16]), d.pick(["edges", "halves", "unit"]))
    weights = _u1_kernel(d, [d.int(1, 4), channels, *kernel])
    attributes = {**window, "mode": "xnor-popcount", "pad_value": float(d.pick([0.0, 1.0, -1.0, 0.5, -2.5]))}
    if attributes["pad_value"] == 0 and _row_in_padding_unguarded(shape[2], kernel[0], attributes):
        # with pad_value 0 the plugin's JIT loop over kernel rows runs once for an output row
        # whose taps all fall in the padding when (kh - 1) * dilation >= the larger pad
        # (bin_conv.cpp, kh_loop: the kh_padding == 0 guard left out), reading memory past
        # the data: 8 channels of +1 against a kernel of ones, H = 1, pads 2/2, dilation 3
        # give -12 where the same of -1 give -16 (and 0 is the op's answer)
        raise Redraw("a BinaryConvolution the plugin reads past its data for")
    if (
        attributes["pad_value"] == 0
        and window["strides"][1] == 3
        and (kernel[1] - 1) * window["dilations"][1] >= 3
    ):
        # with pad_value 0 the plugin's JIT miscounts the taps of a row at stride 3 over an
        # extent of 4 or more, padding or not: 16 channels of +1 against a 1x3 kernel of ones,
        # dilation 2, stride 3, no pads give 16 (48 with pad_value 1, the op's answer both
        # ways); of 1,924 configurations swept, the 151 off all had stride 3 and (kw - 1) *
        # dilation >= 3 (its width blocking depends on the instruction set: not modelled)
        raise Redraw("a BinaryConvolution the plugin miscounts")
    return [make(1, "BinaryConvolution", [x, weights], attributes)]


def _row_in_padding_unguarded(height: int, kernel: int, attributes: dict[str, Any]) -> bool:
    """Whether an output row of BinaryConvolution has no tap inside the data while its kernel
    spans the larger pad (see above)."""
    stride, dilation = attributes["strides"][0], attributes["dilations"][0]
    extent = (kernel - 1) * dilation + 1
    if attributes["auto_pad"] == "explicit":
        begin, end = attributes["pads_begin"][0], attributes["pads_end"][0]
        rows = (height + begin + end - extent) // stride + 1
    elif attributes["auto_pad"] == "valid":
        begin = end = 0
        rows = (height - extent) // stride + 1
    else:
        rows = -(-height // stride)
        total = max((rows - 1) * stride + extent - height, 0)
        begin = total // 2 if attributes["auto_pad"] == "same_upper" else total - total // 2
        end = total - begin
    if (kernel - 1) * dilation < max(begin, end):
        return False
    return any(
        all(not 0 <= row * stride - begin + k * dilation < height for k in range(kernel))
        for row in range(rows)
    )


def _deformable_attributes(d: Draw, version: int) -> tuple[list[int], dict[str, Any]]:
    """The kernel and the attributes of a DeformableConvolution."""
    kernel, window = _window_of(d, 2)
    attributes = {**window, "group": d.int(1, 3), "deformable_group": d.int(1, 3)}
    if version == 8:
        attributes["bilinear_interpolation_pad"] = d.chance(0.5)
    return kernel, attributes


# The plugin keeps one deformable convolution executor per compiled model for layers of the same
# shapes and attributes, its key leaving out bilinear_interpolation_pad (tests/execution/
# test_convolution.py): a second layer differing only there runs as the first. The drawer never
# draws such a pair (the keys drawn so far, with the pad each had).
_DEFORMABLE_KEYS: dict[str, bool] = {}


@drawer("convolution", "DeformableConvolution-1", "DeformableConvolution-8")
def _deformable_convolution(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    kernel, attributes = _deformable_attributes(d, version)
    group, deformable_group = attributes["group"], attributes["deformable_group"]
    # (channels the deformable groups divide: on others the plugin reads past its data and
    # crashes, a segmentation fault: C = 9 with deformable_group 2, seed 1)
    channels = group * deformable_group * d.int(1, 2)
    shape = [d.int(1, 2), channels, d.int(1, 6), d.int(1, 6)]
    filters_shape = [group * d.int(1, 2), channels // group, *kernel]
    taps = kernel[0] * kernel[1]
    offsets_channels = 2 * deformable_group * taps
    out = _output_shape(
        version,
        op,
        [
            _placeholder(shape),
            _placeholder([shape[0], offsets_channels, -1, -1]),
            _placeholder(filters_shape),
        ],
        attributes,
    )
    if 0 in out:
        raise Redraw("an empty output")
    element_type = d.pick([F32, F32, F16, BF16])
    x = d.data(shape, element_type, d.pick(["unit", "edges"]))
    # (finite values capped at 1e4: where sums overflow, whether they reach inf, or inf and
    # -inf and so NaN, depends on the order of the additions, which irshape's products do not
    # follow: the plugin's sum runs channel by channel and tap by tap, its JIT kernel's tap by
    # tap in blocks of channels)
    fed = _fed(d)
    values = d.inputs[fed]
    d.inputs[fed] = np.where(
        np.isfinite(values) & (np.abs(values) > 1e4), np.sign(values) * 1e4, values
    ).astype(values.dtype)
    offsets_shape = [shape[0], offsets_channels, *out[2:]]
    # offsets inside the data, integral ones (taps exactly on the grid) and ones leaving it
    # (scaled in the data, not by a Multiply: the plugin computes an f16 graph in f32 and
    # rounds only its outputs, irshape each op's)
    offsets = d.data(offsets_shape, element_type, d.pick(["unit", "halves"]))
    # (no NaN offset: the plugin's sampling index of a NaN position reads outside the data, a
    # segmentation fault; infinite offsets sample outside, as large ones do)
    fed = _fed(d)
    values = d.inputs[fed]
    with np.errstate(over="ignore"):
        d.inputs[fed] = (np.where(np.isnan(values), 0, values) * d.pick([0.5, 1.0, 3.0])).astype(values.dtype)
    filters = (
        d.const(d.values(filters_shape, element_type, "unit"), element_type)
        if d.chance(0.8)
        else d.data(filters_shape, element_type, "unit")
    )
    inputs = [x, offsets, filters]
    if version == 8 and d.chance(0.6):
        inputs.append(d.data([shape[0], deformable_group * taps, *out[2:]], element_type, "unit"))
    # the plugin's key: the inputs' and output's shapes, strides, dilations and the resolved
    # pads_begin (not the element type, the version, pads_end or auto_pad as such)
    key = repr((shape, filters_shape, offsets_shape, len(inputs), out, attributes["strides"],
                attributes["dilations"], _pads_begin(shape[2:], out[2:], kernel, attributes)))  # fmt: skip
    pad = bool(attributes.get("bilinear_interpolation_pad", False))
    if _DEFORMABLE_KEYS.setdefault(key, pad) != pad:
        raise Redraw("a layer the plugin's executor cache would confuse with an earlier one")
    return [make(version, op, inputs, attributes)]


def _pads_begin(
    spatial: Sequence[int], out: Sequence[int], kernel: Sequence[int], attributes: dict[str, Any]
) -> list[int]:
    """The pads_begin OpenVINO resolves for auto_pad."""
    if attributes["auto_pad"] == "explicit":
        return list(attributes["pads_begin"])
    if attributes["auto_pad"] == "valid":
        return [0] * len(spatial)
    pads = []
    for size, length, k, stride, dilation in zip(
        spatial, out, kernel, attributes["strides"], attributes["dilations"], strict=True
    ):
        total = max((length - 1) * stride + (k - 1) * dilation + 1 - size, 0)
        pads.append(total // 2 if attributes["auto_pad"] == "same_upper" else total - total // 2)
    return pads


# --- recurrent -----------------------------------------------------------------------------

_GATES = {"RNNSequence": 1, "GRUSequence": 3, "LSTMSequence": 4}
_DEFAULT_ACTIVATIONS = {
    "RNNSequence": ["tanh"],
    "GRUSequence": ["sigmoid", "tanh"],
    "LSTMSequence": ["sigmoid", "tanh", "tanh"],
}


def _weights(d: Draw, shape: Sequence[int], element_type: str, constant: bool) -> Node:
    if constant:
        return d.const(d.values(shape, element_type, "unit"), element_type)
    return d.data(shape, element_type, "unit")


@drawer("recurrent", "RNNSequence-5", "GRUSequence-5", "LSTMSequence-5")
def _sequence(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    # (no bf16: the plugin's bf16 sequence is a bf16 ulp off, not modelled: irshape/kernels/
    # recurrent.py's docstring)
    element_type = d.pick([F32, F32, F16])
    direction = d.pick(["forward", "reverse", "bidirectional"])
    directions = 2 if direction == "bidirectional" else 1
    batch, steps, input_size, hidden = d.int(1, 3), d.int(1, 5), d.int(1, 4), d.int(1, 4)
    gates = _GATES[op]
    x = d.data([batch, steps, input_size], element_type, "unit")
    if d.chance(0.3):
        # X of dynamic steps (and batch) in the model, as ONNX exports write it: the plugin's
        # oneDNN node then runs every step whatever the lengths say, where it takes the
        # sequence (docs/execution.md, sequence lengths)
        fed = _fed(d)
        del d.inputs[fed]
        x = opset.parameter([d.pick([batch, -1]), -1, input_size], fed.get_output_element_type(0))
        d.inputs[x] = d.values([batch, steps, input_size], element_type, "unit")
    inputs = [x, d.data([batch, directions, hidden], element_type, "unit")]
    if op == "LSTMSequence":
        inputs.append(d.data([batch, directions, hidden], element_type, "unit"))
    # lengths of every step, and lengths below the time dim (the plugin masks those steps on
    # a static X: docs/execution.md, sequence lengths)
    lengths = np.array([d.pick([steps, steps, d.int(0, steps)]) for _ in range(batch)])
    length_type = d.pick(["i32", "i64"])
    inputs.append(d.const(lengths, length_type) if d.chance(0.7) else d.data([batch], length_type, "small"))
    if inputs[-1].get_type_name() == "Parameter":
        d.inputs[inputs[-1]] = lengths.astype(d.inputs[inputs[-1]].dtype)
    constant = d.chance(0.8)
    linear_before_reset = op == "GRUSequence" and d.chance(0.5)
    bias_gates = gates + 1 if linear_before_reset else gates
    inputs += [
        _weights(d, [directions, gates * hidden, input_size], element_type, constant),
        _weights(d, [directions, gates * hidden, hidden], element_type, constant),
        _weights(d, [directions, bias_gates * hidden], element_type, constant),
    ]
    activations = list(_DEFAULT_ACTIVATIONS[op])
    if d.chance(0.3):
        activations = [d.pick(["sigmoid", "tanh", "relu"]) for _ in activations]
    attributes: dict[str, Any] = {
        "hidden_size": hidden,
        "direction": direction,
        "activations": activations,
        "activations_alpha": [float(d.pick([0.0, 0.5, 2.0])) for _ in range(d.int(0, 2))],
        "activations_beta": [float(d.pick([0.0, 0.5, -1.0])) for _ in range(d.int(0, 2))],
        "clip": float(d.pick([0.0, 0.0, 0.0, 0.5, 1.5])),
    }
    if op == "GRUSequence":
        attributes["linear_before_reset"] = linear_before_reset
    return [make(version, op, inputs, attributes)]


@drawer("recurrent", "LSTMCell-1")
def _lstm_cell_v0(d: Draw) -> Sequence[Node]:
    element_type = d.pick([F32, F32, F16])
    batch, input_size, hidden = d.int(1, 3), d.int(1, 5), d.int(1, 4)
    inputs = [
        d.data([batch, input_size], element_type, "unit"),
        d.data([batch, hidden], element_type, "unit"),
        d.data([batch, hidden], element_type, "unit"),
    ]
    constant = d.chance(0.8)
    inputs += [
        _weights(d, [4 * hidden, input_size], element_type, constant),
        _weights(d, [4 * hidden, hidden], element_type, constant),
    ]
    if d.chance(0.8):  # B (P needs it before it)
        inputs.append(_weights(d, [4 * hidden], element_type, constant))
        if d.chance(0.6):  # peepholes
            inputs.append(_weights(d, [3 * hidden], element_type, constant))
    activations = ["sigmoid", "tanh", "tanh"]
    if d.chance(0.3):
        activations = [d.pick(["sigmoid", "tanh", "relu"]) for _ in activations]
    attributes: dict[str, Any] = {
        "hidden_size": hidden,
        "activations": activations,
        "activations_alpha": [],
        "activations_beta": [],
        "clip": float(d.pick([0.0, 0.0, 0.5, 1.5])),
        "input_forget": d.chance(0.3),
        "weights_format": d.pick(["fico", "icof", "ifco", "ifoc", "iofc"]),
    }
    return [make(1, "LSTMCell", inputs, attributes)]


# --- matmul --------------------------------------------------------------------------------


@drawer("matmul", "Inverse-14")
def _inverse(d: Draw) -> Sequence[Node]:
    n = d.int(1, 4)
    batch = d.shape(d.int(0, 2), high=3, zero=0.05)
    element_type = d.pick([F32, F32, F16, BF16, F64])
    shape = [*batch, n, n]
    kind = d.pick(["unit", "unit", "singular", "edges", "integral"])
    values = d.values(shape, element_type, "edges" if kind == "edges" else "unit")
    if kind == "integral":  # exact pivots and ties between pivot candidates
        values = np.round(values * 2).astype(values.dtype)
    if kind == "singular" and n > 1:  # a row repeated, or a zero column
        if d.chance(0.5):
            values[..., -1, :] = values[..., 0, :]
        else:
            values[..., :, d.int(0, n - 1)] = 0
    fed = F32 if element_type == BF16 else element_type
    x = opset.parameter(shape, ov.Type.f32 if fed == F32 else getattr(ov.Type, fed))
    d.inputs[x] = values.astype(np.float32 if fed == F32 else values.dtype)
    data = opset.convert(x, BF16) if element_type == BF16 else x
    return [make(14, "Inverse", [data], {"adjoint": d.chance(0.5)})]


@drawer("matmul", "GroupedMatMul-17")
def _grouped_matmul(d: Draw) -> Sequence[Node]:
    # the plugin has no node for it (docs/execution.md): every configuration is refused, and
    # counted; irshape's answers are checked by hand-worked values in test_grouped_matmul.py
    element_type = d.pick([F32, F16, "i32"])
    groups, k, n = d.int(1, 3), d.int(1, 4), d.int(1, 4)
    b = d.data([groups, n, k], element_type, "unit" if element_type != "i32" else "small")
    if d.chance(0.5):
        a = d.data([groups, d.int(1, 3), k], element_type, "unit" if element_type != "i32" else "small")
        return [make(17, "GroupedMatMul", [a, b])]
    rows = d.int(0, 6)
    ends = np.sort(d.rng.integers(0, rows, groups, endpoint=True))
    a = d.data([rows, k], element_type, "unit" if element_type != "i32" else "small")
    return [make(17, "GroupedMatMul", [a, b, d.const(ends, d.pick(["i32", "i64"]))])]


# --- resize --------------------------------------------------------------------------------


@drawer("resize", "GridSample-9")
def _grid_sample(d: Draw) -> Sequence[Node]:
    shape = [d.int(1, 2), d.int(1, 3), d.int(1, 5), d.int(1, 5)]
    element_type = d.pick([F32, F32, F16, BF16, "i32", "i8", "u8", "i64"])
    x = d.data(
        shape,
        element_type,
        d.pick(["unit", "edges"]) if element_type in REALS else d.pick(["small", "edges"]),
    )
    grid_type = d.pick([F32, F32, F16])
    # points inside [-1, 1], beyond it (padding_mode's business), exactly on the corners
    grid_shape = [shape[0], d.int(1, 4), d.int(1, 4), 2]
    spread = d.pick([0.8, 1.0, 1.6, 3.0])
    values = (d.rng.random(grid_shape) * 2 - 1) * spread
    if d.chance(0.3):
        values = np.round(values * 4) / 4
    grid = d.data(grid_shape, grid_type, "unit")
    d.inputs[grid] = values.astype(d.inputs[grid].dtype)
    attributes = {
        "align_corners": d.chance(0.5),
        "mode": d.pick(["bilinear", "bicubic", "nearest"]),
        "padding_mode": d.pick(["zeros", "border", "reflection"]),
    }
    return [make(9, "GridSample", [x, grid], attributes)]


@drawer("resize", "Interpolate-1")
def _interpolate_1(d: Draw) -> Sequence[Node]:
    rank = d.int(3, 5)
    shape = [d.int(1, 2), d.int(1, 3)] + [d.int(1, 5) for _ in range(rank - 2)]
    mode = d.pick(["nearest", "linear", "cubic", "area"])
    axes = sorted({d.int(1 if mode == "cubic" else 0, rank - 1) for _ in range(d.int(1, 3))})
    if d.chance(0.5):
        axes = list(range(2, rank))
    if mode == "cubic" and rank == 4 and {1, 2, 3} <= set(axes):
        # the plugin leaves most of such an output unwritten (test_kernel_fuzz.py's Interpolate)
        axes = [2, 3]
    sizes = [d.int(1, 7) for _ in axes]
    element_type = d.pick([F32, F32, F16] + (["u8", "i8"] if mode in ("nearest", "linear") else []))
    x = d.data(shape, element_type, "unit" if element_type in REALS else "small")
    attributes = {
        "axes": axes,
        "mode": mode,
        "align_corners": d.chance(0.3),
        "antialias": d.chance(0.2),
        # (no pads: the plugin's output then has another shape than the model's, padded on
        # other axes: pads_begin [0, 1, 1, 0] of [2, 3, 2, 5] resized on axes 1, 2 to 7, 7 is
        # [2, 7, 7, 5] to OpenVINO, [2, 7, 7, 6] out of the plugin; 5 draws on seeds 1-8)
        "pads_begin": [0] * rank,
        "pads_end": [0] * rank,
    }
    return [make(1, "Interpolate", [x, d.const(np.array(sizes), "i64")], attributes)]


# --- rearrange -----------------------------------------------------------------------------


@drawer("rearrange", "Col2Im-15")
def _col2im(d: Draw) -> Sequence[Node]:
    d.exact = True
    channels = d.int(1, 3)
    kernel = [d.int(1, 3), d.int(1, 3)]
    output_size = [d.int(1, 6), d.int(1, 6)]
    attributes = {
        "strides": [d.int(1, 3), d.int(1, 3)],
        "dilations": [d.int(1, 2), d.int(1, 2)],
        "pads_begin": [d.int(0, 2), d.int(0, 2)],
        "pads_end": [d.int(0, 2), d.int(0, 2)],
    }
    blocks = 1
    for axis in range(2):
        extent = (kernel[axis] - 1) * attributes["dilations"][axis] + 1
        padded = output_size[axis] + attributes["pads_begin"][axis] + attributes["pads_end"][axis]
        count = (padded - extent) // attributes["strides"][axis] + 1
        if count < 1:
            raise Redraw("no block fits")
        blocks *= count
    element_type = d.pick([F32, F32, F16, BF16, "i32", "i8", "u8", "i64"])
    d.exact = element_type not in REALS
    shape = [channels * kernel[0] * kernel[1], blocks]
    if d.chance(0.6):
        shape = [d.int(1, 2), *shape]
    x = d.data(shape, element_type, "unit" if element_type in REALS else "small")
    size_type = d.pick(["i32", "i64"])
    return [
        make(
            15,
            "Col2Im",
            [x, d.const(np.array(output_size), size_type), d.const(np.array(kernel), size_type)],
            attributes,
        )
    ]


@drawer("rearrange", "ExtractImagePatches-3")
def _extract_image_patches(d: Draw) -> Sequence[Node]:
    d.exact = True
    shape = [d.int(1, 2), d.int(1, 3), d.int(1, 6), d.int(1, 6)]
    element_type = d.pick([F32, F16, BF16, F64, *INTEGERS])
    x = d.data(shape, element_type, "edges")
    attributes = {
        "sizes": [d.int(1, 3), d.int(1, 3)],
        "strides": [d.int(1, 3), d.int(1, 3)],
        "rates": [d.int(1, 2), d.int(1, 2)],
        "auto_pad": d.pick(["valid", "same_upper", "same_lower"]),
    }
    return [make(3, "ExtractImagePatches", [x], attributes)]


@pytest.mark.parametrize("family", drawers.families())
def test_kernel_fuzz_layers(family: str, tmp_path: Path) -> None:
    run_family(drawers, family, tmp_path)
