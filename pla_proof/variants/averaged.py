"""Voted and averaged perceptrons (Freund & Schapire 1999; seed 004).

Training is the classic algorithm in passes; each weight vector ``w_j`` keeps its
survival count ``c_j`` (correct visits before the next mistake).  The voted
predictor is ``sign(sum_j c_j sign(w_j.x))``, the averaged one ``sign(a.x)`` with
``a = sum_j c_j w_j``.  The claims are the classic ones *for training* (G1, G2, P_k,
Q_k, T; the final ``w`` separates; same updates as the classic run); neither output
is claimed to separate the training set -- the averaged output need not
(``bug:averaged-separates`` shows a counterexample).

>>> from pla_proof.variants.harness import run_case
>>> from pla_proof.variants.protocol import Order, orthonormal_cases
>>> rec, res = run_case(Averaged(), orthonormal_cases([2])[-1], Order("cyclic"))
>>> rec.output["counts"], rec.output["averaged"], all(f is None for f in res.values())
([0, 1, 3], (Fraction(4, 1), Fraction(-3, 1)), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from ..numbers import dot
from .classic import Classic
from .protocol import Case, Order, PassVariant, Record, same_updates

__all__ = ["Averaged", "Voted"]


class _Survivors(PassVariant):
    """Classic training in passes, recording ``(w_j, c_j)``."""

    extra_properties: ClassVar[dict[str, str]] = {
        "EQ": "same update sequence as the classic algorithm in the same order"
    }

    def visit(self, j: int, updated: bool, w: Sequence[Any]) -> None:
        if updated:
            self._ws.append(tuple(w))
            self._cs.append(1)  # Freund & Schapire: c_{k+1} = 1 after a mistake
        else:
            self._cs[-1] += 1

    def run(self, case: Case, order: Order) -> Record:
        self._ws: list[tuple[Any, ...]] = [tuple(self.start(case))]
        self._cs: list[int] = [0]
        rec = super().run(case, order)
        ref = Classic().run(case, order)
        rec.checks["EQ"] = same_updates(rec, ref, "classic")
        a = tuple(
            sum((c * w[i] for w, c in zip(self._ws, self._cs, strict=True)), Fraction(0))
            for i in range(case.d)
        )
        rec.output.update(weights=list(self._ws), counts=list(self._cs), averaged=a)
        margins = [yi * dot(a, x) for x, yi in zip(case.X, case.y, strict=True)]
        rec.end["averaged_m"] = min(margins)
        rec.end["averaged_j"] = margins.index(min(margins))
        votes = [
            yi * sum(c * _sgn(dot(w, x)) for w, c in zip(self._ws, self._cs, strict=True))
            for x, yi in zip(case.X, case.y, strict=True)
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
    source: ClassVar[str] = "Freund & Schapire 1999; seed 004"


class Voted(_Survivors):
    name: ClassVar[str] = "voted"
    summary: ClassVar[str] = "voted perceptron: training is classic, (w_j, c_j) kept for the vote"
    source: ClassVar[str] = "Freund & Schapire 1999; seed 004"
