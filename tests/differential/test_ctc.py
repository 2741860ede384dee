"""The CTC family against OpenVINO (read_model of saved files): CTCGreedyDecoder-1,
CTCGreedyDecoderSeqLen-6 (with and without blank index, every output type) and CTCLoss-4 (with
and without blank index, every attribute), inputs static, ``?``, interval or of dynamic rank, in
real and integer element types. Mutants read_model rejects (ranks, batch and time mismatches,
element types) are errors on the layer; a declared dim off by one is IRS301."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset4 as ov4
import openvino.opset6 as ov6
import pytest

from .conftest import STATS
from .family_suite import (
    Mutant,
    check_dim_mutant,
    check_mutant,
    check_valid,
    draw_cases,
    named_inputs,
    set_input_shape,
    set_input_type,
    shape,
)
from .ops_harness import OpCase, OpsBatchRunner, batches, parameter, params

SEED = 20261127
REALS = [np.float32, np.float32, np.float16]
INTEGERS = [np.int32, np.int64]


def draw_decoder(rng: random.Random) -> Callable[[], ov.Node]:
    time, batch, classes = rng.randint(1, 6), rng.randint(1, 4), rng.randint(1, 5)
    logits, mask = shape(rng, [time, batch, classes]), shape(rng, [time, batch])
    dtype, merge = rng.choice(REALS), rng.random() < 0.5
    return lambda: ov1.ctc_greedy_decoder(parameter(logits, dtype), parameter(mask, dtype), merge)


def draw_seq_len(rng: random.Random) -> Callable[[], ov.Node]:
    batch, time, classes = rng.randint(1, 4), rng.randint(1, 6), rng.randint(1, 5)
    logits, lengths = shape(rng, [batch, time, classes]), shape(rng, [batch])
    blank = rng.choice([None, [], [1]])
    blank_shape = None if blank is None else shape(rng, blank)
    dtype, index_type = rng.choice(REALS), rng.choice(INTEGERS)
    merge, classes_type, lengths_type = (
        rng.random() < 0.5,
        rng.choice(["i32", "i64"]),
        rng.choice(["i32", "i64"]),
    )

    def build() -> ov.Node:
        args = [parameter(logits, dtype), parameter(lengths, index_type)]
        if blank_shape is not None:
            args.append(parameter(blank_shape, index_type))
        return ov6.ctc_greedy_decoder_seq_len(
            *args, merge_repeated=merge, classes_index_type=classes_type, sequence_length_type=lengths_type
        )

    return build


def draw_loss(rng: random.Random) -> Callable[[], ov.Node]:
    batch, time, classes = rng.randint(1, 4), rng.randint(1, 6), rng.randint(2, 5)
    shapes = [shape(rng, d) for d in ([batch, time, classes], [batch], [batch, time], [batch])]
    with_blank = rng.random() < 0.5
    dtype, index_type = rng.choice(REALS), rng.choice(INTEGERS)
    flags = [rng.random() < 0.5 for _ in range(3)]

    def build() -> ov.Node:
        args = [parameter(shapes[0], dtype)] + [parameter(s, index_type) for s in shapes[1:]]
        if with_blank:
            args.append(parameter([], index_type))
        return ov4.ctc_loss(*args, *flags)

    return build


OPS = {"CTCGreedyDecoder-1": draw_decoder, "CTCGreedyDecoderSeqLen-6": draw_seq_len, "CTCLoss-4": draw_loss}
CASES = [
    case
    for index, (op, draw) in enumerate(OPS.items())
    for case in draw_cases(f"ctc{index}_", op, draw, random.Random(f"{SEED}-{op}"), 110)
]
BATCHES = batches(CASES)
STATS["CTC cases (tests/differential/test_ctc.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_shapes_and_types_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    check_valid(ops_runner, f"ctc{index}", BATCHES[index], case)


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    check_dim_mutant(ops_runner, f"ctc{index}", BATCHES[index], tmp_path)


def _decoder() -> ov.Node:
    return ov1.ctc_greedy_decoder(*named_inputs(parameter([5, 2, 4]), parameter([5, 2])))


def _seq_len() -> ov.Node:
    inputs = named_inputs(parameter([2, 5, 4]), parameter([2], np.int32), parameter([], np.int32))
    return ov6.ctc_greedy_decoder_seq_len(*inputs)


def _loss() -> ov.Node:
    inputs = named_inputs(
        parameter([2, 5, 4]), parameter([2], np.int32), parameter([2, 5], np.int32),
        parameter([2], np.int32), parameter([], np.int32),
    )  # fmt: skip
    return ov4.ctc_loss(*inputs)


MUTANTS = [
    Mutant("decoder 2D logits", _decoder, set_input_shape(0, [5, 2]), "IRS211"),
    Mutant("decoder 3D mask", _decoder, set_input_shape(1, [5, 2, 1]), "IRS211"),
    Mutant("decoder time", _decoder, set_input_shape(1, [4, 2]), "IRS212"),
    Mutant("decoder batch", _decoder, set_input_shape(1, [5, 3]), "IRS212"),
    Mutant("seq_len 4D logits", _seq_len, set_input_shape(0, [2, 5, 4, 1]), "IRS211"),
    Mutant("seq_len 2D lengths", _seq_len, set_input_shape(1, [2, 1]), "IRS211"),
    Mutant("seq_len batch", _seq_len, set_input_shape(1, [3]), "IRS212"),
    Mutant("seq_len blank of two", _seq_len, set_input_shape(2, [2]), "IRS211"),
    Mutant("seq_len f32 blank", _seq_len, set_input_type(2, "f32", "FP32"), "IRS213"),
    Mutant("loss i32 logits", _loss, set_input_type(0, "i32", "I32"), "IRS213"),
    Mutant("loss f32 labels", _loss, set_input_type(2, "f32", "FP32"), "IRS213"),
    Mutant("loss boolean label length", _loss, set_input_type(3, "boolean", "BOOL"), "IRS213"),
    Mutant("loss f16 blank", _loss, set_input_type(4, "f16", "FP16"), "IRS213"),
    Mutant("loss 2D logits", _loss, set_input_shape(0, [2, 5]), "IRS211"),
    Mutant("loss 1D labels", _loss, set_input_shape(2, [2]), "IRS211"),
    Mutant("loss 1D blank", _loss, set_input_shape(4, [1]), "IRS211"),
    Mutant("loss logit length batch", _loss, set_input_shape(1, [3]), "IRS212"),
    Mutant("loss labels batch", _loss, set_input_shape(2, [3, 5]), "IRS212"),
    Mutant("loss labels time", _loss, set_input_shape(2, [2, 6]), "IRS212"),
    Mutant("loss label length batch", _loss, set_input_shape(3, [1]), "IRS212"),
]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_openvino_rejects_is_an_error(tmp_path: Path, mutant: Mutant) -> None:
    check_mutant(tmp_path, mutant)
