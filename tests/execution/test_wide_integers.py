"""The CPU plugin's one rule for 64-bit integers (irshape/kernels/integers.py), against the plugin:
i64, u64 and u32 values beyond the i32 range through ops of every family (arithmetic, reductions,
data movement, indexing, shapes, Range, Convert), from Parameters (cut to their low 32 bits),
from Consts (saturated), straight to a Result (whole) and straight into a Convert (whole).
Every case's data holds values past 2^31; one model, compiled once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset13 as opset
import openvino.opset14 as opset14
import pytest

from .harness import Case, parameter, run_batch

# past the i32 range both ways, on its edges, and small: low 32 bits 5, 3, -7, -2^31, 2^31 - 1, 7
WIDE = np.array([2**32 + 5, 2**40 + 3, -(2**33) - 7, 2**31, -(2**31) - 1, 7], np.int64)
# low 32 bits small, so that sums and products stay exact in the plugin's f32 reductions
SMALL_LOW = np.array([2**32 + 5, 2**40 + 3, -(2**33) - 7, 2**35 + 12, -(2**36) + 2, 9], np.int64)
U64 = np.array([2**64 - 1, 2**40 + 5, 2**63 + 7, 2**32, 2**31, 3], np.uint64)
U32 = np.array([2**32 - 1, 2**31 + 5, 2**31, 3, 0, 2**31 - 1], np.uint32)


def const(value: Any, dtype: Any = np.int64) -> ov.Node:
    return opset.constant(np.array(value, dtype))


Build = Callable[..., Any]


def _case(name: str, build: Build, *data: np.ndarray) -> Case:
    params = [parameter(d.shape, d.dtype) for d in data]
    outputs = build(*params)
    outputs = outputs if isinstance(outputs, list) else [outputs]
    return Case(
        name,
        dict(zip(params, data, strict=True)),
        [o if isinstance(o, ov.Output) else o.output(0) for o in outputs],
    )


def _unary_cases() -> Iterator[Case]:
    """One Parameter of wide values through one op; each op on i64, then u64 where it takes it."""
    ops: dict[str, Build] = {
        "add": lambda x: opset.add(x, opset.convert_like(const(1), x)),
        "add_self": lambda x: opset.add(x, x),
        "subtract": lambda x: opset.subtract(x, opset.convert_like(const(9), x)),
        "multiply": lambda x: opset.multiply(x, opset.convert_like(const(3), x)),
        "maximum": lambda x: opset.maximum(x, opset.convert_like(const(4), x)),
        "equal": lambda x: opset.equal(x, opset.convert_like(const(5), x)),
        "reshape": lambda x: opset.reshape(x, const([2, 3]), False),
        "transpose": lambda x: opset.transpose(opset.reshape(x, const([2, 3]), False), const([1, 0])),
        "concat": lambda x: opset.concat([x, x], 0),
        "gather_data": lambda x: opset.gather(x, const([5, 1, 0, 3]), const(0)),
        "gather_elements": lambda x: opset.gather_elements(x, const([5, 4, 3]), 0),
        "gather_nd": lambda x: opset.gather_nd(x, const([[1], [2]]), 0),
        "broadcast": lambda x: opset.broadcast(x, const([2, 6])),
        "tile": lambda x: opset.tile(x, const([2])),
        "strided_slice": lambda x: opset.strided_slice(x, const([1]), const([5]), const([1]), [0], [0]),
        "slice": lambda x: opset.slice(x, const([4]), const([0]), const([-1])),
        "unsqueeze": lambda x: opset.unsqueeze(x, const([0])),
        "split": lambda x: opset.split(x, const(0), 2).outputs(),
        "roll": lambda x: opset.roll(x, const([2]), const([0])),
        "select": lambda x: opset.select(
            const([True, False] * 3, np.bool_), x, opset.convert_like(const(0), x)
        ),
        "topk": lambda x: opset.topk(x, const(3), 0, "max", "value").outputs(),
        "identity_convert": lambda x: opset.convert(x, x.get_element_type()),
        "to_i32": lambda x: opset.convert(x, "i32"),
        "to_u8": lambda x: opset.convert(x, "u8"),
        "to_boolean": lambda x: opset.convert(x, "boolean"),
        "reshaped_to_f32": lambda x: opset.convert(opset.reshape(x, const([3, 2]), False), "f32"),
        "reshaped_to_boolean": lambda x: opset.convert(opset.reshape(x, const([3, 2]), False), "boolean"),
    }
    for name, build in ops.items():
        yield _case(f"i64_{name}", build, WIDE)
        if name not in ("topk", "maximum"):  # (TopK and Maximum of u64 compare as signed i32)
            yield _case(f"u64_{name}", build, U64)
    for name in (
        "add",
        "multiply",
        "reshape",
        "concat",
        "gather_data",
        "to_i32",
        "to_boolean",
        "reshaped_to_f32",
    ):
        yield _case(f"u32_{name}", ops[name], U32)


def _arithmetic_cases() -> Iterator[Case]:
    """Reductions and arithmetic whose i32 results stay exact in the plugin's f32 reductions."""
    axis = const([0])
    yield _case("reduce_sum", lambda x: opset.reduce_sum(x, axis, False), SMALL_LOW)
    yield _case("reduce_max", lambda x: opset.reduce_max(x, axis, False), SMALL_LOW)
    yield _case("reduce_min_keep", lambda x: opset.reduce_min(x, axis, True), SMALL_LOW)
    yield _case("reduce_prod", lambda x: opset.reduce_prod(x, axis, False), SMALL_LOW[[0, 1, 3]].copy())
    yield _case("cumsum", lambda x: opset.cumsum(x, const(0)), SMALL_LOW)
    yield _case("abs", lambda x: opset.abs(x), SMALL_LOW)
    yield _case("negative", lambda x: opset.negative(x), WIDE)
    yield _case("divide", lambda x: opset.divide(x, const(2)), SMALL_LOW)
    # 2^31 - 1 + 1 wraps in i32; 65536 * 65536 is 0
    yield _case(
        "add_wraps", lambda x: opset.add(x, const(1)), np.array([2**31 - 1, 2**32 + 2**31 - 1], np.int64)
    )
    yield _case(
        "multiply_wraps", lambda x: opset.multiply(x, x), np.array([65536, 2**32 + 65536, 3], np.int64)
    )
    yield _case("two_parameters", lambda x, y: opset.add(x, y), WIDE, SMALL_LOW)


def _index_and_shape_cases() -> Iterator[Case]:
    """Wide values as indices, shapes and bounds: the plugin reads their low 32 bits."""
    data = np.arange(12, dtype=np.float32)
    yield _case(
        "gather_indices",
        lambda d, i: opset.gather(d, i, const(0)),
        data,
        np.array([2**32 + 1, 4, -(2**32) + 2], np.int64),
    )
    yield _case(
        "gather_indices_u64",
        lambda d, i: opset.gather(d, i, const(0)),
        data,
        np.array([2**33 + 7, 2**40], np.uint64),
    )
    yield _case(
        "scatter_indices",
        lambda d, i: opset.scatter_elements_update(d, i, const([-1.0, -2.0], np.float32), const(0)),
        data,
        np.array([2**32 + 3, 2**34 + 9], np.int64),
    )
    yield _case(
        "reshape_target", lambda d, s: opset.reshape(d, s, False), data, np.array([2**32 + 3, 4], np.int64)
    )
    yield _case(
        "broadcast_target",
        lambda d, s: opset.broadcast(d, s),
        np.ones(1, np.float32),
        np.array([2**33 + 5], np.int64),
    )
    yield _case(
        "tile_repeats", lambda d, r: opset.tile(d, r), data[:3].copy(), np.array([2**32 + 2], np.int64)
    )
    yield _case(
        "range",
        lambda a, b, s: opset.range(a, b, s, "i64"),
        np.array(2**33 + 2, np.int64),
        np.array(2**33 + 9, np.int64),
        np.array(2**32 + 2, np.int64),
    )
    yield _case(
        "onehot_depth",
        lambda i, n: opset.one_hot(i, n, const(7), const(-1), -1),
        np.array([0, 2], np.int64),
        np.array(2**32 + 4, np.int64),
    )
    yield _case(
        "slice_bounds",
        lambda d, b: opset.slice(d, b, const([10]), const([2])),
        data,
        np.array([2**32 + 1], np.int64),
    )


def _const_cases() -> Iterator[Case]:
    """Consts past the i32 range are saturated, even straight to a Result; a Parameter straight
    to a Result is whole, even beside an op that cuts it."""
    yield _case(
        "const_add",
        lambda x: opset.add(x, const([2**40, -(2**40), 2**31, -(2**31) - 1, 5, 2**63 - 1])),
        np.zeros(6, np.int64),
    )
    yield _case(
        "const_u64_add", lambda x: opset.add(x, const([2**40, 2**63, 1], np.uint64)), np.zeros(3, np.uint64)
    )
    yield _case(
        "const_u32_add",
        lambda x: opset.add(x, const([2**32 - 1, 2**31, 4], np.uint32)),
        np.zeros(3, np.uint32),
    )
    yield _case("const_result", lambda x: [opset.add(x, const(1)), const([2**40, -(2**40)])], WIDE)
    yield _case("const_concat", lambda x: opset.concat([x, const([2**40, -(2**35)])], 0), WIDE)
    yield _case(
        "const_scatter", lambda x: opset.scatter_update(x, const([0]), const([2**41]), const(0)), WIDE
    )
    yield _case(
        "const_gather_indices",
        lambda d: opset.gather(d, const([2**32 + 1, 1]), const(0)),
        np.arange(6, dtype=np.float32),
    )
    yield _case("parameter_result", lambda x: [x, opset.add(x, const(1))], WIDE)
    yield _case("parameter_result_u64", lambda x: [x, opset.reshape(x, const([2, 3]), False)], U64)


def _convert_cases() -> Iterator[Case]:
    """A Convert straight from a Parameter or a Const to a real type converts the whole value
    (through f32, even to f64); to an integer type it wraps; anywhere else it sees the i32."""
    for target in ("f32", "f16", "f64"):
        yield _case(f"convert_i64_{target}", lambda x, t=target: opset.convert(x, t), WIDE)
    yield _case("convert_u64_f32", lambda x: opset.convert(x, "f32"), U64)
    yield _case("convert_u32_f32", lambda x: opset.convert(x, "f32"), U32)
    yield _case("convert_and_add", lambda x: [opset.convert(x, "f32"), opset.add(x, const(1))], WIDE)
    yield _case("convert_like", lambda x: opset.convert_like(x, const([1.0], np.float32)), WIDE)
    yield _case(
        "convert_promote",
        lambda x, y: opset14.convert_promote_types(x, y, True).outputs(),
        WIDE,
        np.zeros(6, np.float32),
    )
    yield _case(
        "convert_promote_i64",
        lambda x, y: opset14.convert_promote_types(x, y, True).outputs(),
        WIDE,
        np.zeros(6, np.int32),
    )
    yield _case(
        "convert_computed_u32", lambda x: opset.convert(opset.reshape(x, const([2, 3]), False), "f32"), U32
    )
    # constant folding: a Const straight into a Convert, whole to f32, wrapped to i32
    yield _case(
        "const_convert_f32",
        lambda x: opset.add(opset.convert(const([2**40 + 5, 2**31]), "f32"), x),
        np.zeros(2, np.float32),
    )
    yield _case(
        "const_convert_i32",
        lambda x: opset.add(opset.convert(const([2**40 + 5, 2**31]), "i32"), x),
        np.zeros(2, np.int32),
    )
    yield _case(
        "const_convert_boolean",
        lambda x: opset.logical_and(opset.convert(const([2**40, 2**31, 2**32, 0, -(2**31)]), "boolean"), x),
        np.ones(5, np.bool_),
    )
    yield _case(
        "const_u64_convert_boolean",
        lambda x: opset.logical_and(opset.convert(const([2**64 - 1, 2**31, 2**32], np.uint64), "boolean"), x),
        np.ones(3, np.bool_),
    )
    yield _case(
        "const_u32_convert_f32",
        lambda x: opset.add(opset.convert(const([2**32 - 1, 5], np.uint32), "f32"), x),
        np.zeros(2, np.float32),
    )


CASES = [*_unary_cases(), *_arithmetic_cases(), *_index_and_shape_cases(), *_const_cases(), *_convert_cases()]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return run_batch(CASES, tmp_path_factory.mktemp("wide_integers"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_wide_integers(batch: Any, case: Case) -> None:
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_the_cases_reach_past_i32() -> None:
    """Every case feeds or holds a value outside the i32 range (else it tests nothing here)."""
    assert len(CASES) >= 80
    for data in (WIDE, SMALL_LOW, U64, U32):
        assert (data.astype(np.int64) != data.astype(np.int32)).any() or data.dtype == np.uint64
