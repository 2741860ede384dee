"""Output shape of the forward family: Convolution-1 and GroupConvolution-1."""

from __future__ import annotations

from irshape.dims import PartialShape
from irshape.shapes.conv_arith import (
    ConvAttributes,
    Inference,
    Problem,
    forward_same_pads,
    forward_spatial,
    output_batch,
    output_channels,
    spatial_dims,
)


def infer_forward(
    kernel_layout: tuple[str, ...],
    data: PartialShape,
    kernel: PartialShape,
    attrs: ConvAttributes,
    num_spatial: int,
) -> Inference:
    problems: list[Problem] = []
    batch = output_batch(data)
    channels, channel_problems = output_channels(kernel_layout, data, kernel)
    problems += channel_problems
    dims, formulas = [batch.dim, channels.dim], [batch.formula, channels.formula]
    data_sp, kernel_sp = spatial_dims(data, num_spatial), spatial_dims(kernel, num_spatial)
    pads_begin, pads_end = list(attrs.pads_begin), list(attrs.pads_end)
    for axis in range(num_spatial):
        stride, dilation = attrs.strides[axis], attrs.dilations[axis]
        pads = (attrs.pads_begin[axis], attrs.pads_end[axis])
        out, axis_problems = forward_spatial(
            axis, data_sp[axis], kernel_sp[axis], stride, dilation, pads, attrs.auto_pad
        )
        dims.append(out.dim)
        formulas.append(out.formula)
        problems += axis_problems
        if attrs.is_same:
            upper = attrs.auto_pad == "same_upper"
            pads_begin[axis], pads_end[axis] = forward_same_pads(
                data_sp[axis], kernel_sp[axis], stride, dilation, upper
            )
        elif attrs.auto_pad == "valid":
            pads_begin[axis] = pads_end[axis] = 0
    return Inference(PartialShape(dims), formulas, tuple(pads_begin), tuple(pads_end), problems, attrs)
