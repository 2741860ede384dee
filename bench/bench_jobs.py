"""Benchmark ``irshape check -j N``: one process against two, on one large IR and on many small ones.

Run from the repository root, irshape installed (``pip install -e .``)::

    python bench/bench_jobs.py                        # the fixture networks x10, best of 5
    python bench/bench_jobs.py --large bench_20000.xml --copies 10 --repeat 5

Workloads: ``--large`` (an IR ``bench/bench_scale.py --keep DIR`` wrote, read on two processes
at ``-j 2``), and ``--copies`` copies of ``fixtures/networks/*.xml`` (60 files each, checked by
a process pool at ``-j 2``). For each, ``irshape check`` is run at ``-j 1``, ``-j 2`` and with
no ``-j`` (the default), alternating, ``--repeat`` times; printed are the best and the median
wall time and the CPU time (user + system, the process tree's) of each, and the load average
(``os.getloadavg``) before and after: on a machine other programs load, a second process
finds no free core, and the wall times say so. The figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bytecode import bytecode_env

REPO = Path(__file__).resolve().parent.parent
NETWORKS = REPO / "fixtures" / "networks"


def _copies(directory: Path, count: int) -> Path:
    """``count`` copies of the fixture networks (real copies: a walk checks a file once)."""
    for index in range(count):
        for source in sorted(NETWORKS.glob("*.xml")):
            copy = directory / f"{source.stem}_{index}.xml"
            shutil.copyfile(source, copy)
            if source.with_suffix(".bin").exists():
                copy.with_suffix(".bin").symlink_to(source.with_suffix(".bin").resolve())
    return directory


def _run(target: Path, jobs: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one ``irshape check`` of ``target``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    command = [sys.executable, "-m", "irshape", "check", "--isolated", "-qq", *jobs, str(target)]
    subprocess.run(command, env=env, cwd=REPO, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def compare(label: str, target: Path, repeat: int, env: dict[str, str]) -> None:
    settings = {"-j 1": ["-j", "1"], "-j 2": ["-j", "2"], "default": []}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in settings}
    _run(target, [], env)  # warm up: the bytecode cache, the page cache
    load = os.getloadavg()[0]
    for _ in range(repeat):
        for name, jobs in settings.items():  # alternating, so that a change of load hits all
            times[name].append(_run(target, jobs, env))
    print(
        f"\n{label}  (load average {load:.1f} before, {os.getloadavg()[0]:.1f} after, {os.cpu_count()} cores)"
    )
    print(f"  {'':8} {'best wall':>10} {'median wall':>12} {'median cpu':>11}")
    for name, runs in times.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        best, median = min(walls), statistics.median(walls)
        print(f"  {name:8} {best:9.3f}s {median:11.3f}s {statistics.median(cpus):10.3f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", type=Path, help="a large IR (bench_scale.py --keep writes them)")
    parser.add_argument(
        "--copies", type=int, default=10, help="copies of the fixture networks (60 files each)"
    )
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with bytecode_env() as env:
        _compare_all(args, env)


def _compare_all(args: argparse.Namespace, env: dict[str, str]) -> None:
    if args.large is not None:
        compare(f"{args.large.name} (one file)", args.large, args.repeat, env)
    if args.copies:
        with tempfile.TemporaryDirectory() as temporary:
            files = _copies(Path(temporary), args.copies)
            count = len(list(files.glob("*.xml")))
            compare(f"{count} small files ({args.copies} x fixtures/networks)", files, args.repeat, env)


if __name__ == "__main__":
    main()
