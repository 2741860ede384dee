"""Regular expressions compiled once per interpreter, and kept beside the bytecode of the module
that uses them, as Python keeps that bytecode.

Why. Python compiles a regular expression with a parser and a compiler written in Python, at
~10,000 instructions a character of the pattern: the scanner's grammar (:mod:`irshape.ir.scan`,
18 patterns, 3.4 KB) took ~34M instructions (~8 ms) at every start that read a large IR, more
than reading a 300-layer IR with it. :mod:`re` keeps what it compiles for the process only.
Here the program its compiler makes of each pattern (``re._compiler._code``: a list of
integers, with the pattern's groups) is kept in a file beside the module's bytecode (in its
``__pycache__``, or under ``sys.pycache_prefix``), and the patterns are made from it with
``_sre.compile``, the call that ends ``re.compile`` (~1M instructions for the 18, the file
read with them). ``_sre`` checks each program (``_validate``) before it makes a pattern of it.
The file is trusted as the bytecode beside it is: whoever can write one can write the other.

These are CPython's internals (the same from 3.11 to 3.13), so the file is used only by the
interpreter that wrote it (``sys.version`` and ``_sre.MAGIC`` the same) for the same patterns.
Anything else (another interpreter, other patterns, a file that cannot be read, internals that
changed) and the patterns are compiled as :func:`re.compile` compiles them; the file is then
written again, atomically, except under ``PYTHONDONTWRITEBYTECODE`` or where it cannot be
written, as Python treats bytecode.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
from collections.abc import Mapping
from contextlib import suppress
from importlib import import_module
from typing import Any

_SUFFIX = ".regex"  # beside the module's ".pyc"

# A pattern's program: its flags, code, groups and the two maps of group names, as
# ``_sre.compile`` takes them after the pattern's text.
Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]


def compiled(patterns: Mapping[str, str], bytecode: str | None) -> dict[str, re.Pattern[str]]:
    """Each of ``patterns`` (name -> text, no flags) compiled, by name: from the programs kept
    beside ``bytecode`` (the module's ``__cached__``; None: nowhere) when this interpreter wrote
    them for these patterns, otherwise compiled anew (and kept for the next start)."""
    texts = tuple(patterns.values())
    path = os.path.splitext(bytecode)[0] + _SUFFIX if bytecode else None
    key = (sys.version, _sre_magic(), texts)
    made = _from_programs(texts, _read(path, key)) if path else None
    if made is None:
        made, programs = _compile(texts)
        if path and programs is not None and not sys.dont_write_bytecode:
            _write(path, (key, programs))
    return dict(zip(patterns, made, strict=True))


def keeps(bytecode: str | None) -> bool:
    """Are programs kept beside ``bytecode``, or can they be (bytecode is written, and its
    folder can be)? A file there may be another interpreter's: the patterns are then compiled
    over, and kept again where the file can be written (a read-only install holding a file of an
    interpreter since replaced compiles them at every start, as it would its bytecode)."""
    if not bytecode:
        return False
    folder = os.path.dirname(bytecode)
    if os.path.exists(os.path.splitext(bytecode)[0] + _SUFFIX):
        return True
    if sys.dont_write_bytecode:
        return False
    place = folder if os.path.isdir(folder) else os.path.dirname(folder)  # (made when written)
    return os.path.isdir(place) and os.access(place, os.W_OK | os.X_OK)


def _sre_magic() -> int | None:
    return getattr(import_module("_sre"), "MAGIC", None)


def _read(path: str, key: tuple[Any, ...]) -> list[Program] | None:
    """The programs kept at ``path`` for ``key``, or None."""
    try:
        with open(path, "rb") as stream:
            stored = marshal.loads(stream.read())  # (marshal.load reads a file item by item)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(stored, tuple) and len(stored) == 2 and stored[0] == key):
        return None
    programs: list[Program] = stored[1]
    return programs


def _from_programs(texts: tuple[str, ...], programs: list[Program] | None) -> list[re.Pattern[str]] | None:
    """The patterns made from their programs, or None when one cannot be (``_sre`` refuses it)."""
    if programs is None or len(programs) != len(texts):
        return None
    make = import_module("_sre").compile
    try:
        return [make(text, *program) for text, program in zip(texts, programs, strict=True)]
    except (TypeError, ValueError, RuntimeError):  # RuntimeError: "invalid SRE code"
        return None


def _compile(texts: tuple[str, ...]) -> tuple[list[re.Pattern[str]], list[Program] | None]:
    """The patterns compiled as ``re.compile`` compiles them, with their programs to keep; the
    programs are None when CPython's internals are not as this module knows them."""
    try:
        parse = import_module("re._parser").parse
        code_of = import_module("re._compiler")._code
        programs = [_program(parse(text, 0), code_of) for text in texts]
        made = _from_programs(texts, programs)
    except (AttributeError, TypeError, ValueError, ImportError):
        made = None
    if made is None:
        return [re.compile(text) for text in texts], None
    return made, programs


def _program(parsed: Any, code_of: Any) -> Program:
    """What ``re._compiler.compile`` passes ``_sre.compile`` for a parsed pattern."""
    state = parsed.state
    names: tuple[str | None, ...] = tuple(
        {index: name for name, index in state.groupdict.items()}.get(i) for i in range(state.groups)
    )
    code = [int(word) for word in code_of(parsed, 0)]  # (opcodes are int subclasses: not marshalled)
    return int(state.flags), code, state.groups - 1, dict(state.groupdict), names


def _write(path: str, stored: tuple[Any, ...]) -> None:
    """Keep ``stored`` at ``path``, atomically (as importlib writes bytecode: a file of this
    process renamed over it, readable as the umask allows); nothing when it cannot be."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        handle = os.open(temporary, os.O_EXCL | os.O_CREAT | os.O_WRONLY, 0o666)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(marshal.dumps(stored))
            os.replace(temporary, path)
        except BaseException:
            with suppress(OSError):
                os.unlink(temporary)
            raise
    except (OSError, ValueError):  # ValueError: what marshal cannot write
        pass
