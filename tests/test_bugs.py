"""Every seeded bug is caught by the expected property with a small counterexample."""

from __future__ import annotations

import pytest

from pla_proof.variants import search
from pla_proof.variants.bugs import BUGS

HIDDEN = ["integer-weights", "int32-weights", "int64-score", "max-iter-100", "unrolled-dot"]


@pytest.mark.parametrize("name", [b for b in BUGS if b not in HIDDEN])
def test_seeded_bug_is_caught_by_the_expected_property(name: str) -> None:
    bug = BUGS[name]
    report = search(bug.variant(), examples=50, seed=0, first_only=True)
    assert report.caught_by == bug.expected, report.caught_by
    ce = report.result(bug.expected).counterexample
    assert ce is not None
    assert ce.case.n <= bug.max_points, ce.case
    assert not ce.explicit or ce.case.n <= 3


@pytest.mark.parametrize("name", HIDDEN)
def test_bugs_hidden_by_small_integer_data_are_caught_at_the_default_settings(name: str) -> None:
    bug = BUGS[name]
    report = search(bug.variant(), seed=0, first_only=True)  # the default: 200 examples
    assert report.caught_by == bug.expected
    ce = report.result(bug.expected).counterexample
    assert ce is not None and ce.case.n <= bug.max_points


def test_at_least_twelve_bugs_and_the_issue_list_is_covered() -> None:
    required = {
        "plus-x", "strict-trigger", "doubled-update", "bias-wrong-sign", "positive-only",
        "skip-first-update", "bound-minus-one", "radius-before-augmentation", "one-epoch",
        "margin-classic-bound", "kernel-not-psd", "averaged-separates",
    }  # fmt: skip
    assert required <= set(BUGS) and len(BUGS) >= 12


def test_a_full_check_reports_every_consequence_of_a_bug() -> None:
    report = search(BUGS["plus-x"].variant(), examples=30, seed=0)
    assert not report.ok
    assert {"G2", "P_k"} <= {p.id for p in report.failed}
