"""The DSC 255 handout's Python listing, as written: passes over a random permutation; predict
``1 if w.x + b >= 0 else -1`` (sign(0) = +1); on a wrong prediction ``w += y x``,
``b += y``; stop after a pass without updates.

Its updates still have ``y (w.x + b) <= 0`` (a positive point is updated only when
``w.x + b < 0``), so the generic lemma holds with the augmented ``(R^2 + 1, gamma)``.
Its end condition is weaker than the theorem's: every point is *predicted*
correctly with sign(0) = +1 (``SEP0``), which allows ``w.x + b = 0`` on positive
points -- e.g. ``w = 0, b = 0`` when every label is +1 (strict ``SEP`` fails;
``bug:seed004-strict`` shows it).

>>> from pla_proof.variants.checking import run_case
>>> from pla_proof.variants.protocol.variant import Order
>>> F = Fraction
>>> case = Case(((F(1),), (F(2),)), (1, 1), (F(1),), F(1), {"theta": F(0), "c": F(1)})
>>> rec, res = run_case(Seed004Listing(), case, Order("cyclic"))
>>> rec.output["w"], rec.output["b"], res["SEP0"]
((Fraction(0, 1),), Fraction(0, 1), None)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from hypothesis import strategies as st

from ...numbers import dot
from ..protocol.cases import biased_cases
from ..protocol.variant import Case, Claim, Order, PassVariant, Record, hard_cases
from .bias import augmented

__all__ = ["Seed004Listing"]


def predict(w: Sequence[Any], x: Sequence[Any]) -> int:
    """The DSC 255 handout's ``predict`` on augmented vectors: ``1 if w.x + b >= 0 else -1``."""
    return 1 if dot(w, x) >= 0 else -1


class Seed004Listing(PassVariant):
    """Listing 2 of the DSC 255 handout with listing 1's predict."""

    name: ClassVar[str] = "seed004-listing"
    summary: ClassVar[str] = (
        "the DSC 255 handout's listing: sign(0) = +1; stops at a w that predicts every label (SEP0)"
    )
    source: ClassVar[str] = "the DSC 255 handout, listings 1-2"
    max_epochs: ClassVar[int | None] = 1000
    end_claim: ClassVar[str] = "SEP0"

    def domain(self, base: Any) -> Any:
        return base.map(
            lambda c: Case(c.X, c.y, c.u, c.gamma, {"theta": Fraction(0), "c": Fraction(1)}, c.name)
        )

    def cases(self) -> Any:
        return st.one_of(biased_cases(), self.domain(hard_cases()))

    def examples(self) -> Sequence[Case]:
        F = Fraction
        one = Case(((F(1),),), (1,), (F(1),), F(1), {"theta": F(0), "c": F(1)}, "one-positive")
        return [one, *super().examples()]

    def strict_trigger(self, case: Case) -> tuple[bool, ...]:
        # predict(w, x) != y: for y = +1 that is w.x < 0 (strict), for y = -1 w.x >= 0
        return tuple(yi > 0 for yi in case.y)

    def run(self, case: Case, order: Order) -> Record:
        aug = augmented(case, Fraction(1))
        rec = super().run(aug, order)
        if rec.status == "epochs_exhausted":
            # the listing's own cap of 1000 epochs ended the run (data that need more
            # epochs than that): its claim is about the runs it finishes -- inconclusive
            rec.complete = False
        w_hat = rec.output["w"]
        rec.output.update(w=tuple(w_hat[:-1]), b=w_hat[-1])
        return rec

    def claim(self, case: Case) -> Claim:
        aug = augmented(case, Fraction(1))
        return Claim(C=aug.radius_squared, g=aug.gamma, uu=aug.uu, end=self.end_claim)
