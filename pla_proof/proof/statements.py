"""The proof of the convergence theorem as data: one object per step.

Every step of seed 000's proof (and the other seeds' forms of it) is a
:class:`Lemma`.  A lemma's ``runtime`` statement is written in the *run
vocabulary* below -- scalars that an instrumented run measures directly from
its vectors at update ``k`` (``w_k -> w_{k+1}`` after picking point ``j``).  The
monitor evaluates exactly these relations on a run's numbers; the symbolic
checkers prove them (or their general-dimension vector forms).

Homogeneous forms are used so that exact mode never takes a square root: with
an unnormalised comparator ``u``, ``g = min_i y_i u.x_i`` and ``uu = |u|^2``, the
textbook bound ``k <= R^2/gamma^2`` (for the unit vector ``u/|u|``) reads
``k g^2 <= R2 uu``.

>>> [lemma.id for lemma in RUNTIME_LEMMAS]  # doctest: +NORMALIZE_WHITESPACE
['DEF_TRIGGER', 'A1_j', 'A2_j', 'L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7', 'T']
>>> L3 = lemma("L3"); L3.statement(strict=False)
pu1 >= g*k
>>> L3.holds({"pu1": 6, "g": 2, "k": 3}, strict=False)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

__all__ = [
    "END_LEMMAS",
    "LEMMAS",
    "RUNTIME_LEMMAS",
    "VOCABULARY",
    "Lemma",
    "lemma",
]

# --- the run vocabulary: what a run measures at update k ---------------------------
k = sp.Symbol("k", integer=True, positive=True)  # index of this update (1-based)
t = sp.Symbol("t", real=True)  # trigger value  y_j w_k . x_j
pu = sp.Symbol("pu", real=True)  # u . w_k
pu1 = sp.Symbol("pu1", real=True)  # u . w_{k+1}
yux = sp.Symbol("yux", real=True)  # y_j u . x_j
n0 = sp.Symbol("n0", nonnegative=True)  # |w_k|^2
n1 = sp.Symbol("n1", nonnegative=True)  # |w_{k+1}|^2
xx = sp.Symbol("xx", nonnegative=True)  # |x_j|^2
g = sp.Symbol("g", positive=True)  # margin of u:  min_i y_i u . x_i  (or the assumed gamma)
R2 = sp.Symbol("R2", positive=True)  # R^2 = max_i |x_i|^2
uu = sp.Symbol("uu", positive=True)  # |u|^2
m = sp.Symbol("m", real=True)  # at the end: min_i y_i w . x_i for the returned w

VOCABULARY: dict[str, tuple[sp.Symbol, str]] = {
    "k": (k, "index of this update (w_k -> w_{k+1}); k = 1 is the first update"),
    "t": (t, "trigger value y_j (w_k . x_j)"),
    "pu": (pu, "progress before: u . w_k"),
    "pu1": (pu1, "progress after: u . w_{k+1}"),
    "yux": (yux, "margin of the picked point: y_j (u . x_j)"),
    "n0": (n0, "squared norm before: |w_k|^2"),
    "n1": (n1, "squared norm after: |w_{k+1}|^2"),
    "xx": (xx, "squared norm of the picked point: |x_j|^2"),
    "g": (g, "margin gamma of the comparator u (homogeneous: not divided by |u|)"),
    "R2": (R2, "squared radius R^2 = max_i |x_i|^2 of the vectors trained on"),
    "uu": (uu, "squared norm of the comparator |u|^2"),
    "m": (m, "at the end of a run: min_i y_i (w . x_i) for the returned w"),
}


@dataclass(frozen=True)
class Lemma:
    """One node of the proof.

    ``runtime`` maps the margin assumption (``strict``) to the relation a run must
    satisfy at every update, or is ``None`` for nodes with no per-update instance.
    ``hypotheses`` are the relations the step is derived from (the implication's
    antecedent, discharged by Z3 in :mod:`pla_proof.proof`).
    """

    id: str
    title: str
    kind: str  # assumption | definition | identity | implication | axiom | theorem | corollary
    text: str
    depends_on: tuple[str, ...] = ()
    source: str = "seed 000"
    runtime: Callable[[bool], sp.Basic] | None = None
    hypotheses: Callable[[bool], tuple[sp.Basic, ...]] | None = None
    at: str = "update"  # when the monitor evaluates it: "update" or "end"
    extra: Mapping[str, Any] = field(default_factory=dict)

    def statement(self, *, strict: bool = False) -> sp.Basic:
        """The run-vocabulary relation of this lemma (under the chosen margin form)."""
        if self.runtime is None:
            raise ValueError(f"{self.id} has no run-time statement")
        return self.runtime(strict)

    def sides(self, *, strict: bool = False) -> tuple[sp.Expr, str, sp.Expr]:
        """``(lhs, op, rhs)`` with ``op`` one of ``<=``, ``<``, ``>=``, ``>``, ``==``."""
        rel = self.statement(strict=strict)
        return rel.lhs, rel.rel_op, rel.rhs

    def evaluator(self, *, strict: bool = False) -> tuple[Callable[..., Any], str, Callable[..., Any]]:
        """Compiled ``(lhs, op, rhs)``: plain Python arithmetic, so ints, Fractions and
        intervals all work.  Arguments are passed by keyword from the vocabulary."""
        key = (self.id, strict)
        cached = _COMPILED.get(key)
        if cached is None:
            lhs, op, rhs = self.sides(strict=strict)
            cached = (_compile(lhs), op, _compile(rhs))
            _COMPILED[key] = cached
        return cached

    def holds(self, values: Mapping[str, Any], *, strict: bool = False) -> bool:
        """Evaluate the run-time relation on exact numbers."""
        lhs, op, rhs = self.evaluator(strict=strict)
        return compare(lhs(**_pick(lhs, values)), op, rhs(**_pick(rhs, values)))


_COMPILED: dict[tuple[str, bool], tuple[Callable[..., Any], str, Callable[..., Any]]] = {}


def _compile(expr: sp.Expr) -> Callable[..., Any]:
    names = sorted(str(s) for s in expr.free_symbols)
    fn = sp.lambdify([sp.Symbol(n) for n in names], expr, modules=[{}, "math"])
    fn.__pla_args__ = tuple(names)  # type: ignore[attr-defined]
    return fn  # type: ignore[no-any-return]


def _pick(fn: Callable[..., Any], values: Mapping[str, Any]) -> dict[str, Any]:
    return {name: values[name] for name in fn.__pla_args__}  # type: ignore[attr-defined]


def compare(a: Any, op: str, b: Any) -> bool:
    """``a op b`` for the relation symbols SymPy uses.

    >>> compare(1, "<=", 1), compare(1, "<", 1), compare(2, "==", 2)
    (True, False, True)
    """
    if op == "<=":
        return bool(a <= b)
    if op == "<":
        return bool(a < b)
    if op == ">=":
        return bool(a >= b)
    if op == ">":
        return bool(a > b)
    if op == "==":
        return bool(a == b)
    raise ValueError(f"unknown relation {op!r}")


def _ge(strict: bool, a: sp.Expr, b: sp.Expr) -> sp.Basic:
    return sp.StrictGreaterThan(a, b) if strict else sp.GreaterThan(a, b)


def _le(strict: bool, a: sp.Expr, b: sp.Expr) -> sp.Basic:
    return sp.StrictLessThan(a, b) if strict else sp.LessThan(a, b)


LEMMAS: tuple[Lemma, ...] = (
    Lemma(
        "DEF_TRIGGER",
        "update trigger",
        "definition",
        "the algorithm updates on point j only if y_j (w_k . x_j) <= 0",
        runtime=lambda s: sp.LessThan(t, 0),
    ),
    Lemma(
        "A1_j",
        "margin assumption at the picked point",
        "assumption",
        "y_j (u . x_j) >= gamma (seed 000: > gamma)",
        runtime=lambda s: _ge(s, yux, g),
    ),
    Lemma(
        "A2_j",
        "radius assumption at the picked point",
        "assumption",
        "|x_j|^2 <= R^2",
        runtime=lambda s: sp.LessThan(xx, R2),
    ),
    Lemma(
        "L1",
        "progress identity",
        "identity",
        "(w + y x) . u = w . u + y (x . u)",
        runtime=lambda s: sp.Eq(pu1, pu + yux, evaluate=False),
    ),
    Lemma(
        "L2",
        "progress inequality",
        "implication",
        "u . w_{k+1} - u . w_k >= gamma",
        depends_on=("L1", "A1_j"),
        runtime=lambda s: _ge(s, pu1 - pu, g),
        hypotheses=lambda s: (sp.Eq(pu1, pu + yux), _ge(s, yux, g)),
    ),
    Lemma(
        "L3",
        "P_k: progress after k updates",
        "implication",
        "u . w_{k+1} >= k gamma (by induction on k)",
        depends_on=("L2",),
        runtime=lambda s: _ge(s, pu1, k * g),
    ),
    Lemma(
        "L4",
        "Cauchy-Schwarz (homogeneous, squared)",
        "axiom",
        "(u . w)^2 <= |u|^2 |w|^2",
        source="trusted axiom in general d; Lagrange identity checked for d <= 4",
        runtime=lambda s: sp.LessThan(pu1**2, uu * n1),
    ),
    Lemma(
        "L5",
        "norm expansion",
        "identity",
        "|w + y x|^2 = |w|^2 + 2 y (w . x) + y^2 |x|^2, y^2 = 1",
        runtime=lambda s: sp.Eq(n1, n0 + 2 * t + xx, evaluate=False),
    ),
    Lemma(
        "L6",
        "growth inequality",
        "implication",
        "|w_{k+1}|^2 - |w_k|^2 <= R^2",
        depends_on=("L5", "DEF_TRIGGER", "A2_j"),
        runtime=lambda s: sp.LessThan(n1 - n0, R2),
        hypotheses=lambda s: (sp.Eq(n1, n0 + 2 * t + xx), sp.LessThan(t, 0), sp.LessThan(xx, R2)),
    ),
    Lemma(
        "L7",
        "Q_k: growth after k updates",
        "implication",
        "|w_{k+1}|^2 <= k R^2 (by induction on k)",
        depends_on=("L6",),
        runtime=lambda s: sp.LessThan(n1, k * R2),
    ),
    Lemma(
        "T",
        "convergence bound",
        "theorem",
        "k <= R^2/gamma^2 (seed 000, strict margin: k < R^2/gamma^2)",
        depends_on=("L3", "L4", "L7"),
        runtime=lambda s: _le(s, k * g**2, R2 * uu),
    ),
    Lemma(
        "SEP",
        "the returned w separates",
        "definition",
        "when no i has y_i (w . x_i) <= 0 the loop stops: min_i y_i (w . x_i) > 0",
        runtime=lambda s: sp.StrictGreaterThan(m, 0),
        at="end",
    ),
)

_BY_ID = {lem.id: lem for lem in LEMMAS}

#: The lemmas the run-time monitor evaluates at every update, in proof order.
RUNTIME_LEMMAS: tuple[Lemma, ...] = tuple(
    lem for lem in LEMMAS if lem.runtime is not None and lem.at == "update"
)

#: The lemmas the monitor evaluates once, on the returned weights.
END_LEMMAS: tuple[Lemma, ...] = tuple(
    lem for lem in LEMMAS if lem.runtime is not None and lem.at == "end"
)


def lemma(lemma_id: str) -> Lemma:
    """Look a lemma up by id (``KeyError`` for an unknown id)."""
    return _BY_ID[lemma_id]
