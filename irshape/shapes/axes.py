"""Axis arguments as OpenVINO reads them (``ov::util::try_normalize_axis``): an axis of a
tensor of rank r lies in [-r, r-1], and a negative one counts from the end."""

from __future__ import annotations


def normalize_axis(axis: int, rank: int) -> int | None:
    """``axis`` as a non-negative index into a shape of ``rank``; None when out of range."""
    if -rank <= axis < rank:
        return axis + rank if axis < 0 else axis
    return None


def axis_range_message(axis: int, rank: int) -> str:
    """OpenVINO's words when an axis is out of range."""
    return f"Axis {axis} out of the tensor rank range [{-rank}, {rank - 1}]."
