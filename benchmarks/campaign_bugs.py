"""Properties with a bug to find: what ``bench_campaign.py`` gives both search tools.

Written like the property suite (``properties/``), but each property checks something
broken, from easy to hard (measured with plain Hypothesis, random seeds, one core):

* ``test_a_plus_x_trainer_keeps_every_runtime_lemma`` -- the trainer updates ``w + x``
  instead of ``w + y x`` (``tests/test_properties_catch_bugs.py``'s bug): fails on the
  2nd example;
* ``test_seeded_bug_pocket_no_ratchet_keeps_its_claim`` and
  ``test_seeded_bug_averaged_separates_keeps_its_claim`` -- two seeded bugs of
  :mod:`pla_proof.variants.catalog.bugs`, each run through the variant harness's own check of
  every property of its claim: 4-53 and 4-263 examples;
* ``test_after_one_update_a_run_needs_at_most_three_quarters_of_the_bound`` -- a wrong,
  *sharper* theorem: no run of two or more updates needs more than 3/4 of Novikoff's
  bound, i.e. ``k gamma^2 / R^2 <= 3/4``.  Only near-worst-case data refute it; with the
  suite's targeted search (``hypothesis.target`` on ``k gamma^2 / R^2``) plain
  Hypothesis refuted it after 867-3167 test cases (shrinking included, four seeds).

Not collected by ``pytest`` (``benchmarks/`` is not a test path): they fail by design.
"""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import given, target
from hypothesis import strategies as st

from pla_proof.strategies import SeparableCase, separable_datasets, update_orders
from pla_proof.trainer import train
from pla_proof.variants.catalog.bugs import BUGS
from pla_proof.variants.checking import run_case
from pla_proof.variants.protocol.variant import Case, Order
from properties._support import CASES, SEEDS
from properties.test_runtime_lemmas_hold import check_runtime_lemmas

#: The label of the targeted score, as the property suite's targeted search uses it.
SCORE = "k gamma^2 / R^2 (runs of >= 2 updates)"
#: The data of the suite's targeted search (properties/test_termination_within_the_bound.py).
NEAR_THE_BOUND = separable_datasets(
    min_n=2, max_n=6, min_d=2, max_d=4, max_coord=6, kind=None, margin=None, max_bound=400
)


def plus_x(w: Any, x: Any, y: int) -> list[Any]:
    """The classic slip: ``w + x`` instead of ``w + y x``."""
    return [a + b for a, b in zip(w, x, strict=True)]


@given(case=CASES, order=update_orders(), seed=SEEDS)
def test_a_plus_x_trainer_keeps_every_runtime_lemma(
    case: SeparableCase, order: Any, seed: int
) -> None:
    check_runtime_lemmas(case, order, seed, trainer=functools.partial(train, update=plus_x))


def _claim_holds(bug: str, example: tuple[Case, Order]) -> None:
    case, order = example
    _, results = run_case(BUGS[bug].variant(), case, order)
    failed = {p: f.describe() for p, f in results.items() if f is not None}
    assert not failed, failed


_POCKET = BUGS["pocket-no-ratchet"].variant()
_AVERAGED = BUGS["averaged-separates"].variant()


@given(example=st.tuples(_POCKET.cases(), _POCKET.orders()))
def test_seeded_bug_pocket_no_ratchet_keeps_its_claim(example: tuple[Case, Order]) -> None:
    _claim_holds("pocket-no-ratchet", example)


@given(example=st.tuples(_AVERAGED.cases(), _AVERAGED.orders()))
def test_seeded_bug_averaged_separates_keeps_its_claim(example: tuple[Case, Order]) -> None:
    _claim_holds("averaged-separates", example)


@given(case=NEAR_THE_BOUND, order=update_orders(), seed=SEEDS)
def test_after_one_update_a_run_needs_at_most_three_quarters_of_the_bound(
    case: SeparableCase, order: Any, seed: int
) -> None:
    run = train(case.data, rule=order, seed=seed, comparator=case.u)
    assert run.status == "converged"
    ratio = run.updates / case.bound  # = k gamma^2 / R^2 for the unit comparator u/|u|
    target(float(ratio if run.updates >= 2 else 0), label=SCORE)
    assert run.updates < 2 or ratio <= 0.75, f"k = {run.updates}, bound = {case.bound}"
