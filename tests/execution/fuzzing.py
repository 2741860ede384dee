"""The kernel fuzzer's machinery: drawing configurations, building them, running them against
OpenVINO's CPU plugin (``test_kernel_fuzz*.py`` hold the drawers, one registry per file).

A seeded random differential fuzzer of the kernels against OpenVINO's CPU plugin.

The per-family suites (``test_<family>.py``) were written family by family, with the cases
their authors thought of. This suite draws configurations at random from what each op version
allows: its attributes over their whole domains (modes, negative axes, auto_pad kinds, rounding
types, broadcast specs), the element types it takes (f32, f16, bf16, f64 and the integers,
boolean where allowed), ranks 0 to 5 with dims of 0 and 1, broadcasting, and data with the
edge values (NaN, +-inf, -0.0, denormals, the integers' extremes, half-way points of rounding,
indices out of range where the op defines them). Many configurations of one family go into ONE
model, compiled once (``harness.run_batch``); a batch the plugin refuses to compile is split in
halves until the refused configurations stand alone, and those are counted, not compared.

Every configuration the plugin runs must agree under the harness's comparison (floats within
tolerance, integers and booleans exactly, equal element types). Beside it, the fuzzer counts
the float elements that are not bit-equal although within tolerance, per op version: a
difference that is systematic (a different rounding rule, a different libm) hides there.

``IRSHAPE_KERNEL_FUZZ=N`` draws N configurations per op version and seed (default 3) and
``IRSHAPE_KERNEL_FUZZ_SEEDS=1,2,3`` (or ``1-8``) other seeds; ``IRSHAPE_KERNEL_FUZZ_REPORT=FILE``
writes the per-op counts (agreed, refused, not bit-equal elements) as JSON.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset13 as opset
from openvino.utils.node_factory import NodeFactory

from irshape.execute.network import execute
from irshape.ir.reader import read_file

from .harness import BF16_AS_F32_OFF_AVX512, BF16_ON_AVX512, Batch, Case, Exactness, compare, run_batch


def _seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        seeds.extend(range(int(low), int(high or low) + 1))
    return seeds


SEEDS = _seeds(os.environ.get("IRSHAPE_KERNEL_FUZZ_SEEDS", "20261128"))
COUNT = int(os.environ.get("IRSHAPE_KERNEL_FUZZ", "3"))
REPORT = os.environ.get("IRSHAPE_KERNEL_FUZZ_REPORT")

FACTORY = {n: NodeFactory(f"opset{n}") for n in range(1, 18)}

Node = Any
F32, F16, BF16, F64 = "f32", "f16", "bf16", "f64"
REALS = [F32, F32, F16, BF16, F64]  # f32 twice: what deployed models use most
SIGNED = ["i8", "i16", "i32", "i64"]
UNSIGNED = ["u8", "u16", "u32", "u64"]
INTEGERS = SIGNED + UNSIGNED
NUMERIC = REALS + INTEGERS
ANY = [*NUMERIC, "boolean"]


class Redraw(Exception):
    """The drawn configuration is not one the op takes: draw another."""


@dataclass
class Draw:
    """One configuration being drawn: its random source, its Parameters and their data."""

    rng: np.random.Generator
    name: str  # the op version drawn, "Add-1"
    inputs: dict[Node, np.ndarray] = field(default_factory=dict)
    exact: bool = False

    # --- choices -----------------------------------------------------------------------
    def pick(self, values: Sequence[Any]) -> Any:
        return values[int(self.rng.integers(len(values)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def int(self, low: int, high: int) -> int:
        return int(self.rng.integers(low, high, endpoint=True))

    def shape(self, rank: int | None = None, low: int = 1, high: int = 4, zero: float = 0.04) -> list[int]:
        """A shape with dims of 1 often and of 0 now and then."""
        if rank is None:
            rank = self.int(0, 5)
        dims = []
        for _ in range(rank):
            roll = self.rng.random()
            dims.append(0 if roll < zero else 1 if roll < 0.25 else self.int(low, high))
        return dims

    def axis(self, rank: int) -> int:
        """An axis of a rank, negative half the time."""
        axis = self.int(0, rank - 1)
        return axis - rank if self.chance(0.5) else axis

    def axes(self, rank: int, count: int | None = None) -> list[int]:
        """Distinct axes of a rank (``count`` of them, else 1 to rank), some negative."""
        if rank == 0:
            return []
        count = self.int(1, rank) if count is None else count
        chosen = self.rng.choice(rank, size=min(count, rank), replace=False)
        return [int(a) - rank if self.chance(0.4) else int(a) for a in chosen]

    # --- tensors -------------------------------------------------------------------------
    def data(self, shape: Sequence[int], element_type: str, kind: str = "edges") -> Node:
        """A Parameter of ``element_type`` fed with drawn data (bf16 through a Convert of f32)."""
        values = self.values(shape, element_type, kind)
        fed = F32 if element_type == BF16 else element_type
        parameter = opset.parameter(list(shape), ov_type(fed))
        self.inputs[parameter] = values
        return opset.convert(parameter, BF16) if element_type == BF16 else parameter

    def const(self, values: Any, element_type: str) -> Node:
        return opset.constant(np.asarray(values), ov_type(element_type))

    def values(self, shape: Sequence[int], element_type: str, kind: str = "edges") -> np.ndarray:
        dtype = numpy_type(element_type)
        shape = tuple(shape)
        if element_type == "boolean":
            return np.asarray(self.rng.random(shape) < 0.5)
        if np.dtype(dtype).kind == "f":
            scale = self.pick([1.0, 3.0, 10.0, 100.0]) if kind != "unit" else 1.0
            values = self.rng.standard_normal(shape) * scale
            if kind == "positive":
                values = np.abs(values) + 0.1
            if kind == "halves":  # rounding's half-way points
                values = np.round(values * 2) / 2
            values = np.asarray(values).astype(dtype)
            if kind in ("edges", "halves") and values.size:
                edges = np.array(_real_edges(element_type), dtype)
                mask = self.rng.random(shape) < 0.2
                values[mask] = self.rng.choice(edges, int(mask.sum()))
            return values
        info = np.iinfo(dtype)
        low, high = {"positive": (0, 5), "small": (-3, 12)}.get(kind, (-100, 100))
        values = np.asarray(
            self.rng.integers(max(info.min, low), min(info.max, high), shape, endpoint=True)
        ).astype(dtype)
        if kind == "edges" and values.size:
            # i64 and u64 Parameters reach the plugin's ops as their low 32 bits (the i32 rule,
            # irshape/kernels/integers.py): their extremes are edges too
            edges = np.array([0, 1, info.min, info.max, info.max - 1, info.min + 1], dtype)
            if element_type in ("i64", "u64"):
                edges = np.concatenate([edges, np.array([2**31 - 1, 2**31, 2**32 + 5], dtype)])
            mask = self.rng.random(shape) < 0.15
            values[mask] = self.rng.choice(edges, int(mask.sum()))
        return values


def ov_type(element_type: str) -> ov.Type:
    return getattr(ov.Type, element_type)


def numpy_type(element_type: str) -> Any:
    if element_type == BF16:
        return np.float32
    return ov_type(element_type).to_dtype()


def _real_edges(element_type: str) -> list[float]:
    tiny = {F16: 3e-6, F32: 1e-40, BF16: 1e-40, F64: 1e-310}[element_type]
    big = {F16: 60000.0, F32: 3e38, BF16: 3e38, F64: 1e300}[element_type]
    return [0.0, -0.0, np.nan, np.inf, -np.inf, tiny, -tiny, big, -big, 0.5, -0.5, 1.5, 2.5, -2.5, 1.0, -1.0]


def type_of(node: Node) -> str:
    return node.get_output_element_type(0).get_type_name()


def results(draw: Draw, nodes: Sequence[Node]) -> list[ov.Output]:
    """Every output of ``nodes``, a bf16 one converted to f32 (the harness feeds and reads no bf16)."""
    outputs = []
    for node in nodes:
        for output in node.outputs():
            if output.get_element_type() == ov.Type.bf16:
                output = opset.convert(output, F32).output(0)
            outputs.append(output)
    return outputs


def make(version: int, op: str, inputs: Sequence[Node], attributes: dict[str, Any] | None = None) -> Node:
    """``op`` of version ``version`` (OpenVINO's node factory, from the first opset that has it:
    Acosh-3 is in opset4; attributes by their IR names)."""
    outputs = [i.output(0) if hasattr(i, "output") else i for i in inputs]
    for opset_number in range(version, max(FACTORY) + 1):
        try:
            return FACTORY[opset_number].create(op, outputs, attributes or {})
        except RuntimeError as error:
            if "Couldn't create operation" in str(error):
                continue  # not in this opset
            raise Redraw(str(error)) from error  # the op's own validation: a configuration it refuses
    raise AssertionError(f"no opset has {op}-{version}")


# --- drawing shared by the suites' drawers ---------------------------------------------------


def slice_bounds(d: Draw, dim: int) -> tuple[int, int, int]:
    """A start, a stop and a step along a dim: the edges, past the dim, i32's and i64's extremes."""
    step = d.pick([1, 1, 2, 3, -1, -2])
    values = [0, 1, dim, dim - 1, -1, -dim, -dim - 3, dim + 3, 2**31 - 1, -(2**31), 2**62]
    return int(d.pick(values)), int(d.pick(values)), step


def drawn_slice(d: Draw) -> tuple[list[int], list[int], list[np.ndarray], str]:
    """Slice-8's (and SliceScatter-15's) data shape, axes, start, stop and step over them (i32
    bounds clipped to i32), and the index type."""
    shape = d.shape(d.int(1, 5))
    axes = d.axes(len(shape))
    bounds = [slice_bounds(d, shape[a]) for a in axes]
    start, stop, step = (np.array([b[k] for b in bounds], np.int64) for k in range(3))
    index_type = d.pick(["i32", "i64"])
    if index_type == "i32":
        start, stop = (np.clip(v, -(2**31), 2**31 - 1) for v in (start, stop))
    return shape, axes, [start, stop, step], index_type


def slice_axes(d: Draw, shape: Sequence[int], axes: Sequence[int], index_type: str) -> list[Node]:
    """A slice's ``axes`` input (usually), or none where the bounds are of the first axes."""
    if d.chance(0.8):
        return [d.const(np.array(axes, np.int64), index_type)]
    if sorted(a % len(shape) for a in axes) != list(range(len(axes))):
        raise Redraw("without axes the bounds are the first axes'")
    return []


# --- the op versions' drawers ------------------------------------------------------------

Drawer = Callable[[Draw], Sequence[Node]]


class Drawers:
    """One suite's drawers: "Op-N" -> (family, drawer). Each ``test_kernel_fuzz*.py`` keeps its
    own, so two suites never run each other's families."""

    def __init__(self) -> None:
        self.by_name: dict[str, tuple[str, Drawer]] = {}

    def add(self, family: str, *names: str) -> Callable[[Drawer], Drawer]:
        def register(function: Drawer) -> Drawer:
            for name in names:
                assert name not in self.by_name, f"{name} drawn twice"
                self.by_name[name] = (family, function)
            return function

        return register

    def families(self) -> list[str]:
        return sorted({family for family, _ in self.by_name.values()})


def op_of(name: str) -> tuple[str, int]:
    op, _, version = name.rpartition("-")
    return op, int(version)


def drawn_cases(
    drawers: Drawers,
    family: str,
    seed: int,
    count: int,
    made: Callable[[Draw, Sequence[Node], str], Any],
    refusals: tuple[type[Exception], ...] = (Redraw,),
) -> list[Any]:
    """``count`` configurations of each of ``family``'s op versions on ``seed`` (a drawer that
    raises one of ``refusals`` draws again, up to 8 times as many), each ``made`` into a case
    from its draw, its nodes and its name."""
    cases = []
    for name, (owner, function) in drawers.by_name.items():
        if owner != family:
            continue
        rng = np.random.default_rng([seed, sum(name.encode())])
        made_count = 0
        for _attempt in range(count * 8):
            if made_count == count:
                break
            draw = Draw(rng, name)
            try:
                nodes = function(draw)
            except refusals:
                continue
            cases.append(made(draw, nodes, f"{name.replace('-', '_v')}_s{seed}_{made_count}"))
            made_count += 1
    return cases


def _holds_bf16(nodes: Sequence[Node]) -> bool:
    """Whether a drawn configuration computes any bf16 tensor (its nodes and what feeds them)."""
    seen: set[str] = set()
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node.get_name() in seen:
            continue
        seen.add(node.get_name())
        if any(output.get_element_type() == ov.Type.bf16 for output in node.outputs()):
            return True
        stack += [value.get_node() for value in node.input_values()]
    return False


def exactness(draw: Draw, nodes: Sequence[Node]) -> Exactness:
    """The draw's exactness, where bf16 is native only: without avx512 the plugin keeps bf16
    tensors as f32, irshape rounds them (harness.BF16_ON_AVX512, BF16_AS_F32_OFF_AVX512)."""
    if not _holds_bf16(nodes):
        return draw.exact
    return BF16_ON_AVX512 if draw.exact else BF16_AS_F32_OFF_AVX512


def _fuzz_cases(drawers: Drawers, family: str, seed: int, count: int) -> list[Case]:
    def case(draw: Draw, nodes: Sequence[Node], name: str) -> Case:
        return Case(name, draw.inputs, results(draw, nodes), exactness(draw, nodes))

    return drawn_cases(drawers, family, seed, count, case)


# --- running: refused configurations split off ---------------------------------------------


@dataclass
class Outcome:
    agreed: list[str] = field(default_factory=list)
    differ: list[str] = field(default_factory=list)  # "case: why"
    refused: list[str] = field(default_factory=list)  # the plugin cannot compile or run it
    irshape_refused: list[str] = field(default_factory=list)  # the plugin runs it, irshape does not
    not_bit_equal: dict[str, list[int]] = field(default_factory=dict)  # op -> [differing, compared]
    run_though_refused: list[str] = field(default_factory=list)  # refused by the plugin, run by irshape


def _op_of_case(case: Case) -> str:
    return case.name.split("_s")[0].replace("_v", "-")


class IrshapeRefuses(Exception):
    """irshape cannot execute a batch the plugin ran (its reason)."""


Judge = Callable[[Any], "str | None"]  # why a configuration differs; None: it agrees (bits counted)


def run_in_halves(
    cases: Sequence[Any],
    outcome: Outcome,
    judged: Callable[[Sequence[Any]], Judge],
    irshape_runs: Callable[[Any], bool],
) -> None:
    """Run ``cases`` (each with a ``name``) in one batch, ``judged`` running them and giving
    the judge of each; it raises OpenVINO's RuntimeError where the plugin cannot compile or run
    the batch, :class:`IrshapeRefuses` where irshape cannot. On a refusal, in halves, down to
    single configurations: one the plugin refuses is counted (and whether irshape runs it)."""
    if not cases:
        return
    try:
        judge: Judge | None = judged(cases)
        failure = None
    except RuntimeError as error:  # OpenVINO's: the plugin cannot compile or run it
        lines = [line for line in str(error).splitlines() if line.strip() and "Exception from" not in line]
        judge, failure = None, f"plugin: {(lines or [''])[-1][:200]}"
    except IrshapeRefuses as error:
        judge, failure = None, f"irshape refuses it: {error}"[:300]
    except Exception as error:  # irshape's executor crashed
        judge, failure = None, f"irshape crashed: {type(error).__name__}: {error}"[:300]
    if failure is not None:
        if len(cases) > 1:
            half = len(cases) // 2
            run_in_halves(cases[:half], outcome, judged, irshape_runs)
            run_in_halves(cases[half:], outcome, judged, irshape_runs)
        elif failure.startswith("plugin"):
            outcome.refused.append(f"{cases[0].name}: {failure}")
            if irshape_runs(cases[0]):
                outcome.run_though_refused.append(cases[0].name)
        else:
            outcome.irshape_refused.append(f"{cases[0].name}: {failure}")
        return
    assert judge is not None
    for case in cases:
        problem = judge(case)
        if problem is None:
            outcome.agreed.append(case.name)
        else:
            outcome.differ.append(f"{case.name}: {problem}")


def run_cases(cases: list[Case], directory: Path, outcome: Outcome) -> None:
    """Run ``cases`` in one batch; on a refusal, in halves, down to single configurations."""

    def judged(batch_cases: Sequence[Case]) -> Judge:
        batch = run_batch(batch_cases, directory)
        if batch.error is not None:
            raise IrshapeRefuses(batch.error[:300])

        def judge(case: Case) -> str | None:
            problem = batch.mismatch(case)
            if problem is None:
                _count_bits(batch, case, outcome)
            return problem

        return judge

    run_in_halves(cases, outcome, judged, lambda case: _irshape_runs(case, directory))


def _irshape_runs(case: Case, directory: Path) -> bool:
    """Whether irshape executes ``case``, which the plugin refused (its IR is the newest file
    the refused batch saved in ``directory``)."""
    xml = max(directory.glob("*.xml"), key=lambda path: path.stat().st_mtime_ns)
    document = read_file(xml).document
    if document is None:
        return False
    inputs = {f"{case.name}_in{i}": np.asarray(value) for i, value in enumerate(case.inputs.values())}
    try:
        execute(document, inputs)
    except Exception:  # any refusal (IRS504's and the others) or failure
        return False
    return True


def _count_bits(batch: Batch, case: Case, outcome: Outcome) -> None:
    counts = outcome.not_bit_equal.setdefault(_op_of_case(case), [0, 0])
    for name in batch.names[case.name]:
        expected, got = batch.expected[name], batch.got[name]
        if expected.dtype.kind != "f" or (compare(expected, got, exact=True) is None and expected.size == 0):
            continue
        same = (expected == got) | (np.isnan(expected) & np.isnan(got))
        counts[0] += int((~same).sum())
        counts[1] += int(same.size)


def summary(family: str, outcome: Outcome) -> str:
    lines = [
        f"{family}: {len(outcome.agreed)} agree, {len(outcome.differ)} differ, "
        f"{len(outcome.refused)} refused by the plugin ({len(outcome.run_though_refused)} of them run by irshape), "
        f"{len(outcome.irshape_refused)} refused by irshape only"
    ]
    lines += outcome.differ[:20] + outcome.irshape_refused[:20]
    return "\n".join(lines)


def write_report(family: str, outcome: Outcome) -> None:
    path = Path(REPORT or "")
    report = json.loads(path.read_text()) if path.exists() else {}
    per_op: dict[str, dict[str, Any]] = {}
    for kind in ("agreed", "differ", "refused", "irshape_refused"):
        for entry in getattr(outcome, kind):
            op = _op_of_case(Case(entry.split(":")[0], {}, []))
            per_op.setdefault(op, {"agreed": 0, "differ": 0, "refused": 0, "irshape_refused": 0, "notes": []})
            per_op[op][kind] += 1
            if kind != "agreed":
                per_op[op]["notes"].append(entry[:400])
    for name in outcome.run_though_refused:
        per_op.setdefault(_op_of_case(Case(name, {}, [])), {}).setdefault("run_though_refused", []).append(
            name
        )
    for op, (differing, compared) in outcome.not_bit_equal.items():
        per_op.setdefault(op, {"agreed": 0})["not_bit_equal"] = [differing, compared]
    # two suites may draw one family (their op versions differ): merged op by op
    report.setdefault(family, {}).update(per_op)
    path.write_text(json.dumps(report, indent=1, sort_keys=True))


def run_family(drawers: Drawers, family: str, directory: Path) -> None:
    """Draw ``family``'s configurations on every seed, run them, and fail on any difference or
    on a configuration the plugin runs and irshape refuses."""
    outcome = Outcome()
    for seed in SEEDS:
        run_cases(_fuzz_cases(drawers, family, seed, COUNT), directory, outcome)
    if REPORT:
        write_report(family, outcome)
    assert outcome.agreed, f"no configuration of {family} ran"
    assert not outcome.differ and not outcome.irshape_refused, summary(family, outcome)
