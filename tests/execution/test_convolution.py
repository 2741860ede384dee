"""BinaryConvolution-1 and DeformableConvolution-1/8 kernels against OpenVINO's CPU plugin:
strides, dilations, pads (explicit and auto), pad values, groups and deformable groups, masks,
offsets inside, across and outside the data, batched into one model."""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as opset1
import openvino.opset8 as opset8
import openvino.opset13 as opset13
import pytest

from irshape.execute.network import execute
from irshape.execute.packing import unpack
from irshape.ir.reader import read_file
from irshape.kernels.convolution import _plugin_bit_order

from .harness import Case, compare, parameter, run_batch


def _u1_constant(bits: np.ndarray) -> ov.Node:
    """A u1 Const of ``bits`` (0/1 in OpenVINO's element order), its bytes copied into a tensor
    of its own (a tensor made on a numpy array would share that array's memory)."""
    tensor = ov.Tensor(ov.Type.u1, ov.Shape(list(bits.shape)))
    tensor.data[:] = np.packbits(bits.reshape(-1))
    return opset13.constant(tensor)


# (data shape, kernel out channels and spatial, strides, pads_begin, pads_end, dilations, auto_pad)
_BINARY: list[tuple[tuple[int, ...], tuple[int, ...], list[int], list[int], list[int], list[int], str]] = [
    ((1, 8, 5, 5), (4, 3, 3), [1, 1], [0, 0], [0, 0], [1, 1], "explicit"),
    ((1, 8, 5, 5), (4, 3, 3), [1, 1], [1, 1], [1, 1], [1, 1], "explicit"),
    ((2, 16, 6, 7), (3, 3, 3), [2, 1], [1, 0], [0, 2], [1, 1], "explicit"),
    ((1, 32, 6, 6), (8, 1, 1), [1, 1], [0, 0], [0, 0], [1, 1], "explicit"),
    ((1, 32, 7, 7), (2, 3, 3), [1, 1], [2, 2], [2, 2], [2, 2], "explicit"),
    ((1, 8, 6, 6), (4, 2, 2), [2, 2], [0, 0], [0, 0], [1, 1], "same_upper"),
    ((1, 8, 7, 6), (4, 3, 2), [1, 2], [0, 0], [0, 0], [1, 1], "same_lower"),
    ((1, 8, 5, 5), (4, 3, 3), [1, 1], [1, 1], [1, 1], [1, 1], "valid"),
    ((1, 24, 4, 6), (3, 1, 3), [1, 1], [0, 1], [0, 1], [1, 1], "explicit"),
    ((1, 8, 1, 9), (4, 1, 3), [1, 1], [0, 1], [0, 1], [1, 1], "explicit"),
    ((1, 16, 9, 4), (2, 3, 2), [2, 1], [2, 0], [1, 1], [2, 1], "explicit"),
]


def binary_cases() -> list[Case]:
    rng = np.random.default_rng(12)
    cases = []
    for index, (shape, kernel, strides, pads_begin, pads_end, dilations, auto_pad) in enumerate(_BINARY):
        for pad_value in (0.0, 1.0, -1.0, 0.5):
            bits = rng.integers(0, 2, (kernel[0], shape[1], *kernel[1:])).astype(np.uint8)
            data = parameter(shape)
            node = opset1.binary_convolution(
                data, _u1_constant(bits), strides, pads_begin, pads_end, dilations, "xnor-popcount",
                pad_value, auto_pad,
            )  # fmt: skip
            if index % 2:
                values = rng.choice(np.array([-1.0, 0.0, 1.0, 0.5, -0.5, 2.0], np.float32), shape)
            else:
                values = rng.standard_normal(shape).astype(np.float32)
            cases.append(Case(f"binary{index}_{pad_value}", {data: values}, [node.output(0)]))
    return cases


# (data shape, filters shape, strides, pads_begin, pads_end, dilations, group, deformable_group)
_DEFORMABLE: list[
    tuple[tuple[int, ...], tuple[int, ...], list[int], list[int], list[int], list[int], int, int]
] = [
    ((1, 2, 5, 5), (3, 2, 3, 3), [1, 1], [0, 0], [0, 0], [1, 1], 1, 1),
    ((1, 2, 5, 5), (3, 2, 3, 3), [1, 1], [1, 1], [1, 1], [1, 1], 1, 1),
    ((2, 4, 6, 5), (4, 2, 2, 3), [2, 1], [1, 0], [0, 1], [1, 1], 2, 1),
    ((1, 4, 6, 6), (2, 4, 3, 3), [1, 1], [1, 1], [1, 1], [1, 1], 1, 2),
    ((1, 4, 7, 7), (4, 1, 3, 3), [1, 1], [2, 2], [2, 2], [2, 2], 4, 4),
    ((2, 6, 5, 6), (6, 3, 2, 2), [2, 2], [0, 1], [1, 0], [1, 2], 2, 3),
    ((1, 3, 4, 4), (2, 3, 1, 1), [1, 1], [0, 0], [0, 0], [1, 1], 1, 1),
    ((1, 2, 8, 3), (2, 2, 3, 1), [3, 1], [1, 0], [1, 0], [1, 1], 1, 2),
    ((1, 1, 4, 4), (1, 1, 2, 2), [1, 1], [0, 0], [0, 0], [1, 1], 1, 1),
    ((2, 8, 5, 5), (4, 4, 3, 3), [1, 1], [1, 1], [1, 1], [1, 1], 2, 4),
    ((1, 3, 9, 9), (6, 3, 3, 3), [2, 2], [1, 1], [1, 1], [1, 1], 1, 3),
    ((1, 4, 6, 8), (8, 2, 1, 3), [1, 2], [0, 1], [0, 1], [1, 1], 2, 2),
    ((1, 2, 5, 5), (2, 2, 3, 3), [1, 1], [0, 0], [0, 0], [2, 2], 1, 1),
    ((3, 2, 4, 4), (2, 1, 2, 2), [1, 1], [1, 1], [0, 0], [1, 1], 2, 2),
    ((1, 6, 4, 5), (3, 6, 2, 2), [1, 1], [0, 0], [1, 1], [1, 1], 1, 6),
    ((1, 2, 10, 4), (4, 2, 3, 2), [2, 1], [2, 0], [2, 1], [2, 1], 1, 1),
]


def _offsets(rng: np.random.Generator, shape: tuple[int, ...], variant: int) -> np.ndarray:
    """Offsets of one kind: small fractional, integral, or large enough to leave the data."""
    if variant % 3 == 0:
        return (rng.random(shape) * 2 - 1).astype(np.float32)
    if variant % 3 == 1:
        return rng.integers(-2, 3, shape).astype(np.float32)
    return (rng.standard_normal(shape) * 3).astype(np.float32)


def auto_pad_cases() -> list[Case]:
    """DeformableConvolution-8 with auto_pad: the pads shape inference resolves."""
    rng = np.random.default_rng(16)
    cases = []
    for index, auto_pad in enumerate(("same_upper", "same_lower", "valid", "same_upper")):
        strides = [2, 2] if index == 3 else [1, 1]
        shape, fshape = (1, 2, 6, 5), (2, 2, 3, 2)
        if auto_pad == "valid":
            out_h, out_w = 4, 4
        else:
            out_h, out_w = -(-6 // strides[0]), -(-5 // strides[1])
        data = parameter(shape)
        offsets = parameter((1, 2 * 6, out_h, out_w))
        filters = opset8.constant(rng.standard_normal(fshape).astype(np.float32))
        node = opset8.deformable_convolution(
            data, offsets, filters, strides, [0, 0], [0, 0], [1, 1], None, auto_pad
        )
        feeds = {
            data: rng.standard_normal(shape).astype(np.float32),
            offsets: _offsets(rng, (1, 12, out_h, out_w), index),
        }
        cases.append(Case(f"deformable_auto_pad{index}_{auto_pad}", feeds, [node.output(0)]))
    return cases


def deformable_cases() -> list[Case]:
    rng = np.random.default_rng(13)
    cases = []
    for index, (shape, fshape, strides, pads_begin, pads_end, dilations, group, dgroup) in enumerate(
        _DEFORMABLE
    ):
        n, _, height, width = shape
        out_h = (height + pads_begin[0] + pads_end[0] - dilations[0] * (fshape[2] - 1) - 1) // strides[0] + 1
        out_w = (width + pads_begin[1] + pads_end[1] - dilations[1] * (fshape[3] - 1) - 1) // strides[1] + 1
        taps = fshape[2] * fshape[3]
        for version, with_mask, bilinear_pad in [
            (1, False, False),
            (1, True, False),  # v1 has no mask: the second v1 layout has other offsets
            (8, False, False),
            (8, True, False),
            (8, True, True),
            (8, False, True),
        ]:
            data = parameter(shape)
            offsets = parameter((n, 2 * dgroup * taps, out_h, out_w))
            filters = opset8.constant((rng.standard_normal(fshape) * 0.5).astype(np.float32))
            feeds = {
                data: rng.standard_normal(shape).astype(np.float32),
                offsets: _offsets(rng, (n, 2 * dgroup * taps, out_h, out_w), index + version + with_mask),
            }
            if version == 1:
                with_mask = False
                node = opset1.deformable_convolution(
                    data,
                    offsets,
                    filters,
                    strides,
                    pads_begin,
                    pads_end,
                    dilations,
                    "explicit",
                    group,
                    dgroup,
                )
            else:
                mask = None
                if with_mask:
                    mask = parameter((n, dgroup * taps, out_h, out_w))
                    feeds[mask] = rng.random((n, dgroup * taps, out_h, out_w)).astype(np.float32)
                node = opset8.deformable_convolution(
                    data, offsets, filters, strides, pads_begin, pads_end, dilations, mask, "explicit",
                    group, dgroup, bilinear_pad,
                )  # fmt: skip
            name = f"deformable{index}_v{version}_{'mask' if with_mask else 'nomask'}_{int(bilinear_pad)}"
            if version == 1 and name in {c.name for c in cases}:
                name += "_other_offsets"
            cases.append(Case(name, feeds, [node.output(0)]))
    return cases


# The CPU plugin caches one deformable convolution executor per compiled model for layers of
# the same shapes and attributes, its key leaving out bilinear_interpolation_pad: a layer with
# the attribute set runs as the first such layer compiled, set or not (openvino 2026.4.1). So
# the layers with it set are compiled in a batch of their own.
# The CPU plugin computes garbage for a BinaryConvolution whose input channels are not a
# multiple of 8 (one set kernel bit against one set data bit gives several different values,
# openvino 2026.4.1): such layers are checked against a layer of 8 channels that computes the
# same sums plus those of its extra channels, whose taps are data -1 and kernel bit 0 (as the
# plugin reads it): +1 each inside the data, and at a padded tap +1 with pad_value -1 (the bit
# 0), -1 with pad_value 1.
_NARROW: list[tuple[int, float]] = [(3, 1.0), (3, -1.0), (5, 1.0), (5, -1.0)]


def _narrow_layers(
    channels: int, pad_value: float
) -> tuple[ov.Node, ov.Node, np.ndarray, np.ndarray, np.ndarray]:
    """The narrow layer, its 8-channel counterpart, their data, and what the counterpart adds."""
    rng = np.random.default_rng(channels * 10 + int(pad_value))
    bits = rng.integers(0, 2, (2, channels, 3, 3)).astype(np.uint8)
    as_read = _plugin_bit_order(bits)  # the bits the kernel (as the plugin) reads
    wide_as_read = np.zeros((2, 8, 3, 3), np.uint8)
    wide_as_read[:, :channels] = as_read
    wide_bits = _plugin_bit_order(wide_as_read)  # 144 bits: the reading is its own inverse
    values = rng.standard_normal((1, channels, 5, 5)).astype(np.float32)
    wide_values = np.full((1, 8, 5, 5), -1.0, np.float32)
    wide_values[:, :channels] = values
    layers = []
    for data_channels, kernel in ((channels, bits), (8, wide_bits)):
        data = parameter((1, data_channels, 5, 5))
        layers.append(
            opset1.binary_convolution(
                data, _u1_constant(kernel), [1, 1], [1, 1], [1, 1], [1, 1], "xnor-popcount", pad_value
            )
        )
    inside = np.array([2, 3, 3, 3, 2])  # taps inside the data per output row (and column)
    inside_taps = np.outer(inside, inside)
    padded_taps = 9 - inside_taps
    extra = (8 - channels) * (inside_taps + (padded_taps if pad_value == -1.0 else -padded_taps))
    return layers[0], layers[1], values, wide_values, extra


def narrow_cases() -> tuple[list[Case], list[Case], list[np.ndarray]]:
    narrow, wide, extra = [], [], []
    for channels, pad_value in _NARROW:
        small, large, values, wide_values, added = _narrow_layers(channels, pad_value)
        name = f"binary_narrow{channels}_{pad_value}"
        narrow.append(Case(name, {small.input_value(0).get_node(): values}, [small.output(0)]))
        wide.append(Case(name + "_wide", {large.input_value(0).get_node(): wide_values}, [large.output(0)]))
        extra.append(added)
    return narrow, wide, extra


def _zero_weight_case(name: str, groups: int, version: int, mask_value: float | None, pad: bool) -> Case:
    """A deformable convolution sampling next to an infinity and a NaN with bilinear weights of
    zero (integral offsets, taps outside the data, a tap in (-1, 0) with the pad)."""
    channels = 2
    data = parameter((1, channels, 3, 3))
    offsets = parameter((1, 2, 3, 3))
    filters = opset8.constant(np.array([1.0, -2.0], np.float32).reshape(groups, channels // groups, 1, 1))
    values = np.arange(18, dtype=np.float32).reshape(1, channels, 3, 3)
    values[0, :, 0, 0] = np.inf
    values[0, 1, 2, 2] = np.nan
    moves = np.zeros((1, 2, 3, 3), np.float32)
    moves[0, 0, 0, 0] = -0.5  # y in (-1, 0): inside with the pad, its upper neighbour at row 0
    moves[0, 1, 1, 1] = 5.0  # outside the data
    moves[0, 0, 2, 1] = 1.0  # an integral position: the neighbours past it weigh 0
    feeds = {data: values, offsets: moves}
    if version == 1:
        node = opset1.deformable_convolution(
            data, offsets, filters, [1, 1], [0, 0], [0, 0], [1, 1], "explicit", groups, 1
        )
    else:
        mask = None
        if mask_value is not None:
            mask = parameter((1, 1, 3, 3))
            feeds[mask] = np.full((1, 1, 3, 3), mask_value, np.float32)
        node = opset8.deformable_convolution(
            data, offsets, filters, [1, 1], [0, 0], [0, 0], [1, 1], mask, "explicit", groups, 1, pad
        )
    return Case(name, feeds, [node.output(0)])


def fuzz_found_cases() -> list[Case]:
    """Found by tests/execution/test_kernel_fuzz_layers.py. The plugin adds nothing for a
    neighbour whose bilinear weight times the mask is zero (not 0 times an infinite or NaN
    datum), and a tap outside the data weighs +0.0 whatever its mask; its JIT kernel (one group)
    tests a weight's bits, so a -0.0 weight (a negative mask) multiplies there (NaN next to an
    infinity), its reference kernel (two groups) compares it with 0 and skips it (-inf)."""
    return [
        _zero_weight_case("deformable_zero_weight_v1_g1", 1, 1, None, False),
        _zero_weight_case("deformable_zero_weight_v1_g2", 2, 1, None, False),
        _zero_weight_case("deformable_zero_weight_negative_mask_g1", 1, 8, -1.0, False),
        _zero_weight_case("deformable_zero_weight_negative_mask_g2", 2, 8, -1.5, False),
        # bilinear_interpolation_pad (the names end in _1: compiled in a batch of their own)
        _zero_weight_case("deformable_negative_zero_weight_g1_1", 1, 8, -1.0, True),
        _zero_weight_case("deformable_negative_zero_weight_g2_1", 2, 8, -1.0, True),
    ]


ALL_CASES = binary_cases() + deformable_cases() + auto_pad_cases() + fuzz_found_cases()
NARROW_CASES, WIDE_CASES, WIDE_EXTRA = narrow_cases()
CASES = [c for c in ALL_CASES if not c.name.endswith("_1")] + WIDE_CASES
PADDED_CASES = [c for c in ALL_CASES if c.name.endswith("_1")]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return run_batch(CASES, tmp_path_factory.mktemp("convolution"))


@pytest.fixture(scope="module")
def padded_batch(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return run_batch(PADDED_CASES, tmp_path_factory.mktemp("bilinear_pad"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_convolution(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


@pytest.mark.parametrize("index", range(len(NARROW_CASES)), ids=lambda i: NARROW_CASES[i].name)
def test_binary_narrow_channels(batch, tmp_path, index):
    narrow, wide = NARROW_CASES[index], WIDE_CASES[index]
    alone = run_batch_irshape_only(narrow, tmp_path)
    expected = (batch.expected[batch.names[wide.name][0]] - WIDE_EXTRA[index]).astype(np.float32)
    assert compare(expected, alone, exact=True) is None, compare(expected, alone, exact=True)


def run_batch_irshape_only(case: Case, directory: Any) -> np.ndarray:
    """irshape's output of one case (its layer the CPU plugin cannot compute)."""
    params = list(case.inputs)
    for i, param in enumerate(params):
        param.set_friendly_name(f"in{i}")
    xml = directory / f"{case.name}.xml"
    ov.save_model(ov.Model([opset13.result(case.outputs[0])], params, case.name), xml, compress_to_fp16=False)
    document = read_file(xml).document
    assert document is not None
    inputs = {f"in{i}": np.asarray(v) for i, v in enumerate(case.inputs.values())}
    return next(iter(execute(document, inputs).results.values()))


@pytest.mark.parametrize("case", PADDED_CASES, ids=lambda c: c.name)
def test_bilinear_interpolation_pad(padded_batch, case):
    assert padded_batch.mismatch(case) is None, padded_batch.mismatch(case)


def test_every_layer_ran(batch, padded_batch):
    for each in (batch, padded_batch):
        assert each.execution is not None and each.execution.ran == each.execution.total


def test_plugin_bit_order_reverses_each_byte():
    # element k of the plugin's reading is OpenVINO's element 8 * (k // 8) + 7 - k % 8, which
    # past the last element is a padding bit (0)
    bits = np.arange(11).reshape(1, 11)
    assert _plugin_bit_order(bits).tolist() == [[7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0]]


def test_u1_unpacked_most_significant_bit_first():
    # as OpenVINO packs a u1 Constant: 0b11100000 0b01000000 -> 1 1 1 0 0 0 0 0 0 1
    values = unpack(bytes([0b11100000, 0b01000000]), "u1", (2, 5))
    assert values.tolist() == [[1, 1, 1, 0, 0], [0, 0, 0, 0, 1]]
    assert values.dtype == np.uint8
