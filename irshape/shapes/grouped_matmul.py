"""GroupedMatMul-17 as OpenVINO 2026.4 validates and infers it (``grouped_matmul_shape_inference.hpp``):
3D x 3D, ``[G, M, K] x [G, N, K] -> [G, M, N]``; 2D x 3D with offsets (the groups' row ranges),
``[T, K] x [G, N, K] -> [T, N]``. mat_a and mat_b share one element type; offsets is 1D, i32 or
i64. Any other pair of ranks is refused (this release has no 2D x 2D).
"""

from __future__ import annotations

from irshape.dims import Dim, PartialShape
from irshape.ir import element_types
from irshape.ops.interface import Finding, OpCall, OpResult, Output
from irshape.shapes.findings import incompatible, rank_finding, type_finding


def _type_findings(call: OpCall) -> list[Finding]:
    a, b = call.inputs[0].element_type, call.inputs[1].element_type
    if a is not None and b is not None and element_types.merge(a, b) is None:
        message = (
            f"Arguments do not have the same element type (mat_a element type: {a}, mat_b element type: {b})."
        )
        return [type_finding(f"mat_a is {a}, mat_b {b}", message, 1)]
    if len(call.inputs) > 2:
        offsets = call.inputs[2].element_type
        if offsets is not None and offsets not in ("i32", "i64"):
            message = f"Offsets element type must be i32 or i64. Got: {offsets}"
            return [type_finding(f"offsets are of element type {offsets}", message, 2)]
    return []


def _merged(a: Dim, b: Dim, message: str) -> tuple[Dim, list[Finding]]:
    merged = a & b
    if merged.is_empty:
        return a, [incompatible(f"{a} and {b} differ", message)]
    return merged, []


def grouped_matmul(call: OpCall) -> OpResult:
    """GroupedMatMul-17."""
    findings = _type_findings(call)
    if findings:
        return OpResult([], findings)
    element_type = element_types.merge(call.inputs[0].element_type, call.inputs[1].element_type)
    a, b = call.inputs[0].shape.dims, call.inputs[1].shape.dims
    if a is None or b is None:
        return OpResult([Output(PartialShape(None), element_type)])
    if len(a) == 3 and len(b) == 3:
        groups, findings = _merged(
            a[0], b[0], f"GroupedMatMul 3Dx3D: batch dimension mismatch mat_a: {a[0]}, mat_b: {b[0]}"
        )
        _, inner = _merged(
            a[2], b[2], f"GroupedMatMul 3Dx3D: inner dimension mismatch mat_a: {a[2]}, mat_b: {b[2]}"
        )
        findings += findings or inner
        return OpResult(
            [] if findings else [Output(PartialShape([groups, a[1], b[1]]), element_type)], findings
        )
    if len(a) == 2 and len(b) == 3:
        if len(call.inputs) < 3:
            return OpResult(
                [],
                [incompatible("2D x 3D without offsets", "GroupedMatMul 2Dx3D case requires offsets input.")],
            )
        offsets = call.inputs[2].shape
        if offsets.rank not in (None, 1):
            return OpResult(
                [], [rank_finding(2, "offsets", offsets, "1", "GroupedMatMul offsets must be 1D tensor.")]
            )
        _, findings = _merged(
            a[1], b[2], f"GroupedMatMul 2Dx3D: inner dimension mismatch mat_a: {a[1]}, mat_b: {b[2]}"
        )
        return OpResult([] if findings else [Output(PartialShape([a[0], b[1]]), element_type)], findings)
    message = (
        f"GroupedMatMul unsupported combination: mat_a {len(a)}D x mat_b {len(b)}D. Supported: 2Dx3D, 3Dx3D."
    )
    return OpResult([], [rank_finding(0, "mat_a", call.inputs[0].shape, "2 or 3 (with mat_b 3)", message)])
