"""Every promise a public strategy makes "by construction" holds exactly, on every kind
of data it draws (pla_proof.strategies): the margin, the bound cap, the sizes, the
labels, the number kind, the magnitude, each edge case's shape, every Gordan
certificate, exact orthogonality."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from pla_proof.numbers import dot, norm2
from pla_proof.strategies import (
    EDGE_CASES,
    KINDS,
    MAGNITUDES,
    NON_SEPARABLE_PATTERNS,
    SeparableCase,
    edge_case_datasets,
    exact_vectors,
    hard_datasets,
    non_separable_datasets,
    rational_orthogonal_matrices,
    separable_datasets,
)

kinds = st.sampled_from(KINDS)
bounds = st.sampled_from([None, 2, Fraction(7, 2), 50, 300])


def exact_margin(case: SeparableCase) -> Fraction:
    return min(
        Fraction(yi * dot(case.u, x)) for x, yi in zip(case.data.X, case.data.y, strict=True)
    )


def exact_bound(case: SeparableCase) -> Fraction:
    R2 = max(Fraction(norm2(x)) for x in case.data.X)
    return R2 * Fraction(norm2(case.u)) / case.gamma**2


def keeps_its_kind(case: SeparableCase, kind: str) -> bool:
    X = case.data.X
    if kind == "int":
        return all(v.denominator == 1 for x in X for v in x)
    if kind == "float":
        return all(Fraction(float(v)) == v for x in X for v in x)
    if kind == "decimal":
        return all(10**9 % v.denominator == 0 for x in X for v in x)
    # rational: each point over its own denominator, at most 12
    return all(math.lcm(*(v.denominator for v in x)) <= 12 for x in X)


def check(case: SeparableCase, max_bound: Any) -> None:
    assert case.gamma == exact_margin(case) > 0
    assert case.bound == exact_bound(case)
    if max_bound is not None:
        assert case.bound <= max_bound  # exactly, float data included


@given(st.data(), kinds, st.sampled_from(["any", "generous", "tiny"]), bounds)
def test_separable_datasets_keep_margin_bound_sizes_labels_and_kind(
    data: st.DataObject, kind: str, margin: str, max_bound: Any
) -> None:
    labels = data.draw(st.sampled_from(["mixed", "+1", "-1"]))
    coord = data.draw(st.sampled_from([20, 10**9]))
    case = data.draw(
        separable_datasets(
            min_n=2,
            max_n=9,
            min_d=2,
            max_d=4,
            max_coord=coord,
            kind=kind,
            margin=margin,
            max_bound=max_bound,
            labels=labels,
        )
    )
    check(case, max_bound)
    assert 2 <= case.data.n <= 9 and 2 <= case.data.d <= 4
    if labels != "mixed":
        assert set(case.data.y) == {int(labels)}
    assert keeps_its_kind(case, kind)


@given(st.data(), kinds, st.sampled_from(MAGNITUDES), bounds)
def test_magnitudes_keep_every_promise_and_reach_their_range(
    data: st.DataObject, kind: str, magnitude: str, max_bound: Any
) -> None:
    case = data.draw(separable_datasets(kind=kind, magnitude=magnitude, max_bound=max_bound))
    check(case, max_bound)
    top = max(abs(v) for x in case.data.X for v in x)
    if magnitude == "int32":
        assert top > 2**31 - 1
    if magnitude == "int64":
        assert top > 2**63 - 1
    if kind == "float":
        assert keeps_its_kind(case, "float")  # powers of two keep float data exact


@given(st.data(), st.sampled_from(EDGE_CASES), st.sampled_from([*KINDS, None]), bounds)
def test_edge_cases_have_their_shape(
    data: st.DataObject, name: str, kind: str | None, max_bound: Any
) -> None:
    case = data.draw(edge_case_datasets(cases=[name], kind=kind, max_bound=max_bound))
    check(case, max_bound)
    X, y = case.data.X, case.data.y
    assert case.data.name.startswith(f"edge:{name}")
    if name == "single-point":
        assert case.data.n == 1
    elif name == "one-dimensional":
        assert case.data.d == 1
    elif name == "one-label":
        assert len(set(y)) == 1
    elif name == "duplicates":
        assert len(set(X)) < len(X)
    elif name == "subspace":
        assert _rank(X) < case.data.d
    if kind is not None and name != "duplicates":  # duplicates scale the whole set
        assert keeps_its_kind(case, kind)


@given(hard_datasets())
def test_hard_datasets_keep_the_default_cap(case: SeparableCase) -> None:
    # bound not capped: a long run, or points 1 to 10^-12 apart in scale
    uncapped = case.data.name.startswith(("long-run", "edge:mixed-scale"))
    check(case, None if uncapped else 300)
    assert case.data.n <= 20 and case.data.d <= 6


@given(st.data(), st.sampled_from(NON_SEPARABLE_PATTERNS), st.sampled_from(["int", "rational"]))
def test_every_non_separable_case_carries_a_gordan_certificate(
    data: st.DataObject, pattern: str, kind: str
) -> None:
    case = data.draw(non_separable_datasets(patterns=[pattern], kind=kind))
    alpha = case.alpha
    assert all(a >= 0 for a in alpha) and any(alpha)
    d = case.data.d
    total = [
        sum(
            (a * yi * x[c] for a, x, yi in zip(alpha, case.data.X, case.data.y, strict=True)),
            Fraction(0),
        )
        for c in range(d)
    ]
    assert total == [0] * d


@given(st.integers(1, 6).flatmap(lambda d: st.tuples(st.just(d), rational_orthogonal_matrices(d))))
def test_rational_orthogonal_matrices_are_exactly_orthogonal(t: tuple[int, Any]) -> None:
    d, Q = t
    for i in range(d):
        for j in range(d):
            assert sum((Q[i][k] * Q[j][k] for k in range(d)), Fraction(0)) == (i == j)


@given(
    st.integers(1, 5).flatmap(
        lambda d: st.tuples(st.just(d), exact_vectors(d, kind="rational", max_denominator=9))
    )
)
def test_exact_vectors_have_their_dimension_and_denominators(t: tuple[int, Any]) -> None:
    d, v = t
    assert len(v) == d and all(isinstance(c, Fraction) and c.denominator <= 9 for c in v)


def test_float_data_keep_the_bound_cap_after_rounding() -> None:
    # float data whose coordinates need more than 53 bits are rounded to float64; the
    # cap used to be met before the rounding only (a bound of 50 + 1.4e-15 was drawn).
    # This search (derandomised) found such a case among its 1000 draws; now none exists.
    strategy = separable_datasets(kind="float", margin=None, max_coord=10**9, max_bound=50)
    cfg = settings(
        max_examples=1000,
        database=None,
        derandomize=True,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    try:
        case = find(strategy, lambda c: c.bound > 50, settings=cfg)
    except NoSuchExample:
        return
    raise AssertionError(f"bound {float(case.bound)} > 50 on {case.data.name}")


def _rank(X: Any) -> int:
    rows = [list(map(Fraction, x)) for x in X]
    rank, cols = 0, len(rows[0]) if rows else 0
    for c in range(cols):
        pivot = next((r for r in range(rank, len(rows)) if rows[r][c] != 0), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for r in range(len(rows)):
            if r != rank and rows[r][c] != 0:
                f = rows[r][c] / rows[rank][c]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[rank], strict=True)]
        rank += 1
    return rank
