"""Check one convolution-family layer: inputs, attributes, inferred shape, declared dims.

All findings are reported, not only the first OpenVINO would raise; a finding that makes the
output shape unknowable (a wrong rank, a bad output_shape length) stops only the inference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from irshape import rules
from irshape.diagnostics import Diagnostic, Location
from irshape.dims import DYNAMIC, PartialShape, static_shape
from irshape.ir import element_types
from irshape.ir.model import Layer
from irshape.record import Record
from irshape.schema import (
    OpSchema,
    ParsedAttributes,
    spatial_list,
    validate_attributes,
    validate_lengths,
)
from irshape.shapes.backprop import infer_backprop
from irshape.shapes.conv_arith import ConvAttributes, Inference, num_spatial
from irshape.shapes.forward import infer_forward

Report = Callable[[Diagnostic], None]


class TensorInfo(Record):
    """What is known of a tensor flowing into a layer."""

    __slots__ = ("element_type", "shape", "value", "value_reported", "value_unknown")
    shape: PartialShape
    element_type: str | None  # an OpenVINO element type name; None when unknown
    value: tuple[int, ...] | None  # a Const's integer value, when it could be read
    value_unknown: str | None  # why the value is not known
    value_reported: bool  # ...and that reason is already a finding of its own

    def __init__(
        self,
        shape: PartialShape,
        element_type: str | None = None,
        value: tuple[int, ...] | None = None,
        value_unknown: str | None = None,
        value_reported: bool = False,
    ) -> None:
        self.shape = shape
        self.element_type = element_type
        self.value = value
        self.value_unknown = value_unknown
        self.value_reported = value_reported


# A model repeats its convolutions: the same attributes on inputs of the same shapes. A check
# that reports nothing depends on nothing else, so its inference is kept and shared (it is
# never modified) by the layers that repeat it. Bounded: cleared when full, and only keys of
# short attribute texts.
_OUTPUT_CONSEQUENCES = frozenset({rules.DYNAMIC_RANK_OUTPUT.code, rules.OUTPUT_DIM_DYNAMIC.code})

_CLEAN: dict[tuple[Any, ...], tuple[OpSchema, Inference]] = {}
_CLEAN_MAX = 4096
_KEY_TEXT_MAX = 512  # characters of <data> attribute names and values


def check_conv_layer(
    schema: OpSchema, layer: Layer, inputs: list[TensorInfo], where: Location, report: Report
) -> Inference | None:
    """Validate ``layer`` against ``schema`` and infer its output; None if it cannot be inferred."""
    key = _memo_key(schema, layer, inputs)
    hit = _CLEAN.get(key) if key is not None else None
    if hit is not None and hit[0] is schema:
        return hit[1]
    found: list[Diagnostic] = []
    inference = _check_conv_layer(schema, layer, inputs, where, found.append)
    if any(rules.rejects(d) for d in found):
        # OpenVINO rejects the layer: what its output would be is no finding of its own.
        found = [d for d in found if d.code not in _OUTPUT_CONSEQUENCES]
        if inference is not None:
            inference.rejected = True
    for diagnostic in found:
        report(diagnostic)
    if key is not None and inference is not None and not found:
        if len(_CLEAN) >= _CLEAN_MAX:
            _CLEAN.clear()
        _CLEAN[key] = (schema, inference)
    return inference


def _memo_key(schema: OpSchema, layer: Layer, inputs: list[TensorInfo]) -> tuple[Any, ...] | None:
    """What a check depends on when it reports nothing (its location only names findings)."""
    if sum(map(len, layer.data)) + sum(map(len, layer.data.values())) > _KEY_TEXT_MAX:
        return None
    data = tuple(layer.data.items())
    tensors = tuple([(i.shape, i.element_type, i.value, i.value_unknown, i.value_reported) for i in inputs])
    return id(schema), data, tensors


def _check_conv_layer(
    schema: OpSchema, layer: Layer, inputs: list[TensorInfo], where: Location, report: Report
) -> Inference | None:
    at_data = where.at_line(layer.data_line)
    parsed = validate_attributes(schema, layer.data, at_data, report)
    lo, hi = schema.input_counts
    if not lo <= len(inputs) <= hi:
        expected_count = str(lo) if lo == hi else f"{lo} or {hi}"
        report(rules.INPUT_COUNT(where, op=schema.name, expected_count=expected_count, count=len(inputs)))
        if len(inputs) < lo:
            return None
        inputs = inputs[:hi]
    data, kernel = inputs[0], inputs[1]
    _check_element_types(data, kernel, where, report)
    output_spatial = (
        _output_spatial(inputs[2], _port_where(layer, 2, where), report) if len(inputs) > 2 else None
    )

    lengths = [len(parsed.int_list(n)) for n in ("strides", "dilations", "pads_begin", "pads_end")]
    n = num_spatial(data.shape, kernel.shape, schema.kernel_non_spatial, lengths, output_spatial)
    if n is None:
        report(
            rules.DYNAMIC_RANK_OUTPUT(
                where, what="dynamic rank", why=" (data and kernel ranks unknown, no list attributes)"
            )
        )
        return Inference(PartialShape(None))
    usable = _check_ranks(schema, layer, data.shape, kernel.shape, n, where, report)
    if output_spatial is not None and output_spatial.rank is not None and output_spatial.rank != n:
        report(
            rules.OUTPUT_SHAPE_INPUT(
                _port_where(layer, 2, where),
                problem=f"has {output_spatial.rank} values for {n} spatial axes",
                ov_message="Output shape should be defined for all and only spatial dimensions.",
            )
        )
        usable = False
    if data.shape.rank is None or data.shape.rank in (3, 4, 5):  # else n means nothing
        validate_lengths(schema, parsed, n, at_data, report)
    if not usable:
        return None
    attrs = _conv_attributes(schema, parsed, n)
    _report_ignored_pads(attrs, parsed, at_data, report)
    if schema.family == "forward":
        inference = infer_forward(schema.kernel_layout, data.shape, kernel.shape, attrs, n)
    else:
        inference = infer_backprop(schema.kernel_layout, data.shape, kernel.shape, attrs, n, output_spatial)
    for rule, args in inference.problems:
        report(rule(where, **args))
    return inference


def _port_where(layer: Layer, index: int, where: Location) -> Location:
    return where.at_line(layer.inputs[index].line) if index < len(layer.inputs) else where


def _check_element_types(data: TensorInfo, kernel: TensorInfo, where: Location, report: Report) -> None:
    merged = element_types.merge(data.element_type, kernel.element_type)
    if data.element_type and kernel.element_type and merged is None:
        report(rules.ELEMENT_TYPE_MISMATCH(where, data=data.element_type, kernel=kernel.element_type))
    elif merged == "boolean":
        report(rules.ELEMENT_TYPE_NOT_NUMERIC(where, element_type=merged))


def _output_spatial(info: TensorInfo, where: Location, report: Report) -> PartialShape | None:
    """The output_shape input's value as a shape: known values, ``?`` s, or dynamic rank."""
    if info.element_type is not None and info.element_type not in element_types.INTEGRAL:
        report(
            rules.OUTPUT_SHAPE_INPUT(
                where,
                problem=f"has element type {info.element_type}, not an integer type",
                ov_message="Element type for output shape should be of integer type",
            )
        )
    rank = info.shape.rank
    if rank is not None and rank != 1:
        report(
            rules.OUTPUT_SHAPE_INPUT(
                where,
                problem=f"has rank {rank} {info.shape}",
                ov_message="Input delivering output shape must have rank 1.",
            )
        )
        return PartialShape(None)
    if info.value is not None:
        if any(v < 0 for v in info.value):
            report(rules.OUTPUT_SHAPE_NEGATIVE(where, value=list(info.value)))
            return PartialShape.dynamic(len(info.value))
        return static_shape(info.value)
    if not info.value_reported:
        report(rules.OUTPUT_SHAPE_UNKNOWN(where, reason=info.value_unknown or "not a Const"))
    if rank == 1 and info.shape[0].is_static:
        return PartialShape.dynamic(info.shape[0].value)
    return PartialShape(None)


def _check_ranks(
    schema: OpSchema,
    layer: Layer,
    data: PartialShape,
    kernel: PartialShape,
    n: int,
    where: Location,
    report: Report,
) -> bool:
    """Data rank 3/4/5 and the kernel rank that goes with it; False if the shape is unknowable."""
    if data.rank is not None and data.rank not in (3, 4, 5):
        report(
            rules.DATA_RANK(
                _port_where(layer, 0, where),
                rank=data.rank,
                shape=data,
                op=schema.name,
                consequence=_data_rank_consequence(schema, data.rank, layer),
            )
        )
        return False  # the kernel rank has nothing valid to be compared with
    expected_rank = n + schema.kernel_non_spatial
    if kernel.rank is not None and kernel.rank != expected_rank:
        word = "Data" if schema.is_group and schema.family == "backprop" else "Data batch"
        report(
            rules.KERNEL_RANK(
                _port_where(layer, 1, where),
                rank=kernel.rank,
                kernel=kernel,
                data=data,
                data_rank=data.rank if data.rank is not None else "?",
                op=schema.name,
                expected_rank=expected_rank,
                layout=schema.kernel_layout_text(n),
                ov_message=f"{word} and filters rank do not match",
            )
        )
        return False
    return True


def _data_rank_consequence(schema: OpSchema, rank: int, layer: Layer) -> str:
    """What OpenVINO does with a data rank outside 3..5 (rules §3: ranks 0 and 1 are quirks)."""
    if rank == 0 or (rank == 1 and schema.family == "backprop"):
        return "; OpenVINO fails with an internal error while reading the model"
    lists = ("strides", "dilations", "pads_begin", "pads_end")
    if rank == 1 and not any(layer.data.get(name) for name in lists):
        return "; OpenVINO accepts it and gives the output a dynamic rank"
    return "; OpenVINO rejects the layer ('Expected a 3D, 4D or 5D tensor for the input.')"


def _conv_attributes(schema: OpSchema, parsed: ParsedAttributes, n: int) -> ConvAttributes:
    specs = schema.attributes

    def values(name: str) -> tuple[int, ...]:
        return spatial_list(parsed, specs[name], n) if name in specs else (0,) * n

    return ConvAttributes(
        strides=values("strides"),
        dilations=values("dilations"),
        pads_begin=values("pads_begin"),
        pads_end=values("pads_end"),
        auto_pad=parsed.enum("auto_pad", str(specs["auto_pad"].default)),
        output_padding=values("output_padding"),
    )


def _report_ignored_pads(
    attrs: ConvAttributes, parsed: ParsedAttributes, where: Location, report: Report
) -> None:
    if attrs.auto_pad == "explicit" or not any(attrs.pads_begin + attrs.pads_end):
        return
    how = "uses no padding" if attrs.auto_pad == "valid" else "computes the pads itself"
    report(
        rules.PADS_IGNORED(
            where,
            begin=parsed.texts.get("pads_begin", ""),
            end=parsed.texts.get("pads_end", ""),
            auto_pad=attrs.auto_pad,
            how=how,
        )
    )


def compare_declared(layer: Layer, inference: Inference, where: Location, report: Report) -> None:
    """Compare the first output port's declared dims with the inferred shape.

    Axes whose inference already failed with an error (a kernel too large for its input) are
    not compared: the error says more than a second finding about the same axis would.
    """
    inferred = inference.shape
    if not layer.outputs:
        report(rules.OUTPUT_PORT_MISSING(where, inferred=inferred))
        return
    port = layer.outputs[0]
    if inference.rejected:  # "OpenVINO will use N" would be untrue: it stops at the error
        return
    if not port.dims or inferred.dims is None:  # no <dim>s: a dynamic rank, nothing to compare
        return
    if port.dims == inferred.lengths:  # the usual case: the file says what OpenVINO computes
        return
    failed_axes = {
        2 + args["axis_index"] for rule, args in inference.problems if rule is rules.KERNEL_TOO_LARGE
    }
    if len(port.dims) != inferred.rank:
        declared_shape = PartialShape(DYNAMIC if d == -1 else d for d in port.dims)
        report(
            rules.DECLARED_RANK_MISMATCH(
                where,
                line=port.line,
                port=port.id,
                declared=str(declared_shape),
                expected=str(inferred),
                declared_rank=len(port.dims),
                inferred=inferred,
                inferred_rank=inferred.rank,
            )
        )
        return
    for axis, (declared, dim) in enumerate(zip(port.dims, inferred.dims, strict=True)):
        if declared == -1 or dim.lo <= declared <= dim.hi or dim.is_empty or axis in failed_axes:
            continue
        formula = inference.formulas[axis] if axis < len(inference.formulas) else ""
        report(
            rules.DECLARED_DIM_MISMATCH(
                where,
                line=port.dim_line(axis),
                port=port.id,
                axis=axis,
                declared=declared,
                expected=dim.to_json(),
                inferred=dim,
                arithmetic=f" = {formula}" if formula else "",
            )
        )
