"""One seeded part of a search (:func:`search_shard`): the fixed cases, then rounds
of Hypothesis search over the variant's cases and orders.  Each failing property
raises its own exception, so Hypothesis shrinks every distinct failure separately
(its multi-bug reporting: distinct exceptions of a variant are distinct causes of
``RUNS``); a run stops at the first failure of a property not yet refuted, and the
search is repeated for the properties not yet refuted, so every failing property gets
its own minimal counterexample.  :func:`merge` makes one report of the shards.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import Flaky, HypothesisException

from ...errors import OutsideDomain
from ..boundary.calls import user_frames
from ..boundary.limits import DEFAULT_TIME_LIMIT, RunTimeout, past_deadline
from ..protocol.claim import Failure
from ..protocol.variant import Case, Order, Record, Variant
from .board import STALL_RUNS, Board
from .drawing import a_case, drawing, drawing_error, strategy_of
from .report import (
    HARNESS_PROPERTIES,
    CheckReport,
    Counterexample,
    PropertyResult,
    ShardResult,
    failure_order,
    keep_reason,
    property_order,
    statement_of,
)
from .run import run_case
from .symbolic import concrete, quiet, realized

__all__ = [
    "DEFAULT_EXAMPLES",
    "DEFAULT_SHARDS",
    "DEFAULT_SHRINK_RUNS",
    "merge",
    "search_shard",
    "shard_examples",
    "watch_runs",
]

#: Generated examples of a search round, unless asked otherwise (``check --examples``).
DEFAULT_EXAMPLES = 200
#: Independent seeded parts of a search (the unit of parallel work).
DEFAULT_SHARDS = 2
#: Runs of the variant a round may spend shrinking once it found a failure (a count,
#: not a time, so the result does not depend on the machine's load).
DEFAULT_SHRINK_RUNS = 1000


#: what is told of each run before it starts (:func:`watch_runs`)
_WATCH: list[Callable[[Case, Order], None]] = []


def watch_runs(tell: Callable[[Case, Order], None] | None) -> None:
    """Have ``tell(case, order)`` called before every run of a search in this process
    (``None``: no more): a worker process notes the run that may end it."""
    _WATCH[:] = [tell] if tell is not None else []


def _run_case(
    variant: Variant, case: Case, order: Order, **kw: Any
) -> tuple[Record, dict[str, Failure | None]]:
    for tell in _WATCH:
        tell(case, order)
    return run_case(variant, case, order, **kw)


class _Refuted(Exception):
    ce: Counterexample


_REFUTED: dict[str, type[_Refuted]] = {}


def _refuted(key: str) -> type[_Refuted]:
    cls = _REFUTED.get(key)
    if cls is None:
        cls = type(f"Refuted[{key}]", (_Refuted,), {})
        _REFUTED[key] = cls
    return cls


class _ShrinkSpent(BaseException):
    """The round's shrink budget is spent (a BaseException: Hypothesis lets it through
    instead of treating it as a failure to shrink)."""


class _Abort(Exception):
    """The search stops: the variant keeps exceeding the per-run time limit."""


def _settings(examples: int, backend: str = "hypothesis") -> settings:
    more: dict[str, Any] = {} if backend == "hypothesis" else {"backend": backend}
    return settings(
        **more,
        max_examples=examples,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=False,
        report_multiple_bugs=True,
        print_blob=False,
        verbosity=Verbosity.quiet,
        phases=(Phase.generate, Phase.target, Phase.shrink),
    )


def _cause(prop: str, f: Failure) -> str:
    if prop == "RUNS":  # one cause per exception type and place
        return "RUNS:" + f.message.split(": ", 1)[0] + f.message.rsplit("(at", 1)[-1]
    return prop


def search_shard(
    variant: Variant,
    *,
    examples: int,
    seed: int,
    shard: int = 0,
    fixed: Sequence[tuple[Case, Order]] = (),
    first_only: bool = False,
    mode: str = "exact",
    limit: float | None = DEFAULT_TIME_LIMIT,
    progress: Callable[[str], None] | None = None,
    ignore: Sequence[str] = (),
    shrink_runs: int | None = DEFAULT_SHRINK_RUNS,
    backend: str = "hypothesis",
    board: str | None = None,
) -> ShardResult:
    """One seeded part of a search: the fixed cases, then rounds of Hypothesis search
    (each round looks for the properties not yet refuted).  ``backend="crosshair"``: a
    first round drawn by CrossHair (:mod:`.symbolic`), its counterexamples replayed on
    plain values, then the ordinary rounds.  ``board``: the directory where the parts of
    this search post their smallest counterexamples (:mod:`.board`)."""
    out = ShardResult()
    t0 = time.perf_counter()
    explicit: dict[str, Counterexample] = {}
    for case, order in fixed:
        if out.timeouts >= 3:  # a variant that keeps hanging: ENDS is refuted already
            break
        if past_deadline():  # the check's time limit: what was done is the verdict
            out.stopped = True
            break
        try:
            rec, res = _run_case(variant, case, order, mode=mode, limit=limit)
        except OutsideDomain as exc:
            out.skip(exc)
            continue
        if res.get("ENDS") is not None:
            out.timeouts += 1
        out.note(rec, res)
        _account(out, rec)
        for prop, f in res.items():
            if f is not None and prop not in explicit:
                explicit[prop] = Counterexample(case, order, rec, f, explicit=True, shard=shard)
    strategy = strategy_of(variant, limit)
    refuted: set[str] = set(ignore)
    if backend != "hypothesis" and not out.stopped:
        symbolic = _symbolic_round(
            variant, strategy, examples, seed + 7919 * shard, refuted, out, mode, limit,
            shard, shrink_runs, backend,
        )  # fmt: skip
        for ce in symbolic:
            out.found.setdefault(ce.failure.prop, []).append(ce)
        refuted.update(ce.failure.prop for ce in symbolic)
        if first_only and symbolic:
            best = min(
                symbolic,
                key=lambda ce: (
                    *ce.size()[:3],
                    *failure_order(variant, ce.failure, ce.failure.prop),
                ),
            )
            out.caught_by = best.failure.prop
            for prop, ce in explicit.items():
                out.found.setdefault(prop, [ce])
            out.seconds = time.perf_counter() - t0
            return out
    r = 0
    while True:
        new = _round(
            variant,
            strategy,
            examples,
            seed + 7919 * shard + 104729 * r,
            refuted,
            out,
            mode,
            limit,
            progress,
            shard,
            shrink_runs,
            Board(board, shard) if board is not None else None,
        )
        r += 1
        new += _also_failing(variant, new, refuted, mode, limit, shard)
        fresh = [ce for ce in new if ce.failure.prop not in refuted]
        for ce in new:
            out.found.setdefault(ce.failure.prop, []).append(ce)
        if first_only:
            if new:
                best = min(
                    new,
                    key=lambda ce: (
                        *ce.size()[:3],
                        *failure_order(variant, ce.failure, ce.failure.prop),
                    ),
                )
                out.caught_by = best.failure.prop
            break
        if not fresh:
            break
        refuted.update(ce.failure.prop for ce in fresh)
        if out.timeouts >= 3 or out.stopped:
            break
    for prop, ce in explicit.items():
        if prop not in out.found:
            out.found[prop] = [ce]
    out.seconds = time.perf_counter() - t0
    return out


def _also_failing(
    variant: Variant,
    found: Sequence[Counterexample],
    refuted: set[str],
    mode: str,
    limit: float | None,
    shard: int,
) -> list[Counterexample]:
    """The other properties that fail on a round's shrunk counterexamples: each is
    refuted by that (already minimal) case too, even when the search would rarely
    draw such a case again."""
    taken = refuted | {ce.failure.prop for ce in found}
    more: list[Counterexample] = []
    for ce in found:
        if ce.failure.prop == "ENDS":
            continue
        try:
            rec, res = _run_case(variant, ce.case, ce.order, mode=mode, limit=limit)
        except OutsideDomain:
            continue
        for prop, f in sorted(res.items(), key=lambda kv: failure_order(variant, kv[1], kv[0])):
            if f is not None and prop not in taken and prop not in HARNESS_PROPERTIES:
                taken.add(prop)
                more.append(Counterexample(ce.case, ce.order, rec, f, shard=shard))
    return more


def _symbolic_round(
    variant: Variant,
    strategy: Any,
    examples: int,
    seed: int,
    ignore: set[str],
    out: ShardResult,
    mode: str,
    limit: float | None,
    shard: int,
    shrink_runs: int | None,
    backend: str,
) -> list[Counterexample]:
    """One round drawn by ``backend`` (:mod:`.symbolic`); each counterexample it finds
    is run again on plain values and kept only when the same property fails there."""
    runs = out.runs
    one = _Round(variant, ignore, out, mode, limit, None, shard, shrink_runs, backend)
    try:
        with quiet():
            found = one.search(strategy, examples, seed)
    except Exception:  # CrossHair could not go on (e.g. the clock stopped it inside its
        # own machinery): what it found is kept, and the ordinary rounds run
        found = [*one.timeouts, *one.best.values()]
        out.symbolic["stopped"] = out.symbolic.get("stopped", 0) + 1
    out.symbolic["runs"] = out.symbolic.get("runs", 0) + out.runs - runs
    kept: list[Counterexample] = []
    for ce in found:
        prop = ce.failure.prop
        try:
            rec, res = _run_case(variant, ce.case, ce.order, mode=mode, limit=limit)
        except OutsideDomain:
            res = {}
        again = res.get(prop)
        if again is None:
            out.symbolic["dropped"] = out.symbolic.get("dropped", 0) + 1
            continue
        out.symbolic["replayed"] = out.symbolic.get("replayed", 0) + 1
        kept.append(Counterexample(ce.case, ce.order, rec, again, shard=shard))
    return kept


def _account(out: ShardResult, rec: Record) -> None:
    out.max_missed = max(out.max_missed, rec.max_missed)
    out.undecided += rec.undecided


def _round(
    variant: Variant,
    strategy: Any,
    examples: int,
    seed: int,
    ignore: set[str],
    out: ShardResult,
    mode: str,
    limit: float | None,
    progress: Callable[[str], None] | None,
    shard: int,
    shrink_runs: int | None = None,
    board: Board | None = None,
) -> list[Counterexample]:
    """One round of Hypothesis search for the properties not in ``ignore``."""
    one = _Round(variant, ignore, out, mode, limit, progress, shard, shrink_runs)
    one.board = board
    return one.search(strategy, examples, seed)


class _Round:
    """A round: each drawn case is run (:meth:`try_case`); the first failure of a
    property not yet refuted raises its own exception, which Hypothesis shrinks.

    The shrink budget: once a failure is found, at most ``shrink_runs`` more runs of the
    variant, and no more once half that many in a row found no failing case (Hypothesis
    goes on trying what cannot fail any more: a one-point counterexample spent 995 of
    its 1000 runs so), nor once its counterexamples have not got smaller (fewer points or
    dimensions) for :data:`~.board.STALL_RUNS` runs while another part of the search
    already holds smaller ones (its :mod:`.board`); then the round ends with the smallest
    failing case of each cause (Hypothesis tries candidates smaller than the current
    best only: the last failing case of a cause is its best)."""

    def __init__(
        self,
        variant: Variant,
        ignore: set[str],
        out: ShardResult,
        mode: str,
        limit: float | None,
        progress: Callable[[str], None] | None,
        shard: int,
        shrink_runs: int | None,
        backend: str = "hypothesis",
    ) -> None:
        self.variant, self.ignore, self.out = variant, ignore, out
        self.backend = backend
        self.mode, self.limit, self.progress = mode, limit, progress
        self.shard, self.shrink_runs = shard, shrink_runs
        self.timeouts: list[Counterexample] = []
        self.best: dict[str, Counterexample] = {}
        self.spent = 0
        self.improved = 0  # the shrink run that last found a failing case
        self.shrunk = 0  # the shrink run that last found fewer points or dimensions
        self.board: Board | None = None  # where the other parts post theirs
        self.tick: Callable[[], None] = lambda: None

    def search(self, strategy: Any, examples: int, seed: int) -> list[Counterexample]:
        @_settings(examples, self.backend)
        @hypothesis_seed(seed)
        @given(strategy)
        def test(ex: tuple[Case, Order]) -> None:
            self.tick()  # a case was drawn
            try:
                self.try_case(*ex)
            finally:
                self.tick()

        found: list[Counterexample] = list(self.timeouts)
        try:
            with drawing(self.limit) as tick:
                self.tick = tick
                test()
        except _ShrinkSpent:
            found.extend(self.best.values())
        except _Refuted as e:
            found.append(e.ce)
        except BaseExceptionGroup as g:
            for leaf in _leaves(g):
                if isinstance(leaf, _Refuted):
                    found.append(leaf.ce)
                elif not isinstance(leaf, _Abort | Flaky | HypothesisException):
                    raise
        except (_Abort, Flaky, HypothesisException):
            pass
        except Exception as exc:
            if user_frames(exc):  # the variant's own strategy raised while drawing a case
                raise drawing_error(exc) from None
            raise
        found = [self.without_copies(ce) for ce in found]
        return found + [ce for ce in self.timeouts if ce not in found]

    def without_copies(self, ce: Counterexample) -> Counterexample:
        """The counterexample with its repeated points removed (the first of each kept,
        in order), where it fails the same way without them: a shrink that ran out of
        budget, or drew the points' sizes before the points, can leave copies that
        Hypothesis never deletes one by one.  One more run; the counterexample as it was
        where the copies matter (or the order names points, or a parameter is per point)."""
        case, order = ce.case, ce.order
        kept = [
            i
            for i, x in enumerate(case.X)
            if (x, case.y[i]) not in {(case.X[j], case.y[j]) for j in range(i)}
        ]
        per_point = any(
            isinstance(v, list | tuple) and len(v) == case.n for v in case.params.values()
        )
        if len(kept) == case.n or order.rule in ("choose", "replay") or per_point:
            return ce
        if ce.failure is None or ce.failure.prop == "ENDS" or past_deadline():
            return ce
        fewer = replace(case, X=tuple(case.X[i] for i in kept), y=tuple(case.y[i] for i in kept))
        try:
            rec, res = self.run(fewer, order)
        except (Exception, RunTimeout):  # (the counterexample as found)
            return ce
        f = res.get(ce.failure.prop)
        if f is None or _cause(ce.failure.prop, f) != _cause(ce.failure.prop, ce.failure):
            return ce
        return Counterexample(fewer, order, rec, f, shard=ce.shard)

    def beaten(self) -> bool:
        """Whether this round's shrink has stalled (no fewer points or dimensions for
        :data:`~.board.STALL_RUNS` runs) and another part holds smaller counterexamples
        of every cause it holds (:mod:`.board`)."""
        board = self.board
        if board is None or self.spent - self.shrunk < STALL_RUNS or not board.time_to_look():
            return False
        return board.beaten({c: ce.size()[:3] for c, ce in self.best.items()})

    def run(self, case: Case, order: Order) -> tuple[Record, dict[str, Failure | None]]:
        """One run of the variant, stopped at the first failure of a property not yet
        refuted, steered by its slacks."""
        return _run_case(
            self.variant,
            case,
            order,
            mode=self.mode,
            stop=lambda p: p not in self.ignore,
            limit=self.limit,
            aim=True,
        )

    def try_case(self, case: Case, order: Order) -> None:
        a_case(self.variant, case)
        out = self.out
        if out.timeouts >= 3:
            raise _Abort()
        if past_deadline():  # the check's time limit: the round ends with what it found
            out.stopped = True
            raise _ShrinkSpent()
        if self.best and self.shrink_runs is not None:
            stalled = self.spent - self.improved >= max(1, self.shrink_runs // 2)
            if self.spent >= self.shrink_runs or stalled or self.beaten():
                raise _ShrinkSpent()
            self.spent += 1
        try:
            rec, res = self.run(case, order)
        except OutsideDomain as outside:
            out.skip(outside)
            return
        out.note(rec, res)
        _account(out, rec)
        if self.progress is not None and out.runs % 25 == 0:
            self.progress(
                f"{self.variant.name}: {out.runs} runs, refuted so far: "
                + (", ".join(sorted(self.ignore)) or "none")
            )
        failing = [p for p, f in res.items() if f is not None and p not in self.ignore]
        self.steer(rec, failing)
        if failing:
            self.refute(case, order, rec, res, failing)

    def steer(self, rec: Record, failing: Sequence[str]) -> None:
        """Hypothesis's targets: more updates, and every inequality of the claim nearer
        its edge -- each property's smallest normalised slack over the run (its tightest
        update, :mod:`~pla_proof.monitor.slack`), under its own label.  Only on runs
        that end or reach their bound (a run stopped at the safety cap checks nothing
        more than a shorter one: steering there would fill the search with them), and
        not for a property this run already refutes."""
        if not rec.updates or not rec.complete or self.backend != "hypothesis":
            return  # (a symbolic backend steers itself)
        target(float(rec.updates), label="updates")
        for prop, slack in sorted(rec.tightest.items()):
            if prop not in failing and prop not in self.ignore and math.isfinite(slack):
                target(-slack, label=f"slack {prop}")

    def refute(
        self,
        case: Case,
        order: Order,
        rec: Record,
        res: dict[str, Failure | None],
        failing: list[str],
    ) -> None:
        """Raise the failure of the first property the run refuted (to be shrunk)."""
        prop = min(failing, key=lambda p: failure_order(self.variant, res[p], p))
        f = res[prop]
        assert f is not None
        if self.backend != "hypothesis":  # plain values, while CrossHair still traces
            case, order = concrete(case, order)
            rec, f = realized(rec), realized(f)
        ce = Counterexample(case, order, rec, f, shard=self.shard)
        if prop == "ENDS":  # not shrunk: every attempt would cost the whole time limit
            self.out.timeouts += 1
            if not self.timeouts:
                self.timeouts.append(ce)
            return
        cause = _cause(prop, f)
        self.improved = self.spent
        was = self.best.get(cause)
        if was is None or ce.size()[:2] < was.size()[:2]:
            self.shrunk = self.spent
        if was is None or ce.size()[:3] <= was.size()[:3]:
            self.best[cause] = ce  # (a failure of another cause met while shrinking may be larger)
            if self.board is not None:
                self.board.post({c: b.size()[:3] for c, b in self.best.items()})
        refuted = _refuted(cause)()
        refuted.ce = ce
        raise refuted


def _leaves(g: BaseExceptionGroup[Any]) -> list[BaseException]:
    out: list[BaseException] = []
    for e in g.exceptions:
        out.extend(_leaves(e) if isinstance(e, BaseExceptionGroup) else [e])
    return out


def merge(
    variant: Variant,
    parts: Sequence[ShardResult],
    *,
    examples: int,
    seed: int,
    mode: str,
    first_only: bool = False,
) -> CheckReport:
    """One report from the shards of a search (the same whatever ran them, in any order)."""
    report = CheckReport(variant.name, examples, seed, mode=mode)
    found: dict[str, list[Counterexample]] = {}
    seen: set[str] = set()
    evaluated: dict[str, int] = {}
    for part in parts:
        report.runs += part.runs
        report.inconclusive += part.inconclusive
        report.skipped += part.skipped
        for reason, count in part.skip_reasons.items():
            keep_reason(report.skip_reasons, reason, count)
        report.max_missed = max(report.max_missed, part.max_missed)
        report.undecided += part.undecided
        report.seconds += part.seconds
        report.slow += part.slow
        report.stopped = report.stopped or part.stopped
        for key, n in part.symbolic.items():
            report.symbolic[key] = report.symbolic.get(key, 0) + n
        for reason, count in part.slow_reasons.items():
            keep_reason(report.slow_reasons, reason, count)
        seen |= part.seen
        for p, n in part.evaluated.items():
            evaluated[p] = evaluated.get(p, 0) + n
        for p, ces in part.found.items():
            found.setdefault(p, []).extend(ces)
    if first_only:
        caught = [
            (p, ce)
            for part in parts
            if part.caught_by
            for p, ces in part.found.items()
            if p == part.caught_by
            for ce in ces
            if not ce.explicit
        ]
        if not caught:  # nothing generated failed: a fixed example may have
            caught = [(p, ce) for p, ces in found.items() for ce in ces if ce.explicit]
        if caught:
            report.caught_by = min(
                caught, key=lambda t: (*t[1].size(), *failure_order(variant, t[1].failure, t[0]))
            )[0]
    for prop in sorted(seen | set(found), key=property_order):
        text, lem = statement_of(variant, prop)
        ces = sorted(found.get(prop, []), key=lambda ce: (ce.explicit, *ce.size()))
        best = ces[0] if ces else None
        others = []
        if prop == "RUNS" and best is not None:
            causes = {_cause(prop, best.failure)}
            for ce in ces[1:]:
                c = _cause(prop, ce.failure)
                if c not in causes:
                    causes.add(c)
                    others.append(ce)
        report.properties.append(
            PropertyResult(prop, text, lem, best, others, evaluated.get(prop, 0))
        )
    if all(p.ok for p in report.properties):
        report.properties = [
            p for p in report.properties if p.id not in HARNESS_PROPERTIES or p.runs
        ]
    return report


def shard_examples(examples: int, shards: int) -> list[int]:
    """How ``examples`` are split over ``shards`` (each at least 1)."""
    base = max(1, math.ceil(examples / shards))
    return [base] * shards
