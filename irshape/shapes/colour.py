"""The colour conversions: NV12toRGB-8, NV12toBGR-8, I420toRGB-8, I420toBGR-8 (one plane or
two/three) and RGBtoNV12-17, BGRtoNV12-17 (one plane or two), as OpenVINO infers them
(``nv12_shape_inference.hpp``, ``i420_shape_inference.hpp``,
``rgb_bgr_to_nv12_shape_inference.hpp``, ``convert_color_*_base.cpp``).

A YUV image is ``[N, H * 3 / 2, W, 1]`` in one plane, or ``[N, H, W, 1]`` with its chroma
planes ``[N, H / 2, W / 2, 2]`` (NV12's UV) or ``[N, H / 2, W / 2, 1]`` each (I420's U and V);
the RGB/BGR image is ``[N, H, W, 3]``, H and W even. The element type is u8, a real type or
``dynamic``, the same for every plane.
"""

from __future__ import annotations

from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ir import element_types
from irshape.ops.interface import Finding, OpCall, OpResult, Output
from irshape.shapes.broadcast import merge_shapes
from irshape.shapes.elementwise import REAL
from irshape.shapes.findings import incompatible, rank_finding, type_finding

_DYNAMIC_IMAGE = PartialShape([DYNAMIC] * 4)


def _problem(message: str, port: int = 0) -> list[Finding]:
    return [incompatible(message[0].lower() + message[1:].rstrip("."), message, port)]


def _even(dims: list[Dim]) -> list[Finding]:
    if dims[1].divide_exact(2).is_empty:
        return _problem("Image height must be even")
    if dims[2].divide_exact(2).is_empty:
        return _problem("Image width must be even")
    return []


def _type(call: OpCall) -> tuple[str | None, list[Finding]]:
    """The planes' merged element type: u8, a real type or dynamic."""
    merged: str | None = None
    for port, tensor in enumerate(call.inputs):
        element_type = tensor.element_type
        if (
            merged is not None
            and element_type is not None
            and element_types.merge(merged, element_type) is None
        ):
            names = "Y, UV" if len(call.inputs) == 2 else "Y, U, V"
            message = f"{names} inputs shall have compatible types, got {merged}{element_type}"
            return None, [
                type_finding(f"the planes' element types differ ({merged}, {element_type})", message, port)
            ]
        merged = element_types.merge(merged, element_type)
    if merged is not None and merged != "dynamic" and merged not in REAL and merged != "u8":
        message = f"Input type shall have u8 or floating-point precision, got {merged}"
        return None, [type_finding(f"the image is of element type {merged}, not u8 or a real type", message)]
    return merged, []


def _luma(call: OpCall, message: str) -> tuple[list[Dim] | None, list[Finding]]:
    """The Y plane's dims (``?`` x 4 for a dynamic rank), its one channel checked."""
    shape = call.inputs[0].shape
    if shape.dims is None:
        return list(_DYNAMIC_IMAGE.dims or ()), []
    if len(shape.dims) != 4:
        return None, [rank_finding(0, "Y", shape, "4", message)]
    if not shape.dims[3].compatible(Dim.of(1)):
        plane = "YUV" if call.schema.op.startswith("NV12") else "Y"
        return None, _problem(f"{plane} input number of channels should be equal to 1")
    return list(shape.dims), []


def _to_rgb(
    call: OpCall, chroma: PartialShape | None, chroma_findings: list[Finding], three: str
) -> OpResult:
    """The RGB/BGR image of a YUV one: ``chroma`` the merged chroma planes (None: one plane)."""
    nv12 = call.schema.op.startswith("NV12")
    rank_message = (
        "Y(UV) input shall have 4 dimensions (N, H, W,C)"
        if nv12
        else "Y input shall have 4 dimensions (N, H, W, C)"
    )
    dims, findings = _luma(call, rank_message)
    if dims is None:
        return OpResult([], findings)
    if chroma is None:
        dims[1] = (dims[1] * 2).divide_exact(3)
        if dims[1].is_empty:
            return OpResult([], _problem(three))
    else:
        if chroma_findings:
            return OpResult([], chroma_findings)
        if chroma.dims is not None:
            chroma = PartialShape([chroma.dims[0], chroma.dims[1] * 2, chroma.dims[2] * 2, chroma.dims[3]])
        if nv12:
            dims[3] = Dim.of(2)
        merged = merge_shapes(PartialShape(dims), chroma)
        if merged is None or merged.dims is None:
            return OpResult(
                [],
                _problem(
                    "Y shape is inconsistent with UV" if nv12 else "Y shape is inconsistent with U and V"
                ),
            )
        dims = list(merged.dims)
    dims[3] = Dim.of(3)
    findings = _even(dims)
    if findings:
        return OpResult([], findings)
    element_type, findings = _type(call)
    if findings:
        return OpResult([], findings)
    return OpResult([Output(PartialShape(dims), element_type)])


def nv12_to_rgb(call: OpCall) -> OpResult:
    """NV12toRGB-8 and NV12toBGR-8."""
    if len(call.inputs) == 1:
        return _to_rgb(call, None, [], "Image height shall be divisible by 3")
    uv = call.inputs[1].shape
    findings: list[Finding] = []
    if uv.dims is not None and (len(uv.dims) != 4 or not uv.dims[3].compatible(Dim.of(2))):
        findings = _problem("UV input number of channels should be equal to 2", 1)
    return _to_rgb(call, uv, findings, "")


def i420_to_rgb(call: OpCall) -> OpResult:
    """I420toRGB-8 and I420toBGR-8."""
    if len(call.inputs) == 1:
        return _to_rgb(call, None, [], "I420 image height shall be divisible by 3")
    if len(call.inputs) == 2:  # U without V
        message = "Check 'has_single_plane || input_shapes.size() == 3' failed"
        return OpResult([], [incompatible("the image has a U plane but no V plane", message)])
    u, v = call.inputs[1].shape, call.inputs[2].shape
    merged = merge_shapes(u, v)
    uv = merged if merged is not None else u
    findings: list[Finding] = []
    if uv.dims is not None and (len(uv.dims) != 4 or not uv.dims[3].compatible(Dim.of(1))):
        findings = _problem("U, V inputs number of channels should be equal to 1", 1)
    elif merged is None:
        findings = _problem("Y shape is inconsistent with U and V", 2)
    return _to_rgb(call, uv, findings, "")


def rgb_to_nv12(call: OpCall) -> OpResult:
    """RGBtoNV12-17 and BGRtoNV12-17: one plane ``[N, H * 3 / 2, W, 1]`` or two (``single_plane``
    false): Y ``[N, H, W, 1]`` and UV ``[N, H / 2, W / 2, 2]``."""
    single = bool(call.attribute("single_plane"))
    shape = call.inputs[0].shape
    if shape.dims is not None and len(shape.dims) != 4:
        message = "RGB/BGR input shall have 4 dimensions (N, H, W, C)"
        return OpResult([], [rank_finding(0, "image", shape, "4", message)])
    if shape.dims is None:
        planes = [[DYNAMIC, DYNAMIC, DYNAMIC, Dim.of(1)]] + (
            [] if single else [[DYNAMIC, DYNAMIC, DYNAMIC, Dim.of(2)]]
        )
    else:
        n, h, w, c = shape.dims
        if not c.compatible(Dim.of(3)):
            return OpResult([], _problem("RGB/BGR input number of channels should be equal to 3"))
        findings = _even(list(shape.dims))
        if findings:
            return OpResult([], findings)
        if single:
            height = (h * 3).divide_exact(2)
            if height.is_empty:
                return OpResult([], _problem("Image height computation failed"))
            planes = [[n, height, w, Dim.of(1)]]
        else:
            planes = [[n, h, w, Dim.of(1)], [n, h.divide_exact(2), w.divide_exact(2), Dim.of(2)]]
    element_type, findings = _type(call)
    if findings:
        return OpResult([], findings)
    return OpResult([Output(PartialShape(dims), element_type) for dims in planes])
