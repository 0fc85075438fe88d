"""A class with no ``fit`` or no ``predict``: its training and prediction methods,
found by their behaviour.

Course code and books name them otherwise -- ``train(X, y)``, ``learn(X, y)``,
``classify(X)``, ``predict_label(X)`` ...  Such a class is still a Perceptron to check.
Its training method is the public method that takes the points and their labels
(:func:`training_methods`); its prediction method, after a fit on a separable probe, the
public method that takes the points alone and answers one label per point
(:func:`candidate_methods` lists those it is asked; the caller chooses by the answers).
:class:`WithMethods` is the class (or factory) whose objects answer ``fit`` and
``predict`` with those methods; it is pickled by reference to the user's object, so
worker processes get the same thing.

>>> class Book:
...     def train(self, X, y):
...         self.w = [1.0]
...     def classify(self, X):
...         return [1 if x[0] > 0 else -1 for x in X]
>>> training_methods(Book())
['train']
>>> P = WithMethods(Book, {"fit": "train", "predict": "classify"})
>>> est = P()
>>> est.fit([[1.0]], [1]); est.predict([[2.0], [-1.0]])
[1, -1]
>>> P
Book answering fit() with train(), predict() with classify()
"""

from __future__ import annotations

import dis
import inspect
import types
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from .given import Wrapper

__all__ = [
    "WithMethods",
    "candidate_methods",
    "outermost",
    "trainer_of",
    "trainers_among",
    "trainers_of",
    "training_methods",
]

#: Methods that never answer a prediction, nor train (scikit-learn's and the fit family).
_NOT = frozenset(
    {
        "fit",
        "partial_fit",
        "fit_predict",
        "score",
        "get_params",
        "set_params",
        "decision_function",
        "predict_proba",
        "predict_log_proba",
        "transform",
        "fit_transform",
    }
)


def _public(est: Any, private: bool = False) -> list[tuple[str, Callable[..., Any]]]:
    """The public methods of ``est``, in its classes' order of definition (``private``:
    its single-underscore ones instead)."""
    out: list[tuple[str, Callable[..., Any]]] = []
    seen: set[str] = set()
    for klass in type(est).__mro__:
        if klass is object:
            continue
        for name in vars(klass):
            own = name.startswith("_") and not name.startswith("__") if private else True
            if not own or (not private and name.startswith("_")) or name in _NOT or name in seen:
                continue
            if private and name[1:] in _NOT:
                continue
            seen.add(name)
            method = getattr(est, name, None)
            if callable(method):
                out.append((name, method))
    return out


def candidate_methods(est: Any) -> list[str]:
    """The public methods of ``est`` that can be called with the points alone (one
    positional argument), in their class's order of definition; none public, its
    single-underscore ones (``_predict``).

    >>> class C:
    ...     def fit(self, X, y): pass
    ...     def classify(self, X): pass
    ...     def step(self, z, t=0): pass
    ...     def plot(self, X, y): pass
    ...     def _private(self, X): pass
    >>> candidate_methods(C())
    ['classify', 'step']
    >>> class D:
    ...     def fit(self, X, y): pass
    ...     def _predict(self, X): pass
    >>> candidate_methods(D())
    ['_predict']
    """
    public = [name for name, method in _public(est) if _takes(method, 1)]
    return public or [name for name, method in _public(est, private=True) if _takes(method, 1)]


def trainer_of(cls: Any, given: Collection[str] = ()) -> tuple[str, list[str]] | None:
    """A class's training method, read from its signatures: ``fit`` when it has one,
    else the one public method (not ``predict``) whose first two parameters after
    ``self`` are positional and required -- the points and their labels -- with the
    names of its further parameters that have no default (``train(X, y, rate,
    epochs)``: the user gives them).  Several such methods: the one whose further
    parameters are all among ``given`` (the ``--param`` names), if only one is.  None
    when there is none, or no one.

    >>> class Course:
    ...     def __init__(self, n): pass
    ...     def sign(self, x, w, b): pass
    ...     def train(self, patterns, targets, learning_rate, epochs=10): pass
    >>> trainer_of(Course), trainer_of(Course, ["learning_rate"])
    (None, ('train', ['learning_rate']))
    """
    found = trainers_of(cls)
    if len(found) > 1:  # the ones that train: they change the object, and none calls them
        kept = trainers_among(cls, [name for name, _ in found])
        found = [f for f in found if f[0] in kept]
    if len(found) == 1:
        return found[0]
    fits = [(name, needs) for name, needs in found if needs and set(needs) <= set(given)]
    return fits[0] if len(fits) == 1 else None


def trainers_of(cls: Any) -> list[tuple[str, list[str]]]:
    """Every method :func:`trainer_of` could choose (``fit`` alone when the class has
    one), with the further parameters each needs."""
    if not inspect.isclass(cls):
        return []
    fit = getattr(cls, "fit", None)
    if callable(fit) and not _fit_of_the_made(cls, fit):
        return [("fit", _needs_after_data(fit) or [])]
    found: list[tuple[str, list[str]]] = []
    for klass in cls.__mro__:
        if klass is object:
            continue
        for name, member in vars(klass).items():
            if name.startswith("_") or name in _NOT or name == "predict" or not callable(member):
                continue
            needs = _needs_after_data(member)
            if needs is not None and name not in [f for f, _ in found]:
                found.append((name, needs))
    return found


def _fit_of_the_made(cls: Any, fit: Any) -> bool:
    """Whether ``fit`` is not given the data: it takes fewer than two arguments, and the
    constructor needs two (``Perceptron(X, y)``, then ``fit(eta)``).

    >>> class Made:
    ...     def __init__(self, X, y): pass
    ...     def fit(self, eta): pass
    >>> _fit_of_the_made(Made, Made.fit)
    True
    """
    try:
        params = list(inspect.signature(fit).parameters.values())[1:]
        made = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        return False
    takes = [p for p in params if p.kind in kinds]
    return (
        len(takes) < 2 and len([p for p in made if p.kind in kinds and p.default is p.empty]) >= 2
    )


def _needs_after_data(function: Any) -> list[str] | None:
    """For a plain function ``f(self, X, y, ...)``: the names of its parameters after
    ``X, y`` with no default; None when ``X`` and ``y`` are not its two first, required,
    positional parameters."""
    try:
        params = list(inspect.signature(function).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    data = params[:2]
    if len(data) < 2 or any(p.kind not in kinds or p.default is not p.empty for p in data):
        return None
    varying = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p.name for p in params[2:] if p.default is p.empty and p.kind not in varying]


def training_methods(est: Any) -> list[str]:
    """The public methods of ``est`` that take the points and their labels (two
    required positional arguments, any others with defaults), but ``predict``.

    >>> class C:
    ...     def learn(self, X, y, epochs=10): pass
    ...     def plot(self, X, y, ax): pass
    ...     def predict(self, X): pass
    >>> training_methods(C())
    ['learn']
    """
    return [
        name for name, method in _public(est) if name != "predict" and _takes(method, 2, exact=True)
    ]


def _takes(method: Callable[..., Any], n: int, exact: bool = False) -> bool:
    """Whether ``method`` can be called with ``n`` positional arguments (with ``exact``:
    it needs all ``n``, no more)."""
    try:
        sig = inspect.signature(method)
    except (TypeError, ValueError):
        return False
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    positional = [p for p in sig.parameters.values() if p.kind in kinds]
    required = [p for p in positional if p.default is p.empty]
    keyword_only = [
        p
        for p in sig.parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is p.empty
    ]
    var = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in sig.parameters.values())
    if keyword_only:
        return False
    if exact:
        return len(required) == n
    return len(required) <= n and (len(positional) >= n or var)


class WithMethods(Wrapper):
    """``factory`` (the user's class or factory) whose objects answer ``fit`` and/or
    ``predict`` with their methods named in ``methods`` (``{"fit": "train"}``); every
    dunder the check asks of it is the factory's."""

    def __init__(self, factory: Callable[..., Any], methods: Mapping[str, str]) -> None:
        super().__init__(factory)
        self.factory, self.methods = factory, dict(methods)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.factory)

    def _answers(self, name: str) -> bool:
        return name.startswith("__")

    def __call__(self, *args: Any, **kw: Any) -> Any:
        est = self.factory(*args, **kw)
        for role, name in self.methods.items():
            setattr(est, role, getattr(est, name))
        return est

    def __reduce__(self) -> tuple[Any, ...]:
        return (WithMethods, (self.factory, self.methods))

    def __repr__(self) -> str:
        name = getattr(self.factory, "__qualname__", self.factory)
        said = ", ".join(f"{role}() with {m}()" for role, m in self.methods.items())
        return f"{name} answering {said}"


def outermost(cls: type, names: Sequence[str]) -> list[str]:
    """Those of the methods ``names`` that no other of them calls: the trainer that runs
    one pass or one step through another is not the trainer.

    >>> class Course:
    ...     def step(self): pass
    ...     def train(self): self.step()
    >>> outermost(Course, ["step", "train"])
    ['train']
    """
    called: set[str] = set()
    for name in names:
        codes = _code_of(cls, name)
        if codes is not None:
            called |= {n for c in codes for n in c.co_names} - {name}
    return [n for n in names if n not in called]


def _code_of(cls: type, name: str) -> list[types.CodeType] | None:
    """The code of the user's method ``name`` (under the check's wrappers, such as the
    one that sizes a class by the data's dimension), with the code nested in it
    (comprehensions, generator expressions, inner functions) and, where it calls
    ``super()``, the code of the definitions it overrides; None where it has none."""
    out: list[types.CodeType] = []
    for klass in cls.__mro__:
        method = vars(klass).get(name)
        if method is None:
            continue
        try:
            code = getattr(inspect.unwrap(method), "__code__", None)
        except ValueError:  # (a cycle of __wrapped__)
            return None
        if not isinstance(code, types.CodeType):
            return None
        out += _nested(code)
        if "super" not in {n for c in _nested(code) for n in c.co_names}:
            break
    return out or None


def _nested(code: types.CodeType) -> list[types.CodeType]:
    out = [code]
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out += _nested(c)
    return out


def trainers_among(cls: type, names: Sequence[str]) -> list[str]:
    """Of the methods ``names`` that take the points and their labels, those that can
    be the trainer: they change the object (store into it, directly or through another of
    its methods: ``compute_accuracy(X, y)`` does not), and none of the others calls them
    (:func:`outermost`: ``update(x, y)`` is one step of ``train(X, y)``).  ``names``
    itself where that leaves none.

    >>> class Course:
    ...     def update(self, x, y): self.w = x
    ...     def train(self, X, y):
    ...         for x, t in zip(X, y): self.update(x, t)
    ...     def compute_accuracy(self, X, y): return sum(1 for _ in X) / len(y)
    >>> trainers_among(Course, ["update", "train", "compute_accuracy"])
    ['train']
    """
    writers = [n for n in names if _writes(cls, n, set())]
    return outermost(cls, writers) or outermost(cls, list(names)) or list(names)


#: the instructions that store into an object (an attribute, or an item of one)
_STORES = frozenset({"STORE_ATTR", "DELETE_ATTR", "STORE_SUBSCR"})


def _writes(cls: type, name: str, seen: set[str]) -> bool:
    """Whether the method ``name`` of ``cls`` stores into an object, or calls a method of
    ``cls`` that does (``setattr`` too); True where its code cannot be read."""
    codes = _code_of(cls, name)
    if codes is None:
        return True
    seen.add(name)
    names = {n for c in codes for n in c.co_names}
    if "setattr" in names or any(
        i.opname in _STORES for c in codes for i in dis.get_instructions(c)
    ):
        return True
    return any(
        other not in seen and callable(getattr(cls, other, None)) and _writes(cls, other, seen)
        for other in sorted(names)
    )
