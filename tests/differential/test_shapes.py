"""Valid configurations: irshape must accept them and infer exactly OpenVINO's output shape.

``generate.generate()`` draws seeded random configurations of the four ops (1D/2D/3D, every
auto_pad mode and mixed-case spellings, strides, dilations, asymmetric and negative pads,
output_padding, with and without an ``output_shape`` input, static, interval and dynamic-rank
inputs, group ops with various G / C_IN / C_OUT) and keeps the ones OpenVINO's builders accept
(configurations it rejects are counted apart and never count toward the total). They are
saved ``BATCH_SIZE`` ops per model; one ``ov.save_model`` and one ``irshape.check_file`` cover
a whole batch, and each case is then one test, keyed by the op's friendly name (= IR layer name).

Expected shapes are OpenVINO's ``str(op.get_output_partial_shape(0))``; the saved file is also
read back with ``ov.Core().read_model`` and must give the same shape (a harness check).
"""

from __future__ import annotations

from collections import Counter

import openvino as ov  # plain import: without OpenVINO this suite fails, it is never skipped
import pytest

from . import generate as gen
from .conftest import STATS, BatchResult, BatchRunner, fmt_diag

ACCEPTED, REJECTED = gen.generate()
BATCHES = gen.batches(ACCEPTED)
PARAMS = [
    pytest.param(bi, a, id=f"{a.case.cid}-{a.case.op}-{a.case.nsp}d")
    for bi, batch in enumerate(BATCHES)
    for a in batch
]
TAGS = Counter(t for a in ACCEPTED for t in a.case.tags)
CHAINS = gen.generate_chains()
CHAIN_BATCHES = gen.batches(CHAINS)
CHAIN_PARAMS = [
    pytest.param(bi, a, id=f"{a.case.cid}-{a.case.op}-{a.case.nsp}d")
    for bi, batch in enumerate(CHAIN_BATCHES)
    for a in batch
]

STATS["valid configurations (accepted by OpenVINO)"] = len(ACCEPTED)
STATS["generated configurations OpenVINO rejected (not counted)"] = sum(REJECTED.values())
STATS["models saved for them"] = f"{len(BATCHES)} (<= {gen.BATCH_SIZE} ops each)"
STATS["chained ops (data = previous op's output)"] = (
    f"{len(CHAINS)} in {len({a.case.cid[:5] for a in CHAINS})} chains, {len(CHAIN_BATCHES)} models"
)
STATS["openvino"] = ov.__version__

# Edge cases that must be present in the accepted set, at least this many times each.
REQUIRED_TAGS = {
    "pad_sum_-1": 10,  # forward: pads_begin + pads_end == -1 -> open interval (§1.1)
    "pad_sum_le_-2": 10,  # forward: pads sum <= -2 -> pads ignored (§1.1)
    "fwd_neg_pad_pos_sum": 5,
    "overcrop": 10,  # backprop: pads crop below zero -> ? (§1.2)
    "crop_to_zero": 5,  # backprop: output dim exactly 0
    "bwd_neg_pads": 5,
    "neg_output_padding": 5,
    "D0": 10,  # a data spatial dim 0
    "K0": 10,  # a kernel spatial dim 0 (acts as 1, §5.2)
    "same_kernel_gt_input": 10,  # forward same_*: no kernel check (§1.1)
    "huge_stride": 10,
    "same_with_os": 10,  # backprop same_* with output_shape: pads recomputed (§1.2)
    "os_param": 5,  # output_shape is a Parameter [n]: spatial ?
    "os_param_dynlen": 5,  # output_shape is a Parameter [?] / [...]: rank-2 output
    "os_const_zero": 5,
    "dyn_rank_data": 10,
    "dyn_rank_filter": 10,
    "dyn_rank_both": 10,
    "group_dyn_G": 10,
    "interval": 100,
    "auto_pad_case": 300,  # SAME_UPPER, Valid, ... patched into the file
    "ignored_pads_in_file": 50,  # non-zero pads on same_*/valid ops in the file
    "f16": 20,
    "int_or_f64": 10,
    "group_C_unbounded": 5,  # data C "4.." with groups: finite huge upper bound (§2)
    "big_input": 10,
    "literal_quirk": 20,  # "5..2", "1..-1" (empty intervals), "-2" (0), 2^63-1 (?), 2^63-2
    "shape_spelling": 50,  # "-1", "..", "1..-1", "07", "[...]", brackets in the Parameter shape
    "list_spelling": 50,  # "2,2", "2, 2", "2,2,", " 2,2 ", "2 ,2"
    "defaults_omitted": 50,  # default attributes left out or written as ""
}


def test_enough_valid_configurations() -> None:
    assert len(ACCEPTED) >= 1000, f"only {len(ACCEPTED)} accepted configurations"
    assert len({a.case.cid for a in ACCEPTED}) == len(ACCEPTED)


def test_coverage_of_the_configuration_space() -> None:
    combos = Counter((a.case.op, a.case.nsp, a.case.auto_pad) for a in ACCEPTED)
    missing = [
        (op, nsp, mode)
        for op in gen.OPS
        for nsp in (1, 2, 3)
        for mode in gen.MODES
        if combos[(op, nsp, mode)] < 3
    ]
    assert not missing, f"op x rank x auto_pad combinations with < 3 cases: {missing}"
    short = {tag: TAGS[tag] for tag, need in REQUIRED_TAGS.items() if TAGS[tag] < need}
    assert not short, f"edge cases under their quota: {short}"
    for op in gen.BACKPROP, gen.GBACKPROP:
        with_os = [a for a in ACCEPTED if a.case.op == op and a.case.output_shape is not None]
        # including explicit pads + output_shape on GroupConvolutionBackpropData (§12.1)
        explicit = [a for a in with_os if a.case.auto_pad == "explicit"]
        assert len(with_os) >= 50 and len(explicit) >= 15, (op, len(with_os), len(explicit))
    spellings = {a.case.file_auto_pad for a in ACCEPTED if a.case.file_auto_pad}
    assert {s.lower() for s in spellings} == set(gen.MODES)
    assert all(gen.random_spelling_ok(s) for s in spellings)
    assert any(a.case.output_padding and any(a.case.output_padding) for a in ACCEPTED)
    assert any(not a.case.filt_const for a in ACCEPTED if a.case.filt.replace(",", "").isdigit())


@pytest.mark.parametrize(("batch_index", "acc"), PARAMS)
def test_case(batch_runner: BatchRunner, batch_index: int, acc: gen.Accepted) -> None:
    _check_case(batch_runner.get(f"batch{batch_index:03d}", BATCHES[batch_index]), acc)


@pytest.mark.parametrize(("batch_index", "acc"), CHAIN_PARAMS)
def test_chained_case(batch_runner: BatchRunner, batch_index: int, acc: gen.Accepted) -> None:
    """The op's data input is the previous op's output: irshape uses its own inferred shape."""
    _check_case(batch_runner.get(f"chains{batch_index:03d}", CHAIN_BATCHES[batch_index]), acc)


def _check_case(run: BatchResult, acc: gen.Accepted) -> None:
    case = acc.case
    expected = acc.expected
    # harness checks: the op in the model and OpenVINO's reading of the saved file agree
    assert run.builder[case.cid] == expected, case.describe()
    assert run.reread.get(case.cid) == expected, (
        f"OpenVINO reads the saved file differently: {run.reread.get(case.cid)} vs {expected}\n"
        f"{case.describe()}"
    )

    errors = run.errors_by_name.get(case.cid, []) + run.stray_errors
    layer = run.layers.get(case.cid)
    got = str(layer.outputs[0]) if layer is not None and layer.outputs else None
    problems = []
    if errors:
        problems.append("irshape errors:\n  " + "\n  ".join(fmt_diag(d) for d in errors))
    if got != expected:
        problems.append(f"shape: OpenVINO {expected}, irshape {got}")
    assert not problems, f"{case.describe()}\nfile {run.xml}\n" + "\n".join(problems)


ALL_BATCHES = [(f"batch{i:03d}", b) for i, b in enumerate(BATCHES)] + [
    (f"chains{i:03d}", b) for i, b in enumerate(CHAIN_BATCHES)
]


@pytest.mark.parametrize("key", [k for k, _ in ALL_BATCHES])
def test_whole_file_has_no_errors(batch_runner: BatchRunner, key: str) -> None:
    batch = dict(ALL_BATCHES)[key]
    run = batch_runner.get(key, batch)
    assert not run.report.errors, "\n".join(fmt_diag(d) for d in run.report.errors)
    # every op of the batch was seen and checked by irshape
    names = {a.case.cid for a in batch}
    seen = {name for name, layer in run.layers.items() if layer.outputs}
    assert names <= seen, sorted(names - seen)


def test_explicit_pads_survive_on_group_backprop_with_output_shape(tmp_path) -> None:
    """§12.1: the opset1 helper drops the pads here; generate.build_case must not."""
    case = gen.Case(
        cid="c99999",
        op=gen.GBACKPROP,
        nsp=2,
        data="1,4,5,5",
        filt="2,2,3,3,3",
        filt_const=True,
        strides=[2, 2],
        dilations=[1, 1],
        pads_begin=[3, 1],
        pads_end=[2, 7],
        auto_pad="explicit",
        output_padding=[0, 0],
        output_shape=("const", "i64", [9, 8]),
    )
    xml = tmp_path / "gcbd.xml"
    gen.save_cases([case], xml)
    text = xml.read_text()
    assert 'pads_begin="3, 1" pads_end="2, 7"' in text
    assert (
        sum(
            a.case.op == gen.GBACKPROP
            and a.case.output_shape is not None
            and a.case.auto_pad == "explicit"
            and any(a.case.pads_begin + a.case.pads_end)
            for a in ACCEPTED
        )
        >= 10
    )
