"""Any ``fit(X, y)`` object as a variant: checked as it is written.

``Estimator(factory)`` checks an estimator class the way a researcher would check
someone else's Perceptron, on the harness's generated data (rounded to float64, the
data the estimator sees).  How the implementation keeps its predictor, codes its labels,
decides a score of exactly 0 and bounds its epochs is found on probe fits and verified
against its own ``predict`` (:mod:`.reading`); what is checked:

* **per-update claims** where a trace exists: weights before and after each sample,
  read through ``partial_fit`` (fed one row at a time, in passes) or a *tracer*: a
  function ``tracer(estimator, record)`` that arranges for ``record(-1)`` to be called
  once before the first sample (the start) and ``record(j)`` right after the estimator
  processed sample ``j`` during ``fit`` (:func:`mlxtend_tracer` is one).  Each change
  of the weights is one update, measured against the augmented comparator
  ``(u, theta)``: the claim is the generic lemma with ``(C, g) = (a^2 (R^2 + 1),
  a gamma)`` for the step size ``a`` (``rate``), and the bound T from the **actual
  start** (``u.w_1``, ``|w_1|^2`` of the first weights the trace sees);
* always: the **end claim** on the fitted weights, read exactly: ``SEP0`` (every label
  predicted, sign(0) = +1) when the model's ``predict`` sends a score of 0 to the
  positive class, else ``SEP`` (``y (w.x + b) > 0``); ``PREDICT`` (its own ``predict``
  gives every training label, in its own coding); ``READ`` (``predict`` agrees with the
  weights read, wherever float rounding cannot flip the sign of the score); ``STOP``
  (``fit`` ends with every training point predicted correctly, or says so with a
  warning); and, for an implementation with an epoch budget (``n_iter``, ``max_iter``,
  ...), ``EPOCHS``: ``fit`` predicts every training point within its budget.  When it
  does not, and the same implementation with a larger budget does, that is reported as
  ``EPOCHS`` -- the budget used, the epochs the classic algorithm needs on those data,
  the budget that works -- and the other claims are judged on the larger budget's fit,
  so a budget is never mistaken for a wrong update, bias or predictor.  A larger budget
  is tried up to the epochs the theorem allows (``bound + 1``), or ``max(2 B, 1000)``
  when that is less (the run is then inconclusive if it still does not separate).

When no weights can be read (a kernel class), ``PREDICT``, ``STOP`` and ``EPOCHS`` are
judged from ``predict`` alone and the end claim is unchecked (the reading says why); a
fit still wrong on the largest budget tried is judged only when that budget left the
fitted model unchanged (it stopped by itself), else the run is inconclusive.  When the
reading's probe fit mispredicts its own separable training points, the probe is the
first fixed example: a verdict, never a refusal.  A training function's predictions are
its returned weights': the end claim judges them, ``EPOCHS`` its budget.

>>> from sklearn.linear_model import Perceptron
>>> v = Estimator(lambda: Perceptron(eta0=1.0), name="sklearn", trace="partial_fit")
>>> v.name, v.reading.describe()[:35], v.extra_properties["STOP"][:24]
('sklearn', 'weights coef_, bias intercept_; fit', 'fit() stops only when ev')
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import itertools
import time
import warnings
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np
from hypothesis import strategies as st

from ...errors import InputError
from ..boundary.calls import HookError, call_before_runs, defined_at
from ..boundary.limits import DEFAULT_TIME_LIMIT, RunTimeout, time_limit
from ..boundary.watching import watch_fit
from ..checking.slow import bound_from
from ..protocol.claim import Claim, max_updates
from ..protocol.variant import (
    Case,
    Order,
    Record,
    Variant,
    WeightTrace,
    hard_cases,
    sought,
)
from .as_lists import AsLists, lists_said
from .beside import Beside, predictor_beside
from .budget import same_state
from .data_layout import LAYOUTS, DataAt, DataLayout
from .dimension import (
    Started,
    dimension_parameters,
    labels_as_column,
    sized,
    sizing_said,
    start_parameters,
)
from .functions import TrainingFunction, functions_learn, is_training_function, read_function
from .given import Given, all_given, given, shown, wrappers
from .made_with_data import (
    SIZES,
    data_said,
    data_trainer,
    made_with_data,
    sizes_of,
    trained,
)
from .methods import (
    WithMethods,
    candidate_methods,
    outermost,
    trainer_of,
    trainers_among,
    trainers_of,
    training_methods,
)
from .outputs import EVENTUAL_FACTOR, passes_to_predict
from .randomness import REFITS, seeded
from .reading import (
    ORIGIN_X,
    ORIGIN_Y,
    PROBE_X,
    PROBE_Y,
    Reading,
    answers_of,
    eventual,
    getter,
    knob_of,
    probes_learned,
    probing,
    read,
    set_budget,
    size_of,
)
from .returned_weights import PredictsWithReturned, ReturnedWeights, kept_after
from .shapes import Transposed, TwoSets

__all__ = [
    "EPOCHS_PROPERTY",
    "ESTIMATOR_PROPERTIES",
    "Estimator",
    "classic_epochs",
    "mlxtend_tracer",
    "resolve_factory",
]


def _two_classes(case: Case) -> bool:
    return len(set(case.y)) == 2


def mlxtend_tracer(est: Any, record: Callable[[int], None]) -> None:
    """Trace mlxtend's ``Perceptron``: its epoch loop draws each sample index from
    ``_yield_minibatches_idx`` and updates ``w_``/``b_`` before drawing the next, so
    wrapping that generator sees the weights after every sample."""
    inner = est._yield_minibatches_idx
    started = [False]

    def traced(*args: Any, **kw: Any) -> Any:
        if not started[0]:  # the weights fit() starts from (mlxtend draws them at random)
            started[0] = True
            record(-1)
        for idx in inner(*args, **kw):
            yield idx
            record(int(np.atleast_1d(idx)[0]))

    est._yield_minibatches_idx = traced


#: What a fit may return: the last weights (the theorem's), or an averaged or voted output.
OUTPUTS = ("last", "averaged", "voted")
#: The properties every estimator is checked for, beyond the generic ones.
ESTIMATOR_PROPERTIES = {
    "PREDICT": "the fitted model's own predict() gives every training label",
    "READ": "predict() agrees with the weights read from the model on every training point",
    "STOP": "fit() stops only when every training point is predicted correctly (or it warns)",
}
#: ... for a training function with a predictor beside it (:mod:`.beside`).
BESIDE_PROPERTIES = {
    "PREDICT": "the predictor beside the function gives every training label",
    "READ": "the predictor beside the function agrees with the returned weights on every "
    "training point",
}
#: ... for an averaged or voted output, given passes enough (:mod:`.outputs`).
EVENTUAL_PROPERTY = (
    f"given up to {EVENTUAL_FACTOR} times the passes the {{output}} perceptron needs (cyclic, "
    "exact), the output predicts every training point"
)
#: ... and for an estimator with an epoch budget.
EPOCHS_PROPERTY = "fit() predicts every training point within its epoch budget"
#: ... and for a training function with an epoch budget.
FUNCTION_EPOCHS_PROPERTY = (
    "the returned weights classify every training point within the function's epoch budget"
)


class Estimator(Variant):
    """A ``fit(X, y)`` estimator class checked as a Perceptron (see the module docs).

    ``factory()`` makes a fresh estimator, or ``factory`` is a training function
    ``f(X, y, ...)`` (:mod:`.functions`: its returned weights are checked by the end
    claim, its budget by ``EPOCHS``); ``rate`` is the step size ``a`` of an update
    ``(w, b) += a y (x, 1)`` (default: the estimator's ``eta0``, ``eta`` or 1; mlxtend's
    ``eta`` moves by ``2 eta``: pass ``rate``); ``trace``: ``"partial_fit"``, a tracer
    function, or ``None`` (final checks only); ``epochs``: the implementation's epoch
    budget (its ``n_iter``/``max_iter``/... attribute is set to it; also the passes of a
    ``partial_fit`` trace, default 100); ``weights``/``bias``/``labels`` name what the
    probes would otherwise find (:func:`.reading.read`: ``bias`` is ``"first"``,
    ``"last"``, ``"none"`` or an attribute; ``labels`` ``"pm1"``, ``"01"`` or ``"auto"``).
    An implementation that cannot be read raises ``InputError`` naming the options.
    """

    order_rules: ClassVar[tuple[str, ...]] = ("cyclic", "random")
    #: estimators compute in float64: checked on enclosures unless asked otherwise
    default_mode: ClassVar[str] = "float"
    extra_properties: ClassVar[dict[str, str]] = dict(ESTIMATOR_PROPERTIES)

    def __init__(
        self,
        factory: Callable[[], Any],
        *,
        name: str | None = None,
        labels: str = "auto",
        rate: Any = None,
        trace: str | Callable[[Any, Callable[[int], None]], None] | None = "auto",
        epochs: int | None = None,
        weights: str | None = None,
        bias: str | None = None,
        output: str | None = None,
        limit: float | None = DEFAULT_TIME_LIMIT,
    ) -> None:
        if epochs is not None and (not isinstance(epochs, int) or epochs < 1):
            raise InputError(f"epochs must be a positive integer, got {epochs!r}")
        if output not in (None, *OUTPUTS):
            raise InputError(f"output must be one of {', '.join(OUTPUTS)}, got {output!r}")
        factory_given = factory
        self.name = str(name or getattr(factory, "__name__", "estimator"))  # type: ignore[misc]
        self.function = factory if is_training_function(factory, name) else None
        if self.function is not None:
            if weights is not None:
                raise InputError(
                    "--weights does not apply to a training function: it returns its weights "
                    "(--bias first|last|none says where its bias is)"
                )
            self.reading = read_function(
                self.function, bias=bias, labels=labels, epochs=epochs, limit=limit
            )
            kinds = Started | ReturnedWeights | DataLayout | DataAt | AsLists | Transposed | TwoSets
            said_f = [w.describe() for w in wrappers(self.function)[::-1] if isinstance(w, kinds)]
            if said_f:
                self.reading = replace(self.reading, made="; ".join(said_f))
            beside = _beside(self.function, self.reading, limit)
            if beside is not None:  # predict(X, w, b) in its module: the pair is judged
                self.reading = replace(self.reading, beside=beside, negative=beside.negative)
            factory = functools.partial(TrainingFunction, self.function, self.reading)
            self.summary = f"training function {self.name}(X, y)"  # type: ignore[misc]
        else:
            self.reading = read(
                factory, weights=weights, bias=bias, labels=labels, epochs=epochs, limit=limit
            )
            said = [sizing_said(factory), data_said(factory), *_passes_returned(factory)]
            said.append(lists_said(factory))
            if isinstance(factory, WithMethods):
                named = factory.methods
                if "predict" in named:
                    self.reading = replace(self.reading, predicts=named["predict"])
                if "fit" in named:
                    said.append(
                        f"fit() is its {named['fit']}(), found by its behaviour: it has no fit"
                    )
            if any(said):
                self.reading = replace(self.reading, made="; ".join(t for t in said if t))
            self.summary = f"fit(X, y) estimator {self.name}"  # type: ignore[misc]
        if output is not None and output != "last":  # declared: no end, PREDICT, STOP claims
            self.reading = replace(self.reading, output=output, probe=None, hint=None)
            if self.reading.budget is None:  # its budget shown by the work its fit does?
                self.reading = knob_of(self.reading, factory, limit, by_work=True)
        self.factory = factory
        self._named = {"weights": weights, "bias": bias, "epochs": epochs, "output": output}
        self._given: dict[str, Any] = all_given(factory_given)
        self._rate = rate
        self._rates: dict[int | None, Fraction] = {}  # rate(), by the data's dimension
        if (
            self.reading.predict_only is not None
            or self.function is not None
            or self.reading.output != "last"
        ):
            trace = None  # a trace reads the iterates: none to read, no steps, or an average
        elif trace == "auto":
            made = call_before_runs(factory, "__init__", limit)
            # scikit-learn's partial_fit (it takes the classes): one pass over the rows it
            # is given, from where it stands; one written by hand may mean anything else
            partial = getattr(made, "partial_fit", None)
            trace = "partial_fit" if partial is not None and _takes(partial, "classes") else None
        self.trace = trace
        self.epochs = epochs if epochs is not None else 100
        self.extra_properties = _properties(self.reading, self.function is not None)  # type: ignore[misc]

    def cli_args(self) -> list[str]:
        """The ``pla-proof check`` arguments that check this estimator again."""
        out = ["--fit", self.name]
        for opt, v in self._named.items():
            if v is not None:
                out += [f"--{opt}", str(v)]
        return out + shown(self._given)

    # --- conventions ---------------------------------------------------------------------

    def make(self, epochs: int | None = None) -> Any:
        """A fresh estimator with its epoch budget (the reading's, or ``epochs``)."""
        return set_budget(self.factory(), self.reading, epochs)

    def labels(self) -> str:
        """``"pm1"`` or ``"01"``: the labels ``fit`` is given."""
        return self.reading.labels

    def encode(self, y: Sequence[int]) -> np.ndarray:
        return self.reading.encode(y)

    def rate(self, d: int | None = None) -> Fraction:
        """The step of its updates: given (``rate=``); else an attribute that names a rate;
        else, for data of dimension ``d``, measured (:meth:`measured_rate`); else 1.
        Found once per dimension (a claim asks at every run)."""
        if self._rate is not None:
            return Fraction(self._rate)
        if d not in self._rates:
            self._rates[d] = self._found_rate(d)
        return self._rates[d]

    def _found_rate(self, d: int | None) -> Fraction:
        est = self.factory()
        for attr in ("eta0", "eta", "learning_rate", "lr"):
            v = getattr(est, attr, None)
            if isinstance(v, int | float) and not isinstance(v, bool):
                return Fraction(v)
        if d is not None:
            try:
                found = self.measured_rate(d)
            except Exception:  # users' code on the probe: no step measured
                found = None
            if found is not None:
                return found
        return Fraction(1)

    def measured_rate(self, d: int) -> Fraction | None:
        """The step of its updates, measured whatever its rate is called: from weights
        and bias at zero (its budget 0), one epoch on the one point ``(1, ..., 1)`` of
        label +1 must move every weight (and the bias) by the same ``eta > 0`` -- exactly
        the float ``eta`` itself, as ``eta * 1`` is; None when it does not (another
        start, a strict trigger, another rule)."""
        if self.reading.budget is None or self.reading.predict_only is not None:
            return None
        X = np.ones((1, d))
        y = self.encode([1])
        moves = []
        for budget in (0, 1):
            est = self.make(budget)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(X.copy(), y)
            w, b = self.weights(est)
            moves.append([*w] if self.reading.origin else [*w, b])
        if any(moves[0]) or len(moves[1]) < d:
            return None
        steps = set(moves[1])
        if len(steps) != 1 or not min(steps) > 0:
            return None
        return Fraction(steps.pop())

    def weights(self, est: Any) -> tuple[list[Fraction], Fraction]:
        """``(w, b)`` of a fitted estimator, read exactly as :attr:`reading` says."""
        return self.reading.predictor(est)

    def _start_of(
        self, case: Case, seed: int | None = None
    ) -> tuple[tuple[Fraction, ...] | None, bool]:
        """:meth:`own_start` where it can be read and is not zero (else None), and
        whether it could be read at all (a fit with no epochs that raises, ``return w,
        iteration + 1`` after a loop that never ran, cannot show it)."""
        try:
            start = self.own_start(case, seed)
        except Exception:  # users' code: no start known
            return None, False
        if start is None:
            return None, False
        return (start if any(start) else None), True

    def own_start(self, case: Case, seed: int | None = None) -> tuple[Fraction, ...] | None:
        """Where this implementation starts on the case, in the classic algorithm's
        scale: its weights and bias (last) after a fit with no epochs (its budget set to
        0; the global random state seeded ``seed`` first, for a fit that draws from it),
        divided by its step size (:meth:`step_size`; the classic algorithm's is 1, and
        from ``w0`` at step ``eta`` the Perceptron makes the mistakes it makes from
        ``w0 / eta`` at step 1).  None when that cannot be done (no budget found, no
        weights read, or a fit that fails with no epochs)."""
        if self.reading.budget is None or self.reading.predict_only is not None:
            return None
        X = np.array([[float(v) for v in x] for x in case.X])
        with seeded(seed) if seed is not None else contextlib.nullcontext():
            est = self.make(0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(X.copy(), self.encode(case.y))
        w, b = self.weights(est)
        if len(w) != case.d:
            return None
        start = (*w, b)
        eta = self.step_size(case, start, seed) if any(start) else None
        return start if eta is None else tuple(v / eta for v in start)

    def step_size(
        self, case: Case, start: tuple[Fraction, ...], seed: int | None = None
    ) -> Fraction | None:
        """This implementation's step, measured: one epoch on one point of the case
        that its start ``start`` misclassifies (a nonzero score of the wrong sign) must
        move its weights (and bias) by ``eta y (x, 1)`` (``eta y x`` through the origin);
        ``eta`` (rounded down, so a bound from it is never too small), or None when no
        such point exists or the move is not such a multiple."""
        origin = self.reading.origin
        d = case.d
        for x in case.X:
            v = tuple(x) if origin else (*x, Fraction(1))
            score = sum((a * c for a, c in zip(start, v, strict=False)), Fraction(0))
            if score != 0:
                y = -1 if score > 0 else 1
                break
        else:
            return None
        with seeded(seed) if seed is not None else contextlib.nullcontext():
            est = self.make(1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(np.array([[float(c) for c in x]]), self.encode([y]))
        w, b = self.weights(est)
        moved = [a - s for a, s in zip((*w, b), start, strict=True)]
        moved = moved[:d] if origin else moved
        tol = Fraction(1, 10**6)  # (float updates: a relative tolerance)
        ratios = [Fraction(m) / (y * c) for m, c in zip(moved, v, strict=True) if c != 0]
        if not ratios or min(ratios) <= 0 or max(ratios) > min(ratios) * (1 + tol):
            return None
        largest = max(abs(m) for m in moved)
        if any(abs(m) > largest * tol for m, c in zip(moved, v, strict=True) if c == 0):
            return None
        return min(ratios) * (1 - tol)

    @property
    def observes_updates(self) -> bool:
        """Whether a run's updates are seen as ``fit`` makes them (a traced fit), or only
        once it returns: a fit stopped by the clock then has made an unknown number."""
        return self.trace is not None

    # --- the protocol ----------------------------------------------------------------------

    def cases(self) -> Any:
        from ..protocol.cases import biased_cases, far_threshold_cases, float_case

        # no long-run data: a fit class's epoch budget is its own, and data longer than any
        # fixed budget would fail every such class's EPOCHS (the variants' budget is their
        # claim's; the long runs are theirs)
        hard = hard_cases(long_runs=False)
        if self.reading.origin:  # no bias term: data separable through the origin only
            base = hard.map(_affine)
        else:
            base = st.one_of(hard.map(_affine), biased_cases(), far_threshold_cases())
        return base.filter(_two_classes).map(float_case).filter(lambda c: c is not None)

    def examples(self) -> Sequence[Case]:
        """The fixed cases; first the reading's probe when its fit mispredicts its own
        separable training points (a verdict found before any search)."""
        from ..protocol.cases import float_case
        from ..protocol.variant import in_domain, pushing_cases

        fixed = in_domain(lambda b: b.filter(_two_classes), pushing_cases())
        out = [_affine(c) for c in (float_case(c) for c in fixed) if c is not None]
        probe = ORIGIN_CASE if self.reading.origin else PROBE_CASE
        return ([probe] if self.reading.probe is not None else []) + out

    def claim(self, case: Case) -> Claim:
        end = self.reading.end
        if self.trace is None:
            return Claim(end=end)
        a = self.rate(case.d)
        R2, uu = _augmented(case, self.reading.origin)
        start = self._start(case)
        u = (*case.u, Fraction(case.params.get("theta", 0)))
        ps = sum((p * q for p, q in zip(u, start, strict=True)), Fraction(0))
        ns = sum((p * p for p in start), Fraction(0))
        return Claim(C=a * a * R2, g=a * case.gamma, uu=uu, pu0=ps, n0=ns, end=end)

    def _start(self, case: Case) -> list[Fraction]:
        """The weights the traced run starts from (a tracer's fit is run here once and
        kept for :meth:`run`: a random start must be the same in the claim and the run)."""
        if self.trace == "partial_fit":
            return [Fraction(0)] * (case.d + 1)
        key = (case.X, case.y)
        cache = self.__dict__.setdefault("_fits", {})
        if key not in cache:
            cache.clear()
            cache[key] = self._tracer_fit(case)
        return list(cache[key][0])

    def _tracer_fit(self, case: Case) -> tuple[list[Fraction], list[tuple[int, list[Fraction]]]]:
        assert callable(self.trace)
        X = np.array([[float(v) for v in x] for x in case.X])
        y = self.encode(case.y)
        est = self.make()
        seen: list[tuple[int, list[Fraction]]] = []

        def record(j: int) -> None:
            w, b = self.weights(est)
            seen.append((j, [*w, b]))

        self.trace(est, record)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X.copy(), y)
        if not seen or seen[0][0] != -1:
            raise InputError(f"{self.name}: the tracer did not record the start (record(-1))")
        return seen[0][1], seen[1:]

    def run(self, case: Case, order: Order) -> Record:
        X = np.array([[float(v) for v in x] for x in case.X])
        y = self.encode(case.y)
        rec = Record()
        if self.trace is not None:
            self._traced(case, order, X, y, rec)
        self._fitted(case, X, rec)
        return rec

    def _traced(self, case: Case, order: Order, X: np.ndarray, y: np.ndarray, rec: Record) -> None:
        u = (*case.u, Fraction(case.params.get("theta", 0)))
        aug = Case(tuple((*x, Fraction(1)) for x in case.X), case.y, u, case.gamma, {}, case.name)
        est = self.make()
        seen: list[tuple[int, list[Fraction]]] = []
        if self.trace == "partial_fit":
            classes = np.unique(self.encode([-1, 1]))
            started = False
            for epoch in range(self.epochs):
                changed = False
                for j in _epoch(order, case.n, epoch):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        if started:
                            est.partial_fit(X[j : j + 1], y[j : j + 1])
                        else:
                            est.partial_fit(X[j : j + 1], y[j : j + 1], classes=classes)
                            started = True
                    w, b = self.weights(est)
                    seen.append((j, [*w, b]))
                    if len(seen) > 1 and seen[-1][1] != seen[-2][1]:
                        changed = True
                if not changed and epoch > 0:
                    break
            start = [Fraction(0)] * aug.d
        else:
            self._start(case)
            start, seen = self.__dict__["_fits"][(case.X, case.y)]
        # the claim's start is the actual one
        rec.output["start"] = tuple(start)
        trace = WeightTrace(rec, aug, start)
        prev = list(start)
        for j, w in seen:
            if w != prev:
                if trace.add(j, w):
                    break
                prev = w
        else:
            trace.flush()
        rec.output["traced_updates"] = rec.updates

    def _fit(self, X: np.ndarray, case: Case, epochs: int | None = None) -> _Fit:
        """A fit on the case (with ``epochs`` as its budget), judged by ``predict``.  An
        implementation whose fit depends on chance (:attr:`Reading.chance`) is fitted
        :data:`~.randomness.REFITS` times, the global random state seeded 0, 1, ...: the
        first fit that mispredicts is the one judged (one lucky fit clears nothing)."""
        if self.reading.chance is None:
            return self._one_fit(X, case, epochs)
        judged = None
        for seed in range(REFITS):
            with seeded(seed):
                fit = self._one_fit(X, case, epochs)
            fit.seeded = f"fit {seed + 1} of {REFITS}, the global random state seeded {seed}"
            fit.seed = seed
            if fit.wrong or fit.mispredicted:
                return fit
            judged = judged or fit
        assert judged is not None
        return judged

    def _one_fit(self, X: np.ndarray, case: Case, epochs: int | None) -> _Fit:
        est = self.make(epochs)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            est.fit(X.copy(), self.encode(case.y))
        answers = self.reading.decode(answers_of(est, X))
        wrong = [i for i in range(case.n) if answers[i] != case.y[i]]
        ties = self._ties_by_rounding(est, X, wrong)
        warned = any("onverge" in str(w.message) for w in caught)
        fit = _Fit(est, answers, [i for i in wrong if i not in ties], warned)
        fit.ties = ties
        if self.function is not None and self.reading.beside is not None:
            # its predictor beside it answered (PREDICT); what its budget is judged by
            # is its returned weights (EPOCHS, as for any training function)
            fit.mispredicted, fit.wrong = fit.wrong, self._misclassified(est, case)
        return fit

    def _ties_by_rounding(self, est: Any, X: np.ndarray, wrong: Sequence[int]) -> list[int]:
        """The mispredicted points whose answer float rounding may have decided: the
        exact score of the weights read is within the rounding error of a float score of
        0 (:func:`~.reading.score_slack`), and not an exact 0 that every float evaluation
        gives exactly (there, ``predict``'s answer is its own tie rule: judged).  A float
        class at an exact tie of the algorithm (rate 0.01, a point on the separator) may
        answer either class by the order its ``predict`` sums in: not a mistake."""
        if not wrong or self.reading.predict_only is not None or self.function is not None:
            return []
        try:
            w, b = self.weights(est)
            slack = self.reading.slack(est)
        except Exception:  # users' code: judged as answered
            return []
        if len(w) != X.shape[1]:
            return []
        return [i for i in wrong if _rounding_decides(w, b, X[i], slack(X[i]))]

    def _fitted(self, case: Case, X: np.ndarray, rec: Record) -> None:
        judged: _Fit | None = self._fit(X, case)
        last = self.reading.output == "last"
        if self.reading.budget is not None and last:
            assert judged is not None
            judged = self._budget(case, X, judged, rec)
        if judged is None:  # the data need more epochs than the check affords
            rec.complete = False
            return
        fit = judged
        if not last and "PREDICT" in self.extra_properties:
            self._eventually(case, X, fit, rec)
        if self.reading.predict_only is None:
            w, b = self.weights(fit.est)
            if len(w) != case.d:
                raise HookError(self._wrong_length(fit.est, len(w), case.d))
            rec.output.update(w=tuple(w), b=b)
            if self.function is not None and self.reading.beside is None:
                return  # its predictions are its weights': the end claim judges them
            if "READ" in self.extra_properties:  # (not of a vote: no one linear predictor)
                rec.checks["READ"] = _disagreement(self.reading, fit.est, w, b, X, fit.answers)
            if last and self.reading.dual is None and self.function is None:
                self._end_values(case, X, fit, w, b, rec)
        if not last:
            return  # an averaged or voted output: it need not predict its training data
        y = case.y
        rec.undecided += len(fit.ties)  # (float mode: "N undecided" in the report)
        wrong = fit.mispredicted
        beside = self.reading.beside
        said = "predict()" if beside is None else f"{beside.name}({beside.words})"
        rec.checks["PREDICT"] = (
            None
            if not wrong
            else f"{said} gives {_coded(self.reading, fit.answers[wrong[0]])} for point "
            f"{wrong[0] + 1}, label {_coded(self.reading, y[wrong[0]])}"
            + (f" ({len(wrong)} of {case.n} points mispredicted)" if len(wrong) > 1 else "")
            + (f" (also with {fit.note})" if fit.note else "")
            + (f" ({fit.seeded})" if fit.seeded else "")
        )
        if self.function is not None:
            return  # (it returns what it learned: the end claim judges where it stopped)
        n_iter = getattr(fit.est, "n_iter_", None)
        rec.output["n_iter"] = n_iter
        rec.checks["STOP"] = (
            None
            if not fit.wrong or fit.warned
            else "fit() stopped"
            + (f" (n_iter_ = {n_iter})" if n_iter is not None else "")
            + f" with {len(fit.wrong)} training point(s) mispredicted and no warning"
            + (f" (also with {fit.note})" if fit.note else "")
            + (f" ({fit.seeded})" if fit.seeded else "")
        )

    def _eventually(self, case: Case, X: np.ndarray, fit: _Fit, rec: Record) -> None:
        """``PREDICT`` of an averaged or voted output (:mod:`.outputs`): a fit that
        mispredicts a training point on its own budget is refitted with
        :data:`~.outputs.EVENTUAL_FACTOR` times the passes after which the declared
        output of the exact algorithm (cyclic, from zero, in the implementation's setting)
        predicts every training point, and judged there."""
        assert self.reading.budget is not None
        if not fit.mispredicted:
            rec.checks["PREDICT"] = None
            return
        attr, B = self.reading.budget
        origin = self.reading.origin
        pts = case.X if origin else tuple((*x, Fraction(1)) for x in case.X)
        P = passes_to_predict(pts, case.y, self.reading.output)
        if P is None:  # more updates than the check affords: not judged
            rec.complete = False
            return
        knob = self.reading.budget_knob
        per = 1 if knob is None or knob.known else case.n
        # EVENTUAL_FACTOR (else 10) times P where that is cheap (at most _VISITS visits)
        affordable = [f * P * per for f in (EVENTUAL_FACTOR, 10) if f * P * per * case.n <= _VISITS]
        if not affordable and 10 * P * per > B:  # more passes than the check affords
            rec.complete = False
            return
        more = affordable[0] if affordable else B
        judged = fit if more <= B else self._refit(X, case, more)
        if judged is None:  # the refit ran past its own limit: more than the check affords
            rec.complete = False
            return
        wrong = judged.mispredicted
        evidence = ""
        if wrong and self.reading.output == "averaged":
            found = self._averaged_evidence(case, X, judged, max(more, B))
            if found is None:  # a tie float rounding decided, or slow: not a verdict
                rec.undecided += 1
                rec.checks["PREDICT"] = None
                return
            evidence = f": {found}"
        beside = self.reading.beside
        said = "predict()" if beside is None else f"{beside.name}({beside.words})"
        if self.function is not None and beside is None:
            said = "the returned weights"
        rec.checks["PREDICT"] = (
            None
            if not wrong
            else f"{said} gives {_coded(self.reading, judged.answers[wrong[0]])} for point "
            f"{wrong[0] + 1}, label {_coded(self.reading, case.y[wrong[0]])}, with "
            f"{attr} = {max(more, B)}, where the {self.reading.output} perceptron (cyclic, "
            f"exact) predicts every training point from pass {P} on"
            + (f" ({len(wrong)} of {case.n} points mispredicted)" if len(wrong) > 1 else "")
            + (f" ({judged.seeded})" if judged.seeded else "")
            + evidence
        )

    def _refit(self, X: np.ndarray, case: Case, epochs: int, one: bool = False) -> _Fit | None:
        """A fit with a budget the check chose (not the implementation's own), under a
        limit of its own (the per-run default): None where it runs past it -- a fit of
        many more passes than the user set is slow, which says nothing of its runs."""
        limit = time_limit(DEFAULT_TIME_LIMIT)
        try:
            with limit:
                return self._one_fit(X, case, epochs) if one else self._fit(X, case, epochs)
        except RunTimeout:
            if limit.at_deadline:
                raise  # the check's own deadline: the run ends as any other
            return None

    def _averaged_evidence(self, case: Case, X: np.ndarray, fit: _Fit, more: int) -> str | None:
        """Why an averaged output still wrong with ``more`` passes is not the averaged
        perceptron, from what it adds between ``more`` and ``2 more`` passes (the last
        vector, times its survivals): nothing (the survivals are not counted), or a
        vector that puts a mispredicted point on the wrong side (the training stopped
        on a point it gets wrong).  None where that cannot be said: the vector added
        gives the point a score of 0 up to float rounding (a float implementation that
        stopped at a tie rounding decided: in floats its average never gets there), or
        the right side (it needs more passes), or the weights cannot be read."""
        attr = self.reading.budget[0] if self.reading.budget else "budget"
        try:
            w1, b1 = self.weights(fit.est)
            with seeded(fit.seed) if fit.seed is not None else contextlib.nullcontext():
                twice = self._refit(X, case, 2 * more, one=True)
            if twice is None:  # past its own limit: nothing to say
                return None
            w2, b2 = self.weights(twice.est)
        except Exception:  # users' code: nothing to say
            return None
        dw = [p - q for p, q in zip(w2, w1, strict=True)]
        db = b2 - b1
        if not any(dw) and db == 0:
            return (
                f"its averaged weights are the same with {attr} = {2 * more}: the last "
                "weights' survivals are not added to the average"
            )
        for i in fit.mispredicted:
            x = [Fraction(float(v)) for v in X[i]]
            score = sum((a * v for a, v in zip(dw, x, strict=True)), db)
            size = sum((abs(a * v) for a, v in zip(dw, x, strict=True)), abs(db))
            if case.y[i] * score < -size * _TIE:
                return (
                    f"what it adds to its average from {attr} = {more} to {2 * more} puts "
                    f"point {i + 1} on the wrong side: its training stopped on a point it "
                    "gets wrong"
                )
        return None

    def _end_values(
        self,
        case: Case,
        X: np.ndarray,
        fit: _Fit,
        w: Sequence[Fraction],
        b: Fraction,
        rec: Record,
    ) -> None:
        """The end claim's values ``w.x_i + b``, exact -- but a point whose score float
        rounding decides (:func:`_rounding_decides`: within the rounding error of 0, and
        not an exact 0 that floats compute exactly) is a check left undecided
        (``rec.undecided``), never a failure of the end claim: a float class at an exact
        tie of the algorithm (rate 0.1, a point on its separator: exact score 2.5e-16 on
        its float weights, 0 in exact arithmetic) is at the mercy of the order it sums
        in, and so is its ``predict`` (``PREDICT`` excuses the same points)."""
        slack = self.reading.slack(fit.est)
        zero = {"SEP0": 1, "SEP0N": -1}.get(self.reading.end or "", 0)
        values: list[Fraction] = []
        for x, yi in zip(X, case.y, strict=True):
            v = sum((a * Fraction(float(c)) for a, c in zip(w, x, strict=True)), b)
            said = 1 if v > 0 else -1 if v < 0 else zero
            if said != yi and _rounding_decides(w, b, x, slack(x)):
                v = yi * max(abs(v), slack(x))
                rec.undecided += 1
            values.append(v)
        rec.end["values"] = values

    def _wrong_length(self, est: Any, got: int, d: int) -> str:
        if self.function is not None:
            name = getattr(self.function, "__name__", "function")
            return (
                f"{name}() returned {got} weight(s){defined_at(self.function)} (read as "
                f"{self.reading.returns}); expected {d} (one per coordinate of the points)"
            )
        where = defined_at(getter(est, self.reading.weights))
        return (
            f"{self.reading.weights} gives {got} weight(s){where} after fit(); expected "
            f"{d} (one per coordinate of the points)"
        )

    def _budget(self, case: Case, X: np.ndarray, fit: _Fit, rec: Record) -> _Fit | None:
        """``EPOCHS``: a fit that mispredicts on its epoch budget ``B`` is refitted with a
        larger one -- first ``max(2 B, 4 E, 100)`` epochs (``E``: what the classic
        algorithm needs on the data), then up to the epochs the theorem allows (``bound +
        1``, at most ``max(2 B, 1000)``).  Returns the fit the other claims are judged on
        (``None``: inconclusive, the data need more epochs than the check affords).

        Read through ``predict`` alone, the implementation is not known to be the
        algorithm the theorem bounds: the larger budgets are ``max(2 B, min(4 E, 1000),
        100)`` and ``max(2 B, 1000)``, and a fit still wrong there is judged as it is only
        when the larger budget left every attribute of the fitted model unchanged (it
        stopped by itself), else the run is inconclusive."""
        assert self.reading.budget is not None
        attr, B = self.reading.budget
        rec.checks["EPOCHS"] = None
        n_iter = getattr(fit.est, "n_iter_", None)
        settled = not fit.wrong and self._ends_right(fit, case)
        if settled or (isinstance(n_iter, int | np.integer) and n_iter < B):
            return fit  # it separated, or stopped on its own before the budget (STOP's case)
        alone = self.reading.predict_only is not None
        origin = self.reading.origin
        knob = self.reading.budget_knob
        R2, uu = _augmented(case, origin)
        allowed = None if alone else max_updates(Claim(C=R2, g=case.gamma, uu=uu))
        start, read = (None, True) if alone else self._start_of(case, fit.seed)
        if start is not None:  # the theorem from its own start (w = ones, say)
            allowed = bound_from(case, start, origin)
        elif not read and self.reading.chance is not None:
            allowed = None  # a random start it cannot show: the bound from zero is not its own
        # the epochs the theorem allows; a knob found by its behaviour may count updates
        # or visits rather than epochs: as many visits as that
        most = None if allowed is None else allowed + 1
        if most is not None and knob is not None and not knob.known:
            most *= case.n
        classic, needed = classic_epochs(case, origin=origin)
        # the classic algorithm settles these data within its own budget: ten and a
        # hundred times that budget are a fair chance to learn them (where that is cheap:
        # at most 100 B n <= 200,000 visits)
        learns = alone and needed <= B and 100 * B * case.n <= _VISITS
        if learns:
            tries = sorted({10 * B, 100 * B})
        else:
            first = max(2 * B, min(4 * needed, 1000 if alone else 10_000), 100)
            tries = sorted({first, max(2 * B, 1000)})
            if most is not None:
                extra = max(2 * B, 10_000)
                # (short of the theorem's epochs it can only show the budget: not once
                # the search has refuted EPOCHS, where it costs the most of a slow run)
                if (not knob or not knob.known) and (extra >= most or sought("EPOCHS")):
                    tries.append(extra)
                tries = sorted({min(t, most) for t in tries})
        bigger = None
        for more in (t for t in tries if t > B):
            bigger = self._fit(X, case, more)
            if not bigger.wrong and self._ends_right(bigger, case):
                break
        if bigger is None:
            return fit
        if bigger.wrong:
            if most is not None and more >= most:
                fit.note = f"{attr} = {more}, the epochs the theorem allows"
                return fit  # not the budget: judged as it is
            if learns:
                fit.note = (
                    f"{attr} = {', '.join(str(t) for t in tries)}, where the classic algorithm "
                    f"needs {classic} epoch(s)"
                )
                return fit  # it does not learn what the algorithm learns: judged as it is
            if alone and same_state(fit.est, bigger.est, attr):
                fit.note = f"{attr} = {more}: the same fitted model"
                return fit  # it stopped by itself: judged as it is
            itself = None if alone else self._stops_by_itself(case, X, fit, B)
            if itself is not None:
                fit.note = f"{attr} = {more}: {itself}"
                return fit  # it returns on its own, points mispredicted: judged as it is
            del rec.checks["EPOCHS"]  # undecided: more epochs than the check affords
            cycle = None if alone else self._float_cycle(case, fit, bigger, (attr, B, more))
            if cycle is not None:
                rec.inconclusive = cycle + (
                    f"; in exact arithmetic, from its own start, the theorem allows up to "
                    f"{allowed} update(s)"
                    if allowed is not None
                    else ""
                )
            elif start is not None:
                shown = "(" + ", ".join(f"{float(v):.3g}" for v in start) + ")"
                rec.inconclusive = (
                    f"{self._caller()} still mispredicts with {attr} = {more}: slow, not wrong "
                    f"-- from its own start {shown} the theorem allows up to "
                    f"{allowed if allowed is not None else 'unboundedly many'} update(s)"
                )
            return None
        setting = "x, through the origin" if origin else "(x, 1)"
        rec.checks["EPOCHS"] = (
            f"{self._caller()} stopped on its epoch budget ({attr} = {B}) with "
            + (
                f"{len(fit.wrong)} of {case.n} training point(s) mispredicted"
                if fit.wrong
                else f"every point predicted but its end claim ({self.reading.end}) unmet"
            )
            + "; the classic "
            f"algorithm (cyclic, on {setting}) needs {classic} epochs on these data, and with "
            f"{attr} = {more} this implementation predicts every point: rerun with --epochs "
            f"{more} (epochs={more} in Python) -- though data of a smaller margin need more "
            "(no budget suffices for every separable data set); a fit that warns when its "
            "budget runs out, as scikit-learn's ConvergenceWarning does, keeps STOP"
        )
        rec.output["refit"] = f"{attr} = {more}"
        return bigger

    def _stops_by_itself(self, case: Case, X: np.ndarray, fit: _Fit, B: int) -> str | None:
        """Evidence that a fit still wrong after more epochs returned on its own (an
        early stop of its own making: a small change of its weights, a tolerance), not
        that its float updates cancel: with budgets ``s`` and ``2 s`` (``s`` = the
        smaller of ``B`` and 8) it reads its weights as often -- watched from outside
        (:func:`~pla_proof.variants.boundary.watching.watch_fit`) -- and returns the same
        weights as with ``B``.  A fit whose updates cancel runs its whole budget, so
        doubling the budget doubles its reads.  ``None`` where that is not seen (a class
        that cannot be watched, a training function, reads past the watch's limit)."""
        if self.function is not None or self.reading.dual is not None:
            return None
        names = [self.reading.weights]
        if self.reading.bias not in (None, "first", "last"):
            names.append(str(self.reading.bias))
        attr = self.reading.budget[0] if self.reading.budget else "its budget"
        small = max(1, min(B, 8))
        seen: list[tuple[int, Any]] = []
        y = self.encode(case.y)
        for epochs in (small, 2 * small):
            est = self.make(epochs)
            with contextlib.ExitStack() as stack:
                if fit.seed is not None:
                    stack.enter_context(seeded(fit.seed))
                run = functools.partial(est.fit, X.copy(), y.copy())
                watched = watch_fit(est, names, lambda: 0, run)
            if watched.why or watched.cut or not watched.events:
                return None
            try:
                seen.append((len(watched.events), self.weights(est)))
            except Exception:  # users' code: READ and the runs report it
                return None
        (reads, w), (again, w2) = seen
        try:
            same = w == w2 == self.weights(fit.est)
        except Exception:  # users' code
            return None
        if reads != again or not same:
            return None
        return (
            f"it stops by itself -- with {attr} = {small} and {2 * small} it reads its weights "
            f"as often ({reads} times) and returns the same weights as with {attr} = {B}"
        )

    def _float_cycle(
        self, case: Case, fit: _Fit, bigger: _Fit, budgets: tuple[str, int, int]
    ) -> str | None:
        """Evidence that a fit still wrong after more epochs is not slow but stuck in
        floating point: the same weights after ``B`` and ``more`` epochs, with the same
        points mispredicted -- its updates round away or undo each other (the exact
        algorithm's weights never repeat: each update raises ``w.u``).  ``None`` when the
        weights differ or cannot be read."""
        attr, B, more = budgets
        try:
            a, b = self.weights(fit.est), self.weights(bigger.est)
        except Exception:  # users' code: READ and the runs report it
            return None
        if a != b or fit.wrong != bigger.wrong:
            return None
        w, bias = a
        shown = ", ".join(f"{float(v):.3g}" for v in w)
        same = (
            f"its weights are the same after {attr} = {B} and {more}, w = ({shown}), "
            f"b = {float(bias):.3g}, with {len(fit.wrong)} of {case.n} training point(s) "
            "mispredicted, where every exact update would move them (each raises w.u)"
        )
        lost = self._absorbed(fit.est, w, case, fit.wrong[0])
        if lost is None:
            return (
                f"{self._caller()} still mispredicts with {attr} = {more}: not slow -- "
                f"{same}: it stops by itself, or its float updates cancel"
            )
        return (
            f"{self._caller()} still mispredicts with {attr} = {more}: stuck in floating "
            f"point, not slow (a float cycle) -- {same}; {lost}"
        )

    def _absorbed(self, est: Any, w: Sequence[Fraction], case: Case, i: int) -> str | None:
        """Where an update on the mispredicted point ``i`` rounds away in the weights'
        own float type (its rate times ``y x``): a coordinate ``j`` whose weight does not
        change, said with the numbers; ``None`` when every coordinate would move."""
        dtype = np.dtype(np.float64)
        if self.function is None and self.reading.dual is None:
            try:
                raw = np.asarray(getattr(est, self.reading.weights))
            except Exception:  # users' code: the float64 default
                raw = np.zeros(1)
            if raw.dtype.kind == "f":
                dtype = raw.dtype
        eta = self.rate(case.d)
        kind = dtype.type
        for j, (wj, xj) in enumerate(zip(w, case.X[i], strict=True)):
            step = kind(float(eta * case.y[i] * xj))
            if xj != 0 and step != 0 and kind(float(wj)) + step == kind(float(wj)):
                return (
                    f"an update on point {i + 1} rounds away in coordinate {j + 1}: "
                    f"{float(wj):.3g} {'+' if step > 0 else '-'} {abs(float(step)):.3g} is "
                    f"{float(wj):.3g} in {dtype.name}"
                )
        return None

    def _ends_right(self, fit: _Fit, case: Case) -> bool:
        """The fit's end claim holds on its weights, exactly (a fit whose last pass still
        updated may predict every point yet leave one at a score of 0): True when no
        weights can be read."""
        return self.reading.predict_only is not None or not self._misclassified(fit.est, case)

    def _misclassified(self, est: Any, case: Case) -> list[int]:
        """The training points the end claim, on the fitted weights, gets wrong, exactly
        (none where no weights can be read: READ and the runs report what they are)."""
        try:
            w, b = self.weights(est)
        except Exception:
            return []
        zero = {"SEP0": 1, "SEP0N": -1}.get(self.reading.end or "", 0)
        out = []
        for i, (x, y) in enumerate(zip(case.X, case.y, strict=True)):
            s = sum((a * Fraction(v) for a, v in zip(w, x, strict=False)), b)
            if (1 if s > 0 else -1 if s < 0 else zero) != y:
                out.append(i)
        return out

    def _caller(self) -> str:
        """What the messages call the user's training: ``fit()`` or ``perceptron()``."""
        if self.function is None:
            return "fit()"
        return f"{getattr(self.function, '__name__', 'function')}()"


#: the visits a ten- and hundred-fold budget may cost a class read through predict()
_VISITS = 200_000
#: a score this small against the sum of its terms' sizes is a tie float rounding
#: may decide (the averaged output's last vector, :meth:`Estimator._averaged_evidence`)
_TIE = Fraction(1, 2**30)


def _properties(reading: Any, function: bool) -> dict[str, str]:
    """The properties checked beyond the generic ones: a training function's predictions
    are its weights' (the end claim judges them; ``EPOCHS`` its budget), or its
    predictor's beside it (``PREDICT``, ``READ``); a class read through ``predict`` alone
    has no ``READ``."""
    out = dict(ESTIMATOR_PROPERTIES)
    if function:  # its predictor beside it, if any, is judged as a class's predict()
        out = {} if reading.beside is None else dict(BESIDE_PROPERTIES)
    if reading.predict_only is not None:
        del out["READ"]
    if reading.output != "last":  # averaged: READ; voted: no one linear predictor
        kept = {k: v for k, v in out.items() if k == "READ" and reading.output == "averaged"}
        if eventual(reading):  # given passes enough, it predicts (:mod:`.outputs`)
            kept["PREDICT"] = EVENTUAL_PROPERTY.format(output=reading.output)
        return kept
    if reading.budget is not None:
        out["EPOCHS"] = FUNCTION_EPOCHS_PROPERTY if function else EPOCHS_PROPERTY
    return out


#: The reading's probe as a case (separable by x1 = 2 with margin 1): the first fixed
#: example when the probe fit mispredicts its own training points.
PROBE_CASE = Case(
    tuple(tuple(Fraction(int(v)) for v in x) for x in PROBE_X),
    tuple(int(v) for v in PROBE_Y),
    (Fraction(1), Fraction(0), Fraction(0)),
    Fraction(1),
    {"theta": Fraction(-2)},
    "probe",
)
#: The through-origin probe as a case (separable by u = (2, -1, 1) with margin 1), for
#: an implementation with no bias term.
ORIGIN_CASE = Case(
    tuple(tuple(Fraction(int(v)) for v in x) for x in ORIGIN_X),
    tuple(int(v) for v in ORIGIN_Y),
    (Fraction(2), Fraction(-1), Fraction(1)),
    Fraction(1),
    {"theta": Fraction(0)},
    "probe through the origin",
)


class _Fit:
    """One fit of the estimator on a case: the fitted estimator, its answers (-1/+1),
    the points it mispredicts, whether it warned."""

    def __init__(self, est: Any, answers: list[int], wrong: list[int], warned: bool) -> None:
        self.est, self.answers, self.wrong, self.warned = est, answers, wrong, warned
        self.note = ""
        #: which of several seeded fits this is (an implementation that draws from the
        #: global random state), or ""
        self.seeded = ""
        self.seed: int | None = None
        #: mispredicted points at a tie float rounding decides (not counted as wrong)
        self.ties: list[int] = []
        #: the points ``predict`` answers wrong (``PREDICT``): ``wrong`` but for a
        #: training function with a predictor beside it, whose ``wrong`` is its weights'
        self.mispredicted = wrong


def _rounding_decides(
    w: Sequence[Fraction], b: Fraction, x: Sequence[float], slack: Fraction
) -> bool:
    """Whether float rounding may decide the sign of the score ``w.x + b`` (``slack``:
    how far float64 arithmetic can move it): it is within ``slack`` of 0, and not an exact
    0 that every float evaluation gives exactly -- every product a float, all multiples of
    the smallest power of two among them, their magnitudes summing below 2^53 of it (then
    every partial sum, in any order, is a float).

    >>> from fractions import Fraction as F
    >>> _rounding_decides([F(1), F(1)], F(0), [1.0, -1.0], F(1, 10**12))  # exact 0
    False
    >>> w = [F(0.02), F(-0.03)]
    >>> s = w[0] * F(-14.0) + w[1] * F(-9.0) + F(0.01)
    >>> 0 < abs(s) < F(1, 10**15), _rounding_decides(w, F(0.01), [-14.0, -9.0], F(1, 10**15))
    (True, True)
    >>> _rounding_decides([F(1)], F(0), [0.5], F(1, 10**12))  # far from 0
    False
    """
    terms = [a * Fraction(float(v)) for a, v in zip(w, x, strict=True)] + [b]
    s = sum(terms, Fraction(0))
    if abs(s) > slack:
        return False
    if s != 0:
        return True
    if any(Fraction(float(t)) != t for t in terms):
        return True
    scale = max(t.denominator for t in terms)  # (floats: powers of two)
    return sum(abs(t) for t in terms) * scale >= 2**53


def _takes(function: Any, name: str) -> bool:
    """Whether ``function`` takes a keyword ``name`` (scikit-learn's ``partial_fit``
    takes ``classes``; one written by hand may not).

    >>> _takes(lambda X, y, classes=None: 0, "classes"), _takes(lambda X, y: 0, "classes")
    (True, False)
    """
    try:
        params = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return True
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _coded(reading: Any, label: int) -> str:
    """A -1/+1 answer as the implementation writes it."""
    if label == -1:
        return str(reading.negative)
    return "1" if label == 1 else "neither class"


def _disagreement(
    reading: Any,
    est: Any,
    w: Sequence[Fraction],
    b: Fraction,
    X: np.ndarray,
    answers: Sequence[int],
) -> str | None:
    """``READ``: the first training point where ``predict`` and the weights read disagree
    (where float rounding cannot flip the sign of the score), or None."""
    slack = reading.slack(est)
    for i, x in enumerate(X):
        s = sum((a * Fraction(float(v)) for a, v in zip(w, x, strict=True)), b)
        if abs(s) <= slack(x):
            continue
        sign = 1 if s > 0 else -1
        if answers[i] != sign:
            beside = reading.beside
            said = "predict()" if beside is None else f"{beside.name}({beside.words})"
            return (
                f"{said} answers {_coded(reading, answers[i])} at point {i + 1} where the "
                f"weights read ({reading.describe().split(';')[0]}) give the score "
                f"{float(s):.6g}"
            )
    return None


def _augmented(case: Case, origin: bool = False) -> tuple[Fraction, Fraction]:
    """``R^2`` of the points ``(x, 1)`` (of the points ``x`` for an implementation with
    no bias: its bias coordinate never moves) and ``|u|^2 + theta^2`` of the comparator."""
    R2 = max(sum((v * v for v in x), Fraction(0)) for x in case.X) + (0 if origin else 1)
    uu = sum((v * v for v in case.u), Fraction(0)) + Fraction(case.params.get("theta", 0)) ** 2
    return R2, uu


def classic_epochs(case: Case, budget: int = 100_000, origin: bool = False) -> tuple[str, int]:
    """The epochs the classic algorithm (cyclic, exact, on ``(x, 1)``; on ``x`` with
    ``origin``, for an implementation with no bias) needs on the case, counting the last
    pass without updates: as text (``"more than N"`` past ``budget`` updates) and as a
    number (a lower bound in that case)."""
    from ...data import Dataset
    from ...engine.drive import drive

    X = case.X if origin else tuple((*x, Fraction(1)) for x in case.X)
    data = Dataset(X, case.y)
    dec = drive(data, order="cyclic", budget=budget, detect_cycles=False)
    if dec.status != "converged":
        seen = int(dec.visits[-1]) // case.n + 1
        return f"more than {seen}", seen
    epochs = int(dec.visits[-1]) // case.n + 2 if dec.updates else 1
    return str(epochs), epochs


def _epoch(order: Order, n: int, epoch: int) -> list[int]:
    if order.rule == "random":
        from ...engine.orders import permutation

        return [int(i) for i in permutation(n, seed=order.seed, epoch=epoch)]
    return list(range(n))


def _affine(c: Case) -> Case:
    return Case(c.X, c.y, c.u, c.gamma, {**c.params, "theta": Fraction(0)}, c.name)


def _needed(obj: Callable[..., Any]) -> list[str]:
    """The parameters ``obj()`` cannot be called without (none when they cannot be
    read)."""
    import inspect

    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    kinds = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p.name for p in sig.parameters.values() if p.default is p.empty and p.kind not in kinds]


def _trainer(cls: Any, given: Collection[str] = ()) -> str:
    """The name of a class's training method: ``fit``, else the one its signatures name
    (:func:`~.methods.trainer_of`: ``train(X, y, rate, epochs)``, ``given``: the
    ``--param`` names); ``fit`` when none."""
    found = trainer_of(cls, given)
    return found[0] if found is not None else "fit"


def _fit_parameters(cls: Any, given: Collection[str] = ()) -> list[inspect.Parameter]:
    """The parameters of a class's training method after ``(self, X, y)`` (none when it
    cannot be read)."""
    fit = getattr(cls, _trainer(cls, given), None) if inspect.isclass(cls) else None
    try:
        return list(inspect.signature(fit).parameters.values())[3:] if fit else []
    except (TypeError, ValueError):
        return []


def _needed_by_fit(cls: Any, given: Collection[str] = ()) -> list[str]:
    """The parameters the training method cannot be called without (``fit(X, y,
    num_epochs)``, ``train(X, y, learning_rate, epochs)``)."""
    kinds = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [
        p.name for p in _fit_parameters(cls, given) if p.default is p.empty and p.kind not in kinds
    ]


def _for_fit(obj: Any, params: Mapping[str, Any]) -> dict[str, Any]:
    """The given parameters that are the training method's, not the constructor's."""
    try:
        made_with = inspect.signature(obj).parameters if inspect.isclass(obj) else {}
    except (TypeError, ValueError):
        made_with = {}
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in made_with.values()):
        return {}
    fit_names = {p.name for p in _fit_parameters(obj, params)}
    if inspect.isclass(obj) and not _fit_takes_the_data(obj):  # made with its data?
        for name in data_trainer(obj, params):
            fit_names |= set(inspect.signature(getattr(obj, name)).parameters)
    return {k: v for k, v in params.items() if k not in made_with and k in fit_names}


def _dimension_by_hand(obj: Any, params: Mapping[str, Any], limit: float | None) -> dict[str, Any]:
    """The given constructor parameters (``--param``) that size the weights by their
    behaviour (:func:`~.dimension.dimension_parameters`): a value given by hand suits data
    of one dimension only, so each data set's own replaces it."""
    if not inspect.isclass(obj):
        return {}
    need = _needed(obj)
    if not any(n in params for n in need):
        return {}
    made = functools.partial(obj, **{k: v for k, v in params.items() if k not in need})
    dims = dimension_parameters(made, need, limit)
    return {n: params[n] for n in dims if n in params}


def resolve_factory(
    spec: str,
    limit: float | None = DEFAULT_TIME_LIMIT,
    params: Mapping[str, Any] | None = None,
) -> Callable[..., Any]:
    """``module:attribute`` naming an estimator class or zero-argument factory (made
    once, under the per-run ``limit``, to see that it makes an object with ``fit``), or
    a training function ``f(X, y, ...)`` (:mod:`.functions`; returned as it is), with
    ``params`` given (``--param NAME=VALUE``: :mod:`.given`); given its points as lists
    where it was written for them (:mod:`.as_lists`)."""
    return _lists_if_needed(_resolve_factory(spec, limit, params), limit)


#: The time a probe of the points' type has: a pure-Python fit of 8 points takes
#: milliseconds, and code given the wrong type may loop for ever.
_TYPE_PROBE_SECONDS = 2.0


def _type_probe_seconds(limit: float | None) -> float:
    return _TYPE_PROBE_SECONDS if limit is None else min(limit, _TYPE_PROBE_SECONDS)


def _lists_if_needed(obj: Callable[..., Any], limit: float | None) -> Callable[..., Any]:
    """``obj``, or :class:`~.as_lists.AsLists` of it when, given lists, it learns the
    training points of separable probes it does not learn from arrays (given arrays it
    raises, does not return or gets them wrong)."""
    learns = functions_learn if is_training_function(obj) else _class_learns
    seconds = _type_probe_seconds(limit)
    with seeded(0):  # (a random start: the same choice in every process)
        from_arrays = learns(obj, seconds)
    if len(from_arrays) == (3 if learns is functions_learn else 2):
        return obj
    lists = AsLists(obj)
    with seeded(0):
        from_lists = learns(lists, seconds)
    if from_lists > from_arrays:
        return lists
    if learns is not functions_learn:
        return obj
    # its points the columns of its matrix (d x n)?  its classes as two sets of points?
    shapes: list[Callable[..., Any]] = [Transposed(obj)]
    if len(_needed(obj)) == 2:
        shapes += [TwoSets(obj, positive_first=True), TwoSets(obj, positive_first=False)]
    best, most = obj, len(from_arrays)
    for shape in shapes:
        with seeded(0):
            learned = len(learns(shape, seconds))
        if learned > most:
            best, most = shape, learned
    return best


def _laid_out(function: Callable[..., Any], limit: float | None) -> Callable[..., Any] | None:
    """A training function of one argument, the data (:mod:`.data_layout`): the layout
    in which, given the separable probe, it returns weights that can be read (those
    that classify the probe first); None when none does."""
    seconds = _type_probe_seconds(limit)
    readable = []
    name = _needed(function)[0]
    first = _first_parameter(function)
    for layout in LAYOUTS:  # (by keyword where the data are not its first parameter)
        laid = DataLayout(function, layout, None if first == name else name)
        learned = functions_learn(laid, seconds)
        if learned:
            return laid
        try:
            with time_limit(seconds):
                out = laid(PROBE_X.copy(), PROBE_Y.copy())
        except (Exception, RunTimeout):  # (not its layout)
            continue
        if any(size_of(v) in (PROBE_X.shape[1], PROBE_X.shape[1] + 1) for v in _values(out)):
            readable.append(laid)
    return readable[0] if len(readable) == 1 else None


def _with_start(function: Callable[..., Any], limit: float | None) -> Started | None:
    """A training function with required parameters beyond its data that are its start
    (:func:`~.dimension.start_parameters`): after its points and labels,
    ``perceptron(X, y, w)``; after its data in one argument (:mod:`.data_layout`),
    ``perceptron(data_set, w, b)``; or before its points and labels, ``Pocket(w0, X,
    y)``."""
    needed = _needed(function)
    starts = start_parameters(function, needed[2:], limit)
    if starts:
        return Started(function, starts)
    seconds = _type_probe_seconds(limit)
    for layout in LAYOUTS:
        laid = DataLayout(function, layout)
        starts = start_parameters(laid, needed[1:], seconds)
        if starts:
            return Started(laid, starts)
    for i, j in itertools.combinations(range(len(needed)), 2):
        if (i, j) == (0, 1):
            continue  # (tried first)
        names = (needed[i], needed[j])
        keyed = DataAt(function, names)
        starts = start_parameters(keyed, [n for n in needed if n not in names], seconds)
        if starts:
            return Started(keyed, starts)
    return None


def _first_parameter(function: Callable[..., Any]) -> str | None:
    """The name of the user's function's first parameter (under the parameters the
    user gave, which a :class:`~.given.Given` lists last but passes by keyword)."""
    base = function.obj if isinstance(function, Given) else function
    return next(iter(inspect.signature(base).parameters), None)


#: The data in one argument looked for at most this many type probes' time (a call
#: given the wrong values may run each probe's whole time).
_DATA_FIRST_PROBES = 5


def _data_first(function: Callable[..., Any], spec: str, limit: float | None) -> None:
    """A training function of several required parameters one of which is the data in
    one argument -- its first (``train_weights(rows, l_rate, n_epoch)``) or another
    (``pla(eta, dataset)``, given by keyword): given the probe that way, each other
    parameter 1 or 1.0 (an epoch count must be an int, a rate may be printed as a
    float), it runs and returns weights, where given the points and labels as its first
    two it raises.  Its other parameters are then asked for by name (an
    ``InputError``); nothing is said where behaviour does not show it."""
    needed = _needed(function)
    if len(needed) > 4:
        return
    seconds = _type_probe_seconds(limit)
    for values in itertools.product((1, 1.0), repeat=len(needed) - 2):
        try:
            call = functools.partial(
                function,
                PROBE_X.copy(),
                PROBE_Y.copy(),
                **dict(zip(needed[2:], values, strict=True)),
            )
            call_before_runs(call, "f", seconds)
            return  # (its points and labels first: read as such)
        except HookError:
            continue
    d = PROBE_X.shape[1]
    first = _first_parameter(function)
    ends = time.monotonic() + _DATA_FIRST_PROBES * seconds  # (never a long question)
    for at, layout in itertools.product(range(len(needed)), LAYOUTS):
        data = needed[at]
        others = [n for n in needed if n != data]
        for values in itertools.product((1, 1.0), repeat=len(others)):
            if time.monotonic() > ends:
                return
            laid = DataLayout(function, layout, None if data == first else data)
            try:
                call = functools.partial(
                    laid, PROBE_X.copy(), PROBE_Y.copy(), **dict(zip(others, values, strict=True))
                )
                out = call_before_runs(call, "f", seconds)
            except HookError:
                continue
            if not any(size_of(v) in (d, d + 1) for v in _values(out)):
                continue
            hint = " ".join(f"--param {n}=VALUE" for n in others)
            raise InputError(
                f"--fit {spec}: its data come in one argument, {data} ({LAYOUTS[layout]}, "
                f"found by its behaviour), and it needs {', '.join(others)} (no default), "
                f"which behaviour cannot choose: give them with {hint}"
            )


def _beside(function: Callable[..., Any], reading: Reading, limit: float | None) -> Beside | None:
    """The predictor beside a training function (:mod:`.beside`), judged on a fit of the
    separable probe its reading learned (through the origin where it has no bias)."""
    X, Y = (ORIGIN_X, ORIGIN_Y) if reading.origin else (PROBE_X, PROBE_Y)
    lists = any(isinstance(w, AsLists) for w in wrappers(function))
    try:
        with seeded(0), time_limit(_type_probe_seconds(limit)), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fitted = set_budget(TrainingFunction(function, reading), reading, None)
            fitted.fit(X.copy(), reading.encode(Y.tolist()))
            used = tuple(
                int(name.rsplit("_", 1)[1])
                for name in (reading.weights, reading.bias)
                if isinstance(name, str) and name.startswith("returned_")
            )
            return predictor_beside(function, fitted, X, Y, reading.returns, used=used, lists=lists)
    except (Exception, RunTimeout):  # (the runs say what the function does)
        return None


def _values(out: Any) -> list[Any]:
    """What a function returned, as the values a reading looks at."""
    return list(out) if isinstance(out, tuple) else [out]


def _class_learns(factory: Callable[..., Any], limit: float | None) -> set[int]:
    """The separable probes (0: with a bias, 1: through the origin) whose training
    points objects of ``factory``, fitted on them, predict (in -1/+1 or in 0/1;
    :func:`~.reading.probes_learned`)."""

    def learns(X: np.ndarray, Y: np.ndarray, y: np.ndarray) -> bool:
        est = factory()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X.copy(), y.copy())
        return [float(a) for a in answers_of(est, X)] == [float(v) for v in y]

    return probes_learned(((PROBE_X, PROBE_Y), (ORIGIN_X, ORIGIN_Y)), learns, limit)


def _resolve_factory(
    spec: str,
    limit: float | None = DEFAULT_TIME_LIMIT,
    params: Mapping[str, Any] | None = None,
) -> Callable[..., Any]:
    from ..boundary.loading import load_attribute

    obj = load_attribute(spec, f"--fit {spec}")
    if not callable(obj):
        raise InputError(f"--fit {spec!r} is not callable")
    params = dict(params or {})
    fit_params = _for_fit(obj, params)  # --param NAME=... for a parameter of fit()
    params = {k: v for k, v in params.items() if k not in fit_params}
    by_hand = _dimension_by_hand(obj, params, limit)  # --param inputs=2: each data's own
    params = {k: v for k, v in params.items() if k not in by_hand}
    try:
        obj = given(obj, params, spec)
    except InputError as exc:
        raise InputError(f"--fit {spec}: {exc}") from None
    base = obj.obj if isinstance(obj, Given) else obj
    a_class = inspect.isclass(base)  # (with parameters given or not)
    if not a_class and len(_needed(obj)) == 1:  # perceptron(data): its layout?
        laid = _laid_out(obj, limit)
        if laid is not None:
            return laid
    if not a_class and len(_needed(obj)) > 2:  # perceptron(X, y, w), (data, w, b), (w0, X, y)
        obj = _with_start(obj, limit) or obj
    if not a_class and len(_needed(obj)) == 2 and labels_as_column(obj, limit):
        kept = obj.starts if isinstance(obj, Started) else {}
        obj = Started(obj.function if isinstance(obj, Started) else obj, kept, column=True)
    if not a_class and len(_needed(obj)) >= 2 and not isinstance(obj, Started):
        _data_first(obj, spec, limit)  # train(rows, l_rate, n_epoch): asked by their names
    try:
        if not a_class and is_training_function(obj, spec):
            return obj  # type: ignore[no-any-return]
    except InputError as exc:
        raise InputError(f"--fit {exc}") from None
    need = _needed(obj)
    dims = dimension_parameters(obj, need, limit) if need and inspect.isclass(base) else []
    rest = [n for n in need if n not in dims]
    trainer = _trainer(base, fit_params)
    fit_need = [n for n in _needed_by_fit(base, fit_params) if n not in fit_params]
    if len(rest) >= 2 and not dims:  # Perceptron(X, y), then train()?
        with_data = _made_with_its_data(obj, base, rest, fit_params, limit, spec)
        if with_data is not None:
            return _with_predictor(with_data, spec, limit)
    if rest or fit_need:
        hint = " ".join(f"--param {n}=VALUE" for n in [*rest, *fit_need])
        sizing = (
            f" ({', '.join(dims)}: the data's dimension, found by its behaviour)" if dims else ""
        )
        said = [f"{', '.join(rest)} to be made{sizing}"] if rest else []
        said += [f"{', '.join(fit_need)} for {trainer}() (no default)"] if fit_need else []
        raise InputError(
            f"--fit {spec}: it needs {' and '.join(said)}, and behaviour cannot choose "
            f"them: give them with {hint}"
        )
    if dims or fit_params:  # made for each data set's dimension; fit's parameters given
        made = sized(base, tuple(dims), fit_params, by_hand, trainer)  # type: ignore[arg-type]
        obj = given(made, obj.params, spec) if isinstance(obj, Given) else made
    try:
        est = call_before_runs(obj, "__init__", limit)
    except HookError as exc:
        raise InputError(f"--fit {spec!r}: calling it failed: {exc}") from None
    if _predict_needs_more(est):  # predict(X, model): given what fit returned?
        return _predicts_with_returned(obj, spec, limit)
    methods: dict[str, str] = {}
    if not callable(getattr(est, "fit", None)):  # train(X, y), learn(X, y), ...
        methods["fit"] = _training_method(est, spec)
    if not callable(getattr(est, "predict", None)):  # classify(X), ...: by its behaviour
        trains = WithMethods(obj, methods) if methods else obj
        return _with_predictor(trains, spec, limit, est)
    if methods:
        return WithMethods(obj, methods)
    return obj  # type: ignore[no-any-return]


def _with_predictor(
    factory: Callable[..., Any], spec: str, limit: float | None, est: Any = None
) -> Callable[..., Any]:
    """``factory`` answering ``predict``: its own, another method that answers labels
    (found by behaviour), or -- none, and its trainer returns what it learned -- read as a
    training function (:mod:`.returned_weights`)."""
    if est is None:
        try:
            est = call_before_runs(factory, "__init__", limit)
        except HookError as exc:
            raise InputError(f"--fit {spec!r}: calling it failed: {exc}") from None
    if callable(getattr(est, "predict", None)):
        return factory
    try:
        method = _prediction_method(factory, est, spec, limit)
    except InputError:
        as_function = _returned_weights(factory, spec, limit)
        if as_function is None:
            raise
        return as_function
    if isinstance(factory, WithMethods):
        return WithMethods(factory.factory, {**factory.methods, "predict": method})
    return WithMethods(factory, {"predict": method})


def _returned_weights(
    factory: Callable[..., Any], spec: str, limit: float | None
) -> Callable[..., Any] | None:
    """The training function a class with no predictor is, when its trainer returns
    something on the separable probe (not None, not the object); None otherwise."""
    if isinstance(factory, WithMethods):
        trainer, base = factory.methods.get("fit", "fit"), factory.factory
    else:
        trainer, base = getattr(factory, "trainer", "fit"), factory
    cls = getattr(base, "cls", getattr(base, "obj", base))
    code = getattr(cls, trainer, None)
    if not inspect.isfunction(code):
        return None
    for labels in (PROBE_Y, PROBE_Y.reshape(-1, 1)):  # (labels as a column: (n, 1))
        try:
            with probing(limit):
                est = factory()
                fresh = copy.deepcopy(dict(vars(est))) if hasattr(est, "__dict__") else {}
                out = trained(est, PROBE_X.copy(), labels.copy())
        except Exception:  # (its fit raises or does not return: the question stands)
            continue
        if out is None or out is est:  # what it learned left on the object?
            if candidate_methods(est):  # (a method that answers no label, or two: asked)
                return None
            kept = kept_after(fresh, est, PROBE_X.shape[1])
            function = ReturnedWeights(factory, trainer, code, kept) if kept else None
        else:
            function = ReturnedWeights(factory, trainer, code)
        if function is None or labels.ndim == 1:
            return function
        return Started(function, {}, column=True)
    return None


def _made_with_its_data(
    obj: Any,
    base: Any,
    names: list[str],
    train_given: Mapping[str, Any],
    limit: float | None,
    spec: str,
) -> Callable[..., Any] | None:
    """A class whose first two required constructor parameters take the training data
    (:mod:`.made_with_data`): made with the probe's points and labels (and, for the
    parameters left, the data's sizes, in the one order it accepts) it constructs, no
    method takes the data, and one public method needs nothing beyond ``train_given``
    (its trainer).  The factory that makes it per data set, or None.  A trainer that
    needs a value no one gave: an ``InputError`` asking for it."""
    if not inspect.isclass(base) or _fit_takes_the_data(base):
        return None
    data = dict(zip(names[:2], (PROBE_X.copy(), PROBE_Y.copy()), strict=True))
    sized = _data_sizes(obj, data, names[2:], limit)
    if sized is None:
        return None
    trainers = outermost(base, data_trainer(base, train_given))
    if len(trainers) != 1:
        if not trainers:
            _asks_the_trainers_values(base, names[:2], spec)
        return None
    made = made_with_data(base, names[:2], trainers[0], train_given, sized)
    return given(made, obj.params, "") if isinstance(obj, Given) else made


def _fit_takes_the_data(cls: type) -> bool:
    """Whether ``cls`` has a ``fit`` that is given the data (then it is not made with
    them)."""
    return (trainer_of(cls) or ("", []))[0] == "fit"


def _data_sizes(
    obj: Any, data: dict[str, Any], more: list[str], limit: float | None
) -> dict[str, str] | None:
    """The data's sizes (:data:`~.made_with_data.SIZES`) for the constructor's
    parameters ``more`` left after the data: the first assignment with which it
    constructs on the probe (``{}`` when none is left); None when none does, or when
    more than two are left."""
    if len(more) > 2:
        return None
    orders = [dict(zip(more, o, strict=False)) for o in itertools.permutations(SIZES, len(more))]
    if len(more) == 1:  # a size alone is most often the dimension
        orders.reverse()
    for order in orders:
        values = dict(zip(order, sizes_of(PROBE_X, list(order.values())), strict=True))
        try:
            call_before_runs(functools.partial(obj, **data, **values), "__init__", limit)
        except HookError:
            continue
        return order
    return None


def _asks_the_trainers_values(base: type, names: list[str], spec: str) -> None:
    """A class made with its data whose one candidate trainer needs values (``fit(eta)``):
    an ``InputError`` asking for them by name; nothing when there is no one candidate."""
    needing = []
    for name in outermost(base, data_trainer(base, given=_all_parameters_of(base))):
        params = list(inspect.signature(getattr(base, name)).parameters.values())[1:]
        need = [p.name for p in params if p.default is p.empty and p.kind not in _VARYING]
        needing.append((name, need))
    if len(needing) != 1:
        return
    name, need = needing[0]
    hint = " ".join(f"--param {n}=VALUE" for n in need)
    raise InputError(
        f"--fit {spec}: it is made with its training data ({', '.join(names)}) and trained "
        f"by {name}(), which needs {', '.join(need)} (no default), and behaviour cannot "
        f"choose it: give it with {hint}"
    )


_VARYING = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def _all_parameters_of(cls: type) -> set[str]:
    """Every parameter name of ``cls``'s public methods (a candidate trainer's values)."""
    out: set[str] = set()
    for name in dir(cls):
        member = getattr(cls, name, None)
        if not name.startswith("_") and inspect.isfunction(member):
            out |= set(inspect.signature(member).parameters)
    return out


def _passes_returned(factory: Any) -> list[str]:
    """What :class:`~.returned_weights.PredictsWithReturned` does, when it wraps the
    user's class, in words."""
    return [w.describe() for w in wrappers(factory) if isinstance(w, PredictsWithReturned)]


def _predict_needs_more(est: Any) -> list[str]:
    """The required parameters of ``est.predict`` besides the points (none when it has
    no ``predict`` or it cannot be read)."""
    predict = getattr(est, "predict", None)
    if not callable(predict):
        return []
    try:
        params = list(inspect.signature(predict).parameters.values())
    except (TypeError, ValueError):
        return []
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in params if p.kind in kinds and p.default is p.empty][1:]


def _predicts_with_returned(obj: Any, spec: str, limit: float | None) -> Callable[..., Any]:
    """A ``predict(X, model)`` that needs one value besides the points, the model being
    what ``fit`` returns: given it (:class:`~.returned_weights.PredictsWithReturned`)
    when, fitted on the probe, it answers one label per point so; else an
    ``InputError`` naming what it needs -- not a ``RUNS`` failure blamed on ``fit``,
    which the check's own ``predict(X)`` raised before."""
    made = PredictsWithReturned(obj)
    est = call_before_runs(obj, "__init__", limit)
    more = _predict_needs_more(est)
    if len(more) == 1 and callable(getattr(est, "fit", None)):
        for neg, pos in ((-1, 1), (0, 1)):
            try:
                with probing(limit):
                    fitted = made()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        fitted.fit(PROBE_X.copy(), np.where(PROBE_Y > 0, pos, neg))
                    said = {float(a) for a in answers_of(fitted, PROBE_X)}
            except Exception:  # (its fit or predict raises: the question stands)
                continue
            returned = fitted.__dict__.get("fit_returned")
            if returned is not None and returned is not fitted and said <= {neg, 0, pos}:
                return made
    needs = ", ".join(more)
    raise InputError(
        f"--fit {spec}: its predict(X, {needs}) needs {needs} besides the points, and the "
        f"check asks predict(X) after fit(X, y): keep what fit() learns on the object "
        f"(self.{more[0]} = ...) and let predict(X) read it"
    )


def _training_method(est: Any, spec: str) -> str:
    """The method of a class with no ``fit`` that trains it: the one public method that
    takes the points and their labels (``train(X, y)``, ``learn(X, y, epochs=10)``);
    none, or several, is an ``InputError`` saying what to add."""
    names = training_methods(est)
    if len(names) > 1:  # the ones that change the object, and that none of the others calls
        names = trainers_among(type(est), names)
    if len(names) == 1:
        return names[0]
    if not names:
        needing = [(n, needs) for n, needs in trainers_of(type(est)) if needs]
        if needing:  # train(X, y, learning_rate): the user gives what it needs
            listed = "; ".join(
                f"{n}() needs {', '.join(needs)}: " + " ".join(f"--param {p}=VALUE" for p in needs)
                for n, needs in needing
            )
            raise InputError(
                f"--fit {spec}: it has no fit(X, y); the methods that take the points and "
                f"their labels first need more, and behaviour cannot choose it: {listed}"
            )
        raise InputError(
            f"--fit {spec!r} does not make an object with fit(X, y), nor with another method "
            "that takes the points and their labels"
        )
    listed = " and ".join(f"{n}(X, y)" for n in names)
    raise InputError(
        f"--fit {spec}: it has no fit(X, y), and {listed} each take the points and their "
        f"labels: add fit = {names[0]} (or the one that trains) to the class"
    )


class _Asking:
    """A method asked for labels as ``predict`` is (:func:`answers_of`)."""

    def __init__(self, method: Callable[..., Any]) -> None:
        self.predict = method


def _prediction_method(obj: Callable[..., Any], est: Any, spec: str, limit: float | None) -> str:
    """The method of a class with no ``predict`` that answers labels: after a fit on the
    separable probe, the one whose answers are one label per point (in the coding fit
    was given) -- those that give the probe's own labels first.  None, or several that
    behaviour cannot tell apart: an ``InputError`` saying what to add."""
    names = candidate_methods(est)
    fix = "add predict(self, X) returning one label per point"
    if not names:
        raise InputError(f"--fit {spec}: it has no predict(X), nor a method to ask instead: {fix}")
    right: list[str] = []
    labelling: list[str] = []
    fitted_once = False
    # each coding first under the type probe's short limit (a 0/1 class given -1 may
    # run its whole budget), then, none answering labels, the slow ones under the whole
    slow: list[tuple[int, int]] = []
    tries = [((-1, 1), True), ((0, 1), True), ((-1, 1), False), ((0, 1), False)]
    try:
        with probing(limit):
            for (neg, pos), short in tries:
                if not short and (neg, pos) not in slow:
                    continue
                fitted = obj()
                y = np.where(PROBE_Y > 0, pos, neg)
                own = time_limit(_type_probe_seconds(limit)) if short else None
                try:
                    with warnings.catch_warnings(), own or contextlib.nullcontext():
                        warnings.simplefilter("ignore")
                        fitted.fit(PROBE_X.copy(), y)
                except RunTimeout:
                    if own is None or own.at_deadline:
                        raise  # the caller's limit, or the check's deadline
                    slow.append((neg, pos))
                    continue
                except Exception:  # judged by the runs (RUNS), whichever method predicts
                    continue
                fitted_once = True
                for name in names:
                    try:
                        asked = _Asking(getattr(fitted, name))
                        said = [float(a) for a in answers_of(asked, PROBE_X)]
                    except Exception:
                        continue
                    if set(said) <= {neg, pos} and name not in labelling:
                        labelling.append(name)
                        if said == [float(v) for v in y]:
                            right.append(name)
                if labelling:
                    break
    except HookError as exc:  # its fit did not return: nothing to ask
        raise InputError(f"--fit {spec}: it has no predict(X), and {exc}") from None
    chosen = right if right else labelling
    if len(chosen) == 1:
        return chosen[0]
    if not fitted_once:  # its fit raises on every probe: the runs judge it (RUNS)
        return names[0]
    if not chosen:
        listed = ", ".join(f"{n}()" for n in names)
        raise InputError(
            f"--fit {spec}: it has no predict(X), and none of {listed} answers one label "
            f"per point after a fit: {fix}"
        )
    listed = " and ".join(f"{n}()" for n in chosen)
    raise InputError(
        f"--fit {spec}: it has no predict(X), and {listed} each answer labels: add "
        f"predict = {chosen[0]} (or the one that predicts) to the class"
    )
