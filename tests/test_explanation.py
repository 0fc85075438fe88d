"""``pla_proof.explanation``: the proof walked through on a run, as data (no command)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pla_proof import (
    Explanation,
    InputError,
    explain,
    explain_run,
    load,
    optimal_comparator,
    train,
)
from pla_proof.proof.runtime import END_LEMMAS, RUNTIME_LEMMAS


def test_every_lemma_on_every_update_with_the_runs_numbers() -> None:
    data = load("orthonormal:3")
    ex = explain(data, comparator=[1, -1, 1])
    assert isinstance(ex, Explanation) and ex.status == "converged" and ex.ok
    assert [(k, j) for k, j, _ in ex.steps] == [(1, 0), (2, 1), (3, 2)]
    for _, _, checks in ex.steps:
        assert [c.lemma for c in checks] == [lem.id for lem in RUNTIME_LEMMAS]
        assert all(c.holds for c in checks)
    assert [c.lemma for c in ex.end] == [lem.id for lem in END_LEMMAS]
    f = ex.facts
    # u = (1, -1, 1): g = 1, R^2 = 1, ||u||^2 = 3, so the bound is 3 and it is attained
    assert (f["k"], f["g"], f["R2"], f["uu"], f["bound"]) == (3, 1, 1, 3, 3)
    assert f["bound_slack"] == 0 and f["w"] == [1, -1, 1] and f["dual_w"] == f["w"]
    assert f["alpha"] == [1, 1, 1] and f["alpha_sum"] == 3
    assert f["u_dot_w"] == 3 and f["w_norm2"] == 3 and f["cos2"] == 1


def test_summary_names_the_tightest_update_of_each_lemma() -> None:
    ex = explain(load("maxviol:1/10"), rule="maxviol")
    summary = ex.summary()
    assert [s.lemma.id for s in summary] == [lem.id for lem in RUNTIME_LEMMAS]
    assert all(s.held for s in summary)
    for s in summary:
        idx = [lem.id for lem in RUNTIME_LEMMAS].index(s.lemma.id)
        slacks = [(checks[idx].slack, k) for k, _, checks in ex.steps]
        assert s.slack == min(v for v, _ in slacks)
        assert (s.slack, s.k) in slacks


def test_the_decision_rule_in_the_datas_own_terms() -> None:
    ex = explain(load("students"))
    rule = ex.decision_rule()
    assert rule.names == ("A", "B", "C", "D", "E")
    assert (rule.positive, rule.negative) == ("accept", "decline")
    assert rule.w == (10, 10, -5, 10, 10) and rule.offset == 0
    (crit,) = rule.criteria
    assert crit.source.startswith("Lin's sample criterion")
    assert crit.certificate.separates and crit.margins == [10, 10, 10]


def test_symbols_cover_every_statement_and_name_the_comparator() -> None:
    data = load("demo2d")
    assert "(here final w)" in explain(data).symbols()[0][2]
    ex = explain(data, comparator=optimal_comparator(data))
    symbols = ex.symbols()
    assert symbols[0][0] == "u" and "(here optimal u*)" in symbols[0][2]
    texts = {t for t, _, _ in symbols}
    assert {"γ", "R", "g"} <= texts


def test_a_run_that_does_not_converge_has_no_steps() -> None:
    ex = explain(load("xor"))
    assert ex.status == "not_separable" and ex.steps == [] and ex.end == [] and ex.facts == {}
    assert ex.run.certificate is not None and ex.run.certificate.verify(load("xor"))
    stuck = explain(load("maxviol:1/10"), rule="maxviol", budget=3)
    assert stuck.status == "budget_exhausted" and stuck.run.updates == 3


def test_json_keeps_counts_as_integers_and_every_other_number_exact() -> None:
    doc = explain(load("orthonormal:2")).to_json()
    assert doc["status"] == "converged" and doc["facts"]["k"] == 2
    assert doc["facts"]["bound"] == Fraction(2) and isinstance(doc["facts"]["g"], Fraction)
    assert doc["steps"][0]["j"] == 1 and doc["steps"][0]["checks"][0]["holds"] is True


def test_a_run_without_a_comparator_is_refused() -> None:
    data = load("orthonormal:2")
    with pytest.raises(InputError, match="no comparator"):
        explain_run(data, train(data, comparator=None))


def test_a_wrong_comparator_is_refused() -> None:
    with pytest.raises(InputError):
        explain(load("orthonormal:3"), comparator=[1, -1])
