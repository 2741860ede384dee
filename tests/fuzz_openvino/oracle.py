"""Both verdicts on one edited file, and the disagreement between them, if any.

OpenVINO's verdict: ``ov.Core().read_model`` reads the file (then the output shape of every op,
by its IR name) or raises (then the last line of its message). irshape's: its findings and the
shapes it infers. They agree when

* OpenVINO rejects the file and irshape reports at least one error that is not only about
  declared dims (OpenVINO ignores those; a file it rejects has a real fault), or
* OpenVINO reads it, irshape's errors are all in :data:`ALLOWED_WHEN_READ` (declared dims that
  contradict OpenVINO's, and the deliberate findings the README documents), and every shape
  irshape infers for a layer OpenVINO built is OpenVINO's.

An internal error (IRS901) is always a disagreement. Files are run in worker processes
(``run_many``); a worker that dies is reported as such, with the seed, never swallowed.
"""

from __future__ import annotations

import os
import re
import resource
import tempfile
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from .edits import Edited, edited

# irshape errors a file OpenVINO reads may still get: declared dims OpenVINO ignores
# (IRS301/302 at a layer, IRS411 on an edge, IRS416 at a Parameter or Const), negative strides
# and dilations (IRS109: OpenVINO reads them as 2^64 - n, a deliberate error), and the XML
# defects pugixml reads past (IRS001, reported while the layers are still checked).
ALLOWED_WHEN_READ = frozenset({"IRS301", "IRS302", "IRS411", "IRS416", "IRS109", "IRS001"})
DECLARED_ONLY = frozenset({"IRS301", "IRS302", "IRS411", "IRS416"})


@dataclass
class Verdicts:
    seed: int
    base: str
    kinds: tuple[str, ...]
    edits: list[tuple[str, str]]
    ov_error: str | None  # None: read_model read the file
    ov_shapes: dict[str, str]
    irshape_errors: list[tuple[str, str, str]]  # (code, layer name, message)
    irshape_shapes: dict[str, str]
    disagreement: str | None = None  # its class, None when the verdicts agree
    detail: str = ""
    notes: list[str] = field(default_factory=list)


_HEADERS = re.compile(r"^(Exception from src/|Check '.*' failed at |While validating node )")


def ov_last_line(message: str) -> str:
    """OpenVINO's own message, without the lines that say where in its source it was raised
    (a quoted value may span lines, so everything after the last such line is kept)."""
    lines = message.splitlines()
    last = max((i for i, line in enumerate(lines) if _HEADERS.match(line)), default=-1)
    return " ".join(line.strip() for line in lines[last + 1 :] if line.strip()) or message.strip()


def _write(d: Edited, folder: Path) -> Path:
    xml = folder / "m.xml"
    xml.write_bytes(d.xml.encode("utf-8"))
    xml.with_suffix(".bin").write_bytes(d.bin)
    return xml


def openvino_verdict(xml: Path) -> tuple[str | None, dict[str, str]]:
    import openvino as ov

    try:
        model = ov.Core().read_model(str(xml))
    except Exception as exc:  # RuntimeError, and anything else read_model raises
        return ov_last_line(str(exc)) or type(exc).__name__, {}
    shapes: dict[str, str] = {}
    names: dict[str, int] = {}
    for op in model.get_ops():
        name = op.get_friendly_name()
        names[name] = names.get(name, 0) + 1
        if op.get_output_size() == 1:
            shapes[name] = str(op.get_output_partial_shape(0))
    return None, {k: v for k, v in shapes.items() if names[k] == 1}


def irshape_verdict(xml: Path) -> tuple[list[tuple[str, str, str]], dict[str, str]]:
    import irshape

    report = irshape.check_file(xml)
    errors = [(d.code, d.layer_name or "", d.message) for d in report.errors]
    internal = [(d.code, d.layer_name or "", d.message) for d in report.diagnostics if d.code == "IRS901"]
    names: dict[str, int] = {}
    for layer in report.layers:
        names[layer.name or ""] = names.get(layer.name or "", 0) + 1
    shapes = {
        layer.name: str(layer.outputs[0])
        for layer in report.layers
        if layer.checked and len(layer.outputs) == 1 and layer.name and names[layer.name] == 1
    }
    return errors + [e for e in internal if e not in errors], shapes


def judge(
    d: Edited,
    ov_error: str | None,
    ov_shapes: dict[str, str],
    errors: list[tuple[str, str, str]],
    shapes: dict[str, str],
) -> Verdicts:
    v = Verdicts(d.seed, d.base, d.kinds, d.edits, ov_error, ov_shapes, errors, shapes)
    codes = sorted({c for c, _, _ in errors})
    if "IRS901" in codes:
        v.disagreement = "internal-error"
        v.detail = next(m for c, _, m in errors if c == "IRS901")
        return v
    if ov_error is not None and ("bad_alloc" in ov_error or "Cannot allocate memory" in ov_error):
        v.notes.append("OpenVINO ran out of the worker's memory: no verdict")
        return v
    if ov_error is not None:
        # A repaired XML defect (irshape read past it, as pugixml does) is not the fault OpenVINO
        # stopped at: it does not count as catching it.
        real = [
            c for c, _, m in errors if c not in DECLARED_ONLY and not (c == "IRS001" and "reads past" in m)
        ]
        if not real:
            v.disagreement = "missed:" + normalize(ov_error)
            v.detail = f"OpenVINO: {ov_error}; irshape errors: {codes or 'none'}"
        return v
    extra = [c for c in codes if c not in ALLOWED_WHEN_READ]
    if extra:
        v.disagreement = "false-error:" + ",".join(extra)
        v.detail = "; ".join(f"{c} {n}: {m}" for c, n, m in errors if c in extra)[:600]
        return v
    wrong = [
        f"{name}: irshape {shape}, OpenVINO {ov_shapes[name]}"
        for name, shape in sorted(shapes.items())
        if name in ov_shapes and ov_shapes[name] != shape
    ]
    if wrong:
        v.disagreement = "shape"
        v.detail = "; ".join(wrong)
    return v


def normalize(message: str) -> str:
    """An OpenVINO message with its particulars (numbers, quoted values, names) taken out."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'_'", message, flags=re.S)
    text = re.sub(r"(type:|dimension) .*?( in node|$)", r"\1 _\2", text)
    text = re.sub(r"\d+", "N", text)
    text = re.sub(r"(layer|node|id:?) \S+", r"\1 _", text)
    return text[:120]


def both_verdicts(xml: Path) -> tuple[str | None, dict[str, str], list[tuple[str, str, str]], dict[str, str]]:
    return (*openvino_verdict(xml), *irshape_verdict(xml))


def in_worker(xml: Path) -> tuple[str | None, dict[str, str], list[tuple[str, str, str]], dict[str, str]]:
    """Both verdicts on a file, in a worker with the memory limit (a file may ask for 16 GB)."""
    with ProcessPoolExecutor(1, mp_context=get_context("spawn"), initializer=_init_worker) as pool:
        return pool.submit(both_verdicts, xml).result()


def run_one(seed: int) -> Verdicts:
    d = edited(seed)
    with tempfile.TemporaryDirectory(prefix="irshape-fuzz-") as tmp:
        xml = _write(d, Path(tmp))
        ov_error, ov_shapes = openvino_verdict(xml)
        errors, shapes = irshape_verdict(xml)
    return judge(d, ov_error, ov_shapes, errors, shapes)


MEMORY_LIMIT = 3 << 30  # a file may ask OpenVINO for 10 GB (a huge dim); the machine is shared


def _init_worker() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    # read_model tries every frontend on a file the IR one refuses; the others log to stderr.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    import openvino  # noqa: F401

    import irshape  # noqa: F401


def run_many(seeds: Iterable[int], workers: int = 2, chunk: int = 20) -> Iterator[Verdicts]:
    """The verdicts of every seed, on ``workers`` processes (spawned: OpenVINO and fork do not mix)."""
    pending = list(seeds)
    while pending:
        ctx = get_context("spawn")
        try:
            with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker) as pool:
                for seed, v in zip(pending, pool.map(run_one, pending, chunksize=chunk), strict=False):
                    pending = pending[1:] if pending and pending[0] == seed else pending
                    yield v
            pending = []
        except BrokenProcessPool:
            # A worker died. The pool names no file, so the first seed in line is run again,
            # alone in a fresh worker: a file that kills it again is reported; a death that
            # does not recur (seen at times on the shared machine) is not the file's.
            seed = pending[0]
            yield _alone(seed)
            pending = pending[1:]


def _alone(seed: int) -> Verdicts:
    """The verdict of ``seed`` in a worker of its own; ``worker-died`` when it dies there too."""
    try:
        with ProcessPoolExecutor(1, mp_context=get_context("spawn"), initializer=_init_worker) as pool:
            return pool.submit(run_one, seed).result()
    except BrokenProcessPool:
        return _crashed(seed)


def _crashed(seed: int) -> Verdicts:
    """The pool broke with ``seed`` first in line (it may not be the file that broke it)."""
    d = edited(seed)
    v = Verdicts(seed, d.base, d.kinds, d.edits, "worker died", {}, [], {})
    v.disagreement = "worker-died"
    return v
