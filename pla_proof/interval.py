"""Outward-rounded float intervals: the rounding-error guard of float mode.

An :class:`Interval` ``[lo, hi]`` encloses an exact real number.  Every operation
rounds its bounds outward with ``math.nextafter``, so the enclosure stays sound.

>>> a = Interval.around(0.1, 0.0) + Interval.point(0.2)
>>> a.lo <= 0.30000000000000004 <= a.hi
True
>>> (Interval(1.0, 2.0) * Interval(-1.0, 3.0)).lo
-2.0000000000000004
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

__all__ = ["EPS", "Interval", "gamma_n"]

#: unit roundoff of float64 (round to nearest)
EPS = 2.0**-53


def gamma_n(m: int) -> float:
    """Higham's gamma_m = m u / (1 - m u), doubled as a safety margin for the
    rounding of the bound's own computation."""
    mu = m * EPS
    return 2.0 * mu / (1.0 - mu)


def _down(x: float) -> float:
    return math.nextafter(x, -math.inf)


def _up(x: float) -> float:
    return math.nextafter(x, math.inf)


@dataclass(frozen=True)
class Interval:
    """A closed interval of reals with float bounds."""

    lo: float
    hi: float

    @staticmethod
    def point(x: float) -> Interval:
        return Interval(float(x), float(x))

    @staticmethod
    def around(x: float, radius: float) -> Interval:
        """``[x - radius, x + radius]``, rounded outward."""
        return Interval(_down(x - radius), _up(x + radius))

    @property
    def width(self) -> float:
        return self.hi - self.lo

    @property
    def mid(self) -> float:
        return 0.5 * (self.lo + self.hi)

    def _coerce(self, other: Any) -> Interval:
        if isinstance(other, Interval):
            return other
        return Interval.point(float(other))

    def __add__(self, other: Any) -> Interval:
        o = self._coerce(other)
        return Interval(_down(self.lo + o.lo), _up(self.hi + o.hi))

    __radd__ = __add__

    def __neg__(self) -> Interval:
        return Interval(-self.hi, -self.lo)

    def __sub__(self, other: Any) -> Interval:
        return self + (-self._coerce(other))

    def __rsub__(self, other: Any) -> Interval:
        return self._coerce(other) - self

    def __mul__(self, other: Any) -> Interval:
        o = self._coerce(other)
        p = (self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi)
        return Interval(_down(min(p)), _up(max(p)))

    __rmul__ = __mul__

    def __pow__(self, n: int) -> Interval:
        if n != 2:
            out = Interval.point(1.0)
            for _ in range(n):
                out = out * self
            return out
        if self.lo >= 0:
            return Interval(_down(self.lo * self.lo), _up(self.hi * self.hi))
        if self.hi <= 0:
            return Interval(_down(self.hi * self.hi), _up(self.lo * self.lo))
        return Interval(0.0, _up(max(self.lo * self.lo, self.hi * self.hi)))

    def __truediv__(self, other: Any) -> Interval:
        o = self._coerce(other)
        if o.lo <= 0 <= o.hi:
            raise ZeroDivisionError("interval division by an interval containing 0")
        q = (self.lo / o.lo, self.lo / o.hi, self.hi / o.lo, self.hi / o.hi)
        return Interval(_down(min(q)), _up(max(q)))

    def __float__(self) -> float:
        return self.mid
