"""Regular expressions compiled once per interpreter, and kept beside the bytecode of the module
that uses them, as Python keeps that bytecode.

Why. Python compiles a regular expression with a parser and a compiler written in Python, at
~10,000 instructions a character of the pattern: the scanner's grammar (:mod:`irshape.ir.scan`,
19 patterns, 3.4 KB) took ~34M instructions (~8 ms) at every start that read a large IR, more
than reading a 300-layer IR with it. :mod:`re` keeps what it compiles for the process only.
Here the program its compiler makes of each pattern (``re._compiler._code``: a list of
integers, with the pattern's groups) is kept in a file beside the module's bytecode (in its
``__pycache__``, or under ``sys.pycache_prefix``), and the patterns are made from it with
``_sre.compile``, the call that ends ``re.compile`` (~1M instructions for the 19, the file
read with them).

These are CPython's internals (the same from 3.11 to 3.13), so:

- the programs are kept only where ``_sre`` makes of them patterns equal to those
  ``re.compile`` made at that start (``Pattern`` equality compares the programs): the first
  start compiles the patterns twice, once;
- the file is named for the interpreter that wrote it (its build, ``_sre``'s format and
  limits), so that interpreters sharing a ``__pycache__`` keep one each, and holds the pattern
  texts and a checksum of the programs, both checked when it is read;
- anything else (a file of other patterns, damaged, of another shape, a program ``_sre``
  refuses, internals that changed) and the patterns are compiled by ``re.compile`` and the file
  written again: atomically, readable as the module's source is, and never under
  ``PYTHONDONTWRITEBYTECODE`` or where it cannot be written, as Python treats bytecode.

The file is trusted as the bytecode beside it is: whoever can write one can write the other.
"""

from __future__ import annotations

import binascii
import marshal
import os
import re
import sys
from collections.abc import Mapping
from contextlib import suppress
from functools import cache
from importlib import import_module
from typing import Any

_SUFFIX = ".regex"  # after the module's bytecode name and the interpreter's mark

# A pattern's program: its flags, code, groups and the two maps of group names, as
# ``_sre.compile`` takes them after the pattern's text.
Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
_PROGRAM_TYPES = (int, list, int, dict, tuple)


def compiled(
    patterns: Mapping[str, str], bytecode: str | None, source: str | None = None
) -> dict[str, re.Pattern[str]]:
    """Each of ``patterns`` (name -> text, no flags) compiled, by name: from the programs kept
    beside ``bytecode`` (the module's ``__spec__.cached``; None: nowhere) when this interpreter
    kept them for these patterns, otherwise compiled anew and kept for the next start, with the
    permissions of ``source`` (the module's file)."""
    texts = tuple(patterns.values())
    path = kept_path(bytecode)
    made = _from_programs(texts, _read(path, texts)) if path else None
    if made is None:
        made = [re.compile(text) for text in texts]
        if path and not sys.dont_write_bytecode:
            programs = _programs(texts, made)
            if programs is not None:
                _write(path, texts, programs, source)
    return dict(zip(patterns, made, strict=True))


def kept_path(bytecode: str | None) -> str | None:
    """Where this interpreter keeps the programs for the module whose bytecode is ``bytecode``."""
    if not bytecode:
        return None
    return f"{os.path.splitext(bytecode)[0]}.{_interpreter_mark()}{_SUFFIX}"


def keeps(bytecode: str | None) -> bool:
    """Are programs kept for ``bytecode`` by this interpreter, or can they be (bytecode is
    written, and its folder can be)?"""
    path = kept_path(bytecode)
    if path is None:
        return False
    if os.path.exists(path):
        return True
    if sys.dont_write_bytecode:
        return False
    folder = os.path.dirname(path)
    place = folder if os.path.isdir(folder) else os.path.dirname(folder)  # (made when written)
    return os.path.isdir(place) and os.access(place, os.W_OK | os.X_OK)


@cache
def _interpreter_mark() -> str:
    """A mark of this interpreter's build and ``_sre``'s format and limits (two builds of one
    version may differ in them: 32 and 64 bits)."""
    sre = import_module("_sre")
    identity = (sys.implementation.name, sys.version, sre.MAGIC, sre.MAXREPEAT, sre.CODESIZE)
    return f"{binascii.crc32(repr(identity).encode()):08x}"


def _read(path: str, texts: tuple[str, ...]) -> list[Program] | None:
    """The programs kept at ``path`` for ``texts``, or None (no such file, or not one this
    module wrote for them, intact)."""
    try:
        with open(path, "rb") as stream:
            kept_texts, checksum, blob = marshal.loads(stream.read())  # (marshal.load: item by item)
        if kept_texts != texts or binascii.crc32(blob) != checksum:
            return None
        programs = marshal.loads(blob)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(programs, list) or len(programs) != len(texts):
        return None
    for program in programs:
        if not (isinstance(program, tuple) and len(program) == len(_PROGRAM_TYPES)):
            return None
        if not all(isinstance(part, kind) for part, kind in zip(program, _PROGRAM_TYPES, strict=True)):
            return None
    return programs


def _from_programs(texts: tuple[str, ...], programs: list[Program] | None) -> list[re.Pattern[str]] | None:
    """The patterns made from their programs, or None when one cannot be."""
    if programs is None:
        return None
    try:
        make = import_module("_sre").compile
        return [make(text, *program) for text, program in zip(texts, programs, strict=True)]
    except Exception:  # a program _sre refuses (RuntimeError "invalid SRE code", OverflowError...)
        return None


def _programs(texts: tuple[str, ...], made: list[re.Pattern[str]]) -> list[Program] | None:
    """The programs of ``texts`` as ``re.compile`` makes them, if ``_sre`` makes of them the
    patterns ``made`` (re.compile's); None where the internals are not as this module knows."""
    if sys.implementation.name != "cpython":
        return None
    try:
        parse = import_module("re._parser").parse
        code_of = import_module("re._compiler")._code
        programs = [_program(parse(text, 0), code_of) for text in texts]
    except Exception:  # internals of another shape
        return None
    return programs if _from_programs(texts, programs) == made else None


def _program(parsed: Any, code_of: Any) -> Program:
    """What ``re._compiler.compile`` passes ``_sre.compile`` for a parsed pattern."""
    state = parsed.state
    names: tuple[str | None, ...] = tuple(
        {index: name for name, index in state.groupdict.items()}.get(i) for i in range(state.groups)
    )
    code = [int(word) for word in code_of(parsed, 0)]  # (opcodes are int subclasses: not marshalled)
    return int(state.flags), code, state.groups - 1, dict(state.groupdict), names


def _write(path: str, texts: tuple[str, ...], programs: list[Program], source: str | None) -> None:
    """Keep ``programs`` at ``path``, atomically (as importlib writes bytecode: a file of its own
    renamed over it, with the source's permissions as the umask allows); nothing when it cannot
    be."""
    try:
        blob = marshal.dumps(programs)
    except ValueError:  # what marshal cannot write
        return
    data = marshal.dumps((texts, binascii.crc32(blob), blob))
    mode = 0o666
    if source:
        with suppress(OSError):
            mode = (os.stat(source).st_mode | 0o200) & 0o666  # (importlib's _calc_mode)
    temporary = f"{path}.{os.urandom(6).hex()}.tmp"  # (a name no other writer, dead or alive, has)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        handle = os.open(temporary, os.O_EXCL | os.O_CREAT | os.O_WRONLY, mode)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.replace(temporary, path)
        except BaseException:
            with suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError:
        pass
