"""A class made with its training data: ``Perceptron(X, y)``, then ``train()``.

Course code often takes the data in the constructor and trains with a method of no
arguments (``p = Perceptron(X, y); p.train()``, ``model = PLA(samples, labels);
model.fit(eta=1)``).  Asking the user for ``--param X=...`` cannot be answered: the data
are the check's.  Such a class is read by its behaviour -- made with the probe's points
and labels for its first two required parameters, it constructs, and exactly one public
method needs nothing more (the ``--param`` values given aside) -- and checked as
``fit(X, y)``: :func:`made_with_data` is a factory whose objects are the user's class (a
subclass that changes nothing but this), made empty and made again with the data when
``fit`` is called -- what was set on the object in between (an epoch budget) is set
again -- then trained by that method.  A trainer that needs a value (``fit(eta)``) is
given it by ``--param eta=1``; constructor parameters that must equal the data's sizes
(``Perceptron(X, y, n, d)``, checked by an ``assert`` or used to size arrays) are found
by behaviour and given each data set's own (:func:`sizes_of`).

>>> import numpy as np
>>> class PLA:
...     def __init__(self, X, y, epochs=100):
...         self.X, self.y, self.epochs = X, y, epochs
...         self.w = np.zeros(X.shape[1] + 1)
...     def train(self):
...         for _ in range(self.epochs):
...             for x, t in zip(self.X, self.y):
...                 if t * (self.w[0] + x @ self.w[1:]) <= 0:
...                     self.w = self.w + t * np.append(1.0, x)
...     def predict(self, X):
...         return np.where(self.w[0] + X @ self.w[1:] > 0, 1, -1)
>>> make = made_with_data(PLA, ("X", "y"), "train")
>>> est = make()
>>> est.epochs = 5
>>> est.fit(np.array([[2.0], [-2.0]]), np.array([1, -1])).predict(np.array([[3.0]]))
array([1])
>>> est.epochs, isinstance(est, PLA)
(5, True)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from .given import Wrapper, wrappers

__all__ = [
    "SIZES",
    "data_said",
    "data_trainer",
    "made_with_data",
    "sizes_of",
    "trained",
]

_STATE = "_pla_proof_made_with_data_"
#: The subclasses made, by (class, data names, trainer, repr of what it is given): one each.
_MADE: dict[tuple[type, tuple[str, ...], str, str], type] = {}
#: Methods that never train (a prediction, scikit-learn's API)
_NOT = frozenset({"predict", "score", "get_params", "set_params", "decision_function"})
#: The data's sizes a constructor may ask for besides the data: the number of points,
#: the dimension.
SIZES = ("points", "dimension")


def sizes_of(X: Any, which: Sequence[str]) -> list[int]:
    """The data's sizes named by ``which`` (from :data:`SIZES`), for points ``X``.

    >>> sizes_of([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], ("points", "dimension"))
    [2, 3]
    """
    return [len(X) if w == "points" else len(X[0]) for w in which]


def trained(est: Any, X: Any, y: Any) -> Any:
    """What ``est``'s training returns when fitted on ``X, y``: its trainer's value for
    an object made by :func:`made_with_data` (its ``fit`` returns the object), else
    ``fit``'s."""
    train = getattr(est, "__pla_proof_train__", None)
    return train(X, y) if train is not None else est.fit(X, y)


def data_trainer(cls: type, given: Collection[str] = ()) -> list[str]:
    """The public methods of ``cls`` that need no argument beyond ``given`` (the
    ``--param`` names) -- its candidate trainers once made with the data."""
    out = []
    for klass in cls.__mro__:
        if klass is object:
            continue
        for name, member in vars(klass).items():
            if name.startswith("_") or name in _NOT or not inspect.isfunction(member):
                continue
            try:
                params = list(inspect.signature(member).parameters.values())[1:]
            except (TypeError, ValueError):
                continue
            varying = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
            need = [p.name for p in params if p.default is p.empty and p.kind not in varying]
            if set(need) <= set(given) and name not in out:
                out.append(name)
    return out


def data_said(factory: Any) -> str:
    """What a factory made by :func:`made_with_data` (under the check's other wrappers)
    does, in words; '' for any other."""
    return next((w.describe() for w in wrappers(factory) if isinstance(w, _Factory)), "")


def made_with_data(
    cls: type,
    names: Sequence[str],
    trainer: str,
    train_given: Mapping[str, Any] | None = None,
    sized: Mapping[str, str] | None = None,
) -> Callable[..., Any]:
    """A factory of ``cls`` objects that take their data with ``fit(X, y)`` (see the
    module): ``names`` the constructor's data parameters, ``trainer`` the method that
    trains, called with ``train_given``; ``sized``: constructor parameters given the
    data's sizes (``{"n": "points", "d": "dimension"}``)."""
    return _Factory(
        cls,
        tuple(names),
        trainer,
        tuple(sorted((train_given or {}).items())),
        tuple((sized or {}).items()),
    )


class _Factory(Wrapper):
    def __init__(
        self,
        cls: type,
        names: tuple[str, ...],
        trainer: str,
        train_given: tuple[tuple[str, Any], ...] = (),
        sized: tuple[tuple[str, str], ...] = (),
    ) -> None:
        super().__init__(cls)
        self.cls, self.names, self.trainer, self.train_given = cls, names, trainer, train_given
        self.sized = sized

    @property
    def __signature__(self) -> inspect.Signature:
        sig = inspect.signature(self.cls)
        return sig.replace(
            parameters=[
                p
                for p in sig.parameters.values()
                if p.name not in self.names and p.name not in dict(self.sized)
            ]
        )

    def given_here(self) -> dict[str, Any]:
        return dict(self.train_given)

    def describe(self) -> str:
        data = ", ".join(self.names)
        sizes = "".join(
            f", {name} = the number of {'points' if w == 'points' else 'coordinates'}"
            for name, w in self.sized
        )
        return (
            f"made with its training data ({data}{sizes}), then trained by {self.trainer}(), "
            "found by its behaviour"
        )

    def __call__(self, *args: Any, **kw: Any) -> Any:
        key = (self.cls, self.names, self.trainer, repr((self.train_given, self.sized)))
        if key not in _MADE:
            _MADE[key] = _subclass(
                self.cls, self.names, self.trainer, dict(self.train_given), dict(self.sized)
            )
        return _MADE[key](*args, **kw)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Factory, (self.cls, self.names, self.trainer, self.train_given, self.sized))

    def __repr__(self) -> str:
        return f"{self.cls.__qualname__} {self.describe()}"


def _subclass(
    cls: type, names: tuple[str, ...], trainer: str, given: dict[str, Any], sized: dict[str, str]
) -> type:
    def __init__(self: Any, *args: Any, **kw: Any) -> None:
        object.__setattr__(self, _STATE, (args, kw))

    def train(self: Any, X: Any, y: Any) -> Any:
        args, kw = getattr(self, _STATE)
        outside = {k: v for k, v in vars(self).items() if k != _STATE}
        for k in outside:
            delattr(self, k)
        data = dict(zip(names, (X, y), strict=True))
        data.update(zip(sized, sizes_of(X, list(sized.values())), strict=True))
        cls.__init__(self, *args, **data, **kw)  # type: ignore[misc]
        for k, v in outside.items():  # set from outside (a budget): set again
            setattr(self, k, v)
        return getattr(cls, trainer)(self, **given)  # (the user's, when it is named fit)

    def fit(self: Any, X: Any, y: Any) -> Any:
        train(self, X, y)
        return self

    body = {
        "__init__": __init__,
        "fit": fit,
        "__pla_proof_train__": train,
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__doc__": cls.__doc__,
        "dimension_names": (),  # (marks pla_proof's own subclass: its methods are not the user's)
    }
    return type(cls.__name__, (cls,), body)
