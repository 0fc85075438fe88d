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
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from numbers import Rational
from typing import Any

import numpy as np

from .errors import InputError

__all__ = [
    "Number",
    "common_scale",
    "dot",
    "norm2",
    "scaled_ints",
    "to_fraction",
]

Number = int | Fraction


def to_fraction(value: Any, *, what: str = "value") -> Fraction:
    """Convert ``value`` (int, Fraction, float, numpy scalar or decimal string) exactly.

    Refuses NaN, infinities, booleans and anything non-numeric with an ``InputError``.

    >>> to_fraction("-3/4")
    Fraction(-3, 4)
    >>> to_fraction("1e-3")
    Fraction(1, 1000)
    >>> to_fraction(float("nan"))
    Traceback (most recent call last):
    ...
    pla_proof.errors.InputError: value is NaN
    """
    if isinstance(value, bool | np.bool_):
        raise InputError(f"{what} is a boolean, not a number")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int | np.integer):
        return Fraction(int(value))
    if isinstance(value, Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, float | np.floating):
        f = float(value)
        if math.isnan(f):
            raise InputError(f"{what} is NaN")
        if math.isinf(f):
            raise InputError(f"{what} is infinite")
        return Fraction(f)
    if isinstance(value, str | np.str_):
        text = str(value).strip()
        if not text:
            raise InputError(f"{what} is empty")
        low = text.lower().lstrip("+-")
        if low in {"nan", "inf", "infinity"}:
            raise InputError(f"{what} {text!r} is not finite")
        try:
            if "/" in text:
                return Fraction(text)
            return Fraction(Decimal(text))
        except (ValueError, ZeroDivisionError, InvalidOperation):
            raise InputError(f"{what} {text!r} is not a number") from None
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
    """Exact dot product of two equal-length sequences."""
    return sum(x * y for x, y in zip(a, b, strict=True))


def norm2(a: Sequence[Any]) -> Any:
    """Exact squared Euclidean norm."""
    return sum(x * x for x in a)
