"""Watching an implementation's weights change on one small case.

A variant's run is watched update by update (:func:`watch_variant`: the engine's
per-step path reports each one).  A ``fit(X, y)`` class is watched from outside while it
runs (:func:`watch_fit`): for the call, its instance's class is a subclass in which the
attributes that hold its weights are properties, and every read of them made
by the users' code records the weights under the line that made it -- no trace or
profile hook is set (a hook in a long-lived process is what this project will not risk).
The weights recorded at each execution of one line split the run into segments; the
line whose segments are best explained as the algorithm's updates (or as the same
mistake, again and again) is the granularity reported -- typically the line that reads
the weights to score a point, one visit per segment.  A training function's local
variables, and a class that cannot change class (``__slots__``, numba), leave only the
returned weights: the report says so.

>>> from fractions import Fraction as F
>>> cut = segments([("a", (0,)), ("b", (0,)), ("a", (1,)), ("b", (2,))], (2,))
>>> cut["a"], cut["b"]
([(0,), (1,), (2,)], [(0,), (2,)])
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import FrameType
from typing import Any

import numpy as np

from ..boundary.calls import is_users

__all__ = ["EVENTS_KEPT", "Watched", "raw_key", "segments", "watch_fit", "watch_variant"]

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


def watch_variant(run: Callable[[], Any]) -> tuple[Watched, Any]:
    """Run ``run()`` (a variant's run on the case) with its per-step updates watched."""
    from ..protocol.variant import watching

    with watching() as seen:
        rec = run()
    out = Watched(granularity="every update of the variant's run, on the engine's per-step path")
    if not seen:
        if getattr(rec, "updates", 0):
            out.why = "the run was made on the compiled path, which is not watched"
        return out, rec
    out.start = tuple(seen[0][1])
    prev = out.start
    for j, before, after in seen:
        if tuple(before) != prev:
            break  # a second run inside the first (e.g. a refit): the first is the one
        out.steps.append((j, tuple(after)))
        prev = tuple(after)
    return out, rec


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


def segments(
    events: Sequence[tuple[str, Vec]], end: Vec, finished: bool = True
) -> dict[str, list[Vec]]:
    """The weights at each execution of each line that ran more than once (then the
    returned weights, when the watch saw the run to its end: ``finished``), consecutive
    repeats dropped: one trajectory per candidate line.

    >>> segments([("a", (0,)), ("a", (1,))], (9,), finished=False)["a"]
    [(0,), (1,)]
    """
    by: dict[str, list[Vec]] = {}
    count: dict[str, int] = {}
    for key, _ in events:
        count[key] = count.get(key, 0) + 1
    for key, w in events:
        if count[key] < 2:
            continue
        seq = by.setdefault(key, [])
        if not seq or seq[-1] != w:
            seq.append(w)
    for seq in by.values():
        if finished and seq[-1] != end:
            seq.append(end)
    return by


def _raw(v: Any) -> bytes:
    """A value's numbers as bytes (a cheap key: equal bytes, equal weights)."""
    try:
        return bytes(np.asarray(v, dtype=np.float64).tobytes())
    except (TypeError, ValueError):
        return repr(v).encode()


def raw_key(values: Sequence[Any]) -> tuple[bytes, ...]:
    """The numbers of several values as bytes (see :func:`_raw`)."""
    return tuple(_raw(v) for v in values)
