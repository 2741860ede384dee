"""Recurrent ops: LSTMSequence-5, GRUSequence-5, RNNSequence-5 and the cells LSTMCell-1,
LSTMCell-4, GRUCell-3, RNNCell-1, as OpenVINO's ``rnn_base_shape_inference.hpp`` computes them.

Batch and hidden size are merged across every input that carries them (an interval narrows
to what all inputs allow); where no input gives the hidden size, the weights' gate axis
divided by the number of gates does. A sequence op's outputs are ``Y [batch, directions,
seq_len, hidden]`` and one ``[batch, directions, hidden]`` per state; a cell's are
``[batch, hidden]`` per state.
"""

from __future__ import annotations

from irshape.dims import DYNAMIC, Dim, PartialShape
from irshape.ir import element_types
from irshape.ops.interface import Finding, OpCall, OpResult, Output, Tensor
from irshape.shapes.findings import attribute_finding, incompatible, rank_finding, type_finding

Dims = tuple[Dim, ...] | None


def lstm_sequence(call: OpCall) -> OpResult:
    return _sequence(call, gates=4, states=2, names="X, initial_hidden_state, initial_cell_state, W, R and B")


def gru_sequence(call: OpCall) -> OpResult:
    return _sequence(call, gates=3, states=1, names="X, initial_hidden_state, W, R and B")


def rnn_sequence(call: OpCall) -> OpResult:
    return _sequence(call, gates=1, states=1, names="X, initial_hidden_state, W, R and B")


def lstm_cell(call: OpCall) -> OpResult:
    # LSTMCell-4 alone falls back on its hidden_size attribute when the inputs leave the
    # hidden size unknown (or an interval): OpenVINO 2026.4, by experiment.
    return _cell(
        call,
        gates=4,
        states=2,
        names="X, initial_hidden_state, initial_cell_state, W, R and B",
        hidden_attribute=True,
    )


def lstm_cell_v0(call: OpCall) -> OpResult:
    """LSTMCell-1: LSTMCell-4's rules on its first six inputs, then P's length against
    3 x hidden_size. A missing B or P is OpenVINO's zeros of 4 or 3 x the hidden_size attribute."""
    hidden_attribute = int(call.attribute("hidden_size"))
    element_type = call.inputs[0].element_type
    inputs = list(call.inputs)
    for length in (4 * hidden_attribute, 3 * hidden_attribute)[len(inputs) - 5 :]:
        inputs.append(Tensor(PartialShape([Dim.of(length)]), element_type))
    cells = OpCall(call.schema, tuple(inputs[:6]), call.attributes)
    result = _cell(
        cells,
        gates=4,
        states=2,
        names="X, initial_hidden_state, initial_cell_state, W, R and B",
        hidden_attribute=True,
    )
    if not result.outputs:
        return result
    findings = _peephole_findings(inputs[6], result.outputs[0])
    return OpResult([] if findings else result.outputs, result.findings + findings)


def _peephole_findings(peepholes: Tensor, state: Output) -> list[Finding]:
    """P's first dim, where static, against 3 x the (static) hidden size. P's rank is not
    checked, but OpenVINO reads its first dim whatever the rank: a scalar or a dynamic rank fails."""
    dims = peepholes.shape.dims
    if not dims:
        message = "Accessing out-of-range dimension"
        return [rank_finding(6, "P", peepholes.shape, "where OpenVINO reads its first dim", message)]
    hidden = state.shape.dims[1] if state.shape.dims is not None else DYNAMIC
    if not dims[0].is_static or not hidden.is_static or dims[0].value == 3 * hidden.value:
        return []
    message = (
        f"Parameter hidden_size mismatched in P input. Current value is: {dims[0].value}, "
        f"expected: {3 * hidden.value}."
    )
    return [incompatible(f"P has {dims[0].value} peepholes, not 3 x hidden size {hidden.value}", message)]


def gru_cell(call: OpCall) -> OpResult:
    return _cell(call, gates=3, states=1, names="X, initial_hidden_state, W, R and B")


def rnn_cell(call: OpCall) -> OpResult:
    return _cell(call, gates=1, states=1, names="X, initial_hidden_state, W, R and B")


class _Merge:
    """Merges one dim across inputs (``Dimension::merge``); the first failure is kept."""

    def __init__(self, start: Dim, what: str) -> None:
        self.dim, self.what, self.failed = start, what, False

    def add(self, dim: Dim) -> None:
        merged = self.dim & dim
        if merged.is_empty:
            self.failed = True
        else:
            self.dim = merged

    def finding(self) -> list[Finding]:
        if not self.failed:
            return []
        message = f"Dimension `{self.what}` is not matched between inputs."
        problem = f"the inputs disagree on {self.what}"
        return [incompatible(problem, message)]


def _dim(dims: Dims, axis: int) -> Dim:
    return dims[axis] if dims is not None else DYNAMIC


def _ranks(inputs: tuple[Tensor, ...], expected: list[int]) -> list[Finding]:
    for index, (tensor, rank) in enumerate(zip(inputs, expected, strict=False)):
        if tensor.shape.rank is not None and tensor.shape.rank != rank:
            message = (
                f"Shape rank of input at {index} is incompatible. Expected rank: {rank}, "
                f"actual shape: {tensor.shape}."
            )
            return [
                rank_finding(index, "an input", tensor.shape, f"where OpenVINO needs rank {rank}", message)
            ]
    return []


def _element_type(
    inputs: tuple[Tensor, ...], indices: list[int], names: str, sequence: bool
) -> tuple[str | None, list[Finding]]:
    merged: str | None = None
    for index in indices:
        element_type = inputs[index].element_type
        if (
            merged is not None
            and element_type is not None
            and element_types.merge(merged, element_type) is None
        ):
            message = f"Element types for {names} {'inputs ' if sequence else ''}do not match."
            problem = f"the element types of {names} differ ({merged} and {element_type})"
            return merged, [type_finding(problem, message, index)]
        merged = element_types.merge(merged, element_type)
    return merged, []


def _gate_axis(
    hidden: _Merge,
    weights: list[tuple[str, Dims]],
    axis: int,
    multipliers: list[int],
    gates: int,
    ordinal: str,
) -> list[Finding]:
    """Check W, R and B's gate axis against hidden * gates; or, with the hidden size unknown,
    take it from W's and R's gate axis divided by the number of gates."""
    if hidden.dim.is_static:
        for (name, dims), multiplier in zip(weights, multipliers, strict=True):
            if dims is None:
                continue
            wanted = hidden.dim.value * multiplier
            if not dims[axis].compatible(Dim.of(wanted)):
                spelled = "Fisrt" if ordinal == "First" and name == "R" else ordinal  # sic, OpenVINO's words
                message = (
                    f"{spelled} dimension of {name} input shape is required to be compatible with {wanted}. "
                    f"Got shape: {dims[axis]}."
                )
                problem = (
                    f"{name}'s gate axis is {dims[axis]}, not hidden_size {hidden.dim.value} x {multiplier}"
                )
                return [incompatible(problem, message)]
        return []
    for _, dims in weights[:2]:
        # OpenVINO tests that axis 0 is static before it divides the gate axis, also for the
        # sequences, whose axis 0 is num_directions: a [?, 8, ?] W gives no hidden size.
        if dims is not None and dims[0].is_static:
            hidden.add(dims[axis].divide_exact(gates))
    return []


# The activation functions OpenVINO's recurrent cells know (by experiment; case-insensitive),
# and how many each cell takes, by its gates: LSTM f, g and h; GRU f and g; RNN f. The
# sequences read any names (they look them up only when run).
_ACTIVATIONS = frozenset({"relu", "sigmoid", "tanh", "hardsigmoid"})
_ACTIVATIONS_TAKEN = {4: 3, 3: 2, 1: 1}


def _activation_findings(call: OpCall, gates: int) -> list[Finding]:
    """A written ``activations``: OpenVINO splits it at commas (empty names dropped, blanks
    trimmed) and looks up the first ones the op takes, in turn: an unknown name fails, and so
    does a list too short (a missing attribute reads as the op's own default)."""
    text = call.attributes.texts.get("activations")
    if text is None:
        return []
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    taken = _ACTIVATIONS_TAKEN[gates]
    for index in range(taken):
        if index >= len(names):
            problem = f"names {len(names)} activation(s), and the op takes {taken}"
            message = (
                f"vector::_M_range_check: __n (which is {index}) >= this->size() (which is {len(names)})"
            )
            return [attribute_finding(call, "activations", problem, message)]
        if names[index] not in _ACTIVATIONS:
            problem = f"{names[index]!r} is not relu, sigmoid, tanh or hardsigmoid"
            return [
                attribute_finding(
                    call, "activations", problem, f"Unknown activation function: {names[index]}"
                )
            ]
    return []


def _sequence(call: OpCall, gates: int, states: int, names: str) -> OpResult:
    inputs = call.inputs
    findings = _ranks(inputs, [3] * (1 + states) + [1, 3, 3, 2])
    element_type, type_findings = _element_type(
        inputs, [0, *range(1, 1 + states), *range(2 + states, 5 + states)], names, True
    )
    findings += type_findings
    if findings:
        return OpResult([], findings)
    dims = [tensor.shape.dims for tensor in inputs]
    x, w, r, b = dims[0], dims[2 + states], dims[3 + states], dims[4 + states]
    batch = _Merge(_dim(x, 0), "batch_size")
    for index in range(1, 2 + states):  # the states and seq_lengths
        if dims[index] is not None:
            batch.add(_dim(dims[index], 0))
    hidden = _Merge(_dim(dims[1], 2), "hidden_size")
    for index in range(2, 1 + states):
        if dims[index] is not None:
            hidden.add(_dim(dims[index], 2))
    if r is not None:
        hidden.add(r[2])
    direction_name = call.attributes.enum("direction", "forward")
    directions = 2 if direction_name == "bidirectional" else 1
    direction = _Merge(Dim.of(directions), "num_directions")
    for index in [*range(1, 1 + states), *range(2 + states, 5 + states)]:
        axis = 1 if index <= states else 0
        direction.add(_dim(dims[index], axis))
    findings += batch.finding()
    if direction.failed:
        message = "Dimension `num_directions` doesn't match to other inputs or `direction` attribute."
        problem = f"the inputs' num_directions do not match direction={direction_name}"
        findings.append(incompatible(problem, message))
    bias_gates = gates + 1 if call.attributes.values.get("linear_before_reset") is True else gates
    findings += _gate_axis(
        hidden, [("W", w), ("R", r), ("B", b)], 1, [gates, gates, bias_gates], gates, "Second"
    )
    findings += hidden.finding()
    if findings:
        return OpResult([], findings)
    seq_len = _dim(x, 1)
    y = PartialShape([batch.dim, direction.dim, seq_len, hidden.dim])
    state = PartialShape([batch.dim, direction.dim, hidden.dim])
    return OpResult([Output(y, element_type), *(Output(state, element_type) for _ in range(states))])


def _cell(call: OpCall, gates: int, states: int, names: str, hidden_attribute: bool = False) -> OpResult:
    inputs = call.inputs
    findings = _activation_findings(call, gates) + _ranks(inputs, [2] * (1 + states) + [2, 2, 1])
    element_type, type_findings = _element_type(inputs, list(range(4 + states)), names, False)
    findings += type_findings
    if findings:
        return OpResult([], findings)
    dims = [tensor.shape.dims for tensor in inputs]
    w, r, b = dims[1 + states], dims[2 + states], dims[3 + states]
    batch = _Merge(_dim(dims[0], 0), "batch_size")
    for index in range(1, 1 + states):
        batch.add(_dim(dims[index], 0))
    hidden = _Merge(_dim(dims[1], 1), "hidden_size")
    for index in range(2, 1 + states):
        if dims[index] is not None:
            hidden.add(_dim(dims[index], 1))
    if r is not None:
        hidden.add(r[1])
    findings += batch.finding()
    bias_gates = gates + 1 if call.attributes.values.get("linear_before_reset") is True else gates
    findings += _gate_axis(
        hidden, [("W", w), ("R", r), ("B", b)], 0, [gates, gates, bias_gates], gates, "First"
    )
    findings += hidden.finding()
    if findings:
        return OpResult([], findings)
    hidden_dim = hidden.dim
    if hidden_attribute and not hidden_dim.is_static:
        hidden_dim = Dim.of(int(call.attribute("hidden_size")))
    state = PartialShape([batch.dim, hidden_dim])
    return OpResult([Output(state, element_type) for _ in range(states)])
