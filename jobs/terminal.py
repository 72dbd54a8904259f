"""The same progress on a terminal: the commands' bar (``export_season``, ``import_season``).

``TerminalProgress(stream)`` takes the calls a ``jobs.work.Progress`` takes and redraws one
line, ``Partien schreiben  [#########-----------]  412/1000``, at most ten times a second.
"""

from __future__ import annotations

import time

from django.utils.translation import gettext as _

WIDTH = 30


class TerminalProgress:
    def __init__(self, stream, interval: float = 0.1):
        self.stream, self.interval = stream, interval
        self.phase, self.total, self._drawn, self._line = "", None, 0.0, ""

    def __call__(self, done: int, total: int | None = None, phase: str | None = None) -> None:
        changed = phase is not None and phase != self.phase
        if total is not None:
            self.total = total
        if phase is not None:
            self.phase = phase
        now = time.monotonic()
        if not changed and now - self._drawn < self.interval and not (self.total and done >= self.total):
            return
        self._drawn = now
        if self.total:
            filled = WIDTH * min(done, self.total) // self.total
            bar = f"[{'#' * filled}{'-' * (WIDTH - filled)}] {done}/{self.total}"
        else:
            bar = ""
        line = f"{_(self.phase):<28} {bar}"
        self.stream.write("\r" + line.ljust(len(self._line)), ending="")
        self.stream.flush()
        self._line = line

    def finish(self) -> None:
        if self._line:
            self.stream.write("")  # the command's output starts on a line of its own
