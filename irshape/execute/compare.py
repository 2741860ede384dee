"""``irshape compare``: run a model on OpenVINO's CPU plugin and on irshape's kernels with the
same inputs, every layer's output exposed on both sides, and find where they diverge.

OpenVINO is an optional extra (``pip install 'irshape[compare]'``), imported here only. The CPU
plugin is compiled with ``INFERENCE_PRECISION_HINT=f32`` (on CPUs with native bf16 its default
is bf16). Every output of every op of the model is added to the model's outputs
(``Model.add_outputs``), so the plugin computes each as the op defines it rather than fused into
its neighbours, and each is compared with irshape's output of the layer of the same name as it
is computed, under ``max|a - b| <= atol + rtol * max|ref|`` (integers and booleans exactly).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from irshape.execute.network import LayerOutcome, execute
from irshape.execute.tensors import DEFAULT_MAX_MEMORY
from irshape.ir.model import Document, Layer
from irshape.kernels import Context

CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}
DEFAULT_ATOL, DEFAULT_RTOL = 1e-4, 1e-3


@dataclass(frozen=True, slots=True)
class OutputComparison:
    """One output of one layer, irshape's against OpenVINO's."""

    layer: Layer
    index: int
    max_error: float  # max |a - b| over the elements both hold (inf: a NaN or an infinity differs)
    max_reference: float  # max |ref|: the scale the relative tolerance applies to
    limit: float  # atol + rtol * max_reference (0 for integers and booleans)
    problem: str | None  # why they differ (shape, dtype, values); None when they agree
    differing: int = 0  # the elements that differ (beyond the limit, for reals)

    @property
    def agrees(self) -> bool:
        return self.problem is None


@dataclass(slots=True)
class Comparison:
    """Every compared output in execution order, and the layers irshape could not run."""

    outputs: list[OutputComparison] = field(default_factory=list)
    not_run: list[LayerOutcome] = field(default_factory=list)
    not_in_openvino: list[str] = field(default_factory=list)  # layers OpenVINO's model lacks

    @property
    def divergent(self) -> list[OutputComparison]:
        return [c for c in self.outputs if not c.agrees]


def compare_document(
    document: Document,
    inputs: Mapping[str, np.ndarray],
    *,
    atol: float = DEFAULT_ATOL,
    rtol: float = DEFAULT_RTOL,
    max_memory: int = DEFAULT_MAX_MEMORY,
    variables: Mapping[str, np.ndarray] | None = None,
    extensions: Sequence[str] = (),
    isolate: bool = False,
) -> Comparison:
    """Compare every layer's outputs of ``document`` (read from a file: OpenVINO reads the same
    file) on ``inputs`` (by Parameter name), a stateful model's variables starting from
    ``variables`` (by variable id; the others from their initialisers). OpenVINO's Core adds
    ``extensions`` (paths of extension libraries, such as openvino_tokenizers') before reading;
    the layers of their ops are not run by irshape (``not_run``).

    With ``isolate`` each layer runs on OpenVINO's outputs of the layers above it (where OpenVINO
    has them, of the same shape), so that a difference is the layer's own and not carried down
    from above: in a quantized network a FakeQuantize turns the last-bit differences of the
    convolution above it into a whole quantization step wherever a value lies on a rounding
    boundary, and every layer below inherits it."""
    if document.source is None:
        raise ValueError("compare needs the IR on disk: OpenVINO reads the file itself")
    reference = openvino_outputs(document.source, inputs, variables or {}, extensions)
    comparison = Comparison()

    def compare(layer: Layer, outputs: tuple[np.ndarray, ...], body: str) -> tuple[np.ndarray, ...] | None:
        if body or (layer.type or "").lower() in ("parameter", "const"):
            return None  # (OpenVINO exposes no body layer's output to compare with)
        for index, array in enumerate(outputs):
            expected = reference.get((layer.name or "", index))
            if expected is None:
                comparison.not_in_openvino.append(layer.name or "")
                return None
            comparison.outputs.append(compare_arrays(layer, index, expected, array, atol, rtol))
        if not isolate:
            return None
        return tuple(_openvinos(array, reference[(layer.name or "", i)]) for i, array in enumerate(outputs))

    context = Context(dict(variables or {}))
    execution = execute(
        document, inputs, max_memory=max_memory, stop_at_failure=False, on_layer=compare, context=context
    )
    comparison.not_run = execution.failures
    return comparison


def _openvinos(ours: np.ndarray, openvinos: np.ndarray) -> np.ndarray:
    """OpenVINO's output in place of irshape's, in irshape's dtype, where the two are alike (the
    same shape, both numbers or both booleans); irshape's own otherwise."""
    alike = ours.shape == openvinos.shape and (ours.dtype.kind == "b") == (openvinos.dtype.kind == "b")
    if not alike or ours.dtype.kind not in "biuf" or openvinos.dtype.kind not in "biuf":
        return ours
    return openvinos.astype(ours.dtype)


class ExtensionError(RuntimeError):
    """OpenVINO's Core cannot add an extension library (not found, not a library, built for
    another OpenVINO)."""

    def __init__(self, library: str, reason: str) -> None:
        super().__init__(f"cannot load the extension library {library}: {reason}")
        self.library, self.reason = library, reason


def openvino_message(exc: BaseException) -> str:
    """What an OpenVINO exception says, without the ``Exception from src/...cpp:N:`` lines that
    lead each of its layers (the last line that is not one is the cause)."""
    lines = [line.strip() for line in str(exc).splitlines()]
    said = [line for line in lines if line and not line.startswith("Exception from ")]
    return said[-1] if said else str(exc).strip() or type(exc).__name__


def openvino_outputs(
    xml: str | Path,
    inputs: Mapping[str, np.ndarray],
    variables: Mapping[str, np.ndarray],
    extensions: Sequence[str] = (),
) -> dict[tuple[str, int], np.ndarray]:
    """Every op's outputs on OpenVINO's CPU plugin, by (op name, output index). An extension
    library that cannot be added is an :class:`ExtensionError`."""
    import openvino as ov  # type: ignore[import-untyped,unused-ignore]  # the optional extra

    core = ov.Core()
    for library in extensions:
        try:
            core.add_extension(library)
        except RuntimeError as exc:
            raise ExtensionError(library, openvino_message(exc)) from None
    # Every object made through the Core (the model, the request, its output tensors) is freed
    # before the Core, on _outputs_of's return: OpenVINO unloads an extension's library with the
    # last Core that added it, and an output tensor of an extension op freed after that crashes
    # the process (SIGSEGV, OpenVINO 2026.4.1, bpe_tokenizer.xml with openvino_tokenizers).
    return _outputs_of(core, xml, inputs, variables)


def _outputs_of(
    core: Any, xml: str | Path, inputs: Mapping[str, np.ndarray], variables: Mapping[str, np.ndarray]
) -> dict[tuple[str, int], np.ndarray]:
    import openvino as ov  # type: ignore[import-untyped,unused-ignore]  # the optional extra

    model = core.read_model(str(xml))
    targets = [
        op.output(index)
        for op in model.get_ordered_ops()
        # (an Assign is a sink: the plugin exposes no output of it; its value is its input's)
        if op.get_type_name() not in ("Parameter", "Constant", "Result", "Assign")
        for index in range(op.get_output_size())
    ]
    model.add_outputs(targets)  # (an output a Result already has is not added twice)
    compiled = core.compile_model(model, "CPU", CPU_CONFIG)
    request = compiled.create_infer_request()
    for state in request.query_state():
        if state.name in variables:
            state.state = ov.Tensor(np.ascontiguousarray(variables[state.name]))
    request.infer(
        {i: _for_openvino(inputs[p.get_friendly_name()]) for i, p in enumerate(model.get_parameters())}
    )
    out: dict[tuple[str, int], np.ndarray] = {}
    for position, result in enumerate(model.get_results()):
        source = result.input_value(0)  # the op output the Result reads
        key = (source.get_node().get_friendly_name(), source.get_index())
        tensor = request.get_output_tensor(position)
        if tensor.element_type == ov.Type.string:  # as irshape holds strings: str objects
            out[key] = _strings(tensor.bytes_data)
        else:
            out[key] = np.array(tensor.data, copy=True)
    return out


def _strings(raw: np.ndarray) -> np.ndarray:
    """OpenVINO's byte strings as irshape holds them: ``str`` objects, a byte that is not UTF-8
    kept by ``surrogateescape`` (irshape/kernels/strings.py; ``str_data`` makes it U+FFFD)."""
    decoded = [bytes(b).decode("utf-8", errors="surrogateescape") for b in raw.reshape(-1)]
    strings = np.empty(len(decoded), dtype=object)
    strings[:] = decoded
    return strings.reshape(raw.shape)


def _for_openvino(data: np.ndarray) -> np.ndarray:
    """An input as OpenVINO takes it: strings (irshape's str objects) as numpy's str dtype,
    which OpenVINO's string tensors are filled from (an object array fails there)."""
    array = np.asarray(data)
    return array.astype(str) if array.dtype.kind == "O" else array


def compare_arrays(
    layer: Layer, index: int, expected: np.ndarray, got: np.ndarray, atol: float, rtol: float
) -> OutputComparison:
    """irshape's output ``got`` against OpenVINO's ``expected``."""
    if got.shape != expected.shape:
        problem = f"shape {_shape(got.shape)}, OpenVINO's {_shape(expected.shape)}"
        return OutputComparison(layer, index, float("inf"), 0.0, 0.0, problem)
    if expected.dtype.kind not in "fc" or got.dtype.kind not in "fc":
        if expected.dtype.kind in "OUS" or got.dtype.kind in "OUS":
            same = int(np.sum(expected != got)) == 0
            return OutputComparison(
                layer, index, 0.0 if same else float("inf"), 0.0, 0.0, None if same else "the strings differ"
            )
        differs = int(np.count_nonzero(expected.astype(np.float64) != got.astype(np.float64)))
        error = float(np.abs(expected.astype(np.float64) - got.astype(np.float64)).max()) if got.size else 0.0
        count = f"{differs} of {got.size} elements differ" if differs else None
        return OutputComparison(layer, index, error, 0.0, 0.0, count, differs)
    with np.errstate(invalid="ignore", over="ignore"):
        return _compare_reals(layer, index, expected.astype(np.float64), got.astype(np.float64), atol, rtol)


def _compare_reals(
    layer: Layer, index: int, e: np.ndarray, g: np.ndarray, atol: float, rtol: float
) -> OutputComparison:
    special = ~np.isfinite(e) | ~np.isfinite(g)
    same_special = (np.isnan(e) & np.isnan(g)) | (e == g)
    finite = ~special
    reference = float(np.abs(e[finite]).max()) if finite.any() else 0.0
    limit = atol + rtol * reference
    error = float(np.abs(e[finite] - g[finite]).max()) if finite.any() else 0.0
    problem: str | None = None
    differing = 0
    if not np.all(same_special[special]):
        differing = int(np.count_nonzero(special & ~same_special))
        problem = f"{differing} NaN or infinite element(s) differ"
        error = float("inf")
    elif error > limit:
        differing = int(np.count_nonzero(np.abs(e[finite] - g[finite]) > limit))
        problem = f"max |error| {error:.3g} > {limit:.3g} ({differing} of {e.size} elements)"
    return OutputComparison(layer, index, error, reference, limit, problem, differing)


def _shape(dims: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in dims) + "]"


def describe(comparison: OutputComparison) -> str:
    """One line: the layer, the output, and the error figures."""
    layer = comparison.layer
    head = f"layer {layer.id} '{layer.name}' ({layer.type}) output {comparison.index}"
    if comparison.problem is None:
        return f"{head}: agrees (max |error| {comparison.max_error:.3g})"
    figures = ""
    if comparison.max_reference:
        relative = comparison.max_error / comparison.max_reference
        figures = f"; max |ref| {comparison.max_reference:.3g}, relative {relative:.3g}"
    return f"{head}: {comparison.problem}{figures}"


def summary_counts(comparison: Comparison) -> dict[str, Any]:
    return {
        "outputs_compared": len(comparison.outputs),
        "outputs_divergent": len(comparison.divergent),
        "layers_not_run": len(comparison.not_run),
    }
