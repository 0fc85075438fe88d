"""A class with no ``predict``: its prediction method, found by its behaviour.

Older course code and books name the method that answers labels otherwise --
``classify(X)``, ``predict_label(X)``, ``sign(X)`` ...  Such a class is still a
Perceptron to check: after a fit on a separable probe, each public method that takes
the points alone is asked for their labels; the one whose answers are one label per
point, in -1/+1 or in 0/1, is its ``predict`` (:func:`labelling_methods` lists them, the
caller chooses).  :class:`Predicting` is the class (or factory) whose objects answer
``predict(X)`` with that method; it is pickled by reference to the user's object, so
worker processes get the same thing.

>>> class Book:
...     def fit(self, X, y):
...         self.w = [1.0]
...     def classify(self, X):
...         return [1 if x[0] > 0 else -1 for x in X]
>>> P = Predicting(Book, "classify")
>>> est = P()
>>> est.fit([[1.0]], [1]); est.predict([[2.0], [-1.0]])
[1, -1]
>>> P
Book answering predict() with classify()
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

__all__ = ["Predicting", "candidate_methods"]

#: Methods that never answer a prediction (scikit-learn's and the fit family).
_NOT = frozenset(
    {
        "fit",
        "partial_fit",
        "fit_predict",
        "score",
        "get_params",
        "set_params",
        "decision_function",
        "predict_proba",
        "predict_log_proba",
        "transform",
        "fit_transform",
    }
)


def candidate_methods(est: Any) -> list[str]:
    """The public methods of ``est`` that can be called with the points alone (one
    positional argument), in their class's order of definition.

    >>> class C:
    ...     def fit(self, X, y): pass
    ...     def classify(self, X): pass
    ...     def step(self, z, t=0): pass
    ...     def plot(self, X, y): pass
    ...     def _private(self, X): pass
    >>> candidate_methods(C())
    ['classify', 'step']
    """
    names: list[str] = []
    for klass in type(est).__mro__:
        if klass is object:
            continue
        for name in vars(klass):
            if name.startswith("_") or name in _NOT or name in names:
                continue
            method = getattr(est, name, None)
            if callable(method) and _takes_one(method):
                names.append(name)
    return names


def _takes_one(method: Callable[..., Any]) -> bool:
    try:
        sig = inspect.signature(method)
    except (TypeError, ValueError):
        return False
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    positional = [p for p in sig.parameters.values() if p.kind in kinds]
    required = [p for p in positional if p.default is p.empty]
    var = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in sig.parameters.values())
    return len(required) <= 1 and (len(positional) >= 1 or var)


class Predicting:
    """``factory`` (the user's class or factory) whose objects answer ``predict(X)``
    with their method ``method``."""

    def __init__(self, factory: Callable[..., Any], method: str) -> None:
        self.factory, self.method = factory, method
        self.__wrapped__ = factory
        for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
            setattr(self, attr, getattr(factory, attr, None))

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.factory)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and "factory" in self.__dict__:
            return getattr(self.factory, name)
        raise AttributeError(name)

    def __call__(self, *args: Any, **kw: Any) -> Any:
        est = self.factory(*args, **kw)
        est.predict = getattr(est, self.method)
        return est

    def __reduce__(self) -> tuple[Any, ...]:
        return (Predicting, (self.factory, self.method))

    def __repr__(self) -> str:
        name = getattr(self.factory, "__qualname__", self.factory)
        return f"{name} answering predict() with {self.method}()"
