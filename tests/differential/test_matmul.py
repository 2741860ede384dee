"""MatMul-1, ScaledDotProductAttention-13 and Einsum-7 against OpenVINO (read_model of saved
files): operand ranks 1..5 with transposes and broadcast batch axes, SDPA with and without a
mask and scale, causal or not, Einsum equations with repeated labels, ellipses and implicit
outputs; static, ``?``, interval and dynamic-rank inputs. Mutants read_model rejects are
errors on the layer; a declared dim off by one is IRS301/IRS302."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset7 as ov7
import openvino.opset13 as ov13
import pytest

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
from .ops_harness import OpCase, OpsBatchRunner, batches, parameter, params

SEED = 20261125
PER_OP = 110


def _batch_dims(rng: random.Random, dims: list[int], rank: int) -> list[int]:
    """The last ``rank`` of ``dims``, some of them 1 (broadcast)."""
    tail = dims[len(dims) - rank :] if rank else []
    return [1 if rng.random() < 0.3 else d for d in tail]


def draw_matmul(rng: random.Random) -> Callable[[], ov.Node]:
    rank_a, rank_b = rng.randint(1, 5), rng.randint(1, 5)
    batch = [rng.randint(1, 4) for _ in range(max(rank_a, rank_b) - 2)]
    m, k, n = rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)
    ta, tb = rng.random() < 0.5, rng.random() < 0.5
    a = [k] if rank_a == 1 else _batch_dims(rng, batch, rank_a - 2) + ([k, m] if ta else [m, k])
    b = [k] if rank_b == 1 else _batch_dims(rng, batch, rank_b - 2) + ([n, k] if tb else [k, n])
    element_type = rng.choice([np.float32, np.float32, np.int32, np.float16])
    sa, sb = shape(rng, a), shape(rng, b)
    return lambda: ov1.matmul(parameter(sa, element_type), parameter(sb, element_type), ta, tb)


def draw_sdpa(rng: random.Random) -> Callable[[], ov.Node]:
    batch = [rng.randint(1, 4) for _ in range(rng.randint(1, 3))]
    length, source, e, ev = (rng.randint(1, 6) for _ in range(4))
    q = [*_batch_dims(rng, batch, len(batch)), length, e]
    k = [*_batch_dims(rng, batch, rng.randint(1, len(batch))), source, e]
    v = [*_batch_dims(rng, batch, rng.randint(1, len(batch))), source, ev]
    causal = rng.random() < 0.3
    extra = rng.choice(["none", "mask", "mask", "scale"])
    mask_rank = rng.choice([0, 2, 2, 3, len(batch) + 2])
    mask = (
        [*_batch_dims(rng, batch, max(mask_rank - 2, 0)), rng.choice([1, length]), rng.choice([1, source])]
    )[-mask_rank or len(batch) + 2 :]
    mask = [] if mask_rank == 0 else mask
    mask_type = rng.choice([np.float32, bool])
    scale = rng.choice([[], [1]])

    shapes = [shape(rng, q), shape(rng, k), shape(rng, v), shape(rng, mask), shape(rng, scale)]
    types = [np.float32] * 3 + [mask_type, np.float32]
    count = {"none": 3, "mask": 4, "scale": 5}[extra]

    def build() -> ov.Node:
        inputs = [parameter(s, t) for s, t in zip(shapes[:count], types, strict=False)]
        return ov13.scaled_dot_product_attention(*inputs, causal=causal)

    return build


EQUATIONS = (
    "ij,jk->ik",
    "bij,bjk->bik",
    "...ij,...jk->...ik",
    "ii->i",
    "ij->ji",
    "ij",
    "i,i->",
    "ij,ij->ij",
    "abc->cab",
    "a...->...a",
    "...j,jk",
    "bii->bi",
    "ab,cd->abcd",
    "Ab,bC->AC",
    "a...b->ba...",
    "ij,j",
    "ij,ij->",
    "bij,bjk->",
)


def draw_einsum(rng: random.Random) -> Callable[[], ov.Node]:
    equation = rng.choice(EQUATIONS)
    sizes = {label: rng.randint(1, 5) for label in "abcdijkABC"}
    ellipsis = [rng.randint(1, 4) for _ in range(rng.randint(0, 3))]
    subscripts = equation.split("->")[0].split(",")
    shapes = []
    for subscript in subscripts:
        dims: list[int] = []
        for part in subscript.split("..."):
            if dims or subscript.startswith("..."):
                dims += _batch_dims(rng, ellipsis, rng.randint(0, len(ellipsis)))
            dims += [sizes[label] for label in part]
        shapes.append(dims)
    element_type = rng.choice([np.float32, np.int32])
    partial = [shape(rng, dims) for dims in shapes]
    return lambda: ov7.einsum([parameter(s, element_type) for s in partial], equation)


DRAWS = {"MatMul-1": draw_matmul, "ScaledDotProductAttention-13": draw_sdpa, "Einsum-7": draw_einsum}


def _cases() -> list:
    rng = random.Random(SEED)
    cases = []
    for prefix, (op, draw) in zip(("mm", "sd", "es"), DRAWS.items(), strict=True):
        cases += draw_cases(prefix, op, draw, rng, PER_OP)
    return cases


CASES = _cases()
BATCHES = batches(CASES)
STATS["matmul family cases (tests/differential/test_matmul.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case) -> None:
    check_valid(ops_runner, f"matmul{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"matmul{index}", BATCHES[index], tmp_path)


def _mm(a: list[int], b: list[int], ta: bool = False, tb: bool = False) -> Callable[[], ov.Node]:
    return lambda: ov1.matmul(*named_inputs(parameter(a), parameter(b)), ta, tb)


def _sdpa(*shapes: list[int], causal: bool = False) -> Callable[[], ov.Node]:
    return lambda: ov13.scaled_dot_product_attention(
        *named_inputs(*(parameter(s) for s in shapes)), causal=causal
    )


def _es(equation: str, *shapes: list[int]) -> Callable[[], ov.Node]:
    return lambda: ov7.einsum(named_inputs(*(parameter(s) for s in shapes)), equation)


MUTANTS = [
    Mutant("matmul inner dims", _mm([2, 3], [3, 4]), set_input_shape(1, [5, 4]), "IRS212"),
    Mutant("matmul transpose_b", _mm([2, 3], [3, 4]), set_attribute("transpose_b", "true"), "IRS212"),
    Mutant("matmul transpose_a", _mm([2, 3], [3, 4]), set_attribute("transpose_a", "true"), "IRS212"),
    Mutant("matmul batch", _mm([2, 2, 3], [2, 3, 4]), set_input_shape(1, [3, 3, 4]), "IRS212"),
    Mutant("matmul batch 4D", _mm([5, 1, 2, 3], [4, 3, 4]), set_input_shape(0, [5, 2, 2, 3]), "IRS212"),
    Mutant("matmul scalar", _mm([3], [3, 4]), set_input_shape(0, []), "IRS211"),
    Mutant("matmul 1D inner", _mm([3], [3]), set_input_shape(1, [4]), "IRS212"),
    Mutant("matmul types", _mm([2, 3], [3, 4]), set_input_type(1, "f16", "FP16"), "IRS213"),
    Mutant("sdpa query rank", _sdpa([2, 3, 4], [2, 5, 4], [2, 5, 6]), set_input_shape(0, [3, 4]), "IRS211"),
    Mutant("sdpa key E", _sdpa([2, 3, 4], [2, 5, 4], [2, 5, 6]), set_input_shape(1, [2, 5, 3]), "IRS212"),
    Mutant("sdpa value S", _sdpa([2, 3, 4], [2, 5, 4], [2, 5, 6]), set_input_shape(2, [2, 6, 6]), "IRS212"),
    Mutant("sdpa batch", _sdpa([2, 3, 4], [2, 5, 4], [2, 5, 6]), set_input_shape(1, [3, 5, 4]), "IRS212"),
    Mutant("sdpa mask", _sdpa([2, 3, 4], [2, 5, 4], [2, 5, 6], [3, 5]), set_input_shape(3, [3, 6]), "IRS212"),
    Mutant(
        "sdpa mask rank 1", _sdpa([2, 3, 4], [2, 5, 4], [2, 5, 6], [3, 5]), set_input_shape(3, [5]), "IRS212"
    ),
    Mutant(
        "sdpa scale", _sdpa([2, 3, 4], [2, 5, 4], [2, 5, 6], [3, 5], []), set_input_shape(4, [2]), "IRS212"
    ),
    Mutant("sdpa integer", _sdpa([2, 3, 4], [2, 5, 4], [2, 5, 6]), set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant(
        "sdpa mask type",
        _sdpa([2, 3, 4], [2, 5, 4], [2, 5, 6], [3, 5]),
        set_input_type(3, "i32", "I32"),
        "IRS213",
    ),
    Mutant("einsum label", _es("ij,jk->ik", [2, 3], [3, 4]), set_attribute("equation", "i1,jk->ik")),
    Mutant("einsum count", _es("ij,jk->ik", [2, 3], [3, 4]), set_attribute("equation", "ij->i"), "IRS212"),
    Mutant(
        "einsum output label",
        _es("ij,jk->ik", [2, 3], [3, 4]),
        set_attribute("equation", "ij,jk->iz"),
        "IRS212",
    ),
    Mutant("einsum label dims", _es("ij,jk->ik", [2, 3], [3, 4]), set_input_shape(1, [2, 4]), "IRS212"),
    Mutant("einsum rank", _es("ij,jk->ik", [2, 3], [3, 4]), set_input_shape(0, [2, 3, 3]), "IRS211"),
    Mutant("einsum diagonal", _es("ii->i", [3, 3]), set_input_shape(0, [3, 4]), "IRS212"),
    Mutant("einsum ellipsis", _es("...i,...i->...", [2, 3], [2, 3]), set_input_shape(1, [4, 3]), "IRS212"),
    Mutant("einsum two ellipses", _es("...i->...i", [2, 3]), set_attribute("equation", "......->...")),
    Mutant(
        "einsum blanks", _es("ij,jk->ik", [2, 3], [3, 4]), set_attribute("equation", "ij, jk->ik"), "IRS112"
    ),
    Mutant(
        "einsum empty subscript", _es("ij,jk->ik", [2, 3], [3, 4]), set_attribute("equation", "ij,jk,->ik")
    ),
    Mutant(
        "einsum output comma",
        _es("ij,jk->ik", [2, 3], [3, 4]),
        set_attribute("equation", "ij,jk->ik,"),
        "IRS112",
    ),
    Mutant(
        "einsum two arrows",
        _es("ij,jk->ik", [2, 3], [3, 4]),
        set_attribute("equation", "ij,jk->i->k"),
        "IRS112",
    ),
    Mutant("einsum types", _es("ij,jk->ik", [2, 3], [3, 4]), set_input_type(1, "f16", "FP16"), "IRS213"),
    Mutant("einsum boolean", _es("ij->ji", [2, 3]), set_input_type(0, "boolean", "BOOL"), "IRS213"),
]
STATS["matmul family mutants"] = len(MUTANTS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_a_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)


DYN = ov.Type.dynamic
DYNAMIC_TYPES = [
    OpCase(
        "dt_mm_a", "MatMul-1", lambda: ov1.matmul(parameter([2, 3], DYN), parameter([3, 4]), False, False)
    ),
    OpCase(
        "dt_mm_b", "MatMul-1", lambda: ov1.matmul(parameter([2, 3]), parameter([3, 4], DYN), False, False)
    ),
    OpCase(
        "dt_sdpa_all",
        "ScaledDotProductAttention-13",
        lambda: ov13.scaled_dot_product_attention(
            parameter([2, 3, 4], DYN),
            parameter([2, 5, 4], DYN),
            parameter([2, 5, 6], DYN),
            parameter([3, 5], bool),
        ),
    ),
    OpCase(
        "dt_sdpa_mask",
        "ScaledDotProductAttention-13",
        lambda: ov13.scaled_dot_product_attention(
            parameter([2, 3, 4]), parameter([2, 5, 4]), parameter([2, 5, 6]), parameter([3, 5], DYN)
        ),
    ),
    OpCase(
        "dt_es_0", "Einsum-7", lambda: ov7.einsum([parameter([2, 3], DYN), parameter([3, 4])], "ij,jk->ik")
    ),
    OpCase(
        "dt_es_1", "Einsum-7", lambda: ov7.einsum([parameter([2, 3]), parameter([3, 4], DYN)], "ij,jk->ik")
    ),
]


@pytest.mark.parametrize("case", DYNAMIC_TYPES, ids=[c.cid for c in DYNAMIC_TYPES])
def test_dynamic_element_types_as_openvino_merges_them(ops_runner: OpsBatchRunner, case: OpCase) -> None:
    check_valid(ops_runner, "matmul_dynamic_types", DYNAMIC_TYPES, case)
