"""Two more shapes of a training function's data, tried where from ``(X, y)`` it learns
none of the separable probes (:func:`~.estimator.resolve_factory`): the one in which it
learns the most is taken, and the reading line says so.

* **Points as columns** (:class:`Transposed`): linear-algebra course code holds the
  points as the columns of its matrix (``d = X.shape[0]``, ``X[:, i]`` the i-th point).
  Given rows it raises, or returns a vector of ``n`` numbers that is not its weights.
* **Two sets of points** (:class:`TwoSets`): code that takes no labels, the points of
  one class in one array and those of the other in another -- the positive class
  first, or the negative one.

>>> import numpy as np
>>> def shape(X, y):
...     return X.shape
>>> Transposed(shape)(np.zeros((5, 2)), np.ones(5))
(2, 5)
>>> def sizes(pos, neg):
...     return len(pos), len(neg)
>>> TwoSets(sizes, positive_first=True)(np.zeros((5, 2)), np.array([1, 1, -1, 1, -1]))
(3, 2)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .given import Wrapper

__all__ = ["Transposed", "TwoSets"]


class _Shaped(Wrapper):
    """The user's training function, its data given in another shape."""

    def __init__(self, function: Callable[..., Any]) -> None:
        super().__init__(function)
        self.function = function

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.function)

    def describe(self) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{getattr(self.function, '__qualname__', self.function)} ({self.describe()})"


class Transposed(_Shaped):
    """The user's training function given its points as the columns of one matrix."""

    def describe(self) -> str:
        return "its points given as the columns of one matrix (d x n), found by its behaviour"

    def __call__(self, X: Any, y: Any, *args: Any, **kw: Any) -> Any:
        return self.function(np.asarray(X).T.copy(), y, *args, **kw)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Transposed, (self.function,))


class TwoSets(_Shaped):
    """The user's training function given the points of each class as its first two
    arguments (``positive_first``: the class of the label +1 first)."""

    def __init__(self, function: Callable[..., Any], positive_first: bool) -> None:
        super().__init__(function)
        self.positive_first = positive_first

    def describe(self) -> str:
        first, second = ("positive", "negative")[:: 1 if self.positive_first else -1]
        return (
            f"its two classes given as two sets of points, the {first} one first and the "
            f"{second} one second, found by its behaviour"
        )

    def __call__(self, X: Any, y: Any, *args: Any, **kw: Any) -> Any:
        X, y = np.asarray(X), np.asarray(y)
        up = y > 0  # (+1 in -1/+1 and in 0/1: a set may be empty)
        pos, neg = X[up].copy(), X[~up].copy()
        first, second = (pos, neg) if self.positive_first else (neg, pos)
        return self.function(first, second, *args, **kw)

    def __reduce__(self) -> tuple[Any, ...]:
        return (TwoSets, (self.function, self.positive_first))
