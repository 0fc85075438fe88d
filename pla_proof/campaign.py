"""Time budgets: search until a time is spent, not for a number of examples.

Both kinds of campaign use this module -- the property suite's ``campaign`` profile
(:mod:`pla_proof.testing.plugin`) and ``pla-proof check --minutes``
(:mod:`pla_proof.variants.checking.campaign`).  Hypothesis has no time-based stopping rule
(``max_examples`` counts examples), so a campaign calls a search *again and again*,
each call an ordinary search of a fixed size (one *round*: a Hypothesis run of
``max_examples`` examples with a fresh seed, or one round of shards over the variants),
until its share of the budget is spent:

* the share is the time left divided by the searches this process has still to run
  (``ceil(searches / workers) - done``), so time a quick search leaves unused goes to
  the ones after it, and ``pytest -n N`` workers each spend about the whole budget;
* a round starts only if a round as long as the last one still fits in the share
  (every search gets at least one round);
* a search whose round ran fewer test cases than its round size has exhausted its
  search space and stops;
* an exception (a failing property) ends the search at once.

>>> now = [0.0]
>>> budget = Budget(100.0, searches=2, workers=1, clock=lambda: now[0])
>>> budget.share()                      # 100 s left, 2 searches to go
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
    """The time left for this process's searches."""

    def __init__(
        self,
        seconds: float,
        *,
        searches: int,
        workers: int = 1,
        clock: Callable[[], float] = time.monotonic,
    ):
        if seconds <= 0:
            raise ValueError(f"a campaign needs a positive time budget, got {seconds} s")
        self.seconds = seconds
        self.clock = clock
        self.deadline = clock() + seconds
        self.expected = max(1, math.ceil(searches / max(1, workers)))
        self.done = 0

    def left(self) -> float:
        return max(0.0, self.deadline - self.clock())

    def share(self) -> float:
        """Seconds for the next search."""
        return self.left() / max(1, self.expected - self.done)


@dataclass
class RoundStats:
    """What one search did with its share."""

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
    """Call ``call`` (one round) until this search's share is spent.

    ``count()`` returns the test cases run so far (the plugin counts calls of the
    test's ``hypothesis.inner_test``); ``round_size`` is the test cases a round runs
    when the space is not exhausted (a Hypothesis test's ``max_examples``; ``None``
    when rounds have no fixed size).  An exception from ``call`` propagates at once."""
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
