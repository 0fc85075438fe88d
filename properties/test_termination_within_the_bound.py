"""The convergence theorem: the Perceptron stops within R^2/gamma^2 updates, separating.

Non-strict margin (the other four sources, ``y u.x >= gamma``): ``k <= R^2/gamma^2``, which the
orthonormal data attain exactly.  Strict margin (Kalyanakrishnan's note, ``y u.x > gamma``):
``k < R^2/gamma^2``.  The budget is the bound itself, so a run that needed one update
more would end ``budget_exhausted``.  A targeted search drives ``k gamma^2 / R^2``
(for the unit comparator: ``k / bound``) toward 1 and reports the largest value found.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given, note, target
from hypothesis import strategies as st

from pla_proof.data import load
from pla_proof.strategies import (
    HypothesisChooser,
    SeparableCase,
    separable_datasets,
    update_orders,
)
from pla_proof.trainer import RULES, Run, train

from ._support import CASES, CORE, FEW, PINNED, SEEDS, min_margin


def check_stops_within_the_bound(
    case: SeparableCase, order: Any, seed: int, trainer: Any = train
) -> Run:
    """Non-strict: converged within floor(bound) updates, and the returned w separates."""
    budget = math.floor(case.bound)
    run: Run = trainer(case.data, rule=order, seed=seed, budget=budget, comparator=case.u)
    note(f"status={run.status} updates={run.updates} bound={case.bound}")
    target(float(run.updates), label="updates to stop")
    assert run.status == "converged", run.violation.describe() if run.violation else run.status
    assert run.updates <= case.bound
    assert run.bound == case.bound
    assert min_margin(run.w, case.data) > 0
    return run


@CORE
@given(case=CASES, order=update_orders(), seed=SEEDS)
@example(case=PINNED["orthonormal:3"], order="first", seed=0)
@example(case=PINNED["maxviol:1/10"], order="maxviol", seed=0)
@example(case=PINNED["near hyperplane"], order="maxviol", seed=0)
@example(case=PINNED["single point, d = 1"], order="cyclic", seed=0)
def test_the_perceptron_stops_within_the_bound_with_a_separating_w(
    case: SeparableCase, order: Any, seed: int
) -> None:
    check_stops_within_the_bound(case, order, seed)


@CORE
@given(
    case=CASES,
    order=update_orders(),
    seed=SEEDS,
    gap=st.one_of(st.integers(1, 10**12).map(lambda n: Fraction(1, n + 1)), st.fractions(0, 1)),
)
@example(case=PINNED["orthonormal:3"], order="cyclic", seed=0, gap=Fraction(1, 10**12))
@example(case=PINNED["maxviol:1/10"], order="maxviol", seed=0, gap=Fraction(1, 10**9))
def test_under_the_strict_margin_it_stops_strictly_below_the_bound(
    case: SeparableCase, order: Any, seed: int, gap: Fraction
) -> None:
    """Kalyanakrishnan's form: y u.x > gamma for gamma = (1 - gap) min_i y_i u.x_i, 0 < gap <= 1."""
    if gap == 0:
        gap = Fraction(1, 2)
    gamma = case.gamma * (1 - gap) if gap < 1 else case.gamma / 2
    run = train(case.data, rule=order, seed=seed, comparator=case.u, strict=True, gamma=gamma)
    bound = case.radius_squared * case.uu / gamma**2
    assert run.bound == bound
    assert run.status == "converged", run.violation.describe() if run.violation else run.status
    assert run.updates < bound
    assert min_margin(run.w, case.data) > 0


@pytest.mark.parametrize("rule", [*RULES, "hypothesis"])
@FEW
@given(n=st.integers(1, 24), seed=SEEDS, data=st.data())
@example(n=1, seed=0, data=None)
@example(n=24, seed=0, data=None)
def test_orthonormal_data_attain_the_bound_under_every_rule(
    rule: str, n: int, seed: int, data: Any
) -> None:
    """x_i = e_i with alternating labels: R = 1, u = sum y_i e_i, gamma = 1, bound = n, and
    every order makes exactly n updates (each point is corrected exactly once)."""
    order: Any = rule
    if rule == "hypothesis":
        # Hypothesis picks every violator (the pinned examples have no data: take the last).
        order = HypothesisChooser(data, limit=n) if data is not None else lambda v, k: v[-1]
    ds = load(f"orthonormal:{n}")
    run = train(ds, rule=order, seed=seed, comparator=ds.y)
    assert run.bound == n
    assert (run.status, run.updates) == ("converged", n)
    assert sorted(run.choices) == list(range(n))


_LARGEST: dict[str, Any] = {"ratio": Fraction(0), "case": None}


@CORE
@given(
    case=separable_datasets(
        min_n=2, max_n=6, min_d=2, max_d=4, max_coord=6, kind=None, margin=None, max_bound=400
    ),
    order=update_orders(),
    seed=SEEDS,
)
def _search_toward_the_bound(case: SeparableCase, order: Any, seed: int) -> None:
    run = train(case.data, rule=order, seed=seed, comparator=case.u)
    assert run.status == "converged" and run.violation is None
    ratio = run.updates / case.bound  # = k gamma^2 / R^2 for the unit comparator u/|u|
    assert ratio <= 1
    # A run of one update says nothing about the induction (one point along u attains 1).
    score = ratio if run.updates >= 2 else Fraction(0)
    target(float(score), label="k gamma^2 / R^2 (runs of >= 2 updates)")
    if score > _LARGEST["ratio"]:
        _LARGEST.update(ratio=score, case=(case.data.X, case.data.y, case.u, run.rule, run.updates))


def test_targeted_search_drives_k_gamma2_over_r2_toward_one(record_property: Any) -> None:
    """``hypothesis.target`` on k gamma^2 / R^2 (once per case); never above 1.  The largest
    value found over runs of at least two updates is printed in the "property suite
    report" at the end of the run."""
    _LARGEST.update(ratio=Fraction(0), case=None)
    _search_toward_the_bound()
    best = _LARGEST["ratio"]
    record_property("report: largest k gamma^2 / R^2 found", f"{float(best):.4f} ({best})")
    record_property("report: attained on (X, y, u, rule, k)", repr(_LARGEST["case"]))
    assert 0 < best <= 1
