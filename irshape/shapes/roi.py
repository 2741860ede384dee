"""Region-of-interest pooling: ROIAlign-3/9 (and ROIAlignRotated-15, whose boxes have a fifth
number, the angle), as OpenVINO's ``roi_align_shape_utils.hpp`` infers them, and ROIPooling-2
(``roi_pooling_shape_inference.hpp``: boxes of 5 numbers, the batch index first; the pooled
size from its attributes, which OpenVINO reads in a peculiar order: :func:`_pooled_size`), and
the YOLO heads' RegionYolo-1 and ReorgYolo-2 (``region_yolo_shape_inference.hpp``,
``reorg_yolo_shape_inference.hpp``).

The output is ``[NUM_ROIS, C, pooled_h, pooled_w]``: the number of boxes (the ROIs' first dim
merged with the batch indices'), the data's channels, and the attributes' bin counts (a
negative one is OpenVINO's ``Dimension(v)``: -1 is ``?``, others 0). Data and ROIs share one
real element type, which the output has; the batch indices are of an integer type. Messages
are OpenVINO's.
"""

from __future__ import annotations

import math

from irshape import rules
from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ops.interface import AT_DATA, Finding, OpCall, OpResult, Output
from irshape.shapes.broadcast import merge_dim
from irshape.shapes.findings import (
    axis_message,
    incompatible,
    is_real,
    normalize_axis_ov,
    rank_finding,
    type_finding,
)
from irshape.shapes.priors import merged_real_type

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


# --- ROIPooling-2 -----------------------------------------------------------------------------

FEATURES, BOXES = 0, 1
_UINT64 = 2**64


def _pooled_size(call: OpCall) -> tuple[int, ...]:
    """The pooled size as OpenVINO reads it: ``output_size``, then ``output_roi`` (each the
    whole list), then ``pooled_h`` and ``pooled_w`` (one element each), as visit_attributes
    visits them; each a size_t (-1 is 2^64 - 1)."""
    size = [0, 0]
    for name in ("output_size", "output_roi"):
        if name in call.attributes.values:
            size = list(call.attributes.int_list(name))
    for index, name in enumerate(("pooled_h", "pooled_w")):
        if name in call.attributes.values and len(size) > index:
            size[index] = int(call.attribute(name))
    return tuple(v % _UINT64 for v in size)


def _pooling_type_findings(call: OpCall) -> list[Finding]:
    data_type, rois_type = call.inputs[FEATURES].element_type, call.inputs[BOXES].element_type
    if data_type is None or rois_type is None:
        return []
    if not (is_real(data_type) and is_real(rois_type)):
        problem = f"feature maps are of element type {data_type}, rois of {rois_type}: not both real"
        message = (
            "The data type for input and ROIs is expected to be a floating point type. Got: "
            f"{data_type} and: {rois_type}"
        )
        return [type_finding(problem, message, BOXES)]
    if data_type != rois_type:
        problem = f"feature maps are of element type {data_type}, rois of {rois_type}"
        got = f"Got: {data_type} and: {rois_type}"
        message = f"Type of feature maps (inputs) and ROIs is expected to be the same. {got}"
        return [type_finding(problem, message, BOXES)]
    return []


def _pooling_shape_findings(call: OpCall) -> list[Finding]:
    features, rois = call.inputs[FEATURES].shape, call.inputs[BOXES].shape
    if features.rank not in (None, 4):
        message = f"Expected a 4D tensor for the feature maps input. Got: {features}"
        return [rank_finding(FEATURES, "input", features, "4", message)]
    if rois.dims is None:
        return []
    if len(rois.dims) != 2:
        message = f"Expected a 2D tensor for the ROIs input with box coordinates. Got: {rois}"
        return [rank_finding(BOXES, "coords", rois, "2", message)]
    if not rois.dims[1].compatible(Dim.of(5)):
        message = (
            "The second dimension of ROIs input should contain batch id and box coordinates. This "
            f"dimension is expected to be equal to 5. Got: {rois.dims[1]}"
        )
        return [incompatible(f"coords is {rois}: its second dim is not 5", message, BOXES)]
    return []


def _pooling_attribute_findings(call: OpCall, size: tuple[int, ...]) -> list[Finding]:
    if len(size) != 2:
        message = f"The dimension of pooled size is expected to be equal to 2. Got: {len(size)}"
        return [_attribute_finding(call, "output_roi", f"has {len(size)} values, not 2", message)]
    if min(size) < 1:
        message = (
            "Pooled size attributes pooled_h and pooled_w should should be positive integers. Got: "
            f"{size[0]} and: {size[1]}respectively"
        )
        return [_attribute_finding(call, "pooled_h", "is 0", message)]
    scale = float(call.attribute("spatial_scale"))
    if not (math.isfinite(scale) and scale >= _FLOAT_MIN):  # std::isnormal and not negative
        message = f"The spatial scale attribute should be a positive floating point number. Got: {scale:g}"
        return [_attribute_finding(call, "spatial_scale", "is not a positive normal number", message)]
    method = str(call.attribute("method"))
    if method not in ("max", "bilinear"):
        message = f"Pooling method attribute should be either 'max' or 'bilinear'. Got: {method}"
        return [_attribute_finding(call, "method", "is neither max nor bilinear", message)]
    return []


_FLOAT_MIN = 1.1754943508222875e-38  # FLT_MIN: the least normal float


def _attribute_finding(call: OpCall, name: str, problem: str, message: str) -> Finding:
    args = {
        "attribute": name,
        "value": call.attributes.texts.get(name, ""),
        "op": call.schema.name,
        "problem": problem,
        "ov_message": message,
    }
    return Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)


def roi_pooling(call: OpCall) -> OpResult:
    """ROIPooling-2: ``[NUM_ROIS, C, pooled_h, pooled_w]`` of the feature maps' type."""
    size = _pooled_size(call)
    findings = _pooling_type_findings(call) or _pooling_shape_findings(call)
    findings = findings or _pooling_attribute_findings(call, size)
    if findings:
        return OpResult([], findings)
    features, rois = call.inputs[FEATURES].shape, call.inputs[BOXES].shape
    num = rois.dims[0] if rois.dims is not None else DYNAMIC
    channels = features.dims[1] if features.dims is not None else DYNAMIC
    pooled = [Dim.of(v - _UINT64 if v >= 2**63 else v) for v in size]  # Dimension(int64_t(v))
    shape = PartialShape([num, channels, *pooled])
    element_type = call.inputs[FEATURES].element_type
    return OpResult([Output(shape, element_type, ["coords[0]", "input[1]", "pooled_h", "pooled_w"])])


# --- RegionYolo-1 and ReorgYolo-2 ---------------------------------------------------------------


def region_yolo(call: OpCall) -> OpResult:
    """RegionYolo-1 (``region_yolo_shape_inference.hpp``): with ``do_softmax`` the dims from
    ``axis`` to ``end_axis`` flattened into one, else the channels ``(classes + coords + 1) *
    len(mask)``; of the input's real type. A dynamic rank stays dynamic (OpenVINO's rank 1..4)."""
    data = call.inputs[0]
    if data.element_type is not None and data.element_type != "dynamic" and not is_real(data.element_type):
        message = f"Type of input is expected to be a floating point type. Got: {data.element_type}"
        return OpResult([], [type_finding(f"input is of element type {data.element_type}", message, 0)])
    if data.shape.dims is None:
        return OpResult([Output(PartialShape(None), data.element_type)])
    dims = list(data.shape.dims)
    if len(dims) != 4:
        message = f"Input must be a tensor of rank 4, but got {len(dims)}"
        return OpResult([], [rank_finding(0, "input", data.shape, "4", message)])
    if not call.attribute("do_softmax"):
        per_box = int(call.attribute("classes")) + int(call.attribute("coords")) + 1
        dims[1] = Dim.of(per_box * len(call.attributes.int_list("mask")))
        return OpResult(
            [Output(PartialShape(dims), data.element_type, ["", "(classes + coords + 1) * len(mask)"])]
        )
    axes = []
    for name in ("axis", "end_axis"):
        value = int(call.attribute(name))
        axis = normalize_axis_ov(value, 4)
        if axis is None:
            problem = "is outside [-4, 3]"
            finding = _attribute_finding(call, name, problem, axis_message(value, 4))
            return OpResult([], [finding])
        axes.append(axis)
    axis, end_axis = axes
    flat = dims[axis]
    for dim in dims[axis + 1 : end_axis + 1]:
        flat = flat * dim
    shape = PartialShape([*dims[:axis], flat, *dims[max(axis, end_axis) + 1 :]])
    return OpResult([Output(shape, data.element_type)])


def reorg_yolo(call: OpCall) -> OpResult:
    """ReorgYolo-2 (``reorg_yolo_shape_inference.hpp``): ``[N, C * s^2, H / s, W / s]`` for the
    first stride ``s``; H and W must be divisible by it (an interval keeps the values that are)."""
    data = call.inputs[0]
    strides = call.attributes.int_list("stride")
    if not strides:
        return OpResult([], [_attribute_finding(call, "stride", "is empty", "Stride attribute is required.")])
    stride = strides[0]
    if stride < 0:
        message = "divisor must be greater than 0"
        return OpResult([], [_attribute_finding(call, "stride", "is negative", message)])
    if data.shape.dims is None:
        return OpResult([Output(PartialShape(None), data.element_type)])
    dims = data.shape.dims
    message = ""
    if len(dims) != 4:
        message = "[N, C, H, W] input shape is required."
    elif dims[1].is_static and dims[1].lo < stride * stride:
        message = "For [N, C, H, W] input shape, C >= (stride*stride) is required."
    if message:
        return OpResult([], [incompatible(f"input is {data.shape}", message, 0)])
    spatial = [Dim.of(0) if stride == 0 else dim.divide_exact(stride) for dim in dims[2:]]
    if any(dim.is_empty for dim in spatial):
        message = "For [N, C, H, W] input shape, H and W should be divisible by stride."
        return OpResult([], [incompatible(f"input is {data.shape}: not divisible by {stride}", message, 0)])
    shape = PartialShape([dims[0], dims[1] * (stride * stride), *spatial])
    formulas = ["", f"C * {stride}^2", f"H / {stride}", f"W / {stride}"]
    return OpResult([Output(shape, data.element_type, formulas)])


# --- PSROIPooling-1 ---------------------------------------------------------------------------


def _psroi_type_findings(call: OpCall) -> list[Finding]:
    for port, what in ((FEATURES, "Feature maps'"), (BOXES, "Coords'")):
        element_type = call.inputs[port].element_type
        if element_type is not None and element_type != "dynamic" and not is_real(element_type):
            message = f"{what} data type must be floating point. Got {element_type}"
            return [type_finding(f"input {port} is of element type {element_type}", message, port)]
    return []


def _psroi_attribute_findings(call: OpCall) -> list[Finding]:
    mode = str(call.attribute("mode"))
    checks = [
        ("mode", mode not in ("average", "bilinear"), f"Expected 'average' or 'bilinear' mode. Got {mode}"),
        (
            "group_size",
            int(call.attribute("group_size")) % _UINT64 == 0,
            "group_size has to be greater than 0",
        ),
    ]
    if mode == "bilinear":
        for name in ("spatial_bins_x", "spatial_bins_y"):
            checks.append((name, int(call.attribute(name)) <= 0, f"{name} has to be greater than 0"))
    scale = float(call.attribute("spatial_scale"))
    message = f"The spatial scale attribute should be a positive floating point number. Got: {scale:g}"
    checks.append(("spatial_scale", not (math.isfinite(scale) and scale >= _FLOAT_MIN), message))
    for name, failed, message in checks:
        if failed:
            return [_attribute_finding(call, name, "is out of range", message)]
    return []


def _psroi_channel_findings(call: OpCall) -> list[Finding]:
    features = call.inputs[FEATURES].shape
    if features.dims is None or len(features.dims) != 4:
        return []
    output_dim = int(call.attribute("output_dim")) % _UINT64
    if str(call.attribute("mode")) == "average":
        area, names = (int(call.attribute("group_size")) % _UINT64) ** 2, "group_size * group_size"
    else:
        area = int(call.attribute("spatial_bins_x")) * int(call.attribute("spatial_bins_y"))
        names = "spatial_bins_x * spatial_bins_y"
    expected = (area * output_dim) % _UINT64
    if features.dims[1].compatible(Dim.of(expected)):
        return []
    message = f"Number of input's channels must be a multiply of output_dim * {names}"
    return [incompatible(f"input has {features.dims[1]} channels, not {expected}", message, FEATURES)]


def psroi_pooling(call: OpCall) -> OpResult:
    """PSROIPooling-1 (``psroi_pooling_shape_inference.hpp``): ``[NUM_ROIS, output_dim,
    group_size, group_size]`` of the feature maps' type."""
    findings = _psroi_type_findings(call) or _psroi_attribute_findings(call)
    findings = findings or _pooling_shape_findings(call) or _psroi_channel_findings(call)
    if findings:
        return OpResult([], findings)
    rois = call.inputs[BOXES].shape
    num = rois.dims[0] if rois.dims is not None else DYNAMIC
    group = Dim.of(_as_int64(int(call.attribute("group_size"))))
    shape = PartialShape([num, Dim.of(_as_int64(int(call.attribute("output_dim")))), group, group])
    formulas = ["coords[0]", "output_dim", "group_size", "group_size"]
    return OpResult([Output(shape, call.inputs[FEATURES].element_type, formulas)])


def _as_int64(value: int) -> int:
    """A size_t attribute as ``Dimension`` takes it (int64: 2^64 - 1 is -1)."""
    value %= _UINT64
    return value - _UINT64 if value >= 2**63 else value


# --- ExperimentalDetectronTopKROIs-6 --------------------------------------------------------------


def _top_rois_findings(call: OpCall) -> list[Finding]:
    rois_type, probs_type = call.inputs[0].element_type, call.inputs[1].element_type
    if rois_type is not None and probs_type is not None:
        static = {t for t in (rois_type, probs_type) if t != "dynamic"}
        if len(static) > 1 or any(not is_real(t) for t in static):
            problem = f"input_rois are of element type {rois_type}, rois_probs of {probs_type}"
            message = "ROIs and probabilities of ROIs must same floating-point type."
            return [type_finding(problem, message, 1)]
    rois, probs = call.inputs[0].shape, call.inputs[1].shape
    if rois.dims is not None:
        if len(rois.dims) != 2:
            message = f"The 'input_rois' input is expected to be a 2D. Got: {len(rois.dims)}"
            return [rank_finding(0, "input_rois", rois, "2", message)]
        if not rois.dims[1].compatible(Dim.of(4)):
            message = f"The second dimension of 'input_rois' should be 4. Got: {rois.dims[1]}"
            return [incompatible(f"input_rois is {rois}", message, 0)]
    if probs.rank not in (None, 1):
        message = f"The 'rois_probs' input is expected to be a 1D. Got: {probs.rank}"
        return [rank_finding(1, "rois_probs", probs, "1", message)]
    if rois.dims is not None and probs.dims is not None and not rois.dims[0].compatible(probs.dims[0]):
        message = (
            f"Number of rois and number of probabilities should be equal. Got: {rois.dims[0]} {probs.dims[0]}"
        )
        return [incompatible(f"input_rois is {rois}, rois_probs {probs}", message, 1)]
    return []


def top_k_rois(call: OpCall) -> OpResult:
    """ExperimentalDetectronTopKROIs-6 (``experimental_detectron_topkrois_shape_inference.hpp``):
    ``[max_rois, 4]`` of the ROIs' type."""
    findings = _top_rois_findings(call)
    if findings:
        return OpResult([], findings)
    shape = PartialShape([Dim.of(int(call.attribute("max_rois"))), 4])
    return OpResult([Output(shape, call.inputs[0].element_type, ["max_rois", "4"])])


# --- ExperimentalDetectronROIFeatureExtractor-6 ---------------------------------------------------


def _pyramid_findings(call: OpCall, channels: Dim) -> tuple[Dim, list[Finding]]:
    """Each pyramid level 4-D, of batch 1, all of one number of channels."""
    seen = False
    for port, tensor in enumerate(call.inputs[1:], start=1):
        shape = tensor.shape
        if shape.dims is None:
            continue
        if len(shape.dims) != 4:
            message = f"Rank of each element of the pyramid must be equal to 4. Got: {len(shape.dims)}"
            return channels, [rank_finding(port, f"level {port}", shape, "4", message)]
        if not shape.dims[0].compatible(Dim.of(1)):
            message = f"The first dimension of each pyramid element must be equal to 1. Got: {shape.dims[0]}"
            return channels, [incompatible(f"level {port} is {shape}", message, port)]
        merged = merge_dim(channels, shape.dims[1]) if seen else shape.dims[1]
        if merged is None:
            message = "The number of channels must be the same for all layers of the pyramid."
            return channels, [incompatible(f"level {port} is {shape}", message, port)]
        channels, seen = merged, True
    return channels, []


def roi_feature_extractor(call: OpCall) -> OpResult:
    """ExperimentalDetectronROIFeatureExtractor-6
    (``experimental_detectron_roi_feature_shape_inference.hpp``): the features
    ``[NUM_ROIS, C, output_size, output_size]`` and the ROIs ``[NUM_ROIS, 4]``."""
    element_type, findings = merged_real_type(call)
    if findings:
        return OpResult([], findings)
    rois = call.inputs[0].shape
    num = DYNAMIC
    if rois.dims is not None:
        if len(rois.dims) != 2:
            return OpResult(
                [], [rank_finding(0, "input_rois", rois, "2", "Input rois rank must be equal to 2.")]
            )
        if not rois.dims[1].compatible(Dim.of(4)):
            message = f"The last dimension of the 'input_rois' input must be equal to 4. Got: {rois.dims[1]}"
            return OpResult([], [incompatible(f"input_rois is {rois}", message, 0)])
        num = rois.dims[0]
    channels, findings = _pyramid_findings(call, DYNAMIC)
    if findings:
        return OpResult([], findings)
    size = Dim.of(int(call.attribute("output_size")))
    features = Output(PartialShape([num, channels, size, size]), element_type)
    return OpResult([features, Output(PartialShape([num, 4]), element_type)])


# --- DeformablePSROIPooling-1 ---------------------------------------------------------------------

_DEFORMABLE_RANKS = ((4, "First"), (2, "Second"), (4, "Third"))


def deformable_psroi_pooling(call: OpCall) -> OpResult:
    """DeformablePSROIPooling-1 (``deformable_psroi_pooling_shape_inference.hpp``):
    ``[NUM_ROIS, output_dim, group_size, group_size]`` of the data's type; no element type is
    checked (by experiment: i32 data reads)."""
    for port, tensor in enumerate(call.inputs[:3]):
        rank, ordinal = _DEFORMABLE_RANKS[port]
        if tensor.shape.rank not in (None, rank):
            message = f"{ordinal} input rank must be compatible with {rank} (input rank: {tensor.shape.rank})"
            name = call.schema.inputs[port].name
            return OpResult([], [rank_finding(port, name, tensor.shape, str(rank), message)])
    for name in ("output_dim", "group_size"):
        if int(call.attribute(name)) <= 0:
            message = f"Value of `{name}` attribute has to be greater than 0 "
            return OpResult([], [_attribute_finding(call, name, "is not positive", message)])
    rois = call.inputs[1].shape
    num = rois.dims[0] if rois.dims is not None else DYNAMIC
    group = Dim.of(int(call.attribute("group_size")))
    shape = PartialShape([num, Dim.of(int(call.attribute("output_dim"))), group, group])
    formulas = ["rois[0]", "output_dim", "group_size", "group_size"]
    return OpResult([Output(shape, call.inputs[0].element_type, formulas)])
