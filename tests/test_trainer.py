import time
from fractions import Fraction

import pytest

from pla_proof import RULES, from_arrays, load, train
from pla_proof.errors import InputError
from pla_proof.trainer import Certificate


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("mode", ["exact", "float"])
def test_orthonormal_data_attain_the_bound_under_every_rule(rule: str, mode: str) -> None:
    run = train(load("orthonormal:6"), rule=rule, mode=mode)
    assert run.status == "converged"
    assert run.updates == 6 and run.bound == 6


def test_adversarial_chooser_still_obeys_the_bound() -> None:
    data = load("maxviol:1/5")
    u = [1, 0]
    last = train(data, rule=lambda viol, k: viol[-1], comparator=u)
    assert last.status == "converged"
    assert last.bound is not None and last.updates <= last.bound


def test_chooser_must_pick_a_violator() -> None:
    with pytest.raises(ValueError, match="not a violator"):
        train(load("orthonormal:3"), rule=lambda viol, k: 99)


def test_random_rule_is_reproducible_by_seed() -> None:
    data = load("orthonormal:8")
    a = train(data, rule="random", seed=3)
    b = train(data, rule="random", seed=3)
    c = train(data, rule="random", seed=4)
    assert a.choices == b.choices
    assert a.choices != c.choices
    assert sorted(a.choices) == list(range(8))


def test_selection_rule_changes_the_count_not_the_bound() -> None:
    data = load("maxviol:1/10")
    slow = train(data, rule="maxviol", comparator=[1, 0])
    fast = train(data, rule="cyclic", comparator=[1, 0])
    assert slow.status == fast.status == "converged"
    assert fast.updates == 3
    assert slow.updates > 40  # about 1/(2 gamma^2) = 50
    assert slow.updates <= slow.bound  # type: ignore[operator]


def test_first_rule_picks_the_lowest_violator() -> None:
    run = train(load("students"), rule="first")
    assert run.choices[0] == 0


def test_maxviol_picks_the_most_violated_point() -> None:
    data = from_arrays([[1, 0], [0, 1], [-3, 1]], [1, 1, 1])
    run = train(data, rule="maxviol", comparator=None)
    # after w = x1 = (1, 0) the margins are 1, 0, -3: the third point is picked
    assert run.choices[:2] == [0, 2]


def test_budget_is_respected() -> None:
    run = train(load("orthonormal:5"), budget=3)
    assert run.status == "budget_exhausted" and run.updates == 3
    with pytest.raises(InputError):
        train(load("orthonormal:5"), budget=-1)


@pytest.mark.parametrize("rule", RULES)
def test_xor_ends_quickly_with_a_verified_certificate(rule: str) -> None:
    start = time.perf_counter()
    run = train(load("xor"), rule=rule)
    assert time.perf_counter() - start < 5  # generous: the point is that it ends
    assert run.status == "not_separable"
    assert run.certificate is not None and run.certificate.verify(load("xor"))


def test_certificate_verification_rejects_wrong_certificates() -> None:
    xor = load("xor")
    assert Certificate(tuple(map(Fraction, (1, 1, 1, 1))), "test").verify(xor)
    assert not Certificate(tuple(map(Fraction, (1, 1, 1, 0))), "test").verify(xor)
    assert not Certificate(tuple(map(Fraction, (0, 0, 0, 0))), "test").verify(xor)
    assert not Certificate(tuple(map(Fraction, (-1, -1, -1, -1))), "test").verify(xor)
    assert not Certificate(tuple(map(Fraction, (1, 1, 1))), "test").verify(xor)


def test_converged_weights_separate_strictly_and_are_exact() -> None:
    data = from_arrays([["0.1", "0.2"], ["-0.3", "0.1"]], [1, -1])
    run = train(data)
    assert run.status == "converged"
    assert all(isinstance(v, Fraction) for v in run.w)
    assert all(
        y * sum(a * b for a, b in zip(run.w, x, strict=True)) > 0
        for x, y in zip(data.X, data.y, strict=True)
    )


def test_unknown_rule_and_mode() -> None:
    with pytest.raises(InputError, match="unknown rule"):
        train(load("xor"), rule="sideways")
    with pytest.raises(InputError, match="mode"):
        train(load("xor"), mode="decimal")


def test_large_integers_fall_back_from_int64_exactly() -> None:
    big = 2**40
    data = from_arrays([[big, 1], [1, -big]], [1, 1])
    run = train(data, comparator=[1, -1])
    assert run.status == "converged" and run.violation is None


def test_non_integer_weights_from_an_update_rule_are_never_truncated() -> None:
    # w = 1/2 after one update with eta = 1/2: an int64 conversion would read it as 0
    half = train(
        from_arrays([[-1]], [-1]),
        update=lambda w, x, y: [a + Fraction(1, 2) * y * b for a, b in zip(w, x, strict=True)],
        comparator=None,  # the classic lemmas (L1: step y x) do not hold for a step y x / 2
    )
    assert half.status == "converged" and half.updates == 1
    assert half.w == (Fraction(1, 2),)
    third = train(
        load("maxviol:1/10"),
        rule="maxviol",
        update=lambda w, x, y: [a + Fraction(1, 3) * y * b for a, b in zip(w, x, strict=True)],
        comparator=None,
    )
    plain = train(load("maxviol:1/10"), rule="maxviol")
    assert third.status == "converged" and third.choices == plain.choices
