"""Where a trajectory leaves the algorithm, and the mechanism, in words.

A trajectory is the weights an implementation went through (its bias last, when it has
one), one :class:`Change` each time they moved.  The algorithm (:class:`Rule`) allows
one kind of change: on a point ``j`` that the weights ``w`` misclassify
(``y_j w.x_j <= tau``), add ``eta a_j y_j x_j``.  :func:`first_divergence` walks the
changes in lockstep with it -- any misclassified point may be chosen, so the visiting
order is the implementation's own -- and names the first change that is not such an
update, from a fixed vocabulary (:data:`MECHANISMS`), or the point it stopped on while
still misclassified.  A change that no mechanism explains is said to be so
(``"unidentified"``): a wrong name is worse than none.

>>> from fractions import Fraction as F
>>> X = [(F(2), F(1)), (F(3), F(1))]          # points (x, 1): a bias, last
>>> rule = Rule(eta=F(1))
>>> went = [Change(0, (F(2), F(1))), Change(1, (F(-1), F(0)))]  # subtracts y x, twice
>>> d = first_divergence(X, [-1, 1], rule, (F(0), F(0)), went, True)
>>> d.mechanism, d.update
('sign-reversed', 1)
>>> print(d.words)  # doctest: +NORMALIZE_WHITESPACE
update 1 at point 1 (x = (2, 1), y = -1, misclassified: y w.x = 0 <= 0):
the algorithm adds y x = (-2, -1), this implementation added (2, 1):
the update's sign is reversed
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = [
    "MECHANISMS",
    "Change",
    "Divergence",
    "Rule",
    "continue_from",
    "explained",
    "first_divergence",
    "vector_text",
]

Vec = tuple[Fraction, ...]

#: After a reversed update, at most this many further updates are read for evidence.
EVIDENCE = 40

#: The fixed vocabulary: mechanism id -> what it says (the words of a divergence end
#: with it).  "follows" and "unidentified" are not mistakes named: the first says the
#: trajectory is the algorithm's, the second that no mechanism explains the change.
MECHANISMS: dict[str, str] = {
    "sign-reversed": "the update's sign is reversed",
    "sign-or-label": (
        "the update went against y x: its sign is reversed, or it used another label than "
        "the point's own (the updates seen do not tell which)"
    ),
    "label-mismatch": (
        "the update used another label than the point's own (points of one label are "
        "updated both with and against y x)"
    ),
    "label-ignored": "the label was not applied: the update added x, not y x",
    "bias-frozen": "the bias did not change at an update",
    "bias-wrong-sign": "the bias moved by the wrong sign",
    "coordinates-ignored": "a coordinate was ignored: the update left it unchanged",
    "rate-changed": "the learning rate changed",
    "step-size": "the update is not the declared step",
    "update-on-correct": "an update on a point that was classified correctly",
    "not-applied": "the update was not applied: the weights did not move",
    "rounded": "the weights were rounded to integers",
    "overflow": "the weights wrapped around (an integer overflow)",
    "missed-update": "no update on a misclassified point",
    "tie-not-updated": (
        "no update on a point with a score of exactly 0 (a tie, which the algorithm "
        "counts as a mistake)"
    ),
    "follows": "every change is the algorithm's update",
    "unidentified": "cause not identified",
}


@dataclass(frozen=True)
class Change:
    """The weights after one observed change; ``j`` the point it was made on, when the
    observation knows it (a variant's run does; a ``fit`` watched from outside does not)."""

    j: int | None
    after: Vec


@dataclass(frozen=True)
class Rule:
    """The algorithm the implementation claims: ``y w.x <= tau`` (``< tau`` on the points
    flagged ``strict``) triggers ``w <- w + eta a_j y x``.  ``eta=None``: the step is the
    implementation's own, read from its first update (a fit's learning rate).  ``tol``:
    the relative tolerance of a comparison (0: exact; a float implementation's updates
    are rounded).  ``strict_end``: the points that count as right at a score of exactly
    ``tau`` when the run ends (its own predictor's convention at a tie)."""

    eta: Fraction | None = Fraction(1)
    tau: Fraction = Fraction(0)
    factors: tuple[Fraction, ...] | None = None
    strict: tuple[bool, ...] | None = None
    strict_end: tuple[bool, ...] | None = None
    bias: bool = False
    tol: Fraction = Fraction(0)

    def factor(self, j: int) -> Fraction:
        return Fraction(1) if self.factors is None else self.factors[j]

    def misclassified(self, m: Fraction, j: int, *, end: bool = False) -> bool:
        flags = self.strict_end if end and self.strict_end is not None else self.strict
        strict = bool(flags[j]) if flags is not None else False
        return m < self.tau if strict else m <= self.tau


@dataclass
class Divergence:
    """The first place a trajectory leaves the algorithm (``mechanism`` one of
    :data:`MECHANISMS`; ``update`` the 1-based update, or None for the end of the run)."""

    mechanism: str
    words: str
    update: int | None = None
    point: int | None = None  # 0-based
    before: Vec = ()
    expected: Vec | None = None  # the algorithm's increment there
    added: Vec | None = None  # the implementation's
    #: the algorithm's updates agreed with, in order (the reference's path so far)
    agreed: list[tuple[int, Vec]] = field(default_factory=list)
    #: the words before the mechanism's (where, and both values)
    head: str = ""
    #: seen one budget at a time: the index of the divergent change in the trajectory
    #: (its start being 0); None where each change is one update (then it is ``update``)
    change: int | None = None

    @property
    def confident(self) -> bool:
        return self.mechanism not in ("unidentified", "follows")


def _show(v: Fraction) -> str:
    if v.denominator == 1:
        return str(v.numerator)
    f = float(v)
    return f"{v.numerator}/{v.denominator}" if v.denominator < 1000 else f"{f:.6g}"


def _vec(v: Sequence[Fraction]) -> str:
    return "(" + ", ".join(_show(Fraction(a)) for a in v) + ")"


def _dot(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def _close(a: Fraction, b: Fraction, tol: Fraction) -> bool:
    if tol == 0 or a == b:
        return a == b
    return abs(a - b) <= tol * max(abs(a), abs(b))


def _multiple(delta: Vec, v: Vec, tol: Fraction, coords: Sequence[int]) -> Fraction | None:
    """``c`` with ``delta[i] = c v[i]`` on ``coords`` (``v`` nonzero on one of them), else
    None."""
    ref = max(coords, key=lambda i: abs(v[i]), default=None)
    if ref is None or v[ref] == 0:
        return None
    c = delta[ref] / v[ref]
    scale = max((abs(delta[i]) for i in coords), default=Fraction(0))
    for i in coords:
        if v[i] == 0:
            if abs(delta[i]) > tol * scale and delta[i] != 0:
                return None
        elif not _close(delta[i], c * v[i], tol):
            return None
    return c


@dataclass(frozen=True)
class _Reading:
    """How one change relates to the update on point ``j``: ``kind`` is ``update``
    (``delta = c y x``, c > 0), ``reversed`` (c < 0), ``bias-frozen``,
    ``bias-wrong-sign``, ``coordinates-ignored`` (with ``ignored``), or ``none``."""

    kind: str
    j: int
    c: Fraction = Fraction(0)
    ignored: tuple[int, ...] = ()


def _read(delta: Vec, x: Vec, y: int, j: int, rule: Rule) -> _Reading:
    yx = tuple(y * v for v in x)
    every = range(len(x))
    c = _multiple(delta, yx, rule.tol, every)
    if c is not None and c != 0:
        return _Reading("update" if c > 0 else "reversed", j, abs(c))
    if rule.bias and len(x) > 1:
        front = range(len(x) - 1)
        c = _multiple(delta, yx, rule.tol, front)
        if c is not None and c > 0:
            b = delta[-1]
            if b == 0 or abs(b) <= rule.tol * c:
                return _Reading("bias-frozen", j, c)
            if _close(b, -c * yx[-1], rule.tol):
                return _Reading("bias-wrong-sign", j, c)
    # coordinates left unchanged, the others moved by c y x with c > 0
    still = [i for i in every if delta[i] == 0 and yx[i] != 0]
    moved = [i for i in every if i not in still]
    if still and any(delta[i] != 0 for i in moved):
        c = _multiple(delta, yx, rule.tol, moved)
        if c is not None and c > 0:
            return _Reading("coordinates-ignored", j, c, tuple(still))
    return _Reading("none", j)


_RANK = {"update": 0, "reversed": 1, "bias-wrong-sign": 2, "bias-frozen": 3}


def _explain(
    delta: Vec, w: Vec, j: int | None, X: Sequence[Vec], y: Sequence[int], rule: Rule
) -> _Reading:
    """The reading of a change: on its known point, else on the point that explains it
    best (an update on a misclassified point first)."""
    points = [j] if j is not None else range(len(X))
    best: tuple[tuple[int, int, int], _Reading] | None = None
    for i in points:
        r = _read(delta, X[i], y[i], i, rule)
        if r.kind == "none":
            continue
        wrong = rule.misclassified(y[i] * _dot(w, X[i]), i)
        key = (_RANK.get(r.kind, 4), 0 if wrong else 1, i)
        if best is None or key < best[0]:
            best = (key, r)
    return best[1] if best is not None else _Reading("none", -1 if j is None else j)


def _point(X: Sequence[Vec], y: Sequence[int], j: int, w: Vec, rule: Rule) -> str:
    m = y[j] * _dot(w, X[j])
    wrong = rule.misclassified(m, j)
    op = ("<" if m < rule.tau else "<=") if wrong else ">"
    how = "misclassified" if wrong else "classified correctly"
    return (
        f"point {j + 1} (x = {_vec(X[j])}, y = {y[j]}, {how}: "
        f"y w.x = {_show(m)} {op} {_show(rule.tau)})"
    )


def first_divergence(
    X: Sequence[Vec],
    y: Sequence[int],
    rule: Rule,
    start: Vec,
    changes: Sequence[Change],
    ended: bool,
) -> Divergence:
    """The first change that is not the algorithm's update, or, when every change is
    one, the point the run stopped on while misclassified (``ended``: the implementation
    returned on its own); ``"follows"`` when there is neither."""
    w = tuple(start)
    eta = rule.eta
    agreed: list[tuple[int, Vec]] = []
    readings: list[tuple[Vec, Vec, _Reading]] = []

    def read_up_to(k: int) -> None:  # each change read on its own weights, as needed
        while len(readings) < min(k, len(changes)):
            i = len(readings)
            prev = tuple(changes[i - 1].after) if i else tuple(start)
            delta = tuple(a - b for a, b in zip(changes[i].after, prev, strict=True))
            readings.append((prev, delta, _explain(delta, prev, changes[i].j, X, y, rule)))

    for k in range(1, len(changes) + 1):
        read_up_to(k)
        before, delta, r = readings[k - 1]
        w = before
        if r.kind == "update" and eta is None:
            eta = r.c / rule.factor(r.j)
        legal = (
            r.kind == "update"
            and rule.misclassified(y[r.j] * _dot(w, X[r.j]), r.j)
            and eta is not None
            and _close(r.c, eta * rule.factor(r.j), rule.tol)
        )
        if legal:
            agreed.append((r.j, tuple(before[i] + delta[i] for i in range(len(delta)))))
            continue
        numeric = _numeric(delta, w, r.j, X, y, rule, eta)
        if numeric is not None:
            mech, j, expected = numeric
            return Divergence(
                mech,
                f"update {k} at {_point(X, y, j, w, rule)}: the algorithm adds "
                f"{_vec(expected)}, this implementation added {_vec(delta)}: " + MECHANISMS[mech],
                k,
                j,
                w,
                expected,
                delta,
                agreed,
            )
        if r.kind == "none" or (
            r.kind == "reversed"
            and eta is not None
            and not _close(r.c, eta * rule.factor(r.j), rule.tol)
        ):
            return Divergence(
                "unidentified",
                f"update {k}: this implementation added {_vec(delta)}, which is not "
                f"{'a multiple of y x' if eta is None else _show(eta) + ' y x'} for any "
                "point, nor a known mistake: " + MECHANISMS["unidentified"],
                k,
                None,
                w,
                None,
                delta,
                agreed,
            )
        partial = r.kind in ("bias-frozen", "bias-wrong-sign", "coordinates-ignored")
        if partial and (
            not rule.misclassified(y[r.j] * _dot(w, X[r.j]), r.j)
            or (eta is not None and not _close(r.c, eta * rule.factor(r.j), rule.tol))
        ):
            # part of an update at another step, or on a point classified correctly: not
            # that mistake with confidence (a change seen once per pass may be several
            # of the algorithm's updates: (0.04, 0.01) + (-0.03, -0.01) = (0.01, 0))
            return Divergence(
                "unidentified",
                f"update {k}: this implementation added {_vec(delta)}, which is not "
                f"{'a multiple of y x' if eta is None else _show(eta) + ' y x'} for a "
                "misclassified point, nor a known mistake at that step: "
                + MECHANISMS["unidentified"],
                k,
                None,
                w,
                None,
                delta,
                agreed,
            )
        j = r.j
        step = (eta if eta is not None else r.c / rule.factor(j)) * rule.factor(j)
        expected = tuple(step * y[j] * v for v in X[j])
        head = f"update {k} at {_point(X, y, j, w, rule)}: the algorithm adds "
        head += f"{'y x' if step == 1 else _show(step) + ' y x'} = {_vec(expected)}, "
        head += f"this implementation added {_vec(delta)}: "
        wrong = rule.misclassified(y[j] * _dot(w, X[j]), j)
        mech = ""
        extra = ""
        if r.kind == "update" and not wrong:
            mech = "update-on-correct"
            head = (
                f"update {k} at {_point(X, y, j, w, rule)}: this implementation added "
                f"{_vec(delta)}: "
            )
            score = abs(y[j] * _dot(w, X[j]))
            if score >= 2**63:
                extra = " (its score is beyond 2^63: an int64 computation of it overflows)"
        elif r.kind == "update":
            if agreed:
                mech = "rate-changed"
                extra = f" at update {k} (from {_show(step)} to {_show(r.c)})"
            else:
                mech = "step-size"
                extra = f" ({_show(r.c)} y x where the rule declares {_show(step)} y x)"
        elif r.kind == "reversed":
            read_up_to(k + EVIDENCE)  # the updates after it tell a sign from a label
            mech = _reversed_or_label(readings, y, j)
        elif r.kind == "coordinates-ignored":
            mech = "coordinates-ignored"
            names = ", ".join(
                "the bias" if rule.bias and i == len(X[j]) - 1 else f"coordinate {i + 1}"
                for i in r.ignored
            )
            extra = f" ({names})"
        else:
            mech = r.kind
        return Divergence(
            mech, head + MECHANISMS[mech] + extra, k, j, w, expected, delta, agreed, head
        )
    w = tuple(changes[-1].after) if changes else tuple(start)
    if ended:
        left = [j for j in range(len(X)) if rule.misclassified(y[j] * _dot(w, X[j]), j, end=True)]
        if left:
            j = left[0]
            m = y[j] * _dot(w, X[j])
            mech = (
                "tie-not-updated"
                if all(y[i] * _dot(w, X[i]) == rule.tau for i in left)
                else ("missed-update")
            )
            head = (
                f"after {len(changes)} update(s), every one the algorithm's, it stopped with "
                f"{_point(X, y, j, w, rule)}: "
            )
            words = head + MECHANISMS[mech]
            if m == rule.tau and mech == "missed-update":
                words += " (its score is exactly the threshold: a tie)"
            return Divergence(mech, words, None, j, w, None, None, agreed, head)
    return Divergence(
        "follows",
        f"{MECHANISMS['follows']} ({len(changes)} update(s))"
        + (
            ", and it stopped where the rule stops (no point triggers an update)"
            if ended
            else "; its run was not seen to its end"
        ),
        None,
        None,
        w,
        None,
        None,
        agreed,
    )


def _numeric(
    delta: Vec, w: Vec, j: int, X: Sequence[Vec], y: Sequence[int], rule: Rule, eta: Fraction | None
) -> tuple[str, int, Vec] | None:
    """A change that is the algorithm's update gone wrong in its arithmetic: not applied
    (no move), rounded to integers, or wrapped around 2^32 or 2^64; on the change's
    point when known, else on a misclassified point.  ``(mechanism, point, increment)``."""
    if eta is None:
        return None
    points = (
        [j] if j >= 0 else [i for i in range(len(X)) if rule.misclassified(y[i] * _dot(w, X[i]), i)]
    )
    for i in points:
        step = eta * rule.factor(i) * y[i]
        expected = tuple(step * v for v in X[i])
        if not any(expected):
            continue
        exact = [a + b for a, b in zip(w, expected, strict=True)]
        got = [a + b for a, b in zip(w, delta, strict=True)]
        off = [e - g for e, g in zip(exact, got, strict=True)]
        integral = all(e.denominator == 1 for e in exact)
        if not any(delta) and integral:
            return "not-applied", i, expected
        for bits in (32, 64):
            if any(off) and all(o.denominator == 1 and o.numerator % 2**bits == 0 for o in off):
                return "overflow", i, expected
        if any(off) and all(g.denominator == 1 for g in got) and all(abs(o) < 1 for o in off):
            return "rounded", i, expected
    return None


def _reversed_or_label(
    readings: Sequence[tuple[Vec, Vec, _Reading]], y: Sequence[int], j: int
) -> str:
    """A reversed update: a reversed sign when the updates on both labels are reversed,
    an ignored label when those on y = +1 are right and those on y = -1 reversed, a label
    not the point's own when one label sees both; else not told apart."""
    kinds = {
        label: {r.kind for _, _, r in readings if r.j >= 0 and y[r.j] == label}
        & {"update", "reversed"}
        for label in (1, -1)
    }
    if any(k == {"update", "reversed"} for k in kinds.values()):
        return "label-mismatch"
    if kinds[1] == {"update"} and kinds[-1] == {"reversed"}:
        return "label-ignored"
    if kinds[1] == {"reversed"} and kinds[-1] == {"reversed"}:
        return "sign-reversed"
    return "sign-or-label"


def explained(
    X: Sequence[Vec], y: Sequence[int], rule: Rule, start: Vec, changes: Sequence[Change]
) -> int:
    """How many changes are the algorithm's updates or the same mistake as the first one
    that is not (the same kind, on the same coordinates): how well a way of cutting a
    run into changes fits it."""
    prev = tuple(start)
    first: tuple[str, tuple[int, ...]] | None = None
    count = 0
    for ch in changes:
        delta = tuple(a - b for a, b in zip(ch.after, prev, strict=True))
        r = _explain(delta, prev, ch.j, X, y, rule)
        prev = tuple(ch.after)
        if r.kind == "update":
            count += 1
        elif r.kind != "none":
            first = first or (r.kind, r.ignored)
            count += (r.kind, r.ignored) == first
    return count


def continue_from(
    X: Sequence[Vec], y: Sequence[int], rule: Rule, w: Vec, first: int, cap: int = 200
) -> list[tuple[int, Vec]]:
    """The algorithm from ``w``, visiting the points cyclically from ``first``, until a
    full pass makes no update (at most ``cap`` updates): ``(point, weights)`` each."""
    eta = rule.eta if rule.eta is not None else Fraction(1)
    out: list[tuple[int, Vec]] = []
    n, quiet, j = len(X), 0, first % max(1, len(X))
    while quiet < n and len(out) < cap:
        if rule.misclassified(y[j] * _dot(w, X[j]), j):
            step = eta * rule.factor(j) * y[j]
            w = tuple(a + step * b for a, b in zip(w, X[j], strict=True))
            out.append((j, w))
            quiet = 0
        else:
            quiet += 1
        j = (j + 1) % n
    return out


def vector_text(v: Sequence[Fraction]) -> str:
    """A vector as the report writes it.

    >>> vector_text((Fraction(1, 2), Fraction(-3)))
    '(1/2, -3)'
    """
    return _vec(v)
