"""The program keeps the latest file's objects and ends without freeing them (irshape.lifetime):
the library frees them as usual unless asked; what is kept is one file's; the program's output
and exit status are those of ``main`` all the same, with any standard stream closed too."""

from __future__ import annotations

import subprocess
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conv_layers import BAD, GOOD

import irshape
from irshape import lifetime
from irshape.cli import main

ROOT = Path(__file__).resolve().parent.parent
NET = ROOT / "fixtures" / "ir" / "conv_relu_deconv.xml"


class Thing:
    """Something weakly referable, to see when it is freed."""


@pytest.fixture
def keeping() -> Iterator[None]:
    lifetime.keep_for_exit()
    try:
        yield
    finally:
        lifetime._kept = None  # as a library caller has it


def test_retired_objects_are_freed_as_usual_by_default() -> None:
    thing = Thing()
    alive = weakref.ref(thing)
    lifetime.retire(thing)
    del thing
    assert alive() is None


def test_kept_objects_live_until_released(keeping: None) -> None:
    thing = Thing()
    alive = weakref.ref(thing)
    lifetime.retire(thing)
    del thing
    assert alive() is not None
    lifetime.release()
    assert alive() is None


def test_only_the_latest_file_is_kept(keeping: None, tmp_path: Path) -> None:
    first, second = tmp_path / "first.xml", tmp_path / "second.xml"
    first.write_text(GOOD)
    second.write_text(BAD)
    irshape.check_file(first)
    irshape.check_file(second)
    assert lifetime._kept is not None
    paths = {getattr(getattr(kept, "document", None), "path", None) for kept in lifetime._kept}
    assert str(second) in paths and str(first) not in paths


def program(*args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    command = ["-c", code] if code is not None else ["-m", "irshape", *args]
    return subprocess.run([sys.executable, *command], capture_output=True, text=True, cwd=ROOT)


def test_hard_exit_flushes_the_output_and_keeps_the_status() -> None:
    done = program(code="from irshape import lifetime; print('out', end=''); lifetime.hard_exit(3)")
    assert (done.returncode, done.stdout) == (3, "out")


def test_the_program_writes_its_output_file_whole(tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text(BAD)
    expected = CliRunner().invoke(main, ["check", "--format", "json", str(bad)])
    done = program("check", "--format", "json", "--output-file", str(tmp_path / "out.json"), str(bad))
    assert done.returncode == expected.exit_code == 1
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == expected.stdout


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["check", "--format", "json", str(NET)], 0),
        (["check", "--format", "sarif", "BAD"], 1),
        (["check", "--bogus", str(NET)], 2),
        (["--version"], 0),
    ],
)
def test_the_program_prints_what_main_prints(args: list[str], status: int, tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text(BAD)
    args = [str(bad) if arg == "BAD" else arg for arg in args]
    expected = CliRunner().invoke(main, args)
    done = program(*args)
    assert done.returncode == expected.exit_code == status
    assert done.stdout == expected.stdout


@pytest.mark.parametrize("closed", ["2>&-", ">&-"])
def test_the_program_ends_well_with_a_stream_closed(closed: str, tmp_path: Path) -> None:
    # Python starts with sys.stderr (or sys.stdout) None when its descriptor is closed.
    out = tmp_path / "out.txt"
    command = f'"{sys.executable}" -m irshape check --output-file "{out}" "{NET}" {closed}'
    done = subprocess.run(["sh", "-c", command], cwd=ROOT, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8").startswith("0 error(s)")


@pytest.mark.parametrize(
    ("args", "closed", "status"),
    [
        (f'check "{NET}"', ">&-", 0),  # the report goes nowhere; the status still says it
        ("check -", "<&-", 1),  # no stdin: an empty document (IRS001)
        (f'check "{NET}"', "<&- >&- 2>&-", 0),
    ],
)
def test_the_program_runs_without_its_standard_streams(args: str, closed: str, status: int) -> None:
    done = subprocess.run(
        ["sh", "-c", f'"{sys.executable}" -m irshape {args} {closed}'], cwd=ROOT, capture_output=True
    )
    assert done.returncode == status
    assert b"Traceback" not in done.stderr + done.stdout
