"""A :class:`pla_proof.geometry.Certification` (an external separator validated
exactly) as text and as JSON.

>>> from pla_proof import load
>>> from pla_proof.geometry import certify
>>> data = load("orthonormal:2")
>>> print(certification_text(certify(data, [1, -1]), data).splitlines()[1])
w = (1, -1) separates every point strictly (checked exactly)
>>> certification_json(certify(data, [1, 1]), data)["first_misclassified"]
2
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .numbers import show, vector

if TYPE_CHECKING:
    from ..data import Dataset
    from ..geometry import Certification

__all__ = ["certification_json", "certification_text"]


def certification_json(c: Certification, data: Dataset) -> dict[str, Any]:
    """The verdict as one JSON object (``docs/cli.md``: exact numbers as
    ``{"exact", "float"}``)."""
    return {
        "data": {
            "name": data.name,
            "n": data.n,
            "d": data.d,
            "bias": data.bias.describe() if data.bias else None,
        },
        "w": [Fraction(v) for v in c.w],
        "separates": c.separates,
        "margin": Fraction(c.margin),
        "worst_point": c.worst + 1,
        "ww": Fraction(c.ww),
        "R2": Fraction(c.radius_squared),
        "gamma2": None if c.gamma_squared is None else Fraction(c.gamma_squared),
        "bound": None if c.bound is None else Fraction(c.bound),
        "first_misclassified": None if c.first_misclassified is None else c.first_misclassified + 1,
        "first_misclassified_value": None if c.first_value is None else Fraction(c.first_value),
        "misclassified": c.misclassified,
    }


def certification_text(c: Certification, data: Dataset) -> str:
    """The verdict: the data, whether ``w`` separates, its margin and the bound it implies
    (or the first misclassified point)."""
    bias = f", bias: {data.bias.describe()}" if data.bias else ""
    lines = [f"data {data.name}: n={data.n}, d={data.d}{bias}"]
    w = vector(c.w, show)
    if c.separates:
        assert c.gamma_squared is not None and c.bound is not None
        lines.append(f"w = {w} separates every point strictly (checked exactly)")
        lines.append(
            f"  margin min_i y_i w.x_i = {show(c.margin)} (point {c.worst + 1}), "
            f"|w|^2 = {show(c.ww)}, unit margin^2 = {show(c.gamma_squared)}"
        )
        lines.append(
            f"  implied bound R^2|w|^2/margin^2 = {show(c.bound)} (R^2 = {show(c.radius_squared)})"
        )
    else:
        assert c.first_misclassified is not None
        j = c.first_misclassified
        lines.append(
            f"w = {w} does NOT separate: point {j + 1} has y w.x = {show(c.first_value)} <= 0 "
            f"(first misclassified; {c.misclassified} of {data.n} points have y w.x <= 0)"
        )
        lines.append(f"  smallest y_i w.x_i = {show(c.margin)} (point {c.worst + 1})")
    return "\n".join(lines)
