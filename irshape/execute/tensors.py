"""Tensors for execution: numpy dtypes for OpenVINO element types, and Const values from the .bin."""

from __future__ import annotations

import mmap
from pathlib import Path

import numpy as np

from irshape.execute.packing import PackingError, unpack
from irshape.ir import element_types
from irshape.ir.model import Document, Layer
from irshape.ir.values import ListSyntaxError, parse_int_list, parse_uint
from irshape.kernels import storage_dtype

DEFAULT_MAX_MEMORY = 1 << 30  # bytes of working memory one layer may use (--max-memory)


def numpy_dtype(type_name: str | None) -> np.dtype | None:
    """The numpy dtype of an element type or port precision name (``f32``, ``FP32``), if any."""
    name = element_types.from_precision(type_name) or element_types.from_element_type(type_name)
    return storage_dtype(name)


class ConstReader:
    """The values of Const layers, read from the memory-mapped .bin."""

    def __init__(self, document: Document) -> None:
        weights = document.weights_path
        self._path: Path | None = None if weights is None else Path(weights)
        self._map: mmap.mmap | None = None

    def read(self, const: Layer, shape: tuple[int, ...] | None = None) -> np.ndarray | None:
        element_type = const.data.get("element_type", "")
        data = self._mapping()
        try:
            dims = parse_int_list(const.data.get("shape", "")).values
        except ListSyntaxError:
            return None
        offset, size = parse_uint(const.data.get("offset")), parse_uint(const.data.get("size"))
        if offset is None or size is None or any(d < 0 for d in dims):
            return None
        if data is None or offset < 0 or offset + size > len(data):
            return None
        if shape is not None and tuple(dims) != shape:
            return None
        view = memoryview(data)[offset : offset + size]
        try:
            return unpack(view, element_type, tuple(dims))
        except PackingError:
            return None

    def _mapping(self) -> mmap.mmap | None:
        if self._map is None and self._path is not None and self._path.is_file():
            with self._path.open("rb") as handle:
                if self._path.stat().st_size:
                    self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        return self._map

    def close(self) -> None:
        # Arrays returned by read() may still view the map; let them keep it alive.
        self._map = None


def byte_size(n: int) -> str:
    """``n`` bytes for people: ``512 B``, ``1.5 KiB`` ... ``7.4 GiB`` (GiB at most)."""
    if n < 1024:
        return f"{n} B"
    value = float(n)
    for unit in ("KiB", "MiB", "GiB"):
        value /= 1024
        if value < 1024 or unit == "GiB":
            break
    return f"{value:.1f} {unit}"
