"""A type's maximum read as "no limit" by shape inference, against OpenVINO (issue 24, item 1).

Shape inference reads a computed value through the ops' bound evaluators, where an element at
its type's maximum stands for an unbounded dim: ``divide::evaluate_bound``'s lower bound is 0
where either input is the divisor type's maximum, and for an exact value that lower bound is
what shape inference reads (INT64_MAX / 2 as a Broadcast's target is 0, where evaluate gives
4611686018427387903: irshape read evaluate's, a dim of 50 after the Minimum below, and an
IRS301 OpenVINO does not have). irshape's value is evaluate's and it keeps the reading apart
(``bounds.read_apart``); the executor folds evaluate's (tests/execution/test_folding.py).

Mod's alike (``mod::evaluate_bound``: 17 mod INT64_MAX reads 0). FloorMod's evaluate itself
computes signed integers in double (``reference::floor_mod``), so INT64_MAX floormod 10 is 0
(irshape gave 7), i32's maximum floormod 10 is 7 and u64's 5 (``%``).

Integer Divide (Python's or C's division), Mod and FloorMod of i32, i64, u32 and u64 values
(Consts, or a Convert of a u64 or u32 maximum), the maximum in the dividend, the divisor, both
or neither, then a Minimum with 50 plus 3, as a Broadcast's target; all in one model.
"""

from __future__ import annotations

import itertools

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import pytest
from openvino.utils.node_factory import NodeFactory

from .conftest import STATS
from .ops_harness import OpCase, OpsBatchRunner, as_broadcast_target, batches, buildable, params

_FACTORY = NodeFactory("opset1")  # (opset1.divide has no m_pythondiv)
TYPES = {"i32": np.int32, "i64": np.int64, "u32": np.uint32, "u64": np.uint64}
SOURCES = ("const", "from_u64", "from_u32")  # the dividend as a Const, or a Convert of a maximum
PLACES = ("dividend", "divisor", "both", "neither")


def _maximum(element_type: str) -> int:
    return int(np.iinfo(TYPES[element_type]).max)


def _const(values: list[int], element_type: str) -> ov.Node:
    return ov1.constant(np.array(values, dtype=TYPES[element_type]))


def _dividend(element_type: str, source: str, at_maximum: bool) -> ov.Node:
    """[maximum or 93, 10] in ``element_type``: a Const, or a Convert of a wider maximum."""
    if source == "const" or not at_maximum:
        return _const([_maximum(element_type) if at_maximum else 93, 10], element_type)
    wide = "u64" if source == "from_u64" else "u32"
    return ov1.convert(_const([_maximum(wide), 10], wide), element_type)


# the op and its attributes: Divide (Python's or C's division), Mod (C's %), FloorMod
OPS = {
    "Divide": ("Divide", {"m_pythondiv": True}),
    "Divide C": ("Divide", {"m_pythondiv": False}),
    "Mod": ("Mod", {}),
    "FloorMod": ("FloorMod", {}),
}


def _build(element_type: str, source: str, place: str, op: str) -> ov.Node:
    dividend = _dividend(element_type, source, place in ("dividend", "both"))
    divisor = _const([_maximum(element_type) if place in ("divisor", "both") else 7], element_type)
    name, attributes = OPS[op]
    quotient = _FACTORY.create(name, [dividend.output(0), divisor.output(0)], attributes)
    whole = ov1.convert(quotient, "i64")
    capped = ov1.add(ov1.minimum(whole, ov1.constant(np.array([50], np.int64))), ov1.constant(np.int64(3)))
    return as_broadcast_target(capped)


def _cases() -> list[OpCase]:
    cases = []
    for element_type, source, place, op in itertools.product(TYPES, SOURCES, PLACES, OPS):
        case = OpCase(
            f"vm{len(cases):04d}",
            op,
            lambda e=element_type, s=source, p=place, o=op: _build(e, s, p, o),
            (element_type, source, place),
        )
        if buildable(case):
            cases.append(case)
    return cases


CASES = _cases()
BATCHES = batches(CASES, 200)
STATS["a type's maximum as no limit: Divide, Mod, FloorMod, exact (test_value_maxima.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_a_maximum_is_read_as_openvino_reads_it(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"value_maxima{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


def test_the_maximum_reads_as_zero(ops_runner: OpsBatchRunner) -> None:
    # the cases tell the reading from evaluate's: a maximum divided reads 0 (a dim of 3), where
    # evaluate's quotient would be a dim of 53 (and its remainder another than 0 but for a few)
    read_as_zero: dict[str, int] = dict.fromkeys(OPS, 0)
    for index, batch in enumerate(BATCHES):
        run = ops_runner.ops_batch(f"value_maxima{index}", batch)
        for case in batch:
            shape = run.expected[case.cid][0][0]
            read_as_zero[case.op] += case.tags[2] == "dividend" and shape.startswith("[1,3,")
    assert all(count >= 3 for count in read_as_zero.values()), read_as_zero
    assert ov.__version__  # (OpenVINO answered each batch above)
