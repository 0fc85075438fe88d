"""How a ``fit(X, y)`` implementation is read, as people write them.

A Perceptron class keeps its predictor in one of a handful of ways: scikit-learn's
``coef_``/``intercept_``, the textbook's ``w_`` with the bias first (``w_[0]``, length
d + 1), ``weights``/``bias``, ``w``/``b``, ``theta``...  It codes labels as -1/+1, as 0/1
or as whatever classes it was given, and its ``predict`` sends a score of exactly 0 to
one class or the other.  :func:`read` finds all of that on *probe fits* and **verifies
it against the model's own** ``predict`` before the checker uses it:

* **labels**: ``fit`` gets -1/+1 (or 0/1 when it refuses -1/+1); the coding of the
  answers is what ``predict`` returns (``-1`` seen: -1/+1; only 0 and 1: 0 means -1);
* **the predictor**: every reading of the known attribute names (and of any other
  numeric attribute of length d or d + 1, bias first or last) is compared with
  ``predict`` on the probe's points and on 40 more points; a reading is kept when the
  sign of its exact score ``w.x + b`` gives ``predict``'s answer wherever that sign is
  certain (the score is farther from 0 than float64 rounding can move it).
  ``coef_`` with ``intercept_`` (scikit-learn's convention) is taken first when it
  agrees.  None left: a dual class's coefficients are tried with the linear kernel
  (``w = sum_i c_i l_i p_i`` from stored points, coefficients and labels), then
  ``predict`` alone is checked (:attr:`Reading.predict_only` says why; the end claim is
  unchecked).  Two different predictors left: an :class:`~pla_proof.errors.InputError`
  that says so and names the options (``weights=``, ``bias=``; ``--weights``,
  ``--bias`` on the command line) -- unless the probe fit mispredicts its own training
  points, a verdict (:attr:`Reading.probe`: the check runs the probe first).  A named
  reading that fails is refused the same way; weights and bias both named are taken as
  given (the checker's ``READ`` property then judges them against ``predict`` on every
  run);
* **sign(0)**: ``predict`` of a copy whose weights and bias are set to 0 (every score is
  then exactly 0); +1 makes the end claim ``SEP0`` (every label predicted, sign(0) = +1),
  anything else ``SEP`` (strict separation);
* **the epoch budget**: the first of ``max_iter``, ``n_iter``, ``n_iters``, ``epochs``,
  ... that the estimator has as an integer attribute (``epochs=`` sets it).

>>> import numpy as np
>>> class Textbook:
...     def __init__(self, eta=0.1, n_iter=10):
...         self.eta, self.n_iter = eta, n_iter
...     def fit(self, X, y):
...         self.w_ = np.zeros(1 + X.shape[1])
...         for _ in range(self.n_iter):
...             for xi, target in zip(X, y):
...                 update = self.eta * (target - self.predict(xi))
...                 self.w_[1:] += update * xi
...                 self.w_[0] += update
...         return self
...     def predict(self, X):
...         return np.where(np.dot(X, self.w_[1:]) + self.w_[0] >= 0.0, 1, -1)
>>> r = read(Textbook)
>>> for part in r.describe().split("; "):
...     print(part)
weights w_[1:], bias w_[0]
fit given -1/+1, predict answers -1/+1
predict(score 0) = +1 (end claim SEP0)
epoch budget n_iter = 10
"""

from __future__ import annotations

import contextlib
import copy
import math
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from ...errors import InputError
from ..boundary.calls import HookError, call_before_runs, hook_error, returned, stuck_in
from ..boundary.limits import DEFAULT_TIME_LIMIT, TOTAL_FACTOR, RunTimeout, time_limit
from .budget import (
    CALLS,
    LONG_ORIGIN_X,
    LONG_ORIGIN_Y,
    LONG_X,
    LONG_Y,
    Knob,
    find_knob,
    knob_candidates,
    same_state,
    with_budget,
)
from .randomness import randomness, seeded

__all__ = [
    "BIAS_NAMES",
    "BUDGET_NAMES",
    "PROBE_X",
    "PROBE_Y",
    "WEIGHT_NAMES",
    "Reading",
    "answers_of",
    "attribute",
    "budget_of",
    "chance_of",
    "eventual",
    "getter",
    "knob_of",
    "plain_number",
    "probes_learned",
    "probing",
    "read",
    "same_predictor",
    "set_budget",
    "size_of",
    "stops_at_zero",
]

#: Where implementations keep their weights, most common first.
WEIGHT_NAMES = ("coef_", "w_", "weights_", "weights", "w", "theta_", "theta", "W", "weight")
#: ... and their bias (a bias may also be the first or last coordinate of the weights).
BIAS_NAMES = ("intercept_", "b_", "bias_", "bias", "b", "intercept", "theta0", "w0")
#: The epoch budget's attribute, most common first.
BUDGET_NAMES = (
    "max_iter",
    "n_iter",
    "n_iters",
    "epochs",
    "n_epochs",
    "n_epoch",
    "num_epochs",
    "max_epochs",
    "epoch",
    "iterations",
    "n_iterations",
    "num_iterations",
    "num_iter",
    "max_iterations",
)

# The probe: separable only with a bias (x1 = 2 separates it with margin 1), so a reading
# that drops or misplaces the bias disagrees with predict; d = 3 tells d from d + 1.
PROBE_X = np.array(
    [[3, 0, 0], [3, 1, 1], [3, -1, 0], [4, 2, -1], [1, 0, 0], [1, 1, 0], [1, 0, 1], [0, -2, 1]],
    dtype=np.float64,
)
PROBE_Y = np.array([1, 1, 1, 1, -1, -1, -1, -1])
#: The through-origin probe: separable by ``u = (2, -1, 1)`` with no bias (every score at
#: least 1 in size), for an implementation with no bias term (the theorem's own setting).
ORIGIN_X = np.array(
    [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 3, 0], [2, 1, -1], [-1, 0, 1], [1, 1, 1], [0, 2, -1]],
    dtype=np.float64,
)
ORIGIN_Y = np.array([1, -1, 1, -1, 1, -1, 1, -1])
_MORE = np.random.default_rng(20261124).integers(-6, 7, size=(40, 3)).astype(np.float64)


@dataclass(frozen=True)
class Reading:
    """Where an implementation keeps its predictor and how it speaks (see the module)."""

    weights: str
    #: ``"first"``/``"last"`` (a coordinate of the weights), an attribute name, or None
    bias: str | None
    #: the labels ``fit`` is given for the negative and the positive class
    fit_labels: tuple[int, int] = (-1, 1)
    #: the value ``predict`` answers for the negative class (-1, or 0 in 0/1 coding)
    negative: int = -1
    #: what ``predict`` says at a score of exactly 0: +1, -1, or 0 (neither class)
    zero: int = -1
    #: the epoch budget's knob and its value on a fresh estimator (see :attr:`budget_knob`)
    budget: tuple[str, int] | None = None
    #: a dual reading, ``w = sum_i c_i l_i p_i``: the attributes of the coefficients
    #: ``c``, the labels ``l`` (None: the coefficients are signed) and the points ``p``
    dual: tuple[str, str | None, str] | None = None
    #: a training function's reading: what it returns, in words (``"(w, b)"``, ...)
    returns: str | None = None
    #: why no weights could be read: ``predict`` alone is checked, the end claim is not
    predict_only: str | None = None
    #: what the probe fit mispredicts of its own separable training points (a verdict:
    #: the probe is checked first, never a reason to refuse)
    probe: str | None = None
    #: no bias term: the implementation learns separators through the origin only (the
    #: theorem's own setting), so every case it is given is separable through the origin
    origin: bool = False
    #: where the budget lives (:class:`~.budget.Knob`'s kind) and whether it was found by
    #: its name (else by its behaviour: it may count epochs, updates or visits)
    knob_kind: str = "attribute"
    knob_known: bool = True
    knob_owner: str = ""
    #: with sign(0) = -1: whether ``fit`` stops with a negative point at a score of
    #: exactly 0 (its own predictor gets it right: end claim ``SEP0N``, else ``SEP``)
    #: (None: behaviour cannot say -- a start away from zero made inside ``fit`` -- and
    #: a negative point at 0, which its ``predict`` gets right, is not held against it)
    stops_at_zero: bool | None = False
    #: how its fit depends on chance (:func:`~.randomness.randomness`), or None
    chance: str | None = None
    #: what the fit returns: ``"last"`` (the last weights, the theorem's), or the
    #: ``"averaged"`` or ``"voted"`` perceptron's output (declared by the user: no claim
    #: that it separates or predicts the training data, which it need not)
    output: str = "last"
    #: a hint from its behaviour that the output is not the last weights, or None
    hint: str | None = None
    #: the method that answers its labels: ``predict``, or (a class with none) the one
    #: found by its behaviour (:mod:`.methods`)
    predicts: str = "predict"
    #: what the check makes for each call that the user's code does not default (a
    #: training function's start weights: :class:`~.dimension.Started`), in words
    made: str = ""
    #: the named reading was taken as given because the probe fit failed (raised or
    #: did not return): the other probes are skipped, the runs say what the code does
    unprobed: bool = False
    #: a training function's predictor beside it (a :class:`~.beside.Beside`, which
    #: reads answers through this module: typed loosely here), or None: its points are
    #: then classified by it (``PREDICT`` and ``READ`` judge it)
    beside: Any = None
    #: the bias read is a threshold the score is compared with (``w.x >= t``): the
    #: bias is ``-t`` (found by its behaviour where ``+t`` does not give its answers)
    threshold: bool = False

    @property
    def budget_knob(self) -> Knob | None:
        """The epoch budget as a :class:`~.budget.Knob` (None: no budget found)."""
        if self.budget is None:
            return None
        name, value = self.budget
        return Knob(self.knob_kind, name, value, self.knob_known, self.knob_owner)

    @property
    def end(self) -> str | None:
        """The end claim the implementation makes: ``SEP0`` when a score of 0 predicts
        the positive class, else ``SEP`` (strict separation); None when no weights could
        be read (``predict`` alone is checked)."""
        if self.predict_only is not None or self.output != "last":
            return None
        if self.zero == -1 and self.stops_at_zero is not False:
            return "SEP0N"
        return "SEP0" if self.zero == 1 else "SEP"

    @property
    def labels(self) -> str:
        """``"pm1"`` or ``"01"``: what ``fit`` is given."""
        return "01" if self.fit_labels == (0, 1) else "pm1"

    def encode(self, y: Sequence[int]) -> np.ndarray:
        """-1/+1 labels as ``fit`` takes them."""
        neg, pos = self.fit_labels
        return np.array([pos if v > 0 else neg for v in y])

    def decode(self, answers: Any) -> list[int]:
        """``predict``'s answers as -1/+1 (0 for an answer that is neither class)."""
        out = []
        for a in np.ravel(np.asarray(answers)):
            v = plain_number(a)
            out.append(1 if v == 1 else -1 if v == self.negative else 0)
        return out

    def predictor(self, est: Any) -> tuple[list[Fraction], Fraction]:
        """``(w, b)`` of a fitted estimator, exactly (every float64 is a rational)."""
        if self.predict_only is not None:
            raise ValueError(f"no weights can be read: {self.predict_only}")
        if self.dual is not None:
            w, b, _, _ = _dual_predictor(est, self.dual, self.bias)
            return w, b
        w, b = _predictor(est, self.weights, self.bias)
        return (w, -b) if self.threshold else (w, b)

    def slack(self, est: Any) -> Callable[[Sequence[float]], Fraction]:
        """How far float64 arithmetic can move the fitted model's score at a point from
        the exact score of :meth:`predictor` (:func:`score_slack`; for a dual reading,
        over the terms ``c_i l_i p_i.x`` the model sums)."""
        if self.dual is not None:
            _, b, mag, terms = _dual_predictor(est, self.dual, self.bias)
            return lambda x: _slack(mag, b, x, terms)
        w, b = self.predictor(est)
        return lambda x: score_slack(w, b, x)

    def describe(self) -> str:
        fit = "-1/+1" if self.fit_labels == (-1, 1) else "0/1"
        answers = "0/1" if self.negative == 0 else "-1/+1"
        if self.predicts != "predict":
            answers += f" (its {self.predicts}(), found by its behaviour: it has no predict)"
        zero = {1: "+1", -1: "-1", 0: "neither class"}[self.zero]
        if self.predict_only is not None:
            text = (
                f"predict() only ({self.predict_only}): "
                + (
                    "PREDICT, STOP and EPOCHS judged from predict(), the end claim (SEP on the "
                    "weights) unchecked; "
                    if self.output == "last"
                    else ""
                )
                + (
                    f"fit given {fit}, predict's answers not seen"
                    if self.predict_only.endswith("raises on valid data")
                    else f"fit given {fit}, predict answers {answers}"
                )
                + ("; through the origin (no bias)" if self.origin else "")
            )
        elif self.returns is not None:
            how = {1: "sign(0) = +1", -1: "sign(0) = -1"}.get(self.zero, "strict sign")
            origin = ", through the origin (no bias)" if self.origin else ""
            text = (
                f"a training function returning {self.returns}{origin}; called with {fit} labels; "
                + (
                    f"its points classified by {self.beside.describe()} (PREDICT and READ "
                    f"judge it), the returned weights' {how} by the end claim {self.end}"
                    if self.beside is not None
                    else f"its points classified by the returned weights, {how} "
                    + (f"(end claim {self.end})" if self.end else "(no end claim)")
                )
            )
        else:
            text = (
                f"{self._where()}; fit given {fit}, predict answers {answers}; "
                f"predict(score 0) = {zero} "
                + (f"(end claim {self.end})" if self.end else "(no end claim)")
            )
        knob = self.budget_knob
        text += "; no epoch budget found" if knob is None else f"; epoch budget {knob.describe()}"
        if self.output != "last":
            text += (
                f"; output {self.output} (declared): no claim that it separates or predicts "
                "its training data on its own budget (it need not)"
            )
            if self.output == "voted":
                text += ", nor that predict() agrees with one linear predictor (a vote is not one)"
            if eventual(self):
                text += ", but given passes enough it predicts them (PREDICT)"
            elif knob is None:
                text += ", and no budget to give it passes enough to predict them"
            else:  # an average read through predict() alone
                text += (
                    ", and no weights read to tell a tie float rounding decided from a "
                    "mistake: no claim that passes enough make it predict them"
                )
        if self.made:
            text += f"; {self.made}"
        if self.hint is not None:
            text += f"; {self.hint}"
        if self.chance is not None:
            text += f"; {self.chance}"
        if self.probe is not None:
            text += f"; {self.probe}"
        return text

    def _where(self) -> str:
        w, b = self.weights, self.bias
        if self.dual is not None:
            c, lab, p = self.dual
            terms = f"{c}[i] {lab}[i] {p}[i]" if lab else f"{c}[i] {p}[i]"
            where = f"weights sum_i {terms} (dual coefficients, linear kernel)"
            if b == _SUM:
                return f"{where}, bias sum_i {c}[i]" + (f" {lab}[i]" if lab else "")
            return where + (f", bias {b}" if b else self._no_bias())
        minus = "-" if self.threshold else ""
        said = " (a threshold: the score is w.x minus it, found by its behaviour)"
        said = said if self.threshold else ""
        if b == "first":
            return f"weights {w}[1:], bias {minus}{w}[0]{said}"
        if b == "last":
            return f"weights {w}[:-1], bias {minus}{w}[-1]{said}"
        if b is None:
            return f"weights {w}{self._no_bias()}"
        return f"weights {w}, bias {minus}{b}{said}"

    def _no_bias(self) -> str:
        return ", through the origin (no bias)" if self.origin else ", no bias"


def read(
    factory: Callable[[], Any],
    *,
    weights: str | None = None,
    bias: str | None = None,
    labels: str = "auto",
    epochs: int | None = None,
    limit: float | None = DEFAULT_TIME_LIMIT,
) -> Reading:
    """Read the implementation ``factory()`` makes (see the module docs); ``weights``,
    ``bias`` (``"first"``, ``"last"``, ``"none"`` or an attribute), ``labels``
    (``"pm1"``, ``"01"`` or ``"auto"``) and ``epochs`` (its epoch budget) name what the
    probes would otherwise find.  Raises ``InputError`` naming the problem and the
    options when the implementation cannot be read.  The probes are users' code, under
    the per-run ``limit`` (times :data:`~pla_proof.variants.boundary.TOTAL_FACTOR`):
    when weights and bias are both named, a probe that fails is no refusal -- the
    reading is taken as given and the check's runs report what the code does."""
    with seeded(0):  # an implementation that draws from the global state: read alike
        return _read_seeded(factory, weights, bias, labels, epochs, limit)


def _read_seeded(
    factory: Callable[[], Any],
    weights: str | None,
    bias: str | None,
    labels: str,
    epochs: int | None,
    limit: float | None,
) -> Reading:
    budget = budget_of(call_before_runs(factory, "__init__", limit))
    if epochs is not None and budget is not None:
        budget = (budget[0], epochs)
    reading = _read(factory, weights, bias, labels, budget, limit)
    if not reading.unprobed:  # (else no other probe: each would fail the same way)
        reading = _behaviour(reading, factory, limit)
    if epochs is not None:
        if reading.budget is None:
            raise InputError(
                f"epochs={epochs}: no epoch budget found: no attribute, keyword of fit() or "
                "module constant of the estimator bounds its training "
                f"({', '.join(BUDGET_NAMES[:4])}, ... by name; any other integer knob when "
                "raising it lets fit() finish a case that needs more passes)"
            )
        reading = replace(reading, budget=(reading.budget[0], epochs))
    return reading


def _behaviour(reading: Reading, factory: Callable[[], Any], limit: float | None) -> Reading:
    """The reading completed by what the fit does: its budget's knob, its stop at a
    score of 0, its chance, a hint about its output."""
    if reading.budget is None:  # any other knob that behaves as a budget
        reading = knob_of(reading, factory, limit)
    if reading.zero == -1 and reading.predict_only is None:
        reading = replace(reading, stops_at_zero=stops_at_zero(reading, factory, limit))
    reading = replace(reading, chance=chance_of(reading, factory, limit))
    if reading.chance is None:
        reading = replace(reading, hint=_moving(reading, factory, limit))
    return reading


#: A knob whose default allows this many passes (or updates, or visits) is not why a fit
#: mispredicts the 8-point probe (the classic algorithm settles it in a few passes).
PROBE_PASSES = 100


def knob_of(
    reading: Reading, factory: Callable[[], Any], limit: float | None, by_work: bool = False
) -> Reading:
    """The reading with the knob that behaves as its epoch budget, if any: an integer of
    a fresh ``factory()`` (an attribute, a ``fit`` keyword, a default, a module constant)
    that, set low and high, changes how many points of the long probe it mispredicts --
    or, ``by_work`` (a declared averaged or voted output, which need not predict the
    probe), that makes its fit do many times the work (:func:`~.budget.find_knob`).
    A training function is read by the same probe (``factory`` makes its adapter)."""
    try:
        with probing(limit):
            fresh = factory()
    except HookError:
        return reading
    X, Y = (LONG_ORIGIN_X, LONG_ORIGIN_Y) if reading.origin else (LONG_X, LONG_Y)

    def mispredicted(knob: Knob, value: int) -> int | None:
        try:
            with probing(limit):
                est = with_budget(factory(), knob, value)
                _quiet_fit(est, X.copy(), reading.encode(Y.tolist()))
                answers = reading.decode(answers_of(est, X))
        except Exception:  # the user's code, or the clock: not a budget's behaviour
            return None
        return int(sum(a != t for a, t in zip(answers, Y.tolist(), strict=True)))

    def goes_on(knob: Knob) -> bool:
        """Two calls of ``fit`` leave another model than one (it goes on from where it
        was): only then can its number of calls be its budget (else calling it
        LARGE_CALLS times only costs that many fits)."""
        try:
            fitted = []
            for calls in (1, 2):
                with probing(limit), seeded(0):
                    est = with_budget(factory(), knob, calls)
                    _quiet_fit(est, X.copy(), reading.encode(Y.tolist()))
                fitted.append(est)
        except Exception:  # (its own error: find_knob's probes say what it does)
            return True
        return not same_state(fitted[0], fitted[1], CALLS)

    def seconds(knob: Knob, value: int) -> float | None:
        """The shortest of two fits' times with the knob at ``value``."""
        times = []
        for _ in range(2):
            try:
                with probing(limit):
                    est = with_budget(factory(), knob, value)
                    start = time.perf_counter()
                    _quiet_fit(est, X.copy(), reading.encode(Y.tolist()))
                    times.append(time.perf_counter() - start)
            except Exception:  # the user's code, or the clock: no work measured
                return None
        return min(times)

    candidates = knob_candidates(fresh, BUDGET_NAMES, frozenset())
    candidates = [k for k in candidates if k.kind != "calls" or goes_on(k)]
    if reading.probe is not None:
        # it mispredicts the 8-point probe, which the algorithm settles in a few passes:
        # a knob already allowing PROBE_PASSES or more did not stop it (raising it to
        # LARGE would only run the fit that long)
        candidates = [k for k in candidates if k.known or k.value < PROBE_PASSES]
    knob = find_knob(candidates, mispredicted, seconds if by_work else None)
    if knob is None:
        return reading
    return replace(
        reading,
        budget=(knob.name, knob.value),
        knob_kind=knob.kind,
        knob_known=knob.known,
        knob_owner=knob.owner,
    )


def _read(
    factory: Callable[[], Any],
    weights: str | None,
    bias: str | None,
    labels: str,
    budget: tuple[str, int] | None,
    limit: float | None,
) -> Reading:
    if bias == "none":
        bias = None
        no_bias = True
    else:
        no_bias = False
    named = weights is not None and (bias is not None or no_bias)
    args = (factory, labels, budget, weights, bias, no_bias, named, limit)
    if no_bias:  # said by the user: the theorem's own setting, probed through the origin
        return replace(_read_on(ORIGIN_X, ORIGIN_Y, *args), origin=True)
    try:
        reading = _read_on(PROBE_X, PROBE_Y, *args)
    except InputError as exc:
        # a fit that fails on data that need a bias may be one with no bias term: it is
        # read on a through-origin probe, and taken as one if it has no bias there
        try:
            again = _read_on(ORIGIN_X, ORIGIN_Y, *args)
        except InputError:
            raise exc from None
        if not _has_bias(again):
            return replace(again, origin=True)
        raise
    if _has_bias(reading):
        return reading
    if reading.predict_only is not None and reading.probe is None:
        return reading  # predict() alone learns data that need a bias: it has one
    # no bias term (or predict() alone, missing data that need a bias): probed again
    # through the origin, the theorem's own setting
    try:
        again = _read_on(ORIGIN_X, ORIGIN_Y, *args)
    except InputError:
        return reading
    if reading.predict_only is not None and again.probe is not None:
        return reading  # predict() alone misses both probes: the biased one is the verdict
    return replace(again, origin=True) if not _has_bias(again) else reading


#: Two points on which fit() from zero weights ends with the first (negative) point at a
#: score of exactly 0 when it takes a score of 0 as negative and makes no update there,
#: and elsewhere when it updates on ``y (w.x + b) <= 0`` (the theorem's rule); with a
#: bias, and through the origin.
_AT_ZERO = {
    False: (np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]), np.array([-1, 1])),
    True: (np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]), np.array([-1, 1])),
}


def stops_at_zero(reading: Reading, factory: Callable[[], Any], limit: float | None) -> bool | None:
    """Whether ``fit`` leaves a negative point at a score of exactly 0 (its ``predict``
    says -1 there): its stopping rule is "every label predicted", sign(0) = -1.  None
    where behaviour cannot say: its start is not zero and is made inside ``fit``, so
    the probe that reaches a score of exactly 0 from zero cannot be run."""
    X, Y = _AT_ZERO[reading.origin]
    for from_zero in (False, True):
        try:
            with probing(limit):  # with a budget that lets it finish these two points
                more = None if reading.budget is None else max(reading.budget[1], 1000)
                est = set_budget(factory(), reading, more)
                if from_zero and not _zeroed(est, reading, X.shape[1]):
                    return None if _starts_away(reading, factory, X, Y) else False
                _quiet_fit(est, X.copy(), reading.encode(Y.tolist()))
                w, b = reading.predictor(est)
                said = reading.decode(answers_of(est, X[:1]))
        except Exception:  # the user's code, or the clock: the theorem's strict claim
            return False
        score = sum((a * Fraction(float(v)) for a, v in zip(w, X[0], strict=True)), b)
        if score == 0 and said == [-1]:
            return True
    return False


def _starts_away(
    reading: Reading, factory: Callable[[], Any], X: np.ndarray, Y: np.ndarray
) -> bool:
    """Whether a fit with no epochs leaves weights that are not zero (its start, made
    inside ``fit``); False where that cannot be seen (no budget, or it raises)."""
    if reading.budget is None:
        return False
    try:
        est = set_budget(factory(), reading, 0)
        _quiet_fit(est, X.copy(), reading.encode(Y.tolist()))
        w, b = reading.predictor(est)
    except Exception:  # users' code
        return False
    return any(w) or b != 0


def _zeroed(est: Any, reading: Reading, d: int) -> bool:
    """Set a fresh estimator's start to zero where it keeps it before ``fit`` (a bias
    made 1, random weights): its scalar bias attribute, and its weights where they
    already have the data's ``d`` coordinates.  False when there is nothing to set (its
    start is ``fit``'s own: the first try saw it)."""
    changed = False
    bias = reading.bias
    if bias not in (None, "first", "last", _SUM) and reading.dual is None:
        v = getattr(est, str(bias), None)
        if isinstance(v, int | float | np.number) and not isinstance(v, bool) and v != 0:
            setattr(est, str(bias), type(v)(0))
            changed = True
    w = getattr(est, reading.weights, None) if reading.dual is None else None
    if isinstance(w, np.ndarray) and w.size == d + (bias in ("first", "last")) and w.any():
        setattr(est, reading.weights, np.zeros_like(w))
        changed = True
    elif isinstance(w, list) and len(w) == d + (bias in ("first", "last")) and any(w):
        setattr(est, reading.weights, [0.0] * len(w))
        changed = True
    return changed


def chance_of(reading: Reading, factory: Callable[[], Any], limit: float | None) -> str | None:
    """Whether the fit draws from the global random state (see :mod:`.randomness`), on
    the long probe: its weights read, or its answers when none can be."""
    X, Y = (LONG_ORIGIN_X, LONG_ORIGIN_Y) if reading.origin else (LONG_X, LONG_Y)

    def fitted() -> Any:
        est = set_budget(factory(), reading)
        _quiet_fit(est, X.copy(), reading.encode(Y.tolist()))
        if reading.predict_only is None:
            w, b = reading.predictor(est)
            return [*w, b]
        return [plain_number(a) for a in answers_of(est, _check_points(X))]

    try:
        with probing(limit):
            return randomness(fitted)
    except Exception:  # a fit that fails here fails in the runs, where it is reported
        return None


def _moving(reading: Reading, factory: Callable[[], Any], limit: float | None) -> str | None:
    """A hint that the output is not the last weights: on the long probe, with its budget
    and twice it, every training point is predicted, but the two fits are different
    predictors (the last weights of the theorem's algorithm stop moving once it
    separates; an average keeps moving)."""
    if reading.budget is None or reading.predict_only is not None:
        return None
    X, Y = (LONG_ORIGIN_X, LONG_ORIGIN_Y) if reading.origin else (LONG_X, LONG_Y)
    B = max(reading.budget[1], 100)
    fits = []
    try:
        with probing(limit):
            for epochs in (B, 2 * B):
                est = set_budget(factory(), reading, epochs)
                _quiet_fit(est, X.copy(), reading.encode(Y.tolist()))
                if reading.decode(answers_of(est, X)) != Y.tolist():
                    return None
                w, b = reading.predictor(est)
                fits.append([*w, b])
    except Exception:  # the user's code, or the clock: no hint
        return None
    if same_predictor(fits[0], fits[1]):
        return None
    return (
        "its weights keep moving after every training point is predicted: an averaged or "
        "voted output? (--output averaged|voted declares it)"
    )


def eventual(r: Reading) -> bool:
    """Whether a declared averaged or voted output is claimed to predict its training
    points given passes enough (:mod:`.outputs`): where a budget can be raised, and, for
    an average, its weights read (a float average can stall on a tie its last vector
    stopped at, which only the weights show)."""
    if r.output == "last" or r.budget is None:
        return False
    return r.output == "voted" or r.predict_only is None


def _has_bias(r: Reading) -> bool:
    """Whether the reading has a bias term; ``predict()`` alone: unknown (True)."""
    return r.predict_only is not None or r.bias is not None


def _read_on(
    X: np.ndarray,
    Y: np.ndarray,
    factory: Callable[[], Any],
    labels: str,
    budget: tuple[str, int] | None,
    weights: str | None,
    bias: str | None,
    no_bias: bool,
    named: bool,
    limit: float | None,
) -> Reading:
    """The reading found on one probe, the points ``X`` with the labels ``Y``."""
    points = _check_points(X)
    try:
        with probing(limit):
            est, fit_labels = _probe_fit(factory, labels, budget, X, Y, limit)
            answers = answers_of(est, points)
            candidates = _candidates(est, weights, bias, no_bias)
            duals = [] if weights is not None else _dual_candidates(est, bias, no_bias)
    except FitRaised as exc:  # raises on valid data: a finding, the probe checked first
        first = str(exc).split(": labels ", 1)[-1].split("; labels ")[0].split(": ", 1)[-1]
        said = f"fit() raises on a separable 8-point probe ({first}): checked first"
        if named:
            assert weights is not None
            return Reading(weights, bias, zero=0, budget=budget, probe=said)
        which = "predict()" if first.startswith("predict() raised") else "fit()"
        alone = f"{which} raises on valid data"
        return Reading("", None, zero=0, budget=budget, predict_only=alone, probe=said)
    except HookError as exc:
        if not named:
            raise InputError(str(exc)) from None
        assert weights is not None
        # taken as given: the runs judge it (no other probe: each would fail the same way)
        return Reading(weights, bias, zero=0, budget=budget, unprobed=True)
    negative = _negative(answers, fit_labels)
    base = Reading("", None, fit_labels, negative, -1, budget)
    decoded = base.decode(answers)
    if named:  # taken as given: the runs say what the attributes hold (READ judges them)
        assert weights is not None
        if not candidates:
            return replace(base, weights=weights, bias=bias, zero=0)
        chosen = replace(base, weights=candidates[0][0], bias=candidates[0][1])
        return replace(chosen, zero=_zero(est, chosen))
    probe = _probe_misses(decoded, Y)
    conventional = _conventional(est, candidates, base, decoded, points)
    if conventional is not None:
        return replace(conventional, zero=_zero(est, conventional), probe=probe)
    agree, miss = _agreeing(est, candidates, base, decoded, points)
    scalars = []
    if not agree and bias is None and not no_bias:  # a bias under a name of its own
        scalars = _candidates(est, weights, None, False, any_scalar=True)
        agree, _ = _agreeing(est, scalars, base, decoded, points)
    if not agree and bias is None and not no_bias:  # a threshold: w.x >= t, the bias -t
        biased = [(w, b) for w, b in [*candidates, *scalars] if b is not None]
        agree, _ = _agreeing(est, biased, replace(base, threshold=True), decoded, points)
    if not agree and duals:  # a dual class: its coefficients, verified the same way
        agree, dual_miss = _agreeing(est, duals, base, decoded, points)
        miss = miss or f"{dual_miss} (with the linear kernel)"
    if not agree:
        return _unreadable(base, weights, bias, miss, probe)
    chosen = _unique(agree, probe)
    return replace(chosen, zero=_zero(est, chosen), probe=probe)


def _check_points(X: np.ndarray) -> np.ndarray:
    """The probe's points and 80 more, where a reading must give ``predict``'s answers."""
    return np.vstack([X, _MORE, 0.5 * _MORE + 1])


def _unreadable(
    base: Reading, weights: str | None, bias: str | None, miss: str, probe: str | None
) -> Reading:
    """No reading agrees with ``predict``: named ones are refused (naming the options),
    else ``predict`` alone is checked (the end claim is unchecked, with the reason)."""
    if weights is not None or bias is not None:
        if not miss:
            raise InputError(
                "cannot find the fitted weights: no attribute "
                + ("named " + repr(weights) if weights else "among " + ", ".join(WEIGHT_NAMES))
                + " has d or d + 1 numbers after fit(); name them with --weights ATTR "
                "(weights= in Python)"
            )
        raise InputError(
            "the weights found do not give the model's own predict() answers ("
            + miss
            + "); name them with --weights ATTR and --bias first|last|none|ATTR "
            "(weights=, bias= in Python)"
        )
    why = (
        f"no weights found give its predict()'s answers: {miss}"
        if miss
        else "no attribute holds d or d + 1 numbers, or dual coefficients, after fit()"
    )
    why += "; --weights ATTR --bias first|last|none|ATTR name them"
    return replace(base, zero=0, predict_only=why, probe=probe)


def _conventional(
    est: Any,
    candidates: list[tuple[str, str | None]],
    base: Reading,
    decoded: list[int],
    points: np.ndarray,
) -> Reading | None:
    """scikit-learn's convention first: ``coef_`` the weights and ``intercept_`` the bias,
    when the two give ``predict``'s answers (no alternative is weighed against them)."""
    if ("coef_", "intercept_") not in candidates:
        return None
    agree, _ = _agreeing(est, [("coef_", "intercept_")], base, decoded, points)
    return agree[0][0] if agree else None


def _agreeing(
    est: Any,
    candidates: Sequence[tuple[Any, str | None]],
    base: Reading,
    decoded: list[int],
    points: np.ndarray,
) -> tuple[list[tuple[Reading, list[Fraction]]], str]:
    """The readings whose exact scores give ``predict``'s answers, with their ``(w, b)``,
    and why the first one that does not was dropped."""
    agree: list[tuple[Reading, list[Fraction]]] = []
    first_miss = ""
    for w_attr, b_attr in candidates:
        if isinstance(w_attr, tuple):
            reading = replace(base, weights=w_attr[0], bias=b_attr, dual=w_attr)
        else:
            reading = replace(base, weights=w_attr, bias=b_attr)
        try:
            w, b = reading.predictor(est)
            slack = reading.slack(est)
        except (TypeError, ValueError, IndexError, AttributeError):
            continue
        miss = _disagrees(w, b, decoded, points, slack)
        if miss is None:
            agree.append((reading, [*w, b]))
        elif not first_miss:
            first_miss = f"{_name(reading)}: {miss}"
    return agree, first_miss


def _unique(agree: list[tuple[Reading, list[Fraction]]], probe: str | None) -> Reading:
    """The one predictor the agreeing readings give; two different ones are ambiguous --
    unless the probe fit already mispredicts its own training points: that is a verdict
    (the first reading, the most common convention, is taken, and the runs report it)."""
    chosen, vector = agree[0]
    for other, other_vector in agree[1:]:
        if not same_predictor(vector, other_vector) and probe is None:
            raise InputError(
                f"ambiguous weights: {_name(chosen)} and {_name(other)} both give predict()'s "
                "answers on the probe but are different predictors; name the one predict() "
                "uses with --weights ATTR and --bias first|last|none|ATTR (weights=, bias= in "
                "Python)"
            )
    return chosen


def _probe_misses(decoded: Sequence[int], Y: np.ndarray = PROBE_Y) -> str | None:
    """What ``predict`` gets wrong on the probe's own (separable) training points."""
    wrong = [i for i, y in enumerate(Y) if decoded[i] != y]
    if not wrong:
        return None
    return (
        f"the probe fit mispredicts {len(wrong)} of its {len(Y)} separable training "
        "points (checked first, as a fixed example)"
    )


def set_budget(est: Any, reading: Reading, epochs: int | None = None) -> Any:
    """``est`` with its epoch budget set to ``epochs`` (default: the reading's): the
    attribute set, or ``fit`` passing the keyword or setting the module constant."""
    knob = reading.budget_knob
    if knob is not None:
        with_budget(est, knob, knob.value if epochs is None else epochs)
    return est


# --- the probes -----------------------------------------------------------------------------


def budget_of(est: Any) -> tuple[str, int] | None:
    for name in BUDGET_NAMES:
        v = getattr(est, name, None)
        if isinstance(v, int | np.integer) and not isinstance(v, bool) and v > 0:
            return name, int(v)
    return None


def _quiet_fit(est: Any, X: np.ndarray, y: np.ndarray) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = est.fit(X, y)
    return out


def _probe_fit(
    factory: Callable[[], Any],
    labels: str,
    budget: tuple[str, int] | None,
    X: np.ndarray = PROBE_X,
    Y: np.ndarray = PROBE_Y,
    limit: float | None = DEFAULT_TIME_LIMIT,
) -> tuple[Any, tuple[int, int]]:
    """A fitted estimator on the probe, and the labels its ``fit`` took."""
    codings = {"pm1": [(-1, 1)], "01": [(0, 1)], "auto": [(-1, 1), (0, 1)]}
    if labels not in codings:
        raise InputError(f"labels must be 'pm1', '01' or 'auto', got {labels!r}")
    errors: list[str] = []
    raised: list[Exception] = []
    fitted: list[tuple[Any, tuple[int, int], set[Any], int]] = []
    stuck = 0  # codings whose fit did not return
    for neg, pos in codings[labels]:
        est = factory()
        if budget is not None:
            setattr(est, budget[0], budget[1])
        y = np.where(Y > 0, pos, neg)
        # a second coding has its own limit: a fit that loops on labels it does not take
        # (0 where it expects -1) is not stuck (the first is under the caller's limit)
        own = time_limit(limit) if fitted or errors else None
        step = "fit"  # (which of the two raised: its message names it)
        try:
            with own if own is not None else contextlib.nullcontext():
                _quiet_fit(est, X.copy(), y)
                step = "predict"
                said = [plain_number(a) for a in answers_of(est, X)]
        except RunTimeout:
            if own is None or own.at_deadline:
                raise  # the caller's limit, or the check's deadline: not this coding's
            errors.append(f"labels {neg}/{pos}: fit() did not return in {limit} s")
            stuck += 1
            continue
        except HookError as exc:
            errors.append(f"labels {neg}/{pos}: {exc}")
            continue
        except Exception as exc:  # the user's code: reported, never a traceback
            errors.append(f"labels {neg}/{pos}: {hook_error(step, exc)}")
            raised.append(exc)
            continue
        answers = set(said)
        right = sum(int(a == t) for a, t in zip(said, y.tolist(), strict=True))
        fitted.append((est, (neg, pos), answers, right))
        if neg == -1 and (-1 in answers or (0 not in answers and len(answers) > 1)):
            break  # it answers in -1/+1: its own coding
    if fitted:
        # a class that answers 0/1 is trained in 0/1 (given -1/+1 without refusing them,
        # it may learn from labels it does not expect -- or map -1 to +1): the coding
        # whose answers are in the labels' own set, most of its training points right
        in_own = [f for f in fitted if f[2] <= {f[1][0], f[1][1]}]
        if in_own:
            est, coding, _, _ = max(in_own, key=lambda f: f[3])  # (the first of equals)
            return est, coding
        est, coding, _, _ = fitted[0]
        return est, coding
    message = "fit() then predict() fail on a separable 8-point probe: " + "; ".join(
        e.splitlines()[0] for e in errors
    )
    if raised and len(raised) + stuck == len(errors):  # (in the other coding: stuck)
        raise FitRaised(message)
    raise HookError(message)


class FitRaised(HookError):
    """``fit``/``predict`` raised on valid data, in every label coding: a finding about
    the code (the probe is checked first, and fails ``RUNS``), not a refusal."""


def _one_number(v: Any) -> bool:
    """A single number (a bool, an int, a float, NumPy's), as one answer is."""
    return isinstance(v, int | float | np.number | np.bool_) or (
        isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "biuf"
    )


def answers_of(est: Any, X: np.ndarray) -> list[Any]:
    """``est.predict(X)``, one answer per point (a :class:`HookError` naming
    ``predict()`` and its line when it returns something else).  A ``predict`` written
    for one point at a time (it raises on several, or gives one answer for all) is asked
    point by point, each a one-row matrix -- or, where that fails too, a vector
    (``test(inputs)`` reading ``inputs[i]`` as the i-th coordinate); what it does then
    is its own.

    >>> class OneAtATime:
    ...     def predict(self, X):
    ...         return 1 if (X @ np.ones(2)).item() > 0 else 0
    >>> [int(a) for a in answers_of(OneAtATime(), np.array([[1.0, 1.0], [-1.0, -1.0]]))]
    [1, 0]
    >>> class ByCoordinate:
    ...     def predict(self, x):
    ...         return 1 if x[0] + x[1] >= 0 else 0
    >>> [int(a) for a in answers_of(ByCoordinate(), np.array([[1.0, 1.0], [-1.0, -1.0]]))]
    [1, 0]
    """
    raised = False
    try:
        raw = est.predict(X.copy())
        out = None if raw is None else np.ravel(np.asarray(raw))
    except Exception:
        if len(X) < 2:  # one point: as a vector, else its error as it raised
            with contextlib.suppress(Exception):
                one = _one_answer(_labelled(est.predict(X[0].copy())))
                if one is not None:
                    return [one]
            raise
        out = raw = None
        raised = True
    if len(X) > 1 and (raised or _one_number(raw)):  # asked point by point
        one_by_one = _point_by_point(est, X)
        if one_by_one is not None:
            return one_by_one
        if raised:  # its error on the whole matrix, as it raised
            raw = est.predict(X.copy())
    if out is None or len(out) != len(X):
        raise HookError(returned(est.predict, "predict", raw, f"one answer per point ({len(X)})"))
    if X.ndim == 2 and X.shape[0] == X.shape[1]:
        # a square matrix: a predict written for one point (np.dot(w, x)) contracts the
        # wrong axis and answers len(X) numbers without raising -- asked point by point,
        # a predict of matrices answers the same; one of points does not, and is right
        one_by_one = _point_by_point(est, X)
        plain = [plain_number(a) for a in out]
        if one_by_one is not None and [plain_number(a) for a in one_by_one] != plain:
            return one_by_one
    return list(out)


def probes_learned(
    probes: Sequence[tuple[np.ndarray, np.ndarray]],
    learns: Callable[[np.ndarray, np.ndarray, np.ndarray], bool],
    limit: float | None,
) -> set[int]:
    """The indices of ``probes`` (points, -1/+1 labels) that users' code learns, in
    -1/+1 or in 0/1: ``learns(X, Y, y)`` fits it on the points with ``y``, the labels
    in a coding, and says whether it got the training points right (it raising: not
    learned).  A coding whose fit does not return within ``limit`` is not tried again
    (a 0/1 class given -1 may loop to its budget: the other coding still tells what it
    learns); none returning on a probe, the next probe is tried (a loop with no budget
    and no bias term never ends on data that need a bias, and learns the others) -- on a
    second such probe, no more of its time is spent."""
    out: set[int] = set()
    slow: set[tuple[int, int]] = set()
    hung = 0
    for i, (X, Y) in enumerate(probes):
        for neg, pos in ((-1, 1), (0, 1)):
            if (neg, pos) in slow:
                continue
            try:
                with time_limit(limit):
                    learned = learns(X, Y, np.where(Y > 0, pos, neg))
            except RunTimeout:  # it does not return in this coding
                slow.add((neg, pos))
                if len(slow) == 2:
                    hung += 1
                    if hung == 2:
                        return out
                    slow.clear()
                    break
                continue
            except Exception:  # (its own error: not learned so)
                continue
            if learned:
                out.add(i)
                break
    return out


def _point_by_point(est: Any, X: np.ndarray) -> list[Any] | None:
    """``predict`` asked for each point alone -- a one-row matrix, else a vector -- one
    number each (or a pair whose first is a label, ``(activation, summation)``: the
    label); None when it does not answer so."""
    for as_row in (True, False):  # each point a one-row matrix, else a vector
        try:
            row = [
                _labelled(est.predict(X[i : i + 1].copy() if as_row else X[i].copy()))
                for i in range(len(X))
            ]
        except Exception:
            row = []
        answers = [_one_answer(a) for a in row]
        if row and all(a is not None for a in answers):
            return answers
    return None


def _labelled(out: Any) -> np.ndarray:
    """One point's answer as numbers: a tuple whose first item is a label and whose
    others are not numbers (``forward(x) -> (label, delta)``) is its label."""
    pair = isinstance(out, tuple | list) and len(out) > 1 and _one_number(out[0])
    if pair and plain_number(out[0]) in (-1, 0, 1) and not all(map(_one_number, out[1:])):
        return np.asarray([out[0]])
    return np.ravel(np.asarray(out))


def _one_answer(values: np.ndarray) -> Any:
    """One point's answer: one number, or the label of a pair ``(label, score)`` (a
    ``predict`` that returns ``activation, summation``); None for anything else."""
    if len(values) == 1 and _one_number(values[0]):
        return values[0]
    if len(values) == 2 and all(_one_number(v) for v in values):
        return values[0] if plain_number(values[0]) in (-1, 0, 1) else None
    return None


@contextlib.contextmanager
def probing(limit: float | None) -> Iterator[None]:
    """The probes under the per-run limit (times ``TOTAL_FACTOR``, in all): code that
    does not return is a :class:`HookError` naming where it was stuck."""
    total = None if limit is None else TOTAL_FACTOR * limit
    try:
        with time_limit(total):
            yield
    except RunTimeout as exc:
        raise HookError(f"{stuck_in(exc, 'fit')} did not return in {total:g} s") from None


def attribute(est: Any, name: str) -> Any:
    """``getattr(est, name, None)``, users' code when it is a property: what it raises is
    a :class:`HookError` naming it."""
    try:
        return getattr(est, name, None)
    except Exception as exc:
        raise HookError(hook_error(name, exc)) from exc


def getter(est: Any, name: str) -> Any:
    """The function behind an attribute (a property's getter), to say where it is."""
    prop = getattr(type(est), name, None)
    return prop.fget if isinstance(prop, property) else None


def plain_number(a: Any) -> Any:
    """An answer as a plain number (a bool as 0/1, a NumPy scalar as Python's)."""
    if isinstance(a, bool | np.bool_):
        return int(a)
    if isinstance(a, np.generic):
        return a.item()
    return a


def _negative(answers: Sequence[Any], fit_labels: tuple[int, int]) -> int:
    """The value ``predict`` answers for the negative class.  An answer that is neither
    -1, 0 nor 1 (0.5 from ``(np.sign(s) + 1) / 2`` at a score of 0) is neither class --
    the check's runs judge it -- where the others show the coding; a ``predict`` that
    answers no label at all (probabilities, scores) is a question.

    >>> _negative([0, 1, 0.5, 1], (0, 1))
    0
    """
    seen = {plain_number(a) for a in answers}
    odd = [a for a in seen if a not in (-1, 0, 1)]
    if odd and len(seen - set(odd)) < 2:
        raise InputError(
            f"predict() answers {sorted(map(repr, odd))[:3]}, not labels -1/+1 or 0/1: the "
            "check compares predict()'s answers with the training labels, so it needs a "
            "predict() that answers labels (a probability or a score is not one)"
        )
    if -1 in seen:
        return -1  # 0, if it appears, is neither class (np.sign at a score of 0)
    if 0 in seen:
        return 0
    return fit_labels[0]


def _candidates(
    est: Any, weights: str | None, bias: str | None, no_bias: bool, any_scalar: bool = False
) -> list[tuple[str, str | None]]:
    """Readings to try, most likely first; ``any_scalar``: the bias any attribute of one
    number (``self.__b``, name-mangled), not only the known names."""
    attrs = vars(est) if hasattr(est, "__dict__") else {}
    d = PROBE_X.shape[1]
    if weights is not None:
        names = [weights]
    else:
        known = [n for n in WEIGHT_NAMES if n in attrs]
        other = [n for n in attrs if n not in WEIGHT_NAMES and n not in BIAS_NAMES]
        names = known + other
    out: list[tuple[str, str | None]] = []
    for name in names:
        size = size_of(attribute(est, name))
        if size == d and no_bias:
            out.append((name, None))
        elif size == d and bias not in (None, "first", "last"):
            out.append((name, bias))
        elif size == d and bias is None and any_scalar:
            out += [(name, b) for b in attrs if b not in BIAS_NAMES and size_of(attrs[b]) == 1]
        elif size == d and bias is None:
            out += [(name, b) for b in BIAS_NAMES if size_of(attrs.get(b)) == 1]
            out.append((name, None))
        elif size == d + 1 and not no_bias and bias in (None, "first", "last"):
            out += [(name, p) for p in ((bias,) if bias else ("first", "last"))]
    return out


def size_of(v: Any) -> int | None:
    if v is None or isinstance(v, str | bytes | bool | dict):
        return None
    try:
        arr = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return int(arr.size) if arr.size and np.all(np.isfinite(arr)) else None


def _predictor(est: Any, w_attr: str, b_attr: str | None) -> tuple[list[Fraction], Fraction]:
    value = attribute(est, w_attr)
    if size_of(value) is None:
        where = getter(est, w_attr)
        raise HookError(
            returned(where, w_attr, value, "the fitted weights (finite numbers)")
            if where is not None
            else f"{w_attr} is {value!r} after fit(); expected the fitted weights (finite numbers)"
        )
    raw = [float(v) for v in np.ravel(np.asarray(value, dtype=np.float64))]
    if b_attr == "first":
        b, w = raw[0], raw[1:]
    elif b_attr == "last":
        b, w = raw[-1], raw[:-1]
    elif b_attr is None:
        b, w = 0.0, raw
    else:
        bv = np.ravel(np.asarray(attribute(est, b_attr), dtype=np.float64))
        if bv.size != 1:
            raise ValueError(f"bias {b_attr} has {bv.size} numbers")
        b, w = float(bv[0]), raw
    if not all(math.isfinite(v) for v in [*w, b]):
        raise ValueError("weights that are not finite")
    return [Fraction(v) for v in w], Fraction(b)


def score_slack(w: Sequence[Fraction], b: Fraction, x: Sequence[float]) -> Fraction:
    """How far float64 arithmetic can move the score ``w.x + b`` from its exact value
    (any order of summation, fused or not): ``(d + 2) 2^-52`` times the sum of the
    magnitudes, with room to spare."""
    return _slack([abs(a) for a in w], b, x, len(w))


def _slack(mag: Sequence[Fraction], b: Fraction, x: Sequence[float], terms: int) -> Fraction:
    """``(terms + 2) 2^-51 (mag.|x| + |b|)``: what float64 rounding can do to a sum of
    ``terms`` products whose magnitudes ``mag.|x| + |b|`` bounds."""
    total = sum((a * abs(Fraction(v)) for a, v in zip(mag, x, strict=True)), abs(b))
    return Fraction(terms + 2, 2**51) * total


def _disagrees(
    w: Sequence[Fraction],
    b: Fraction,
    decoded: Sequence[int],
    points: np.ndarray,
    slack: Callable[[Sequence[float]], Fraction] | None = None,
) -> str | None:
    """The first check point where the sign of the reading's score, where float rounding
    cannot flip it, is not ``predict``'s answer (None when there is none)."""
    if len(w) != points.shape[1]:
        return f"{len(w)} weights for points of dimension {points.shape[1]}"
    certain = 0
    for i, x in enumerate(points):
        s = sum((a * Fraction(float(v)) for a, v in zip(w, x, strict=True)), b)
        if abs(s) <= (slack(x) if slack is not None else score_slack(w, b, x)):
            continue
        certain += 1
        sign = 1 if s > 0 else -1
        if decoded[i] != sign:
            pt = ", ".join(f"{v:g}" for v in x)
            return f"at ({pt}) the score is {float(s):.3g} but predict() answers {decoded[i]:+d}"
    return None if certain else "every score is 0 (the fit learned nothing on the probe)"


# --- dual classes: w = sum_i c_i l_i p_i --------------------------------------------------

#: the bias of a dual reading that is the coefficients' sum (the kernel's constant 1)
_SUM = "sum"


def _dual_candidates(est: Any, bias: str | None, no_bias: bool) -> list[tuple[Any, str | None]]:
    """Dual readings to try: stored points ``p`` (an ``m x d`` array), coefficients ``c``
    (``m`` numbers) and labels ``l`` (``m`` numbers, each -1 or +1; or none: signed
    coefficients), with a bias attribute, the coefficients' sum, or none."""
    attrs = vars(est) if hasattr(est, "__dict__") else {}
    d = PROBE_X.shape[1]
    points, vectors = [], []
    for name in attrs:
        v = attribute(est, name)
        arr = _array(v)
        if arr is None:
            continue
        if arr.ndim == 2 and arr.shape[1] == d and arr.shape[0] > 0:
            points.append((name, arr.shape[0]))
        elif arr.size > 0 and max(arr.shape, default=0) == arr.size:
            vectors.append((name, arr))
    if bias is not None and bias not in ("first", "last"):
        biases: list[str | None] = [bias]
    elif no_bias:
        biases = [None]
    else:
        biases = [*(b for b in BIAS_NAMES if size_of(attrs.get(b)) == 1), _SUM, None]
    out: list[tuple[Any, str | None]] = []
    for p, m in points:
        same = [(n, a) for n, a in vectors if a.size == m and n not in BIAS_NAMES]
        signs = [n for n, a in same if set(np.ravel(a).tolist()) <= {-1.0, 1.0}]
        coefficients = [n for n, _ in same if n not in signs] + signs  # labels last
        for c in coefficients:
            for lab in [*(n for n in signs if n != c), None]:
                out += [((c, lab, p), b) for b in biases]
    return out


def _array(v: Any) -> np.ndarray | None:
    if v is None or isinstance(v, str | bytes | bool | dict) or callable(v):
        return None
    try:
        arr = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return arr if arr.size and np.all(np.isfinite(arr)) else None


def _dual_predictor(
    est: Any, dual: tuple[str, str | None, str], b_attr: str | None
) -> tuple[list[Fraction], Fraction, list[Fraction], int]:
    """``(w, b)`` of a dual reading exactly, ``w = sum_i c_i l_i p_i``, with the
    magnitudes ``sum_i |c_i l_i| |p_i|`` and the number of terms of its float score."""
    c_attr, l_attr, p_attr = dual
    c = _array(attribute(est, c_attr))
    P = _array(attribute(est, p_attr))
    if c is None or P is None or P.ndim != 2 or c.size != P.shape[0]:
        raise ValueError(f"{c_attr} and {p_attr} are not m coefficients and m points")
    coef = [Fraction(float(v)) for v in np.ravel(c)]
    if l_attr is not None:
        lab = _array(attribute(est, l_attr))
        if lab is None or lab.size != len(coef):
            raise ValueError(f"{l_attr} is not one label per coefficient")
        coef = [a * Fraction(float(v)) for a, v in zip(coef, np.ravel(lab), strict=True)]
    rows = [[Fraction(float(v)) for v in row] for row in P]
    d = P.shape[1]
    w = [sum((a * r[j] for a, r in zip(coef, rows, strict=True)), Fraction(0)) for j in range(d)]
    mag = [
        sum((abs(a) * abs(r[j]) for a, r in zip(coef, rows, strict=True)), Fraction(0))
        for j in range(d)
    ]
    if b_attr == _SUM:
        b = sum(coef, Fraction(0))
    elif b_attr is None:
        b = Fraction(0)
    else:
        bv = _array(attribute(est, b_attr))
        if bv is None or bv.size != 1:
            raise ValueError(f"bias {b_attr} is not one number")
        b = Fraction(float(np.ravel(bv)[0]))
    return w, b, mag, d + len(coef)


def same_predictor(a: Sequence[Fraction], b: Sequence[Fraction]) -> bool:
    """True when the vectors ``(w, b)`` are positive multiples of each other (the same
    answers everywhere)."""
    i = next((k for k, v in enumerate(a) if v), None)
    if i is None or not b[i] or (a[i] > 0) != (b[i] > 0):
        return not any(a) and not any(b)
    r = b[i] / a[i]
    return all(q == r * p for p, q in zip(a, b, strict=True))


def _name(reading: Reading) -> str:
    w, b = reading.weights, reading.bias
    if reading.dual is not None:
        return reading._where().split(" (")[0].removeprefix("weights ")
    minus = "-" if reading.threshold else ""
    if b == "first":
        return f"{w} ({minus}bias first)"
    if b == "last":
        return f"{w} ({minus}bias last)"
    return f"{w}/{minus}{b}" if b else f"{w} (no bias)"


def _zero(est: Any, reading: Reading) -> int:
    """``predict`` at a score of exactly 0 (weights and bias set to 0 on a copy): +1,
    -1 or 0 (neither class, or unknown)."""
    try:
        twin = copy.deepcopy(est)
        zeroed = {reading.dual[0] if reading.dual else reading.weights, reading.bias}
        for attr in zeroed - {None, "first", "last", _SUM}:
            assert attr is not None
            setattr(twin, attr, _zeros_like(getattr(twin, attr)))
        with time_limit(TOTAL_FACTOR * DEFAULT_TIME_LIMIT):
            answers = set(reading.decode(answers_of(twin, PROBE_X)))
    except (Exception, RunTimeout):  # a model that cannot be zeroed: no claim about sign(0)
        return 0
    return answers.pop() if len(answers) == 1 else 0


def _zeros_like(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        z = v.copy()
        z[...] = 0
        return z
    if isinstance(v, list):
        return [0.0] * len(v)
    if isinstance(v, tuple):
        return tuple(0.0 for _ in v)
    return type(v)(0)
