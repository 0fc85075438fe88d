"""The proof obligations: what SymPy and Z3 must discharge, built from the statements.

Every obligation of a run-time lemma is *generated from that lemma's own
statement* (:meth:`~pla_proof.proof.statements.Lemma.statement`, its
``hypotheses`` and its ``induction``), so the monitor and the checkers read the
same objects: change a statement and both what a run checks and what the
prover must show change with it.

* identities (L1, L5, the corollaries' algebra): SymPy, in general dimension ``d``
  (symbolic, indexed sums) and again expanded for ``d = 1..4``;
* implications (L2, L6, the induction steps, T, the corollaries' inequalities):
  Z3, by unsatisfiability of the negation, with every positivity hypothesis listed;
* induction (L3, L7, and P, Q of the generic lemma): a base-case and a step
  obligation each;
* Cauchy-Schwarz (L4): proved for every ``d`` by induction on ``d`` -- base ``d = 1``,
  step by Lagrange's identity for the last coordinate (SymPy, symbolic ``d``) and Z3 --
  then instantiated at ``(u, w_{k+1})`` and ``(u, w_1)``; no statement is trusted;
* the start and the state link (``START.*``, ``LINK.*``): ``w_1 = 0`` gives the base
  cases' values, and what update ``k - 1`` calls ``u.w_{k+1}`` is update ``k``'s ``u.w_k``.

Every obligation carries its ``hypotheses`` and ``conclusion`` as relations, so
:mod:`.chain` can check where each hypothesis comes from and :mod:`.coq` can export it.

>>> obs = {ob.id: ob for ob in all_obligations()}
>>> obs["L3.step"].statement
'k ≥ 2, u·w_k ≥ (k − 1)·g, u·w_{k+1} − u·w_k ≥ g  ⇒  u·w_{k+1} ≥ k·g'
>>> obs["L3.step"].check().status
'proved'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import sympy as sp
from sympy.printing.str import StrPrinter

from . import notation
from .identities import (
    Verdict,
    check_identity,
    check_instances,
    lagrange_sos,
    peel_last,
    unroll,
)
from .implications import DEFAULT_TIMEOUT_MS, check_implication
from .statements import (
    GENERIC,
    GENERIC_LEMMAS,
    LEMMAS,
    R2,
    C,
    Induction,
    Lemma,
    U,
    W,
    X,
    d,
    g,
    i,
    k,
    lemma,
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
    vector_forms,
    vector_substitution,
    vsum,
    xx,
    y,
    yux,
)

__all__ = [
    "SMALL_DIMS",
    "TRUSTED_AXIOMS",
    "Obligation",
    "TrustedAxiom",
    "all_obligations",
    "generic_instance",
    "identity",
    "implication",
    "induction_obligations",
    "lemma_obligations",
    "text",
    "with_instances",
]

#: The concrete dimensions every general-d identity is re-checked in.
SMALL_DIMS = (1, 2, 3, 4)

Check = Callable[..., Verdict]


@dataclass(frozen=True)
class Obligation:
    """One checkable claim of the blueprint.

    ``node`` is the blueprint node (lemma, theorem, corollary) it establishes;
    ``checker`` is ``sympy`` or ``z3``; ``scope`` says what the check covers
    (``general d``, ``d = 1..4``, ``reals``); ``check(timeout_ms=...)`` runs it.
    """

    id: str
    node: str
    statement: str
    depends_on: tuple[str, ...]
    checker: str
    scope: str
    check: Check
    #: the relations taken (each one must be classified by :mod:`.chain`) ...
    hypotheses: tuple[Any, ...] = ()
    #: ... and what is established (a relation; a conjunction gives each conjunct)
    conclusion: Any = None
    #: a fact about the start: it discharges only hypotheses of obligations that also
    #: take this hypothesis (``k = 1``: the first update)
    when: Any = None
    #: ``(group, "base" | "step")`` for the two halves of an induction
    #: ``(group, "base" | "step", renaming)`` for the two halves of an induction; the
    #: renaming (of :mod:`.chain`) reads the group's statement at the previous index
    induction: tuple[str, str, str] | None = None
    #: what the Coq export needs (vector identities: ``lhs``, ``rhs``, ``signs``, ...)
    data: Any = None

    @property
    def checker_label(self) -> str:
        return f"{self.checker} ({self.scope})"


@dataclass(frozen=True)
class TrustedAxiom:
    """A statement used without proof, with the obligations that back it."""

    id: str
    statement: str
    scope: str
    backed_by: tuple[str, ...]
    reason: str


class _Printer(StrPrinter):  # type: ignore[misc]
    def _print_Sum(self, expr: sp.Sum) -> str:
        (idx, lo, hi) = expr.limits[0]
        return f"sum_{{{idx}={self._print(lo)}..{self._print(hi)}}} ({self._print(expr.function)})"

    def _print_Equality(self, expr: Any) -> str:
        return f"{self._print(expr.lhs)} = {self._print(expr.rhs)}"

    def _print_Equivalent(self, expr: Any) -> str:
        return " <=> ".join(f"({self._print(a)})" for a in expr.args)

    def _print_Not(self, expr: Any) -> str:
        return f"not ({self._print(expr.args[0])})"


def text(expr: Any) -> str:
    """A one-line rendering in the proof's notation (:mod:`.notation`).

    >>> text(vsum(W[i] * X[i]))
    'Σ_{i=1..d} w_i·x_i'
    """
    return notation.text(expr)


def sympy_text(expr: Any) -> str:
    """SymPy's own rendering (sums as ``sum_{i=1..d} (...)``), for debugging.

    >>> sympy_text(vsum(W[i] * X[i]))
    'sum_{i=1..d} (w[i]*x[i])'
    """
    return str(_Printer().doprint(expr))


def _implies_text(hyps: Sequence[Any], concl: Any) -> str:
    left = ", ".join(text(h) for h in hyps) if hyps else "true"
    return f"{left}  ⇒  {text(concl)}"


# --- builders ----------------------------------------------------------------------------


def implication(
    oid: str,
    node: str,
    hypotheses: Sequence[Any],
    conclusion: Any,
    depends_on: Sequence[str] = (),
    *,
    statement: str | None = None,
    **extra: Any,
) -> Obligation:
    """A Z3 obligation ``hypotheses => conclusion`` over the reals (``extra``: further
    :class:`Obligation` fields such as ``when`` or ``induction``)."""
    hyps = tuple(hypotheses)

    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        return check_implication(hyps, conclusion, timeout_ms=timeout_ms)

    shown = statement if statement is not None else _implies_text(hyps, conclusion)
    return Obligation(
        oid, node, shown, tuple(depends_on), "z3", "reals", check, hyps, conclusion, **extra
    )


def identity(
    oid: str,
    node: str,
    lhs: Any,
    rhs: Any,
    depends_on: Sequence[str] = (),
    *,
    signs: Sequence[str] = (),
    sift: bool = False,
    given: str = "",
    scope: str = "general d",
    dims: Mapping[sp.Symbol, Sequence[int]] | None = None,
    hypotheses: Sequence[Any] = (),
) -> Obligation:
    """A SymPy obligation ``lhs == rhs`` proved by linearity rewriting (symbolic size).

    ``signs`` adds the hypothesis ``y^2 = 1`` (the rewriting then reduces powers of y)."""

    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        return check_identity(lhs, rhs, signs=signs, sift=sift, dims=dims)

    shown = f"{text(lhs)} = {text(rhs)}" + (f"  [{given}]" if given else "")
    hyps = (*hypotheses, *((rel(y**2, "==", 1),) if signs else ()))
    concl = sp.Eq(lhs, rhs, evaluate=False)
    data = {"lhs": lhs, "rhs": rhs, "signs": tuple(signs), "sift": sift}
    return Obligation(
        oid, node, shown, tuple(depends_on), "sympy", scope, check, hyps, concl, data=data
    )


def defined(
    oid: str,
    node: str,
    conclusion: Any,
    definitions: Mapping[sp.Symbol, Any],
    depends_on: Sequence[str] = (),
    *,
    signs: Sequence[str] = (),
    given: str = "",
    rewrite: Callable[[sp.Expr], sp.Expr] | None = None,
    dims: Mapping[sp.Symbol, Sequence[int]] | None = None,
    extra_hypotheses: Sequence[Any] = (),
) -> Obligation:
    """A SymPy obligation: the run-vocabulary identity ``conclusion`` holds once every
    symbol is replaced by its definition (a sum over coordinates, symbolic ``d``).

    The definitions are the obligation's hypotheses (``sym = its vector form``), so the
    chain check sees them; ``rewrite`` is applied to the difference before the linearity
    rewriting (e.g. peeling the last coordinate off a sum up to ``d``)."""
    used = sorted(
        (sym for sym in definitions if sym in conclusion.free_symbols), key=lambda e: str(e)
    )
    hyps = [sp.Eq(sym, definitions[sym], evaluate=False) for sym in used]
    hyps += list(extra_hypotheses)
    if signs:
        hyps.append(rel(y**2, "==", 1))
    lhs = conclusion.lhs.xreplace(dict(definitions))
    rhs = conclusion.rhs.xreplace(dict(definitions))

    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        diff = lhs - rhs
        if rewrite is not None:
            diff = rewrite(diff)
        return check_identity(diff, sp.S.Zero, signs=signs, dims=dims)

    shown = _implies_text(hyps, conclusion) + (f"  [{given}]" if given else "")
    data = {"lhs": lhs, "rhs": rhs, "signs": tuple(signs), "defined": True}
    return Obligation(
        oid, node, shown, tuple(depends_on), "sympy", "general d", check, tuple(hyps),
        conclusion, data=data,
    )  # fmt: skip


def instances(
    oid: str,
    node: str,
    lhs: Any,
    rhs: Any,
    depends_on: Sequence[str] = (),
    *,
    dim: sp.Symbol = d,
    sizes: Sequence[int] = SMALL_DIMS,
    signs: Sequence[str] = (),
    extra: Mapping[int, Sequence[Mapping[Any, Any]]] | None = None,
    what: str = "",
    more: Sequence[tuple[Any, Any]] = (),
    hypotheses: Sequence[Any] = (),
) -> Obligation:
    """A SymPy obligation ``lhs == rhs`` (and each pair of ``more``) for each concrete size,
    sums expanded; ``extra[size]`` substitutions are applied after the expansion, the
    equations among ``hypotheses`` (``symbol = value``) before it."""
    pairs = ((lhs, rhs), *more)
    given = _given(hypotheses)

    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        for left, right in pairs:
            verdict = check_instances(
                left.xreplace(given), right.xreplace(given), dim, sizes, signs=signs, extra=extra
            )
            if not verdict.proved:
                return verdict
        return verdict

    scope = f"{dim} = {sizes[0]}..{sizes[-1]}"
    shown = what or f"{text(lhs)} = {text(rhs)}"
    hyps = (*hypotheses, *((rel(y**2, "==", 1),) if signs else ()))
    data = {"instances": pairs, "signs": tuple(signs), "dim": dim, "sizes": tuple(sizes),
            "extra": extra}  # fmt: skip
    return Obligation(
        oid, node, shown, tuple(depends_on), "sympy", scope, check, hyps, _equations(pairs),
        data=data,
    )  # fmt: skip


def _given(hypotheses: Sequence[Any]) -> dict[Any, Any]:
    """The equations ``name = value`` among ``hypotheses``, as a substitution."""
    return {
        h.lhs: h.rhs
        for h in hypotheses
        if isinstance(h, sp.Equality) and isinstance(h.lhs, (sp.Symbol, sp.Indexed))
    }


def _equations(pairs: Sequence[tuple[Any, Any]]) -> Any:
    """``lhs = rhs`` for each pair (a conjunction when there are several)."""
    eqs = [sp.Eq(a_, b_, evaluate=False) for a_, b_ in pairs]
    return eqs[0] if len(eqs) == 1 else sp.And(*eqs, evaluate=False)


def with_instances(
    general: Obligation, lhs: Any, rhs: Any, *, signs: Sequence[str] = ()
) -> list[Obligation]:
    """A general-d identity and its cross-check with the sums written out for d = 1..4."""
    small = instances(
        f"{general.id}.d<=4",
        general.node,
        lhs,
        rhs,
        (general.id,),
        signs=signs,
        what=f"{general.id} with the sums written out for each d",
    )
    return [general, small]


def _all_of(*checks: Check) -> Check:
    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        for c in checks:
            v = c(timeout_ms=timeout_ms)
            if not v.proved:
                return v
        return Verdict("proved", "every part proved")

    return check


# --- the run-time lemmas -----------------------------------------------------------------


#: identities that use y in {-1, +1} (y^2 = 1)
_SIGNS: dict[str, tuple[str, ...]] = {"L5": ("y",)}


def _identity_obligations(lem: Lemma) -> list[Obligation]:
    statement = lem.statement(strict=False)
    signs = _SIGNS.get(lem.id, ())
    deps = (*lem.depends_on, *(("L5.sign",) if signs else ()))
    general = vector_substitution()
    out = [defined(lem.id, lem.id, statement, general, deps, signs=signs)]
    out.append(
        instances(
            f"{lem.id}.d<=4",
            lem.id,
            statement.lhs.xreplace(general),
            statement.rhs.xreplace(general),
            (lem.id,),
            signs=signs,
            what=f"vector form of {text(statement)}, sums expanded for each d",
        )
    )
    return out


# --- Cauchy-Schwarz in general d: induction on d through Lagrange's step ------------------

#: the vectors of the general lemma and their scalars: in dimension d (aa, bb, ab) and
#: d - 1 (aam, bbm, abm); lag is Lagrange's sum for the last coordinate
VA, VB, VS = sp.IndexedBase("a"), sp.IndexedBase("b"), sp.IndexedBase("s")
aa, bb, ab, aam, bbm, abm, lag = sp.symbols("aa bb ab aam bbm abm lag", real=True)
q, qm = sp.symbols("q qm", real=True)  # sum of squares s_1^2 + ... + s_n^2 (and to n - 1)
n = sp.Symbol("n", integer=True, positive=True)
_e = sp.Symbol("e", integer=True, positive=True)  # e = d - 1 inside the Lagrange step

CS_FORMS: dict[sp.Symbol, sp.Expr] = {
    aa: vsum(VA[i] ** 2),
    bb: vsum(VB[i] ** 2),
    ab: vsum(VA[i] * VB[i]),
    aam: vsum(VA[i] ** 2, d - 1),
    bbm: vsum(VB[i] ** 2, d - 1),
    abm: vsum(VA[i] * VB[i], d - 1),
    lag: vsum((VA[i] * VB[d] - VA[d] * VB[i]) ** 2, d - 1),
}
SOS_FORMS: dict[sp.Symbol, sp.Expr] = {
    q: sp.Sum(VS[i] ** 2, (i, 1, n)),
    qm: sp.Sum(VS[i] ** 2, (i, 1, n - 1)),
}
#: Cauchy-Schwarz for any a, b in R^d, homogeneous and squared
CS_STATEMENT = rel(ab**2, "<=", aa * bb)
#: the start w_1 as a vector (for the instance of Cauchy-Schwarz at the start)
V1 = sp.IndexedBase("v")
START_FORMS: dict[sp.Symbol, sp.Expr] = {ps: vsum(U[i] * V1[i]), ns: vsum(V1[i] ** 2)}


def _peel_d(expr: sp.Expr) -> sp.Expr:
    """Write d = e + 1 and peel coordinate e + 1 off every sum up to d."""
    return peel_last(expr.xreplace({d: _e + 1}))


def _same_sums(lhs: sp.Expr, rhs: sp.Expr) -> Check:
    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        return check_identity(lhs, rhs)

    return check


def equations(
    oid: str,
    node: str,
    pairs: Sequence[tuple[Any, Any]],
    what: str,
    deps: Sequence[str],
    *,
    hypotheses: Sequence[Any] = (),
    scope: str = "general d",
    sift: bool = False,
    dims: Mapping[sp.Symbol, Sequence[int]] | None = None,
) -> Obligation:
    """A SymPy obligation: under ``hypotheses`` (its equations ``name = value`` are
    substituted) each ``(lhs, rhs)`` pair is one identity."""
    given = _given(hypotheses)

    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        for lhs, rhs in pairs:
            verdict = check_identity(lhs.xreplace(given), rhs.xreplace(given), sift=sift, dims=dims)
            if not verdict.proved:
                return verdict
        return Verdict("proved", "every pair rewrites to the same sums")

    shown = f"{what}: " + " and ".join(f"{text(a_)} = {text(b_)}" for a_, b_ in pairs)
    if hypotheses:
        shown = f"{', '.join(text(h) for h in hypotheses)}  ⇒  {shown}"
    return Obligation(
        oid, node, shown, tuple(deps), "sympy", scope, check, tuple(hypotheses),
        _equations(pairs), data={"pairs": tuple(pairs)},
    )  # fmt: skip


def _link(oid: str, node: str, pairs: Sequence[tuple[Any, Any]], what: str, deps: Sequence[str]
          ) -> Obligation:  # fmt: skip
    """A renaming's link: each ``(lhs, rhs)`` pair is one identity, no hypothesis."""
    return equations(oid, node, pairs, what, deps)


#: the two inductions of L4: on the dimension d, and on the length n of a sum of squares
_CS_GROUP = ("L4.cs", "previous dimension")
_SOS_GROUP = ("L4.sos", "previous length")


def _cauchy_schwarz_obligations(lem: Lemma) -> list[Obligation]:
    """L4 for every d: (a.b)^2 <= |a|^2 |b|^2 by induction on d (base d = 1; the step is
    Lagrange's identity for the last coordinate, a sum of squares >= 0), then its
    instances at (u, w_{k+1}) -- the run-time L4 -- and at (u, w_1)."""
    statement = lem.statement(strict=False)
    return [
        _cs_base(),
        _cs_lagrange(),
        *_sum_of_squares(),
        *_cs_step(),
        *_cs_instances(statement),
        *_cs_written_out(lem, statement),
    ]


def _cs_base() -> Obligation:
    """Cauchy-Schwarz in dimension 1."""
    at_one = {sym: unroll(form.xreplace({d: 1})) for sym, form in CS_FORMS.items()}
    return implication(
        "L4.base",
        "L4",
        [rel(d, "==", 1), *(sp.Eq(sym, at_one[sym], evaluate=False) for sym in (aa, bb, ab))],
        CS_STATEMENT,
        ("DEF_ALG",),
        induction=(_CS_GROUP[0], "base", _CS_GROUP[1]),
    )


def _cs_lagrange() -> Obligation:
    """Lagrange's identity for the last coordinate: the gap in dimension d is the gap in
    dimension d - 1 plus Lagrange's sum."""
    return defined(
        "L4.lagrange",
        "L4",
        rel(aa * bb - ab**2, "==", aam * bbm - abm**2 + lag),
        CS_FORMS,
        ("DEF_ALG",),
        given="Lagrange: the last coordinate (alpha, beta) = (a_d, b_d) adds "
        "sum_{i<d} (a_i beta - alpha b_i)^2",
        rewrite=_peel_d,
        dims={_e: (1, 2, 3)},
        extra_hypotheses=[rel(d, ">=", 2)],
    )


def _sum_of_squares() -> list[Obligation]:
    """A sum of squares is >= 0, by induction on its length n, and Lagrange's sum is one."""
    sos_at_one = unroll(SOS_FORMS[q].xreplace({n: 1}))
    return [
        implication(
            "L4.sos.base",
            "L4",
            [rel(n, "==", 1), sp.Eq(q, sos_at_one, evaluate=False)],
            rel(q, ">=", 0),
            (),
            induction=(_SOS_GROUP[0], "base", _SOS_GROUP[1]),
        ),
        defined(
            "L4.sos.peel",
            "L4",
            rel(q, "==", qm + VS[n] ** 2),
            SOS_FORMS,
            (),
            rewrite=lambda e: peel_last(e.xreplace({n: _e + 1})).xreplace({_e: n - 1}),
            dims={n: (1, 2, 3)},
            extra_hypotheses=[rel(n, ">=", 2)],
        ),
        implication(
            "L4.sos.step",
            "L4",
            [rel(n, ">=", 2), rel(qm, ">=", 0), rel(q, "==", qm + VS[n] ** 2)],
            rel(q, ">=", 0),
            ("L4.sos.peel",),
            induction=(_SOS_GROUP[0], "step", _SOS_GROUP[1]),
        ),
        _link(
            "L4.sos.link",
            "L4",
            [(SOS_FORMS[qm], SOS_FORMS[q].xreplace({n: n - 1}))],
            "the sum to n - 1 is the sum to n read at n - 1",
            (),
        ),
        _link(
            "L4.sos.inst",
            "L4",
            [
                (
                    CS_FORMS[lag],
                    SOS_FORMS[q]
                    .xreplace({n: d - 1})
                    .xreplace({VS[i]: VA[i] * VB[d] - VA[d] * VB[i]}),
                )
            ],
            "Lagrange's sum is a sum of squares (n = d - 1, s_i = a_i b_d - a_d b_i)",
            (),
        ),
    ]


def _cs_step() -> list[Obligation]:
    """From dimension d - 1 to d, and how the sums to d - 1 are the sums to d read there."""
    return [
        implication(
            "L4.step",
            "L4",
            [
                rel(d, ">=", 2),
                rel(abm**2, "<=", aam * bbm),
                rel(lag, ">=", 0),
                rel(aa * bb - ab**2, "==", aam * bbm - abm**2 + lag),
            ],
            CS_STATEMENT,
            ("L4.lagrange", "L4.sos.step"),
            induction=(_CS_GROUP[0], "step", _CS_GROUP[1]),
        ),
        _link(
            "L4.link",
            "L4",
            [
                (CS_FORMS[m_], CS_FORMS[p_].xreplace({d: d - 1}))
                for m_, p_ in ((aam, aa), (bbm, bb), (abm, ab))
            ],
            "the sums to d - 1 are the sums to d read at d - 1",
            (),
        ),
    ]


def _cs_instances(statement: sp.Basic) -> list[Obligation]:
    """Cauchy-Schwarz at (u, w_{k+1}) -- the run-time L4 -- and at (u, w_1)."""
    classic = vector_forms()
    return [
        _link(
            "L4",
            "L4",
            [
                (classic["uu"], CS_FORMS[aa].xreplace({VA: U})),
                (classic["n1"], CS_FORMS[bb].xreplace({VB[i]: W[i] + y * X[i]})),
                (classic["pu1"], CS_FORMS[ab].xreplace({VA: U, VB[i]: W[i] + y * X[i]})),
            ],
            f"{text(statement)} is Cauchy-Schwarz at a = u, b = w_(k+1) = w + y x",
            ("L4.step",),
        ),
        _link(
            "L4.start",
            "L4",
            [
                (START_FORMS[ns], CS_FORMS[bb].xreplace({VB: V1})),
                (START_FORMS[ps], CS_FORMS[ab].xreplace({VA: U, VB: V1})),
            ],
            "ps^2 <= uu ns is Cauchy-Schwarz at a = u, b = w_1 = v",
            ("L4.step",),
        ),
    ]


def _cs_written_out(lem: Lemma, statement: sp.Basic) -> list[Obligation]:
    """The cross-check of earlier versions: Lagrange's full sum of squares for d <= 4."""
    out = []
    gap = statement.rhs - statement.lhs
    for dim in SMALL_DIMS:
        uvec = [U[p] for p in range(1, dim + 1)]
        wvec = [W[p] + y * X[p] for p in range(1, dim + 1)]
        sos = lagrange_sos(uvec, wvec, dim)
        concrete = unroll(gap.xreplace(vector_substitution(dim)))
        out.append(
            Obligation(
                f"L4.d{dim}",
                lem.id,
                f"d = {dim}: {text(statement.rhs)} - ({text(statement.lhs)}) = "
                "sum_{p<q} (u_p w'_q - u_q w'_p)^2 with w' = w + y x (Lagrange)",
                ("DEF_ALG",),
                "sympy",
                f"d = {dim}",
                _same_sums(concrete, sos),
                (),
                sp.Eq(concrete, sos, evaluate=False),
                data={"lhs": concrete, "rhs": sos, "signs": ()},
            )
        )
    return out


def _implication_obligations(lem: Lemma) -> list[Obligation]:
    out: list[Obligation] = []
    seen: set[str] = set()
    for strict in (False, True):
        assert lem.hypotheses is not None
        ob = implication(
            lem.id + (".strict" if strict else ""),
            lem.id,
            lem.hypotheses(strict),
            lem.statement(strict=strict),
            lem.depends_on,
        )
        if ob.statement not in seen:  # the same claim under both margin forms: once
            seen.add(ob.statement)
            out.append(ob)
    return out


def induction_obligations(
    prefix: str,
    node: str,
    statement: Any,
    induction: Induction,
    step_statement: Any,
    depends_on: Sequence[str],
) -> list[Obligation]:
    """Base case (first update, ``w_1 = 0``) and inductive step ``P(k-1) => P(k)``."""
    base_hyps = induction.base_hypotheses()
    base = implication(
        f"{prefix}.base", node, [*base_hyps, step_statement], statement, depends_on,
        induction=(prefix, "base", "previous update"),
    )  # fmt: skip
    step_hyps = [rel(k, ">=", 2), induction.previous_statement(statement), step_statement]
    step = implication(
        f"{prefix}.step", node, step_hyps, statement, depends_on,
        induction=(prefix, "step", "previous update"),
    )  # fmt: skip
    return [base, step]


def _induction_lemma_obligations(lem: Lemma) -> list[Obligation]:
    assert lem.induction is not None
    out: list[Obligation] = []
    seen: set[str] = set()
    for strict in (False, True):
        suffix = ".strict" if strict else ""
        step_statement = lemma(lem.induction.step).statement(strict=strict)
        pair = induction_obligations(
            lem.id,
            lem.id,
            lem.statement(strict=strict),
            lem.induction,
            step_statement,
            lem.depends_on,
        )
        key = "|".join(ob.statement for ob in pair)
        if key in seen:
            continue
        seen.add(key)
        out.extend(
            replace(
                ob,
                id=ob.id + suffix,
                induction=(lem.id + suffix, *ob.induction[1:]) if ob.induction else None,
            )
            for ob in pair
        )
    return out


def _separation_obligation(lem: Lemma) -> list[Obligation]:
    """SEP: the loop exits only when the trigger fails at the worst point (margin m)."""
    trigger = lemma("DEF_TRIGGER").statement().xreplace({t: m})
    return [
        implication(
            "SEP",
            lem.id,
            [sp.Not(trigger)],
            lem.statement(),
            ("DEF_TRIGGER",),
            statement=f"not ({text(trigger)})  =>  {text(lem.statement())}  "
            "[the loop exits when the trigger fails at the worst point, m = min_i y_i w.x_i]",
        )
    ]


def lemma_obligations(lem: Lemma) -> list[Obligation]:
    """The obligations generated from one run-time lemma's statement (none for
    assumptions and definitions that the other obligations take as hypotheses)."""
    if lem.id == "SEP":
        return _separation_obligation(lem)
    if lem.kind == "identity":
        return _identity_obligations(lem)
    if lem.id == "L4":
        return _cauchy_schwarz_obligations(lem)
    if lem.induction is not None:
        return _induction_lemma_obligations(lem)
    if lem.hypotheses is not None:
        return _implication_obligations(lem)
    return []


# --- the seed-000 extras: the expansion as printed, y^2 = 1, the textbook forms of T -------

# unit margin, radius, |w_{k+1}|^2 (Kalyanakrishnan's letters) and |u|
gamma, R, N, nu = sp.symbols("gamma R N nu")


def _seed_obligations() -> list[Obligation]:
    """Kalyanakrishnan's expansion as printed, y^2 = 1, and the textbook forms of T."""
    return [
        *_seed_expansion(),
        _unit_margin(),
        *_textbook_bound(strict=False),
        *_textbook_bound(strict=True),
        _seed_growth(),
    ]


def _seed_expansion() -> list[Obligation]:
    """L5 as the note expands it (any real y), and y in {-1, +1} gives y^2 = 1."""
    forms = vector_forms()
    seed_rhs = forms["n0"] + 2 * y * vsum(W[i] * X[i]) + y**2 * forms["xx"]
    expand = identity(
        "L5.expand",
        "L5",
        forms["n1"],
        seed_rhs,
        ("DEF_ALG",),
        given="Kalyanakrishnan's expansion, any real y",
    )
    return [
        *with_instances(expand, forms["n1"], seed_rhs),
        implication(
            "L5.sign",
            "L5",
            [sp.Or(rel(y, "==", 1), rel(y, "==", -1))],
            rel(y**2, "==", 1),
            ("DEF_ALG",),
        ),
    ]


def _unit_margin() -> Obligation:
    """The unit margin gamma = g / |u| is positive and gamma^2 |u|^2 = g^2."""
    return implication(
        "T.gamma",
        "T",
        [rel(gamma * nu, "==", g), rel(nu**2, "==", uu), rel(nu, ">=", 0), rel(g, ">", 0),
         rel(uu, ">", 0)],
        sp.And(rel(gamma**2 * uu, "==", g**2), rel(gamma, ">", 0)),
        ("A1",),
    )  # fmt: skip


def _textbook_bound(*, strict: bool) -> list[Obligation]:
    """T as k gamma^2 <= R^2, and the note's k <= R^2/gamma^2 through k^2 gamma^2 <= N."""
    s = ".strict" if strict else ""
    op = "<" if strict else "<="
    return [
        implication(
            f"T.unit{s}",
            "T",
            [rel(k * g**2, op, R2 * uu), rel(uu, ">", 0), rel(gamma**2 * uu, "==", g**2)],
            rel(k * gamma**2, op, R2),
            ("T", "T.gamma"),
        ),
        implication(
            f"T.seed.lower{s}",
            "T",
            [
                lemma("L3").statement(strict=strict),
                lemma("L4").statement(),
                rel(N, "==", n1),
                rel(gamma**2 * uu, "==", g**2),
                rel(k, ">=", 1),
                rel(g, ">", 0),
                rel(uu, ">", 0),
            ],
            rel(k**2 * gamma**2, op, N),
            ("L3", "L4", "T.gamma"),
        ),
        implication(
            f"T.seed{s}",
            "T",
            [
                rel(k**2 * gamma**2, op, N),
                rel(N, "<=", k * R**2),
                rel(k, ">=", 1),
                rel(gamma, ">", 0),
            ],
            rel(k, op, R**2 / gamma**2),
            (f"T.seed.lower{s}", "T.seed.upper"),
        ),
    ]


def _seed_growth() -> Obligation:
    """The note's N <= k R^2: Q_k (L7) in its letters."""
    return implication(
        "T.seed.upper",
        "T",
        [lemma("L7").statement(), rel(N, "==", n1), rel(R**2, "==", R2)],
        rel(N, "<=", k * R**2),
        ("L7",),
    )


# --- the start and the state link between updates -------------------------------------------

#: the weights, point and label of the previous update (k - 1)
WP, XP = sp.IndexedBase("wp"), sp.IndexedBase("xp")
yp = sp.Symbol("yp", real=True)


def start_at_zero(expr: sp.Expr) -> sp.Expr:
    """The hypothesis w_1 = 0 applied: every coordinate v_i of the start is 0."""
    return expr.replace(lambda e: isinstance(e, sp.Indexed) and e.base == V1, lambda e: sp.S.Zero)


def _start_and_link_obligations() -> list[Obligation]:
    """From w_1 = 0 to the base cases' u.w_1 = 0 and |w_1|^2 = 0, and the state link:
    what update k - 1 calls ``u.w_{k+1}``, ``|w_{k+1}|^2`` is update k's ``u.w_k``, ``|w_k|^2``."""
    forms = vector_forms()
    zero = [sp.Eq(V1[i], 0, evaluate=False)]
    first = rel(k, "==", 1)
    previous = {W: WP, X: XP, y: yp}  # update k - 1's own names
    after_previous = {W[i]: WP[i] + yp * XP[i]}  # w_k = w_{k-1} + y_{k-1} x_{k-1}
    return [
        defined("START.ps", "DEF_ALG", rel(ps, "==", 0), {ps: START_FORMS[ps]}, ("DEF_ALG",),
                rewrite=start_at_zero, extra_hypotheses=zero),
        defined("START.ns", "DEF_ALG", rel(ns, "==", 0), {ns: START_FORMS[ns]}, ("DEF_ALG",),
                rewrite=start_at_zero, extra_hypotheses=zero),
        implication("START.pu", "DEF_ALG", [first, rel(pu, "==", ps), rel(ps, "==", 0)],
                    rel(pu, "==", 0), ("START.ps",), when=first),
        implication("START.n0", "DEF_ALG", [first, rel(n0, "==", ns), rel(ns, "==", 0)],
                    rel(n0, "==", 0), ("START.ns",), when=first),
        _link("LINK.pu", "DEF_ALG",
              [(forms["pu"].xreplace(after_previous), forms["pu1"].xreplace(previous))],
              "u.w_k of update k (w_k = w_{k-1} + y_{k-1} x_{k-1}) is u.w_{k+1} of update k - 1",
              ("DEF_ALG",)),
        _link("LINK.n0", "DEF_ALG",
              [(forms["n0"].xreplace(after_previous), forms["n1"].xreplace(previous))],
              "|w_k|^2 of update k is |w_{k+1}|^2 of update k - 1", ("DEF_ALG",)),
    ]  # fmt: skip


# --- the generic lemma, proved once ----------------------------------------------------------


def _generic_obligations() -> list[Obligation]:
    out: list[Obligation] = []
    for lem in GENERIC_LEMMAS:
        out += lemma_obligations(lem)
    classic = {C: R2}
    out.append(
        implication(
            "G.classic",
            "G",
            [lemma("L2").statement(), lemma("L6").statement()],
            sp.And(lemma("G1").statement().xreplace(classic), lemma("G2").statement()),
            ("L2", "L6"),
        )
    )
    from_zero = {ps: 0, ns: 0, C: R2}
    out.append(
        implication(
            "G.classic.T",
            "G",
            [lemma("T_G").statement().xreplace(from_zero), rel(k, ">=", 1)],
            lemma("T").statement(),
            ("T_G",),
        )
    )
    return out


def generic_instance(
    prefix: str,
    node: str,
    *,
    growth: Any,
    progress: Any,
    growth_hypotheses: Sequence[Any],
    progress_hypotheses: Sequence[Any],
    depends_on: Sequence[str] = ("G",),
) -> list[Obligation]:
    """A variant's own (G1) and (G2): its trigger and update imply the generic
    lemma's hypotheses with ``C = growth`` and ``g = progress``; the generic lemma
    then gives ``k g^2 <= C |u|^2`` without further proof."""
    return [
        implication(
            f"{prefix}.G1",
            node,
            growth_hypotheses,
            lemma("G1").statement().xreplace({C: growth}),
            depends_on,
        ),
        implication(
            f"{prefix}.G2",
            node,
            progress_hypotheses,
            lemma("G2").statement().xreplace({g: progress}),
            depends_on,
        ),
    ]


# --- corollaries ---------------------------------------------------------------------------

eta, c, b, theta = sp.symbols("eta c b theta")
a, bs, bm, cos2 = sp.symbols("a b_s b_m cos2")
a1, bs1, bm1 = sp.symbols("a1 b_s1 b_m1")  # the three biases after the update
a_i, a_j, R2h, uuh = sp.symbols("a_i a_j R2h uuh")


def _unit_ball() -> list[Obligation]:
    return [
        implication(
            "UNIT",
            "UNIT",
            [rel(k * gamma**2, "<=", R2), rel(R2, "<=", 1), rel(gamma, ">", 0)],
            sp.And(rel(k * gamma**2, "<=", 1), rel(k, "<=", 1 / gamma**2)),
            ("T.unit",),
        )
    ]


def _cosine() -> list[Obligation]:
    out = []
    for strict in (False, True):
        s = ".strict" if strict else ""
        out.append(
            implication(
                f"COS{s}",
                "COS",
                [
                    lemma("L3").statement(strict=strict),
                    lemma("L7").statement(strict=strict),
                    rel(k, ">=", 1),
                    rel(g, ">", 0),
                    rel(R2, ">", 0),
                ],
                sp.And(rel(pu1, ">=", 0), rel(pu1**2 * R2, ">=", k * g**2 * n1)),
                ("L3", "L7"),
            )
        )
    out.append(
        implication(
            "COS.n1pos",
            "COS",
            [lemma("L3").statement(), lemma("L4").statement(), rel(k, ">=", 1), rel(g, ">", 0),
             rel(uu, ">", 0)],
            rel(n1, ">", 0),
            ("L3", "L4"),
        )
    )  # fmt: skip
    out.append(
        implication(
            "COS.div",
            "COS",
            [
                rel(pu1**2 * R2, ">=", k * g**2 * n1),
                rel(n1, ">", 0),
                rel(uu, ">", 0),
                rel(R2, ">", 0),
                rel(cos2 * uu * n1, "==", pu1**2),
                rel(gamma**2 * uu, "==", g**2),
            ],
            rel(cos2, ">=", k * gamma**2 / R2),
            ("COS", "COS.n1pos", "T.gamma"),
        )
    )
    return out


#: the augmented vectors xh = (x, c) and wh = (w, b/c) of BIAS, with c > 0
XH, WH = sp.IndexedBase("xh"), sp.IndexedBase("wh")
_c_pos = sp.Symbol("c", positive=True)
#: <xh, wh> = w.x + b and |xh|^2 = |x|^2 + c^2, as (lhs, rhs)
_AUGMENTED_INNER = (vsum(XH[i] * WH[i], d + 1), vsum(W[i] * X[i]) + b)
_AUGMENTED_NORM = (vsum(XH[i] ** 2, d + 1), vsum(X[i] ** 2) + _c_pos**2)


def _bias() -> list[Obligation]:
    """BIAS: augmenting x with a constant c > 0 and w with b/c keeps the decisions and
    adds c^2 to the radius; the bound on the augmented data."""
    return [*_augmented_identities(), _augmented_written_out(), _bias_radius(), _bias_bound()]


def _augmented_rewrite(expr: sp.Expr) -> sp.Expr:
    """Peel coordinate d + 1 off, then apply xh = (x, c), wh = (w, b/c)."""
    peeled = peel_last(expr)
    inner = peeled.replace(
        lambda e: isinstance(e, sp.Sum),
        lambda e: sp.Sum(e.function.xreplace({XH: X, WH: W}), *e.limits),
    )
    return inner.xreplace({XH[d + 1]: _c_pos, WH[d + 1]: b / _c_pos})


def _augmented_identity(lhs: sp.Expr, rhs: sp.Expr) -> Check:
    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        return check_identity(_augmented_rewrite(lhs), rhs)

    return check


def _augmented_identities() -> list[Obligation]:
    """BIAS.inner and BIAS.norm in general d."""
    given = "xh = (x_1..x_d, c), wh = (w_1..w_d, b/c), c > 0"
    aug = (
        sp.Eq(XH[i], X[i], evaluate=False),
        sp.Eq(WH[i], W[i], evaluate=False),
        sp.Eq(XH[d + 1], _c_pos, evaluate=False),
        sp.Eq(WH[d + 1], b / _c_pos, evaluate=False),
        rel(_c_pos, ">", 0),
    )
    return [
        Obligation(
            f"BIAS.{name}",
            "BIAS",
            f"{text(lhs)} = {text(rhs)}  [{given}]",
            ("DEF_ALG",),
            "sympy",
            "general d",
            _augmented_identity(lhs, rhs),
            aug[:2] + aug[2:4] + aug[4:],
            sp.Eq(lhs, rhs, evaluate=False),
            data={"lhs": lhs, "rhs": rhs, "augmented": True},
        )
        for name, (lhs, rhs) in (("inner", _AUGMENTED_INNER), ("norm", _AUGMENTED_NORM))
    ]


def _augmented_written_out() -> Obligation:
    """BIAS.inner and BIAS.norm with the augmented vectors written out for d = 1..4."""
    written_out = {  # the augmented vectors, coordinate by coordinate, for each d
        dim: [
            {
                **{XH[p]: X[p] for p in range(1, dim + 1)},
                **{WH[p]: W[p] for p in range(1, dim + 1)},
                XH[dim + 1]: _c_pos,
                WH[dim + 1]: b / _c_pos,
            }
        ]
        for dim in SMALL_DIMS
    }
    return instances(
        "BIAS.d<=4",
        "BIAS",
        *_AUGMENTED_INNER,
        ("BIAS.inner", "BIAS.norm"),
        extra=written_out,
        more=[_AUGMENTED_NORM],
        hypotheses=[rel(_c_pos, ">", 0)],
        what="BIAS.inner and BIAS.norm with the augmented vectors written out",
    )


def _bias_radius() -> Obligation:
    """The augmented radius: R-hat^2 = R^2 + c^2, attained where R^2 is."""
    return implication(
        "BIAS.radius",
        "BIAS",
        [rel(a_i, "<=", R2), rel(a_j, "==", R2), rel(R2h, "==", a_j + c**2)],
        sp.And(rel(a_i + c**2, "<=", R2h), rel(R2h, "==", R2 + c**2)),
        ("BIAS.norm",),
    )


def _bias_bound() -> Obligation:
    """T on the augmented data, with u-hat = (u, theta/c)."""
    hypotheses = [
        rel(k * g**2, "<=", R2h * uuh),
        rel(R2h, "==", R2 + c**2),
        rel(uuh * c**2, "==", uu * c**2 + theta**2),
        rel(c, ">", 0),
    ]
    conclusion = rel(k * g**2 * c**2, "<=", (R2 + c**2) * (uu * c**2 + theta**2))
    return implication(
        "BIAS.bound",
        "BIAS",
        hypotheses,
        conclusion,
        ("T", "BIAS.inner", "BIAS.radius"),
        statement="T on the augmented data with u-hat = (u, theta/c), |u-hat|^2 = uuh: "
        + _implies_text(hypotheses, conclusion),
    )


#: the three bias conventions at the first update (all start at 0) and their updates:
#: augmented (x, 1) with last weight a, separate b_s <- b_s + y, (x, -1) with b_m <- b_m - y
BIAS_START = (rel(a, "==", 0), rel(bs, "==", 0), rel(bm, "==", 0))
BIAS_UPDATES = (rel(a1, "==", a + y), rel(bs1, "==", bs + y), rel(bm1, "==", bm - y))


def _bias_conventions() -> list[Obligation]:
    """The three conventions decide alike: at the first update (every bias 0) and, since
    the induction BIAS3 keeps b_s = a and b_m = -a, after every update."""
    dot = vsum(W[i] * X[i])

    def decisions(aug: Any, sep: Any, minus: Any) -> list[tuple[Any, Any]]:
        """(x, 1) with last weight ``aug``; separate ``w.x + sep`` (the DSC 255 handout);
        (x, -1) with last weight ``minus`` (the perceptron course page): the first against
        each other."""
        first = y * (dot + aug * 1)
        return [(first, y * (dot + sep)), (first, y * (dot + minus * (-1)))]

    after_pairs = decisions(a1, bs1, bm1)
    correspond_after = [rel(bs1, "==", a1), rel(bm1, "==", -a1)]
    correspond = sp.And(rel(bs, "==", a), rel(bm, "==", -a))
    after = sp.And(*correspond_after)
    return [
        equations(
            "BIAS3.decision.start",
            "BIAS3",
            decisions(a, bs, bm),
            "the first decision, every bias 0",
            ("DEF_ALG",),
            hypotheses=[rel(k, "==", 1), *BIAS_START],
        ),
        equations(
            "BIAS3.decision",
            "BIAS3",
            after_pairs,
            "the decisions with the biases after update k (those of update k + 1)",
            ("BIAS3.base", "BIAS3.step", "BIAS.inner"),
            hypotheses=correspond_after,
        ),
        instances(
            "BIAS3.decision.d<=4",
            "BIAS3",
            *after_pairs[0],
            ("BIAS3.decision",),
            more=after_pairs[1:],
            hypotheses=correspond_after,
            what="BIAS3.decision with the sums written out for each d",
        ),
        implication(
            "BIAS3.base",
            "BIAS3",
            [rel(k, "==", 1), *BIAS_START, *BIAS_UPDATES],
            after,
            ("DEF_ALG",),
            induction=("BIAS3", "base", "previous update"),
        ),
        implication(
            "BIAS3.step",
            "BIAS3",
            [rel(k, ">=", 2), correspond, *BIAS_UPDATES],
            after,
            ("DEF_ALG",),
            induction=("BIAS3", "step", "previous update"),
        ),
    ]


#: the dual form over n points: the counts alpha_p start at 0; an update is on a point j
ALPHA = sp.IndexedBase("alpha")
_p, _j = sp.Symbol("p", integer=True), sp.Symbol("j", integer=True, positive=True)
DUAL_START = (sp.Eq(ALPHA[_p], 0, evaluate=False),)
DUAL_POINT = (rel(_j, ">=", 1), rel(_j, "<=", n))


def _dual() -> list[Obligation]:
    p, j, alpha = _p, _j, ALPHA
    ys, xs = sp.IndexedBase("y"), sp.IndexedBase("x")

    def psum(body: sp.Expr) -> sp.Expr:
        return sp.Sum(body, (p, 1, n))

    delta = sp.KroneckerDelta(p, j)
    w_before = psum(alpha[p] * ys[p] * xs[p])
    lhs = w_before + ys[j] * xs[j]
    rhs = psum((alpha[p] + delta) * ys[p] * xs[p])
    count_lhs = psum(alpha[p]) + 1
    count_rhs = psum(alpha[p] + delta)
    dims = {n: (1, 2, 3)}
    extra = {size: [{j: jj} for jj in range(1, size + 1)] for size in SMALL_DIMS}
    step_pairs = [(lhs, rhs), (count_lhs, count_rhs)]
    return [
        equations(
            "DUAL.base",
            "DUAL",
            [(w_before, sp.S.Zero), (psum(alpha[p]), sp.S.Zero)],
            "w_1 = 0 and no update yet",
            ("DEF_ALG",),
            hypotheses=DUAL_START,
            scope="general n",
            dims=dims,
        ),
        equations(
            "DUAL.step",
            "DUAL",
            step_pairs,
            "one coordinate of w; an update on point j adds 1 to alpha_j",
            ("DUAL.base", "DEF_ALG"),
            hypotheses=DUAL_POINT,
            scope="general n",
            sift=True,
            dims=dims,
        ),
        instances(
            "DUAL.step.n<=4",
            "DUAL",
            *step_pairs[0],
            ("DUAL.step",),
            dim=n,
            extra=extra,
            more=step_pairs[1:],
            what="DUAL.step with the sums written out, for every j",
        ),
    ]


#: what a run with learning rate eta measures after its update w + eta y x
RATE_FORMS: dict[sp.Symbol, sp.Expr] = {
    n1: vsum((W[i] + eta * y * X[i]) ** 2),
    pu1: vsum(U[i] * (W[i] + eta * y * X[i])),
}


def _rate() -> list[Obligation]:
    """RATE: with learning rate eta > 0 the weights scale by eta, the decisions are those
    of eta = 1, and the generic lemma gives the bound with (C, g) = (eta^2 R^2, eta g)."""
    return [
        _rate_weights(),
        *_rate_decision(),
        _rate_trigger(),
        *_rate_expansion(),
        *_rate_progress(),
        *_rate_generic_instance(),
        _rate_bound(),
    ]


def _rate_weights() -> Obligation:
    """The induction step of v_k = eta w_k, coordinate by coordinate."""
    v_i = sp.Symbol("v_i")  # coordinate i of the eta-run's weights
    return identity(
        "RATE.weights",
        "RATE",
        (v_i + eta * y * X[i]).xreplace({v_i: eta * W[i]}),
        eta * (W[i] + y * X[i]),
        ("DEF_ALG",),
        given="induction step: v_k = eta w_k coordinatewise (base: v_1 = 0 = eta w_1)",
        scope="every coordinate",
    )


def _rate_decision() -> list[Obligation]:
    """The eta-run's trigger value is eta times the eta = 1 run's."""
    t_eta = y * vsum((eta * W[i]) * X[i])
    t_one = eta * vector_forms()["t"]
    decision = identity(
        "RATE.decision",
        "RATE",
        t_eta,
        t_one,
        ("RATE.weights",),
        given="the eta-run's trigger value is eta times the eta = 1 run's",
    )
    return with_instances(decision, t_eta, t_one)


def _rate_trigger() -> Obligation:
    """eta > 0: the eta-run triggers exactly when the eta = 1 run does."""
    return implication(
        "RATE.trigger",
        "RATE",
        [rel(eta, ">", 0)],
        sp.Equivalent(rel(eta * t, "<=", 0), rel(t, "<=", 0)),
        ("RATE.decision",),
    )


def _rate_expansion() -> list[Obligation]:
    """L5 with learning rate eta: |w + eta y x|^2 = |w|^2 + 2 eta t + eta^2 |x|^2."""
    forms = vector_forms()
    expand_lhs = vsum((W[i] + eta * y * X[i]) ** 2)
    expand_rhs = forms["n0"] + 2 * eta * forms["t"] + eta**2 * forms["xx"]
    expand = defined(
        "RATE.expand",
        "RATE",
        rel(n1, "==", n0 + 2 * eta * t + eta**2 * xx),
        {**vector_substitution(), **RATE_FORMS},
        ("L5.sign",),
        signs=("y",),
    )
    return with_instances(expand, expand_lhs, expand_rhs, signs=("y",))


def _rate_progress() -> list[Obligation]:
    """L1 with learning rate eta: u.(w + eta y x) = u.w + eta y u.x."""
    forms = vector_forms()
    progress_lhs = vsum(U[i] * (W[i] + eta * y * X[i]))
    progress_rhs = forms["pu"] + eta * forms["yux"]
    progress = defined(
        "RATE.progress",
        "RATE",
        rel(pu1, "==", pu + eta * yux),
        {**vector_substitution(), **RATE_FORMS},
        ("DEF_ALG",),
    )
    return with_instances(progress, progress_lhs, progress_rhs)


def _rate_generic_instance() -> list[Obligation]:
    """The eta-run's (G1) and (G2) with C = eta^2 R^2 and g = eta g."""
    return generic_instance(
        "RATE",
        "RATE",
        growth=eta**2 * R2,
        progress=eta * g,
        growth_hypotheses=[
            rel(n1, "==", n0 + 2 * eta * t + eta**2 * xx),
            lemma("DEF_TRIGGER").statement(),
            lemma("A2_j").statement(),
            rel(eta, ">", 0),
        ],
        progress_hypotheses=[
            rel(pu1, "==", pu + eta * yux),
            lemma("A1_j").statement(),
            rel(eta, ">", 0),
        ],
        depends_on=("G", "RATE.expand", "RATE.progress"),
    )


def _rate_bound() -> Obligation:
    """The generic bound with (eta^2 R^2, eta g) is T: eta cancels."""
    scaled = GENERIC["bound"].xreplace({C: eta**2 * R2, g: eta * g})
    return implication(
        "RATE.bound",
        "RATE",
        [rel(eta, ">", 0)],
        sp.Equivalent(scaled, lemma("T").statement()),
        ("T_G", "RATE.G1", "RATE.G2"),
    )


# --- everything ----------------------------------------------------------------------------


def _build(lemmas: Iterable[Lemma]) -> tuple[Obligation, ...]:
    out: list[Obligation] = []
    for lem in lemmas:
        out.extend(lemma_obligations(lem))
    out += _seed_obligations()
    out += _start_and_link_obligations()
    out += _generic_obligations()
    out += _unit_ball() + _cosine() + _bias() + _bias_conventions() + _dual() + _rate()
    ids = [ob.id for ob in out]
    duplicates = {x for x in ids if ids.count(x) > 1}
    if duplicates:
        raise ValueError(f"duplicate obligation ids: {sorted(duplicates)}")
    return tuple(out)


@lru_cache(maxsize=1)
def _default() -> tuple[Obligation, ...]:
    return _build(LEMMAS)


def all_obligations(lemmas: Sequence[Lemma] | None = None) -> tuple[Obligation, ...]:
    """Every obligation of the blueprint (from ``lemmas``, default: the proof's own)."""
    if lemmas is None:
        return _default()
    return _build(lemmas)


#: Statements used without proof: none (Cauchy-Schwarz is proved for every d, L4.*).
TRUSTED_AXIOMS: tuple[TrustedAxiom, ...] = ()
