"""The kernel (dual) perceptron: ``y_i sum_j alpha_j y_j K(x_j, x_i) <= 0 -> alpha_i += 1``.

In feature space this is the classic algorithm on ``phi(x)``: ``w = sum_j alpha_j y_j
phi(x_j)``, ``sum alpha = k``, and with a comparator ``u = sum_a beta_a phi(a)``
(anchors ``a``) the generic lemma holds with ``(C, g) = (R_K^2, gamma_H)``,
``R_K^2 = max_i K(x_i, x_i)``, ``gamma_H = min_i y_i u.phi(x_i)`` -- provided ``K`` is
positive semidefinite (property ``PSD``; otherwise ``|w|^2`` is not a norm).

Every quantity is computed from Gram entries only: rational for the linear and
polynomial kernels, an exact :class:`~pla_proof.variants.catalog.exact_exp.ExpSum` for RBF.

>>> from pla_proof.variants.checking import run_case
>>> from pla_proof.variants.protocol.variant import Order
>>> F = Fraction
>>> case = Case(((F(1), F(0)), (F(0), F(1))), (1, -1), (F(1),), F(0),
...             {"anchors": ((F(1), F(-1)),)})
>>> rec, res = run_case(PolynomialKernel(), case, Order("cyclic"))
>>> rec.output["alpha"], all(f is None for f in res.values())
([1, 1], True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from hypothesis import assume
from hypothesis import strategies as st

from ...engine.pyloop import Problem
from ...numbers import dot
from ..protocol.variant import (
    Case,
    Claim,
    Measure,
    Order,
    Record,
    Variant,
    bound_floor,
    hard_cases,
    orthonormal_cases,
    run_problem,
)
from .exact_exp import ExpSum, to_interval

__all__ = [
    "Dual",
    "KernelVariant",
    "PolynomialKernel",
    "RBFKernel",
    "is_psd",
    "kernel_cases",
]

Point = tuple[Fraction, ...]
Kernel = Callable[[Point, Point], Any]


def linear_kernel(a: Point, b: Point) -> Fraction:
    return Fraction(dot(a, b))


def polynomial_kernel(c: Fraction, p: int) -> Kernel:
    """``K(x, x') = (x.x' + c)^p``."""

    def K(a: Point, b: Point) -> Fraction:
        return Fraction(dot(a, b) + c) ** p

    return K


def rbf_kernel(q: Fraction) -> Kernel:
    """``K(x, x') = exp(-q |x - x'|^2)`` (``q = 1/(2 sigma^2)``), exactly."""

    def K(a: Point, b: Point) -> ExpSum:
        diff = [s - t for s, t in zip(a, b, strict=True)]
        return ExpSum.exp(q * Fraction(dot(diff, diff)))

    return K


def _sign(v: Any) -> int:
    if isinstance(v, ExpSum):
        return v.sign()
    return int(v > 0) - int(v < 0)


def is_psd(G: Sequence[Sequence[Any]]) -> tuple[bool, str]:
    """Is the symmetric matrix ``G`` positive semidefinite?  ``(answer, reason)``.

    Rational entries: exact symmetric elimination (a zero pivot needs a zero row).
    Exponential-sum entries: interval Cholesky at increasing precision certifies
    positive definiteness (Gram matrices of distinct points under RBF are definite).

    >>> is_psd([[Fraction(1), Fraction(2)], [Fraction(2), Fraction(1)]])
    (False, 'pivot 2 is -3 < 0')
    >>> is_psd([[Fraction(1), Fraction(1)], [Fraction(1), Fraction(1)]])
    (True, '')
    """
    n = len(G)
    if any(isinstance(v, ExpSum) for row in G for v in row):
        return _psd_interval(G)
    A = [[Fraction(v) for v in row] for row in G]
    for i in range(n):
        p = A[i][i]
        if p < 0:
            return False, f"pivot {i + 1} is {p} < 0"
        if p == 0:
            if any(A[i][j] != 0 for j in range(i + 1, n)):
                return False, f"pivot {i + 1} is 0 with a nonzero row"
            continue
        for r in range(i + 1, n):
            f = A[r][i] / p
            if f:
                for c in range(i, n):
                    A[r][c] -= f * A[i][c]
    return True, ""


def _psd_interval(G: Sequence[Sequence[Any]]) -> tuple[bool, str]:
    n = len(G)
    dps = 40
    while dps <= 1000:
        A = [[to_interval(v, dps) for v in row] for row in G]
        ok = True
        for i in range(n):
            p = A[i][i]
            if p.b < 0:
                return False, f"pivot {i + 1} is negative"
            if not p.a > 0:
                ok = False
                break
            for r in range(i + 1, n):
                f = A[r][i] / p
                for c in range(i, n):
                    A[r][c] = A[r][c] - f * A[i][c]
        if ok:
            return True, ""
        dps *= 4
    return False, "could not certify positive definiteness"


@st.composite
def kernel_cases(draw: Any, kernel: Kernel, max_n: int = 5, max_anchors: int = 2) -> Case:
    """Distinct small points labelled by the sign of ``u.phi(x) = sum_a beta_a K(a, x)``
    for drawn anchors ``a`` and integer weights ``beta`` (points on ``u.phi = 0`` dropped).
    ``Case.u`` is ``beta``; ``params["anchors"]`` the anchors."""
    d = draw(st.integers(1, 2))
    pt = st.lists(st.integers(-2, 2), min_size=d, max_size=d).map(
        lambda v: tuple(Fraction(a) for a in v)
    )
    anchors = tuple(draw(st.lists(pt, min_size=1, max_size=max_anchors, unique=True)))
    beta = draw(
        st.lists(st.integers(-3, 3), min_size=len(anchors), max_size=len(anchors)).filter(any)
    )
    pts = draw(st.lists(pt, min_size=1, max_size=max_n, unique=True))
    X: list[Point] = []
    y: list[int] = []
    for x in pts:
        h = sum((b * kernel(a, x) for a, b in zip(anchors, beta, strict=True)), Fraction(0))
        s = _sign(h)
        if s != 0:
            X.append(x)
            y.append(s)
    assume(X)
    u = tuple(Fraction(b) for b in beta)
    return Case(tuple(X), tuple(y), u, Fraction(0), {"anchors": anchors}, "kernel")


class KernelVariant(Variant):
    """Base of the dual-form variants: subclasses give :meth:`kernel`."""

    name: ClassVar[str] = "kernel"
    extra_properties: ClassVar[dict[str, str]] = {
        "PSD": "the kernel's Gram matrix on the points and anchors is positive semidefinite",
        "DUAL": "sum_i alpha_i = k (one alpha increment per update)",
    }
    cap: ClassVar[int] = 1_000
    preconditions: ClassVar[tuple[str, ...]] = ("PSD",)

    def kernel(self) -> Kernel:
        raise NotImplementedError

    def cases(self) -> Any:
        return kernel_cases(self.kernel())

    def examples(self) -> Sequence[Case]:
        """Orthonormal points with ``u = sum_i y_i phi(x_i)`` (kept when it separates)."""
        out = []
        for c in orthonormal_cases():
            case = Case(
                c.X, c.y, tuple(Fraction(v) for v in c.y), Fraction(0), {"anchors": c.X}, c.name
            )
            if self.claim(case).g > 0:
                out.append(case)
        return out

    def _h(self, case: Case) -> list[Any]:
        """``u.phi(x_i)`` for every point."""
        K = self.kernel()
        anchors = case.params["anchors"]
        return [
            sum((b * K(a, x) for a, b in zip(anchors, case.u, strict=True)), Fraction(0))
            for x in case.X
        ]

    def claim(self, case: Case) -> Claim:
        K = self.kernel()
        anchors = case.params["anchors"]
        R2 = _max(K(x, x) for x in case.X)
        h = self._h(case)
        g = _min(yi * hi for yi, hi in zip(case.y, h, strict=True))
        uu = sum(
            (
                b1 * b2 * K(a1, a2)
                for a1, b1 in zip(anchors, case.u, strict=True)
                for a2, b2 in zip(anchors, case.u, strict=True)
            ),
            Fraction(0),
        )
        return Claim(C=R2, g=g, uu=uu)

    def gram(self, case: Case) -> list[list[Any]]:
        """The Gram matrix ``G[i][j] = K(x_i, x_j)`` the run decides and measures with."""
        K = self.kernel()
        return [[K(a, b) for b in case.X] for a in case.X]

    def run(self, case: Case, order: Order) -> Record:
        K = self.kernel()
        n = case.n
        G = self.gram(case)
        h = self._h(case)
        y = case.y
        rec = Record()
        anchors = case.params["anchors"]
        distinct = list(dict.fromkeys([*case.X, *anchors]))
        ok, why = is_psd([[K(a, b) for b in distinct] for a in distinct])
        rec.checks["PSD"] = (
            None if ok else f"Gram matrix of {len(distinct)} points is not PSD: {why}"
        )
        claim = self.claim(case)
        pair = claim.bound_pair() if ok and claim.g is not None and claim.g > 0 else None
        b = None if pair is None else bound_floor(pair) + 1
        conclusive = b is not None and b <= self.cap
        budget = b if b is not None and conclusive else self.cap
        problem = _DualProblem(G, y)
        fast = _IntegerDual.of(G, h, y)
        if fast is not None and not rec.should_stop():
            res = run_problem(fast, order, budget, None, fast.stop(rec))
            if res.status == "budget_exhausted":
                rec.complete = conclusive
            alpha = fast.alpha_after(res.choices)
            rec.visits = list(res.visits)
            return self._finish(rec, problem, alpha, len(res.choices))

        def measure(alpha: list[int]) -> tuple[Any, Any]:
            pu = sum((alpha[j] * y[j] * h[j] for j in range(n) if alpha[j]), Fraction(0))
            nn = sum(
                (
                    alpha[i] * alpha[j] * y[i] * y[j] * G[i][j]
                    for i in range(n)
                    if alpha[i]
                    for j in range(n)
                    if alpha[j]
                ),
                Fraction(0),
            )
            return pu, nn

        def stop(k: int, before: list[int], after: list[int], j: int) -> bool:
            (pu0, nn0), (pu1, nn1) = measure(before), measure(after)
            return rec.add(Measure(k, j, problem.score(before, j), pu0, pu1, nn0, nn1))

        if rec.should_stop():
            res_alpha = [0] * n
            k = 0
        else:
            res = run_problem(problem, order, budget, None, stop)
            if res.status == "budget_exhausted":
                rec.complete = conclusive
            res_alpha = res.states[-1] if res.states else problem.alpha_after(res.choices)
            k = len(res.choices)
            rec.visits = list(res.visits)
        return self._finish(rec, problem, res_alpha, k)

    def _finish(self, rec: Record, problem: _DualProblem, alpha: list[int], k: int) -> Record:
        """The end of a run: the returned predictor's margins, ``DUAL``, the output."""
        margins = [problem.score(alpha, i) for i in range(problem.n)]
        low = _min(margins)
        rec.end.update(m=low, j=margins.index(low))
        rec.checks["DUAL"] = None if sum(alpha) == k else f"sum alpha = {sum(alpha)} != k = {k}"
        rec.output["alpha"] = alpha
        return rec


class _IntegerDual(Problem):
    """The dual form on rational Gram entries as integers over one common denominator:
    the state is ``(alpha, f, pu, nn)`` with ``f_i = D sum_j alpha_j y_j G_ji`` (the
    decision values, kept up to date in O(n) per update instead of recomputed), ``pu =
    D_h u.w`` and ``nn = D |w|^2``, each update exact in integers in O(n) (``|w + y_j
    phi_j|^2 = |w|^2 + 2 y_j f_j + G_jj`` for a symmetric ``G``); a positive common scale
    changes no decision."""

    def __init__(self, G: list[list[int]], D: int, h: list[int], Dh: int, y: Sequence[int]):
        self.G, self.D, self.h, self.Dh, self.y, self.n = G, D, h, Dh, y, len(y)

    @staticmethod
    def of(G: list[list[Any]], h: list[Any], y: Sequence[int]) -> _IntegerDual | None:
        """The integer form of ``G`` and ``h`` (``None``: an entry is not rational)."""
        if not all(isinstance(v, int | Fraction) for row in G for v in row) or not all(
            isinstance(v, int | Fraction) for v in h
        ):
            return None
        D = math.lcm(*(Fraction(v).denominator for row in G for v in row))
        Dh = math.lcm(*(Fraction(v).denominator for v in h))
        Gi = [[int(v * D) for v in row] for row in G]
        return _IntegerDual(Gi, D, [int(v * Dh) for v in h], Dh, y)

    def start(self) -> tuple[list[int], list[int], int, int]:
        return [0] * self.n, [0] * self.n, 0, 0

    def score(self, state: Any, i: int) -> Any:
        return self.y[i] * state[1][i]

    def triggers(self, state: Any, i: int) -> bool:
        return bool(self.y[i] * state[1][i] <= 0)

    def step(self, state: Any, j: int) -> Any:
        alpha, f, pu, nn = state
        yj, row = self.y[j], self.G[j]
        # |w + y_j phi_j|^2 - |w|^2 = y_j (sum_i a_i y_i (G_ij + G_ji)) + G_jj (G need not
        # be symmetric: a broken kernel's is measured as it is)
        back = sum(a * yi * g for a, yi, g in zip(alpha, self.y, row, strict=True) if a)
        alpha = list(alpha)
        alpha[j] += 1
        nn += yj * (f[j] + back) + row[j]
        f = [a + yj * g for a, g in zip(f, row, strict=True)]
        return alpha, f, pu + yj * self.h[j], nn

    def stop(self, rec: Record) -> Any:
        """The engine's per-update callback: each update measured into ``rec``."""
        D, Dh, y = self.D, self.Dh, self.y

        def stop(k: int, before: Any, after: Any, j: int) -> bool:
            m = Measure(
                k,
                j,
                Fraction(y[j] * before[1][j], D),
                Fraction(before[2], Dh),
                Fraction(after[2], Dh),
                Fraction(before[3], D),
                Fraction(after[3], D),
            )
            return rec.add(m)

        return stop

    def alpha_after(self, choices: Sequence[int]) -> list[int]:
        alpha = [0] * self.n
        for j in choices:
            alpha[j] += 1
        return alpha

    def weights(self, state: Any) -> tuple[Fraction, ...]:
        return tuple(Fraction(a) for a in state[0])


class _DualProblem(Problem):
    """The dual form for the engine's per-step path: the state is the counts ``alpha``."""

    def __init__(self, G: list[list[Any]], y: Sequence[int]) -> None:
        self.G, self.y, self.n = G, y, len(y)

    def start(self) -> list[int]:
        return [0] * self.n

    def score(self, state: list[int], i: int) -> Any:
        G, y = self.G, self.y
        f = sum((a * y[j] * G[j][i] for j, a in enumerate(state) if a), Fraction(0))
        return y[i] * f

    def triggers(self, state: list[int], i: int) -> bool:
        return _sign(self.score(state, i)) <= 0

    def step(self, state: list[int], j: int) -> list[int]:
        out = list(state)
        out[j] += 1
        return out

    def alpha_after(self, choices: Sequence[int]) -> list[int]:
        alpha = [0] * self.n
        for j in choices:
            alpha[j] += 1
        return alpha

    def weights(self, state: list[int]) -> tuple[Fraction, ...]:
        return tuple(Fraction(a) for a in state)


def _max(values: Any) -> Any:
    out: Any = None
    for v in values:
        if out is None or v > out:
            out = v
    return out


def _min(values: Any) -> Any:
    out: Any = None
    for v in values:
        if out is None or v < out:
            out = v
    return out


class Dual(KernelVariant):
    """The dual form of the classic algorithm (linear kernel): same updates as the
    primal run, and ``w_k = sum_i alpha_i y_i x_i``."""

    name: ClassVar[str] = "dual"
    summary: ClassVar[str] = (
        "dual form, K = x.x': alpha counts, sum alpha = k, same updates as classic"
    )
    source: ClassVar[str] = "the DSC 255 handout"
    extra_properties: ClassVar[dict[str, str]] = {
        **KernelVariant.extra_properties,
        "EQ": "same update sequence as the primal classic run, and w_k = sum_i alpha_i y_i x_i",
    }

    def kernel(self) -> Kernel:
        return linear_kernel

    def examples(self) -> Sequence[Case]:
        return [
            Case(c.X, c.y, (Fraction(1),), Fraction(0), {"anchors": (c.u,)}, c.name)
            for c in orthonormal_cases()
        ]

    def cases(self) -> Any:
        return hard_cases().map(
            lambda c: Case(c.X, c.y, (Fraction(1),), Fraction(0), {"anchors": (c.u,)}, c.name)
        )

    def run(self, case: Case, order: Order) -> Record:
        from .classic import Classic

        rec = super().run(case, order)
        u = case.params["anchors"][0]
        gamma = min(yi * dot(u, x) for x, yi in zip(case.X, case.y, strict=True))
        primal_case = Case(case.X, case.y, u, Fraction(gamma), {}, case.name)
        ref = Classic().run(primal_case, order)
        alpha = rec.output["alpha"]
        w = tuple(
            sum(
                (a * yi * x[c] for a, yi, x in zip(alpha, case.y, case.X, strict=True)), Fraction(0)
            )
            for c in range(case.d)
        )
        mine, theirs = rec.choices, ref.choices
        capped = ref.status == "budget_exhausted" or rec.truncated or not rec.complete
        if capped:  # a run cut short (its cap, or the harness) is compared as far as it went
            common = min(len(mine), len(theirs))
            mine, theirs = mine[:common], theirs[:common]
        if mine != theirs:
            rec.checks["EQ"] = f"updates {mine} != primal {theirs}"
        elif capped:
            rec.checks["EQ"] = None
        elif w != tuple(ref.output["w"]):
            rec.checks["EQ"] = f"sum alpha_i y_i x_i = {w} != primal w = {ref.output['w']}"
        else:
            rec.checks["EQ"] = None
        return rec


class PolynomialKernel(KernelVariant):
    """``K(x, x') = (x.x' + 1)^2``."""

    name: ClassVar[str] = "kernel-poly"
    summary: ClassVar[str] = "kernel perceptron, K = (x.x' + 1)^2: k <= R_K^2/gamma_H^2"
    source: ClassVar[str] = "Aizerman et al. 1964; the DSC 255 handout"
    c: ClassVar[Fraction] = Fraction(1)
    degree: ClassVar[int] = 2

    def kernel(self) -> Kernel:
        return polynomial_kernel(self.c, self.degree)


class RBFKernel(KernelVariant):
    """``K(x, x') = exp(-|x - x'|^2/2)`` (sigma = 1), exact via :class:`ExpSum`."""

    name: ClassVar[str] = "kernel-rbf"
    summary: ClassVar[str] = "kernel perceptron, K = exp(-|x - x'|^2/2), exact: k <= 1/gamma_H^2"
    source: ClassVar[str] = "Aizerman et al. 1964; the DSC 255 handout"
    q: ClassVar[Fraction] = Fraction(1, 2)

    def kernel(self) -> Kernel:
        return rbf_kernel(self.q)

    def cases(self) -> Any:
        return kernel_cases(self.kernel(), max_n=4, max_anchors=2)
