"""A class with no ``fit`` or no ``predict``: its training and prediction methods,
found by their behaviour.

Course code and books name them otherwise -- ``train(X, y)``, ``learn(X, y)``,
``classify(X)``, ``predict_label(X)`` ...  Such a class is still a Perceptron to check.
Its training method is the public method that takes the points and their labels
(:func:`training_methods`); its prediction method, after a fit on a separable probe, the
public method that takes the points alone and answers one label per point
(:func:`candidate_methods` lists those it is asked; the caller chooses by the answers).
:class:`WithMethods` is the class (or factory) whose objects answer ``fit`` and
``predict`` with those methods; it is pickled by reference to the user's object, so
worker processes get the same thing.

>>> class Book:
...     def train(self, X, y):
...         self.w = [1.0]
...     def classify(self, X):
...         return [1 if x[0] > 0 else -1 for x in X]
>>> training_methods(Book())
['train']
>>> P = WithMethods(Book, {"fit": "train", "predict": "classify"})
>>> est = P()
>>> est.fit([[1.0]], [1]); est.predict([[2.0], [-1.0]])
[1, -1]
>>> P
Book answering fit() with train(), predict() with classify()
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from .given import Wrapper

__all__ = ["WithMethods", "candidate_methods", "training_methods"]

#: Methods that never answer a prediction, nor train (scikit-learn's and the fit family).
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


def _public(est: Any) -> list[tuple[str, Callable[..., Any]]]:
    """The public methods of ``est``, in its classes' order of definition."""
    out: list[tuple[str, Callable[..., Any]]] = []
    seen: set[str] = set()
    for klass in type(est).__mro__:
        if klass is object:
            continue
        for name in vars(klass):
            if name.startswith("_") or name in _NOT or name in seen:
                continue
            seen.add(name)
            method = getattr(est, name, None)
            if callable(method):
                out.append((name, method))
    return out


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
    return [name for name, method in _public(est) if _takes(method, 1)]


def training_methods(est: Any) -> list[str]:
    """The public methods of ``est`` that take the points and their labels (two
    required positional arguments, any others with defaults), but ``predict``.

    >>> class C:
    ...     def learn(self, X, y, epochs=10): pass
    ...     def plot(self, X, y, ax): pass
    ...     def predict(self, X): pass
    >>> training_methods(C())
    ['learn']
    """
    return [
        name for name, method in _public(est) if name != "predict" and _takes(method, 2, exact=True)
    ]


def _takes(method: Callable[..., Any], n: int, exact: bool = False) -> bool:
    """Whether ``method`` can be called with ``n`` positional arguments (with ``exact``:
    it needs all ``n``, no more)."""
    try:
        sig = inspect.signature(method)
    except (TypeError, ValueError):
        return False
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    positional = [p for p in sig.parameters.values() if p.kind in kinds]
    required = [p for p in positional if p.default is p.empty]
    keyword_only = [
        p
        for p in sig.parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is p.empty
    ]
    var = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in sig.parameters.values())
    if keyword_only:
        return False
    if exact:
        return len(required) == n
    return len(required) <= n and (len(positional) >= n or var)


class WithMethods(Wrapper):
    """``factory`` (the user's class or factory) whose objects answer ``fit`` and/or
    ``predict`` with their methods named in ``methods`` (``{"fit": "train"}``); every
    dunder the check asks of it is the factory's."""

    def __init__(self, factory: Callable[..., Any], methods: Mapping[str, str]) -> None:
        super().__init__(factory)
        self.factory, self.methods = factory, dict(methods)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.factory)

    def _answers(self, name: str) -> bool:
        return name.startswith("__")

    def __call__(self, *args: Any, **kw: Any) -> Any:
        est = self.factory(*args, **kw)
        for role, name in self.methods.items():
            setattr(est, role, getattr(est, name))
        return est

    def __reduce__(self) -> tuple[Any, ...]:
        return (WithMethods, (self.factory, self.methods))

    def __repr__(self) -> str:
        name = getattr(self.factory, "__qualname__", self.factory)
        said = ", ".join(f"{role}() with {m}()" for role, m in self.methods.items())
        return f"{name} answering {said}"
