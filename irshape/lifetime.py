"""How long a check's objects live: freed when the check is done, or kept for a quick exit.

A check of a large IR builds about a million small objects (the model, the graph index, the
walk's tensors). Freed one by one when the check returns, they cost ~40 ms of a 20,000-layer
run, and the interpreter's teardown frees the rest. The ``irshape`` program exits right after
its output, so it asks (:func:`keep_for_exit`) for the objects of the latest file to be kept
instead, and ends with :func:`hard_exit`, which frees nothing (as mypy ends its runs). The
library calls :func:`retire` with what it is done with, and :func:`release` when a file
begins: the previous file's objects go then, so memory stays that of one file.

Reference cycles. The model holds none, but every reading does: lxml's pull parser and the
document it builds refer to each other (``XMLPullParser`` -> its parser context -> ``_Document``
-> the parser), and they hold the libxml2 tree of what was parsed and the events not yet read,
about 1 MB a file. The program turns the cyclic collector off (its passes over a large model
free nothing else), so :func:`release` collects the youngest generation when a file begins:
with the collector off that is everything made since the last file, now mostly garbage, a pass
of a few milliseconds at most (measured in ``bench/bench_scale.py``).
"""

from __future__ import annotations

import gc
import os
import sys

_kept: list[object] | None = None  # None: nothing is kept, objects are freed as usual
_first_file = False  # the program's next file is its first


def keep_for_exit() -> None:
    """From now on, keep what :func:`retire` gets until :func:`release` or the exit."""
    global _kept, _first_file
    _kept = []
    _first_file = True


def retire(*objects: object) -> None:
    """Done with ``objects``: dropped by the caller as usual, or kept for the exit."""
    if _kept is not None:
        _kept.extend(objects)


def release() -> None:
    """Free what is kept, and the previous file's reference cycles (a new file begins)."""
    global _first_file
    if _kept is not None:
        _kept.clear()
        if _first_file:  # no file before it: a pass would only walk every object that the
            _first_file = False  # imports made, to free none (~6M instructions, ~1.5 ms)
            return
    if not gc.isenabled():  # on, the collector frees them as it goes
        gc.collect(0)


def hard_exit(code: int) -> None:
    """Flush the output and end the process without freeing anything."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # (no such file descriptor when the process started)
            continue
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: as the interpreter's exit does
            code = 120
    os._exit(code)
