"""One run of a variant, its claim evaluated: :func:`run_case` runs a variant once on
a case in an order and evaluates every property of its claim (the generic lemma's G1,
G2, P_k, Q_k, Cauchy-Schwarz L4 and the bound T, evaluated by the run-time monitor on
the quantities measured from the run's vectors; the end condition SEP or SEP0; the
variant's own properties).  Two properties are the checker's own: ``RUNS`` (the
variant runs on every valid case: an exception is a failure, reported as one line)
and ``ENDS`` (a run finishes: it is interrupted after the per-run time limit).

>>> from pla_proof.variants.catalog.registry import resolve
>>> from pla_proof.variants.protocol import Order, orthonormal_cases
>>> rec, res = run_case(resolve("classic"), orthonormal_cases([3])[0], Order("cyclic"))
>>> rec.updates, [p for p, f in res.items() if f is not None]
(3, [])
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ...errors import InputError, OutsideDomain
from ...proof.runtime import lemma
from ..boundary.calls import (
    HookError,
    call_hook,
    defined_at,
    hook_error,
    one_line,
    raised_in,
    stuck_in,
    user_frames,
)
from ..boundary.limits import TOTAL_FACTOR, RunTimeout, time_limit
from ..protocol.cases import float_case
from ..protocol.claim import Claim, Evaluation, Failure, show
from ..protocol.variant import CURRENT_EVALUATION, Case, Order, Record, Variant
from ..proving.assumptions import unmet
from ..proving.declared import assumption_holds, declared_assumptions
from .report import HARNESS_PROPERTIES
from .slow import AT_DEADLINE, timed_out

__all__ = ["NoPredictor", "decision_values", "end_condition", "evaluate", "run_case"]


def run_case(
    variant: Variant,
    case: Case,
    order: Order,
    *,
    mode: str = "exact",
    stop: Callable[[str], bool] | None = None,
    limit: float | None = None,
    aim: bool = False,
) -> tuple[Record, dict[str, Failure | None]]:
    """Run ``variant`` on one case in one order and evaluate its claim: ``{property:
    first failure or None}`` for every property of the claim (``record.evaluated`` says
    which of them the run actually decided).  ``stop(prop)``: end the run at the first
    failure of a property it names; ``limit``: the per-run time limit in seconds, which
    holds for every hook the run calls (the claim, the run, the predictor); ``aim``: fill
    ``record.tightest`` with each inequality's smallest normalised slack (a search's
    heading).

    Raises :class:`~pla_proof.errors.OutsideDomain` (and nothing else) for a case the
    variant does not apply to; anything else the variant's own code does wrong is a
    ``RUNS`` failure (``ENDS`` when it does not return in time)."""
    try:
        case = _checked_case(variant, case, mode)
    except HookError as exc:  # its assumes, read as users' code
        return _broken("RUNS", str(exc))
    claim = _claim(variant, case, limit)
    if not isinstance(claim, Claim):
        return _inconclusive(claim[1]) if not claim[0] else _broken(*claim)
    ev = Evaluation(claim, mode=mode, stop=stop, aim=aim)
    rec, problem = _run(variant, case, order, claim, ev, mode, stop, limit)
    if isinstance(problem, str):  # out of time before the bound: slow, not wrong
        return _inconclusive(problem)
    if problem is not None:
        partial = rec if isinstance(rec, Record) else Record()
        partial._ev = None
        out: dict[str, Failure | None] = dict.fromkeys(HARNESS_PROPERTIES)
        out[problem.prop] = problem
        partial.evaluated = frozenset(HARNESS_PROPERTIES)
        return partial, out
    assert rec is not None
    ev = rec._ev
    clock = time_limit(limit, deadline=True)
    try:
        with clock:
            res = _results(variant, case, claim, ev, rec)
    except RunTimeout as exc:
        if clock.at_deadline:
            return _inconclusive(timed_out(case, order, claim, None, "", at_deadline=True)[1])
        return _broken("ENDS", f"{stuck_in(exc, 'decision')} did not return in {limit:g} s")
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # the variant's predictor (decision()) or its record
        return _broken("RUNS", _end_problem(exc))
    rec.max_missed, rec.undecided = ev.max_missed, rec.undecided + len(ev.undecided)
    if aim:
        for prop, slack in ev.tightest().items():
            rec.tightest[prop] = min(slack, rec.tightest.get(prop, slack))
    rec._ev = None
    return rec, res


def _checked_case(variant: Variant, case: Case, mode: str) -> Case:
    """The case as the run gets it (rounded to float64 in float mode), or
    ``OutsideDomain`` when it is not one the claim is about."""
    if mode == "float":
        fc = float_case(case)
        if fc is None:
            raise OutsideDomain("the comparator does not separate the data rounded to float64")
        case = fc
    for text in declared_assumptions(variant):  # what the proof of the claim assumes
        if not assumption_holds(text, case):
            raise OutsideDomain(unmet(text))
    return case


def _claim(variant: Variant, case: Case, limit: float | None) -> Claim | tuple[str, str]:
    """The variant's claim on the case, or ``(property, message)`` of what went wrong
    (``("", reason)``: the check's time ran out)."""
    clock = time_limit(limit, deadline=True)
    try:
        with clock:
            claim = variant.claim(case)
    except OutsideDomain:
        raise  # a case outside the variant's domain
    except RunTimeout as exc:
        if clock.at_deadline:
            return "", f"{AT_DEADLINE} while claim() ran"
        return "ENDS", f"{stuck_in(exc, 'claim')} did not return in {limit:g} s"
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        return "RUNS", hook_error("claim", exc)
    if not isinstance(claim, Claim):
        shown = type(claim).__name__ if claim is not None else "None"
        return "RUNS", f"claim() returned {shown}{defined_at(variant.claim)}; expected a Claim"
    return claim


def _run(
    variant: Variant,
    case: Case,
    order: Order,
    claim: Claim,
    ev: Evaluation,
    mode: str,
    stop: Callable[[str], bool] | None,
    limit: float | None,
) -> tuple[Record | None, Failure | str | None]:
    """``variant.run`` under the per-run clock, its record evaluated as it goes:
    ``(record, None)``, or ``(what it got to, the failure)``, or ``(what it got to, why
    it is inconclusive)`` for a run that ran out of time before the bound
    (:func:`~.slow.timed_out`)."""
    token = CURRENT_EVALUATION.set(ev)
    clock = time_limit(
        limit,
        progress=lambda: ev.last_progress(),
        total=None if limit is None else TOTAL_FACTOR * limit,
        deadline=True,
    )
    problem: Failure | str
    try:
        with clock:
            rec = variant.run(case, order)
            if not isinstance(rec, Record):
                raise HookError(
                    f"run() returned {type(rec).__name__}{defined_at(variant.run)}; "
                    "expected a Record"
                )
            if rec._ev is not ev:  # the run returned a record it did not make first
                rec = _re_evaluate(rec, claim, mode, stop)
            rec._ev.feed_steps(rec.steps[rec._fed :]) if rec.steps else None
        return rec, None
    except RunTimeout:
        # a fit() seen only when it returns has made an unknown number of updates
        observed = getattr(variant, "observes_updates", True) is not False
        start, origin = _own_start(variant, case)
        problem = _out_of_time(case, order, claim, ev, clock, limit, observed, start, origin)
    except (KeyboardInterrupt, SystemExit):
        raise
    except HookError as exc:  # a hook returned what it must not: said as the user's
        problem = Failure("RUNS", None, None, None, "", None, str(exc))
    except BaseException as exc:
        problem = Failure("RUNS", None, None, None, "", None, raised_in(exc))
    finally:
        CURRENT_EVALUATION.reset(token)
    return ev.record if isinstance(ev.record, Record) else None, problem


def _out_of_time(
    case: Case,
    order: Order,
    claim: Claim,
    ev: Evaluation,
    clock: time_limit,
    limit: float | None,
    observed: bool = True,
    start: tuple[Fraction, ...] | None = None,
    origin: bool = False,
) -> Failure | str:
    """A run the clock stopped: an ``ENDS`` failure where that is a verdict (past the
    bound, or a case the classic algorithm settles at once), else why it is inconclusive
    (``observed``: the run's updates are seen as it makes them)."""
    done = ev.record.updates if observed and isinstance(ev.record, Record) else None
    if clock.at_deadline or limit is None:
        return timed_out(case, order, claim, done, "", at_deadline=True)[1]
    after = f" (after {done} update(s))" if done is not None else ""
    if not observed:
        why = f"the fit did not return in {limit:g} s (its updates are seen when it returns)"
    elif clock.stalled:
        why = f"no update for {limit:g} s{after}"
    else:
        why = f"no result after {TOTAL_FACTOR * limit:g} s{after}"
    prop, message = timed_out(case, order, claim, done, why, start=start, origin=origin)
    return Failure(prop, None, None, None, "", None, message) if prop else message


#: The variants whose own start (a fit with no epochs) did not return once, in this
#: process: it costs the per-run second at every run stopped by the clock otherwise.
_NO_START: weakref.WeakSet[Variant] = weakref.WeakSet()


def _own_start(variant: Variant, case: Case) -> tuple[tuple[Fraction, ...] | None, bool]:
    """The weights (and bias, last) an implementation starts from on the case, when it
    can say (``own_start(case)``: an estimator fitted with no epochs), and whether it has
    no bias; ``(None, False)`` when it cannot (a short limit: it is users' code) -- but
    an implementation read as having a bias starts, unknown, from 0 on ``(x, 1)``: it is
    judged against the classic algorithm in its own setting, never through the origin."""
    reading = getattr(variant, "reading", None)
    origin = bool(getattr(reading, "origin", False))
    start = None
    own = getattr(variant, "own_start", None)
    if own is not None and variant not in _NO_START:
        try:
            with time_limit(1.0):
                start = own(case)
        except RunTimeout:  # a fit with no epochs that does not return: never asked again
            _NO_START.add(variant)
        except Exception:  # users' code: no start known
            start = None
    if start is None and reading is not None and not origin:
        start = (Fraction(0),) * (case.d + 1)
    return start, origin if start is not None else False


def _inconclusive(reason: str) -> tuple[Record, dict[str, Failure | None]]:
    """A run that decided nothing: it ran out of time before its bound (``reason``)."""
    rec = Record()
    rec._ev = None
    rec.complete = False
    rec.inconclusive = reason
    rec.evaluated = frozenset()
    return rec, dict.fromkeys(HARNESS_PROPERTIES)


def _broken(prop: str, message: str) -> tuple[Record, dict[str, Failure | None]]:
    out: dict[str, Failure | None] = dict.fromkeys(HARNESS_PROPERTIES)
    out[prop] = Failure(prop, None, None, None, "", None, message)
    rec = Record()
    rec.evaluated = frozenset(HARNESS_PROPERTIES)
    return rec, out


def _end_problem(exc: BaseException) -> str:
    if isinstance(exc, NoPredictor):
        return str(exc)
    if user_frames(exc):  # the variant's predictor (decision()) or a hook it calls
        return raised_in(exc)
    return "the end of the run raised " + one_line(exc)


def _iterable(v: Any) -> bool:
    try:
        iter(v)
    except TypeError:
        return False
    return not isinstance(v, str | bytes)


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
    out: dict[str, Failure | None] = dict.fromkeys(HARNESS_PROPERTIES)
    evaluated = set(HARNESS_PROPERTIES)
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
        vals = call_hook(
            decide,
            "decision",
            case,
            rec.output,
            expect=lambda v: v is None or _iterable(v),
            expected=f"the predictor's values f(x_i), one per point ({case.n})",
            error=NoPredictor,
        )
        if vals is not None:
            out = list(vals)
            if len(out) != case.n:
                raise NoPredictor(
                    f"decision() returned {len(out)} value(s){defined_at(decide)}; expected "
                    f"one per point ({case.n})"
                )
            return out
    if "values" in rec.end:
        return list(rec.end["values"])
    w = rec.output.get("w")
    if w is None:
        return None
    if len(w) != case.d:
        raise NoPredictor(
            f"run() returned output['w'] with {len(w)} coordinate(s){defined_at(variant.run)} "
            f"but the points have {case.d}: set output['b'] for a bias, or define "
            "decision(case, output)"
        )
    b = rec.output.get("b", 0)
    return [sum((a * v for a, v in zip(w, x, strict=True)), Fraction(0)) + b for x in case.X]


def end_condition(variant: Variant, case: Case, end: str, rec: Record) -> Failure | None:
    """``SEP`` (the proof's end lemma, ``m > 0``), ``SEP0`` or ``SEP0N`` (every label
    predicted, a score of 0 taken as +1 or as -1) on the returned predictor."""
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
            sep = _normalised(m, max(abs(v) for v in margins))
            if sep is not None:
                rec.tightest["SEP"] = sep
        if lemma("SEP").holds({"m": m}):
            return None
        return Failure("SEP", None, j, m, ">", 0, f"min_i y_i f(x_i) = {show(m)}, not > 0")
    if end in ("SEP0", "SEP0N"):
        zero = 1 if end == "SEP0" else -1
        vals = decision_values(variant, case, rec)
        if vals is None:
            raise NoPredictor(
                "the run returned no predictor: set output['w'] (and output['b']), or define "
                "decision(case, output)"
            )
        for i, (v, yi) in enumerate(zip(vals, case.y, strict=True)):
            if (1 if v > 0 else -1 if v < 0 else zero) != yi:
                return Failure(
                    end, None, i, v, "", None, f"f(x) = {show(v)} predicts {-yi}, label {yi}"
                )
        return None
    raise InputError(f"unknown end condition {end!r} (SEP, SEP0, SEP0N or None)")


def _normalised(m: Any, scale: Any) -> float | None:
    """SEP's normalised slack ``min_i y_i f(x_i) / max_i |f(x_i)|`` (see
    :mod:`~pla_proof.monitor.slack`); None for values that are not numbers.

    >>> _normalised(Fraction(1), Fraction(4)), _normalised(0, 0), _normalised("a", 1)
    (0.25, 0.0, None)
    """
    try:
        return 0.0 if scale == 0 else float(Fraction(m) / Fraction(scale))
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        pass
    try:
        return float(m) / float(scale)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return None


def evaluate(
    claim: Claim,
    record: Record,
    *,
    variant: Variant | None = None,
    case: Case | None = None,
) -> dict[str, Failure | None]:
    """Every claimed property on a finished run: ``{id: first failure or None}``.

    >>> from fractions import Fraction as F
    >>> from pla_proof.variants.protocol.variant import Measure
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
