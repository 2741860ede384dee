"""Kernels of the CTC family (irshape/shapes/ctc.py): CTCGreedyDecoder-1 and
CTCGreedyDecoderSeqLen-6.

OpenVINO's reference semantics (``ctc_greedy_decoder.hpp``, ``ctc_greedy_decoder_seq_len.hpp``):
each step's class is the first maximum of its logits; a batch's steps stop at the first zero of
its sequence mask (CTCGreedyDecoder-1) or after its sequence length (SeqLen-6). A step's class
is written out, left-aligned, unless it is the blank (the last class for CTCGreedyDecoder-1;
``blank_index`` or the last class for SeqLen-6) or, with merging, equal to the step before's
class (blank or not). The rest of each row is -1; SeqLen-6's second output counts the classes
written. Confirmed against the CPU plugin by ``tests/execution/test_ctc.py``.
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


def ctc_greedy_decoder(call: KernelCall) -> np.ndarray:
    """CTCGreedyDecoder-1: logits ``[T, N, C]``, mask ``[T, N]``: ``[N, T, 1, 1]``."""
    logits, mask = call.inputs
    classes = np.argmax(logits, axis=2).T  # [N, T]
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
    classes = np.argmax(logits, axis=2)
    active = np.arange(steps)[None, :] < lengths[:, None]
    out, counts = _decoded(classes, active, blank, bool(call.attribute("merge_repeated")))
    return [as_output(call, out, 0), as_output(call, counts, 1)]
