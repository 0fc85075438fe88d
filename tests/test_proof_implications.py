"""The Z3 checker, and the deliberately wrong obligations it must reject."""

from __future__ import annotations

import pytest
import sympy as sp
import z3

from pla_proof.data import load
from pla_proof.errors import SolverError
from pla_proof.proof import implications
from pla_proof.proof.implications import check_implication, to_z3
from pla_proof.proof.obligations import (
    N,
    R,
    gamma,
    implication,
    induction_obligations,
    lemma_obligations,
)
from pla_proof.proof.statements import (
    R2,
    g,
    k,
    lemma,
    m,
    n0,
    n1,
    pu,
    pu1,
    rel,
    t,
    uu,
    xx,
    yux,
)
from pla_proof.trainer import train


def refuted(hyps: list[object], concl: object) -> str:
    verdict = check_implication(hyps, concl)
    assert verdict.status == "refuted", verdict
    assert verdict.detail.startswith("counterexample:")
    return verdict.detail


def test_translation_ignores_sympy_assumptions() -> None:
    # g is declared positive in SymPy, yet Z3 must not know it unless told
    refuted([], rel(g, ">", 0))
    assert check_implication([rel(g, ">", 0)], rel(g, ">", 0)).status == "proved"


def test_only_integer_powers_translate() -> None:
    with pytest.raises(SolverError):
        to_z3(sp.sqrt(g), {})


def test_division_by_zero_is_arbitrary_so_positivity_must_be_explicit() -> None:
    x, q = sp.symbols("x q")
    inverse = rel(q, "==", 1 / x)  # q = 1/x, then x q = 1 needs x != 0
    refuted([inverse], rel(x * q, "==", 1))
    refuted([inverse, rel(x, ">=", 0)], rel(x * q, "==", 1))
    assert check_implication([inverse, rel(x, ">", 0)], rel(x * q, "==", 1)).status == "proved"


def test_unknown_or_timeout_is_not_a_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    class Undecided:
        def __init__(self) -> None:
            self.timeout: int | None = None

        def set(self, key: str, value: int) -> None:
            self.timeout = value

        def add(self, *args: object) -> None:
            pass

        def check(self) -> object:
            return z3.unknown

        def reason_unknown(self) -> str:
            return "timeout"

    monkeypatch.setattr(implications.z3, "Solver", Undecided)  # type: ignore[attr-defined]
    verdict = check_implication([rel(g, ">", 0)], rel(g, ">", 0), timeout_ms=1)
    assert verdict.status == "unknown" and not verdict.proved


# --- the wrong obligations of the issue ---------------------------------------------------


def test_growth_step_without_the_trigger_hypothesis_is_rejected() -> None:
    hyps = list(lemma("L6").hypotheses(False))  # type: ignore[misc]
    assert check_implication(hyps, lemma("L6").statement()).status == "proved"
    without = [h for h in hyps if h != sp.LessThan(t, 0)]
    assert len(without) == len(hyps) - 1
    detail = refuted(without, lemma("L6").statement())
    assert "t = " in detail


def test_final_step_with_gamma_nonnegative_instead_of_positive_is_rejected() -> None:
    good = [rel(k**2 * gamma**2, "<=", N), rel(N, "<=", k * R**2), rel(k, ">=", 1)]
    concl = rel(k, "<=", R**2 / gamma**2)
    assert check_implication([*good, rel(gamma, ">", 0)], concl).status == "proved"
    detail = refuted([*good, rel(gamma, ">=", 0)], concl)
    assert "gamma = 0" in detail
    # the strict form of Kalyanakrishnan's note likewise
    strict = [rel(k**2 * gamma**2, "<", N), rel(N, "<=", k * R**2), rel(k, ">=", 1)]
    refuted([*strict, rel(gamma, ">=", 0)], rel(k, "<", R**2 / gamma**2))


def test_induction_step_off_by_one_is_rejected() -> None:
    l3, l2 = lemma("L3"), lemma("L2")
    assert l3.induction is not None
    step = l3.induction.previous_statement(l3.statement())  # P(k-1): pu >= (k-1) g
    # concluding P(k+1) from P(k-1) and one step
    refuted(
        [rel(k, ">=", 2), step, l2.statement()],
        sp.GreaterThan(pu1, (k + 1) * g),
    )
    # Q: assuming |w_k|^2 <= k R^2 (instead of (k-1) R^2) does not give |w_{k+1}|^2 <= k R^2
    refuted(
        [rel(k, ">=", 2), sp.LessThan(n0, k * R2), lemma("L6").statement()],
        lemma("L7").statement(),
    )
    # a base case at k = 0 with the strict margin is false (u.w_1 = 0 is not > 0)
    refuted([rel(k, "==", 0), rel(pu1, "==", 0)], lemma("L3").statement(strict=True))


def test_base_and_step_are_separate_obligations() -> None:
    """P(k): u.w_{k+1} >= (k+1) g has a valid step but a false base case: the split
    says exactly which half fails."""
    wrong = sp.GreaterThan(pu1, (k + 1) * g)
    l3 = lemma("L3")
    assert l3.induction is not None
    base, step = induction_obligations(
        "X", "L3", wrong, l3.induction, lemma("L2").statement(), ("L2",)
    )
    assert base.check().status == "refuted"
    assert step.check().status == "proved"


def test_strict_conclusion_under_the_non_strict_margin_is_rejected() -> None:
    t_lem = lemma("T")
    hyps = t_lem.hypotheses(False)  # type: ignore[misc]
    assert check_implication(hyps, t_lem.statement(strict=False)).status == "proved"
    refuted(list(hyps), t_lem.statement(strict=True))
    refuted(
        [
            rel(k**2 * gamma**2, "<=", N),
            rel(N, "<=", k * R**2),
            rel(k, ">=", 1),
            rel(gamma, ">", 0),
        ],
        rel(k, "<", R**2 / gamma**2),
    )


def test_orthonormal_data_attain_equality() -> None:
    run = train(load("orthonormal:4"))
    assert run.status == "converged"
    assert run.bound is not None and run.updates == run.bound == 4
    last = run.steps[-1].values
    assert last["k"] * last["g"] ** 2 == last["R2"] * last["uu"]  # k g^2 = R^2 |u|^2
    assert lemma("T").holds(last, strict=False)
    assert not lemma("T").holds(last, strict=True)


def test_strict_progress_from_the_non_strict_margin_is_rejected() -> None:
    refuted(
        [sp.Eq(pu1, pu + yux), sp.GreaterThan(yux, g)],
        lemma("L2").statement(strict=True),
    )


def test_a_strict_trigger_would_not_give_strict_separation() -> None:
    refuted([sp.Not(sp.StrictLessThan(m, 0))], lemma("SEP").statement())


def test_cauchy_schwarz_cannot_be_dropped_from_the_final_step() -> None:
    hyps = [h for h in lemma("T").hypotheses(False) if h != lemma("L4").statement()]  # type: ignore[misc]
    refuted(hyps, lemma("T").statement())


def test_growth_with_the_wrong_expansion_sign_is_rejected() -> None:
    refuted(
        [sp.Eq(n1, n0 - 2 * t + xx), sp.LessThan(t, 0), sp.LessThan(xx, R2)],
        lemma("L6").statement(),
    )


def test_learning_rate_trigger_needs_a_positive_rate() -> None:
    eta = sp.Symbol("eta")
    concl = sp.Equivalent(rel(eta * t, "<=", 0), rel(t, "<=", 0))
    assert check_implication([rel(eta, ">", 0)], concl).status == "proved"
    refuted([rel(eta, ">=", 0)], concl)


def test_every_z3_obligation_is_proved() -> None:
    from pla_proof.proof.obligations import all_obligations

    z3_obs = [ob for ob in all_obligations() if ob.checker == "z3"]
    assert len(z3_obs) >= 30
    for ob in z3_obs:
        assert ob.check().status == "proved", ob.id


def test_generated_obligations_follow_the_statement() -> None:
    """Obligations are built from the lemma: a weaker hypothesis in the lemma is caught."""
    import dataclasses

    l2 = lemma("L2")
    weak = dataclasses.replace(
        l2, hypotheses=lambda s: (sp.Eq(pu1, pu + yux), sp.GreaterThan(yux, g / 2))
    )
    assert all(ob.check().status == "refuted" for ob in lemma_obligations(weak))
    assert all(ob.check().status == "proved" for ob in lemma_obligations(l2))


def test_implication_statement_lists_every_hypothesis() -> None:
    ob = implication("X", "T", [rel(uu, ">", 0), rel(k, ">=", 1)], rel(k * uu, ">", 0))
    assert ob.statement == "‖u‖² > 0, k ≥ 1  ⇒  k·‖u‖² > 0"
    assert ob.hypotheses == (rel(uu, ">", 0), rel(k, ">=", 1)) and ob.conclusion is not None
    assert ob.checker == "z3" and ob.check().proved
