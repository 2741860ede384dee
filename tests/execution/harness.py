"""Differential execution: irshape's kernels against OpenVINO's CPU plugin.

A suite builds many small cases with OpenVINO's opset API: each case is a few Parameters with
the data to feed them and the node outputs to compare. :func:`run_batch` puts a whole batch of
cases into ONE model, saves it as IR (``compress_to_fp16=False``), compiles it once on the CPU
plugin with ``INFERENCE_PRECISION_HINT=f32`` (on CPUs with native bf16 the plugin's default is
bf16, off by about 1e-2) and runs it once; irshape then reads the saved IR and executes it with
``irshape.execute.network.execute`` on the same inputs, so the IR reader, the Const reading, the
executor and the kernels are all on the path. Each case's outputs are then compared:

* floats: NaN where OpenVINO has NaN, the same infinities, elsewhere
  ``max|a - b| <= 1e-4 + 1e-3 * max|ref|``;
* integers and booleans: exactly; and the element types must be equal.

Where a rule holds: the plugin's code paths depend on the CPU's instruction set (oneDNN's 16
f32 lanes on avx512 against 8 on avx2, other JIT kernels, bf16 emulated). The rules were
measured on an avx512_core Xeon: :data:`PLUGIN_ISA` is the set the plugin runs here
(``irshape.kernels.isa``: from ``/proc/cpuinfo`` as oneDNN decides it, capped by
``ONEDNN_MAX_CPU_ISA`` as oneDNN caps it), and a case's ``exact`` can name where exactness holds
(``exact=AVX512_ONLY``, ``BF16_ON_AVX512``): exact there, within a tolerance elsewhere (integers
then compared as reals). No case is skipped anywhere.

Usage, in ``tests/execution/test_<family>.py``::

    def relu_cases() -> list[Case]:
        rng = np.random.default_rng(0)
        cases = []
        for i in range(100):
            x = parameter((2, 3), np.float32)                  # an opset Parameter
            cases.append(Case(f"relu{i}", {x: rng.standard_normal((2, 3), np.float32)},
                              [opset.relu(x).output(0)]))
        return cases

    CASES = relu_cases()

    @pytest.fixture(scope="module")
    def batch(tmp_path_factory):
        return run_batch(CASES, tmp_path_factory.mktemp("relu"))

    @pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
    def test_relu(batch, case):
        assert batch.mismatch(case) is None, batch.mismatch(case)

A case whose node the CPU plugin cannot compile makes the whole batch fail to compile: keep
each batch to what the plugin builds (and test refusals on their own).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset13 as opset

from irshape.execute.network import Execution, execute
from irshape.ir.reader import read_file
from irshape.kernels.isa import PLUGIN_ISA

CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}
ATOL, RTOL = 1e-4, 1e-3

_core = ov.Core()
_ids = itertools.count()


@dataclass(frozen=True)
class ExactOn:
    """Exact on these instruction sets (``irshape.kernels.isa.ISAS``); elsewhere within the
    tolerance, relative ``rtol`` (integers compared as reals there too)."""

    isas: frozenset[str]
    rtol: float = RTOL


@dataclass(frozen=True)
class WithinOn:
    """A case that is not exact: the harness's tolerance on these instruction sets, relative
    ``rtol`` elsewhere."""

    isas: frozenset[str]
    rtol: float


# exact only where the plugin runs its avx512_core code (rules of 16 lanes, its JIT kernels)
AVX512_ONLY = ExactOn(frozenset({"avx512_core"}))
# bf16 rounded exactly where the plugin has bf16 (avx512_core); without it the plugin keeps
# bf16 tensors as f32 (by experiment under ONEDNN_MAX_CPU_ISA=AVX2: Convert to bf16 and back
# returns the f32 value), so within one unit of bf16 (2^-7 relative: irshape's i32 -> bf16 is
# the plugin's avx512 conversion, which is not rounded to nearest)
BF16_ON_AVX512 = ExactOn(frozenset({"avx512_core"}), rtol=2.0**-7)
# bf16 computed through other ops: within the harness's tolerance on avx512_core; elsewhere the
# plugin's inputs, intermediates and output are f32 where irshape rounds each to bf16: within
# a few bf16 units (2^-5 relative: RoiAlign's sampling of rounded inputs reached 1.4%)
BF16_AS_F32_OFF_AVX512 = WithinOn(frozenset({"avx512_core"}), rtol=2.0**-5)
Exactness = bool | ExactOn | WithinOn


def exact_here(exact: Exactness) -> bool:
    """Whether a case's ``exact`` holds on the instruction set the plugin runs here."""
    if isinstance(exact, WithinOn):
        return False
    return exact if isinstance(exact, bool) else PLUGIN_ISA in exact.isas


def _rtol_here(exact: Exactness) -> float:
    if isinstance(exact, bool) or PLUGIN_ISA in exact.isas:
        return RTOL
    return exact.rtol


def parameter(shape: Sequence[int], dtype: Any = np.float32) -> ov.Node:
    """A Parameter of a static ``shape`` and numpy ``dtype`` (its friendly name is set by the batch)."""
    return opset.parameter(list(shape), ov.Type(np.dtype(dtype)))


@dataclass
class Case:
    """One case: the data of its Parameters, and the outputs to compare."""

    name: str
    inputs: Mapping[ov.Node, np.ndarray]
    outputs: Sequence[ov.Output]
    # compare exactly even floats (an op whose result is one of its inputs' elements); a set of
    # instruction sets (AVX512_ONLY) where it holds only there, within tolerance elsewhere
    exact: Exactness = False


@dataclass
class Batch:
    """One batch's answers: OpenVINO's and irshape's arrays by output name."""

    xml: Path
    expected: dict[str, np.ndarray]
    got: dict[str, np.ndarray]
    execution: Execution | None
    error: str | None  # why irshape could not execute the model at all
    names: dict[str, list[str]] = field(default_factory=dict)  # case name -> its output names
    exact: dict[str, Exactness] = field(default_factory=dict)

    def mismatch(self, case: Case) -> str | None:
        """Why irshape's outputs of ``case`` differ from OpenVINO's; None when they agree."""
        if self.error is not None:
            return f"irshape could not execute the batch: {self.error}"
        for name in self.names[case.name]:
            problem = compare(self.expected[name], self.got.get(name), exact=self.exact[case.name])
            if problem is not None:
                return f"{name}: {problem}"
        return None


def named_for_batch(
    name: str, parameters: Iterable[ov.Node], outputs: Sequence[ov.Output]
) -> tuple[list[ov.Node], list[ov.Node]]:
    """A case's Parameters and a Result of each of its outputs, named after the case
    (``NAME_inI``, ``NAME_outJ``) as a batch's model holds them."""
    named = list(parameters)
    for i, parameter in enumerate(named):
        parameter.set_friendly_name(f"{name}_in{i}")
        parameter.output(0).set_names({f"{name}_in{i}"})
    results = []
    for j, output in enumerate(outputs):
        result = opset.result(output)
        result.set_friendly_name(f"{name}_out{j}")
        results.append(result)
    return named, results


def run_batch(cases: Sequence[Case], directory: Path, *, config: Mapping[str, Any] | None = None) -> Batch:
    """Build, save, compile and run ``cases`` as one model, and execute it with irshape."""
    parameters: list[ov.Node] = []
    feeds: list[np.ndarray] = []
    results: list[ov.Node] = []
    names: dict[str, list[str]] = {}
    for case in cases:
        case_parameters, case_results = named_for_batch(case.name, case.inputs, case.outputs)
        parameters += case_parameters
        feeds += [np.asarray(value) for value in case.inputs.values()]
        results += case_results
        names[case.name] = [result.get_friendly_name() for result in case_results]
    model = ov.Model(results, parameters, f"batch{next(_ids)}")
    xml = directory / f"{model.get_friendly_name()}.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    compiled = _core.compile_model(_core.read_model(xml), "CPU", dict(config or CPU_CONFIG))
    request = compiled.create_infer_request()
    request.infer(feeds)
    expected = {}
    for index, result in enumerate(results):  # compiled outputs come in the model's order
        expected[result.get_friendly_name()] = np.array(request.get_output_tensor(index).data, copy=True)
    inputs = {
        f"{case.name}_in{i}": np.asarray(value)
        for case in cases
        for i, value in enumerate(case.inputs.values())
    }
    batch = Batch(xml, expected, {}, None, None, names, {case.name: case.exact for case in cases})
    read = read_file(xml)
    if read.document is None:
        batch.error = "irshape cannot read the saved IR"
        return batch
    try:
        batch.execution = execute(read.document, inputs)
    except ValueError as exc:
        batch.error = str(exc)
        return batch
    batch.got = batch.execution.results
    return batch


def compare(expected: np.ndarray, got: np.ndarray | None, *, exact: Exactness = False) -> str | None:
    """Why ``got`` is not ``expected`` under the suite's tolerance; None when it is. An ``exact``
    that does not hold on this instruction set compares integers, too, within the tolerance."""
    if got is None:
        return "irshape produced no such output"
    if got.shape != expected.shape:
        return f"shape {got.shape}, OpenVINO's {expected.shape}"
    if got.dtype != expected.dtype:
        return f"dtype {got.dtype}, OpenVINO's {expected.dtype}"
    if isinstance(exact, ExactOn) and not exact_here(exact) and expected.dtype.kind in "iuf":
        with np.errstate(invalid="ignore", over="ignore"):
            return _compare_reals(expected.astype(np.float64), got.astype(np.float64), exact.rtol)
    if expected.dtype.kind != "f" or exact_here(exact):
        if expected.dtype.kind == "f":
            same = (got == expected) | (np.isnan(got) & np.isnan(expected))
        else:
            same = got == expected
        if not np.all(same):
            where = tuple(int(i) for i in np.argwhere(~same)[0])
            return f"differs at {where}: {got[where]!r}, OpenVINO's {expected[where]!r}"
        return None
    with np.errstate(invalid="ignore", over="ignore"):
        return _compare_reals(expected.astype(np.float64), got.astype(np.float64), _rtol_here(exact))


def _compare_reals(e: np.ndarray, g: np.ndarray, rtol: float = RTOL) -> str | None:
    if not np.array_equal(np.isnan(e), np.isnan(g)):
        where = tuple(int(i) for i in np.argwhere(np.isnan(e) != np.isnan(g))[0])
        return f"NaN differs at {where}: {g[where]!r}, OpenVINO's {e[where]!r}"
    infinite = np.isinf(e) | np.isinf(g)
    if not np.array_equal(e[infinite], g[infinite]):
        where = tuple(int(i) for i in np.argwhere(infinite & (e != g))[0])
        return f"infinity differs at {where}: {g[where]!r}, OpenVINO's {e[where]!r}"
    finite = ~(np.isnan(e) | infinite)
    if not finite.any():
        return None
    error = np.abs(e[finite] - g[finite]).max()
    limit = ATOL + rtol * np.abs(e[finite]).max()
    if error > limit:
        where = tuple(int(i) for i in np.argwhere(finite & (np.abs(e - g) == error))[0])
        return f"max |error| {error:.3g} > {limit:.3g}, at {where}: {g[where]!r}, OpenVINO's {e[where]!r}"
    return None
