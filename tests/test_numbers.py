from fractions import Fraction

import numpy as np
import pytest

from pla_proof.errors import InputError
from pla_proof.numbers import common_scale, dot, norm2, scaled_ints, to_fraction


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
