"""The checker's teeth: hard data, honest verdicts, float mode, parallel shards."""

from __future__ import annotations

import contextlib
import re
import signal
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from checking import budget, cli_budget
from float_variants import Float32Weights, FloatRate, RoundedWeights
from hypothesis import strategies as st

from pla_proof.cli import main
from pla_proof.numbers import dot
from pla_proof.variants import (
    Case,
    Claim,
    LinearVariant,
    Measure,
    Record,
    Variant,
    resolve,
    search,
)
from pla_proof.variants.checking import RunTimeout, run_case, time_limit
from pla_proof.variants.protocol.variant import Order


class RaisesOnDecimals(LinearVariant):
    """Raises on a non-integer coordinate, and differently on a negative label."""

    name = "raises"

    def step(self, w: Any, x: Any, y: int) -> Any:
        if any(Fraction(v).denominator != 1 for v in x):
            raise ValueError("cannot handle a fraction\nsecond line")
        if y < 0:
            raise KeyError("negative label")
        return [y * v for v in x]


class NeverEnds(LinearVariant):
    name = "never-ends"

    def step(self, w: Any, x: Any, y: int) -> Any:
        while True:
            pass


class WithRate(LinearVariant):
    """A user variant whose domain adds a parameter: the fixed examples get it too."""

    name = "with-rate"

    def domain(self, base: Any) -> Any:
        return st.tuples(base, st.sampled_from([Fraction(1, 2), Fraction(3)])).map(
            lambda t: Case(t[0].X, t[0].y, t[0].u, t[0].gamma, {"eta": t[1]}, t[0].name)
        )

    def eta(self, case: Case) -> Fraction:
        return Fraction(case.params["eta"])

    def claim(self, case: Case) -> Claim:
        e = case.params["eta"]
        return Claim(C=e * e * case.radius_squared, g=e * case.gamma, uu=case.uu)


def test_an_exception_fails_runs_with_one_line_per_cause() -> None:
    report = search(RaisesOnDecimals(), seed=0, **budget(30, 100))
    runs = report.result("RUNS")
    assert not runs.ok and runs.counterexample is not None
    messages = [
        runs.counterexample.failure.describe(),
        *(o.failure.describe() for o in runs.others),
    ]
    assert any("ValueError: cannot handle a fraction (at" in m for m in messages)
    assert any("KeyError" in m for m in messages)  # a second, distinct cause
    assert all("\n" not in m for m in messages)
    assert runs.counterexample.case.n <= 2


def test_the_cli_prints_no_traceback_for_a_raising_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = f"{__file__}:RaisesOnDecimals"
    assert main(["check", spec, *cli_budget(10, 30), "--jobs", "1", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr()
    assert "RUNS       FAIL" in out.out and "Traceback" not in out.out + out.err


def test_a_loop_that_never_returns_fails_ends() -> None:
    report = search(NeverEnds(), examples=2, seed=0, limit=0.3)
    ends = report.result("ENDS")
    assert not ends.ok and ends.counterexample is not None
    assert "no update for 0.3 s (after 0 update(s))" in ends.counterexample.failure.describe()


class SlowSteps(LinearVariant):
    """Takes 0.1 s per update: slow, but never stuck."""

    name = "slow-steps"

    def step(self, w: Any, x: Any, y: int) -> Any:
        time.sleep(0.1)
        return [y * v for v in x]


class UpdatesForever(Variant):
    """Keeps adding updates that satisfy every per-update property and never returns."""

    name = "updates-forever"

    def cases(self) -> Any:
        return st.just(Case(((Fraction(1),),), (1,), (Fraction(1),), Fraction(1)))

    def claim(self, case: Case) -> Claim:
        return Claim(C=Fraction(1), g=Fraction(1), uu=Fraction(1), bound=10**9)

    def run(self, case: Case, order: Order) -> Record:
        rec, k = Record(), 0
        while True:
            k += 1
            rec.add(Measure(k, 0, Fraction(k - 1), Fraction(k - 1), Fraction(k), 0, 0))


def test_a_slow_run_that_keeps_updating_is_not_a_run_that_never_ends() -> None:
    one, zero = Fraction(1), Fraction(0)
    X = tuple(tuple(one if i == j else zero for j in range(4)) for i in range(4))
    case = Case(X, (1,) * 4, (one,) * 4, one)  # x_i = e_i: 4 updates, 0.4 s in all
    rec, res = run_case(SlowSteps(), case, Order("first"), limit=0.3)
    assert res["ENDS"] is None and rec.updates == 4


def test_a_run_that_updates_forever_still_ends_at_the_total_limit() -> None:
    case = Case(((Fraction(1),),), (1,), (Fraction(1),), Fraction(1))
    start = time.monotonic()
    _, res = run_case(UpdatesForever(), case, Order("cyclic"), limit=0.5)
    assert res["ENDS"] is not None and "no result after 5 s" in res["ENDS"].describe()
    assert time.monotonic() - start < 10


def test_slow_evaluation_of_updates_is_not_a_stalled_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # On a loaded machine the harness's own evaluation of a chunk of updates can take
    # longer than the per-run limit: that is not the variant standing still.
    from pla_proof.variants.protocol.claim import Evaluation

    real = Evaluation._feed_steps

    def slow(self: Evaluation, *args: Any) -> int | None:
        time.sleep(0.7)
        return real(self, *args)

    monkeypatch.setattr(Evaluation, "_feed_steps", slow)
    case = Case(((Fraction(1),),), (1,), (Fraction(1),), Fraction(1))
    _, res = run_case(UpdatesForever(), case, Order("cyclic"), limit=0.5)
    assert res["ENDS"] is not None
    assert "no result after 5 s" in res["ENDS"].describe(), res["ENDS"].describe()


@pytest.mark.parametrize("spec", ["sys:exit", "os:getcwd", "no_such_module_q:thing"])
def test_bad_variant_specs_exit_2(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", spec]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_fixed_examples_run_in_the_variants_domain() -> None:
    v = WithRate()
    ex = v.examples()
    assert ex and all("eta" in c.params for c in ex)
    assert {c.name for c in ex} >= {"orthonormal:3-xbeyond-int64", "long-run"}
    assert search(v, **budget(10)).ok


def test_the_default_data_are_hard() -> None:
    seen: list[Case] = []
    from hypothesis import given, settings

    @settings(max_examples=300, database=None, derandomize=True, deadline=None)
    @given(resolve("classic").cases())
    def collect(c: Case) -> None:
        seen.append(c)

    collect()
    coords = [abs(v) for c in seen for x in c.X for v in x if v]
    assert any(v.denominator % 10 == 0 for v in coords)  # decimals
    assert max(coords) > 2**63 and min(coords) < Fraction(1, 10**6)
    assert max(c.d for c in seen) >= 5 and max(c.n for c in seen) >= 10
    assert any(len(set(c.y)) == 1 for c in seen)


def test_float_mode_passes_a_correct_float_implementation_that_exact_mode_refutes() -> None:
    assert search(FloatRate(), mode="float", **budget(20)).ok
    assert not search(FloatRate(), mode="exact", first_only=True, **budget(20, 20)).ok


@pytest.mark.parametrize("variant", [Float32Weights(), RoundedWeights()])
def test_float_mode_still_refutes_float32_and_rounded_weights(variant: LinearVariant) -> None:
    report = search(variant, mode="float", **budget(20, 50))
    assert not report.result("G2").ok
    assert report.max_missed >= 0.0


def test_float_mode_refuses_nothing_on_the_compiled_catalog() -> None:
    for name in ("classic", "learning-rate", "margin"):
        assert search(resolve(name), mode="float", **budget(10)).ok, name


def test_parallel_shards_give_the_serial_report() -> None:
    v = resolve("bug:plus-x")
    one = search(v, seed=3, jobs=1, **budget(10, 30))
    two = search(v, seed=3, jobs=2, **budget(10, 30))
    assert [p.id for p in one.failed] == [p.id for p in two.failed]
    for a, b in zip(one.failed, two.failed, strict=True):
        assert a.counterexample is not None and b.counterexample is not None
        assert a.counterexample.case == b.counterexample.case
        assert a.counterexample.failure.describe() == b.counterexample.failure.describe()


def test_sep0_is_decided_by_the_harness_from_the_returned_weights() -> None:
    F = Fraction
    case = Case(((F(1),), (F(3),)), (1, 1), (F(1),), F(1), {"theta": F(0), "c": F(1)})
    rec, res = run_case(resolve("seed004-listing"), case, Order("cyclic"))
    assert res["SEP0"] is None and rec.updates == 0
    _, res = run_case(resolve("bug:seed004-strict"), case, Order("cyclic"))
    assert res["SEP"] is not None


def test_sep0n_takes_a_score_of_0_as_the_negative_class() -> None:
    from pla_proof.variants.checking import end_condition
    from pla_proof.variants.protocol.variant import Record

    F = Fraction
    case = Case(((F(0),), (F(1),)), (-1, 1), (F(1),), F(1), {})
    at_zero = Record()
    at_zero.output.update(w=(F(1),), b=F(0))  # the negative point at a score of 0
    assert end_condition(resolve("classic"), case, "SEP0N", at_zero) is None
    assert end_condition(resolve("classic"), case, "SEP", at_zero) is not None
    flipped = Case(case.X, (1, -1), (F(-1),), F(1), {})  # now the positive one is at 0
    failure = end_condition(resolve("classic"), flipped, "SEP0N", at_zero)
    assert failure is not None and failure.prop == "SEP0N"


def test_campaign_reports_examples_per_property(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "check",
                "classic",
                "--minutes",
                "0.05",
                "--examples",
                "10",
                "--jobs",
                "1",
                "--out",
                "/tmp/pla-campaign",
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "round 1]" in err and "examples run per property: classic: RUNS" in err
    # a round starts only while a round as long as the last still fits in the 3 s budget
    ends = [0.0] + [float(m) for m in re.findall(r"\[\s*([0-9.]+) s, round \d+\]", err)]
    for j in range(2, len(ends)):  # round j started at ends[j-1]
        assert ends[j - 1] + (ends[j - 1] - ends[j - 2]) <= 3.0 + 0.2, err


def test_the_per_run_time_limit_puts_back_an_outer_timer() -> None:
    """``time_limit`` shares SIGALRM with other timers (pytest-timeout's, say): on exit
    it disarms its own, ignores a late signal and re-arms the outer one with what it had
    left, so the outer limit still goes off."""
    fired: list[int] = []
    old = signal.signal(signal.SIGALRM, lambda *_: fired.append(1))
    saved = signal.setitimer(signal.ITIMER_REAL, 0.6)
    try:
        for _ in range(20):
            with contextlib.suppress(RunTimeout), time_limit(0.002):
                t = time.monotonic()
                while time.monotonic() - t < 0.004:
                    pass
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 0.0 < left < 0.6 and not fired, (left, fired)
        t = time.monotonic()
        while not fired and time.monotonic() - t < 5:
            time.sleep(0.01)
        assert fired == [1]
    finally:
        signal.setitimer(signal.ITIMER_REAL, *saved)
        signal.signal(signal.SIGALRM, old)


class DoubleRate(LinearVariant):
    """A declared rule (no Python steps): the compiled loop runs it."""

    name = "double-rate"

    def eta(self, case: Case) -> Fraction:
        return Fraction(2)


def test_a_declared_variant_past_float64s_range_runs_exactly() -> None:
    """Weights past 1e308 leave the compiled loop's float filter: the rule runs again on
    the exact per-step path and makes the updates it makes on the same data scaled down."""

    def case(scale: Fraction) -> Case:
        d = 4
        X = tuple(tuple(scale if j == i else Fraction(0) for j in range(d)) for i in range(d))
        X += (tuple(-scale / 2 for _ in range(d)),)
        y = (1,) * d + (-1,)
        u = (Fraction(1),) * d
        gamma = min(yi * dot(u, x) for x, yi in zip(X, y, strict=True))
        return Case(X, y, u, gamma)

    big, small = case(Fraction(17 * 10**307)), case(Fraction(17))
    rec_big, res_big = run_case(DoubleRate(), big, Order("cyclic"))
    rec_small, res_small = run_case(DoubleRate(), small, Order("cyclic"))
    assert res_big["RUNS"] is None and rec_big.status == "converged"
    assert rec_big.choices == rec_small.choices and rec_big.updates == 4
    # eta = 2 breaks the classic claim's |w|^2 <= k R^2 at any scale
    assert {p for p, f in res_big.items() if f} == {p for p, f in res_small.items() if f} != set()
