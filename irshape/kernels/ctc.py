"""Kernels of the CTC family (irshape/shapes/ctc.py): CTCGreedyDecoder-1,
CTCGreedyDecoderSeqLen-6 and CTCLoss-4.

OpenVINO's reference semantics (``ctc_greedy_decoder.hpp``, ``ctc_greedy_decoder_seq_len.hpp``):
each step's class is the first maximum of its logits (a NaN never the maximum, but a NaN first
class never beaten: the plugin's strict ``>`` from the first class on, found by the kernel
fuzzer); a batch's steps stop at the first zero of
its sequence mask (CTCGreedyDecoder-1) or after its sequence length (SeqLen-6). A step's class
is written out, left-aligned, unless it is the blank (the last class for CTCGreedyDecoder-1;
``blank_index`` or the last class for SeqLen-6) or, with merging, equal to the step before's
class (blank or not). The rest of each row is -1; SeqLen-6's second output counts the classes
written.

CTCLoss-4 (``ctc_loss.hpp``): per batch, the negative log of the summed probability (softmax
over the classes) of every alignment of the first ``logit_length`` steps to the target (the first
``label_length`` labels; with ``unique`` their distinct values in order of appearance, else with
``preprocess_collapse_repeated`` runs of a label as one). With ``ctc_merge_repeated`` a label
may span several steps and two equal labels in a row need a blank between them (the usual
CTC); without, each label takes exactly one step and every other step is the blank. Computed
as the plugin computes it (``nodes/ctc_loss.cpp``), so that large logits agree too (found by
the kernel fuzzer): the log-softmax from f32 exponentials (exp(100) is inf: the loss is inf
there, ~100 in exact arithmetic) summed in f64, then the backward recursion in f32 over the
target interleaved with blanks, with its ``sumLogs`` (two infinities give NaN). The CPU
plugin (``nodes/ctc_loss.cpp``) tells a blank state from a label state by its value, not its
place: a label equal to the blank index may span several steps even without merging, and no
state is skipped to from it (the kernel fuzzer found it: one class, labels ``[0, 0]``, five
steps: ``-log(15)``, not ``-log(10)``). A label length of 0 crashes the plugin (SIGSEGV).

All confirmed against the CPU plugin by ``tests/execution/test_ctc.py``.
"""

from __future__ import annotations

import numpy as np

from irshape.kernels import KernelCall, KernelError
from irshape.kernels.stored import as_output


def _decoded(
    classes: np.ndarray, active: np.ndarray, blank: int, merge: bool
) -> tuple[np.ndarray, np.ndarray]:
    """``classes [N, T]`` of the active steps, blanks and (merging) repeats dropped, packed to
    the left of rows of -1; and how many each row holds."""
    previous = np.concatenate([np.full((classes.shape[0], 1), -1), classes[:, :-1]], axis=1)
    keep = active & (classes != blank)
    if merge:
        keep &= classes != previous
    out = np.full(classes.shape, -1, dtype=np.int64)
    rows, steps = np.nonzero(keep)
    positions = np.cumsum(keep, axis=1) - 1
    out[rows, positions[rows, steps]] = classes[rows, steps]
    return out, keep.sum(axis=1)


def _first_maximum(logits: np.ndarray) -> np.ndarray:
    """Each step's class as the plugin picks it (``nodes/ctc_greedy_decoder*.cpp``): from the
    first class on, a class replaces the best only when strictly greater, so a NaN never wins
    but a NaN first class is never beaten (numpy's argmax would take the first NaN)."""
    if logits.dtype.kind != "f":
        first: np.ndarray = np.argmax(logits, axis=-1)
        return first
    later = np.where(np.isnan(logits), -np.inf, logits)
    found: np.ndarray = np.where(np.isnan(logits[..., 0]), 0, np.argmax(later, axis=-1))
    return found


def ctc_greedy_decoder(call: KernelCall) -> np.ndarray:
    """CTCGreedyDecoder-1: logits ``[T, N, C]``, mask ``[T, N]``: ``[N, T, 1, 1]``."""
    logits, mask = call.inputs
    classes = _first_maximum(logits).T  # [N, T]
    active = np.cumprod(mask.T != 0, axis=1).astype(bool)  # up to the first zero
    out, _ = _decoded(classes, active, logits.shape[2] - 1, bool(call.attribute("ctc_merge_repeated")))
    return as_output(call, out[:, :, None, None])


def ctc_greedy_decoder_seq_len(call: KernelCall) -> list[np.ndarray]:
    """CTCGreedyDecoderSeqLen-6: logits ``[N, T, C]``, lengths ``[N]``: ``[N, T]`` and ``[N]``."""
    logits, lengths = call.inputs[:2]
    steps = logits.shape[1]
    lengths = lengths.astype(np.int64)
    if np.any((lengths < 0) | (lengths > steps)):
        raise KernelError(f"a sequence length is outside [0, {steps}]")
    blank = int(call.inputs[2].reshape(-1)[0]) if len(call.inputs) > 2 else logits.shape[2] - 1
    classes = _first_maximum(logits)
    active = np.arange(steps)[None, :] < lengths[:, None]
    out, counts = _decoded(classes, active, blank, bool(call.attribute("merge_repeated")))
    return [as_output(call, out, 0), as_output(call, counts, 1)]


def _target(labels: np.ndarray, unique: bool, collapse: bool) -> np.ndarray:
    """The labels the loss aligns: distinct ones in order (``unique``), runs collapsed, or all."""
    if unique:
        _, first = np.unique(labels, return_index=True)
        distinct: np.ndarray = labels[np.sort(first)]
        return distinct
    if collapse and labels.size:
        starts = np.concatenate([[True], labels[1:] != labels[:-1]])
        collapsed: np.ndarray = labels[starts]
        return collapsed
    return labels


def _sum_logs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``log(exp(a) + exp(b))`` in f32 as the plugin's ``sumLogs``: -inf is no term, and two
    infinities give NaN (``inf + log1p(exp(inf - inf))``), where numpy's logaddexp gives inf."""
    with np.errstate(invalid="ignore", over="ignore"):
        high, low = np.where(a > b, a, b), np.where(a > b, b, a)
        summed = high + np.log1p(np.exp(low - high))
    result: np.ndarray = np.where(a == -np.inf, b, np.where(b == -np.inf, a, summed)).astype(np.float32)
    return result


def _plugin_log_softmax(logits: np.ndarray) -> np.ndarray:
    """``logits [N, T, C]`` minus the log of their summed exponentials, as the plugin computes
    them: each exponential in f32 (over 88.7 it is inf, under -103.9 it is 0), summed in f64,
    the difference stored in f32."""
    values = logits.astype(np.float32)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        sums = np.exp(values).astype(np.float64).sum(axis=-1, keepdims=True)
        log_probs: np.ndarray = (values.astype(np.float64) - np.log(sums)).astype(np.float32)
    return log_probs


def _negative_log_likelihood(log_probs: np.ndarray, target: np.ndarray, blank: int, merge: bool) -> float:
    """``-log`` of the summed probability of the alignments of ``log_probs [T, C]`` to
    ``target``: the plugin's backward recursion over the target interleaved with blanks
    (``nodes/ctc_loss.cpp``), in f32, each step over the states it can reach and finish from."""
    steps, states = log_probs.shape[0], 2 * target.size + 1
    if steps == 0 or target.size == 0:  # the plugin crashes there: the op's answer
        return 0.0 if target.size == 0 else float("inf")
    extended = np.full(states, blank, dtype=np.int64)
    extended[1::2] = target
    # A state's role is its value's, as the CPU plugin decides it: a label equal to the blank
    # index stays and cannot be skipped from, as the blanks between labels.
    is_label = extended != blank
    stays = ~is_label | merge  # a label spans several steps only when merging
    skips = np.zeros(states, dtype=bool)  # to the label two states on, past a blank
    skips[:-2] = is_label[:-2]
    if merge:
        skips[:-2] &= extended[:-2] != extended[2:]
    minus_inf = np.float32(-np.inf)
    beta = np.full(states, minus_inf)
    beta[-2:] = 0.0
    index = np.arange(states)
    with np.errstate(invalid="ignore"):
        for step in range(steps - 2, -1, -1):
            following = beta + log_probs[step + 1, extended]  # from each state at step + 1
            after = np.concatenate([following, [minus_inf, minus_inf]])
            term = np.full(states, minus_inf)
            term = np.where(stays, _sum_logs(term, following), term)
            term = np.where(index + 1 < states, _sum_logs(term, after[1 : states + 1]), term)
            term = np.where(skips, _sum_logs(term, after[2 : states + 2]), term)
            reachable = (index >= states - 2 * (steps - step)) & (index < 2 * (step + 1))
            beta = np.where(reachable, term, minus_inf)
        first = beta[0] + log_probs[0, extended[0]]
        second = beta[1] + log_probs[0, extended[1]]
    return float(-_sum_logs(np.array(first), np.array(second)))


def ctc_loss(call: KernelCall) -> np.ndarray:
    """CTCLoss-4: logits ``[N, T, C]``, logit lengths ``[N]``, labels ``[N, T]``, label lengths
    ``[N]``, blank index (the last class by default): ``[N]``."""
    logits, logit_lengths, labels, label_lengths = call.inputs[:4]
    batch, steps, classes = logits.shape
    blank = int(call.inputs[4].reshape(-1)[0]) if len(call.inputs) > 4 else classes - 1
    logit_lengths, label_lengths = logit_lengths.astype(np.int64), label_lengths.astype(np.int64)
    if np.any(
        (logit_lengths < 0) | (logit_lengths > steps) | (label_lengths < 0) | (label_lengths > logit_lengths)
    ):
        raise KernelError("a logit length is outside [0, T] or a label length past its logit length")
    log_probs = _plugin_log_softmax(logits)
    unique, collapse = bool(call.attribute("unique")), bool(call.attribute("preprocess_collapse_repeated"))
    merge = bool(call.attribute("ctc_merge_repeated"))
    losses = np.empty(batch)
    for b in range(batch):
        target = _target(labels[b, : label_lengths[b]].astype(np.int64), unique, collapse)
        losses[b] = _negative_log_likelihood(log_probs[b, : logit_lengths[b]], target, blank, merge)
    return as_output(call, losses)
