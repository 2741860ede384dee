"""OpenVINO's element type vocabularies (rules §6, §8.3).

A port ``precision`` and an ``element_type`` attribute use different spellings: ``FP32`` is a
precision only, ``F32`` (any case) an element_type only.
"""

from __future__ import annotations

# Port precision (legacy upper-case names) -> element type.
LEGACY_PRECISIONS = {
    "FP32": "f32",
    "FP16": "f16",
    "BF16": "bf16",
    "FP64": "f64",
    "I4": "i4",
    "I8": "i8",
    "I16": "i16",
    "I32": "i32",
    "I64": "i64",
    "U1": "u1",
    "BIN": "u1",
    "U2": "u2",
    "U3": "u3",
    "U4": "u4",
    "U6": "u6",
    "U8": "u8",
    "U16": "u16",
    "U32": "u32",
    "U64": "u64",
    "BOOL": "boolean",
    "STRING": "string",
    "UNSPECIFIED": "dynamic",
    "NF4": "nf4",
    "F8E4M3": "f8e4m3",
    "F8E5M2": "f8e5m2",
    "F4E2M1": "f4e2m1",
    "F8E8M0": "f8e8m0",
}

# Bits per element, for Const sizes and for reading values from the .bin.
BITS = {
    "boolean": 8,
    "bf16": 16,
    "f16": 16,
    "f32": 32,
    "f64": 64,
    "i4": 4,
    "i8": 8,
    "i16": 16,
    "i32": 32,
    "i64": 64,
    "u1": 1,
    "u2": 2,
    "u3": 3,
    "u4": 4,
    "u6": 6,
    "u8": 8,
    "u16": 16,
    "u32": 32,
    "u64": 64,
    "nf4": 4,
    "f8e4m3": 8,
    "f8e5m2": 8,
    "f4e2m1": 4,
    "f8e8m0": 8,
}

# element_type names (matched case-insensitively in element_type attributes): every sized type,
# plus "string", "dynamic" and its alias "undefined".
ELEMENT_TYPES = frozenset(BITS) | {"string", "dynamic", "undefined"}

# is_integral_number() in OpenVINO: "not is_real() and not boolean", so string, dynamic and
# nf4 are (by experiment: BitwiseLeftShift takes string and nf4; an output_shape Const of nf4 is
# read: docs/openvino-ir-reading.md §6). The one list every op's check uses.
INTEGRAL = frozenset(t for t in BITS if t[0] in "iu") | {"string", "dynamic", "nf4"}


def is_integral_number(element_type: str | None) -> bool:
    """``element::Type::is_integral_number``; an unknown type (None) passes."""
    return element_type is None or element_type in INTEGRAL


def from_precision(precision: str | None) -> str | None:
    """The element type a port precision names, or None if it names none."""
    if precision is None:
        return None
    if precision in LEGACY_PRECISIONS:
        return LEGACY_PRECISIONS[precision]
    return precision if precision in ELEMENT_TYPES else None


def from_element_type(text: str | None) -> str | None:
    """An ``element_type`` attribute, read case-insensitively; None if OpenVINO rejects it."""
    if text is None:
        return None
    name = text.lower()
    if name not in ELEMENT_TYPES:
        return None
    return "dynamic" if name == "undefined" else name


def merge(a: str | None, b: str | None) -> str | None:
    """``element::Type::merge``: equal types, or one dynamic; None when they conflict."""
    if a == "dynamic" or a is None:
        return b
    if b == "dynamic" or b is None or a == b:
        return a
    return None


_DYNAMIC_ALIAS = {"undefined": "dynamic"}


def same(a: str, b: str) -> bool:
    """Do two element type names name the same type (``undefined`` is ``dynamic``)?"""
    return _DYNAMIC_ALIAS.get(a, a) == _DYNAMIC_ALIAS.get(b, b)


# std::numeric_limits<T>::max() of the real types whose bounds OpenVINO evaluates (not f64:
# its interval_bound_evaluator gets nothing from ReduceMin/ReduceMax there and reads memory
# nothing wrote: `2..5` times 2.0 is 0, by experiment)
REAL_MAX = {"f32": 3.4028234663852886e38, "f16": 65504.0, "bf16": 3.3895313892515355e38}
# std::numeric_limits<T>::min() of those: their least positive normal number, not their lowest
REAL_MIN = {"f32": 2.0**-126, "f16": 2.0**-14, "bf16": 2.0**-126}
