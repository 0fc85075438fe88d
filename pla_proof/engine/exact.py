"""Exact measured values: an integer array over a positive integer denominator.

A run's measured quantities (:mod:`pla_proof.engine.measure`), in exact mode: each is
an integer array ``A`` over a denominator ``D`` (value ``A/D``).  Sums bring terms to
a common denominator, products multiply them.  A magnitude bound travels with every
array: int64 while it is below 2^62, Python integers (object arrays) beyond -- exact
either way.  The monitor decides the proof's relations on them
(:mod:`pla_proof.monitor.relations`).

>>> import numpy as np
>>> a = Exact.of(np.array([1, 3]), 2) + Exact.const(1)
>>> [str(v) for v in a.values()], (a * a).D
(['3/2', '5/2'], 4)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["Exact"]

_LIMIT = 2**62


# --- exact integer arrays over a denominator --------------------------------------------------


@dataclass(frozen=True)
class Exact:
    """``A / D``: an integer array (int64 or Python ints) or a Python int, over ``D > 0``.

    ``bound >= max |A|``.
    """

    A: Any
    D: int
    bound: int

    @staticmethod
    def of(A: Any, D: int) -> Exact:
        if isinstance(A, np.ndarray):
            if A.size == 0:
                return Exact(A.astype(np.int64), D, 0)
            if A.dtype == object:
                return Exact(A, D, int(max(abs(v) for v in A.flat)))
            return Exact(A, D, max(abs(int(A.max())), abs(int(A.min()))))
        return Exact(int(A), D, abs(int(A)))

    @staticmethod
    def const(v: Fraction | int) -> Exact:
        f = Fraction(v)
        return Exact(f.numerator, f.denominator, abs(f.numerator))

    def scaled(self, f: int) -> Exact:
        """The same value as ``(A f) / (D f)``."""
        return _mul_raw(self, f, self.D * f, self.bound * f)

    def __add__(self, other: Exact) -> Exact:
        if not isinstance(other, Exact):
            return NotImplemented
        L = math.lcm(self.D, other.D)
        a, b = self.scaled(L // self.D), other.scaled(L // other.D)
        return _combine(a.A, b.A, "+", L, a.bound + b.bound)

    def __neg__(self) -> Exact:
        return Exact(-self.A, self.D, self.bound)

    def __mul__(self, other: Exact) -> Exact:
        if not isinstance(other, Exact):
            return NotImplemented
        return _combine(self.A, other.A, "*", self.D * other.D, self.bound * other.bound)

    def numerators_times(self, f: int) -> Any:
        """``A f`` (int64 while the bound allows, Python integers beyond): the values
        brought over another denominator ``f``, as a relation compares two sides."""
        return _combine(self.A, f, "*", 1, self.bound * f).A

    def values(self) -> list[Fraction]:
        """Every value as a ``Fraction``."""
        arr = np.atleast_1d(np.asarray(self.A, dtype=object))
        return [Fraction(int(a), self.D) for a in arr.flat]

    def at(self, i: int) -> Fraction:
        """The value at row ``i`` (the value itself for a constant)."""
        A = self.A
        return Fraction(int(A[i] if isinstance(A, np.ndarray) else A), self.D)

    def take(self, idx: Any) -> Exact:
        """The rows ``idx`` (a constant stays itself)."""
        if not isinstance(self.A, np.ndarray):
            return self
        return Exact(self.A[idx], self.D, self.bound)


def _wide(A: Any) -> Any:
    if isinstance(A, np.ndarray) and A.dtype != object:
        return A.astype(object)
    return A


def _narrow(A: Any, bound: int) -> Any:
    if isinstance(A, np.ndarray) and A.dtype == object and bound < _LIMIT:
        return A.astype(np.int64)
    return A


def _mul_raw(e: Exact, f: int, D: int, bound: int) -> Exact:
    if f == 1:
        return Exact(e.A, D, bound)
    if bound < _LIMIT and abs(f) < _LIMIT:
        return Exact(e.A * f, D, bound)
    return Exact(_wide(e.A) * f, D, bound)


def _combine(a: Any, b: Any, op: str, D: int, bound: int) -> Exact:
    if bound >= _LIMIT or _is_big(a) or _is_big(b):
        a, b = _wide(a), _wide(b)
        if isinstance(a, int) and isinstance(b, int):
            return Exact(a + b if op == "+" else a * b, D, bound)
    out = a + b if op == "+" else a * b
    return Exact(_narrow(out, bound), D, bound)


def _is_big(v: Any) -> bool:
    if isinstance(v, np.ndarray):
        return bool(v.dtype == object)
    return bool(abs(v) >= _LIMIT)
