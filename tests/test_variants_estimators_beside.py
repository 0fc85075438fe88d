"""A predictor beside a training function in its module, judged with it
(``pla_proof.variants.estimators.beside``)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from checking import cli_budget

from pla_proof.cli import main
from pla_proof.variants.estimators.estimator import Estimator, resolve_factory

FIT = Path(__file__).parent / "compat" / "fit"


def _reading(spec: str) -> Any:
    return Estimator(cast(Any, resolve_factory(str(FIT / spec))), name=spec).reading


@pytest.mark.parametrize(
    ("spec", "said", "negative"),
    [
        ("fit_predict_beside.py:train", "predict(X, w, b) beside it", -1),
        ("fit_predict_beside_broken.py:perceptron_train", "perceptron_predict(X, w, b)", -1),
        ("fit_predict_beside_one_point.py:fit_weights", "classify(w, X) beside it", 0),
    ],
)
def test_the_predictor_beside_is_found_and_said(spec: str, said: str, negative: int) -> None:
    reading = _reading(spec)
    assert reading.beside is not None and reading.beside.negative == negative
    assert said in reading.describe() and "PREDICT and READ judge it" in reading.describe()
    assert pickle.loads(pickle.dumps(reading)) == reading  # (it travels to the workers)


def test_of_two_predictors_the_one_that_answers_the_labels_is_taken() -> None:
    beside = _reading("fit_predict_beside_one_point.py:fit_weights").beside
    assert beside is not None and beside.name == "classify"  # not classify_wrong


def test_a_function_alone_keeps_the_weights_as_its_predictor() -> None:
    reading = _reading("fit_returns_extra.py:train_counting")
    assert reading.beside is None and "classified by the returned weights" in reading.describe()


def test_a_predictor_that_answers_scores_is_not_taken(tmp_path: Path) -> None:
    f = tmp_path / "scores.py"
    f.write_text(
        "import numpy as np\n"
        "def train(X, y, epochs=100):\n"
        "    w, b = np.zeros(X.shape[1]), 0.0\n"
        "    for _ in range(epochs):\n"
        "        for x, t in zip(X, y):\n"
        "            if t * (x @ w + b) <= 0:\n"
        "                w, b = w + t * x, b + t\n"
        "    return w, b\n"
        "def predict_scores(X, w, b):\n"
        "    return X @ w + b\n"
    )
    assert Estimator(cast(Any, resolve_factory(f"{f}:train")), name="t").reading.beside is None


def test_a_predictor_that_thresholds_at_one_fails_predict_and_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = str(FIT / "fit_predict_beside_broken.py:perceptron_train")
    args = ["check", "--fit", spec, "--jobs", "1", "--json", "--out", str(tmp_path)]
    code = main([*args, *cli_budget(60, 100)])
    props = {p["id"]: p for p in json.loads(capsys.readouterr().out)["properties"]}
    assert code == 1
    assert props["PREDICT"]["status"] == "fail" and props["READ"]["status"] == "fail"
    assert props["SEP"]["status"] == "pass"  # the weights separate: the predictor does not
    ce = props["PREDICT"]["counterexample"]
    assert "perceptron_predict(X, w, b) gives -1" in ce["failure"]["description"]
    assert ce["points"] == 2  # (-0.1, -1), (0.1, +1): a score of 0.02, answered -1
    assert any("what leaves the algorithm is the predictor" in t for t in ce["diagnosis"]["lemma"])


def test_the_pair_agrees_on_a_fit_by_hand() -> None:
    f = resolve_factory(str(FIT / "fit_predict_beside.py:train"))
    est = Estimator(cast(Any, f), name="train")
    made = est.make()
    X = np.array([[2.0, 1.0], [-1.0, -2.0], [0.5, 3.0]])
    made.fit(X, np.array([1, -1, 1]))
    assert np.asarray(made.predict(X)).tolist() == [1, -1, 1]
