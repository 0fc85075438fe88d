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
* Cauchy-Schwarz (L4): the one trusted axiom in general ``d``, backed by SymPy
  proofs of Lagrange's identity for ``d <= 4``.

>>> obs = {ob.id: ob for ob in all_obligations()}
>>> obs["L3.step"].statement
'k >= 2 & pu >= g*(k - 1) & -pu + pu1 >= g  =>  pu1 >= g*k'
>>> obs["L3.step"].check().status
'proved'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sympy as sp
from sympy.printing.str import StrPrinter

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
    VOCABULARY,
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
    """A one-line rendering of an expression or relation (sums as ``sum_{i=1..d} (...)``).

    >>> text(vsum(W[i] * X[i]))
    'sum_{i=1..d} (w[i]*x[i])'
    """
    return str(_Printer().doprint(expr))


def _implies_text(hyps: Sequence[Any], concl: Any) -> str:
    left = " & ".join(text(h) for h in hyps) if hyps else "true"
    return f"{left}  =>  {text(concl)}"


# --- builders ----------------------------------------------------------------------------


def implication(
    oid: str,
    node: str,
    hypotheses: Sequence[Any],
    conclusion: Any,
    depends_on: Sequence[str] = (),
    *,
    statement: str | None = None,
) -> Obligation:
    """A Z3 obligation ``hypotheses => conclusion`` over the reals."""
    hyps = tuple(hypotheses)

    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        return check_implication(hyps, conclusion, timeout_ms=timeout_ms)

    shown = statement if statement is not None else _implies_text(hyps, conclusion)
    return Obligation(oid, node, shown, tuple(depends_on), "z3", "reals", check)


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
    dims: dict[sp.Symbol, Sequence[int]] | None = None,
) -> Obligation:
    """A SymPy obligation ``lhs == rhs`` proved by linearity rewriting (symbolic size)."""

    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        return check_identity(lhs, rhs, signs=signs, sift=sift, dims=dims)

    shown = f"{text(lhs)} = {text(rhs)}" + (f"  [{given}]" if given else "")
    return Obligation(oid, node, shown, tuple(depends_on), "sympy", scope, check)


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
    extra: dict[int, Sequence[dict[Any, Any]]] | None = None,
    what: str = "",
) -> Obligation:
    """A SymPy obligation ``lhs == rhs`` for each concrete size (sums expanded)."""

    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        return check_instances(lhs, rhs, dim, sizes, signs=signs, extra=extra)

    scope = f"{dim} = {sizes[0]}..{sizes[-1]}"
    shown = what or f"{text(lhs)} = {text(rhs)}"
    return Obligation(oid, node, shown, tuple(depends_on), "sympy", scope, check)


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


def _vector_subs(dim: Any = d) -> dict[sp.Symbol, sp.Expr]:
    return {VOCABULARY[name][0]: form for name, form in vector_forms(dim).items()}


#: identities that use y in {-1, +1} (y^2 = 1)
_SIGNS: dict[str, tuple[str, ...]] = {"L5": ("y",)}


def _identity_obligations(lem: Lemma) -> list[Obligation]:
    statement = lem.statement(strict=False)
    signs = _SIGNS.get(lem.id, ())
    given = "y in {-1, +1}, so y^2 = 1" if signs else ""
    deps = (*lem.depends_on, *(("L5.sign",) if signs else ()))
    general = _vector_subs()
    out = [
        identity(
            lem.id,
            lem.id,
            statement.lhs.xreplace(general),
            statement.rhs.xreplace(general),
            deps,
            signs=signs,
            given=f"vector form of {text(statement)}" + (f"; {given}" if given else ""),
        )
    ]
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


def _cauchy_schwarz_obligations(lem: Lemma) -> list[Obligation]:
    """L4 for d = 1..4: |u|^2 |w|^2 - (u.w)^2 is Lagrange's sum of squares."""
    statement = lem.statement(strict=False)
    gap = statement.rhs - statement.lhs  # rhs - lhs >= 0 for a "<=" statement
    out = []
    for dim in SMALL_DIMS:
        uvec = [U[p] for p in range(1, dim + 1)]
        wvec = [W[p] + y * X[p] for p in range(1, dim + 1)]
        sos = lagrange_sos(uvec, wvec, dim)
        concrete = unroll(gap.xreplace(_vector_subs(dim)))

        def check(
            timeout_ms: int = DEFAULT_TIMEOUT_MS,
            concrete: sp.Expr = concrete,
            sos: sp.Expr = sos,
            op: str = statement.rel_op,
        ) -> Verdict:
            if op != "<=":
                return Verdict("refuted", f"expected a '<=' statement, got {op!r}")
            if (
                not all(
                    isinstance(term, sp.Pow) and term.exp == 2 for term in sp.Add.make_args(sos)
                )
                and sos != 0
            ):
                return Verdict("unknown", "not a sum of squares")
            diff = sp.expand(concrete - sos)
            if diff != 0:
                return Verdict("refuted", f"difference from Lagrange's sum of squares: {diff}")
            return Verdict("proved", "rhs - lhs equals a sum of squares of reals")

        out.append(
            Obligation(
                f"L4.d{dim}",
                lem.id,
                f"d = {dim}: {text(statement.rhs)} - ({text(statement.lhs)}) = "
                "sum_{p<q} (u_p w'_q - u_q w'_p)^2 >= 0 with w' = w + y x (Lagrange)",
                ("DEF_ALG",),
                "sympy",
                f"d = {dim}",
                check,
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
    base = implication(f"{prefix}.base", node, [*base_hyps, step_statement], statement, depends_on)
    step_hyps = [rel(k, ">=", 2), induction.previous_statement(statement), step_statement]
    step = implication(f"{prefix}.step", node, step_hyps, statement, depends_on)
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
            Obligation(
                ob.id + suffix, ob.node, ob.statement, ob.depends_on, ob.checker, ob.scope, ob.check
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
    if lem.kind == "axiom":
        return _cauchy_schwarz_obligations(lem)
    if lem.induction is not None:
        return _induction_lemma_obligations(lem)
    if lem.hypotheses is not None:
        return _implication_obligations(lem)
    return []


# --- the seed-000 extras: the expansion as printed, y^2 = 1, the textbook forms of T -------

gamma, R, N = sp.symbols("gamma R N")  # unit margin, radius, |w_{k+1}|^2 (seed 000's letters)


def _seed_obligations() -> list[Obligation]:
    forms = vector_forms()
    seed_rhs = forms["n0"] + 2 * y * vsum(W[i] * X[i]) + y**2 * forms["xx"]
    expand = identity(
        "L5.expand",
        "L5",
        forms["n1"],
        seed_rhs,
        ("DEF_ALG",),
        given="seed 000's expansion, any real y",
    )
    out = [
        *with_instances(expand, forms["n1"], seed_rhs),
        implication(
            "L5.sign",
            "L5",
            [sp.Or(rel(y, "==", 1), rel(y, "==", -1))],
            rel(y**2, "==", 1),
            ("DEF_ALG",),
        ),
    ]
    for strict in (False, True):
        s = ".strict" if strict else ""
        op = "<" if strict else "<="
        out.append(
            implication(
                f"T.unit{s}",
                "T",
                [rel(k * g**2, op, R2 * uu), rel(uu, ">", 0), rel(gamma**2 * uu, "==", g**2)],
                rel(k * gamma**2, op, R2),
                ("T",),
            )
        )
        out.append(
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
                ("L3", "L4", "L7"),
            )
        )
    return out


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
a, bs, bm, cos2, gamma2 = sp.symbols("a b_s b_m cos2 gamma2")
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
            "COS.div",
            "COS",
            [
                rel(pu1**2 * R2, ">=", k * g**2 * n1),
                rel(n1, ">", 0),
                rel(uu, ">", 0),
                rel(R2, ">", 0),
                rel(cos2 * uu * n1, "==", pu1**2),
                rel(gamma2 * uu, "==", g**2),
            ],
            rel(cos2, ">=", k * gamma2 / R2),
            ("COS",),
        )
    )
    return out


def _bias() -> list[Obligation]:
    xh, wh = sp.IndexedBase("xh"), sp.IndexedBase("wh")
    cpos = sp.Symbol("c", positive=True)  # the augmentation constant, c > 0

    def augmented_rewrite(expr: sp.Expr) -> sp.Expr:
        """Peel coordinate d + 1 off, then apply xh = (x, c), wh = (w, b/c)."""
        peeled = peel_last(expr)
        inner = peeled.replace(
            lambda e: isinstance(e, sp.Sum),
            lambda e: sp.Sum(e.function.xreplace({xh: X, wh: W}), *e.limits),
        )
        return inner.xreplace({xh[d + 1]: cpos, wh[d + 1]: b / cpos})

    inner_lhs = vsum(xh[i] * wh[i], d + 1)
    inner_rhs = vsum(W[i] * X[i]) + b
    norm_lhs = vsum(xh[i] ** 2, d + 1)
    norm_rhs = vsum(X[i] ** 2) + cpos**2

    def general(lhs: sp.Expr, rhs: sp.Expr) -> Check:
        def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
            return check_identity(augmented_rewrite(lhs), rhs)

        return check

    given = "xh = (x_1..x_d, c), wh = (w_1..w_d, b/c), c > 0"
    out = [
        Obligation(
            "BIAS.inner",
            "BIAS",
            f"{text(inner_lhs)} = {text(inner_rhs)}  [{given}]",
            ("DEF_ALG",),
            "sympy",
            "general d",
            general(inner_lhs, inner_rhs),
        ),
        Obligation(
            "BIAS.norm",
            "BIAS",
            f"{text(norm_lhs)} = {text(norm_rhs)}  [{given}]",
            ("DEF_ALG",),
            "sympy",
            "general d",
            general(norm_lhs, norm_rhs),
        ),
    ]

    def small(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        for dim in SMALL_DIMS:
            xs = [X[p] for p in range(1, dim + 1)] + [cpos]
            ws = [W[p] for p in range(1, dim + 1)] + [b / cpos]
            lhs = sum((p * q for p, q in zip(xs, ws, strict=True)), sp.S.Zero)
            rhs = unroll(inner_rhs.xreplace({d: dim}))
            nl = sum((p**2 for p in xs), sp.S.Zero)
            nr = unroll(norm_rhs.xreplace({d: dim}))
            if sp.expand(lhs - rhs) != 0 or sp.expand(nl - nr) != 0:
                return Verdict("refuted", f"fails at d = {dim}")
        return Verdict("proved", "expanded to 0 for every size")

    out.append(
        Obligation(
            "BIAS.d<=4",
            "BIAS",
            "BIAS.inner and BIAS.norm with the augmented vectors written out",
            ("BIAS.inner", "BIAS.norm"),
            "sympy",
            "d = 1..4",
            small,
        )
    )
    out.append(
        implication(
            "BIAS.radius",
            "BIAS",
            [rel(a_i, "<=", R2), rel(a_j, "==", R2)],
            sp.And(rel(a_i + c**2, "<=", R2 + c**2), rel(a_j + c**2, "==", R2 + c**2)),
            ("BIAS.norm",),
            statement="every |x_i|^2 = a_i <= R^2 and some |x_j|^2 = a_j = R^2  =>  "
            "a_i + c^2 <= R^2 + c^2 and a_j + c^2 = R^2 + c^2, i.e. R-hat^2 = R^2 + c^2",
        )
    )
    out.append(
        implication(
            "BIAS.bound",
            "BIAS",
            [
                rel(k * g**2, "<=", R2h * uuh),
                rel(R2h, "==", R2 + c**2),
                rel(uuh * c**2, "==", uu * c**2 + theta**2),
                rel(c, ">", 0),
            ],
            rel(k * g**2 * c**2, "<=", (R2 + c**2) * (uu * c**2 + theta**2)),
            ("T", "BIAS.inner", "BIAS.radius"),
            statement="T on the augmented data with u-hat = (u, theta/c), |u-hat|^2 = uuh: "
            + _implies_text(
                [
                    rel(k * g**2, "<=", R2h * uuh),
                    rel(R2h, "==", R2 + c**2),
                    rel(uuh * c**2, "==", uu * c**2 + theta**2),
                    rel(c, ">", 0),
                ],
                rel(k * g**2 * c**2, "<=", (R2 + c**2) * (uu * c**2 + theta**2)),
            ),
        )
    )
    return out


def _bias_conventions() -> list[Obligation]:
    dot = vsum(W[i] * X[i])
    augment = y * (dot + a * 1)  # (x, 1), last weight a
    separate = y * (dot + bs)  # seed 004: w.x + b
    minus_one = y * (dot + bm * (-1))  # seed 003: (x, -1), last weight b_m

    def check(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        first = check_identity(augment, separate.xreplace({bs: a}))
        if not first.proved:
            return first
        return check_identity(augment, minus_one.xreplace({bm: -a}))

    def small(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        first = check_instances(augment, separate.xreplace({bs: a}), d, SMALL_DIMS)
        if not first.proved:
            return first
        return check_instances(augment, minus_one.xreplace({bm: -a}), d, SMALL_DIMS)

    correspond = sp.And(rel(bs, "==", a), rel(bm, "==", -a))
    return [
        Obligation(
            "BIAS3.decision",
            "BIAS3",
            f"{text(augment)} = {text(separate)} = {text(minus_one)}  [b_s = a, b_m = -a]",
            ("BIAS.inner",),
            "sympy",
            "general d",
            check,
        ),
        Obligation(
            "BIAS3.decision.d<=4",
            "BIAS3",
            "BIAS3.decision with the sums written out for each d",
            ("BIAS3.decision",),
            "sympy",
            "d = 1..4",
            small,
        ),
        implication(
            "BIAS3.base",
            "BIAS3",
            [rel(a, "==", 0), rel(bs, "==", 0), rel(bm, "==", 0)],
            correspond,
            ("DEF_ALG",),
        ),
        implication(
            "BIAS3.step",
            "BIAS3",
            [rel(bs, "==", a), rel(bm, "==", -a)],
            sp.And(rel(bs + y, "==", a + y * 1), rel(bm + y * (-1), "==", -(a + y * 1))),
            ("BIAS3.decision",),
        ),
    ]


def _dual() -> list[Obligation]:
    n = sp.Symbol("n", integer=True, positive=True)
    j = sp.Symbol("j", integer=True, positive=True)
    p = sp.Symbol("p", integer=True)
    alpha, ys, xs = sp.IndexedBase("alpha"), sp.IndexedBase("y"), sp.IndexedBase("x")

    def psum(body: sp.Expr) -> sp.Expr:
        return sp.Sum(body, (p, 1, n))

    delta = sp.KroneckerDelta(p, j)
    w_before = psum(alpha[p] * ys[p] * xs[p])
    lhs = w_before + ys[j] * xs[j]
    rhs = psum((alpha[p] + delta) * ys[p] * xs[p])
    count_lhs = psum(alpha[p]) + 1
    count_rhs = psum(alpha[p] + delta)
    dims = {n: (1, 2, 3)}

    def step(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        first = check_identity(lhs, rhs, sift=True, dims=dims)
        if not first.proved:
            return first
        return check_identity(count_lhs, count_rhs, sift=True, dims=dims)

    extra = {size: [{j: jj} for jj in range(1, size + 1)] for size in SMALL_DIMS}

    def small(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        first = check_instances(lhs, rhs, n, SMALL_DIMS, extra=extra)
        if not first.proved:
            return first
        return check_instances(count_lhs, count_rhs, n, SMALL_DIMS, extra=extra)

    no_updates = {alpha[p]: sp.S.Zero}
    base_w = psum(alpha[p] * ys[p] * xs[p]).xreplace(no_updates)
    base_count = psum(alpha[p]).xreplace(no_updates)

    def base(timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Verdict:
        first = check_identity(base_w, sp.S.Zero, dims=dims)
        if not first.proved:
            return first
        return check_identity(base_count, sp.S.Zero, dims=dims)

    return [
        Obligation(
            "DUAL.base",
            "DUAL",
            "w_1 = 0 = sum_{p=1..n} (alpha[p]*x[p]*y[p]) and sum_{p=1..n} (alpha[p]) = 0 "
            "updates, with every alpha[p] = 0",
            ("DEF_ALG",),
            "sympy",
            "general n",
            base,
        ),
        Obligation(
            "DUAL.step",
            "DUAL",
            f"{text(lhs)} = {text(rhs)} and {text(count_lhs)} = {text(count_rhs)}  "
            "[one coordinate of w; an update on point j, 1 <= j <= n, adds 1 to alpha_j]",
            ("DUAL.base", "DEF_ALG"),
            "sympy",
            "general n",
            step,
        ),
        Obligation(
            "DUAL.step.n<=4",
            "DUAL",
            "DUAL.step with the sums written out, for every j",
            ("DUAL.step",),
            "sympy",
            "n = 1..4",
            small,
        ),
    ]


def _rate() -> list[Obligation]:
    v_i = sp.Symbol("v_i")  # coordinate i of the eta-run's weights
    forms = vector_forms()
    t_eta = y * vsum((eta * W[i]) * X[i])
    out = [
        identity(
            "RATE.weights",
            "RATE",
            (v_i + eta * y * X[i]).xreplace({v_i: eta * W[i]}),
            eta * (W[i] + y * X[i]),
            ("DEF_ALG",),
            given="induction step: v_k = eta w_k coordinatewise (base: v_1 = 0 = eta w_1)",
            scope="every coordinate",
        ),
        implication(
            "RATE.trigger",
            "RATE",
            [rel(eta, ">", 0)],
            sp.Equivalent(rel(eta * t, "<=", 0), rel(t, "<=", 0)),
            ("RATE.decision",),
        ),
    ]
    decision = identity(
        "RATE.decision",
        "RATE",
        t_eta,
        eta * forms["t"],
        ("RATE.weights",),
        given="the eta-run's trigger value is eta times the eta = 1 run's",
    )
    out[1:1] = with_instances(decision, t_eta, eta * forms["t"])
    expand_lhs = vsum((W[i] + eta * y * X[i]) ** 2)
    expand_rhs = forms["n0"] + 2 * eta * forms["t"] + eta**2 * forms["xx"]
    expand = identity(
        "RATE.expand",
        "RATE",
        expand_lhs,
        expand_rhs,
        ("L5.sign",),
        signs=("y",),
        given="y in {-1, +1}",
    )
    out += with_instances(expand, expand_lhs, expand_rhs, signs=("y",))
    progress_lhs = vsum(U[i] * (W[i] + eta * y * X[i]))
    progress_rhs = forms["pu"] + eta * forms["yux"]
    progress = identity("RATE.progress", "RATE", progress_lhs, progress_rhs, ("DEF_ALG",))
    out += with_instances(progress, progress_lhs, progress_rhs)
    out += generic_instance(
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
    scaled = GENERIC["bound"].xreplace({C: eta**2 * R2, g: eta * g})
    out.append(
        implication(
            "RATE.bound",
            "RATE",
            [rel(eta, ">", 0)],
            sp.Equivalent(scaled, lemma("T").statement()),
            ("T_G", "RATE.G1", "RATE.G2"),
        )
    )
    return out


# --- everything ----------------------------------------------------------------------------


def _build(lemmas: Iterable[Lemma]) -> tuple[Obligation, ...]:
    out: list[Obligation] = []
    for lem in lemmas:
        out.extend(lemma_obligations(lem))
    out += _seed_obligations()
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


#: The one statement used without proof.
TRUSTED_AXIOMS: tuple[TrustedAxiom, ...] = (
    TrustedAxiom(
        "L4",
        "Cauchy-Schwarz: (u . w)^2 <= |u|^2 |w|^2 for u, w in R^d",
        "general d",
        tuple(f"L4.d{dim}" for dim in SMALL_DIMS),
        "a proof for symbolic d needs induction over d (or a sum over pairs) that the "
        "rewriting checker does not do; Lagrange's identity is proved for d <= 4 and the "
        "property suite adds random evidence for larger d",
    ),
)
