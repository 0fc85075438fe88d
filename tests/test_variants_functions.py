"""Training functions, ``perceptron(X, y, ...) -> w | (w, b) | (b, w)``: read by shape and
by the training points (never by name), checked like classes -- a correct one passes, a
broken twin fails with the property of its mistake, a function that cannot be called
with (X, y) is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from checking import budget, cli_budget

from pla_proof.cli import main
from pla_proof.errors import InputError
from pla_proof.testing import check_estimator
from pla_proof.variants.estimators.estimator import Estimator
from pla_proof.variants.estimators.functions import is_training_function, read_function

FIXTURES = Path(__file__).parent / "fixtures" / "fit_shapes.py"
COMPAT = Path(__file__).parent / "compat" / "training_function.py"


def shapes(path: Path = FIXTURES) -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


F = shapes()


@pytest.mark.parametrize(
    ("name", "returns", "labels", "end", "budget"),
    [
        ("perceptron", "(w, b)", (-1, 1), "SEP", ("max_iter", 1000)),
        ("perceptron_bw", "(b, w)", (-1, 1), "SEP", ("max_iter", 1000)),
        ("perceptron_lists", "(w, b)", (-1, 1), "SEP", None),
        ("train_weights", "(b, w) in one vector", (0, 1), "SEP0", ("n_epoch", 1000)),
        ("dual_perceptron", "(alpha (w = sum_i alpha_i y_i x_i), b)", (-1, 1), "SEP", None),
    ],
)
def test_each_returned_shape_is_read_by_shape_and_training_points(
    name: str, returns: str, labels: tuple[int, int], end: str, budget: Any
) -> None:
    r = read_function(getattr(F, name))
    assert (r.returns, r.fit_labels, r.end, r.budget, r.probe) == (
        returns,
        labels,
        end,
        budget,
        None,
    )
    assert r.describe().startswith(f"a training function returning {returns};")


def test_the_label_coding_is_the_one_whose_weights_settle() -> None:
    # given -1/+1 its weights classify the probes but still change with more epochs: not
    # its coding; given 0/1 they settle
    assert read_function(F.drifting_with_pm1).fit_labels == (0, 1)
    assert read_function(F.drifting_with_pm1, labels="pm1").fit_labels == (-1, 1)
    assert read_function(F.perceptron).fit_labels == (-1, 1)


def test_bias_says_where_the_bias_is_and_a_wrong_one_is_a_verdict() -> None:
    assert read_function(F.perceptron_bw, bias="first").returns == "(b, w)"
    with pytest.raises(InputError, match=r"returned \(np.float64.*\(with --bias last\)"):
        read_function(F.perceptron_bw, bias="last")  # (scalar, vector) has no bias last
    # --bias none: the theorem's own setting, every probe and case through the origin
    r = read_function(F.perceptron, bias="none")
    assert r.returns == "(w, _)" and r.origin and r.probe is None
    assert "through the origin (no bias)" in r.describe()
    with pytest.raises(InputError, match=r"--bias first, last or none"):
        read_function(F.perceptron, bias="intercept_")


def test_a_function_that_needs_more_than_x_and_y_is_refused_naming_its_parameters() -> None:
    with pytest.raises(InputError, match=r"3 required parameter\(s\) \(X, y, eta\)"):
        is_training_function(F.needs_eta)
    assert is_training_function(F.perceptron) and not is_training_function(F.CoefWrongSign)
    assert not is_training_function(lambda: F.CoefWrongSign())  # a factory


def test_a_correct_training_function_passes() -> None:
    report = check_estimator(F.perceptron, **budget(20)).report
    assert report.ok and report.runs > 0
    assert report.result("SEP").runs > 0 and report.result("EPOCHS").runs > 0
    assert {p.id for p in report.properties} == {"RUNS", "ENDS", "SEP", "EPOCHS"}


@pytest.mark.parametrize(
    ("name", "prop"),
    [("perceptron_wrong_sign", "SEP"), ("perceptron_few_epochs", "EPOCHS")],
)
def test_each_broken_function_fails_with_the_property_of_its_mistake(name: str, prop: str) -> None:
    report = check_estimator(getattr(F, name), expect_failure=prop, **budget(10, 30)).report
    if prop == "EPOCHS":  # a budget, never a wrong update: the larger budget's fit separates
        assert {p.id for p in report.failed} == {"EPOCHS"}
        text = report.result("EPOCHS").counterexample.failure.describe()  # type: ignore[union-attr]
        assert "perceptron_few_epochs() stopped on its epoch budget (max_iter = 5)" in text


def test_a_function_that_returns_the_wrong_length_in_a_run_is_the_users_error() -> None:
    report = check_estimator(F.perceptron_extra_weight, expect_failure="RUNS", **budget(10, 20))
    text = report.report.result("RUNS").counterexample.failure.describe()  # type: ignore[union-attr]
    assert "perceptron_extra_weight() returned" in text and "(at fit_shapes.py:" in text
    assert "(read as (w, b)); expected" in text


def test_a_probe_the_function_gets_wrong_is_checked_first_not_refused() -> None:
    v = Estimator(F.perceptron_wrong_sign)
    assert v.reading.probe is not None and v.examples()[0].name == "probe"
    assert Estimator(F.perceptron).examples()[0].name != "probe"


def test_the_cli_says_how_it_read_the_function_and_checks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = ["--out", str(tmp_path), "--jobs", "1", "--json", *cli_budget(20)]
    assert main(["check", "--fit", f"{COMPAT}:variant", *out]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["reading"].startswith("a training function returning (w, b);")
    assert doc["ok"] and doc["runs"] > 0
    assert main(["check", "--fit", f"{COMPAT}:broken", *out]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert [p["id"] for p in doc["properties"] if p["status"] == "fail"] == ["SEP"]


def test_the_cli_refuses_what_a_function_cannot_take_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for extra in (
        ["--fit", f"{FIXTURES}:needs_eta"],
        ["--fit", f"{COMPAT}:variant", "--weights", "w"],
    ):
        assert main(["check", *extra, "--out", str(tmp_path)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and ("eta" in err[0] or "--weights does not apply" in err[0])


# --- reading by behaviour -------------------------------------------------------------------

B = shapes(FIXTURES.parent / "fit_behaviour.py")


def test_a_function_with_no_bias_is_read_through_the_origin() -> None:
    r = read_function(B.train_origin)
    assert (r.returns, r.origin, r.probe) == ("w", True, None)
    assert "through the origin (no bias)" in r.describe()


def test_extra_returned_values_are_not_taken_for_a_bias() -> None:
    # (w, accuracy_per_pass, converged_at): the sentinel -1 classifies the first two
    # probes as a "bias", not the third, whose bias is positive
    r = read_function(B.train_with_history)
    assert (r.returns, r.bias, r.origin) == ("(w, _, _)", None, True)
    # (w, b, updates): the count is not the bias, b is
    r = read_function(B.train_with_count)
    assert (r.returns, r.origin) == ("(w, b, _)", False)


def test_a_bias_frozen_at_zero_is_a_bias_not_a_function_through_the_origin() -> None:
    r = read_function(COMPAT_MODULE.broken)
    assert not r.origin and r.probe is not None and r.returns == "(w, b)"


def test_functions_through_the_origin_and_with_extra_values_pass_their_check() -> None:
    for f in (B.train_origin, B.train_with_history, B.train_with_count):
        report = check_estimator(f, **budget(10)).report
        assert report.ok and report.runs > 0, f.__name__


COMPAT_MODULE = shapes(COMPAT)


def test_a_function_that_raises_on_the_probe_is_read_where_it_runs() -> None:
    # five mistake slots (homework data had five points): IndexError on the 8-point
    # probe -- what it returns is read on two-point probes, its error stays the finding
    small = shapes(Path(__file__).parent / "compat" / "fit" / "fit_broken_small_only.py")
    r = read_function(small.train_five_slots)
    assert r.returns == "(w, b)" and not r.origin
    assert r.probe is not None and "IndexError" in r.probe


def test_sign_0_is_read_at_the_zero_point_from_a_random_start() -> None:
    step = shapes(Path(__file__).parent / "compat" / "fit" / "fit_step_positive.py")
    assert read_function(step.train_random_start).end == "SEP0"  # score >= 0 is class 1
    assert read_function(step.train_step).end == "SEP0N"  # score > 0 (from zero)
