"""The variant protocol: an update rule plus the claim it makes.

Every additive Perceptron variant fits the generic lemma (docs/facts.md): if each update
``w <- w + z`` satisfies (G1) ``|w + z|^2 - |w|^2 <= C`` and (G2) ``u.z >= g > 0``
for a fixed comparator ``u``, then after ``k`` updates from ``w_0``
``u.w_k >= u.w_0 + k g`` (P_k) and ``|w_k|^2 <= |w_0|^2 + k C`` (Q_k); from
``w_0 = 0`` Cauchy-Schwarz gives ``k <= C |u|^2 / g^2`` (homogeneous in ``u``).

A variant is a :class:`Variant`: it draws :class:`Case` objects (data with a known
comparator), runs its algorithm in a given :class:`Order`, reports one
:class:`Measure` per update, and states its :class:`Claim`.  The harness
(:mod:`pla_proof.variants.checking`) checks the claim; it never trusts the variant's
own bookkeeping: the measurements are the vectors' exact inner products.

Most variants only change the trigger, the update or the start of the algorithm
in R^d; they subclass :class:`LinearVariant` and override one or two methods:

>>> from fractions import Fraction
>>> class Doubled(LinearVariant):
...     name = "doubled"
...     def step(self, w, x, y):
...         return [2 * y * v for v in x]
...     def claim(self, case):
...         return Claim(C=4 * case.radius_squared, g=2 * case.gamma, uu=case.uu)
>>> one, zero = Fraction(1), Fraction(0)
>>> case = Case(X=((one, zero),), y=(1,), u=(one, zero), gamma=one)
>>> rec = Doubled().run(case, Order("cyclic"))
>>> [(m.k, m.n1 - m.n0, m.pu1 - m.pu0) for m in rec.measured()]
[(1, Fraction(4, 1), Fraction(2, 1))]
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

import numpy as np
from hypothesis import strategies as st

from ...data import Dataset
from ...engine.orders import Chooser
from ...engine.pyloop import LinearProblem, LoopResult, Problem
from ...engine.rule import LinearRule
from ...errors import InputError
from ...numbers import dot, norm2
from ..boundary.calls import call_hook
from .claim import Claim, max_updates

__all__ = [
    "ORDER_RULES",
    "Case",
    "Claim",
    "LinearVariant",
    "Measure",
    "Order",
    "PassVariant",
    "Record",
    "Variant",
    "orders",
    "run_problem",
    "same_updates",
    "survival_counts",
    "watching",
]

Vector = tuple[Fraction, ...]

#: Selection rules the harness draws orders from.  ``choose`` lets Hypothesis pick
#: the violator at every update (an adversary); ``replay`` follows recorded indices.
ORDER_RULES = ("cyclic", "first", "maxviol", "random", "choose", "replay")


@dataclass(frozen=True)
class Case:
    """One input: points, labels, a comparator ``u`` known to separate, its margin.

    ``gamma = min_i y_i u.x_i`` (homogeneous in ``u``).  ``params`` holds anything
    else the variant needs (a learning rate, a start vector, a bias separator...);
    values are ints, Fractions, strings or nested lists/tuples of them.
    """

    X: tuple[Vector, ...]
    y: tuple[int, ...]
    u: Vector
    gamma: Fraction
    params: Mapping[str, Any] = field(default_factory=dict)
    name: str = "case"

    @property
    def n(self) -> int:
        return len(self.X)

    @property
    def d(self) -> int:
        return len(self.X[0]) if self.X else 0

    @cached_property
    def radius_squared(self) -> Fraction:
        """R^2 = max_i |x_i|^2 of the points as stored in the case."""
        return max((Fraction(norm2(x)) for x in self.X), default=Fraction(0))

    @cached_property
    def uu(self) -> Fraction:
        """|u|^2 of the comparator."""
        return Fraction(norm2(self.u))

    def dataset(self) -> Dataset:
        """The case as a :class:`~pla_proof.data.Dataset` (labels must be -1/+1)."""
        return Dataset(self.X, self.y, name=self.name)

    @staticmethod
    def separable(data: Dataset, u: Sequence[Any], **params: Any) -> Case:
        """A case from a data set and a separating ``u`` (margin measured exactly).

        >>> from pla_proof.data import load
        >>> Case.separable(load("orthonormal:2"), [1, -1]).gamma
        Fraction(1, 1)
        """
        uf = tuple(Fraction(v) for v in u)
        margins = [yi * dot(uf, x) for x, yi in zip(data.X, data.y, strict=True)]
        if min(margins) <= 0:
            raise InputError("comparator does not separate the data")
        return Case(data.X, data.y, uf, Fraction(min(margins)), dict(params), data.name)


@dataclass(frozen=True)
class Order:
    """How the violator to update on is chosen.

    ``cyclic``/``first``/``maxviol``/``random`` as in :mod:`pla_proof.engine.orders`
    (``random`` walks a fresh random permutation per epoch, seeded by ``seed``);
    ``choose``: at update ``k`` take ``violators[picks[k-1] % len(violators)]``
    (the first violator once ``picks`` runs out); ``replay``: ``picks`` are the
    0-based point indices to update on, in order.
    """

    rule: str = "cyclic"
    seed: int = 0
    picks: tuple[int, ...] = ()

    def describe(self) -> str:
        if self.rule == "random":
            return f"random (seed {self.seed})"
        if self.rule in ("choose", "replay"):
            return f"{self.rule} {list(self.picks)}"
        return self.rule

    def engine(self) -> str | Chooser:
        """This order as the engine takes it: a rule name, or a chooser for ``choose`` and
        ``replay``.

        >>> Order("choose", picks=(2, 1)).engine()([0, 1, 3], 1)
        3
        >>> Order("replay", picks=(2,)).engine()([0, 1], 1)
        Traceback (most recent call last):
        ...
        pla_proof.errors.InputError: replay: point 3 is not a violator at update 1
        """
        if self.rule not in ORDER_RULES:
            raise InputError(f"unknown order {self.rule!r} (choose {', '.join(ORDER_RULES)})")
        picks = self.picks
        if self.rule == "choose":

            def choose(viol: list[int], k: int) -> int:
                return viol[picks[k - 1] % len(viol)] if k - 1 < len(picks) else viol[0]

            return choose
        if self.rule == "replay":

            def replay(viol: list[int], k: int) -> int:
                if k - 1 < len(picks):
                    j = picks[k - 1]
                    if j not in viol:
                        raise InputError(f"replay: point {j + 1} is not a violator at update {k}")
                    return j
                return viol[0]

            return replay
        return self.rule


def orders(rules: Sequence[str] = ("cyclic", "first", "maxviol", "random", "choose")) -> Any:
    """Hypothesis strategy for :class:`Order` over ``rules`` (``cyclic`` shrinks first)."""
    options: list[Any] = []
    for r in rules:
        if r == "random":
            options.append(st.builds(Order, st.just("random"), st.integers(0, 2**16)))
        elif r == "choose":
            picks = st.lists(st.integers(0, 7), max_size=12).map(tuple)
            options.append(st.builds(Order, st.just("choose"), st.just(0), picks))
        else:
            options.append(st.just(Order(r)))
    return st.one_of(*options)


@dataclass(frozen=True)
class Measure:
    """One update ``w_k -> w_{k+1}`` measured exactly (in the variant's inner-product space).

    ``t`` is the trigger value the variant decided on; ``pu0``/``pu1`` are ``u.w``
    before/after and ``n0``/``n1`` are ``|w|^2`` before/after.
    """

    k: int
    j: int
    t: Any
    pu0: Any
    pu1: Any
    n0: Any
    n1: Any


@dataclass
class Record:
    """What a run produced.

    A run reports its updates one of three ways: the engine's measured ``chunks``
    (linear variants, compiled or per step), one :class:`Measure` per update added with
    :meth:`add` (hand-written runs in any inner-product space), or -- for the end of the
    run -- ``output["w"]`` (and ``output["b"]``) from which the harness decides ``SEP``
    and ``SEP0`` itself.  ``end`` may instead give ``m`` (the returned predictor's
    minimum signed margin ``min_i y_i f(x_i)``) and ``j`` (the point attaining it) for
    predictors that are not a vector in R^d, and ``values`` (the predictor's values
    ``f(x_i)``) for ``SEP0``; ``checks`` maps the variant's own property ids to a
    failure message (or ``None`` when the property held); ``complete`` is False when
    the run hit the safety cap before the claimed bound (an inconclusive example).
    """

    steps: list[Measure] = field(default_factory=list)
    choices: list[int] = field(default_factory=list)
    end: dict[str, Any] = field(default_factory=dict)
    checks: dict[str, str | None] = field(default_factory=dict)
    complete: bool = True
    output: dict[str, Any] = field(default_factory=dict)
    truncated: bool = False
    visits: list[int] = field(default_factory=list)
    status: str = ""
    chunks: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    mode: str = "exact"
    #: float mode: the largest amount by which a property could have failed unseen
    max_missed: float = 0.0
    #: float mode: properties left undecided (an enclosure that is not finite)
    undecided: int = 0
    #: set by the harness: the properties this run actually decided (a run without
    #: updates decides no per-update property; an incomplete run no end condition)
    evaluated: frozenset[str] = field(default_factory=frozenset)
    #: set by the harness: why the run decided nothing (it ran out of time before the
    #: claimed bound: slow, not wrong); empty otherwise
    inconclusive: str = ""
    #: each inequality property's smallest normalised slack over the run (0 at the
    #: edge, negative when it fails: :mod:`pla_proof.monitor.slack`), set by the harness
    #: when a search aims at them -- a variant may add its own properties' slack here
    #: (``rec.tightest["MINE"] = ...``) and the search aims at them too
    tightest: dict[str, float] = field(default_factory=dict)
    _ev: Any = field(default=None, repr=False, compare=False)
    _fed: int = field(default=0, repr=False, compare=False)

    def __post_init__(self) -> None:
        ev = CURRENT_EVALUATION.get()
        if ev is not None and ev.record is None:
            ev.record = self
            self._ev = ev
            self.mode = ev.mode

    @property
    def updates(self) -> int:
        """The number of updates the run made."""
        return len(self.choices)

    def add(self, m: Measure) -> bool:
        """Record an update; True when the run should stop (the harness's search has
        seen a property fail that it is looking for -- the run is then ``truncated``)."""
        self.steps.append(m)
        self.choices.append(m.j)
        ev = self._ev
        if ev is None:
            return False
        ev.progressed = time.monotonic()
        pending = len(self.steps) - self._fed
        if pending < min(4096, max(16, self._fed)):
            return False
        return self._feed_steps()

    def _feed_steps(self) -> bool:
        ev = self._ev
        if ev is None or self._fed == len(self.steps):
            return False
        new = self.steps[self._fed :]
        self._fed = len(self.steps)
        keep = ev.feed_steps(new)
        if keep is not None:
            self.truncated = True
            del self.steps[keep:]
            del self.choices[keep:]
            self._fed = len(self.steps)
            return True
        return False

    def should_stop(self) -> bool:
        """True when the harness asks this run to stop early (see :meth:`add`)."""
        return self._feed_steps() or self.truncated

    def measured(self) -> list[Measure]:
        """Every update as a :class:`Measure` (exact values, or enclosures in float mode)."""
        out = list(self.steps)
        for k0, m in self.chunks:
            cols = {name: _column(m[name]) for name in ("t", "pu", "pu1", "n0", "n1") if name in m}
            K = len(cols["n1"])
            for i in range(K):
                k = k0 + i + 1
                if k > len(self.choices):
                    break
                out.append(
                    Measure(
                        k,
                        self.choices[k - 1],
                        *(
                            cols[n][i] if n in cols else None
                            for n in ("t", "pu", "pu1", "n0", "n1")
                        ),
                    )
                )
        return out


def _column(v: Any) -> list[Any]:
    from ...interval import Interval as ScalarInterval

    if hasattr(v, "values"):
        return list(v.values())
    lo, hi = np.atleast_1d(v.lo), np.atleast_1d(v.hi)
    return [ScalarInterval(float(a), float(b)) for a, b in zip(lo, hi, strict=True)]


#: Set by the harness while it runs a variant: the evaluation the run's first Record
#: follows (early stopping, the run's mode).
CURRENT_EVALUATION: ContextVar[Any] = ContextVar("pla_proof_variant_evaluation", default=None)


def run_mode() -> str:
    """The arithmetic the harness asked for: ``"exact"`` or ``"float"``."""
    ev = CURRENT_EVALUATION.get()
    return "exact" if ev is None else str(ev.mode)


def sought(prop: str) -> bool:
    """Whether the harness still looks for a failure of ``prop`` in this run: False once
    the search has refuted it (a run may then skip work that only ``prop`` needs); True
    outside a search (a replay, a trace) and outside any run.

    >>> sought("EPOCHS")
    True
    """
    ev = CURRENT_EVALUATION.get()
    stop = None if ev is None else ev.stop
    return stop is None or bool(stop(prop))


def same_updates(rec: Record, ref: Record, ref_name: str) -> str | None:
    """The ``EQ`` check: ``None`` when ``rec`` made the same updates (same points, same
    order) as the reference run ``ref``, else a message (1-based point indices)."""
    if ref.choices == rec.choices:
        return None
    mine = [j + 1 for j in rec.choices]
    theirs = [j + 1 for j in ref.choices]
    return f"updates {mine} != {ref_name} {theirs}"


class Variant:
    """Base class of every variant (the protocol, version 2: :mod:`.hooks` and
    docs/variants.md list every name a variant may define).

    Subclasses set ``name``/``summary``/``source`` and implement :meth:`cases`,
    :meth:`run` and :meth:`claim`.  ``order_rules`` lists the orders the variant
    accepts; ``examples()`` gives fixed cases checked before the random search;
    :meth:`accepts` states the domain as a predicate; :meth:`decision` the returned
    predictor's values.
    """

    #: The protocol version the variant is written for (see :mod:`.hooks`).
    protocol: ClassVar[int] = 2
    name: ClassVar[str] = "variant"
    summary: ClassVar[str] = ""
    source: ClassVar[str] = ""
    order_rules: ClassVar[tuple[str, ...]] = ("cyclic", "first", "maxviol", "random", "choose")
    #: True when a run is the classic algorithm on ``case.X`` (so ``pla-proof trace``
    #: can replay it).
    classic_dynamics: ClassVar[bool] = False
    #: Extra properties that are assumptions of the claim (checked before the run).
    preconditions: ClassVar[tuple[str, ...]] = ()
    #: id -> statement of the variant's own properties (beyond the generic ones).
    extra_properties: ClassVar[dict[str, str]] = {}

    def cases(self) -> Any:
        """Hypothesis strategy of :class:`Case`."""
        raise NotImplementedError

    def examples(self) -> Sequence[Case]:
        return ()

    def accepts(self, case: Case) -> bool:
        """The domain as a predicate (default: every case): fixed examples, replayed
        counterexamples and generated cases the variant does not accept are not run."""
        return True

    def orders(self) -> Any:
        return orders(self.order_rules)

    def run(self, case: Case, order: Order) -> Record:
        raise NotImplementedError

    def claim(self, case: Case) -> Claim:
        raise NotImplementedError

    def decision(self, case: Case, output: Mapping[str, Any]) -> Sequence[Any] | None:
        """The returned predictor's values ``f(x_i)`` on the case's points, from the
        run's ``output``; ``SEP`` (``min_i y_i f(x_i) > 0``) and ``SEP0`` judge them.
        Default ``None``: ``w.x_i + b`` from ``output["w"]`` (and ``output["b"]``)."""
        return None

    def trace_args(self, case: Case) -> list[str] | None:
        """Extra ``pla-proof trace`` options that replay a run on the saved CSV, or
        ``None`` when ``trace`` cannot run this variant."""
        if not self.classic_dynamics:
            return None
        return []

    def __repr__(self) -> str:
        return f"<variant {self.name}>"


def hard_cases(**kw: Any) -> Any:
    """Separable cases from :func:`pla_proof.strategies.hard_datasets` (every number kind
    and magnitude, margins from generous to tiny, duplicates, one label, long runs)."""
    from ...strategies import hard_datasets

    return hard_datasets(**kw).map(
        lambda c: Case(c.data.X, c.data.y, c.u, c.gamma, {}, c.data.name)
    )


def orthonormal_cases(sizes: Sequence[int] = (1, 2, 3)) -> list[Case]:
    """The data attaining the bound: ``x_i = e_i``, alternating labels, ``u = sum y_i e_i``."""
    out = []
    for n in sizes:
        X = tuple(tuple(Fraction(int(i == j)) for j in range(n)) for i in range(n))
        y = tuple(1 if i % 2 == 0 else -1 for i in range(n))
        u = tuple(Fraction(v) for v in y)
        out.append(Case(X, y, u, Fraction(1), {}, f"orthonormal:{n}"))
    return out


def pushing_cases() -> list[Case]:
    """Fixed data that push the bound: orthonormal sets (which attain it) at several
    scales, a tiny-margin set and a far-point set (see :func:`pla_proof.strategies.
    bound_pushing_datasets`)."""
    from ...strategies import bound_pushing_datasets

    return [
        Case(c.data.X, c.data.y, c.u, c.gamma, {}, c.data.name) for c in bound_pushing_datasets()
    ]


class LinearVariant(Variant):
    """An additive variant in R^d, run by the engine.

    A built-in linear variant only *declares* its rule -- :meth:`eta`, :meth:`tau`,
    :meth:`start`, :meth:`factors`, :meth:`strict_trigger` -- and the compiled loop runs
    it.  A variant written by hand may instead override :meth:`triggers`, :meth:`step`
    or :meth:`score` in Python; it then runs on the engine's per-step path (same
    selection rules, same record).  Either way every update is measured from the
    weight vectors against the case's comparator, and the run stops when no trigger
    fires.

    The data: :meth:`domain` turns a strategy of plain separable cases into the
    variant's own (adding parameters, filtering); :meth:`cases` is the domain of the
    harness's hard data, and the fixed examples (:func:`pushing_cases`) run through
    the same domain.
    """

    name: ClassVar[str] = "linear"
    classic_dynamics: ClassVar[bool] = False
    #: Updates beyond this (and beyond the claimed bound) make a run inconclusive.
    cap: ClassVar[int] = 2_000
    #: At most this many passes over the data (None: no limit; the budget still holds).
    max_epochs: ClassVar[int | None] = None
    #: With Python hooks (``triggers``/``step``/``score``), where every trigger is a call
    #: into the variant's code: updates beyond this make a run whose claimed bound is above
    #: :attr:`cap` inconclusive (the long-run data's bounds are) -- a conclusive budget is
    #: never lowered.
    python_cap: ClassVar[int] = 600

    def domain(self, base: Any) -> Any:
        """The variant's cases from a strategy of plain separable cases (default: as is)."""
        return base

    def cases(self) -> Any:
        from hypothesis.strategies import SearchStrategy

        return call_hook(
            self.domain,
            "domain",
            hard_cases(),
            expect=SearchStrategy,
            expected="a Hypothesis strategy of Case (its argument, filtered or mapped)",
        )

    def examples(self) -> Sequence[Case]:
        """The fixed cases: :func:`pushing_cases` through :meth:`domain` -- only where the
        domain is known: :meth:`cases` is :meth:`domain`'s own (not replaced, or replaced
        in the class that wrote the domain), or :meth:`accepts` states it."""
        cls = type(self)
        cases_by = _defined_by(cls, "cases")
        known = cases_by is LinearVariant or cases_by is _defined_by(cls, "domain")
        if not known and cls.accepts is Variant.accepts:
            return ()
        if _defined_by(cls, "domain") is LinearVariant:  # the domain is every case
            return [c for c in pushing_cases() if self.accepts(c)]
        return [c for c in in_domain(self.domain, pushing_cases()) if self.accepts(c)]

    # --- the rule, declared ------------------------------------------------------------------

    def eta(self, case: Case) -> Fraction:
        """The learning rate (default 1)."""
        return Fraction(1)

    def tau(self, case: Case) -> Fraction:
        """The trigger threshold: update while ``y w.x <= tau`` (default 0)."""
        return Fraction(0)

    def start(self, case: Case) -> list[Fraction]:
        """The starting weights (default 0)."""
        return [Fraction(0)] * case.d

    def factors(self, case: Case) -> tuple[Fraction, ...] | None:
        """Per-point factors ``a_i > 0`` of the update ``eta a_i y x`` (default none)."""
        return None

    def strict_trigger(self, case: Case) -> bool | tuple[bool, ...]:
        """A strict trigger ``y w.x < tau`` (one flag, or one per point; default False)."""
        return False

    def rule(self, case: Case) -> LinearRule:
        """The variant as a rule of the compiled loop (a hook that returns something
        else than a number: :class:`~pla_proof.variants.boundary.HookError` naming it)."""
        start = call_hook(
            self.start,
            "start",
            case,
            expect=_numbers(case.d),
            expected=f"{case.d} rational numbers (the starting weights)",
        )
        factors = call_hook(
            self.factors,
            "factors",
            case,
            expect=lambda v: v is None or _numbers(case.n, positive=True)(v),
            expected=f"None or {case.n} positive rational numbers (one per point)",
        )
        strict = call_hook(
            self.strict_trigger,
            "strict_trigger",
            case,
            expect=lambda v: _is_bool(v) or _flags(case.n)(v),
            expected=f"a bool, or {case.n} bools (one per point)",
        )
        return LinearRule(
            _rational(self.eta, "eta", case, "a rational number (the learning rate)"),
            _rational(self.tau, "tau", case, "a rational number (the trigger threshold)"),
            tuple(Fraction(v) for v in start),
            factors,
            bool(strict) if _is_bool(strict) else tuple(bool(f) for f in strict),
        )

    # --- or written by hand, per step ----------------------------------------------------------

    def score(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Any:
        """The trigger value, ``y w.x`` by default (smaller is more violated)."""
        return y * dot(w, x)

    def triggers(self, w: Sequence[Any], x: Sequence[Any], y: int) -> bool:
        """Does point ``(x, y)`` trigger an update of ``w``?  Default ``y w.x <= 0``."""
        return bool(self.score(w, x, y) <= 0)

    def step(self, w: Sequence[Any], x: Sequence[Any], y: int) -> Sequence[Any]:
        """The increment ``z`` (the update is ``w <- w + z``).  Default ``y x``."""
        return [y * v for v in x]

    def written_in_python(self) -> bool:
        """True when the variant overrides ``triggers``, ``step`` or ``score``."""
        cls = type(self)
        return any(
            getattr(cls, name) is not getattr(LinearVariant, name)
            for name in ("triggers", "step", "score")
        )

    def claim(self, case: Case) -> Claim:
        """Default: the classic claim ``(C, g) = (R^2, gamma)``, strict separation."""
        return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)

    def budget(self, case: Case) -> tuple[int, bool]:
        """``(updates allowed, conclusive)``: one past the claimed bound when that is
        at most :attr:`cap` (exceeding it then refutes the bound), else the cap
        (hitting it makes the example inconclusive)."""
        return claim_budget(self.claim(case), self.cap)

    def run(self, case: Case, order: Order) -> Record:
        budget, conclusive = call_hook(
            self.budget,
            "budget",
            case,
            expect=_budget_pair,
            expected="(updates allowed, conclusive): an int >= 0 and a bool",
        )
        if self.written_in_python():
            if not conclusive:
                budget = min(budget, self.python_cap)
            rec, w = _run_python(self, case, order, budget, self.max_epochs)
        else:
            from ...engine.drive import BeyondFloatRange
            from ...engine.pyloop import per_step_updates

            rule = self.rule(case)
            small = per_step_updates(case, _current_mode())
            if WATCHED.get() is not None:  # watched: every update on the per-step path
                small = budget
            done = False
            if small:  # small data: the per-step path, unless the run turns out long
                problem = LinearProblem(case.dataset(), rule)
                rec, w = _run_traced(problem, case, order, min(budget, small), self.max_epochs)
                done = rec.status != "budget_exhausted" or small >= budget
            try:
                if not done:
                    rec, w = _run_compiled(rule, case, order, budget, self.max_epochs)
            except BeyondFloatRange:
                # weights past float64's range: the rule runs again on the exact per-step
                # path (a new record, evaluated afresh by the harness)
                problem = LinearProblem(case.dataset(), rule)
                rec, w = _run_traced(problem, case, order, budget, self.max_epochs)
        if rec.status == "budget_exhausted":
            rec.complete = conclusive
        rec.output["w"] = tuple(w)
        self.after_run(case, order, rec)
        return rec

    def after_run(self, case: Case, order: Order, record: Record) -> None:
        """The variant's own checks after the run (``record.checks[id] = None`` or a
        failure message, for the ids of :attr:`extra_properties`); default none.  A variant
        that adds checks here, rather than overriding :meth:`run`, keeps its declared rule
        readable: ``check`` can prove its claim."""


def _current_mode() -> str:
    """The mode of the harness's evaluation in progress (exact outside one)."""
    ev = CURRENT_EVALUATION.get()
    return "exact" if ev is None else str(ev.mode)


def _defined_by(cls: type, name: str) -> type:
    """The class of ``cls``'s MRO whose body defines ``name``."""
    return next(k for k in cls.__mro__ if name in vars(k))


def claim_budget(claim: Claim, cap: int) -> tuple[int, bool]:
    """``(updates allowed, conclusive)`` for a run checked against ``claim``."""
    allowed = max_updates(claim)
    if allowed is None:
        return cap, False
    b = allowed + 1
    return (b, True) if b <= cap else (cap, False)


def in_domain(domain: Callable[[Any], Any], cases: Sequence[Case]) -> list[Case]:
    """Each case through a variant's domain, with the simplest parameters Hypothesis
    draws (a case the domain filters out is dropped)."""
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis.errors import NoSuchExample, Unsatisfiable

    cfg = settings(
        max_examples=20,
        database=None,
        derandomize=True,
        verbosity=Verbosity.quiet,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        deadline=None,
    )
    out = []
    for c in cases:
        try:
            out.append(find(domain(st.just(c)), lambda _: True, settings=cfg))
        except (NoSuchExample, Unsatisfiable):
            continue
    return out


class PassVariant(LinearVariant):
    """A :class:`LinearVariant` that makes passes (epochs) over the data, visiting every
    point once per epoch in cyclic or random-permutation order, and stops after a pass
    without updates or after :attr:`max_epochs` passes (``rec.visits`` holds the visit
    number of each update, from which per-pass statistics follow)."""

    order_rules: ClassVar[tuple[str, ...]] = ("cyclic", "random")

    def run(self, case: Case, order: Order) -> Record:
        rec = super().run(case, order)
        n = case.n
        # the pass of the last update, and a last pass without updates
        passes = rec.visits[-1] // n + 2 if rec.choices else 1
        if self.max_epochs is not None:
            passes = min(passes, self.max_epochs)
        rec.output["epochs"] = passes
        return rec


def survival_counts(rec: Record, n: int) -> list[int]:
    """How many visits each weight vector of a pass run survived (Freund & Schapire's
    ``c_j``: 1 for the visit that made it, plus each correct visit before the next
    update; the start counts only correct visits).

    >>> rec = Record(choices=[0, 1], visits=[0, 3], output={"epochs": 3})
    >>> survival_counts(rec, 2)
    [0, 3, 3]
    """
    visits = list(rec.visits)
    end = int(rec.output["epochs"]) * n
    counts = [visits[0] if visits else end]
    for a, b in zip(visits, [*visits[1:], end], strict=True):
        counts.append(b - a)
    return counts


# --- running a variant on the engine ----------------------------------------------------------


def _run_compiled(
    rule: LinearRule, case: Case, order: Order, budget: int, max_epochs: int | None
) -> tuple[Record, tuple[Fraction, ...]]:
    """The compiled loop; every chunk of updates measured (exact arrays, or enclosures of
    the ideal run in float mode) and handed to the harness's evaluation."""
    from ...engine.chunks import Chunks
    from ...engine.drive import drive, prepare

    data = case.dataset()
    rec = Record()
    mode = rec.mode
    world = prepare(data, rule, mode)
    factors = np.array([float(rule.eta * rule.factor(i)) for i in range(data.n)])
    measure = Chunks(world, case.u, start=rule.start(data.d), trigger_factors=factors)

    def on_chunk(k0: int, choices: Any, visits: Any) -> int | None:
        js = [int(j) for j in choices]
        m = measure(k0, choices)
        rec.chunks.append((k0, m))
        rec.choices.extend(js)
        if rec._ev is not None:
            keep = rec._ev.feed(k0, m, js)
            if keep is not None:
                rec.truncated = True
                del rec.choices[keep:]
                return int(keep)
        return None

    dec = drive(
        data,
        rule,
        order=order.engine(),
        seed=order.seed,
        budget=budget,
        mode=mode,
        on_chunk=on_chunk,
        detect_cycles=False,  # the data are separable: a run ends or exhausts its budget
        max_epochs=max_epochs,
        world=world,
    )
    rec.visits = [int(v) for v in dec.visits]
    rec.status = dec.status
    del rec.choices[dec.updates :]
    return rec, dec.w


class _VariantProblem(Problem):
    """A hand-written linear variant (its own ``triggers``/``step``/``score``) for the
    per-step path."""

    def __init__(self, variant: LinearVariant, case: Case) -> None:
        self.variant, self.case = variant, case
        self.n = case.n
        cls = type(variant)
        # what is declared is honoured where it is not replaced: tau and strict_trigger
        # by the default triggers, eta and factors by the default step
        self.rule = variant.rule(case)
        self.own_triggers = cls.triggers is not LinearVariant.triggers
        self.own_step = cls.step is not LinearVariant.step
        self.strict = self.rule.strict_flags(case.n)

    def start(self) -> Any:
        return list(self.variant.start(self.case))

    def score(self, state: Any, i: int) -> Any:
        x, y = self.case.X[i], self.case.y[i]
        return call_hook(
            self.variant.score,
            "score",
            state,
            x,
            y,
            expect=_is_number,
            expected="a number (the trigger value)",
        )

    def triggers(self, state: Any, i: int) -> bool:
        x, y = self.case.X[i], self.case.y[i]
        if self.own_triggers:
            fires = call_hook(
                self.variant.triggers,
                "triggers",
                state,
                x,
                y,
                expect=_is_bool,
                expected="a bool (does the point trigger an update?)",
            )
            return bool(fires)
        m = self.score(state, i) - self.rule.tau
        return bool(m < 0) if self.strict[i] else bool(m <= 0)

    def step(self, state: Any, j: int) -> Any:
        x, y = self.case.X[j], self.case.y[j]
        if self.own_step:
            z = call_hook(
                self.variant.step,
                "step",
                state,
                x,
                y,
                expect=_numbers(len(x), exact=False),
                expected=f"{len(x)} numbers (the increment z of w <- w + z)",
            )
        else:
            c = self.rule.factor(j) * y
            z = [c * v for v in x]
        return [a + b for a, b in zip(state, z, strict=True)]

    def weights(self, state: Any) -> tuple[Fraction, ...]:
        return tuple(_exact_value(v) for v in state)


def _exact_value(v: Any) -> Fraction:
    if isinstance(v, Fraction):
        return v
    if isinstance(v, np.generic):
        v = v.item()
    return Fraction(v)


class WeightTrace:
    """Weight vectors of a run in R^d, measured chunk by chunk as they come (doubling
    chunks) and handed to the harness's evaluation; :meth:`add` returns True when the
    run must stop (then :attr:`last` is the weight vector where it stopped).  Used by
    the per-step path and by the adapters of other implementations."""

    def __init__(self, rec: Record, case: Case, start: Sequence[Any]) -> None:
        self.rec, self.case = rec, case
        self.W: list[Sequence[Any]] = [list(start)]  # vectors after k0, k0 + 1, ... updates
        self.k0 = 0
        self.E: Any = None
        self.size = 16
        self.last: Sequence[Any] = list(start)

    def add(self, j: int, w: Sequence[Any]) -> bool:
        self.W.append(list(w))
        self.last = self.W[-1]
        self.rec.choices.append(j)
        if self.rec._ev is not None:
            self.rec._ev.progressed = time.monotonic()
        if len(self.W) - 1 >= self.size:
            self.size = min(2 * self.size, 4096)
            return self.flush()
        return False

    def flush(self) -> bool:
        """Measure the updates not yet measured; True when the run must stop."""
        from .measures import trace_measures

        K = len(self.W) - 1
        if K == 0:
            return False
        rec, k0 = self.rec, self.k0
        m = trace_measures(
            self.W, rec.choices[k0 : k0 + K], k0, self.case.u, mode=rec.mode, E0=self.E
        )
        self.E = m.pop("E", None)
        rec.chunks.append((k0, m))
        W = self.W
        self.k0, self.W = k0 + K, W[-1:]
        if rec._ev is not None:
            keep = rec._ev.feed(k0, m, rec.choices[k0 : k0 + K])
            if keep is not None:
                rec.truncated = True
                del rec.choices[keep:]
                self.last = W[keep - k0]
                return True
        return False


def _run_python(
    variant: LinearVariant, case: Case, order: Order, budget: int, max_epochs: int | None
) -> tuple[Record, tuple[Fraction, ...]]:
    return _run_traced(_VariantProblem(variant, case), case, order, budget, max_epochs)


def _run_traced(
    problem: Problem, case: Case, order: Order, budget: int, max_epochs: int | None
) -> tuple[Record, tuple[Fraction, ...]]:
    """Run ``problem`` (linear weights) on the per-step path, every update measured."""
    rec = Record()
    trace = WeightTrace(rec, case, problem.start())

    def stop(k: int, before: Any, after: Any, j: int) -> bool:
        return trace.add(j, after)

    res = run_problem(problem, order, budget, max_epochs, stop)
    if not rec.truncated:
        trace.flush()
    rec.visits = list(res.visits)[: len(rec.choices)]
    rec.status = "stopped" if rec.truncated else res.status
    w = trace.last if rec.truncated else res.w
    return rec, tuple(_exact_value(v) for v in w)


def run_problem(
    problem: Problem,
    order: Order,
    budget: int,
    max_epochs: int | None,
    stop: Callable[[int, Any, Any, int], bool],
) -> LoopResult:
    """Run any :class:`~pla_proof.engine.pyloop.Problem` on the engine's per-step path in
    ``order``; ``stop(k, before, after, j)`` sees every update (and may end the run)."""
    from ...engine.pyloop import loop

    seen = WATCHED.get()
    if seen is not None:
        inner = stop

        def stop(k: int, before: Any, after: Any, j: int) -> bool:
            seen.append((j, problem.weights(before), problem.weights(after)))
            return inner(k, before, after, j)

    return loop(
        problem,
        order=order.engine(),
        seed=order.seed,
        budget=budget,
        max_epochs=max_epochs,
        detect_cycles=False,
        stop=stop,
    )


#: While :func:`watching`: every update a per-step run makes, ``(j, before, after)``.
WATCHED: ContextVar[list[tuple[int, tuple[Fraction, ...], tuple[Fraction, ...]]] | None] = (
    ContextVar("WATCHED", default=None)
)


class watching:
    """Collect every update of the per-step runs made inside the block, as
    ``(j, w before, w after)`` (a diagnosis watches a variant's run this way).

    >>> one = Fraction(1)
    >>> case = Case(X=((one,),), y=(-1,), u=(-one,), gamma=one)
    >>> with watching() as seen:
    ...     _ = LinearVariant().run(case, Order("cyclic"))
    >>> seen
    [(0, (Fraction(0, 1),), (Fraction(-1, 1),))]
    """

    def __enter__(self) -> list[tuple[int, tuple[Fraction, ...], tuple[Fraction, ...]]]:
        self.seen: list[tuple[int, tuple[Fraction, ...], tuple[Fraction, ...]]] = []
        self._token = WATCHED.set(self.seen)
        return self.seen

    def __exit__(self, *exc: object) -> None:
        WATCHED.reset(self._token)


def bound_floor(pair: tuple[Any, Any]) -> int:
    """``floor(num/den)`` of a bound pair (a safe upper estimate for non-rational types)."""
    return max_updates(Claim(bound=pair)) or 0


def _is_rational(v: Any) -> bool:
    try:
        Fraction(v)
    except (TypeError, ValueError, OverflowError, ArithmeticError):
        return False
    return not isinstance(v, bool)


def _rational(hook: Any, name: str, case: Case, expected: str) -> Fraction:
    """``Fraction(hook(case))``, or a :class:`HookError` naming the hook."""
    return Fraction(call_hook(hook, name, case, expect=_is_rational, expected=expected))


def _is_number(v: Any) -> bool:
    return isinstance(v, numbers.Real | np.number) and not isinstance(v, bool | np.bool_)


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool | np.bool_)


def _numbers(d: int, *, positive: bool = False, exact: bool = True) -> Any:
    """``d`` numbers (rationals when ``exact``; each > 0 when ``positive``)."""
    number = _is_rational if exact else _is_number

    def ok(v: Any) -> bool:
        try:
            return (
                not isinstance(v, str | bytes)
                and len(v) == d
                and all(number(a) and (not positive or a > 0) for a in v)
            )
        except TypeError:
            return False

    return ok


def _flags(n: int) -> Any:
    def ok(v: Any) -> bool:
        try:
            return not isinstance(v, str | bytes) and len(v) == n and all(_is_bool(f) for f in v)
        except TypeError:
            return False

    return ok


def _budget_pair(v: Any) -> bool:
    return bool(
        isinstance(v, tuple | list)
        and len(v) == 2
        and isinstance(v[0], int | np.integer)
        and not isinstance(v[0], bool)
        and v[0] >= 0
        and _is_bool(v[1])
    )
