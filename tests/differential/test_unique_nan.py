"""Unique-10 of a Const holding NaNs: the shapes read_model infers (it counts a Const's unique
elements with ``reference/unique.hpp``), f32, f16, bf16 and f64, sorted and unsorted, flattened
and along an axis.

By experiment (OpenVINO 2026.4, these cases): unsorted, an element (a slice) is compared with
each unique one by ``==``, so every NaN is unique (``[3, nan, 1, nan, 3, 2]``: 5), and so is every
slice holding one; sorted, libstdc++'s ``stable_sort`` by ``<`` and a ``lower_bound`` that takes
any position short of the end for a repeat give 2 there (and ``[[nan, 1, nan], [2, 1, 2]]``
flattened 1). irshape counted NaNs as one (numpy's ``equal_nan``): every case here failed.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset10 as ov10
import pytest

from .ops_harness import OpCase, OpsBatchRunner, batches, params, read_back, save_batch

TYPES = ("f32", "f16", "bf16", "f64")
HAND = (  # (data, axis): the examples above, in every type and mode
    ([[np.nan, 1, np.nan], [2, 1, 2]], None),
    ([3, np.nan, 1, np.nan, 3, 2], None),
    ([[np.nan, 1], [np.nan, 1], [2, 2]], 0),
    ([[np.nan, 1, np.nan], [2, 1, 2]], 1),
)


def _const(data: np.ndarray, element_type: str) -> ov.Node:
    """A Const of ``data`` in ``element_type`` (bf16: the upper halves of the f32 bits)."""
    if element_type == "bf16":
        tensor = ov.Tensor(ov.Type.bf16, ov.Shape(list(data.shape)))
        tensor.data.view(np.uint16)[...] = data.astype(np.float32).view(np.uint32) >> 16
        return ov.op.Constant(tensor)
    return ov1.constant(data.astype({"f32": np.float32, "f16": np.float16, "f64": np.float64}[element_type]))


def _build(data: np.ndarray, axis: int | None, is_sorted: bool, element_type: str) -> ov.Node:
    const = _const(data, element_type)
    if axis is None:
        return ov10.unique(const, None, is_sorted, "i64", "i64")
    return ov10.unique(const, ov1.constant(np.array(axis, np.int64)), is_sorted, "i32", "i64")


def _drawn(rng: random.Random) -> tuple[np.ndarray, int | None]:
    """Small data of few values (repeats), a NaN in about a third of the elements, at least two."""
    shape = [rng.randint(1, 4) for _ in range(rng.randint(1, 3))]
    while int(np.prod(shape)) < 3:
        shape[0] += 1
    size = int(np.prod(shape))
    values = [rng.choice([np.nan, np.nan, 0.0, 1.5, 2.0, -3.0, np.inf]) for _ in range(size)]
    values[rng.randrange(size)] = values[rng.randrange(size)] = np.nan
    axis = rng.randrange(-len(shape), len(shape)) if rng.random() < 0.5 else None
    return np.array(values).reshape(shape), axis


def _cases() -> list[OpCase]:
    rng = random.Random(24)
    drawn = [(np.array(data, np.float64), axis) for data, axis in HAND]
    drawn += [_drawn(rng) for _ in range(60)]
    cases = []
    for data, axis in drawn:
        for element_type in TYPES:
            for is_sorted in (False, True):
                build = (lambda *a: lambda: _build(*a))(data, axis, is_sorted, element_type)
                count = len(
                    np.unique(data, axis=axis, equal_nan=True) if axis is None else _slices(data, axis)
                )
                cases.append(OpCase(f"un{len(cases):04d}", "Unique-10", build, (str(count),)))
    return cases


def _slices(data: np.ndarray, axis: int) -> set[tuple[float, ...]]:
    """The slices along ``axis`` with every NaN taken for one value (as irshape took them)."""
    moved = np.nan_to_num(np.moveaxis(data, axis, 0), nan=1e300)  # 1e300: no drawn value
    return {tuple(row.reshape(-1)) for row in moved}


def _differing(cases: list[OpCase]) -> list[OpCase]:
    """The cases whose count read_model gives differs from the count with NaNs as one: the
    ones irshape got wrong (read once, at collection: 480 small Consts, a fraction of a second)."""
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "unique_nan_all.xml"
        save_batch(cases, xml)
        expected = read_back(xml)
    return [c for c in cases if expected[c.cid][1][0] != f"[{c.tags[0]}]"]


CASES = _differing(_cases())
BATCHES = batches(CASES, 200)


def _signed_zeros() -> ov.Node:
    """0.0 and -0.0 are one element to OpenVINO (irshape hashed -0.0 apart and counted 2)."""
    return ov10.unique(ov1.constant(np.array([0.0, -0.0, 0.0], np.float32)), None, False, "i64", "i64")


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_unique_of_a_const_with_nan_as_read_model(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    outcome = ops_runner.ops_batch(f"unique_nan{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def _consumer(data: np.ndarray, axis: int | None, is_sorted: bool) -> ov.Node:
    """A Broadcast to the ShapeOf of the Unique's elements: what a consumer reads of the count
    (its values read_model does not fold: Unique has no evaluate, a Reshape to them is all ?)."""
    unique = _build(data, axis, is_sorted, "f32")
    return ov3.broadcast(ov1.constant(np.float32(1.0)), ov3.shape_of(unique.output(0)))


# (sorted along an axis, HAND 2 and 3 come to the count irshape gave before: left out)
CONSUMED = [(h, s) for h in range(len(HAND)) for s in (False, True) if not (s and h >= 2)]


@pytest.mark.parametrize(("hand", "is_sorted"), CONSUMED)
def test_a_consumer_of_the_count_as_read_model(
    ops_runner: OpsBatchRunner, hand: int, is_sorted: bool
) -> None:
    data, axis = HAND[hand]
    case = OpCase(
        f"unc{hand}{int(is_sorted)}", "Unique-10", lambda: _consumer(np.array(data), axis, is_sorted)
    )
    outcome = ops_runner.ops_batch(f"unique_consumer{hand}{int(is_sorted)}", [case]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_signed_zeros_are_one_element(ops_runner: OpsBatchRunner) -> None:
    case = OpCase("unzero", "Unique-10", _signed_zeros)
    outcome = ops_runner.ops_batch("unique_zeros", [case]).outcome(case.cid)
    assert outcome.expected is not None and outcome.expected[0][0] == "[1]"
    assert outcome.mismatch() is None, outcome.explain()
