"""The C library's f32 functions over arrays, as OpenVINO's binary calls them (``expf``...).

Such a function is not correctly rounded (glibc's are within about 0.5 ULP plus a little), so
its value is the exact one rounded once except where the exact one lies very near a midpoint
between two f32 values. Vectorised: the function computed in double (numpy) and rounded once,
and the library's own function (:mod:`irshape.shapes.libm`) called on the elements within
:data:`TIE_WINDOW` of a midpoint only (about 1 in 60 of random data). glibc's ``expf`` differs
from ``exp`` rounded once on 170,648 of the f32 values from -104 to 89, every one within 2**-33
of a midpoint (relative; an exhaustive scan, glibc 2.36)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from irshape.shapes import libm

TIE_WINDOW = 2.0**-31  # relative distance of the double value to a midpoint, within which the library decides
_F32_TOP = float(np.finfo(np.float32).max)


def as_the_library(
    wide: np.ndarray, function: Callable[..., float] | None, *arguments: np.ndarray
) -> np.ndarray:
    """``wide``, a function's values in double of the f32 ``arguments``, rounded to f32 as the
    C library's ``function`` rounds them: where ``wide`` is near a midpoint (or at the top of
    f32's range, rounding to FLT_MAX or inf), ``function`` itself on those elements. Where the
    function cannot be loaded (None), ``wide`` rounded once."""
    result: np.ndarray = wide.astype(np.float32)
    if function is None:
        return result
    with np.errstate(invalid="ignore"):
        away = np.where(wide > result, np.float32(np.inf), np.float32(-np.inf))
        midpoint = (result.astype(np.float64) + np.nextafter(result, away).astype(np.float64)) / 2
        near = np.abs(wide - midpoint) <= TIE_WINDOW * np.abs(wide)
        near |= (np.abs(wide) >= _F32_TOP) & (np.abs(wide) <= 2.0**128)
    if near.any():
        picked = zip(*(a[near].tolist() for a in arguments), strict=True)
        result[near] = np.fromiter((function(*a) for a in picked), np.float32, int(near.sum()))
    return result


def expf(x: np.ndarray) -> np.ndarray:
    """The C library's ``expf`` of f32 values (C++'s ``std::exp`` of a float), as the plugin's
    nodes that call it compute it."""
    x = np.asarray(x, np.float32)
    with np.errstate(over="ignore"):
        return as_the_library(np.exp(x.astype(np.float64)), libm.expf(), x)
