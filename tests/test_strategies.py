"""The public strategies build what they promise (and refuse bad arguments)."""

from __future__ import annotations

import operator
from fractions import Fraction
from functools import partial
from typing import Any

import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from pla_proof.data import from_arrays
from pla_proof.errors import InputError
from pla_proof.numbers import dot, norm2
from pla_proof.strategies import (
    EDGE_CASES,
    KINDS,
    MARGINS,
    NON_SEPARABLE_PATTERNS,
    HypothesisChooser,
    NonSeparableCase,
    SeparableCase,
    edge_case_datasets,
    exact_vectors,
    hard_datasets,
    long_run_datasets,
    non_separable_datasets,
    rational_orthogonal_matrices,
    separable_datasets,
    update_orders,
)
from pla_proof.trainer import RULES, train

QUICK = settings(max_examples=60, database=None, deadline=None)


def _check_separable(case: SeparableCase) -> None:
    margins = [yi * dot(case.u, x) for x, yi in zip(case.data.X, case.data.y, strict=True)]
    assert case.gamma == min(margins) > 0
    assert case.bound == case.data.radius_squared * norm2(case.u) / case.gamma**2 >= 1
    assert case.comparator().gamma == case.gamma


def _rank(X: Any) -> int:
    rows = [list(r) for r in X]
    rank, col, d = 0, 0, len(rows[0])
    while rank < len(rows) and col < d:
        pivot = next((i for i in range(rank, len(rows)) if rows[i][col] != 0), None)
        if pivot is None:
            col += 1
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for i in range(len(rows)):
            if i != rank and rows[i][col] != 0:
                f = rows[i][col] / rows[rank][col]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[rank], strict=True)]
        rank, col = rank + 1, col + 1
    return rank


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("margin", MARGINS)
@QUICK
@given(data=st.data())
def test_separable_datasets_carry_a_separating_comparator(
    kind: str, margin: str, data: Any
) -> None:
    case = data.draw(separable_datasets(min_n=2, max_n=9, max_d=4, kind=kind, margin=margin))
    _check_separable(case)
    assert 2 <= case.data.n <= 9 and 1 <= case.data.d <= 4
    values = [v for x in case.data.X for v in x]
    if kind == "int":
        assert all(v.denominator == 1 for v in values)
    if kind == "float":
        assert all(Fraction(float(v)) == v for v in values)


@QUICK
@given(case=separable_datasets(kind=None, margin=None, max_coord=10**9, max_bound=50))
def test_max_bound_caps_the_bound_by_construction(case: SeparableCase) -> None:
    _check_separable(case)
    assert case.bound <= 50


@settings(QUICK, max_examples=5)
@given(case=separable_datasets(min_n=300, max_n=300, min_d=12, max_d=12, kind=None))
def test_data_sets_of_hundreds_of_points_are_valid(case: SeparableCase) -> None:
    assert (case.data.n, case.data.d) == (300, 12)
    _check_separable(case)


@pytest.mark.parametrize("labels", ["+1", "-1"])
def test_labels_can_be_fixed(labels: str) -> None:
    case = find(separable_datasets(min_n=4, labels=labels), lambda c: True)
    assert set(case.data.y) == {int(labels)}


#: a search that stops at the first example found (its shrinking is not under test)
FIRST = settings(phases=[Phase.generate], max_examples=1000, database=None)


def test_margin_regimes_reach_tiny_and_generous_unit_margins() -> None:
    def cos2(case: SeparableCase) -> Fraction:  # gamma^2 / (|u|^2 R^2) = 1 / bound
        return 1 / case.bound

    tiny = find(
        separable_datasets(margin="tiny", max_coord=10**6), lambda c: cos2(c) < 1e-9, settings=FIRST
    )
    generous = find(
        separable_datasets(min_n=5, margin="generous"), lambda c: cos2(c) > 0.3, settings=FIRST
    )
    _check_separable(tiny)
    _check_separable(generous)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("edge", EDGE_CASES)
@QUICK
@given(data=st.data())
def test_each_edge_case_is_separable_and_named(edge: str, kind: str, data: Any) -> None:
    case = data.draw(edge_case_datasets(cases=[edge], kind=kind))
    _check_separable(case)
    assert case.data.name == f"edge:{edge}"
    if edge == "single-point":
        assert case.data.n == 1
    if edge == "one-dimensional":
        assert case.data.d == 1
    if edge == "one-label":
        assert len(set(case.data.y)) == 1
    if edge == "duplicates":
        pairs = list(zip(case.data.X, case.data.y, strict=True))
        assert len(set(pairs)) < len(pairs)
    if edge == "subspace":
        assert _rank(case.data.X) < case.data.d


def test_edge_cases_reach_their_extremes() -> None:
    near = find(
        edge_case_datasets(cases=["near-hyperplane"]),
        lambda c: any(
            (yi * dot(c.u, x)) ** 2 < Fraction(1, 10**12) * norm2(c.u) * norm2(x)
            for x, yi in zip(c.data.X, c.data.y, strict=True)
        ),
        settings=FIRST,
    )
    far = find(
        edge_case_datasets(cases=["far-point"]),
        lambda c: max(norm2(x) for x in c.data.X) >= 10**12 * min(norm2(x) for x in c.data.X),
        settings=FIRST,
    )
    _check_separable(near)
    _check_separable(far)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("pattern", NON_SEPARABLE_PATTERNS)
@QUICK
@given(data=st.data())
def test_non_separable_datasets_carry_a_gordan_certificate(
    pattern: str, kind: str, data: Any
) -> None:
    case = data.draw(non_separable_datasets(patterns=[pattern], kind=kind))
    assert case.pattern == pattern
    assert case.certificate().verify(case.data)
    assert all(a >= 0 for a in case.alpha) and any(case.alpha)


def test_a_wrong_certificate_or_comparator_is_rejected() -> None:
    """The cases' own checks can fail: a perturbed certificate and a non-separating u."""
    case = NonSeparableCase(from_arrays([[1], [-1]], [1, 1]), (Fraction(1), Fraction(2)), "bad")
    assert not case.certificate().verify(case.data)
    bad = SeparableCase(from_arrays([[1], [2]], [1, -1]), (Fraction(1),), Fraction(1))
    with pytest.raises(InputError, match="does not separate"):
        bad.comparator()


def test_update_orders_cover_every_rule_and_hypothesis_choosing() -> None:
    for rule in RULES:
        assert find(update_orders(), partial(operator.eq, rule)) == rule
    chooser = find(update_orders(), lambda o: isinstance(o, HypothesisChooser))
    assert isinstance(chooser, HypothesisChooser)


@QUICK
@given(order=update_orders(rules=(), limit=3))
def test_hypothesis_chooser_picks_violators_and_falls_back_after_its_limit(order: Any) -> None:
    picks = [order([2, 5, 7], k) for k in range(1, 7)]
    assert all(p in (2, 5, 7) for p in picks)
    assert picks[3:] == [2, 2, 2]
    assert [k for k, _, _ in order.picks] == list(range(1, 7))


@QUICK
@given(data=st.data())
def test_rational_orthogonal_matrices_are_exactly_orthogonal(data: Any) -> None:
    d = data.draw(st.integers(1, 6))
    Q = data.draw(rational_orthogonal_matrices(d))
    for i in range(d):
        for j in range(d):
            assert dot(Q[i], Q[j]) == (1 if i == j else 0)


@QUICK
@given(v=exact_vectors(7, kind="rational", max_coord=5, max_denominator=3))
def test_exact_vectors_have_the_requested_shape(v: tuple[Fraction, ...]) -> None:
    assert len(v) == 7 and all(isinstance(c, Fraction) for c in v)
    assert all(abs(c) <= 5 and c.denominator in (1, 2, 3) for c in v)


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        (lambda: separable_datasets(min_n=0), "n: minimum"),
        (lambda: separable_datasets(min_d=3, max_d=2), "d: maximum"),
        (lambda: separable_datasets(kind="complex"), "kind must be one of"),
        (lambda: separable_datasets(margin="huge"), "margin must be one of"),
        (lambda: separable_datasets(max_bound=1), "max_bound must be > 1"),
        (lambda: separable_datasets(max_coord=0), "max_coord"),
        (lambda: separable_datasets(labels="0"), "labels must be one of"),
        (lambda: edge_case_datasets(cases=["corner"]), "edge case must be one of"),
        (lambda: edge_case_datasets(cases=[]), "at least one"),
        (lambda: non_separable_datasets(patterns=["spiral"]), "pattern must be one of"),
        (lambda: update_orders(["sideways"]), "rule must be one of"),
        (lambda: update_orders([], chooser=False), "needs a rule"),
        (lambda: exact_vectors(0), "d must be >= 1"),
    ],
)
def test_bad_arguments_are_refused_when_the_strategy_is_built(factory: Any, message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        factory()


@QUICK
@given(long_run_datasets())
def test_long_run_datasets_carry_a_separating_comparator(case: SeparableCase) -> None:
    _check_separable(case)
    assert 1 <= case.data.n <= 20 and 2 <= case.data.d <= 6


def test_the_default_hard_data_reach_size_and_length() -> None:
    """Issue 30: 16 points or more in every dimension the search uses, and long-run
    data among the draws (the earlier default: 12 points, every bound capped at 300)."""
    cfg = settings(QUICK, max_examples=1000, phases=[Phase.generate])
    for d in range(1, 7):

        def big(c: SeparableCase, d: int = d) -> bool:
            return c.data.d == d and c.data.n >= 16

        assert find(hard_datasets(), big, settings=cfg).data.n >= 16
    long = find(hard_datasets(), lambda c: c.data.name.startswith("long-run"), settings=cfg)
    assert long.data.d >= 2


def test_long_run_data_need_a_thousand_updates() -> None:
    case = find(
        long_run_datasets(max_n=2, max_d=2),
        lambda c: train(c.data, budget=1000).updates >= 1000,
        settings=settings(QUICK, max_examples=200, phases=[Phase.generate]),
    )
    assert train(case.data, budget=1000).updates >= 1000
