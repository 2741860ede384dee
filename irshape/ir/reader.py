"""Read an IR ``.xml`` (a whole ``<net>`` or bare ``<layer>`` fragments) with lxml, safely,
streaming: from a file, on one process or (large files) two, or from bytes. The parser is
:mod:`irshape.ir.parse`; the two-process reading :mod:`irshape.ir.split`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from irshape import rules
from irshape.diagnostics import Location
from irshape.ir.parse import CHUNK, Join, Reader, ReadResult, clean


def read_file(path: str | os.PathLike[str], *, processes: int = 1) -> ReadResult:
    """Read the IR file at ``path``, streaming: the file is never held whole in memory.

    With ``processes`` of 2 or more, a large file (4 MiB or more) is read on two processes,
    with the same result (see :mod:`irshape.ir.split`).
    """
    source = os.fspath(path)
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
    view = memoryview(data)

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(view), CHUNK):
            yield bytes(view[start : start + CHUNK])

    return Reader(path, source).read(chunks)
