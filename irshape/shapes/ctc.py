"""The CTC ops: CTCGreedyDecoder-1, CTCGreedyDecoderSeqLen-6 and CTCLoss-4, as OpenVINO validates
and infers them (``ctc_*_shape_inference.hpp``, ``ctc_*.cpp``).

* CTCGreedyDecoder-1: logits ``[T, N, C]``, sequence mask ``[T, N]``: ``[N, T, 1, 1]`` in the
  logits' element type.
* CTCGreedyDecoderSeqLen-6: logits ``[N, T, C]``, sequence lengths ``[N]``, blank index a scalar
  or of one element: ``[N, T]`` in ``classes_index_type`` and ``[N]`` in
  ``sequence_length_type``.
* CTCLoss-4: logits ``[N, T, C]`` (a real type), logit length ``[N]``, labels ``[N, T]``, label
  length ``[N]`` and blank index (integer types): ``[N]`` in the logits' type.
"""

from __future__ import annotations

from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ir import element_types
from irshape.ops.interface import Finding, OpCall, OpResult, Output
from irshape.shapes.elementwise import REAL
from irshape.shapes.findings import incompatible, rank_finding, type_finding


def _rank(call: OpCall, port: int, rank: int, message: str) -> list[Finding]:
    shape = call.inputs[port].shape
    if shape.rank is None or shape.rank == rank:
        return []
    return [rank_finding(port, call.schema.inputs[port].name, shape, str(rank), message)]


class _Merge:
    """``Dimension::merge`` of one dim across inputs; the first failure's message is kept."""

    def __init__(self, start: Dim) -> None:
        self.dim, self.findings = start, list[Finding]()

    def add(self, dim: Dim, message: str, port: int) -> None:
        merged = self.dim & dim
        if self.findings:
            return
        if merged.is_empty:
            self.findings.append(
                incompatible(f"input {port}'s {dim} does not match {self.dim}", message, port)
            )
        else:
            self.dim = merged


def _dims(call: OpCall, port: int) -> tuple[Dim, ...] | None:
    return call.inputs[port].shape.dims


def ctc_greedy_decoder(call: OpCall) -> OpResult:
    """CTCGreedyDecoder-1."""
    logits, mask = _dims(call, 0), _dims(call, 1)
    findings: list[Finding] = []
    if logits is None and mask is None:
        return OpResult([Output(PartialShape([DYNAMIC, DYNAMIC, 1, 1]), call.inputs[0].element_type)])
    findings = _rank(call, 0, 3, "The rank of logits tensor must be equal to 3.")
    findings += findings or _rank(call, 1, 2, "The rank of sequence mask tensor must be equal to 2.")
    if findings:
        return OpResult([], findings)
    time = _Merge(logits[0] if logits is not None else DYNAMIC)
    batch = _Merge(logits[1] if logits is not None else DYNAMIC)
    if mask is not None:
        time.add(mask[0], "The first dimensions of input tensors must match.", 1)
        batch.add(mask[1], "The second dimensions of input tensors must match.", 1)
    findings = time.findings + batch.findings
    if findings:
        return OpResult([], findings[:1])
    shape = PartialShape([batch.dim, time.dim, 1, 1])
    return OpResult([Output(shape, call.inputs[0].element_type)])


def ctc_greedy_decoder_seq_len(call: OpCall) -> OpResult:
    """CTCGreedyDecoderSeqLen-6."""
    findings: list[Finding] = []
    if len(call.inputs) > 2:
        blank = call.inputs[2]
        if blank.element_type is not None and blank.element_type not in element_types.INTEGRAL:
            message = f"The blank index type is expected to be an integer type. Got: {blank.element_type}"
            findings.append(type_finding(f"blank_index is of element type {blank.element_type}", message, 2))
        elif blank.shape.lengths is not None and blank.shape.lengths not in ((), (1,)):
            message = f"Expected 0D or 1D tensor for the 'blank_index' input. Got: {blank.shape}"
            findings.append(rank_finding(2, "blank_index", blank.shape, "0, or 1 of one element", message))
    logits, lengths = _dims(call, 0), _dims(call, 1)
    findings += findings or _rank(call, 0, 3, "The rank of logits tensor must be equal to 3.")
    findings += findings or _rank(call, 1, 1, "The rank of sequence len tensor must be equal to 1.")
    if findings:
        return OpResult([], findings)
    batch = _Merge(logits[0] if logits is not None else DYNAMIC)
    time = logits[1] if logits is not None else DYNAMIC
    if lengths is not None:
        batch.add(lengths[0], "The first dimensions of input tensors must match.", 1)
    if batch.findings:
        return OpResult([], batch.findings)
    decoded = Output(PartialShape([batch.dim, time]), str(call.attribute("classes_index_type")))
    lengths_out = Output(PartialShape([batch.dim]), str(call.attribute("sequence_length_type")))
    return OpResult([decoded, lengths_out])


_LOSS_NAMES = ("logits", "logit length", "labels", "label length", "blank index")


def _loss_types(call: OpCall) -> list[Finding]:
    logits_type = call.inputs[0].element_type
    if logits_type is not None and logits_type not in REAL:
        message = f"The data type for logits is expected to be a floating point type. Got: {logits_type}"
        return [type_finding(f"logits are of element type {logits_type}, not a real one", message, 0)]
    for port in range(1, len(call.inputs)):
        element_type = call.inputs[port].element_type
        if element_type is not None and element_type not in element_types.INTEGRAL:
            name = _LOSS_NAMES[port]
            message = f"The {name} type is expected to be an integer type. Got: {element_type}"
            return [
                type_finding(f"{name} is of element type {element_type}, not an integer one", message, port)
            ]
    return []


def ctc_loss(call: OpCall) -> OpResult:
    """CTCLoss-4."""
    findings = _loss_types(call)
    for port, rank in enumerate((3, 1, 2, 1)):
        name = _LOSS_NAMES[port]
        findings += findings or _rank(
            call, port, rank, f"Expected a {rank}D tensor for {name}. Got: {call.inputs[port].shape}"
        )
    if len(call.inputs) > 4:
        findings += findings or _rank(
            call, 4, 0, f"Expected a scalar for blank index. Got: {call.inputs[4].shape}"
        )
    if findings:
        return OpResult([], findings)
    logits, logit_length, labels, label_length = (_dims(call, port) for port in range(4))
    batch = _Merge(logits[0] if logits is not None else DYNAMIC)
    time = logits[1] if logits is not None else DYNAMIC
    if logit_length is not None:
        message = "The first dimension of logit length must be equal to the first dimension of the logits."
        batch.add(logit_length[0], message, 1)
    if labels is not None:
        message = (
            "The first dimension of labels must be equal to the first dimension "
            "of the logits and the logit length."
        )
        batch.add(labels[0], message, 2)
        if not batch.findings and not labels[1].compatible(time):
            message = "The second dimension of labels must be equal to the second dimension of logits."
            batch.findings.append(
                incompatible(f"labels' {labels[1]} steps against the logits' {time}", message, 2)
            )
    if label_length is not None:
        message = (
            "The first dimension of label length must be equal to the first dimension "
            "of the logits, the logit length and labels."
        )
        batch.add(label_length[0], message, 3)
    if batch.findings:
        return OpResult([], batch.findings)
    return OpResult([Output(PartialShape([batch.dim]), call.inputs[0].element_type)])
