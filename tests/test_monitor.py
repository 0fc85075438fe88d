from collections.abc import Sequence
from fractions import Fraction
from typing import Any

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


# --- what float mode can and cannot see --------------------------------------------------

_BIG = [[1000000.3, 300000.7], [2000000.1, -1000000.9], [-300000.3, 4000000.7]]
_BIG_U: list[Fraction] = [Fraction(1), Fraction(-1, 10)]


def _float32_step(w, x, y):  # type: ignore[no-untyped-def]
    """A realistic mistake: the weights accumulated in float32."""
    return np.asarray(np.float32(w) + np.float32(y) * np.float32(x), dtype=np.float64)


def test_float_mode_catches_float32_accumulation() -> None:
    """float32 rounds coordinates near 1e6 by about 0.03: far beyond the width of float
    mode's enclosures (a few units of float64 rounding), so float mode refutes it."""
    data = from_arrays(_BIG, [1, 1, -1])
    run = train(data, comparator=_BIG_U, mode="float", update=_float32_step)
    assert run.status == "violation" and run.violation is not None
    assert run.violation.lemma == "L1" and run.violation.k == 1


def _one_ulp(w: Sequence[Any], x: Sequence[Any], y: int) -> list[float]:
    """A mistake of one unit in the last place of one coordinate, at every update."""
    out = np.asarray(w, dtype=float) + y * np.asarray(x, dtype=float)
    out[0] = np.nextafter(out[0], np.inf)
    return [float(v) for v in out]


def test_float_mode_says_how_much_it_could_have_missed() -> None:
    """One unit in the last place of a coordinate near 1e6 (about 1.2e-10) is below what
    float64 enclosures of sums of such terms can tell apart: float mode lets it pass --
    and max_missed says that an error that large could hide.  Exact mode refutes it."""
    data = from_arrays(_BIG, [1, 1, -1])
    fl = train(data, comparator=_BIG_U, mode="float", update=_one_ulp)
    assert fl.violation is None and fl.status == "converged"
    ulp = float(np.spacing(_BIG[0][0]))
    assert fl.max_missed >= ulp
    ex = train(
        data,
        comparator=[Fraction(v) for v in _BIG_U],
        update=lambda w, x, y: [
            Fraction(v) for v in _one_ulp([float(a) for a in w], [float(b) for b in x], y)
        ],
    )
    assert ex.status == "violation" and ex.violation is not None and ex.violation.lemma == "L1"


def test_float_mode_catches_an_error_beyond_its_enclosures() -> None:
    """A relative error of 1e-14 in one coordinate is far beyond float64's rounding of one
    update (2^-53 ~ 1.1e-16): float mode reports it, with enclosures that exclude equality."""
    data = from_arrays(_BIG, [1, 1, -1])

    def nudged(w, x, y):  # type: ignore[no-untyped-def]
        out = np.asarray(w, dtype=float) + y * np.asarray(x, dtype=float)
        out[0] += 1e-14 * max(1.0, abs(out[0]))
        return out

    run = train(data, comparator=_BIG_U, mode="float", update=nudged)
    assert run.status == "violation" and run.violation is not None
    assert run.violation.lemma == "L1" and run.violation.k == 1


# --- the float guard's regressions: each a correct run once reported as a violation ------


@pytest.mark.parametrize(
    ("data", "comparator", "rule"),
    [
        (load("maxviol:0.03"), [1000, 0], "maxviol"),  # L3 at k = 404 before
        (load("maxviol:0.03"), [1000000, 0], "maxviol"),  # L3 at k = 378
        (
            from_arrays([[0.03e-3, 0.5e-3], [0.03e-3, 1e-3], [0.03e-3, -1e-3]], [1, 1, 1]),
            [1, 0],
            "maxviol",
        ),  # the same data scaled by 1e-3: L3 at k = 252
        (from_arrays([[1e-162] * 100], [1]), [1] * 100, "cyclic"),  # L4 underflowed
        (from_arrays([[5.96e-168, 0.0]], [1]), [1, 0], "cyclic"),  # L3 at k = 263
    ],
)
def test_float_mode_raises_no_false_alarm_on_the_known_cases(
    data: object, comparator: list[int], rule: str
) -> None:
    run = train(data, comparator=comparator, rule=rule, mode="float")  # type: ignore[arg-type]
    assert run.violation is None and run.status == "converged"
    assert train(data, comparator=comparator, rule=rule).status == "converged"  # type: ignore[arg-type]


def test_an_enclosure_that_overflows_is_undecided_never_held() -> None:
    """x = (1, 1e155): |w|^2 overflows float64.  A wrong update adding (0, 1e154) cannot be
    refuted in float mode -- and must not be reported as held."""
    data = from_arrays([[1.0, 1e155]], [1])
    run = train(
        data,
        comparator=[1, 0],
        mode="float",
        update=lambda w, x, y: list(np.asarray(w) + y * np.asarray(x) + np.array([0.0, 1e154])),
    )
    assert run.status == "undecided" and run.violation is None
    assert run.undecided and "cannot decide" in run.notes[-1]
    exact = train(
        data,
        comparator=[1, 0],
        update=lambda w, x, y: [w[0] + y * x[0], w[1] + y * x[1] + Fraction(10) ** 154],
    )
    assert exact.status == "violation"


def test_the_returned_float_weights_separate_after_cancellation_near_2_to_53() -> None:
    """Float mode decides every margin of the float weights exactly: a run that stops has
    weights that really separate the float data (no false alarm from cancellation)."""
    rows = [[2.0**52, 1.0], [2.0**53, -3.0], [2.0**53 + 2, 5.0], [-(2.0**54), 1e-3], [1.5, 2.0]]
    data = from_arrays(rows, [1, -1, 1, 1, -1])
    for rule in ("cyclic", "first", "maxviol", "random"):
        run = train(data, comparator=None, rule=rule, mode="float", budget=3000)
        assert run.violation is None, run.violation
        if run.status == "converged":
            low, _ = data.min_margin(run.w)
            assert low > 0


def test_a_relation_is_violated_only_when_certain() -> None:
    """Enclosures (scalars, or arrays of them): a violation only when every pair of
    values in them violates the relation."""
    import numpy as np

    from pla_proof.engine.enclosures import Interval as Enclosure
    from pla_proof.monitor.relations import certainly_violated

    assert certainly_violated(Enclosure(2.0, 3.0), "<=", Enclosure(0.0, 1.0))
    assert not certainly_violated(Enclosure(0.5, 3.0), "<=", Enclosure(0.0, 1.0))
    assert certainly_violated(Enclosure(1.0, 1.0), "<", Enclosure(0.0, 1.0))
    assert certainly_violated(Enclosure(0.0, 0.5), ">=", Enclosure(1.0, 2.0))
    assert certainly_violated(Enclosure(0.0, 1.0), ">", Enclosure(1.0, 2.0))
    assert certainly_violated(Enclosure(0.0, 0.5), "==", Enclosure(1.0, 2.0))
    assert not certainly_violated(Enclosure(0.0, 1.5), "==", Enclosure(1.0, 2.0))
    # (the monitor's one test of a relation on enclosures: arrays of them alike)
    lo, hi = np.array([2.0, 0.5]), np.array([3.0, 3.0])
    got = certainly_violated(Enclosure(lo, hi), "<=", Enclosure(np.zeros(2), np.ones(2)))
    assert got.tolist() == [True, False]
