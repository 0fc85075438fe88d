"""The Coq export: one lemma per obligation, compiled by coqc in one run."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from pla_proof.cli import main
from pla_proof.cli import verify as verify_cmd
from pla_proof.proof import coq as coq_module
from pla_proof.proof import coqc as coqc_module
from pla_proof.proof import obligations
from pla_proof.proof.algorithm import THEOREMS as ALGORITHM_THEOREMS
from pla_proof.proof.coq import coq_name, export, run_coqc, statement
from pla_proof.proof.identities import Verdict
from pla_proof.proof.obligations import Obligation, all_obligations, implication
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
    # every obligation is exported: none is left out
    assert result.skipped == {}
    assert result.exported == [ob.id for ob in OBS]
    assert len({coq_name(ob.id) for ob in OBS}) == len(OBS)


def test_the_structured_corollaries_keep_their_hypotheses() -> None:
    by_id = {ob.id: ob for ob in OBS}
    dual = statement(by_id["DUAL.base"])
    assert "(forall p : nat, (1 <= p <= n)%nat -> alpha p = 0)" in dual
    assert "(j >= 1%nat)%nat -> (j <= n)%nat" in statement(by_id["DUAL.step"])
    assert statement(by_id["BIAS3.decision"]).count("b_s1 = a1 ->") == 1
    assert "k = 1 -> a = 0 -> b_s = 0 -> b_m = 0 ->" in statement(by_id["BIAS3.decision.start"])
    assert "xh (1%nat + d)%nat = c" in statement(by_id["BIAS.inner"])


def unexportable() -> Obligation:
    """A proved obligation with no stated conclusion: Coq cannot be given it."""
    return Obligation(
        "NOCONC", "T", "something without a conclusion", (), "sympy", "general d",
        lambda timeout_ms=0: Verdict("proved", "by fiat"),
    )  # fmt: skip


def test_an_obligation_that_cannot_be_exported_is_named() -> None:
    result = export([*OBS[:3], unexportable()])
    assert result.exported == [ob.id for ob in OBS[:3]]
    assert list(result.skipped) == ["NOCONC"]
    assert result.skipped["NOCONC"].startswith("NOCONC: cannot express")


def test_verify_fails_when_an_obligation_is_not_exported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(verify_cmd, "all_obligations", lambda: (*OBS, unexportable()))
    assert main(["verify", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["all_proved"] is True and data["chain"]["ok"] is True and data["ok"] is False
    by_id = {ob["id"]: ob for ob in data["obligations"]}
    assert by_id["NOCONC"]["checkers"]["coq"].startswith("not exported: ")
    assert "(1 NOT EXPORTED)" in data["verdict"]
    monkeypatch.setattr(obligations, "all_obligations", lambda: (*OBS, unexportable()))
    assert main(["export", "--coq", str(tmp_path / "Partial.v")]) == 1
    assert "not exported: NOCONC" in capsys.readouterr().err


@needs_coq
def test_coqc_compiles_every_exported_lemma() -> None:
    outcome = run_coqc(OBS)
    assert outcome.message == "compiled", outcome.message
    assert outcome.ok and outcome.status == {ob.id: "proved" for ob in OBS}


@needs_coq
def test_coqc_rejects_a_false_lemma() -> None:
    wrong = implication("WRONG", "T", [rel(n1, ">=", 0)], rel(n1, ">", 0))
    outcome = run_coqc([wrong])
    assert not outcome.ok and outcome.status == {"WRONG": "failed"}


def test_export_command_writes_the_file(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "Perceptron.v"
    assert main(["export", "--coq", str(path)]) == 0
    text = path.read_text()
    assert text.startswith("(* The Perceptron convergence proof")
    captured = capsys.readouterr()
    assert f"wrote {path}: {len(OBS)} lemmas and the development" in captured.out
    assert captured.err == "" and "Inductive run" in text
    assert main(["export", "--coq", str(tmp_path / "x.txt")]) == 2
    assert ".v" in capsys.readouterr().err


def test_verify_reports_the_checkers_per_obligation(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["verify", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_id = {ob["id"]: ob for ob in data["obligations"]}
    assert by_id["L2"]["checkers"] == {"z3": "proved", "coq": "not run (verify --coq)"}
    assert all(ob["checkers"]["coq"] == "not run (verify --coq)" for ob in data["obligations"])


@needs_coq
def test_verify_coq_fails_when_coq_rejects_a_proof(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--coq", "--json", "--only", "L2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["obligations"][0]["checkers"] == {"z3": "proved", "coq": "proved"}
    # Z3 still proves L2, but the Coq script no longer does: verify --coq must fail
    monkeypatch.setitem(coq_module._PROOFS, "L2", "intros. ring.")
    assert main(["verify", "--coq", "--json", "--only", "L2"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["all_proved"] is True and data["ok"] is False
    assert data["obligations"][0]["checkers"] == {"z3": "proved", "coq": "failed"}


@needs_coq
def test_print_assumptions_is_read_per_theorem_and_names_an_admitted_lemma() -> None:
    """``verify --coq`` prints the assumptions of every theorem of the development after
    it; a theorem resting on an ``Admitted`` lemma is named with it (and is then not
    "proved": only the reals' documented axioms are allowed)."""
    theorems = ["honest", "uses_gap"]
    text = (
        "Lemma honest : True. Proof. exact I. Qed.\n"
        "Lemma gap : False. Admitted.\n"
        "Lemma uses_gap : 1 = 2. Proof. destruct gap. Qed.\n"
    ) + "".join(
        f"Definition pla_mark_{i} := tt.\nCheck pla_mark_{i}.\nPrint Assumptions {n}.\n"
        for i, n in enumerate(theorems)
    )
    proc, _ = coq_module.compile_text(shutil.which("coqc") or "coqc", text, 120)
    assert proc is not None and proc.returncode == 0, proc
    found = coq_module._assumptions_per(proc.stdout, theorems)
    assert found["honest"] == ()
    assert [a.rsplit(".", 1)[-1] for a in found["uses_gap"]] == ["gap"]
    assert not set(found["uses_gap"]) <= coq_module.ALLOWED


@needs_coq
def test_one_print_assumptions_of_all_and_each_only_when_the_union_goes_beyond(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``verify --coq`` reads the union of the theorems' axioms in one ``Print
    Assumptions``; a theorem resting on an added ``Axiom`` takes the union beyond the
    reals' two, and then each theorem's are read: that one is named, the others proved."""
    gap = (
        "\nAxiom pla_gap : False.\n"
        "(* nodes: T *)\nTheorem pla_uses_gap : (1 = 2)%nat. Proof. destruct pla_gap. Qed.\n"
    )
    source = coq_module.algorithm_source()
    monkeypatch.setattr(coq_module, "algorithm_source", lambda: source + gap)
    kept = {"perceptron_bound", "pla_uses_gap"}
    every = coq_module.kernel_theorems
    monkeypatch.setattr(
        coq_module, "kernel_theorems", lambda *a: [t for t in every(*a) if t.name in kept]
    )
    outcome = run_coqc(all_obligations(), development=True)
    assert any(a.endswith("pla_gap") for a in outcome.union)
    assert outcome.theorems["perceptron_bound"] == "proved"
    assert outcome.theorems["pla_uses_gap"].startswith("proved, but on ")
    assert "pla_gap" in outcome.theorems["pla_uses_gap"] and not outcome.ok
    assert set(outcome.axioms["perceptron_bound"]) <= coq_module.ALLOWED


def test_a_theorem_tagged_axiom_free_that_goes_through_r_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The theorems over Q are tagged ``axioms: none`` and their ``Print Assumptions``
    must be closed: one proved through the reals (here ``Rlt_0_1``, which rests on the
    reals' two axioms) is named, though those axioms are allowed to the theorems over R."""
    through_r = (
        "\n(* nodes: T; axioms: none *)\n"
        "Theorem pla_through_r : (0 < 1)%R /\\ (1 = 1)%nat.\n"
        "Proof. split; [apply Rlt_0_1 | reflexivity]. Qed.\n"
    )
    source = coq_module.algorithm_source()
    monkeypatch.setattr(coq_module, "algorithm_source", lambda: source + through_r)
    kept = {"perceptron_bound", "cyclic_bound", "pla_through_r"}
    every = coq_module.kernel_theorems
    monkeypatch.setattr(
        coq_module, "kernel_theorems", lambda *a: [t for t in every(*a) if t.name in kept]
    )
    outcome = run_coqc(all_obligations(), development=True)
    assert outcome.theorems["perceptron_bound"] == "proved"  # over R: the two allowed
    assert outcome.theorems["cyclic_bound"] == "proved" and outcome.axioms["cyclic_bound"] == ()
    assert outcome.theorems["pla_through_r"].startswith("proved, but on ") and not outcome.ok


def test_the_theorems_over_q_are_tagged_axiom_free() -> None:
    """Every headline theorem of ``algorithm.v`` but the two about the development's
    runs over R is tagged ``axioms: none`` (checked closed by ``verify --coq``)."""
    tagged = {t.name: t.closed for t in coq_module.kernel_theorems()}
    over_r = {"every_run_from_zero", "every_perceptron_run"}
    for name in ALGORITHM_THEOREMS:
        assert tagged[name] is (name not in over_r), name
    assert tagged["pocket_returns"] and tagged["pocket_within_bound"]


@needs_coq
def test_a_coqc_started_early_on_the_same_text_is_the_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``verify --coq`` starts ``coqc`` on the text the last run compiled, before it
    exports its own: ``run_coqc`` takes that process when the texts agree (and compiles
    nothing else)."""
    from pla_proof.proof.coqc import EarlyCoqc

    text = export(OBS).text
    kept = tmp_path / "last.v"
    early = EarlyCoqc(COQC or "coqc", text, kept)

    def refused(*args: object) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(coq_module, "compile_text", refused)
    outcome = run_coqc(OBS, coqc=COQC, started=early)
    assert outcome.ok and outcome.message == "compiled"
    assert outcome.status == {ob.id: "proved" for ob in OBS}
    assert kept.read_text() == text


@needs_coq
def test_a_coqc_started_early_on_another_text_is_stopped(tmp_path: Path) -> None:
    """A text that is not this run's (the proof changed since): that ``coqc`` is
    stopped, this run's text compiled and remembered for the next run."""
    from pla_proof.proof.coqc import EarlyCoqc

    kept = tmp_path / "last.v"
    early = EarlyCoqc(COQC or "coqc", "Lemma stale : False. Admitted.\n", kept)
    wrong = implication("WRONG", "T", [rel(n1, ">=", 0)], rel(n1, ">", 0))
    outcome = run_coqc([wrong], coqc=COQC, started=early)
    assert outcome.status == {"WRONG": "failed"}
    assert kept.read_text() == export([wrong]).text
    with pytest.raises(RuntimeError):
        early.wait(1)  # stopped


@needs_coq
def test_verify_coq_starts_coqc_on_the_text_of_the_last_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The first ``verify --coq`` has nothing to start early and remembers its text; the
    next starts ``coqc`` on it before exporting, and takes it.  (Three obligations only:
    the development then fails at its first theorem, in a second.)"""
    kept = tmp_path / "last.v"
    monkeypatch.setattr(coqc_module, "_remembered", lambda binary: kept)
    monkeypatch.setattr(verify_cmd, "all_obligations", lambda: OBS[:3])
    claims: list[bool] = []
    claim = coqc_module.EarlyCoqc.claim

    def recorded(self: coqc_module.EarlyCoqc, text: str) -> bool:
        claims.append(claim(self, text))
        return claims[-1]

    monkeypatch.setattr(coqc_module.EarlyCoqc, "claim", recorded)
    assert main(["verify", "--coq", "--json"]) == 1
    first = json.loads(capsys.readouterr().out)
    assert main(["verify", "--coq", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["kernel"] == first["kernel"]
    assert claims == [False, True]


def test_coqc_runs_in_a_directory_of_the_users_alone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``coqc`` runs in a directory per user and ``coqc`` (micromega keeps its
    certificates there): mode 0700, refused when others may write it; a cache file past
    the bound is removed."""
    import os
    import sys
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    home = coqc_module.coqc_home(sys.executable)
    assert home is not None and home.parent.parent == tmp_path
    assert home.stat().st_mode & 0o777 == 0o700 == home.parent.stat().st_mode & 0o777
    assert coqc_module.coqc_home(sys.executable) == home
    (home / ".nra.cache").write_bytes(b"x" * 100)
    monkeypatch.setattr(coqc_module, "_CACHE_BYTES", 10)
    assert coqc_module.coqc_home(sys.executable) == home
    assert not (home / ".nra.cache").exists()
    os.chmod(home, 0o770)
    assert coqc_module.coqc_home(sys.executable) is None
