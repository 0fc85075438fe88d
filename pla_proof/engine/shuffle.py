"""The portable random generator of the ``random`` and sampling rules (compiled).

splitmix64 and a Fisher-Yates shuffle: the same permutations on every machine, in the
compiled loop and in Python.

>>> import numpy as np
>>> perm = np.empty(4, dtype=np.int64)
>>> fill_permutation(perm, np.uint64(7), 0); sorted(perm.tolist())
[0, 1, 2, 3]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .jit import jit

__all__ = ["fill_permutation", "sample", "splitmix_values"]

_M64 = (1 << 64) - 1


def splitmix_values(seed: int, count: int) -> list[int]:
    """The first ``count`` outputs of splitmix64 from ``seed``, in plain Python (unsigned
    64-bit integers): fixed pseudo-random constants -- the hashes' multipliers -- without
    importing :mod:`numpy.random` (18-22 ms of a process' first run).

    >>> [hex(v) for v in splitmix_values(0, 2)]
    ['0xe220a8397b1dcdaf', '0x6e789e6aa1b965f4']
    """
    out = []
    z = seed & _M64
    for _ in range(count):
        z = (z + 0x9E3779B97F4A7C15) & _M64
        v = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        v = ((v ^ (v >> 27)) * 0x94D049BB133111EB) & _M64
        out.append(v ^ (v >> 31))
    return out


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


@jit
def sample(seed: np.uint64, visit: int, n: int) -> Any:
    """The point visited at ``visit`` under the sampling rule (uniform, with replacement)."""
    z = seed + np.uint64(visit + 1) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z % np.uint64(n))
