"""The files a run checks: collecting them from paths and globs, and checking many at once.

Paths are collected in the order they are given (the files of a directory sorted), so output
is in a stable order whatever the number of workers. A file's findings never depend on other
files, which is what lets pre-commit split the files over several runs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import suppress
from fnmatch import fnmatchcase
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from irshape.api import check_file
from irshape.record import FrozenRecord, set_field
from irshape.results import FileReport

# Directories a walk never enters: version control, virtual environments, caches.
DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
)

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


# --- globs ------------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A path glob as a regex over a relative POSIX path; ``**`` spans directories."""
    parts = pattern.strip("/").split("/")
    out: list[str] = []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
            continue
        out.append(_segment_regex(part))
        if not last:
            out.append("/")
    # A pattern that matches a directory matches everything inside it.
    return re.compile("".join(out) + "(?:/.*)?")


def _segment_regex(segment: str) -> str:
    out, i = [], 0
    while i < len(segment):
        char = segment[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (end := segment.find("]", i + 2)) != -1:
            body = segment[i + 1 : end]
            negate = body.startswith("!")
            body = re.escape(body[1:] if negate else body).replace(r"\-", "-")
            out.append(f"[{'^' if negate else ''}{body}]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def glob_matches(pattern: str, path: str) -> bool:
    """Whether ``path`` (relative, POSIX) matches ``pattern``.

    A pattern without ``/`` matches any file or directory name in the path (``legacy``,
    ``*_broken.xml``); a pattern with ``/`` matches the path from its start, with ``*`` within
    one name and ``**`` across directories (``models/legacy``, ``models/**/tmp_*.xml``). A
    pattern that matches a directory matches everything below it.
    """
    pattern = pattern.strip()
    if not pattern:
        return False
    if "/" not in pattern.rstrip("/"):
        name = pattern.rstrip("/")
        return any(fnmatchcase(part, name) for part in path.split("/"))
    return _glob_regex(pattern).fullmatch(path) is not None


class Glob(FrozenRecord):
    """A glob and the directory its relative paths start from."""

    __slots__ = ("base", "pattern")
    pattern: str
    base: Path

    def __init__(self, pattern: str, base: Path) -> None:
        set_field(self, "pattern", pattern)
        set_field(self, "base", base)

    def matches(self, path: Path | str) -> bool:
        return glob_matches(self.pattern, relative_posix(path, self.base))


def relative_posix(path: Path | str, base: Path) -> str:
    """``path`` relative to ``base`` in POSIX form, or absolute if it is not below ``base``."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(os.path.abspath(base)).as_posix()
    except ValueError:
        return absolute.as_posix()


# --- collecting ---------------------------------------------------------------------------------


class Collected(FrozenRecord):
    __slots__ = ("excluded", "files")
    files: list[Path]
    excluded: list[Path]

    def __init__(self, files: list[Path], excluded: list[Path]) -> None:
        set_field(self, "files", files)
        set_field(self, "excluded", excluded)


def collect_files(paths: Iterable[str | os.PathLike[str]], exclude: Sequence[Glob] = ()) -> Collected:
    """The ``.xml`` files named by ``paths``: files as given, directories walked recursively.

    ``exclude`` applies to every path, files named explicitly included (so that a pre-commit
    hook honours the configured excludes); the walk also skips :data:`DEFAULT_EXCLUDE`.
    A file named twice is checked once.
    """
    result = Collected([], [])
    seen: set[str] = set()
    for given in paths:
        path = Path(os.fspath(given))
        candidates = _walk(path, exclude, result.excluded) if path.is_dir() else iter([path])
        for file in candidates:
            if any(glob.matches(file) for glob in exclude):
                result.excluded.append(file)
                continue
            key = os.path.realpath(file)
            if key not in seen:
                seen.add(key)
                result.files.append(file)
    return result


def _walk(root: Path, exclude: Sequence[Glob], excluded: list[Path]) -> Iterator[Path]:
    """The .xml files below ``root``, sorted by path (``a/z.xml`` before ``b.xml``)."""
    return iter(sorted(_walk_unsorted(root, exclude, excluded), key=lambda path: path.parts))


def _walk_unsorted(root: Path, exclude: Sequence[Glob], excluded: list[Path]) -> Iterator[Path]:
    for directory, dirnames, filenames in os.walk(root):
        keep = []
        for name in sorted(dirnames):
            sub = Path(directory, name)
            if name in DEFAULT_EXCLUDE:
                continue
            if any(glob.matches(sub) for glob in exclude):
                excluded.append(sub)
                continue
            keep.append(name)
        dirnames[:] = keep
        for name in sorted(filenames):
            if name.lower().endswith(".xml"):
                yield Path(directory, name)


# --- checking ----------------------------------------------------------------------------------


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
    paths = [Path(os.fspath(file)) for file in files]
    jobs = default_jobs() if jobs is None or jobs < 1 else jobs
    processes = 2 if len(paths) == 1 and jobs > 1 else 1  # one file: its reading can be shared
    worker = partial(_check_one, options=options or {}, processes=processes, layers=layers)
    jobs = min(jobs, len(paths))
    if jobs <= 1 or _total_size(paths) < PARALLEL_MIN_BYTES:
        return list(_tick(map(worker, paths), progress))
    chunksize = max(1, min(16, len(paths) // (jobs * 8)))
    # Imported here: the process pool's modules cost ~15 ms of every start-up.
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            return list(_tick(pool.map(worker, paths, chunksize=chunksize), progress))
    except BrokenProcessPool as exc:
        raise WorkerDied(str(exc)) from exc


def _check_one(path: Path, *, options: Mapping[str, Any], processes: int, layers: bool) -> FileReport:
    report = check_file(path, **options, processes=processes)
    if not layers:
        report.drop_layers()  # in the worker: nor are they sent back
    return report


def _total_size(files: Sequence[Path]) -> int:
    total = 0
    for file in files:
        with suppress(OSError):  # an unreadable file is reported when it is read
            total += file.stat().st_size
        if total >= PARALLEL_MIN_BYTES:
            break
    return total


def _tick(reports: Iterator[FileReport], progress: Callable[[int], None] | None) -> Iterator[FileReport]:
    for report in reports:
        if progress is not None:
            progress(1)
        yield report
