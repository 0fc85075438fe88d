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


class HalfStepLists:
    """Correct, in pure Python lists, no budget: ``sign(0) = 0`` and the update
    ``rate (y - sign) x / 2`` -- a half step from 0, a whole one after (the shape of
    list-based course code)."""

    def __init__(self, rate: float = 1.0) -> None:
        self.rate = rate
        self.weights: list[float] = []
        self.bias = 0.0

    def _net(self, row: list[float]) -> float:
        return sum(w * x for w, x in zip(self.weights, row, strict=True)) + self.bias

    def fit(self, X: Any, y: Any) -> Any:
        rows = [[float(v) for v in r] for r in X]
        self.weights, self.bias = [0.0] * len(rows[0]), 0.0
        while True:
            mistakes = 0
            for row, t in zip(rows, [int(v) for v in y], strict=True):
                net = self._net(row)
                err = t - ((net > 0) - (net < 0))
                if err:
                    mistakes += 1
                    self.weights = [
                        w + self.rate * err * x / 2 for w, x in zip(self.weights, row, strict=True)
                    ]
                    self.bias += self.rate * err / 2
            if not mistakes:
                return self

    def predict(self, X: Any) -> Any:
        return [1 if self._net([float(v) for v in r]) > 0 else -1 for r in X]


def _tiny(e: F) -> Any:
    """``(2e) y=+1; (-e) y=-1`` with a bias: the classic algorithm on ``(x, 1)`` cancels
    the bias exactly and settles in 2 updates; the theorem allows about ``1/e^2``."""
    from pla_proof.variants.protocol.variant import Case

    return Case(((2 * e,), (-e,)), (1, -1), (F(1),), e, {"theta": F(0)}, "tiny")


def test_steps_of_another_size_where_the_classic_algorithm_settles_at_once_are_slow() -> None:
    """A half step from 0 never cancels the bias that the classic algorithm cancels in two
    updates: the bias swings between +1/2 and -1/2 while the weights grow by about e an
    update, some 10^11 updates here -- correct, slow.  It failed ENDS ("a loop that never
    ends?") before; now a case is easy only where the theorem allows few updates too."""
    from pla_proof.variants.estimators.estimator import Estimator

    rec, res = run_case(Estimator(HalfStepLists), _tiny(F(1, 10**6)), Order("cyclic"), limit=0.5)
    assert _failures(res) == {}, _failures(res)
    assert rec.inconclusive is not None and "slow, not wrong" in rec.inconclusive
    assert "settles this case in 2 update(s)" in rec.inconclusive, rec.inconclusive
    assert "the theorem allows about 1e+12 update(s)" in rec.inconclusive, rec.inconclusive
    # on a case it settles fast, it is judged as any other: SEP and the rest hold
    rec, res = run_case(Estimator(HalfStepLists), _tiny(F(1, 2)), Order("cyclic"), limit=5)
    assert _failures(res) == {} and not rec.inconclusive, (res, rec.inconclusive)


def test_what_a_never_ending_loop_costs_the_new_rule() -> None:
    """The price, stated: a loop that never ends on a case whose theorem bound is large is
    no longer told from a slow one there (inconclusive); on a case where the theorem
    allows few updates it still fails ENDS, and the search shrinks toward such cases."""
    from pla_proof.variants.checking.slow import EASY_BOUND, theorem_bound, timed_out

    tiny = _tiny(F(1, 10**6))
    assert (theorem_bound(tiny) or 0) > EASY_BOUND
    prop, message = timed_out(tiny, Order("cyclic"), None, None, "no result after 5 s")
    assert prop == "" and "slow, not wrong" in message
    _, res = run_case(Forever(), EASY, Order("cyclic"), limit=0.3)
    assert list(_failures(res)) == ["ENDS"] and "the theorem allows 3" in _failures(res)["ENDS"]
