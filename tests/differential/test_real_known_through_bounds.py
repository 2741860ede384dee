"""A real value known exactly through its bounds, read by an op without bound evaluators, as
OpenVINO folds it (issue 24, item 1; seed 3's rc00728 of ``test_real_chains.py``).

Floor, Ceiling, Round and Sqrt have no ``evaluate_lower``/``evaluate_upper``: ``Node``'s
default evaluates the op on its input's bounds where they are equal (``has_and_set_bound``).
A scatter that overwrites every element of a tensor whose bounds are an interval, or past the
type's range (an unbounded dim times 3e38: an upper bound of inf), makes them equal, so the op
folds and the Broadcast below it is static. Before infinite bounds were carried, irshape lost
the overflowing tensor's bounds and gave ``?`` there.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset5 as ov5
import openvino.opset8 as ov8
from click.testing import CliRunner

from irshape.cli import main

_NUMPY = {"f16": np.float16, "f32": np.float32}
_OPS = {
    "Floor": ov1.floor,
    "Ceiling": ov1.ceiling,
    "Round": lambda x: ov5.round(x, "half_to_even"),
    "Sqrt": ov1.sqrt,
}


def _i(values: list[int]) -> ov.Node:
    return ov1.constant(np.array(values, dtype=np.int64))


def _target(data: ov.Node, real: str, scale: float, op: str, name: str) -> ov.Node:
    dims = ov1.convert(ov8.gather(ov3.shape_of(data, "i64"), _i([2, 3]), ov1.constant(np.int64(0))), real)
    scaled = ov1.multiply(dims, ov1.constant(np.array([scale], dtype=_NUMPY[real])))
    updates = ov1.constant(np.array([6.5, 2.25], dtype=_NUMPY[real]))
    known = ov3.scatter_elements_update(scaled, _i([1, 0]), updates, ov1.constant(np.int64(0)))
    target = ov1.convert(_OPS[op](known), "i64")
    node = ov3.broadcast(ov1.constant(np.float32(1.0)), ov1.concat([_i([1]), target], 0))
    node.set_friendly_name(name)
    return node


def test_value_known_through_bounds_folds_as_openvinos(tmp_path: Path) -> None:
    data = ov1.parameter(ov.PartialShape("[1,3,2..9,?]"), np.float32)
    nodes = [
        _target(data, real, scale, op, f"{op}_{real}_{int(scale > 1e4)}")
        for op in _OPS
        for real in ("f32", "f16")
        for scale in ([3.0, 3.0e38] if real == "f32" else [3.0, 6.0e4])
    ]
    xml = tmp_path / "known.xml"
    ov.save_model(ov.Model(nodes, [data], "known"), str(xml), compress_to_fp16=False)
    model = ov.Core().read_model(str(xml))
    expected = {op.get_friendly_name(): str(op.get_output_partial_shape(0)) for op in model.get_ops()}
    outcome = CliRunner().invoke(main, ["infer", str(xml)])
    assert outcome.exit_code == 0, outcome.stdout
    lines = {line.split("'")[1]: line for line in outcome.stdout.splitlines() if "'" in line}
    for node in nodes:
        name = node.get_friendly_name()
        ours = lines[name].split("(Broadcast): ", 1)[1].split(" ")[2]
        assert ours == expected[name], (name, ours, expected[name])
    # what OpenVINO folds (a check on the expectation: every target static)
    assert expected["Ceiling_f32_1"] == "[1,3,7]" and expected["Sqrt_f16_0"] == "[1,1,2]", expected
