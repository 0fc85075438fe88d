"""Exact rational linear algebra for the small systems of the geometry layer.

Rows are sparse integer dictionaries ``{column: int}`` (fraction-free elimination)
so that the structured systems of the active-set method (identity-like Gram
matrices, bordered by constraint rows) cost little more than their non-zeros.

>>> solve([[2, 1], [1, 3]], [3, 5])
[Fraction(4, 5), Fraction(7, 5)]
>>> solve([[1, 2], [2, 4]], [1, 2]) is None
True
>>> basis = EchelonBasis()
>>> basis.add([1, 0, 1]), basis.add([2, 0, 2]), basis.add([0, 1, 0])
(True, False, True)
>>> nullspace([[1, 1, 0], [0, 0, 1]], 3)
[[Fraction(-1, 1), Fraction(1, 1), Fraction(0, 1)]]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

__all__ = ["EchelonBasis", "nullspace", "solve"]

Q = Fraction | int


def _int_row(row: Iterable[Q], extra: Q = 0) -> dict[int, int]:
    """A row scaled by the lcm of its denominators to integers (sparse), with ``extra``
    appended as the last column (key -1 until placed)."""
    vals = [Fraction(v) for v in row]
    vals.append(Fraction(extra))
    den = math.lcm(*(v.denominator for v in vals))
    last = len(vals) - 1
    return {(j if j < last else -1): int(v * den) for j, v in enumerate(vals) if v != 0}


def solve(matrix: Sequence[Sequence[Q]], rhs: Sequence[Q]) -> list[Fraction] | None:
    """The unique solution of the square system ``matrix @ x = rhs``, or ``None`` if singular.

    Fraction-free (Bareiss) elimination on integer rows, so no gcd is taken during
    elimination; the pivot in each column is the candidate row with the fewest
    non-zeros, which keeps bordered identity systems close to linear in their size.
    Back substitution is exact in ``Fraction``.
    """
    n = len(matrix)
    rows: list[dict[int, int]] = []
    for i, r in enumerate(matrix):
        if len(r) != n:
            raise ValueError("solve needs a square matrix")
        rows.append(_int_row(r, rhs[i]))
    remaining = set(range(n))
    order: list[int] = []
    prev = 1
    for col in range(n):
        cands = [i for i in remaining if col in rows[i]]
        if not cands:
            return None
        piv = min(cands, key=lambda i: (len(rows[i]), i))
        remaining.discard(piv)
        order.append(piv)
        prow = rows[piv]
        p = prow[col]
        for i in remaining:
            row = rows[i]
            f = row.pop(col, 0)
            if not f and p == prev:
                continue
            new = {j: p * v for j, v in row.items()}
            if f:
                for j, v in prow.items():
                    if j != col:
                        new[j] = new.get(j, 0) - f * v
            rows[i] = {j: v // prev for j, v in new.items() if v}
        prev = p
    x = [Fraction(0)] * n
    for col in range(n - 1, -1, -1):
        row = rows[order[col]]
        acc = Fraction(row.get(-1, 0))
        for j, v in row.items():
            if j > col:
                acc -= v * x[j]
        x[col] = acc / row[col]
    return x


class EchelonBasis:
    """An incrementally built basis (reduced by leading term) to test linear independence.

    Rows are kept as primitive integer vectors whose pivot is their largest non-zero
    column; :meth:`add` reduces a new vector fraction-free and keeps it if something
    remains.
    """

    def __init__(self) -> None:
        self.rows: dict[int, dict[int, int]] = {}

    def __len__(self) -> int:
        return len(self.rows)

    def reduce(self, vector: Iterable[Q]) -> dict[int, int]:
        """The remainder of ``vector`` after reduction (empty if it lies in the span)."""
        v = _int_row(vector)
        v.pop(-1, None)
        while v:
            p = max(v)
            row = self.rows.get(p)
            if row is None:
                return v
            a, b = row[p], v[p]
            new = {j: a * x for j, x in v.items()}
            for j, r in row.items():
                new[j] = new.get(j, 0) - b * r
            v = {j: x for j, x in new.items() if x}
            g = math.gcd(*v.values()) if v else 1
            if g > 1:
                v = {j: x // g for j, x in v.items()}
        return v

    def add(self, vector: Iterable[Q]) -> bool:
        """Add ``vector`` if it is independent of the basis; report whether it was."""
        v = self.reduce(vector)
        if not v:
            return False
        self.rows[max(v)] = v
        return True


def nullspace(matrix: Sequence[Sequence[Q]], ncols: int) -> list[list[Fraction]]:
    """A basis of ``{x : matrix @ x = 0}`` (one vector per free column of the RREF)."""
    rows = [[Fraction(v) for v in row] for row in matrix]
    pivots: list[int] = []
    r = 0
    for c in range(ncols):
        p = next((i for i in range(r, len(rows)) if rows[i][c] != 0), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        inv = 1 / rows[r][c]
        rows[r] = [v * inv for v in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][c] != 0:
                f = rows[i][c]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r], strict=True)]
        pivots.append(c)
        r += 1
        if r == len(rows):
            break
    free = [c for c in range(ncols) if c not in pivots]
    basis = []
    for fc in free:
        v = [Fraction(0)] * ncols
        v[fc] = Fraction(1)
        for i, pc in enumerate(pivots):
            v[pc] = -rows[i][fc]
        basis.append(v)
    return basis
