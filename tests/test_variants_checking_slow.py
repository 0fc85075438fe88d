"""Slow is not wrong (issue 30, item 5): a run out of time before its bound is
inconclusive, with the classic algorithm's updates on the case; ENDS fails past the
bound or on a case the classic algorithm settles at once; a check ends at its
--time-limit with a verdict on what it did."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from fractions import Fraction as F
from pathlib import Path
from typing import Any

from pla_proof.variants import Claim, LinearVariant, Measure, Record, Variant
from pla_proof.variants.checking import run_case
from pla_proof.variants.protocol import Order
from pla_proof.variants.protocol.variant import pushing_cases

ROOT = Path(__file__).resolve().parent.parent
SLOW = str(ROOT / "tests" / "fixtures" / "slow_fit.py")
CASES = {c.name: c for c in pushing_cases()}
LONG = CASES["long-run"]  # the classic algorithm needs 313 updates, the bound is 82945
EASY = CASES["orthonormal:3"]  # 3 updates


class Sleepy(LinearVariant):
    """The classic rule, a second per update: correct, slow."""

    name = "sleepy"

    def step(self, w: Any, x: Any, y: int) -> Any:
        time.sleep(1)
        return [y * v for v in x]


class Forever(LinearVariant):
    """A step that never returns."""

    name = "forever"

    def step(self, w: Any, x: Any, y: int) -> Any:
        while True:
            pass


class PastBound(Variant):
    """Three updates against a claimed bound of one, then stuck."""

    name = "past-bound"

    def claim(self, case: Any) -> Claim:
        return Claim(bound=1, end=None)

    def run(self, case: Any, order: Any) -> Record:
        rec = Record()
        for k in range(1, 4):
            rec.add(Measure(k, 0, F(0), F(0), F(1), F(0), F(1)))
        while True:
            time.sleep(0.01)


def _failures(res: dict[str, Any]) -> dict[str, str]:
    return {p: f.describe() for p, f in res.items() if f is not None}


def test_a_slow_correct_run_is_inconclusive_not_an_ENDS_failure() -> None:
    rec, res = run_case(Sleepy(), LONG, Order("cyclic"), limit=0.3)
    assert _failures(res) == {}
    assert not rec.complete
    assert "slow, not wrong" in rec.inconclusive
    assert "the classic algorithm needs 313 update(s)" in rec.inconclusive
    assert "bound (82945 update(s)) not reached" in rec.inconclusive


def test_a_loop_that_never_ends_on_an_easy_case_fails_ENDS() -> None:
    rec, res = run_case(Forever(), EASY, Order("cyclic"), limit=0.3)
    assert list(_failures(res)) == ["ENDS"]
    assert "settles in 3 update(s)" in _failures(res)["ENDS"]
    assert not rec.inconclusive


def test_a_run_past_its_bound_that_does_not_end_fails_ENDS() -> None:
    _, res = run_case(PastBound(), LONG, Order("cyclic"), limit=0.3)
    assert list(_failures(res)) == ["ENDS"]
    assert "after 3 update(s)), past the bound of 1 update(s)" in _failures(res)["ENDS"]


def _check(*argv: str, timeout: float = 120) -> tuple[int, str, str, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("PLA_PROOF_TIME_LIMIT", None)
    t0 = time.monotonic()
    p = subprocess.run(
        [sys.executable, "-m", "pla_proof", "check", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def test_a_slow_fit_class_is_inconclusive_exit_3(tmp_path: Path) -> None:
    code, out, err, _ = _check(
        "--fit", f"{SLOW}:SlowPerceptron", "--examples", "5", "--run-seconds", "1",
        "--jobs", "2", "--json", "--out", str(tmp_path),
    )  # fmt: skip
    doc = json.loads(out)
    assert (code, doc["verdict"]) == (3, "inconclusive"), (code, err[-800:])
    assert doc["slow"] >= 1 and not [p for p in doc["properties"] if p["status"] == "fail"]
    assert "slow, not wrong" in doc["slow_reasons"][0]["reason"]
    assert "the classic algorithm needs" in doc["slow_reasons"][0]["reason"]
    # its fit is seen only when it returns: no count of updates it cannot know
    reason = doc["slow_reasons"][0]["reason"]
    assert "the fit did not return in 1 s" in reason and "(after " not in reason


def test_a_check_ends_at_its_time_limit_with_a_verdict(tmp_path: Path) -> None:
    code, out, err, seconds = _check(
        "--fit", f"{SLOW}:Heavy", "--time-limit", "3", "--json", "--out", str(tmp_path),
    )  # fmt: skip
    doc = json.loads(out)
    assert (code, doc["verdict"]) == (3, "inconclusive"), (code, err[-800:])
    assert any("time limit" in r for r in doc["inconclusive_reasons"]), doc
    assert seconds < 3 + 12, seconds  # the process's start-up and the report's share
