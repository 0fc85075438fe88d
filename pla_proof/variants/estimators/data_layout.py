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

__all__ = ["LAYOUTS", "DataAt", "DataLayout"]

#: The layouts tried, in this order, with the words that say them.
LAYOUTS = {
    "columns": "one matrix, the label its last column",
    "pairs": "a list of (x, y) pairs",
}


class DataLayout(Wrapper):
    """``function(data)`` as the training function ``(X, y, **its defaults)``, the data
    laid out as ``layout`` (one of :data:`LAYOUTS`) -- its first parameter, or the one
    called ``name`` (given by keyword: ``pla(eta, dataset)``).

    >>> def pla(eta, dataset, limit=5):
    ...     return eta, len(dataset), limit
    >>> f = DataLayout(pla, "pairs", "dataset")
    >>> str(inspect.signature(f)), f(np.zeros((3, 2)), np.ones(3), eta=0.5)
    ('(X, y, *, eta, limit=5)', (0.5, 3, 5))
    """

    def __init__(self, function: Callable[..., Any], layout: str, name: str | None = None) -> None:
        super().__init__(function)
        self.function, self.layout, self.name = function, layout, name

    @property
    def __signature__(self) -> inspect.Signature:
        params = list(inspect.signature(self.function).parameters.values())
        params = (
            params[1:]
            if self.name is None
            else [
                p
                for p in params
                if p.name != self.name
                and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
            ]
        )
        data = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in "Xy"]
        return inspect.Signature(
            [*data, *(p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in params)]
        )

    def describe(self) -> str:
        where = "" if self.name is None else f" (its parameter {self.name})"
        return f"its data given as {LAYOUTS[self.layout]}{where}, found by its behaviour"

    def __call__(self, X: Any, y: Any, **kw: Any) -> Any:
        X, y = np.asarray(X), np.asarray(y)
        if self.layout == "columns":
            data: Any = np.column_stack([X, y.reshape(len(y), -1)[:, 0]])
        else:
            data = list(zip(X, y.tolist(), strict=True))
        if self.name is not None:
            return self.function(**{self.name: data}, **kw)
        return self.function(data, **kw)

    def __reduce__(self) -> tuple[Any, ...]:
        return (DataLayout, (self.function, self.layout, self.name))

    def __repr__(self) -> str:
        return f"{getattr(self.function, '__qualname__', self.function)} ({self.describe()})"


class DataAt(Wrapper):
    """``function`` whose points and labels are its parameters ``names`` (not its first
    two: ``Pocket(w0, X, y)``) as the training function ``(X, y, **the others)``,
    called by keyword.

    >>> def pocket(w0, X, y, T=10):
    ...     return w0, len(X), len(y), T
    >>> f = DataAt(pocket, ("X", "y"))
    >>> import inspect
    >>> str(inspect.signature(f)), f([[1], [2]], [1, -1], w0=0)
    ('(X, y, *, w0, T=10)', (0, 2, 2, 10))
    """

    def __init__(self, function: Callable[..., Any], names: tuple[str, str]) -> None:
        super().__init__(function)
        self.function, self.names = function, tuple(names)

    @property
    def __signature__(self) -> inspect.Signature:
        params = [
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
            for p in inspect.signature(self.function).parameters.values()
            if p.name not in self.names
            and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        ]
        data = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in "Xy"]
        return inspect.Signature([*data, *params])

    def describe(self) -> str:
        x, y = self.names
        return f"its points and labels its parameters {x}, {y}, found by its behaviour"

    def __call__(self, X: Any, y: Any, **kw: Any) -> Any:
        return self.function(**{self.names[0]: X, self.names[1]: y}, **kw)

    def __reduce__(self) -> tuple[Any, ...]:
        return (DataAt, (self.function, self.names))

    def __repr__(self) -> str:
        return f"{getattr(self.function, '__qualname__', self.function)} ({self.describe()})"
