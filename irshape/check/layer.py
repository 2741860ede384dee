"""Check one layer of a known op: its attributes and input count against the declaration,
then its shape function; the findings land on the layer, its ``<data>`` or an input port.

Every op goes through here (the walk, the library's ``check_layer``, the dry run). A check
that reports nothing depends only on the declaration, the ``<data>`` text and the input
tensors, so its result is kept and shared by the layers that repeat it (a model repeats its
blocks): one memo for every op. Its memos of objects that are not hashable (a dict) or whose
equality costs more than the work saved (an inference's outputs) are keyed by identity
(:func:`by_identity`, the walk's too).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from irshape import rules
from irshape.diagnostics import Diagnostic, Location
from irshape.dims import PartialShape
from irshape.ir.model import Layer
from irshape.ops.interface import (
    AT_LAYER,
    Finding,
    OpCall,
    OpResult,
    ShapeFunction,
    Tensor,
    Unknown,
)
from irshape.ops.registry import shape_function
from irshape.ops.schema import OpSchema, ParsedAttributes, validate_attributes
from irshape.shapes import reading

K = TypeVar("K")
V = TypeVar("V")

IdentityMemo = dict[int, tuple[K, V]]
"""A memo keyed by an object's ``id``. An ``id`` is reused once its object is gone, so each
entry keeps its object and a lookup checks it is the same one: a stale entry is never taken
for another object's."""


def by_identity(memo: IdentityMemo[K, V], key: K, make: Callable[[K], V], bound: int | None = None) -> V:
    """``make(key)``, made once while ``memo`` keeps it; ``bound``: clear the memo when full."""
    kept = memo.get(id(key))
    if kept is not None and kept[0] is key:
        return kept[1]
    made = make(key)
    if bound is not None and len(memo) >= bound:
        memo.clear()
    memo[id(key)] = (key, made)
    return made


Report = Callable[[Diagnostic], None]
Where = Location | Callable[[], Location]
"""Where the layer is, or how to make that: the walk makes a location only for a layer with
findings (a remembered check and a port that says what OpenVINO computes need none)."""

# Findings that only describe the output: when OpenVINO rejects the layer, they are no finding.
_OUTPUT_CONSEQUENCES = frozenset({rules.DYNAMIC_RANK_OUTPUT.code, rules.OUTPUT_DIM_DYNAMIC.code})

# Bounded: cleared when full, and only keys of short attribute texts.
_CLEAN: dict[tuple[Any, ...], tuple[OpSchema, OpResult]] = {}
_CLEAN_MAX = 4096
_KEY_TEXT_MAX = 512  # characters of <data> attribute names and values
# A <data> dict's part of the memo key: one number per distinct content (None for long texts),
# found by the dict's identity, so a key hashes an int and not the attribute texts. Numbers
# are never reused, so a cleared memo never mistakes one content for another.
_DATA_KEYS: IdentityMemo[dict[str, str], int | None] = {}
_DATA_NUMBERS: dict[tuple[tuple[str, str], ...], int] = {}
_data_numbers = itertools.count()


def check_op(
    schema: OpSchema, layer: Layer, inputs: list[Tensor], where: Where, report: Report
) -> OpResult | None:
    """Validate ``layer`` against ``schema`` and infer its outputs; None if they cannot be
    inferred (the findings say why)."""
    # What a check depends on when it reports nothing (its location only names findings): the
    # declaration, the <data>, and the inputs' shapes, types, values and classes (a Concat
    # looks at its Const inputs).
    data = layer.data
    kept = _DATA_KEYS.get(id(data))
    data_key = kept[1] if kept is not None and kept[0] is data else _data_key(data)
    key = None
    if data_key is not None:
        key = (id(schema), data_key, tuple([(i.shape, i.element_type, i.facts, i.__class__) for i in inputs]))
        hit = _CLEAN.get(key)
        if hit is not None and hit[0] is schema:
            return hit[1]
    found: list[Diagnostic] = []
    result = _check_op(schema, layer, inputs, where, found.append)
    if found and any(rules.rejects(d) for d in found):
        # OpenVINO rejects the layer: what its output would be is no finding of its own.
        found = [d for d in found if d.code not in _OUTPUT_CONSEQUENCES]
        if result is not None:
            result.rejected = True
    for diagnostic in found:
        report(diagnostic)
    if key is not None and result is not None and not found:
        if len(_CLEAN) >= _CLEAN_MAX:
            _CLEAN.clear()
        _CLEAN[key] = (schema, result)
    return result


def _data_key(data: dict[str, str]) -> int | None:
    """The <data> attributes' number in the memo key; None for long texts."""
    return by_identity(_DATA_KEYS, data, _make_data_key, _CLEAN_MAX)


def _make_data_key(data: dict[str, str]) -> int | None:
    if sum(map(len, data)) + sum(map(len, data.values())) > _KEY_TEXT_MAX:
        return None
    content = tuple(data.items())
    number = _DATA_NUMBERS.get(content)
    if number is None:
        if len(_DATA_NUMBERS) >= _CLEAN_MAX:
            _DATA_NUMBERS.clear()
        number = _DATA_NUMBERS[content] = next(_data_numbers)
    return number


def _check_op(
    schema: OpSchema, layer: Layer, inputs: list[Tensor], where: Where, report: Report
) -> OpResult | None:
    parsed = _attributes(schema, layer, where, report)
    lo, hi = schema.input_counts
    if not lo <= len(inputs) <= hi:
        expected_count = str(lo) if lo == hi else f"{lo} or {hi}" if hi < sys.maxsize else f"at least {lo}"
        consequence = ""
        if len(inputs) > hi:  # IR v10 dropped them already where OpenVINO does (§11)
            message = schema.extra_inputs.format(count=len(inputs)) or "node index is out of range"
            consequence = f"; OpenVINO rejects the layer ('{message}')"
        report(
            rules.INPUT_COUNT(
                _located(where),
                op=schema.name,
                expected_count=expected_count,
                count=len(inputs),
                consequence=consequence,
            )
        )
        if len(inputs) < lo:
            return None
        inputs = inputs[:hi]
    infer, readings = _shape_function(schema)
    call = OpCall(schema, tuple(inputs), parsed)
    if reading.any_read_apart(inputs):  # (rare: a Convert or Divide of a type's maximum above)
        from irshape.shapes import bounds

        result = bounds.infer_apart(infer, call)
    else:
        result = infer(call)
    reading.fold(call, result)
    # A layer typed 'Constant' (no bytes, so no value: rare) feeding an input OpenVINO reads.
    if (result.findings or schema.evaluated_inputs) and any(i.unknown is Unknown.NO_BYTES for i in inputs):
        from irshape.check import layer_findings

        result = layer_findings.no_value(schema, readings, inputs, result)
    if result.findings:
        from irshape.check import layer_findings  # (a layer with findings only)

        located = _located(where)
        for finding in result.findings:
            layer_findings.report_finding(layer, finding, located, report)
    return result if result.outputs else None


# A declaration's <data> validated clean, kept by the identities of both: the reader shares one
# <data> dict among the layers whose <data> says the same, so a model validates each distinct
# <data> of an op once, and makes no location for it (the ParsedAttributes are only read).
_CLEAN_ATTRIBUTES: dict[tuple[int, int], tuple[OpSchema, dict[str, str], ParsedAttributes]] = {}


def _attributes(schema: OpSchema, layer: Layer, where: Where, report: Report) -> ParsedAttributes:
    """The layer's <data> validated against ``schema``: once a (declaration, <data>) while clean."""
    data = layer.data
    key = (id(schema), id(data))
    kept = _CLEAN_ATTRIBUTES.get(key)
    if kept is not None and kept[0] is schema and kept[1] is data:
        return kept[2]
    found: list[Diagnostic] = []
    parsed = validate_attributes(schema, data, _located(where).at_line(layer.data_line), found.append)
    if found:  # its findings are located: validated again at each layer
        for diagnostic in found:
            report(diagnostic)
        return parsed
    if len(_CLEAN_ATTRIBUTES) >= _CLEAN_MAX:
        _CLEAN_ATTRIBUTES.clear()
    _CLEAN_ATTRIBUTES[key] = (schema, data, parsed)
    return parsed


# The shape function a declaration names and what it reads of its value inputs, by the
# declaration's identity (asked for every check that is not a repeat).
_FUNCTIONS: IdentityMemo[OpSchema, tuple[ShapeFunction, dict[int, reading.Reading]]] = {}


def _shape_function(schema: OpSchema) -> tuple[ShapeFunction, dict[int, reading.Reading]]:
    kept = _FUNCTIONS.get(id(schema))
    if kept is not None and kept[0] is schema:
        return kept[1]
    return by_identity(_FUNCTIONS, schema, _make_shape_function)


def _make_shape_function(schema: OpSchema) -> tuple[ShapeFunction, dict[int, reading.Reading]]:
    infer = shape_function(schema.family, schema.function)
    return infer, getattr(infer, reading.READS, {})


def check_v10_folding(
    schema: OpSchema,
    layer: Layer,
    inputs: list[Tensor],
    inference: OpResult | None,
    where: Where,
    report: Report,
) -> None:
    """IRS214 where IR v10's reading constant-folds the layer and fails reading an input: a
    ``Constant`` with no bytes, a Const of dynamic type (docs/openvino-ir-reading.md §13); or
    fails evaluating it (a scatter's index out of range, §14)."""
    failure = reading.v10_fold_failure(schema.op, inputs)
    evaluation = None if inference is None else reading.v10_evaluation_failure(inputs, inference.outputs)
    if failure is None and evaluation is None:
        return  # the usual layer
    from irshape.check import layer_findings  # (a layer whose folding fails only)

    if failure is None:
        problem = "every input is a constant, so IR v10's reading folds the layer, and evaluating it fails"
        finding = Finding(rules.INPUT_VALUE, {"problem": problem, "ov_message": evaluation}, AT_LAYER)
        layer_findings.report_finding(layer, finding, _located(where), report)
        return
    port, ov_message = failure
    name = schema.inputs[min(port, len(schema.inputs) - 1)].name if schema.inputs else f"input {port}"
    what = "a layer typed 'Constant' (no bytes)" if ov_message == reading.V10_NULL_DATA else "of dynamic type"
    problem = (
        f"input {port} ({name}) is {what} and every input is a constant: IR v10's reading folds the "
        "layer, reading that input's data"
    )
    args = {"problem": problem, "ov_message": ov_message}
    layer_findings.report_finding(layer, Finding(rules.INPUT_VALUE, args, port), _located(where), report)


def _located(where: Where) -> Location:
    return where if isinstance(where, Location) else where()


def compare_declared(layer: Layer, result: OpResult, where: Where, report: Report) -> None:
    """Compare every declared output port's dims with the inferred output of that index.

    Axes whose inference already failed with an error (a kernel too large for its input) are
    not compared: the error says more than a second finding about the same axis would. The
    usual port declares the inferred dims (as a tuple, in one step) or fits them (-1 where
    OpenVINO infers ?): no location is made for it.
    """
    ports = layer.outputs
    if not ports:
        if result.outputs:
            report(rules.OUTPUT_PORT_MISSING(_located(where), inferred=result.outputs[0].shape))
        return
    located = None
    for port, output in zip(ports, result.outputs, strict=False):
        dims = port.dims
        if not dims or dims == output.shape.lengths or _fits(dims, output.shape):
            continue
        if result.rejected:  # "OpenVINO will use N" would be untrue: it stops at the error
            return
        if located is None:
            located = _located(where)
        from irshape.check import layer_findings  # (a port that does not fit only)

        layer_findings.compare_port(port, output, located, report)


def _fits(declared: tuple[int, ...], inferred: PartialShape) -> bool:
    """Does every declared dim lie within the inferred one (-1 any)? Then
    :func:`~irshape.check.layer_findings.compare_port` finds nothing: the usual port of a
    dynamic output (the file's -1 where OpenVINO infers ?)."""
    dims = inferred.dims
    if dims is None:  # a dynamic rank: nothing to compare
        return True
    if len(declared) != len(dims):
        return False
    for length, dim in zip(declared, dims, strict=True):
        if length != -1 and not dim.lo <= length <= dim.hi:
            return False
    return True
