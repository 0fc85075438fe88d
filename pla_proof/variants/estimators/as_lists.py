"""Code written for plain lists: each point a list, read by behaviour.

Pure-Python course code appends the bias input to a point with ``x + [1]`` or
``[1] + x``.  On a list that appends; on a NumPy row it *adds* 1 to every coordinate --
no error, a different algorithm (no bias at all), which then fails on data that need a
bias, or never ends.  Such code is not wrong: it was written for lists.  The check gives
NumPy arrays, so it tells by behaviour (:func:`lists_if_needed`): on the separable
probe, given arrays the code raises, does not return or gets its own training points
wrong, and given lists (``X.tolist()``, ``y.tolist()``) it learns them -- then it is
given lists (:class:`AsLists`), and the reading line says so.

>>> import numpy as np
>>> def perceptron(X, y):
...     rows = [[1] + list(x) if isinstance(x, list) else [1] + x for x in X]
...     return len(rows[0])
>>> AsLists(perceptron)(np.array([[2.0, 3.0]]), np.array([1]))
3
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .given import Wrapper

__all__ = ["AsLists", "as_list", "lists_said"]


def as_list(v: Any) -> Any:
    """A NumPy array as (nested) lists of Python numbers; anything else as it is."""
    return v.tolist() if isinstance(v, np.ndarray) else v


class AsLists(Wrapper):
    """The user's training function or class, given every array as lists: a function's
    ``X`` and ``y``; an object's ``fit(X, y)`` and ``predict(X)``."""

    def __init__(self, obj: Callable[..., Any]) -> None:
        super().__init__(obj)
        self.obj = obj

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.obj)

    def _answers(self, name: str) -> bool:
        return name.startswith("__") and name not in ("__call__", "__signature__")

    def describe(self) -> str:
        return (
            "its points given as lists (where x + [...] appends a coordinate), found by its "
            "behaviour"
        )

    def __call__(self, *args: Any, **kw: Any) -> Any:
        if not inspect.isclass(inspect.unwrap(self.obj)) and len(args) >= 2:
            return self.obj(as_list(args[0]), as_list(args[1]), *args[2:], **kw)
        est = self.obj(*args, **kw)
        predict = getattr(est, "predict", None)
        est.fit = _OnLists(est, est.fit, fits=True)
        if predict is not None:
            est.predict = _OnLists(est, predict, fits=False)
        return est

    def __reduce__(self) -> tuple[Any, ...]:
        return (AsLists, (self.obj,))

    def __repr__(self) -> str:
        return f"{getattr(self.obj, '__qualname__', self.obj)} ({self.describe()})"


class _OnLists:
    """``method`` of ``owner`` called with its arrays as lists (an object, not a closure:
    a deep copy of the owner -- a reading's zeroed twin -- calls its own copy)."""

    def __init__(self, owner: Any, method: Callable[..., Any], fits: bool) -> None:
        self.owner, self.method, self.fits = owner, method, fits

    def __call__(self, *args: Any, **kw: Any) -> Any:
        out = self.method(*(as_list(a) for a in args), **kw)
        return self.owner if self.fits and out is None else out


def lists_said(obj: Any) -> str:
    """What :class:`AsLists` does, when it wraps the user's object, in words."""
    from .given import wrappers

    return next((w.describe() for w in wrappers(obj) if isinstance(w, AsLists)), "")
