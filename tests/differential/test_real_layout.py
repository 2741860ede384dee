"""Real values through the layout and indexing ops, values and bounds, against OpenVINO (issue 24,
item 1).

Converters move real tensors in shape subgraphs as they move integer ones: a scale reshaped,
concatenated, gathered, sliced, tiled or broadcast into Interpolate's scales; sizes converted to
f32, split and put back together. Each case is such a chain, drawn with a seed: a ShapeOf of a
Parameter whose dims are static, dynamic (``?``) or intervals, four of its dims converted to
bf16, f16, f32 or f64, half the time multiplied by a real Const (values that are not whole),
reshaped to one of five shapes, through the op under test, converted to i64, flattened and read
as a Broadcast's target. OpenVINO's reading of the saved file is the expectation, exactly: the
values on static inputs, the bounds on intervals (the default bound evaluators run the op on
the lower and on the upper bounds; Convert's own bounds in f64 too).

The ops: StridedSlice, Slice, Tile, Broadcast, Gather, Concat, Reshape, Squeeze, Unsqueeze,
Transpose, Split, VariadicSplit, Select, ScatterUpdate, ScatterElementsUpdate, ScatterNDUpdate
(into 1D data; any rank: test_real_rearrange.py), Pad (every mode, crops too) and Convert
to another real type; the same chains in i64 check that integers move alike.

What the cases found, by experiment (irshape/shapes/bounds.py ``_MOVES_REALS``): every one of
these ops moves f16, f32, f64 and bf16 elements, values and bounds, but Gather,
ScatterElementsUpdate and ScatterNDUpdate, which evaluate no f64 (``?``); Convert between real
types converts the bounds (a type's maximum the other's). Not drawn: a Multiply in f64 on
inputs that are not static (OpenVINO reads memory nothing wrote: test_real_values.py), the
scatters' reductions (they compute), outputs without elements (OpenVINO's Broadcast crashes on
a folded empty target: ``free(): invalid next size``), and outputs of more than 48 elements
(irshape keeps values of up to 64).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset7 as ov7
import openvino.opset8 as ov8
import openvino.opset11 as ov11
import openvino.opset12 as ov12
import openvino.opset15 as ov15
import pytest
from lxml import etree

import irshape

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    as_broadcast_target,
    batches,
    buildable,
    draw_cases,
    openvino_reads,
    params,
    real_constant,
)

SEED = 20261128
PER_KIND = 6
PER_KIND_SCALES = 2
REALS = ("f16", "f32", "f64", "bf16")
KINDS = (*REALS, "i64")  # and integers, moved by the same code
STYLES = ("static", "interval", "dynamic")
OPS = (
    "StridedSlice",
    "Slice",
    "Tile",
    "Broadcast",
    "Gather",
    "Concat",
    "Reshape",
    "Squeeze",
    "Unsqueeze",
    "Transpose",
    "Split",
    "VariadicSplit",
    "Select",
    "ScatterUpdate",
    "ScatterElementsUpdate",
    "ScatterNDUpdate",
    "Convert",
    "Pad",
)
# the ops whose evaluate takes no f64 (OpenVINO's answer is ?)
NO_F64 = frozenset({"Gather", "ScatterElementsUpdate", "ScatterNDUpdate"})
_SHAPES = ([4], [2, 2], [1, 4], [4, 1], [2, 1, 2])
_MAX_ELEMENTS = 48


def _i(values: list[int] | int) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int64))


def _real(values: list[float], real: str, rng: random.Random) -> ov.Node:
    """A Const of the type (i64: the values truncated). bf16: half the time a Const of the bf16
    whose bits are the f32's upper half, half the time an f32 Const converted (OpenVINO folds
    it, with its own rounding)."""
    if real == "bf16" and rng.random() < 0.5:
        return ov1.convert(ov1.constant(np.array(values, dtype=np.float32)), "bf16")
    return real_constant(values, real)


def _dims(rng: random.Random, style: str) -> list[ov.Dimension]:
    dims = [ov.Dimension(1), ov.Dimension(3)]
    for _ in range(4):
        if style == "static":
            dims.append(ov.Dimension(rng.randint(1, 600)))
        elif style == "dynamic":
            dims.append(ov.Dimension() if rng.random() < 0.5 else ov.Dimension(rng.randint(1, 600)))
        else:
            lo = rng.randint(1, 300)
            dims.append(
                ov.Dimension(lo, lo + rng.randint(1, 300)) if rng.random() < 0.8 else ov.Dimension(lo, -1)
            )
    return dims


def _strided_slice(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    begin = [rng.randint(-n - 2, n + 1) for n in shape]
    end = [rng.randint(-n - 2, n + 2) for n in shape]
    strides = [rng.choice([1, 1, 2, -1]) for _ in shape]

    def mask(p: float) -> list[int]:
        return [int(rng.random() < p) for _ in shape]

    new_axis = mask(0.15)
    shrink = [0 if n else s for n, s in zip(new_axis, mask(0.2), strict=True)]
    if any(shrink):  # a shrunk axis takes the element at begin: in range, stride 1
        for axis, s in enumerate(shrink):
            if s and axis < len(shape):
                begin[axis], strides[axis] = rng.randrange(-shape[axis], shape[axis]), 1
    ellipsis = [0] * len(shape)
    plain = [axis for axis in range(len(shape)) if not new_axis[axis] and not shrink[axis]]
    if plain and rng.random() < 0.15:  # (an ellipsis on a new axis: OpenVINO reads garbage)
        ellipsis[rng.choice(plain)] = 1
    # (a shrunk axis with its begin masked: OpenVINO reads garbage)
    begin_mask = [0 if s else m for s, m in zip(shrink, mask(0.3), strict=True)]
    return ov1.strided_slice(
        x, _i(begin), _i(end), _i(strides), begin_mask, mask(0.3), new_axis, shrink, ellipsis
    )


def _slice(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    axes = rng.sample(range(len(shape)), rng.randint(1, len(shape)))
    starts = [rng.randint(-shape[a] - 1, shape[a]) for a in axes]
    stops = [rng.randint(-shape[a] - 1, shape[a] + 1) for a in axes]
    steps = [rng.choice([1, 1, 2, -1, -2]) for _ in axes]
    negative = [a - len(shape) if rng.random() < 0.3 else a for a in axes]
    return ov8.slice(x, _i(starts), _i(stops), _i(steps), _i(negative))


def _tile(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    count = rng.choice([len(shape) - 1, len(shape), len(shape) + 1]) or 1
    return ov1.tile(x, _i([rng.choice([1, 1, 2, 3]) for _ in range(count)]))


def _broadcast(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    mode = rng.choice(["numpy", "bidirectional", "explicit", "numpy1"])
    if mode == "explicit":  # the data's axes placed in order among new ones
        rank = len(shape) + rng.randint(0, 2)
        axes = sorted(rng.sample(range(rank), len(shape)))
        target = [rng.choice([1, 2, 3]) for _ in range(rank)]
        for axis, n in zip(axes, shape, strict=True):
            target[axis] = n
        return ov3.broadcast(x, _i(target), _i(axes), "explicit")
    target = [rng.choice([n, 2, 3]) if n == 1 else n for n in shape]
    if mode == "bidirectional":
        target = [1 if rng.random() < 0.3 else n for n in target]
    if rng.random() < 0.5:
        target = [rng.choice([1, 2]), *target]
    if mode == "numpy1":
        return ov1.broadcast(x, _i(target))
    return ov3.broadcast(x, _i(target), mode)


def _gather(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    axis = rng.randrange(len(shape))
    n = shape[axis]
    indices = [rng.randint(-n, n - 1) for _ in range(rng.choice([1, 2, 3]))]
    version = rng.choice(["gather1", "gather7", "gather8", "batch"])
    if version == "gather1":
        return ov1.gather(x, _i([i % n for i in indices]), _i(axis))
    if version == "gather7":
        return ov7.gather(x, _i([i % n for i in indices]), _i(axis))
    if version == "batch" and len(shape) > 1 and axis > 0:  # batch_dims 1: per batch its indices
        batch = [[rng.randint(-n, n - 1) for _ in range(2)] for _ in range(shape[0])]
        return ov8.gather(x, _i(batch), _i(axis), 1)
    return ov8.gather(x, _i(indices), _i(axis - len(shape) if rng.random() < 0.3 else axis))


def _concat(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    axis = rng.randrange(len(shape))
    other = list(shape)
    other[axis] = rng.choice([1, 2])
    numbers = [round(rng.uniform(0.0, 20.0), rng.choice([0, 1, 2])) for _ in range(int(np.prod(other)))]
    # a 1-D Const reshaped (irshape reads the value of 0-D and 1-D real Consts only)
    part = ov1.reshape(_real(numbers, real, rng), _i(other), False)
    if rng.random() < 0.3:  # or the sizes themselves, once more
        part = x
    parts = [x, part] if rng.random() < 0.5 else [part, x]
    return ov1.concat(parts, axis - len(shape) if rng.random() < 0.3 else axis)


def _reshape(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    zero = rng.random() < 0.3
    target = rng.choice([[4], [2, 2], [4, 1], [-1], [1, -1], [2, -1, 1]])
    if zero:
        target = [0, *target[1:]] if target[0] == shape[0] else target
    return ov1.reshape(x, _i(target), zero)


def _squeeze(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    ones = [i - len(shape) if rng.random() < 0.3 else i for i, n in enumerate(shape) if n == 1]
    how = rng.choice(["axes", "all", "squeeze15"])
    if how == "axes" and ones:
        return ov1.squeeze(x, _i(rng.sample(ones, rng.randint(1, len(ones)))))
    if how == "squeeze15":
        return ov15.squeeze(x, _i(ones[:1]), allow_axis_skip=False) if ones else ov15.squeeze(x)
    return ov1.squeeze(x)


def _unsqueeze(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    rank = len(shape)
    count = rng.choice([1, 1, 2])
    return ov1.unsqueeze(x, _i(rng.sample(range(-rank - count, rank + count), count)))


def _transpose(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    order = list(range(len(shape)))
    rng.shuffle(order)
    return ov1.transpose(x, _i(order if rng.random() < 0.9 else []))


def _split(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    axis = rng.randrange(len(shape))
    parts = rng.choice([k for k in (1, 2, 4) if shape[axis] % k == 0])
    split = ov1.split(x, _i(axis - len(shape) if rng.random() < 0.3 else axis), parts)
    order = rng.sample(range(parts), parts)
    if parts == 1:
        return split
    return ov1.concat([split.output(i) for i in order], axis)  # the parts put back in another order


def _variadic_split(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    axis = rng.randrange(len(shape))
    n = shape[axis]
    first = rng.randint(1, n)
    lengths = rng.choice([[first, n - first], [first, -1], [-1, n - first]])
    split = ov1.variadic_split(x, _i(axis), _i(lengths))
    outputs = [split.output(i) for i in range(2) if split.get_output_partial_shape(i)[axis] != 0]
    return ov1.concat(outputs[::-1], axis)


def _numbers(rng: random.Random, count: int) -> list[float]:
    return [round(rng.uniform(0.0, 40.0), rng.choice([0, 1, 2])) for _ in range(count)]


def _reals(rng: random.Random, shape: list[int], real: str) -> ov.Node:
    """A real Const of ``shape`` (a 1D one reshaped)."""
    return ov1.reshape(_real(_numbers(rng, int(np.prod(shape))), real, rng), _i(shape), False)


def _select(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    cond_shape = [n if rng.random() < 0.5 else 1 for n in shape][rng.randrange(len(shape) + 1) :]
    cond = ov1.constant(np.array(rng.choices([True, False], k=int(np.prod(cond_shape)))).reshape(cond_shape))
    other = _reals(rng, [n if rng.random() < 0.7 else 1 for n in shape], real)
    return ov1.select(cond, x, other) if rng.random() < 0.5 else ov1.select(cond, other, x)


def _scatter_update(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    axis = rng.randrange(len(shape))
    indices = rng.choices(range(shape[axis]), k=rng.randint(1, shape[axis]))  # repeats: the last
    updates = [*shape[:axis], len(indices), *shape[axis + 1 :]]
    return ov3.scatter_update(x, _i(indices), _reals(rng, updates, real), _i(axis))


def _scatter_elements_update(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    axis = rng.randrange(len(shape))
    lengths = [rng.randint(1, n) for n in shape]
    indices = np.array([rng.randrange(-shape[axis], shape[axis]) for _ in range(int(np.prod(lengths)))])
    version = ov12.scatter_elements_update if rng.random() < 0.5 else ov3.scatter_elements_update
    return version(x, ov1.constant(indices.reshape(lengths)), _reals(rng, lengths, real), _i(axis))


def _scatter_nd_update(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    depth = 1
    count = rng.randint(1, 3)
    indices = [[rng.randrange(n) for n in shape[:depth]] for _ in range(count)]
    return ov4.scatter_nd_update(x, _i(indices), _reals(rng, [count, *shape[depth:]], real))


def _convert(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    """To another real type (an f16's range is narrow: sizes up to 900 times 10.1 fit it)."""
    return ov1.convert(x, rng.choice([t for t in REALS if t != real] or ["f32"]))


def _pad(rng: random.Random, x: ov.Node, shape: list[int], real: str) -> ov.Node:
    """Pad-1 or -12 in each mode, pads from -1 (a crop) to what the mode allows."""
    mode = rng.choice(["constant", "constant", "edge", "reflect", "symmetric"])

    def pads() -> list[int]:
        most = {"reflect": lambda n: n - 1, "symmetric": lambda n: n}.get(mode, lambda n: 2)
        return [rng.randint(-1 if n > 1 else 0, max(0, min(2, most(n)))) for n in shape]

    begin, end = pads(), pads()
    version = ov12.pad if rng.random() < 0.5 else ov1.pad
    if mode == "constant" and rng.random() < 0.7:
        value = ov1.squeeze(_real(_numbers(rng, 1), real, rng), _i([0]))
        return version(x, _i(begin), _i(end), mode, value)
    return version(x, _i(begin), _i(end), mode)


_OPS: dict[str, Callable[[random.Random, ov.Node, list[int], str], ov.Node]] = {
    "StridedSlice": _strided_slice,
    "Slice": _slice,
    "Tile": _tile,
    "Broadcast": _broadcast,
    "Gather": _gather,
    "Concat": _concat,
    "Reshape": _reshape,
    "Squeeze": _squeeze,
    "Unsqueeze": _unsqueeze,
    "Transpose": _transpose,
    "Split": _split,
    "VariadicSplit": _variadic_split,
    "Select": _select,
    "ScatterUpdate": _scatter_update,
    "ScatterElementsUpdate": _scatter_elements_update,
    "ScatterNDUpdate": _scatter_nd_update,
    "Convert": _convert,
    "Pad": _pad,
}


def _build(seed: int, op: str, real: str, style: str, into_scales: bool = False) -> ov.Node:
    rng = random.Random(seed)
    data = ov1.parameter(ov.PartialShape(_dims(rng, style)), np.float32)
    shape_of = ov3.shape_of(data, rng.choice(["i64", "i64", "i32"]))  # (an unbounded i32 is INT32_MAX)
    x = ov1.convert(ov8.gather(shape_of, _i([2, 3, 4, 5]), _i(0)), real)
    if into_scales:  # scales of a few units: a size times 0.05 or so
        x = ov1.multiply(x, _real([rng.choice([0.05, 0.1, 0.03, 0.25]) for _ in range(4)], real, rng))
    elif real != "i64" and (real != "f64" or style == "static") and rng.random() < 0.5:
        scales = [rng.choice([0.5, 1.25, 1.5, 0.3, 2.0, 0.7, 2.5, 10.1]) for _ in range(4)]
        x = ov1.multiply(x, _real(scales, real, rng))
    # the scatters into 1D data here (into data of any rank: test_real_rearrange.py)
    shape = [4] if op.startswith("Scatter") else list(rng.choice(_SHAPES))
    if shape != [4]:
        x = ov1.reshape(x, _i(shape), False)
    moved = _OPS[op](rng, x, shape, real)
    out = moved.get_output_partial_shape(0)
    count = int(np.prod([d.get_length() for d in out])) if out.is_static else 0
    if not 0 < count <= _MAX_ELEMENTS:
        raise ValueError("an output without elements, or too large a one")
    if into_scales:  # the first two elements as Interpolate's scales, read as reals
        scales = ov8.slice(ov1.reshape(moved, _i([-1]), False), _i([0]), _i([2]), _i([1]))
        image = ov1.parameter(ov.PartialShape([1, 3, 8, 8]), np.float32)
        return ov11.interpolate(image, scales, "nearest", "scales", axes=_i([2, 3]))
    return as_broadcast_target(moved)


def _cases() -> list[OpCase]:
    keys = [(op, real, style) for op in OPS for real in KINDS for style in STYLES]
    return draw_cases("rl", keys, PER_KIND, SEED, _build)


def _scales_cases() -> list[OpCase]:
    """The same chains read as Interpolate-11's scales (reals read as they are: f16, f32, bf16;
    their bounds give no scales, so interval and dynamic inputs leave the resized dims ?)."""
    keys = [(op, real, style) for op in OPS for real in ("f16", "f32", "bf16") for style in STYLES]
    return draw_cases("rs", keys, PER_KIND_SCALES, SEED + 1, functools.partial(_build, into_scales=True))


CASES = _cases()
BATCHES = batches(CASES)
STATS["reals through layout and indexing ops, exact (test_real_layout.py)"] = len(CASES)
SCALES_CASES = _scales_cases()
SCALES_BATCHES = batches(SCALES_CASES)
STATS["...read as Interpolate's scales (test_real_layout.py)"] = len(SCALES_CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_real_layout_is_openvinos(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"real_layout{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


@pytest.mark.parametrize(("index", "case"), params(SCALES_BATCHES))
def test_reals_moved_into_scales_are_openvinos(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"real_scales{index}", SCALES_BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_the_cases_fold_and_bound(ops_runner: OpsBatchRunner) -> None:
    # the comparison above compares folded values and bounds, not two ?s: OpenVINO's targets are
    # static on static inputs (but Gather's in f64: it evaluates no f64), and have intervals on
    # interval inputs, for every op
    expected: dict[str, str] = {}
    for index, batch in enumerate(BATCHES):
        run = ops_runner.ops_batch(f"real_layout{index}", batch)
        expected |= {case.cid: run.expected[case.cid][0][0] for case in batch}
    for op in OPS:
        for real in KINDS:
            static = [c for c in CASES if c.op == op and c.tags == (real, "static")]
            folded = [c for c in static if "?" not in expected[c.cid]]
            if op in NO_F64 and real == "f64":
                assert not folded
            else:
                assert len(folded) == len(static) == PER_KIND, (op, real)
            bounded = [
                c for c in CASES if c.op == op and c.tags == (real, "interval") and ".." in expected[c.cid]
            ]
            assert bool(bounded) == (op not in NO_F64 or real != "f64"), (op, real)


# --- a scatter's index out of range: OpenVINO's evaluation fails, for reals as for integers -------


def _out_of_range_scatter(tmp_path: Path, op: str, real: str) -> Path:
    """Sizes converted to ``real``, an update scattered at index 5 of 2, as Broadcast's target
    (built at index 1: the builder evaluates it; the index written into the .bin after)."""
    data = ov1.parameter(ov.PartialShape([1, 3, 20, 30]), np.float32)
    x = ov1.convert(ov8.gather(ov3.shape_of(data), _i([2, 3]), _i(0)), real)
    update = real_constant([7.0], real)
    index = _i([[1]] if op == "ScatterNDUpdate" else [1])
    index.set_friendly_name("index")
    if op == "ScatterUpdate":
        scattered = ov3.scatter_update(x, index, update, _i(0))
    elif op == "ScatterElementsUpdate":
        scattered = ov12.scatter_elements_update(x, index, update, _i(0))
    else:
        scattered = ov4.scatter_nd_update(x, index, update)
    target = ov3.broadcast(ov1.constant(np.float32(1.0)), ov1.convert(scattered, "i64"))
    target.set_friendly_name("target")
    xml = tmp_path / f"{op}_{real}.xml"
    ov.save_model(ov.Model([ov1.result(target)], [data]), str(xml), compress_to_fp16=False)
    (layer,) = etree.parse(str(xml)).xpath("//layer[@name='index']")
    offset = int(layer.find("data").get("offset"))
    weights = bytearray(xml.with_suffix(".bin").read_bytes())
    weights[offset : offset + 8] = np.int64(5).tobytes()
    xml.with_suffix(".bin").write_bytes(bytes(weights))
    return xml


@pytest.mark.parametrize("real", [*REALS, "i64"])
@pytest.mark.parametrize("op", ["ScatterUpdate", "ScatterElementsUpdate", "ScatterNDUpdate"])
def test_a_scatter_out_of_range_fails_as_openvino_fails(tmp_path: Path, op: str, real: str) -> None:
    # OpenVINO fails reading the file where it evaluates the scatter (every type but f64 for
    # ScatterElementsUpdate and ScatterNDUpdate, which it does not evaluate); irshape then
    # reports IRS214 on the Broadcast, and nothing where OpenVINO reads the file
    xml = _out_of_range_scatter(tmp_path, op, real)
    fails = openvino_reads(xml) is not None
    assert fails == (real != "f64" or op == "ScatterUpdate")
    codes = [d.code for d in irshape.check_file(xml).errors if d.layer_name == "target"]
    assert codes == (["IRS214"] if fails else [])


def test_the_scales_fold(ops_runner: OpsBatchRunner) -> None:
    # on static inputs OpenVINO's resized dims are static: the scales were folded
    static = 0
    for index, batch in enumerate(SCALES_BATCHES):
        run = ops_runner.ops_batch(f"real_scales{index}", batch)
        for case in batch:
            if case.tags[1] == "static":
                assert "?" not in run.expected[case.cid][0][0], case.cid
                static += 1
    assert static == len(OPS) * 3 * PER_KIND_SCALES


# --- Range of reals: its length, and its values ------------------------------------------------

RANGE_TYPES = ("f32", "f16", "bf16", "f64", "i64", "i32")
PER_RANGE_KIND = 10


def _range_input(rng: random.Random, sizes: ov.Node, number: float, real: str) -> ov.Node:
    """A scalar of ``real``: a Const, or one of the sizes converted and scaled."""
    if rng.random() < 0.5:
        return ov1.squeeze(real_constant([number], real), _i([0]))
    size = ov1.convert(ov8.gather(sizes, _i(rng.randrange(2)), _i(0)), real)
    if real[0] == "i":
        return size
    return ov1.multiply(size, ov1.squeeze(real_constant([rng.choice([0.1, 0.25, 0.3, 0.5])], real), _i([0])))


def _build_range(seed: int, real: str, style: str) -> ov.Node:
    """Range-1 (of one type) or Range-4 (to a drawn output type) of drawn reals: the Range itself
    (its length), or its first elements converted to i64 as a Broadcast's target (its values)."""
    rng = random.Random(seed)
    data = ov1.parameter(ov.PartialShape(_dims(rng, style)[:4]), np.float32)
    sizes = ov8.gather(ov3.shape_of(data), _i([2, 3]), _i(0))
    whole = real[0] == "i"
    start = rng.randint(-5, 5) if whole else round(rng.uniform(-5, 5), rng.choice([0, 1, 2]))
    step = rng.choice([-1, 1]) * (
        rng.randint(1, 3) if whole else round(rng.uniform(0.2, 3.0), rng.choice([1, 2]))
    )
    stop = start + step * rng.uniform(0, 8)
    stop = round(stop) if whole else round(stop, 2)
    inputs = [_range_input(rng, sizes, v, real) for v in (start, stop, step)]
    if rng.random() < 0.5:
        node = ov1.range(*inputs)
    else:
        node = ov12.range(*inputs, rng.choice(["f32", "f16", "bf16", "f64", "i64", "i32"]))  # Range-4
    if rng.random() < 0.5:
        return node
    length = node.get_output_partial_shape(0)[0]
    if not length.is_static or not 0 < length.get_length() <= 8:
        raise ValueError("no values to read")
    return ov3.broadcast(ov1.constant(np.float32(1.0)), ov1.convert(node, "i64"))


def _range_cases() -> list[OpCase]:
    rng = random.Random(SEED + 2)
    cases: list[OpCase] = []
    for real in RANGE_TYPES:
        for style in STYLES:
            drawn = 0
            while drawn < PER_RANGE_KIND:
                seed = rng.randrange(2**32)

                def build(seed: int = seed, real: str = real, style: str = style) -> ov.Node:
                    return _build_range(seed, real, style)

                case = OpCase(f"rr{len(cases):04d}", "Range", build, (real, style))
                if buildable(case):
                    cases.append(case)
                    drawn += 1
    return cases


RANGE_CASES = _range_cases()
RANGE_BATCHES = batches(RANGE_CASES)
STATS["Range of reals, its length and values (test_real_layout.py)"] = len(RANGE_CASES)


@pytest.mark.parametrize(("index", "case"), params(RANGE_BATCHES))
def test_range_of_reals_is_openvinos(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"real_range{index}", RANGE_BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


@pytest.mark.parametrize("port", [0, 1, 2])
@pytest.mark.parametrize("number", [math.nan, math.inf])
def test_a_range_of_nan_or_infinity_is_rejected(tmp_path: Path, port: int, number: float) -> None:
    # read_model: "'start' cannot be nan or infinite." (the step: "cannot be zero, nan, or
    # infinite."); irshape: an error on the Range
    numbers = [0.0, 5.0, 1.0]
    consts = [ov1.constant(np.array(v, dtype=np.float32)) for v in numbers]
    consts[port].set_friendly_name("edited")
    node = ov12.range(*consts, "f32")  # Range-4
    node.set_friendly_name("range")
    xml = tmp_path / "range.xml"
    model = ov.Model([ov1.result(node)], [ov1.parameter([1], np.float32)])
    ov.save_model(model, str(xml), compress_to_fp16=False)
    (layer,) = etree.parse(str(xml)).xpath("//layer[@name='edited']")
    offset = int(layer.find("data").get("offset"))
    weights = bytearray(xml.with_suffix(".bin").read_bytes())
    weights[offset : offset + 4] = np.float32(number).tobytes()
    xml.with_suffix(".bin").write_bytes(bytes(weights))
    message = openvino_reads(xml)
    assert message is not None
    errors = [d for d in irshape.check_file(xml).errors if d.layer_name == "range"]
    assert [d.code for d in errors] == ["IRS214"]
    assert "cannot be" in errors[0].message
