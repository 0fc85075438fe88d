"""Watching an implementation's weights change on one small case.

A variant's run is watched update by update (:func:`watch_variant`: the engine's
per-step path reports each one).  A ``fit(X, y)`` class or a training function is
watched from outside while it runs (:func:`watch_fit`): at every line of the users'
code it executes, its weights are read -- through its reading (an attribute of the
estimator), or, for a function, from the local variables that end up returned.  The
weights read at each execution of one line split the run into segments; the line
whose segments are best explained as the algorithm's updates (or as the same
mistake, again and again) is the granularity reported -- typically the loop over the
points, one visit per segment.  Code that runs where Python's tracing cannot see
(compiled, numba) leaves only the returned weights: the report says so.

>>> from fractions import Fraction as F
>>> cut = segments([("a", (0,)), ("b", (0,)), ("a", (1,)), ("b", (2,))], (2,))
>>> cut["a"], cut["b"]
([(0,), (1,), (2,)], [(0,), (2,)])
"""

from __future__ import annotations

import copy
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import FrameType
from typing import Any

import numpy as np

from ..boundary.calls import is_users

__all__ = [
    "EVENTS_KEPT",
    "Watched",
    "function_reader",
    "raw_key",
    "segments",
    "snapshot",
    "watch_fit",
    "watch_variant",
]

Vec = tuple[Fraction, ...]

#: At most this many line events are read (then the watch stops: the rest of the run
#: is seen only through its returned weights).
EVENTS_KEPT = 20_000


@dataclass
class Watched:
    """What was seen: ``states`` at each candidate line (by its key), or ``steps`` (a
    variant's updates, with their points); ``end`` the returned weights; ``why`` says
    what could not be watched."""

    start: Vec | None = None
    steps: list[tuple[int, Vec]] = field(default_factory=list)
    events: list[tuple[str, Any]] = field(default_factory=list)
    #: a training function's local variables as it returned (the live objects)
    live: dict[str, Any] = field(default_factory=dict)
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
    fit: Callable[[], Any],
    read: Callable[[FrameType], Any],
    top: Any = None,
    enough: Callable[[], bool] | None = None,
) -> Watched:
    """Call ``fit()`` with Python's line tracing on the users' code; at every line,
    ``read(frame)`` gives the weights (or what holds them; None when there is nothing
    yet).  ``top``: the code object of a training function (its frame is the one
    ``read`` is given; its local variables as it returns are kept in ``live``).
    ``enough()``: True when enough has been seen (the watch then stops)."""
    out = Watched()
    events: list[tuple[str, Any]] = []
    frames: list[FrameType] = []
    state: dict[str, Any] = {"n": 0}

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            state["n"] += 1
            if state["n"] > EVENTS_KEPT or (enough is not None and enough()):
                out.cut = True
                return None
            where = frames[0] if frames else frame
            try:
                w = read(where)
            except Exception:  # users' objects half-built: nothing to read yet
                w = None
            if w is not None:
                events.append((f"{frame.f_code.co_filename}:{frame.f_lineno}", w))
        elif event == "return" and frames and frame is frames[0]:
            out.live = dict(frame.f_locals)
        return local

    users: dict[str, bool] = {}

    def on_call(frame: FrameType, event: str, arg: Any) -> Any:
        if event != "call" or out.cut:
            return None
        name = frame.f_code.co_filename
        if name not in users:
            users[name] = is_users(name)
        if not users[name]:
            return None
        if top is not None and frame.f_code is top and not frames:
            frames.append(frame)
        return local

    previous = sys.gettrace()
    sys.settrace(on_call)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit()
    finally:
        sys.settrace(previous)
    if frames and not out.live:  # the watch stopped before the function returned
        out.live = dict(frames[0].f_locals)
    out.events = events
    if out.cut:
        out.why = f"watched for its first {state['n'] - 1} lines"
    return out


def segments(events: Sequence[tuple[str, Vec]], end: Vec) -> dict[str, list[Vec]]:
    """The weights at each execution of each line that ran more than once (then the
    returned weights), consecutive repeats dropped: one trajectory per candidate line."""
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
        if seq[-1] != end:
            seq.append(end)
    return by


def function_reader(
    fitted: Any, reading: Any, out: Any, live: dict[str, Any]
) -> Callable[[dict[str, Any]], Vec | None] | None:
    """For a training function: how to read its weights from a snapshot of its local
    variables -- each value it returned is matched to the local that held it when it
    returned (the same object, else an equal value).  None when none matches."""
    items = fitted.keep(out)
    names: list[str | None] = []
    for item in items:
        name = next((n for n, v in live.items() if v is item), None)
        if name is None:
            name = next((n for n, v in live.items() if _equal(v, item)), None)
        names.append(name)
    if not any(names):
        return None
    single = len(items) == 1
    seen: dict[tuple[bytes, ...], Vec | None] = {}

    def read(snapshot: dict[str, Any]) -> Vec | None:
        key = tuple(_raw(snapshot.get(n)) if n else b"" for n in names)
        if key not in seen:
            seen[key] = _read(snapshot)
        return seen[key]

    def _read(snapshot: dict[str, Any]) -> Vec | None:
        got = []
        for name, item in zip(names, items, strict=True):
            if name is None:
                got.append(item)
            elif name not in snapshot:
                return None
            else:
                got.append(snapshot[name])
        shaped = got[0] if single else (type(out)(got) if isinstance(out, tuple | list) else got)
        probe = copy.copy(fitted)
        probe.keep(shaped)
        w, b = reading.predictor(probe)
        return (*w, b)

    return read


def _raw(v: Any) -> bytes:
    """A value's numbers as bytes (a cheap key: equal bytes, equal weights)."""
    try:
        return bytes(np.asarray(v, dtype=np.float64).tobytes())
    except (TypeError, ValueError):
        return repr(v).encode()


def raw_key(values: Sequence[Any]) -> tuple[bytes, ...]:
    """The numbers of several values as bytes (see :func:`_raw`)."""
    return tuple(_raw(v) for v in values)


def snapshot(frame: FrameType) -> dict[str, Any]:
    """A frame's numeric local variables, copied (arrays and lists of numbers, numbers)."""
    out: dict[str, Any] = {}
    for name, v in frame.f_locals.items():
        if isinstance(v, np.ndarray) and v.dtype.kind in "iuf":
            out[name] = v.copy()
        elif isinstance(v, int | float | np.number) and not isinstance(v, bool):
            out[name] = v
        elif isinstance(v, list) and v and all(isinstance(a, int | float) for a in v[:64]):
            out[name] = list(v)
    return out


def _equal(a: Any, b: Any) -> bool:
    try:
        x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return x.shape == y.shape and x.size > 0 and bool(np.array_equal(x, y))
