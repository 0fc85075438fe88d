"""Any ``fit(X, y)`` object as a variant: adapters for the usual conventions.

``Estimator(factory)`` checks an estimator class the way a researcher would check
someone else's Perceptron, on the harness's generated data (rounded to float64, the
data the estimator sees):

* **labels** ``-1/+1`` or ``0/1`` (``labels="auto"`` tries ``-1/+1`` first);
* **weights** read from ``coef_``/``intercept_`` (scikit-learn), ``w_``/``b_``
  (mlxtend) or ``weights_``/``bias_``, with or without a separate bias (a missing
  bias attribute is a bias of 0);
* **per-update claims** where a trace exists: weights before and after each sample,
  read through ``partial_fit`` (fed one row at a time, in passes) or a *tracer*: a
  function ``tracer(estimator, record)`` that arranges for ``record(-1)`` to be called
  once before the first sample (the start) and ``record(j)`` right after the estimator
  processed sample ``j`` during ``fit`` (:func:`mlxtend_tracer` is one).  Each change
  of the weights is one update, measured against the augmented comparator
  ``(u, theta)``: the claim is the generic lemma with ``(C, g) = (a^2 (R^2 + 1),
  a gamma)`` for the step size ``a`` (``rate``), and the bound T from the **actual
  start** (``u.w_1``, ``|w_1|^2`` of the first weights the trace sees);
* always: **final separation** of the fitted model (``SEP``: ``y (w.x + b) > 0``
  exactly, on the fitted weights), its own ``predict`` (``PREDICT``: every training
  label predicted) and the **stopping rule** (``STOP``: ``fit`` ends with every
  training point predicted correctly, or says so with a warning).

>>> from sklearn.linear_model import Perceptron
>>> v = Estimator(lambda: Perceptron(eta0=1.0), name="sklearn", trace="partial_fit")
>>> v.name, v.extra_properties["STOP"][:24]
('sklearn', 'fit() stops only when ev')
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np
from hypothesis import strategies as st

from ..errors import InputError
from ..numbers import dot
from .claims import Claim
from .protocol import Case, Order, Record, Variant, WeightTrace, _separable_cases

__all__ = ["Estimator", "mlxtend_tracer", "resolve_factory"]

_WEIGHTS = (("coef_", "intercept_"), ("w_", "b_"), ("weights_", "bias_"), ("weights", "bias"))


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


class Estimator(Variant):
    """A ``fit(X, y)`` estimator class checked as a Perceptron (see the module docs).

    ``factory()`` makes a fresh estimator; ``rate`` is the step size ``a`` of an update
    ``(w, b) += a y (x, 1)`` (default: the estimator's ``eta0``, ``eta`` or 1; mlxtend's
    ``eta`` moves by ``2 eta``: pass ``rate``); ``trace``: ``"partial_fit"``, a tracer
    function, or ``None`` (final checks only); ``epochs``: passes of a traced run.
    """

    order_rules: ClassVar[tuple[str, ...]] = ("cyclic", "random")
    #: estimators compute in float64: checked on enclosures unless asked otherwise
    default_mode: ClassVar[str] = "float"
    extra_properties: ClassVar[dict[str, str]] = {
        "PREDICT": "the fitted model's own predict() gives every training label",
        "STOP": "fit() stops only when every training point is predicted correctly (or it warns)",
    }

    def __init__(
        self,
        factory: Callable[[], Any],
        *,
        name: str | None = None,
        labels: str = "auto",
        rate: Any = None,
        trace: str | Callable[[Any, Callable[[int], None]], None] | None = "auto",
        epochs: int = 100,
    ) -> None:
        self.factory = factory
        self.name = str(name or getattr(factory, "__name__", "estimator"))  # type: ignore[misc]
        self.summary = f"fit(X, y) estimator {self.name}"  # type: ignore[misc]
        self._labels = labels
        self._rate = rate
        if trace == "auto":
            trace = "partial_fit" if hasattr(factory(), "partial_fit") else None
        self.trace = trace
        self.epochs = epochs

    # --- conventions ---------------------------------------------------------------------

    def labels(self) -> str:
        """``"pm1"`` or ``"01"`` (``auto``: ``-1/+1`` unless ``fit`` refuses them)."""
        if self._labels == "auto":
            est = self.factory()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    est.fit(np.array([[1.0], [-1.0]]), np.array([1, -1]))
                self._labels = "pm1"
            except Exception:
                self._labels = "01"
        return self._labels

    def encode(self, y: Sequence[int]) -> np.ndarray:
        return np.array([(1 if v > 0 else 0) if self.labels() == "01" else v for v in y])

    def rate(self) -> Fraction:
        if self._rate is not None:
            return Fraction(self._rate)
        est = self.factory()
        for attr in ("eta0", "eta", "learning_rate"):
            v = getattr(est, attr, None)
            if isinstance(v, int | float) and not isinstance(v, bool):
                return Fraction(v)
        return Fraction(1)

    @staticmethod
    def weights(est: Any) -> tuple[list[Fraction], Fraction]:
        """``(w, b)`` read from the estimator's weight attributes, exactly."""
        for wa, ba in _WEIGHTS:
            w = getattr(est, wa, None)
            if w is not None:
                b = getattr(est, ba, None)
                wv = [Fraction(float(v)) for v in np.ravel(w)]
                bv = Fraction(float(np.ravel(b)[0])) if b is not None else Fraction(0)
                return wv, bv
        raise InputError(
            "cannot find the fitted weights (coef_/intercept_, w_/b_ or weights_/bias_)"
        )

    # --- the protocol ----------------------------------------------------------------------

    def cases(self) -> Any:
        from .cases import biased_cases
        from .harness import float_case

        base = st.one_of(_separable_cases().map(_affine), biased_cases())
        return base.filter(_two_classes).map(float_case).filter(lambda c: c is not None)

    def examples(self) -> Sequence[Case]:
        from .harness import float_case
        from .protocol import in_domain, pushing_cases

        fixed = in_domain(lambda b: b.filter(_two_classes), pushing_cases())
        return [_affine(c) for c in (float_case(c) for c in fixed) if c is not None]

    def claim(self, case: Case) -> Claim:
        a = self.rate()
        R2 = max(sum((v * v for v in x), Fraction(0)) for x in case.X) + 1
        uu = sum((v * v for v in case.u), Fraction(0)) + Fraction(case.params.get("theta", 0)) ** 2
        if self.trace is None:
            return Claim(end="SEP")
        start = self._start(case)
        u = (*case.u, Fraction(case.params.get("theta", 0)))
        ps = sum((p * q for p, q in zip(u, start, strict=True)), Fraction(0))
        ns = sum((p * p for p in start), Fraction(0))
        return Claim(C=a * a * R2, g=a * case.gamma, uu=uu, pu0=ps, n0=ns)

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
        est = self.factory()
        seen: list[tuple[int, list[Fraction]]] = []

        def record(j: int) -> None:
            w, b = self.weights(est)
            seen.append((j, [*w, b]))

        self.trace(est, record)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X, y)
        if not seen or seen[0][0] != -1:
            raise InputError(f"{self.name}: the tracer did not record the start (record(-1))")
        return seen[0][1], seen[1:]

    def run(self, case: Case, order: Order) -> Record:
        X = np.array([[float(v) for v in x] for x in case.X])
        y = self.encode(case.y)
        rec = Record()
        if self.trace is not None:
            self._traced(case, order, X, y, rec)
        self._fitted(case, X, y, rec)
        return rec

    def _traced(self, case: Case, order: Order, X: np.ndarray, y: np.ndarray, rec: Record) -> None:
        u = (*case.u, Fraction(case.params.get("theta", 0)))
        aug = Case(tuple((*x, Fraction(1)) for x in case.X), case.y, u, case.gamma, {}, case.name)
        est = self.factory()
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

    def _fitted(self, case: Case, X: np.ndarray, y: np.ndarray, rec: Record) -> None:
        est = self.factory()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            est.fit(X, y)
        w, b = self.weights(est)
        rec.output.update(w=tuple(w), b=b)
        pred = np.asarray(est.predict(X))
        wrong = [i for i in range(case.n) if pred[i] != y[i]]
        rec.checks["PREDICT"] = (
            None
            if not wrong
            else f"predict() gives {pred[wrong[0]]} for point {wrong[0] + 1}, label {y[wrong[0]]}"
        )
        n_iter = getattr(est, "n_iter_", None)
        warned = [w for w in caught if "onverge" in str(w.message)]
        rec.output["n_iter"] = n_iter
        rec.checks["STOP"] = (
            None
            if not wrong or warned
            else f"fit() stopped (n_iter_ = {n_iter}) with {len(wrong)} training point(s) "
            "mispredicted and no warning"
        )


def _epoch(order: Order, n: int, epoch: int) -> list[int]:
    if order.rule == "random":
        from ..engine.orders import permutation

        return [int(i) for i in permutation(n, seed=order.seed, epoch=epoch)]
    return list(range(n))


def _affine(c: Case) -> Case:
    return Case(c.X, c.y, c.u, c.gamma, {**c.params, "theta": Fraction(0)}, c.name)


def resolve_factory(spec: str) -> Callable[[], Any]:
    """``module:attribute`` naming an estimator class or zero-argument factory."""
    from .registry import load_attribute

    obj = load_attribute(spec, f"--fit {spec}")
    if not callable(obj):
        raise InputError(f"--fit {spec!r} is not callable")
    try:
        est = obj()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise InputError(
            f"--fit {spec!r}: calling it failed ({type(exc).__name__}: {exc})"
        ) from None
    if not callable(getattr(est, "fit", None)):
        raise InputError(f"--fit {spec!r} does not make an object with fit(X, y)")
    return obj  # type: ignore[no-any-return]


_ = (st, dot)
