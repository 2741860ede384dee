"""A check over a whole model repository runs in flat memory: the peak RSS of a run over many
files is that of a run over a few, in the library (``check_files``, with the cyclic collector
on as a library caller has it, and off as the program runs) and in the program (``-j 1`` and
``-j 2``). Each run is a subprocess of its own, and what is compared is a ratio of peak RSS,
never a time.

What grew before: every reading leaves a reference cycle (lxml's pull parser and its document
refer to each other) holding the file's libxml2 tree, which the program, with the collector
off, never freed (~0.3 MB a small file, ~1 MB a large one); and each report kept its layers.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

NETWORKS = Path(__file__).parent.parent / "fixtures" / "networks"
FEW, MANY = 8, 64  # files; the growth to catch was ~0.3 MB a file over a ~30 MB start
ALLOWED = 1.25  # peak RSS of MANY files over that of FEW (measured: 1.00 to 1.05)


@pytest.fixture(scope="module")
def repositories(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """Directories of FEW and MANY copies of the smallest fixture networks (real copies: a
    walk checks a file once by its real path), their .bin beside them."""
    sources = sorted(NETWORKS.glob("*.xml"), key=lambda p: p.stat().st_size)[:8]
    made = {}
    for count in (FEW, MANY):
        directory = tmp_path_factory.mktemp(f"repo{count}")
        for index in range(count):
            source = sources[index % len(sources)]
            copy = directory / f"{source.stem}_{index}.xml"
            shutil.copyfile(source, copy)
            if source.with_suffix(".bin").exists():
                copy.with_suffix(".bin").symlink_to(source.with_suffix(".bin").resolve())
        made[count] = directory
    return made


def _peak_kib(code: str) -> int:
    """The peak RSS (KiB) of a Python process running ``code``, its children included."""
    wrapper = textwrap.dedent(
        f"""
        import resource, subprocess, sys
        subprocess.run([sys.executable, "-c", {code!r}], check=True, stdout=subprocess.DEVNULL)
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        """
    )
    done = subprocess.run([sys.executable, "-c", wrapper], check=True, capture_output=True, text=True)
    return int(done.stdout.split()[-1])


def _library(directory: Path, collector: bool) -> str:
    return textwrap.dedent(
        f"""
        import gc, glob
        from irshape.files import check_files
        {"" if collector else "gc.disable()"}
        reports = check_files(sorted(glob.glob({str(directory / "*.xml")!r})), jobs=1, layers=False)
        assert len(reports) == len(glob.glob({str(directory / "*.xml")!r}))
        """
    )


def _program(directory: Path, jobs: int) -> str:
    return f"import sys; sys.argv = ['irshape', 'check', '--isolated', '-j', '{jobs}', {str(directory)!r}]; from irshape.cli import run; run()"


@pytest.mark.parametrize(
    ("label", "make"),
    [
        ("library, collector on", lambda d: _library(d, True)),
        ("library, collector off", lambda d: _library(d, False)),
        ("program -j 1", lambda d: _program(d, 1)),
        ("program -j 2", lambda d: _program(d, 2)),
    ],
)
def test_memory_does_not_grow_with_the_files(repositories: dict[int, Path], label: str, make: object) -> None:
    assert callable(make)
    few, many = _peak_kib(make(repositories[FEW])), _peak_kib(make(repositories[MANY]))
    assert many <= ALLOWED * few, f"{label}: {FEW} files peak at {few} KiB, {MANY} at {many} KiB"
