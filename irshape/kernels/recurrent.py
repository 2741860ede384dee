"""Kernels of the recurrent family (irshape/shapes/recurrent.py): RNNCell-1, GRUCell-3,
LSTMCell-1, LSTMCell-4 and RNNSequence-5, GRUSequence-5, LSTMSequence-5.

The equations are OpenVINO's reference ones (``rnn_cell.hpp``, ``gru_cell.hpp``,
``lstm_cell.hpp``, ``sequences.hpp``), gates in OpenVINO's order (LSTM ``f, i, c, o``; GRU
``z, r, h``), ``*`` a product with the transposed weights:

* RNN: ``H = f(X*W + H*R + B)``.
* GRU: ``z = f(X*Wz + H*Rz + Bz)``, ``r = f(X*Wr + H*Rr + Br)``, ``h = g(X*Wh + (r . H)*Rh + Bh)``
  or, with ``linear_before_reset`` (B then has 4 parts, the last ``Rbh``),
  ``h = g(X*Wh + r . (H*Rh + Rbh) + Wbh)``; ``H = (1 - z) . h + z . H``.
* LSTM: ``C = f(F) . C + f(I) . g(G)``, ``H = f(O) . h(C)``.
* ``clip`` > 0 clamps every gate's pre-activation to ``[-clip, clip]`` (not the cell state
  before ``h``). ``activations`` name f, g, h among relu, sigmoid and tanh (defaults sigmoid,
  tanh, tanh; RNN tanh); ``activations_alpha``/``beta`` are not used by these three, nor by
  OpenVINO.
* Sequences run each direction over the time axis; ``reverse`` reads each batch's first
  ``sequence_lengths[b]`` steps backwards (and writes Y back in their order). Steps at or past a
  batch's length leave Y zero; Ho/Co are the states after step ``length - 1``, and zero where
  the length is 0 or past the steps (OpenVINO's reference and CPU plugin alike). A reverse
  direction with a length outside ``[0, steps]`` is refused, as the plugin's ReverseSequence
  refuses it. But where X's shape is dynamic in the model the plugin compiles (an ONNX LSTM
  with dynamic axes: ``[?,?,16]``) and the plugin's oneDNN node takes the sequence (no clip,
  the default activations, W, R and B constants), it ignores the lengths and runs every step
  of every batch (its transformations decompose only a static sequence, or one the node does
  not take, into a TensorIterator that masks the steps), and so does irshape's executor
  (``KernelCall.compiled_static``).

What the CPU plugin computes (openvino 2026.4.1, ``INFERENCE_PRECISION_HINT=f32``), established
by ``tests/execution/test_recurrent.py``: f16 sequences are computed in f32 and rounded at
the outputs; the kernels compute in f32 (f64 too: the plugin holds it as f32), bit for bit in
the plugin's order (``_Cell``: its oneDNN node's, or its decomposition's; oneDNN's tanh and
logistic, each product a chain of FMAs). Not followed: W or R computed from data in a product
of one row or one column (batch 1, hidden_size 1), which the plugin's MatMul node sums in an
order not found (a few elements of the kernel fuzzer's, a few ulps; docs/execution.md). A
bf16 recurrent layer differs by a bf16 ulp or so, and the kernels round the outputs once: the
plugin runs a bf16 sequence as a TensorIterator over a cell (its runtime model shows no
more), and no choice of where to round
reproduces it: of the 512 combinations of rounding X*W, H*R, their sum, the bias sum, the
activations, the two products, C, tanh(C) and H at each step, the closest leaves a quarter to a
third of Y one bf16 ulp off (LSTM, batch 2, 6 steps), as far off as rounding the outputs once.

Speed (bench/bench_kernels.py's recurrent rows): the input projection ``X*W`` of every step is
one product before the loop, and the loop runs only the recurrence. The FMA chains are a
Python loop over k (about 30 million multiply-adds a second): past ``_EXACT_PRODUCTS`` (4M) in
a layer the kernels take numpy's products, tanh and plain multiply-adds instead, within
tolerance (the bench's rows: 0.4 to 4 s exact, 3 to 21 ms so), on one BLAS thread
(irshape/kernels/blas.py: a step's products are too small for threads to pay).

LSTMCell-1 (v0, with peepholes P, ``input_forget`` and ``weights_format``): the CPU plugin
computes LSTMCell-4 on its W, R and B in f, i, c, o order whatever P, ``input_forget`` and
``weights_format`` say (by experiment, ``tests/execution/test_recurrent.py``: nonzero peepholes,
input_forget true and every weights_format give LSTMCell-4's result), so the kernel does too,
in the order of the plugin's decomposition (its oneDNN node never takes an LSTMCell-1: the
runtime model shows FullyConnected and Snippets). ``ov.save_model`` never writes P's edge; a
missing B is zeros.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from irshape.kernels import KernelCall, KernelError, UnsupportedByOpenVINOError, output_bytes, working_memory
from irshape.kernels.blas import one_blas_thread
from irshape.kernels.elementwise import fma_f32, plugin_sigmoid, plugin_tanh
from irshape.kernels.stored import as_output

Activation = Callable[[np.ndarray], np.ndarray]


def _relu(x: np.ndarray) -> np.ndarray:
    result: np.ndarray = np.maximum(x, 0)
    return result


def _fast_sigmoid(x: np.ndarray) -> np.ndarray:
    """``1 / (1 + exp(-x))`` as ``(1 + tanh(x / 2)) / 2``: no overflow, few passes."""
    result: np.ndarray = np.multiply(x, 0.5)
    np.tanh(result, out=result)
    result *= 0.5
    result += 0.5
    return result


# the plugin's oneDNN node activates its gates with oneDNN's eltwise injectors, the functions
# the plugin's Sigmoid and Tanh compute (bit for bit: see kernels/elementwise.py); numpy's on
# layers past _EXACT_PRODUCTS (a tenth of the time)
_ACTIVATIONS: dict[str, Activation] = {"sigmoid": plugin_sigmoid, "tanh": plugin_tanh, "relu": _relu}
_FAST_ACTIVATIONS: dict[str, Activation] = {"sigmoid": _fast_sigmoid, "tanh": np.tanh, "relu": _relu}
_DEFAULT_ACTIVATIONS = {"rnn": ("tanh",), "gru": ("sigmoid", "tanh"), "lstm": ("sigmoid", "tanh", "tanh")}
_GATES = {"rnn": 1, "gru": 3, "lstm": 4}


# an f64 whose rounding to f32 is a tie: its 29 bits below f32's last are 1000...0
_BELOW_F32, _F32_TIE = np.int64((1 << 29) - 1), np.int64(1 << 28)


def _fma_product(a: np.ndarray, b: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """``a @ b`` of f32 values as the plugin's GEMMs compute each element: the products added in
    order of k by fused multiply-adds from 0, or from ``start`` (by experiment; numpy's BLAS
    agrees only on small k). Each FMA in f64, five times as fast as :func:`fma_f32`: the product
    is exact there and the sum rounded once, and rounding that to f32 gives the FMA's result
    unless it is an f32 tie (rounding can reach a tie but not cross it); then :func:`fma_f32`.
    (Subnormal sums are not followed: the plugin flushes them.)"""
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    result = np.zeros((*a.shape[:-1], b.shape[-1]), np.float32) if start is None else start
    total = np.empty(result.shape, np.float64)
    for k in range(a.shape[-1]):
        np.multiply(wide_a[..., k : k + 1], wide_b[k], out=total)
        total += result
        if ((total.view(np.int64) & _BELOW_F32) == _F32_TIE).any():
            result = fma_f32(a[..., k : k + 1], b[k], result)
        else:
            result = total.astype(np.float32)
    return result


@dataclass(frozen=True)
class _Cell:
    """One cell's arithmetic: which cell, its activations, clip and GRU's linear_before_reset,
    and whether the plugin runs it as its oneDNN node or ``decomposed`` into MatMuls and
    element-wise ops (OpenVINO's *CellDecomposition passes: a clip, an LSTM's or GRU's
    activations other than the defaults, W, R or B not constant). In the plugin's order (by
    experiment, tests/execution/test_recurrent.py's exact cases), each product an FMA chain
    (:func:`_fma_product`):

    * a gate: on the node ``(X*W + H*R) + B``, decomposed ``X*W + (H*R + B)``;
    * LSTM's C: on the node ``fma(i, g, f . C)``, decomposed ``f . C + i . g``;
    * GRU's H: ``(1 - z) . h + z . H``; with linear_before_reset the candidate's
      pre-activation on the node ``fma(r, H*Rh + Rbh, X*Wh + Wbh)``, decomposed
      ``X*Wh + (r . (H*Rh + Rbh) + Wbh)``;

    and each ``a . b + c`` there one FMA on the node and in a decomposed cell (``fused``: the
    plugin's Snippets fuse them), two roundings in a decomposed sequence (the TensorIterator's
    body runs each op apart). Above :data:`_EXACT_PRODUCTS` multiply-adds a layer's products
    are numpy's (``exact`` False: BLAS's order, last bits off, a hundred times as fast)."""

    kind: str  # "rnn", "gru" or "lstm"
    activations: tuple[Activation, ...]
    clip: float
    linear_before_reset: bool
    decomposed: bool = False
    fused: bool = True
    merged: bool = False
    exact: bool = True

    def product(self, a: np.ndarray, b: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
        """``a @ b`` (added to ``start``): the plugin's FMA chain, or numpy's if not ``exact``."""
        if self.exact:
            return _fma_product(a, b, start)
        result: np.ndarray = a @ b if start is None else start + a @ b
        return result

    def multiply_add(self, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        """``a . b + c``: one FMA where the plugin fuses it (see the class), else two roundings."""
        return fma_f32(a, b, c) if self.fused and self.exact else a * b + c

    def sum(self, x_part: np.ndarray, h: np.ndarray, recurrent: np.ndarray, bias: np.ndarray) -> np.ndarray:
        """A gate's pre-activation from ``X*W``, ``H``, its R and its bias, in the plugin's order."""
        total: np.ndarray
        if self.merged:
            total = self.product(h, recurrent, x_part) + bias
        elif self.decomposed:
            total = x_part + (self.product(h, recurrent) + bias)
        else:
            total = (x_part + self.product(h, recurrent)) + bias
        return total

    def gate(self, pre_activation: np.ndarray, which: int) -> np.ndarray:
        """Activation ``which`` (f, g, h) of a gate's pre-activation, clipped first if asked."""
        if self.clip > 0:
            pre_activation = np.clip(pre_activation, np.float32(-self.clip), np.float32(self.clip))
        return self.activations[which](pre_activation)

    def step(
        self, x_gates: np.ndarray, h: np.ndarray, c: np.ndarray | None, weights: _Weights
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """The states after one step: ``x_gates`` is ``X*W`` (no bias)."""
        hidden = h.shape[-1]
        if self.kind == "rnn":
            return self.gate(self.sum(x_gates, h, weights.recurrent, weights.bias), 0), None
        if self.kind == "lstm":
            assert c is not None
            gates = self.sum(x_gates, h, weights.recurrent, weights.bias)
            forget, input_gate, candidate, output = (
                gates[..., k * hidden : (k + 1) * hidden] for k in range(4)
            )
            f, i, g = self.gate(forget, 0), self.gate(input_gate, 0), self.gate(candidate, 1)
            c_new = self.multiply_add(f, c, i * g) if self.decomposed else self.multiply_add(i, g, f * c)
            return self.gate(output, 0) * self.activations[2](c_new), c_new
        bias = weights.bias
        zr = self.sum(x_gates[..., : 2 * hidden], h, weights.recurrent, bias[: 2 * hidden])
        zr = self.gate(zr, 0)
        z, reset = zr[..., :hidden], zr[..., hidden:]
        x_candidate, b_candidate = x_gates[..., 2 * hidden :], bias[2 * hidden :]
        if self.linear_before_reset:
            assert weights.b_rh is not None
            h_candidate = self.product(h, weights.candidate) + weights.b_rh
            if self.decomposed:
                candidate = x_candidate + self.multiply_add(reset, h_candidate, b_candidate)
            else:
                candidate = self.multiply_add(reset, h_candidate, x_candidate + b_candidate)
        else:
            candidate = self.sum(x_candidate, reset * h, weights.candidate, b_candidate)
        return self.multiply_add(np.float32(1) - z, self.gate(candidate, 1), z * h), None


@dataclass(frozen=True)
class _Weights:
    """A direction's weights made ready once for every step: transposed, GRU's recurrence split
    into ``z, r`` and ``h``, and its Rbh apart."""

    input: np.ndarray  # [input, gates * hidden]
    bias: np.ndarray  # [gates * hidden]
    recurrent: np.ndarray  # [hidden, gates * hidden] (GRU: z and r only)
    candidate: np.ndarray  # GRU's [hidden, hidden] for h (others: empty)
    b_rh: np.ndarray | None  # GRU's Rbh with linear_before_reset


def _prepared(cell: _Cell, w: np.ndarray, r: np.ndarray, b: np.ndarray) -> _Weights:
    hidden = r.shape[-1]
    b_rh = None
    if cell.linear_before_reset:
        b, b_rh = b[: 3 * hidden], b[3 * hidden :]
    candidate = np.zeros((hidden, 0), np.float32)
    if cell.kind == "gru":
        r, candidate = r[: 2 * hidden], r[2 * hidden :].T
    return _Weights(w.T, b, r.T, candidate, b_rh)


def _activation_names(call: KernelCall, kind: str) -> tuple[str, ...]:
    """The activations the layer names (lower case), else the defaults of its kind."""
    text = str(call.attribute("activations")).strip()
    return tuple(n.strip().lower() for n in text.split(",")) if text else _DEFAULT_ACTIVATIONS[kind]


def _cell_of(call: KernelCall, kind: str) -> _Cell:
    names = _activation_names(call, kind)
    unknown = [n for n in names if n not in _ACTIVATIONS]
    if unknown:
        raise KernelError(f"activation function {unknown[0]} is not supported (relu, sigmoid, tanh are)")
    needed = len(_DEFAULT_ACTIVATIONS[kind])
    if len(names) < needed:
        raise KernelError(f"{call.schema.name} needs {needed} activations, the layer names {len(names)}")
    linear_before_reset = kind == "gru" and bool(call.attribute("linear_before_reset"))
    decomposed = not _on_the_plugins_node(call, kind)
    fused = not (decomposed and "sequence" in call.schema.function)
    # (oneDNN's node makes an RNN's or LSTM's X and H products one GEMM where they are as long)
    same_length = call.inputs[0].shape[-1] == int(call.attribute("hidden_size"))
    merged = not decomposed and kind != "gru" and same_length
    clip = float(call.attribute("clip"))
    exact = _multiply_adds(call, kind) <= _EXACT_PRODUCTS
    activations = tuple((_ACTIVATIONS if exact else _FAST_ACTIVATIONS)[n] for n in names)
    return _Cell(kind, activations, clip, linear_before_reset, decomposed, fused, merged, exact)


# Up to this many multiply-adds in a layer's products the kernels follow the plugin's FMA
# chains (bit for bit; about 30 million a second, a Python loop over k): 0.1 s at most. Above,
# numpy's BLAS (bench/bench_kernels.py's recurrent rows: 0.4 to 4 s exact, 6 to 26 ms not).
_EXACT_PRODUCTS = 1 << 22


def _multiply_adds(call: KernelCall, kind: str) -> int:
    """The multiply-adds of a layer's X*W and H*R over every step and direction."""
    x = call.inputs[0]
    hidden = int(call.attribute("hidden_size"))
    sequence = "sequence" in call.schema.function
    directions = 2 if sequence and str(call.attribute("direction")).lower() == "bidirectional" else 1
    rows = x.size // max(1, x.shape[-1])
    return int(rows * (x.shape[-1] + hidden) * _GATES[kind] * hidden * directions)


def _compute_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """f32, whatever the inputs' type: the plugin computes f16 in f32 and holds f64 as f32."""
    return np.dtype(np.float32)


def _input_projection(cell: _Cell, x: np.ndarray, weights: _Weights) -> np.ndarray:
    """``X*W`` for every gate of every step at once, before the loop (its bias is added after
    ``H*R``, as the plugin adds it)."""
    return cell.product(x, weights.input)


def _run_cell(call: KernelCall, kind: str, inputs: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
    states = 2 if kind == "lstm" else 1
    compute = _compute_dtype(call.inputs[0].dtype)
    x, h, *rest = (a.astype(compute, copy=False) for a in (call.inputs if inputs is None else inputs))
    c = rest[0] if states == 2 else None
    w, r, b = rest[states - 1 :]
    cell = _cell_of(call, kind)
    weights = _prepared(cell, w, r, b)
    h_new, c_new = cell.step(_input_projection(cell, x, weights), h, c, weights)
    outputs = [h_new] if c_new is None else [h_new, c_new]
    return _as_outputs(call, outputs)


def _as_outputs(call: KernelCall, outputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The outputs in their element types (a relu state past f16's range is inf, as OpenVINO's)."""
    return [as_output(call, o, i) for i, o in enumerate(outputs)]


def _cell_working_bytes(call: KernelCall) -> int:
    """The weights made ready (two copies of W, R and B: reordered or halved, then transposed),
    the gates and a few temporaries of their size, the outputs, converted copies of the inputs."""
    compute = _compute_dtype(call.inputs[0].dtype).itemsize
    inputs = sum(a.size for a in call.inputs) * compute
    x, w = call.inputs[0], call.inputs[3 if "lstm" in call.schema.function else 2]  # W
    gates = x.shape[0] * w.shape[0] * compute if x.ndim == 2 and w.ndim == 2 else 0
    outputs = sum(output_bytes(call, i) for i in range(len(call.schema.outputs)))
    return int(3 * inputs + 4 * gates + 2 * outputs)


@working_memory(_cell_working_bytes)
def rnn_cell(call: KernelCall) -> list[np.ndarray]:
    """RNNCell-1."""
    return _run_cell(call, "rnn")


@working_memory(_cell_working_bytes)
def gru_cell(call: KernelCall) -> list[np.ndarray]:
    """GRUCell-3 (linear_before_reset too)."""
    return _run_cell(call, "gru")


@working_memory(_cell_working_bytes)
def lstm_cell(call: KernelCall) -> list[np.ndarray]:
    """LSTMCell-4."""
    return _run_cell(call, "lstm")


@working_memory(_cell_working_bytes)
def lstm_cell_v0(call: KernelCall) -> list[np.ndarray]:
    """LSTMCell-1: LSTMCell-4's arithmetic on X, H, C, W, R and B (zeros when missing); P,
    input_forget and weights_format are ignored, as the CPU plugin ignores them."""
    inputs = list(call.inputs[:6])
    if len(inputs) == 5:
        w = inputs[3]
        inputs.append(np.zeros(w.shape[0], dtype=w.dtype))
    return _run_cell(call, "lstm", inputs)


def _reversal_index(lengths: np.ndarray, steps: int) -> np.ndarray:
    """``[batch, steps]``: the step each position reads when a batch's first ``lengths[b]``
    steps are reversed (ReverseSequence's order; the steps past the length stay)."""
    t = np.arange(steps)[None, :]
    limit = np.minimum(lengths, steps)[:, None]
    reversed_index: np.ndarray = np.where(t < limit, limit - 1 - t, t)
    return reversed_index


def _run_direction(
    cell: _Cell,
    x: np.ndarray,
    states: Sequence[np.ndarray],
    lengths: np.ndarray,
    weights: tuple[np.ndarray, np.ndarray, np.ndarray],
    reverse: bool,
) -> tuple[np.ndarray, list[np.ndarray]]:
    """One direction over ``x [batch, steps, input]``: Y ``[batch, steps, hidden]`` and the
    final states."""
    w, r, b = weights
    batch, steps = x.shape[:2]
    if reverse and np.any((lengths < 0) | (lengths > steps)):
        # the plugin reverses with ReverseSequence, which refuses such lengths
        raise UnsupportedByOpenVINOError(f"a sequence length is outside [0, {steps}] in a reverse direction")
    order = _reversal_index(lengths, steps) if reverse else None
    every_step = int(max(0, min(steps, lengths.min(initial=steps))))  # the steps all batches run
    if order is not None:
        x = np.take_along_axis(x, order[:, :, None], axis=1)
    prepared = _prepared(cell, w, r, b)
    x_gates = _input_projection(cell, x, prepared)
    h = states[0]
    c = states[1] if len(states) > 1 else None
    y = np.zeros((batch, steps, h.shape[-1]), dtype=h.dtype)
    with one_blas_thread():  # (numpy's products of a step: too small for threads to pay)
        for t in range(steps):
            h_step, c_step = cell.step(x_gates[:, t], h, c, prepared)
            if t < every_step:  # no batch has ended yet: no masking
                y[:, t], h, c = h_step, h_step, c_step
                continue
            active = (t < lengths)[:, None]
            y[:, t] = np.where(active, h_step, 0)
            h = np.where(active, h_step, h)
            if c is not None and c_step is not None:
                c = np.where(active, c_step, c)
    if order is not None:
        y = np.take_along_axis(y, order[:, :, None], axis=1)  # the reversal is its own inverse
    # OpenVINO's final states are those after step length - 1, zero where there is no such step
    ran = ((lengths >= 1) & (lengths <= steps))[:, None]
    finals = [h] if c is None else [h, c]
    return y, [np.where(ran, state, 0) for state in finals]


def _run_sequence(call: KernelCall, kind: str) -> list[np.ndarray]:
    states_count = 2 if kind == "lstm" else 1
    compute = _compute_dtype(call.inputs[0].dtype)
    x = call.inputs[0].astype(compute, copy=False)
    initial = [a.astype(compute, copy=False) for a in call.inputs[1 : 1 + states_count]]
    lengths = _lengths_run(call, kind, call.inputs[1 + states_count].astype(np.int64), x.shape[1])
    w, r, b = (a.astype(compute, copy=False) for a in call.inputs[2 + states_count : 5 + states_count])
    cell = _cell_of(call, kind)
    direction = str(call.attribute("direction")).lower()
    reverses = {"forward": [False], "reverse": [True], "bidirectional": [False, True]}[direction]
    ys, finals = [], []
    for d, reverse in enumerate(reverses):
        y, final = _run_direction(cell, x, [s[:, d] for s in initial], lengths, (w[d], r[d], b[d]), reverse)
        ys.append(y)
        finals.append(final)
    outputs = [np.stack(ys, axis=1)]
    outputs += [np.stack([f[k] for f in finals], axis=1) for k in range(states_count)]
    return _as_outputs(call, outputs)


def _lengths_run(call: KernelCall, kind: str, lengths: np.ndarray, steps: int) -> np.ndarray:
    """The sequence lengths the plugin honours: all of them where it decomposes the sequence
    into a TensorIterator that masks the steps past each length (X's shape static in the model
    it compiles, or a sequence its oneDNN node does not take); none where that node runs it on
    a dynamic X (it runs every step of every batch, ignoring the lengths: by experiment,
    tests/execution/test_sequence_lengths.py)."""
    if np.all(lengths == steps) or call.compiled_static is None or call.compiled_static(0):
        return lengths
    if not _on_the_plugins_node(call, kind):
        return lengths
    return np.full_like(lengths, steps)


def _on_the_plugins_node(call: KernelCall, kind: str) -> bool:
    """Does the CPU plugin run this cell or sequence as its oneDNN node
    (``RNN::isSupportedOperation`` in nodes/rnn.cpp)? Not with a clip, nor with an LSTM's or a
    GRU's activations other than the defaults (an RNN's one activation may be any of the
    three), nor with W, R or B computed from data, nor ever an LSTMCell-1; the plugin
    decomposes those whatever X's shape (a sequence into a TensorIterator over cells it
    decomposes in turn)."""
    if call.schema.function == "lstm_cell_v0":
        return False
    states_count = 2 if kind == "lstm" else 1
    first = states_count + (2 if "sequence" in call.schema.function else 1)  # W (after the lengths)
    weights = {first, first + 1, first + 2}
    default_activations = kind == "rnn" or _activation_names(call, kind) == _DEFAULT_ACTIVATIONS[kind]
    return float(call.attribute("clip")) == 0 and default_activations and weights <= call.constant_inputs


def _sequence_working_bytes(call: KernelCall) -> int:
    """Per direction the input projection ``[batch, steps, gates * hidden]`` and one gate
    temporary of its size, Y and the states; the stacked outputs and their converted copies;
    converted copies of the inputs."""
    states = 2 if call.schema.function == "lstm_sequence" else 1
    x, w = call.inputs[0], call.inputs[2 + states]  # W: [directions, gates * hidden, input]
    compute = _compute_dtype(x.dtype).itemsize
    batch, steps = x.shape[:2]
    projection = 2 * batch * steps * w.shape[1] * compute
    outputs = sum(output_bytes(call, i) for i in range(len(call.schema.outputs)))
    inputs = sum(a.size for a in call.inputs) * compute
    return int(projection + 3 * outputs * max(1, compute // 2) + inputs)


@working_memory(_sequence_working_bytes)
def rnn_sequence(call: KernelCall) -> list[np.ndarray]:
    """RNNSequence-5."""
    return _run_sequence(call, "rnn")


@working_memory(_sequence_working_bytes)
def gru_sequence(call: KernelCall) -> list[np.ndarray]:
    """GRUSequence-5 (linear_before_reset too)."""
    return _run_sequence(call, "gru")


@working_memory(_sequence_working_bytes)
def lstm_sequence(call: KernelCall) -> list[np.ndarray]:
    """LSTMSequence-5."""
    return _run_sequence(call, "lstm")
