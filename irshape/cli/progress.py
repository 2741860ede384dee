"""The progress line of a long check or dry run on a terminal, with the time left.

The time left is estimated from the throughput measured since the first progress (a file done,
or a layer of a dry run): the start-up before it (imports, a process pool starting) is not
work per file, and an estimate from the first file alone is a guess. click's progress bar
estimated from its first samples: it began at 00:06:18 for a run of 10 s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TextIO

PROGRESS_DELAY = 1.0  # seconds a dry run goes on before its progress line appears (on a TTY)


class DryRunProgress:
    """One progress line on a terminal's stderr, drawn once a run has gone on for a second.

    ``file_done`` is called after each file (in this process, whatever ``-j``), ``layer`` after
    each layer of a file checked in this process. Used as a context manager, a thread redraws
    the line while one long layer runs, and the line is erased at the end. With ``stream=None``
    (not a terminal) it draws nothing; pickled into a worker process it is such a silent copy.
    """

    def __init__(
        self,
        files: int,
        stream: TextIO | None,
        *,
        delay: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        label: str = "dry run",
    ) -> None:
        self.files, self.stream, self.clock, self.label = files, stream, clock, label
        self.delay = PROGRESS_DELAY if delay is None else delay
        self.start = clock()
        self.files_done = 0
        self.layers_done = self.layers_total = 0
        self.first: tuple[float, float] | None = None  # (time, fraction done) of the first progress
        self.shown = 0  # length of the line on the screen
        self._last = ""
        import threading  # only a dry run draws a progress line, from a thread of its own

        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (DryRunProgress, (self.files, None))

    @property
    def fraction(self) -> float:
        """How much of the run is done: the files, and the layers of the file being run."""
        layers = self.layers_done / self.layers_total if self.layers_total else 0.0
        return min(1.0, (self.files_done + layers) / max(self.files, 1))

    def remaining(self) -> float | None:
        """Seconds left at the throughput measured since the first progress; None before a
        second progress has measured any."""
        if self.first is None:
            return None
        started, before = self.first
        done, elapsed = self.fraction - before, self.clock() - started
        if done <= 0 or elapsed <= 0:
            return None
        return (1.0 - self.fraction) * elapsed / done

    def _progressed(self) -> None:
        if self.first is None and self.fraction > 0:
            self.first = (self.clock(), self.fraction)

    def __enter__(self) -> DryRunProgress:
        if self.stream is not None:
            import threading  # as in __init__

            self._thread = threading.Thread(target=self._tick, name="irshape-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.close()

    def _tick(self) -> None:
        while not self._stop.wait(0.25):
            self.draw()

    def file_done(self, count: int = 1) -> None:
        self.files_done += count
        self.layers_done = self.layers_total = 0
        self._progressed()
        self.draw()

    def layer(self, done: int, total: int) -> None:
        self.layers_done, self.layers_total = done, total
        self._progressed()
        self.draw()

    def line(self) -> str:
        width = 24
        filled = width * self.files_done // max(self.files, 1)
        bar = "#" * filled + "-" * (width - filled)
        text = f"irshape: {self.label} [{bar}] {self.files_done}/{self.files} files  "
        text += f"{self.clock() - self.start:.0f}s"
        remaining = self.remaining()
        if remaining is not None:  # before the layers: a narrow terminal cuts the line's end
            text += f", about {_duration(remaining)} left"
        if self.layers_total:
            text += f"; file {self.files_done + 1}: {self.layers_done}/{self.layers_total} layers"
        return text

    def draw(self) -> None:
        """Draw the line, if there is a terminal and the run has gone on for over a second."""
        if self.stream is None or self.clock() - self.start <= self.delay:
            return
        import shutil  # only for a progress line on a terminal

        with self._lock:
            line = self.line()[: max(shutil.get_terminal_size().columns - 1, 20)]
            if line == self._last:
                return
            self.stream.write("\r" + line.ljust(self.shown))
            self.stream.flush()
            self.shown, self._last = len(line), line

    def close(self) -> None:
        """Erase the line, so that nothing of it stays between the findings."""
        with self._lock:
            if self.stream is not None and self.shown:
                self.stream.write("\r" + " " * self.shown + "\r")
                self.stream.flush()
                self.shown, self._last = 0, ""


def _duration(seconds: float) -> str:
    """``7s``, ``2:05``, ``1:02:05``: a time left, rounded up to a whole second."""
    whole = int(seconds) + (seconds % 1 > 0)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}" if minutes else f"{secs}s"
