"""What a trainer returns, where the class has no other way to predict: a class with no
method that predicts, whose trainer returns what it learned; and a ``predict(X, model)``
given what ``fit`` returned (:class:`PredictsWithReturned`).

Course code written from a book often has ``train()`` end with ``return self.w,
self.b`` and no ``predict`` at all: the caller draws the line with the returned
weights.  Such a class is a training function in all but its spelling, so it is read as
one (:mod:`.functions`): :class:`ReturnedWeights` is the function ``(X, y) -> what the
trainer returns`` -- the object made by the factory the check already has for it (its
constructor's parameters with defaults are the function's keywords, so a budget among
them is found and set as any other), fitted on ``X, y`` -- and its points are classified
by the returned weights, whose reading is verified on the separable probes as any
training function's.

>>> import numpy as np
>>> class Book:
...     def __init__(self, epochs=50):
...         self.epochs = epochs
...     def train(self, X, y):
...         w, b = np.zeros(X.shape[1]), 0.0
...         for _ in range(self.epochs):
...             for x, t in zip(X, y):
...                 if t * (x @ w + b) <= 0:
...                     w, b = w + t * x, b + t
...         return w, b
>>> from pla_proof.variants.estimators.methods import WithMethods
>>> f = ReturnedWeights(WithMethods(Book, {"fit": "train"}), "train", Book.train)
>>> import inspect
>>> str(inspect.signature(f))
'(X, y, *, epochs=50)'
>>> w, b = f(np.array([[2.0], [-2.0]]), np.array([1, -1]))
>>> w.tolist(), float(b)
([2.0], 1.0)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .given import Wrapper, all_given
from .made_with_data import trained

__all__ = ["PredictsWithReturned", "ReturnedWeights", "kept_after"]


class ReturnedWeights(Wrapper):
    """``factory``'s objects as the training function ``(X, y, **defaults) -> what its
    trainer returns`` (see the module); ``trainer``: its name, ``code``: the user's
    function (its name, code and globals are what a reading looks at).  ``kept``: where
    the trainer returns nothing, the attributes it leaves what it learned in (found by
    :func:`kept_after`), returned in their place."""

    def __init__(
        self,
        factory: Callable[..., Any],
        trainer: str,
        code: Callable[..., Any],
        kept: tuple[str, ...] = (),
    ) -> None:
        super().__init__(code)
        self.factory, self.trainer, self.code, self.kept = factory, trainer, code, kept

    @property
    def __signature__(self) -> inspect.Signature:
        """``(X, y, *, ...)``: the factory's parameters with defaults, keyword-only."""
        try:
            made = list(inspect.signature(self.factory).parameters.values())
        except (TypeError, ValueError):
            made = []
        kw = [
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
            for p in made
            if p.default is not p.empty and p.name not in ("X", "y")
        ]
        data = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in ("X", "y")]
        return inspect.Signature([*data, *kw])

    def given_here(self) -> dict[str, Any]:
        return all_given(self.factory)

    def describe(self) -> str:
        made = getattr(self.factory, "describe", None)
        how = f"; {made()}" if callable(made) else ""
        if self.kept:
            return (
                f"no method predicts: {self.trainer}() keeps what it learned in "
                f"{', '.join(self.kept)}, read as a training function returning "
                f"{'them' if len(self.kept) > 1 else 'it'}{how}"
            )
        return (
            f"no method predicts: {self.trainer}() returns what it learned, read as a "
            f"training function{how}"
        )

    def __call__(self, X: Any, y: Any, **kw: Any) -> Any:
        est = self.factory(**kw)
        out = trained(est, X, y)
        if not self.kept:
            return out
        values = tuple(getattr(est, n) for n in self.kept)
        return values if len(values) > 1 else values[0]

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReturnedWeights, (self.factory, self.trainer, self.code, self.kept))

    def __repr__(self) -> str:
        return f"{getattr(self.code, '__qualname__', self.trainer)} {self.describe()}"


def kept_after(fresh: dict[str, Any], fitted: Any, d: int) -> tuple[str, ...]:
    """The attributes a fit made or changed (``fresh``: a copy of the attributes before
    it) that hold ``d``, ``d + 1`` or one number: where a trainer that returns nothing
    leaves what it learned, in their order on the object.

    >>> import numpy as np
    >>> class Fitted:
    ...     def __init__(self):
    ...         self.rate, self.epochs = 0.1, 10
    >>> est = Fitted()
    >>> before = dict(vars(est))
    >>> est.weights, est.bias, est.history = np.ones(2), 0.5, [1, 2, 3, 4, 5]
    >>> kept_after(before, est, 2)
    ('weights', 'bias')
    """
    out = []
    for name, value in vars(fitted).items():
        try:
            arr = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            continue
        if isinstance(value, bool | str) or arr.size not in (1, d, d + 1):
            continue
        if name in fresh:
            try:
                if np.array_equal(np.asarray(fresh[name], dtype=np.float64), arr):
                    continue
            except (TypeError, ValueError):
                pass
        out.append(name)
    return tuple(out)


class PredictsWithReturned(Wrapper):
    """``factory``'s objects whose ``predict(X, model)`` is given what ``fit`` returned
    (``model = p.fit(X, y); p.predict(X, model)``): ``fit`` keeps it on the object as
    ``fit_returned`` -- where a reading finds the weights in it -- and ``predict(X)``
    passes it on.  Chosen by behaviour only (:func:`predicts_with_returned`).

    >>> import numpy as np
    >>> class Model:
    ...     def fit(self, X, y):
    ...         return np.array([0.0, 1.0])  # (b, w)
    ...     def predict(self, X, model):
    ...         return np.where(model[0] + np.asarray(X)[:, 0] * model[1] > 0, 1, -1)
    >>> est = PredictsWithReturned(Model)()
    >>> est.fit(np.array([[1.0]]), np.array([1])).predict(np.array([[2.0], [-2.0]])).tolist()
    [1, -1]
    >>> est.fit_returned.tolist()
    [0.0, 1.0]
    """

    def __init__(self, factory: Callable[..., Any]) -> None:
        super().__init__(factory)
        self.factory = factory

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.factory)

    def _answers(self, name: str) -> bool:
        return name.startswith("__")

    def describe(self) -> str:
        return "predict(X, model) given what fit() returned, found by its behaviour"

    def __call__(self, *args: Any, **kw: Any) -> Any:
        est = self.factory(*args, **kw)
        est.fit, est.predict = _Keeping(est, est.fit), _Passing(est, est.predict)
        return est

    def __reduce__(self) -> tuple[Any, ...]:
        return (PredictsWithReturned, (self.factory,))

    def __repr__(self) -> str:
        return f"{getattr(self.factory, '__qualname__', self.factory)} {self.describe()}"


class _Keeping:
    """``fit`` keeping what it returns on its ``owner`` (an object, not a closure: a deep
    copy of the owner calls its own copy)."""

    def __init__(self, owner: Any, fit: Callable[..., Any]) -> None:
        self.owner, self.fit = owner, fit

    def __call__(self, X: Any, y: Any, *more: Any, **given: Any) -> Any:
        self.owner.fit_returned = self.fit(X, y, *more, **given)
        return self.owner


class _Passing:
    """``predict(X)`` passing on what ``fit`` returned (see :class:`_Keeping`)."""

    def __init__(self, owner: Any, predict: Callable[..., Any]) -> None:
        self.owner, self.predict = owner, predict

    def __call__(self, X: Any) -> Any:
        return self.predict(X, self.owner.__dict__.get("fit_returned"))
