"""The execution harness itself, on ops whose kernels are known good: the batch runs, the
comparison tells agreement from disagreement."""

from __future__ import annotations

import numpy as np
import openvino.opset13 as opset
import pytest

from irshape.kernels.isa import capped_isa, host_isa

from . import harness
from .harness import AVX512_ONLY, BF16_AS_F32_OFF_AVX512, Case, ExactOn, compare, parameter, run_batch


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


def test_plugin_isa_as_onednn_decides_it():
    avx512 = {"avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512dq"}
    assert host_isa(avx512) == "avx512_core"
    assert host_isa(avx512 - {"avx512bw"}) == "avx2"  # Xeon Phi's AVX-512 is not avx512_core
    assert host_isa({"avx2"}) == "other"  # the plugin's JIT kernels need FMA beside AVX2
    assert capped_isa("avx512_core", "AVX2") == "avx2"
    assert capped_isa("avx512_core", "avx2_vnni") == "avx2"
    assert capped_isa("avx512_core", "AVX512_CORE_VNNI") == "avx512_core"
    assert capped_isa("avx2", "AVX512_CORE") == "avx2"  # a cap never raises
    assert capped_isa("avx512_core", "SSE41") == "other"
    assert capped_isa("avx512_core", None) == capped_isa("avx512_core", "ALL") == "avx512_core"


@pytest.mark.parametrize("isa", ["avx512_core", "avx2"])
def test_exactness_by_isa(monkeypatch, isa):
    """Exact where the rule holds, within the tolerance (never skipped) elsewhere."""
    monkeypatch.setattr(harness, "PLUGIN_ISA", isa)
    ref = np.array([1.0, 2.0], np.float32)
    one_ulp = np.nextafter(ref, np.float32(3))
    assert (compare(ref, one_ulp, exact=AVX512_ONLY) is None) == (isa != "avx512_core")
    assert compare(ref, ref + 0.1, exact=AVX512_ONLY) is not None  # tolerance still holds
    ints = np.array([400000000], np.int32)
    assert (compare(ints, ints + 16, exact=AVX512_ONLY) is None) == (isa != "avx512_core")
    assert compare(ints, ints + 16, exact=True) is not None
    assert compare(ints, ints + 1000000, exact=ExactOn(frozenset({"avx512_core"}))) is not None
    bf16_step = np.array([1.0, 2.015], np.float32)  # 0.75% off: within 2^-5 only off avx512
    assert (compare(ref, bf16_step, exact=BF16_AS_F32_OFF_AVX512) is None) == (isa != "avx512_core")
    assert compare(ref, ref * 1.05, exact=BF16_AS_F32_OFF_AVX512) is not None
