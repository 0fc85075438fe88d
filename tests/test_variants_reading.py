"""Reading fit(X, y) implementations as people write them: every shape is read
correctly (a dual class with the linear kernel through its coefficients); one whose
weights cannot be read is checked through predict() alone; a reading that is named but
wrong, or ambiguous while the probe fit is right, is refused, naming the options."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pla_proof.cli import main
from pla_proof.errors import InputError
from pla_proof.examples import perceptrons as P
from pla_proof.variants.estimators.reading import Reading, read


def load(path: Path) -> Any:
    """A test file of classes and functions in the shapes people write (by path)."""
    spec = importlib.util.spec_from_file_location(f"_shapes_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


F = load(Path(__file__).parent / "fixtures" / "fit_shapes.py")
KernelPerceptron = load(Path(__file__).parent / "compat" / "kernel_class.py").variant


def fields(r: Reading) -> tuple[Any, ...]:
    return (r.weights, r.bias, r.fit_labels, r.negative, r.zero, r.end, r.budget)


@pytest.mark.parametrize(
    ("factory", "expected"),
    [
        (P.Textbook, ("w_", "first", (-1, 1), -1, 1, "SEP0", ("n_iter", 10))),
        (P.Scratch, ("weights", "bias", (0, 1), 0, 1, "SEP0", ("n_iters", 1000))),
        (P.SignPerceptron, ("w", "b", (-1, 1), -1, 0, "SEP", ("max_iter", 1000))),
        (P.ThetaPerceptron, ("theta", "first", (-1, 1), -1, -1, "SEP", ("epochs", 500))),
    ],
)
def test_each_common_shape_is_read_as_written(factory: Any, expected: tuple[Any, ...]) -> None:
    assert fields(read(factory)) == expected


def test_scikit_learn_and_mlxtend_are_read_as_written() -> None:
    pytest.importorskip("sklearn")
    pytest.importorskip("mlxtend")
    from mlxtend.classifier import Perceptron as Mlxtend
    from sklearn.linear_model import Perceptron

    sk = read(Perceptron)
    assert fields(sk) == ("coef_", "intercept_", (-1, 1), -1, -1, "SEP", ("max_iter", 1000))
    ml = read(lambda: Mlxtend(eta=0.1, epochs=50, random_seed=1))
    # mlxtend refuses -1/+1 labels: fit is given 0/1, and a score of 0 predicts 1
    assert fields(ml) == ("w_", "b_", (0, 1), 0, 1, "SEP0", ("epochs", 50))


def test_the_reading_decodes_and_encodes_labels_in_the_models_coding() -> None:
    r = read(P.Scratch)
    assert r.encode([-1, 1]).tolist() == [0, 1]  # it answers 0/1: given 0/1
    assert r.decode(np.array([0, 1, 1])) == [-1, 1, 1]
    s = read(P.SignPerceptron)
    assert s.decode(np.array([-1.0, 0.0, 1.0])) == [-1, 0, 1]  # np.sign's 0: neither


def test_epochs_sets_the_budget_the_reading_finds() -> None:
    assert read(P.Textbook, epochs=500).budget == ("n_iter", 500)


class Hidden:
    """Keeps its weights under a name no reader can guess, in a dict."""

    def fit(self, X: Any, y: Any) -> Any:
        self.state = {"v": np.linalg.lstsq(np.c_[X, np.ones(len(X))], y, rcond=None)[0]}
        return self

    def predict(self, X: Any) -> Any:
        return np.where(np.c_[X, np.ones(len(X))] @ self.state["v"] >= 0, 1, -1)


class Flipped(P.SignPerceptron):
    """Its predict answers the opposite of its weights."""

    def predict(self, X: Any) -> Any:
        return -np.sign(X @ self.w + self.b)


class OtherVector(P.SignPerceptron):
    """Keeps the last weights in ``w`` but predicts with another vector, ``w_avg``."""

    def fit(self, X: Any, y: Any) -> Any:
        super().fit(X, y)  # type: ignore[no-untyped-call]  # (the examples are untyped)
        self.w_avg = self.w * np.array([1.0, 0.5, 2.0])
        self.b_avg = self.b
        return self

    def predict(self, X: Any) -> Any:
        return np.sign(X @ self.w_avg + self.b_avg)


class TwoVectors(P.SignPerceptron):
    """Predicts with ``w_avg``, which differs from ``w`` too little for any probe point
    to tell them apart."""

    def fit(self, X: Any, y: Any) -> Any:
        super().fit(X, y)  # type: ignore[no-untyped-call]
        self.w_avg = self.w + np.array([0.0, 0.0, 1e-6])
        self.b_avg = self.b
        return self

    def predict(self, X: Any) -> Any:
        return np.sign(X @ self.w_avg + self.b_avg)


class Refuses:
    def fit(self, X: Any, y: Any) -> Any:
        raise RuntimeError("not today")

    def predict(self, X: Any) -> Any:
        return np.zeros(len(X))


class Strings(P.SignPerceptron):
    def predict(self, X: Any) -> Any:
        return np.where(super().predict(X) > 0, "yes", "no")  # type: ignore[no-untyped-call]


def test_weights_that_cannot_be_found_leave_predict_alone_to_check() -> None:
    r = read(Hidden)  # no weights anywhere: predict() is checked, the end claim is not
    assert r.predict_only is not None and r.end is None and r.probe is None
    assert "no attribute holds d or d + 1 numbers" in r.predict_only
    assert r.describe().startswith("predict() only (")
    assert "the end claim (SEP on the weights) unchecked" in r.describe()
    with pytest.raises(InputError, match=r"cannot find the fitted weights.*--weights ATTR"):
        read(Hidden, weights="v")  # named but not there: refused, naming the option


def test_weights_that_disagree_with_predict_leave_predict_alone_to_check() -> None:
    r = read(Flipped)  # its predict() mispredicts the probe: a verdict, not a refusal
    assert r.predict_only is not None and "do not give" not in r.predict_only
    assert "no weights found give its predict()'s answers: w/b: at (" in r.predict_only
    assert r.probe is not None and "mispredicts 8 of its 8" in r.probe
    with pytest.raises(
        InputError, match=r"do not give the model's own predict\(\) answers.*--bias first"
    ):
        read(Flipped, weights="w")  # named: refused
    # named in full, the reading is taken as given (and the check's READ property judges it)
    assert read(Flipped, weights="w", bias="b").weights == "w"


def test_coef_and_intercept_follow_scikit_learns_convention_before_alternatives() -> None:
    # coef_ alone (no bias) also gives predict()'s answers on the probe: no ambiguity
    r = read(F.CoefWrongSign)
    assert (r.weights, r.bias, r.predict_only) == ("coef_", "intercept_", None)
    assert r.probe is not None  # its probe fit mispredicts: the check starts there


def test_a_dual_class_with_the_linear_kernel_is_read_through_its_coefficients() -> None:
    r = read(F.DualPerceptron)
    assert (r.dual, r.bias, r.end, r.predict_only) == (("a", "y", "X"), "b", "SEP", None)
    assert r.describe().startswith("weights sum_i a[i] y[i] X[i] (dual coefficients")
    est = F.DualPerceptron().fit(np.array([[2.0, 1.0], [-1.0, -2.0]]), np.array([1, -1]))
    w, b = r.predictor(est)  # w = sum_i a_i y_i x_i exactly: a = (1, 0), b = 1
    assert (w, b) == ([2, 1], 1)


def test_a_kernel_class_is_read_through_predict_alone() -> None:
    r = read(KernelPerceptron)
    assert r.predict_only is not None and r.end is None
    assert "sum_i alpha[i] y_[i] X_[i]" in r.predict_only  # tried, with the linear kernel
    assert "(with the linear kernel)" in r.predict_only


def test_the_vector_predict_uses_is_found_among_several() -> None:
    assert fields(read(OtherVector))[:2] == ("w_avg", "b")  # b_avg == b: both verify


def test_two_different_predictors_that_both_fit_the_probe_are_ambiguous() -> None:
    # w_avg is a different predictor from w that answers alike on every probe point
    with pytest.raises(InputError, match=r"ambiguous weights: w/b and w_avg/b .*--weights"):
        read(TwoVectors)
    assert fields(read(TwoVectors, weights="w_avg", bias="b_avg"))[:2] == ("w_avg", "b_avg")


def test_unusable_implementations_are_refused_in_one_line() -> None:
    # a fit that raises on valid data is a finding (RUNS), not a refusal
    refuses = read(Refuses)
    assert refuses.probe is not None and "RuntimeError: not today" in refuses.probe
    with pytest.raises(InputError, match=r"predict\(\) answers .*'yes'"):
        read(Strings)
    with pytest.raises(InputError, match=r"no epoch budget found"):
        read(Hidden, epochs=10)


def test_the_cli_refuses_a_named_reading_that_fails_with_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["check", "--fit", f"{__file__}:Flipped", "--weights", "w", "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "--weights ATTR and --bias" in err[0] and "Flipped" in err[0]
    assert main(["check", "classic", "--weights", "w"]) == 2
    assert "only apply to --fit" in capsys.readouterr().err


# --- reading by behaviour: no bias term ----------------------------------------------------

B = load(Path(__file__).parent / "fixtures" / "fit_behaviour.py")


def test_a_class_with_no_bias_is_read_through_the_origin() -> None:
    r = read(B.Origin)
    assert (r.weights, r.bias, r.origin, r.probe) == ("w", None, True, None)
    assert "weights w, through the origin (no bias)" in r.describe()
    # a class with a bias is not: the probe needs one, and it has one
    assert not read(P.SignPerceptron).origin


def test_a_class_that_never_returns_on_data_that_need_a_bias_is_read_through_the_origin() -> None:
    r = read(B.OriginUntilDone, limit=0.5)
    assert r.origin and r.bias is None and r.probe is None


def test_bias_none_probes_through_the_origin() -> None:
    r = read(B.Origin, bias="none")
    assert r.origin and r.probe is None


def test_a_through_origin_class_is_given_data_separable_through_the_origin_only() -> None:
    from hypothesis import given, settings

    from pla_proof.variants.estimators import Estimator

    v = Estimator(B.Origin)
    assert all(c.params.get("theta", 0) == 0 for c in v.examples())

    @settings(max_examples=60, database=None, deadline=None)
    @given(v.cases())
    def through_origin(case: Any) -> None:
        assert case.params.get("theta", 0) == 0

    through_origin()


def test_a_class_that_answers_0_1_is_trained_in_0_1_though_it_takes_pm1() -> None:
    r = read(B.ZeroOne)
    assert (r.fit_labels, r.negative) == ((0, 1), 0)
    assert "fit given 0/1, predict answers 0/1" in r.describe()
    assert read(B.ZeroOne, labels="pm1").fit_labels == (-1, 1)  # as the user says


def test_a_class_that_stops_with_a_negative_point_at_0_claims_sep0n() -> None:
    # sign(0) = -1 and no update there: its own predictor is right, SEP would be a
    # false alarm; a class that updates on y (w.x + b) <= 0 keeps the strict claim
    assert read(B.ZeroOne).end == "SEP0N"
    assert read(P.ThetaPerceptron).end == "SEP" and read(B.Origin).end == "SEP"


def test_a_fit_that_raises_on_valid_data_is_a_finding_not_a_refusal() -> None:
    from pla_proof.testing import check_estimator

    r = read(B.IntWeights)
    assert r.predict_only is not None and r.probe is not None
    assert "UFuncTypeError" in r.probe
    check_estimator(B.IntWeights, expect_failure="RUNS", examples=5, shrink_runs=20)


def test_a_predict_of_one_point_is_asked_point_by_point_on_a_square_matrix() -> None:
    from pla_proof.variants.estimators.reading import answers_of

    class OnePoint:
        w = np.array([1.0, 0.0])

        def predict(self, x: Any) -> Any:  # np.dot(w, X) on a matrix: the wrong axis
            return np.sign(np.dot(self.w, x))

    X = np.array([[1.0, 2.0], [-3.0, 4.0]])  # square: np.dot(w, X) = (1, 2), no error
    assert [int(a) for a in OnePoint().predict(X)] == [1, 1]  # (its answers to X at once)
    assert [int(a) for a in answers_of(OnePoint(), X)] == [1, -1]


def test_a_predict_of_matrices_keeps_its_answers_on_a_square_matrix() -> None:
    from pla_proof.variants.estimators.reading import answers_of

    class Rows:
        def predict(self, X: Any) -> Any:
            return np.where(np.asarray(X) @ np.array([1.0, 0.0]) > 0, 1, -1)

    X = np.array([[1.0, 2.0], [-3.0, 4.0]])
    assert [int(a) for a in answers_of(Rows(), X)] == [1, -1]


class _Private:
    """Correct, its weights and bias name-mangled (``self.__w``, ``self.__b``)."""

    def fit(self, X: Any, y: Any) -> Any:
        X = np.asarray(X, dtype=float)
        self.__w, self.__b = np.zeros(X.shape[1]), 0.0
        for _ in range(1000):
            wrong = 0
            for x, t in zip(X, y, strict=True):
                if t * (x @ self.__w + self.__b) <= 0:
                    self.__w, self.__b, wrong = self.__w + t * x, self.__b + t, wrong + 1
            if not wrong:
                break
        return self

    def predict(self, X: Any) -> Any:
        return np.where(np.asarray(X, dtype=float) @ self.__w + self.__b > 0, 1, -1)


def test_a_bias_under_a_name_of_its_own_is_found_by_its_agreement() -> None:
    r = read(_Private)
    assert (r.weights, r.bias, r.predict_only) == ("_Private__w", "_Private__b", None)


class _Probabilities:
    """A ``predict`` that answers a probability for every point: no label at all."""

    def fit(self, X: Any, y: Any) -> _Probabilities:
        self.w = np.ones(np.asarray(X).shape[1])
        return self

    def predict(self, X: Any) -> Any:
        return 1 / (1 + np.exp(-(np.asarray(X) @ self.w)))


class _HalfAtZero(_Probabilities):
    """... and one that answers 0/1 labels but 0.5 at a score of exactly 0."""

    def predict(self, X: Any) -> Any:
        return (np.sign(np.asarray(X) @ self.w) + 1) / 2


def test_a_predict_that_answers_no_label_is_a_question_naming_what_it_answers() -> None:
    with pytest.raises(InputError, match="not labels -1/\\+1 or 0/1") as err:
        read(_Probabilities)
    assert "--labels" not in str(err.value)  # (check --fit has no such option)


def test_an_answer_that_is_neither_class_beside_labels_is_left_to_the_runs() -> None:
    r = read(_HalfAtZero, weights="w", bias="none")
    assert r.negative == 0 and r.decode([0, 1, 0.5]) == [-1, 1, 0]


class _PredictRaises:
    """``fit`` runs; ``predict`` raises on the probe (its weights one short)."""

    def fit(self, X: Any, y: Any) -> _PredictRaises:
        self.w = np.zeros(np.asarray(X).shape[1] + 1)
        return self

    def predict(self, X: Any) -> Any:
        return np.sign(np.asarray(X) @ self.w)


def test_the_probe_names_predict_when_predict_is_what_raised() -> None:
    r = read(_PredictRaises)
    assert r.probe is not None and "predict() raised ValueError" in r.probe, r.probe
    assert r.predict_only == "predict() raises on valid data"


def test_a_threshold_is_read_as_the_bias_minus_it_and_only_where_plus_does_not_agree() -> None:
    """``w . x > theta`` is read with the bias ``-theta``; a class whose score is
    ``w . x + offset`` keeps ``+offset`` (the threshold reading is not taken first), and
    the predictor read gives its answers in both."""
    T = load(Path(__file__).parent / "compat" / "fit" / "fit_threshold.py")
    r = read(T.ThresholdPerceptron)
    assert (r.weights, r.bias, r.threshold) == ("w", "theta", True)
    assert "bias -theta (a threshold" in r.describe()
    X = np.array([[2.0, 1.0], [-1.0, -3.0], [3.0, 0.0], [0.0, -1.0]])
    y = np.array([1, -1, 1, -1])
    est = T.ThresholdPerceptron().fit(X, y)
    w, b = r.predictor(est)
    assert b == -est.theta and [
        1 if sum(a * v for a, v in zip(w, x, strict=True)) + b > 0 else -1 for x in X
    ] == list(est.predict(X))

    class Offset:
        epochs = 1000

        def predict(self, X: Any) -> Any:
            return np.where(X @ self.w + self.theta > 0, 1, -1)

        def fit(self, X: Any, y: Any) -> Any:
            self.w, self.theta = np.zeros(X.shape[1]), 0.0
            for _ in range(self.epochs):
                wrong = [i for i in range(len(y)) if y[i] * (X[i] @ self.w + self.theta) <= 0]
                if not wrong:
                    break
                self.w, self.theta = self.w + y[wrong[0]] * X[wrong[0]], self.theta + y[wrong[0]]
            return self

    plain = read(Offset)
    assert (plain.bias, plain.threshold) == ("theta", False)
