"""A lemma's relation evaluated, compiled, on every update of a chunk at once.

The monitor (:mod:`pla_proof.monitor.relations`) writes each side of a run-time
relation -- a polynomial tree of the proof's statement -- as a small program: one
instruction per node, in the order the tree is folded (``SYM s`` pushes symbol
``s``, ``NUM c`` constant ``c``, ``ADD``/``MUL`` fold the top two, ``POW n``
raises the top to the power ``n``).  This module runs those programs for every
update of a chunk:

* on **enclosures** (:func:`enclosure_sides`): the float interval arithmetic of
  :class:`~pla_proof.engine.enclosures.Interval`, operation for operation (each sum
  and product rounded outward by ``x -+ |x| 2^-52 -+ 2^-1074``, NaN-propagating
  minimum and maximum): both sides' enclosures at every update;
* on **residues** (:func:`residue_differences`): ``L Dr/g - R Dl/g`` modulo each prime
  (``L/Dl``, ``R/Dr`` the sides over their denominators, ``g`` their gcd), sums
  brought to a common denominator by factors the caller computes once per chunk.

>>> import numpy as np
>>> code = np.array([[SYM, 0], [SYM, 1], [ADD, 0]], dtype=np.int64)  # a + b
>>> one = np.array([[NUM, 0]], dtype=np.int64)                      # 1
>>> lo = np.array([[0.0, 2.0], [0.25, 0.5]]); hi = lo.copy()         # a, b at two updates
>>> out = np.empty((4, 2))
>>> enclosure_sides(code, one, lo, hi, np.zeros(2, np.int8), np.ones(1), np.ones(1), out)
>>> bool(out[0, 1] < 2.5 < out[1, 1]), out[2:, 1].tolist()  # [a + b] around 2.5; [1, 1]
(True, [1.0, 1.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .jit import jit

__all__ = [
    "ADD",
    "MUL",
    "NUM",
    "OPS",
    "POW",
    "SYM",
    "above",
    "below",
    "enclosure_sides",
    "enclosure_verdicts",
    "mod",
    "residue_differences",
]

SYM, NUM, ADD, MUL, POW = range(5)
#: The relations' operators, by their code in :func:`enclosure_verdicts`.
OPS = ("<=", "<", ">=", ">", "==")

_EPS, _SUB = 2.0**-52, 5e-324


@jit
def mod(a: Any, q: int, inv: float) -> Any:
    """``a mod q`` for ``|a| < 2^63`` and ``q < 2^26`` without a division: the float
    quotient (of ``a`` rounded to float64) is off by at most two, corrected."""
    r = a - int(a * inv) * q
    while r < 0:
        r += q
    while r >= q:
        r -= q
    return r


# --- enclosures ---------------------------------------------------------------------------------


@jit
def below(x: float) -> float:
    """A float at most the one below ``x`` (see :func:`above`)."""
    return x - abs(x) * _EPS - _SUB


@jit
def above(x: float) -> float:
    """A float at least the one above ``x``: ``x + |x| 2^-52 + 2^-1074``, each step rounded to
    nearest (``|x| 2^-52`` is at least the gap above ``x``; the smallest subnormal
    covers 0 and the subnormals); at most two units beyond it.  The outward rounding of
    :class:`~pla_proof.engine.enclosures.Interval`, compiled; NaN for an infinite ``x``
    of the other sign (every check treats that end as undecided)."""
    return x + abs(x) * _EPS + _SUB


@jit
def _nmin(a: float, b: float) -> float:
    """``np.minimum``: NaN when either is."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a < b else b


@jit
def _nmax(a: float, b: float) -> float:
    """``np.maximum``: NaN when either is."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a > b else b


@jit
def _interval_program(
    code: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    scalar: np.ndarray,
    clo: np.ndarray,
    chi: np.ndarray,
    slo: np.ndarray,
    shi: np.ndarray,
    k0: int,
    K: int,
) -> None:
    """One side's enclosures at the updates ``k0 .. k0 + K - 1`` into row 0 of the stack
    ``slo``/``shi`` (columns ``0 .. K - 1``; each instruction over those updates in turn)."""
    top = 0
    for i in range(code.shape[0]):
        op = code[i, 0]
        arg = code[i, 1]
        if op in (SYM, NUM):
            for k in range(K):
                if op == NUM:
                    slo[top, k] = clo[arg]
                    shi[top, k] = chi[arg]
                else:
                    col = 0 if scalar[arg] == 1 else k0 + k
                    slo[top, k] = lo[arg, col]
                    shi[top, k] = hi[arg, col]
            top += 1
        elif op == ADD:
            top -= 1
            for k in range(K):
                slo[top - 1, k] = below(slo[top - 1, k] + slo[top, k])
                shi[top - 1, k] = above(shi[top - 1, k] + shi[top, k])
        elif op == MUL or arg != 2:  # a product, or a power by repeated products
            if op == MUL:
                top -= 1
                src = top
            else:
                src = top  # (a copy of the base, one row above)
                for k in range(K):
                    slo[src, k] = slo[top - 1, k]
                    shi[src, k] = shi[top - 1, k]
            for _ in range(1 if op == MUL else arg - 1):
                for k in range(K):
                    a, b, c, e = slo[top - 1, k], shi[top - 1, k], slo[src, k], shi[src, k]
                    p0, p1, p2, p3 = a * c, a * e, b * c, b * e
                    slo[top - 1, k] = below(_nmin(_nmin(p0, p1), _nmin(p2, p3)))
                    shi[top - 1, k] = above(_nmax(_nmax(p0, p1), _nmax(p2, p3)))
        else:  # a square
            for k in range(K):
                a, b = slo[top - 1, k], shi[top - 1, k]
                s0, s1 = a * a, b * b
                low = 0.0 if (a <= 0 and b >= 0) else _nmin(s0, s1)
                slo[top - 1, k] = below(low)
                shi[top - 1, k] = above(_nmax(s0, s1))


#: Updates per block of the interval and residue programs: their stacks stay small and
#: warm (a stack the length of the chunk was fresh memory on every call).
BLOCK = 512


@jit
def _interval_stacks(code_l: np.ndarray, code_r: np.ndarray, K: int) -> Any:
    """The block length for ``K`` updates, the two sides' stacks and the block of their
    four ends (:func:`_sides_block`'s working arrays)."""
    depth = max(code_l.shape[0], code_r.shape[0]) + 1
    B = max(1, min(K, BLOCK))
    return B, np.empty((depth, B)), np.empty((depth, B)), np.empty((4, B))


@jit
def _sides_block(
    code_l: np.ndarray,
    code_r: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    scalar: np.ndarray,
    clo: np.ndarray,
    chi: np.ndarray,
    slo: np.ndarray,
    shi: np.ndarray,
    out: np.ndarray,
    k0: int,
    K: int,
) -> None:
    """:func:`enclosure_sides` of the updates ``k0 .. k0 + K - 1`` into ``out[:, 0:K]``."""
    _interval_program(code_l, lo, hi, scalar, clo, chi, slo, shi, k0, K)
    for k in range(K):
        out[0, k] = slo[0, k]
        out[1, k] = shi[0, k]
    _interval_program(code_r, lo, hi, scalar, clo, chi, slo, shi, k0, K)
    for k in range(K):
        out[2, k] = slo[0, k]
        out[3, k] = shi[0, k]


@jit
def enclosure_sides(
    code_l: np.ndarray,
    code_r: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    scalar: np.ndarray,
    clo: np.ndarray,
    chi: np.ndarray,
    out: np.ndarray,
) -> None:
    """Both sides' enclosures at every update ``k < out.shape[1]``: ``out[0:2, k]`` the
    left side's ends, ``out[2:4, k]`` the right side's.  Symbol ``s`` is
    ``[lo[s, k], hi[s, k]]`` (column 0 for every update when ``scalar[s]``), constant
    ``c`` is ``[clo[c], chi[c]]``.  In blocks of :data:`BLOCK` updates."""
    K = out.shape[1]
    B, slo, shi, part = _interval_stacks(code_l, code_r, K)
    for c0 in range(0, K, B):
        n = min(B, K - c0)
        _sides_block(code_l, code_r, lo, hi, scalar, clo, chi, slo, shi, part, c0, n)
        for r in range(4):
            for k in range(n):
                out[r, c0 + k] = part[r, k]


@jit
def enclosure_verdicts(
    code_l: np.ndarray,
    code_r: np.ndarray,
    op: int,
    lo: np.ndarray,
    hi: np.ndarray,
    scalar: np.ndarray,
    clo: np.ndarray,
    chi: np.ndarray,
    bad: np.ndarray,
    unsettled: np.ndarray,
) -> None:
    """Per update ``k``: ``bad[k]`` where ``lhs op rhs`` fails for every value of the
    enclosures (all four ends finite), ``unsettled[k]`` where it neither certainly
    holds (ends finite) nor certainly fails; ``op`` indexes :data:`OPS`.  In blocks of
    :data:`BLOCK` updates."""
    K = bad.shape[0]
    B, slo, shi, out = _interval_stacks(code_l, code_r, K)
    for c0 in range(0, K, B):
        n = min(B, K - c0)
        _sides_block(code_l, code_r, lo, hi, scalar, clo, chi, slo, shi, out, c0, n)
        for j in range(n):
            a, b, c, e = out[0, j], out[1, j], out[2, j], out[3, j]
            finite = np.isfinite(a + b + c + e)
            if op == 0:  # <=
                holds, fails = b <= c, a > e
            elif op == 1:  # <
                holds, fails = b < c, a >= e
            elif op == 2:  # >=
                holds, fails = a >= e, b < c
            elif op == 3:  # >
                holds, fails = a > e, b <= c
            else:  # ==: never shown by enclosures
                holds, fails = False, (b < c) or (a > e)
            k = c0 + j
            bad[k] = fails and finite
            unsettled[k] = not (holds and finite) and not bad[k]


# --- residues -----------------------------------------------------------------------------------


@jit
def _residue_program(
    code: np.ndarray,
    fa: np.ndarray,
    fb: np.ndarray,
    R: np.ndarray,
    scalar: np.ndarray,
    Rc: np.ndarray,
    p: int,
    q: int,
    inv: float,
    cols: np.ndarray,
    stack: np.ndarray,
) -> None:
    """One side's values modulo prime ``p`` (``q``) at the updates ``cols`` into row 0
    of ``stack``; instruction ``i``'s ``ADD`` scales its operands by ``fa[i, p]`` and
    ``fb[i, p]`` (to a common denominator)."""
    n = cols.shape[0]
    top = 0
    for i in range(code.shape[0]):
        op = code[i, 0]
        arg = code[i, 1]
        if op == SYM:
            for c in range(n):
                stack[top, c] = R[arg, p, 0 if scalar[arg] == 1 else cols[c]]
            top += 1
        elif op == NUM:
            for c in range(n):
                stack[top, c] = Rc[arg, p]
            top += 1
        elif op == ADD:
            top -= 1
            f, g = fa[i, p], fb[i, p]
            if f == 1 and g == 1:  # (the same denominators: the common case)
                for c in range(n):
                    a = stack[top - 1, c] + stack[top, c]
                    stack[top - 1, c] = a - q if a >= q else a
            else:
                for c in range(n):
                    a = mod(stack[top - 1, c] * f, q, inv) + mod(stack[top, c] * g, q, inv)
                    stack[top - 1, c] = a - q if a >= q else a
        elif op == MUL:
            top -= 1
            for c in range(n):
                stack[top - 1, c] = mod(stack[top - 1, c] * stack[top, c], q, inv)
        else:
            for c in range(n):
                x = stack[top - 1, c]
                v = x
                for _ in range(arg - 1):
                    v = mod(v * x, q, inv)
                stack[top - 1, c] = v


@jit
def residue_differences(
    code_l: np.ndarray,
    fa_l: np.ndarray,
    fb_l: np.ndarray,
    code_r: np.ndarray,
    fa_r: np.ndarray,
    fb_r: np.ndarray,
    R: np.ndarray,
    scalar: np.ndarray,
    Rc: np.ndarray,
    q: np.ndarray,
    f_l: np.ndarray,
    f_r: np.ndarray,
    cols: np.ndarray,
    out: np.ndarray,
    zero: np.ndarray,
) -> None:
    """``out[p, i] = (L f_l - R f_r) mod q[p]`` at update ``cols[i]``: the two sides'
    programs run on the residues ``R[s, p, k]`` of the symbols (column 0 when
    ``scalar[s]``) and ``Rc[c, p]`` of the constants; every residue below 2^26.  Or,
    when ``out`` has no rows, only ``zero[i]``: whether that is 0 modulo every prime
    (what an equality asks; no table of differences).  The updates in blocks of
    :data:`BLOCK`."""
    n = cols.shape[0]
    table = out.shape[0] > 0
    depth = max(code_l.shape[0], code_r.shape[0]) + 1
    B = max(1, min(n, BLOCK))
    left = np.empty((depth, B), dtype=np.int64)
    right = np.empty((depth, B), dtype=np.int64)
    if not table:
        for i in range(n):
            zero[i] = True
    for c0 in range(0, n, B):
        block = cols[c0 : min(n, c0 + B)]
        for p in range(q.shape[0]):
            qq = q[p]
            inv = 1.0 / qq
            _residue_program(code_l, fa_l, fb_l, R, scalar, Rc, p, qq, inv, block, left)
            _residue_program(code_r, fa_r, fb_r, R, scalar, Rc, p, qq, inv, block, right)
            same = f_l[p] == 1 and f_r[p] == 1  # (like denominators: the common case)
            for c in range(block.shape[0]):
                if same:
                    d = left[0, c] - right[0, c]
                else:
                    d = mod(left[0, c] * f_l[p], qq, inv) - mod(right[0, c] * f_r[p], qq, inv)
                if table:
                    out[p, c0 + c] = d + qq if d < 0 else d
                elif d != 0:
                    zero[c0 + c] = False


@jit
def residue_signs(
    R: np.ndarray, q: np.ndarray, inv: np.ndarray, half: np.ndarray, out: np.ndarray
) -> None:
    """The sign (-1, 0, 1) of each integer whose residues modulo ``q`` are a column of
    ``R`` (int64, below 2^26), read in ``(-M/2, M/2]`` (``M`` the primes' product):
    its mixed-radix digits (``inv[i, j]`` the inverse of ``q[j]`` modulo ``q[i]``)
    compared with those of ``(M - 1) / 2`` (``half``) from the top -- one compiled pass
    per integer, no arrays in between."""
    P = R.shape[0]
    a = np.empty(P, dtype=np.int64)
    for c in range(R.shape[1]):
        zero = True
        for i in range(P):
            a[i] = R[i, c]
            if a[i] != 0:
                zero = False
        if zero:
            out[c] = 0
            continue
        for j in range(P - 1):
            for i in range(j + 1, P):
                qi = q[i]
                fi = 1.0 / qi
                a[i] = mod(mod(a[i] - a[j], qi, fi) * inv[i, j], qi, fi)
        s = 1
        for i in range(P - 1, -1, -1):
            if a[i] > half[i]:
                s = -1
                break
            if a[i] < half[i]:
                break
        out[c] = s
