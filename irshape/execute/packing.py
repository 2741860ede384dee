"""A Const's bytes in the .bin as a numpy array of its element type's storage dtype
(:func:`irshape.kernels.storage_dtype`), exactly as OpenVINO packs them.

Plain types are little-endian arrays viewed in place. The others are unpacked (the layouts found
by saving Consts with ``ov.save_model`` and reading the bytes back, tests/execution/test_packing.py):

* u1: 8 elements a byte, the first in the most significant bit;
* u2: 4 a byte, the first in the least significant bits;
* u4, i4, nf4, f4e2m1: 2 a byte, the first in the low nibble (i4 sign-extended; nf4 and f4e2m1
  looked up in their code books);
* u3: 8 elements in 3 bytes: two bytes of their low 2 bits (the first element in the top bits),
  then one byte of their high bits (the first in the top bit);
* u6: 4 elements in 3 bytes: two bytes of their low 4 bits (the first in the high nibble), then
  one byte of their high 2 bits (the first in the top bits);
* bf16: the upper half of an f32; f8e4m3 (no infinities, max 448), f8e5m2 (IEEE-like), f8e8m0
  (a power of two, 0xFF NaN): decoded to their f32 values;
* string: an int32 count, count + 1 int32 offsets, then the UTF-8 characters.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from irshape.kernels import storage_dtype

_PLAIN = frozenset({"f64", "f32", "f16", "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8", "boolean"})

# bitsandbytes' NF4 code book, as OpenVINO's ConvertNF4 holds it
NF4_VALUES = np.array(
    [
        -1.0,
        -0.6961928009986877,
        -0.5250730514526367,
        -0.39491748809814453,
        -0.28444138169288635,
        -0.18477343022823334,
        -0.09105003625154495,
        0.0,
        0.07958029955625534,
        0.16093020141124725,
        0.24611230194568634,
        0.33791524171829224,
        0.44070982933044434,
        0.5626170039176941,
        0.7229568362236023,
        1.0,
    ],
    dtype=np.float32,
)


class PackingError(ValueError):
    """The Const's bytes cannot be unpacked (too few, or an element type irshape does not unpack)."""


def unpack(data: memoryview | bytes, element_type: str, dims: tuple[int, ...]) -> np.ndarray:
    """The ``dims``-shaped value of ``element_type`` stored in ``data`` (the Const's bytes)."""
    count = 1
    for dim in dims:
        count *= dim
    dtype = storage_dtype(element_type)
    if element_type in _PLAIN and dtype is not None:
        needed = count * dtype.itemsize
        _check_size(data, needed)
        return np.frombuffer(data, dtype=dtype.newbyteorder("<"), count=count).reshape(dims)
    if element_type == "string":
        return _strings(data, count).reshape(dims)
    unpacker = _UNPACKERS.get(element_type)
    if unpacker is None:
        raise PackingError(f"irshape does not unpack {element_type} Consts")
    needed_bytes, decode = unpacker
    _check_size(data, needed_bytes(count))
    raw = np.frombuffer(data, dtype=np.uint8, count=needed_bytes(count))
    return decode(raw, count).reshape(dims)


def _check_size(data: memoryview | bytes, needed: int) -> None:
    if len(data) < needed:
        raise PackingError(f"the Const needs {needed} bytes, its size is {len(data)}")


# --- sub-byte integers -----------------------------------------------------------------------


def _per_byte(bits: int) -> Callable[[int], int]:
    return lambda count: -(-count * bits // 8)


def _bits_msb_first(raw: np.ndarray, count: int) -> np.ndarray:
    result: np.ndarray = np.unpackbits(raw, bitorder="big")[:count]
    return result


def _pairs_lsb_first(raw: np.ndarray, count: int) -> np.ndarray:
    shifts = np.array([0, 2, 4, 6], dtype=np.uint8)
    result: np.ndarray = ((raw[:, None] >> shifts) & 3).reshape(-1)[:count]
    return result


def _nibbles(raw: np.ndarray, count: int) -> np.ndarray:
    """The 4-bit codes, low nibble first."""
    result: np.ndarray = np.stack([raw & 0x0F, raw >> 4], axis=1).reshape(-1)[:count]
    return result


def _signed_nibbles(raw: np.ndarray, count: int) -> np.ndarray:
    codes = _nibbles(raw, count).astype(np.int8)
    result: np.ndarray = np.where(codes > 7, codes - 16, codes).astype(np.int8)
    return result


def _u3(raw: np.ndarray, count: int) -> np.ndarray:
    groups = raw[: len(raw) - len(raw) % 3].reshape(-1, 3)
    low = (groups[:, :2, None] >> np.array([6, 4, 2, 0], dtype=np.uint8)) & 3  # 8 low parts a group
    high = (groups[:, 2:3] >> np.arange(7, -1, -1, dtype=np.uint8)) & 1
    result: np.ndarray = (low.reshape(-1, 8) | (high << 2)).reshape(-1)[:count]
    return result


def _u6(raw: np.ndarray, count: int) -> np.ndarray:
    groups = raw[: len(raw) - len(raw) % 3].reshape(-1, 3)
    low = np.stack([groups[:, :2] >> 4, groups[:, :2] & 0x0F], axis=2).reshape(-1, 4)
    high = (groups[:, 2:3] >> np.array([6, 4, 2, 0], dtype=np.uint8)) & 3
    result: np.ndarray = (low | (high << 4)).reshape(-1)[:count]
    return result


def _groups_of_three(per_group: int) -> Callable[[int], int]:
    return lambda count: -(-count // per_group) * 3


# --- narrow reals ----------------------------------------------------------------------------


def _bf16(raw: np.ndarray, count: int) -> np.ndarray:
    halves = raw.view("<u2").astype(np.uint32)
    result: np.ndarray = (halves << 16).view(np.float32)[:count]
    return result


def _minifloat_table(exponent_bits: int, mantissa_bits: int, bias: int, kind: str) -> np.ndarray:
    """Every code's f32 value of a small float format with a sign bit: ``ieee`` has infinities
    and NaNs at the top exponent, ``fn`` only NaN at all-ones (f8e4m3), ``finite`` neither
    (f4e2m1)."""
    size = 1 << (1 + exponent_bits + mantissa_bits)
    codes = np.arange(size)
    sign = np.where(codes >> (exponent_bits + mantissa_bits) & 1, -1.0, 1.0)
    exponent = (codes >> mantissa_bits) & ((1 << exponent_bits) - 1)
    mantissa = codes & ((1 << mantissa_bits) - 1)
    normal = (1 + mantissa / (1 << mantissa_bits)) * np.exp2(exponent - bias)
    subnormal = mantissa / (1 << mantissa_bits) * np.exp2(1 - bias)
    values = sign * np.where(exponent == 0, subnormal, normal)
    top = exponent == (1 << exponent_bits) - 1
    if kind == "ieee":
        values = np.where(top & (mantissa == 0), sign * np.inf, values)
        values = np.where(top & (mantissa != 0), np.nan, values)
    elif kind == "fn":
        values = np.where(top & (mantissa == (1 << mantissa_bits) - 1), np.nan, values)
    table: np.ndarray = values.astype(np.float32)
    return table


_F8E4M3 = _minifloat_table(4, 3, 7, "fn")
_F8E5M2 = _minifloat_table(5, 2, 15, "ieee")
_F4E2M1 = _minifloat_table(2, 1, 1, "finite")
_F8E8M0 = np.where(np.arange(256) == 255, np.nan, np.exp2(np.arange(256, dtype=np.float64) - 127)).astype(
    np.float32
)


def _looked_up(
    table: np.ndarray, codes: Callable[[np.ndarray, int], np.ndarray]
) -> Callable[..., np.ndarray]:
    def decode(raw: np.ndarray, count: int) -> np.ndarray:
        result: np.ndarray = table[codes(raw, count)]
        return result

    return decode


def _bytes(raw: np.ndarray, count: int) -> np.ndarray:
    return raw[:count]


_UNPACKERS: dict[str, tuple[Callable[[int], int], Callable[[np.ndarray, int], np.ndarray]]] = {
    "u1": (_per_byte(1), _bits_msb_first),
    "u2": (_per_byte(2), _pairs_lsb_first),
    "u3": (_groups_of_three(8), _u3),
    "u4": (_per_byte(4), _nibbles),
    "u6": (_groups_of_three(4), _u6),
    "i4": (_per_byte(4), _signed_nibbles),
    "nf4": (_per_byte(4), _looked_up(NF4_VALUES, _nibbles)),
    "f4e2m1": (_per_byte(4), _looked_up(_F4E2M1, _nibbles)),
    "bf16": (_per_byte(16), _bf16),
    "f8e4m3": (_per_byte(8), _looked_up(_F8E4M3, _bytes)),
    "f8e5m2": (_per_byte(8), _looked_up(_F8E5M2, _bytes)),
    "f8e8m0": (_per_byte(8), _looked_up(_F8E8M0, _bytes)),
}


# --- strings ---------------------------------------------------------------------------------


def _strings(data: memoryview | bytes, count: int) -> np.ndarray:
    """OpenVINO's packed strings: an int32 count, count + 1 int32 offsets, the characters."""
    _check_size(data, 4)
    stored = int(np.frombuffer(data, dtype="<i4", count=1)[0])
    if stored != count:
        raise PackingError(f"the packed strings hold {stored} strings where the shape has {count} elements")
    if count == 0:
        return np.empty(0, dtype=object)
    header = 4 * (count + 2)
    _check_size(data, header)
    ends = np.frombuffer(data, dtype="<i4", count=count + 1, offset=4)
    characters = bytes(data[header:])
    if np.any(np.diff(ends) < 0) or ends[0] < 0 or ends[-1] > len(characters):
        raise PackingError("a packed string's offsets are out of order or past the Const's bytes")
    # one Python slice per string: a string tensor is a list of Python objects anyway
    result = np.empty(count, dtype=object)
    result[:] = [characters[b:e].decode("utf-8", errors="replace") for b, e in itertools.pairwise(ends)]
    return result
