"""The pocket algorithm with ratchet (Gallant 1990; Muselli 1997) on data that need
not be separable: PLA updates on random picks; the pocket keeps the weights with
the longest run of correct picks, and (ratchet) only replaces them by weights with
strictly fewer training errors.  Claims: every PLA step grows ``|w|^2`` by at most
``R^2`` (G1; no margin exists to claim G2), and the pocket's training errors never
increase (``RATCHET``).

>>> from pla_proof.variants.harness import run_case
>>> from pla_proof.variants.protocol import Order
>>> rec, res = run_case(Pocket(), Pocket().examples()[0], Order("random", 1))
>>> rec.output["pocket_errors"][-1] <= 2, all(f is None for f in res.values())
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from ..numbers import dot, norm2
from .cases import labelled_points
from .protocol import Case, Claim, Measure, Order, Record, Variant

__all__ = ["Pocket"]


def errors(w: Sequence[Any], case: Case) -> int:
    """Training errors of ``w`` (a point with ``y w.x <= 0`` counts as an error)."""
    return sum(1 for x, yi in zip(case.X, case.y, strict=True) if yi * dot(w, x) <= 0)


class Pocket(Variant):
    """Pocket with ratchet; ``iterations_per_point`` random picks per point."""

    name: ClassVar[str] = "pocket"
    summary: ClassVar[str] = (
        "pocket with ratchet on any data: G1 with C = R^2; pocket errors never increase"
    )
    source: ClassVar[str] = "Gallant 1990; Muselli 1997; seed 004"
    order_rules: ClassVar[tuple[str, ...]] = ("random",)
    extra_properties: ClassVar[dict[str, str]] = {
        "RATCHET": "the pocket's training errors never increase"
    }
    ratchet: ClassVar[bool] = True
    iterations_per_point: ClassVar[int] = 30

    def cases(self) -> Any:
        return labelled_points()

    def examples(self) -> Sequence[Case]:
        F = Fraction
        X = ((F(0), F(0), F(1)), (F(1), F(1), F(1)), (F(1), F(0), F(1)), (F(0), F(1), F(1)))
        return [Case(X, (-1, -1, 1, 1), (F(0),) * 3, F(0), {}, "xor")]

    def claim(self, case: Case) -> Claim:
        return Claim(C=case.radius_squared, end=None)

    def run(self, case: Case, order: Order) -> Record:
        rng = random.Random(order.seed)
        rec = Record()
        w: list[Any] = [Fraction(0)] * case.d
        pocket, pocket_run, pocket_err = list(w), 0, errors(w, case)
        history = [pocket_err]
        run_len, k = 0, 0
        nn = norm2(w)
        for _ in range(self.iterations_per_point * case.n):
            j = rng.randrange(case.n)
            x, yj = case.X[j], case.y[j]
            t = yj * dot(w, x)
            if t > 0:
                run_len += 1
                if run_len > pocket_run:
                    e = errors(w, case)
                    if not self.ratchet or e < pocket_err:
                        pocket, pocket_run, pocket_err = list(w), run_len, e
                        history.append(e)
            else:
                w = [a + yj * v for a, v in zip(w, x, strict=True)]
                k += 1
                nn1 = norm2(w)
                stop = rec.add(Measure(k, j, t, Fraction(0), Fraction(0), nn, nn1))
                nn = nn1
                if stop:
                    break
                run_len = 0
        bad = next((i for i in range(1, len(history)) if history[i] > history[i - 1]), None)
        rec.checks["RATCHET"] = (
            None
            if bad is None
            else f"pocket errors went {history[bad - 1]} -> {history[bad]} (history {history})"
        )
        rec.output.update(pocket=tuple(pocket), pocket_errors=history)
        rec.end["m"] = min(yi * dot(pocket, x) for x, yi in zip(case.X, case.y, strict=True))
        return rec
