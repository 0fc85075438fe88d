"""Linear rules: the additive variants the compiled loop runs.

Every built-in linear variant -- the classic algorithm, a learning rate, the margin
perceptron, normalised updates, a nonzero start, the DSC 255 handout's sign(0) = +1 listing and
the bias conventions (which change the data, not the rule) -- is one
:class:`LinearRule`: from ``w0``, while some point has ``y_i w.x_i <= tau`` (``< tau``
where ``strict``), pick one and set ``w <- w + eta a_i y_i x_i``.

>>> CLASSIC.describe()
'y w.x <= 0 -> w <- w + y x, from w = 0'
>>> LinearRule(eta=Fraction(1, 2), tau=Fraction(1)).describe()
'y w.x <= 1 -> w <- w + 1/2 y x, from w = 0'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import InputError
from ..numbers import to_fraction

__all__ = ["CLASSIC", "LinearRule", "Scales"]


@dataclass(frozen=True)
class LinearRule:
    """``y_i w.x_i <= tau -> w <- w + eta a_i y_i x_i`` from ``w0`` (0 when ``None``).

    ``factors`` are the per-point ``a_i > 0`` (``None``: all 1); ``strict`` is one flag or
    one per point (a strict trigger ``y w.x < tau``, e.g. the DSC 255 handout's ``predict`` with
    sign(0) = +1 is strict on the positive points).
    """

    eta: Fraction = Fraction(1)
    tau: Fraction = Fraction(0)
    w0: tuple[Fraction, ...] | None = None
    factors: tuple[Fraction, ...] | None = None
    strict: bool | tuple[bool, ...] = False

    def __post_init__(self) -> None:
        if self.eta <= 0:
            raise InputError(f"the learning rate must be > 0, got {self.eta}")
        if self.factors is not None and any(a <= 0 for a in self.factors):
            raise InputError("every per-point factor must be > 0")

    def strict_flags(self, n: int) -> list[bool]:
        """The strictness of each point's trigger."""
        if isinstance(self.strict, bool):
            return [self.strict] * n
        if len(self.strict) != n:
            raise InputError(f"strict flags for {len(self.strict)} points, the data have {n}")
        return list(self.strict)

    def factor(self, i: int) -> Fraction:
        """``eta a_i``: the multiple of ``y_i x_i`` added on an update on point ``i``."""
        return self.eta if self.factors is None else self.eta * self.factors[i]

    def start(self, d: int) -> tuple[Fraction, ...]:
        if self.w0 is None:
            return (Fraction(0),) * d
        if len(self.w0) != d:
            raise InputError(f"the start w0 has {len(self.w0)} entries, the data have {d}")
        return self.w0

    def describe(self) -> str:
        eta = "" if self.eta == 1 else f"{_num(self.eta)} "
        a = "" if self.factors is None else "a_i "
        rel = "<=" if self.strict is False else "<"
        start = "w = 0" if self.w0 is None or not any(self.w0) else "w0"
        return f"y w.x {rel} {_num(self.tau)} -> w <- w + {eta}{a}y x, from {start}"

    @staticmethod
    def make(
        *,
        eta: Any = 1,
        tau: Any = 0,
        w0: Sequence[Any] | None = None,
        factors: Sequence[Any] | None = None,
        strict: bool | Sequence[bool] = False,
    ) -> LinearRule:
        """A rule from any exact numbers (converted with ``to_fraction``)."""
        return LinearRule(
            to_fraction(eta, what="eta"),
            to_fraction(tau, what="tau"),
            None if w0 is None else tuple(to_fraction(v, what="w0 entry") for v in w0),
            None if factors is None else tuple(to_fraction(v, what="factor") for v in factors),
            strict if isinstance(strict, bool) else tuple(bool(v) for v in strict),
        )


CLASSIC = LinearRule()


def _num(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


@dataclass(frozen=True)
class Scales:
    """The exact integer world of a run: points ``x = Z/s``, weights ``w = V/S``.

    ``mult[i] = eta a_i S/s`` is an integer, so an update adds ``mult[i] y_i Z_i`` to ``V``;
    the trigger ``y w.x <= tau`` reads ``y V.Z_i <= T`` with ``T = tau S s``.

    >>> sc = Scales.of(LinearRule(eta=Fraction(1, 3)), s=2, n=2, d=1)
    >>> sc.S, sc.mult, sc.T
    (6, (1, 1), 0)
    """

    s: int
    S: int
    mult: tuple[int, ...]
    V0: tuple[int, ...]
    T: int
    #: the multiplier of every point when the rule has no per-point factors
    uniform: int | None = None

    @property
    def mult_max(self) -> int:
        return abs(self.uniform) if self.uniform is not None else max(abs(m) for m in self.mult)

    @staticmethod
    def of(rule: LinearRule, *, s: int, n: int, d: int) -> Scales:
        S = 1
        for i in range(n if rule.factors is not None else 1):
            f = rule.factor(i)
            q = f.denominator * s
            S = math.lcm(S, q // math.gcd(q, f.numerator))
        for v in rule.start(d):
            S = math.lcm(S, v.denominator)
        tq = rule.tau.denominator
        S = math.lcm(S, tq // math.gcd(tq, s))
        mult = tuple(
            int(rule.factor(i) * S / s) for i in range(n if rule.factors is not None else 1)
        )
        if rule.factors is None:
            mult = mult * n
        V0 = tuple(int(v * S) for v in rule.start(d))
        T = rule.tau * S * s
        assert T.denominator == 1
        return Scales(s, S, mult, V0, int(T), mult[0] if rule.factors is None else None)
