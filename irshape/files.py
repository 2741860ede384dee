"""Checking many files at once: on one process, or on a pool of ``-j`` processes.

A file's findings never depend on other files, which is what lets pre-commit split the files
over several runs, and a pool check them in any order: the reports come back in the order of
the files (collected by :func:`irshape.paths.collect_files`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import suppress
from functools import partial
from typing import Any

from irshape.api import check_file
from irshape.results import FileReport

# Processes, not threads: checking is pure Python, so threads share one core (measured on 2
# cores: a thread pool was 0.9x serial; a process pool 1.4x on 1360 small IRs, 0.66 s -> 0.47 s
# for the whole command, and 1.6x on 60 IRs of 60 convolutions each, 1.2 s -> 0.75 s).
# A pool costs 20-40 ms to start and feed, and irshape checks about 5 MB of IR a second on one
# core, so below this much XML the files are checked in this process.
PARALLEL_MIN_BYTES = 512 * 1024


def default_jobs() -> int:
    """The cores this process may run on that other programs leave idle (at least one).

    A second process is faster only on a core of its own: it costs more CPU than it saves
    (``bench/bench_jobs.py``, 2 cores at a load average of 8 to 11, median CPU time of 5 runs:
    the 20k-layer IR read on two processes 1.25 s against 1.03 s on one, 196 small files on a
    pool of two 2.40 s against 2.31 s), so on a machine other programs keep busy ``-j 2`` was
    slower than ``-j 1`` (0.89 s against 0.81 s on the 20k-layer IR, 12.1 s against 9.7 s on 490
    small files). The idle cores are the cores less the load average of the last minute,
    rounded, as ``make --load-average`` judges it; a dedicated CI runner has them all.
    """
    cores = _cores()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average here (Windows)
        return cores
    return max(1, min(cores, round(cores - load)))


def _cores() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class WorkerDied(RuntimeError):
    """A worker process of ``-j`` died (killed, out of memory); its files have no report."""


def check_files(
    files: Sequence[str | os.PathLike[str]],
    *,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    options: Mapping[str, Any] | None = None,
    layers: bool = True,
) -> list[FileReport]:
    """Check ``files`` with :func:`irshape.check_file` on up to ``jobs`` processes.

    The reports come back in the order of ``files``. ``options`` are keyword arguments of
    :func:`irshape.check_file`; ``progress`` is called with 1 after each file. Paths may be
    ``str`` or ``os.PathLike``. Without ``layers``, each report keeps only the counts of its
    layers (:meth:`FileReport.drop_layers`): memory stays flat however many files are checked.
    """
    paths = [os.fspath(file) for file in files]
    jobs = default_jobs() if jobs is None or jobs < 1 else jobs
    # Below PARALLEL_MIN_BYTES of XML a second process costs more than it saves: the files are
    # checked on this one, a single file read by it alone (irshape.ir.split, which may share a
    # large file's reading, is not even imported: ~6M instructions of a small file's start on
    # an idle machine of two cores or more).
    parallel = jobs > 1 and _total_size(paths) >= PARALLEL_MIN_BYTES
    processes = 2 if len(paths) == 1 and parallel else 1  # one large file: its reading can be shared
    worker = partial(_check_one, options=options or {}, processes=processes, layers=layers)
    jobs = min(jobs, len(paths))
    if jobs <= 1 or not parallel:
        return list(_tick(map(worker, paths), progress))
    chunksize = max(1, min(16, len(paths) // (jobs * 8)))
    # Imported here: the process pool's modules cost ~15 ms of every start-up.
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from irshape.forking import pool_context

    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=pool_context()) as pool:
            return list(_tick(pool.map(worker, paths, chunksize=chunksize), progress))
    except BrokenProcessPool as exc:
        raise WorkerDied(str(exc)) from exc


def _check_one(path: str, *, options: Mapping[str, Any], processes: int, layers: bool) -> FileReport:
    report = check_file(path, **options, processes=processes)
    if not layers:
        report.drop_layers()  # in the worker: nor are they sent back
    return report


def _total_size(files: Sequence[str]) -> int:
    total = 0
    for file in files:
        with suppress(OSError):  # an unreadable file is reported when it is read
            total += os.stat(file).st_size
        if total >= PARALLEL_MIN_BYTES:
            break
    return total


def _tick(reports: Iterator[FileReport], progress: Callable[[int], None] | None) -> Iterator[FileReport]:
    for report in reports:
        if progress is not None:
            progress(1)
        yield report
