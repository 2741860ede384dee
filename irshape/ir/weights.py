"""The sibling .bin file: its size, Const byte counts, and small Const values.

The .bin is memory-mapped and only the bytes of the requested Const are touched; it is never
read whole, so a multi-gigabyte weights file costs nothing to check.
"""

from __future__ import annotations

import itertools
import mmap
import os
import struct
from typing import Any

from irshape.ir.element_types import BITS

_INTEGER_FORMATS = {
    # a boolean is stored as a C++ char, one byte an element, and read as one (signed on
    # x86-64): any byte is kept, 0x02 as 2, 0xff as -1 (docs/openvino-ir-reading.md §14)
    "boolean": "b",
    "i8": "b",
    "i16": "h",
    "i32": "i",
    "i64": "q",
    "u8": "B",
    "u16": "H",
    "u32": "I",
    "u64": "Q",
}
_REAL_FORMATS = {"f16": "e", "f32": "f", "f64": "d", "bf16": "H"}  # bf16: f32's upper 16 bits
# 4-bit types OpenVINO's shape inference reads as whole signed bytes, one per element (its
# get_input_const_data_as takes the storage type, int8, for ``count`` elements): a u4 Const
# [2, 3] (the byte 0x32) reads as [50, next byte] (docs/openvino-ir-reading.md §6).
_BYTE_READ = frozenset({"i4", "u4", "nf4"})
# Types whose Const OpenVINO cannot evaluate at all, with what it says. (Reading a Const of
# another type irshape does not read as integers, boolean or f8e4m3, its shape inference says
# 'Element not supported': irshape/shapes/reading.py.)
NOT_EVALUABLE = {
    "dynamic": "Tensor was not initialized.",
    "u1": "Element not supported",
    "u2": "Element not supported",
    "u3": "Element not supported",
    "u6": "Element not supported",
    "string": "Constant does not support casting elements of type 'string' into std::vector of type 'i64'",
}


# Why a layer typed 'Constant' has no value (check/sources.py): OpenVINO reads no bytes for it.
CONSTANT_WITHOUT_BYTES = "a layer typed 'Constant', not 'Const': OpenVINO reads no bytes for it"


def not_evaluable_reason(element_type: str) -> str:
    """Why a Const of a type irshape does not read as integers or reals has no value: one of the
    :data:`NOT_EVALUABLE` types, or one OpenVINO's shape inference does not read as integers."""
    message = NOT_EVALUABLE.get(element_type, "Element not supported")
    return f"OpenVINO cannot evaluate a Const of element type {element_type} ('{message}')"


# A Git LFS pointer file: what a clone without `git lfs pull` (a CI checkout without LFS) holds
# in place of the .bin. https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md
LFS_POINTER_PREFIX = b"version https://git-lfs.github.com/spec/"
LFS_POINTER_MAX = 1024  # the spec: pointer files are below 1024 bytes


SIZE_T = 2**64


class WeightsError(ValueError):
    """The value cannot be read; the message says why, for an info finding."""


class NotEvaluable(WeightsError):
    """The value is of a type OpenVINO holds but does not evaluate (:data:`NOT_EVALUABLE`)."""


def element_count(shape: tuple[int, ...]) -> int:
    """``ov::shape_size``: the product of the dims (1 for a scalar), in size_t: modulo 2^64
    (OpenVINO reads a Const's dims as int64 and casts them to size_t, docs/openvino-ir-reading.md §1)."""
    count = 1
    for dim in shape:
        count = count * dim % SIZE_T
    return count


def bytes_needed(element_type: str, count: int) -> int | None:
    """The bytes OpenVINO requires for ``count`` elements: ``ceil(count * bits / 8)``.

    Sub-byte types are packed (u1: 8 elements a byte, MSB first; i4/u4/nf4: 2 a byte, low
    nibble first; u2/u3/u6 likewise bit-packed), so the byte count rounds up once for the whole
    tensor, not per element. None for ``string`` (a packed format of its own) and ``dynamic``
    (bit width 0), whose size OpenVINO does not check against the shape.
    """
    bits = BITS.get(element_type)
    if bits is None:
        return None
    return (count * bits + 7) % SIZE_T >> 3  # size_t: the sum wraps before the shift


class Weights:
    """A lazily opened, memory-mapped .bin file."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = None if path is None else os.fspath(path)
        self._map: mmap.mmap | None = None
        self._opened = False
        self._size: int | None = None
        self.lfs_pointer = False  # the .bin is a Git LFS pointer, not the weights

    def _open(self) -> None:
        if self._opened:
            return
        self._opened = True
        if self.path is None:
            return
        try:
            with open(self.path, "rb") as handle:
                self._size = os.fstat(handle.fileno()).st_size
                if (
                    self._size < LFS_POINTER_MAX
                    and handle.read(len(LFS_POINTER_PREFIX)) == LFS_POINTER_PREFIX
                ):
                    self.lfs_pointer, self._size = True, None  # no weights: as if missing
                    return
                if self._size:  # mmap refuses an empty file
                    self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError:
            self._map, self._size = None, None

    @property
    def name(self) -> str:
        """The .bin file's name (no directory), for findings."""
        return "" if self.path is None else os.path.basename(self.path)

    @property
    def size(self) -> int | None:
        """The .bin file's size in bytes, or None when there is no readable file."""
        self._open()
        return self._size

    def unavailable_reason(self) -> str | None:
        """Why no Const can be read from this .bin (None when it can)."""
        self._open()
        if self.path is None:
            return "the IR was given as text, so there is no .bin next to it"
        if self.lfs_pointer:
            return (
                f"{self.name} is a Git LFS pointer, not the weights (fetch them with git lfs pull, "
                "or check out with LFS)"
            )
        if self._size is None:
            return f"there is no readable {self.name} next to the IR"
        if self._size == 0:
            return f"{self.name} is empty"
        return None

    def _mapping(self) -> mmap.mmap:
        self._open()
        if self._map is None:
            raise WeightsError(self.unavailable_reason() or "no weights file")
        return self._map

    def read_integers(self, element_type: str, count: int, offset: int, size: int) -> tuple[int, ...]:
        """``count`` little-endian integers of ``element_type`` at ``offset``, as OpenVINO's
        shape inference reads them (i4, u4, nf4: ``count`` signed bytes, read on past the
        Const's own bytes as OpenVINO does: :meth:`_signed_bytes`)."""
        if element_type in NOT_EVALUABLE:
            raise NotEvaluable(not_evaluable_reason(element_type))
        if element_type in _BYTE_READ:
            return self._signed_bytes(count, offset)
        fmt = _INTEGER_FORMATS.get(element_type)
        if fmt is None:
            raise NotEvaluable(not_evaluable_reason(element_type))
        return self._unpack(fmt, count, offset, size)

    def _signed_bytes(self, count: int, offset: int) -> tuple[int, ...]:
        """``count`` signed bytes from ``offset``, on past the Const's own bytes and past the
        end of the file as OpenVINO reads them from its mapping of the file: zeros up to the end
        of the file's last page. A file of whole pages has none: OpenVINO then reads whatever
        memory follows the mapping (by experiment, a u4 output_shape Const of two elements in
        the file's last byte reads [50, 0] from a 449-byte file, [50, 36] from a 4096-byte one)."""
        data = self._mapping()
        end = offset + count
        if offset >= 0 and end <= len(data):
            return struct.unpack_from(f"<{count}b", data, offset)
        page_end = len(data) + (-len(data)) % mmap.PAGESIZE
        if offset < 0 or offset > len(data) or end > page_end or page_end == len(data):
            raise WeightsError(
                f"bytes {offset}..{end} are read past the end of the {len(data)}-byte weights file, "
                "from memory OpenVINO has not mapped from it"
            )
        return struct.unpack(f"<{count}b", data[offset:] + bytes(end - len(data)))

    def read_reals(self, element_type: str, count: int, offset: int, size: int) -> tuple[float, ...]:
        """``count`` little-endian floating-point numbers of ``element_type`` (f16, f32, f64,
        bf16)."""
        fmt = _REAL_FORMATS.get(element_type)
        if fmt is None:
            raise WeightsError(f"element type {element_type} is not read as a list of reals")
        values = self._unpack(fmt, count, offset, size)
        if element_type == "bf16":  # the upper half of an f32
            return struct.unpack(f"<{count}f", struct.pack(f"<{count}I", *(v << 16 for v in values)))
        return values

    def _unpack(self, fmt: str, count: int, offset: int, size: int) -> tuple[Any, ...]:
        needed = count * struct.calcsize(fmt)
        data = self._mapping()
        if offset < 0 or size < needed or offset + needed > len(data):
            raise WeightsError(
                f"bytes {offset}..{offset + needed} are outside the {len(data)}-byte weights file "
                f"or beyond the Const's size {size}"
            )
        return struct.unpack_from(f"<{count}{fmt}", data, offset)

    def packed_string_problem(self, offset: int, size: int, count: int) -> tuple[str, str] | None:
        """What is wrong with the packed string tensor of a ``string`` Const of ``count``
        elements at ``offset`` (``size`` bytes), as (problem, OpenVINO's message); None when it
        is sound or its bytes cannot be read (a missing .bin, bounds: reported elsewhere).

        The format: an int32 count, then count + 1 int32 offsets into the characters that
        follow (one int32 when the count is 0). OpenVINO's ``unpack_string_tensor`` checks the
        header against ``size``; a count other than the shape's, or an offset out of order,
        makes it read memory it should not (a crash or a message that varies from run to
        run, docs/openvino-ir-reading.md §10), so each is a fault of the file.
        """
        data = self._map if self.unavailable_reason() is None else None
        if data is None or offset + size > len(data):
            return None
        header = "Incorrect packed string tensor format: header exceeds provided buffer size"
        if size < 4:
            return f"has {size} bytes, fewer than the 4 of the string count", header
        (strings,) = struct.unpack_from("<i", data, offset)
        if strings < 0:
            negative = "Incorrect packed string tensor format: negative number of strings"
            return f"says it holds {strings} strings", negative
        header_size = 4 * (strings + (1 if strings == 0 else 2))
        if header_size > size:
            return f"says it holds {strings} strings, whose header needs {header_size} bytes", header
        if strings != count:
            return f"holds {strings} strings where the shape has {count} elements", "(a crash, or garbage)"
        ends = struct.unpack_from(f"<{strings + 1}i", data, offset + 4) if strings else (0,)
        region = size - header_size
        for begin, end in itertools.pairwise(ends):
            if not 0 <= begin <= end <= region:
                what = f"has a string at bytes {begin}..{end} of its {region} bytes of characters"
                return what, "Incorrect packed string tensor format: string offset exceeds buffer bounds"
        return None

    def close(self) -> None:
        if self._map is not None:
            self._map.close()
            self._map = None
