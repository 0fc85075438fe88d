import re
from fractions import Fraction

import numpy as np
import pytest

from pla_proof.errors import InputError
from pla_proof.numbers import common_scale, dot, limits, norm2, scaled_ints, to_fraction


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.1", Fraction(1, 10)),
        ("-2.50", Fraction(-5, 2)),
        ("3/4", Fraction(3, 4)),
        ("1e2", 100),
        (" 7 ", 7),
    ],
)
def test_decimal_strings_are_read_exactly(text: str, value: Fraction) -> None:
    assert to_fraction(text) == value


def test_floats_convert_to_their_exact_dyadic_value() -> None:
    assert to_fraction(0.1) == Fraction(3602879701896397, 2**55)
    assert to_fraction(np.float64(0.5)) == Fraction(1, 2)
    assert to_fraction(np.int64(-3)) == -3


@pytest.mark.parametrize(
    "bad", [float("nan"), float("inf"), "nan", "-inf", "abc", "", "1/0", True, None, [1]]
)
def test_non_numbers_are_refused(bad: object) -> None:
    with pytest.raises(InputError):
        to_fraction(bad)


def test_scaling_clears_denominators_and_refuses_a_wrong_scale() -> None:
    rows = [[Fraction(1, 2), Fraction(1, 3)], [Fraction(5, 6), Fraction(0)]]
    s = common_scale(rows)
    assert s == 6
    assert scaled_ints(rows[0], s) == (3, 2)
    with pytest.raises(ValueError):
        scaled_ints(rows[0], 2)


def test_dot_and_norm() -> None:
    assert dot([Fraction(1, 2), 2], [2, Fraction(1, 4)]) == Fraction(3, 2)
    assert norm2([3, 4]) == 25
    with pytest.raises(ValueError):
        dot([1, 2], [1])


# --- text numerals: a strict grammar and size limits --------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.1", Fraction(1, 10)),
        ("-.5", Fraction(-1, 2)),
        ("5.", Fraction(5)),
        ("+3", Fraction(3)),
        ("1E-400", Fraction(1, 10**400)),
        ("1e400", Fraction(10**400)),
        ("-0003/6", Fraction(-1, 2)),
        ("9" * 9999, Fraction(10**9999 - 1)),
    ],
)
def test_numerals_are_read_exactly(text: str, value: Fraction) -> None:
    assert to_fraction(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1_000", "is not a number"),
        ("0x10", "is not a number"),
        ("1 000", "is not a number"),
        ("١٢", "is not a number"),
        ("1e", "is not a number"),
        (".", "is not a number"),
        ("1/0", "divides by zero"),
        ("9" * 10001, "beyond the limit of 10000 (--max-digits)"),
        ("1e999999999", "beyond the limit of 10000 (--max-exponent)"),
        ("1e-999999999", "beyond the limit of 10000 (--max-exponent)"),
        ("1/" + "3" * 10001, "--max-digits"),
    ],
)
def test_ambiguous_or_exploding_numerals_are_refused(text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        to_fraction(text)


def test_limits_are_configurable_and_restored() -> None:
    with limits(max_digits=3, max_exponent=2):
        assert to_fraction("999") == 999
        with pytest.raises(InputError, match="--max-digits"):
            to_fraction("1000")
        with pytest.raises(InputError, match="--max-exponent"):
            to_fraction("1e3")
    assert to_fraction("1e3") == 1000
    with pytest.raises(InputError, match="positive"), limits(max_digits=0):
        pass
