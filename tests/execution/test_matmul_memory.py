"""The matmul, recurrent, signal, BinaryConvolution and DeformableConvolution kernels allocate
no more than the executor's estimate of them (``working_bytes``: a kernel's own estimate, else
twice its outputs and one copy of its inputs), measured with tracemalloc (numpy reports its
allocations to it) on one layer of each op of about a megabyte or less."""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset1 as opset1
import openvino.opset8 as opset8
import openvino.opset14 as opset14
import openvino.opset15 as opset15
import openvino.opset16 as opset16
import pytest

import irshape.execute.network as network
from irshape.execute.network import execute
from irshape.ir.reader import read_file
from irshape.kernels import Kernel, KernelCall, working_bytes

from .harness import parameter
from .test_convolution import _u1_constant

_FAMILIES = ("matmul", "recurrent", "signal", "convolution")


def _const(rng: np.random.Generator, shape: tuple[int, ...]) -> ov.Node:
    return opset15.constant((rng.standard_normal(shape) * 0.3).astype(np.float32))


def _layers(rng: np.random.Generator) -> tuple[list[ov.Output], dict[ov.Node, np.ndarray]]:
    feeds: dict[ov.Node, np.ndarray] = {}

    def data(shape: tuple[int, ...], dtype: Any = np.float32) -> ov.Node:
        node = parameter(shape, dtype)
        if np.dtype(dtype).kind == "f":
            feeds[node] = rng.standard_normal(shape).astype(dtype)
        else:
            feeds[node] = rng.integers(-5, 5, shape).astype(dtype)
        return node

    nodes: list[ov.Node] = [
        opset15.matmul(data((256, 256)), data((256, 256)), False, True),
        opset15.matmul(data((128, 256), np.int32), data((256, 128), np.int32), False, False),
        opset15.einsum([data((8, 64, 64)), data((8, 64, 64))], "bij,bjk->bik"),
        opset15.einsum([data((64, 64)), data((64, 64)), data((64, 64))], "ab,bc,cd->ad"),
        opset14.inverse(data((4, 64, 64)), False),
        opset15.scaled_dot_product_attention(
            data((2, 4, 128, 32)), data((2, 4, 128, 32)), data((2, 4, 128, 32)), causal=True
        ),
    ]
    lengths = opset15.constant(np.full(4, 64, np.int32))
    x = data((4, 64, 32))
    nodes.append(
        opset15.lstm_sequence(
            x,
            data((4, 2, 64)),
            data((4, 2, 64)),
            lengths,
            _const(rng, (2, 256, 32)),
            _const(rng, (2, 256, 64)),
            _const(rng, (2, 256)),
            64,
            "bidirectional",
        )
    )
    nodes.append(
        opset15.gru_sequence(
            x,
            data((4, 1, 64)),
            lengths,
            _const(rng, (1, 192, 32)),
            _const(rng, (1, 192, 64)),
            _const(rng, (1, 256)),
            64,
            "reverse",
            linear_before_reset=True,
        )
    )
    nodes.append(
        opset15.rnn_sequence(
            x,
            data((4, 1, 64)),
            lengths,
            _const(rng, (1, 64, 32)),
            _const(rng, (1, 64, 64)),
            _const(rng, (1, 64)),
            64,
            "forward",
            ["tanh"],
            [],
            [],
        )
    )
    nodes.append(
        opset15.lstm_cell(
            data((64, 256)),
            data((64, 64)),
            data((64, 64)),
            _const(rng, (256, 256)),
            _const(rng, (256, 64)),
            _const(rng, (256,)),
            64,
        )
    )
    axes = opset15.constant(np.array([1], np.int64))
    nodes += [
        opset15.dft(data((64, 256, 2)), axes),
        opset15.idft(data((64, 256, 2)), axes, opset15.constant(np.array([200], np.int64))),
        opset15.rdft(data((64, 512)), axes),
        opset15.irdft(data((64, 129, 2)), axes),
        opset15.stft(
            data((4, 16000)),
            data((400,)),
            opset15.constant(np.int64(512)),
            opset15.constant(np.int64(128)),
            False,
        ),
        opset16.istft(
            data((4, 257, 60, 2)),
            data((400,)),
            opset15.constant(np.int64(512)),
            opset15.constant(np.int64(128)),
            True,
            False,
        ),
        opset8.deformable_convolution(
            data((1, 16, 32, 32)),
            data((1, 2 * 2 * 9, 32, 32)),
            _const(rng, (16, 8, 3, 3)),
            [1, 1],
            [1, 1],
            [1, 1],
            [1, 1],
            data((1, 2 * 9, 32, 32)),
            "explicit",
            2,
            2,
        ),
    ]
    bits = rng.integers(0, 2, (32, 32, 3, 3)).astype(np.uint8)
    nodes.append(
        opset1.binary_convolution(
            data((1, 32, 64, 64)), _u1_constant(bits), [1, 1], [1, 1], [1, 1], [1, 1], "xnor-popcount", 1.0
        )
    )
    outputs = [node.output(i) for node in nodes for i in range(node.get_output_size())]
    return outputs, feeds


@pytest.fixture(scope="module")
def calls(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Kernel, KernelCall, int]]:
    """Each layer's kernel, its call and the executor's estimate, as the executor made them."""
    outputs, feeds = _layers(np.random.default_rng(0))
    params = list(feeds)
    for i, param in enumerate(params):
        param.set_friendly_name(f"in{i}")
    path = Path(tmp_path_factory.mktemp("memory")) / "memory.xml"
    ov.save_model(ov.Model(outputs, params), path, compress_to_fp16=False)
    document = read_file(path).document
    assert document is not None
    seen: list[tuple[Kernel, KernelCall, int]] = []

    def recording(kernel: Kernel, call: KernelCall) -> int:
        estimate = working_bytes(kernel, call)
        if call.schema.family in _FAMILIES:
            seen.append((kernel, call, estimate))
        return estimate

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(network, "working_bytes", recording)
        execute(document, {f"in{i}": value for i, value in enumerate(feeds.values())})
    return seen


def test_every_op_measured(calls: list[tuple[Kernel, KernelCall, int]]) -> None:
    assert {call.schema.name for _, call, _ in calls} == {
        "MatMul-1",
        "Einsum-7",
        "Inverse-14",
        "ScaledDotProductAttention-13",
        "LSTMSequence-5",
        "GRUSequence-5",
        "RNNSequence-5",
        "LSTMCell-4",
        "DFT-7",
        "IDFT-7",
        "RDFT-9",
        "IRDFT-9",
        "STFT-15",
        "ISTFT-16",
        "DeformableConvolution-8",
        "BinaryConvolution-1",
    }


def test_kernels_stay_within_their_estimates(calls: list[tuple[Kernel, KernelCall, int]]) -> None:
    over: list[Any] = []
    for kernel, call, estimate in calls:
        tracemalloc.start()
        try:
            result = kernel(call)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        del result
        if peak > estimate:
            over.append((call.schema.name, peak, estimate))
    assert not over, over
