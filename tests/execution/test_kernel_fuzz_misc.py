"""The kernel fuzzer's drawers for the colour conversions, the string tensors, the variables
(ReadValue/Assign, run twice by this file's own runner), Eye, OneHot-16, RandomUniform,
Multinomial and SliceScatter. The machinery, the budget and its environment variables:
``fuzzing.py``."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset3 as opset3
import openvino.opset6 as opset6
import pytest
from openvino.op.util import Variable, VariableInfo

from irshape.execute.network import execute
from irshape.ir.reader import read_file
from irshape.kernels import Context

from .fuzzing import (
    ANY,
    BF16,
    COUNT,
    F16,
    F32,
    F64,
    INTEGERS,
    NUMERIC,
    REPORT,
    SEEDS,
    Draw,
    Drawers,
    Node,
    Outcome,
    Redraw,
    make,
    numpy_type,
    op_of,
    opset,
    ov_type,
    results,
    run_family,
    type_of,
)
from .fuzzing import _summary as summary
from .fuzzing import _write_report as write_report
from .harness import CPU_CONFIG, compare
from .test_kernel_fuzz import _axes, _slice_bounds

drawers = Drawers()
drawer = drawers.add


def _fed(d: Draw, values: np.ndarray, element_type: str) -> Node:
    """A Parameter fed with ``values`` (bf16 through a Convert of f32, as ``Draw.data``)."""
    fed = F32 if element_type == BF16 else element_type
    parameter = opset.parameter(list(values.shape), ov_type(fed))
    d.inputs[parameter] = values
    return opset.convert(parameter, BF16) if element_type == BF16 else parameter


def _scalar_input(d: Draw, value: int, element_type: str) -> Node:
    """An integer input of one element: a Const or a Parameter, a scalar or of shape [1]."""
    values = np.array(value if d.chance(0.6) else [value]).astype(ov_type(element_type).to_dtype())
    return d.const(values, element_type) if d.chance(0.6) else _fed(d, values, element_type)


# --- colour ------------------------------------------------------------------------------------

# the image types the conversions take (u8, or any real); u8 and f32 the ones images come in
PIXELS = ["u8", "u8", F32, F32, F16, BF16, F64]


def _pixels(d: Draw, shape: Sequence[int], element_type: str) -> np.ndarray:
    """Pixels over [0, 255] (reals past it too, and now and then NaN, infinities and -0.0)."""
    if element_type == "u8":
        return d.rng.integers(0, 256, tuple(shape)).astype(np.uint8)
    values = d.rng.uniform(-30, 290, tuple(shape))
    if d.chance(0.5):
        values = np.round(values)  # integral pixels: the u8 image's rounding points
    values = values.astype(np.float32 if element_type == BF16 else ov_type(element_type).to_dtype())
    if d.chance(0.3) and values.size:
        edges = np.array([0.0, -0.0, 255.0, 255.5, 0.5, np.nan, np.inf, -np.inf], values.dtype)
        mask = d.rng.random(values.shape) < 0.1
        values[mask] = d.rng.choice(edges, int(mask.sum()))
    return values


@drawer("colour", "NV12toRGB-8", "NV12toBGR-8", "I420toRGB-8", "I420toBGR-8")
def _to_rgb(d: Draw) -> Sequence[Node]:
    op, version = op_of(d.name)
    element_type = d.pick(PIXELS)
    batch, height, width = d.int(1, 3), 2 * d.int(0 if d.chance(0.05) else 1, 4), 2 * d.int(1, 4)
    if d.chance(0.5):
        planes = [[batch, height * 3 // 2, width, 1]]
    elif op.startswith("NV12"):
        planes = [[batch, height, width, 1], [batch, height // 2, width // 2, 2]]
    else:
        planes = [[batch, height, width, 1]] + [[batch, height // 2, width // 2, 1]] * 2
    inputs = [_fed(d, _pixels(d, plane, element_type), element_type) for plane in planes]
    return [make(version, op, inputs)]


@drawer("colour", "RGBtoNV12-17", "BGRtoNV12-17")
def _to_nv12(d: Draw) -> Sequence[Node]:
    # OpenVINO 2026.4 has no CPU node for these (nor an evaluate): every configuration is one
    # the plugin refuses, counted as such (test_to_nv12.py checks the kernel by hand and by a
    # round trip through the plugin's NV12toRGB)
    op, version = op_of(d.name)
    element_type = d.pick(["u8", F32, F16])
    shape = [d.int(1, 2), 2 * d.int(1, 3), 2 * d.int(1, 3), 3]
    image = _fed(d, _pixels(d, shape, element_type), element_type)
    return [make(version, op, [image], {"single_plane": d.chance(0.5)})]


# --- generation ----------------------------------------------------------------------------------

# Eye's output types: every numeric type and boolean
EYE_TYPES = [*NUMERIC, "boolean"]


@drawer("generation_misc", "Eye-9")
def _eye(d: Draw) -> Sequence[Node]:
    d.exact = True
    index_type = d.pick(["i32", "i64"])
    rows, columns = d.int(0, 5), d.int(0 if d.chance(0.1) else 1, 5)
    # diagonals inside the matrix, just past it both ways, and far past it
    diagonal = d.pick([0, 1, -1, columns, columns + 1, -rows, -rows - 1, d.int(-6, 6), 2**31 - 1, -(2**31)])
    counts = [_scalar_input(d, v, index_type) for v in (rows, columns)]
    if d.chance(0.2):  # columns not given: num_rows twice
        counts[1] = counts[0]
    inputs = [*counts, _scalar_input(d, diagonal, index_type)]
    if d.chance(0.5):
        # no empty batch_shape: the plugin then leaves its output unfilled (its memory as it
        # was: -1.7e-21, 4.6e-41... where irshape has the identity; with Const or Parameter
        # counts alike, found by the fuzzer and checked by hand)
        batch = [d.int(0 if d.chance(0.1) else 1, 3) for _ in range(d.int(1, 2))]
        inputs.append(d.const(np.array(batch), index_type))
    return [make(9, "Eye", inputs, {"output_type": d.pick(EYE_TYPES)})]


@drawer("generation_misc", "OneHot-16")
def _one_hot(d: Draw) -> Sequence[Node]:
    d.exact = True
    shape = d.shape(d.int(0, 3))
    depth = d.pick([0, 1, d.int(1, 5), d.int(1, 5)])
    index_type = d.pick(["i32", "i64", "i32", "i64", "i8", "u8", "i16", "u16", "u32", "u64"])
    info = np.iinfo(ov_type(index_type).to_dtype())
    raw = d.rng.integers(-depth - 2, depth + 3, tuple(shape))
    indices = np.clip(raw, info.min, info.max).astype(info.dtype)
    value_type = d.pick(ANY)
    # (an f64 on or off value comes out rounded to f32: the plugin holds f64 as f32, and so
    # do irshape's kernels' f64 outputs)
    on, off = (d.values((), value_type, d.pick(["edges", "small"])) for _ in range(2))
    values = [d.const(v, value_type) if d.chance(0.5) else _fed(d, v, value_type) for v in (on, off)]
    depth_node = d.const(np.array(depth if d.chance(0.7) else [depth]), d.pick(["i32", "i64"]))
    attributes = {
        "axis": d.int(-len(shape) - 1, len(shape)),
        "negative_indices_mode": d.pick(["ignore_negative", "normalize"]),
    }
    return [make(16, "OneHot", [_fed(d, indices, index_type), depth_node, *values], attributes)]


# output types RandomUniform takes
RANDOM_TYPES = [F32, F32, F16, BF16, F64, "i32", "i64"]
# global and op seeds; both 0 is left out: a sequence from a seed each side picks at random
SEED_PAIRS = [(150, 10), (1, 0), (0, 7), (2**31 + 5, 2**40 + 3), (123456789, 987654321), (42, 42), (2**63, 1)]


def _seeds(d: Draw) -> dict[str, int]:
    if d.chance(0.5):
        global_seed, op_seed = d.pick(SEED_PAIRS)
    else:
        global_seed, op_seed = d.int(0, 2**32), d.int(1, 2**32)
    return {"global_seed": int(global_seed), "op_seed": int(op_seed)}


@drawer("generation_misc", "RandomUniform-8")
def _random_uniform(d: Draw) -> Sequence[Node]:
    d.exact = True
    element_type = d.pick(RANDOM_TYPES)
    # no scalar output (output_shape []): the plugin leaves it unfilled (-7.7e-33 where [1]
    # gives 0.70112; found by the fuzzer and checked by hand)
    shape = d.shape(d.int(1, 3), high=7)
    alignment = d.pick(["tensorflow", "pytorch"])
    if element_type in ("i32", "i64"):
        low = d.pick([0, -5, -100, 3, -(2**31), -(2**30)])
        high = min(low + d.pick([1, 2, 7, 1000, 2**31 - 1, 2**31 + 5, 2**32 - 1]), 2**31 - 1)
        if element_type == "i64" and d.chance(0.2):  # bounds past i32 (made i32 by the plugin)
            low, high = -(2**40), 2**41 + 17  # a Const -2**31, a Parameter 17
    else:
        low = float(np.round(d.rng.uniform(-10, 5), d.pick([0, 2, 6])))
        high = low + float(d.pick([0.5, 1.0, np.round(d.rng.uniform(0.1, 20), 3), 1e6]))
    bounds_type = BF16 if element_type == BF16 else element_type
    bounds = []
    for value in (low, high):
        with np.errstate(over="ignore"):  # an f16 max of 1e6 is inf: an edge too
            array = np.array(value if d.chance(0.5) else [value]).astype(
                np.float32 if bounds_type == BF16 else ov_type(bounds_type).to_dtype()
            )
        bounds.append(d.const(array, bounds_type) if d.chance(0.5) else _fed(d, array, bounds_type))
    if bounds_type == BF16 and any(len(b.get_output_partial_shape(0)) == 0 for b in bounds):
        # a Convert of a scalar to bf16 gives [1] (see test_generation.py): bf16 bounds of [1]
        raise Redraw("bf16 bounds of [1] only")
    target = d.const(np.array(shape), d.pick(["i32", "i64"]))
    attributes = {
        "output_type": element_type,
        "alignment": alignment,
        **_seeds(d),
    }
    return [make(8, "RandomUniform", [target, *bounds], attributes)]


@drawer("generation_misc", "Multinomial-13")
def _multinomial(d: Draw) -> Sequence[Node]:
    d.exact = True
    batch, classes = d.int(1, 3), d.int(1, 12)
    log_probs, with_replacement = d.chance(0.5), d.chance(0.5)
    weights = d.rng.random((batch, classes)) + 1e-3
    if d.chance(0.4):
        weights[d.rng.random((batch, classes)) < 0.3] = 0.0
    if d.chance(0.2):
        weights[:, d.int(0, classes - 1)] += 20.0
    weights[:, d.int(0, classes - 1)] += 0.5  # no row all zeros
    with np.errstate(divide="ignore"):
        probs = np.log(weights) if log_probs else weights
    positive = int(np.min(np.sum(weights > 0, axis=1)))
    # without replacement, no more samples than classes of non-zero weight: past them a draw
    # finds no class (the cdf divided by 1 - 1) and the plugin leaves that sample's memory
    # unwritten (0 in a model of its own, checked by hand; in a batch, whatever was there)
    samples = d.int(0 if d.chance(0.1) else 1, 20 if with_replacement else positive)
    probs_type = d.pick([F32, F32, F16, F64, BF16])
    inputs = [_fed(d, probs.astype(numpy_type(probs_type)), probs_type)]
    inputs.append(_scalar_input(d, samples, d.pick(["i32", "i64"])))
    attributes = {
        "convert_type": d.pick(["i32", "i64", "i32", "i64", F32, "u8"]),
        "with_replacement": with_replacement,
        "log_probs": log_probs,
        **_seeds(d),
    }
    return [make(13, "Multinomial", inputs, attributes)]


# --- SliceScatter --------------------------------------------------------------------------------


@drawer("indexing_misc", "SliceScatter-15")
def _slice_scatter(d: Draw) -> Sequence[Node]:
    d.exact = True
    shape = d.shape(d.int(1, 5))
    axes = _axes(d, len(shape))
    bounds = [_slice_bounds(d, shape[a]) for a in axes]
    start, stop, step = (np.array([b[k] for b in bounds], np.int64) for k in range(3))
    index_type = d.pick(["i32", "i64"])
    if index_type == "i32":
        start, stop = (np.clip(v, -(2**31), 2**31 - 1) for v in (start, stop))
    # the slices as Consts: with start, stop or step computed at run time the plugin writes the
    # updates wrongly or not at all, from run to run (irshape/kernels/indexing.py)
    slices = [d.const(v, index_type) for v in (start, stop, step)]
    with_axes = d.chance(0.8)
    if with_axes:
        slices.append(d.const(np.array(axes, np.int64), index_type))
    elif sorted(a % len(shape) for a in axes) != list(range(len(axes))):
        raise Redraw("without axes the bounds are the first axes'")
    # the updates' shape as OpenVINO's Slice infers it
    sliced = make(8, "Slice", [opset.parameter(shape, ov.Type.f32), *slices])
    update_shape = [dim.get_length() for dim in sliced.get_output_partial_shape(0)]
    element_type = d.pick(ANY)
    data = d.data(shape, element_type, "small")
    updates = d.data(update_shape, element_type, "edges")
    return [make(15, "SliceScatter", [data, updates, *slices])]


# --- strings --------------------------------------------------------------------------------------

WORDS = ["", "", "a", "hello", "naïve", "日本語", "🙂 ok", "tab\tand space", "x" * 17, "a\x00b", "Ω"]


@drawer("strings", "StringTensorUnpack-15")
def _unpack(d: Draw) -> Sequence[Node]:
    d.exact = True
    shape = d.shape(d.int(0, 3))
    words = np.array([d.pick(WORDS) for _ in range(int(np.prod(shape)))], dtype=str).reshape(shape)
    parameter = opset.parameter(shape, ov.Type.string)
    d.inputs[parameter] = words
    return [make(15, "StringTensorUnpack", [parameter])]


# UTF-8's pieces: ASCII, a two-, three- and four-byte character, and bytes that are not UTF-8
# (a lone continuation byte, a lead byte without its continuation, 0xff, NUL)
BYTES = [b"a", b"hi ", "é".encode(), "語".encode(), "🙂".encode(), b"\x80", b"\xc3", b"\xff", b"\x00"]


@drawer("strings", "StringTensorPack-15")
def _pack(d: Draw) -> Sequence[Node]:
    d.exact = True
    shape = d.shape(d.int(0, 3))
    text = b"".join(d.pick(BYTES) for _ in range(d.int(0, 12)))
    size = int(np.prod(shape))
    # spans inside the buffer, begin <= end: empty, repeated, overlapping, cut anywhere (inside
    # a character too); a span outside it or an end before its begin makes the plugin read
    # outside its memory
    begins = d.rng.integers(0, len(text) + 1, size)
    ends = begins + d.rng.integers(0, len(text) + 1 - begins)
    index_type = d.pick(["i32", "i64"])
    dtype = ov_type(index_type).to_dtype()
    spans = [np.asarray(v, dtype).reshape(shape) for v in (begins, ends)]
    symbols = np.frombuffer(text, dtype=np.uint8).copy()
    packed = make(15, "StringTensorPack", [*(_fed(d, v, index_type) for v in spans), _fed(d, symbols, "u8")])
    # the harness compares numbers, not strings: the strings are unpacked again
    return [make(15, "StringTensorUnpack", [packed])]


# --- state: ReadValue and Assign, two inferences --------------------------------------------------
#
# run_batch builds a model of Results only and infers it once; a variable needs its Assign as a
# sink of the model and a second inference to show what the first stored. This file's own
# runner does that: the configurations of a batch in one model, inferred twice on two drawn
# feeds, every output and every variable (``query_state()``) after each inference compared with
# irshape's two executions on one Context; a batch the plugin refuses split in halves.

# the variables' types (i64 ones the plugin refuses: 'does not support i64 for use with oneDNN')
STATE_TYPES = [F32, F32, F16, BF16, "i32", "i32", "u8", "i8", "i64", "boolean"]


@dataclass
class Stateful:
    """One configuration: its Parameters (with a feed for each inference), the outputs to
    compare and its Assigns."""

    name: str
    feeds: dict[Node, list[np.ndarray]]
    outputs: list[ov.Output]
    sinks: list[Node]
    exact: bool = True


def _variable(shape: ov.PartialShape, element_type: str, name: str) -> Variable:
    info = VariableInfo()
    info.data_shape = shape
    info.data_type = ov_type(element_type)
    info.variable_id = name
    return Variable(info)


def _combined(read: Node, other: Node, element_type: str) -> Node:
    """What a step computes from the variable's value and a new input (element-wise)."""
    if element_type == "boolean":
        return opset.logical_xor(read, other)
    return opset.add(read, other)


@drawer("state", "ReadValue-3", "Assign-3", "ReadValue-6", "Assign-6")
def _state(d: Draw) -> Sequence[Node]:
    """A variable and its step: the nodes returned are the outputs to compare, then the Assign
    (the runner makes it a sink)."""
    _op, version = op_of(d.name)
    name = f"{d.name}_{d.int(0, 2**31)}"
    element_type = d.pick(STATE_TYPES)
    kind = "small" if element_type in INTEGERS else "edges"
    if version == 3:
        shape = d.shape(d.int(0, 3))
        read = opset3.read_value(d.data(shape, element_type, kind), name)
        new = _combined(read, d.data(shape, element_type, kind), element_type)
        return [read, new, opset3.assign(new, name)]
    # no dims of 0: the plugin keeps a variable's old shape when an Assign stores an empty
    # value ([3, 0] where the Concat of [3, 0] and [1, 0] gave [4, 0]; not modelled)
    shape = d.shape(d.int(1, 3), zero=0)
    grown = d.int(0, len(shape) - 1)  # the axis a cache grows along, or a dynamic one
    pattern = d.pick(["static", "cache", "dynamic", "interval"])
    declared: list[Any] = list(shape)
    if pattern == "cache":
        declared[grown] = -1
    elif pattern == "dynamic":
        declared = [-1 if d.chance(0.5) or axis == grown else dim for axis, dim in enumerate(shape)]
    elif pattern == "interval":
        # wide enough for two steps (past its end the plugin fails: 'Can not clone with new dims')
        declared[grown] = ov.Dimension(0, 8)
    variable = _variable(ov.PartialShape(declared), element_type, name)
    with_init = d.chance(0.5)
    if with_init and element_type == F16 and pattern != "static":
        # an f16 variable of a dynamic shape started from an init input corrupts the plugin's
        # heap ('free(): invalid next size', 'malloc(): unsorted double linked list corrupted':
        # it holds f16 as f32, checked by hand on [3, ?, 2] grown by 2); without init, or f32,
        # it runs
        raise Redraw("the plugin corrupts its heap")
    if with_init:
        read = opset6.read_value(d.data(shape, element_type, kind), variable)
    else:
        read = opset6.read_value(variable)
    if pattern == "static":
        # a value computed from the variable's, or from a Parameter alone (not the Parameter
        # itself: an Assign of a Parameter that a Result also takes makes the plugin's Result
        # show other memory, [109, 115, 0, 0] for [11, 4, 0, 5], and crashes it at times,
        # 'malloc(): unsorted double linked list corrupted')
        step = d.data(shape, element_type, kind)
        new = _combined(read if d.chance(0.7) else step, step, element_type)
    else:
        # the plugin assigns a dynamic variable only a value computed from its ReadValue
        # ('Can't reorder data with dynamic shapes'): the cache's concatenation
        piece = list(shape)
        piece[grown] = d.int(1, 2)
        new = opset.concat([read, d.data(piece, element_type, kind)], grown)
    return [read, new, opset6.assign(new, variable)]


def _stateful_cases(seed: int, count: int) -> list[Stateful]:
    """As ``fuzzing._fuzz_cases`` draws them, with a second feed for each Parameter."""
    cases = []
    for name, (family, function) in drawers.by_name.items():
        if family != "state":
            continue
        rng = np.random.default_rng([seed, sum(name.encode())])
        made = 0
        for _attempt in range(count * 8):
            if made == count:
                break
            draw = Draw(rng, name)
            try:
                *compared, assign = function(draw)
            except (Redraw, RuntimeError):  # RuntimeError: a variable the op's validation refuses
                continue
            feeds = {
                parameter: [value, draw.values(value.shape, type_of(parameter), "small")]
                for parameter, value in draw.inputs.items()
            }
            case_name = f"{name.replace('-', '_v')}_s{seed}_{made}"
            # reals within tolerance: the plugin computes f16 in f32 (the hint) and holds an f16
            # ReadValue-3's variable in f32, so a step's sum is rounded to f16 only at the Result
            exact = compared[0].get_output_element_type(0).get_type_name() not in (F16, BF16, F32, F64)
            cases.append(Stateful(case_name, feeds, results(draw, compared), [assign], exact))
            made += 1
    return cases


_core = ov.Core()
_batches = itertools.count()


def _run_stateful(cases: list[Stateful], directory: Path) -> tuple[list[dict[str, np.ndarray]], ...]:
    """The plugin's outputs and variables (``variable:ID``) after each of two inferences, and
    irshape's; raises OpenVINO's RuntimeError where the plugin refuses, ValueError where irshape
    does."""
    parameters, compared, sinks = [], [], []
    for case in cases:
        for i, parameter in enumerate(case.feeds):
            parameter.set_friendly_name(f"{case.name}_in{i}")
            parameter.output(0).set_names({f"{case.name}_in{i}"})
            parameters.append(parameter)
        for j, output in enumerate(case.outputs):
            result = opset.result(output)
            result.set_friendly_name(f"{case.name}_out{j}")
            compared.append(result)
        sinks += case.sinks
    model = ov.Model(compared, sinks, parameters, f"state{next(_batches)}")
    xml = directory / f"{model.get_friendly_name()}.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    request = _core.compile_model(_core.read_model(xml), "CPU", CPU_CONFIG).create_infer_request()
    expected = []
    for step in range(2):
        request.infer([case.feeds[p][step] for case in cases for p in case.feeds])
        answers = {
            r.get_friendly_name(): np.array(request.get_output_tensor(i).data, copy=True)
            for i, r in enumerate(compared)
        }
        answers |= {f"variable:{s.name}": _state_value(s.state) for s in request.query_state()}
        expected.append(answers)
    document = read_file(xml).document
    if document is None:
        raise ValueError("irshape cannot read the saved IR")
    context, got = Context(), []
    for step in range(2):
        inputs = {
            f"{case.name}_in{i}": case.feeds[p][step] for case in cases for i, p in enumerate(case.feeds)
        }
        execution = execute(document, inputs, context=context)
        got.append(execution.results | {f"variable:{k}": v for k, v in execution.variables.items()})
    return expected, got


def _state_value(tensor: ov.Tensor) -> np.ndarray:
    """A variable's value; a bf16 one as f32 (OpenVINO's ``Tensor.data`` shows its bits as f16)."""
    value = np.array(tensor.data, copy=True)
    if tensor.get_element_type() == ov.Type.bf16:
        return (value.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return value


def _state_mismatch(
    case: Stateful, expected: list[dict[str, np.ndarray]], got: list[dict[str, np.ndarray]]
) -> str | None:
    names = [f"{case.name}_out{j}" for j in range(len(case.outputs))]
    names += [f"variable:{sink.get_variable_id()}" for sink in case.sinks]
    for step, (plugin, irshape) in enumerate(zip(expected, got, strict=True)):
        for name in names:
            want, have = plugin[name], irshape.get(name)
            if name.startswith("variable:") and have is not None:
                if want.dtype != have.dtype:
                    # the plugin holds the variable of an f16 ReadValue-3 (its type is its
                    # init's) in f32
                    want = want.astype(have.dtype)
                if want.shape == (1,) and have.shape == ():
                    # query_state() shows a scalar variable as [1] (its ReadValue gives a
                    # scalar, and a scalar set through query_state() is taken)
                    want = want.reshape(())
            problem = compare(want, have, exact=case.exact)
            if problem is not None:
                return f"inference {step + 1}, {name}: {problem}"
    return None


def _irshape_runs_state(case: Stateful, directory: Path) -> bool:
    """Whether irshape runs both inferences of ``case``, which the plugin refused (its IR is the
    newest file in ``directory``)."""
    xml = max(directory.glob("*.xml"), key=lambda path: path.stat().st_mtime_ns)
    document = read_file(xml).document
    if document is None:
        return False
    context = Context()
    try:
        for step in range(2):
            execute(
                document,
                {f"{case.name}_in{i}": case.feeds[p][step] for i, p in enumerate(case.feeds)},
                context=context,
            )
    except Exception:  # any refusal or failure
        return False
    return True


def _count_state_bits(
    case: Stateful, expected: list[dict[str, np.ndarray]], got: list[dict[str, np.ndarray]], outcome: Outcome
) -> None:
    """The float outputs' elements that agree within tolerance but not bit for bit."""
    counts = outcome.not_bit_equal.setdefault(case.name.split("_s")[0].replace("_v", "-"), [0, 0])
    for plugin, irshape in zip(expected, got, strict=True):
        for j in range(len(case.outputs)):
            want, have = plugin[f"{case.name}_out{j}"], irshape[f"{case.name}_out{j}"]
            if want.dtype.kind == "f":
                same = (want == have) | (np.isnan(want) & np.isnan(have))
                counts[0] += int((~same).sum())
                counts[1] += int(same.size)


def _run_state_cases(cases: list[Stateful], directory: Path, outcome: Outcome) -> None:
    """As ``fuzzing.run_cases``: one batch; on a refusal, in halves, down to single configurations."""
    if not cases:
        return
    try:
        expected, got = _run_stateful(cases, directory)
        failure = None
    except RuntimeError as error:
        lines = [line for line in str(error).splitlines() if line.strip() and "Exception from" not in line]
        failure = f"plugin: {(lines or [''])[-1][:200]}"
    except Exception as error:  # irshape refuses it, or crashed
        failure = f"irshape refuses it: {type(error).__name__}: {error}"[:300]
    if failure is not None:
        if len(cases) > 1:
            half = len(cases) // 2
            _run_state_cases(cases[:half], directory, outcome)
            _run_state_cases(cases[half:], directory, outcome)
        elif failure.startswith("plugin"):
            outcome.refused.append(f"{cases[0].name}: {failure}")
            if _irshape_runs_state(cases[0], directory):
                outcome.run_though_refused.append(cases[0].name)
        else:
            outcome.irshape_refused.append(f"{cases[0].name}: {failure}")
        return
    for case in cases:
        problem = _state_mismatch(case, expected, got)
        if problem is None:
            outcome.agreed.append(case.name)
            _count_state_bits(case, expected, got, outcome)
        else:
            outcome.differ.append(f"{case.name}: {problem}")


@pytest.mark.parametrize("family", [f for f in drawers.families() if f != "state"])
def test_kernel_fuzz_misc(family: str, tmp_path: Path) -> None:
    run_family(drawers, family, tmp_path)


def test_kernel_fuzz_state(tmp_path: Path) -> None:
    """ReadValue/Assign over two inferences (this file's runner), as run_family judges."""
    outcome = Outcome()
    for seed in SEEDS:
        _run_state_cases(_stateful_cases(seed, COUNT), tmp_path, outcome)
    if REPORT:
        write_report("state", outcome)
    assert outcome.agreed, "no configuration of state ran"
    assert not outcome.differ and not outcome.irshape_refused, summary("state", outcome)
