"""The CPU plugin's compile step folds what Consts alone (and ShapeOfs of static shapes) compute,
with OpenVINO's evaluation (whole i64, bf16 as OpenVINO rounds it), before its runtime kernels
and their i64-as-i32 rule see anything (docs/execution.md). Against the plugin: i64 subgraphs
past the i32 range, converted to f32 (whole), reaching a Result or a layer fed by data
(saturated, as a Const), static and dynamic ShapeOfs, the bf16 shape subgraph whose folded
target is 512 where a bf16 kernel gives 516, and a type's maximum through Convert and Divide,
whose value the compile step folds as ``evaluate`` gives it while shape inference reads it as
"no limit". One model, compiled once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset13 as opset
import pytest

from .harness import Case, parameter, run_batch

BIG = 2**40


def const(value: Any, dtype: Any = np.int64) -> ov.Node:
    return opset.constant(np.array(value, dtype))


def bf16(value: Any) -> ov.Node:
    return opset.constant(np.array(value, np.float32), ov.Type.bf16)


def to_f32(node: ov.Node | ov.Output) -> ov.Node:
    return opset.convert(node, "f32")


Build = Callable[[], Any]

# Subgraphs of Consts alone, each past the i32 range somewhere: the plugin folds them in whole i64
CONST_SUBGRAPHS: dict[str, Build] = {
    "add": lambda: opset.add(const([BIG, -BIG, 2**31 - 1]), const([1, -1, 1])),
    "subtract": lambda: opset.subtract(const([-(2**31), 7]), const([1, -(2**35)])),
    "multiply": lambda: opset.multiply(const([65536, 3]), const([65536, 2**33])),
    "maximum": lambda: opset.maximum(const([BIG, -5]), const([3, -(2**34)])),
    "negative": lambda: opset.negative(const([2**31, -BIG])),
    "abs": lambda: opset.absolute(const([-BIG, 2**33 + 1])),
    "divide": lambda: opset.divide(const([BIG * 6, -(2**34)]), const([3, 2])),
    "reduce_sum": lambda: opset.reduce_sum(const([2**31 - 1, 2**31 - 1, 5]), const([0]), False),
    "reduce_max": lambda: opset.reduce_max(const([[BIG, 3], [4, 2**33]]), const([1]), False),
    "concat": lambda: opset.concat([const([BIG]), const([2**32 + 5, 9])], 0),
    "reshape": lambda: opset.reshape(const([BIG, 1, 2, 2**31]), const([2, 2]), False),
    "gather": lambda: opset.gather(const([BIG, 2**33, 4]), const([2, 0]), const(0)),
    "squeeze": lambda: opset.squeeze(const([[2**32 + 5]]), const([0])),
    "range": lambda: opset.range(const(BIG), const(BIG + 3), const(1), "i64"),
    "chain": lambda: opset.multiply(opset.add(const([BIG]), const([1])), const([3])),
    "u32_add": lambda: opset.add(const([2**32 - 1, 2**31], np.uint32), const([0, 5], np.uint32)),
}


def _const_cases() -> Iterator[Case]:
    for name, build in CONST_SUBGRAPHS.items():
        # converted to f32: the folded whole value (docs/execution.md: irshape gave -2^31)
        yield Case(f"{name}_f32", {}, [to_f32(build()).output(0)])
        # as it is, to a Result: the folded value is a Const to the plugin, saturated to i32
        yield Case(f"{name}_result", {}, [build().output(0)])
        # into an op fed by a Parameter: again as a Const's value, saturated
        x = parameter([1], np.int64)
        built = build()
        kept = opset.convert(x, built.get_output_element_type(0))
        yield Case(f"{name}_with_data", {x: np.array([0])}, [opset.add(built, kept).output(0)])
    # to i32 and to boolean, from the whole value: 2^40 + 5 wraps to 5, 2^32 is true
    wide = opset.add(const([BIG, 2**32]), const([5, 0]))
    yield Case("to_i32", {}, [opset.convert(wide, "i32").output(0)])
    yield Case("to_boolean", {}, [opset.convert(opset.subtract(wide, const([5, 0])), "boolean").output(0)])


def _shape_cases() -> Iterator[Case]:
    """A ShapeOf of a static shape is folded like a Const; of a dynamic one, it runs in i32."""
    for name, shape in (("static", [3, 5]), ("dynamic", [-1, 5])):
        x = opset.parameter(ov.PartialShape(shape), ov.Type.f32)
        data = np.zeros((3, 5), np.float32)
        scaled = opset.multiply(opset.shape_of(x), const([2**30]))
        yield Case(f"shape_of_{name}_f32", {x: data}, [to_f32(scaled).output(0)])
        if name == "dynamic":  # (the plugin's i32 ReduceSum and Multiply are another matter)
            continue
        y = opset.parameter(ov.PartialShape(shape), ov.Type.f32)
        summed = opset.reduce_sum(opset.shape_of(y), const([0]), False)
        wide = opset.multiply(summed, const(2**29))
        yield Case(f"shape_sum_{name}_f32", {y: data}, [to_f32(wide).output(0)])
    # a Parameter's data is never folded: 1 + 2^40 in the plugin's i32 is -2^31
    z = parameter([1], np.int64)
    yield Case("data_not_folded", {z: np.array([1])}, [to_f32(opset.add(z, const([BIG]))).output(0)])


def _bf16_cases() -> Iterator[Case]:
    """A bf16 shape subgraph OpenVINO folds with its own rounding (515 -> 512, 1031 -> 1024) where
    the plugin's bf16 kernels round to nearest even (516, 1032): the Reshape's target is 512."""
    for name, a, b, size in (("mul", 103.0, 5.0, 512), ("add", 1024.0, 7.0, 1024)):
        x = parameter([size], np.float32)
        combined = opset.multiply(bf16([a]), bf16([b])) if name == "mul" else opset.add(bf16([a]), bf16([b]))
        target = opset.convert(combined, "i64")
        data = np.arange(size, dtype=np.float32)
        yield Case(f"bf16_{name}_reshape", {x: data}, [opset.reshape(x, target, False).output(0)])
        y = parameter([size], np.float32)
        shape = opset.concat([const([1]), opset.convert(combined, "i64")], 0)
        yield Case(f"bf16_{name}_reshape_2d", {y: data}, [opset.reshape(y, shape, False).output(0)])
        # the folded bf16 value into a bf16 op fed by data, and through a Convert to bf16: 512
        # (OpenVINO's rounding) where the plugin's kernels give 516. (Converted to f32 or i64
        # straight from the folded subgraph, the plugin gives 515: see docs/execution.md.)
        z = parameter([1], np.float32)
        with_data = opset.add(combined, opset.convert(z, "bf16"))
        zeros = np.zeros(1, np.float32)
        yield Case(f"bf16_{name}_with_data", {z: zeros}, [to_f32(with_data).output(0)])
        through = opset.convert(to_f32(combined), "bf16")
        yield Case(f"bf16_{name}_through_bf16", {}, [to_f32(through).output(0)])


FLT_MAX = float(np.finfo(np.float32).max)


def _maxima_cases() -> Iterator[Case]:
    """A Const at its type's maximum through Convert or Divide. Shape inference reads it through
    the ops' bound evaluators, where the maximum means "no limit" (u32 4294967295 to f32 is
    FLT_MAX there, times 1e-36 340; FLT_MAX / 600 is 0) and the layers below take their shapes
    from that reading; the compile step folds ``evaluate``'s value (4294967296.0, times 1e-36
    4.3e-27, to i64 0; FLT_MAX / 600 is 5.7e35), but a tensor a Broadcast's shape inference read
    and a Result takes too, which the plugin folds to what shape inference read (the bounds left
    on it: docs/openvino-ir-reading.md §14)."""
    scale = np.float32(1e-36)
    u32_max = to_f32(const([2**32 - 1, 5], np.uint32))
    yield Case(
        "max_u32_f32_scaled", {}, [opset.multiply(u32_max, const([scale], np.float32)).output(0)], True
    )
    f16_max = to_f32(const([65504.0, 3.0], np.float16))
    yield Case(
        "max_f16_f32_scaled", {}, [opset.multiply(f16_max, const([scale], np.float32)).output(0)], True
    )
    divided = opset.divide(const([FLT_MAX, 6.0], np.float32), const([600.0], np.float32))
    yield Case("max_f32_divided", {}, [divided.output(0)], True)
    to_f16 = opset.convert(const([FLT_MAX, 7.0], np.float32), "f16")
    yield Case("max_f32_to_f16", {}, [to_f32(to_f16).output(0)], True)
    yield Case("max_f32_to_i32", {}, [opset.convert(const([FLT_MAX, 7.0], np.float32), "i32").output(0)])
    yield Case(
        "max_u64_to_i64_f32", {}, [to_f32(opset.convert(const([2**64 - 1, 3], np.uint64), "i64")).output(0)]
    )
    yield Case(
        "max_i32_to_i64_f32", {}, [to_f32(opset.convert(const([2**31 - 1, 3], np.int32), "i64")).output(0)]
    )
    # an integer Divide of a maximum: shape inference reads 0, evaluate the quotient
    halved = opset.divide(const([2**63 - 1, 10]), const([2]))
    yield Case("max_i64_divided_f32", {}, [to_f32(halved).output(0)])
    u32_halved = opset.divide(const([2**32 - 1, 10], np.uint32), const([2], np.uint32))
    yield Case("max_u32_divided_f32", {}, [to_f32(u32_halved).output(0)])
    remainder = opset.mod(const([2**63 - 1, 17]), const([10]))
    yield Case("max_i64_mod_f32", {}, [to_f32(remainder).output(0)])
    floor_remainder = opset.floor_mod(const([2**63 - 1, 17]), const([10]))
    yield Case("max_i64_floor_mod_f32", {}, [to_f32(floor_remainder).output(0)])
    z = parameter([3])
    quotient = opset.divide(const([2**63 - 1]), const([2]))
    rows = opset.add(opset.minimum(quotient, const([50])), const([1]))  # read: 1; evaluated: 51
    shape_read = opset.concat([const([3]), rows], 0)
    yield Case(
        "max_divided_read_by_reshape",
        {z: np.arange(3, dtype=np.float32)},
        [opset.reshape(z, shape_read, False).output(0)],
    )
    # Reshape's target: shape inference reads 340 (its output is [340]), the target folds to 0
    x = parameter([340])
    target = opset.convert(
        opset.multiply(to_f32(const([2**32 - 1], np.uint32)), const([scale], np.float32)), "i64"
    )
    zeros = np.zeros(340, np.float32)
    yield Case(
        "max_read_by_reshape", {x: zeros}, [opset.reshape(x, target, False).output(0), target.output(0)]
    )
    # Broadcast's target, through f16's maximum: [1, 340]
    y = parameter([1])
    scaled = opset.multiply(to_f32(const([65504.0], np.float16)), const([scale], np.float32))
    shape = opset.concat([const([1]), opset.convert(scaled, "i64")], 0)
    yield Case("max_read_by_broadcast", {y: np.ones(1, np.float32)}, [opset.broadcast(y, shape).output(0)])
    # Broadcast's (and Tile's) shape inference leaves its bounds on the tensors of the target's
    # subgraph that more than one input reads, and the compile step folds those: a Result that
    # also takes one gets what shape inference read (340.28, FLT_MAX), not evaluate's value
    # (6.55e-32, 65504), and so does an Add fed by data; Reshape leaves none (above)
    # ...and the value input itself keeps them whatever reads it: Tile's repeats, of one consumer,
    # fold to 340 (evaluate's 0 made irshape's Tile kernel give [0] against its inference's [340])
    v = parameter([1])
    repeats = opset.convert(
        opset.multiply(to_f32(const([65504.0], np.float16)), const([scale], np.float32)), "i64"
    )
    yield Case("max_read_by_tile", {v: np.ones(1, np.float32)}, [opset.tile(v, repeats).output(0)])
    for name, reader in (
        ("broadcast", lambda data, target: opset.broadcast(data, opset.concat([const([1]), target], 0))),
        ("tile", lambda data, target: opset.tile(data, target)),
    ):
        z, w = parameter([1]), parameter([1])
        source = to_f32(const([65504.0, 3.0], np.float16))
        left = opset.multiply(source, const([scale], np.float32))
        target = opset.convert(opset.reduce_max(left, const([0]), True), "i64")
        with_data = opset.add(left, w)
        yield Case(
            f"max_left_by_{name}",
            {z: np.ones(1, np.float32), w: np.full(1, 0.5, np.float32)},
            [
                reader(z, target).output(0),
                left.output(0),
                source.output(0),
                target.output(0),
                with_data.output(0),
            ],
            True,
        )


CASES = [*_const_cases(), *_shape_cases(), *_bf16_cases(), *_maxima_cases()]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return run_batch(CASES, tmp_path_factory.mktemp("folding"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_folding(batch: Any, case: Case) -> None:
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_the_dynamic_shape_is_not_folded(batch: Any) -> None:
    """The plugin's own answer differs between the static and the dynamic ShapeOf (else the
    cases could not tell folding from not folding)."""
    static, dynamic = batch.expected["shape_of_static_f32_out0"], batch.expected["shape_of_dynamic_f32_out0"]
    assert static.tolist() == [3.0 * 2**30, 5.0 * 2**30]
    assert dynamic.tolist() != static.tolist()
