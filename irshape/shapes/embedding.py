"""The embedding ops: EmbeddingBagOffsetsSum-3, EmbeddingBagOffsets-15, EmbeddingBagPackedSum-3,
EmbeddingBagPacked-15 and EmbeddingSegmentsSum-3, as OpenVINO validates and infers them
(``embeddingbag_offsets_base.cpp``, ``embeddingbag_packed_base.cpp``,
``embedding_segments_sum.cpp`` and their ``*_shape_inference.hpp``).

The output is the embedding table's shape (in its element type) with its first axis replaced:
by the number of bags (offsets' length, or the packed indices' first axis), or by
EmbeddingSegmentsSum's ``num_segments`` value (its bounds, or ``?``). The index inputs are i32
or i64 (``dynamic`` is refused), all of one type; the per-sample weights take the table's type
and the indices' shape, and only with ``reduction = sum``.
"""

from __future__ import annotations

from irshape.dims import DYNAMIC, PartialShape
from irshape.ops.interface import Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes import bounds, reading
from irshape.shapes.broadcast import merge_shapes
from irshape.shapes.findings import incompatible, rank_finding, type_finding, value_unknown

TABLE = 0
INDEX_TYPES = ("i32", "i64")


def _index_type(call: OpCall, port: int, name: str) -> list[Finding]:
    """``name`` must be i32 or i64 (OpenVINO compares the type with ==: ``dynamic`` fails)."""
    element_type = call.inputs[port].element_type
    if element_type is None or element_type in INDEX_TYPES:
        return []
    problem = f"{name} is of element type {element_type}, not i32 or i64"
    return [type_finding(problem, f"{name} type must be i32 or i64", port)]


def _same_type(call: OpCall, port: int, other: int, message: str) -> list[Finding]:
    """Input ``port``'s element type compatible with input ``other``'s (``dynamic`` is)."""
    a, b = call.inputs[port].element_type, call.inputs[other].element_type
    if a is None or b is None or a == b or "dynamic" in (a, b):
        return []
    problem = f"input {port} is of element type {a}, input {other} of {b}"
    return [type_finding(problem, message.format(a=a, b=b), port)]


def _weights_findings(call: OpCall, port: int) -> list[Finding]:
    """Per-sample weights: only with reduction sum, in the table's element type."""
    if len(call.inputs) <= port:
        return []
    findings = []
    if str(call.attributes.values.get("reduction", "sum")).lower() != "sum":
        message = "Per sample weights can only be used in Reduction::SUM mode."
        findings.append(incompatible("per-sample weights are given with reduction mean", message))
    message = "Per sample weight element type ({a}) must match embedding table element type ({b})"
    return findings + _same_type(call, port, TABLE, message)


def _rank(call: OpCall, port: int, rank: int, message: str) -> list[Finding]:
    shape = call.inputs[port].shape
    if shape.rank is None or shape.rank == rank:
        return []
    return [rank_finding(port, call.schema.inputs[port].name, shape, str(rank), message)]


def _same_shape(call: OpCall, port: int, other: int, message: str) -> list[Finding]:
    a, b = call.inputs[port].shape, call.inputs[other].shape
    if merge_shapes(a, b) is not None:
        return []
    problem = f"input {port} is of shape {a}, input {other} of {b}"
    return [incompatible(problem, message, port)]


def _table_with_first(call: OpCall, first: PartialShape | None, result: list[Finding]) -> OpResult:
    """The table's shape with axis 0 taken from ``first``'s axis 0 (``?`` where unknown)."""
    if result:
        return OpResult([], result)
    table = call.inputs[TABLE]
    if table.shape.dims is None:
        return OpResult([Output(PartialShape(None), table.element_type)])
    if not table.shape.dims:
        message = "EMB_TABLE can't be a scalar."
        return OpResult([], [rank_finding(TABLE, "emb_table", table.shape, "at least 1", message)])
    head = first.dims[0] if first is not None and first.dims is not None else DYNAMIC
    return OpResult([Output(PartialShape([head, *table.shape.dims[1:]]), table.element_type)])


def embedding_bag_offsets(call: OpCall) -> OpResult:
    """EmbeddingBagOffsetsSum-3 and EmbeddingBagOffsets-15: ``[len(offsets), *table[1:]]``."""
    indices, offsets, default_index, weights = 1, 2, 3, 4
    findings = _index_type(call, offsets, "OFFSETS") + _index_type(call, indices, "INDICES")
    findings += _same_type(
        call, offsets, indices, "Offsets element type ({a}) must match indices element type ({b})"
    )
    if len(call.inputs) > default_index:
        findings += _index_type(call, default_index, "DEFAULT_INDEX")
        findings += _same_type(
            call,
            default_index,
            indices,
            "Default_index element type ({a}) must match indices element type ({b})",
        )
    findings += _weights_findings(call, weights)
    if findings:
        return OpResult([], findings)
    findings += _rank(call, indices, 1, "INDICES must be 1D.") + _rank(
        call, offsets, 1, "OFFSETS must be 1D."
    )
    if len(call.inputs) > default_index:
        findings += _rank(call, default_index, 0, "DEFAULT_INDEX must be a scalar.")
    if len(call.inputs) > weights:
        findings += _rank(call, weights, 1, "PER_SAMPLE_WEIGHTS must be 1D.")
        findings += findings or _same_shape(
            call, indices, weights, "INDICES and PER_SAMPLE_WEIGHTS shape must be same."
        )
    return _table_with_first(call, call.inputs[offsets].shape, findings)


def embedding_bag_packed(call: OpCall) -> OpResult:
    """EmbeddingBagPackedSum-3 and EmbeddingBagPacked-15: ``[indices.shape[0], *table[1:]]``
    (indices merged with the per-sample weights' shape)."""
    indices, weights = 1, 2
    findings = _index_type(call, indices, "INDICES") + _weights_findings(call, weights)
    if findings:
        return OpResult([], findings)
    findings += _rank(call, indices, 2, "INDICES must be 2D.")
    bags: PartialShape | None = call.inputs[indices].shape
    if len(call.inputs) > weights and not findings:
        findings += _rank(call, weights, 2, "PER_SAMPLE_WEIGHTS must be 2D.")
        bags = merge_shapes(call.inputs[indices].shape, call.inputs[weights].shape)
        if bags is None and not findings:
            message = "INDICES and PER_SAMPLE_WEIGHTS shape must be same."
            findings += _same_shape(call, indices, weights, message)
    return _table_with_first(call, bags, findings)


@reading.reads(3, how=reading.AS_SHAPE)
def embedding_segments_sum(call: OpCall) -> OpResult:
    """EmbeddingSegmentsSum-3: ``[num_segments, *table[1:]]``."""
    indices, segment_ids, num_segments, default_index, weights = 1, 2, 3, 4, 5
    findings = _index_type(call, segment_ids, "SEGMENT_IDS") + _index_type(call, indices, "INDICES")
    findings += _index_type(call, num_segments, "NUM_SEGMENTS")
    findings += _same_type(
        call, segment_ids, indices, "Segment_ids element type ({a}) must match indices element type ({b})"
    )
    findings += _same_type(
        call,
        num_segments,
        segment_ids,
        "Num_segments element type ({a}) must match Segment_ids element type ({b})",
    )
    if len(call.inputs) > default_index:
        findings += _index_type(call, default_index, "DEFAULT_INDEX")
        findings += _same_type(
            call,
            default_index,
            indices,
            "Default_index element type ({a}) must match indices element type ({b})",
        )
    if len(call.inputs) > weights:
        message = "Per sample weight element type ({a}) must match embedding table element type ({b})"
        findings += _same_type(call, weights, TABLE, message)
    if findings:
        return OpResult([], findings)
    findings += _rank(call, indices, 1, "INDICES must be 1D.") + _rank(
        call, segment_ids, 1, "SEGMENT_IDS must be 1D."
    )
    findings += findings or _same_shape(
        call, indices, segment_ids, "INDICES and SEGMENT_IDS shape must be same"
    )
    findings += findings or _scalar(call, num_segments, "NUM_SEGMENTS must be a scalar.")
    if len(call.inputs) > default_index:
        findings += findings or _scalar(call, default_index, "DEFAULT_INDEX must be a scalar.")
    if len(call.inputs) > weights:
        findings += findings or _rank(call, weights, 1, "PER_SAMPLE_WEIGHTS must be 1D.")
        findings += findings or _same_shape(
            call, indices, weights, "INDICES and PER_SAMPLE_WEIGHTS shape must be same."
        )
    if findings:
        return OpResult([], findings)
    segments, unknown = _segments(call.inputs[num_segments])
    result = _table_with_first(call, segments, [])
    if call.inputs[TABLE].shape.dims is None:
        return result
    return OpResult(result.outputs, result.findings + unknown)


def _scalar(call: OpCall, port: int, message: str) -> list[Finding]:
    """``compatible(Shape{})``: rank 0 where the rank is known."""
    return _rank(call, port, 0, message)


def _segments(num_segments: Tensor) -> tuple[PartialShape, list[Finding]]:
    """num_segments as a one-dim shape: its value, its bounds, or ``?`` (IRS306)."""
    found = bounds.as_dims(num_segments)
    if found is not None and len(found) == 1:
        return PartialShape(found), []
    consequence = "the output's first axis is of unknown length (?)"
    return PartialShape([DYNAMIC]), value_unknown(3, "num_segments", num_segments, consequence)
