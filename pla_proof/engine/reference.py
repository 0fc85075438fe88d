"""The reference: the Perceptron in plain ``Fraction`` arithmetic, one obvious loop.

It makes every decision from exact margins recomputed at each step, with the same
selection rules as the engine (:mod:`pla_proof.engine.orders`), so the engine's
filtered, compiled decisions can be checked against it update for update (the
property suite does, on data with near-zero margins and mixed magnitudes).  Float
mode is the float algorithm: float64 weights, each margin of them decided exactly.

>>> from pla_proof.data import load
>>> reference(load("orthonormal:3"), order="maxviol")
('converged', [0, 1, 2], (Fraction(1, 1), Fraction(-1, 1), Fraction(1, 1)))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..data import Dataset
from .orders import Chooser, permutation
from .rule import CLASSIC, LinearRule

__all__ = ["reference"]


def reference(
    data: Dataset,
    rule: LinearRule = CLASSIC,
    *,
    order: str | Chooser = "cyclic",
    seed: int = 0,
    budget: int = 10_000,
    mode: str = "exact",
    sample: bool = False,
    max_epochs: int | None = None,
) -> tuple[str, list[int], tuple[Fraction, ...]]:
    """``(status, choices, w)`` of the run; status as in the engine."""
    n, d = data.n, data.d
    if mode == "float":
        Xf, _ = data.as_float()
        X: list[tuple[Any, ...]] = [tuple(float(v) for v in row) for row in Xf]
        exact_x = [tuple(Fraction(v) for v in row) for row in X]
        w: list[Any] = [float(v) for v in rule.start(d)]
        factors: list[Any] = [float(rule.factor(i)) for i in range(n)]
    else:
        X = list(data.X)
        exact_x = X
        w = list(rule.start(d))
        factors = [rule.factor(i) for i in range(n)]
    y = data.y
    strict = rule.strict_flags(n)
    tau = rule.tau

    def margin(i: int) -> Fraction:
        return (
            y[i] * sum((Fraction(a) * b for a, b in zip(w, exact_x[i], strict=True)), Fraction(0))
            - tau
        )

    def trigger(i: int) -> bool:
        z = margin(i)
        return bool(z < 0) if strict[i] else bool(z <= 0)

    choices: list[int] = []
    seen: dict[tuple[Any, ...], int] = {}
    pos, epoch, ppos, visits = 0, 0, 0, 0
    perm = permutation(n, seed=seed, epoch=0) if order == "random" else []
    cap = None if max_epochs is None else max_epochs * n
    while True:
        violators = [i for i in range(n) if trigger(i)]
        if not violators:
            return "converged", choices, _exact(w)
        if len(choices) >= budget:
            return "budget_exhausted", choices, _exact(w)
        j: int | None = None
        if sample:
            from .kernel import _sample

            while cap is None or visits < cap:
                i = int(_sample(__import__("numpy").uint64(seed & ((1 << 64) - 1)), visits, n))
                visits += 1
                if trigger(i):
                    j = i
                    break
        elif callable(order):
            j = order(violators, len(choices) + 1)
        elif order == "first":
            j = violators[0]
        elif order == "maxviol":
            j = min(violators, key=lambda i: (margin(i), i))
        elif order == "cyclic":
            while cap is None or visits < cap:
                i = pos
                pos = (pos + 1) % n
                visits += 1
                if trigger(i):
                    j = i
                    break
        else:  # random: walk a fresh permutation per epoch
            while cap is None or visits < cap:
                if ppos >= n:
                    epoch += 1
                    perm = permutation(n, seed=seed, epoch=epoch)
                    ppos = 0
                i = perm[ppos]
                ppos += 1
                visits += 1
                if trigger(i):
                    j = i
                    break
        if j is None:
            return "epochs_exhausted", choices, _exact(w)
        c = factors[j] * y[j]
        w = [a + c * b for a, b in zip(w, X[j], strict=True)]
        choices.append(j)
        key = tuple(w)
        if key in seen:
            if _certifies(data, rule, choices[seen[key] :], mode):
                return "not_separable", choices, _exact(w)
        else:
            seen[key] = len(choices)


def _exact(w: list[Any]) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in w)


def _certifies(data: Dataset, rule: LinearRule, between: list[int], mode: str) -> bool:
    from .certificate import Certificate

    counts = [0] * data.n
    for j in between:
        counts[j] += 1
    alpha = tuple(Fraction(c) * rule.factor(i) for i, c in enumerate(counts))
    target = data
    if mode == "float":
        Xf, _ = data.as_float()
        target = Dataset.from_floats(Xf, data.labels, name=data.name)
    return Certificate(alpha, "cycle").verify(target)
