"""The convolutions: Convolution-1, GroupConvolution-1 (forward), ConvolutionBackpropData-1 and
GroupConvolutionBackpropData-1 (backprop).

Like OpenVINO's ``convolution_shape_inference`` and its backprop sibling, the four share batch
and channels (:mod:`irshape.shapes.window`) and differ in the kernel layout, the spatial
formula and the backprop ops' output_shape input. All findings are returned, not only the
first OpenVINO would raise; one that makes the output shape unknowable (a wrong rank, a bad
output_shape length) stops only the inference.
"""

from __future__ import annotations

from irshape import rules
from irshape.diagnostics import Severity
from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ir import element_types
from irshape.ir.values import ListSyntaxError, parse_int_list
from irshape.ops.interface import AT_DATA, Finding, Formula, Formulas, OpCall, OpResult, Output, Tensor
from irshape.ops.schema import OpSchema, ParsedAttributes, spatial_list
from irshape.shapes import reading
from irshape.shapes.window import (
    ConvAttributes,
    ConvPlan,
    Explained,
    backprop_auto_pads,
    backprop_spatial,
    batch_and_channels,
    forward_same_pads,
    forward_spatial,
    num_spatial,
    spatial_dims,
    spatial_length_findings,
)

DATA, KERNEL, OUTPUT_SHAPE = 0, 1, 2  # input indices
_MAX_SPATIAL = 3
_LISTS = ("strides", "dilations", "pads_begin", "pads_end")
_LENGTH_MESSAGES = {
    "strides": "Strides should be defined for all and only spatial dimensions.",
    "dilations": "Dilations should be defined for all and only spatial dimensions.",
    "pads_begin": "Pads begin and end should be defined for all and only spatial dimensions.",
    "pads_end": "Pads begin and end should be defined for all and only spatial dimensions.",
    "output_padding": "Output padding should be defined for all and only spatial dimensions.",
}


def convolution(call: OpCall) -> OpResult:
    """Convolution-1 and GroupConvolution-1."""
    return _convolve(call, backprop=False)


def convolution_backprop(call: OpCall) -> OpResult:
    """ConvolutionBackpropData-1 and GroupConvolutionBackpropData-1."""
    return _convolve(call, backprop=True)


def binary_convolution(call: OpCall) -> OpResult:
    """BinaryConvolution-1: Convolution's shape with a binary (any-type) kernel; the output has
    the data's element type."""
    return _convolve(call, backprop=False, binary=True)


def _convolve(call: OpCall, backprop: bool, binary: bool = False) -> OpResult:
    schema, parsed = call.schema, call.attributes
    data, kernel = call.inputs[DATA], call.inputs[KERNEL]
    findings = [] if binary else _element_type_findings(data, kernel)
    output_spatial = None
    if len(call.inputs) > OUTPUT_SHAPE:
        no_bytes = reading.constant_failure(call.schema, OUTPUT_SHAPE, reading.OUTPUT_SHAPE)
        output_spatial = _output_spatial(call.inputs[OUTPUT_SHAPE], no_bytes, findings)

    lengths = [len(parsed.int_list(name) or _negative_values(parsed, name)) for name in _LISTS]
    n = num_spatial(data.shape, kernel.shape, schema.kernel_non_spatial, lengths, output_spatial)
    if n is None:
        why = " (data and kernel ranks unknown, no list attributes)"
        findings.append(Finding(rules.DYNAMIC_RANK_OUTPUT, {"what": "dynamic rank", "why": why}))
        element_type = element_types.merge(data.element_type, kernel.element_type)
        return OpResult([Output(PartialShape(None), element_type)], findings)
    usable = _ranks_usable(schema, parsed, data.shape, kernel.shape, n, backprop, findings)
    if output_spatial is not None and output_spatial.rank is not None and output_spatial.rank != n:
        findings.append(
            _output_shape_problem(
                f"has {output_spatial.rank} values for {n} spatial axes",
                "Output shape should be defined for all and only spatial dimensions.",
            )
        )
        usable = False
    if data.shape.rank is None or data.shape.rank in (3, 4, 5):  # else n means nothing
        findings += spatial_length_findings(schema, parsed, n, _LENGTH_MESSAGES)
    if not usable:
        if _accepted_rank_1(parsed, data.shape, backprop):
            element_type = element_types.merge(data.element_type, kernel.element_type)
            return OpResult([Output(PartialShape(None), element_type)], findings)
        return OpResult([], findings)
    attrs = _conv_attributes(schema, parsed, n)
    findings += _ignored_pads(attrs, parsed)
    if backprop:
        dims, formulas, plan, problems = _backprop(schema, data.shape, kernel.shape, attrs, n, output_spatial)
    else:
        dims, formulas, plan, problems = _forward(schema, data.shape, kernel.shape, attrs, n)
    failed = frozenset(2 + f.args["axis_index"] for f in problems if f.rule is rules.KERNEL_TOO_LARGE)
    element_type = (
        data.element_type if binary else element_types.merge(data.element_type, kernel.element_type)
    )
    output = Output(PartialShape(dims), element_type, Formulas(formulas), failed)
    return OpResult([output], findings + problems, plan)


# --- inputs -------------------------------------------------------------------------------


def _element_type_findings(data: Tensor, kernel: Tensor) -> list[Finding]:
    merged = element_types.merge(data.element_type, kernel.element_type)
    if data.element_type and kernel.element_type and merged is None:
        args = {"data": data.element_type, "kernel": kernel.element_type}
        return [Finding(rules.ELEMENT_TYPE_MISMATCH, args)]
    if merged == "boolean":
        return [Finding(rules.ELEMENT_TYPE_NOT_NUMERIC, {"element_type": merged})]
    return []


def _output_shape_problem(problem: str, ov_message: str) -> Finding:
    return Finding(rules.OUTPUT_SHAPE_INPUT, {"problem": problem, "ov_message": ov_message}, OUTPUT_SHAPE)


def _output_spatial(info: Tensor, no_bytes: str | None, findings: list[Finding]) -> PartialShape:
    """The output_shape input's value as a shape: known values, ``?`` s, or dynamic rank."""
    from irshape.shapes import bounds  # an output_shape input only: imported where used

    if not element_types.is_integral_number(info.element_type):
        findings.append(
            _output_shape_problem(
                f"has element type {info.element_type}, not an integer type",
                "Element type for output shape should be of integer type",
            )
        )
    rank = info.shape.rank
    if rank is not None and rank != 1:
        findings.append(
            _output_shape_problem(
                f"has rank {rank} {info.shape}", "Input delivering output shape must have rank 1."
            )
        )
        return PartialShape(None)
    info = reading.read(info, reading.OUTPUT_SHAPE, no_bytes)
    if info.value is not None:
        return _output_shape_value(info, info.value, findings)
    if info.value_error is not None:
        findings.append(_output_shape_problem(reading.problem(info), info.value_error))
        return PartialShape(None)
    if reading.below_zero(info):  # its bounds (evaluate_as_partial_shape), as IRS207 its value
        problem = "has bounds below zero"
        findings.append(_output_shape_problem(problem, reading.NEGATIVE_SHAPE_VALUE))
        return PartialShape(None)
    from_bounds = bounds.as_dims(info)
    if from_bounds is not None:  # a computed value known by its bounds: one interval each
        return PartialShape(from_bounds)
    if not info.value_reported:
        reason = info.value_unknown or "not a Const"
        if info.reals is not None:
            reason = f"element type {info.element_type} is not read as an integer list"
        findings.append(Finding(rules.OUTPUT_SHAPE_UNKNOWN, {"reason": reason}, OUTPUT_SHAPE))
    if rank == 1 and info.shape[0].is_static:
        length = info.shape[0].value
        if length > _MAX_SPATIAL:  # (a shape of that many dims would not fit in memory)
            findings.append(
                _output_shape_problem(
                    f"has {length} values, more than any convolution has spatial axes",
                    "Output shape should be defined for all and only spatial dimensions.",
                )
            )
            return PartialShape(None)
        return PartialShape.dynamic(length)
    return PartialShape(None)


def _output_shape_value(info: Tensor, value: tuple[int, ...], findings: list[Finding]) -> PartialShape:
    """The output_shape Const's value as OpenVINO takes it (docs/openvino-ir-reading.md §6):
    it checks the values as the type defines them for negatives (an i4 Const's signed nibbles;
    u4 and nf4 have none), then reads a 4-bit Const's bytes (``value``) as the dims, each a
    Dimension (-1 is ``?``)."""
    checked = {"i4": _nibbles(value, len(value)), "u4": [], "nf4": []}.get(info.element_type or "", value)
    if any(v < 0 for v in checked):
        findings.append(Finding(rules.OUTPUT_SHAPE_NEGATIVE, {"value": list(checked)}, OUTPUT_SHAPE))
        return PartialShape.dynamic(len(value))
    return PartialShape(Dim.of(v) for v in value)


def _nibbles(data: tuple[int, ...], count: int) -> list[int]:
    """The first ``count`` signed 4-bit values packed in ``data`` (bytes), low nibble first."""
    nibbles = [(data[i // 2] & 0xFF) >> (4 * (i % 2)) & 0xF for i in range(count)]
    return [n - 16 if n >= 8 else n for n in nibbles]


def _ranks_usable(
    schema: OpSchema,
    parsed: ParsedAttributes,
    data: PartialShape,
    kernel: PartialShape,
    n: int,
    backprop: bool,
    findings: list[Finding],
) -> bool:
    """Data rank 3/4/5 and the kernel rank that goes with it; False if the shape is unknowable."""
    if data.rank is not None and data.rank not in (3, 4, 5):
        consequence = _data_rank_consequence(parsed, data.rank, backprop)
        args = {"rank": data.rank, "shape": data, "op": schema.name, "consequence": consequence}
        if _accepted_rank_1(parsed, data, backprop):
            args["severity"] = Severity.WARNING  # OpenVINO reads it: no rejection
        findings.append(Finding(rules.DATA_RANK, args, DATA))
        return False  # the kernel rank has nothing valid to be compared with
    expected_rank = n + schema.kernel_non_spatial
    if kernel.rank is not None and kernel.rank != expected_rank:
        word = "Data" if schema.is_group and backprop else "Data batch"
        args = {
            "rank": kernel.rank,
            "kernel": kernel,
            "data": data,
            "data_rank": data.rank if data.rank is not None else "?",
            "op": schema.name,
            "expected_rank": expected_rank,
            "layout": schema.kernel_layout_text(n),
            "ov_message": f"{word} and filters rank do not match",
        }
        findings.append(Finding(rules.KERNEL_RANK, args, KERNEL))
        return False
    return True


def _accepted_rank_1(parsed: ParsedAttributes, data: PartialShape, backprop: bool) -> bool:
    """A forward convolution of rank-1 data and no list attributes: OpenVINO reads it and gives
    the output a dynamic rank (rules §3; conv2d.v11 with x of shape [3] and no <data>)."""
    return data.rank == 1 and not backprop and not any(parsed.texts.get(name) for name in _LISTS)


def _data_rank_consequence(parsed: ParsedAttributes, rank: int, backprop: bool) -> str:
    """What OpenVINO does with a data rank outside 3..5 (rules §3: ranks 0 and 1 are quirks)."""
    if rank == 0 or (rank == 1 and backprop):
        return "; OpenVINO fails with an internal error while reading the model"
    if rank == 1 and not backprop and not any(parsed.texts.get(name) for name in _LISTS):
        return "; OpenVINO accepts it and gives the output a dynamic rank"
    return "; OpenVINO rejects the layer ('Expected a 3D, 4D or 5D tensor for the input.')"


# --- attributes ---------------------------------------------------------------------------


def _conv_attributes(schema: OpSchema, parsed: ParsedAttributes, n: int) -> ConvAttributes:
    specs = schema.attributes

    def values(name: str) -> tuple[int, ...]:
        if name not in specs:
            return (0,) * n
        negative = _negative_values(parsed, name)
        return negative if len(negative) == n else spatial_list(parsed, specs[name], n)

    return ConvAttributes(
        strides=values("strides"),
        dilations=values("dilations"),
        pads_begin=values("pads_begin"),
        pads_end=values("pads_end"),
        auto_pad=parsed.enum("auto_pad", str(specs["auto_pad"].default)),
        output_padding=values("output_padding"),
    )


def _negative_values(parsed: ParsedAttributes, name: str) -> tuple[int, ...]:
    """Strides or dilations with a negative value (IRS109, so not among the parsed values):
    OpenVINO reads them all the same, as uint64, and computes with them (rules in
    docs/openvino-ir-reading.md §9). Empty when the text has no such reading (or a zero,
    which OpenVINO rejects)."""
    if name not in parsed.broken or name not in ("strides", "dilations"):
        return ()
    try:
        values = parse_int_list(parsed.texts[name]).values
    except ListSyntaxError:
        return ()
    return values if 0 not in values and any(v < 0 for v in values) else ()


def _ignored_pads(attrs: ConvAttributes, parsed: ParsedAttributes) -> list[Finding]:
    if attrs.auto_pad == "explicit" or not any(attrs.pads_begin + attrs.pads_end):
        return []
    how = "uses no padding" if attrs.auto_pad == "valid" else "computes the pads itself"
    args = {
        "begin": parsed.texts.get("pads_begin", ""),
        "end": parsed.texts.get("pads_end", ""),
        "auto_pad": attrs.auto_pad,
        "how": how,
    }
    return [Finding(rules.PADS_IGNORED, args, AT_DATA)]


# --- the output shape -----------------------------------------------------------------------

Spatial = tuple[list[Dim], list[Formula], ConvPlan, list[Finding]]  # dims, formulas, plan, problems


def _forward(
    schema: OpSchema, data: PartialShape, kernel: PartialShape, attrs: ConvAttributes, n: int
) -> Spatial:
    dims, formulas, problems = batch_and_channels(schema.kernel_layout, data, kernel)
    spatial, spatial_formulas, plan, spatial_problems = _forward_spatial(data, kernel, attrs, n)
    return dims + spatial, formulas + spatial_formulas, plan, problems + spatial_problems


def _forward_spatial(data: PartialShape, kernel: PartialShape, attrs: ConvAttributes, n: int) -> Spatial:
    """The forward window's spatial output dims, and the pads auto_pad resolves to."""
    dims: list[Dim] = []
    formulas: list[Formula] = []
    problems: list[Finding] = []
    data_sp, kernel_sp = spatial_dims(data, n), spatial_dims(kernel, n)
    pads_begin, pads_end = list(attrs.pads_begin), list(attrs.pads_end)
    for axis in range(n):
        stride, dilation = attrs.strides[axis], attrs.dilations[axis]
        pads = (attrs.pads_begin[axis], attrs.pads_end[axis])
        out, axis_problems = forward_spatial(
            axis, data_sp[axis], kernel_sp[axis], stride, dilation, pads, attrs.auto_pad
        )
        _append(dims, formulas, problems, out, axis_problems)
        if attrs.is_same:
            upper = attrs.auto_pad == "same_upper"
            pads_begin[axis], pads_end[axis] = forward_same_pads(
                data_sp[axis], kernel_sp[axis], stride, dilation, upper
            )
        elif attrs.auto_pad == "valid":
            pads_begin[axis] = pads_end[axis] = 0
    return dims, formulas, ConvPlan(attrs, tuple(pads_begin), tuple(pads_end)), problems


def _backprop(
    schema: OpSchema,
    data: PartialShape,
    kernel: PartialShape,
    attrs: ConvAttributes,
    n: int,
    output_spatial: PartialShape | None,
) -> Spatial:
    """``output_spatial`` is the output_shape input's value (None when there is no such input).

    A value of unknown length is a shape of dynamic rank; values not known are ``?`` dims.
    """
    dims, formulas, problems = batch_and_channels(schema.kernel_layout, data, kernel)
    data_sp, kernel_sp = spatial_dims(data, n), spatial_dims(kernel, n)
    explicit = attrs.auto_pad == "explicit"
    pads_begin = list(attrs.pads_begin) if explicit else [0] * n
    pads_end = list(attrs.pads_end) if explicit else [0] * n
    if output_spatial is None:
        for axis in range(n):
            pads = (pads_begin[axis], pads_end[axis])
            out, axis_problems = backprop_spatial(
                axis,
                data_sp[axis],
                kernel_sp[axis],
                attrs.strides[axis],
                attrs.dilations[axis],
                pads,
                attrs.output_padding[axis],
            )
            _append(dims, formulas, problems, out, axis_problems)
    elif output_spatial.dims is None:
        # OpenVINO appends no spatial dims at all: the output has rank 2 (rules §1.2).
        why = " because the output_shape input has a dynamic length"
        problems.append(Finding(rules.DYNAMIC_RANK_OUTPUT, {"what": "rank 2 (no spatial dims)", "why": why}))
        if attrs.is_same and data.rank is not None and kernel.rank is not None:
            problems += _same_pads_of_no_length(attrs, data_sp, kernel_sp, n)
    else:
        dims += output_spatial.dims
        formulas += [f"output_shape[{axis}]" for axis in range(n)]
        if attrs.is_same and data.rank is not None and kernel.rank is not None:
            upper = attrs.auto_pad == "same_upper"
            for axis in range(n):
                auto = backprop_auto_pads(
                    data_sp[axis],
                    kernel_sp[axis],
                    output_spatial[axis],
                    attrs.strides[axis],
                    attrs.dilations[axis],
                    attrs.output_padding[axis],
                    upper,
                )
                if auto is None:
                    problems.append(_dilation_overflow(schema, attrs.dilations))
                    break
                pads_begin[axis], pads_end[axis] = auto
    return dims, formulas, ConvPlan(attrs, tuple(pads_begin), tuple(pads_end)), problems


def _same_pads_of_no_length(
    attrs: ConvAttributes, data_sp: list[Dim], kernel_sp: list[Dim], n: int
) -> list[Finding]:
    """same_upper/same_lower pads of an output_shape of unknown length: OpenVINO takes output
    spatial dim i of a shape of dynamic rank wherever data and kernel dim i are static, and
    fails (``apply_auto_pad`` in convolution_backprop_shape_inference_util.hpp; by experiment,
    an output_shape Parameter of ``?``, ``1..3`` or dynamic rank fails, ``2..2`` reads)."""
    axes = [axis for axis in range(n) if data_sp[axis].is_static and kernel_sp[axis].is_static]
    if not axes:
        return []
    problem = (
        f"has a dynamic length, and auto_pad {attrs.auto_pad} reads its value for spatial axis "
        f"{axes[0]}, whose data and kernel dims are static"
    )
    return [_output_shape_problem(problem, "Accessing out-of-range dimension")]


def _dilation_overflow(schema: OpSchema, dilations: tuple[int, ...]) -> Finding:
    args = {
        "attribute": "dilations",
        "value": ",".join(map(str, dilations)),
        "op": schema.name,
        "problem": "dilates the kernel past any length OpenVINO can compute same_* pads for",
        "ov_message": "Cannot get length of dynamic dimension",
    }
    return Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)


def _append(
    dims: list[Dim], formulas: list[Formula], problems: list[Finding], out: Explained, more: list[Finding]
) -> None:
    dims.append(out.dim)
    formulas.append(out.formula)
    problems += more


# --- DeformableConvolution-1 and -8 -------------------------------------------------------------

OFFSETS, FILTERS, MASK = 1, 2, 3
_DEFORMABLE_NAMES = ("Input", "Offsets", "Filters", "Mask")


def deformable_convolution(call: OpCall) -> OpResult:
    """DeformableConvolution-1 and -8 (with its optional mask): a 2D convolution whose
    sampling points move by the offsets; the offsets' (and mask's) spatial dims must be the
    output's."""
    from irshape.shapes.findings import incompatible  # a rare op: imported where used

    schema, parsed, inputs = call.schema, call.attributes, call.inputs
    data, offsets, filters = inputs[DATA].shape, inputs[OFFSETS].shape, inputs[FILTERS].shape
    mask = inputs[MASK].shape if len(inputs) > MASK else None
    findings = _deformable_ranks(inputs)
    group, deformable_group = int(call.attribute("group")), int(call.attribute("deformable_group"))
    for name, value in (("group", group), ("deformable group", deformable_group)):
        if value < 1:
            message = f"Attribute '{name}' must be any value starting from 1. Got: {value}"
            args = {"attribute": name.replace(" ", "_"), "value": str(value), "op": schema.name}
            findings.append(
                Finding(
                    rules.ATTRIBUTE_VALUE, {**args, "problem": "is below 1", "ov_message": message}, AT_DATA
                )
            )
    if findings:
        return OpResult([], findings)
    if data.rank is None and filters.rank is None and offsets.rank is None:  # no spatial count to be had
        element_type = element_types.merge(inputs[DATA].element_type, inputs[FILTERS].element_type)
        return OpResult([Output(PartialShape(None), element_type)])
    n = 2
    findings += spatial_length_findings(schema, parsed, n, _LENGTH_MESSAGES)
    attrs = _conv_attributes(schema, parsed, n)
    findings += _ignored_pads(attrs, parsed)
    data_dims = data.dims or (DYNAMIC,) * 4
    batch = data_dims[0] if data.dims is not None else DYNAMIC
    findings += _divisible(data_dims[1], group, "Input", "group") if data.dims is not None else []
    if offsets.dims is not None:
        if filters.dims is not None:
            wanted = filters.dims[2] * filters.dims[3] * (2 * deformable_group)
            if not offsets.dims[1].compatible(wanted):
                message = (
                    "The channels dimension of offsets input is not compatible with filters and "
                    f"'deformable group' attribute. Offsets input shape: {offsets}, deformable 'group' "
                    f"attribute value: {deformable_group}, filters shape: {filters}"
                )
                findings.append(
                    incompatible(f"offsets channels {offsets.dims[1]} are not {wanted}", message, OFFSETS)
                )
        findings += _divisible(offsets.dims[1], deformable_group, "Offsets", "deformable group")
        merged = batch & offsets.dims[0]
        if merged.is_empty:
            message = (
                f"Data batch and offsets batch dimension must be same value. Got: {batch} and {data_dims[0]}"
            )
            findings.append(
                incompatible(
                    f"data batch {batch} and offsets batch {offsets.dims[0]} differ", message, OFFSETS
                )
            )
        else:
            batch = merged
    channels = DYNAMIC
    if filters.dims is not None:
        findings += _divisible(filters.dims[0], group, "Filters", "group")
        wanted_in = filters.dims[1] * group
        if data.dims is not None and not data_dims[1].compatible(wanted_in):
            channel_args = {
                "data_channels": data_dims[1],
                "kernel_channels": wanted_in,
                "kernel_axis": "(axis 1)",
            }
            findings.append(Finding(rules.CHANNEL_MISMATCH, channel_args))
        channels = filters.dims[0]
    if mask is not None and mask.dims is not None and filters.dims is not None:
        wanted = filters.dims[2] * filters.dims[3] * deformable_group
        if not mask.dims[1].compatible(wanted):
            message = (
                "The channels dimension of mask input is not compatible with filters and 'deformable group' "
                f"attribute. Mask input shape: {mask}, deformable 'group' attribute value: "
                f"{deformable_group}, filters shape: {filters}"
            )
            findings.append(incompatible(f"mask channels {mask.dims[1]} are not {wanted}", message, MASK))
    if findings:
        return OpResult([], findings)
    spatial, formulas, plan, problems = _forward_spatial(data, filters, attrs, n)
    for other, index, what in ((offsets, OFFSETS, "offsets"), (mask, MASK, "mask")):
        if (
            other is not None
            and other.dims is not None
            and not all(d.compatible(o) for d, o in zip(spatial, other.dims[2:], strict=True))
        ):
            message = f"Spatial dimensions of {what} and output must be compatible."
            problems.append(
                incompatible(
                    f"the {what}' spatial dims {list(map(str, other.dims[2:]))} are not the output's",
                    message,
                    index,
                )
            )
    failed = frozenset(2 + f.args["axis_index"] for f in problems if f.rule is rules.KERNEL_TOO_LARGE)
    element_type = element_types.merge(inputs[DATA].element_type, inputs[FILTERS].element_type)
    output = Output(
        PartialShape([batch, channels, *spatial]),
        element_type,
        Formulas(["data[0] (N)", "filters[0] (C_OUT)", *formulas]),
        failed,
    )
    return OpResult([output], problems, plan)


def _deformable_ranks(inputs: tuple[Tensor, ...]) -> list[Finding]:
    from irshape.shapes.findings import rank_finding  # a rare op: imported where used

    return [
        rank_finding(
            index,
            _DEFORMABLE_NAMES[index].lower(),
            tensor.shape,
            "where OpenVINO needs rank 4",
            f"{_DEFORMABLE_NAMES[index]} must be of rank 4. Got: {tensor.shape.rank}",
        )
        for index, tensor in enumerate(inputs)
        if tensor.shape.rank is not None and tensor.shape.rank != 4
    ]


def _divisible(dim: Dim, group: int, name: str, attribute: str) -> list[Finding]:
    if group <= 1 or not dim.divide_exact(group).is_empty:
        return []
    from irshape.shapes.findings import incompatible  # findings: imported where one is made

    message = f"{name} channels dimension ({dim}) must be evenly divisible by the '{attribute}': {group}"
    return [
        incompatible(
            f"{name.lower()} channels {dim} are not a multiple of {attribute} {group}", message, None
        )
    ]
