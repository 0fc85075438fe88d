"""Exact nearest points of two polytopes: Wolfe's active-set method in rationals.

Given integer points ``A`` (and optionally ``B``), find convex weights ``a`` on
``A`` and ``b`` on ``B`` minimising ``|q|`` for ``q = sum a_i A_i - sum b_j B_j``
(without ``B``: the point of ``conv A`` nearest the origin).  This is Wolfe's
minimum-norm-point algorithm (Wolfe 1976) on the Minkowski difference
``conv A - conv B``, run in exact arithmetic: the active set ("corral") is kept
affinely independent, each affine sub-problem is a small exact linear system,
and the optimality test is exact, so the answer is the true optimum.

The numerical solver (scipy) only supplies a warm start; from a good warm start
this typically needs one or two major iterations.

>>> r = nearest_points([(1, 0), (0, 1)])
>>> r.q, sorted(r.weights.values())
((Fraction(1, 2), Fraction(1, 2)), [Fraction(1, 2), Fraction(1, 2)])
>>> nearest_points([(0, 0), (2, 2)], [(2, 0), (0, 2)]).q   # the diagonals cross
(Fraction(0, 1), Fraction(0, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from ..errors import SolverError
from .linalg import EchelonBasis, solve

__all__ = ["DEFAULT_MAX_ITER", "Nearest", "nearest_points"]

DEFAULT_MAX_ITER = 10_000
_INT64_SAFE = 2**62


@dataclass(frozen=True)
class Nearest:
    """The exact optimum: ``weights`` keyed by point (``k < len(A)``: ``A[k]``; else
    ``B[k - len(A)]``), ``q`` the nearest difference, ``iterations`` major cycles."""

    weights: dict[int, Fraction]
    q: tuple[Fraction, ...]
    iterations: int


class _Problem:
    """Signed points ``M_k`` (``A_k``, then ``-B_j``) split into one or two parts."""

    def __init__(self, A: Sequence[Sequence[int]], B: Sequence[Sequence[int]] | None):
        if not A or (B is not None and not B):
            raise ValueError("each point set must be non-empty")
        self.nA = len(A)
        self.M: list[tuple[int, ...]] = [tuple(int(v) for v in a) for a in A]
        if B is not None:
            self.M.extend(tuple(-int(v) for v in b) for b in B)
        self.d = len(self.M[0])
        self.parts = 1 if B is None else 2
        self.maxabs = max((abs(v) for m in self.M for v in m), default=0)
        self.obj = np.empty((len(self.M), self.d), dtype=object)
        for k, m in enumerate(self.M):
            self.obj[k, :] = m
        self.i64 = self.obj.astype(np.int64) if self.maxabs < _INT64_SAFE else None

    def part(self, k: int) -> int:
        return 0 if k < self.nA else 1

    def ranges(self) -> list[range]:
        return [range(0, self.nA), range(self.nA, len(self.M))][: self.parts]

    def norm2(self, k: int) -> int:
        return sum(v * v for v in self.M[k])

    def gram_matrix(self, S: list[int]) -> list[list[int]]:
        """``M_i . M_j`` for i, j in S, exactly (int64 when no sum can overflow)."""
        if self.i64 is not None and self.d * self.maxabs * self.maxabs < _INT64_SAFE:
            sub = self.i64[S]
            out: list[list[int]] = (sub @ sub.T).tolist()
            return out
        subo = self.obj[S]
        return [[int(v) for v in row] for row in subo.dot(subo.T)]

    def scores(self, Q: Sequence[int]) -> list[int]:
        """``M_k . Q`` for every point, exactly."""
        maxq = max((abs(v) for v in Q), default=0)
        if self.i64 is not None and self.d * self.maxabs * maxq < _INT64_SAFE:
            out: list[int] = (self.i64 @ np.array(Q, dtype=np.int64)).tolist()
            return out
        Qo = np.empty(self.d, dtype=object)
        Qo[:] = list(Q)
        return [int(v) for v in self.obj.dot(Qo)]

    def combine(self, w: dict[int, Fraction]) -> tuple[Fraction, ...]:
        q = [Fraction(0)] * self.d
        for k, wk in w.items():
            for c, v in enumerate(self.M[k]):
                if v:
                    q[c] += wk * v
        return tuple(q)

    def affine(self, S: list[int]) -> dict[int, Fraction] | None:
        """Weights (summing to 1 per part) of the point of ``aff`` nearest 0, or None."""
        s = len(S)
        size = s + self.parts
        gram = self.gram_matrix(S)
        mat = [[*gram[a], *([0] * self.parts)] for a in range(s)]
        mat.extend([0] * size for _ in range(self.parts))
        rhs = [0] * size
        for a, i in enumerate(S):
            mat[a][s + self.part(i)] = -1
            mat[s + self.part(i)][a] = 1
        for p in range(self.parts):
            rhs[s + p] = 1
        sol = solve(mat, rhs)
        if sol is None:
            return None
        return {k: sol[a] for a, k in enumerate(S)}


class _Dependent(SolverError):
    """The active set is affinely dependent (its affine sub-problem is singular)."""


def _minor(P: _Problem, w: dict[int, Fraction]) -> dict[int, Fraction]:
    """Wolfe's minor cycle: move towards the affine optimum until all weights are positive."""
    while True:
        S = sorted(w)
        c = P.affine(S)
        if c is None:
            raise _Dependent("active set became affinely dependent (exact refinement failed)")
        if all(v > 0 for v in c.values()):
            return c
        theta = min(w[k] / (w[k] - c[k]) for k in S if c[k] <= 0)
        new = {k: theta * c[k] + (1 - theta) * w[k] for k in S}
        w = {k: v for k, v in new.items() if v > 0}


def _independent_start(P: _Problem, start: Sequence[tuple[int, Fraction]]) -> dict[int, Fraction]:
    """A valid Wolfe state from candidate weights: affinely independent, positive, normalised."""
    basis = EchelonBasis()
    base: dict[int, int] = {}
    kept: dict[int, Fraction] = {}
    for k, wk in sorted(start, key=lambda t: (-t[1], t[0])):
        if wk <= 0 or k in kept:
            continue
        p = P.part(k)
        if p not in base:
            base[p] = k
            kept[k] = wk
            continue
        b = P.M[base[p]]
        if basis.add([x - y for x, y in zip(P.M[k], b, strict=True)]):
            kept[k] = wk
    return _normalise(P, kept)


def _normalise(P: _Problem, kept: dict[int, Fraction]) -> dict[int, Fraction]:
    """Positive weights scaled to sum 1 per part (a part without any gets its cold start)."""
    kept = {k: v for k, v in kept.items() if v > 0}
    out: dict[int, Fraction] = {}
    for rng in P.ranges():
        part = {k: v for k, v in kept.items() if k in rng}
        if not part:
            part = {_cold_key(P, rng): Fraction(1)}
        total = sum(part.values(), Fraction(0))
        out.update({k: v / total for k, v in part.items()})
    return out


def _cold_key(P: _Problem, rng: range) -> int:
    norms = [P.norm2(k) for k in rng]
    return rng[norms.index(min(norms))]


def nearest_points(
    A: Sequence[Sequence[int]],
    B: Sequence[Sequence[int]] | None = None,
    *,
    start: Sequence[tuple[int, Fraction]] | None = None,
    max_iter: int = DEFAULT_MAX_ITER,
) -> Nearest:
    """Exact nearest points of ``conv A`` and ``conv B`` (or of ``conv A`` and 0).

    ``start``: candidate ``(key, weight)`` pairs (a solver's support), used as a warm
    start after making them affinely independent.  Raises :class:`SolverError` if
    ``max_iter`` major cycles do not reach the exact optimum.
    """
    P = _Problem(A, B)
    w = {_cold_key(P, rng): Fraction(1) for rng in P.ranges()}
    if start:
        try:  # the solver's support as it is (usually affinely independent) ...
            w = _minor(P, _normalise(P, dict(start)))
        except _Dependent:  # ... or a maximal affinely independent part of it
            w = _minor(P, _independent_start(P, start))
    else:
        w = _minor(P, w)
    for it in range(max_iter + 1):
        q = P.combine(w)
        if all(v == 0 for v in q):
            return Nearest(w, q, it)
        den = lcm(*(v.denominator for v in q))
        Q = [int(v * den) for v in q]
        sc = P.scores(Q)
        best_viol = Fraction(0)
        best_key = -1
        for p, rng in enumerate(P.ranges()):
            t = sum((wk * sc[k] for k, wk in w.items() if P.part(k) == p), Fraction(0))
            lo = min(rng, key=lambda k: sc[k])
            viol = t - sc[lo]
            if viol > best_viol:
                best_viol, best_key = viol, lo
        if best_key < 0:
            return Nearest(w, q, it)
        if it == max_iter:
            break
        if best_key in w:
            raise SolverError("exact refinement stalled: a corral point violates optimality")
        w = dict(w)
        w[best_key] = Fraction(0)
        w = _minor_with_new(P, w, best_key)
    raise SolverError(f"exact min-norm refinement did not converge in {max_iter} iterations")


def _minor_with_new(P: _Problem, w: dict[int, Fraction], new: int) -> dict[int, Fraction]:
    """Minor cycle after adding ``new`` with weight 0 (it gets a positive affine weight)."""
    S = sorted(w)
    c = P.affine(S)
    if c is None:
        raise SolverError(
            "added point is affinely dependent on the corral (exact refinement failed)"
        )
    if c[new] <= 0:
        raise SolverError("added point received no weight (exact refinement failed)")
    if all(v > 0 for v in c.values()):
        return c
    theta = min(w[k] / (w[k] - c[k]) for k in S if c[k] <= 0)
    moved = {k: theta * c[k] + (1 - theta) * w[k] for k in S}
    return _minor(P, {k: v for k, v in moved.items() if v > 0})
