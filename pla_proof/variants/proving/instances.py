"""A variant's own claim, proved: the generic lemma's instance obligations for its rule.

For a rule of the linear template (:mod:`pla_proof.variants.proving.declared`: update while
``y w.x <= tau`` by ``w <- w + eta y x`` from ``w = 0``) and a claimed ``(C, g)`` --
formulas in ``R2`` (the squared radius), ``gamma`` (the comparator's margin) and ``uu``
(``|u|^2``) -- the claim ``k g^2 <= C |u|^2`` follows from the generic lemma once these
hold for every data set (``gamma > 0``, ``uu > 0``, ``gamma^2 <= R2 uu``):

- ``ETA``: ``eta > 0``;
- ``G1`` (growth): ``s <= tau, 0 <= |x|^2 <= R2  =>  2 eta s + eta^2 |x|^2 <= C``, where
  ``s = y w.x`` (``|w + eta y x|^2 - |w|^2`` is that sum, as ``y^2 = 1``);
- ``G2`` (progress): ``y u.x >= gamma  =>  eta y u.x >= g``;
- ``POS``: ``g > 0`` and ``C >= 0``;
- ``SEP`` (when the claim says the run ends separating): no trigger, ``s > tau``,
  implies ``s > 0``.

Z3 discharges each (a model of its negation refutes it); Coq proves the claim itself as
a corollary of the development's ``generic_bound_from_zero`` with ``linear_G1`` and
``linear_G2``, compiled after the same export ``verify --coq`` compiles
(:func:`coq_text`).  A refuted obligation means the generic lemma cannot give the claim
for this rule, not that the claim is false on some data set: the search decides that.

>>> from pla_proof.examples.half_step_margin import variant, forgetful
>>> p = prove_claim(variant)
>>> p.status, [o.id for o in p.obligations]
('proved', ['ETA', 'G1', 'G2', 'POS', 'SEP'])
>>> q = prove_claim(forgetful)
>>> q.status, q.failed[0].id, q.failed[0].verdict.status
('refuted', 'G1', 'refuted')
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ...errors import InputError
from ...proof.verdicts import Verdict
from ..boundary.limits import DEFAULT_TIME_LIMIT
from ..protocol.variant import Variant
from .assumptions import unexercised
from .declared import DeclaredRule, NotDeclarative, read_plain, read_rule

__all__ = [
    "ClaimProof",
    "InstanceObligation",
    "coq_text",
    "instance_obligations",
    "plain_obligations",
    "prove_claim",
]

if TYPE_CHECKING:
    #: The obligations' own symbols: ``y w.x``, ``|x|^2`` and ``y u.x``.
    S: Any
    NX: Any
    P: Any


def __getattr__(name: str) -> Any:
    """``S``, ``NX`` and ``P`` (SymPy symbols), made on first use: a claim proved
    without SymPy (:func:`prove_claim`) imports none."""
    if name not in ("S", "NX", "P"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return dict(zip(("S", "NX", "P"), _symbols(), strict=True))[name]


def _symbols() -> tuple[Any, Any, Any]:
    import sympy as sp

    s, xx, p = sp.symbols("s xx p")  # y w.x, |x|^2, y u.x
    globals().update(S=s, NX=xx, P=p)
    return s, xx, p


#: The properties of the harness a proof of the claim covers (SEP when proved too).
PROVED_PROPERTIES = ("G1", "G2", "P_k", "Q_k", "L4", "T")


@dataclass(frozen=True)
class InstanceObligation:
    """One obligation of the claim: its hypotheses and conclusion (SymPy), the text
    shown to users, and Z3's verdict."""

    id: str
    text: str
    hypotheses: tuple[Any, ...]
    conclusion: Any
    verdict: Verdict


@dataclass
class ClaimProof:
    """The outcome of proving a variant's claim: ``status`` is ``proved`` (every
    obligation by Z3, and by Coq when it ran), ``refuted`` (an obligation has a
    counterexample), ``unknown``, ``failed`` (Coq rejected what Z3 proved),
    ``not declarative`` (``reason`` says why: the claim is tested, not proved) or
    ``not exercised`` (the obligations hold, but the search ran no case that met every
    assumption: ``reason`` says what it met instead; see :meth:`exercised`)."""

    rule: DeclaredRule | None
    reason: str = ""
    obligations: list[InstanceObligation] = field(default_factory=list)
    #: ``proved`` / ``failed: ...`` / ``None`` (Coq did not run)
    coq: str | None = None
    coq_seconds: float | None = None
    #: with Coq, for a claim the template does not read: the generated corollary (its
    #: development theorem and its statement), or why none is generated
    coq_theorem: str | None = None
    coq_statement: str | None = None
    coq_reason: str = ""
    #: the generated Coq section itself
    coq_text: str | None = None

    @property
    def failed(self) -> list[InstanceObligation]:
        return [o for o in self.obligations if not o.verdict.proved]

    @property
    def status(self) -> str:
        if self.rule is None:
            if self.coq_theorem is not None and self.coq is not None:
                return "proved" if self.coq == "proved" else "failed"
            return "not declarative"
        if any(o.verdict.status == "refuted" for o in self.obligations):
            return "refuted"
        if self.failed:
            return "unknown"
        if self.coq is not None and self.coq != "proved":
            return "failed"
        return "not exercised" if self.reason else "proved"

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    @property
    def properties(self) -> tuple[str, ...]:
        """The harness's properties this proof covers (none unless proved)."""
        if not self.proved:
            return ()
        if self.rule is None:  # a generated corollary: the claimed bound (or growth)
            return ("G1",) if self.coq_theorem == "linear_G1" else ("T",)
        return PROVED_PROPERTIES + (("SEP",) if self.rule.end == "SEP" else ())

    def provers(self) -> str:
        if self.rule is None:
            return "Coq"
        return "Z3 and Coq" if self.coq == "proved" else "Z3"

    def exercised(self, runs: int, skipped: int, reasons: Mapping[str, int]) -> ClaimProof:
        """This proof, judged with the search that checked the same claim: still proved
        when the search ran a case (every case it runs meets every assumption), else
        ``not exercised``, saying what the ``skipped`` cases did not meet (``reasons``:
        the search's skip reasons, counted)."""
        if not self.proved or runs or self.rule is None:
            return self
        return replace(self, reason=unexercised(self.rule.assumes, skipped, reasons))

    def describe(self) -> str:
        """One line for the report."""
        if self.rule is None:
            return self._describe_generated()
        head = (
            f"rule {self.rule.rule_text()} ({self.rule.how}); "
            f"claim (C, g) = ({show(self.rule.C)}, {show(self.rule.g)})"
        )
        if self.status == "not exercised":
            holds = (
                "the steps hold under the assumptions, but no case met them all"
                if self.rule.assumes
                else "the steps hold, but no case was run"
            )
            ids = ", ".join(o.id for o in self.obligations)
            return (
                f"{holds}: not exercised ({self.reason}); {head}; obligations {ids} hold "
                f"by {self.provers()}"
            )
        if self.proved:
            given = "".join(f" and {show(a)}" for a in self.rule.assumptions)
            return (
                f"PROVED by {self.provers()}: {head}; obligations "
                + ", ".join(o.id for o in self.obligations)
                + f" hold for every data set{given}, so P_k, Q_k and k g^2 <= C |u|^2 follow "
                "by the generic lemma (Coq: generic_bound_from_zero)"
            )
        bad = self.failed[0] if self.failed else None
        why = (
            f"{bad.id} ({bad.text}) is {bad.verdict.status}: {bad.verdict.detail}"
            if bad is not None
            else f"Coq {self.coq}"
        )
        if self.status == "refuted":
            why += (
                " -- the generic lemma cannot give this claim for every data set; whether it "
                "fails on the variant's own data (a restriction of its domain is not known to "
                "the provers) is the search's to say"
            )
        return f"NOT PROVED ({self.status}): {head}; {why}"

    def _describe_generated(self) -> str:
        if self.coq_theorem is None or self.coq is None:
            why = f"; Coq: {self.coq_reason}" if self.coq_reason else ""
            return f"tested, not proved: {self.reason}{why}"
        head = (
            f"the corollary generated from its rule and claim ({self.coq_statement}), from "
            f"the development's {self.coq_theorem}"
        )
        if self.coq == "proved":
            return f"PROVED by Coq: {head}; (Z3: {self.reason})"
        return f"NOT PROVED (failed): {head}; Coq {self.coq}"


def show(expr: Any) -> str:
    """A formula as the report writes it.

    >>> from pla_proof.variants.proving.assumptions import R2
    >>> from pla_proof.variants.proving.instances import NX, S
    >>> show(R2 / 4 + 1), show(2 * S + NX)
    ('R^2/4 + 1', '2 s + |x|^2')
    """
    text = str(expr).replace("**", "^").replace("*", " ")
    for a, b in (("xx", "|x|^2"), ("R2", "R^2"), ("uu", "|u|^2")):
        text = re.sub(rf"\b{a}\b", b, text)
    return text


def _hypotheses() -> list[Any]:
    """The facts of every case (``gamma > 0``, ``uu > 0``, ``R2 > 0``, ``gamma^2 <= R2 uu``)."""
    from .assumptions import CASE_FACTS

    return [fact for fact, _ in CASE_FACTS]


def _texts(rule: DeclaredRule, grow: str) -> list[tuple[str, str]]:
    """The obligations' ids and texts, as the report writes them (``grow``: the growth
    ``2 eta s + eta^2 |x|^2`` as :func:`show` writes it)."""
    eta, tau, C, g = rule.eta, rule.tau, rule.C, rule.g
    le = "<" if rule.strict else "<="
    out = [
        ("ETA", "eta > 0" if str(eta) == "eta" else f"eta = {show(eta)} > 0"),
        ("G1", f"s {le} {tau}, 0 <= |x|^2 <= R^2 => {grow} <= {show(C)}"),
        ("G2", f"y u.x >= gamma => {show(eta)} y u.x >= {show(g)}"),
        ("POS", f"g = {show(g)} > 0 and C = {show(C)} >= 0"),
    ]
    if rule.end == "SEP":
        out.append(("SEP", f"no trigger (s {'>=' if rule.strict else '>'} {tau}) => s > 0"))
    return out


def instance_obligations(rule: DeclaredRule) -> list[tuple[str, str, list[Any], Any]]:
    """The obligations ``(id, text, hypotheses, conclusion)`` of a declared rule.

    >>> from pla_proof.variants import resolve
    >>> from pla_proof.variants.proving.declared import read_rule
    >>> [t for _, t, _, _ in instance_obligations(read_rule(resolve("classic")))][1]
    's <= 0, 0 <= |x|^2 <= R^2 => 2 s + |x|^2 <= R^2'
    """
    import sympy as sp

    from .assumptions import GAMMA, R2

    S, NX, P = _symbols()
    eta, tau, C, g = rule.eta, rule.tau, rule.C, rule.g
    H = [*_hypotheses(), *rule.assumptions]
    trig = sp.Lt(S, tau) if rule.strict else sp.Le(S, tau)
    grow = sp.expand(2 * eta * S + eta**2 * NX)
    texts = dict(_texts(rule, show(grow)))
    out = [
        ("ETA", texts["ETA"], H, eta > 0),
        ("G1", texts["G1"], [*H, trig, NX >= 0, NX <= R2], grow <= C),
        ("G2", texts["G2"], [*H, P >= GAMMA], eta * P >= g),
        ("POS", texts["POS"], H, sp.And(g > 0, C >= 0)),
    ]
    if rule.end == "SEP":
        stop = sp.Ge(S, tau) if rule.strict else sp.Gt(S, tau)
        out.append(("SEP", texts["SEP"], [*H, stop], S > 0))
    return out


def plain_obligations(rule: DeclaredRule) -> list[tuple[str, str, list[Any], Any]]:
    """:func:`instance_obligations` of a rule read without SymPy
    (:func:`~pla_proof.variants.proving.declared.read_plain`: ``eta >= 1`` and ``tau``
    integers, ``C`` and ``g`` integers or symbols), written directly in Z3 over the
    reals: the same statements, with the same texts.

    >>> from pla_proof.variants import resolve
    >>> from pla_proof.variants.proving.declared import read_plain
    >>> [(i, t) for i, t, _, _ in plain_obligations(read_plain(resolve("classic")))][1]
    ('G1', 's <= 0, 0 <= |x|^2 <= R^2 => 2 s + |x|^2 <= R^2')
    """
    import z3

    env: dict[str, Any] = {}

    def real(name: str) -> Any:
        return env.setdefault(name, z3.Real(name))

    def term(v: Any) -> Any:
        return z3.RealVal(v) if isinstance(v, int) else real(str(v))

    eta, tau, C, g = (term(v) for v in (rule.eta, rule.tau, rule.C, rule.g))
    gamma, uu, r2 = real("gamma"), real("uu"), real("R2")
    s, xx, p = real("s"), real("xx"), real("p")
    H = [gamma > 0, uu > 0, r2 > 0, gamma * gamma <= r2 * uu]  # assumptions.CASE_FACTS
    a, b = 2 * rule.eta, rule.eta**2  # the growth 2 eta s + eta^2 |x|^2, as SymPy writes it
    grow = show(f"{a}*s + " + ("xx" if b == 1 else f"{b}*xx"))
    texts = dict(_texts(rule, grow))
    out = [
        ("ETA", texts["ETA"], H, eta > 0),
        ("G1", texts["G1"], [*H, s < tau if rule.strict else s <= tau, xx >= 0, xx <= r2],
         a * s + b * xx <= C),
        ("G2", texts["G2"], [*H, p >= gamma], eta * p >= g),
        ("POS", texts["POS"], H, z3.And(g > 0, C >= 0)),
    ]  # fmt: skip
    if rule.end == "SEP":
        out.append(("SEP", texts["SEP"], [*H, s >= tau if rule.strict else s > tau], s > 0))
    return out


def _prove_plain(rule: DeclaredRule) -> ClaimProof | None:
    """The claim of a rule read without SymPy, proved by Z3 alone (its obligations'
    hypotheses and conclusions are then Z3's formulas); ``None`` unless every obligation
    is proved (a refuted or undecided one is reported as :func:`instance_obligations`
    states it)."""
    from ...proof.solving import decide

    proof = ClaimProof(rule)
    for oid, text, hyps, concl in plain_obligations(rule):
        verdict = decide(hyps, concl, {})
        if not verdict.proved:
            return None
        proof.obligations.append(InstanceObligation(oid, text, tuple(hyps), concl, verdict))
    return proof


def prove_claim(
    variant: Variant,
    *,
    coq: bool = False,
    coqc: str | None = None,
    timeout: float = 600,
    limit: float | None = DEFAULT_TIME_LIMIT,
    plain: bool = True,
) -> ClaimProof:
    """Read the variant's rule (its hooks under the per-run ``limit``) and prove its
    claim (Z3; Coq too with ``coq``).

    A built-in variant whose rule reads plainly
    (:func:`~pla_proof.variants.proving.declared.read_plain`: integers and the symbols
    themselves) is read and proved without SymPy -- the same obligations, the same
    texts, written in Z3 directly (:func:`plain_obligations`) -- when every obligation
    is proved; ``plain=False`` reads every rule through SymPy."""
    if plain and not coq and type(variant).__module__.startswith("pla_proof."):
        read = read_plain(variant, limit)  # no SymPy: the rule's own numbers and symbols
        proved = _prove_plain(read) if read is not None else None
        if proved is not None:
            return proved
    rule = read_rule(variant, limit)
    if isinstance(rule, NotDeclarative):
        if not coq:
            return ClaimProof(None, rule.reason)
        generated = _generated(variant, rule.reason, limit)
        if isinstance(generated, ClaimProof):
            if generated.coq_text is not None:
                generated.coq, generated.coq_seconds = run_corollary(
                    generated.coq_text, coqc, timeout
                )
            return generated
        rule = generated
    from ...proof.implications import check_implication

    proof = ClaimProof(rule)
    for oid, text, hyps, concl in instance_obligations(rule):
        try:
            verdict = check_implication(hyps, concl)
        except Exception as exc:  # a formula Z3 cannot take (a square root, say)
            verdict = Verdict("error", f"{type(exc).__name__}: {exc}")
        proof.obligations.append(InstanceObligation(oid, text, tuple(hyps), concl, verdict))
    if coq:
        proof.coq, proof.coq_seconds = _run_coq(rule, variant.name, coqc, timeout)
    return proof


# --- Coq -------------------------------------------------------------------------------------


def _generated(variant: Variant, reason: str, limit: float | None) -> ClaimProof | DeclaredRule:
    """With Coq, a claim the template did not read: the corollary generated for its shape
    (a ClaimProof holding the Coq text until it is compiled), the template's rule for
    training in passes, or the reason there is none."""
    from ..boundary.limits import TOTAL_FACTOR, RunTimeout, time_limit
    from .families import CoqClaim, coq_claim

    try:
        with time_limit(None if limit is None else TOTAL_FACTOR * limit):
            found = coq_claim(variant, reason)
    except RunTimeout:
        return ClaimProof(None, reason, coq_reason="reading its claim did not return in time")
    except Exception as exc:  # the variant's own code, called on its own cases
        return ClaimProof(None, reason, coq_reason=f"reading its claim raised {exc!r}")
    if isinstance(found, DeclaredRule):
        return found
    if isinstance(found, CoqClaim):
        return ClaimProof(
            None,
            reason,
            coq_theorem=found.theorem,
            coq_statement=found.statement,
            coq_text=found.text,
        )
    return ClaimProof(None, reason, coq_reason=found.reason)


def _coq_term(e: Any, parameters: tuple[str, ...] = ()) -> str:
    """A formula of the claim as a Coq term (a parameter ``eta`` is ``p_eta`` there)."""
    import sympy as sp

    from ...proof.coq import coq_term

    e = sp.sympify(e)
    names = {str(sym): sym for sym in e.free_symbols}
    subs = {names[p]: sp.Symbol(f"p_{p}") for p in parameters if p in names}
    return coq_term(e.subs(subs))


def coq_text(rule: DeclaredRule, name: str) -> str:
    """The claim as a Coq section proved from the development (appended to the full
    export).  A strict trigger's runs are runs of the non-strict rule, so the bound is
    proved for the latter.

    >>> from pla_proof.variants import resolve
    >>> from pla_proof.variants.proving.declared import read_rule
    >>> "Corollary claim_bound" in coq_text(read_rule(resolve("classic")), "classic")
    True
    """
    eta, tau, C, g = (_coq_term(v, rule.parameters) for v in (rule.eta, rule.tau, rule.C, rule.g))
    params = "".join(f"Variable p_{p} : R.\n" for p in rule.parameters)
    assumed = "".join(
        f"Hypothesis assumed_{i} : {_coq_prop(a, rule.parameters)}.\n"
        for i, a in enumerate(rule.assumptions)
    )
    trig = f"Y p * dot d w (X p) {'<' if rule.strict else '<='} {tau}"
    stop_tactic = "intros w H p Hp. pose proof (H p Hp). nra."
    sep = (
        f"""
(* the run stops only on a separating w: no trigger means y w.x > 0 *)
Theorem claim_stops_separating : forall w,
  (forall p, (1 <= p <= n)%nat -> ~ ({trig})) ->
  forall p, (1 <= p <= n)%nat -> Y p * dot d w (X p) > 0.
Proof. {stop_tactic} Qed.
"""
        if rule.end == "SEP"
        else ""
    )
    return f"""
(* ===================================================================== *)
(* The claim of the variant {name}, proved from the generic lemma:       *)
(* rule {rule.rule_text()}                                               *)
(* claim (C, g) = ({show(rule.C)}, {show(rule.g)})                        *)
(* ===================================================================== *)

Section Claim.

Variable d n : nat.
Variable X : nat -> nat -> R.
Variable Y : nat -> R.
Variable u : nat -> R.
Variables gam R2 : R.
Hypothesis labels : forall p, (1 <= p <= n)%nat -> Y p ^ 2 = 1.
Hypothesis radius : forall p, (1 <= p <= n)%nat -> norm2 d (X p) <= R2.
Hypothesis margin : forall p, (1 <= p <= n)%nat -> Y p * dot d u (X p) >= gam.
Hypothesis margin_pos : gam > 0.
Hypothesis some_point : (1 <= n)%nat.
{params}
Let uu : R := norm2 d u.
Let one : nat -> R := fun _ => 1.
{assumed}
Lemma claim_data : uu > 0 /\\ gam ^ 2 <= R2 * uu /\\ R2 > 0.
Proof.
  assert (U : uu > 0).
  {{ apply (norm2_pos_of_margin d u (X 1%nat) (Y 1%nat) gam margin_pos). apply margin. lia. }}
  assert (G : gam ^ 2 <= R2 * uu).
  {{ apply (margin_within_radius d u (X 1%nat) (Y 1%nat) gam R2); try apply labels;
    try apply margin; try apply radius; try lia; exact margin_pos. }}
  repeat split; [exact U | exact G | nra].
Qed.

Corollary claim_bound : forall k w,
  reach (linear_step d n X Y {eta} {tau} one) (fun _ => 0) k w ->
  INR k * {g} ^ 2 <= {C} * norm2 d u.
Proof.
  intros k w H. destruct claim_data as [U [G R]]. unfold uu in *.
  eapply generic_bound_from_zero; [ | | | exact U | | reflexivity | exact H].
  - apply (linear_G1 d n X Y {eta} {tau} one labels); [intros; unfold one; nra|].
    intros p Hp. unfold one. pose proof (radius p Hp). pose proof (kernel_sos d (X p)) as Sx.
    fold (norm2 d (X p)) in Sx. nra.
  - apply (linear_G2 d n X Y u {eta} {tau} one). intros p Hp. unfold one.
    pose proof (margin p Hp). nra.
  - nra.
  - nra.
Qed.
{sep}
End Claim.
"""


def _coq_prop(rel: Any, parameters: tuple[str, ...]) -> str:
    ops = {"<=": "<=", "<": "<", ">=": ">=", ">": ">"}
    return f"{_coq_term(rel.lhs, parameters)} {ops[rel.rel_op]} {_coq_term(rel.rhs, parameters)}"


def _run_coq(rule: DeclaredRule, name: str, coqc: str | None, timeout: float) -> tuple[str, float]:
    return run_corollary(coq_text(rule, name), coqc, timeout)


def run_corollary(text: str, coqc: str | None, timeout: float) -> tuple[str, float]:
    """Compile a generated corollary against the compiled development: ``proved`` or
    ``failed[ in THEOREM]: coqc's last lines``, and the seconds it took."""
    from ...proof.coq import COROLLARY_HEADER, compile_corollary

    binary = coqc or shutil.which("coqc")
    if binary is None:
        raise InputError("coqc not found: install Coq (Debian package 'coq') for --coq")
    proc, seconds = compile_corollary(binary, text, timeout)
    if proc is None:
        return "failed: coqc timed out or did not compile the development", seconds
    if proc.returncode == 0:
        return "proved", seconds
    output = (proc.stderr + proc.stdout).strip()
    found = re.search(r"line (\d+)", output)
    where = ""
    if found:
        full = COROLLARY_HEADER + text
        line = int(found.group(1))
        heads = [m for m in re.finditer(r"^(?:Corollary|Lemma|Theorem) (\w+)", full, re.M)]
        names = [m.group(1) for m in heads if full.count("\n", 0, m.start()) + 1 <= line]
        where = f" in {names[-1]}" if names else ""
    last = " ".join(output.splitlines()[-3:])
    return f"failed{where}: {last}", seconds
