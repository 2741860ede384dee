"""Output shape of the forward family: Convolution-1 and GroupConvolution-1."""

from __future__ import annotations

from irshape.dims import PartialShape
from irshape.shapes.conv_arith import (
    ConvAttributes,
    Inference,
    batch_and_channels,
    forward_same_pads,
    forward_spatial,
    spatial_dims,
)


def infer_forward(
    kernel_layout: tuple[str, ...],
    data: PartialShape,
    kernel: PartialShape,
    attrs: ConvAttributes,
    num_spatial: int,
) -> Inference:
    dims, formulas, problems = batch_and_channels(kernel_layout, data, kernel)
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
