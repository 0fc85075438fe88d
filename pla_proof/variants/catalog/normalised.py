"""Normalised updates: ``y w.x <= 0 -> w += y x/|x|``; claim ``(1, gamma_ang)`` with
``gamma_ang = min_i y_i u.x_i/|x_i|`` (>= gamma/R).

Exactness: the cases have rational norms (``x = r v``, ``v`` a rational unit vector
from the inverse stereographic projection), so ``x/|x|`` is computed exactly; a
point whose norm is irrational is refused.

>>> exact_norm((Fraction(3), Fraction(4)))
Fraction(5, 1)
>>> exact_norm((Fraction(1), Fraction(1)))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pla_proof.errors.OutsideDomain: |x|^2 = 2 is not the square of a rational: ...
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from ...errors import OutsideDomain
from ...numbers import dot, norm2
from ..protocol.cases import normalisable_cases
from ..protocol.variant import Case, Claim, LinearVariant

__all__ = ["Normalised", "exact_norm"]


def _rational_norm(x: Sequence[Fraction]) -> bool:
    v = Fraction(norm2(x))
    return all(math.isqrt(a) ** 2 == a for a in (v.numerator, v.denominator))


def exact_norm(x: Sequence[Fraction]) -> Fraction:
    """``|x|`` exactly, or :class:`~pla_proof.errors.OutsideDomain` (an ``InputError``)
    when it is irrational: such a case is outside the variant's domain."""
    v = Fraction(norm2(x))
    p, q = v.numerator, v.denominator
    rp, rq = math.isqrt(p), math.isqrt(q)
    if rp * rp != p or rq * rq != q:
        raise OutsideDomain(
            f"|x|^2 = {v} is not the square of a rational: normalised updates need rational norms"
        )
    return Fraction(rp, rq)


class Normalised(LinearVariant):
    """The update ``y x/|x|`` (every step has length 1)."""

    name: ClassVar[str] = "normalised"
    summary: ClassVar[str] = "w += y x/|x|: (C, g) = (1, min y u.x/|x|)"
    source: ClassVar[str] = "standard"

    def domain(self, base: Any) -> Any:
        return base.filter(lambda c: all(_rational_norm(x) for x in c.X))

    def cases(self) -> Any:
        return normalisable_cases()

    def factors(self, case: Case) -> tuple[Fraction, ...]:
        return tuple(1 / exact_norm(x) for x in case.X)

    def claim(self, case: Case) -> Claim:
        g = min(yi * dot(case.u, x) / exact_norm(x) for x, yi in zip(case.X, case.y, strict=True))
        return Claim(C=Fraction(1), g=Fraction(g), uu=case.uu)
