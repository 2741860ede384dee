"""The element-wise family (irshape.shapes.elementwise) against OpenVINO, through the shared
harness (tests/differential/ops_harness.py).

Valid cases, seeded: every binary op with auto_broadcast numpy, pdpd (start axis -1 or a
random one) and none, over inputs of rank 0 to 5 that are static, ``?``, intervals (with and
without 1 in them) or of dynamic rank, in the element types each op takes; the unary ops in
every element type they take; Select's three-way broadcast; Clamp, Round, Gelu, HardSigmoid,
Selu, Swish, PRelu, ConvertLike; Broadcast-1/3 in every mode and Tile, their target shape /
repeats from a Const, from a Parameter (the value unknown: IRS306) and from a computed
subgraph of Consts (integer arithmetic, comparisons, Select, Convert, Tile folded to a value).
OpenVINO's ``read_model`` of the saved file is the oracle for every output shape and type.

Mutants: saved files edited so that ``read_model`` rejects them (shapes that do not broadcast,
wrong element types, bad enum values, min > max, non-scalar alpha/beta, unsorted axes...) give
an irshape error of the expected code on that layer; a declared output dim off by one is
IRS301.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import pytest
from lxml import etree
from openvino.utils.node_factory import NodeFactory

import irshape

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    apply_mutant,
    assert_dim_off_by_one_is_an_error,
    batches,
    buildable,
    errors_on,
    layer_element,
    openvino_reads,
    params,
)

SEED = 20261125
PER_OP = 100
FACTORY = {n: NodeFactory(f"opset{n}") for n in (1, 2, 3, 4, 5, 7, 9, 10, 13, 15, 16, 17)}
ET = {
    "f32": ov.Type.f32,
    "f16": ov.Type.f16,
    "i32": ov.Type.i32,
    "i64": ov.Type.i64,
    "u8": ov.Type.u8,
    "boolean": ov.Type.boolean,
    "dynamic": ov.Type.dynamic,
}

ARITHMETIC = ("Add", "Subtract", "Multiply", "Divide", "Power", "Maximum", "Minimum", "FloorMod", "Mod")
ARITHMETIC += ("SquaredDifference",)
COMPARISON = ("Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual")
LOGICAL = ("LogicalAnd", "LogicalOr", "LogicalXor", "Xor")
BINARY: dict[str, tuple[int, tuple[str, ...]]] = {
    **{op: (1, ("f32", "f16", "i32", "i64", "u8", "dynamic")) for op in ARITHMETIC},
    **{op: (1, ("f32", "i32", "i64", "u8", "boolean", "dynamic")) for op in COMPARISON},
    **{op: (1, ("boolean", "dynamic")) for op in LOGICAL},
    **{
        op: (13, ("i32", "i64", "u8", "boolean", "dynamic"))
        for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor")
    },
    **{op: (15, ("i32", "i64", "u8", "dynamic")) for op in ("BitwiseLeftShift", "BitwiseRightShift")},
}
ANY = ("f32", "f16", "i32", "i64", "u8", "boolean", "dynamic")
NUMERIC = ("f32", "f16", "i32", "i64", "u8", "dynamic")
REAL = ("f32", "f16", "dynamic")
# Unary ops new to this suite get PER_OP cases; those tests/differential/test_unary.py already
# covers in f32 get cases in their other element types.
UNARY_NEW: dict[str, tuple[int, tuple[str, ...]]] = {
    **{op: (1, NUMERIC) for op in ("Acos", "Asin", "Atan", "Cosh", "Sinh", "Tan")},
    **{op: (4, NUMERIC) for op in ("Acosh", "Asinh", "Atanh")},
    "ErfInv": (17, REAL),
    "LogicalNot": (1, ANY),
    "Identity": (16, ANY),
    "BitwiseNot": (13, ("i32", "i64", "u8", "boolean", "dynamic")),
    "IsFinite": (10, REAL),
    "IsInf": (10, REAL),
    "IsNaN": (10, REAL),
    "Gelu": (2, REAL),
}
UNARY_TYPED: dict[str, tuple[int, tuple[str, ...]]] = {
    **{
        op: (1, NUMERIC)
        for op in ("Abs", "Ceiling", "Cos", "Erf", "Exp", "Floor", "Log", "Negative", "Relu", "Sigmoid")
    },
    **{op: (1, NUMERIC) for op in ("Sign", "Sin", "Sqrt", "Tanh")},
    "HSwish": (4, NUMERIC),
    "HSigmoid": (5, NUMERIC),
    "SoftPlus": (4, REAL),
    "Mish": (4, REAL),
    "SoftSign": (9, REAL),
    "Elu": (1, ANY),
}
TYPED_PER_OP = 20
SPEC_VERSION = {"Acosh": 3, "Asinh": 3, "Atanh": 3}  # the op versions opset4 (FACTORY[4]) holds


# --- shapes --------------------------------------------------------------------------------


def _dim(rng: random.Random, d: int, style: str) -> ov.Dimension:
    """``d`` as a static dim, ``?``, or an interval holding it (for 1: sometimes 0..n or 1..n)."""
    roll = rng.random()
    if style == "static" or roll < 0.45:
        return ov.Dimension(d)
    if style == "dynamic" or roll < 0.65:
        return ov.Dimension()
    lo = max(0, d - rng.randint(0, 3))
    return ov.Dimension(lo, -1) if rng.random() < 0.2 else ov.Dimension(lo, d + rng.randint(0, 4))


def _shape(rng: random.Random, dims: Sequence[int], style: str) -> ov.PartialShape:
    if style == "rank":
        return ov.PartialShape.dynamic()
    return ov.PartialShape([_dim(rng, d, style) for d in dims])


STYLES = ("static", "static", "mixed", "mixed", "dynamic", "rank")


def _style(rng: random.Random) -> str:
    return "rank" if rng.random() < 0.08 else rng.choice(STYLES[:-1])


def _d(lo: int, hi: int = -2) -> ov.Dimension:
    """A dim: static ``lo``; ``lo..hi``; ``lo..`` when hi is -1."""
    return ov.Dimension(lo) if hi == -2 else ov.Dimension(lo, hi)


# Broadcasting's corners, each pair in both orders: 1 against intervals holding 1 or not, ? against
# static, 0 against 1, two intervals holding 1 (their hull), scalars against anything.
CORNERS = [
    ([_d(1)], [_d(0, 3)]),
    ([_d(1)], [_d(1, 4)]),
    ([_d(1, 4)], [ov.Dimension()]),
    ([_d(0, 2)], [_d(1, 5)]),
    ([_d(2, 5)], [_d(1)]),
    ([_d(2, 5)], [ov.Dimension()]),
    ([ov.Dimension()], [_d(3)]),
    ([ov.Dimension()], [ov.Dimension()]),
    ([_d(0)], [_d(1)]),
    ([_d(0)], [_d(0, 4)]),
    ([_d(3, -1)], [_d(1, 2)]),
    ([_d(2, 6)], [_d(4, 9)]),
    ([], [_d(1, 3), _d(2)]),
    ([_d(1), _d(1)], [_d(0, -1)]),
]


def _numpy_pair(rng: random.Random) -> tuple[ov.PartialShape, ov.PartialShape]:
    if rng.random() < 0.15:
        a, b = rng.choice(CORNERS)
        lead = [rng.randint(1, 4) for _ in range(rng.randint(0, 2))]
        return ov.PartialShape([*map(_d, lead), *a]), ov.PartialShape(b)
    rank_a, rank_b = rng.randint(0, 5), rng.randint(0, 5)
    rank = max(rank_a, rank_b)
    a, b = [], []
    for _ in range(rank):
        d = rng.randint(2, 6)
        pattern = rng.choice(("same", "same", "a1", "b1", "both1", "zero"))
        d = 0 if pattern == "zero" else d
        a.append(1 if pattern in ("a1", "both1") or (pattern == "zero" and rng.random() < 0.3) else d)
        b.append(1 if pattern in ("b1", "both1") else d)
    return _shape(rng, a[rank - rank_a :], _style(rng)), _shape(rng, b[rank - rank_b :], _style(rng))


def _pdpd_pair(rng: random.Random) -> tuple[ov.PartialShape, ov.PartialShape, int]:
    rank_a = rng.randint(0, 5)
    rank_b = rng.randint(0, rank_a)
    axis = -1 if rng.random() < 0.5 else rng.randint(0, rank_a - rank_b)
    start = rank_a - rank_b if axis == -1 else axis
    a = [rng.randint(1, 6) for _ in range(rank_a)]
    b = [1 if rng.random() < 0.3 else a[start + i] for i in range(rank_b)]
    return _shape(rng, a, _style(rng)), _shape(rng, b, _style(rng)), axis


def _none_pair(rng: random.Random) -> tuple[ov.PartialShape, ov.PartialShape]:
    dims = [rng.randint(1, 6) for _ in range(rng.randint(0, 5))]
    return _shape(rng, dims, _style(rng)), _shape(rng, dims, _style(rng))


def _param(shape: ov.PartialShape | Sequence[int], element_type: str = "f32", name: str = "") -> ov.Output:
    node = ov1.parameter(shape, ET[element_type])
    if name:
        node.set_friendly_name(name)
    return node.output(0)


def _const(values: Any, dtype: Any = np.int64) -> ov.Output:
    return ov1.constant(np.array(values, dtype=dtype)).output(0)


def _create(version: int, op: str, inputs: list[ov.Output], attrs: dict[str, Any] | None = None) -> ov.Node:
    return FACTORY[version].create(op, inputs, attrs or {})


# --- valid cases -----------------------------------------------------------------------------


class _Cases:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.cases: list[OpCase] = []

    def add(self, op: str, build: Callable[[], ov.Node]) -> bool:
        case = OpCase(f"e{len(self.cases):05d}", op, build)
        if not buildable(case):
            return False
        self.cases.append(case)
        return True

    def fill(self, op: str, draw: Callable[[], Callable[[], ov.Node]], count: int = PER_OP) -> None:
        """``count`` cases OpenVINO's builder accepts, drawn until there are enough."""
        made = 0
        for _ in range(count * 20):
            if made == count:
                return
            made += self.add(op, draw())
        raise AssertionError(f"{op}: only {made} buildable cases drawn")


def _binary_draw(cases: _Cases, op: str, version: int, types: tuple[str, ...]) -> Callable[[], ov.Node]:
    rng = cases.rng
    roll = rng.random()
    attrs: dict[str, Any]
    if roll < 0.6:
        a, b = _numpy_pair(rng)
        attrs = {"auto_broadcast": "numpy"}
    elif roll < 0.8:
        a, b, axis = _pdpd_pair(rng)
        attrs = {"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": axis}
    else:
        a, b = _none_pair(rng)
        attrs = {"auto_broadcast": rng.choice(("none", "explicit"))}
    if rng.random() < 0.5:
        a, b = b, a  # pdpd and none are not symmetric: the builder keeps what it accepts
    et = rng.choice(types)
    other = "dynamic" if rng.random() < 0.1 else et
    if op == "Divide":
        attrs["m_pythondiv"] = rng.random() < 0.5
    return lambda: _create(version, op, [_param(a, et), _param(b, other)], attrs)


def _data_shape(rng: random.Random) -> ov.PartialShape:
    return _shape(rng, [rng.randint(1, 6) for _ in range(rng.randint(0, 5))], _style(rng))


def _unary_draw(cases: _Cases, op: str, version: int, types: tuple[str, ...]) -> Callable[[], ov.Node]:
    shape, et = _data_shape(cases.rng), cases.rng.choice(types)
    attrs: dict[str, Any] = {}
    if op == "IsInf":
        attrs = {"detect_negative": cases.rng.random() < 0.5, "detect_positive": cases.rng.random() < 0.5}
    if op == "Elu":
        attrs = {"alpha": cases.rng.choice((0.1, 1.0, 2.5))}
    return lambda: _create(version, op, [_param(shape, et)], attrs)


def _activation_draws(cases: _Cases) -> dict[str, Callable[[], Callable[[], ov.Node]]]:
    rng = cases.rng

    def clamp() -> Callable[[], ov.Node]:
        shape, et = _data_shape(rng), rng.choice(NUMERIC)
        low = rng.choice((-6.0, -1.0, 0.0, 0.5))
        high = low + rng.choice((0.0, 1.0, 6.0))
        return lambda: _create(1, "Clamp", [_param(shape, et)], {"min": low, "max": high})

    def round_() -> Callable[[], ov.Node]:
        shape, et = _data_shape(rng), rng.choice(ANY)
        mode = rng.choice(("half_to_even", "half_away_from_zero"))
        return lambda: _create(5, "Round", [_param(shape, et)], {"mode": mode})

    def gelu() -> Callable[[], ov.Node]:
        shape, et = _data_shape(rng), rng.choice(REAL)
        mode = rng.choice(("erf", "tanh"))
        return lambda: _create(7, "Gelu", [_param(shape, et)], {"approximation_mode": mode})

    def scalar_like() -> ov.PartialShape:
        return rng.choice((ov.PartialShape([]), ov.PartialShape([-1]), ov.PartialShape.dynamic()))

    def hard_sigmoid() -> Callable[[], ov.Node]:
        shape, et = _data_shape(rng), rng.choice(ANY)
        alpha, beta = scalar_like(), scalar_like()
        return lambda: _create(1, "HardSigmoid", [_param(shape, et), _param(alpha, et), _param(beta, et)])

    def selu() -> Callable[[], ov.Node]:
        shape, alpha, lam = _data_shape(rng), _data_shape(rng), _data_shape(rng)  # no shape checked
        et = rng.choice(REAL)
        types = [et if rng.random() < 0.8 else "dynamic" for _ in range(3)]  # dynamic merges
        return lambda: _create(
            1, "Selu", [_param(shape, types[0]), _param(alpha, types[1]), _param(lam, types[2])]
        )

    def swish() -> Callable[[], ov.Node]:
        shape, et = _data_shape(rng), rng.choice(REAL)
        if rng.random() < 0.3:
            return lambda: _create(4, "Swish", [_param(shape, et)])
        beta = rng.choice((ov.PartialShape([]), ov.PartialShape.dynamic()))
        return lambda: _create(4, "Swish", [_param(shape, et), _param(beta, et)])

    def prelu() -> Callable[[], ov.Node]:
        shape, slope = _data_shape(rng), _data_shape(rng)
        et = rng.choice(ANY)
        return lambda: _create(1, "PRelu", [_param(shape, et), _param(slope, et)])

    def convert_like() -> Callable[[], ov.Node]:
        shape, like = _data_shape(rng), _data_shape(rng)
        et, like_et = rng.choice(ANY), rng.choice(ANY)
        return lambda: _create(1, "ConvertLike", [_param(shape, et), _param(like, like_et)])

    def select() -> Callable[[], ov.Node]:
        roll = rng.random()
        et = rng.choice(ANY)
        cond_et = "dynamic" if rng.random() < 0.1 else "boolean"
        if roll < 0.6:
            a, b = _numpy_pair(rng)
            c = rng.choice(_numpy_pair(rng))
            shapes = [a, b, c]
            rng.shuffle(shapes)
            attrs = {"auto_broadcast": "numpy"}
        elif roll < 0.8:
            then, other, axis = _pdpd_pair(rng)
            cond = _pdpd_pair(rng)[1] if rng.random() < 0.3 else other
            shapes = [cond, then, other]
            attrs = {"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": axis}
        else:
            a, b = _none_pair(rng)
            shapes = [a, b, rng.choice((a, b))]
            attrs = {"auto_broadcast": "none"}
        return lambda: _create(
            1, "Select", [_param(shapes[0], cond_et), _param(shapes[1], et), _param(shapes[2], et)], attrs
        )

    return {
        "Clamp-1": clamp,
        "Round-5": round_,
        "Gelu-7": gelu,
        "HardSigmoid-1": hard_sigmoid,
        "Selu-1": selu,
        "Swish-4": swish,
        "PRelu-1": prelu,
        "ConvertLike-1": convert_like,
        "Select-1": select,
    }


# --- Broadcast and Tile ------------------------------------------------------------------------


def _target_input(rng: random.Random, values: list[int]) -> Callable[[], ov.Output]:
    """The target / repeats: a Const (i64 or i32), or a Parameter of known or unknown length."""
    roll, dtype = rng.random(), rng.choice(("i64", "i32"))
    if roll < 0.75:
        return lambda: _const(values, np.int64 if dtype == "i64" else np.int32)
    length = len(values) if roll < 0.92 else -1
    return lambda: _param([length], dtype)


def _data_input(rng: random.Random, dims: Sequence[int]) -> Callable[[], ov.Output]:
    shape, et = _shape(rng, dims, _style(rng)), rng.choice(ANY)
    return lambda: _param(shape, et)


def _broadcast_draw(cases: _Cases, version: int) -> Callable[[], ov.Node]:
    rng = cases.rng
    modes = ("numpy", "explicit", "pdpd") + (("bidirectional",) if version == 3 else ())
    mode = rng.choice(modes)
    data = [rng.randint(1, 5) for _ in range(rng.randint(0, 4))]
    if mode == "bidirectional":
        target = _bidirectional_target(rng, data)
        data_in, target_in = _data_input(rng, data), _target_input(rng, target)
        return lambda: _create(3, "Broadcast", [data_in(), target_in()], {"mode": mode})
    extra = rng.randint(0, 3)
    if mode == "explicit":
        return _explicit_draw(rng, version, data, extra)
    start = extra if mode == "pdpd" and rng.random() < 0.5 else -1
    target = [rng.randint(1, 5) for _ in range(extra)] + [d if d != 1 else rng.randint(1, 4) for d in data]
    if rng.random() < 0.2 and target:
        target[rng.randrange(len(target))] = -1  # a -1 in the target is a dynamic dim
    attrs: dict[str, Any] = {"mode": mode}
    if mode == "pdpd":
        if start != -1 and rng.random() < 0.3:
            data = [*data, rng.randint(1, 3)]  # pdpd reads no data axis past the target's end
        attrs[{1: "mode.auto_broadcast_axis", 3: "mode.mode.axis"}[version]] = start
    data_in, target_in = _data_input(rng, data), _target_input(rng, target)
    axes = [_const([0])] if version == 1 else []  # Broadcast-1 always has axes_mapping
    return lambda: _create(version, "Broadcast", [data_in(), target_in(), *axes], attrs)


def _bidirectional_target(rng: random.Random, data: list[int]) -> list[int]:
    """A target that broadcasts with ``data`` both ways, shorter or longer than it."""
    target = [1 if rng.random() < 0.3 else rng.randint(1, 5) for _ in range(rng.randint(0, 5))]
    rank = max(len(target), len(data))
    padded = [1] * (rank - len(data)) + data
    target = [1] * (rank - len(target)) + target
    target = [t if t == 1 or p in (1, t) else p for t, p in zip(target, padded, strict=True)]
    return target[rng.randint(0, rank - len(data)) :]


def _explicit_draw(rng: random.Random, version: int, data: list[int], extra: int) -> Callable[[], ov.Node]:
    rank = len(data) + extra
    axes = sorted(rng.sample(range(rank), len(data)))
    target = [rng.randint(1, 5) for _ in range(rank)]
    for i, axis in enumerate(axes):
        if data[i] != 1 or rng.random() < 0.5:
            target[axis] = data[i]
    data_in, target_in = _data_input(rng, data), _target_input(rng, target)
    known_axes, mode = rng.random() < 0.85, rng.choice(("explicit", "none"))

    def axes_in() -> ov.Output:
        return _const(axes) if known_axes and axes else _param([len(data)], "i64")

    return lambda: _create(version, "Broadcast", [data_in(), target_in(), axes_in()], {"mode": mode})


def _tile_draw(cases: _Cases) -> Callable[[], ov.Node]:
    rng = cases.rng
    dims = [rng.randint(1, 6) for _ in range(rng.randint(0, 5))]
    repeats = [rng.randint(-1, 4) for _ in range(rng.randint(1, 6))]
    data_in, repeats_in = _data_input(rng, dims), _target_input(rng, repeats)
    return lambda: _create(1, "Tile", [data_in(), repeats_in()])


def _folded_target(rng: random.Random) -> tuple[str, Callable[[], ov.Output]]:
    """A target / repeats computed from Consts by an element-wise op (OpenVINO folds it)."""
    op = rng.choice((*ARITHMETIC, "Select", "Convert", "Tile", "Negative", "Abs", "Identity"))
    n = rng.randint(1, 4)
    x = [rng.randint(-3, 6) for _ in range(n)]
    y = [rng.choice((-2, -1, 1, 2, 3)) for _ in range(rng.choice((1, n)))]
    if op == "Power":  # small powers, and negative exponents (truncated toward zero)
        x = [rng.choice((1, 2, 3, -1, -2)) for _ in range(n)]
        y = [rng.choice((-1, 0, 1, 2)) for _ in range(len(y))]
    dtype = rng.choice((np.int64, np.int32))
    comparison, count = rng.choice(COMPARISON), rng.randint(1, 2)
    python_div = rng.random() < 0.5

    def build() -> ov.Output:
        a, b = _const(x, dtype), _const(y, dtype)
        if op == "Select":
            cond = _create(1, comparison, [a, _const([1], dtype)])
            return _create(1, "Select", [cond.output(0), a, b]).output(0)
        if op == "Convert":
            return _create(1, "Convert", [_const(x, np.int32)], {"destination_type": "i64"}).output(0)
        if op == "Tile":
            return _create(1, "Tile", [a, _const([count])]).output(0)
        if op in ("Negative", "Abs"):
            return _create(1, op, [a]).output(0)
        if op == "Identity":
            return _create(16, op, [a]).output(0)
        attrs = {"m_pythondiv": python_div} if op == "Divide" else {}
        return _create(1, op, [a, b], attrs).output(0)

    return op, build


def _folded_draw(cases: _Cases) -> Callable[[], ov.Node]:
    rng = cases.rng
    _, target = _folded_target(rng)
    tile = rng.random() < 0.3
    data = _shape(rng, [1] * rng.randint(0, 2), "static")
    if tile:
        return lambda: _create(1, "Tile", [_param(data), target()])
    return lambda: _create(3, "Broadcast", [_param(data), target()], {"mode": "bidirectional"})


# --- the suite ---------------------------------------------------------------------------------


def _cases() -> list[OpCase]:
    cases = _Cases(SEED)
    for op, (version, types) in BINARY.items():
        cases.fill(f"{op}-{version}", lambda o=op, v=version, t=types: _binary_draw(cases, o, v, t))
    for op, (version, types) in UNARY_NEW.items():
        label = f"{op}-{SPEC_VERSION.get(op, version)}"
        cases.fill(label, lambda o=op, v=version, t=types: _unary_draw(cases, o, v, t))
    for op, (version, types) in UNARY_TYPED.items():
        draw = lambda o=op, v=version, t=types: _unary_draw(cases, o, v, t)  # noqa: E731
        cases.fill(f"{op}-{version}", draw, TYPED_PER_OP)
    for op, draw in _activation_draws(cases).items():
        cases.fill(op, draw)
    cases.fill("Broadcast-1", lambda: _broadcast_draw(cases, 1))
    cases.fill("Broadcast-3", lambda: _broadcast_draw(cases, 3))
    cases.fill("Tile-1", lambda: _tile_draw(cases))
    cases.fill("folded target", lambda: _folded_draw(cases))
    return cases.cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["element-wise cases (tests/differential/test_elementwise.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_elementwise_shapes_and_types_match_openvino(
    ops_runner: OpsBatchRunner, index: int, case: OpCase
) -> None:
    batch = ops_runner.ops_batch(f"eltwise{index}", BATCHES[index])
    outcome = batch.outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_every_op_version_has_its_cases() -> None:
    counts: dict[str, int] = {}
    for case in CASES:
        counts[case.op] = counts.get(case.op, 0) + 1
    assert all(counts[f"{op}-{v}"] == PER_OP for op, (v, _) in BINARY.items())
    assert all(counts[f"{op}-{SPEC_VERSION.get(op, v)}"] == PER_OP for op, (v, _) in UNARY_NEW.items())
    assert all(counts[op] == PER_OP for op in ("Broadcast-1", "Broadcast-3", "Tile-1", "Select-1"))


@pytest.mark.parametrize("index", range(0, len(BATCHES), 9))
def test_a_declared_dim_off_by_one_is_an_error_on_that_layer(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    batch = ops_runner.ops_batch(f"eltwise{index}", BATCHES[index])
    assert_dim_off_by_one_is_an_error(batch, BATCHES[index], tmp_path)


# --- mutants -------------------------------------------------------------------------------------


def _set_data(name: str, attribute: str, value: str) -> Callable[[Any], None]:
    def edit(tree: Any) -> None:
        layer_element(tree, name).find("data").set(attribute, value)

    return edit


def _edges_from(tree: Any, layer: Any) -> list[Any]:
    """The input ports fed by ``layer``'s output port."""
    out_port = layer.find("output/port").get("id")
    ports = []
    for edge in tree.xpath(f"//edge[@from-layer='{layer.get('id')}'][@from-port='{out_port}']"):
        (to,) = tree.xpath(f"//layer[@id='{edge.get('to-layer')}']")
        ports += to.xpath(f"input/port[@id='{edge.get('to-port')}']")
    return ports


def _reshape_parameter(name: str, dims: Sequence[int]) -> Callable[[Any], None]:
    """The Parameter ``name`` given shape ``dims`` (its data, its port, the ports it feeds)."""

    def edit(tree: Any) -> None:
        layer = layer_element(tree, name)
        layer.find("data").set("shape", ",".join(map(str, dims)))
        for port in [layer.find("output/port"), *_edges_from(tree, layer)]:
            for dim in port.findall("dim"):
                port.remove(dim)
            for d in dims:
                etree.SubElement(port, "dim").text = str(d)

    return edit


PRECISION = {"f32": "FP32", "f16": "FP16", "i32": "I32", "i64": "I64", "boolean": "BOOL", "u8": "U8"}


def _retype_parameter(name: str, element_type: str) -> Callable[[Any], None]:
    def edit(tree: Any) -> None:
        layer = layer_element(tree, name)
        layer.find("data").set("element_type", element_type)
        for port in [layer.find("output/port"), *_edges_from(tree, layer)]:
            port.set("precision", PRECISION[element_type])

    return edit


def _both(*edits: Callable[[Any], None]) -> Callable[[Any], None]:
    def edit(tree: Any) -> None:
        for one in edits:
            one(tree)

    return edit


@dataclass(frozen=True)
class Mutant:
    label: str
    build: Callable[[], ov.Node]  # its Parameters named pa, pb, pc
    edit: Callable[[Any], None]
    code: str  # the irshape error expected on the layer


def _binary(
    op: str, a: Sequence[int], b: Sequence[int], et: str = "f32", version: int = 1, **attrs: Any
) -> Any:
    return lambda: _create(version, op, [_param(a, et, "pa"), _param(b, et, "pb")], attrs)


X = "X"  # the mutated layer's name
MUTANTS = [
    # shapes that do not broadcast
    *[
        Mutant(f"{op} numpy", _binary(op, [2, 3], [3]), _reshape_parameter("pb", [4]), "IRS212")
        for op in (*ARITHMETIC, *COMPARISON)
    ],
    Mutant(
        "Add numpy rank 5",
        _binary("Add", [2, 1, 4, 1, 3], [4, 5, 3]),
        _reshape_parameter("pb", [3, 5, 3]),
        "IRS212",
    ),
    Mutant(
        "Add none",
        _binary("Add", [2, 3], [2, 3], auto_broadcast="none"),
        _reshape_parameter("pb", [3]),
        "IRS212",
    ),
    Mutant(
        "Add pdpd grows 1",
        _binary(
            "Add", [2, 3, 4], [3, 1], **{"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": -1}
        ),
        _reshape_parameter("pa", [2, 1, 4]),  # numpy would take it: pdpd grows no 1 of the first input
        "IRS212",
    ),
    Mutant(
        "Multiply pdpd axis",
        _binary(
            "Multiply", [2, 3, 4], [3], **{"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": 1}
        ),
        _set_data(X, "auto_broadcast.auto_broadcast_axis", "2"),
        "IRS212",
    ),
    Mutant(
        "Add pdpd default axis 0",
        _binary(
            "Add", [2, 3, 4], [3, 4], **{"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": -1}
        ),
        lambda tree: layer_element(tree, X).find("data").attrib.pop("auto_broadcast.auto_broadcast_axis"),
        "IRS212",
    ),
    Mutant(
        "Less numpy to none", _binary("Less", [2, 3], [3]), _set_data(X, "auto_broadcast", "none"), "IRS212"
    ),
    Mutant(
        "LogicalOr shapes", _binary("LogicalOr", [4], [4], "boolean"), _reshape_parameter("pa", [2]), "IRS212"
    ),
    # enum values
    Mutant(
        "Add auto_broadcast", _binary("Add", [2], [2]), _set_data(X, "auto_broadcast", "numpy2"), "IRS112"
    ),
    Mutant(
        "Equal auto_broadcast",
        _binary("Equal", [2], [2]),
        _set_data(X, "auto_broadcast", "bidirectional"),
        "IRS112",
    ),
    # element types
    *[
        Mutant(f"{op} types differ", _binary(op, [2], [2]), _retype_parameter("pb", "f16"), "IRS213")
        for op in ("Add", "Power", "Equal", "GreaterEqual")
    ],
    *[
        Mutant(
            f"{op} boolean",
            _binary(op, [2], [2]),
            _both(*(_retype_parameter(p, "boolean") for p in ("pa", "pb"))),
            "IRS213",
        )
        for op in ARITHMETIC
    ],
    *[
        Mutant(
            f"{op} f32",
            _binary(op, [2], [2], "boolean"),
            _both(*(_retype_parameter(p, "f32") for p in ("pa", "pb"))),
            "IRS213",
        )
        for op in LOGICAL
    ],
    Mutant(
        "BitwiseAnd f32",
        _binary("BitwiseAnd", [2], [2], "i32", 13),
        _both(*(_retype_parameter(p, "f32") for p in ("pa", "pb"))),
        "IRS213",
    ),
    Mutant(
        "BitwiseLeftShift boolean",
        _binary("BitwiseLeftShift", [2], [2], "i32", 15),
        _both(*(_retype_parameter(p, "boolean") for p in ("pa", "pb"))),
        "IRS213",
    ),
    *[
        Mutant(
            f"{op}-{v} boolean",
            lambda o=op, v=v: _create(v, o, [_param([2], "f32", "pa")]),
            _retype_parameter("pa", "boolean"),
            "IRS213",
        )
        for op, v in (("Relu", 1), ("Acos", 1), ("Asinh", 4), ("HSwish", 4), ("Exp", 1))
    ],
    *[
        Mutant(
            f"{op}-{v} i32",
            lambda o=op, v=v: _create(v, o, [_param([2], "f32", "pa")]),
            _retype_parameter("pa", "i32"),
            "IRS213",
        )
        for op, v in (
            ("SoftPlus", 4),
            ("Mish", 4),
            ("SoftSign", 9),
            ("Gelu", 2),
            ("IsNaN", 10),
            ("IsInf", 10),
            ("IsFinite", 10),
            ("ErfInv", 17),
            ("Swish", 4),
        )
    ],
    Mutant(
        "BitwiseNot f32",
        lambda: _create(13, "BitwiseNot", [_param([2], "i32", "pa")]),
        _retype_parameter("pa", "f32"),
        "IRS213",
    ),
    # Select
    Mutant(
        "Select cond f32",
        lambda: _create(
            1, "Select", [_param([2], "boolean", "pa"), _param([2], "f32", "pb"), _param([2], "f32", "pc")]
        ),
        _retype_parameter("pa", "f32"),
        "IRS213",
    ),
    Mutant(
        "Select then/else",
        lambda: _create(
            1, "Select", [_param([2], "boolean", "pa"), _param([2], "f32", "pb"), _param([2], "f32", "pc")]
        ),
        _retype_parameter("pc", "i32"),
        "IRS213",
    ),
    Mutant(
        "Select shapes",
        lambda: _create(
            1,
            "Select",
            [_param([3, 1], "boolean", "pa"), _param([2], "f32", "pb"), _param([1, 1, 2], "f32", "pc")],
        ),
        _reshape_parameter("pa", [3, 4]),
        "IRS212",
    ),
    Mutant(
        "Select pdpd cond",
        lambda: _create(
            1,
            "Select",
            [_param([3], "boolean", "pa"), _param([2, 3], "f32", "pb"), _param([3], "f32", "pc")],
            {"auto_broadcast": "pdpd", "auto_broadcast.auto_broadcast_axis": -1},
        ),
        _reshape_parameter("pa", [4, 2, 3]),
        "IRS212",
    ),
    # activations
    Mutant(
        "Clamp min > max",
        lambda: _create(1, "Clamp", [_param([2], "f32", "pa")], {"min": 0.0, "max": 1.0}),
        _set_data(X, "min", "2"),
        "IRS112",
    ),
    Mutant(
        "Clamp boolean",
        lambda: _create(1, "Clamp", [_param([2], "f32", "pa")], {"min": 0.0, "max": 1.0}),
        _retype_parameter("pa", "boolean"),
        "IRS213",
    ),
    Mutant(
        "Round mode",
        lambda: _create(5, "Round", [_param([2], "f32", "pa")], {"mode": "half_to_even"}),
        _set_data(X, "mode", "half_up"),
        "IRS112",
    ),
    Mutant(
        "Gelu mode",
        lambda: _create(7, "Gelu", [_param([2], "f32", "pa")], {"approximation_mode": "tanh"}),
        _set_data(X, "approximation_mode", "none"),
        "IRS112",
    ),
    Mutant(
        "HardSigmoid alpha [2]",
        lambda: _create(
            1, "HardSigmoid", [_param([2], "f32", "pa"), _param([], "f32", "pb"), _param([], "f32", "pc")]
        ),
        _reshape_parameter("pb", [2]),
        "IRS211",
    ),
    Mutant(
        "HardSigmoid beta type",
        lambda: _create(
            1, "HardSigmoid", [_param([2], "f32", "pa"), _param([], "f32", "pb"), _param([], "f32", "pc")]
        ),
        _retype_parameter("pc", "f16"),
        "IRS213",
    ),
    Mutant(
        "Selu types",
        lambda: _create(
            1, "Selu", [_param([2], "f32", "pa"), _param([1], "f32", "pb"), _param([1], "f32", "pc")]
        ),
        _retype_parameter("pb", "f16"),
        "IRS213",
    ),
    Mutant(
        "Selu integer",
        lambda: _create(
            1, "Selu", [_param([2], "f32", "pa"), _param([1], "f32", "pb"), _param([1], "f32", "pc")]
        ),
        _both(*(_retype_parameter(p, "i32") for p in ("pa", "pb", "pc"))),
        "IRS213",
    ),
    Mutant(
        "Swish beta rank 1",
        lambda: _create(4, "Swish", [_param([2], "f32", "pa"), _param([], "f32", "pb")]),
        _reshape_parameter("pb", [1]),
        "IRS211",
    ),
    Mutant(
        "Swish beta type",
        lambda: _create(4, "Swish", [_param([2], "f32", "pa"), _param([], "f32", "pb")]),
        _retype_parameter("pb", "f16"),
        "IRS213",
    ),
    # Broadcast and Tile
    Mutant(
        "Broadcast-3 numpy",
        lambda: _create(3, "Broadcast", [_param([3], "f32", "pa"), _const([2, 3])], {"mode": "numpy"}),
        _reshape_parameter("pa", [4]),
        "IRS212",
    ),
    Mutant(
        "Broadcast-1 numpy rank",
        lambda: _create(
            1, "Broadcast", [_param([3], "f32", "pa"), _const([2, 3]), _const([0])], {"mode": "numpy"}
        ),
        _reshape_parameter("pa", [2, 2, 3]),
        "IRS212",
    ),
    Mutant(
        "Broadcast-3 bidirectional",
        lambda: _create(
            3, "Broadcast", [_param([4, 1], "f32", "pa"), _const([2, 1, 3])], {"mode": "bidirectional"}
        ),
        _reshape_parameter("pa", [4, 2]),
        "IRS212",
    ),
    Mutant(
        "Broadcast-3 pdpd",
        lambda: _create(
            3, "Broadcast", [_param([3], "f32", "pa"), _const([2, 3])], {"mode": "pdpd", "mode.mode.axis": -1}
        ),
        _reshape_parameter("pa", [2]),
        "IRS212",
    ),
    Mutant(
        "Broadcast-1 pdpd default axis 0",
        lambda: _create(
            1, "Broadcast", [_param([3], "f32", "pa"), _const([2, 3]), _const([0])], {"mode": "numpy"}
        ),
        _set_data(X, "mode", "pdpd"),
        "IRS212",
    ),
    Mutant(
        "Broadcast-1 pdpd axis",
        lambda: _create(
            1,
            "Broadcast",
            [_param([3], "f32", "pa"), _const([2, 3]), _const([0])],
            {"mode": "pdpd", "mode.auto_broadcast_axis": -1},
        ),
        _set_data(X, "mode.auto_broadcast_axis", "0"),
        "IRS212",
    ),
    Mutant(
        "Broadcast-3 explicit axes",
        lambda: _create(
            3, "Broadcast", [_param([3], "f32", "pa"), _const([2, 3, 4]), _const([1])], {"mode": "explicit"}
        ),
        _reshape_parameter("pa", [4]),
        "IRS214",
    ),
    Mutant(
        "Broadcast-3 explicit axes count",
        lambda: _create(
            3, "Broadcast", [_param([3], "f32", "pa"), _const([2, 3, 4]), _const([1])], {"mode": "explicit"}
        ),
        _reshape_parameter("pa", [3, 4]),
        "IRS214",
    ),
    Mutant(
        "Broadcast-3 mode",
        lambda: _create(3, "Broadcast", [_param([3], "f32", "pa"), _const([2, 3])], {"mode": "numpy"}),
        _set_data(X, "mode", "numpy_bidirectional"),
        "IRS112",
    ),
    Mutant(
        "Broadcast-3 explicit without axes",
        lambda: _create(3, "Broadcast", [_param([3], "f32", "pa"), _const([2, 3])], {"mode": "numpy"}),
        _set_data(X, "mode", "explicit"),
        "IRS201",
    ),
    Mutant(
        "Broadcast-3 target rank",
        lambda: _create(
            3, "Broadcast", [_param([3], "f32", "pa"), _param([2], "i64", "pb")], {"mode": "numpy"}
        ),
        _reshape_parameter("pb", [2, 1]),
        "IRS211",
    ),
    Mutant(
        "Broadcast-3 target type",
        lambda: _create(
            3, "Broadcast", [_param([3], "f32", "pa"), _param([2], "i64", "pb")], {"mode": "numpy"}
        ),
        _retype_parameter("pb", "f32"),
        "IRS213",
    ),
    Mutant(
        "Tile repeats rank",
        lambda: _create(1, "Tile", [_param([3], "f32", "pa"), _param([2], "i64", "pb")]),
        _reshape_parameter("pb", [2, 1]),
        "IRS211",
    ),
    Mutant(
        "Tile repeats type",
        lambda: _create(1, "Tile", [_param([3], "f32", "pa"), _param([2], "i64", "pb")]),
        _retype_parameter("pb", "f32"),
        "IRS213",
    ),
]


def _save_single(node: ov.Node, xml: Path) -> None:
    node.set_friendly_name(X)
    params_ = [n for n in _graph_nodes(node) if n.get_type_name() == "Parameter"]
    results = [ov1.result(node.output(i)) for i in range(node.get_output_size())]
    ov.save_model(ov.Model(results, params_, "mutant"), str(xml), compress_to_fp16=False)


def _graph_nodes(node: ov.Node) -> list[ov.Node]:
    seen: dict[str, ov.Node] = {}
    stack = [node]
    while stack:
        one = stack.pop()
        if one.get_name() not in seen:
            seen[one.get_name()] = one
            stack += [v.get_node() for v in one.input_values()]
    return list(seen.values())


STATS["element-wise mutants (tests/differential/test_elementwise.py)"] = len(MUTANTS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.label for m in MUTANTS])
def test_a_mutant_openvino_rejects_is_an_error_on_that_layer(tmp_path: Path, mutant: Mutant) -> None:
    base, target = tmp_path / "base.xml", tmp_path / "mutant.xml"
    _save_single(mutant.build(), base)
    assert openvino_reads(base) is None
    assert not errors_on(irshape.check_file(base), X), "the base file is clean"
    apply_mutant(base, target, mutant.edit)
    assert openvino_reads(target) is not None, "OpenVINO rejects the mutant"
    codes = {d.code for d in errors_on(irshape.check_file(target), X)}
    assert mutant.code in codes, codes


def _drop_last_input(name: str) -> Callable[[Any], None]:
    """The layer's last input port, its edge and the Const feeding it, removed."""

    def edit(tree: Any) -> None:
        layer = layer_element(tree, name)
        port = layer.findall("input/port")[-1]
        layer.find("input").remove(port)
        for edge in tree.xpath(f"//edge[@to-layer='{layer.get('id')}'][@to-port='{port.get('id')}']"):
            (source,) = tree.xpath(f"//layer[@id='{edge.get('from-layer')}']")
            source.getparent().remove(source)
            edge.getparent().remove(edge)

    return edit


def _broadcast_1(mode: str) -> Callable[[], ov.Node]:
    return lambda: _create(
        1, "Broadcast", [_param([3], "f32", "pa"), _const([2, 3]), _const([1])], {"mode": mode}
    )


ACCEPTED = [
    ("auto_broadcast NUMPY", _binary("Add", [2, 3], [3]), _set_data(X, "auto_broadcast", "NUMPY")),
    ("auto_broadcast Numpy", _binary("Add", [2, 3], [3]), _set_data(X, "auto_broadcast", "Numpy")),
    ("auto_broadcast explicit", _binary("Add", [2, 3], [2, 3]), _set_data(X, "auto_broadcast", "explicit")),
    (
        "no auto_broadcast: numpy",
        _binary("Add", [2, 3], [3]),
        lambda t: layer_element(t, X).remove(layer_element(t, X).find("data")),
    ),
    (
        "Round mode case",
        lambda: _create(5, "Round", [_param([2], "f32", "pa")], {"mode": "half_to_even"}),
        _set_data(X, "mode", "HALF_TO_EVEN"),
    ),
    (
        "Gelu mode case",
        lambda: _create(7, "Gelu", [_param([2], "f32", "pa")], {"approximation_mode": "tanh"}),
        _set_data(X, "approximation_mode", "Tanh"),
    ),
    ("Broadcast-1 numpy, 2 inputs", _broadcast_1("numpy"), _drop_last_input(X)),
    ("Broadcast-1 explicit, 2 inputs", _broadcast_1("explicit"), _drop_last_input(X)),
    (
        "Broadcast-3 mode none",
        lambda: _create(
            3, "Broadcast", [_param([3], "f32", "pa"), _const([2, 3]), _const([1])], {"mode": "explicit"}
        ),
        _set_data(X, "mode", "none"),
    ),
]


@pytest.mark.parametrize(("label", "build", "edit"), ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_an_edit_openvino_accepts_is_no_error_and_its_shape(
    tmp_path: Path, label: str, build: Callable[[], ov.Node], edit: Callable[[Any], None]
) -> None:
    base, target = tmp_path / "base.xml", tmp_path / "edited.xml"
    _save_single(build(), base)
    apply_mutant(base, target, edit)
    assert openvino_reads(target) is None
    report = irshape.check_file(target)
    assert not errors_on(report, X), [d.message for d in errors_on(report, X)]
    (layer,) = [layer for layer in report.layers if layer.name == X]
    (expected,) = [
        str(n.get_output_partial_shape(0))
        for n in ov.Core().read_model(str(target)).get_ops()
        if n.get_friendly_name() == X
    ]
    assert str(layer.outputs[0]) == expected


@pytest.mark.parametrize("mode", ["numpy", "bidirectional", "pdpd", "tile"])
def test_a_target_from_a_parameter_is_one_irs306_and_openvinos_shape(tmp_path: Path, mode: str) -> None:
    data, target = _param([4, 1, 5], "f32", "pa"), _param([3], "i64", "pb")
    if mode == "tile":
        node = _create(1, "Tile", [data, target])
    else:
        node = _create(3, "Broadcast", [data, target], {"mode": mode})
    xml = tmp_path / "unknown.xml"
    _save_single(node, xml)
    report = irshape.check_file(xml, every_unknown_value=True)  # declared as OpenVINO infers: said on request
    on_layer = [d for d in report.diagnostics if d.layer_name == X]
    assert [d.code for d in on_layer] == ["IRS306"], [d.message for d in on_layer]
    (layer,) = [layer for layer in report.layers if layer.name == X]
    (expected,) = [
        str(n.get_output_partial_shape(0))
        for n in ov.Core().read_model(str(xml)).get_ops()
        if n.get_friendly_name() == X
    ]
    assert str(layer.outputs[0]) == expected
