"""The checking harness: a variant's claim evaluated on its own runs, then searched.

:func:`run_case` runs a variant once and evaluates its claim (:mod:`.claims`: the
generic lemma's G1, G2, P_k, Q_k, Cauchy-Schwarz L4 and the bound T, evaluated by the
run-time monitor on the quantities measured from the run's vectors; the end
condition SEP or SEP0; the variant's own properties).  Two properties are the
harness's own: ``RUNS`` (the variant runs on every valid case: an exception is a
failure, reported as one line) and ``ENDS`` (a run finishes: it is interrupted, even
in a Python loop that never returns, after the per-run time limit without an update or
10 times that limit in all).

:func:`search` runs Hypothesis over the variant's cases and orders.  Each failing
property raises its own exception, so Hypothesis shrinks every distinct failure
separately (its multi-bug reporting: distinct exceptions of a variant are distinct
causes of ``RUNS``); a run stops at the first failure of a property not yet refuted,
and the search is repeated for the properties not yet refuted, so every failing
property gets its own minimal counterexample.  The search is split into ``shards``
independent seeded parts (the same for any number of processes; see :mod:`.parallel`).

>>> from pla_proof.variants.registry import resolve
>>> report = search(resolve("classic"), examples=20, seed=1)
>>> report.ok, [p.id for p in report.properties][:6]
(True, ['RUNS', 'ENDS', 'G1', 'G2', 'P_k', 'Q_k'])
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Flaky, HypothesisException

from ..engine._jit import compile_seconds, watch
from ..errors import InputError, OutsideDomain
from ..interrupts import safe_to_interrupt
from ..proof.runtime import lemma
from .claims import Claim, Evaluation, Failure, show
from .declared import assumption_holds
from .protocol import _EVAL, Case, Order, Record, Variant

__all__ = [
    "DEFAULT_SHARDS",
    "DEFAULT_SHRINK_RUNS",
    "DEFAULT_TIME_LIMIT",
    "GENERIC_PROPERTIES",
    "CheckReport",
    "Counterexample",
    "Failure",
    "PropertyResult",
    "evaluate",
    "float_case",
    "run_case",
    "search",
]

#: id -> (lemma it instantiates, statement)
GENERIC_PROPERTIES: dict[str, tuple[str, str]] = {
    "RUNS": ("harness", "the variant runs on every valid case (no exception)"),
    "ENDS": ("harness", "every run finishes: an update at least every --run-seconds"),
    "G1": ("generic lemma G1 (classic: L6)", "growth |w_{k+1}|^2 - |w_k|^2 <= C at every update"),
    "G2": ("generic lemma G2 (classic: L2)", "progress u.w_{k+1} - u.w_k >= g at every update"),
    "P_k": ("P_G (classic: L3)", "u.w_{k+1} >= u.w_1 + k g after k updates"),
    "Q_k": ("Q_G (classic: L7)", "|w_{k+1}|^2 <= |w_1|^2 + k C after k updates"),
    "L4": ("L4", "Cauchy-Schwarz (u.w)^2 <= |u|^2 |w|^2"),
    "T": ("T_G (classic: T)", "number of updates k within the claimed bound"),
    "SEP": ("SEP", "the returned predictor separates every point strictly"),
    "SEP0": ("the DSC 255 handout", "the returned (w, b) predicts every label, with sign(0) = +1"),
}
#: The per-run time limit (seconds) of a search run: a run that makes no update for
#: this long, or runs :data:`TOTAL_FACTOR` times as long in all, fails ``ENDS``.
DEFAULT_TIME_LIMIT = 5.0
TOTAL_FACTOR = 10
#: Independent seeded parts of a search (the unit of parallel work).
DEFAULT_SHARDS = 2
#: Runs of the variant a round may spend shrinking once it found a failure (a count,
#: not a time, so the result does not depend on the machine's load).
DEFAULT_SHRINK_RUNS = 1000
_HARNESS = ("RUNS", "ENDS")


class RunTimeout(BaseException):
    """Raised inside a run that exceeds the per-run time limit."""


class time_limit:
    """Interrupt the enclosed code after ``seconds`` (a SIGALRM timer; in the main
    thread only -- elsewhere the limit does not apply).

    With ``progress`` (a function giving the ``time.monotonic()`` of the last sign of
    progress, e.g. the last update of a run), the code is interrupted only after
    ``seconds`` without progress, or after ``total`` seconds in all: a slow run that
    keeps making updates on a loaded machine is not a run that never ends.

    Time spent compiling the engine's loops does not count, and the code is never
    interrupted inside the compiler (that would leave a half-built loop behind); once
    the time is up the timer keeps firing every 50 ms, so an interruption that lands
    where an exception is swallowed (a callback) is repeated.  On exit the timer is
    disarmed before anything else can be interrupted (a late signal is ignored), and a
    timer that was running before (an outer limit's, another library's) is put back with
    the time it had left.

    >>> import signal
    >>> before = signal.getitimer(signal.ITIMER_REAL)[0]  # another timer's, if one runs
    >>> with time_limit(0.2):
    ...     while True:
    ...         pass
    Traceback (most recent call last):
    ...
    pla_proof.variants.harness.RunTimeout
    >>> after = signal.getitimer(signal.ITIMER_REAL)[0]
    >>> after == before == 0.0 or 0.0 < after <= before
    True
    """

    def __init__(
        self,
        seconds: float | None,
        *,
        progress: Callable[[], float] | None = None,
        total: float | None = None,
    ) -> None:
        self.seconds = seconds
        self.progress = progress
        self.total = total
        self.armed = False
        self.stalled = False  # True when it fired for want of progress (not ``total``)
        self._old_handler: Any = None
        self._old_timer = (0.0, 0.0)
        self._start = 0.0
        self._compiled = 0.0

    def _expired(self, signum: int, frame: Any) -> None:
        if not self.armed or frame.f_code is _EXIT_CODE or not safe_to_interrupt(frame):
            return  # (in the compiler or a GC callback: the timer fires again in 50 ms)
        assert self.seconds is not None
        now = time.monotonic()
        compiling = compile_seconds() - self._compiled
        if self.progress is None:
            if now - self._start - compiling < self.seconds:
                return
        else:
            quiet = now - max(self._start, self.progress()) - compiling
            whole = now - self._start - compiling
            if quiet < self.seconds and (self.total is None or whole < self.total):
                return
            self.stalled = quiet >= self.seconds
        raise RunTimeout()

    def __enter__(self) -> time_limit:
        if not self.seconds or threading.current_thread() is not threading.main_thread():
            return self
        watch()
        self._start, self._compiled = time.monotonic(), compile_seconds()
        self._old_handler = signal.signal(signal.SIGALRM, self._expired)
        self.armed = True
        self._old_timer = signal.setitimer(signal.ITIMER_REAL, self.seconds, 0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.armed:
            return
        self.armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._old_handler)
        delay, interval = self._old_timer
        if delay > 0:  # an outer timer: re-armed with what it had left (at least 1 ms)
            left = delay - (time.monotonic() - self._start)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), interval)


_EXIT_CODE = time_limit.__exit__.__code__


def one_line(exc: BaseException) -> str:
    """An exception as one line: type, message and where it was raised.

    >>> try:
    ...     1 / 0
    ... except ZeroDivisionError as e:
    ...     one_line(e).split(" (")[0]
    'ZeroDivisionError: division by zero'
    """
    msg = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {msg[0]}" if msg else type(exc).__name__
    tb = traceback.extract_tb(exc.__traceback__)
    if tb:
        fr = tb[-1]
        text += f" (at {fr.filename.rsplit('/', 1)[-1]}:{fr.lineno})"
    return text


def float_case(case: Case) -> Case | None:
    """The case with every coordinate rounded to float64 (its margin measured again);
    ``None`` when the comparator no longer separates the rounded data."""
    X = tuple(tuple(Fraction(float(v)) for v in x) for x in case.X)
    if X == case.X:
        return case
    margins = [
        yi * sum((a * b for a, b in zip(case.u, x, strict=True)), Fraction(0))
        for x, yi in zip(X, case.y, strict=True)
    ]
    if not margins or min(margins) <= 0:
        return None
    return Case(X, case.y, case.u, min(margins), dict(case.params), case.name)


def run_case(
    variant: Variant,
    case: Case,
    order: Order,
    *,
    mode: str = "exact",
    stop: Callable[[str], bool] | None = None,
    limit: float | None = None,
) -> tuple[Record, dict[str, Failure | None]]:
    """Run ``variant`` on one case in one order and evaluate its claim: ``{property:
    first failure or None}`` for every property of the claim (``record.evaluated`` says
    which of them the run actually decided).  ``stop(prop)``: end the run at the first
    failure of a property it names; ``limit``: the per-run time limit in seconds.

    Raises :class:`~pla_proof.errors.OutsideDomain` (and nothing else) for a case the
    variant does not apply to; any exception from the variant's own code is a ``RUNS``
    failure."""
    if mode == "float":
        fc = float_case(case)
        if fc is None:
            raise OutsideDomain("the comparator does not separate the data rounded to float64")
        case = fc
    for text in getattr(variant, "assumes", ()) or ():  # what the proof of the claim assumes
        if not assumption_holds(text, case):
            raise OutsideDomain(f"the case does not satisfy the variant's assumption {text}")
    try:
        claim = variant.claim(case)
    except OutsideDomain:
        raise  # a case outside the variant's domain
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        return _broken("RUNS", "claim() raised " + one_line(exc))
    ev = Evaluation(claim, mode=mode, stop=stop)
    token = _EVAL.set(ev)
    rec: Record | None = None
    problem: Failure | None = None
    clock = time_limit(
        limit,
        progress=lambda: ev.last_progress(),
        total=None if limit is None else TOTAL_FACTOR * limit,
    )
    try:
        with clock:
            rec = variant.run(case, order)
            if not isinstance(rec, Record):
                raise TypeError(f"run() returned {type(rec).__name__}, not a Record")
            if rec._ev is not ev:  # the run returned a record it did not make first
                rec = _re_evaluate(rec, claim, mode, stop)
                ev = rec._ev
            ev.feed_steps(rec.steps[rec._fed :]) if rec.steps else None
    except RunTimeout:
        assert limit is not None
        done = ev.record.updates if isinstance(ev.record, Record) else 0
        why = (
            f"no update for {limit:g} s (after {done} update(s))"
            if clock.stalled
            else f"no result after {TOTAL_FACTOR * limit:g} s ({done} update(s))"
        )
        problem = Failure("ENDS", None, None, None, "", None, why)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        problem = Failure("RUNS", None, None, None, "", None, "raised " + one_line(exc))
    finally:
        _EVAL.reset(token)
    if problem is not None:
        partial = ev.record if isinstance(ev.record, Record) else Record()
        partial._ev = None
        out: dict[str, Failure | None] = dict.fromkeys(_HARNESS)
        out[problem.prop] = problem
        partial.evaluated = frozenset(_HARNESS)
        return partial, out
    assert rec is not None
    try:
        res = _results(variant, case, claim, ev, rec)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # the variant's predictor (decision()) or its record
        return _broken("RUNS", _end_problem(exc))
    rec.max_missed, rec.undecided = ev.max_missed, len(ev.undecided)
    rec._ev = None
    return rec, res


def _broken(prop: str, message: str) -> tuple[Record, dict[str, Failure | None]]:
    out: dict[str, Failure | None] = dict.fromkeys(_HARNESS)
    out[prop] = Failure(prop, None, None, None, "", None, message)
    rec = Record()
    rec.evaluated = frozenset(_HARNESS)
    return rec, out


def _end_problem(exc: BaseException) -> str:
    if isinstance(exc, NoPredictor):
        return str(exc)
    return "the end of the run raised " + one_line(exc)


class NoPredictor(InputError):
    """The run returned nothing the end condition can judge."""


def _re_evaluate(
    rec: Record, claim: Claim, mode: str, stop: Callable[[str], bool] | None
) -> Record:
    ev = Evaluation(claim, mode=mode, stop=None)
    for k0, m in rec.chunks:
        ev.feed(
            k0,
            m,
            rec.choices[k0 : k0 + len(m["k"].values() if hasattr(m["k"], "values") else m["k"].lo)],
        )
    rec._ev = ev
    rec._fed = 0
    ev.record = rec
    return rec


#: The claim's properties that are decided at every update: a run without updates
#: does not evaluate them.
_PER_UPDATE = frozenset({"G1", "G2", "P_k", "Q_k", "L4"})


def _results(
    variant: Variant, case: Case, claim: Claim, ev: Evaluation, rec: Record
) -> dict[str, Failure | None]:
    out: dict[str, Failure | None] = dict.fromkeys(_HARNESS)
    evaluated = set(_HARNESS)
    for p in ev.properties:
        out[p] = ev.failures.get(p)
        if p not in _PER_UPDATE or rec.updates or p in ev.failures:
            evaluated.add(p)
    # the end condition judges what the algorithm returned, not a run the harness cut off
    # one update past the claimed bound (that run is T's counterexample; a variant's own
    # smaller budget, a hard-coded max_iter, is what it returns)
    past_bound = rec.status == "budget_exhausted" and out.get("T") is not None
    returned = rec.complete and not rec.truncated and not past_bound
    if claim.end is not None and returned:
        out[claim.end] = end_condition(variant, case, claim.end, rec)
        evaluated.add(claim.end)
    elif claim.end is not None:
        out[claim.end] = None
    for prop, msg in rec.checks.items():
        out[prop] = None if msg is None else Failure(prop, None, None, None, "", None, msg)
        evaluated.add(prop)
    rec.evaluated = frozenset(evaluated)
    return out


def decision_values(variant: Variant, case: Case, rec: Record) -> list[Any] | None:
    """The returned predictor's values ``f(x_i)`` on the case's points: the variant's
    ``decision()`` when it has one, else ``w.x_i + b`` from ``output["w"]`` (and
    ``output["b"]``), or ``end["values"]``; ``None`` when the record gives none."""
    decide = getattr(variant, "decision", None)
    if callable(decide):
        vals = decide(case, rec.output)
        if vals is not None:
            return list(vals)
    if "values" in rec.end:
        return list(rec.end["values"])
    w = rec.output.get("w")
    if w is None:
        return None
    if len(w) != case.d:
        raise NoPredictor(
            f"output['w'] has {len(w)} coordinate(s) but the points have {case.d}: set "
            "output['b'] for a bias, or define decision(case, output)"
        )
    b = rec.output.get("b", 0)
    return [sum((a * v for a, v in zip(w, x, strict=True)), Fraction(0)) + b for x in case.X]


def end_condition(variant: Variant, case: Case, end: str, rec: Record) -> Failure | None:
    """``SEP`` (the proof's end lemma, ``m > 0``) or ``SEP0`` on the returned predictor."""
    if end == "SEP":
        if "m" in rec.end:
            m, j = rec.end["m"], rec.end.get("j")
        else:
            vals = decision_values(variant, case, rec)
            if vals is None:
                raise NoPredictor(
                    "the run returned no predictor: set output['w'] (and output['b']) or "
                    "end['m'], or define decision(case, output)"
                )
            margins = [yi * v for yi, v in zip(case.y, vals, strict=True)]
            m = min(margins)
            j = margins.index(m)
        if lemma("SEP").holds({"m": m}):
            return None
        return Failure("SEP", None, j, m, ">", 0, f"min_i y_i f(x_i) = {show(m)}, not > 0")
    if end == "SEP0":
        vals = decision_values(variant, case, rec)
        if vals is None:
            raise NoPredictor(
                "the run returned no predictor: set output['w'] (and output['b']), or define "
                "decision(case, output)"
            )
        for i, (v, yi) in enumerate(zip(vals, case.y, strict=True)):
            if (1 if v >= 0 else -1) != yi:
                return Failure(
                    "SEP0", None, i, v, "", "", f"f(x) = {show(v)} predicts {-yi}, label {yi}"
                )
        return None
    raise InputError(f"unknown end condition {end!r} (SEP, SEP0 or None)")


def evaluate(
    claim: Claim,
    record: Record,
    *,
    variant: Variant | None = None,
    case: Case | None = None,
) -> dict[str, Failure | None]:
    """Every claimed property on a finished run: ``{id: first failure or None}``.

    >>> from fractions import Fraction as F
    >>> from pla_proof.variants.protocol import Measure
    >>> rec = Record(steps=[Measure(1, 0, F(0), F(0), F(1), F(0), F(4))], end={"m": F(1), "j": 0})
    >>> res = evaluate(Claim(C=F(1), g=F(1), uu=F(1)), rec)
    >>> res["G1"].describe()
    'G1 fails at update k=1 (point 1): 4 <= 1 is false'
    >>> res["G2"] is None
    True
    """
    ev = Evaluation(claim, mode=record.mode)
    for k0, m in record.chunks:
        K = len(m["k"].values()) if hasattr(m["k"], "values") else len(m["k"].lo)
        ev.feed(k0, m, record.choices[k0 : k0 + K])
    ev.feed_steps(record.steps)
    out: dict[str, Failure | None] = {p: ev.failures.get(p) for p in ev.properties}
    if claim.end is not None:
        if (
            record.complete
            and not record.truncated
            and ("m" in record.end or (variant is not None and case is not None))
        ):
            v = variant if variant is not None else Variant()
            c = case if case is not None else Case((), (), (), Fraction(0))
            out[claim.end] = end_condition(v, c, claim.end, record)
        else:
            out[claim.end] = None
    for prop, msg in record.checks.items():
        out[prop] = None if msg is None else Failure(prop, None, None, None, "", None, msg)
    return out


# --- the search ---------------------------------------------------------------------------


@dataclass
class Counterexample:
    case: Case
    order: Order
    record: Record
    failure: Failure
    explicit: bool = False  # a fixed example (not found by the search)
    shard: int = 0

    def size(self) -> tuple[int, int, int, int]:
        return (self.case.n, self.case.d, self.record.updates, self.shard)


@dataclass
class PropertyResult:
    id: str
    statement: str
    lemma: str
    counterexample: Counterexample | None = None
    #: distinct causes beyond the first (other exceptions of RUNS, found by Hypothesis)
    others: list[Counterexample] = field(default_factory=list)
    runs: int = 0  # runs on which the property was evaluated

    @property
    def ok(self) -> bool:
        return self.counterexample is None


#: A check is a verdict only when at most this share of its cases was skipped (outside
#: the variant's domain): a search that skips more checked too little to pass.
MAX_SKIPPED_SHARE = Fraction(1, 10)
#: How many distinct reasons for skipped cases a report keeps (the first ones met).
SKIP_REASONS_KEPT = 3


@dataclass
class CheckReport:
    """A search's outcome.  Its verdict (:attr:`status`) is ``"fail"`` when a property
    has a counterexample, ``"unchecked"`` when the search checked too little to pass
    (no run, more than :data:`MAX_SKIPPED_SHARE` of the cases skipped, or a claimed
    property that no run evaluated: :attr:`unchecked` says which), else ``"pass"``;
    :attr:`ok` is True only for ``"pass"``."""

    variant: str
    examples: int
    seed: int
    properties: list[PropertyResult] = field(default_factory=list)
    runs: int = 0
    inconclusive: int = 0
    caught_by: str | None = None  # with ``first_only``: the first property refuted
    mode: str = "exact"
    max_missed: float = 0.0
    undecided: int = 0
    seconds: float = 0.0  # search time, summed over the shards (whatever ran them)
    skipped: int = 0  # cases outside the domain (float mode: not separable after rounding)
    #: the first distinct reasons cases were skipped, with how many each
    skip_reasons: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == "pass"

    @property
    def status(self) -> str:
        if self.failed:
            return "fail"
        return "unchecked" if self.unchecked else "pass"

    @property
    def unchecked(self) -> list[str]:
        """Why the search is no verdict (empty when it is one)."""
        why = []
        tried = self.runs + self.skipped
        if self.runs == 0:
            why.append(
                f"no run was checked ({self.skipped} case(s) skipped)"
                if self.skipped
                else "no run was checked"
            )
        elif self.skipped > MAX_SKIPPED_SHARE * tried:
            why.append(
                f"{self.skipped} of {tried} cases were skipped (more than "
                f"{MAX_SKIPPED_SHARE.numerator}/{MAX_SKIPPED_SHARE.denominator})"
            )
        never = [p.id for p in self.properties if p.ok and p.runs == 0]
        if never and self.runs:
            why.append("no run evaluated " + ", ".join(never))
        return why

    @property
    def failed(self) -> list[PropertyResult]:
        return [p for p in self.properties if not p.ok]

    def result(self, prop: str) -> PropertyResult:
        for p in self.properties:
            if p.id == prop:
                return p
        raise KeyError(prop)


def keep_reason(reasons: dict[str, int], reason: str, count: int = 1) -> None:
    """Count ``reason`` among the first :data:`SKIP_REASONS_KEPT` distinct reasons."""
    if reason in reasons or len(reasons) < SKIP_REASONS_KEPT:
        reasons[reason] = reasons.get(reason, 0) + count


_ORDER_OF = list(GENERIC_PROPERTIES)


def _sort_key(prop: str) -> tuple[int, str]:
    return (_ORDER_OF.index(prop) if prop in _ORDER_OF else len(_ORDER_OF), prop)


def _when(variant: Variant, f: Failure | None, prop: str) -> tuple[float, int, str]:
    """Order failures in time: the harness's own, preconditions, then by update index,
    then end-of-run properties; ties by the proof's order."""
    if prop in _HARNESS:
        k: float = -2
    elif prop in variant.preconditions:
        k = -1
    elif f is not None and f.k is not None:
        k = f.k
    else:
        k = float("inf")
    return (k, *_sort_key(prop))


def _statement(variant: Variant, prop: str) -> tuple[str, str]:
    if prop in GENERIC_PROPERTIES:
        lem, text = GENERIC_PROPERTIES[prop]
        return text, lem
    extra: dict[str, str] = getattr(variant, "extra_properties", {})
    return extra.get(prop, prop), "variant"


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


@dataclass
class ShardResult:
    """What one shard of a search found (picklable: sent back by worker processes)."""

    found: dict[str, list[Counterexample]] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    evaluated: dict[str, int] = field(default_factory=dict)
    runs: int = 0
    inconclusive: int = 0
    skipped: int = 0
    skip_reasons: dict[str, int] = field(default_factory=dict)
    timeouts: int = 0
    max_missed: float = 0.0
    undecided: int = 0
    caught_by: str | None = None
    seconds: float = 0.0  # time this shard searched

    def note(self, rec: Record, res: dict[str, Failure | None]) -> None:
        self.runs += 1
        self.seen.update(res)
        for p in rec.evaluated or res:
            self.evaluated[p] = self.evaluated.get(p, 0) + 1
        if not rec.complete:
            self.inconclusive += 1

    def skip(self, exc: OutsideDomain) -> None:
        """A case outside the variant's domain."""
        self.skipped += 1
        keep_reason(self.skip_reasons, str(exc).strip().splitlines()[0] if str(exc) else "-")


def _settings(examples: int) -> settings:
    return settings(
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
) -> ShardResult:
    """One seeded part of a search: the fixed cases, then rounds of Hypothesis search
    (each round looks for the properties not yet refuted)."""
    out = ShardResult()
    t0 = time.perf_counter()
    explicit: dict[str, Counterexample] = {}
    for case, order in fixed:
        if out.timeouts >= 3:  # a variant that keeps hanging: ENDS is refuted already
            break
        try:
            rec, res = run_case(variant, case, order, mode=mode, limit=limit)
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
    cases = variant.cases()
    if type(variant).accepts is not Variant.accepts:
        cases = cases.filter(variant.accepts)
    strategy = st.tuples(cases, variant.orders())
    refuted: set[str] = set(ignore)
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
                    key=lambda ce: (*ce.size()[:3], *_when(variant, ce.failure, ce.failure.prop)),
                )
                out.caught_by = best.failure.prop
            break
        if not fresh:
            break
        refuted.update(ce.failure.prop for ce in fresh)
        if out.timeouts >= 3:
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
            rec, res = run_case(variant, ce.case, ce.order, mode=mode, limit=limit)
        except OutsideDomain:
            continue
        for prop, f in sorted(res.items(), key=lambda kv: _when(variant, kv[1], kv[0])):
            if f is not None and prop not in taken and prop not in _HARNESS:
                taken.add(prop)
                more.append(Counterexample(ce.case, ce.order, rec, f, shard=shard))
    return more


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
) -> list[Counterexample]:
    timeouts: list[Counterexample] = []
    # the shrink budget: once a failure is found, at most ``shrink_runs`` more runs of
    # the variant; then the round ends with the smallest failing case of each cause
    # (Hypothesis tries candidates smaller than the current best only: the last failing
    # case of a cause is its best)
    best: dict[str, Counterexample] = {}
    spent = [0]

    @_settings(examples)
    @hypothesis_seed(seed)
    @given(strategy)
    def test(ex: tuple[Case, Order]) -> None:
        if out.timeouts >= 3:
            raise _Abort()
        case, order = ex
        if best and shrink_runs is not None:
            if spent[0] >= shrink_runs:
                raise _ShrinkSpent()
            spent[0] += 1
        try:
            rec, res = run_case(
                variant, case, order, mode=mode, stop=lambda p: p not in ignore, limit=limit
            )
        except OutsideDomain as outside:
            out.skip(outside)
            return
        out.note(rec, res)
        _account(out, rec)
        if progress is not None and out.runs % 25 == 0:
            progress(
                f"{variant.name}: {out.runs} runs, refuted so far: "
                + (", ".join(sorted(ignore)) or "none")
            )
        target(float(rec.updates), label="updates")
        claim = variant.claim(case) if rec.updates else None
        if claim is not None and claim.g is not None and claim.C is not None and claim.uu:
            with contextlib.suppress(TypeError, ValueError, ZeroDivisionError, OverflowError):
                target(
                    float(
                        rec.updates
                        * Fraction(claim.g) ** 2
                        / (Fraction(claim.C) * Fraction(claim.uu))
                    ),
                    label="k g^2 / (C |u|^2)",
                )
        failing = [p for p, f in res.items() if f is not None and p not in ignore]
        if not failing:
            return
        prop = min(failing, key=lambda p: _when(variant, res[p], p))
        f = res[prop]
        assert f is not None
        ce = Counterexample(case, order, rec, f, shard=shard)
        if prop == "ENDS":  # not shrunk: every attempt would cost the whole time limit
            out.timeouts += 1
            if not timeouts:
                timeouts.append(ce)
            return
        cause = _cause(prop, f)
        if cause not in best or ce.size()[:3] <= best[cause].size()[:3]:
            best[cause] = ce  # (a failure of another cause met while shrinking may be larger)
        refuted = _refuted(cause)()
        refuted.ce = ce
        raise refuted

    found: list[Counterexample] = list(timeouts)
    try:
        test()
    except _ShrinkSpent:
        found.extend(best.values())
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
    return found + [ce for ce in timeouts if ce not in found]


def _leaves(g: BaseExceptionGroup[Any]) -> list[BaseException]:
    out: list[BaseException] = []
    for e in g.exceptions:
        out.extend(_leaves(e) if isinstance(e, BaseExceptionGroup) else [e])
    return out


def fixed_cases(
    variant: Variant, extra_cases: Sequence[tuple[Case, Order]] = ()
) -> list[tuple[Case, Order]]:
    """The fixed examples of a search (each in the cyclic and first orders the variant
    accepts), then ``extra_cases`` (e.g. counterexamples replayed from a database)."""
    fixed = [(c, Order(r)) for c in variant.examples() for r in ("cyclic", "first")]
    fixed = [(c, o) for c, o in fixed if o.rule in variant.order_rules]
    return [(c, o) for c, o in [*fixed, *extra_cases] if variant.accepts(c)]


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
                caught, key=lambda t: (*t[1].size(), *_when(variant, t[1].failure, t[0]))
            )[0]
    for prop in sorted(seen | set(found), key=_sort_key):
        text, lem = _statement(variant, prop)
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
        report.properties = [p for p in report.properties if p.id not in _HARNESS or p.runs]
    return report


def search(
    variant: Variant,
    *,
    examples: int = 200,
    seed: int = 0,
    extra_cases: Sequence[tuple[Case, Order]] = (),
    first_only: bool = False,
    progress: Callable[[str], None] | None = None,
    mode: str | None = None,
    limit: float | None = DEFAULT_TIME_LIMIT,
    shards: int = DEFAULT_SHARDS,
    jobs: int = 1,
    shrink_runs: int | None = DEFAULT_SHRINK_RUNS,
) -> CheckReport:
    """Check every property of ``variant``'s claim over fixed examples and
    Hypothesis-generated cases and orders; shrink a counterexample per failing property.

    ``examples``: generated examples per round, split over ``shards`` independent
    seeded searches; ``first_only``: stop after the first round and report the property
    that *catches* the variant (the first to fail on the smallest counterexample);
    ``mode``: ``"exact"`` or ``"float"`` (default: the variant's ``default_mode``,
    else exact; float: enclosures: a property fails only where it
    fails for every value the rounding allows); ``limit``: per-run time limit (s);
    ``jobs``: worker processes (the result does not depend on it); ``shrink_runs``:
    runs of the variant each round may spend shrinking a failure (``None``: no limit)."""
    if mode is None:
        mode = str(getattr(variant, "default_mode", "exact"))
    if mode not in ("exact", "float"):
        raise InputError(f"mode must be 'exact' or 'float', got {mode!r}")
    from .parallel import run_searches

    [report] = run_searches(
        [variant],
        examples=examples,
        seed=seed,
        extra_cases=[list(extra_cases)],
        first_only=first_only,
        mode=mode,
        limit=limit,
        shards=shards,
        jobs=jobs,
        progress=progress,
        shrink_runs=shrink_runs,
    )
    return report


def shard_examples(examples: int, shards: int) -> list[int]:
    """How ``examples`` are split over ``shards`` (each at least 1)."""
    base = max(1, math.ceil(examples / shards))
    return [base] * shards


def __getattr__(name: str) -> Any:
    from .hooks import removed

    err = removed(__name__, name)
    if err is not None:
        raise err
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
