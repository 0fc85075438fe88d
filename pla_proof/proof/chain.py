"""The chain check: every hypothesis of every obligation comes from somewhere.

Proving each obligation is not enough: a hypothesis that no obligation concludes
and no assumption states would leave the proof open however many steps are
proved.  :func:`check_chain` classifies every hypothesis of every obligation as

* an **assumption** (A1, A2 at a point, the generic lemma's (G1)/(G2), a corollary's
  own premise), a **definition** (the algorithm, the trigger, what each symbol of the
  run vocabulary is as a sum over coordinates, the start), or a **domain fact**
  (``k >= 1``, ``y in {-1, +1}``, the case split of an induction) -- each stated once
  in :data:`FACTS` with where it comes from; or
* the **conclusion of another obligation**, read through one of the :data:`RENAMINGS`
  (``same``; ``previous update``: ``k -> k-1``, ``u.w_{k+1} -> u.w_k``, ...; an
  instance of Cauchy-Schwarz; ...).  A renaming is *checked*: its link obligations
  (e.g. ``LINK.pu``: what update k-1 calls ``u.w_{k+1}`` is update k's ``u.w_k``) must
  be established, and every per-update quantity of the source must be renamed (a
  trigger value of update k-1 cannot pass for update k's).

An obligation is *established* when it is proved and each of its hypotheses is a
fact or the conclusion of an established obligation; the induction hypothesis of a
step is the conclusion of its own induction read at the previous index, and counts
only when the induction has a base case (``k = 1``) and a step (``k >= 2``).  A
fact about the start (``u.w_k = u.w_1`` *at the first update*) discharges only
hypotheses of obligations that take ``k = 1`` too.

>>> from pla_proof.proof.obligations import all_obligations
>>> report = check_chain(all_obligations())
>>> report.ok, report.undischarged
(True, [])
>>> [(s.kind, s.source, s.renaming) for s in report.sources["L3.step"]][1]
('conclusion', 'L3', 'previous update')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import sympy as sp
from sympy.core.relational import Relational

from . import notation
from .obligations import (
    BIAS_START,
    BIAS_UPDATES,
    CS_FORMS,
    DUAL_POINT,
    DUAL_START,
    RATE_FORMS,
    SOS_FORMS,
    START_FORMS,
    V1,
    VS,
    N,
    Obligation,
    R,
    a1,
    a_i,
    a_j,
    aa,
    aam,
    ab,
    abm,
    bb,
    bbm,
    bm1,
    bs1,
    c,
    cos2,
    eta,
    gamma,
    lag,
    n,
    nu,
    q,
    qm,
    theta,
)
from .obligations import a as a0
from .obligations import bm as bm0
from .obligations import bs as bs0
from .statements import (
    R2,
    C,
    W,
    X,
    d,
    g,
    i,
    k,
    m,
    n0,
    n1,
    ns,
    ps,
    pu,
    pu1,
    rel,
    t,
    uu,
    vector_substitution,
    xx,
    y,
    yux,
)

__all__ = ["FACTS", "RENAMINGS", "Chain", "Fact", "Renaming", "Source", "canon", "check_chain"]


@dataclass(frozen=True)
class Fact:
    """A statement taken as given, stated once: ``kind`` is assumption, definition or
    domain; ``when`` restricts it (``k = 1``: true at the first update only)."""

    id: str
    kind: str
    relations: tuple[Any, ...]
    source: str
    when: Any = None
    #: the blueprint nodes whose obligations may use it (None: every node)
    nodes: frozenset[str] | None = None


@dataclass(frozen=True)
class Renaming:
    """How a conclusion is read elsewhere: ``mapping`` (symbol -> expression), the
    ``links`` that justify it, and the per-state symbols it must rename when present."""

    id: str
    mapping: Mapping[Any, Any]
    links: tuple[str, ...]
    state: frozenset[Any]
    text: str


@dataclass(frozen=True)
class Source:
    """Where one hypothesis comes from."""

    hypothesis: Any
    kind: str  # assumption | definition | domain | conclusion | undischarged
    source: str = ""
    renaming: str = ""

    def to_json(self) -> dict[str, str]:
        return {
            "hypothesis": notation.text(self.hypothesis),
            "kind": self.kind,
            "source": self.source,
            "renaming": self.renaming,
        }


def _defs(forms: Mapping[Any, Any]) -> tuple[Any, ...]:
    return tuple(sp.Eq(sym, form, evaluate=False) for sym, form in forms.items())


_CLASSIC = vector_substitution()
_GENERIC = frozenset({"P_G", "Q_G", "T_G"})
_FIRST = rel(k, "==", 1)

#: Every fact the proof takes as given, each stated once with where it comes from.
FACTS: tuple[Fact, ...] = (
    # assumptions
    Fact(
        "A1_j",
        "assumption",
        (rel(yux, ">=", g), rel(yux, ">", g)),
        "A1 at the picked point j: y_j u·x_j ≥ g (Kalyanakrishnan's note, Assumption 1: > γ)",
    ),
    Fact("A1.g", "assumption", (rel(g, ">", 0),), "A1: the margin is positive"),
    Fact("A1.u", "assumption", (rel(uu, ">", 0),), "A1: the comparator u is not 0"),
    Fact("A2_j", "assumption", (rel(xx, "<=", R2),), "A2 at the picked point j"),
    Fact(
        "A2_i",
        "assumption",
        (rel(a_i, "<=", R2),),
        "A2 at any point i (a_i = ‖x_i‖²)",
        nodes=frozenset({"BIAS"}),
    ),
    Fact(
        "G1",
        "assumption",
        (rel(n1 - n0, "<=", C),),
        "hypothesis (G1) of the generic lemma; each variant proves its instance",
        nodes=_GENERIC,
    ),
    Fact(
        "G2",
        "assumption",
        (rel(pu1 - pu, ">=", g), rel(pu1 - pu, ">", g)),
        "hypothesis (G2) of the generic lemma; each variant proves its instance",
        nodes=_GENERIC,
    ),
    Fact(
        "G.C",
        "assumption",
        (rel(C, ">=", 0),),
        "the generic lemma's growth constant C ≥ 0",
        nodes=_GENERIC,
    ),
    Fact(
        "RATE.eta",
        "assumption",
        (rel(eta, ">", 0),),
        "the learning rate is positive",
        nodes=frozenset({"RATE"}),
    ),
    Fact(
        "UNIT.ball",
        "assumption",
        (rel(R2, "<=", 1),),
        "the CS4780 notes' setting: the data lie in the unit ball",
        nodes=frozenset({"UNIT"}),
    ),
    Fact(
        "BIAS.c",
        "assumption",
        (rel(c, ">", 0),),
        "the bias coordinate's constant c > 0",
        nodes=frozenset({"BIAS"}),
    ),
    # definitions
    Fact(
        "DEF_TRIGGER",
        "definition",
        (rel(t, "<=", 0),),
        "the algorithm updates on j only if y_j w_k·x_j ≤ 0",
    ),
    Fact(
        "DEF_EXIT",
        "definition",
        (sp.Not(rel(m, "<=", 0)),),
        "the loop exits only when no point triggers: min_i y_i w·x_i > 0",
    ),
    Fact(
        "DEF_VEC",
        "definition",
        _defs(_CLASSIC),
        "what a run measures: each vocabulary symbol as a sum over coordinates, with the "
        "update w_{k+1} = w_k + y_j x_j",
    ),
    Fact(
        "DEF_RATE",
        "definition",
        _defs(RATE_FORMS),
        "the learning-rate update w_{k+1} = w_k + η y_j x_j, measured",
        nodes=frozenset({"RATE"}),
    ),
    Fact(
        "DEF_CS",
        "definition",
        _defs(CS_FORMS)
        + tuple(
            sp.Eq(s_, sp.Sum(f.function, (i, 1, 1)).doit(), evaluate=False)
            for s_, f in CS_FORMS.items()
            if s_ in (aa, bb, ab)
        ),
        "Cauchy–Schwarz's quantities for vectors a, b of dimension d (and d − 1)",
        nodes=frozenset({"L4"}),
    ),
    Fact(
        "DEF_SOS",
        "definition",
        (*_defs(SOS_FORMS), sp.Eq(q, VS[1] ** 2, evaluate=False)),
        "a sum of squares s_1² + … + s_n²",
        nodes=frozenset({"L4"}),
    ),
    Fact(
        "DEF_START",
        "definition",
        (rel(pu, "==", ps), rel(n0, "==", ns)),
        "the weights before the first update are the start w_1",
        when=_FIRST,
    ),
    Fact(
        "DEF_START_VEC",
        "definition",
        _defs(START_FORMS),
        "u·w_1 and ‖w_1‖² as sums over the coordinates of the start v = w_1",
    ),
    Fact(
        "DEF_ALG",
        "definition",
        (sp.Eq(V1[i], 0, evaluate=False),),
        "the algorithm starts from w_1 = 0",
    ),
    Fact(
        "DEF_GAMMA",
        "definition",
        (rel(gamma * nu, "==", g),),
        "the unit margin γ = g/‖u‖ (the margin of u/‖u‖)",
    ),
    Fact(
        "DEF_NORM",
        "definition",
        (rel(nu**2, "==", uu), rel(nu, ">=", 0)),
        "‖u‖ is the non-negative square root of ‖u‖²",
    ),
    Fact(
        "DEF_N", "definition", (rel(N, "==", n1),), "Kalyanakrishnan's note writes N for ‖w_{k+1}‖²"
    ),
    Fact("DEF_R", "definition", (rel(R**2, "==", R2),), "R is the radius, R² = max_i ‖x_i‖²"),
    Fact(
        "DEF_COS",
        "definition",
        (rel(cos2 * uu * n1, "==", pu1**2),),
        "cos²∠(w_{k+1}, u) = (u·w_{k+1})²/(‖u‖² ‖w_{k+1}‖²)",
    ),
    Fact(
        "DEF_RHAT",
        "definition",
        (rel(a_j, "==", R2), rel(sp.Symbol("R2h"), "==", a_j + c**2)),
        "R² is attained at a farthest point j; the augmented radius is attained there too",
        nodes=frozenset({"BIAS"}),
    ),
    Fact(
        "DEF_UHAT",
        "definition",
        (rel(sp.Symbol("uuh") * c**2, "==", uu * c**2 + theta**2),),
        "the augmented comparator û = (u, θ/c): ‖û‖² c² = ‖u‖² c² + θ²",
        nodes=frozenset({"BIAS"}),
    ),
    Fact(
        "DEF_AUG",
        "definition",
        (
            sp.Eq(sp.IndexedBase("xh")[i], X[i], evaluate=False),
            sp.Eq(sp.IndexedBase("wh")[i], W[i], evaluate=False),
            sp.Eq(sp.IndexedBase("xh")[d + 1], c, evaluate=False),
            sp.Eq(sp.IndexedBase("wh")[d + 1], sp.Symbol("b") / c, evaluate=False),
        ),
        "the augmented vectors x̂ = (x, c), ŵ = (w, b/c) (coordinates i ≤ d, then d + 1)",
        nodes=frozenset({"BIAS"}),
    ),
    Fact(
        "DEF_BIAS3",
        "definition",
        BIAS_UPDATES,
        "the three bias updates: a ← a + y, b_s ← b_s + y, b_m ← b_m − y",
        nodes=frozenset({"BIAS3"}),
    ),
    Fact(
        "DEF_BIAS3_START",
        "definition",
        BIAS_START,
        "the three biases start at 0",
        when=_FIRST,
        nodes=frozenset({"BIAS3"}),
    ),
    Fact(
        "DEF_DUAL_START",
        "definition",
        DUAL_START,
        "the dual form starts from w_1 = 0: no point has been updated on, every α_p = 0",
        nodes=frozenset({"DUAL"}),
    ),
    # domain facts
    Fact("DOM.k", "domain", (rel(k, ">=", 1),), "updates are counted from k = 1"),
    Fact(
        "DOM.point",
        "domain",
        DUAL_POINT,
        "the point j updated on is one of the n data points",
        nodes=frozenset({"DUAL"}),
    ),
    Fact(
        "DOM.sign", "domain", (sp.Or(rel(y, "==", 1), rel(y, "==", -1)),), "labels are y ∈ {−1, +1}"
    ),
    Fact(
        "DOM.R2",
        "domain",
        (rel(R2, ">", 0),),
        "the data have a nonzero point (under A1 with g > 0 every x_i ≠ 0)",
    ),
    Fact(
        "DOM.base",
        "domain",
        (_FIRST, rel(d, "==", 1), rel(n, "==", 1)),
        "induction: the base case (first update, dimension 1, one term)",
    ),
    Fact(
        "DOM.step",
        "domain",
        (rel(k, ">=", 2), rel(d, ">=", 2), rel(n, ">=", 2)),
        "induction: the step case (every later index)",
    ),
)

_PER_UPDATE = frozenset({t, yux, xx, pu, n0, pu1, n1, a0, bs0, bm0, a1, bs1, bm1})

#: Every way a conclusion may be read in another obligation, with its links.
RENAMINGS: tuple[Renaming, ...] = (
    Renaming("same", {}, (), frozenset(), "as stated"),
    Renaming(
        "previous update",
        {k: k - 1, pu1: pu, n1: n0, a1: a0, bs1: bs0, bm1: bm0},
        ("LINK.pu", "LINK.n0"),
        _PER_UPDATE,
        "update k − 1's statement read at update k: k → k − 1, u·w_{k+1} → u·w_k, "
        "‖w_{k+1}‖² → ‖w_k‖² (the biases likewise)",
    ),
    Renaming(
        "previous dimension",
        {d: d - 1, aa: aam, bb: bbm, ab: abm},
        ("L4.link",),
        frozenset({aa, bb, ab, aam, bbm, abm, lag}),
        "dimension d − 1: the sums to d read at d − 1",
    ),
    Renaming(
        "previous length",
        {n: n - 1, q: qm},
        ("L4.sos.link",),
        frozenset({q, qm}),
        "n − 1 terms: the sum to n read at n − 1",
    ),
    Renaming(
        "Lagrange's sum",
        {q: lag},
        ("L4.sos.inst",),
        frozenset({q, qm}),
        "the sum of squares with n = d − 1, s_i = a_i b_d − a_d b_i",
    ),
    Renaming(
        "Cauchy-Schwarz at (u, w_{k+1})",
        {aa: uu, bb: n1, ab: pu1},
        ("L4",),
        frozenset({aa, bb, ab}),
        "a = u, b = w_{k+1}",
    ),
    Renaming(
        "Cauchy-Schwarz at (u, w_1)",
        {aa: uu, bb: ns, ab: ps},
        ("L4.start",),
        frozenset({aa, bb, ab}),
        "a = u, b = w_1",
    ),
    Renaming(
        "classic instance",
        {C: R2, ps: 0, ns: 0},
        ("G.classic", "START.ps", "START.ns"),
        frozenset(),
        "the generic lemma with C = R², from w_1 = 0",
    ),
    Renaming(
        "augmented data",
        {R2: sp.Symbol("R2h"), uu: sp.Symbol("uuh")},
        ("BIAS.inner", "BIAS.norm", "BIAS.radius"),
        frozenset(),
        "the theorem on the augmented data (x, c) with û = (u, θ/c)",
    ),
)


# --- canonical forms ---------------------------------------------------------------------


@lru_cache(maxsize=4096)
def canon(expr: Any) -> str:
    """A key equal for two relations that say the same thing in another arrangement
    (sides moved, ``>=`` read as ``<=``, conjunctions reordered).

    >>> canon(rel(pu1 - pu, ">=", g)) == canon(rel(pu + g, "<=", pu1))
    True
    >>> canon(rel(pu1, ">=", g)) == canon(rel(pu1, ">", g))
    False
    """
    if isinstance(expr, Relational):
        if expr.has(sp.Sum):  # vector identities: compared as written, not expanded
            return f"{expr.rel_op}:{sp.sstr(expr.lhs)}:{sp.sstr(expr.rhs)}"
        diff = sp.expand(expr.lhs - expr.rhs)
        op = expr.rel_op
        if op in (">=", ">"):
            diff, op = -diff, "<=" if op == ">=" else "<"
            diff = sp.expand(diff)
        if op in ("==", "!="):
            return f"{op}:{min(sp.sstr(diff), sp.sstr(sp.expand(-diff)))}"
        return f"{op}:{sp.sstr(diff)}"
    if isinstance(expr, (sp.And, sp.Or, sp.Equivalent)):
        inner = sorted(canon(a) for a in expr.args)
        return f"{type(expr).__name__}({'; '.join(inner)})"
    if isinstance(expr, sp.Not):
        return f"Not({canon(expr.args[0])})"
    if isinstance(expr, sp.Implies):
        return f"Implies({canon(expr.args[0])}; {canon(expr.args[1])})"
    return str(sp.sstr(expr))


def _conjuncts(expr: Any) -> list[Any]:
    if isinstance(expr, sp.And):
        return [p for a in expr.args for p in _conjuncts(a)]
    return [expr]


def _rename(expr: Any, mapping: Mapping[Any, Any]) -> Any:
    """``expr`` with ``mapping`` applied, relations left unevaluated."""
    if not mapping:
        return expr
    if isinstance(expr, Relational):
        subs = dict(mapping)
        return sp.Rel(expr.lhs.xreplace(subs), expr.rhs.xreplace(subs), expr.rel_op,
                      evaluate=False)  # fmt: skip
    if isinstance(expr, (sp.And, sp.Or, sp.Not, sp.Equivalent, sp.Implies)):
        return type(expr)(*(_rename(a, mapping) for a in expr.args), evaluate=False)
    return expr.xreplace(dict(mapping))


# --- the check ----------------------------------------------------------------------------


@dataclass
class Chain:
    """Every hypothesis's source, per obligation, and what is left open."""

    sources: dict[str, list[Source]]
    established: set[str]
    problems: list[str] = field(default_factory=list)

    @property
    def undischarged(self) -> list[str]:
        """``"obligation: hypothesis"`` for every hypothesis with no source."""
        return [
            f"{oid}: {notation.text(s.hypothesis)}"
            for oid, srcs in self.sources.items()
            for s in srcs
            if s.kind == "undischarged"
        ]

    @property
    def ok(self) -> bool:
        return not self.undischarged and not self.problems

    def summary(self) -> str:
        counts: dict[str, int] = {}
        for srcs in self.sources.values():
            for s in srcs:
                counts[s.kind] = counts.get(s.kind, 0) + 1
        shown = ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))
        total = sum(counts.values())
        if self.ok:
            return f"chain: all {total} hypotheses discharged ({shown})"
        return f"chain: {len(self.undischarged)} of {total} hypotheses NOT discharged" + (
            f", {len(self.problems)} problem(s)" if self.problems else ""
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "undischarged": self.undischarged,
            "problems": list(self.problems),
            "facts": [
                {
                    "id": f.id,
                    "kind": f.kind,
                    "statements": [notation.text(r) for r in f.relations],
                    "source": f.source,
                    "when": notation.text(f.when) if f.when is not None else None,
                }
                for f in FACTS
            ],
            "renamings": [
                {"id": r.id, "links": list(r.links), "meaning": r.text} for r in RENAMINGS
            ],
            "summary": self.summary(),
        }


def _fact_index(facts: Sequence[Fact]) -> dict[str, list[Fact]]:
    out: dict[str, list[Fact]] = {}
    for f in facts:
        for r in f.relations:
            out.setdefault(canon(r), []).append(f)
    return out


def _allowed_when(required: Any, ob: Obligation) -> bool:
    """A fact valid only ``when`` may be used by obligations that take it too."""
    if required is None:
        return True
    key = canon(required)
    return (ob.when is not None and canon(ob.when) == key) or any(
        canon(h) == key for h in ob.hypotheses
    )


def check_chain(
    obligations: Iterable[Obligation],
    proved: Iterable[str] | None = None,
    *,
    facts: Sequence[Fact] = FACTS,
    renamings: Sequence[Renaming] = RENAMINGS,
) -> Chain:
    """Classify every hypothesis of every obligation (``proved``: the ids proved; default
    all).  An obligation that is not established has at least one undischarged
    hypothesis -- or an unproved link or base case, reported in ``problems``."""
    obs = list(obligations)
    by_id = {ob.id: ob for ob in obs}
    proved_ids = set(by_id) if proved is None else set(proved)
    sources_of = _Sources(
        _fact_index(facts),
        _readings(obs, renamings),
        _induction_groups(obs),
        {r.id: r for r in renamings},
    )
    established = _establish(obs, proved_ids, sources_of)
    sources = {
        ob.id: [sources_of.classify(ob, h, established) for h in ob.hypotheses] for ob in obs
    }
    problems = [
        *_induction_problems(sources_of.groups, sources),
        *_missing_links(renamings, by_id),
        *_unestablished(obs, proved_ids, established, sources),
    ]
    return Chain(sources, established, problems)


def _induction_groups(obs: Sequence[Obligation]) -> dict[str, dict[str, list[Obligation]]]:
    """The halves of each induction: group -> ``"base"``/``"step"`` -> its obligations."""
    groups: dict[str, dict[str, list[Obligation]]] = {}
    for ob in obs:
        if ob.induction is not None:
            groups.setdefault(ob.induction[0], {}).setdefault(ob.induction[1], []).append(ob)
    return groups


def _readings(
    obs: Sequence[Obligation], renamings: Sequence[Renaming]
) -> dict[str, list[tuple[Obligation, Renaming]]]:
    """Every conclusion under every renaming whose state it respects:
    key -> ``(source, renaming)``."""
    readings: dict[str, list[tuple[Obligation, Renaming]]] = {}
    for ob in obs:
        if ob.conclusion is None:
            continue
        for part in _conjuncts(ob.conclusion):
            names = part.free_symbols
            for r in renamings:
                if names & r.state - set(r.mapping):
                    continue  # a per-state quantity would be carried over unrenamed
                if r.mapping and not names & set(r.mapping):
                    continue
                readings.setdefault(canon(_rename(part, r.mapping)), []).append((ob, r))
    return readings


@dataclass(frozen=True)
class _Sources:
    """Where a hypothesis can come from: the facts, the conclusions as read through the
    renamings, and the inductions (an induction hypothesis is its own conclusion)."""

    fact_of: dict[str, list[Fact]]
    readings: dict[str, list[tuple[Obligation, Renaming]]]
    groups: dict[str, dict[str, list[Obligation]]]
    renaming_of: dict[str, Renaming]

    def group_ok(self, name: str, established: set[str], *, whole: bool = True) -> bool:
        """Base and step present; the base established (and the step too, ``whole``)."""
        parts = self.groups.get(name, {})
        base, step = parts.get("base", []), parts.get("step", [])
        done = base + step if whole else base
        return bool(base and step) and all(b.id in established for b in done)

    def classify(self, ob: Obligation, hyp: Any, established: set[str]) -> Source:
        """The source of one hypothesis of ``ob``, given the obligations established."""
        key = canon(hyp)
        return (
            self._fact(ob, hyp, key)
            or self._conclusion(ob, hyp, key, established)
            or self._induction_hypothesis(ob, hyp, key, established)
            or Source(hyp, "undischarged")
        )

    def _fact(self, ob: Obligation, hyp: Any, key: str) -> Source | None:
        for fact in self.fact_of.get(key, ()):
            if _allowed_when(fact.when, ob) and (fact.nodes is None or ob.node in fact.nodes):
                return Source(hyp, fact.kind, fact.id)
        return None

    def _conclusion(
        self, ob: Obligation, hyp: Any, key: str, established: set[str]
    ) -> Source | None:
        for src, r in self.readings.get(key, []):
            if src.id == ob.id or src.id not in established:
                continue
            if not all(link in established for link in r.links):
                continue
            if not _allowed_when(src.when, ob):
                continue
            if src.induction is not None and not self.group_ok(src.induction[0], established):
                continue
            return Source(hyp, "conclusion", _node_name(src), r.id)
        return None

    def _induction_hypothesis(
        self, ob: Obligation, hyp: Any, key: str, established: set[str]
    ) -> Source | None:
        """A step's own conclusion at the previous index, once its base is established."""
        if ob.induction is None or ob.induction[1] != "step" or ob.conclusion is None:
            return None
        name, renaming_id = ob.induction[0], ob.induction[2]
        ih = self.renaming_of.get(renaming_id)
        if (
            ih is not None
            and canon(_rename(ob.conclusion, ih.mapping)) == key
            and self.group_ok(name, established, whole=False)
            and all(x in established for x in ih.links)
        ):
            return Source(hyp, "conclusion", name, ih.id)
        return None


def _establish(obs: Sequence[Obligation], proved_ids: set[str], sources_of: _Sources) -> set[str]:
    """The obligations established: proved, every hypothesis with a source (to a fixpoint)."""
    established: set[str] = set()
    changed = True
    while changed:
        changed = False
        for ob in obs:
            if ob.id in established or ob.id not in proved_ids:
                continue
            if all(
                sources_of.classify(ob, h, established).kind != "undischarged"
                for h in ob.hypotheses
            ):
                established.add(ob.id)
                changed = True
    return established


def _induction_problems(
    groups: Mapping[str, Mapping[str, list[Obligation]]], sources: Mapping[str, list[Source]]
) -> list[str]:
    """An induction without a base case or a step, or a half that does not fix its index."""
    problems = []
    for name, parts in groups.items():
        if not parts.get("base"):
            problems.append(f"induction {name} has no base case")
        if not parts.get("step"):
            problems.append(f"induction {name} has no step")
        for role, index_fact in (("base", "DOM.base"), ("step", "DOM.step")):
            for ob in parts.get(role, []):
                if not any(s.source == index_fact for s in sources[ob.id]):
                    problems.append(f"{ob.id}: the {role} case does not fix its index")
    return problems


def _missing_links(renamings: Sequence[Renaming], by_id: Mapping[str, Obligation]) -> list[str]:
    """A renaming whose link obligation is missing."""
    return [
        f"renaming '{r.id}' needs link {link}, which is missing"
        for r in renamings
        for link in r.links
        if link not in by_id
    ]


def _unestablished(
    obs: Sequence[Obligation],
    proved_ids: set[str],
    established: set[str],
    sources: Mapping[str, list[Source]],
) -> list[str]:
    """A proved obligation, every hypothesis sourced, that is still not established."""
    return [
        f"{ob.id}: a source it relies on is not established"
        for ob in obs
        if ob.id in proved_ids
        and ob.id not in established
        and not any(s.kind == "undischarged" for s in sources[ob.id])
    ]


def _node_name(ob: Obligation) -> str:
    """An induction's halves are cited as the induction (``L3``), others by id."""
    return ob.induction[0] if ob.induction is not None else ob.id
