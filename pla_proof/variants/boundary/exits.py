"""``os._exit`` called by users' code: a failure said where, never a silent end.

``os._exit(n)`` ends the process at once: no exception, no ``finally``, no report.
Called by users' code in the check's own process (a probe fit, a run with ``--jobs 1``)
it ended the whole check with the user's status and nothing on the screen.  While a
command runs, :func:`guarded_exit` puts :func:`ended_here` in its place: called from
users' code -- in the check's process or in a worker -- it raises
:class:`ProcessEnded` at the user's line, which the check reports like any exception of
users' code (``RUNS``, with the line).  Every other call -- the library's
(``multiprocessing`` ending a worker), pla_proof's own (the command's budget ending a
stuck command, the command's own fast exit) -- still ends the process.

What no function can turn into an exception is still fatal in the check's process: a
signal, a crash in compiled code.  In a worker (every run of users' code with
``--jobs`` above 1) they are caught as a worker that died.

>>> with guarded_exit():
...     try:
...         ended_here(3, user=True)
...     except ProcessEnded as e:
...         print(e)
os._exit(3) was called: it ends the process
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import NoReturn

from .calls import is_users

__all__ = ["ProcessEnded", "ended_here", "guard_workers_exit", "guarded_exit"]

#: The interpreter's own ``os._exit``, for the library's calls.
_REAL_EXIT = os._exit


class ProcessEnded(Exception):
    """Users' code called ``os._exit(code)`` while a command ran."""

    def __init__(self, code: int) -> None:
        super().__init__(f"os._exit({code}) was called: it ends the process")
        self.code = code


def ended_here(code: int, user: bool | None = None) -> NoReturn:
    """``os._exit`` while a command runs: :class:`ProcessEnded` when the caller is
    users' code (``user``; read from the calling frame when ``None``), else the real end
    of the process."""
    if user is None:
        user = is_users(sys._getframe(1).f_code.co_filename)
    if user:
        raise ProcessEnded(code)
    _REAL_EXIT(code)


@contextlib.contextmanager
def guarded_exit() -> Iterator[None]:
    """``os._exit`` is :func:`ended_here` inside the block (in worker processes forked
    from it too); the previous one is back after it."""
    before = os._exit
    os._exit = ended_here  # type: ignore[assignment]
    try:
        yield
    finally:
        os._exit = before


def guard_workers_exit() -> None:
    """In a worker process started afresh (not forked from a guarded block): users'
    calls of ``os._exit`` raise :class:`ProcessEnded` for the worker's life."""
    os._exit = ended_here  # type: ignore[assignment]
