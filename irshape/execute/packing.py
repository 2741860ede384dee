"""A Const's bytes in the .bin as a numpy array of its element type's storage dtype
(:func:`irshape.kernels.storage_dtype`), exactly as OpenVINO packs them.

Plain types are little-endian arrays viewed in place. The sub-byte and narrow real types
(u1..u6, i4, nf4, bf16, the f8/f4 types) and strings are unpacked into their storage dtype.
"""

from __future__ import annotations

import numpy as np

from irshape.kernels import storage_dtype

_PLAIN = frozenset({"f64", "f32", "f16", "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8", "boolean"})


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
        if len(data) < needed:
            raise PackingError(f"the Const needs {needed} bytes, its size is {len(data)}")
        return np.frombuffer(data, dtype=dtype.newbyteorder("<"), count=count).reshape(dims)
    if element_type == "u1":  # most significant bit first: element 0 is bit 7 of byte 0
        needed = (count + 7) // 8
        if len(data) < needed:
            raise PackingError(f"the Const needs {needed} bytes, its size is {len(data)}")
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8, count=needed), count=count)
        return bits.reshape(dims)
    raise PackingError(f"irshape does not unpack {element_type} Consts yet")
