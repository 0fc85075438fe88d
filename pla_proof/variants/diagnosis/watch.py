"""Watching an implementation's weights change on one small case.

A variant's run is watched update by update (:func:`watch_variant`: the engine's
per-step path reports each one).  A ``fit(X, y)`` class is watched from outside while it
runs (:func:`~pla_proof.variants.boundary.watching.watch_fit`): for the call, its
instance's class is a subclass in which the attributes that hold its weights are
properties, and every read of them made by the users' code records the weights under the
line that made it -- no trace or profile hook is set (a hook in a long-lived process is
what this project will not risk).
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

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..boundary.watching import EVENTS_KEPT, Vec, Watched, watch_fit

__all__ = ["EVENTS_KEPT", "Watched", "raw_key", "segments", "watch_fit", "watch_variant"]


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
