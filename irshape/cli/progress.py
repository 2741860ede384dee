"""The progress line of a dry run on a terminal."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TextIO

PROGRESS_DELAY = 1.0  # seconds a dry run goes on before its progress line appears (on a TTY)


class DryRunProgress:
    """One progress line on a terminal's stderr, drawn once a dry run has gone on for a second.

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
    ) -> None:
        self.files, self.stream, self.clock = files, stream, clock
        self.delay = PROGRESS_DELAY if delay is None else delay
        self.start = clock()
        self.files_done = 0
        self.layers_done = self.layers_total = 0
        self.shown = 0  # length of the line on the screen
        self._last = ""
        import threading  # only a dry run draws a progress line, from a thread of its own

        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (DryRunProgress, (self.files, None))

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
        self.draw()

    def layer(self, done: int, total: int) -> None:
        self.layers_done, self.layers_total = done, total
        self.draw()

    def line(self) -> str:
        width = 24
        filled = width * self.files_done // max(self.files, 1)
        bar = "#" * filled + "-" * (width - filled)
        text = f"irshape: dry run [{bar}] {self.files_done}/{self.files} files"
        if self.layers_total:
            text += f"; file {self.files_done + 1}: {self.layers_done}/{self.layers_total} layers"
        return f"{text}  {self.clock() - self.start:.0f}s"

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
