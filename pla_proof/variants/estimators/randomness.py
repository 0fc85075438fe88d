"""Implementations whose fit draws from the global random state (an unseeded
``np.random.shuffle``, ``random.shuffle``, a random start) or is nondeterministic.

Such an implementation fits the same data differently each time: one lucky fit must
never clear a property.  :func:`randomness` tells it on probe fits -- the same fit under
two seeds of the global random state, then the first seed again -- and
:func:`seeded` fixes the global state around one fit, so that every fit the check makes
is reproducible (the same verdict with any ``--jobs``, on a replay) and several seeds
can be judged.

>>> import random
>>> with seeded(3):
...     a = random.random()
>>> with seeded(3):
...     b = random.random()
>>> a == b
True
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

__all__ = ["REFITS", "randomness", "seeded"]

#: How many fits, under seeds 0, 1, ..., a run of an implementation that draws from the
#: global random state judges.
REFITS = 3


@contextlib.contextmanager
def seeded(seed: int | None) -> Iterator[None]:
    """Within: numpy's and Python's global random states seeded with ``seed`` (None:
    left alone); both are put back as they were on the way out."""
    if seed is None:
        yield
        return
    np_state = np.random.get_state()
    py_state = random.getstate()
    np.random.seed(seed)
    random.seed(seed)
    try:
        yield
    finally:
        np.random.set_state(np_state)
        random.setstate(py_state)


def randomness(fitted: Callable[[], Any]) -> str | None:
    """How a fit depends on chance, from ``fitted()`` (one fit on a probe, returning
    something comparable: its weights or its answers): None when two seeds of the global
    random state give the same fit; else a sentence for the reading line."""
    with seeded(1):
        first = fitted()
    with seeded(2):
        second = fitted()
    if _same(first, second):
        return None
    with seeded(1):
        again = fitted()
    if _same(first, again):
        return (
            "its fit draws from the global random state (an unseeded shuffle or start): each "
            f"run fitted {REFITS} times, the state seeded 0 to {REFITS - 1}, every fit judged"
        )
    return (
        "nondeterministic: the same data and the same global random state fit differently: "
        f"each run fitted {REFITS} times, every fit judged"
    )


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(np.array_equal(np.asarray(a, dtype=object), np.asarray(b, dtype=object)))
    except Exception:  # what cannot be compared differs
        return False
