"""The classic Perceptron (Block 1962; Novikoff 1962; Kalyanakrishnan's note) and its direct forms:
Kalyanakrishnan's strict margin, the CS4780 notes' unit ball.

>>> from pla_proof.variants.checking import run_case
>>> from pla_proof.variants.protocol.variant import Order, orthonormal_cases
>>> rec, res = run_case(Classic(), orthonormal_cases([3])[-1], Order("cyclic"))
>>> rec.updates, all(f is None for f in res.values())
(3, True)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, ClassVar

from hypothesis import strategies as st

from ..protocol.variant import Case, Claim, LinearVariant

__all__ = ["Classic", "ClassicStrict", "UnitBall"]


def _num(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


class Classic(LinearVariant):
    """``y w.x <= 0 -> w += y x`` from ``w = 0``; claim ``(R^2, gamma)``, ``k <= R^2/gamma^2``."""

    name: ClassVar[str] = "classic"
    summary: ClassVar[str] = "y w.x <= 0 -> w += y x; (C, g) = (R^2, gamma), k <= R^2/gamma^2"
    source: ClassVar[str] = "Block 1962; Novikoff 1962; Kalyanakrishnan's note"
    classic_dynamics: ClassVar[bool] = True

    def trace_args(self, case: Case) -> list[str] | None:
        if not self.classic_dynamics:
            return None
        return ["--comparator", ",".join(_num(v) for v in case.u)]


class ClassicStrict(Classic):
    """Kalyanakrishnan's Assumption 1, ``y u.x > gamma``: the bound is strict, ``k < R^2/gamma^2``.

    The case draws ``gamma`` strictly below the comparator's margin.
    """

    name: ClassVar[str] = "classic-strict"
    summary: ClassVar[str] = "Kalyanakrishnan's strict margin y u.x > gamma: k < R^2/gamma^2"
    source: ClassVar[str] = "Kalyanakrishnan's note"

    def domain(self, base: Any) -> Any:
        frac = st.builds(Fraction, st.integers(1, 99), st.just(100)).map(lambda f: 1 - f)
        return st.tuples(base, frac).map(
            lambda t: Case(t[0].X, t[0].y, t[0].u, t[0].gamma, {"g": t[0].gamma * t[1]}, t[0].name)
        )

    def claim(self, case: Case) -> Claim:
        return Claim(C=case.radius_squared, g=case.params["g"], uu=case.uu, strict=True)

    def trace_args(self, case: Case) -> list[str] | None:
        args = super().trace_args(case)
        return None if args is None else [*args, "--strict", "--gamma", _num(case.params["g"])]


class UnitBall(Classic):
    """The Cornell CS4780 notes: data rescaled into the unit ball (``|x| <= 1``), so
    ``k <= 1/gamma^2``."""

    name: ClassVar[str] = "unit-ball"
    summary: ClassVar[str] = (
        "the Cornell CS4780 notes: data scaled into the unit ball, (C, g) = (1, gamma), "
        "k <= 1/gamma^2"
    )
    source: ClassVar[str] = "the Cornell CS4780 notes"
    #: every case lies in the unit ball: what the proof of C = 1 assumes
    assumes: ClassVar[tuple[str, ...]] = ("R2 <= 1",)

    def domain(self, base: Any) -> Any:
        return base.map(_into_unit_ball)

    def claim(self, case: Case) -> Claim:
        return Claim(C=Fraction(1), g=case.gamma, uu=case.uu)


def _into_unit_ball(c: Case) -> Case:
    s = Fraction(math.isqrt(math.ceil(c.radius_squared)) + 1)  # s > R: points land inside the ball
    X = tuple(tuple(v / s for v in x) for x in c.X)
    return Case(X, c.y, c.u, c.gamma / s, dict(c.params), c.name)
