"""Progress on stderr for long runs, drawn by ``rich`` -- on terminals only.

A command that is still working after :data:`DELAY` seconds shows one transient
line on stderr (a spinner, what it is doing, the elapsed time), erased when it
ends.  Nothing is shown when stderr is not a terminal (a pipe, a file, CI).
``rich`` decides what the terminal can take: with ``TERM=dumb`` (no cursor
control) the line is replaced by a plain line every :data:`DUMB_EVERY` seconds,
without control codes; ``NO_COLOR`` turns colour off.

>>> p = Progress("pla-proof trace")
>>> p.start(); p.update("training"); p.stop()   # stderr is not a terminal here: silent
>>> p.shown
False
"""

from __future__ import annotations

import sys
import threading
import time
from typing import IO, Any

__all__ = ["DELAY", "DUMB_EVERY", "Progress", "current"]

#: seconds of work before the progress line appears
DELAY = 2.0
#: seconds between plain progress lines on a dumb terminal
DUMB_EVERY = 10.0

_current: Progress | None = None


def current() -> Progress | None:
    """The progress line of the running command, if one was started."""
    return _current


class Progress:
    """A delayed, transient progress line for one command."""

    def __init__(self, label: str, stream: IO[str] | None = None, delay: float = DELAY) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.message = "working"
        self.shown = False
        self._started = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._live: Any = None
        self._task: Any = None

    def _is_terminal(self) -> bool:
        isatty = getattr(self.stream, "isatty", None)
        return bool(isatty is not None and isatty())

    def start(self) -> None:
        """Arm the line: it appears after ``delay`` seconds if the work goes on."""
        global _current
        _current = self
        self._started = time.monotonic()
        if not self._is_terminal():
            return
        self._thread = threading.Thread(target=self._run, name="pla-proof-progress", daemon=True)
        self._thread.start()

    def update(self, message: str) -> None:
        """Say what the command is doing now."""
        with self._lock:
            self.message = message
            if self._live is not None:
                self._live.update(self._task, description=self._describe())

    def _describe(self) -> str:
        return f"{self.label}: {self.message[:100]}"

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        from rich.console import Console

        console = Console(file=self.stream, stderr=True, highlight=False, markup=False)
        if console.is_dumb_terminal or not console.is_terminal:
            while not self._stop.is_set():
                elapsed = time.monotonic() - self._started
                with self._lock:
                    line = f"{self._describe()} ({elapsed:.0f} s)\n"
                self.stream.write(line)
                self.stream.flush()
                self.shown = True
                if self._stop.wait(DUMB_EVERY):
                    return
            return
        from rich.progress import Progress as Bar
        from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

        with self._lock:
            if self._stop.is_set():
                return
            self._live = Bar(
                SpinnerColumn(),
                TextColumn("{task.description}", markup=False),
                TimeElapsedColumn(),
                console=console,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._task = self._live.add_task(self._describe(), total=None)
            self._live.start()
            self.shown = True

    def stop(self) -> None:
        """Erase the line (if shown) and disarm it; safe to call more than once."""
        global _current
        self._stop.set()
        with self._lock:
            if self._live is not None:
                self._live.stop()
                self._live = None
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        if _current is self:
            _current = None
