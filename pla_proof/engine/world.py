"""A run's world: its data as the compiled loop sees them, and the exact integers behind.

:func:`pla_proof.engine.drive.prepare` makes one for a run; the driver answers the loop
from it, and the measuring code (:mod:`pla_proof.engine.measure`) rebuilds the run's
vectors from it.

>>> from pla_proof.engine.drive import prepare
>>> from pla_proof.data import load
>>> world = prepare(load("orthonormal:2"))
>>> world.mode, world.row(1)
('exact', (0, 1))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from ..data import Dataset
from .rule import LinearRule, Scales

__all__ = ["World", "approx"]


def approx(v: Fraction) -> tuple[float, float]:
    """``(f, e)``: ``v`` as the loop sees it, a float64 ``f``, and a bound ``e`` with
    ``|f - v| <= e`` (``f`` may be +-inf, then ``e`` is inf).

    >>> approx(Fraction(1, 2)), approx(Fraction(1, 3))[1] > 0
    ((0.5, 0.0), True)
    >>> approx(Fraction(-3)), approx(Fraction(2**53 + 1))[1] > 0  # 2^53 + 1: no float64
    ((-3.0, 0.0), True)
    """
    if type(v) is not Fraction:
        v = Fraction(v)
    num, den = v.numerator, v.denominator
    if den == 1 and -(2**53) <= num <= 2**53:  # an integer float64 holds exactly
        return float(num), 0.0
    try:
        f = float(v)
    except OverflowError:
        return (math.inf if v > 0 else -math.inf), math.inf
    if f.as_integer_ratio() == (num, den):  # (both in lowest terms: f == v exactly)
        return f, 0.0
    return f, abs(f) * 2.0**-53 + 5e-324


@dataclass
class World:
    """The run's data as the loop sees them, and the exact integers behind them.

    ``kernel_mode`` is GRID (points ``Z``, weights ``V`` as int64), FLOAT_EXACT (float64
    approximations of the true points and weights; exact integers kept here) or FLOAT
    (the float algorithm on the float data).
    """

    data: Dataset
    rule: LinearRule
    mode: str
    kernel_mode: int
    scales: Scales
    X: np.ndarray  # as the loop sees the points
    xrel: float  # relative error of X against the exact points (0: exact)
    _V: list[int] | None = None  # exact weights (FLOAT_EXACT), synchronised lazily
    _synced: int = 0

    # --- exact integer views --------------------------------------------------------------

    def row(self, i: int) -> tuple[int, ...]:
        """Point ``i`` as exact integers (scale ``scales.s``; exact modes)."""
        return self.data.integer_row(i)

    @cached_property
    def float_data(self) -> Dataset:
        """The data trained on as a data set: in float mode the data rounded to float64."""
        data = self.data
        if (
            self.mode == "exact"
            or data.kind == "float"
            or (data.kind == "grid" and data.scale == 1)
        ):
            return data
        return Dataset.from_floats(self.X, data.labels, name=data.name, bias=data.bias, copy=False)

    @cached_property
    def float_factors(self) -> tuple[np.ndarray, float]:
        """``(cf, rel)``: each point's ``eta a_i`` rounded to float64, and a bound on the
        relative error of that rounding (0 when every factor is exact)."""
        rule, n = self.rule, self.data.n
        if rule.factors is None:
            f, e = approx(rule.eta)
            return np.full(n, f), (2.0**-52 if e else 0.0)
        cf = np.empty(n)
        rel = 0.0
        for i in range(n):
            f, e = approx(rule.factor(i))
            cf[i] = f
            if e:
                rel = 2.0**-52
        return cf, rel

    @cached_property
    def row_norms(self) -> tuple[np.ndarray, np.ndarray]:
        """Upper bounds on each row's ``|x|_1`` and its ``max |x_c|``, as the loop sees it."""
        if self.X is self.data.values or self.X is self.data.compact:
            return self.data.row_l1, self.data.row_max
        d = self.X.shape[1]
        with np.errstate(over="ignore"):
            l1 = np.abs(self.X).sum(axis=1) * (1.0 + (d + 2) * 2.0**-52)
        return l1, np.abs(self.X).max(axis=1)

    def handed_over(self, V: list[int], k: int) -> None:
        """The loop's exact weights after ``k`` updates (float data, kept in limbs)."""
        self._V, self._synced = list(V), k

    def weights_after(self, k: int) -> list[int] | None:
        """The exact weights after ``k`` updates if they are at hand (handed over by the
        loop, or synchronised by :meth:`exact_weights`), else None."""
        if self._V is not None and self._synced == k:
            return list(self._V)
        return None

    def exact_weights(self, choices: np.ndarray, k: int) -> list[int]:
        """``V`` after the first ``k`` updates (exact, at scale ``scales.S``)."""
        sc = self.scales
        if self._V is None or self._synced > k:
            self._V = list(sc.V0)
            self._synced = 0
        V = self._V
        y = self.data.labels
        for j in choices[self._synced : k]:
            jj = int(j)
            m = sc.mult[jj] * int(y[jj])
            for c, z in enumerate(self.row(jj)):
                if z:
                    V[c] += m * z
        self._synced = k
        return list(V)

    def exact_margin(self, V: list[int], i: int) -> int:
        """``y_i V.Z_i - T``: the sign of ``y_i w.x_i - tau`` (scaled by ``S s > 0``)."""
        return int(self.data.labels[i]) * sum(
            a * b for a, b in zip(V, self.row(i), strict=True)
        ) - (self.scales.T)
