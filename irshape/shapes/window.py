"""Window arithmetic shared by the convolutions and pooling, as OpenVINO's shape inference does it.

Mirrors ``convolution_shape_inference_util.hpp``, its backprop sibling and
``pooling_shape_inference_util.hpp``: the forward and backprop convolutions reuse the same
helpers and differ only in the kernel layout; pooling shares the padding and the windowed
spatial formula. Each spatial result carries the formula that produced it, for messages like
``inferred 447 = 2*(224-1) + (3-1)*1+1 - 1 - 1 + 0``, as a template and its values
(:data:`~irshape.ops.interface.Formula`): it is written out only when a finding quotes it.
"""

from __future__ import annotations

from irshape import rules
from irshape.dims import DYNAMIC, INF, Dim, PartialShape, int64, trunc_div
from irshape.ops.interface import AT_DATA, Finding, Formula
from irshape.ops.schema import OpSchema, ParsedAttributes
from irshape.record import FrozenRecord, set_field

DATA_NON_SPATIAL = 2  # [N, C, spatial...]


class ConvAttributes(FrozenRecord):
    """The attributes with their defaults applied, one value per spatial axis."""

    __slots__ = ("auto_pad", "dilations", "output_padding", "pads_begin", "pads_end", "strides")
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    auto_pad: str
    output_padding: tuple[int, ...]

    def __init__(
        self,
        strides: tuple[int, ...],
        dilations: tuple[int, ...],
        pads_begin: tuple[int, ...],
        pads_end: tuple[int, ...],
        auto_pad: str = "explicit",
        output_padding: tuple[int, ...] = (),
    ) -> None:
        set_field(self, "strides", strides)
        set_field(self, "dilations", dilations)
        set_field(self, "pads_begin", pads_begin)
        set_field(self, "pads_end", pads_end)
        set_field(self, "auto_pad", auto_pad)
        set_field(self, "output_padding", output_padding)

    @property
    def is_same(self) -> bool:
        return self.auto_pad in ("same_upper", "same_lower")


class ConvPlan(FrozenRecord):
    """What a convolution's inference resolved for running it: attributes and pads as OpenVINO
    uses them (auto_pad applied)."""

    __slots__ = ("attributes", "pads_begin", "pads_end")
    attributes: ConvAttributes
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]

    def __init__(
        self, attributes: ConvAttributes, pads_begin: tuple[int, ...], pads_end: tuple[int, ...]
    ) -> None:
        set_field(self, "attributes", attributes)
        set_field(self, "pads_begin", pads_begin)
        set_field(self, "pads_end", pads_end)


class Explained(FrozenRecord):
    __slots__ = ("dim", "formula")
    dim: Dim
    formula: Formula

    def __init__(self, dim: Dim, formula: Formula) -> None:
        set_field(self, "dim", dim)
        set_field(self, "formula", formula)


def num_spatial(
    data: PartialShape,
    kernel: PartialShape,
    kernel_non_spatial: int,
    attribute_lengths: list[int],
    output_spatial: PartialShape | None = None,
) -> int | None:
    """The number of spatial axes, from the first source OpenVINO can read it from (rules §1.3)."""
    if data.rank is not None:
        return data.rank - DATA_NON_SPATIAL
    if kernel.rank is not None and kernel.rank >= kernel_non_spatial:
        return kernel.rank - kernel_non_spatial
    if output_spatial is not None and output_spatial.rank:
        return output_spatial.rank
    return next((n for n in attribute_lengths if n), None)


def spatial_dims(shape: PartialShape, count: int) -> list[Dim]:
    """The last ``count`` dims of ``shape``; all dynamic for a shape of dynamic rank."""
    if shape.dims is None:
        return [DYNAMIC] * count
    return list(shape.dims[len(shape.dims) - count :])


# --- forward convolution ------------------------------------------------------------------


def forward_spatial(
    axis: int, data: Dim, kernel: Dim, stride: int, dilation: int, pads: tuple[int, int], auto_pad: str
) -> tuple[Explained, list[Finding]]:
    """One output spatial dim of Convolution / GroupConvolution (rules §1.1).

    As OpenVINO computes it: the stride and dilation are the int64 values written (OpenVINO
    keeps them as uint64, then divides and multiplies by them as int64 dimension values, so -1
    is a dynamic dim and any other negative 0), and the pad sum is an int64 sum that wraps
    (docs/openvino-ir-reading.md §9).
    """
    if auto_pad in ("same_upper", "same_lower"):
        return Explained(data.ceil_div(stride), ("ceil({} / {})", (data, stride))), []
    pad_begin, pad_end = pads if auto_pad == "explicit" else (0, 0)
    formula = (_FORWARD, (data, pad_begin, pad_end, kernel, dilation, stride))
    total = int64(pad_begin + pad_end)
    extent = _static_extent(kernel, dilation)
    if (
        extent is not None
        and data.lo == data.hi < _SMALL
        and 0 <= total < _SMALL
        and 0 < stride < _SMALL
        and extent <= data.lo + total  # (else IRS105 below, which quotes the dims)
    ):  # the usual axis: see _SMALL
        return Explained(Dim.of((data.lo + total - extent) // stride + 1), formula), []
    problems: list[Finding] = []
    if total < 0:
        effect = (
            "makes the padded input dynamic, so the output dim is an interval"
            if total == -1
            else "ignores them (a negative sum below -1 counts as 0)"
        )
        problems.append(Finding(rules.NEGATIVE_PADS, {"total": total, "axis_index": axis, "effect": effect}))
    padded = data + Dim.of(total)  # OpenVINO adds the pads as a Dimension: -1 -> ?, < -1 -> 0
    dilated = kernel.dilated(dilation)
    if padded.is_static and dilated.is_static and dilated.value > padded.value:
        problems.append(
            Finding(
                rules.KERNEL_TOO_LARGE,
                {
                    "axis_index": axis,
                    "dilated": dilated,
                    "kernel": kernel,
                    "dilation": dilation,
                    "padded": padded,
                    "data": data,
                    "pads": f"{pad_begin} + {pad_end}",
                },
            )
        )
    out = (padded - dilated).floor_div(stride) + 1
    return Explained(out, formula), problems


# Static dims, strides, dilations and pads below this: each bound, sum and product stays far
# from INF (2**63 - 1) and is not clipped, so the window's interval arithmetic is the integers'
# (as OpenVINO's static shape inference computes the usual layer, on plain sizes). The usual
# axis is computed so: a dozen Dims fewer, each made and clipped.
_SMALL = 2**31


def _static_extent(kernel: Dim, dilation: int) -> int | None:
    """``kernel.dilated(dilation)``'s length for a static kernel and a dilation below _SMALL
    (``(K - 1) * d + 1``, K - 1 clipped at 0 as the interval's); None otherwise."""
    if kernel.lo == kernel.hi < _SMALL and 0 < dilation < _SMALL:
        return max(kernel.lo - 1, 0) * dilation + 1
    return None


_FORWARD = "floor(({} + {} + {} - (({}-1)*{}+1)) / {}) + 1"
_BACKPROP = "{}*({}-1) + ({}-1)*{}+1 - {} - {} + {}"


def forward_same_pads(data: Dim, kernel: Dim, stride: int, dilation: int, upper: bool) -> tuple[int, int]:
    """The pads same_upper/same_lower use (``dim::padding``, in int64 that wraps); 0 where a
    dim is not static."""
    if not (data.is_static and kernel.is_static) or stride == 0:
        return 0, 0
    size, stride, dilation = data.value, int64(stride), int64(dilation)
    k = int64(kernel.value)
    # dim::dilated on plain integers: a kernel below 1 gives the "infinite" bound -1.
    dilated = int64((k - 1) * dilation + 1) if k >= 1 else -1
    out = trunc_div(int64(size + stride - 1), stride)
    total = max(0, int64((out - 1) * stride + dilated - size))
    small, big = total // 2, total - total // 2
    return (small, big) if upper else (big, small)


# --- backprop (transposed) convolution ----------------------------------------------------


def backprop_spatial(
    axis: int, data: Dim, kernel: Dim, stride: int, dilation: int, pads: tuple[int, int], output_padding: int
) -> tuple[Explained, list[Finding]]:
    """One output spatial dim of the backprop ops without an output_shape input (rules §1.2)."""
    pad_begin, pad_end = pads
    pad = int64(output_padding - pad_begin - pad_end)
    formula = (_BACKPROP, (stride, data, kernel, dilation, pad_begin, pad_end, output_padding))
    extent = _static_extent(kernel, dilation)
    length: int | None  # the length before the pads, when it is static
    if extent is not None and data.lo == data.hi < _SMALL and 0 < stride < _SMALL:
        length = max(data.lo - 1, 0) * stride + extent  # the usual axis: see _SMALL
        padded = int64(length + pad)
        out = Dim.of(padded) if padded >= 0 else DYNAMIC  # (Dim.padded, on a static dim)
    else:
        full = (data - 1) * stride + kernel.dilated(dilation)
        length = full.value if full.is_static else None
        out = full.padded(pad)
    problems: list[Finding] = []
    if length is not None and int64(length + pad) < 0:
        value = int64(length + pad)
        text = _BACKPROP.format(*formula[1])
        problems.append(
            Finding(rules.OUTPUT_DIM_DYNAMIC, {"axis_index": axis, "formula": text, "value": value})
        )
    return Explained(out, formula), problems


def backprop_auto_pads(
    data: Dim, kernel: Dim, out: Dim, stride: int, dilation: int, output_padding: int, upper: bool
) -> tuple[int, int] | None:
    """same_* pads from an output_shape value; clamped at 0, extra pad at the BEGIN for upper.
    None when the dilated kernel overflows to an unbounded extent: OpenVINO then fails ("Cannot
    get length of dynamic dimension")."""
    if not (data.is_static and kernel.is_static and out.is_static):
        return 0, 0
    extent = kernel.dilated(dilation)
    if not extent.is_static:
        return None
    dilated = extent.value
    # size_t arithmetic read back as int64 (the product of an int64 and a uint64 stride)
    total = max(0, int64((data.value - 1) * stride + dilated - out.value + output_padding))
    small, big = total // 2, total - total // 2
    return (big, small) if upper else (small, big)


# --- batch and channels ---------------------------------------------------------------


def output_batch(data: PartialShape) -> Explained:
    if data.dims is None or not data.dims:
        return Explained(DYNAMIC, "data rank unknown")
    return Explained(data[0], "data[0] (N)")


def batch_and_channels(
    kernel_layout: tuple[str, ...], data: PartialShape, kernel: PartialShape
) -> tuple[list[Dim], list[Formula], list[Finding]]:
    """The output's two leading dims [N, C_OUT], their formulas, and the channel problems."""
    batch = output_batch(data)
    channels, problems = output_channels(kernel_layout, data, kernel)
    return [batch.dim, channels.dim], [batch.formula, channels.formula], problems


# --- channels -----------------------------------------------------------------------------


def output_channels(
    kernel_layout: tuple[str, ...], data: PartialShape, kernel: PartialShape
) -> tuple[Explained, list[Finding]]:
    """Check the data channels against the kernel and give the output channel dim (rules §2)."""
    if kernel.dims is None:
        return Explained(DYNAMIC, "kernel rank unknown"), []
    c_in_axis, c_out_axis = kernel_layout.index("C_IN"), kernel_layout.index("C_OUT")
    c_in, c_out = kernel[c_in_axis], kernel[c_out_axis]
    data_c = data[1] if data.dims is not None and data.rank and data.rank > 1 else None
    if "GROUPS" not in kernel_layout:
        problems: list[Finding] = []
        if data_c is not None and not data_c.compatible(c_in):
            problems.append(
                Finding(
                    rules.CHANNEL_MISMATCH,
                    {
                        "data_channels": data_c,
                        "kernel_channels": c_in,
                        "kernel_axis": f"(axis {c_in_axis}, C_IN)",
                    },
                )
            )
        return Explained(c_out, ("kernel[{}] (C_OUT)", (c_out_axis,))), problems
    groups = kernel[kernel_layout.index("GROUPS")]
    problems = []
    if data_c is not None and c_in.is_static:
        # OpenVINO merges GROUPS with data C / C_IN: exact division is required (rules §2).
        merged = groups & data_c.divide_exact(c_in.value) if c_in.value else None
        if merged is None or merged.is_empty:
            problems.append(
                Finding(
                    rules.GROUP_MISMATCH,
                    {
                        "data_channels": data_c,
                        "groups": groups,
                        "per_group": c_in,
                    },
                )
            )
        else:
            groups = merged
    return Explained(groups * c_out, ("{} * {} (GROUPS * C_OUT)", (groups, c_out))), problems


# --- attribute lists, one value per spatial axis ------------------------------------------


def spatial_length_findings(
    schema: OpSchema, parsed: ParsedAttributes, count: int, messages: dict[str, str]
) -> list[Finding]:
    """IRS106 for every written ``length = "spatial"`` list without one value per spatial axis;
    ``messages`` holds OpenVINO's own words for each attribute."""
    findings: list[Finding] = []
    for name, spec in schema.attributes.items():
        value = parsed.values.get(name)
        if spec.length != "spatial" or not isinstance(value, tuple) or not value or len(value) == count:
            continue
        args = {
            "attribute": name,
            "text": parsed.texts[name],
            "length": len(value),
            "spatial": count,
            "ov_message": messages[name],
        }
        findings.append(Finding(rules.ATTRIBUTE_LENGTH, args, AT_DATA))
    return findings


# --- pooling: the window without a kernel input, and its rounding ---------------------------

SIZE_T = 2**64  # OpenVINO keeps pooling's kernel, strides and pads in size_t


def kernel_extent(kernel: int, dilation: int) -> int:
    """``dim::dilated`` on size_t: ``(K - 1) * d + 1``, or the "infinite" SIZE_MAX for K < 1
    (a negative kernel wraps around, as OpenVINO's unsigned attribute does)."""
    k = kernel % SIZE_T
    return SIZE_T - 1 if k < 1 else (dilation * (k - 1) + 1) % SIZE_T


def pooling_pads(
    data: Dim, kernel: int, stride: int, dilation: int, pads: tuple[int, int], auto_pad: str
) -> tuple[int, int]:
    """The pads pooling applies (``pooling::apply_padding``): explicit as written, none for
    valid, and for same_* the convolutions' ``dim::padding`` (0 where the dim is not static)."""
    if auto_pad in ("same_upper", "same_lower"):
        return forward_same_pads(data, Dim.of(kernel), stride, dilation, auto_pad == "same_upper")
    return pads if auto_pad == "explicit" else (0, 0)


def padded_input(data: Dim, pads: tuple[int, int]) -> Dim:
    """``data + (pads_begin + pads_end)``: the size_t sum becomes a Dimension as int64, so a
    sum that wraps to -1 is dynamic and below -1 is 0."""
    return data + Dim.of(int64(pads[0] + pads[1]))


def pooled_spatial(data: Dim, extent: int, stride: int, pads: tuple[int, int], rounding: str) -> Explained:
    """One output spatial dim of MaxPool/AvgPool (``pooling::append_spatial_shape``) for a
    rounding_type of floor, ceil or ceil_torch; auto_pad already resolved into ``pads``."""
    window = padded_input(data, pads) - Dim.of(int64(extent))
    ceil = rounding in ("ceil", "ceil_torch")
    steps = window.ceil_div(stride) if ceil else window.floor_div(stride)
    values = ("ceil" if ceil else "floor", data, pads[0], pads[1], int64(extent), stride)
    if rounding != "ceil_torch":
        return Explained(steps + 1, (_POOLED, values))
    return Explained(_torch_steps(steps, stride, data, pads[0]), (_POOLED_TORCH, values))


_POOLED = "{}(({} + {} + {} - {}) / {}) + 1"
_POOLED_TORCH = _POOLED + ", less one if the last window starts in the end padding"


def _torch_steps(steps: Dim, stride: int, data: Dim, pad_begin: int) -> Dim:
    """``disallow_pooling_start_in_padding``: ceil_torch adds the last window only when it
    starts inside the data or the begin padding; each bound is aligned on its own."""

    def aligned(count: int, data_length: int) -> int:
        last_start = (count * stride) % SIZE_T
        limit = (data_length + pad_begin - 1) % SIZE_T  # size_t: 0 - 1 wraps to the top
        return count + 1 if not last_start > limit and count != -1 else count

    low = aligned(_length(steps.lo), _length(data.lo))
    if data.is_static:
        return Dim.of(low)
    high = aligned(_length(steps.hi), data.hi) if data.hi != INF else -1
    return Dim.between(low, high)


def _length(bound: int) -> int:
    """A bound as ``get_min_length``/``get_max_length`` give it: unbounded is -1."""
    return -1 if bound == INF else bound
