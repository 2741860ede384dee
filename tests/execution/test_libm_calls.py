"""irshape.kernels.libm_calls.expf, vectorised, against the platform C library's own ``expf``
called on each value through ctypes (the function the CPU plugin's ``std::exp`` of a float
calls): equal bit for bit, where the f64 exp rounded once is not."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from irshape.kernels.libm_calls import expf
from irshape.shapes import libm

# f32 values whose glibc expf is not exp rounded once (an exhaustive scan of [-104, 89])
_MISROUNDED = np.array(
    [0xBF84B2A2, 0xBF238CDB, 0xBE9EA9D7, 0x3C558487, 0x3EB26818, 0x3EF752C6], np.uint32
).view(np.float32)


def _library_expf(x: np.ndarray) -> np.ndarray:
    function = ctypes.CDLL(None).expf
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return np.array([function(float(v)) for v in x], np.float32)


def test_expf_is_the_librarys() -> None:
    rng = np.random.default_rng(24)
    x = np.concatenate(
        [
            _MISROUNDED,
            rng.uniform(-104, 89, 100_000).astype(np.float32),
            rng.uniform(-0.1, 0.1, 50_000).astype(np.float32),
            np.array([88.72283, 88.72284, 89.0, -103.97, -104.0, np.inf, -np.inf, np.nan, -0.0], np.float32),
        ]
    )
    got, expected = expf(x), _library_expf(x)
    same = (got.view(np.uint32) == expected.view(np.uint32)) | (np.isnan(got) & np.isnan(expected))
    assert same.all(), [
        (float(v), float(g), float(e)) for v, g, e in zip(x[~same], got[~same], expected[~same], strict=True)
    ][:5]
    assert libm.expf() is not None
    rounded_once = np.exp(_MISROUNDED.astype(np.float64)).astype(np.float32)
    assert (rounded_once != expected[: _MISROUNDED.size]).all()  # the values do tell them apart


def test_without_the_library_expf_is_exp_rounded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no ``expf`` can be loaded: the f64 exp rounded once (off the library's only near a
    rounding midpoint)."""
    monkeypatch.setattr(libm, "_loaded", {"expf": None})
    x = np.concatenate([_MISROUNDED, np.linspace(-104, 89, 1001, dtype=np.float32)])
    with np.errstate(over="ignore"):
        assert np.array_equal(expf(x), np.exp(x.astype(np.float64)).astype(np.float32))
