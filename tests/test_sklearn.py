"""scikit-learn's Perceptron as a real client of the harness."""

from __future__ import annotations

import os
import warnings
from fractions import Fraction as F

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")

from checking import budget  # noqa: E402
from sklearn.linear_model import Perceptron  # noqa: E402

from pla_proof.data import read_csv  # noqa: E402
from pla_proof.trainer import train  # noqa: E402
from pla_proof.variants import Case, Order, resolve, run_case, search  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "sklearn_default_stops_early.csv")


def test_traced_sklearn_obeys_every_invariant_through_the_adapter() -> None:
    report = search(resolve("sklearn-perceptron"), seed=0, **budget(10))
    assert report.ok, [
        p.counterexample.failure.describe() for p in report.failed if p.counterexample
    ]
    assert {"G1", "G2", "P_k", "Q_k", "T", "SEP", "PREDICT", "STOP"} <= {
        p.id for p in report.properties
    }


def test_check_estimator_on_scikit_learn() -> None:
    from pla_proof.testing import check_estimator

    exact = check_estimator(lambda: Perceptron(eta0=1.0, penalty=None, tol=None), **budget(10))
    assert exact.ok
    # the defaults' stopping rule is caught by STOP on generated data (final checks
    # only: no per-update trace needed for it)
    check_estimator(Perceptron, trace=None, expect_failure="STOP", **budget(100, 30))


def test_sklearn_updates_at_margin_exactly_zero() -> None:
    # at w = 0, b = 0 every point has y p = 0: sklearn updates (trigger y p <= 0), like the PLA
    clf = Perceptron(eta0=1.0)
    clf.partial_fit(np.array([[1.0, 2.0]]), np.array([1]), classes=np.array([-1, 1]))
    assert clf.coef_.tolist() == [[1.0, 2.0]] and clf.intercept_.tolist() == [1.0]
    # and predict maps a decision value of exactly 0 to classes_[0] = -1
    zero = Perceptron().fit(np.array([[1.0], [-1.0]]), np.array([1, -1]))
    zero.coef_[:] = 0.0
    zero.intercept_[:] = 0.0
    assert zero.predict(np.array([[5.0]])).tolist() == [-1]


def test_fit_without_tolerance_equals_the_cyclic_pla_on_the_fixture() -> None:
    data = read_csv(FIXTURE).with_bias("separate")
    run = train(data, rule="cyclic")
    X, y = read_csv(FIXTURE).as_float()
    clf = Perceptron(shuffle=False, tol=None, max_iter=1000).fit(X, y)
    w = (*(F(float(v)) for v in clf.coef_[0]), F(float(clf.intercept_[0])))
    assert run.status == "converged" and w == run.w
    assert clf.score(X, y) == 1.0


def test_default_stopping_rule_stops_before_separating_the_fixture() -> None:
    data = read_csv(FIXTURE)
    X, y = data.as_float()
    assert train(data.with_bias("separate")).status == "converged"  # separable
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = Perceptron().fit(X, y)  # every default: tol=1e-3, n_iter_no_change=5
    assert clf.n_iter_ < clf.max_iter  # it stopped on its own (no convergence warning)
    assert clf.score(X, y) < 1.0  # with a training point misclassified


def test_harness_reports_the_failed_final_separation() -> None:
    data = read_csv(FIXTURE)
    case = Case(data.X, data.y, (F(1),), F(1), {"theta": F(3), "c": F(1)}, "fixture")
    _, res = run_case(resolve("sklearn-default"), case, Order("cyclic"))
    assert res["SEP"] is not None and res["STOP"] is not None and res["PREDICT"] is not None
    assert "no warning" in res["STOP"].describe()
