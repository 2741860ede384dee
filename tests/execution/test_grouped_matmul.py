"""GroupedMatMul-17, which OpenVINO 2026.4 runs nowhere (no CPU node, no evaluate): irshape's
kernel follows the op's definition and OpenVINO's reference (irshape/kernels/grouped_matmul.py),
tested on products worked from the definition (``out[g] = mat_a[g] @ mat_b[g]^T``; rows of a
2D mat_a split by the cumulative offsets) on integer-valued data, where every order of summation
is exact, and on the reference's accumulation in the element type."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset13 as opset
import pytest
from openvino.utils.node_factory import NodeFactory

from irshape.execute.network import ExecutionError, Outcome, execute
from irshape.ir.reader import read_file

from .harness import CPU_CONFIG, parameter


def _grouped(*inputs: Any) -> Any:
    return NodeFactory("opset17").create("GroupedMatMul", [x.output(0) for x in inputs], {})


def _execute(directory: Path, data: list[np.ndarray], narrow: str | None = None) -> np.ndarray:
    """GroupedMatMul of ``data`` (mat_a, mat_b[, offsets]) run by irshape; with ``narrow`` the
    matrices are converted to that type inside the model and the result back to f32."""
    params = [parameter(d.shape, d.dtype) for d in data]
    for i, p in enumerate(params):
        p.set_friendly_name(f"in{i}")
    inputs: list[Any] = list(params)
    if narrow is not None:
        inputs[:2] = [opset.convert(p, narrow) for p in params[:2]]
    node = _grouped(*inputs)
    output = node if narrow is None else opset.convert(node, "f32")
    xml = directory / f"grouped{len(list(directory.iterdir()))}.xml"
    ov.save_model(ov.Model([output.output(0)], params), xml, compress_to_fp16=False)
    document = read_file(xml).document
    assert document is not None
    (result,) = execute(document, {f"in{i}": d for i, d in enumerate(data)}).results.values()
    return result


def _integers(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    return rng.integers(-5, 6, shape).astype(dtype)


def test_openvino_cannot_run_it() -> None:
    """Why the expectations are worked from the definition: neither the plugin nor the core runs it."""
    a, b = parameter((2, 3, 4)), parameter((2, 5, 4))
    node = _grouped(a, b)
    with pytest.raises(RuntimeError, match="Unsupported operation"):
        ov.Core().compile_model(ov.Model([node], [a, b]), "CPU", CPU_CONFIG)
    out = [ov.Tensor(ov.Type.f32, [2, 3, 5])]
    assert not node.evaluate(out, [ov.Tensor(np.ones((2, 3, 4), np.float32))] * 2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.int64])
@pytest.mark.parametrize("shape", [(1, 1, 1, 1), (3, 4, 5, 2), (2, 1, 7, 6)])
def test_3d_by_3d(tmp_path: Path, dtype: Any, shape: tuple[int, int, int, int]) -> None:
    groups, m, k, n = shape
    rng = np.random.default_rng(sum(shape))
    a, b = _integers(rng, (groups, m, k), dtype), _integers(rng, (groups, n, k), dtype)
    expected = np.array(
        [[[sum(int(a[g, i, x]) * int(b[g, j, x]) for x in range(k)) for j in range(n)] for i in range(m)] for g in range(groups)]
    )  # fmt: skip
    got = _execute(tmp_path, [a, b])
    assert got.dtype == np.dtype(dtype) and got.shape == (groups, m, n)
    np.testing.assert_array_equal(got, expected.astype(dtype))


@pytest.mark.parametrize("offsets_type", [np.int32, np.int64])
@pytest.mark.parametrize(
    "ends",
    [[2, 2, 5], [0, 6, 6], [6], [1, 3], [0, 0, 0]],  # an empty group; all in one; rows past the end (0)
)
def test_2d_by_3d_rows_split_by_offsets(tmp_path: Path, ends: list[int], offsets_type: Any) -> None:
    rng = np.random.default_rng(len(ends))
    rows, k, n = 6, 3, 4
    a = _integers(rng, (rows, k), np.float32)
    b = _integers(rng, (len(ends), n, k), np.float32)
    expected = np.zeros((rows, n))
    start = 0
    for group, end in enumerate(ends):
        for row in range(start, end):  # row by row, from the definition
            expected[row] = [sum(float(a[row, x] * b[group, j, x]) for x in range(k)) for j in range(n)]
        start = end
    got = _execute(tmp_path, [a, b, np.array(ends, offsets_type)])
    np.testing.assert_array_equal(got, expected.astype(np.float32))


def test_integers_wrap(tmp_path: Path) -> None:
    """i32 sums wrap as the reference's ``out += a * b`` in int32: 3 * 2^30 is -2^30."""
    a = np.array([[[2**15, 2**15, 2**15]]], np.int32)  # [1, 1, 3]
    b = np.array([[[2**15, 2**15, 2**15]]], np.int32)  # [1, 1, 3]
    got = _execute(tmp_path, [a, b])
    np.testing.assert_array_equal(got, [[[-(2**30)]]])


@pytest.mark.parametrize(("narrow", "big", "expected"), [("f16", 2048.0, 2048.0), ("bf16", 256.0, 256.0)])
def test_narrow_types_accumulate_in_their_type(
    tmp_path: Path, narrow: str, big: float, expected: float
) -> None:
    """The reference adds k by k in the element type: big + 1 is big again (its spacing there is
    2), twice, where one rounding of the exact big + 2 would give big + 2."""
    a = np.array([[[big, 1.0, 1.0]]], np.float32)
    b = np.ones((1, 1, 3), np.float32)
    got = _execute(tmp_path, [a, b], narrow)
    assert got.reshape(-1)[0] == expected != big + 2


def test_decreasing_offsets_are_refused(tmp_path: Path) -> None:
    a, b = np.ones((4, 2), np.float32), np.ones((2, 3, 2), np.float32)
    with pytest.raises(ExecutionError) as refused:
        _execute(tmp_path, [a, b, np.array([3, 1], np.int32)])
    assert refused.value.outcome.outcome == Outcome.KERNEL_FAILED
    with pytest.raises(ExecutionError):
        _execute(tmp_path, [a, b, np.array([3, 9], np.int32)])  # past the 4 rows
