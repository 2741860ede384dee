"""The shape arithmetic of the control-flow ops, as OpenVINO does it: Loop-5 (``loop.cpp``),
TensorIterator-1 (``tensor_iterator.cpp``) and If-8 (``if.cpp``).

These ops hold bodies: :mod:`irshape.check.subgraphs` walks a body as a network and uses the
pure functions here to bind the outer inputs to the body's Parameters (a sliced input's axis is
one part long) and to make the outer outputs of the body's Results (a concatenated output is as
long as the iterations times the part, a back edge whose shape changes makes its dims dynamic,
If's branches merge).
"""

from __future__ import annotations

from irshape import rules
from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ops.interface import Finding, OpCall, OpResult


def sliced_parameter(shape: PartialShape, axis: int, part_size: int) -> PartialShape:
    """The body Parameter of a sliced input: the input's shape, its ``axis`` dim ``part_size``.

    A dynamic-rank input gives a dynamic-rank Parameter. ``axis`` is normalized by the caller
    (Loop normalizes it, TensorIterator indexes with it as given).
    """
    if shape.dims is None:
        return PartialShape(None)
    dims = list(shape.dims)
    dims[axis] = Dim.of(part_size)
    return PartialShape(dims)


def loop_merged_parameter(shape: PartialShape) -> PartialShape:
    """A Loop's body Parameter fed by a back edge, before its first pass: the initial value's
    shape with every static dim of 0 dynamic (an empty TensorFlow TensorList, ``[0,1]``, grows
    in the body). By experiment with OpenVINO 2026.4: only a static 0 (not an interval from 0),
    on merged inputs only (not invariant ones, not a TensorIterator's), whether or not the back
    edge's Result is an output."""
    if shape.dims is None or not any(dim.is_static and dim.value == 0 for dim in shape.dims):
        return shape
    return PartialShape(DYNAMIC if dim.is_static and dim.value == 0 else dim for dim in shape.dims)


def ti_iterations(shape: PartialShape, axis: int, start: int, end: int, part_size: int) -> int | None:
    """TensorIterator's iteration count from a sliced input whose ``axis`` dim is static:
    ``(|end - start| + 1) / part_size``, negative ``start``/``end`` counted from the end."""
    if shape.dims is None or not shape.dims[axis].is_static:
        return None
    length = shape.dims[axis].value
    start = start + length if start < 0 else start
    end = end + length if end < 0 else end
    return _c_div(abs(end - start) + 1, part_size)


def ti_iterations_without_slices(start: int, end: int, part_size: int) -> int:
    """TensorIterator without a sliced input: the first concatenated output's
    ``|end - start| / part_size`` (``try_to_set_num_iterations_if_no_slice_inputs``)."""
    return _c_div(abs(end - start), part_size)


def _c_div(a: int, b: int) -> int:
    """C++'s integer division (truncation toward zero)."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b >= 0) else -quotient


def loop_concatenated(
    body: PartialShape, axis: int, iterations: int | None, *, no_iterations: bool
) -> PartialShape:
    """A Loop's concatenated output: the body value's shape (a scalar becomes [1]), its ``axis``
    dim times the iteration count when both are known, else dynamic; [0] when the execution
    condition is a constant false. ``axis`` is normalized against the body value's rank."""
    if no_iterations:
        return PartialShape([0])
    if body.dims is None:
        return body
    dims = list(body.dims) if body.dims else [Dim.of(1)]
    dim = dims[axis]
    dims[axis] = Dim.of(dim.value * iterations) if dim.is_static and iterations is not None else DYNAMIC
    return PartialShape(dims)


def ti_concatenated(body: PartialShape, axis: int, iterations: int | None, part_size: int) -> PartialShape:
    """A TensorIterator's concatenated output: the body value's shape (a scalar: one dim), its
    ``axis`` dim the iterations times the part size when the count is known, else dynamic."""
    if body.dims is None:
        return PartialShape(None)
    dims = list(body.dims) if body.dims else [DYNAMIC]
    dims[axis] = Dim.of(iterations * part_size) if iterations is not None else DYNAMIC
    return PartialShape(dims)


def loop_last_value(body: PartialShape, *, no_iterations: bool) -> PartialShape:
    """A Loop's last-iteration output: the body value's shape; a static one gets a first dim
    of 0 when the execution condition is a constant false (a dynamic one stays as it is)."""
    if no_iterations and body.dims and body.is_static:
        return PartialShape([Dim.of(0), *body.dims[1:]])
    return body


def back_edge(body: PartialShape, parameter: PartialShape) -> PartialShape | None:
    """The Parameter's next shape where a back edge brings ``body`` to it (Loop's fixed point):
    None while nothing changes. A dim of ``body`` that the Parameter's does not hold becomes
    dynamic; another rank makes the rank dynamic; a dynamic-rank body value passes on.

    By experiment with OpenVINO 2026.4: a dim that merely intersects the Parameter's (2..12
    coming back to 1..6) becomes dynamic too, not only an incompatible one as loop.cpp's
    comment reads. Where every dim of ``body`` lies inside the Parameter's, nothing changes:
    the Parameter keeps its (wider) shape, it is not narrowed to ``body`` (a ``[1..5]``
    sliced to ``[1..2]`` stays ``[1..5]``). Narrowing it would never end on a body that
    appends a row to what comes back (``[?]`` -> ``1..`` -> ``2..`` -> ...: the mask pasting of
    torchvision's Mask R-CNN), where OpenVINO stops at ``[?]``.
    """
    if body.dims is None:
        return None if parameter.dims is None else body
    if parameter.dims is None:
        return None
    if len(body.dims) != len(parameter.dims):
        return PartialShape(None)
    inside = [p.lo <= b.lo and b.hi <= p.hi for b, p in zip(body.dims, parameter.dims, strict=True)]
    if all(inside):
        return None
    return PartialShape(b if kept else DYNAMIC for b, kept in zip(body.dims, inside, strict=True))


def merge_branches(then: PartialShape, otherwise: PartialShape) -> PartialShape:
    """If's output when the condition is not known (``resolve_shape``): equal static dims stay,
    other static dims become the interval between their lengths, any dynamic dim is dynamic;
    ranks that differ give a dynamic rank (a scalar and a 1D tensor: rank 1)."""
    if then.dims is None or otherwise.dims is None:
        return PartialShape(None)
    if len(then.dims) != len(otherwise.dims):
        if max(len(then.dims), len(otherwise.dims)) > 1:
            return PartialShape(None)
        # A scalar and a 1D tensor: [1] where the 1D one is [1], else [?] (by experiment with
        # OpenVINO 2026.4; if.cpp's resolve_shape reads [?] always)
        (dim,) = then.dims or otherwise.dims
        return PartialShape([dim if dim == Dim.of(1) else DYNAMIC])
    dims: list[Dim] = []
    for a, b in zip(then.dims, otherwise.dims, strict=True):
        if not a.is_static or not b.is_static:
            dims.append(DYNAMIC)
        elif a == b:
            dims.append(a)
        else:
            dims.append(Dim(min(a.lo, b.lo), max(a.lo, b.lo)))
    return PartialShape(dims)


def merge_element_types(then: str | None, otherwise: str | None) -> tuple[bool, str | None]:
    """``element::Type::merge``: whether the types merge (equal, or one dynamic), and the type."""
    if then is None or then == "dynamic":
        return True, otherwise
    if otherwise is None or otherwise == "dynamic" or otherwise == then:
        return True, then
    return False, None


# -- a layer read without its bodies -------------------------------------------------------
# A layer with its bodies never reaches these: the walk infers it (irshape.check.subgraphs).
# A <layer> without a <body> (the library's check of a lone layer, a file that lost it) is one
# OpenVINO's reader rejects: it reads the port map of a body that is not there.


def _no_body(tag: str, message: str) -> OpResult:
    problem = f"the layer has no <{tag}> (nor its port map): its outputs come from the body's Results"
    return OpResult([], [Finding(rules.BODY_INVALID, {"problem": problem, "ov_message": message})])


def loop(call: OpCall) -> OpResult:
    """Loop-5 without its body."""
    return _no_body("body", "Missing body part.")


def tensor_iterator(call: OpCall) -> OpResult:
    """TensorIterator-1 without its body."""
    return _no_body("body", "Missing body part.")


def if_op(call: OpCall) -> OpResult:
    """If-8 without its bodies."""
    return _no_body("then_body", "Missing body part.")
