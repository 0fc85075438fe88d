"""Compilation of the engine's inner loops with numba, when it is installed.

The loops are plain Python written in the subset numba compiles: with numba they run
at the speed of compiled code (cached on disk after the first call); without it, or
with ``PLA_PROOF_NO_JIT=1``, the very same functions run as Python.  There is one
source of each loop either way.

>>> from pla_proof.engine.orders import permutation  # a compiled loop inside
>>> sorted(permutation(4, seed=7, epoch=0)), isinstance(HAVE_NUMBA, bool)
([0, 1, 2, 3], True)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

__all__ = ["HAVE_NUMBA", "jit", "jit_reassociating"]

F = TypeVar("F", bound=Callable[..., Any])

_njit: Any = None
if os.environ.get("PLA_PROOF_NO_JIT", "") in ("", "0"):
    try:
        from numba import njit as _njit
    except ImportError:  # pragma: no cover - numba is a core dependency
        _njit = None

#: True when the loops are compiled.
HAVE_NUMBA = _njit is not None


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (nopython, cached) if available, else return it.

    The loops use wrapping 64-bit integer arithmetic on purpose (hashes, the random
    generator); run as Python, numpy's overflow warnings for those are silenced.
    """
    if _njit is None:
        return _quiet(fn)
    compiled: F = _njit(cache=True, nogil=True)(fn)
    return compiled


def jit_reassociating(fn: F) -> F:
    """:func:`jit`, allowing the compiler to reorder sums (SIMD dot products).

    Only for code whose float results are bounded for *any* summation order: a dot
    product's rounding error bound ``gamma_d sum |x_c w_c|`` holds for every order,
    and sums of integers below 2^53 are exact in every order.  Never for error-free
    transformations (TwoSum), which live in functions compiled with :func:`jit`.
    """
    if _njit is None:
        return _quiet(fn)
    compiled: F = _njit(cache=True, nogil=True, fastmath={"reassoc"})(fn)
    return compiled


def _quiet(fn: F) -> F:
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(over="ignore"):
            return fn(*args, **kwargs)

    run.py_func = fn  # type: ignore[attr-defined]
    return run  # type: ignore[return-value]
