"""GroupedMatMul-17 is refused by irshape's executor because OpenVINO 2026.4 cannot run it: the
CPU plugin has no node for it and the op has no evaluate."""

from __future__ import annotations

import numpy as np
import openvino as ov
import pytest
from openvino.utils.node_factory import NodeFactory

from irshape.execute.network import ExecutionError, Outcome, execute
from irshape.ir.reader import read_file

from .harness import parameter


def test_grouped_matmul_is_refused_as_openvino_cannot_run_it(tmp_path):
    a, b = parameter((2, 3, 4)), parameter((2, 5, 4))
    node = NodeFactory("opset17").create("GroupedMatMul", [a.output(0), b.output(0)], {})
    model = ov.Model([node], [a, b])
    with pytest.raises(RuntimeError, match="Unsupported operation"):
        ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    out = [ov.Tensor(ov.Type.f32, [2, 3, 5])]
    assert not node.evaluate(
        out, [ov.Tensor(np.ones((2, 3, 4), np.float32)), ov.Tensor(np.ones((2, 5, 4), np.float32))]
    )
    a.set_friendly_name("a")
    b.set_friendly_name("b")
    xml = tmp_path / "grouped.xml"
    ov.save_model(model, xml)
    document = read_file(xml).document
    assert document is not None
    with pytest.raises(ExecutionError) as refused:
        execute(document, {"a": np.ones((2, 3, 4), np.float32), "b": np.ones((2, 5, 4), np.float32)})
    assert refused.value.outcome.outcome == Outcome.UNSUPPORTED
