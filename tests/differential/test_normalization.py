"""The normalizations against OpenVINO (read_model of saved files): Softmax-1/8, LogSoftmax-5
(every axis, negative ones where allowed), MVN-2 and MVN-6 (axes Const or Parameter, both
eps_modes), NormalizeL2-1 (scalar, 1D and empty axes, both eps_modes), GroupNormalization-12,
BatchNormInference-1 and -5 (their input orders), LRN-1, FakeQuantize-1 (numpy, none and pdpd
broadcasts of the limits) and GRN-1, on ranks 0..5 with ``?``, intervals and dynamic ranks;
mutants read_model rejects; a declared dim off by one."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset2 as ov2
import openvino.opset5 as ov5
import openvino.opset6 as ov6
import openvino.opset8 as ov8
import openvino.opset12 as ov12
import pytest

import irshape

from .conftest import STATS
from .family_suite import (
    Mutant,
    check_dim_mutant,
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
    OpCase,
    OpsBatchRunner,
    apply_mutant,
    batches,
    constant,
    errors_on,
    layer_element,
    openvino_reads,
    parameter,
    params,
    save_batch,
)

SEED = 20261127
PER_OP = 105
Build = Callable[[], ov.Node]


def _data(rng: random.Random, lo: int = 0, hi: int = 5) -> tuple[list[int], ov.PartialShape]:
    dims = [rng.randint(1, 6) for _ in range(rng.randint(lo, hi))]
    return dims, shape(rng, dims)


def draw_softmax_1(rng: random.Random) -> Build:
    dims, data = _data(rng)
    axis = rng.randint(0, max(len(dims) - 1, 0))
    return lambda: ov1.softmax(parameter(data), axis)


def draw_softmax_8(rng: random.Random) -> Build:
    dims, data = _data(rng)
    span = max(len(dims), 1)
    axis = rng.randint(-span, span - 1)
    return lambda: ov8.softmax(parameter(data), axis)


def draw_log_softmax(rng: random.Random) -> Build:
    dims, data = _data(rng)
    span = max(len(dims), 1)
    axis = rng.randint(-span, span - 1)
    return lambda: ov5.log_softmax(parameter(data), axis)


def draw_mvn_2(rng: random.Random) -> Build:
    _, data = _data(rng)
    across, variance = rng.random() < 0.5, rng.random() < 0.5
    return lambda: ov2.mvn(parameter(data), across, variance, 1e-9)


def draw_mvn_6(rng: random.Random) -> Build:
    dims, data = _data(rng, 1)
    rank = len(dims)
    mode = rng.choice(["inside_sqrt", "outside_sqrt"])
    variance = rng.random() < 0.5
    if rng.random() < 0.7:  # the values are not checked: some lie outside the rank
        values = [rng.randint(-2 * rank, 2 * rank) for _ in range(rng.randint(1, rank))]
        return lambda: ov6.mvn(parameter(data), constant(values), variance, 1e-9, mode)
    length = rng.randint(1, rank)
    return lambda: ov6.mvn(parameter(data), parameter([length], np.int64), variance, 1e-9, mode)


def draw_normalize_l2(rng: random.Random) -> Build:
    dims, data = _data(rng)
    span = max(len(dims), 1)
    mode = rng.choice(["add", "max"])
    kind = rng.choice(["list", "list", "scalar", "empty", "param"])
    if kind == "empty" or not dims:
        axes: Build = lambda: ov.op.Constant(ov.Type.i64, ov.Shape([0]), [])  # noqa: E731
    elif kind == "scalar":
        value = rng.randint(-span, span - 1)
        axes = lambda: constant(value)  # noqa: E731
    elif kind == "param":
        axes = lambda: parameter([rng.randint(1, 3)], np.int64)  # noqa: E731
    else:
        values = [rng.randint(-span, span - 1) for _ in range(rng.randint(1, span))]
        axes = lambda: constant(values)  # noqa: E731
    return lambda: ov1.normalize_l2(parameter(data), axes(), 1e-6, mode)


def draw_group_normalization(rng: random.Random) -> Build:
    groups = rng.randint(1, 4)
    channels = groups * rng.randint(1, 3)
    dims = [rng.randint(1, 4), channels] + [rng.randint(1, 5) for _ in range(rng.randint(0, 3))]
    data = shape(rng, dims)
    scale, bias = shape(rng, [channels]), shape(rng, [channels])
    return lambda: ov12.group_normalization(parameter(data), parameter(scale), parameter(bias), groups, 1e-5)


def _batch_norm(version: int) -> Callable[[random.Random], Build]:
    def draw(rng: random.Random) -> Build:
        channels = rng.randint(1, 6)
        dims = [rng.randint(1, 4), channels] + [rng.randint(1, 5) for _ in range(rng.randint(0, 3))]
        data = shape(rng, dims)
        others = [shape(rng, [channels]) for _ in range(4)]
        element_type = rng.choice([np.float32, np.float16])
        module = ov1 if version == 1 else ov5

        def build() -> ov.Node:
            gamma, beta, mean, variance = (parameter(s, element_type) for s in others)
            return module.batch_norm_inference(
                parameter(data, element_type), gamma, beta, mean, variance, 1e-5
            )

        return build

    return draw


def draw_lrn(rng: random.Random) -> Build:
    dims, data = _data(rng, 1)
    rank = len(dims)
    # negative axes pass (OpenVINO reads them unsigned, then compares them as signed)
    values = [rng.randint(-rank, rank - 1) for _ in range(rng.randint(1, rank))]
    size = rng.randint(1, 5)
    if rng.random() < 0.25:  # axes from a Parameter: no value, only the count is checked
        return lambda: ov1.lrn(parameter(data), parameter([len(values)], np.int64), 1e-4, 0.75, 1.0, size)
    return lambda: ov1.lrn(parameter(data), constant(values), 1e-4, 0.75, 1.0, size)


def draw_fake_quantize(rng: random.Random) -> Build:
    dims, data = _data(rng)
    mode = rng.choice(["numpy", "numpy", "numpy", "none", "explicit", "pdpd", "pdpd"])
    limits = []
    for _ in range(4):
        if mode in ("none", "explicit"):
            limits.append(shape(rng, dims))
        elif mode == "pdpd":
            prefix = dims[: rng.randint(0, len(dims))] if rng.random() < 0.5 else dims
            limits.append(shape(rng, [1 if rng.random() < 0.3 else d for d in prefix]))
        else:
            tail = dims[len(dims) - rng.randint(0, len(dims)) :]
            limits.append(shape(rng, [1 if rng.random() < 0.5 else d for d in tail]))
    levels = rng.choice([2, 16, 255, 256])

    def build() -> ov.Node:
        low, high, out_low, out_high = (parameter(s) for s in limits)
        return ov1.fake_quantize(parameter(data), low, high, out_low, out_high, levels, mode)

    return build


def draw_grn(rng: random.Random) -> Build:
    _, data = _data(rng, 2, 4)
    return lambda: ov1.grn(parameter(data), 1e-6)


DRAWS: dict[str, Callable[[random.Random], Build]] = {
    "Softmax-1": draw_softmax_1,
    "Softmax-8": draw_softmax_8,
    "LogSoftmax-5": draw_log_softmax,
    "MVN-2": draw_mvn_2,
    "MVN-6": draw_mvn_6,
    "NormalizeL2-1": draw_normalize_l2,
    "GroupNormalization-12": draw_group_normalization,
    "BatchNormInference-1": _batch_norm(1),
    "BatchNormInference-5": _batch_norm(5),
    "LRN-1": draw_lrn,
    "FakeQuantize-1": draw_fake_quantize,
    "GRN-1": draw_grn,
}


def _cases() -> list:
    rng = random.Random(SEED)
    cases = []
    for index, (op, draw) in enumerate(DRAWS.items()):
        cases += draw_cases(f"n{index:02d}_", op, draw, rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["normalization cases (tests/differential/test_normalization.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case) -> None:
    check_valid(ops_runner, f"normalization{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(0, len(BATCHES), 2))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"normalization{index}", BATCHES[index], tmp_path)


def _one(build: Callable[[ov.Node], ov.Node], dims: list[int]) -> Build:
    return lambda: build(named_inputs(parameter(dims))[0])


def _with_axes(build: Callable[[ov.Node, ov.Node], ov.Node], dims: list[int], axes: list[int]) -> Build:
    return lambda: build(named_inputs(parameter(dims))[0], constant(axes))


def _with_param_axes(build: Callable[[ov.Node, ov.Node], ov.Node], dims: list[int], length: int) -> Build:
    return lambda: build(*named_inputs(parameter(dims), parameter([length], np.int64)))


def _many(build: Callable[..., ov.Node], *shapes: list[int]) -> Build:
    return lambda: build(*named_inputs(*(parameter(s) for s in shapes)))


def _bn(module, eps: float = 1e-5) -> Callable[..., ov.Node]:
    if module is ov1:  # v0 takes gamma, beta first: the Parameters are named in input order
        return lambda g, b, d, m, v: ov1.batch_norm_inference(d, g, b, m, v, eps)
    return lambda d, g, b, m, v: ov5.batch_norm_inference(d, g, b, m, v, eps)


def _bn_v0_build(*shapes: list[int]) -> Build:
    def build() -> ov.Node:
        gamma, beta, data, mean, variance = named_inputs(*(parameter(s) for s in shapes))
        return ov1.batch_norm_inference(data, gamma, beta, mean, variance, 1e-5)

    return build


def drop_attribute(tree: object, cid: str, name: str) -> None:
    del layer_element(tree, cid).find("data").attrib[name]


MVN2 = _one(lambda x: ov2.mvn(x, True, True, 1e-9), [2, 3, 4])
SOFTMAX1 = _one(lambda x: ov1.softmax(x, 1), [2, 3, 4])
SOFTMAX8 = _one(lambda x: ov8.softmax(x, -1), [2, 3, 4])
LOGSOFTMAX = _one(lambda x: ov5.log_softmax(x, 2), [2, 3, 4])
MVN6 = _with_param_axes(lambda x, a: ov6.mvn(x, a, True, 1e-9, "inside_sqrt"), [2, 3, 4], 2)
NL2 = _with_axes(lambda x, a: ov1.normalize_l2(x, a, 1e-6, "add"), [2, 3, 4], [2])
NL2_PARAM = _with_param_axes(lambda x, a: ov1.normalize_l2(x, a, 1e-6, "add"), [2, 3, 4], 1)
LRN = _with_axes(lambda x, a: ov1.lrn(x, a, 1e-4, 0.75, 1.0, 5), [2, 3, 4], [2])
LRN_PARAM = _with_param_axes(lambda x, a: ov1.lrn(x, a, 1e-4, 0.75, 1.0, 5), [2, 3, 4], 2)
GN = _many(lambda d, s, b: ov12.group_normalization(d, s, b, 3, 1e-5), [2, 6, 4], [6], [6])
BN1 = _bn_v0_build([3], [3], [2, 3, 4], [3], [3])
BN5 = _many(_bn(ov5), [2, 3, 4], [3], [3], [3], [3])
FQ = _many(lambda d, a, b, c, e: ov1.fake_quantize(d, a, b, c, e, 256), [2, 3, 4], [1, 3, 1], [3, 1], [1], [])
FQ_NONE = _many(lambda d, a, b, c, e: ov1.fake_quantize(d, a, b, c, e, 256, "none"), *[[2, 3]] * 5)
GRN = _one(lambda x: ov1.grn(x, 1e-6), [2, 3, 4])

MUTANTS = [
    Mutant("Softmax-1 axis", SOFTMAX1, set_attribute("axis", "3"), "IRS112"),
    Mutant("Softmax-1 negative axis", SOFTMAX1, set_attribute("axis", "-1")),
    Mutant("Softmax-1 rank", SOFTMAX1, set_input_shape(0, [2]), "IRS112"),
    Mutant("Softmax-8 axis", SOFTMAX8, set_attribute("axis", "-4"), "IRS112"),
    Mutant("Softmax-8 axis high", SOFTMAX8, set_attribute("axis", "3"), "IRS112"),
    Mutant("LogSoftmax-5 axis", LOGSOFTMAX, set_attribute("axis", "3"), "IRS112"),
    Mutant("LogSoftmax-5 rank", LOGSOFTMAX, set_input_shape(0, [2, 3]), "IRS112"),
    Mutant("MVN-2 eps", MVN2, set_attribute("eps", "small"), "IRS104"),
    Mutant("MVN-6 eps_mode", MVN6, set_attribute("eps_mode", "sqrt"), "IRS112"),
    Mutant("MVN-6 axes rank", MVN6, set_input_shape(1, [1, 2]), "IRS211"),
    Mutant("MVN-6 axes long", MVN6, set_input_shape(1, [4]), "IRS212"),
    Mutant("MVN-6 data rank", MVN6, set_input_shape(0, [2]), "IRS212"),
    Mutant("NormalizeL2-1 axis", NL2, set_input_shape(0, [2, 3]), "IRS214"),
    Mutant("NormalizeL2-1 axes rank", NL2_PARAM, set_input_shape(1, [1, 1]), "IRS211"),
    Mutant("NormalizeL2-1 eps_mode", NL2, set_attribute("eps_mode", "sum"), "IRS112"),
    Mutant("GroupNormalization-12 groups", GN, set_attribute("num_groups", "4"), "IRS212"),
    Mutant("GroupNormalization-12 groups 0", GN, set_attribute("num_groups", "0"), "IRS112"),
    Mutant(
        "GroupNormalization-12 no num_groups",
        GN,
        lambda tree, cid: drop_attribute(tree, cid, "num_groups"),
        "IRS112",
    ),
    Mutant("GroupNormalization-12 too many groups", GN, set_attribute("num_groups", "12")),
    Mutant("GroupNormalization-12 scale", GN, set_input_shape(1, [5]), "IRS212"),
    Mutant("GroupNormalization-12 bias rank", GN, set_input_shape(2, [6, 1]), "IRS211"),
    Mutant("GroupNormalization-12 data rank", GN, set_input_shape(0, [6]), "IRS211"),
    Mutant("BatchNormInference-1 channels", BN1, set_input_shape(2, [2, 4, 4]), "IRS212"),
    Mutant("BatchNormInference-1 data rank", BN1, set_input_shape(2, [3]), "IRS211"),
    Mutant("BatchNormInference-1 gamma", BN1, set_input_shape(0, [4]), "IRS212"),
    Mutant("BatchNormInference-1 epsilon", BN1, set_attribute("epsilon", "-0.5"), "IRS112"),
    Mutant("BatchNormInference-1 types", BN1, set_input_type(3, "f16", "FP16"), "IRS213"),
    Mutant("BatchNormInference-5 channels", BN5, set_input_shape(0, [2, 4, 4]), "IRS212"),
    Mutant("BatchNormInference-5 variance rank", BN5, set_input_shape(4, [3, 1]), "IRS212"),
    Mutant("BatchNormInference-5 integer", BN5, set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant("LRN-1 axis", LRN, set_input_shape(0, [2, 3]), "IRS214"),
    Mutant("LRN-1 axes long", LRN_PARAM, set_input_shape(1, [4]), "IRS212"),
    Mutant("LRN-1 axes rank", LRN_PARAM, set_input_shape(1, [2, 1]), "IRS211"),
    Mutant("LRN-1 axes type", LRN_PARAM, set_input_type(1, "f32", "FP32"), "IRS213"),
    Mutant("FakeQuantize-1 limit", FQ, set_input_shape(1, [1, 4, 1]), "IRS212"),
    Mutant("FakeQuantize-1 none", FQ_NONE, set_input_shape(2, [1, 3]), "IRS212"),
    Mutant("FakeQuantize-1 auto_broadcast", FQ, set_attribute("auto_broadcast", "always"), "IRS112"),
    Mutant("FakeQuantize-1 explicit", FQ, set_attribute("auto_broadcast", "explicit"), "IRS212"),
    Mutant(
        "FakeQuantize-1 pdpd longer",
        FQ_NONE,
        lambda t, c: (set_attribute("auto_broadcast", "pdpd")(t, c), set_input_shape(1, [2, 3, 1])(t, c)),
    ),
    Mutant("FakeQuantize-1 pdpd", FQ, set_attribute("auto_broadcast", "pdpd"), "IRS212"),
    Mutant(
        "Softmax-8 scalar axis 1",
        SOFTMAX8,
        lambda t, c: (set_input_shape(0, [])(t, c), set_attribute("axis", "1")(t, c)),
    ),
    Mutant("GRN-1 rank 5", GRN, set_input_shape(0, [2, 3, 4, 5, 6]), "IRS211"),
    Mutant("GRN-1 rank 1", GRN, set_input_shape(0, [2]), "IRS211"),
]
STATS["normalization mutants"] = len(MUTANTS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_a_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


# FakeQuantize's pdpd axis: the Python API always writes 0, so the axis is edited in the file
# and irshape must take the file as read_model does, accepting or rejecting it.
PDPD_AXES = [
    ([2, 3, 4], [3, 1], -2),
    ([2, 3, 4], [3, 1], -1),
    ([2, 3, 4], [3, 1], 0),
    ([2, 3, 4], [3, 1], 1),
    ([2, 3, 4], [3, 1], 2),
    ([2, 3, 4], [3, 4], -1),
    ([2, 3, 4], [3, 4], 1),
    ([2, 3, 4], [2, 1, 4], 0),
    ([2, 3, 4], [2, 1, 4], 1),
    ([2, 3, 4], [1], 2),
    ([2, 3, 4], [1], 3),
    ([2, 5, 4, 3], [5, 4], 1),
    ([2, 5, 4, 3], [5, 4], 2),
]


@pytest.mark.parametrize(("data", "limit", "axis"), PDPD_AXES)
def test_fake_quantize_pdpd_axis_as_read_model_takes_it(
    tmp_path: Path, data: list[int], limit: list[int], axis: int
) -> None:
    def build() -> ov.Node:
        inputs = named_inputs(*(parameter(s) for s in (data, [1], [1], [1], [1])))
        return ov1.fake_quantize(*inputs, 256, "pdpd")

    base, target = tmp_path / "base.xml", tmp_path / "axis.xml"
    save_batch([OpCase("m0", "FakeQuantize-1", build)], base)

    def edit(tree: object) -> None:
        set_attribute("auto_broadcast.auto_broadcast_axis", str(axis))(tree, "m0")
        set_input_shape(1, limit)(tree, "m0")

    apply_mutant(base, target, edit)
    rejected = openvino_reads(target) is not None
    report = irshape.check_file(target)
    assert bool(errors_on(report, "m0")) == rejected, [d.message for d in report.diagnostics]
    if not rejected:
        (layer,) = [layer for layer in report.layers if layer.name == "m0"]
        assert [str(s) for s in layer.outputs] == [str(ov.PartialShape(data))]


_DYN = ov.Type.dynamic
DYNAMIC_TYPES = [
    OpCase(
        "dt_bn5",
        "BatchNormInference-5",
        lambda: ov5.batch_norm_inference(parameter([2, 3], _DYN), *(parameter([3]) for _ in range(4)), 1e-5),
    ),
    OpCase(
        "dt_bn1",
        "BatchNormInference-1",
        lambda: ov1.batch_norm_inference(
            parameter([2, 3]), parameter([3], _DYN), parameter([3]), parameter([3]), parameter([3]), 1e-5
        ),
    ),
    OpCase(
        "dt_gn",
        "GroupNormalization-12",
        lambda: ov12.group_normalization(parameter([2, 6], _DYN), parameter([6]), parameter([6]), 3, 1e-5),
    ),
    OpCase(
        "dt_fq",
        "FakeQuantize-1",
        lambda: ov1.fake_quantize(parameter([2, 3], _DYN), *(parameter([1]) for _ in range(4)), 256),
    ),
    OpCase("dt_sm", "Softmax-8", lambda: ov8.softmax(parameter([2, 3], _DYN), -1)),
]


@pytest.mark.parametrize("case", DYNAMIC_TYPES, ids=[c.cid for c in DYNAMIC_TYPES])
def test_dynamic_element_types_as_openvino_merges_them(ops_runner: OpsBatchRunner, case: OpCase) -> None:
    check_valid(ops_runner, "normalization_dynamic_types", DYNAMIC_TYPES, case)
