"""The fast paths of the usual case say what the general rules they skip say.

Each fast path (the usual convolution axis computed on integers in irshape.shapes.window; the
usual dim text read as its number in irshape.dims) is checked against the general rules it
stands for, on values drawn around every bound its test names (2**31, 19 digits, INF), by
running the same call with the fast path turned off.
"""

from __future__ import annotations

from functools import partial
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irshape import dims
from irshape.dims import DYNAMIC, Dim
from irshape.shapes import window

_EDGES = [0, 1, 2, 3, 2**31 - 2, 2**31 - 1, 2**31, 2**31 + 1, 2**62, 2**63 - 2, 2**63 - 1, 2**63, 2**64 - 1]
SIZES = st.one_of(st.integers(0, 300), st.sampled_from(_EDGES), st.integers(0, 2**64))
SIGNED = st.one_of(st.integers(-3, 300), st.sampled_from([-(2**63), -(2**31), -2, -1, *_EDGES]))
DIMS = st.one_of(
    SIZES.map(Dim.of), st.just(DYNAMIC), st.tuples(SIZES, SIZES).map(lambda b: Dim(min(b), max(b)))
)


def _both(call, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    fast = _outcome(call)
    with monkeypatch.context() as patched:
        patched.setattr(window, "_SMALL", 0)  # no axis is the usual one: the interval path
        general = _outcome(call)
    return fast, general


def _outcome(call):  # type: ignore[no-untyped-def]
    """The dim, formula and findings a call gives, or the error it raises (a stride of 0)."""
    try:
        explained, findings = call()
    except ArithmeticError as error:
        return type(error), str(error)
    return explained.dim, explained.formula, [(f.rule, f.args) for f in findings]


def _same(fast, general) -> None:  # type: ignore[no-untyped-def]
    assert fast == general


@settings(max_examples=400, deadline=None)
@given(data=DIMS, kernel=DIMS, stride=SIGNED, dilation=SIGNED, begin=SIGNED, end=SIGNED)
def test_the_usual_forward_axis_is_the_interval_rule(
    data: Dim, kernel: Dim, stride: int, dilation: int, begin: int, end: int
) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _same(
            *_both(
                lambda: window.forward_spatial(0, data, kernel, stride, dilation, (begin, end), "explicit"),
                monkeypatch,
            )
        )


@settings(max_examples=400, deadline=None)
@given(data=DIMS, kernel=DIMS, stride=SIGNED, dilation=SIGNED, begin=SIGNED, end=SIGNED, extra=SIGNED)
def test_the_usual_backprop_axis_is_the_interval_rule(
    data: Dim, kernel: Dim, stride: int, dilation: int, begin: int, end: int, extra: int
) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _same(
            *_both(
                lambda: window.backprop_spatial(0, data, kernel, stride, dilation, (begin, end), extra),
                monkeypatch,
            )
        )


def test_the_usual_axes_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparisons above compare something: the fixture's axes are the usual ones, and the
    fast path makes fewer Dims than the interval rule."""
    made = []
    monkeypatch.setattr(
        Dim, "of", classmethod(lambda cls, n, _of=Dim.of: made.append(n) or _of.__func__(cls, n))
    )
    window.forward_spatial(0, Dim.of(32), Dim.of(3), 1, 1, (1, 1), "explicit")
    fast = len(made)
    made.clear()
    monkeypatch.setattr(window, "_SMALL", 0)
    window.forward_spatial(0, Dim.of(32), Dim.of(3), 1, 1, (1, 1), "explicit")
    assert fast < len(made)


TEXTS = st.one_of(
    st.text(alphabet="0123456789", min_size=1, max_size=22),
    st.text(alphabet="0123456789 \t\n-+.?٣²", max_size=22),
    st.sampled_from(
        ["9" * 18, "9" * 19, "1" + "0" * 18, "0" * 30 + "7", "9223372036854775807", "-1", "?", " 12 "]
    ),
)


@settings(max_examples=600, deadline=None)
@given(text=TEXTS)
def test_a_plain_number_reads_as_the_general_rules_read_it(text: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast_dim, fast_reading = _read(text)
        monkeypatch.setattr(dims, "_plain_number", lambda text: False)
        assert (fast_dim, fast_reading) == _read(text)


def _read(text: str) -> tuple[object, object]:
    try:
        return dims.parse_dim(text), dims.literal_reading(text)
    except dims.DimSyntaxError as error:  # the same refusal either way
        return type(error), str(error)


# Every combination of the values around the fast path's bounds, for both ops.
_GRID_DIMS = [Dim.of(n) for n in (0, 1, 5, 2**31 - 2, 2**31 - 1, 2**31)] + [Dim(2, 7)]
_GRID_KERNELS = [Dim.of(n) for n in (0, 1, 3, 2**31 - 1, 2**31)]
_GRID_STEPS = (1, 2, 2**31 - 1, 2**31)
_GRID_PADS = ((0, 0), (1, 1), (2**31 - 1, 0), (2**30, 2**30), (-1, 0), (-2, 1))


@pytest.mark.parametrize("data", _GRID_DIMS, ids=str)
def test_the_fast_paths_at_their_bounds(data: Dim, monkeypatch: pytest.MonkeyPatch) -> None:
    for kernel, stride, dilation, pads in product(_GRID_KERNELS, _GRID_STEPS, _GRID_STEPS, _GRID_PADS):
        forward = partial(window.forward_spatial, 0, data, kernel, stride, dilation, pads, "explicit")
        _same(*_both(forward, monkeypatch))
        for extra in (0, 1, -5):
            backprop = partial(window.backprop_spatial, 0, data, kernel, stride, dilation, pads, extra)
            _same(*_both(backprop, monkeypatch))


@pytest.mark.parametrize("digits", range(1, 23))
def test_numbers_of_every_length(digits: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for text in ("9" * digits, "1" + "0" * (digits - 1), "0" * (digits - 1) + "7", f" {'5' * digits}\t"):
        fast = _read(text)
        with monkeypatch.context() as patched:
            patched.setattr(dims, "_plain_number", lambda text: False)
            assert fast == _read(text)
