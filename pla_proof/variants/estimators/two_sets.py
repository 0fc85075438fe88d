"""The two classes as two sets of points: ``perceptron(positives, negatives)``.

Some course code takes no labels at all: the points of one class in one array, those of
the other in another.  The check's ``(X, y)`` then reaches it as two arrays of different
meaning (the labels taken for a second set of points), and it raises or learns nothing.
So the check tells by behaviour (:func:`~.estimator.resolve_factory`): where a training
function of two required parameters does not learn the separable probes from ``(X, y)``
and learns more of them given the two classes' points -- the positive class first, or
the negative one -- it is called so (:class:`TwoSets`), and the reading line says which.

>>> import numpy as np
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

__all__ = ["TwoSets"]


class TwoSets(Wrapper):
    """The user's training function given the points of each class as its first two
    arguments (``positive_first``: the class of the larger label first)."""

    def __init__(self, function: Callable[..., Any], positive_first: bool) -> None:
        super().__init__(function)
        self.function, self.positive_first = function, positive_first

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.function)

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

    def __repr__(self) -> str:
        return f"{getattr(self.function, '__qualname__', self.function)} ({self.describe()})"
