"""An implementation's epoch budget, found by what it does, not by its name.

A budget is any integer *knob* that bounds how long ``fit`` trains: a constructor
parameter or attribute (``n_iter``, ``T``, ``nIterations``, ``updates``...), a keyword
of ``fit`` (``fit(X, y, max_epoch=100)``), or a module-level constant the training code
reads (``EPOCHS = 50``).  A known name (:data:`~.reading.BUDGET_NAMES`) is taken as it
is; any other positive integer knob is a budget only when it *behaves* as one on a
probe that needs several passes (:data:`LONG_X`, or :data:`LONG_ORIGIN_X` for an
implementation with no bias): set to 1 the fit mispredicts its training points, set
large it predicts every one.  A learning rate, a seed or a dimension does not.

>>> import numpy as np
>>> def train(X, y, T=50, seed=0):
...     w = np.zeros(X.shape[1] + 1)
...     Xa = np.hstack([X, np.ones((len(X), 1))])
...     for _ in range(T):
...         for xi, yi in zip(Xa, y):
...             if yi * (w @ xi) <= 0:
...                 w = w + yi * xi
...     return w
>>> from pla_proof.variants.estimators.functions import read_function
>>> read_function(train).budget_knob
Knob(kind='attribute', name='T', value=50, known=False, owner='')
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "CALLS",
    "LONG_ORIGIN_X",
    "LONG_ORIGIN_Y",
    "LONG_X",
    "LONG_Y",
    "Knob",
    "find_knob",
    "knob_candidates",
    "same_state",
    "with_budget",
]

#: A probe the classic algorithm (on ``(x, 1)``) settles in 25 cyclic passes, and in no
#: fewer than 10 in 200 random orders: one pass, one update or one visit never does.
LONG_X = np.array(
    [[1, -3, 3], [3, -4, 1], [1, 4, -3], [-2, -3, -3], [-4, 2, 2], [-3, -3, 1]],
    dtype=np.float64,
)
LONG_Y = np.array([-1, 1, -1, 1, 1, 1])
#: ... and one separable through the origin (u = (-3, -3, 2)): 12 cyclic passes, at
#: least 6 in 200 random orders, for an implementation with no bias.
LONG_ORIGIN_X = np.array(
    [[-1, 3, 1], [3, 4, -1], [4, -3, 3], [-3, 2, -1], [1, 1, -1], [-1, -1, -1]],
    dtype=np.float64,
)
LONG_ORIGIN_Y = np.array([-1, -1, 1, 1, -1, 1])
#: The name of the knob that is the number of ``fit`` calls.
CALLS = "fit() calls"
#: At most this many knobs are tried (two probe fits each), known names first.
MAX_KNOBS = 8
#: The value a knob is raised to when its behaviour is probed (enough epochs, updates
#: or visits for the long probes).
LARGE = 5000
#: ... and the number of ``fit`` calls it is raised to (each call at least one pass).
LARGE_CALLS = 200


@dataclass(frozen=True)
class Knob:
    """Where an epoch budget lives: ``kind`` is ``"attribute"`` (of the estimator, or a
    parameter of a training function), ``"fit"`` (a keyword of ``fit``) or
    ``"global"`` (a module-level constant the training code reads) or ``"calls"`` (how
    many times ``fit`` is called on the same data: a ``fit`` of one pass that goes on from
    where the last call ended) or ``"default"`` (a
    default argument of a helper ``owner`` the training code calls) or ``"literal"`` (an
    integer written into the code of ``owner``: ``while epoch <= 1000``, ``range(500)``;
    its name says which, ``the literal 1000 in fit()``); ``known``: found by its name
    rather than by its behaviour (a known name counts epochs)."""

    kind: str
    name: str
    value: int
    known: bool = True
    #: for ``kind == "default"``: the function whose default argument it is
    owner: str = ""

    def describe(self) -> str:
        where = {
            "attribute": "",
            "fit": " (a keyword of fit())",
            "global": " (a module constant)",
            "default": f" (a default argument of {self.owner}())",
            "literal": "",
            "calls": " (each call goes on from where the last ended)",
        }[self.kind]
        how = "" if self.known else ", found by its behaviour"
        return f"{self.name} = {self.value}{where}{how}"


def _positive_int(v: Any) -> bool:
    return bool(isinstance(v, int | np.integer) and not isinstance(v, bool) and v > 0)


def _code_names(obj: Any, seen: set[int] | None = None) -> set[str]:
    """The global names a function's code (and its nested code) reads."""
    code = getattr(obj, "__code__", None)
    if code is None:
        return set()
    out: set[str] = set()
    stack = [code]
    while stack:
        c = stack.pop()
        out.update(c.co_names)
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return out


def _functions_of(cls: type) -> Iterator[Any]:
    for klass in cls.__mro__:
        if klass is object or "dimension_names" in vars(klass):  # (pla_proof's sizing)
            continue
        for v in vars(klass).values():
            if isinstance(v, staticmethod | classmethod):
                v = v.__func__
            if inspect.isfunction(v):
                yield v


def knob_candidates(obj: Any, known_names: tuple[str, ...], skip: frozenset[str]) -> list[Knob]:
    """Every positive integer knob of a fresh estimator (or training-function adapter)
    ``obj``: its attributes, ``fit``'s keywords with integer defaults, and the module
    constants its methods read; known names first.  ``skip``: attributes that are not
    the user's (an adapter's own)."""
    out: list[Knob] = []
    attrs = vars(obj) if hasattr(obj, "__dict__") else {}
    for name, v in attrs.items():
        if name not in skip and _positive_int(v):
            out.append(Knob("attribute", name, int(v), name in known_names))
    # fit's own function -- or, for a class trained by another method (``train(X, y,
    # rounds)``, answered as ``fit`` on the object), that method's
    fit = getattr(type(obj), "fit", None)
    if fit is None:
        fit = getattr(getattr(obj, "fit", None), "__func__", None)
    functions: list[Any] = list(_functions_of(type(obj)))
    if inspect.isfunction(fit):
        for p in list(inspect.signature(fit).parameters.values())[3:]:
            if p.kind is not p.VAR_KEYWORD and _positive_int(p.default):
                out.append(Knob("fit", p.name, int(p.default), p.name in known_names))
    user = getattr(obj, "user_function", None)  # a training function's adapter: its code
    if user is not None:
        functions = [user]
    helpers: list[Any] = [f for f in functions if f.__name__ not in ("fit", "__init__")]
    for f in functions:
        g = getattr(f, "__globals__", {})
        for name in sorted(_code_names(f)):
            if _positive_int(g.get(name)) and all(k.name != name for k in out):
                out.append(Knob("global", name, int(g[name]), name in known_names))
            elif inspect.isfunction(g.get(name)) and g[name] not in helpers:
                helpers.append(g[name])  # a module-level helper the training code calls
    for f in helpers:
        for p in inspect.signature(f).parameters.values():
            if _positive_int(p.default) and f is not user:
                known = p.name in known_names
                out.append(Knob("default", p.name, int(p.default), known, f.__name__))
    if user is None:  # a fit of one pass that goes on from where it was: its calls
        out.append(Knob("calls", CALLS, 1, False))
    for f in [*functions, *helpers]:  # last: an integer written into the training code
        if f.__name__ == "__init__":
            continue  # (what __init__ writes is an attribute, found as one)
        for c in dict.fromkeys(c for c in f.__code__.co_consts if type(c) is int and c >= 2):
            out.append(Knob("literal", f"the literal {c} in {f.__name__}()", c, False, f.__name__))
    return sorted(out, key=lambda k: not k.known)


def with_budget(est: Any, knob: Knob, value: int) -> Any:
    """``est`` whose ``fit`` trains with the budget ``value``: the attribute set, or
    ``fit`` wrapped to pass the keyword or to set the module constant while it runs."""
    if knob.kind == "attribute":
        setattr(est, knob.name, value)
        return est
    bound = est.fit
    user = getattr(est, "user_function", None)  # a training function's adapter
    owner: Any = None
    if knob.kind in ("default", "literal"):
        code = user if user is not None else getattr(bound, "__func__", bound)
        owner = getattr(type(est), knob.owner, None) if user is None else None
        owner = owner if inspect.isfunction(owner) else code.__globals__.get(knob.owner)
        if user is not None and knob.owner == getattr(user, "__name__", None):
            owner = user
        if not inspect.isfunction(owner):
            raise ValueError(f"{knob.owner}() is not a function")
    if knob.kind == "fit":
        wrapped: Callable[..., Any] = functools.partial(bound, **{knob.name: value})
    elif knob.kind == "calls":

        def wrapped(*args: Any, **kw: Any) -> Any:
            out = None
            for _ in range(value):
                out = bound(*args, **kw)
            return out

    elif knob.kind == "literal":
        written = int(knob.name.split()[2])  # (the literal as the code has it)
        old_code = owner.__code__
        consts = tuple(value if type(c) is int and c == written else c for c in old_code.co_consts)
        new_code = old_code.replace(co_consts=consts)

        def wrapped(*args: Any, **kw: Any) -> Any:
            owner.__code__ = new_code
            try:
                return bound(*args, **kw)
            finally:
                owner.__code__ = old_code

    elif knob.kind == "default":
        names = [p.name for p in inspect.signature(owner).parameters.values()]
        defaults = owner.__defaults__ or ()
        at = names.index(knob.name) - (len(names) - len(defaults))
        if not 0 <= at < len(defaults):
            raise ValueError(f"{knob.owner}() has no default for {knob.name}")

        def wrapped(*args: Any, **kw: Any) -> Any:
            old = owner.__defaults__
            owner.__defaults__ = (*defaults[:at], value, *defaults[at + 1 :])
            try:
                return bound(*args, **kw)
            finally:
                owner.__defaults__ = old

    else:
        g = (user if user is not None else getattr(bound, "__func__", bound)).__globals__

        def wrapped(*args: Any, **kw: Any) -> Any:
            old = g.get(knob.name)
            g[knob.name] = value
            try:
                return bound(*args, **kw)
            finally:
                g[knob.name] = old

    est.fit = wrapped
    return est


def find_knob(
    candidates: list[Knob],
    mispredicted: Callable[[Knob, int], int | None],
    seconds: Callable[[Knob, int], float | None] | None = None,
) -> Knob | None:
    """The first candidate that is a budget: a known name, or a knob that behaves as one
    (``mispredicted(knob, value)``: the training points a fit with that budget
    mispredicts on the long probe, None when it fails or does not return).  A fit that
    mispredicts with the knob low and high alike (it never learns the probe: broken, or
    a vote that need not) shows its budget by the work it does instead: a named knob
    whose fit takes :data:`WORK_RATIO` times as long raised as set to 1
    (``seconds(knob, value)``: the fit's time, None when it fails)."""
    for knob in candidates[:MAX_KNOBS]:
        if knob.known:
            return knob
        low = mispredicted(knob, 1)
        large = LARGE_CALLS if knob.kind == "calls" else max(LARGE, knob.value)
        high = mispredicted(knob, large) if low else None
        if low and high == 0:
            return knob
        if low and high and seconds is not None and knob.kind in _NAMED:
            one, many = seconds(knob, 1), seconds(knob, large)
            if one is not None and many is not None and many >= max(WORK_RATIO * one, 0.005):
                return knob
    return None


#: How much longer a fit must take with a knob raised from 1 to LARGE for the knob to
#: be its budget by the work it does (a rate, a seed or a switch changes no work).
WORK_RATIO = 20
#: The knobs that may be budgets by their work: named ones (not a literal in the code,
#: nor the number of fit calls, which costs work whatever it is).
_NAMED = frozenset({"attribute", "fit", "default", "global"})


def same_state(a: Any, b: Any, budget: str) -> bool:
    """Two fitted models with the same attributes (but the epoch budget): the larger
    budget changed nothing.  Anything that cannot be compared counts as a change."""
    va, vb = vars(a), vars(b)
    if va.keys() != vb.keys():
        return False
    for key in va:
        if key in (budget, "fit"):  # the budget, or fit() wrapped to pass it
            continue
        p, q = va[key], vb[key]
        if p is q or (callable(p) and getattr(p, "__code__", 0) is getattr(q, "__code__", 1)):
            continue
        try:
            if isinstance(p, np.ndarray | list | tuple) or isinstance(q, np.ndarray | list | tuple):
                same = np.array_equal(np.asarray(p), np.asarray(q))
            else:
                same = bool(p == q)
        except Exception:  # what a model holds may not compare: a change, to be safe
            return False
        if not same:
            return False
    return True
