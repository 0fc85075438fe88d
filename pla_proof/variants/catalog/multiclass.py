"""Multiclass perceptron, one weight vector per class (Collins 2002; Crammer & Singer
2003; Kalyanakrishnan's note): if ``max_{r != y} w_r.x >= w_y.x`` then ``w_y += x`` and
``w_yhat -= x`` (``yhat`` the first best wrong class).

In the Frobenius inner product on ``W = (w_1, ..., w_m)`` the update is
``z = (e_y - e_yhat) x``: ``|z|^2 = 2|x|^2`` and the trigger gives growth ``<= 2 R^2``;
with ``U`` of multiclass margin ``gamma``, ``U.z >= gamma``.  So ``(C, g) = (2 R^2, gamma)``
and ``k <= 2 R^2 |U|_F^2/gamma^2`` (``2R^2/gamma^2`` for ``|U|_F = 1``).

>>> from pla_proof.variants.checking import run_case
>>> from pla_proof.variants.protocol.variant import Order
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

from ...engine.pyloop import Problem
from ...numbers import dot, norm2
from ..protocol.cases import multiclass_cases
from ..protocol.variant import (
    Case,
    Claim,
    Measure,
    Order,
    Record,
    Variant,
    bound_floor,
    run_problem,
)

__all__ = ["Multiclass"]


class Multiclass(Variant):
    """One weight vector per class; claim ``(2 R^2, gamma)``."""

    name: ClassVar[str] = "multiclass"
    summary: ClassVar[str] = (
        "one vector per class: (C, g) = (2R^2, gamma), k <= 2R^2/gamma^2 for |U|_F = 1"
    )
    source: ClassVar[str] = "Collins 2002; Crammer & Singer 2003; Kalyanakrishnan's note"
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
        U = self._rows(case.u, m)
        rec = Record()
        pair = self.claim(case).bound_pair()
        b = None if pair is None else bound_floor(pair) + 1
        conclusive = b is not None and b <= self.cap
        budget = b if b is not None and conclusive else self.cap
        problem = _ClassesProblem(case, m)

        def pu_of(W: Sequence[Sequence[Any]]) -> Any:
            return sum((dot(ur, wr) for ur, wr in zip(U, W, strict=True)), Fraction(0))

        def nn_of(W: Sequence[Sequence[Any]]) -> Any:
            return sum((norm2(wr) for wr in W), Fraction(0))

        def stop(k: int, before: Any, after: Any, j: int) -> bool:
            t = problem.score(before, j)
            return rec.add(
                Measure(k, j, t, pu_of(before), pu_of(after), nn_of(before), nn_of(after))
            )

        res = run_problem(problem, order, budget, None, stop)
        if res.status == "budget_exhausted":
            rec.complete = conclusive
        rec.visits = list(res.visits)
        W = problem.after(res.choices)
        margins = [problem.score(W, i) for i in range(case.n)]
        low = min(margins)
        rec.end.update(m=low, j=margins.index(low))
        rec.output["W"] = tuple(tuple(row) for row in W)
        return rec


class _ClassesProblem(Problem):
    """One weight vector per class, for the engine's per-step path."""

    def __init__(self, case: Case, m: int) -> None:
        self.case, self.m, self.n = case, m, case.n

    def start(self) -> tuple[tuple[Fraction, ...], ...]:
        return tuple((Fraction(0),) * self.case.d for _ in range(self.m))

    def _best_wrong(self, W: Sequence[Sequence[Any]], i: int) -> tuple[Any, int]:
        x, label = self.case.X[i], self.case.y[i]
        s = [dot(wr, x) for wr in W]
        r = max((c for c in range(self.m) if c != label), key=lambda c: (s[c], -c))
        return s[label] - s[r], r

    def score(self, state: Any, i: int) -> Any:
        return self._best_wrong(state, i)[0]

    def triggers(self, state: Any, i: int) -> bool:
        return bool(self.score(state, i) <= 0)

    def step(self, state: Any, j: int) -> Any:
        _, r = self._best_wrong(state, j)
        x, yj = self.case.X[j], self.case.y[j]
        W = [list(row) for row in state]
        W[yj] = [a + v for a, v in zip(W[yj], x, strict=True)]
        W[r] = [a - v for a, v in zip(W[r], x, strict=True)]
        return tuple(tuple(row) for row in W)

    def after(self, choices: Sequence[int]) -> Any:
        W = self.start()
        for j in choices:
            W = self.step(W, j)
        return W

    def weights(self, state: Any) -> tuple[Fraction, ...]:
        return tuple(v for row in state for v in row)
