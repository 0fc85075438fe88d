"""The one number formatter: exact values shown compactly, never through a float.

Every value a command prints is an exact rational (``int`` or ``Fraction``), a
float-mode enclosure (:class:`~pla_proof.interval.Interval`) or a measured float.
Exact values can be huge (a 10,000-digit decimal, ``1e400``, ``1e-400``), so no
function here converts an exact value to ``float`` on the way: approximations are
computed in :mod:`decimal` with an unbounded exponent range, and integers of any
length are written in decimal without Python's int-to-string digit limit.

* :func:`exact` -- the exact value, ``"p/q"`` in lowest terms or ``"p"``;
* :func:`approx` -- a correctly rounded decimal with ``digits`` significant digits;
* :func:`show` -- what text output prints: exact when short, else :func:`approx`;
* :func:`show_with_approx` -- the exact value with its decimal beside it;
* :func:`sqrt_approx` -- the square root of an exact value, to ``digits`` digits;
* :func:`to_float` -- the nearest float64, or ``None`` beyond float64's range.

>>> from fractions import Fraction
>>> exact(Fraction(465429, 67825)), show(Fraction(465429, 67825))
('465429/67825', '465429/67825')
>>> show(Fraction(1234567890, 987654321))
'1.25'
>>> show(10**400), show(Fraction(1, 10**400)), show(Fraction(-7, 3))
('1e+400', '1e-400', '-7/3')
>>> approx(Fraction(2, 3), digits=3), sqrt_approx(2)
('0.667', '1.41421')
>>> show_with_approx(Fraction(465429, 67825))
'465429/67825 (≈ 6.8622)'
>>> to_float(Fraction(1, 4)), to_float(10**400)
(0.25, None)
>>> len(exact(Fraction(10**5000 + 1, 3)))
5003
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from decimal import MAX_EMAX, MIN_EMIN, ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction
from typing import Any

__all__ = [
    "SHORT",
    "approx",
    "exact",
    "int_str",
    "show",
    "show_with_approx",
    "sqrt_approx",
    "to_float",
    "vector",
]

#: exact values up to this many characters are printed exactly by :func:`show`
SHORT = 14

#: integers below this many bits are converted by ``str`` directly (well inside
#: Python's default limit of 4300 digits)
_DIRECT_BITS = 12_000


def int_str(n: int) -> str:
    """``n`` in decimal, however many digits (no ``sys.set_int_max_str_digits`` needed).

    >>> int_str(-(10**5000)) == "-1" + "0" * 5000
    True
    """
    if n < 0:
        return "-" + int_str(-n)
    if n.bit_length() < _DIRECT_BITS:
        return str(n)
    # split in halves of k decimal digits: n = hi * 10^k + lo
    k = max(1, int(n.bit_length() * math.log10(2)) // 2)
    hi, lo = divmod(n, 10**k)
    return int_str(hi) + int_str(lo).rjust(k, "0")


#: a vector longer than this is shown by its first and last coordinates (text output)
VECTOR_SHOWN = 12


def vector(v: Sequence[Any], each: Callable[[Any], str] | None = None) -> str:
    """A vector in text output: ``(a, b, c)``, each coordinate by ``each`` (default
    :func:`exact`); past :data:`VECTOR_SHOWN` coordinates the first and the last two, and
    how many there are (the JSON output has them all).

    >>> vector([1, Fraction(1, 2), 0])
    '(1, 1/2, 0)'
    >>> vector(range(100_000))
    '(0, 1, 2, 3, 4, 5, 6, 7, 8, …, 99998, 99999; 100,000 coordinates)'
    """
    f = exact if each is None else each
    n = len(v)
    if n <= VECTOR_SHOWN:
        return "(" + ", ".join(f(x) for x in v) + ")"
    head = [f(v[i]) for i in range(VECTOR_SHOWN - 3)]
    tail = [f(v[n - 2]), f(v[n - 1])]
    return "(" + ", ".join([*head, "…", *tail]) + f"; {n:,} coordinates)"


def exact(v: Any) -> str:
    """The exact value as a string: ``"p/q"`` in lowest terms (q > 0) or ``"p"``.

    >>> exact(Fraction(6, -4)), exact(3), exact(Fraction(8, 2))
    ('-3/2', '3', '4')
    """
    v = _rational(v)
    if v.denominator == 1:
        return int_str(v.numerator)
    return f"{int_str(v.numerator)}/{int_str(v.denominator)}"


def _context(digits: int) -> Context:
    return Context(prec=digits, rounding=ROUND_HALF_EVEN, Emax=MAX_EMAX, Emin=MIN_EMIN)


def _decimal(v: Fraction, digits: int) -> Decimal:
    """``v`` correctly rounded to ``digits`` significant digits (no float anywhere)."""
    ctx = _context(digits)
    return ctx.divide(Decimal(v.numerator), Decimal(v.denominator))


def _fmt_decimal(d: Decimal, digits: int) -> str:
    """``%g`` style: no trailing zeros in the significand, exponent as ``e+N``."""
    mantissa, e, exponent = format(d, f".{digits}g").replace("E", "e").partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + e + exponent


def approx(v: Any, digits: int = 6) -> str:
    """``v`` rounded to ``digits`` significant digits, in ``%g`` style.

    Floats and interval midpoints are formatted as floats; exact values in
    :mod:`decimal`, so ``1e400`` and ``1e-400`` come out as themselves.

    >>> approx(Fraction(1, 3)), approx(10**400 + 1), approx(-0.1)
    ('0.333333', '1e+400', '-0.1')
    >>> approx(123456789)
    '1.23457e+8'
    """
    if isinstance(v, float):
        return f"{v:.{digits}g}"
    mid = _interval_mid(v)
    if mid is not None:
        return f"{mid:.{digits}g}"
    return _fmt_decimal(_decimal(_rational(v), digits), digits)


def show(v: Any, width: int = 0) -> str:
    """Text output's number: exact when it fits in :data:`SHORT` characters, else
    :func:`approx`; right-justified to ``width``.

    >>> show(Fraction(1, 10)), show(Fraction(10**20, 3)), show(2.5), show("x", 3)
    ('1/10', '3.33333e+19', '2.5', '  x')
    """
    if isinstance(v, bool) or (not isinstance(v, int | Fraction | float) and not _is_interval(v)):
        return str(v).rjust(width)
    if isinstance(v, float) or _is_interval(v):
        return approx(v).rjust(width)
    r = _rational(v)
    # a cheap size test before building the string: more than SHORT digits cannot fit
    if r.numerator.bit_length() + r.denominator.bit_length() <= 4 * SHORT:
        s = exact(r)
        if len(s) <= SHORT:
            return s.rjust(width)
    return approx(r).rjust(width)


def show_with_approx(v: Any, digits: int = 6) -> str:
    """The exact value with its decimal beside it; a long exact value is replaced by
    its size (the exact value is in ``--json``).

    >>> show_with_approx(Fraction(1, 3)), show_with_approx(4)
    ('1/3 (≈ 0.333333)', '4')
    >>> show_with_approx(Fraction(10**60 + 1, 3))
    '≈ 3.33333e+59 (exact: a 63-character rational, see --json)'
    """
    r = _rational(v)
    if r.numerator.bit_length() + r.denominator.bit_length() > 4 * 60:
        s = None
    else:
        s = exact(r)
        if len(s) > 60:
            s = None
    if s is None:
        size = _exact_len(r)
        return f"≈ {approx(r, digits)} (exact: a {size}-character rational, see --json)"
    if r.denominator == 1:
        return s
    return f"{s} (≈ {approx(r, digits)})"


def sqrt_approx(v: Any, digits: int = 6) -> str:
    """The square root of a non-negative exact value, to ``digits`` digits.

    >>> sqrt_approx(Fraction(1, 10**400)), sqrt_approx(0)
    ('1e-200', '0')
    """
    if isinstance(v, float):
        return f"{math.sqrt(v):.{digits}g}"
    r = _rational(v)
    if r < 0:
        raise ValueError(f"square root of a negative value {exact(r)}")
    ctx = _context(digits + 3)
    root = ctx.sqrt(ctx.divide(Decimal(r.numerator), Decimal(r.denominator)))
    return _fmt_decimal(_context(digits).plus(root), digits)


def to_float(v: Any) -> float | None:
    """The nearest float64 to ``v``, or ``None`` when ``|v|`` is beyond float64's
    range (so JSON never holds an infinity).  Values below the smallest subnormal
    round to ``0.0``, as IEEE rounding does.

    >>> to_float(Fraction(-10**400, 3)), to_float(Fraction(1, 10**400))
    (None, 0.0)
    """
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    mid = _interval_mid(v)
    if mid is not None:
        return mid
    r = _rational(v)
    try:
        return r.numerator / r.denominator  # correctly rounded true division
    except OverflowError:
        return None


def _exact_len(r: Fraction) -> int:
    """Characters of :func:`exact` (computed from the sizes; exact for the digits)."""
    sign = 1 if r < 0 else 0
    n = _digits(abs(r.numerator))
    return sign + n + (0 if r.denominator == 1 else 1 + _digits(r.denominator))


def _digits(n: int) -> int:
    if n.bit_length() < _DIRECT_BITS:
        return len(str(n))
    k = int((n.bit_length() - 1) * math.log10(2))  # 10^k <= n < 10^(k+2)
    return k + 1 + (1 if n >= 10 ** (k + 1) else 0)


def _rational(v: Any) -> Fraction:
    if isinstance(v, Fraction):
        return v
    if isinstance(v, int) and not isinstance(v, bool):
        return Fraction(v)
    num = getattr(v, "numerator", None)
    den = getattr(v, "denominator", None)
    if isinstance(num, int) and isinstance(den, int):
        return Fraction(num, den)
    if isinstance(v, float):
        return Fraction(v)
    raise TypeError(f"not an exact number: {v!r}")


def _is_interval(v: Any) -> bool:
    return _interval_mid(v) is not None


def _interval_mid(v: Any) -> float | None:
    mod = sys.modules.get("pla_proof.interval")
    if mod is not None and isinstance(v, mod.Interval):
        mid: float = v.mid
        return mid
    return None
