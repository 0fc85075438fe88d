"""Users' code run where nothing it does can outlive the call: a forked child process.

Some reads of users' code install process-wide machinery for their length -- a profile
hook, redirected output, SymPy's caches filled with symbols -- and call that code on
values it was never written for.  In the check's own process (a long-lived test worker
most of all) whatever such a call leaves behind -- a hook, a handler, a lowered
recursion limit, a half-built cache -- stays for every later run.  :func:`in_child`
runs the call in a child forked for it: the child's value comes back pickled, the child
is killed when it takes longer than its time, and nothing of it is left in the caller.

>>> in_child(sum, [1, 2, 3])
6
>>> try:
...     in_child(int, "x")
... except ChildFailed as e:
...     print(str(e).split(" (at")[0])
ValueError: invalid literal for int() with base 10: 'x'
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

from .calls import one_line

__all__ = ["ChildFailed", "in_child"]

#: What a child may take, in seconds, unless the caller says.
CHILD_SECONDS = 60.0


class ChildFailed(Exception):
    """The call raised in the child (its one line), took longer than its time, or the
    child ended without an answer."""


def in_child(function: Callable[..., Any], *args: Any, seconds: float | None = None) -> Any:
    """``function(*args)`` in a forked child: its value, or :class:`ChildFailed`, within
    ``seconds`` (:data:`CHILD_SECONDS` when ``None``).  Where the platform cannot fork,
    the call runs here."""
    seconds = CHILD_SECONDS if seconds is None else seconds
    if not hasattr(os, "fork"):
        try:
            return function(*args)
        except Exception as exc:
            raise ChildFailed(one_line(exc)) from exc
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        _child(read_end, write_end, function, args)
    os.close(write_end)
    data = b""
    try:
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            ready = select.select([read_end], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                raise ChildFailed(f"it did not finish in {seconds:g} s")
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            data += chunk
    finally:  # (a limit of the caller's may end the wait: the child goes too)
        os.close(read_end)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    try:
        ok, value = pickle.loads(data)
    except Exception:
        raise ChildFailed("the child ended without an answer") from None
    if not ok:
        raise ChildFailed(value)
    return value


def _child(read_end: int, write_end: int, function: Callable[..., Any], args: Any) -> None:
    status = 0
    try:
        os.close(read_end)
        signal.setitimer(signal.ITIMER_REAL, 0)  # (a caller's limit is the parent's)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        sys.stdout = sys.stderr = os.fdopen(devnull, "w")  # (a caller's capture too)
        try:
            answer: tuple[bool, Any] = (True, function(*args))
            data = pickle.dumps(answer)
        except BaseException as exc:  # the caller's to report, in one line
            data = pickle.dumps((False, one_line(exc)))
        with os.fdopen(write_end, "wb") as out:
            out.write(data)
    except BaseException:
        status = 1
    finally:
        os._exit(status)  # (pla_proof's call: the real end, guarded or not)
