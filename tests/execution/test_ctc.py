"""The CTC family's kernels against OpenVINO's CPU plugin: CTCLoss-4 (every combination of
preprocess_collapse_repeated, ctc_merge_repeated and unique; targets with repeats; logit and
label lengths short and full; blank index given or the last class), CTCGreedyDecoder-1 (masks ending
early, at the start, never; merging or not) and CTCGreedyDecoderSeqLen-6 (lengths 0 to T, blank
index given or the last class, merging or not, i32 and i64 outputs), logits with repeats and
blanks drawn often, f32 and f16, batched into one model."""

from __future__ import annotations

from typing import Any

import numpy as np
import openvino.opset1 as ov1
import openvino.opset4 as ov4
import openvino.opset6 as ov6
import pytest

from .harness import Case, parameter, run_batch


def _logits(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Logits whose maximum repeats step to step and often is the last (blank) class."""
    classes = shape[-1]
    winners = rng.integers(0, classes, shape[:-1])
    winners = np.where(rng.random(shape[:-1]) < 0.4, classes - 1, winners)
    logits = rng.standard_normal(shape)
    np.put_along_axis(logits, winners[..., None], 5.0, axis=-1)
    return logits.astype(dtype)


def _decoder_case(rng: np.random.Generator, index: int) -> Case:
    time, batch, classes = int(rng.integers(1, 7)), int(rng.integers(1, 4)), int(rng.integers(2, 5))
    dtype = np.float16 if index % 5 == 4 else np.float32
    ends = rng.integers(0, time + 1, batch)  # the mask's first zero
    mask = (np.arange(time)[:, None] < ends[None, :]).astype(dtype)
    if index % 4 == 3:
        mask[-1] = 1  # a one after a zero: the steps still stop at the zero
    logits_node, mask_node = parameter((time, batch, classes), dtype), parameter((time, batch), dtype)
    feeds = {logits_node: _logits(rng, (time, batch, classes), dtype), mask_node: mask}
    node = ov1.ctc_greedy_decoder(logits_node, mask_node, index % 2 == 0)
    return Case(f"decoder{index}", feeds, [node.output(0)])


def _seq_len_case(rng: np.random.Generator, index: int) -> Case:
    batch, time, classes = int(rng.integers(1, 4)), int(rng.integers(1, 7)), int(rng.integers(2, 5))
    dtype = np.float16 if index % 5 == 4 else np.float32
    index_type = (np.int32, np.int64)[index % 2]
    logits_node, lengths_node = parameter((batch, time, classes), dtype), parameter((batch,), index_type)
    feeds = {
        logits_node: _logits(rng, (batch, time, classes), dtype),
        lengths_node: rng.integers(0, time + 1, batch).astype(index_type),
    }
    args = [logits_node, lengths_node]
    if index % 3:
        blank = parameter((), index_type) if index % 3 == 1 else parameter((1,), index_type)
        feeds[blank] = np.array(rng.integers(0, classes), index_type).reshape(blank.get_output_shape(0))
        args.append(blank)
    types = ("i32", "i64")
    node = ov6.ctc_greedy_decoder_seq_len(
        *args,
        merge_repeated=index % 4 < 2,
        classes_index_type=types[index % 2],
        sequence_length_type=types[(index // 2) % 2],
    )
    return Case(f"seq_len{index}", feeds, list(node.outputs()))


def _loss_case(rng: np.random.Generator, index: int) -> Case:
    batch, time, classes = int(rng.integers(1, 4)), int(rng.integers(1, 7)), int(rng.integers(2, 5))
    dtype = np.float16 if index % 9 == 8 else np.float32
    index_type = (np.int32, np.int64)[index % 2]
    blank = int(rng.integers(0, classes)) if index % 3 == 0 else classes - 1
    logit_lengths = rng.integers(1, time + 1, batch)
    label_lengths = np.array([rng.integers(1, n + 1) for n in logit_lengths])
    # labels among few classes other than the blank, so that repeats are common
    others = np.array([c for c in range(classes) if c != blank])
    labels = others[rng.integers(0, min(2, others.size), (batch, time))]
    nodes = [
        parameter((batch, time, classes), dtype),
        parameter((batch,), index_type),
        parameter((batch, time), index_type),
        parameter((batch,), index_type),
    ]
    values = [
        (rng.standard_normal((batch, time, classes)) * 2).astype(dtype),
        logit_lengths.astype(index_type),
        labels.astype(index_type),
        label_lengths.astype(index_type),
    ]
    if index % 3 == 0:
        nodes.append(parameter((), index_type))
        values.append(np.array(blank, index_type))
    flags = [bool(index & 1), bool(index & 2), bool(index & 4)]
    if len(nodes) == 4:
        nodes.append(None)
    node = ov4.ctc_loss(
        *nodes, preprocess_collapse_repeated=flags[0], ctc_merge_repeated=flags[1], unique=flags[2]
    )
    feeds = {n: v for n, v in zip(nodes, values, strict=False) if n is not None}
    return Case(f"loss{index}_{''.join(str(int(f)) for f in flags)}", feeds, [node.output(0)])


def fuzz_found_cases() -> list[Case]:
    """What the kernel fuzzer (test_kernel_fuzz_signal.py) found: CTCLoss of labels equal to
    the blank index. The plugin gives a state its role by its value (nodes/ctc_loss.cpp): such a
    label stays on without ctc_merge_repeated and is never skipped from, as a blank."""
    rng = np.random.default_rng(61)
    cases = []
    # (classes, logit length, labels, blank or None, flags): the fuzzer's two, and mixed labels
    layouts = [
        (1, 5, [0, 0], 0, (False, False, False)),  # the plugin -log(15), the old kernel -log(10)
        (2, 3, [1], 1, (True, False, True)),  # 1.815 there, 2.508 before
        (3, 6, [2, 0, 2], None, (False, False, False)),
        (3, 6, [2, 0, 2], None, (False, True, False)),
        (4, 6, [1, 1, 3, 1], 1, (False, True, False)),
        (4, 6, [1, 1, 3, 1], 1, (False, False, False)),
        (4, 5, [0, 2, 2], 2, (True, True, False)),
    ]
    for index, (classes, time, labels, blank, flags) in enumerate(layouts):
        logits = parameter((1, time, classes))
        nodes = [
            logits,
            ov4.constant(np.array([time], np.int32)),
            ov4.constant(np.array([labels + [0] * (time - len(labels))], np.int32)),
            ov4.constant(np.array([len(labels)], np.int32)),
            None if blank is None else ov4.constant(np.array(blank, np.int32)),
        ]
        node = ov4.ctc_loss(
            *nodes, preprocess_collapse_repeated=flags[0], ctc_merge_repeated=flags[1], unique=flags[2]
        )
        data = rng.standard_normal((1, time, classes)).astype(np.float32)
        cases.append(Case(f"fuzz_loss_label_is_blank{index}", {logits: data}, [node.output(0)]))
    return cases


def fuzz_found_nan_cases() -> list[Case]:
    """The greedy decoders' class of a step with NaN logits: the plugin's strict ``>`` from the
    first class on (a NaN never the maximum; a NaN first class never beaten). numpy's argmax,
    the old kernel's, took the first NaN."""
    nan = np.nan
    logits = np.array(
        [
            [[195.0, -149.0, 159.0, nan], [nan, 2.0, 3.0, 1.0], [1.0, nan, -1.0, 0.5]],
            [[nan, nan, nan, nan], [-1.0, 0.5, nan, 0.25], [2.0, 2.0, nan, 7.0]],
        ],
        np.float32,
    )  # [N, T, C]: class 3 the blank
    x = parameter(logits.shape)
    lengths = ov6.constant(np.array([3, 3], np.int32))
    node = ov6.ctc_greedy_decoder_seq_len(x, lengths, merge_repeated=False)
    cases = [Case("fuzz_seq_len_nan", {x: logits}, list(node.outputs()))]
    y = parameter((3, 2, 4))  # [T, N, C]
    mask = ov1.constant(np.ones((3, 2), np.float32))
    node = ov1.ctc_greedy_decoder(y, mask, False)
    cases.append(Case("fuzz_decoder_nan", {y: logits.transpose(1, 0, 2).copy()}, [node.output(0)]))
    return cases


def fuzz_found_overflow_cases() -> list[Case]:
    """CTCLoss of large logits, as the plugin computes them (found by the kernel fuzzer): each
    exponential in f32 (exp(100) is inf there, so the loss is inf where f64 gives ~100), all
    logits under -103.9 summing to 0 (log-probabilities of +inf), an infinite logit (NaN)."""
    rng = np.random.default_rng(62)
    cases = []
    layouts = [
        ("exp_overflow", [0.0, 100.0, -3.0], 1.0),
        ("exp_underflow", [-200.0, -150.0, -300.0], 1.0),
        ("infinite_logit", [np.inf, 0.5, -1.0], 1.0),
        ("large_scale", [0.0, 0.0, 0.0], 150.0),
    ]
    for name, first_step, scale in layouts:
        logits = (rng.standard_normal((2, 4, 3)) * scale).astype(np.float32)
        logits[0, 1] = first_step
        x = parameter(logits.shape)
        nodes = [
            x,
            ov4.constant(np.array([4, 3], np.int32)),
            ov4.constant(np.array([[0, 1, 1, 0], [1, 0, 0, 0]], np.int32)),
            ov4.constant(np.array([2, 1], np.int32)),
        ]
        for merge in (True, False):
            node = ov4.ctc_loss(*nodes, ctc_merge_repeated=merge)
            cases.append(Case(f"fuzz_loss_{name}_{int(merge)}", {x: logits}, [node.output(0)]))
    return cases


def _cases() -> list[Case]:
    rng = np.random.default_rng(6)
    cases = [_decoder_case(rng, i) for i in range(40)] + [_seq_len_case(rng, i) for i in range(40)]
    return (
        cases
        + [_loss_case(rng, i) for i in range(48)]
        + fuzz_found_cases()
        + fuzz_found_nan_cases()
        + fuzz_found_overflow_cases()
    )


CASES = _cases()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("ctc"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_ctc(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total
