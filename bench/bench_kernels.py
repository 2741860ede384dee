"""Benchmark irshape's numpy convolution kernels against OpenVINO's CPU plugin, in one run.

Run from the repository root (needs numpy and openvino, the test extra)::

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/bench_kernels.py
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python bench/bench_kernels.py --repeat 20 --rounds 5

Why ``env -u``: this environment sets ``OPENBLAS_CORETYPE=Haswell`` and ``OPENBLAS_L2_SIZE``,
which pin numpy's OpenBLAS to older kernels and slow its GEMMs down. Unsetting them for this
command only lets OpenBLAS pick the kernels for the real CPU. (The tests never unset them.)
Without ``env -u`` the script still runs; the figures are then those of the pinned OpenBLAS.

The layers are the spec examples: ConvolutionBackpropData example 1, the GroupConvolution-
BackpropData and GroupConvolution examples (1D and 2D at full size, 3D scaled down from 224^3
to 64^3 so that they fit in memory), plus two extra rows for context (the 2D Convolution-1
example and ConvolutionBackpropData example 3 with its output_shape input).

For every layer, the OpenVINO model is compiled once for "CPU" with
``INFERENCE_PRECISION_HINT=f32`` (on CPUs with bf16 support the plugin would otherwise compute
in bf16, which is faster but off by ~1e-2), and the numpy result is first checked against it.
Then both are timed in ``--rounds`` alternating blocks of ``--repeat`` consecutive calls per
side, each block after a pause and two warm-up calls (both sides run multi-threaded, and worker
threads of one side that are still spinning would steal the 2 cores from the other); each
figure is the best wall time of one call (``time.perf_counter``; the numpy call includes
allocating its output array, OpenVINO's infer request reuses its output buffer). Both
sides use every core of the machine (OpenBLAS threads, OpenVINO CPU streams). The figures are
printed, never asserted.

Targets (issue 4): numpy within 1.5x of OpenVINO on the 2D GroupConvolutionBackpropData example,
and within 3x on the 2D GroupConvolution example.

The recurrent rows (issue 23) run LSTM/GRU/RNNSequence-5 layers over long sequences (500 steps
of batch 1, 200 of batch 16, a bidirectional LSTM) through irshape's executor on the saved
one-layer IR, against the same IR compiled by OpenVINO.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import openvino as ov
import openvino.opset1 as opset1

from irshape.kernels import convolution as kernels

CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}
PAUSE_S = 0.3  # between timed blocks, see best_of


@dataclass(frozen=True)
class Layer:
    name: str
    op: str
    x_shape: tuple[int, ...]
    w_shape: tuple[int, ...]
    strides: tuple[int, ...]
    pads: tuple[int, ...]
    output_shape: tuple[int, ...] | None = None
    auto_pad: str = "explicit"
    target: float | None = None

    @property
    def nd(self) -> int:
        return len(self.strides)


LAYERS = [
    Layer("CBD ex1 2D", "ConvolutionBackpropData", (1, 20, 224, 224), (20, 10, 3, 3), (2, 2), (1, 1)),
    Layer("GCBD 1D", "GroupConvolutionBackpropData", (1, 20, 224), (4, 5, 2, 3), (2,), (1,)),
    Layer(
        "GCBD 2D",
        "GroupConvolutionBackpropData",
        (1, 20, 224, 224),
        (4, 5, 2, 3, 3),
        (2, 2),
        (1, 1),
        target=1.5,
    ),
    Layer(
        "GCBD 3D @64^3",
        "GroupConvolutionBackpropData",
        (1, 20, 64, 64, 64),
        (4, 5, 2, 3, 3, 3),
        (2, 2, 2),
        (1, 1, 1),
    ),
    Layer("GC 1D", "GroupConvolution", (1, 12, 224), (4, 1, 3, 5), (1,), (2,)),
    Layer("GC 2D", "GroupConvolution", (1, 12, 224, 224), (4, 1, 3, 5, 5), (1, 1), (2, 2), target=3.0),
    Layer("GC 3D @64^3", "GroupConvolution", (1, 12, 64, 64, 64), (4, 1, 3, 5, 5, 5), (1, 1, 1), (2, 2, 2)),
    Layer("Conv 2D (extra)", "Convolution", (1, 3, 224, 224), (64, 3, 5, 5), (1, 1), (2, 2)),
    Layer(
        "CBD ex3 O=450 (extra)",
        "ConvolutionBackpropData",
        (1, 20, 224, 224),
        (20, 10, 3, 3),
        (1, 1),
        (0, 0),
        output_shape=(450, 450),
        auto_pad="valid",
    ),
]


def build_openvino(layer: Layer, w: np.ndarray) -> tuple[ov.Model, ov.Node]:
    data = opset1.parameter(list(layer.x_shape), np.float32, name="x")
    filters = opset1.constant(w)
    pads = list(layer.pads)
    ones = [1] * layer.nd
    if layer.op == "Convolution":
        node = opset1.convolution(data, filters, list(layer.strides), pads, pads, ones, layer.auto_pad)
    elif layer.op == "GroupConvolution":
        node = opset1.group_convolution(data, filters, list(layer.strides), pads, pads, ones, layer.auto_pad)
    else:
        builder = (
            opset1.convolution_backprop_data
            if layer.op == "ConvolutionBackpropData"
            else opset1.group_convolution_backprop_data
        )
        out_shape = None
        if layer.output_shape is not None:
            out_shape = opset1.constant(np.array(layer.output_shape, dtype=np.int64))
        node = builder(
            data, filters, list(layer.strides), output_shape=out_shape, pads_begin=pads, pads_end=pads,
            dilations=ones, auto_pad=layer.auto_pad,
        )  # fmt: skip
    return ov.Model([node], [data]), node


def numpy_call(layer: Layer, node: ov.Node, x: np.ndarray, w: np.ndarray) -> Callable[[], np.ndarray]:
    """A closure running the numpy kernel with the pads OpenVINO resolved for the node."""
    attrs = node.get_attributes()
    common = {
        "strides": layer.strides,
        "dilations": [1] * layer.nd,
        "pads_begin": list(attrs["pads_begin"]),
        "pads_end": list(attrs["pads_end"]),
        "groups": w.shape[0] if w.ndim == x.ndim + 1 else 1,
    }
    if "Backprop" in layer.op:
        op_padding = list(attrs["output_padding"])
        return lambda: kernels.convolve_backprop(
            x, w, output_padding=op_padding, output_spatial=layer.output_shape, **common
        )
    return lambda: kernels.convolve(x, w, **common)


def best_of(
    repeat: int, rounds: int, numpy_fn: Callable[[], object], openvino_fn: Callable[[], object]
) -> tuple[float, float]:
    """Best wall times (seconds) of numpy_fn and openvino_fn.

    ``rounds`` alternating blocks, one side at a time: a pause that lets the other side's worker
    threads go idle (OpenBLAS and OpenVINO's TBB workers spin for a while after a call, and on a
    2-core machine they would steal the cores), two untimed warm-up calls, then ``repeat`` timed
    consecutive calls. Slow drifts of a shared machine hit both sides.
    """
    best = {"numpy": float("inf"), "openvino": float("inf")}
    for _ in range(rounds):
        for side, fn in (("numpy", numpy_fn), ("openvino", openvino_fn)):
            time.sleep(PAUSE_S)
            fn()
            fn()
            for _ in range(repeat):
                t0 = time.perf_counter()
                fn()
                best[side] = min(best[side], time.perf_counter() - t0)
    return best["numpy"], best["openvino"]


@dataclass(frozen=True)
class Recurrent:
    name: str
    kind: str  # lstm, gru, rnn
    batch: int
    steps: int
    input_size: int
    hidden: int
    direction: str = "forward"


RECURRENT = [
    Recurrent("LSTM T500 B1", "lstm", 1, 500, 64, 128),
    Recurrent("GRU T500 B1", "gru", 1, 500, 64, 128),
    Recurrent("RNN T500 B1", "rnn", 1, 500, 64, 128),
    Recurrent("LSTM T200 B16", "lstm", 16, 200, 64, 128),
    Recurrent("LSTM T500 B1 bidir", "lstm", 1, 500, 64, 128, "bidirectional"),
]


def build_recurrent(layer: Recurrent, rng: np.random.Generator) -> ov.Model:
    import openvino.opset13 as opset

    directions = 2 if layer.direction == "bidirectional" else 1
    gates = {"lstm": 4, "gru": 3, "rnn": 1}[layer.kind]
    hidden = layer.hidden

    def const(*shape: int) -> ov.Node:
        return opset.constant((rng.standard_normal(shape) * 0.1).astype(np.float32))

    x = opset.parameter([layer.batch, layer.steps, layer.input_size], np.float32, name="x")
    h0 = const(layer.batch, directions, hidden)
    lengths = opset.constant(np.full(layer.batch, layer.steps, np.int32))
    w = const(directions, gates * hidden, layer.input_size)
    r, b = const(directions, gates * hidden, hidden), const(directions, gates * hidden)
    if layer.kind == "lstm":
        c0 = const(layer.batch, directions, hidden)
        node = opset.lstm_sequence(x, h0, c0, lengths, w, r, b, hidden, layer.direction)
    elif layer.kind == "gru":
        node = opset.gru_sequence(x, h0, lengths, w, r, b, hidden, layer.direction)
    else:
        node = opset.rnn_sequence(x, h0, lengths, w, r, b, hidden, layer.direction)
    return ov.Model([node.output(i) for i in range(node.get_output_size())], [x])


def bench_recurrent(core: ov.Core, layer: Recurrent, args: argparse.Namespace, directory: str) -> None:
    """One recurrent layer through irshape's executor (the saved IR) and OpenVINO."""
    from irshape.execute.network import execute
    from irshape.ir.reader import read_file

    rng = np.random.default_rng(0)
    xml = os.path.join(directory, f"{layer.kind}_{layer.batch}_{layer.steps}.xml")
    ov.save_model(build_recurrent(layer, rng), xml, compress_to_fp16=False)
    document = read_file(xml).document
    assert document is not None
    x = rng.standard_normal((layer.batch, layer.steps, layer.input_size), dtype=np.float32)
    request = core.compile_model(xml, "CPU", CPU_CONFIG).create_infer_request()

    def run_numpy() -> np.ndarray:
        return next(iter(execute(document, {"x": x}).results.values()))

    def run_openvino() -> None:
        request.infer([x])

    ours, theirs = run_numpy(), request.infer([x])[0]
    same = ours.shape == theirs.shape and np.allclose(ours, theirs, rtol=1e-4, atol=1e-4)
    check = "equal" if same else f"DIFFERENT (max |diff| {np.abs(ours - theirs).max():.3g})"
    t_np, t_ov = best_of(max(1, args.repeat), max(1, args.rounds), run_numpy, run_openvino)
    shape = "x".join(map(str, theirs.shape))
    times = f"{t_np * 1e3:10.2f} {t_ov * 1e3:12.2f} {t_np / t_ov:6.2f}x"
    print(f"{layer.name:24s} {shape:>20s} {times} {'':>7s}  {check}")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="consecutive timed calls per side and round")
    parser.add_argument(
        "--rounds", type=int, default=3, help="alternating rounds of numpy and OpenVINO calls"
    )
    parser.add_argument("--only", help="run only the layers whose name contains this text")
    args = parser.parse_args(argv)

    print(f"python {platform.python_version()}, numpy {np.__version__}, openvino {ov.get_version()}")
    print(f"cpus: {os.cpu_count()}, load average at start: {', '.join(f'{v:.2f}' for v in os.getloadavg())}")
    pinned = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ}
    print(f"OpenBLAS pinning: {pinned or 'none (unset)'}; CPU plugin precision: f32")
    print()
    core = ov.Core()
    rng = np.random.default_rng(0)
    columns = ("output", 20), ("numpy ms", 10), ("OpenVINO ms", 12), ("ratio", 7), ("target", 7)
    header = f"{'layer':24s} " + " ".join(f"{name:>{width}s}" for name, width in columns) + "  check"
    print(header)
    print("-" * len(header))
    for layer in LAYERS:
        if args.only and args.only not in layer.name:
            continue
        x = rng.standard_normal(layer.x_shape, dtype=np.float32)
        w = rng.standard_normal(layer.w_shape, dtype=np.float32)
        model, node = build_openvino(layer, w)
        request = core.compile_model(model, "CPU", CPU_CONFIG).create_infer_request()
        run_numpy = numpy_call(layer, node, x, w)

        def run_openvino(request: ov.InferRequest = request, x: np.ndarray = x) -> None:
            request.infer([x])

        ours = run_numpy()
        theirs = request.infer([x])[0]
        same = ours.shape == theirs.shape and np.allclose(ours, theirs, rtol=1e-4, atol=1e-4)
        check = "equal" if same else f"DIFFERENT (max |diff| {np.abs(ours - theirs).max():.3g})"
        del ours, theirs
        t_np, t_ov = best_of(max(1, args.repeat), max(1, args.rounds), run_numpy, run_openvino)
        ratio = t_np / t_ov
        target = "" if layer.target is None else f"<={layer.target:g}x"
        verdict = "" if layer.target is None else (" met" if ratio <= layer.target else " MISSED")
        shape = "x".join(map(str, node.get_output_shape(0)))
        print(
            f"{layer.name:24s} {shape:>20s} {t_np * 1e3:10.2f} {t_ov * 1e3:12.2f} {ratio:6.2f}x "
            f"{target:>7s}{verdict}  {check}"
        )
        sys.stdout.flush()
    with tempfile.TemporaryDirectory() as directory:
        for recurrent in RECURRENT:
            if not args.only or args.only in recurrent.name:
                bench_recurrent(core, recurrent, args, directory)
    print()
    print(f"load average at end: {', '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
