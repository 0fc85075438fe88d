"""The Coq export: one lemma per obligation, compiled by coqc in one run."""

from __future__ import annotations

import re
import shutil
import sys

import pytest

from pla_proof.cli import main
from pla_proof.proof.coq import coq_name, export, run_coqc
from pla_proof.proof.obligations import all_obligations, implication
from pla_proof.proof.statements import n1, rel

COQC = shutil.which("coqc")
needs_coq = pytest.mark.skipif(
    COQC is None, reason="coqc is not installed (Debian package 'coq'; .ci/system-packages)"
)
OBS = all_obligations()


def test_the_lemma_set_matches_the_blueprint_one_to_one() -> None:
    result = export(OBS)
    commented = re.findall(r"\(\* obligation: (.+?) \*\)\nLemma (\S+) :", result.text)
    assert [oid for oid, _ in commented] == result.exported
    assert all(name == coq_name(oid) for oid, name in commented)
    assert sorted(result.exported + list(result.skipped)) == sorted(ob.id for ob in OBS)
    assert len({coq_name(ob.id) for ob in OBS}) == len(OBS)
    # the core of the proof is exported, Cauchy-Schwarz by induction included
    for oid in ("L1", "L5", "L4.base", "L4.lagrange", "L4.step", "L3.step", "T", "T_G"):
        assert oid in result.exported


def test_every_skipped_obligation_says_why() -> None:
    for oid, why in export(OBS).skipped.items():
        assert why.startswith(f"{oid}: ") and len(why) > len(oid) + 10


@needs_coq
def test_coqc_compiles_every_exported_lemma() -> None:
    outcome = run_coqc(OBS)
    assert outcome.message == "compiled", outcome.message
    exported = export(OBS).exported
    assert all(outcome.status[oid] == "proved" for oid in exported)
    assert set(outcome.status) == {ob.id for ob in OBS}


@needs_coq
def test_coqc_rejects_a_false_lemma() -> None:
    wrong = implication("WRONG", "T", [rel(n1, ">=", 0)], rel(n1, ">", 0))
    outcome = run_coqc([wrong])
    assert not outcome.ok and outcome.status == {"WRONG": "failed"}


def test_export_command_writes_the_file(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "Perceptron.v"
    code = main(["export", "--coq", str(path)])
    text = path.read_text()
    assert text.startswith("(* The Perceptron convergence proof")
    assert code == (1 if export(OBS).skipped else 0)
    captured = capsys.readouterr()
    assert f"wrote {path}" in captured.out
    assert main(["export", "--coq", str(tmp_path / "x.txt")]) == 2
    assert ".v" in capsys.readouterr().err


def test_verify_reports_the_checkers_per_obligation(capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    assert main(["verify", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_id = {ob["id"]: ob for ob in data["obligations"]}
    assert by_id["L2"]["checkers"] == {"z3": "proved", "coq": "not run (verify --coq)"}
    for oid in export(OBS).skipped:
        assert by_id[oid]["checkers"]["coq"].startswith("not exported: ")
    assert sys.modules  # the JSON is complete without coqc
