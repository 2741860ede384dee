"""Merging and broadcasting as OpenVINO merges shapes (``PartialShape::broadcast_merge_into``,
``Dimension::broadcast_merge``): used by the element-wise ops, Select, MatMul's batch axes and
Broadcast.

Two dims merge as: both may be 1 -> the hull of the two intervals; only one may be 1 -> the
other; neither -> their intersection, and an empty intersection is an error.
"""

from __future__ import annotations

from irshape.dims import Dim, PartialShape


def broadcast_dim(a: Dim, b: Dim) -> Dim | None:
    """``Dimension::broadcast_merge``; None when the two cannot be broadcast together."""
    a_has_1, b_has_1 = a.lo <= 1 <= a.hi, b.lo <= 1 <= b.hi
    if a_has_1 and b_has_1:
        return Dim(min(a.lo, b.lo), max(a.hi, b.hi))
    if a_has_1:
        return b
    if b_has_1:
        return a
    merged = a & b
    return None if merged.is_empty else merged


_ONE = (Dim(1, 1),)  # the dim a shorter shape is padded with (Dims never change)


def numpy_broadcast(a: PartialShape, b: PartialShape) -> PartialShape | None:
    """Numpy-style broadcasting of two shapes, aligned at their last axis; a dynamic rank
    gives a dynamic rank; None when an axis cannot be broadcast."""
    if a.dims is None or b.dims is None:
        return PartialShape(None)
    rank = max(len(a.dims), len(b.dims))
    pad_a = _ONE * (rank - len(a.dims)) + a.dims
    pad_b = _ONE * (rank - len(b.dims)) + b.dims
    dims: list[Dim] = []
    for x, y in zip(pad_a, pad_b, strict=True):
        merged = broadcast_dim(x, y)
        if merged is None:
            return None
        dims.append(merged)
    return PartialShape(dims)


def merge_dim(a: Dim, b: Dim) -> Dim | None:
    """``Dimension::merge``: the intersection; None when it is empty."""
    merged = a & b
    return None if merged.is_empty else merged


def merge_shapes(a: PartialShape, b: PartialShape) -> PartialShape | None:
    """``PartialShape::merge_into`` (auto_broadcast none): equal ranks, each axis the
    intersection of the two; a dynamic rank takes the other; None when they conflict."""
    if a.dims is None:
        return b
    if b.dims is None:
        return a
    if len(a.dims) != len(b.dims):
        return None
    dims = [x & y for x, y in zip(a.dims, b.dims, strict=True)]
    return None if any(d.is_empty for d in dims) else PartialShape(dims)


def compatible(a: PartialShape, b: PartialShape) -> bool:
    """Do the two shapes merge (a dynamic rank merges with any)?"""
    return merge_shapes(a, b) is not None


def pdpd_broadcast(dst: PartialShape, src: PartialShape, axis: int) -> PartialShape | None:
    """``PartialShape::broadcast_merge_into`` with PDPD: ``src`` is laid over ``dst`` from
    ``axis`` (-1: aligned at the end) and broadcast one way, into ``dst``'s shape; a dynamic
    rank gives a dynamic rank; None when ``src`` does not fit or an axis cannot be merged.
    Where both dims are static ``src`` may not be the larger (so 1 never grows to n)."""
    if dst.dims is None or src.dims is None:
        return PartialShape(None)
    if len(src.dims) > len(dst.dims) or axis < -1:
        return None
    start = len(dst.dims) - len(src.dims) if axis == -1 else axis
    if start + len(src.dims) > len(dst.dims):
        return None
    dims = list(dst.dims)
    for i, s in enumerate(src.dims):
        d = dims[start + i]
        if d.is_static and s.is_static and s.lo > d.lo:
            return None
        merged = broadcast_dim(d, s)
        if merged is None:
            return None
        dims[start + i] = merged
    return PartialShape(dims)
