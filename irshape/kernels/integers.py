"""How OpenVINO's CPU plugin holds 64-bit integers: as i32, with three exceptions at its inputs.

The one rule every kernel family relies on (the executor, ``irshape/execute/network.py``,
applies it where values enter and leave the kernels, so no kernel handles i64 on its own).
Found by experiment with OpenVINO 2026.4's CPU plugin (``INFERENCE_PRECISION_HINT=f32``;
``tests/execution/test_wide_integers.py`` holds the cases):

* **Every i64 and u64 tensor is held as i32** (its ConvertPrecision pass): whatever an op
  computes, moves or indexes with (Add, ReduceSum, Concat, Reshape, Gather's data and indices,
  Range, a Reshape's or Broadcast's target shape, TopK, CumSum...) it does in 32 bits, and a
  Result gets the i32 sign-extended back: an i64 Add of 2^31 - 1 and 1 is -2^31, a u64 result
  of -1 is 2^64 - 1. u32 is held as i32 too: the same bits, read as signed where it matters
  (a computed u32 0xFFFFFFFF converts to f32 as -1.0).
* **A Parameter's data is cut to its low 32 bits** on its way into an op: an i64 2^32 + 5 is 5,
  2^31 is -2^31, a Gather index 2^32 + 1 is 1, a Reshape target of 2^32 + 2 is 2.
* **A Const is saturated to the i32 range** at compile time: an i64 2^40 is 2^31 - 1, -2^40 is
  -2^31, a u32 or u64 2^32 - 1 is 2^31 - 1; even a Const that goes straight to a Result.

f64 is held as f32 the same way: a Parameter's f64 data reaches every op saturated to f32
(:func:`f64_held_as_f32`), except a Result straight from it, a converting op and an Identity.

The exceptions, all at the plugin's inputs:

* a Parameter that goes straight to a Result comes out whole (the Result reads the input
  buffer), even where the same Parameter also feeds ops that cut it;
* a Convert, ConvertLike or ConvertPromoteTypes to a real type straight from a Parameter or a
  Const converts the whole value (the plugin's input conversion, and constant folding): i64
  2^40 + 5 is 1099511627776.0, a u32 2^32 - 1 is 4294967296.0. It goes through f32 even for an
  f64 destination (2^32 + 5 is 4294967296.0). To an integer type from there the value wraps
  (a Const 2^31 converted to i32 is -2^31, not the saturated 2^31 - 1). To boolean a Const's
  whole value is tested against zero, and a u32 or u64 Parameter's low 32 bits of 2^31 and above
  give false (2^64 - 1 is false, 2^31 - 1 true; from a Reshape of 2^64 - 1, true).

Not modelled: a subgraph of Consts alone (a ShapeOf of a static shape counts as a Const) that
OpenVINO folds at compile time in whole i64 before saturating (``Const(2^40) + 1`` converted to
f32 is 1099511627776.0 in the plugin; irshape computes the folded layers as the plugin's nodes
would, in i32: 2^31 - 1 + 1 wraps to -2147483648.0), nor a graph optimisation that removes an
op (an Add of 0) and so lets a Parameter's whole value reach a Convert.
"""

from __future__ import annotations

import numpy as np

Array = np.ndarray

# The element types the plugin holds as i32 (u32 keeps its bits, so holding it changes nothing)
HELD_AS_I32 = frozenset({"i64", "u64", "u32"})
# The ops that convert their inputs: straight from a Parameter or a Const to a real type they
# convert the whole value (see the module's notes)
CONVERTING_OPS = frozenset({"convert", "convertlike", "convertpromotetypes"})

_I32 = np.iinfo(np.int32)


def is_wide(array: Array, element_type: str) -> bool:
    """Whether ``array`` holds an element type the plugin narrows (i64, u64, u32)."""
    return element_type in HELD_AS_I32 and array.dtype.kind in "iu"


def held_as_i32(array: Array) -> Array:
    """An integer array as the plugin holds it: the low 32 bits, sign-extended back into its
    dtype (an i64 2^32 + 5 is 5, a u64 2^64 - 1 stays 2^64 - 1); other arrays unchanged."""
    if array.dtype.kind not in "iu" or array.dtype.itemsize < 8:
        return array
    narrowed = array.astype(np.int32)
    if np.array_equal(narrowed, array):
        return array
    held: Array = narrowed.astype(array.dtype)
    return held


def saturated_to_i32(array: Array) -> Array:
    """A Const as the plugin compiles it: its values clamped to the i32 range, in its dtype."""
    if array.dtype.kind not in "iu" or array.dtype.itemsize < 4:
        return array
    low = _I32.min if array.dtype.kind == "i" else 0
    if array.size == 0 or (array.min() >= low and array.max() <= _I32.max):
        return array
    clamped: Array = np.clip(array, low, _I32.max).astype(array.dtype)
    return clamped


# Who gets an f64 Parameter's data whole: a Result, a converting op, and an Identity (which the
# plugin removes, so its Result reads the Parameter)
_F64_WHOLE = frozenset({"result", "identity", *CONVERTING_OPS})


def f64_held_as_f32(array: Array) -> Array:
    """An f64 Parameter's data as the plugin's ops get it: held as f32, saturated (inf and 1e300
    are FLT_MAX, 1e-50 is 0), in its f64 dtype. Every op, even one that only moves elements (a
    Select of -inf gives -FLT_MAX; found by the kernel fuzzer)."""
    if array.dtype != np.float64:
        return array
    limit = float(np.finfo(np.float32).max)
    with np.errstate(over="ignore", invalid="ignore"):
        held: Array = np.clip(array, -limit, limit).astype(np.float32).astype(np.float64)
    return held


def entering(array: Array, element_type: str, producer: str, consumer: str) -> Array:
    """A Parameter's or a Const's value as op ``consumer`` (its lowercase type) receives it:
    cut or saturated, except where the plugin reads it whole (a Result of a Parameter; a
    converting op, whose kernel gets the whole value and :func:`converted_on_entry`)."""
    if element_type == "f64" and producer == "parameter" and consumer not in _F64_WHOLE:
        return f64_held_as_f32(array)
    if not is_wide(array, element_type) or consumer in CONVERTING_OPS:
        return array
    if producer == "parameter":
        return array if consumer == "result" else held_as_i32(array)
    if producer == "const":
        return saturated_to_i32(array)
    return array


def converted_on_entry(
    array: Array, element_type: str, producer: str, target_dtype: np.dtype[np.generic]
) -> tuple[Array, str]:
    """A Parameter's or a Const's (``producer``) wide integers entering a converting op whose
    output has ``target_dtype``, as the plugin's input conversion (or constant folding) gives
    them to it: to a real type the whole value rounded to f32 (even for an f64 output), typed
    f32; to boolean a Const's whole value tested against zero, an unsigned Parameter's low 32
    bits, 2^31 and above read as -2^31 (false to the kernel, as to the plugin). Anything
    else unchanged (the kernel wraps it to its destination)."""
    if not is_wide(array, element_type):
        return array, element_type
    if target_dtype.kind == "f":
        return array.astype(np.float32), "f32"
    if target_dtype.kind == "b" and producer == "const":
        return array != 0, "boolean"
    if target_dtype.kind == "b" and array.dtype.kind == "u":
        low = array.astype(np.uint32)
        read: Array = np.where(low > _I32.max, _I32.min, low.astype(np.int64))
        return read, "i64"
    return array, element_type
