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


#: de Bruijn's multiplier and table: the index of a power of two's bit (a multiply, a
#: shift and a lookup; exact).
_DEBRUIJN = 0x03F79D71B4CB0A89
_BIT = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT[((_DEBRUIJN << _i) & 0xFFFFFFFFFFFFFFFF) >> 58] = _i
del _i


@jit
def float_exponents(F: np.ndarray) -> Any:
    """``(low, top)`` of :func:`pla_proof.data.passes.float_exponents` for a C-contiguous
    array of finite float64 values (``top = -2^20`` when every value is 0), read from
    each value's bits -- its biased exponent ``e`` and its 53-bit integer mantissa ``m``
    (``v = m 2^(max(e, 1) - 1075)``): one read of the array, integer operations only.

    >>> [int(v) for v in float_exponents(np.array([[0.75, -6.0], [0.0, 2.5]]))]
    [-2, 3]
    """
    B = F.reshape(-1).view(np.int64)
    low = np.int64(1 << 20)
    top = np.int64(-(1 << 20))
    for i in range(B.shape[0]):
        b = B[i]
        e = (b >> 52) & 0x7FF
        m = b & 0xFFFFFFFFFFFFF
        if e != 0:
            m |= np.int64(1) << 52
        elif m != 0:  # subnormal: |v| < 2^(the bit length of m - 1074)
            t = np.int64(math.frexp(np.float64(m))[1]) - 1074  # (m < 2^52: exact)
            if t > top:
                top = t
        if m != 0:
            lowest = np.uint64(m & -m)  # the lowest set bit: a power of two
            tz = _BIT[np.int64((lowest * np.uint64(_DEBRUIJN)) >> np.uint64(58))]
            lo = (e if e != 0 else np.int64(1)) - 1075 + tz
            if lo < low:
                low = lo
            if e != 0 and e - 1022 > top:
                top = e - 1022
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
