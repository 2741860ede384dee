"""Dry runs (``irshape check --dry-run``): execute every layer of a file with numpy.

The Parameters get seeded random data at their declared shapes (dynamic dims at
``--dim-value``), the Consts their values from the ``.bin``; then every layer runs in graph
order through :mod:`irshape.execute.network`. Each executed output is compared with the dims
its port declares (IRS501); a layer that cannot run says why (IRS502, IRS503, IRS504), and a
kernel whose output contradicts irshape's own shape inference is a finding that asks for a
report (IRS505). The summary counts the layers executed and those not, by reason. numpy is
imported here only, and this module only when a dry run is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from irshape import rules
from irshape.diagnostics import Diagnostic
from irshape.dims import DimSyntaxError, PartialShape, parse_partial_shape
from irshape.execute.network import InputUnavailable, LayerOutcome, Outcome, execute
from irshape.execute.run import RunError, parameter_shape, parameters, random_input
from irshape.execute.tensors import DEFAULT_MAX_MEMORY, byte_size
from irshape.ir import element_types
from irshape.ir.model import Document, Layer
from irshape.kernels import Context, storage_dtype
from irshape.results import DryRunSummary

Report = Callable[[Diagnostic], None]
Progress = Callable[[int, int], None]

# How the summary names what kept a layer from running.
_REASONS = {
    Outcome.NO_KERNEL: "without a kernel",
    Outcome.UNKNOWN_OP: "of an op irshape does not know",
    Outcome.INVALID: "not valid",
    Outcome.NO_VALUE: "without input data",
    Outcome.OVER_MEMORY: "over the memory limit",
    Outcome.UNSUPPORTED: "refused",
    Outcome.KERNEL_FAILED: "refused",
    Outcome.DISAGREES: "disagreeing with the inference",
    Outcome.INPUT_MISSING: "without input data",
}
_BELOW = "below a layer not run"


@dataclass(frozen=True, slots=True)
class DryRunOptions:
    seed: int = 0
    dim_value: int | None = None  # the size to run dynamic (-1) dims at; None skips such layers
    max_memory: int = DEFAULT_MAX_MEMORY  # bytes of working memory one layer may use


def dry_run(
    document: Document,
    options: DryRunOptions,
    report: Report,
    progress: Progress | None = None,
    compiled: dict[int, PartialShape] | None = None,
) -> DryRunSummary:
    """Execute every layer of ``document``; report what differs or cannot run; say how many ran.
    ``compiled``: the check's shapes of the control-flow layers' ports and bodies'
    (``check_document``'s ``body_shapes``), which the executor then does not infer again."""
    inputs, missing = _random_inputs(document, options)
    path = document.path
    total = sum(
        1 for layer in document.layers if (layer.type or "").lower() not in ("parameter", "const", "result")
    )
    done = 0
    body_found: set[tuple[str | None, int | None, str | None]] = set()

    def body_report(finding: Diagnostic) -> None:
        """A body layer's finding, named by its path; once, however often the body runs."""
        key = (finding.layer_id, finding.line, finding.port)
        if key not in body_found:
            body_found.add(key)
            report(finding)

    def compare(layer: Layer, outputs: tuple[np.ndarray, ...], body: str) -> None:
        nonlocal done
        if body:  # compared, not counted: its Loop, If or TensorIterator is the layer counted
            if (layer.type or "").lower() not in ("parameter", "const"):
                _compare_declared(
                    layer, outputs, path, lambda d: body_report(d.replace(layer_id=body + (d.layer_id or "")))
                )
            return
        if (layer.type or "").lower() not in ("parameter", "const"):
            _compare_declared(layer, outputs, path, report)
            done += 1
            if progress is not None:
                progress(done, total)

    execution = execute(
        document,
        inputs,
        max_memory=options.max_memory,
        stop_at_failure=False,
        on_layer=compare,
        unconnected=_PortData(options),
        context=Context(_initial_variables(document, options)),
        compiled=compiled,
    )
    summary = DryRunSummary(execution.ran)
    for failure in execution.failures:
        failure = _explained(failure, missing)
        _report_failure(failure, path, options, report)
        if failure.layer.type and failure.layer.type.lower() not in ("parameter", "const", "result"):
            reason = _REASONS[failure.outcome]
            summary.not_executed[reason] = summary.not_executed.get(reason, 0) + 1
    below = execution.total - execution.ran - sum(summary.not_executed.values())
    if below:
        summary.not_executed[_BELOW] = below
    return summary


def _initial_variables(document: Document, options: DryRunOptions) -> dict[str, np.ndarray]:
    """The state a dry run starts from: each ReadValue-6 variable without init as zeros of its
    variable_shape, dynamic dims at --dim-value (clamped), where OpenVINO would start it empty
    (an LLM's KV cache before its first token): an empty cache cannot meet a batch of inputs."""
    if options.dim_value is None:
        return {}
    initial = {}
    for layer in document.layers:
        text, variable = layer.data.get("variable_shape"), layer.data.get("variable_id")
        dtype = storage_dtype(layer.data.get("variable_type"))
        if (layer.type or "").lower() != "readvalue" or layer.inputs or not text or not variable or not dtype:
            continue
        try:
            shape = parse_partial_shape(text)
        except DimSyntaxError:
            continue
        if shape.dims is not None:
            dims = [min(max(options.dim_value, d.lo), d.hi) for d in shape.dims]
            initial[variable] = np.zeros(dims, dtype)
    return initial


def _random_inputs(
    document: Document, options: DryRunOptions
) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Seeded data for every Parameter it can be made for; why not, for the others."""
    rng = np.random.default_rng(options.seed)
    inputs: dict[str, np.ndarray] = {}
    missing: dict[str, str] = {}
    for layer in parameters(document):
        name, shape = layer.name or "", parameter_shape(layer)
        if options.dim_value is None and not shape.is_static:
            missing[name] = f"Parameter '{name}' has the dynamic shape {shape}; give --dim-value N to run it"
            continue
        try:
            inputs[name] = random_input(layer, shape, rng, options.dim_value, clamp=True)
        except RunError as exc:
            missing[name] = str(exc)
    return inputs, missing


class _PortData:
    """Seeded data at the dims an unconnected input port declares (a fragment's layers), in
    the precision it declares (f32 by default)."""

    def __init__(self, options: DryRunOptions) -> None:
        self.rng = np.random.default_rng(options.seed + 1)
        self.dim_value = options.dim_value

    def shape_of(self, layer: Layer, index: int, reads_value: bool) -> tuple[tuple[int, ...], str]:
        port = layer.inputs[index]
        if reads_value:
            raise InputUnavailable(f"the value of input {index} is not known (no Const feeds it)")
        if port.dims is None:
            raise InputUnavailable(f"input {index} has no readable dims")
        if -1 in port.dims and self.dim_value is None:
            raise InputUnavailable("an input has dynamic dims; give --dim-value N to run them at size N")
        dims = tuple(self.dim_value if d == -1 and self.dim_value is not None else d for d in port.dims)
        return dims, element_types.from_precision(port.precision) or "f32"

    def data(self, shape: tuple[int, ...], element_type: str) -> np.ndarray:
        dtype = storage_dtype(element_type) or np.dtype(np.float32)
        if dtype.kind == "f":
            return self.rng.standard_normal(shape, dtype=np.float32).astype(dtype, copy=False)
        if dtype.kind == "b":
            return self.rng.integers(0, 2, size=shape).astype(dtype)
        return self.rng.integers(0, 10, size=shape).astype(dtype)


def _explained(failure: LayerOutcome, missing: dict[str, str]) -> LayerOutcome:
    """A Parameter without data says why the dry run made none (its dynamic dims)."""
    reason = missing.get(failure.layer.name or "")
    if failure.outcome is Outcome.NO_VALUE and reason is not None:
        return LayerOutcome(failure.layer, failure.outcome, reason)
    return failure


def _report_failure(failure: LayerOutcome, path: str, options: DryRunOptions, report: Report) -> None:
    where = failure.layer.location(path)
    if failure.outcome is Outcome.OVER_MEMORY:
        needed, limit = byte_size(failure.needed), byte_size(options.max_memory)
        report(rules.DRY_RUN_MEMORY(where, needed=needed, limit=limit))
    elif failure.outcome in (Outcome.UNSUPPORTED, Outcome.KERNEL_FAILED):
        report(rules.DRY_RUN_FAILED(where, reason=failure.reason))
    elif failure.outcome is Outcome.DISAGREES:
        report(rules.DRY_RUN_DISAGREES(where, reason=failure.reason))
    else:
        report(rules.DRY_RUN_SKIPPED(where, reason=failure.reason))


def _compare_declared(layer: Layer, outputs: tuple[np.ndarray, ...], path: str, report: Report) -> None:
    """IRS501 for each output port whose declared dims are not what the layer produced."""
    for port, array in zip(layer.outputs, outputs, strict=False):
        declared = port.dims
        if not declared:
            continue
        produced = array.shape
        if len(declared) != len(produced) or any(
            d not in (-1, p) for d, p in zip(declared, produced, strict=False)
        ):
            report(
                rules.DRY_RUN_SHAPE_MISMATCH(
                    layer.location(path),
                    line=port.line,
                    port=port.id,
                    produced=_shape(produced),
                    declared=_shape(declared),
                )
            )


def _shape(dims: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in dims) + "]"
