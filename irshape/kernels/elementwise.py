"""Kernels of the element-wise family (irshape/shapes/elementwise.py): activations, arithmetic,
comparisons, logical and bitwise ops, Convert, Select, Broadcast, Tile.

What OpenVINO's CPU plugin computes (``INFERENCE_PRECISION_HINT=f32``), found by experiment
(tests/execution/test_elementwise.py holds the cases) where it differs from the reference
implementation or from numpy:

* Reals: f32 arithmetic; f16 (and bf16) data is computed in f32 and rounded back to its type.
  NaN as the JIT emitters treat it: Relu, HSigmoid and HSwish of NaN are 0, Clamp's is its
  min, HardSigmoid's 1, Exp's +inf; Maximum/Minimum(NaN, b) is b (vmaxps gives its second
  operand), (a, NaN) is NaN; Greater and GreaterEqual are not(a <= b), not(a < b), so true
  where either is NaN (on avx512_core; elsewhere false: ``irshape.kernels.isa``); Mod is
  a - trunc(a / b) * b (x mod inf is NaN); Gelu (erf) of +inf is NaN (on avx512_core).
* Integers: the plugin keeps integers in i32 (i64, u64 and u32 are held as i32 for every op:
  irshape/kernels/integers.py holds that rule and the executor applies it, so these kernels get
  i64 data already cut); i16 and u16 results wrap to their type, i8 and u8 results saturate (u8
  1 - 255 is 0, i8 127 + 1 is 127). Add, Subtract, Multiply, Maximum, Minimum, Clamp, the
  comparisons and the bitwise ops (shift counts modulo 32; BitwiseNot wraps u8 too) work on the
  i32 values; Divide, Power, FloorMod and Mod compute in f32 and truncate toward zero to i32, a
  NaN or a value outside i32 giving -2^31 (x86's cvttps2dq): an integer Divide truncates even
  with ``m_pythondiv`` (-7 / 2 is -3; the reference and constant folding give -4), 2^31 - 1
  over 3 is 715827904 and x / 0 is -2^31 stored (0 in i16, -128 in i8). The math functions and
  Relu, Floor, Ceiling, Round of integers compute in f32 and round to nearest (cvtps2dq:
  Sqrt(21) is 5), so an i32 2^31 - 1 comes out -2^31.
* pdpd broadcasting: the plugin's eltwise node takes none; of the ops it builds at all (Add,
  Multiply, FloorMod, Power, Maximum, Minimum, SquaredDifference for reals, and Divide, Mod for
  i32) it runs OpenVINO's reference implementation, whose integer Divide floors with
  ``m_pythondiv``. It compiles no pdpd Subtract or Divide of reals, nor any pdpd Select.
* Convert from a real type to an integer one: truncation to i32 as above (NaN and overflow give
  -2^31), then wrapped to the destination (f32 300.7 to u8 is 44, -1.5 to u8 is 255): no
  saturation. From an integer type: the i32 value wrapped or sign-extended; to a real type from
  the i32 value (a Parameter's or a Const's whole value reaches a Convert already converted to
  f32 by the executor: the plugin's input conversion, see irshape/kernels/integers.py). To
  boolean: zero, NaN and the i32 value -2^31 give false. To f16: IEEE rounding (65520 is inf).
  To bf16, f8 and f4: see irshape/kernels/narrow_reals.py; to u4 and i4 the plugin stores u8
  and i8 values (-1 to u4 is 255). A Convert straight from an f16 Parameter to an integer type
  saturates inf to 65504: that is the plugin's input conversion, not its Convert node, and
  irshape does not model it.
* f64 data is computed as f32, saturated on entry (inf and 1e300 are FLT_MAX, 1e-50 is 0) and
  on exit (an f32 inf result is FLT_MAX); a Convert straight from an f64 Parameter saturates to
  integers instead (not modelled).
* The plugin's i8/u8 SquaredDifference is wrong (i8 1 and 8 give -7): irshape computes the op
  (saturated like i8/u8 arithmetic) and the suite leaves those types out.
* Subnormal f32 values: the plugin flushes them to zero in its arithmetic (denormals-are-zero);
  irshape keeps them (they are below the comparison's tolerance).
* Found by the kernel fuzzer (tests/execution/test_kernel_fuzz.py; the fixed cases are in
  test_elementwise.py's ``fuzz_found_cases``): a Divide of reals is a times the f32 reciprocal
  of b (bit for bit; a / b differs in the last bit on a quarter of the elements); Exp is inf
  from 88.37627 and 0 below ln(FLT_MIN); PRelu of integers is computed in f32; the Math node's
  functions (Acos..Tan, the hyperbolic ones) take integers through a saturating Reorder;
  HardSigmoid's and Selu's parameters of 0 are their defaults; IsFinite of a subnormal f32 is
  false; Gelu (erf) overflows above FLT_MAX / 2; i8 and u8 Clamp clamp in f32 and truncate; an
  i8 Subtract saturates -b first.
* Transcendental functions, bit for bit (tests/execution/test_elementwise.py's
  ``exactness_cases``): Exp and Erf are OpenVINO's JIT emitters, Sigmoid, Swish, Elu and Mish
  oneDNN's eltwise injector, all on one exp (:func:`plugin_exp`: a polynomial of fixed
  coefficients by FMAs); Erf is Abramowitz and Stegun's 7.1.26 on it; HSigmoid multiplies by
  1/6 rounded down, HSwish by 1/6 rounded to nearest; Selu is the Math node's formula on
  ``expf``. Also bit for bit (``approximation_cases``), read from the plugin's JIT code (the
  kernels oneDNN dumps with ``ONEDNN_JIT_DUMP=1``, disassembled): Tanh and Gelu (both modes),
  oneDNN's polynomials per interval (:func:`plugin_tanh`, :data:`_GELU_ERF_TABLE`); SoftPlus,
  oneDNN's soft_relu (its exp and its own log); ErfInv, Giles' approximation in f32 on the
  emitter's log (0.886 x near 0). Within tolerance only, the measured bounds in
  docs/execution.md: the Math node's functions (Sin..Atanh) and Log, glibc's f32 functions
  computed here in double rounded once.
* Power: by a constant exponent of one element, integer powers by squaring in f32 and ±0.5 a
  square root (626^3 is 245314368); else the C library's ``powf`` (245314384), which is not
  correctly rounded (see the Power section below; tests/execution/test_power.py, bit for bit).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from irshape.kernels import KernelCall, KernelError, output_bytes, storage_dtype, working_memory
from irshape.kernels.isa import PLUGIN_ISA
from irshape.kernels.libm_calls import as_the_library, expf
from irshape.kernels.narrow_reals import integers_to_bf16, rounded_to
from irshape.shapes import libm

Array = np.ndarray
RealFunction = Callable[[Array], Array]
BinaryFunction = Callable[[Array, Array], Array]

_I32_MIN = -(2**31)

# --- how the plugin holds and stores values --------------------------------------------------


def _array(value: Any) -> Array:
    """A kernel's result as an array: numpy's ufuncs give a scalar for 0-d operands."""
    return np.asarray(value)


def _is_real(array: Array) -> bool:
    return array.dtype.kind == "f"


def _as_f32(array: Array) -> Array:
    """The f32 values the plugin computes with: reals widened or narrowed, integers converted
    from their i32 form."""
    if array.dtype == np.float64:  # f64 data enters the plugin as f32, saturated: inf is FLT_MAX
        limit = np.finfo(np.float32).max
        clipped: Array = np.clip(array, -limit, limit).astype(np.float32)
        return clipped
    if _is_real(array):
        return array.astype(np.float32, copy=False)
    return _as_i32(array).astype(np.float32)


def _as_i32(array: Array) -> Array:
    """An integer or boolean array as the plugin's i32: the low 32 bits (i64's, u64's, u32's)."""
    return array.astype(np.int32)


def _truncated_i32(values: Array) -> Array:
    """f32 results as the plugin's i32: truncated toward zero, NaN and overflow -2^31."""
    with np.errstate(invalid="ignore"):
        wide_enough = values.dtype.kind == "f" and values.dtype.itemsize >= 4  # holds +-2^31
        truncated = np.trunc(values if wide_enough else values.astype(np.float64))
        inside = (truncated >= _I32_MIN) & (truncated < 2**31)
    result: Array = np.where(inside, truncated, _I32_MIN).astype(np.int32)
    return result


def _rounded_i32(values: Array) -> Array:
    """f32 results as the plugin's i32 where its math emitters convert them: rounded to nearest
    (ties to even), NaN and overflow -2^31 (x86's cvtps2dq)."""
    return _truncated_i32(np.rint(values))


def _stored_int(values: Array, dtype: np.dtype[Any]) -> Array:
    """i32 results stored in an integer type: i8 and u8 saturate, the others wrap (64-bit
    types sign-extend the i32)."""
    if dtype.itemsize == 1 and dtype.kind in "iu":
        if dtype.kind == "u" and PLUGIN_ISA != "avx512_core":
            # avx2 has no vpmovusdb: vpackusdw to u16, then vpackuswb reads those as i16, so
            # 32768 and above are 0 (255^2 is 0, 4096 is 255: by experiment, ONEDNN_MAX_CPU_ISA=AVX2)
            values = np.clip(values, 0, 0xFFFF).astype(np.uint16).view(np.int16)
        info = np.iinfo(dtype)
        result: Array = np.clip(values, info.min, info.max).astype(dtype)
        return result
    return values.astype(dtype)


def _stored_real(values: Array, element_type: str, dtype: np.dtype[Any]) -> Array:
    """f32 results in a real output type (f16 rounds; bf16, f8 and f4 round but stay f32)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if dtype == np.float64:  # and f64 results leave it saturated (inf is FLT_MAX)
            limit = np.finfo(np.float32).max
            values = np.clip(values, -limit, limit)
        stored = values.astype(dtype)
    return rounded_to(stored, element_type)


def _result(call: KernelCall, values: Array, *, from_real: bool, rounded: bool = False) -> Array:
    """Results (f32 if ``from_real``, else i32, or bool) in the output's type; f32 results
    become integers truncated, or ``rounded`` to nearest."""
    dtype = call.output_dtype()
    if dtype.kind == "b":
        return _array(values.astype(bool))
    if dtype.kind == "f":
        return _array(_stored_real(values, call.output_type(), dtype))
    if from_real:
        values = _rounded_i32(values) if rounded else _truncated_i32(values)
    return _array(_stored_int(values.astype(np.int32), dtype))


# --- unary ops -----------------------------------------------------------------------------


def _f32_temporaries(count: int) -> Callable[[KernelCall], int]:
    """The memory estimate of a kernel computing in f32 with ``count`` temporaries the output's
    size: the output, those, and the inputs."""

    def estimate(call: KernelCall) -> int:
        output = output_bytes(call, 0)
        dtype = storage_dtype(call.inference.outputs[0].element_type)
        elements = output // (dtype.itemsize if dtype is not None else 1)
        return output + count * 4 * elements + sum(a.nbytes for a in call.inputs)

    return estimate


def _real_unary(function: RealFunction, temporaries: int = 3) -> Callable[[KernelCall], Array]:
    """A math function computed in f32 whatever the input type (integer results rounded back),
    with about ``temporaries`` f32 arrays of the data's size alive at once."""

    def kernel(call: KernelCall) -> Array:
        with np.errstate(all="ignore"):
            values = function(_as_f32(call.inputs[0]))
        return _result(call, values, from_real=True, rounded=True)

    working_memory(_f32_temporaries(temporaries))(kernel)
    return kernel


# The largest f32 below 2^31: where the plugin's Reorder from f32 to i32 saturates a large
# positive value (2^31 itself would not fit).
_I32_TOP_F32 = 2147483520


def reordered_i32(values: Array) -> Array:
    """f32 values as the plugin's Reorder converts them to i32 (its nodes that compute in f32
    only: the Math node, ReorgYolo): rounded to nearest, saturated to [-2^31, 2147483520], NaN
    -2^31."""
    with np.errstate(invalid="ignore"):
        rounded = np.rint(values)
        clipped = np.clip(rounded, _I32_MIN, _I32_TOP_F32)
        converted: Array = np.where(np.isnan(rounded), _I32_MIN, clipped).astype(np.int64).astype(np.int32)
    return converted


def _math_node_unary(function: RealFunction) -> Callable[[KernelCall], Array]:
    """A trigonometric or hyperbolic function: the plugin's Math node, which computes in f32 and
    takes integers through Reorders (a saturating conversion, not the eltwise emitters'
    cvtps2dq): to i32 rounded to nearest, NaN and anything below the range -2^31, anything above
    it 2147483520 (Cosh(38) of an i32); to i8 and u8 saturated from f32 (NaN is -128 in i8 and
    255 in u8); to i16 and u16 the i32 value wrapped. Found by the kernel fuzzer."""

    def kernel(call: KernelCall) -> Array:
        with np.errstate(all="ignore"):
            values = function(_as_f32(call.inputs[0]))
            dtype = call.output_dtype()
            if dtype.kind not in "iu":
                return _result(call, values, from_real=True, rounded=True)
            rounded = np.rint(values)
            if dtype.itemsize == 1:
                info = np.iinfo(dtype)
                nan_value = info.min if dtype.kind == "i" else info.max
                return _array(
                    np.where(np.isnan(rounded), nan_value, np.clip(rounded, info.min, info.max)).astype(dtype)
                )
            return _array(_stored_int(reordered_i32(values), dtype))

    working_memory(_f32_temporaries(3))(kernel)
    return kernel


def _int_unary(real: RealFunction, integer: Callable[[Array], Array]) -> Callable[[KernelCall], Array]:
    """An op the plugin computes on i32 for integers (Abs, Negative, Relu, Sign...)."""

    def kernel(call: KernelCall) -> Array:
        data = call.inputs[0]
        if _is_real(data):
            with np.errstate(all="ignore"):
                return _result(call, real(_as_f32(data)), from_real=True)
        return _result(call, integer(_as_i32(data)), from_real=False)

    return kernel


def _nan_to(values: Array, source: Array, replacement: float) -> Array:
    """``values`` with ``replacement`` where the source is NaN: what the plugin's max/min-based
    emitters give there (vmaxps returns its second operand when the first is NaN)."""
    return np.where(np.isnan(source), np.float32(replacement), values)


def _relu(x: Array) -> Array:
    return _nan_to(np.maximum(x, np.float32(0)), x, 0.0)


# --- the plugin's exp ------------------------------------------------------------------------


def fma_f32(a: Array | np.float32, b: Array | np.float32, c: Array | np.float32) -> Array:
    """``a * b + c`` of f32 values rounded once to f32, as the FMA instructions compute it: the
    f64 product is exact, the f64 sum is made round-to-odd (TwoSum gives its rounding error
    exactly; an inexact sum with an even last bit moves to its odd neighbour towards the error),
    and a round-to-odd value of 53 bits rounds to f32's 24 as the exact value does."""
    product = np.asarray(a, np.float64) * np.asarray(b, np.float64)
    addend = np.asarray(c, np.float64)
    total = product + addend
    part = total - product
    error = (product - (total - part)) + (addend - part)
    inexact = np.isfinite(error) & (error != 0) & ((total.view(np.int64) & 1) == 0)
    total = np.where(inexact, np.nextafter(total, np.copysign(np.inf, error)), total)
    return total.astype(np.float32)


def _fma_horner(t: Array, coefficients: tuple[np.float32, ...]) -> Array:
    """A polynomial in ``t`` by Horner's rule of FMAs, the highest coefficient first."""
    result = np.full_like(t, coefficients[0])
    for c in coefficients[1:]:
        result = fma_f32(result, t, c)
    return result


def _f32_of(bits: int) -> np.float32:
    return np.float32(np.array(bits, np.uint32).view(np.float32))


_EXP_POLYNOMIAL = tuple(
    _f32_of(b) for b in (0x3C07CFCE, 0x3D2B9D0D, 0x3E2AAD40, 0x3EFFFEE3, 0x3F7FFFFB, 0x3F800000)
)
_LN2, _LOG2E = _f32_of(0x3F317218), _f32_of(0x3FB8AA3B)
_LN_FLT_MAX, _LN_FLT_MIN = _f32_of(0x42B17218), _f32_of(0xC2AEAC50)


def plugin_exp(x: Array, *, onednn: bool = False) -> Array:
    """exp of f32 values as the CPU plugin's JIT computes it, bit for bit: x clipped to
    [ln(FLT_MIN), ln(FLT_MAX)] (NaN is ln(FLT_MAX): vminps gives its second operand),
    ``n = floor(x * log2(e) + 0.5)``, ``r = x - n * ln2`` (one FMA), exp(r) by a polynomial of
    degree 5 (Horner's rule of FMAs, fixed coefficients) times 2^n, and 0 below ln(FLT_MIN).
    OpenVINO's own emitter (Exp, Erf) builds 2^n, which is inf where n is 128 (from 88.37627);
    oneDNN's eltwise injector (``onednn``: Sigmoid, Swish, Elu, Mish) builds 2^(n-1) and doubles
    the product (finite up to FLT_MAX; 0 where n is -126, whose 2^(n-1) is no normal f32).
    The avx2 and avx512 code share the polynomial and the FMAs (sse41 has no FMA: not modelled).
    tests/execution/test_elementwise.py's ``exactness_cases``, bit for bit."""
    with np.errstate(invalid="ignore", over="ignore"):
        below = x < _LN_FLT_MIN
        clipped = np.maximum(np.where(np.isnan(x), _LN_FLT_MAX, np.minimum(x, _LN_FLT_MAX)), _LN_FLT_MIN)
        n = np.floor(clipped * _LOG2E + np.float32(0.5))
        reduced = fma_f32(-n, _LN2, clipped)
        exponent = n.astype(np.int32) + (126 if onednn else 127)
        power = np.where(below, 0, exponent << 23).astype(np.int32).view(np.float32)
        result: Array = _fma_horner(reduced, _EXP_POLYNOMIAL) * power
        return result * np.float32(2) if onednn else result


def plugin_sigmoid(x: Array) -> Array:
    """oneDNN's logistic: ``e / (e + 1)`` of ``e = exp(-|x|)``, and 1 less that where x's sign
    bit is clear."""
    e = plugin_exp(-np.abs(x), onednn=True)
    low = e / (e + np.float32(1))
    result: Array = np.where(np.signbit(x), low, np.float32(1) - low)
    return result


# (1/6 rounded down: what the plugin multiplies by, found by experiment: HSigmoid(3) is
# 0.99999994 and HSigmoid(0) 0.49999997 there)
_ONE_SIXTH_BELOW = _f32_of(0x3E2AAAAA)


def _hsigmoid(x: Array) -> Array:
    clipped = np.minimum(np.maximum(x + np.float32(3), np.float32(0)), np.float32(6)) * _ONE_SIXTH_BELOW
    return _nan_to(clipped, x, 0.0)


def _hswish(x: Array) -> Array:
    """oneDNN's hardswish: ``x * clip(x * (1/6) + 0.5, 0, 1)``, 1/6 rounded to nearest."""
    result: Array = x * np.clip(x * np.float32(1 / 6) + np.float32(0.5), np.float32(0), np.float32(1))
    return result


# where oneDNN's mish stops exp's argument: (1 + e^x)^2 stays finite
_MISH_MAX_X = _f32_of(0x42317217)


def _mish(x: Array) -> Array:
    """oneDNN's mish: ``x * ((1 + e^x)^2 - 1) / ((1 + e^x)^2 + 1)`` (tanh of softplus written
    with exp alone)."""
    plus_one = plugin_exp(np.minimum(x, _MISH_MAX_X), onednn=True) + np.float32(1)
    square = plus_one * plus_one
    result: Array = (square - np.float32(1)) / (square + np.float32(1)) * x
    return result


_ERF_POLYNOMIAL = tuple(_f32_of(b) for b in (0x3F87DC22, 0xBFBA00E3, 0x3FB5F0E3, 0xBE91A98E, 0x3E827906))


def _plugin_erf(x: Array) -> Array:
    """Erf as the plugin's jit_erf_emitter computes it, bit for bit: Abramowitz and Stegun's
    7.1.26, ``1 - t * P(t) * exp(-x^2)`` with ``t = 1 / (1 + 0.3275911 |x|)`` (P and the
    denominator by FMAs, exp :func:`plugin_exp`), the sign of x put back."""
    minus_exp = -plugin_exp(-(x * x))
    t = np.float32(1) / fma_f32(_f32_of(0x3EA7BA05), np.abs(x), np.float32(1))
    magnitude = fma_f32(minus_exp * t, _fma_horner(t, _ERF_POLYNOMIAL), np.float32(1))
    result: Array = np.where(np.signbit(x), -magnitude, magnitude)
    return result


def _exponent_and_mantissa(y: Array) -> tuple[Array, Array]:
    """How the plugin's JIT splits positive f32 values for a log: ``y = 2^e * (1 + t)`` with
    ``1 + t`` in [0.5, 1) (``e`` the exponent field less 126, ``t`` the mantissa with 0.5's
    exponent, less 1), so ``log(y) = e * ln2 + log(1 + t)``."""
    bits = y.view(np.int32)
    exponent = ((bits >> 23) - 126).astype(np.float32)
    reduced = ((bits & 0x007FFFFF) | 0x3F000000).view(np.float32) - np.float32(1)
    return exponent, reduced


_SOFTPLUS_LOG_POLYNOMIAL = tuple(
    _f32_of(b)
    for b in (
        *(0xBFC4D30E, 0xBFE1E812, 0xBFA8F1E6, 0xBE361D04, 0xBEA3D7BF),
        *(0x3EA70608, 0xBF001759, 0x3F7FFF8E, 0xB2B4637D),
    )
)


def _softplus(x: Array) -> Array:
    """oneDNN's soft_relu, bit for bit: ``log(1 + e^x)`` as ``log(y) + n * ln2`` with
    ``y = e^r + 2^-n`` (``n`` and ``e^r`` as :func:`plugin_exp` has them, but ``r = x - n * ln2``
    in two roundings, not one FMA; ``y`` as ``(2 e^r + 2^(1-n)) / 2``), log(y) as
    ``e * ln2 + P(t)`` (:func:`_exponent_and_mantissa`; P of degree 8 by FMAs, a product and a
    sum after), and x itself above 20 (NaN too). So where x is negative log(y) and n * ln2
    cancel: below about -10 the result is a multiple of a last bit of ``n * ln2`` (-14.2 gives
    9.5e-7, -14.5 0, -20 -1.9e-6), not e^x (the reference's ``log1p(exp(x))``)."""
    clipped = np.maximum(np.minimum(x, _LN_FLT_MAX), _LN_FLT_MIN)
    n = np.floor(clipped * _LOG2E + np.float32(0.5))
    n_ln2 = n * _LN2
    exp_r = _fma_horner(clipped - n_ln2, _EXP_POLYNOMIAL)
    two_to_one_less_n = (((np.float32(1) - n).astype(np.int32) + 127) << 23).view(np.float32)
    exponent, reduced = _exponent_and_mantissa((exp_r * np.float32(2) + two_to_one_less_n) / np.float32(2))
    log_y = exponent * _LN2 + _fma_horner(reduced, _SOFTPLUS_LOG_POLYNOMIAL)
    result: Array = np.where(~(x <= np.float32(20)), x, log_y + n_ln2)
    return result


def _table_of(words: str, rows: int) -> Array:
    """A table of f32 coefficients written as their bits in hex, one row per coefficient."""
    return np.array([int(w, 16) for w in words.split()], np.uint32).view(np.float32).reshape(rows, -1)


# oneDNN's tanh: a polynomial of degree 6 per interval of |x| (32 intervals, each a half of a
# binade from 2^-12), coefficients c0..c6 by interval; read from the plugin's JIT code
_TANH_TABLE = _table_of(
    """
    00000000 39BFFFFF 39FFFFFF 3A3FFFFE 3A7FFFFB 3ABFFFF7 3AFFFFEB 3B3FFFDC 3B7FFFAB 3BBFFF70 3BFFFEAB
    3C3FFDC0 3C7FFAAB 3CBFF701 3CFFEAAD 3D3FDC08 3D7FAACD 3DBF7081 3DFEACC9 3E3DC7FD 3E7ACBF5 3EB77A9F
    3EEC9A9F 3F22991F 3F42F7D6 3F67B7CC 3F76CA83 3F7EBBE9 3F7FD40C 3F7FFF32 3F7FFFFC 3F800000
    3F800000 3F800018 3F7FFFE8 3F7FFFDA 3F7FFFDC 3F7FFFDC 3F7FFFAC 3F7FFF70 3F7FFEEC 3F7FFDC0 3F7FFBED
    3F7FF704 3F7FEFF5 3F7FDBCA 3F7FBFFF 3F7F7041 3F7F009B 3F7DC36C 3F7C0AA8 3F7734B8 3F70A4DE 3F5F1FD8
    3F495493 3F18B9EC 3ED706CB 3E390B06 3D90B11F 3C21A053 3AAF7FDB 37CCC1A3 355C6733 00000000
    00000000 BE4E0FF1 3D25B1B1 3D6B6DAB 3C9FB1D5 BABFF06F 3C07B3F6 BB3FC1BC 3A9F5921 BBBF06F2 BBB0F402
    BC47DB9E BC73D5E7 BCA25BDA BCFCA780 BD40E07C BD7DAB03 BDBE4A0F BDFB14A5 BE36CC8D BE6BD102 BE9FE7C5
    BEBA0F10 BEC206A8 BEA3C388 BE277D62 BD8B7960 BC209F49 BAAD44CA B7C6EEAC B663AA41 00000000
    00000000 45B3AE96 C414EB20 C450E02E C3152B4E BEAD2F56 C2162E02 BEB4BD5A C11A59A4 BED2F507 C020D32C
    3DD0F506 BF2A75E2 BFF950E3 BED47334 BE809B8C BEB64532 BE961A5B BE9B63AC BEA0D4B2 BE828A77 BE378612
    BDC20908 3D2D3957 3DD46E89 3DB3F629 3D2C5E7B 3BD20403 3A59DFAE 3770AF45 372CC014 00000000
    00000000 CC981A1B 4A7EDD3D 4AB1007C 48FEDD9C 41A557B5 477EE32A 422557F5 45FF3CE4 42A55641 446E0867
    C33DC19A 42915214 43AF4FAD 4110FE88 C1099B75 3FC8A8DC BFBEAEF5 BE365AAD 3F4D9652 3DDFA08F 3E34E9B8
    3E2D07A6 3DC63567 3CDAEB78 BCD17537 BC92829C BB43AB99 B9B471DD B6BAAD5A B78BAFC7 00000000
    00000000 52F688D5 D0505C72 D08F98E3 CE505CC9 C7162B8A CC5061D6 C7162BDF CA50B37F C7162A3A C8422086
    471A714E C5ECE1F1 C70E3D90 C3EBA94A 43E0C424 C21F4552 42217CC8 405E7DC4 C10DD401 3E96B602 BD1A6D2F
    BD393883 BD674682 BD310016 B961E269 3BA32495 3A7680D5 38B3173C 35A9DEEA 375C3F2A 00000000
    00000000 D8995ED1 558285EA 55B2CD69 53028625 4BC9991F 5082898A 4B4999B3 4E02C07C 4AC99764 4B72C822
    CA40C0E1 489413E4 49B12224 46134C4E C60C2D57 43C83910 C3C872D1 C186BC9E 42325BC3 BF2FFA4A 3D9A203C
    BC545A43 BAE08FEE 3C80225D 3B1FD1DF BA36B9D1 B91DE544 B71F100F B408E2ED B685FEC8 00000000
    """,
    rows=7,
)
_TANH_INTERVAL_MASK = np.uint32(0xFFC00000)  # the exponent and the first mantissa bit
_TANH_FIRST_INTERVAL = np.uint32(0x39800000)  # 2^-12
_TANH_LINEAR_BELOW = _f32_of(0x39DDB3D7)  # tanh(x) is x below 4.2e-4
_TANH_ONE_FROM = _f32_of(0x41102CB3)  # and 1 from 9.010913


def plugin_tanh(x: Array) -> Array:
    """tanh of f32 values as oneDNN's eltwise injector computes it (the plugin's Tanh, Gelu's
    tanh mode), bit for bit: on |x| in each half of a binade from 2^-12 a polynomial of degree 6
    in ``t = |x| - start`` (Horner's rule of FMAs, coefficients by interval), |x| below 4.2e-4,
    1 from 9.010913 (NaN stays NaN), the sign of x put back."""
    magnitude = np.abs(x)
    bits = magnitude.view(np.uint32)
    interval = (((bits - _TANH_FIRST_INTERVAL) & _TANH_INTERVAL_MASK) >> np.uint32(22)) & np.uint32(31)
    with np.errstate(invalid="ignore"):
        t = magnitude - (bits & _TANH_INTERVAL_MASK).view(np.float32)
        result = _TANH_TABLE[6][interval]
        for coefficients in _TANH_TABLE[5::-1]:
            result = fma_f32(result, t, coefficients[interval])
        result = np.where(magnitude < _TANH_ONE_FROM, result, np.float32(1))
        result = np.where(~(magnitude >= _TANH_LINEAR_BELOW), magnitude, result)
    signed: Array = np.where(np.signbit(x), -result, result)
    return signed


# oneDNN's gelu_erf: erf(|x| / sqrt(2)) by a polynomial of degree 5 in |x| per interval (from
# index 1, a quarter of a binade each; 23 is erf = 1, from |x| = 5.542594), coefficients c0..c5
_GELU_ERF_TABLE = _table_of(
    """
    A6F2CB94 32827792 3381CC0C 34523D4A 351AC44D 35F36D88 36EE8229 37B8A3BB 3867A213 3940033B 3A2A5A1D
    3AE35863 3B7828F2 3C08B14B 3C515ED3 BB503236 BD8D8E5E BE8ABCD9 BF0C19A2 BECCB328 3E176CED 3F470D99
    3F7ABB28 3F800000
    3F4C422A 3F4C421F 3F4C4207 3F4C41CB 3F4C413B 3F4C3FAD 3F4C3A2F 3F4C2D40 3F4C146A 3F4BC341 3F4AD08C
    3F48F8CF 3F45FAC7 3F404E07 3F3B980F 3F48DFF3 3F78B21B 3FBB0704 40019C32 3FE536D6 3F81331E 3E6C8684
    3C98F936 00000000
    B62173F4 3735E4CF 37F2FF89 388C23BE 3917535C 39AB2AB0 3A60FADB 3AF9B960 3B6E5491 3C0A4EC5 3CA5AA8C
    3D2138D9 3D8737D4 3DDFB660 3E0F27AB 3D94004B BE0EFDEB BF1D96C3 BF89DB58 BF6D9897 BEF69FB8 BDC4F8A8
    BBDE6422 00000000
    BE081A19 BE084570 BE08639B BE089837 BE08F409 BE09AB95 BE0B66D0 BE0E400A BE124DF8 BE1BDE02 BE2F19C9
    BE4931BF BE685FBC BE89C95F BE96CBCA BE8044AA BE0550F2 3DCFD6A1 3E94C826 3E79345F 3DECEC91 3CA46568
    3AA1E00A 00000000
    BA3D61DB 39F097A3 3A5845DC 3AB1FA35 3B0CEFB8 3B653AB6 3BCAE527 3C221712 3C6C5840 3CC0A703 3D1DCC19
    3D63656D 3D955907 3DBF9910 3DD53F69 3DB7DCEF 3D639EBE BA6EDE48 BD22BE69 BD041CF1 BC64F5AB BB097A32
    B8EBF380 00000000
    3CB7D80C 3C9B6050 3C978D11 3C92E850 3C8D058B 3C848454 3C6CD623 3C4C824B 3C2A7935 3BE0B390 3B0651AC
    BB232F53 BBD42FA0 BC2C5366 BC492C9E BC2A7AA6 BBD55D04 BA823A76 3B102AA8 3AE25A7E 3A31F792 38B84375
    3689BB5A 00000000
    """,
    rows=6,
)
_GELU_ERF_BIAS = np.int32(-0x3DE00001)  # 0xc21fffff: moves |x|'s bits to the intervals
_GELU_ERF_ONE_FROM = _f32_of(0x40B15CEE)


def _gelu_erf(x: Array) -> Array:
    """oneDNN's gelu_erf, bit for bit: ``x * (1 + erf) * 0.5`` in that order (above FLT_MAX / 2
    inf: found by the kernel fuzzer, 2e38 gives inf), erf by :data:`_GELU_ERF_TABLE` (Horner's
    rule of FMAs), its sign put back by x's; infinities give NaN (the polynomial's inf * 0). That is
    avx512's; avx2's below."""
    magnitude = np.abs(x)
    with np.errstate(invalid="ignore"):
        interval = np.clip((magnitude.view(np.int32) + _GELU_ERF_BIAS) >> 21, 1, 23)
        interval = np.where(magnitude > _GELU_ERF_ONE_FROM, 23, interval)
        erf = _GELU_ERF_TABLE[5][interval]
        for coefficients in _GELU_ERF_TABLE[4::-1]:
            erf = fma_f32(erf, magnitude, coefficients[interval])
    signed_erf = np.where(np.signbit(x), -erf, erf)
    if PLUGIN_ISA != "avx512_core":
        # oneDNN's gelu_erf of avx2 is another: half x plus half x times its erf (by experiment
        # under ONEDNN_MAX_CPU_ISA=AVX2: +inf is inf, 3e38 is 3e38, -10 is +0); its erf is not
        # this polynomial (the last bits differ: not modelled), so +-inf's erf is taken as +-1
        half = x * np.float32(0.5)
        signed_erf = np.where(np.isinf(x), np.sign(x), signed_erf).astype(x.dtype)
        avx2: Array = half + half * signed_erf
        return avx2
    result: Array = x * (signed_erf + np.float32(1)) * np.float32(0.5)
    return result


_GELU_CUBIC, _SQRT_2_OVER_PI = _f32_of(0x3D372713), _f32_of(0x3F4C422A)  # 0.044715, sqrt(2/pi)


def _gelu_tanh(x: Array) -> Array:
    """oneDNN's gelu_tanh, bit for bit: ``0.5 * (1 + tanh(u)) * x`` in that order, with
    ``u = (x^2 * 0.044715 + 1) (one FMA) * x * sqrt(2/pi)`` and :func:`plugin_tanh`."""
    inner = fma_f32(x * x, _GELU_CUBIC, np.float32(1)) * x * _SQRT_2_OVER_PI
    result: Array = (plugin_tanh(inner) + np.float32(1)) * np.float32(0.5) * x
    return result


# ErfInv's polynomials (Giles' single-precision approximation, as OpenVINO's reference has it:
# the tail's 0.00943887047 negative, Giles' positive) and the emitter's log(1 + t)
_ERF_INV_CENTRAL = tuple(
    _f32_of(b)
    for b in (
        0x32F16588,
        0x34B84B36,
        0xB66C7357,
        0xB6935AC1,
        0x396532DB,
        0xBAA45408,
        0xBB88E4EF,
        0x3E7C8F63,
        0x3FC02E2F,
    )
)
_ERF_INV_TAIL = tuple(
    _f32_of(b)
    for b in (
        0xB951F09B,
        0x38D3B56B,
        0x3AB0DC72,
        0xBB70BDE7,
        0x3BBC127B,
        0xBBF9C5D7,
        0xBC1AA57E,
        0x3F8036DB,
        0x40354F7E,
    )
)
_ERF_INV_LOG_POLYNOMIAL = tuple(
    _f32_of(b)
    for b in (0xBE000000, 0x3E12491B, 0xBE2AAAC1, 0x3E4CCCCD, 0xBE800000, 0x3EAAAA9F, 0xBF000000, 0x3F800000)
)


def _erf_inv(x: Array) -> Array:
    """ErfInv as the plugin's jit_erfinv_emitter computes it, bit for bit (read from its JIT
    code): Giles' approximation in f32, ``w = -log(1 - x^2)`` (``1 - x^2`` rounded, the log as
    ``e * ln2 + t * P(t)`` by FMAs with P the series of log(1 + t) to t^8), ``P(w - 2.5)``
    below w = 5, else ``Q(sqrt(w) - 3)`` (Horner's rule of FMAs), times x; +-inf from |x| = 1,
    NaN above (and of NaN). So near 0, where ``1 - x^2`` is 1, w is the log's error (-1.5e-8),
    not 0: the result is 0.886 x, where erfinv(x) is 0.8862 x."""
    with np.errstate(invalid="ignore", divide="ignore"):
        exponent, reduced = _exponent_and_mantissa(np.float32(1) - x * x)
        w = -fma_f32(exponent, _LN2, _fma_horner(reduced, _ERF_INV_LOG_POLYNOMIAL) * reduced)
        central = _fma_horner(w - np.float32(2.5), _ERF_INV_CENTRAL)
        tail = _fma_horner(np.sqrt(w) - np.float32(3), _ERF_INV_TAIL)
        result = np.where(w < np.float32(5), central, tail) * x
        magnitude = np.abs(x)
        result = np.where(magnitude < 1, result, np.copysign(np.float32(np.inf), x))
        bounded: Array = np.where(magnitude <= 1, result, np.float32(np.nan))
    return bounded


def _round_half_away(x: Array) -> Array:
    result: Array = np.sign(x) * np.floor(np.abs(x) + np.float32(0.5))
    return result


def _like_libm(function: RealFunction) -> RealFunction:
    """``function`` of f32 values as the C library's f32 function (``sinf``...) computes it,
    nearly: in double, rounded once (the Math node and the Log node call glibc's, equal to it
    bit for bit by experiment; glibc's are not correctly rounded everywhere, so this misses them
    on 1-25% of values by a unit: docs/execution.md; numpy's own f32 functions miss more)."""

    def rounded_once(x: Array) -> Array:
        result: Array = function(x.astype(np.float64)).astype(np.float32)
        return result

    return rounded_once


# the f32 temporaries an emulation by exact FMAs (fma_f32) holds at once: its float64
# products and sums (measured: 74 to 85 bytes an element at the peak with input and output)
_FMA_TEMPORARIES = 21

abs_ = _int_unary(np.abs, np.abs)
negative = _int_unary(np.negative, np.negative)
sign = _int_unary(np.sign, np.sign)
relu = _real_unary(_relu)
floor = _real_unary(np.floor)
ceiling = _real_unary(np.ceil)
acos = _math_node_unary(_like_libm(np.arccos))
acosh = _math_node_unary(_like_libm(np.arccosh))
asin = _math_node_unary(_like_libm(np.arcsin))
asinh = _math_node_unary(_like_libm(np.arcsinh))
atan = _math_node_unary(_like_libm(np.arctan))
atanh = _math_node_unary(_like_libm(np.arctanh))
cos = _math_node_unary(_like_libm(np.cos))
cosh = _math_node_unary(_like_libm(np.cosh))
sin = _math_node_unary(_like_libm(np.sin))
sinh = _math_node_unary(_like_libm(np.sinh))
tan = _math_node_unary(_like_libm(np.tan))
tanh = _real_unary(plugin_tanh, temporaries=_FMA_TEMPORARIES)
# (plugin_exp: inf from 88.37627, where its 2^n would be 2^128, though exp is still 2.4e38, and
# 0 below ln(FLT_MIN), -87.33655, not a subnormal; found by the kernel fuzzer: an f64 exp(88.5)
# was FLT_MAX there, 2.7e38 here)
exp = _real_unary(plugin_exp, temporaries=_FMA_TEMPORARIES)
log = _real_unary(_like_libm(np.log))
sqrt = _real_unary(np.sqrt)
erf = _real_unary(_plugin_erf, temporaries=_FMA_TEMPORARIES)
erf_inv = _real_unary(_erf_inv, temporaries=_FMA_TEMPORARIES)
sigmoid = _real_unary(plugin_sigmoid, temporaries=_FMA_TEMPORARIES)
hsigmoid = _real_unary(_hsigmoid)
hswish = _real_unary(_hswish)
softplus = _real_unary(_softplus, temporaries=_FMA_TEMPORARIES)
softsign = _real_unary(lambda x: x / (np.float32(1) + np.abs(x)))
mish = _real_unary(_mish, temporaries=_FMA_TEMPORARIES)


def gelu(call: KernelCall) -> Array:
    """Gelu-2 (erf) and Gelu-7 (erf or tanh, by approximation_mode)."""
    mode = str(call.attribute("approximation_mode")).lower() if call.schema.version == 7 else "erf"
    return (_gelu_tanh_kernel if mode == "tanh" else _gelu_erf_kernel)(call)


_gelu_tanh_kernel = _real_unary(_gelu_tanh, temporaries=_FMA_TEMPORARIES)
_gelu_erf_kernel = _real_unary(_gelu_erf, temporaries=_FMA_TEMPORARIES)


def round_(call: KernelCall) -> Array:
    """Round-5: half_to_even or half_away_from_zero; integers unchanged."""
    if str(call.attribute("mode")).lower() == "half_away_from_zero":
        return _real_unary(_round_half_away)(call)
    return _real_unary(np.rint)(call)


def elu(call: KernelCall) -> Array:
    """Elu-1: x (NaN too), or ``(exp(x) - 1) * alpha`` (oneDNN's elu: its exp less 1, then
    scaled) where x is not above zero."""
    alpha = np.float32(call.attribute("alpha"))
    return _real_unary(
        lambda x: np.where((x > 0) | np.isnan(x), x, (plugin_exp(x, onednn=True) - np.float32(1)) * alpha),
        temporaries=8,
    )(call)


def clamp(call: KernelCall) -> Array:
    """Clamp-1: min(max(x, min), max); integer data is clamped to ceil(min), floor(max)."""
    low, high = float(call.attribute("min")), float(call.attribute("max"))
    data = call.inputs[0]
    if _is_real(data):  # a NaN comes out as min
        return _real_unary(lambda x: _nan_to(np.clip(x, np.float32(low), np.float32(high)), x, low))(call)
    if data.dtype.itemsize == 1:
        # i8 and u8: the plugin's snippet clamps the f32 value and truncates it (min and max of
        # -2.5 give -2, 1.5 gives 1; found by the kernel fuzzer)
        with np.errstate(invalid="ignore"):
            values = np.minimum(np.maximum(_as_f32(data), np.float32(low)), np.float32(high))
        return _result(call, values, from_real=True)
    # the others: max(x, ceil(min)) then min(., floor(max)) on the i32 values (min and max of
    # -2.5 give -3); bounds past i32 (1e10) bound nothing
    integer_low = min(max(math.ceil(low), _I32_MIN), 2**31 - 1)
    integer_high = min(max(math.floor(high), _I32_MIN), 2**31 - 1)
    clamped = np.minimum(np.maximum(_as_i32(data), integer_low), integer_high)
    return _result(call, clamped, from_real=False)


def identity(call: KernelCall) -> Array:
    """Identity-16: a copy of the data."""
    return call.inputs[0].copy()


def logical_not(call: KernelCall) -> Array:
    """LogicalNot-1: true where the data is zero (false)."""
    result = _array(np.logical_not(call.inputs[0]).astype(call.output_dtype()))
    return result


def bitwise_not(call: KernelCall) -> Array:
    """BitwiseNot-13: every bit flipped; a boolean's logical not."""
    data = call.inputs[0]
    if data.dtype.kind == "b":
        answer = _array(np.logical_not(data))
        return answer
    result = _array(np.invert(_as_i32(data)).astype(call.output_dtype()))  # wrapped, even u8's
    return result


def is_finite(call: KernelCall) -> Array:
    """IsFinite-10: in the plugin's f32 (f64 saturated on entry, so its infinities are finite),
    and a subnormal f32 is not finite there (1e-40 is false; found by the kernel fuzzer)."""
    values = _as_f32(call.inputs[0])
    # on avx512 only: an AVX2 plugin (ONEDNN_MAX_CPU_ISA=AVX2) calls them finite, by experiment
    tiny = np.finfo(np.float32).tiny if PLUGIN_ISA == "avx512_core" else 0.0
    subnormal = (values != 0) & (np.abs(values) < tiny)
    return _array(np.isfinite(values) & ~subnormal)


def is_nan(call: KernelCall) -> Array:
    """IsNaN-10."""
    return _array(np.isnan(_as_f32(call.inputs[0])))


def is_inf(call: KernelCall) -> Array:
    """IsInf-10: +inf where detect_positive, -inf where detect_negative (in the plugin's f32: an
    f64 infinity is saturated to FLT_MAX on entry, so it is not infinite there)."""
    data = _as_f32(call.inputs[0])
    positive = np.isposinf(data) if call.attribute("detect_positive") else np.zeros(data.shape, bool)
    negative_ = np.isneginf(data) if call.attribute("detect_negative") else np.zeros(data.shape, bool)
    return _array(positive | negative_)


# --- ops with scalar or per-channel parameters ---------------------------------------------


def _parameters_kernel(function: Callable[..., Array]) -> Callable[[KernelCall], Array]:
    """An op of reals whose further inputs are parameters (alpha, beta, lambda), all in f32."""

    def kernel(call: KernelCall) -> Array:
        with np.errstate(all="ignore"):
            values = function(*(_as_f32(a) for a in call.inputs))
        return _result(call, values, from_real=True)

    return kernel


def _or_default(parameter: Array, default: float) -> Array:
    """A scalar parameter as the plugin's Math node reads it: 0 means its default (HardSigmoid's
    alpha 0 is 0.2 and beta 0 is 0.5, Selu's alpha 0 is 1.67326 and lambda 0 is 1.0507: its
    ``(alpha == 0.0F) ? 0.2F : alpha``, intel_cpu/src/nodes/mathematics.cpp; found by the kernel
    fuzzer, confirmed by experiment)."""
    return np.where(parameter == 0, np.float32(default), parameter)


def _selu(x: Array, alpha: Array, lambda_: Array) -> Array:
    """The Math node's ``lambda * x``, or ``(lambda * alpha) * (expf(x) - 1)`` where x is not
    above 0; expf the C library's (glibc's misses the f64 exp rounded once by a unit on about
    one value in 1500: tests/execution/test_elementwise.py's ``selu_expf_cases``)."""
    alpha, lambda_ = _or_default(alpha, 1.67326), _or_default(lambda_, 1.0507)
    exp = expf(x)
    result: Array = np.where(x > 0, lambda_ * x, (lambda_ * alpha) * (exp - np.float32(1)))
    return result


def _hard_sigmoid(x: Array, alpha: Array, beta: Array) -> Array:
    alpha, beta = _or_default(alpha, 0.2), _or_default(beta, 0.5)
    return _nan_to(np.clip(alpha * x + beta, np.float32(0), np.float32(1)), x, 1.0)


def _swish(x: Array, beta: Array | None = None) -> Array:
    scaled = x if beta is None else beta * x
    result: Array = x * plugin_sigmoid(scaled)
    return result


selu = _parameters_kernel(_selu)
hard_sigmoid = _parameters_kernel(_hard_sigmoid)
swish = _parameters_kernel(_swish)


def prelu(call: KernelCall) -> Array:
    """PRelu-1: x, or slope * x below zero; a 1D slope as long as the data's channel axis (1)
    runs along that axis, any other slope broadcasts numpy-style."""
    data, slope = call.inputs
    if slope.ndim == 1 and data.ndim >= 2 and slope.shape[0] == data.shape[1] and slope.shape[0] != 1:
        slope = slope.reshape((1, -1) + (1,) * (data.ndim - 2))
    # integers too are computed in f32 and converted back (the plugin's eltwise PRelu has no
    # integer path: an i32 2^31 - 1 is -2^31, -16777217 * 2 is -33554432; found by the fuzzer)
    with np.errstate(all="ignore"):
        x, s = _as_f32(data), _as_f32(slope)
        return _result(call, np.where(x < 0, s * x, x), from_real=True)


# --- binary ops ----------------------------------------------------------------------------


def _pdpd_aligned(rank: int, second: Array, axis: int) -> Array:
    """``second`` reshaped to broadcast over an array of ``rank`` from ``axis`` (pdpd
    auto_broadcast): its trailing ones dropped, then ones before ``axis`` and after its dims."""
    start = rank - second.ndim if axis == -1 else axis
    dims = list(second.shape)
    while dims and dims[-1] == 1:
        dims.pop()
    shape = (1,) * start + tuple(dims) + (1,) * (rank - start - len(dims))
    return second.reshape(shape)


def _operands(call: KernelCall, count: int = 2, offset: int = 0) -> list[Array]:
    """The inputs an auto_broadcast op combines, reshaped so numpy broadcasts them as the mode
    does (numpy and none are numpy's own rules; shape inference checked none's equal shapes)."""
    arrays = list(call.inputs[offset : offset + count])
    mode = str(call.attribute("auto_broadcast")).lower()
    if mode == "pdpd":
        axis = int(call.attribute("auto_broadcast.auto_broadcast_axis"))
        arrays = [arrays[0]] + [_pdpd_aligned(arrays[0].ndim, a, axis) for a in arrays[1:]]
    return arrays


def _binary(
    real: BinaryFunction,
    integer: BinaryFunction | None = None,
    boolean: BinaryFunction | None = None,
) -> Callable[[KernelCall], Array]:
    """A binary op: reals in f32; integers with ``integer`` on i32 values when the plugin has an
    integer path, else in f32 truncated back; booleans with ``boolean`` where the op takes them."""

    def kernel(call: KernelCall) -> Array:
        a, b = _operands(call)
        with np.errstate(all="ignore"):
            if a.dtype.kind == "b" and boolean is not None:
                return _result(call, boolean(a, b), from_real=False)
            if _is_real(a) or integer is None:
                return _result(call, real(_as_f32(a), _as_f32(b)), from_real=not _is_boolean_out(call))
            return _result(call, integer(_as_i32(a), _as_i32(b)), from_real=False)

    return kernel


def _is_boolean_out(call: KernelCall) -> bool:
    return call.output_dtype().kind == "b"


def _floor_mod(a: Array, b: Array) -> Array:
    result: Array = a - np.floor(a / b) * b
    return result


def _c_mod(a: Array, b: Array) -> Array:
    """a - trunc(a / b) * b (so x mod inf is NaN, where fmod gives x)."""
    result: Array = a - np.trunc(a / b) * b
    return result


def _squared_difference(a: Array, b: Array) -> Array:
    result: Array = (a - b) * (a - b)
    return result


def _maximum(a: Array, b: Array) -> Array:
    """max as vmaxps takes it: b where a is NaN (and NaN where b is)."""
    return np.where(np.isnan(a), b, np.maximum(a, b)) if _is_real(a) else np.maximum(a, b)


def _minimum(a: Array, b: Array) -> Array:
    return np.where(np.isnan(a), b, np.minimum(a, b)) if _is_real(a) else np.minimum(a, b)


# the plugin's avx512 emitters compare with vcmpps's "not less or equal" predicates (true where
# either is NaN); its avx2 emitters with vcmpgtps/vcmpgeps (false there): by experiment, and
# ONEDNN_MAX_CPU_ISA=AVX2 (jit_eltwise_emitters.cpp's jit_greater_emitter)
_GREATER_UNORDERED = PLUGIN_ISA == "avx512_core"


def _greater(a: Array, b: Array) -> Array:
    """not (a <= b) on avx512: true where either is NaN, as the plugin compares reals there."""
    result: Array = np.logical_not(np.less_equal(a, b)) if _GREATER_UNORDERED else np.greater(a, b)
    return result


def _greater_equal(a: Array, b: Array) -> Array:
    result: Array = np.logical_not(np.less(a, b)) if _GREATER_UNORDERED else np.greater_equal(a, b)
    return result


add = _binary(np.add, np.add)
_subtract_i32 = _binary(np.subtract, np.subtract)
_subtract_i8 = _binary(np.subtract, lambda a, b: a + np.minimum(-b, 127))


def subtract(call: KernelCall) -> Array:
    """Subtract-1. i8 as the plugin's ConvertSubtract rewrites it, a + (b * -1) with the product
    saturated first: -44 - -128 is -44 + 127 = 83 (found by the kernel fuzzer)."""
    return (_subtract_i8 if call.inputs[0].dtype == np.int8 else _subtract_i32)(call)


multiply = _binary(np.multiply, np.multiply)
maximum = _binary(_maximum, _maximum)
minimum = _binary(_minimum, _minimum)


def _times_reciprocal(a: Array, b: Array) -> Array:
    """a / b as the plugin computes the division of reals: a times the f32 reciprocal of b (bit
    for bit; a correctly rounded a / b differs in the last bit on about a quarter of the
    elements, and -1e-40 / 1e-40 is -inf, 1 / 1e-40 overflowing; found by the kernel fuzzer).
    Integers it divides (49 / 49 is 1, where 49 * (1 / 49) truncates to 0)."""
    result: Array = a * (np.float32(1) / b)
    return result


_real_divide = _binary(_times_reciprocal)
_truncating_divide = _binary(np.divide)  # integers: f32 division (not by the reciprocal), truncated


def divide(call: KernelCall) -> Array:
    """Divide-1. Integers under pdpd broadcasting run OpenVINO's reference implementation in the
    plugin (its eltwise node takes no pdpd), which floors with m_pythondiv."""
    a, b = _operands(call)
    pdpd = str(call.attribute("auto_broadcast")).lower() == "pdpd"
    if a.dtype.kind in "iu" and pdpd and call.attribute("m_pythondiv"):
        with np.errstate(all="ignore"):
            x, y = _as_i32(a).astype(np.int64), _as_i32(b).astype(np.int64)
            return _result(call, np.floor_divide(x, np.where(y == 0, 1, y)), from_real=False)
    return _real_divide(call) if _is_real(a) else _truncating_divide(call)


def _in_double(function: BinaryFunction) -> Callable[[KernelCall], Array]:
    """An op under pdpd broadcasting, which the plugin runs as OpenVINO's reference: in double
    (exact for i32), not in the f32 of its eltwise node."""

    def kernel(call: KernelCall) -> Array:
        a, b = _operands(call)
        with np.errstate(all="ignore"):
            values = function(a.astype(np.float64), b.astype(np.float64))
        if call.output_dtype().kind == "f":
            return _result(call, values, from_real=True)
        return _result(call, _truncated_i32(values), from_real=False)

    return kernel


def _pdpd_or(
    pdpd: Callable[[KernelCall], Array], other: Callable[[KernelCall], Array], *, reals: bool = True
) -> Callable[[KernelCall], Array]:
    """``pdpd`` under pdpd broadcasting (of integers only unless ``reals``), else ``other``."""

    def kernel(call: KernelCall) -> Array:
        pdpd_broadcast = str(call.attribute("auto_broadcast")).lower() == "pdpd"
        return (pdpd if pdpd_broadcast and (reals or not _is_real(call.inputs[0])) else other)(call)

    return kernel


# FloorMod and Mod under pdpd: x - y * floor(x / double(y)) (-80 floormod 1e-40 is 0 there, inf
# in f32) and x - y * trunc(x / y) in double (an i32 -2147483647 mod -3 is -1, 0 in f32); found
# by the kernel fuzzer
floor_mod = _pdpd_or(_in_double(_floor_mod), _binary(_floor_mod))
mod = _pdpd_or(_in_double(_c_mod), _binary(_c_mod), reals=False)  # reals: f32 (0.13 mod 1e-40 is -inf)
squared_difference = _binary(_squared_difference, _squared_difference)
equal = _binary(np.equal, np.equal, np.equal)
not_equal = _binary(np.not_equal, np.not_equal, np.not_equal)
less = _binary(np.less, np.less, np.less)
less_equal = _binary(np.less_equal, np.less_equal, np.less_equal)
greater = _binary(_greater, np.greater, np.greater)
greater_equal = _binary(_greater_equal, np.greater_equal, np.greater_equal)
logical_and = _binary(np.logical_and, np.logical_and, np.logical_and)
logical_or = _binary(np.logical_or, np.logical_or, np.logical_or)
logical_xor = _binary(np.logical_xor, np.logical_xor, np.logical_xor)
bitwise_and = _binary(np.bitwise_and, np.bitwise_and, np.logical_and)
bitwise_or = _binary(np.bitwise_or, np.bitwise_or, np.logical_or)
bitwise_xor = _binary(np.bitwise_xor, np.bitwise_xor, np.logical_xor)


# --- Power ---------------------------------------------------------------------------------
# The plugin computes Power two ways (by experiment against compile_model, and its sources:
# ConvertToPowerStatic, jit_power_static_emitter, jit_power_dynamic_emitter). An exponent that
# is a constant of one element and a base that is not become a PowerStatic node (a constant of
# a greater rank than the base's too: by experiment, though ConvertToPowerStatic asks for a
# rank no greater, the plugin aligns the ranks first), which expands an integer exponent into
# f32 multiplications by squaring (x^3 is x * (x * x), each product rounded: 626^3 is
# 245314368 there), takes ±0.5 as a square root (and its reciprocal), and calls ``powf`` for
# any other; any other Power calls ``powf`` element by element, and so does a Power the compile
# step folds (evaluate's ``std::pow(float, float)``: 245314384). Integers are computed so in
# f32 and truncated back.


def powf_f32(x: Array, y: Array) -> Array:
    """The C library's ``powf`` of f32 arrays, vectorised: C's ``pow`` in double rounded to f32,
    which is ``powf``'s value wherever the double lies clear of a rounding midpoint; where it
    lies near one (an exact tie: 626^3; a near one) or at the top of the range, the platform's
    ``powf`` itself, called on those elements only (about 1 in 100 of random data;
    :func:`irshape.kernels.libm_calls.as_the_library`). The window, 2^-31 relative, is 4.6 times
    the farthest seen over 1.5 million draws of glibc 2.36's powf (bases 2^-120..2^120,
    exponents 0.01..120; its documented bound, 0.82 ULP, is far wider than what it does).
    Where ``powf`` cannot be loaded, ``pow`` rounded once."""
    x, y = np.broadcast_arrays(x, y)
    wide = np.power(x.astype(np.float64), y.astype(np.float64))
    return as_the_library(wide, libm.powf(), x, y)


def _static_exponent(call: KernelCall) -> float | None:
    """The exponent of a Power the plugin makes a PowerStatic node (see above), else None."""
    exponent = call.inputs[1]
    if 1 not in call.constant_inputs or 0 in call.constant_inputs or exponent.size != 1:
        return None
    return float(_as_f32(exponent).reshape(-1)[0])


def _power_by_constant(x: Array, power: float) -> Array:
    """jit_power_static_emitter's arithmetic (x86): an integer power by squaring in f32 (the
    count ``|int64(power)| - 1`` as C++ computes it: a power past int64 is x86's 'integer
    indefinite', INT64_MIN, whose count is 2^63 - 1), its reciprocal for a negative one;
    ±0.5 a square root; 1 the base itself; anything else (0 too) ``powf``."""
    if power == 1:
        return x.copy()
    if power in (0.5, -0.5):
        root: Array = np.sqrt(x)
        return root if power > 0 else np.float32(1) / root
    if power != math.floor(power) or power == 0:
        return powf_f32(x, np.array(power, np.float32))
    count = abs(int(power) if abs(power) < 2.0**63 else -(2**63)) - 1
    result, square = x.copy(), x
    while count > 0:  # (over the exponent's bits, not the elements)
        if count & 1:
            result = result * square
        if count > 1:
            square = square * square
        count >>= 1
    return np.float32(1) / result if power < 0 else result


@working_memory(_f32_temporaries(12))  # (powf's: about six f64 arrays of the output's size)
def power(call: KernelCall) -> Array:
    """Power-1 as the CPU plugin computes it: by a constant exponent, PowerStatic's arithmetic;
    else ``powf`` (f16, bf16 and integers in f32, integers truncated back)."""
    x, y = np.broadcast_arrays(*(_as_f32(a) for a in _operands(call)))
    with np.errstate(all="ignore"):
        exponent = _static_exponent(call)
        values = powf_f32(x, y) if exponent is None else _power_by_constant(x, exponent)
    return _result(call, values, from_real=not _is_boolean_out(call))


def _shift(left: bool) -> Callable[[KernelCall], Array]:
    """BitwiseLeftShift-15 / BitwiseRightShift-15 on the plugin's i32 values, the count taken
    modulo 32 (x86's shifts: 1 << 32 is 1), the result wrapped to the type."""

    def kernel(call: KernelCall) -> Array:
        a, b = (_as_i32(x) for x in _operands(call))
        count = b & 31
        shifted = np.left_shift(a, count) if left else np.right_shift(a, count)
        result = _array(shifted.astype(call.output_dtype()))
        return result

    return kernel


bitwise_left_shift = _shift(left=True)
bitwise_right_shift = _shift(left=False)


def select(call: KernelCall) -> Array:
    """Select-1: then where cond, else else, broadcast by auto_broadcast."""
    cond, then, other = call.inputs
    mode = str(call.attribute("auto_broadcast")).lower()
    if mode == "pdpd":  # else aligned on then, then cond on that
        axis = int(call.attribute("auto_broadcast.auto_broadcast_axis"))
        other = _pdpd_aligned(then.ndim, other, axis)
        cond = _pdpd_aligned(then.ndim, cond, axis)
    result: Array = np.where(cond, then, other).astype(call.output_dtype(), copy=False)
    return result


# --- Convert -------------------------------------------------------------------------------


def _converted(data: Array, source: str, target: str, dtype: np.dtype[Any]) -> Array:
    """``data`` of element type ``source`` converted to ``target`` as the plugin converts."""
    real_source = _is_real(data)
    with np.errstate(all="ignore"):
        if real_source:
            data = _as_f32(data)  # f64 saturated to f32 (1e-50 is 0, 1e300 FLT_MAX)
        if dtype.kind == "b":
            if real_source:
                answer: Array = ~np.isnan(data) & (data != 0)
                return answer
            as_i32 = _as_i32(data)
            result: Array = (as_i32 != 0) & (as_i32 != _I32_MIN)
            return result
        if dtype.kind == "f":
            values = data if real_source else _as_i32(data)
            values = values.astype(np.float64 if dtype.itemsize == 8 else np.float32)
            if target == "bf16" and not real_source:
                return integers_to_bf16(values)
            return _stored_real(values, target, dtype)
        i32 = _truncated_i32(data) if real_source else _as_i32(data)
        return i32.astype(dtype)


def convert(call: KernelCall) -> Array:
    """Convert-1 (see the module's notes for the plugin's rounding and wrapping)."""
    return _convert_to(call, call.output_type())


def convert_like(call: KernelCall) -> Array:
    """ConvertLike-1: Convert to the like input's element type."""
    return _convert_to(call, call.output_type())


def _convert_to(call: KernelCall, target: str) -> Array:
    source = call.input_types[0]
    data = call.inputs[0]
    if source == "string" or target == "string":
        if source != target:
            raise KernelError(f"a Convert from {source} to {target}")
        return data.copy()
    if data.dtype.kind == "b":
        data = data.astype(np.uint8)
    return _array(_converted(data, source, target, call.output_dtype()))


# --- Broadcast and Tile --------------------------------------------------------------------


def broadcast(call: KernelCall) -> Array:
    """Broadcast-1/3: numpy, bidirectional and pdpd modes by numpy's rules after aligning the
    data; explicit mode places the data's axes at axes_mapping's target axes."""
    data = call.inputs[0]
    shape = call.output_shape()
    mode = str(call.attribute("mode")).lower()
    if mode in ("explicit", "none"):
        axes = [int(a) for a in call.inputs[2].reshape(-1)] if len(call.inputs) > 2 else []
        placed = [1] * len(shape)
        for index, axis in enumerate(axes):
            placed[axis] = data.shape[index] if data.ndim else 1
        data = data.reshape(placed)
    elif mode == "pdpd":
        name = "mode.auto_broadcast_axis" if call.schema.version == 1 else "mode.mode.axis"
        axis = int(call.attribute(name))
        data = _pdpd_aligned(len(shape), data, axis)
    return np.broadcast_to(data, shape).copy()


def tile(call: KernelCall) -> Array:
    """Tile-1: numpy's tile, negative repeats as 0."""
    data, repeats = call.inputs
    counts = [max(0, int(r)) for r in repeats.reshape(-1)]
    return np.tile(data, counts) if counts else data.copy()


# --- ConvertPromoteTypes -------------------------------------------------------------------


def convert_promote_types(call: KernelCall) -> list[Array]:
    """ConvertPromoteTypes-14: each input Converted to the common element type, as Convert-1
    converts. An input already of that type goes through the same conversion: the plugin holds
    i64, u32 and u64 data in i32 even then (an i64 -2^63 comes out 0; by experiment). An f64
    input's infinities come out as +-FLT_MAX: that is the plugin's f64 input conversion (to f32,
    saturating), which irshape does not model (as for Convert-1's f16 inputs)."""
    outputs = []
    for port, (data, source) in enumerate(zip(call.inputs, call.input_types, strict=True)):
        numeric = data.astype(np.uint8) if data.dtype.kind == "b" else data
        outputs.append(_array(_converted(numeric, source, call.output_type(port), call.output_dtype(port))))
    return outputs


# --- FakeConvert ---------------------------------------------------------------------------

_F8_MAX = {"f8e4m3": 448.0, "f8e5m2": 57344.0}


def fake_convert(call: KernelCall) -> Array:
    """FakeConvert-13 as the CPU plugin runs it: OpenVINO's FakeConvertDecomposition, computed
    in f32 whatever the data's type. ``data * scale``, less the shift; clamped to the f8 type's
    finite range by a Clamp (NaN is its lowest value, -448 or -57344: found by the kernel
    fuzzer, where OpenVINO's reference keeps NaN); converted to the f8 type and back (through
    f16, irshape/kernels/narrow_reals.py); plus the shift; times ``scale ** -1`` (1 / scale in
    f32); stored in the data's type. bf16 data is stored as bf16 where the plugin's
    fused nodes store it (found by the kernel fuzzer, then 4096 random elements bit for bit):
    ``data * scale (- shift)`` before the f8 conversion, the result, and with a shift the
    reciprocal of the scale too (448 * 0.4785 less 1 is 438 there, 436 rounded once).
    tests/execution/test_fake_convert.py."""
    target = str(call.attribute("destination_type"))
    data, scale = (_as_f32(a) for a in call.inputs[:2])
    shift = _as_f32(call.inputs[2]) if len(call.inputs) > 2 else None
    limit = np.float32(_F8_MAX[target])

    def bf16(values: Array) -> Array:  # a bf16 result the plugin stores (f32, f16: unchanged)
        return rounded_to(values, call.input_types[0])

    with np.errstate(all="ignore"):
        scaled = bf16(data * scale if shift is None else data * scale - shift)
        clamped = np.where(np.isnan(scaled), -limit, np.clip(scaled, -limit, limit))
        narrow = rounded_to(clamped, target)
        if shift is None:
            result = bf16(narrow * (np.float32(1) / scale))
        else:
            result = bf16((narrow + shift) * bf16(np.float32(1) / scale))
    return _result(call, result, from_real=True)
