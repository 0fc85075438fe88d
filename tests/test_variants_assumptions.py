"""No vacuous "proved": a variant's ``assumes`` (and its parameters' ranges) are checked
satisfiable with the facts of every case before any search, and a claim is reported
proved only when the search ran a case that met every assumption.  The variants are
users' files (tests/fixtures/assuming.py), checked as users check them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pla_proof.checks import Specs, check_specs
from pla_proof.cli import main
from pla_proof.errors import InputError
from pla_proof.schemas import validate
from pla_proof.variants import Claim, LinearVariant, resolve
from pla_proof.variants.proving.declared import DeclaredRule, read_rule
from pla_proof.variants.proving.instances import coq_text, prove_claim

FILE = str(Path(__file__).parent / "fixtures" / "assuming.py")


def check(
    capsys: pytest.CaptureFixture[str], name: str, *more: str, examples: str = "10"
) -> tuple[int, str, str]:
    code = main(["check", f"{FILE}:{name}", "--examples", examples, "--jobs", "1", *more])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_contradictory_pair_is_exit_2_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    # a wrong claim (C = R^2/4) on assumes no case can meet: refused, not "PROVED"
    code, out, err = check(capsys, "contradictory")
    assert code == 2 and out == ""
    assert "assumes ('uu >= 2', 'uu <= 1') cannot hold together" in err
    assert "(at assuming.py:" in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err and "PROVED" not in err


def test_a_radius_that_is_not_positive_is_exit_2_naming_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for more in ((), ("--coq",)):  # with --coq it was an internal error (SymPy's False)
        code, out, err = check(capsys, "no_radius", *more)
        assert code == 2 and out == "", err
        assert "assume 'R2 <= 0' contradicts R2 > 0 (every point within radius R)" in err
        assert "internal error" not in err and len(err.strip().splitlines()) == 1


def test_check_all_refuses_before_any_search(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    def no_search(*args: Any, **kw: Any) -> Any:
        raise AssertionError("a search ran")

    search = importlib.import_module("pla_proof.variants.checking.search")
    monkeypatch.setattr(search, "run_searches", no_search)
    code = main(["check", "--all", f"{FILE}:contradictory", "--examples", "5", "--jobs", "1"])
    assert code == 2
    assert "cannot hold together" in capsys.readouterr().err
    # the library function behind check: the same refusal, as the user's error
    with pytest.raises(InputError, match=r"assume 'R2 <= 0' contradicts R2 > 0"):
        check_specs(Specs(["classic", f"{FILE}:no_radius"]), examples=5, jobs=1)


def test_an_assume_no_case_met_is_not_exercised_not_proved(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = check(capsys, "huge_comparator")
    assert code == 5 and "PROVED" not in out and "proved by" not in out
    proof = next(line for line in out.splitlines() if line.startswith("proof: "))
    assert proof.startswith(
        "proof: the steps hold under the assumptions, but no case met them all: not exercised "
        "(assume 'uu >= 100000000000000000000' never held in "
    )
    assert all(row.split()[3] == "-" for row in out.splitlines() if row.startswith(("G1", "T ")))
    code, out, _ = check(capsys, "huge_comparator", "--json")
    doc = json.loads(out)
    validate(doc)
    assert code == 5 and doc["proof"]["status"] == "not exercised"
    assert "never held" in doc["proof"]["reason"] and "PROVED" not in doc["proof"]["description"]
    assert doc["proof"]["properties"] == [] and not any(p["proved"] for p in doc["properties"])


def test_the_library_function_reports_what_was_not_exercised() -> None:
    outcome = check_specs(Specs(["classic", f"{FILE}:huge_comparator"]), examples=5, jobs=1)
    classic, huge = (c.proof for c in outcome.checked)
    assert classic.proved and classic.status == "proved"
    assert not huge.proved and huge.status == "not exercised" and not huge.properties


def test_a_campaign_counts_every_round_s_unmet_cases() -> None:
    # 10^80, not 10^20: a campaign's later rounds may draw a comparator with |u|^2 >= 10^20
    spec = f"{FILE}:far_comparator"
    outcome = check_specs(Specs([spec]), examples=5, jobs=1, minutes=0.05)  # rounds
    [c] = outcome.checked
    assert c.report.runs == 0 and c.report.skipped > 5  # more than one round's cases
    assert sum(c.report.skip_reasons.values()) == c.report.skipped
    assert c.proof.reason.startswith(f"assume 'uu >= {10**80}' never held in ")
    assert c.proof.reason.endswith(f" {c.report.skipped} cases")


def test_a_satisfiable_assume_met_by_the_search_is_still_proved(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = check(capsys, "unit_ball")
    assert code == 0 and "proof: PROVED by Z3" in out and "R^2 <= 1" in out
    assert out.rstrip().endswith("the claim is proved by Z3")
    code, out, _ = check(capsys, "unit_ball", "--json")
    doc = json.loads(out)
    validate(doc)
    assert doc["proof"]["status"] == "proved" and "T" in doc["proof"]["properties"]


def test_the_proof_alone_is_not_proved_from_contradictory_assumptions() -> None:
    for name, named in (
        ("contradictory", "assumes ('uu >= 2', 'uu <= 1') cannot hold together"),
        ("no_radius", "assume 'R2 <= 0' contradicts R2 > 0"),
    ):
        p = prove_claim(resolve(f"{FILE}:{name}"))
        assert not p.proved and not p.properties and named in p.describe()


class AssumesTheObvious(LinearVariant):
    name = "assumes-the-obvious"
    assumes = ("R2 > 0",)  # SymPy folds it to True (R2 is a positive symbol)

    def claim(self, case: Any) -> Claim:
        return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)


def test_an_assume_sympy_would_fold_stays_a_hypothesis() -> None:
    r = read_rule(AssumesTheObvious())
    assert isinstance(r, DeclaredRule) and prove_claim(AssumesTheObvious()).proved
    assert "Hypothesis assumed_0 : R2 > 0." in coq_text(r, "assumes-the-obvious")


def test_an_assume_that_is_not_one_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    class Vague(AssumesTheObvious):
        name = "vague"
        assumes = ("R2 is small",)

    class Undeclared(AssumesTheObvious):
        name = "undeclared"
        assumes = ("eta <= 1",)

    with pytest.raises(InputError, match="'R2 is small' is not 'NAME OP NUMBER'"):
        _check(Vague())
    with pytest.raises(InputError, match="eta is not R2, gamma, uu or a declared parameter"):
        _check(Undeclared())


def _check(variant: Any) -> None:
    from pla_proof.variants.checking.search import run_searches

    run_searches([variant], examples=5)


def test_z3_names_the_smallest_contradiction() -> None:
    import sympy as sp

    from pla_proof.variants.proving.assumptions import GAMMA, R2, UU, contradiction

    eta = sp.Symbol("eta")
    assert contradiction([("eta <= 0", eta <= 0)], {"eta": "> 0"}) == (
        "assume 'eta <= 0' contradicts eta > 0 (its declared range)"
    )
    assert contradiction([("eta <= 0", eta <= 0)], {"eta": "real"}) is None
    # gamma^2 <= R2 |u|^2: a margin of 2 with R2 <= 1 and |u|^2 <= 1 cannot be
    why = contradiction([("gamma >= 2", GAMMA >= 2), ("R2 <= 1", R2 <= 1), ("uu <= 1", UU <= 1)])
    assert why is not None and "gamma^2 <= R2 uu" in why
    assert contradiction([("gamma >= 1", GAMMA >= 1), ("R2 <= 1", R2 <= 1)]) is None


def test_a_search_imports_no_sympy_but_the_proof_still_reads_the_facts() -> None:
    """SymPy is for the proof, which ``check`` runs while the search's workers run: a
    search of a variant that assumes nothing imports none of it before it forks (a
    fresh process), and the facts and ``prove_claim`` are there on first use."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pla_proof.variants.catalog.registry import resolve\n"
        "from pla_proof.variants.checking.drawing import declarations\n"
        "from pla_proof.variants.checking.search import run_searches\n"
        "v = resolve('classic')\n"
        "declarations(v, 5.0)\n"
        "[r] = run_searches([v], examples=10, jobs=1)\n"
        "print(r.ok, 'sympy' in sys.modules)\n"
        "from pla_proof.variants.proving import prove_claim\n"
        "from pla_proof.variants.proving.assumptions import CASE_FACTS\n"
        "print(prove_claim(v).status, len(CASE_FACTS), 'sympy' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[0] == "True False"
    assert proc.stdout.split("\n")[1] == "proved 4 True"
