"""The scratch pool: a buffer is never handed out twice at once, foreign arrays are
left alone, threads keep their own buffers, and a monitored run's record reads the same
values after later runs have reused the memory its chunks were measured in."""

from __future__ import annotations

import threading
from fractions import Fraction

import numpy as np

from pla_proof import train
from pla_proof.data import from_arrays
from pla_proof.engine import scratch
from pla_proof.engine.measure import ResidueMeasures


def _root(a: np.ndarray) -> np.ndarray:
    return a.base if a.base is not None else a


def test_a_buffer_is_not_handed_out_twice_until_given_back() -> None:
    a = scratch.take((100,), np.int64)
    b = scratch.take((100,), np.int64)
    assert _root(a) is not _root(b)
    a[:] = 1
    b[:] = 2
    assert a.tolist() == [1] * 100
    scratch.give(a)
    c = scratch.take((50,), np.int64)
    assert _root(c) is _root(a)  # the buffer given back is the one reused
    scratch.give(b)
    scratch.give(c)


def test_foreign_arrays_and_second_gives_are_ignored() -> None:
    own = np.zeros(1000, dtype=np.uint8)
    scratch.give(own)  # never taken: not kept, never handed out
    a = scratch.take((10,), np.float64)
    scratch.give(a)
    scratch.give(a)  # a second give must not put the buffer in the pool twice
    x = scratch.take((10,), np.float64)
    y = scratch.take((10,), np.float64)
    assert _root(x) is not _root(y)
    assert all(_root(t) is not own for t in (x, y))
    scratch.give(x)
    scratch.give(y)


def test_threads_keep_their_own_buffers() -> None:
    a = scratch.take((64,), np.int64)
    scratch.give(a)
    got: list[np.ndarray] = []
    t = threading.Thread(target=lambda: got.append(scratch.take((64,), np.int64)))
    t.start()
    t.join()
    assert _root(got[0]) is not _root(a)


def test_large_requests_are_plain_arrays() -> None:
    big = scratch.take((scratch.LIMIT // 8 + 8,), np.uint8)
    assert big.base is None
    scratch.give(big)
    again = scratch.take((scratch.LIMIT // 8 + 8,), np.uint8)
    assert again is not big and again.base is None


def _gauss(n: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray, list[Fraction]]:
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    X = rng.standard_normal((3 * n, d))
    s = X @ u
    keep = np.abs(s) > 0.01 * np.linalg.norm(u)
    X, s = X[keep][:n], s[keep][:n]
    return X, np.where(s > 0, 1, -1), [Fraction(v) for v in u]


def test_a_record_reads_its_own_values_after_later_runs_reuse_the_memory() -> None:
    X, y, u = _gauss(1000, 8, 1)
    first = train(from_arrays(X, y), comparator=u, budget=10**6)
    assert first.status == "converged" and first.updates > 1000
    assert all(isinstance(m, ResidueMeasures) for _, m in first._chunks)
    before = [first.steps[i].values for i in (0, first.updates // 2, first.updates - 1)]
    for seed in (2, 3):  # same shapes: the chunks' tables come from the same buffers
        X2, y2, u2 = _gauss(1000, 8, seed)
        assert train(from_arrays(X2, y2), comparator=u2, budget=10**6).status == "converged"
    after = [first.steps[i].values for i in (0, first.updates // 2, first.updates - 1)]
    assert after == before


def test_zeroed_arrays_are_zero_whatever_the_memory_held_before() -> None:
    a = scratch.take((1000,), np.int64)
    a[:] = 7
    scratch.give(a)
    z = scratch.zeroed(1000, np.int64)
    assert _root(z) is _root(a) and not z.any()
    big = scratch.zeroed(scratch.LIMIT // 8 + 1, np.uint8)  # too large to keep: np.zeros
    assert big.base is None and not big.any()
    scratch.give(z)
