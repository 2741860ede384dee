"""SegmentMax-16 as OpenVINO validates and infers it (``segment_max_shape_inference.hpp``,
``segment_max.cpp``): the data's shape with its first axis the number of segments, from
``num_segments``' value (``?`` when the layer has it but its value is unknown), else the
largest segment id + 1, else ``?``. segment_ids is 1D, as long
as the data's first axis, sorted where its value is known; both index inputs are i32 or i64.
"""

from __future__ import annotations

from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ops.interface import Finding, OpCall, OpResult, Output
from irshape.shapes import bounds, reading
from irshape.shapes.findings import incompatible, rank_finding, type_finding, unreadable, value_finding

DATA, IDS, COUNT = 0, 1, 2
_NAMES = {IDS: "segment_ids", COUNT: "num_segments"}


def _findings(call: OpCall) -> list[Finding]:
    for port in range(IDS, len(call.inputs)):
        element_type = call.inputs[port].element_type
        if element_type is not None and element_type not in ("i32", "i64"):
            message = f"The element type of the {_NAMES[port]} input be i32 or i64. Got: {element_type}"
            return [type_finding(f"{_NAMES[port]} is of element type {element_type}", message, port)]
    data, ids = call.inputs[DATA].shape, call.inputs[IDS].shape
    if data.rank == 0:
        return [rank_finding(DATA, "data", data, "at least 1", "The data input cannot be a scalar.")]
    if ids.rank not in (None, 1):
        return [rank_finding(IDS, "segment_ids", ids, "1", f"segment_ids must be a 1D input. Got: {ids}")]
    if data.dims is not None and ids.dims is not None and not data.dims[0].compatible(ids.dims[0]):
        message = "The number of elements in segment_ids must match the first dimension of data."
        return [incompatible(f"segment_ids has {ids.dims[0]} ids, data {data.dims[0]} rows", message, IDS)]
    values = call.inputs[IDS].value
    if values is not None and list(values) != sorted(values):
        return [
            value_finding(f"segment_ids {list(values)} are not sorted", "segment_ids must be sorted.", IDS)
        ]
    if len(call.inputs) > COUNT and call.inputs[COUNT].shape.rank not in (None, 0):
        shape = call.inputs[COUNT].shape
        return [
            rank_finding(
                COUNT, "num_segments", shape, "0", f"num_segments must be a scalar input. Got: {shape}"
            )
        ]
    return []


@reading.reads(IDS, how=reading.DIRECT)
@reading.reads(COUNT, how=reading.AS_SHAPE)
def segment_max(call: OpCall) -> OpResult:
    """SegmentMax-16: num_segments as ``get_input_const_data_as_shape`` reads it (its value, a
    negative one 0 and -1 ``?``; else ``Dimension(lower, upper)`` of its bounds: a count computed
    from a ShapeOf of ``3..9`` is ``3..9``; by experiment, OpenVINO 2026.4)."""
    findings = _findings(call)
    if findings:
        return OpResult([], findings)
    data = call.inputs[DATA]
    if data.shape.dims is None:
        return OpResult([Output(PartialShape(None), data.element_type)])
    ids = call.inputs[IDS].value
    if len(call.inputs) > COUNT:  # num_segments decides, even when its value is unknown
        count = call.inputs[COUNT]
        if count.value_error is not None:
            return OpResult([], unreadable(COUNT, "num_segments", count))
        read = bounds.as_shape(count)
        first = read[0] if read else DYNAMIC
    elif ids is not None and ids and call.inputs[IDS].shape.rank is not None:
        first = Dim.of(max(ids) + 1)
    else:
        first = DYNAMIC
    return OpResult([Output(PartialShape([first, *data.shape.dims[1:]]), data.element_type)])
