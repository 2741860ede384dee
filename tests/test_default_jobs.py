"""The default ``-j``: one process per core that other programs leave idle, as the load average
of the last minute says (a second process costs more CPU than it saves, so it is faster only on
a core of its own; ``bench/bench_jobs.py`` measures it)."""

from __future__ import annotations

import os

import pytest

from irshape import files


@pytest.mark.parametrize(
    ("cores", "load", "jobs"),
    [
        (2, 0.1, 2),  # a dedicated CI runner: every core
        (2, 0.7, 1),  # one core busy most of the time: one process
        (2, 8.4, 1),  # a shared machine: one process, never none
        (4, 1.2, 3),
        (4, 0.0, 4),
    ],
)
def test_the_default_leaves_busy_cores_alone(
    monkeypatch: pytest.MonkeyPatch, cores: int, load: float, jobs: int
) -> None:
    monkeypatch.setattr(files, "_cores", lambda: cores)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    assert files.default_jobs() == jobs


def test_without_a_load_average_every_core(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable() -> tuple[float, float, float]:
        raise OSError("no load average")

    monkeypatch.setattr(files, "_cores", lambda: 3)
    monkeypatch.setattr(os, "getloadavg", unavailable)
    assert files.default_jobs() == 3
