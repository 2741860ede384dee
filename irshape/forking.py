"""Whether irshape may fork the process it runs in, and how its pool starts workers otherwise.

irshape starts other processes in two places: a large file's reading shared with a forked child
(:mod:`irshape.ir.split`) and the pool of ``-j`` (:func:`irshape.files.check_files`). A fork is
the cheap way to start them (the child has every module and table already), and it is safe only
in a process that runs one thread: the child starts with the forking thread alone, and a lock
another thread held at the fork (one of libxml2's, a stream's) stays held in it for good (Python
3.12 warns of such a fork). The ``irshape`` program runs one thread; a converter that calls
irshape with OpenVINO loaded runs OpenVINO's thread pool beside it. There, the reading is not
shared (the file is read by this process alone, as a small one is) and the pool's workers are
started by a fork server, a process of one thread that forks them.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

_TASKS = "/proc/self/task"  # Linux: a directory entry per thread of the process


def single_threaded() -> bool:
    """Does this process run one thread (its native threads counted where the system says)?"""
    try:
        return len(os.listdir(_TASKS)) == 1
    except OSError:  # no /proc: only the threads Python started are known
        import threading

        return threading.active_count() == 1


def pool_context() -> BaseContext:
    """How the pool starts its workers: by forking this process where it runs one thread (Python
    3.14 would start a fork server first, and each worker would import irshape again), else by a
    fork server where there is one, else as new interpreters (spawn, as on Windows)."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and single_threaded():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
