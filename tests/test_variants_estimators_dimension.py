"""A constructor parameter read as the data's dimension by its behaviour (it sizes the
weights), the class made again for each data set's dimension; and what is *not* read as
one: a parameter that sizes nothing is still asked for, by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from pla_proof.errors import InputError
from pla_proof.variants.estimators.dimension import dimension_parameters, sized
from pla_proof.variants.estimators.estimator import Estimator, resolve_factory
from pla_proof.variants.estimators.given import wrappers


class Sized:
    def __init__(self, n: int, rate: float = 1.0) -> None:
        self.w = np.zeros(n)
        self.b = 0.0
        self.rate = rate
        self.max_iter = 100

    def fit(self, X: Any, y: Any) -> Any:
        for _ in range(self.max_iter):
            clean = True
            for x, t in zip(X, y, strict=True):
                if t * (x @ self.w + self.b) <= 0:
                    self.w = self.w + self.rate * t * x
                    self.b += self.rate * t
                    clean = False
            if clean:
                break
        return self

    def predict(self, X: Any) -> Any:
        return np.where(X @ self.w + self.b > 0, 1, -1)


class NeedsASeed:
    """A required parameter that sizes nothing: not the dimension."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.w: Any = None

    def fit(self, X: Any, y: Any) -> Any:
        self.w = np.zeros(X.shape[1])
        return self

    def predict(self, X: Any) -> Any:
        return np.ones(len(X))


def test_a_parameter_that_sizes_the_weights_is_the_dimension() -> None:
    assert dimension_parameters(Sized, ["n"]) == ["n"]


def test_a_parameter_that_sizes_nothing_is_not() -> None:
    assert dimension_parameters(NeedsASeed, ["seed"]) == []


def test_a_sized_object_is_made_again_for_each_dimension_keeping_what_was_set() -> None:
    make = sized(Sized, ("n",))
    est = make(rate=0.5)
    est.max_iter = 7  # (an epoch budget, set from outside before fit)
    X = np.array([[1.0, 0.0, 0.0, 0.0, 2.0], [-1.0, 0.0, 0.0, 0.0, -2.0]])
    est.fit(X, np.array([1, -1]))
    assert len(est.w) == 5 and est.max_iter == 7 and est.rate == 0.5
    assert list(est.predict(X)) == [1, -1]
    assert isinstance(est, Sized) and type(est).__qualname__ == "Sized"


def test_the_check_makes_it_per_case_and_passes_it(tmp_path: Path) -> None:
    path = tmp_path / "sized_model.py"
    path.write_text(
        "import numpy as np\n\n"
        "class Model:\n"
        "    def __init__(self, dim):\n"
        "        self.w = np.zeros(dim + 1)\n"
        "    def fit(self, X, y, epochs=10000):\n"
        "        A = np.c_[X, np.ones(len(X))]\n"
        "        for _ in range(epochs):\n"
        "            bad = 0\n"
        "            for a, t in zip(A, y):\n"
        "                if t * (a @ self.w) <= 0:\n"
        "                    self.w = self.w + t * a\n"
        "                    bad += 1\n"
        "            if not bad:\n"
        "                break\n"
        "        return self\n"
        "    def predict(self, X):\n"
        "        return np.where(np.c_[X, np.ones(len(X))] @ self.w > 0, 1, -1)\n"
    )
    factory = resolve_factory(f"{path}:Model")
    assert "the data's dimension" in repr(factory)
    est = Estimator(factory, name="model")
    assert est.reading.weights == "w"


def test_a_dimension_given_by_hand_is_each_data_sets_own_and_said(tmp_path: Path) -> None:
    """``--param inputs=2`` on a class whose weights it sizes: before, every 3-D probe
    and case raised in the user's matmul (RUNS, PREDICT and STOP failed on correct code);
    now each data set's dimension is given, and the reading line says the value given
    serves 2-D data only.  A parameter given beside it that sizes nothing (the rate) is
    kept as given."""
    path = tmp_path / "input_sized.py"
    path.write_text(
        "import numpy as np\n\n"
        "class Net:\n"
        "    def __init__(self, inputs, rate):\n"
        "        self.w, self.rate = np.zeros(inputs + 1), rate\n"
        "    def fit(self, X, y, passes=1000):\n"
        "        for _ in range(passes):\n"
        "            bad = 0\n"
        "            for x, t in zip(X, y):\n"
        "                if t * (self.w[0] + x @ self.w[1:]) <= 0:\n"
        "                    self.w[1:] += self.rate * t * x\n"
        "                    self.w[0] += self.rate * t\n"
        "                    bad += 1\n"
        "            if not bad:\n"
        "                break\n"
        "        return self\n"
        "    def predict(self, X):\n"
        "        return np.where(self.w[0] + X @ self.w[1:] >= 0, 1, -1)\n"
    )
    factory = resolve_factory(f"{path}:Net", params={"inputs": 2, "rate": 0.5})
    made = factory()
    assert made.rate == 0.5
    assert len(made.fit(np.eye(4), np.array([1, -1, 1, -1])).w) == 5
    est = Estimator(factory, name="net")
    assert "--param inputs=2 used for data of dimension 2" in est.reading.describe()
    assert "each data set's dimension" in est.reading.describe()
    # the rate alone given (the dimension found): made too -- it was refused before, read
    # as a training function of one required parameter
    alone = resolve_factory(f"{path}:Net", params={"rate": 0.5})
    assert len(alone().fit(np.eye(2), np.array([1, -1])).w) == 3
    assert "--param inputs" not in Estimator(alone, name="net").reading.describe()


def test_a_required_parameter_that_sizes_nothing_is_still_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "seeded_model.py"
    path.write_text(
        "import numpy as np\n\n"
        "class Model:\n"
        "    def __init__(self, n, seed):\n"
        "        self.w, self.seed = np.zeros(n), seed\n"
        "    def fit(self, X, y):\n"
        "        return self\n"
        "    def predict(self, X):\n"
        "        return np.ones(len(X))\n"
    )
    with pytest.raises(InputError) as info:
        resolve_factory(f"{path}:Model")
    message = str(info.value)
    assert "it needs seed to be made (n: the data's dimension" in message
    assert "--param seed=VALUE" in message and "--param n=" not in message


def test_a_required_start_vector_is_made_for_each_call_and_a_rate_is_asked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``pla_from(points, labels, w)``: given zeros of the data's dimension it learns,
    so the check makes them for each call; ``pla_rated(points, labels, rate)`` given a
    vector of zeros learns nothing: asked for by name (exit 2, one line)."""
    from pla_proof.cli import main
    from pla_proof.variants.estimators.dimension import Started

    spec = str(Path(__file__).parent / "compat" / "fit" / "fit_start_vector.py")
    made = resolve_factory(f"{spec}:pla_from")
    assert isinstance(made, Started) and made.starts == {"w": 0}
    X = np.array([[1.0, 0.0, 0.0, 2.0], [-1.0, 0.0, 0.0, -2.0]])
    count, w = made(X, np.array([1, -1]))
    assert count == 1 and list(w) == [1.0, 0.0, 0.0, 2.0]
    assert main(["check", "--fit", f"{spec}:pla_rated"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--param rate=VALUE" in err[0], err


def test_a_start_with_a_bias_of_its_own_is_a_vector_and_a_number() -> None:
    """``train_from(X, Y, w, b)``: ``b`` given a vector makes the test ``t (w.x + b) <= 0``
    raise, so the start is ``w = zeros(d)`` and ``b = 0.0``; ``perceptron_pairs(data, w,
    b)`` takes its data as ``(x, y)`` pairs, then the same start.  A function whose extra
    parameters are a rate and a budget has no start (given 0.0 the budget runs no pass)."""
    from pla_proof.variants.estimators.data_layout import DataLayout
    from pla_proof.variants.estimators.dimension import Started, start_parameters

    spec = str(Path(__file__).parent / "compat" / "fit" / "fit_start_scalar_bias.py")
    made = resolve_factory(f"{spec}:train_from")
    assert isinstance(made, Started) and made.starts == {"w": 0, "b": None}
    w, b = made(np.array([[1.0, 2.0], [-1.0, -2.0]]), np.array([1, -1]))
    assert list(w) == [1.0, 2.0] and b == 1.0
    pairs = resolve_factory(f"{spec}:perceptron_pairs")
    assert isinstance(pairs, Started) and pairs.starts == {"w": 0, "b": None}
    assert isinstance(pairs.function, DataLayout) and pairs.function.layout == "pairs"
    assert "its start b = 0" in pairs.describe()

    def rated(X, y, rate, epochs):  # type: ignore[no-untyped-def]
        w = np.zeros(X.shape[1])
        for _ in range(epochs):
            for x, t in zip(X, y, strict=True):
                if t * (x @ w) <= 0:
                    w = w + rate * t * x
        return w

    assert start_parameters(rated, ["rate", "epochs"]) == {}


def test_data_in_one_argument_then_values_asks_for_exactly_those(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``train_rows(rows, rate, epochs)``: the question names ``rate`` and ``epochs``
    (one line, exit 2), not ``epochs`` alone with the rate taken for the labels; and
    ``pocket_from(w0, X, y)`` is read with its start first, made zeros for each call."""
    from pla_proof.cli import main
    from pla_proof.variants.estimators.data_layout import DataAt
    from pla_proof.variants.estimators.dimension import Started

    fit = Path(__file__).parent / "compat" / "fit"
    assert main(["check", "--fit", f"{fit / 'fit_data_first_params.py'}:train_rows"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--param rate=VALUE --param epochs=VALUE" in err[0], err
    assert "its data come in one argument, rows" in err[0]
    made = resolve_factory(f"{fit / 'fit_start_first.py'}:pocket_from")
    assert isinstance(made, Started) and made.starts == {"w0": 0}
    assert isinstance(made.function, DataAt) and made.function.names == ("X", "y")
    w, mistakes = made(np.array([[1.0, 2.0], [-1.0, -2.0]]), np.array([1, -1]))
    assert list(w) == [1.0, 2.0] and mistakes == 0


def test_data_after_a_rate_and_a_start_between_points_and_labels_are_found(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``pla_rate_first(eta, samples)``: asked for ``eta`` alone, naming ``samples`` as
    the data (not the points taken for the rate); given it, read by keyword.  And
    ``pocket_between(points, w, labels)``: its start found between the two."""
    from pla_proof.cli import main
    from pla_proof.variants.estimators.data_layout import DataAt, DataLayout
    from pla_proof.variants.estimators.dimension import Started

    fit = Path(__file__).parent / "compat" / "fit" / "fit_data_after_rate.py"
    assert main(["check", "--fit", f"{fit}:pla_rate_first"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith("give them with --param eta=VALUE"), err
    assert "its data come in one argument, samples (a list of (x, y) pairs" in err[0]
    made = resolve_factory(f"{fit}:pla_rate_first", params={"eta": 1})
    laid = [w for w in wrappers(made) if isinstance(w, DataLayout)]
    assert laid and laid[0].name == "samples" and laid[0].layout == "pairs"
    w = made(np.array([[2.0], [-2.0]]), np.array([1, -1]))
    assert list(w) == [2.0, 1.0]  # one update on (2, 1): separated
    made = resolve_factory(f"{fit}:pocket_between")
    assert isinstance(made, Started) and made.starts == {"w": 0}
    assert isinstance(made.function, DataAt) and made.function.names == ("points", "labels")


def test_a_loop_with_no_bias_nor_budget_hanging_on_the_bias_probe_is_read_through_the_origin() -> (
    None
):
    """Its fit on the probe that needs a bias never returns (no budget, no bias term):
    read through the origin, where it learns -- not a question after the hang."""
    from pla_proof.variants.boundary.loading import load_attribute

    fixture = Path(__file__).parent / "fixtures" / "fit_origin_no_budget.py"
    origin_loop = load_attribute(f"{fixture}:origin_loop", "--fit")
    v = Estimator(origin_loop, limit=0.5)  # (the hang is seen after 5 x 0.5 s)
    assert v.reading.origin and v.reading.bias is None
    assert "through the origin (no bias)" in v.reading.describe()


def test_a_function_that_never_returns_on_any_probe_is_still_a_question() -> None:
    def forever(X: Any, y: Any) -> Any:
        while True:
            pass

    with pytest.raises(InputError, match=r"fails on a separable 8-point probe.*did not return"):
        Estimator(cast(Any, forever), limit=0.3)
