"""Benchmark irshape against OpenVINO on large generated IRs: wall time, peak RSS, time per layer.

Run from the repository root (needs openvino and numpy, the test extra)::

    python bench/bench_scale.py                 # 20k and 100k layers, then scaling at 1k/10k/100k
    python bench/bench_scale.py --sizes 20000   # only the comparison at one size
    python bench/bench_scale.py --keep DIR      # keep the generated IRs in DIR
    python bench/bench_scale.py --dynamic       # the same with a dynamic input [?,8,?,?]
    python bench/bench_scale.py --phases fixtures/networks DIR/bench_20000.xml  # phase tables only
    python bench/bench_scale.py --instructions  # also each phase's instructions (valgrind)

After each comparison comes the phase table of ``irshape check -j 1`` (see ``PHASES_CHILD``):
where the time goes (the scanner's reading, or lxml's parse and the model built from it, index
the graph, graph checks, check layers, compare dims, the previous file's objects freed,
report), with each phase's count of function calls, a measure that does not move with the
machine's load as its wall time does.

Each IR is generated with OpenVINO's Python API (blocks of the four conv ops, MaxPool,
element-wise ops, a ShapeOf/Gather/Concat shape subgraph into Reshape, Transpose, MatMul,
Softmax and Multiply, and the Consts and Converts ``ov.save_model`` writes) into a temporary
directory; ``--dynamic`` makes the input ``[?,8,?,?]``. Then, each in its own process,
started the same way (``python -c``):

- irshape: ``irshape.cli.run()`` with the arguments ``check model.xml``, what the
  ``irshape check model.xml`` command runs (it reports its figures from
  ``irshape.lifetime.hard_exit``, where the program ends);
- OpenVINO: ``ov.Core().read_model(model.xml)``, which parses the XML, reads the .bin and
  validates the graph (shape inference included);
- irshape's reading alone: ``irshape.ir.reader.read_file(model.xml, processes=2)``, as
  ``irshape check`` reads one large file on a machine of two or more cores, to show where
  the time goes.

Wall time is measured around the whole process (start-up, imports and all); each child also
reports the time of the work itself, after its imports, and its peak RSS (``VmHWM`` from
``/proc/self/status``; ``ru_maxrss`` elsewhere). irshape reads a large file on two processes
(a forked reader), so memory is also measured for the whole process tree, in runs of their
own (not timed): the peak of the sum of the processes' PSS (shared pages split among the
processes that share them), sampled every 2 ms from ``/proc/PID/smaps_rollup`` (Linux only).
The IRs are generated in a child process too, so that this one stays small: a child starts
as a copy of it, and ``ru_maxrss`` counts that copy. Every measurement is the best of
``--repeat`` runs. The figures are printed, never asserted: this is a benchmark, not a test.

The children run with bytecode, as installed packages have it (``bench/bytecode.py``; without
it, with ``PYTHONDONTWRITEBYTECODE`` set, irshape compiled its modules at every run and
OpenVINO did not); a first, untimed run of each program fills the cache.

The targets (issue 6): on the 20k-layer IR, irshape's wall time at most OpenVINO's, and its
peak memory at most half OpenVINO's (the process tree's, as irshape may use two processes).
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bytecode import bytecode_env

REPO = Path(__file__).resolve().parent.parent

# The child programs print, on stderr, the seconds their imports and their work took and their
# peak RSS in KiB: VmHWM from /proc (the high-water mark of this program's own memory, which
# exec resets), or ru_maxrss where there is no /proc.
PEAK_RSS = """
def peak_rss_kib():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
"""
IRSHAPE_CHILD = (
    PEAK_RSS
    + """
import sys, time
t0 = time.perf_counter()
from irshape import lifetime
from irshape.cli import run
import irshape.cli.group, irshape.cli.check  # what `irshape check` imports to parse its arguments
t1 = time.perf_counter()
sys.argv = ["irshape", "check", *sys.argv[2:], sys.argv[1]]  # options after the path: -j 1
exit_now = lifetime.hard_exit


def report_then_exit(code):  # the program ends in lifetime.hard_exit: report just before
    t2 = time.perf_counter()
    print(f"@@ {t1 - t0:.6f} {t2 - t1:.6f} {peak_rss_kib()}", file=sys.stderr)
    exit_now(code)


lifetime.hard_exit = report_then_exit
run()
"""
)
IRSHAPE_CHILD_J1 = IRSHAPE_CHILD.replace("*sys.argv[2:]", '"-j", "1"')
READ_CHILD = (
    PEAK_RSS
    + """
import gc, sys, time
gc.disable()  # as the irshape program runs
t0 = time.perf_counter()
from irshape.ir.reader import read_file
t1 = time.perf_counter()
document = read_file(sys.argv[1], processes=2).document  # as `irshape check` reads one file
t2 = time.perf_counter()
assert document is not None and document.layers
print(f"@@ {t1 - t0:.6f} {t2 - t1:.6f} {peak_rss_kib()}", file=sys.stderr)
"""
)
OPENVINO_CHILD = (
    PEAK_RSS
    + """
import sys, time
t0 = time.perf_counter()
import openvino as ov
t1 = time.perf_counter()
model = ov.Core().read_model(sys.argv[1])
t2 = time.perf_counter()
assert len(model.get_ops()) > 0
print(f"@@ {t1 - t0:.6f} {t2 - t1:.6f} {peak_rss_kib()}", file=sys.stderr)
"""
)

# The phases of an `irshape check` run, timed in the program itself: the function of each
# phase is wrapped to add the time it takes (over every call: a run over many files adds its
# files' up). The reading is the scanner's (irshape.ir.scan) for a file of ov.save_model's
# layout, else lxml's parse and the model built from its elements (a file the scanner declines
# counts in all three: the scanner's try, then lxml's reading). The wrappers cost about 0.1 us a
# call, and the two called many times (the lxml parser's feed, once a chunk; compare_declared,
# once a layer whose check is not a repeat) are called a few thousand times at most. With
# "count", a profile hook counts the Python and C function calls of each phase instead (a
# deterministic measure of the work: the machine's wall time moves +-25%); with "mark",
# os.getppid() is called at each boundary of the reading, the index, the graph checks, the
# check and the freeing of the previous file's objects as the next begins (lifetime.release:
# the read's and the check's objects, not the report's, so a phase of its own), where
# `valgrind --tool=callgrind --dump-before=getppid` writes the instructions counted since the
# boundary before. "imports" are what the program imports before its first file (the command's
# modules, click among them); a module imported for a file counts in the phase that needs it.
PHASES_CHILD = """
import os, sys, time
mode = sys.argv[2]
calls = 0
def counter(frame, event, arg):
    global calls
    if event == "call" or event == "c_call":
        calls += 1
def now():
    return calls if mode == "count" else time.perf_counter()
if mode == "count":
    sys.setprofile(counter)
started = now()
boundaries = []  # in order: each is where callgrind's next dump ends
def mark(name):
    boundaries.append(name)
    if mode == "mark":
        os.getppid()
from irshape import lifetime, api
from irshape.check import graph, model
from irshape.cli import run
from irshape.ir import scan, stream
import irshape.cli.group, irshape.cli.check  # what `irshape check` imports to parse its arguments
imported = now()
mark("imported")
phase_names = ("read", "scan", "parse", "index", "graph checks", "check", "compare dims", "free")
spent = dict.fromkeys(phase_names, 0.0)
depth = dict.fromkeys(phase_names, 0)  # how many calls of each phase are open
def phase(name, function, marked, within=None):
    # A phase's own figure includes the phases it calls; one called within ``within`` is
    # that phase's (the scanner hands the tail after </edges> to lxml: scanning, not parsing).
    def wrapped(*args, **kwargs):
        if within is not None and depth[within]:
            return function(*args, **kwargs)
        if marked:
            mark(name + " begins")
        depth[name] += 1
        begin = now()
        try:
            return function(*args, **kwargs)
        finally:
            if depth[name] == 1:  # (a phase calling itself counts once)
                spent[name] += now() - begin
            depth[name] -= 1
            if marked:
                mark(name + " ends")
    return wrapped
scan.scan_file = phase("scan", scan.scan_file, False)
scan.scan_bytes = phase("scan", scan.scan_bytes, False)
stream.LinedParser.feed = phase("parse", stream.LinedParser.feed, False, within="scan")
stream.LinedParser.close = phase("parse", stream.LinedParser.close, False, within="scan")
model.compare_declared = phase("compare dims", model.compare_declared, False)
api.read_file = phase("read", api.read_file, True)
api.check_document = phase("check", api.check_document, True)
graph.build_graph = phase("index", graph.build_graph, True)
lifetime.release = phase("free", lifetime.release, True)
model._Walker._structural_checks = phase("graph checks", model._Walker._structural_checks, True)
sys.argv = ["irshape", "check", "-q", *sys.argv[3:], sys.argv[1]]
exit_now = lifetime.hard_exit
def report_then_exit(code):
    end = now()
    mark("end")
    sys.setprofile(None)
    walk = spent["check"] - spent["index"] - spent["graph checks"]
    figures = {
        "imports": imported - started,
        "scan (irshape.ir.scan)": spent["scan"],
        "parse (lxml)": spent["parse"],
        "build the model (lxml)": spent["read"] - spent["scan"] - spent["parse"],
        "index the graph": spent["index"],
        "graph checks": spent["graph checks"],
        "check layers": walk - spent["compare dims"],
        "compare dims": spent["compare dims"],
        "free the previous file": spent["free"],
        "report": end - imported - spent["read"] - spent["check"] - spent["free"],
    }
    print("@@ " + repr(figures), file=sys.stderr)
    print("@@boundaries " + " ".join(b.replace(" ", "_") for b in boundaries), file=sys.stderr)
    exit_now(code)
lifetime.hard_exit = report_then_exit
run()
"""


def marked_phase(boundary: str) -> str:
    """The phase the instructions before a boundary belong to (callgrind's dump there)."""
    if boundary == "imported":
        return "imports"
    if boundary in ("read_ends",):
        return "read (parse + build)"
    if boundary == "index_ends":
        return "index the graph"
    if boundary == "graph_checks_ends":
        return "graph checks"
    if boundary in ("check_ends", "index_begins", "graph_checks_begins"):
        return "walk (check + compare)"
    if boundary == "free_ends":
        return "free the previous file"
    return "report"  # before a file's reading or check, or the end: the program around them


@dataclass
class Run:
    wall: float  # seconds, the whole process
    imports: float  # seconds the child spent importing
    work: float  # seconds of the work itself
    rss_mb: float  # peak resident set size, MiB
    output: str


# The children's environment, set by main(): bytecode as installed (bench/bytecode.py).
CHILD_ENV: dict[str, str] | None = None


def run_child(program: str, xml: Path) -> Run:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", program, str(xml)], capture_output=True, cwd=REPO, env=CHILD_ENV, check=False
    )
    wall = time.perf_counter() - start
    text = proc.stderr.decode(errors="replace")
    marker = [line for line in text.splitlines() if line.startswith("@@ ")]
    if not marker:
        raise RuntimeError(f"child failed (exit {proc.returncode}):\n{text[-2000:]}")
    imports, work, peak_kib = (float(x) for x in marker[-1].split()[1:])
    return Run(wall, imports, work, peak_kib / 1024, proc.stdout.decode(errors="replace"))


_RUNS: dict[tuple[str, Path], Run] = {}


def tree_peak_pss_mib(program: str, xml: Path) -> float | None:
    """The peak of the summed PSS of the child and its descendants (None without /proc)."""
    if not Path("/proc/self/smaps_rollup").exists():
        return None
    proc = subprocess.Popen(
        [sys.executable, "-c", program, str(xml)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=REPO,
        env=CHILD_ENV,
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, sum(_pss_kib(pid) for pid in _tree(proc.pid)))
        time.sleep(0.002)
    return peak / 1024


def _tree(pid: int) -> list[int]:
    pids, stack = [], [pid]
    while stack:
        pid = stack.pop()
        pids.append(pid)
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                stack += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            pass
    return pids


def _pss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def best(program: str, xml: Path, repeat: int) -> Run:
    if (program, xml) in _RUNS:
        return _RUNS[program, xml]
    run_child(program, xml)  # untimed: fills the bytecode cache, warms the file cache
    runs = [run_child(program, xml) for _ in range(repeat)]
    _RUNS[program, xml] = Run(
        wall=min(r.wall for r in runs),
        imports=min(r.imports for r in runs),
        work=min(r.work for r in runs),
        rss_mb=min(r.rss_mb for r in runs),
        output=runs[-1].output,
    )
    return _RUNS[program, xml]


# --------------------------------------------------------------------------- the IRs


def generate(layers: int, directory: Path, dynamic: bool = False) -> tuple[Path, int]:
    """Save a model of about ``layers`` layers (IR ``<layer>`` elements) in ``directory``.

    One block mixes what converted CNNs and transformers are made of: the four convolutions,
    pooling, element-wise ops, and an attention-like part (a ShapeOf -> Gather -> Concat shape
    subgraph into a Reshape, Transpose, MatMul, Softmax, Multiply), with the Consts and the
    Converts that ``ov.save_model`` writes for f16-compressed weights. With ``dynamic`` the
    input is ``[?,8,?,?]`` and every shape downstream is computed with intervals.
    """
    import numpy as np
    import openvino as ov
    import openvino.opset1 as ops1
    import openvino.opset13 as ops

    rng = np.random.default_rng(0)
    channels, size = 8, 8

    def weights(*shape: int) -> object:
        return ops.constant((rng.random(shape, dtype=np.float32) - 0.5).astype(np.float32))

    def ints(*values: int) -> object:
        return ops.constant(np.array(values, dtype=np.int64))

    def block(x: object) -> object:
        c1 = ops.convolution(x, weights(channels, channels, 3, 3), [1, 1], [1, 1], [1, 1], [1, 1])
        r1 = ops.relu(c1)
        pooled = ops1.max_pool(r1, [1, 1], [1, 1], [1, 1], [3, 3])
        g1 = ops.group_convolution(pooled, weights(channels, 1, 1, 3, 3), [1, 1], [1, 1], [1, 1], [1, 1])
        a1 = ops.add(g1, x)
        d1 = ops.convolution_backprop_data(
            a1, weights(channels, channels, 3, 3), [1, 1], pads_begin=[1, 1], pads_end=[1, 1]
        )
        s1 = ops.sigmoid(d1)
        # Attention-like: [N, C, H, W] -> [N, C, H*W] -> [N, H*W, C], through a shape subgraph.
        head = ops.gather(ops.shape_of(s1), ints(0, 1), ints(0))
        flat = ops.reshape(s1, ops.concat([head, ints(-1)], 0), special_zero=False)
        tokens = ops.transpose(flat, ints(0, 2, 1))
        scores = ops.softmax(ops.matmul(tokens, weights(channels, channels), False, False), 2)
        mixed = ops.transpose(ops.multiply(scores, tokens), ints(0, 2, 1))
        back = ops.reshape(mixed, ops.shape_of(s1), special_zero=False)
        cat = ops.concat([back, a1], 1)
        return ops.convolution(
            cat, weights(channels, 2 * channels, 1, 1), [1, 1], [0, 0], [0, 0], [1, 1]
        ).output(0)

    shape = [-1, channels, -1, -1] if dynamic else [1, channels, size, size]
    probe = ops.parameter(shape, np.float32)
    per_block = len(ov.Model([ops.result(block(probe.output(0)))], [probe]).get_ops()) - 2
    param = ops.parameter(shape, np.float32, name="input")
    x = param.output(0)
    for _ in range(max(1, (layers - 2) // (per_block + 4))):  # + the Converts of 4 f16 weights
        x = block(x)
    name = f"bench_{layers}{'_dynamic' if dynamic else ''}"
    model = ov.Model([ops.result(x)], [param], name)
    xml = directory / f"{name}.xml"
    ov.save_model(model, xml)
    count = sum(1 for line in xml.open("rb") if line.lstrip().startswith(b"<layer "))
    return xml, count


# --------------------------------------------------------------------------- the report


def run_phases(
    target: Path, mode: str, jobs: list[str], wrap: list[str] | None = None
) -> tuple[dict[str, float], list[str]]:
    """One run of the phase child: its figures, and the boundaries it marked in order."""
    proc = subprocess.run(
        [*(wrap or []), sys.executable, "-c", PHASES_CHILD, str(target), mode, *jobs],
        capture_output=True,
        cwd=REPO,
        env=CHILD_ENV,
        check=False,
    )
    lines = proc.stderr.decode(errors="replace").splitlines()
    figures = [line[3:] for line in lines if line.startswith("@@ ")]
    boundaries = [line.split()[1:] for line in lines if line.startswith("@@boundaries")]
    if not figures or not boundaries:
        raise RuntimeError(f"phase child failed (exit {proc.returncode}):\n{chr(10).join(lines[-20:])}")
    return ast.literal_eval(figures[-1]), boundaries[-1]


def instructions(target: Path) -> dict[str, float] | None:
    """Millions of instructions of each marked phase at -j 1 (valgrind's callgrind), or None."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    with tempfile.TemporaryDirectory(prefix="irshape-callgrind-") as directory:
        out = Path(directory) / "callgrind.out"
        wrap = [valgrind, "--tool=callgrind", "--dump-before=getppid", f"--callgrind-out-file={out}"]
        _, boundaries = run_phases(target, "mark", ["-j", "1"], wrap)
        counted: dict[str, float] = {}
        # Dump k holds the instructions from boundary k-1 (the process's start) to boundary k.
        for index, boundary in enumerate(boundaries, start=1):
            text = Path(f"{out}.{index}").read_text()
            summary = next(line for line in text.splitlines() if line.startswith("summary:"))
            phase = marked_phase(boundary)
            counted[phase] = counted.get(phase, 0.0) + int(summary.split()[1]) / 1e6
    return counted


def phases(xml: Path, repeat: int, with_instructions: bool) -> None:
    """Where `irshape check -j 1`'s time goes, phase by phase: seconds (best of ``repeat``,
    each phase's own best), function calls (deterministic) and, with valgrind, instructions."""
    runs = [run_phases(xml, "time", ["-j", "1"])[0] for _ in range(repeat + 1)][1:]  # (the first warms)
    seconds = {phase: min(run[phase] for run in runs) for phase in runs[0]}
    calls, _ = run_phases(xml, "count", ["-j", "1"])
    counted = instructions(xml) if with_instructions else None
    work = sum(v for k, v in seconds.items() if k != "imports")
    print(f"\nphases of irshape check -j 1 ({xml.name}), best of {repeat} each; calls: Python and C calls")
    if xml.is_dir():
        print(f"({len(list(xml.glob('*.xml')))} files: each phase's time is the sum over them)")
    print(f"{'phase':24}{'seconds':>10}{'share':>8}{'calls':>12}")
    for phase, value in seconds.items():
        share = f"{value / work:>7.0%}" if phase != "imports" else f"{'':>7}"
        print(f"{phase:24}{value:>10.3f} {share}{int(calls[phase]):>12,}")
    print(
        f"{'work (all but imports)':24}{work:>10.3f}{'':>8}{int(sum(calls.values()) - calls['imports']):>12,}"
    )
    if counted is not None:
        print("instructions (callgrind, -j 1), millions:")
        for phase, value in counted.items():
            print(f"  {phase:24}{value:>10,.0f}")


def compare(xml: Path, count: int, repeat: int, with_instructions: bool = False) -> None:
    size_mb = xml.stat().st_size / 2**20
    irs = best(IRSHAPE_CHILD, xml, repeat)
    ov_ = best(OPENVINO_CHILD, xml, repeat)
    one = best(IRSHAPE_CHILD_J1, xml, repeat)
    summary = irs.output.strip().splitlines()[-1] if irs.output.strip() else "(no output)"
    print(f"\n{xml.name}: {count} layers, {size_mb:.1f} MiB of XML  [irshape: {summary}]")
    print(f"{'':24}{'irshape check':>16}{'ov read_model':>16}{'ratio':>9}")
    rows = [
        ("wall time, process", irs.wall, ov_.wall, "s"),
        ("  of which imports", irs.imports, ov_.imports, "s"),
        ("  of which the work", irs.work, ov_.work, "s"),
        ("peak RSS, main process", irs.rss_mb, ov_.rss_mb, "MiB"),
    ]
    irs_tree, ov_tree = tree_peak_pss_mib(IRSHAPE_CHILD, xml), tree_peak_pss_mib(OPENVINO_CHILD, xml)
    if irs_tree is not None and ov_tree is not None:
        rows.append(("peak PSS, process tree", irs_tree, ov_tree, "MiB"))
    for label, a, b, unit in rows:
        fmt = "{:>13.1f} {:<3}" if unit == "MiB" else "{:>13.3f} {:<2} "
        print(f"{label:24}" + fmt.format(a, unit) + fmt.format(b, unit) + f"{a / b:>8.2f}x")
    read = best(READ_CHILD, xml, repeat)
    print(
        f"where irshape's work goes: reading the XML (read_file, two processes) {read.work:.3f} s, peak RSS "
        f"{read.rss_mb:.1f} MiB; checking the graph and layers {max(irs.work - read.work, 0):.3f} s"
    )
    print("irshape check against ov read_model, same run (wall: whole processes; work: after imports):")
    for label, run in (("-j 1", one), ("default -j", irs)):
        print(
            f"  {label:11} wall {run.wall:.3f} s ({run.wall / ov_.wall:.2f}x)"
            f"   work {run.work:.3f} s ({run.work / ov_.work:.2f}x)"
        )
    phases(xml, repeat, with_instructions)


def scaling(sizes: list[tuple[Path, int]], repeat: int) -> None:
    print("\nscaling: time per layer (the work, after imports; wall includes start-up)")
    columns = ("irshape work", "irshape wall", "ov work", "ov wall")
    print(f"{'layers':>8}" + "".join(f"{c:>16}" for c in columns) + f"{'irshape RSS':>13}")
    for xml, count in sizes:
        irs = best(IRSHAPE_CHILD, xml, repeat)
        ov_ = best(OPENVINO_CHILD, xml, repeat)

        def per(seconds: float, count: int = count) -> str:
            return f"{seconds / count * 1e6:>11.1f} us/l"

        print(f"{count:>8}{per(irs.work)}{per(irs.wall)}{per(ov_.work)}{per(ov_.wall)}{irs.rss_mb:>9.1f} MiB")


def generated(layers: int, directory: Path, dynamic: bool = False) -> tuple[Path, int]:
    """Generate in a child process, so that this one stays small (its children start as copies)."""
    start = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            __file__,
            "--generate",
            str(layers),
            str(directory),
            *(["--dynamic"] if dynamic else []),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    path, count = proc.stdout.split()
    print(f"generated {Path(path).name} ({count} layers) in {time.perf_counter() - start:.1f} s")
    return Path(path), int(count)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[20_000, 100_000], help="IRs to compare")
    parser.add_argument("--scaling", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    parser.add_argument("--keep", type=Path, help="write the IRs here and keep them")
    parser.add_argument("--dynamic", action="store_true", help="inputs [?,8,?,?]: shapes with intervals")
    parser.add_argument(
        "--instructions", action="store_true", help="also count each phase's instructions (valgrind, slow)"
    )
    parser.add_argument(
        "--phases",
        type=Path,
        nargs="*",
        default=[],
        help="only the phase table of these IRs or directories (e.g. fixtures/networks)",
    )
    parser.add_argument("--generate", type=int, help=argparse.SUPPRESS)
    parser.add_argument("directory", type=Path, nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.generate:  # the child that writes one IR
        path, count = generate(args.generate, args.directory, args.dynamic)
        print(path, count)
        return

    global CHILD_ENV
    with tempfile.TemporaryDirectory(prefix="irshape-bench-") as tmp, bytecode_env() as CHILD_ENV:
        directory = args.keep or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        irs: dict[int, tuple[Path, int]] = {}

        def ir(layers: int) -> tuple[Path, int]:
            if layers not in irs:
                irs[layers] = generated(layers, directory, args.dynamic)
            return irs[layers]

        print(f"python {sys.version.split()[0]}, best of {args.repeat}")
        if args.phases:
            for target in args.phases:
                phases(target, args.repeat, args.instructions)
            return
        for layers in args.sizes:
            compare(*ir(layers), args.repeat, args.instructions)
        if args.scaling:
            scaling([ir(n) for n in args.scaling], args.repeat)


if __name__ == "__main__":
    main()
