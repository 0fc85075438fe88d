"""The exact weights and vocabulary of a chunk, on the int64 shortcut and off it."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pla_proof.data import from_arrays
from pla_proof.engine.drive import World, drive
from pla_proof.engine.measure import exact_measures, last_weights
from pla_proof.engine.rule import LinearRule


def _reference(world: World, choices: np.ndarray, V0: list[int]) -> list[int]:
    """Update by update, in Python integers."""
    V = list(V0)
    for j in choices:
        m = world.scales.mult[int(j)] * int(world.data.labels[int(j)])
        V = [v + m * z for v, z in zip(V, world.row(int(j)), strict=True)]
    return V


@pytest.mark.parametrize("top", [10, 2**40, 2**61])
@pytest.mark.parametrize("eta", [Fraction(1), Fraction(3, 7)])
def test_last_weights_are_the_updates_summed_exactly(top: int, eta: Fraction) -> None:
    rng = np.random.default_rng(5)
    X = rng.integers(-top, top, size=(12, 3), dtype=np.int64)
    u = np.array([3, -2, 1])
    X = X[np.abs(X @ u.astype(object)) > 0]
    y = np.where((X.astype(object) @ u.astype(object)) > 0, 1, -1)
    dec = drive(from_arrays(X, y), LinearRule(eta=eta), budget=40)
    world = dec.world
    V0 = list(world.scales.V0)
    for cut in (0, 1, dec.updates // 2, dec.updates):
        part = dec.choices[:cut]
        assert last_weights(world, part, V0) == _reference(world, part, V0)


def test_the_measures_of_a_chunk_start_where_the_last_one_ended() -> None:
    X = np.array([[3, 1], [-2, 4], [1, -5], [-4, -1]])
    y = np.array([1, 1, -1, -1])
    dec = drive(from_arrays(X, y), LinearRule(eta=Fraction(1, 2)))
    world, ch = dec.world, dec.choices
    V0 = list(world.scales.V0)
    whole = exact_measures(world, ch, 0, V0, [1, 1], 1)
    half = len(ch) // 2
    first = exact_measures(world, ch[:half], 0, V0, [1, 1], 1)
    second = exact_measures(world, ch[half:], half, last_weights(world, ch[:half], V0), [1, 1], 1)
    for key in ("n0", "n1", "t", "pu", "pu1"):
        a = [Fraction(int(v), whole[key].D) for v in np.atleast_1d(whole[key].A)]
        b = [Fraction(int(v), first[key].D) for v in np.atleast_1d(first[key].A)]
        c = [Fraction(int(v), second[key].D) for v in np.atleast_1d(second[key].A)]
        assert a == b + c, key


def test_the_loops_exact_weights_are_the_weights_rebuilt_from_residues(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On float data the loop keeps the exact weights in 62-bit limbs and hands them over
    at each chunk's end: they equal the weights rebuilt from the chunk's residues and
    those summed update by update in Python integers."""
    from pla_proof.engine import drive as driver
    from pla_proof.engine.measure import ResidueMeasures

    monkeypatch.setattr(driver, "CHUNK_ENTRIES", 1)  # chunks of 2,048, 4,096, ... updates

    rng = np.random.default_rng(3)
    u = rng.standard_normal(6)
    X = rng.standard_normal((900, 6)) * np.exp2(rng.integers(-30, 30, size=(900, 1)))
    X = X[np.abs(X @ u) > 1e-3 * np.linalg.norm(X, axis=1)]
    y = np.where(X @ u > 0, 1, -1)
    data = from_arrays(X, y)
    seen: list[int] = []
    state: dict[str, list[int]] = {}

    def on_chunk(k0: int, choices: np.ndarray, visits: np.ndarray) -> None:
        world = dec_world[0]
        handed = world.weights_after(k0 + len(choices))
        assert handed is not None
        V0 = state.get("V", list(world.scales.V0))
        fresh = prepare(data, LinearRule(), "exact")  # no weights handed over: residues
        rebuilt = ResidueMeasures(fresh, choices, k0, V0, None, 1).last_weights()
        assert handed == rebuilt
        state["V"] = handed
        seen.append(len(choices))

    from pla_proof.engine.drive import prepare

    world = prepare(data, LinearRule(), "exact")
    dec_world = [world]
    dec = drive(data, LinearRule(), on_chunk=on_chunk, world=world, budget=20_000)
    assert len(seen) >= 2 and sum(seen) == dec.updates > 2048
    fresh = prepare(data, LinearRule(), "exact")
    assert state["V"] == fresh.exact_weights(dec.choices, dec.updates)


@pytest.mark.parametrize("scale", [1e-200, 1e-3, 1.0, 1e5, 1e150])
def test_float_enclosures_contain_the_exact_vocabulary(scale: float) -> None:
    """The float vocabulary's enclosures (one compiled pass of sums, any summation
    order) contain the exact values for weights and a comparator known only within
    their drift bounds."""
    from pla_proof.engine.measure import float_measures

    rng = np.random.default_rng(11)
    K, d, n = 40, 7, 9
    X = rng.standard_normal((n, d)) * scale
    yl = np.where(rng.random(n) < 0.5, 1, -1)
    choices = rng.integers(0, n, size=K)
    Wp, W = rng.standard_normal((K, d)) * scale, rng.standard_normal((K, d)) * scale
    Ep, E = np.abs(Wp) * 1e-12, np.abs(W) * 1e-12
    u = rng.standard_normal(d)
    eu = np.abs(u) * 1e-15
    out = float_measures(X, yl, choices, 0, Wp, Ep, W, E, u, eu)
    F = Fraction
    for trial in range(3):  # true values anywhere within the drift bounds
        t = rng.uniform(-1, 1, size=4)
        for k in range(K):
            x = [F(float(v)) for v in X[choices[k]]]
            wp = [F(float(a)) + F(float(t[0] * b)) for a, b in zip(Wp[k], Ep[k], strict=True)]
            w = [F(float(a)) + F(float(t[1] * b)) for a, b in zip(W[k], E[k], strict=True)]
            uu = [F(float(a)) + F(float(t[2] * b)) for a, b in zip(u, eu, strict=True)]
            yk = int(yl[choices[k]])
            exact = {
                "t": yk * sum(a * b for a, b in zip(x, wp, strict=True)),
                "n0": sum(a * a for a in wp),
                "n1": sum(a * a for a in w),
                "xx": sum(a * a for a in x),
                "pu": sum(a * b for a, b in zip(wp, uu, strict=True)),
                "pu1": sum(a * b for a, b in zip(w, uu, strict=True)),
                "yux": yk * sum(a * b for a, b in zip(x, uu, strict=True)),
            }
            for name, v in exact.items():
                iv = out[name]
                assert F(float(iv.lo[k])) <= v <= F(float(iv.hi[k])), (name, k, trial)


@pytest.mark.parametrize("top", [100, 2**20, 2**28])
@pytest.mark.parametrize("eta", [Fraction(1), Fraction(2, 3)])
def test_the_compiled_integer_vocabulary_is_the_array_one(
    top: int, eta: Fraction, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Integer data, one multiplier: the one-pass compiled vocabulary equals the numpy
    one (and Python integers where the bounds do not allow int64: 2^28 coordinates)."""
    from pla_proof.engine import measure

    rng = np.random.default_rng(7)
    X = rng.integers(-top, top, size=(60, 5))
    u = np.array([2, -1, 3, 1, -2])
    X = X[(X @ u) != 0]
    y = np.where(X @ u > 0, 1, -1)
    dec = drive(from_arrays(X, y), LinearRule(eta=eta), budget=500)
    world, ch = dec.world, dec.choices
    assert dec.updates > 20
    V0 = list(world.scales.V0)
    fast = exact_measures(world, ch, 3, V0, list(u), 1)
    monkeypatch.setattr(measure, "_grid_arrays", lambda *a: None)
    slow = exact_measures(world, ch, 3, V0, list(u), 1)
    assert fast.keys() == slow.keys()
    for key in fast:
        a = [Fraction(int(v), fast[key].D) for v in np.atleast_1d(fast[key].A)]
        b = [Fraction(int(v), slow[key].D) for v in np.atleast_1d(slow[key].A)]
        assert a == b, key


@pytest.mark.parametrize("eta", [Fraction(1), Fraction(1, 3)])
def test_the_replayed_enclosures_contain_the_exact_vocabulary(eta: Fraction) -> None:
    """The one-pass enclosures (weights replayed by the loop's own float operations,
    nothing stored per update) contain every exact value of the run's vocabulary; with
    the updates replayed out of order they do not: the test can fail."""
    from pla_proof.engine.measure import enclosures, float_vector

    rng = np.random.default_rng(8)
    u = rng.standard_normal(5)
    X = rng.standard_normal((400, 5)) * np.exp2(rng.integers(-20, 20, size=(400, 1)))
    X = X[np.abs(X @ u) > 1e-2 * np.linalg.norm(X, axis=1)]
    data = from_arrays(X, np.where(X @ u > 0, 1, -1))
    rule = LinearRule(eta=eta)
    dec = drive(data, rule, budget=3000)
    world = dec.world
    assert dec.updates > 100
    U = [Fraction(float(v)) for v in u]
    su = int(np.lcm.reduce([f.denominator for f in U]))
    Ui = [int(f * su) for f in U]
    ref = exact_measures(world, dec.choices, 0, list(world.scales.V0), Ui, su)
    uf, eu = float_vector(U)
    W0, E0 = float_vector(rule.start(data.d))

    def outside(choices: np.ndarray) -> int:
        iv, _, _ = enclosures(world, choices, 0, W0, E0, uf, eu)
        count = 0
        for name in ("t", "n0", "n1", "xx", "pu", "pu1", "yux"):
            for k, v in enumerate(ref[name].values()):
                lo, hi = Fraction(float(iv[name].lo[k])), Fraction(float(iv[name].hi[k]))
                count += not lo <= v <= hi
        return count

    assert outside(dec.choices) == 0
    assert outside(dec.choices[::-1].copy()) > 0


def test_residues_of_wide_points_are_the_exact_vocabulary() -> None:
    """Past 2,048 coordinates the residue pass reduces its dot products every 2,048
    terms (the sums stay below 2^63): the same values as Python integers."""
    from pla_proof.engine.drive import prepare
    from pla_proof.engine.measure import ResidueMeasures

    rng = np.random.default_rng(2)
    d = 12_000  # (without the reductions the sums of products would pass 2^63)
    X = rng.standard_normal((6, d)) * np.exp2(rng.integers(-20, 20, size=(6, d)))
    y = np.array([1, -1, 1, -1, 1, -1])
    data = from_arrays(X, y)
    world = prepare(data, LinearRule(), "exact")
    choices = np.array([0, 1, 2, 3, 4, 5, 0, 3])  # updates as given, triggers or not
    U = [int(v) for v in rng.integers(-(2**40), 2**40, size=d)]
    V0 = list(world.scales.V0)
    got = ResidueMeasures(world, choices, 0, V0, U, 3)
    ref = exact_measures(world, choices, 0, V0, U, 3)
    for name in ("t", "n0", "n1", "xx", "pu", "pu1", "yux"):
        assert got[name].values() == ref[name].values(), name
