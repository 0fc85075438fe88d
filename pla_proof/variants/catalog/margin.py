"""The margin perceptron (Duda & Hart; Krauth & Mezard 1987): ``y w.x <= tau -> w += eta y x``.

Growth is ``2 eta y w.x + eta^2 |x|^2 <= 2 eta tau + eta^2 R^2``, so
``(C, g) = (eta^2 R^2 + 2 eta tau, eta gamma)`` and ``k <= (R^2 + 2 tau/eta)/gamma^2``.

>>> from pla_proof.variants.checking import run_case
>>> from pla_proof.variants.protocol.variant import Order
>>> F = Fraction
>>> case = Case(((F(1),),), (1,), (F(1),), F(1), {"tau": F(1), "eta": F(1)})
>>> rec, res = run_case(Margin(), case, Order("cyclic"))
>>> rec.updates, rec.output["w"], all(f is None for f in res.values())
(2, (Fraction(2, 1),), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from hypothesis import strategies as st

from ..protocol.cases import small_positive_fractions
from ..protocol.variant import Case, Claim, LinearVariant, orthonormal_cases

__all__ = ["Margin"]


class Margin(LinearVariant):
    """Update while the margin is at most ``tau >= 0`` (a drawn parameter)."""

    name: ClassVar[str] = "margin"
    summary: ClassVar[str] = (
        "y w.x <= tau -> w += eta y x: (C, g) = (eta^2 R^2 + 2 eta tau, eta gamma)"
    )
    source: ClassVar[str] = "Duda & Hart; Krauth & Mezard 1987"

    def domain(self, base: Any) -> Any:
        """``tau`` a drawn multiple of ``R^2`` (0 to 6: the bound stays scale-free)."""
        params = st.tuples(
            st.sampled_from([0, 1, 2, 3, 6]).map(Fraction).map(lambda q: q / 4),
            small_positive_fractions(),
        )
        return st.tuples(base, params).map(
            lambda t: Case(
                t[0].X,
                t[0].y,
                t[0].u,
                t[0].gamma,
                {"tau": t[1][0] * t[0].radius_squared * t[1][1], "eta": t[1][1]},
                t[0].name,
            )
        )

    def examples(self) -> Sequence[Case]:
        return [*super().examples()] + [
            Case(c.X, c.y, c.u, c.gamma, {"tau": Fraction(2), "eta": Fraction(1)}, c.name)
            for c in orthonormal_cases()
        ]

    #: what the proof of the claim may assume of the parameters (``check`` proves it)
    parameters: ClassVar[dict[str, str]] = {"tau": ">= 0", "eta": "> 0"}

    def tau(self, case: Case) -> Any:
        return case.params["tau"]

    def eta(self, case: Case) -> Any:
        return case.params["eta"]

    def claim(self, case: Case) -> Claim:
        tau, eta = case.params["tau"], case.params["eta"]
        C = eta * eta * case.radius_squared + 2 * eta * tau
        return Claim(C=C, g=eta * case.gamma, uu=case.uu)
