"""The compiled loop: every linear rule ``y w.x <= T -> w <- w + c_i y x``, any selection rule.

One call of :func:`advance` runs the Perceptron from the state it is given until it
converges, makes ``max_updates`` more updates, or meets something it must not decide
alone -- then it returns a status and the Python driver (:mod:`pla_proof.engine.drive`)
acts and calls it again.  The loop never guesses:

* ``GRID`` mode (exact): the points are integers ``G`` held exactly in float64 and the
  weights are int64 integers ``W``.  A margin is computed in float64 when every product
  and partial sum is an integer below 2^53 (then it is exact), else in int64 when
  ``|G_i|_1 max|W| < 2^62``, else the driver decides it with Python integers.  An update
  that could overflow int64 returns ``OVERFLOW`` before it is made.
* ``FLOAT_EXACT`` mode (exact decisions on float or huge data): float64 weights ``Wf``
  approximate the exact weights (kept by the driver) within a componentwise bound ``E``;
  a margin is decided in float64 when a rigorous error bound settles its sign, else
  ``NEED_EXACT`` asks the driver (filtered predicates, as in CGAL).
* ``FLOAT`` mode: the weights are the float64 sums themselves (the float algorithm);
  decisions on them are still exact (filtered, with the driver deciding the rest), and
  ``E`` bounds their drift from the exact sums of the same updates, for the monitor.

The error bound of a float64 dot product ``m = fl(sum_c x_c w_c)`` (any summation
order, gradual underflow) is ``|m - x.w| <= g a + (2d + 4) 2^-1074`` with
``a = fl(sum_c |x_c w_c|)`` and ``g = (d + 2) 2^-52``; the drift adds
``sum_c |x_c| E_c``.  The derivation is in ``docs/engine.md``.

>>> import numpy as np
>>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1, -1], dtype=np.int8)
>>> st = State.start(X, y, mode=GRID, rule=1, seed=0, w0=np.zeros(2, dtype=np.int64))
>>> advance(*st.args(max_updates=10, max_visits=100)), st.k, st.W.tolist()
(0, 2, [1, -1])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .jit import jit, jit_reassociating, resolved
from .orders import CHOOSE, CYCLIC, FIRST, RANDOM
from .scratch import give, take, zeroed
from .shuffle import fill_permutation, sample, splitmix_values

__all__ = [
    "FLOAT",
    "FLOAT_EXACT",
    "GRID",
    "STATUSES",
    "State",
    "advance",
    "dot_bound",
]

# --- modes, statuses and the layout of the integer state ------------------------------------

GRID, FLOAT_EXACT, FLOAT = 0, 1, 2
#: Why :func:`advance` returned.
CONVERGED, CHUNK, NEED_EXACT, CHOOSE_NOW, CYCLE, OVERFLOW, VISITS, NEED_ARGMIN, GROW = range(9)
STATUSES = (
    "converged",
    "chunk",
    "need_exact",
    "choose",
    "cycle",
    "overflow",
    "visits",
    "need_argmin",
    "grow",
)
#: A sampling rule (with replacement) for the pocket algorithm's random picks.
SAMPLE = 5

# sel[...] fields
K = 0  # updates made so far
VISITS_DONE = 1  # points visited so far (cyclic, random, sample)
POS = 2  # next position in the visiting order (cyclic, random) or scan (first)
EPOCH = 3  # epoch of the current permutation (random)
QUIET = 4  # points verified since the last update
NEED_I = 8  # out: the point to decide exactly
PICK = 9  # in: the point to update on now (chooser, max-violation tie), -1 none
HIT_K = 10  # out: the earlier update count whose weights hash alike (CYCLE)
HASHING = 11  # 1: keep the hash table of visited weights
WEXACT = 12  # GRID: 1 while every |W_c| <= 2^53 (Wf is exact)
WMAX = 13  # GRID: max |W_c|
SCAN = 14  # at the visit cap: the next point of the final scan
HCOUNT = 15  # entries in the hash table
HSHIFT = 16  # FLOAT_EXACT on float data: the data's scale exponent (hash residues in the loop)
LIMBS = 17  # FLOAT_EXACT on float data: limbs per coordinate of the exact weights kept in W
SEL_SIZE = 20
#: The hash table grows (doubling) up to this many slots, then forgets (bounded memory).
MAX_TABLE = 1 << 22

_TWO53 = 9007199254740992.0
_P61 = (1 << 61) - 1
_INT_SAFE = 4.0e18  # < 2^62: sums of two such int64 values cannot overflow
_TINY = 5e-324
_U = 2.0**-53


@jit
def dot_bound(a: float, e: float, d: int) -> float:
    """A rigorous bound on ``|fl(x.w) - x.w|`` (plus the drift term ``e``), given
    ``a = fl(sum |x_c w_c|)`` and ``e = fl(sum |x_c| E_c)`` in dimension ``d``."""
    g = (d + 2) * 2.0**-52
    b = g * a + e * (1.0 + g) + (2 * d + 4) * _TINY
    return b * (1.0 + 2.0**-50) + _TINY


# --- probes: is point i a trigger at the current weights? -----------------------------------


# --- updates ----------------------------------------------------------------------------------


@jit
def _update(
    mode: int,
    X: np.ndarray,
    yl: np.ndarray,
    j: int,
    mult: np.ndarray,
    cf: np.ndarray,
    inc_rel: float,
    xmax: np.ndarray,
    W: np.ndarray,
    Wf: np.ndarray,
    E: np.ndarray,
    sel: np.ndarray,
    hr: np.ndarray,
    hres: np.ndarray,
    hs: np.ndarray,
    tmp: np.ndarray,
) -> bool:
    """``w <- w + c_j y_j x_j``; False (nothing changed) when int64 or float64 would overflow."""
    d = X.shape[1]
    yj = np.int64(yl[j])
    if mode == GRID:
        mj = mult[j]
        if float(sel[WMAX]) + float(abs(mj)) * xmax[j] >= _INT_SAFE:
            return False
        top = np.int64(0)
        h = hs[0]
        for c in range(d):
            inc = yj * mj * np.int64(X[j, c])
            w = W[c] + inc
            W[c] = w
            Wf[c] = float(w)
            if abs(w) > top:
                top = abs(w)
            h += inc * hr[c]
        if sel[HASHING] == 1:
            hs[0] = h
        sel[WMAX] = top
        sel[WEXACT] = 1 if float(top) <= _TWO53 else 0
        return True
    cj = cf[j]
    rounded_product = cj != 1.0 or inc_rel != 0.0
    for c in range(d):
        inc = (cj * X[j, c]) * yj
        tmp[c] = inc
        if not np.isfinite(Wf[c] + inc):
            return False
    h = hs[0]
    for c in range(d):
        inc = tmp[c]
        w = Wf[c]
        s = w + inc
        bp = s - w
        err_add = (w - (s - bp)) + (inc - bp)  # TwoSum: the exact rounding error of w + inc
        Wf[c] = s + 0.0  # -0.0 becomes 0.0: equal weights hash alike
        drift = E[c] + abs(err_add)
        if rounded_product:
            drift += abs(inc) * (_U + inc_rel) * (1.0 + _U) + _TINY
        E[c] = drift * (1.0 + 2.0**-52) if drift != 0.0 else 0.0
    if mode == FLOAT_EXACT and sel[LIMBS] > 0:
        _accumulate(X, j, int(yj), W, int(sel[LIMBS]), int(sel[HSHIFT]))
    if sel[HASHING] != 1:
        return True
    if mode == FLOAT_EXACT:  # the exact weights' hash mod 2^61 - 1 (see drive._residues)
        r = hres[j]
        if sel[HSHIFT] >= 0 and r < 0:  # point j's term, made at its first update
            r = np.int64(0)
            for c in range(d):
                r += _float_residue(X[j, c], int(sel[HSHIFT]), int(hr[c] % 61))
                if r >= _P61:
                    r -= _P61
            hres[j] = r
        h = (h + (r if yj > 0 else _P61 - r)) % _P61
    if mode == FLOAT:
        bits = Wf.view(np.int64)
        h = np.int64(0)
        for c in range(d):
            h += _fmix(bits[c]) * hr[c]
    hs[0] = h
    return True


@jit
def _bounds(mode: int, Wf: np.ndarray, E: np.ndarray, sel: np.ndarray, use_e: int) -> Any:
    """``(max |w|, sum E)``: with a row's ``|x|_1`` and ``max |x_c|`` they bound every term
    of a margin's rounding error (GRID: ``max |W|``, exact)."""
    if mode == GRID:
        return float(sel[WMAX]), 0.0
    top = 0.0
    drift = 0.0
    for c in range(Wf.shape[0]):
        if abs(Wf[c]) > top:
            top = abs(Wf[c])
        if use_e == 1:
            drift += E[c]
    return top, drift * (1.0 + (Wf.shape[0] + 2) * 2.0**-52)


@jit
def _accumulate(X: np.ndarray, j: int, yj: int, W: np.ndarray, L: int, shift: int) -> None:
    """Add ``y_j x_j 2^shift`` exactly to the weights kept as ``L`` signed 62-bit limbs per
    coordinate in ``W`` (coordinate ``c`` is ``sum_k W[c L + k] 2^(62 k)``)."""
    d = X.shape[1]
    mask = (np.int64(1) << 62) - 1
    for c in range(d):
        x = X[j, c]
        if x == 0.0:
            continue
        m, e = math.frexp(abs(x))
        M = np.int64(m * 9007199254740992.0)  # |x| = M 2^(e - 53)
        ex = e - 53 + shift
        while ex < 0:  # (x 2^shift is an integer, so M ends in enough zero bits)
            M >>= 1
            ex += 1
        q = ex // 62
        r = ex % 62
        sign = yj if x > 0.0 else -yj
        lo = (M & ((np.int64(1) << (62 - r)) - 1)) << r
        hi = M >> (62 - r) if r > 0 else np.int64(0)
        base = c * L
        W[base + q] += sign * lo
        if hi != 0:
            W[base + q + 1] += sign * hi
        k = q
        while k < L - 1:  # carries upward; every limb but the top one in [0, 2^62)
            v = W[base + k]
            carry = v >> 62
            if carry == 0 and k > q:
                break
            W[base + k] = v & mask
            W[base + k + 1] += carry
            k += 1


# --- the hash table of visited weights (cycle detection, bounded memory) ---------------------


@jit
def _fmix(h: Any) -> Any:
    """MurmurHash3's 64-bit finaliser (on int64 bits): every input bit moves every output bit."""
    z = np.uint64(h)
    z ^= z >> np.uint64(33)
    z *= np.uint64(0xFF51AFD7ED558CCD)
    z ^= z >> np.uint64(33)
    z *= np.uint64(0xC4CEB9FE1A85EC53)
    z ^= z >> np.uint64(33)
    return np.int64(z)


@jit
def _remember(htab_k: np.ndarray, htab_v: np.ndarray, h: int, k: int, sel: np.ndarray) -> int:
    """Insert ``h -> k``; return the earlier ``k`` stored under the same hash, or -1."""
    cap = htab_k.shape[0]
    key = h  # an empty slot is marked by htab_v < 0, so every key is possible
    home = int(_fmix(key) & (cap - 1))
    slot = home
    for _ in range(16):
        if htab_v[slot] < 0:
            htab_k[slot] = key
            htab_v[slot] = k
            sel[HCOUNT] += 1
            return -1
        if htab_k[slot] == key:
            return int(htab_v[slot])  # the first visit is kept
        slot = (slot + 1) & (cap - 1)
    # a full neighbourhood (only once the table stopped growing): forget one entry
    slot = home
    htab_k[slot] = key
    htab_v[slot] = k
    return -1


@jit
def visits_under(htab_k: np.ndarray, htab_v: np.ndarray, h: int) -> np.ndarray:
    """Every stored ``k`` under hash ``h`` (a collision does not hide a later true repeat)."""
    cap = htab_k.shape[0]
    slot = int(_fmix(h) & (cap - 1))
    out = np.empty(16, dtype=np.int64)
    n = 0
    for _ in range(16):
        if htab_v[slot] < 0:
            break
        if htab_k[slot] == h:
            out[n] = htab_v[slot]
            n += 1
        slot = (slot + 1) & (cap - 1)
    return out[:n]


@jit
def remember_also(htab_k: np.ndarray, htab_v: np.ndarray, h: int, k: int, sel: np.ndarray) -> None:
    """Store ``h -> k`` beside the visits already stored under ``h`` (after a collision)."""
    cap = htab_k.shape[0]
    slot = int(_fmix(h) & (cap - 1))
    for _ in range(16):
        if htab_v[slot] < 0:
            htab_k[slot] = h
            htab_v[slot] = k
            sel[HCOUNT] += 1
            return
        slot = (slot + 1) & (cap - 1)


@jit
def rehash(
    old_k: np.ndarray, old_v: np.ndarray, new_k: np.ndarray, new_v: np.ndarray, sel: np.ndarray
) -> None:
    """Move every entry of the old table into the (larger, empty) new one."""
    sel[HCOUNT] = 0
    for slot in range(old_k.shape[0]):
        if old_v[slot] >= 0:  # every visit moves, those stored under one hash too
            remember_also(new_k, new_v, old_k[slot], int(old_v[slot]), sel)


@jit
def _float_residue(x: float, shift: int, rot: int) -> Any:
    """``x 2^shift 2^rot mod (2^61 - 1)`` for a float ``x`` with ``x 2^shift`` an integer
    (multiplying by a power of two modulo a Mersenne prime is a rotation of the bits)."""
    if x == 0.0:
        return 0
    m, e = math.frexp(abs(x))
    M = np.int64(m * 9007199254740992.0)  # |x| = M 2^(e - 53), M < 2^53
    # (2^61 = 1 mod 2^61 - 1: a power of two, negative ones too, is a rotation by the
    # exponent mod 61; M 2^-t, an integer, is M times the inverse of 2^t)
    r = (e - 53 + shift + rot) % 61
    if r == 0:
        out = M
    else:
        low = (M & ((np.int64(1) << (61 - r)) - 1)) << r
        out = low + (M >> (61 - r))
    if out >= _P61:
        out -= _P61
    if x < 0.0 and out != 0:
        out = _P61 - out
    return out


# --- the loop ---------------------------------------------------------------------------------


# one function on purpose: a compiled loop, whose length is its speed
@jit_reassociating
def _pass_quiet(
    X: np.ndarray,
    yl: np.ndarray,
    mode: int,
    rule: int,
    seed: np.uint64,
    xrel: float,
    T_i: int,
    T_f: float,
    T_err: float,
    gl1: np.ndarray,
    xmax: np.ndarray,
    Wf: np.ndarray,
    sel: np.ndarray,
    stamp: np.ndarray,
    perm: np.ndarray,
    wbound: float,
    ebound: float,
    max_visits: int,
) -> None:
    """Visit points (cyclic, random or sampled order) while the first, cheap test of
    :func:`advance` proves each one is *not* a trigger; stop before the first point it
    cannot settle that way (a trigger, or a margin too close to call) and leave that
    visit to :func:`advance`'s full decision.

    The same decisions and the same bookkeeping as :func:`advance` makes for those
    points, with the visiting state held in registers rather than in ``sel`` (the
    common case of a long run: almost every visit is a quiet one)."""
    n = X.shape[0]
    d = X.shape[1]
    pos = sel[POS]
    quiet = sel[QUIET]
    visits = sel[VISITS_DONE]
    epoch = sel[EPOCH]
    mark = sel[K] + 1
    grid_exact = mode == GRID and sel[WEXACT] == 1
    # advance's first test, v > (dot_bound(|x|_1 max|w| (1 + xrel), max|x| sum E, d) + T_err
    # + |v| 2^-53) (1 + 2^-48), is linear in the row's |x|_1 and max|x_c|: v > A |x|_1 +
    # B max|x_c| + C with the constants rounded up (safe covers the factors (1 + 2^-50)
    # (1 + 2^-48), the division by 1 - 2^-53 (1 + 2^-48) that takes |v| 2^-53 to the right,
    # and the roundings of both sides)
    safe = (1.0 + 2.0**-40) / (1.0 - 2.0 * _U)
    g = (d + 2) * 2.0**-52
    A = g * wbound * (1.0 + xrel) * safe
    B = ebound * (1.0 + g) * safe
    C = ((2 * d + 5) * _TINY + T_err) * safe + 8 * _TINY
    if rule == CYCLIC and mode != GRID:  # the common case, written out on its own
        steps = min(n - quiet, max_visits - visits)
        done = 0
        while done < steps:
            i = int(pos)
            m = 0.0
            for c in range(d):
                m += X[i, c] * Wf[c]
            v = m * yl[i] - T_f
            if not (v > gl1[i] * A + xmax[i] * B + C and v < np.inf):  # (false for NaN)
                break
            stamp[i] = mark  # (the visits since the last update are distinct points)
            done += 1
            pos += 1
            if pos >= n:
                pos = 0
                epoch += 1
        quiet += done
        visits += done
    while quiet < n and visits < max_visits and not (rule == CYCLIC and mode != GRID):
        if rule == CYCLIC:
            i = int(pos)
        elif rule == RANDOM:
            if pos == 0:  # a new epoch's permutation: advance draws it
                break
            i = int(perm[pos])
        else:
            i = int(sample(seed, visits, n))
        yi = yl[i]
        if mode == GRID:
            if not grid_exact or gl1[i] * wbound > _TWO53:
                break
            m = 0.0
            for c in range(d):
                m += X[i, c] * Wf[c]
            if np.int64(m) * np.int64(yi) - T_i <= 0:  # a trigger, or a strict rule's tie
                break
        else:
            m = 0.0
            for c in range(d):
                m += X[i, c] * Wf[c]
            v = m * yi - T_f
            if not (v > gl1[i] * A + xmax[i] * B + C and v < np.inf):  # (false for NaN)
                break
        visits += 1
        if rule != SAMPLE:
            pos += 1
            if pos >= n:
                pos = 0
                epoch += 1
        # (cyclic: the visits since the last update are distinct points until quiet = n,
        # so none is marked yet)
        if rule == CYCLIC or stamp[i] != mark:
            stamp[i] = mark
            quiet += 1
    sel[POS] = pos
    sel[QUIET] = quiet
    sel[VISITS_DONE] = visits
    sel[EPOCH] = epoch


# one function on purpose: a compiled loop, whose length is its speed
@jit_reassociating
def advance(
    X: np.ndarray,
    yl: np.ndarray,
    mode: int,
    rule: int,
    seed: np.uint64,
    mult: np.ndarray,
    cf: np.ndarray,
    inc_rel: float,
    xrel: float,
    T_i: int,
    T_f: float,
    T_err: float,
    strict: np.ndarray,
    gl1: np.ndarray,
    xmax: np.ndarray,
    W: np.ndarray,
    Wf: np.ndarray,
    E: np.ndarray,
    sel: np.ndarray,
    hs: np.ndarray,
    stamp: np.ndarray,
    perm: np.ndarray,
    mask: np.ndarray,
    zval: np.ndarray,
    zk: np.ndarray,
    fval: np.ndarray,
    ferr: np.ndarray,
    fk: np.ndarray,
    fv: np.ndarray,
    tmp: np.ndarray,
    hr: np.ndarray,
    hres: np.ndarray,
    htab_k: np.ndarray,
    htab_v: np.ndarray,
    out_j: np.ndarray,
    out_v: np.ndarray,
    max_updates: int,
    max_visits: int,
) -> int:
    """Run until a status (see :data:`STATUSES`); ``out_j[:n_new]`` are the points updated on
    in this call, ``out_v`` the visit number of each update (cyclic, random, sample).

    Every margin is decided at one place in this loop (written out here rather than in
    a helper: a call per point would cost more than the point's dot product)."""
    n = X.shape[0]
    d = X.shape[1]
    start_k = sel[K]
    use_e = 1 if mode == FLOAT_EXACT else 0
    visiting = rule in (CYCLIC, RANDOM, SAMPLE)
    scoring = not visiting and rule != FIRST  # max violation keeps every margin of a scan
    wbound, ebound = _bounds(mode, Wf, E, sel, use_e)
    while True:
        made = sel[K] - start_k
        j = -1
        i = -1
        final_scan = False
        if sel[PICK] >= 0:  # the driver chose (chooser, or a max-violation tie it settled)
            if made >= max_updates:
                return CHUNK
            j = int(sel[PICK])
            sel[PICK] = -1
        elif visiting:
            if sel[QUIET] < n and sel[VISITS_DONE] < max_visits:
                _pass_quiet(
                    X, yl, mode, rule, seed, xrel, T_i, T_f, T_err, gl1, xmax, Wf, sel, stamp,
                    perm, wbound, ebound, max_visits,
                )  # fmt: skip
            if sel[QUIET] >= n:
                return CONVERGED
            if sel[VISITS_DONE] >= max_visits:
                # the visit cap: converged exactly when no unverified point triggers
                final_scan = True
                i = int(sel[SCAN])
                while i < n and stamp[i] == sel[K] + 1:
                    i += 1
                if i >= n:
                    return CONVERGED
            elif rule == CYCLIC:
                i = int(sel[POS])
            elif rule == RANDOM:
                if sel[POS] == 0:
                    fill_permutation(perm, seed, int(sel[EPOCH]))
                i = int(perm[sel[POS]])
            else:
                i = sample(seed, sel[VISITS_DONE], n)
        else:
            i = int(sel[POS])
            if i >= n:  # a scan of every point is complete
                if rule == FIRST:
                    return CONVERGED
                count = 0
                for q in range(n):
                    count += mask[q]
                if count == 0:
                    return CONVERGED
                if made >= max_updates:
                    return CHUNK
                if rule == CHOOSE:
                    return CHOOSE_NOW
                j = _most_violated(mode, mask, zval, zk, fval, ferr, int(sel[K]))
                if j < 0:
                    return NEED_ARGMIN
        if j < 0:
            # --- is point i a trigger at the current weights? (1 yes, 0 no, -1 undecided) ---
            dec = -1
            yi = yl[i]
            if mode == GRID:
                exact = False
                z = np.int64(0)
                if sel[WEXACT] == 1 and gl1[i] * wbound <= _TWO53:
                    # sum |G_c W_c| <= |G|_1 max|W| <= 2^53: every product and partial sum
                    # is an exact integer in float64
                    m = 0.0
                    for c in range(d):
                        m += X[i, c] * Wf[c]
                    z = np.int64(m) * np.int64(yi) - T_i
                    exact = True
                elif sel[WEXACT] == 1:
                    m = 0.0
                    a = 0.0
                    for c in range(d):
                        p = X[i, c] * Wf[c]
                        m += p
                        a += abs(p)
                    if a <= _TWO53:  # the same, with the sum measured
                        z = np.int64(m) * np.int64(yi) - T_i
                        exact = True
                if not exact and gl1[i] * float(sel[WMAX]) < _INT_SAFE:
                    acc = np.int64(0)
                    for c in range(d):
                        acc += np.int64(X[i, c]) * W[c]
                    z = acc * np.int64(yi) - T_i
                    exact = True
                if exact:
                    if scoring:
                        zval[i] = z
                        zk[i] = sel[K] + 1
                    dec = (1 if z < 0 else 0) if strict[i] else 1 if z <= 0 else 0
            else:
                # first one dot product against a bound from the row's norm (enough for
                # almost every point), then the tighter bound where that cannot decide
                m = 0.0
                for c in range(d):
                    m += X[i, c] * Wf[c]
                v = m * yi - T_f
                quick = dot_bound(gl1[i] * wbound * (1.0 + xrel), xmax[i] * ebound, d)
                quick = (quick + T_err + abs(v) * _U) * (1.0 + 2.0**-48)
                if np.isfinite(v) and np.isfinite(quick) and abs(v) > quick:
                    if scoring:
                        fval[i] = v
                        ferr[i] = quick
                    dec = 0 if v > 0 else 1
            if mode != GRID and dec < 0:
                m = 0.0
                a = 0.0
                e = 0.0
                nz = 0
                for c in range(d):
                    x = X[i, c]
                    p = x * Wf[c]
                    m += p
                    a += abs(p)
                    if x != 0.0 and (Wf[c] != 0.0 or (use_e == 1 and E[c] != 0.0)):
                        nz += 1
                    if use_e == 1:
                        e += abs(x) * E[c]
                v = m * yi - T_f
                fval[i] = v
                if nz == 0 and T_err == 0.0 and xrel == 0.0:  # every product is exactly 0
                    ferr[i] = 0.0
                    dec = (1 if v < 0 else 0) if strict[i] else 1 if v <= 0 else 0
                elif not (np.isfinite(v) and np.isfinite(a) and np.isfinite(e)):
                    ferr[i] = np.inf
                else:
                    err = dot_bound(a * (1.0 + xrel) + e * xrel, e, d) + T_err + abs(v) * _U
                    err = err * (1.0 + 2.0**-48)
                    ferr[i] = err
                    if v - err > 0:
                        dec = 0
                    elif v + err < 0:
                        dec = 1
            if dec < 0 and fk[i] == sel[K] + 1:  # the driver decided it at these weights
                dec = int(fv[i])
            if dec < 0:
                sel[NEED_I] = i
                return NEED_EXACT
            # --- what the rule does with the decision ------------------------------------
            if final_scan:
                if dec == 1:
                    return VISITS
                stamp[i] = sel[K] + 1
                sel[QUIET] += 1
                sel[SCAN] = i + 1
                continue
            if visiting:
                if dec == 1 and made >= max_updates:
                    return CHUNK  # the same visit is made again on the next call
                sel[VISITS_DONE] += 1
                if rule != SAMPLE:
                    sel[POS] += 1
                    if sel[POS] >= n:
                        sel[POS] = 0
                        sel[EPOCH] += 1
                if dec == 0:
                    if stamp[i] != sel[K] + 1:
                        stamp[i] = sel[K] + 1
                        sel[QUIET] += 1
                    continue
                j = i
            elif rule == FIRST:
                if dec == 0:
                    sel[POS] += 1
                    continue
                if made >= max_updates:
                    return CHUNK
                j = i
            else:  # MAXVIOL, CHOOSE: a scan of every point
                mask[i] = dec
                sel[POS] += 1
                continue
        # --- the update on point j --------------------------------------------------------
        if not _update(mode, X, yl, j, mult, cf, inc_rel, xmax, W, Wf, E, sel, hr, hres, hs, tmp):
            sel[PICK] = j
            return OVERFLOW
        wbound, ebound = _bounds(mode, Wf, E, sel, use_e)
        k = sel[K]
        out_j[k - start_k] = j
        out_v[k - start_k] = sel[VISITS_DONE] - 1 if visiting else -1
        sel[K] = k + 1
        sel[QUIET] = 0
        sel[SCAN] = 0
        if not visiting:
            sel[POS] = 0
        if sel[HASHING] == 1:
            prev = _remember(htab_k, htab_v, hs[0], k + 1, sel)
            if prev >= 0:
                sel[HIT_K] = prev
                return CYCLE
            if 2 * sel[HCOUNT] > htab_k.shape[0] and htab_k.shape[0] < MAX_TABLE:
                return GROW


@jit
def _most_violated(
    mode: int,
    mask: np.ndarray,
    zval: np.ndarray,
    zk: np.ndarray,
    fval: np.ndarray,
    ferr: np.ndarray,
    k: int,
) -> int:
    """The violator with the smallest margin (ties: smallest index), or -1 when the
    margins at hand cannot tell; ``mask`` then keeps only the candidates for the driver."""
    n = mask.shape[0]
    best = -1
    if mode == GRID:
        unknown = 0
        for i in range(n):
            if mask[i] == 1:
                if zk[i] != k + 1:
                    unknown += 1
                elif best < 0 or zval[i] < zval[best]:
                    best = i
        if unknown == 0:
            return best
        for i in range(n):
            if mask[i] == 1 and zk[i] == k + 1 and i != best:
                mask[i] = 0
        return -1
    lowest_hi = np.inf
    for i in range(n):
        if mask[i] == 1 and fval[i] + ferr[i] < lowest_hi:
            lowest_hi = fval[i] + ferr[i]
    count = 0
    for i in range(n):
        if mask[i] == 1:
            lo = fval[i] - ferr[i]
            if not np.isfinite(lo) or not np.isfinite(lowest_hi) or lo <= lowest_hi:
                best = i  # (an enclosure that is not finite keeps every candidate)
                count += 1
            else:
                mask[i] = 0
    if count == 1:
        return best
    return -1


# --- the state of a run between calls ---------------------------------------------------------

_MULTIPLIERS: dict[int, np.ndarray] = {}


def _multipliers(d: int) -> np.ndarray:
    """Fixed odd random multipliers of the weights' linear hash (one per coordinate)."""
    hr = _MULTIPLIERS.get(d)
    if hr is None:
        odd = [v | 1 for v in splitmix_values(0x5EED, d)]  # as int64: below 2^63 in magnitude
        hr = np.array([v - (1 << 64) if v >= 1 << 63 else v for v in odd], dtype=np.int64)
        hr.setflags(write=False)
        _MULTIPLIERS[d] = hr
    return hr


def _start_weights(
    X: np.ndarray,
    mode: int,
    w0: np.ndarray,
    row_norms: tuple[np.ndarray, np.ndarray] | None,
    sel: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(W, Wf, gl1)`` at the start weights ``w0``: the exact int64 weights (``GRID``;
    their magnitude noted in ``sel``), the float weights, and each row's ``|x|_1``
    bound."""
    d = X.shape[1]
    if mode == GRID:
        W = np.asarray(w0, dtype=np.int64).copy()
        Wf = W.astype(np.float64)
        top = int(np.abs(W).max()) if d else 0
        sel[WMAX] = top
        sel[WEXACT] = 1 if top <= 2**53 else 0
        gl1 = (
            row_norms[0]
            if row_norms is not None
            else np.abs(X).sum(axis=1) * (1.0 + (d + 2) * 2.0**-52)
        )
    else:
        W = np.zeros(1, dtype=np.int64)
        Wf = np.asarray(w0, dtype=np.float64).copy()
        with np.errstate(over="ignore"):
            gl1 = (
                row_norms[0]
                if row_norms is not None
                else np.abs(X).sum(axis=1) * (1.0 + (d + 2) * 2.0**-52)
            )
    return W, Wf, gl1


def _same_kinds(old: tuple[Any, ...], new: tuple[Any, ...]) -> bool:
    """Whether ``new`` has the argument types of ``old`` for the loops' index: the same
    array objects, scalars of the same type (integers both within int64 or both not)."""
    if len(old) != len(new):
        return False
    for a, b in zip(old, new, strict=True):
        if a is b:
            continue
        if type(a) is not type(b) or isinstance(a, np.ndarray):
            return False
        if type(a) is int and ((-(2**63) <= a < 2**63) != (-(2**63) <= b < 2**63)):
            return False
    return True


#: The per-point arrays of a state, taken from :mod:`.scratch` (zeroed).
_SCRATCH = ("stamp", "perm", "mask", "zval", "zk", "fval", "ferr", "fk", "fv")


@dataclass
class State:
    """Every array :func:`advance` reads and writes, for one run."""

    X: np.ndarray
    yl: np.ndarray
    mode: int
    rule: int
    seed: np.uint64
    mult: np.ndarray
    cf: np.ndarray
    inc_rel: float
    xrel: float
    T_i: int
    T_f: float
    T_err: float
    strict: np.ndarray
    gl1: np.ndarray
    xmax: np.ndarray
    W: np.ndarray
    Wf: np.ndarray
    E: np.ndarray
    sel: np.ndarray
    hs: np.ndarray
    stamp: np.ndarray
    perm: np.ndarray
    mask: np.ndarray
    zval: np.ndarray
    zk: np.ndarray
    fval: np.ndarray
    ferr: np.ndarray
    fk: np.ndarray
    fv: np.ndarray
    tmp: np.ndarray
    hr: np.ndarray
    hres: np.ndarray
    htab_k: np.ndarray
    htab_v: np.ndarray
    out_j: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    out_v: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    _last: Any = field(default=None, repr=False, compare=False)  # (args, the loop they ran)

    @property
    def k(self) -> int:
        return int(self.sel[K])

    @staticmethod
    def start(
        X: np.ndarray,
        yl: np.ndarray,
        *,
        mode: int,
        rule: int,
        seed: int,
        w0: np.ndarray,
        mult: np.ndarray | None = None,
        cf: np.ndarray | None = None,
        inc_rel: float = 0.0,
        xrel: float = 0.0,
        T_i: int = 0,
        T_f: float = 0.0,
        T_err: float = 0.0,
        strict: np.ndarray | None = None,
        E0: np.ndarray | None = None,
        hash_capacity: int = 0,
        hres: np.ndarray | None = None,
        row_norms: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> State:
        """A fresh state at the start weights ``w0`` (int64 for ``GRID``, float64 else)."""
        n, d = X.shape
        sel = np.zeros(SEL_SIZE, dtype=np.int64)
        sel[PICK] = -1
        sel[NEED_I] = -1
        sel[HIT_K] = -1
        W, Wf, gl1 = _start_weights(X, mode, w0, row_norms, sel)
        hr = _multipliers(d)
        cap = 1024 if hash_capacity else 1
        sel[HASHING] = 1 if hash_capacity else 0
        sel[HSHIFT] = -1
        return State(
            X=X,
            yl=yl,
            mode=mode,
            rule=rule,
            seed=np.uint64(seed & ((1 << 64) - 1)),
            mult=mult if mult is not None else np.ones(n, dtype=np.int64),
            cf=cf if cf is not None else np.ones(n),
            inc_rel=inc_rel,
            xrel=xrel,
            T_i=T_i,
            T_f=T_f,
            T_err=T_err,
            strict=strict if strict is not None else np.zeros(n, dtype=np.int8),
            gl1=gl1,
            xmax=row_norms[1] if row_norms is not None else np.abs(X).max(axis=1),
            W=W,
            Wf=Wf,
            E=np.zeros(d) if E0 is None else E0.copy(),
            sel=sel,
            hs=np.zeros(1, dtype=np.int64),
            stamp=zeroed(n, np.int64),  # (scratch memory: release() gives it back)
            perm=zeroed(n, np.int64),
            mask=zeroed(n, np.int8),
            zval=zeroed(n, np.int64),
            zk=zeroed(n, np.int64),
            fval=zeroed(n, np.float64),
            ferr=zeroed(n, np.float64),
            fk=zeroed(n, np.int64),
            fv=zeroed(n, np.int8),
            tmp=np.zeros(d),
            hr=hr,
            hres=hres if hres is not None else np.zeros(1, dtype=np.int64),
            htab_k=np.zeros(cap, dtype=np.int64),
            htab_v=np.full(cap, -1, dtype=np.int64),
        )

    def loop(self, args: tuple[Any, ...]) -> Callable[..., Any]:
        """The compiled :func:`advance` for ``args`` (:meth:`args`), looked up once a run:
        again only when an argument is another array object, or a scalar of another
        kind, than in the last call -- a run that asks a chooser at every update calls
        the loop thousands of times with the same arrays.

        >>> X = np.array([[1, 0], [0, 1]], dtype=np.int64)
        >>> st = State.start(X, np.array([1, -1]), mode=GRID, rule=1, seed=0,
        ...                  w0=np.zeros(2, dtype=np.int64))
        >>> a = st.args(max_updates=4, max_visits=10)
        >>> st.loop(a) is st.loop(st.args(max_updates=4, max_visits=10))
        True
        """
        last = self._last
        if last is not None and _same_kinds(last[0], args):
            fn: Callable[..., Any] = last[1]
        else:
            fn = resolved(advance, args)
        self._last = (args, fn)  # (held: an array of the last call is not collected)
        return fn

    def release(self) -> None:
        """Give back the run's scratch arrays (:mod:`.scratch`): the state is not used
        again."""
        for name in (*_SCRATCH, "hres", "strict", "htab_k", "htab_v", "out_j", "out_v"):
            give(getattr(self, name))

    def args(self, *, max_updates: int, max_visits: int) -> tuple[Any, ...]:
        """The arguments of one :func:`advance` call (output buffers sized for the chunk:
        the loop writes each entry before it is read)."""
        if self.out_j.shape[0] < max_updates:
            size = max(max_updates, 1)
            give(self.out_j)
            give(self.out_v)
            self.out_j = take((size,), np.int64)
            self.out_v = take((size,), np.int64)
        return (
            self.X, self.yl, self.mode, self.rule, self.seed, self.mult, self.cf, self.inc_rel,
            self.xrel, self.T_i, self.T_f, self.T_err, self.strict, self.gl1, self.xmax, self.W,
            self.Wf, self.E, self.sel, self.hs, self.stamp, self.perm, self.mask, self.zval,
            self.zk, self.fval, self.ferr, self.fk, self.fv, self.tmp, self.hr, self.hres,
            self.htab_k, self.htab_v, self.out_j, self.out_v, max_updates, max_visits,
        )  # fmt: skip
