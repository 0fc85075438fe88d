"""The run vocabulary measured from a variant's weight vectors.

A run in R^d is known by its weight vectors ``w_1, w_2, ...`` (the start, then one
vector after every update).  From them and the comparator ``u`` this module
measures what the claim's lemmas need -- ``pu = u.w_k``, ``pu1 = u.w_{k+1}``,
``n0 = |w_k|^2``, ``n1 = |w_{k+1}|^2`` and the trigger ``t`` -- never from the
variant's own bookkeeping:

* **exact**: the vectors' exact values (a float weight is the dyadic rational it
  holds) as exact arrays;
* **float**: enclosures of the *ideal* quantities -- those of the same updates made
  in exact arithmetic -- around the float weights, with a drift bound that grows at
  every update by ``ops`` roundings of each coordinate (``fl(w + fl(a y x))`` is two,
  a rate that is not a float such as ``0.01`` one more; :data:`OPS` is 4).  ``t`` is
  then the trigger in the update's direction, ``z.w_k`` (``a y w.x`` for a step
  ``z = a y x``), which is what the float guard's slack needs.

>>> from fractions import Fraction as F
>>> W = [(F(0),), (F(1),), (F(3),)]
>>> m = trace_measures(W, [0, 0], 0, (F(1),), mode="exact")
>>> [str(v) for v in m["pu1"].values() + m["n1"].values()]
['1', '3', '1', '9']
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ...engine.chunks import scale_trigger
from ...monitor.relations import Exact, Interval
from .claim import exact_array

__all__ = ["OPS", "scale_trigger", "trace_measures"]

#: Roundings per coordinate and update allowed for a float implementation.
OPS = 4
_U = 2.0**-53
_TINY = 5e-324


def _f(v: Any) -> Fraction:
    return v if isinstance(v, Fraction) else Fraction(v)


def _common(w: Sequence[Any]) -> tuple[list[int], int]:
    """The exact entries of ``w`` times their common denominator ``m``, and ``m``."""
    e = [_f(v) for v in w]
    m = math.lcm(*(v.denominator for v in e))
    return [v.numerator * (m // v.denominator) for v in e], m


def trace_measures(
    W: Sequence[Sequence[Any]],
    choices: Sequence[int],
    k0: int,
    u: Sequence[Fraction],
    *,
    mode: str = "exact",
    E0: np.ndarray | None = None,
) -> dict[str, Any]:
    """The vocabulary of updates ``k0 + 1 .. k0 + K`` from ``K + 1`` weight vectors
    ``W`` (``W[0]`` before the first of them).  Float mode also returns ``"E"``, the
    drift bound after the last update (pass it as ``E0`` for the next chunk)."""
    K = len(W) - 1
    ks = np.arange(k0 + 1, k0 + K + 1, dtype=np.int64)
    if mode == "exact":
        # in integers: each vector times its common denominator, one Fraction a value
        rows = [_common(w) for w in W]
        us, um = _common(u)
        pu = [Fraction(sum(a * b for a, b in zip(us, w, strict=True)), um * m) for w, m in rows]
        nn = [Fraction(sum(a * a for a in w), m * m) for w, m in rows]
        zw = []
        for (a, ma), (b, mb) in itertools.pairwise(rows):
            g = math.lcm(ma, mb)
            ca, cb = g // ma, g // mb
            cross = sum((q * cb - p * ca) * p * ca for p, q in zip(a, b, strict=True))
            zw.append(Fraction(cross, g * g))
        return {
            "k": Exact.of(ks, 1),
            "pu": exact_array(pu[:-1]),
            "pu1": exact_array(pu[1:]),
            "n0": exact_array(nn[:-1]),
            "n1": exact_array(nn[1:]),
            "t": exact_array(zw),
        }
    return _float_trace(W, ks, u, E0)


def _float_trace(
    W: Sequence[Sequence[Any]], ks: np.ndarray, u: Sequence[Fraction], E0: np.ndarray | None
) -> dict[str, Any]:
    from ...engine.measure import enclosure

    A = np.array([[float(v) for v in w] for w in W], dtype=np.float64)
    K, d = A.shape[0] - 1, A.shape[1]
    E = np.zeros_like(A)
    E[0] = 0.0 if E0 is None else E0
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(1, K + 1):
            z = np.abs(A[i] - A[i - 1])
            E[i] = np.nextafter(
                E[i - 1] + OPS * _U * (np.abs(A[i]) + np.abs(A[i - 1]) + z) + _TINY, np.inf
            )
        uf = np.array([float(v) for v in u])
        eu = np.array([0.0 if Fraction(float(v)) == v else abs(float(v)) * _U + _TINY for v in u])
        out: dict[str, Any] = {"k": Interval(ks * 1.0, ks * 1.0)}
        absu = np.abs(uf)
        P = A @ uf
        aw = np.abs(A) @ absu
        drift = E @ absu + (np.abs(A) + E) @ eu
        piv = enclosure(P, aw, drift, d)
        out["pu"] = Interval(piv.lo[:-1], piv.hi[:-1])
        out["pu1"] = Interval(piv.lo[1:], piv.hi[1:])
        Q = np.einsum("ij,ij->i", A, A)
        qd = np.einsum("ij,ij->i", E, 2 * np.abs(A) + E)
        qiv = enclosure(Q, Q, qd, d)
        lo = np.maximum(qiv.lo, 0.0)
        out["n0"] = Interval(lo[:-1], qiv.hi[:-1])
        out["n1"] = Interval(lo[1:], qiv.hi[1:])
        # t = z.w_k with z = w_{k+1} - w_k: both vectors within their drift
        Z = A[1:] - A[:-1]
        Ez = E[1:] + E[:-1] + np.abs(Z) * _U
        Wp, Ep = A[:-1], E[:-1]
        m = np.einsum("ij,ij->i", Z, Wp)
        a = np.einsum("ij,ij->i", np.abs(Z), np.abs(Wp))
        e = np.einsum("ij,ij->i", Ez, np.abs(Wp) + Ep) + np.einsum("ij,ij->i", np.abs(Z), Ep)
        out["t"] = enclosure(m, a, e, d)
    out["E"] = E[-1].copy()
    return out
