"""Ops that find where values fall in a sorted sequence, as OpenVINO validates and infers them:
Bucketize-3 (``bucketize.cpp``: the data's shape, of ``output_type``) and SearchSorted-15
(``search_sorted_shape_inference.hpp``: the values' shape, every dim but the last merged with
the sorted sequence's; values of dynamic rank give the sorted sequence's shape, its last dim
``?``, or a dynamic rank for a 1D sequence)."""

from __future__ import annotations

from irshape.dims import DYNAMIC, PartialShape
from irshape.ops.interface import Finding, OpCall, OpResult, Output
from irshape.shapes.broadcast import merge_dim
from irshape.shapes.findings import incompatible, index_type_findings, known, rank_finding, type_finding


def bucketize(call: OpCall) -> OpResult:
    """Bucketize-3: numeric data and buckets (a 1D tensor); the data's shape."""
    data, buckets = call.inputs
    findings = _output_type_findings(call)
    for port, name, tensor in ((0, "Data", data), (1, "Buckets", buckets)):
        if known(tensor.element_type) and not _numeric(tensor.element_type):
            problem = f"{name.lower()} is of element type {tensor.element_type}, not a numeric one"
            findings.append(
                type_finding(problem, f"{name} input type must be numeric. Got: {tensor.element_type}", port)
            )
    if buckets.shape.rank not in (None, 1):
        message = f"Buckets input must be a 1D tensor. Got: {buckets.shape}"
        findings.append(rank_finding(1, "buckets", buckets.shape, "1", message))
    if findings:
        return OpResult([], findings)
    return OpResult([Output(data.shape, str(call.attribute("output_type")))])


def search_sorted(call: OpCall) -> OpResult:
    """SearchSorted-15: the values' shape (the sorted sequence's, its last dim ``?``, when the
    values are of dynamic rank), of ``output_type``."""
    sorted_, values = call.inputs
    findings = _output_type_findings(call)
    if (
        known(sorted_.element_type)
        and known(values.element_type)
        and sorted_.element_type != values.element_type
    ):
        problem = (
            f"the sorted sequence is of element type {sorted_.element_type}, "
            f"the values of {values.element_type}"
        )
        findings.append(
            type_finding(problem, "Sorted sequence and values must have the same element type.", 1)
        )
    shape, shape_findings = _searched_shape(sorted_.shape, values.shape)
    findings += shape_findings
    if findings:
        return OpResult([], findings)
    return OpResult([Output(shape, str(call.attribute("output_type")))])


def _searched_shape(sorted_: PartialShape, values: PartialShape) -> tuple[PartialShape, list[Finding]]:
    if sorted_.dims is not None and not sorted_.dims:
        message = "The sorted sequence input cannot be a scalar."
        return sorted_, [rank_finding(0, "sorted_sequence", sorted_, "1 or more", message)]
    if values.dims is None:
        if sorted_.dims is None or len(sorted_.dims) == 1:  # (by experiment: of any rank)
            return values, []
        return PartialShape([*sorted_.dims[:-1], DYNAMIC]), []
    if not values.dims and sorted_.rank not in (None, 1):
        message = "If values input is a scalar the sorted sequence must be a 1D tensor."
        return values, [
            incompatible(f"the values are a scalar, the sorted sequence of rank {sorted_.rank}", message)
        ]
    if sorted_.dims is None or len(sorted_.dims) == 1:
        return values, []
    if len(sorted_.dims) != len(values.dims):
        problem = f"the sorted sequence is of rank {sorted_.rank}, the values of rank {values.rank}"
        return values, [incompatible(problem, "The inputs' ranks have to be compatible.")]
    merged = [merge_dim(s, v) for s, v in zip(sorted_.dims[:-1], values.dims[:-1], strict=True)]
    if any(d is None for d in merged):
        problem = f"the sorted sequence {sorted_} and the values {values} differ in a dim but the last"
        return values, [incompatible(problem, "All dimensions but the last one have to be compatible.")]
    return PartialShape([*(d for d in merged if d is not None), values.dims[-1]]), []


def _numeric(element_type: str | None) -> bool:
    """``is_real() || is_integral_number()``: not boolean, not string."""
    return element_type not in ("boolean", "string")


def _output_type_findings(call: OpCall) -> list[Finding]:
    got = f"Output type must be i32 or i64. Got: {call.attribute('output_type')}"
    return index_type_findings(call, "output_type", got)
