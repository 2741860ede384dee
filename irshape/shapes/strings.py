"""The string tensor ops: StringTensorUnpack-15 and StringTensorPack-15, as OpenVINO validates and
infers them (``string_tensor_*_shape_inference.hpp``, ``string_tensor_*.cpp``).

StringTensorUnpack takes a string tensor and gives, in its shape, each string's begin and end
(i32) in the third output, the strings' UTF-8 bytes (u8) one after the other, of a length known
only from the data (``[?]``). StringTensorPack is its inverse: begins and ends (i32 or i64, one
type; their shapes merged) and the bytes (u8, 1D) give the string tensor of the begins' shape.
"""

from __future__ import annotations

from irshape.dims import DYNAMIC, PartialShape
from irshape.ops.interface import Finding, OpCall, OpResult, Output
from irshape.shapes.broadcast import merge_shapes
from irshape.shapes.findings import incompatible, rank_finding, type_finding


def string_tensor_unpack(call: OpCall) -> OpResult:
    """StringTensorUnpack-15."""
    data = call.inputs[0]
    if data.element_type is not None and data.element_type != "string":
        message = f"StringTensorUnpack expects a tensor with string elements. Got: {data.element_type}"
        return OpResult([], [type_finding(f"the data is of element type {data.element_type}", message, 0)])
    symbols = Output(PartialShape([DYNAMIC]), "u8")
    return OpResult([Output(data.shape, "i32"), Output(data.shape, "i32"), symbols])


def _pack_findings(call: OpCall) -> list[Finding]:
    begins, ends, symbols = call.inputs
    types = (begins.element_type, ends.element_type)
    if None not in types and (types[0] != types[1] or types[0] not in ("i32", "i64")):
        message = (
            "The element types of the begins and ends input tensors must match and be of i32 or i64 type. "
            f"Got: {types[0]} and {types[1]}"
        )
        return [type_finding(f"begins are {types[0]} and ends {types[1]}", message)]
    if symbols.element_type is not None and symbols.element_type not in ("u8", "dynamic"):
        message = (
            f"StringTensorPack expects a tensor with ov::element::u8 elements. Got: {symbols.element_type}"
        )
        return [type_finding(f"the symbols are of element type {symbols.element_type}", message, 2)]
    if symbols.shape.rank not in (None, 1):
        return [rank_finding(2, "symbols", symbols.shape, "1", "Symbols input must be 1D.")]
    if merge_shapes(begins.shape, ends.shape) is None:
        problem = f"begins {begins.shape} and ends {ends.shape} differ"
        return [incompatible(problem, "The shapes of begins and ends have to be compatible.", 1)]
    return []


def string_tensor_pack(call: OpCall) -> OpResult:
    """StringTensorPack-15."""
    findings = _pack_findings(call)
    if findings:
        return OpResult([], findings)
    shape = merge_shapes(call.inputs[0].shape, call.inputs[1].shape)
    assert shape is not None  # checked above
    return OpResult([Output(shape, "string")])
