"""The variant protocol: an update rule plus the claim it makes.

Every additive Perceptron variant fits the generic lemma (docs/facts.md): if each update
``w <- w + z`` satisfies (G1) ``|w + z|^2 - |w|^2 <= C`` and (G2) ``u.z >= g > 0``
for a fixed comparator ``u``, then after ``k`` updates from ``w_0``
``u.w_k >= u.w_0 + k g`` (P_k) and ``|w_k|^2 <= |w_0|^2 + k C`` (Q_k); from
``w_0 = 0`` Cauchy-Schwarz gives ``k <= C |u|^2 / g^2`` (homogeneous in ``u``).

A variant is a :class:`Variant`: it draws :class:`Case` objects (data with a known
comparator), runs its algorithm in a given :class:`Order`, reports one
:class:`Measure` per update, and states its :class:`Claim`.  The harness
(:mod:`pla_proof.variants.harness`) checks the claim; it never trusts the variant's
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
>>> [(m.k, m.n1 - m.n0, m.pu1 - m.pu0) for m in rec.steps]
[(1, Fraction(4, 1), Fraction(2, 1))]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from hypothesis import strategies as st

from ..data import Dataset
from ..engine.orders import Chooser
from ..engine.pyloop import LoopResult, Problem
from ..engine.rule import LinearRule
from ..errors import InputError
from ..numbers import dot, norm2

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

    @property
    def radius_squared(self) -> Fraction:
        """R^2 = max_i |x_i|^2 of the points as stored in the case."""
        return max((Fraction(norm2(x)) for x in self.X), default=Fraction(0))

    @property
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

    ``end`` holds the end-of-run measurements: ``m`` (min over points of the returned
    predictor's signed margin, for ``SEP``), ``j`` (the point attaining it) and any
    variant-specific values; ``checks`` maps extra property ids to a failure message
    (or ``None`` when the property held); ``complete`` is False when the run hit the
    harness's safety cap before the claimed bound (an inconclusive example).
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

    def add(self, m: Measure) -> bool:
        """Record an update; True when the run should stop (the harness's search has
        already seen a targeted property fail -- the run is then ``truncated``)."""
        self.steps.append(m)
        self.choices.append(m.j)
        return self.should_stop()

    def should_stop(self) -> bool:
        """True when the harness asks this run to stop early (see :meth:`add`)."""
        hook = _STOP.get()
        if hook is not None and hook(self):
            self.truncated = True
            return True
        return False


#: Set by the harness during a search: a predicate on the partial record.
_STOP: ContextVar[Callable[[Record], bool] | None] = ContextVar(
    "pla_proof_variant_stop", default=None
)


def same_updates(rec: Record, ref: Record, ref_name: str) -> str | None:
    """The ``EQ`` check: ``None`` when ``rec`` made the same updates (same points, same
    order) as the reference run ``ref``, else a message (1-based point indices)."""
    if ref.choices == rec.choices:
        return None
    mine = [j + 1 for j in rec.choices]
    theirs = [j + 1 for j in ref.choices]
    return f"updates {mine} != {ref_name} {theirs}"


@dataclass(frozen=True)
class Claim:
    """What a variant claims on one case.

    ``C``/``g``: the generic lemma's constants (``None``: not claimed); ``uu``: ``|u|^2``
    for the Cauchy-Schwarz step and the bound; ``pu0``/``n0``: ``u.w_0`` and
    ``|w_0|^2`` of the start.  ``bound``: the claimed maximum number of updates
    (default, from ``w_0 = 0``: ``C uu / g^2``); ``strict`` makes it ``k < bound``.
    ``end``: ``"SEP"`` (the returned predictor separates strictly), ``"SEP0"``
    (predicts every label, sign(0) = +1) or ``None``.
    """

    C: Any = None
    g: Any = None
    uu: Any = None
    pu0: Any = 0
    n0: Any = 0
    bound: Any = None
    strict: bool = False
    end: str | None = "SEP"

    def bound_pair(self) -> tuple[Any, Any] | None:
        """The bound as ``(num, den)`` with ``k * den <= num`` (no division needed)."""
        if self.bound is not None:
            if isinstance(self.bound, tuple):
                return self.bound
            return (self.bound, 1)
        if self.C is not None and self.g is not None and self.uu is not None:
            if self.pu0 != 0 or self.n0 != 0:
                return None
            return (self.C * self.uu, self.g * self.g)
        return None


class Variant:
    """Base class of every variant (the protocol).

    Subclasses set ``name``/``summary``/``source`` and implement :meth:`cases`,
    :meth:`run` and :meth:`claim`.  ``order_rules`` lists the orders the variant
    accepts; ``examples()`` gives fixed cases checked before the random search.
    """

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

    def orders(self) -> Any:
        return orders(self.order_rules)

    def run(self, case: Case, order: Order) -> Record:
        raise NotImplementedError

    def claim(self, case: Case) -> Claim:
        raise NotImplementedError

    def trace_args(self, case: Case) -> list[str] | None:
        """Extra ``pla-proof trace`` options that replay a run on the saved CSV, or
        ``None`` when ``trace`` cannot run this variant."""
        if not self.classic_dynamics:
            return None
        return []

    def __repr__(self) -> str:
        return f"<variant {self.name}>"


def _separable_cases() -> Any:
    """Separable cases: :func:`pla_proof.strategies.separable_datasets` (points pushed
    to a margin) or small points labelled by the sign of ``u.x`` (small margins)."""
    from ..strategies import separable_datasets

    pushed = separable_datasets(min_n=1, max_n=6, min_d=1, max_d=3, max_coord=6).map(
        lambda c: Case(c.data.X, c.data.y, c.u, c.gamma, {}, "generated")
    )
    return st.one_of(pushed, _sign_labelled())


@st.composite
def _sign_labelled(draw: Any) -> Case:
    d = draw(st.integers(1, 3))
    u = draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d).filter(any))
    pts = draw(
        st.lists(st.lists(st.integers(-3, 3), min_size=d, max_size=d), min_size=1, max_size=6)
    )
    X = [tuple(Fraction(a) for a in p) for p in pts if dot(u, p) != 0]
    y = [1 if dot(u, p) > 0 else -1 for p in pts if dot(u, p) != 0]
    if not X:  # keep the example: a single point on the positive side
        X, y = [tuple(Fraction(a) for a in u)], [1]
    uf = tuple(Fraction(a) for a in u)
    gamma = min(yi * dot(uf, x) for x, yi in zip(X, y, strict=True))
    return Case(tuple(X), tuple(y), uf, Fraction(gamma), {}, "sign-labelled")


def orthonormal_cases(sizes: Sequence[int] = (1, 2, 3)) -> list[Case]:
    """The data attaining the bound: ``x_i = e_i``, alternating labels, ``u = sum y_i e_i``."""
    out = []
    for n in sizes:
        X = tuple(tuple(Fraction(int(i == j)) for j in range(n)) for i in range(n))
        y = tuple(1 if i % 2 == 0 else -1 for i in range(n))
        u = tuple(Fraction(v) for v in y)
        out.append(Case(X, y, u, Fraction(1), {}, f"orthonormal:{n}"))
    return out


class LinearVariant(Variant):
    """An additive variant in R^d, run by the engine.

    A built-in linear variant only *declares* its rule -- :meth:`eta`, :meth:`tau`,
    :meth:`start`, :meth:`factors`, :meth:`strict_trigger` -- and the compiled loop runs
    it.  A variant written by hand may instead override :meth:`triggers`, :meth:`step`
    or :meth:`score` in Python; it then runs on the engine's per-step path (same
    selection rules, same record).  Either way every update is measured exactly
    against the case's comparator, and the run stops when no trigger fires.
    """

    name: ClassVar[str] = "linear"
    classic_dynamics: ClassVar[bool] = False
    #: Updates beyond this (and beyond the claimed bound) make a run inconclusive.
    cap: ClassVar[int] = 2_000
    #: At most this many passes over the data (None: no limit; the budget still holds).
    max_epochs: ClassVar[int | None] = None

    def cases(self) -> Any:
        return _separable_cases()

    def examples(self) -> Sequence[Case]:
        return orthonormal_cases()

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
        """The variant as a rule of the compiled loop."""
        return LinearRule(
            Fraction(self.eta(case)),
            Fraction(self.tau(case)),
            tuple(Fraction(v) for v in self.start(case)),
            self.factors(case),
            self.strict_trigger(case),
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

    def end_margin(self, w: Sequence[Any], case: Case) -> tuple[Any, int]:
        """``(min_i y_i w.x_i, argmin)`` of the returned weights (for ``SEP``)."""
        return case.dataset().min_margin([Fraction(v) for v in w])

    def budget(self, case: Case) -> tuple[int, bool]:
        """``(updates allowed, conclusive)``: one past the claimed bound when that is
        at most :attr:`cap` (exceeding it then refutes the bound), else the cap
        (hitting it makes the example inconclusive)."""
        pair = self.claim(case).bound_pair()
        if pair is None:
            return self.cap, False
        b = bound_floor(pair) + 1
        return (b, True) if b <= self.cap else (self.cap, False)

    def run(self, case: Case, order: Order) -> Record:
        budget, conclusive = self.budget(case)
        if self.written_in_python():
            rec, w = _run_python(self, case, order, budget, self.max_epochs)
        else:
            rec, w = _run_compiled(self.rule(case), case, order, budget, self.max_epochs)
        if rec.status == "budget_exhausted":
            rec.complete = conclusive
        self._finish(rec, case, w)
        return rec

    def _finish(self, rec: Record, case: Case, w: Sequence[Any]) -> None:
        m, jm = self.end_margin(w, case)
        rec.end.update(m=m, j=jm)
        rec.output["w"] = tuple(w)


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


def _measures_to_steps(rec: Record, measures: dict[str, Any], choices: Sequence[int]) -> bool:
    """Add one :class:`Measure` per update of a measured chunk; True when the harness
    asks to stop."""
    k = measures["k"].values()
    t = measures["t"].values()
    pu = measures["pu"].values()
    pu1 = measures["pu1"].values()
    n0 = measures["n0"].values()
    n1 = measures["n1"].values()
    for i, j in enumerate(choices):
        if rec.add(Measure(int(k[i]), int(j), t[i], pu[i], pu1[i], n0[i], n1[i])):
            return True
    return False


def _run_compiled(
    rule: LinearRule, case: Case, order: Order, budget: int, max_epochs: int | None
) -> tuple[Record, tuple[Fraction, ...]]:
    from ..engine.drive import drive
    from ..engine.measure import exact_measures, last_weights

    data = case.dataset()
    rec = Record()
    su = math.lcm(*(v.denominator for v in case.u)) if case.u else 1
    U = [int(v * su) for v in case.u]
    state: dict[str, Any] = {}

    def on_chunk(k0: int, choices: Any, visits: Any) -> int | None:
        world = state["world"]
        V = state.setdefault("V", list(world.scales.V0))
        m = exact_measures(world, choices, k0, V, U, su)
        state["V"] = last_weights(world, choices, V)
        before = len(rec.steps)
        if _measures_to_steps(rec, m, [int(j) for j in choices]):
            return len(rec.steps) if len(rec.steps) > before else k0 + 1
        return None

    from ..engine.drive import _world

    state["world"] = _world(data, rule, "exact")
    dec = drive(
        data,
        rule,
        order=order.engine(),
        seed=order.seed,
        budget=budget,
        on_chunk=on_chunk,
        detect_cycles=False,
        max_epochs=max_epochs,
    )
    rec.visits = [int(v) for v in dec.visits]
    rec.status = dec.status
    del rec.steps[dec.updates :]
    del rec.choices[dec.updates :]
    return rec, dec.w


class _VariantProblem(Problem):
    """A hand-written linear variant (its own ``triggers``/``step``/``score``) for the
    per-step path."""

    def __init__(self, variant: LinearVariant, case: Case) -> None:
        self.variant, self.case = variant, case
        self.n = case.n

    def start(self) -> Any:
        return [Fraction(v) for v in self.variant.start(self.case)]

    def score(self, state: Any, i: int) -> Any:
        return self.variant.score(state, self.case.X[i], self.case.y[i])

    def triggers(self, state: Any, i: int) -> bool:
        return bool(self.variant.triggers(state, self.case.X[i], self.case.y[i]))

    def step(self, state: Any, j: int) -> Any:
        z = self.variant.step(state, self.case.X[j], self.case.y[j])
        return [a + b for a, b in zip(state, z, strict=True)]


def _run_python(
    variant: LinearVariant, case: Case, order: Order, budget: int, max_epochs: int | None
) -> tuple[Record, tuple[Fraction, ...]]:
    rec = Record()
    u = case.u
    problem = _VariantProblem(variant, case)

    def stop(k: int, before: Any, after: Any, j: int) -> bool:
        t = variant.score(before, case.X[j], case.y[j])
        return rec.add(Measure(k, j, t, dot(u, before), dot(u, after), norm2(before), norm2(after)))

    res = run_problem(problem, order, budget, max_epochs, stop)
    rec.visits = list(res.visits)
    rec.status = res.status
    return rec, res.w


def run_problem(
    problem: Problem,
    order: Order,
    budget: int,
    max_epochs: int | None,
    stop: Callable[[int, Any, Any, int], bool],
) -> LoopResult:
    """Run any :class:`~pla_proof.engine.pyloop.Problem` on the engine's per-step path in
    ``order``; ``stop(k, before, after, j)`` sees every update (and may end the run)."""
    from ..engine.pyloop import loop

    return loop(
        problem,
        order=order.engine(),
        seed=order.seed,
        budget=budget,
        max_epochs=max_epochs,
        detect_cycles=False,
        stop=stop,
    )


def bound_floor(pair: tuple[Any, Any]) -> int:
    """``floor(num/den)`` for Fractions, or a safe upper estimate for other exact types."""
    num, den = pair
    if isinstance(num, int | Fraction) and isinstance(den, int | Fraction):
        if den <= 0:
            return 0
        q = Fraction(num) / Fraction(den)
        return max(0, q.numerator // q.denominator)
    hi = getattr(num, "upper", lambda: float(num))()
    lo = getattr(den, "lower", lambda: float(den))()
    if lo <= 0:
        return 0
    return max(0, int(hi / lo) + 1)
