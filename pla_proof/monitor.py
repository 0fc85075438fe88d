"""The run-time monitor: the proof's statements evaluated at every update.

The monitor does not restate the proof.  It measures the run vocabulary of
:mod:`pla_proof.proof.statements` (``t``, ``pu``, ``pu1``, ``n0``, ``n1``, ...)
directly from the run's vectors and evaluates each lemma's own relation on them.

Exact mode works on integer vectors (the data scaled by a positive common
denominator) and converts every measurement back to exact ``Fraction`` values
in the data's own units.  Float mode measures with float64 and encloses each
measurement in an :class:`~pla_proof.interval.Interval` that also covers the
drift of the float weights from the exact sum of the chosen updates; it reports
a violation only when the relation fails for every value in the enclosures.

>>> from pla_proof.data import load
>>> data = load("orthonormal:2")
>>> comp = make_comparator(data, [1, -1])
>>> comp.gamma, comp.bound
(Fraction(1, 1), Fraction(2, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from .data import Dataset
from .errors import InputError
from .interval import EPS, Interval, certainly_violated, gamma_n
from .numbers import common_scale, dot, norm2, scaled_ints, to_fraction
from .proof.statements import END_LEMMAS, RUNTIME_LEMMAS, Lemma, compare

__all__ = [
    "Comparator",
    "ExactMonitor",
    "FloatMonitor",
    "Step",
    "Violation",
    "make_comparator",
]

Value = Fraction | Interval


@dataclass(frozen=True)
class Comparator:
    """A separating direction ``u`` (any positive length) and the margin assumed for it.

    ``gamma`` is homogeneous in ``u``: the assumption reads ``y_i u.x_i >= gamma``
    (``> gamma`` when ``strict``), so the unit-vector margin is ``gamma/|u|``.
    """

    u: tuple[Fraction, ...]
    gamma: Fraction
    strict: bool
    radius_squared: Fraction
    source: str = "given"

    @property
    def uu(self) -> Fraction:
        return sum((v * v for v in self.u), Fraction(0))

    @property
    def gamma_squared_unit(self) -> Fraction:
        """gamma^2 for the unit vector u/|u| (exact, no square root)."""
        return self.gamma**2 / self.uu

    @property
    def bound(self) -> Fraction:
        """R^2/gamma^2 for the unit comparator: ``R2 * uu / gamma^2``."""
        return self.radius_squared * self.uu / self.gamma**2


def make_comparator(
    data: Dataset,
    u: Sequence[Any],
    *,
    strict: bool = False,
    gamma: Any = None,
    source: str = "given",
) -> Comparator:
    """Validate ``u`` against the data and fix the margin ``gamma``.

    Non-strict (seeds 001-004): ``gamma`` defaults to ``min_i y_i u.x_i``.
    Strict (seed 000's Assumption 1, ``y_i u.x_i > gamma``): ``gamma`` must lie
    strictly below that minimum; it defaults to half of it.

    >>> from pla_proof.data import from_arrays
    >>> make_comparator(from_arrays([[1, 0]], [1]), [0, 1])
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: comparator does not separate the data: point 1 has y u.x = 0 <= 0
    """
    uf = tuple(to_fraction(v, what=f"comparator entry {i + 1}") for i, v in enumerate(u))
    if len(uf) != data.d:
        raise InputError(
            f"comparator has {len(uf)} entries but the data have {data.d} features"
            + (" (including the bias coordinate)" if data.bias is not None else "")
        )
    if all(v == 0 for v in uf):
        raise InputError("comparator is the zero vector")
    margins = [yi * dot(uf, x) for x, yi in zip(data.X, data.y, strict=True)]
    low = min(margins)
    if low <= 0:
        i = margins.index(low)
        raise InputError(
            f"comparator does not separate the data: point {i + 1} has y u.x = {low} <= 0"
        )
    if gamma is None:
        g = low / 2 if strict else low
    else:
        g = to_fraction(gamma, what="gamma")
        if g <= 0:
            raise InputError(f"gamma must be > 0, got {g}")
        if strict and not g < low:
            raise InputError(f"strict margin needs gamma < min_i y_i u.x_i = {low}, got {g}")
        if not strict and not g <= low:
            raise InputError(f"margin assumption fails: gamma = {g} > min_i y_i u.x_i = {low}")
    return Comparator(uf, g, strict, data.radius_squared, source)


@dataclass
class Step:
    """One update ``w_k -> w_{k+1}`` (point ``j``, 0-based) and its measurements."""

    k: int
    j: int
    values: dict[str, Value]

    @property
    def trigger(self) -> Value:
        return self.values["t"]


@dataclass
class Violation:
    """A statement of the proof that failed on a run, with both sides' values."""

    lemma: str
    title: str
    statement: str
    k: int
    j: int | None
    lhs: Value
    op: str
    rhs: Value
    values: dict[str, Value] = field(default_factory=dict)
    choices: list[int] = field(default_factory=list)

    def describe(self) -> str:
        where = f"at update k={self.k}" + (f" (point j={self.j + 1})" if self.j is not None else "")
        return (
            f"{self.lemma} ({self.title}) fails {where}: {self.statement}; "
            f"lhs = {_fmt(self.lhs)}, rhs = {_fmt(self.rhs)}"
        )


def _fmt(v: Any) -> str:
    if isinstance(v, Interval):
        return f"[{v.lo!r}, {v.hi!r}]"
    return str(v)


def _violation(
    lem: Lemma,
    strict: bool,
    k: int,
    j: int | None,
    sides: tuple[Any, str, Any],
    values: dict[str, Value],
) -> Violation:
    lhs, op, rhs = sides
    return Violation(
        lem.id, lem.title, str(lem.statement(strict=strict)), k, j, lhs, op, rhs, values
    )


class _Compiled:
    """A lemma's compiled relation with its argument names, looked up once per run."""

    __slots__ = ("lemma", "lhs", "lhs_args", "op", "rhs", "rhs_args")

    def __init__(self, lem: Lemma, strict: bool):
        self.lemma = lem
        self.lhs, self.op, self.rhs = lem.evaluator(strict=strict)
        self.lhs_args: tuple[str, ...] = self.lhs.__pla_args__  # type: ignore[attr-defined]
        self.rhs_args: tuple[str, ...] = self.rhs.__pla_args__  # type: ignore[attr-defined]

    def __call__(self, values: dict[str, Any]) -> tuple[Any, str, Any]:
        lhs = self.lhs(*[values[n] for n in self.lhs_args])
        rhs = self.rhs(*[values[n] for n in self.rhs_args])
        return lhs, self.op, rhs


def _evaluate(lem: Lemma, strict: bool, values: dict[str, Any]) -> tuple[Any, str, Any]:
    return _Compiled(lem, strict)(values)


class ExactMonitor:
    """Evaluates every run-time lemma exactly on integer-scaled vectors.

    ``scale`` is the data's positive integer scale (points were multiplied by it);
    the comparator is scaled to integers here.
    """

    mode = "exact"

    def __init__(
        self, comparator: Comparator, scale: int, lemmas: Sequence[Lemma] = RUNTIME_LEMMAS
    ):
        self.comparator = comparator
        self.strict = comparator.strict
        self.lemmas = tuple(lemmas)
        self.compiled = [_Compiled(lem, self.strict) for lem in self.lemmas]
        self.scale = scale
        self.u_scale = common_scale([comparator.u])
        self.U = scaled_ints(comparator.u, self.u_scale)
        self.constants: dict[str, Value] = {
            "g": comparator.gamma,
            "R2": comparator.radius_squared,
            "uu": comparator.uu,
        }

    def measure(
        self, k: int, w0: Sequence[int], w1: Sequence[int], x: Sequence[int], y: int
    ) -> dict[str, Value]:
        """The run vocabulary at update k, measured from the actual vectors."""
        s, su = self.scale, self.u_scale
        s2, ssu = s * s, s * su
        vals: dict[str, Value] = dict(self.constants)
        vals.update(
            k=Fraction(k),
            t=Fraction(y * dot(w0, x), s2),
            pu=Fraction(dot(self.U, w0), ssu),
            pu1=Fraction(dot(self.U, w1), ssu),
            yux=Fraction(y * dot(self.U, x), ssu),
            n0=Fraction(norm2(w0), s2),
            n1=Fraction(norm2(w1), s2),
            xx=Fraction(norm2(x), s2),
        )
        return vals

    def check_update(
        self, k: int, j: int, w0: Sequence[int], w1: Sequence[int], x: Sequence[int], y: int
    ) -> tuple[Step, Violation | None]:
        vals = self.measure(k, w0, w1, x, y)
        step = Step(k, j, vals)
        for compiled in self.compiled:
            lem = compiled.lemma
            lhs, op, rhs = compiled(vals)
            if not compare(lhs, op, rhs):
                return step, _violation(lem, self.strict, k, j, (lhs, op, rhs), vals)
        return step, None

    def check_end(
        self, k: int, w: Sequence[int], Z: Sequence[Sequence[int]], y: Sequence[int]
    ) -> Violation | None:
        return check_separation(k, w, Z, y, self.scale)


def check_separation(
    k: int, w: Sequence[int], Z: Sequence[Sequence[int]], y: Sequence[int], scale: int
) -> Violation | None:
    """Evaluate the end-of-run lemmas (strict separation by the returned w) exactly."""
    margins = [yi * dot(w, z) for z, yi in zip(Z, y, strict=True)]
    low = min(margins)
    j = margins.index(low)
    vals: dict[str, Value] = {"m": Fraction(low, scale * scale)}
    for lem in END_LEMMAS:
        lhs, op, rhs = _evaluate(lem, False, vals)
        if not compare(lhs, op, rhs):
            return _violation(lem, False, k, j, (lhs, op, rhs), vals)
    return None


# --- float mode -------------------------------------------------------------------------

#: Lemmas whose derivation uses the update trigger.  In float mode the trigger is decided
#: on rounded numbers, so the exact trigger value may be up to the guard above 0; these
#: statements get the resulting slack: 2*max(0, t_hi) per step (L6), accumulated over the
#: run (L7), and divided by k and scaled by |u|^2 in the final bound (T).
TRIGGER_SLACK = {"L6": "step", "L7": "total", "T": "total/k"}


class FloatMonitor:
    """Evaluates every run-time lemma on float64 measurements with a sound guard.

    Each measurement is an interval that contains the exact value for the *ideal*
    trajectory (the exact sum of the same chosen updates) on the float data.  A
    violation is reported only when the relation fails for every point of the
    intervals; ``max_missed`` is the largest amount by which a relation could have
    failed unnoticed.
    """

    mode = "float"

    def __init__(
        self,
        comparator: Comparator,
        X: np.ndarray,
        y: Sequence[int],
        lemmas: Sequence[Lemma] = RUNTIME_LEMMAS,
    ):
        self.comparator = comparator
        self.strict = comparator.strict
        self.lemmas = tuple(lemmas)
        self.compiled = [_Compiled(lem, self.strict) for lem in self.lemmas]
        self.u = np.array([float(v) for v in comparator.u])
        self.d = X.shape[1]
        self.gd = gamma_n(self.d + 2)
        self.E = np.zeros(self.d)  # componentwise bound on |w_float - w_ideal|
        self.total_slack = 0.0
        self.max_missed = 0.0
        # Constants are measured on the float data actually trained on: the assumed margin
        # is capped by the margin of the float u on the float data (rounding the data can
        # lower it), so every enclosure is of a quantity of the float run.
        g = Fraction(comparator.gamma)
        assumed = Interval.around(float(g), abs(float(g)) * 4 * EPS)
        measured = [self.dot(self.u, x, None) * float(yi) for x, yi in zip(X, y, strict=True)]
        g_iv = _min_interval([assumed, *measured])
        self.constants: dict[str, Value] = {
            "g": g_iv,
            "R2": _max_interval([self.norm2(x, None) for x in X]),
            "uu": self.norm2(self.u, None),
        }

    def dot(self, a: np.ndarray, b: np.ndarray, err_a: np.ndarray | None) -> Interval:
        v = float(a @ b)
        ab = np.abs(b)
        r = self.gd * float(np.abs(a) @ ab)
        if err_a is not None:
            r += float(err_a @ ab) * (1 + self.gd)
        return Interval.around(v, 2 * r + abs(v) * EPS)

    def norm2(self, a: np.ndarray, err_a: np.ndarray | None) -> Interval:
        v = float(a @ a)
        r = self.gd * v
        if err_a is not None:
            r += float(err_a @ (2 * np.abs(a) + err_a)) * (1 + self.gd)
        return Interval.around(v, 2 * r + abs(v) * EPS)

    def advance(self, w1: np.ndarray) -> np.ndarray:
        """Error bound after the rounded update w1 = fl(w0 + y x)."""
        E1: np.ndarray = np.nextafter(self.E + 2 * EPS * np.abs(w1), np.inf)
        return E1

    def check_update(
        self, k: int, j: int, w0: np.ndarray, w1: np.ndarray, x: np.ndarray, y: float
    ) -> tuple[Step, Violation | None]:
        E0 = self.E
        E1 = self.advance(w1)
        vals: dict[str, Value] = dict(self.constants)
        t = self.dot(w0, x, E0) * y
        vals.update(
            k=Interval.point(float(k)),
            t=t,
            pu=self.dot(self.u, w0, E0),
            pu1=self.dot(self.u, w1, E1),
            yux=self.dot(self.u, x, None) * y,
            n0=self.norm2(w0, E0),
            n1=self.norm2(w1, E1),
            xx=self.norm2(x, None),
        )
        self.E = E1
        step_slack = 2 * max(0.0, t.hi)
        self.total_slack += step_slack
        step = Step(k, j, vals)
        for compiled in self.compiled:
            lem = compiled.lemma
            lhs, op, rhs = compiled(vals)
            lhs, rhs = _as_interval(lhs), _as_interval(rhs)
            kind = TRIGGER_SLACK.get(lem.id)
            if kind is not None:
                slack = {"step": step_slack, "total": self.total_slack}.get(kind)
                if slack is None:  # total/k, scaled by |u|^2
                    slack_iv = (
                        vals["uu"] * Interval.point(self.total_slack) / Interval.point(float(k))
                    )
                    rhs = rhs + slack_iv
                else:
                    rhs = rhs + Interval.point(slack)
            if certainly_violated(lhs, op, rhs):
                return step, _violation(lem, self.strict, k, j, (lhs, op, rhs), vals)
            self.max_missed = max(self.max_missed, lhs.width + rhs.width)
        return step, None

    def check_end(self, k: int, w: np.ndarray, X: np.ndarray, y: Sequence[int]) -> Violation | None:
        return check_float_separation(k, w, X, y)


def check_float_separation(
    k: int, w: np.ndarray, X: np.ndarray, y: Sequence[int]
) -> Violation | None:
    """Strict separation of returned float weights, checked exactly on the float data
    trained on (every float64 is an exact rational)."""
    wf = [Fraction(float(v)) for v in w]
    Xf = [[Fraction(float(v)) for v in row] for row in X]
    s = common_scale([wf, *Xf])
    W = scaled_ints(wf, s)
    Z = [scaled_ints(row, s) for row in Xf]
    return check_separation(k, W, Z, [int(v) for v in y], s)


def _as_interval(v: Any) -> Interval:
    return v if isinstance(v, Interval) else Interval.point(float(v))


def _min_interval(items: list[Interval]) -> Interval:
    return Interval(min(i.lo for i in items), min(i.hi for i in items))


def _max_interval(items: list[Interval]) -> Interval:
    return Interval(max(i.lo for i in items), max(i.hi for i in items))
