"""The instrumented trainer: the Perceptron exactly as Kalyanakrishnan's note states it,
checked as it runs.

    w_1 = 0; while some i has y_i (w . x_i) <= 0: pick such a j; w <- w + y_j x_j.

:func:`train` runs it on the engine (:mod:`pla_proof.engine`) -- the same loop every
variant runs on -- with a selection rule (``first``, ``cyclic``, ``random``,
``maxviol``) or a caller's chooser, and checks every run-time lemma of the proof at
every update (:mod:`pla_proof.monitor`).  A run always ends in an outcome:
``converged`` (the returned w verified to separate), ``not_separable`` (a verified
Gordan certificate), ``budget_exhausted`` or ``violation`` (the lemma, the update,
both sides' values and the order that replays it).

>>> from pla_proof.data import load
>>> run = train(load("orthonormal:4"), rule="maxviol")
>>> run.status, run.updates, run.bound
('converged', 4, Fraction(4, 1))
>>> train(load("xor")).status
'not_separable'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from .data import Dataset
from .engine.certificate import Certificate
from .engine.enclosures import Interval
from .engine.exact import Exact
from .engine.orders import RULES, Chooser
from .engine.rule import CLASSIC
from .errors import InputError
from .monitor.core import (
    Comparator,
    Finding,
    Monitor,
    Step,
    Violation,
    make_comparator,
    step_values,
)
from .proof.runtime import END_LEMMAS, RUNTIME_LEMMAS
from .views import notebook_html

if TYPE_CHECKING:
    from .engine.drive import Decisions, World
    from .engine.pyloop import LinearProblem
    from .proof.runtime import RunLemma
    from .proof.statements import Lemma

# The engine (numba) is imported on the first run, so that ``import pla_proof`` stays light.

__all__ = [
    "DEFAULT_BUDGET",
    "RULES",
    "STATUSES",
    "Certificate",
    "Chooser",
    "Run",
    "train",
]

#: ``undecided``: float mode converged but some enclosure was not finite (overflow), so
#: the guard could not decide a statement there (``Run.undecided`` says which).
STATUSES = ("converged", "budget_exhausted", "violation", "not_separable", "undecided")
DEFAULT_BUDGET = 10_000

#: An update rule maps (w, x, y) to the new w (for testing broken variants).
UpdateRule = Callable[[Sequence[Any], Sequence[Any], int], Sequence[Any]]

_U = 2.0**-53


class Steps(Sequence[Step]):
    """The per-update measurements of a run, made into :class:`Step` objects on access."""

    def __init__(self, run: Run) -> None:
        self._run = run

    def __len__(self) -> int:
        return self._run.updates if self._run._chunks else 0

    @overload
    def __getitem__(self, i: int) -> Step: ...
    @overload
    def __getitem__(self, i: slice) -> list[Step]: ...
    def __getitem__(self, i: int | slice) -> Step | list[Step]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("step index out of range")
        for k0, measures in self._run._chunks:
            K = len(
                np.atleast_1d(
                    measures["k"].A if isinstance(measures["k"], Exact) else measures["k"].lo
                )
            )
            if k0 <= i < k0 + K:
                vals = step_values(measures, self._run._constants, i - k0, self._run.mode)
                return Step(i + 1, int(self._run.choice_array[i]), vals)
        raise IndexError(i)  # pragma: no cover

    def __iter__(self) -> Iterator[Step]:
        for i in range(len(self)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"<{len(self)} steps>"


@dataclass
class Run:
    """The record of one monitored run.

    ``choice_array`` holds the points updated on (0-based) as an int64 array;
    ``choices`` is the same as a list.  ``steps`` gives each update's measurements
    (made on access).  ``undecided`` lists ``(lemma, k)`` where float mode's enclosures
    were not finite, so the guard could not decide.
    """

    status: str
    w: tuple[Fraction, ...]
    updates: int
    choice_array: np.ndarray
    comparator: Comparator | None
    violation: Violation | None = None
    certificate: Certificate | None = None
    rule: str = "cyclic"
    seed: int = 0
    mode: str = "exact"
    budget: int = DEFAULT_BUDGET
    data_name: str = ""
    max_missed: float = 0.0
    notes: list[str] = field(default_factory=list)
    data: Dataset | None = field(default=None, repr=False, compare=False)
    visits: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    undecided: list[tuple[str, int]] = field(default_factory=list)
    exact_fallbacks: int = 0
    _chunks: list[tuple[int, Mapping[str, Any]]] = field(default_factory=list, repr=False)
    _constants: dict[str, Fraction] = field(default_factory=dict, repr=False)
    _world: World | None = field(default=None, repr=False, compare=False)

    @cached_property
    def choices(self) -> list[int]:
        """The points updated on, in order (0-based)."""
        return [int(v) for v in self.choice_array]

    @cached_property
    def alpha(self) -> list[int]:
        """How many updates each point received (the dual form's counts)."""
        n = self.data.n if self.data is not None else int(self.choice_array.max(initial=-1)) + 1
        return [int(c) for c in np.bincount(self.choice_array, minlength=n)]

    @property
    def steps(self) -> Steps:
        return Steps(self)

    def _repr_html_(self) -> str:
        """A notebook shows the run as the lecture page's stepper (the page, in an iframe;
        the view the package sets in :mod:`pla_proof.views`)."""
        return notebook_html(self)

    @property
    def bound(self) -> Fraction | None:
        """R^2/gamma^2 for the comparator the run was checked against."""
        return self.comparator.bound if self.comparator is not None else None

    @property
    def ok(self) -> bool:
        return self.status == "converged"

    def w_after(self, k: int) -> tuple[Fraction, ...]:
        """The weights after ``k`` updates (``w_after(0)`` is the start, 0), exactly (in
        float mode: the exact values of the float weights).

        >>> from pla_proof.data import load
        >>> run = train(load("orthonormal:3"), comparator=None)
        >>> run.w_after(2)
        (Fraction(1, 1), Fraction(-1, 1), Fraction(0, 1))
        """
        if self.data is None or self._world is None:
            raise ValueError("this run record does not carry its data")
        if not 0 <= k <= self.updates:
            raise ValueError(f"k must be in 0..{self.updates}, got {k}")
        from .engine.measure import last_weights

        world = self._world
        if world.mode == "float":
            W, _ = _float_path(world, self.choice_array[:k])
            return tuple(Fraction(float(v)) for v in (W[-1] if k else _float_start(world)[0]))
        V = last_weights(world, self.choice_array[:k], world.scales.V0)
        S = world.scales.S
        return tuple(Fraction(v, S) for v in V)

    def w_path(self) -> list[tuple[Fraction, ...]]:
        """Every weight vector of the run: ``w_path()[k] == w_after(k)``, in one pass.

        >>> from pla_proof.data import load
        >>> run = train(load("orthonormal:3"), comparator=None)
        >>> run.w_path()[2] == run.w_after(2)
        True
        """
        if self.data is None or self._world is None:
            raise ValueError("this run record does not carry its data")
        world = self._world
        if world.mode == "float":
            W, _ = _float_path(world, self.choice_array)
            start = tuple(Fraction(float(v)) for v in _float_start(world)[0])
            return [start, *(tuple(Fraction(float(v)) for v in row) for row in W)]
        sc, y = world.scales, world.data.labels
        V = [int(v) for v in sc.V0]
        out = [tuple(Fraction(v, sc.S) for v in V)]
        for j in self.choice_array.tolist():
            m = sc.mult[j] * int(y[j])
            for c, z in enumerate(world.row(j)):
                if z:
                    V[c] += m * z
            out.append(tuple(Fraction(v, sc.S) for v in V))
        return out


# --- the run ----------------------------------------------------------------------------------


def _lemma_constants(comp: Comparator) -> dict[str, Fraction]:
    return {"g": comp.gamma, "R2": comp.radius_squared, "uu": comp.uu}


def _float_start(world: World) -> tuple[np.ndarray, np.ndarray]:
    d = world.data.d
    return np.zeros(d), np.zeros(d)


def _float_path(world: World, choices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The float weights and drift bounds after each of ``choices`` (from the start)."""
    from .engine.measure import replay_float_from

    W0, E0 = _float_start(world)
    return replay_float_from(world, W0, E0, choices)


class _Checker:
    """Asks the monitor about each measured chunk of a run (the measuring is the one
    every monitored run shares: :class:`~pla_proof.engine.chunks.Chunks`); keeps what
    the record needs."""

    def __init__(
        self,
        world: World,
        comp: Comparator | None,
        lemmas: Sequence[Lemma | RunLemma],
        keep: bool,
    ) -> None:
        self.world = world
        self.comp = comp
        self.keep = keep
        self.chunks: list[tuple[int, Mapping[str, Any]]] = []
        self.violation: Violation | None = None
        self.monitor: Monitor | None = None
        self.constants: dict[str, Fraction] = {}
        if comp is not None:
            from .engine.chunks import Chunks

            self.constants = _constants_for(world, comp)
            self.monitor = Monitor(lemmas, self.constants, strict=comp.strict, mode=world.mode)
            self.measure = Chunks(world, comp.u, scratch=True)  # (judge() releases)

    def __call__(self, k0: int, choices: np.ndarray, visits: np.ndarray) -> int | None:
        if self.monitor is None:
            return None
        return self.judge(k0, self.measure(k0, choices), choices)

    def judge(self, k0: int, m: Mapping[str, Any], choices: np.ndarray) -> int | None:
        """Ask the monitor about measured updates ``k0 + 1 ..``; at the first violation
        record it and return the updates to keep (the violating one included)."""
        assert self.monitor is not None
        if self.keep:
            self.chunks.append((k0, m))
        try:
            return self._judged(k0, m, choices, self.monitor.first(m))
        finally:  # the chunk's tables were scratch memory (the record measures again)
            release = getattr(m, "release", None)
            if release is not None:
                release()

    def _judged(
        self, k0: int, m: Mapping[str, Any], choices: np.ndarray, found: Finding | None
    ) -> int | None:
        assert self.monitor is not None
        if found is None:
            return None
        vals = step_values(m, self.constants, found.index, self.world.mode)
        lem = found.lemma
        self.violation = Violation(
            lem.id,
            lem.title,
            str(lem.statement(strict=self.monitor.strict)),
            k0 + found.index + 1,
            int(choices[found.index]),
            found.lhs,
            found.op,
            found.rhs,
            vals,
        )
        return k0 + found.index + 1


def _constants_for(world: World, comp: Comparator) -> dict[str, Fraction]:
    """The run's constants; in float mode for the float data trained on (rounding the data
    can lower the margin and change the radius)."""
    if world.mode == "exact":
        return _lemma_constants(comp)
    fdata = world.float_data
    low, _ = fdata.min_margin(comp.u)
    g = min(comp.gamma, low) if low > 0 else comp.gamma
    return {"g": g, "R2": fdata.radius_squared, "uu": comp.uu}


def _resolve_comparator(
    data: Dataset, comparator: Comparator | Sequence[Any] | str | None, strict: bool, gamma: Any
) -> Comparator | None:
    if comparator is None or isinstance(comparator, str):
        if comparator not in (None, "final"):
            raise InputError(f"comparator must be a vector, 'final' or None, got {comparator!r}")
        return None
    if isinstance(comparator, Comparator):
        return comparator
    return make_comparator(data, comparator, strict=strict, gamma=gamma)


def train(
    data: Dataset,
    *,
    rule: str | Chooser = "cyclic",
    seed: int = 0,
    budget: int | None = None,
    comparator: Comparator | Sequence[Any] | str | None = "final",
    strict: bool = False,
    gamma: Any = None,
    mode: str = "exact",
    update: UpdateRule | None = None,
    trigger: Callable[[Any], bool] | None = None,
    detect_cycles: bool = True,
) -> Run:
    """Run the Perceptron on ``data`` and check every invariant of the proof.

    ``comparator``: a vector u, a :class:`Comparator`, ``"final"`` (check after the
    fact against the returned w, which separates if the run converged) or ``None``
    (no invariant checks, only the final separation).  ``update`` and ``trigger``
    replace the algorithm's update and test (on the margin ``y w.x``) -- only to show
    that the monitor catches broken variants; they run on the engine's per-step path.
    """
    if mode not in ("exact", "float"):
        raise InputError(f"mode must be 'exact' or 'float', got {mode!r}")
    if budget is None:
        budget = DEFAULT_BUDGET
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < 0:
        raise InputError(f"budget must be a non-negative integer, got {budget!r}")
    if isinstance(rule, str) and rule not in RULES:
        raise InputError(f"unknown rule {rule!r} (choose {', '.join(RULES)})")
    comp = _resolve_comparator(data, comparator, strict, gamma)
    if update is not None or trigger is not None:
        return _train_python(data, rule, seed, budget, comp, mode, update, trigger, detect_cycles)
    from .engine.pyloop import per_step_updates

    small = per_step_updates(data, mode)
    if small and callable(rule):  # a chooser is asked once per update either way: never twice
        small = budget
    if small:  # small data: the per-step path, unless the run turns out long
        again = (strict, gamma) if comparator == "final" else None
        run = _train_python(
            data, rule, seed, min(budget, small), comp, mode, None, None, detect_cycles, again
        )
        if run.status != "budget_exhausted" or small >= budget:
            run.budget = budget
            return run
    from .engine.drive import BeyondFloatRange, drive, prepare

    world = prepare(data, CLASSIC, mode)
    checker = _Checker(world, comp, RUNTIME_LEMMAS, keep=True)
    try:
        dec = drive(
            data,
            CLASSIC,
            order=rule,
            seed=seed,
            budget=budget,
            mode=mode,
            on_chunk=checker if comp is not None else None,
            detect_cycles=detect_cycles,
            world=world,
        )
    except BeyondFloatRange:  # numbers past 1e308: the exact per-step path decides
        again = (strict, gamma) if comparator == "final" else None
        return _train_python(data, rule, seed, budget, comp, mode, None, None, detect_cycles, again)
    run = _record(data, dec, comp, checker, rule, seed, mode, budget)
    if comparator == "final" and run.status == "converged" and run.updates > 0:
        final = make_comparator(data, run.w, strict=strict, gamma=gamma, source="final w")
        check = _Checker(dec.world, final, RUNTIME_LEMMAS, keep=True)
        keep = _check_all(check, dec)
        run = _record(data, dec, final, check, rule, seed, mode, budget, stop_at=keep)
    return run


def _check_all(check: _Checker, dec: Decisions) -> int | None:
    """Monitor a finished run's updates chunk by chunk (stop at the first violation)."""
    K = dec.updates
    size = max(256, (1 << 22) // max(dec.world.data.d, 1))
    for k0 in range(0, K, size):
        keep = check(k0, dec.choices[k0 : k0 + size], dec.visits[k0 : k0 + size])
        if keep is not None:
            return keep
    return None


def _record(
    data: Dataset,
    dec: Decisions,
    comp: Comparator | None,
    checker: _Checker,
    rule: str | Chooser,
    seed: int,
    mode: str,
    budget: int,
    stop_at: int | None = None,
) -> Run:
    choices, w = dec.choices, dec.w
    status = dec.status
    violation = checker.violation
    if stop_at is not None or status == "stopped":
        k = stop_at if stop_at is not None else int(choices.shape[0])
        choices = choices[:k]
        status = "violation"
    run = Run(
        status=status,
        w=w,
        updates=int(choices.shape[0]),
        choice_array=choices,
        comparator=comp,
        violation=violation,
        certificate=dec.certificate,
        rule=rule if isinstance(rule, str) else "chooser",
        seed=seed,
        mode=mode,
        budget=budget,
        data_name=data.name,
        max_missed=checker.monitor.max_missed if checker.monitor is not None else 0.0,
        data=data,
        visits=dec.visits[: int(choices.shape[0])],
        undecided=list(checker.monitor.undecided) if checker.monitor is not None else [],
        exact_fallbacks=dec.exact_fallbacks,
        _chunks=checker.chunks,
        _constants=checker.constants,
        _world=dec.world,
    )
    if status == "violation":
        run.w = run.w_after(run.updates)
        if run.violation is not None:
            run.violation.choices = run.choices
    if status == "converged":
        _check_separation(run)
    if run.status == "converged" and run.undecided:
        run.status = "undecided"
        lemma_id, k = run.undecided[0]
        run.notes.append(
            f"float mode cannot decide {lemma_id} at update k={k}: an enclosure is not finite "
            "(float64 overflow); rerun in exact mode"
        )
    return run


def _check_separation(run: Run) -> None:
    """SEP: the returned weights separate every point strictly (exact, on the data trained
    on: the float data in float mode)."""
    assert run.data is not None and run._world is not None
    low, j = run._world.float_data.min_margin(run.w)
    values: dict[str, Any] = {"m": low}
    for lem in END_LEMMAS:
        if not lem.holds(values):
            _, op, _ = lem.sides()
            run.status = "violation"
            run.violation = Violation(
                lem.id,
                lem.title,
                str(lem.statement()),
                run.updates,
                j,
                low,
                op,
                Fraction(0),
                values,
                run.choices,
            )
            return


# --- the per-step path: a replaced update or trigger ------------------------------------------


def _train_python(
    data: Dataset,
    rule: str | Chooser,
    seed: int,
    budget: int,
    comp: Comparator | None,
    mode: str,
    update: UpdateRule | None,
    trigger: Callable[[Any], bool] | None,
    detect_cycles: bool,
    final: tuple[bool, Any] | None = None,
) -> Run:
    """The per-step path, monitored; ``final = (strict, gamma)``: once converged, check
    the same updates again against the returned w (``comparator="final"``)."""
    from .engine.drive import Decisions, prepare
    from .engine.pyloop import LinearProblem, loop

    problem = LinearProblem(data, CLASSIC, mode, update, trigger)
    world = prepare(data, CLASSIC, mode)
    checker = _Checker(world, comp, RUNTIME_LEMMAS, keep=True)
    states: list[Any] = [problem.start()]
    picks: list[int] = []
    checked = [0, 16]  # updates checked so far, next chunk size
    stop_at: list[int] = []

    def check() -> bool:
        """Monitor the updates made since the last check; True at a violation."""
        k0 = checked[0]
        if comp is None or k0 == len(picks):
            return False
        found = _check_states(problem, states, picks, k0, len(picks), comp, mode, checker)
        checked[0] = len(picks)
        checked[1] = min(2 * checked[1], 4096)
        if found is None:
            return False
        stop_at.append(found)
        return True

    def hook(k: int, before: Any, after: Any, j: int) -> bool:
        states.append(after)
        picks.append(j)
        return len(picks) - checked[0] >= checked[1] and check()

    res = loop(
        problem, order=rule, seed=seed, budget=budget, detect_cycles=detect_cycles, stop=hook
    )
    if not stop_at:
        check()
    choices = np.array(res.choices, dtype=np.int64)
    certificate = res.certificate  # the cycle's updates, verified
    status = "stopped" if stop_at else res.status
    dec = Decisions(
        status, choices, np.array(res.visits, dtype=np.int64), res.w, world, certificate
    )
    run = _record(
        data, dec, comp, checker, rule, seed, mode, budget, stop_at=stop_at[0] if stop_at else None
    )
    if stop_at:
        run.w = problem.weights(states[stop_at[0]])
    elif final is not None and run.status == "converged" and run.updates > 0:
        strict, gamma = final
        last = make_comparator(data, run.w, strict=strict, gamma=gamma, source="final w")
        again = _Checker(world, last, RUNTIME_LEMMAS, keep=True)
        keep = None
        for k0 in range(0, len(picks), 4096):
            k1 = min(len(picks), k0 + 4096)
            keep = _check_states(problem, states, picks, k0, k1, last, mode, again)
            if keep is not None:
                break
        run = _record(data, dec, last, again, rule, seed, mode, budget, stop_at=keep)
        if keep is not None:
            run.w = problem.weights(states[keep])
    return run


def _check_states(
    problem: LinearProblem,
    states: list[Any],
    picks: list[int],
    k0: int,
    k1: int,
    comp: Comparator,
    mode: str,
    checker: _Checker,
) -> int | None:
    """Monitor updates ``k0 + 1 .. k1`` of a per-step run; the updates to keep (the
    violating one included) at a violation, recorded on ``checker``."""
    choices = np.array(picks[k0:k1], dtype=np.int64)
    m = _python_measures(problem, states[k0 : k1 + 1], choices, k0, comp, mode, checker)
    return checker.judge(k0, m, choices)


def _python_measures(
    problem: LinearProblem,
    states: list[Any],
    choices: np.ndarray,
    k0: int,
    comp: Comparator,
    mode: str,
    checker: _Checker,
) -> Mapping[str, Any]:
    """The vocabulary measured from the per-step path's actual weight vectors."""
    from .engine.measure import float_measures

    if mode == "exact":
        rows: dict[str, list[Fraction]] = {
            n: [] for n in ("t", "pu", "pu1", "yux", "n0", "n1", "xx")
        }
        u = comp.u
        for k, j in enumerate(choices):
            w0, w1, x, y = states[k], states[k + 1], problem.exact_x[int(j)], problem.y[int(j)]
            rows["t"].append(y * _dot(w0, x))
            rows["pu"].append(_dot(u, w0))
            rows["pu1"].append(_dot(u, w1))
            rows["yux"].append(y * _dot(u, x))
            rows["n0"].append(_dot(w0, w0))
            rows["n1"].append(_dot(w1, w1))
            rows["xx"].append(_dot(x, x))
        ks = np.arange(k0 + 1, k0 + len(choices) + 1, dtype=np.int64)
        out: dict[str, Any] = {"k": Exact.of(ks, 1)}
        for name, vals in rows.items():
            out[name] = _exact_array(vals)
        return out
    W = np.array([np.asarray(s, dtype=float) for s in states])
    E = np.zeros_like(W)
    for k in range(1, W.shape[0]):  # each coordinate one rounded operation per update
        E[k] = np.nextafter(E[k - 1] + np.abs(W[k]) * _U + 5e-324, np.inf)
    X = np.array(problem.X)
    return float_measures(
        X,
        problem.data.labels,
        choices,
        0,
        W[:-1],
        E[:-1],
        W[1:],
        E[1:],
        checker.measure.u_f,
        checker.measure.e_u,
    )


def _dot(a: Sequence[Any], b: Sequence[Any]) -> Fraction:
    return sum((Fraction(p) * Fraction(q) for p, q in zip(a, b, strict=True)), Fraction(0))


def _exact_array(vals: list[Fraction]) -> Exact:
    import math

    D = math.lcm(*(v.denominator for v in vals)) if vals else 1
    return Exact.of(np.array([int(v * D) for v in vals], dtype=object), D)


# the interval scalar used by the float guard's reports
_ = Interval
