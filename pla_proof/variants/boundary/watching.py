"""Watching users' code from outside while it runs: a ``fit(X, y)`` class's weight
attributes made properties for one call (:func:`watch_fit`), every read of them made by
the users' code recorded under the line that made it -- no trace or profile hook is set
(a hook in a long-lived process is what this project will not risk).  The diagnosis
(:mod:`pla_proof.variants.diagnosis.watch`) splits what it records into updates; the
check counts it (how much a fit read its weights: the same work with a larger budget is a
fit that stopped by itself).

>>> class Fit:
...     def __init__(self, passes):
...         self.w, self.passes = 0, passes
...     def fit(self):
...         for _ in range(self.passes):
...             if self.w < 2:
...                 self.w += 1
>>> est = Fit(5)
>>> seen = watch_fit(est, ["w"], lambda: est.w, est.fit)
>>> est.w, type(est).__name__, seen.why  # (a read from a file of the users' is recorded)
(2, 'Fit', '')
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import FrameType
from typing import Any

from .calls import is_users

__all__ = ["EVENTS_KEPT", "Vec", "Watched", "watch_fit"]

Vec = tuple[Fraction, ...]

#: At most this many reads are recorded (then the watch stops: the rest of
#: the run is seen only through its returned weights).
EVENTS_KEPT = 20_000


@dataclass
class Watched:
    """What was seen: ``states`` at each candidate line (by its key), or ``steps`` (a
    variant's updates, with their points); ``end`` the returned weights; ``why`` says
    what could not be watched."""

    start: Vec | None = None
    steps: list[tuple[int, Vec]] = field(default_factory=list)
    events: list[tuple[str, Any]] = field(default_factory=list)
    end: Vec | None = None
    granularity: str = ""
    why: str = ""
    cut: bool = False  # the event limit was reached


def watch_fit(
    est: Any,
    names: Sequence[str],
    read: Callable[[], Any],
    fit: Callable[[], Any],
    enough: Callable[[], bool] | None = None,
) -> Watched:
    """Call ``fit()`` with the attributes ``names`` of the estimator ``est`` watched: the
    estimator's class is replaced, for the call, by a subclass in which each is a
    property that lets every read and write through and, at each read made from the
    users' code, records ``read()`` (its weights) under the line that made it.  No
    trace or profile hook is set.  ``enough()``: True when enough has been seen (the
    watch then stops recording).  ``why`` says when nothing could be watched (a class
    whose instances cannot change class, or that defines one of ``names`` itself)."""
    out = Watched()
    events: list[tuple[str, Any]] = []
    cls = type(est)
    taken = [n for n in names if any(n in vars(k) for k in cls.__mro__)]
    if taken:
        out.why = f"{', '.join(taken)} is defined by the class itself (not watched)"
        fit()
        return out
    state = {"busy": False, "n": 0}
    users: dict[str, bool] = {}

    def record(frame: FrameType | None) -> None:
        if state["busy"] or out.cut or frame is None:
            return
        name = frame.f_code.co_filename
        if name not in users:
            users[name] = is_users(name)
        if not users[name]:
            return
        state["n"] += 1
        if state["n"] > EVENTS_KEPT or (enough is not None and enough()):
            out.cut = True
            return
        state["busy"] = True
        try:
            w = read()
        except Exception:  # users' objects half-built: nothing to read yet
            w = None
        finally:
            state["busy"] = False
        if w is not None:
            events.append((f"{name}:{frame.f_lineno}", w))

    def watched(attr: str) -> property:
        def get(obj: Any) -> Any:
            try:
                value = obj.__dict__[attr]
            except KeyError:
                raise AttributeError(attr) from None
            if obj is est:
                record(sys._getframe(1))
            return value

        def put(obj: Any, value: Any) -> None:
            # (a write is not recorded: an update may write several attributes, so the
            # weights just after one write can be half an update; the next read sees all)
            obj.__dict__[attr] = value

        def drop(obj: Any) -> None:
            del obj.__dict__[attr]

        return property(get, put, drop)

    try:
        sub = type(cls.__name__, (cls,), {n: watched(n) for n in names})
        est.__class__ = sub
    except TypeError as exc:  # __slots__, a compiled class: it cannot be watched
        out.why = f"its class cannot be watched ({exc})"
        fit()
        return out
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit()
    finally:
        est.__class__ = cls
    out.events = events
    if out.cut:
        out.why = f"watched for its first {state['n'] - 1} reads of its weights"
    return out
