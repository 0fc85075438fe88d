"""A class with no ``predict``: the method that answers its labels, found by its
behaviour (``pla_proof.variants.estimators.prediction``)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from pla_proof.cli import main
from pla_proof.errors import InputError
from pla_proof.variants.estimators.estimator import resolve_factory
from pla_proof.variants.estimators.prediction import Predicting

SPEC = str(Path(__file__).parent / "compat" / "fit" / "fit_no_predict.py")


@pytest.mark.parametrize("name", ["LabelsByClassify", "OneWrongMethod"])
def test_the_method_that_predicts_the_probe_is_taken(name: str) -> None:
    factory = resolve_factory(f"{SPEC}:{name}")
    assert isinstance(factory, Predicting) and factory.method == "classify"
    est = factory()
    est.fit([[2.0], [-2.0]], [1, -1])
    assert list(est.predict([[3.0], [-3.0]])) == [1, -1]


def test_it_travels_to_workers_as_the_users_class_and_the_method() -> None:
    factory = resolve_factory(f"{SPEC}:LabelsByClassify")
    assert isinstance(factory, Predicting)
    again = pickle.loads(pickle.dumps(factory))
    assert isinstance(again, Predicting) and again.method == "classify"
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
