"""A nonzero start ``w_0``: ``u.w_k >= u.w_0 + k gamma``, ``|w_k|^2 <= |w_0|^2 + k R^2``, hence
``k <= R^2/gamma^2 + 2 (|w_0| - u.w_0)/gamma`` (unit ``u``; derived in docs/facts.md).

Homogeneously, with ``g = min y u.x`` for an unnormalised ``u``:
``k <= R^2 |u|^2/g^2 + 2 (|w_0| |u| - u.w_0)/g``.  The square root
``|w_0| |u| = sqrt(|w_0|^2 |u|^2)`` is replaced by a rational upper bound, so the
checked bound is never smaller than the true one.

>>> sqrt_upper(Fraction(2)) > Fraction(14142135, 10**7)
True
>>> sqrt_upper(Fraction(9, 4))
Fraction(3, 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from hypothesis import strategies as st

from ...numbers import dot, norm2
from ..protocol.variant import Case, Claim, LinearVariant, orthonormal_cases

__all__ = ["NonzeroStart", "sqrt_upper"]


def sqrt_upper(v: Fraction, digits: int = 12) -> Fraction:
    """A rational ``r >= sqrt(v)`` (exact when ``v`` is a rational square)."""
    if v < 0:
        raise ValueError("negative")
    p, q = v.numerator, v.denominator
    rp, rq = math.isqrt(p), math.isqrt(q)
    if rp * rp == p and rq * rq == q:
        return Fraction(rp, rq)
    s = 10**digits
    # sqrt(p/q) = sqrt(p q)/q <= (isqrt(p q s^2) + 1)/(q s)
    return Fraction(math.isqrt(p * q * s * s) + 1, q * s)


@st.composite
def _start_cases(draw: Any, base: Any) -> Case:
    """A start of small integer coordinates times the data's scale, or (half the draws)
    one pointing away from ``u``: ``w_0 = -t u`` with ``t`` up to ``4 R^3 |u| / gamma^2``
    (homogeneous), far enough that a run needs more updates than the zero-start bound."""
    c: Case = draw(base)
    if draw(st.booleans(), label="start away from u"):
        t = Fraction(draw(st.integers(1, 4), label="how far")) / 4
        R2, uu, g = c.radius_squared, c.uu, c.gamma
        scale = t * sqrt_upper(R2) * R2 * sqrt_upper(uu) / (g * g)
        return Case(c.X, c.y, c.u, c.gamma, {"w0": tuple(-scale * v for v in c.u)}, c.name)
    w0 = draw(st.lists(st.integers(-4, 4), min_size=c.d, max_size=c.d))
    s = max((abs(v) for x in c.X for v in x), default=Fraction(1)) or Fraction(1)
    return Case(c.X, c.y, c.u, c.gamma, {"w0": tuple(s * v for v in w0)}, c.name)


class NonzeroStart(LinearVariant):
    """The classic update from a drawn start ``w_0``."""

    name: ClassVar[str] = "nonzero-start"
    summary: ClassVar[str] = "w_0 != 0: k <= R^2/gamma^2 + 2(|w_0| - u.w_0)/gamma"
    source: ClassVar[str] = "derived from P_k, Q_k and Cauchy-Schwarz (docs/facts.md)"

    def domain(self, base: Any) -> Any:
        return _start_cases(base)

    def examples(self) -> Sequence[Case]:
        out = list(super().examples())
        for c in orthonormal_cases():
            w0 = tuple(Fraction(-v) for v in c.u)  # start pointing away from u
            out.append(Case(c.X, c.y, c.u, c.gamma, {"w0": w0}, c.name))
        return out

    def start(self, case: Case) -> list[Fraction]:
        return list(case.params["w0"])

    def claim(self, case: Case) -> Claim:
        w0 = case.params["w0"]
        R2, uu, g = case.radius_squared, case.uu, case.gamma
        pu0, n0 = Fraction(dot(case.u, w0)), Fraction(norm2(w0))
        bound = R2 * uu / (g * g) + 2 * (sqrt_upper(n0 * uu) - pu0) / g
        return Claim(C=R2, g=g, uu=uu, pu0=pu0, n0=n0, bound=bound)
