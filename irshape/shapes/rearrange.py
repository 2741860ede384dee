"""Ops that move a tensor's elements about, as OpenVINO validates and infers them:
ReverseSequence-1 (``reverse_sequence_shape_inference.hpp``: the data's shape, its batch dim
merged with the length of the 1D sequence lengths)."""

from __future__ import annotations

from irshape import rules
from irshape.dims import PartialShape
from irshape.ops.interface import AT_DATA, Finding, OpCall, OpResult, Output
from irshape.shapes.axes import axis_range_message, normalize_axis
from irshape.shapes.broadcast import merge_dim
from irshape.shapes.findings import incompatible, known, rank_finding, type_finding


def reverse_sequence(call: OpCall) -> OpResult:
    """ReverseSequence-1: data of rank >= 2, sequence lengths a numeric 1D tensor as long as the
    data's batch axis; the data's shape (its batch dim the merge of the two), of its type."""
    data, lengths = call.inputs
    findings: list[Finding] = []
    rank = data.shape.rank
    if rank is not None and rank < 2:
        message = f"Data input rank should be equal or greater than 2. Got: {data.shape}"
        return OpResult([], [rank_finding(0, "data", data.shape, "2 or more", message)])
    axes = [_axis(call, name, rank, findings) for name in ("batch_axis", "seq_axis")]
    if lengths.shape.rank not in (None, 1):
        message = f"Sequence lengths rank must be equal to 1. Got: {lengths.shape}"
        findings.append(rank_finding(1, "seq_lengths", lengths.shape, "1", message))
    if known(lengths.element_type) and lengths.element_type in ("boolean", "string"):
        message = f"Sequence lengths element type must be numeric type. Got: {lengths.element_type}"
        problem = f"the sequence lengths are of element type {lengths.element_type}, not a numeric one"
        findings.append(type_finding(problem, message, 1))
    if findings:
        return OpResult([], findings)
    batch = axes[0]
    if data.shape.dims is None or lengths.shape.dims is None or batch is None:
        return OpResult([Output(data.shape, data.element_type)])
    merged = merge_dim(data.shape.dims[batch], lengths.shape.dims[0])
    if merged is None:
        message = (
            f"Sequence lengths input size ({lengths.shape.dims[0]}) is not equal to batch axis dimension "
            f"of data input ({data.shape.dims[batch]})"
        )
        problem = f"the sequence lengths {lengths.shape} do not match the data's batch axis {data.shape}"
        return OpResult([], [incompatible(problem, message)])
    dims = list(data.shape.dims)
    dims[batch] = merged
    return OpResult([Output(PartialShape(dims), data.element_type)])


def _axis(call: OpCall, name: str, rank: int | None, findings: list[Finding]) -> int | None:
    """An axis attribute normalized against the data's rank (``ov::normalize_axis``); IRS112
    when it is out of range."""
    axis = int(call.attribute(name))
    if rank is None:
        return None
    normal = normalize_axis(axis, rank)
    if normal is None:
        findings.append(
            _attribute_error(
                call, name, axis, f"is out of range for rank {rank}", axis_range_message(axis, rank)
            )
        )
    return normal


def _attribute_error(call: OpCall, name: str, value: object, problem: str, ov_message: str) -> Finding:
    """IRS112 on the layer's ``<data>``."""
    text = call.attributes.texts.get(name, f"(missing: OpenVINO reads {value})")
    args = {"attribute": name, "value": text, "op": call.schema.name, "problem": problem}
    return Finding(rules.ATTRIBUTE_VALUE, {**args, "ov_message": ov_message}, AT_DATA)
