"""fit(X, y) classes in the common shapes, checked for real: a correct one passes, its
broken twin fails with the property that names the mistake, and an epoch budget is
reported as a budget."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from checking import budget, cli_budget

from pla_proof.cli import main
from pla_proof.examples import perceptrons as P
from pla_proof.testing import check_estimator
from pla_proof.variants import search
from pla_proof.variants.estimators.estimator import Estimator

SHAPES = "pla_proof.examples.perceptrons"


def failing(report: Any) -> set[str]:
    return {p.id for p in report.failed}


@pytest.mark.parametrize("shape", ["Scratch", "SignPerceptron", "ThetaPerceptron"])
def test_a_correct_class_in_each_shape_passes(shape: str) -> None:
    report = check_estimator(getattr(P, shape), **budget(20)).report
    assert report.ok and report.runs > 0
    end = "SEP0" if shape == "Scratch" else "SEP"  # the claim its own sign(0) makes
    assert report.result(end).runs > 0


def test_the_textbook_class_reports_its_budget_and_passes_with_a_larger_one() -> None:
    report = search(Estimator(P.Textbook, name="textbook"), seed=0, **budget(20))
    assert failing(report) == {"EPOCHS"}  # not SEP0, PREDICT or STOP: a budget
    ce = report.result("EPOCHS").counterexample
    assert ce is not None
    text = ce.failure.describe()
    assert "epoch budget (n_iter = 10)" in text and "rerun with --epochs" in text
    assert "the classic algorithm (cyclic, on (x, 1)) needs" in text
    assert check_estimator(P.Textbook, epochs=1000, **budget(20)).ok


@pytest.mark.parametrize(
    ("twin", "prop", "never"),
    [
        ("TextbookUpdateSign", "SEP0", "EPOCHS"),  # no budget makes it separate
        ("TextbookBiasUpdate", "SEP0", None),
        ("ScratchLabelCoding", "PREDICT", None),
    ],
)
def test_each_broken_twin_fails_with_the_property_of_its_mistake(
    twin: str, prop: str, never: str | None
) -> None:
    report = check_estimator(getattr(P, twin), epochs=50, expect_failure=prop, **budget(20))
    assert prop in failing(report.report)
    if never is not None:
        assert never not in failing(report.report)


def test_the_two_common_shapes_are_checked_for_real_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = ["--out", str(tmp_path), "--jobs", "1", "--json", *cli_budget(20)]
    code = main(["check", "--fit", f"{SHAPES}:Textbook", *out])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1 and doc["runs"] > 0 and doc["verdict"] == "fail"
    assert [p["id"] for p in doc["properties"] if p["status"] == "fail"] == ["EPOCHS"]
    assert doc["reading"].startswith("weights w_[1:], bias w_[0]")
    replay = next(p for p in doc["properties"] if p["id"] == "EPOCHS")["counterexample"]
    assert replay["check"].startswith(f"pla-proof check --fit {SHAPES}:Textbook --replay ")
    assert main(["check", "--fit", f"{SHAPES}:Textbook", "--epochs", "1000", *out]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] and doc["runs"] > 0
    code = main(["check", "--fit", f"{SHAPES}:Scratch", *out])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["runs"] > 0 and doc["skipped"] == 0
    ids = [p["id"] for p in doc["properties"]]
    assert "SEP0" in ids and "SEP" not in ids  # its own coding and sign(0) = +1
