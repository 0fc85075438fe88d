"""The property suite fails on broken trainers and shrinks to a small counterexample.

Each test runs one of the suite's own properties (``properties/``) against a
deliberately broken trainer and checks that Hypothesis (a) finds a failure and
(b) shrinks it to a tiny data set -- the minimal example a user would be shown.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, find, given, settings

from pla_proof.strategies import SeparableCase, separable_datasets, update_orders
from pla_proof.testing.profiles import NO_EXPLAIN
from pla_proof.trainer import train
from properties._support import CASES, SEEDS
from properties.test_runtime_lemmas_hold import check_runtime_lemmas
from properties.test_termination_within_the_bound import check_stops_within_the_bound

SEARCH = settings(
    max_examples=300,
    database=None,
    derandomize=True,
    deadline=None,
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow],
    phases=NO_EXPLAIN,  # explaining traces every line (sys.settrace): minutes, not seconds
)

#: Plain generated data (no edge-case branches): the same properties, quicker to shrink.
SIMPLE = separable_datasets(max_n=6, max_d=3, kind=None, margin=None, max_bound=2000)


def plus_x(w: Any, x: Any, y: int) -> list[Any]:
    """The classic slip: w + x instead of w + y x."""
    return [a + b for a, b in zip(w, x, strict=True)]


def double_step(w: Any, x: Any, y: int) -> list[Any]:
    """w + 2 y x: the monitor's progress identity L1 (pu1 = pu + yux) fails."""
    return [a + 2 * y * b for a, b in zip(w, x, strict=True)]


def shrunk_failure(check: Callable[..., Any], trainer: Any, cases: Any = CASES) -> SeparableCase:
    """Run ``check`` as a property with ``trainer``; return the shrunk failing case."""
    failing: list[SeparableCase] = []

    @SEARCH
    @given(case=cases, order=update_orders(), seed=SEEDS)
    def prop(case: SeparableCase, order: Any, seed: int) -> None:
        try:
            check(case, order, seed, trainer=trainer)
        except AssertionError:
            failing.append(case)
            raise

    with pytest.raises(AssertionError):
        prop()
    assert failing, "the property never failed"
    return failing[-1]  # Hypothesis replays the shrunk example last


def _small(case: SeparableCase) -> bool:
    """One point in one dimension (the smallest data set there is)."""
    return case.data.n == 1 and case.data.d == 1


def test_invariant_property_catches_plus_x_update_and_shrinks_to_one_point() -> None:
    broken = functools.partial(train, update=plus_x)
    case = shrunk_failure(check_runtime_lemmas, broken, SIMPLE)
    # A single negative point in one dimension is the whole story: w + x moves away.
    assert _small(case) and case.data.y == (-1,), case


def test_invariant_property_catches_a_doubled_step() -> None:
    broken = functools.partial(train, update=double_step)
    case = shrunk_failure(check_runtime_lemmas, broken, SIMPLE)
    assert _small(case), case


def test_termination_property_catches_a_strict_trigger() -> None:
    """Updating only when y w.x < 0 never moves from w = 0, which separates nothing."""
    broken = functools.partial(train, trigger=lambda margin: margin < 0)
    case = shrunk_failure(check_stops_within_the_bound, broken, SIMPLE)
    assert _small(case), case


def test_find_shrinks_the_plus_x_bug_to_a_single_negative_point() -> None:
    """The same bug through ``hypothesis.find``: the minimal data set it fails on."""
    case = find(
        separable_datasets(),
        lambda c: train(c.data, comparator=c.u, update=plus_x, budget=50).status != "converged",
        # Hypothesis's own defaults, whatever profile is loaded: the same search everywhere
        settings=settings(
            settings.get_profile("default"), database=None, derandomize=True, phases=NO_EXPLAIN
        ),
    )
    assert case.data.n == 1 and case.data.d == 1 and case.data.y == (-1,)
    assert ((Fraction(-1),),) == case.data.X


def test_the_correct_trainer_passes_the_same_properties() -> None:
    """Control: the unbroken trainer passes the properties used above."""

    @settings(SEARCH, max_examples=100)
    @given(case=CASES, order=update_orders(), seed=SEEDS)
    def prop(case: SeparableCase, order: Any, seed: int) -> None:
        check_runtime_lemmas(case, order, seed)
        check_stops_within_the_bound(case, order, seed)

    prop()
