"""Learning rate ``eta > 0`` from ``w = 0``: ``w += eta y x``; claim ``(eta^2 R^2, eta gamma)``,
and the same update sequence as ``eta = 1`` (the weights scale by ``eta``).

>>> from pla_proof.variants.checking import run_case
>>> from pla_proof.variants.protocol.variant import Order, orthonormal_cases
>>> from fractions import Fraction
>>> c = orthonormal_cases([2])[0]
>>> case = Case(c.X, c.y, c.u, c.gamma, {"eta": Fraction(1, 3)})
>>> rec, res = run_case(LearningRate(), case, Order("cyclic"))
>>> rec.output["w"], res["EQ"]
((Fraction(1, 3), Fraction(-1, 3)), None)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from hypothesis import strategies as st

from ..protocol.cases import small_positive_fractions
from ..protocol.variant import (
    Case,
    Claim,
    LinearVariant,
    Order,
    Record,
    orthonormal_cases,
    same_updates,
)
from .classic import Classic

__all__ = ["LearningRate"]


def _with(base: Any, params_strategy: Any) -> Any:
    return st.tuples(base, params_strategy).map(
        lambda t: Case(t[0].X, t[0].y, t[0].u, t[0].gamma, {**t[0].params, **t[1]}, t[0].name)
    )


class LearningRate(LinearVariant):
    """``y w.x <= 0 -> w += eta y x``."""

    name: ClassVar[str] = "learning-rate"
    summary: ClassVar[str] = (
        "w += eta y x: (C, g) = (eta^2 R^2, eta gamma); same updates as eta = 1"
    )
    source: ClassVar[str] = "standard"
    extra_properties: ClassVar[dict[str, str]] = {
        "EQ": "same update sequence as the classic algorithm (eta = 1)"
    }

    def domain(self, base: Any) -> Any:
        return _with(base, st.fixed_dictionaries({"eta": small_positive_fractions()}))

    def examples(self) -> Sequence[Case]:
        return [*super().examples()] + [
            Case(c.X, c.y, c.u, c.gamma, {"eta": Fraction(5, 2)}, c.name)
            for c in orthonormal_cases()
        ]

    #: what the proof of the claim may assume of the parameter (``check`` proves it)
    parameters: ClassVar[dict[str, str]] = {"eta": "> 0"}

    def eta(self, case: Case) -> Any:
        return case.params["eta"]

    def after_run(self, case: Case, order: Order, record: Record) -> None:
        ref = Classic().run(case, order)
        record.checks["EQ"] = same_updates(record, ref, "classic")

    def claim(self, case: Case) -> Claim:
        eta = case.params["eta"]
        return Claim(C=eta * eta * case.radius_squared, g=eta * case.gamma, uu=case.uu)
