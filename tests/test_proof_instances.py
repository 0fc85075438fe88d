"""A variant's own claim proved from its declared rule: the generic lemma's instance
obligations by Z3, the claim itself by Coq -- and a wrong claim refuted by the search and
left unproved by both provers."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from _plain_rules import PLAIN_GRID, plain_variant

from pla_proof.cli import main
from pla_proof.examples.half_step_margin import forgetful, variant
from pla_proof.schemas import validate
from pla_proof.variants import Case, Claim, LinearVariant, resolve, run_case
from pla_proof.variants.protocol.variant import Order
from pla_proof.variants.proving.declared import DeclaredRule, read_rule
from pla_proof.variants.proving.instances import coq_text, prove_claim

needs_coq = pytest.mark.skipif(
    shutil.which("coqc") is None,
    reason="coqc is not installed (Debian package 'coq'; .ci/system-packages)",
)
SPEC = "pla_proof.examples.half_step_margin"


def test_the_half_step_margin_claim_is_proved_by_z3() -> None:
    p = prove_claim(variant)
    assert p.status == "proved" and p.coq is None
    assert [o.id for o in p.obligations] == ["ETA", "G1", "G2", "POS", "SEP"]
    assert set(p.properties) == {"G1", "G2", "P_k", "Q_k", "L4", "T", "SEP"}


def test_the_forgotten_margin_term_is_refuted_with_a_counterexample() -> None:
    p = prove_claim(forgetful)
    assert p.status == "refuted" and not p.properties
    g1 = next(o for o in p.obligations if o.id == "G1")
    assert g1.verdict.status == "refuted" and "counterexample" in g1.verdict.detail


class UnitBallUnstated(LinearVariant):
    """unit-ball's claim C = 1 without stating its domain |x| <= 1."""

    name = "unit-ball-unstated"

    def claim(self, case: Case) -> Claim:
        return Claim(C=Fraction(1), g=case.gamma, uu=case.uu)


def test_a_domain_the_provers_are_not_told_is_not_assumed() -> None:
    # C = 1 holds only for |x| <= 1: unstated, G1 is refuted (R^2 > 1 is allowed) ...
    p = prove_claim(UnitBallUnstated())
    g1 = next(o for o in p.obligations if o.id == "G1")
    assert p.status == "refuted" and g1.verdict.status == "refuted" and not p.proved
    assert "not known to the provers" in p.describe()
    # ... stated (assumes = ("R2 <= 1",)), it is proved
    q = prove_claim(resolve("unit-ball"))
    assert q.proved and "R^2 <= 1" in q.describe()


def test_a_case_outside_the_declared_assumption_is_skipped_not_run() -> None:
    from pla_proof.errors import OutsideDomain

    two = Fraction(2)
    case = Case(((two,),), (1,), (Fraction(1),), two)  # R^2 = 4: not in the unit ball
    with pytest.raises(OutsideDomain, match="assumption R2 <= 1"):
        run_case(resolve("unit-ball"), case, Order("cyclic"))


def test_a_rule_that_is_not_declarative_is_tested_not_proved() -> None:
    p = prove_claim(resolve("pocket"))
    assert p.status == "not declarative" and not p.properties
    assert p.describe().startswith("tested, not proved: not a LinearVariant")


def test_a_trigger_that_stops_short_of_separation_fails_sep() -> None:
    # y w.x < 0 stops at y w.x = 0: no separation, so SEP is not an obligation that holds
    p = prove_claim(resolve("bug:strict-trigger"))
    sep = [o for o in p.obligations if o.id == "SEP"]
    assert sep and sep[0].verdict.status == "refuted" and not p.proved


@needs_coq
def test_coq_proves_the_claim_and_rejects_the_wrong_one() -> None:
    good = prove_claim(variant, coq=True)
    assert good.coq == "proved" and good.proved and good.provers() == "Z3 and Coq"
    bad = prove_claim(forgetful, coq=True)
    assert bad.coq is not None and bad.coq.startswith("failed in claim_bound")
    assert not bad.proved


def test_the_coq_text_states_the_claim_over_the_defined_rule() -> None:
    r = read_rule(variant)
    assert isinstance(r, DeclaredRule)
    text = coq_text(r, variant.name)
    assert "reach (linear_step d n X Y (1 / 2) 1 one) (fun _ => 0) k w" in text
    assert "INR k * ((1 / 2) * gam) ^ 2 <= (1 + ((1 / 4) * R2)) * norm2 d u" in text
    assert "Admitted" not in text and "Axiom" not in text


def test_a_run_cut_off_past_the_bound_is_not_judged_for_separation() -> None:
    one = Fraction(1)
    case = Case(((one, Fraction(0)), (Fraction(0), one)), (1, -1), (one, -one), one)
    rec, res = run_case(forgetful, case, Order("first"))
    assert res["T"] is not None  # one update past the (wrong) bound
    assert res["SEP"] is None and "SEP" not in rec.evaluated


def test_check_reports_proved_beside_tested(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["check", f"{SPEC}:variant", "--examples", "10", "--json"])
    doc = json.loads(capsys.readouterr().out)
    validate(doc)
    assert code == 0 and doc["proof"]["status"] == "proved"
    proved = {p["id"] for p in doc["properties"] if p["proved"]}
    assert proved == {"G1", "G2", "P_k", "Q_k", "L4", "T", "SEP"}
    assert all(p["status"] == "pass" for p in doc["properties"])
    code = main(["check", f"{SPEC}:variant", "--examples", "10"])
    out = capsys.readouterr().out
    assert "proof: PROVED by Z3" in out and "the claim is proved by Z3" in out


def test_check_refutes_and_does_not_prove_the_wrong_claim(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["check", f"{SPEC}:forgetful", "--examples", "20", "--out", str(tmp_path)]
    code = main([*argv, "--json"])
    doc = json.loads(capsys.readouterr().out)
    validate(doc)
    assert code == 1 and doc["proof"]["status"] == "refuted"
    failed = {p["id"] for p in doc["properties"] if p["status"] == "fail"}
    assert "G1" in failed and "T" in failed and "SEP" not in failed
    assert not any(p["proved"] for p in doc["properties"])


def test_check_says_why_a_claim_is_only_tested(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "pocket", "--examples", "5", "--json"])
    doc = json.loads(capsys.readouterr().out)
    validate(doc)
    assert doc["proof"]["status"] == "not declarative" and doc["proof"]["reason"]
    assert code in (0, 5)


@needs_coq
def test_check_coq_has_the_kernel_prove_the_claim(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", f"{SPEC}:variant", "--examples", "5", "--coq", "--json"])
    doc = json.loads(capsys.readouterr().out)
    validate(doc)
    assert code == 0 and doc["proof"]["coq"]["status"] == "proved"
    assert doc["proof"]["coq"]["seconds"] > 0


def test_check_coq_without_coqc_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert main(["check", "classic", "--coq"]) == 2
    err = capsys.readouterr().err
    assert "coqc not found" in err and "Traceback" not in err


def test_a_parameter_with_a_declared_range_is_proved_for_every_value_in_it() -> None:
    # the margin perceptron: y w.x <= tau -> w += eta y x, (C, g) = (eta^2 R^2 + 2 eta tau,
    # eta gamma), proved for every tau >= 0 and eta > 0
    p = prove_claim(resolve("margin"))
    assert p.proved and "and eta > 0 and tau >= 0" in p.describe()


class MarginForgettingTau(LinearVariant):
    """The margin perceptron claiming (eta^2 R^2, eta gamma): the 2 eta tau term forgotten."""

    name = "margin-forgetting-tau"
    parameters = {"tau": ">= 0", "eta": "> 0"}  # noqa: RUF012

    def tau(self, case: Case) -> Any:
        return case.params["tau"]

    def eta(self, case: Case) -> Any:
        return case.params["eta"]

    def claim(self, case: Case) -> Claim:
        eta = case.params["eta"]
        return Claim(C=eta * eta * case.radius_squared, g=eta * case.gamma, uu=case.uu)


def test_a_parametrised_claim_missing_a_term_is_refuted() -> None:
    p = prove_claim(MarginForgettingTau())
    assert p.status == "refuted" and p.failed[0].id == "G1"


@needs_coq
def test_coq_proves_the_parametrised_claim_and_rejects_the_wrong_one() -> None:
    assert prove_claim(resolve("margin"), coq=True).coq == "proved"
    bad = prove_claim(MarginForgettingTau(), coq=True)
    assert bad.coq is not None and bad.coq.startswith("failed")


def test_a_variant_adding_its_own_checks_after_the_run_keeps_its_rule_readable() -> None:
    # learning-rate checks EQ in after_run() instead of overriding run(): proved and tested
    p = prove_claim(resolve("learning-rate"))
    assert p.proved and "eta > 0" in p.describe()
    one = Fraction(1)
    case = Case(((one, Fraction(0)), (Fraction(0), one)), (1, -1), (one, -one), one)
    case = Case(case.X, case.y, case.u, case.gamma, {"eta": Fraction(3, 2)})
    rec, res = run_case(resolve("learning-rate"), case, Order("cyclic"))
    assert "EQ" in rec.evaluated and res["EQ"] is None


# --- the claim of a plain rule proved by Z3 alone (no SymPy) ---------------------------------


def test_plain_obligations_are_the_sympy_obligations() -> None:
    # the same texts, and each Z3 statement equivalent to the SymPy one translated
    import z3

    from pla_proof.proof.implications import check_implication, to_z3
    from pla_proof.proof.solving import decide
    from pla_proof.variants.proving.declared import read_plain
    from pla_proof.variants.proving.instances import instance_obligations, plain_obligations

    verdicts = set()
    for kw in PLAIN_GRID:
        v = plain_variant(**kw)
        plain, full = read_plain(v), read_rule(v)
        assert plain is not None and isinstance(full, DeclaredRule)
        ours, theirs = plain_obligations(plain), instance_obligations(full)
        assert [(i, t) for i, t, _, _ in ours] == [(i, t) for i, t, _, _ in theirs], kw
        for (oid, _, h1, c1), (_, _, h2, c2) in zip(ours, theirs, strict=True):
            env: dict[str, Any] = {}
            same = z3.Implies(z3.And(*h1), c1) == z3.Implies(
                z3.And(*[to_z3(h, env) for h in h2]), to_z3(c2, env)
            )
            assert decide([], same, env).proved, (kw, oid)
            mine, sympy_s = decide(h1, c1, env).status, check_implication(h2, c2).status
            assert mine == sympy_s, (kw, oid)
            verdicts.add(mine)
    assert verdicts == {"proved", "refuted"}  # the grid holds claims of both kinds


def test_a_plain_claim_z3_does_not_prove_is_reported_as_sympy_reports_it() -> None:
    from pla_proof.render.check import proof_to_json

    wrong = plain_variant(C=1)  # C = 1 without R^2 <= 1: G1 is refuted
    type(wrong).__module__ = "pla_proof.variants.catalog.fake"  # read as a built-in one
    p = prove_claim(wrong)
    assert p.status == "refuted" and not p.proved and not p.properties
    assert proof_to_json(p) == proof_to_json(prove_claim(wrong, plain=False))
    assert "counterexample" in next(o for o in p.obligations if o.id == "G1").verdict.detail


def test_every_built_in_claim_is_reported_as_the_sympy_path_reports_it() -> None:
    from pla_proof.render.check import proof_to_json
    from pla_proof.variants.catalog.bugs import BUGS
    from pla_proof.variants.catalog.registry import BUILTIN
    from pla_proof.variants.proving.declared import read_plain

    plain = []  # the others are proved as before (read_plain leaves them to SymPy)
    for name in [*BUILTIN, *(f"bug:{b}" for b in BUGS)]:
        try:
            v = resolve(name)
        except Exception:  # an extra that is not installed (scikit-learn)
            continue
        if read_plain(v) is not None:
            plain.append(name)
            assert proof_to_json(prove_claim(v)) == proof_to_json(prove_claim(v, plain=False))
    assert plain == ["classic", "bug:max-iter-100"]


def test_check_classic_imports_no_sympy() -> None:
    # the claim of classic is proved by Z3 alone: a check of it never loads SymPy
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pla_proof.cli import main\n"
        "rc = main(['check', 'classic', '--examples', '5', '--jobs', '1'])\n"
        "print(rc, 'sympy' in sys.modules, file=sys.stderr)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert "PROVED by Z3" in out.stdout, out.stderr
    assert out.stderr.strip().splitlines()[-1] == "0 False", out.stderr
