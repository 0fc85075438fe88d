"""Selection rules: which violator the Perceptron updates on next.

Seed 000 says "pick an arbitrary j"; the theorem holds for every choice.  The engine
offers:

* ``first``: the violator of smallest index;
* ``cyclic``: visit the points in order, wrapping around, and update on each violator met
  (one epoch = one pass, as in seed 003 and scikit-learn with ``shuffle=False``);
* ``random``: visit the points in a fresh random permutation per epoch (seed 004),
  drawn from ``seed`` by the portable generator below (the same permutations on every
  machine and in compiled and pure-Python runs);
* ``maxviol``: the most violated point (smallest ``y w.x``; ties to the smaller index);
* a *chooser*: any callable ``f(violators, k) -> j`` (0-based indices, ascending; ``k`` is
  the 1-based number of the coming update) -- Hypothesis choosing, or a recorded replay.

>>> permutation(5, seed=1, epoch=0), permutation(5, seed=1, epoch=1)
([2, 1, 4, 3, 0], [4, 2, 0, 1, 3])
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["RULES", "Chooser", "permutation", "rule_code"]

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
    """The visiting order of epoch ``epoch`` (0-based) under the ``random`` rule."""
    from .shuffle import fill_permutation

    perm = np.empty(n, dtype=np.int64)
    fill_permutation(perm, seed_word(seed), epoch)
    return [int(v) for v in perm]
