"""Value bounds: what OpenVINO's ``evaluate_lower`` / ``evaluate_upper`` know of a small
integer tensor whose value is not known exactly (``src/core/src/bound_evaluate.cpp``).

A ShapeOf of ``[2..10,?]`` has no value, but its elements lie in ``[2, 0]..[10, max]``; ops
that move elements (Gather, Concat, Reshape, ...) move the bounds, the integer arithmetic
combines them, and the ops that read a shape from an input (Reshape, Broadcast, Interpolate,
...) read ``Dimension(lower, upper)`` from them. An unbounded element's upper bound is the
element type's maximum (``INT64_MAX`` for an i64 ShapeOf, ``INT32_MAX`` for an i32 one), as in
OpenVINO, and every rule below that tests "is it the maximum" tests that number.

An exact value is its own bounds: a tensor carries ``lower``/``upper`` only when its value is
not known, so a static model never allocates one. The rules found by experiment (the element
types each op folds, boolean Consts, Broadcast's look through a Concat, the scatters): docs/
openvino-ir-reading.md §14.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence

from irshape.dims import DYNAMIC, INF, Dim
from irshape.ir import element_types
from irshape.ops.interface import Finding, OpCall, OpResult, Output, Tensor, Unknown
from irshape.shapes import values
from irshape.shapes.findings import value_unknown

Bounds = tuple[tuple[int, ...], tuple[int, ...]]
RealBounds = tuple[tuple[float, ...], tuple[float, ...]]
I32_MAX = 2**31 - 1
_I32_MIN, _I64_MIN = -(2**31), -(2**63)


def type_max(element_type: str | None) -> int | None:
    """``std::numeric_limits<T>::max()`` of an integer element type (boolean: 1); None else."""
    if element_type == "boolean":
        return 1
    bits = element_types.BITS.get(element_type or "")
    if element_type is None or bits is None or element_type[0] not in "iu":
        return None
    return (1 << bits) - 1 if element_type[0] == "u" else (1 << (bits - 1)) - 1


def of(tensor: Tensor) -> Bounds | None:
    """The tensor's bounds: its value twice when it is known, else its lower and upper."""
    if tensor.value is not None:
        return tensor.value, tensor.value
    if tensor.lower is not None and tensor.upper is not None:
        return tensor.lower, tensor.upper
    return None


def bounded(tensor: Tensor) -> bool:
    """Does the tensor carry bounds and no exact value?"""
    return tensor.value is None and tensor.lower is not None


def exact(tensor: Tensor) -> bool:
    """``has_and_set_bound``: the value is known (its bounds are equal)."""
    return tensor.value is not None


# --- evaluate's value and what shape inference reads of it ---------------------------------
#
# A tensor's value is what OpenVINO's ``evaluate`` gives (what the compile step folds). Shape
# inference reads a computed value through ``evaluate_lower``/``evaluate_upper``, which agree
# with ``evaluate`` but where an op's own bound evaluator takes an element at its type's maximum
# for "no limit": Convert makes it the output type's maximum (u32 4294967295 to f32 is FLT_MAX
# there, 4294967296.0 by evaluate), Divide's lower bound is 0 there. Where the two differ, the
# tensor carries both: its value (evaluate's) and, as its bounds, what shape inference reads
# (equal bounds for an exact reading). Every op is inferred on what shape inference reads and
# its value computed again on evaluate's (:func:`infer_apart`), so shape functions never see
# the two together.


def read_apart(
    output: Output, read: Sequence[int] | None = None, read_reals: Sequence[float] | None = None
) -> Output:
    """Give ``output``, whose value is evaluate's, the value shape inference reads (``read`` or
    ``read_reals``) as its bounds where the two differ."""
    if read is not None and output.value is not None and tuple(read) != output.value:
        output.lower = output.upper = tuple(read)
    if read_reals is not None and output.reals is not None and not same_reals(read_reals, output.reals):
        output.real_lower = output.real_upper = tuple(read_reals)
    return output


def same_reals(a: Sequence[float], b: Sequence[float]) -> bool:
    """Are the reals the same IEEE numbers (NaN the same as NaN, -0.0 not 0.0)?"""
    return len(a) == len(b) and all(
        (x == y and math.copysign(1.0, x) == math.copysign(1.0, y)) or (x != x and y != y)
        for x, y in zip(a, b, strict=True)
    )


def as_read(tensor: Tensor) -> Tensor:
    """The tensor as shape inference reads it: where its value is read apart, those bounds (a
    value where they are equal)."""
    facts = tensor.facts
    if facts.value is not None and facts.lower is not None and facts.upper is not None:
        if facts.lower == facts.upper:
            return tensor.replace(value=facts.lower, lower=None, upper=None)
        return tensor.replace(value=None)
    if facts.reals is not None and facts.real_lower is not None and facts.real_upper is not None:
        if same_reals(facts.real_lower, facts.real_upper):
            return tensor.replace(reals=facts.real_lower, real_lower=None, real_upper=None)
        return tensor.replace(reals=None)
    return tensor


def as_evaluated(tensor: Tensor) -> Tensor:
    """The tensor as ``evaluate`` sees it: its value, without what shape inference reads apart."""
    facts = tensor.facts
    if facts.value is not None and facts.lower is not None:
        return tensor.replace(lower=None, upper=None)
    if facts.reals is not None and facts.real_lower is not None:
        return tensor.replace(real_lower=None, real_upper=None)
    return tensor


def infer_apart(infer: Callable[[OpCall], OpResult], call: OpCall) -> OpResult:
    """``infer`` of a call with an input read apart (:func:`reading.any_read_apart`): the result
    shape inference gives on what it reads (shapes, findings, bounds), each output's value then
    evaluate's, from the inputs' values, where that is known and differs (what shape inference
    reads kept as its bounds)."""
    result = infer(OpCall(call.schema, tuple(map(as_read, call.inputs)), call.attributes))
    evaluated = infer(OpCall(call.schema, tuple(map(as_evaluated, call.inputs)), call.attributes))
    if len(evaluated.outputs) == len(result.outputs):
        for output, other in zip(result.outputs, evaluated.outputs, strict=True):
            if output.element_type == other.element_type:
                _take_evaluated(output, other)
    return result


def _take_evaluated(output: Output, evaluated: Output) -> None:
    """``output`` (shape inference's) with ``evaluated``'s value, what shape inference reads of
    it kept as its bounds where it differs; as it is where either knows no value (a value shape
    inference does not read is no reading of its own)."""
    if evaluated.value is not None and output.value is not None:
        lower, upper = (output.lower, output.upper) if output.lower is not None else (output.value,) * 2
        output.value = evaluated.value
        apart = lower != evaluated.value or upper != evaluated.value
        output.lower, output.upper = (lower, upper) if apart else (None, None)
    if evaluated.reals is not None and output.reals is not None:
        real_lower, real_upper = (
            (output.real_lower, output.real_upper) if output.real_lower is not None else (output.reals,) * 2
        )
        output.reals = evaluated.reals
        same = same_reals(real_lower or (), evaluated.reals) and same_reals(real_upper or (), evaluated.reals)
        output.real_lower, output.real_upper = (None, None) if same else (real_lower, real_upper)


def settle(output: Output, lower: Sequence[int] | None, upper: Sequence[int] | None) -> Output:
    """Give ``output`` the bounds ``lower``/``upper`` (its value when they are equal), when both
    are there, of one length and small enough to keep."""
    if lower is None or upper is None or len(lower) != len(upper) or len(lower) > values.MAX_ELEMENTS:
        return output
    if tuple(lower) == tuple(upper):
        output.value = tuple(lower)
    else:
        output.lower, output.upper = tuple(lower), tuple(upper)
    return output


# --- reading a shape from bounds, as shape inference does ---------------------------------


def exact_as_bounds(tensor: Tensor) -> tuple[int, ...] | None:
    """``get_input_bounds`` of a value known exactly (a Const's too): the value, an i32's
    maximum and minimum read as int64's (by experiment: Slice and StridedSlice on a dim of ``?``,
    ``-2:INT32_MIN:-1`` takes ``..2^63-2``), as :func:`pairs` reads each bound; None when unknown.
    (A Slice's i32 stop of INT32_MAX on a dim of ``?`` slices to the end: ``-2:INT32_MAX`` takes
    ``..2``, not ``..2147483647``; by experiment.)"""
    value = tensor.value
    if value is None or tensor.element_type != "i32":
        return value
    return tuple(INF if v == I32_MAX else _I64_MIN if v == _I32_MIN else v for v in value)


def pairs(tensor: Tensor) -> list[tuple[int, int]] | None:
    """``get_input_bounds``: each element's (lower, upper), an i32 maximum read as unbounded
    (int64's maximum), as ``evaluate_as_partial_shape`` does for a non-exact element."""
    bounds = of(tensor)
    if bounds is None:
        return None
    lowers, uppers = bounds
    if tensor.element_type != "i32":
        return list(zip(lowers, uppers, strict=True))
    out = []
    for lo, hi in zip(lowers, uppers, strict=True):
        out.append((INF if lo == I32_MAX else lo, INF if hi == I32_MAX else hi))
    return out


def as_dims(tensor: Tensor) -> list[Dim] | None:
    """``evaluate_as_partial_shape``: ``Dimension(lower, upper)`` per element (the maximum is
    unbounded); None when there are no bounds or one is negative (OpenVINO's assertion
    "Value for partial shape evaluation can't be lower than zero." fails: no shape from it)."""
    bounds = pairs(tensor)
    if bounds is None or any(lo < 0 or hi < 0 for lo, hi in bounds):
        return None
    return [Dim.between(lo, hi) for lo, hi in bounds]


def as_shape(tensor: Tensor) -> list[Dim] | None:
    """``get_input_const_data_as_shape``: the value's dims (-1 is ``?``), else ``Dimension(lower,
    upper)`` of its bounds (:func:`as_dims`), else None (no shape: the op's dims are ``?``)."""
    if tensor.value is not None:
        return [Dim.of(v) for v in tensor.value]
    return as_dims(tensor)


def as_one_dim(tensor: Tensor, port: int, name: str, consequence: str) -> tuple[Dim | None, list[Finding]]:
    """``get_input_const_data_as_shape`` of a one-element input: its value (-1 is ``?``, another
    negative 0), else its bounds, else ``?`` (IRS306 with ``consequence``); None when OpenVINO
    fails reading the value (IRS214)."""
    if tensor.value:
        return Dim.of(tensor.value[0]), []
    found = as_dims(tensor)
    if found:
        return found[0], []
    findings = value_unknown(port, name, tensor, consequence)
    return (None if tensor.value_error is not None else DYNAMIC), findings


# --- ops that move elements: default_lower_bound_evaluator -------------------------------


def _with_values(call: OpCall, pick: int) -> OpCall:
    """The call with each bounded input's value set to its lower (0) or upper (1) bound."""
    inputs = tuple(
        t.replace(value=(t.lower, t.upper)[pick], lower=None, upper=None) if bounded(t) else t
        for t in call.inputs
    )
    return OpCall(call.schema, inputs, call.attributes)


def moved(
    function: Callable[[OpCall], OpResult],
    call: OpCall,
    result: OpResult,
    exact_ports: Sequence[int],
    ready: Callable[[OpCall], bool] | None,
) -> OpResult:
    """``result`` of ``function`` on ``call``, with the bounds and reals its op moves
    (:func:`irshape.shapes.moving.moves_bounds`, which calls it for a call with an input that
    carries bounds or reals, says how)."""
    inputs = call.inputs
    if call.schema.op in _MOVES_REALS and any(
        t.reals is not None or t.real_lower is not None for t in inputs
    ):
        _move_reals(function, call, result)
        return result
    if not any(t.lower is not None and t.value is None for t in inputs):
        return result  # the usual case: no bounds in, none out
    if any(port < len(inputs) and inputs[port].value is None for port in exact_ports):
        return result
    if ready is not None and not ready(call):
        return result
    if not result.outputs or any(o.value is not None for o in result.outputs):
        return result
    lows, ups = function(_with_values(call, 0)), function(_with_values(call, 1))
    if len(lows.outputs) != len(result.outputs) or len(ups.outputs) != len(result.outputs):
        return result
    for output, low, up in zip(result.outputs, lows.outputs, ups.outputs, strict=True):
        settle(output, low.value, up.value)
    return result


# The ops that move a real tensor's elements as they move an integer one's (a detection
# model's scale, a scalar, reshaped and concatenated into Interpolate's scales), values and
# bounds, and the real types each moves (by experiment, every op in every real type but Gather,
# ScatterElementsUpdate and ScatterNDUpdate, which evaluate no f64: tests/differential/
# test_real_layout.py)
_REAL_TYPES = frozenset({"f16", "f32", "f64", "bf16"})
_MOVES_REALS = {
    "Concat": _REAL_TYPES,
    "Reshape": _REAL_TYPES,
    "Squeeze": _REAL_TYPES,
    "Unsqueeze": _REAL_TYPES,
    "Gather": _REAL_TYPES - {"f64"},
    "Split": _REAL_TYPES,
    "VariadicSplit": _REAL_TYPES,
    "StridedSlice": _REAL_TYPES,
    "Slice": _REAL_TYPES,
    "Tile": _REAL_TYPES,
    "Broadcast": _REAL_TYPES,
    "Transpose": _REAL_TYPES,
    "Select": _REAL_TYPES,
    "ScatterUpdate": _REAL_TYPES,
    "ScatterElementsUpdate": _REAL_TYPES - {"f64"},
    "ScatterNDUpdate": _REAL_TYPES - {"f64"},
}


def _move_reals(function: Callable[[OpCall], OpResult], call: OpCall, result: OpResult) -> None:
    """The op moves its real inputs' elements (their values, or their lower and upper bounds:
    the default bound evaluators) as it moves an integer tensor's: it is run on the elements'
    positions, numbered across the inputs (as i64 values), and the positions it gives back are
    looked up."""
    if not result.outputs or any(o.reals is not None or o.value is not None for o in result.outputs):
        return
    if "reduction" in call.schema.attributes and str(call.attribute("reduction")).lower() != "none":
        return  # a scatter that computes (sums, products...) its elements: not moved
    # position 0 is a zero: what an op fills in where it moves no element (Gather's index out
    # of range); the inputs' elements are numbered from 1
    lower: list[float] = [0.0]
    upper: list[float] = [0.0]
    inputs = []
    moves = _MOVES_REALS[call.schema.op]
    for t in call.inputs:
        if t.element_type in _REAL_TYPES and t.element_type not in moves:
            return
        found = real_of(t) if t.element_type in _REAL_TYPES else None
        if found is not None:
            positions = tuple(range(len(lower), len(lower) + len(found[0])))
            lower += found[0]
            upper += found[1]
            t = t.replace(element_type="i64", value=positions, lower=None, upper=None, reals=None)
            t = t.replace(real_lower=None, real_upper=None)
        elif t.element_type in _REAL_TYPES:
            return  # a real input of unknown value: nothing moves
        inputs.append(t)
    outputs = function(OpCall(call.schema, tuple(inputs), call.attributes)).outputs
    if len(outputs) != len(result.outputs):
        return
    for output, moved in zip(result.outputs, outputs, strict=True):
        if moved.unknown is Unknown.EVALUATION_FAILS:  # a scatter's index out of range: as for integers
            output.unknown_as(moved.unknown, moved.facts.why)
            continue
        places = moved.value
        if (
            places is None
            or output.element_type not in _REAL_TYPES
            or not all(0 <= p < len(lower) for p in places)
        ):
            continue
        settle_reals(output, (tuple(lower[p] for p in places), tuple(upper[p] for p in places)))


# --- Convert ------------------------------------------------------------------------------


def _integral_up_to_16_bits(element_type: str | None) -> bool:
    """``is_integral() && bitwidth() <= 16``: OpenVINO's is_integral is "not real", so boolean
    (8 bits) counts."""
    if element_type is None or element_type[0] == "f" or element_type in ("bf16", "nf4"):
        return False
    bits = element_types.BITS.get(element_type)
    return bits is not None and bits <= 16


def converted(tensor: Tensor, target: str | None) -> Bounds | None:
    """``convert::evaluate_bound``: each bound converted (:func:`converted_bound`)."""
    if not bounded(tensor) or tensor.lower is None or tensor.upper is None:
        return None
    lower = converted_bound(tensor.lower, tensor.element_type, target)
    upper = converted_bound(tensor.upper, tensor.element_type, target)
    return None if lower is None or upper is None else (lower, upper)


def converted_bound(bound: tuple[int, ...], source: str | None, target: str | None) -> tuple[int, ...] | None:
    """A bound converted as ``convert::evaluate_bound`` converts it: cast (wrapped), and past
    16-bit integer types an element at the input type's maximum becomes the output type's
    maximum (an unknown dim stays one). Shape inference reads a Convert's value through its
    bounds too, so a u64 2^64 - 1 converted to i64 is INT64_MAX (a dim of ``?``), not -1."""
    wrapped = values.wrap(bound, target)
    if wrapped is None or _integral_up_to_16_bits(source) or _integral_up_to_16_bits(target):
        return wrapped
    in_max, out_max = type_max(source), type_max(target)
    if in_max is None or out_max is None:
        return None
    return tuple(out_max if v == in_max else w for v, w in zip(bound, wrapped, strict=True))


# --- binary arithmetic: interval_bound_evaluator, and Divide's own rule --------------------


def _broadcast(bound: tuple[int, ...], lengths: Sequence[int], out: Sequence[int]) -> list[int] | None:
    return values.broadcast_to(values.Known(bound, lengths), out)


def interval(
    function: Callable[[int, int], int | None],
    inputs: Sequence[Tensor],
    out: Sequence[int],
    out_type: str | None,
) -> Bounds | None:
    """``interval_bound_evaluator``: the op on the four pairings of the inputs' bounds, the
    least and greatest result per element; where an input bound is its type's maximum the
    result is [0, the output type's maximum]."""
    a, b = of(inputs[0]), of(inputs[1])
    lengths = [t.shape.lengths for t in inputs]
    maxima = [type_max(t.element_type) for t in inputs]
    out_max = type_max(out_type)
    if a is None or b is None or None in lengths or None in maxima or out_max is None:
        return None
    columns = []
    for x in a:
        for y in b:
            x_col, y_col = _broadcast(x, lengths[0] or (), out), _broadcast(y, lengths[1] or (), out)
            if x_col is None or y_col is None:
                return None
            raw = [function(p, q) for p, q in zip(x_col, y_col, strict=True)]
            result = None if None in raw else values.wrap(raw, out_type)  # type: ignore[arg-type]
            if result is None:
                return None  # a pairing OpenVINO cannot evaluate (a zero divisor)
            columns.append(result)
    lower = [min(c) for c in zip(*columns, strict=True)]
    upper = [max(c) for c in zip(*columns, strict=True)]
    dynamic = _dynamic_mask([(a, lengths[0], maxima[0]), (b, lengths[1], maxima[1])], out)
    if dynamic is None:
        return None
    for i, masked in enumerate(dynamic):
        if masked:
            lower[i], upper[i] = 0, out_max
    return tuple(lower), tuple(upper)


def _dynamic_mask(
    operands: Sequence[tuple[RealBounds, Sequence[int] | None, float | None]], out: Sequence[int]
) -> list[bool] | None:
    """Where any input's lower or upper bound is its type's maximum, broadcast to ``out``."""
    mask = [False] * len(values.broadcast_to(values.Known([0], [1] * len(out)), out) or [])
    for (lower, upper), lengths, maximum in operands:
        flags = [int(lo == maximum or hi == maximum) for lo, hi in zip(lower, upper, strict=True)]
        column = _broadcast(tuple(flags), lengths or (), out)
        if column is None:
            return None
        mask = [m or bool(f) for m, f in zip(mask, column, strict=True)]
    return mask


def divided(
    inputs: Sequence[Tensor], out: Sequence[int], python_div: bool, out_type: str | None
) -> Bounds | None:
    """``divide::evaluate_bound``: for a positive divisor [low/up, up/low], for a negative one
    [up/low, low/up], around zero [type min, type max]; an input at its maximum (the divisor's
    type's) gives [0, max]."""
    a, b = of(inputs[0]), of(inputs[1])
    lengths = [t.shape.lengths for t in inputs]
    maximum, out_max = type_max(inputs[1].element_type), type_max(out_type)
    if a is None or b is None or None in lengths or maximum is None or out_max is None or out_type is None:
        return None
    out_min = 0 if out_type[0] == "u" else -out_max - 1
    columns = [_broadcast(bound, lengths[i] or (), out) for i, pair in enumerate((a, b)) for bound in pair]
    if any(c is None for c in columns):
        return None
    low1, up1, low2, up2 = (c or [] for c in columns)

    def divide(x: int, y: int) -> int:
        quotient = abs(x) // abs(y)
        truncated = -quotient if (x < 0) != (y < 0) else quotient
        return x // y if python_div else truncated

    lower, upper = [], []
    for l1, u1, l2, u2 in zip(low1, up1, low2, up2, strict=True):
        positive = u2 > 0
        around_zero = l2 < 0 < u2
        dynamic = u1 == maximum or u2 == maximum
        low_divisor = u2 if positive else l2
        if low_divisor == 0:
            return None  # an integer division by zero: OpenVINO's result is not defined
        lo = divide(l1 if positive else u1, low_divisor)
        lo = 0 if dynamic else out_min if around_zero else lo
        high_divisor = l2 if positive else u2
        hi = out_max if high_divisor == 0 else divide(u1 if positive else l1, high_divisor)
        hi = out_max if dynamic or around_zero else hi
        lower.append(lo)
        upper.append(hi)
    low_w, up_w = values.wrap(lower, out_type), values.wrap(upper, out_type)
    return None if low_w is None or up_w is None else (low_w, up_w)


# --- ReduceProd -------------------------------------------------------------------------------


def product_bounds(
    tensor: Tensor, reduce: Callable[[tuple[int, ...]], tuple[int, ...] | None]
) -> Bounds | None:
    """``ReduceProd::evaluate_lower/upper``: the product of the lower bounds and of the upper
    ones (wrapping as int64 does), whatever their signs, even a lower product above its upper
    one (by experiment in OpenVINO 2026.4, whose source asks for bounds not below zero:
    ``[-1..2, -1..1]`` gives 1 and 2, ``[-4..-1, -1..1]`` 4 and -1, which read as a dim is ``?``
    and clamped to ``[2, 2]`` is 2; tests/differential/test_product_bounds.py); an upper bound
    at the type's maximum, with no zero beside it, makes the upper product the maximum: OpenVINO
    copies one maximum over the first element of the output and writes no other, so a product of
    more than one element has no bounds (:func:`unwritten_product`)."""
    bounds = of(tensor)
    maximum = type_max(tensor.element_type)
    if bounds is None or maximum is None:
        return None
    lower, upper = bounds
    low, high = reduce(lower), reduce(upper)
    if low is None or high is None or unwritten_product(upper, maximum, len(high)):
        return None
    if maximum in upper and 0 not in upper:
        high = (maximum,)
    return low, high


def unwritten_product(upper: Sequence[float], maximum: float, count: int) -> bool:
    """Whether ReduceProd's upper bound is memory OpenVINO did not write: an upper bound of its
    data at the type's maximum (with no zero) makes ``evaluate_upper`` copy the type's maximum
    over the first element of the output and return, leaving the others as the allocation found
    them. By experiment, read_model of one file gave a Pad's dim of ``294..642`` and of ``642``,
    an i64 product of ``[2..5, 5]`` beside a ``[?, 4]`` gave ``2..12`` and ``12..642`` at
    different readings (``tests/differential/test_product_bounds.py``)."""
    return count > 1 and maximum in upper and 0 not in upper


# --- Mod: its own evaluate_lower / evaluate_upper (src/core/src/op/mod.cpp) ------------------


def _c_mod(x: int, y: int) -> int:
    """C++'s ``x % y``: the dividend's sign."""
    remainder = abs(x) % abs(y)
    return -remainder if x < 0 else remainder


def _c_half(x: int) -> int:
    """C++'s ``x / 2``: toward zero."""
    return -(-x // 2) if x < 0 else x // 2


def _mod_interval_value(v1: int, v2: int, m: int) -> tuple[int, int]:
    """``reference::func::mod_interval_value``: ``[v1, v2] % m``."""
    low, high = _c_mod(v1, m), _c_mod(v2, m)
    if high < low or (v2 - v1 != 0 and v2 - v1 >= m):
        return 0, m - 1
    return low, high


def _mod_interval(v1: int, v2: int, m1: int, m2: int) -> tuple[int, int]:
    """``reference::func::mod_interval``: ``[v1, v2] % [m1, m2]``, as OpenVINO estimates it."""
    low, high = _mod_interval_value(v1, v2, m1)
    if v2 == 0 or m1 == m2:
        return low, high
    low2, high2 = _mod_interval_value(v1, v2, m2)
    low, high = min(low, low2), max(high, high2)
    if v2 - v1 == 0 and m2 - m1 != 1:
        half = _c_half(v2)
        if m1 < half or m1 < v2 < m2:
            low = 0
            high = _c_mod(v2, half + 1) if half < m2 < v2 else m2 - 1
    return low, high


# the element types mod::EvaluateBound is instantiated for
_MOD_TYPES = frozenset({"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"})


def modulo(inputs: Sequence[Tensor], out: Sequence[int], out_type: str | None) -> Bounds | None:
    """``mod::evaluate_bound``: where the divisor's lower or upper bound is 0, its lower bound
    the type's maximum or the dividend's upper bound the maximum, [0, max]; elsewhere
    ``mod_interval`` of the four bounds."""
    a, b = of(inputs[0]), of(inputs[1])
    lengths = [t.shape.lengths for t in inputs]
    maximum = type_max(out_type)
    if a is None or b is None or None in lengths or maximum is None or out_type not in _MOD_TYPES:
        return None
    columns = [_broadcast(bound, lengths[i] or (), out) for i, pair in enumerate((a, b)) for bound in pair]
    if any(c is None for c in columns):
        return None
    lower, upper = [], []
    for v_lb, v_ub, m_lb, m_ub in zip(*(c or [] for c in columns), strict=True):
        if m_lb == 0 or m_ub == 0 or m_lb == maximum or v_ub == maximum:
            lower.append(0)
            upper.append(maximum)
        else:
            low, high = _mod_interval(v_lb, v_ub, m_lb, m_ub)
            lower.append(low)
            upper.append(high)
    low_w, up_w = values.wrap(lower, out_type), values.wrap(upper, out_type)
    return None if low_w is None or up_w is None else (low_w, up_w)


# --- Abs: its own evaluate_lower / evaluate_upper (src/core/src/op/abs.cpp) ------------------

# the integer types Abs::has_evaluate and its evaluate take
_ABS_TYPES = frozenset({"i32", "i64", "u32", "u64"})


def absolute(tensor: Tensor) -> Bounds | None:
    """``abs::evaluate_bound``: Abs of each bound, the lesser of the two the lower bound and the
    greater the upper (an interval across zero keeps its far end only)."""
    if not bounded(tensor) or tensor.lower is None or tensor.upper is None:
        return None
    if tensor.element_type not in _ABS_TYPES:
        return None
    low = values.wrap([abs(v) for v in tensor.lower], tensor.element_type)
    high = values.wrap([abs(v) for v in tensor.upper], tensor.element_type)
    if low is None or high is None:
        return None
    return (
        tuple(min(x, y) for x, y in zip(low, high, strict=True)),
        tuple(max(x, y) for x, y in zip(low, high, strict=True)),
    )


_CLAMPED_TYPES = frozenset({"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"})


def clamped(tensor: Tensor, low: float, high: float) -> Bounds | None:
    """Clamp-1 on integers: ``evaluate``'s ``min(max(x, ceil(min)), floor(max))``, ``min`` and
    ``max`` saturated to the type first (``double_to_int``), on the value or on each bound (its
    ``evaluate_lower``/``evaluate_upper`` evaluate the op on the bounds: a dim's unbounded upper
    bound, the type's maximum, clamped to ``max``). A 64-bit type's maximum as a double is
    2^63 (2^64), one past it: the type's maximum, by experiment (a ``max`` of 1e30 leaves a
    dynamic dim's i64 bound unbounded)."""
    found = of(tensor)
    limit = type_max(tensor.element_type)
    if found is None or limit is None or tensor.element_type not in _CLAMPED_TYPES:
        return None
    least = 0 if tensor.element_type[0] == "u" else -limit - 1
    floor_edge = min(math.ceil(max(low, float(least))), limit)
    ceiling_edge = min(math.floor(min(high, float(limit))), limit)

    def clamp(bound: Sequence[int]) -> tuple[int, ...]:
        return tuple(min(max(v, floor_edge), ceiling_edge) for v in bound)

    return clamp(found[0]), clamp(found[1])


# --- Equal: its own evaluate_lower / evaluate_upper (src/core/src/op/equal.cpp) --------------


def equal(inputs: Sequence[Tensor], out: Sequence[int]) -> Bounds | None:
    """``Equal::evaluate_lower``: true where both inputs are one known number; ``evaluate_upper``:
    true where their bounds overlap (``ll <= ru && rl <= lu``); so two bounds that cannot meet
    make an exact false, a Select's known condition."""
    a, b = of(inputs[0]), of(inputs[1])
    lengths = [t.shape.lengths for t in inputs]
    if a is None or b is None or None in lengths:
        return None
    columns = [_broadcast(bound, lengths[i] or (), out) for i, pair in enumerate((a, b)) for bound in pair]
    if any(c is None for c in columns):
        return None
    rows = list(zip(*(c or [] for c in columns), strict=True))
    lower = tuple(int(ll == lu == rl == ru) for ll, lu, rl, ru in rows)
    upper = tuple(int(ll <= ru and rl <= lu) for ll, lu, rl, ru in rows)
    return lower, upper


# --- real-valued bounds (a size times a scale on a dynamic input) ------------------------------

# std::numeric_limits<T>::max() of the real types whose bounds irshape carries: f32 and f16.
# With f64 OpenVINO's interval_bound_evaluator gets no bounds from ReduceMin and ReduceMax (they
# do not evaluate f64) but does not notice: a size of `2..5` times 2.0 in f64 is 0, read from
# memory nothing wrote (by experiment), so irshape gives no bounds there (wider)
_REAL_MAX = element_types.REAL_MAX
# ...but Convert's own bounds (``convert::evaluate_bound``: the maximum of either type for the
# other's) are sound in f64 too, and the ops that move elements move them (by experiment: an
# interval dim through Convert to f64, a Reshape, Transpose, Concat..., Convert to i64 is the
# interval; sys.float_info.max is std::numeric_limits<double>::max())
_CONVERT_MAX = {**_REAL_MAX, "f64": sys.float_info.max}


def real_of(tensor: Tensor) -> RealBounds | None:
    """A real tensor's bounds: its value twice when it is known, else its real bounds."""
    if tensor.reals is not None:
        return tensor.reals, tensor.reals
    if tensor.real_lower is not None and tensor.real_upper is not None:
        return tensor.real_lower, tensor.real_upper
    return None


def settle_reals(output: Output, found: RealBounds | None) -> Output:
    """Give ``output`` the real bounds ``found`` (its real value when they are equal), infinities
    and NaN as OpenVINO's bound evaluators carry them (an interval times a large scale past the
    type's range has an upper bound of inf, which a Minimum brings back: by experiment,
    tests/differential/test_real_overflow.py)."""
    if found is None or len(found[0]) != len(found[1]) or len(found[0]) > values.MAX_ELEMENTS:
        return output
    lower, upper = found
    # equal as OpenVINO compares them (are_equal: their bytes), so a NaN is its own bound, and
    # [-0.0, 0.0] an interval (by experiment: a scale of 2 / inf clamped to [0, 9] is ? there)
    if same_reals(lower, upper):
        output.reals = lower
    else:
        output.real_lower, output.real_upper = lower, upper
    return output


def converted_value_to_real(
    numbers: Sequence[float], source: str | None, target: str | None
) -> tuple[float, ...] | None:
    """A value converted to a real type as shape inference reads it, through
    ``convert::evaluate_bound``: each element rounded to the type (past its range an infinity),
    and one at the input type's maximum (a real type's, an integer type's past 16 bits) the
    output type's maximum (by experiment: 65504 in f16 to f32 is FLT_MAX, FLT_MAX to f16 65504)."""
    out_max = _CONVERT_MAX.get(target or "")
    in_max = _CONVERT_MAX.get(source or "")
    if in_max is None and not _integral_up_to_16_bits(source):
        in_max = type_max(source)
    if in_max is None or out_max is None:
        return values.to_ieee([float(v) for v in numbers], target)
    rounded = values.to_ieee([0.0 if v == in_max else float(v) for v in numbers], target)
    if rounded is None:
        return None
    return tuple(out_max if v == in_max else r for v, r in zip(numbers, rounded, strict=True))


def converted_value_from_real(
    numbers: Sequence[float], source: str | None, target: str | None
) -> tuple[int, ...] | None:
    """A real value converted to an integer type as shape inference reads it, through
    ``convert::evaluate_bound``: truncated (:func:`values.truncated`), and past 16-bit types an
    element at the real type's maximum the integer type's (by experiment: an f16 of 65504 to i64
    is a dim of ``?``)."""
    in_max = _CONVERT_MAX.get(source or "")
    out_max = None if _integral_up_to_16_bits(target) else type_max(target)
    if in_max is None or out_max is None:
        return values.truncated(numbers, target)
    whole = values.truncated([0.0 if v == in_max else v for v in numbers], target)
    if whole is None:
        return None
    return tuple(out_max if v == in_max else w for v, w in zip(numbers, whole, strict=True))


def converted_to_real(tensor: Tensor, target: str | None) -> RealBounds | None:
    """``convert::evaluate_bound`` of integer bounds to a real type: each rounded to it, and
    past 16-bit integer types an element at the input type's maximum becomes the real type's
    (an unbounded dim stays one)."""
    if not bounded(tensor) or tensor.lower is None or tensor.upper is None or target not in _CONVERT_MAX:
        return None
    in_max = None if _integral_up_to_16_bits(tensor.element_type) else type_max(tensor.element_type)
    out_max = _CONVERT_MAX[target]

    def convert(bound: tuple[int, ...]) -> tuple[float, ...] | None:
        # (the maximum is replaced, not rounded: INT64_MAX overflows an f16)
        rounded = values.to_ieee([0.0 if v == in_max else float(v) for v in bound], target)
        if rounded is None:
            return None
        return tuple(out_max if v == in_max else r for v, r in zip(bound, rounded, strict=True))

    lower, upper = convert(tensor.lower), convert(tensor.upper)
    return None if lower is None or upper is None else (lower, upper)


def converted_between_reals(tensor: Tensor, target: str | None) -> RealBounds | None:
    """``convert::evaluate_bound`` of real bounds to another real type (f32 to f16, bf16 to f32...):
    each rounded to it, a bound at the input type's maximum the output type's (by experiment: an
    interval and an unbounded dim through f32, then f16, bf16 or f64, then i64, are the interval
    and ``?``); None where one is not finite in the target (f16's range is narrow)."""
    if tensor.reals is not None or tensor.real_lower is None or tensor.real_upper is None:
        return None
    in_max, out_max = _CONVERT_MAX.get(tensor.element_type or ""), _CONVERT_MAX.get(target or "")
    if in_max is None or out_max is None:
        return None

    def convert(bound: tuple[float, ...]) -> tuple[float, ...] | None:
        rounded = values.to_ieee([0.0 if v == in_max else v for v in bound], target)
        if rounded is None:
            return None
        return tuple(out_max if v == in_max else r for v, r in zip(bound, rounded, strict=True))

    lower, upper = convert(tensor.real_lower), convert(tensor.real_upper)
    return None if lower is None or upper is None else (lower, upper)


def converted_from_real(tensor: Tensor, target: str | None) -> Bounds | None:
    """``convert::evaluate_bound`` of real bounds to an integer type: each truncated toward
    zero (None where one lies outside the type), an element at the real type's maximum the
    integer type's maximum (past 16-bit integer types)."""
    if tensor.reals is not None or tensor.real_lower is None or tensor.real_upper is None:
        return None
    in_max = _CONVERT_MAX.get(tensor.element_type or "")
    out_max = None if _integral_up_to_16_bits(target) else type_max(target)
    if in_max is None or type_max(target) is None:
        return None

    def convert(bound: tuple[float, ...]) -> tuple[int, ...] | None:
        at_max = [out_max is not None and v == in_max for v in bound]
        whole = values.truncated([0.0 if m else v for v, m in zip(bound, at_max, strict=True)], target)
        if whole is None or out_max is None:
            return whole
        return tuple(out_max if m else w for w, m in zip(whole, at_max, strict=True))

    lower, upper = convert(tensor.real_lower), convert(tensor.real_upper)
    return None if lower is None or upper is None else (lower, upper)


def real_interval(
    function: Callable[[float, float], float | None],
    inputs: Sequence[Tensor],
    out: Sequence[int],
    out_type: str | None,
) -> RealBounds | None:
    """``interval_bound_evaluator`` on real bounds: the op on the four pairings, rounded to the
    output type, the least and greatest per element; where an input bound is its type's
    maximum the result is [0, the output type's maximum]."""
    a, b = real_of(inputs[0]), real_of(inputs[1])
    lengths = [t.shape.lengths for t in inputs]
    maxima = [_REAL_MAX.get(t.element_type or "") for t in inputs]
    out_max = _REAL_MAX.get(out_type or "")
    if a is None or b is None or None in lengths or None in maxima or out_max is None:
        return None
    dynamic = _dynamic_mask([(a, lengths[0], maxima[0]), (b, lengths[1], maxima[1])], out)
    x_at = values.broadcast_to(values.Known(range(len(a[0])), lengths[0] or ()), out)
    y_at = values.broadcast_to(values.Known(range(len(b[0])), lengths[1] or ()), out)
    if dynamic is None or x_at is None or y_at is None:
        return None
    columns = []
    for x in a:
        for y in b:
            raw = [
                0.0 if masked else function(x[i], y[j])
                for i, j, masked in zip(x_at, y_at, dynamic, strict=True)
            ]
            rounded = None if None in raw else values.to_ieee(raw, out_type)  # type: ignore[arg-type]
            if rounded is None:
                return None  # a pairing OpenVINO cannot evaluate
            columns.append(rounded)
    from irshape.shapes import reals  # the real folds: imported where used (a network has few)

    # the least and greatest as ReduceMin and ReduceMax take them: past a NaN (inf times 0)
    least, greatest = reals.reduction("ReduceMin", out_type), reals.reduction("ReduceMax", out_type)
    if least is None or greatest is None:
        return None
    rows = list(zip(*columns, strict=True))
    lower = values.to_ieee([least(list(c)) for c in rows], out_type)
    upper = values.to_ieee([greatest(list(c)) for c in rows], out_type)
    if lower is None or upper is None:
        return None
    return (
        tuple(0.0 if masked else v for v, masked in zip(lower, dynamic, strict=True)),
        tuple(out_max if masked else v for v, masked in zip(upper, dynamic, strict=True)),
    )


def real_divided(
    function: Callable[[float, float], float | None],
    inputs: Sequence[Tensor],
    out: Sequence[int],
    out_type: str | None,
) -> RealBounds | None:
    """``divide::evaluate_bound`` of reals: for a positive divisor [low/up, up/low], for a
    negative one [up/low, low/up]; a divisor around zero gives [min, max], where min is
    ``std::numeric_limits<T>::min()``, the least positive normal number (by experiment: a
    ShapeOf in f16 divided by [-149, 149] converted to i64 reads as ``?``, not a negative
    bound), a zero divisor of the upper bound max, and an input at its type's maximum [0, max]."""
    a, b = real_of(inputs[0]), real_of(inputs[1])
    lengths = [t.shape.lengths for t in inputs]
    maximum, out_max = _REAL_MAX.get(inputs[1].element_type or ""), _REAL_MAX.get(out_type or "")
    if a is None or b is None or None in lengths or maximum is None or out_max is None:
        return None
    x_at = values.broadcast_to(values.Known(range(len(a[0])), lengths[0] or ()), out)
    y_at = values.broadcast_to(values.Known(range(len(b[0])), lengths[1] or ()), out)
    if x_at is None or y_at is None:
        return None
    columns = [[bound[i] for i in at] for pair, at in ((a, x_at), (b, y_at)) for bound in pair]
    lower: list[float] = []
    upper: list[float] = []
    for l1, u1, l2, u2 in zip(*columns, strict=True):
        positive = u2 > 0
        if u1 == maximum or u2 == maximum:  # (the divisor's type's maximum, as OpenVINO tests it)
            lower.append(0.0)
            upper.append(out_max)
            continue
        if l2 < 0 < u2:
            lower.append(element_types.REAL_MIN[out_type or "f32"])
            upper.append(out_max)
            continue
        low = function(l1 if positive else u1, u2 if positive else l2)
        high_divisor = l2 if positive else u2
        high = out_max if high_divisor == 0 else function(u1 if positive else l1, high_divisor)
        if low is None or high is None:
            return None
        lower.append(low)
        upper.append(high)
    return tuple(lower), tuple(upper)


def real_absolute(tensor: Tensor) -> RealBounds | None:
    """``abs::evaluate_bound`` of reals: Abs of each bound, the lesser the lower bound and the
    greater the upper (an interval across zero keeps its far end only, as for integers)."""
    if tensor.reals is not None or tensor.real_lower is None or tensor.real_upper is None:
        return None
    low = [abs(v) for v in tensor.real_lower]
    high = [abs(v) for v in tensor.real_upper]
    return (
        tuple(min(x, y) for x, y in zip(low, high, strict=True)),
        tuple(max(x, y) for x, y in zip(low, high, strict=True)),
    )
