"""The environment the benchmarks run their child processes in: with bytecode, as installed.

Python writes no bytecode when ``PYTHONDONTWRITEBYTECODE`` is set, and then compiles every
module it imports from source at each start. pip compiles an installed package's bytecode
(irshape's, OpenVINO's, click's), but an editable install of irshape has none, so on a machine
with that variable set every timed run of irshape would compile its ~100 modules (~0.1 s) and
OpenVINO's none. The children therefore run with bytecode written to a cache directory of
their own (``PYTHONPYCACHEPREFIX``), which a first, untimed run of each program fills.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def bytecode_env() -> Iterator[dict[str, str]]:
    """The environment for the children, with its bytecode cache (removed at the end)."""
    with tempfile.TemporaryDirectory(prefix="irshape-pyc-") as cache:
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache
        yield env
