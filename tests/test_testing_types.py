"""``st.from_type`` for the library's types, through the ``hypothesis`` entry point."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pla_proof.data import Dataset
from pla_proof.monitor import Comparator
from pla_proof.strategies import HypothesisChooser, NonSeparableCase, SeparableCase
from pla_proof.testing.types import MAX_BOUND
from pla_proof.trainer import Certificate, train

QUICK = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@QUICK
@given(case=st.from_type(SeparableCase), order=st.from_type(HypothesisChooser))
def test_separable_cases_converge_within_the_default_budget(
    case: SeparableCase, order: HypothesisChooser
) -> None:
    assert case.gamma > 0 and case.bound <= MAX_BOUND
    run = train(case.data, rule=order, comparator=case.u)
    assert run.status == "converged" and run.updates <= case.bound


@QUICK
@given(case=st.from_type(NonSeparableCase), cert=st.from_type(Certificate))
def test_non_separable_cases_and_certificates_verify(
    case: NonSeparableCase, cert: Certificate
) -> None:
    assert case.certificate().verify(case.data)
    assert any(a > 0 for a in cert.alpha) and all(a >= 0 for a in cert.alpha)


@QUICK
@given(data=st.from_type(Dataset), comparator=st.from_type(Comparator))
def test_datasets_and_comparators(data: Dataset, comparator: Comparator) -> None:
    assert data.n >= 1 and len(data.y) == data.n
    assert comparator.gamma > 0


def test_annotations_are_enough() -> None:
    @QUICK
    @given(st.builds(lambda d: d, st.from_type(Dataset)))
    def inner(d: Dataset) -> None:
        assert isinstance(d, Dataset)

    inner()


def test_both_entry_points_are_declared() -> None:
    groups = {
        g: {e.name: e.value for e in importlib.metadata.entry_points(group=g)}
        for g in ("hypothesis", "pytest11")
    }
    assert groups["hypothesis"]["pla_proof"] == "_pla_proof_hypothesis:setup_hook"
    assert groups["pytest11"]["pla_proof"] == "pla_proof.testing.plugin"


SCRIPT = """
import sys
import hypothesis
light = "pla_proof" not in sys.modules
from hypothesis import find, strategies as st
from pla_proof.data import Dataset
print(light, find(st.from_type(Dataset), lambda d: d.n >= 2).n)
"""


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
        check=False,
    )


def test_import_hypothesis_stays_light_and_registers_once_pla_proof_is_imported() -> None:
    done = _run({})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "2"]


def test_pla_proof_strategies_may_be_the_first_import() -> None:
    """``pla_proof.strategies`` imports Hypothesis, whose entry point registers strategies
    from ``pla_proof.strategies``: the registration waits for the module to finish (it
    was an ImportError of a partially initialised module)."""
    done = subprocess.run(
        [sys.executable, "-c", FIRST],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "2"]


FIRST = """
import sys
from pla_proof.strategies import separable_datasets
from hypothesis import find, strategies as st
from pla_proof.data import Dataset
print(callable(separable_datasets), find(st.from_type(Dataset), lambda d: d.n >= 2).n)
"""


def test_without_the_entry_point_from_type_cannot_build_a_dataset() -> None:
    """The registration is what makes it work: Hypothesis's own inference from the
    constructor's annotations cannot build a valid data set."""
    done = _run({"HYPOTHESIS_NO_PLUGINS": "1"})
    assert done.returncode != 0 and done.stdout == ""
    assert "InvalidArgument" in done.stderr or "InputError" in done.stderr
