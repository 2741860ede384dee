"""Output shape of the backprop family: ConvolutionBackpropData-1, GroupConvolutionBackpropData-1.

Like OpenVINO's ``convolution_backprop_shape_inference``, it reuses the forward helpers for
batch and channels and differs only in the spatial formula and the output_shape input.
"""

from __future__ import annotations

from irshape import rules
from irshape.dims import PartialShape
from irshape.shapes.conv_arith import (
    ConvAttributes,
    Inference,
    backprop_auto_pads,
    backprop_spatial,
    batch_and_channels,
    spatial_dims,
)


def infer_backprop(
    kernel_layout: tuple[str, ...],
    data: PartialShape,
    kernel: PartialShape,
    attrs: ConvAttributes,
    num_spatial: int,
    output_spatial: PartialShape | None = None,
) -> Inference:
    """``output_spatial`` is the output_shape input's value (None when there is no such input).

    A value of unknown length is a shape of dynamic rank; values not known are ``?`` dims.
    """
    dims, formulas, problems = batch_and_channels(kernel_layout, data, kernel)
    data_sp, kernel_sp = spatial_dims(data, num_spatial), spatial_dims(kernel, num_spatial)
    explicit = attrs.auto_pad == "explicit"
    pads_begin = list(attrs.pads_begin) if explicit else [0] * num_spatial
    pads_end = list(attrs.pads_end) if explicit else [0] * num_spatial

    if output_spatial is None:
        for axis in range(num_spatial):
            out, axis_problems = backprop_spatial(
                axis,
                data_sp[axis],
                kernel_sp[axis],
                attrs.strides[axis],
                attrs.dilations[axis],
                (pads_begin[axis], pads_end[axis]),
                attrs.output_padding[axis],
            )
            dims.append(out.dim)
            formulas.append(out.formula)
            problems += axis_problems
    elif output_spatial.dims is None:
        # OpenVINO appends no spatial dims at all: the output has rank 2 (rules §1.2).
        problems.append(
            (
                rules.DYNAMIC_RANK_OUTPUT,
                {
                    "what": "rank 2 (no spatial dims)",
                    "why": " because the output_shape input has a dynamic length",
                },
            )
        )
    else:
        dims += output_spatial.dims
        formulas += [f"output_shape[{axis}]" for axis in range(num_spatial)]
        if attrs.is_same and data.rank is not None and kernel.rank is not None:
            upper = attrs.auto_pad == "same_upper"
            for axis in range(num_spatial):
                pads_begin[axis], pads_end[axis] = backprop_auto_pads(
                    data_sp[axis],
                    kernel_sp[axis],
                    output_spatial[axis],
                    attrs.strides[axis],
                    attrs.dilations[axis],
                    attrs.output_padding[axis],
                    upper,
                )
    return Inference(PartialShape(dims), formulas, tuple(pads_begin), tuple(pads_end), problems, attrs)
