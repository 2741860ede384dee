"""The working-memory estimates of the normalization, reduction and pooling kernels are upper
bounds: each kernel's peak allocation (numpy reports its buffers to tracemalloc) measured while
it runs in the executor stays within what it declared before running."""

from __future__ import annotations

import functools
import tracemalloc
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as opset1
import openvino.opset8 as opset8
import openvino.opset14 as opset14

import irshape.execute.network as network
from irshape.ir.reader import read_file

from .harness import parameter


def _model(path: Path) -> tuple[Path, np.ndarray]:
    shape = (2, 8, 24, 24)
    x = parameter(shape)
    x.set_friendly_name("x")
    axes = opset1.constant(np.array([2, 3], np.int64))
    limits = [opset1.constant(np.float32(v)) for v in (-1, 1, -2, 2)]
    nodes = [
        opset8.softmax(x, 1),
        opset14.mvn(x, axes, True, 1e-5, "inside_sqrt"),
        opset1.normalize_l2(x, axes, 1e-6, "add"),
        opset1.lrn(x, opset1.constant(np.array([1], np.int64)), 1e-4, 0.75, 1.0, 5),
        opset1.fake_quantize(x, *limits, 255),
        opset8.reduce_l2(x, axes, True),
        opset1.reduce_max(x, axes, False),
        opset8.max_pool(x, [2, 2], [1, 1], [1, 1], [1, 1], [3, 3], "ceil"),
        opset14.avg_pool(x, [1, 1], [1, 1], [1, 1], [3, 3], True),
        opset8.adaptive_max_pool(x, opset1.constant(np.array([5, 7], np.int64)), "i32"),
    ]
    results = [opset1.result(output) for node in nodes for output in node.outputs()]
    xml = path / "memory.xml"
    ov.save_model(ov.Model(results, [x]), xml, compress_to_fp16=False)
    return xml, np.random.default_rng(0).standard_normal(shape).astype(np.float32)


def test_estimates_bound_the_peaks(tmp_path, monkeypatch):
    xml, data = _model(tmp_path)
    measured: list[tuple[str, int, int]] = []
    real_kernel_of, real_working_bytes = network.kernel_of, network.working_bytes

    def measuring_kernel_of(schema):
        kernel = real_kernel_of(schema)

        @functools.wraps(kernel)
        def measured_kernel(call):
            estimate = real_working_bytes(kernel, call)
            tracemalloc.start()
            try:
                result = kernel(call)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            measured.append((schema.name, peak, estimate))
            return result

        return measured_kernel

    monkeypatch.setattr(network, "kernel_of", measuring_kernel_of)
    monkeypatch.setattr(
        network, "working_bytes", lambda kernel, call: real_working_bytes(kernel.__wrapped__, call)
    )
    document = read_file(xml).document
    assert document is not None
    network.execute(document, {"x": data})
    assert len(measured) == 10
    over = [(name, peak, estimate) for name, peak, estimate in measured if peak > estimate]
    assert not over, over
