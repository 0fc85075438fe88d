"""A trajectory seen one budget at a time, and where it leaves the algorithm.

Where a fit's weights cannot be watched while it runs (a training function's local
variables, a compiled class), it is fitted again with its budget knob set to 0, 1, 2, ...
(an epoch, a round or an update each -- whatever the knob counts): the weights each fit
returns are its trajectory at that granularity (:func:`watch_budgets`).  Between two
budgets it may have made several updates, unseen.  A change is the algorithm's when some
sequence of the algorithm's updates -- each on a point misclassified when it is made, in
any order, at most one per point per change -- leads from one state to the next
(:func:`reach`).  The first change that is not is named by a *mistaken rule*: the
algorithm with one mistake of the vocabulary (:func:`_mistakes`) whose updates reproduce
it, and go on reproducing the changes after it; where none, or several different ones,
do, the change is "cause not identified".

>>> from fractions import Fraction as F
>>> X, y = [(F(1), F(1)), (F(2), F(1))], [1, -1]          # points (x, 1): a bias, last
>>> rule, start = Rule(eta=F(1), bias=True), (F(0), F(0))
>>> # two passes that subtract y x at the point misclassified (point 1, both times)
>>> d = budget_divergence(X, y, rule, start, [(F(-1), F(-1)), (F(-2), F(-2))], True)
>>> d.mechanism
'sign-reversed'
>>> # a pass that adds y x at point 1, then at point 2: the algorithm's
>>> budget_divergence(X, y, rule, start, [(F(1), F(1)), (F(-1), F(0))], False).mechanism
'follows'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .mechanism import MECHANISMS, Divergence, Rule, first_divergence, vector_text

__all__ = ["Mistake", "budget_divergence", "reach", "reference_passes", "watch_budgets"]

Vec = tuple[Fraction, ...]
#: A path: ``(point, weights before, weights after)`` at each update.
Path = list[tuple[int, Vec, Vec]]

#: At most this many states are explored to explain one change.
NODES = 20_000
#: After the first divergent change, at most this many changes are read for evidence.
EVIDENCE = 20
#: The budgets tried: 0, 1, ..., at most this many.
BUDGETS = 60


def _dot(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


@dataclass(frozen=True)
class Mistake:
    """The algorithm with one mistake: ``fires(m, y, j)`` says whether the point ``j``
    (score ``m = y w.x``) is updated, ``adds(x, y)`` what is added (before the step)."""

    mechanism: str
    fires: Callable[[Fraction, int, int], bool]
    adds: Callable[[Vec, int], Vec]
    detail: str = ""


def _mistakes(rule: Rule, width: int) -> list[Mistake]:
    """The mistaken rules tried (those that need a bias only where there is one)."""

    def wrong(m: Fraction, y: int, j: int) -> bool:
        return rule.misclassified(m, j)

    def yx(x: Vec, y: int) -> Vec:
        return tuple(y * v for v in x)

    out = [
        Mistake("sign-reversed", wrong, lambda x, y: tuple(-y * v for v in x)),
        Mistake("label-ignored", wrong, lambda x, y: tuple(x)),
        Mistake("tie-not-updated", lambda m, y, j: m < rule.tau, yx),
        Mistake("missed-update", lambda m, y, j: wrong(m, y, j) and y > 0, yx, "label -1"),
        Mistake("missed-update", lambda m, y, j: wrong(m, y, j) and y < 0, yx, "label +1"),
        Mistake("update-on-correct", lambda m, y, j: True, yx, "every point visited"),
        Mistake("update-on-correct", lambda m, y, j: not wrong(m, y, j), yx, "only"),
    ]
    if rule.bias:
        out.append(
            Mistake("bias-frozen", wrong, lambda x, y: (*(y * v for v in x[:-1]), Fraction(0)))
        )
        out.append(
            Mistake("bias-wrong-sign", wrong, lambda x, y: (*(y * v for v in x[:-1]), -y * x[-1]))
        )
    for i in range(width - (1 if rule.bias else 0)):
        if width - (1 if rule.bias else 0) < 2:
            break

        def ignoring(x: Vec, y: int, i: int = i) -> Vec:
            return tuple(Fraction(0) if c == i else y * v for c, v in enumerate(x))

        out.append(Mistake("coordinates-ignored", wrong, ignoring, f"coordinate {i + 1}"))
    return out


def _same(a: Vec, b: Vec, tol: Fraction) -> bool:
    if tol == 0:
        return a == b
    scale = max((abs(v) for v in (*a, *b)), default=Fraction(0))
    return all(abs(p - q) <= tol * max(scale, Fraction(1)) for p, q in zip(a, b, strict=True))


def reach(
    X: Sequence[Vec],
    y: Sequence[int],
    fires: Callable[[Fraction, int, int], bool],
    adds: Callable[[Vec, int], Vec],
    eta: Fraction,
    start: Vec,
    target: Vec,
    tol: Fraction = Fraction(0),
) -> Path | None:
    """A sequence of at least one update, at most one per point, each on a point that
    ``fires`` when it is made, leading from ``start`` to ``target``; None when there is
    none (or more than :data:`NODES` states would have to be explored)."""
    n = len(X)
    frontier: list[tuple[Vec, frozenset[int], Path]] = [(tuple(start), frozenset(), [])]
    seen: set[tuple[Vec, frozenset[int]]] = set()
    explored = 0
    while frontier:
        nxt: list[tuple[Vec, frozenset[int], Path]] = []
        for w, used, path in frontier:
            for j in range(n):
                if j in used or not fires(y[j] * _dot(w, X[j]), y[j], j):
                    continue
                step = adds(X[j], y[j])
                after = tuple(a + eta * b for a, b in zip(w, step, strict=True))
                longer = [*path, (j, w, after)]
                if _same(after, target, tol):
                    return longer
                key = (after, used | {j})
                if key in seen:
                    continue
                seen.add(key)
                explored += 1
                if explored > NODES:
                    return None
                nxt.append((after, used | {j}, longer))
        frontier = nxt
    return None


def _classic(rule: Rule) -> Mistake:
    return Mistake(
        "follows", lambda m, y, j: rule.misclassified(m, j), lambda x, y: tuple(y * v for v in x)
    )


def _step(
    X: Sequence[Vec], y: Sequence[int], rule: Mistake, start: Vec, target: Vec, tol: Fraction
) -> Fraction | None:
    """The step with which ``rule``'s updates lead from ``start`` to ``target``: from a
    zero start a change is ``step`` times the sum of its updates' increments over the
    points it updated, so the step is the scale that makes one set's sum ``target`` (the
    set then checked to be updatable in some order); else the candidates
    ``|delta.x| / |x|^2``."""
    n = len(X)
    if not any(start):
        if n > 12:
            return None
        adds = [rule.adds(X[j], y[j]) for j in range(n)]
        for mask in range(1, 2**n):
            total = [Fraction(0)] * len(start)
            for j in range(n):
                if mask >> j & 1:
                    total = [a + b for a, b in zip(total, adds[j], strict=True)]
            ref = max(range(len(total)), key=lambda i: abs(total[i]))
            if total[ref] == 0:
                continue
            c = target[ref] / total[ref]
            if (
                c > 0
                and _same(tuple(c * v for v in total), target, tol)
                and reach(X, y, rule.fires, rule.adds, c, start, target, tol) is not None
            ):
                return c
        return None
    delta = tuple(a - b for a, b in zip(target, start, strict=True))
    for x in X:
        xx = _dot(x, x)
        if xx:
            c = abs(_dot(delta, x)) / xx
            if c and reach(X, y, rule.fires, rule.adds, c, start, target, tol):
                return c
    return None


def budget_divergence(
    X: Sequence[Vec],
    y: Sequence[int],
    rule: Rule,
    start: Vec,
    states: Sequence[Vec],
    ended: bool,
    budgets: Sequence[int] | None = None,
    knob: str = "budget",
) -> Divergence:
    """The first change (``states``: the weights after budgets 1, 2, ..., repeats
    dropped) that no sequence of the algorithm's updates explains, named by the mistaken
    rule that reproduces it and the most changes after it; ``"follows"`` when every
    change is the algorithm's and the run ends where it stops.  ``budgets``: the budget
    each state was returned at (default 1, 2, ...), ``knob`` its name."""
    at = list(budgets) if budgets is not None else list(range(1, len(states) + 1))
    eta = rule.eta
    classic = _classic(rule)
    if eta is None and states:
        eta = _step(X, y, classic, start, states[0], rule.tol)
    agreed: list[tuple[int, Vec]] = []
    prev = tuple(start)
    for k, target in enumerate(states):
        path = (
            reach(X, y, classic.fires, classic.adds, eta, prev, target, rule.tol)
            if eta is not None
            else None
        )
        if path is not None:
            agreed += [(j, after) for j, _, after in path]
            prev = tuple(target)
            continue
        d = _named(X, y, rule, eta, prev, states[k:], agreed, f"{knob} = {at[k]}")
        d.change = k + 1
        return d
    if ended:
        d = first_divergence(X, y, rule, prev, [], True)
        cycle = _cycle(X, y, rule, eta, prev, d, agreed, at[-1] if at else 0, knob)
        if cycle is not None:
            cycle.change = len(states)
            return cycle
        if d.mechanism != "follows":
            old = "after 0 update(s), every one the algorithm's,"
            new = f"after {len(agreed)} update(s), every change the algorithm's,"
            d.words, d.head = d.words.replace(old, new), d.head.replace(old, new)
            d.agreed = agreed
            return d
    return Divergence(
        "follows",
        f"{MECHANISMS['follows']} ({len(agreed)} update(s) seen over {knob} = 1 to "
        + f"{at[-1] if at else 0})"
        + (", and it stopped where the rule stops (no point triggers an update)" if ended else ""),
        None,
        None,
        prev,
        None,
        None,
        agreed,
    )


def _named(
    X: Sequence[Vec],
    y: Sequence[int],
    rule: Rule,
    eta: Fraction | None,
    prev: Vec,
    rest: Sequence[Vec],
    agreed: list[tuple[int, Vec]],
    budget: str,
) -> Divergence:
    """The divergent change (from ``prev`` to ``rest[0]``, returned with ``budget``),
    named by the mistaken rules that reproduce it and the most of the changes after it."""
    target = rest[0]
    update = len(agreed) + 1
    where = (
        f"with {budget} (after {len(agreed)} update(s) that the algorithm's updates explain): "
        f"from w = {vector_text(prev)} the algorithm's updates cannot reach "
        f"{vector_text(target)}, where this implementation is"
    )
    found: list[tuple[int, Mistake, Path, Fraction]] = []
    classic = _classic(rule)
    for mistake in _mistakes(rule, len(prev)):
        step = eta if eta is not None else _step(X, y, mistake, prev, target, rule.tol)
        if step is None:
            continue  # (the step unread: the first change is already not the algorithm's)
        path = reach(X, y, mistake.fires, mistake.adds, step, prev, target, rule.tol)
        if path is None:
            continue
        more, before = 0, tuple(target)
        for nxt in rest[1 : 1 + EVIDENCE]:  # the changes after it: the same mistake?
            if not (
                reach(X, y, mistake.fires, mistake.adds, step, before, nxt, rule.tol)
                or reach(X, y, classic.fires, classic.adds, step, before, nxt, rule.tol)
            ):
                break
            more, before = more + 1, tuple(nxt)
        found.append((more, mistake, path, step))
    best = max((m for m, _, _, _ in found), default=-1)
    kept = [(mi, p, st) for m, mi, p, st in found if m == best]
    names = {mi.mechanism for mi, _, _ in kept}
    if names == {"sign-reversed", "label-ignored"}:
        names = {"sign-or-label"}
    if len(names) != 1:
        told = f" (updates with any of {', '.join(sorted(names))} reproduce it)" if names else ""
        return Divergence(
            "unidentified",
            f"{where}, nor does any single mistake of the vocabulary explain it{told}: "
            + MECHANISMS["unidentified"],
            update,
            None,
            prev,
            None,
            tuple(a - b for a, b in zip(target, prev, strict=True)),
            agreed,
        )
    mech = names.pop()
    mistake, path, step = kept[0]
    j, before, after = _first_wrong(path, X, y, rule, step)
    expected = tuple(step * y[j] * v for v in X[j])
    added = tuple(a - b for a, b in zip(after, before, strict=True))
    m = y[j] * _dot(before, X[j])
    how = "misclassified" if rule.misclassified(m, j) else "classified correctly"
    head = (
        f"{where}; updates with this mistake reproduce it"
        + (f" and the {best} change(s) after it" if best else "")
        + f": at point {j + 1} (x = {vector_text(X[j])}, y = {y[j]}, {how}: y w.x = "
        + f"{vector_text((m,))[1:-1]}) it adds {vector_text(added)} where the algorithm "
        + f"{'adds ' + vector_text(expected) if how == 'misclassified' else 'adds nothing'}: "
    )
    extra = f" ({mistake.detail})" if mistake.detail and mech == "coordinates-ignored" else ""
    if mech == "missed-update":
        extra = f" (points with {mistake.detail.replace('label ', 'y = ')} are not updated)"
    return Divergence(
        mech, head + MECHANISMS[mech] + extra, update, j, before, expected, added, agreed, head
    )


def _cycle(
    X: Sequence[Vec],
    y: Sequence[int],
    rule: Rule,
    eta: Fraction | None,
    w: Vec,
    stopped: Divergence,
    agreed: list[tuple[int, Vec]],
    last: int,
    knob: str,
) -> Divergence | None:
    """Weights that stay the same from one budget to the next while a point is
    misclassified: the fit stopped -- or its updates within a pass cancel out, which the
    algorithm's never do on data a separator classifies (each adds at least gamma to
    u.w) but a mistaken rule's can.  When exactly one mechanism's updates lead from ``w``
    back to ``w``, it is named; else None (the fit is taken to have stopped)."""
    if eta is None and not any(w):
        eta = Fraction(1)  # (from w = 0 a path back to 0 is one at any step)
    if stopped.mechanism == "follows" or eta is None:
        return None
    found = [
        (mi, p)
        for mi in _mistakes(rule, len(w))
        if (p := reach(X, y, mi.fires, mi.adds, eta, w, w, rule.tol)) is not None
    ]
    names = {mi.mechanism for mi, _ in found}
    if len(names) != 1:
        return None
    mistake, path = found[0]
    mech = mistake.mechanism
    j, before, after = _first_wrong(path, X, y, rule, eta)
    expected = tuple(eta * y[j] * v for v in X[j])
    added = tuple(a - b for a, b in zip(after, before, strict=True))
    detail = f" ({mistake.detail})" if mech == "coordinates-ignored" else ""
    head = (
        f"after {len(agreed)} update(s) that the algorithm's updates explain, its weights "
        f"stay at w = {vector_text(w)} from one budget to the next up to {knob} = {last}, "
        f"with point {j + 1} misclassified: its updates in a pass cancel out (the "
        "algorithm's never do on data a separator classifies: each adds at least gamma to "
        f"u.w); updates with this mistake do: at point {j + 1} it adds {vector_text(added)} "
        f"where the algorithm adds {vector_text(expected)}: "
    )
    return Divergence(
        mech,
        head + MECHANISMS[mech] + detail,
        len(agreed) + 1,
        j,
        before,
        expected,
        added,
        agreed,
        head,
    )


def _first_wrong(
    path: Path, X: Sequence[Vec], y: Sequence[int], rule: Rule, eta: Fraction
) -> tuple[int, Vec, Vec]:
    """The first update of a mistaken path that is not the algorithm's (else its last)."""
    for j, before, after in path:
        legal = tuple(a + eta * y[j] * v for a, v in zip(before, X[j], strict=True))
        if after != legal or not rule.misclassified(y[j] * _dot(before, X[j]), j):
            return j, before, after
    return path[-1]


def reference_passes(
    X: Sequence[Vec], y: Sequence[int], rule: Rule, w: Vec, count: int
) -> list[Vec]:
    """The algorithm's weights after each of ``count`` cyclic passes from ``w`` (its
    trajectory one pass at a time, beside an implementation's seen one budget at a
    time)."""
    eta = rule.eta if rule.eta is not None else Fraction(1)
    out: list[Vec] = []
    for _ in range(count):
        for j in range(len(X)):
            if rule.misclassified(y[j] * _dot(w, X[j]), j):
                w = tuple(a + eta * y[j] * b for a, b in zip(w, X[j], strict=True))
        out.append(w)
    return out


def watch_budgets(
    fit_with: Callable[[int], Vec], most: int, seconds: float = 2.0
) -> tuple[Vec | None, list[tuple[int, Vec]], bool, int]:
    """The weights ``fit_with(b)`` returns for the budgets b = 0, 1, 2, ..., at most
    ``most`` (and :data:`BUDGETS`, and ``seconds``): ``(start, states, ended, last)``:
    the weights at budget 0 (None when a budget of 0 fails), the later ones with their
    budgets, repeats dropped, whether they stopped changing before the last budget tried
    (the fit stopped on its own), and the last budget tried."""
    import time

    t0 = time.monotonic()
    try:
        start: Vec | None = fit_with(0)
    except Exception:  # users' code refusing a budget of 0
        start = None
    states: list[tuple[int, Vec]] = []
    stable, b = 0, 0
    for b in range(1, min(most, BUDGETS) + 1):
        w = fit_with(b)
        last = states[-1][1] if states else start
        if last is not None and w == last:
            stable += 1
            if stable >= 2:
                return start, states, True, b
        else:
            stable = 0
            states.append((b, w))
        if time.monotonic() - t0 > seconds:
            break
    return start, states, False, b
