"""A predictor beside a training function: ``predict(X, w, b)`` in the same module.

Course code pairs ``train(X, y) -> (w, b)`` with a function that labels points by what
the trainer returned -- ``predict(X, w, b)``, ``perceptron_predict(X, weights)``,
``classify(weights, row)`` for one point.  Where a training function has one, the check
judges the pair as it judges a class's ``fit`` and ``predict``: ``PREDICT`` (it gives
every training label) and ``READ`` (it agrees with the returned weights), besides the
end claim on the weights.  A predictor that thresholds at the wrong place is a bug the
weights alone never show.

The module's own functions named for prediction (``predict``, ``classify``, in any
spelling) are the candidates; each is kept only by its behaviour on a probe fit: given
the points (all at once or one at a time) and what the trainer returned -- all its
items, the whole, or the weights (and bias) the reading reads from it, before or after
the points -- it answers one label per point, -1/+1 or 0/1.  Of those, the one that
answers the most training labels right is taken, and named in the reading line.

>>> import numpy as np, types
>>> module = types.ModuleType("course")
>>> exec('''
... import numpy as np
... def train(X, y):
...     w, b = np.zeros(X.shape[1]), 0.0
...     for _ in range(100):
...         for x, t in zip(X, y):
...             if t * (x @ w + b) <= 0:
...                 w, b = w + t * x, b + t
...     return w, b
... def predict(X, w, b):
...     return np.where(X @ w + b > 0, 1, -1)
... ''', module.__dict__)
>>> for f in vars(module).values():
...     if callable(f): f.__module__ = "course"
>>> import sys; sys.modules["course"] = module
>>> from pla_proof.variants.estimators.functions import TrainingFunction
>>> fitted = TrainingFunction(module.train).fit(np.array([[2.0], [-2.0]]), np.array([1, -1]))
>>> X, y = np.array([[2.0], [-2.0]]), np.array([1, -1])
>>> found = predictor_beside(module.train, fitted, X, y, "(w, b)")
>>> found.describe()
'predict(X, w, b) beside it'
>>> found.answer(fitted, np.array([[3.0], [-1.0]])).tolist()
[1, -1]
>>> del sys.modules["course"]
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .reading import answers_of, plain_number

__all__ = ["Beside", "predictor_beside"]

#: the spellings a predictor's name carries (found by name, kept by behaviour)
_NAMED = ("predict", "classif")
#: in a call's arguments: the points, and the whole returned value (else an item's index)
POINTS, WHOLE = -1, -2


@dataclass(frozen=True)
class Beside:
    """The predictor beside a training function: its module and name (found again where
    it runs, so the reading stays data), how it is called, and what it answers for the
    negative class (-1, or 0 in 0/1 coding)."""

    module: str
    name: str
    #: its arguments, in order: :data:`POINTS`, :data:`WHOLE` or a returned item's index
    args: tuple[int, ...]
    negative: int
    words: str
    #: the points given as lists (a trainer written for lists: :mod:`.as_lists`)
    lists: bool = False

    def describe(self) -> str:
        return f"{self.name}({self.words}) beside it"

    def function(self) -> Callable[..., Any]:
        found: Callable[..., Any] = getattr(sys.modules[self.module], self.name)
        return found

    def answer(self, fitted: Any, X: Any) -> Any:
        """The predictor's answers at ``X`` given what ``fitted`` returned (``fitted``: a
        fitted :class:`~.functions.TrainingFunction`)."""
        return _call(self.function(), self.args, fitted, X, self.lists)


def _call(
    function: Callable[..., Any], args: tuple[int, ...], fitted: Any, X: Any, lists: bool
) -> Any:
    items, whole = list(fitted.items_), fitted.returned
    points = np.asarray(X).tolist() if lists else X
    given = [points if a == POINTS else whole if a == WHOLE else items[a] for a in args]
    return function(*given)


def _calls(count: int, used: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The ways to give a predictor the points and what the trainer returned: every
    item, the whole, or the items the reading reads (``used``: the weights, and the
    bias where it is an item of its own) -- before or after the points."""
    out: list[tuple[int, ...]] = []
    for given in (tuple(range(count)), (WHOLE,), used, used[:1]):
        if not given or (given == (WHOLE,) and count == 1):
            continue  # (the whole is the one item)
        for args in ((POINTS, *given), (*given, POINTS)):
            if args not in out:
                out.append(args)
    return out


def _candidates(trainer: Callable[..., Any]) -> list[Callable[..., Any]]:
    """The trainer's module's own functions named for prediction, ``predict`` first."""
    inner = inspect.unwrap(trainer)
    module = sys.modules.get(getattr(inner, "__module__", "") or "")
    if module is None:
        return []
    out = []
    for name, value in vars(module).items():
        own = inspect.isfunction(value) and value.__module__ == module.__name__
        if own and value is not inner and any(s in name.lower() for s in _NAMED):
            out.append(value)
    return sorted(out, key=lambda f: (f.__name__ != "predict", f.__name__))


def _takes(function: Callable[..., Any], count: int) -> bool:
    try:
        sig = inspect.signature(function)
    except (TypeError, ValueError):
        return False
    params = list(sig.parameters.values())
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return True
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    return len(required) <= count <= len(positional)


def _words(args: tuple[int, ...], returns: str | None, count: int) -> str:
    """How the predictor is called, in words: ``X, w, b``, ``w, X``, ``X, model``."""
    names = [f"returned_{i}" for i in range(count)]
    if returns and returns.startswith("(") and returns.endswith(")"):
        read = [s.strip() for s in returns[1:-1].split(",")]
        if len(read) == count:
            names = [n if n != "_" else f"returned_{i}" for i, n in enumerate(read)]
    elif count == 1:
        names = ["w"]
    said = ["X" if a == POINTS else "model" if a == WHOLE else names[a] for a in args]
    return ", ".join(said)


class _Asked:
    """A fitted training function whose ``predict`` is one candidate, for
    :func:`~.reading.answers_of` (which asks point by point where it must)."""

    def __init__(
        self, function: Callable[..., Any], args: tuple[int, ...], fitted: Any, lists: bool
    ) -> None:
        self.function, self.args, self.fitted, self.lists = function, args, fitted, lists

    def predict(self, X: Any) -> Any:
        return _call(self.function, self.args, self.fitted, X, self.lists)


def predictor_beside(
    trainer: Callable[..., Any],
    fitted: Any,
    X: np.ndarray,
    y: np.ndarray,
    returns: str | None = None,
    *,
    used: tuple[int, ...] = (),
    lists: bool = False,
) -> Beside | None:
    """The predictor beside ``trainer`` (see the module), judged on ``fitted``: the
    trainer fitted on ``X`` with labels ``y`` (-1/+1), what it returns read as
    ``returns`` (the reading's words; ``used``: the items it reads the weights and bias
    from), its points given as lists with ``lists``; None when the module has none."""
    items = list(fitted.items_)
    best: tuple[int, Beside] | None = None
    for function in _candidates(trainer):
        for args in _calls(len(items), used):
            if not _takes(function, len(args)):
                continue
            try:
                said = [
                    plain_number(a) for a in answers_of(_Asked(function, args, fitted, lists), X)
                ]
            except Exception:  # (not called so)
                continue
            if not said or not all(isinstance(a, int | float) for a in said):
                continue
            values = set(said)
            if not values <= {-1, 0, 1} or len(values) < 2 or values == {-1, 0, 1}:
                continue  # labels, both classes: not scores, not one class for all
            negative = -1 if -1 in values else 0
            right = sum(1 for a, t in zip(said, y, strict=True) if (a == 1) == (t > 0))
            found = Beside(
                function.__module__,
                function.__name__,
                args,
                negative,
                _words(args, returns, len(items)),
                lists,
            )
            if best is None or right > best[0]:
                best = (right, found)
            break  # (its first call that answers labels is how it is called)
    return None if best is None else best[1]
