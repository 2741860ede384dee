"""SparseFillEmptyRows-16 as OpenVINO validates and infers it
(``sparse_fill_empty_rows_shape_inference.hpp``): values ``[N]``, dense_shape ``[2]``, indices
``[N, 2]`` (of dense_shape's element type), a scalar default value. With dense_shape's value the
row indicator is ``[rows]``; with the indices' value too (each checked inside the dense shape)
the outputs have ``N + empty rows`` entries (N the indices' first dim for output_indices, the
values' for output_values); else ``?``.
"""

from __future__ import annotations

from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ops.interface import Finding, OpCall, OpResult, Output
from irshape.shapes import bounds, reading
from irshape.shapes.findings import incompatible, rank_finding, type_finding, unreadable, value_finding

VALUES, DENSE, INDICES, DEFAULT = 0, 1, 2, 3


def _type_findings(call: OpCall) -> list[Finding]:
    dense, indices = call.inputs[DENSE].element_type, call.inputs[INDICES].element_type
    if dense is not None and indices is not None and dense != indices:
        message = (
            f"The element types of the dense_shape and indices inputs must match. Got: {dense} and {indices}"
        )
        return [type_finding(f"dense_shape is {dense}, indices {indices}", message, INDICES)]
    return []


def _shape_findings(call: OpCall) -> list[Finding]:
    values, dense = call.inputs[VALUES].shape, call.inputs[DENSE].shape
    indices, default = call.inputs[INDICES].shape, call.inputs[DEFAULT].shape
    if values.rank not in (None, 1):
        return [rank_finding(VALUES, "values", values, "1", "The values input must be a 1D tensor.")]
    if dense.dims is not None and (len(dense.dims) != 1 or not dense.dims[0].compatible(Dim.of(2))):
        message = (
            "The dense_shape input must be 1D and have exactly 2 elements, meaning only 2D sparse tensors "
            "are supported."
        )
        return [rank_finding(DENSE, "dense_shape", dense, "1, of 2 elements", message)]
    count = values.dims[0] if values.dims is not None else DYNAMIC
    if indices.dims is not None and (
        len(indices.dims) != 2
        or not indices.dims[1].compatible(Dim.of(2))
        or (dense.dims is not None and not indices.dims[0].compatible(count))
    ):
        message = (
            "The indices input must be a 2D tensor with the first dimension matching the size of values "
            "and the second dimension having 2 elements."
        )
        return [incompatible(f"indices {indices} do not fit values {values}", message, INDICES)]
    if default.rank not in (None, 0):
        return [
            rank_finding(DEFAULT, "default_value", default, "0", "The default_value input must be a scalar.")
        ]
    return []


def _first(call: OpCall, port: int) -> Dim:
    dims = call.inputs[port].shape.dims
    return dims[0] if dims else DYNAMIC


def _empty_rows(call: OpCall, dense: tuple[int, ...]) -> tuple[int | None, list[Finding]]:
    """How many rows the indices' value leaves empty (each index checked); None unknown."""
    indices = call.inputs[INDICES].value
    if indices is None:
        return None, []
    rows, columns = dense[0], dense[1]
    pairs = list(zip(indices[0::2], indices[1::2], strict=False))
    for row, column in pairs:
        for name, index, limit in (("row", row, rows), ("column", column, columns)):
            if not 0 <= index < limit:
                message = (
                    f"Sparse tensor index out of bounds: {name} {index} "
                    f"is outside the valid range [0, {limit - 1}]"
                )
                return None, [
                    value_finding(f"the {name} index {index} is outside [0, {limit})", message, INDICES)
                ]
    return rows - len({row for row, _ in pairs}), []


@reading.reads(INDICES, how=reading.DIRECT)
@reading.reads(DENSE, how=reading.AS_SHAPE)
def sparse_fill_empty_rows(call: OpCall) -> OpResult:
    """SparseFillEmptyRows-16: dense_shape read as ``get_input_const_data_as_shape`` reads it
    (a computed value or bound below zero fails: 'Value for partial shape evaluation can't be
    lower than zero.'), its dims used only where static (a Const's -1 is ``?``; bounds give
    ``?``: by experiment)."""
    findings = _type_findings(call) + _shape_findings(call)
    if findings:
        return OpResult([], findings)
    index_type, value_type = call.inputs[INDICES].element_type, call.inputs[VALUES].element_type
    dense_input = call.inputs[DENSE]
    if dense_input.value_error is not None:
        return OpResult([], unreadable(DENSE, "dense_shape", dense_input))
    read = bounds.as_shape(dense_input)
    dense = tuple(d.value for d in read) if read is not None and all(d.is_static for d in read) else None
    rows, index_entries, value_entries = DYNAMIC, DYNAMIC, DYNAMIC
    if dense is not None and len(dense) == 2:
        rows = Dim.of(dense[0])
        empty, findings = _empty_rows(call, dense)
        if findings:
            return OpResult([], findings)
        if empty is not None:  # OpenVINO adds them to the indices' and the values' own lengths
            index_entries, value_entries = _first(call, INDICES) + empty, _first(call, VALUES) + empty
    outputs = [
        Output(PartialShape([index_entries, Dim.of(2)]), index_type),
        Output(PartialShape([value_entries]), value_type),
        Output(PartialShape([rows]), "boolean"),
    ]
    return OpResult(outputs)
