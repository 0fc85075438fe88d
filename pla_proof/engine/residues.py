"""Exact integer arrays known by their residues modulo several primes.

Exact runs on float data have wide integers: a float's exponent range puts the scaled
points near 2^80, the weights and their products near 2^200.  Python integers make
every one of those operations an object operation.  Here such an integer array is
kept as its residues modulo ``P`` primes below 2^26 (int64 or int32 numpy arrays: a
product of two residues fits in 52 bits, a sum of 2^11 of them in int64), and every
sum and product of the proof's relations is made prime by prime (compiled, by
:mod:`pla_proof.engine.evaluate`; the arithmetic here reads values back for reports).
Exactness comes from a magnitude bound that travels with each value: when the product
``M`` of the primes exceeds twice the bound, the residues determine the integer
(Chinese remaindering), so its sign, whether it is zero, and the integer itself are
exact -- found by mixed-radix conversion, vectorised over the rows.

>>> import numpy as np
>>> a = Residues.of(np.array([3, -5, 0]), 1, 5, P=2)
>>> (a * a + a).signs().tolist(), (a * a + a).integers([1])
([1, 1, 0], [20])
>>> primes_for(10**30)
4
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .evaluate import residue_signs

__all__ = ["Residues", "primes", "primes_for"]

_TOP = 2**26

_PRIMES: list[int] = []
_PRODUCTS: list[int] = [1]  # _PRODUCTS[P] = product of the first P primes
_INV: dict[int, np.ndarray] = {}
_HALF: dict[int, np.ndarray] = {}  # the mixed-radix digits of (M - 1) / 2, per P


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3.4e14 (bases 2, 3, 5, 7, 11, 13, 17)."""
    if n < 2:
        return False
    for q in (2, 3, 5, 7, 11, 13, 17):
        if n % q == 0:
            return n == q
    d, r = n - 1, 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for a in (2, 3, 5, 7, 11, 13, 17):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _grow(P: int) -> None:
    c = _PRIMES[-1] - 2 if _PRIMES else _TOP - 1
    while len(_PRIMES) < P:
        if _is_prime(c):
            _PRIMES.append(c)
            _PRODUCTS.append(_PRODUCTS[-1] * c)
        c -= 2


def primes(P: int) -> list[int]:
    """The ``P`` largest primes below 2^26, descending.

    >>> primes(2)
    [67108859, 67108837]
    """
    _grow(P)
    return _PRIMES[:P]


def primes_for(bound: int) -> int:
    """How many primes determine every integer ``x`` with ``|x| <= bound``: the least
    ``P`` whose product exceeds ``2 bound``."""
    P = max(1, (2 * bound).bit_length() // 26)
    _grow(P + 1)
    while _PRODUCTS[P] <= 2 * bound:
        P += 1
        _grow(P + 1)
    return P


def _column(P: int) -> np.ndarray:
    return np.array(primes(P), dtype=np.int64)[:, None]


def _inverses(P: int) -> np.ndarray:
    """``inv[i, j] = p_j^-1 mod p_i`` for ``j < i``."""
    got = _INV.get(P)
    if got is None:
        ps = primes(P)
        got = np.zeros((P, P), dtype=np.int64)
        for i in range(P):
            for j in range(i):
                got[i, j] = pow(ps[j], -1, ps[i])
        _INV[P] = got
    return got


def residues_of(A: Any, P: int) -> np.ndarray:
    """An integer array (int64 or Python ints) or a Python int modulo each of the first
    ``P`` primes: shape ``(P, *A.shape)`` (``(P, 1)`` for an int)."""
    p = _column(P)
    if isinstance(A, np.ndarray) and A.dtype != object:
        flat = A.reshape(1, -1).astype(np.int64)
        out: np.ndarray = np.mod(flat, p).reshape((P, *A.shape))
        return out
    if isinstance(A, np.ndarray):
        ints = [int(v) for v in A.flat]
        out = np.array([[v % q for v in ints] for q in primes(P)], dtype=np.int64)
        return out.reshape((P, *A.shape))
    v = int(A)
    return np.array([[v % q] for q in primes(P)], dtype=np.int64)


@dataclass(frozen=True)
class Residues:
    """``A / D`` for an integer array ``A`` known by ``R = A mod p`` for the first ``P``
    primes (``R`` has shape ``(P, K)``, or ``(P, 1)`` for one value; int64, or int32 as a
    chunk's measured block keeps them); ``bound >= max |A|``.

    Arithmetic mixes with :class:`~pla_proof.engine.exact.Exact` values (the
    constants, the update index); the result's bound says how many primes it needs.
    """

    R: np.ndarray
    D: int
    bound: int

    @staticmethod
    def of(A: Any, D: int, bound: int, *, P: int) -> Residues:
        return Residues(residues_of(A, P), D, bound)

    @property
    def P(self) -> int:
        return int(self.R.shape[0])

    def _lift(self, other: Any) -> Residues:
        if isinstance(other, Residues):
            return other
        return Residues.of(other.A, other.D, other.bound, P=self.P)

    def scaled(self, f: int) -> Residues:
        """The same value as ``(A f) / (D f)``."""
        if f == 1:
            return self
        p = _column(self.P)
        fr = np.array([f % q for q in primes(self.P)], dtype=np.int64)[:, None]
        return Residues(self.R * fr % p, self.D * f, self.bound * abs(f))

    def take(self, idx: Any) -> Residues:
        """The rows ``idx``."""
        if self.R.shape[1] == 1:
            return self
        return Residues(self.R[:, idx], self.D, self.bound)

    def __add__(self, other: Any) -> Residues:
        o = self._lift(other)
        P = min(self.P, o.P)
        L = math.lcm(self.D, o.D)
        a, b = self.head(P).scaled(L // self.D), o.head(P).scaled(L // o.D)
        return Residues((a.R + b.R) % _column(P), L, a.bound + b.bound)

    __radd__ = __add__

    def __neg__(self) -> Residues:
        return Residues((_column(self.P) - self.R) % _column(self.P), self.D, self.bound)

    def __mul__(self, other: Any) -> Residues:
        o = self._lift(other)
        P = min(self.P, o.P)
        a = self.R[:P].astype(np.int64)  # (a product of two residues needs 52 bits)
        return Residues(a * o.R[:P] % _column(P), self.D * o.D, self.bound * o.bound)

    __rmul__ = __mul__

    def head(self, P: int) -> Residues:
        """The same value modulo the first ``P`` primes only."""
        return self if P == self.P else Residues(self.R[:P], self.D, self.bound)

    def _needed(self) -> int:
        P = primes_for(self.bound)
        if P > self.P:
            raise ValueError(f"{self.P} primes cannot determine integers up to {self.bound}")
        return P

    def signs(self) -> np.ndarray:
        """The sign (-1, 0, 1) of each integer."""
        P = self._needed()
        R = np.ascontiguousarray(self.R[:P], dtype=np.int64)
        half = _HALF.get(P)
        if half is None:
            half = _HALF[P] = np.array(_radix_digits((_PRODUCTS[P] - 1) // 2, P), np.int64)
        out = np.empty(R.shape[1], dtype=np.int8)
        residue_signs(R, _column(P)[:, 0], _inverses(P), half, out)
        return out

    def is_zero(self) -> np.ndarray:
        """Where the integer is 0."""
        P = self._needed()
        return np.asarray(~self.R[:P].any(axis=0))

    def integers(self, idx: Any) -> list[int]:
        """The integers at rows ``idx``, exactly."""
        P = self._needed()
        digits = _mixed_radix(self.R[:P, np.atleast_1d(np.asarray(idx))])
        M = _PRODUCTS[P]
        out = []
        for col in digits.T.tolist():
            x = 0
            for i in range(P - 1, -1, -1):
                x = x * _PRIMES[i] + col[i]
            out.append(x - M if 2 * x > M else x)
        return out

    def at(self, i: int) -> Fraction:
        """The value at row ``i``."""
        return Fraction(self.integers([0 if self.R.shape[1] == 1 else i])[0], self.D)

    def values(self) -> list[Fraction]:
        """Every value as a ``Fraction``."""
        return [Fraction(v, self.D) for v in self.integers(np.arange(self.R.shape[1]))]


def _mixed_radix(R: np.ndarray) -> np.ndarray:
    """Digits ``a`` with ``x = a_0 + a_1 p_0 + a_2 p_0 p_1 + ...`` (``0 <= a_i < p_i``)
    of the integers ``0 <= x < M`` whose residues are the columns of ``R``."""
    P = R.shape[0]
    p = _column(P)
    inv = _inverses(P)
    T = R.copy()
    for j in range(P - 1):
        rest = T[j + 1 :]
        q = p[j + 1 :]
        T[j + 1 :] = (rest - T[j]) % q * inv[j + 1 :, j : j + 1] % q
    return T


def _radix_digits(x: int, P: int) -> list[int]:
    out = []
    for q in primes(P):
        x, a = divmod(x, q)
        out.append(a)
    return out
