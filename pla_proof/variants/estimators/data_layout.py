"""A training function of one argument, the data: ``perceptron(data)``.

Course code often takes the training set as one object: a matrix whose last column is
the label (``x_1, ..., x_p, y``, as read from a CSV file) or a list of ``(x, y)``
pairs.  Asking the user for ``--param data=...`` cannot be answered (the data are the
check's), so the layout is found by behaviour (:func:`layout_of`): given the separable
probe in each layout, the one in which it runs and returns weights the check can read
(one number per coordinate, or one more) -- those that classify the probe first -- is
taken, and :class:`DataLayout` is the function ``(X, y) -> perceptron(data)``.

>>> import numpy as np
>>> def count(data):
...     return data.shape
>>> DataLayout(count, "columns")(np.zeros((4, 2)), np.ones(4))
(4, 3)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .given import Wrapper

__all__ = ["LAYOUTS", "DataLayout"]

#: The layouts tried, in this order, with the words that say them.
LAYOUTS = {
    "columns": "one matrix, the label its last column",
    "pairs": "a list of (x, y) pairs",
}


class DataLayout(Wrapper):
    """``function(data)`` as the training function ``(X, y, **its defaults)``, the data
    laid out as ``layout`` (one of :data:`LAYOUTS`)."""

    def __init__(self, function: Callable[..., Any], layout: str) -> None:
        super().__init__(function)
        self.function, self.layout = function, layout

    @property
    def __signature__(self) -> inspect.Signature:
        params = list(inspect.signature(self.function).parameters.values())[1:]
        data = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in "Xy"]
        return inspect.Signature(
            [*data, *(p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in params)]
        )

    def describe(self) -> str:
        return f"its data given as {LAYOUTS[self.layout]}, found by its behaviour"

    def __call__(self, X: Any, y: Any, **kw: Any) -> Any:
        X, y = np.asarray(X), np.asarray(y)
        if self.layout == "columns":
            data: Any = np.column_stack([X, y.reshape(len(y), -1)[:, 0]])
        else:
            data = list(zip(X, y.tolist(), strict=True))
        return self.function(data, **kw)

    def __reduce__(self) -> tuple[Any, ...]:
        return (DataLayout, (self.function, self.layout))

    def __repr__(self) -> str:
        return f"{getattr(self.function, '__qualname__', self.function)} ({self.describe()})"
