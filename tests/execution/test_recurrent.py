"""The recurrent family's kernels (RNNCell-1, GRUCell-3, LSTMCell-1, LSTMCell-4, RNNSequence-5,
GRUSequence-5, LSTMSequence-5) against OpenVINO's CPU plugin: every direction, sequence lengths
short, full, zero and past the steps, activations, clip and linear_before_reset, f32 and f16,
batched into one model."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import openvino as ov
import openvino.opset13 as opset
import pytest
from lxml import etree
from openvino.utils.node_factory import NodeFactory

from irshape.execute.network import Outcome, execute
from irshape.ir.reader import read_file
from irshape.kernels import UnsupportedByOpenVINOError
from irshape.kernels.elementwise import fma_f32
from irshape.kernels.recurrent import _ACTIVATIONS, _EXACT_PRODUCTS, _Cell, _fma_product, _run_direction

from .harness import Case, parameter, run_batch

_GATES = {"rnn": 1, "gru": 3, "lstm": 4}
_ACTIVATION_SETS = {
    "rnn": [None, ["relu"], ["sigmoid"]],
    "gru": [None, ["tanh", "relu"], ["relu", "sigmoid"]],
    "lstm": [None, ["relu", "sigmoid", "relu"], ["sigmoid", "relu", "tanh"]],
}


def _weights(
    rng: np.random.Generator,
    shape: tuple[int, ...],
    dtype: Any,
    as_parameter: bool,
    feeds: dict[Any, np.ndarray],
) -> Any:
    values = (rng.standard_normal(shape) * 0.8).astype(dtype)
    if not as_parameter:
        return opset.constant(values)
    node = parameter(shape, dtype)
    feeds[node] = values
    return node


def _sequence_case(
    rng: np.random.Generator,
    name: str,
    kind: str,
    direction: str,
    lengths: list[int],
    *,
    steps: int,
    activations: list[str] | None,
    clip: float,
    linear_before_reset: bool,
    dtype: Any,
    weights_as_parameters: bool,
    length_type: Any,
    inputs: int = 3,
) -> Case:
    batch, hidden = len(lengths), 4
    directions = 2 if direction == "bidirectional" else 1
    gates = _GATES[kind]
    x = parameter((batch, steps, inputs), dtype)
    scale = 30.0 if len(lengths) == 2 else 1.0  # some layouts saturate every gate
    feeds: dict[Any, np.ndarray] = {x: (rng.standard_normal((batch, steps, inputs)) * scale).astype(dtype)}
    states = []
    for _ in range(2 if kind == "lstm" else 1):
        state = parameter((batch, directions, hidden), dtype)
        feeds[state] = rng.standard_normal((batch, directions, hidden)).astype(dtype)
        states.append(state)
    length_node = parameter((batch,), length_type)
    feeds[length_node] = np.array(lengths, length_type)
    w = _weights(rng, (directions, gates * hidden, inputs), dtype, weights_as_parameters, feeds)
    r = _weights(rng, (directions, gates * hidden, hidden), dtype, weights_as_parameters, feeds)
    b = _weights(
        rng, (directions, (gates + linear_before_reset) * hidden), dtype, weights_as_parameters, feeds
    )
    extra: dict[str, Any] = {"clip": clip}
    if kind == "rnn":
        node = opset.rnn_sequence(
            x, states[0], length_node, w, r, b, hidden, direction, activations or ["tanh"], [], [], clip
        )
    else:
        if activations:
            extra["activations"] = activations
        if kind == "gru":
            extra["linear_before_reset"] = linear_before_reset
            node = opset.gru_sequence(x, states[0], length_node, w, r, b, hidden, direction, **extra)
        else:
            node = opset.lstm_sequence(x, *states, length_node, w, r, b, hidden, direction, **extra)
    return Case(name, feeds, list(node.outputs()))


def sequence_cases() -> list[Case]:
    rng = np.random.default_rng(5)
    cases = []
    index = 0
    for kind in ("lstm", "gru", "rnn"):
        for direction in ("forward", "reverse", "bidirectional"):
            for variant in range(10):
                steps = 5 if variant < 6 else (1, 3, 8, 2)[variant - 6]
                lengths = [
                    [5, 5, 5],
                    [5, 3, 1],
                    [2, 5, 4, 5],
                    [0, 5, 3],
                    [1],
                    [4, 2],
                    [1, 1],
                    [3, 0, 2],
                    [8, 7, 1, 8, 5],
                    [2],
                ][variant]
                if direction == "forward" and variant == 4:
                    lengths = [7, 2]  # past the steps: the plugin's final states are zero
                activations = _ACTIVATION_SETS[kind][variant % 3] if variant >= 3 else None
                clip = (0.0, 0.4, 0.0, 0.0, 0.4, 0.0, 3.0, 0.0, 0.1, 0.0)[variant]
                linear_before_reset = kind == "gru" and variant % 2 == 1
                dtype = np.float16 if variant in (5, 9) else np.float32
                name = f"{kind}_seq{index}_{direction}_v{variant}"
                cases.append(
                    _sequence_case(
                        rng,
                        name,
                        kind,
                        direction,
                        lengths,
                        steps=steps,
                        activations=activations,
                        clip=clip,
                        linear_before_reset=linear_before_reset,
                        dtype=dtype,
                        weights_as_parameters=variant in (2, 7),
                        length_type=np.int64 if variant % 2 else np.int32,
                    )
                )
                index += 1
    return cases


def _cell_case(
    rng: np.random.Generator,
    name: str,
    kind: str,
    batch: int,
    *,
    activations: list[str] | None,
    clip: float,
    linear_before_reset: bool,
    dtype: Any,
    inputs: int = 5,
    weights_as_parameters: bool = False,
) -> Case:
    hidden, gates = 3, _GATES[kind]
    x = parameter((batch, inputs), dtype)
    feeds: dict[Any, np.ndarray] = {x: (rng.standard_normal((batch, inputs)) * 1.5).astype(dtype)}
    states = []
    for _ in range(2 if kind == "lstm" else 1):
        state = parameter((batch, hidden), dtype)
        feeds[state] = rng.standard_normal((batch, hidden)).astype(dtype)
        states.append(state)
    w = _weights(rng, (gates * hidden, inputs), dtype, False, feeds)
    r = _weights(rng, (gates * hidden, hidden), dtype, batch == 2 or weights_as_parameters, feeds)
    b = _weights(rng, ((gates + linear_before_reset) * hidden,), dtype, False, feeds)
    if kind == "rnn":
        node = opset.rnn_cell(x, states[0], w, r, b, hidden, activations or ["tanh"], [], [], clip)
    else:
        extra: dict[str, Any] = {"clip": clip}
        if activations:
            extra["activations"] = activations
        if kind == "gru":
            node = opset.gru_cell(
                x, states[0], w, r, b, hidden, linear_before_reset=linear_before_reset, **extra
            )
        else:
            node = opset.lstm_cell(x, *states, w, r, b, hidden, **extra)
    return Case(name, feeds, list(node.outputs()))


def cell_cases() -> list[Case]:
    rng = np.random.default_rng(6)
    cases = []
    for kind in ("lstm", "gru", "rnn"):
        for variant in range(30):
            activations = _ACTIVATION_SETS[kind][variant % 3]
            clip = (0.0, 0.5, 2.0)[variant % 4 % 3]
            linear_before_reset = kind == "gru" and variant % 2 == 0
            dtype = np.float16 if variant % 6 == 5 else np.float32
            batch = (1, 2, 4)[variant % 3]
            name = f"{kind}_cell{variant}"
            cases.append(
                _cell_case(
                    rng,
                    name,
                    kind,
                    batch,
                    activations=activations,
                    clip=clip,
                    linear_before_reset=linear_before_reset,
                    dtype=dtype,
                )
            )
    return cases


_WEIGHTS_FORMATS = ["fico", "icof", "ifco", "ifoc", "iofc"]


def _lstm_cell_v0_case(rng: np.random.Generator, variant: int) -> Case:
    """LSTMCell-1 through the node factory (opset1's Python builder sets neither weights_format
    nor input_forget): with and without B, every weights_format, input_forget both ways."""
    batch, inputs, hidden = (1, 2, 3)[variant % 3], 4, (2, 3)[variant % 2]
    dtype = np.float16 if variant % 8 == 7 else np.float32
    scale = 20.0 if variant % 9 == 4 else 1.0  # saturated gates
    feeds: dict[Any, np.ndarray] = {}
    nodes = []
    shapes = [(batch, inputs), (batch, hidden), (batch, hidden), (4 * hidden, inputs), (4 * hidden, hidden)]
    if variant % 4 != 3:
        shapes.append((4 * hidden,))
    for index, shape in enumerate(shapes):
        node = parameter(shape, dtype)
        feeds[node] = (rng.standard_normal(shape) * (scale if index == 0 else 1.0)).astype(dtype)
        nodes.append(node)
    activations = _ACTIVATION_SETS["lstm"][variant % 3] or ["sigmoid", "tanh", "tanh"]
    attributes = {
        "hidden_size": hidden,
        "weights_format": _WEIGHTS_FORMATS[variant % 5],
        "input_forget": variant % 2 == 1,
        "activations": activations,
        "activations_alpha": [],
        "activations_beta": [],
        "clip": (0.0, 0.7, 3.0)[variant % 3 - 1 if variant % 7 else 0],
    }
    node = NodeFactory("opset1").create("LSTMCell", [n.output(0) for n in nodes], attributes)
    return Case(f"lstm_cell_v0_{variant}", feeds, list(node.outputs()))


def lstm_cell_v0_cases() -> list[Case]:
    rng = np.random.default_rng(7)
    return [_lstm_cell_v0_case(rng, variant) for variant in range(36)]


def exactness_cases() -> list[Case]:
    """Bit for bit against the plugin (f32), in the order irshape/kernels/recurrent.py's
    ``_Cell`` gives: on its oneDNN node (default activations, no clip, constant weights), an
    RNN's and LSTM's X and H products one chain where input_size equals hidden_size, and cells
    and sequences it decomposes (a clip, other activations, R computed from data). Each
    differed in the last bits before (numpy's tanh, a sigmoid of tanh, the bias added to X*W
    first, BLAS's sums)."""
    rng = np.random.default_rng(11)
    cases = []
    variants = [
        # (name, activations, clip, R from data, input_size of a cell, of a sequence)
        ("node", None, 0.0, False, 5, 3),
        ("merged", None, 0.0, False, 3, 4),
        ("clip", None, 2.0, False, 5, 3),
        ("activations", "other", 0.0, False, 5, 3),
        ("computed_r", None, 0.0, True, 5, 3),
    ]
    for kind, linear_before_reset in (("rnn", False), ("gru", False), ("gru", True), ("lstm", False)):
        prefix = f"exact_{kind}{'_lbr' if linear_before_reset else ''}"
        for variant, activations, clip, computed_r, cell_inputs, sequence_inputs in variants:
            other = _ACTIVATION_SETS[kind][2] if activations else None
            for batch in (3, 8):
                case = _cell_case(
                    rng,
                    f"{prefix}_cell_{variant}_b{batch}",
                    kind,
                    batch,
                    activations=other,
                    clip=clip,
                    linear_before_reset=linear_before_reset,
                    dtype=np.float32,
                    inputs=cell_inputs,
                    weights_as_parameters=computed_r,
                )
                cases.append(dataclasses.replace(case, exact=True))
            for direction in ("forward", "bidirectional"):
                case = _sequence_case(
                    rng,
                    f"{prefix}_seq_{variant}_{direction}",
                    kind,
                    direction,
                    [5, 5, 5],
                    steps=5,
                    activations=other,
                    clip=clip,
                    linear_before_reset=linear_before_reset,
                    dtype=np.float32,
                    weights_as_parameters=computed_r,
                    length_type=np.int32,
                    inputs=sequence_inputs,
                )
                cases.append(dataclasses.replace(case, exact=True))
    return cases


def long_sequence_cases() -> list[Case]:
    """Layers past the kernels' _EXACT_PRODUCTS (numpy's arithmetic: within tolerance)."""
    rng = np.random.default_rng(12)
    cases = []
    for kind in ("lstm", "gru"):
        assert _multiply_adds_of(kind, batch=3, steps=4000, inputs=32) > _EXACT_PRODUCTS
        case = _sequence_case(
            rng,
            f"long_{kind}_seq",
            kind,
            "forward",
            [4000, 4000, 4000],
            steps=4000,
            inputs=32,
            activations=None,
            clip=0.0,
            linear_before_reset=False,
            dtype=np.float32,
            weights_as_parameters=False,
            length_type=np.int32,
        )
        cases.append(case)
    return cases


def _multiply_adds_of(kind: str, *, batch: int, steps: int, inputs: int = 3, hidden: int = 4) -> int:
    return batch * steps * (inputs + hidden) * _GATES[kind] * hidden


CASES = sequence_cases() + cell_cases() + lstm_cell_v0_cases() + exactness_cases() + long_sequence_cases()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    return run_batch(CASES, tmp_path_factory.mktemp("recurrent"))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_recurrent(batch, case):
    assert batch.mismatch(case) is None, batch.mismatch(case)


def test_every_layer_ran(batch):
    assert batch.execution is not None and batch.execution.ran == batch.execution.total


def test_reverse_refuses_lengths_past_the_steps():
    # The CPU plugin fails such a layer at inference ("Incorrect input 'seq_lengths' values!",
    # its ReverseSequence), so the kernel refuses it too; forward directions accept them.
    cell = _Cell("rnn", (_ACTIVATIONS["tanh"],), 0.0, False)
    x, h = np.zeros((2, 3, 1), np.float32), np.zeros((2, 2), np.float32)
    weights = (np.ones((2, 1), np.float32), np.ones((2, 2), np.float32), np.zeros(2, np.float32))
    with pytest.raises(UnsupportedByOpenVINOError):
        _run_direction(cell, x, [h], np.array([4, 1]), weights, reverse=True)
    y, _ = _run_direction(cell, x, [h], np.array([4, 1]), weights, reverse=False)
    assert y.shape == (2, 3, 2)


def test_input_projection_counts_in_the_memory_estimate(tmp_path):
    # X [1, 500, 1] is 2 KB and Y [1, 1, 500, 8] 16 KB, but the projection X*W + B is
    # [1, 500, 32]: 64 KB (and a gate temporary as large)
    x, h, c = parameter((1, 500, 1)), parameter((1, 1, 8)), parameter((1, 1, 8))
    lengths = opset.constant(np.array([500], np.int32))
    w, r, b = (opset.constant(np.zeros(shape, np.float32)) for shape in ((1, 32, 1), (1, 32, 8), (1, 32)))
    node = opset.lstm_sequence(x, h, c, lengths, w, r, b, 8, "forward")
    for i, param in enumerate((x, h, c)):
        param.set_friendly_name(f"in{i}")
    xml = tmp_path / "lstm.xml"
    ov.save_model(ov.Model(list(node.outputs()), [x, h, c], "lstm"), xml, compress_to_fp16=False)
    document = read_file(xml).document
    assert document is not None
    inputs = {"in0": np.zeros((1, 500, 1), np.float32), "in1": np.zeros((1, 1, 8), np.float32)}
    inputs["in2"] = inputs["in1"]
    over = execute(document, inputs, max_memory=100_000, stop_at_failure=False)
    assert [f.outcome for f in over.failures] == [Outcome.OVER_MEMORY]
    assert not execute(document, inputs, max_memory=1_000_000, stop_at_failure=False).failures


def _add_peepholes(xml: Path, values_name: str) -> None:
    """Feed the LSTMCell-1 layer's P (port 6) from a new Parameter ``values_name`` [6]:
    ``ov.save_model`` never writes that edge."""
    tree = etree.parse(str(xml))
    root = tree.getroot()
    layer = root.find(".//layer[@type='LSTMCell']")
    new_id = str(max(int(e.get("id")) for e in root.iter("layer")) + 1)
    param = etree.SubElement(
        root.find("layers"), "layer", id=new_id, name=values_name, type="Parameter", version="opset1"
    )
    etree.SubElement(param, "data", shape="6", element_type="f32")
    out = etree.SubElement(
        etree.SubElement(param, "output"), "port", id="0", precision="FP32", names=values_name
    )
    etree.SubElement(out, "dim").text = "6"
    etree.SubElement(
        etree.SubElement(layer.find("input"), "port", id="6", precision="FP32"), "dim"
    ).text = "6"
    edge = {"from-layer": new_id, "from-port": "0", "to-layer": layer.get("id"), "to-port": "6"}
    etree.SubElement(root.find("edges"), "edge", **edge)
    tree.write(str(xml))


@pytest.mark.parametrize("weights_format", ["fico", "iofc"])
def test_lstm_cell_1_ignores_peepholes_as_the_plugin_does(tmp_path, weights_format):
    """Nonzero peepholes with input_forget: the CPU plugin's result is LSTMCell-4's on W, R, B
    (in f, i, c, o order), and irshape's is the same."""
    rng = np.random.default_rng(8)
    shapes = [(2, 3), (2, 2), (2, 2), (8, 3), (8, 2), (8,)]
    params = [parameter(shape) for shape in shapes]
    attributes = {
        "hidden_size": 2,
        "weights_format": weights_format,
        "input_forget": True,
        "activations": ["sigmoid", "tanh", "tanh"],
        "activations_alpha": [],
        "activations_beta": [],
        "clip": 0.0,
    }
    node = NodeFactory("opset1").create("LSTMCell", [p.output(0) for p in params], attributes)
    for i, param in enumerate(params):
        param.set_friendly_name(f"in{i}")
        param.output(0).set_names({f"in{i}"})
    results = [opset.result(output) for output in node.outputs()]
    for name, result in zip(("Ho", "Co"), results, strict=True):
        result.set_friendly_name(name)
    xml = tmp_path / "lstm.xml"
    ov.save_model(ov.Model(results, params, "lstm"), xml, compress_to_fp16=False)
    _add_peepholes(xml, "peepholes")
    data = {f"in{i}": rng.standard_normal(shape).astype(np.float32) for i, shape in enumerate(shapes)}
    data["peepholes"] = rng.standard_normal(6).astype(np.float32) * 3
    config = {"INFERENCE_PRECISION_HINT": "f32"}
    plugin = ov.Core().compile_model(str(xml), "CPU", config)(data)
    document = read_file(xml).document
    assert document is not None
    ours = execute(document, data).results
    # the plugin's Ho, Co equal LSTMCell-4's on the same W, R, B, in f, i, c, o order
    plain_params = [opset.parameter(list(shape), ov.Type.f32) for shape in shapes]
    v4 = opset.lstm_cell(*plain_params, 2)
    plain = ov.Core().compile_model(ov.Model(list(v4.outputs()), plain_params), "CPU", config)(
        [data[f"in{i}"] for i in range(6)]
    )
    for index, name in enumerate(("Ho", "Co")):
        np.testing.assert_allclose(plugin[index], plain[index], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(ours[name], plugin[index], rtol=1e-4, atol=1e-5)


def test_fma_product_is_a_chain_of_fmas():
    """The fast FMA chain (in f64, rounded to f32) against :func:`fma_f32` at every k, on random
    data and on a sum whose f64 rounding is an f32 tie: 1 + 2^-23 plus -2^-24 + 2^-70 is above
    the tie 1 + 2^-24, so the FMA gives 1 + 2^-23, where the f64 sum rounded twice gives 1."""
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal(shape).astype(np.float32) for shape in ((4, 3, 9), (9, 7)))
    start = rng.standard_normal((4, 3, 7)).astype(np.float32)
    chain = start
    for k in range(9):
        chain = fma_f32(a[..., k : k + 1], b[k], chain)
    assert np.array_equal(_fma_product(a, b, start), chain)
    one_up = np.float32(1 + 2**-23)
    tie = _fma_product(
        np.array([[one_up]]), np.array([[-(2**-24 - 2**-47)]], np.float32), np.array([[one_up]])
    )
    assert tie[0, 0] == one_up
