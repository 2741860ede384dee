"""Region-of-interest pooling: ROIAlign-3/9 (and ROIAlignRotated-15, whose boxes have a fifth
number, the angle), as OpenVINO's ``roi_align_shape_utils.hpp`` infers them.

The output is ``[NUM_ROIS, C, pooled_h, pooled_w]``: the number of boxes (the ROIs' first dim
merged with the batch indices'), the data's channels, and the attributes' bin counts (a
negative one is OpenVINO's ``Dimension(v)``: -1 is ``?``, others 0). Data and ROIs share one
real element type, which the output has; the batch indices are of an integer type. Messages
are OpenVINO's.
"""

from __future__ import annotations

from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ops.interface import Finding, OpCall, OpResult, Output
from irshape.shapes.broadcast import merge_dim
from irshape.shapes.findings import incompatible, is_real, rank_finding, type_finding

DATA, ROIS, BATCH_INDICES = 0, 1, 2


def _box_type(call: OpCall) -> tuple[str | None, list[Finding]]:
    """``element::Type::merge`` of the data's and the ROIs' types, which must be real (dynamic
    is not); None where irshape does not know a type."""
    data_type, rois_type = call.inputs[DATA].element_type, call.inputs[ROIS].element_type
    if data_type is None or rois_type is None:
        return None, []
    static = {t for t in (data_type, rois_type) if t != "dynamic"}
    merged = static.pop() if len(static) == 1 else ("dynamic" if not static else None)
    if merged is not None and is_real(merged):
        return merged, []
    problem = f"data is of element type {data_type}, rois of {rois_type}: not one real type"
    message = (
        "The data type for input and ROIs is expected to be a same floating point type. Got: "
        f"{data_type} and: {rois_type}"
    )
    return None, [type_finding(problem, message, ROIS)]


def _index_type_findings(call: OpCall) -> list[Finding]:
    """``is_integral_number``: any type but the real ones and boolean."""
    index_type = call.inputs[BATCH_INDICES].element_type
    if not (is_real(index_type) or index_type == "boolean"):
        return []
    problem = f"batch_indices is of element type {index_type}, not an integer type"
    message = f"The data type for batch indices is expected to be an integer. Got: {index_type}"
    return [type_finding(problem, message, BATCH_INDICES)]


_RANKS = (
    (DATA, "data", 4, "Expected a 4D tensor for the input data. Got: "),
    (ROIS, "rois", 2, "Expected a 2D tensor for the ROIs input. Got: "),
    (BATCH_INDICES, "batch_indices", 1, "Expected a 1D tensor for the batch indices input. Got: "),
)


def _rank_findings(call: OpCall) -> list[Finding]:
    for port, name, rank, message in _RANKS:
        shape = call.inputs[port].shape
        if shape.rank not in (None, rank):
            return [rank_finding(port, name, shape, str(rank), f"{message}{shape}")]
    return []


def _num_rois(call: OpCall, box_size: int) -> tuple[Dim | None, list[Finding]]:
    """The ROIs' first dim merged with the batch indices'; the ROIs' second dim must be able to
    be ``box_size``."""
    rois, indices = call.inputs[ROIS].shape, call.inputs[BATCH_INDICES].shape
    num = DYNAMIC
    if rois.dims is not None:
        if not rois.dims[1].compatible(Dim.of(box_size)):
            message = (
                "The second dimension of ROIs input should contain box coordinates. op dimension is "
                f"expected to be equal to {box_size}. Got: {rois.dims[1]}"
            )
            problem = f"rois is {rois}: its second dim is not {box_size}"
            return None, [incompatible(problem, message, ROIS)]
        num = rois.dims[0]
    if indices.dims is None:
        return num, []
    merged = merge_dim(num, indices.dims[0])
    if merged is None:
        message = (
            "The first dimension of ROIs input must be equal to the first dimension of the batch "
            f"indices input. Got: {num} and: {indices.dims[0]}"
        )
        problem = f"rois is {rois}, batch_indices {indices}: different numbers of boxes"
        return None, [incompatible(problem, message, BATCH_INDICES)]
    return merged, []


def roi_align(call: OpCall) -> OpResult:
    """ROIAlign-3/9 (boxes of 4 numbers) and ROIAlignRotated-15 (of 5)."""
    box_type, findings = _box_type(call)
    findings = findings or _index_type_findings(call)
    findings = findings or _rank_findings(call)
    if findings:
        return OpResult([], findings)
    box_size = 5 if call.schema.op == "ROIAlignRotated" else 4
    num, findings = _num_rois(call, box_size)
    if num is None:
        return OpResult([], findings)
    data = call.inputs[DATA].shape
    channels = data.dims[1] if data.dims is not None else DYNAMIC
    pooled = [Dim.of(int(call.attribute("pooled_h"))), Dim.of(int(call.attribute("pooled_w")))]
    shape = PartialShape([num, channels, *pooled])
    formulas = ["rois[0]", "data[1]", "pooled_h", "pooled_w"]
    return OpResult([Output(shape, box_type, formulas)])
