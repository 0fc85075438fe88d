"""The checker's orders for a variant that runs its own loop.

A variant whose ``run(case, order)`` is a loop of its own (a kernel, a multiclass rule,
any state that is not a weight vector in R^d) honours the order the checker draws --
``first``, ``cyclic``, ``random``, ``maxviol``, ``choose`` (Hypothesis picks the
violator at every update) or ``replay`` (recorded indices) -- through a
:class:`Selector`: it makes the choices the engine makes, so a hand-written loop of the
classic algorithm updates on exactly the points the engine's run does, and a
counterexample replays exactly.

>>> from pla_proof.variants import Order
>>> sel = Selector(Order("cyclic"), 3)
>>> sel.pick([0, 2]), sel.pick([0, 2])
(0, 2)
>>> Selector(Order("maxviol"), 3).pick([0, 1], scores=[4, -5, 3])
1

The loop of the classic algorithm, with :meth:`Selector.next`:

>>> from fractions import Fraction
>>> X, y = [(Fraction(1), Fraction(0)), (Fraction(0), Fraction(1))], [1, -1]
>>> w, sel = [Fraction(0), Fraction(0)], Selector(Order("random", seed=3), 2)
>>> def margin(i):
...     return y[i] * sum(a * b for a, b in zip(w, X[i]))
>>> while (j := sel.next(lambda i: margin(i) <= 0, margin)) is not None:
...     w = [a + y[j] * b for a, b in zip(w, X[j])]
>>> w, sel.choices
([Fraction(1, 1), Fraction(-1, 1)], [0, 1])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ...engine.orders import Selection, permutation
from ...errors import InputError
from .variant import Order

__all__ = ["Selector"]


class Selector:
    """The choices of one run in ``order`` over ``n`` points (see the module docs).

    ``max_epochs`` caps the visits of ``cyclic``/``random`` at that many per point
    (:meth:`next` then returns None, like a converged run: check :attr:`exhausted`).
    :attr:`choices` holds the points picked so far and :attr:`visits` the 0-based
    visit number of each (-1 for the rules that do not visit), as a :class:`Record`
    takes them.
    """

    def __init__(self, order: Order, n: int, *, max_epochs: int | None = None) -> None:
        if n < 1:
            raise InputError(f"a Selector needs at least one point, got n = {n}")
        self.order = order
        self.n = n
        self._sel = Selection(n, order.engine(), seed=order.seed, max_epochs=max_epochs)
        self.choices: list[int] = []
        self.exhausted = False
        self._epoch = 0

    @property
    def visits(self) -> list[int]:
        return self._sel.visits

    def pick(
        self,
        violators: Sequence[int],
        scores: Sequence[Any] | None = None,
        k: int | None = None,
    ) -> int:
        """The next point to update on among ``violators`` (the points that trigger now,
        ascending); ``scores[i]`` ranks point ``i`` for ``maxviol`` (smaller is more
        violated); ``k``, the 1-based index of the coming update, must be the number of
        picks so far plus one when given."""
        viol = sorted(violators)
        if not viol:
            raise InputError("Selector.pick: no violators (the run has converged)")
        if k is not None and k != len(self.choices) + 1:
            raise InputError(f"Selector.pick: update {k} asked after {len(self.choices)} picks")
        if self.order.rule == "maxviol" and scores is None:
            raise InputError("Selector.pick: the maxviol order needs the scores")
        members = set(viol)
        j = self._sel.choose(
            viol,
            members.__contains__,
            (lambda i: scores[i]) if scores is not None else (lambda i: 0),
        )
        if j is None:
            self.exhausted = True
            raise InputError("Selector.pick: the visit cap (max_epochs) is reached")
        self.choices.append(j)
        return j

    def next(
        self,
        triggers: Callable[[int], bool],
        score: Callable[[int], Any] | None = None,
    ) -> int | None:
        """The next point to update on: ``triggers(i)`` says whether point ``i`` triggers
        now and ``score(i)`` how violated it is (needed by ``maxviol``); ``None`` when no
        point triggers (or the visit cap is reached: :attr:`exhausted`)."""
        viol = [i for i in range(self.n) if triggers(i)]
        if not viol:
            return None
        if self.order.rule == "maxviol" and score is None:
            raise InputError("Selector.next: the maxviol order needs score")
        j = self._sel.choose(viol, triggers, score if score is not None else (lambda i: 0))
        if j is None:
            self.exhausted = True
            return None
        self.choices.append(j)
        return j

    def epoch(self) -> list[int]:
        """The visiting order of the next pass over the points, for a loop that makes
        passes itself: ``range(n)`` for ``cyclic``, the engine's permutation of each
        epoch for ``random``."""
        if self.order.rule == "cyclic":
            return list(range(self.n))
        if self.order.rule == "random":
            perm = permutation(self.n, seed=self.order.seed, epoch=self._epoch)
            self._epoch += 1
            return perm
        raise InputError(f"order {self.order.rule!r} has no epochs (use cyclic or random)")
