"""Label codings: how a file's or an array's labels become -1/+1.

>>> parse_label("1", 1, "pm1"), parse_label(0, 2, "01")
(1, -1)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import InputError
from ..numbers import to_fraction

__all__ = ["parse_label"]


def parse_label(value: Any, row: int, labels: str) -> int:
    try:
        f = to_fraction(value, what=f"label at row {row}")
    except InputError as exc:
        raise InputError(str(exc)) from None
    if labels == "01":
        if f == 0:
            return -1
        if f == 1:
            return 1
        raise InputError(f"label {_show(f)} at row {row} is not 0 or 1 (labels='01')")
    if f in (-1, 1):
        return int(f)
    hint = " (0/1 labels: use labels='01' / --labels 01)" if f == 0 else ""
    raise InputError(f"label {_show(f)} at row {row} is not -1 or +1{hint}")


def _show(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else str(f)
