"""The driver: runs the compiled loop and decides, exactly, what it leaves undecided.

:func:`drive` prepares the arrays of one run (the data as the loop sees them, the
rule's integer scales), calls :func:`~pla_proof.engine.kernel.advance` and answers
each status it returns: a margin decided with Python integers, a chooser consulted,
a tie among the most violated points settled, an int64 overflow turned into the
exact float-filtered mode, a repeated weight vector checked as a Gordan certificate,
a chunk of updates handed to the monitor.  The result is the run's decisions -- the
same as the plain ``Fraction`` loop of :mod:`pla_proof.engine.pyloop` makes (tested
update for update).

>>> from pla_proof.data import load
>>> dec = drive(load("orthonormal:3"), CLASSIC, order="cyclic")
>>> dec.status, dec.choices.tolist(), dec.w
('converged', [0, 1, 2], (Fraction(1, 1), Fraction(-1, 1), Fraction(1, 1)))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..data import Dataset
from ..errors import InputError
from . import kernel as kn
from .certificate import Certificate
from .orders import CHOOSE, RULES, Chooser, rule_code
from .rule import CLASSIC, LinearRule, Scales
from .scratch import give, take
from .shuffle import splitmix_values
from .world import World, approx

__all__ = ["Decisions", "World", "drive", "prepare"]

#: Called with (first update index (0-based), points updated on, visit numbers) after
#: every chunk; returns the number of updates to keep when the run must stop (a
#: violation), else None.
ChunkHook = Callable[[int, np.ndarray, np.ndarray], int | None]

_INT64_SAFE = 2**61

#: The chunks handed to the monitor: measuring and checking one has a fixed cost (about
#: a millisecond, measured on 5,000 x 20 floats) besides one per coordinate update, so
#: the first chunk holds ``CHUNK_ENTRIES`` coordinate updates (``CHUNK_MIN`` updates at
#: least), each next one twice as many, up to ``CHUNK_ENTRIES_MAX`` (memory).
CHUNK_MIN, CHUNK_ENTRIES, CHUNK_ENTRIES_MAX = 2048, 1 << 17, 1 << 22


@dataclass
class Decisions:
    """What a run decided: the points updated on, in order, and how it ended.

    ``status``: ``converged``, ``budget_exhausted``, ``not_separable`` (with a verified
    ``certificate``), ``epochs_exhausted`` (a visit cap, for variants that make
    passes) or ``stopped`` (the chunk hook asked to stop).  ``w`` is exact: the exact
    weights, or in float mode the exact values of the float weights.
    """

    status: str
    choices: np.ndarray
    visits: np.ndarray
    w: tuple[Fraction, ...]
    world: World
    certificate: Certificate | None = None
    exact_fallbacks: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def updates(self) -> int:
        return int(self.choices.shape[0])


class BeyondFloatRange(InputError):
    """Exact mode on data whose numbers (or whose weights) leave float64's range: the
    compiled loop's float filter cannot decide there, so the run belongs on the exact
    per-step path (:func:`pla_proof.engine.pyloop.loop`); the trainer reruns it there."""


def prepare(data: Dataset, rule: LinearRule = CLASSIC, mode: str = "exact") -> World:
    """The arrays a run of ``rule`` on ``data`` starts from (what :func:`drive` builds;
    pass it as ``drive(..., world=)`` to measure the run's chunks against the same
    arrays).

    >>> from pla_proof.data import load
    >>> prepare(load("orthonormal:2")).mode
    'exact'
    """
    if mode not in ("exact", "float"):
        raise InputError(f"mode must be 'exact' or 'float', got {mode!r}")
    return _world(data, rule, mode)


def _world(data: Dataset, rule: LinearRule, mode: str) -> World:
    n, d = data.n, data.d
    if mode == "float":  # (the float data's own exact integers: World.float_data)
        if data.kind == "grid" and data.scale == 1:
            X = data.compact  # integers: the float data are the same numbers
        else:
            X, _ = data.as_float()
        return World(data, rule, mode, kn.FLOAT, Scales.of(rule, s=1, n=n, d=d), X, 0.0)
    s = data.integer_scale
    sc = Scales.of(rule, s=s, n=n, d=d)
    fits = (
        data.kind == "grid"
        and sc.mult_max < _INT64_SAFE
        and max((abs(v) for v in sc.V0), default=0) < _INT64_SAFE
        and abs(sc.T) < _INT64_SAFE
    )
    if fits:
        return World(data, rule, mode, kn.GRID, sc, data.compact, 0.0)
    return _float_exact_world(data, rule, sc)


def _float_exact_world(data: Dataset, rule: LinearRule, sc: Scales) -> World:
    if data.kind == "float":
        return World(data, rule, "exact", kn.FLOAT_EXACT, sc, data.values, 0.0)
    X = np.empty(data.values.shape)
    exact = True
    for idx, v in np.ndenumerate(data.values):
        f, e = approx(Fraction(int(v), data.scale))
        X[idx] = f
        exact = exact and e == 0.0
    return World(data, rule, "exact", kn.FLOAT_EXACT, sc, X, 0.0 if exact else 2.0**-52)


def _state(
    world: World, rule_code_: int, seed: int, hash_capacity: int, budget: int = 10_000
) -> kn.State:
    data, rule, sc = world.data, world.rule, world.scales
    n, d = data.n, data.d
    if isinstance(rule.strict, bool):  # (scratch, as the state's other arrays)
        strict = take((n,), np.int8)
        strict[:] = int(rule.strict)
    else:
        strict = np.array(rule.strict_flags(n), dtype=np.int8)
    if world.kernel_mode == kn.GRID:
        return kn.State.start(
            world.X,
            data.labels,
            mode=kn.GRID,
            rule=rule_code_,
            seed=seed,
            w0=np.array(sc.V0, dtype=np.int64),
            mult=(
                np.full(n, sc.uniform, dtype=np.int64)
                if sc.uniform is not None
                else np.array(sc.mult, dtype=np.int64)
            ),
            T_i=sc.T,
            strict=strict,
            hash_capacity=hash_capacity,
            row_norms=world.row_norms,
        )
    cf, cf_err = world.float_factors
    w0 = np.empty(d)
    E0 = np.zeros(d)
    for c, v in enumerate(rule.start(d)):
        w0[c], E0[c] = approx(v)
    T_f, T_err = approx(rule.tau)
    hres = None
    in_loop = (
        world.kernel_mode == kn.FLOAT_EXACT
        and data.kind == "float"
        and (sc.uniform == 1 or (sc.uniform is None and all(m == 1 for m in sc.mult)))
        and not any(sc.V0)
    )
    if world.kernel_mode == kn.FLOAT_EXACT and hash_capacity and not in_loop:
        hres = _residues(world)
        if hres is None:
            hash_capacity = 0
    elif in_loop and hash_capacity:  # each point's term, made by the loop when first needed
        hres = take((n,), np.int64)
        hres[:] = -1
    st = kn.State.start(
        world.X,
        data.labels,
        mode=world.kernel_mode,
        rule=rule_code_,
        seed=seed,
        w0=w0,
        cf=cf,
        inc_rel=cf_err + world.xrel,
        xrel=world.xrel,
        T_f=T_f,
        T_err=T_err,
        strict=strict,
        E0=E0,
        hash_capacity=hash_capacity,
        hres=hres,
        row_norms=world.row_norms,
    )
    if in_loop:  # the exact weights' hash and limbs kept in the loop (float data)
        shift = sc.s.bit_length() - 1
        st.sel[kn.HSHIFT] = shift
        # max |x_c| over the data: the largest of each row's (the same floats, kept)
        top = math.frexp(float(world.row_norms[1].max()))[1] if world.X.size else 0
        bits = top + shift + max(budget, 1).bit_length() + 2
        L = bits // 62 + 1
        if L <= 64:
            st.W = np.zeros(d * L, dtype=np.int64)
            st.sel[kn.LIMBS] = L
    return st


_RESIDUE_LIMIT = 4_000_000
_P61 = (1 << 61) - 1


def _residues(world: World) -> np.ndarray | None:
    """Each point's contribution to the exact weights' hash ``sum_c V_c r_c mod 2^61 - 1``
    (a linear hash: an update adds ``y_j h_j``), for exact cycle detection on float data."""
    data = world.data
    if data.n * data.d > _RESIDUE_LIMIT:
        return None
    r = [1 + v % (_P61 - 1) for v in splitmix_values(0x5EED, data.d)]
    out = np.empty(data.n, dtype=np.int64)
    mult = world.scales.mult
    for i in range(data.n):
        out[i] = sum(z * rc for z, rc in zip(data.integer_row(i), r, strict=True)) * mult[i] % _P61
    return out


def drive(
    data: Dataset,
    rule: LinearRule = CLASSIC,
    *,
    order: str | Chooser = "cyclic",
    seed: int = 0,
    budget: int = 10_000,
    mode: str = "exact",
    on_chunk: ChunkHook | None = None,
    detect_cycles: bool = True,
    max_epochs: int | None = None,
    sample: bool = False,
    world: World | None = None,
) -> Decisions:
    """Run ``rule`` on ``data`` in the order ``order`` (a rule name or a chooser) until
    it converges, makes ``budget`` updates, finds a certificate, or ``on_chunk`` stops it.

    ``sample``: visit uniformly random points with replacement (the pocket algorithm's
    picks) instead of ``rule_name``; ``max_epochs``: at most that many visits per point.
    """
    if mode not in ("exact", "float"):
        raise InputError(f"mode must be 'exact' or 'float', got {mode!r}")
    if isinstance(order, str) and order not in RULES:
        raise InputError(f"unknown rule {order!r} (choose {', '.join(RULES)})")
    code = kn.SAMPLE if sample else rule_code(order)
    if world is None:
        world = _world(data, rule, mode)
    top = max(256, CHUNK_ENTRIES_MAX // max(data.d, 1))
    first = min(max(CHUNK_MIN, CHUNK_ENTRIES // max(data.d, 1)), top)
    run = _Run(
        world=world,
        st=_state(world, code, seed, 1 if detect_cycles else 0, budget),
        code=code,
        seed=seed,
        budget=budget,
        max_visits=(max_epochs * data.n) if max_epochs is not None else np.iinfo(np.int64).max,
        chooser=order if callable(order) else None,
        on_chunk=on_chunk,
        chunk=first if on_chunk is not None else 1 << 20,
        top=top,
    )
    try:
        while True:
            status_code = run.advance()
            ending = status_code in (kn.CONVERGED, kn.VISITS, kn.CYCLE) or (
                status_code == kn.CHUNK and run.st.k >= budget
            )
            if (ending or run.start_k - run.checked >= run.chunk) and run.flush():
                break
            if run.answer(status_code):
                break
        return run.decisions()
    finally:  # the state's arrays were scratch memory: they end with the run
        run.st.release()


@dataclass
class _Run:
    """One run between the loop's calls: the loop's state, the updates collected so
    far (in chunks), and what the driver decided."""

    world: World
    st: kn.State
    code: int
    seed: int
    budget: int
    max_visits: int
    chooser: Chooser | None
    on_chunk: ChunkHook | None
    chunk: int  # updates per call of the loop (and per chunk handed to on_chunk)
    top: int  # the largest chunk
    chunks: list[np.ndarray] = field(default_factory=list)
    vchunks: list[np.ndarray] = field(default_factory=list)
    start_k: int = 0  # updates already collected into chunks
    checked: int = 0  # updates already handed to on_chunk
    fallbacks: int = 0
    status: str = ""
    certificate: Certificate | None = None

    def advance(self) -> int:
        """One call of the compiled loop; collects the updates it made; its status."""
        st = self.st
        room = self.budget - st.k
        args = st.args(max_updates=min(self.chunk, room), max_visits=self.max_visits)
        status_code = int(st.loop(args)(*args))
        new = st.k - self.start_k
        if new:
            self.chunks.append(st.out_j[:new].copy())
            self.vchunks.append(st.out_v[:new].copy())
            self.start_k = st.k
        return status_code

    def flush(self) -> bool:
        """Hand the unchecked updates to ``on_chunk``; True when it asks to stop."""
        if self.on_chunk is None or self.checked == self.start_k:
            self.checked = self.start_k
            return False
        js = _all_choices(self.chunks)[self.checked : self.start_k]
        vs = np.concatenate(self.vchunks)[self.checked : self.start_k]
        limbs = _from_limbs(self.st)
        if limbs is not None:  # the exact weights at the chunk's end
            self.world.handed_over(limbs, self.start_k)
        keep = self.on_chunk(self.checked, js, vs)
        self.checked = self.start_k
        self.chunk = min(self.chunk * 2, self.top)
        if keep is not None:
            _truncate(self.chunks, self.vchunks, keep)
            self.status = "stopped"
            return True
        return False

    def answer(self, status_code: int) -> bool:
        """Answer the loop's status; True when the run has ended."""
        st = self.st
        if status_code == kn.CONVERGED:
            self.status = "converged"
            return True
        if status_code == kn.VISITS:
            self.status = "epochs_exhausted"
            return True
        if status_code == kn.CHUNK:
            if st.k >= self.budget:
                self.status = "budget_exhausted"
                return True
            return False
        if status_code == kn.NEED_EXACT:
            self.fallbacks += 1
            _decide_exactly(self.world, st, self.chunks, int(st.sel[kn.NEED_I]))
        elif status_code == kn.NEED_ARGMIN:
            self.fallbacks += 1
            st.sel[kn.PICK] = _argmin_exactly(self.world, st, self.chunks)
        elif status_code == kn.CHOOSE_NOW:
            st.sel[kn.PICK] = self._choose()
        elif status_code == kn.OVERFLOW:
            self._overflow()
        elif status_code == kn.GROW:
            self._grow()
        elif status_code == kn.CYCLE:
            return self._cycle()
        else:
            raise AssertionError(f"unknown status {status_code}")  # pragma: no cover
        return False

    def _choose(self) -> int:
        """The chooser's pick among the violators."""
        st = self.st
        assert self.chooser is not None and self.code == CHOOSE
        violators = [int(i) for i in np.flatnonzero(st.mask)]
        j = self.chooser(violators, st.k + 1)
        if j not in violators:
            raise ValueError(f"chooser returned {j!r}, which is not a violator {violators}")
        return int(j)

    def _overflow(self) -> None:
        """The weights overflow the loop's numbers: an error in float arithmetic, else
        the run continues in the exact float-filtered mode."""
        world, st = self.world, self.st
        if world.kernel_mode == kn.FLOAT:
            raise InputError(
                f"float mode: the weights overflow float64 at update {st.k + 1}; use exact mode"
            )
        if world.kernel_mode == kn.FLOAT_EXACT:
            raise BeyondFloatRange(
                f"exact mode: the weights leave float64's range at update {st.k + 1}, "
                "where the compiled loop's filter cannot decide"
            )
        self.world, self.st = _leave_grid(world, st, self.chunks, self.code, self.seed)

    def _grow(self) -> None:
        """The hash table of visited weights is half full: four times the room (a long
        run grows it half as often; the table stays a power of two within ``MAX_TABLE``)."""
        st = self.st
        cap = min(4 * st.htab_k.shape[0], kn.MAX_TABLE)
        new_k, new_v = take((cap,), np.int64), take((cap,), np.int64)  # (scratch: drive())
        new_k[:] = 0
        new_v[:] = -1
        kn.rehash(st.htab_k, st.htab_v, new_k, new_v, st.sel)
        give(st.htab_k)
        give(st.htab_v)
        st.htab_k, st.htab_v = new_k, new_v

    def _cycle(self) -> bool:
        """The weights hash as an earlier visit's: True when the updates between are a
        verified certificate (the run has ended), else the visit is remembered too."""
        world, st = self.world, self.st
        h = int(st.hs[0])
        if world.kernel_mode == kn.FLOAT:  # float weights: the visit they repeat
            earlier = [int(st.sel[kn.HIT_K])]
        else:  # exact weights: every visit stored under this hash
            earlier = sorted(int(v) for v in kn.visits_under(st.htab_k, st.htab_v, h))
        for k0 in earlier:
            cert = _cycle_certificate(world, self.chunks, k0, st.k)
            if cert is not None:
                self.certificate = cert
                self.status = "not_separable"
                return True
        # a hash collision (or float weights that repeat without a certificate): this
        # visit is stored too, so a later true repeat of it is still found
        kn.remember_also(st.htab_k, st.htab_v, h, st.k, st.sel)
        return False

    def decisions(self) -> Decisions:
        """What the run decided."""
        world = self.world
        choices = np.concatenate(self.chunks) if self.chunks else np.zeros(0, dtype=np.int64)
        visits = np.concatenate(self.vchunks) if self.vchunks else np.zeros(0, dtype=np.int64)
        if self.status == "stopped":
            w = _weights_after(world, choices)
        else:
            w = _final_weights(world, self.st, choices)
        return Decisions(self.status, choices, visits, w, world, self.certificate, self.fallbacks)


def _truncate(chunks: list[np.ndarray], vchunks: list[np.ndarray], keep: int) -> None:
    total = 0
    for idx, c in enumerate(chunks):
        if total + c.shape[0] >= keep:
            chunks[idx] = c[: keep - total]
            vchunks[idx] = vchunks[idx][: keep - total]
            del chunks[idx + 1 :]
            del vchunks[idx + 1 :]
            return
        total += c.shape[0]


def _all_choices(chunks: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)


def _current_weights(world: World, st: kn.State, chunks: list[np.ndarray]) -> list[int] | None:
    """Exact ``V`` now (None in float mode, where the float weights are exact values)."""
    if world.mode == "float":
        return None
    if world.kernel_mode == kn.GRID:
        return [int(v) for v in st.W]
    limbs = _from_limbs(st)
    if limbs is not None:
        return limbs
    return world.exact_weights(_all_choices(chunks), st.k)


def _from_limbs(st: kn.State) -> list[int] | None:
    """The exact weights the loop keeps in limbs (float data), or None."""
    L = int(st.sel[kn.LIMBS])
    if st.mode != kn.FLOAT_EXACT or L == 0:
        return None
    out = []
    for c in range(st.Wf.shape[0]):
        v = 0
        for k in range(L - 1, -1, -1):
            v = (v << 62) + int(st.W[c * L + k])
        out.append(v)
    return out


def _float_margin_exactly(world: World, st: kn.State, i: int) -> Fraction:
    """``y_i w.x_i - tau`` for the current float weights, exactly."""
    x = world.X[i]
    w = st.Wf
    dot = sum(
        (Fraction(float(a)) * Fraction(float(b)) for a, b in zip(x, w, strict=True)), Fraction(0)
    )
    return int(world.data.labels[i]) * dot - world.rule.tau


def _exact_margin(world: World, st: kn.State, chunks: list[np.ndarray], i: int) -> Fraction:
    V = _current_weights(world, st, chunks)
    if V is None:
        return _float_margin_exactly(world, st, i)
    return Fraction(world.exact_margin(V, i))


def _decide_exactly(world: World, st: kn.State, chunks: list[np.ndarray], i: int) -> None:
    z = _exact_margin(world, st, chunks, i)
    strict = world.rule.strict_flags(world.data.n)[i]
    st.fk[i] = st.k + 1
    st.fv[i] = 1 if (z < 0 if strict else z <= 0) else 0


def _argmin_exactly(world: World, st: kn.State, chunks: list[np.ndarray]) -> int:
    cands = [int(i) for i in np.flatnonzero(st.mask)]
    margins = [(_exact_margin(world, st, chunks, i), i) for i in cands]
    return min(margins)[1]


def _leave_grid(
    world: World, st: kn.State, chunks: list[np.ndarray], code: int, seed: int
) -> tuple[World, kn.State]:
    """int64 would overflow: continue in the exact float-filtered mode from here."""
    V = [int(v) for v in st.W]
    new_world = _float_exact_world(world.data, world.rule, world.scales)
    new_world._V = V
    new_world._synced = st.k
    new = _state(new_world, code, seed, 0)
    S = world.scales.S
    for c, v in enumerate(V):
        new.Wf[c], new.E[c] = approx(Fraction(v, S))
    for name in ("sel", "stamp", "perm", "fk", "fv"):
        getattr(new, name)[...] = getattr(st, name)
    # (the pending update, sel[PICK], is made in the new mode)
    new.sel[kn.HASHING] = 0
    if st.sel[kn.HASHING] == 1:
        hres = _residues(new_world)
        if hres is not None:  # the weights visited so far, under the new mode's hash
            new = _with_hash_table(
                new, hres, _all_choices(chunks), world.data.labels, st.htab_k.shape[0]
            )
    return new_world, new


def _with_hash_table(
    st: kn.State, hres: np.ndarray, choices: np.ndarray, y: np.ndarray, cap: int
) -> kn.State:
    """``st`` hashing its weights with ``hres``, its table holding every earlier state."""
    st.hres = hres
    st.htab_k = np.zeros(cap, dtype=np.int64)
    st.htab_v = np.full(cap, -1, dtype=np.int64)
    h = 0
    for k, j in enumerate(choices.tolist(), 1):
        r = int(hres[j])
        h = (h + (r if y[j] > 0 else _P61 - r)) % _P61
        kn._remember(st.htab_k, st.htab_v, h, k, st.sel)
    st.hs[0] = h
    st.sel[kn.HASHING] = 1
    return st


def _cycle_certificate(
    world: World, chunks: list[np.ndarray], k0: int, k1: int
) -> Certificate | None:
    """The updates between two visits of (what hashes as) the same weights: a Gordan
    certificate when their weighted sum is exactly 0."""
    choices = _all_choices(chunks)[k0:k1]
    counts = np.bincount(choices, minlength=world.data.n)
    alpha = tuple(
        Fraction(int(c)) * world.rule.factor(i) if c else Fraction(0) for i, c in enumerate(counts)
    )
    cert = Certificate(alpha, "cycle")
    target = world.float_data
    return cert if cert.verify(target) else None


def _weights_after(world: World, choices: np.ndarray) -> tuple[Fraction, ...]:
    """The weights after ``choices`` (exact; in float mode the float weights' values)."""
    if world.mode == "float":
        from .measure import replay_float

        d, K = world.data.d, int(choices.shape[0])
        W = np.empty((max(K, 1), d))
        E = np.empty((max(K, 1), d))
        cf = np.array([float(world.rule.factor(i)) for i in range(world.data.n)])
        w0 = np.array([float(v) for v in world.rule.start(d)])
        replay_float(
            world.X, world.data.labels, cf, 0.0, choices.astype(np.int64), w0, np.zeros(d), W, E
        )
        return tuple(Fraction(float(v)) for v in (W[K - 1] if K else w0))
    S = world.scales.S
    return tuple(Fraction(v, S) for v in world.exact_weights(choices, int(choices.shape[0])))


def _final_weights(world: World, st: kn.State, choices: np.ndarray) -> tuple[Fraction, ...]:
    if world.mode == "float":
        return tuple(Fraction(float(v)) for v in st.Wf)
    S = world.scales.S
    if world.kernel_mode == kn.GRID:
        return tuple(Fraction(int(v), S) for v in st.W)
    limbs = _from_limbs(st)
    V = limbs if limbs is not None else world.exact_weights(choices, int(choices.shape[0]))
    return tuple(Fraction(v, S) for v in V)
