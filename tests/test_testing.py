"""pla_proof.testing.check_variant from a user's test suite."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from checking import budget

from pla_proof.testing import check_variant
from pla_proof.variants import Claim, LinearVariant


def test_check_variant_passes_a_correct_variant() -> None:
    assert check_variant("margin", **budget(10)).ok


def test_check_variant_raises_with_the_counterexample() -> None:
    with pytest.raises(AssertionError, match=r"G1 fails at update k=1 .* 1 point"):
        check_variant("bug:doubled-update", **budget(10, 50))


def test_expect_failure_names_the_catching_property() -> None:
    assert not check_variant("bug:bound-minus-one", expect_failure="T", **budget(10, 50)).ok
    with pytest.raises(AssertionError, match="expected to be caught by G1, caught by T"):
        check_variant("bug:bound-minus-one", expect_failure="G1", **budget(10, 50))
    with pytest.raises(AssertionError, match="every claim held"):
        check_variant("classic", expect_failure="SEP", **budget(10))


class ThirdStep(LinearVariant):
    name = "third-step"

    def step(self, w: Any, x: Any, y: int) -> list[Fraction]:
        return [Fraction(y * v, 3) for v in x]

    def claim(self, case: Any) -> Claim:
        return Claim(C=case.radius_squared / 9, g=case.gamma / 3, uu=case.uu)


class ThirdStepWrongClaim(ThirdStep):
    name = "third-step-wrong"

    def claim(self, case: Any) -> Claim:
        return Claim(C=case.radius_squared / 9, g=case.gamma, uu=case.uu)  # forgot the 1/3


def test_check_variant_accepts_variant_objects() -> None:
    assert check_variant(ThirdStep(), **budget(10)).ok
    with pytest.raises(AssertionError, match="G2 fails"):
        check_variant(ThirdStepWrongClaim(), **budget(10, 50))
