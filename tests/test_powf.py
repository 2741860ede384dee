"""The C library's ``powf``, which OpenVINO's f32 Power calls (irshape/shapes/libm.py): loaded
only when a real Power is computed, equal to OpenVINO's evaluate, and the documented fallback
where it cannot be loaded (``pow`` in double rounded once: 626^3 is 245314376 exactly, halfway
between the floats 245314368 and 245314384, and rounds to the even 245314368)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import pytest
from probes import modules_after_cli

from irshape.kernels import elementwise
from irshape.shapes import libm, reals

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "ir" / "conv_relu_deconv.xml"
NETWORKS = sorted((ROOT / "fixtures" / "networks").glob("*_static_f32.xml"))


def _evaluated(bases: np.ndarray, exponents: np.ndarray) -> np.ndarray:
    """OpenVINO's evaluate of an f32 Power (what its folding computes)."""
    node = ov1.power(ov1.constant(bases), ov1.constant(exponents))
    out = ov.Tensor(np.zeros(np.broadcast_shapes(bases.shape, exponents.shape), np.float32))
    assert node.evaluate([out], [ov.Tensor(bases), ov.Tensor(exponents)])
    return np.array(out.data, copy=True)


def test_a_plain_check_loads_no_c_library() -> None:
    # ctypes is imported only to fold a real Power: not by a check of a file without one
    assert modules_after_cli("check", "--isolated", str(FIXTURE), watch=("ctypes",)) == []
    assert modules_after_cli("check", "--isolated", *map(str, NETWORKS), watch=("ctypes",)) == []


def test_folding_a_real_power_loads_it(tmp_path: Path) -> None:
    data = ov1.parameter(ov.PartialShape([1, 626]), np.float32)
    cube = ov1.power(ov1.convert(ov3.shape_of(data), "f32"), ov1.constant(np.float32(3.0)))
    target = ov3.broadcast(ov1.constant(np.float32(1.0)), ov1.convert(cube, "i64"))
    xml = tmp_path / "cube.xml"
    ov.save_model(ov.Model([ov1.result(target)], [data]), str(xml), compress_to_fp16=False)
    assert modules_after_cli("check", "--isolated", str(xml), watch=("ctypes",)) == ["ctypes"]


TIES = np.array([626.0, 313.0, 257.0, 4097.0, 65.0, 29.0, 1.5 * 2**40], np.float32)
TIE_EXPONENTS = np.array([3.0, 3.0, 3.0, 2.0, 4.0, 5.0, 3.0], np.float32)


def test_powf_is_openvinos_on_ties() -> None:
    function = libm.powf()
    assert function is not None  # (this platform has one: glibc's)
    expected = _evaluated(TIES, TIE_EXPONENTS)
    assert expected[0] == 245314384.0  # (OpenVINO's, as the issue found it)
    got = [function(float(a), float(b)) for a, b in zip(TIES, TIE_EXPONENTS, strict=True)]
    assert got == expected.tolist()
    once = [float(np.float32(float(a) ** float(b))) for a, b in zip(TIES, TIE_EXPONENTS, strict=True)]
    assert sum(g != o for g, o in zip(got, once, strict=True)) >= 3  # (ties pow rounds otherwise)


def test_without_powf_power_is_pow_rounded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    power = reals.binary("Power", "f32")
    assert power is not None
    assert power(626.0, 3.0) == 245314384.0
    kernel = elementwise.powf_f32(np.array([626.0], np.float32), np.array([3.0], np.float32))
    assert kernel.tolist() == [245314384.0]
    monkeypatch.setattr(libm, "_loaded", {"powf": None})  # as where no powf can be loaded
    assert power(626.0, 3.0) == 245314368.0  # 245314376 exactly, a tie: to even
    kernel = elementwise.powf_f32(np.array([626.0], np.float32), np.array([3.0], np.float32))
    assert kernel.tolist() == [245314368.0]


def test_the_vectorised_powf_is_openvinos(monkeypatch: pytest.MonkeyPatch) -> None:
    # the kernel's powf (pow in double rounded, the platform's powf near a midpoint) equals
    # OpenVINO's evaluate on random bases and on ties, and calls powf on few elements
    rng = np.random.default_rng(5)
    count = 60_000
    bases = np.concatenate(
        [
            np.exp2(rng.uniform(-60, 60, count)),
            rng.uniform(-50, 50, count),
            np.arange(1, count + 1),
            np.resize(TIES, 70),
        ]
    ).astype(np.float32)
    choices = np.array([1.5, 2.0, 3.0, 0.5, -1.0, 0.3, 2.5, -2.0, 1 / 3], np.float32)
    exponents = rng.choice(choices, bases.size).astype(np.float32)
    exponents[-70:] = np.resize(TIE_EXPONENTS, 70)
    calls = 0
    function = libm.powf()
    assert function is not None

    def counting(a: float, b: float) -> float:
        nonlocal calls
        calls += 1
        return function(a, b)

    monkeypatch.setattr(libm, "_loaded", {"powf": counting})
    with np.errstate(all="ignore"):
        got = elementwise.powf_f32(bases, exponents)
    expected = _evaluated(bases, exponents)
    assert np.array_equal(got.view(np.uint32), expected.view(np.uint32))  # (NaNs alike too)
    assert 70 <= calls < bases.size // 20, calls
