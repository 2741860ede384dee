"""What the walk of a document (:mod:`irshape.check.model`) reports of its own, made only when
it has something to report: one fault, one finding (where declared dims first leave OpenVINO's,
a :class:`Divergence`, and the layers downstream that repeat them), a .bin that cannot be read,
output ports past an op's last, and the note on a finding in a layer OpenVINO never builds.

Apart from the walk for start-up: the check of a clean file never imports it.
"""

from __future__ import annotations

from irshape import rules
from irshape.check.graph import PARSE_TIME_CODES, Graph, declared_shape, fits, id_key, layer_label, port_text
from irshape.check.layer import check_op, compare_declared
from irshape.diagnostics import Diagnostic, Location, Severity
from irshape.dims import PartialShape
from irshape.ir.model import Document, Layer, Port
from irshape.ir.weights import Weights
from irshape.ops.interface import OpResult, Tensor
from irshape.ops.schema import OpSchema
from irshape.record import Record

_INHERITORS_SHOWN = 8
_MISMATCH_CODES = frozenset({rules.DECLARED_DIM_MISMATCH.code, rules.DECLARED_RANK_MISMATCH.code})
_UNBUILT_NOTE = " (but no Result reaches this layer, so OpenVINO never builds it and reports nothing)"
_REPLACED_NOTE = (
    " (but a later layer has this layer's id, so OpenVINO never builds this one and reports nothing)"
)


# --- one fault, one finding -----------------------------------------------------------------


class Divergence(Record):
    """A finding where declared dims first differ from OpenVINO's, and who repeats them."""

    __slots__ = ("findings", "inheritors", "owner")
    findings: list[Diagnostic]
    owner: str  # the label of the layer the finding is about
    inheritors: dict[str, Layer]  # by label, each once: the first layer with it

    def __init__(self, findings: list[Diagnostic], owner: str) -> None:
        self.findings = findings
        self.owner = owner
        self.inheritors = {}

    def inherit(self, layer: Layer) -> None:
        label = layer_label(layer)
        if label != self.owner:
            self.inheritors.setdefault(label, layer)

    def diagnostics(self, position: dict[int, int]) -> list[Diagnostic]:
        """The findings, naming the inheritors in file order (``position``: by id(layer)),
        whatever order the walk met them in."""
        if not self.inheritors:
            return self.findings
        named = sorted(self.inheritors.items(), key=lambda item: position[id(item[1])])
        related = tuple(label for label, _ in named)
        shown = ", ".join(related[:_INHERITORS_SHOWN])
        if len(related) > _INHERITORS_SHOWN:
            shown += f" and {len(related) - _INHERITORS_SHOWN} more"
        note = f"; {len(related)} layer(s) downstream repeat these declared dims: {shown}"
        first, *rest = self.findings
        return [first.replace(message=first.message + note, related=related)] + [
            d.replace(related=related) for d in rest
        ]


def edge_origin(
    layer: Layer,
    port: Port,
    producer: Layer,
    out_port: Port,
    truth: PartialShape,
    guess: str | None,
    where: Location,
) -> Divergence:
    """IRS411 where an input port declares other dims than its edge's output port, the origin
    of what the layer inherits; ``guess`` says why ``truth`` is not what OpenVINO feeds the
    port (None: it is)."""
    if guess is None:
        consequence = f"OpenVINO ignores declared input dims and feeds the layer {truth}"
    else:
        consequence = f"at least one of the two is wrong, and irshape cannot tell which: {guess}"
    finding = rules.EDGE_DIMS_MISMATCH(
        where.at_line(port.line),
        port=port.id,
        declared=port_text(port),
        produced=port_text(out_port),
        producer=layer_label(producer),
        from_port=out_port.id,
        consequence=consequence,
    )
    return Divergence([finding], layer_label(layer))


def diverges(ports: list[Port], index: int, info: Tensor) -> bool:
    """Does the output port ``index`` declare other dims than the tensor OpenVINO computes?"""
    return index < len(ports) and not fits(ports[index], info.shape)


def drop_inherited(
    schema: OpSchema, layer: Layer, inputs: list[Tensor], where: Location, local: list[Diagnostic]
) -> None:
    """Drop declared-output mismatches the layer's wrong declared inputs explain.

    The layer is inferred a second time from its declared input dims, as whatever wrote
    the file computed it: a mismatch that this inference does not show is inherited.
    """
    mismatches = [d for d in local if d.code in _MISMATCH_CODES]
    if not mismatches:
        return
    as_declared = [_as_declared(port, info) for port, info in zip(layer.inputs, inputs, strict=False)]
    again: list[Diagnostic] = []
    inference: OpResult | None = check_op(schema, layer, as_declared, where, lambda d: None)
    if inference is not None:
        compare_declared(layer, inference, where, again.append)
    own = {(d.code, d.port, d.axis) for d in again}
    for d in mismatches:
        if inference is None or (d.code, d.port, d.axis) not in own:
            local.remove(d)


def _as_declared(port: Port, info: Tensor) -> Tensor:
    """The input as the file declares it: the port's dims, with OpenVINO's type and value."""
    shape = declared_shape(port)
    if shape is None:
        return info
    return info.replace(shape=shape)


# --- the walk's other findings --------------------------------------------------------------


def weights_unreadable(weights: Weights, reason: str, document: Document) -> Diagnostic:
    """IRS009 once for the file: Consts whose .bin is missing or empty are not checked."""
    empty = weights.size == 0
    consequence = "; Const sizes and values are not checked"
    if empty:
        consequence = "; OpenVINO fails to load it ('Incorrect weights in bin file!')"
    elif weights.lfs_pointer:  # by experiment: OpenVINO reads the pointer as the .bin
        consequence += (
            " (OpenVINO reads the pointer's text as the weights: Consts get its bytes, and the "
            "first Const past its end fails with 'Incorrect weights in bin file!')"
        )
    elif weights.path is not None:
        consequence += (
            " (OpenVINO fails without it: 'Empty weights data in bin file or bin file cannot be found!')"
        )
    where = Location(document.path, document.line)
    severity = Severity.ERROR if empty else None
    return rules.WEIGHTS_UNREADABLE(where, reason=reason + consequence, severity=severity)


def extra_output_ports(
    document: Document, schema: OpSchema, layer: Layer, count: int, where: Location
) -> Diagnostic:
    """IRS307: output ports past the op's last output. IR v11 fails on any ('node index is
    out of range'); IR v10 only on one an edge leaves (docs/openvino-ir-reading.md §11)."""
    used = any(
        port.source is not None and port.source[0] is layer and port.source[1].index >= count
        for consumer in document.layers
        for port in consumer.inputs
    )
    severity = rules.WARNING
    consequence = "; OpenVINO (IR v10) ignores the extra ports"
    if document.version != 10 or used:
        severity = rules.ERROR
        consequence = "; OpenVINO rejects the file ('node index is out of range')"
    return rules.OUTPUT_PORT_EXTRA(
        where.at_line(layer.outputs[count].line),
        declared=len(layer.outputs),
        op=schema.name,
        count=count,
        consequence=consequence,
        severity=severity,
    )


def note_unbuilt(graph: Graph, d: Diagnostic) -> Diagnostic:
    """Say so on a build-time finding in a layer OpenVINO never builds."""
    if not graph.is_net or d.layer_id is None or d.code in PARSE_TIME_CODES:
        return d
    if d.code in (rules.UNREACHABLE_LAYER.code, rules.GRAPH_CYCLE.code):
        return d
    layer = graph.layer_at(id_key(d.layer_id), d.line)
    if layer is None or graph.is_built(layer) or d.code == rules.INTERNAL_ERROR.code:
        return d
    # OpenVINO never builds the layer, so the file does not fail for it: a warning that
    # says what OpenVINO would do were the layer connected.
    severity = Severity.WARNING if d.severity is Severity.ERROR else d.severity
    note = _REPLACED_NOTE if graph.layers.get(id_key(d.layer_id)) is not layer else _UNBUILT_NOTE
    return d.replace(message=d.message + note, severity=severity)
