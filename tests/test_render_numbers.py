"""The one number formatter: exact, compact, never through a float that overflows."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pla_proof.interval import Interval
from pla_proof.render.numbers import (
    approx,
    exact,
    int_str,
    show,
    show_with_approx,
    sqrt_approx,
    to_float,
)

fractions = st.fractions(max_denominator=10**30).filter(lambda f: abs(f) < 10**30)


@given(st.integers())
def test_int_str_is_str(n: int) -> None:
    assert int_str(n) == str(n)


@pytest.mark.parametrize("digits", [4301, 10_000, 50_001])
def test_int_str_beyond_pythons_digit_limit(digits: int) -> None:
    n = 10 ** (digits - 1) + 12345
    s = int_str(-n)
    assert s == "-1" + "0" * (digits - 6) + "12345"


@given(fractions)
def test_exact_round_trips(v: Fraction) -> None:
    assert Fraction(exact(v)) == v


@given(fractions.filter(lambda f: f != 0 and abs(f) > 1e-300))
def test_approx_agrees_with_float_formatting_in_range(v: Fraction) -> None:
    # %g of the correctly rounded float can differ from the decimal rounding of the
    # exact value only when the float itself lies on the other side of a tie: then by
    # one unit of the sixth digit (up to 1e-5 relative), e.g. 22110650/(10^30 - ...)
    ours = float(approx(v, 6))
    ref = float(f"{float(v):.6g}")
    assert math.isclose(ours, ref, rel_tol=1.01e-5)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (10**400, "1e+400"),
        (-(10**400), "-1e+400"),
        (Fraction(1, 10**400), "1e-400"),
        (Fraction(10**10000 + 1, 3), "3.33333e+9999"),
        (Fraction(1, 3), "1/3"),
        (Fraction(1234567890123, 7), "1.76367e+11"),
        (100000, "100000"),
        (0, "0"),
        (2.5, "2.5"),
    ],
)
def test_show_extreme_values(value: object, text: str) -> None:
    assert show(value) == text


def test_show_handles_huge_values() -> None:
    big = Fraction(7**40000 + 1, 3**30000)  # about 34,000 and 14,000 digits
    out = show(big), show_with_approx(big), sqrt_approx(big)
    assert out[0].startswith("1.") or "e+" in out[0]
    assert "see --json" in out[1]


def test_sqrt_and_float_edges() -> None:
    assert sqrt_approx(Fraction(1, 10**400)) == "1e-200"
    assert sqrt_approx(Fraction(9, 4)) == "1.5"
    assert to_float(10**400) is None and to_float(-(10**400)) is None
    assert to_float(Fraction(1, 10**400)) == 0.0
    assert to_float(Fraction(1, 3)) == 1 / 3
    with pytest.raises(ValueError):
        sqrt_approx(-1)


def test_intervals_show_their_midpoint() -> None:
    iv = Interval(1.0, 3.0)
    assert show(iv) == "2" and to_float(iv) == 2.0


def test_non_numbers_pass_through_show() -> None:
    assert show("n/a", 5) == "  n/a" and show(True) == "True"
    with pytest.raises(TypeError):
        exact("1/2")
