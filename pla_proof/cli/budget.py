"""The per-command time and memory budget: a run ends cleanly, never hangs.

* **time**: after ``--time-limit`` seconds a watchdog raises :class:`BudgetExceeded`
  in the thread running the command (``PyThreadState_SetAsyncExc``: the thread may
  be any thread, e.g. a test runner's); the command ends with exit 3 and one line
  naming the limit.  It is never raised while the thread compiles or loads a compiled
  loop (numba and LLVM would be left half-built): it waits, retrying every 50 ms, until
  the compiler returns.  Work stuck inside one long C call cannot be interrupted from
  Python, so when the command is the process (the ``pla-proof`` program, not
  ``main()`` called in-process) the watchdog also ends the process itself a few
  seconds later with the same line and exit code.
* **memory**: in the ``pla-proof`` process the address space is limited to
  ``--memory-limit`` MiB (``RLIMIT_AS``); an allocation beyond it raises
  ``MemoryError``, reported as exit 3.

Defaults: ``PLA_PROOF_TIME_LIMIT`` (seconds) and ``PLA_PROOF_MEMORY_LIMIT`` (MiB)
from the environment, else 600 s and 8192 MiB; 0 means no limit.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from types import TracebackType

__all__ = ["DEFAULT_MEMORY_MB", "DEFAULT_SECONDS", "BudgetExceeded", "CommandBudget"]

DEFAULT_SECONDS = 600.0
DEFAULT_MEMORY_MB = 8192
#: seconds between the soft interruption and the hard end of the process
GRACE = 3.0


def _env_number(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value >= 0 else default


def _must_wait(thread_id: int) -> bool:
    """Is the thread where the exception must not land (compiling or loading a compiled
    loop, or in a garbage-collector callback)?"""
    from ..interrupts import safe_to_interrupt

    return not safe_to_interrupt(sys._current_frames().get(thread_id))


class BudgetExceeded(BaseException):
    """The command ran past its time budget (a ``BaseException``, like
    ``KeyboardInterrupt``: no ``except Exception`` in the library swallows it)."""


class CommandBudget:
    """A context manager enforcing the budget for one command."""

    def __init__(self, command: str, seconds: float, megabytes: int, *, process: bool) -> None:
        self.command = command
        self.seconds = seconds
        self.megabytes = megabytes
        self.process = process
        self.expired = False
        self._timers: list[threading.Timer] = []
        self._thread_id = threading.get_ident()
        self._saved_limit: tuple[int, int] | None = None
        self._lock = threading.Lock()
        self._active = False

    @staticmethod
    def defaults() -> tuple[float, int]:
        return (
            _env_number("PLA_PROOF_TIME_LIMIT", DEFAULT_SECONDS),
            int(_env_number("PLA_PROOF_MEMORY_LIMIT", DEFAULT_MEMORY_MB)),
        )

    def message(self) -> str:
        return (
            f"pla-proof {self.command}: time limit of {self.seconds:g} s reached "
            "(raise it with --time-limit SECONDS, 0 for none)"
        )

    def _soft(self) -> None:
        with self._lock:  # never after __exit__ has begun: the command is over
            if not self._active:
                return
            if _must_wait(self._thread_id):  # not inside numba/LLVM or GC: retry in 50 ms
                again = threading.Timer(0.05, self._soft)
                again.daemon = True
                self._timers.append(again)
                again.start()
                return
            self.expired = True
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(self._thread_id), ctypes.py_object(BudgetExceeded)
            )

    def _hard(self) -> None:
        try:
            sys.stderr.write(self.message() + "\n")
            sys.stderr.flush()
        finally:
            os._exit(3)

    def __enter__(self) -> CommandBudget:
        self._thread_id = threading.get_ident()
        self._active = True
        if self.seconds > 0:
            soft = threading.Timer(self.seconds, self._soft)
            self._timers.append(soft)
            if self.process:
                self._timers.append(threading.Timer(self.seconds + GRACE, self._hard))
            for t in self._timers:
                t.daemon = True
                t.start()
        if self.process and self.megabytes > 0:
            try:
                import resource

                self._saved_limit = resource.getrlimit(resource.RLIMIT_AS)
                cap = self.megabytes * 2**20
                hard = self._saved_limit[1]
                if hard != resource.RLIM_INFINITY:
                    cap = min(cap, hard)
                resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
            except (ImportError, ValueError, OSError):  # not on this platform
                self._saved_limit = None
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with self._lock:
            self._active = False
            for t in self._timers:
                t.cancel()
            if self.expired:
                # scheduled, but the command finished (or failed otherwise) first: take
                # it back, or it would go off later in whatever the thread runs next
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self._thread_id), None)
        if self._saved_limit is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, self._saved_limit)
