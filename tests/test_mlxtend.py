"""mlxtend's Perceptron (from the package index) through the fit(X, y) adapter."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("mlxtend")

from checking import budget
from mlxtend.classifier import Perceptron

from pla_proof.testing import check_estimator
from pla_proof.variants import search
from pla_proof.variants.estimators.estimator import Estimator, mlxtend_tracer


def traced(epochs: int = 50) -> Estimator:
    # mlxtend moves by eta (y - prediction) = 2 eta y: the step size is 2 eta
    return Estimator(
        lambda: Perceptron(eta=0.1, epochs=epochs, random_seed=1),
        name="mlxtend",
        trace=mlxtend_tracer,
        rate=0.2,
    )


def test_every_update_obeys_the_generic_lemma_from_its_random_start() -> None:
    report = search(traced(), seed=0, mode="float", **budget(10))
    for prop in ("G1", "G2", "P_k", "Q_k", "L4", "T"):
        assert report.result(prop).ok, prop


def test_a_fixed_epoch_count_is_reported_as_its_epoch_budget() -> None:
    # epochs=5 stops before separating data that need more passes: that is the budget
    # (EPOCHS, with the budget used and one that works), not a wrong stopping rule
    report = search(traced(epochs=5), seed=0, mode="float", **budget(15, 60))
    epochs = report.result("EPOCHS")
    assert not epochs.ok and epochs.counterexample is not None
    text = epochs.counterexample.failure.describe()
    assert "epoch budget (epochs = 5)" in text and "rerun with --epochs" in text
    assert epochs.counterexample.case.n <= 4
    assert report.result("STOP").ok and report.result("PREDICT").ok
    with pytest.raises(AssertionError, match="EPOCHS fails"):
        check_estimator(
            lambda: Perceptron(eta=0.1, epochs=5, random_seed=1),
            trace=mlxtend_tracer,
            rate=0.2,
            **budget(10, 20),
        )


def test_a_score_of_exactly_zero_counts_as_the_positive_class() -> None:
    clf = Perceptron(epochs=1, random_seed=1).fit(np.array([[1.0], [-1.0]]), np.array([1, 0]))
    clf.w_[:] = 0.0
    clf.b_[:] = 0.0
    assert clf.predict(np.array([[5.0], [-5.0]])).tolist() == [1, 1]


def test_labels_are_detected_as_zero_one() -> None:
    assert traced().labels() == "01"
