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
from typing import Any

import numpy as np

from ._jit import jit

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


@jit
def _splitmix(state: np.ndarray) -> Any:
    """Advance the 64-bit state in ``state[0]`` and return the next output (splitmix64)."""
    z = state[0] + np.uint64(0x9E3779B97F4A7C15)
    state[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def _below(state: np.ndarray, bound: int) -> Any:
    """A uniform integer in ``[0, bound)`` (rejection sampling, no modulo bias)."""
    b = np.uint64(bound)
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0xFFFFFFFFFFFFFFFF) % b)
    while True:
        r = _splitmix(state)
        if r < limit:
            return np.int64(r % b)


@jit
def fill_permutation(perm: np.ndarray, seed: np.uint64, epoch: int) -> None:
    """Fisher-Yates shuffle of ``0..n-1`` into ``perm`` for epoch ``epoch`` of ``seed``."""
    n = perm.shape[0]
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed ^ (np.uint64(epoch) * np.uint64(0xD1B54A32D192ED03))
    for i in range(n):
        perm[i] = i
    for i in range(n - 1, 0, -1):
        j = _below(state, i + 1)
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t


def seed_word(seed: int) -> np.uint64:
    """Any Python int seed as the generator's 64-bit seed."""
    return np.uint64(seed & _MASK)


def permutation(n: int, *, seed: int, epoch: int) -> list[int]:
    """The visiting order of epoch ``epoch`` (0-based) under the ``random`` rule."""
    perm = np.empty(n, dtype=np.int64)
    fill_permutation(perm, seed_word(seed), epoch)
    return [int(v) for v in perm]
