"""A campaign's cumulative report keeps what each round found out of time: runs slow
before their bound (with the reasons) and a round the check's time limit stopped -- so
a campaign of a slow implementation ends inconclusive, not passing."""

from __future__ import annotations

from pla_proof.variants.checking.campaign import _fold
from pla_proof.variants.checking.report import CheckReport


def _round(slow: int, stopped: bool = False) -> CheckReport:
    rep = CheckReport("slow-one", examples=5, seed=0, runs=5)
    rep.slow, rep.stopped = slow, stopped
    if slow:
        rep.slow_reasons = {"out of time after 3 updates": slow}
    return rep


def test_the_rounds_slow_runs_and_their_reasons_add_up() -> None:
    into, _ = _fold(None, _round(1))
    into, _ = _fold(into, _round(2))
    assert into.slow == 3 and into.slow_reasons == {"out of time after 3 updates": 3}
    assert into.status == "inconclusive" and not into.ok


def test_a_stopped_round_makes_the_campaign_stopped() -> None:
    into, _ = _fold(None, _round(0))
    assert into.status != "inconclusive" or into.slow
    into, _ = _fold(into, _round(0, stopped=True))
    assert into.stopped and into.status == "inconclusive"
