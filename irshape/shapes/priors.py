"""Prior (anchor) box generators: PriorBox-1/8 and PriorBoxClustered-1 of SSD-like detectors,
as OpenVINO's ``prior_box_shape_inference_util.hpp`` infers them, and Mask R-CNN's
ExperimentalDetectronPriorGridGenerator-6 (:func:`prior_grid_generator`).

Both take ``output_size`` (the feature map's ``[H, W]``) and ``image_size`` (the image's), 1-D
integer tensors, most often ShapeOf -> StridedSlice/Gather of the feature map and of the
image. The output is ``[2, H * W * priors * 4]`` f32: the boxes, then their variances.
``output_size`` is read as a shape (``get_input_const_data_as_shape``): its value, else its
bounds (a ShapeOf of a ``2..5`` dim gives ``2..5``), else the second dim is ``?``. ``priors``
is the number of boxes each cell gets, from the attributes (:func:`number_of_priors`:
OpenVINO's ``PriorBox::number_of_priors``; PriorBoxClustered: the number of widths).
"""

from __future__ import annotations

import math
import struct

from irshape import rules
from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ops.interface import AT_DATA, Finding, OpCall, OpResult, Output
from irshape.shapes import bounds, reading
from irshape.shapes.findings import (
    incompatible,
    is_real,
    rank_finding,
    type_finding,
    value_finding,
    value_unknown,
)

OUTPUT_SIZE, IMAGE_SIZE = 0, 1
_INPUT_NAMES = ("output size", "image")  # OpenVINO's, in its messages


def _rank_text(rank: int | None) -> str:
    return "?" if rank is None else str(rank)


def _type_findings(call: OpCall) -> list[Finding]:
    """``is_integral_number``: any type but the real ones and boolean (dynamic passes); OpenVINO
    stops at the first input that fails."""
    for port in (OUTPUT_SIZE, IMAGE_SIZE):
        element_type = call.inputs[port].element_type
        if is_real(element_type) or element_type == "boolean":
            name = _INPUT_NAMES[port]
            problem = f"{name} is of element type {element_type}, not an integer type"
            message = f"{name} input must be an integral number, but is: {element_type}"
            return [type_finding(problem, message, port)]
    return []


def _rank_findings(call: OpCall) -> list[Finding]:
    """Both inputs 1-D (a dynamic rank passes)."""
    out_rank = call.inputs[OUTPUT_SIZE].shape.rank
    image_rank = call.inputs[IMAGE_SIZE].shape.rank
    if out_rank in (None, 1) and image_rank in (None, 1):
        return []
    message = (
        f"output size input rank {_rank_text(out_rank)} must match image shape input rank "
        f"{_rank_text(image_rank)} and both must be 1-D"
    )
    port = OUTPUT_SIZE if out_rank not in (None, 1) else IMAGE_SIZE
    name = "output_size" if port == OUTPUT_SIZE else "image_size"
    return [rank_finding(port, name, call.inputs[port].shape, "1", message)]


def _normalized_ratio(ratio: float) -> float:
    """``std::round(ratio * 1e6) / 1e6`` kept as a float (a set<float>): half away from zero."""
    if not math.isfinite(ratio):
        return ratio
    scaled = ratio * 1e6
    rounded = math.copysign(math.floor(abs(scaled) + 0.5), scaled)
    return _as_f32(rounded / 1e6)


def _as_f32(value: float) -> float:
    """A double rounded to the nearest float32 (OpenVINO keeps the attributes as floats)."""
    try:
        return float(struct.unpack("f", struct.pack("f", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def aspect_ratio_count(aspect_ratio: tuple[float, ...], flip: bool) -> int:
    """How many distinct ratios ``normalized_aspect_ratio`` gives: each ratio (and its inverse
    with ``flip``) rounded to 1e-6, and 1."""
    ratios = {1.0}
    for ratio in aspect_ratio:
        r32 = _as_f32(ratio)
        ratios.add(_normalized_ratio(r32))
        if flip:
            ratios.add(_normalized_ratio(_as_f32(1.0 / r32) if r32 != 0 else math.inf))
    return len(ratios)


def number_of_priors(call: OpCall) -> int:
    """``PriorBox::number_of_priors``: the boxes each cell gets."""
    parsed = call.attributes
    ratios = aspect_ratio_count(parsed.float_list("aspect_ratio"), bool(call.attribute("flip")))
    min_size, max_size = parsed.float_list("min_size"), parsed.float_list("max_size")
    if call.attribute("scale_all_sizes"):
        priors = ratios * len(min_size) + len(max_size)
    else:
        priors = ratios + len(min_size) - 1
    fixed_size, fixed_ratio = parsed.float_list("fixed_size"), parsed.float_list("fixed_ratio")
    if fixed_size:
        priors = ratios * len(fixed_size)
    for density in parsed.float_list("density"):
        whole = math.trunc(density) if math.isfinite(density) else 0
        extra = whole * whole - 1
        priors += (len(fixed_ratio) if fixed_ratio else ratios) * extra
    return priors


@reading.reads(OUTPUT_SIZE, how=reading.AS_SHAPE)
def prior_box(call: OpCall) -> OpResult:
    """PriorBox-1 and PriorBox-8."""
    return _priors(call, number_of_priors(call), [])


@reading.reads(OUTPUT_SIZE, how=reading.AS_SHAPE)
def prior_box_clustered(call: OpCall) -> OpResult:
    """PriorBoxClustered-1: one box per width (as many heights as widths)."""
    widths, heights = call.attributes.float_list("width"), call.attributes.float_list("height")
    findings = []
    if len(widths) != len(heights):
        args = {
            "attribute": "height",
            "value": call.attributes.texts.get("height", ""),
            "op": call.schema.name,
            "problem": f"has {len(heights)} values, width {len(widths)}",
            "ov_message": (
                f"Size of heights vector: {len(heights)} doesn't match size of widths vector: {len(widths)}"
            ),
        }
        findings.append(Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA))
    return _priors(call, len(widths), findings)


def _priors(call: OpCall, priors: int, attribute_findings: list[Finding]) -> OpResult:
    findings = _type_findings(call) + attribute_findings
    findings += [] if findings else _rank_findings(call)
    if findings:
        return OpResult([], findings)
    size = call.inputs[OUTPUT_SIZE]
    if size.value_error is not None:
        return OpResult([], value_unknown(OUTPUT_SIZE, "output_size", size, ""))
    dims = bounds.as_shape(size)
    if dims is None:
        consequence = "the output's second dim is of unknown length (?)"
        unknown = value_unknown(OUTPUT_SIZE, "output_size", size, consequence)
        return OpResult([Output(PartialShape([2, DYNAMIC]), "f32")], unknown)
    if len(dims) != 2:
        problem = f"output_size has {len(dims)} elements, not 2"
        message = f"Output size must have two elements. Got: {len(dims)}"
        return OpResult([], [value_finding(problem, message, OUTPUT_SIZE)])
    boxes = dims[0] * dims[1] * Dim.of(priors) * 4
    formula = f"{dims[0]} * {dims[1]} * {priors} priors * 4"
    return OpResult([Output(PartialShape([2, boxes]), "f32", ["2", formula])])


# --- ExperimentalDetectronPriorGridGenerator-6 --------------------------------------------------

PRIORS, FEATURE_MAP, IMAGE = 0, 1, 2


def merged_real_type(call: OpCall) -> tuple[str | None, list[Finding]]:
    """The inputs' one real type (the ExperimentalDetectron ops'): OpenVINO merges them in turn
    and names the first input that does not merge or leaves the type not real."""
    merged = "dynamic"
    for port, tensor in enumerate(call.inputs):
        element_type = tensor.element_type
        if element_type is None:
            return None, []
        if element_type != "dynamic" and merged not in ("dynamic", element_type):
            return None, [_grid_type_finding(port, element_type)]
        merged = element_type if element_type != "dynamic" else merged
        if not is_real(merged):
            return None, [_grid_type_finding(port, element_type)]
    return merged, []


def _grid_type_finding(port: int, element_type: str) -> Finding:
    message = f"Input[{port}] type '{element_type}' is not floating point or not same as others inputs."
    return type_finding(f"input {port} is of element type {element_type}", message, port)


def _grid_shape_finding(call: OpCall) -> Finding | None:
    priors, feature_map, image = (call.inputs[port].shape for port in (PRIORS, FEATURE_MAP, IMAGE))
    if priors.dims is not None:
        if len(priors.dims) != 2:
            return rank_finding(PRIORS, "priors", priors, "2", "Priors rank must be equal to 2.")
        if not priors.dims[1].compatible(Dim.of(4)):
            message = f"The last dimension of the 'priors' input must be equal to 4. Got: {priors.dims[1]}"
            return rank_finding(PRIORS, "priors", priors, "[?, 4]", message)
    if feature_map.dims is not None and len(feature_map.dims) != 4:
        return rank_finding(
            FEATURE_MAP, "feature_map", feature_map, "4", "Feature_map rank must be equal to 4."
        )
    if image.dims is not None:
        if len(image.dims) != 4:
            return rank_finding(IMAGE, "im_data", image, "4", "Im_data rank must be equal to 4.")
        if feature_map.dims is not None and not feature_map.dims[0].compatible(image.dims[0]):
            message = (
                "The first dimension of both 'feature_map' and 'im_data' must match. Feature_map: "
                f"{feature_map.dims[0]}; Im_data: {image.dims[0]}"
            )
            return incompatible(f"feature_map is {feature_map}, im_data {image}", message, IMAGE)
    return None


def prior_grid_generator(call: OpCall) -> OpResult:
    """ExperimentalDetectronPriorGridGenerator-6: every prior at every feature-map cell,
    ``[H * W * priors, 4]`` with ``flatten``, else ``[H, W, priors, 4]``
    (``experimental_detectron_prior_grid_generator_shape_inference.hpp``; the ``h`` and ``w``
    attributes do not enter the shape)."""
    element_type, findings = merged_real_type(call)
    shape_finding = None if findings else _grid_shape_finding(call)
    if findings or shape_finding is not None:
        return OpResult([], findings or [f for f in (shape_finding,) if f is not None])
    priors, feature_map = call.inputs[PRIORS].shape, call.inputs[FEATURE_MAP].shape
    count = priors.dims[0] if priors.dims is not None else DYNAMIC
    height, width = (
        (feature_map.dims[2], feature_map.dims[3]) if feature_map.dims is not None else (DYNAMIC, DYNAMIC)
    )
    if call.attribute("flatten"):
        boxes = (
            height * width * count if priors.dims is not None and feature_map.dims is not None else DYNAMIC
        )
        shape = PartialShape([boxes, 4])
    else:
        shape = PartialShape([height, width, count, 4])
    return OpResult([Output(shape, element_type)])
