"""The blueprint: every obligation checked and timed, and the monitor reads the same proof."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from pla_proof import trainer as trainer_module
from pla_proof.data import load
from pla_proof.engine.drive import _world
from pla_proof.engine.measure import exact_measures
from pla_proof.engine.rule import CLASSIC
from pla_proof.monitor import Monitor, make_comparator
from pla_proof.monitor import relations as relations_module
from pla_proof.proof.blueprint import Blueprint, check_all, check_one, coverage
from pla_proof.proof.identities import Verdict
from pla_proof.proof.obligations import (
    TRUSTED_AXIOMS,
    Obligation,
    all_obligations,
    implication,
    lemma_obligations,
)
from pla_proof.proof.statements import (
    END_LEMMAS,
    LEMMAS,
    NODES,
    R2,
    RUNTIME_LEMMAS,
    Lemma,
    lemma,
    n0,
    n1,
    rel,
)
from pla_proof.trainer import train


@pytest.fixture(scope="module")
def blueprint() -> Blueprint:
    return check_all()


def test_every_obligation_is_proved_with_its_checker_and_time(blueprint: Blueprint) -> None:
    assert blueprint.all_proved, [r.obligation.id for r in blueprint.results if not r.proved]
    for r in blueprint.results:
        assert r.obligation.checker in ("sympy", "z3")
        assert r.seconds >= 0
        assert r.obligation.statement
    assert {"sympy", "z3"} == {r.obligation.checker for r in blueprint.results}


def test_coverage_has_no_gap(blueprint: Blueprint) -> None:
    assert blueprint.coverage.ok, blueprint.coverage.gaps()
    for lem in (*RUNTIME_LEMMAS, *END_LEMMAS):
        if lem.kind not in ("assumption", "definition"):
            assert lem.id in blueprint.coverage.by_node


def test_every_node_of_the_issue_has_obligations(blueprint: Blueprint) -> None:
    ids = {r.obligation.id for r in blueprint.results}
    for required in (
        "L1", "L1.d<=4", "L2", "L2.strict", "L3.base", "L3.step", "L3.base.strict",
        "L3.step.strict", "L4.d1", "L4.d4", "L5", "L5.expand", "L5.sign", "L6", "L7.base",
        "L7.step", "T", "T.strict", "T.seed", "T.seed.strict", "SEP",
        "P_G.base", "P_G.step", "Q_G.base", "Q_G.step", "T_G", "G.classic",
        "UNIT", "COS", "COS.div", "BIAS.inner", "BIAS.norm", "BIAS.radius",
        "BIAS3.decision", "BIAS3.base", "BIAS3.step", "DUAL.base", "DUAL.step",
        "RATE.weights", "RATE.decision", "RATE.trigger", "RATE.G1", "RATE.G2", "RATE.bound",
    ):  # fmt: skip
        assert required in ids, required
    nodes = {r.obligation.node for r in blueprint.results}
    assert {n.id for n in NODES if n.kind not in ("assumption", "definition")} <= nodes


def test_no_statement_is_trusted_and_cauchy_schwarz_is_proved_for_every_d(
    blueprint: Blueprint,
) -> None:
    assert TRUSTED_AXIOMS == ()
    proved = {r.obligation.id for r in blueprint.results if r.proved}
    for part in ("L4.base", "L4.lagrange", "L4.step", "L4.sos.base", "L4.sos.step", "L4"):
        assert part in proved
    by_id = {r.obligation.id: r.obligation for r in blueprint.results}
    assert by_id["L4.lagrange"].scope == "general d" and by_id["L4.step"].checker == "z3"
    text = blueprint.render()
    assert "TRUSTED AXIOM" not in text and "no trusted axiom" in text.splitlines()[-1]
    assert lemma("L4").kind != "axiom"


def test_the_lagrange_step_rejects_a_wrong_identity() -> None:
    from pla_proof.proof.obligations import (
        CS_FORMS,
        _e,
        _peel_d,
        aa,
        aam,
        ab,
        abm,
        bb,
        bbm,
        defined,
        lag,
    )  # fmt: skip

    def step(rhs: object) -> str:
        ob = defined("X", "L4", rel(aa * bb - ab**2, "==", rhs), CS_FORMS, rewrite=_peel_d,
                     dims={_e: (1, 2)})  # fmt: skip
        return ob.check().status

    assert step(aam * bbm - abm**2 + lag) == "proved"
    assert step(aam * bbm - abm**2) == "refuted"  # without Lagrange's sum the step is false
    assert step(aam * bbm - abm**2 + 2 * lag) == "refuted"


def test_render_and_json(blueprint: Blueprint) -> None:
    text = blueprint.render()
    assert text.splitlines()[-1].startswith("verdict: all")
    data = blueprint.to_json()
    assert data["all_proved"] is True
    for ob in data["obligations"]:
        assert {"id", "statement", "depends_on", "checker", "status", "seconds"} <= set(ob)


# --- one source of truth: the monitor evaluates these very objects --------------------------


def test_the_monitors_lemmas_are_the_proofs_objects() -> None:
    data = load("orthonormal:2")
    comp = make_comparator(data, [1, -1])
    for mode in ("exact", "float"):
        mon = Monitor(RUNTIME_LEMMAS, {"g": comp.gamma}, strict=False, mode=mode)
        assert len(mon.relations) == len(RUNTIME_LEMMAS)
        assert all(r.lemma is lem for r, lem in zip(mon.relations, RUNTIME_LEMMAS, strict=True))
    # a run evaluates the same statements, written out without SymPy (pla_proof/proof/
    # forms.py, generated from these objects): each run-time lemma is one of them
    from pla_proof.proof import runtime

    assert trainer_module.RUNTIME_LEMMAS is runtime.RUNTIME_LEMMAS  # type: ignore[attr-defined]
    assert trainer_module.END_LEMMAS is runtime.END_LEMMAS  # type: ignore[attr-defined]
    assert [lem.sympy() for lem in runtime.RUNTIME_LEMMAS] == list(RUNTIME_LEMMAS)
    assert [lem.sympy() for lem in runtime.END_LEMMAS] == list(END_LEMMAS)
    for light, full in zip(runtime.RUNTIME_LEMMAS, RUNTIME_LEMMAS, strict=True):
        assert light.sympy() is full
        for strict in (False, True):
            assert light.statement(strict=strict) == str(full.statement(strict=strict))


def _students_first_update(lemmas: list[Lemma]) -> object:
    data = load("students")
    comp = make_comparator(data, [10, 10, -5, 10, 10, 0])
    U, su = comp.integers()
    world = _world(data, CLASSIC, "exact")
    measures = exact_measures(world, np.array([0]), 0, [0] * data.d, U, su)
    consts = {"g": comp.gamma, "R2": comp.radius_squared, "uu": comp.uu}
    return Monitor(lemmas, consts, strict=False).first(measures)


def test_a_changed_statement_changes_what_the_monitor_checks_and_what_is_proved() -> None:
    original = lemma("L6")
    changed = dataclasses.replace(original, runtime=lambda s: sp.LessThan(n1 - n0, R2 / 2))
    lemmas = [changed if lem.id == "L6" else lem for lem in RUNTIME_LEMMAS]
    assert _students_first_update(list(RUNTIME_LEMMAS)) is None
    caught = _students_first_update(lemmas)
    assert caught is not None and caught.lemma.id == "L6"  # type: ignore[attr-defined]
    assert (caught.lhs, caught.rhs) == (Fraction(501), Fraction(501, 2))  # type: ignore[attr-defined]
    # the prover reads the same object: the changed L6 no longer follows from L5 and A2_j
    assert [ob.check().status for ob in lemma_obligations(changed)] == ["refuted"]
    assert [ob.check().status for ob in lemma_obligations(original)] == ["proved"]


def test_a_run_checks_every_runtime_lemma_the_proof_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    real = relations_module.Relation.exact
    real_holds = Lemma.holds

    def spy(self: relations_module.Relation, values: dict[str, object]) -> object:
        seen.append(self.lemma.id)
        return real(self, values)  # type: ignore[arg-type]

    def spy_holds(self: Lemma, values: object, **kw: object) -> bool:
        seen.append(self.id)
        return real_holds(self, values, **kw)  # type: ignore[arg-type]

    from pla_proof.proof.runtime import RunLemma

    real_run_holds = RunLemma.holds

    def spy_run_holds(self: RunLemma, values: object, **kw: object) -> bool:
        seen.append(self.id)
        return real_run_holds(self, values, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(relations_module.Relation, "exact", spy)
    monkeypatch.setattr(Lemma, "holds", spy_holds)
    monkeypatch.setattr(RunLemma, "holds", spy_run_holds)
    run = train(load("orthonormal:3"), comparator=[1, -1, 1])
    assert run.status == "converged"
    per_update = [lem.id for lem in RUNTIME_LEMMAS]
    assert seen[: len(per_update)] == per_update
    assert set(seen) == {lem.id for lem in (*RUNTIME_LEMMAS, *END_LEMMAS)}


# --- gaps are visible -------------------------------------------------------------------------


def test_a_runtime_check_without_a_proof_is_a_gap(blueprint: Blueprint) -> None:
    without_l6 = [r for r in blueprint.results if r.obligation.node != "L6"]
    cov = coverage(without_l6)
    assert cov.runtime_unproved == ("L6",)
    assert not cov.ok and "run-time check L6 has no proved obligation" in cov.gaps()


def test_a_new_runtime_check_without_a_lemma_proof_is_a_gap(blueprint: Blueprint) -> None:
    extra = Lemma("L8", "an unproved check", "implication", "|w|^2 >= 0", runtime=lambda s: n1 >= 0)
    cov = coverage(blueprint.results, runtime=(*RUNTIME_LEMMAS, extra, *END_LEMMAS))
    assert cov.runtime_unproved == ("L8",)
    unused = Lemma("A3_j", "unused", "assumption", "x", runtime=lambda s: n1 >= 0)
    cov = coverage(blueprint.results, runtime=(*RUNTIME_LEMMAS, unused))
    assert cov.runtime_unused == ("A3_j",)


def test_an_orphan_obligation_and_an_unproved_node_are_gaps(blueprint: Blueprint) -> None:
    orphan = implication("ZZ", "NOWHERE", [rel(n1, ">=", 0)], rel(n1, ">=", 0))
    cov = coverage([*blueprint.results, check_one(orphan)])
    assert cov.orphans == ("ZZ",)
    cov = coverage([r for r in blueprint.results if r.obligation.node != "DUAL"])
    assert cov.nodes_unproved == ("DUAL",)


def test_an_unproved_cauchy_schwarz_step_opens_the_chain(blueprint: Blueprint) -> None:
    from pla_proof.proof.chain import check_chain

    proved = [r.obligation.id for r in blueprint.results if r.obligation.id != "L4.step"]
    report = check_chain([r.obligation for r in blueprint.results], proved)
    assert any(u.startswith("T: ") for u in report.undischarged)


def test_a_failing_or_crashing_obligation_is_not_proved() -> None:
    def boom(timeout_ms: int = 0) -> Verdict:
        raise RuntimeError("checker crashed")

    crash = Obligation("X", "T", "x", (), "z3", "reals", boom)
    wrong = implication("Y", "T", [], rel(n1, ">", 0))
    bp = check_all([crash, wrong], partial=True)
    assert [r.status for r in bp.results] == ["error", "refuted"]
    assert not bp.all_proved
    assert "NOT proved" in bp.verdict()


def test_obligations_are_built_from_the_given_lemmas() -> None:
    changed = dataclasses.replace(
        lemma("T"), runtime=lambda s: sp.LessThan(lemma("T").statement().lhs, 0)
    )
    lemmas = [changed if lem.id == "T" else lem for lem in LEMMAS]
    obs = {ob.id: ob for ob in all_obligations(lemmas)}
    assert obs["T"].check().status == "refuted"


# --- the corollaries, seen on real runs -----------------------------------------------------


def test_dual_form_on_a_run() -> None:
    data = load("maxviol:1/5")
    run = train(data, rule="maxviol")
    assert sum(run.alpha) == run.updates
    w = [sum(a * yi * x[c] for a, x, yi in zip(run.alpha, data.X, data.y, strict=True))
         for c in range(data.d)]  # fmt: skip
    assert tuple(w) == run.w


def test_three_bias_conventions_make_the_same_choices() -> None:
    runs = {
        b: train(load("students", bias=b), comparator=None)
        for b in ("augment", "separate", "minus-one")
    }
    choices = {b: r.choices for b, r in runs.items()}
    assert choices["augment"] == choices["separate"] == choices["minus-one"]
    aug = runs["augment"].w
    minus = runs["minus-one"].w
    assert aug[:-1] == minus[:-1] and aug[-1] == -minus[-1]  # b_m = -a


def test_learning_rate_scales_weights_and_keeps_choices() -> None:
    data = load("maxviol:1/5")
    plain = train(data, comparator=None)
    eta = 3

    def scaled(w: list[int], x: list[int], y: int) -> list[int]:
        return [a + eta * y * b for a, b in zip(w, x, strict=True)]

    fast = train(data, comparator=None, update=scaled)  # type: ignore[arg-type]
    assert fast.choices == plain.choices
    assert fast.w == tuple(eta * v for v in plain.w)
