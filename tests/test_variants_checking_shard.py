"""The search's steering (``_Round.steer``): Hypothesis's targets come from runs that
ended or reached their bound, never from a run stopped at the safety cap."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from pla_proof.variants import resolve
from pla_proof.variants.checking import run_case, shard
from pla_proof.variants.checking.report import Counterexample, ShardResult
from pla_proof.variants.protocol.variant import Case, Order, Record


def _targets(
    monkeypatch: pytest.MonkeyPatch, rec: Record, failing: tuple[str, ...] = ()
) -> dict[str, float]:
    seen: dict[str, float] = {}

    def record(value: float, *, label: str = "") -> None:
        assert label not in seen, f"two targets labelled {label!r} in one test case"
        seen[label] = value

    monkeypatch.setattr(shard, "target", record)
    r = shard._Round(resolve("classic"), set(), ShardResult(), "exact", None, None, 0, None)
    r.steer(rec, failing)
    return seen


def _run(name: str, case: Case) -> Record:
    rec, _ = run_case(resolve(name), case, Order("cyclic"), aim=True)
    return rec


#: three points: u = (1, 1), gamma = 1; the classic run makes 2 updates of at most 5
CASE = Case(
    ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)), (Fraction(2), Fraction(1))),
    (1, 1, 1),
    (Fraction(1), Fraction(1)),
    Fraction(1),
    {},
)


def test_a_run_that_ended_steers_toward_more_updates_and_every_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rec = _run("classic", CASE)
    seen = _targets(monkeypatch, rec)
    assert seen["updates"] == float(rec.updates) == 2.0
    labels = {f"slack {p}" for p in ("G1", "G2", "P_k", "Q_k", "L4", "T", "SEP")}
    assert labels <= set(seen), seen
    # T: k = 2 of the bound R^2 |u|^2 / gamma^2 = 5 * 2 / 1 = 10: slack (10 - 2)/10
    assert seen["slack T"] == pytest.approx(-0.8)
    # SEP: w = (1, 1) gives margins 1, 1, 3: min / max = 1/3
    assert seen["slack SEP"] == pytest.approx(-1 / 3)


def test_a_property_the_run_refutes_is_no_target(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = _run("classic", CASE)
    seen = _targets(monkeypatch, rec, failing=("T", "G1"))
    assert "slack T" not in seen and "slack G1" not in seen and "slack G2" in seen


def test_a_run_stopped_at_the_safety_cap_steers_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Steering on capped runs filled the search with them (check classic: 94 of 224 runs
    inconclusive with the long-run data, 11 once they no longer steer)."""
    assert _targets(monkeypatch, Record(choices=[0] * 2000, complete=False)) == {}


# --- a counterexample's copies --------------------------------------------------------------

#: (1, 0) four times and (0, 1), both -1: ``bug:plus-x`` adds x, not y x, on the first
#: point, so G2 fails at the first update whether the copies are there or not (G1 fails
#: only with them: a G1 counterexample keeps them)
COPIES = Case(
    (*((Fraction(1), Fraction(0)) for _ in range(4)), (Fraction(0), Fraction(1))),
    (-1, -1, -1, -1, -1),
    (Fraction(-1), Fraction(-1)),
    Fraction(1),
    {},
)


def _with_copies(order: Order | None = None) -> tuple[shard._Round, Counterexample]:
    order = order or Order("cyclic")
    variant = resolve("bug:plus-x")
    rec, res = run_case(variant, COPIES, order, aim=True)
    failure = res["G2"]
    assert failure is not None
    r = shard._Round(variant, set(), ShardResult(), "exact", None, None, 0, None)
    return r, Counterexample(COPIES, order, rec, failure)


def test_a_counterexample_loses_its_copies_where_it_fails_the_same_without_them() -> None:
    r, ce = _with_copies()
    fewer = r.without_copies(ce)
    kept = ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)))
    assert kept == fewer.case.X
    assert fewer.case.y == (-1, -1) and fewer.failure.prop == ce.failure.prop
    rec, res = run_case(r.variant, COPIES, Order("cyclic"), aim=True)
    failure = res["G1"]
    assert failure is not None
    g1 = Counterexample(COPIES, Order("cyclic"), rec, failure)
    assert r.without_copies(g1) is g1  # G1 fails only with the copies: kept


def test_copies_that_matter_or_an_order_by_point_are_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    r, ce = _with_copies(Order("replay", picks=(0,)))
    assert r.without_copies(ce) is ce  # (its picks name points by position)
    r, ce = _with_copies()
    passing: dict[str, Any] = {ce.failure.prop: None}
    monkeypatch.setattr(shard, "_run_case", lambda *a, **k: (ce.record, passing))
    assert r.without_copies(ce) is ce  # without its copies it passes: they matter
