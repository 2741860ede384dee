"""Slicing arithmetic as OpenVINO does it (``slice_shape_inference_utils.hpp``): how many
elements ``start:stop:step`` takes of a dim, for static, interval and unbounded dims, with
bounds far out of range and int64's limits. Used by Slice and StridedSlice
(:mod:`irshape.shapes.indexing`)."""

from __future__ import annotations

from irshape.dims import INF, Dim

I64_MAX = 2**63 - 1
I64_MIN = -(2**63)

# start, stop and step (Slice) or begin, end and strides (StridedSlice); None where unknown
Bounds = tuple[tuple[int, ...] | None, tuple[int, ...] | None, tuple[int, ...] | None]


def _clip(value: int, lo: int, hi: int) -> int:
    return min(max(value, lo), hi)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def sliced_length(dim: int, start: int, stop: int, step: int) -> int:
    """``slice::get_sliced_value``: the elements ``start:stop:step`` takes of a dim of length
    ``dim`` (-1: unbounded); -1 for an unbounded result."""
    reverse = step < 0
    norm_dim = I64_MAX if dim == -1 else dim
    dim_is_max = norm_dim == I64_MAX
    start_negative = start < 0
    start_max, stop_max = start == I64_MAX, stop == I64_MAX
    start_limit = start_max or start == I64_MIN
    if dim_is_max and (start_negative != (stop < 0) or start_max or stop_max or start_limit):
        if reverse:
            ub = -1 if (start_negative or start_max or stop_max) else -1 - start
        elif start_negative and not start_limit:
            ub = -start if stop_max else stop
        else:
            ub = -1
        lb = 0
    else:
        lb = _clip(start + norm_dim if start < 0 else start, 0, norm_dim - 1 if reverse else norm_dim)
        ub = _clip(stop + norm_dim if stop < 0 else stop, -1 if reverse else 0, norm_dim)
    if dim_is_max and lb == 0 and ub == -1:
        return -1
    sliced = min(0, ub - lb) if reverse else max(0, ub - lb)
    if step == -1:
        return -sliced
    if sliced != 0 and step != 1:
        sliced = sliced + 1 if reverse else sliced - 1
        sliced = _trunc_div(sliced, step) + 1
    return sliced


def sliced_range(dim: int, start: int, stop: int, step: int) -> slice:
    """The elements ``start:stop:step`` takes of a static dim, as ``slice::get_sliced_value``
    and the reference ``slice`` clamp them, as a Python slice: a start below the dim is its
    first element for a negative step too (Slice's ``-3:-3:-1`` of a dim of 2 takes element 0,
    where Python's takes none)."""
    reverse = step < 0
    lb = _clip(start + dim if start < 0 else start, 0, dim - 1 if reverse else dim)
    ub = _clip(stop + dim if stop < 0 else stop, -1 if reverse else 0, dim)
    return slice(lb, None if ub < 0 else ub, step)


def sliced_dim(dim: Dim, start: int, stop: int, step: int) -> Dim:
    """``slice::make_dim`` for known start and stop: the dim's bounds sliced."""
    lo = dim.lo
    hi = -1 if dim.hi == INF else dim.hi
    return Dim.between(sliced_length(lo, start, stop, step), sliced_length(hi, start, stop, step))


def any_length(dim: Dim) -> Dim:
    """What a slice with unknown bounds leaves of a dim: 0 up to its upper bound."""
    return Dim(0, dim.hi)


def unknown_bounds(dim: Dim, stride: int) -> Dim:
    """A dim sliced by ``stride`` from and to unknown places: 0 up to ceil(upper / |stride|)."""
    return Dim(0, dim.hi if dim.hi == INF else -(-dim.hi // abs(stride)))


def _length(bound: int) -> int:
    return -1 if bound == INF else bound


def bounded_sliced_dim(dim: Dim, start: tuple[int, int], stop: tuple[int, int], step: int) -> Dim:
    """``slice::make_dim`` for start and stop known by their bounds (lower, upper): a bound
    pair that crosses zero is cut at 0 (lower) and -1 (upper) where the dim allows, then the
    least and most the slice can take."""
    max_length = _length(dim.hi)

    def lb_within(lb: int) -> bool:
        return max_length == -1 or lb + max_length >= 0

    def ub_within(ub: int) -> bool:
        return max_length == -1 or ub < max_length

    def cut(bounds: tuple[int, int]) -> tuple[int, int]:
        crossing = bounds[0] < 0 <= bounds[1]
        lb = 0 if crossing and lb_within(bounds[0]) else bounds[0]
        ub = -1 if crossing and ub_within(bounds[1]) else bounds[1]
        return lb, ub

    (start_lb, start_ub), (stop_lb, stop_ub) = cut(start), cut(stop)
    min_length = _length(dim.lo)
    if step > 0:
        lo = sliced_length(min_length, start_ub, stop_lb, step)
        hi = sliced_length(max_length, start_lb, stop_ub, step)
    else:
        lo = sliced_length(min_length, start_lb, stop_ub, step)
        hi = sliced_length(max_length, start_ub, stop_lb, step)
    return Dim.between(lo, hi)
