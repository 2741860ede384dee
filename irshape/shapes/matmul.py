"""MatMul-1, ScaledDotProductAttention-13 and Einsum-7: products over matrix axes, with the
other axes broadcast (numpy-style, as OpenVINO's ``Dimension::broadcast_merge``).

Each function follows its op's ``shape_infer`` in OpenVINO (``matmul_shape_inference.hpp``,
``scaled_dot_product_attention_shape_inference.hpp``, ``einsum_shape_inference.hpp``) and the
element-type checks of its ``validate_and_infer_types``, with OpenVINO's messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from irshape import rules
from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ir import element_types
from irshape.ops.interface import AT_DATA, Finding, Formula, Formulas, OpCall, OpResult, Output, Tensor
from irshape.shapes.broadcast import broadcast_dim, merge_dim, numpy_broadcast
from irshape.shapes.findings import (
    incompatible,
    is_real,
    known,
    rank_finding,
    type_finding,
)

ONE = Dim(1, 1)

# --- MatMul-1 -------------------------------------------------------------------------------


def matmul(call: OpCall) -> OpResult:
    """MatMul-1: transpose the last two axes if asked, unsqueeze 1D operands, check the inner
    dims, broadcast the batch axes."""
    a, b = call.inputs[0], call.inputs[1]
    findings: list[Finding] = []
    element_type = element_types.merge(a.element_type, b.element_type)
    if element_type is None and known(a.element_type) and known(b.element_type):
        message = (
            f"Arguments do not have the same element type (arg0 element type: {a.element_type}, "
            f"arg1 element type: {b.element_type})."
        )
        findings.append(
            type_finding(f"inputs have element types {a.element_type} and {b.element_type}", message)
        )
    if a.shape.dims is None or b.shape.dims is None:
        return OpResult([Output(PartialShape(None), element_type)], findings)
    if not a.shape.dims or not b.shape.dims:
        port = 0 if not a.shape.dims else 1
        shape = call.inputs[port].shape
        findings.append(
            rank_finding(
                port, ("A", "B")[port], shape, "not a scalar", "Scalars are not supported as MatMul inputs."
            )
        )
        return OpResult([], findings)
    product, formulas, problems = _matmul_shape(
        a.shape.dims, b.shape.dims, bool(call.attribute("transpose_a")), bool(call.attribute("transpose_b"))
    )
    findings += problems
    return OpResult([Output(product, element_type, formulas)] if product is not None else [], findings)


def _matmul_shape(
    a: tuple[Dim, ...], b: tuple[Dim, ...], transpose_a: bool, transpose_b: bool
) -> tuple[PartialShape | None, Sequence[str], list[Finding]]:
    """The product's shape and where each dim comes from (for IRS301), or OpenVINO's error."""
    left, right = list(a), list(b)
    if transpose_a and len(left) > 1:
        left[-2], left[-1] = left[-1], left[-2]
    if transpose_b and len(right) > 1:
        right[-2], right[-1] = right[-1], right[-2]
    if len(a) == 1:
        left.insert(0, ONE)  # a row vector
    if len(b) == 1:
        right.append(ONE)  # a column vector
    col, row = left[-1], right[-2]
    # OpenVINO lets two dims pass when either is dynamic, even with disjoint intervals.
    if merge_dim(col, row) is None and col.is_static and row.is_static:
        message = (
            f"Incompatible MatMul matrix dimension. First input dimension={col} at COL_INDEX_DIM="
            f"{len(left) - 1} doesn't match the second input dimension={row} "
            f"at ROW_INDEX_DIM={len(right) - 2}"
        )
        problem = f"the inner dims differ: {col} (A) and {row} (B)"
        return None, [], [incompatible(problem, message)]
    rank = max(len(left), len(right))
    left = [ONE] * (rank - len(left)) + left
    right = [ONE] * (rank - len(right)) + right
    dims: list[Dim] = []
    formulas: list[Formula] = []
    for index in range(rank - 2):
        merged = broadcast_dim(left[index], right[index])
        if merged is None and left[index].is_static and right[index].is_static:
            message = (
                f"Incompatible MatMul batch dimension. Can't merge first input dimension={left[index]} "
                f"with second input dimension={right[index]} at index={index}"
            )
            problem = f"batch axis {index}: {left[index]} (A) and {right[index]} (B) do not broadcast"
            return None, [], [incompatible(problem, message)]
        dims.append(DYNAMIC if merged is None else merged)
        formulas.append(("batch axis {}: {} (A) broadcast with {} (B)", (index, left[index], right[index])))
    dims += [left[-2], right[-1]]
    formulas += [("the rows of A ({})", (left[-2],)), ("the columns of B ({})", (right[-1],))]
    if len(a) == 1:
        del dims[-2], formulas[-2]
    if len(b) == 1:
        del dims[-1], formulas[-1]
    return PartialShape(dims), Formulas(formulas), []


# --- ScaledDotProductAttention-13 ---------------------------------------------------------

QUERY, KEY, VALUE, MASK, SCALE = range(5)
_SDPA_NAMES = ("query", "key", "value", "attention_mask", "scale")


def scaled_dot_product_attention(call: OpCall) -> OpResult:
    """ScaledDotProductAttention-13: [N..., L, E] x [N..., S, E] x [N..., S, Ev] -> [N..., L, Ev],
    the N axes broadcast; the mask broadcasts to [N..., L, S] unless causal; scale has one element."""
    inputs = call.inputs
    findings = _sdpa_type_findings(inputs)
    shape, problem = _sdpa_shape(inputs, bool(call.attribute("causal")))
    if problem is not None:
        return OpResult([], [*findings, problem])
    element_type = _sdpa_element_type(inputs)
    return OpResult([Output(shape, element_type)], findings)


def _sdpa_element_type(inputs: tuple[Tensor, ...]) -> str | None:
    merged: str | None = "dynamic"
    for index, tensor in enumerate(inputs):
        if index == MASK and tensor.element_type == "boolean":
            continue
        if tensor.element_type is None:
            return inputs[QUERY].element_type
        merged = element_types.merge(merged, tensor.element_type)
    return merged


def _sdpa_type_findings(inputs: tuple[Tensor, ...]) -> list[Finding]:
    if len(inputs) > MASK:
        mask = inputs[MASK].element_type
        if known(mask) and not is_real(mask) and mask != "boolean":
            message = "The element type of attention_mask must be either floating-point or boolean."
            return [type_finding(f"attention_mask has element type {mask}", message, MASK)]
    types = [t.element_type for i, t in enumerate(inputs) if not (i == MASK and t.element_type == "boolean")]
    merged: str | None = "dynamic"
    for element_type in types:
        merged = element_types.merge(merged, element_type)
        if merged is None:
            listed = ", ".join(str(t) for t in types)
            return [
                type_finding(
                    f"the inputs have element types {listed}", "Mixed input types are not supported."
                )
            ]
    if known(merged) and not is_real(merged):
        message = "The element type of the input tensor must be a floating-point."
        return [type_finding(f"the inputs have element type {merged}", message)]
    return []


def _sdpa_shape(inputs: tuple[Tensor, ...], causal: bool) -> tuple[PartialShape, Finding | None]:
    query = inputs[QUERY].shape
    batch: PartialShape = PartialShape(None)
    l_dim = e_dim = s_dim = ev_dim = DYNAMIC
    if query.dims is not None:
        if len(query.dims) < 3:
            message = "Query input rank length must be at least 3 or more."
            return query, rank_finding(QUERY, "query", query, "at least 3", message)
        batch, l_dim, e_dim = PartialShape(query.dims[:-2]), query.dims[-2], query.dims[-1]

    def fail(port: int) -> tuple[PartialShape, Finding]:
        word = ("Query", "Key", "Value", "Attention mask")[port]
        message = f"{word} input shape not compatible with other inputs."
        shapes = ", ".join(str(t.shape) for t in inputs)
        problem = f"{_SDPA_NAMES[port]} {inputs[port].shape} does not fit the other inputs ({shapes})"
        return query, incompatible(problem, message, port)

    key = inputs[KEY].shape
    if key.dims is not None:
        merged_batch = _batch_merge(batch, key, 2)
        merged_e = merge_dim(e_dim, key.dims[-1]) if len(key.dims) >= 3 else None
        if merged_batch is None or merged_e is None:
            return fail(KEY)
        batch, e_dim, s_dim = merged_batch, merged_e, key.dims[-2]
    value = inputs[VALUE].shape
    if value.dims is not None:
        merged_batch = _batch_merge(batch, value, 2)
        merged_s = merge_dim(s_dim, value.dims[-2]) if len(value.dims) >= 3 else None
        if merged_batch is None or merged_s is None:
            return fail(VALUE)
        batch, s_dim, ev_dim = merged_batch, merged_s, value.dims[-1]
    if len(inputs) > MASK and not causal:
        mask = inputs[MASK].shape
        if mask.dims:  # a scalar mask is not checked
            merged = _mask_merge(batch, l_dim, s_dim, mask.dims)
            if merged is None:
                return fail(MASK)
            batch, l_dim, s_dim = merged
    if len(inputs) > SCALE:
        scale = inputs[SCALE].shape
        if scale.dims is not None and not (
            len(scale.dims) == 0 or (len(scale.dims) == 1 and scale.dims[0].compatible(ONE))
        ):
            message = "Scale input must be scalar or have 1 element."
            return query, incompatible(f"scale has shape {scale}", message, SCALE)
    if batch.dims is None:
        return PartialShape(None), None
    return PartialShape([*batch.dims, l_dim, ev_dim]), None


def _batch_merge(batch: PartialShape, shape: PartialShape, trailing: int) -> PartialShape | None:
    """``broadcast_merge_into`` of the leading axes of ``shape`` (None when its rank is below 3
    or an axis does not broadcast)."""
    if shape.dims is None or len(shape.dims) < 3:
        return None
    return numpy_broadcast(batch, PartialShape(shape.dims[:-trailing]))


def _mask_merge(
    batch: PartialShape, l_dim: Dim, s_dim: Dim, mask: tuple[Dim, ...]
) -> tuple[PartialShape, Dim, Dim] | None:
    if len(mask) < 2:
        return None
    new_l, new_s = broadcast_dim(l_dim, mask[-2]), broadcast_dim(s_dim, mask[-1])
    if new_l is None or new_s is None:
        return None
    if len(mask) >= 3:
        merged = numpy_broadcast(batch, PartialShape(mask[:-2]))
        if merged is None:
            return None
        batch = merged
    return batch, new_l, new_s


# --- Einsum-7 -------------------------------------------------------------------------------

ELLIPSIS = "..."


class EinsumError(Exception):
    """An equation OpenVINO cannot parse; the message is OpenVINO's."""


def einsum(call: OpCall) -> OpResult:
    """Einsum-7: each input's labels name its dims (an ellipsis the rest); a label's dims merge
    within an input and broadcast across inputs; the output lists the output labels' dims."""
    # Read from a file the equation keeps its blanks (only OpenVINO's C++ constructor strips
    # them), and a blank is no label.
    equation = str(call.attribute("equation"))
    try:
        subscripts, output = parse_equation(equation)
    except EinsumError as exc:
        return OpResult([], [_equation_finding(call, str(exc))])
    findings = _einsum_type_findings(call.inputs)
    if len(subscripts) != len(call.inputs):
        message = "Equation must contain a number of subscripts equal to a number of Einsum inputs."
        problem = f"the equation has {len(subscripts)} input subscripts for {len(call.inputs)} inputs"
        return OpResult([], [*findings, incompatible(problem, message)])
    shape, failure = _einsum_shape([t.shape for t in call.inputs], subscripts, output)
    if failure is not None:
        return OpResult([], [*findings, failure])
    return OpResult([Output(shape, call.inputs[0].element_type)], findings)


def _equation_finding(call: OpCall, message: str) -> Finding:
    args = {
        "attribute": "equation",
        "value": call.attributes.texts.get("equation", ""),
        "op": call.schema.name,
        "problem": "is not an equation OpenVINO parses",
        "ov_message": message,
    }
    return Finding(rules.ATTRIBUTE_VALUE, args, AT_DATA)


def extract_labels(subscript: str) -> list[str]:
    """``Einsum::extract_labels``: letters, and one ``...``."""
    labels: list[str] = []
    index = 0
    while index < len(subscript):
        if subscript[index].isascii() and subscript[index].isalpha():
            labels.append(subscript[index])
            index += 1
        elif subscript.startswith(ELLIPSIS, index):
            labels.append(ELLIPSIS)
            index += 3
        else:
            raise EinsumError("Einsum equation has invalid label.")
    return labels


def _subscript_correct(subscript: str) -> bool:
    try:
        labels = extract_labels(subscript)
    except EinsumError:
        return False
    return labels.count(ELLIPSIS) <= 1


def parse_equation(equation: str) -> tuple[list[str], str]:
    """``Einsum::parse_equation``: the input subscripts and the output subscript (implicit
    mode: the labels met in one input only, sorted, after an ellipsis if any input has one)."""
    inputs_text, arrow, output = equation.partition("->")
    subscripts = inputs_text.split(",")  # an empty field counts (OpenVINO 2026.4: "ij,jk,")
    for subscript in subscripts:
        if not _subscript_correct(subscript):
            raise EinsumError(
                "Input subscript of Einsum equation must consist of either only alphabetic letters or "
                "alphabetic letters with one ellipsis."
            )
    if arrow:
        if not _subscript_correct(output):
            raise EinsumError(
                "Output subscript of Einsum equation must consist of either only alphabetic letters or "
                "alphabetic letters with one ellipsis."
            )
        return subscripts, output
    labels = [
        label
        for index, subscript in enumerate(subscripts)
        for label in extract_labels(subscript)
        if label != ELLIPSIS and not any(label in s for i, s in enumerate(subscripts) if i != index)
    ]
    implicit = "".join(sorted(labels))
    if any(ELLIPSIS in s for s in subscripts):
        implicit = ELLIPSIS + implicit
    return subscripts, implicit


def _einsum_type_findings(inputs: tuple[Tensor, ...]) -> list[Finding]:
    first = inputs[0].element_type
    if first == "boolean":
        return [type_finding("input 0 is boolean", "The input type for Einsum operation must be numeric.", 0)]
    for index, tensor in enumerate(inputs[1:], 1):
        if element_types.merge(first, tensor.element_type) is None:
            message = "Inputs to Einsum operation must have the same type."
            return [
                type_finding(
                    f"input {index} has element type {tensor.element_type}, input 0 {first}", message, index
                )
            ]
    return []


def _einsum_shape(
    shapes: list[PartialShape], subscripts: list[str], output: str
) -> tuple[PartialShape, Finding | None]:
    output_labels = extract_labels(output)
    label_shapes: dict[str, PartialShape] = {}
    for index, (shape, subscript) in enumerate(zip(shapes, subscripts, strict=True)):
        labels = extract_labels(subscript)
        if shape.dims is None:
            if ELLIPSIS in labels and ELLIPSIS in output_labels:
                return shape, None
            for label in labels:
                label_shapes.setdefault(label, PartialShape([DYNAMIC]))
            continue
        problem = _einsum_input(shape.dims, labels, label_shapes, index)
        if problem is not None:
            return shape, problem
    dims: list[Dim] = []
    for label in output_labels:
        if label == ELLIPSIS and label not in label_shapes:
            continue  # an ellipsis that covers no dims
        if label not in label_shapes:
            message = "Label in output subscript of Einsum equation must enter at least one input subscript."
            return PartialShape(None), incompatible(
                f"output label {label!r} is in no input subscript", message
            )
        dims += label_shapes[label]
    return PartialShape(dims), None


def _einsum_input(
    dims: tuple[Dim, ...], labels: list[str], label_shapes: dict[str, PartialShape], index: int
) -> Finding | None:
    rank, has_ellipsis = len(dims), ELLIPSIS in labels
    if not (rank >= len(labels) - 1 if has_ellipsis else rank == len(labels)):
        message = (
            "Input rank must be greater or equal to a number of labels in the corresponding input subscript."
        )
        return rank_finding(index, f"input {index}", PartialShape(dims), f"{len(labels)} labels", message)
    own: dict[str, Dim] = {}
    position = 0
    for label in labels:
        if position >= rank:
            break
        if label == ELLIPSIS:
            covered = rank - len(labels) + 1
            part = PartialShape(dims[position : position + covered])
            if label not in label_shapes:
                label_shapes[label] = part
            else:
                merged = numpy_broadcast(label_shapes[label], part)
                if merged is None:
                    message = "Input dimensions labeled with ellipsis for Einsum must be broadcastable."
                    return incompatible(
                        f"input {index}: the ellipsis dims {part} do not broadcast", message, index
                    )
                label_shapes[label] = merged
            position += covered
            continue
        if label in own:
            merged_dim = merge_dim(own[label], dims[position])
            if merged_dim is None:
                message = (
                    "Different input dimensions indicated by the repeated labels within single input node "
                    "for Einsum must be compatible."
                )
                return incompatible(
                    f"input {index}: label {label!r} has dims {own[label]} and {dims[position]}",
                    message,
                    index,
                )
            own[label] = merged_dim
        else:
            own[label] = dims[position]
        position += 1
    for label, dim in own.items():
        if label not in label_shapes:
            label_shapes[label] = PartialShape([dim])
            continue
        merged = numpy_broadcast(label_shapes[label], PartialShape([dim]))
        if merged is None:
            message = (
                "Different input dimensions indicated by the same labels for Einsum must be broadcastable."
            )
            return incompatible(
                f"label {label!r}: {label_shapes[label]} and {dim} (input {index}) do not broadcast",
                message,
                index,
            )
        label_shapes[label] = merged
    return None


def inverse(call: OpCall) -> OpResult:
    """Inverse-14: square matrices (the last two dims, where both are static) of a real type;
    the data's shape and element type."""
    data = call.inputs[0]
    shape, element_type = data.shape, data.element_type
    findings = []
    if shape.dims is not None and len(shape.dims) < 2:
        findings.append(rank_finding(0, "data", shape, "2 or more", "Input must be at least a 2D matrix."))
    elif shape.dims is not None and shape[-2].is_static and shape[-1].is_static and shape[-2] != shape[-1]:
        message = "Input must contain square matrices of the same shape."
        findings.append(incompatible(f"the matrices {shape[-2]}x{shape[-1]} are not square", message, 0))
    if element_type not in (None, "dynamic") and not is_real(element_type):
        message = "Expected floating point type as element type for the 'data' input."
        findings.append(
            type_finding(f"the data is of element type {element_type}, not a real one", message, 0)
        )
    if findings:
        return OpResult([], findings)
    return OpResult([Output(shape, element_type)])
