"""The execution harness itself, on ops whose kernels are known good: the batch runs, the
comparison tells agreement from disagreement."""

from __future__ import annotations

import numpy as np
import openvino.opset13 as opset
import pytest

from .harness import Case, compare, parameter, run_batch


def _cases() -> list[Case]:
    rng = np.random.default_rng(0)
    cases = []
    for i in range(4):
        x = parameter((2, 3, 5, 5))
        w = opset.constant(rng.standard_normal((4, 3, 3, 3)).astype(np.float32))
        conv = opset.convolution(x, w, [1, 1], [1, 0], [0, 1], [1, 1])
        cases.append(
            Case(
                f"conv_relu{i}",
                {x: rng.standard_normal((2, 3, 5, 5)).astype(np.float32)},
                [opset.relu(conv).output(0), conv.output(0)],
            )
        )
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("harness"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_cases_agree(batch, case):
    assert batch.mismatch(case) is None


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total == 8


def test_compare_tells_disagreement():
    ref = np.array([1.0, np.nan, np.inf], np.float32)
    assert compare(ref, ref.copy()) is None
    assert compare(ref, np.array([1.01, np.nan, np.inf], np.float32)) is not None  # over 1e-4 + 1e-3
    assert compare(ref, np.array([1.0, 0.0, np.inf], np.float32)) is not None  # NaN lost
    assert compare(ref, np.array([1.0, np.nan, -np.inf], np.float32)) is not None
    assert compare(ref, ref.astype(np.float64)) is not None  # dtype
    assert compare(np.array([3], np.int64), np.array([4], np.int64)) is not None
