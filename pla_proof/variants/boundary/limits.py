"""Time limits on users' code: the per-run clock.

A run of a variant is users' code (its ``run()``, its hooks, a ``fit()``): it may
never return.  :class:`time_limit` interrupts the code it encloses after a time
without progress (or a multiple of it in all), from a SIGALRM timer, even inside a
Python loop that never returns.

>>> with time_limit(None):  # no limit: nothing is armed
...     1 + 1
2
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from ...engine.jit import compile_seconds, watch
from ...interrupts import safe_to_interrupt

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "TOTAL_FACTOR",
    "RunTimeout",
    "check_deadline",
    "past_deadline",
    "time_limit",
]

#: The per-run time limit (seconds) of a search run: a run that makes no update for
#: this long, or runs :data:`TOTAL_FACTOR` times as long in all, fails ``ENDS``.
DEFAULT_TIME_LIMIT = 5.0
TOTAL_FACTOR = 10


class RunTimeout(BaseException):
    """Raised inside a run that exceeds the per-run time limit."""


#: The whole check's end (``time.monotonic()``), while one is set: runs stop there
#: (:func:`check_deadline`).  Forked workers inherit it: the clock is the machine's.
_DEADLINE: list[float] = []
#: The deadlines of the ``time_limit(..., deadline=True)`` being run: a limit nested in
#: one (a probe fit inside a run) keeps its deadline.
_WITHIN: list[float] = []


class check_deadline:
    """Within: the check ends ``seconds`` from now (``None``: no end) -- a run still
    going then is interrupted (``time_limit(..., deadline=True)``), and the search
    starts no new run (:func:`past_deadline`).

    >>> with check_deadline(0.0):
    ...     past_deadline()
    True
    >>> past_deadline()
    False
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds

    def __enter__(self) -> check_deadline:
        if self.seconds is not None:
            _DEADLINE.append(time.monotonic() + self.seconds)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.seconds is not None:
            _DEADLINE.pop()


def past_deadline() -> bool:
    """Has the check's deadline (:class:`check_deadline`) passed?"""
    return bool(_DEADLINE) and time.monotonic() >= _DEADLINE[-1]


class time_limit:
    """Interrupt the enclosed code after ``seconds`` (a SIGALRM timer; in the main
    thread only -- elsewhere the limit does not apply).

    With ``progress`` (a function giving the ``time.monotonic()`` of the last sign of
    progress, e.g. the last update of a run), the code is interrupted only after
    ``seconds`` without progress, or after ``total`` seconds in all: a slow run that
    keeps making updates on a loaded machine is not a run that never ends.

    Time spent compiling the engine's loops does not count, and the code is never
    interrupted inside the compiler (that would leave a half-built loop behind); once
    the time is up the timer keeps firing every 50 ms, so an interruption that lands
    where an exception is swallowed (a callback) is repeated.  On exit the timer is
    disarmed before anything else can be interrupted (a late signal is ignored), and a
    timer that was running before (an outer limit's, another library's) is put back with
    the time it had left.

    Time spent under a limit nested in this one (a run inside a drawing's limit) is the
    inner limit's to judge: it does not count towards this one, and its end is a sign
    of progress.  With ``deadline`` (and in any limit nested in one that has it), the code
    is also interrupted at the check's deadline (:class:`check_deadline`);
    :attr:`at_deadline` then says so.

    >>> import signal
    >>> before = signal.getitimer(signal.ITIMER_REAL)[0]  # another timer's, if one runs
    >>> with time_limit(0.2):
    ...     while True:
    ...         pass
    Traceback (most recent call last):
    ...
    pla_proof.variants.boundary.limits.RunTimeout
    >>> after = signal.getitimer(signal.ITIMER_REAL)[0]
    >>> after == before == 0.0 or 0.0 < after <= before
    True
    """

    def __init__(
        self,
        seconds: float | None,
        *,
        progress: Callable[[], float] | None = None,
        total: float | None = None,
        deadline: bool = False,
    ) -> None:
        self.seconds = seconds
        self.progress = progress
        self.total = total
        self.deadline = deadline
        self.end: float | None = None
        self.armed = False
        self.stalled = False  # True when it fired for want of progress (not ``total``)
        self.at_deadline = False  # True when it fired at the check's deadline
        self._old_handler: Any = None
        self._old_timer = (0.0, 0.0)
        self._start = 0.0
        self._compiled = 0.0
        self._nested = 0.0  # seconds spent under limits nested in this one
        self._resumed = 0.0  # when the last of them ended

    def _expired(self, signum: int, frame: Any) -> None:
        if not self.armed or frame.f_code in _SETTING or not safe_to_interrupt(frame):
            # (in the compiler, a GC callback, or a limit being set or taken down -- an
            # exception there would leave its handler and timer behind: the timer fires
            # again in 50 ms)
            return
        now = time.monotonic()
        if self.end is not None and now >= self.end:
            self.at_deadline = True
            raise RunTimeout()
        if not self.seconds:
            return
        compiling = compile_seconds() - self._compiled
        if self.progress is None:
            if now - self._start - compiling - self._nested < self.seconds:
                return
        else:
            quiet = now - max(self._start, self.progress(), self._resumed) - compiling
            whole = now - self._start - compiling - self._nested
            if quiet < self.seconds and (self.total is None or whole < self.total):
                return
            self.stalled = quiet >= self.seconds
        raise RunTimeout()

    def __enter__(self) -> time_limit:
        if (self.deadline or _WITHIN) and _DEADLINE:
            self.end = _DEADLINE[-1]
        if self.end is None and not self.seconds:
            return self
        if threading.current_thread() is not threading.main_thread():
            return self
        watch()
        self._start, self._compiled = time.monotonic(), compile_seconds()
        first = [self.seconds] if self.seconds else []
        if self.end is not None:
            first.append(max(self.end - self._start, 0.001))
        self._old_handler = signal.signal(signal.SIGALRM, self._expired)
        self.armed = True
        if self.end is not None:
            _WITHIN.append(self.end)
        self._old_timer = signal.setitimer(signal.ITIMER_REAL, min(first), 0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.armed:
            return
        self.armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        if self.end is not None:
            _WITHIN.pop()
        signal.signal(signal.SIGALRM, self._old_handler)
        now = time.monotonic()
        outer = getattr(self._old_handler, "__self__", None)
        if isinstance(outer, time_limit):  # the time spent here was this limit's to judge
            outer._nested += now - self._start
            outer._resumed = now
        delay, interval = self._old_timer
        if delay > 0:  # an outer timer: re-armed with what it had left (at least 1 ms)
            left = delay - (now - self._start)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), interval)


#: The code that sets a limit up and takes it down (only C calls once it changes
#: anything): no limit's timer interrupts it.
_SETTING = (time_limit.__enter__.__code__, time_limit.__exit__.__code__)
