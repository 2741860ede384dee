"""LSTMSequence-5, GRUSequence-5, RNNSequence-5, LSTMCell-1, LSTMCell-4, GRUCell-3 and RNNCell-1 against
OpenVINO through the shared harness: every direction, linear_before_reset, static, dynamic,
interval and dynamic-rank inputs (the batch and hidden size merged across inputs, the hidden
size from the weights when no state has it), f32 and f16; LSTMCell-1 with and without B, every
weights_format and input_forget, and its peepholes P (which ``ov.save_model`` never writes: added
to the saved file by hand). Shapes that OpenVINO rejects are
errors on the layer; a declared dim off by one is an error."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset1 as ov1
import openvino.opset3 as ov3
import openvino.opset4 as ov4
import openvino.opset5 as ov5
import pytest
from lxml import etree
from openvino.utils.node_factory import NodeFactory

import irshape

from .conftest import STATS
from .ops_harness import (
    OpCase,
    OpsBatchRunner,
    apply_mutant,
    batches,
    buildable,
    dim_mutant,
    errors_on,
    input_dims,
    is_static,
    openvino_reads,
    params,
    reshape_input,
    save_batch,
)

SEED = 20261126
PER_OP = 120
GATES = {
    "LSTMSequence-5": 4,
    "GRUSequence-5": 3,
    "RNNSequence-5": 1,
    "LSTMCell-1": 4,
    "LSTMCell-4": 4,
    "GRUCell-3": 3,
    "RNNCell-1": 1,
}


def _blur(rng: random.Random, dims: list[int]) -> ov.PartialShape:
    """Some inputs keep their static dims, others get ?, intervals around them, or no rank."""
    style = rng.choice(["static", "static", "dynamic", "interval", "rank"])
    if style == "rank":
        return ov.PartialShape.dynamic()
    out = []
    for d in dims:
        roll = rng.random()
        if style == "dynamic" and roll < 0.5:
            out.append(ov.Dimension())
        elif style == "interval" and roll < 0.6:
            out.append(ov.Dimension(max(0, d - rng.randint(0, 2)), d + rng.randint(0, 3)))
        else:
            out.append(ov.Dimension(d))
    return ov.PartialShape(out)


def _case(rng: random.Random, op: str) -> Callable[[], ov.Node]:
    gates = GATES[op]
    batch, seq, size, hidden = rng.randint(1, 4), rng.randint(1, 7), rng.randint(1, 6), rng.randint(1, 5)
    lbr = op.startswith("GRU") and rng.random() < 0.4
    dtype = rng.choice([np.float32, np.float32, np.float16])
    bias = (gates + 1 if lbr else gates) * hidden
    if "Sequence" in op:
        direction = rng.choice(["forward", "reverse", "bidirectional"])
        nd = 2 if direction == "bidirectional" else 1
        shapes = [[batch, seq, size], [batch, nd, hidden]] + ([[batch, nd, hidden]] if gates == 4 else [])
        shapes += [[batch], [nd, gates * hidden, size], [nd, gates * hidden, hidden], [nd, bias]]
    else:
        shapes = [[batch, size], [batch, hidden]] + ([[batch, hidden]] if gates == 4 else [])
        shapes += [[gates * hidden, size], [gates * hidden, hidden], [bias]]
    blurred = [_blur(rng, s) for s in shapes]
    if op == "LSTMCell-1" and rng.random() < 0.3:
        blurred.pop()  # no B: OpenVINO's zeros of 4 x hidden_size
    v0_attributes = {
        "hidden_size": hidden,
        "weights_format": rng.choice(["fico", "icof", "ifco", "ifoc", "iofc"]),
        "input_forget": rng.random() < 0.5,
        "activations": ["sigmoid", "tanh", "tanh"],
        "activations_alpha": [],
        "activations_beta": [],
        "clip": rng.choice([0.0, 3.0]),
    }

    def build() -> ov.Node:
        seq_index = 1 + (2 if gates == 4 else 1) if "Sequence" in op else -1
        ins = [ov1.parameter(s, np.int32 if i == seq_index else dtype) for i, s in enumerate(blurred)]
        if op == "LSTMSequence-5":
            return ov5.lstm_sequence(*ins, hidden, direction)
        if op == "GRUSequence-5":
            return ov5.gru_sequence(*ins, hidden, direction, linear_before_reset=lbr)
        if op == "RNNSequence-5":
            return ov5.rnn_sequence(*ins, hidden, direction)
        if op == "LSTMCell-1":
            return NodeFactory("opset1").create("LSTMCell", [i.output(0) for i in ins], v0_attributes)
        if op == "LSTMCell-4":
            return ov4.lstm_cell(*ins, hidden)
        if op == "GRUCell-3":
            return ov3.gru_cell(*ins, hidden, linear_before_reset=lbr)
        return ov3.rnn_cell(*ins, hidden, ["tanh"], [], [])

    return build


def _cases() -> list[OpCase]:
    rng = random.Random(SEED)
    cases: list[OpCase] = []
    for op in GATES:
        made = 0
        while made < PER_OP:
            case = OpCase(f"rn{len(cases):05d}", op, _case(rng, op))
            if buildable(case):
                cases.append(case)
                made += 1
    return cases


CASES = _cases()
BATCHES = batches(CASES, 40)
STATS["recurrent cases (tests/differential/test_recurrent.py)"] = len(CASES)


@pytest.mark.parametrize(("index", "case"), params(BATCHES))
def test_recurrent_ops_match_openvino(ops_runner: OpsBatchRunner, index: int, case: OpCase) -> None:
    outcome = ops_runner.ops_batch(f"recurrent{index}", BATCHES[index]).outcome(case.cid)
    assert outcome.mismatch() is None, outcome.explain()


@pytest.mark.parametrize("index", range(len(BATCHES)))
def test_a_declared_dim_off_by_one_is_an_error(
    ops_runner: OpsBatchRunner, tmp_path: Path, index: int
) -> None:
    batch = ops_runner.ops_batch(f"recurrent{index}", BATCHES[index])
    case = next(c for c in BATCHES[index] if is_static(batch.expected[c.cid][0][0]))
    target = tmp_path / "dim.xml"
    assert dim_mutant(batch.xml, target, case.cid, axis=0)
    assert [d.code for d in errors_on(irshape.check_file(target), case.cid)] == ["IRS301"]


def _static_case(op: str) -> OpCase:
    """A case of ``op`` whose inputs are all static (the blur never fires)."""
    rng = random.Random(f"{SEED}-{op}")

    class Static(random.Random):
        def choice(self, seq):  # type: ignore[no-untyped-def,override]
            return "static" if "static" in seq else rng.choice(seq)

    return OpCase(f"static_{op.replace('-', '_')}", op, _case(Static(rng.random()), op))


def _grow_input(tree: object, name: str, index: int, axis: int) -> None:
    """Input ``index`` of the layer, and the Parameter feeding it, get axis ``axis`` + 1."""
    dims = input_dims(tree, name, index)
    dims[axis] += 1
    reshape_input(tree, name, index, dims)


MUTANTS = [
    ("LSTMSequence-5", 0, 0),  # X's batch
    ("LSTMSequence-5", 2, 2),  # C0's hidden size
    ("LSTMSequence-5", 4, 1),  # W's gate axis
    ("LSTMSequence-5", 6, 1),  # B's gate axis
    ("GRUSequence-5", 1, 1),  # H0's num_directions
    ("GRUSequence-5", 3, 1),  # W's gate axis
    ("RNNSequence-5", 2, 0),  # sequence_lengths' batch
    ("LSTMCell-1", 2, 1),  # C's hidden size
    ("LSTMCell-1", 4, 0),  # R's gate axis
    ("LSTMCell-4", 1, 0),  # H's batch
    ("LSTMCell-4", 3, 0),  # W's gate axis
    ("GRUCell-3", 4, 0),  # B's gate axis
    ("RNNCell-1", 3, 0),  # R's gate axis
]


@pytest.mark.parametrize(("op", "index", "axis"), MUTANTS)
def test_inputs_openvino_rejects_are_errors(tmp_path: Path, op: str, index: int, axis: int) -> None:
    case = _static_case(op)
    source = tmp_path / "static.xml"
    save_batch([case], source)
    assert openvino_reads(source) is None
    target = tmp_path / "mutant.xml"
    apply_mutant(source, target, lambda tree: _grow_input(tree, case.cid, index, axis))
    assert openvino_reads(target) is not None, f"OpenVINO rejects input {index} with axis {axis} grown"
    assert errors_on(irshape.check_file(target), case.cid), "irshape reports an error on the layer"


def _add_peepholes(tree: object, name: str, dims: list[str] | None) -> None:
    """Give the layer a P input (``dims`` None: a dynamic rank) from a new f32 Parameter."""
    root = tree.getroot()  # type: ignore[attr-defined]
    layer = root.find(f".//layer[@name='{name}']")
    ids = [int(e.get("id")) for e in root.iter("layer")]
    new_id = str(max(ids) + 1)
    shape = "..." if dims is None else ",".join(dims)
    parameter = etree.SubElement(
        root.find("layers"), "layer", id=new_id, name=f"{name}_P", type="Parameter", version="opset1"
    )
    etree.SubElement(parameter, "data", shape=shape, element_type="f32")
    port = etree.SubElement(etree.SubElement(parameter, "output"), "port", id="0", precision="FP32")
    in_port = etree.SubElement(layer.find("input"), "port", id="6", precision="FP32")
    for d in dims or []:
        etree.SubElement(port, "dim").text = d
        etree.SubElement(in_port, "dim").text = d
    etree.SubElement(
        root.find("edges"),
        "edge",
        **{"from-layer": new_id, "from-port": "0", "to-layer": layer.get("id"), "to-port": "6"},
    )


@pytest.mark.parametrize(
    "dims",
    [["12"], ["13"], ["11"], ["-1"], ["1..3"], ["20..30"], ["3", "4"], ["12", "2"], [], None],
    ids=str,
)
def test_lstm_cell_1_peepholes_as_openvino_reads_them(tmp_path: Path, dims: list[str] | None) -> None:
    """P's first dim must be 3 x hidden_size where both are static (hidden 4 here); its rank is
    not checked, but a scalar or dynamic-rank P fails reading its first dim."""
    case = OpCase(
        "peep",
        "LSTMCell-1",
        lambda: NodeFactory("opset1").create(
            "LSTMCell",
            [
                ov1.parameter(s, np.float32).output(0)
                for s in ([2, 3], [2, 4], [2, 4], [16, 3], [16, 4], [16])
            ],
            {
                "hidden_size": 4,
                "activations": ["sigmoid", "tanh", "tanh"],
                "activations_alpha": [],
                "activations_beta": [],
                "clip": 0.0,
                "input_forget": False,
                "weights_format": "fico",
            },
        ),
    )
    source = tmp_path / "plain.xml"
    save_batch([case], source)
    target = tmp_path / "peepholes.xml"
    apply_mutant(source, target, lambda tree: _add_peepholes(tree, case.cid, dims))
    rejected = openvino_reads(target) is not None
    assert bool(errors_on(irshape.check_file(target), case.cid)) == rejected
    assert rejected == (dims not in (["12"], ["-1"], ["1..3"], ["20..30"], ["12", "2"]))
