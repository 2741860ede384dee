"""StringTensorUnpack-15 and StringTensorPack-15's kernels against OpenVINO's CPU plugin: ASCII,
multi-byte UTF-8 and empty strings in tensors of rank 0 to 3 unpacked, and begins/ends over a
byte buffer (repeated, overlapping, empty spans; i32 and i64) packed and unpacked again (the
harness compares numeric outputs), batched into one model."""

from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset15 as ov15
import pytest

from .harness import Case, parameter, run_batch

WORDS = ["", "a", "hello", "naïve", "日本語", "🙂 ok", "tab\tand space", "x" * 17]
SHAPES = [(), (1,), (4,), (2, 3), (2, 1, 2)]


def _unpack_case(rng: np.random.Generator, index: int) -> Case:
    dims = SHAPES[index % len(SHAPES)]
    data = (
        np.array(rng.choice(WORDS, size=dims), dtype=object) if dims else np.array(WORDS[index % len(WORDS)])
    )
    node = ov15.parameter(list(dims), ov.Type.string)
    return Case(f"unpack{index}", {node: data.astype(str)}, list(ov15.string_tensor_unpack(node).outputs()))


def _pack_case(rng: np.random.Generator, index: int) -> Case:
    dims = SHAPES[index % len(SHAPES)]
    index_type = (np.int32, np.int64)[index % 2]
    text = "".join(rng.choice(WORDS[1:], size=4)).encode("utf-8")
    # spans on whole UTF-8 characters: cut at the words' boundaries
    cuts = np.unique(np.concatenate([[0, len(text)], rng.integers(0, len(text) + 1, 6)]))
    safe = [c for c in cuts if c == len(text) or (text[c] & 0xC0) != 0x80]
    begins = rng.choice(safe, size=dims)
    ends = np.maximum(begins, rng.choice(safe, size=dims))
    nodes = [parameter(dims, index_type), parameter(dims, index_type), parameter((len(text),), np.uint8)]
    values = [
        np.array(begins, index_type),
        np.array(ends, index_type),
        np.frombuffer(text, dtype=np.uint8).copy(),
    ]
    # the harness compares numbers, not strings: the packed strings are unpacked again
    packed = ov15.string_tensor_pack(*nodes)
    outputs = list(ov15.string_tensor_unpack(packed).outputs())
    return Case(f"pack{index}", dict(zip(nodes, values, strict=True)), outputs)


RNG = np.random.default_rng(15)
CASES = [_unpack_case(RNG, i) for i in range(30)] + [_pack_case(RNG, i) for i in range(30)]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("strings"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_strings(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total
