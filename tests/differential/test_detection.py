"""NonMaxSuppression-1/3/4/5/9 and NMSRotated-13 against OpenVINO (read_model of saved files):
boxes and scores of static, ``?``, interval and dynamic-rank shapes, every input count the op
takes (versions 1, 3 and 4 get OpenVINO's defaults for the missing ones), max_output_boxes_per_class
a Const (0, small, past the boxes, negative, huge; scalar or one element; integer or real) or a
Parameter, both box encodings, i32 and i64 outputs, f32, f16 and bf16 data. Mutants read_model
rejects are errors on the layer (ranks, batches, box counts, the boxes' last dim, non-scalar
thresholds, element types, output_type); a declared dim off by one is an error."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset5 as ov5
import openvino.opset9 as ov9
import openvino.opset13 as ov13
import pytest

import irshape

from .conftest import STATS
from .family_suite import (
    Mutant,
    check_mutant,
    check_valid,
    draw_cases,
    named_inputs,
    set_attribute,
    set_input_shape,
    set_input_type,
    shape,
)
from .ops_harness import (
    OpsBatchRunner,
    batches,
    constant,
    dim_mutant,
    errors_on,
    openvino_reads,
    parameter,
    params,
)

SEED = 20261201
PER_OP = 120
Build = Callable[[], ov.Node]
MAKERS = {1: ov1, 3: ov3, 4: ov4, 5: ov5, 9: ov9}
MAX_VALUES = (0, 1, 2, 3, 5, 8, 20, 1000, -1, -3, 2**40)


def _max_output(rng: random.Random, version: int) -> Build:
    """max_output_boxes_per_class: a Const of some value (scalar or, from version 5, one
    element; an integer, or from version 5 sometimes a real, which OpenVINO truncates), or a
    Parameter (its value unknown)."""
    value = rng.choice(MAX_VALUES)
    kind = rng.choice(["scalar", "scalar", "one", "parameter"] if version >= 5 else ["scalar", "parameter"])
    types: list[type] = [np.int64, np.int32]
    if 5 <= version <= 9 and rng.random() < 0.2:
        types, value = [np.float32], rng.choice([0.0, 2.7, 4.0, 7.9])
    element_type = rng.choice(types)
    if kind == "parameter":
        dims = [] if version < 5 or rng.random() < 0.5 else [1]
        return lambda: parameter(dims, element_type)
    values = [value] if kind == "one" else value
    return lambda: constant(values, element_type)


def _threshold(rng: random.Random, version: int, element_type: object) -> Build:
    dims = [] if version < 5 or rng.random() < 0.6 else [1]
    if rng.random() < 0.5:
        return lambda: parameter(dims, element_type)
    value = np.full(dims, rng.choice([0.0, 0.5, 0.25]), dtype=np.float32)
    return lambda: constant(value, np.float32)


def draw_nms(version: int) -> Callable[[random.Random], Build]:
    rotated = version == 13

    def draw(rng: random.Random) -> Build:
        num_batches, num_classes, num_boxes = rng.randint(1, 4), rng.randint(1, 5), rng.randint(1, 12)
        boxes = shape(rng, [num_batches, num_boxes, 5 if rotated else 4])
        scores = shape(rng, [num_batches, num_classes, num_boxes])
        data_type = rng.choice([np.float32, np.float32, np.float16, ov.Type.bf16])
        top = 5 if version < 5 else 6
        count = 5 if rotated else rng.randint(2, top)
        max_output = _max_output(rng, version)
        real = np.float32 if version < 5 else data_type
        thresholds = [_threshold(rng, version, real) for _ in range(3)]
        options: dict[str, object] = {"sort_result_descending": rng.random() < 0.5}
        if version >= 3:
            options["output_type"] = rng.choice(["i32", "i64"])
        if rotated:
            options["clockwise"] = rng.random() < 0.5
        else:
            options["box_encoding"] = rng.choice(["corner", "center"])

        def build() -> ov.Node:
            ins = [parameter(boxes, data_type), parameter(scores, data_type), max_output()]
            ins += [t() for t in thresholds]
            ins = ins[:count]
            if rotated:
                return ov13.nms_rotated(*ins, **options)  # type: ignore[arg-type]
            ins += [None] * (top - count)
            return MAKERS[version].non_max_suppression(*ins, **options)  # type: ignore[arg-type]

        return build

    return draw


OPS = {f"NonMaxSuppression-{v}": v for v in (1, 3, 4, 5, 9)} | {"NMSRotated-13": 13}


def _cases() -> list:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, version) in zip(("na", "nb", "nc", "nd", "ne", "nr"), OPS.items(), strict=True):
        cases += draw_cases(prefix, op, draw_nms(version), rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["detection cases (tests/differential/test_detection.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case) -> None:
    check_valid(ops_runner, f"detection{index}", BATCHES[index], case)


def test_every_op_version_has_a_hundred_cases() -> None:
    for op in OPS:
        assert sum(c.op == op for c in CASES) >= 100, op


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    """The selected indices' second dim (3, static in every case) plus one."""
    batch = ops_runner.ops_batch(f"detection{index}", BATCHES[index])
    case = BATCHES[index][0]
    target = tmp_path / "dim.xml"
    assert dim_mutant(batch.xml, target, case.cid, axis=1)
    assert openvino_reads(target) is None  # OpenVINO ignores declared dims
    codes = {d.code for d in errors_on(irshape.check_file(target), case.cid)}
    assert codes == {"IRS301"}, codes


def _nms(version: int, boxes: list[int], scores: list[int], **options: object) -> Build:
    def build() -> ov.Node:
        ins = named_inputs(
            parameter(boxes), parameter(scores), parameter([], np.int64), parameter([]), parameter([])
        )
        if version == 13:
            return ov13.nms_rotated(*ins, **options)  # type: ignore[arg-type]
        return MAKERS[version].non_max_suppression(*ins, **options)  # type: ignore[arg-type]

    return build


def _mutants(version: int) -> list[Mutant]:
    last = 5 if version == 13 else 4
    base = _nms(version, [2, 10, last], [2, 3, 10])
    name = f"NonMaxSuppression-{version}" if version != 13 else "NMSRotated-13"
    found = [
        Mutant(f"{name} boxes rank", base, set_input_shape(0, [2, 10]), "IRS211"),
        Mutant(f"{name} scores rank", base, set_input_shape(1, [2, 3, 10, 1]), "IRS211"),
        Mutant(f"{name} batches", base, set_input_shape(1, [3, 3, 10]), "IRS212"),
        Mutant(f"{name} box count", base, set_input_shape(1, [2, 3, 11]), "IRS212"),
        Mutant(f"{name} box size", base, set_input_shape(0, [2, 10, last + 1]), "IRS212"),
        Mutant(f"{name} iou not a scalar", base, set_input_shape(3, [2]), "IRS211"),
        Mutant(f"{name} max as 2 values", base, set_input_shape(2, [2]), "IRS211"),
    ]
    if version < 5:
        found.append(Mutant(f"{name} max as one value", base, set_input_shape(2, [1]), "IRS211"))
    if version >= 3:
        found.append(Mutant(f"{name} output_type f32", base, set_attribute("output_type", "f32"), "IRS112"))
    if version != 13:
        found.append(Mutant(f"{name} box_encoding", base, set_attribute("box_encoding", "centre"), "IRS112"))
    if version >= 5:
        found += [
            Mutant(f"{name} integer boxes", base, set_input_type(0, "i32", "I32"), "IRS213"),
            # f64 is a real (NMSRotated takes it), not one of NonMaxSuppression's three
            Mutant(f"{name} scores", base, set_input_type(1, *_TYPE[version == 13]), "IRS213"),
            Mutant(f"{name} integer threshold", base, set_input_type(4, "i32", "I32"), "IRS213"),
        ]
    if version == 13:
        found.append(Mutant(f"{name} real max", base, set_input_type(2, "f32", "FP32"), "IRS213"))
    return found


_TYPE = {False: ("f64", "FP64"), True: ("u8", "U8")}
MUTANTS = [m for v in (1, 3, 4, 5, 9, 13) for m in _mutants(v)]
STATS["detection mutants"] = len(MUTANTS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_a_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
