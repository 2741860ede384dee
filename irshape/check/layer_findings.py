"""What one layer's check reports, made only when it has something to report: a shape
function's findings as diagnostics at their lines (the layer's, its ``<data>``'s, an input
port's), the declared output dims that differ from the inferred ones, and the inputs a layer
typed 'Constant' leaves without the value OpenVINO reads.

Apart from :mod:`irshape.check.layer` for start-up: the check of a clean layer never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from irshape import rules
from irshape.diagnostics import Diagnostic, Location
from irshape.dims import DYNAMIC, PartialShape
from irshape.ir.model import Layer
from irshape.ir.weights import CONSTANT_WITHOUT_BYTES
from irshape.ops.interface import AT_DATA, AT_LAYER, Finding, OpResult, Output, Tensor, Unknown
from irshape.ops.schema import OpSchema
from irshape.shapes import reading

Report = Callable[[Diagnostic], None]


def report_finding(layer: Layer, finding: Finding, where: Location, report: Report) -> None:
    """A finding of the layer as a diagnostic, at its line."""
    report(finding.rule(_anchored(layer, finding, where), **_port_args(layer, finding.args)))


def no_value(
    schema: OpSchema, readings: dict[int, reading.Reading], inputs: list[Tensor], result: OpResult
) -> OpResult:
    """A layer typed 'Constant' has no value (docs/openvino-ir-reading.md §13): where OpenVINO
    reads the value of one itself, not its bounds, it fails ('ptr is Null': Gather's axis,
    Transpose's order, Interpolate's sizes; §15), as :func:`reading.constant_failure` judges
    (the reading of the shape function's ``@reads`` asked it already). OpenVINO reads it where
    the shape function needed it (which says so with IRS306), and the inputs it evaluates
    whatever the shapes (``evaluated_inputs``). The layer is rejected: no outputs."""
    ports = [i for i in schema.evaluated_inputs if i < len(inputs)]
    ports += [
        finding.anchor
        for finding in result.findings
        if finding.rule is rules.VALUE_UNKNOWN and isinstance(finding.anchor, int)
    ]
    # (an input the shape function's reading already found unreadable is said there)
    said = {f.anchor for f in result.findings if f.rule is not rules.VALUE_UNKNOWN}
    failing = {
        i: message
        for i in sorted(set(ports))
        if i < len(inputs)
        and i not in said
        and inputs[i].unknown is Unknown.NO_BYTES
        and (message := reading.constant_failure(schema, i, readings.get(i))) is not None
    }
    if not failing:
        return result
    from irshape.shapes.findings import value_finding  # findings: imported where one is made

    findings = [f for f in result.findings if not (f.rule is rules.VALUE_UNKNOWN and f.anchor in failing)]
    for port, message in failing.items():
        name = schema.inputs[port].name if port < len(schema.inputs) else f"input {port}"
        problem = f"input {port} ({name}) is {CONSTANT_WITHOUT_BYTES}, so it has no value"
        findings.append(value_finding(problem, message, port))
    return OpResult([], findings)


def _port_args(layer: Layer, args: dict[str, Any]) -> dict[str, Any]:
    """A shape function names an input by its index (``port``: an int); a finding names it by
    the id of its ``<port>`` in the file, and its message by the index."""
    index = args.get("port")
    if not isinstance(index, int):
        return args
    port = layer.inputs[index].id if 0 <= index < len(layer.inputs) else None
    return {**args, "port": port, "input_index": index}


def _anchored(layer: Layer, finding: Finding, where: Location) -> Location:
    """The line a finding is about: the layer's, its <data>'s or an input port's."""
    if finding.anchor is AT_LAYER:
        return where
    if finding.anchor == AT_DATA:
        return where.at_line(layer.data_line)
    index = finding.anchor
    return (
        where.at_line(layer.inputs[index].line)
        if isinstance(index, int) and index < len(layer.inputs)
        else where
    )


def compare_port(port: Any, output: Output, where: Location, report: Report) -> None:
    inferred = output.shape
    if not port.dims or inferred.dims is None:  # no <dim>s: a dynamic rank, nothing to compare
        return
    if port.dims == inferred.lengths:  # the usual case: the file says what OpenVINO computes
        return
    if len(port.dims) != inferred.rank:
        declared_shape = PartialShape(DYNAMIC if d == -1 else d for d in port.dims)
        report(
            rules.DECLARED_RANK_MISMATCH(
                where,
                line=port.line,
                port=port.id,
                declared=str(declared_shape),
                expected=str(inferred),
                declared_rank=len(port.dims),
                inferred=inferred,
                inferred_rank=inferred.rank,
            )
        )
        return
    for axis, (declared, dim) in enumerate(zip(port.dims, inferred.dims, strict=True)):
        if declared == -1 or dim.lo <= declared <= dim.hi or dim.is_empty or axis in output.failed_axes:
            continue
        formula = output.formulas[axis] if axis < len(output.formulas) else ""
        report(
            rules.DECLARED_DIM_MISMATCH(
                where,
                line=port.dim_line(axis),
                port=port.id,
                axis=axis,
                declared=declared,
                expected=dim.to_json(),
                inferred=dim,
                arithmetic=f" = {formula}" if formula else "",
            )
        )
