"""Selection rules: which violator the Perceptron updates on next.

Kalyanakrishnan's note says "pick an arbitrary j"; the theorem holds for every choice.  The engine
offers:

* ``first``: the violator of smallest index;
* ``cyclic``: visit the points in order, wrapping around, and update on each violator met
  (one epoch = one pass, as in the perceptron course page and scikit-learn with ``shuffle=False``);
* ``random``: visit the points in a fresh random permutation per epoch (the DSC 255 handout),
  drawn from ``seed`` by the portable generator below (the same permutations on every
  machine and in compiled and pure-Python runs);
* ``maxviol``: the most violated point (smallest ``y w.x``; ties to the smaller index);
* a *chooser*: any callable ``f(violators, k) -> j`` (0-based indices, ascending; ``k`` is
  the 1-based number of the coming update) -- Hypothesis choosing, or a recorded replay.

>>> permutation(5, seed=1, epoch=0), permutation(5, seed=1, epoch=1)
([2, 1, 4, 3, 0], [4, 2, 0, 1, 3])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["RULES", "Chooser", "Selection", "permutation", "rule_code"]

RULES = ("first", "cyclic", "random", "maxviol")
#: Rule codes of the compiled loop (``CHOOSE``: ask the caller at every update).
FIRST, CYCLIC, RANDOM, MAXVIOL, CHOOSE = 0, 1, 2, 3, 4

#: A chooser gets the violators (0-based indices, ascending) and the update index k
#: (1-based) and returns one of them.
Chooser = Callable[[list[int], int], int]

_MASK = (1 << 64) - 1


def rule_code(rule: str | Chooser) -> int:
    """The compiled loop's code for ``rule``."""
    if callable(rule):
        return CHOOSE
    return RULES.index(rule)


def seed_word(seed: int) -> np.uint64:
    """Any Python int seed as the generator's 64-bit seed."""
    return np.uint64(seed & _MASK)


def permutation(n: int, *, seed: int, epoch: int) -> list[int]:
    """The visiting order of epoch ``epoch`` (0-based) under the ``random`` rule (the
    compiled generator once the process has loaded the compiled loops, its Python code
    before: the same permutation)."""
    from .shuffle import fill_permutation

    perm = np.empty(n, dtype=np.int64)
    _small(fill_permutation)(perm, seed_word(seed), epoch)
    return [int(v) for v in perm]


def _small(fn: Any) -> Any:
    """``fn`` compiled if the compiled loops are loaded, else run as Python (a handful
    of calls per run need not load them)."""
    from . import jit

    return fn if jit.loaded() else jit.interpreted(fn)


class Selection:
    """The violator to update on next, one update at a time: the per-step path's
    selection (:func:`pla_proof.engine.pyloop.loop` runs on it), for any rule.

    ``cyclic`` and ``random`` *visit* points (one epoch = one pass; ``random`` walks the
    portable permutation of each epoch) and take the first visited point that triggers;
    ``first``, ``maxviol`` and a chooser pick among the current violators.  ``sample``
    visits uniformly random points with replacement (the pocket algorithm's picks);
    ``max_epochs`` caps the visits at that many per point.  :attr:`visits` holds the
    0-based visit number of each update (-1 for rules that do not visit).

    >>> sel = Selection(3, "cyclic")
    >>> [sel.choose([0, 2], lambda i: i in (0, 2), lambda i: 0) for _ in range(3)]
    [0, 2, 0]
    >>> sel.visits
    [0, 2, 3]
    >>> Selection(3, "maxviol").choose([0, 1], lambda i: True, [4, -5, 3].__getitem__)
    1
    """

    def __init__(
        self,
        n: int,
        order: str | Chooser = "cyclic",
        *,
        seed: int = 0,
        max_epochs: int | None = None,
        sample: bool = False,
    ) -> None:
        if isinstance(order, str) and order not in RULES:
            raise ValueError(f"unknown rule {order!r}")
        self.n, self.order, self.seed, self.sample = n, order, seed, sample
        self.cap = None if max_epochs is None else max_epochs * n
        self.pos, self.epoch, self.ppos, self.visited = 0, 0, 0, 0
        self.perm = permutation(n, seed=seed, epoch=0) if order == "random" and not sample else []
        self.seed_word = seed_word(seed)
        self.visits: list[int] = []

    @property
    def visiting(self) -> bool:
        """True for the rules that visit points (cyclic, random, sampled)."""
        return self.sample or self.order in ("cyclic", "random")

    def choose(
        self,
        violators: Sequence[int],
        triggers: Callable[[int], bool],
        score: Callable[[int], Any],
    ) -> int | None:
        """The next point to update on, given the current ``violators`` (ascending,
        non-empty), ``triggers(i)`` (does point ``i`` trigger now?) and ``score(i)``
        (smaller is more violated); ``None`` when the visit cap is reached first."""
        if self.visiting:
            from .shuffle import sample as sample_point

            while self.cap is None or self.visited < self.cap:
                if self.sample:
                    i = int(_small(sample_point)(self.seed_word, self.visited, self.n))
                elif self.order == "cyclic":
                    i = self.pos
                    self.pos = (self.pos + 1) % self.n
                else:
                    if self.ppos >= self.n:
                        self.epoch += 1
                        self.perm = permutation(self.n, seed=self.seed, epoch=self.epoch)
                        self.ppos = 0
                    i = self.perm[self.ppos]
                    self.ppos += 1
                self.visited += 1
                if triggers(i):
                    self.visits.append(self.visited - 1)
                    return i
            return None
        viol = list(violators)
        if callable(self.order):
            j = self.order(viol, len(self.visits) + 1)
            if j not in viol:
                raise ValueError(f"chooser returned {j!r}, which is not a violator {viol}")
        elif self.order == "first":
            j = viol[0]
        else:  # maxviol
            j = min(viol, key=lambda i: (score(i), i))
        self.visits.append(-1)
        return j
