"""Reading a variant's rule as the linear template: declared hooks are read as declared,
hand-written triggers/step by exact probes -- and what is not the template is named."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

import sympy as sp
from _plain_rules import PLAIN_GRID, plain_variant

from pla_proof.examples.half_step_margin import forgetful, variant
from pla_proof.variants import Claim, LinearVariant, resolve
from pla_proof.variants.proving.declared import DeclaredRule, NotDeclarative, read_rule

R2, GAMMA = sp.Symbol("R2", positive=True), sp.Symbol("gamma", positive=True)


def rule(v: Any) -> DeclaredRule:
    r = read_rule(v)
    assert isinstance(r, DeclaredRule), r
    return r


def reason(v: Any) -> str:
    r = read_rule(v)
    assert isinstance(r, NotDeclarative), r
    return r.reason


def test_a_declared_rule_is_read_as_declared() -> None:
    r = rule(resolve("classic"))
    assert (r.eta, r.tau, r.strict, r.C, r.g) == (1, 0, False, R2, GAMMA)
    assert r.how.startswith("declared")


def test_hand_written_triggers_and_step_are_read_by_probes() -> None:
    r = rule(variant)
    assert (r.eta, r.tau, r.strict) == (sp.Rational(1, 2), 1, False)
    assert sp.simplify(r.C - (R2 / 4 + 1)) == 0 and sp.simplify(r.g - GAMMA / 2) == 0
    assert "probes" in r.how
    assert sp.simplify(rule(forgetful).C - R2 / 4) == 0


class StrictThird(LinearVariant):
    name = "strict-third"

    def triggers(self, w: Any, x: Any, y: int) -> bool:
        # the comparison as is: bool() of it has no answer on symbols (not proved then)
        return y * sum(a * b for a, b in zip(w, x, strict=True)) < Fraction(1, 3)  # type: ignore[no-any-return]

    def step(self, w: Any, x: Any, y: int) -> Any:
        return [3 * y * v for v in x]


def test_a_strict_threshold_and_a_rate_are_found_exactly() -> None:
    r = rule(StrictThird())
    assert (r.eta, r.tau, r.strict) == (3, sp.Rational(1, 3), True)


class ShiftedStep(LinearVariant):
    name = "shifted-step"

    def step(self, w: Any, x: Any, y: int) -> Any:
        return [y * v + Fraction(1, 10) for v in x]


class NormGate(LinearVariant):
    name = "norm-gate"

    def triggers(self, w: Any, x: Any, y: int) -> bool:
        dot = sum(a * b for a, b in zip(w, x, strict=True))
        return bool(y * dot <= 0 or sum(a * a for a in w) > 30)


class WeightDependentStep(LinearVariant):
    name = "weight-step"

    def step(self, w: Any, x: Any, y: int) -> Any:
        c = 2 if w[0] > 0 else 1
        return [c * y * v for v in x]


class OwnScore(LinearVariant):
    name = "own-score"

    def score(self, w: Any, x: Any, y: int) -> Any:
        return y * sum(a * b for a, b in zip(w, x, strict=True)) - 1


class ReadsData(LinearVariant):
    name = "reads-data"

    def claim(self, case: Any) -> Claim:
        return Claim(C=max(sum(v * v for v in x) for x in case.X), g=case.gamma, uu=case.uu)


class OwnBound(LinearVariant):
    name = "own-bound"

    def claim(self, case: Any) -> Claim:
        return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu, bound=10)


def test_what_is_not_the_template_is_named() -> None:
    assert "not a constant multiple of y x" in reason(ShiftedStep())
    assert "not a threshold on y w.x" in reason(NormGate())
    assert "factor changes" in reason(WeightDependentStep())
    assert "score() is written by hand" in reason(OwnScore())
    assert "reads case.X" in reason(ReadsData())
    assert "states its own bound" in reason(OwnBound())
    assert "parameter 'w0'" in reason(resolve("nonzero-start"))
    assert "run() is overridden" in reason(resolve("averaged"))
    assert "not a LinearVariant" in reason(resolve("pocket"))


class DeclaredTauOwnStep(LinearVariant):
    """A declared tau with a hand-written step: the run keeps the trigger y w.x <= tau."""

    name = "declared-tau-own-step"

    def tau(self, case: Any) -> Fraction:
        return Fraction(2)

    def step(self, w: Any, x: Any, y: int) -> Any:
        return [Fraction(1, 4) * y * v for v in x]


def test_declared_and_hand_written_parts_are_read_as_the_run_combines_them() -> None:
    r = rule(DeclaredTauOwnStep())
    assert (r.eta, r.tau, r.strict) == (sp.Rational(1, 4), 2, False)
    assert "step()" in r.how and "triggers()" not in r.how


def test_declared_parameters_are_symbols_with_their_ranges() -> None:
    r = rule(resolve("margin"))
    eta, tau = sp.Symbol("eta"), sp.Symbol("tau")
    assert (r.eta, r.tau, r.parameters) == (eta, tau, ("eta", "tau"))
    assert set(r.assumptions) == {eta > 0, tau >= 0}
    assert sp.expand(r.C - (eta**2 * sp.Symbol("R2", positive=True) + 2 * eta * tau)) == 0


class BadRange(LinearVariant):
    name = "bad-range"
    parameters = {"eta": "positive"}  # noqa: RUF012


def test_a_range_that_is_not_one_is_named() -> None:
    assert "parameters['eta'] = 'positive' is not a range" in reason(BadRange())


def test_an_assumption_that_is_not_one_is_named() -> None:
    class Bad(LinearVariant):
        name = "bad-assumption"
        assumes = ("R2 is small",)

    assert "assumes: 'R2 is small' is not 'NAME OP NUMBER'" in reason(Bad())

    class Unknown(LinearVariant):
        name = "unknown-assumption"
        assumes = ("eta <= 1",)

    assert "eta is not R2, gamma, uu or a declared parameter" in reason(Unknown())


# --- read without SymPy (read_plain) ---------------------------------------------------------


def test_a_plain_rule_reads_as_sympy_reads_it() -> None:
    from pla_proof.variants.proving.declared import read_plain

    for kw in PLAIN_GRID:
        v = plain_variant(**kw)
        plain, full = read_plain(v), rule(v)
        assert plain is not None, kw
        assert plain.rule_text() == full.rule_text() and plain.how == full.how, kw
        assert (plain.strict, plain.end, plain.assumptions) == (full.strict, full.end, ()), kw
        for a, b in ((plain.eta, full.eta), (plain.tau, full.tau), (plain.C, full.C),
                     (plain.g, full.g)):  # fmt: skip
            assert str(a) == str(b) and sp.sympify(a) == b, (kw, a, b)
    r = read_plain(resolve("classic"))
    assert r is not None and (r.eta, r.tau, str(r.C), str(r.g)) == (1, 0, "R2", "gamma")


class Scaled(LinearVariant):
    def claim(self, case: Any) -> Claim:
        return Claim(C=4 * case.radius_squared, g=2 * case.gamma, uu=case.uu)


class ReadsPoints(LinearVariant):
    def claim(self, case: Any) -> Claim:
        return Claim(C=max(x[0] for x in case.X), g=case.gamma, uu=case.uu)


class Compares(LinearVariant):
    def tau(self, case: Any) -> Any:
        return 1 if case.gamma > 1 else 0


class Assumes(LinearVariant):
    assumes = ("R2 <= 1",)


class Parameter(LinearVariant):
    parameters: ClassVar[dict[str, str]] = {"eta": "> 0"}

    def eta(self, case: Any) -> Any:
        return case.params["eta"]


class OwnTrigger(LinearVariant):
    def triggers(self, w: Any, x: Any, y: int) -> bool:
        return bool(y * sum(a * b for a, b in zip(w, x, strict=True)) <= 0)


class Starts(LinearVariant):
    def start(self, case: Any) -> Any:
        return [Fraction(1)] * case.d


class Factors(LinearVariant):
    def factors(self, case: Any) -> Any:
        return (Fraction(1),)


class OtherUU(LinearVariant):
    def claim(self, case: Any) -> Claim:
        return Claim(C=case.radius_squared, g=case.gamma, uu=1)


class Raises(LinearVariant):
    def claim(self, case: Any) -> Claim:
        raise RuntimeError("no claim")


def test_what_is_not_plain_is_left_to_sympy() -> None:
    from pla_proof.variants.proving.declared import Named, NeedsSympy, read_plain

    half = plain_variant(eta=Fraction(1, 2))
    for v in (Scaled(), ReadsPoints(), Compares(), Assumes(), Parameter(), OwnTrigger(),
              Starts(), Factors(), OtherUU(), Raises(), half, plain_variant(tau=Fraction(1, 2)),
              plain_variant(eta=0), plain_variant(eta=True), plain_variant(C=Fraction(1, 2)),
              resolve("pocket"), resolve("unit-ball"), resolve("margin")):  # fmt: skip
        assert read_plain(v) is None, type(v).__name__
    assert rule(Scaled()).C == 4 * R2  # SymPy reads what the plain reading leaves
    g = Named("gamma")
    for op in (lambda: g + 1, lambda: 2 * g, lambda: g > 0, lambda: bool(g), lambda: -g):
        try:
            op()
        except NeedsSympy:
            continue
        raise AssertionError("arithmetic on a symbol read without SymPy must refuse")
