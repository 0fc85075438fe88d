from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from pla_proof.interval import Interval

finite = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False)


@given(finite, finite, finite, finite)
def test_arithmetic_encloses_the_exact_result(a: float, b: float, c: float, d: float) -> None:
    x, y = Interval.point(a), Interval.point(b)
    for iv, exact in [
        (x + y, Fraction(a) + Fraction(b)),
        (x - y, Fraction(a) - Fraction(b)),
        (x * y, Fraction(a) * Fraction(b)),
        (x**2, Fraction(a) ** 2),
        (
            (x + y) * Interval.point(c) - Interval.point(d),
            (Fraction(a) + Fraction(b)) * Fraction(c) - Fraction(d),
        ),
    ]:
        assert Fraction(iv.lo) <= exact <= Fraction(iv.hi)
