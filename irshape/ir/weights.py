"""Read small Const values (the backprop ops' output_shape) from the sibling .bin file.

The .bin is memory-mapped and only the bytes of the requested Const are touched.
"""

from __future__ import annotations

import mmap
import struct
from pathlib import Path

_INTEGER_FORMATS = {
    "i8": "b",
    "i16": "h",
    "i32": "i",
    "i64": "q",
    "u8": "B",
    "u16": "H",
    "u32": "I",
    "u64": "Q",
}


class WeightsError(ValueError):
    """The value cannot be read; the message says why, for an info finding."""


class Weights:
    """A lazily opened, memory-mapped .bin file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._map: mmap.mmap | None = None
        self._opened = False

    def _mapping(self) -> mmap.mmap:
        if not self._opened:
            self._opened = True
            if self.path is None:
                raise WeightsError("no .bin file: the IR was not read from a file")
            try:
                with self.path.open("rb") as handle:
                    if self.path.stat().st_size:
                        self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            except OSError:
                self._map = None
        if self._map is None:
            raise WeightsError(f"no readable weights file {self.path.name if self.path else ''}")
        return self._map

    def read_integers(self, element_type: str, count: int, offset: int, size: int) -> tuple[int, ...]:
        """``count`` little-endian integers of ``element_type`` at ``offset``."""
        fmt = _INTEGER_FORMATS.get(element_type)
        if fmt is None:
            raise WeightsError(f"element type {element_type} is not read as an integer list")
        needed = count * struct.calcsize(fmt)
        data = self._mapping()
        if offset < 0 or size < needed or offset + needed > len(data):
            raise WeightsError(
                f"bytes {offset}..{offset + needed} are outside the {len(data)}-byte weights file "
                f"or beyond the Const's size {size}"
            )
        return struct.unpack_from(f"<{count}{fmt}", data, offset)

    def close(self) -> None:
        if self._map is not None:
            self._map.close()
            self._map = None
