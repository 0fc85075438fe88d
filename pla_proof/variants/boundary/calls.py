"""Calling users' code: an exception, a wrong type or a print from a hook is the
user's, said in one line that names the hook and the user's own line.

>>> def claim(case):
...     return None
>>> try:
...     call_hook(claim, "claim", 0, expect=int, expected="a Claim")
... except HookError as e:
...     print(e)  # (written in a file, the message says where: "(at mine.py:2)")
claim() returned None; expected a Claim
"""

from __future__ import annotations

import contextlib
import io
import os
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from ...errors import InputError
from ...userprints import user_output
from .limits import TOTAL_FACTOR, RunTimeout, time_limit
from .loading import is_machinery

__all__ = [
    "HookError",
    "call_before_runs",
    "call_hook",
    "defined_at",
    "hook_error",
    "is_users",
    "one_line",
    "quiet_output",
    "raised_in",
    "returned",
    "stuck_in",
    "user_frames",
]

#: Python's own library: frames there are neither pla_proof's nor the user's.
_STDLIB = os.path.dirname(os.__file__)


class HookError(InputError):
    """Users' code misbehaved in a hook outside any run (raised, returned the wrong
    type, never returned): one line naming the hook, the user's file and line and what
    was expected.  On the command line: exit 2."""


def _library(filename: str) -> bool:
    """Code that is not the user's: pla_proof's, Python's library, an installed package,
    or code made at run time (``<string>``: a dataclass's ``__init__``, say)."""
    if filename.startswith("<"):
        return True
    path = os.path.abspath(filename)
    return is_machinery(filename) or path.startswith(_STDLIB + os.sep) or "site-packages" in path


def is_users(filename: str) -> bool:
    """Is the code in ``filename`` users' own (not pla_proof's, Python's library's, an
    installed package's, or made at run time)?

    >>> is_users(os.__file__), is_users("/home/me/mine.py")
    (False, True)
    """
    return not _library(filename)


def user_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    """The frames of ``exc``'s traceback in users' code (not pla_proof's, not Python's
    library, not an installed package's), innermost last."""
    return [f for f in traceback.extract_tb(exc.__traceback__) if not _library(f.filename)]


def one_line(exc: BaseException) -> str:
    """An exception as one line: type, message and where it was raised -- the innermost
    line of users' code in its traceback, else the innermost line.

    >>> try:
    ...     1 / 0
    ... except ZeroDivisionError as e:
    ...     one_line(e).split(" (")[0]
    'ZeroDivisionError: division by zero'
    """
    msg = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {msg[0]}" if msg else type(exc).__name__
    frames = user_frames(exc) or traceback.extract_tb(exc.__traceback__)
    if frames:
        fr = frames[-1]
        text += f" (at {fr.filename.rsplit('/', 1)[-1]}:{fr.lineno})"
    return text


def hook_error(hook: str, exc: BaseException) -> str:
    """``hook() raised Type: message (at file.py:LINE)``, where ``hook`` is the function
    of the innermost line of users' code (the hook called, or the one it called: a
    ``cases()`` that calls its ``domain()``), else the hook called."""
    frames = user_frames(exc)
    name = frames[-1].name if frames and frames[-1].name.isidentifier() else hook
    return f"{name}() raised {one_line(exc)}"


def raised_in(exc: BaseException) -> str:
    """What a run's exception says: ``step() raised Type: message (at file.py:LINE)``
    when it was raised in users' code (the hook is the function of its innermost user
    frame), else ``raised Type: message (at file.py:LINE)``."""
    frames = user_frames(exc)
    if frames and frames[-1].name.isidentifier():
        return hook_error(frames[-1].name, exc)
    return "raised " + one_line(exc)


def returned(function: Any, hook: str, value: Any, expected: str) -> str:
    """``hook() returned VALUE (at file.py:LINE); expected WHAT``."""
    return f"{hook}() returned {_shown(value)}{defined_at(function)}; expected {expected}"


def stuck_in(exc: BaseException, hook: str) -> str:
    """Where users' code was when the clock stopped it: ``accepts() (at file.py:LINE)``
    -- the function of its innermost user frame -- else ``hook()``."""
    frames = user_frames(exc)
    if not frames:
        return f"{hook}()"
    fr = frames[-1]
    name = fr.name if fr.name.isidentifier() else hook
    line = "" if fr.lineno is None else f":{fr.lineno}"  # (none while it was starting)
    return f"{name}() (at {os.path.basename(fr.filename)}{line})"


def defined_at(function: Any) -> str:
    """`` (at file.py:LINE)``: where users' ``function`` is written (empty when that
    cannot be told, or when it is pla_proof's own)."""
    import inspect

    try:
        target = inspect.unwrap(function)
        path = inspect.getsourcefile(target) or ""
        lines, line = inspect.getsourcelines(target)
    except (OSError, TypeError):
        return ""
    for i, text in enumerate(lines):  # past its decorators (@property), to the def itself
        if text.lstrip().startswith(("def ", "async def ", "class ")):
            line += i
            break
    if not path or _library(path):
        return ""
    return f" (at {os.path.basename(path)}:{line})"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def call_hook(
    function: Callable[..., Any],
    hook: str,
    *args: Any,
    expect: type | tuple[type, ...] | Callable[[Any], bool] | None = None,
    expected: str = "",
    error: type[Exception] = HookError,
) -> Any:
    """``function(*args)``, users' code: an exception it raises (but an
    :class:`~pla_proof.errors.OutsideDomain`, which is its way of saying "not my case",
    and ``KeyboardInterrupt``/``SystemExit``) becomes ``error`` naming ``hook`` and the
    user's line; a value that is not ``expect`` (a type, or a predicate) becomes
    ``error`` saying what was ``expected``."""
    from ...errors import OutsideDomain

    try:
        value = function(*args)
    except (OutsideDomain, HookError, KeyboardInterrupt, SystemExit):
        raise  # (a HookError: a hook it called already said what went wrong)
    except Exception as exc:
        raise error(hook_error(hook, exc)) from exc
    if expect is not None:
        ok = isinstance(value, expect) if isinstance(expect, type | tuple) else expect(value)
        if not ok:
            raise error(returned(function, hook, value, expected))
    return value


@contextlib.contextmanager
def quiet_output() -> Iterator[io.TextIOBase]:
    """Users' prints go to standard error, never into a JSON document on standard
    output (what they printed is still shown, each line headed by ``[user] ``:
    :func:`pla_proof.userprints.user_output`)."""
    with user_output() as out:
        yield out


def call_before_runs(
    function: Callable[..., Any], hook: str, limit: float | None, *args: Any, **kw: Any
) -> Any:
    """``call_hook`` for a hook called before any run, under the per-run limit (times
    :data:`~.limits.TOTAL_FACTOR`, in all): one that never returns is a
    :class:`HookError` naming the function it was stuck in."""
    try:
        with time_limit(None if limit is None else TOTAL_FACTOR * limit):
            return call_hook(function, hook, *args, **kw)
    except RunTimeout as exc:
        assert limit is not None
        raise HookError(
            f"{stuck_in(exc, hook)} did not return in {TOTAL_FACTOR * limit:g} s"
        ) from None
