"""irshape forks only a process of one thread (irshape.forking): with another thread running, a
large file is read by the process alone and the pool's workers come from a fork server, with
the same results.

Each case runs in a process of its own, whose threads it controls (this one may run OpenVINO's
thread pool, started by another test). A process counts its calls of ``os.fork`` by wrapping
it; the fork server's workers are forked by the server, not by the process that asks for them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="irshape forks only where os.fork exists")

# Wrap os.fork to count the calls of this process; start (or not) a thread that waits.
_PRELUDE = """
import json, os, sys, threading
forks = []
_fork = os.fork
def counted_fork():
    forks.append(1)
    return _fork()
os.fork = counted_fork
done = threading.Event()
if sys.argv[1] == "thread":
    threading.Thread(target=done.wait, daemon=True).start()
"""


def _run(program: str, threads: str, *args: str) -> dict[str, object]:
    code = _PRELUDE + textwrap.dedent(program)
    proc = subprocess.run(
        [sys.executable, "-c", code, threads, *args], capture_output=True, text=True, timeout=300, check=True
    )
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def test_a_process_of_one_thread_and_one_of_two() -> None:
    program = """
    from irshape.forking import pool_context, single_threaded
    context = pool_context()
    print(json.dumps({"single": single_threaded(), "method": context.get_start_method()}))
    """
    assert _run(program, "alone") == {"single": True, "method": "fork"}
    assert _run(program, "thread") == {"single": False, "method": "forkserver"}


def test_a_thread_that_ended_leaves_the_process_single_threaded() -> None:
    program = """
    import time
    from irshape.forking import single_threaded
    before = single_threaded()
    done.set()
    for thread in threading.enumerate():
        if thread is not threading.current_thread():
            thread.join()
    # join() returns once the thread's Python part is done; the system thread leaves
    # /proc/self/task a moment later (a CI run saw it still there right after join).
    deadline = time.monotonic() + 10
    while not single_threaded() and time.monotonic() < deadline:
        time.sleep(0.001)
    print(json.dumps({"before": before, "after": single_threaded()}))
    """
    assert _run(program, "thread") == {"before": False, "after": True}


def _net(layers: int) -> str:
    body = "".join(
        f'<layer id="{i}" name="r{i}" type="Relu" version="opset1"><input><port id="0" precision="FP32">'
        f"<dim>1</dim><dim>{i + 1}</dim></port></input></layer>\n"
        for i in range(layers)
    )
    return (
        f'<?xml version="1.0"?>\n<net name="n" version="11">\n<layers>\n{body}</layers>\n<edges/>\n</net>\n'
    )


def test_a_large_file_is_read_alone_beside_another_thread(tmp_path: Path) -> None:
    """The split read (irshape.ir.split) forks a child in a process of one thread, and reads
    alone beside another thread: the same document and findings either way."""
    path = tmp_path / "net.xml"
    path.write_text(_net(2_000))
    program = """
    from irshape.ir import reader, split
    split.SPLIT_MIN_BYTES = 1  # a small file split as a large one
    reader._scanned = lambda path, source: None  # the split is the lxml reader's
    alone = reader.read_file(sys.argv[2])
    shared = reader.read_file(sys.argv[2], processes=2)
    def summary(result):
        return [len(result.document.layers), [(d.code, d.line) for d in result.diagnostics]]
    print(json.dumps({"forks": len(forks), "same": summary(alone) == summary(shared),
                      "summary": summary(shared)}))
    """
    alone, beside = _run(program, "alone", str(path)), _run(program, "thread", str(path))
    assert alone["forks"] == 1 and beside["forks"] == 0
    assert alone["same"] is True and beside["same"] is True
    assert alone["summary"] == beside["summary"] == [2_000, []]


def test_the_pool_of_a_process_with_another_thread_forks_nothing_itself(tmp_path: Path) -> None:
    for i in range(6):
        text = _net(3).replace("<dim>2</dim>", "<dim>x</dim>") if i % 2 else _net(3)
        (tmp_path / f"net{i}.xml").write_text(text)
    program = """
    import glob
    import irshape.files
    irshape.files.PARALLEL_MIN_BYTES = 0  # a pool for small files
    files = sorted(glob.glob(sys.argv[2] + "/*.xml"))
    serial = irshape.files.check_files(files, jobs=1)
    before = len(forks)
    pooled = irshape.files.check_files(files, jobs=2)
    print(json.dumps({"forks": len(forks) - before, "same": pooled == serial,
                      "codes": [[d.code for d in r.diagnostics] for r in pooled]}))
    """
    alone, beside = _run(program, "alone", str(tmp_path)), _run(program, "thread", str(tmp_path))
    assert (alone["forks"], beside["forks"]) == (2, 0)  # a worker forked for each job, or none
    assert alone["same"] is True and beside["same"] is True
    codes = alone["codes"]
    assert isinstance(codes, list) and codes == beside["codes"]
    assert [("IRS005" in file_codes) for file_codes in codes] == [False, True] * 3  # in order
