"""``pla_proof.tracing``: a monitored run update by update, as data (no command)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pla_proof import InputError, Trace, instantiate, load, trace, train
from pla_proof.proof.runtime import RUNTIME_LEMMAS, lemma
from pla_proof.tracing import ReplayError, replay_rule, settle, stuck_certificate


def test_weights_and_lemmas_after_every_update() -> None:
    t = trace(load("orthonormal:3"), comparator=[1, -1, 1])
    assert isinstance(t, Trace) and t.status == "converged"
    assert [(s.k, s.j) for s in t.steps] == [(1, 0), (2, 1), (3, 2)]
    assert [s.w for s in t.steps] == [(1, 0, 0), (1, -1, 0), (1, -1, 1)]
    for s in t.steps:
        assert [c.lemma for c in s.checks] == [lem.id for lem in RUNTIME_LEMMAS]
        assert all(c.holds for c in s.checks)
    assert t.steps[2].values["pu1"] == 3 and t.steps[2].values["n1"] == 3


def test_float_mode_and_no_comparator_instantiate_nothing() -> None:
    assert all(s.checks == [] for s in trace(load("demo2d"), mode="float").steps)
    assert all(s.checks == [] for s in trace(load("demo2d"), comparator=None).steps)


def test_a_replayed_order_is_followed_and_named() -> None:
    t = trace(load("orthonormal:3"), replay=[2, 1, 0])
    assert t.run.choices == [2, 1, 0] and t.run.rule == "replay"


def test_a_replayed_point_that_is_not_a_violator_is_refused() -> None:
    with pytest.raises(ReplayError, match="point 1 is not a violator at update 2"):
        trace(load("orthonormal:3"), replay=[0, 0])
    assert issubclass(ReplayError, InputError)
    assert replay_rule([])([4, 5], 1) == 4  # past the order: the first violator


def test_a_stuck_run_on_data_that_are_not_separable_is_settled() -> None:
    data = load("xor")
    run = train(data, budget=2, detect_cycles=False)
    assert run.status == "budget_exhausted"
    assert settle(data, run) is run and run.status == "not_separable"
    assert run.certificate is not None and run.certificate.verify(data)
    said: list[str] = []
    assert stuck_certificate(data, said.append) is not None
    assert said == ["checking separability exactly"]
    assert stuck_certificate(load("orthonormal:2")) is None


def test_coq_certificate_for_a_converged_exact_run_or_non_separable_data() -> None:
    text = trace(load("orthonormal:2")).coq_certificate()
    assert text is not None and "orthonormal" in text
    gordan = trace(load("xor")).coq_certificate()  # not separable: the Gordan certificate
    assert gordan is not None and "Theorem never_returns" in gordan
    assert trace(load("orthonormal:5"), budget=2).coq_certificate() is None
    assert trace(load("demo2d"), mode="float").coq_certificate() is None


def test_instantiate_evaluates_the_lemmas_own_relation() -> None:
    c = instantiate(lemma("L7"), {"n0": 0, "n1": 3, "R2": 2, "k": 2}, False)
    assert (c.lhs, c.op, c.rhs, c.holds, c.slack) == (3, "<=", 4, True, 1)
    bad = instantiate(lemma("L7"), {"n0": 0, "n1": 5, "R2": 2, "k": 2}, False)
    assert not bad.holds and bad.to_json()["slack"] == Fraction(-1)
