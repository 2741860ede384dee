"""Pooling: MaxPool-1/8/14 and AvgPool-1/14/16 (windows over the data), AdaptiveAvgPool-8 and
AdaptiveMaxPool-8 (to the size an output_shape input holds).

Like OpenVINO's ``pooling_shape_inference_util.hpp``, the windowed ops are one function: the
declaration says which attributes a version has (dilations, exclude-pad, a second output of
indices with its axis), and the window arithmetic is the convolutions' (:mod:`irshape.shapes.window`)
with pooling's rounding (floor, ceil, ceil_torch). OpenVINO checks every list against the
kernel's length and the kernel against the data rank; empty pads and dilations mean zeros and ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from irshape import rules
from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ops.interface import AT_DATA, Finding, Formula, Formulas, OpCall, OpResult, Output, Tensor
from irshape.ops.schema import OpSchema, ParsedAttributes
from irshape.record import FrozenRecord, set_field
from irshape.shapes import bounds, reading
from irshape.shapes.findings import incompatible, index_type_findings, value_finding, value_unknown
from irshape.shapes.window import (
    SIZE_T,
    Explained,
    kernel_extent,
    padded_input,
    pooled_spatial,
    pooling_pads,
    spatial_dims,
)

DATA, OUTPUT_SHAPE = 0, 1  # input indices
NON_SPATIAL = 2  # [N, C, spatial...]
DATA_RANKS = (3, 4, 5)
# The versions whose validation knows ceil_torch ("has_torch_ceil_mode", and AvgPool-16 as
# OpenVINO 2026.4 behaves).
_TORCH_CEIL = frozenset({"MaxPool-14", "AvgPool-14", "AvgPool-16"})
_LISTS = ("kernel", "strides", "pads_begin", "pads_end", "dilations")
_RESIZED_WHEN_EMPTY = ("pads_begin", "pads_end", "dilations")  # resized to the kernel's length
_LENGTH_MESSAGES = {
    "strides": "Expected strides size to be equal to input size - 2. Got: {n}",
    "pads_begin": "Expected pads_begin size to be equal to input size - 2. Got: {n}",
    "pads_end": "Expected pads_end size to be equal to input size - 2. Got: {n}",
    "dilations": "Expected dilations size to be equal to kernel size. Got: {n}",
}
_ZERO_MESSAGES = {
    "strides": "Strides has zero dimension(s).",
    "dilations": "Kernel dilations has zero dimension(s).",
}


# --- MaxPool, AvgPool ---------------------------------------------------------------------------


class PoolPlan(FrozenRecord):
    """What a pooling layer's inference resolved for running it (``OpResult.details``, as the
    convolutions' ConvPlan): one value per spatial axis, defaults applied, auto_pad resolved into
    the pads (explicit as written, 0 for valid, same_* from the data's static dims)."""

    __slots__ = ("dilations", "kernel", "pads_begin", "pads_end", "rounding", "strides")
    kernel: tuple[int, ...]
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    rounding: str  # floor, ceil or ceil_torch

    def __init__(
        self,
        kernel: tuple[int, ...],
        strides: tuple[int, ...],
        dilations: tuple[int, ...],
        pads: list[tuple[int, int]],
        rounding: str,
    ) -> None:
        set_field(self, "kernel", kernel)
        set_field(self, "strides", strides)
        set_field(self, "dilations", dilations)
        set_field(self, "pads_begin", tuple(p[0] for p in pads))
        set_field(self, "pads_end", tuple(p[1] for p in pads))
        set_field(self, "rounding", rounding)


def pool(call: OpCall) -> OpResult:
    """MaxPool-1/8/14 and AvgPool-1/14/16."""
    schema, parsed, data = call.schema, call.attributes, call.inputs[DATA]
    kernel = parsed.int_list("kernel")
    blocking = _list_findings(schema, parsed, len(kernel)) + _rank_findings(
        schema, parsed, data.shape, kernel
    )
    findings = blocking + _rounding_findings(schema, parsed) + _axis_findings(call, data.shape)
    # A negative stride or dilation (IRS109) does not block: OpenVINO computes with it (as
    # int64, shapes/window.py), and so does irshape; a zero beside it still does.
    zero = 0 in parsed.int_list("strides") + parsed.int_list("dilations")
    if (
        zero
        or any(f.rule is not rules.NEGATIVE_STRIDE for f in blocking)
        or any(name in parsed.broken for name in _LISTS)
    ):
        return OpResult([], findings)
    findings += _batch_and_channel_findings(data.shape)
    dims, formulas, failed, plan = _pooled_shape(call, data.shape, kernel, findings)
    shape = PartialShape(dims)
    outputs = [Output(shape, data.element_type, Formulas(formulas), failed)]
    if len(schema.outputs) > 1:
        outputs.append(Output(shape, str(call.attribute("index_element_type")), Formulas(formulas), failed))
    return OpResult(outputs, findings, details=plan)


def _list_findings(schema: OpSchema, parsed: ParsedAttributes, kernel_length: int) -> list[Finding]:
    """Each list against the kernel's length; zero and negative strides and dilations. Any of
    these leaves the output unknowable."""
    findings: list[Finding] = []
    for name in ("strides", "pads_begin", "pads_end", "dilations"):
        if name not in schema.attributes:
            continue
        values = parsed.int_list(name)
        if name in parsed.broken:  # unreadable: already reported, and pool() stops
            continue
        if len(values) != kernel_length and not (name in _RESIZED_WHEN_EMPTY and not values):
            findings.append(_length_finding(parsed, name, len(values), kernel_length, _LENGTH_MESSAGES[name]))
        findings += _stride_value_findings(parsed, name, values)
    return findings


def _length_finding(parsed: ParsedAttributes, name: str, length: int, expected: int, message: str) -> Finding:
    args = {
        "attribute": name,
        "text": parsed.texts.get(name, ""),
        "length": length,
        "spatial": expected,
        "ov_message": message.format(n=length),
    }
    return Finding(rules.ATTRIBUTE_LENGTH, args, AT_DATA)


def _stride_value_findings(parsed: ParsedAttributes, name: str, values: Sequence[int]) -> list[Finding]:
    if name not in _ZERO_MESSAGES:
        return []
    text = parsed.texts.get(name, "")
    if any(v < 0 for v in values):
        unsigned = ", ".join(str(v % SIZE_T) for v in values if v < 0)
        return [
            Finding(rules.NEGATIVE_STRIDE, {"attribute": name, "text": text, "unsigned": unsigned}, AT_DATA)
        ]
    if 0 in values:
        args = {"attribute": name, "text": text, "ov_message": _ZERO_MESSAGES[name]}
        return [Finding(rules.ZERO_STRIDE, args, AT_DATA)]
    return []


def _rank_findings(
    schema: OpSchema, parsed: ParsedAttributes, data: PartialShape, kernel: Sequence[int]
) -> list[Finding]:
    """Data of rank 3, 4 or 5, and a kernel with one value per spatial axis."""
    if data.rank is None:
        return []
    if data.rank not in DATA_RANKS:
        return [_data_rank_finding(schema, data)]
    if len(kernel) != data.rank - NON_SPATIAL:
        message = "Expected kernel size to be equal to input size - 2. Got: {n}"
        return [_length_finding(parsed, "kernel", len(kernel), data.rank - NON_SPATIAL, message)]
    return []


def _data_rank_finding(schema: OpSchema, data: PartialShape) -> Finding:
    ov_message = f"Expected a 3D, 4D or 5D tensor for the input. Got: {data}"
    consequence = f"; OpenVINO rejects the layer ('{ov_message}')"
    args = {"rank": data.rank, "shape": data, "op": schema.name, "consequence": consequence}
    return Finding(rules.DATA_RANK, args, DATA)


def _rounding_findings(schema: OpSchema, parsed: ParsedAttributes) -> list[Finding]:
    if parsed.enum("rounding_type", "floor") != "ceil_torch" or schema.name in _TORCH_CEIL:
        return []
    args = {
        "attribute": "rounding_type",
        "value": parsed.texts.get("rounding_type", ""),
        "op": schema.name,
        "problem": "is not supported by this version (ceil_torch came with MaxPool-14 and AvgPool-14)",
        "ov_message": "Rounding CEIL_TORCH is not supported.",
    }
    return [Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)]


def _axis_findings(call: OpCall, data: PartialShape) -> list[Finding]:
    """MaxPool-8/14 normalise ``axis`` (where the indices count from) against the data rank."""
    if "axis" not in call.schema.attributes or data.rank is None:
        return []
    axis, rank = int(call.attribute("axis")), data.rank
    if -rank <= axis < rank:
        return []
    args = {
        "attribute": "axis",
        "value": call.attributes.texts.get("axis", str(axis)),
        "op": call.schema.name,
        "problem": f"is outside [{-rank}, {rank - 1}] for data of rank {rank}",
        "ov_message": f"Axis {axis} out of the tensor rank range [{-rank}, {rank - 1}].",
    }
    return [Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)]


def _batch_and_channel_findings(data: PartialShape) -> list[Finding]:
    if data.dims is None:
        return []
    findings = []
    for axis, (what, ov_message) in enumerate(
        (("batch", "Batch size is zero."), ("channel", "Channel count is zero."))
    ):
        if data[axis] == Dim.of(0):
            problem = f"data {data} has a {what} dim of 0"
            findings.append(incompatible(problem, ov_message, DATA))
    return findings


# --- the pooled shape ---------------------------------------------------------------------------


def _pooled_shape(
    call: OpCall, data: PartialShape, kernel: Sequence[int], findings: list[Finding]
) -> tuple[list[Dim], list[Formula], frozenset[int], PoolPlan | None]:
    """[N, C, spatial...] and the plan to run it; a data shape of dynamic rank gives every dim
    dynamic and no plan."""
    n = len(kernel)
    if data.dims is None:
        unknown: list[Formula] = ["data rank unknown"] * (NON_SPATIAL + n)
        return [DYNAMIC] * (NON_SPATIAL + n), unknown, frozenset(), None
    parsed = call.attributes
    auto_pad = parsed.enum("auto_pad", "explicit")
    rounding = parsed.enum("rounding_type", "floor")
    strides = parsed.int_list("strides")
    dilations = parsed.int_list("dilations") or (1,) * n
    pads_begin = parsed.int_list("pads_begin") or (0,) * n
    pads_end = parsed.int_list("pads_end") or (0,) * n
    exclude_pad = bool(call.attribute("exclude-pad")) if "exclude-pad" in call.schema.attributes else False
    dims: list[Dim] = [data[0], data[1]]
    formulas: list[Formula] = ["data[0] (N)", "data[1] (C)"]
    failed: set[int] = set()
    resolved: list[tuple[int, int]] = []
    for axis, data_dim in enumerate(spatial_dims(data, n)):
        if auto_pad in ("same_upper", "same_lower") and not data_dim.is_static:
            # OpenVINO cannot keep one padding for every size of the dim.
            out = Explained(DYNAMIC, ("{} padding of a dim that is not static", (auto_pad,)))
            resolved.append((0, 0))
        else:
            pads = pooling_pads(
                data_dim,
                kernel[axis],
                strides[axis],
                dilations[axis],
                (pads_begin[axis], pads_end[axis]),
                auto_pad,
            )
            resolved.append(pads)
            extent = kernel_extent(kernel[axis], dilations[axis])
            problems = _window_findings(
                call, axis, data_dim, kernel[axis], dilations[axis], pads, exclude_pad
            )
            if any(p.rule.severity is rules.ERROR for p in problems):
                failed.add(NON_SPATIAL + axis)
            findings += problems
            out = pooled_spatial(data_dim, extent, strides[axis], pads, rounding)
        dims.append(out.dim)
        formulas.append(out.formula)
    plan = PoolPlan(tuple(kernel), tuple(strides), tuple(dilations), resolved, rounding)
    return dims, formulas, frozenset(failed), plan


def _window_findings(
    call: OpCall, axis: int, data: Dim, kernel: int, dilation: int, pads: tuple[int, int], exclude_pad: bool
) -> list[Finding]:
    """What OpenVINO checks of a static dim's window: the dilated kernel fits the padded data,
    and with exclude-pad no window lies wholly in the padding (AvgPool). Negative pads, which
    OpenVINO reads as a size_t sum, are a warning wherever they do not make it reject the layer."""
    total = pads[0] + pads[1]
    findings = (
        [_negative_pads_finding(axis, total)] if total < -1 or (total == -1 and not data.is_static) else []
    )
    if not data.is_static:
        return findings
    extent = kernel_extent(kernel, dilation)
    padded = padded_input(data, pads)
    if not padded.is_static:
        return [*findings, _pads_dynamic_finding(call, pads)]
    if extent > padded.value or extent == 0:
        args = {
            "axis_index": axis,
            "dilated": extent,
            "kernel": kernel,
            "dilation": dilation,
            "padded": padded,
            "data": data,
            "pads": f"{pads[0]} + {pads[1]}",
        }
        findings.append(Finding(rules.KERNEL_TOO_LARGE, args))
    if exclude_pad and not (extent > pads[0] % SIZE_T and extent > pads[1] % SIZE_T):
        findings.append(_exclude_pad_finding(call, axis, extent, pads))
    return findings


def _negative_pads_finding(axis: int, total: int) -> Finding:
    effect = "counts them as 0" if total < -1 else "makes the padded input, and so the output dim, dynamic"
    return Finding(rules.NEGATIVE_PADS, {"total": total, "axis_index": axis, "effect": effect})


def _pads_dynamic_finding(call: OpCall, pads: tuple[int, int]) -> Finding:
    args = {
        "attribute": "pads_begin",
        "value": call.attributes.texts.get("pads_begin", ""),
        "op": call.schema.name,
        "problem": f"with pads_end makes pads that sum to -1 ({pads[0]} + {pads[1]})",
        "ov_message": "Cannot get length of dynamic dimension",
    }
    return Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)


def _exclude_pad_finding(call: OpCall, axis: int, extent: int, pads: tuple[int, int]) -> Finding:
    ov_message = (
        f"Kernel after dilation is sometimes entirely in the padding area for axis {axis} (dilated kernel "
        f"dimension: {extent}, padding below dimension: {pads[0]}, padding above dimension: {pads[1]}) "
        "and this is not allowed."
    )
    args = {
        "attribute": "exclude-pad",
        "value": call.attributes.texts.get("exclude-pad", "true"),
        "op": call.schema.name,
        "problem": f"needs a dilated kernel ({extent}) larger than each pad on spatial axis {axis} {pads}",
        "ov_message": ov_message,
    }
    return Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)


# --- AdaptiveAvgPool, AdaptiveMaxPool ---------------------------------------------------------


@reading.reads(OUTPUT_SHAPE, how=reading.AS_SHAPE)
def adaptive_pool(call: OpCall) -> OpResult:
    """AdaptiveAvgPool-8 and AdaptiveMaxPool-8: [N, C] and the output_shape input's values."""
    data, target = call.inputs[DATA], call.inputs[OUTPUT_SHAPE]
    findings = (
        index_type_findings(call, "index_element_type", "Index element type must be i32 or i64")
        if "index_element_type" in call.schema.attributes
        else []
    )
    if data.shape.rank is not None and data.shape.rank not in DATA_RANKS:
        return OpResult([], [*findings, _data_rank_finding(call.schema, data.shape)])
    if data.shape.dims is None:
        shape = PartialShape(None)
        formulas: list[str] = []
    else:
        spatial = _adaptive_spatial(call.schema, len(data.shape.dims) - NON_SPATIAL, target, findings)
        if spatial is None:
            return OpResult([], findings)
        shape = PartialShape([data.shape[0], data.shape[1], *spatial])
        formulas = ["data[0] (N)", "data[1] (C)"] + [f"output_shape[{i}]" for i in range(len(spatial))]
    outputs = [Output(shape, data.element_type, formulas)]
    if len(call.schema.outputs) > 1:
        outputs.append(Output(shape, str(call.attribute("index_element_type")), formulas))
    return OpResult(outputs, findings)


def _adaptive_spatial(schema: OpSchema, n: int, target: Tensor, findings: list[Finding]) -> list[Dim] | None:
    """The output's spatial dims from output_shape: its values (-1 is ``?``, other negatives
    0, as ``Dimension`` reads them), or ``?`` each when they are not known; None when OpenVINO
    rejects the input."""
    shape = target.shape
    if shape.rank == 0:
        findings.append(_target_rank_finding(schema, shape))
        return None
    if shape.dims is not None and not shape[0].compatible(Dim.of(n)):
        problem = f"output_shape {shape} does not hold one value for each of the data's {n} spatial axes"
        ov_message = "Output shape for spatial dimension not compatible with data shape."
        findings.append(incompatible(problem, ov_message, OUTPUT_SHAPE))
        return None
    # get_input_const_data_as_shape: the value, or Dimension(lower, upper) from its bounds
    dims = bounds.as_shape(target)
    if dims is not None:
        if len(dims) != n:
            problem = f"output_shape holds {len(dims)} values for {n} spatial axes"
            ov_message = "Number of spatial dimensions is not compatible with input data rank"
            findings.append(value_finding(problem, ov_message, OUTPUT_SHAPE))
            return None
        return dims
    consequence = "the output's spatial dims are left unknown (?)"
    findings += value_unknown(OUTPUT_SHAPE, "output_shape", target, consequence, "not a Const")
    return [DYNAMIC] * n


def _target_rank_finding(schema: OpSchema, shape: PartialShape) -> Finding:
    args = {
        "port": OUTPUT_SHAPE,
        "input": "output_shape",
        "rank": shape.rank,
        "shape": shape,
        "expected": f"{schema.name} takes a 1D output_shape",
        "ov_message": "Accessing out-of-range dimension",
    }
    return Finding(rules.INPUT_RANK, args, OUTPUT_SHAPE)
