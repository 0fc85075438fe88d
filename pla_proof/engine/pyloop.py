"""The engine's per-step path: any rule written in Python, in one plain loop.

A rule the compiled loop cannot run -- a variant with its own ``triggers``/``step``
in Python, a replaced update or trigger (to show the monitor catching it), the
kernel and multiclass perceptrons -- runs here, one Python call per point and
update, with the same selection rules (:mod:`pla_proof.engine.orders`), the same
visits and epochs, the same budget and cycle semantics and the same record as the
compiled loop.  With the classic :class:`Problem` in ``Fraction`` arithmetic it is
also the engine's *reference*: the compiled loop must make exactly its decisions
(the property suite checks that on data with near-zero margins and mixed magnitudes).

>>> from pla_proof.data import load
>>> res = loop(LinearProblem(load("orthonormal:3")), order="maxviol")
>>> res.status, res.choices, res.w
('converged', [0, 1, 2], (Fraction(1, 1), Fraction(-1, 1), Fraction(1, 1)))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from ..data import Dataset
from .certificate import Certificate
from .orders import Chooser, Selection
from .rule import CLASSIC, LinearRule

__all__ = ["PER_STEP_WORK", "LinearProblem", "LoopResult", "Problem", "loop", "per_step_updates"]


class Problem:
    """What the loop needs of a rule; ``state`` is whatever the rule keeps (weights,
    dual coefficients, one vector per class ...)."""

    n: int

    def start(self) -> Any:
        raise NotImplementedError

    def score(self, state: Any, i: int) -> Any:
        """How violated point ``i`` is (smaller is worse; max-violation takes the least)."""
        raise NotImplementedError

    def triggers(self, state: Any, i: int) -> bool:
        raise NotImplementedError

    def step(self, state: Any, j: int) -> Any:
        """The state after an update on point ``j``."""
        raise NotImplementedError

    def key(self, state: Any) -> Hashable | None:
        """A hashable image of the state for cycle detection (None: no detection)."""
        return None

    def certificate(self, counts: Sequence[int]) -> Certificate | None:
        """A verified Gordan certificate from the update counts between two equal states."""
        return None

    def weights(self, state: Any) -> tuple[Fraction, ...]:
        """The state as exact weights (for the record)."""
        return tuple(Fraction(v) for v in state)


@dataclass
class LinearProblem(Problem):
    """A linear rule on a data set, or the same with a replaced ``update``/``trigger``.

    ``mode="exact"``: ``Fraction`` weights; ``"float"``: float64 weights (numpy) on the
    data rounded to float64 -- the float algorithm, each margin decided exactly.
    ``update(w, x, y)`` returns the new weights; ``trigger(m)`` decides on the margin
    ``m = y w.x - tau`` (default ``m <= 0``, strict per the rule).
    """

    data: Dataset
    rule: LinearRule = CLASSIC
    mode: str = "exact"
    update: Callable[[Any, Any, int], Any] | None = None
    trigger: Callable[[Any], bool] | None = None
    X: list[Any] = field(init=False)
    exact_x: list[tuple[Fraction, ...]] = field(init=False)

    def __post_init__(self) -> None:
        self.n = self.data.n
        if self.mode == "float":
            Xf, _ = self.data.as_float()
            self.X = [row.copy() for row in Xf]
            self.exact_x = [tuple(Fraction(float(v)) for v in row) for row in Xf]
        else:
            self.X = list(self.data.X)
            self.exact_x = self.X
        self.y = self.data.y
        self.strict = self.rule.strict_flags(self.n)
        # exact decisions in integers: y_i x_i scaled by the data's common denominator L,
        # the weights by theirs (m, per state): y w.x = (Y_i . W) / (L m)
        exact = [[Fraction(v) for v in x] for x in self.exact_x]
        self._L = math.lcm(*(v.denominator for x in exact for v in x))
        self._yx = [
            [yi * v.numerator * (self._L // v.denominator) for v in x]
            for x, yi in zip(exact, self.y, strict=True)
        ]
        self._of: Any = None  # the state the scaled weights below are of
        self._w: list[int] = []
        self._m = 1

    def start(self) -> Any:
        w0 = self.rule.start(self.data.d)
        if self.mode == "float":
            return np.array([float(v) for v in w0])
        return list(w0)

    def _scaled(self, state: Any) -> tuple[list[int], int]:
        """The state's weights times their common denominator ``m``, and ``m``."""
        if state is not self._of:
            exact = [Fraction(v) if self.mode == "exact" else Fraction(float(v)) for v in state]
            m = math.lcm(*(v.denominator for v in exact))
            self._w = [v.numerator * (m // v.denominator) for v in exact]
            self._m, self._of = m, state
        return self._w, self._m

    def _dot(self, state: Any, i: int) -> int:
        """``y_i w.x_i`` times ``L m`` (an integer)."""
        w, _ = self._scaled(state)
        return sum(a * b for a, b in zip(w, self._yx[i], strict=True))

    def score(self, state: Any, i: int) -> Fraction:
        _, m = self._scaled(state)
        return Fraction(self._dot(state, i), self._L * m) - self.rule.tau

    def triggers(self, state: Any, i: int) -> bool:
        if self.trigger is not None:
            return bool(self.trigger(self.score(state, i) + self.rule.tau))
        _, m = self._scaled(state)
        tau = self.rule.tau
        z = self._dot(state, i) * tau.denominator - tau.numerator * self._L * m
        return z < 0 if self.strict[i] else z <= 0

    def step(self, state: Any, j: int) -> Any:
        x, yj = self.X[j], self.y[j]
        if self.update is not None:
            new = self.update(state, x, yj)
            if self.mode == "float":
                return np.asarray(new, dtype=np.float64) + 0.0
            return [v if isinstance(v, Fraction) else Fraction(v) for v in new]
        if self.mode == "float":
            cf = float(self.rule.factor(j))
            return state + (cf * x) * yj + 0.0
        c = self.rule.factor(j) * yj
        return [a + c * b for a, b in zip(state, x, strict=True)]

    def key(self, state: Any) -> Hashable:
        return tuple(float(v) for v in state) if self.mode == "float" else tuple(state)

    def certificate(self, counts: Sequence[int]) -> Certificate | None:
        if self.update is not None:
            return None
        alpha = tuple(Fraction(c) * self.rule.factor(i) for i, c in enumerate(counts))
        cert = Certificate(alpha, "cycle")
        target = self.data
        if self.mode == "float":
            Xf, _ = self.data.as_float()
            target = Dataset.from_floats(Xf, self.data.labels, name=self.data.name)
        return cert if cert.verify(target) else None


@dataclass
class LoopResult:
    status: str
    choices: list[int]
    visits: list[int]
    w: tuple[Fraction, ...]
    states: list[Any] = field(default_factory=list)
    #: ``not_separable``: the verified certificate from the repeated weights' cycle
    certificate: Certificate | None = None


def loop(
    problem: Problem,
    *,
    order: str | Chooser = "cyclic",
    seed: int = 0,
    budget: int = 10_000,
    sample: bool = False,
    max_epochs: int | None = None,
    detect_cycles: bool = True,
    keep_states: bool = False,
    stop: Callable[[int, Any, Any, int], bool] | None = None,
) -> LoopResult:
    """Run ``problem`` until no point triggers, ``budget`` updates, a cycle certificate,
    the visit cap, or ``stop(k, before, after, j)`` returning True after update ``k``."""
    n = problem.n
    sel = Selection(n, order, seed=seed, max_epochs=max_epochs, sample=sample)
    state = problem.start()
    states = [state] if keep_states else []
    choices: list[int] = []
    visits = sel.visits
    seen: dict[Hashable, int] = {}

    def done(status: str) -> LoopResult:
        return LoopResult(status, choices, visits, problem.weights(state), states)

    while True:
        violators = [i for i in range(n) if problem.triggers(state, i)]
        if not violators:
            return done("converged")
        if len(choices) >= budget:
            return done("budget_exhausted")
        # the state has not changed since ``violators``: choose asks them, not the rule
        # again (on the Python hooks' path every trigger is a call into the user's code)
        j = sel.choose(violators, frozenset(violators).__contains__, partial(problem.score, state))
        if j is None:
            return done("epochs_exhausted")
        before = state
        state = problem.step(state, j)
        choices.append(j)
        if keep_states:
            states.append(state)
        if stop is not None and stop(len(choices), before, state, j):
            return done("stopped")
        if detect_cycles:
            key = problem.key(state)
            if key is not None:
                if key in seen:
                    counts = [0] * n
                    for c in choices[seen[key] :]:
                        counts[c] += 1
                    cert = problem.certificate(counts)
                    if cert is not None:
                        out = done("not_separable")
                        out.certificate = cert
                        return out
                else:
                    seen[key] = len(choices)


#: Work (updates x points x coordinates) below which a run takes the engine's per-step
#: path instead of loading the compiled loop (benchmarks/bench_startup.py: the compiled
#: loop's first call costs 0.3-0.4 s in a fresh process -- numba's import and its
#: registries; the monitored per-step path makes a run of this much work in about 0.3 s:
#: 3,333 updates of 3 x 2 data, 95 us an update).
PER_STEP_WORK = 20_000


def per_step_updates(data: Dataset | Any, mode: str) -> int:
    """The number of updates a run of ``data`` (a data set or a case: its ``n`` and ``d``)
    may make on the per-step path before the
    compiled loop takes over; 0: the compiled loop from the start -- in float mode, on
    larger data, and once the process has loaded the compiled loops (then they are the
    faster path for every size).  Both paths make the same decisions.

    >>> from pla_proof.data import load
    >>> from pla_proof.engine import jit
    >>> per_step_updates(load("orthonormal:3"), "exact") > 1000 or jit.loaded()
    True
    >>> per_step_updates(load("orthonormal:3"), "float")
    0
    """
    from . import jit

    if mode != "exact" or jit.loaded() or data.n * data.d > 1000:
        return 0
    return PER_STEP_WORK // max(1, data.n * data.d)
