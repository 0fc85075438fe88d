"""A class with no method that predicts, whose trainer returns what it learned: read as
a training function (``pla_proof.variants.estimators.returned_weights``)."""

from __future__ import annotations

import inspect
import pickle
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from pla_proof.errors import InputError
from pla_proof.variants.estimators.estimator import Estimator, resolve_factory
from pla_proof.variants.estimators.functions import is_training_function
from pla_proof.variants.estimators.returned_weights import ReturnedWeights

FIT = Path(__file__).parent / "compat" / "fit"


@pytest.mark.parametrize(
    ("spec", "keywords"),
    [
        ("fit_data_in_constructor.py:ReturnsItsWeights", []),
        ("fit_no_predict.py:FitReturnsWeights", ["epochs"]),
    ],
)
def test_it_is_read_as_the_training_function_it_is(spec: str, keywords: list[str]) -> None:
    f = resolve_factory(str(FIT / spec))
    assert isinstance(f, ReturnedWeights) and is_training_function(f)
    assert list(inspect.signature(f).parameters) == ["X", "y", *keywords]
    w, b = pickle.loads(pickle.dumps(f))(np.array([[2.0], [-2.0]]), np.array([1, -1]))
    assert float(w[0]) * 2 + float(b) > 0 > float(w[0]) * -2 + float(b)
    reading = Estimator(cast(Any, f), name=spec).reading
    assert reading.returns == "(w, b)" and "no method predicts" in reading.describe()


def test_its_constructors_budget_is_the_functions_keyword() -> None:
    f = resolve_factory(str(FIT / "fit_no_predict.py:FitReturnsWeights"))
    reading = Estimator(cast(Any, f), name="FitReturnsWeights").reading
    assert reading.budget == ("epochs", 1000)


def test_a_trainer_that_returns_nothing_is_read_by_what_it_keeps_else_refused(
    tmp_path: Path,
) -> None:
    """A class with ``fit`` alone that leaves ``self.w`` is read as a training function
    returning it (its check then judges those weights); one that leaves no number at
    all is still refused, in one line."""
    f = tmp_path / "silent.py"
    f.write_text(
        "class Silent:\n"
        "    def fit(self, X, y):\n"
        "        self.w = [0.0] * len(X[0])\n"
        "    def net(self, w, x):\n"
        "        return 0.0\n"
        "class Mute:\n"
        "    def fit(self, X, y):\n"
        "        self.said = 'done'\n"
    )
    kept = resolve_factory(f"{f}:Silent")
    assert isinstance(kept, ReturnedWeights) and kept.kept == ("w",)
    with pytest.raises(InputError, match="it has no predict"):
        resolve_factory(f"{f}:Mute")
