"""Bias conventions: augmentation ``x -> (x, c)`` for any ``c > 0`` (Cornell CS4780 and Lin 2023),
the course page's ``(x, -1)`` with ``b <- b - y``, the DSC 255 handout's separate ``b <- b + y``.

With an affine separator ``y (u.x + theta) >= gamma`` the augmented comparator is
``(u, theta/c)``: ``R^2 -> R^2 + c^2`` and ``|u|^2 -> |u|^2 + theta^2/c^2``, so
``k <= (R^2 + c^2)(|u|^2 + theta^2/c^2)/gamma^2`` (docs/facts.md, the ``bias-augment`` row).

>>> from pla_proof.variants.checking import run_case
>>> from pla_proof.variants.protocol.variant import Order
>>> from fractions import Fraction as F
>>> case = Case(((F(2),), (F(-1),)), (1, -1), (F(1),), F(1), {"theta": F(0), "c": F(3)})
>>> rec, res = run_case(BiasAugment(), case, Order("cyclic"))
>>> rec.output["w"], rec.output["b"], all(f is None for f in res.values())
((Fraction(3, 1),), Fraction(0, 1), True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from hypothesis import strategies as st

from ..protocol.cases import biased_cases, small_positive_fractions
from ..protocol.variant import Case, Claim, LinearVariant, Order, Record, hard_cases, same_updates

__all__ = ["BiasAugment", "BiasMinusOne", "BiasSeparate", "BiasVariant", "augmented"]


def _num(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def augmented(case: Case, c: Fraction) -> Case:
    """The case with every point augmented to ``(x, c)`` and comparator ``(u, theta/c)``."""
    theta = case.params["theta"]
    X = tuple((*x, c) for x in case.X)
    u = (*case.u, theta / c)
    return Case(X, case.y, u, case.gamma, dict(case.params), case.name)


class BiasVariant(LinearVariant):
    """Base: a bias convention equivalent to augmenting with the constant :meth:`c`.

    ``run`` trains on the augmented vectors (the convention's ``(w, b)`` is the
    augmented weight vector, split by :meth:`split`); the claim is computed for the
    augmented data, so ``R^2`` includes the bias coordinate.
    """

    order_rules: ClassVar[tuple[str, ...]] = ("cyclic", "first", "maxviol", "random", "choose")
    classic_dynamics: ClassVar[bool] = True

    def domain(self, base: Any) -> Any:
        """Separable data through the origin are affinely separable with ``theta = 0``;
        the augmentation constant ``c`` is drawn."""
        return st.tuples(base, small_positive_fractions()).map(
            lambda t: Case(
                t[0].X,
                t[0].y,
                t[0].u,
                t[0].gamma,
                {**t[0].params, "theta": Fraction(0), "c": t[1]},
                t[0].name,
            )
        )

    def cases(self) -> Any:
        return st.one_of(biased_cases(), self.domain(hard_cases()))

    def examples(self) -> Sequence[Case]:
        F = Fraction
        one = Case(((F(1),),), (1,), (F(1),), F(1), {"theta": F(0), "c": F(1)}, "one-point")
        return [one, *super().examples()]

    def c(self, case: Case) -> Fraction:
        """The augmentation constant."""
        return Fraction(case.params["c"])

    def split(self, w_hat: Sequence[Any], case: Case) -> tuple[tuple[Any, ...], Any]:
        """The convention's own ``(w, b)``: decision ``w.x + b``."""
        return tuple(w_hat[:-1]), w_hat[-1] * self.c(case)

    def run(self, case: Case, order: Order) -> Record:
        rec = super().run(augmented(case, self.c(case)), order)
        w, b = self.split(rec.output["w"], case)
        rec.output.update(w=w, b=b)
        return rec

    def claim(self, case: Case) -> Claim:
        aug = augmented(case, self.c(case))
        return Claim(C=aug.radius_squared, g=aug.gamma, uu=aug.uu)

    def trace_args(self, case: Case) -> list[str] | None:
        if not self.classic_dynamics:
            return None
        aug = augmented(case, self.c(case))
        return [
            "--bias",
            f"augment:{_num(self.c(case))}",
            "--comparator",
            ",".join(_num(v) for v in aug.u),
        ]


class BiasAugment(BiasVariant):
    """``x -> (x, c)`` for a drawn ``c > 0``."""

    name: ClassVar[str] = "bias-augment"
    summary: ClassVar[str] = "x -> (x, c), any c > 0: k <= (R^2 + c^2)(|u|^2 + theta^2/c^2)/gamma^2"
    source: ClassVar[str] = "Cornell CS4780 and Lin 2023; Cristianini & Shawe-Taylor 2000"


class _SameUpdatesAsAugmentOne(BiasVariant):
    """A convention claimed to make exactly the decisions of augmentation with c = 1."""

    extra_properties: ClassVar[dict[str, str]] = {
        "EQ": "same update sequence as augmentation with c = 1 (same data, same order)"
    }

    def run(self, case: Case, order: Order) -> Record:
        rec = super().run(case, order)
        ref = BiasAugment().run(_with_c(case, Fraction(1)), order)
        rec.checks["EQ"] = same_updates(rec, ref, "augment:1's")
        return rec

    def trace_args(self, case: Case) -> list[str] | None:
        if not self.classic_dynamics:
            return None
        aug = augmented(case, self.c(case))
        conv = "minus-one" if self.c(case) < 0 else "separate"
        return ["--bias", conv, "--comparator", ",".join(_num(v) for v in aug.u)]


def _with_c(case: Case, c: Fraction) -> Case:
    return Case(case.X, case.y, case.u, case.gamma, {**case.params, "c": c}, case.name)


class BiasMinusOne(_SameUpdatesAsAugmentOne):
    """The perceptron course page: ``x -> (x, -1)``, weights ``(w, b)``, ``b <- b - y``;
    decision ``w.x - b``."""

    name: ClassVar[str] = "bias-minus-one"
    summary: ClassVar[str] = (
        "the perceptron course page: (x, -1), b <- b - y; same decisions as augment c = 1"
    )
    source: ClassVar[str] = "the perceptron course page"

    def c(self, case: Case) -> Fraction:
        return Fraction(-1)

    def split(self, w_hat: Sequence[Any], case: Case) -> tuple[tuple[Any, ...], Any]:
        # the course page's own form: decision w.x - b, with b the last weight
        return tuple(w_hat[:-1]), w_hat[-1]

    def decision(self, case: Case, output: Mapping[str, Any]) -> list[Any]:
        """The course page's decision ``w.x - b``."""
        w, b = output["w"], output["b"]
        return [sum((a * v for a, v in zip(w, x, strict=True)), Fraction(0)) - b for x in case.X]


class BiasSeparate(_SameUpdatesAsAugmentOne):
    """The DSC 255 handout's convention with the classic trigger: ``y (w.x + b) <= 0 -> w +=
    y x, b += y``."""

    name: ClassVar[str] = "bias-separate"
    summary: ClassVar[str] = (
        "the DSC 255 handout: separate b <- b + y; same decisions as augment c = 1"
    )
    source: ClassVar[str] = "the DSC 255 handout"

    def c(self, case: Case) -> Fraction:
        return Fraction(1)
