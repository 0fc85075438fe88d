"""A trajectory seen one budget at a time (pla_proof.variants.diagnosis.budgets): each
change compared with any sequence of the algorithm's updates, the first that is not named
by the mistaken rule that reproduces it -- on trajectories worked by hand, the
algorithm's own included (which must be said to follow it)."""

from __future__ import annotations

from fractions import Fraction as F

from pla_proof.variants.diagnosis.budgets import budget_divergence, reach, watch_budgets
from pla_proof.variants.diagnosis.mechanism import Rule

X = [(F(2), F(1)), (F(3), F(1))]  # (2) y=-1; (3) y=+1, as (x, 1): a bias, last
Y = [-1, 1]
ZERO = (F(0), F(0))
RULE = Rule(eta=F(1), bias=True)


def _v(*pairs: tuple[int, int]) -> list[tuple[F, ...]]:
    return [(F(a), F(b)) for a, b in pairs]


def test_the_algorithms_passes_follow() -> None:
    # the classic passes, worked by hand: (1, 0), (2, 0), (3, 0), then (1, -1)
    d = budget_divergence(X, Y, RULE, ZERO, _v((1, 0), (2, 0), (3, 0), (1, -1)), False)
    assert d.mechanism == "follows" and len(d.agreed) == 7
    assert not d.confident


def test_the_step_of_a_fit_is_read_from_its_first_pass() -> None:
    half = Rule(eta=None, bias=True)  # a fit's own step, unknown: here 1/2
    states = [(F(1, 2), F(0)), (F(1), F(0))]
    assert budget_divergence(X, Y, half, ZERO, states, False).mechanism == "follows"


def test_a_frozen_bias_is_named_where_the_passes_part() -> None:
    # frozen: (1, 0), (2, 0), (3, 0) -- the algorithm's too -- then (1, 0), where the
    # algorithm is at (1, -1)
    states = _v((1, 0), (2, 0), (3, 0), (1, 0), (2, 0), (3, 0))
    d = budget_divergence(X, Y, RULE, ZERO, states, False)
    assert d.mechanism == "bias-frozen", d.words
    assert d.update == 7 and d.added == (F(-2), F(0)) and d.expected == (F(-2), F(-1))
    assert "with budget = 4" in d.words


def test_a_reversal_on_one_label_only_is_not_told_apart() -> None:
    # subtracting y x and adding x are the same on points of label -1
    d = budget_divergence(X, Y, RULE, ZERO, _v((2, 1), (4, 2)), False)
    assert d.mechanism == "sign-or-label" and d.confident
    d = budget_divergence(X[::-1], Y[::-1], RULE, ZERO, _v((-3, -1), (-6, -2)), False)
    assert d.mechanism == "sign-reversed"


def test_a_change_no_mistake_explains_is_unidentified() -> None:
    d = budget_divergence(X, Y, RULE, ZERO, _v((5, 7)), False)
    assert d.mechanism == "unidentified" and not d.confident
    assert "cause not identified" in d.words


def test_a_fit_that_stops_with_a_point_misclassified() -> None:
    # one pass of the algorithm, then the same weights at every budget after it
    d = budget_divergence(X, Y, RULE, ZERO, _v((1, 0)), True)
    assert d.mechanism == "missed-update" and d.update is None
    assert "after 2 update(s)" in d.words
    # cut by its budget (not stopped by itself): nothing missed is claimed
    assert budget_divergence(X, Y, RULE, ZERO, _v((1, 0)), False).mechanism == "follows"


def test_weights_that_come_back_each_pass_are_a_cycle_not_a_stop() -> None:
    # (0, 1) y=+1 and (0, -1) y=-1 as (x, 1): the second coordinate never moved, the
    # bias goes +1 then -1: back at 0 after every pass, with updates
    pts = [(F(0), F(1), F(1)), (F(0), F(-1), F(1))]
    d = budget_divergence(pts, [1, -1], RULE, (F(0),) * 3, [], True)
    assert d.mechanism == "coordinates-ignored", d.words
    assert "cancel out" in d.words
    # the same stop with no mistake that cycles: a tie left alone
    d = budget_divergence(X, Y, RULE, ZERO, [], True)
    assert d.mechanism == "tie-not-updated"


def test_reach_updates_each_point_at_most_once_per_change() -> None:
    classic = (lambda m, y, j: m <= 0, lambda x, y: tuple(y * v for v in x))
    assert reach(X, Y, *classic, F(1), ZERO, (F(1), F(0))) is not None
    # (-4, -2) is point 1 twice: not one change of a pass
    assert reach(X, Y, *classic, F(1), ZERO, (F(-4), F(-2))) is None


def test_watch_budgets_stops_when_the_fit_stops() -> None:
    calls: list[int] = []

    def fit_with(b: int) -> tuple[F, ...]:
        calls.append(b)
        return (F(min(b, 3)),)

    start, states, ended, last = watch_budgets(fit_with, 50)
    assert start == (F(0),) and [b for b, _ in states] == [1, 2, 3]
    assert ended and last == 5 and max(calls) == 5
    start, states, ended, last = watch_budgets(fit_with, 2)  # its own budget is 2
    assert not ended and last == 2


def test_watch_budgets_without_a_zero_budget() -> None:
    def fit_with(b: int) -> tuple[F, ...]:
        if b == 0:
            raise ValueError("at least one epoch")
        return (F(b),)

    start, states, ended, _ = watch_budgets(fit_with, 3)
    assert start is None and len(states) == 3 and not ended


def test_reach_gives_up_on_a_large_change() -> None:
    import pla_proof.variants.diagnosis.budgets as budgets

    n = 9
    pts = [(F(i + 1), F(1)) for i in range(n)]
    ys = [(-1) ** i for i in range(n)]
    old = budgets.NODES
    budgets.NODES = 50
    try:
        classic = (lambda m, y, j: True, lambda x, y: tuple(y * v for v in x))
        assert reach(pts, ys, *classic, F(1), (F(0), F(0)), (F(10**6), F(0))) is None
    finally:
        budgets.NODES = old
