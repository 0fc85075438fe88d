"""What an averaged or voted output owes its training data: **eventually**, its labels.

An averaged or voted perceptron (Freund and Schapire, "Large margin classification
using the perceptron algorithm", 1999) need not predict its training points at its
budget: its output weighs every vector the training went through by its survival count
``c_j``.  But on separable data the training converges, and from then on the last
vector survives every visit: its count grows by ``n`` a pass while the others' stay
fixed, so after enough passes the last vector -- which separates -- outweighs them all,
and the output predicts every training point.  How many passes suffice is exact arithmetic
(:func:`passes_to_predict`): the classic algorithm run in passes (cyclic, from zero)
to its first pass without an update, then the least number of further passes after
which -- and at every pass after it -- for every point ``i``,

* averaged: ``y_i (sum_j c_j w_j) . x_i > 0``;
* voted: ``y_i sum_j c_j sign(w_j . x_i) > 0``.

An implementation given many times that many passes that still mispredicts a training
point is not the averaged or voted perceptron it declares (``PREDICT``).

>>> from fractions import Fraction as F
>>> X = ((F(1), F(0)), (F(0), F(1)), (F(-1), F(-1)))
>>> passes_to_predict(X, (1, 1, -1), "averaged"), passes_to_predict(X, (1, 1, -1), "voted")
(2, 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

__all__ = ["EVENTUAL_FACTOR", "passes_to_predict"]

#: The passes an implementation is given, as a multiple of what the exact algorithm
#: in cyclic order needs (its own order may converge later).
EVENTUAL_FACTOR = 100


def passes_to_predict(
    X: Sequence[Sequence[Fraction]], y: Sequence[int], output: str, budget: int = 100_000
) -> int | None:
    """Passes after which the ``output`` (``"averaged"`` or ``"voted"``) of the
    perceptron trained in cyclic order from zero on the points ``X`` (already in the
    implementation's setting: with their bias coordinate where it has a bias) predicts
    every training point strictly, at that pass and every later one (the passes to the
    first without an update, and then as many as the last vector's count needs: not
    always the fewest); ``None`` when the training makes more than ``budget`` updates."""
    D = math.lcm(*(Fraction(v).denominator for x in X for v in x))
    pts = [[int(Fraction(v) * D) for v in x] for x in X]
    n, d = len(pts), len(pts[0])
    w = [0] * d
    vectors, counts = [list(w)], [0]
    passes = 0
    while True:
        passes += 1
        clean = True
        for x, t in zip(pts, y, strict=True):
            if t * sum(a * b for a, b in zip(w, x, strict=True)) <= 0:
                w = [a + t * b for a, b in zip(w, x, strict=True)]
                vectors.append(list(w))
                counts.append(1)
                clean = False
                if len(vectors) > budget:
                    return None
            else:
                counts[-1] += 1
        if clean:
            break
    # the last vector separates: its count grows by n a pass, the others' are fixed
    needed = 0
    for x, t in zip(pts, y, strict=True):
        scores = [t * sum(a * b for a, b in zip(v, x, strict=True)) for v in vectors]
        if output == "voted":
            scores = [(s > 0) - (s < 0) for s in scores]
        rest = sum(c * s for c, s in zip(counts[:-1], scores[:-1], strict=True))
        # counts[-1] + k n must exceed -rest / scores[-1] (scores[-1] > 0)
        least = -rest // scores[-1] + 1  # the least count c with c scores[-1] + rest > 0
        needed = max(needed, least)
    extra = max(0, -(-(needed - counts[-1]) // n))
    return passes + extra
