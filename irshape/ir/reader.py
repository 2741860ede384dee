"""Read an IR ``.xml`` (a whole ``<net>`` or bare ``<layer>`` fragments), safely, streaming:
from a file or from bytes. A file in the regular layout ``ov.save_model`` writes, of 128 KiB or
more (or any, where the scanner starts cheaply), is read by the scanner (:mod:`irshape.ir.scan`);
any other, or one the scanner declines, with lxml (:mod:`irshape.ir.parse`), on one process or
(large files) two (:mod:`irshape.ir.split`), with the same result."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from irshape import rules
from irshape.diagnostics import Location
from irshape.ir import regex_cache
from irshape.ir.parse import CHUNK, Reader, ReadResult, clean

if TYPE_CHECKING:
    from irshape.ir.parse import Join

# From this size on, the scanner reads a file of its layout whatever it costs to start; below it,
# only where it starts cheaply (scan.ready(): its patterns made, or kept from an earlier start),
# as it does wherever bytecode is written. Else lxml reads a small file in fewer instructions
# than the patterns take to compile (~34M; lxml reads a layer in ~200k, the scanner in ~55k).
SCAN_MIN_BYTES = 128 << 10


def read_file(path: str | os.PathLike[str], *, processes: int = 1) -> ReadResult:
    """Read the IR file at ``path``, streaming: the file is never held whole in memory.

    With ``processes`` of 2 or more, a large file (4 MiB or more) is read on two processes,
    with the same result (see :mod:`irshape.ir.split`).
    """
    source = os.fspath(path)
    scanned = _scanned(path, source)
    if scanned is not None:
        return scanned
    join: Join | None = None
    if processes > 1:
        from irshape.ir import split  # only for large files, on request

        join = split.start(source)
    try:
        with open(source, "rb") as stream:

            def chunks() -> Iterator[bytes]:
                stream.seek(0)
                while chunk := stream.read(CHUNK):
                    yield chunk

            return Reader(str(path), source, join).read(chunks)
    except OSError as exc:
        reason = clean(str(exc.strerror or exc))
        return ReadResult(None, [rules.FILE_UNREADABLE(Location(path=str(path)), reason=reason)])
    finally:
        if join is not None:
            join.cancel()


def read_bytes(data: bytes, path: str, *, source: str | None = None) -> ReadResult:
    """Parse ``data`` (the text of ``path``) into a :class:`Document` and reading findings."""
    if len(data) >= SCAN_MIN_BYTES or _scanner_ready():
        from irshape.ir.scan import scan_bytes

        scanned = scan_bytes(data, path, source=source)
        if scanned is not None:
            return scanned
    view = memoryview(data)

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(view), CHUNK):
            yield bytes(view[start : start + CHUNK])

    return Reader(path, source).read(chunks)


def _scanned(path: str | os.PathLike[str], source: str) -> ReadResult | None:
    """The file read by the scanner, if it pays (a large file, or the scanner's patterns
    compiled already) and the scanner reads it."""
    try:
        if os.stat(source).st_size < SCAN_MIN_BYTES and not _scanner_ready():
            return None
    except OSError:
        return None  # the lxml reader reports it
    from irshape.ir.scan import scan_file

    return scan_file(path)


def _scanner_ready() -> bool:
    """Does the scanner start cheaply (see :data:`SCAN_MIN_BYTES`)? Where its patterns cannot be
    kept, asked without importing it (it would be imported for nothing, ~1.5M instructions)."""
    scan = sys.modules.get("irshape.ir.scan")
    if scan is None:  # its patterns not made in this process: can they be had from a file?
        return regex_cache.keeps(_scan_bytecode())
    return bool(scan.ready())


def _scan_bytecode() -> str | None:
    """Where :mod:`irshape.ir.scan`'s bytecode is: beside this module's, as importlib places
    both (``reader.cpython-311.pyc``, ``scan.cpython-311.pyc``)."""
    own = __spec__.cached
    if not own:
        return None
    folder, name = os.path.split(own)
    return os.path.join(folder, "scan" + name.removeprefix("reader"))
