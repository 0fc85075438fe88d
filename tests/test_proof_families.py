"""Every catalog shape's claim through Coq: a statement generated from the variant's own
rule and claim, compiled as a corollary of the development -- and a copy of each shape's
variant with a wrong constant rejected by coqc (each compile takes a second or two: the
development is compiled once, the corollary against it)."""

from __future__ import annotations

import shutil
from fractions import Fraction
from typing import Any, ClassVar

import pytest

from pla_proof.variants import Case, Claim, resolve
from pla_proof.variants.catalog.averaged import Voted
from pla_proof.variants.catalog.bias import BiasAugment, BiasMinusOne
from pla_proof.variants.catalog.classic import ClassicStrict
from pla_proof.variants.catalog.kernel import PolynomialKernel
from pla_proof.variants.catalog.multiclass import Multiclass
from pla_proof.variants.catalog.normalised import Normalised
from pla_proof.variants.catalog.pocket import Pocket
from pla_proof.variants.catalog.start import NonzeroStart
from pla_proof.variants.proving.families import CoqClaim, NoCoqClaim, coq_claim, fit
from pla_proof.variants.proving.instances import prove_claim

needs_coq = pytest.mark.skipif(
    shutil.which("coqc") is None,
    reason="coqc is not installed (Debian package 'coq'; .ci/system-packages)",
)


def _quarter(claim: Claim) -> Claim:
    return Claim(C=claim.C / 4, g=claim.g, uu=claim.uu, pu0=claim.pu0, n0=claim.n0, end=claim.end)


class BiasQuarter(BiasAugment):
    name = "bias-quarter"

    def claim(self, case: Case) -> Claim:
        return _quarter(super().claim(case))


class MinusOneForgetsC(BiasMinusOne):
    """(x, -1) claiming R^2 for the augmented radius (the bias coordinate forgotten)."""

    name = "minus-one-forgets-c"

    def claim(self, case: Case) -> Claim:
        c = super().claim(case)
        return Claim(C=case.radius_squared, g=c.g, uu=c.uu)


class StartQuarter(NonzeroStart):
    name = "start-quarter"

    def claim(self, case: Case) -> Claim:
        c = super().claim(case)
        return Claim(C=c.C, g=c.g, uu=c.uu, pu0=c.pu0, n0=c.n0, bound=c.bound / 4)


class NormalisedQuarter(Normalised):
    name = "normalised-quarter"

    def claim(self, case: Case) -> Claim:
        return _quarter(super().claim(case))


class StrictQuarter(ClassicStrict):
    name = "strict-quarter"

    def claim(self, case: Case) -> Claim:
        c = super().claim(case)
        return Claim(C=c.C / 4, g=c.g, uu=c.uu, strict=True)


class BinaryMulticlass(Multiclass):
    """Multiclass with the binary constant: (R^2, gamma) instead of (2 R^2, gamma)."""

    name = "multiclass-binary"
    growth_factor: ClassVar[int] = 1


class KernelQuarter(PolynomialKernel):
    name = "kernel-quarter"

    def claim(self, case: Case) -> Claim:
        return _quarter(super().claim(case))


class VotedQuarter(Voted):
    name = "voted-quarter"

    def claim(self, case: Case) -> Claim:
        return _quarter(super().claim(case))


class PocketQuarter(Pocket):
    name = "pocket-quarter"

    def claim(self, case: Case) -> Claim:
        return Claim(C=case.radius_squared / 4, end=None)


#: each shape: the built-in variant, a copy with a wrong constant, the development's theorem
SHAPES: list[tuple[str, Any, str]] = [
    ("bias-augment", BiasQuarter(), "bias_claim"),
    ("bias-minus-one", MinusOneForgetsC(), "bias_claim"),
    ("nonzero-start", StartQuarter(), "start_explicit_claim"),
    ("normalised", NormalisedQuarter(), "normalised_claim"),
    ("classic-strict", StrictQuarter(), "classic_strict_claim"),
    ("multiclass", BinaryMulticlass(), "multiclass_claim"),
    ("kernel-poly", KernelQuarter(), "kernel_claim"),
    ("voted", VotedQuarter(), "generic_bound_from_zero"),
    ("pocket", PocketQuarter(), "linear_G1, pocket_returns"),
]


@pytest.mark.parametrize(("name", "wrong", "theorem"), SHAPES, ids=[s[0] for s in SHAPES])
def test_the_statement_carries_the_variants_own_constants(
    name: str, wrong: Any, theorem: str
) -> None:
    right, bad = coq_claim(resolve(name)), coq_claim(wrong)
    if theorem == "generic_bound_from_zero":  # training in passes: the template's statement
        assert not isinstance(right, CoqClaim | NoCoqClaim)
        assert not isinstance(bad, CoqClaim | NoCoqClaim)
        assert right.C != bad.C
        return
    assert isinstance(right, CoqClaim) and isinstance(bad, CoqClaim)
    assert right.theorem == bad.theorem == theorem
    assert "Admitted" not in right.text and "Axiom" not in right.text
    # the edited claim changes the statement itself, not a comment beside it
    assert (
        right.text.split("Proof.")[0].split("*)", 1)[1]
        != bad.text.split("Proof.")[0].split("*)", 1)[1]
    )


@needs_coq
@pytest.mark.parametrize(("name", "wrong", "theorem"), SHAPES, ids=[s[0] for s in SHAPES])
def test_coqc_proves_the_claim_and_rejects_the_wrong_constant(
    name: str, wrong: Any, theorem: str
) -> None:
    good = prove_claim(resolve(name), coq=True)
    assert good.coq == "proved" and good.proved, good.describe()
    bad = prove_claim(wrong, coq=True)
    assert bad.coq is not None and bad.coq.startswith("failed in claim_"), bad.describe()
    assert not bad.proved and bad.status in ("failed", "refuted")  # passes: Z3 refutes too


def test_what_the_pocket_returns_is_claimed_only_with_its_ratchet() -> None:
    """The catalog's pocket (Gallant's, with the ratchet) gets algorithm.v's theorem on
    what it returns; the pocket without the ratchet (a seeded bug: its errors can go up)
    gets the growth step alone."""
    right = coq_claim(resolve("pocket"))
    assert isinstance(right, CoqClaim) and "exact pocket_returns" in right.text
    loose = coq_claim(resolve("bug:pocket-no-ratchet"))
    assert isinstance(loose, CoqClaim | NoCoqClaim)
    assert "pocket_returns" not in getattr(loose, "text", "")
    assert getattr(loose, "theorem", "linear_G1") == "linear_G1"


def test_a_variant_without_a_corollary_says_what_would_be_needed() -> None:
    for name, words in (
        ("sklearn-perceptron", "a model of its code"),
        ("seed004-listing", "SEP0"),
    ):
        found = coq_claim(resolve(name))
        assert isinstance(found, NoCoqClaim) and words in found.reason
    proof = prove_claim(resolve("sklearn-default"))
    assert proof.status == "not declarative" and "Coq:" not in proof.describe()


def test_a_claim_outside_the_shapes_form_is_not_fitted() -> None:
    with pytest.raises(Exception, match="not of the shape's form"):
        fit([[Fraction(1)], [Fraction(2)]], [Fraction(1), Fraction(3)], "C")
    assert fit([[1, 0], [0, 1], [1, 1]], [2, 3, 5], "C") == [2, 3]


class StartDoubleStep(NonzeroStart):
    """A nonzero start with the step 2 y x: not the rule start_explicit_claim is about."""

    name = "start-double-step"

    def eta(self, case: Case) -> Fraction:
        return Fraction(2)


def test_a_rule_other_than_the_corollarys_gets_no_statement() -> None:
    found = coq_claim(StartDoubleStep())
    assert isinstance(found, NoCoqClaim) and "eta = 1" in found.reason


def test_every_built_in_gets_a_statement_or_a_reason() -> None:
    from pla_proof.variants.catalog.registry import BUILTIN
    from pla_proof.variants.proving.declared import DeclaredRule, read_rule

    for name in BUILTIN:
        if isinstance(read_rule(resolve(name)), DeclaredRule):
            continue  # the linear template's own statement (instances.coq_text)
        found = coq_claim(resolve(name), "not the template")
        if isinstance(found, NoCoqClaim):
            assert name in ("seed004-listing", "sklearn-perceptron", "sklearn-default"), (
                name,
                found.reason,
            )
            assert found.reason
        elif isinstance(found, CoqClaim):
            assert "Corollary claim_" in found.text
            assert all(t in found.text for t in found.theorem.split(", ")), found.theorem


@needs_coq
def test_check_coq_reports_a_generated_corollary_proved(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from pla_proof.cli import main
    from pla_proof.schemas import validate

    code = main(["check", "multiclass", "--examples", "5", "--coq", "--json"])
    doc = json.loads(capsys.readouterr().out)
    validate(doc)
    assert code == 0 and doc["proof"]["status"] == "proved"
    assert doc["proof"]["coq"]["status"] == "proved"
    assert "multiclass_claim" in doc["proof"]["description"]
    assert [p["id"] for p in doc["properties"] if p["proved"]] == ["T"]


HEADLINE = (
    "perceptron_bound",
    "perceptron_converges",
    "generic_bound",
    "generic_bound_from_zero_strict",
    "start_explicit_claim",
    "classic_strict_claim",
    "bias_claim",
    "normalised_claim",
    "multiclass_claim",
    "kernel_claim",
)


@needs_coq
def test_the_headline_theorems_assume_only_the_standard_reals_axioms() -> None:
    import re

    from pla_proof.proof.coq import compile_corollary

    binary = shutil.which("coqc")
    assert binary is not None
    text = "".join(f"Print Assumptions {name}.\n" for name in HEADLINE)
    proc, _ = compile_corollary(binary, text, 300)
    assert proc is not None and proc.returncode == 0, proc and proc.stderr
    axioms = set(re.findall(r"^(\S+)\s*$", proc.stdout, re.M)) - {"Axioms:"}
    assert proc.stdout.count("Axioms:") == len(HEADLINE)
    assert axioms == {
        "ClassicalDedekindReals.sig_forall_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
    }, proc.stdout
