"""A class with no ``fit`` or no ``predict``: the methods that train it and answer its
labels, found by their behaviour (``pla_proof.variants.estimators.methods``)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from checking import cli_budget

from pla_proof.cli import main
from pla_proof.errors import InputError
from pla_proof.variants.estimators.estimator import resolve_factory
from pla_proof.variants.estimators.methods import WithMethods
from pla_proof.variants.estimators.returned_weights import PredictsWithReturned

SPEC = str(Path(__file__).parent / "compat" / "fit" / "fit_no_predict.py")


@pytest.mark.parametrize("name", ["LabelsByClassify", "OneWrongMethod"])
def test_the_method_that_predicts_the_probe_is_taken(name: str) -> None:
    factory = resolve_factory(f"{SPEC}:{name}")
    assert isinstance(factory, WithMethods) and factory.methods == {"predict": "classify"}
    est = factory()
    est.fit([[2.0], [-2.0]], [1, -1])
    assert list(est.predict([[3.0], [-3.0]])) == [1, -1]


def test_it_travels_to_workers_as_the_users_class_and_the_method() -> None:
    factory = resolve_factory(f"{SPEC}:LabelsByClassify")
    assert isinstance(factory, WithMethods)
    again = pickle.loads(pickle.dumps(factory))
    assert isinstance(again, WithMethods) and again.methods == {"predict": "classify"}
    assert again.factory is factory.factory


def test_two_methods_behaviour_cannot_tell_apart_are_a_question() -> None:
    with pytest.raises(InputError, match=r"label_of\(\) and classify\(\) each answer labels"):
        resolve_factory(f"{SPEC}:TwoLabelMethods")


def test_no_method_that_answers_labels_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "no_labels.py"
    f.write_text(
        "class Scores:\n"
        "    def fit(self, X, y):\n"
        "        self.w = [1.0] * len(X[0])\n"
        "    def net(self, X):\n"
        "        return [0.5 * sum(x) for x in X]\n"
    )
    with pytest.raises(InputError, match=r"none of net\(\) answers one label per point"):
        resolve_factory(f"{f}:Scores")


def test_the_command_asks_in_one_line_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--fit", f"{SPEC}:TwoLabelMethods"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "add predict = label_of" in err[0], err


def test_the_reading_line_says_which_method_predicts(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--fit", f"{SPEC}:LabelsByClassify", "--examples", "10"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "(its classify(), found by its behaviour: it has no predict)" in out


def test_a_class_that_trains_with_train_and_classify_is_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``train(X, y)`` and ``classify(X)``, no ``fit`` nor ``predict``: both found by
    their behaviour, named in the reading line; the class passes."""
    code = main(["check", "--fit", f"{SPEC}:TrainAndClassify", "--examples", "10"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "fit() is its train(), found by its behaviour: it has no fit" in out
    factory = resolve_factory(f"{SPEC}:TrainAndClassify")
    assert isinstance(factory, WithMethods)
    assert factory.methods == {"fit": "train", "predict": "classify"}


def test_of_two_trainers_the_one_that_calls_the_other_is_taken() -> None:
    """``learn(X, y)`` calls ``train(X, y)``: the one no other calls trains (before: a
    question naming both)."""
    factory = resolve_factory(f"{SPEC}:TwoTrainers")
    assert isinstance(factory, WithMethods) and factory.methods["fit"] == "learn"


def test_two_methods_that_could_train_are_a_question(tmp_path: Path) -> None:
    """Two methods that each change the object, neither calling the other: behaviour
    cannot choose."""
    path = tmp_path / "two_trainers.py"
    path.write_text(
        "class Two:\n"
        "    def train(self, X, y):\n"
        "        self.w = [0.0] * len(X[0])\n"
        "    def retrain(self, X, y):\n"
        "        self.w = [1.0] * len(X[0])\n"
        "    def classify(self, X):\n"
        "        return [1 for _ in X]\n"
    )
    with pytest.raises(InputError, match=r"train\(X, y\) and retrain\(X, y\) each take"):
        resolve_factory(f"{path}:Two")


TRAIN = str(Path(__file__).parent / "compat" / "fit" / "fit_train_method.py")


def test_a_training_method_that_needs_more_is_asked_for_by_name() -> None:
    """``train(samples, labels, rate, rounds)``, all required: before, "does not make an
    object with fit(X, y)" -- and ``--param rate=1`` was refused as no parameter of the
    class; now the question names them, and the values given reach ``train``."""
    with pytest.raises(InputError) as info:
        resolve_factory(f"{TRAIN}:CourseTrainer")
    assert "it needs rate, rounds for train() (no default)" in str(info.value)
    assert "--param rate=VALUE --param rounds=VALUE" in str(info.value)
    factory = resolve_factory(f"{TRAIN}:CourseTrainer", params={"rate": 1, "rounds": 50})
    assert isinstance(factory, WithMethods) and factory.methods == {
        "fit": "train",
        "predict": "output",
    }
    est = factory()
    est.fit([[2.0, 1.0], [-2.0, -1.0]], [1, 0])
    assert [est.predict([2.0, 1.0]), est.predict([-2.0, -1.0])] == [1, 0]


def test_of_several_methods_that_need_more_the_one_the_params_complete_is_taken(
    tmp_path: Path,
) -> None:
    """``sign(x, w, b)`` and ``train(X, y, learning_rate)`` both take two arguments
    first: ``sign`` changes nothing and ``train`` calls it, so ``train`` is the trainer,
    asked for what it needs (before: both listed); with ``--param learning_rate=1`` it
    trains."""
    path = tmp_path / "two_candidates.py"
    path.write_text(
        "import numpy as np\n\n"
        "class Layer:\n"
        "    def sign(self, x, w, b):\n"
        "        return np.dot(x, w) + b\n"
        "    def train(self, X, y, learning_rate):\n"
        "        self.w, self.b = np.zeros(X.shape[1]), 0.0\n"
        "        while True:\n"
        "            bad = 0\n"
        "            for x, t in zip(X, y):\n"
        "                if t * self.sign(x, self.w, self.b) <= 0:\n"
        "                    self.w = self.w + learning_rate * t * x\n"
        "                    self.b += learning_rate * t\n"
        "                    bad += 1\n"
        "            if not bad:\n"
        "                return self\n"
        "    def predict(self, X):\n"
        "        return np.where(np.dot(X, self.w) + self.b > 0, 1, -1)\n"
    )
    with pytest.raises(InputError) as info:
        resolve_factory(f"{path}:Layer")
    said = str(info.value)
    assert "sign()" not in said, said
    assert "learning_rate for train() (no default)" in said, said
    assert "--param learning_rate=VALUE" in said, said
    factory = resolve_factory(f"{path}:Layer", params={"learning_rate": 1})
    assert isinstance(factory, WithMethods) and factory.methods == {"fit": "train"}


def test_the_replay_command_gives_the_training_methods_parameters_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The parameters given to ``train`` are in the command that checks it again (the
    replay line lost them: it was refused there)."""
    from pla_proof.variants.estimators.estimator import Estimator

    factory = resolve_factory(f"{TRAIN}:CourseTrainer", params={"rate": 1, "rounds": 50})
    args = Estimator(factory, name=f"{TRAIN}:CourseTrainer").cli_args()
    assert args[-4:] == ["--param", "rate=1", "--param", "rounds=50"], args


def test_a_predict_that_needs_what_fit_returned_is_given_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``fit`` returns the model and ``predict(X, model)`` takes it back: before, the
    check's own ``predict(X)`` raised TypeError and the report said "fit() raises on
    valid data" (RUNS, blamed on correct code), then a question; now, found by its
    behaviour on the probe, predict is given what fit returned, and the weights are read
    in it."""
    path = tmp_path / "returns_model.py"
    path.write_text(
        "import numpy as np\n\n"
        "class ReturnsModel:\n"
        "    def fit(self, X, y):\n"
        "        w = np.zeros(X.shape[1] + 1)\n"
        "        for _ in range(1000):\n"
        "            for x, t in zip(X, y):\n"
        "                if t * (w[0] + x @ w[1:]) <= 0:\n"
        "                    w = w + t * np.append(1.0, x)\n"
        "        return w\n"
        "    def predict(self, X, model):\n"
        "        return np.sign(model[0] + X @ model[1:])\n\n"
        "class NeedsAThreshold(ReturnsModel):\n"
        "    def fit(self, X, y):\n"
        "        super().fit(X, y)\n"
        "    def predict(self, X, threshold):\n"
        "        return np.sign(X[:, 0] - threshold)\n"
    )
    factory = resolve_factory(f"{path}:ReturnsModel")
    assert isinstance(factory, PredictsWithReturned)
    assert main(["check", "--fit", f"{path}:ReturnsModel", *cli_budget(10)]) == 0
    out = capsys.readouterr().out
    assert "weights fit_returned[1:], bias fit_returned[0]" in out
    assert "predict(X, model) given what fit() returned" in out
    # a predict whose other value fit does not return: still a one-line question
    with pytest.raises(InputError, match=r"its predict\(X, threshold\) needs threshold besides"):
        resolve_factory(f"{path}:NeedsAThreshold")
