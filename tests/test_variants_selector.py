"""Selector: a hand-written loop makes the engine's choices in every order."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pla_proof.engine.orders import permutation
from pla_proof.errors import InputError
from pla_proof.variants import LinearVariant, Order, Selector, hard_cases
from pla_proof.variants.protocol.variant import orders


def dot(a: Any, b: Any) -> Any:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def my_loop(case: Any, order: Order, *, use_pick: bool) -> list[int]:
    """The classic algorithm as a user writes it, with the checker's order."""
    w = [Fraction(0)] * case.d
    sel = Selector(order, case.n)

    def margin(i: int) -> Any:
        return case.y[i] * dot(w, case.X[i])

    for k in range(1, 301):
        if use_pick:
            scores = [margin(i) for i in range(case.n)]
            violators = [i for i in range(case.n) if scores[i] <= 0]
            if not violators:
                break
            j = sel.pick(violators, scores, k)
        else:
            found = sel.next(lambda i: margin(i) <= 0, margin)
            if found is None:
                break
            j = found
        w = [a + case.y[j] * b for a, b in zip(w, case.X[j], strict=True)]
    return sel.choices


class Classic(LinearVariant):
    cap = 300


@settings(max_examples=60, deadline=None)
@given(hard_cases(max_n=6, max_d=3, max_bound=60), orders(), st.booleans())
def test_a_hand_written_loop_makes_the_engines_choices(case: Any, order: Order, pick: bool) -> None:
    engine = Classic().run(case, order)
    mine = my_loop(case, order, use_pick=pick)
    assert mine == engine.choices[: len(mine)]
    assert len(mine) == min(engine.updates, 300)


def test_replay_follows_the_recorded_indices_and_refuses_a_non_violator() -> None:
    X = ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)))
    sel = Selector(Order("replay", picks=(1, 0)), 2)
    assert sel.pick([0, 1]) == 1 and sel.pick([0]) == 0
    with pytest.raises(InputError, match="replay: point 2 is not a violator at update 1"):
        Selector(Order("replay", picks=(1,)), 2).pick([0])
    assert len(X) == 2


def test_epochs_are_the_engines_permutations() -> None:
    sel = Selector(Order("random", seed=7), 5)
    assert [sel.epoch(), sel.epoch()] == [
        permutation(5, seed=7, epoch=0),
        permutation(5, seed=7, epoch=1),
    ]
    assert Selector(Order("cyclic"), 3).epoch() == [0, 1, 2]
    with pytest.raises(InputError, match="has no epochs"):
        Selector(Order("first"), 3).epoch()


def test_misuse_is_refused_in_one_line() -> None:
    with pytest.raises(InputError, match="no violators"):
        Selector(Order("first"), 2).pick([])
    with pytest.raises(InputError, match="maxviol order needs the scores"):
        Selector(Order("maxviol"), 2).pick([0, 1])
    with pytest.raises(InputError, match="update 3 asked after 0 picks"):
        Selector(Order("first"), 2).pick([0], k=3)
    with pytest.raises(InputError, match="at least one point"):
        Selector(Order("first"), 0)


def test_the_visit_cap_ends_the_loop() -> None:
    sel = Selector(Order("cyclic"), 2, max_epochs=1)
    assert sel.next(lambda i: i == 1) == 1
    assert sel.next(lambda i: i == 0) is None and sel.exhausted
