"""Read an IR ``.xml`` (a whole ``<net>`` or bare ``<layer>`` fragments), safely, streaming:
from a file or from bytes. A file of the regular layout ``ov.save_model`` writes is read by
the scanner (:mod:`irshape.ir.scan`); any other, or one the scanner declines, with lxml
(:mod:`irshape.ir.parse`), on one process or (large files) two (:mod:`irshape.ir.split`), with
the same result.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from irshape import rules
from irshape.diagnostics import Location
from irshape.ir.parse import CHUNK, Join, Reader, ReadResult, clean
from irshape.ir.scan import scan_bytes, scan_file


def read_file(path: str | Path, *, processes: int = 1) -> ReadResult:
    """Read the IR file at ``path``, streaming: the file is never held whole in memory.

    With ``processes`` of 2 or more, a large file (4 MiB or more) is read on two processes,
    with the same result (see :mod:`irshape.ir.split`).
    """
    scanned = scan_file(path)
    if scanned is not None:
        return scanned
    source = Path(path)
    join: Join | None = None
    if processes > 1:
        from irshape.ir import split  # only for large files, on request

        join = split.start(source)
    try:
        with source.open("rb") as stream:

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


def read_bytes(data: bytes, path: str, *, source: Path | None = None) -> ReadResult:
    """Parse ``data`` (the text of ``path``) into a :class:`Document` and reading findings."""
    scanned = scan_bytes(data, path, source=source)
    if scanned is not None:
        return scanned
    view = memoryview(data)

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(view), CHUNK):
            yield bytes(view[start : start + CHUNK])

    return Reader(path, source).read(chunks)
