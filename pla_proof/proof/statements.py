"""The proof of the convergence theorem as data: one object per step.

Interim note (for the run-time engine): the generic lemma is available as run-time
lemmas in :data:`GENERIC_LEMMAS` -- ids ``G1`` (growth ``n1 - n0 <= C``), ``G2``
(progress ``pu1 - pu >= g``), ``P_G`` (``pu1 >= ps + k g``), ``Q_G``
(``n1 <= ns + k C``) and ``T_G`` (``(ps + k g)^2 <= uu (ns + k C)``) -- with the new
vocabulary symbols ``C`` (growth constant), ``ps = u.w_1`` and ``ns = |w_1|^2`` (the
start ``w_1``; both 0 for the classic ``w_1 = 0``).  Evaluate them like
:data:`RUNTIME_LEMMAS`; every one but the hypotheses G1/G2 is backed by proved
obligations (``P_G.*``, ``Q_G.*``, ``T_G``).

Every step of Kalyanakrishnan's proof (and the other sources' forms of it) is a
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
>>> L3.induction.step, dict(L3.induction.base)
('L2', {'k': 1, 'pu': 0})

Besides the run-time lemmas, :data:`NODES` holds the whole blueprint: the
assumptions A1/A2, the algorithm's definition, the generic lemma G
and the corollaries of the other four sources (their formal statements live with their
obligations in :mod:`pla_proof.proof.obligations`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from .comparison import compare

__all__ = [
    "END_LEMMAS",
    "GENERIC",
    "GENERIC_LEMMAS",
    "LEMMAS",
    "NODES",
    "RUNTIME_LEMMAS",
    "VOCABULARY",
    "Induction",
    "Lemma",
    "compare",
    "lemma",
    "rel",
    "vector_forms",
    "vector_substitution",
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
#: The generic lemma's growth constant: |w_{k+1}|^2 - |w_k|^2 <= C at every update (G1).
C = sp.Symbol("C", positive=True)
ps = sp.Symbol("ps", real=True)  # u . w_1 at the start (0 for the classic w_1 = 0)
ns = sp.Symbol("ns", nonnegative=True)  # |w_1|^2 at the start (0 for the classic w_1 = 0)

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
    "C": (C, "growth constant of the generic lemma: |w_{k+1}|^2 - |w_k|^2 <= C at every update"),
    "ps": (ps, "progress at the start: u . w_1 (0 when w_1 = 0)"),
    "ns": (ns, "squared norm at the start: |w_1|^2 (0 when w_1 = 0)"),
}

_OPS: dict[str, Callable[..., sp.Basic]] = {
    "<=": sp.LessThan,
    "<": sp.StrictLessThan,
    ">=": sp.GreaterThan,
    ">": sp.StrictGreaterThan,
    "==": sp.Eq,
}


def rel(a: Any, op: str, b: Any) -> sp.Basic:
    """An *unevaluated* relation ``a op b``.

    SymPy would otherwise decide ``g > 0`` from the symbol's assumptions and
    silently drop the hypothesis; the checkers see every hypothesis explicitly.

    >>> rel(g, ">", 0)
    g > 0
    >>> sp.StrictGreaterThan(g, 0)  # what evaluation would make of it
    True
    """
    return _OPS[op](sp.sympify(a), sp.sympify(b), evaluate=False)


@dataclass(frozen=True)
class Induction:
    """How a lemma ``P(k)`` is proved by induction over the updates.

    * ``base``: the values at the first update (``k = 1``, ``w_1 = 0``); a value is a
      number or the name of a vocabulary symbol (``{"pu": "ps"}``: ``u.w_1`` is the start's);
    * ``previous``: how ``P(k - 1)`` -- the statement at the previous update -- is
      read at update ``k`` (``k -> k - 1`` and, e.g., ``u.w_k`` was then called ``pu1``,
      now ``pu``);
    * ``step``: the one-step lemma that carries ``P(k - 1)`` to ``P(k)``.
    """

    base: Mapping[str, int | str]
    previous: Mapping[str, str]
    step: str

    def base_hypotheses(self) -> tuple[sp.Basic, ...]:
        """The base case's facts as relations (``k = 1``, ``pu = 0``, ...)."""
        return tuple(
            rel(VOCABULARY[name][0], "==", VOCABULARY[v][0] if isinstance(v, str) else v)
            for name, v in self.base.items()
        )

    def previous_statement(self, statement: sp.Basic) -> sp.Basic:
        """``P(k - 1)`` expressed at update ``k``."""
        subs: dict[Any, Any] = {k: k - 1}
        subs.update({VOCABULARY[a][0]: VOCABULARY[b][0] for a, b in self.previous.items()})
        return statement.xreplace(subs)


@dataclass(frozen=True)
class Lemma:
    """One node of the proof.

    ``runtime`` maps the margin assumption (``strict``) to the relation a run must
    satisfy at every update, or is ``None`` for nodes with no per-update instance.
    ``hypotheses`` are the relations the step is derived from (the implication's
    antecedent, discharged by Z3 in :mod:`pla_proof.proof.implications`);
    ``induction`` says how an invariant over ``k`` is proved (base case and step).
    """

    id: str
    title: str
    #: assumption | definition | identity | implication | theorem | corollary | lemma
    kind: str
    text: str
    depends_on: tuple[str, ...] = ()
    source: str = "Kalyanakrishnan's note"
    runtime: Callable[[bool], sp.Basic] | None = None
    hypotheses: Callable[[bool], tuple[sp.Basic, ...]] | None = None
    at: str = "update"  # when the monitor evaluates it: "update" or "end"
    extra: Mapping[str, Any] = field(default_factory=dict)
    induction: Induction | None = None

    def statement(self, *, strict: bool = False) -> sp.Basic:
        """The run-vocabulary relation of this lemma (under the chosen margin form)."""
        if self.runtime is None:
            raise ValueError(f"{self.id} has no run-time statement")
        return self.runtime(strict)

    def sides(self, *, strict: bool = False) -> tuple[sp.Expr, str, sp.Expr]:
        """``(lhs, op, rhs)`` with ``op`` one of ``<=``, ``<``, ``>=``, ``>``, ``==``."""
        rel = self.statement(strict=strict)
        return rel.lhs, rel.rel_op, rel.rhs

    def evaluator(
        self, *, strict: bool = False
    ) -> tuple[Callable[..., Any], str, Callable[..., Any]]:
        """Compiled ``(lhs, op, rhs)``: plain Python arithmetic, so ints, Fractions and
        intervals all work.  Arguments are passed by keyword from the vocabulary."""
        # Keyed by the statement function too: a lemma replaced under the same id
        # (a changed statement) must never reuse the old compiled relation.
        key = (self.id, self.runtime, strict)
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


_COMPILED: dict[tuple[Any, ...], tuple[Callable[..., Any], str, Callable[..., Any]]] = {}


def _compile(expr: sp.Expr) -> Callable[..., Any]:
    names = sorted(str(s) for s in expr.free_symbols)
    fn = sp.lambdify([sp.Symbol(n) for n in names], expr, modules=[{}, "math"])
    fn.__pla_args__ = tuple(names)  # type: ignore[attr-defined]
    return fn  # type: ignore[no-any-return]


def _pick(fn: Callable[..., Any], values: Mapping[str, Any]) -> dict[str, Any]:
    return {name: values[name] for name in fn.__pla_args__}  # type: ignore[attr-defined]


def _ge(strict: bool, a: sp.Expr, b: sp.Expr) -> sp.Basic:
    return sp.StrictGreaterThan(a, b) if strict else sp.GreaterThan(a, b)


def _le(strict: bool, a: sp.Expr, b: sp.Expr) -> sp.Basic:
    return sp.StrictLessThan(a, b) if strict else sp.LessThan(a, b)


def _l3(s: bool) -> sp.Basic:
    return _ge(s, pu1, k * g)


def _l4(s: bool) -> sp.Basic:
    return sp.LessThan(pu1**2, uu * n1)


def _l7(s: bool) -> sp.Basic:
    return sp.LessThan(n1, k * R2)


def _positivity() -> tuple[sp.Basic, ...]:
    """The positivity hypotheses of the final step, stated explicitly."""
    return (rel(k, ">=", 1), rel(g, ">", 0), rel(uu, ">", 0))


LEMMAS: tuple[Lemma, ...] = (
    Lemma(
        "DEF_TRIGGER",
        "update trigger",
        "definition",
        "the algorithm updates on point j only if y_j (w_k . x_j) <= 0",
        depends_on=("DEF_ALG",),
        runtime=lambda s: sp.LessThan(t, 0),
    ),
    Lemma(
        "A1_j",
        "margin assumption at the picked point",
        "assumption",
        "y_j (u . x_j) >= gamma (Kalyanakrishnan's note: > gamma)",
        depends_on=("A1",),
        runtime=lambda s: _ge(s, yux, g),
    ),
    Lemma(
        "A2_j",
        "radius assumption at the picked point",
        "assumption",
        "|x_j|^2 <= R^2",
        depends_on=("A2",),
        runtime=lambda s: sp.LessThan(xx, R2),
    ),
    Lemma(
        "L1",
        "progress identity",
        "identity",
        "(w + y x) . u = w . u + y (x . u)",
        depends_on=("DEF_ALG",),
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
        runtime=_l3,
        induction=Induction(base={"k": 1, "pu": 0}, previous={"pu1": "pu"}, step="L2"),
    ),
    Lemma(
        "L4",
        "Cauchy-Schwarz (homogeneous, squared)",
        "lemma",
        "(u . w)^2 <= |u|^2 |w|^2",
        source="standard; proved for every d by induction on d (Lagrange's step)",
        runtime=_l4,
    ),
    Lemma(
        "L5",
        "norm expansion",
        "identity",
        "|w + y x|^2 = |w|^2 + 2 y (w . x) + y^2 |x|^2, y^2 = 1",
        depends_on=("DEF_ALG",),
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
        runtime=_l7,
        induction=Induction(base={"k": 1, "n0": 0}, previous={"n1": "n0"}, step="L6"),
    ),
    Lemma(
        "T",
        "convergence bound",
        "theorem",
        "k <= R^2/gamma^2 (Kalyanakrishnan's note, strict margin: k < R^2/gamma^2)",
        depends_on=("L3", "L4", "L7"),
        runtime=lambda s: _le(s, k * g**2, R2 * uu),
        hypotheses=lambda s: (_l3(s), _l4(s), _l7(s), *_positivity()),
    ),
    Lemma(
        "SEP",
        "the returned w separates",
        "definition",
        "when no i has y_i (w . x_i) <= 0 the loop stops: min_i y_i (w . x_i) > 0",
        depends_on=("DEF_ALG",),
        runtime=lambda s: sp.StrictGreaterThan(m, 0),
        at="end",
    ),
)

#: The generic lemma from ``w_1 = 0`` in the run vocabulary (``z = w_{k+1} - w_k``, so
#: ``u.z = pu1 - pu``; ``C`` is the variant's growth constant and ``g`` its progress).
GENERIC: dict[str, sp.Basic] = {
    "G1": sp.LessThan(n1 - n0, C),
    "G2": sp.GreaterThan(pu1 - pu, g),
    "P": sp.GreaterThan(pu1, k * g),
    "Q": sp.LessThan(n1, k * C),
    "bound": sp.LessThan(k * g**2, C * uu),
}


def _p_g(s: bool) -> sp.Basic:
    return _ge(s, pu1, ps + k * g)


def _q_g(s: bool) -> sp.Basic:
    return sp.LessThan(n1, ns + k * C)


_GENERIC_SOURCE = "the generic lemma (docs/proof.md), proved once for every additive variant"

#: The generic lemma as run-time statements, from any start ``w_1`` (``u.w_1 = ps``,
#: ``|w_1|^2 = ns``): a variant whose every update has (G1) and (G2) satisfies P_G, Q_G
#: and T_G.  With ``w_1 = 0`` (``ps = ns = 0``) and ``C = R^2`` they are L3, L7 and T.
GENERIC_LEMMAS: tuple[Lemma, ...] = (
    Lemma(
        "G1",
        "(G1) growth per update",
        "assumption",
        "|w_{k+1}|^2 - |w_k|^2 <= C (a hypothesis of the generic lemma; C >= 0)",
        source=_GENERIC_SOURCE,
        runtime=lambda s: sp.LessThan(n1 - n0, C),
    ),
    Lemma(
        "G2",
        "(G2) progress per update",
        "assumption",
        "u . w_{k+1} - u . w_k >= g (a hypothesis of the generic lemma; g > 0)",
        source=_GENERIC_SOURCE,
        runtime=lambda s: _ge(s, pu1 - pu, g),
    ),
    Lemma(
        "P_G",
        "P_k of the generic lemma",
        "implication",
        "u . w_{k+1} >= u . w_1 + k g (by induction on k)",
        depends_on=("G2",),
        source=_GENERIC_SOURCE,
        runtime=_p_g,
        induction=Induction(base={"k": 1, "pu": "ps"}, previous={"pu1": "pu"}, step="G2"),
    ),
    Lemma(
        "Q_G",
        "Q_k of the generic lemma",
        "implication",
        "|w_{k+1}|^2 <= |w_1|^2 + k C (by induction on k)",
        depends_on=("G1",),
        source=_GENERIC_SOURCE,
        runtime=_q_g,
        induction=Induction(base={"k": 1, "n0": "ns"}, previous={"n1": "n0"}, step="G1"),
    ),
    Lemma(
        "T_G",
        "bound of the generic lemma",
        "theorem",
        "(u . w_1 + k g)^2 <= |u|^2 (|w_1|^2 + k C); from w_1 = 0: k <= C |u|^2 / g^2",
        depends_on=("P_G", "Q_G", "L4"),
        source=_GENERIC_SOURCE,
        runtime=lambda s: _le(s, (ps + k * g) ** 2, uu * (ns + k * C)),
        hypotheses=lambda s: (
            _p_g(s),
            _q_g(s),
            _l4(s),
            rel(ps**2, "<=", uu * ns),
            rel(k, ">=", 1),
            rel(g, ">", 0),
            rel(uu, ">", 0),
            rel(C, ">=", 0),
        ),
    ),
)

_MONITORED_BY_INSTANCE = "checked at run time through its instance"
_NOT_MONITORED = (
    "no per-update quantity: checked symbolically (and on a run by `pla-proof explain`)"
)

#: Nodes of the blueprint that are not evaluated at every update.
#: A bound a variant states itself (``Claim(bound=B)``): ``k <= B`` (``k < B`` under a
#: strict margin); evaluated at every update, not a node of the proof.
B = sp.Symbol("B", real=True)
CLAIMED_BOUND = Lemma(
    "T_B",
    "the claimed bound",
    "theorem",
    "k <= B, the number of updates the variant claims at most",
    source="the variant's claim",
    runtime=lambda s: sp.StrictLessThan(k, B) if s else sp.LessThan(k, B),
)


OTHER_NODES: tuple[Lemma, ...] = (
    Lemma(
        "A1",
        "margin assumption (A1)",
        "assumption",
        "some u != 0 and gamma > 0 have y_i (u . x_i) >= gamma for every i "
        "(the other four sources; Kalyanakrishnan's note: > gamma)",
        source="Kalyanakrishnan's note, Assumption 1; the other four sources",
        extra={"monitored": f"{_MONITORED_BY_INSTANCE} A1_j"},
    ),
    Lemma(
        "A2",
        "radius assumption (A2)",
        "assumption",
        "|x_i|^2 <= R^2 for every i",
        source="Kalyanakrishnan's note, Assumption 2",
        extra={"monitored": f"{_MONITORED_BY_INSTANCE} A2_j"},
    ),
    Lemma(
        "DEF_ALG",
        "the algorithm",
        "definition",
        "w_1 = 0; while some i has y_i (w_k . x_i) <= 0: pick such a j, w_{k+1} = w_k + y_j x_j",
        extra={"monitored": f"{_MONITORED_BY_INSTANCE}s DEF_TRIGGER and SEP"},
    ),
    Lemma(
        "G",
        "generic lemma: (G1), (G2) => k <= C/g^2",
        "lemma",
        "if every update w <- w + z has |w + z|^2 - |w|^2 <= C (G1) and u . z >= g > 0 (G2), "
        "then from w_1 = 0: u . w_{k+1} >= k g, |w_{k+1}|^2 <= k C and k g^2 <= C |u|^2",
        depends_on=("P_G", "Q_G", "T_G"),
        source=_GENERIC_SOURCE,
        extra={"monitored": "through GENERIC_LEMMAS and its classic instance L2, L6, L3, L7, T"},
    ),
    Lemma(
        "UNIT",
        "unit-ball form",
        "corollary",
        "data in the unit ball (R <= 1), |u| = 1: k <= 1/gamma^2",
        depends_on=("T",),
        source="the Cornell CS4780 notes",
        extra={"monitored": _NOT_MONITORED},
    ),
    Lemma(
        "COS",
        "angle to the comparator",
        "corollary",
        "cos angle(w_{k+1}, u) >= sqrt(k) gamma / R "
        "(squared: (u.w)^2 R^2 >= k g^2 |w|^2, u.w >= 0)",
        depends_on=("L3", "L7"),
        source="Lin's slides",
        extra={"monitored": _NOT_MONITORED},
    ),
    Lemma(
        "BIAS",
        "bias augmentation",
        "corollary",
        "<(x, c), (w, b/c)> = w . x + b for c > 0, and |(x, c)|^2 = |x|^2 + c^2, "
        "so R-hat^2 = R^2 + c^2",
        depends_on=("DEF_ALG",),
        source="Cornell CS4780 and Lin 2023",
        extra={"monitored": _NOT_MONITORED},
    ),
    Lemma(
        "BIAS3",
        "the three bias conventions agree",
        "corollary",
        "augment (x, 1), separate b <- b + y (the DSC 255 handout) and (x, -1) with "
        "b <- b - y (the perceptron course page) "
        "make the same decisions at every step",
        depends_on=("BIAS",),
        source="the other four sources",
        extra={"monitored": _NOT_MONITORED},
    ),
    Lemma(
        "DUAL",
        "dual form",
        "corollary",
        "w after k updates = sum_i alpha_i y_i x_i with alpha_i = number of updates on i, "
        "sum alpha_i = k",
        depends_on=("DEF_ALG",),
        source="the DSC 255 handout",
        extra={"monitored": _NOT_MONITORED},
    ),
    Lemma(
        "RATE",
        "learning-rate invariance",
        "corollary",
        "w_1 = 0, eta > 0, w <- w + eta y x: w scales by eta, the decisions and the bound "
        "(C, g) = (eta^2 R^2, eta gamma) are those of eta = 1",
        depends_on=("G",),
        source="standard",
        extra={"monitored": _NOT_MONITORED},
    ),
)

#: Every node of the blueprint, in proof order.
NODES: tuple[Lemma, ...] = OTHER_NODES[:3] + LEMMAS + GENERIC_LEMMAS + OTHER_NODES[3:]

_BY_ID = {lem.id: lem for lem in NODES}

#: The lemmas the run-time monitor evaluates at every update, in proof order.
RUNTIME_LEMMAS: tuple[Lemma, ...] = tuple(
    lem for lem in LEMMAS if lem.runtime is not None and lem.at == "update"
)

#: The lemmas the monitor evaluates once, on the returned weights.
END_LEMMAS: tuple[Lemma, ...] = tuple(
    lem for lem in LEMMAS if lem.runtime is not None and lem.at == "end"
)


def lemma(lemma_id: str) -> Lemma:
    """Look a node up by id (``KeyError`` for an unknown id)."""
    return _BY_ID[lemma_id]


# --- the vocabulary as vectors in general dimension d -----------------------------------
#: dimension, summation index, and the vectors of one update w_k -> w_k + y x
d = sp.Symbol("d", integer=True, positive=True)
i = sp.Symbol("i", integer=True)
y = sp.Symbol("y", real=True)
W, X, U = sp.IndexedBase("w"), sp.IndexedBase("x"), sp.IndexedBase("u")


def vsum(body: sp.Expr, dim: Any = d) -> sp.Expr:
    """``sum_{i=1}^{dim} body`` (unevaluated)."""
    return sp.Sum(body, (i, 1, dim))


def vector_forms(dim: Any = d) -> dict[str, sp.Expr]:
    """What each per-update vocabulary symbol *is*, as a sum over coordinates.

    The monitor measures exactly these quantities; substituting them into a
    lemma's statement gives its vector form in dimension ``dim`` (symbolic ``d``
    by default).

    >>> vector_forms()["pu1"]
    Sum((y*x[i] + w[i])*u[i], (i, 1, d))
    >>> vector_forms(2)["xx"].doit()
    x[1]**2 + x[2]**2
    """
    w1 = W[i] + y * X[i]
    return {
        "t": y * vsum(W[i] * X[i], dim),
        "pu": vsum(U[i] * W[i], dim),
        "pu1": vsum(U[i] * w1, dim),
        "yux": y * vsum(U[i] * X[i], dim),
        "n0": vsum(W[i] ** 2, dim),
        "n1": vsum(w1**2, dim),
        "xx": vsum(X[i] ** 2, dim),
        "uu": vsum(U[i] ** 2, dim),
    }


def vector_substitution(dim: Any = d) -> dict[sp.Symbol, sp.Expr]:
    """:func:`vector_forms` keyed by the vocabulary's symbols: substituting it into a
    run-time statement gives the statement's vector form in dimension ``dim``.

    >>> vector_substitution(2)[xx].doit()
    x[1]**2 + x[2]**2
    """
    return {VOCABULARY[name][0]: form for name, form in vector_forms(dim).items()}


# --- the run-time forms, generated for the SymPy-free run path ----------------------------
#: A polynomial as a tree of tuples: ``("sym", name)``, ``("num", p, q)``,
#: ``("add", *terms)``, ``("mul", *factors)``, ``("pow", base, n)``.
Tree = tuple[Any, ...]


def tree(expr: Any) -> Tree:
    """A run-time polynomial as a tree of tuples (what :mod:`pla_proof.proof.forms` holds).

    >>> tree(k * g + 1)
    ('add', ('num', 1, 1), ('mul', ('sym', 'g'), ('sym', 'k')))
    """
    e = sp.sympify(expr)
    if e.is_Symbol:
        return ("sym", str(e))
    if e.is_Rational:
        return ("num", int(e.p), int(e.q))
    if e.is_Add:
        return ("add", *(tree(a) for a in e.args))
    if e.is_Mul:
        return ("mul", *(tree(a) for a in e.args))
    if e.is_Pow and e.exp.is_Integer and int(e.exp) >= 1:
        return ("pow", tree(e.base), int(e.exp))
    raise ValueError(f"cannot write {e} as a run-time polynomial")


def form(lem: Lemma, strict: bool) -> tuple[Tree, str, Tree, str]:
    """``(lhs, op, rhs, text)`` of a lemma's run-time statement."""
    lhs, op, rhs = lem.sides(strict=strict)
    return tree(lhs), op, tree(rhs), str(lem.statement(strict=strict))


def forms_source() -> str:
    """The text of :mod:`pla_proof.proof.forms`, generated from the run-time lemmas here;
    ``tests/test_proof_statements.py`` checks the shipped file is this text.  Regenerate:
    ``python -c "from pla_proof.proof.statements import forms_source as f; print(f(), end='')"
    > pla_proof/proof/forms.py``."""
    from . import notation

    lines = [
        '"""GENERATED from pla_proof/proof/statements.py -- do not edit.',
        "",
        "The run-time lemmas without SymPy: for each, its title, kind, description and when",
        "the monitor evaluates it, and per margin form (strict False/True) its statement as",
        "``(lhs, op, rhs, text)`` trees (:func:`pla_proof.proof.statements.tree`) and, under",
        "``('notation', strict)``, its text and LaTeX in the proof's notation and its symbols.",
        "Regenerate: see :func:`pla_proof.proof.statements.forms_source`.",
        '"""',
        "",
        "from typing import Any",
        "",
        f"RUNTIME_IDS = {tuple(lem.id for lem in RUNTIME_LEMMAS)!r}",
        f"END_IDS = {tuple(lem.id for lem in END_LEMMAS)!r}",
        f"GENERIC_IDS = {tuple(lem.id for lem in GENERIC_LEMMAS)!r}",
        f"CLAIMED_BOUND_ID = {CLAIMED_BOUND.id!r}",
        "",
        "LEMMAS: dict[str, dict[Any, Any]] = {",
    ]
    for lem in (*RUNTIME_LEMMAS, *END_LEMMAS, *GENERIC_LEMMAS, CLAIMED_BOUND):
        lines.append(f"    {lem.id!r}: {{")
        for key in ("title", "kind", "text", "source", "at"):
            lines.append(f"        {key!r}: {getattr(lem, key)!r},")
        for strict in (False, True):
            lines.append(f"        {strict!r}: {form(lem, strict)!r},")
        for strict in (False, True):  # the proof's notation (pla_proof.proof.notation)
            shown = (
                notation.text(lem, strict),
                notation.latex(lem, strict),
                tuple(sym.name for sym in notation.symbols_of(lem, strict)),
            )
            lines.append(f"        ({'notation'!r}, {strict!r}): {shown!r},")
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"
