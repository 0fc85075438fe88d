"""How near each inequality of the proof came to failing on a run: its normalised slack.

For ``lhs <= rhs`` (or ``<``) the slack is ``(rhs - lhs) / max(|lhs|, |rhs|)``; for
``lhs >= rhs`` (or ``>``) it is ``(lhs - rhs) / max(|lhs|, |rhs|)``.  It is 0 at the edge,
negative where the relation fails, and lies in ``[-2, 2]`` whatever the scale of the
data, so the slacks of different inequalities, and of runs on different data, compare.
A search aims at a property by driving its smallest slack over a run's updates (its
tightest update) toward 0 (:func:`hypothesis.target`).  It is a heading, not a verdict:
it is computed in floats; every verdict stays exact.

>>> import numpy as np
>>> tightest(np.array([1, 3, 4]), "<=", np.array([4, 4, 4]))
0.0
>>> tightest(np.array([2.0]), ">=", np.array([1.0]))
0.5
>>> tightest(np.array([10**400]), "<=", np.array([2 * 10**400], dtype=object))
0.5
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

__all__ = ["tightest"]

#: Python's integer division to a float, correctly rounded whatever the integers' size
_DIVIDE = np.frompyfunc(operator.truediv, 2, 1)


def tightest(lhs: Any, op: str, rhs: Any) -> float | None:
    """The smallest normalised slack of ``lhs op rhs`` over the rows (arrays of one
    length, or scalars); ``None`` for an equality, or when no row has a finite slack."""
    if op == "==":
        return None
    a, b = np.atleast_1d(lhs), np.atleast_1d(rhs)
    a, b = np.broadcast_arrays(a, b)
    if a.dtype == object or b.dtype == object:  # integers beyond float: exact division
        a, b = a.astype(object), b.astype(object)
        diff = (b - a) if op in ("<=", "<") else (a - b)
        scale = np.maximum(np.abs(a), np.abs(b))
        out = np.zeros(a.shape)
        nz = scale != 0
        out[nz] = _DIVIDE(diff[nz], scale[nz]).astype(float)
        return float(out.min()) if out.size else None
    a, b = a.astype(float), b.astype(float)
    with np.errstate(all="ignore"):
        scale = np.maximum(np.abs(a), np.abs(b))
        diff = (b - a) if op in ("<=", "<") else (a - b)
        s = np.where(scale > 0, diff / np.where(scale > 0, scale, 1.0), 0.0)
    s = s[np.isfinite(s)]
    return float(s.min()) if s.size else None
