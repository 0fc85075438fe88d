"""The hand-written Coq development (``pla_proof/proof/convergence.v``): the Perceptron
defined with any violator choice, its convergence proved by induction over its runs from
the generated step lemmas, the generic lemma and the catalog's claims -- and the ways it
must fail: a removed or weakened step lemma fails both the Python chain and Coq, and a
wrong copy of the development is rejected by coqc."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil

import pytest
import sympy as sp

from pla_proof.cli import main
from pla_proof.proof import coq as coq_module
from pla_proof.proof.blueprint import check_all
from pla_proof.proof.coq import compile_text, development, export, kernel_theorems, run_coqc
from pla_proof.proof.obligations import all_obligations

COQC = shutil.which("coqc")
needs_coq = pytest.mark.skipif(
    COQC is None, reason="coqc is not installed (Debian package 'coq'; .ci/system-packages)"
)
OBS = all_obligations()
IDS = [ob.id for ob in OBS]


def test_nothing_is_admitted_or_assumed() -> None:
    text = re.sub(r"\(\*.*?\*\)", "", development(), flags=re.S)
    for word in ("Admitted", "admit", "Axiom", "Parameter", "Conjecture", "Abort"):
        assert not re.search(rf"\b{word}\b", text), word


def test_the_theorems_are_tagged_and_built_from_the_step_lemmas() -> None:
    theorems = {t.name: t for t in kernel_theorems(IDS)}
    assert {
        "perceptron_bound",
        "perceptron_converges",
        "perceptron_stops_separating",
        "perceptron_bound_strict",
        "generic_bound",
        "generic_bound_from_zero",
    } <= set(theorems)
    claims = [t.claim for t in theorems.values() if t.claim]
    assert len(claims) >= 8 and len(set(claims)) == len(claims)
    # the induction over the run uses the chain's own steps
    assert set(theorems["invariant_P"].uses) == {"L1", "L2", "L3.base", "L3.step"}
    assert set(theorems["invariant_Q"].uses) == {"L5", "L6", "L7.base", "L7.step"}
    assert theorems["perceptron_bound"].uses == ("T",)
    assert all(t.summary for t in theorems.values())


@needs_coq
def test_coqc_proves_the_theorem_about_the_algorithm_and_every_corollary() -> None:
    outcome = run_coqc(OBS, development=True)
    assert outcome.ok, outcome.message
    assert outcome.theorems and set(outcome.theorems.values()) == {"proved"}
    # one Print Assumptions of them all: the reals' two axioms, nothing else
    assert set(outcome.union) == coq_module.ALLOWED


def _without(oid: str) -> list:  # type: ignore[type-arg]
    return [ob for ob in OBS if ob.id != oid]


def _weakened(oid: str) -> list:  # type: ignore[type-arg]
    """``oid``'s conclusion ``lhs <= rhs`` weakened to ``lhs <= rhs + 1`` (still true, so
    each checker still proves the step itself)."""
    out = []
    for ob in OBS:
        if ob.id == oid:
            c = ob.conclusion
            ob = dataclasses.replace(ob, conclusion=sp.Le(c.lhs, c.rhs + 1))
        out.append(ob)
    return out


@needs_coq
@pytest.mark.parametrize("change", ["removed", "weakened"])
def test_a_missing_or_weakened_step_lemma_fails_the_chain_and_the_kernel(change: str) -> None:
    obs = _without("L6") if change == "removed" else _weakened("L6")
    blueprint = check_all(obs)
    assert blueprint.chain is not None and not blueprint.chain.ok
    outcome = run_coqc(obs, development=True)
    assert not outcome.ok
    assert outcome.theorems["invariant_Q"] == "failed", outcome.message
    if change == "weakened":  # the weakened step itself still compiles: the composition fails
        assert outcome.status["L6"] == "proved"
    # the unchanged obligations compile: the failure is the composition's
    assert outcome.status["L5"] == "proved"


WRONG = {
    "the bound without the square": (
        "Theorem perceptron_bound : g > 0 -> forall k w, run k w -> INR k * g ^ 2 <= R2 * norm2 u.",
        "Theorem perceptron_bound : g > 0 -> forall k w, run k w -> INR k * g <= R2 * norm2 u.",
    ),
    "the trigger dropped": (
        "(1 <= p <= n)%nat /\\ Y p * dot w (X p) <= 0.",
        "(1 <= p <= n)%nat.",
    ),
    "a missing induction base (any start)": (
        "  | run_start : run 0 zero\n",
        "  | run_start : forall w, run 0 w\n",
    ),
    "multiclass with the binary constant (|z|^2 = 2 |x|^2 forgotten)": (
        "reach multiclass_step (fun _ => 0) k w -> INR k * g ^ 2 <= (2 * R2) * norm2 (c * d) U.",
        "reach multiclass_step (fun _ => 0) k w -> INR k * g ^ 2 <= R2 * norm2 (c * d) U.",
    ),
    "the kernel perceptron updating on any point (the violation dropped)": (
        "exists p, (1 <= p <= n)%nat /\\ Y p * ip w (phi p) <= 0 /\\ w' = ",
        "exists p, (1 <= p <= n)%nat /\\ w' = ",
    ),
    "the pocket taking weights without its ratchet (fewer errors not asked)": (
        "else if (pr <? S r)%nat && (errors D c w b <? pe)%nat\n",
        "else if (pr <? S r)%nat\n",
    ),
    "multiclass updating on any class (the violation dropped)": (
        "    dot (c * d) w (kes d (L p) (X p)) <= dot (c * d) w (kes d y' (X p)) /\\\n",
        "",
    ),
}


@needs_coq
@pytest.mark.parametrize("name", list(WRONG))
def test_coqc_rejects_a_wrong_copy_of_the_development(name: str) -> None:
    old, new = WRONG[name]
    text = export(OBS, development=True).text
    assert text.count(old) == 1, old
    proc, _ = compile_text(COQC or "coqc", text.replace(old, new), 600)
    assert proc is not None and proc.returncode != 0
    assert "Error" in proc.stderr + proc.stdout


@needs_coq
def test_verify_coq_reports_every_theorem_and_the_nodes_it_proves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["verify", "--coq", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    kernel = {t["name"]: t for t in data["kernel"]}
    assert kernel["perceptron_converges"]["status"] == "proved"
    assert "kernel-checked end to end" in data["verdict"]
    nodes = {n["id"]: n for n in data["nodes"]}
    assert "perceptron_bound" in nodes["T"]["kernel"]
    assert nodes["COS"]["kernel"] == []  # not composed in Coq: not claimed
    # without --coq the theorems are listed, not run
    assert main(["verify", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {t["status"] for t in data["kernel"]} == {"not run"}
    assert all(n["kernel"] == [] for n in data["nodes"])
