"""An epoch budget under any name (pla_proof.variants.estimators.budget): found by what
it does -- an attribute, a keyword of fit(), a module constant, a function's parameter
-- never a seed or a rate; --epochs reaches it; too small a budget is EPOCHS alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from checking import budget

from pla_proof.errors import InputError
from pla_proof.testing import check_estimator
from pla_proof.variants.boundary import import_user_module
from pla_proof.variants.estimators import read, read_function
from pla_proof.variants.estimators.budget import Knob, knob_candidates, with_budget

B = import_user_module(
    str(Path(__file__).parent / "fixtures" / "fit_behaviour.py"), "fit_behaviour"
)


@pytest.mark.parametrize(
    ("impl", "knob"),
    [
        (B.Origin, Knob("attribute", "passes", 1000, known=False)),
        (B.Constant, Knob("global", "EPOCHS", 500, known=False)),
        (B.FitKeyword, Knob("fit", "max_epoch", 2000, known=False)),
    ],
)
def test_a_class_budget_is_found_by_its_behaviour(impl: Any, knob: Knob) -> None:
    r = read(impl)
    assert r.budget_knob == knob
    assert f"epoch budget {knob.describe()}" in r.describe()


@pytest.mark.parametrize(
    ("function", "name"),
    [(B.train_origin, "T"), (B.train_with_count, "nIterations")],
)
def test_a_function_parameter_is_found_by_its_behaviour(function: Any, name: str) -> None:
    assert read_function(function).budget == (name, 1000)


def test_a_seed_or_a_rate_is_not_a_budget() -> None:
    # FitKeyword's seed is an integer attribute that changes nothing, and the module
    # constant its base class reads is not read by its own fit(): neither is taken
    candidates = knob_candidates(B.FitKeyword(), (), frozenset())
    assert [k.name for k in candidates][:3] == ["seed", "max_epoch", "EPOCHS"]
    # then the number of fit() calls, and the integers in its code
    assert candidates[3].kind == "calls"
    assert all(k.kind == "literal" for k in candidates[4:])
    assert read(B.FitKeyword).budget_knob.name == "max_epoch"  # type: ignore[union-attr]


def test_a_knob_is_set_where_it_lives() -> None:
    est = with_budget(B.Constant(), Knob("global", "EPOCHS", 500, known=False), 1)
    est.fit(*_long())
    assert B.EPOCHS == 500  # the module constant is restored after the fit
    est = with_budget(B.FitKeyword(), Knob("fit", "max_epoch", 2000, known=False), 1)
    est.fit(*_long())
    assert sum(est.w != 0) > 0  # one update made, no more


def test_epochs_reaches_the_knob_found_and_a_class_without_one_is_told() -> None:
    assert read(B.Constant, epochs=7).budget == ("EPOCHS", 7)
    assert read_function(B.train_origin, epochs=9).budget == ("T", 9)
    with pytest.raises(InputError, match="no epoch budget found"):
        read(B.OriginUntilDone, epochs=5, limit=0.5)
    assert "no epoch budget found" in read(B.OriginUntilDone, limit=0.5).describe()


def test_a_budget_too_small_under_an_unknown_name_is_epochs_alone() -> None:
    report = check_estimator(B.FewPasses, expect_failure="EPOCHS", **budget(10)).report
    failing = {p.id for p in report.properties if not p.ok}
    assert failing == {"EPOCHS"}


def _long() -> tuple[Any, Any]:
    from pla_proof.variants.estimators.budget import LONG_X, LONG_Y

    return LONG_X, LONG_Y


def test_a_default_argument_of_a_helper_is_a_knob_set_while_fit_runs() -> None:
    r = read(B.HelperOnePass)
    assert r.budget_knob == Knob("default", "passes", 1, known=False, owner="_passes")
    assert "(a default argument of _passes())" in r.describe()
    est = with_budget(B.HelperOnePass(), r.budget_knob, 5000)
    est.fit(*_long())
    assert B.HelperOnePass._passes.__defaults__ == (1,)  # put back after the fit
    assert (est.predict(_long()[0]) == _long()[1]).all()
    report = check_estimator(B.HelperOnePass, expect_failure="EPOCHS", **budget(10)).report
    assert {p.id for p in report.properties if not p.ok} == {"EPOCHS"}


def test_a_function_whose_unknown_budget_is_too_small_to_read_is_read_with_it_raised() -> None:
    r = read_function(B.train_two_passes)
    assert r.returns == "(w, b)" and r.budget == ("passes", 2) and r.probe is None
    report = check_estimator(B.train_two_passes, expect_failure="EPOCHS", **budget(10)).report
    assert {p.id for p in report.properties if not p.ok} == {"EPOCHS"}


def test_a_budget_written_into_the_code_is_a_literal_knob_set_while_fit_runs() -> None:
    r = read(B.CappedByLiteral)
    knob = Knob("literal", "the literal 3 in fit()", 3, known=False, owner="fit")
    assert r.budget_knob == knob
    assert "epoch budget the literal 3 in fit() = 3, found by its behaviour" in r.describe()
    est = with_budget(B.CappedByLiteral(), knob, 5000)
    est.fit(*_long())
    assert (est.predict(_long()[0]) == _long()[1]).all()
    assert 3 in B.CappedByLiteral.fit.__code__.co_consts  # the code put back after the fit
    report = check_estimator(B.CappedByLiteral, expect_failure="EPOCHS", **budget(10)).report
    assert {p.id for p in report.properties if not p.ok} == {"EPOCHS"}


def test_a_loop_condition_of_a_training_function_is_its_budget() -> None:
    r = read_function(B.train_literal_cap)
    assert r.budget == ("the literal 1000 in train_literal_cap()", 1000)
    assert read_function(B.train_literal_cap, epochs=7).budget[1] == 7  # type: ignore[index]


def _one_pass(goes_on: bool) -> Any:
    """A fit of one pass (bias last); ``goes_on``: from the weights the last call left."""
    import numpy as np

    class OnePass:
        theta: Any = None

        def fit(self, X: Any, y: Any) -> Any:
            Z = np.hstack([X, np.ones((len(X), 1))])
            if self.theta is None or not goes_on:
                self.theta = np.zeros(Z.shape[1])
            for z, t in zip(Z, y, strict=True):
                if t * (z @ self.theta) <= 0:
                    self.theta = self.theta + t * z
            return self

        def predict(self, X: Any) -> Any:
            return np.where(np.hstack([X, np.ones((len(X), 1))]) @ self.theta > 0, 1, -1)

    return OnePass


def test_the_calls_of_a_fit_that_goes_on_are_its_budget() -> None:
    r = read(_one_pass(goes_on=True))
    assert r.budget_knob == Knob("calls", "fit() calls", 1, known=False)
    est = with_budget(_one_pass(goes_on=True)(), r.budget_knob, 30)
    X, y = _long()
    assert est.fit(X, y).predict(X).tolist() == y.tolist()  # 30 passes: settled (25 needed)


def test_a_fit_that_starts_over_at_each_call_has_no_calls_budget() -> None:
    assert read(_one_pass(goes_on=False)).budget_knob is None


class _Counted:
    """A broken class (its update subtracts) that counts the passes its fits make."""

    passes = 0

    def __init__(self, rounds: int = 1000) -> None:
        self.rounds = rounds

    def fit(self, X: Any, y: Any) -> _Counted:
        import numpy as np

        self.w, self.b = np.zeros(X.shape[1]), 0.0
        for _ in range(self.rounds):
            type(self).passes += 1
            for x, t in zip(X, y, strict=True):
                if t * (x @ self.w + self.b) <= 0:
                    self.w, self.b = self.w - t * x, self.b - t
        return self

    def predict(self, X: Any) -> Any:
        return [1 if x @ self.w + self.b > 0 else -1 for x in X]


def test_knobs_that_cannot_be_why_the_probe_is_mispredicted_are_not_raised() -> None:
    """It mispredicts the 8-point probe with 1000 rounds, which the algorithm settles in
    a few passes: its rounds are not raised to 5000, and its fit starts over at each call,
    so it is not called 200 times as a fit of one pass that goes on would be."""
    _Counted.passes = 0
    r = read(_Counted)
    assert r.probe is not None and r.budget is None
    assert _Counted.passes < 20_000  # (before: 5000 rounds and 200 calls of 1000 rounds)


def test_a_budget_of_a_fit_that_never_learns_is_found_by_the_work_it_does() -> None:
    """Raised from 1 to LARGE, a named knob of a fit that mispredicts the long probe
    either way is its budget only where the fit then takes many times as long; a rate
    (the same work), a literal in the code and the work criterion not asked for are
    not."""
    from pla_proof.variants.estimators.budget import LARGE, Knob, find_knob

    def wrong(knob: Knob, value: int) -> int:
        return 3  # it never learns the probe

    epochs = Knob("fit", "epochs_t", 1, False)
    rate = Knob("attribute", "rate", 1, False)
    literal = Knob("literal", "the literal 7 in fit()", 7, False, "fit")

    def work(knob: Knob, value: int) -> float:
        return 1e-4 * value if knob.name != "rate" else 0.01

    assert find_knob([rate, epochs], wrong, work) == epochs
    assert find_knob([rate], wrong, work) is None
    assert find_knob([literal], wrong, work) is None
    assert find_knob([epochs], wrong) is None  # (only for a declared output)
    assert work(epochs, LARGE) >= 20 * work(epochs, 1)


def test_a_declared_voted_class_that_never_learns_gets_its_budget_and_fails_predict() -> None:
    """A vote that gives every vector one vote and a budget under a name the reading
    does not know (``rounds``): the budget is found by the work its fit does, and the
    vote fails PREDICT given passes enough."""
    import numpy as np

    from pla_proof.variants.estimators.estimator import Estimator

    class OneVoteEach:
        def __init__(self, rounds: int = 1) -> None:
            self.rounds = rounds

        def fit(self, X: Any, y: Any) -> Any:
            Xa = np.hstack([X, np.ones((len(X), 1))])
            self.V = [np.zeros(Xa.shape[1])]
            for _ in range(self.rounds):
                for xi, yi in zip(Xa, y, strict=True):
                    self.V.append(self.V[-1] + yi * xi)  # every visit, not only mistakes
            return self

        def predict(self, X: Any) -> Any:
            Xa = np.hstack([X, np.ones((len(X), 1))])
            return np.where(np.sign(Xa @ np.array(self.V).T).sum(axis=1) > 0, 1, -1)

    v = Estimator(OneVoteEach, output="voted")
    assert v.reading.budget == ("rounds", 1)
    assert "PREDICT" in v.extra_properties
    check_estimator(OneVoteEach, output="voted", expect_failure="PREDICT", **budget(5, 10))
