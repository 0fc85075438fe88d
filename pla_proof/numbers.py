"""Exact numbers: conversion to ``Fraction`` and integer vector arithmetic.

Every float64 is a dyadic rational and every decimal string is a rational, so any
data set can be checked exactly.  Vectors in exact mode are tuples of ``int`` after
scaling by a positive common denominator (which leaves the Perceptron's decisions
unchanged).

>>> to_fraction("0.1")
Fraction(1, 10)
>>> to_fraction(0.5)
Fraction(1, 2)
>>> common_scale([[Fraction(1, 2), Fraction(1, 3)]])
6
>>> dot((1, 2, 3), (4, 5, 6))
32
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from fractions import Fraction
from numbers import Rational
from typing import Any

from .errors import InputError

__all__ = [
    "LIMITS",
    "Limits",
    "Number",
    "common_scale",
    "dot",
    "limits",
    "norm2",
    "scaled_ints",
    "to_fraction",
]

Number = int | Fraction


@dataclass(frozen=True)
class Limits:
    """How large a number written as text may be before it is refused.

    A decimal ``d.ddd e±E`` is the rational ``ddd / 10^(decimals - E)``: its exact
    size grows with its digits and with ``|E|`` -- ``1e999999999`` is a
    billion-digit integer.  Text beyond these limits is refused (``InputError``,
    exit 2) instead of being built.  Defaults: ``PLA_PROOF_MAX_DIGITS`` and
    ``PLA_PROOF_MAX_EXPONENT`` in the environment, else 10,000 each; the command
    line's ``--max-digits`` and ``--max-exponent`` override both.
    """

    #: digits of one number (mantissa digits, or those of p and q in ``p/q``)
    max_digits: int = 10_000
    #: magnitude of a decimal exponent, ``|E|`` in ``1eE``
    max_exponent: int = 10_000


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        return default
    return value if value > 0 else default


#: the limits in force (change them with :func:`limits`)
LIMITS = Limits(
    max_digits=_env_int("PLA_PROOF_MAX_DIGITS", Limits.max_digits),
    max_exponent=_env_int("PLA_PROOF_MAX_EXPONENT", Limits.max_exponent),
)


@contextmanager
def limits(*, max_digits: int | None = None, max_exponent: int | None = None) -> Iterator[Limits]:
    """Run a block under other :class:`Limits` (restored afterwards).

    >>> with limits(max_exponent=5):
    ...     to_fraction("1e6")
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: value '1e6' has exponent 6, beyond the limit of 5 (--max-exponent)
    """
    global LIMITS
    saved = LIMITS
    changes = {
        k: v
        for k, v in (("max_digits", max_digits), ("max_exponent", max_exponent))
        if v is not None
    }
    for k, v in changes.items():
        if v < 1:
            raise InputError(f"--{k.replace('_', '-')} must be a positive integer, got {v}")
    LIMITS = replace(saved, **changes)
    try:
        yield LIMITS
    finally:
        LIMITS = saved


#: a decimal numeral: ASCII digits only, no underscores, no spaces inside
_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")
_RATIO = re.compile(r"([+-]?)([0-9]+)/([0-9]+)")


def _parse_text(text: str, what: str) -> Fraction:
    lim = LIMITS
    m = _RATIO.fullmatch(text)
    if m is not None:
        sign, p, q = m.groups()
        if max(len(p), len(q)) > lim.max_digits:
            raise InputError(
                f"{what} {_clip(text)!r} has {max(len(p), len(q))} digits, beyond the limit "
                f"of {lim.max_digits} (--max-digits)"
            )
        if not q.strip("0"):
            raise InputError(f"{what} {_clip(text)!r} divides by zero")
        num = _int(p)
        return Fraction(-num if sign == "-" else num, _int(q))
    m = _DECIMAL.fullmatch(text)
    if m is None or not (m.group(2) or m.group(3)):
        raise InputError(f"{what} {_clip(text)!r} is not a number")
    sign, whole, frac, exp = m.groups()
    frac = frac or ""
    digits = whole + frac
    if len(digits) > lim.max_digits:
        raise InputError(
            f"{what} {_clip(text)!r} has {len(digits)} digits, beyond the limit of "
            f"{lim.max_digits} (--max-digits)"
        )
    e = 0
    if exp is not None:
        if (
            len(exp.lstrip("+-").lstrip("0")) > len(str(lim.max_exponent))
            or abs(int(exp)) > lim.max_exponent
        ):
            raise InputError(
                f"{what} {_clip(text)!r} has exponent {_clip(exp.lstrip('+'))}, beyond the "
                f"limit of {lim.max_exponent} (--max-exponent)"
            )
        e = int(exp)
    n = _int(digits) if digits.strip("0") else 0
    n = -n if sign == "-" else n
    shift = e - len(frac)
    return Fraction(n * 10**shift) if shift >= 0 else Fraction(n, 10**-shift)


def _int(digits: str) -> int:
    """``int(digits)`` for ASCII digit strings of any length (Python refuses more than
    4300 digits in one ``int(str)`` call)."""
    if len(digits) <= 4000:
        return int(digits)
    half = len(digits) // 2
    shift: int = 10 ** (len(digits) - half)
    return _int(digits[:half]) * shift + _int(digits[half:])


def _clip(text: str, width: int = 24) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def to_fraction(value: Any, *, what: str = "value") -> Fraction:
    """Convert ``value`` (int, Fraction, float, numpy scalar or decimal string) exactly.

    Strings are plain ASCII numerals: ``-12``, ``0.5``, ``.5``, ``1e-3``, ``3/4``
    (no ``1_000``, no spaces inside, no ``0x``); their size is bounded by
    :data:`LIMITS`.  Refuses NaN, infinities, booleans and anything non-numeric
    with an ``InputError``.

    >>> to_fraction("-3/4")
    Fraction(-3, 4)
    >>> to_fraction("1e-3")
    Fraction(1, 1000)
    >>> to_fraction(float("nan"))
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: value is NaN
    >>> to_fraction("1_000")
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: value '1_000' is not a number
    >>> to_fraction("1e999999999")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: value '1e999999999' has exponent 999999999, beyond the limit ...
    """
    np = sys.modules.get("numpy")
    if isinstance(value, bool) or (np is not None and isinstance(value, np.bool_)):
        raise InputError(f"{what} is a boolean, not a number")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int) or (np is not None and isinstance(value, np.integer)):
        return Fraction(int(value))
    if isinstance(value, Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, float) or (np is not None and isinstance(value, np.floating)):
        f = float(value)
        if math.isnan(f):
            raise InputError(f"{what} is NaN")
        if math.isinf(f):
            raise InputError(f"{what} is infinite")
        return Fraction(f)
    if isinstance(value, str) or (np is not None and isinstance(value, np.str_)):
        text = str(value).strip()
        if not text:
            raise InputError(f"{what} is empty")
        low = text.lower().lstrip("+-")
        if low in {"nan", "inf", "infinity"}:
            raise InputError(f"{what} {text!r} is not finite")
        return _parse_text(text, what)
    raise InputError(f"{what} {value!r} is not a number")


def common_scale(rows: Iterable[Iterable[Fraction]]) -> int:
    """The least common multiple of the denominators (a positive integer)."""
    scale = 1
    for row in rows:
        for v in row:
            scale = math.lcm(scale, v.denominator)
    return scale


def scaled_ints(row: Iterable[Fraction], scale: int) -> tuple[int, ...]:
    """``row`` multiplied by ``scale``; every entry must become an integer."""
    out = []
    for v in row:
        s = v * scale
        if s.denominator != 1:
            raise ValueError("scale does not clear the denominators")
        out.append(int(s))
    return tuple(out)


def dot(a: Sequence[Any], b: Sequence[Any]) -> Any:
    """Exact dot product of two equal-length sequences (of ``Fraction``/``int``: in
    integers over the common denominators, one ``Fraction`` at the end).

    >>> dot([Fraction(1, 2), 3], [Fraction(2, 3), Fraction(-1, 6)])
    Fraction(-1, 6)
    """
    if len(a) != len(b):
        raise ValueError("dot of sequences of different lengths")
    if _rational(a) and _rational(b):
        (p, m), (q, n) = _common(a), _common(b)
        s = sum(x * y for x, y in zip(p, q, strict=True))
        return s if m * n == 1 and _ints(a, b) else Fraction(s, m * n)
    return sum(x * y for x, y in zip(a, b, strict=True))


def norm2(a: Sequence[Any]) -> Any:
    """Exact squared Euclidean norm.

    >>> norm2([Fraction(1, 2), 1])
    Fraction(5, 4)
    """
    if _rational(a):
        p, m = _common(a)
        s = sum(x * x for x in p)
        return s if m == 1 and _ints(a) else Fraction(s, m * m)
    return sum(x * x for x in a)


def _rational(a: Sequence[Any]) -> bool:
    return all(type(x) is Fraction or type(x) is int for x in a)


def _ints(*seqs: Sequence[Any]) -> bool:
    return all(type(x) is int for a in seqs for x in a)


def _common(a: Sequence[Fraction | int]) -> tuple[list[int], int]:
    """The entries times their common denominator ``m``, and ``m``."""
    m = math.lcm(*(x.denominator for x in a))
    return [x.numerator * (m // x.denominator) for x in a], m
