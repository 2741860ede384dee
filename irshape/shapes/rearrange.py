"""Ops that rearrange a tensor's spatial dims, as OpenVINO validates and infers them:
SpaceToBatch-1 and BatchToSpace-1 (``space_to_batch_shape_inference.hpp``,
``batch_to_space_shape_inference.hpp``: the values of block_shape and the pads or crops, read as
``get_input_const_data_as`` reads them, move the spatial dims into the batch and back, intervals
through ``Dimension``'s arithmetic), ExtractImagePatches-3
(``extractimagepatches_shape_inference.hpp``: channels times the patch's size, each spatial dim
the count of patches, ``dim::ceil_div`` of what the dilated patch leaves), and Col2Im-15
(``col2im_shape_inference.hpp``: the blocks of a [N,] C * kh * kw, L tensor put back into an
image of output_size; L must be the count of blocks the image holds). ReverseSequence-1
is Reverse's kin in :mod:`irshape.shapes.layout`, SliceScatter-15 Slice's in
:mod:`irshape.shapes.indexing`, Unique-10 in :mod:`irshape.shapes.uniqueness`."""

from __future__ import annotations

import math

from irshape import rules
from irshape.dims import INF, Dim, PartialShape, int64
from irshape.ir.element_types import is_integral_number
from irshape.ops.interface import Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes import bounds, reading
from irshape.shapes.broadcast import merge_shapes
from irshape.shapes.findings import (
    attribute_error,
    incompatible,
    known,
    multiple_message,
    rank_finding,
    type_finding,
    typed_inputs,
    value_finding,
    value_unknown,
)

# --- SpaceToBatch, BatchToSpace -------------------------------------------------------------

_PADS = ("block_shape", "pads_begin", "pads_end")
_CROPS = ("block_shape", "crops_begin", "crops_end")


@reading.reads(1, 2, 3)
def space_to_batch(call: OpCall) -> OpResult:
    """SpaceToBatch-1: batch * prod(block_shape); each spatial dim padded, then divided by its
    block (exactly: an interval keeps the multiples; an unbounded one is ceil-divided)."""
    data = call.inputs[0]
    findings = [
        type_finding(
            f"{name} is of element type {t}", f"{name} must be an integral number but got ({t}).", port
        )
        for port, name, t in typed_inputs(call, _PADS)
        if not is_integral_number(t)
    ]
    findings += _same_shape_findings(call, _PADS, "pads")
    rank = data.shape.rank
    if not findings and rank is not None and rank < 2:
        message = f"The data tensor with rank lower than 2 is not supported (data rank: {rank})"
        findings.append(rank_finding(0, "data", data.shape, "2 or more", message))
    if findings or data.shape.dims is None:
        return OpResult([] if findings else [Output(data.shape, data.element_type)], findings)
    blocks, begin, end, findings = _read_values(call, _PADS, data.shape.dims)
    if _errors(findings):
        return OpResult([], findings)
    dims = data.shape.dims
    batch = dims[0] * Dim.of(int64(_product(blocks))) if blocks is not None else Dim.of(-1)
    if blocks is None or begin is None or end is None:
        return OpResult(
            [Output(PartialShape([batch, *[Dim.of(-1)] * (len(dims) - 1)]), data.element_type)], findings
        )
    spatial: list[Dim] = []
    for axis in range(1, len(dims)):
        divided, problem = _space_to_batch_dim(dims[axis], blocks[axis], begin[axis], end[axis])
        if problem is not None:
            return OpResult([], [*findings, problem])
        spatial.append(divided)
    return OpResult([Output(PartialShape([batch, *spatial]), data.element_type)], findings)


def _space_to_batch_dim(dim: Dim, block: int, begin: int, end: int) -> tuple[Dim, Finding | None]:
    if block <= 0:
        return dim, value_finding(
            f"block_shape holds {block}", "block_shape values must be greater than 0", 1
        )
    # each pad a Dimension of its own (by experiment): -1 is '?', other negatives 0
    padded = dim + Dim.of(begin) + Dim.of(end)
    if padded.hi == INF:
        return padded.ceil_div(block), None
    divided = padded.divide_exact(block)
    if divided.is_empty:
        return divided, incompatible(
            f"the padded dim {padded} is not a multiple of {block}", multiple_message(padded, block)
        )
    return divided, None


@reading.reads(1, 2, 3)
def batch_to_space(call: OpCall) -> OpResult:
    """BatchToSpace-1: batch / prod(block_shape) (exactly); each spatial dim times its block,
    less its crops."""
    data = call.inputs[0]
    findings = _crop_type_findings(call) + _same_shape_findings(call, _CROPS, "crops")
    if findings or data.shape.dims is None:
        return OpResult([] if findings else [Output(PartialShape(None), data.element_type)], findings)
    dims = data.shape.dims
    if len(dims) < 2:
        message = f"data input must have rank greater or equal than 2. Got: {len(dims)}"
        return OpResult([], [rank_finding(0, "data", data.shape, "2 or more", message)])
    length = _length(call)
    if length is not None and length != len(dims):
        message = (
            "block_shape and crop inputs must have same number of elements as data input rank. "
            f"Got: {length} and {len(dims)}"
        )
        return OpResult(
            [], [incompatible(f"block_shape holds {length} values for data of rank {len(dims)}", message)]
        )
    blocks, begin, end, findings = _read_values(call, _CROPS, dims)
    if _errors(findings):
        return OpResult([], findings)
    batch, problem = _batch_to_space_batch(dims[0], blocks)
    if problem is None and begin is not None and end is not None and min(*begin, *end) < 0:
        message = "Elements of crops_begin and crops_end inputs must be greater or equal to zero."
        problem = value_finding("a crop is below zero", message, 2)
    if problem is not None:
        return OpResult([], [*findings, problem])
    if begin is None or end is None:
        return OpResult(
            [Output(PartialShape([batch, *[Dim.of(-1)] * (len(dims) - 1)]), data.element_type)], findings
        )
    spatial: list[Dim] = []
    for axis in range(1, len(dims)):
        block = Dim.of(blocks[axis]) if blocks is not None else Dim.between(1, -1)
        grown = dims[axis] * block
        crop = int64(begin[axis] + end[axis])
        if blocks is not None and grown.is_static and crop > grown.value:
            message = "crops_begin[i] + crops_end[i] must be less or equal to block_shape[i] * input_shape[i]"
            problem = value_finding(f"the crops of axis {axis} ({crop}) exceed {grown}", message, 2)
            return OpResult([], [*findings, problem])
        spatial.append(grown - Dim.of(crop))
    return OpResult([Output(PartialShape([batch, *spatial]), data.element_type)], findings)


def _batch_to_space_batch(batch: Dim, blocks: list[int] | None) -> tuple[Dim, Finding | None]:
    if blocks is None:
        return Dim.of(-1), None
    if any(v < 1 for v in blocks):
        message = "Elements of block_shape input must be greater or equal to one."
        return batch, value_finding(f"block_shape holds {min(blocks)}", message, 1)
    divisor = int64(_product(blocks))
    divided = batch.divide_exact(divisor)
    if divided.is_empty:
        return divided, incompatible(
            f"the batch {batch} is not a multiple of {divisor}", multiple_message(batch, divisor)
        )
    return divided, None


def _crop_type_findings(call: OpCall) -> list[Finding]:
    """One element type for the three, an integral one (``element::Type::merge``)."""
    types = [t for _, _, t in typed_inputs(call, _CROPS)]
    if len(types) < 3:
        return []
    merged = {t for t in types if t != "dynamic"}
    if len(merged) > 1:
        message = (
            "block_shape, crops_begin and crops_end inputs must have same element type. "
            f"Got: {types[0]}, {types[1]} and {types[2]}"
        )
        return [type_finding(f"block_shape and the crops are of element types {types}", message, 1)]
    if merged and not is_integral_number(next(iter(merged))):
        t = next(iter(merged))
        message = f"block_shape and crops inputs must have integer element type. Got: {t}"
        return [type_finding(f"block_shape and the crops are of element type {t}", message, 1)]
    return []


def _same_shape_findings(call: OpCall, names: tuple[str, ...], what: str) -> list[Finding]:
    """block_shape and the pads (crops) merge into one shape, of rank 1."""
    block, begin, end = (call.inputs[port].shape for port in (1, 2, 3))
    merged = merge_shapes(begin, end)
    merged = None if merged is None else merge_shapes(merged, block)
    if merged is None:
        message = (
            f"{names[0]}, {names[1]} and {names[2]} inputs must have the same shape. "
            f"Got: {block}, {begin} and {end}"
        )
        return [incompatible(f"{names[0]} {block}, {names[1]} {begin} and {names[2]} {end} differ", message)]
    if merged.rank not in (None, 1):
        message = f"block_shape and {what} inputs must have rank 1. Got: {merged.rank}"
        return [rank_finding(1, names[0], merged, "1", message)]
    return []


def _length(call: OpCall) -> int | None:
    """The one static length of the three 1D inputs, if it is known."""
    for port in (1, 2, 3):
        dims = call.inputs[port].shape.dims
        if dims is not None and dims[0].is_static:
            return dims[0].value
    return None


def _read_values(
    call: OpCall, names: tuple[str, ...], dims: tuple[Dim, ...]
) -> tuple[list[int] | None, list[int] | None, list[int] | None, list[Finding]]:
    """block_shape, begin and end, as far as their values are known; every
    value must cover the data's axes (SpaceToBatch does not check that: it reads past the end)."""
    findings: list[Finding] = []
    values: list[list[int] | None] = []
    for port, name in enumerate(names, start=1):
        tensor = call.inputs[port]
        if tensor.value is None:
            findings += value_unknown(port, name, tensor, "the output dims are '?'")
            values.append(None)
        elif len(tensor.value) < len(dims):
            problem = f"{name} holds {len(tensor.value)} values for data of rank {len(dims)}"
            findings.append(value_finding(problem, "OpenVINO reads past the end of the value", port))
            values.append(None)
        else:
            values.append(list(tensor.value))
    blocks, begin, end = values
    return blocks, begin, end, findings


def _errors(findings: list[Finding]) -> bool:
    return any(f.rule is not rules.VALUE_UNKNOWN for f in findings)


def _product(values: list[int]) -> int:
    product = 1
    for v in values:
        product = int64(product * v)
    return product


# --- ExtractImagePatches ----------------------------------------------------------------------

_PATCH_LISTS = (
    ("sizes", "Attribute sizes should be in [size_rows, size_cols] format."),
    ("strides", "Attribute strides should be in [stride_rows, stride_cols] format."),
    ("rates", "Attribute rates should be in [rate_rows, rate_cols] format."),
)
_SIZE_T = 2**64


def extract_image_patches(call: OpCall) -> OpResult:
    """ExtractImagePatches-3: [N, C * size_rows * size_cols, rows, cols] of the 4D data, rows and
    cols the number of patches (``valid``: ceil((H - rate * (size - 1)) / stride); ``same_*``:
    ceil(H / stride))."""
    data = call.inputs[0]
    findings = _patch_findings(call)
    if data.shape.rank not in (None, 4):
        findings.insert(0, rank_finding(0, "data", data.shape, "4", "input tensor must be 4D tensor."))
    if findings or any(name in call.attributes.broken for name, _ in _PATCH_LISTS):
        return OpResult([], findings)
    if data.shape.dims is None:
        return OpResult([Output(PartialShape.dynamic(4), data.element_type)])
    sizes, strides, rates = (call.attributes.int_list(name) for name, _ in _PATCH_LISTS)
    batch, channels, *spatial = data.shape.dims
    patch = 1
    for size in sizes:
        patch = patch * size % _SIZE_T  # size_t arithmetic, read back as an int64
    dims = [batch, channels * Dim.of(int64(patch))]
    valid = str(call.attribute("auto_pad")).lower() == "valid"
    for dim, size, stride, rate in zip(spatial, sizes, strides, rates, strict=True):
        extent = int64(rate * (size - 1) % _SIZE_T)  # may wrap, as in C++
        dims.append((dim - Dim.of(extent) if valid else dim).ceil_div(stride))
    return OpResult([Output(PartialShape(dims), data.element_type)])


def _patch_findings(call: OpCall) -> list[Finding]:
    """The attribute checks, in OpenVINO's order (each list of 2; strides and rates above 0;
    ``auto_pad`` valid, same_lower or same_upper)."""
    findings: list[Finding] = []
    for name, message in _PATCH_LISTS:
        values = call.attributes.int_list(name)
        if name in call.attributes.broken:
            continue
        if len(values) != 2:
            findings.append(attribute_error(call, name, list(values), "does not hold 2 values", message))
        elif name != "sizes" and min(values) < 1:
            message = f"Attribute {name} should be strictly greater than zeros in values."
            findings.append(attribute_error(call, name, list(values), "holds a value below 1", message))
    auto_pad = str(call.attribute("auto_pad")).lower()
    if auto_pad not in ("valid", "same_lower", "same_upper"):
        message = "Attribute padding should be in either valid or same_lower or same_upper."
        findings.append(
            attribute_error(call, "auto_pad", auto_pad, "is not valid, same_lower or same_upper", message)
        )
    return findings


# --- Col2Im -----------------------------------------------------------------------------------

_COL2IM_TYPES = ("i32", "i64")


@reading.reads(1, how=reading.AS_SHAPE)
@reading.reads(2)
def col2im(call: OpCall) -> OpResult:
    """Col2Im-15: [N,] C / (kh * kw), output_size[0], output_size[1]: output_size as
    ``get_input_const_data_as_shape`` reads it (its value, else its bounds: a size computed
    from a ShapeOf of ``3..9`` is ``3..9``), kernel_size as ``get_input_const_data_as``."""
    data, size, kernel = call.inputs
    findings = _col2im_input_findings(call)
    if findings:
        return OpResult([], findings)
    if data.shape.dims is None:
        return OpResult([Output(data.shape, data.element_type)])
    batched = len(data.shape.dims) == 3
    dims = list(data.shape.dims)
    blocks, columns = dims[-2], dims[-1]
    out = _col2im_size(size)
    findings += [*_value_findings(call, 1, bounded=out is not None), *_value_findings(call, 2)]
    if _errors(findings):
        return OpResult([], findings)
    channels, problem = _col2im_channels(blocks, kernel.value)
    if out is None:
        out = [Dim.of(-1), Dim.of(-1)]
    if problem is None and all(d.is_static for d in out) and kernel.value is not None and columns.is_static:
        problem = _col2im_block_count(call, [d.value for d in out], kernel.value, columns.value)
    if problem is not None:
        return OpResult([], [*findings, problem])
    shape = PartialShape([*dims[:1], channels, *out] if batched else [channels, *out])
    return OpResult([Output(shape, data.element_type)], findings)


def _col2im_size(size: Tensor) -> list[Dim] | None:
    """output_size's two dims: its value's (-1 is ``?``), else ``Dimension(lower, upper)`` of
    its bounds (``evaluate_as_partial_shape``), else None."""
    found = bounds.as_shape(size)
    return None if found is None else found[:2]


def _col2im_input_findings(call: OpCall) -> list[Finding]:
    data, size, kernel = call.inputs
    findings: list[Finding] = []
    types = (size.element_type, kernel.element_type)
    if all(known(t) for t in types) and (types[0] not in _COL2IM_TYPES or types[0] != types[1]):
        message = (
            "The element types of the output_size and kernel_size tensors must match and be of i32 or i64 "
            f"type. Got: {types[0]} and {types[1]}"
        )
        findings.append(type_finding(f"output_size is {types[0]}, kernel_size {types[1]}", message, 1))
    if data.shape.rank not in (None, 2, 3):
        message = f"input data must be an unbatched 2D or a batched 3D input. Got: {data.shape}"
        findings.append(rank_finding(0, "data", data.shape, "2 or 3", message))
    for port, name, tensor in ((1, "output_size", size), (2, "kernel_size", kernel)):
        dims = tensor.shape.dims
        if dims is not None and (len(dims) != 1 or not dims[0].compatible(Dim.of(2))):
            message = f"{name} must be a 1D input of shape [2]. Got: {tensor.shape}"
            findings.append(rank_finding(port, name, tensor.shape, "1 (of 2 elements)", message))
    return findings


def _value_findings(call: OpCall, port: int, bounded: bool = False) -> list[Finding]:
    """What reading output_size or kernel_size says: a value unknown (not where output_size's
    bounds give its dims: ``bounded``), or (by experiment) one OpenVINO cannot read as a shape
    because its length is not static."""
    tensor, name = call.inputs[port], ("output_size", "kernel_size")[port - 1]
    if tensor.value is not None:
        return []
    dims = tensor.shape.dims
    if dims is not None and not all(d.is_static for d in dims):
        problem = f"{name} is computed, of the dynamic shape {tensor.shape}"
        return [incompatible(problem, "to_shape was called on a dynamic shape.", port)]
    if bounded:
        return []
    return value_unknown(port, name, tensor, "the dims it decides are '?'")


def _col2im_channels(channels: Dim, kernel: tuple[int, ...] | None) -> tuple[Dim, Finding | None]:
    """C / (kh * kw) when both are known; the product must be above 0 and divide C."""
    if kernel is None or not channels.is_static:
        return Dim.of(-1), None
    divisor = int64(kernel[0] * kernel[1])
    if divisor <= 0:
        message = "kernel_size elements must be positive non-zero values."
        return channels, value_finding(f"kernel_size {list(kernel)} has a product of {divisor}", message, 2)
    if channels.value % divisor:
        message = (
            "First non-batch dimension is not evenly divisible by Product(kernel_shape). "
            f"Got: {channels.value}"
        )
        return channels, incompatible(f"{channels.value} channels are not a multiple of {divisor}", message)
    return Dim.of(channels.value // divisor), None


def _col2im_block_count(
    call: OpCall, size: list[int], kernel: tuple[int, ...], blocks: int
) -> Finding | None:
    """L must be the product over both axes of (size + pads - dilation * (k - 1) - 1) / stride + 1
    (a negative numerator wraps, as size_t arithmetic does: never equal)."""
    lists = [call.attributes.int_list(name) for name in ("strides", "dilations", "pads_begin", "pads_end")]
    strides, dilations, begin, end = ([*v, 0, 0] for v in lists)  # past the end: read as 0 here
    if 0 in strides[:2]:
        return attribute_error(call, "strides", lists[0], "holds a 0", "strides must be non-zero.")
    counts = []
    for d in range(2):
        numerator = size[d] + begin[d] + end[d] - dilations[d] * (kernel[d] - 1) - 1
        counts.append(numerator // strides[d] + 1 if numerator >= 0 else None)
    expected = None if None in counts else math.prod(c for c in counts if c is not None)
    if expected == blocks:
        return None
    message = (
        "For given inputs and parameters the total number of data blocks must be equal to "
        f"{expected if expected is not None else 'a wrapped size_t'}. Got: {blocks}"
    )
    return incompatible(f"{blocks} blocks where the image holds {expected}", message)
