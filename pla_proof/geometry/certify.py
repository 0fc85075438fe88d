"""Validate an externally produced separator exactly (``pla-proof certify``).

A weight vector ``w`` separates strictly when every ``y_i w.x_i > 0``; its margin
is ``m = min_i y_i w.x_i`` (homogeneous in w), the unit margin squared is
``m^2/|w|^2`` and the bound it implies is ``R^2 |w|^2 / m^2``.

>>> from pla_proof.data import load
>>> c = certify(load("orthonormal:2"), [1, -1])
>>> c.separates, c.margin, c.bound
(True, Fraction(1, 1), Fraction(2, 1))
>>> certify(load("orthonormal:2"), [1, 1]).first_misclassified
1
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..data import Dataset
from ..errors import InputError
from ..numbers import common_scale, scaled_ints, to_fraction


def _sq(v: Sequence[Fraction]) -> Fraction:
    return sum((x * x for x in v), Fraction(0))


__all__ = ["Certification", "certify"]


@dataclass(frozen=True)
class Certification:
    """The exact verdict on ``w``: ``first_misclassified`` and ``worst`` are 0-based."""

    w: tuple[Fraction, ...]
    separates: bool
    margin: Fraction
    worst: int
    first_misclassified: int | None
    misclassified: int
    radius_squared: Fraction
    first_value: Fraction | None = None

    @property
    def ww(self) -> Fraction:
        return _sq(self.w)

    @property
    def gamma_squared(self) -> Fraction | None:
        """The unit margin squared, m^2/|w|^2 (None unless w separates)."""
        return self.margin**2 / self.ww if self.separates else None

    @property
    def bound(self) -> Fraction | None:
        """R^2 |w|^2 / m^2, the update bound this separator implies (None unless it separates)."""
        return self.radius_squared * self.ww / self.margin**2 if self.separates else None


def certify(data: Dataset, w: Sequence[Any]) -> Certification:
    """Check ``w`` against ``data`` in exact arithmetic.

    ``w`` must have one entry per coordinate trained on (including a bias
    coordinate); the zero vector separates nothing.
    """
    wf = tuple(to_fraction(v, what=f"weight entry {i + 1}") for i, v in enumerate(w))
    if len(wf) != data.d:
        extra = " (including the bias coordinate)" if data.bias is not None else ""
        raise InputError(
            f"weights have {len(wf)} entries but the data have {data.d} features{extra}"
        )
    s = math.lcm(*{v.denominator for x in data.X for v in x})
    Z = [tuple(v.numerator * (s // v.denominator) for v in x) for x in data.X]
    sw = common_scale([wf])
    W = scaled_ints(wf, sw)
    margins = [
        yi * sum(a * b for a, b in zip(W, z, strict=True)) for z, yi in zip(Z, data.y, strict=True)
    ]
    low = min(margins)
    worst = margins.index(low)
    bad = [i for i, m in enumerate(margins) if m <= 0]
    return Certification(
        w=wf,
        separates=not bad,
        margin=Fraction(low, s * sw),
        worst=worst,
        first_misclassified=bad[0] if bad else None,
        misclassified=len(bad),
        radius_squared=Fraction(max(sum(v * v for v in z) for z in Z), s * s),
        first_value=Fraction(margins[bad[0]], s * sw) if bad else None,
    )
