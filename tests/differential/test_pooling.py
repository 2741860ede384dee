"""The pooling family against OpenVINO, through the shared harness
(tests/differential/ops_harness.py): MaxPool-1/8/14, AvgPool-1/14/16, AdaptiveAvgPool-8 and
AdaptiveMaxPool-8, each with 300 seeded configurations — 1D/2D/3D data, every auto_pad, every
rounding type the version has, exclude-pad, dilations, both index element types and every
axis, static, dynamic (``?``), interval (``2..8``) and dynamic-rank data; the adaptive ops with
Const (i32/i64) and Parameter output_shape inputs. Shapes and element types of every output
must be OpenVINO's. Mutants of the saved XML that read_model rejects must be errors on the
layer, and a declared dim off by one is an IRS301 on it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset8 as ov8
import openvino.opset14 as ov14
import openvino.opset16 as ov16
import pytest
from click.testing import CliRunner

import irshape
from irshape.cli import main

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    apply_mutant,
    as_partial,
    batches,
    buildable,
    constant,
    dim_mutant,
    errors_on,
    is_static,
    layer_element,
    openvino_reads,
    parameter,
    params,
)

SEED = 20261125
PER_VERSION = 300
AUTO_PADS = ("explicit", "same_upper", "same_lower", "valid")
STYLES = ("static", "static", "static", "dynamic", "interval", "interval", "rank")
DATA_TYPES = (np.float32, np.float32, np.float16, np.int32)
WINDOWED = ("MaxPool-1", "MaxPool-8", "MaxPool-14", "AvgPool-1", "AvgPool-14", "AvgPool-16")
ADAPTIVE = ("AdaptiveAvgPool-8", "AdaptiveMaxPool-8")
ROUNDINGS = {
    "MaxPool-1": ("floor", "ceil"),
    "MaxPool-8": ("floor", "ceil"),
    "MaxPool-14": ("floor", "ceil", "ceil_torch"),
    "AvgPool-1": ("floor", "ceil"),
    "AvgPool-14": ("floor", "ceil", "ceil_torch"),
    "AvgPool-16": ("floor", "ceil", "ceil_torch"),
}
DILATED = frozenset({"MaxPool-8", "MaxPool-14", "AvgPool-16"})


@dataclass(frozen=True)
class Window:
    """One windowed pooling configuration, as the builders take it."""

    op: str
    data: Any  # ov.PartialShape
    data_type: Any
    kernel: list[int]
    strides: list[int]
    dilations: list[int]
    pads_begin: list[int]
    pads_end: list[int]
    rounding: str
    auto_pad: str
    exclude_pad: bool
    index_type: str
    axis: int

    def build(self) -> ov.Node:
        data = parameter(self.data, self.data_type)
        s, pb, pe, k = self.strides, self.pads_begin, self.pads_end, self.kernel
        if self.op == "MaxPool-1":
            return ov1.max_pool(data, s, pb, pe, k, self.rounding, self.auto_pad)
        if self.op in ("MaxPool-8", "MaxPool-14"):
            build = ov8.max_pool if self.op == "MaxPool-8" else ov14.max_pool
            d = self.dilations
            return build(data, s, d, pb, pe, k, self.rounding, self.auto_pad, self.index_type, self.axis)
        if self.op == "AvgPool-16":
            return ov16.avg_pool(
                data, s, pb, pe, k, self.exclude_pad, self.rounding, self.auto_pad, dilations=self.dilations
            )
        build = ov1.avg_pool if self.op == "AvgPool-1" else ov14.avg_pool
        return build(data, s, pb, pe, k, self.exclude_pad, self.rounding, self.auto_pad)


def _window(rng: random.Random, op: str, index: int) -> Window:
    n = rng.randint(1, 3)
    dims = [rng.randint(1, 4), rng.randint(1, 5)] + [rng.randint(1, 12) for _ in range(n)]
    rank = len(dims)
    kernel = [rng.randint(1, 4) for _ in range(n)]
    return Window(
        op=op,
        data=as_partial(rng, dims, rng.choice(STYLES)),
        data_type=rng.choice(DATA_TYPES),
        kernel=kernel,
        strides=[rng.randint(1, 3) for _ in range(n)],
        dilations=[rng.randint(1, 3) for _ in range(n)] if op in DILATED else [1] * n,
        pads_begin=[rng.randint(0, k) for k in kernel],
        pads_end=[rng.randint(0, k) for k in kernel],
        # every auto_pad with every rounding type, in turn; the rest drawn
        auto_pad=AUTO_PADS[index % 4],
        rounding=ROUNDINGS[op][(index // 4) % len(ROUNDINGS[op])],
        exclude_pad=rng.random() < 0.5,
        index_type=rng.choice(("i32", "i64")),
        axis=rng.randint(-rank, rank - 1),
    )


def _adaptive(rng: random.Random, op: str) -> Callable[[], ov.Node]:
    n = rng.randint(1, 3)
    dims = [rng.randint(0, 4), rng.randint(0, 5)] + [rng.randint(1, 12) for _ in range(n)]
    data_shape, data_type = as_partial(rng, dims, rng.choice(STYLES)), rng.choice(DATA_TYPES)
    source = rng.choice(("const", "const", "const", "param"))
    values = [rng.randint(0, 8) if rng.random() < 0.9 else -1 for _ in range(n)]
    value_type = rng.choice((np.int64, np.int32))
    index_type = rng.choice(("i32", "i64"))
    # a Parameter output_shape of shape [n], [?] or of dynamic rank
    target_shape = rng.choice((ov.PartialShape([n]), ov.PartialShape([-1]), ov.PartialShape.dynamic()))

    def target() -> ov.Node:
        return constant(values, value_type) if source == "const" else parameter(target_shape, value_type)

    def build() -> ov.Node:
        data = parameter(data_shape, data_type)
        if op == "AdaptiveAvgPool-8":
            return ov8.adaptive_avg_pool(data, target())
        return ov8.adaptive_max_pool(data, target(), index_type)

    return build


def _cases() -> tuple[list[OpCase], dict[str, int]]:
    rng = random.Random(SEED)
    cases: list[OpCase] = []
    drawn: dict[str, int] = {}
    for op in WINDOWED + ADAPTIVE:
        kept = 0
        while kept < PER_VERSION:
            drawn[op] = drawn.get(op, 0) + 1
            build = _window(rng, op, kept).build if op in WINDOWED else _adaptive(rng, op)
            case = OpCase(f"pool{len(cases):05d}", op, build)
            if buildable(case):  # OpenVINO's builder rejects kernels larger than the data
                cases.append(case)
                kept += 1
    return cases, drawn


CASES, DRAWN = _cases()
BATCHES = batches(CASES)
STATS["pooling cases (tests/differential/test_pooling.py)"] = {
    op: f"{sum(1 for c in CASES if c.op == op)} of {DRAWN[op]} drawn" for op in DRAWN
}


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_pooling_shapes_and_types_match_openvino(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    outcome = ops_runner.ops_batch(f"pool{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_every_version_has_its_cases() -> None:
    for op in WINDOWED + ADAPTIVE:
        assert sum(1 for c in CASES if c.op == op) >= PER_VERSION


# --- a declared dim off by one ----------------------------------------------------------------


def _static_cases(batch: Any, cases: list[OpCase]) -> list[OpCase]:
    return [c for c in cases if all(is_static(shape) for shape, _ in batch.expected[c.cid])]


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error_on_that_layer(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    batch = ops_runner.ops_batch(f"pool{index}", BATCHES[index])
    static = _static_cases(batch, BATCHES[index])
    assert static, "the batch has a case with a static output"
    case = static[index % len(static)]
    ports = len(batch.expected[case.cid])
    port, axis = index % ports, (index // ports) % len(batch.expected[case.cid][0][0].split(","))
    target = tmp_path / "dim.xml"
    assert dim_mutant(batch.xml, target, case.cid, port=port, axis=axis)
    assert openvino_reads(target) is None, "OpenVINO ignores declared dims"
    errors = errors_on(irshape.check_file(target), case.cid)
    assert errors and {d.code for d in errors} == {"IRS301"}, [d.message for d in errors]


# --- mutants read_model rejects ----------------------------------------------------------------


def _set(**attributes: str) -> Callable[[Any, str], None]:
    def edit(tree: Any, name: str) -> None:
        data = layer_element(tree, name).find("data")
        for key, value in attributes.items():
            data.set(key, value)

    return edit


def _drop_one(attribute: str) -> Callable[[Any, str], None]:
    def edit(tree: Any, name: str) -> None:
        data = layer_element(tree, name).find("data")
        values = data.get(attribute).split(",")
        data.set(attribute, ",".join(values[:-1]) if len(values) > 1 else "1,1,1,1")

    return edit


def _first_zero(attribute: str) -> Callable[[Any, str], None]:
    def edit(tree: Any, name: str) -> None:
        data = layer_element(tree, name).find("data")
        values = data.get(attribute).split(",")
        data.set(attribute, ",".join(["0", *values[1:]]))

    return edit


def _kernel_too_large(tree: Any, name: str) -> None:
    layer = layer_element(tree, name)
    data = layer.find("data")
    dims = [int(d.text) for d in layer.find("input/port").findall("dim")]
    pads = int(data.get("pads_begin").split(",")[0]) + int(data.get("pads_end").split(",")[0])
    kernel = data.get("kernel").split(",")
    data.set("kernel", ",".join([str(dims[2] + pads + 1), *kernel[1:]]))
    data.set("auto_pad", "explicit")


def _exclude_pad_in_padding(tree: Any, name: str) -> None:
    data = layer_element(tree, name).find("data")
    kernel = data.get("kernel").split(",")
    pads = data.get("pads_begin").split(",")
    data.set("pads_begin", ",".join([kernel[0], *pads[1:]]))
    data.set("exclude-pad", "true")
    data.set("auto_pad", "explicit")


def _data_parameter(tree: Any, name: str) -> Any:
    layer = layer_element(tree, name)
    layer_id = layer.get("id")
    (edge,) = tree.xpath(f"//edge[@to-layer='{layer_id}'][@to-port='0']")
    (source,) = tree.xpath(f"//layer[@id='{edge.get('from-layer')}']")
    return source, layer


def _data_dims(dims: list[str]) -> Callable[[Any, str], None]:
    """The data Parameter's shape (and the port dims on both ends) set to ``dims``."""

    def edit(tree: Any, name: str) -> None:
        source, layer = _data_parameter(tree, name)
        source.find("data").set("shape", ",".join(dims))
        for port in (source.find("output/port"), layer.find("input/port")):
            for dim in port.findall("dim"):
                port.remove(dim)
            for value in dims:
                port.append(port.makeelement("dim"))
                port.findall("dim")[-1].text = value

    return edit


def _one_output_shape_value(tree: Any, name: str) -> None:
    """The output_shape input (a Const or a Parameter) cut to one value for 2D data."""
    layer = layer_element(tree, name)
    (edge,) = tree.xpath(f"//edge[@to-layer='{layer.get('id')}'][@to-port='1']")
    (source,) = tree.xpath(f"//layer[@id='{edge.get('from-layer')}']")
    data = source.find("data")
    if source.get("type") == "Const":
        data.set("size", str(int(data.get("size")) // 2))  # the first of its two values
    data.set("shape", "1")
    for port in (source.find("output/port"), layer.findall("input/port")[1]):
        port.find("dim").text = "1"


MUTANTS: dict[str, tuple[Callable[[str], bool], Callable[[Any, str], None]]] = {
    "strides-length": (lambda op: op in WINDOWED, _drop_one("strides")),
    "kernel-length": (lambda op: op in WINDOWED, _drop_one("kernel")),
    "pads-begin-length": (lambda op: op in WINDOWED, _drop_one("pads_begin")),
    "pads-end-length": (lambda op: op in WINDOWED, _drop_one("pads_end")),
    "dilations-length": (lambda op: op in DILATED, _drop_one("dilations")),
    "zero-stride": (lambda op: op in WINDOWED, _first_zero("strides")),
    "zero-dilation": (lambda op: op in DILATED, _first_zero("dilations")),
    "rounding-type": (lambda op: op in WINDOWED, _set(rounding_type="round")),
    "auto-pad-none": (lambda op: op in WINDOWED, _set(auto_pad="none")),
    "ceil-torch-unsupported": (
        lambda op: op in ("MaxPool-1", "MaxPool-8", "AvgPool-1"),
        _set(rounding_type="ceil_torch"),
    ),
    "axis-too-large": (lambda op: op in ("MaxPool-8", "MaxPool-14"), _set(axis="9")),
    "axis-too-small": (lambda op: op in ("MaxPool-8", "MaxPool-14"), _set(axis="-9")),
    "kernel-too-large": (lambda op: op in WINDOWED, _kernel_too_large),
    "pads-summing-to-minus-one": (
        lambda op: op in WINDOWED,
        _set(pads_begin="-1,0", pads_end="0,0", auto_pad="explicit"),
    ),
    "exclude-pad-window-in-padding": (lambda op: op.startswith("AvgPool"), _exclude_pad_in_padding),
    "index-type-f32": (lambda op: op == "AdaptiveMaxPool-8", _set(index_element_type="f32")),
    "output-shape-one-value": (lambda op: op in ADAPTIVE, _one_output_shape_value),
    "data-rank-2": (lambda op: True, _data_dims(["1", "3"])),
    "data-rank-6": (lambda op: True, _data_dims(["1", "3", "2", "2", "2", "2"])),
    "batch-zero": (lambda op: op in WINDOWED, _data_dims(["0", "3", "8", "8"])),
    "channels-zero": (lambda op: op in WINDOWED, _data_dims(["1", "0", "8", "8"])),
}


def _mutant_params() -> list[Any]:
    """Each mutant on a static case of each op version it applies to (from the first batches)."""
    out = []
    for op in WINDOWED + ADAPTIVE:
        for mutant, (applies, _) in MUTANTS.items():
            if applies(op):
                out.append(pytest.param(op, mutant, id=f"{op}-{mutant}"))
    return out


def _static_case_of(ops_runner: OpsBatchRunner, op: str) -> tuple[Any, OpCase]:
    for index, cases in enumerate(BATCHES):
        if not any(c.op == op for c in cases):
            continue
        batch = ops_runner.ops_batch(f"pool{index}", cases)
        for case in cases:
            expected = batch.expected[case.cid]
            if (
                case.op == op
                and all(is_static(s) for s, _ in expected)
                and len(expected[0][0].split(",")) == 4
            ):
                return batch, case
    raise AssertionError(f"no static 2D case of {op}")


@pytest.mark.parametrize(("op", "mutant"), _mutant_params())
def test_a_mutant_openvino_rejects_is_an_error_on_that_layer(
    ops_runner: OpsBatchRunner, tmp_path: Path, op: str, mutant: str
) -> None:
    batch, case = _static_case_of(ops_runner, op)
    _, edit = MUTANTS[mutant]
    target = tmp_path / "mutant.xml"
    apply_mutant(batch.xml, target, lambda tree: edit(tree, case.cid))
    rejection = openvino_reads(target)
    assert rejection is not None, f"{mutant} on {op} is no mutant: OpenVINO reads it"
    report = irshape.check_file(target)
    errors = [d for d in errors_on(report, case.cid) if d.code not in ("IRS301", "IRS302")]
    assert errors, f"OpenVINO: {rejection}; irshape: {[(d.code, d.message) for d in report.diagnostics]}"


MUTANT_COUNT = len(_mutant_params())
STATS["pooling mutants (tests/differential/test_pooling.py)"] = MUTANT_COUNT


# --- irshape infer on a small network with pooling layers ---------------------------------------


def test_irshape_infer_lists_pooling_layers_with_openvinos_shapes(tmp_path: Path) -> None:
    data = parameter([1, 8, 15, 15])
    weights = constant(np.ones((16, 8, 3, 3)), np.float32)
    conv = ov1.convolution(data, weights, [1, 1], [1, 1], [1, 1], [1, 1])
    conv.set_friendly_name("conv")
    maxpool = ov14.max_pool(conv, [2, 2], [1, 1], [0, 0], [0, 0], [3, 3], "ceil_torch", "explicit", "i32")
    maxpool.set_friendly_name("maxpool")
    avgpool = ov16.avg_pool(maxpool.output(0), [1, 1], [1, 1], [1, 1], [3, 3], True, "floor", "same_upper")
    avgpool.set_friendly_name("avgpool")
    adaptive = ov8.adaptive_avg_pool(avgpool, constant([1, 1]))
    adaptive.set_friendly_name("adaptive")
    results = [ov1.result(maxpool.output(1)), ov1.result(adaptive)]
    xml = tmp_path / "net.xml"
    ov.save_model(ov.Model(results, [data], "net"), str(xml), compress_to_fp16=False)
    model = ov.Core().read_model(str(xml))
    expected = {  # OpenVINO's outputs as `irshape infer` prints them: shape and element type
        node.get_friendly_name(): [
            f"{node.get_output_partial_shape(i)} {node.get_output_element_type(i).get_type_name()}"
            for i in range(node.get_output_size())
        ]
        for node in model.get_ops()
    }
    outcome = CliRunner().invoke(main, ["infer", str(xml)])
    assert outcome.exit_code == 0, outcome.stdout
    lines = {line.split("'")[1]: line for line in outcome.stdout.splitlines() if "'" in line}
    for name, op in (("maxpool", "MaxPool"), ("avgpool", "AvgPool"), ("adaptive", "AdaptiveAvgPool")):
        outputs = lines[name].split(f"({op}): ", 1)[1].split("; ")
        assert [output.split(" ", 2)[2] for output in outputs] == expected[name], lines[name]
    assert expected["maxpool"] == ["[1,16,7,7] f32", "[1,16,7,7] i32"]  # ceil_torch: ceil((15 - 3) / 2) + 1
