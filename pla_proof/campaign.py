"""Time-budget campaigns: search until a time is spent, not for a number of examples.

Hypothesis has no time-based stopping rule (``max_examples`` counts examples), so a
campaign runs each property *again and again*, each call an ordinary Hypothesis run of
``max_examples`` examples (one *round*) with a fresh random seed and the example
database, until the property's share of the budget is spent:

* the share is the time left divided by the properties this process has still to run
  (``ceil(properties / workers) - done``), so time a quick property leaves unused goes
  to the ones after it, and ``pytest -n N`` workers each spend about the whole budget;
* a round starts only if a round as long as the last one still fits in the share
  (every property gets at least one round);
* a property whose round ran fewer test cases than its ``max_examples`` has exhausted
  its search space and stops;
* a failure ends the property at once, shrunk and saved to the database as usual, and
  the database makes every later round -- and every other process sharing it -- replay
  it first.

>>> now = [0.0]
>>> budget = Budget(100.0, properties=2, workers=1, clock=lambda: now[0])
>>> budget.share()                      # 100 s left, 2 properties to go
50.0
>>> calls = []
>>> def one_round():                    # a Hypothesis run: 100 test cases in 10 s
...     now[0] += 10.0
...     calls.append(1)
>>> stats = run_rounds(one_round, budget, count=lambda: 100 * len(calls), round_size=100)
>>> stats.rounds, stats.test_cases, stats.seconds, budget.share()
(5, 500, 50.0, 50.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Budget", "RoundStats", "run_rounds"]


class Budget:
    """The time left for this process's properties."""

    def __init__(
        self,
        seconds: float,
        *,
        properties: int,
        workers: int = 1,
        clock: Callable[[], float] = time.monotonic,
    ):
        if seconds <= 0:
            raise ValueError(f"a campaign needs a positive time budget, got {seconds} s")
        self.seconds = seconds
        self.clock = clock
        self.deadline = clock() + seconds
        self.expected = max(1, math.ceil(properties / max(1, workers)))
        self.done = 0

    def left(self) -> float:
        return max(0.0, self.deadline - self.clock())

    def share(self) -> float:
        """Seconds for the next property."""
        return self.left() / max(1, self.expected - self.done)


@dataclass
class RoundStats:
    """What one property did with its share."""

    rounds: int
    test_cases: int
    seconds: float
    share: float
    exhausted: bool

    def describe(self) -> str:
        """One line for the suite report.

        >>> RoundStats(3, 1500, 30.0, 31.5, False).describe()
        '3 rounds, 1500 test cases in 30.0 s of a 31.5 s share (50 per s)'
        """
        rate = self.test_cases / self.seconds if self.seconds > 0 else 0.0
        end = "; search space exhausted" if self.exhausted else ""
        return (
            f"{self.rounds} rounds, {self.test_cases} test cases in {self.seconds:.1f} s "
            f"of a {self.share:.1f} s share ({rate:.0f} per s){end}"
        )


def run_rounds(
    call: Callable[[], object],
    budget: Budget,
    *,
    count: Callable[[], int],
    round_size: int | None,
) -> RoundStats:
    """Call ``call`` (one Hypothesis run) until this property's share is spent.

    ``count()`` returns the test cases run so far (the plugin counts calls of the
    test's ``hypothesis.inner_test``); ``round_size`` is its ``max_examples``.
    An exception from ``call`` (a failing property) propagates at once."""
    share = budget.share()
    start = budget.clock()
    first = count()
    rounds = 0
    exhausted = False
    try:
        while True:
            t0, c0 = budget.clock(), count()
            call()
            rounds += 1
            now = budget.clock()
            if round_size is not None and count() - c0 < round_size:
                exhausted = True
                break
            if now - start + (now - t0) > share:
                break
    finally:
        budget.done += 1
    return RoundStats(rounds, count() - first, budget.clock() - start, share, exhausted)
