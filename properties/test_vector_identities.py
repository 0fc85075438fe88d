"""The vector facts behind the proof, on random exact vectors of dimension up to 50.

The symbolic layer proves the identities and Cauchy-Schwarz in general dimension (by
induction on d through Lagrange's step, with no trusted axiom); these properties check the
same lemma objects on random exact vectors, Cauchy-Schwarz and the Lagrange identity
included, as an independent test of the statements the monitor evaluates.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from pla_proof.numbers import dot, norm2
from pla_proof.proof.statements import lemma
from pla_proof.strategies import exact_vectors

DIMS = st.integers(1, 50)
KIND = st.sampled_from(["int", "rational"])


@st.composite
def vector_pairs(draw: Any) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    d, kind = draw(DIMS), draw(KIND)
    a = draw(exact_vectors(d, kind=kind))
    # Sometimes b is a multiple of a: the equality case of Cauchy-Schwarz.
    if draw(st.booleans()):
        c = draw(st.fractions(-100, 100, max_denominator=100))
        return a, tuple(c * v for v in a)
    return a, draw(exact_vectors(d, kind=kind))


def _parallel(a: tuple[Fraction, ...], b: tuple[Fraction, ...]) -> bool:
    return all(a[i] * b[j] == a[j] * b[i] for i in range(len(a)) for j in range(i + 1, len(a)))


@given(pair=vector_pairs())
@example(pair=((Fraction(0),), (Fraction(5),)))
@example(pair=((Fraction(1), Fraction(2)), (Fraction(2), Fraction(4))))
def test_cauchy_schwarz_holds_with_equality_exactly_for_parallel_vectors(
    pair: tuple[tuple[Fraction, ...], tuple[Fraction, ...]],
) -> None:
    """(u.w)^2 <= |u|^2 |w|^2 (lemma L4), with equality iff u and w are parallel."""
    u, w = pair
    lhs, rhs = dot(u, w) ** 2, norm2(u) * norm2(w)
    assert lhs <= rhs
    assert (lhs == rhs) == _parallel(u, w)
    if any(u):
        assert lemma("L4").holds({"pu1": dot(u, w), "uu": norm2(u), "n1": norm2(w)})


@given(pair=vector_pairs())
def test_lagrange_identity_gives_the_cauchy_schwarz_gap(
    pair: tuple[tuple[Fraction, ...], tuple[Fraction, ...]],
) -> None:
    """|u|^2 |w|^2 - (u.w)^2 = sum_{i<j} (u_i w_j - u_j w_i)^2."""
    u, w = pair
    gap = norm2(u) * norm2(w) - dot(u, w) ** 2
    d = len(u)
    assert gap == sum((u[i] * w[j] - u[j] * w[i]) ** 2 for i in range(d) for j in range(i + 1, d))


@given(pair=vector_pairs(), y=st.sampled_from([-1, 1]))
def test_norm_expansion_identity_holds_exactly(
    pair: tuple[tuple[Fraction, ...], tuple[Fraction, ...]], y: int
) -> None:
    """|w + y x|^2 = |w|^2 + 2 y (w.x) + |x|^2 for y = +-1 (lemma L5), and the progress
    identity u.(w + y x) = u.w + y u.x (lemma L1) with u = w."""
    w, x = pair
    w1 = tuple(a + y * b for a, b in zip(w, x, strict=True))
    assert norm2(w1) == norm2(w) + 2 * y * dot(w, x) + norm2(x)
    values = {"n1": norm2(w1), "n0": norm2(w), "t": y * dot(w, x), "xx": norm2(x)}
    assert lemma("L5").holds(values)
    assert lemma("L1").holds({"pu1": dot(w, w1), "pu": dot(w, w), "yux": y * dot(w, x)})
