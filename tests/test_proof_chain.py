"""The chain check: every hypothesis has a source, and removing any link opens the chain."""

from __future__ import annotations

import dataclasses
import json

import pytest

from pla_proof.cli import main
from pla_proof.cli import verify as verify_cmd
from pla_proof.proof import chain as chain_module
from pla_proof.proof.chain import FACTS, RENAMINGS, canon, check_chain
from pla_proof.proof.obligations import Obligation, all_obligations, implication
from pla_proof.proof.statements import g, k, pu, pu1, rel

OBS = all_obligations()


def without(*ids: str) -> tuple[Obligation, ...]:
    missing = set(ids) - {ob.id for ob in OBS}
    assert not missing, missing
    return tuple(ob for ob in OBS if ob.id not in ids)


def test_the_whole_chain_is_closed() -> None:
    report = check_chain(OBS)
    assert report.ok, (report.undischarged, report.problems)
    assert report.established == {ob.id for ob in OBS}
    kinds = {s.kind for srcs in report.sources.values() for s in srcs}
    assert kinds == {"assumption", "definition", "domain", "conclusion"}


def test_every_fact_is_stated_once_and_used() -> None:
    ids = [f.id for f in FACTS]
    assert len(ids) == len(set(ids))
    keys = [canon(r) for f in FACTS for r in f.relations]
    assert len(keys) == len(set(keys)), "a relation is stated by two facts"
    used = {s.source for srcs in check_chain(OBS).sources.values() for s in srcs}
    assert {f.id for f in FACTS} <= used, {f.id for f in FACTS} - used


def test_every_renaming_is_used_and_its_links_exist() -> None:
    report = check_chain(OBS)
    used = {s.renaming for srcs in report.sources.values() for s in srcs}
    assert {r.id for r in RENAMINGS} <= used | {""}
    ids = {ob.id for ob in OBS}
    for r in RENAMINGS:
        assert set(r.links) <= ids


# --- removing a link, a base case or a renaming opens the chain ------------------------------

LINKS = sorted({link for r in RENAMINGS for link in r.links})


@pytest.mark.parametrize("link", LINKS)
def test_removing_a_link_obligation_opens_the_chain(link: str) -> None:
    report = check_chain(without(link))
    assert not report.ok
    assert report.problems and any(link in p for p in report.problems)


@pytest.mark.parametrize(
    "base", ["L3.base", "L7.base", "P_G.base", "Q_G.base", "L4.base", "L4.sos.base", "BIAS3.base"]
)
def test_removing_a_base_case_opens_the_chain(base: str) -> None:
    report = check_chain(without(base))
    assert not report.ok
    step = base.replace(".base", ".step")
    assert any(u.startswith(f"{step}: ") for u in report.undischarged), report.undischarged


@pytest.mark.parametrize("start", ["START.pu", "START.n0", "START.ps", "START.ns"])
def test_removing_a_start_obligation_opens_the_chain(start: str) -> None:
    assert not check_chain(without(start)).ok


@pytest.mark.parametrize("renaming", [r.id for r in RENAMINGS if r.id != "same"])
def test_removing_a_renaming_opens_the_chain(renaming: str) -> None:
    kept = tuple(r for r in RENAMINGS if r.id != renaming)
    report = check_chain(OBS, renamings=kept)
    assert not report.ok
    assert report.undischarged


@pytest.mark.parametrize(
    "step",
    ["L1", "L2", "L5", "L5.sign", "L6", "T.gamma", "T.seed.lower", "L4.lagrange", "COS.n1pos"],
)
def test_removing_a_step_leaves_its_users_undischarged(step: str) -> None:
    report = check_chain(without(step))
    assert report.undischarged


def test_the_bias_decisions_rest_on_the_bias_induction() -> None:
    sources = check_chain(OBS).sources
    assert [(s.kind, s.source) for s in sources["BIAS3.decision"]] == [("conclusion", "BIAS3")] * 2
    assert {s.source for s in sources["BIAS3.decision.start"]} == {"DOM.base", "DEF_BIAS3_START"}
    report = check_chain(without("BIAS3.step"))
    assert any(u.startswith("BIAS3.decision: ") for u in report.undischarged)


def test_the_dual_form_takes_its_start_and_its_point() -> None:
    sources = check_chain(OBS).sources
    assert [s.source for s in sources["DUAL.base"]] == ["DEF_DUAL_START"]
    assert [s.source for s in sources["DUAL.step"]] == ["DOM.point", "DOM.point"]
    kept = tuple(f for f in FACTS if f.id != "DEF_DUAL_START")
    assert check_chain(OBS, facts=kept).undischarged == ["DUAL.base: α_p = 0"]


def test_an_unproved_obligation_establishes_nothing() -> None:
    proved = [ob.id for ob in OBS if ob.id != "L2"]
    report = check_chain(OBS, proved)
    assert any(u.startswith("L3.base: ") for u in report.undischarged)


def test_a_hypothesis_with_no_source_is_reported() -> None:
    stray = implication("X", "T", [rel(pu, ">=", 7)], rel(pu, ">=", 0))
    report = check_chain((*OBS, stray))
    assert report.undischarged == ["X: u·w_k ≥ 7"]


def test_a_start_fact_needs_the_first_update() -> None:
    # u.w_k = 0 holds at k = 1 only: a step (k >= 2) may not use it
    bad = implication("X", "L3", [rel(k, ">=", 2), rel(pu, "==", 0)], rel(pu1, ">=", g))
    report = check_chain((*OBS, bad))
    assert report.undischarged == ["X: u·w_k = 0"]


def test_a_renaming_must_rename_every_per_update_quantity() -> None:
    # L2's conclusion mentions u.w_k: read at update k - 1 it would be update k-1's u.w_{k-1}
    l2 = next(ob for ob in OBS if ob.id == "L2")
    bad = implication("X", "L3", [rel(k, ">=", 2), rel(pu - pu, ">=", g)], rel(pu1, ">=", g))
    assert not check_chain((*OBS, bad)).ok
    assert l2.conclusion is not None


def test_an_induction_without_its_index_case_is_a_problem() -> None:
    step = next(ob for ob in OBS if ob.id == "L3.step")
    weak = dataclasses.replace(step, hypotheses=step.hypotheses[1:])  # drop k >= 2
    report = check_chain(tuple(weak if ob.id == "L3.step" else ob for ob in OBS))
    assert any("L3.step: the step case does not fix its index" in p for p in report.problems)


def test_verify_fails_when_a_hypothesis_is_undischarged(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(verify_cmd, "all_obligations", lambda: without("LINK.pu"))
    assert main(["verify", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["all_proved"] is True and data["ok"] is False
    assert data["chain"]["ok"] is False
    assert main(["verify"]) == 1
    out = capsys.readouterr().out
    assert "CHAIN OPEN" in out.splitlines()[-1] and "undischarged: L3.step" in out


def test_facts_module_reads_the_obligations_own_symbols() -> None:
    assert chain_module.check_chain is check_chain
