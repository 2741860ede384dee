"""Const unpacking (irshape/execute/packing.py) against OpenVINO: Consts of every packed element
type made from random bytes, converted to f32 and added to a Parameter (so the CPU plugin
computes the sum; the Convert of the Const is folded by OpenVINO's reference, as a weight's
decompression is), and the weight-compression chain of LLMs (a u4/i4/u8/i8/nf4 weight and zero
point, Convert, Subtract, Multiply by an f16 or f32 scale) in front of an Add and a Multiply of a
Parameter. String Consts are read back through irshape's Const reader."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import openvino as ov
import openvino.opset13 as opset
import pytest

from irshape.execute.packing import PackingError, unpack
from irshape.execute.tensors import ConstReader
from irshape.ir.reader import read_file

from .harness import Case, parameter, run_batch

# OpenVINO type -> bits an element
PACKED = {
    "u1": 1,
    "u2": 2,
    "u3": 3,
    "u4": 4,
    "u6": 6,
    "i4": 4,
    "nf4": 4,
    "f4e2m1": 4,
    "f8e4m3": 8,
    "f8e5m2": 8,
    "f8e8m0": 8,
    "bf16": 16,
    "u8": 8,
    "i8": 8,
    "f16": 16,
}


def _const(element_type: str, shape: tuple[int, ...], rng: np.random.Generator) -> ov.Node:
    """A Const of ``element_type`` whose bytes are random (every code, NaN ones included)."""
    tensor = ov.Tensor(getattr(ov.Type, element_type), ov.Shape(list(shape)))
    raw = tensor.data.view(np.uint8)
    raw[...] = rng.integers(0, 256, raw.shape, dtype=np.uint8)
    if element_type == "f16":  # no NaN or inf weights: they would not survive the chain
        raw.view(np.float16)[~np.isfinite(raw.view(np.float16))] = 1
    # No values below f32's normal range: the CPU plugin flushes them to zero in the Add
    # (denormals-are-zero), which is the plugin's arithmetic, not the Const's value
    # (test_layouts_by_hand reads them exactly)
    if element_type == "bf16":
        bits = raw.view(np.uint16)
        bits[(bits & 0x7F80) == 0] = 0x3F80
    if element_type == "f8e8m0":
        raw[raw == 0] = 127
    return opset.constant(tensor)


def const_cases() -> Iterator[Case]:
    rng = np.random.default_rng(21)
    shapes = [(16,), (3, 5), (2, 3, 7), (1,), (9,), (4, 4, 4)]
    for element_type, shape in itertools.product(PACKED, shapes):
        x = parameter(shape)
        weight = opset.convert(_const(element_type, shape, rng), "f32")
        yield Case(
            f"const_{element_type}_{len(shape)}_{shape[-1]}",
            {x: np.zeros(shape, np.float32)},
            [opset.add(x, weight).output(0)],
            exact=True,
        )


def compression_cases() -> Iterator[Case]:
    """weight (u4/i4/u8/i8/nf4...) -> Convert -> Subtract zero point -> Multiply scale, per
    output channel or per group, then combined with a Parameter."""
    rng = np.random.default_rng(22)
    for element_type, scale_type, grouped in itertools.product(
        ("u4", "i4", "u8", "i8", "nf4", "f8e4m3", "f8e5m2", "u2", "u1"), ("f16", "f32"), (False, True)
    ):
        shape = (8, 4, 16) if grouped else (8, 32)
        channel = (8, 4, 1) if grouped else (8, 1)
        weight = opset.convert(_const(element_type, shape, rng), "f32")
        if element_type != "nf4" and not element_type.startswith("f8"):
            zero_point = opset.convert(_const(element_type, channel, rng), "f32")
            weight = opset.subtract(weight, zero_point)
        scale_data = (rng.random(channel) * 0.1 + 0.01).astype(
            np.float16 if scale_type == "f16" else np.float32
        )
        scale = opset.constant(scale_data)
        if scale_type == "f16":
            scale = opset.convert(scale, "f32")
        decompressed = opset.multiply(weight, scale)
        x = parameter(shape)
        data = rng.standard_normal(shape).astype(np.float32)
        outputs = [opset.add(x, decompressed).output(0), opset.multiply(x, decompressed).output(0)]
        yield Case(
            f"compressed_{element_type}_{scale_type}_{'group' if grouped else 'channel'}", {x: data}, outputs
        )


CASES = [*const_cases(), *compression_cases()]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("packing"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_unpacked_like_openvino(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_strings_read_back(tmp_path):
    values = [["ab", "", "héllo"], ["x" * 40, "日本語", " "]]
    const = opset.constant(ov.Tensor(np.array(values)))
    model = ov.Model([opset.result(const)], [])
    xml = tmp_path / "strings.xml"
    ov.save_model(model, xml)
    document = read_file(xml).document
    assert document is not None
    layer = next(layer for layer in document.layers if (layer.type or "").lower() == "const")
    value = ConstReader(document).read(layer)
    assert value is not None and value.dtype == object
    assert value.tolist() == values


def test_bad_strings_refused():
    header = np.array([2, 0, 3, 2], "<i4").tobytes()  # offsets out of order
    with pytest.raises(PackingError):
        unpack(header + b"abc", "string", (2,))
    with pytest.raises(PackingError):
        unpack(np.array([3], "<i4").tobytes(), "string", (2,))  # a count other than the shape's


def test_layouts_by_hand():
    # u1: the first element in the top bit; u2: in the low bits; u4: the low nibble
    assert unpack(bytes([0x80, 0x61]), "u1", (16,)).tolist() == [
        1,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        1,
        1,
        0,
        0,
        0,
        0,
        1,
    ]
    assert unpack(bytes([0x39]), "u2", (4,)).tolist() == [1, 2, 3, 0]
    assert unpack(bytes([0x21, 0xF3]), "u4", (4,)).tolist() == [1, 2, 3, 15]
    assert unpack(bytes([0x21, 0x8F]), "i4", (4,)).tolist() == [1, 2, -1, -8]
    # u3 [1, 2, 3, 4, 5, 6, 7, 0] and u6 [1, 2, 3, 63], as ov.save_model writes them
    assert unpack(bytes.fromhex("6c6c1e"), "u3", (8,)).tolist() == [1, 2, 3, 4, 5, 6, 7, 0]
    assert unpack(bytes.fromhex("123f03"), "u6", (4,)).tolist() == [1, 2, 3, 63]
    assert unpack(np.array([1.5, -2.0], np.float32).view("<u2")[1::2].tobytes(), "bf16", (2,)).tolist() == [
        1.5,
        -2.0,
    ]
    assert unpack(bytes([0x7E, 0x38, 0x7F]), "f8e4m3", (3,))[:2].tolist() == [448.0, 1.0]
    assert unpack(bytes([0x7C, 0x3C]), "f8e5m2", (2,)).tolist() == [np.inf, 1.0]
    assert unpack(bytes([127, 130, 0]), "f8e8m0", (3,)).tolist() == [1.0, 8.0, 2.0**-127]
    assert unpack(bytes([0x01, 0x80]), "bf16", (1,)).tolist() == [-(2.0**-133)]  # a subnormal, exactly
    with pytest.raises(PackingError):
        unpack(bytes([0x21]), "u4", (4,))  # too few bytes
