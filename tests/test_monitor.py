from fractions import Fraction

import numpy as np
import pytest
from hypothesis import find, settings
from hypothesis import strategies as st

from pla_proof import from_arrays, load, make_comparator, train
from pla_proof.errors import InputError
from pla_proof.monitor import Comparator
from pla_proof.proof.statements import RUNTIME_LEMMAS


def test_comparator_validation() -> None:
    data = load("orthonormal:3")
    with pytest.raises(InputError, match="comparator has 2 entries but the data have 3"):
        make_comparator(data, [1, 1])
    with pytest.raises(InputError, match="does not separate the data: point 2"):
        make_comparator(data, [1, 1, 1])
    with pytest.raises(InputError, match="zero vector"):
        make_comparator(data, [0, 0, 0])
    with pytest.raises(InputError, match="margin assumption fails"):
        make_comparator(data, [1, -1, 1], gamma=2)
    with pytest.raises(InputError, match="strict margin needs gamma <"):
        make_comparator(data, [1, -1, 1], strict=True, gamma=1)
    c = make_comparator(data, [2, -2, 2])
    assert (c.gamma, c.uu, c.bound, c.gamma_squared_unit) == (2, 12, 3, Fraction(1, 3))
    assert make_comparator(data, [1, -1, 1], strict=True).gamma == Fraction(1, 2)


def test_every_update_of_a_run_carries_the_proofs_vocabulary() -> None:
    run = train(load("orthonormal:2"), comparator=[1, -1])
    names = {str(s) for lem in RUNTIME_LEMMAS for s in lem.statement().free_symbols}
    assert len(run.steps) == 2 and names <= set(run.steps[1].values)
    assert run.steps[1].values["pu1"] == 2 and run.steps[1].values["n1"] == 2


def plus_x(w, x, y):  # type: ignore[no-untyped-def]
    """A classic mistake: w + x instead of w + y x."""
    return [a + b for a, b in zip(w, x, strict=True)]


@pytest.mark.parametrize("mode", ["exact", "float"])
def test_monitor_catches_update_without_the_label(mode: str) -> None:
    update = plus_x if mode == "exact" else (lambda w, x, y: w + x)
    run = train(load("orthonormal:3"), comparator=[1, -1, 1], update=update, mode=mode)
    assert run.status == "violation"
    v = run.violation
    assert v is not None and v.lemma == "L1" and v.k == 2 and v.j == 1
    assert v.choices == [0, 1]
    assert "Eq(pu1, pu + yux)" in v.statement


def test_monitor_catches_a_doubled_update_claiming_the_classic_constants() -> None:
    run = train(
        load("orthonormal:3"),
        comparator=[1, -1, 1],
        update=lambda w, x, y: [a + 2 * y * b for a, b in zip(w, x, strict=True)],
    )
    assert run.violation is not None and run.violation.lemma == "L1"
    assert (run.violation.lhs, run.violation.rhs) == (2, 1)


def test_monitor_catches_a_radius_taken_before_augmentation() -> None:
    data = load("students")  # trained with (x, 1)
    honest = make_comparator(data, [1, 1, -1, 1, 0, 0])
    wrong = Comparator(honest.u, honest.gamma, False, data.without_bias().radius_squared)
    run = train(data, comparator=wrong)
    assert run.status == "violation"
    assert run.violation is not None and run.violation.lemma in {"A2_j", "L6"}
    assert train(data, comparator=honest).status == "converged"


def test_monitor_catches_a_strict_trigger_at_the_end() -> None:
    run = train(load("orthonormal:3"), comparator=[1, -1, 1], trigger=lambda m: m < 0)
    assert run.status == "violation" and run.updates == 0
    assert run.violation is not None and run.violation.lemma == "SEP"
    assert run.violation.lhs == 0


def test_strict_margin_bound_is_strict() -> None:
    data = load("orthonormal:4")
    run = train(data, comparator=[1, -1, 1, -1], strict=True)
    assert run.status == "converged" and run.updates == 4 and run.bound == 16
    # gamma just below the margin: the strict bound 4 * (1/gamma)^2 stays above k = 4
    run = train(data, comparator=[1, -1, 1, -1], strict=True, gamma=Fraction(999, 1000))
    assert run.status == "converged" and run.updates < run.bound  # type: ignore[operator]


def _naive_float_alarm(X: list[list[float]], y: list[int]) -> bool:
    """A naive float checker: evaluate L5 with == on float64 numbers."""
    data = from_arrays(X, y)
    run = train(data, comparator=None)
    w = np.zeros(len(X[0]))
    for j in run.choices:
        x = np.array(X[j])
        w1 = w + y[j] * x
        if float(w1 @ w1) != float(w @ w) + 2 * y[j] * float(w @ x) + float(x @ x):
            return True
        w = w1
    return False


def test_exact_and_guarded_float_modes_raise_no_false_alarm_where_naive_floats_do() -> None:
    # two-dimensional points with labels from u = (1, 1), kept off the hyperplane
    point = st.tuples(st.floats(-10, 10), st.floats(-10, 10)).filter(
        lambda p: abs(p[0] + p[1]) > 0.5
    )
    found = find(
        st.lists(point, min_size=2, max_size=8),
        lambda pts: _naive_float_alarm([list(p) for p in pts], _labels(pts)),
        settings=settings(database=None, max_examples=5000),
    )
    data = from_arrays([list(p) for p in found], _labels(found))
    exact = train(data, comparator=[1, 1])
    assert exact.status == "converged" and exact.violation is None
    guarded = train(data, comparator=[1, 1], mode="float")
    assert guarded.status == "converged" and guarded.violation is None
    assert 0 < guarded.max_missed < 1e-9


def _labels(pts: list[tuple[float, float]]) -> list[int]:
    return [1 if a + b > 0 else -1 for a, b in pts]
