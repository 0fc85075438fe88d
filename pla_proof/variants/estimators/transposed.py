"""Points as columns: code written for a ``d x n`` matrix.

Linear-algebra course code often holds the points as the *columns* of its matrix
(``d = X.shape[0]``, ``X[:, i]`` the i-th point).  Given the check's ``n x d`` rows it
raises, or runs on the wrong shape and returns a vector of ``n`` numbers that is not its
weights.  So the check tells by behaviour (:func:`~.estimator.resolve_factory`): where a
training function does not learn the separable probes from rows and learns more of them
given ``X.T``, it is given the transposed matrix (:class:`Transposed`), and the reading
line says so.

>>> import numpy as np
>>> def columns(X, y):
...     return X.shape
>>> Transposed(columns)(np.zeros((5, 2)), np.ones(5))
(2, 5)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .given import Wrapper

__all__ = ["Transposed"]


class Transposed(Wrapper):
    """The user's training function given its points as the columns of one matrix."""

    def __init__(self, function: Callable[..., Any]) -> None:
        super().__init__(function)
        self.function = function

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.function)

    def describe(self) -> str:
        return "its points given as the columns of one matrix (d x n), found by its behaviour"

    def __call__(self, X: Any, y: Any, *args: Any, **kw: Any) -> Any:
        return self.function(np.asarray(X).T.copy(), y, *args, **kw)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Transposed, (self.function,))

    def __repr__(self) -> str:
        return f"{getattr(self.function, '__qualname__', self.function)} ({self.describe()})"
