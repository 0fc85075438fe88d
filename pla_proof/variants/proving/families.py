"""Coq statements generated from a variant's own rule and claim, beyond the linear template.

:mod:`.instances` proves a claim whose rule reads as the linear template.  The catalog's
other shapes -- a bias convention, a nonzero start, normalised updates, a strict margin,
one vector per class (Kesler), the kernel perceptron, training in passes (voted,
averaged), the pocket's PLA steps -- each have a corollary in the development
(``convergence.v``).  For a variant of such a shape, :func:`coq_claim` reads its claim's
constants (symbolically where the claim is a formula in ``R^2``, ``gamma`` and
``|u|^2``; else from its own cases, fitted exactly over the shape's quantities and
confirmed on every case) and writes a Coq section whose statement carries *those*
constants, proved as a corollary of the development's theorem for the shape.  A wrong
constant makes a false statement, which ``coqc`` rejects.

The shape is the class whose ``run()`` the variant uses (its rule hooks must be the
template's own); what cannot be read says why (:class:`NoCoqClaim`).

>>> from pla_proof.variants import resolve
>>> c = coq_claim(resolve("multiclass"))
>>> c.theorem, "INR k * gam ^ 2 <= (2 * R2) * uu" in c.text
('multiclass_claim', True)
>>> coq_claim(resolve("sklearn-perceptron")).reason.startswith("scikit-learn")
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from ..protocol.claim import Claim
from ..protocol.variant import Case, LinearVariant, Variant
from .declared import DeclaredRule, SymbolicCase

__all__ = ["CoqClaim", "NoCoqClaim", "coq_claim", "family_of"]

_CATALOG = "pla_proof.variants.catalog."
#: the class whose run() a variant uses -> the shape of its rule
RUNS = {
    _CATALOG + "bias.BiasVariant": "bias",
    _CATALOG + "bias._SameUpdatesAsAugmentOne": "bias",
    _CATALOG + "averaged._Survivors": "passes",
    _CATALOG + "kernel.KernelVariant": "kernel",
    _CATALOG + "kernel.Dual": "kernel",
    _CATALOG + "multiclass.Multiclass": "multiclass",
    _CATALOG + "pocket.Pocket": "pocket",
    "pla_proof.variants.protocol.variant.LinearVariant": "declared",
    "pla_proof.variants.protocol.variant.PassVariant": "passes",
}
#: shapes with no corollary, and what one would need
REASONS = {
    _CATALOG + "seed004.Seed004Listing": (
        "its run is the DSC 255 listing (strict trigger on positive points, sign(0) = +1): "
        "its updates are updates of bias_separate_claim's rule, but its claim ends in SEP0, "
        "which needs a corollary of its own (not written)"
    ),
    "pla_proof.variants.estimators.estimator.Estimator": (
        "scikit-learn's Perceptron, read through fit() in float64: a Coq proof would need a "
        "model of its code (SGD on the perceptron loss with eta0, shuffling, the tol / "
        "n_iter_no_change stopping rule) proved to make the classic updates, and float "
        "arithmetic; only the search checks it"
    ),
}
#: the hooks that make a linear rule: they must be LinearVariant's own below the shape
RULE_HOOKS = ("eta", "tau", "start", "factors", "strict_trigger", "triggers", "step", "score")


@dataclass(frozen=True)
class CoqClaim:
    """A generated corollary: the shape, the development's theorem it follows from, the
    claim as stated (one line) and the Coq section."""

    family: str
    theorem: str
    statement: str
    text: str


@dataclass(frozen=True)
class NoCoqClaim:
    """Why no Coq statement is generated for the variant."""

    reason: str


def _qualname(k: type) -> str:
    return f"{k.__module__}.{k.__qualname__}"


def _defined_by(variant: Variant, name: str) -> str:
    for k in type(variant).__mro__:
        if name in vars(k):
            return _qualname(k)
    return ""


def family_of(variant: Variant) -> str | NoCoqClaim:
    """The shape of the variant's rule (by the class whose ``run()`` it uses)."""
    runner = _defined_by(variant, "run")
    if runner in REASONS:
        return NoCoqClaim(REASONS[runner])
    family = RUNS.get(runner)
    if family is None:
        for k in type(variant).__mro__:
            if _qualname(k) in REASONS:
                return NoCoqClaim(REASONS[_qualname(k)])
        return NoCoqClaim(f"its run() ({runner}) is not a shape the development proves")
    if isinstance(variant, LinearVariant):
        allowed = {"pla_proof.variants.protocol.variant.LinearVariant"}
        if family == "declared":
            allowed.add(_defined_by(variant, "strict_trigger"))  # checked by the shape
        for hook in RULE_HOOKS:
            by = _defined_by(variant, hook)
            if by not in allowed and family != "declared":
                return NoCoqClaim(f"it writes {hook}() by hand ({by}): not the {family} rule")
    return family


# --- reading the claim ----------------------------------------------------------------------

R2, GAM, UU = sp.symbols("R2 gamma uu")


def _symbolic_claim(variant: Variant, params: Sequence[str] = ()) -> Claim:
    case: Any = SymbolicCase(parameters=dict.fromkeys(params, "real"))
    claim = variant.claim(case)
    if not isinstance(claim, Claim):
        raise _Unfit(f"claim() returned {type(claim).__name__}")
    return claim


class _Unfit(Exception):
    pass


def own_cases(variant: Variant, count: int = 20) -> list[Case]:
    """The variant's fixed examples and ``count`` cases drawn from its own domain
    (deterministically), each accepted by it."""
    from hypothesis import HealthCheck, Phase, given, settings

    found = [c for c in variant.examples() if variant.accepts(c)]

    @settings(
        max_examples=count,
        database=None,
        derandomize=True,
        deadline=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @given(variant.cases())
    def collect(case: Any) -> None:
        if variant.accepts(case):
            found.append(case)

    collect()
    return found


def _ratio(value: Any, basis: Any) -> Fraction:
    if isinstance(value, int | Fraction) and isinstance(basis, int | Fraction):
        return Fraction(value) / Fraction(basis)
    return Fraction(float(value) / float(basis)).limit_denominator(10**6)


def fit(rows: Sequence[Sequence[Any]], targets: Sequence[Any], what: str) -> list[Fraction]:
    """Exact coefficients ``a`` with ``sum_j a_j rows[i][j] == targets[i]`` for every
    ``i`` (``_Unfit`` naming ``what`` when there are none, or too few cases to fix them).

    >>> fit([[1, 0], [1, 2], [2, 1]], [3, 5, 7], "C")
    [Fraction(3, 1), Fraction(1, 1)]
    """
    m = len(rows[0]) if rows else 0
    if m == 1:
        pivot = next((i for i, r in enumerate(rows) if r[0] != 0), None)
        if pivot is None:
            raise _Unfit(f"its cases do not fix the coefficient of {what}")
        coeffs = [_ratio(targets[pivot], rows[pivot][0])]
    else:
        coeffs = _solve(
            [[Fraction(v) for v in r] for r in rows], [Fraction(t) for t in targets], what
        )
    for r, t in zip(rows, targets, strict=True):
        if sum((a * v for a, v in zip(coeffs, r, strict=True)), Fraction(0)) != t:
            raise _Unfit(f"its claim's {what} is not of the shape's form on its own cases")
    return coeffs


def _solve(A: list[list[Fraction]], b: list[Fraction], what: str) -> list[Fraction]:
    m = len(A[0])
    rows = [[*r, t] for r, t in zip(A, b, strict=True)]
    for r, c in enumerate(range(m)):
        p = next((i for i in range(r, len(rows)) if rows[i][c] != 0), None)
        if p is None:
            raise _Unfit(f"its cases do not fix the coefficients of {what}")
        rows[r], rows[p] = rows[p], rows[r]
        piv = rows[r][c]
        rows[r] = [v / piv for v in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][c] != 0:
                f = rows[i][c]
                rows[i] = [a - f * b2 for a, b2 in zip(rows[i], rows[r], strict=True)]
    return [rows[i][m] for i in range(m)]


def _combine(coeffs: Sequence[Fraction], basis: Sequence[Any]) -> Any:
    pairs = zip(coeffs, basis, strict=True)
    return sp.Add(*[sp.Rational(a.numerator, a.denominator) * e for a, e in pairs])


def _term(e: Any, names: dict[str, str] | None = None) -> str:
    from ...proof.coq import coq_term

    e = sp.sympify(e)
    subs = {s: sp.Symbol((names or {}).get(str(s), str(s))) for s in e.free_symbols}
    return coq_term(e.xreplace(subs))


def _show(e: Any) -> str:
    """A formula as the reports write it (``R^2``, ``|u|^2``)."""
    import re

    text = str(e).replace("**", "^").replace("*", " ")
    for a, b in (("R2", "R^2"), ("uu", "|u|^2")):
        text = re.sub(rf"\b{a}\b", b, text)
    return text


# --- the shapes ------------------------------------------------------------------------------

#: the goal from the development's bound ``B``: equal constants (field), else nra
_CLOSE = (
    "first [ (assert (E : INR k * ({G}) ^ 2 = INR k * ({G0}) ^ 2 /\\ {RHS} = {RHS0}) by "
    "(split; field; first [assumption | lra]); lra) | nra ]."
)


def _close(G: str, G0: str, RHS: str, RHS0: str) -> str:
    return _CLOSE.format(G=G, G0=G0, RHS=RHS, RHS0=RHS0)


_DATA = """Variable d n : nat.
Variable X : nat -> nat -> R.
Variable Y : nat -> R.
Variable u : nat -> R.
Variables gam R2 : R.
Hypothesis labels : forall p, (1 <= p <= n)%nat -> Y p ^ 2 = 1.
Hypothesis radius : forall p, (1 <= p <= n)%nat -> norm2 d (X p) <= R2.
Hypothesis radius_nonneg : 0 <= R2.
Hypothesis margin_pos : gam > 0.
Hypothesis some_point : (1 <= n)%nat.
Let uu : R := norm2 d u.
"""


def _section(name: str, family: str, claim: str, body: str) -> str:
    return (
        f"(* The claim of the variant {name} ({family}), generated from its own rule and\n"
        f"   claim: {claim} *)\nSection Claim.\n{body}\nEnd Claim.\n"
    )


def _multiclass(variant: Variant) -> CoqClaim:
    claim = _symbolic_claim(variant)
    _template_claim(claim)
    C, g = sp.sympify(claim.C), sp.sympify(claim.g)
    body = f"""Variables c d n : nat.
Variable X : nat -> nat -> R.
Variable L : nat -> nat.
Variable U : nat -> R.
Variables gam R2 : R.
Hypothesis labels : forall p, (1 <= p <= n)%nat -> (1 <= L p <= c)%nat.
Hypothesis radius : forall p, (1 <= p <= n)%nat -> norm2 d (X p) <= R2.
Hypothesis margin : forall p y', (1 <= p <= n)%nat -> (1 <= y' <= c)%nat -> y' <> L p ->
  dot (c * d) U (kes d (L p) (X p)) - dot (c * d) U (kes d y' (X p)) >= gam.
Hypothesis margin_pos : gam > 0.
Hypothesis two_classes : (2 <= c)%nat.
Hypothesis some_point : (1 <= n)%nat.
Let uu : R := norm2 (c * d) U.

Corollary claim_bound : forall k w,
  reach (multiclass_step c d n X L) (fun _ => 0) k w -> INR k * {_term(g)} ^ 2 <= {_term(C)} * uu.
Proof.
  intros k w H.
  pose proof (multiclass_claim c d n X L U gam R2 labels radius margin margin_pos two_classes
    some_point k w H) as B. unfold uu.
  {_close(_term(g), "gam", f"{_term(C)} * norm2 (c * d) U", "2 * R2 * norm2 (c * d) U")}
Qed."""
    stated = f"k g^2 <= C |U|_F^2 with (C, g) = ({_show(C)}, {_show(g)})"
    return CoqClaim(
        "multiclass", "multiclass_claim", stated, _section(variant.name, "Kesler", stated, body)
    )


def _template_claim(claim: Claim) -> None:
    if claim.bound is not None or claim.strict:
        raise _Unfit("its claim states its own or a strict bound")
    if claim.C is None or claim.g is None:
        raise _Unfit("its claim has no (C, g)")
    if sp.sympify(claim.pu0) != 0 or sp.sympify(claim.n0) != 0:
        raise _Unfit("its claim starts from w != 0")
    if not _is_uu(claim.uu):
        raise _Unfit("its claim's |u|^2 is not the comparator's")


def _is_uu(v: Any) -> bool:
    e = sp.sympify(v)
    return isinstance(e, sp.Symbol) and str(e) == "uu"


def _passes(variant: Variant) -> DeclaredRule:
    """Training in passes (voted, averaged): the declared rule's updates, visited in
    passes -- the template's statement (:func:`.instances.coq_text`)."""
    assert isinstance(variant, LinearVariant)
    case: Any = SymbolicCase()
    claim = _symbolic_claim(variant)
    _template_claim(claim)
    if any(sp.sympify(v) != 0 for v in variant.start(case)) or variant.factors(case) is not None:
        raise _Unfit("its rule starts from w != 0 or has per-point factors")
    strict = variant.strict_trigger(case)
    if not isinstance(strict, bool):
        raise _Unfit("its trigger is strict for some points only")
    how = "its run() makes the declared rule's updates, in passes over the data"
    eta, tau = sp.sympify(variant.eta(case)), sp.sympify(variant.tau(case))
    return DeclaredRule(eta, tau, strict, sp.sympify(claim.C), sp.sympify(claim.g), claim.end, how)


def _pocket(variant: Variant) -> CoqClaim:
    claim = _symbolic_claim(variant)
    if claim.C is None or claim.g is not None or claim.bound is not None:
        raise _Unfit("its claim is not G1 alone")
    C = sp.sympify(claim.C)
    body = f"""{_DATA}
(* every PLA step of the pocket (the classic update on a violator) grows |w|^2 by at most C;
   the pocket claims no bound on the number of steps (its data need not be separable) *)
Corollary claim_growth : forall w w', linear_step d n X Y 1 0 (fun _ => 1) w w' ->
  norm2 d w' + (-1) * norm2 d w <= {_term(C)}.
Proof.
  apply (linear_G1 d n X Y 1 0 (fun _ => 1) labels); [intros; lra|].
  intros p Hp. pose proof (radius p Hp). nra.
Qed."""
    stated = f"|w'|^2 - |w|^2 <= C = {_show(C)} on every PLA step (G1)"
    theorem = "linear_G1"
    if getattr(variant, "ratchet", False):  # Gallant's ratchet: what the pocket returns
        body += """

(* what the pocket (with its ratchet) returns, on any data and any picks: weights the
   algorithm reaches by updates on violators, with no more training errors than the start
   or than any weights the pocket held before (algorithm.v: pocket_returns) *)
Corollary claim_pocket : forall X Y c picks w0 b0 pw pb pk pe hist,
  pocket X Y c picks w0 b0 = (pw, pb, pk, pe, hist) ->
  replay (List.combine X Y) c w0 b0 pk = Some (pw, pb) /\\
  pe = errors (List.combine X Y) c pw pb /\\ (pe <= errors (List.combine X Y) c w0 b0)%nat /\\
  (forall e, List.In e hist -> pe <= e)%nat.
Proof. exact pocket_returns. Qed."""
        stated += (
            "; it returns weights the algorithm's updates reach, with no more training "
            "errors than the start or any weights it held (pocket_returns)"
        )
        theorem = "linear_G1, pocket_returns"
    return CoqClaim("pocket", theorem, stated, _section(variant.name, "pocket", stated, body))


def _bias(variant: Variant) -> CoqClaim:
    from ...numbers import dot

    c_of: Callable[[Case], Any] = variant.c  # type: ignore[attr-defined]
    TH, CS = sp.symbols("th c")
    rows: dict[str, list[list[Any]]] = {"C": [], "g": [], "uu": []}
    targets: dict[str, list[Any]] = {"C": [], "g": [], "uu": []}
    cs = set()
    for case in own_cases(variant):
        theta, c = Fraction(case.params["theta"]), Fraction(c_of(case))
        if (
            c == 0
            or min(
                yi * (Fraction(dot(case.u, x)) + theta)
                for x, yi in zip(case.X, case.y, strict=True)
            )
            < case.gamma
            or case.gamma <= 0
        ):
            continue
        cs.add(c)
        claim = variant.claim(case)
        rows["C"].append([case.radius_squared, c * c])
        rows["g"].append([case.gamma])
        rows["uu"].append([case.uu, theta * theta / (c * c)])
        targets["C"].append(claim.C)
        targets["g"].append(claim.g)
        targets["uu"].append(claim.uu)
    if not rows["C"]:
        raise _Unfit("no case of its own domain meets the affine margin")
    constant = next(iter(cs)) if len(cs) == 1 else None
    if constant is not None:  # c fixed by the rule: the C basis is R^2 and 1
        rows["C"] = [[r[0], 1] for r in rows["C"]]
    cC = fit(rows["C"], targets["C"], "C")
    cg = fit(rows["g"], targets["g"], "g")
    cu = fit(rows["uu"], targets["uu"], "|u|^2")
    csym: Any = CS if constant is None else sp.Rational(constant.numerator, constant.denominator)
    C = _combine(cC, [R2, CS**2 if constant is None else sp.Integer(1)])
    g = _combine(cg, [GAM])
    U = _combine(cu, [UU, TH**2 / csym**2])
    cvar = "Variable c : R.\nHypothesis c_nonzero : c <> 0.\n" if constant is None else ""
    cterm = "c" if constant is None else _term(csym)
    cnz = "c_nonzero" if constant is None else "ltac:(lra)"
    body = f"""{_DATA}Variable th : R.
{cvar}Hypothesis affine_margin : forall p, (1 <= p <= n)%nat -> Y p * (dot d u (X p) + th) >= gam.

Corollary claim_bound : forall k w,
  reach (linear_step (S d) n (fun p => aug d (X p) {cterm}) Y 1 0 (fun _ => 1)) (fun _ => 0) k w ->
  INR k * {_term(g)} ^ 2 <= {_term(C)} * {_term(U)}.
Proof.
  intros k w H.
  pose proof (bias_claim d n X Y u gam R2 labels radius radius_nonneg margin_pos some_point
    {cterm} th {cnz} affine_margin k w H) as B. unfold uu.
  {
        _close(
            _term(g),
            "gam",
            f"{_term(C)} * {_term(U, {'uu': '(norm2 d u)'})}",
            f"(R2 + {cterm} ^ 2) * (norm2 d u + (th / {cterm}) ^ 2)",
        )
    }
Qed."""
    stated = (
        f"k g^2 <= C U for the points augmented to (x, {_show(csym)}), "
        f"(C, g, U) = ({_show(C)}, {_show(g)}, {_show(U)})"
    )
    return CoqClaim("bias", "bias_claim", stated, _section(variant.name, "bias", stated, body))


def _kernel(variant: Variant) -> CoqClaim:
    K = variant.kernel()  # type: ignore[attr-defined]
    rows: dict[str, list[list[Any]]] = {"C": [], "g": [], "uu": []}
    targets: dict[str, list[Any]] = {"C": [], "g": [], "uu": []}
    for case in own_cases(variant, 20):
        anchors = case.params["anchors"]
        h = [sum((b * K(a, x) for a, b in zip(anchors, case.u, strict=True)), Fraction(0))
             for x in case.X]  # fmt: skip
        gH = min(yi * hi for yi, hi in zip(case.y, h, strict=True))
        if not gH > 0:
            continue
        rk = max(K(x, x) for x in case.X)
        uuH = sum(
            (b1 * b2 * K(a1, a2) for a1, b1 in zip(anchors, case.u, strict=True)
             for a2, b2 in zip(anchors, case.u, strict=True)),
            Fraction(0),
        )  # fmt: skip
        claim = variant.claim(case)
        for key, basis, value in (("C", rk, claim.C), ("g", gH, claim.g), ("uu", uuH, claim.uu)):
            rows[key].append([basis])
            targets[key].append(value)
    if not rows["C"]:
        raise _Unfit("no case of its own domain has a positive margin in feature space")
    C = _combine(fit(rows["C"], targets["C"], "C"), [R2])
    g = _combine(fit(rows["g"], targets["g"], "g"), [GAM])
    U = _combine(fit(rows["uu"], targets["uu"], "|u|^2"), [UU])
    body = f"""Variable H : Type.
Variable hzero : H.
Variable hadd : H -> H -> H.
Variable hscale : R -> H -> H.
Variable ip : H -> H -> R.
Hypothesis ip_sym : forall a b, ip a b = ip b a.
Hypothesis ip_add_l : forall a b c, ip (hadd a b) c = ip a c + ip b c.
Hypothesis ip_scale_l : forall t a b, ip (hscale t a) b = t * ip a b.
Hypothesis ip_zero_l : forall b, ip hzero b = 0.
Hypothesis ip_pos : forall a, ip a a >= 0.
Variable n : nat.
Variable phi : nat -> H.
Variable Y : nat -> R.
Variable u : H.
Variables gam R2 : R.
Hypothesis labels : forall p, (1 <= p <= n)%nat -> Y p ^ 2 = 1.
Hypothesis radius : forall p, (1 <= p <= n)%nat -> ip (phi p) (phi p) <= R2.
Hypothesis radius_nonneg : 0 <= R2.
Hypothesis margin : forall p, (1 <= p <= n)%nat -> Y p * ip u (phi p) >= gam.
Hypothesis margin_pos : gam > 0.
Let uu : R := ip u u.

Corollary claim_bound : forall k w, kernel_run H hzero hadd hscale ip n phi Y k w ->
  INR k * {_term(g)} ^ 2 <= {_term(C)} * {_term(U)}.
Proof.
  intros k w Hr.
  pose proof (kernel_claim H hzero hadd hscale ip ip_sym ip_add_l ip_scale_l ip_zero_l ip_pos
    n phi Y u gam R2 labels radius radius_nonneg margin margin_pos k w Hr) as B. unfold uu.
  {_close(_term(g), "gam", f"{_term(C)} * {_term(U, {'uu': '(ip u u)'})}", "R2 * ip u u")}
Qed."""
    stated = (
        f"k g^2 <= C U in the kernel's feature space, (C, g, U) = "
        f"({_show(C)}, {_show(g)}, {_show(U)}) with R^2 = max K(x, x), gamma = min y u.phi(x)"
    )
    text = _section(variant.name, "kernel", stated, body)
    return CoqClaim("kernel", "kernel_claim", stated, text)


def _norm(v: Fraction) -> Fraction | None:
    p, q = v.numerator, v.denominator
    rp, rq = math.isqrt(p), math.isqrt(q)
    return Fraction(rp, rq) if rp * rp == p and rq * rq == q else None


def _normalised(variant: LinearVariant) -> CoqClaim:
    from ...numbers import dot, norm2

    GN = sp.Symbol("gn")
    rows: dict[str, list[list[Any]]] = {"C": [], "g": [], "uu": []}
    targets: dict[str, list[Any]] = {"C": [], "g": [], "uu": []}
    for case in own_cases(variant):
        norms = [_norm(Fraction(norm2(x))) for x in case.X]
        if any(v is None or v == 0 for v in norms):
            continue
        factors = variant.factors(case)
        if factors is None or [Fraction(a) for a in factors] != [1 / v for v in norms if v]:
            raise _Unfit("its factors are not 1/|x| (the normalised rule)")
        gn = min(
            yi * Fraction(dot(case.u, x)) / v
            for x, yi, v in zip(case.X, case.y, norms, strict=True)
            if v
        )
        claim = variant.claim(case)
        for key, basis, value in (("C", 1, claim.C), ("g", gn, claim.g), ("uu", case.uu, claim.uu)):
            rows[key].append([basis])
            targets[key].append(value)
    if not rows["C"]:
        raise _Unfit("no case of its own domain has rational norms")
    C = _combine(fit(rows["C"], targets["C"], "C"), [sp.Integer(1)])
    g = _combine(fit(rows["g"], targets["g"], "g"), [GN])
    U = _combine(fit(rows["uu"], targets["uu"], "|u|^2"), [UU])
    body = f"""{_DATA}Hypothesis margin : forall p, (1 <= p <= n)%nat -> Y p * dot d u (X p) >= gam.
Variable a : nat -> R.
Variable gn : R.
Hypothesis factors : forall p, (1 <= p <= n)%nat -> a p > 0 /\\ a p ^ 2 * norm2 d (X p) = 1.
Hypothesis normalised_margin : forall p, (1 <= p <= n)%nat -> a p * (Y p * dot d u (X p)) >= gn.
Hypothesis gn_pos : gn > 0.

Corollary claim_bound : forall k w, reach (linear_step d n X Y 1 0 a) (fun _ => 0) k w ->
  INR k * {_term(g)} ^ 2 <= {_term(C)} * {_term(U)}.
Proof.
  intros k w H.
  pose proof (normalised_claim d n X Y u gam labels margin margin_pos some_point a gn factors
    normalised_margin gn_pos k w H) as B. unfold uu.
  {_close(_term(g), "gn", f"{_term(C)} * {_term(U, {'uu': '(norm2 d u)'})}", "1 * norm2 d u")}
Qed."""
    stated = (
        f"k g^2 <= C U for the update y x/|x|, (C, g, U) = ({_show(C)}, {_show(g)}, {_show(U)}) "
        "with gn = min y u.x/|x|"
    )
    return CoqClaim(
        "normalised", "normalised_claim", stated, _section(variant.name, "normalised", stated, body)
    )


def _start(variant: LinearVariant) -> CoqClaim:
    from ...numbers import dot, norm2

    PU, SS = sp.symbols("pu0 s")
    rows: list[list[Any]] = []
    targets: list[Any] = []
    for case in own_cases(variant):
        w0 = [Fraction(v) for v in variant.start(case)]
        claim = variant.claim(case)
        s = _norm(Fraction(norm2(w0)) * case.uu)
        if s is None or claim.bound is None or isinstance(claim.bound, tuple):
            continue
        pu0, g = Fraction(dot(case.u, w0)), case.gamma
        rows.append([case.radius_squared * case.uu / g**2, (s - pu0) / g])
        targets.append(claim.bound)
    if not rows:
        raise _Unfit("its claim states no bound k <= B on cases where |w0| |u| is rational")
    B = _combine(fit(rows, targets, "bound"), [R2 * UU / GAM**2, (SS - PU) / GAM])
    body = f"""{_DATA}Hypothesis margin : forall p, (1 <= p <= n)%nat -> Y p * dot d u (X p) >= gam.
Variable w0 : nat -> R.
Let pu0 : R := dot d u w0.

(* s: any upper bound of |w0| |u| (the claim's rational one) *)
Corollary claim_bound : forall s k w, s >= 0 -> norm2 d w0 * norm2 d u <= s ^ 2 ->
  reach (linear_step d n X Y 1 0 (fun _ => 1)) w0 k w -> INR k <= {_term(B)}.
Proof.
  intros s k w Hs Hn H.
  pose proof (start_explicit_claim d n X Y u gam R2 labels radius radius_nonneg margin margin_pos
    some_point w0 s k w Hs Hn H) as B. unfold uu, pu0.
  first [ (assert (E : {_term(B, {"uu": "(norm2 d u)", "pu0": "(dot d u w0)"})}
      = R2 * norm2 d u / gam ^ 2 + 2 * (s - dot d u w0) / gam) by (field; lra); lra) | nra ].
Qed."""
    stated = f"k <= {_show(B)} from w0, s >= |w0| |u| (the catalog's explicit bound)"
    return CoqClaim(
        "start", "start_explicit_claim", stated, _section(variant.name, "start", stated, body)
    )


def _strict(variant: LinearVariant, params: Sequence[str]) -> CoqClaim:
    claim = _symbolic_claim(variant, params)
    if not claim.strict or claim.C is None or claim.g is None or claim.bound is not None:
        raise _Unfit("its claim is not a strict (C, g) bound")
    if not _is_uu(claim.uu):
        raise _Unfit("its claim's |u|^2 is not the comparator's")
    C, g = sp.sympify(claim.C), sp.sympify(claim.g)
    names = {p: f"p_{p}" for p in params}
    for case in own_cases(variant, 20):  # the hypothesis y u.x > g holds on its own cases
        gv = variant.claim(case).g
        if not 0 <= gv < case.gamma:
            raise _Unfit(f"its claim's g = {gv} is not in [0, gamma) on its case {case.name}")
    pvars = "".join(f"Variable p_{p} : R.\n" for p in params)
    gt = _term(g, names)
    body = f"""{_DATA}{pvars}Hypothesis margin_strict :
  forall p, (1 <= p <= n)%nat -> Y p * dot d u (X p) > {gt}.
Hypothesis g_nonneg : {gt} >= 0.

Corollary claim_bound : forall k w, (k >= 1)%nat ->
  reach (linear_step d n X Y 1 0 (fun _ => 1)) (fun _ => 0) k w ->
  INR k * {gt} ^ 2 < {_term(C, names)} * uu.
Proof.
  intros k w K H.
  pose proof (classic_strict_claim d n X Y u ({gt}) R2 labels radius margin_strict g_nonneg
    k w K H) as B. unfold uu.
  first [ (assert (E : {_term(C, names)} * norm2 d u = R2 * norm2 d u) by ring; lra) | nra ].
Qed."""
    stated = f"y u.x > g >= 0 gives k g^2 < C |u|^2 with (C, g) = ({_show(C)}, {_show(g)})"
    return CoqClaim(
        "strict", "classic_strict_claim", stated, _section(variant.name, "strict", stated, body)
    )


def _declared(variant: Variant, template_reason: str) -> CoqClaim | NoCoqClaim:
    """A declared linear rule the template did not take: a nonzero start, per-point
    factors (normalised) or a strict claim."""
    assert isinstance(variant, LinearVariant)
    cases = own_cases(variant, 8)
    if not cases:
        return NoCoqClaim(f"{template_reason} (and no case of its own domain to read)")
    if variant.written_in_python():
        return NoCoqClaim(f"{template_reason} (its trigger or step is written by hand)")
    for case in cases:  # the corollaries below are for the classic trigger and step
        if variant.eta(case) != 1 or variant.tau(case) != 0:
            return NoCoqClaim(f"{template_reason} (and its rule is not eta = 1, tau = 0)")
    if any(Fraction(v) != 0 for case in cases for v in variant.start(case)):
        return _start(variant)
    if any(variant.factors(case) is not None for case in cases):
        return _normalised(variant)
    if all(variant.claim(case).strict for case in cases):
        return _strict(variant, sorted(cases[0].params))
    return NoCoqClaim(template_reason)


def coq_claim(variant: Variant, template_reason: str = "") -> CoqClaim | DeclaredRule | NoCoqClaim:
    """The Coq corollary generated from the variant's own rule and claim (a
    :class:`DeclaredRule` when its statement is the linear template's), or why there is
    none; ``template_reason``: why the template did not read it."""
    family = family_of(variant)
    if isinstance(family, NoCoqClaim):
        return family
    try:
        if family == "declared":
            return _declared(variant, template_reason)
        if family == "passes":
            return _passes(variant)
        return {
            "bias": _bias,
            "kernel": _kernel,
            "multiclass": _multiclass,
            "pocket": _pocket,
        }[family](variant)
    except _Unfit as exc:
        return NoCoqClaim(f"{family} shape: {exc}")
