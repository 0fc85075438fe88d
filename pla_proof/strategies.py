"""Public Hypothesis strategies for the Perceptron proof (like ``hypothesis.extra.numpy``).

Separable data sets are *built* with their comparator, so ``u`` and its margin are
known by construction (no rejection sampling).

>>> from hypothesis import given
>>> @given(separable_datasets(max_n=5, max_d=3))
... def test_margin_is_positive(case):
...     assert case.gamma > 0
>>> test_margin_is_positive()
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from .data import Dataset
from .numbers import dot

__all__ = ["SeparableCase", "separable_datasets"]


@dataclass(frozen=True)
class SeparableCase:
    """A separable data set with a separating comparator known by construction.

    ``gamma = min_i y_i u.x_i > 0`` (homogeneous in ``u``); the unit-vector bound is
    ``radius_squared * |u|^2 / gamma^2``.
    """

    data: Dataset
    u: tuple[Fraction, ...]
    gamma: Fraction

    @property
    def radius_squared(self) -> Fraction:
        return self.data.radius_squared

    @property
    def bound(self) -> Fraction:
        uu = sum((v * v for v in self.u), Fraction(0))
        return self.radius_squared * uu / self.gamma**2


@st.composite
def separable_datasets(
    draw: Any,
    *,
    min_n: int = 1,
    max_n: int = 20,
    min_d: int = 1,
    max_d: int = 6,
    max_coord: int = 20,
    kind: str = "int",
) -> SeparableCase:
    """Separable data with their comparator.

    ``kind``: ``int`` (integer coordinates), ``rational`` (a common denominator up
    to 10), or ``float`` (dyadic values, exactly representable in float64).
    Points are drawn, then pushed along ``y u`` until ``y u.x >= m`` for a drawn
    target margin ``m >= 1`` (in the integer lattice this is generous or tiny
    relative to ``R`` depending on ``max_coord``).
    """
    d = draw(st.integers(min_d, max_d))
    n = draw(st.integers(min_n, max_n))
    coord = st.integers(-max_coord, max_coord)
    u = draw(st.lists(coord, min_size=d, max_size=d).filter(lambda v: any(v)))
    uu = dot(u, u)
    m = draw(st.integers(1, max(1, max_coord)))
    X: list[list[int]] = []
    y: list[int] = []
    for _ in range(n):
        v = draw(st.lists(coord, min_size=d, max_size=d))
        label = draw(st.sampled_from([-1, 1]))
        s = label * dot(u, v)
        if s < m:
            lam = -((s - m) // uu)  # ceil((m - s) / uu)
            v = [a + lam * label * b for a, b in zip(v, u, strict=True)]
        X.append(v)
        y.append(label)
    if kind == "int":
        q = 1
    elif kind == "rational":
        q = draw(st.integers(1, 10))
    elif kind == "float":
        q = 2 ** draw(st.integers(0, 8))
    else:
        raise ValueError(f"kind must be 'int', 'rational' or 'float', got {kind!r}")
    Xq = tuple(tuple(Fraction(a, q) for a in row) for row in X)
    uf = tuple(Fraction(a) for a in u)
    data = Dataset(Xq, tuple(y), name=f"generated-{kind}")
    gamma = min(yi * dot(uf, x) for x, yi in zip(Xq, y, strict=True))
    assert gamma > 0
    return SeparableCase(data, uf, gamma)
