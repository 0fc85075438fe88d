"""Parameters the user gives: ``--param NAME=VALUE`` for a parameter with no default.

A training function written for a course, ``perceptron(feature_matrix, labels, T)``,
needs its ``T``; a class ``Perceptron(lr)`` needs its rate (a parameter that sizes the
weights is the data's dimension: :mod:`.dimension` finds it).  Behaviour cannot invent
them, so the user gives them, and :class:`Given` is the function or class
with those parameters set: called like it, with the given parameters as keyword
defaults (still changeable by name: a budget found among them is set as any other), and
read like it (its name, module, source, globals and the signature with the new
defaults).  It is pickled by reference to the user's object, so worker processes get
the same thing.

>>> def perceptron(X, y, T):
...     return [T]
>>> f = given(perceptron, {"T": 3}, "perceptron")
>>> import inspect
>>> str(inspect.signature(f)), f([[1]], [1]), f([[1]], [1], T=5)
('(X, y, *, T=3)', [3], [5])
>>> parse_param("T=100"), parse_param("eta=0.5"), parse_param("kind=step")
(('T', 100), ('eta', 0.5), ('kind', 'step'))
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from ...errors import InputError

__all__ = [
    "DELEGATED",
    "Given",
    "Wrapper",
    "all_given",
    "given",
    "parse_param",
    "shown",
    "wrappers",
]

#: The user's object's attributes a reading looks at, answered by the object itself.
DELEGATED = frozenset({"__globals__", "__code__", "__defaults__", "__kwdefaults__", "__closure__"})


class Wrapper:
    """What the check puts around a user's function or class (parameters given, a
    dimension made per data set, start weights made per call, methods found by
    behaviour) is read like it: its name, qualified name, module and docstring are the
    user's, the user's object is its ``__wrapped__``, and what a reading looks at
    (:data:`DELEGATED`) is answered by the user's object.

    >>> def perceptron(X, y):
    ...     "Train."
    >>> w = Wrapper(perceptron)
    >>> w.__name__, w.__doc__, w.__code__ is perceptron.__code__, w.__wrapped__ is perceptron
    ('perceptron', 'Train.', True, True)
    """

    def __init__(self, obj: Callable[..., Any]) -> None:
        self.__wrapped__ = obj
        for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
            setattr(self, attr, getattr(obj, attr, None))

    def _answers(self, name: str) -> bool:
        """Whether the user's object answers ``name`` for this wrapper."""
        return name in DELEGATED

    def given_here(self) -> dict[str, Any]:
        """The ``--param`` values this wrapper holds (none here; see :func:`all_given`)."""
        return {}

    def __getattr__(self, name: str) -> Any:
        inner = self.__dict__.get("__wrapped__")
        if inner is not None and self._answers(name):
            return getattr(inner, name)
        raise AttributeError(name)


def parse_param(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` as ``(name, value)``: a Python literal (number, string, tuple,
    ``None``, ``True``), else the text itself as a string."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        raise InputError(f"--param {text}: expected NAME=VALUE, e.g. --param T=100")
    try:
        value = ast.literal_eval(raw.strip())
    except (ValueError, SyntaxError):
        value = raw.strip()
    return name, value


def shown(params: Mapping[str, Any]) -> list[str]:
    """The ``--param`` arguments that give ``params`` again."""
    out = []
    for k, v in params.items():
        out += ["--param", f"{k}={v}" if isinstance(v, int | float) else f"{k}={v!r}"]
    return out


class Given(Wrapper):
    """``obj`` (a training function or a class) with ``params`` given (see the module)."""

    def __init__(self, obj: Callable[..., Any], params: Mapping[str, Any]) -> None:
        super().__init__(obj)
        self.obj = obj
        self.params = dict(params)

    @property
    def __signature__(self) -> inspect.Signature:
        """The user's signature, the given parameters keyword-only with their values as
        defaults (placed last, so the data parameters stay first)."""
        sig = inspect.signature(self.obj)
        kept, set_, rest = [], [], []
        for p in sig.parameters.values():
            if p.name in self.params:
                set_.append(
                    p.replace(kind=inspect.Parameter.KEYWORD_ONLY, default=self.params[p.name])
                )
            elif p.kind is inspect.Parameter.VAR_KEYWORD:
                rest.append(p)
            else:
                kept.append(p)
        extra = [n for n in self.params if n not in sig.parameters]
        set_ += [
            inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=self.params[n])
            for n in extra
        ]
        return sig.replace(parameters=[*kept, *set_, *rest])

    def given_here(self) -> dict[str, Any]:
        return dict(self.params)

    def __call__(self, *args: Any, **kw: Any) -> Any:
        return self.obj(*args, **{**self.params, **kw})

    def __reduce__(self) -> tuple[Any, ...]:
        return (Given, (self.obj, self.params))

    def __repr__(self) -> str:
        given = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{getattr(self.obj, '__qualname__', self.obj)!r} given {given}"


def all_given(obj: Any) -> dict[str, Any]:
    """Every ``--param`` value the check's wrappers around the user's object hold (those
    of the constructor, of ``fit`` or the training method, a dimension given by hand):
    what checks it again.

    >>> def perceptron(X, y, T):
    ...     return [T]
    >>> all_given(Wrapper(given(perceptron, {"T": 3}, "perceptron")))
    {'T': 3}
    """
    out: dict[str, Any] = {}
    for w in wrappers(obj):
        out = {**w.given_here(), **out}
    return out


def wrappers(obj: Any) -> list[Wrapper]:
    """The check's wrappers around the user's object, outermost first (each holds what
    it wraps as ``__wrapped__``; at most 8 deep)."""
    out = []
    for _ in range(8):
        if isinstance(obj, Wrapper):
            out.append(obj)
        obj = getattr(obj, "__wrapped__", None)
        if obj is None:
            break
    return out


def given(obj: Callable[..., Any], params: Mapping[str, Any], spec: str) -> Callable[..., Any]:
    """``obj`` with ``params`` given (``obj`` itself when there are none); a name that is
    not one of its parameters (and no ``**kwargs`` takes it) is an ``InputError`` naming
    the parameters it has."""
    if not params:
        return obj
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        raise InputError(f"--param: the parameters of {spec} cannot be read") from None
    names = list(sig.parameters)
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values())
    for name in params:
        p = sig.parameters.get(name)
        if p is None and not takes_any:
            have = ", ".join(names) or "none"
            raise InputError(
                f"--param {name}: {spec} has no parameter {name} (its parameters: {have})"
            )
        if p is not None and p.kind in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.VAR_POSITIONAL,
        ):
            raise InputError(f"--param {name}: {spec} takes {name} by position only")
    return Given(obj, params)
