"""What a run measures at every update, from the run's actual vectors.

For a chunk of updates (the points chosen, in order) this module rebuilds the weight
vectors the loop produced -- by applying the same updates again, vectorised -- and
measures the run vocabulary of the proof on them (:mod:`pla_proof.proof.statements`):

    t = y_j w_k.x_j,  pu = u.w_k,  pu1 = u.w_{k+1},  yux = y_j u.x_j,
    n0 = |w_k|^2,  n1 = |w_{k+1}|^2,  xx = |x_j|^2,  k.

Nothing is computed through the identities being checked: ``pu1`` is ``u`` times the
vector ``w_{k+1}``, not ``pu + yux``.

* exact runs give :class:`~pla_proof.monitor.relations.Exact` arrays (integers over a
  denominator; int64 while a magnitude bound allows, Python integers beyond);
* float runs give :class:`~pla_proof.monitor.relations.Interval` enclosures of the
  *ideal* quantities -- the exact sums of the same updates on the float data --
  around the float weights, using the drift bound the loop keeps (see
  ``docs/engine.md`` for the error bounds).

>>> from pla_proof.data import load
>>> from pla_proof.engine.drive import drive
>>> dec = drive(load("orthonormal:2"))
>>> m = exact_measures(dec.world, dec.choices, 0, list(dec.world.scales.V0), [1, -1], 1)
>>> [str(v) for v in m["pu1"].values() + m["n1"].values() + m["t"].values()]
['1', '2', '1', '2', '0', '0']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..monitor.relations import Exact, Interval
from . import kernel as kn
from ._jit import jit
from .drive import World, _approx

__all__ = [
    "exact_measures",
    "float_measures",
    "float_vector",
    "replay_float",
    "replay_float_from",
]

_LIMIT = 2**62


def _as_ints(A: np.ndarray, bound: int) -> np.ndarray:
    if A.dtype == object and bound < _LIMIT:
        out: np.ndarray = A.astype(np.int64)
        return out
    return A


def _max_abs(A: Any) -> int:
    if not isinstance(A, np.ndarray):
        return abs(int(A))
    if A.size == 0:
        return 0
    if A.dtype == object:
        return int(max(abs(v) for v in A.flat))
    return max(abs(int(A.max())), abs(int(A.min())))


def _rowdot(A: np.ndarray, B: np.ndarray, bound: int) -> np.ndarray:
    """``sum_c A[k, c] B[k, c]`` exactly (``bound`` bounds each result)."""
    if bound < _LIMIT and A.dtype != object and B.dtype != object:
        out: np.ndarray = np.einsum("ij,ij->i", A, B)
        return out
    big: np.ndarray = (A.astype(object) * B.astype(object)).sum(axis=1)
    return big


def _matvec(A: np.ndarray, u: np.ndarray, bound: int) -> np.ndarray:
    if bound < _LIMIT and A.dtype != object and u.dtype != object:
        out: np.ndarray = A @ u
        return out
    big: np.ndarray = (A.astype(object) * u.astype(object)[None, :]).sum(axis=1)
    return big


def exact_measures(
    world: World,
    choices: np.ndarray,
    k0: int,
    V_start: Sequence[int],
    U: Sequence[int] | None,
    su: int,
) -> dict[str, Exact]:
    """The vocabulary of updates ``k0 + 1 .. k0 + K`` exactly; ``V_start`` are the exact
    weights (scale ``S``) before them, ``U`` the comparator times ``su`` (``None``: no
    comparator -- only the weight-norm quantities).  ``"V"`` holds the weights after
    the last update (a Python list, not a measure)."""
    sc = world.scales
    data = world.data
    K, d = int(choices.shape[0]), data.d
    y = data.labels[choices].astype(np.int64)
    mult = np.array([sc.mult[int(j)] for j in choices], dtype=object)
    if world.kernel_mode == kn.GRID:
        Zc = world.X[choices].astype(np.int64)
    else:
        Zc = np.array([world.row(int(j)) for j in choices], dtype=object).reshape(K, d)
    zmax = _max_abs(Zc)
    mmax = _max_abs(mult) if K else 0
    coef = y.astype(object) * mult
    step_bound = zmax * mmax
    if step_bound < _LIMIT and Zc.dtype != object:
        Delta = Zc * coef.astype(np.int64)[:, None]
    else:
        Delta = Zc.astype(object) * coef[:, None]
    V0 = np.array(list(V_start), dtype=object)
    v0max = _max_abs(V0)
    if world.kernel_mode == kn.GRID and v0max + K * step_bound < _LIMIT * 4:
        # every prefix sum is a weight vector the loop held in int64: no overflow
        V = np.cumsum(Delta.astype(np.int64), axis=0) + V0.astype(np.int64)[None, :]
    else:
        V = np.cumsum(Delta.astype(object), axis=0) + V0[None, :]
        V = _as_ints(V, _max_abs(V))
    Vstart = V0.astype(np.int64) if (V.dtype != object and v0max < _LIMIT) else V0
    Vprev = np.vstack([Vstart[None, :], V[:-1]]) if K else V
    vmax = max(_max_abs(V), v0max)
    S, s = sc.S, sc.s
    out: dict[str, Exact] = {
        "k": Exact.of(np.arange(k0 + 1, k0 + K + 1, dtype=np.int64), 1),
        "n0": Exact.of(_rowdot(Vprev, Vprev, d * vmax * vmax), S * S),
        "n1": Exact.of(_rowdot(V, V, d * vmax * vmax), S * S),
        "t": Exact.of(y * _rowdot(Zc, Vprev, d * zmax * vmax) if K else y, S * s),
        "xx": Exact.of(_rowdot(Zc, Zc, d * zmax * zmax), s * s),
    }
    if U is not None:
        Uo = np.array(list(U), dtype=object)
        umax = _max_abs(Uo)
        Ua = Uo.astype(np.int64) if umax < _LIMIT else Uo
        out["pu"] = Exact.of(_matvec(Vprev, Ua, d * vmax * umax), su * S)
        out["pu1"] = Exact.of(_matvec(V, Ua, d * vmax * umax), su * S)
        out["yux"] = Exact.of(y * _matvec(Zc, Ua, d * zmax * umax), su * s)
    return out


def last_weights(world: World, choices: np.ndarray, V_start: Sequence[int]) -> list[int]:
    """The exact weights after ``choices`` from ``V_start`` (scale ``S``)."""
    sc = world.scales
    V = [int(v) for v in V_start]
    y = world.data.labels
    counts = np.bincount(choices, minlength=world.data.n) if choices.size else None
    if counts is None:
        return V
    for j in np.flatnonzero(counts):
        m = int(counts[j]) * sc.mult[int(j)] * int(y[j])
        for c, z in enumerate(world.row(int(j))):
            if z:
                V[c] += m * z
    return V


# --- float mode: enclosures of the ideal quantities -------------------------------------------


@jit
def replay_float(
    X: np.ndarray,
    yl: np.ndarray,
    cf: np.ndarray,
    inc_rel: float,
    choices: np.ndarray,
    Wf0: np.ndarray,
    E0: np.ndarray,
    Wf: np.ndarray,
    E: np.ndarray,
) -> None:
    """The float weights and drift bounds after each update of ``choices`` (rows of
    ``Wf``, ``E``), made by exactly the operations of the compiled loop."""
    d = X.shape[1]
    sel = np.zeros(kn.SEL_SIZE, dtype=np.int64)
    hr = np.zeros(d, dtype=np.int64)
    hs = np.zeros(1, dtype=np.int64)
    tmp = np.zeros(d)
    w = Wf0.copy()
    e = E0.copy()
    mult = np.zeros(1, dtype=np.int64)
    for k in range(choices.shape[0]):
        kn._update(
            kn.FLOAT, X, yl, int(choices[k]), mult, cf, inc_rel, cf, mult, w, e, sel, hr, hr,
            hs, tmp,
        )  # fmt: skip
        for c in range(d):
            Wf[k, c] = w[c]
            E[k, c] = e[c]


def replay_float_from(
    world: World, W0: np.ndarray, E0: np.ndarray, choices: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`replay_float` from the float weights ``W0`` and drift bounds ``E0``: the
    float weights and drift bounds after each update of ``choices`` (one row each).

    >>> from pla_proof.data import load
    >>> from pla_proof.engine.drive import drive
    >>> dec = drive(load("orthonormal:2"), mode="float")
    >>> W, E = replay_float_from(dec.world, np.zeros(2), np.zeros(2), dec.choices)
    >>> W.tolist(), E.tolist()
    ([[1.0, 0.0], [1.0, -1.0]], [[0.0, 0.0], [0.0, 0.0]])
    """
    K, d = int(choices.shape[0]), world.data.d
    W = np.empty((K, d))
    E = np.empty((K, d))
    cf, rel = world.float_factors
    picks = np.asarray(choices).astype(np.int64)
    replay_float(world.X, world.data.labels, cf, rel, picks, W0, E0, W, E)
    return W, E


def float_vector(v: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """An exact vector as float64 values and a bound on each one's rounding error (0
    where the float is exact; infinite beyond float64's range).

    >>> from fractions import Fraction
    >>> f, e = float_vector([Fraction(1, 2), Fraction(1, 3)])
    >>> f.tolist(), float(e[0]), bool(0 < e[1] < 1e-16)
    ([0.5, 0.3333333333333333], 0.0, True)
    """
    from fractions import Fraction

    pairs = [_approx(Fraction(x)) for x in v]
    return (
        np.array([p[0] for p in pairs], dtype=float),
        np.array([p[1] for p in pairs], dtype=float),
    )


_G = 2.0**-52
_TINY = 5e-324


def _upper(a: np.ndarray, d: int) -> np.ndarray:
    """An upper bound on a sum of ``d`` nonnegative terms computed in float64 as ``a``."""
    g = (d + 2) * _G
    with np.errstate(over="ignore"):
        out: np.ndarray = np.nextafter(a * (1.0 + 2 * g) + (d + 2) * _TINY, np.inf)
    return out


def _around(v: np.ndarray, r: np.ndarray) -> Interval:
    with np.errstate(over="ignore", invalid="ignore"):
        lo = np.nextafter(v - r, -np.inf)
        hi = np.nextafter(v + r, np.inf)
    bad = ~(np.isfinite(lo) & np.isfinite(hi))
    if np.any(bad):
        lo = np.where(bad, -np.inf, lo)
        hi = np.where(bad, np.inf, hi)
    return Interval(lo, hi)


def float_measures(
    X: np.ndarray,
    yl: np.ndarray,
    choices: np.ndarray,
    k0: int,
    Wprev: np.ndarray,
    Eprev: np.ndarray,
    Wk: np.ndarray,
    Ek: np.ndarray,
    u: np.ndarray | None,
    eu: np.ndarray | None,
) -> dict[str, Interval]:
    """Enclosures of the ideal vocabulary for updates ``k0 + 1 ..``: ``Wprev``/``Eprev``
    are the float weights and drift bounds before each update, ``Wk``/``Ek`` after;
    ``u`` the comparator rounded to float64 and ``eu`` bounds on its rounding errors."""
    K, d = Wk.shape
    Xc = X[choices].astype(np.float64)  # (the loop may read compact integer storage)
    y = yl[choices].astype(np.float64)
    absX = np.abs(Xc)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        out: dict[str, Interval] = {
            "k": Interval(np.arange(k0 + 1, k0 + K + 1) * 1.0, np.arange(k0 + 1, k0 + K + 1) * 1.0)
        }
        # t = y x.w_k
        m = np.einsum("ij,ij->i", Xc, Wprev)
        a = np.einsum("ij,ij->i", absX, np.abs(Wprev))
        e = np.einsum("ij,ij->i", absX, Eprev)
        out["t"] = _times_sign(
            _around(m, (d + 2) * _G * _upper(a, d) + _upper(e, d) + (2 * d + 4) * _TINY), y
        )
        # n0, n1 = |w|^2
        for name, W, E in (("n0", Wprev, Eprev), ("n1", Wk, Ek)):
            q = np.einsum("ij,ij->i", W, W)
            drift = np.einsum("ij,ij->i", E, 2 * np.abs(W) + E)
            r = (d + 2) * _G * _upper(q, d) + _upper(drift, d) + (2 * d + 4) * _TINY
            iv = _around(q, r)
            out[name] = Interval(np.maximum(iv.lo, 0.0), iv.hi)
        # xx = |x|^2 (the float data are exact: only the sum rounds)
        q = np.einsum("ij,ij->i", Xc, Xc)
        iv = _around(q, (d + 2) * _G * _upper(q, d) + (2 * d + 4) * _TINY)
        out["xx"] = Interval(np.maximum(iv.lo, 0.0), iv.hi)
        if u is not None and eu is not None:
            absu = np.abs(u)
            for name, W, E in (("pu", Wprev, Eprev), ("pu1", Wk, Ek)):
                p = W @ u
                aw = np.abs(W) @ absu
                drift = E @ absu + (np.abs(W) + E) @ eu
                out[name] = _around(
                    p, (d + 2) * _G * _upper(aw, d) + _upper(drift, d) + (2 * d + 4) * _TINY
                )
            p = Xc @ u
            ax = absX @ absu
            r = (d + 2) * _G * _upper(ax, d) + _upper(absX @ eu, d) + (2 * d + 4) * _TINY
            out["yux"] = _times_sign(_around(p, r), y)
    return out


def _times_sign(iv: Interval, y: np.ndarray) -> Interval:
    return Interval(np.where(y > 0, iv.lo, -iv.hi), np.where(y > 0, iv.hi, -iv.lo))
