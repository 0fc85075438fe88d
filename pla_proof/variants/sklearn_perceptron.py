"""scikit-learn's ``Perceptron`` as a real client of the harness (needs the ``sklearn`` extra).

``sklearn-perceptron`` traces its updates: rows are fed one at a time with
``partial_fit(x, y, classes=[-1, 1])`` in passes (cyclic or a random permutation per
pass), and every change of ``coef_``/``intercept_`` is one update, measured exactly
(float64 values are dyadic rationals; the data are small integers, so sklearn's
arithmetic is exact here).  With ``eta0 = 1``, ``alpha`` unused (``penalty=None``) and
``fit_intercept=True`` it is the classic algorithm on ``(x, 1)``: claims
``(R^2 + 1, gamma)``, strict separation at the end, and ``EQ``: the same updates
and weights as the classic run (seed 004's ``b += y``).  sklearn's trigger is its
``Hinge(threshold=0)`` loss gradient: ``y p <= 0`` -- non-strict, so a point at
margin exactly 0 *is* updated, like the textbook algorithm; its ``predict`` maps a
decision value of exactly 0 to ``classes_[0]`` (-1).

``sklearn-default`` fits ``Perceptron()`` with every default (``tol=1e-3``,
``n_iter_no_change=5``, ``shuffle=True``, ``random_state=0``) and claims only that
the fitted model separates its (separable) training data.  It does not: the
stopping rule looks at the epoch's average hinge loss, and a loss that stops
improving by ``tol`` for 5 epochs ends training with errors left (a point at
margin 0 even contributes loss 0 while still being updated).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from hypothesis import strategies as st

from ..errors import InputError
from ..numbers import dot, norm2
from .bias import augmented
from .cases import biased_cases, sign_labelled_biased_cases
from .classic import Classic
from .protocol import Case, Claim, Measure, Order, Record, Variant

__all__ = ["SklearnDefault", "SklearnPerceptron", "sklearn_available"]


def sklearn_available() -> bool:
    try:
        import sklearn  # noqa: F401
    except ImportError:
        return False
    return True


def _perceptron(**kw: Any) -> Any:
    try:
        from sklearn.linear_model import Perceptron
    except ImportError:
        raise InputError(
            "this variant needs scikit-learn: pip install 'pla_proof[sklearn]'"
        ) from None
    return Perceptron(**kw)


def _epoch(order: Order, n: int, epoch: int) -> list[int]:
    """The visiting order of one epoch (the engine's: cyclic, or its random permutation)."""
    if order.rule == "random":
        from ..engine.orders import permutation

        return permutation(n, seed=order.seed, epoch=epoch)
    return list(range(n))


def _two_classes(case: Case) -> bool:
    return len(set(case.y)) == 2


def _exact(v: Any) -> Fraction:
    return Fraction(float(v))


class SklearnPerceptron(Variant):
    """``sklearn.linear_model.Perceptron`` traced row by row with ``partial_fit``."""

    name: ClassVar[str] = "sklearn-perceptron"
    summary: ClassVar[str] = (
        "scikit-learn Perceptron traced by partial_fit: classic on (x, 1), same updates"
    )
    source: ClassVar[str] = "scikit-learn (sklearn.linear_model.Perceptron)"
    order_rules: ClassVar[tuple[str, ...]] = ("cyclic", "random")
    extra_properties: ClassVar[dict[str, str]] = {
        "EQ": "same updates and weights as the classic algorithm on (x, 1) in the same order",
        "FIT": "fit(shuffle=False, tol=None) returns the same weights as the cyclic trace",
    }
    max_epochs: ClassVar[int] = 200

    def cases(self) -> Any:
        return st.one_of(biased_cases(max_coord=4), sign_labelled_biased_cases()).filter(
            _two_classes
        )

    def examples(self) -> Sequence[Case]:
        F = Fraction
        X = ((F(4), F(2)), (F(3), F(3)))
        return [Case(X, (1, -1), (F(1), F(-1)), F(1), {"theta": F(-1), "c": F(1)}, "two-points")]

    def claim(self, case: Case) -> Claim:
        aug = augmented(case, Fraction(1))
        return Claim(C=aug.radius_squared, g=aug.gamma, uu=aug.uu)

    def run(self, case: Case, order: Order) -> Record:
        import numpy as np

        aug = augmented(case, Fraction(1))
        X = np.array([[float(v) for v in x] for x in case.X])
        y = np.array(case.y)
        clf = _perceptron(eta0=1.0, penalty=None, fit_intercept=True)
        rec = Record()
        w_hat: list[Fraction] = [Fraction(0)] * aug.d
        pu, nn = Fraction(0), Fraction(0)
        k, epochs, started = 0, 0, False
        while epochs < self.max_epochs:
            epochs += 1
            changed = False
            for j in _epoch(order, case.n, epochs - 1):
                t = case.y[j] * dot(w_hat, aug.X[j])
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    if started:
                        clf.partial_fit(X[j : j + 1], y[j : j + 1])
                    else:
                        clf.partial_fit(X[j : j + 1], y[j : j + 1], classes=np.array([-1, 1]))
                        started = True
                new = [*(_exact(v) for v in clf.coef_[0]), _exact(clf.intercept_[0])]
                if new != w_hat:
                    k += 1
                    changed = True
                    pu1, nn1 = Fraction(dot(aug.u, new)), Fraction(norm2(new))
                    w_hat = new
                    stop = rec.add(Measure(k, j, t, pu, pu1, nn, nn1))
                    pu, nn = pu1, nn1
                    if stop:
                        break
            if not changed or rec.truncated:
                break
        rec.output.update(w=tuple(w_hat[:-1]), b=w_hat[-1], epochs=epochs)
        margins = [yi * dot(w_hat, x) for x, yi in zip(aug.X, aug.y, strict=True)]
        rec.end.update(m=min(margins), j=margins.index(min(margins)))
        ref = Classic().run(aug, order)
        if ref.choices != rec.choices:
            rec.checks["EQ"] = (
                f"updates {[j + 1 for j in rec.choices]} != classic {[j + 1 for j in ref.choices]}"
            )
        elif tuple(ref.output["w"]) != tuple(w_hat):
            rec.checks["EQ"] = f"weights {w_hat} != classic {ref.output['w']}"
        else:
            rec.checks["EQ"] = None
        if order.rule == "cyclic" and not rec.truncated:
            fit = _perceptron(eta0=1.0, penalty=None, shuffle=False, tol=None, max_iter=epochs + 1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fit.fit(X, y)
            got = [*(_exact(v) for v in fit.coef_[0]), _exact(fit.intercept_[0])]
            rec.checks["FIT"] = None if got == w_hat else f"fit() weights {got} != traced {w_hat}"
        return rec


class SklearnDefault(Variant):
    """``Perceptron()`` with every default, claiming that it separates separable
    training data (it does not: its stopping rule can end training first)."""

    name: ClassVar[str] = "sklearn-default"
    summary: ClassVar[str] = (
        "scikit-learn Perceptron() with defaults (tol=1e-3, n_iter_no_change=5): final separation"
    )
    source: ClassVar[str] = "scikit-learn (sklearn.linear_model.Perceptron)"
    order_rules: ClassVar[tuple[str, ...]] = ("cyclic",)

    def cases(self) -> Any:
        return st.one_of(biased_cases(max_coord=4), sign_labelled_biased_cases()).filter(
            _two_classes
        )

    def claim(self, case: Case) -> Claim:
        return Claim(end="SEP")

    def run(self, case: Case, order: Order) -> Record:
        import numpy as np

        X = np.array([[float(v) for v in x] for x in case.X])
        y = np.array(case.y)
        clf = _perceptron()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clf.fit(X, y)
        w = [_exact(v) for v in clf.coef_[0]]
        b = _exact(clf.intercept_[0])
        margins = [yi * (dot(w, x) + b) for x, yi in zip(case.X, case.y, strict=True)]
        rec = Record()
        rec.end.update(m=min(margins), j=margins.index(min(margins)))
        rec.output.update(w=tuple(w), b=b, n_iter=int(clf.n_iter_), max_iter=int(clf.max_iter))
        return rec
