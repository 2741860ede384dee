"""The decorator of the shape functions whose ops move their inputs' elements (Gather, Concat,
Reshape, Select, Broadcast, Tile...): they pass value bounds and real values on.

It is light: what moves bounds and reals (:func:`irshape.shapes.bounds.moved`, with the reals
and values it uses) is imported by the first check that has an input carrying either, so a
family that moves elements (the element-wise ops' Select, Broadcast and Tile) costs a file of
data tensors nothing more than its shape functions.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from irshape.ops.interface import OpCall, OpResult

ShapeFunction = Callable[[OpCall], OpResult]


def moves_bounds(
    *exact_ports: int, ready: Callable[[OpCall], bool] | None = None
) -> Callable[[ShapeFunction], ShapeFunction]:
    """A shape function that also passes bounds on, as OpenVINO's ``default_lower_bound_evaluator``
    and ``default_upper_bound_evaluator`` do: the op evaluated on every input's lower bounds,
    then on the upper ones (and real values and bounds moved alike). The ``exact_ports``
    (indices, axes, a pattern) must have their value known (``has_and_set_bound``), else there
    are no bounds; ``ready``, when given, is the op's own test of its inputs (StridedSlice's
    masked begin and end) in place of that."""

    def decorate(function: ShapeFunction) -> ShapeFunction:
        @functools.wraps(function)
        def shape_function(call: OpCall) -> OpResult:
            result = function(call)
            if not any(
                t.lower is not None or t.reals is not None or t.real_lower is not None for t in call.inputs
            ):
                return result  # the usual case: no bounds nor reals in, none to move
            from irshape.shapes import bounds  # imported where used: an input with bounds or reals

            return bounds.moved(function, call, result, exact_ports, ready)

        return shape_function

    return decorate
