"""scikit-learn's ``Perceptron`` as a real client of the harness, on the ``fit(X, y)``
adapter (:mod:`.estimators`; needs the ``sklearn`` extra).

``sklearn-perceptron`` traces ``Perceptron(eta0=1, penalty=None, tol=None)`` row by row
with ``partial_fit`` (cyclic passes or a random permutation per pass): every change of
``coef_``/``intercept_`` is one update, measured exactly; the claim is the classic one on
``(x, 1)`` -- ``(R^2 + 1, gamma)`` -- with the bound from the actual start, strict
separation of the fitted model, its own ``predict`` and its stopping rule.  sklearn's
trigger is its ``Hinge(threshold=0)`` gradient, ``y p <= 0``: a point at margin exactly 0
*is* updated, like the textbook algorithm.

``sklearn-default`` fits ``Perceptron()`` with every default (``tol=1e-3``,
``n_iter_no_change=5``) and claims that the fitted model separates separable training
data.  It does not: the stopping rule looks at the epoch's average hinge loss and can
end training with errors left, without a warning (``SEP``, ``PREDICT``, ``STOP`` fail).
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from ...errors import InputError
from ..estimators.estimator import Estimator

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


class SklearnPerceptron(Estimator):
    """``sklearn.linear_model.Perceptron`` traced row by row with ``partial_fit``."""

    summary: ClassVar[str] = (  # type: ignore[misc]
        "scikit-learn Perceptron traced by partial_fit: classic on (x, 1), fit() separates"
    )
    source: ClassVar[str] = "scikit-learn (sklearn.linear_model.Perceptron)"

    def __init__(self) -> None:
        _perceptron()
        super().__init__(
            # a partial, not a lambda: the variant pickles (clean workers get it so)
            functools.partial(_perceptron, eta0=1.0, penalty=None, tol=None, max_iter=1000),
            name="sklearn-perceptron",
            labels="pm1",
            rate=1,
            trace="partial_fit",
        )
        self.summary = type(self).summary  # type: ignore[misc]


class SklearnDefault(Estimator):
    """``Perceptron()`` with every default, claiming that it separates separable
    training data (it does not: its stopping rule can end training first)."""

    summary: ClassVar[str] = (  # type: ignore[misc]
        "scikit-learn Perceptron() with defaults (tol=1e-3, n_iter_no_change=5): final separation"
    )
    source: ClassVar[str] = "scikit-learn (sklearn.linear_model.Perceptron)"
    order_rules: ClassVar[tuple[str, ...]] = ("cyclic",)

    def __init__(self) -> None:
        _perceptron()
        super().__init__(_perceptron, name="sklearn-default", labels="pm1", trace=None)
        self.summary = type(self).summary  # type: ignore[misc]
