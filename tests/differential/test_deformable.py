"""DeformableConvolution-1 and -8 against OpenVINO through the shared harness: group and
deformable_group, strides, dilations, pads and auto_pad, the v8 mask, static, dynamic,
interval and dynamic-rank inputs. Offsets whose channels or spatial dims do not fit are errors;
a declared dim off by one is an error."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset8 as ov8
import pytest

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
    openvino_reads,
    parameter,
    params,
    reshape_input,
    save_batch,
)

SEED = 20261127
PER_VERSION = 120
STYLES = ("static", "static", "static", "dynamic", "interval", "rank")


def _case(rng: random.Random, version: int, cid: str) -> OpCase:
    group, dg = rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
    n, cin, cout = rng.randint(1, 3), group * rng.randint(1, 3), group * rng.randint(1, 3)
    kh, kw, h, w = rng.randint(1, 3), rng.randint(1, 3), rng.randint(4, 10), rng.randint(4, 10)
    strides, dilations = [rng.randint(1, 2) for _ in range(2)], [rng.randint(1, 2) for _ in range(2)]
    pads_begin, pads_end = [rng.randint(0, 2) for _ in range(2)], [rng.randint(0, 2) for _ in range(2)]
    auto_pad = rng.choice(["explicit", "explicit", "same_upper", "same_lower", "valid"])
    if auto_pad != "explicit":
        pads_begin = pads_end = [0, 0]

    def out(size: int, k: int, axis: int) -> int:
        if auto_pad.startswith("same"):
            return -(-size // strides[axis])
        padded = size + (pads_begin[axis] + pads_end[axis] if auto_pad == "explicit" else 0)
        return (padded - ((k - 1) * dilations[axis] + 1)) // strides[axis] + 1

    oh, ow = out(h, kh, 0), out(w, kw, 1)
    shapes = {
        "data": as_partial(rng, [n, cin, h, w], rng.choice(STYLES)),
        "offsets": as_partial(rng, [n, dg * 2 * kh * kw, oh, ow], rng.choice(STYLES)),
        "filters": as_partial(rng, [cout, cin // group, kh, kw], rng.choice(STYLES)),
        "mask": as_partial(rng, [n, dg * kh * kw, oh, ow], rng.choice(STYLES)),
    }
    with_mask = version == 8 and rng.random() < 0.5

    def build() -> ov.Node:
        args = (strides, pads_begin, pads_end, dilations)
        data, offsets, filters = (parameter(shapes[k]) for k in ("data", "offsets", "filters"))
        if version == 1:
            return ov1.deformable_convolution(data, offsets, filters, *args, auto_pad, group, dg)
        mask = parameter(shapes["mask"]) if with_mask else None
        return ov8.deformable_convolution(data, offsets, filters, *args, mask, auto_pad, group, dg)

    return OpCase(cid, f"DeformableConvolution-{version}", build)


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases: list[OpCase] = []
    for version in (1, 8):
        made = 0
        while made < PER_VERSION:
            case = _case(rng, version, f"dc{len(cases):05d}")
            if buildable(case) and min(case.build().get_output_partial_shape(0).get_min_shape() or [1]) >= 0:
                cases.append(case)
                made += 1
    return cases


CASES = _cases()
BATCHES = batches(CASES, 40)
STATS["DeformableConvolution cases (tests/differential/test_deformable.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_deformable_convolution_matches_openvino(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    outcome = ops_runner.ops_batch(f"deformable{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    batch = ops_runner.ops_batch(f"deformable{index}", BATCHES[index])
    case = next(c for c in BATCHES[index] if is_static(batch.expected[c.cid][0][0]))
    target = tmp_path / "dim.xml"
    assert dim_mutant(batch.xml, target, case.cid, axis=1)
    assert [d.code for d in errors_on(irshape.check_file(target), case.cid)] == ["IRS301"]


@pytest.mark.parametrize(
    ("offsets", "code"),
    [([1, 17, 6, 6], "IRS212"), ([1, 18, 7, 6], "IRS212"), ([2, 18, 6, 6], "IRS212"), ([1, 18, 6], "IRS211")],
    ids=["channels", "spatial", "batch", "rank"],
)
def test_offsets_openvino_rejects_are_errors(tmp_path: Path, offsets: list[int], code: str) -> None:
    def build() -> ov.Node:
        data, offsets, filters = parameter([1, 4, 8, 8]), parameter([1, 18, 6, 6]), parameter([5, 4, 3, 3])
        return ov8.deformable_convolution(data, offsets, filters, [1, 1], [0, 0], [0, 0], [1, 1])

    source, target = tmp_path / "good.xml", tmp_path / "bad.xml"
    save_batch([OpCase("dcbad", "DeformableConvolution-8", build)], source)
    apply_mutant(source, target, lambda tree: reshape_input(tree, "dcbad", 1, offsets))
    assert openvino_reads(target) is not None
    assert [d.code for d in errors_on(irshape.check_file(target), "dcbad")] == [code]


# --- BinaryConvolution-1, the other convolution with a kernel of its own kind -----------------------


def _binary_cases() -> list[OpCase]:
    rng = random.Random(SEED + 1)
    cases: list[OpCase] = []
    while len(cases) < 100:
        rank = rng.randint(3, 5)
        n, cin, cout = rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 4)
        spatial = [rng.randint(3, 9) for _ in range(rank - 2)]
        kernel = [rng.randint(1, 3) for _ in range(rank - 2)]
        strides = [rng.randint(1, 2) for _ in kernel]
        pads = [rng.randint(0, 1) for _ in kernel]
        auto_pad = rng.choice(["explicit", "same_upper", "valid"])
        data = as_partial(rng, [n, cin, *spatial], rng.choice(STYLES))
        dtype = rng.choice([np.float32, np.float16, np.int32])

        def build(d=data, k=(cout, cin, *kernel), s=strides, p=pads, a=auto_pad, t=dtype) -> ov.Node:
            weights = ov1.constant(np.zeros(k), ov.Type.u1)
            return ov1.binary_convolution(
                parameter(d, t), weights, s, p, p, [1] * len(s), "xnor-popcount", 0.0, a
            )

        case = OpCase(f"bc{len(cases):05d}", "BinaryConvolution-1", build)
        if buildable(case):
            cases.append(case)
    return cases


BINARY = _binary_cases()
BINARY_BATCHES = batches(BINARY, 50)
STATS["BinaryConvolution cases (tests/differential/test_deformable.py)"] = len(BINARY)


@pytest.mark.parametrize(("index", "case"), params(BINARY_BATCHES))
def test_binary_convolution_matches_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"binary{index}", BINARY_BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()
