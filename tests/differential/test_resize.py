"""Interpolate-1, -4 and -11 against OpenVINO through the shared harness: sizes and scales
(32-bit scaling, scales below and above 1), with and without an axes input, negative-free axes
in any order, pads, static, dynamic, interval and dynamic-rank data, Const and Parameter
value inputs. Mutants read_model rejects are errors; a declared dim off by one is an error."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import pytest
from openvino.utils.node_factory import NodeFactory

import irshape

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    apply_mutant,
    as_partial,
    batches,
    buildable,
    dim_mutant,
    errors_on,
    is_static,
    layer_element,
    openvino_reads,
    parameter,
    params,
    read_back,
    reshape_input,
    save_batch,
)

SEED = 20261125
PER_VERSION = 150
STYLES = ("static", "static", "static", "dynamic", "interval", "rank")
MODES = ("nearest", "linear", "linear_onnx", "cubic")


def _value(rng: random.Random, values: list, dtype: type, as_parameter: bool) -> ov.Output:
    if as_parameter:
        return ov1.parameter([len(values)], dtype).output(0)
    return ov1.constant(np.array(values, dtype=dtype)).output(0)


def _draw(rng: random.Random, version: int) -> tuple[ov.PartialShape, dict, list, list, list, bool, bool]:
    rank = rng.randint(1, 5)
    dims = [rng.randint(1, 40) for _ in range(rank)]
    data = as_partial(rng, dims, rng.choice(STYLES))
    count = rng.randint(1, rank)
    axes = rng.sample(range(rank), count)
    sizes = [rng.randint(1, 64) for _ in axes]
    scales = [rng.choice([0.5, 2.0, 1.0, 1.5, 0.333, 3.7, 0.25, 1.333333, 0.1]) for _ in axes]
    pads = [rng.randint(0, 2) for _ in range(rng.randint(0, rank))]
    attrs = {
        "mode": rng.choice(MODES),
        "shape_calculation_mode": rng.choice(["sizes", "scales"]),
        "coordinate_transformation_mode": "half_pixel",
        "nearest_mode": "round_prefer_floor",
        "antialias": False,
        "pads_begin": pads,
        "pads_end": [rng.randint(0, 2) for _ in pads],
        "cube_coeff": -0.75,
    }
    return data, attrs, axes, sizes, scales, rng.random() < 0.2, rng.random() < 0.7


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases: list[OpCase] = []
    for version in (1, 4, 11):
        made = 0
        while made < PER_VERSION:
            data, attrs, axes, sizes, scales, value_param, with_axes = _draw(rng, version)
            cid = f"rs{len(cases):05d}"

            def build(
                v=version, d=data, a=attrs, ax=axes, sz=sizes, sc=scales, vp=value_param, wa=with_axes
            ) -> ov.Node:
                x = parameter(d).output(0)
                if v == 1:
                    return ov1.interpolate(x, _value(rng, sz, np.int64, vp), {"axes": ax, "mode": a["mode"]})
                axes_in = [ov1.constant(np.array(ax, np.int64)).output(0)] if wa else []
                rank = d.rank.get_length() if d.rank.is_static else None
                if not wa and rank is not None:
                    sz = (sz + [rng.randint(1, 9) for _ in range(rank)])[:rank]
                    sc = (sc + [2.0] * rank)[:rank]
                if v == 4:
                    ins = [x, _value(rng, sz, np.int64, vp), _value(rng, sc, np.float32, vp), *axes_in]
                else:
                    by_scales = a["shape_calculation_mode"] == "scales"
                    ins = [
                        x,
                        _value(rng, sc if by_scales else sz, np.float32 if by_scales else np.int64, vp),
                        *axes_in,
                    ]
                return NodeFactory(f"opset{v}").create("Interpolate", ins, a)

            case = OpCase(cid, f"Interpolate-{version}", build)
            if buildable(case):
                cases.append(case)
                made += 1
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["Interpolate cases (tests/differential/test_resize.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_interpolate_matches_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"resize{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    batch = ops_runner.ops_batch(f"resize{index}", BATCHES[index])
    case = next(c for c in BATCHES[index] if is_static(batch.expected[c.cid][0][0]))
    target = tmp_path / "dim.xml"
    assert dim_mutant(batch.xml, target, case.cid, axis=0)
    assert [d.code for d in errors_on(irshape.check_file(target), case.cid)] == ["IRS301"]


MUTANTS = {
    "mode not an enum name": lambda layer: layer.find("data").set("mode", "bilinear"),
    "shape_calculation_mode misspelt": lambda layer: layer.find("data").set("shape_calculation_mode", "size"),
    "nearest_mode unknown": lambda layer: layer.find("data").set("nearest_mode", "round"),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_rejected_attribute_values_are_errors(ops_runner: OpsBatchRunner, tmp_path: Path, name: str) -> None:
    batch = ops_runner.ops_batch("resize4", BATCHES[4])
    case = next(c for c in BATCHES[4] if c.op == "Interpolate-4")
    target = tmp_path / "mutant.xml"
    apply_mutant(batch.xml, target, lambda tree: MUTANTS[name](layer_element(tree, case.cid)))
    assert openvino_reads(target) is not None, "OpenVINO rejects the mutant"
    assert {d.code for d in errors_on(irshape.check_file(target), case.cid)} == {"IRS112"}


# The sizes or scales Const's element count against the number of axes: OpenVINO compares the
# count of the values it reads (fewer than the axes fail, more read); a Const whose shape is
# past 2^63 as size_t has a dim of 0, so no values (docs/openvino-ir-reading.md §15).
LENGTHS = [
    (version, mode, port, shape)
    for version in (4, 11)
    for mode in ("sizes", "scales")
    for port in ((1, 2) if version == 4 else (1,))
    for shape in ("0", "1", "2", "-9223372036854775807")
]


@pytest.mark.parametrize(("version", "mode", "port", "shape"), LENGTHS)
def test_a_short_sizes_or_scales_const_is_openvinos_verdict(
    tmp_path: Path, version: int, mode: str, port: int, shape: str
) -> None:
    attrs = {"mode": "nearest", "shape_calculation_mode": mode, "pads_begin": [0] * 4, "pads_end": [0] * 4}

    def build() -> ov.Node:
        sizes = ov1.constant(np.array([6, 12], np.int64)).output(0)
        scales = ov1.constant(np.array([2.0, 0.5], np.float32)).output(0)
        axes = ov1.constant(np.array([2, 3], np.int64)).output(0)
        if version == 4:
            ins = [parameter([1, 3, 8, 8]).output(0), sizes, scales, axes]
        else:
            ins = [parameter([1, 3, 8, 8]).output(0), scales if mode == "scales" else sizes, axes]
        return NodeFactory(f"opset{version}").create("Interpolate", ins, attrs)

    source, target = tmp_path / "base.xml", tmp_path / "short.xml"
    save_batch([OpCase("ip", f"Interpolate-{version}", build)], source)
    assert openvino_reads(source) is None

    def edit(tree: object) -> None:
        layer = layer_element(tree, "ip")
        (edge,) = layer.getroottree().xpath(
            f"//edge[@to-layer='{layer.get('id')}' and @to-port='{layer.findall('input/port')[port].get('id')}']"
        )
        (const,) = layer.getroottree().xpath(f"//layer[@id='{edge.get('from-layer')}']")
        const.find("data").set("shape", shape)

    apply_mutant(source, target, edit)
    rejection = openvino_reads(target)
    report = irshape.check_file(target)
    errors = [d for d in errors_on(report, "ip") if d.code not in ("IRS301", "IRS302")]
    if rejection is None:
        assert not errors, [d.message for d in errors]
    else:
        assert errors, f"OpenVINO: {rejection}; irshape: {[d.message for d in report.diagnostics]}"


# Interpolate's pads are std::vector<size_t>: no sign (``-0`` fails), values up to 2^64 - 1,
# and OpenVINO's sum of two pads (a pad of 2^64 - 1, or a sum past 2^64 - 1, is ``?``; else an
# int64, so 2^64 - 2 takes 2 off the dim). docs/openvino-ir-reading.md §1 and §15.
_PAD_VALUES = (0, 1, 2, 2**62, 2**63 - 1, 2**63, 2**64 - 4, 2**64 - 3, 2**64 - 2, 2**64 - 1)


def _pad_cases() -> list[OpCase]:
    cases: list[OpCase] = []
    for version in (4, 11):
        for dim in ("3", "2..5", "?"):
            for begin in _PAD_VALUES:
                for end in _PAD_VALUES[::3] if version == 4 else _PAD_VALUES:
                    attrs = {
                        "mode": "nearest",
                        "shape_calculation_mode": "sizes",
                        "pads_begin": [0, begin, 0, 0],
                        "pads_end": [0, end, 0, 0],
                    }

                    def build(v: int = version, d: str = dim, a: dict = attrs) -> ov.Node:
                        ins = [parameter(ov.PartialShape(f"1,{d},8,8")).output(0)]
                        ins.append(ov1.constant(np.array([12, 6], np.int64)).output(0))
                        if v == 4:
                            ins.append(ov1.constant(np.array([1.5, 0.75], np.float32)).output(0))
                        ins.append(ov1.constant(np.array([2, 3], np.int64)).output(0))
                        return NodeFactory(f"opset{v}").create("Interpolate", ins, a)

                    cases.append(OpCase(f"rp{len(cases):05d}", f"Interpolate-{version}", build))
    return cases


PAD_CASES = _pad_cases()
PAD_BATCHES = batches(PAD_CASES)
STATS["Interpolate size_t pads (tests/differential/test_resize.py)"] = len(PAD_CASES)


@pytest.mark.parametrize(("index", "case"), params(PAD_BATCHES))
def test_size_t_pads_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"resize_pads{index}", PAD_BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


PAD_TEXTS = (
    "+0, 0, 0, 0",
    "-0, 0, 0, 0",
    "-1, 0, 0, 0",
    " 1, 0, 0, 0",
    "1x, 0, 0, 0",
    "1.5, 0, 0, 0",
    "&#9;1, 0, 0, 0",
    "9223372036854775808, 0, 0, 0",
    "18446744073709551614, 1, 0, 0",
    "18446744073709551615, 0, 0, 0",
    "18446744073709551616, 0, 0, 0",
    "0, 0, 0, 0,",
    ", 0, 0, 0",
)


@pytest.mark.parametrize("version", (1, 4, 11))
@pytest.mark.parametrize("text", PAD_TEXTS)
def test_pads_read_by_openvinos_size_t_grammar(tmp_path: Path, version: int, text: str) -> None:
    def build() -> ov.Node:
        x = parameter([1, 3, 8, 8]).output(0)
        sizes = ov1.constant(np.array([12, 6], np.int64)).output(0)
        if version == 1:
            attrs_1 = {"axes": [2, 3], "mode": "nearest", "pads_begin": [0] * 4, "pads_end": [0] * 4}
            return ov1.interpolate(x, sizes, attrs_1)
        ins = [x, sizes]
        if version == 4:
            ins.append(ov1.constant(np.array([1.5, 0.75], np.float32)).output(0))
        ins.append(ov1.constant(np.array([2, 3], np.int64)).output(0))
        attrs = {
            "mode": "nearest",
            "shape_calculation_mode": "sizes",
            "pads_begin": [0] * 4,
            "pads_end": [0] * 4,
        }
        return NodeFactory(f"opset{version}").create("Interpolate", ins, attrs)

    source, target = tmp_path / "base.xml", tmp_path / "pads.xml"
    save_batch([OpCase("ip", f"Interpolate-{version}", build)], source)
    xml = source.read_text()
    assert 'pads_begin="0, 0, 0, 0"' in xml
    target.write_text(xml.replace('pads_begin="0, 0, 0, 0"', f'pads_begin="{text}"', 1))
    target.with_suffix(".bin").write_bytes(source.with_suffix(".bin").read_bytes())
    rejection = openvino_reads(target)
    report = irshape.check_file(target)
    errors = [d for d in errors_on(report, "ip") if d.code not in ("IRS301", "IRS302")]
    if rejection is not None:
        assert errors, f"OpenVINO: {rejection}; irshape: {[d.message for d in report.diagnostics]}"
        return
    assert not errors, [d.message for d in errors]
    (layer,) = [layer for layer in report.layers if layer.name == "ip"]
    assert [str(s) for s in layer.outputs] == [read_back(target)["ip"][0][0]]


# --- GridSample-9 ---------------------------------------------------------------------------------


def _grid_cases() -> list[OpCase]:
    import openvino.opset9 as ov9

    rng = random.Random(SEED + 9)
    cases: list[OpCase] = []
    while len(cases) < 120:
        n, c, h, w, ho, wo = (rng.randint(1, 6) for _ in range(6))
        data = as_partial(rng, [n, c, h, w], rng.choice(STYLES))
        grid = as_partial(rng, [n, ho, wo, 2], rng.choice(STYLES))
        attrs = {
            "align_corners": rng.random() < 0.5,
            "mode": rng.choice(["bilinear", "bicubic", "nearest"]),
            "padding_mode": rng.choice(["zeros", "border", "reflection"]),
        }
        dtype = rng.choice([np.float32, np.int32, np.float16])

        def build(d=data, g=grid, a=attrs, t=dtype) -> ov.Node:
            return ov9.grid_sample(parameter(d, t), parameter(g, np.float32), a)

        case = OpCase(f"gs{len(cases):05d}", "GridSample-9", build)
        if buildable(case):
            cases.append(case)
    return cases


GRID_CASES = _grid_cases()
GRID_BATCHES = batches(GRID_CASES)
STATS["GridSample cases (tests/differential/test_resize.py)"] = len(GRID_CASES)


@pytest.mark.parametrize(("index", "case"), params(GRID_BATCHES))
def test_grid_sample_matches_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"grid{index}", GRID_BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_grid_sample_rejections_are_errors(tmp_path: Path) -> None:
    """A grid whose last dim is not 2, or whose batch is not the data's: OpenVINO rejects both."""
    import openvino.opset9 as ov9

    attrs = {"align_corners": False, "mode": "bilinear", "padding_mode": "zeros"}
    case = OpCase(
        "gsbad",
        "GridSample-9",
        lambda: ov9.grid_sample(parameter([2, 3, 8, 8]), parameter([2, 4, 4, 2]), attrs),
    )
    source = tmp_path / "grid.xml"
    save_batch([case], source)
    assert openvino_reads(source) is None
    for dims in ([2, 4, 4, 3], [5, 4, 4, 2]):
        target = tmp_path / "bad.xml"
        apply_mutant(source, target, lambda tree, dims=dims: reshape_input(tree, "gsbad", 1, dims))
        assert openvino_reads(target) is not None
        assert [d.code for d in errors_on(irshape.check_file(target), "gsbad")] == ["IRS212"]
