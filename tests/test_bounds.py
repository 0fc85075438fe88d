"""``pla_proof.bounds``: the tight bound and every rule's run against u* (no command)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pla_proof import InputError, TightBound, load, tight_bound
from pla_proof.trainer import RULES


def test_the_tight_bound_and_every_rule_within_it() -> None:
    tb = tight_bound(load("orthonormal:3"), seeds=2)
    assert isinstance(tb, TightBound) and tb.separable
    om = tb.margin
    assert (om.bound, om.gamma_squared, om.radius_squared) == (3, Fraction(1, 3), 1)
    assert [(r.rule, r.seed) for r in tb.runs] == [
        (rule, seed) for rule in RULES for seed in ([0, 1] if rule == "random" else [None])
    ]
    assert all(r.status == "converged" and r.updates <= om.bound for r in tb.runs)
    assert tb.runs[0].to_json() == {
        "rule": "first",
        "seed": None,
        "updates": 3,
        "status": "converged",
        "violation": None,
    }


def test_a_bias_gives_the_affine_margin() -> None:
    tb = tight_bound(load("orthonormal:2", bias="augment:1"), runs=False)
    assert tb.runs == [] and tb.affine is not None and tb.affine.exact
    assert tb.affine_note == ""


def test_a_capped_run_reports_the_exhausted_budget() -> None:
    tb = tight_bound(load("maxviol:1/10"), budget=3)
    assert all(r.updates <= 3 for r in tb.runs)
    assert [r.status for r in tb.runs if r.rule == "maxviol"] == ["budget_exhausted"]


def test_data_that_are_not_separable_give_a_certificate_and_no_runs() -> None:
    data = load("xor")
    tb = tight_bound(data)
    assert not tb.separable and tb.runs == []
    assert tb.separation.verify(data)  # type: ignore[union-attr]
    with pytest.raises(InputError, match="not separable"):
        tb.margin  # noqa: B018


def test_a_negative_seed_count_is_refused() -> None:
    with pytest.raises(InputError, match="seeds must be >= 0"):
        tight_bound(load("orthonormal:2"), seeds=-1)
