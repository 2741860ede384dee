"""Where OpenVINO's evaluation of a shape subgraph fails, read_model fails with it (issue 14).

Two failures, found by experiment (docs/openvino-ir-reading.md §14):

* a value an op computes (not a Const node), read as a shape by ``evaluate_as_partial_shape``
  (Broadcast's target, Tile's repeats, Interpolate's sizes, AdaptiveAvgPool's output_shape,
  TopK's k, the backprop ops' output_shape), fails when a value or bound is below zero: 'Value
  for partial shape evaluation can't be lower than zero.'; the readers through bounds that
  check nothing (Reshape, Pad, Slice, StridedSlice) and the direct readers (Unsqueeze) read;
* a scatter (ScatterUpdate, ScatterElementsUpdate-3/12, ScatterNDUpdate-3/15) into a shape at
  an index out of range fails its reference, wherever its value or bounds are evaluated (also
  through an op that combines it with another value, unless OpenVINO gives up evaluating that
  value first), and in IR v10 (which folds it while reading) when every input is computed from
  Consts.

Each case is built with OpenVINO's Python API around a Const named ``the_const`` with a value
the API accepts, saved, and given the drawn value in its bytes (the API would reject it);
OpenVINO's ``read_model`` and irshape then give their verdicts, which must be the same: an
error with OpenVINO's message where it fails, the consumer's shape where it reads.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset8 as ov8
import openvino.opset11 as ov11
import openvino.opset12 as ov12
import openvino.opset15 as ov15
import pytest
from lxml import etree

import irshape
from irshape.dims import PartialShape, parse_partial_shape

from .conftest import STATS
from .ops_harness import read_back

SEED = 20261214


def _c(values: Any, name: str | None = None) -> ov.Node:
    node = ov1.constant(np.array(values, dtype=np.int64))
    if name is not None:
        node.set_friendly_name(name)
    return node


def _x(dims: list[Any]) -> ov.Node:
    return ov1.parameter(ov.PartialShape(dims), np.float32)


class Case:
    """A subgraph around ``the_const`` (built with ``placeholder``, saved with ``value``)."""

    def __init__(
        self,
        cid: str,
        build: Callable[[], ov.Node],
        value: list[Any],
        version: int = 11,
        dtype: Any = np.int64,
    ) -> None:
        self.cid, self.build, self.value, self.version, self.dtype = cid, build, value, version, dtype


def _saved(case: Case, folder: Path) -> Path:
    node = case.build()
    node.set_friendly_name("consumer")
    results = [ov1.result(node.output(i)) for i in range(node.get_output_size())]
    parameters: list[ov.Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.get_type_name() == "Parameter" and all(p is not current for p in parameters):
            parameters.append(current)
        stack.extend(v.get_node() for v in current.input_values())
    xml = folder / f"{case.cid}.xml"
    ov.save_model(ov.Model(results, parameters, case.cid), str(xml), compress_to_fp16=False)
    tree = etree.parse(str(xml))
    tree.getroot().set("version", str(case.version))
    (data,) = tree.xpath("//layer[@name='the_const']/data")
    offset, size = int(data.get("offset")), int(data.get("size"))
    stored = np.array(case.value, dtype=case.dtype).tobytes()
    assert len(stored) == size
    blob = bytearray(xml.with_suffix(".bin").read_bytes())
    blob[offset : offset + size] = stored
    xml.with_suffix(".bin").write_bytes(bytes(blob))
    tree.write(str(xml))
    return xml


def _disagreement(xml: Path, wider_ok: bool = False) -> str | None:
    """None when irshape's verdict is OpenVINO's: an error with its message where read_model
    fails, else no error and the consumer's shapes (or, ``wider_ok``, shapes that contain
    OpenVINO's: irshape folds no real division)."""
    try:
        expected: list[str] | None = [shape for shape, _ in read_back(xml)["consumer"]]
        rejection = None
    except Exception as exc:  # read_model raises RuntimeError and OpenVINO's own exceptions
        expected, rejection = None, str(exc).strip().splitlines()[-1]
    report = irshape.check_file(xml)
    errors = [d for d in report.errors if d.code not in ("IRS301", "IRS302")]
    if rejection is not None:
        if any(rejection in d.message for d in errors):
            return None
        return f"OpenVINO fails ({rejection}); irshape: {[d.message for d in errors]}"
    if errors:
        return f"OpenVINO reads {expected}; irshape: {[d.message for d in errors]}"
    (layer,) = [layer for layer in report.layers if layer.name == "consumer"]
    inferred = [str(s) for s in layer.outputs]
    if inferred == expected or (wider_ok and expected is not None and _contain(layer.outputs, expected)):
        return None
    return f"OpenVINO {expected}, irshape {inferred}"


def _contain(inferred: list[PartialShape], expected: list[str]) -> bool:
    """Does each inferred shape contain OpenVINO's (each dim's interval its dim's)?"""
    for ours, text in zip(inferred, expected, strict=True):
        theirs = parse_partial_shape(text.strip("[]"))
        if ours.dims is None:
            continue
        if theirs.dims is None or len(ours.dims) != len(theirs.dims):
            return False
        if any(not (o.lo <= t.lo and t.hi <= o.hi) for o, t in zip(ours.dims, theirs.dims, strict=True)):
            return False
    return True


# --- a computed value below zero, read as a shape ----------------------------------------------

_CHAINS = ["subtract", "shape_of", "bounds", "gather", "concat", "squeeze", "convert_u64"]
_CONSUMERS = [
    "Broadcast-1",
    "Broadcast-3",
    "Tile",
    "Interpolate-11",
    "AdaptiveAvgPool",
    "TopK",
    "ConvolutionBackpropData",
    "Reshape",
    "Pad",
    "StridedSlice",
    "Unsqueeze",
]


def _chain(kind: str, n: int, const: ov.Node) -> tuple[ov.Node, Callable[[int], int]]:
    """A computed vector of ``n`` elements of 1 (with ``const`` holding 1 each); and the Const
    value that makes an element ``v``."""
    if kind == "subtract":
        return ov1.subtract(_c([2] * n), const), lambda v: 2 - v
    if kind == "shape_of":
        return ov1.subtract(ov3.shape_of(_x([2] * n)), const), lambda v: 2 - v
    if kind == "bounds":  # [2..4] - k: bounds [2 - k, 4 - k]
        return ov1.subtract(ov3.shape_of(_x([ov.Dimension(2, 4)] * n)), const), lambda v: 2 - v
    if kind == "gather":
        return ov8.gather(const, _c(list(range(n))), _c(0)), lambda v: v
    if kind == "concat":
        return ov1.concat([const], 0), lambda v: v
    if kind == "squeeze":
        return ov1.squeeze(ov1.unsqueeze(const, _c([0])), _c([0])), lambda v: v
    # Convert to u64: -1 is 2^64 - 1, which evaluate_as_partial_shape reads as -1
    return ov1.convert(const, "u64"), lambda v: v


def _consumer(kind: str, n: int, value: ov.Node) -> ov.Node:
    if kind == "Broadcast-1":
        return ov1.broadcast(ov1.constant(np.float32(1.0)), value)
    if kind == "Broadcast-3":
        return ov3.broadcast(ov1.constant(np.float32(1.0)), value)
    if kind == "Tile":
        return ov1.tile(_x([2] * n), value)
    if kind == "Interpolate-11":
        return ov11.interpolate(_x([1] * n), value, "nearest", "sizes", axes=_c(list(range(n))))
    if kind == "AdaptiveAvgPool":
        return ov8.adaptive_avg_pool(_x([1, 1] + [5] * n), value)
    if kind == "TopK":
        return ov11.topk(_x([9]), ov1.squeeze(value, _c([0])), 0, "max", "value")
    if kind == "ConvolutionBackpropData":
        kernel = ov1.constant(np.ones([1, 1] + [1] * n, dtype=np.float32))
        data = _x([1, 1] + [3] * n)
        return ov1.convolution_backprop_data(
            data, kernel, [1] * n, value, [0] * n, [0] * n, [1] * n, "explicit"
        )
    if kind == "Reshape":
        return ov1.reshape(_x([1] * n), value, False)
    if kind == "Pad":
        return ov1.pad(_x([4] * n), value, value, "constant")
    if kind == "StridedSlice":
        return ov1.strided_slice(_x([9] * n), value, _c([9] * n), _c([1] * n), [0] * n, [0] * n)
    return ov1.unsqueeze(_x([5] * n), value)


def _negative_cases() -> list[Case]:
    rng = random.Random(SEED)
    cases = []
    for i in range(200):
        chain, consumer = rng.choice(_CHAINS), rng.choice(_CONSUMERS)
        n = 1 if consumer in ("TopK", "Unsqueeze", "Reshape") else rng.randint(1, 2)
        if chain == "convert_u64" and consumer in ("TopK", "Pad", "StridedSlice", "Unsqueeze", "Reshape"):
            chain = "subtract"  # (they take no u64 bounds this chain makes of a unary Convert)
        wanted = [rng.choice([-3, -1, 0, 1, 2, 5]) for _ in range(n)]

        def build(chain: str = chain, consumer: str = consumer, n: int = n) -> ov.Node:
            value, _ = _chain(chain, n, _c([1] * n, "the_const"))
            return _consumer(consumer, n, value)

        _, stored = _chain(chain, n, _c([1] * n))
        cases.append(Case(f"n{i:03d}_{chain}_{consumer}", build, [stored(v) for v in wanted]))
    return cases


NEGATIVE_CASES = _negative_cases()
STATS["evaluation failures: computed values below zero (test_evaluation_failures.py)"] = len(NEGATIVE_CASES)


@pytest.mark.parametrize("case", NEGATIVE_CASES, ids=lambda c: c.cid)
def test_a_computed_shape_value_below_zero_as_openvino_reads_it(case: Case, tmp_path: Path) -> None:
    problem = _disagreement(_saved(case, tmp_path))
    assert problem is None, f"{case.cid} {case.value}: {problem}"


# --- a scatter's index out of range ------------------------------------------------------------

_SCATTERS: dict[str, Callable[[ov.Node, ov.Node], ov.Node]] = {
    "ScatterUpdate": lambda data, index: ov3.scatter_update(data, index, _c([2]), _c(0)),
    "ScatterElementsUpdate-3": lambda data, index: ov3.scatter_elements_update(data, index, _c([2]), _c(0)),
    "ScatterElementsUpdate-12": lambda data, index: ov12.scatter_elements_update(
        data, index, _c([2]), _c(0), "max"
    ),
    "ScatterNDUpdate-4": lambda data, index: ov4.scatter_nd_update(
        data, ov1.unsqueeze(index, _c([1])), _c([2])
    ),
    "ScatterNDUpdate-15": lambda data, index: ov15.scatter_nd_update(
        data, ov1.unsqueeze(index, _c([1])), _c([2]), "max"
    ),
}
_DATA = ["const", "shape_of", "bounds"]
_READERS = ["Result", "Broadcast", "Reshape", "Unsqueeze", "Add"]


def _scatter_reader(kind: str, scattered: ov.Node) -> ov.Node:
    if kind == "Result":
        return ov1.relu(ov1.convert(scattered, "f32"))
    if kind == "Broadcast":
        return ov1.broadcast(ov1.constant(np.float32(1.0)), scattered)
    if kind == "Reshape":
        return ov1.reshape(_x([2, 2, 2]), scattered, False)
    if kind == "Unsqueeze":
        return ov1.unsqueeze(_x([1, 1]), ov8.gather(scattered, _c([0]), _c(0)))
    return ov1.add(ov1.convert(scattered, "f32"), _x([3]))  # its data only: nothing evaluates it


def _scatter_cases() -> list[Case]:
    rng = random.Random(SEED + 1)
    cases = []
    for i in range(150):
        op, data, reader = rng.choice(sorted(_SCATTERS)), rng.choice(_DATA), rng.choice(_READERS)
        index, version = rng.choice([-9, -4, -3, -1, 0, 1, 2, 3, 5]), rng.choice([10, 11])

        def build(op: str = op, data: str = data, reader: str = reader) -> ov.Node:
            if data == "const":
                into = _c([2, 2, 2])
            else:
                into = ov3.shape_of(_x([2, ov.Dimension(2, 4) if data == "bounds" else 2, 2]))
            return _scatter_reader(reader, _SCATTERS[op](into, _c([1], "the_const")))

        cases.append(Case(f"s{i:03d}_{op}_{data}_{reader}_v{version}", build, [index], version))
    return cases


SCATTER_CASES = _scatter_cases()
STATS["evaluation failures: scatter indices (test_evaluation_failures.py)"] = len(SCATTER_CASES)


@pytest.mark.parametrize("case", SCATTER_CASES, ids=lambda c: c.cid)
def test_a_scatter_index_out_of_range_as_openvino_evaluates_it(case: Case, tmp_path: Path) -> None:
    problem = _disagreement(_saved(case, tmp_path))
    assert problem is None, f"{case.cid} {case.value}: {problem}"


# A scatter's failure through an op that combines it with another value. OpenVINO evaluates the
# op's inputs in order and gives up at the first op it has no bounds of (a Sqrt of interval
# bounds), so a value before the scatter decides, one after it does not; a Parameter's data
# anywhere and nothing is evaluated. IR v10 folds a scatter of values computed from Consts.

_OTHERS: dict[str, Callable[[], ov.Node]] = {
    "const": lambda: _c([2, 2, 2]),
    "shape_of": lambda: ov3.shape_of(_x([2, 2, 2])),
    "shape_of_dynamic": lambda: ov3.shape_of(_x([2, -1, 2])),
    "divide_of_reals": lambda: ov1.convert(
        ov1.divide(ov1.convert(ov3.shape_of(_x([4, 4, 4])), "f32"), ov1.constant(np.float32(2.0))), "i64"
    ),
    "sqrt_of_interval_reals": lambda: ov1.convert(
        ov1.sqrt(ov1.convert(ov3.shape_of(_x([4, (2, 6), 4])), "f32")), "i64"
    ),
    "reduce_max_of_dynamic": lambda: ov1.broadcast(
        ov1.reduce_max(ov3.shape_of(_x([4, -1, 4])), _c([0]), True), _c([3])
    ),
    "floor_mod_of_dynamic": lambda: ov1.floor_mod(ov3.shape_of(_x([4, -1, 4])), _c([3, 3, 3])),
    "parameter_data": lambda: ov1.convert(ov1.reduce_max(_x([3]), _c([0]), True), "i64"),
    "computed_from_consts": lambda: ov1.add(_c([1, 1, 1]), _c([1, 1, 1])),
}
_MIXERS: dict[str, Callable[[ov.Node, ov.Node], ov.Node]] = {
    "add": ov1.add,
    "maximum": ov1.maximum,
    "concat": lambda a, b: ov1.strided_slice(ov1.concat([a, b], 0), _c([0]), _c([3]), _c([1]), [0], [0]),
}
_MIX_READERS: dict[str, Callable[[ov.Node], ov.Node]] = {
    "Broadcast": lambda v: ov1.broadcast(ov1.constant(np.float32(1.0)), v),
    "Tile": lambda v: ov1.tile(_x([1, 1, 1]), v),
    "Result": lambda v: ov1.relu(ov1.convert(v, "f32")),
}


def _mixed_scatter_cases() -> list[Case]:
    rng = random.Random(SEED + 3)
    cases = []
    for i in range(160):
        other, mixer = rng.choice(sorted(_OTHERS)), rng.choice(sorted(_MIXERS))
        op, reader, first = (
            rng.choice(sorted(_SCATTERS)),
            rng.choice(sorted(_MIX_READERS)),
            rng.random() < 0.5,
        )
        index, version = rng.choice([-4, -1, 1, 5]), rng.choice([10, 11, 11])
        if other == "divide_of_reals" and not first:  # its interval bounds: see the xfail below
            continue

        def build(
            op: str = op, other: str = other, mixer: str = mixer, reader: str = reader, first: bool = first
        ) -> ov.Node:
            data = _OTHERS["computed_from_consts"]() if _into_computed(op) else _c([2, 2, 2])
            scattered = _SCATTERS[op](data, _c([1], "the_const"))
            mixed = (
                _MIXERS[mixer](scattered, _OTHERS[other]())
                if first
                else _MIXERS[mixer](_OTHERS[other](), scattered)
            )
            return _MIX_READERS[reader](mixed)

        order = "scatter_first" if first else "scatter_second"
        cases.append(
            Case(f"m{i:03d}_{op}_{other}_{mixer}_{order}_{reader}_v{version}", build, [index], version)
        )
    return cases


def _into_computed(op: str) -> bool:
    """Two of the scatters write into a value computed from Consts (IR v10 folds it)."""
    return op in ("ScatterUpdate", "ScatterNDUpdate-15")


MIXED_SCATTER_CASES = _mixed_scatter_cases()
STATS["evaluation failures: a scatter combined with another value (test_evaluation_failures.py)"] = len(
    MIXED_SCATTER_CASES
)


@pytest.mark.parametrize("case", MIXED_SCATTER_CASES, ids=lambda c: c.cid)
def test_a_scatter_combined_with_another_value_as_openvino_evaluates_it(case: Case, tmp_path: Path) -> None:
    problem = _disagreement(_saved(case, tmp_path))
    assert problem is None, f"{case.cid} {case.value}: {problem}"


def test_a_scatter_after_a_real_division_of_interval_bounds(tmp_path: Path) -> None:
    """OpenVINO divides the interval bounds of ``[4,?,4]`` as reals (Divide's evaluate_lower and
    evaluate_upper) and goes on to the scatter, which fails; so does irshape (issue 24)."""

    def build() -> ov.Node:
        quotient = ov1.convert(
            ov1.divide(ov1.convert(ov3.shape_of(_x([4, -1, 4])), "f32"), ov1.constant(np.float32(2.0))), "i64"
        )
        scattered = _SCATTERS["ScatterUpdate"](_c([2, 2, 2]), _c([1], "the_const"))
        return ov1.broadcast(ov1.constant(np.float32(1.0)), ov1.add(quotient, scattered))

    assert _disagreement(_saved(Case("divide_then_scatter", build, [5]), tmp_path)) is None


# --- a Convert of a type's maximum ----------------------------------------------------------------
# Convert's bounds map an element at the input type's maximum to the output type's (past 16-bit
# integer types), and shape inference reads a Convert's value through its bounds: a u64
# 2^64 - 1 converted to i64 is INT64_MAX (a dim of ?), not -1; a u16 65535 stays 65535.

_SOURCES = {
    "u64": np.uint64,
    "u32": np.uint32,
    "i32": np.int32,
    "i64": np.int64,
    "u16": np.uint16,
    "u8": np.uint8,
}
_TARGETS = ["i64", "i32", "u64"]
_MAX_READERS = ["Broadcast-3", "Reshape", "Tile", "Unsqueeze", "StridedSlice", "Pad"]


def _max_case(i: int, rng: random.Random) -> Case:
    source, target, reader = rng.choice(sorted(_SOURCES)), rng.choice(_TARGETS), rng.choice(_MAX_READERS)
    dtype = _SOURCES[source]
    n = 1 if reader == "Unsqueeze" else 2
    top = int(np.iinfo(dtype).max)
    value = [rng.choice([top, top, top - 1, 1, 3]) for _ in range(n)]

    def build(target: str = target, reader: str = reader, n: int = n, dtype: Any = dtype) -> ov.Node:
        placeholder = np.full(n, 6 if reader == "Reshape" else 1, dtype=dtype)  # one the API builds
        const = ov1.constant(placeholder)
        const.set_friendly_name("the_const")
        converted = ov1.convert(const, target)
        if reader == "Broadcast-3":
            return ov3.broadcast(ov1.constant(np.float32(1.0)), converted)
        if reader == "Reshape":
            return ov1.reshape(_x([6] * n), converted, False)
        if reader == "Tile":
            return ov1.tile(_x([2] * n), converted)
        if reader == "StridedSlice":  # the end: a maximum slices to the end
            return ov1.strided_slice(_x([9] * n), _c([0] * n), converted, _c([1] * n), [0] * n, [0] * n)
        if reader == "Pad":
            return ov1.pad(_x([4] * n), converted, _c([0] * n), "constant")
        return ov1.unsqueeze(_x([2, 3]), converted)

    return Case(f"m{i:03d}_{source}_to_{target}_{reader}", build, value, dtype=dtype)


MAX_CASES = [_max_case(i, random.Random(SEED + 2 + i)) for i in range(150)]
STATS["evaluation failures: Convert of a type's maximum (test_evaluation_failures.py)"] = len(MAX_CASES)


@pytest.mark.parametrize("case", MAX_CASES, ids=lambda c: c.cid)
def test_a_converted_type_maximum_as_openvino_evaluates_it(case: Case, tmp_path: Path) -> None:
    problem = _disagreement(_saved(case, tmp_path))
    assert problem is None, f"{case.cid} {case.value}: {problem}"


def test_both_verdicts_are_drawn(tmp_path: Path) -> None:
    """The draws reach files OpenVINO reads and files it rejects, for both failures."""
    for cases in (NEGATIVE_CASES[:40], SCATTER_CASES[:40], MIXED_SCATTER_CASES[:40]):
        verdicts = set()
        for case in cases:
            xml = _saved(case, tmp_path)
            try:
                read_back(xml)
                verdicts.add("reads")
            except Exception:  # read_model's failure
                verdicts.add("fails")
        assert verdicts == {"reads", "fails"}
