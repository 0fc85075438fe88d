"""The Perceptron Learning Algorithm exactly as seed 000 states it, instrumented.

    w_1 = 0; while some i has y_i (w . x_i) <= 0: pick such a j; w <- w + y_j x_j.

The pick is made by a selection rule (``first``, ``cyclic``, ``random``,
``maxviol``) or by a caller-supplied chooser.  Every update is checked by the
run-time monitor; a run always ends in an :class:`Outcome`.

>>> from pla_proof.data import load
>>> run = train(load("orthonormal:4"), rule="maxviol")
>>> run.status, run.updates, run.bound
('converged', 4, Fraction(4, 1))
>>> train(load("xor")).status
'not_separable'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from .data import Dataset
from .errors import InputError
from .monitor import (
    Comparator,
    ExactMonitor,
    FloatMonitor,
    Step,
    Violation,
    check_float_separation,
    check_separation,
    make_comparator,
)
from .numbers import dot

__all__ = [
    "RULES",
    "STATUSES",
    "Certificate",
    "Chooser",
    "Run",
    "train",
]

RULES = ("first", "cyclic", "random", "maxviol")
STATUSES = ("converged", "budget_exhausted", "violation", "not_separable")
DEFAULT_BUDGET = 10_000

#: A chooser gets the violators (0-based indices, ascending) and the update index k
#: (1-based) and returns one of them.
Chooser = Callable[[list[int], int], int]
#: An update rule maps (w, x, y) to the new w (for testing broken variants).
UpdateRule = Callable[[Sequence[Any], Sequence[Any], int], Sequence[Any]]


@dataclass(frozen=True)
class Certificate:
    """Gordan's alternative: alpha >= 0, alpha != 0, sum_i alpha_i y_i x_i = 0.

    ``source`` says how it was found (``cycle``: the update counts between two
    visits of the same weight vector; ``lp``: a solver, verified exactly).
    """

    alpha: tuple[Fraction, ...]
    source: str

    def verify(self, data: Dataset) -> bool:
        """Exact check of the certificate on ``data``."""
        if (
            len(self.alpha) != data.n
            or any(a < 0 for a in self.alpha)
            or all(a == 0 for a in self.alpha)
        ):
            return False
        total = [Fraction(0)] * data.d
        for a, x, yi in zip(self.alpha, data.X, data.y, strict=True):
            if a:
                for c in range(data.d):
                    total[c] += a * yi * x[c]
        return all(v == 0 for v in total)


@dataclass
class Run:
    """The record of one monitored run."""

    status: str
    w: tuple[Fraction, ...]
    updates: int
    steps: list[Step]
    choices: list[int]
    alpha: list[int]
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

    def w_after(self, k: int) -> tuple[Fraction, ...]:
        """The exact weights after ``k`` updates (``w_after(0)`` is the start, 0).

        >>> from pla_proof.data import load
        >>> run = train(load("orthonormal:3"), comparator=None)
        >>> run.w_after(2)
        (Fraction(1, 1), Fraction(-1, 1), Fraction(0, 1))
        """
        if self.data is None:
            raise ValueError("this run record does not carry its data")
        if not 0 <= k <= self.updates:
            raise ValueError(f"k must be in 0..{self.updates}, got {k}")
        w = [Fraction(0)] * self.data.d
        for j in self.choices[:k]:
            yj = self.data.y[j]
            for c, v in enumerate(self.data.X[j]):
                w[c] += yj * v
        return tuple(w)

    def _repr_html_(self) -> str:
        """A notebook shows the run as the lecture page's stepper (the page, in an iframe)."""
        from .render.page import notebook_html

        return notebook_html(self)

    @property
    def bound(self) -> Fraction | None:
        """R^2/gamma^2 for the comparator the run was checked against."""
        return self.comparator.bound if self.comparator is not None else None

    @property
    def ok(self) -> bool:
        return self.status == "converged"


def _margins_int(w: Sequence[int], Z: Sequence[Sequence[int]], y: Sequence[int]) -> list[int]:
    return [yi * dot(w, z) for z, yi in zip(Z, y, strict=True)]


_INT64_SAFE = 2**62


def _int_margins(
    Z: Sequence[Sequence[int]], y: Sequence[int]
) -> Callable[[Sequence[int]], list[int]]:
    """Exact margins y_i w.z_i: numpy int64 while no sum can overflow, Python ints after.

    The guard bounds every partial sum by d * max|w| * max|z| < 2^62.
    """
    maxz = max((abs(v) for z in Z for v in z), default=0)
    d = len(Z[0])
    Zy: np.ndarray | None = None
    if maxz < _INT64_SAFE:
        Zy = np.array([[yi * v for v in z] for z, yi in zip(Z, y, strict=True)], dtype=np.int64)

    def margins(w: Sequence[int]) -> list[int]:
        # An ``update=`` rule may produce non-integer weights (a learning rate 1/3):
        # those take the exact path, never a truncating int64 conversion.
        if Zy is not None and all(type(v) is int for v in w):
            maxw = max((abs(v) for v in w), default=0)
            if d * maxw * maxz >= _INT64_SAFE:
                return _margins_int(w, Z, y)
            out: list[int] = (Zy @ np.array(w, dtype=np.int64)).tolist()
            return out
        return _margins_int(w, Z, y)

    return margins


class _Selector:
    def __init__(self, rule: str | Chooser, n: int, seed: int):
        self.rule = rule
        self.n = n
        self.pos = 0
        self.rng = random.Random(seed)
        self.perm: list[int] = []
        self.ppos = 0

    def pick(
        self, margins: Sequence[Any], k: int, is_violator: Callable[[Any], bool]
    ) -> int | None:
        n = self.n
        rule = self.rule
        if rule == "first":
            for i in range(n):
                if is_violator(margins[i]):
                    return i
            return None
        if rule == "cyclic":
            for off in range(n):
                i = (self.pos + off) % n
                if is_violator(margins[i]):
                    self.pos = (i + 1) % n
                    return i
            return None
        if rule == "random":
            if not any(is_violator(m) for m in margins):
                return None
            while True:
                if self.ppos >= len(self.perm):
                    self.perm = list(range(n))
                    self.rng.shuffle(self.perm)
                    self.ppos = 0
                i = self.perm[self.ppos]
                self.ppos += 1
                if is_violator(margins[i]):
                    return i
        if rule == "maxviol":
            best: int | None = None
            for i in range(n):
                if is_violator(margins[i]) and (best is None or margins[i] < margins[best]):
                    best = i
            return best
        if callable(rule):
            viol = [i for i in range(n) if is_violator(margins[i])]
            if not viol:
                return None
            j = rule(viol, k)
            if j not in viol:
                raise ValueError(f"chooser returned {j!r}, which is not a violator {viol}")
            return int(j)
        raise InputError(f"unknown rule {rule!r} (choose {', '.join(RULES)})")


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
    replace the algorithm's update and test -- only to show that the monitor
    catches broken variants.
    """
    if mode not in ("exact", "float"):
        raise InputError(f"mode must be 'exact' or 'float', got {mode!r}")
    if budget is None:
        budget = DEFAULT_BUDGET
    if not isinstance(budget, int) or budget < 0:
        raise InputError(f"budget must be a non-negative integer, got {budget!r}")
    if isinstance(rule, str) and rule not in RULES:
        raise InputError(f"unknown rule {rule!r} (choose {', '.join(RULES)})")
    comp: Comparator | None
    if comparator is None or isinstance(comparator, str):
        if comparator not in (None, "final"):
            raise InputError(f"comparator must be a vector, 'final' or None, got {comparator!r}")
        comp = None
    elif isinstance(comparator, Comparator):
        comp = comparator
    else:
        comp = make_comparator(data, comparator, strict=strict, gamma=gamma)
    run = _run(data, rule, seed, budget, comp, mode, update, trigger, detect_cycles)
    if comparator == "final" and run.status == "converged" and run.updates > 0:
        # The theorem holds for every separator: replay the same choices, monitored
        # against the returned weights.
        final = make_comparator(data, run.w, strict=strict, gamma=gamma, source="final w")
        replay = _replay_chooser(run.choices)
        checked = _run(data, replay, seed, budget, final, mode, update, trigger, detect_cycles)
        checked.rule = run.rule
        return checked
    return run


def _replay_chooser(choices: list[int]) -> Chooser:
    def choose(violators: list[int], k: int) -> int:
        return choices[k - 1]

    return choose


def _rule_name(rule: str | Chooser) -> str:
    return rule if isinstance(rule, str) else "chooser"


def _run(
    data: Dataset,
    rule: str | Chooser,
    seed: int,
    budget: int,
    comp: Comparator | None,
    mode: str,
    update: UpdateRule | None,
    trigger: Callable[[Any], bool] | None,
    detect_cycles: bool,
) -> Run:
    n, d = data.n, data.d
    is_violator = trigger if trigger is not None else (lambda m: m <= 0)
    selector = _Selector(rule, n, seed)
    y = list(data.y)
    steps: list[Step] = []
    choices: list[int] = []
    alpha = [0] * n
    violation: Violation | None = None
    status = "converged"
    certificate: Certificate | None = None
    seen: dict[tuple[Any, ...], int] = {}

    monitor: ExactMonitor | FloatMonitor | None
    if mode == "exact":
        Za, scale = data.integer_points()
        Z = [tuple(int(v) for v in row) for row in Za.tolist()]
        w: Any = [0] * d
        monitor = ExactMonitor(comp, scale) if comp is not None else None
        margins_of: Callable[[Any], Sequence[Any]] = _int_margins(Z, y)
        add = (
            update
            if update is not None
            else (lambda w, x, yi: [a + yi * b for a, b in zip(w, x, strict=True)])
        )
        points: Any = Z
    else:
        Xf, yf = data.as_float()
        w = np.zeros(d)
        monitor = FloatMonitor(comp, Xf, y) if comp is not None else None

        def margins_of(w: Any) -> Sequence[Any]:
            out: list[float] = (yf * (Xf @ w)).tolist()
            return out

        add = update if update is not None else (lambda w, x, yi: w + yi * x)
        points = Xf
        scale = 1

    k = 0
    while True:
        margins = margins_of(w)
        j = selector.pick(margins, k + 1, is_violator)
        if j is None:
            break
        if k >= budget:
            status = "budget_exhausted"
            break
        x = points[j]
        stepped = add(w, x, y[j])
        w_new: Any = np.asarray(stepped, dtype=np.float64) if mode == "float" else list(stepped)
        k += 1
        choices.append(j)
        alpha[j] += 1
        if monitor is not None:
            step, violation = monitor.check_update(k, j, w, w_new, x, y[j])
            steps.append(step)
            if violation is not None:
                status = "violation"
                violation.choices = list(choices)
                w = w_new
                break
        w = w_new
        if detect_cycles:
            key = tuple(w.tolist()) if mode == "float" else tuple(w)
            if key in seen:
                start = seen[key]
                counts = [0] * n
                for i in choices[start:]:
                    counts[i] += 1
                cert = Certificate(tuple(Fraction(c) for c in counts), "cycle")
                if cert.verify(data if mode == "exact" else _float_data(data)):
                    certificate = cert
                    status = "not_separable"
                    break
            else:
                seen[key] = k

    if status == "converged" and monitor is not None:
        violation = monitor.check_end(k, w, points, y)
        if violation is not None:
            violation.choices = list(choices)
            status = "violation"
    elif status == "converged":
        # Even without a comparator the returned w must separate strictly.
        if mode == "exact":
            violation = check_separation(k, w, points, y, scale)
        else:
            violation = check_float_separation(k, w, points, y)
        if violation is not None:
            violation.choices = list(choices)
            status = "violation"

    if mode == "exact":
        w_out = tuple(Fraction(v, scale) for v in w)
    else:
        w_out = tuple(Fraction(float(v)) for v in w)
    return Run(
        status=status,
        w=w_out,
        updates=k,
        steps=steps,
        choices=choices,
        alpha=alpha,
        comparator=comp,
        violation=violation,
        certificate=certificate,
        rule=_rule_name(rule),
        seed=seed,
        mode=mode,
        budget=budget,
        data_name=data.name,
        max_missed=monitor.max_missed if isinstance(monitor, FloatMonitor) else 0.0,
        data=data,
    )


def _float_data(data: Dataset) -> Dataset:
    Xf, _ = data.as_float()
    return Dataset(
        tuple(tuple(Fraction(float(v)) for v in row) for row in Xf), data.y, data.name, data.bias
    )
