"""Declared rules of the linear template whose hooks give integers and the claim's
symbols themselves: read without SymPy (``read_plain``) and through SymPy
(``read_rule``), for the tests that compare the two readings and the two proofs."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pla_proof.variants import Claim, LinearVariant


def plain_variant(
    eta: Any = 1, tau: Any = 0, strict: bool = False, C: Any = "R2", g: Any = "gamma",
    end: str | None = "SEP",
) -> LinearVariant:  # fmt: skip
    """A declared rule; ``C`` and ``g`` name a symbol of the case or are integers."""

    def pick(case: Any, v: Any) -> Any:
        return {"R2": case.radius_squared, "gamma": case.gamma, "uu": case.uu}.get(str(v), v)

    class Plain(LinearVariant):
        name = "plain"

        def eta(self, case: Any) -> Any:
            return eta

        def tau(self, case: Any) -> Any:
            return tau

        def strict_trigger(self, case: Any) -> bool:
            return strict

        def claim(self, case: Any) -> Claim:
            return Claim(C=pick(case, C), g=pick(case, g), uu=case.uu, end=end)

    return Plain()


PLAIN_GRID: list[dict[str, Any]] = [
    dict(eta=1),
    dict(eta=2, tau=1, strict=True),
    dict(eta=Fraction(3), tau=-2, C=5, g=1, end="SEP0"),
    dict(eta=4, tau=Fraction(0), C="uu", g="R2", end=None),
    dict(C=1),  # a wrong claim: G1 fails for R^2 > 1
    dict(C=0, g=2, strict=True),
    dict(C=-1, g="gamma"),
    dict(eta=3, C="gamma", g="uu"),
]
