"""Sequence lengths of RNNSequence-5, GRUSequence-5 and LSTMSequence-5 as the CPU plugin honours
them, through irshape's executor (issue 24; found by an ONNX LSTM/GRU with ``sequence_lens`` and
dynamic axes, where irshape masked the steps past each length and the plugin did not).

The plugin decomposes a sequence whose X is static in the model it compiles into a
TensorIterator that masks the steps past each batch's length; where X's shape is dynamic (any
dim) it keeps its oneDNN sequence node, which runs every step of every batch whatever the
lengths, but for a sequence that node does not take (a clip, an LSTM's or a GRU's activations
other than the defaults, W computed from data: ``RNN::isSupportedOperation``), which it
decomposes and masks whatever X's shape. Each model holds the three kinds in every direction on X of one shape (static
``[3,5,4]``, dynamic ``[?,?,4]``, interval ``[1..3,2..6,?]``), run at ``[3,5,4]`` with lengths
short of the steps, zero and past them; each output must equal the plugin's (f32).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset5 as ov5
import pytest

from irshape.execute.compare import compare_document, describe
from irshape.ir.reader import read_file

HIDDEN, FEATURES, BATCH, STEPS = 5, 4, 3, 5
SHAPES = {"static": "[3,5,4]", "dynamic": "[?,?,4]", "interval": "[1..3,2..6,?]"}
KINDS = {"rnn": 1, "gru": 3, "lstm": 4}  # gates
DIRECTIONS = {"forward": 1, "reverse": 1, "bidirectional": 2}
# (a length past the steps only where X is dynamic: a static reverse sequence's ReverseSequence
# refuses it, in the plugin as in irshape, tests/execution/test_recurrent.py)
LENGTHS = {"short": [2, 5, 1], "zero": [0, 4, 3], "past": [0, 7, 3]}


def _model(shape: str, seed: int) -> ov.Model:
    """Every kind and direction on one X and one lengths Parameter; initial states broadcast to
    X's batch (as converters make them)."""
    rng = np.random.default_rng(seed)
    x = ov5.parameter(ov.PartialShape(shape), np.float32, name="x")
    lengths = ov5.parameter(ov.PartialShape([-1]), np.int32, name="lengths")
    batch = ov5.gather(ov5.shape_of(x), ov5.constant(np.array([0])), ov5.constant(0))
    outputs = []
    for (kind, gates), (direction, directions) in itertools.product(KINDS.items(), DIRECTIONS.items()):
        state_shape = ov5.concat([batch, ov5.constant(np.array([directions, HIDDEN]))], 0)
        state = ov5.broadcast(ov5.constant(np.float32(0.1)), state_shape)

        def weights(*dims: int) -> ov.Node:
            return ov5.constant((rng.standard_normal(dims) * 0.5).astype(np.float32))

        w, r = weights(directions, gates * HIDDEN, FEATURES), weights(directions, gates * HIDDEN, HIDDEN)
        b = weights(directions, gates * HIDDEN)
        if kind == "lstm":
            node = ov5.lstm_sequence(x, state, state, lengths, w, r, b, HIDDEN, direction)
        elif kind == "gru":
            node = ov5.gru_sequence(x, state, lengths, w, r, b, HIDDEN, direction)
        else:
            node = ov5.rnn_sequence(x, state, lengths, w, r, b, HIDDEN, direction)
        node.set_friendly_name(f"{kind}_{direction}")
        outputs += list(node.outputs())
    return ov.Model(outputs, [x, lengths])


@pytest.mark.parametrize("shape", SHAPES, ids=list(SHAPES))
def test_sequence_lengths_are_the_plugins(tmp_path: Path, shape: str) -> None:
    xml = tmp_path / f"{shape}.xml"
    ov.save_model(_model(SHAPES[shape], seed=len(shape)), str(xml))
    document = read_file(xml).document
    assert document is not None
    rng = np.random.default_rng(3)
    compared = 0
    for name, lengths in LENGTHS.items():
        if name == "past" and shape == "static":
            continue
        inputs = {
            "x": rng.standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32),
            "lengths": np.array(lengths, np.int32),
        }
        comparison = compare_document(document, inputs)
        assert not comparison.not_run, (name, [f.message() for f in comparison.not_run[:3]])
        assert not comparison.divergent, (name, [describe(c) for c in comparison.divergent[:3]])
        compared += len(comparison.outputs)
    assert compared >= 2 * len(KINDS) * len(DIRECTIONS) * 2  # (Y and Ho of every sequence, twice)


def test_the_dynamic_sequences_ignore_the_lengths(tmp_path: Path) -> None:
    """What the cases above rest on: at the same inputs the plugin's Y of a dynamic forward LSTM
    is not zero past a length (it is for a static one)."""
    core = ov.Core()
    inputs = {"x": np.ones((BATCH, STEPS, FEATURES), np.float32), "lengths": np.array([2, 5, 1], np.int32)}
    past = []
    for shape in ("static", "dynamic"):
        compiled = core.compile_model(
            _model(SHAPES[shape], seed=1), "CPU", {"INFERENCE_PRECISION_HINT": "f32"}
        )
        y = compiled(inputs)[compiled.outputs[-3]]  # the last sequence: LSTM bidirectional's Y
        past.append(bool(np.any(y[0, :, 2:] != 0)))  # batch 0 (length 2), steps 2..
    assert past == [False, True]


def _sequence(kind: str, x: ov.Node, lengths: ov.Node, w: ov.Node, seed: int, **options: object) -> ov.Node:
    """One forward sequence of ``kind`` on X with initial states broadcast to its batch."""
    rng = np.random.default_rng(seed)
    gates = KINDS[kind]
    batch = ov5.gather(ov5.shape_of(x), ov5.constant(np.array([0])), ov5.constant(0))
    state = ov5.broadcast(
        ov5.constant(np.float32(0.1)), ov5.concat([batch, ov5.constant(np.array([1, HIDDEN]))], 0)
    )
    r = ov5.constant((rng.standard_normal((1, gates * HIDDEN, HIDDEN)) * 0.5).astype(np.float32))
    b = ov5.constant((rng.standard_normal((1, gates * HIDDEN)) * 0.5).astype(np.float32))
    if kind == "lstm":
        return ov5.lstm_sequence(x, state, state, lengths, w, r, b, HIDDEN, "forward", **options)
    if kind == "gru":
        return ov5.gru_sequence(x, state, lengths, w, r, b, HIDDEN, "forward", **options)
    return ov5.rnn_sequence(x, state, lengths, w, r, b, HIDDEN, "forward", **options)


def test_a_dynamic_sequence_the_plugins_node_does_not_take_honours_the_lengths(tmp_path: Path) -> None:
    """On a dynamic X the plugin masks the steps past each length of a sequence with a clip,
    an LSTM or a GRU with other activations, or W fed by a Parameter (its oneDNN node takes
    none of them); an RNN's relu or sigmoid the node takes, ignoring the lengths (irshape
    ignored them for all: 35 of 75 elements of Y wrong on each)."""
    rng = np.random.default_rng(5)
    x = ov5.parameter(ov.PartialShape([-1, -1, FEATURES]), np.float32, name="x")
    lengths = ov5.parameter(ov.PartialShape([-1]), np.int32, name="lengths")
    weights = {
        kind: (rng.standard_normal((1, gates * HIDDEN, FEATURES)) * 0.5).astype(np.float32)
        for kind, gates in KINDS.items()
    }
    w_inputs = {
        kind: ov5.parameter(list(w.shape), np.float32, name=f"w_{kind}")
        for kind, w in weights.items()
        if kind != "rnn"
    }
    sequences = [_sequence(kind, x, lengths, ov5.constant(weights[kind]), 1, clip=0.5) for kind in KINDS]
    sequences += [
        _sequence(
            "lstm", x, lengths, ov5.constant(weights["lstm"]), 2, activations=["sigmoid", "relu", "relu"]
        ),
        _sequence("gru", x, lengths, ov5.constant(weights["gru"]), 3, activations=["sigmoid", "relu"]),
        _sequence("rnn", x, lengths, ov5.constant(weights["rnn"]), 4, activations=["relu"]),
        _sequence("rnn", x, lengths, ov5.constant(weights["rnn"]), 5, activations=["sigmoid"]),
        *(_sequence(kind, x, lengths, w, 6) for kind, w in w_inputs.items()),
    ]
    model = ov.Model([node.output(0) for node in sequences], [x, lengths, *w_inputs.values()])
    xml = tmp_path / "not_taken.xml"
    ov.save_model(model, str(xml))
    document = read_file(xml).document
    assert document is not None
    inputs = {
        "x": rng.standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32),
        "lengths": np.array(LENGTHS["short"], np.int32),
        **{f"w_{kind}": weights[kind] for kind in w_inputs},
    }
    comparison = compare_document(document, inputs)
    assert not comparison.not_run, [f.message() for f in comparison.not_run[:3]]
    assert not comparison.divergent, [describe(c) for c in comparison.divergent[:3]]
    compared = [c for c in comparison.outputs if (c.layer.type or "").endswith("Sequence")]
    assert len(compared) == sum(len(node.outputs()) for node in sequences)  # (Y, Ho and Co of each)
