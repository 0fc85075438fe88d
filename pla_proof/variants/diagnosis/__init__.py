"""Say what went wrong: on a failing property's counterexample, the first place an
implementation leaves the algorithm, in words (:func:`diagnose`).

The implementation's own trajectory is watched on the counterexample (a variant's run
update by update; a ``fit`` class from outside, at each read of its weights:
:mod:`.watch`), and walked in lockstep with the algorithm it claims -- the classic
Perceptron for a ``fit``, the variant's declared rule for a variant -- from the same
start, in the implementation's own visiting order.  The first change that is not the
algorithm's update is named from a fixed vocabulary (:data:`.mechanism.MECHANISMS`),
with both values, then the proof's inequality it breaks, with its numbers.

>>> from pla_proof.variants.catalog.bugs import BUGS
>>> from pla_proof.variants.checking import search
>>> v = BUGS["plus-x"].variant()
>>> ce = search(v, examples=10, shrink_runs=30).result("G2").counterexample
>>> diagnose(v, ce).mechanism
'label-ignored'
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from ..protocol.variant import Case, LinearVariant, Order, Variant
from .budgets import budget_divergence, reference_passes, watch_budgets
from .mechanism import (
    MECHANISMS,
    Change,
    Divergence,
    Rule,
    continue_from,
    explained,
    first_divergence,
    vector_text,
)
from .watch import raw_key, segments, watch_fit, watch_variant

__all__ = ["MECHANISMS", "Diagnosis", "diagnose"]

Vec = tuple[Fraction, ...]

#: A diagnosis (its runs and probe fits) is given at most this long.
SECONDS = 10.0
#: At most this many weight vectors of each trajectory are kept for the report.
KEPT = 200
#: A fit is watched until it has shown this many different weight vectors.
STATES_KEPT = 200
#: The cut of a fit's run into changes is chosen on its first this many changes.
CUT_CHANGES = 30


@dataclass
class Diagnosis:
    """Where the implementation left the algorithm on one counterexample.

    ``observed``: what was watched, at which granularity; ``divergence``: the first
    place (None with ``why`` when nothing could be compared); ``lemma``: the proof's
    inequality at that place, with its numbers; ``trajectory`` and ``reference``: the
    implementation's weights and the algorithm's, from the same start (bias last)."""

    prop: str
    observed: str = ""
    reference_rule: str = ""
    divergence: Divergence | None = None
    why: str = ""
    lemma: list[str] = field(default_factory=list)
    points: list[Vec] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    bias: bool = False
    trajectory: list[Vec] = field(default_factory=list)
    reference: list[Vec] = field(default_factory=list)
    #: how long it took (measured; the search's time does not include it; in the JSON
    #: report as the variant's ``diagnosed.seconds``, so that each property's entry is
    #: the same whatever the machine)
    seconds: float = 0.0

    @property
    def mechanism(self) -> str:
        return self.divergence.mechanism if self.divergence is not None else "unobserved"

    def lines(self) -> list[str]:
        """The report's ``diagnosis`` section."""
        out = [f"  diagnosis (watched: {self.observed or 'nothing'}):"]
        if self.divergence is None:
            out.append(f"    no trajectory to compare: {self.why}")
            return out
        out.append(f"    {self.divergence.words}")
        out += [f"    {line}" for line in self.lemma]
        if self.why:
            out.append(f"    ({self.why})")
        return out

    def to_json(self) -> dict[str, Any]:
        d = self.divergence

        def vec(v: Sequence[Fraction] | None) -> list[Fraction] | None:
            return None if v is None else [Fraction(a) for a in v]

        return {
            "property": self.prop,
            "observed": self.observed,
            "reference": self.reference_rule,
            "mechanism": self.mechanism,
            "confident": bool(d is not None and d.confident),
            "words": d.words if d is not None else "",
            "update": d.update if d is not None else None,
            "step": (d.change if d.change is not None else d.update) if d is not None else None,
            "point": (d.point + 1) if d is not None and d.point is not None else None,
            "before": vec(d.before) if d is not None else None,
            "algorithm_adds": vec(d.expected) if d is not None else None,
            "implementation_added": vec(d.added) if d is not None else None,
            "lemma": list(self.lemma),
            "why": self.why,
            "points": [vec(x) for x in self.points],
            "labels": list(self.labels),
            "bias": self.bias,
            "trajectory": [vec(w) for w in self.trajectory],
            "reference_trajectory": [vec(w) for w in self.reference],
        }


def diagnose(variant: Variant, ce: Any, seconds: float = SECONDS) -> Diagnosis:
    """The diagnosis of one counterexample (``ce``: a :class:`~.checking.Counterexample`)
    of one failing property, within ``seconds``.  Never raises for the users' code: what
    could not be watched is said in :attr:`Diagnosis.why`."""
    from ..boundary.limits import RunTimeout, time_limit
    from ..estimators import Estimator

    prop = ce.failure.prop if ce.failure is not None else ""
    t0 = time.monotonic()
    try:
        with time_limit(seconds):
            if isinstance(variant, Estimator):
                out = _of_fit(variant, ce, prop)
            elif isinstance(variant, LinearVariant):
                out = _of_variant(variant, ce, prop)
            else:
                out = Diagnosis(
                    prop,
                    why="only a linear rule in R^d is compared with a reference (this "
                    "variant's predictor is not one weight vector)",
                )
    except RunTimeout:
        out = Diagnosis(prop, why=f"watching the run took more than {seconds:g} s")
    except Exception as e:  # users' code failing again on the replay
        line = str(e).strip().splitlines()[0] if str(e).strip() else ""
        out = Diagnosis(prop, why=f"the replay raised {type(e).__name__}: {line}"[:300])
    out.seconds = time.monotonic() - t0
    return out


# --- a variant ---------------------------------------------------------------------------------


def _of_variant(variant: LinearVariant, ce: Any, prop: str) -> Diagnosis:
    case: Case = ce.case
    watched, rec = watch_variant(lambda: variant.run(case, ce.order))
    if watched.start is None and not watched.why and rec.updates == 0:
        w = tuple(Fraction(v) for v in rec.output.get("w", ()))
        b = rec.output.get("b")
        watched.start = w if b is None else (*w, Fraction(b))  # no update: it stayed there
    if watched.start is None:
        return Diagnosis(prop, watched.granularity, why=watched.why or "no weights to watch")
    width = len(watched.start)
    points, u, bias = _points(variant, case, width)
    if points is None:
        return Diagnosis(
            prop,
            watched.granularity,
            why=f"its weights have {width} coordinates, its points {case.d}",
        )
    lr = variant.rule(case) if width == case.d else variant.rule(_with(case, points, u))
    rule = Rule(
        eta=lr.eta,
        tau=lr.tau,
        factors=lr.factors,
        strict=tuple(lr.strict_flags(case.n)),
        bias=bias,
    )
    declared = (
        "the variant's declared rule: y w.x "
        + ("<" if all(rule.strict or [False]) else "<=")
        + f" {_num(lr.tau)} -> w <- w + "
        + ("" if lr.eta == 1 else f"{_num(lr.eta)} ")
        + ("a_j " if lr.factors is not None else "")
        + "y x"
    )
    changes = [Change(j, w) for j, w in watched.steps]
    status = getattr(rec, "status", "")
    ended = status != "stopped" and not (status == "budget_exhausted" and prop == "T")
    d = first_divergence(points, list(case.y), rule, watched.start, changes, ended)
    if d.mechanism == "sign-or-label" and not bias:
        _tell_sign_from_label(variant, ce, d)
    if d.mechanism in ("missed-update", "tie-not-updated"):
        if status in ("budget_exhausted", "epochs_exhausted"):
            what = "updates" if status == "budget_exhausted" else "passes over the data"
            d.mechanism = "missed-update"
            head = d.head
            d.words = (
                f"{head}{MECHANISMS['missed-update']}: its own budget of {what} ended "
                f"the run ({rec.updates} update(s))"
            )
        elif not bias and any(yi < 0 for yi in case.y):
            _tell_label_skip(variant, ce, d)
    claim = variant.claim(case)
    out = Diagnosis(
        prop,
        watched.granularity,
        declared,
        d,
        watched.why,
        points=list(points),
        labels=list(case.y),
        bias=bias,
    )
    _finish(out, d, watched.start, [w for _, w in watched.steps], rule, u, claim.C, claim.g, ce)
    return out


def _tell_sign_from_label(variant: LinearVariant, ce: Any, d: Divergence) -> None:
    """A reversed update on a point with y = -1 is also what ignoring the label does.
    The same data written as ``(y x, +1)`` -- the same problem for the algorithm -- tell
    them apart: a reversed sign stays reversed, an ignored label is then right."""
    mirrored = _mirrored(ce.case)
    try:
        watched, _ = watch_variant(lambda: variant.run(mirrored, ce.order))
    except Exception:  # the users' code on the mirrored case: no verdict from it
        return
    if not watched.steps or watched.start is None:
        return
    j, after = watched.steps[0]
    moved = tuple(a - b for a, b in zip(after, watched.start, strict=True))
    x = mirrored.X[j]
    if any(x) and all(m * v >= 0 for m, v in zip(moved, x, strict=True)) and any(moved):
        d.mechanism = "label-ignored"
    elif any(x) and all(m * v <= 0 for m, v in zip(moved, x, strict=True)) and any(moved):
        d.mechanism = "sign-reversed"
    else:
        return
    head = d.head
    now = "is" if d.mechanism == "label-ignored" else "is still not"
    d.words = (
        f"{head}{MECHANISMS[d.mechanism]} (on the same points written as (y x, +1), the "
        f"same data for the algorithm, its first update {now} the algorithm's)"
    )


def _tell_label_skip(variant: LinearVariant, ce: Any, d: Divergence) -> None:
    """A run that stops with a point of label -1 misclassified (strictly, or at a tie).
    Two probes on the same points tell what stopped it: written as ``(y x, +1)`` (the
    same problem for the algorithm), and with the points of label -1 visited first.  If
    the first is learned and the second is not, the points of label -1 are never
    updated; if both are, they are updated, but not at a tie."""
    case: Case = ce.case
    if d.point is None or case.y[d.point] > 0:
        return
    first = _label_first(case, -1)
    if not _learns(variant, _mirrored(case), ce.order)[0]:
        return  # the label is not what stops it
    learned, negatives_updated = _learns(variant, first, Order("cyclic"))
    if learned or negatives_updated:
        if d.mechanism == "tie-not-updated":
            d.words += (
                " (points with y = -1 are updated, but not at a tie: the same data written "
                "as (y x, +1) are learned, and with the points of label -1 first one of them "
                "is updated)"
            )
        return
    d.mechanism = "missed-update"
    d.words = (
        f"{d.head}{MECHANISMS['missed-update']}: points with y = -1 are not updated (the "
        "same data written as (y x, +1), the same problem for the algorithm, are learned; "
        "with the points of label -1 visited first, none of them is updated)"
    )


def _learns(variant: LinearVariant, case: Case, order: Any) -> tuple[bool, bool]:
    """Does the variant's run end with every point of ``case`` strictly right, and did
    it update a point of label -1?"""
    try:
        watched, rec = watch_variant(lambda: variant.run(case, order))
    except Exception:  # the users' code on a probe: no verdict from it
        return False, False
    negatives = any(case.y[j] < 0 for j, _ in watched.steps)
    w = tuple(Fraction(v) for v in rec.output.get("w", ()))
    if len(w) != case.d:
        return False, negatives
    right = all(
        yi * sum((a * b for a, b in zip(w, x, strict=True)), Fraction(0)) > 0
        for x, yi in zip(case.X, case.y, strict=True)
    )
    return right, negatives


def _label_first(case: Case, label: int) -> Case:
    """The same points, those of ``label`` first (each group in its own order)."""
    order = sorted(range(case.n), key=lambda i: case.y[i] != label)
    return Case(
        tuple(case.X[i] for i in order),
        tuple(case.y[i] for i in order),
        case.u,
        case.gamma,
        dict(case.params),
        case.name,
    )


def _mirrored(case: Case) -> Case:
    """The same data with every point written as ``(y x, +1)``."""
    return Case(
        tuple(tuple(yi * v for v in x) for x, yi in zip(case.X, case.y, strict=True)),
        tuple(1 for _ in case.y),
        case.u,
        case.gamma,
        dict(case.params),
        case.name,
    )


def _points(variant: Variant, case: Case, width: int) -> tuple[list[Vec] | None, Vec, bool]:
    """The points as the weights see them: the case's, or augmented with the variant's
    bias constant ``c(case)`` (a bias convention trains on ``(x, c)``)."""
    X = [tuple(x) for x in case.X]
    if width == case.d:
        return X, tuple(case.u), False
    c_of = getattr(variant, "c", None)
    if width == case.d + 1:  # a bias, last: (x, c) with the convention's c, else (x, 1)
        c = Fraction(c_of(case)) if callable(c_of) else Fraction(1)
        theta = Fraction(case.params.get("theta", 0))
        return [(*x, c) for x in X], (*case.u, theta / c), True
    return None, tuple(case.u), False


def _with(case: Case, points: Sequence[Vec], u: Vec) -> Case:
    return Case(tuple(points), case.y, u, case.gamma, dict(case.params), case.name)


# --- a fit(X, y) class or a training function -----------------------------------------------


@dataclass
class _Seen:
    """A fit watched on one case: its points as its weights see them, the rule it is
    compared with, and the weights at each execution of the line that cuts it best."""

    points: list[Vec]
    rule: Rule
    states: list[Vec] | None
    end: Vec
    observed: str
    why: str = ""
    #: seen one budget at a time (:mod:`.budgets`): the budget of each state after the
    #: first, the knob's name, and whether the fit stopped on its own
    budgets: list[int] | None = None
    knob: str = ""
    ended: bool = True


def _watch_case(variant: Any, case: Case) -> _Seen:
    from ..estimators.randomness import seeded

    reading = variant.reading
    origin = bool(reading.origin)
    points = [tuple(x) if origin else (*x, Fraction(1)) for x in case.X]
    X = np.array([[float(v) for v in x] for x in case.X])
    y = variant.encode(case.y)
    seed = 0 if reading.chance is not None else None
    with seeded(seed):
        est = variant.make()
    strict_end = (
        None if reading.zero == 0 else tuple((yi == 1) == (reading.zero == 1) for yi in case.y)
    )
    rule = Rule(eta=None, strict_end=strict_end, bias=not origin, tol=Fraction(1, 10**9))
    if getattr(variant, "function", None) is not None:
        with seeded(seed):
            est.fit(X, y)
        w_end, b_end = variant.weights(est)
        end0: Vec = tuple(w_end) if origin else (*w_end, b_end)
        why = "a training function's local variables are not watched"
        return _by_budget(variant, X, y, seed, _Seen(points, rule, None, end0, "", why))
    held = [n for n in (reading.weights, reading.bias) if n not in (None, "first", "last")]
    seen: dict[tuple[bytes, ...], Vec] = {}

    def weights() -> Vec:
        key = raw_key([getattr(est, n, None) for n in held])
        if key not in seen:
            w, b = variant.weights(est)
            seen[key] = (*w, b) if not origin else tuple(w)
        return seen[key]

    with seeded(seed):
        watched = watch_fit(
            est, held, weights, lambda: est.fit(X, y), enough=lambda: len(seen) > STATES_KEPT
        )
    w_end, b_end = variant.weights(est)
    end: Vec = tuple(w_end) if origin else (*w_end, b_end)
    # a watch cut short ends at its last read: the returned weights lie many updates on
    chosen = _best_cut(
        segments(watched.events, end, finished=not watched.cut), points, list(case.y), rule
    )
    if chosen is None:
        why = watched.why or (
            "no read of its weights by its Python code was seen changing them "
            "(compiled code, or a fit that never moved them)"
        )
        return _by_budget(variant, X, y, seed, _Seen(points, rule, None, end, "", why))
    line, states = chosen
    observed = (
        f"its weights as read at {line.rsplit('/', 1)[-1]} while fit() ran"
        + (f" ({watched.why})" if watched.why else "")
        + ("; the global random state seeded 0" if seed is not None else "")
    )
    return _Seen(points, rule, states, end, observed, ended=not watched.cut)


def _by_budget(variant: Any, X: np.ndarray, y: np.ndarray, seed: int | None, seen: _Seen) -> _Seen:
    """A fit whose weights could not be watched while it ran, seen one budget at a
    time instead (:func:`.budgets.watch_budgets`): fitted again with its budget knob at
    0, 1, 2, ...  Without a knob, only its returned weights are seen."""
    from ..estimators.budget import with_budget
    from ..estimators.randomness import seeded

    origin = bool(variant.reading.origin)

    def fit_with(knob: Any, b: int, labels: np.ndarray = y) -> Vec:
        with seeded(seed), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = with_budget(variant.factory(), knob, b)
            est.fit(X, labels)
        w, bias = variant.weights(est)
        return tuple(w) if origin else (*w, bias)

    knob = variant.reading.budget_knob or _budget_like(variant, fit_with, y)
    if knob is None:
        seen.observed = "the returned weights only"
        seen.why += "; and no budget knob was found to refit it one budget at a time"
        return seen
    start, states, ended, last = watch_budgets(lambda b: fit_with(knob, b), knob.value)
    if not states:
        seen.observed = "the returned weights only"
        seen.why += f"; refitted with {knob.name} = 1, 2, ... its weights did not change"
        return seen
    width = {len(w) for _, w in states}
    if start is None or width != {len(seen.points[0])} or len(start) not in width:
        seen.observed = "the returned weights only"
        seen.why += f"; refitted with {knob.name} = 0, its weights could not be read"
        return seen
    seen.observed = (
        f"its returned weights after fits with {knob.name} = 0, 1, ..., {last} "
        f"({seen.why}; several updates may lie between two budgets: each change is "
        "compared with any sequence of the algorithm's updates)"
        + ("; the global random state seeded 0" if seed is not None else "")
    )
    seen.why = ""
    seen.states = [start, *(w for _, w in states)]
    seen.budgets = [b for b, _ in states]
    seen.knob = knob.name
    seen.ended = ended
    return seen


def _budget_like(variant: Any, fit_with: Any, y: np.ndarray) -> Any:
    """An integer knob that behaves as a budget on the case, where the reading found
    none (a broken fit never learns its probe, so the reading cannot tell its budget by
    that): set to 0 the fit's weights do not depend on the labels (nothing was
    learned), set to 1 they do, or moved (a seed or a size does neither)."""
    from ..estimators.budget import MAX_KNOBS, knob_candidates
    from ..estimators.reading import BUDGET_NAMES

    flipped = np.array([y.max() + y.min() - v for v in y])  # the other label, each
    for knob in knob_candidates(variant.factory(), BUDGET_NAMES, frozenset())[:MAX_KNOBS]:
        try:
            zero, one = fit_with(knob, 0), fit_with(knob, 1)
            if zero == fit_with(knob, 0, flipped) and (
                one != zero or fit_with(knob, 1, flipped) != zero
            ):
                return knob
        except Exception:  # users' code refusing the value: not this knob
            continue
    return None


def _of_fit(variant: Any, ce: Any, prop: str) -> Diagnosis:
    reading = variant.reading
    case: Case = ce.case
    if reading.predict_only is not None:
        return Diagnosis(prop, why=f"no weights can be read ({reading.predict_only})")
    if reading.dual is not None:
        return Diagnosis(prop, why="a dual (kernel) reading: its weights are not watched")
    if reading.output != "last":
        return Diagnosis(prop, why=f"its output is the {reading.output} weights, not the last")
    origin = bool(reading.origin)
    u = tuple(case.u) if origin else (*case.u, Fraction(case.params.get("theta", 0)))
    reference = (
        "the classic Perceptron: y w.x <= 0 -> w <- w + eta y x"
        + (" (through the origin)" if origin else ", on (x, 1): the bias moves by eta y")
        + ", eta its own first step"
    )
    seen = _watch_case(variant, case)
    points, rule, states = seen.points, seen.rule, seen.states
    labels = list(case.y)
    if (reading.chance or "").startswith("nondeterministic") and _refit_end(variant, case) != tuple(
        seen.end
    ):
        return Diagnosis(
            prop,
            "the returned weights only",
            reference,
            why="its fit is nondeterministic: fitted twice on the counterexample, the global "
            "random state seeded 0 both times, it returned different weights -- no one "
            "trajectory to compare",
            points=points,
            labels=labels,
            bias=not origin,
            trajectory=[seen.end],
        )
    if states is None:
        return Diagnosis(
            prop,
            seen.observed,
            reference,
            why=seen.why,
            points=points,
            labels=labels,
            bias=not origin,
            trajectory=[seen.end],
        )
    if seen.budgets is not None:
        d = _by_budgets(seen, labels)
        if d.mechanism == "sign-or-label" and d.update is not None:
            _probe_sign_by_budgets(variant, case, d)
    else:
        changes = [Change(None, s) for s in states[1:]]
        d = first_divergence(points, labels, rule, states[0], changes, seen.ended)
        if d.mechanism in ("sign-or-label", "sign-reversed") and d.update is not None:
            _probe_sign(variant, case, d)
    eta = _first_step(d, states[0], points)
    out = Diagnosis(
        prop, seen.observed, reference, d, points=points, labels=labels, bias=not origin
    )
    rule = replace(rule, eta=eta)  # the reference goes on at the implementation's step
    R2 = max((sum((v * v for v in x), Fraction(0)) for x in points), default=Fraction(0))
    C = eta * eta * R2 if eta is not None else None
    g = eta * case.gamma if eta is not None else None
    _finish(out, d, states[0], states[1:], rule, u, C, g, ce)
    if d.mechanism == "follows" and prop in ("PREDICT", "READ"):
        said = _predictor_leaves(variant, case)
        if said:
            out.lemma.append(said)
    if seen.budgets is not None:  # the algorithm one pass at a time beside it
        k = max(1, d.change if d.change is not None else len(states) - 1)
        more = reference_passes(points, labels, rule, states[k - 1], len(states) - k)
        out.reference = [*states[:k], *more][:KEPT]
    return out


def _refit(variant: Any, case: Case) -> tuple[Any, np.ndarray]:
    """One more fit on the case, the global random state seeded 0, and its points as
    the fit was given them (users' code: it may raise)."""
    from ..estimators.randomness import seeded

    X = np.array([[float(v) for v in x] for x in case.X])
    with seeded(0), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = variant.make()
        est.fit(X, variant.encode(case.y))
    return est, X


def _refit_end(variant: Any, case: Case) -> Vec | None:
    """The weights (bias last) of one more fit on the case (:func:`_refit`); None when
    it fails."""
    try:
        w, b = variant.weights(_refit(variant, case)[0])
    except Exception:  # users' code failing on the refit: not the same as before
        return None
    return tuple(w) if variant.reading.origin else (*w, b)


def _predictor_leaves(variant: Any, case: Case) -> str:
    """Where the weights follow the algorithm and ``predict`` still gives a wrong label:
    the first training point whose weights' score has the label's sign while the
    predictor answers the other class -- what leaves the algorithm is its predictor, not
    its updates ('' where no such point is seen)."""
    from ..estimators.reading import answers_of

    try:
        est, X = _refit(variant, case)
        w, b = variant.weights(est)
        answers = variant.reading.decode(answers_of(est, X))
    except Exception:  # users' code failing on the refit: nothing more said
        return ""
    beside = variant.reading.beside
    said = "predict()" if beside is None else f"{beside.name}({beside.words})"
    for i, (x, y) in enumerate(zip(case.X, case.y, strict=True)):
        score = sum((a * Fraction(v) for a, v in zip(w, x, strict=True)), b)
        if score * y > 0 and answers[i] != y:
            return (
                f"so what leaves the algorithm is the predictor, not an update: {said} answers "
                f"{answers[i]:+d} at point {i + 1}, where the weights' score w.x + b = "
                f"{_num(score)} has the sign of its label {y:+d} (the algorithm predicts by "
                "that sign)"
            )
    return ""


def _by_budgets(seen: _Seen, labels: list[int]) -> Divergence:
    assert seen.states is not None and seen.budgets is not None
    start, states = seen.states[0], seen.states[1:]
    return budget_divergence(
        seen.points, labels, seen.rule, start, states, seen.ended, seen.budgets, seen.knob
    )


def _probe_sign_by_budgets(variant: Any, case: Case, d: Divergence) -> None:
    """Seen one budget at a time, a change against ``y x`` on points of label -1 only:
    fitted again with a point of label +1 first, a reversed sign and an ignored label
    part at its first update (``-x`` against ``+x``)."""
    probe = _label_first(case, 1)
    try:
        seen = _watch_case(variant, probe)
    except Exception:  # the users' code on the probe: no verdict from it
        return
    if seen.budgets is None or not seen.states or len(seen.states) < 2:
        return
    told = _by_budgets(seen, list(probe.y)).mechanism
    if told not in ("sign-reversed", "label-ignored"):
        return
    head = d.head
    d.mechanism = told
    d.words = (
        f"{head}{MECHANISMS[told]} (fitted again with a point of label +1 first, its "
        f"first change is {'-y x: the sign' if told == 'sign-reversed' else '+x: the label'})"
    )


def _probe_sign(variant: Any, case: Case, d: Divergence) -> None:
    """A fit's first update went against ``y x``: fitted again with a point of each
    label first, its first update tells a reversed sign (against ``y x`` on both labels)
    from an ignored label (with ``y x`` on y = +1, against it on y = -1); anything else
    leaves the reversal unconfirmed."""
    kinds: dict[int, str] = {}
    for label in (1, -1):
        probe = _label_first(case, label)
        try:
            seen = _watch_case(variant, probe)
        except Exception:  # the users' code on the probe: no verdict from it
            return
        if not seen.states or len(seen.states) < 2:
            return
        first = first_divergence(
            seen.points,
            list(probe.y),
            seen.rule,
            seen.states[0],
            [Change(None, seen.states[1])],
            False,
        )
        if first.point is not None and probe.y[first.point] != label:
            return  # its first update was not on the point put first
        kinds[label] = "update" if first.mechanism == "follows" else first.mechanism
    plus, minus = kinds.get(1), kinds.get(-1)
    reversed_ = ("sign-reversed", "sign-or-label")
    if plus in reversed_ and minus in reversed_:
        mech, now = "sign-reversed", "both go against y x"
    elif plus == "update" and minus in reversed_:
        mech, now = "label-ignored", "the first adds y x, the second x"
    else:
        d.mechanism = "sign-or-label" if d.mechanism == "sign-reversed" else d.mechanism
        return
    head = d.head
    d.mechanism = mech
    d.words = (
        f"{head}{MECHANISMS[mech]} (fitted again with a point of label +1 first, then "
        f"one of label -1 first, its first updates: {now})"
    )


def _best_cut(
    cuts: dict[str, list[Vec]], points: list[Vec], y: list[int], rule: Rule
) -> tuple[str, list[Vec]] | None:
    """The line whose executions cut the run into changes that the algorithm's updates
    (or one mistake, repeated) explain best; ties to the finer cut."""
    best: tuple[tuple[Fraction, int, int], str, list[Vec]] | None = None
    tried: set[tuple[Vec, ...]] = set()
    # (a choice, not a verdict: made in floats, on the first changes of each cut)
    floats = [tuple(float(v) for v in x) for x in points]
    fast = replace(rule, tol=Fraction(1, 10**9))
    for key, states in cuts.items():
        width = {len(s) for s in states}
        head = tuple(states[: CUT_CHANGES + 1])
        if len(states) < 2 or width != {len(points[0])} or head in tried:
            continue
        tried.add(head)
        as_floats = [tuple(float(v) for v in s) for s in head]
        changes = [Change(None, s) for s in as_floats[1:]]  # type: ignore[arg-type]
        good = explained(floats, y, fast, as_floats[0], changes)  # type: ignore[arg-type]
        score = (Fraction(good, len(changes)), good, len(states))
        if best is None or score > best[0]:
            best = (score, key, states)
    return None if best is None else (best[1], best[2])


def _first_step(d: Divergence, start: Vec, points: list[Vec]) -> Fraction | None:
    """The step of the implementation's first update (its learning rate): of the first
    update the algorithm agreed with, else of the divergent one."""
    if d.agreed:
        j, w = d.agreed[0]
        moved: Vec = tuple(a - b for a, b in zip(w, start, strict=True))
    elif d.added is not None and d.point is not None:
        j, moved = d.point, d.added
    else:
        return None
    x = points[j]
    i = max(range(len(x)), key=lambda c: abs(x[c]))
    return abs(moved[i] / x[i]) if x[i] else None


# --- the lemma it breaks ------------------------------------------------------------------


def _finish(
    out: Diagnosis,
    d: Divergence,
    start: Vec,
    states: Sequence[Vec],
    rule: Rule,
    u: Vec,
    C: Any,
    g: Any,
    ce: Any,
) -> None:
    """Fill in the trajectories and the lemma lines."""
    out.trajectory = [tuple(start), *[tuple(s) for s in states]][:KEPT]
    ref = [tuple(start), *[w for _, w in d.agreed]]
    if d.update is not None:
        first = d.point if d.point is not None else 0
        ref += [w for _, w in continue_from(out.points, out.labels, rule, d.before, first)]
    out.reference = ref[:KEPT]
    lines: list[str] = []
    if d.update is not None and d.added is not None:
        w, z = d.before, d.added
        progress = sum((a * b for a, b in zip(u, z, strict=True)), Fraction(0))
        growth = sum(((a + b) ** 2 - a * a for a, b in zip(w, z, strict=True)), Fraction(0))
        k = d.update
        after = tuple(a + b for a, b in zip(w, z, strict=True))
        s0 = tuple(start)
        pu = sum((a * b for a, b in zip(u, after, strict=True)), Fraction(0))
        pu1 = sum((a * b for a, b in zip(u, s0, strict=True)), Fraction(0))
        nn = sum((a * a for a in after), Fraction(0))
        n1 = sum((a * a for a in s0), Fraction(0))
        checks = []
        if g is not None:
            checks.append(("G2", "progress u.w_{k+1} - u.w_k >= g", progress, ">=", Fraction(g)))
            checks.append(("P_k", "u.w_{k+1} >= u.w_1 + k g", pu, ">=", pu1 + k * Fraction(g)))
        if C is not None:
            checks.append(("G1", "growth |w_{k+1}|^2 - |w_k|^2 <= C", growth, "<=", Fraction(C)))
            checks.append(("Q_k", "|w_{k+1}|^2 <= |w_1|^2 + k C", nn, "<=", n1 + k * Fraction(C)))
        broken = [c for c in checks if not (c[2] >= c[4] if c[3] == ">=" else c[2] <= c[4])]
        held = [c for c in checks if c not in broken]
        for name, text, lhs, op, rhs in broken:
            lines.append(
                f"so {name} breaks at update {k} ({text}): {_num(lhs)} {op} {_num(rhs)} is false"
            )
        if held:
            lines.append(
                ("still holding" if broken else "every inequality still holds")
                + f" at update {k}: "
                + "; ".join(f"{n}: {_num(lhs)} {op} {_num(rhs)}" for n, _, lhs, op, rhs in held)
            )
    if d.mechanism == "follows":
        lines.append(
            "so the implementation is the algorithm on this case"
            + (" as far as it was seen" if "not seen to its end" in d.words else "")
            + ": what fails is not an update but the claim (or the output) checked"
        )
    out.lemma = lines


def _num(v: Any) -> str:
    return vector_text((Fraction(v),))[1:-1]
