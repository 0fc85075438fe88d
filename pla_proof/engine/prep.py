"""Compiled passes over a data set's stored values (:mod:`pla_proof.data.passes`): each
row's norms, the largest squared norm, a matrix-vector product -- one read of the array,
in its own narrow dtype (an int8 grid is read as 1 byte a value, never copied to
float64).  Registered with the data layer when the engine is imported, and only when
the loops are compiled (as Python they would be slower than numpy).

>>> import numpy as np
>>> Z = np.array([[3, -4], [1, 0]], dtype=np.int8)
>>> [a.tolist() for a in int_row_norms(Z)], int(int_max_square_norm(Z))
([[7, 1], [4, 1]], 25)
>>> matvec(Z, np.array([1.0, 0.5])).tolist()
[1.0, 1.0]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..data import passes
from .jit import HAVE_NUMBA, jit, jit_reassociating

__all__ = ["float_exponents", "int_max_square_norm", "int_row_norms", "matvec"]


@jit
def float_exponents(F: np.ndarray) -> Any:
    """``(low, top)`` of :func:`pla_proof.data.passes.float_exponents` for finite
    float64 values (``top = -2^20`` when every value is 0), from each value's mantissa
    and exponent: one read of the array.

    >>> [int(v) for v in float_exponents(np.array([[0.75, -6.0], [0.0, 2.5]]))]
    [-2, 3]
    """
    low = np.int64(1 << 20)
    top = np.int64(-(1 << 20))
    for i in range(F.shape[0]):
        for c in range(F.shape[1]):
            v = F[i, c]
            if v != 0.0:
                mant, ex = math.frexp(v)
                m = np.int64(abs(mant) * 9007199254740992.0)  # 2^53: an exact integer
                tz = math.frexp(np.float64(m & -m))[1] - 1  # a power of two: exact
                e = np.int64(ex) - 53 + tz
                if e < low:
                    low = e
                if ex > top:
                    top = np.int64(ex)
    return low, top


@jit
def int_row_norms(Z: np.ndarray) -> Any:
    """Each row's ``sum_c |Z_c|`` and ``max_c |Z_c|`` as int64 (``|Z| <= 2^53``)."""
    n = Z.shape[0]
    d = Z.shape[1]
    l1 = np.empty(n, dtype=np.int64)
    top = np.empty(n, dtype=np.int64)
    for i in range(n):
        s = np.int64(0)
        t = np.int64(0)
        for c in range(d):
            z = np.int64(Z[i, c])
            a = z if z >= 0 else -z
            s += a
            if a > t:
                t = a
        l1[i] = s
        top[i] = t
    return l1, top


@jit
def int_max_square_norm(Z: np.ndarray) -> Any:
    """``max_i sum_c Z_ic^2`` in int64 (the caller checks ``d max|Z|^2 < 2^62``)."""
    n = Z.shape[0]
    d = Z.shape[1]
    best = np.int64(0)
    for i in range(n):
        s = np.int64(0)
        for c in range(d):
            z = np.int64(Z[i, c])
            s += z * z
        if s > best:
            best = s
    return best


@jit_reassociating
def matvec(A: np.ndarray, v: np.ndarray) -> Any:
    """``A v`` in float64, each row a dot product summed in any order (its error bound
    holds for every order), ``A`` read in its own dtype."""
    n = A.shape[0]
    d = A.shape[1]
    out = np.empty(n)
    for i in range(n):
        m = 0.0
        for c in range(d):
            m += np.float64(A[i, c]) * v[c]
        out[i] = m
    return out


if HAVE_NUMBA:
    passes.register("int_row_norms", int_row_norms)
    passes.register("int_max_square_norm", int_max_square_norm)
    passes.register("matvec", matvec)
    passes.register("float_exponents", float_exponents)
