"""The non-separable mistake bound and the running sandwich, checked exactly on data.

*Freund and Schapire (1999), Theorem 2*: for any u and target margin ``g > 0``
(homogeneous: ``y_i u.x_i >= g`` is the hope), with deficiencies
``d_i = max(0, g - y_i u.x_i)`` over the presented sequence and ``D^2 = sum d_i^2``,
the online Perceptron makes at most ``((R|u| + D)/g)^2`` mistakes (for unit u this is
``((R + D)/gamma)^2``).  The comparison with a square root is decided exactly:
``M g^2 <= R^2|u|^2 + D^2 + 2 sqrt(R^2|u|^2 D^2)``.

*Running sandwich* (Lin's slides): for a separating u with ``g = min_i y_i u.x_i``,
after k updates ``k g <= u.w_k <= |u||w_k| <= |u| sqrt(k) R``, checked squared.

>>> mistake_bound_holds(8, 2, 1, 1, 2), mistake_bound_holds(9, 2, 1, 1, 2)
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..data import Dataset
from ..errors import InputError
from ..numbers import dot, norm2, to_fraction

__all__ = [
    "MistakeBound",
    "SandwichRow",
    "freund_schapire",
    "mistake_bound_holds",
    "one_pass",
    "running_sandwich",
]


def mistake_bound_holds(
    mistakes: int,
    radius_squared: Fraction | int,
    uu: Fraction | int,
    margin: Fraction | int,
    deficiency_squared: Fraction | int,
) -> bool:
    """Exactly decide ``mistakes <= ((sqrt(R2 uu) + sqrt(D2)) / margin)^2``.

    Moving the rational part left: ``L = M g^2 - R2 uu - D2 <= 2 sqrt(R2 uu D2)``,
    true when ``L <= 0`` and otherwise equivalent to ``L^2 <= 4 R2 uu D2``.
    """
    g = Fraction(margin)
    if g <= 0:
        raise InputError(f"the target margin must be > 0, got {g}")
    a = Fraction(radius_squared) * Fraction(uu)
    left = mistakes * g * g - a - Fraction(deficiency_squared)
    return left <= 0 or left * left <= 4 * a * Fraction(deficiency_squared)


@dataclass(frozen=True)
class MistakeBound:
    """One online pass measured against Freund and Schapire's bound (homogeneous form)."""

    mistakes: int
    margin: Fraction
    uu: Fraction
    radius_squared: Fraction
    deficiency_squared: Fraction

    @property
    def holds(self) -> bool:
        return mistake_bound_holds(
            self.mistakes, self.radius_squared, self.uu, self.margin, self.deficiency_squared
        )

    @property
    def bound_float(self) -> float:
        """((R|u| + D)/g)^2, rounded (for display; the check itself is exact)."""
        r = math.sqrt(self.radius_squared * self.uu)
        return ((r + math.sqrt(self.deficiency_squared)) / float(self.margin)) ** 2


def one_pass(
    data: Dataset, order: Sequence[int] | None = None
) -> tuple[int, tuple[Fraction, ...], list[int]]:
    """The online Perceptron over ``order`` (default: each point once, in order):
    ``(mistakes, final w, indices of the mistakes)``, exact."""
    seq = range(data.n) if order is None else order
    w = [Fraction(0)] * data.d
    made: list[int] = []
    for i in seq:
        if not 0 <= i < data.n:
            raise InputError(f"order index {i} out of range 0..{data.n - 1}")
        x, yi = data.X[i], data.y[i]
        if yi * dot(w, x) <= 0:
            w = [a + yi * b for a, b in zip(w, x, strict=True)]
            made.append(i)
    return len(made), tuple(w), made


def freund_schapire(
    data: Dataset, u: Sequence[Any], margin: Any, order: Sequence[int] | None = None
) -> MistakeBound:
    """Run one online pass and pair its mistakes with the bound for ``(u, margin)``.

    >>> from pla_proof.data import load
    >>> fs = freund_schapire(load("xor"), [1, 1, -1], 1)
    >>> fs.mistakes, fs.deficiency_squared, fs.holds
    (3, Fraction(6, 1), True)
    """
    uf = tuple(to_fraction(v, what=f"u entry {i + 1}") for i, v in enumerate(u))
    if len(uf) != data.d:
        raise InputError(f"u has {len(uf)} entries but the data have {data.d} features")
    if all(v == 0 for v in uf):
        raise InputError("u is the zero vector")
    g = to_fraction(margin, what="margin")
    if g <= 0:
        raise InputError(f"the target margin must be > 0, got {g}")
    seq = list(range(data.n)) if order is None else list(order)
    mistakes, _, _ = one_pass(data, seq)
    d2 = sum((max(Fraction(0), g - data.y[i] * dot(uf, data.X[i])) ** 2 for i in seq), Fraction(0))
    r2 = max(norm2(data.X[i]) for i in seq) if seq else Fraction(0)
    return MistakeBound(mistakes, g, norm2(uf) + Fraction(0), Fraction(r2), d2)


@dataclass(frozen=True)
class SandwichRow:
    """``k g <= u.w_k <= |u||w_k| <= |u| sqrt(k) R`` at update k, in squared exact form."""

    k: int
    kg: Fraction
    uw: Fraction
    uu: Fraction
    ww: Fraction
    kR2: Fraction

    @property
    def lower(self) -> bool:
        return self.kg <= self.uw

    @property
    def cauchy_schwarz(self) -> bool:
        return self.uw <= 0 or self.uw * self.uw <= self.uu * self.ww

    @property
    def upper(self) -> bool:
        return self.ww <= self.kR2

    @property
    def holds(self) -> bool:
        return self.lower and self.cauchy_schwarz and self.upper


def running_sandwich(data: Dataset, u: Sequence[Any], choices: Sequence[int]) -> list[SandwichRow]:
    """Replay the updates ``choices`` (0-based point indices) and measure the sandwich.

    >>> from pla_proof.data import load
    >>> rows = running_sandwich(load("orthonormal:2"), [1, -1], [0, 1])
    >>> [(int(r.kg), int(r.uw), int(r.ww), int(r.kR2), r.holds) for r in rows]
    [(1, 1, 1, 1, True), (2, 2, 2, 2, True)]
    """
    uf = tuple(to_fraction(v, what=f"u entry {i + 1}") for i, v in enumerate(u))
    if len(uf) != data.d:
        raise InputError(f"u has {len(uf)} entries but the data have {data.d} features")
    g = min(yi * dot(uf, x) for x, yi in zip(data.X, data.y, strict=True))
    if g <= 0:
        raise InputError(f"u does not separate the data (min_i y_i u.x_i = {g})")
    r2 = data.radius_squared
    uu = norm2(uf) + Fraction(0)
    w = [Fraction(0)] * data.d
    rows = []
    for k, j in enumerate(choices, start=1):
        if not 0 <= j < data.n:
            raise InputError(f"choice {j} out of range 0..{data.n - 1}")
        w = [a + data.y[j] * b for a, b in zip(w, data.X[j], strict=True)]
        rows.append(
            SandwichRow(k, k * g, dot(uf, w) + Fraction(0), uu, norm2(w) + Fraction(0), k * r2)
        )
    return rows
