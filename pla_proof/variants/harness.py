"""The checking harness: a variant's claim evaluated on its own runs, then searched.

:func:`evaluate` checks one run against the claim, property by property (the
generic lemma's G1 and G2 at every update, P_k and Q_k by induction, the
Cauchy-Schwarz step L4, the bound T, and the end condition SEP or SEP0, plus the
variant's own properties).  :func:`search` runs Hypothesis over the variant's
cases and orders and, for each property that fails anywhere, shrinks a minimal
counterexample.

>>> from pla_proof.variants.registry import resolve
>>> report = search(resolve("classic"), examples=20, seed=1)
>>> report.ok, [p.id for p in report.properties][:4]
(True, ['G1', 'G2', 'P_k', 'Q_k'])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable

from .protocol import _STOP, Case, Claim, Measure, Order, Record, Variant

__all__ = [
    "GENERIC_PROPERTIES",
    "CheckReport",
    "Counterexample",
    "Failure",
    "PropertyResult",
    "check_step",
    "evaluate",
    "run_case",
    "search",
]

#: id -> (lemma it instantiates, statement)
GENERIC_PROPERTIES: dict[str, tuple[str, str]] = {
    "G1": ("generic lemma G1 (classic: L6)", "growth |w_{k+1}|^2 - |w_k|^2 <= C at every update"),
    "G2": ("generic lemma G2 (classic: L2)", "progress u.w_{k+1} - u.w_k >= g at every update"),
    "P_k": ("L3", "u.w_k >= u.w_0 + k g after k updates"),
    "Q_k": ("L7", "|w_k|^2 <= |w_0|^2 + k C after k updates"),
    "L4": ("L4", "Cauchy-Schwarz (u.w)^2 <= |u|^2 |w|^2 (and |w|^2 >= 0)"),
    "T": ("T", "number of updates k <= claimed bound"),
    "SEP": ("SEP", "the returned predictor separates every point strictly"),
    "SEP0": ("seed 004", "the returned (w, b) predicts every label, with sign(0) = +1"),
}


@dataclass(frozen=True)
class Failure:
    """A property that failed on a run, with both sides' exact values."""

    prop: str
    k: int | None
    j: int | None
    lhs: Any
    op: str
    rhs: Any
    message: str = ""

    def describe(self) -> str:
        where = ""
        if self.k is not None:
            where = f" at update k={self.k}"
            if self.j is not None:
                where += f" (point {self.j + 1})"
        elif self.j is not None:
            where = f" at point {self.j + 1}"
        if self.message:
            return f"{self.prop} fails{where}: {self.message}"
        return f"{self.prop} fails{where}: {_show(self.lhs)} {self.op} {_show(self.rhs)} is false"


def _show(v: Any) -> str:
    from fractions import Fraction

    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return str(v)


def _le(a: Any, b: Any, strict: bool = False) -> bool:
    return bool(a < b) if strict else bool(a <= b)


def evaluate(claim: Claim, record: Record) -> dict[str, Failure | None]:
    """Every claimed property on one run: ``{id: first failure or None}``.

    Properties whose constants are not claimed are absent from the result.

    >>> from fractions import Fraction as F
    >>> from pla_proof.variants.protocol import Measure
    >>> rec = Record(steps=[Measure(1, 0, F(0), F(0), F(1), F(0), F(4))], end={"m": F(1), "j": 0})
    >>> res = evaluate(Claim(C=F(1), g=F(1), uu=F(1)), rec)
    >>> res["G1"].describe()
    'G1 fails at update k=1 (point 1): 4 <= 1 is false'
    >>> res["G2"] is None
    True
    """
    out: dict[str, Failure | None] = {}
    C, g, uu = claim.C, claim.g, claim.uu
    if C is not None:
        out["G1"] = None
        out["Q_k"] = None
    if g is not None:
        out["G2"] = None
        out["P_k"] = None
    if uu is not None:
        out["L4"] = None
    pair = claim.bound_pair()
    if pair is not None:
        out["T"] = None

    def fail(prop: str, f: Failure) -> None:
        if prop in out and out[prop] is None:
            out[prop] = f

    for s in record.steps:
        for f in check_step(claim, s, pair):
            fail(f.prop, f)
    end = claim.end
    if end == "SEP":
        m = record.end["m"]
        out["SEP"] = (
            None if m > 0 else Failure("SEP", None, record.end.get("j"), m, ">", 0, _sep_msg(m))
        )
    elif end == "SEP0":
        bad = record.end.get("sep0_bad")
        out["SEP0"] = (
            None
            if bad is None
            else Failure("SEP0", None, bad, record.end.get("sep0_value"), "", "", "mispredicted")
        )
    for prop, msg in record.checks.items():
        out[prop] = None if msg is None else Failure(prop, None, None, None, "", None, msg)
    return out


def check_step(claim: Claim, s: Measure, pair: tuple[Any, Any] | None = None) -> list[Failure]:
    """The per-update properties (G1, Q_k, G2, P_k, L4, T) that fail at one update."""
    out: list[Failure] = []
    C, g, uu = claim.C, claim.g, claim.uu
    if C is not None:
        if not s.n1 - s.n0 <= C:
            out.append(Failure("G1", s.k, s.j, s.n1 - s.n0, "<=", C))
        if not s.n1 <= claim.n0 + s.k * C:
            out.append(Failure("Q_k", s.k, s.j, s.n1, "<=", claim.n0 + s.k * C))
    if g is not None:
        if not s.pu1 - s.pu0 >= g:
            out.append(Failure("G2", s.k, s.j, s.pu1 - s.pu0, ">=", g))
        if not s.pu1 >= claim.pu0 + s.k * g:
            out.append(Failure("P_k", s.k, s.j, s.pu1, ">=", claim.pu0 + s.k * g))
    if uu is not None:
        if not s.n1 >= 0:
            out.append(Failure("L4", s.k, s.j, s.n1, ">=", 0, "|w|^2 < 0"))
        elif not s.pu1 * s.pu1 <= uu * s.n1:
            out.append(Failure("L4", s.k, s.j, s.pu1 * s.pu1, "<=", uu * s.n1))
    if pair is not None:
        num, den = pair
        rel = "<" if claim.strict else "<="
        if not _le(s.k * den, num, claim.strict):
            out.append(Failure("T", s.k, s.j, s.k * den, rel, num, _bound_msg(s.k, pair, rel)))
    return out


def _bound_msg(k: int, pair: tuple[Any, Any], rel: str) -> str:
    num, den = pair
    if den == 1:
        return f"k = {k} {rel} bound {_show(num)} is false"
    return f"k * den = {_show(k * den)} {rel} num = {_show(num)} is false (bound num/den)"


def _sep_msg(m: Any) -> str:
    return f"min_i y_i f(x_i) = {_show(m)}, not > 0"


def run_case(
    variant: Variant, case: Case, order: Order
) -> tuple[Record, dict[str, Failure | None]]:
    """Run ``variant`` on one case in one order and evaluate its claim."""
    rec = variant.run(case, order)
    res = evaluate(variant.claim(case), rec)
    if not rec.complete or rec.truncated:  # stopped early: the end condition is not decided
        for prop in ("SEP", "SEP0"):
            if prop in res:
                res[prop] = None
    return rec, res


@dataclass
class Counterexample:
    case: Case
    order: Order
    record: Record
    failure: Failure
    explicit: bool = False  # a fixed example (not found by the search)


@dataclass
class PropertyResult:
    id: str
    statement: str
    lemma: str
    counterexample: Counterexample | None = None

    @property
    def ok(self) -> bool:
        return self.counterexample is None


@dataclass
class CheckReport:
    variant: str
    examples: int
    seed: int
    properties: list[PropertyResult] = field(default_factory=list)
    runs: int = 0
    inconclusive: int = 0
    caught_by: str | None = None  # with ``first_only``: the first property refuted by the search

    @property
    def ok(self) -> bool:
        return all(p.ok for p in self.properties)

    @property
    def failed(self) -> list[PropertyResult]:
        return [p for p in self.properties if not p.ok]

    def result(self, prop: str) -> PropertyResult:
        for p in self.properties:
            if p.id == prop:
                return p
        raise KeyError(prop)


_ORDER_OF = list(GENERIC_PROPERTIES)


def _sort_key(prop: str) -> tuple[int, str]:
    return (_ORDER_OF.index(prop) if prop in _ORDER_OF else len(_ORDER_OF), prop)


def _when(variant: Variant, f: Failure | None, prop: str) -> tuple[float, int, str]:
    """Order failures in time: preconditions, then by update index, then end-of-run
    properties; ties by the proof's order."""
    if prop in variant.preconditions:
        k: float = -1
    elif f is not None and f.k is not None:
        k = f.k
    else:
        k = float("inf")
    return (k, *_sort_key(prop))


def _statement(variant: Variant, prop: str) -> tuple[str, str]:
    if prop in GENERIC_PROPERTIES:
        lem, text = GENERIC_PROPERTIES[prop]
        return text, lem
    extra: dict[str, str] = getattr(variant, "extra_properties", {})
    return extra.get(prop, prop), "variant"


def search(
    variant: Variant,
    *,
    examples: int = 200,
    seed: int = 0,
    extra_cases: Sequence[tuple[Case, Order]] = (),
    first_only: bool = False,
    progress: Callable[[str], None] | None = None,
) -> CheckReport:
    """Check every property of ``variant``'s claim over fixed examples and
    Hypothesis-generated cases and orders; shrink one counterexample per failing
    property (each search targets the properties not yet refuted).

    ``first_only``: stop after the first shrunk counterexample (the property that
    *catches* the variant: the first to fail on the minimal example).
    ``progress``: called with a short status line now and then (the CLI shows it on a
    terminal's stderr)."""
    report = CheckReport(variant.name, examples, seed)
    found: dict[str, Counterexample] = {}
    seen: set[str] = set()

    fixed = [(c, Order(r)) for c in variant.examples() for r in ("cyclic", "first")]
    fixed = [(c, o) for c, o in fixed if o.rule in variant.order_rules]
    for case, order in [*fixed, *extra_cases]:
        rec, res = run_case(variant, case, order)
        report.runs += 1
        seen.update(res)
        for prop, f in res.items():
            if f is not None and prop not in found:
                found[prop] = Counterexample(case, order, rec, f, explicit=True)

    strategy = st.tuples(variant.cases(), variant.orders())
    refuted: set[str] = set()
    cfg = settings(
        max_examples=examples,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=False,
        phases=(Phase.generate, Phase.shrink),  # no explain phase: it traces every line
    )

    while True:
        target = set(refuted)

        def fails(ex: tuple[Case, Order], target: set[str] = target) -> bool:
            case, order = ex
            claim = variant.claim(case)
            pair = claim.bound_pair()

            def stop(rec: Record) -> bool:
                if any(m is not None and p not in target for p, m in rec.checks.items()):
                    return True
                if not rec.steps:
                    return False
                return any(f.prop not in target for f in check_step(claim, rec.steps[-1], pair))

            token = _STOP.set(stop)
            try:
                rec, res = run_case(variant, case, order)
            finally:
                _STOP.reset(token)
            report.runs += 1
            seen.update(res)
            if not rec.complete:
                report.inconclusive += 1
            if progress is not None and report.runs % 25 == 0:
                refuted_text = ", ".join(sorted(target)) or "none"
                progress(f"{variant.name}: {report.runs} runs, refuted so far: {refuted_text}")
            return any(f is not None and p not in target for p, f in res.items())

        try:
            case, order = find(strategy, fails, settings=cfg, random=random.Random(seed))
        except (NoSuchExample, Unsatisfiable):
            break
        rec, res = run_case(variant, case, order)
        failing = sorted(
            (p for p, f in res.items() if f is not None and p not in refuted),
            key=lambda p: _when(variant, res[p], p),
        )
        if not failing:  # pragma: no cover - find returned a non-failing example
            break
        prop = failing[0]
        refuted.add(prop)
        fail = res[prop]
        assert fail is not None
        found[prop] = Counterexample(case, order, rec, fail)
        if first_only:
            report.caught_by = prop
            break

    for prop in sorted(seen | set(found), key=_sort_key):
        text, lem = _statement(variant, prop)
        report.properties.append(PropertyResult(prop, text, lem, found.get(prop)))
    return report
