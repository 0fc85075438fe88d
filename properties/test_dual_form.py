"""The dual form (the DSC 255 handout): w_k = sum_i alpha_i y_i x_i with sum_i alpha_i = k.

At every update the monitor's measurements of w_k (|w_k|^2, u.w_k, the trigger
y_j w_k.x_j) and of w_{k+1} must equal those of the dual sum built from the update
counts of ``run.choices`` so far -- computed here from the Gram matrix, never from w.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import example, given

from pla_proof.numbers import dot
from pla_proof.strategies import SeparableCase, update_orders
from pla_proof.trainer import train

from ._support import CASES, PINNED, SEEDS


@given(case=CASES, order=update_orders(), seed=SEEDS)
@example(case=PINNED["maxviol:1/10"], order="maxviol", seed=0)
@example(case=PINNED["duplicates"], order="random", seed=3)
def test_w_is_the_dual_sum_with_alpha_summing_to_k_at_every_step(
    case: SeparableCase, order: Any, seed: int
) -> None:
    data = case.data
    run = train(data, rule=order, seed=seed, comparator=case.u)
    assert run.status == "converged" and run.violation is None
    n = data.n
    gram = [[dot(a, b) for b in data.X] for a in data.X]
    ux = [dot(case.u, x) for x in data.X]
    alpha = [0] * n

    def norm2_dual() -> Fraction:
        return Fraction(
            sum(
                alpha[i] * alpha[j] * data.y[i] * data.y[j] * gram[i][j]
                for i in range(n)
                if alpha[i]
                for j in range(n)
                if alpha[j]
            )
        )

    def u_dot_dual() -> Fraction:
        return Fraction(sum(alpha[i] * data.y[i] * ux[i] for i in range(n)))

    assert len(run.steps) == len(run.choices) == run.updates
    for k, (j, step) in enumerate(zip(run.choices, run.steps, strict=True), start=1):
        assert step.k == k and step.j == j
        assert sum(alpha) == k - 1  # w_k is the sum of the k - 1 updates before it
        v = step.values
        assert v["n0"] == norm2_dual()
        assert v["pu"] == u_dot_dual()
        trigger = data.y[j] * sum(alpha[i] * data.y[i] * gram[i][j] for i in range(n))
        assert v["t"] == trigger <= 0
        alpha[j] += 1
        assert v["n1"] == norm2_dual()
        assert v["pu1"] == u_dot_dual()
    assert alpha == run.alpha and sum(alpha) == run.updates
    dual_w = tuple(
        sum((alpha[i] * data.y[i] * data.X[i][c] for i in range(n)), Fraction(0))
        for c in range(data.d)
    )
    assert run.w == dual_w
    assert sum(1 for a in alpha if a > 0) <= run.updates
