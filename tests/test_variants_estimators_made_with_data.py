"""A class made with its training data, ``Perceptron(X, y)``: its trainer, a value that
trainer needs, the data's sizes the constructor asks for
(``pla_proof.variants.estimators.made_with_data``)."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from pla_proof.cli import main
from pla_proof.errors import InputError
from pla_proof.variants.estimators.estimator import Estimator, resolve_factory
from pla_proof.variants.estimators.made_with_data import data_said

SPEC = str(Path(__file__).parent / "compat" / "fit" / "fit_data_in_constructor.py")
X5 = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -2.0], [-3.0, 1.0], [1.0, -4.0]])
Y5 = np.array([1, 1, 0, 0, 0])  # separable through the origin by u = (1, 1)


def test_the_data_sizes_it_asks_for_are_each_data_sets_own() -> None:
    factory = resolve_factory(f"{SPEC}:DataAndSizes")
    said = data_said(factory)
    assert "count = the number of points" in said and "width = the number of coordinates" in said
    assert "trained by train()" in said  # not sweep(), which train() calls
    est = factory()
    est.fit(X5, Y5)  # 5 points of 2 coordinates; the probe had 8 of 3: its assert holds
    assert [est.predict(x) for x in X5] == Y5.tolist()


def test_a_constructor_whose_sizes_cannot_be_the_datas_is_not_made_with_them(
    tmp_path: Path,
) -> None:
    f = tmp_path / "sizes.py"
    f.write_text(
        "class Odd:\n"
        "    def __init__(self, X, y, n, d):\n"
        "        assert n == d == 7\n"
        "    def train(self):\n"
        "        pass\n"
    )
    with pytest.raises(InputError, match="it needs X, y, n, d to be made"):
        resolve_factory(f"{f}:Odd")


def test_a_0_1_class_that_maps_minus_one_to_plus_one_is_trained_in_0_1() -> None:
    # given -1/+1, (-1, 1)[t] takes -1 as +1: one class only, every answer 1 -- not a
    # sign that -1/+1 is its coding
    est = Estimator(resolve_factory(f"{SPEC}:DataAndSizes"), name="DataAndSizes")
    assert est.reading.labels == "01" and est.reading.origin


def test_a_trainer_that_needs_a_value_is_asked_for_it_by_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(InputError, match=r"trained by fit\(\), which needs step \(no default\)"):
        resolve_factory(f"{SPEC}:DataAndStep")
    assert main(["check", "--fit", f"{SPEC}:DataAndStep"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--param step=VALUE" in err[0], err


def test_the_value_given_reaches_the_trainer_and_travels_to_workers() -> None:
    factory = resolve_factory(f"{SPEC}:DataAndStep", params={"step": 0.5})
    again = pickle.loads(pickle.dumps(factory))
    est = again()
    est.fit(np.array([[2.0], [-2.0]]), np.array([1, -1]))
    assert est.w.tolist() == [1.0] and est.b == 0.5  # one step of 0.5 from zero
