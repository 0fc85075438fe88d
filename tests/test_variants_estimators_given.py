"""``--param NAME=VALUE``: a class or training function that needs a parameter behaviour
cannot choose (a course's ``perceptron(feature_matrix, labels, T)``) is checked with the
value the user gives, and refused, naming the flag, without it."""

from __future__ import annotations

import inspect
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from pla_proof.cli import main
from pla_proof.errors import InputError
from pla_proof.variants.estimators.given import Given, given, parse_param, shown

CODE = """\
import numpy as np


def perceptron(feature_matrix, labels, T, sign=1):
    theta = np.zeros(feature_matrix.shape[1])
    theta_0 = 0.0
    for _ in range(T):
        changed = False
        for x, y in zip(feature_matrix, labels):
            if y * (theta @ x + theta_0) <= 0:
                theta = theta + sign * y * x
                theta_0 = theta_0 + sign * y
                changed = True
        if not changed:
            break
    return theta, theta_0


class Needs:
    def __init__(self, n_features, lr):
        self.n_features = n_features
        self.lr = lr

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        self.w = np.zeros(X.shape[1])
        self.b = 0.0
        for _ in range(1000):
            bad = 0
            for xi, yi in zip(X, y):
                if yi * (xi @ self.w + self.b) <= 0:
                    self.w = self.w + self.lr * yi * xi
                    self.b += self.lr * yi
                    bad += 1
            if not bad:
                break
        return self

    def predict(self, X):
        return np.where(np.asarray(X, dtype=float) @ self.w + self.b > 0, 1, -1)


class FitNeeds(Needs):
    def __init__(self, n_inputs):
        self.w = np.zeros(n_inputs)
        self.lr = 1.0

    def fit(self, X, y, epochs):
        X = np.asarray(X, dtype=float)
        self.w, self.b = np.zeros(X.shape[1]), 0.0
        for _ in range(epochs):
            bad = 0
            for xi, yi in zip(X, y):
                if yi * (xi @ self.w + self.b) <= 0:
                    self.w, self.b, bad = self.w + yi * xi, self.b + yi, bad + 1
            if not bad:
                break
        return self
"""


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "course.py"
    path.write_text(CODE)
    monkeypatch.chdir(tmp_path)
    return path


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    code = main(["check", *argv, "--examples", "20", "--json"])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if out.out.strip() else {}), out.err


def failing(doc: dict[str, Any]) -> list[str]:
    return [p["id"] for p in doc["properties"] if p["status"] == "fail"]


def test_a_function_with_a_required_budget_is_refused_naming_the_flag(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = check(capsys, "--fit", f"{course}:perceptron")
    assert code == 2 and "--param T=VALUE" in err and "Traceback" not in err
    assert "taken for the points and their labels" in err  # which two it read as X, y


def test_given_its_budget_the_function_is_read_and_checked(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc, err = check(capsys, "--fit", f"{course}:perceptron", "--param", "T=2000")
    assert (code, failing(doc)) == (0, []), err[-800:]
    assert "T = 2000" in json.dumps(doc)  # the budget found among the given parameters


def test_a_wrong_update_is_still_found_with_a_given_parameter(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc, _ = check(
        capsys, "--fit", f"{course}:perceptron", "--param", "T=200", "--param", "sign=-1"
    )
    assert code == 1 and "SEP" in failing(doc)
    replay = json.dumps(doc)
    assert "--param T=200 --param sign=-1" in replay  # the replay command gives them again


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_class_needing_constructor_arguments_is_checked_with_them(
    course: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    code, _, err = check(capsys, "--fit", f"{course}:Needs")
    assert code == 2 and "--param n_features=VALUE --param lr=VALUE" in err
    argv = ["--fit", f"{course}:Needs", "--param", "n_features=2", "--param", "lr=0.5"]
    code, doc, err = check(capsys, *argv, "--jobs", jobs)
    assert (code, failing(doc)) == (0, []), err[-800:]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["--param", "Q=1"],
            "has no parameter Q (its parameters: feature_matrix, labels, T, sign)",
        ),
        (["--param", "T=1", "--param", "T=2"], "--param T is given twice"),
        (["--param", "=3"], "expected NAME=VALUE"),
    ],
)
def test_a_wrong_param_is_one_line_and_exit_2(
    course: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, _, err = check(capsys, "--fit", f"{course}:perceptron", *argv)
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err


def test_param_without_fit_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = check(capsys, "classic", "--param", "T=1")
    assert code == 2 and "--param" in err


def _f(X: Any, y: Any, T: int, eta: float = 1.0) -> tuple[int, float]:
    return T, eta


def test_given_reads_like_the_function_and_pickles_by_reference() -> None:
    f = given(_f, {"T": 7}, "_f")
    assert isinstance(f, Given) and f.__name__ == "_f" and f.__globals__ is _f.__globals__
    params = inspect.signature(f).parameters
    assert [(p.name, p.default) for p in params.values()][2:] == [("eta", 1.0), ("T", 7)]
    assert f(0, 0) == (7, 1.0) and f(0, 0, T=9) == (9, 1.0)
    back = pickle.loads(pickle.dumps(f))
    assert back.obj is _f and back(0, 0) == (7, 1.0)
    assert given(_f, {}, "_f") is _f
    with pytest.raises(InputError, match="has no parameter S"):
        given(_f, {"S": 1}, "_f")
    assert parse_param("x=(1, 2)") == ("x", (1, 2)) and parse_param("s='a b'") == ("s", "a b")
    assert shown({"T": 3, "kind": "step"}) == ["--param", "T=3", "--param", "kind='step'"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_required_argument_of_fit_is_asked_for_and_then_the_budget(
    course: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    code, _, err = check(capsys, "--fit", f"{course}:FitNeeds")
    assert code == 2 and "it needs epochs for fit() (no default)" in err, err
    assert "--param epochs=VALUE" in err and "n_inputs" not in err  # (the dimension: found)
    argv = ["--fit", f"{course}:FitNeeds", "--param", "epochs=2000", "--jobs", jobs]
    code, doc, err = check(capsys, *argv)
    assert (code, failing(doc)) == (0, []), err[-800:]
    assert "epochs = 2000 (a keyword of fit())" in json.dumps(doc)
