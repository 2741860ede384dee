"""Real Consts of rank 2 or more as values where a value input reaches them, against OpenVINO
(issue 24, item 1).

irshape reads the value of a real Const of rank 2 or more (a weight, a bias: read for every
layer they feed, their values would make each layer a check of its own) only where a value input
reaches it (``check/model.py`` ``_refolded``, ``check/sources.py`` ``read_reals``). Each case is
such a chain, drawn with a seed: a real Const of rank 2 to 4 (f16, f32, f64, bf16, or an f32
Const converted to bf16), through one to three ops that move or compute its elements (Reshape,
Transpose, Gather, Unsqueeze, Squeeze, Concat, Slice, Convert to another real type, Multiply by
a Parameter's dims converted, ReduceMax), converted to i64 as a Broadcast's target. Its
Parameter is static or has intervals (then the target has bounds). OpenVINO's reading of the
saved file is the expectation, exactly; and a weight that reaches no value input is not read.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset7 as ov7
import openvino.opset8 as ov8
import pytest

import irshape
from irshape.check import sources

from .conftest import STATS
from .ops_harness import OpCase, OpsBatchRunner, as_broadcast_target, batches, draw_cases, params

SEED = 20261130
PER_KIND = 16
KINDS = ("f16", "f32", "f64", "bf16", "bf16 from f32")
STYLES = ("static", "interval")
_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _i(values: list[int] | int) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int64))


def _weight(rng: random.Random, kind: str) -> ov.Node:
    """A real Const of rank 2 to 4 and 2 to 16 elements, each 1 or more."""
    shape = rng.choice([[2, 2], [1, 4], [4, 1], [2, 3], [3, 1, 2], [2, 2, 2], [1, 2, 1, 2], [4, 4]])
    numbers = np.array(
        [round(rng.uniform(1.0, 40.0), rng.choice([0, 1, 2])) for _ in range(int(np.prod(shape)))]
    )
    if kind == "bf16 from f32":
        return ov1.convert(ov1.constant(numbers.astype(np.float32).reshape(shape)), "bf16")
    if kind == "bf16":  # the upper halves of the f32 bits (numpy has no bf16)
        tensor = ov.Tensor(ov.Type.bf16, ov.Shape(shape))
        tensor.data.view(np.uint16)[:] = (numbers.astype(np.float32).view(np.uint32) >> 16).reshape(shape)
        return ov.op.Constant(tensor)
    return ov1.constant(numbers.astype(_DTYPES[kind]).reshape(shape))


def _shape(node: ov.Node) -> list[int]:
    return [d.get_length() for d in node.get_output_partial_shape(0)]


def _reshape(rng: random.Random, x: ov.Node, sizes: ov.Node) -> ov.Node:
    count = int(np.prod(_shape(x)))
    return ov1.reshape(x, _i(rng.choice([[count], [1, count], [count, 1], [-1]])), False)


def _transpose(rng: random.Random, x: ov.Node, sizes: ov.Node) -> ov.Node:
    order = list(range(len(_shape(x))))
    rng.shuffle(order)
    return ov1.transpose(x, _i(order))


def _gather(rng: random.Random, x: ov.Node, sizes: ov.Node) -> ov.Node:
    if x.get_output_element_type(0).get_type_name() == "f64":
        return x  # (Gather evaluates no f64)
    shape = _shape(x)
    axis = rng.randrange(len(shape))
    indices = [rng.randrange(shape[axis]) for _ in range(rng.randint(1, 3))]
    return ov8.gather(x, _i(indices), _i(axis))


def _unsqueeze(rng: random.Random, x: ov.Node, sizes: ov.Node) -> ov.Node:
    return ov1.unsqueeze(x, _i(rng.randrange(len(_shape(x)) + 1)))


def _squeeze(rng: random.Random, x: ov.Node, sizes: ov.Node) -> ov.Node:
    return ov1.squeeze(x)


def _concat(rng: random.Random, x: ov.Node, sizes: ov.Node) -> ov.Node:
    return ov1.concat([x, x], rng.randrange(len(_shape(x))))


def _slice(rng: random.Random, x: ov.Node, sizes: ov.Node) -> ov.Node:
    shape = _shape(x)
    axis = rng.randrange(len(shape))
    start = rng.randrange(shape[axis])
    return ov8.slice(x, _i([start]), _i([shape[axis]]), _i([1]), _i([axis]))


def _convert(rng: random.Random, x: ov.Node, sizes: ov.Node) -> ov.Node:
    return ov1.convert(x, rng.choice(["f32", "f16", "bf16", "f64"]))


def _multiply(rng: random.Random, x: ov.Node, sizes: ov.Node) -> ov.Node:
    """By one of the Parameter's dims (1 to 9), converted to the weight's type: bounds on an
    interval (f64 gives none: OpenVINO's f64 arithmetic on bounds reads memory nothing wrote)."""
    real = x.get_output_element_type(0).get_type_name()
    if real == "f64":
        return x
    return ov1.multiply(x, ov1.convert(ov8.gather(sizes, _i([rng.randrange(2)]), _i(0)), real))


def _reduce_max(rng: random.Random, x: ov.Node, sizes: ov.Node) -> ov.Node:
    if x.get_output_element_type(0).get_type_name() == "f64":
        return x  # (ReduceMax evaluates no f64)
    return ov1.reduce_max(x, _i(rng.randrange(len(_shape(x)))), rng.random() < 0.5)


_OPS: dict[str, Callable[[random.Random, ov.Node, ov.Node], ov.Node]] = {
    "Reshape": _reshape,
    "Transpose": _transpose,
    "Gather": _gather,
    "Unsqueeze": _unsqueeze,
    "Squeeze": _squeeze,
    "Concat": _concat,
    "Slice": _slice,
    "Convert": _convert,
    "Multiply": _multiply,
    "ReduceMax": _reduce_max,
}


def _build(seed: int, kind: str, style: str) -> ov.Node:
    rng = random.Random(seed)
    dims = [ov.Dimension(1), ov.Dimension(3)]
    for _ in range(2):
        n = rng.randint(1, 9)
        dims.append(ov.Dimension(n) if style == "static" else ov.Dimension(n, n + rng.randint(1, 5)))
    data = ov1.parameter(ov.PartialShape(dims), np.float32)
    sizes = ov8.gather(ov3.shape_of(data), _i([2, 3]), _i(0))
    x = _weight(rng, kind)
    for op in rng.sample(list(_OPS), rng.randint(1, 3)):
        x = _OPS[op](rng, x, sizes)
    count = int(np.prod(_shape(x)))
    if not 0 < count <= 48:
        raise ValueError("an output without elements, or too large a one")
    return as_broadcast_target(x)


def _cases() -> list[OpCase]:
    keys = [("Const", kind, style) for kind in KINDS for style in STYLES]
    return draw_cases("rw", keys, PER_KIND, SEED, lambda seed, _op, kind, style: _build(seed, kind, style))


CASES = _cases()
BATCHES = batches(CASES)
STATS["real Consts of rank >= 2 reaching a value input (test_real_weights.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_real_weights_reaching_a_value_are_openvinos(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    outcome = ops_runner.ops_batch(f"real_weights{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_the_cases_fold(ops_runner: OpsBatchRunner) -> None:
    # every static case's target is static in OpenVINO (the weight's values were folded), and
    # an interval case has bounds where it multiplies by a dim
    for index, batch in enumerate(BATCHES):
        run = ops_runner.ops_batch(f"real_weights{index}", batch)
        for case in batch:
            if case.tags[1] == "static":
                assert "?" not in run.expected[case.cid][0][0], case.cid
    interval = [c for c in CASES if c.tags[1] == "interval"]
    expected = {
        c.cid: ops_runner.ops_batch(f"real_weights{i}", b).expected[c.cid][0][0]
        for i, b in enumerate(BATCHES)
        for c in b
    }
    assert any(".." in expected[c.cid] for c in interval)


def test_weights_reaching_no_value_input_are_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a bias added to data, a small f16 weight decompressed into a MatMul: not read; a 2-D
    # Const reshaped and converted into a Broadcast's target: read, once
    data = ov1.parameter([1, 4, 2, 2], np.float32)
    bias = ov1.add(data, ov1.constant(np.full([1, 4, 1, 1], 0.5, np.float32)))
    weight = ov1.convert(ov1.constant(np.ones([2, 2], np.float16)), "f32")
    product = ov1.matmul(bias, weight, False, False)
    table = ov1.constant(np.array([[2.0, 3.0], [4.0, 5.0]], np.float32))
    table.set_friendly_name("table")
    target = ov1.convert(ov1.reshape(table, _i([-1]), False), "i64")
    broadcast = ov3.broadcast(ov1.constant(np.float32(1.0)), target)
    xml = tmp_path / "weights.xml"
    model = ov.Model([ov1.result(product), ov1.result(broadcast)], [data])
    ov.save_model(model, str(xml), compress_to_fp16=False)
    read: list[str] = []
    original = sources.read_reals

    def spy(layer: object, weights: object, tensor: object) -> object:
        read.append(getattr(layer, "name", ""))
        return original(layer, weights, tensor)  # type: ignore[arg-type]

    monkeypatch.setattr(sources, "read_reals", spy)
    report = irshape.check_file(xml)
    assert read == ["table"]
    assert not report.errors
    (layer,) = [layer for layer in report.layers if layer.type == "Broadcast"]
    assert [str(s) for s in layer.outputs] == ["[2,3,4,5]"]


def test_a_repeated_check_is_not_taken_where_unread_weights_decide(tmp_path: Path) -> None:
    # Two Broadcasts whose targets irshape first knows alike (nothing known, from a dim): the
    # first's through a Roll (OpenVINO folds nothing), the second's through a Maximum with a
    # 2-D Const read only when a value input reaches it. The second's check is no repeat of the
    # first's: the weight above it gives it bounds (the walk's memo once took the first's `?`).
    inputs: list[ov.Node] = []

    def dim_as_real(name: str) -> ov.Node:
        data = ov1.parameter(ov.PartialShape([1, ov.Dimension(2, 8)]), np.float32, name=name)
        inputs.insert(0, data)
        return ov1.convert(ov8.gather(ov3.shape_of(data), _i([1]), _i(0)), "f32")

    one = ov1.constant(np.float32(1.0))
    rolled = ov1.convert(ov7.roll(dim_as_real("first"), _i([0]), _i([0])), "i64")
    weight = ov1.constant(np.array([[5.0]], np.float32))
    at_least = ov1.maximum(dim_as_real("second"), weight)
    bounded = ov1.convert(ov1.reshape(at_least, _i([-1]), False), "i64")
    first = ov3.broadcast(one, ov1.concat([_i([1]), rolled], 0))
    second = ov3.broadcast(one, ov1.concat([_i([1]), bounded], 0))
    first.set_friendly_name("first_broadcast")
    second.set_friendly_name("second_broadcast")
    model = ov.Model([ov1.result(second), ov1.result(first)], inputs)  # (saved: the Roll's chain first)
    xml = tmp_path / "repeat.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    expected = {
        o.get_node().input_value(0).get_node().get_friendly_name(): str(o.get_partial_shape())
        for o in ov.Core().read_model(xml).outputs
    }
    report = irshape.check_file(xml)
    found = {layer.name: str(layer.outputs[0]) for layer in report.layers if layer.type == "Broadcast"}
    assert [layer.name for layer in report.layers if layer.type == "Broadcast"] == [
        "first_broadcast",
        "second_broadcast",
    ], "the case needs the Roll's chain checked first"
    assert found == expected == {"first_broadcast": "[1,?]", "second_broadcast": "[1,5..8]"}
