"""StringTensorUnpack-15 and StringTensorPack-15's kernels against OpenVINO's CPU plugin: ASCII,
multi-byte UTF-8 and empty strings in tensors of rank 0 to 3 unpacked, and begins/ends over a
byte buffer (repeated, overlapping, empty spans, bytes that are not UTF-8; i32 and i64) packed
and unpacked again (the harness compares numeric outputs), batched into one model."""

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


# bytes that are not UTF-8, and spans cutting a character (found by the kernel fuzzer): the
# plugin's strings keep the bytes, so unpacking gives them back (irshape decoded them to U+FFFD,
# three bytes each)
RAW = b"a\x80b\xc3\xff\x00" + "é語🙂".encode()
RAW_SPANS = [
    (0, 2),
    (1, 2),
    (3, 4),
    (4, 5),
    (2, 6),
    (6, 7),
    (7, 8),
    (6, 9),
    (9, 15),
    (8, 12),
    (0, 15),
    (5, 5),
]


def _raw_case(index_type: type) -> Case:
    spans = np.array(RAW_SPANS, index_type)
    nodes = [parameter((len(spans),), index_type), parameter((len(spans),), index_type)]
    nodes.append(parameter((len(RAW),), np.uint8))
    values = [spans[:, 0].copy(), spans[:, 1].copy(), np.frombuffer(RAW, dtype=np.uint8).copy()]
    outputs = list(ov15.string_tensor_unpack(ov15.string_tensor_pack(*nodes)).outputs())
    return Case(f"pack_raw_{np.dtype(index_type).name}", dict(zip(nodes, values, strict=True)), outputs)


RNG = np.random.default_rng(15)
CASES = [_unpack_case(RNG, i) for i in range(30)] + [_pack_case(RNG, i) for i in range(30)]
CASES += [_raw_case(np.int32), _raw_case(np.int64)]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("strings"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_strings(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total


def test_compare_keeps_bytes_that_are_not_utf8(tmp_path):
    """``irshape compare`` reads OpenVINO's packed strings as irshape holds them, a byte that is
    not UTF-8 kept (surrogateescape) on both sides: they agree (OpenVINO's ``str_data`` gave
    U+FFFD, and the strings differed). Not a string ending in NUL: OpenVINO's Python API gives
    its strings as numpy's fixed-width ones, which drop trailing NULs."""
    from irshape.execute.compare import compare_document
    from irshape.ir.reader import read_file

    nodes = [parameter((3,), np.int32), parameter((3,), np.int32), parameter((len(RAW),), np.uint8)]
    for node, name in zip(nodes, ("begins", "ends", "symbols"), strict=True):
        node.set_friendly_name(name)
        node.output(0).set_names({name})
    model = ov.Model([ov15.string_tensor_pack(*nodes).output(0)], nodes, "raw")
    ov.save_model(model, tmp_path / "raw.xml")
    document = read_file(tmp_path / "raw.xml").document
    assert document is not None
    feeds = {
        "begins": np.array([0, 1, 3], np.int32),
        "ends": np.array([2, 4, 5], np.int32),
        "symbols": np.frombuffer(RAW, dtype=np.uint8).copy(),
    }
    (packed,) = compare_document(document, feeds).outputs
    assert packed.problem is None, packed.problem
