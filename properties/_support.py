"""Shared pieces of the property suite: settings, pinned edge cases, replay and transforms.

>>> CORE.max_examples == CORE_FACTOR * _DEFAULT
True
>>> scale_data(PINNED["orthonormal:3"].data, Fraction(1, 2)).radius_squared
Fraction(1, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from pla_proof.data import Dataset, from_arrays, load
from pla_proof.numbers import dot
from pla_proof.strategies import (
    HypothesisChooser,
    SeparableCase,
    edge_case_datasets,
    separable_datasets,
)
from pla_proof.trainer import Chooser

#: Core properties run this many times the profile's examples (ci: 5 x 200 = 1000).
CORE_FACTOR = 5
_DEFAULT = settings.default.max_examples if settings.default is not None else 100
CORE = settings(max_examples=CORE_FACTOR * _DEFAULT)
#: Properties that run a few large or slow cases: a fifth of the profile's examples.
FEW = settings(max_examples=max(10, _DEFAULT // 5))

#: The bound cap that keeps generated runs short where size is not the point.
MAX_BOUND = 2000

#: Seeds for the ``random`` rule.
SEEDS = st.integers(0, 2**32 - 1)

#: Moderate separable data of every kind, margin regime and edge case.
CASES = st.one_of(
    separable_datasets(max_n=12, max_d=5, kind=None, margin=None, max_bound=MAX_BOUND),
    edge_case_datasets(max_n=8, max_d=5, kind=None, max_bound=MAX_BOUND),
)
#: Exact (int or rational) cases, for transformations that leave dyadic numbers.
EXACT_CASES = st.one_of(
    separable_datasets(max_n=12, max_d=5, kind="int", margin=None, max_bound=MAX_BOUND),
    separable_datasets(max_n=12, max_d=5, kind="rational", margin=None, max_bound=MAX_BOUND),
    edge_case_datasets(max_n=8, max_d=5, kind="rational", max_bound=MAX_BOUND),
)


def case(
    X: Sequence[Sequence[Any]], y: Sequence[int], u: Sequence[Any], name: str
) -> SeparableCase:
    """A pinned separable case; ``gamma`` is measured, not typed in."""
    data = from_arrays(X, y, name=name)
    uf = tuple(Fraction(v) for v in u)
    gamma = min(yi * dot(uf, x) for x, yi in zip(data.X, data.y, strict=True))
    assert gamma > 0, name
    return SeparableCase(data, uf, gamma)


def _builtin(spec: str, u: Sequence[Any]) -> SeparableCase:
    data = load(spec)
    uf = tuple(Fraction(v) for v in u)
    gamma = min(yi * dot(uf, x) for x, yi in zip(data.X, data.y, strict=True))
    return SeparableCase(data, uf, gamma)


#: Known edge cases, pinned with ``@example`` in the core properties.
PINNED: dict[str, SeparableCase] = {
    "single point, d = 1": case([[1]], [1], [1], "pin:single"),
    "single negative point": case([[3]], [-1], [-1], "pin:single-negative"),
    "orthonormal:3": _builtin("orthonormal:3", [1, -1, 1]),
    "maxviol:1/10": _builtin("maxviol:1/10", [1, 0]),
    "students (Lin's slides, bias)": _builtin("students", [1, 0, 0, 0, 0, -5]),
    "duplicates": case([[1, 2], [1, 2], [-1, 0], [-1, 0]], [1, 1, -1, -1], [1, 0], "pin:dup"),
    "one label": case([[1, 5], [2, -5], [1, 0]], [1, 1, 1], [1, 0], "pin:one-label"),
    "near hyperplane": case([[1, 10**9], [1, -(10**9)]], [1, 1], [1, 0], "pin:near"),
    "far point": case([[1, 1], [-1, 1], [10**12, 10**12]], [1, -1, 1], [1, 0], "pin:far"),
    "subspace": case([[1, 2, 3], [2, 4, 6], [-1, -2, -3]], [1, 1, -1], [1, 2, 3], "pin:subspace"),
    "tiny rational margin": case(
        [[Fraction(1, 10**6), 1], [Fraction(-1, 10**6), -1], [1, 0]], [1, -1, 1], [1, 0], "pin:tiny"
    ),
}


class ReplayChooser:
    """Replays a :class:`HypothesisChooser`'s picks and checks that every update sees the
    same violators, in the same order, as the recorded run (the decisions are unchanged)."""

    def __init__(self, picks: Sequence[tuple[int, tuple[int, ...], int]]):
        self.picks = list(picks)

    def __call__(self, violators: list[int], k: int) -> int:
        assert k <= len(self.picks), (
            f"the transformed run needs an update k={k} the original lacked"
        )
        _, expected, j = self.picks[k - 1]
        assert tuple(violators) == expected, (
            f"update k={k}: violators {violators} differ from the original run's {list(expected)}"
        )
        return j

    def __repr__(self) -> str:
        return f"ReplayChooser({len(self.picks)} picks)"


def again(order: str | Chooser) -> str | Chooser:
    """The same update order for a second run: a named rule runs again on its own; a
    Hypothesis chooser is replayed (checking the violators at every update)."""
    if isinstance(order, HypothesisChooser):
        return ReplayChooser(order.picks)
    return order


def scale_data(data: Dataset, c: Fraction) -> Dataset:
    """Every x multiplied by ``c``."""
    return Dataset(tuple(tuple(c * v for v in x) for x in data.X), data.y, name=f"{data.name}*{c}")


def matvec(Q: Sequence[Sequence[Fraction]], v: Sequence[Any]) -> tuple[Fraction, ...]:
    """``Q v`` exactly."""
    return tuple(sum((q * a for q, a in zip(row, v, strict=True)), Fraction(0)) for row in Q)


def map_data(data: Dataset, Q: Sequence[Sequence[Fraction]]) -> Dataset:
    """Every x replaced by ``Q x``."""
    return Dataset(tuple(matvec(Q, x) for x in data.X), data.y, name=f"Q({data.name})")


def negate_some(data: Dataset, flips: Sequence[bool]) -> Dataset:
    """``(x_i, y_i) -> (-x_i, -y_i)`` where ``flips[i]``."""
    X = tuple(tuple(-v for v in x) if f else x for x, f in zip(data.X, flips, strict=True))
    y = tuple(-yi if f else yi for yi, f in zip(data.y, flips, strict=True))
    return Dataset(X, y, name=f"negated({data.name})")


def min_margin(w: Sequence[Fraction], data: Dataset) -> Fraction:
    """``min_i y_i w.x_i``, exactly."""
    return Fraction(min(yi * dot(w, x) for x, yi in zip(data.X, data.y, strict=True)))
