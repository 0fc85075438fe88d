"""Gordan certificates: the proof that no vector separates the data.

Exactly one holds (Gordan's alternative): some ``w`` has ``y_i w.x_i > 0`` for every
``i``, or some ``alpha >= 0``, ``alpha != 0`` has ``sum_i alpha_i y_i x_i = 0``.

>>> from pla_proof.data import load
>>> Certificate((Fraction(1),) * 4, "cycle").verify(load("xor"))
True
>>> Certificate((Fraction(1), Fraction(0), Fraction(0), Fraction(0)), "cycle").verify(load("xor"))
False
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..data import Dataset

__all__ = ["Certificate"]


@dataclass(frozen=True)
class Certificate:
    """``alpha >= 0``, ``alpha != 0``, ``sum_i alpha_i y_i x_i = 0``.

    ``source`` says how it was found (``cycle``: the update counts between two visits
    of the same weight vector; ``lp``: a solver, verified exactly; ``construction``).
    """

    alpha: tuple[Fraction, ...]
    source: str

    def verify(self, data: Dataset) -> bool:
        """Exact check of the certificate on ``data`` (only the rows with ``alpha_i > 0``
        are read)."""
        if (
            len(self.alpha) != data.n
            or any(a < 0 for a in self.alpha)
            or all(a == 0 for a in self.alpha)
        ):
            return False
        total = [Fraction(0)] * data.d
        for i, a in enumerate(self.alpha):
            if a:
                ay = a * int(data.labels[i])
                for c, z in enumerate(data.integer_row(i)):
                    if z:
                        total[c] += ay * z
        return all(v == 0 for v in total)
