"""The harness's verdicts: a search that checked nothing (or too little) never passes,
and the variant's own exceptions are failures, never skipped cases."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from checking import budget, cli_budget

from pla_proof.cli import EXIT, main
from pla_proof.errors import OutsideDomain
from pla_proof.testing import check_variant
from pla_proof.variants import Case, Claim, LinearVariant, Record, Variant, search
from pla_proof.variants.checking import MAX_SKIPPED_SHARE, CheckReport, PropertyResult
from pla_proof.variants.protocol.variant import Order, hard_cases


class NothingInDomain(LinearVariant):
    """Declares every case outside its domain: nothing is ever checked."""

    name = "nothing-in-domain"

    def claim(self, case: Case) -> Claim:
        raise OutsideDomain("this variant needs d = 7")


class HalfInDomain(LinearVariant):
    """Skips every case with an odd number of points (about half of them)."""

    name = "half-in-domain"

    def claim(self, case: Case) -> Claim:
        if case.n % 2:
            raise OutsideDomain("odd n")
        return super().claim(case)


class NoPredictor(Variant):
    """A hand-written run that forgets to return its predictor."""

    name = "no-predictor"

    def cases(self) -> Any:
        return hard_cases()

    def run(self, case: Case, order: Order) -> Record:
        return Record()

    def claim(self, case: Case) -> Claim:
        return Claim()


class InputErrorInRun(LinearVariant):
    """Raises the library's own InputError from its step: a bug, not a skipped case."""

    name = "input-error-in-run"

    def step(self, w: Any, x: Any, y: int) -> Any:
        from pla_proof.errors import InputError

        raise InputError("my variant cannot do this")


class NeverUpdates(LinearVariant):
    """Starts at a separating w, so it never updates: G1, G2 ... are never evaluated."""

    name = "never-updates"

    def start(self, case: Case) -> list[Fraction]:
        return list(case.u)

    def claim(self, case: Case) -> Claim:
        return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu, end="SEP")


def test_a_search_where_every_case_is_skipped_is_not_a_pass() -> None:
    report = search(NothingInDomain(), seed=0, **budget(10))
    assert report.runs == 0 and report.skipped > 0
    assert not report.ok and report.status == "unchecked"
    assert report.unchecked == [f"no run was checked ({report.skipped} case(s) skipped)"]
    assert report.skip_reasons == {"this variant needs d = 7": report.skipped}


def test_a_search_skipping_more_than_the_stated_share_is_not_a_pass() -> None:
    report = search(HalfInDomain(), seed=0, **budget(20))
    assert report.runs > 0 and not report.failed
    assert report.skipped > MAX_SKIPPED_SHARE * (report.runs + report.skipped)
    assert report.status == "unchecked" and "cases were skipped" in report.unchecked[0]


def test_the_verdict_counts_the_share_exactly() -> None:
    def report(runs: int, skipped: int) -> CheckReport:
        r = CheckReport("v", 10, 0, runs=runs, skipped=skipped)
        r.properties = [PropertyResult("G1", "", "", runs=runs)]
        return r

    assert report(90, 10).ok  # exactly a tenth: still a verdict
    assert report(89, 11).status == "unchecked"
    assert report(1, 0).ok and report(0, 0).status == "unchecked"


def test_a_property_no_run_evaluated_is_not_a_pass() -> None:
    report = search(NeverUpdates(), seed=0, **budget(10))
    assert report.runs > 0 and not report.failed
    assert report.result("G1").runs == 0 and report.result("SEP").runs > 0
    assert report.status == "unchecked"
    assert report.unchecked == ["no run evaluated G1, G2, P_k, Q_k, L4"]


def test_no_predictor_fails_runs_instead_of_being_skipped() -> None:
    report = search(NoPredictor(), seed=0, **budget(5))
    assert report.skipped == 0 and report.runs > 0
    runs = report.result("RUNS")
    assert runs.counterexample is not None
    assert "returned no predictor" in runs.counterexample.failure.describe()


def test_an_input_error_from_the_variants_code_is_a_failure_not_a_skip() -> None:
    report = search(InputErrorInRun(), seed=0, **budget(5))
    assert report.skipped == 0
    runs = report.result("RUNS")
    assert runs.counterexample is not None
    assert "InputError: my variant cannot do this" in runs.counterexample.failure.describe()


def test_check_variant_raises_when_nothing_was_checked() -> None:
    with pytest.raises(AssertionError, match=r"nothing was checked -- no run was checked"):
        check_variant(NothingInDomain(), **budget(5))


def test_the_cli_exits_5_and_never_says_all_hold_when_nothing_was_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = f"{__file__}:NothingInDomain"
    code = main(["check", spec, "--out", str(tmp_path), "--jobs", "1", *cli_budget(5)])
    out = capsys.readouterr().out
    assert code == EXIT["unchecked"] == 5
    assert "properties of the claim hold" not in out
    assert "NOT CHECKED: no run was checked" in out
    assert "skipped" in out and "this variant needs d = 7" in out
    code = main(["check", spec, "--json", "--jobs", "1", *cli_budget(5)])
    doc = json.loads(capsys.readouterr().out)
    assert code == 5 and doc["ok"] is False and doc["verdict"] == "unchecked"
    assert doc["runs"] == 0 and doc["skipped"] > 0
    assert doc["skip_reasons"] == [{"reason": "this variant needs d = 7", "count": doc["skipped"]}]


def test_a_failure_wins_over_too_little_checked(capsys: pytest.CaptureFixture[str]) -> None:
    # a property with a counterexample exits 1 even if too many cases were skipped
    report = CheckReport("v", 10, 0, runs=1, skipped=50)
    from pla_proof.cli.check import exit_code

    assert exit_code([report]) == 5
    report.properties = [PropertyResult("G1", "", "", runs=1)]
    from pla_proof.variants.checking import Counterexample, Failure

    f = Failure("G1", 1, 0, 1, "<=", 0)
    case = Case(((Fraction(1),),), (1,), (Fraction(1),), Fraction(1))
    report.properties[0].counterexample = Counterexample(case, Order(), Record(), f)
    assert exit_code([report]) == 1 and report.status == "fail"


class OneDimensionalMargin(LinearVariant):
    """Subclasses a catalog variant and restricts its cases to d = 1; its step refuses
    anything else, so a fixed example outside the restriction would fail RUNS."""

    name = "one-dimensional-margin"

    def domain(self, base: Any) -> Any:
        return base.filter(lambda c: c.d == 1)

    def cases(self) -> Any:
        return self.domain(hard_cases(max_d=2))

    def step(self, w: Any, x: Any, y: int) -> Any:
        if len(x) != 1:
            raise ValueError("only d = 1")
        return [y * v for v in x]


class RestrictedSubclass(OneDimensionalMargin):
    """Restricts the parent's cases further, to one point: the parent's domain() no
    longer describes its cases, so no fixed example may come from it."""

    def cases(self) -> Any:
        return super().cases().filter(lambda c: c.n == 1)

    def step(self, w: Any, x: Any, y: int) -> Any:
        return [y * v for v in x]

    def claim(self, case: Case) -> Claim:
        if case.n != 1:
            raise ValueError("only one point")
        return super().claim(case)


def test_fixed_examples_stay_inside_a_restricted_domain() -> None:
    assert all(c.d == 1 for c in OneDimensionalMargin().examples())
    assert RestrictedSubclass().examples() == ()  # its domain is unknown: none
    for v in (OneDimensionalMargin(), RestrictedSubclass()):
        report = search(v, seed=0, **budget(10))
        assert report.ok, [
            p.counterexample and p.counterexample.failure.describe() for p in report.failed
        ]
