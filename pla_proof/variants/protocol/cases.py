"""Hypothesis strategies for variant-specific inputs, each with a comparator known
by construction (or, for the pocket algorithm, arbitrary labelled points).

>>> from hypothesis import given, settings
>>> @settings(max_examples=20)
... @given(biased_cases())
... def test_bias_separator(case):
...     th = case.params["theta"]
...     assert all(y * (sum(a * b for a, b in zip(case.u, x)) + th) >= case.gamma > 0
...                for x, y in zip(case.X, case.y))
>>> test_bias_separator()
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from ...numbers import dot
from .variant import Case, hard_cases

__all__ = [
    "biased_cases",
    "far_threshold_cases",
    "float_case",
    "labelled_points",
    "multiclass_cases",
    "normalisable_cases",
    "rational_unit_vector",
    "separable_cases",
    "sign_labelled_biased_cases",
    "small_positive_fractions",
]


def separable_cases() -> Any:
    """Separable cases from :func:`pla_proof.strategies.separable_datasets` (small sizes)."""
    return hard_cases()


def small_positive_fractions() -> Any:
    """Positive rationals with small numerator and denominator (``1`` shrinks first)."""
    return st.builds(Fraction, st.integers(1, 6), st.integers(1, 4))


@st.composite
def biased_cases(draw: Any, max_n: int = 6, max_d: int = 2, max_coord: int = 5) -> Case:
    """Raw points separable by an affine separator ``y (u.x + theta) >= gamma > 0``.

    ``params``: ``theta`` (the offset) and ``c`` (a drawn augmentation constant > 0).
    """
    d = draw(st.integers(1, max_d))
    n = draw(st.integers(1, max_n))
    coord = st.integers(-max_coord, max_coord)
    u = draw(st.lists(coord, min_size=d, max_size=d))
    theta = draw(coord)
    assume(any(u) or theta != 0)
    m = draw(st.integers(1, max_coord))
    uu = dot(u, u)
    X: list[tuple[Fraction, ...]] = []
    y: list[int] = []
    for _ in range(n):
        v = draw(st.lists(coord, min_size=d, max_size=d))
        label = draw(st.sampled_from([1, -1]))
        s = label * (dot(u, v) + theta)
        if s < m:
            if uu == 0:
                label = -label if theta * label < 0 else label
                s = label * theta
            else:
                lam = -((s - m) // uu)
                v = [a + lam * label * b for a, b in zip(v, u, strict=True)]
        X.append(tuple(Fraction(a) for a in v))
        y.append(label)
    gamma = min(yi * (dot(u, x) + theta) for x, yi in zip(X, y, strict=True))
    assert gamma > 0
    c = draw(small_positive_fractions())
    uf = tuple(Fraction(a) for a in u)
    return Case(
        tuple(X), tuple(y), uf, Fraction(gamma), {"theta": Fraction(theta), "c": c}, "biased"
    )


@st.composite
def far_threshold_cases(draw: Any, max_n: int = 5, max_d: int = 2, max_offset: int = 12) -> Case:
    """Points far from the origin on both sides of a threshold close to them: ``x_1`` is
    ``A`` (label -1) or ``A + 1`` (label +1), other coordinates small, separated by
    ``x_1 = A + 1/2`` with margin 1 (``u = e_1`` scaled by 2, ``theta = -(2A + 1)``).
    The bias has to grow for many passes: the classic algorithm on ``(x, 1)`` needs 18
    epochs at ``A = 2`` and about 330 at ``A = 12`` -- the data an epoch budget meets.
    ``A`` shrinks toward 2, so a counterexample is the smallest such offset."""
    d = draw(st.integers(1, max_d))
    A = draw(st.integers(2, max_offset))
    n = draw(st.integers(2, max_n))
    labels = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n))
    assume(len(set(labels)) == 2)
    X = []
    for label in labels:
        rest = draw(st.lists(st.integers(-2, 2), min_size=d - 1, max_size=d - 1))
        X.append((Fraction(A + (label > 0)), *(Fraction(v) for v in rest)))
    u = (Fraction(2), *([Fraction(0)] * (d - 1)))
    return Case(tuple(X), tuple(labels), u, Fraction(1), {"theta": Fraction(-(2 * A + 1))}, "far")


@st.composite
def sign_labelled_biased_cases(
    draw: Any, max_n: int = 8, max_d: int = 2, max_coord: int = 4
) -> Case:
    """Small integer points labelled by the sign of ``u.x + theta`` (points on the
    hyperplane dropped): small margins, unlike :func:`biased_cases`' pushed points."""
    d = draw(st.integers(1, max_d))
    u = draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d).filter(any))
    theta = draw(st.integers(-3, 3))
    pts = draw(
        st.lists(
            st.lists(st.integers(-max_coord, max_coord), min_size=d, max_size=d),
            min_size=1,
            max_size=max_n,
        )
    )
    keep = [p for p in pts if dot(u, p) + theta != 0]
    assume(keep)
    X = tuple(tuple(Fraction(a) for a in p) for p in keep)
    y = tuple(1 if dot(u, p) + theta > 0 else -1 for p in keep)
    gamma = min(yi * (dot(u, p) + theta) for p, yi in zip(keep, y, strict=True))
    c = draw(small_positive_fractions())
    uf = tuple(Fraction(a) for a in u)
    return Case(X, y, uf, Fraction(gamma), {"theta": Fraction(theta), "c": c}, "sign-labelled")


def rational_unit_vector(t: list[Fraction]) -> tuple[Fraction, ...]:
    """Inverse stereographic projection of ``t`` in Q^(d-1): a unit vector in Q^d.

    >>> v = rational_unit_vector([Fraction(1, 2)])
    >>> v, sum(a * a for a in v)
    ((Fraction(4, 5), Fraction(-3, 5)), Fraction(1, 1))
    """
    s = sum((a * a for a in t), Fraction(0))
    return (*(2 * a / (s + 1) for a in t), (s - 1) / (s + 1))


@st.composite
def normalisable_cases(draw: Any, max_n: int = 6, max_d: int = 3) -> Case:
    """Points with rational norms (``x = r v``, ``v`` a rational unit vector), labelled
    by the sign of ``u.x`` for an integer ``u`` (points with ``u.x = 0`` dropped)."""
    d = draw(st.integers(1, max_d))
    n = draw(st.integers(1, max_n))
    u = draw(st.lists(st.integers(-4, 4), min_size=d, max_size=d).filter(any))
    X: list[tuple[Fraction, ...]] = []
    y: list[int] = []
    for _ in range(n):
        if d == 1:
            v: tuple[Fraction, ...] = (Fraction(draw(st.sampled_from([1, -1]))),)
        else:
            t = draw(
                st.lists(
                    st.builds(Fraction, st.integers(-4, 4), st.integers(1, 3)),
                    min_size=d - 1,
                    max_size=d - 1,
                )
            )
            v = rational_unit_vector(t)
            if draw(st.booleans()):
                v = tuple(-a for a in v)
        r = Fraction(draw(st.integers(1, 5)), draw(st.integers(1, 2)))
        x = tuple(r * a for a in v)
        s = dot(u, x)
        if s == 0:
            continue
        X.append(x)
        y.append(1 if s > 0 else -1)
    assume(X)
    uf = tuple(Fraction(a) for a in u)
    gamma = min(yi * dot(uf, x) for x, yi in zip(X, y, strict=True))
    return Case(tuple(X), tuple(y), uf, Fraction(gamma), {}, "normalisable")


@st.composite
def multiclass_cases(draw: Any, max_n: int = 6, max_d: int = 2, max_classes: int = 3) -> Case:
    """Points labelled ``argmax_r u_r.x`` for an integer matrix ``U`` (rows ``u_r``),
    points whose best score is tied dropped.  ``Case.u`` is ``U`` flattened row by row,
    labels are class indices ``0..m-1``, ``params["classes"] = m`` and ``gamma`` the
    multiclass margin ``min_i (u_{y_i}.x_i - max_{r != y_i} u_r.x_i)``."""
    m = draw(st.integers(2, max_classes))
    d = draw(st.integers(1, max_d))
    n = draw(st.integers(1, max_n))
    coord = st.integers(-3, 3)
    U = [draw(st.lists(coord, min_size=d, max_size=d)) for _ in range(m)]
    X: list[tuple[Fraction, ...]] = []
    y: list[int] = []
    for _ in range(n):
        x = draw(st.lists(st.integers(-4, 4), min_size=d, max_size=d))
        scores = [dot(r, x) for r in U]
        best = max(scores)
        if scores.count(best) > 1:
            continue
        X.append(tuple(Fraction(a) for a in x))
        y.append(scores.index(best))
    assume(X)
    gamma = min(_multiclass_margin(U, x, yi) for x, yi in zip(X, y, strict=True))
    u = tuple(Fraction(a) for row in U for a in row)
    return Case(tuple(X), tuple(y), u, Fraction(gamma), {"classes": m}, "multiclass")


def _multiclass_margin(U: list[list[int]], x: tuple[Fraction, ...], label: int) -> Fraction:
    s = [dot(r, x) for r in U]
    return Fraction(s[label] - max(v for i, v in enumerate(s) if i != label))


@st.composite
def labelled_points(draw: Any, max_n: int = 7, max_d: int = 2) -> Case:
    """Arbitrary small integer points with arbitrary labels (often not separable);
    the comparator is a placeholder (``u = 0``, ``gamma = 0``): no margin is claimed."""
    d = draw(st.integers(1, max_d))
    n = draw(st.integers(1, max_n))
    X = tuple(
        tuple(Fraction(a) for a in draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d)))
        for _ in range(n)
    )
    y = tuple(draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n)))
    return Case(X, y, tuple(Fraction(0) for _ in range(d)), Fraction(0), {}, "labelled")


def float_case(case: Case) -> Case | None:
    """The case with every coordinate rounded to float64 (its margin measured again);
    ``None`` when the comparator no longer separates the rounded data."""
    X = tuple(tuple(Fraction(float(v)) for v in x) for x in case.X)
    if X == case.X:
        return case
    margins = [
        yi * sum((a * b for a, b in zip(case.u, x, strict=True)), Fraction(0))
        for x, yi in zip(X, case.y, strict=True)
    ]
    if not margins or min(margins) <= 0:
        return None
    return Case(X, case.y, case.u, min(margins), dict(case.params), case.name)
