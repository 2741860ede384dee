"""The paths a run checks: collecting the ``.xml`` files of paths and directories, and globs.

Paths are collected in the order they are given (the files of a directory sorted), so output
is in a stable order whatever the number of workers. This module knows paths only: the
configuration, the selection, baselines and reporters use it without importing the checker
(:mod:`irshape.files` checks the files collected here).

Paths are ``str`` here, handled with :mod:`os.path`, and spelled as :class:`pathlib.Path`
spells them: importing pathlib (with fnmatch, ntpath, urllib.parse and ipaddress) is ~16M
instructions, a quarter of what irshape's own modules cost a start in an install from a wheel,
whose ``site`` does not import it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from irshape.record import FrozenRecord, set_field

# Directories a walk never enters: version control, virtual environments, caches.
DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
)

# --- globs ------------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A path glob as a regex over a relative POSIX path; ``**`` spans directories."""
    parts = pattern.strip("/").split("/")
    out: list[str] = []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
            continue
        out.append(_segment_regex(part))
        if not last:
            out.append("/")
    # A pattern that matches a directory matches everything inside it.
    return re.compile("".join(out) + "(?:/.*)?")


def _segment_regex(segment: str) -> str:
    out, i = [], 0
    while i < len(segment):
        char = segment[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (end := segment.find("]", i + 2)) != -1:
            body = segment[i + 1 : end]
            negate = body.startswith("!")
            body = re.escape(body[1:] if negate else body).replace(r"\-", "-")
            out.append(f"[{'^' if negate else ''}{body}]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def glob_matches(pattern: str, path: str) -> bool:
    """Whether ``path`` (relative, POSIX) matches ``pattern``.

    A pattern without ``/`` matches any file or directory name in the path (``legacy``,
    ``*_broken.xml``); a pattern with ``/`` matches the path from its start, with ``*`` within
    one name and ``**`` across directories (``models/legacy``, ``models/**/tmp_*.xml``). A
    pattern that matches a directory matches everything below it.
    """
    pattern = pattern.strip()
    if not pattern:
        return False
    if "/" not in pattern.rstrip("/"):
        from fnmatch import fnmatchcase  # only a run with name globs (excludes, per-file-ignores)

        name = pattern.rstrip("/")
        return any(fnmatchcase(part, name) for part in path.split("/"))
    return _glob_regex(pattern).fullmatch(path) is not None


class Glob(FrozenRecord):
    """A glob and the directory its relative paths start from."""

    __slots__ = ("base", "pattern")
    pattern: str
    base: str

    def __init__(self, pattern: str, base: str | os.PathLike[str]) -> None:
        set_field(self, "pattern", pattern)
        set_field(self, "base", os.fspath(base))

    def matches(self, path: str | os.PathLike[str]) -> bool:
        return glob_matches(self.pattern, relative_posix(path, self.base))


def relative_posix(path: str | os.PathLike[str], base: str | os.PathLike[str]) -> str:
    """``path`` relative to ``base`` in POSIX form, or absolute if it is not below ``base``."""
    absolute, root = os.path.abspath(path), os.path.abspath(base)
    try:
        if os.path.commonpath([absolute, root]) == root:
            absolute = os.path.relpath(absolute, root)
    except ValueError:  # on two drives (Windows)
        pass
    return absolute.replace(os.sep, "/")


def spelled(path: str | os.PathLike[str]) -> str:
    """``path`` as ``str(pathlib.Path(path))`` spells it (``./models/`` is ``models``), as a
    run reports the paths it is given: :func:`os.path.normpath` where that is the same, which
    is wherever no ``..`` is in the path on POSIX (normpath would take ``a/..`` away, a
    different file where ``a`` is a link); pathlib itself elsewhere."""
    text = os.fspath(path)
    if os.sep == "/" and os.altsep is None and ".." not in text.split("/"):
        return os.path.normpath(text)
    from pathlib import Path  # Windows, or a path through ".."

    return str(Path(text))


# --- collecting ---------------------------------------------------------------------------------


class Collected(FrozenRecord):
    __slots__ = ("excluded", "files")
    files: list[str]
    excluded: list[str]

    def __init__(self, files: list[str], excluded: list[str]) -> None:
        set_field(self, "files", files)
        set_field(self, "excluded", excluded)


def collect_files(paths: Iterable[str | os.PathLike[str]], exclude: Sequence[Glob] = ()) -> Collected:
    """The ``.xml`` files named by ``paths``: files as given (spelled as pathlib spells them),
    directories walked recursively.

    ``exclude`` applies to every path, files named explicitly included (so that a pre-commit
    hook honours the configured excludes); the walk also skips :data:`DEFAULT_EXCLUDE`.
    A file named twice is checked once.
    """
    result = Collected([], [])
    seen: set[str] = set()
    for given in paths:
        path = spelled(given)
        candidates = _walk(path, exclude, result.excluded) if os.path.isdir(path) else iter([path])
        for file in candidates:
            if any(glob.matches(file) for glob in exclude):
                result.excluded.append(file)
                continue
            key = os.path.realpath(file)
            if key not in seen:
                seen.add(key)
                result.files.append(file)
    return result


def _walk(root: str, exclude: Sequence[Glob], excluded: list[str]) -> Iterator[str]:
    """The .xml files below ``root``, sorted by path (``a/z.xml`` before ``b.xml``)."""
    return iter(sorted(_walk_unsorted(root, exclude, excluded), key=lambda path: path.split(os.sep)))


def _walk_unsorted(root: str, exclude: Sequence[Glob], excluded: list[str]) -> Iterator[str]:
    for directory, dirnames, filenames in os.walk(root):
        keep = []
        for name in sorted(dirnames):
            sub = spelled(os.path.join(directory, name))  # (below ".", "./a" is "a")
            if name in DEFAULT_EXCLUDE:
                continue
            if any(glob.matches(sub) for glob in exclude):
                excluded.append(sub)
                continue
            keep.append(name)
        dirnames[:] = keep
        for name in sorted(filenames):
            if name.lower().endswith(".xml"):
                yield spelled(os.path.join(directory, name))
