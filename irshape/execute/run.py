"""``irshape run``: execute a chain of Parameters, Consts, the four ops and Results with numpy."""

from __future__ import annotations

from collections.abc import Mapping
from graphlib import CycleError, TopologicalSorter
from typing import Any

import numpy as np

from irshape.check.layer import TensorInfo, check_conv_layer
from irshape.diagnostics import Diagnostic
from irshape.dims import static_shape
from irshape.execute import kernels
from irshape.execute.tensors import ConstReader
from irshape.ir.model import Document, Layer
from irshape.schema import find_schema


class RunError(ValueError):
    """The document cannot be executed; the message says which layer and why."""


def run_document(document: Document, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Execute ``document`` on ``inputs`` (by Parameter name); return the Results by name."""
    consts = ConstReader(document)
    values: dict[str, np.ndarray] = {}  # layer id -> its (single) output
    results: dict[str, np.ndarray] = {}
    for layer in _graph_order(document):
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
        elif find_schema(layer.type) is not None:
            values[layer.id or ""] = _run_conv(document, layer, args)
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


def _run_conv(document: Document, layer: Layer, args: list[np.ndarray]) -> np.ndarray:
    schema = find_schema(layer.type)
    assert schema is not None
    infos = [TensorInfo(static_shape(a.shape)) for a in args[:2]]
    output_spatial = None
    if len(args) > 2:
        output_spatial = [int(v) for v in args[2].reshape(-1)]
        infos.append(TensorInfo(static_shape([len(output_spatial)]), "i64", value=tuple(output_spatial)))
    problems: list[Diagnostic] = []
    inference = check_conv_layer(schema, layer, infos, layer.location(document.path), problems.append)
    errors = [d.message for d in problems if d.severity == "error"]
    if inference is None or inference.attributes is None or errors:
        raise RunError(
            f"layer {layer.id} '{layer.name}' is invalid: {'; '.join(errors) or 'see irshape check'}"
        )
    attrs = inference.attributes
    groups = args[1].shape[0] if schema.is_group else 1
    common: dict[str, Any] = {
        "strides": attrs.strides,
        "dilations": attrs.dilations,
        "groups": groups,
        "pads_begin": inference.pads_begin,
        "pads_end": inference.pads_end,
    }
    x, w = args[0], args[1].astype(args[0].dtype)
    if schema.family == "forward":
        return kernels.convolution(x, w, **common)
    return kernels.convolution_backprop(
        x, w, output_padding=attrs.output_padding, output_spatial=output_spatial, **common
    )
