"""The numpy kernels against a naive oracle written straight from the spec formulas.

The oracle loops over output (forward) or input (backprop) positions and kernel taps, exactly as
the Convolution-1 / ConvolutionBackpropData-1 texts describe them; only the sum over the
channels of one group is left to numpy. It shares no code with irshape.kernels.convolution.
"""

from __future__ import annotations

import itertools
import math
import tracemalloc

import numpy as np
import pytest

from irshape.execute import (
    UnsupportedByOpenVINOError,
    estimate_working_bytes,
    release_scratch,
)
from irshape.execute import (
    convolve as convolution,
)
from irshape.execute import (
    convolve_backprop as convolution_backprop,
)
from irshape.kernels import convolution as kernels

# ---------------------------------------------------------------------------------------------
# The oracle


def _grouped(w, x_ndim):
    """Filter with a leading groups axis (a plain filter is one group)."""
    return w[None] if w.ndim == x_ndim else w


def naive_convolution(x, w, strides, dilations, pads_begin, pads_end):
    """out[n, g*M + m, o] = sum_{c, k} x[n, g*C + c, o*s + k*d - pb] * w[g, m, c, k].

    o runs over floor((D + pb + pe - ((K-1)*d + 1)) / s) + 1 positions; x is zero outside.
    """
    x = np.asarray(x, dtype=np.float64)
    w = _grouped(np.asarray(w, dtype=np.float64), x.ndim)
    groups, m_per_group, c_per_group = w.shape[:3]
    kernel = w.shape[3:]
    spatial = x.shape[2:]
    out_spatial = [
        (spatial[a] + pads_begin[a] + pads_end[a] - ((kernel[a] - 1) * dilations[a] + 1)) // strides[a] + 1
        for a in range(len(spatial))
    ]
    out = np.zeros((x.shape[0], groups * m_per_group, *out_spatial))
    for g in range(groups):
        xs = x[:, g * c_per_group : (g + 1) * c_per_group]
        for o in itertools.product(*(range(v) for v in out_spatial)):
            total = np.zeros((x.shape[0], m_per_group))
            for k in itertools.product(*(range(v) for v in kernel)):
                i = [o[a] * strides[a] + k[a] * dilations[a] - pads_begin[a] for a in range(len(o))]
                if all(0 <= i[a] < spatial[a] for a in range(len(i))):
                    total += xs[(slice(None), slice(None), *i)] @ w[(g, slice(None), slice(None), *k)].T
            out[(slice(None), slice(g * m_per_group, (g + 1) * m_per_group), *o)] = total
    return out


def naive_backprop(x, w, strides, dilations, pads_begin, pads_end, output_padding, output_spatial=None):
    """out[n, g*M + m, i*s + k*d - pb] += x[n, g*C + c, i] * w[g, c, m, k].

    The output has (D-1)*s + (K-1)*d + 1 - pb - pe + output_padding positions (or
    output_spatial); contributions falling outside it are dropped.
    """
    x = np.asarray(x, dtype=np.float64)
    w = _grouped(np.asarray(w, dtype=np.float64), x.ndim)
    groups, c_per_group, m_per_group = w.shape[:3]
    kernel = w.shape[3:]
    spatial = x.shape[2:]
    if output_spatial is None:
        output_spatial = [
            (spatial[a] - 1) * strides[a]
            + (kernel[a] - 1) * dilations[a]
            + 1
            - pads_begin[a]
            - pads_end[a]
            + output_padding[a]
            for a in range(len(spatial))
        ]
    out = np.zeros((x.shape[0], groups * m_per_group, *output_spatial))
    for g in range(groups):
        xs = x[:, g * c_per_group : (g + 1) * c_per_group]
        for i in itertools.product(*(range(v) for v in spatial)):
            for k in itertools.product(*(range(v) for v in kernel)):
                o = [i[a] * strides[a] + k[a] * dilations[a] - pads_begin[a] for a in range(len(i))]
                if all(0 <= o[a] < output_spatial[a] for a in range(len(o))):
                    contribution = xs[(slice(None), slice(None), *i)] @ w[(g, slice(None), slice(None), *k)]
                    out[(slice(None), slice(g * m_per_group, (g + 1) * m_per_group), *o)] += contribution
    return out


def test_oracle_on_hand_worked_values() -> None:
    """The oracle itself, on numbers small enough to work by hand."""
    x = np.array([[[1.0, 2.0, 3.0, 4.0]]])
    w = np.array([[[1.0, 10.0]]])
    # forward, pads 1/0: positions -1..3 -> [0+10*1, 1+10*2, 2+10*3, 3+10*4]
    assert naive_convolution(x, w, [1], [1], [1], [0]).tolist() == [[[10.0, 21.0, 32.0, 43.0]]]
    # stride 2, dilation 2: o=0 reads 0 and 2
    assert naive_convolution(x, w, [2], [2], [0], [0]).tolist() == [[[31.0]]]
    # backprop s2: full = [1, 10, 2, 20, 3, 30, 4, 40][pb:], length 8 - pb - pe + op
    assert naive_backprop(x, w, [2], [1], [0], [0], [0]).tolist() == [[[1, 10, 2, 20, 3, 30, 4, 40]]]
    assert naive_backprop(x, w, [2], [1], [1], [2], [1]).tolist() == [[[10, 2, 20, 3, 30, 4]]]
    # negative pads_end: zeros past the full result
    assert naive_backprop(x, w, [2], [1], [1], [-1], [0]).tolist() == [[[10, 2, 20, 3, 30, 4, 40, 0]]]
    assert naive_backprop(x, w, [2], [1], [3], [0], [0], output_spatial=[3]).tolist() == [[[20, 3, 30]]]


# ---------------------------------------------------------------------------------------------
# Cases


def _forward_case(x_shape, w_shape, s, d, pb, pe, groups=1, case_id=None):
    return pytest.param(x_shape, w_shape, s, d, pb, pe, groups, id=case_id)


FORWARD_CASES = [
    _forward_case([1, 1, 6], [1, 1, 3], [1], [1], [0], [0], case_id="1D plain"),
    _forward_case([2, 3, 9], [4, 3, 3], [2], [1], [1], [2], case_id="1D s2 asymmetric pads batch 2"),
    _forward_case([1, 2, 11], [3, 2, 3], [3], [2], [0], [1], case_id="1D s3 d2"),
    _forward_case([1, 2, 10], [3, 2, 3], [1], [1], [2], [-2], case_id="1D negative pads_end"),
    _forward_case([1, 2, 10], [3, 2, 3], [2], [1], [3], [-1], case_id="1D negative pads_end s2"),
    _forward_case([1, 3, 6, 7], [2, 3, 3, 2], [1, 1], [1, 1], [0, 0], [0, 0], case_id="2D plain"),
    _forward_case([1, 2, 7, 8], [2, 2, 3, 3], [2, 2], [1, 1], [1, 0], [1, 1], case_id="2D same_upper pads"),
    _forward_case([1, 2, 5, 5], [2, 2, 3, 3], [1, 1], [2, 3], [1, 0], [2, 3], case_id="2D d(2,3) asym"),
    _forward_case([1, 2, 9, 8], [3, 2, 2, 3], [3, 2], [2, 1], [2, 1], [-1, 0], case_id="2D mixed"),
    _forward_case([1, 2, 2, 2], [1, 2, 5, 5], [1, 1], [1, 1], [2, 2], [2, 2], case_id="2D kernel > input"),
    _forward_case([1, 6, 5, 6], [2, 4, 3, 2, 2], [1, 2], [1, 1], [1, 0], [0, 1], 2, case_id="G2 Cg3 M4"),
    _forward_case([2, 6, 7, 5], [3, 1, 2, 3, 3], [2, 1], [1, 2], [1, 2], [1, 2], 3, case_id="G3 Cg2 M1"),
    _forward_case([1, 4, 8, 8], [4, 1, 1, 3, 3], [1, 1], [1, 1], [1, 1], [1, 1], 4, case_id="depthwise"),
    _forward_case(
        [1, 12, 9, 9], [4, 1, 3, 5, 5], [1, 1], [1, 1], [2, 2], [2, 2], 4, case_id="spec GC 2D small"
    ),
    _forward_case([1, 2, 4, 4, 5], [2, 2, 2, 2, 2], [1, 1, 1], [1, 1, 1], [0, 0, 0], [0, 0, 0], case_id="3D"),
    _forward_case(
        [1, 4, 5, 4, 6], [2, 1, 2, 2, 3, 2], [2, 1, 2], [1, 1, 2], [1, 0, 1], [0, 1, 0], 2, case_id="3D group"
    ),
    _forward_case([1, 1, 5, 5], [1, 1, 1, 1], [2, 2], [1, 1], [0, 0], [0, 0], case_id="1x1 kernel s2"),
    _forward_case([1, 2, 3], [2, 2, 3], [5], [1], [0], [0], case_id="stride larger than input"),
]

BACKPROP_CASES = [
    # x_shape, w_shape, strides, dilations, pads_begin, pads_end, output_padding, groups, output_spatial
    pytest.param([1, 1, 4], [1, 1, 2], [2], [1], [0], [0], [0], 1, None, id="1D s2"),
    pytest.param([2, 3, 5], [3, 2, 3], [2], [1], [1], [1], [1], 1, None, id="1D s2 p1 op1 batch 2"),
    pytest.param([1, 2, 4], [2, 3, 3], [3], [2], [2], [0], [2], 1, None, id="1D s3 d2 op2"),
    pytest.param([1, 2, 4], [2, 3, 3], [2], [1], [1], [-2], [0], 1, None, id="1D negative pads_end"),
    pytest.param([1, 2, 4], [2, 3, 3], [2], [1], [0], [0], [-1], 1, None, id="1D negative output_padding"),
    pytest.param([1, 2, 4], [2, 3, 3], [1], [1], [3], [3], [0], 1, None, id="1D empty output"),
    pytest.param([1, 2, 5], [2, 3, 3], [2], [1], [1], [0], [0], 1, [4], id="1D output_spatial short"),
    pytest.param([1, 2, 3], [2, 3, 3], [2], [1], [2], [0], [0], 1, [12], id="1D output_spatial long"),
    pytest.param([1, 2, 3, 4], [2, 2, 3, 3], [1, 1], [1, 1], [0, 0], [0, 0], [0, 0], 1, None, id="2D s1"),
    pytest.param([1, 3, 4, 3], [3, 2, 3, 2], [2, 3], [1, 2], [1, 0], [0, 2], [1, 2], 1, None, id="2D mixed"),
    pytest.param([1, 2, 2, 2], [2, 2, 3, 3], [3, 3], [1, 1], [0, 0], [0, 0], [2, 2], 1, None, id="spec ex2"),
    pytest.param(
        [1, 2, 3, 3], [2, 2, 3, 3], [1, 1], [1, 1], [0, 0], [0, 0], [0, 0], 1, [7, 6], id="spec ex3"
    ),
    pytest.param(
        [1, 2, 3, 3], [2, 1, 3, 2], [2, 2], [1, 1], [2, 1], [1, 2], [0, 0], 1, [3, 3], id="2D out_spatial"
    ),
    pytest.param(
        [1, 6, 3, 4], [2, 3, 4, 2, 3], [2, 1], [1, 2], [1, 1], [0, 1], [1, 0], 2, None, id="G2 Cg3 M4"
    ),
    pytest.param(
        [2, 6, 3, 3], [3, 2, 1, 3, 3], [2, 2], [1, 1], [1, 1], [1, 1], [0, 0], 3, None, id="G3 Cg2 M1"
    ),
    pytest.param(
        [1, 4, 3, 3], [4, 1, 1, 3, 3], [2, 2], [1, 1], [0, 0], [0, 0], [1, 1], 4, None, id="depthwise"
    ),
    pytest.param(
        [1, 20, 3, 4], [4, 5, 2, 3, 3], [2, 2], [1, 1], [1, 1], [1, 1], [0, 0], 4, None, id="spec GCBD"
    ),
    pytest.param(
        [1, 2, 2, 3, 2],
        [2, 2, 2, 2, 3],
        [2, 1, 2],
        [1, 2, 1],
        [1, 0, 0],
        [0, 1, 0],
        [1, 0, 1],
        1,
        None,
        id="3D",
    ),
    pytest.param(
        [1, 4, 2, 2, 3],
        [2, 2, 3, 2, 2, 2],
        [2, 2, 2],
        [1, 1, 1],
        [1, 1, 1],
        [0, 0, 0],
        [0, 0, 0],
        2,
        None,
        id="3D G",
    ),
    pytest.param(
        [1, 2, 3, 2, 2],
        [2, 1, 2, 2, 2],
        [1, 2, 3],
        [1, 1, 1],
        [0, 1, 0],
        [0, 0, 0],
        [0, 0, 0],
        1,
        [4, 3, 5],
        id="3D out",
    ),
    pytest.param(
        [1, 1, 4, 4], [1, 1, 1, 1], [3, 2], [1, 1], [0, 0], [0, 0], [0, 0], 1, None, id="1x1 kernel s3"
    ),
    pytest.param(
        [1, 1, 3, 3], [1, 1, 2, 2], [2, 2], [2, 2], [0, 1], [0, 0], [0, 0], 1, None, id="d==s (one phase)"
    ),
]


def _random_configs(seed: int, count: int, backprop: bool) -> list:
    """Seeded random small configurations (supported by OpenVINO's CPU plugin)."""
    rng = np.random.default_rng(seed)
    params = []
    while len(params) < count:
        nd = int(rng.integers(1, 4))
        groups = int(rng.integers(1, 4))
        plain = groups == 1 and bool(rng.integers(0, 2))
        c_g, m_g = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        small = 3 if nd == 3 else 6
        spatial = [int(v) for v in rng.integers(1, small + 1, nd)]
        kernel = [int(v) for v in rng.integers(1, 4, nd)]
        s = [int(v) for v in rng.integers(1, 4, nd)]
        d = [int(v) for v in rng.integers(1, 3, nd)]
        pb = [int(v) for v in rng.integers(0, 3, nd)]
        pe = [int(v) for v in rng.integers(-2, 3, nd)]
        x_shape = [int(rng.integers(1, 3)), groups * c_g, *spatial]
        if backprop:
            w_shape = [c_g, m_g, *kernel] if plain else [groups, c_g, m_g, *kernel]
            op = [int(v) for v in rng.integers(-1, 3, nd)]
            full = [(spatial[a] - 1) * s[a] + (kernel[a] - 1) * d[a] + 1 for a in range(nd)]
            out_sp = None
            if rng.integers(0, 3) == 0:
                out_sp = [max(0, full[a] + int(rng.integers(-3, 4))) for a in range(nd)]
            elif min(full[a] - pb[a] - pe[a] + op[a] for a in range(nd)) < 0:
                continue
            params.append(
                pytest.param(x_shape, w_shape, s, d, pb, pe, op, groups, out_sp, id=f"r{seed}-{len(params)}")
            )
        else:
            w_shape = [m_g, c_g, *kernel] if plain else [groups, m_g, c_g, *kernel]
            pe = [max(v, -b) for v, b in zip(pe, pb, strict=True)]  # pads_begin + pads_end >= 0
            if any((kernel[a] - 1) * d[a] + 1 > spatial[a] + pb[a] + pe[a] for a in range(nd)):
                continue
            params.append(pytest.param(x_shape, w_shape, s, d, pb, pe, groups, id=f"r{seed}-{len(params)}"))
    return params


def _data(shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.fixture(params=["auto", "im2col", "scatter"])
def forward_method(request, monkeypatch):
    monkeypatch.setattr(kernels, "FORWARD_METHOD", request.param)
    return request.param


# ---------------------------------------------------------------------------------------------
# Fast kernels == oracle


@pytest.mark.parametrize(("x_shape", "w_shape", "s", "d", "pb", "pe", "groups"), FORWARD_CASES)
def test_convolution_matches_oracle(forward_method, x_shape, w_shape, s, d, pb, pe, groups) -> None:
    x, w = _data(x_shape, seed=1), _data(w_shape, seed=2)
    got = convolution(x, w, strides=s, dilations=d, pads_begin=pb, pads_end=pe, groups=groups)
    want = naive_convolution(x, w, s, d, pb, pe)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "s", "d", "pb", "pe", "groups"), _random_configs(7, 60, False)
)
def test_convolution_random_matches_oracle(forward_method, x_shape, w_shape, s, d, pb, pe, groups) -> None:
    x, w = _data(x_shape, seed=3), _data(w_shape, seed=4)
    got = convolution(x, w, strides=s, dilations=d, pads_begin=pb, pads_end=pe, groups=groups)
    np.testing.assert_allclose(got, naive_convolution(x, w, s, d, pb, pe), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "s", "d", "pb", "pe", "op", "groups", "out_sp"), BACKPROP_CASES
)
def test_backprop_matches_oracle(x_shape, w_shape, s, d, pb, pe, op, groups, out_sp) -> None:
    x, w = _data(x_shape, seed=5), _data(w_shape, seed=6)
    got = convolution_backprop(
        x, w, strides=s, dilations=d, pads_begin=pb, pads_end=pe, output_padding=op, groups=groups,
        output_spatial=out_sp,
    )  # fmt: skip
    want = naive_backprop(x, w, s, d, pb, pe, op, out_sp)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "s", "d", "pb", "pe", "op", "groups", "out_sp"), _random_configs(11, 80, True)
)
def test_backprop_random_matches_oracle(x_shape, w_shape, s, d, pb, pe, op, groups, out_sp) -> None:
    x, w = _data(x_shape, seed=7), _data(w_shape, seed=8)
    got = convolution_backprop(
        x, w, strides=s, dilations=d, pads_begin=pb, pads_end=pe, output_padding=op, groups=groups,
        output_spatial=out_sp,
    )  # fmt: skip
    np.testing.assert_allclose(got, naive_backprop(x, w, s, d, pb, pe, op, out_sp), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("backprop", [False, True], ids=["forward", "backprop"])
def test_dtype_is_kept_and_accumulated_precisely(dtype, backprop) -> None:
    x = _data([2, 6, 5, 4], dtype, seed=9)
    if backprop:
        w = _data([2, 3, 4, 3, 2], dtype, seed=10)
        attrs = {"strides": [2, 1], "dilations": [1, 2], "pads_begin": [1, 0], "pads_end": [0, 1]}
        got = convolution_backprop(x, w, output_padding=[1, 0], groups=2, **attrs)
        want = naive_backprop(
            x, w, attrs["strides"], attrs["dilations"], attrs["pads_begin"], attrs["pads_end"], [1, 0]
        )
    else:
        w = _data([2, 4, 3, 3, 2], dtype, seed=10)
        attrs = {"strides": [1, 2], "dilations": [2, 1], "pads_begin": [2, 1], "pads_end": [1, 0]}
        got = convolution(x, w, groups=2, **attrs)
        want = naive_convolution(
            x, w, attrs["strides"], attrs["dilations"], attrs["pads_begin"], attrs["pads_end"]
        )
    assert got.dtype == np.dtype(dtype)
    # float16: float32 accumulation, then one rounding to float16 (relative error 2**-11).
    tol = {np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-12}[dtype]
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("chunk_bytes", [1, 300, 5000])
def test_chunking_and_tiling_do_not_change_results(monkeypatch, forward_method, chunk_bytes) -> None:
    monkeypatch.setattr(kernels, "CHUNK_BYTES", chunk_bytes)
    x, wf, wb = _data([2, 6, 7, 6], seed=11), _data([2, 3, 3, 3, 2], seed=12), _data([2, 3, 2, 3, 2], seed=13)
    fwd = convolution(x, wf, strides=[2, 1], dilations=[1, 2], pads_begin=[1, 2], pads_end=[1, 0], groups=2)
    np.testing.assert_allclose(
        fwd, naive_convolution(x, wf, [2, 1], [1, 2], [1, 2], [1, 0]), rtol=1e-12, atol=1e-12
    )
    bwd = convolution_backprop(
        x,
        wb,
        strides=[2, 3],
        dilations=[2, 1],
        pads_begin=[1, 2],
        pads_end=[0, 1],
        output_padding=[1, 2],
        groups=2,
    )
    want = naive_backprop(x, wb, [2, 3], [2, 1], [1, 2], [0, 1], [1, 2])
    np.testing.assert_allclose(bwd, want, rtol=1e-12, atol=1e-12)


def test_results_do_not_alias_the_scratch_buffer(forward_method) -> None:
    x, w = _data([1, 4, 6, 6], seed=14), _data([2, 2, 1, 3, 3], seed=15)
    kwargs = {"strides": [2, 2], "dilations": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "groups": 2}
    first_b = convolution_backprop(x, w, output_padding=[0, 0], **kwargs)
    first_f = convolution(x, w.transpose(0, 2, 1, 3, 4), **kwargs)
    kept_b, kept_f = first_b.copy(), first_f.copy()
    convolution_backprop(x * 3, w, output_padding=[1, 1], **kwargs)
    convolution(x * 3, w.transpose(0, 2, 1, 3, 4), **kwargs)
    np.testing.assert_array_equal(first_b, kept_b)
    np.testing.assert_array_equal(first_f, kept_f)


def test_scratch_can_be_released_or_not_kept(monkeypatch) -> None:
    x, w = _data([1, 2, 5, 5], seed=16), _data([2, 3, 3, 3], seed=17)
    kwargs = {"strides": [2, 2], "dilations": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "groups": 1}
    want = naive_backprop(x, w, [2, 2], [1, 1], [0, 0], [0, 0], [0, 0])
    np.testing.assert_allclose(convolution_backprop(x, w, output_padding=[0, 0], **kwargs), want)
    release_scratch()
    monkeypatch.setattr(kernels, "SCRATCH_KEEP_BYTES", 0)
    np.testing.assert_allclose(convolution_backprop(x, w, output_padding=[0, 0], **kwargs), want)


def test_accepts_lists_and_non_contiguous_views(forward_method) -> None:
    base = _data([1, 2, 10, 12], seed=18)
    x = base[:, :, ::2, ::3]  # (1, 2, 5, 4), non-contiguous
    w = _data([3, 2, 2, 2], seed=19)
    got = convolution(
        x, w.tolist(), strides=(1, 1), dilations=(1, 1), pads_begin=(0, 1), pads_end=(1, 0), groups=1
    )
    np.testing.assert_allclose(got, naive_convolution(x, w, [1, 1], [1, 1], [0, 1], [1, 0]), rtol=1e-12)
    wb = _data([2, 3, 2, 2], seed=20)
    got = convolution_backprop(
        x.tolist(), np.asfortranarray(wb), strides=[1, 2], dilations=[1, 1], pads_begin=[0, 0], pads_end=[0, 0],
        output_padding=[0, 0], groups=1,
    )  # fmt: skip
    np.testing.assert_allclose(got, naive_backprop(x, wb, [1, 2], [1, 1], [0, 0], [0, 0], [0, 0]), rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# The spec examples at (or near) their real sizes, checked at sampled positions


def _sample_positions(shape, count, seed):
    rng = np.random.default_rng(seed)
    corners = [tuple(0 for _ in shape), tuple(v - 1 for v in shape)]
    return corners + [tuple(int(rng.integers(0, v)) for v in shape) for _ in range(count)]


def _forward_at(x, w, o, s, d, pb):
    """One output value of the forward op, from the formula: x is [C, *spatial] of one image."""
    w = _grouped(w, x.ndim + 1)
    _, m_g, c_g = w.shape[:3]
    channel, pos = o[0], o[1:]
    g, m = divmod(channel, m_g)
    total = 0.0
    for k in itertools.product(*(range(v) for v in w.shape[3:])):
        i = [pos[a] * s[a] + k[a] * d[a] - pb[a] for a in range(len(pos))]
        if all(0 <= i[a] < x.shape[1 + a] for a in range(len(i))):
            total += float(x[(slice(g * c_g, (g + 1) * c_g), *i)] @ w[(g, m, slice(None), *k)])
    return total


def _backprop_at(x, w, o, s, d, pb):
    """One output value of the backprop op, from the formula: x is [C, *spatial] of one image."""
    w = _grouped(w, x.ndim + 1)
    _, c_g, m_g = w.shape[:3]
    channel, pos = o[0], o[1:]
    g, m = divmod(channel, m_g)
    total = 0.0
    for k in itertools.product(*(range(v) for v in w.shape[3:])):
        num = [pos[a] + pb[a] - k[a] * d[a] for a in range(len(pos))]
        if all(v % s[a] == 0 and 0 <= v // s[a] < x.shape[1 + a] for a, v in enumerate(num)):
            i = [v // s[a] for a, v in enumerate(num)]
            total += float(x[(slice(g * c_g, (g + 1) * c_g), *i)] @ w[(g, slice(None), m, *k)])
    return total


SPEC_BACKPROP = [
    # x_shape, w_shape, strides, pads (both), output_padding, output_spatial, expected shape
    pytest.param([1, 20, 224, 224], [20, 10, 3, 3], [2, 2], [1, 1], [0, 0], None, [1, 10, 447, 447], id="CBD ex1"),
    pytest.param([1, 20, 2, 2], [20, 10, 3, 3], [3, 3], [0, 0], [2, 2], None, [1, 10, 8, 8], id="CBD ex2"),
    # ex3: auto_pad valid -> pads 0, output_shape [450, 450]
    pytest.param([1, 20, 224, 224], [20, 10, 3, 3], [1, 1], [0, 0], [0, 0], [450, 450], [1, 10, 450, 450], id="CBD ex3"),
    pytest.param([1, 20, 224], [4, 5, 2, 3], [2], [1], [0], None, [1, 8, 447], id="GCBD 1D"),
    pytest.param([1, 20, 224, 224], [4, 5, 2, 3, 3], [2, 2], [1, 1], [0, 0], None, [1, 8, 447, 447], id="GCBD 2D"),
    pytest.param([1, 20, 24, 24, 24], [4, 5, 2, 3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0], None, [1, 8, 47, 47, 47],
                 id="GCBD 3D at 24^3"),
]  # fmt: skip

SPEC_FORWARD = [
    # x_shape, w_shape, strides, dilations, pads (both), expected shape
    pytest.param([1, 12, 224], [4, 1, 3, 5], [1], [1], [2], [1, 4, 224], id="GC 1D"),
    pytest.param([1, 12, 224, 224], [4, 1, 3, 5, 5], [1, 1], [1, 1], [2, 2], [1, 4, 224, 224], id="GC 2D"),
    pytest.param([1, 12, 32, 32, 32], [4, 1, 3, 5, 5, 5], [1, 1, 1], [1, 1, 1], [2, 2, 2], [1, 4, 32, 32, 32],
                 id="GC 3D at 32^3"),
    pytest.param([1, 5, 128], [16, 5, 4], [2], [1], [0], [1, 16, 63], id="Conv 1D valid"),
    pytest.param([1, 3, 224, 224], [64, 3, 5, 5], [1, 1], [1, 1], [2, 2], [1, 64, 224, 224], id="Conv 2D"),
    pytest.param([1, 7, 80, 80, 80], [32, 7, 3, 3, 3], [3, 3, 3], [2, 2, 2], [0, 0, 0], [1, 32, 26, 26, 26],
                 id="Conv 3D d2 s3 at 80^3"),
]  # fmt: skip


@pytest.mark.parametrize(("x_shape", "w_shape", "s", "p", "op", "out_sp", "expected"), SPEC_BACKPROP)
def test_spec_backprop_examples(x_shape, w_shape, s, p, op, out_sp, expected) -> None:
    x, w = _data(x_shape, np.float32, seed=21), _data(w_shape, np.float32, seed=22)
    groups = w.shape[0] if w.ndim == x.ndim + 1 else 1
    nd = len(s)
    got = convolution_backprop(
        x, w, strides=s, dilations=[1] * nd, pads_begin=p, pads_end=p, output_padding=op, groups=groups,
        output_spatial=out_sp,
    )  # fmt: skip
    assert list(got.shape) == expected
    assert got.dtype == np.float32
    for o in _sample_positions(got.shape[1:], 40, seed=23):
        want = _backprop_at(x[0].astype(np.float64), w.astype(np.float64), o, s, [1] * nd, p)
        assert got[(0, *o)] == pytest.approx(want, rel=1e-4, abs=1e-4), o


@pytest.mark.parametrize(("x_shape", "w_shape", "s", "d", "p", "expected"), SPEC_FORWARD)
def test_spec_forward_examples(x_shape, w_shape, s, d, p, expected) -> None:
    x, w = _data(x_shape, np.float32, seed=24), _data(w_shape, np.float32, seed=25)
    groups = w.shape[0] if w.ndim == x.ndim + 1 else 1
    got = convolution(x, w, strides=s, dilations=d, pads_begin=p, pads_end=p, groups=groups)
    assert list(got.shape) == expected
    for o in _sample_positions(got.shape[1:], 40, seed=26):
        want = _forward_at(x[0].astype(np.float64), w.astype(np.float64), o, s, d, p)
        assert got[(0, *o)] == pytest.approx(want, rel=1e-4, abs=1e-4), o


def test_full_size_3d_spec_examples_are_estimated_not_run() -> None:
    """The 3D spec examples at 224^3 need gigabytes; the estimate says so before allocating."""
    gcbd = estimate_working_bytes(
        "convolution_backprop", [1, 20, 224, 224, 224], [4, 5, 2, 3, 3, 3], np.float32,
        strides=[2, 2, 2], dilations=[1, 1, 1], pads_begin=[1, 1, 1], pads_end=[1, 1, 1], groups=4,
    )  # fmt: skip
    assert gcbd >= 8 * 447**3 * 4  # at least the [1, 8, 447, 447, 447] float32 output
    gc = estimate_working_bytes(
        "convolution", [1, 12, 224, 224, 224], [4, 1, 3, 5, 5, 5], np.float32,
        strides=[1, 1, 1], dilations=[1, 1, 1], pads_begin=[2, 2, 2], pads_end=[2, 2, 2], groups=4,
    )  # fmt: skip
    assert gc >= 4 * 224**3 * 4


# ---------------------------------------------------------------------------------------------
# estimate_working_bytes


MEMORY_CASES = [
    pytest.param("convolution", [1, 12, 64, 64], [4, 1, 3, 5, 5], [1, 1], [1, 1], [2, 2], [2, 2], 4, {}, id="GC"),
    pytest.param("convolution", [2, 16, 40, 40], [32, 16, 3, 3], [2, 2], [1, 1], [1, 1], [0, 0], 1, {}, id="conv"),
    pytest.param("convolution", [1, 4, 12, 12, 12], [4, 1, 1, 3, 3, 3], [1, 1, 1], [2, 2, 2], [2, 2, 2],
                 [2, 2, 2], 4, {}, id="depthwise 3D"),
    pytest.param("convolution_backprop", [1, 20, 48, 48], [4, 5, 2, 3, 3], [2, 2], [1, 1], [1, 1], [1, 1], 4,
                 {"output_padding": [1, 1]}, id="GCBD"),
    pytest.param("convolution_backprop", [2, 16, 20, 20], [16, 8, 4, 4], [3, 1], [1, 2], [0, 0], [0, 0], 1,
                 {"output_padding": [0, 0], "output_spatial": [70, 30]}, id="CBD output_spatial"),
]  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize(
    ("kind", "x_shape", "w_shape", "s", "d", "pb", "pe", "groups", "extra"), MEMORY_CASES
)
def test_estimate_bounds_the_traced_peak(kind, x_shape, w_shape, s, d, pb, pe, groups, extra, dtype) -> None:
    x, w = _data(x_shape, dtype, seed=27), _data(w_shape, dtype, seed=28)
    kwargs = {"strides": s, "dilations": d, "pads_begin": pb, "pads_end": pe, "groups": groups, **extra}
    estimate = estimate_working_bytes(kind, x.shape, w.shape, x.dtype, **kwargs)
    kernel = convolution if kind == "convolution" else convolution_backprop
    release_scratch()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        out = kernel(x, w, **kwargs)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out.nbytes <= peak <= estimate
    assert estimate <= 1.5 * peak + 64 * 1024, (estimate, peak)  # and not wildly pessimistic


def test_estimate_validates_like_the_kernel() -> None:
    with pytest.raises(ValueError, match="channels"):
        estimate_working_bytes(
            "convolution", [1, 3, 5], [2, 4, 3], np.float32, strides=[1], dilations=[1], pads_begin=[0],
            pads_end=[0], groups=1,
        )  # fmt: skip
    with pytest.raises(ValueError, match="kind"):
        estimate_working_bytes(
            "deconv", [1, 3, 5], [3, 2, 3], np.float32, strides=[1], dilations=[1], pads_begin=[0], pads_end=[0],
            groups=1,
        )  # fmt: skip
    with pytest.raises(ValueError, match="output_padding"):
        estimate_working_bytes(
            "convolution", [1, 3, 5], [2, 3, 3], np.float32, strides=[1], dilations=[1], pads_begin=[0],
            pads_end=[0], groups=1, output_padding=[0],
        )  # fmt: skip
    # output_padding defaults to zeros for the backprop kernel
    assert estimate_working_bytes(
        "convolution_backprop", [1, 3, 5], [3, 2, 3], np.float32, strides=[2], dilations=[1], pads_begin=[0],
        pads_end=[0], groups=1,
    ) >= 2 * 11 * 4  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Invalid input and what the CPU plugin cannot build

F_OK = {"strides": [1], "dilations": [1], "pads_begin": [0], "pads_end": [0], "groups": 1}


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "changes", "message"),
    [
        pytest.param([1, 3], [2, 3], {}, "rank 3, 4 or 5", id="data rank 2"),
        pytest.param([1, 3, 2, 2, 2, 2], [2, 3, 1, 1, 1, 1], {}, "rank 3, 4 or 5", id="data rank 6"),
        pytest.param([1, 3, 5], [1, 2, 3, 3, 3], {}, "filter rank", id="filter rank"),
        pytest.param([1, 3, 5], [2, 4, 3], {}, "channels", id="channels"),
        pytest.param([1, 6, 5], [2, 1, 4, 3], {"groups": 2}, "channels", id="group channels"),
        pytest.param([1, 6, 5], [2, 1, 3, 3], {"groups": 3}, "groups=3", id="groups vs filter"),
        pytest.param([1, 3, 5], [2, 3, 3], {"groups": 3}, "grouped filter", id="groups on plain filter"),
        pytest.param([1, 3, 5], [2, 3, 3], {"strides": [1, 1]}, "strides must have 1", id="strides length"),
        pytest.param([1, 3, 5], [2, 3, 3], {"pads_end": []}, "pads_end must have 1", id="pads length"),
        pytest.param([1, 3, 5], [2, 3, 3], {"strides": [0]}, "strides must be >= 1", id="zero stride"),
        pytest.param([1, 3, 5], [2, 3, 3], {"dilations": [0]}, "dilations must be >= 1", id="zero dilation"),
        pytest.param(
            [1, 3, 5], [2, 3, 3], {"dilations": [3]}, "larger than the padded data", id="kernel too big"
        ),
    ],
)
def test_convolution_rejects(x_shape, w_shape, changes, message) -> None:
    with pytest.raises(ValueError, match=message):
        convolution(np.zeros(x_shape), np.zeros(w_shape), **{**F_OK, **changes})


B_OK = {**F_OK, "output_padding": [0]}


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "changes", "message"),
    [
        pytest.param([1, 3, 5], [4, 2, 3], {}, "channels", id="channels"),
        pytest.param([1, 6, 5], [2, 4, 3, 3], {"groups": 2}, "channels", id="group channels"),
        pytest.param(
            [1, 3, 5], [3, 2, 3], {"output_padding": [0, 0]}, "output_padding must have 1", id="op length"
        ),
        pytest.param(
            [1, 3, 2], [3, 2, 3], {"pads_begin": [3], "pads_end": [3]}, "negative", id="negative size"
        ),
        pytest.param(
            [1, 3, 2], [3, 2, 3], {"output_spatial": [-1]}, "output_spatial must be >= 0", id="negative O"
        ),
        pytest.param(
            [1, 3, 2], [3, 2, 3], {"output_spatial": [4, 4]}, "output_spatial must have 1", id="O length"
        ),
    ],
)
def test_backprop_rejects(x_shape, w_shape, changes, message) -> None:
    with pytest.raises(ValueError, match=message):
        convolution_backprop(np.zeros(x_shape), np.zeros(w_shape), **{**B_OK, **changes})


@pytest.mark.parametrize("dtype", [np.int32, np.complex64, np.bool_])
def test_rejects_unsupported_dtypes(dtype) -> None:
    with pytest.raises(ValueError, match="unsupported dtype"):
        convolution(np.zeros([1, 3, 5], dtype), np.zeros([2, 3, 3]), **F_OK)


@pytest.mark.parametrize(
    ("pb", "pe"),
    [([-1], [0]), ([-1], [1]), ([-2], [5]), ([0], [-1]), ([1], [-2]), ([0], [-2]), ([2], [-3])],
)
def test_forward_pads_the_cpu_plugin_cannot_build(pb, pe) -> None:
    with pytest.raises(UnsupportedByOpenVINOError):
        convolution(np.zeros([1, 2, 10]), np.zeros([3, 2, 3]), **{**F_OK, "pads_begin": pb, "pads_end": pe})


def test_backprop_negative_pads_begin_is_unsupported() -> None:
    with pytest.raises(UnsupportedByOpenVINOError, match="pads_begin"):
        convolution_backprop(np.zeros([1, 2, 4]), np.zeros([2, 3, 3]), **{**B_OK, "pads_begin": [-1]})
    assert issubclass(UnsupportedByOpenVINOError, ValueError)


def test_zero_size_dimensions() -> None:
    # empty batch
    assert convolution(np.zeros([0, 2, 5]), np.zeros([3, 2, 3]), **F_OK).shape == (0, 3, 3)
    # empty kernel axis counts as size 1 in the shape formula; the sum is empty
    out = convolution(np.ones([1, 1, 5, 5]), np.ones([1, 1, 0, 3]), **{**F_OK, "strides": [1, 1],
                      "dilations": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0]})  # fmt: skip
    assert out.shape == (1, 1, 5, 3) and not out.any()
    # backprop: empty data axis counts as size 1, output zeros
    out = convolution_backprop(np.ones([1, 1, 0, 5]), np.ones([1, 1, 3, 3]), **{**B_OK, "strides": [1, 1],
                               "dilations": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                               "output_padding": [0, 0]})  # fmt: skip
    assert out.shape == (1, 1, 3, 7) and not out.any()
    # backprop: an output size of exactly 0 is an empty array, not an error
    out = convolution_backprop(
        np.ones([1, 1, 2]), np.ones([1, 1, 3]), **{**B_OK, "pads_begin": [2], "pads_end": [2]}
    )
    assert out.shape == (1, 1, 0)
    assert math.prod(out.shape) == 0
