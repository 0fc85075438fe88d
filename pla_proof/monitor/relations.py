"""A lemma's relation evaluated on every update of a run at once.

The proof's run-time statements are polynomial relations in the run vocabulary
(:mod:`pla_proof.proof.statements`).  A run records each measured quantity as an
array over its updates.  Two evaluators walk the statement's own SymPy expression:

* **exact**: each quantity is an integer array ``A`` over a positive integer
  denominator ``D`` (value ``A/D``); sums bring terms to a common denominator,
  products multiply them, and the relation ``L/Dl op R/Dr`` is decided as
  ``L Dr op R Dl``.  A magnitude bound travels with every array: int64 while it is
  below 2^62, Python integers (object arrays) beyond -- exact either way.
* **interval**: each quantity is a pair of float64 arrays ``[lo, hi]`` enclosing it;
  every operation rounds outward (``nextafter``), and a relation is *violated* only
  where it fails for every value of the enclosures.

>>> import numpy as np
>>> from fractions import Fraction
>>> from pla_proof.proof.statements import lemma
>>> rel = Relation.of(lemma("L3"), strict=False)
>>> values = {"pu1": Exact.of(np.array([2, 5]), 1), "k": Exact.of(np.array([1, 2]), 1),
...           "g": Exact.const(Fraction(3, 2))}
>>> rel.exact(values).tolist()  # pu1 >= k g: 2 >= 3/2 and 5 >= 3
[True, True]
>>> values["pu1"] = Exact.of(np.array([1, 5]), 1)
>>> rel.exact(values).tolist()
[False, True]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ..proof.runtime import tree_symbols
from .residues import Residues, primes_for

if TYPE_CHECKING:
    from ..proof.runtime import RunLemma
    from ..proof.statements import Lemma

__all__ = ["Exact", "Interval", "Relation"]

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


# --- float intervals, rounded outward -----------------------------------------------------------


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


# --- relations ----------------------------------------------------------------------------------


_CACHE: dict[tuple[Any, ...], Relation] = {}


@dataclass(frozen=True)
class Relation:
    """A lemma's run-time relation ``lhs op rhs``, ready to evaluate on arrays.

    The SymPy expressions are compiled once (per statement and margin form) into small
    evaluators, so a run pays no SymPy cost.
    """

    lemma: Lemma | RunLemma
    strict: bool
    op: str
    symbols: tuple[str, ...]
    _lhs: Any
    _rhs: Any

    @staticmethod
    def of(lemma: Lemma | RunLemma, *, strict: bool) -> Relation:
        key = (lemma.id, id(lemma), strict)  # the cached relation keeps its lemma alive
        cached = _CACHE.get(key)
        if cached is None or cached.lemma is not lemma:
            lhs, op, rhs = _form(lemma, strict)
            names = sorted(tree_symbols(lhs) | tree_symbols(rhs))
            cached = Relation(lemma, strict, op, tuple(names), _compile(lhs), _compile(rhs))
            _CACHE[key] = cached
        return cached

    def exact(self, values: dict[str, Any]) -> np.ndarray:
        """Where the relation holds (a boolean array over the updates); values are
        :class:`Exact` or :class:`~pla_proof.monitor.residues.Residues` (then with
        at least :meth:`primes_needed` primes)."""
        left, right = self.sides_exact(values)
        if isinstance(left, Residues) or isinstance(right, Residues):
            g = math.gcd(left.D, right.D)  # L/Dl op R/Dr  <=>  L (Dr/g) op R (Dl/g)
            diff = left.scaled(right.D // g) + (-right.scaled(left.D // g))
            if self.op == "==":
                return np.asarray(diff.is_zero(), dtype=bool)
            return np.asarray(_cmp(diff.signs(), self.op, 0), dtype=bool)
        a = _combine(left.A, right.D, "*", 1, left.bound * right.D).A
        b = _combine(right.A, left.D, "*", 1, right.bound * left.D).A
        return np.asarray(_cmp(a, self.op, b), dtype=bool)

    def sides_exact(self, values: dict[str, Any]) -> tuple[Any, Any]:
        return self._lhs(values, _EXACT), self._rhs(values, _EXACT)

    def primes_needed(self, bounds: dict[str, Exact]) -> int:
        """How many primes decide the relation exactly on residues, given each
        quantity as its bound (an :class:`Exact` scalar over its denominator)."""
        left, right = self.sides_exact(bounds)
        g = math.gcd(left.D, right.D)
        return primes_for((left.bound * right.D + right.bound * left.D) // g)

    def interval(self, values: dict[str, Interval]) -> tuple[Interval, Interval]:
        """The enclosures of both sides."""
        return self._lhs(values, _INTERVAL), self._rhs(values, _INTERVAL)


_EXACT, _INTERVAL = 0, 1


def _form(lemma: Any, strict: bool) -> tuple[Any, str, Any]:
    """The lemma's relation as polynomial trees: a run-time lemma carries them (no
    SymPy); any other lemma's SymPy sides are written as trees."""
    form = getattr(type(lemma), "form", None)
    if form is not None:
        out: tuple[Any, str, Any] = form(lemma, strict)
        return out
    from ..proof.statements import tree

    lhs, op, rhs = lemma.sides(strict=strict)
    return tree(lhs), op, tree(rhs)


def _compile(e: Any) -> Any:
    """A polynomial tree as a function of (values, backend): exact or interval
    arithmetic."""
    tag = e[0]
    if tag == "sym":
        name = e[1]
        return lambda v, b: v[name]
    if tag == "num":
        q = Fraction(int(e[1]), int(e[2]))
        consts = (Exact.const(q), Interval.point(q))
        return lambda v, b: consts[b]
    if tag in ("add", "mul"):
        parts = [_compile(a) for a in e[1:]]
        add = tag == "add"

        def fold(v: Any, b: int) -> Any:
            out = parts[0](v, b)
            for p in parts[1:]:
                out = out + p(v, b) if add else out * p(v, b)
            return out

        return fold
    if tag == "pow" and int(e[2]) >= 1:
        base, n = _compile(e[1]), int(e[2])

        def power(v: Any, b: int) -> Any:
            x = base(v, b)
            if b == _INTERVAL and n == 2:
                return x.square()
            out = x
            for _ in range(n - 1):
                out = out * x
            return out

        return power
    raise ValueError(f"cannot evaluate {e} (not a polynomial)")


def _cmp(a: Any, op: str, b: Any) -> Any:
    if op == "<=":
        return a <= b
    if op == "<":
        return a < b
    if op == ">=":
        return a >= b
    if op == ">":
        return a > b
    if op == "==":
        return a == b
    raise ValueError(f"unknown relation {op!r}")


def certainly_holds(lhs: Interval, op: str, rhs: Interval) -> Any:
    """Where ``lhs op rhs`` holds for every pair of values in the enclosures (an
    equality never: enclosures cannot show it).

    >>> certainly_holds(Interval(0.0, 1.0), "<=", Interval(1.0, 2.0))
    True
    """
    if op == "<=":
        return lhs.hi <= rhs.lo
    if op == "<":
        return lhs.hi < rhs.lo
    if op == ">=":
        return lhs.lo >= rhs.hi
    if op == ">":
        return lhs.lo > rhs.hi
    if op == "==":
        return np.zeros(np.broadcast(lhs.lo, rhs.lo).shape, dtype=bool)
    raise ValueError(f"unknown relation {op!r}")


def certainly_violated(lhs: Interval, op: str, rhs: Interval) -> Any:
    """Where ``lhs op rhs`` fails for every pair of values in the enclosures.

    >>> certainly_violated(Interval(2.0, 3.0), "<=", Interval(0.0, 1.0))
    True
    >>> certainly_violated(Interval(0.5, 3.0), "<=", Interval(0.0, 1.0))
    False
    """
    if op == "<=":
        return lhs.lo > rhs.hi
    if op == "<":
        return lhs.lo >= rhs.hi
    if op == ">=":
        return lhs.hi < rhs.lo
    if op == ">":
        return lhs.hi <= rhs.lo
    if op == "==":
        return (lhs.hi < rhs.lo) | (lhs.lo > rhs.hi)
    raise ValueError(f"unknown relation {op!r}")
