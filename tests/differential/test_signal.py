"""DFT-7, IDFT-7, RDFT-9 and IRDFT-9 against OpenVINO (read_model of saved files): complex data
of ranks 2..5 (static, ``?``, interval, dynamic rank; the last dim of 2; RDFT's real data of
ranks 1..5) of f32, f16 and bf16; axes Consts
(negative ones, i32 and i64) or Parameters (static or dynamic length); no signal_size, a Const
(-1 keeps the dim, another negative is 0), a Parameter, or a ShapeOf (DFT reads its bounds:
``2..8``; RDFT and IRDFT its value only). Mutants read_model rejects (data of another element
type, a last dim other than 2, data of rank 1 (RDFT: 0), too many axes, axes not 1D, axes and signal_size of different lengths, axes of
element type u8, an axis out of range, an axis twice) are errors on the layer; a declared dim
off by one is IRS301/IRS302."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset7 as ov7
import openvino.opset8 as ov8
import openvino.opset9 as ov9
import openvino.opset15 as ov15
import openvino.opset16 as ov16
import pytest
from lxml import etree

import irshape

from .conftest import STATS
from .family_suite import (
    Mutant,
    check_dim_mutant,
    check_mutant,
    check_valid,
    draw_cases,
    named_inputs,
    set_input_shape,
    set_input_type,
    shape,
)
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    batches,
    constant,
    errors_on,
    is_static,
    openvino_reads,
    parameter,
    params,
    save_batch,
)

SEED = 20261125
PER_OP = 120
COMPLEX_TYPES = (np.float32, np.float32, np.float16, ov.Type.bf16)
INDEX_TYPES = (np.int64, np.int32)
Build = Callable[[], ov.Node]


def _axes(rng: random.Random, axis_rank: int) -> tuple[list[int], Build]:
    """Distinct axes of a tensor of rank ``axis_rank``, some counted from the end: a Const, or
    a Parameter of static or dynamic length (its value unknown)."""
    count = rng.randint(1, axis_rank)
    axes = [a - axis_rank if rng.random() < 0.4 else a for a in rng.sample(range(axis_rank), count)]
    axes_type = rng.choice(INDEX_TYPES)
    if rng.random() < 0.75:
        return axes, lambda: constant(axes, axes_type)
    axes_shape = shape(rng, [count], rng.choice(["static", "dynamic", "rank"]))
    return axes, lambda: parameter(axes_shape, axes_type)


def _signal_size(rng: random.Random, count: int) -> Build | None:
    """None, a Const (-1 keeps the dim, another negative is 0), a Parameter, or a ShapeOf of a
    Parameter (the value known, or only its bounds)."""
    pick, size_type = rng.random(), rng.choice(INDEX_TYPES)
    if pick < 0.25:
        return None
    if pick < 0.6:
        values = [rng.choice([-1, rng.randint(0, 9), rng.randint(1, 9), -3]) for _ in range(count)]
        return lambda: constant(values, size_type)
    if pick < 0.75:
        size_shape = shape(rng, [count], rng.choice(["static", "dynamic", "rank"]))
        return lambda: parameter(size_shape, size_type)
    source = shape(
        rng, [rng.randint(1, 9) for _ in range(count)], rng.choice(["static", "interval", "dynamic"])
    )
    return lambda: ov1.shape_of(parameter(source), rng.choice(["i64", "i32"]))


def draw_fft(op: Callable[..., ov.Node], real_input: bool = False) -> Callable[[random.Random], Build]:
    """Complex data (a last dim of 2) and axes of its complex rank; RDFT's real data and axes of
    its rank."""

    def draw(rng: random.Random) -> Build:
        rank = rng.randint(1, 5) if real_input else rng.randint(2, 5)
        dims = [rng.randint(0 if rng.random() < 0.05 else 1, 9) for _ in range(rank)]
        data = shape(rng, dims if real_input else [*dims[:-1], 2])
        data_type = rng.choice(COMPLEX_TYPES)
        axes_values, axes = _axes(rng, rank if real_input else rank - 1)
        signal = _signal_size(rng, len(axes_values))

        def build() -> ov.Node:
            if signal is None:
                return op(parameter(data, data_type), axes())
            return op(parameter(data, data_type), axes(), signal())

        return build

    return draw


STFT_TYPES = (np.float32, np.float32, np.float16, ov.Type.bf16, np.float64)


def _frame_value(rng: random.Random, value: int) -> Build:
    """frame_size or frame_step: a Const (i32 or i64), or a Parameter (its value unknown)."""
    value_type = rng.choice(INDEX_TYPES)
    if rng.random() < 0.8:
        return lambda: constant(value, value_type)
    scalar = shape(rng, [], rng.choice(["static", "rank"]))
    return lambda: parameter(scalar, value_type)


def draw_stft(rng: random.Random) -> Build:
    """A signal of rank 1 or 2, a frame_size up to its length, a window up to the frame_size."""
    length = rng.randint(1, 64)
    size = rng.randint(1, length)
    window = shape(rng, [rng.randint(1, size)])
    signal = shape(rng, [rng.randint(1, 4), length] if rng.random() < 0.6 else [length])
    frame_size, frame_step = _frame_value(rng, size), _frame_value(rng, rng.randint(1, 9))
    element_type, transpose = rng.choice(STFT_TYPES), rng.random() < 0.5
    return lambda: ov15.stft(
        parameter(signal, element_type),
        parameter(window, element_type),
        frame_size(),
        frame_step(),
        transpose,
    )


def _signal_length(rng: random.Random) -> Build | None:
    """None, a Const (a scalar or of one element; -1 is ``?``, another negative 0), a
    Parameter, or a dim of a Parameter's shape (its value known, or only its bounds)."""
    pick, value, length_type = rng.random(), rng.choice([rng.randint(0, 99), -1, -4]), rng.choice(INDEX_TYPES)
    if pick < 0.4:
        return None
    if pick < 0.7:
        scalar = rng.random() < 0.6
        return lambda: constant(value if scalar else [value], length_type)
    if pick < 0.8:
        length_shape = shape(rng, rng.choice([[], [1]]), rng.choice(["static", "dynamic", "rank"]))
        return lambda: parameter(length_shape, length_type)
    source = shape(rng, [rng.randint(1, 99)], rng.choice(["static", "interval", "dynamic"]))
    return lambda: ov8.gather(
        ov1.shape_of(parameter(source), rng.choice(["i64", "i32"])), constant(0), constant(0)
    )


def draw_istft(rng: random.Random) -> Build:
    """Data [batch,] frame_size // 2 + 1, frames, 2; a window up to the frame_size."""
    size, frames = rng.randint(1, 32), rng.randint(0 if rng.random() < 0.05 else 1, 9)
    batch = [rng.randint(1, 4)] if rng.random() < 0.6 else []
    data = shape(rng, [*batch, size // 2 + 1, frames, 2])
    window = shape(rng, [rng.randint(1, size)])
    frame_size, frame_step = _frame_value(rng, size), _frame_value(rng, rng.randint(1, 9))
    length = _signal_length(rng)
    element_type, center, normalized = rng.choice(STFT_TYPES), rng.random() < 0.5, rng.random() < 0.5

    def build() -> ov.Node:
        inputs = [parameter(data, element_type), parameter(window, element_type), frame_size(), frame_step()]
        if length is None:
            return ov16.istft(*inputs, center, normalized)
        return ov16.istft(*inputs, center, normalized, length())

    return build


DRAWS = {
    "DFT-7": draw_fft(ov7.dft),
    "IDFT-7": draw_fft(ov7.idft),
    "RDFT-9": draw_fft(ov9.rdft, real_input=True),
    "IRDFT-9": draw_fft(ov9.irdft),
    "STFT-15": draw_stft,
    "ISTFT-16": draw_istft,
}


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, draw) in zip(("df", "id", "rd", "ir", "st", "is"), DRAWS.items(), strict=True):
        cases += draw_cases(prefix, op, draw, rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["signal cases (tests/differential/test_signal.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"signal{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"signal{index}", BATCHES[index], tmp_path)


def test_the_cases_span_the_rules() -> None:
    """Signal sizes absent, Consts, Parameters and ShapeOfs; outputs with ``?``, intervals and
    of dynamic rank; f16 and bf16 outputs."""
    nodes = [case.build() for case in CASES if "STFT" not in case.op]
    kinds = {n.input_value(2).get_node().get_type_name() for n in nodes if n.get_input_size() == 3}
    assert kinds == {"Constant", "Parameter", "ShapeOf"}
    assert any(n.get_input_size() == 2 for n in nodes)
    outputs = [str(n.get_output_partial_shape(0)) for n in nodes]
    assert (
        "[...]" in outputs
        and any("?" in s for s in outputs)
        and any(".." in s.replace("[...]", "") for s in outputs)
    )
    assert {n.get_output_element_type(0).get_type_name() for n in nodes} == {"f32", "f16", "bf16"}
    stft = [str(case.build().get_output_partial_shape(0)) for case in CASES if case.op == "STFT-15"]
    assert (
        "[...]" in stft and any("?" in s for s in stft) and any(".." in s.replace("[...]", "") for s in stft)
    )
    assert any(is_static(s) and len(s.split(",")) == 3 for s in stft)
    istft = [str(case.build().get_output_partial_shape(0)) for case in CASES if case.op == "ISTFT-16"]
    assert (
        "[...]" in istft
        and any("?" in s for s in istft)
        and any(".." in s.replace("[...]", "") for s in istft)
    )
    assert any(is_static(s) and "," not in s for s in istft) and any(is_static(s) and "," in s for s in istft)


# --- mutants --------------------------------------------------------------------------------


def _fft(op: Callable[..., ov.Node], data: Sequence[int], count: int, signal: bool) -> Build:
    """``op`` of Parameters named m_in0 (data f32), m_in1 (axes i64 [count]) and, when
    ``signal``, m_in2 (signal_size i64 [count])."""

    def build() -> ov.Node:
        sizes = [parameter([count], np.int64)] if signal else []
        return op(*named_inputs(parameter(data), parameter([count], np.int64), *sizes))

    return build


FFTS = (("dft", ov7.dft, [4, 5, 2]), ("idft", ov7.idft, [4, 5, 2]), ("irdft", ov9.irdft, [4, 5, 2]))
MUTANTS = [
    mutant
    for name, op, data in (*FFTS, ("rdft", ov9.rdft, [4, 5]))
    for mutant in (
        Mutant(f"{name} f64 data", _fft(op, data, 1, False), set_input_type(0, "f64", "FP64"), "IRS213"),
        Mutant(f"{name} i32 data", _fft(op, data, 1, False), set_input_type(0, "i32", "I32"), "IRS213"),
        Mutant(f"{name} u8 axes", _fft(op, data, 1, False), set_input_type(1, "u8", "U8"), "IRS213"),
        Mutant(f"{name} f32 signal", _fft(op, data, 1, True), set_input_type(2, "f32", "FP32"), "IRS213"),
        Mutant(f"{name} too many axes", _fft(op, data, 2, False), set_input_shape(1, [len(data) + 1])),
        Mutant(f"{name} axes scalar", _fft(op, data, 1, False), set_input_shape(1, []), "IRS211"),
        Mutant(f"{name} axes 2D", _fft(op, data, 1, False), set_input_shape(1, [1, 1]), "IRS211"),
        Mutant(f"{name} signal 2D", _fft(op, data, 1, True), set_input_shape(2, [1, 1]), "IRS211"),
        Mutant(f"{name} signal of 2", _fft(op, data, 1, True), set_input_shape(2, [2]), "IRS212"),
    )
]
MUTANTS += [
    Mutant(f"{name} last dim 3", _fft(op, data, 1, False), set_input_shape(0, [4, 5, 3]), "IRS212")
    for name, op, data in FFTS
]
MUTANTS += [
    Mutant(f"{name} data rank 1", _fft(op, data, 1, False), set_input_shape(0, [2]), "IRS211")
    for name, op, data in FFTS
]
MUTANTS.append(Mutant("rdft data scalar", _fft(ov9.rdft, [4, 5], 1, False), set_input_shape(0, []), "IRS211"))


def _stft(signal: Sequence[int], window: Sequence[int]) -> ov.Node:
    """STFT of Parameters named m_in0 (signal f32), m_in1 (window f32), m_in2 and m_in3
    (frame_size and frame_step, i64 scalars)."""
    inputs = named_inputs(
        parameter(signal), parameter(window), parameter([], np.int64), parameter([], np.int64)
    )
    return ov15.stft(*inputs, False)


def _stft_consts(named: int = 0) -> ov.Node:
    """STFT of a signal m_in0 [2, 48] f32, a window m_in1 [16], frame_size 16 and frame_step 4
    (the one of them ``named`` is m_const)."""
    signal, window = named_inputs(parameter([2, 48]), parameter([16]))
    values = [constant(16), constant(4)]
    values[named].set_friendly_name("m_const")
    return ov15.stft(signal, window, *values, False)


def _stft_2d() -> ov.Node:
    return _stft([2, 48], [16])


MUTANTS += [
    Mutant("stft i32 signal", _stft_2d, set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant("stft f16 window", _stft_2d, set_input_type(1, "f16", "FP16"), "IRS213"),
    Mutant("stft i32 window", _stft_2d, set_input_type(1, "i32", "I32"), "IRS213"),
    Mutant("stft f32 frame_size", _stft_2d, set_input_type(2, "f32", "FP32"), "IRS213"),
    Mutant("stft u8 frame_step", _stft_2d, set_input_type(3, "u8", "U8"), "IRS213"),
    Mutant("stft signal 3D", _stft_2d, set_input_shape(0, [2, 2, 48]), "IRS211"),
    Mutant("stft signal scalar", _stft_2d, set_input_shape(0, []), "IRS211"),
    Mutant("stft window 2D", _stft_2d, set_input_shape(1, [16, 1]), "IRS211"),
    Mutant("stft frame_size [1]", _stft_2d, set_input_shape(2, [1]), "IRS211"),
    Mutant("stft frame_step [1, 1]", _stft_2d, set_input_shape(3, [1, 1]), "IRS211"),
    Mutant("stft window past frame_size", _stft_consts, set_input_shape(1, [17]), "IRS212"),
    Mutant("stft window empty", _stft_consts, set_input_shape(1, [0]), "IRS212"),
    Mutant("stft signal shorter than frame_size", _stft_consts, set_input_shape(0, [2, 15]), "IRS214"),
]


def _istft(length: bool = False) -> Callable[[], ov.Node]:
    """ISTFT of Parameters named m_in0 (data [4, 9, 3, 2] f32), m_in1 (window [16] f32), m_in2
    and m_in3 (frame_size and frame_step, i64 scalars), m_in4 (signal_length, i64 scalar)."""

    def build() -> ov.Node:
        inputs = [parameter([4, 9, 3, 2]), parameter([16]), parameter([], np.int64), parameter([], np.int64)]
        if length:
            inputs.append(parameter([], np.int64))
        return ov16.istft(*named_inputs(*inputs)[:4], False, False, *named_inputs(*inputs)[4:])

    return build


def _istft_consts(named: int = 0) -> ov.Node:
    """ISTFT of data m_in0 [9, 3, 2] f32, a window m_in1 [16], frame_size 16 and frame_step 4
    (the one of them ``named`` is m_const)."""
    data, window = named_inputs(parameter([9, 3, 2]), parameter([16]))
    values = [constant(16), constant(4)]
    values[named].set_friendly_name("m_const")
    return ov16.istft(data, window, *values, False, False)


MUTANTS += [
    Mutant("istft i32 data", _istft(), set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant("istft f16 window", _istft(), set_input_type(1, "f16", "FP16"), "IRS213"),
    Mutant("istft f32 frame_size", _istft(), set_input_type(2, "f32", "FP32"), "IRS213"),
    Mutant("istft u8 frame_step", _istft(), set_input_type(3, "u8", "U8"), "IRS213"),
    Mutant("istft f32 signal_length", _istft(True), set_input_type(4, "f32", "FP32"), "IRS213"),
    Mutant("istft data 2D", _istft(), set_input_shape(0, [9, 3]), "IRS211"),
    Mutant("istft data 5D", _istft(), set_input_shape(0, [1, 4, 9, 3, 2]), "IRS211"),
    Mutant("istft window 2D", _istft(), set_input_shape(1, [16, 1]), "IRS211"),
    Mutant("istft frame_size [1]", _istft(), set_input_shape(2, [1]), "IRS211"),
    Mutant("istft frame_step [1, 1]", _istft(), set_input_shape(3, [1, 1]), "IRS211"),
    Mutant("istft signal_length [2]", _istft(True), set_input_shape(4, [2]), "IRS212"),
    Mutant("istft signal_length [1, 1]", _istft(True), set_input_shape(4, [1, 1]), "IRS212"),
    Mutant("istft window past frame_size", _istft_consts, set_input_shape(1, [17]), "IRS212"),
    Mutant("istft window empty", _istft_consts, set_input_shape(1, [0]), "IRS212"),
    Mutant("istft fft dim", _istft_consts, set_input_shape(0, [8, 3, 2]), "IRS212"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


def _const_axes(op: Callable[..., ov.Node], data: Sequence[int], axes: Sequence[int]) -> Build:
    return lambda: op(parameter(data), constant(list(axes)))


def _rewritten(tmp: Path, build: Build, values: Sequence[int]) -> Path:
    """The saved case with its Const's (the one named m_const, else the only one) int64 values
    rewritten: OpenVINO's builder refuses the values themselves."""
    xml = tmp / "const.xml"
    save_batch([OpCase("m0", "const", build)], xml)
    tree = etree.parse(str(xml))
    (const,) = tree.xpath("//layer[@name='m_const']") or tree.xpath("//layer[@type='Const']")
    offset = int(const.find("data").get("offset"))
    data = bytearray(xml.with_suffix(".bin").read_bytes())
    data[offset : offset + 8 * len(values)] = np.array(values, dtype=np.int64).tobytes()
    xml.with_suffix(".bin").write_bytes(bytes(data))
    return xml


CONST_MUTANTS = [
    (name, op, data, valid, bad)
    for name, op, _ in FFTS
    for data, valid, bad in (
        ([4, 5, 2], [0], [2]),  # the complex last dim is no axis
        ([4, 5, 2], [0], [-3]),
        ([4, 5, 6, 2], [0, 1], [0, -3]),  # -3 is axis 0 of the complex rank 3
        ([4, 5, 6, 2], [0, 2], [2, 2]),
    )
] + [
    ("rdft", ov9.rdft, [4, 5], [0], [2]),
    ("rdft", ov9.rdft, [4, 5], [0], [-3]),
    ("rdft", ov9.rdft, [4, 5, 6], [0, 1], [0, -3]),
    ("rdft", ov9.rdft, [4, 5, 6], [0, 1], [1, 1]),
]


@pytest.mark.parametrize(
    ("name", "op", "data", "valid", "bad"), CONST_MUTANTS, ids=lambda v: v.__name__ if callable(v) else str(v)
)
def test_axes_openvino_rejects_are_an_error(
    tmp_path: Path, name: str, op: Any, data: list[int], valid: list[int], bad: list[int]
) -> None:
    xml = _rewritten(tmp_path, _const_axes(op, data, valid), bad)
    assert openvino_reads(xml) is not None, f"{name} axes {bad}: OpenVINO accepts them"
    codes = {d.code for d in errors_on(irshape.check_file(xml), "m0")}
    assert "IRS214" in codes, codes


VALUE_MUTANTS = [
    ("stft frame_size 0", 0, [0]),
    ("stft frame_size -16", 0, [-16]),
    ("stft frame_size past the signal", 0, [49]),
    ("stft frame_step 0", 1, [0]),
    ("stft frame_step -1", 1, [-1]),
    ("istft frame_size 0", 0, [0]),
    ("istft frame_size -16", 0, [-16]),
    ("istft frame_step 0", 1, [0]),
    ("istft frame_step -1", 1, [-1]),
]


@pytest.mark.parametrize(("name", "named", "values"), VALUE_MUTANTS, ids=lambda v: str(v))
def test_frame_values_openvino_rejects_are_an_error(
    tmp_path: Path, name: str, named: int, values: list[int]
) -> None:
    build = _istft_consts if name.startswith("istft") else _stft_consts
    xml = _rewritten(tmp_path, lambda: build(named), values)
    assert openvino_reads(xml) is not None, f"{name}: OpenVINO accepts it"
    codes = {d.code for d in errors_on(irshape.check_file(xml), "m0")}
    assert "IRS214" in codes, codes
