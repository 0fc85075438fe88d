"""Multiclass perceptron, one weight vector per class (Collins 2002; Crammer & Singer
2003; seed 000): if ``max_{r != y} w_r.x >= w_y.x`` then ``w_y += x`` and ``w_yhat -= x``
(``yhat`` the first best wrong class).

In the Frobenius inner product on ``W = (w_1, ..., w_m)`` the update is
``z = (e_y - e_yhat) x``: ``|z|^2 = 2|x|^2`` and the trigger gives growth ``<= 2 R^2``;
with ``U`` of multiclass margin ``gamma``, ``U.z >= gamma``.  So ``(C, g) = (2 R^2, gamma)``
and ``k <= 2 R^2 |U|_F^2/gamma^2`` (``2R^2/gamma^2`` for ``|U|_F = 1``).

>>> from pla_proof.variants.harness import run_case
>>> from pla_proof.variants.protocol import Order
>>> F = Fraction
>>> case = Case(((F(1),), (F(-1),)), (0, 1), (F(1), F(-1)), F(2), {"classes": 2})
>>> rec, res = run_case(Multiclass(), case, Order("cyclic"))
>>> rec.output["W"], all(f is None for f in res.values())
(((Fraction(1, 1),), (Fraction(-1, 1),)), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from ..numbers import dot, norm2
from .cases import multiclass_cases
from .protocol import Case, Claim, Measure, Order, Record, Selector, Variant, bound_floor

__all__ = ["Multiclass"]


class Multiclass(Variant):
    """One weight vector per class; claim ``(2 R^2, gamma)``."""

    name: ClassVar[str] = "multiclass"
    summary: ClassVar[str] = (
        "one vector per class: (C, g) = (2R^2, gamma), k <= 2R^2/gamma^2 for |U|_F = 1"
    )
    source: ClassVar[str] = "Collins 2002; Crammer & Singer 2003; seed 000"
    cap: ClassVar[int] = 5_000
    #: the growth constant as a multiple of R^2 (a seeded bug claims 1)
    growth_factor: ClassVar[int] = 2

    def cases(self) -> Any:
        return multiclass_cases()

    def examples(self) -> Sequence[Case]:
        F = Fraction
        # three classes on the axes: x = e_1 -> class 0, e_2 -> 1, -e_1 - e_2 -> 2
        X = ((F(1), F(0)), (F(0), F(1)), (F(-1), F(-1)))
        U = (F(1), F(0), F(0), F(1), F(-1), F(-1))
        return [Case(X, (0, 1, 2), U, F(1), {"classes": 3}, "three-classes")]

    def claim(self, case: Case) -> Claim:
        return Claim(C=self.growth_factor * case.radius_squared, g=case.gamma, uu=case.uu)

    @staticmethod
    def _rows(flat: Sequence[Any], m: int) -> list[list[Any]]:
        d = len(flat) // m
        return [list(flat[r * d : (r + 1) * d]) for r in range(m)]

    def run(self, case: Case, order: Order) -> Record:
        m = int(case.params["classes"])
        d = case.d
        U = self._rows(case.u, m)
        W: list[list[Any]] = [[Fraction(0)] * d for _ in range(m)]
        rec = Record()
        sel = Selector(order, case.n)
        pair = self.claim(case).bound_pair()
        b = None if pair is None else bound_floor(pair) + 1
        conclusive = b is not None and b <= self.cap
        budget = b if b is not None and conclusive else self.cap

        def pu_of(W: list[list[Any]]) -> Any:
            return sum((dot(ur, wr) for ur, wr in zip(U, W, strict=True)), Fraction(0))

        def nn_of(W: list[list[Any]]) -> Any:
            return sum((norm2(wr) for wr in W), Fraction(0))

        def best_wrong(W: list[list[Any]], x: Sequence[Any], label: int) -> tuple[Any, int]:
            s = [dot(wr, x) for wr in W]
            r = max((i for i in range(m) if i != label), key=lambda i: (s[i], -i))
            return s[label] - s[r], r

        pu, nn = pu_of(W), nn_of(W)
        k = 0
        while True:
            info = [best_wrong(W, x, yi) for x, yi in zip(case.X, case.y, strict=True)]
            scores = [s for s, _ in info]
            viol = [i for i in range(case.n) if scores[i] <= 0]
            if not viol:
                break
            if k >= budget:
                rec.complete = conclusive
                break
            j = sel.pick(viol, scores, k + 1)
            x, yj, r = case.X[j], case.y[j], info[j][1]
            W = [list(row) for row in W]
            W[yj] = [a + v for a, v in zip(W[yj], x, strict=True)]
            W[r] = [a - v for a, v in zip(W[r], x, strict=True)]
            k += 1
            pu1, nn1 = pu_of(W), nn_of(W)
            pu0, nn0, pu, nn = pu, nn, pu1, nn1
            if rec.add(Measure(k, j, scores[j], pu0, pu1, nn0, nn1)):
                break
        margins = [best_wrong(W, x, yi)[0] for x, yi in zip(case.X, case.y, strict=True)]
        low = min(margins)
        rec.end.update(m=low, j=margins.index(low))
        rec.output["W"] = tuple(tuple(row) for row in W)
        return rec
