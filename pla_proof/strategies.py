"""Public Hypothesis strategies for the Perceptron proof (like ``hypothesis.extra.numpy``).

Every data set is *built* together with what the proof needs to know about it, so
nothing is rejection-sampled:

* :func:`separable_datasets` and :func:`edge_case_datasets` give a
  :class:`SeparableCase`: the data, a separating comparator ``u`` and its margin
  ``gamma = min_i y_i u.x_i > 0`` (homogeneous: not divided by ``|u|``);
* :func:`non_separable_datasets` gives a :class:`NonSeparableCase` with its Gordan
  certificate ``alpha >= 0, alpha != 0, sum_i alpha_i y_i x_i = 0``;
* :func:`update_orders` gives every selection rule of the trainer, or a chooser
  with which Hypothesis itself picks the violator at each update;
* :func:`exact_vectors` and :func:`rational_orthogonal_matrices` give exact
  vectors and exactly orthogonal rational matrices.

>>> from hypothesis import given
>>> @given(separable_datasets(max_n=5, max_d=3))
... def test_margin_is_positive(case):
...     assert case.gamma > 0
>>> test_margin_is_positive()
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from .data import Dataset
from .monitor import Comparator, make_comparator
from .numbers import dot, norm2
from .trainer import RULES, Certificate

__all__ = [
    "EDGE_CASES",
    "KINDS",
    "MAGNITUDES",
    "MARGINS",
    "NON_SEPARABLE_PATTERNS",
    "NUMBER_KINDS",
    "HypothesisChooser",
    "NonSeparableCase",
    "SeparableCase",
    "bound_pushing_datasets",
    "edge_case_datasets",
    "exact_vectors",
    "hard_datasets",
    "hypothesis_choosers",
    "long_run_datasets",
    "mixed_scale_datasets",
    "non_separable_datasets",
    "numeric_datasets",
    "rational_orthogonal_matrices",
    "separable_datasets",
    "update_orders",
]

#: Number kinds: integer coordinates, rationals (each point over its own denominator),
#: decimals (each point over its own power of ten) and floats (values exactly
#: representable in float64).
KINDS = ("int", "rational", "decimal", "float")
#: Magnitudes of a whole data set (the bound is scale-free, so scaling keeps every
#: claim): ``unit`` as drawn, ``small`` scaled down by up to 1e9, ``large`` up by up to
#: 1e9, ``int32``/``int64``: the largest coordinate beyond that integer range.
MAGNITUDES = ("unit", "small", "large", "int32", "int64")
#: Margin regimes: ``generous`` (points far from the hyperplane), ``tiny`` (points
#: pushed just across it, comparator coordinates as large as ``max_coord``) or ``any``.
MARGINS = ("any", "generous", "tiny")
#: The edge cases a proof checker must face (the ``name`` of each generated data set
#: is ``edge:<case>``).
EDGE_CASES = (
    "single-point",
    "one-dimensional",
    "one-label",
    "duplicates",
    "near-hyperplane",
    "far-point",
    "subspace",
)
#: Non-separable patterns, each with its Gordan certificate known by construction.
NON_SEPARABLE_PATTERNS = ("xor", "negation", "zero-sum", "zero-point")

#: Above this many coordinates, points come from a seeded generator (one draw)
#: instead of one Hypothesis draw per coordinate.
_BULK = 600
_MAX_FLOAT_EXPONENT = 20


@dataclass(frozen=True)
class SeparableCase:
    """A separable data set with a separating comparator known by construction.

    ``gamma = min_i y_i u.x_i > 0`` (homogeneous in ``u``); the unit-vector bound is
    ``radius_squared * |u|^2 / gamma^2``.

    >>> from pla_proof.data import load
    >>> case = SeparableCase(load("orthonormal:3"), (Fraction(1), Fraction(-1), Fraction(1)),
    ...                      Fraction(1))
    >>> case.uu, case.bound
    (Fraction(3, 1), Fraction(3, 1))
    """

    data: Dataset
    u: tuple[Fraction, ...]
    gamma: Fraction

    @property
    def radius_squared(self) -> Fraction:
        return self.data.radius_squared

    @property
    def uu(self) -> Fraction:
        """``|u|^2``."""
        return sum((v * v for v in self.u), Fraction(0))

    @property
    def bound(self) -> Fraction:
        """``R^2 |u|^2 / gamma^2``: the theorem's bound ``R^2/gamma^2`` for ``u/|u|``."""
        return self.radius_squared * self.uu / self.gamma**2

    def comparator(self, *, strict: bool = False, gamma: Any = None) -> Comparator:
        """The validated :class:`~pla_proof.monitor.Comparator` for ``u``."""
        return make_comparator(self.data, self.u, strict=strict, gamma=gamma, source="generator")


@dataclass(frozen=True)
class NonSeparableCase:
    """A data set no vector separates, with a Gordan certificate known by construction.

    >>> from pla_proof.data import from_arrays
    >>> case = NonSeparableCase(from_arrays([[1], [-1]], [1, 1]), (Fraction(1), Fraction(1)),
    ...                         "negation")
    >>> case.certificate().verify(case.data)
    True
    """

    data: Dataset
    alpha: tuple[Fraction, ...]
    pattern: str

    def certificate(self) -> Certificate:
        """``alpha`` as a trainer :class:`~pla_proof.trainer.Certificate`."""
        return Certificate(self.alpha, "construction")


# --- helpers ---------------------------------------------------------------------------


def _check_range(name: str, lo: int, hi: int, floor: int) -> None:
    if lo < floor:
        raise InvalidArgument(f"{name}: minimum must be >= {floor}, got {lo}")
    if hi < lo:
        raise InvalidArgument(f"{name}: maximum {hi} is below the minimum {lo}")


def _check_choice(name: str, value: Any, allowed: Sequence[str], allow_none: bool = True) -> None:
    if value is None and allow_none:
        return
    if value not in allowed:
        raise InvalidArgument(f"{name} must be one of {', '.join(allowed)}, got {value!r}")


def _int_vectors(draw: Any, count: int, d: int, max_coord: int) -> list[list[int]]:
    """``count`` integer vectors; one Hypothesis draw per coordinate unless the data are bulky."""
    if count * d <= _BULK:
        coord = st.integers(-max_coord, max_coord)
        return [draw(st.lists(coord, min_size=d, max_size=d)) for _ in range(count)]
    rng = random.Random(draw(st.integers(0, 2**64 - 1), label="bulk seed"))
    return [[rng.randint(-max_coord, max_coord) for _ in range(d)] for _ in range(count)]


def _labels(draw: Any, count: int, labels: str) -> list[int]:
    if labels == "+1":
        return [1] * count
    if labels == "-1":
        return [-1] * count
    if count <= _BULK:
        out: list[int] = draw(st.lists(st.sampled_from([-1, 1]), min_size=count, max_size=count))
        return out
    rng = random.Random(draw(st.integers(0, 2**64 - 1), label="bulk label seed"))
    return [rng.choice((-1, 1)) for _ in range(count)]


def _comparator_vector(draw: Any, d: int, max_u: int) -> list[int]:
    u: list[int] = draw(st.lists(st.integers(-max_u, max_u), min_size=d, max_size=d))
    if not any(u):
        u[draw(st.integers(0, d - 1))] = 1
    return u


def _push(
    v: Sequence[int], label: int, u: Sequence[int], uu: int, m: int, step: int = 1
) -> list[int]:
    """Move ``v`` along ``label * u`` in multiples of ``step`` until ``label * u.v >= m``
    (unchanged if it already is)."""
    s = label * dot(u, v)
    if s >= m:
        return list(v)
    lam = -((s - m) // (uu * step))  # ceil((m - s) / (step |u|^2))
    return [a + lam * step * label * b for a, b in zip(v, u, strict=True)]


def _lcm_den(row: Sequence[Fraction]) -> int:
    scale = 1
    for v in row:
        scale = math.lcm(scale, v.denominator)
    return scale


def _bound(X: Sequence[Sequence[Fraction]], y: Sequence[int], u: Sequence[int]) -> Fraction:
    uu = norm2(u)
    gamma = min(yi * dot(u, x) for x, yi in zip(X, y, strict=True))
    return Fraction(max(norm2(x) for x in X) * uu) / Fraction(gamma) ** 2


def _within(W: Sequence[Sequence[int]], y: Sequence[int], u: Sequence[int], cap: Fraction) -> bool:
    uu = norm2(u)
    low = min(yi * dot(u, w) for w, yi in zip(W, y, strict=True))
    top = max(norm2(w) for w in W)
    return bool(top * uu * cap.denominator <= cap.numerator * low * low)


def _cap(
    W: list[list[int]],
    y: Sequence[int],
    u: Sequence[int],
    cap: Fraction,
    steps: Sequence[int] | None = None,
) -> list[list[int]]:
    """Raise the smallest margins until ``R^2 |u|^2 / gamma^2 <= cap``.

    Points whose margin ``y u.W`` is below ``m = ceil(sqrt(R^2 |u|^2 / cap))`` are pushed
    along ``y u`` to a margin in ``[m, m + step |u|^2)``; the others stay where they
    are, so the result keeps points as near the hyperplane as the cap allows.  Pushing
    grows R a little; repeat (a few rounds; after 60 every point is pushed by the same
    amount until the bound fits, which always ends because that bound tends to 1).
    Integers only: the bound is scale-free, so ``W`` may be the data times a common
    scale; ``steps[i]`` (default 1) is the unit point ``i`` moves by, so that a point kept
    over its own denominator stays over it.
    """
    uu = norm2(u)
    st_ = list(steps) if steps is not None else [1] * len(W)
    for _ in range(60):
        if _within(W, y, u, cap):
            return W
        top = max(norm2(w) for w in W)
        m = math.isqrt(top * uu * cap.denominator // cap.numerator) + 1
        W = [_push(w, yi, u, uu, m, k) for w, yi, k in zip(W, y, st_, strict=True)]
    t = 1
    while True:
        pushed = [
            [a + t * k * yi * b for a, b in zip(w, u, strict=True)]
            for w, yi, k in zip(W, y, st_, strict=True)
        ]
        if _within(pushed, y, u, cap):
            return pushed
        t *= 2


def _shuffled(draw: Any, X: list[Any], y: list[int]) -> tuple[list[Any], list[int]]:
    """The points and labels in an order Hypothesis draws (so it can shrink the order)."""
    order = draw(st.permutations(range(len(X))), label="order")
    return [X[i] for i in order], [y[i] for i in order]


def _finish(
    draw: Any,
    X: Sequence[Sequence[Fraction | int]],
    y: Sequence[int],
    u: Sequence[int],
    kind: str,
    max_bound: Fraction | None,
    name: str,
) -> SeparableCase:
    """Give each point the number kind (a positive per-point scale keeps ``u`` separating),
    cap the bound, and measure the margin exactly.

    Point ``i`` becomes ``Z_i / q_i`` with ``Z_i`` integer (the point times the lcm of
    its denominators) and ``q_i`` 1 (int), 1..12 (rational) or a power of two (float).
    """
    Z: list[list[int]] = []
    q: list[int] = []
    for row in X:
        lcm = 1
        for v in row:
            if isinstance(v, Fraction):
                lcm = math.lcm(lcm, v.denominator)
        Z.append([int(v * lcm) for v in row])
        if kind == "int":
            q.append(1)
        elif kind == "rational":
            q.append(draw(st.integers(1, 12), label="denominator"))
        elif kind == "decimal":
            q.append(10 ** draw(st.integers(0, 9), label="decimal places"))
        else:
            q.append(2 ** draw(st.integers(0, _MAX_FLOAT_EXPONENT), label="binary exponent"))
    D = 1
    for qi in q:
        D = math.lcm(D, qi)
    W = [[v * (D // qi) for v in z] for z, qi in zip(Z, q, strict=True)]
    steps = [D // qi for qi in q]  # a pushed point stays over its own denominator
    target = max_bound
    for _ in range(4):
        if target is not None:
            W = _cap(W, y, u, target, steps)
        pts = [tuple(Fraction(v, D) for v in w) for w in W]
        if kind == "float" and any(abs(v) >= 2**53 for w in W for v in w):
            # more than 53 significant bits: the float data are the rounded points, and
            # the promises (gamma > 0, the bound) are kept on those, exactly
            pts = [tuple(Fraction(float(v)) for v in x) for x in pts]
        gamma = min(yi * dot(u, x) for x, yi in zip(pts, y, strict=True))
        if gamma > 0 and (max_bound is None or _bound(pts, y, u) <= max_bound):
            break
        if max_bound is None or target is None:
            reject()  # margins below float resolution (huge data, no cap)
        target *= 1 - Fraction(1, 2**30)  # room for the rounding
    else:
        reject()  # pragma: no cover -- rounding moves the bound by ~1e-15 relative
    uf = tuple(Fraction(v) for v in u)
    if gamma <= 0:  # the constructions guarantee this; a failure is a bug here
        raise AssertionError(f"strategy bug: {name} built a non-separating comparator")
    return SeparableCase(Dataset(tuple(pts), tuple(y), name=name), uf, gamma)


def _as_bound(max_bound: Any) -> Fraction | None:
    if max_bound is None:
        return None
    b = Fraction(max_bound)
    if b <= 1:
        raise InvalidArgument(f"max_bound must be > 1 (every bound is >= 1), got {max_bound!r}")
    return b


# --- separable data ----------------------------------------------------------------------


def separable_datasets(
    *,
    min_n: int = 1,
    max_n: int = 20,
    min_d: int = 1,
    max_d: int = 6,
    max_coord: int = 20,
    kind: str | None = "int",
    margin: str | None = "any",
    max_bound: int | Fraction | None = None,
    labels: str = "mixed",
    magnitude: str | None = "unit",
) -> st.SearchStrategy[SeparableCase]:
    """Separable data with their comparator, built (never rejection-sampled).

    Points and an integer comparator ``u`` are drawn, then each point is pushed along
    ``y u`` until ``y u.x >= m`` for a target margin ``m``:

    * ``margin="any"``: ``m`` in ``1..max_coord``; ``"generous"``: ``m`` about
      ``|u|^2 max_coord`` (two well separated clusters); ``"tiny"``: ``m = 1`` with
      comparator coordinates up to ``max_coord`` (points just across the hyperplane);
      ``None`` draws the regime.
    * ``kind``: ``"int"``; ``"rational"`` (each point over its own denominator up to 12);
      ``"decimal"`` (each point over its own power of ten, up to 10^9);
      ``"float"`` (each point over its own power of two, values exact in float64);
      ``None`` draws the kind.  Positive per-point scaling keeps ``u`` separating.
    * ``magnitude``: one of :data:`MAGNITUDES` (the whole set scaled; ``None`` draws it).
    * ``max_bound``: if given, the points nearest the hyperplane are pushed further
      along ``y u`` until ``R^2 |u|^2 / gamma^2 <= max_bound`` (keeps runs short while
      keeping points as near the hyperplane as the cap allows; must be > 1).
    * ``labels``: ``"mixed"``, ``"+1"`` or ``"-1"``.

    Above 600 coordinates the points come from a seeded generator (so n in the
    hundreds stays cheap to draw and shrinks through n, d and the seed).

    >>> from hypothesis import find
    >>> case = find(separable_datasets(min_n=3, kind="rational"), lambda c: True)
    >>> case.data.n, case.gamma > 0
    (3, True)
    """
    _check_range("n", min_n, max_n, 1)
    _check_range("d", min_d, max_d, 1)
    if max_coord < 1:
        raise InvalidArgument(f"max_coord must be >= 1, got {max_coord}")
    _check_choice("kind", kind, KINDS)
    _check_choice("margin", margin, MARGINS)
    _check_choice("labels", labels, ("mixed", "+1", "-1"), allow_none=False)
    _check_choice("magnitude", magnitude, MAGNITUDES)
    cap = _as_bound(max_bound)
    return _magnified(
        _separable(min_n, max_n, min_d, max_d, max_coord, kind, margin, cap, labels), magnitude
    )


@st.composite
def _separable(
    draw: Any,
    min_n: int,
    max_n: int,
    min_d: int,
    max_d: int,
    max_coord: int,
    kind: str | None,
    margin: str | None,
    cap: Fraction | None,
    labels: str,
    name: str | None = None,
) -> SeparableCase:
    kind = kind if kind is not None else draw(st.sampled_from(KINDS), label="kind")
    margin = margin if margin is not None else draw(st.sampled_from(MARGINS), label="margin")
    X, y, u = _points(draw, min_n, max_n, min_d, max_d, max_coord, margin, labels)
    return _finish(draw, X, y, u, kind, cap, name or f"generated-{kind}-{margin}")


def _points(
    draw: Any,
    min_n: int,
    max_n: int,
    min_d: int,
    max_d: int,
    max_coord: int,
    margin: str,
    labels: str,
) -> tuple[list[list[int]], list[int], list[int]]:
    """Integer points, labels and an integer comparator with ``y u.x >= m`` (see MARGINS)."""
    d = draw(st.integers(min_d, max_d), label="d")
    # mixed labels: the points are one list of (point, label) (a shrink deletes a point
    # and keeps every later draw aligned), in one of two size regimes -- any size, or
    # exactly max_n (a list's own sizes rarely reach that far, and a stop at a training
    # accuracy below 100 % shows only with enough points); lowering the regime turns its
    # forced "one more" into chosen ones, so the draws stay aligned.  Otherwise n, then
    # n points.
    listed = labels == "mixed" and max_n * d <= _BULK
    if listed:
        large = draw(st.booleans(), label="large")
        n = max_n if large else min_n
    else:
        n = draw(st.integers(min_n, max_n), label="n")
    if margin == "generous":
        max_u = max_coord
    else:
        # Small |u| keeps points near the hyperplane relative to R (few lattice margins
        # fit between them); large |u| makes the lattice margin 1 tiny relative to |u| R.
        max_u = draw(st.sampled_from(sorted({1, min(3, max_coord), max_coord})), label="max |u_c|")
    u = _comparator_vector(draw, d, max_u)
    uu = norm2(u)
    if margin == "generous":
        m = uu * draw(st.integers(max_coord, 2 * max_coord), label="margin")
    elif margin == "tiny":
        m = 1
    else:
        m = draw(st.integers(1, max_coord), label="margin")
    if listed:
        point = st.tuples(
            st.lists(st.integers(-max_coord, max_coord), min_size=d, max_size=d),
            st.sampled_from([-1, 1]),
        )
        pairs = draw(st.lists(point, min_size=n, max_size=max_n), label="points")
        V, y = [list(v) for v, _ in pairs], [yi for _, yi in pairs]
    else:
        V = _int_vectors(draw, n, d, max_coord)
        y = _labels(draw, n, labels)
    return [_push(v, yi, u, uu, m) for v, yi in zip(V, y, strict=True)], y, u


def edge_case_datasets(
    *,
    cases: Sequence[str] = EDGE_CASES,
    max_n: int = 12,
    max_d: int = 6,
    max_coord: int = 20,
    kind: str | None = "int",
    max_bound: int | Fraction | None = None,
    magnitude: str | None = "unit",
) -> st.SearchStrategy[SeparableCase]:
    """The edge cases of :data:`EDGE_CASES`, each separable with its comparator
    (``magnitude`` as in :func:`separable_datasets`).

    ``single-point`` (n = 1), ``one-dimensional`` (d = 1), ``one-label`` (every label
    equal), ``duplicates`` (repeated points), ``near-hyperplane`` (a point at distance
    down to ``10^-9 / |u|`` from the hyperplane ``u.x = 0``, or as near as
    ``max_bound`` allows), ``far-point`` (one point up to ``10^9`` times farther out
    than the rest, or as far as ``max_bound`` allows), ``subspace`` (the points span a
    subspace of dimension < d, in skewed integer coordinates).

    >>> from hypothesis import find
    >>> find(edge_case_datasets(cases=["single-point"]), lambda c: True).data.n
    1
    """
    for c in cases:
        _check_choice("edge case", c, EDGE_CASES, allow_none=False)
    if not cases:
        raise InvalidArgument("cases must name at least one edge case")
    if max_n < 2 or max_d < 2:
        raise InvalidArgument("edge cases need max_n >= 2 and max_d >= 2")
    _check_choice("kind", kind, KINDS)
    _check_choice("magnitude", magnitude, MAGNITUDES)
    cap = _as_bound(max_bound)
    builders = {
        "single-point": _separable(
            1, 1, 1, max_d, max_coord, kind, None, cap, "mixed", "edge:single-point"
        ),
        "one-dimensional": _separable(
            1, max_n, 1, 1, max_coord, kind, None, cap, "mixed", "edge:one-dimensional"
        ),
        "one-label": st.sampled_from(["+1", "-1"]).flatmap(
            lambda lab: _separable(
                1, max_n, 1, max_d, max_coord, kind, None, cap, lab, "edge:one-label"
            )
        ),
        "duplicates": _duplicates(max_n, max_d, max_coord, kind, cap),
        "near-hyperplane": _near_hyperplane(max_n, max_d, max_coord, kind, cap),
        "far-point": _far_point(max_n, max_d, max_coord, kind, cap),
        "subspace": _subspace(max_n, max_d, max_coord, kind, cap),
    }
    return _magnified(st.one_of([builders[c] for c in cases]), magnitude)


@st.composite
def _magnified(draw: Any, base: Any, magnitude: str | None) -> SeparableCase:
    case: SeparableCase = draw(base)
    if magnitude is None:
        magnitude = draw(st.sampled_from(MAGNITUDES), label="magnitude")
    if magnitude == "unit":
        return case
    binary = all(
        Fraction(float(v)) == v for x in case.data.X for v in x
    ) and not case.data.name.startswith(
        ("generated-int", "generated-rational", "generated-decimal")
    )
    e = draw(st.integers(1, 9), label="orders of magnitude")
    s: Fraction
    if magnitude == "small":
        s = Fraction(1, 2 ** (3 * e + 1)) if binary else Fraction(1, 10**e)
    elif magnitude == "large":
        s = Fraction(2 ** (3 * e + 1)) if binary else Fraction(10**e)
    else:
        # the largest coordinate is carried past the integer range (a power of two keeps
        # float data exact; otherwise an odd factor, so no coordinate is a round number)
        limit = 2**31 - 1 if magnitude == "int32" else 2**63 - 1
        top = max(abs(v) for x in case.data.X for v in x)
        s = _beyond(top, limit, binary, e)
    X = tuple(tuple(v * s for v in x) for x in case.data.X)
    name = f"{case.data.name}-x{_short(s)}"
    return SeparableCase(Dataset(X, case.data.y, name=name), case.u, case.gamma * s)


def _beyond(top: Fraction, limit: int, binary: bool, e: int) -> Fraction:
    """A scale ``s`` with ``top * s > limit``: a power of two (``binary``) or an odd
    integer (``2 e`` more than needed).  ``top > 0``: every constructed data set has a
    nonzero coordinate."""
    need = Fraction(limit) / top  # s must exceed this
    if binary:
        k = max(0, need.numerator.bit_length() - need.denominator.bit_length() + 1)
        while Fraction(2**k) <= need:
            k += 1
        return Fraction(2**k)
    m = need.numerator // need.denominator + 1 + 2 * e
    return Fraction(m if m % 2 else m + 1)


def _short(s: Fraction) -> str:
    if s.denominator == 1:
        return f"{float(s):.3g}" if s > 10**6 else str(s)
    return f"1/{s.denominator}" if s.denominator < 10**6 else f"{float(s):.3g}"


def hard_datasets(
    *,
    max_n: int = 20,
    max_d: int = 6,
    max_coord: int = 20,
    max_bound: int | Fraction = 300,
    long_runs: bool = True,
) -> st.SearchStrategy[SeparableCase]:
    """The hard cases a checker of Perceptron implementations should face by default:
    every number kind (integer, rational, decimal, float), every magnitude (down to
    1e-9, up to 1e9 and beyond the int32 and int64 ranges), margins from generous to
    tiny, n up to ``max_n`` in every dimension up to ``max_d``, and the edge cases (one
    point, one label, duplicates, points next to the hyperplane, a far point, a
    subspace).  ``max_bound`` caps ``R^2 |u|^2/gamma^2`` so that runs still end; with
    ``long_runs`` half of the draws are instead (bound not capped)
    :func:`long_run_datasets` -- runs of hundreds to thousands of updates, the length a
    bug that shows late needs -- or :func:`mixed_scale_datasets` -- points whose scales
    differ by up to 10^12, where a tolerance or a rounding shows.

    >>> from hypothesis import find
    >>> find(hard_datasets(), lambda c: c.data.d >= 5).data.d
    5
    >>> find(hard_datasets(), lambda c: c.data.n >= 20 and c.data.d == 1).data.n
    20
    """
    branches = [
        separable_datasets(
            max_n=max_n,
            max_d=max_d,
            max_coord=max_coord,
            kind=None,
            margin=None,
            max_bound=max_bound,
            magnitude=None,
        ),
        edge_case_datasets(
            max_n=max_n,
            max_d=max_d,
            max_coord=max_coord,
            kind=None,
            max_bound=max_bound,
            magnitude=None,
        ),
    ]
    if long_runs and max_n >= 2 and max_d >= 2:
        # a long run's length comes from its first two points; the further points (inside
        # the cone) only make every update cost more: at most 8
        branches.append(long_run_datasets(max_n=min(max_n, 8), max_d=max_d))
        branches.append(mixed_scale_datasets(max_n=max_n, max_d=max_d, max_coord=max_coord))
    return st.one_of(branches)


def mixed_scale_datasets(
    *, max_n: int = 20, max_d: int = 6, max_coord: int = 20
) -> st.SearchStrategy[SeparableCase]:
    """Separable data whose points differ in scale by up to 10^12: integer points (any
    margin regime), each shrunk by its own 10^-e, ``e`` one of 0, 6, 9, 12 (a positive
    per-point scale keeps the comparator separating).  Unscaled features next to tiny
    ones, as real data have them: an update 10^12 times shorter than the weights, scores
    far below 10^-6 of both signs.  The bound is not capped (a tiny point has a tiny
    margin): a checker caps the run.

    >>> from hypothesis import find
    >>> case = find(mixed_scale_datasets(), lambda c: c.data.n >= 2 and len(
    ...     {max(abs(v) for v in x) > 10**-3 for x in c.data.X}) == 2)
    >>> case.data.name, case.gamma > 0
    ('edge:mixed-scale', True)
    """
    _check_range("n", 2, max_n, 2)
    _check_range("d", 1, max_d, 1)
    return _mixed_scale(max_n, max_d, max_coord)


@st.composite
def _mixed_scale(draw: Any, max_n: int, max_d: int, max_coord: int) -> SeparableCase:
    X, y, u = _base(draw, max_n, max_d, max_coord)
    pts = []
    for x in X:
        e = draw(st.sampled_from((0, 6, 9, 12)), label="scale 10^-e")
        pts.append(tuple(Fraction(v, 10**e) for v in x))
    gamma = min(yi * dot(u, x) for x, yi in zip(pts, y, strict=True))
    data = Dataset(tuple(pts), tuple(y), name="edge:mixed-scale")
    return SeparableCase(data, tuple(Fraction(v) for v in u), gamma)


def long_run_datasets(
    *,
    min_n: int = 1,
    max_n: int = 20,
    max_d: int = 6,
    max_coord: int = 6,
    max_m: int = 24,
) -> st.SearchStrategy[SeparableCase]:
    """Separable data whose runs are long: two points ``z_1 = y_1 x_1`` and ``z_2 = -(m
    z_1 + e)`` nearly opposite (``m`` up to 40, ``e`` small), so that only a thin cone of
    weight vectors separates them (the classic algorithm zigzags: hundreds to thousands of
    updates), and further points ``y_k x_k = a z_1 + b z_2`` (``a, b >= 0``) inside that
    cone, with drawn labels.  The comparator ``u`` solves ``u.z_1 = u.z_2 = 1`` in the
    plane of ``z_1`` and ``e`` (scaled to integers).  The bound ``R^2 |u|^2/gamma^2`` is
    not capped (it is far above the updates a run makes: a checker caps the run); integer,
    rational or decimal points.

    >>> from hypothesis import find
    >>> from pla_proof.trainer import train
    >>> case = find(long_run_datasets(), lambda c: train(c.data).updates >= 100)
    >>> case.data.n, train(case.data).updates >= 100
    (2, True)
    """
    _check_range("n", min_n, max_n, 1)
    _check_range("d", 2, max_d, 2)
    _check_range("m", 1, max_m, 1)
    return _long_runs(min_n, max_n, max_d, max_coord, max_m)


@st.composite
def _long_runs(
    draw: Any, min_n: int, max_n: int, max_d: int, max_coord: int, max_m: int
) -> SeparableCase:
    kind = draw(st.sampled_from(("int", "rational", "decimal")), label="kind")
    d = draw(st.integers(2, max_d), label="d")
    n = draw(st.integers(min_n, max_n), label="n")
    m = draw(st.integers(1, max_m), label="m (how nearly opposite)")
    (z1,) = _int_vectors(draw, 1, d, max_coord)
    e = draw(st.lists(st.integers(-2, 2), min_size=d, max_size=d), label="e")
    P, Q, r = norm2(z1), norm2(e), dot(z1, e)
    if not P or r * r == P * Q:  # z1 = 0 or e parallel to it: the simplest pair instead
        z1, e = [1] + [0] * (d - 1), [0, 1] + [0] * (d - 2)
        P, Q, r = 1, 1, 0
    z2 = [-(m * a + b) for a, b in zip(z1, e, strict=True)]
    # u = A z1 - B e with u.z1 = 1 and u.(m z1 + e) = -1, scaled by |det| to integers
    # (A, B) = -det (A', B') for the solution (A', B') (det = r^2 - P Q < 0: z1, e
    # independent), so u.z1 = u.z2 = P Q - r^2 > 0
    A, B = m * r + Q + r, (m + 1) * P + r
    u = [A * a - B * b for a, b in zip(z1, e, strict=True)]
    Z = [z1, z2][:n]  # one point: z_1 alone (so that a counterexample shrinks to one)
    for _ in range(n - 2):
        a = draw(st.integers(0, 3), label="a")
        b = draw(st.integers(0 if a else 1, 3), label="b")
        Z.append([a * p + b * q for p, q in zip(z1, z2, strict=True)])
    # labels drawn for up to max_n points, the first n used: lowering n keeps the draws
    # aligned, so a failure on two points can shrink to z_1 alone
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=max_n), label="y")[:n]
    X = [[yi * v for v in z] for z, yi in zip(Z, y, strict=True)]
    X, y = _shuffled(draw, X, y)
    return _finish(draw, X, y, u, kind, None, f"long-run-{kind}")


def bound_pushing_datasets() -> list[SeparableCase]:
    """Fixed data sets that push the bound: orthonormal sets ``x_i = s e_i`` with
    alternating labels (they attain ``k = R^2/gamma^2``) at scales 1, 1e-9, beyond
    int32 and beyond int64; a tiny-margin set (margin 1/64 of the radius) and a
    far-point set (one point 1e6 times farther out), a set whose products pass 2^63
    (coordinates inside int64), a set in d = 5 and a long-run set (two points that the
    cyclic run needs 313 updates to separate).

    >>> [c.data.name for c in bound_pushing_datasets()][:3]
    ['orthonormal:1', 'orthonormal:2', 'orthonormal:3']
    """
    out = []
    for n in (1, 2, 3, 4):
        out.append(_orthonormal(n, Fraction(1), f"orthonormal:{n}"))
    for s, tag in (
        (Fraction(1, 10**9), "1e-9"),
        (Fraction(2**33 + 1), "beyond-int32"),
        (Fraction(2**64 + 1), "beyond-int64"),
    ):
        out.append(_orthonormal(3, s, f"orthonormal:3-x{tag}"))
    d = Fraction(1, 8)
    tiny = Dataset(
        ((Fraction(1), d), (Fraction(-1), d), (Fraction(1), -d)), (1, 1, -1), name="tiny-margin"
    )
    out.append(SeparableCase(tiny, (Fraction(0), Fraction(1)), d))
    far = Dataset(
        ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)), (Fraction(10**6), Fraction(0))),
        (1, -1, 1),
        name="far-point",
    )
    out.append(SeparableCase(far, (Fraction(1), Fraction(-1)), Fraction(1)))
    # products past 2^63 (coordinates inside int64): a score accumulated in int64 wraps
    big = Dataset(((Fraction(2**32),), (Fraction(2**31),)), (1, 1), name="products-beyond-int64")
    out.append(SeparableCase(big, (Fraction(1),), Fraction(2**31)))
    # d = 5: a loop unrolled by 4 that drops the remainder misses the last coordinate
    e5 = (Fraction(0),) * 4 + (Fraction(1),)
    wide = Dataset((e5, (Fraction(1), *e5[1:])), (1, 1), name="five-dim")
    out.append(SeparableCase(wide, e5, Fraction(1)))
    # two points the cyclic classic run needs 313 updates to separate
    long = Dataset(
        ((Fraction(1), Fraction(1)), (Fraction(11), Fraction(12))), (1, -1), name="long-run"
    )
    out.append(SeparableCase(long, (Fraction(13), Fraction(-12)), Fraction(1)))
    return out


def _orthonormal(n: int, s: Fraction, name: str) -> SeparableCase:
    X = tuple(tuple(s * int(i == j) for j in range(n)) for i in range(n))
    y = tuple(1 if i % 2 == 0 else -1 for i in range(n))
    return SeparableCase(Dataset(X, y, name=name), tuple(Fraction(v) for v in y), s)


def _base(
    draw: Any, max_n: int, max_d: int, max_coord: int, min_d: int = 1
) -> tuple[list[list[int]], list[int], list[int]]:
    """Integer points, labels and comparator for an edge case (any margin regime)."""
    margin = draw(st.sampled_from(MARGINS), label="margin")
    return _points(draw, 1, max_n, min_d, max_d, max_coord, margin, "mixed")


@st.composite
def _duplicates(
    draw: Any, max_n: int, max_d: int, max_coord: int, kind: str | None, cap: Fraction | None
) -> SeparableCase:
    kind = kind if kind is not None else draw(st.sampled_from(KINDS), label="kind")
    X, y, u = _base(draw, max(1, max_n // 2), max_d, max_coord)
    # indices drawn in a fixed range (taken modulo the points): a shrink that deletes a
    # point keeps the copies' draws valid
    copies = draw(st.lists(st.integers(0, max_n), min_size=1, max_size=max_n - len(X)))
    X = X + [X[i % len(X)] for i in copies]
    y = y + [y[i % len(y)] for i in copies]
    X, y = _shuffled(draw, X, y)
    case = _finish(draw, X, y, u, "int", cap, "edge:duplicates")
    # Re-scaling per point would separate duplicates; give the kind to the whole set instead.
    return _rescale_whole(draw, case, kind)


def _rescale_whole(draw: Any, case: SeparableCase, kind: str) -> SeparableCase:
    if kind == "int":
        return case
    if kind == "rational":
        q = Fraction(1, draw(st.integers(1, 12), label="denominator"))
    else:
        q = Fraction(1, 2 ** draw(st.integers(0, _MAX_FLOAT_EXPONENT), label="binary exponent"))
        if any(Fraction(float(v * q)) != v * q for x in case.data.X for v in x):
            q = Fraction(1)
    X = tuple(tuple(v * q for v in x) for x in case.data.X)
    return SeparableCase(Dataset(X, case.data.y, name=case.data.name), case.u, case.gamma * q)


@st.composite
def _near_hyperplane(
    draw: Any, max_n: int, max_d: int, max_coord: int, kind: str | None, cap: Fraction | None
) -> SeparableCase:
    kind = kind if kind is not None else draw(st.sampled_from(KINDS), label="kind")
    X, y, u = _base(draw, max_n - 1, max_d, max_coord)
    uu = norm2(u)
    extra = draw(st.integers(1, max(1, min(3, max_n - len(X)))), label="near points")
    pts: list[list[Fraction]] = [[Fraction(v) for v in x] for x in X]
    for _ in range(extra):
        (v,) = _int_vectors(draw, 1, len(u), max_coord)
        label = draw(st.sampled_from([-1, 1]))
        # p is exactly on the hyperplane u.p = 0; x = p + label * delta * u has y u.x = delta |u|^2.
        p = [a - Fraction(dot(u, v), uu) * b for a, b in zip(v, u, strict=True)]
        j = draw(st.integers(0, 9), label="closeness 10^-j")
        while True:
            delta = Fraction(1, uu * 10**j)
            x = [a + label * delta * b for a, b in zip(p, u, strict=True)]
            if cap is None or j == 0 or _bound([*pts, x], [*y, label], u) <= cap:
                break
            j -= 1
        pts.append(x)
        y.append(label)
    pts, y = _shuffled(draw, pts, y)
    return _finish(draw, pts, y, u, kind, cap, "edge:near-hyperplane")


@st.composite
def _far_point(
    draw: Any, max_n: int, max_d: int, max_coord: int, kind: str | None, cap: Fraction | None
) -> SeparableCase:
    kind = kind if kind is not None else draw(st.sampled_from(KINDS), label="kind")
    X, y, u = _base(draw, max_n - 1, max_d, max_coord)
    i = draw(st.integers(0, max_n), label="far point") % len(X)  # (as for the copies)
    factor = 10 ** draw(st.integers(1, 9), label="far factor 10^j")
    if cap is not None:
        # gamma is unchanged (the far point's margin grows); R^2 becomes factor^2 |x_i|^2.
        gamma = min(yi * dot(u, x) for x, yi in zip(X, y, strict=True))
        room = cap * gamma**2 / (norm2(X[i]) * norm2(u))
        factor = max(1, min(factor, math.isqrt(math.floor(room))))
    far = [factor * v for v in X[i]]
    X = [*X, far]
    y = [*y, y[i]]
    X, y = _shuffled(draw, X, y)
    return _finish(draw, X, y, u, kind, cap, "edge:far-point")


@st.composite
def _subspace(
    draw: Any, max_n: int, max_d: int, max_coord: int, kind: str | None, cap: Fraction | None
) -> SeparableCase:
    kind = kind if kind is not None else draw(st.sampled_from(KINDS), label="kind")
    d = draw(st.integers(2, max_d), label="d")
    r = draw(st.integers(1, d - 1), label="rank")
    X, y, u_small = _base(draw, max_n, r, max_coord, min_d=r)
    pts = [[*x, *([0] * (d - r))] for x in X]
    basis = [[int(i == j) for i in range(d)] for j in range(r)]  # spans the subspace
    u = [*u_small, *([0] * (d - r))]
    # Integer shears x_i += c x_j (unimodular); the comparator moves by the inverse
    # transpose u_j -= c u_i, so every u.x is unchanged.
    for _ in range(draw(st.integers(0, 2 * d), label="shears")):
        i, j = draw(st.integers(0, d - 1)), draw(st.integers(0, d - 1))
        c = draw(st.integers(-3, 3))
        if i == j or c == 0:
            continue
        for x in [*pts, *basis]:
            x[i] += c * x[j]
        u[j] -= c * u[i]
    # The comparator projected onto the subspace (times a positive integer) gives every
    # point the same margin, and pushing a point along it keeps the point inside.
    return _finish(draw, pts, y, _projected(u, basis), kind, cap, "edge:subspace")


def _projected(u: Sequence[int], basis: Sequence[Sequence[int]]) -> list[int]:
    """The orthogonal projection of ``u`` onto the span of ``basis`` (independent rows),
    scaled by a positive integer to integer coordinates."""
    r = len(basis)
    G = [[Fraction(dot(a, b)) for b in basis] for a in basis]
    rhs = [Fraction(dot(a, u)) for a in basis]
    for c in range(r):  # Gauss-Jordan on the Gram matrix (positive definite)
        p = next(k for k in range(c, r) if G[k][c] != 0)
        G[c], G[p], rhs[c], rhs[p] = G[p], G[c], rhs[p], rhs[c]
        for k in range(r):
            if k != c and G[k][c] != 0:
                f = G[k][c] / G[c][c]
                G[k] = [a - f * b for a, b in zip(G[k], G[c], strict=True)]
                rhs[k] -= f * rhs[c]
    coef = [rhs[c] / G[c][c] for c in range(r)]
    proj = [sum((coef[j] * basis[j][i] for j in range(r)), Fraction(0)) for i in range(len(u))]
    scale = math.lcm(*(v.denominator for v in proj))
    return [int(v * scale) for v in proj]


# --- non-separable data -------------------------------------------------------------------


def non_separable_datasets(
    *,
    patterns: Sequence[str] = NON_SEPARABLE_PATTERNS,
    min_d: int = 1,
    max_d: int = 6,
    max_coord: int = 20,
    max_extra: int = 8,
    kind: str | None = "int",
) -> st.SearchStrategy[NonSeparableCase]:
    """Data sets no vector separates through the origin, with a Gordan certificate.

    * ``xor``: a parallelogram ``a, b`` (+) and ``c, e`` (-) with ``a + b = c + e``
      (XOR with a bias coordinate is one), ``alpha = 1`` on the four points;
    * ``negation``: a point and its negation with the same label;
    * ``zero-sum``: points with weights ``alpha_i`` whose ``sum alpha_i y_i x_i`` is zero;
    * ``zero-point``: the zero vector (``y w.0 = 0`` is never > 0).

    Up to ``max_extra`` other points (weight 0) are mixed in and the order is drawn.
    Each point may be divided by its own positive scale (``kind``); its weight in the
    certificate is multiplied by the same scale.

    >>> from hypothesis import find
    >>> case = find(non_separable_datasets(kind="rational"), lambda c: True)
    >>> case.certificate().verify(case.data)
    True
    """
    for p in patterns:
        _check_choice("pattern", p, NON_SEPARABLE_PATTERNS, allow_none=False)
    if not patterns:
        raise InvalidArgument("patterns must name at least one pattern")
    _check_range("d", min_d, max_d, 1)
    _check_choice("kind", kind, KINDS)
    return _non_separable(tuple(patterns), min_d, max_d, max_coord, max_extra, kind)


@st.composite
def _non_separable(
    draw: Any,
    patterns: tuple[str, ...],
    min_d: int,
    max_d: int,
    max_coord: int,
    max_extra: int,
    kind: str | None,
) -> NonSeparableCase:
    kind = kind if kind is not None else draw(st.sampled_from(KINDS), label="kind")
    pattern = draw(st.sampled_from(patterns), label="pattern")
    d = draw(st.integers(min_d, max_d), label="d")
    X: list[list[int]]
    y: list[int]
    alpha: list[int]
    if pattern == "xor":
        p, q, r = _int_vectors(draw, 3, d, max_coord)
        a, b = p, [pi + qi + ri for pi, qi, ri in zip(p, q, r, strict=True)]
        c, e = (
            [pi + qi for pi, qi in zip(p, q, strict=True)],
            [pi + ri for pi, ri in zip(p, r, strict=True)],
        )
        s = draw(st.sampled_from([-1, 1]), label="sign")
        X, y, alpha = [a, b, c, e], [s, s, -s, -s], [1, 1, 1, 1]
    elif pattern == "negation":
        (v,) = _int_vectors(draw, 1, d, max_coord)
        s = draw(st.sampled_from([-1, 1]), label="label")
        X, y, alpha = [v, [-a for a in v]], [s, s], [1, 1]
    elif pattern == "zero-sum":
        count = draw(st.integers(1, 5), label="points")
        X = _int_vectors(draw, count, d, max_coord)
        y = _labels(draw, count + 1, "mixed")
        alpha = [draw(st.integers(1, 5), label="weight") for _ in range(count)] + [1]
        total = [
            sum(al * yi * x[c] for al, yi, x in zip(alpha, y, X, strict=False)) for c in range(d)
        ]
        X.append([-y[-1] * t for t in total])  # y_last x_last = -sum of the others
    else:
        X, y, alpha = [[0] * d], [draw(st.sampled_from([-1, 1]), label="label")], [1]
    extra = draw(st.integers(0, max_extra), label="extra points")
    X += _int_vectors(draw, extra, d, max_coord)
    y += _labels(draw, extra, "mixed")
    alpha += [0] * extra
    order = draw(st.permutations(range(len(X))), label="order")
    pts: list[tuple[Fraction, ...]] = []
    weights: list[Fraction] = []
    for i in order:
        scale: int = 1
        if kind == "rational":
            scale = draw(st.integers(1, 12), label="denominator")
        elif kind == "float":
            scale = 2 ** draw(st.integers(0, _MAX_FLOAT_EXPONENT), label="binary exponent")
        pts.append(tuple(Fraction(v, scale) for v in X[i]))
        weights.append(Fraction(alpha[i] * scale))
    data = Dataset(tuple(pts), tuple(y[i] for i in order), name=f"non-separable:{pattern}")
    return NonSeparableCase(data, tuple(weights), pattern)


# --- data of every number kind, for exactness ------------------------------------------

#: Number kinds of :func:`numeric_datasets`: small integers, decimals (exact rationals
#: over a power of ten), arbitrary float64 values, integers beyond the int64 range,
#: rationals with large denominators, and mixed magnitudes from 1e-300 to 1e300.
NUMBER_KINDS = ("int", "decimal", "float", "huge", "rational", "mixed")


def numeric_datasets(
    *,
    kinds: Sequence[str] = NUMBER_KINDS,
    max_n: int = 8,
    max_d: int = 4,
) -> st.SearchStrategy[Dataset]:
    """Data sets (separable or not) built to break inexact arithmetic: every number kind
    of :data:`NUMBER_KINDS`, exact duplicates, negated and nearly equal points (so that
    margins of exactly 0 and of one rounding error occur), any labels.

    >>> from hypothesis import find
    >>> find(numeric_datasets(kinds=["mixed"]), lambda ds: ds.n >= 2).n
    2
    """
    for k in kinds:
        _check_choice("kind", k, NUMBER_KINDS, allow_none=False)
    if not kinds:
        raise InvalidArgument("kinds must name at least one number kind")
    _check_range("n", 1, max_n, 1)
    _check_range("d", 1, max_d, 1)
    return _numeric(tuple(kinds), max_n, max_d)


def _number(draw: Any, kind: str) -> Fraction | float | int | str:
    if kind == "int":
        return int(draw(st.integers(-6, 6)))
    if kind == "decimal":
        digits = draw(st.integers(-999, 999))
        places = draw(st.integers(0, 6))
        return f"{digits}e-{places}"
    if kind == "float":
        return float(draw(st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)))
    if kind == "huge":
        return int(draw(st.integers(-(2**80), 2**80)))
    if kind == "rational":
        return Fraction(draw(st.integers(-50, 50)), draw(st.integers(1, 10**12)))
    sign: float = draw(st.sampled_from([1.0, -1.0]))
    exponent: int = draw(st.sampled_from([-300, -150, -20, 0, 20, 150, 300]))
    return sign * float(draw(st.integers(1, 9))) * 10.0**exponent


@st.composite
def _numeric(draw: Any, kinds: tuple[str, ...], max_n: int, max_d: int) -> Dataset:
    kind = draw(st.sampled_from(kinds), label="kind")
    d = draw(st.integers(1, max_d), label="d")
    n = draw(st.integers(1, max_n), label="n")
    rows: list[list[Any]] = []
    for _ in range(n):
        how = (
            draw(st.sampled_from(["new", "copy", "negate", "nudge"]), label="point")
            if rows
            else "new"
        )
        if how == "new":
            rows.append([_number(draw, kind) for _ in range(d)])
            continue
        base = draw(st.sampled_from(rows), label="of")
        if how == "copy":
            rows.append(list(base))
        elif how == "negate":
            rows.append([-Fraction(v) if isinstance(v, str) else -v for v in base])
        else:  # nudge one coordinate by one unit of the last place
            c = draw(st.integers(0, d - 1), label="coordinate")
            row = [Fraction(v) if isinstance(v, str) else v for v in base]
            v = row[c]
            if isinstance(v, float):
                row[c] = math.nextafter(v, math.inf if draw(st.booleans()) else -math.inf)
            else:
                row[c] = Fraction(v) + Fraction(draw(st.sampled_from([1, -1])), 10**9)
            rows.append(row)
    labels = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n), label="labels")
    return Dataset(rows, labels, name=f"numeric-{kind}")


# --- update orders ---------------------------------------------------------------------


class HypothesisChooser:
    """A trainer chooser with which Hypothesis picks the violator at each update.

    Each of the first ``limit`` picks is a Hypothesis draw (it shrinks toward the
    first violator); later picks take the first violator, so long runs stay within
    Hypothesis' budget of choices.  ``picks`` records ``(k, violators, choice)``.
    """

    def __init__(self, data: st.DataObject, limit: int = 100):
        self.data = data
        self.limit = limit
        self.picks: list[tuple[int, tuple[int, ...], int]] = []

    def __call__(self, violators: list[int], k: int) -> int:
        if len(self.picks) < self.limit:
            j: int = self.data.draw(st.sampled_from(violators), label=f"violator at k={k}")
        else:
            j = violators[0]
        self.picks.append((k, tuple(violators), j))
        return j

    def __repr__(self) -> str:
        return f"HypothesisChooser(limit={self.limit})"


@st.composite
def hypothesis_choosers(draw: Any, limit: int = 100) -> HypothesisChooser:
    """A :class:`HypothesisChooser` (Kalyanakrishnan's "pick an arbitrary j", chosen by
    Hypothesis)."""
    return HypothesisChooser(draw(st.data()), limit)


def update_orders(
    rules: Sequence[str] = RULES, *, chooser: bool = True, limit: int = 100
) -> st.SearchStrategy[str | HypothesisChooser]:
    """Every selection rule of the trainer, and (``chooser=True``) Hypothesis choosing.

    Pass the result as ``train(..., rule=order)``; the ``random`` rule also takes a seed.

    >>> from hypothesis import find
    >>> find(update_orders(chooser=False), lambda order: True)
    'first'
    """
    for r in rules:
        _check_choice("rule", r, RULES, allow_none=False)
    if not rules:
        if not chooser:
            raise InvalidArgument("update_orders needs a rule or chooser=True")
        return hypothesis_choosers(limit)
    named = st.sampled_from(tuple(rules))
    if not chooser:
        return named
    return st.one_of(named, hypothesis_choosers(limit))


# --- exact linear algebra -------------------------------------------------------------


def exact_vectors(
    d: int, *, max_coord: int = 10**6, kind: str = "int", max_denominator: int = 1000
) -> st.SearchStrategy[tuple[Fraction, ...]]:
    """Exact vectors of dimension ``d``: integer or rational coordinates (as Fractions).

    >>> from hypothesis import find
    >>> find(exact_vectors(3, kind="rational"), lambda v: True)
    (Fraction(0, 1), Fraction(0, 1), Fraction(0, 1))
    """
    if d < 1:
        raise InvalidArgument(f"d must be >= 1, got {d}")
    _check_choice("kind", kind, ("int", "rational"), allow_none=False)
    coord: st.SearchStrategy[Fraction]
    if kind == "int":
        coord = st.integers(-max_coord, max_coord).map(Fraction)
    else:
        coord = st.builds(
            Fraction, st.integers(-max_coord, max_coord), st.integers(1, max_denominator)
        )
    return st.lists(coord, min_size=d, max_size=d).map(tuple)


def _pythagorean(m: int, n: int) -> tuple[Fraction, Fraction]:
    c = m * m + n * n
    return Fraction(m * m - n * n, c), Fraction(2 * m * n, c)


@st.composite
def rational_orthogonal_matrices(
    draw: Any, d: int, max_rotations: int = 3
) -> tuple[tuple[Fraction, ...], ...]:
    """An exactly orthogonal rational ``d x d`` matrix ``Q`` (``Q^T Q = I``).

    A signed permutation times up to ``max_rotations`` plane rotations whose cosine and
    sine come from Pythagorean triples ``(m^2 - n^2, 2mn, m^2 + n^2)``.

    >>> from hypothesis import find
    >>> find(rational_orthogonal_matrices(2), lambda q: True)
    ((Fraction(1, 1), Fraction(0, 1)), (Fraction(0, 1), Fraction(1, 1)))
    """
    perm = draw(st.permutations(range(d)), label="permutation")
    signs = draw(st.lists(st.sampled_from([1, -1]), min_size=d, max_size=d), label="signs")
    Q = [[Fraction(signs[i]) if perm[i] == j else Fraction(0) for j in range(d)] for i in range(d)]
    if d >= 2:
        for _ in range(draw(st.integers(0, max_rotations), label="rotations")):
            i = draw(st.integers(0, d - 2))
            j = draw(st.integers(i + 1, d - 1))
            n = draw(st.integers(1, 6))
            m = draw(st.integers(n + 1, 12))
            cos, sin = _pythagorean(m, n)
            ri, rj = Q[i], Q[j]
            Q[i] = [cos * a - sin * b for a, b in zip(ri, rj, strict=True)]
            Q[j] = [sin * a + cos * b for a, b in zip(ri, rj, strict=True)]
    return tuple(tuple(row) for row in Q)


# Hypothesis's entry point registers these strategies for pla_proof's types; when this
# module is what imported Hypothesis, the registration waited for the module to finish.
_hook = sys.modules.get("_pla_proof_hypothesis")
if _hook is not None:
    _hook.strategies_ready()
