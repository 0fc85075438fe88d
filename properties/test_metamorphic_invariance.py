"""Metamorphic properties: transformations that must not change what the Perceptron does.

Each compares two runs: the same update sequence (``choices``), the same number of
updates, trigger values and norms transformed as predicted at every update, and the
returned ``w`` transformed as predicted.  Named rules decide again on their own; a
Hypothesis-chosen order is replayed and must see the same violators at every update.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from pla_proof.data import Bias, Dataset
from pla_proof.numbers import dot
from pla_proof.strategies import (
    SeparableCase,
    exact_vectors,
    rational_orthogonal_matrices,
    update_orders,
)
from pla_proof.trainer import Run, train

from ._support import (
    CASES,
    EXACT_CASES,
    PINNED,
    SEEDS,
    again,
    map_data,
    matvec,
    negate_some,
    scale_data,
)

#: Budget of each bias-convention run (shifted data can have a large bound).
BIAS_BUDGET = 500

POSITIVE = st.one_of(
    st.fractions(min_value=Fraction(1, 10**6), max_value=10**6),
    st.integers(0, 40).map(lambda e: Fraction(2) ** (e - 20)),
)


def _same_decisions(a: Run, b: Run) -> None:
    """The second run (given the first run's update count as budget) decided the same."""
    assert (a.status, b.status) == ("converged", "converged"), b.violation
    assert a.violation is None and b.violation is None
    assert b.updates == a.updates
    assert b.choices == a.choices


def _values(run: Run, name: str) -> list[Any]:
    return [step.values[name] for step in run.steps]


@given(case=CASES, order=update_orders(), seed=SEEDS, c=POSITIVE)
@example(case=PINNED["maxviol:1/10"], order="maxviol", seed=0, c=Fraction(1, 3))
def test_scaling_every_x_by_c_leaves_decisions_and_bound_unchanged(
    case: SeparableCase, order: Any, seed: int, c: Fraction
) -> None:
    """x -> c x (c > 0): same updates; w -> c w; t -> c^2 t; R, gamma -> c R, c gamma."""
    a = train(case.data, rule=order, seed=seed, comparator=case.u)
    b = train(
        scale_data(case.data, c), rule=again(order), seed=seed, comparator=case.u, budget=a.updates
    )
    _same_decisions(a, b)
    assert b.w == tuple(c * v for v in a.w)
    assert _values(b, "t") == [c * c * t for t in _values(a, "t")]
    assert b.bound == a.bound


@given(case=EXACT_CASES, order=update_orders(), seed=SEEDS, data=st.data())
def test_an_orthogonal_change_of_coordinates_leaves_decisions_unchanged(
    case: SeparableCase, order: Any, seed: int, data: Any
) -> None:
    """x -> Q x, u -> Q u with Q a rational orthogonal matrix (signed permutation times
    Pythagorean rotations): same updates; w -> Q w; every dot product and norm unchanged."""
    Q = data.draw(rational_orthogonal_matrices(case.data.d), label="Q")
    a = train(case.data, rule=order, seed=seed, comparator=case.u)
    b = train(
        map_data(case.data, Q),
        rule=again(order),
        seed=seed,
        comparator=matvec(Q, case.u),
        budget=a.updates,
    )
    _same_decisions(a, b)
    assert b.w == matvec(Q, a.w)
    for name in ("t", "pu", "pu1", "n0", "n1", "xx"):
        assert _values(b, name) == _values(a, name), name
    assert b.bound == a.bound


@given(case=CASES, order=update_orders(), seed=SEEDS, data=st.data())
def test_negating_x_and_y_together_leaves_decisions_unchanged(
    case: SeparableCase, order: Any, seed: int, data: Any
) -> None:
    """(x_i, y_i) -> (-x_i, -y_i) for any subset: y_i x_i is unchanged, so is everything."""
    flips = data.draw(st.lists(st.booleans(), min_size=case.data.n, max_size=case.data.n))
    a = train(case.data, rule=order, seed=seed, comparator=case.u)
    b = train(
        negate_some(case.data, flips),
        rule=again(order),
        seed=seed,
        comparator=case.u,
        budget=a.updates,
    )
    _same_decisions(a, b)
    assert b.w == a.w
    assert [s.values for s in b.steps] == [s.values for s in a.steps]


@given(case=EXACT_CASES, order=update_orders(), seed=SEEDS, eta=POSITIVE)
@example(case=PINNED["orthonormal:3"], order="cyclic", seed=0, eta=Fraction(1, 3))
@example(case=PINNED["maxviol:1/10"], order="maxviol", seed=0, eta=Fraction(1, 3))
def test_a_learning_rate_eta_leaves_decisions_unchanged(
    case: SeparableCase, order: Any, seed: int, eta: Fraction
) -> None:
    """w <- w + eta y x (eta > 0, w_0 = 0) keeps w_eta = eta w, so every trigger
    y w.x <= 0 decides the same: same updates, w -> eta w."""

    def rate(w: Any, x: Any, y: int) -> list[Any]:
        return [a + eta * y * b for a, b in zip(w, x, strict=True)]

    a = train(case.data, rule=order, seed=seed, comparator=None)
    b = train(
        case.data, rule=again(order), seed=seed, comparator=None, update=rate, budget=a.updates
    )
    _same_decisions(a, b)
    assert b.w == tuple(eta * v for v in a.w)


def _translated(case: SeparableCase, shift: tuple[Fraction, ...]) -> tuple[Dataset, Fraction]:
    """The data moved by ``shift``: separable by the affine rule u.x - u.shift."""
    X = tuple(tuple(a + b for a, b in zip(x, shift, strict=True)) for x in case.data.X)
    return Dataset(X, case.data.y, name=f"{case.data.name}+shift"), Fraction(dot(case.u, shift))


def _decisions(run: Run, bias: Bias, points: Any) -> list[Any]:
    """The convention's own decision values w.x + b (augment, separate) or w.x - b."""
    w, b = bias.split(run.w)
    sign = -1 if bias.name == "minus-one" else 1
    return [dot(w, x) + sign * b for x in points]


@given(case=CASES, order=update_orders(), seed=SEEDS, data=st.data())
def test_the_three_bias_conventions_give_identical_decisions(
    case: SeparableCase, order: Any, seed: int, data: Any
) -> None:
    """(x, 1) (Cornell CS4780 and Lin 2023), (x, -1) with b <- b - y (the perceptron course
    page), and a separate b <- b + y (the DSC 255 handout): same updates and the same
    decision value on every point, on data that need the bias (the points are shifted off
    the origin)."""
    d = case.data.d
    shift = data.draw(exact_vectors(d, max_coord=4), label="shift")
    raw, theta = _translated(case, shift)
    probes = data.draw(st.lists(exact_vectors(d, max_coord=50), max_size=5), label="probes")
    runs: dict[str, Run] = {}
    values: dict[str, list[Any]] = {}
    for name in ("augment", "minus-one", "separate"):
        bias = Bias.parse(name)
        assert bias is not None
        biased = raw.with_bias(bias)
        u = (*case.u, -theta / bias.c)  # (u, -theta/c) . (x + shift, c) = u.x
        rule = order if name == "augment" else again(order)
        # The shift can make the bound large; the claim is identical decisions, so all
        # three runs get the same budget and must end the same way.
        runs[name] = train(biased, rule=rule, seed=seed, comparator=u, budget=BIAS_BUDGET)
        assert runs[name].violation is None, runs[name].violation
        values[name] = _decisions(runs[name], bias, [*raw.X, *probes])
    first = runs["augment"]
    for name, run in runs.items():
        assert (run.status, run.updates, run.choices) == (
            first.status,
            first.updates,
            first.choices,
        )
        assert values[name] == values["augment"], name
    if first.status == "converged":
        assert all(yi * v > 0 for v, yi in zip(values["augment"], raw.y, strict=False))
    else:
        assert first.status == "budget_exhausted"
