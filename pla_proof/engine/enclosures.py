"""Measured values known as float intervals: ``[lo, hi]`` enclosing each value.

A run's measured quantities (:mod:`pla_proof.engine.measure`) in float mode, or on
data whose exact values are too wide: each is a pair of float64 arrays (or scalars)
enclosing it; every operation of :class:`Interval` rounds outward.  A chunk's
enclosures travel as one :class:`Enclosures` table, which the monitor's compiled
programs read (:mod:`pla_proof.monitor.relations`).

>>> x = Interval.point(0.5) + Interval.point(1)
>>> float(x.lo) < 1.5 < float(x.hi)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["Enclosures", "Interval"]


@dataclass(frozen=True)
class Interval:
    """``[lo, hi]`` (float64 arrays or scalars) enclosing each value."""

    lo: Any
    hi: Any

    @staticmethod
    def point(v: Fraction | int | float) -> Interval:
        f = Fraction(v)
        try:
            x = float(f)
        except OverflowError:
            x = math.inf if f > 0 else -math.inf
        if Fraction(x) == f if math.isfinite(x) else False:
            return Interval(x, x)
        return Interval(np.nextafter(x, -np.inf), np.nextafter(x, np.inf))

    def __add__(self, other: Interval) -> Interval:
        with np.errstate(over="ignore", invalid="ignore"):
            return Interval(_down(self.lo + other.lo), _up(self.hi + other.hi))

    def __neg__(self) -> Interval:
        return Interval(-self.hi, -self.lo)

    def __mul__(self, other: Interval) -> Interval:
        with np.errstate(over="ignore", invalid="ignore"):
            p = (self.lo * other.lo, self.lo * other.hi, self.hi * other.lo, self.hi * other.hi)
            lo = np.minimum(np.minimum(p[0], p[1]), np.minimum(p[2], p[3]))
            hi = np.maximum(np.maximum(p[0], p[1]), np.maximum(p[2], p[3]))
        return Interval(_down(lo), _up(hi))

    def square(self) -> Interval:
        with np.errstate(over="ignore", invalid="ignore"):
            a, b = self.lo * self.lo, self.hi * self.hi
            hi = np.maximum(a, b)
            lo = np.where((self.lo <= 0) & (self.hi >= 0), 0.0, np.minimum(a, b))
        return Interval(_down(lo), _up(hi))


def _down(x: Any) -> Any:
    """A float at most the next one below ``x`` (see :func:`_up`).

    >>> bool(_down(1.0) < 1.0), bool(_down(0.0) < 0.0), float(_down(-3.0)) <= -3.0 - 2**-51
    (True, True, True)
    """
    with np.errstate(over="ignore", invalid="ignore"):
        return x - np.abs(x) * _EPS - _SUB


def _up(x: Any) -> Any:
    """A float at least the next one above ``x``: ``x + |x| 2^-52 + 2^-1074``, each step
    rounded to nearest. ``|x| 2^-52`` is at least the gap above ``x`` (a float), so
    the rounded sum is at least the next float; the smallest subnormal covers 0 and the
    subnormals. Three array operations instead of ``nextafter``'s library call per
    element (a quarter of the time); at most two units in the last place wider. A
    non-finite ``x`` may give NaN: every check treats that end as undecided.

    >>> import numpy as np
    >>> x = np.array([1.0, -1.0, 0.0, 5e-324, -2.0**-1022, 1e308, -7.5])
    >>> bool(np.all(_up(x) >= np.nextafter(x, np.inf)))
    True
    >>> bool(np.all(_down(x) <= np.nextafter(x, -np.inf)))
    True
    """
    with np.errstate(over="ignore", invalid="ignore"):
        return x + np.abs(x) * _EPS + _SUB


_EPS, _SUB = 2.0**-52, 5e-324


class Enclosures(Mapping[str, Interval]):
    """A chunk's enclosures, read by every relation's programs: the quantities known
    per update as rows of two float arrays over the ``K`` updates (``rows`` names each
    row, ``""`` a row not in use), the ones known as one value for every update (the
    run's constants) as ``scalars``.  A mapping of names to :class:`Interval` (rows are
    views); setting a quantity known per update writes its row.

    >>> table = Enclosures.of({"t": Interval(np.array([1.0, 2.0]), np.array([1.5, 2.5])),
    ...                        "g": Interval(0.5, 0.5)}, 2)
    >>> table.rows, table.scalars, table["t"].hi.tolist()
    (('t',), {'g': (0.5, 0.5)}, [1.5, 2.5])
    """

    def __init__(
        self,
        rows: tuple[str, ...],
        lo: np.ndarray,
        hi: np.ndarray,
        K: int,
        scalars: dict[str, tuple[float, float]] | None = None,
    ) -> None:
        self.rows, self.lo, self.hi, self.K = rows, lo, hi, K
        self.scalars = dict(scalars or {})

    @staticmethod
    def of(values: Mapping[str, Interval], K: int | None = None) -> Enclosures:
        """The table of ``values`` (itself when it is one); arrays are copied into rows."""
        if isinstance(values, Enclosures):
            return values
        ends = {
            n: (np.asarray(v.lo, dtype=np.float64), np.asarray(v.hi, dtype=np.float64))
            for n, v in values.items()
        }
        if K is None:
            K = max((max(a.size, b.size) for a, b in ends.values()), default=1)
        per = [n for n, (a, b) in ends.items() if not (a.size == 1 and b.size == 1)]
        lo, hi = np.empty((len(per), K)), np.empty((len(per), K))
        for r, n in enumerate(per):
            lo[r], hi[r] = np.broadcast_to(ends[n][0], (K,)), np.broadcast_to(ends[n][1], (K,))
        scalars = {
            n: (float(a.reshape(-1)[0]), float(b.reshape(-1)[0]))
            for n, (a, b) in ends.items()
            if n not in per
        }
        return Enclosures(tuple(per), lo, hi, K, scalars)

    def with_scalars(self, values: Mapping[str, Interval]) -> Enclosures:
        """This table and ``values`` (one value each; the rows are shared, not copied)."""
        more = dict(self.scalars)
        for n, v in values.items():
            a, b = np.asarray(v.lo, dtype=np.float64), np.asarray(v.hi, dtype=np.float64)
            if a.size != 1 or b.size != 1:
                return Enclosures.of({**self, **values}, self.K)
            more[n] = (float(a.reshape(-1)[0]), float(b.reshape(-1)[0]))
        return Enclosures(self.rows, self.lo, self.hi, self.K, more)

    def layout(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return self.rows, tuple(self.scalars)

    def __getitem__(self, name: str) -> Interval:
        if name and name in self.rows:
            r = self.rows.index(name)
            return Interval(self.lo[r, : self.K], self.hi[r, : self.K])
        if name in self.scalars:
            a, b = self.scalars[name]
            return Interval(a, b)
        raise KeyError(name)

    def __setitem__(self, name: str, value: Interval) -> None:
        a, b = np.asarray(value.lo, dtype=np.float64), np.asarray(value.hi, dtype=np.float64)
        if name and name in self.rows and a.size != 1:
            r = self.rows.index(name)
            self.lo[r, : self.K], self.hi[r, : self.K] = a, b
        elif a.size == 1 and b.size == 1 and name not in self.rows:
            self.scalars[name] = (float(a.reshape(-1)[0]), float(b.reshape(-1)[0]))
        else:  # a new quantity per update: the table grows (a copy)
            grown = Enclosures.of({**self, name: value}, self.K)
            self.rows, self.lo, self.hi = grown.rows, grown.lo, grown.hi
            self.scalars = grown.scalars

    def __iter__(self) -> Iterator[str]:
        return iter([*(n for n in self.rows if n), *self.scalars])

    def __len__(self) -> int:
        return sum(1 for n in self.rows if n) + len(self.scalars)
