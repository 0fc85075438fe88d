"""Exact arithmetic for sums of exponentials ``sum_q c_q e^(-q)`` with rational ``c_q``, ``q``.

RBF kernel values ``exp(-|x - x'|^2/(2 sigma^2))`` on rational data with rational
``1/(2 sigma^2)`` are such terms, and sums and products of them stay in this ring,
so every quantity of a kernel run (``f(x)``, ``|w|^2``, ``u.w``) is an
:class:`ExpSum`.  Comparisons are exact: after collecting equal exponents, a
nonzero combination of distinct ``e^(-q)`` is nonzero (Lindemann-Weierstrass), so
its sign is decided by interval evaluation at increasing precision.

>>> a = ExpSum.exp(Fraction(1, 2))
>>> (a - a) == 0, a > Fraction(3, 5), a < Fraction(61, 100)
(True, True, True)
>>> (a * a - ExpSum.exp(Fraction(1))).is_zero()
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from mpmath import iv  # type: ignore[import-untyped]

__all__ = ["ExpSum", "to_interval"]

_MAX_DPS = 4000


class ExpSum:
    """``sum_q coeff[q] * exp(-q)``, an exact real number."""

    __slots__ = ("terms",)

    def __init__(self, terms: dict[Fraction, Fraction] | None = None):
        self.terms: dict[Fraction, Fraction] = {q: c for q, c in (terms or {}).items() if c != 0}

    @staticmethod
    def exp(q: Fraction, coeff: Fraction = Fraction(1)) -> ExpSum:
        """``coeff * exp(-q)``."""
        return ExpSum({Fraction(q): Fraction(coeff)})

    @staticmethod
    def lift(v: Any) -> ExpSum:
        if isinstance(v, ExpSum):
            return v
        return ExpSum({Fraction(0): Fraction(v)})

    def is_zero(self) -> bool:
        return not self.terms

    def __add__(self, other: Any) -> ExpSum:
        o = ExpSum.lift(other)
        out = dict(self.terms)
        for q, c in o.terms.items():
            out[q] = out.get(q, Fraction(0)) + c
        return ExpSum(out)

    __radd__ = __add__

    def __neg__(self) -> ExpSum:
        return ExpSum({q: -c for q, c in self.terms.items()})

    def __sub__(self, other: Any) -> ExpSum:
        return self + (-ExpSum.lift(other))

    def __rsub__(self, other: Any) -> ExpSum:
        return ExpSum.lift(other) - self

    def __mul__(self, other: Any) -> ExpSum:
        o = ExpSum.lift(other)
        out: dict[Fraction, Fraction] = {}
        for q1, c1 in self.terms.items():
            for q2, c2 in o.terms.items():
                q = q1 + q2
                out[q] = out.get(q, Fraction(0)) + c1 * c2
        return ExpSum(out)

    __rmul__ = __mul__

    def __pow__(self, p: int) -> ExpSum:
        if not isinstance(p, int) or p < 0:
            return NotImplemented
        out = ExpSum.lift(1)
        for _ in range(p):
            out = out * self
        return out

    def sign(self) -> int:
        """The exact sign (-1, 0, +1)."""
        if not self.terms:
            return 0
        dps = 30
        while dps <= _MAX_DPS:
            v = to_interval(self, dps)
            if v.a > 0:
                return 1
            if v.b < 0:
                return -1
            dps *= 2
        raise ArithmeticError(
            "could not decide the sign of a nonzero exponential sum"
        )  # pragma: no cover

    def _cmp(self, other: Any) -> int:
        diff: ExpSum = self - ExpSum.lift(other)
        return diff.sign()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ExpSum | int | Fraction):
            return NotImplemented
        return (self - other).is_zero()

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.terms.items())))

    def __lt__(self, other: Any) -> bool:
        return self._cmp(other) < 0

    def __le__(self, other: Any) -> bool:
        return self._cmp(other) <= 0

    def __gt__(self, other: Any) -> bool:
        return self._cmp(other) > 0

    def __ge__(self, other: Any) -> bool:
        return self._cmp(other) >= 0

    def upper(self) -> float:
        """A float at least the value (for budgets)."""
        return float(to_interval(self, 30).b) * (1 + 1e-12) + 1e-300

    def lower(self) -> float:
        """A float at most the value."""
        v = float(to_interval(self, 30).a)
        return v * (1 - 1e-12) if v > 0 else v * (1 + 1e-12) - 1e-300

    def __float__(self) -> float:
        return float(to_interval(self, 30).mid)

    def __repr__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for q, c in sorted(self.terms.items()):
            parts.append(str(c) if q == 0 else f"{c}*exp(-{q})")
        return " + ".join(parts) + f" (~{float(self):.6g})"

    __str__ = __repr__


def to_interval(v: Any, dps: int) -> Any:
    """An ``mpmath.iv`` enclosure of ``v`` (ExpSum or rational) at ``dps`` digits."""
    iv.dps = dps
    if not isinstance(v, ExpSum):
        f = Fraction(v)
        return iv.mpf(f.numerator) / iv.mpf(f.denominator)
    total = iv.mpf(0)
    for q, c in v.terms.items():
        cq = iv.mpf(c.numerator) / iv.mpf(c.denominator)
        e = iv.exp(-(iv.mpf(q.numerator) / iv.mpf(q.denominator))) if q else iv.mpf(1)
        total += cq * e
    return total
