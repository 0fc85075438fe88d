"""A class that must be told the data's dimension: ``Perceptron(N)``, ``Model(dim)``,
``Neuron(num_inputs)``.

Book and course code often sizes its weights in the constructor: ``self.W =
np.zeros(N + 1)``.  No single value of ``N`` suits data of every dimension, so asking the
user for one (``--param N=2``) only moves the failure to the first case in another
dimension.  A parameter with no default is read as **the data's dimension** by its
behaviour: made with 2, 3 and 5, the fresh object holds a sequence of exactly that many
numbers (or one more, the bias) -- its weights, sized by it.  Such a class is then made
for each data set with the data's own dimension: :func:`sized` is a factory whose
objects are the user's class (a subclass that changes nothing but this), made with a
placeholder and made again with ``X.shape[1]`` when ``fit`` sees data of another
dimension -- what was set on the object in between (an epoch budget) is set again.  A
value the user gives for such a parameter (``--param inputs=2``) is used for data of that
dimension and replaced by each other data set's own, and the reading line says so.

>>> import numpy as np
>>> class Neuron:
...     def __init__(self, n_in, rate=0.1):
...         self.w, self.rate = np.zeros(n_in + 1), rate
...     def fit(self, X, y):
...         assert X.shape[1] + 1 == len(self.w)
...         return self
>>> dimension_parameters(Neuron, ["n_in"])
['n_in']
>>> make = sized(Neuron, ("n_in",))
>>> est = make()
>>> est.rate = 0.5
>>> len(est.fit(np.zeros((2, 4)), [1, -1]).w), est.rate, isinstance(est, Neuron)
(5, 0.5, True)
"""

from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..boundary.calls import HookError, call_before_runs
from ..boundary.limits import DEFAULT_TIME_LIMIT
from .given import Wrapper, wrappers

__all__ = [
    "Sized",
    "Started",
    "dimension_parameters",
    "labels_as_column",
    "sized",
    "sizing_said",
    "start_parameters",
]

#: The dimension a sized object is first made with (the probes' own).
FIRST = 3
#: The values a parameter is tried with to see that it sizes the weights.
_TRIED = (2, 3, 5)


def _lengths(obj: Any) -> set[int]:
    """The lengths of the numeric sequences an object holds (one level deep)."""
    out: set[int] = set()
    for v in vars(obj).values() if hasattr(obj, "__dict__") else ():
        if isinstance(v, str | bytes | dict):
            continue
        try:
            a = np.asarray(v, dtype=np.float64)
        except (TypeError, ValueError):
            continue
        if a.ndim >= 1 and a.size:
            out.update({a.shape[0], a.size})
    return out


def dimension_parameters(
    cls: Callable[..., Any], needed: Sequence[str], limit: float | None = DEFAULT_TIME_LIMIT
) -> list[str]:
    """The parameters of ``needed`` that size the weights: made with each of 2, 3 and 5
    (the others at 3), the object holds a sequence of that many numbers, or one more."""
    out = []
    for name in needed:
        for v in _TRIED:
            args = {n: FIRST for n in needed} | {name: v}
            try:
                obj = call_before_runs(functools.partial(cls, **args), "__init__", limit)
            except HookError:
                break
            if not _lengths(obj) & {v, v + 1}:
                break
        else:
            out.append(name)
    return out


class Sized:
    """Marks the subclasses :func:`sized` makes (their own methods are not the user's)."""

    dimension_names: tuple[str, ...] = ()


class _State:
    """What a sized object remembers: how it was made, its dimension, and what was set on
    it from outside since."""

    def __init__(self, args: tuple[Any, ...], kw: dict[str, Any]) -> None:
        self.args, self.kw, self.d = args, kw, FIRST
        self.seen: dict[str, Any] = {}
        self.set: dict[str, Any] = {}


_STATE = "_pla_proof_sized_"


#: The subclasses made, by (class, names, repr of what fit is given): one each.
_MADE: dict[tuple[type, tuple[str, ...], str, str], type] = {}


def _subclass(
    cls: type, names: tuple[str, ...], fit_given: tuple[tuple[str, Any], ...], trains: str
) -> type:
    key = (cls, names, repr(fit_given), trains)  # (a value given may be a list: not hashable)
    if key not in _MADE:
        _MADE[key] = _make_subclass(cls, names, fit_given, trains)
    return _MADE[key]


def _make_subclass(
    cls: type, names: tuple[str, ...], fit_given: tuple[tuple[str, Any], ...], trains: str
) -> type:
    user_fit = getattr(cls, trains)
    given = dict(fit_given)

    def __init__(self: Any, *args: Any, **kw: Any) -> None:
        object.__setattr__(self, _STATE, _State(args, kw))
        cls.__init__(self, *args, **{n: FIRST for n in names}, **kw)  # type: ignore[misc]
        getattr(self, _STATE).seen = _own(self)

    def fit(self: Any, X: Any, *rest: Any, **kw: Any) -> Any:
        state = getattr(self, _STATE)
        now = _own(self)
        state.set.update({k: v for k, v in now.items() if state.seen.get(k, _STATE) is not v})
        d = int(np.asarray(X).reshape(len(X), -1).shape[1])
        if d != state.d:  # made again for this dimension, what was set from outside kept
            for k in now:
                delattr(self, k)
            cls.__init__(self, *state.args, **{n: d for n in names}, **state.kw)  # type: ignore[misc]
            for k, v in state.set.items():
                setattr(self, k, v)
            state.d = d
        out = user_fit(self, X, *rest, **{**given, **kw})
        state.seen = _own(self)
        return out

    functools.update_wrapper(fit, user_fit)
    if given:  # fit's own parameters given (--param): its signature shows them as defaults
        del fit.__wrapped__  # type: ignore[attr-defined]
        fit.__signature__ = _with_defaults(inspect.signature(user_fit), given)  # type: ignore[attr-defined]
    fit.__name__ = fit.__qualname__ = trains
    body = {
        "__init__": __init__,
        trains: fit,
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__doc__": cls.__doc__,
        "dimension_names": names,
    }
    return type(cls.__name__, (cls, Sized), body)


def _with_defaults(sig: inspect.Signature, given: dict[str, Any]) -> inspect.Signature:
    """``sig`` with ``given`` as defaults (keyword-only, last: the data stay first)."""
    kept = [p for p in sig.parameters.values() if p.name not in given]
    rest = [p for p in kept if p.kind is inspect.Parameter.VAR_KEYWORD]
    kept = [p for p in kept if p.kind is not inspect.Parameter.VAR_KEYWORD]
    set_ = [
        inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=v) for n, v in given.items()
    ]
    return sig.replace(parameters=[*kept, *set_, *rest])


def _own(obj: Any) -> dict[str, Any]:
    return {k: v for k, v in vars(obj).items() if k != _STATE}


class _Factory(Wrapper):
    """``cls`` made with the data's dimension for ``names``, and ``fit``'s parameters
    ``fit_given`` given (see :func:`sized`)."""

    def __init__(
        self,
        cls: type,
        names: tuple[str, ...],
        fit_given: tuple[tuple[str, Any], ...] = (),
        by_hand: tuple[tuple[str, Any], ...] = (),
        trains: str = "fit",
    ) -> None:
        super().__init__(cls)
        self.cls, self.names, self.fit_given = cls, names, fit_given
        self.by_hand = by_hand  # values the user gave for names (--param): each data's own
        self.trains = trains  # the method that trains it: fit, or train(X, y), ...

    @property
    def __signature__(self) -> inspect.Signature:
        sig = inspect.signature(self.cls)
        kept = [p for p in sig.parameters.values() if p.name not in self.names]
        return sig.replace(parameters=kept)

    def __call__(self, *args: Any, **kw: Any) -> Any:
        return _subclass(self.cls, self.names, self.fit_given, self.trains)(*args, **kw)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Factory, (self.cls, self.names, self.fit_given, self.by_hand, self.trains))

    def given_here(self) -> dict[str, Any]:
        return {**dict(self.by_hand), **dict(self.fit_given)}

    def describe(self) -> str:
        """What the user gave by hand that each data set's dimension replaces, in words
        ('' when nothing)."""
        if not self.by_hand:
            return ""
        names = ", ".join(n for n, _ in self.by_hand)
        values = " ".join(f"--param {n}={v!r}" for n, v in self.by_hand)
        d = ", ".join(str(v) for _, v in self.by_hand)
        return (
            f"{names} sizes the weights (found by its behaviour): made with each data set's "
            f"dimension, {values} used for data of dimension {d}"
        )

    def __repr__(self) -> str:
        said = [f"{', '.join(self.names)} = the data's dimension"] if self.names else []
        said += [f"fit({k}={v!r})" for k, v in self.fit_given]
        return f"{self.cls.__qualname__} made with {'; '.join(said)}"


def sized(
    cls: type,
    names: tuple[str, ...],
    fit_given: dict[str, Any] | None = None,
    by_hand: dict[str, Any] | None = None,
    trains: str = "fit",
) -> Callable[..., Any]:
    """A factory of ``cls`` objects made with the data's dimension for ``names`` (see the
    module), their ``fit`` called with ``fit_given`` (``--param`` for a parameter of
    ``fit`` with no default: ``fit(X, y, num_epochs)``) unless told otherwise;
    ``by_hand``: the values the user gave for some of ``names`` (said in the reading
    line, replaced by each data set's dimension); ``trains``: the method that trains it
    (``fit``, or a class's ``train(X, y)``).

    >>> class Net:
    ...     def __init__(self, inputs):
    ...         self.w = np.zeros(inputs)
    >>> sized(Net, ("inputs",), by_hand={"inputs": 2}).describe()[:60]
    'inputs sizes the weights (found by its behaviour): made with'
    """
    return _Factory(
        cls,
        names,
        tuple(sorted((fit_given or {}).items())),
        tuple(sorted((by_hand or {}).items())),
        trains,
    )


def sizing_said(factory: Any) -> str:
    """What a factory made by :func:`sized` (under the check's other wrappers: each
    holds what it wraps as ``__wrapped__``) replaced of what the user gave, in words; ''
    for any other."""
    return next((w.describe() for w in wrappers(factory) if isinstance(w, _Factory)), "")


# --- a training function's start vector: perceptron(X, y, w) -------------------------------

#: The separable points a start vector is tried on (3 coordinates), and their labels.
_START_X = np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [-2.0, -1.0, 0.0], [-1.0, -2.0, -1.0]])
_START_Y = np.array([1, 1, -1, -1])


#: A start parameter's shapes, tried in this order: zeros of the data's dimension, of one
#: more (a bias inside), and the scalar 0.0 (a bias of its own: ``perceptron(X, y, w, b)``).
START_SHAPES: tuple[int | None, ...] = (0, 1, None)


def start_value(d: int, shape: int | None) -> Any:
    """The zero start of one parameter, for data of dimension ``d`` (see
    :data:`START_SHAPES`).

    >>> start_value(2, 1), start_value(2, None)
    (array([0., 0., 0.]), 0.0)
    """
    return 0.0 if shape is None else np.zeros(d + shape)


def start_parameters(
    function: Callable[..., Any], needed: Sequence[str], limit: float | None = DEFAULT_TIME_LIMIT
) -> dict[str, int | None]:
    """The parameters of ``needed`` (a training function's, after ``X, y``) that are its
    start: given zeros for each of them -- a vector of the data's dimension, of one more
    (a bias inside), or the number 0.0 (a bias of its own), in every combination, the
    vectors first -- on small separable data of 3 and of 2 coordinates, it returns a
    vector of that length that **moved** from zero -- right or wrong, the updates changed
    it.  (A rate given zeros moves nothing; a budget given 0.0 raises or runs no pass.)
    Name -> its shape (:data:`START_SHAPES`); ``{}`` when behaviour does not say so (the
    user is then asked by name).  Whether what it learns is right is the check's to say.

    >>> def pla(X, y, w, max_iter=100):
    ...     for _ in range(max_iter):
    ...         wrong = [i for i in range(len(y)) if y[i] * (X[i] @ w) <= 0]
    ...         if not wrong:
    ...             break
    ...         w = w + y[wrong[0]] * X[wrong[0]]
    ...     return 0, w
    >>> start_parameters(pla, ["w"])
    {'w': 0}
    >>> def with_bias(X, y, w, b, epochs=10):
    ...     for _ in range(epochs):
    ...         for x, t in zip(X, y):
    ...             if t * (x @ w + b) <= 0:
    ...                 w, b = w + t * x, b + t
    ...     return w, b
    >>> start_parameters(with_bias, ["w", "b"])
    {'w': 0, 'b': None}
    >>> def rated(X, y, rate, max_iter=100):
    ...     w = np.zeros(X.shape[1])
    ...     for _ in range(max_iter):
    ...         for x, t in zip(X, y):
    ...             if t * (x @ w) <= 0:
    ...                 w = w + rate * t * x
    ...     return w
    >>> start_parameters(rated, ["rate"])  # a rate given zeros moves nothing
    {}
    """
    name = getattr(function, "__name__", "function")
    if not needed or len(needed) > 3:  # (more is not a start: the user is asked)
        return {}
    for shapes in itertools.product(START_SHAPES, repeat=len(needed)):
        vectors = [s for s in shapes if s is not None]
        if not vectors:
            continue
        for X in (_START_X, _START_X[:, :2]):
            d = X.shape[1]
            args = {n: start_value(d, s) for n, s in zip(needed, shapes, strict=True)}
            call = functools.partial(function, X.copy(), _START_Y.copy(), **args)
            try:
                out = call_before_runs(call, name, limit)
            except HookError:
                break
            if not any(_moved(out, X, extra) for extra in set(vectors)):
                break
        else:
            return dict(zip(needed, shapes, strict=True))
    return {}


def _moved(out: Any, X: np.ndarray, extra: int) -> bool:
    """Whether ``out`` holds a vector of length ``d + extra`` that is not all zeros."""
    items = out if isinstance(out, tuple | list) else (out,)
    for v in items:
        try:
            w = np.ravel(np.asarray(v, dtype=np.float64))
        except (TypeError, ValueError):
            continue
        if len(w) == X.shape[1] + extra and bool(np.any(w != 0)):
            return True
    return False


def labels_as_column(
    function: Callable[..., Any], limit: float | None = DEFAULT_TIME_LIMIT
) -> bool:
    """Whether a training function takes its labels as a column, ``(n, 1)`` (batch code
    whose weights are a ``(d, 1)`` column): given them as a flat vector it raises, given
    them as a column it returns.

    >>> def batch(X, y, epochs=20):
    ...     w = np.zeros((X.shape[1], 1))
    ...     for _ in range(epochs):
    ...         w += X.T @ (y - np.where(X @ w >= 0, 1, -1))
    ...     return w
    >>> labels_as_column(batch), labels_as_column(lambda X, y: X.T @ y)
    (True, False)
    """
    name = getattr(function, "__name__", "function")
    for y in (_START_Y, _START_Y.reshape(-1, 1)):
        try:
            call_before_runs(functools.partial(function, _START_X.copy(), y.copy()), name, limit)
        except HookError:
            continue
        return y.ndim == 2
    return False


class Started(Wrapper):
    """A training function whose start weights ``names`` are made for each call: zeros
    of the data's dimension (plus ``extra``), and (``column``) whose labels are passed as
    a column; pickled by reference to the user's function.  Called and read like it (its
    name, module, code and globals; the start parameters leave its signature)."""

    def __init__(
        self, function: Callable[..., Any], starts: dict[str, int | None], column: bool = False
    ) -> None:
        super().__init__(function)
        self.function, self.starts, self.column = function, dict(starts), column

    @property
    def __signature__(self) -> inspect.Signature:
        sig = inspect.signature(self.function)
        kept = [p for p in sig.parameters.values() if p.name not in self.starts]
        return sig.replace(parameters=kept)

    def __call__(self, X: Any, y: Any, *args: Any, **kw: Any) -> Any:
        d = int(np.asarray(X).reshape(len(X), -1).shape[1])
        made = {n: start_value(d, shape) for n, shape in self.starts.items() if n not in kw}
        if self.column:
            y = np.asarray(y).reshape(-1, 1)
        return self.function(X, y, *args, **made, **kw)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Started, (self.function, self.starts, self.column))

    def describe(self) -> str:
        """What is made for each call, in words."""
        said = [f"its start {n} = {_shape_said(e)}" for n, e in self.starts.items()]
        said += ["its labels given as a column (n, 1)"] if self.column else []
        return ", ".join(said) + ", found by its behaviour"

    def __repr__(self) -> str:
        return f"{getattr(self.function, '__qualname__', self.function)} with {self.describe()}"


def _shape_said(shape: int | None) -> str:
    return "0" if shape is None else f"zeros(d{' + 1' if shape else ''})"
