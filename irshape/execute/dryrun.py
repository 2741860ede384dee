"""Dry runs: execute each convolution layer with numpy and confirm its output shape.

Each layer runs at its declared input shapes, with Const kernels and output_shape values from
the .bin and seeded random data for everything else. The pads come from irshape's own shape
inference, so auto_pad is resolved exactly as OpenVINO resolves it. numpy is imported here
only, and this module only when a dry run is asked for.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from irshape import rules
from irshape.check.layer import check_op
from irshape.diagnostics import Diagnostic, Location
from irshape.dims import static_shape
from irshape.execute import kernels
from irshape.execute.tensors import (
    DEFAULT_MAX_MEMORY,
    ConstReader,
    byte_size,
    convolution_declaration,
    is_backprop,
    kernel_arguments,
    numpy_dtype,
)
from irshape.ir.model import Document, Layer
from irshape.ops.interface import OpResult, Tensor
from irshape.ops.schema import OpSchema

Report = Callable[[Diagnostic], None]
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class DryRunOptions:
    seed: int = 0
    dim_value: int | None = None  # the size to run dynamic (-1) dims at; None skips such layers
    max_memory: int = DEFAULT_MAX_MEMORY  # bytes of working memory one layer may use


def dry_run(
    document: Document, options: DryRunOptions, report: Report, progress: Progress | None = None
) -> int:
    """Run every convolution layer of ``document``; return how many ran."""
    rng = np.random.default_rng(options.seed)
    consts = ConstReader(document)
    layers = [(layer, schema) for layer in document.layers if (schema := convolution_declaration(layer))]
    ran = 0
    try:
        for done, (layer, schema) in enumerate(layers):
            ran += _run_layer(layer, schema, document.path, consts, rng, options, report)
            if progress is not None:
                progress(done + 1, len(layers))
    finally:
        consts.close()
    return ran


class _Skip(Exception):
    """The layer cannot be run; the message is the reason, reported as an info finding."""


def _run_layer(
    layer: Layer,
    schema: OpSchema,
    path: str,
    consts: ConstReader,
    rng: np.random.Generator,
    options: DryRunOptions,
    report: Report,
) -> int:
    where = layer.location(path)
    try:
        shapes = [_static_dims(port.dims, options.dim_value) for port in layer.inputs]
        if len(shapes) < 2:
            raise _Skip("the layer has fewer than two inputs")
        dtype = _data_dtype(layer)
        output_spatial = _output_shape_value(layer, consts) if len(layer.inputs) > 2 else None
        inference = _infer(layer, schema, shapes, output_spatial, where)
    except _Skip as skip:
        report(rules.DRY_RUN_SKIPPED(where, reason=str(skip)))
        return 0
    if inference is None:
        return 0  # invalid: the check has already reported why
    groups = shapes[1][0] if schema.is_group else 1
    attrs = kernel_arguments(inference, schema, groups)
    kind = schema.function  # "convolution" or "convolution_backprop": the kernel to run
    if is_backprop(schema):
        attrs["output_spatial"] = output_spatial
    try:
        # The memory guard comes before any allocation, inputs included. The estimate validates
        # like the kernel, so a layer OpenVINO's CPU plugin cannot build is refused here already.
        needed = kernels.estimate_working_bytes(kind, shapes[0], shapes[1], dtype, **attrs)
        needed += (math.prod(shapes[0]) + math.prod(shapes[1])) * dtype.itemsize
        if needed > options.max_memory:
            report(rules.DRY_RUN_MEMORY(where, needed=byte_size(needed), limit=byte_size(options.max_memory)))
            return 0
        x, w = _inputs(layer, shapes, dtype, consts, rng)
        run = kernels.convolution if kind == "convolution" else kernels.convolution_backprop
        out = run(x, w, **attrs)
    except kernels.UnsupportedByOpenVINOError as exc:  # e.g. a negative pads_begin
        report(rules.DRY_RUN_FAILED(where, reason=str(exc)))
        return 0
    except ValueError as exc:  # the kernel disagrees with irshape's inference: say so, never crash
        report(rules.DRY_RUN_FAILED(where, reason=f"the numpy kernel refused it: {exc}"))
        return 0
    _compare(layer, out.shape, where, report)
    return 1


def _infer(
    layer: Layer,
    schema: OpSchema,
    shapes: list[tuple[int, ...]],
    output_spatial: list[int] | None,
    where: Location,
) -> OpResult | None:
    """The inference at these static input shapes, for the pads OpenVINO resolves."""
    infos = [Tensor(static_shape(s)) for s in shapes[:2]]
    if output_spatial is not None:
        infos.append(Tensor(static_shape([len(output_spatial)]), "i64", value=tuple(output_spatial)))
    inference = check_op(schema, layer, infos, where, lambda _: None)
    if inference is not None and not inference.shape.is_static:
        raise _Skip(f"OpenVINO infers the dynamic output {inference.shape} even from static inputs")
    return inference


def _static_dims(dims: tuple[int, ...] | None, dim_value: int | None) -> tuple[int, ...]:
    if not dims:
        raise _Skip("an input port has no readable dims")
    if -1 in dims:
        if dim_value is None:
            raise _Skip("an input has dynamic dims; give --dim-value N to run them at size N")
        return tuple(dim_value if d == -1 else d for d in dims)
    return dims


def _data_dtype(layer: Layer) -> np.dtype[Any]:
    dtype = numpy_dtype(layer.inputs[0].precision) or np.dtype(np.float32)
    if dtype.kind != "f":
        raise _Skip(f"the dry run runs float data only, not {dtype}")
    return dtype


def _inputs(
    layer: Layer,
    shapes: list[tuple[int, ...]],
    dtype: np.dtype[Any],
    consts: ConstReader,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    data = rng.standard_normal(shapes[0], dtype=np.float32).astype(dtype, copy=False)
    kernel = consts.value(layer, 1, shapes[1])
    if kernel is None:
        kernel = rng.standard_normal(shapes[1], dtype=np.float32)
    return data, kernel.astype(dtype, copy=False)


def _output_shape_value(layer: Layer, consts: ConstReader) -> list[int]:
    value = consts.value(layer, 2, None)
    if value is None:
        raise _Skip("the value of the output_shape input is not known (no Const in the .bin)")
    return [int(v) for v in value.reshape(-1)]


def _compare(layer: Layer, produced: tuple[int, ...], where: Location, report: Report) -> None:
    if not layer.outputs or not layer.outputs[0].dims:
        return
    port = layer.outputs[0]
    declared = port.dims
    assert declared is not None
    if len(declared) != len(produced) or any(
        d not in (-1, p) for d, p in zip(declared, produced, strict=False)
    ):
        report(
            rules.DRY_RUN_SHAPE_MISMATCH(
                where, line=port.line, port=port.id, produced=_shape(produced), declared=_shape(declared)
            )
        )


def _shape(dims: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in dims) + "]"
