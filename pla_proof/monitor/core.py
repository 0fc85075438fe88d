"""The run-time monitor: the proof's statements evaluated on every update of a run.

The monitor does not restate the proof.  It takes the lemmas a run must satisfy --
the classic L1-L7 and T (:data:`~pla_proof.proof.statements.RUNTIME_LEMMAS`), or the
generic lemma's G1, G2, P_G, Q_G and T_G with a variant's constants -- and
evaluates each one's own relation on the quantities the engine measured from the
run's vectors (:mod:`pla_proof.engine.measure`), all updates of a chunk at once.

* Exact runs are checked exactly (integer arrays, :mod:`.relations`).
* Float runs are checked on enclosures of the ideal quantities; a statement is
  reported violated only where it fails for every value of the enclosures, never
  where an enclosure is not finite (that is *undecided*, and reported as such); the
  largest amount by which a statement could have failed unseen is ``max_missed``.
  Three statements derive from the trigger, which float mode decides on the float
  weights: L6, L7 and T (and G1, Q_G, T_G) get the trigger's slack (the ideal
  trigger may exceed the float one by at most the drift of the weights).

>>> from pla_proof.data import load
>>> data = load("orthonormal:2")
>>> comp = make_comparator(data, [1, -1])
>>> comp.gamma, comp.bound
(Fraction(1, 1), Fraction(2, 1))
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ..data import Dataset
from ..errors import InputError
from ..interval import Interval as ScalarInterval
from ..numbers import norm2, to_fraction
from .relations import Enclosures, Exact, Interval, Relation, certainly_violated, compare
from .slack import tightest

if TYPE_CHECKING:
    from ..proof.runtime import RunLemma
    from ..proof.statements import Lemma

__all__ = [
    "SLACK",
    "Comparator",
    "Monitor",
    "Step",
    "Violation",
    "make_comparator",
]

Value = Fraction | ScalarInterval


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

    @cached_property
    def uu(self) -> Fraction:
        return Fraction(norm2(self.u))

    @property
    def gamma_squared_unit(self) -> Fraction:
        """gamma^2 for the unit vector u/|u| (exact, no square root)."""
        return self.gamma**2 / self.uu

    @property
    def bound(self) -> Fraction:
        """R^2/gamma^2 for the unit comparator: ``R2 * uu / gamma^2``."""
        return self.radius_squared * self.uu / self.gamma**2

    def integers(self) -> tuple[list[int], int]:
        """``(U, su)``: ``u`` times the positive integer ``su`` is the integer vector ``U``."""
        su = math.lcm(*(v.denominator for v in self.u))
        return [int(v * su) for v in self.u], su


def make_comparator(
    data: Dataset,
    u: Sequence[Any],
    *,
    strict: bool = False,
    gamma: Any = None,
    source: str = "given",
) -> Comparator:
    """Validate ``u`` against the data and fix the margin ``gamma``.

    Non-strict (the other four sources): ``gamma`` defaults to ``min_i y_i u.x_i``.
    Strict (Kalyanakrishnan's Assumption 1, ``y_i u.x_i > gamma``): ``gamma`` must lie
    strictly below that minimum; it defaults to half of it.

    >>> from pla_proof.data import from_arrays
    >>> make_comparator(from_arrays([[1, 0]], [1]), [0, 1])
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: comparator does not separate the data: point 1 has y u.x = 0 <= 0
    """
    uf = tuple(
        v if type(v) is Fraction else to_fraction(v, what=f"comparator entry {i + 1}")
        for i, v in enumerate(u)
    )
    if len(uf) != data.d:
        raise InputError(
            f"comparator has {len(uf)} entries but the data have {data.d} features"
            + (" (including the bias coordinate)" if data.bias is not None else "")
        )
    if all(v == 0 for v in uf):
        raise InputError("comparator is the zero vector")
    low, i = data.min_margin(uf)
    if low <= 0:
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
    """A statement that failed on a run, with both sides' values: the one failure type
    of every run -- a lemma of the proof on the trainer's run, or a property of a
    variant's claim on the checker's run (its
    :class:`~pla_proof.variants.protocol.claim.Failure`, which says it in the claim's
    words, with a ``message`` where the failure is not a relation)."""

    lemma: str
    title: str
    statement: str
    k: int | None
    j: int | None
    lhs: Value
    op: str
    rhs: Value
    values: dict[str, Value] = field(default_factory=dict)
    choices: list[int] = field(default_factory=list)
    message: str = ""

    @property
    def prop(self) -> str:
        """What failed: the lemma or the property (``L2``, ``G1``, ``T``, ``RUNS``...)."""
        return self.lemma

    def describe(self) -> str:
        where = f"at update k={self.k}" + (f" (point j={self.j + 1})" if self.j is not None else "")
        return (
            f"{self.lemma} ({self.title}) fails {where}: {self.statement}; "
            f"lhs = {_fmt(self.lhs)}, rhs = {_fmt(self.rhs)}"
        )


def _fmt(v: Any) -> str:
    if isinstance(v, ScalarInterval):
        return f"[{v.lo!r}, {v.hi!r}]"
    return str(v)


#: Statements derived from the trigger, which float mode decides on the float weights:
#: ``step`` adds ``2 max(0, t_hi)`` of this update, ``total`` the sum over the run so far,
#: ``total/k`` that sum times ``uu / k``, ``total*uu`` that sum times ``uu``.
SLACK = {
    "L6": "step",
    "G1": "step",
    "L7": "total",
    "Q_G": "total",
    "T": "total/k",
    "T_G": "total*uu",
}


@dataclass
class Finding:
    """The first update (0-based index in the measures) at which a lemma fails."""

    lemma: Lemma | RunLemma
    index: int
    lhs: Value
    rhs: Value
    op: str


class Monitor:
    """Evaluates ``lemmas`` on measured chunks of a run (exact or float enclosures).

    ``constants`` are the run's fixed quantities (``g``, ``R2``, ``uu``; ``C``, ``ps``,
    ``ns`` for the generic lemma).  Float mode keeps the running trigger slack, the
    largest possibly missed amount and the undecided statements across chunks.
    """

    def __init__(
        self,
        lemmas: Sequence[Lemma | RunLemma],
        constants: dict[str, Fraction],
        *,
        strict: bool,
        mode: str = "exact",
        aim: bool = False,
    ) -> None:
        self.lemmas = tuple(lemmas)
        self.strict = strict
        self.mode = mode
        self.relations = [Relation.of(lem, strict=strict) for lem in self.lemmas]
        self.constants = dict(constants)
        self.exact_constants = {k: Exact.const(v) for k, v in constants.items()}
        self.interval_constants = {k: Interval.point(v) for k, v in constants.items()}
        self.total_slack = 0.0
        self.max_missed = 0.0
        self.undecided: list[tuple[str, int]] = []
        #: with ``aim``: each inequality's smallest normalised slack so far, by lemma id
        #: (:mod:`.slack`; a heading for a search, never a verdict)
        self.aim = aim
        self.tightest: dict[str, float] = {}

    def _aim(self, rel: Relation, lhs: Any, rhs: Any) -> None:
        s = tightest(lhs, rel.op, rhs)
        if s is not None:
            old = self.tightest.get(rel.lemma.id)
            self.tightest[rel.lemma.id] = s if old is None else min(old, s)

    def failures(self, measures: Mapping[str, Any]) -> list[Finding]:
        """The first failure of each lemma in this chunk, in the order of the lemmas."""
        if self.mode == "exact":
            return self._exact(measures)
        return self._float(measures)

    def first(self, measures: Mapping[str, Any]) -> Finding | None:
        """The earliest failure in this chunk (ties: the proof's order)."""
        found = self.failures(measures)
        return min(found, key=lambda f: f.index) if found else None

    def _exact(self, measures: Any, relations: Sequence[Relation] | None = None) -> list[Finding]:
        if hasattr(measures, "residues"):
            return self._residues(measures)
        values = {**self.exact_constants, **measures}
        out = []
        for rel in self.relations if relations is None else relations:
            if self.aim and rel.op != "==":
                a, b = rel.numerators(values)
                ok = np.asarray(compare(a, rel.op, b), dtype=bool)
                self._aim(rel, a, b)
            else:
                ok = rel.exact(values)
            bad = np.flatnonzero(~ok)
            if bad.size:
                i = int(bad[0])
                lhs, rhs = rel.sides_exact(values)
                out.append(Finding(rel.lemma, i, _at(lhs, i), _at(rhs, i), rel.op))
        return out

    def _residues(self, measures: Any) -> list[Finding]:
        """Exact, on a chunk measured by residues: each inequality is first decided on
        the enclosures where they settle it (when the chunk has them), the rest -- and
        every equality -- on residues modulo enough primes to be exact."""
        bounds = {**self.exact_constants, **measures.bounds, "k": measures.k}
        K = measures.K
        ivals = measures.intervals
        if ivals is not None:  # one table of every enclosure, read by every relation
            ivals = Enclosures.of(ivals, K).with_scalars(self.interval_constants)
        # every equality is decided on residues: measure the chunk once, modulo as many
        # primes as the widest of them needs (an inequality's open rows may ask more)
        widest = [
            rel.primes_needed(bounds)
            for rel in self.relations
            if rel.op == "==" and set(rel.symbols) & set(measures.bounds)
        ]
        if widest:
            measures.residues(max(widest))
        out = []
        for rel in self.relations:
            if not set(rel.symbols) & set(measures.bounds):  # constants and k only
                out.extend(self._by_k(rel, measures.k, ivals, K))
                continue
            rows: Any = slice(None)
            bad = np.zeros(K, dtype=bool)
            if ivals is not None and rel.op != "==":
                bad, open_ = rel.on_enclosures(ivals, K)
                rows = np.flatnonzero(open_)
                if self.aim:  # (the enclosures' midpoints: a heading, not a verdict)
                    lhs_i, rhs_i = rel.interval(ivals)
                    self._aim(rel, _mid(lhs_i), _mid(rhs_i))
            P = 0  # (how many primes decide it: found only when residues are needed)
            if not (isinstance(rows, np.ndarray) and rows.size == 0):
                P = rel.primes_needed(bounds)
                vals = {**self.exact_constants, **measures.residues(P)}
                if isinstance(rows, np.ndarray):
                    bad[rows] = ~rel.exact(vals, rows)
                else:
                    bad = ~rel.exact(vals, table=measures.table(P))
            idx = np.flatnonzero(bad)
            if idx.size:
                i = int(idx[0])
                P = P or rel.primes_needed(bounds)
                vals = {**self.exact_constants, **measures.residues(P)}
                lhs_v, rhs_v = rel.sides_exact({n: _take(v, [i]) for n, v in vals.items()})
                out.append(Finding(rel.lemma, i, lhs_v.at(0), rhs_v.at(0), rel.op))
        return out

    def _by_k(self, rel: Relation, k: Any, ivals: Any, K: int) -> list[Finding]:
        """A relation of the constants and ``k`` only: decided on the enclosures where they
        settle it, exactly on the other updates."""
        values = {**self.exact_constants, "k": k}
        if ivals is None or rel.op == "==":
            return self._exact(values, [rel])
        bad, unsettled = rel.on_enclosures(ivals, K)
        open_ = np.flatnonzero(bad | unsettled)  # (a failure is reported with exact values)
        if open_.size == 0:
            return []
        found = self._exact({**self.exact_constants, "k": _take(k, open_)}, [rel])
        return [Finding(f.lemma, int(open_[f.index]), f.lhs, f.rhs, f.op) for f in found]

    def _float(self, measures: Mapping[str, Interval]) -> list[Finding]:
        values = {**self.interval_constants, **measures}
        t = measures.get("t")
        K = len(np.atleast_1d(measures["k"].lo))
        if t is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                step = np.nextafter(2.0 * np.maximum(np.asarray(t.hi, dtype=float), 0.0), np.inf)
                total = np.cumsum(step) * (1.0 + K * 2.0**-52) + self.total_slack
                total = np.nextafter(total, np.inf)
        else:
            step = np.zeros(K)
            total = np.full(K, self.total_slack)
        kk = np.asarray(measures["k"].lo, dtype=float)
        table = Enclosures.of(measures, K).with_scalars(self.interval_constants)
        out = []
        for rel in self.relations:
            lhs, rhs = rel.interval(table)
            kind = SLACK.get(rel.lemma.id)
            if kind is not None:
                if kind == "step":
                    extra = step
                elif kind == "total":
                    extra = total
                else:
                    uu = values["uu"].hi
                    with np.errstate(over="ignore"):
                        extra = total * uu / kk if kind == "total/k" else total * uu
                        extra = np.nextafter(np.nextafter(extra, np.inf), np.inf)
                rhs = Interval(rhs.lo, np.nextafter(np.asarray(rhs.hi) + extra, np.inf))
            lo_l, hi_l = np.broadcast_arrays(np.asarray(lhs.lo, float), np.asarray(lhs.hi, float))
            lo_r, hi_r = np.broadcast_arrays(np.asarray(rhs.lo, float), np.asarray(rhs.hi, float))
            lo_l, hi_l = np.broadcast_to(lo_l, (K,)), np.broadcast_to(hi_l, (K,))
            lo_r, hi_r = np.broadcast_to(lo_r, (K,)), np.broadcast_to(hi_r, (K,))
            finite = np.isfinite(lo_l) & np.isfinite(hi_l) & np.isfinite(lo_r) & np.isfinite(hi_r)
            bad = certainly_violated(Interval(lo_l, hi_l), rel.op, Interval(lo_r, hi_r)) & finite
            if self.aim:
                self._aim(rel, (lo_l + hi_l) / 2, (lo_r + hi_r) / 2)
            for i in np.flatnonzero(~finite)[:1]:
                self.undecided.append((rel.lemma.id, int(kk[i])))
            missed = _missed(lo_l, hi_l, rel.op, lo_r, hi_r)[finite & ~bad]
            if missed.size:
                self.max_missed = max(self.max_missed, float(missed.max()))
            idx = np.flatnonzero(bad)
            if idx.size:
                i = int(idx[0])
                out.append(
                    Finding(
                        rel.lemma,
                        i,
                        ScalarInterval(float(lo_l[i]), float(hi_l[i])),
                        ScalarInterval(float(lo_r[i]), float(hi_r[i])),
                        rel.op,
                    )
                )
        if K:
            self.total_slack = float(total[-1])
        return out


def _mid(iv: Interval) -> Any:
    with np.errstate(all="ignore"):
        return (np.asarray(iv.lo, dtype=float) + np.asarray(iv.hi, dtype=float)) / 2


def _missed(lo_l: Any, hi_l: Any, op: str, lo_r: Any, hi_r: Any) -> Any:
    """How much the relation could fail by, within the enclosures."""
    with np.errstate(over="ignore", invalid="ignore"):
        if op in ("<=", "<"):
            return np.maximum(hi_l - lo_r, 0.0)
        if op in (">=", ">"):
            return np.maximum(hi_r - lo_l, 0.0)
        return np.maximum(hi_l - lo_l, 0.0) + np.maximum(hi_r - lo_r, 0.0)


def _at(e: Any, i: int) -> Fraction:
    out: Fraction = e.at(i)
    return out


def _take(v: Any, rows: Any) -> Any:
    return v.take(rows) if hasattr(v, "take") else v


def step_values(
    measures: Mapping[str, Any], constants: dict[str, Fraction], i: int, mode: str
) -> dict[str, Value]:
    """The run vocabulary at index ``i`` of a measured chunk (exact values or enclosures)."""
    out: dict[str, Value] = {}
    if mode == "exact":
        out.update(constants)
        for name, e in measures.items():
            out[name] = _at(e, i)
        return out
    for name, v in constants.items():
        iv = Interval.point(v)
        out[name] = ScalarInterval(float(iv.lo), float(iv.hi))
    for name, iv in measures.items():
        lo = np.atleast_1d(iv.lo)
        hi = np.atleast_1d(iv.hi)
        out[name] = ScalarInterval(float(lo[i]), float(hi[i]))
    return out
