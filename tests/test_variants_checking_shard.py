"""The search's steering (``_Round.steer``): Hypothesis's targets come from runs that
ended or reached their bound, never from a run stopped at the safety cap."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pla_proof.variants import resolve
from pla_proof.variants.checking import shard
from pla_proof.variants.checking.report import ShardResult
from pla_proof.variants.protocol.variant import Case, Record


def _targets(monkeypatch: pytest.MonkeyPatch, rec: Record) -> dict[str, float]:
    seen: dict[str, float] = {}

    def record(value: float, *, label: str = "") -> None:
        seen[label] = value

    monkeypatch.setattr(shard, "target", record)
    r = shard._Round(resolve("classic"), set(), ShardResult(), "exact", None, None, 0, None)
    case = Case(((Fraction(1), Fraction(0)),), (1,), (Fraction(1), Fraction(0)), Fraction(1), {})
    r.steer(case, rec)
    return seen


def test_a_run_that_ended_steers_toward_more_updates(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _targets(monkeypatch, Record(choices=[0] * 7, complete=True))
    assert seen["updates"] == 7.0 and "k g^2 / (C |u|^2)" in seen


def test_a_run_stopped_at_the_safety_cap_steers_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Steering on capped runs filled the search with them (check classic: 94 of 224 runs
    inconclusive with the long-run data, 11 once they no longer steer)."""
    assert _targets(monkeypatch, Record(choices=[0] * 2000, complete=False)) == {}
