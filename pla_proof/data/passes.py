"""Whole-array passes over a data set's values, with numpy; a compiled loop may take
one over (:func:`register`: the engine, which compiles loops, registers its own when
it is imported -- set from above, as the layers allow).  Each pass reads the array
once and gives the same numbers either way.

>>> import numpy as np
>>> Z = np.array([[3, -4], [1, 0]], dtype=np.int8)
>>> max_abs(Z), int_max_square_norm(Z)
(4, 25)
>>> float_exponents(np.array([[0.75, -6.0], [0.0, 2.5]]))  # 0.75 = 3 2^-2, |v| < 2^3
(-2, 3)
>>> [a.tolist() for a in int_row_norms(Z)]
[[7, 1], [4, 1]]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = [
    "float_exponents",
    "int_max_square_norm",
    "int_row_norms",
    "matvec",
    "max_abs",
    "register",
    "registered",
    "square_norms",
]

_COMPILED: dict[str, Callable[..., Any]] = {}
#: Arrays smaller than this are left to numpy (microseconds either way): a small run
#: never loads the compiled loops for them.
COMPILED_MIN = 1 << 16


def register(name: str, fn: Callable[..., Any]) -> None:
    """Let ``fn`` compute the pass ``name`` (one of :data:`__all__`'s passes) from now
    on; it must give the same results as the numpy pass it replaces."""
    _COMPILED[name] = fn


def registered() -> tuple[str, ...]:
    """The passes a compiled loop computes (for arrays of :data:`COMPILED_MIN` values
    or more)."""
    return tuple(sorted(_COMPILED))


def _compiled(name: str, A: np.ndarray) -> Callable[..., Any] | None:
    return _COMPILED.get(name) if A.size >= COMPILED_MIN else None


def max_abs(Z: np.ndarray) -> int | float:
    """``max |Z|`` (an int for integer arrays, exactly, ``uint64`` and ``int64``'s least
    value included; 0 for an empty array)."""
    if Z.size == 0:
        return 0
    if Z.dtype.kind in "iu":
        return max(int(Z.max()), -int(Z.min()))
    if Z.dtype == object:
        return int(max(abs(v) for v in Z.flat))
    return float(np.abs(Z).max())


def float_exponents(F: np.ndarray) -> tuple[int, int] | None:
    """For a float64 array of finite values: ``(low, top)``, where every value is an
    integer times ``2^low`` (``low``: the least exponent of a value's lowest set bit)
    and every ``|v| < 2^top``; None when every value is 0.  Exact (bit operations)."""
    fn = _compiled("float_exponents", F)
    if fn is not None and F.dtype == np.float64 and F.flags.c_contiguous:
        low, top = (int(v) for v in fn(F))
        return None if top == _NO_TOP else (low, top)
    nz = F[F != 0]
    if nz.size == 0:
        return None
    mant, expo = np.frexp(nz)
    M = np.abs(mant * 2.0**53).astype(np.int64)  # an integer below 2^53: exact
    lowbit = M & -M
    tz = np.frexp(lowbit.astype(np.float64))[1] - 1  # a power of two: exact
    return int((expo - 53 + tz).min()), int(expo.max())


#: ``top`` of an array with no nonzero value (the compiled pass's answer).
_NO_TOP = -(1 << 20)


def int_row_norms(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's ``sum_c |Z_c|`` (int64, exact) and ``max_c |Z_c|`` for an integer array
    with ``|Z| <= 2^53`` (so ``|Z|`` never overflows)."""
    fn = _compiled("int_row_norms", Z)
    if fn is not None:
        out: tuple[np.ndarray, np.ndarray] = fn(Z)
        return out
    A = np.abs(Z)
    return A.sum(axis=1, dtype=np.int64), A.max(axis=1).astype(np.int64)


def int_max_square_norm(Z: np.ndarray) -> int | None:
    """``max_i sum_c Z_ic^2`` exactly, for an integer array, when it is computed in int64
    without overflow (``d max|Z|^2 < 2^62``); else None."""
    if Z.size == 0:
        return 0
    top = max_abs(Z)
    if Z.shape[1] * top * top >= 2**62:
        return None
    fn = _compiled("int_max_square_norm", Z)
    if fn is not None:
        return int(fn(Z))
    return int(np.einsum("ij,ij->i", Z, Z, dtype=np.int64).max())


def square_norms(A: np.ndarray) -> np.ndarray:
    """Each row's ``sum_c A_c^2`` in float64 (rounded: the caller bounds the error)."""
    out: np.ndarray = np.einsum("ij,ij->i", A, A)
    return out


def matvec(A: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``A v`` in float64 for a float64 or integer ``A`` (rounded as a float64 dot product
    in any order: the caller bounds the error), without a float64 copy of ``A``."""
    fn = _compiled("matvec", A)
    if fn is not None:
        out: np.ndarray = fn(A, v)
        return out
    if A.dtype == np.float64:
        return np.asarray(A @ v, dtype=np.float64)
    rows = max(1, (1 << 20) // max(A.shape[1], 1))
    res = np.empty(A.shape[0])
    for s in range(0, A.shape[0], rows):
        res[s : s + rows] = A[s : s + rows].astype(np.float64) @ v
    return res
