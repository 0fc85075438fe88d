"""Voted and averaged perceptrons (Freund & Schapire 1999; the DSC 255 handout).

Training is the classic algorithm in passes; each weight vector ``w_j`` keeps its
survival count ``c_j`` (correct visits before the next mistake).  The voted
predictor is ``sign(sum_j c_j sign(w_j.x))``, the averaged one ``sign(a.x)`` with
``a = sum_j c_j w_j``.  The claims are the classic ones *for training* (G1, G2, P_k,
Q_k, T; the final ``w`` separates; same updates as the classic run); neither output
is claimed to separate the training set -- the averaged output need not
(``bug:averaged-separates`` shows a counterexample).

>>> from pla_proof.variants.checking import run_case
>>> from pla_proof.variants.protocol.variant import Order, orthonormal_cases
>>> rec, res = run_case(Averaged(), orthonormal_cases([2])[-1], Order("cyclic"))
>>> rec.output["counts"], rec.output["averaged"], all(f is None for f in res.values())
([0, 1, 3], (Fraction(4, 1), Fraction(-3, 1)), True)
"""

from __future__ import annotations

import math
import operator
from fractions import Fraction
from typing import Any, ClassVar

from ...numbers import dot
from ..protocol.variant import Case, Order, PassVariant, Record, same_updates, survival_counts
from .classic import Classic

__all__ = ["Averaged", "Voted"]


class _Survivors(PassVariant):
    """Classic training in passes, recording ``(w_j, c_j)``."""

    extra_properties: ClassVar[dict[str, str]] = {
        "EQ": "same update sequence as the classic algorithm in the same order"
    }

    def run(self, case: Case, order: Order) -> Record:
        rec = super().run(case, order)
        ref = Classic().run(case, order)
        rec.checks["EQ"] = same_updates(rec, ref, "classic")
        # every weight vector and point over one common denominator D: the vote's signs
        # and the sums are integer arithmetic (a long run has thousands of w_j)
        start = [Fraction(v) for v in self.start(case)]
        D = math.lcm(*(v.denominator for v in start), *(v.denominator for x in case.X for v in x))
        X = [[int(v * D) for v in x] for x in case.X]
        w = [int(v * D) for v in start]
        scaled = [w]
        for j in rec.choices:
            w = [a + case.y[j] * b for a, b in zip(w, X[j], strict=True)]
            scaled.append(w)
        weights = [tuple(Fraction(v, D) for v in u) for u in scaled]
        counts = survival_counts(rec, case.n)
        a = tuple(
            Fraction(sum(c * u[i] for u, c in zip(scaled, counts, strict=True)), D)
            for i in range(case.d)
        )
        rec.output.update(weights=weights, counts=counts, averaged=a)
        margins = [yi * dot(a, x) for x, yi in zip(case.X, case.y, strict=True)]
        rec.end["averaged_m"] = min(margins)
        rec.end["averaged_j"] = margins.index(min(margins))
        votes = [
            yi
            * sum(
                c * _sgn(sum(map(operator.mul, u, x)))
                for u, c in zip(scaled, counts, strict=True)
                if c
            )
            for x, yi in zip(X, case.y, strict=True)
        ]
        rec.end["voted_m"] = min(votes)
        return rec


def _sgn(v: Any) -> int:
    return int(v > 0) - int(v < 0)


class Averaged(_Survivors):
    name: ClassVar[str] = "averaged"
    summary: ClassVar[str] = (
        "averaged perceptron: training is classic; the average need not separate"
    )
    source: ClassVar[str] = "Freund & Schapire 1999; the DSC 255 handout"


class Voted(_Survivors):
    name: ClassVar[str] = "voted"
    summary: ClassVar[str] = "voted perceptron: training is classic, (w_j, c_j) kept for the vote"
    source: ClassVar[str] = "Freund & Schapire 1999; the DSC 255 handout"
