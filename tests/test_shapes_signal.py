"""The signal ops called directly (no XML), with hand-worked expectations: RDFT's half spectrum
on each bound, IRDFT's ``2 * (d - 1)``, DFT's signal_size bounds, STFT's frames on an interval
and ISTFT's signal length with and without ``center``."""

from __future__ import annotations

import pytest

from irshape.dims import parse_partial_shape
from irshape.ops.interface import OpCall, OpResult, Tensor
from irshape.ops.registry import lookup
from irshape.ops.schema import ParsedAttributes
from irshape.shapes.signal import fft, irdft, istft, rdft, stft


def _call(op: str, opset: str, inputs: list[Tensor], **attributes: object) -> OpCall:
    schema = lookup(op, opset)
    assert schema is not None
    parsed = ParsedAttributes()
    parsed.values.update(attributes)
    return OpCall(schema, tuple(inputs), parsed)


def _const(values: list[int]) -> Tensor:
    return Tensor(parse_partial_shape(f"[{len(values)}]"), "i64", tuple(values))


def _shape(result: OpResult) -> str:
    (output,) = result.outputs
    return str(output.shape)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("[4,6]", "[4,4,2]"),  # 6 // 2 + 1
        ("[4,7]", "[4,4,2]"),  # 7 // 2 + 1
        ("[4,1]", "[4,1,2]"),
        ("[4,0]", "[4,0,2]"),  # a bound of 0 stays 0
        ("[4,2..9]", "[4,2..5,2]"),  # each bound halved
        ("[4,3..]", "[4,2..,2]"),  # an unbounded upper bound stays unbounded
        ("[4,?]", "[4,?,2]"),
    ],
)
def test_rdft_halves_the_last_axis(data: str, expected: str) -> None:
    call = _call("RDFT", "opset9", [Tensor(parse_partial_shape(data), "f32"), _const([1])])
    assert _shape(rdft(call)) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("[4,5,2]", "[4,8]"),  # 2 * (5 - 1)
        ("[4,0,2]", "[4,0]"),  # 0 - 1 clips to 0
        ("[4,..5,2]", "[4,..8]"),
        ("[4,?,2]", "[4,?]"),
    ],
)
def test_irdft_doubles_the_last_axis(data: str, expected: str) -> None:
    call = _call("IRDFT", "opset9", [Tensor(parse_partial_shape(data), "f32"), _const([1])])
    assert _shape(irdft(call)) == expected


def test_dft_signal_size_bounds() -> None:
    """A signal_size known by its bounds only (a ShapeOf of a 2..8 dim); -1 keeps the dim."""
    signal = Tensor(parse_partial_shape("[2]"), "i64", None, lower=(2, -1), upper=(8, -1))
    data = Tensor(parse_partial_shape("[4,5,2]"), "f32")
    assert _shape(fft(_call("DFT", "opset7", [data, _const([0, 1]), signal]))) == "[2..8,5,2]"


@pytest.mark.parametrize(
    ("signal", "transpose", "expected"),
    [
        ("[48]", False, "[9,9,2]"),  # floor((48 - 16) / 4) + 1 frames, 16 // 2 + 1 samples
        ("[2,48]", True, "[2,9,9,2]"),
        ("[2,10..48]", False, "[2,1..9,9,2]"),  # floor((10 - 16 -> 0) / 4) + 1 = 1
        ("[2,?]", False, "[2,1..,9,2]"),
    ],
)
def test_stft_frames(signal: str, transpose: bool, expected: str) -> None:
    inputs = [
        Tensor(parse_partial_shape(signal), "f32"),
        Tensor(parse_partial_shape("[16]"), "f32"),
        Tensor(parse_partial_shape("[]"), "i64", (16,)),
        Tensor(parse_partial_shape("[]"), "i64", (4,)),
    ]
    assert _shape(stft(_call("STFT", "opset15", inputs, transpose_frames=transpose))) == expected


@pytest.mark.parametrize(
    ("frame_size", "center", "expected"),
    [
        (16, False, "[4,24]"),  # (3 - 1) * 4 + 16
        (16, True, "[4,8]"),  # ... - (16 & ~1)
        (17, True, "[4,9]"),  # (3 - 1) * 4 + 17 - 16
    ],
)
def test_istft_signal_length(frame_size: int, center: bool, expected: str) -> None:
    inputs = [
        Tensor(parse_partial_shape(f"[4,{frame_size // 2 + 1},3,2]"), "f32"),
        Tensor(parse_partial_shape("[16]"), "f32"),
        Tensor(parse_partial_shape("[]"), "i64", (frame_size,)),
        Tensor(parse_partial_shape("[]"), "i64", (4,)),
    ]
    assert _shape(istft(_call("ISTFT", "opset16", inputs, center=center, normalized=False))) == expected
