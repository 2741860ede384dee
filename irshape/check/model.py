"""Check a whole document: walk the graph in order, feeding each op the shapes OpenVINO would.

In a ``<net>``, an op's inputs come from their producers, as OpenVINO takes them: a
Parameter's ``shape`` attribute (with its intervals), a Const's ``shape`` and value, the
inferred output of a known op, or the input of a shape-preserving unary op. Declared input
port dims are the fallback for producers irshape does not know, and for fragments.
"""

from __future__ import annotations

import traceback
from collections import defaultdict, deque
from collections.abc import Callable

from irshape import rules
from irshape.check.layer import TensorInfo, check_conv_layer, compare_declared
from irshape.diagnostics import Diagnostic, Location
from irshape.dims import DYNAMIC, DimSyntaxError, PartialShape, parse_partial_shape, static_shape
from irshape.ir import element_types
from irshape.ir.model import Document, DocumentKind, Layer, Port
from irshape.ir.values import ListSyntaxError, parse_int_list
from irshape.ir.weights import Weights, WeightsError
from irshape.results import LayerResult
from irshape.schema import find_schema

Report = Callable[[Diagnostic], None]

# Unary element-wise ops: the output shape is the input shape (Convert also changes the type).
SHAPE_PRESERVING = frozenset(
    {
        "relu",
        "sigmoid",
        "tanh",
        "clamp",
        "convert",
        "elu",
        "exp",
        "abs",
        "negative",
        "sqrt",
        "erf",
        "gelu",
        "swish",
        "hswish",
        "hsigmoid",
        "mish",
        "softplus",
        "softsign",
        "floor",
        "ceiling",
        "log",
        "sin",
        "cos",
        "sign",
        "round",
        "selu",
        "prelu",
        "logicalnot",
        "fakequantize",
        "softmax",
        "logsoftmax",
        "mvn",
        "lrn",
        "normalizel2",
        "grn",
    }
)
_CONST_VALUE_LIMIT = 64  # read Const values only for small integer tensors (output_shape)


def check_document(document: Document, report: Report, *, debug: bool = False) -> list[LayerResult]:
    """Check every layer of ``document``; return what was read and inferred per layer."""
    walker = _Walker(document, report, debug)
    try:
        return walker.run()
    finally:
        walker.weights.close()


class _Walker:
    def __init__(self, document: Document, report: Report, debug: bool) -> None:
        self.document = document
        self.report = report
        self.debug = debug
        self.weights = Weights(document.weights_path)
        self.by_id: dict[str, Layer] = {}
        for layer in document.layers:
            if layer.id is not None:
                self.by_id.setdefault(layer.id, layer)
        # (consumer id, input port id) -> (producer id, output port id)
        self.incoming: dict[tuple[str, str], tuple[str, str]] = {}
        for edge in document.edges:
            self.incoming.setdefault((edge.to_layer, edge.to_port), (edge.from_layer, edge.from_port))
        self.outputs: dict[str, list[TensorInfo]] = {}

    def run(self) -> list[LayerResult]:
        results = {id(layer): self._result(layer) for layer in self.document.layers}
        for layer in self._graph_order():
            result = results[id(layer)]
            try:
                self._visit(layer, result)
            except Exception as exc:  # one bad layer never stops the others
                summary = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
                if self.debug:
                    summary += "\n" + traceback.format_exc()
                self.report(rules.INTERNAL_ERROR(self._where(layer), summary=summary))
        return [results[id(layer)] for layer in self.document.layers]

    @staticmethod
    def _result(layer: Layer) -> LayerResult:
        return LayerResult(layer.id, layer.name, layer.type, layer.version, layer.line)

    def _where(self, layer: Layer) -> Location:
        return layer.location(self.document.path)

    def _graph_order(self) -> list[Layer]:
        """Producers before consumers (Kahn's algorithm); layers on cycles last, in file order."""
        layers = self.document.layers
        if self.document.kind is DocumentKind.FRAGMENT or not self.document.edges:
            return list(layers)
        consumers: dict[str, list[str]] = defaultdict(list)
        pending: dict[str, int] = {lid: 0 for lid in self.by_id}
        for (to_layer, _), (from_layer, _) in self.incoming.items():
            if to_layer in pending and from_layer in pending:
                consumers[from_layer].append(to_layer)
                pending[to_layer] += 1
        ready = deque(
            layer.id
            for layer in layers
            if layer.id is not None and pending.get(layer.id) == 0 and self.by_id[layer.id] is layer
        )
        ordered: list[Layer] = []
        while ready:
            lid = ready.popleft()
            ordered.append(self.by_id[lid])
            for consumer in consumers[lid]:
                pending[consumer] -= 1
                if pending[consumer] == 0:
                    ready.append(consumer)
        seen = {id(layer) for layer in ordered}
        return ordered + [layer for layer in layers if id(layer) not in seen]

    # -- one layer ------------------------------------------------------------------------

    def _visit(self, layer: Layer, result: LayerResult) -> None:
        kind = (layer.type or "").lower()
        where = self._where(layer)
        if kind == "parameter":
            infos = [self._parameter(layer, where)]
        elif kind == "const":
            infos = [self._const(layer, where)]
        elif (schema := find_schema(layer.type)) is not None:
            result.checked = True
            inputs = [self._input(layer, port) for port in layer.inputs]
            inference = check_conv_layer(schema, layer, inputs, where, self.report)
            if inference is None:
                infos = [TensorInfo(PartialShape(None))]
            else:
                result.outputs = [inference.shape]
                compare_declared(layer, inference, where, self.report)
                element_type = (
                    element_types.merge(*(i.element_type for i in inputs[:2])) if len(inputs) >= 2 else None
                )
                infos = [TensorInfo(inference.shape, element_type)]
        elif kind in SHAPE_PRESERVING and layer.inputs:
            source = self._input(layer, layer.inputs[0])
            element_type = source.element_type
            if kind == "convert":
                element_type = element_types.from_element_type(layer.data.get("destination_type"))
            infos = [TensorInfo(source.shape, element_type)]
        else:
            infos = [_declared(port) for port in layer.outputs]
        if layer.id is not None:
            self.outputs[layer.id] = infos

    def _input(self, layer: Layer, port: Port) -> TensorInfo:
        """What flows into ``port``: the producer's output, or the port's own declared dims."""
        source = self.incoming.get((layer.id or "", port.id))
        if source is not None and self.document.kind is DocumentKind.NET:
            producer = self.by_id.get(source[0])
            infos = self.outputs.get(source[0])
            if producer is not None and infos is not None:
                out_port = producer.output_by_id(source[1])
                index = out_port.index if out_port is not None else 0
                if index < len(infos):
                    return infos[index]
        info = _declared(port)
        if self.document.kind is DocumentKind.FRAGMENT:
            info.value_unknown = "a fragment has no graph to take the value from"
        elif source is None:
            info.value_unknown = "the input is not connected"
        else:
            info.value_unknown = f"it is computed by layer {source[0]}, not read from a Const"
        return info

    def _parameter(self, layer: Layer, where: Location) -> TensorInfo:
        element_type = element_types.from_element_type(layer.data.get("element_type", "dynamic"))
        text = layer.data.get("shape")
        if text is None:
            return TensorInfo(PartialShape([]), element_type)
        try:
            shape = parse_partial_shape(text)
        except DimSyntaxError as exc:
            self.report(
                rules.SHAPE_SYNTAX(
                    where.at_line(layer.data_line),
                    layer_type="Parameter",
                    attribute="shape",
                    text=text,
                    reason=str(exc),
                )
            )
            return _declared(layer.outputs[0]) if layer.outputs else TensorInfo(PartialShape(None))
        return TensorInfo(shape, element_type)

    def _const(self, layer: Layer, where: Location) -> TensorInfo:
        element_type = element_types.from_element_type(layer.data.get("element_type"))
        try:
            values = parse_int_list(layer.data.get("shape", "")).values
        except ListSyntaxError as exc:
            self.report(
                rules.SHAPE_SYNTAX(
                    where.at_line(layer.data_line),
                    layer_type="Const",
                    attribute="shape",
                    text=layer.data.get("shape", ""),
                    reason=str(exc),
                )
            )
            return _declared(layer.outputs[0]) if layer.outputs else TensorInfo(PartialShape(None))
        info = TensorInfo(static_shape(values), element_type)
        count = 1
        for v in values:
            count *= max(v, 0)
        if element_type is not None and len(values) == 1 and count <= _CONST_VALUE_LIMIT:
            try:
                offset = int(layer.data.get("offset", ""))
                size = int(layer.data.get("size", ""))
                info.value = self.weights.read_integers(element_type, count, offset, size)
            except ValueError as exc:  # WeightsError, or offset/size not integers
                info.value_unknown = str(exc) if isinstance(exc, WeightsError) else "bad offset/size"
        return info


def _declared(port: Port) -> TensorInfo:
    """A tensor as its port declares it: -1 dims are dynamic; the precision names the type."""
    # A port without <dim>s is how the serializer writes a dynamic rank.
    if not port.dims:
        return TensorInfo(PartialShape(None), element_types.from_precision(port.precision))
    shape = PartialShape(DYNAMIC if d == -1 else d for d in port.dims)
    return TensorInfo(shape, element_types.from_precision(port.precision))
