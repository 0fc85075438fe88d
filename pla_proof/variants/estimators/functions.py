"""Training functions, ``perceptron(X, y, ...) -> w``, ``-> (w, b)`` or ``-> (b, w)``:
read as they are written and checked like ``fit(X, y)`` classes.

The most common shape in textbook code is a function that trains and returns what it
learned.  :class:`TrainingFunction` makes one a ``fit(X, y)`` object: ``fit`` calls it
(through the boundary: what it raises is the user's error, naming its line), keeps what
it returns, and ``predict`` classifies points by the returned weights.  Its other
parameters keep their defaults, and one named like an epoch budget (``max_iter``,
``epochs``, ...) is the budget ``EPOCHS`` checks and ``--epochs`` sets.

:func:`read_function` decides what the function returns **by shape and by the training
points**, as a class's reading is verified against its ``predict``: every reading the
shape allows -- ``w`` (d numbers), ``(w, b)`` or ``(b, w)``, one vector of d + 1 with the
bias first or last, among other returned values or not, and dual coefficients
``alpha`` (one per training point: ``w = sum_i alpha_i y_i x_i``) -- is kept only if its
weights classify the training points of two separable probes.  None left is a verdict,
not a refusal: the probe is the counterexample (the most natural reading is taken, and
the runs report what the function returns).  Two different predictors left are
ambiguous (``--bias first|last|none`` says which).  The labels are -1/+1, or 0/1 when
-1/+1 gives no reading that classifies the probes, or only one whose predictor still
changes with twice the epochs (it has not settled: not its coding).  Whether a score of exactly 0
classifies a point as +1 is read from a one-point probe: a function that makes no
update on ``(x, +1)`` from zero weights takes a score of 0 as +1 (end claim ``SEP0``);
one that updates there but not on ``(x, -1)`` takes it as -1 (a 0/1 step ``score > 0``:
end claim ``SEP0N`` when it also stops with a negative point at a score of 0); any other
the strict sign (``SEP``).

>>> import numpy as np
>>> def perceptron(X, y, eta=1.0, max_iter=100):
...     w, b = np.zeros(X.shape[1]), 0.0
...     for _ in range(max_iter):
...         mistakes = 0
...         for xi, yi in zip(X, y):
...             if yi * (xi @ w + b) <= 0:
...                 w, b, mistakes = w + eta * yi * xi, b + eta * yi, mistakes + 1
...         if not mistakes:
...             break
...     return w, b
>>> print(read_function(perceptron).describe())  # doctest: +NORMALIZE_WHITESPACE
a training function returning (w, b); called with -1/+1 labels; its points classified by
the returned weights, strict sign (end claim SEP); epoch budget max_iter = 100
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from ...errors import InputError
from ..boundary.calls import HookError, call_hook, defined_at, hook_error, returned
from ..boundary.limits import DEFAULT_TIME_LIMIT, RunTimeout, time_limit
from .budget import (
    knob_candidates,
)
from .randomness import seeded
from .reading import (
    BUDGET_NAMES,
    ORIGIN_X,
    ORIGIN_Y,
    PROBE_X,
    PROBE_Y,
    Reading,
    budget_of,
    chance_of,
    knob_of,
    probes_learned,
    probing,
    same_predictor,
    size_of,
    stops_at_zero,
)

__all__ = ["TrainingFunction", "functions_learn", "is_training_function", "read_function"]

# A second separable probe (threshold x2 = 2, another dimension's role and 7 points):
# a reading that fits the first probe by accident does not fit both.
_PROBE2_X = np.array(
    [[0, 3, 0], [1, 3, -1], [-1, 4, 2], [2, 5, 0], [0, 1, 0], [1, 0, 1], [-2, 1, 1]],
    dtype=np.float64,
)
_PROBE2_Y = np.array([1, 1, 1, 1, -1, -1, -1])
# A third, whose bias is positive (x3 < 1/2 is the positive side): a returned counter or
# a sentinel that classifies the first two as a "bias" does not classify all three.
_PROBE3_X = np.array(
    [[1, 2, 0], [-1, 0, -1], [2, -1, 0], [0, 1, -2], [1, 0, 2], [0, -1, 1], [-2, 1, 3]],
    dtype=np.float64,
)
_PROBE3_Y = np.array([1, 1, 1, 1, -1, -1, -1])
#: The probes that need a bias, the first one the class reading's.
_BIASED = ((PROBE_X, PROBE_Y), (_PROBE2_X, _PROBE2_Y), (_PROBE3_X, _PROBE3_Y))
# A second through-origin probe (u = (-1, 2, 1), no bias), for a function with no bias.
_ORIGIN2_X = np.array(
    [[0, 1, 0], [1, 0, 0], [0, 0, 1], [3, 1, 0], [1, -1, 1], [-1, 1, -1], [1, 2, -1]],
    dtype=np.float64,
)
_ORIGIN2_Y = np.array([1, -1, 1, -1, -1, 1, 1])
#: The probes through the origin, for a function with no bias term.
_ORIGIN = ((ORIGIN_X, ORIGIN_Y), (_ORIGIN2_X, _ORIGIN2_Y))
#: the one-point probe of sign(0): ``(x, +1)`` from zero weights has the score 0
_ZERO_X = np.array([[1, 0, 0]], dtype=np.float64)


def _signature(obj: Any) -> inspect.Signature | None:
    if inspect.isclass(obj) or not callable(obj):
        return None
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None


def _required(sig: inspect.Signature) -> list[str]:
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in sig.parameters.values() if p.kind in kinds and p.default is p.empty]


def is_training_function(obj: Any, spec: str | None = None) -> bool:
    """True for a function ``f(X, y, ...)``: two required positional parameters, every
    other with a default.  A function that needs more is refused (``InputError`` naming
    them); a class or a zero-argument factory is not a training function."""
    sig = _signature(obj)
    if sig is None:
        return False
    need = _required(sig)
    if not need:
        return False
    name = spec or getattr(obj, "__name__", "the function")
    if len(need) != 2:
        given = ", ".join(need)
        hint = " ".join(f"--param {n}=VALUE" for n in need[2:])
        taken = (
            f"; {need[0]} and {need[1]} taken for the points and their labels"
            if len(need) > 2
            else ""
        )
        raise InputError(
            f"{name}: a function of {len(need)} required parameter(s) ({given}); "
            "expected a class, a zero-argument factory or a training function f(X, y, ...) "
            "whose other parameters have defaults"
            + (f" (give the others: {hint}{taken})" if hint else "")
        )
    kw_only = [
        p.name
        for p in sig.parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is p.empty
    ]
    if kw_only:
        raise InputError(
            f"{name}: keyword-only parameter(s) without a default ({', '.join(kw_only)}); "
            "expected a training function f(X, y, ...) whose other parameters have defaults "
            f"(give them: {' '.join(f'--param {n}=VALUE' for n in kw_only)})"
        )
    return True


class TrainingFunction:
    """A training function as a ``fit(X, y)`` object (see the module docs).  ``how``:
    its reading (what it returns; ``predict`` needs it)."""

    #: names the adapter keeps for itself: a parameter of the same name keeps its default
    _OWN = frozenset({"fit", "predict", "function", "how", "returned", "items_", "X_", "signs_"})

    @property
    def user_function(self) -> Callable[..., Any]:
        """The user's function under the check's wrappers (its module constants are its
        code's globals; a literal budget is set in its code)."""
        inner: Callable[..., Any] = inspect.unwrap(self.function)
        return inner

    def __init__(self, function: Callable[..., Any], how: Reading | None = None) -> None:
        self.function = function
        self.how = how
        sig = _signature(function)
        self._defaults: dict[str, Any] = {}
        if sig is not None:
            for p in list(sig.parameters.values())[2:]:
                own = p.name in self._OWN or p.name.startswith(("_", "returned"))
                if p.default is not p.empty and p.name.isidentifier() and not own:
                    self._defaults[p.name] = p.default
                    setattr(self, p.name, p.default)

    def fit(self, X: Any, y: Any) -> TrainingFunction:
        """Call the function (its parameters that were changed, such as the epoch budget,
        passed by name) and keep what it returns."""
        kw = {n: getattr(self, n) for n, v in self._defaults.items() if getattr(self, n) is not v}
        name = getattr(self.function, "__name__", "function")
        call = functools.partial(self.function, **kw) if kw else self.function
        out = call_hook(call, name, X, y)
        items = _items(out)
        if items is None:
            raise HookError(
                returned(self.function, name, out, "w, (w, b) or (b, w): the learned weights")
            )
        for k in [k for k in vars(self) if k.startswith("returned")]:
            delattr(self, k)
        self.returned = items[0] if len(items) == 1 else out
        self.items_ = items
        for i, v in enumerate(items):
            setattr(self, f"returned_{i}", v)
        self.X_ = np.asarray(X, dtype=np.float64)
        self.signs_ = np.where(np.asarray(y) > 0, 1, -1)
        return self

    def predict(self, X: Any) -> Any:
        """The answers of the predictor beside the function where it has one
        (:mod:`.beside`); else +1/-1 by the sign of the returned weights' exact score
        (0: +1 or -1 when the function takes a score of 0 as that class, else neither)."""
        assert self.how is not None
        if self.how.beside is not None:
            return self.how.beside.answer(self, X)
        w, b = self.how.predictor(self)
        zero = self.how.zero
        points = np.asarray(X, dtype=np.float64).reshape(len(X), -1)
        if len(w) != points.shape[1]:
            name = getattr(self.function, "__name__", "function")
            raise HookError(
                f"{name}() returned {len(w)} weight(s){defined_at(self.function)} (read as "
                f"{self.how.returns}); expected {points.shape[1]} (one per coordinate of the "
                "points)"
            )
        out = []
        for x in points:
            s = sum((a * Fraction(float(v)) for a, v in zip(w, x, strict=True)), b)
            out.append(1 if s > 0 else -1 if s < 0 else zero)
        return np.array(out)


def _scalar(v: Any) -> bool:
    return isinstance(v, int | float | np.number) or (isinstance(v, np.ndarray) and v.ndim == 0)


def _items(out: Any) -> list[Any] | None:
    """What the function returned, as values: one vector, or the items of a tuple."""
    if out is None or isinstance(out, str | bytes | dict):
        return None
    if isinstance(out, tuple | list):
        if not out:
            return None
        if all(_scalar(v) for v in out):
            return [np.asarray(out, dtype=np.float64)]
        return list(out)
    return [out]


# --- reading what it returns ------------------------------------------------------------------


def _shapes(items: Sequence[Any], d: int, n: int) -> list[tuple[Reading, str]]:
    """Every reading the returned values' sizes allow, the most natural first, with the
    words that say it."""
    sizes = [size_of(v) for v in items]
    single = len(items) == 1
    out: list[tuple[Reading, str]] = []

    def words(parts: dict[int, str]) -> str:
        if single:
            return parts[0]
        return "(" + ", ".join(parts.get(i, "_") for i in range(len(items))) + ")"

    def name(i: int) -> str:
        return "returned" if single else f"returned_{i}"

    base = Reading("", None)
    for i, size in enumerate(sizes):
        if size == d:
            for j, s in enumerate(sizes):
                if j != i and s == 1:
                    out.append(
                        (replace(base, weights=name(i), bias=name(j)), words({i: "w", j: "b"}))
                    )
            out.append((replace(base, weights=name(i), bias=None), words({i: "w"})))
        if size == d + 1:
            one = "(b, w) in one vector" if single else "(b, w)"
            out.append((replace(base, weights=name(i), bias="first"), words({i: one})))
            one = "(w, b) in one vector" if single else "(w, b)"
            out.append((replace(base, weights=name(i), bias="last"), words({i: one})))
        if size == n:
            dual = (name(i), "signs_", "X_")
            alpha = "alpha (w = sum_i alpha_i y_i x_i)"
            for j, s in enumerate(sizes):
                if j != i and s == 1:
                    r = replace(base, weights=name(i), bias=name(j), dual=dual)
                    out.append((r, words({i: alpha, j: "b"})))
            out.append((replace(base, weights=name(i), bias=None, dual=dual), words({i: alpha})))
    return out


def _classifies(r: Reading, fitted: TrainingFunction, X: np.ndarray, y: np.ndarray) -> bool:
    """The reading's weights classify every training point: strictly, or with a score of
    0 taken as +1, or as -1 (a 0/1 function whose step is ``score > 0``)."""
    try:
        w, b = r.predictor(fitted)
    except (TypeError, ValueError, IndexError, AttributeError):
        return False
    if len(w) != X.shape[1]:
        return False
    scores = [sum((a * Fraction(float(v)) for a, v in zip(w, x, strict=True)), b) for x in X]
    strict = all(t * s > 0 for t, s in zip(y, scores, strict=True))
    zero_plus = all((s >= 0) == (t > 0) for t, s in zip(y, scores, strict=True))
    zero_minus = all((s > 0) == (t > 0) for t, s in zip(y, scores, strict=True))
    return strict or zero_plus or zero_minus


def _fit(
    function: Callable[..., Any],
    budget: tuple[str, int] | None,
    X: np.ndarray,
    y: np.ndarray,
) -> TrainingFunction:
    made = TrainingFunction(function)
    if budget is not None:
        setattr(made, budget[0], budget[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        made.fit(X.copy(), y.copy())
    return made


def read_function(
    function: Callable[..., Any],
    *,
    bias: str | None = None,
    labels: str = "auto",
    epochs: int | None = None,
    limit: float | None = DEFAULT_TIME_LIMIT,
) -> Reading:
    """Read what the training function returns (see the module docs); ``bias``
    (``"first"``, ``"last"`` or ``"none"``: where the bias is, in one vector or a pair),
    ``labels`` and ``epochs`` as for classes.  Raises ``InputError`` naming the problem
    when it cannot be read."""
    name = getattr(function, "__name__", "function")
    if bias not in (None, "first", "last", "none"):
        raise InputError(
            f"--bias {bias}: a training function returns its weights; --bias first, last or "
            "none says where the bias is in what it returns"
        )
    codings = {"pm1": [(-1, 1)], "01": [(0, 1)], "auto": [(-1, 1), (0, 1)]}
    if labels not in codings:
        raise InputError(f"labels must be 'pm1', '01' or 'auto', got {labels!r}")
    with seeded(0):  # a function that draws from the global state: read alike every time
        return _read_seeded(function, bias, labels, codings, epochs, name, limit)


def _read_seeded(
    function: Callable[..., Any],
    bias: str | None,
    labels: str,
    codings: dict[str, list[tuple[int, int]]],
    epochs: int | None,
    name: str,
    limit: float | None,
) -> Reading:
    budget = budget_of(TrainingFunction(function))
    if epochs is not None and budget is not None:
        budget = (budget[0], epochs)
    reading = _read(function, bias, labels, codings, budget, name, limit)
    made = functools.partial(TrainingFunction, function, reading)
    if reading.budget is None:  # any other parameter or constant that behaves as one
        reading = knob_of(reading, made, limit)
    made = functools.partial(TrainingFunction, function, reading)
    if reading.zero == -1:  # does it stop with a negative point at a score of 0?
        reading = replace(reading, stops_at_zero=stops_at_zero(reading, made, limit))
    reading = replace(reading, chance=chance_of(reading, made, limit))
    if epochs is not None:
        if reading.budget is None:
            raise InputError(
                f"epochs={epochs}: {name}() has no epoch budget: no parameter or module "
                "constant bounds its training (max_iter, n_iter, epochs, ... by name; any other "
                "integer when raising it lets it finish a case that needs more passes)"
            )
        reading = replace(reading, budget=(reading.budget[0], epochs))
    return reading


def _read(
    function: Callable[..., Any],
    bias: str | None,
    labels: str,
    codings: dict[str, list[tuple[int, int]]],
    budget: tuple[str, int] | None,
    name: str,
    limit: float | None,
) -> Reading:
    tries: list[tuple[str, int] | None] = (
        [budget] if budget is None else [budget, (budget[0], max(2 * budget[1], 1000))]
    )
    if budget is None:  # a budget under another name may be too small to learn the probes
        knobs = knob_candidates(TrainingFunction(function), BUDGET_NAMES, frozenset())
        tries += [(k.name, max(2 * k.value, 1000)) for k in knobs if k.kind == "attribute"][:4]
    first: tuple[list[tuple[Reading, str]], TrainingFunction, tuple[int, int]] | None = None
    origin_first = None
    # with no budget at all, a fit on the 8-point probe that needs a bias is given the
    # per-run limit, not five: one with no bias term never ends there
    endless = limit if budget is None and len(tries) == 1 else None
    try:
        with probing(limit):
            if bias != "none":
                try:
                    with time_limit(endless):
                        found, first = _read_on(
                            _BIASED, function, codings[labels], tries, bias, name
                        )
                except RunTimeout:
                    raise HookError(f"{name}() did not return in {endless:g} s") from None
                if found is not None:
                    return found
            # no reading classifies data that need a bias: one with no bias term is read
            # through the origin (the theorem's own setting)
            found, origin_first = _read_on(_ORIGIN, function, codings[labels], tries, bias, name)
            first = first or origin_first
            if found is not None and found.bias is None and not _frozen_bias(first, origin_first):
                return replace(found, origin=True)
    except Exception as exc:
        if isinstance(exc, HookError) and not isinstance(exc.__cause__, Exception):
            if bias != "none" and origin_first is None and "did not return" in str(exc):
                # a loop with no budget that never ends on data that need a bias: one with
                # no bias term, read through the origin where it learns those data
                found = _origin_after(function, codings[labels], tries, bias, name, limit)
                if found is not None:
                    return found
            # (it returned what cannot be read, or did not return): a question, exit 2
            raise InputError(f"{name}() fails on a separable 8-point probe: {exc}") from None
        # the user's code raises on valid data: a finding (RUNS), the probe checked first
        said = (str(exc) if isinstance(exc, HookError) else hook_error(name, exc)).splitlines()[0]
        probe = (
            f"{name}() raises on a separable 8-point probe ({said}): checked first, as a "
            "fixed example"
        )
        small = _read_small(function, codings[labels], tries, bias, name, limit)
        if small is not None:  # what it returns, read where it does not raise
            return replace(small, probe=probe)
        return Reading("returned", None, budget=budget, returns="w", zero=0, probe=probe)
    assert first is not None
    shapes, fitted, coding = first
    origin = bias == "none" or (bool(shapes) and shapes[0][0].bias is None)
    if origin and origin_first is not None and origin_first[0]:
        shapes, fitted, coding = origin_first  # no bias term: its verdict through the origin
    if not shapes:
        raise InputError(
            f"{name}() returned {_shown(fitted.returned)} on an 8-point probe in 3 dimensions; "
            "expected w (3 numbers), (w, b), (b, w), one vector of 4 with the bias first or "
            "last, or dual coefficients (8 numbers)" + (f" (with --bias {bias})" if bias else "")
        )
    reading, words = shapes[0]  # a verdict: the probe is the counterexample
    probe = (
        "the probe fit's returned weights misclassify its own separable training points "
        "under every reading (checked first, as a fixed example)"
    )
    return replace(
        reading, fit_labels=coding, budget=budget, returns=words, zero=0, probe=probe, origin=origin
    )


def _origin_after(
    function: Callable[..., Any],
    codings: Sequence[tuple[int, int]],
    tries: Sequence[tuple[str, int] | None],
    bias: str | None,
    name: str,
    limit: float | None,
) -> Reading | None:
    """The reading through the origin of a function whose fit did not return on the
    probe that needs a bias: where it learns the through-origin probes with no bias
    term; else None."""
    try:
        with probing(limit):
            found, _ = _read_on(_ORIGIN, function, codings, tries, bias, name)
    except Exception:  # (it does not learn those either: the question stands)
        return None
    if found is None or found.bias is not None:
        return None
    return replace(found, origin=True)


def _read_on(
    probes: Sequence[tuple[np.ndarray, np.ndarray]],
    function: Callable[..., Any],
    codings: Sequence[tuple[int, int]],
    tries: Sequence[tuple[str, int] | None],
    bias: str | None,
    name: str,
) -> tuple[Reading | None, Any]:
    """The reading whose weights classify the training points of every probe, in the
    first label coding that settles (or, none settling, the first that classifies);
    with what the first probe fit returned, for the messages."""
    budget = tries[0]
    first = None
    unsettled: tuple[Reading, tuple[str, int] | None] | None = None
    (X, Y), rest = probes[0], probes[1:]
    origin = all(not _needs_bias(p) for p in probes)
    for neg, pos in codings:
        y = np.where(Y > 0, pos, neg)
        try:
            for size in tries:
                fitted = _fit(function, size, X, y)
                shapes = _filtered(_shapes(_items_of(fitted), X.shape[1], len(X)), bias)
                if first is None:
                    first = (shapes, fitted, (neg, pos))
                good = [(r, t) for r, t in shapes if _classifies(r, fitted, X, Y)]
                for X2, Y2 in rest:
                    if not good:
                        break
                    again = _fit(function, size, X2, np.where(Y2 > 0, pos, neg))
                    good = [(r, t) for r, t in good if _classifies(r, again, X2, Y2)]
                if origin and any(r.bias is None for r, _ in good):
                    good = [(r, t) for r, t in good if r.bias is None]  # no bias, as learned
                if not good:
                    continue
                chosen, words = _one(good, fitted, name)
                reading = replace(chosen, fit_labels=(neg, pos), budget=budget, returns=words)
                if _settled(function, reading, size, fitted, X, y):  # its own coding
                    return replace(reading, zero=_zero(function, reading, size)), first
                if unsettled is None:
                    unsettled = (reading, size)
                break  # another coding may settle
        except Exception as exc:
            ours = isinstance(exc, InputError) and not isinstance(exc, HookError)
            if ours or first is None:
                raise
            # a later coding it raises on (0 where it expects -1): not its coding
    if unsettled is not None:  # no coding settles: the first that classifies
        reading, size = unsettled
        return replace(reading, zero=_zero(function, reading, size)), first
    return None, first


#: Two-point probes (n = 2 tells the points from the dimension, 3, and from d + 1): what
#: a function that raises on the 8-point probe returns is read on them -- two points on
#: one ray from the origin, their labels different (only a bias separates them), and
#: through the origin.
_SMALL = (
    (np.array([[1, 0, 0], [3, 0, 0]], dtype=np.float64), np.array([-1, 1])),
    (np.array([[0, 1, 1], [0, 2, 2]], dtype=np.float64), np.array([1, -1])),
)
_SMALL_ORIGIN = (
    (np.array([[1, 0, 0], [0, -1, 0]], dtype=np.float64), np.array([1, -1])),
    (np.array([[0, 0, 2], [-1, 1, 0]], dtype=np.float64), np.array([1, -1])),
)


def _read_small(
    function: Callable[..., Any],
    codings: Sequence[tuple[int, int]],
    tries: Sequence[tuple[str, int] | None],
    bias: str | None,
    name: str,
    limit: float | None,
) -> Reading | None:
    """The reading of a function that raises on the probes, found on two-point probes
    (its error on the larger one stays a finding); None when it raises there too."""
    first = None
    for probes in (() if bias == "none" else _SMALL, _SMALL_ORIGIN):
        if not probes:
            continue
        try:
            with probing(limit):
                found, again = _read_on(probes, function, codings, tries, bias, name)
        except Exception:  # (it raises there too: the runs say what it returns)
            continue
        if found is not None:
            return replace(found, origin=found.bias is None) if probes is _SMALL_ORIGIN else found
        first = first or again
    if first is None or not first[0]:
        return None
    (reading, words), coding = first[0][0], first[2]  # none classifies: the most natural
    assert isinstance(reading, Reading)
    return replace(reading, fit_labels=coding, budget=tries[0], returns=words, zero=0)


def functions_learn(function: Callable[..., Any], limit: float | None) -> set[int]:
    """The separable probes (0: with a bias, 1: through the origin, 2: two points on a
    ray) on which what ``function`` returns (labels -1/+1 or 0/1), read in any way its
    shape allows, classifies the training points (:func:`~.reading.probes_learned`)."""

    def learns(X: np.ndarray, Y: np.ndarray, y: np.ndarray) -> bool:
        fitted = _fit(function, None, X, y)
        shapes = _shapes(_items_of(fitted), X.shape[1], len(X))
        return any(_classifies(r, fitted, X, Y) for r, _ in shapes)

    return probes_learned((*_BIASED[:1], *_ORIGIN[:1], *_SMALL[:1]), learns, limit)


def _frozen_bias(first: Any, origin_first: Any = None) -> bool:
    """Whether the fit on data that need a bias returned a bias slot that never moved: a
    single number, exactly 0, beside the weights, and exactly 0 on the fit through the
    origin too (a bias frozen at 0 is a function with a bias term that does not update
    it, not one through the origin; a count that is 0 where the fit did not converge and
    1 where it did -- ``(w, accuracies, converged_at)`` -- is no bias)."""
    if first is None:
        return False
    _, fitted, _ = first
    items = _items_of(fitted)
    if len(items) < 2:
        return False
    there = _items_of(origin_first[1]) if origin_first is not None else None
    for j, v in enumerate(items):
        if size_of(v) != 1 or _first_number(v) != 0.0:
            continue
        if there is None or len(there) != len(items) or size_of(there[j]) != 1:
            return True
        if _first_number(there[j]) == 0.0:
            return True
    return False


def _first_number(v: Any) -> float:
    return float(np.ravel(np.asarray(v, dtype=np.float64))[0])


def _needs_bias(probe: tuple[np.ndarray, np.ndarray]) -> bool:
    through = (ORIGIN_X, _ORIGIN2_X, *(X for X, _ in _SMALL_ORIGIN))
    return all(probe[0] is not X for X in through)


def _settled(
    function: Callable[..., Any],
    reading: Reading,
    size: tuple[str, int] | None,
    fitted: TrainingFunction,
    X: np.ndarray,
    y: np.ndarray,
) -> bool:
    """The reading's predictor on the probe does not change with twice the epochs: the
    labels are the function's own (a function given labels in another coding keeps
    updating on points it classifies right).  Without an epoch budget: True."""
    if size is None:
        return True
    more = _fit(function, (size[0], 2 * size[1]), X, y)
    try:
        w, b = reading.predictor(fitted)
        w2, b2 = reading.predictor(more)
    except (TypeError, ValueError, IndexError, AttributeError):
        return False
    return same_predictor([*w, b], [*w2, b2])


def _items_of(fitted: TrainingFunction) -> list[Any]:
    return list(fitted.items_)


def _filtered(shapes: list[tuple[Reading, str]], bias: str | None) -> list[tuple[Reading, str]]:
    """The readings ``--bias`` allows: ``first``/``last`` where the bias is, ``none``."""
    if bias is None:
        return shapes
    if bias == "none":
        return [(r, t) for r, t in shapes if r.bias is None]
    out = []
    for r, t in shapes:
        if r.bias == bias:
            out.append((r, t))
        elif r.bias is not None and r.bias.startswith("returned_"):
            b_first = int(r.bias.rsplit("_", 1)[1]) < int(r.weights.rsplit("_", 1)[1])
            if b_first == (bias == "first"):
                out.append((r, t))
    return out


def _one(
    good: list[tuple[Reading, str]], fitted: TrainingFunction, name: str
) -> tuple[Reading, str]:
    """The one predictor the readings that classify the probes give."""
    chosen, words = good[0]
    w, b = chosen.predictor(fitted)
    for other, other_words in good[1:]:
        w2, b2 = other.predictor(fitted)
        if not same_predictor([*w, b], [*w2, b2]):
            raise InputError(
                f"ambiguous: what {name}() returns classifies the probes read as {words} and "
                f"as {other_words}, two different predictors; say where the bias is with "
                "--bias first|last|none (bias= in Python)"
            )
    return chosen, words


def _zero(function: Callable[..., Any], reading: Reading, budget: tuple[str, int] | None) -> int:
    """+1 when the function makes no update on one point ``(x, +1)`` whose score is 0
    (it takes a score of 0 as +1); -1 when it makes none on ``(x, -1)`` but one on
    ``(x, +1)`` (a score of 0 is the negative class: a 0/1 step ``score > 0``); else 0
    (the strict sign).  From zero weights the point is ``(1, 0, 0)``; from a start of its
    own (random weights) with a bias starting at 0, the zero point, whose score is that
    bias: its bias after the fit is still 0 for one label and not for the other."""

    def fitted(label: int, X: np.ndarray) -> list[Any]:
        with seeded(0):  # (a random start: the same one each time)
            made = _fit(function, budget, X, np.array([label]))
        w, b = reading.predictor(made)
        return [*w, b]

    neg, pos = reading.fit_labels
    try:
        plus = fitted(pos, _ZERO_X)
        if not any(plus):
            return 1
        minus = fitted(neg, _ZERO_X)
        if not any(minus):
            return -1
        if reading.bias is None:
            return 0  # (a start of its own and no bias: no point of score 0 to probe)
        zero = np.zeros_like(_ZERO_X)
        b_plus, b_minus = fitted(pos, zero)[-1], fitted(neg, zero)[-1]
        if b_plus == 0 != b_minus:
            return 1
        if b_minus == 0 != b_plus:
            return -1
        return 0
    except Exception:  # a function that does not take one point: the strict sign
        return 0


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
