"""What a run measures at every update, from the run's actual vectors.

For a chunk of updates (the points chosen, in order) this module rebuilds the weight
vectors the loop produced -- by applying the same updates again, vectorised -- and
measures the run vocabulary of the proof on them (:mod:`pla_proof.proof.statements`):

    t = y_j w_k.x_j,  pu = u.w_k,  pu1 = u.w_{k+1},  yux = y_j u.x_j,
    n0 = |w_k|^2,  n1 = |w_{k+1}|^2,  xx = |x_j|^2,  k.

Nothing is computed through the identities being checked: ``pu1`` is ``u`` times the
vector ``w_{k+1}``, not ``pu + yux``.

* exact runs give :class:`~pla_proof.engine.exact.Exact` arrays (integers over a
  denominator; int64 while a magnitude bound allows, Python integers beyond);
* float runs give :class:`~pla_proof.engine.enclosures.Interval` enclosures of the
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

import math
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from . import kernel as kn
from .enclosures import Enclosures, Interval
from .evaluate import above, below, mod
from .exact import Exact
from .jit import jit, jit_reassociating
from .residues import Residues, primes, primes_for
from .scratch import give, take
from .world import World, approx

__all__ = [
    "RESIDUE_MIN",
    "ResidueMeasures",
    "enclosures",
    "exact_measures",
    "float_measures",
    "float_vector",
    "float_vocabulary",
    "given_vocabulary",
    "replay_float",
    "replay_float_from",
    "uses_residues",
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
    fast = _grid_arrays(world, choices, V_start, U)
    if fast is not None:
        return _vocabulary(k0, sc, su, *fast, comparator=U is not None)
    y = data.labels[choices].astype(np.int64)
    if world.kernel_mode == kn.GRID:
        Zc = world.X[choices].astype(np.int64)
    else:
        Zc = np.array([world.row(int(j)) for j in choices], dtype=object).reshape(K, d)
    zmax = _max_abs(Zc)
    coef: np.ndarray
    if sc.uniform is not None and abs(sc.uniform) < _LIMIT:  # one multiplier: in int64
        mmax = abs(sc.uniform) if K else 0
        coef = y * sc.uniform
    else:
        mult = np.array([sc.mult[int(j)] for j in choices], dtype=object)
        mmax = _max_abs(mult) if K else 0
        coef = y.astype(object) * mult
    step_bound = zmax * mmax
    if step_bound < _LIMIT and Zc.dtype != object:
        Delta = Zc * coef.astype(np.int64)[:, None]
    else:
        Delta = Zc.astype(object) * coef.astype(object)[:, None]
    V0 = np.array(list(V_start), dtype=object)
    v0max = _max_abs(V0)
    # the weights before and after each update, as one array: W[k] before update k + 1
    if world.kernel_mode == kn.GRID and v0max + K * step_bound < _LIMIT * 4:
        # every prefix sum is a weight vector the loop held in int64: no overflow
        W = np.empty((K + 1, d), dtype=np.int64)
        W[0] = V0.astype(np.int64)
        np.cumsum(Delta.astype(np.int64, copy=False), axis=0, out=W[1:])
        W[1:] += W[0]
    else:
        V = np.cumsum(Delta.astype(object), axis=0) + V0[None, :]
        V = _as_ints(V, _max_abs(V))
        if V.dtype != object and v0max < _LIMIT:
            W = np.vstack([V0.astype(np.int64)[None, :], V])
        else:
            W = np.vstack([V0[None, :], V.astype(object)])
    vmax = _max_abs(W)
    nn = _rowdot(W, W, d * vmax * vmax)
    t = y * _rowdot(Zc, W[:-1], d * zmax * vmax) if K else y
    xx = _rowdot(Zc, Zc, d * zmax * zmax)
    pp = yux = None
    if U is not None:
        Uo = np.array(list(U), dtype=object)
        umax = _max_abs(Uo)
        Ua = Uo.astype(np.int64) if umax < _LIMIT else Uo
        pp = _matvec(W, Ua, d * vmax * umax)
        yux = y * _matvec(Zc, Ua, d * zmax * umax)
    return _vocabulary(k0, sc, su, nn, t, xx, pp, yux, comparator=U is not None)


def _vocabulary(
    k0: int,
    sc: Any,
    su: int,
    nn: np.ndarray,
    t: np.ndarray,
    xx: np.ndarray,
    pp: np.ndarray | None,
    yux: np.ndarray | None,
    *,
    comparator: bool,
) -> dict[str, Exact]:
    """A chunk's measures over their denominators: ``nn``/``pp`` hold ``|w|^2`` and
    ``u.w`` before each update and after the last (``K + 1`` values)."""
    K = int(t.shape[0])
    S, s = sc.S, sc.s
    out: dict[str, Exact] = {
        "k": Exact.of(np.arange(k0 + 1, k0 + K + 1, dtype=np.int64), 1),
        "n0": Exact.of(nn[:-1], S * S),
        "n1": Exact.of(nn[1:], S * S),
        "t": Exact.of(t, S * s),
        "xx": Exact.of(xx, s * s),
    }
    if comparator and pp is not None and yux is not None:
        out["pu"] = Exact.of(pp[:-1], su * S)
        out["pu1"] = Exact.of(pp[1:], su * S)
        out["yux"] = Exact.of(yux, su * s)
    return out


def _grid_arrays(
    world: World, choices: np.ndarray, V_start: Sequence[int], U: Sequence[int] | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """``(nn, t, xx, pp, yux)`` of :func:`exact_measures` for integer data with one
    multiplier, in one compiled pass, when bounds known before it (the weights can grow
    by at most ``K max|m Z|``) keep every product and sum below 2^62; else None."""
    sc = world.scales
    K, d = int(choices.shape[0]), world.data.d
    if world.kernel_mode != kn.GRID or sc.uniform is None or K == 0:
        return None
    zmax = int(np.ceil(world.row_norms[1][choices].max()))
    umax = max((abs(int(v)) for v in U), default=0) if U is not None else 0
    wb = max((abs(int(v)) for v in V_start), default=0) + K * zmax * abs(sc.uniform)
    if d * max(wb, zmax, umax, 1) ** 2 >= _LIMIT:
        return None
    V0 = np.array([int(v) for v in V_start], dtype=np.int64)
    Ua = np.array([int(v) for v in U] if U is not None else [0] * d, dtype=np.int64)
    y = world.data.labels.astype(np.int64)
    nn, pp = np.empty(K + 1, dtype=np.int64), np.empty(K + 1, dtype=np.int64)
    t, xx, yux = (np.empty(K, dtype=np.int64) for _ in range(3))
    _grid_vocabulary(world.X, choices, y, int(sc.uniform), V0, Ua, nn, pp, t, xx, yux)
    return nn, t, xx, pp, yux


@jit
def _grid_vocabulary(
    X: np.ndarray,
    choices: np.ndarray,
    y: np.ndarray,
    mult: int,
    V0: np.ndarray,
    U: np.ndarray,
    nn: np.ndarray,
    pp: np.ndarray,
    t: np.ndarray,
    xx: np.ndarray,
    yux: np.ndarray,
) -> None:
    """The vocabulary of a chunk of integer data in int64 (the caller has bounded every
    value below 2^62): ``nn[k]``/``pp[k]`` are ``|w|^2`` and ``u.w`` before update
    ``k + 1`` (``k = K``: after the last), ``t``, ``xx``, ``yux`` of each update."""
    d = X.shape[1]
    w = V0.copy()
    n = np.int64(0)
    p = np.int64(0)
    for c in range(d):
        n += w[c] * w[c]
        p += w[c] * U[c]
    nn[0] = n
    pp[0] = p
    for k in range(choices.shape[0]):
        j = choices[k]
        yj = y[j]
        step = yj * mult
        tk = np.int64(0)
        xk = np.int64(0)
        uk = np.int64(0)
        for c in range(d):
            z = np.int64(X[j, c])
            tk += z * w[c]
            xk += z * z
            uk += z * U[c]
            w[c] += step * z
        t[k] = yj * tk
        xx[k] = xk
        yux[k] = yj * uk
        n = np.int64(0)
        p = np.int64(0)
        for c in range(d):
            n += w[c] * w[c]
            p += w[c] * U[c]
        nn[k + 1] = n
        pp[k + 1] = p


def last_weights(world: World, choices: np.ndarray, V_start: Sequence[int]) -> list[int]:
    """The exact weights after ``choices`` from ``V_start`` (scale ``S``)."""
    sc = world.scales
    V = [int(v) for v in V_start]
    y = world.data.labels
    counts = np.bincount(choices, minlength=world.data.n) if choices.size else None
    if counts is None:
        return V
    nz = np.flatnonzero(counts)
    if world.kernel_mode == kn.GRID and nz.size:
        # int64 products when every partial sum is bounded below 2^62
        Z = world.X[nz].astype(np.int64)
        mmax = sc.mult_max
        top = int(counts.max()) * mmax * _max_abs(Z) * int(nz.size)
        if top < _LIMIT:
            mult = sc.uniform if sc.uniform is not None else np.array(sc.mult)[nz]
            small = counts[nz].astype(np.int64) * y[nz].astype(np.int64) * mult
            delta = small @ Z
            return [a + int(b) for a, b in zip(V, delta.tolist(), strict=True)]
    coef = [int(counts[j]) * sc.mult[int(j)] * int(y[j]) for j in nz]
    for j, m in zip(nz, coef, strict=True):
        for c, z in enumerate(world.row(int(j))):
            if z:
                V[c] += m * z
    return V


# --- exact mode on float data: the vocabulary by residues ------------------------------------


#: Below this many coordinates times updates a chunk is measured with Python integers:
#: the residues' fixed cost (enclosures, a compiled pass per prime, the signs) is about
#: that of 700-1000 coordinate updates with Python integers (measured on float data).
RESIDUE_MIN = 2048


def uses_residues(world: World, updates: int | None = None) -> bool:
    """Whether an exact run measures its vocabulary by residues: float data (the
    integers behind them are wide), and -- given the chunk's ``updates`` -- a chunk
    large enough for the residues to pay (:data:`RESIDUE_MIN`)."""
    exact, data = world.mode == "exact", world.data
    wide = exact and world.kernel_mode == kn.FLOAT_EXACT and data.kind == "float"
    return wide and (updates is None or updates * data.d >= RESIDUE_MIN)


class ResidueMeasures(Mapping[str, Any]):
    """The exact vocabulary of updates ``k0 + 1 .. k0 + K`` on float data, kept as
    residues (:class:`~pla_proof.engine.residues.Residues`) modulo as many primes as
    the monitor asks for (:meth:`residues`); ``k`` is an :class:`Exact` array.

    The points are read from their float64 bits (mantissa times a power of two), the
    weights rebuilt from ``V_start`` by the same updates, prime by prime: the same
    quantities :func:`exact_measures` measures, with the same denominators, without
    Python integers.  ``intervals`` (optional) are enclosures of the same quantities,
    which let the monitor decide most inequalities without the residues.  ``scratch``:
    the first block of residues (and the enclosures, when they came from
    :mod:`.scratch`) is scratch memory, given back by :meth:`release`.

    >>> from pla_proof.data import from_arrays
    >>> from pla_proof.engine.drive import drive
    >>> dec = drive(from_arrays([[0.1, 2.5e-9], [0.3, -1e-12], [-0.5, 0.25]], [1, 1, -1]))
    >>> V0 = list(dec.world.scales.V0)
    >>> m = ResidueMeasures(dec.world, dec.choices, 0, V0, [1, -7], 1)
    >>> ref = exact_measures(dec.world, dec.choices, 0, V0, [1, -7], 1)
    >>> dec.updates, float(m["yux"].values()[0]) == 0.1 - 7 * 2.5e-9
    (1, True)
    >>> all(m[q].values() == ref[q].values() for q in ref)
    True
    >>> m.last_weights() == last_weights(dec.world, dec.choices, V0)
    True
    """

    def __init__(
        self,
        world: World,
        choices: np.ndarray,
        k0: int,
        V_start: Sequence[int],
        U: Sequence[int] | None,
        su: int,
        intervals: Mapping[str, Interval] | None = None,
        scratch: bool = False,
    ) -> None:
        sc, data = world.scales, world.data
        K, d = int(choices.shape[0]), data.d
        self.K, self.d = K, d
        self.intervals = intervals
        # the loop's own exact weights after the chunk, when it handed them over
        self._handed = world.weights_after(k0 + K)
        self.k = Exact.of(np.arange(k0 + 1, k0 + K + 1, dtype=np.int64), 1)
        Xc = self._read_points(world, choices)
        mmax = self._read_multipliers(world, choices)
        self._V0 = [int(v) for v in V_start]
        self._U = None if U is None else [int(v) for v in U]
        s = data.integer_scale
        amax = max(float(Xc.max()), -float(Xc.min())) if Xc.size else 0.0
        give(Xc)
        zmax = int(Fraction(amax) * s)
        v0max = max((abs(v) for v in self._V0), default=0)
        self._vmax = v0max + K * zmax * mmax
        self.bounds = self._bounds(zmax, s, sc.S, su)
        self._R: dict[str, np.ndarray] = {}
        self._scratch: list[np.ndarray] | None = [] if scratch else None
        self._B = np.zeros((len(_RESIDUE_NAMES), 0, K), dtype=np.int32)
        self._Vend = np.zeros((0, d), dtype=np.int64)
        self._P = 0

    def release(self) -> None:
        """Give back the scratch memory of the chunk's tables (the monitor is done with
        them); whatever is read later is measured again.

        >>> from pla_proof.data import from_arrays
        >>> from pla_proof.engine.drive import drive
        >>> dec = drive(from_arrays([[0.5, 0.25], [-0.75, 0.5]], [1, -1]))
        >>> m = ResidueMeasures(dec.world, dec.choices, 0, [0, 0], None, 1, scratch=True)
        >>> before = m["n1"].values()
        >>> m.release()
        >>> m["n1"].values() == before
        True
        """
        if self._scratch is None:
            return
        for a in self._scratch:
            give(a)
        if isinstance(self.intervals, Enclosures):
            give(self.intervals.lo)
            give(self.intervals.hi)
        self.intervals = None
        self._scratch = None  # (what is measured again is the record's own memory)
        self._B = np.zeros((len(_RESIDUE_NAMES), 0, self.K), dtype=np.int32)
        self._R = {}
        self._Vend = np.zeros((0, self.d), dtype=np.int64)
        self._P = 0

    def _read_points(self, world: World, choices: np.ndarray) -> np.ndarray:
        """The chunk's points, each read once (a run updates on the same points again
        and again) from its float64 bits: mantissas ``_m`` and exponent classes
        (``_exps``, ``_which``), where each update finds its point (``_loc``) and its
        label's sign (``_neg``).  Returns the points read."""
        data, d = world.data, world.data.d
        picks = np.asarray(choices, dtype=np.int64).reshape(-1)
        seen = take((data.n,), np.bool_)  # (no sort: the points are indices; scratch
        seen[:] = False  # arrays, given back: a chunk's passes touch no fresh memory)
        seen[picks] = True
        pts = np.flatnonzero(seen)
        give(seen)
        where = take((data.n,), np.int64)
        where[pts] = np.arange(pts.shape[0])
        self._loc = where[picks]
        give(where)
        if world.X.dtype == np.float64:  # (scratch: __init__ gives it back)
            Xc = take((pts.shape[0], d), np.float64)  # (indices in range: "clip" does
            np.take(world.X, pts, axis=0, out=Xc, mode="clip")  # not buffer)
        else:
            Xc = np.asarray(world.X[pts], dtype=np.float64).reshape(-1, d)
        self._neg = data.labels[choices] < 0
        shift = data.integer_scale.bit_length() - 1
        mant, ex = take(Xc.shape, np.float64), take(Xc.shape, np.intc)
        np.frexp(Xc, out=(mant, ex))
        np.multiply(mant, 2.0**53, out=mant)
        m = mant.astype(np.int64)
        e = ex.astype(np.int64)
        e += shift - 53
        give(mant)
        give(ex)
        if np.any(e < 0):  # the point is an integer times 2^shift: the low bits are 0
            m = np.where(e < 0, m >> np.minimum(-e, 63), m)
            e = np.maximum(e, 0)
        self._m = m  # the residue pass splits it: m = hi 2^26 + lo (hi may be negative)
        # the exponent classes: every exponent from the smallest to the largest (a float
        # data set spans few; no sort of the K x d exponents)
        emin = int(e.min()) if e.size else 0
        emax = int(e.max()) if e.size else 0
        if emax - emin < 4 * max(1, e.size):
            self._exps = np.arange(emin, emax + 1, dtype=np.int64)
            e -= emin
            self._which = e
        else:
            self._exps, self._which = np.unique(e, return_inverse=True)
            self._which = self._which.reshape(e.shape)
        return Xc

    def _read_multipliers(self, world: World, choices: np.ndarray) -> int:
        """Each update's integer multiplier (``_mult``; ``_unit`` when all are 1);
        returns the largest magnitude."""
        sc = world.scales
        if sc.uniform is not None:
            self._mult = [sc.uniform] * self.K
            self._unit = sc.uniform == 1
            return abs(sc.uniform) if self.K else 0
        mult = [sc.mult[int(j)] for j in choices]
        self._mult = mult
        self._unit = all(v == 1 for v in mult)
        return max((abs(v) for v in mult), default=0)

    def _bounds(self, zmax: int, s: int, S: int, su: int) -> dict[str, Exact]:
        """Each quantity's denominator and a bound on its numerators' magnitude (tighter
        where the enclosures given bound it better)."""
        d, vmax = self.d, self._vmax
        b: dict[str, Exact] = {
            "n0": Exact(d * vmax * vmax, S * S, d * vmax * vmax),
            "n1": Exact(d * vmax * vmax, S * S, d * vmax * vmax),
            "t": Exact(d * zmax * vmax, S * s, d * zmax * vmax),
            "xx": Exact(d * zmax * zmax, s * s, d * zmax * zmax),
        }
        if self._U is not None:
            umax = max((abs(v) for v in self._U), default=0)
            for name, D, bound in (
                ("pu", su * S, d * vmax * umax),
                ("pu1", su * S, d * vmax * umax),
                ("yux", su * s, d * zmax * umax),
            ):
                b[name] = Exact(bound, D, bound)
        # the enclosures bound the same values, often better
        if self.intervals is not None and self.K:
            tops = _largest(self.intervals, tuple(b))
            for name, given in b.items():
                top = tops.get(name, math.inf)
                if math.isfinite(top):  # |A| = |value| D <= top D
                    num, den = top.as_integer_ratio()  # floor(top D), exactly
                    tight = num * given.D // den + 1
                    if tight < given.bound:
                        b[name] = Exact(tight, given.D, tight)
        return b

    # --- the Mapping: each quantity with enough primes to be read back exactly ------------

    def __getitem__(self, name: str) -> Any:
        if name == "k":
            return self.k
        b = self.bounds[name]
        return self.residues(primes_for(b.bound))[name]

    def __iter__(self) -> Iterator[str]:
        return iter(["k", *self.bounds])

    def __len__(self) -> int:
        return 1 + len(self.bounds)

    def residues(self, P: int) -> dict[str, Any]:
        """Every quantity modulo the first ``P`` primes (``k`` stays :class:`Exact`)."""
        if P > self._P:
            self._extend(P)
        out: dict[str, Any] = {"k": self.k}
        for name, b in self.bounds.items():
            out[name] = Residues(self._R[name][:P], b.D, b.bound)
        return out

    def last_weights(self) -> list[int]:
        """The exact weights after the chunk (scale ``S``): those the loop handed over,
        else rebuilt from residues modulo enough primes for their size."""
        if self.K == 0:
            return list(self._V0)
        if self._handed is not None:
            return list(self._handed)
        P = primes_for(self._vmax)
        if P > self._P:
            self._extend(P)
        return Residues(self._Vend[:P], 1, self._vmax).integers(np.arange(self.d))

    def table(self, P: int) -> tuple[tuple[str, ...], np.ndarray]:
        """The measured quantities' names and their residues modulo every prime measured
        (``P`` at least), one block ``(quantity, prime, update)``: what the relations'
        compiled programs read."""
        if P > self._P:
            self._extend(P)
        names = tuple(n for n in _RESIDUE_NAMES if n in self.bounds)
        return names, self._B[: len(names)]

    def _extend(self, P: int) -> None:
        block, vend = self._block(primes(P)[self._P :])
        self._B = block if self._P == 0 else np.concatenate([self._B, block], axis=1)
        for i, name in enumerate(_RESIDUE_NAMES):
            if name in self.bounds:
                self._R[name] = self._B[i]
        self._Vend = np.concatenate([self._Vend, vend])
        self._P = P

    def _block(self, qs: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The quantities modulo each prime of ``qs`` (shape ``(7, len(qs), K)``, in the
        order of ``_RESIDUE_NAMES``; the comparator's rows are 0 without one), and the
        weights after the chunk (``(len(qs), d)``)."""
        P, K, d = len(qs), self.K, self.d
        q = np.array(qs, dtype=np.int64)
        t_lo = np.array([[pow(2, int(v), p) for v in self._exps] for p in qs], dtype=np.int64)
        t_hi = np.array([[pow(2, int(v) + 26, p) for v in self._exps] for p in qs], dtype=np.int64)
        coef = (
            np.zeros((P, 0), dtype=np.int64)
            if self._unit
            else np.array([[v % p for v in self._mult] for p in qs], dtype=np.int64)
        )
        v0 = np.array([[v % p for v in self._V0] for p in qs], dtype=np.int64)
        has_u = self._U is not None
        u = np.array([[v % p for v in (self._U or [])] for p in qs], dtype=np.int64)
        if not has_u:
            u = np.zeros((P, d), dtype=np.int64)
        # (residues below 2^26 held as int32: half the memory a run's record keeps; the
        # first block of a chunk is scratch memory until the monitor is done: release())
        if self._P == 0 and self._scratch is not None:
            B = take((len(_RESIDUE_NAMES), P, K), np.int32)
            self._scratch.append(B)
        else:
            B = np.empty((len(_RESIDUE_NAMES), P, K), dtype=np.int32)
        vend = np.empty((P, d), dtype=np.int64)
        residue_vocabulary(
            self._m, self._which, self._loc, t_hi, t_lo, self._neg, coef, v0, u, q,
            B[0], B[1], B[2], B[3], B[4], B[5], B[6], vend,
        )  # fmt: skip
        return B, vend


_RESIDUE_NAMES = ("n0", "n1", "t", "xx", "pu", "pu1", "yux")


def _largest(intervals: Mapping[str, Interval], names: tuple[str, ...]) -> dict[str, float]:
    """The largest magnitude of each quantity's enclosures over the chunk (NaN, an end
    not known, counts as infinite)."""
    if isinstance(intervals, Enclosures):  # every row at once
        lo, hi = intervals.lo, intervals.hi  # max |x| = max(max x, -min x): no |x| array
        with np.errstate(invalid="ignore"):
            top = np.maximum(
                np.maximum(lo.max(axis=1), -lo.min(axis=1)),
                np.maximum(hi.max(axis=1), -hi.min(axis=1)),
            )  # (a NaN end stays NaN)
        top = np.where(np.isnan(top), np.inf, top)
        return {n: float(top[r]) for r, n in enumerate(intervals.rows) if n in names}
    out = {}
    for name in names:
        iv = intervals.get(name)
        if iv is not None:
            a = np.abs(np.concatenate([np.atleast_1d(iv.lo), np.atleast_1d(iv.hi)]))
            out[name] = math.inf if np.isnan(a).any() else float(a.max())
    return out


@jit_reassociating
def _dot(a: np.ndarray, b: np.ndarray, q: int, inv: float) -> Any:
    """``sum_c a_c b_c mod q`` for residues below 2^26 and at most 2^11 coordinates: the
    sum of the products stays below 2^63 (integer sums: exact in any order)."""
    acc = np.int64(0)
    for c in range(a.shape[0]):
        acc += a[c] * b[c]
    return mod(acc, q, inv)


@jit
def _dot_long(a: np.ndarray, b: np.ndarray, q: int, inv: float) -> Any:
    """:func:`_dot` of any length: reduced every 2^11 coordinates."""
    total = 0
    for c0 in range(0, a.shape[0], 2048):
        total = mod(total + _dot(a[c0 : c0 + 2048], b[c0 : c0 + 2048], q, inv), q, inv)
    return total


# one function on purpose: a compiled loop, whose length is its speed
@jit
def residue_vocabulary(
    m: np.ndarray,
    which: np.ndarray,
    loc: np.ndarray,
    t_hi: np.ndarray,
    t_lo: np.ndarray,
    neg: np.ndarray,
    coef: np.ndarray,
    v0: np.ndarray,
    u: np.ndarray,
    q: np.ndarray,
    n0: np.ndarray,
    n1: np.ndarray,
    t: np.ndarray,
    xx: np.ndarray,
    pu: np.ndarray,
    pu1: np.ndarray,
    yux: np.ndarray,
    vend: np.ndarray,
) -> None:
    """The run vocabulary of a chunk modulo each prime ``q[p]``, in one pass per prime.

    The chunk's distinct points are rows of ``m`` (update ``k`` is on row ``loc[k]``):
    each one's residues ``z = m 2^e = (m_hi 2^26 + m_lo) 2^e`` (``e`` from its exponent
    class ``which``), ``|z|^2`` and ``u.z`` are made once.  Then, update by update,
    ``t`` against the weights ``w_k`` before the update, the update itself, then
    ``n1``, ``pu1`` on ``w_{k+1}`` (``n0``, ``pu``: the same products of ``w_k``,
    measured once); ``xx`` and ``yux`` are the point's.  Residues below 2^26: a sum of
    2^11 products fits in int64 (longer sums are reduced as they go)."""
    P = q.shape[0]
    K = loc.shape[0]
    npts, d = m.shape
    unit = coef.shape[1] == 0
    long = d > 2048
    V = np.empty(d, dtype=np.int64)
    Z = np.empty((npts, d), dtype=np.int64)
    ZZ = np.empty(npts, dtype=np.int64)
    ZU = np.empty(npts, dtype=np.int64)
    Up = np.empty(d, dtype=np.int64)
    for p in range(P):
        qq = q[p]
        inv = 1.0 / qq
        for r in range(npts):
            x2 = 0
            yu = 0
            for c in range(d):
                e = which[r, c]
                mc = m[r, c]  # hi 2^26 + lo: floor shift, so hi may be negative
                zc = mod((mc >> 26) * t_hi[p, e] + (mc & 67108863) * t_lo[p, e], qq, inv)
                Z[r, c] = zc
                x2 += zc * zc
                yu += zc * u[p, c]
                if c & 1023 == 1023:  # keep the sums below 2^63
                    x2, yu = mod(x2, qq, inv), mod(yu, qq, inv)
            ZZ[r] = mod(x2, qq, inv)
            ZU[r] = mod(yu, qq, inv)
        for c in range(d):
            V[c] = v0[p, c]
            Up[c] = u[p, c]
        nn = _dot_long(V, V, qq, inv) if long else _dot(V, V, qq, inv)
        pp = _dot_long(V, Up, qq, inv) if long else _dot(V, Up, qq, inv)
        for k in range(K):
            r = loc[k]
            n0[p, k] = nn
            pu[p, k] = pp
            if unit and not long:  # one pass: w.z before, the update, |w|^2 and w.u after
                ng = neg[k]
                at = 0
                an = 0
                ap = 0
                for c in range(d):
                    zc = Z[r, c]
                    at += zc * V[c]
                    v = V[c] + (qq - zc if ng else zc)
                    v = v - qq if v >= qq else v
                    V[c] = v
                    an += v * v
                    ap += v * Up[c]
                tt = mod(at, qq, inv)
                yu = ZU[r]
                t[p, k] = qq - tt if ng and tt != 0 else tt
                yux[p, k] = qq - yu if ng and yu != 0 else yu
                xx[p, k] = ZZ[r]
                nn = mod(an, qq, inv)
                pp = mod(ap, qq, inv)
                n1[p, k] = nn
                pu1[p, k] = pp
                continue
            tt = _dot_long(Z[r], V, qq, inv) if long else _dot(Z[r], V, qq, inv)
            yu = ZU[r]
            t[p, k] = qq - tt if neg[k] and tt != 0 else tt
            yux[p, k] = qq - yu if neg[k] and yu != 0 else yu
            xx[p, k] = ZZ[r]
            if unit:  # w + y x: z or q - z added, then one subtraction at most
                for c in range(d):
                    v = V[c] + (qq - Z[r, c] if neg[k] else Z[r, c])
                    V[c] = v - qq if v >= qq else v
            else:
                s = coef[p, k] if not neg[k] else (qq - coef[p, k]) % qq
                for c in range(d):
                    v = V[c] + mod(Z[r, c] * s, qq, inv)
                    V[c] = v - qq if v >= qq else v
            nn = _dot_long(V, V, qq, inv) if long else _dot(V, V, qq, inv)
            pp = _dot_long(V, Up, qq, inv) if long else _dot(V, Up, qq, inv)
            n1[p, k] = nn
            pu1[p, k] = pp
        for c in range(d):
            vend[p, c] = V[c]


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
    world: World,
    W0: np.ndarray,
    E0: np.ndarray,
    choices: np.ndarray,
    out: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`replay_float` from the float weights ``W0`` and drift bounds ``E0``: the
    float weights and drift bounds after each update of ``choices`` (one row each;
    written into ``out`` when given).

    >>> from pla_proof.data import load
    >>> from pla_proof.engine.drive import drive
    >>> dec = drive(load("orthonormal:2"), mode="float")
    >>> W, E = replay_float_from(dec.world, np.zeros(2), np.zeros(2), dec.choices)
    >>> W.tolist(), E.tolist()
    ([[1.0, 0.0], [1.0, -1.0]], [[0.0, 0.0], [0.0, 0.0]])
    """
    K, d = int(choices.shape[0]), world.data.d
    W, E = (np.empty((K, d)), np.empty((K, d))) if out is None else out
    cf, rel = world.float_factors
    picks = np.asarray(choices).astype(np.int64)
    replay_float(world.X, world.data.labels, cf, rel, picks, W0, E0, W, E)
    return W, E


def enclosures(
    world: World,
    choices: np.ndarray,
    k0: int,
    W0: np.ndarray,
    E0: np.ndarray,
    u: np.ndarray | None,
    eu: np.ndarray | None,
    *,
    scratch: bool = False,
) -> tuple[Enclosures, np.ndarray, np.ndarray]:
    """:func:`float_measures` of updates ``k0 + 1 ..`` from the float weights ``W0`` and
    drift bounds ``E0``, the weights replayed as :func:`replay_float` replays them --
    in one compiled pass that keeps only the current weights (no array of every
    update's weights: on 5,000 x 20 floats, a millisecond of fresh memory), as one
    :class:`~pla_proof.engine.enclosures.Enclosures` table (a mapping of the quantities
    and ``k`` to their enclosures); also the float weights and drift bounds after the
    last update.  ``scratch``: the table's arrays come from :mod:`.scratch` (its taker
    gives them back).

    >>> from pla_proof.data import load
    >>> from pla_proof.engine.drive import drive
    >>> dec = drive(load("orthonormal:2"), mode="float")
    >>> m, W, E = enclosures(dec.world, dec.choices, 0, np.zeros(2), np.zeros(2), None, None)
    >>> bool(m["n1"].lo[1] <= 2.0 <= m["n1"].hi[1]), W.tolist()  # |w|^2 = 2 at the end
    (True, [1.0, -1.0])
    """
    K, d = int(choices.shape[0]), world.data.d
    cf, rel = world.float_factors
    has_u = u is not None and eu is not None
    uu = np.asarray(u if has_u else np.zeros(d), dtype=np.float64)
    ee = np.asarray(eu if has_u else np.zeros(d), dtype=np.float64)
    if scratch:  # the rows of _FLOAT_NAMES, then k
        lo, hi = take((8, K), np.float64), take((8, K), np.float64)
    else:
        lo, hi = np.empty((8, K)), np.empty((8, K))
    W, E = np.asarray(W0, dtype=np.float64).copy(), np.asarray(E0, dtype=np.float64).copy()
    picks = np.asarray(choices).astype(np.int64)
    n = world.data.n
    known, sums = take((n,), np.bool_), take((n, 4), np.float64)  # (scratch, given back)
    known[:] = False
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        float_vocabulary(
            world.X, world.data.labels, cf, rel, picks, uu, ee, W, E, lo, hi, known, sums
        )
    give(known)
    give(sums)
    return _table(lo, hi, k0, K, has_u), W, E


_FLOAT_NAMES = ("t", "n0", "n1", "xx", "pu", "pu1", "yux")


@jit
def float_vocabulary(
    X: np.ndarray,
    yl: np.ndarray,
    cf: np.ndarray,
    inc_rel: float,
    choices: np.ndarray,
    u: np.ndarray,
    eu: np.ndarray,
    W: np.ndarray,
    E: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    known: np.ndarray,
    sums: np.ndarray,
) -> None:
    """The enclosures of :func:`float_measures` (rows of ``lo``/``hi`` in the order of
    ``_FLOAT_NAMES``) for the updates ``choices`` from the float weights ``W`` and drift
    bounds ``E``, which end as the weights after the last update: each update made by
    the compiled loop's own operations (:func:`replay_float`); ``n0``/``pu`` of an
    update are ``n1``/``pu1`` of the one before (the same vector).  ``known`` (all
    False, one per point) and ``sums`` (``n x 4``) are room for each point's own sums,
    made once."""
    K = choices.shape[0]
    d = X.shape[1]
    sel = np.zeros(kn.SEL_SIZE, dtype=np.int64)
    hr = np.zeros(d, dtype=np.int64)
    hs = np.zeros(1, dtype=np.int64)
    tmp = np.zeros(d)
    mult = np.zeros(1, dtype=np.int64)
    n_v, n_a, p_v, p_a, p_e = _weight_sums(W, E, u, eu)
    for k in range(K):
        j = choices[k]
        y = yl[j]
        t_v, t_a, t_e = _point_sums(X, j, W, E)
        if not known[j]:
            sums[j, 0], sums[j, 1], sums[j, 2], sums[j, 3] = _data_sums(X, j, u, eu)
            known[j] = True
        xx_v, yu_v, yu_a, yu_e = sums[j, 0], sums[j, 1], sums[j, 2], sums[j, 3]
        _enclosure_into(t_v, t_a, t_e, True, d, lo, hi, 0, k, y)
        _enclosure_into(n_v, n_v, n_a, True, d, lo, hi, 1, k, 0)
        _enclosure_into(xx_v, xx_v, 0.0, False, d, lo, hi, 3, k, 0)
        _enclosure_into(p_v, p_a, p_e, True, d, lo, hi, 4, k, 1)
        _enclosure_into(yu_v, yu_a, yu_e, True, d, lo, hi, 6, k, y)
        kn._update(
            kn.FLOAT, X, yl, int(j), mult, cf, inc_rel, cf, mult, W, E, sel, hr, hr, hs, tmp
        )  # fmt: skip
        n_v, n_a, p_v, p_a, p_e = _weight_sums(W, E, u, eu)
        _enclosure_into(n_v, n_v, n_a, True, d, lo, hi, 2, k, 0)
        _enclosure_into(p_v, p_a, p_e, True, d, lo, hi, 5, k, 1)


@jit_reassociating
def _point_sums(X: np.ndarray, j: int, W: np.ndarray, E: np.ndarray) -> Any:
    """``x.w``, ``|x||w|``, ``|x| e`` for point ``j`` (any summation order)."""
    s0 = s1 = s2 = 0.0
    for c in range(W.shape[0]):
        x = float(X[j, c])
        ax = abs(x)
        s0 += x * W[c]
        s1 += ax * abs(W[c])
        s2 += ax * E[c]
    return s0, s1, s2


@jit_reassociating
def _weight_sums(W: np.ndarray, E: np.ndarray, u: np.ndarray, eu: np.ndarray) -> Any:
    """``w.w``, ``e(2|w| + e)``; ``w.u``, ``|w||u|``, ``e|u| + (|w| + e) eu``."""
    s0 = s1 = s2 = s3 = s4 = 0.0
    for c in range(W.shape[0]):
        w, e = W[c], E[c]
        aw = abs(w)
        au = abs(u[c])
        s0 += w * w
        s1 += e * (2.0 * aw + e)
        s2 += w * u[c]
        s3 += aw * au
        s4 += e * au + (aw + e) * eu[c]
    return s0, s1, s2, s3, s4


@jit_reassociating
def _data_sums(X: np.ndarray, j: int, u: np.ndarray, eu: np.ndarray) -> Any:
    """``x.x``; ``x.u``, ``|x||u|``, ``|x| eu`` for point ``j``."""
    s0 = s1 = s2 = s3 = 0.0
    for c in range(X.shape[1]):
        x = float(X[j, c])
        ax = abs(x)
        s0 += x * x
        s1 += x * u[c]
        s2 += ax * abs(u[c])
        s3 += ax * eu[c]
    return s0, s1, s2, s3


@jit
def _enclosure_into(
    v: float,
    a: float,
    drift: float,
    has_drift: bool,
    d: int,
    lo: np.ndarray,
    hi: np.ndarray,
    row: int,
    k: int,
    sign: int,
) -> None:
    """:func:`enclosure` of one sum into ``lo[row, k]``, ``hi[row, k]``; times the label
    ``sign`` (-1, 1), or clamped at 0 when ``sign`` is 0 (a square)."""
    low, high = _ends(v, a, drift, has_drift, d)
    if sign < 0:
        low, high = -high, -low
    elif sign == 0 and low < 0.0:
        low = 0.0
    lo[row, k] = low
    hi[row, k] = high


def float_vector(v: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """An exact vector as float64 values and a bound on each one's rounding error (0
    where the float is exact; infinite beyond float64's range).

    >>> from fractions import Fraction
    >>> f, e = float_vector([Fraction(1, 2), Fraction(1, 3)])
    >>> f.tolist(), float(e[0]), bool(0 < e[1] < 1e-16)
    ([0.5, 0.3333333333333333], 0.0, True)
    """
    from fractions import Fraction

    pairs = [approx(x if type(x) is Fraction else Fraction(x)) for x in v]
    return (
        np.array([p[0] for p in pairs], dtype=float),
        np.array([p[1] for p in pairs], dtype=float),
    )


_G = 2.0**-52
_TINY = 5e-324


def enclosure(v: np.ndarray, a: np.ndarray, drift: np.ndarray | None, d: int) -> Interval:
    """``[lo, hi]`` around each float sum ``v`` of ``d`` terms: within ``(d + 2) 2^-52``
    times an upper bound on the sum of the terms' magnitudes ``a`` (the rounding of any
    summation order), plus an upper bound on ``drift`` (how far the terms' factors may
    be from the exact ones), plus the underflow allowance; outward rounded, and the
    whole line where an end is not finite.

    >>> iv = enclosure(np.array([1.0]), np.array([1.0]), None, 2)
    >>> bool(iv.lo[0] < 1.0 < iv.hi[0]), float(iv.hi[0] - 1.0) < 1e-14
    (True, True)
    """
    v = np.ascontiguousarray(v, dtype=np.float64)
    lo, hi = np.empty_like(v), np.empty_like(v)
    none = drift is None
    dr = v if none else np.ascontiguousarray(drift, dtype=np.float64)
    _enclose(v, np.ascontiguousarray(a, dtype=np.float64), dr, not none, d, lo, hi)
    return Interval(lo, hi)


@jit
def _enclose(
    v: np.ndarray,
    a: np.ndarray,
    drift: np.ndarray,
    has_drift: bool,
    d: int,
    lo: np.ndarray,
    hi: np.ndarray,
) -> None:
    """:func:`enclosure`, elementwise; each step rounded as written (no reassociation).
    An upper bound on a sum of ``d`` nonnegative terms computed in float64 as ``x`` is
    ``next(x (1 + 2 g) + (d + 2) 2^-1074)``, ``g = (d + 2) 2^-52``."""
    for i in range(v.shape[0]):
        lo[i], hi[i] = _ends(v[i], a[i], drift[i], has_drift, d)


@jit
def _ends(v: float, a: float, drift: float, has_drift: bool, d: int) -> Any:
    """The ends of :func:`enclosure` for one sum ``v`` (each step rounded as written;
    "the next float" taken as :func:`~pla_proof.engine.evaluate.above`, at least that
    and at most two units beyond, without a library call)."""
    g = (d + 2) * _G
    grow = 1.0 + 2 * g
    floor = (d + 2) * _TINY
    r = g * above(a * grow + floor)
    if has_drift:
        r = r + above(drift * grow + floor)
    r = r + (2 * d + 4) * _TINY
    low = below(v - r)
    high = above(v + r)
    if not (np.isfinite(low) and np.isfinite(high)):
        return -np.inf, np.inf
    return low, high


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
) -> Enclosures:
    """Enclosures of the ideal vocabulary for updates ``k0 + 1 ..``: ``Wprev``/``Eprev``
    are the float weights and drift bounds before each update, ``Wk``/``Ek`` after;
    ``u`` the comparator rounded to float64 and ``eu`` bounds on its rounding errors
    (the sums and enclosures of :func:`float_vocabulary`, on the weights given)."""
    K, d = Wk.shape
    has_u = u is not None and eu is not None
    uu = np.asarray(u if has_u else np.zeros(d), dtype=np.float64)
    ee = np.asarray(eu if has_u else np.zeros(d), dtype=np.float64)
    lo, hi = np.empty((8, K)), np.empty((8, K))
    picks = np.asarray(choices).astype(np.int64)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        given_vocabulary(X, yl, picks, Wprev, Eprev, Wk, Ek, uu, ee, lo, hi)
    return _table(lo, hi, k0, K, has_u)


@jit
def given_vocabulary(
    X: np.ndarray,
    yl: np.ndarray,
    choices: np.ndarray,
    Wp: np.ndarray,
    Ep: np.ndarray,
    W: np.ndarray,
    E: np.ndarray,
    u: np.ndarray,
    eu: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
) -> None:
    """:func:`float_vocabulary`'s enclosures on given weights: ``Wp``/``Ep`` before each
    update, ``W``/``E`` after it (one row each)."""
    d = X.shape[1]
    for k in range(choices.shape[0]):
        j = choices[k]
        y = yl[j]
        t_v, t_a, t_e = _point_sums(X, j, Wp[k], Ep[k])
        xx_v, yu_v, yu_a, yu_e = _data_sums(X, j, u, eu)
        _enclosure_into(t_v, t_a, t_e, True, d, lo, hi, 0, k, y)
        _enclosure_into(xx_v, xx_v, 0.0, False, d, lo, hi, 3, k, 0)
        _enclosure_into(yu_v, yu_a, yu_e, True, d, lo, hi, 6, k, y)
        n_v, n_a, p_v, p_a, p_e = _weight_sums(Wp[k], Ep[k], u, eu)
        _enclosure_into(n_v, n_v, n_a, True, d, lo, hi, 1, k, 0)
        _enclosure_into(p_v, p_a, p_e, True, d, lo, hi, 4, k, 1)
        n_v, n_a, p_v, p_a, p_e = _weight_sums(W[k], E[k], u, eu)
        _enclosure_into(n_v, n_v, n_a, True, d, lo, hi, 2, k, 0)
        _enclosure_into(p_v, p_a, p_e, True, d, lo, hi, 5, k, 1)


def _table(lo: np.ndarray, hi: np.ndarray, k0: int, K: int, has_u: bool) -> Enclosures:
    """The rows of ``_FLOAT_NAMES`` (without a comparator, its rows unused) and ``k``."""
    lo[7] = hi[7] = np.arange(k0 + 1, k0 + K + 1)
    rows = tuple(n if has_u or n not in ("pu", "pu1", "yux") else "" for n in _FLOAT_NAMES)
    return Enclosures((*rows, "k"), lo, hi, K)
