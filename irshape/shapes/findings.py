"""The findings every family's shape functions make about their inputs, one builder a code.

Each finding carries OpenVINO's own words (``ov_message``), so a user can match irshape's
report with the error ``read_model`` would raise. (Shape merges are in
:mod:`irshape.shapes.broadcast`.)
"""

from __future__ import annotations

from irshape import rules
from irshape.dims import INF, Dim, PartialShape
from irshape.ops.interface import AT_DATA, AT_LAYER, Anchor, Finding, OpCall, Tensor
from irshape.shapes import reading
from irshape.shapes.axes import axis_range_message, normalize_axis

REAL = frozenset({"f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2", "f8e8m0", "f4e2m1"})
INDEX_TYPES = ("i32", "i64")  # the element types OpenVINO's index outputs may have


def rank_finding(port: int, name: str, shape: PartialShape, expected: str, ov_message: str) -> Finding:
    """IRS211: input ``port`` has a rank the op rejects."""
    args = {
        "port": port,
        "input": name,
        "rank": shape.rank,
        "shape": shape,
        "expected": expected,
        "ov_message": ov_message,
    }
    return Finding(rules.INPUT_RANK, args, port)


def incompatible(problem: str, ov_message: str, anchor: Anchor = AT_LAYER) -> Finding:
    """IRS212: input shapes the op cannot combine."""
    return Finding(rules.INPUTS_INCOMPATIBLE, {"problem": problem, "ov_message": ov_message}, anchor)


def index_type_findings(call: OpCall, attribute: str, ov_message: str) -> list[Finding]:
    """IRS112: an element_type attribute of an index output (MaxPool's index_element_type,
    Bucketize's output_type) that is not i32 or i64."""
    element_type = str(call.attribute(attribute))
    if element_type in INDEX_TYPES:
        return []
    args = {
        "attribute": attribute,
        "value": call.attributes.texts.get(attribute, element_type),
        "op": call.schema.name,
        "problem": "is not i32 or i64",
        "ov_message": ov_message,
    }
    return [Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)]


def type_finding(problem: str, ov_message: str, anchor: Anchor = AT_LAYER) -> Finding:
    """IRS213: an element type the op rejects."""
    return Finding(rules.INPUT_ELEMENT_TYPE, {"problem": problem, "ov_message": ov_message}, anchor)


def value_finding(problem: str, ov_message: str, anchor: Anchor = AT_LAYER) -> Finding:
    """IRS214: a constant input's value the op rejects."""
    return Finding(rules.INPUT_VALUE, {"problem": problem, "ov_message": ov_message}, anchor)


def value_unknown(
    port: int,
    name: str,
    tensor: Tensor,
    consequence: str,
    default_reason: str = "it is neither a Const nor computed from Consts",
) -> list[Finding]:
    """IRS306 (once): the value that decides the output is not known. But where OpenVINO fails
    reading it (a Const of an element type it does not read: ``value_error``, set by
    :mod:`irshape.shapes.reading`) it is IRS214 with OpenVINO's message
    (docs/openvino-ir-reading.md §6)."""
    if tensor.value_error is not None:
        return unreadable(port, name, tensor)
    if tensor.value_reported:
        return []
    reason = tensor.value_unknown or default_reason
    args = {"port": port, "input": name, "reason": reason, "consequence": consequence}
    return [Finding(rules.VALUE_UNKNOWN, args, port)]


def unreadable(port: int, name: str, tensor: Tensor) -> list[Finding]:
    """IRS214 where OpenVINO fails reading the input's value (``value_error``), else nothing:
    for an op that reads a value its output does not depend on (Roll's axes, to check them)."""
    if tensor.value_error is None:
        return []
    problem = f"input {port} ({name}) {reading.problem(tensor)}"
    return [value_finding(problem, tensor.value_error, port)]


def is_real(element_type: str | None) -> bool:
    return element_type in REAL


def known(element_type: str | None) -> bool:
    """A static element type (not unknown, not dynamic)."""
    return element_type is not None and element_type != "dynamic"


def normalize_axis_ov(axis: int, rank: int) -> int | None:
    """``ov::util::normalize_axis``: a scalar (rank 0) takes axes as a rank-1 tensor does."""
    return normalize_axis(axis, max(rank, 1))


def axis_message(axis: int, rank: int) -> str:
    return axis_range_message(axis, max(rank, 1))


def attribute_error(call: OpCall, name: str, value: object, problem: str, ov_message: str) -> Finding:
    """IRS112 on the layer's ``<data>``; a missing attribute is named as such, with the default
    OpenVINO reads (``value``)."""
    text = call.attributes.texts.get(name, f"(missing: OpenVINO reads {value})")
    args = {"attribute": name, "value": text, "op": call.schema.name, "problem": problem}
    return Finding(rules.ATTRIBUTE_VALUE, {**args, "ov_message": ov_message}, AT_DATA)


def attribute_finding(
    call: OpCall, name: str, problem: str, ov_message: str, value: str | None = None
) -> Finding:
    """IRS112 on the layer's ``<data>`` for an attribute as written (or, when missing, the
    default OpenVINO reads; ``value`` where the problem is the text itself)."""
    args = {
        "attribute": name,
        "value": value if value is not None else call.attributes.texts.get(name, str(call.attribute(name))),
        "op": call.schema.name,
        "problem": problem,
        "ov_message": ov_message,
    }
    return Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)


def multiple_message(dim: Dim, divisor: int) -> str:
    """OpenVINO's words for a dim that must be a multiple of ``divisor`` (DepthToSpace's
    channels, BatchToSpace's batch): ``[ lo, hi]``, an unbounded ``hi`` as -1."""
    hi = -1 if dim.hi == INF else dim.hi
    return f"Dimension value: [ {dim.lo}, {hi}] must be a multiple of divisor: {divisor}"


def typed_inputs(call: OpCall, names: tuple[str, ...], first: int = 1) -> list[tuple[int, str, str]]:
    """The value inputs from port ``first`` on whose element type is known (port, name, type)."""
    found = []
    for port, name in zip(range(first, len(call.inputs)), names, strict=False):
        element_type = call.inputs[port].element_type
        if element_type is not None:
            found.append((port, name, element_type))
    return found
