"""One BLAS thread for loops of tiny matrix products (the recurrent kernels' steps).

numpy's OpenBLAS splits every product above a few thousand multiply-adds across its threads.
For one recurrent step (``[batch, hidden] @ [hidden, gates * hidden]``, microseconds of work)
waking and joining those threads costs more than the product, and on a busy machine (two cores
shared with other processes) a product can wait milliseconds for a thread that is not
scheduled: a 16 x 128 by 128 x 512 product took 13 ms with the threads, 0.05 ms without.
:func:`one_blas_thread` sets OpenBLAS to one thread for the duration of such a loop and puts
the count back afterwards, as threadpoolctl does, through the library numpy loaded. Where no
OpenBLAS is found (another BLAS, an unusual build) it does nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
from collections.abc import Callable, Iterator
from typing import Any

# the thread-count functions of OpenBLAS builds: numpy's wheels (scipy-openblas, 64-bit
# integers with a suffix), and plain OpenBLAS
_SYMBOLS = (
    ("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),
    ("openblas_get_num_threads64_", "openblas_set_num_threads64_"),
    ("openblas_get_num_threads", "openblas_set_num_threads"),
)

ThreadCount = tuple[Callable[[], int], Callable[[int], None]]


@functools.cache
def _openblas() -> ThreadCount | None:
    """OpenBLAS's get/set thread-count functions in the library numpy loaded, if any."""
    import numpy as np  # (loads numpy's BLAS before the search)

    del np
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower() and "/" in line})
    except OSError:
        return None
    for path in paths:
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for get_name, set_name in _SYMBOLS:
            if hasattr(library, get_name) and hasattr(library, set_name):
                return _thread_count(getattr(library, get_name), getattr(library, set_name))
    return None


def _thread_count(getter: Any, setter: Any) -> ThreadCount:
    getter.restype = ctypes.c_int
    setter.argtypes = [ctypes.c_int]
    return (lambda: int(getter())), (lambda count: setter(count))


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """OpenBLAS runs on one thread inside the block (its count before is restored after)."""
    functions = _openblas()
    if functions is None:
        yield
        return
    get_threads, set_threads = functions
    before = get_threads()
    if before <= 1:
        yield
        return
    set_threads(1)
    try:
        yield
    finally:
        set_threads(before)
