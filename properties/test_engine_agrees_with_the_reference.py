"""The compiled engine makes exactly the decisions of the plain ``Fraction`` loop.

The engine decides margins in int64 or in float64 with a rigorous error bound and
falls back to exact arithmetic where the bound cannot decide (filtered predicates).
Here Hypothesis builds data meant to break that -- decimals, arbitrary floats,
integers beyond int64, rationals with huge denominators, 1e-300 beside 1e300,
duplicated, negated and nudged points (exact and near-zero margins) -- and checks,
for every selection rule and in both modes, that the engine and the reference loop
(:mod:`pla_proof.engine.pyloop`) make the same updates, end the same way and return
the same weights; and that the vocabulary the monitor reads, measured by residues on
float data, is the one measured with Python integers.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import assume, example, given, note
from hypothesis import strategies as st

from pla_proof.data import Dataset, from_arrays
from pla_proof.engine.drive import drive
from pla_proof.engine.measure import (
    ResidueMeasures,
    enclosures,
    exact_measures,
    float_vector,
    last_weights,
    uses_residues,
)
from pla_proof.engine.pyloop import LinearProblem, loop
from pla_proof.engine.rule import CLASSIC, LinearRule
from pla_proof.monitor.core import Monitor
from pla_proof.proof.statements import RUNTIME_LEMMAS
from pla_proof.strategies import numeric_datasets

from ._support import CORE, SEEDS

RULES = st.sampled_from(["cyclic", "first", "random", "maxviol"])
LINEAR_RULES = st.one_of(
    st.just(CLASSIC),
    st.builds(
        LinearRule.make,
        eta=st.fractions(min_value=Fraction(1, 7), max_value=5, max_denominator=1000)
        | st.just(Fraction(1715299268461735936, 1537228672809129301)),  # int64 overflows
        tau=st.sampled_from([0, 1, Fraction(1, 3)]),
    ),
)


def _agree(data: Dataset, rule: LinearRule, order: str, seed: int, mode: str) -> None:
    ref = loop(LinearProblem(data, rule, mode), order=order, seed=seed, budget=80)
    got = drive(data, rule, order=order, seed=seed, budget=80, mode=mode)
    note(f"reference {ref.status} {ref.choices[:20]}; engine {got.status} {got.choices[:20]}")
    assert got.choices.tolist() == ref.choices
    assert got.status == ref.status
    assert got.w == ref.w


@CORE
@given(data=numeric_datasets(), rule=LINEAR_RULES, order=RULES, seed=SEEDS)
@example(
    data=from_arrays([[1e-150, 1e150], [-1e150, 1e-150], [3.0, -2.5]], [1, -1, 1]),
    rule=CLASSIC,
    order="cyclic",
    seed=0,
)
@example(
    data=from_arrays([[2**62, 1], [1, -(2**62)]], [1, -1]), rule=CLASSIC, order="maxviol", seed=0
)
@example(  # residues one apart hashed alike, and the first visit hid the true repeat
    data=from_arrays(
        [
            [1e-150, 3e-300, 2.9999999999999997e-20, 3e-300],
            [3e-300, 3e-300, 3e-300, 3e-300],
            [3e-300, 1e-150, 3e-300, 3e-300],
            [9.999999999999999e-151, 3e-300, 2.9999999999999997e-20, 3e-300],
            [9.999999999999999e-151, 3e-300, 2.9999999999999997e-20, 3e-300],
            [-9.999999999999999e-151, -3e-300, -2.9999999999999997e-20, -3e-300],
            [1e-150, 3e-300, 2.999999999999999e-20, 3e-300],
        ],
        [1, -1, -1, -1, -1, -1, -1],
    ),
    rule=CLASSIC,
    order="random",
    seed=16,
)
def test_exact_engine_makes_the_reference_decisions(
    data: Dataset, rule: LinearRule, order: str, seed: int
) -> None:
    _agree(data, rule, order, seed, "exact")


@CORE
@given(data=numeric_datasets(kinds=["int", "decimal", "float", "mixed"]), order=RULES, seed=SEEDS)
@example(
    data=from_arrays(
        [[2.0**52, 1.0], [2.0**53, -3.0], [2.0**53 + 2, 5.0], [-(2.0**54), 1e-3]], [1, -1, 1, 1]
    ),
    order="cyclic",
    seed=0,
)
def test_float_engine_makes_the_reference_decisions(data: Dataset, order: str, seed: int) -> None:
    """Float mode: float64 weights, each of their margins decided exactly."""
    _agree(data, CLASSIC, order, seed, "float")


def _chooser_run(data: Dataset, picks: list[int], mode: str) -> tuple[Any, Any]:
    def choose(viol: list[int], k: int) -> int:
        return viol[picks[(k - 1) % len(picks)] % len(viol)]

    ref = loop(LinearProblem(data, CLASSIC, mode), order=choose, budget=60)
    got = drive(data, CLASSIC, order=choose, budget=60, mode=mode)
    return ref, got


@given(data=numeric_datasets(), picks=st.lists(st.integers(0, 7), min_size=1, max_size=8))
def test_a_chooser_sees_the_same_violators_in_both(data: Dataset, picks: list[int]) -> None:
    for mode in ("exact", "float"):
        if mode == "float" and data.name.endswith(("huge", "rational")):
            continue
        ref, got = _chooser_run(data, picks, mode)
        assert got.choices.tolist() == ref.choices and got.status == ref.status


@given(
    data=numeric_datasets(kinds=["float", "mixed"], max_n=8, max_d=5),
    rule=LINEAR_RULES,
    order=RULES,
    U=st.lists(st.integers(-(2**200), 2**200), min_size=5, max_size=5),
    su=st.integers(1, 2**70),
    g=st.fractions(min_value=0, max_value=10**6),
    split=st.integers(0, 80),
)
@example(  # 1e-300 beside 1e300, and an exact zero margin at the start
    data=from_arrays([[1e-300, 1e300], [-3e-300, 2.5], [1e300, -1e-300]], [1, -1, 1]),
    rule=CLASSIC,
    order="cyclic",
    U=[1, -(2**200), 3, 0, 0],
    su=3,
    g=Fraction(0),
    split=1,
)
def test_the_vocabulary_by_residues_is_the_vocabulary_by_python_integers(
    data: Dataset,
    rule: LinearRule,
    order: str,
    U: list[int],
    su: int,
    g: Fraction,
    split: int,
) -> None:
    """Exact runs on float data measure the proof's vocabulary modulo primes and let
    float enclosures decide what they can: the same values, and the same findings of
    the monitor (first failing update and both sides, exactly), as Python integers."""
    dec = drive(data, rule, order=order, budget=80)
    world = dec.world
    assume(uses_residues(world) and dec.updates > 0)
    u = U[: data.d]
    uf, eu = float_vector([Fraction(v, su) for v in u])
    uu = sum((Fraction(v, su) ** 2 for v in u), Fraction(0))
    consts = {"g": g, "R2": data.radius_squared, "uu": uu}
    V = list(world.scales.V0)
    W, E = float_vector(rule.start(data.d))
    split = min(split, dec.updates)
    for k0, part in ((0, dec.choices[:split]), (split, dec.choices[split:])):
        if part.size == 0:
            continue
        ref = exact_measures(world, part, k0, V, u, su)
        iv, W, E = enclosures(world, part, k0, W, E, uf, eu)
        plain = ResidueMeasures(world, part, k0, V, u, su)
        filtered = ResidueMeasures(world, part, k0, V, u, su, intervals=iv)
        for name in ref:  # (the filtered ones with the enclosures' tighter bounds)
            assert plain[name].values() == ref[name].values(), name
            assert filtered[name].values() == ref[name].values(), name
        want = _findings(consts, ref)
        assert _findings(consts, plain) == want
        assert _findings(consts, filtered) == want
        V = plain.last_weights()
        assert _start(world, dec, k0 + part.size) == V


def _findings(consts: dict[str, Fraction], m: Any) -> list[tuple[str, int, Any, Any]]:
    mon = Monitor(RUNTIME_LEMMAS, consts, strict=False)
    return [(f.lemma.id, f.index, f.lhs, f.rhs) for f in mon.failures(m)]


def _start(world: Any, dec: Any, k0: int) -> list[int]:
    return last_weights(world, dec.choices[:k0], list(world.scales.V0))
