"""The command examples of the docs are run, and what they show is what irshape prints.

An example is marked in the Markdown by ``<!-- example -->`` (on a line of its own or at the end
of the line) before a ```` ```sh ```` block of one ``irshape`` command, which the block of its
output follows (only blank lines between); or before a ```` ```sh ```` block of the command as
typed (``$ irshape ...``) and its output under it. The command runs from the repository's root, on its fixtures, and its stdout must be
the output shown, but for what changes from run to run or machine to machine:

- the repository's path is shown as ``/repo``;
- a line ``...`` stands for any lines (none included), and ``...`` within a line for any text.

So the docs cannot go stale: a changed message, count or format fails here.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MARK = "<!-- example -->"
_FENCE = re.compile(r"^```(\w*)\s*$")


class Example:
    def __init__(self, where: str, command: str, shown: list[str]) -> None:
        self.where, self.command, self.shown = where, command, shown


def _block(lines: list[str], start: int) -> tuple[str, list[str], int] | None:
    """The fenced block opening at or after ``start`` (blank lines only before it): its
    language, its lines, the index after its closing fence."""
    index = start
    while index < len(lines) and not lines[index].strip():
        index += 1
    opening = _FENCE.match(lines[index]) if index < len(lines) else None
    if opening is None:
        return None
    end = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == "```")
    return opening.group(1), lines[index + 1 : end], end + 1


def examples() -> list[Example]:
    found = []
    for doc in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        lines = doc.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if not line.rstrip().endswith(MARK):
                continue
            where = f"{doc.relative_to(REPO)}:{number + 1}"
            command = _block(lines, number + 1)
            assert command is not None and command[0] == "sh", f"{where}: no ```sh block after the mark"
            if command[1] and command[1][0].startswith("$ "):  # the command as typed, its output under it
                found.append(Example(where, command[1][0][2:], command[1][1:]))
                continue
            assert len(command[1]) == 1, f"{where}: an example is one command"
            shown = _block(lines, command[2])
            assert shown is not None, f"{where}: no output block after the command"
            found.append(Example(where, command[1][0], shown[1]))
    return found


EXAMPLES = examples()


def _run(command: str) -> str:
    words = shlex.split(command, comments=True)
    assert words[0] == "irshape", f"not an irshape command: {command}"
    done = subprocess.run(
        [sys.executable, "-m", "irshape", *words[1:]],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.stdout.replace(str(REPO), "/repo")


def _pattern(shown: list[str]) -> re.Pattern[str]:
    parts = []
    for line in shown:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.split("...")) + r"\n")
    return re.compile("".join(parts))


def test_the_docs_have_examples() -> None:
    assert len(EXAMPLES) >= 5
    assert {example.where.split(":")[0] for example in EXAMPLES} >= {"README.md", "docs/cli.md"}


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.where for example in EXAMPLES])
def test_an_example_shows_what_irshape_prints(example: Example) -> None:
    output = _run(example.command)
    assert _pattern(example.shown).fullmatch(output), (
        f"{example.where}: `{example.command}` printed\n{output}\nthe docs show\n" + "\n".join(example.shown)
    )


def test_a_changed_output_fails() -> None:
    shown = ["a ... c", "...", "z"]
    assert _pattern(shown).fullmatch("a b c\nx\ny\nz\n")
    assert _pattern(shown).fullmatch("a b c\nz\n")
    assert not _pattern(shown).fullmatch("a b d\nz\n")
    assert not _pattern(["a"]).fullmatch("a\nb\n")
