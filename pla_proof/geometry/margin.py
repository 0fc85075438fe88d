"""The optimal margin through the origin, the affine margin, and Gordan certificates.

``gamma*`` (the best margin of any unit u through the origin) is the distance from
0 to ``conv{z_i}``, ``z_i = y_i x_i``; the nearest point ``p*`` is the optimal
comparator in homogeneous form (``min_i z_i.p* = |p*|^2``), so ``gamma*^2 =
|p*|^2`` and the tight bound is ``R^2/|p*|^2`` -- all rational for rational data.

A solver (scipy's ``nnls`` on Lawson and Hanson's least-distance form, HiGHS
``linprog`` for certificates) proposes the answer; an exact active-set method
(:mod:`.minnorm`) turns it into the exact optimum, and an independent exact check
(:meth:`OptimalMargin.verify`, :meth:`Certificate.verify`) is run before anything
is returned.  A solver failure is a :class:`~pla_proof.errors.SolverError`, never
a wrong answer.

>>> from pla_proof.data import load
>>> om = optimal_margin(load("orthonormal:4"))
>>> om.gamma_squared, om.bound, om.u_integer
(Fraction(1, 4), Fraction(4, 1), (1, -1, 1, -1))
>>> cert = separability(load("xor"))
>>> cert.alpha, cert.source
((Fraction(1, 1), Fraction(1, 1), Fraction(1, 1), Fraction(1, 1)), 'lp')
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..data import Dataset
from ..errors import InputError, SolverError
from ..monitor import Comparator, make_comparator
from ..numbers import dot
from ..trainer import Certificate
from .linalg import nullspace
from .minnorm import DEFAULT_MAX_ITER, nearest_points


def _sq(v: Sequence[Fraction]) -> Fraction:
    return sum((x * x for x in v), Fraction(0))


__all__ = [
    "AffineMargin",
    "NotSeparable",
    "OptimalMargin",
    "affine_margin",
    "gordan_certificate",
    "integer_form",
    "optimal_comparator",
    "optimal_margin",
    "separability",
]

Vector = tuple[Fraction, ...]


class NotSeparable(Exception):
    """No strict separator exists; ``certificate`` is a verified Gordan certificate."""

    def __init__(self, certificate: Certificate):
        super().__init__(f"data not strictly separable (certificate from {certificate.source})")
        self.certificate = certificate


def integer_form(v: Sequence[Fraction]) -> tuple[int, ...]:
    """The positive multiple of ``v`` with coprime integer entries.

    >>> integer_form((Fraction(1, 4), Fraction(-1, 2)))
    (1, -2)
    """
    den = math.lcm(*(f.denominator for f in v))
    ints = [int(f * den) for f in v]
    g = math.gcd(*ints)
    return tuple(i // g for i in ints) if g else tuple(ints)


@dataclass(frozen=True)
class OptimalMargin:
    """The exact optimum: ``u = p*`` (homogeneous comparator), convex ``weights`` with
    ``p* = sum_i weights_i y_i x_i``; ``gamma^2 = |p*|^2 = min_i y_i p*.x_i``."""

    u: Vector
    weights: Vector
    radius_squared: Fraction
    method: str
    iterations: int

    @property
    def gamma_squared(self) -> Fraction:
        """gamma*^2 = |p*|^2 (the squared optimal margin of the unit vector p*/|p*|)."""
        return _sq(self.u)

    @property
    def margin(self) -> Fraction:
        """min_i y_i u.x_i for the homogeneous u = p* (equals gamma*^2)."""
        return self.gamma_squared

    @property
    def bound(self) -> Fraction:
        """The tight bound R^2/gamma*^2."""
        return self.radius_squared / self.gamma_squared

    @property
    def support(self) -> tuple[int, ...]:
        """0-based indices of the points carrying weight (the support vectors)."""
        return tuple(i for i, w in enumerate(self.weights) if w)

    @property
    def u_integer(self) -> tuple[int, ...]:
        """u* as coprime integers (same direction)."""
        return integer_form(self.u)

    def comparator(self, data: Dataset, *, strict: bool = False, gamma: Any = None) -> Comparator:
        """u* as the monitor's comparator (validated exactly by ``make_comparator``)."""
        return make_comparator(data, self.u, strict=strict, gamma=gamma, source="optimal u*")

    def verify(self, data: Dataset) -> bool:
        """Exact check: p* is in the hull (weights >= 0 summing to 1 reproduce it),
        p* != 0, and every z_i.p* >= |p*|^2 (so no point of the hull is nearer 0)."""
        if len(self.weights) != data.n or len(self.u) != data.d:
            return False
        if any(w < 0 for w in self.weights) or sum(self.weights) != 1:
            return False
        Z, s, r2 = _integer_view(data)
        if r2 != self.radius_squared:
            return False
        if _combine(Z, self.weights, s) != tuple(self.u):
            return False
        return _all_at_least(Z, s, self.u, Fraction(0), _sq(self.u))


@dataclass(frozen=True)
class AffineMargin:
    """The maximum-margin affine separator on the original coordinates.

    Homogeneous form: ``y_i (u.x_i + theta) >= margin`` for all i with ``u = q`` the
    nearest difference of the class hulls and ``margin = |q|^2/2``.  For the unit
    vector ``u/|u|``: ``gamma^2 = |q|^2/4`` and ``theta_unit^2 = theta^2/|q|^2``.
    ``c`` is the bias constant; the bound for the augmented comparator ``(u, theta/c)``
    is ``(R^2 + c^2)(1 + theta_unit^2/c^2)/gamma^2`` (docs/facts.md), exact.
    """

    u: Vector
    theta: Fraction
    weights: Vector
    c: Fraction
    radius_squared: Fraction
    exact: bool = True

    @property
    def margin(self) -> Fraction:
        return _sq(self.u) / 2

    @property
    def gamma_squared(self) -> Fraction:
        return _sq(self.u) / 4

    @property
    def theta_squared_unit(self) -> Fraction:
        return self.theta**2 / _sq(self.u)

    @property
    def augmented_bound(self) -> Fraction:
        c2 = self.c**2
        return (self.radius_squared + c2) * (1 + self.theta_squared_unit / c2) / self.gamma_squared

    def verify(self, data: Dataset) -> bool:
        """Exact check of separation with the stated margin and of optimality
        (the weights give hull points of each class whose difference is u)."""
        if data.bias is None or len(self.weights) != data.n or any(w < 0 for w in self.weights):
            return False
        Zall, s, _ = _integer_view(data, signed=False)
        raw = [z[:-1] for z in Zall]
        pos = [i for i, yi in enumerate(data.y) if yi == 1]
        neg = [i for i, yi in enumerate(data.y) if yi == -1]
        wp = [self.weights[i] for i in pos]
        wn = [self.weights[i] for i in neg]
        if sum(wp) != 1 or sum(wn) != 1:
            return False
        a = _combine([raw[i] for i in pos], wp, s)
        b = _combine([raw[i] for i in neg], wn, s)
        if tuple(x - y for x, y in zip(a, b, strict=True)) != tuple(self.u):
            return False
        m = self.margin
        signed = [tuple(yi * v for v in r) for r, yi in zip(raw, data.y, strict=True)]
        shifts = [yi * self.theta for yi in data.y]
        return m > 0 and _all_at_least(signed, s, self.u, shifts, m)


# --- helpers ------------------------------------------------------------------------


def _integer_view(
    data: Dataset, *, signed: bool = True
) -> tuple[list[tuple[int, ...]], int, Fraction]:
    """``(Z, s, R^2)``: the points (times y_i when ``signed``) scaled by s to integers,
    and R^2 computed exactly from them."""
    s = math.lcm(*{v.denominator for x in data.X for v in x})
    X = [tuple(v.numerator * (s // v.denominator) for v in x) for x in data.X]
    r2 = Fraction(max(sum(v * v for v in x) for x in X), s * s)
    if not signed:
        return list(X), s, r2
    return [tuple(yi * v for v in x) for x, yi in zip(X, data.y, strict=True)], s, r2


def _combine(
    Z: Sequence[Sequence[int]], weights: Sequence[Fraction], s: int
) -> tuple[Fraction, ...]:
    """``sum_i weights_i Z_i / s`` exactly."""
    den = math.lcm(*(w.denominator for w in weights)) if weights else 1
    acc = [0] * len(Z[0])
    for w, z in zip(weights, Z, strict=True):
        if w:
            k = int(w * den)
            for c, v in enumerate(z):
                acc[c] += k * v
    return tuple(Fraction(a, den * s) for a in acc)


def _all_at_least(
    Z: Sequence[Sequence[int]], s: int, u: Sequence[Fraction], shift: Any, bound: Fraction
) -> bool:
    """Whether every ``Z_i.u / s + shift_i >= bound`` (shift: a number or one per row), exactly."""
    den = math.lcm(*(v.denominator for v in u))
    U = [int(v * den) for v in u]
    shifts = shift if isinstance(shift, list) else [shift] * len(Z)
    for z, sh in zip(Z, shifts, strict=True):
        # z.u/s + sh >= bound  <=>  z.U >= (bound - sh) * s * den
        if sum(a * b for a, b in zip(z, U, strict=True)) < (bound - sh) * s * den:
            return False
    return True


def _zero_point(data: Dataset) -> Certificate | None:
    for i, x in enumerate(data.X):
        if all(v == 0 for v in x):
            return Certificate(tuple(Fraction(int(j == i)) for j in range(data.n)), "zero point")
    return None


def _as_float(rows: Sequence[Sequence[int]]) -> np.ndarray:
    """Integer rows scaled to max |entry| = 1, as float64 (correctly rounded)."""
    m = max((abs(v) for r in rows for v in r), default=1) or 1
    return np.array([[v / m for v in r] for r in rows], dtype=np.float64)


#: The exact method starts cold (no SciPy) on data of at most this many entries (points x
#: coordinates) -- and, above 1,000 entries, of at most COLD_START_WORK = n d^3: its cost
#: grows with the dimension far faster than SciPy's NNLS warm start, which costs importing
#: SciPy (about 0.3 s in a fresh process) plus 0.01-0.2 s. Measured on separable integer
#: data (`python benchmarks/bench_geometry.py --starts`): cold 0.14 s on 2,000 x 12 and
#: 0.18 s on 4,000 x 10 (warm 0.38 s and 0.48 s with the import), but 1.05 s on 100 x 50
#: and 0.44 s on 150 x 30 (warm 0.38 s and 0.33 s).
COLD_START_SIZE = 40_000
COLD_START_WORK = 4_000_000


def starts_cold(n: int, d: int) -> bool:
    """Does the exact method start cold on ``n`` points of ``d`` coordinates?

    >>> starts_cold(2000, 12), starts_cold(100, 50), starts_cold(10, 100)
    (True, False, True)
    """
    entries = n * d
    return entries <= COLD_START_SIZE and (entries <= 1000 or n * d**3 <= COLD_START_WORK)


def _ldp_weights(Zf: np.ndarray) -> tuple[float, np.ndarray] | None:
    """Lawson-Hanson least-distance programming via ``scipy.optimize.nnls``.

    ``min |E u - e|, u >= 0`` with ``E = [Z^T; 1^T]``: the residual is 0 exactly when
    the data are not separable; otherwise ``u/sum(u)`` are the convex weights of the
    nearest point.  Returns ``(residual, weights)`` or None if the solver fails.
    """
    from scipy.optimize import nnls

    n, d = Zf.shape
    E = np.vstack([Zf.T, np.ones((1, n))])
    f = np.zeros(d + 1)
    f[-1] = 1.0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            u, rnorm = nnls(E, f, maxiter=max(50 * n, 1000))
    except Exception:  # the solver's failure only costs the warm start
        return None
    s = float(u.sum())
    if not np.isfinite(rnorm) or not np.all(np.isfinite(u)) or s <= 0:
        return None
    return float(rnorm), u / s


def _lp_alpha(Zf: np.ndarray) -> np.ndarray | None:
    """HiGHS: alpha >= 0, sum alpha = 1, Z^T alpha = 0 (a basic solution), or None."""
    from scipy.optimize import linprog

    n, d = Zf.shape
    E = np.vstack([Zf.T, np.ones((1, n))])
    f = np.zeros(d + 1)
    f[-1] = 1.0
    try:
        res = linprog(np.zeros(n), A_eq=E, b_eq=f, bounds=(0, None), method="highs")
    except Exception:
        return None
    if res.status != 0 or res.x is None:
        return None
    x: np.ndarray = res.x
    return x


def _rationalise(Z: Sequence[Sequence[int]], alpha: np.ndarray) -> tuple[Fraction, ...] | None:
    """An exact alpha >= 0, != 0 with sum alpha_i z_i = 0 on the solver's support.

    The support columns' exact null space is computed; a one-dimensional null space
    fixes alpha up to scale; otherwise the free coordinates take the solver's
    (rounded) values and the others follow exactly.
    """
    top = float(alpha.max()) if alpha.size else 0.0
    if top <= 0:
        return None
    S = [i for i, a in enumerate(alpha) if a > 1e-9 * top]
    d = len(Z[0])
    cols = [[Z[i][c] for i in S] for c in range(d)]
    basis = nullspace(cols, len(S))
    if not basis:
        return None
    if len(basis) == 1:
        v = basis[0]
        if all(x <= 0 for x in v):
            v = [-x for x in v]
    else:
        v = [Fraction(0)] * len(S)
        for b in basis:
            f = next(
                j
                for j, x in enumerate(b)
                if x == 1 and all(bb[j] == 0 for bb in basis if bb is not b)
            )
            r = Fraction(float(alpha[S[f]])).limit_denominator(10**9)
            v = [a + r * x for a, x in zip(v, b, strict=True)]
    if any(x < 0 for x in v) or all(x == 0 for x in v):
        return None
    full = [Fraction(0)] * len(Z)
    for i, x in zip(S, v, strict=True):
        full[i] = x
    return tuple(Fraction(i) for i in integer_form(full))


def _normalised(cert: Certificate) -> Certificate:
    return Certificate(tuple(Fraction(i) for i in integer_form(cert.alpha)), cert.source)


# --- public API -----------------------------------------------------------------------


def separability(data: Dataset, *, max_iter: int = DEFAULT_MAX_ITER) -> OptimalMargin | Certificate:
    """Decide strict separability through the origin, exactly.

    Returns the exact :class:`OptimalMargin` or a verified Gordan
    :class:`~pla_proof.trainer.Certificate` (``source``: ``zero point``, ``lp`` or
    ``min-norm``).  Raises :class:`SolverError` if no answer passes the exact check.
    """
    zero = _zero_point(data)
    if zero is not None:
        return zero
    Z, scale, r2 = _integer_view(data)
    if starts_cold(data.n, data.d):
        # small data: the exact method from a cold start takes less than importing SciPy
        # for a warm start; not separable goes on to the LP certificate
        near = nearest_points(Z, max_iter=max_iter)
        if any(v != 0 for v in near.q):
            return _optimal(data, near, scale, r2, "exact active-set method, cold start")
    Zf = _as_float(Z)
    ldp = _ldp_weights(Zf)
    start: list[tuple[int, Fraction]] | None = None
    if ldp is not None:
        rnorm, lam = ldp
        start = [
            (i, Fraction(float(w)).limit_denominator(10**9)) for i, w in enumerate(lam) if w > 0
        ]
        start = [(i, w) for i, w in start if w > 0]
        if rnorm <= 1e-9:  # numerically not separable: ask the LP for a certificate
            cert = _lp_certificate(Z, Zf)
            if cert is not None and cert.verify(data):
                return cert
    near = nearest_points(Z, start=start, max_iter=max_iter)
    weights = tuple(near.weights.get(i, Fraction(0)) for i in range(data.n))
    if all(v == 0 for v in near.q):
        cert = _normalised(Certificate(weights, "min-norm"))
        if not cert.verify(data):
            raise SolverError("the exact min-norm certificate failed its exact check")
        return cert
    return _optimal(
        data,
        near,
        scale,
        r2,
        "scipy.optimize.nnls (least-distance form) + exact active-set refinement "
        f"({near.iterations} major step(s) beyond the solver's support)",
    )


def _optimal(data: Dataset, near: Any, scale: Any, r2: Any, method: str) -> OptimalMargin:
    """The exact optimum found by :func:`nearest_points`, after its exact check."""
    weights = tuple(near.weights.get(i, Fraction(0)) for i in range(data.n))
    om = OptimalMargin(
        u=tuple(v / scale for v in near.q),
        weights=weights,
        radius_squared=r2,
        method=method,
        iterations=near.iterations,
    )
    if not om.verify(data):
        raise SolverError("the optimal margin failed its exact optimality check")
    return om


def _lp_certificate(Z: Sequence[Sequence[int]], Zf: np.ndarray) -> Certificate | None:
    alpha = _lp_alpha(Zf)
    if alpha is None:
        return None
    exact = _rationalise(Z, alpha)
    return Certificate(exact, "lp") if exact is not None else None


def optimal_margin(data: Dataset, *, max_iter: int = DEFAULT_MAX_ITER) -> OptimalMargin:
    """The exact optimal margin; raises :class:`NotSeparable` (with its certificate)."""
    res = separability(data, max_iter=max_iter)
    if isinstance(res, Certificate):
        raise NotSeparable(res)
    return res


def gordan_certificate(data: Dataset, *, max_iter: int = DEFAULT_MAX_ITER) -> Certificate | None:
    """A verified certificate ``alpha >= 0, != 0, sum alpha_i y_i x_i = 0`` from the LP,
    or ``None`` when the data are strictly separable (decided exactly).

    >>> from pla_proof.data import load
    >>> gordan_certificate(load("students")) is None
    True
    """
    zero = _zero_point(data)
    if zero is not None:
        return zero
    Z, _, _ = _integer_view(data)
    cert = _lp_certificate(Z, _as_float(Z))
    if cert is not None and cert.verify(data):
        return cert
    res = separability(data, max_iter=max_iter)
    return res if isinstance(res, Certificate) else None


def optimal_comparator(
    data: Dataset, *, strict: bool = False, gamma: Any = None
) -> Comparator | None:
    """u* as a :class:`Comparator` (``source="optimal u*"``), or None if not separable."""
    res = separability(data)
    if isinstance(res, Certificate):
        return None
    return res.comparator(data, strict=strict, gamma=gamma)


def affine_margin(data: Dataset, *, max_iter: int = DEFAULT_MAX_ITER) -> AffineMargin | None:
    """The maximum-margin affine separator of data carrying a bias coordinate.

    Returns None when every label is the same (the affine margin is unbounded);
    raises :class:`NotSeparable` when the class hulls meet (the certificate, on the
    augmented data, also has sum alpha_i y_i = 0).

    >>> from pla_proof.data import load
    >>> am = affine_margin(load("students"))
    >>> am.gamma_squared, am.theta_squared_unit, am.exact
    (Fraction(325, 4), Fraction(1225, 52), True)
    """
    if data.bias is None:
        raise InputError("the affine margin needs data with a bias coordinate (--bias)")
    if len(set(data.y)) < 2:
        return None
    Zall, scale, _ = _integer_view(data, signed=False)
    raw = [z[:-1] for z in Zall]
    pos = [i for i, yi in enumerate(data.y) if yi == 1]
    neg = [i for i, yi in enumerate(data.y) if yi == -1]
    A = [raw[i] for i in pos]
    B = [raw[i] for i in neg]
    start = _affine_start(raw, data.y, pos, neg)
    near = nearest_points(A, B, start=start, max_iter=max_iter)
    weights = [Fraction(0)] * data.n
    for k, w in near.weights.items():
        weights[pos[k] if k < len(pos) else neg[k - len(pos)]] = w
    if all(v == 0 for v in near.q):
        cert = _normalised(Certificate(tuple(weights), "min-norm"))
        if not cert.verify(data):
            raise SolverError("the exact hull-intersection certificate failed its exact check")
        raise NotSeparable(cert)
    both = _combine(raw, weights, scale)  # = pos_bar + neg_bar (each class's weights sum to 1)
    u = tuple(v / scale for v in near.q)
    theta = -dot(u, both) / 2
    r2 = Fraction(max(sum(v * v for v in r) for r in raw), scale * scale)
    am = AffineMargin(u, theta, tuple(weights), data.bias.c, r2)
    if not am.verify(data):
        raise SolverError("the affine margin failed its exact check")
    return am


def _affine_start(
    raw: Sequence[Sequence[int]], y: Sequence[int], pos: list[int], neg: list[int]
) -> list[tuple[int, Fraction]] | None:
    """Warm start from the homogeneous problem with a large bias constant (theta
    barely penalised): its support on each class approximates the affine one."""
    Xf = _as_float(raw)
    big = 100.0 * max(1.0, float(np.sqrt((Xf * Xf).sum(axis=1).max())))
    yf = np.array(y, dtype=np.float64)
    Zf = yf[:, None] * np.hstack([Xf, np.full((len(y), 1), big)])
    ldp = _ldp_weights(Zf / big)
    if ldp is None or ldp[0] <= 1e-12:
        return None
    lam = ldp[1]
    where = {i: k for k, i in enumerate(pos)}
    where.update({i: len(pos) + k for k, i in enumerate(neg)})
    out = []
    for i, w in enumerate(lam):
        r = Fraction(float(w)).limit_denominator(10**9)
        if w > 0 and r > 0:
            out.append((where[i], r))
    return out
