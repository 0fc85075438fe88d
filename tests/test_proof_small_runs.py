"""The theorem on small runs straight from the algorithm, beside the blueprint's composition."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
import sympy as sp

from pla_proof.cli import main
from pla_proof.proof import blueprint as blueprint_module
from pla_proof.proof.small_runs import (
    Algorithm,
    Linearised,
    check_small_runs,
    composed_facts,
    symbolic_run,
)
from pla_proof.proof.statements import LEMMAS, R2, g, k, lemma, n0, n1, pu1, rel, t, uu, xx

PLUS_X = Algorithm("w <- w + x (the label forgotten)", lambda w, y, x: w + x)
STRICT = Algorithm("trigger y w.x < 0", lambda w, y, x: w + y * x, "<")
MINUS = Algorithm("w <- w - y x", lambda w, y, x: w - y * x)


@pytest.fixture(scope="module")
def report() -> Any:
    return check_small_runs()


def test_the_theorem_holds_directly_and_by_composition(report: Any) -> None:
    assert report.ok, report.problems
    assert [(c.d, c.K) for c in report.cases] == [(d, K) for K in (1, 2, 3) for d in (1, 2)]
    assert all(c.direct == "proved" and not c.ungrounded for c in report.cases)
    assert report.composed == {1: "proved", 2: "proved", 3: "proved"}
    # in d = 2 runs of every length exist; in d = 1 the second update never triggers
    runs = {(c.d, c.K): c.runs for c in report.cases}
    assert all(runs[2, K] == "exist" for K in (1, 2, 3))
    assert runs[1, 1] == "exist" and runs[1, 2] == runs[1, 3] == "none"


def test_the_report_renders_and_serialises(report: Any) -> None:
    data = report.to_json()
    assert data["ok"] is True and len(data["cases"]) == 6
    assert json.loads(json.dumps(data)) == data
    lines = report.lines()
    assert lines[-1].startswith("small runs (d = 1..2, K = 1..3): the theorem holds")
    assert "d = 2, K = 3: direct proved (runs exist)" in "\n".join(lines)


@pytest.mark.parametrize("wrong", [PLUS_X, MINUS])
def test_a_wrong_update_fails_the_direct_check(wrong: Algorithm) -> None:
    bad = check_small_runs(wrong)
    assert not bad.ok
    assert any(c.direct != "proved" for c in bad.cases)
    refuted = [c for c in bad.cases if c.direct == "refuted"]
    assert refuted and all(c.detail.startswith("counterexample: ") for c in refuted)
    # the blueprint's progress identity L1 is not a fact of such runs
    assert all(any(f.startswith("L1@") for f in c.ungrounded) for c in bad.cases)


def test_the_strict_trigger_leaves_no_run_at_all() -> None:
    bad = check_small_runs(STRICT, updates=(1,))
    assert not bad.ok
    assert all(c.runs == "none" for c in bad.cases)
    assert any("no run of 1 update(s) exists" in p for p in bad.problems)


def test_the_composition_fails_without_a_fact_of_the_blueprint() -> None:
    kept = tuple(lem for lem in LEMMAS if lem.id != "L4")  # Cauchy-Schwarz left out
    bad = check_small_runs(dims=(2,), updates=(2,), lemmas=kept)
    assert not bad.ok and bad.composed[2] != "proved"
    assert any("the blueprint's facts do not give T" in p for p in bad.problems)


def test_the_composition_fails_without_its_state_link() -> None:
    l7 = lemma("L7")
    assert l7.induction is not None
    unlinked = dataclasses.replace(l7, induction=dataclasses.replace(l7.induction, previous={}))
    kept = tuple(unlinked if lem.id == "L7" else lem for lem in LEMMAS)
    assert check_small_runs(dims=(2,), updates=(2,), lemmas=kept).composed[2] != "proved"


def test_a_wrong_statement_in_the_blueprint_does_not_hold_on_the_runs() -> None:
    l5 = lemma("L5")  # |w_{k+1}|^2 = |w_k|^2 + t + |x|^2: the cross term halved
    wrong = dataclasses.replace(l5, runtime=lambda s: sp.Eq(n1, n0 + t + xx, evaluate=False))
    kept = tuple(wrong if lem.id == "L5" else lem for lem in LEMMAS)
    bad = check_small_runs(dims=(2,), updates=(2,), lemmas=kept)
    assert not bad.ok
    assert bad.cases[0].ungrounded and "L5@2" in bad.cases[0].ungrounded


def test_the_composed_facts_are_read_at_each_update() -> None:
    facts = composed_facts(3)
    names = [name for name, _, _ in facts]
    assert "L3.start" in names and "L7.start" in names
    assert {"L3.link@2", "L3.link@3", "L7.link@2", "L7.link@3"} <= set(names)
    assert {"L1@3", "L4@3", "L5@3", "L6@3", "DEF_TRIGGER@1"} <= set(names)
    assert not any(name.startswith(("L3@", "L7@", "T@")) for name in names)  # no induction
    fact = dict((name, f) for name, _, f in facts)["L4@3"]
    assert sorted(map(str, fact.free_symbols)) == ["n1[3]", "pu1[3]", "uu"]


def test_the_linear_refutation_is_sound() -> None:
    run = symbolic_run(2, 3)
    lin = Linearised(run)
    assert lin.entails(run.theorem())
    # true only with more updates or a stronger margin: never "proved"
    assert not lin.entails(rel(4 * g**2, "<=", R2 * sum(c**2 for c in run.u)))
    assert not lin.entails(rel(g, ">", 1))
    # an identity is checked exactly, with y_k^2 = 1
    vocab = run.vocabulary(3)
    assert lin.entails(rel(vocab[pu1] ** 2, "<=", vocab[uu] * vocab[n1]))  # Cauchy-Schwarz
    assert lin.entails(sp.Eq(vocab[n1], vocab[n0] + 2 * vocab[t] + vocab[xx], evaluate=False))
    assert not lin.entails(sp.Eq(vocab[n1], vocab[n0] + vocab[t] + vocab[xx], evaluate=False))


def test_the_direct_theorem_must_be_the_blueprints() -> None:
    t_lemma = lemma("T")  # a weaker T (twice the bound) still follows, but is not the theorem
    weaker = dataclasses.replace(t_lemma, runtime=lambda s: rel(k * g**2, "<=", 2 * R2 * uu))
    kept = tuple(weaker if lem.id == "T" else lem for lem in LEMMAS)
    bad = check_small_runs(dims=(2,), updates=(1,), lemmas=kept)
    assert bad.composed[1] == "proved"
    assert bad.problems == ["d = 2, K = 1: the direct theorem is not the blueprint's T"]


def test_verify_fails_when_the_small_runs_disagree(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        blueprint_module, "check_small_runs", lambda: check_small_runs(PLUS_X, updates=(1, 2))
    )
    assert main(["verify", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["all_proved"] is True and data["ok"] is False
    assert data["small_runs"]["ok"] is False and data["small_runs"]["problems"]
    assert main(["verify", "--brief"]) == 1
    out = capsys.readouterr().out
    assert "SMALL RUNS" in out.splitlines()[-1]


def test_verify_reports_the_small_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["small_runs"]["ok"] is True
    assert data["verdict"].endswith("small runs agree")
    # a partial run (--only) checks obligations, not the small runs
    assert main(["verify", "--json", "--only", "L2"]) == 0
    assert json.loads(capsys.readouterr().out)["small_runs"] is None
