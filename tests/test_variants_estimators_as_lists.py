"""Code written for plain lists, given lists by behaviour
(``pla_proof.variants.estimators.as_lists``)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np

from pla_proof.variants.estimators.as_lists import AsLists
from pla_proof.variants.estimators.estimator import resolve_factory

FIT = Path(__file__).parent / "compat" / "fit"


def test_code_that_appends_to_its_points_is_given_lists() -> None:
    for name in ("AppendsOne", "prepends_one"):
        made = resolve_factory(f"{FIT / 'fit_lists_append.py'}:{name}")
        assert isinstance(made, AsLists), name
        assert isinstance(pickle.loads(pickle.dumps(made)), AsLists)


def test_the_class_given_lists_learns_what_it_learns_from_lists() -> None:
    made = resolve_factory(f"{FIT / 'fit_lists_append.py'}:AppendsOne")
    est = made()
    est.fit(np.array([[1.0, 0.0], [3.0, 0.0]]), np.array([-1, 1]))  # needs a bias
    assert [est.predict(x) for x in np.array([[1.0, 0.0], [3.0, 0.0]])] == [-1, 1]


def test_code_that_learns_from_arrays_is_left_alone() -> None:
    for spec in ("fit_origin_class.py:OriginPerceptron", "fit_budget_t.py:perceptron"):
        assert not isinstance(resolve_factory(str(FIT / spec)), AsLists), spec


def test_code_wrong_either_way_is_left_alone() -> None:
    # its mistake (the update subtracts) is no reason to give it lists: judged as given
    made = resolve_factory(f"{FIT / 'fit_lists_append.py'}:AppendsOneWrongSign")
    assert not isinstance(made, AsLists)


def test_a_deep_copy_of_an_object_given_lists_predicts_with_its_own_weights() -> None:
    import copy

    made = resolve_factory(f"{FIT / 'fit_lists_append.py'}:AppendsOne")
    est = made()
    est.fit(np.array([[1.0, 0.0], [3.0, 0.0]]), np.array([-1, 1]))
    twin = copy.deepcopy(est)
    twin.w = [0.0, 0.0, 0.0]  # (as a reading zeroes its copy to ask predict at 0)
    assert twin.predict(np.array([3.0, 0.0])) == -1 and est.predict(np.array([3.0, 0.0])) == 1


def test_a_class_that_loops_in_the_other_coding_is_not_given_lists_for_being_faster() -> None:
    """A 0/1 class given -1 labels runs its 100,000 rounds: on arrays past the probe's
    time, on lists (faster to index) within it.  That coding says nothing about lists:
    the other one, tried on arrays too, learns both probes (before: lists, and a false
    SEP on data that need its whole budget)."""
    made = resolve_factory(f"{FIT / 'fit_trainer_among_methods.py'}:StepLearnerEnough")
    assert not isinstance(made, AsLists)


def test_points_as_columns_are_given_the_transposed_matrix_and_rows_are_not() -> None:
    from pla_proof.variants.estimators.given import wrappers
    from pla_proof.variants.estimators.shapes import Transposed

    fit = Path(__file__).parent / "compat" / "fit"
    made = resolve_factory(f"{fit / 'fit_points_as_columns.py'}:columns_perceptron")
    assert isinstance(made, Transposed)
    w, b, _ = made(np.array([[2.0, 1.0], [-2.0, -1.0]]), np.array([1, -1]))
    assert list(w) == [2.0, 1.0] and b == 1.0
    rows = resolve_factory(f"{fit / 'fit_origin_function.py'}:perceptron_origin")
    assert not any(isinstance(w, Transposed) for w in wrappers(rows))


def test_two_sets_of_points_are_found_in_their_order() -> None:
    from pla_proof.variants.estimators.shapes import TwoSets

    fit = Path(__file__).parent / "compat" / "fit" / "fit_two_sets.py"
    for name, first in (("train_sets", True), ("train_negatives_first", False)):
        made = resolve_factory(f"{fit}:{name}")
        assert isinstance(made, TwoSets) and made.positive_first is first, name
        w, b = made(np.array([[2.0], [-2.0]]), np.array([1, -1]))
        assert w[0] * 2 + b > 0 > w[0] * -2 + b
    # one point of one class: the other set is empty, whatever the label coding
    sizes = TwoSets(lambda p, n: (len(p), len(n)), positive_first=True)
    assert sizes(np.zeros((1, 2)), np.array([-1])) == (0, 1)
    assert sizes(np.zeros((1, 2)), np.array([0])) == (0, 1)
    assert sizes(np.zeros((1, 2)), np.array([1])) == (1, 0)


def test_a_probe_that_hangs_in_both_codings_does_not_hide_the_next() -> None:
    from pla_proof.variants.estimators.reading import probes_learned

    probes = [(np.zeros((2, 1)), np.array([1, -1]))] * 3
    seen: list[int] = []

    def learns(X: Any, Y: Any, y: Any) -> bool:
        seen.append(len(seen))
        if len(seen) <= 2:  # the first probe: both codings hang
            while True:
                pass
        return True

    assert probes_learned(probes, learns, 0.2) == {1, 2}

    def never(X: Any, Y: Any, y: Any) -> bool:
        while True:
            pass

    assert probes_learned(probes, never, 0.1) == set()  # two probes hung: no more time
