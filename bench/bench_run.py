"""Benchmark execution: ``irshape run`` against OpenVINO (read, compile for CPU with the f32
hint, infer) on every network of ``fixtures/networks/``, each in its own process, in one run.

Run from the repository root, irshape installed with its test extra (OpenVINO)::

    python bench/bench_run.py                 # best of 3 per network and side
    python bench/bench_run.py --repeat 5 --only resnet_static_f32 gpt2_static_f32

For each network the inputs are made once (seeded, dynamic dims at 5 within their intervals)
and saved as a ``.npz`` both sides read; each side is then timed as a whole process, start-up
and reading included, as a user meets it: ``irshape run NET.xml -i inputs.npz -o out.npz`` and
``python -c <read_model, compile_model(CPU, f32), infer>``. It prints the wall times per
network, their ratio (irshape / OpenVINO), and the median and worst ratios. The target
(issue 23): at most 1.0x on the median network, at most 3x on every one.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
NETWORKS = REPO / "fixtures" / "networks"
sys.path.insert(0, str(REPO / "tests"))

OPENVINO = """
import sys, numpy as np, openvino as ov
core = ov.Core()
model = core.read_model(sys.argv[1])
compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
inputs = np.load(sys.argv[2])
request = compiled.create_infer_request()
request.infer({i: inputs[p.get_friendly_name()] for i, p in enumerate(model.get_parameters())})
"""


def make_inputs(xml: Path, path: Path) -> None:
    from test_networks_execution import network_inputs

    from irshape.ir.reader import read_file

    document = read_file(xml).document
    assert document is not None
    np.savez(path, **network_inputs(document))


def best_of(command: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None, help="network names (file stems)")
    args = parser.parse_args()
    files = sorted(NETWORKS.glob("*.xml"))
    if args.only:
        files = [f for f in files if f.stem in args.only]
    irshape = [sys.executable, "-m", "irshape", "run"]
    ratios = []
    print(f"{'network':32} {'irshape':>9} {'OpenVINO':>9} {'ratio':>7}")
    with tempfile.TemporaryDirectory() as scratch:
        for xml in files:
            inputs = Path(scratch) / f"{xml.stem}.npz"
            make_inputs(xml, inputs)
            out = Path(scratch) / "out.npz"
            try:
                ours = best_of([*irshape, str(xml), "-i", str(inputs), "-o", str(out)], args.repeat)
            except subprocess.CalledProcessError as exc:
                print(f"{xml.stem:32} irshape failed: {exc.stderr.decode().strip().splitlines()[-1]}")
                continue
            theirs = best_of([sys.executable, "-c", OPENVINO, str(xml), str(inputs)], args.repeat)
            ratios.append(ours / theirs)
            print(f"{xml.stem:32} {ours:8.3f}s {theirs:8.3f}s {ours / theirs:6.2f}x")
    if ratios:
        print(
            f"median {statistics.median(ratios):.2f}x, worst {max(ratios):.2f}x over {len(ratios)} networks"
        )


if __name__ == "__main__":
    main()
