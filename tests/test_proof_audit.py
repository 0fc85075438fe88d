"""``pla-proof audit``: a certificate is accepted only as a reviewer would accept it --
compiled against pla_proof's own library, each final theorem stating what its kind
states on its data and the numbers recomputed from them, ``Print Assumptions`` closed
or the documented axioms.  Honest certificates of each kind pass; each tampering in the
list is rejected, with its reason."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from _coq_library import COQC, coqc

from pla_proof.cli import main
from pla_proof.proof import audit as A
from pla_proof.proof.algorithm import library_text
from pla_proof.schemas import validate

pytestmark = pytest.mark.skipif(
    COQC is None, reason="coqc is not installed (Debian package 'coq'; .ci/system-packages)"
)


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Honest certificates: a cyclic run (students, with a bias), a replayed run, a
    separator."""
    home = tmp_path_factory.mktemp("certs")
    made = {
        "cyclic": ["trace", "students"],
        "replayed": ["trace", "orthonormal:3", "--replay", "3,1,2"],
        "separator": ["certify", "students", "10,10,-5,10,10,0"],
        "gordan": ["trace", "xor"],
    }
    out = {}
    for name, argv in made.items():
        path = home / f"{name}.v"
        assert main([*argv, "--coq-certificate", str(path)]) in (0, 3)  # xor: not separable
        out[name] = path.read_text()
    return out


def audited(tmp_path: Path, text: str, *data: str) -> tuple[int, dict[str, object]]:
    path = tmp_path / "Cert.v"
    path.write_text(text)
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["audit", str(path), *data, "--json"])
    doc = json.loads(buf.getvalue())
    validate(doc)
    return code, doc


@pytest.mark.parametrize("kind", ["cyclic", "replayed", "separator", "gordan"])
def test_an_honest_certificate_is_accepted_with_the_documented_axioms_only(
    tmp_path: Path, certs: dict[str, str], kind: str
) -> None:
    code, doc = audited(tmp_path, certs[kind])
    assert code == 0 and doc["ok"], doc["reason"]
    axioms = doc["axioms"]
    assert isinstance(axioms, list) and set(axioms) <= A.ALLOWED
    assert ("never_returns" if kind == "gordan" else "every_run") in doc["theorems"]  # type: ignore[operator]


def _proof_of(text: str, theorem: str) -> str:
    start = text.index(f"Theorem {theorem}")
    proof = text.index("Proof.", start)
    return text[proof : text.index("Qed.", proof) + 4]


def _bigger_bound(t: str) -> str:
    """every_run stated with 7 (true, weaker than the data's 6), proved so it compiles."""
    old = _proof_of(t, "every_run")
    t = t.replace("  (Z.of_nat k <= 6)%Z.\nProof.", "  (Z.of_nat k <= 7)%Z.\nProof.")
    return t.replace(
        old,
        "Proof.\n  intros k w H. pose proof (every_perceptron_run X Y c U TH data_well_formed\n"
        "    gamma_positive k w H) as P. rewrite the_bound in P. lia.\nQed.",
    ).replace("Require Import Reals", "Require Import Lia Reals", 1)


def _weaker_run(t: str) -> str:
    """this_run with its separation claim replaced by True (compiles)."""
    old = _proof_of(t, "this_run")
    t = t.replace(
        "  forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot W x + c * B).\nProof.",
        "  True.\nProof.",
    )
    return t.replace(old, "Proof. split; [exact the_run | split; [lia | exact I]]. Qed.").replace(
        "Require Import Reals", "Require Import Lia Reals", 1
    )


def _own_validator(t: str) -> str:
    """A replayed run whose separation is stated by a validator of its own (always true)."""
    t = t.replace(
        "Lemma the_run_separates :",
        "Definition separates (D : list (list Q * Q)) (c : Q) (w : list Q) (b : Q) : bool :="
        " true.\nLemma the_run_separates :",
    )
    old = _proof_of(t, "the_run_separates_strictly")
    t = t.replace(
        "  forall x y, In (x, y) (combine X Y) -> 0 < y * (qdot W x + c * B).\nProof. exact",
        "  separates (combine X Y) c W B = true.\nProof. exact",
    )
    return t.replace(old, "Proof. reflexivity. Qed.")


TAMPERINGS: dict[str, tuple[str, Callable[[str], str], str]] = {
    # name: (certificate, edit, what the reason says)
    "admitted-false-bound": (
        "cyclic",
        lambda t: t.replace("(Z.of_nat 2 <= 6)%Z /\\", "(Z.of_nat 2 <= 1)%Z /\\").replace(
            _proof_of(t, "this_run"), "Admitted."
        ),
        "contains `Admitted`",
    ),
    "axiom": (
        "cyclic",
        lambda t: t.replace("Theorem every_run", "Axiom cheat : False.\nTheorem every_run"),
        "contains `Axiom`",
    ),
    "parameter": (
        "separator",
        lambda t: t.replace("Theorem every_run", "Parameter p : nat.\nTheorem every_run"),
        "contains `Parameter`",
    ),
    "bigger-bound-that-compiles": ("cyclic", _bigger_bound, "does not state what"),
    "smaller-bound": (
        "cyclic",
        lambda t: t.replace("  (Z.of_nat k <= 6)%Z.", "  (Z.of_nat k <= 5)%Z."),
        "Coq rejects it",
    ),
    "k": ("cyclic", lambda t: t.replace("2%nat", "1%nat"), "Coq rejects it"),
    "gamma": (
        "cyclic",
        lambda t: t.replace("(13565 # 1).", "(13566 # 1).", 1),
        "it states gamma = 13566; the data's margin is 13565",
    ),
    "R2": (
        "cyclic",
        lambda t: t.replace("Definition R2 : Q := (501 # 1).", "Definition R2 : Q := (502 # 1)."),
        "it states R2 = 502",
    ),
    "weights": (
        "cyclic",
        lambda t: t.replace(
            "Definition W : list Q := [(10 # 1)", "Definition W : list Q := [(11 # 1)"
        ),
        "Coq rejects it",
    ),
    "labels": (
        "separator",
        lambda t: re.sub(
            r"Definition Y : list Q := \[\(1 # 1\)", "Definition Y : list Q := [(-1 # 1)", t
        ),
        "does not separate the data",
    ),
    "weaker-statement-that-compiles": ("cyclic", _weaker_run, "does not state what"),
    "own-validator": ("replayed", _own_validator, "does not state what"),
    "theorem-removed": (
        "cyclic",
        lambda t: t[: t.index("(* and this run is one of them")],
        "no theorem this_run",
    ),
    "gordan-weakened": (
        "gordan",
        lambda t: t.replace(
            "Theorem no_separator : ~ separable X Y c 2.\nProof. exact",
            "Theorem no_separator : ~ separable X Y c 3.\nProof. intros (u & th & L & _). "
            "admit.\nexact",
        ),
        "contains `admit`",
    ),
    "gordan-statement-for-some-start": (
        "gordan",
        lambda t: t.replace(
            "forall E w0 b0, length w0 = 2%nat ->", "forall E b0, let w0 := [0; 0] in"
        ).replace(
            "intros E w0 b0 L. apply",
            "intros E b0 w0. assert (L : length w0 = 2%nat) by reflexivity. apply",
        ),
        "does not state what",
    ),
    "definition-hidden-in-a-comment": (
        "separator",
        lambda t: t.replace(
            "Definition TH : Q :=", "(* Definition TH : Q := (0 # 1). *)\nDefinition TH : Q :="
        ),
        "",  # the comment is not read: still accepted as the real definition is
    ),
}


@pytest.mark.parametrize("name", list(TAMPERINGS))
def test_each_tampering_is_rejected_with_its_reason(
    tmp_path: Path, certs: dict[str, str], name: str
) -> None:
    kind, edit, said = TAMPERINGS[name]
    text = edit(certs[kind])
    assert text != certs[kind]
    code, doc = audited(tmp_path, text)
    if not said:  # a harmless edit: the audit reads Coq, not comments
        assert code == 0 and doc["ok"], doc["reason"]
        return
    assert code == 1 and not doc["ok"] and said in str(doc["reason"]), doc["reason"]


def test_an_admitted_proof_past_the_screen_is_caught_by_its_assumptions(
    tmp_path: Path, certs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keyword screen off, ``Print Assumptions`` alone rejects an ``Admitted``
    theorem and an ``Axiom`` used in a proof."""
    monkeypatch.setattr(A, "_FORBIDDEN", re.compile(r"(?!x)x"))
    text = certs["cyclic"]
    admitted = text.replace(_proof_of(text, "this_run"), "Admitted.")
    code, doc = audited(tmp_path, admitted)
    assert code == 1 and "rest on C.this_run" in str(doc["reason"]), doc["reason"]
    axiom = text.replace("Theorem every_run", "Axiom cheat : False.\nTheorem every_run").replace(
        _proof_of(text, "every_run"), "Proof. destruct cheat. Qed."
    )
    code, doc = audited(tmp_path, axiom)
    assert code == 1 and "rest on C.cheat" in str(doc["reason"]), doc["reason"]


def test_a_certificate_about_other_data_is_rejected_when_the_data_are_given(
    tmp_path: Path, certs: dict[str, str]
) -> None:
    code, doc = audited(tmp_path, certs["cyclic"], "students")
    assert code == 0, doc["reason"]
    code, doc = audited(tmp_path, certs["cyclic"], "orthonormal:5")
    assert code == 1 and "not the data given" in str(doc["reason"])


def test_the_library_written_beside_it_is_never_used(tmp_path: Path, certs: dict[str, str]) -> None:
    """A library whose validator is replaced by ``true`` does not compile (the validator
    is proved right), and a certificate beside such a copy is checked against the
    package's own library anyway."""
    text = library_text()
    old = "| (x, y) :: D' => negb (Qle_bool (y * (qdot w x + c * b)) 0) && separates D' c w b"
    assert old in text
    rigged = text.replace(old, "| (x, y) :: D' => separates D' c w b")
    assert coqc(rigged, "Rigged").returncode != 0  # separates_correct fails
    (tmp_path / "PlaPerceptron.v").write_text(rigged)
    code, doc = audited(tmp_path, certs["separator"])
    assert code == 0, doc["reason"]


def test_audit_refuses_what_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(tmp_path / "none.v")]) == 2
    assert "cannot read the certificate" in capsys.readouterr().err
    (tmp_path / "Other.v").write_text("Lemma one : 1 = 1. Proof. reflexivity. Qed.\n")
    assert main(["audit", str(tmp_path / "Other.v")]) == 1
    assert "not a pla-proof certificate" in capsys.readouterr().out
