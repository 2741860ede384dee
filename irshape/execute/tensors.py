"""Tensors for execution: numpy dtypes for OpenVINO element types, and Const values from the .bin."""

from __future__ import annotations

import mmap
from pathlib import Path
from typing import Any

import numpy as np

from irshape.execute.packing import PackingError, unpack
from irshape.ir import element_types
from irshape.ir.model import Document, Layer
from irshape.ir.values import ListSyntaxError, parse_int_list, parse_uint
from irshape.kernels import storage_dtype
from irshape.ops.interface import OpResult
from irshape.ops.registry import lookup
from irshape.ops.schema import OpSchema
from irshape.shapes.window import ConvPlan

DEFAULT_MAX_MEMORY = 1 << 30  # bytes of working memory one layer may use (--max-memory)


def numpy_dtype(type_name: str | None) -> np.dtype | None:
    """The numpy dtype of an element type or port precision name (``f32``, ``FP32``), if any."""
    name = element_types.from_precision(type_name) or element_types.from_element_type(type_name)
    return storage_dtype(name)


class ConstReader:
    """Values of the Const layers feeding other layers, read from the memory-mapped .bin."""

    def __init__(self, document: Document) -> None:
        self.by_id = {layer.id: layer for layer in document.layers if layer.id is not None}
        self.incoming = {(e.to_layer, e.to_port): e.from_layer for e in document.edges}
        self._path: Path | None = document.weights_path
        self._map: mmap.mmap | None = None

    def producer(self, layer: Layer, input_index: int) -> Layer | None:
        if input_index >= len(layer.inputs):
            return None
        source = self.incoming.get((layer.id or "", layer.inputs[input_index].id))
        return None if source is None else self.by_id.get(source)

    def value(self, layer: Layer, input_index: int, shape: tuple[int, ...] | None) -> np.ndarray | None:
        """The value of a Const feeding ``layer``'s input, or None if there is none to read."""
        const = self.producer(layer, input_index)
        if const is None or (const.type or "").lower() != "const":
            return None
        return self.read(const, shape)

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


def convolution_declaration(layer: Layer) -> OpSchema | None:
    """The declaration of ``layer`` when it is one of the convolutions the kernels run."""
    schema = lookup(layer.type, layer.version)
    runs = schema is not None and schema.function in ("convolution", "convolution_backprop")
    return schema if runs else None


def is_backprop(schema: OpSchema) -> bool:
    return schema.function == "convolution_backprop"


def kernel_arguments(inference: OpResult, schema: OpSchema, groups: int) -> dict[str, Any]:
    """The keyword arguments of the numpy kernels for a convolution irshape inferred."""
    plan = inference.details
    assert isinstance(plan, ConvPlan)
    attrs = plan.attributes
    arguments: dict[str, Any] = {
        "strides": attrs.strides,
        "dilations": attrs.dilations,
        "groups": groups,
        "pads_begin": plan.pads_begin,
        "pads_end": plan.pads_end,
    }
    if is_backprop(schema):
        arguments["output_padding"] = attrs.output_padding
    return arguments


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
