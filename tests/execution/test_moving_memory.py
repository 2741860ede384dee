"""The layout and rearrange kernels allocate no more than the executor's estimate of them
(``working_bytes``: a kernel's own estimate, else twice its outputs and one copy of its
inputs), measured with tracemalloc (numpy reports its allocations to it) on one layer of each
op, of about a megabyte."""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset13 as opset
import openvino.opset15 as opset15
import pytest
from openvino.utils.node_factory import NodeFactory

import irshape.execute.network as network
from irshape.execute.network import execute
from irshape.ir.reader import read_file
from irshape.kernels import Kernel, KernelCall, working_bytes

from .harness import parameter
from .moving import ints


def _layers(x: ov.Node, bits: ov.Node, lengths: ov.Node, updates: ov.Node) -> list[ov.Node]:
    """One layer of each op on x [8, 32, 32, 32] f32 (1 MiB), bits [8, 32, 32, 32] i32."""
    factory = NodeFactory("opset1")
    return [
        opset.reshape(x, ints([0, -1]), True),
        opset.transpose(x, ints([3, 1, 2, 0])),
        opset.concat([x, x], 1),
        opset.variadic_split(x, ints(1), ints([8, -1])),
        opset.pad(x, ints([1, -2, 3, 0]), ints([0, 2, -1, 4]), "constant"),
        opset.pad(x, ints([1, -2, 3, 0]), ints([0, 2, -1, 4]), "reflect"),
        opset.roll(x, ints([3, -5]), ints([1, 3])),
        factory.create("Reverse", [x.output(0), ints([1, 3]).output(0)], {"mode": "index"}),
        opset.cumsum(x, ints(2), exclusive=True, reverse=True),
        opset.depth_to_space(x, "depth_first", 2),
        opset.space_to_depth(x, "blocks_first", 4),
        opset.shuffle_channels(x, 1, 4),
        opset.space_to_batch(x, ints([1, 2, 4, 2]), ints([0, 0, 1, 1]), ints([0, 0, 3, 1])),
        opset.batch_to_space(x, ints([1, 2, 1, 4]), ints([0, 1, 0, 2]), ints([0, 1, 0, 2])),
        opset.reverse_sequence(bits, lengths, 0, 2),
        opset.extract_image_patches(x, [3, 3], [1, 1], [1, 1], "same_upper"),
        opset15.col2im(
            opset.reshape(x, ints([8, 32 * 4, 256]), False),
            ints([17, 17]),
            ints([2, 2]),
            [1, 1],
            [1, 1],
            [0, 0],
            [0, 0],
        ),
        opset15.slice_scatter(x, updates, ints([1]), ints([-1]), ints([2]), ints([2])),
    ]


@pytest.fixture(scope="module")
def calls(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Kernel, KernelCall, int]]:
    """Each layer's kernel, its call and the executor's estimate, as the executor made them."""
    x, bits, lengths = (
        parameter([8, 32, 32, 32]),
        parameter([8, 32, 32, 32], np.int32),
        parameter([8], np.int32),
    )
    updates = parameter([8, 32, 15, 32])
    outputs = [
        node.output(i) for node in _layers(x, bits, lengths, updates) for i in range(node.get_output_size())
    ]
    model = ov.Model(outputs, [x, bits, lengths, updates])
    path = Path(tmp_path_factory.mktemp("memory")) / "memory.xml"
    ov.save_model(model, path, compress_to_fp16=False)
    document = read_file(path).document
    assert document is not None
    rng = np.random.default_rng(0)
    inputs = {
        x.get_friendly_name(): rng.standard_normal((8, 32, 32, 32)).astype(np.float32),
        bits.get_friendly_name(): rng.integers(-(2**31), 2**31 - 1, (8, 32, 32, 32), dtype=np.int32),
        lengths.get_friendly_name(): rng.integers(0, 33, 8, dtype=np.int32),
        updates.get_friendly_name(): rng.standard_normal((8, 32, 15, 32)).astype(np.float32),
    }
    seen: list[tuple[Kernel, KernelCall, int]] = []

    def recording(kernel: Kernel, call: KernelCall) -> int:
        estimate = working_bytes(kernel, call)
        if call.schema.family in ("layout", "rearrange") or call.schema.op == "SliceScatter":
            seen.append((kernel, call, estimate))
        return estimate

    original = network.working_bytes
    network.working_bytes = recording
    try:
        execute(document, inputs)
    finally:
        network.working_bytes = original
    return seen


def test_every_op_measured(calls: list[tuple[Kernel, KernelCall, int]]) -> None:
    assert {call.schema.op for _, call, _ in calls} >= {
        "Reshape", "Transpose", "Concat", "VariadicSplit", "Pad", "Roll", "Reverse", "CumSum",
        "DepthToSpace", "SpaceToDepth", "ShuffleChannels", "SpaceToBatch", "BatchToSpace",
        "ReverseSequence", "ExtractImagePatches", "Col2Im", "SliceScatter",
    }  # fmt: skip


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
