"""The scanner's patterns made from the programs irshape keeps beside its bytecode
(irshape.ir.regex_cache): they match as re.compile's do, a second start compiles nothing, and
any file that is not this interpreter's for these patterns is compiled over, never trusted."""

from __future__ import annotations

import binascii
import marshal
import os
import re
import sys
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from irshape.ir import regex_cache, scan

REPO = Path(__file__).resolve().parent.parent
SAMPLES = [
    REPO / "fixtures" / "ir" / "conv_relu_deconv.xml",
    REPO / "fixtures" / "networks" / "bert_static_f32.xml",
    REPO / "fixtures" / "networks" / "llama_interval_tokens.xml",
]


@pytest.fixture(autouse=True)
def writing_bytecode(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As Python runs by default (not under PYTHONDONTWRITEBYTECODE, as a machine may be); the
    interpreter's mark made again after a test that pretends to be another interpreter."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    yield
    regex_cache._interpreter_mark.cache_clear()


@pytest.fixture
def bytecode(tmp_path: Path) -> str:
    """Where a module's bytecode would be: the programs are kept beside it."""
    return str(tmp_path / "__pycache__" / "scan.cpython-311.pyc")


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The patterns re's parser is asked to parse (every compilation starts there)."""
    parser = import_module("re._parser")
    seen: list[str] = []
    real = parser.parse

    def counting(text: str, flags: int = 0, *args: object) -> object:
        seen.append(text)
        return real(text, flags, *args)

    monkeypatch.setattr(parser, "parse", counting)
    return seen


def _kept(bytecode: str) -> Path:
    path = regex_cache.kept_path(bytecode)
    assert path is not None and path.startswith(bytecode.removesuffix(".pyc") + ".")
    return Path(path)


def _rewritten(kept: Path, stored: tuple[Any, ...], programs: Any, *, checksum: bool = True) -> None:
    """The kept file with other programs (and their right checksum, unless told otherwise)."""
    blob = marshal.dumps(programs)
    kept.write_bytes(marshal.dumps((stored[0], binascii.crc32(blob) if checksum else stored[1], blob)))


def _same_as_re(made: dict[str, re.Pattern[str]]) -> None:
    """Each pattern as re.compile makes it: text, flags, groups, and its matches at every line of
    the sample files (re's own patterns the oracle)."""
    grammar = scan._grammar()
    assert list(made) == list(grammar)
    lines = [line for path in SAMPLES for line in path.read_text(encoding="utf-8").splitlines(keepends=True)]
    text = "".join(lines)
    for name, pattern in made.items():
        expected = re.compile(grammar[name])
        assert pattern == expected  # text, flags and the whole program
        assert (pattern.pattern, pattern.flags, pattern.groups, pattern.groupindex) == (
            expected.pattern,
            expected.flags,
            expected.groups,
            expected.groupindex,
        )
        start = 0
        for line in lines:
            got, want = pattern.match(text, start), expected.match(text, start)
            assert (got and (got.span(), got.groups())) == (want and (want.span(), want.groups())), name
            start += len(line)


def test_kept_programs_make_the_patterns_re_makes(bytecode: str, parses: list[str]) -> None:
    first = regex_cache.compiled(scan._grammar(), bytecode)
    assert len(parses) >= len(first) and _kept(bytecode).is_file()
    parses.clear()
    second = regex_cache.compiled(scan._grammar(), bytecode)
    assert parses == []  # nothing compiled: made from the programs kept
    _same_as_re(first)
    _same_as_re(second)


def test_the_scanner_reads_alike_with_its_programs_kept(
    tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file read by the scanner with patterns compiled, then made from the programs kept."""
    from irshape.ir.reader import read_file

    path = SAMPLES[2]  # over SCAN_MIN_BYTES: read by the scanner
    bytecode = str(tmp_path / "scan.cpython-311.pyc")
    monkeypatch.setattr(scan, "__spec__", _Spec(bytecode, str(Path(scan.__file__))))
    readings = []
    for _ in range(2):
        scan._patterns.cache_clear()
        parses.clear()
        readings.append(read_file(path))
    assert _kept(bytecode).is_file() and parses == []  # the second made from the programs kept
    assert readings[0].document is not None
    assert repr(readings[0].document.layers) == repr(readings[1].document.layers)
    assert readings[0].diagnostics == readings[1].diagnostics
    scan._patterns.cache_clear()


class _Spec:
    def __init__(self, cached: str, origin: str) -> None:
        self.cached, self.origin = cached, origin


@pytest.mark.parametrize(
    "changed",
    [
        "another interpreter",
        "other patterns",
        "not marshal",
        "truncated",
        "another shape",
        "not a list",
        "invalid program",
        "a word past 32 bits",
        "a wrong checksum",
    ],
)
def test_a_file_not_of_this_interpreter_is_compiled_over(
    changed: str, bytecode: str, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    grammar = scan._grammar()
    regex_cache.compiled(grammar, bytecode)
    kept = _kept(bytecode)
    stored = marshal.loads(kept.read_bytes())
    programs = marshal.loads(stored[2])
    if changed == "another interpreter":  # its own file: this one's is left alone
        monkeypatch.setattr(sys, "version", sys.version + " (another build)")
        regex_cache._interpreter_mark.cache_clear()
        assert _kept(bytecode) != kept
    elif changed == "other patterns":
        grammar = {**grammar, "blanks": r"[ \t]*+"}
    elif changed == "not marshal":
        kept.write_bytes(b"not a marshal stream")
    elif changed == "truncated":
        kept.write_bytes(kept.read_bytes()[:1000])
    elif changed == "another shape":
        _rewritten(kept, stored, programs[:3])
    elif changed == "not a list":
        _rewritten(kept, stored, 5)
    elif changed == "invalid program":  # _sre refuses it: its code cut short
        _rewritten(kept, stored, [(f, code[:2], g, i, n) for f, code, g, i, n in programs])
    elif changed == "a word past 32 bits":
        _rewritten(kept, stored, [(f, [2**40, *code[1:]], g, i, n) for f, code, g, i, n in programs])
    else:  # a byte of the programs changed (damage): refused by the checksum
        blob = bytearray(stored[2])
        blob[len(blob) // 2] ^= 1
        kept.write_bytes(marshal.dumps((stored[0], stored[1], bytes(blob))))
    parses.clear()
    made = regex_cache.compiled(grammar, bytecode)
    assert len(parses) >= len(grammar)  # compiled anew
    assert [p.pattern for p in made.values()] == list(grammar.values())
    assert made["blanks"].fullmatch(" \t" if changed == "other patterns" else " \t\r\n")
    parses.clear()
    again = regex_cache.compiled(grammar, bytecode)
    assert parses == []  # written again, right
    assert list(again.values()) == [re.compile(text) for text in grammar.values()]
    assert not list(kept.parent.glob("*.tmp"))


def test_nothing_is_written_without_bytecode(bytecode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # PYTHONDONTWRITEBYTECODE
    made = regex_cache.compiled(scan._grammar(), bytecode)
    assert made["dim"].fullmatch("<dim>3</dim>")
    assert not Path(bytecode).parent.exists()
    assert regex_cache.compiled({"x": "a+"}, None)["x"].fullmatch("aa")  # no place for it


def test_a_place_that_cannot_be_written_is_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    made = regex_cache.compiled({"x": "a++b"}, str(blocker / "__pycache__" / "m.cpython-311.pyc"))
    assert made["x"].fullmatch("aab") and not made["x"].match("aa")
    assert [p.name for p in tmp_path.iterdir()] == ["a file"]


def test_where_programs_are_kept_or_can_be(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """keeps(): the scanner reads a small file only where its patterns start cheaply."""
    bytecode = str(tmp_path / "__pycache__" / "scan.cpython-311.pyc")
    assert regex_cache.keeps(bytecode)  # no __pycache__ yet: its folder can be written
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert not regex_cache.keeps(bytecode)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    regex_cache.compiled({"x": "a+"}, bytecode)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert regex_cache.keeps(bytecode)  # kept before: read, never written
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert not regex_cache.keeps(str(blocker / "__pycache__" / "m.cpython-311.pyc"))
    assert not regex_cache.keeps(None)


def test_kept_with_the_permissions_of_the_source(tmp_path: Path) -> None:
    """As importlib writes bytecode: the source's mode (as the umask allows), not anyone's."""
    source = tmp_path / "m.py"
    source.write_text("")
    source.chmod(0o640)
    bytecode = str(tmp_path / "__pycache__" / "m.cpython-311.pyc")
    umask = os.umask(0)
    try:
        regex_cache.compiled({"x": "a+"}, bytecode, str(source))
    finally:
        os.umask(umask)
    assert _kept(bytecode).stat().st_mode & 0o777 == 0o640
