"""The platform C library's ``powf`` and ``expf``, which OpenVINO calls, loaded on first use.

OpenVINO computes an f32 (and an f16 or bf16, converted to f32) Power with ``std::pow(float,
float)`` (``reference::power``, behind Power's evaluate and constant folding); libstdc++'s
overload of it is ``__builtin_powf``, a call to the C library's ``powf``, and the CPU plugin's
JIT calls ``powf`` too where its exponent is not a constant it expands (irshape/kernels/
elementwise.py). ``powf`` is not correctly rounded: glibc's (2.27 and later) computes
``exp2(y * log2(x))`` in double within 0.82 ULP of float, so on an exact tie it may round the
other way than C's ``pow`` rounded to float once (626^3, 245314376 exactly, is 245314384 there
and 245314368 rounded to even), and a near tie likewise. Which way is the library's own
arithmetic, so irshape calls the very function OpenVINO's binary calls on the platform it runs
on: ``powf`` among the symbols the Python process already has (glibc's ``libm`` on Linux,
libSystem on macOS), ``ucrtbase``'s on Windows (MSVC's ``std::pow(float, float)``).

Loading it takes ``ctypes``, which a plain check must not import (tests/test_startup.py): it is
loaded the first time a real Power is computed, and only then. Where no ``powf`` can be loaded
(a Python without ``ctypes``, a C library without the symbol) :func:`powf` gives None and the
callers compute C's ``pow`` in double rounded to float once: that is ``powf``'s result but on
exact and near ties, where it may differ by one unit in the last place.

``expf`` is ``std::exp`` of a float, which the CPU plugin's proposal and detection nodes call
(irshape/kernels/proposals.py). glibc's is not correctly rounded either (within 0.502 ULP): it
differs from C's ``exp`` rounded to float once on 170,648 of the f32 values from -104 to 89
(all within 2**-33 of a rounding midpoint, relative), and the plugin's results follow glibc's.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

PowF = Callable[[float, float], float]
ExpF = Callable[[float], float]

_loaded: dict[str, Callable[..., float] | None] = {}  # by symbol, after its first call: the function or None


def powf() -> PowF | None:
    """The platform's ``powf`` on Python floats (each a float32 value: converted exactly), its
    result a float32 value as a Python float; None where it cannot be loaded."""
    return _function("powf", 2)


def expf() -> ExpF | None:
    """The platform's ``expf``, as :func:`powf` is its ``powf``."""
    return _function("expf", 1)


def _function(symbol: str, arity: int) -> Callable[..., float] | None:
    if symbol not in _loaded:
        _loaded[symbol] = _load(symbol, arity)
    return _loaded[symbol]


def _load(symbol: str, arity: int) -> Callable[..., float] | None:
    """The C library's float function ``symbol`` of ``arity`` float arguments, or None."""
    try:
        import ctypes  # (here only: not on a plain check's path)
    except ImportError:
        return None
    names: list[str | None] = ["ucrtbase"] if sys.platform == "win32" else [None, "libm.so.6"]
    for name in names:
        try:
            function = getattr(ctypes.CDLL(name), symbol)
        except (OSError, AttributeError):  # no such library, or no such symbol in it
            continue
        function.restype = ctypes.c_float
        function.argtypes = [ctypes.c_float] * arity
        return function  # type: ignore[no-any-return]
    return None
