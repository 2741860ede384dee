"""``irshape run``: execute a chain of Parameters, Consts, the four ops and Results with numpy
(and Converts, which OpenVINO puts behind the f16 weights it saves).

:func:`prepare_inputs` checks the given arrays against the Parameters (and fills the others with
seeded random data when asked); :func:`run_document` executes the layers in graph order. Every
problem is a :class:`RunError` whose message is one line naming the layer or input.
"""

from __future__ import annotations

from collections.abc import Mapping
from graphlib import CycleError, TopologicalSorter
from typing import Any

import numpy as np

from irshape.check.layer import check_op
from irshape.diagnostics import Diagnostic
from irshape.dims import DimSyntaxError, PartialShape, parse_partial_shape, static_shape
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
from irshape.ops.interface import Tensor


class RunError(ValueError):
    """The document cannot be executed; the message says which layer and why."""


# Convert too: OpenVINO's save_model stores weights as f16 Consts, each behind a Convert to f32.
_EXECUTABLE = ("parameter", "const", "convert", "result")


def parameters(document: Document) -> list[Layer]:
    """The Parameter layers, in document order."""
    return [layer for layer in document.layers if (layer.type or "").lower() == "parameter"]


def parameter_shape(layer: Layer) -> PartialShape:
    """The shape a Parameter takes: its ``shape`` attribute (with intervals), else its port dims."""
    text = layer.data.get("shape")
    if text is not None:
        try:
            return parse_partial_shape(text)
        except DimSyntaxError:
            pass
    dims = layer.outputs[0].dims if layer.outputs else None
    return PartialShape(None if dims is None else list(dims))


def prepare_inputs(
    document: Document,
    given: Mapping[str, np.ndarray],
    *,
    rng: np.random.Generator | None = None,
    dim_value: int | None = None,
) -> dict[str, np.ndarray]:
    """The inputs of ``document`` by Parameter name, checked against each Parameter's shape.

    An array whose dtype differs from the Parameter's element type is converted when numpy
    converts it within its kind (int to float, f64 to f32), and refused otherwise. A Parameter
    missing from ``given`` gets random data from ``rng`` at its shape, its dynamic dims at
    ``dim_value``; without ``rng`` a missing input is an error.
    """
    layers = parameters(document)
    names = [layer.name or "" for layer in layers]
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise RunError(
            f"no Parameter named {', '.join(repr(n) for n in unknown)} "
            f"(the Parameters: {', '.join(repr(n) for n in names) or 'none'})"
        )
    prepared: dict[str, np.ndarray] = {}
    for layer, name in zip(layers, names, strict=True):
        shape = parameter_shape(layer)
        dtype = numpy_dtype(layer.data.get("element_type")) or numpy_dtype(
            layer.outputs[0].precision if layer.outputs else None
        )
        if name in given:
            prepared[name] = _checked_input(name, np.asarray(given[name]), shape, dtype)
        elif rng is None:
            raise RunError(f"no input given for Parameter '{name}' {shape} (use --input {name}=x.npy)")
        else:
            prepared[name] = _random_input(name, shape, dtype, rng, dim_value)
    return prepared


def _checked_input(
    name: str, value: np.ndarray, shape: PartialShape, dtype: np.dtype[Any] | None
) -> np.ndarray:
    if shape.dims is not None and (
        value.ndim != len(shape.dims)
        or any(not d.lo <= n <= d.hi for d, n in zip(shape.dims, value.shape, strict=True))
    ):
        given = "[" + ",".join(str(n) for n in value.shape) + "]"
        raise RunError(f"input '{name}' has shape {given}, but Parameter '{name}' takes {shape}")
    if dtype is None or value.dtype == dtype:
        return value
    if not np.can_cast(value.dtype, dtype, casting="same_kind"):
        raise RunError(f"input '{name}' is {value.dtype}, but Parameter '{name}' takes {dtype}")
    return value.astype(dtype)


def _random_input(
    name: str,
    shape: PartialShape,
    dtype: np.dtype[Any] | None,
    rng: np.random.Generator,
    dim_value: int | None,
) -> np.ndarray:
    if shape.dims is None:
        raise RunError(f"Parameter '{name}' has a dynamic rank; give it an --input")
    dims = []
    for d in shape.dims:
        if d.is_static:
            dims.append(d.lo)
        elif dim_value is None:
            raise RunError(
                f"Parameter '{name}' has the dynamic shape {shape}; "
                f"give --dim-value N or --input {name}=x.npy"
            )
        elif not d.lo <= dim_value <= d.hi:
            raise RunError(f"--dim-value {dim_value} is outside the dim {d} of Parameter '{name}' {shape}")
        else:
            dims.append(dim_value)
    dtype = dtype or np.dtype(np.float32)
    if dtype.kind == "f":
        return rng.standard_normal(dims).astype(dtype)
    if dtype.kind in "iu":
        return rng.integers(0, 10, size=dims).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=dims).astype(dtype)
    raise RunError(f"Parameter '{name}' is {dtype}: no random data for it; give it an --input")


def run_document(
    document: Document, inputs: Mapping[str, np.ndarray], *, max_memory: int = DEFAULT_MAX_MEMORY
) -> dict[str, np.ndarray]:
    """Execute ``document`` on ``inputs`` (by Parameter name); return the Results by name.

    Every layer is checked to be executable before anything runs, and each convolution's
    working memory against ``max_memory`` before it is allocated.
    """
    order = _graph_order(document)
    for layer in order:
        if (layer.type or "").lower() not in _EXECUTABLE and convolution_declaration(layer) is None:
            raise RunError(f"layer {layer.id} '{layer.name}': irshape cannot execute {layer.type} layers")
    consts = ConstReader(document)
    values: dict[str, np.ndarray] = {}  # layer id -> its (single) output
    results: dict[str, np.ndarray] = {}
    for layer in order:
        kind = (layer.type or "").lower()
        args = [values[_source(consts, layer, i)] for i in range(len(layer.inputs))]
        if kind == "parameter":
            if layer.name not in inputs:
                raise RunError(
                    f"no input given for Parameter '{layer.name}' (use --input {layer.name}=x.npy)"
                )
            values[layer.id or ""] = np.asarray(inputs[layer.name or ""])  # a None name raised above
        elif kind == "const":
            value = consts.read(layer)
            if value is None:
                raise RunError(f"Const layer {layer.id} '{layer.name}' cannot be read from the .bin")
            values[layer.id or ""] = value
        elif kind == "result":
            results[layer.name or layer.id or ""] = args[0]
        elif kind == "convert":
            dtype = numpy_dtype(layer.data.get("destination_type"))
            if dtype is None:
                raise RunError(
                    f"layer {layer.id} '{layer.name}': Convert to "
                    f"{layer.data.get('destination_type')!r} is not supported"
                )
            values[layer.id or ""] = args[0].astype(dtype)
        elif convolution_declaration(layer) is not None:
            values[layer.id or ""] = _run_conv(document, layer, args, max_memory)
        else:
            raise RunError(f"layer {layer.id} '{layer.name}': irshape cannot execute {layer.type} layers")
    return results


def _source(consts: ConstReader, layer: Layer, index: int) -> str:
    producer = consts.producer(layer, index)
    if producer is None or producer.id is None:
        raise RunError(f"layer {layer.id} '{layer.name}': input {index} is not connected")
    return producer.id


def _graph_order(document: Document) -> list[Layer]:
    by_id = {layer.id: layer for layer in document.layers if layer.id is not None}
    graph: dict[str, set[str]] = {lid: set() for lid in by_id}
    for edge in document.edges:
        if edge.to_layer in graph and edge.from_layer in by_id:
            graph[edge.to_layer].add(edge.from_layer)
    try:
        return [by_id[lid] for lid in TopologicalSorter(graph).static_order()]
    except CycleError as exc:
        raise RunError(f"the graph has a cycle through layers {exc.args[1]}") from exc


def _run_conv(document: Document, layer: Layer, args: list[np.ndarray], max_memory: int) -> np.ndarray:
    schema = convolution_declaration(layer)
    assert schema is not None
    infos = [Tensor(static_shape(a.shape)) for a in args[:2]]
    output_spatial = None
    if len(args) > 2:
        output_spatial = [int(v) for v in args[2].reshape(-1)]
        infos.append(Tensor(static_shape([len(output_spatial)]), "i64", value=tuple(output_spatial)))
    problems: list[Diagnostic] = []
    inference = check_op(schema, layer, infos, layer.location(document.path), problems.append)
    errors = [d.message for d in problems if d.severity == "error"]
    if inference is None or errors:
        raise RunError(
            f"layer {layer.id} '{layer.name}' is invalid: {'; '.join(errors) or 'see irshape check'}"
        )
    arguments = kernel_arguments(inference, schema, args[1].shape[0] if schema.is_group else 1)
    kind = schema.function  # "convolution" or "convolution_backprop": the kernel to run
    if is_backprop(schema):
        arguments["output_spatial"] = output_spatial
    x, w = args[0], args[1].astype(args[0].dtype)
    needed = kernels.estimate_working_bytes(kind, x.shape, w.shape, x.dtype, **arguments)
    if needed > max_memory:
        raise RunError(
            f"layer {layer.id} '{layer.name}' needs {byte_size(needed)} of working memory, "
            f"over the limit of {byte_size(max_memory)} (--max-memory)"
        )
    run = kernels.convolution if kind == "convolution" else kernels.convolution_backprop
    return run(x, w, **arguments)
