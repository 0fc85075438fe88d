"""Slow is not wrong: what a run that ran out of time says (:func:`timed_out`).

A run interrupted by the per-run time limit fails ``ENDS`` only where that is a
verdict: the run is past the claimed bound (more updates than the claim allows), or the
case is one the classic algorithm settles in a handful of updates (at most
:data:`EASY_UPDATES`) **and** the theorem allows few (at most :data:`EASY_BOUND`): a loop
that never ends.  The second condition keeps implementations whose steps differ from the
classic algorithm's in size (a half step from 0, where ``sign(0) = 0`` and the update is
``(y - sign) x / 2``) out of it: on a case whose bias the classic algorithm cancels
exactly in two updates, such a step never cancels it and the run needs as many updates as
the theorem allows -- 10^22 on tiny coordinates -- correct, and slow.  Anywhere else the
run is *inconclusive* -- slow, not wrong -- and says how many updates the classic
algorithm needs on the case (computed by the engine) and how many the run made so far,
when that is known.

>>> from pla_proof.variants.protocol import Order, orthonormal_cases
>>> case = orthonormal_cases([3])[0]
>>> classic_updates(case, Order("cyclic"))
3
>>> prop, message = timed_out(case, Order("cyclic"), None, None, "no result after 5 s")
>>> prop, message.split(" and ")[0]
('ENDS', 'no result after 5 s on a case the classic algorithm settles in 3 update(s)')
"""

from __future__ import annotations

from fractions import Fraction

from ...errors import InputError
from ..protocol.claim import Claim, max_updates
from ..protocol.variant import Case, Order

__all__ = [
    "AT_DEADLINE",
    "EASY_BOUND",
    "EASY_UPDATES",
    "bound_from",
    "classic_updates",
    "theorem_bound",
    "timed_out",
]

#: A case the classic algorithm settles in at most this many updates is easy: a run
#: still going after the time limit there is a loop that never ends ...
EASY_UPDATES = 10
#: ... when the theorem's bound on it is at most this too: every correct Perceptron,
#: whatever its steps' sizes (within a factor rho of each other: rho^2 times as many
#: updates), then ends in a few thousand updates -- far within the per-run time limit.
EASY_BOUND = 1000
#: how the reason of a run cut off by the whole check's time limit begins
AT_DEADLINE = "the check's time limit came"


def through_origin(case: Case) -> Case:
    """The case as the classic algorithm takes it: a case separable with a bias
    (``params["theta"]``: ``u.x + theta``) augmented by a coordinate 1, else as it is."""
    theta = case.params.get("theta")
    if theta is None:
        return case
    X = tuple((*x, Fraction(1)) for x in case.X)
    return Case(X, case.y, (*case.u, Fraction(theta)), case.gamma, {}, case.name)


def theorem_bound(case: Case) -> int | None:
    """The theorem's bound on the case, ``floor(R^2 |u|^2 / gamma_u^2)`` (with a bias:
    on the augmented points).

    >>> from pla_proof.variants.protocol import orthonormal_cases
    >>> theorem_bound(orthonormal_cases([4])[0])
    4
    """
    case = through_origin(case)
    return max_updates(Claim(C=case.radius_squared, g=case.gamma, uu=case.uu))


#: the classic algorithm is run at most this many updates (beyond: "more than"), for at
#: most this many seconds (it is the checker's own work, after the run's time is up)
CLASSIC_CAP = 10**6
CLASSIC_SECONDS = 2.0


def classic_updates(case: Case, order: Order, budget: int | None = None) -> int | None:
    """The updates the classic algorithm makes on ``case`` in ``order`` (cyclic when
    the order is the variant's own), by the engine; ``None`` when it does not end within
    ``budget`` (default: one past the theorem's bound, at most :data:`CLASSIC_CAP`)."""
    from ...engine.drive import drive

    if budget is None:
        bound = theorem_bound(case)
        budget = CLASSIC_CAP if bound is None else min(bound + 1, CLASSIC_CAP)
    data = through_origin(case).dataset()
    try:
        rule = order.engine()
        dec = drive(data, order=rule, seed=order.seed, budget=budget, detect_cycles=False)
    except InputError:  # an order of picks the classic run would not make: cyclic instead
        dec = drive(data, order="cyclic", budget=budget, detect_cycles=False)
    return dec.updates if dec.status == "converged" else None


def _counted(case: Case, order: Order) -> tuple[int | None, str]:
    """The classic algorithm's updates on the case, or ``(None, how many at least)``
    when it needs more than :data:`CLASSIC_CAP` or :data:`CLASSIC_SECONDS` to tell."""
    from ..boundary.limits import RunTimeout, time_limit

    bound = theorem_bound(case)
    top = CLASSIC_CAP if bound is None else min(bound + 1, CLASSIC_CAP)
    more = EASY_UPDATES
    try:
        with time_limit(CLASSIC_SECONDS):
            for cap in (10**3, 10**4, 10**5, 10**6):  # the larger counts only when needed
                cap = min(cap, top)
                need = classic_updates(case, order, cap)
                if need is not None or cap == top:
                    return need, f"{cap:,} update(s) on this case"
                more = cap
        return None, f"{more:,} update(s) on this case"
    except RunTimeout:
        pass
    return None, f"{more:,} update(s) on this case (counted for {CLASSIC_SECONDS:g} s)"


def timed_out(
    case: Case,
    order: Order,
    claim: Claim | None,
    done: int | None,
    why: str,
    *,
    at_deadline: bool = False,
    start: tuple[Fraction, ...] | None = None,
    origin: bool = False,
) -> tuple[str, str]:
    """What a run interrupted by the clock says: ``("ENDS", message)`` where running
    past the limit is a failure, else ``("", reason)``: the run is inconclusive.
    ``done``: the updates the run made so far (``None``: not known); ``why``: what the
    clock saw; ``at_deadline``: the whole check's time ran out.  ``start``: the weights
    (and bias, last) the implementation starts from, when known and not zero: slow or
    wrong is then judged from that start, in its own setting (``origin``: no bias)."""
    so_far = f"; the run made {done} update(s) so far" if done else ""
    if at_deadline:
        return "", f"{AT_DEADLINE} during a run{so_far}"
    if start is not None and (any(start) or not origin):
        return _from_start(case, start, origin, why)
    bound = max_updates(claim) if claim is not None else None
    if bound is None:
        bound = theorem_bound(case)
    if done is not None and bound is not None and done > bound:
        return "ENDS", f"{why}, past the bound of {bound} update(s)"
    need = classic_updates(case, order, EASY_UPDATES + 1)
    theorem = theorem_bound(case)
    if need is not None and theorem is not None and theorem <= EASY_BOUND:
        return "ENDS", (
            f"{why} on a case the classic algorithm settles in {need} update(s) and the "
            f"theorem allows {theorem}: a loop that never ends?"
        )
    if need is not None:
        return "", (
            f"{why}: slow, not wrong -- the classic algorithm settles this case in {need} "
            f"update(s), but the theorem allows {_many(theorem)}: steps of other sizes (a "
            f"half step from 0) may need them ({case.n} points, d = {case.d})"
        )
    need, more = _counted(case, order)
    within = f"the bound ({bound} update(s)) not reached" if bound is not None else "no bound"
    needs = (
        f"the classic algorithm needs {need} update(s) on this case"
        if need is not None
        else f"the classic algorithm needs more than {more}"
    )
    return (
        "",
        f"{why}: slow, not wrong -- {within}; {needs} ({case.n} points, d = {case.d})",
    )


def _many(bound: int | None) -> str:
    """A bound on the updates in words: ``'1,234 update(s)'``, ``'about 1.2e+22
    update(s)'`` past a million, ``'any number'`` for none.

    >>> _many(1234), _many(12 * 10**21), _many(None)
    ('1,234 update(s)', 'about 1.2e+22 update(s)', 'any number of updates')
    """
    if bound is None:
        return "any number of updates"
    return f"{bound:,} update(s)" if bound < 10**6 else f"about {float(bound):.2g} update(s)"


def _from_start(case: Case, start: tuple[Fraction, ...], origin: bool, why: str) -> tuple[str, str]:
    """Slow or wrong, judged from the implementation's own start: the classic algorithm
    (cyclic, exact) from that start, in its setting (with a bias: on ``(x, 1)``)."""
    if origin:
        X, w = case.X, list(start[: case.d])
    else:
        X, w = tuple((*x, Fraction(1)) for x in case.X), list(start)
    shown = "(" + ", ".join(f"{float(v):.3g}" for v in w) + ")"
    if len(w) != len(X[0]):
        return "", f"{why}: slow, not wrong -- it starts from {shown}, not from 0"
    # from 0 with a bias (its start unknown): the classic algorithm on (x, 1)
    where = f"from this implementation's own start {shown}" if any(w) else "on (x, 1) from 0"
    where = "from 0" if origin and not any(w) else where
    need = _classic_from(X, case.y, w, EASY_UPDATES + 1)
    bound = bound_from(case, start, origin)
    if need is not None and bound is not None and bound <= EASY_BOUND:
        return "ENDS", (
            f"{why} on a case the classic algorithm settles in {need} update(s) {where} "
            f"and the theorem allows {bound}: a loop that never ends?"
        )
    if need is not None:
        return "", (
            f"{why}: slow, not wrong -- the classic algorithm settles this case in {need} "
            f"update(s) {where}, but the theorem allows {_many(bound)}: steps of other "
            f"sizes (a half step from 0) may need them ({case.n} points, d = {case.d})"
        )
    slow_where = f"from its own start {shown}" if any(w) else where
    allows = f"the theorem allows up to {bound:,} update(s)" if bound is not None else "no bound"
    return "", (
        f"{why}: slow, not wrong -- {slow_where} the classic algorithm needs "
        f"more than {EASY_UPDATES} update(s) and {allows} ({case.n} points, d = {case.d})"
    )


def bound_from(case: Case, start: tuple[Fraction, ...], origin: bool = False) -> int | None:
    """The theorem's bound on the updates from the start ``start`` (weights, then the
    bias): ``(u.w_1 + k gamma)^2 <= |u|^2 (|w_1|^2 + k R^2)`` on ``(x, 1)`` (on ``x``
    with ``origin``); None when the case's comparator has no positive margin.

    >>> from pla_proof.variants.protocol import orthonormal_cases
    >>> case = orthonormal_cases([2])[-1]
    >>> bound_from(case, (Fraction(0), Fraction(0), Fraction(0))), bound_from(
    ...     case, (Fraction(-5), Fraction(5), Fraction(0)))
    (4, 24)
    """
    if origin:
        X, u, w = case.X, case.u, list(start[: case.d])
    else:
        X = tuple((*x, Fraction(1)) for x in case.X)
        u = (*case.u, Fraction(case.params.get("theta", 0)))
        w = list(start)
    R2 = max(sum((v * v for v in x), Fraction(0)) for x in X)
    uu = sum((v * v for v in u), Fraction(0))
    pu0 = sum((a * b for a, b in zip(u, w, strict=True)), Fraction(0))
    n0 = sum((v * v for v in w), Fraction(0))
    gamma = min(
        yi * sum((a * b for a, b in zip(u, x, strict=True)), Fraction(0))
        for x, yi in zip(X, case.y, strict=True)
    )
    return max_updates(Claim(C=R2, g=gamma, uu=uu, pu0=pu0, n0=n0)) if gamma > 0 else None


def _classic_from(
    X: tuple[tuple[Fraction, ...], ...], y: tuple[int, ...], w: list[Fraction], cap: int
) -> int | None:
    """The updates the classic algorithm (cyclic, exact) makes from ``w``; None past
    ``cap``."""
    k = 0
    while True:
        moved = False
        for x, yi in zip(X, y, strict=True):
            if yi * sum((a * b for a, b in zip(w, x, strict=True)), Fraction(0)) <= 0:
                if k == cap:
                    return None
                w = [a + yi * b for a, b in zip(w, x, strict=True)]
                k += 1
                moved = True
        if not moved:
            return k
