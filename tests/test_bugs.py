"""Every seeded bug is caught by the expected property with a small counterexample --
under the ci profile with a small search budget (``tests/checking.py``), under
thorough with the command's defaults."""

from __future__ import annotations

import pytest
from checking import budget

from pla_proof.variants import search
from pla_proof.variants.catalog.bugs import BUGS

#: bugs that only hard data show (non-integer, beyond 32/64 bits, long runs, d > 4)
HIDDEN = ["integer-weights", "int32-weights", "int64-score", "max-iter-100", "unrolled-dot"]


@pytest.mark.parametrize("name", list(BUGS))
def test_seeded_bug_is_caught_by_the_expected_property(name: str) -> None:
    bug = BUGS[name]
    report = search(bug.variant(), seed=0, first_only=True, **budget(10, 100))
    assert report.caught_by == bug.expected, report.caught_by
    ce = report.result(bug.expected).counterexample
    assert ce is not None
    assert ce.case.n <= bug.max_points, ce.case
    assert not ce.explicit or ce.case.n <= 3


def test_at_least_twelve_bugs_and_the_issue_list_is_covered() -> None:
    required = {
        "plus-x", "strict-trigger", "doubled-update", "bias-wrong-sign", "positive-only",
        "skip-first-update", "bound-minus-one", "radius-before-augmentation", "one-epoch",
        "margin-classic-bound", "kernel-not-psd", "averaged-separates",
    }  # fmt: skip
    assert required <= set(BUGS) and len(BUGS) >= 12
    assert set(HIDDEN) <= set(BUGS)


def test_a_full_check_reports_every_consequence_of_a_bug() -> None:
    report = search(BUGS["plus-x"].variant(), seed=0, **budget(10, 50))
    assert not report.ok
    assert {"G2", "P_k"} <= {p.id for p in report.failed}
